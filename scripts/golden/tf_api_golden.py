#!/usr/bin/env python3
"""Golden cases for every `tf.*` API of the guide's WeakTensor list, on every dtype.

Scope: the `tf.*` names of docs/weak_tensor_apis.txt except `tf.experimental.numpy.*`,
`tf.image.*`, `tf.identity`, `tf.stop_gradient` and `tf.debugging.check_numerics`
(those have their own goldens).

With WeakTensor semantics on (`experimental_enable_numpy_behavior(dtype_conversion_mode="all")`),
every op runs in TensorFlow on inputs of each of the 15 dtypes (and the five weak dtypes):
edge values (nan, ±inf, -0.0, subnormals, int min/max, zero divisors, huge and tiny
magnitudes), 2-D/3-D/4-D shapes where axes matter, binary ops on every pair of dtypes and
with a Python scalar on either side. Each case records TF's result dtype, weakness, shape and
exact bytes, or the class of the error TF raised. For real floating-point inputs of
transcendental functions the mpmath value (60 digits, rounded to float64) is stored as
`true`, so the Rust test can accept a result that is closer to the truth than TF's.

Writes crates/lattensor/tests/data/tf_api_<area>.json. Tensors are stored once in `inputs`
as {dtype, weak, shape, hex of the little-endian bytes}; cases refer to them by name.
Python scalars are {"py": "int"|"float"|"complex"|"bool", "v": ...} (floats as repr strings).

Run with /work/venv/oracle/bin/python (tensorflow-cpu 2.21, numpy, ml_dtypes, mpmath).
"""
import json
import math
import os
import sys

import ml_dtypes
import mpmath
import numpy as np
from mpmath import mp, mpf

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf  # noqa: E402
from tensorflow.python.framework import weak_tensor  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from special_golden import mp_ref as special_ref  # noqa: E402

tf.experimental.numpy.experimental_enable_numpy_behavior(dtype_conversion_mode="all")
mp.dps = 60

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "crates", "lattensor", "tests", "data")

DTYPES = ["bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64",
          "bfloat16", "float16", "float32", "float64", "complex64", "complex128"]
WEAK = ["int32", "int64", "float32", "float64", "complex128"]
NP = {d: (ml_dtypes.bfloat16 if d == "bfloat16" else np.dtype(d).type) for d in DTYPES}
FLOATS = ["bfloat16", "float16", "float32", "float64"]
COMPLEX = ["complex64", "complex128"]
INTS = ["uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64"]
nan, inf = float("nan"), float("inf")


def finfo(d):
    return ml_dtypes.finfo(NP[d]) if d == "bfloat16" else np.finfo(NP[d])


def iinfo(d):
    return np.iinfo(NP[d])


# ---- input pool -------------------------------------------------------------------------

class Pool:
    def __init__(self):
        self.inputs = {}
        self.tensors = {}

    def add(self, name, arr, weak=False):
        arr = np.array(arr, order="C")  # not ascontiguousarray, which makes 0-d arrays 1-d
        dname = "bfloat16" if arr.dtype == ml_dtypes.bfloat16 else arr.dtype.name
        if name not in self.inputs:
            self.inputs[name] = {"dtype": dname, "weak": weak, "shape": list(arr.shape), "hex": arr.tobytes().hex()}
            t = tf.constant(arr)
            assert "Weak" not in type(t).__name__
            if weak:
                t = weak_tensor.WeakTensor.from_tensor(t)
            self.tensors[name] = (t, arr)
        return name

    def tf(self, name):
        return self.tensors[name][0]

    def np(self, name):
        return self.tensors[name][1]


def float_edges(d):
    fi = finfo(d)
    sub = float(fi.smallest_subnormal)
    base = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 0.25, 0.75, 0.9, -0.999, 0.1, 1e-7, -1e-7, 1.5, -1.5, 2.0, -2.0,
            2.5, -2.5, 3.7, -4.5, 7.0, 10.0, -10.0, 30.0, -30.0, 100.0, -100.0, 1000.5, 1e10, -1e10,
            sub, -sub, float(fi.tiny), float(fi.max), -float(fi.max), nan, inf, -inf]
    return np.array(base, dtype=np.float64).astype(NP[d])


def int_edges(d):
    ii = iinfo(d)
    vals = [0, 1, 2, 3, 7, 10, 100, ii.max, ii.max - 1, 13]
    if ii.min < 0:
        vals += [-1, -2, -7, -10, -100, ii.min, ii.min + 1, -13]
    return np.array(vals, dtype=NP[d])


def complex_edges(d):
    re = [0.0, -0.0, 1.0, 0.0, -1.0, 0.0, 1.0, -1.5, 3.0, 0.5, 10.0, -10.0, 1e-7, 100.0, 0.3, 2.0, nan, 0.0, inf, -inf, 1.0]
    im = [0.0, 0.0, 0.0, 1.0, 0.0, -1.0, 1.0, 2.5, -4.0, -0.25, 10.0, 0.5, 1e-7, -100.0, -0.7, 0.0, 0.0, nan, 0.0, 1.0, inf]
    return make_complex(re, im, d)


def make_complex(re, im, d):
    z = np.empty(len(re), dtype=NP[d])  # not re + 1j * im, which turns (0, inf) into (nan, inf)
    z.real, z.imag = re, im
    return z


def edges(d):
    if d == "bool":
        return np.array([False, True])
    if d in INTS:
        return int_edges(d)
    if d in FLOATS:
        return float_edges(d)
    return complex_edges(d)


def small(d, which):
    """Small, exactly representable values for the dtype-pair cases."""
    vals = {"a": [1, 5, 7, 0, 3, 2], "b": [2, 3, 1, 4, 1, 6]}[which]
    if d == "bool":
        return np.array([v % 2 == 1 for v in vals])
    if d in COMPLEX:
        return np.array([complex(v, (v % 3) - 1) for v in vals]).astype(NP[d])
    return np.array(vals).astype(NP[d])


# ---- running TF -------------------------------------------------------------------------

def tf_dtype_name(t):
    return t.dtype.name


def record(r):
    if isinstance(r, (tuple, list)):
        raise TypeError("multiple outputs")
    a = np.array(r.numpy(), order="C")
    return {"dtype": tf_dtype_name(r), "weak": "WeakTensor" in type(r).__name__, "shape": list(a.shape),
            "hex": a.tobytes().hex()}


def arg_tf(pool, a):
    if isinstance(a, str):
        return pool.tf(a)
    if "py" in a:
        kind, v = a["py"], a["v"]
        if kind == "int":
            return int(v)
        if kind == "float":
            return float(v)
        if kind == "complex":
            return complex(float(v[0]), float(v[1]))
        return bool(v)
    raise ValueError(a)


def py(v):
    if isinstance(v, bool):
        return {"py": "bool", "v": v}
    if isinstance(v, int):
        return {"py": "int", "v": v}
    if isinstance(v, float):
        return {"py": "float", "v": repr(v)}
    return {"py": "complex", "v": [repr(v.real), repr(v.imag)]}


def run(cases, pool, op, fn, args, kw=None, truth=None):
    kw = kw or {}
    case = {"op": op, "args": args}
    if kw:
        case["kw"] = kw
    try:
        r = fn(*[arg_tf(pool, a) for a in args], **kw)
        case["out"] = record(r)
    except Exception as e:  # noqa: BLE001 - the class of TF's error is the datum
        case["err"] = type(e).__name__
        msg = str(e)
        # TF has no kernel for this dtype (as opposed to refusing the input's values or shapes)
        if ("not in the list of allowed values" in msg or "Could not find device for node" in msg
                or "No registered" in msg):
            case["why"] = "nokernel"
        elif "Cannot convert True" in msg or "Cannot convert False" in msg:
            case["why"] = "pybool"  # a Python bool operand is not converted to a numeric dtype
        elif "too large to convert" in msg:
            case["why"] = "pyint"  # a Python int outside int32
    if truth is not None and "out" in case:
        case["true"] = truth
        if op in SCIPY and pool.np(args[0]).dtype.kind == "f" or (op in SCIPY and "bfloat16" in args[0]):
            x = np.asarray(pool.np(args[0]), dtype=np.float64)
            with np.errstate(all="ignore"):
                case["scipy"] = np.asarray(SCIPY[op](x), dtype=np.float64).tobytes().hex()
    cases.append(case)


def _scipy():
    import scipy.special as sc
    f = {"erf": sc.erf, "erfc": sc.erfc, "erfinv": sc.erfinv, "erfcinv": sc.erfcinv, "ndtri": sc.ndtri,
         "lgamma": sc.gammaln, "digamma": sc.psi, "expint": sc.expi, "dawsn": sc.dawsn,
         "fresnel_cos": lambda v: sc.fresnel(v)[1], "fresnel_sin": lambda v: sc.fresnel(v)[0],
         "spence": sc.spence, "bessel_i0": sc.i0, "bessel_i0e": sc.i0e, "bessel_i1": sc.i1, "bessel_i1e": sc.i1e,
         "bessel_j0": sc.j0, "bessel_j1": sc.j1, "bessel_k0": sc.k0, "bessel_k0e": sc.k0e, "bessel_k1": sc.k1,
         "bessel_k1e": sc.k1e, "bessel_y0": sc.y0, "bessel_y1": sc.y1}
    return {("tf.math." if n in ("erf", "erfc", "erfinv", "erfcinv", "ndtri", "lgamma", "digamma")
             else "tf.math.special.") + n: g for n, g in f.items()}


# SciPy's float64 values, stored for the special functions: SciPy's conventions at poles,
# ±inf and outside the domain are the ones lattensor follows where TF's differ.
SCIPY = _scipy()


# ---- mpmath truth for real-valued elementwise functions ----------------------------------

SQRT1_2 = mp.sqrt(mpf(1) / 2)
SELU_ALPHA = mpf("1.6732632423543772848170429916717")
SELU_SCALE = mpf("1.0507009873554804934193349852946")


def sigmoid_mp(x):
    return 1 / (1 + mp.exp(-x))


def mp_elementary(name, x, kw):
    """True value of `name` at the real float x (mpf), or None where not a finite real."""
    f = {
        "tf.math.exp": mp.exp, "tf.math.expm1": mp.expm1, "tf.math.sin": mp.sin, "tf.math.cos": mp.cos,
        "tf.math.tan": mp.tan, "tf.math.sinh": mp.sinh, "tf.math.cosh": mp.cosh, "tf.math.tanh": mp.tanh,
        "tf.math.atan": mp.atan, "tf.math.asinh": mp.asinh,
        "tf.math.sigmoid": sigmoid_mp,
        "tf.math.softplus": lambda v: mp.log(1 + mp.exp(v)),
        "tf.math.log_sigmoid": lambda v: -mp.log(1 + mp.exp(-v)),
        "tf.nn.elu": lambda v: v if v > 0 else mp.expm1(v),
        "tf.nn.selu": lambda v: SELU_SCALE * (v if v > 0 else SELU_ALPHA * mp.expm1(v)),
        "tf.nn.swish": lambda v: v * sigmoid_mp(v),
        "tf.nn.softsign": lambda v: v / (1 + abs(v)),
        "tf.math.reciprocal": lambda v: 1 / v if v != 0 else None,
    }.get(name)
    if name == "tf.nn.gelu":
        if kw.get("approximate"):
            # TF's formula with its float64 constants (the op is defined by them)
            c, k = mpf(float(math.sqrt(2 / math.pi))), mpf(0.044715)
            return x / 2 * (1 + mp.tanh(c * (x + k * x ** 3)))
        return x / 2 * mp.erfc(-x * SQRT1_2)  # not 1 + erf: 60 digits cancel at x = -30
    if f is not None:
        return f(x)
    if name in ("tf.math.log", "tf.math.sqrt", "tf.math.rsqrt"):
        if x <= 0:
            return None
        return {"tf.math.log": mp.log, "tf.math.sqrt": mp.sqrt, "tf.math.rsqrt": lambda v: 1 / mp.sqrt(v)}[name](x)
    if name == "tf.math.log1p":
        return mp.log1p(x) if x > -1 else None
    if name in ("tf.math.asin", "tf.math.acos", "tf.math.atanh"):
        if abs(x) > 1 or (name == "tf.math.atanh" and abs(x) == 1):
            return None
        return {"tf.math.asin": mp.asin, "tf.math.acos": mp.acos, "tf.math.atanh": mp.atanh}[name](x)
    if name == "tf.math.acosh":
        return mp.acosh(x) if x >= 1 else None
    if name.startswith("tf.math.special.") or name in ("tf.math.erf", "tf.math.erfc", "tf.math.erfinv",
                                                        "tf.math.erfcinv", "tf.math.ndtri", "tf.math.lgamma",
                                                        "tf.math.digamma"):
        short = name.rsplit(".", 1)[1]
        xf = float(x)
        try:
            v = special_ref(short, xf)
        except (ValueError, ZeroDivisionError, OverflowError):
            return None
        return v
    raise KeyError(name)


COMPLEX_MP = {
    "tf.math.log1p": lambda z: mp.log(1 + z) if abs(z) > mpf("1e-3") else mp.log1p(z), "tf.math.expm1": mp.expm1,
    "tf.math.asin": mp.asin, "tf.math.acos": mp.acos, "tf.math.atan": mp.atan, "tf.math.asinh": mp.asinh,
    "tf.math.acosh": mp.acosh, "tf.math.atanh": mp.atanh, "tf.math.log": mp.log, "tf.math.exp": mp.exp,
    "tf.math.sqrt": mp.sqrt, "tf.math.rsqrt": lambda z: 1 / mp.sqrt(z), "tf.math.sin": mp.sin,
    "tf.math.cos": mp.cos, "tf.math.tan": mp.tan, "tf.math.sinh": mp.sinh, "tf.math.cosh": mp.cosh,
    "tf.math.tanh": mp.tanh, "tf.math.sigmoid": lambda z: 1 / (1 + mp.exp(-z)),
}


def truth_complex_hex(name, arr):
    """mpmath values at complex inputs off the branch cuts, as (re, im) f64 pairs; nan where none."""
    out = []
    for z in np.asarray(arr, dtype=np.complex128).ravel():
        t = (nan, nan)
        # points on a branch cut (an axis) depend on the sign of zero, which mpmath ignores
        if np.isfinite(z) and z.real != 0 and z.imag != 0:
            try:
                with mp.workdps(60):
                    m = COMPLEX_MP[name](mp.mpc(float(z.real), float(z.imag)))
                if mp.isfinite(m.real) and mp.isfinite(m.imag):
                    t = (float(m.real), float(m.imag))
            except (ValueError, ZeroDivisionError):
                pass
        out += list(t)
    return np.array(out, dtype=np.float64).tobytes().hex()


def truth_hex(name, arr, kw):
    """mpmath values at the real inputs, rounded to float64, as hex; nan where undefined/non-finite input."""
    out = []
    for v in np.asarray(arr, dtype=np.float64).ravel():
        t = float("nan")
        if math.isfinite(v):
            with mp.workdps(60 + int(max(0, math.log10(abs(v) + 1)))):
                try:
                    m = mp_elementary(name, mpf(float(v)), kw)
                except (ValueError, ZeroDivisionError, OverflowError):
                    m = None
                if m is not None and mp.isfinite(m) and mp.im(m) == 0:
                    t = float(mp.re(m))
        out.append(t)
    return np.array(out, dtype=np.float64).tobytes().hex()


# ---- the op list ------------------------------------------------------------------------

def special(n):
    return getattr(tf.math.special, n)


UNARY = {
    "tf.math.abs": tf.math.abs, "tf.math.acos": tf.math.acos, "tf.math.acosh": tf.math.acosh,
    "tf.math.angle": tf.math.angle, "tf.math.asin": tf.math.asin, "tf.math.asinh": tf.math.asinh,
    "tf.math.atan": tf.math.atan, "tf.math.atanh": tf.math.atanh, "tf.math.ceil": tf.math.ceil,
    "tf.math.conj": tf.math.conj, "tf.math.cos": tf.math.cos, "tf.math.cosh": tf.math.cosh,
    "tf.math.digamma": tf.math.digamma, "tf.math.erf": tf.math.erf, "tf.math.erfc": tf.math.erfc,
    "tf.math.erfcinv": tf.math.erfcinv, "tf.math.erfinv": tf.math.erfinv, "tf.math.exp": tf.math.exp,
    "tf.math.expm1": tf.math.expm1, "tf.math.floor": tf.math.floor, "tf.math.imag": tf.math.imag,
    "tf.math.lgamma": tf.math.lgamma, "tf.math.log1p": tf.math.log1p, "tf.math.log_sigmoid": tf.math.log_sigmoid,
    "tf.math.log": tf.math.log, "tf.math.ndtri": tf.math.ndtri, "tf.math.negative": tf.math.negative,
    "tf.math.real": tf.math.real, "tf.math.reciprocal_no_nan": tf.math.reciprocal_no_nan,
    "tf.math.reciprocal": tf.math.reciprocal, "tf.math.rint": tf.math.rint, "tf.math.round": tf.math.round,
    "tf.math.rsqrt": tf.math.rsqrt, "tf.math.sigmoid": tf.math.sigmoid, "tf.math.sign": tf.math.sign,
    "tf.math.sin": tf.math.sin, "tf.math.sinh": tf.math.sinh, "tf.math.softplus": tf.math.softplus,
    "tf.math.sqrt": tf.math.sqrt, "tf.math.square": tf.math.square, "tf.math.tan": tf.math.tan,
    "tf.math.tanh": tf.math.tanh, "tf.bitwise.invert": tf.bitwise.invert,
    "tf.nn.elu": tf.nn.elu, "tf.nn.relu": tf.nn.relu, "tf.nn.relu6": tf.nn.relu6, "tf.nn.selu": tf.nn.selu,
    "tf.nn.softsign": tf.nn.softsign, "tf.nn.swish": tf.nn.swish, "tf.nn.gelu": tf.nn.gelu,
    "tf.nn.leaky_relu": tf.nn.leaky_relu, "tf.ones_like": tf.ones_like, "tf.zeros_like": tf.zeros_like,
}
for _n in ["bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e", "bessel_j0", "bessel_j1", "bessel_k0",
           "bessel_k0e", "bessel_k1", "bessel_k1e", "bessel_y0", "bessel_y1", "dawsn", "expint",
           "fresnel_cos", "fresnel_sin", "spence"]:
    UNARY["tf.math.special." + _n] = special(_n)

# ops with an mpmath truth stored for real float inputs
TRANSCENDENTAL = {n for n in UNARY if n.startswith("tf.math.special.")} | {
    "tf.math.exp", "tf.math.expm1", "tf.math.sin", "tf.math.cos", "tf.math.tan", "tf.math.sinh",
    "tf.math.cosh", "tf.math.tanh", "tf.math.atan", "tf.math.asinh", "tf.math.sigmoid", "tf.math.softplus",
    "tf.math.log_sigmoid", "tf.nn.elu", "tf.nn.selu", "tf.nn.swish", "tf.nn.softsign", "tf.nn.gelu",
    "tf.math.log", "tf.math.sqrt", "tf.math.rsqrt", "tf.math.log1p", "tf.math.asin", "tf.math.acos",
    "tf.math.atanh", "tf.math.acosh", "tf.math.erf", "tf.math.erfc", "tf.math.erfinv", "tf.math.erfcinv",
    "tf.math.ndtri", "tf.math.lgamma", "tf.math.digamma", "tf.math.reciprocal"}

UNARY_KW = {
    "tf.nn.gelu": [{"approximate": False}, {"approximate": True}],
    "tf.nn.leaky_relu": [{}, {"alpha": 0.1}],
}

BINARY = {
    "tf.math.add": tf.math.add, "tf.math.subtract": tf.math.subtract, "tf.math.multiply": tf.math.multiply,
    "tf.math.divide": tf.math.divide, "tf.math.divide_no_nan": tf.math.divide_no_nan,
    "tf.math.multiply_no_nan": tf.math.multiply_no_nan, "tf.math.floordiv": tf.math.floordiv,
    "tf.math.floormod": tf.math.floormod, "tf.math.pow": tf.math.pow, "tf.realdiv": tf.realdiv,
    "tf.truncatediv": tf.truncatediv, "tf.truncatemod": tf.truncatemod,
}
INT_DIVISION = {"tf.math.floordiv", "tf.math.floormod", "tf.truncatediv", "tf.truncatemod"}

REDUCE = {n: getattr(tf.math, n.rsplit(".", 1)[1]) for n in [
    "tf.math.reduce_euclidean_norm", "tf.math.reduce_logsumexp", "tf.math.reduce_max", "tf.math.reduce_mean",
    "tf.math.reduce_min", "tf.math.reduce_prod", "tf.math.reduce_std", "tf.math.reduce_sum",
    "tf.math.reduce_variance"]}


def all_dtype_inputs(pool, prefix, make):
    """(label, input name) for the 15 strong dtypes and the 5 weak ones."""
    out = []
    for d in DTYPES:
        out.append((d, pool.add(f"{prefix}_{d}", make(d))))
    for d in WEAK:
        out.append((d + "*", pool.add(f"{prefix}_{d}*", make(d), weak=True)))
    return out


def gen_unary():
    pool, cases = Pool(), []
    ins = all_dtype_inputs(pool, "edge", edges)
    for name, fn in UNARY.items():
        for kw in UNARY_KW.get(name, [{}]):
            for label, inp in ins:
                truth = None
                dt = label.rstrip("*")
                if name in TRANSCENDENTAL and dt in FLOATS:
                    truth = truth_hex(name, pool.np(inp).astype(np.float64), kw)
                if name in COMPLEX_MP and dt in COMPLEX:
                    truth = truth_complex_hex(name, pool.np(inp))
                run(cases, pool, name, fn, [inp], kw, truth)
    # shape/creation ops: ones_like/zeros_like with a dtype argument
    for name, fn in [("tf.ones_like", tf.ones_like), ("tf.zeros_like", tf.zeros_like)]:
        for label, inp in ins[:15]:
            for d in ["bool", "int8", "float16", "complex64"]:
                run(cases, pool, name, lambda x, dtype: fn(x, dtype=tf.as_dtype(dtype)), [inp], {"dtype": d})
    return pool, cases


def cross(a, b):
    """Every pair (a[i], b[j]) as two flat arrays."""
    return np.repeat(a, len(b)), np.tile(b, len(a))


def binary_edges(d, op):
    e = edges(d)
    if d in FLOATS:
        e = e[[0, 1, 2, 3, 4, 6, 14, 17, 18, 23, 27, 29, 31, 33, 34, 36, 37, 38]]
    elif d in COMPLEX:
        e = e[[0, 1, 2, 3, 4, 6, 7, 8, 10, 16, 18, 20]]
    a, b = cross(e, e)
    if d in INTS and (op in INT_DIVISION or op == "tf.math.pow"):
        # integer division by zero and negative integer powers are errors in TF: separate cases
        keep = b > 0 if op == "tf.math.pow" else b != 0
        a, b = a[keep], b[keep]
    return a, b


def gen_binary():
    pool, cases = Pool(), []
    for name, fn in BINARY.items():
        for d in DTYPES:
            a, b = binary_edges(d, name)
            key = "pow" if name == "tf.math.pow" else ("div" if name in INT_DIVISION else "all")
            if d not in INTS:
                key = "all"
            ia = pool.add(f"ba_{key}_{d}", a)
            ib = pool.add(f"bb_{key}_{d}", b)
            run(cases, pool, name, fn, [ia, ib])
            if d in INTS and key != "all":
                # the error cases: a zero divisor / a negative exponent
                bad = pool.add(f"bad_{key}_{d}", np.array([1, 0 if key == "div" or iinfo(d).min == 0 else -1], NP[d]))
                run(cases, pool, name, fn, [pool.add(f"two_{d}", np.array([5, 6], NP[d])), bad])
        # every pair of dtypes, strong and weak
        labels = [(d, False) for d in DTYPES] + [(d, True) for d in WEAK]
        for da, wa in labels:
            for db, wb in labels:
                if da == db and wa == wb and not wa:
                    continue  # covered above
                ia = pool.add(f"sa_{da}{'*' if wa else ''}", small(da, "a"), weak=wa)
                ib = pool.add(f"sb_{db}{'*' if wb else ''}", small(db, "b"), weak=wb)
                run(cases, pool, name, fn, [ia, ib])
        # a Python scalar on either side
        for d in DTYPES:
            ia = pool.add(f"sa_{d}", small(d, "a"))
            for s in [3, 2.5, complex(1.5, -2.0), True, 2 ** 40]:
                run(cases, pool, name, fn, [ia, py(s)])
                run(cases, pool, name, fn, [py(s), ia])
    # broadcasting
    for d in ["int32", "float32", "float64", "complex64"]:
        x = pool.add(f"bc_x_{d}", np.arange(6).reshape(2, 3, 1).astype(NP[d]))
        y = pool.add(f"bc_y_{d}", (np.arange(4) + 1).reshape(1, 4).astype(NP[d]))
        for name in ["tf.math.add", "tf.math.multiply", "tf.math.divide", "tf.math.pow", "tf.math.floormod"]:
            run(cases, pool, name, BINARY[name], [x, y])
    # scalar_mul(scalar, x): a Python scalar or a 0-d tensor
    for d in DTYPES:
        x = pool.add(f"sa_{d}", small(d, "a"))
        for s in [3, 2.5, complex(0.5, 1.0), True]:
            run(cases, pool, "tf.math.scalar_mul", tf.math.scalar_mul, [py(s), x])
        for ds in ["int32", "float32", "complex64"]:
            s = pool.add(f"s0_{ds}", np.array(2, NP[ds]))
            run(cases, pool, "tf.math.scalar_mul", tf.math.scalar_mul, [s, x])
    # clip_by_value(x, lo, hi)
    for d in DTYPES:
        x = pool.add(f"edge_{d}", edges(d))
        for lo, hi in [(0, 10), (-1.5, 2.5), (False, True)]:
            run(cases, pool, "tf.clip_by_value", tf.clip_by_value, [x, py(lo), py(hi)])
        lo = pool.add(f"s0lo_{d}", np.array(0, NP[d]))
        hi = pool.add(f"s0hi_{d}", np.array(1 if d == "bool" else 7, NP[d]))
        run(cases, pool, "tf.clip_by_value", tf.clip_by_value, [x, lo, hi])
        # elementwise bounds of the same shape
        e = edges(d)
        los = pool.add(f"clo_{d}", np.roll(e, 3))
        run(cases, pool, "tf.clip_by_value", tf.clip_by_value, [x, los, x])
    for d in WEAK:
        x = pool.add(f"edge_{d}*", edges(d), weak=True)
        run(cases, pool, "tf.clip_by_value", tf.clip_by_value, [x, py(0), py(10)])
        run(cases, pool, "tf.clip_by_value", tf.clip_by_value, [x, py(-1.5), py(2.5)])
    return pool, cases


def reduce_values(d):
    """A 2x3x4 tensor: exact sums for floats, wraparound for small ints."""
    if d == "bool":
        return (np.arange(24) % 3 == 0).reshape(2, 3, 4)
    if d in INTS:
        ii = iinfo(d)
        v = np.array([(i * 37) % 50 for i in range(24)], dtype=object)
        v[5] = ii.max
        v[7] = ii.max - 3
        v[13] = ii.min if ii.min < 0 else ii.max // 2
        v[20] = 3 if ii.min == 0 else -9
        return np.array(list(v), dtype=NP[d]).reshape(2, 3, 4)
    v = np.array([((i * 37) % 50 - 20) / 4 for i in range(24)], dtype=np.float64)
    if d in COMPLEX:
        v = v + 1j * np.array([((i * 11) % 17 - 8) / 2 for i in range(24)])
    return v.astype(NP[d]).reshape(2, 3, 4)


def reduce_specials(d):
    """nan/inf propagation and overflow: a 3x4 tensor."""
    if d in FLOATS:
        fi = finfo(d)
        v = [1.0, nan, 2.0, 3.0, inf, 1.0, -inf, 2.0, float(fi.max), float(fi.max), -0.0, -0.0]
        return np.array(v).astype(NP[d]).reshape(3, 4)
    if d in COMPLEX:
        return make_complex([1, nan, 2, 3, inf, 1, 2, 2, 1e300, 1e300, -0.0, -0.0],
                            [0, 0, 1, 0, 0, inf, 1, 1, 1, 1, 0, 0], d).reshape(3, 4)
    return None


AXES = [None, 0, 1, -1, [0, 2], [-1, 0], [0, 1, 2], []]


def log_softmax_truth(x, axis):
    x = np.moveaxis(np.asarray(x, dtype=np.float64), axis, -1)
    out = np.empty(x.shape)
    for idx in np.ndindex(x.shape[:-1]):
        row = [mpf(float(v)) for v in x[idx]]
        lse = mp.log(mp.fsum(mp.exp(v) for v in row))
        out[idx] = [float(v - lse) for v in row]
    return np.ascontiguousarray(np.moveaxis(out, -1, axis)).tobytes().hex()


def reduce_truth(name, x, axis):
    """mpmath value of a float reduction (finite inputs), as f64 hex in TF's output order."""
    x = np.asarray(x, dtype=np.float64)
    if x.size == 0:
        return None
    axes = tuple(range(x.ndim)) if axis is None else tuple(a % x.ndim for a in np.atleast_1d(axis))
    rest = [a for a in range(x.ndim) if a not in axes]
    y = np.transpose(x, rest + list(axes)).reshape([x.shape[a] for a in rest] + [-1])
    out = []
    for idx in np.ndindex(y.shape[:-1]):
        if not np.all(np.isfinite(y[idx])):
            out.append(nan)  # no truth for rows with nan/inf
            continue
        v = [mpf(float(t)) for t in y[idx]]
        n = len(v)
        mean = mp.fsum(v) / n
        var = mp.fsum((t - mean) ** 2 for t in v) / n
        r = {"reduce_sum": lambda: mp.fsum(v), "reduce_mean": lambda: mean, "reduce_variance": lambda: var,
             "reduce_std": lambda: mp.sqrt(var), "reduce_prod": lambda: mp.fprod(v),
             "reduce_logsumexp": lambda: mp.log(mp.fsum(mp.exp(t) for t in v)),
             "reduce_euclidean_norm": lambda: mp.sqrt(mp.fsum(t * t for t in v)),
             "reduce_max": lambda: max(v), "reduce_min": lambda: min(v)}[name.rsplit(".", 1)[1]]()
        out.append(float(r))
    return np.array(out, dtype=np.float64).tobytes().hex()


def gen_reduce():
    pool, cases = Pool(), []
    ins = all_dtype_inputs(pool, "r3", reduce_values)
    for name, fn in REDUCE.items():
        for label, inp in ins:
            for axis in AXES:
                for keep in [False, True]:
                    if keep and axis in (1, [0, 1, 2], []):
                        continue
                    kw = {"axis": axis, "keepdims": keep}
                    truth = None
                    if label.rstrip("*") in FLOATS and axis != []:
                        truth = reduce_truth(name, pool.np(inp), axis)
                    run(cases, pool, name, fn, [inp], kw, truth)
        for d in FLOATS + COMPLEX:
            inp = pool.add(f"rs_{d}", reduce_specials(d))
            for axis in [None, 0, 1]:
                truth = reduce_truth(name, pool.np(inp), axis) if d in FLOATS else None
                run(cases, pool, name, fn, [inp], {"axis": axis, "keepdims": False}, truth)
        # an empty axis
        for d in ["int32", "float32"]:
            inp = pool.add(f"r0_{d}", np.zeros((2, 0), NP[d]))
            for axis in [None, 0, 1]:
                run(cases, pool, name, fn, [inp], {"axis": axis, "keepdims": False})
        # axis out of range
        run(cases, pool, name, fn, [ins[11][1]], {"axis": 3, "keepdims": False})
    # log_softmax reduces along one axis
    for label, inp in ins:
        for axis in [-1, 0, 1]:
            truth = log_softmax_truth(pool.np(inp), axis) if label.rstrip("*") in FLOATS else None
            run(cases, pool, "tf.nn.log_softmax", tf.nn.log_softmax, [inp], {"axis": axis}, truth)
    for d in FLOATS:
        inp = pool.add(f"rs_{d}", reduce_specials(d))
        run(cases, pool, "tf.nn.log_softmax", tf.nn.log_softmax, [inp], {"axis": -1})
        big = pool.add(f"lsbig_{d}", np.array([[1000.0, 0.0, -1000.0], [80.0, 81.0, 82.0]]).astype(NP[d]))
        run(cases, pool, "tf.nn.log_softmax", tf.nn.log_softmax, [big], {"axis": -1},
            log_softmax_truth(pool.np(big), -1))
    return pool, cases


def gen_shape():
    pool, cases = Pool(), []
    ins = all_dtype_inputs(pool, "r3", reduce_values)
    for label, inp in ins:
        for axis in [0, 1, 3, -1, -4, 4, -5]:
            run(cases, pool, "tf.expand_dims", tf.expand_dims, [inp], {"axis": axis})
        for shape in [[-1], [4, 6], [3, -1, 2], [24, 1], [5, -1], [-1, -1]]:
            run(cases, pool, "tf.reshape", tf.reshape, [inp], {"shape": shape})
        for perm in [None, [2, 0, 1], [0, 2, 1], [1, 1, 0], [0, 1]]:
            run(cases, pool, "tf.transpose", tf.transpose, [inp], {"perm": perm})
        run(cases, pool, "tf.transpose", tf.transpose, [inp], {"perm": [1, 2, 0], "conjugate": True})
        s = pool.add(f"sq_{label}", reduce_values(label.rstrip("*")).reshape(2, 1, 3, 1, 4), weak=label.endswith("*"))
        for axis in [None, [1], [-2], [1, 3], [0]]:
            run(cases, pool, "tf.squeeze", tf.squeeze, [s], {"axis": axis})
        # linalg on 2x3x4 (batch of 3x4) and square batches
        run(cases, pool, "tf.linalg.matrix_transpose", tf.linalg.matrix_transpose, [inp])
        run(cases, pool, "tf.linalg.matrix_transpose", tf.linalg.matrix_transpose, [inp], {"conjugate": True})
        run(cases, pool, "tf.linalg.diag_part", tf.linalg.diag_part, [inp])
        run(cases, pool, "tf.linalg.trace", tf.linalg.trace, [inp])
        sq = pool.add(f"sqm_{label}", reduce_values(label.rstrip("*"))[:, :2, :2].reshape(2, 2, 2).copy(), weak=label.endswith("*"))
        run(cases, pool, "tf.linalg.trace", tf.linalg.trace, [sq])
        run(cases, pool, "tf.linalg.diag", tf.linalg.diag, [inp])
        v = pool.add(f"vec_{label}", reduce_values(label.rstrip("*")).ravel()[:5].copy(), weak=label.endswith("*"))
        run(cases, pool, "tf.linalg.diag", tf.linalg.diag, [v])
        t4 = pool.add(f"t4_{label}", reduce_values(label.rstrip("*"))[:, :2, :3].copy(), weak=label.endswith("*"))
        # tensor_diag_part needs shape (a, b, a, b)
        td = pool.add(f"td_{label}", np.resize(reduce_values(label.rstrip("*")).ravel(), 36).reshape(2, 3, 2, 3), weak=label.endswith("*"))
        run(cases, pool, "tf.linalg.tensor_diag_part", tf.linalg.tensor_diag_part, [td])
        run(cases, pool, "tf.linalg.tensor_diag_part", tf.linalg.tensor_diag_part, [v])
        run(cases, pool, "tf.linalg.tensor_diag_part", tf.linalg.tensor_diag_part, [t4])
        # space_to_depth / depth_to_space on NHWC
        n = pool.add(f"nhwc_{label}", np.resize(reduce_values(label.rstrip("*")).ravel(), 48).reshape(1, 4, 4, 3), weak=label.endswith("*"))
        run(cases, pool, "tf.nn.space_to_depth", tf.nn.space_to_depth, [n], {"block_size": 2})
        run(cases, pool, "tf.nn.space_to_depth", tf.nn.space_to_depth, [n], {"block_size": 3})
        n2 = pool.add(f"nhwc2_{label}", np.resize(reduce_values(label.rstrip("*")).ravel(), 48).reshape(2, 2, 3, 4), weak=label.endswith("*"))
        run(cases, pool, "tf.nn.depth_to_space", tf.nn.depth_to_space, [n2], {"block_size": 2})
        run(cases, pool, "tf.nn.depth_to_space", tf.nn.depth_to_space, [n2], {"block_size": 3})
    # matmul: every pair of dtypes on 2x3 @ 3x2, plus batch/broadcast/transpose variants
    labels = [(d, False) for d in DTYPES] + [(d, True) for d in WEAK]
    for da, wa in labels:
        for db, wb in labels:
            a = pool.add(f"mm_a_{da}{'*' if wa else ''}", small(da, "a").reshape(2, 3), weak=wa)
            b = pool.add(f"mm_b_{db}{'*' if wb else ''}", small(db, "b").reshape(3, 2), weak=wb)
            run(cases, pool, "tf.linalg.matmul", tf.linalg.matmul, [a, b])
    for d in DTYPES:
        x = pool.add(f"mmx_{d}", reduce_values(d))  # 2x3x4
        y = pool.add(f"mmy_{d}", reduce_values(d)[0].T.copy())  # 4x3
        run(cases, pool, "tf.linalg.matmul", tf.linalg.matmul, [x, y])
        run(cases, pool, "tf.linalg.matmul", tf.linalg.matmul, [x, x], {"transpose_b": True})
        run(cases, pool, "tf.linalg.matmul", tf.linalg.matmul, [x, x], {"transpose_a": True})
        run(cases, pool, "tf.linalg.matmul", tf.linalg.matmul, [x, x])  # shape error
        e = edges(d)
        m = pool.add(f"mme_{d}", np.resize(e, 4 * len(e)).reshape(-1, 4)[: (4 * len(e)) // 4])
        run(cases, pool, "tf.linalg.matmul", tf.linalg.matmul, [m, m], {"transpose_b": True})
    return pool, cases


def write(area, gen):
    pool, cases = gen()
    used = set()
    for c in cases:
        for a in c["args"]:
            if isinstance(a, str):
                used.add(a)
    inputs = {k: v for k, v in pool.inputs.items() if k in used}
    path = os.path.join(OUT, f"tf_api_{area}.json")
    with open(path, "w") as f:
        json.dump({"generator": "scripts/golden/tf_api_golden.py", "tf": tf.__version__, "inputs": inputs,
                   "cases": cases}, f, separators=(",", ":"))
        f.write("\n")
    errs = sum("err" in c for c in cases)
    print(f"{area}: {len(cases)} cases ({errs} TF errors), {os.path.getsize(path) / 1e6:.2f} MB -> {path}")


def main():
    areas = {"unary": gen_unary, "binary": gen_binary, "reduce": gen_reduce, "shape": gen_shape}
    for area in (sys.argv[1:] or areas):
        write(area, areas[area])


if __name__ == "__main__":
    main()
