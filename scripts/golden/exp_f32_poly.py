"""Coefficients of the f32 exp kernel (`kernels/fast.rs`, `EXP_POLY`): the degree-5
polynomial p with p(0) = 1 exactly and least maximum *relative* error for e^r on
|r| <= 1.001 * ln2/32 (the reduced argument's range, with room for its rounding), by
Remez exchange in mpmath. The constant term is pinned to 1 so that tiny arguments
(x within 2^-24 of 0, where e^x rounds next to 1 +- half an ulp) keep full accuracy:
the free-constant minimax is 2^-47.7 off at r = 0, which misrounded 12 such inputs.
Run with mpmath:
    python scripts/golden/exp_f32_poly.py
Prints the coefficients (highest first, as Rust f64 literals) and the measured
relative error of the f64-rounded coefficients, next to the Taylor polynomial's."""
from mpmath import mp, mpf, exp, log, cos, pi, lu_solve, matrix, polyval, diff, findroot, factorial

mp.dps = 60
DEG = 5
HALF_WIDTH = 1.001 * log(2) / 32
LO, HI = -HALF_WIDTH, HALF_WIDTH


def rel_err(c, x):
    """(p(x) - e^x) / e^x for coefficients c, lowest first."""
    return (polyval(c[::-1], x) - exp(x)) / exp(x)


def signed_err(c, x):
    """rel_err · sign(x): with p(0) = 1 pinned, the error is |x| times a weighted
    error of (p(x) - 1)/x against (e^x - 1)/x, and it is that one which equioscillates."""
    return rel_err(c, x) * (1 if x > 0 else -1)


def solve(points):
    """1 + sum c_j x_i^j - e^x_i = (-1)^i E e^x_i (j = 1..DEG) at DEG + 1 points: coefficients and E."""
    n = DEG + 1
    a, b = matrix(n, n), matrix(n, 1)
    for i, x in enumerate(points):
        for j in range(1, DEG + 1):
            a[i, j - 1] = x**j
        a[i, DEG] = -((-1) ** i) * exp(x) * (1 if x > 0 else -1)
        b[i] = exp(x) - 1
    s = lu_solve(a, b)
    return [mpf(1)] + [s[j] for j in range(DEG)], s[DEG]


def extrema(c, grid=4000):
    """One point of largest |error| per run of equal sign (of `signed_err`), refined by Newton."""
    xs = [LO + (HI - LO) * k / grid for k in range(grid + 1)]
    es = [signed_err(c, x) if x != 0 else 0 for x in xs]
    runs, run = [], [0]
    for k in range(1, grid + 1):
        if (es[k] > 0) == (es[run[0]] > 0):
            run.append(k)
        else:
            runs.append(run)
            run = [k]
    runs.append(run)
    best = [max(r, key=lambda k: abs(es[k])) for r in runs]
    assert len(best) == DEG + 1, f"{len(best)} sign runs"
    return [findroot(lambda x: diff(lambda y: signed_err(c, y), x), xs[k]) if 0 < k < grid else xs[k] for k in best]


def max_rel_err(c, grid=20000):
    return max(abs(rel_err(c, LO + (HI - LO) * k / grid)) for k in range(grid + 1))


def main():
    points = [(LO + HI) / 2 + (HI - LO) / 2 * cos(pi * (DEG - i) / DEG) for i in range(DEG + 1)]
    for _ in range(8):
        c, e = solve(points)
        points = extrema(c)
    rounded = [float(x) for x in c]
    taylor = [float(1 / factorial(j)) for j in range(DEG + 1)]
    print("const EXP_POLY: [f64; 6] = [" + ", ".join(repr(x) for x in rounded[::-1]) + "];")
    for name, coeffs in [("minimax", rounded), ("taylor", taylor)]:
        m = max_rel_err([mpf(x) for x in coeffs])
        print(f"{name}: max relative error {float(m):.4e} = 2^{float(log(m, 2)):.2f}")


if __name__ == "__main__":
    main()
