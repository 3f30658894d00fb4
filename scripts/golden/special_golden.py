#!/usr/bin/env python3
"""Golden data for lattensor's special functions.

For every function: test points (a dense sweep plus edges: 0, ±tiny, near
poles/roots, huge arguments, nan/±inf), the mpmath reference at >= 50 digits
as an f64 pair (hi, lo) of shortest round-trip decimal strings with hi + lo ≈ exact, and SciPy's and TF's float64
values on the same points. Writes crates/lattensor/tests/data/special_golden.json.
Run with /work/venv/oracle/bin/python (tensorflow-cpu, scipy, mpmath).
"""
import json, math, os, sys
import numpy as np
import mpmath
from mpmath import mp, mpf
import scipy.special as sc
import tensorflow as tf

mp.dps = 50
inf, nan = float("inf"), float("nan")
rng = np.random.default_rng(12345)


def sweep(lo, hi, n, log=False):
    if log:
        return list(np.geomspace(lo, hi, n))
    return list(np.linspace(lo, hi, n) + rng.uniform(-1e-3, 1e-3, n) * (hi - lo) / n)


def pts(*groups):
    out = []
    for g in groups:
        out += [float(v) for v in g]
    out += [0.0, -0.0, 5e-324, -5e-324, 1e-300, -1e-300, 1e-20, -1e-20, 1e-8, -1e-8, nan, inf, -inf]
    seen, res = set(), []
    for v in out:
        k = struct_key(v)
        if k not in seen:
            seen.add(k)
            res.append(v)
    return res


def struct_key(v):
    return np.float64(v).tobytes()


def extra_prec(x):
    return 50 + int(max(0, math.log10(abs(x)))) if x != 0 and math.isfinite(x) else 50


def ref_erfcinv(q):
    q = mpf(q)
    if q <= 0 or q >= 2:
        return None
    if q == 1:
        return mpf(0)
    g = float(sc.erfcinv(float(q)))
    if not math.isfinite(g) or q < 1e-250:
        g = math.sqrt(-math.log(float(q)))
    if q < mpf("0.5"):
        return mp.findroot(lambda t: mp.log(mp.erfc(t)) - mp.log(q), mpf(g), tol=mpf(10) ** -45)
    return mp.findroot(lambda t: mp.erfc(t) - q, mpf(g), tol=mpf(10) ** -45)


def mp_ref(name, x):
    xm = mpf(x)
    if name == "erf":
        return mp.erf(xm)
    if name == "erfc":
        return mp.erfc(xm)
    if name == "erfinv":
        if abs(x) >= 1:
            return None
        if x == 0:
            return mpf(0)
        if abs(x) < 0.5:
            return mp.erfinv(xm)
        return mp.sign(xm) * ref_erfcinv(1 - abs(xm))
    if name == "erfcinv":
        return ref_erfcinv(x)
    if name == "ndtri":
        if x <= 0 or x >= 1:
            return None
        return -mp.sqrt(2) * ref_erfcinv(2 * xm)
    if name == "lgamma":
        if x <= 0 and x == math.floor(x):
            return None
        return mp.log(abs(mp.gamma(xm))) if abs(x) < 1e5 else (mp.loggamma(xm).real if x > 0 else None)
    if name == "digamma":
        if x <= 0 and x == math.floor(x):
            return None
        return mp.digamma(xm)
    if name == "expint":
        if x == 0:
            return None
        return mp.ei(xm)
    if name == "dawsn":
        return mp.sqrt(mp.pi) / 2 * mp.exp(-xm * xm) * mp.erfi(xm)
    if name == "fresnel_cos":
        return mp.fresnelc(xm)
    if name == "fresnel_sin":
        return mp.fresnels(xm)
    if name == "spence":
        if x < 0:
            return None
        return mp.polylog(2, 1 - xm)
    if name == "bessel_i0":
        return mp.besseli(0, xm)
    if name == "bessel_i0e":
        return mp.exp(-abs(xm)) * mp.besseli(0, xm)
    if name == "bessel_i1":
        return mp.besseli(1, xm)
    if name == "bessel_i1e":
        return mp.exp(-abs(xm)) * mp.besseli(1, xm)
    if name == "bessel_j0":
        return mp.besselj(0, xm)
    if name == "bessel_j1":
        return mp.besselj(1, xm)
    if name in ("bessel_k0", "bessel_k0e", "bessel_k1", "bessel_k1e", "bessel_y0", "bessel_y1"):
        if x <= 0:
            return None
        n = int(name[-1]) if name[-1] in "01" else int(name[-2])
        if name.startswith("bessel_k"):
            v = mp.besselk(n, xm)
            return v * mp.exp(xm) if name.endswith("e") else v
        return mp.bessely(n, xm)
    raise KeyError(name)


def sp_fn(name):
    return {
        "erf": sc.erf, "erfc": sc.erfc, "erfinv": sc.erfinv, "erfcinv": sc.erfcinv, "ndtri": sc.ndtri,
        "lgamma": sc.gammaln, "digamma": sc.psi, "expint": sc.expi, "dawsn": sc.dawsn,
        "fresnel_cos": lambda v: sc.fresnel(v)[1], "fresnel_sin": lambda v: sc.fresnel(v)[0],
        "spence": sc.spence, "bessel_i0": sc.i0, "bessel_i0e": sc.i0e, "bessel_i1": sc.i1, "bessel_i1e": sc.i1e,
        "bessel_j0": sc.j0, "bessel_j1": sc.j1, "bessel_k0": sc.k0, "bessel_k0e": sc.k0e, "bessel_k1": sc.k1,
        "bessel_k1e": sc.k1e, "bessel_y0": sc.y0, "bessel_y1": sc.y1,
    }[name]


def tf_fn(name):
    m = tf.math
    if hasattr(m, name):
        return getattr(m, name)
    if name == "erfcinv":
        return lambda t: tf.math.erfinv(1 - t)  # TF has no erfcinv op; closest composition
    return getattr(tf.math.special, name)


BIG = [1e3, 1e5, 1e10, 1e15, 1e20, 1e50, 1e100, 1e200, 1e300, 1.7976931348623157e308]
def zeros_near(kind, n, ks):
    """Zeros (rounded to f64) of J_n or Y_n with index k, and points 1e-6 to either side."""
    f = mp.besseljzero if kind == "j" else mp.besselyzero
    out = []
    for k in ks:
        z = float(f(n, k))
        out += [z, z * (1 + 1e-6), z * (1 - 1e-6)]
        if z > 100:
            out += [math.nextafter(z, 0), math.nextafter(z, math.inf), z * (1 + 1e-12)]
    return out


ZK = [13, 20, 25, 31]
# zeros above 100 (the modulus/phase path, up to 2^20): J0's 10^5-th zero is ~314158
ZK_BIG = [32, 33, 77, 318, 1000, 10000, 100000]


def zeros_at(kind, n, xs):
    """For each target x, the zero of J_n or Y_n nearest to it (via mpmath's findroot from
    McMahon's estimate), rounded to f64, with its neighbouring doubles and points 1e-12 away.
    Above 2^20 these test the Payne-Hanek reduction: the double nearest a zero lies about
    ulp(x)/2 from it, so the value cancels to that scale."""
    f = mp.besselj if kind == "j" else mp.bessely
    # zeros of J_n: x - (2n+1)pi/4 - pi/2 = k*pi ; of Y_n: x - (2n+1)pi/4 = k*pi (leading order)
    shift = (2 * n + 1) * mp.pi / 4 + (mp.pi / 2 if kind == "j" else 0)
    out = []
    for x in xs:
        with mp.workdps(60 + int(math.log10(x))):
            k = mp.nint((mpf(x) - shift) / mp.pi)
            z0 = k * mp.pi + shift
            z = mp.findroot(lambda t: f(n, t), z0)
            zf = float(z)
        out += [zf, math.nextafter(zf, 0), math.nextafter(zf, math.inf), zf * (1 + 1e-12), zf * (1 - 1e-12)]
    return out


def near_odd_quarter_turns(exponent, count):
    """Doubles x = M*2^exponent (M from 2^52 on, `count` of them) whose x*4/pi lies nearest to an
    odd integer: where J0, J1, Y0 and Y1 are near their zeros (phi(x) is negligible this large), so
    their values are tiny and an argument reduction short of ~2^-100 absolute would show."""
    with mp.workdps(500):
        prec = 1400
        alpha = int(mp.floor(4 / mp.pi * mpf(2) ** prec))
    mod = 1 << (prec + 1)  # x*4/pi mod 2, scaled by 2^prec
    step = (alpha << exponent) % mod if exponent >= 0 else None
    m0 = 1 << 52
    r = (m0 * step) % mod
    one, best = 1 << prec, []
    for i in range(count):
        d = abs(r - one)  # distance to the odd integer 1 (mod 2)
        best.append((d, m0 + i))
        r = (r + step) % mod
    best.sort()
    return [float(mpf(m) * mpf(2) ** exponent) for _, m in best[:3]]


# zeros above 2^20 (the Payne-Hanek reduction): the nearest double to each is ~ulp/2 away
ZX_HUGE = [2.0**21 + 0.3, 1e7, 2.0**26, 1e9, 1e11, 1e13, 1e15]
# doubles near odd multiples of pi/4 at large exponents (search over 2^16 mantissas each)
NEAR_ODD = [x for e in (8, 150, 650, 970) for x in near_odd_quarter_turns(e, 1 << 16)]
HUGE_SWEEP = sweep(1e6, 1.7e308, 40, log=True) + [6381956970095103.0 * 2.0**797, 1.7976931348623157e308]


def bisect(fn, a, b, steps):
    """A root of fn in (a, b), where fn changes sign, by `steps` halvings."""
    fa = fn(a)
    for _ in range(steps):
        m = (a + b) / 2
        if (fn(m) < 0) == (fa < 0):
            a = m
        else:
            b = m
    return (a + b) / 2


def lgamma_roots(kmin, kmax):
    """The roots of log|Γ| in (-kmax-1, -kmin) rounded to f64, their neighbours, and
    points 1e-9 and 1e-6 (relative to the distance to the nearest pole) to either side."""
    f = lambda t: mp.log(abs(mp.gamma(t)))
    out = []
    with mp.workdps(90):
        for k in range(kmin, kmax + 1):
            lo, mid, hi = mpf(-k - 1), mpf(-k - 1) + mpf(0.5), mpf(-k)
            if f(mid) >= 0:
                continue  # |Γ| > 1 on the whole interval: no roots
            for a, b in [(lo + mpf(10) ** -60, mid), (mid, hi - mpf(10) ** -60)]:
                r = float(bisect(f, a, b, 220))
                d = abs(r - round(r))
                if d != 0:
                    out += [r, math.nextafter(r, 0), math.nextafter(r, -math.inf),
                            r + 1e-9 * d, r - 1e-9 * d, r + 1e-6 * d, r - 1e-6 * d]
    return [x for x in out if x != round(x)]


def digamma_roots(ks):
    """The root of ψ in (-k-1, -k) for each k, rounded to f64, its neighbours and points 1e-9 away."""
    out = []
    with mp.workdps(60):
        for k in ks:
            r = float(bisect(mp.digamma, mpf(-k - 1) + mpf(10) ** -40, mpf(-k) - mpf(10) ** -40, 200))
            out += [r, math.nextafter(r, 0), math.nextafter(r, -math.inf), r + 1e-9, r - 1e-9]
    return [x for x in out if x != round(x)]


FUNCS = {
    "erf": pts(sweep(-6, 6, 200), [0.5, 0.84375, 1.25, 2.857, 5.9, 6.0, 26.0, 1e10]),
    "erfc": pts(sweep(-6, 27.3, 250), [26.5, 27.0, 27.2, 27.22, 1e3, -30]),
    "erfinv": pts(sweep(-1, 1, 200), [0.5, -0.5, 1 - 2**-53, 1 - 1e-10, 1 - 1e-15, 1e-5, 0.99999, 1.0, -1.0, 1.5]),
    "erfcinv": pts(sweep(0, 2, 150), sweep(1e-300, 1e-3, 40, log=True), [5e-324, 1e-310, 2.0, 2 - 1e-10, 2.5, -0.5]),
    "ndtri": pts(sweep(0, 1, 150), sweep(1e-300, 1e-3, 40, log=True), [0.5, 0.975, 1 - 1e-10, 1.0, 1.5]),
    "lgamma": pts(sweep(-10, 30, 250), sweep(1e-5, 1e300, 30, log=True),
                  [1.0, 2.0, 0.999999, 1.000001, 1.999999, 2.000001, -2.5, -2.4570247382208006, -2.7476826467274127,
                   -1.5, -0.5, -1.0, -2.0, -100.5, 1e305], sweep(-40, -10, 60), lgamma_roots(2, 20)),
    "digamma": pts(sweep(-10, 30, 250), sweep(1e-5, 1e300, 30, log=True),
                   [1.4616321449683622, 1.4616321449683624, 1.46163214496836, -0.5040830082644554,
                    -1.5734984731623507, -2.6107208684441446, -1.0 + 1e-10, -1 - 1e-10, -3 + 2**-40, -50.5, -1e10 + 0.5], sweep(-60, -6, 80),
                   digamma_roots([6, 7, 10, 14, 20, 29, 30, 31, 45, 100, 1000, 12345, 10**6, 10**9])),
    "expint": pts(sweep(-50, 50, 250), sweep(1e-5, 709, 30, log=True),
                  [0.37250741078136663, 0.3725074107813666, 0.37250741078136667, -700, -745, 710, 720, -1e3]),
    "dawsn": pts(sweep(-15, 15, 250), sweep(1e-5, 1e300, 40, log=True), [0.92413887300459, 2.0, 5.0, 10.0]),
    "fresnel_cos": pts(sweep(-10, 10, 250), sweep(1e-5, 1e6, 30, log=True), [1.0, 2.0, 36974.0, 1e8, 1e15, 1e300]),
    "fresnel_sin": pts(sweep(-10, 10, 250), sweep(1e-5, 1e6, 30, log=True), [1.0, 2.0, 36974.0, 1e8, 1e15, 1e300]),
    "spence": pts(sweep(0, 10, 200), sweep(1e-5, 1e300, 40, log=True), [1.0, 0.5, 2.0, 1 - 1e-10, 1 + 1e-10, -1.0]),
    "bessel_i0": pts(sweep(-30, 30, 200), [700, 713, 713.9, 714, -713, 1e3]),
    "bessel_i0e": pts(sweep(-30, 30, 200), sweep(30, 1e300, 30, log=True)),
    "bessel_i1": pts(sweep(-30, 30, 200), [700, 713, 713.9, 714, -713, 1e3]),
    "bessel_i1e": pts(sweep(-30, 30, 200), sweep(30, 1e300, 30, log=True)),
    "bessel_k0": pts(sweep(0, 30, 200), sweep(30, 800, 30), [1e-5, 2.0, 700, 745, -1.0]),
    "bessel_k0e": pts(sweep(0, 30, 200), sweep(30, 1e300, 30, log=True), [-1.0]),
    "bessel_k1": pts(sweep(0, 30, 200), sweep(30, 800, 30), [1e-5, 2.0, 700, 705, -1.0]),
    "bessel_k1e": pts(sweep(0, 30, 200), sweep(30, 1e300, 30, log=True), [-1.0]),
    "bessel_j0": pts(sweep(-40, 40, 250), [2.404825557695773, 5.520078110286311, 8.653727912911013, 1e3, 1e5, 1e10,
                                           1e15, 1e20, 1e100, 1e300], zeros_near("j", 0, ZK + ZK_BIG),
                     zeros_at("j", 0, ZX_HUGE), NEAR_ODD, HUGE_SWEEP),
    "bessel_j1": pts(sweep(-40, 40, 250), [3.8317059702075125, 7.015586669815619, 1e3, 1e5, 1e10, 1e15, 1e20,
                                           1e100, 1e300], zeros_near("j", 1, ZK + ZK_BIG),
                     zeros_at("j", 1, ZX_HUGE), NEAR_ODD, HUGE_SWEEP),
    "bessel_y0": pts(sweep(0, 40, 200), [0.8935769662791675, 3.957678419314858, 1e3, 1e5, 1e10, 1e15, 1e20, 1e100,
                                         1e300, -1.0], zeros_near("y", 0, ZK + ZK_BIG),
                     zeros_at("y", 0, ZX_HUGE), NEAR_ODD, HUGE_SWEEP),
    "bessel_y1": pts(sweep(0, 40, 200), [2.197141326031017, 5.429681040794135, 1e3, 1e5, 1e10, 1e15, 1e20, 1e100,
                                         1e300, -1.0], zeros_near("y", 1, ZK + ZK_BIG),
                     zeros_at("y", 1, ZX_HUGE), NEAR_ODD, HUGE_SWEEP),
}


def enc(v):
    v = float(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return repr(v)  # a string: JSON readers need not round decimal floats correctly


def ref_pair(name, x):
    if not math.isfinite(x):
        return None
    dps = extra_prec(x) if name.startswith(("bessel_j", "bessel_y", "fresnel")) else 50
    with mp.workdps(dps):
        try:
            v = mp_ref(name, x)
        except Exception as e:  # noqa: BLE001
            print("mpmath failed", name, x, e, file=sys.stderr)
            return None
        if v is None:
            return None
        v = mpf(v)
        hi = float(v)
        lo = float(v - mpf(hi)) if math.isfinite(hi) else 0.0
        return [enc(hi), enc(lo)]


def main():
    only = sys.argv[1:]
    path = os.path.join(os.path.dirname(__file__), "../../crates/lattensor/tests/data/special_golden.json")
    out = {}
    if only:  # regenerate the named functions, keep the others
        with open(path) as f:
            out = json.load(f)
    for name, xs in FUNCS.items():
        if only and name not in only:
            continue
        arr = np.array(xs, dtype=np.float64)
        with np.errstate(all="ignore"):
            spv = np.asarray(sp_fn(name)(arr), dtype=np.float64)
        tfv = tf_fn(name)(tf.constant(arr, tf.float64)).numpy()
        refs = [ref_pair(name, x) for x in xs]
        out[name] = {"x": [enc(x) for x in xs], "ref": refs, "scipy": [enc(v) for v in spv], "tf": [enc(v) for v in tfv]}
        print(name, len(xs), file=sys.stderr)
    with open(path, "w") as f:
        json.dump(out, f, separators=(",", ":"))


if __name__ == "__main__":
    main()
