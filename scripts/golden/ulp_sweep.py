"""Dense accuracy sweeps near the hard points of lgamma, digamma (x < -6) and J0/J1/Y0/Y1, against mpmath
(and SciPy for contrast). Needs mpmath and scipy; builds nothing itself:
    cargo build --release -p lattensor-bench --bin special_eval
    python scripts/golden/ulp_sweep.py            # lgamma, digamma, J/Y above 100
    python scripts/golden/ulp_sweep.py below100 [j0,j1,y0,y1 [N]]   # densely on [0, 100]
    python scripts/golden/ulp_sweep.py inverses [N]   # erfinv, erfcinv, ndtri on their domains
Prints the number of points and the worst errors in ulps per function. The binary is looked up
under $CARGO_TARGET_DIR (default target/), or named by $SPECIAL_EVAL."""
import math, random, struct, subprocess, sys
import os
from mpmath import mp, mpf, erfc, erfinv, sqrt, digamma, besselj, bessely, log, fabs, gamma, besseljzero, besselyzero

import scipy.special as sc
EXE = os.environ.get('SPECIAL_EVAL') or os.path.join(
    os.environ.get('CARGO_TARGET_DIR', os.path.join(os.path.dirname(__file__), '../../target')), 'release/special_eval')
mp.dps = 60
def b2f(h): return struct.unpack('<d', bytes.fromhex(h)[::-1])[0]
def f2h(x): return struct.pack('>d', x).hex()
def ulp_err(got, want):
    import math
    if math.isinf(got) and got == float(want): return 0.0  # the true value overflows
    if math.isinf(got) or math.isnan(got): return float('inf')
    w = float(want)
    if w == 0: return abs(got)/5e-324
    u = math.ulp(w)
    return float(abs(mpf(got) - want) / u)
def wide(fn):
    """fn evaluated with 60 digits beyond the argument's magnitude (J/Y at 1e300 need ~360)."""
    def at(x):
        with mp.workdps(60 + max(0, int(math.log10(abs(float(x)) + 1)))):
            return +fn(mpf(x))
    return at
REF = {'lgamma': lambda x: log(fabs(gamma(x))), 'digamma': digamma,
       'j0': wide(lambda x: besselj(0, x)), 'j1': wide(lambda x: besselj(1, x)),
       'y0': wide(lambda x: bessely(0, x)), 'y1': wide(lambda x: bessely(1, x))}
def zero_near(kind, nu, x):
    """The zero of J_nu (kind 'j') or Y_nu nearest x, from McMahon's leading term by findroot."""
    f = besselj if kind == 'j' else bessely
    with mp.workdps(60 + int(math.log10(x))):
        shift = (2 * nu + 1) * mp.pi / 4 + (mp.pi / 2 if kind == 'j' else 0)
        k = mp.nint((mpf(x) - shift) / mp.pi)
        return float(mp.findroot(lambda t: f(nu, t), k * mp.pi + shift))
def run(name, xs, exe):
    inp = "".join(f"{name} {f2h(x)}\n" for x in xs)
    out = subprocess.run([exe], input=inp, capture_output=True, text=True).stdout.split()
    errs = [(ulp_err(b2f(o), REF[name](mpf(x))), x) for o, x in zip(out, xs)]
    errs.sort(reverse=True)
    return errs
def bisect(fn, a, b):
    """A root of fn in (a, b), where fn changes sign, by 200 halvings."""
    fa = fn(a)
    for _ in range(200):
        m = (a + b) / 2
        fm = fn(m)
        if (fm < 0) == (fa < 0):
            a, fa = m, fm
        else:
            b = m
    return (a + b) / 2


def ulps_from(x0, n):
    """The n doubles either side of x0, and x0."""
    out, lo, hi = [x0], x0, x0
    for _ in range(n):
        lo, hi = math.nextafter(lo, -math.inf), math.nextafter(hi, math.inf)
        out += [lo, hi]
    return out


def below100(names, n_uniform):
    """J0, J1, Y0, Y1 on [0, 100]: n_uniform uniform points, a fifth as many in [0, 5], 400
    log-uniform in [1e-300, 1] with a few subnormals, half as many log-uniform in [0.05, 3.1], every zero and extremum with the 3 doubles
    either side, and points 1e-12 ... 1e-3 (relative) either side of each zero."""
    random.seed(4)
    zero_fns = {'j0': [(besseljzero, 0, 0)], 'j1': [(besseljzero, 1, 0)],
                'y0': [(besselyzero, 0, 0)], 'y1': [(besselyzero, 1, 0)]}
    extrema = {'j0': (besseljzero, 1, 0), 'j1': (besseljzero, 1, 1),
               'y0': (besselyzero, 1, 0), 'y1': (besselyzero, 1, 1)}
    for name in names:
        xs = [random.uniform(0, 100) for _ in range(n_uniform)] + [random.uniform(0, 5) for _ in range(n_uniform // 5)]
        xs += [math.exp(random.uniform(math.log(1e-300), 0)) for _ in range(400)]
        # where Y's geometric windows are (and J's series and first windows)
        xs += [math.exp(random.uniform(math.log(0.05), math.log(3.1))) for _ in range(n_uniform // 2)]
        xs += [5e-324, 1e-310, 2.2250738585072014e-308, 0.5, 1.0, 2.0, 100.0]
        zf, nu, _ = zero_fns[name][0]
        k = 1
        while (z := zf(nu, k)) < 100:
            x0 = float(z)
            xs += ulps_from(x0, 3)
            for e in [1e-12, 1e-10, 1e-8, 1e-6, 1e-4, 1e-3]:
                xs += [x0 * (1 + e), x0 * (1 - e)]
            k += 1
        ef, enu, deriv = extrema[name]
        k = 1
        while (z := ef(enu, k, derivative=deriv)) < 100:
            xs += ulps_from(float(z), 3)
            k += 1
        xs = [x for x in xs if 0 < x <= 100]
        errs = run(name, xs, EXE)
        print(name, len(xs), "points; worst:", [(round(e, 3), x) for e, x in errs[:5]], flush=True)


def erfcinv_ref(q):
    """erfcinv(q) by Newton on erfc, at 60 digits beyond the tail's exponent."""
    if 0.5 <= q <= 1.5:
        return erfinv(mpf(1 - q))  # 1 - q exact (Sterbenz)
    if q > 1:
        return -erfcinv_ref(2 - q)  # exact
    q = mpf(q)
    with mp.workdps(60 + int(-math.log10(float(q)))):
        # Newton on ln erfc(x) - ln q (concave and decreasing, so from above the root
        # the steps descend to it without overshooting)
        x, lq = sqrt(-mp.log(q)) + 1, mp.log(q)
        for _ in range(200):
            e = erfc(x)
            dx = (mp.log(e) - lq) * e / (2 / sqrt(mp.pi) * mp.exp(-x * x))
            x += dx
            if abs(dx) < mpf(10) ** -(mp.dps - 5) * x:
                break
        return +x


def inverses(n):
    """erfinv on (-1, 1), erfcinv on (0, 2), ndtri on (0, 1): n uniform points each, n/4
    log-uniform toward the ends (down to 1e-300 and the subnormals, up to 1 - 2⁻⁵³), the
    branch points (|y| = 0.5, q = 0.5, 1.5, 1e-40) with 3 doubles either side."""
    random.seed(5)
    toward = lambda: [10.0 ** random.uniform(-300, -0.3) for _ in range(n // 4)] + [5e-324, 1e-310]
    edge = [1 - 2.0 ** -k for k in range(2, 54)]
    pts = {
        'erfinv': [random.uniform(-1, 1) for _ in range(n)] + [1 - t for t in toward() if t < 1]
                  + [-x for x in edge] + edge + ulps_from(0.5, 3) + ulps_from(-0.5, 3) + toward(),
        'erfcinv': [random.uniform(0, 2) for _ in range(n)] + toward() + [2 - t for t in toward() if t < 1]
                   + ulps_from(0.5, 3) + ulps_from(1.5, 3) + ulps_from(1e-40, 3),
        'ndtri': [random.uniform(0, 1) for _ in range(n)] + toward() + [1 - t for t in toward() if t < 1]
                 + ulps_from(0.25, 3) + ulps_from(0.75, 3) + ulps_from(5e-41, 3),
    }
    refs = {'erfinv': lambda y: erfinv(mpf(y)) if abs(y) <= 0.5 else math.copysign(1, y) * erfcinv_ref(1 - abs(y)),
            'erfcinv': erfcinv_ref,
            'ndtri': lambda p: -sqrt(2) * erfcinv_ref(2 * mpf(p))}
    for name, xs in pts.items():
        xs = [x for x in xs if x not in (-1.0, 0.0, 1.0, 2.0)]
        REF[name] = refs[name]
        errs = run(name, xs, EXE)
        print(name, len(xs), "points; worst:", [(round(e, 3), x) for e, x in errs[:5]], flush=True)


if sys.argv[1:2] == ['inverses']:
    inverses(int(sys.argv[2]) if len(sys.argv) > 2 else 20000)
    sys.exit()

if sys.argv[1:2] == ['below100']:
    # optional: a comma-separated subset of j0,j1,y0,y1 and the number of uniform points
    # (mpmath's Y1 costs ~50 ms a point, so the full 20,000 take ~25 min for it alone)
    below100(sys.argv[2].split(',') if len(sys.argv) > 2 else ['j0', 'j1', 'y0', 'y1'],
             int(sys.argv[3]) if len(sys.argv) > 3 else 20000)
    sys.exit()

random.seed(1)
f = lambda x: log(fabs(gamma(x)))
bis = lambda a, b: bisect(f, a, b)
xs = []
for n in range(2, 40):
    lo, hi = mpf(-n-1), mpf(-n)
    # min of |gamma| in the interval: sample
    mid = lo + mpf(0.5)
    for _ in range(30): xs.append(float(lo + mpf(random.random())))
    if f(mid) < 0:
        for a, b in [(lo + mpf(10)**-50, mid), (mid, hi - mpf(10)**-50)]:
            try:
                r = bis(a, b)
            except Exception: continue
            x0 = float(r)
            if x0 == float(-n) or x0 == float(-n-1): continue
            xs.append(x0)
            for d in range(1, 4):
                xs.append(math.nextafter(x0, 0) if d==1 else x0 + d*math.ulp(x0))
                xs.append(x0 - d*math.ulp(x0))
            for e in [1e-12, 1e-9, 1e-6]:
                xs.append(x0 + e*abs(float(r + n))); xs.append(x0 - e*abs(float(r+n)))
xs = [x for x in xs if x != round(x)]
errs = run('lgamma', xs, EXE)
print(len(xs), "points; worst:", [(round(e,2), x) for e, x in errs[:8]])
bad = sorted(((ulp_err(float(sc.gammaln(x)), f(mpf(x))), x) for x in xs), reverse=True)[:3]
print("scipy gammaln worst:", bad)

random.seed(2)
mp.dps = 60
for name, nu, zf, spf in [('j0',0,besseljzero,sc.j0),('j1',1,besseljzero,sc.j1),('y0',0,besselyzero,sc.y0),('y1',1,besselyzero,sc.y1)]:
    xs = []
    for k in [31, 32, 33, 34, 40, 77, 100, 318, 1000, 3000, 10000, 33000, 100000, 300000]:
        z = zf(nu, k); x0 = float(z)
        xs += [x0, math.nextafter(x0, 0), math.nextafter(x0, 1e300), x0*(1+1e-6), x0*(1-1e-6), x0 + 1e-9*x0, x0 + 0.1, x0 - 0.2]
    xs += [random.uniform(100, 1000) for _ in range(150)] + [math.exp(random.uniform(math.log(100), math.log(1.04e6))) for _ in range(150)]
    xs += [100.0, 100.00000000000001, 1048575.9999999999, 1048576.0, 2e6]
    # above 2^20 (the Payne-Hanek reduction): zeros near log-uniform points up to 2^52, where the
    # nearest double lies ~ulp/2 from the zero, and random points up to the largest double
    for _ in range(60):
        x0 = zero_near(name[0], nu, math.exp(random.uniform(math.log(1.05e6), math.log(4.5e15))))
        xs += [x0, math.nextafter(x0, 0), math.nextafter(x0, math.inf)]
    xs += [math.exp(random.uniform(math.log(1.05e6), math.log(1.7e308))) for _ in range(150)]
    xs = [x for x in xs if x > 99]
    errs = run(name, xs, EXE)
    sp = sorted(((ulp_err(float(spf(x)), REF[name](mpf(x))), x) for x in xs), reverse=True)[:1]
    print(name, len(xs), "worst:", [(round(e,2), x) for e, x in errs[:4]], " scipy worst:", [(f"{e:.3g}", x) for e, x in sp])
from mpmath import digamma as dg
random.seed(3)
mp.dps = 60
def root(k):
    return bisect(dg, mpf(-k-1) + mpf(10)**-40, mpf(-k) - mpf(10)**-40)
xs = []
for k in list(range(6, 41)) + [57, 100, 1000, 12345, 10**6, 10**9]:
    r = float(root(k))
    xs += [r, math.nextafter(r, 0), math.nextafter(r, -math.inf), r + 1e-9, r - 1e-9, r + 1e-4, r - 1e-3]
    xs += [-k - random.random() for _ in range(10)]
xs += [-6.0000001, -6.5, -29.9, -30.5, -1e12 - 0.25]
xs = [x for x in xs if x != round(x)]
errs = run('digamma', xs, EXE)
print(len(xs), "points; worst:", [(round(e,2), x) for e, x in errs[:6]])
sp = sorted(((ulp_err(float(sc.psi(x)), dg(mpf(x))), x) for x in xs), reverse=True)[:2]
print("scipy worst:", [(f"{e:.3g}", x) for e, x in sp])
