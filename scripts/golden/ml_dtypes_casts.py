"""Golden casts of the eight low-precision dtypes, measured with ml_dtypes.

Writes crates/lattensor/tests/data/ml_dtypes_casts.json, read by
crates/lattensor/tests/lowp_casts.rs. Run in a venv with numpy and ml_dtypes:

    python scripts/golden/ml_dtypes_casts.py

For each type it records, as ml_dtypes computes them (NumPy `astype`):

* `decode`: every bit pattern (256, or 16 for the 4-bit types) converted to
  float32, as f32 bit patterns in hex;
* `round_trip_f32`: those float32 values converted back (NaN payloads are not kept);
* `from_f16`, `from_bf16`: all 65536 float16 / bfloat16 bit patterns converted
  to the type, run-length encoded over the pattern order (`[[first, byte], …]`,
  a run lasting until the next one starts) — exhaustive, yet a few hundred runs;
* `from_f32`: the dense float32 sample of every 2^12-th bit pattern (2^20
  values), run-length encoded the same way;
* `from_f64`: every 2^44-th float64 bit pattern (2^20 values), likewise;
* `ties_f32`, `ties_f64`: each midpoint between neighbouring values of the type,
  the midpoint one ulp below and above (in float32 and in float64), and the
  values around the overflow threshold, as one hex string of (input bits,
  result byte) records;
* `from_i64`: the integers of the top-level `ints` (small ones, and large ones
  whose float32 rounding would create a false tie) converted, as a hex string;
* `to_i32`: every finite bit pattern converted to int32 (as float → int);
* `cross`: every bit pattern converted to each other low-precision type (hex).

The 4-bit integers record `from_i64` (wrapping) and `from_f16` (ml_dtypes gives
0 for an out-of-range float; lattensor saturates, see docs/low_precision.md).
"""
import json
import os
import sys

import ml_dtypes
import numpy as np

FLOATS = ["float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e8m0fnu", "float4_e2m1fn"]
INTS = ["int4", "uint4"]
OUT = os.path.join(os.path.dirname(__file__), "..", "..", "crates", "lattensor", "tests", "data", "ml_dtypes_casts.json")


def dt(name):
    return np.dtype(getattr(ml_dtypes, name))


def patterns(name):
    n = 16 if name in ("float4_e2m1fn", "int4", "uint4") else 256
    return np.arange(n, dtype=np.uint8).view(dt(name))


def rle(bytes_):
    b = np.asarray(bytes_, dtype=np.uint8)
    starts = np.concatenate([[0], np.nonzero(b[1:] != b[:-1])[0] + 1])
    return [[int(s), int(b[s])] for s in starts]


def to_bytes(x, name):
    with np.errstate(all="ignore"):
        return x.astype(dt(name)).view(np.uint8)


def ties(name, ftype):
    """Midpoints of neighbouring finite values and their one-ulp neighbours, in `ftype`."""
    vals = patterns(name).astype(np.float64)
    finite = np.unique(vals[np.isfinite(vals)])
    mids = (finite[1:] + finite[:-1]) / 2
    top = finite[-1]
    step = finite[-1] - finite[-2]
    # around the overflow threshold: max + half a step (the first value that
    # would round to a next binade), and well beyond
    extra = np.array([top + step / 2, top + step, 2 * top, -(top + step / 2), 1e30, -1e30, np.inf, -np.inf, np.nan, -np.nan, 0.0, -0.0])
    with np.errstate(all="ignore"):
        xs = np.concatenate([mids, extra]).astype(ftype)
    ut = np.uint32 if ftype == np.float32 else np.uint64
    up = np.nextafter(xs, np.array(np.inf, ftype))
    down = np.nextafter(xs, np.array(-np.inf, ftype))
    allx = np.concatenate([xs, up, down])
    out = to_bytes(allx, name)
    width = 8 if ftype == np.float32 else 16
    return "".join(format(int(b), f"0{width}x") + format(int(o), "02x") for b, o in zip(allx.view(ut), out))


def hexbytes(b):
    return bytes(np.asarray(b, dtype=np.uint8)).hex()


def main():
    if ml_dtypes.__version__ != "0.7.0":
        print(f"note: generated with ml_dtypes {ml_dtypes.__version__} (the committed file used 0.7.0)", file=sys.stderr)
    f16_all = np.arange(65536, dtype=np.uint16).view(np.float16)
    bf16_all = np.arange(65536, dtype=np.uint16).view(ml_dtypes.bfloat16)
    f32_sample = (np.arange(1 << 20, dtype=np.uint64) << 12).astype(np.uint32).view(np.float32)
    f64_sample = (np.arange(1 << 20, dtype=np.uint64) << 44).view(np.float64)
    ints = list(range(-40, 41)) + [-600, -449, 300, 449, 500, 600] + [
        2**40 + 2**36 + 1, -(2**40 + 2**36 + 1), 2**62 + 2**58 + 1, 2**31 - 1, -(2**31), 2**63 - 1, -(2**63),
        448, 464, 465, 480, 57344, 61440, 61439, 2**20 + 2**16, 2**20 + 2**16 + 1,
    ]
    out = {"ml_dtypes": ml_dtypes.__version__, "numpy": np.__version__, "ints": [str(i) for i in ints], "types": {}}
    for name in FLOATS + INTS:
        p = patterns(name)
        rec = {}
        with np.errstate(all="ignore"):
            dec = p.astype(np.float32)
        rec["decode"] = [format(int(b), "08x") for b in dec.view(np.uint32)]
        rec["round_trip_f32"] = hexbytes(to_bytes(dec, name))
        rec["from_f16"] = rle(to_bytes(f16_all, name))
        rec["from_i64"] = hexbytes(to_bytes(np.array(ints, dtype=np.int64), name))
        if name in FLOATS:
            rec["from_bf16"] = rle(to_bytes(bf16_all, name))
            rec["from_f32"] = rle(to_bytes(f32_sample, name))
            rec["from_f64"] = rle(to_bytes(f64_sample, name))
            rec["ties_f32"] = ties(name, np.float32)
            rec["ties_f64"] = ties(name, np.float64)
            fin = np.isfinite(dec) & (np.abs(dec) < 2**31)
            with np.errstate(all="ignore"):
                rec["to_i32"] = [[i, int(v)] for i, v in enumerate(dec.astype(np.int32)) if fin[i]]
        rec["cross"] = {other: hexbytes(to_bytes(p, other)) for other in FLOATS + INTS if other != name}
        out["types"][name] = rec
    with open(OUT, "w") as f:
        json.dump(out, f, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {os.path.normpath(OUT)} ({os.path.getsize(OUT)} bytes)")


if __name__ == "__main__":
    main()
