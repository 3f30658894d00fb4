#!/usr/bin/env python3
"""Tables for J0, J1, Y0, Y1 on [0, 100] (crates/lattensor/src/ops/special/bessel_windows.rs).

Each function is a power series near the origin and, from there to 100, a chain of Taylor
windows about its zeros and extrema (zeros of the derivative), each window running to the
midpoint of the neighbouring centre, so |t| = |x - centre| stays below ~0.9. The centre is
stored as a double-double (hi, lo) and the coefficients are the Taylor coefficients at
exactly hi + lo; every window lies within a factor of two of hi, so that x - hi is exact
(the series' ends are chosen so for J's first window). Y0 and Y1 are windows from Y_LOW on: below their series' end, a window
about the first zero (the series cancels there) and, either side of it, windows about points
spaced geometrically, each reaching at most Y_REACH of its centre (the nearest singularity, 0,
is a centre's length away, so the terms shrink by that ratio).

Coefficients come from the Bessel equation's recurrence at 100 digits; the count per window
is the least with a truncation bound sum |a_k| h^k (h the window's largest |t|) below
2^-60 of the smallest |f| in the window (of |f/t| about a zero). The first HEAD
coefficients are emitted as double-doubles, the rest as doubles.

    python scripts/golden/bessel_windows.py > crates/lattensor/src/ops/special/bessel_windows.rs
"""
import sys

from mpmath import mp, mpf, besselj, bessely, besseljzero, besselyzero, factorial, psi, euler, log, pi

mp.dps = 100
HEAD = 4
N_MAX = 90
TOP = 100
# window half-widths about the first zero inside the series range of Y0, Y1
INNER_ZERO_HALF = {"Y0": mpf("0.1"), "Y1": mpf("0.25")}
# where Y0's and Y1's windows begin (the series serves below), and how far a window below the
# series' end reaches from its centre, relative to the centre
Y_LOW = mpf("0.0625")
Y_REACH = mpf("0.2")
REL = mpf(2) ** -60


def zf(name, nu, k, deriv):
    f = besseljzero if name[0] == "J" else besselyzero
    return f(nu, k, derivative=deriv)


def value(name, nu, x, deriv=0):
    f = besselj if name[0] == "J" else bessely
    return f(nu, x, derivative=deriv)


def taylor(name, nu, c):
    """Taylor coefficients a_0..a_N_MAX of Z_nu about c, from
    c^2 (k+2)(k+1) a_{k+2} = -[c (k+1)(2k+1) a_{k+1} + (k^2 + c^2 - nu^2) a_k + 2c a_{k-1} + a_{k-2}]."""
    a = [value(name, nu, c), value(name, nu, c, 1)]
    for k in range(N_MAX - 1):
        s = c * (k + 1) * (2 * k + 1) * a[k + 1] + (k * k + c * c - nu * nu) * a[k]
        if k >= 1:
            s += 2 * c * a[k - 1]
        if k >= 2:
            s += a[k - 2]
        a.append(-s / (c * c * (k + 2) * (k + 1)))
    return a


def split(x):
    hi = float(x)
    return hi, float(x - mpf(hi))


def poly(a, t):
    s = mpf(0)
    for c in reversed(a):
        s = s * t + c
    return s


def needed(a, start, end, c, is_zero):
    """Least n such that the terms from a_n on are below REL of the smallest |f| (|f/t| at a zero)."""
    h = max(c - start, end - c)
    samples = [start + (end - start) * i / 32 for i in range(33)]
    if is_zero:
        m = min(abs(poly(a, s - c) / (s - c)) if s != c else abs(a[1]) for s in samples)
    else:
        m = min(abs(poly(a, s - c)) for s in samples)
    tail = mpf(0)
    for n in range(len(a) - 1, 0, -1):
        tail += abs(a[n]) * h ** (n - 1 if is_zero else n)
        if tail > REL * m:
            return n + 1
    return 1


def centres(name, nu):
    """Zeros and extrema of the function in increasing order, up to the first beyond TOP."""
    out = []
    for deriv in (0, 1):
        k = 1
        while True:
            if name == "J0" and deriv == 1:
                z = besseljzero(1, k)  # J0' = -J1
            elif name == "Y0" and deriv == 1:
                z = besselyzero(1, k)  # Y0' = -Y1
            else:
                z = zf(name, nu, k, deriv)
            out.append((z, deriv == 0))
            if z > TOP:
                break
            k += 1
    out.sort(key=lambda p: p[0])
    # keep one centre beyond TOP
    while len(out) > 1 and out[-2][0] > TOP:
        out.pop()
    return out


def fmt(v):
    return repr(float(v))


def dd(v):
    hi, lo = split(v)
    return "Dd(%r, %r)" % (hi, lo)


def window(name, nu, c_exact, start, end, is_zero):
    hi, lo = split(c_exact)
    # within a factor of two of the centre, x - hi is exact (Sterbenz), which the kernel relies on
    assert hi / 2 <= start and end <= 2 * hi, (name, start, end, hi)
    c = mpf(hi) + mpf(lo)
    a = taylor(name, nu, c)
    n = max(needed(a, start, end, c, is_zero), HEAD + 1)
    head = ", ".join(dd(x) for x in a[:HEAD])
    tail = ", ".join(fmt(x) for x in a[HEAD:n])
    kind = "zero" if is_zero else "extremum"
    return n, "Window { start: %r, end: %r, centre: Dd(%r, %r), head: [%s], tail: &[%s] }, // %s, %d terms" % (
        float(start), float(end), hi, lo, head, tail, kind, n)


def windows(name, nu, series_end):
    cs = centres(name, nu)
    out = []
    first = INNER_ZERO_HALF.get(name)
    if first is not None:
        z, _ = cs[0]
        s, e = float(z - first), float(z + first)
        for a, b in geometric(Y_LOW, mpf(s)):
            out.append(window(name, nu, mpf(float((a + b) / 2)), a, b, False))
        out.append(window(name, nu, z, mpf(s), mpf(e), True))
        for a, b in geometric(mpf(e), series_end):
            out.append(window(name, nu, mpf(float((a + b) / 2)), a, b, False))
    cs = [p for p in cs if p[0] > series_end]
    bounds = [series_end] + [mpf(float((cs[i][0] + cs[i + 1][0]) / 2)) for i in range(len(cs) - 1)] + [mpf(TOP)]
    for i, (z, is_zero) in enumerate(cs):
        start, end = bounds[i], min(bounds[i + 1], mpf(TOP))
        if start >= TOP:
            break
        out.append(window(name, nu, z, start, end, is_zero))
    return out


def geometric(lo, hi):
    """Windows [a, b] chaining lo to hi (ends rounded to doubles) with b/a equal and at most
    (1 + Y_REACH)/(1 - Y_REACH), so each reaches at most Y_REACH of its midpoint."""
    q = (1 + Y_REACH) / (1 - Y_REACH)
    n = int(mp.ceil(log(hi / lo) / log(q)))
    edges = [lo] + [mpf(float(lo * (hi / lo) ** (mpf(i) / n))) for i in range(1, n)] + [hi]
    return list(zip(edges, edges[1:]))


# power series about 0 in u = x^2
def j_coef(nu, k):
    return (-1) ** k / (mpf(4) ** k * factorial(k) * factorial(k + nu)) / (2 if nu else 1)


def y0_coef(k):
    h = sum(mpf(1) / j for j in range(1, k + 1))
    return 2 / pi * (-1) ** k / (mpf(4) ** k * factorial(k) ** 2) * (euler - log(2) - h)


def y1_coef(k):
    return (-1) ** k / (2 * mpf(4) ** k * factorial(k) * factorial(k + 1)) * (
        -2 / pi * log(2) - (psi(0, k + 1) + psi(0, k + 2)) / pi)


def series(coef, xmax, name, what):
    """Coefficients while the terms at u = xmax^2 exceed 2^-70; those above 2^-14 in double-double."""
    u = mpf(xmax) ** 2
    cs = []
    k = 0
    while True:
        c = coef(k)
        cs.append(c)
        rest = sum(abs(coef(j)) * u ** j for j in range(k + 1, k + 6))
        if rest < mpf(2) ** -70:
            break
        k += 1
    head_n = next(i for i in range(len(cs)) if sum(abs(c) * u ** j for j, c in enumerate(cs) if j >= i) < mpf(2) ** -14)
    head_n = max(head_n, 1)
    head = ", ".join(dd(c) for c in cs[:head_n])
    tail = ", ".join(fmt(c) for c in cs[head_n:])
    return "/// %s for x <= %r: %d terms in u = x^2.\nconst %s: Series = Series { head: &[%s], tail: &[%s] };" % (
        what, float(xmax), len(cs), name, head, tail)


def check_series():
    """The series forms against mpmath at a few points."""
    for x in [mpf("0.3"), mpf("1.7"), mpf("2.9")]:
        u = x * x
        j0 = sum(j_coef(0, k) * u ** k for k in range(60))
        j1 = x * sum(j_coef(1, k) * u ** k for k in range(60))
        y0 = 2 / pi * log(x) * j0 + sum(y0_coef(k) * u ** k for k in range(60))
        y1 = 2 / pi * log(x) * j1 - 2 / (pi * x) + x * sum(y1_coef(k) * u ** k for k in range(60))
        for got, want in [(j0, besselj(0, x)), (j1, besselj(1, x)), (y0, bessely(0, x)), (y1, bessely(1, x))]:
            assert abs(got - want) < mpf(10) ** -60, (x, got, want)
    # the recurrence against mpmath's derivatives
    a = taylor("Y1", 1, mpf("3.5"))
    for k in (5, 20, 40):
        want = bessely(1, mpf("3.5"), derivative=k) / factorial(k)
        assert abs(a[k] - want) < mpf(10) ** -50 * abs(want), k


SERIES_END = {"J0": mpf("1.21"), "J1": mpf("0.93"), "Y0": mpf("3.07"), "Y1": mpf("2.94")}


def main():
    check_series()
    print("// Generated by scripts/golden/bessel_windows.py (mpmath): power series about 0 and Taylor")
    print("// windows about the zeros and extrema of J0, J1, Y0, Y1 on [0, 100].")
    print()
    print(series(lambda k: j_coef(0, k), SERIES_END["J0"], "J0_SERIES", "P with J0 = P(x²)"))
    print(series(lambda k: j_coef(1, k), SERIES_END["J1"], "J1_SERIES", "P with J1 = x·P(x²)"))
    # Y's series serve below Y_LOW only (windows cover the rest of SERIES_END)
    print(series(lambda k: j_coef(0, k), Y_LOW, "Y0_SERIES_J", "P with J0 = P(x²), for Y0"))
    print(series(y0_coef, Y_LOW, "Y0_SERIES_Q", "Q with Y0 = (2/π)·ln(x)·J0 + Q(x²)"))
    print(series(lambda k: j_coef(1, k), Y_LOW, "Y1_SERIES_J", "P with J1 = x·P(x²), for Y1"))
    print(series(y1_coef, Y_LOW, "Y1_SERIES_R", "R with Y1 = (2/π)·ln(x)·J1 − 2/(πx) + x·R(x²)"))
    for name, nu in [("J0", 0), ("J1", 1), ("Y0", 0), ("Y1", 1)]:
        ws = windows(name, nu, SERIES_END[name])
        terms = [n for n, _ in ws]
        print(name, len(ws), "windows, terms", min(terms), "-", max(terms), terms, file=sys.stderr)
        print()
        start = "its series' end" if name[0] == "J" else repr(float(Y_LOW))
        print("/// %s from %s to 100: %d Taylor windows by increasing start (%d to %d terms)." % (
            name, start, len(ws), min(terms), max(terms)))
        print("const %s_WINDOWS: [Window; %d] = [" % (name, len(ws)))
        for _, w in ws:
            print("    " + w)
        print("];")


if __name__ == "__main__":
    main()
