"""Every f32 input whose e^x lies within 2^-43 (relative) of an f32 rounding
boundary, with its correctly rounded f32 value: the reference for the inputs
where the system's f64 `exp` (error under 1 f64 ulp, 2^-52) is too close to a
boundary to be trusted, for `kernels/exp.rs`'s tests.

The boundaries are the midpoints between adjacent f32 (subnormals included,
where the f32 ulp is 2^-149; 2^-150 between 0 and the least subnormal;
2^128 - 2^103 between f32::MAX and infinity). numpy's f64 `exp` picks the
candidates within 2^-40 (its error is far below the 2^-40 - 2^-43 margin);
mpmath at 60 digits keeps those within 2^-43 and rounds them. Outside this list
the f64 reference is within 2^-52 of e^x and e^x is more than 2^-43 from every
boundary, so rounding the f64 value to f32 is correct.

Run with numpy and mpmath (about a minute):
    python scripts/golden/exp_f32_hard.py > crates/lattensor/tests/data/exp_f32_hard.txt
Output: a comment header, then one line per input: x's bits, the correctly
rounded e^x's bits (both hex) and log2 of the relative distance to the boundary.
"""
import numpy as np
from mpmath import mp, mpf, exp, log, floor, ldexp

mp.dps = 60
SELECT, KEEP = 2.0**-40, 2.0**-43


def ulp32(y):
    """The f32 ulp at a positive value y (2^-149 in the subnormal range)."""
    _, e = np.frexp(y)  # y = m·2^e, m in [0.5, 1)
    return np.ldexp(1.0, np.maximum(e - 1, -126) - 23)


def candidates():
    for hi in range(256):
        bits = (np.uint32(hi) << np.uint32(24)) | np.arange(1 << 24, dtype=np.uint32)
        x = bits.view(np.float32).astype(np.float64)
        keep = np.isfinite(x) & (x > -104.0) & (x < 89.0)
        bits, x = bits[keep], x[keep]
        y = np.exp(x)
        u = ulp32(y)
        mid = (np.floor(y / u) + 0.5) * u  # the boundary at or above-nearest y
        dist = np.minimum(np.abs(y - mid), np.abs(y - (mid - u))) / y
        yield from bits[dist < SELECT].tolist()


def exact(bits):
    """(correctly rounded f32 bits, log2 relative distance to the boundary)."""
    x = mpf(float(np.uint32(bits).view(np.float32)))
    e = exp(x)
    ex = int(floor(log(e, 2)))
    u = ldexp(mpf(1), max(ex, -126) - 23)
    k = floor(e / u)
    mid = (k + mpf(0.5)) * u
    near = min(abs(e - mid), abs(e - (mid - u)))
    n = int(k) + (1 if e > mid else 0)  # e is never a midpoint (x != 0 here)
    y = float(n * u)  # n·u is exact in f64, and an f32 value (or 2^128)
    ybits = int(np.float32(y).view(np.uint32)) if y < 2.0**128 else 0x7F800000
    return ybits, float(log(near / e, 2))


def main():
    rows = []
    for bits in candidates():
        ybits, d = exact(bits)
        if d < -43:
            rows.append((bits, ybits, d))
    rows.sort()
    print("# f32 x, correctly rounded f32 e^x, log2 of the relative distance to a boundary")
    print(f"# {len(rows)} inputs within 2^-43; the closest {min(r[2] for r in rows):.2f}")
    for bits, ybits, d in rows:
        print(f"{bits:08x} {ybits:08x} {d:.2f}")


if __name__ == "__main__":
    main()
