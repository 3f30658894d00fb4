#!/usr/bin/env python3
"""Golden data for `lattensor::numpy` (the guide's 87 `tf.experimental.numpy` names).

Runs TensorFlow 2.21 with `tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="all")`
(WeakTensor semantics on) and records, for every tnp name × every dtype (plus weak
tensors and Python scalars), TF's result: dtype, weakness (`type(r).__name__ ==
'EagerWeakTensor'`), shape and values, or the exception's class name.

Run with the oracle venv from the repo root:

    /work/venv/oracle/bin/python scripts/golden/tnp_golden.py

Writes crates/lattensor/tests/data/tnp_golden.json. Inputs are stored once under
"inputs" and referenced by name from the cases. Encoding: real values are JSON numbers
(exact: every float is written as the float64 holding it), with "nan", "inf", "-inf"
as strings; complex values are [re, im] pairs; bools are true/false.
"""
import json
import math
import pathlib
import sys

import numpy as np
import tensorflow as tf
import tensorflow.experimental.numpy as tnp
from tensorflow.python.framework import weak_tensor

tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="all")

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
OUT = ROOT / "crates/lattensor/tests/data/tnp_golden.json"

DTYPES = ["bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64",
          "bfloat16", "float16", "float32", "float64", "complex64", "complex128"]
WEAK_OK = {"int32", "int64", "float32", "float64", "complex128"}


def enc_real(v):
    v = float(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def encode(arr, dtype):
    flat = np.asarray(arr).reshape(-1)
    if dtype == "bool":
        return [bool(x) for x in flat]
    if dtype.startswith("complex"):
        return [[enc_real(x.real), enc_real(x.imag)] for x in flat.astype(np.complex128)]
    if dtype.startswith(("int", "uint")):
        return [int(x) for x in flat]
    return [enc_real(x) for x in flat.astype(np.float64)]


# ---- inputs ---------------------------------------------------------------------------

def edge_values(d):
    """A 1-D vector of typical and edge values for dtype `d`."""
    if d == "bool":
        return [True, False, True, False]
    if d.startswith("uint"):
        info = np.iinfo(d)
        return [0, 1, 2, 3, 7, 100, int(info.max) - 1, int(info.max)]
    if d.startswith("int"):
        info = np.iinfo(d)
        return [0, 1, -1, 2, -3, 7, 100, int(info.max), int(info.min)]
    if d.startswith("complex"):
        return [0j, 1 + 1j, -0.5 + 2j, 3 - 4j, complex(-0.0, -1.0), 0.25 + 0j, 1e-3 - 2e-3j, 2.5 - 0.5j]
    return [0.0, -0.0, 0.5, -0.5, 1.0, -1.5, 2.5, 3.75, -100.25, 1e-3, 0.9, -0.99,
            float("nan"), float("inf"), float("-inf")]


def mat_values(d, shape):
    n = int(np.prod(shape))
    k = np.arange(n)
    if d == "bool":
        v = (k % 3) == 0
    elif d.startswith("uint"):
        v = k * 3 % 11
    elif d.startswith("int"):
        v = (k * 7 % 13) - 6
    elif d.startswith("complex"):
        v = (k * 7 % 13 - 6) * 0.75 + 1j * ((k % 3) - 1) * 0.5
    else:
        v = (k * 7 % 13 - 6) * 0.75
    return np.asarray(v).reshape(shape)


def tf_dtype(d):
    return tf.as_dtype(d)


INPUTS = {}
TF_INPUTS = {}


def add_input(name, values, d, weak=False, shape=None):
    arr = np.asarray(values, dtype=tf_dtype(d).as_numpy_dtype)
    if shape is not None:
        arr = arr.reshape(shape)
    t = tf.constant(arr, dtype=tf_dtype(d))
    if weak:
        t = weak_tensor.WeakTensor.from_tensor(t)
    INPUTS[name] = {"d": d, "w": weak, "s": list(arr.shape), "v": encode(arr, d)}
    TF_INPUTS[name] = t
    return name


for d in DTYPES:
    add_input(f"e_{d}", edge_values(d), d)
    add_input(f"m_{d}", mat_values(d, (3, 4)), d)
    add_input(f"c_{d}", mat_values(d, (2, 3, 4)), d)
    add_input(f"v_{d}", mat_values(d, (4,)), d)
    add_input(f"s_{d}", mat_values(d, ()), d)
for d in sorted(WEAK_OK):
    add_input(f"we_{d}", [v for v in edge_values(d)], d, weak=True)
    add_input(f"wm_{d}", mat_values(d, (3, 4)), d, weak=True)
    add_input(f"wv_{d}", mat_values(d, (4,)), d, weak=True)
# a float matrix with NaNs for nanmean / reductions
for d in ["bfloat16", "float16", "float32", "float64", "complex64", "complex128"]:
    vals = mat_values(d, (3, 4)).astype(np.complex128 if d.startswith("complex") else np.float64)
    vals.flat[[1, 6, 7]] = np.nan
    vals[2, :] = np.nan
    add_input(f"n_{d}", vals, d)
# Python scalars: tnp converts them to weak tensors (int → i32*, float → f32*, complex → c128*)
PY_SCALARS = {"py_int": 3, "py_negint": -2, "py_float": 2.5, "py_negfloat": -0.75, "py_complex": 1.5 - 2j, "py_bool": True}
for name, v in PY_SCALARS.items():
    d = {int: "int32", float: "float32", complex: "complex128", bool: "bool"}[type(v)]
    INPUTS[name] = {"d": d, "w": d != "bool", "s": [], "v": encode(np.asarray(v), d), "python": True}
    TF_INPUTS[name] = v


# ---- cases ----------------------------------------------------------------------------

UNARY = ["abs", "absolute", "fabs", "angle", "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctanh",
         "around", "round", "bitwise_not", "cbrt", "ceil", "conj", "conjugate", "cos", "cosh", "deg2rad", "exp2",
         "exp", "expm1", "fix", "floor", "imag", "log10", "log1p", "log2", "log", "negative", "positive",
         "rad2deg", "real", "reciprocal", "signbit", "sin", "sinc", "sinh", "sqrt", "square", "tan", "tanh"]
UNARY_KW = {"angle": [{}, {"deg": True}], "around": [{}, {"decimals": 1}, {"decimals": -1}],
            "round": [{}, {"decimals": 2}]}

# (name, [kwargs variants], input prefixes)
REDUCE_AXES = [{}, {"axis": 0}, {"axis": -1, "keepdims": True}, {"axis": [0, 1]}]
SHAPED = [
    ("amax", REDUCE_AXES, ["m", "n"]), ("amin", REDUCE_AXES, ["m", "n"]),
    ("max", [{}, {"axis": 1}], ["m"]), ("min", [{}, {"axis": 0, "keepdims": True}], ["m"]),
    ("sum", REDUCE_AXES + [{"dtype": "float64"}, {"axis": 1, "dtype": "int8"}], ["m", "e"]),
    ("prod", REDUCE_AXES + [{"axis": 0, "dtype": "float32"}], ["m"]),
    ("mean", REDUCE_AXES + [{"dtype": "float64"}], ["m", "e"]),
    ("std", [{}, {"axis": 0}, {"axis": 1, "keepdims": True}], ["m"]),
    ("var", [{}, {"axis": 0}, {"ddof": 1}, {"axis": 1, "ddof": 1, "keepdims": True}, {"dtype": "float64"}], ["m"]),
    ("nanmean", [{}, {"axis": 0}, {"axis": 1, "keepdims": True}], ["m", "n"]),
    ("average", [{}, {"axis": 0}, {"axis": 1, "weights": [1.0, 2.0, 0.5, 0.0]},
                 {"weights": [[1, 0, 2, 1], [0, 1, 1, 1], [3, 0, 0, 1]], "returned": True},
                 {"axis": 0, "weights": [1, 2, 3], "returned": True}], ["m"]),
    ("cumsum", [{}, {"axis": 0}, {"axis": -1}, {"axis": 1, "dtype": "float32"}], ["m"]),
    ("cumprod", [{}, {"axis": 0}, {"axis": 1, "dtype": "int64"}], ["m"]),
    ("trace", [{}, {"offset": 1}, {"offset": -1}, {"offset": 1, "axis1": 1, "axis2": 2}, {"dtype": "float32"}],
     ["m", "c"]),
    ("diff", [{}, {"n": 2}, {"axis": 0}, {"n": 0}, {"n": 3, "axis": 1}], ["m", "e"]),
    ("diag", [{}, {"k": 1}, {"k": -2}, {"k": 5}], ["m", "v"]),
    ("diagflat", [{}, {"k": 1}, {"k": -1}], ["v", "m"]),
    ("diagonal", [{}, {"offset": 1}, {"offset": -1}, {"offset": 1, "axis1": 2, "axis2": 0}, {"axis1": 1, "axis2": 2}],
     ["m", "c"]),
    ("expand_dims", [{"axis": 0}, {"axis": -1}, {"axis": 1}], ["m"]),
    ("flatten", [{}], ["m", "c"]),
    ("flip", [{}, {"axis": 0}, {"axis": -1}, {"axis": [0, 2]}], ["c"]),
    ("fliplr", [{}], ["m", "c"]),
    ("flipud", [{}], ["m", "v"]),
    ("moveaxis", [{"source": 0, "destination": -1}, {"source": [0, 1], "destination": [2, 0]}], ["c"]),
    ("ravel", [{}], ["m", "c"]),
    ("repeat", [{"repeats": 2}, {"repeats": 2, "axis": 0}, {"repeats": [1, 0, 3], "axis": 0},
                {"repeats": [2, 1, 0, 1], "axis": -1}], ["m"]),
    ("reshape", [{"newshape": [4, 3]}, {"newshape": [2, -1]}, {"newshape": [-1]}], ["m"]),
    ("rot90", [{}, {"k": 2}, {"k": 3}, {"k": -1}, {"k": 1, "axes": [1, 0]}, {"k": 1, "axes": [1, 2]}], ["m", "c"]),
    ("sort", [{}, {"axis": 0}, {"axis": None}], ["m", "e"]),
    ("squeeze", [{}, {"axis": 0}], ["s1"]),
    ("swapaxes", [{"axis1": 0, "axis2": 1}, {"axis1": -1, "axis2": 0}], ["m", "c"]),
    ("transpose", [{}, {"axes": [1, 0]}], ["m"]),
    ("triu", [{}, {"k": 1}, {"k": -1}], ["m", "c", "v"]),
    ("vander", [{}, {"N": 3}, {"increasing": True}, {"N": 0}], ["v"]),
]
LIKE = [
    ("copy", [{}]), ("array", [{}, {"ndmin": 3}, {"dtype": "float32"}]), ("asarray", [{}, {"dtype": "int16"}]),
    ("asanyarray", [{}]), ("ascontiguousarray", [{}]),
    ("empty_like", [{}, {"dtype": "float64"}]), ("zeros_like", [{}, {"dtype": "int8"}]),
    ("ones_like", [{}, {"dtype": "complex64"}]),
    ("full_like", [{"fill_value": 7}, {"fill_value": 2.5}, {"fill_value": -1, "dtype": "float16"},
                   {"fill_value": 3, "shape": [2, 2]}]),
]

# squeeze input: shape (1, 3, 1)
for d in DTYPES:
    add_input(f"s1_{d}", mat_values(d, (1, 3, 1)), d)


def kw_for_tf(name, kw):
    kw = dict(kw)
    for k in ("dtype",):
        if k in kw:
            kw[k] = tf_dtype(kw[k])
    if "axis" in kw and isinstance(kw["axis"], list):
        kw["axis"] = tuple(kw["axis"])
    if "axes" in kw and isinstance(kw["axes"], list):
        kw["axes"] = tuple(kw["axes"])
    if name == "average" and "weights" in kw:
        kw["weights"] = kw["weights"]  # a Python list, converted by tnp like any array_like
    return kw


def run(name, inp, kw):
    fn = getattr(tnp, name)
    x = TF_INPUTS[inp]
    try:
        r = fn(x, **kw_for_tf(name, kw))
    except Exception as e:  # noqa: BLE001 - the exception class is the datum
        return {"err": type(e).__name__, "msg": (str(e).splitlines() or [""])[0][:160]}
    if isinstance(r, tuple):
        return {"tuple": [describe(t) for t in r]}
    return describe(r)


def describe(r):
    weak = type(r).__name__ == "EagerWeakTensor"
    if not hasattr(r, "dtype"):
        r = tf.constant(r)
    d = r.dtype.name
    arr = r.numpy()
    return {"d": d, "w": weak, "s": list(arr.shape), "v": encode(arr, d)}


CASES = []


def case(name, inp, kw):
    out = run(name, inp, kw)
    CASES.append({"fn": name, "in": inp, "kw": kw, "out": out})


for name in UNARY:
    for kw in UNARY_KW.get(name, [{}]):
        for d in DTYPES:
            case(name, f"e_{d}", kw)
        for d in sorted(WEAK_OK):
            case(name, f"we_{d}", kw)
        for p in PY_SCALARS:
            case(name, p, kw)
    # a 2-D input keeps its shape
    case(name, "m_float32", {})

for name, kws, prefixes in SHAPED:
    for kw in kws:
        for pre in prefixes:
            for d in DTYPES:
                if f"{pre}_{d}" in INPUTS:
                    case(name, f"{pre}_{d}", kw)
            if pre in ("m", "v", "e"):
                for d in sorted(WEAK_OK):
                    case(name, f"w{pre}_{d}", kw)
        if name not in ("squeeze",):
            case(name, "py_float", kw)
            case(name, "py_int", kw)

for name, kws in LIKE:
    for kw in kws:
        for d in DTYPES:
            case(name, f"m_{d}", kw)
        for d in sorted(WEAK_OK):
            case(name, f"wm_{d}", kw)
        for p in PY_SCALARS:
            case(name, p, kw)

# arange takes scalars, not an array
ARANGE = [[5], [1, 10, 3], [0.0, 1.0, 0.25], [10, 1, -2], [0, 5, 1, "float64"], [2.5], [0, 3, 1, "int8"],
          [-1.5, 2], [3, 3], [1, 2, 0.3]]
for args in ARANGE:
    dtype = args[3] if len(args) == 4 else None
    pos = args[:3]
    try:
        r = tnp.arange(*pos, dtype=tf_dtype(dtype) if dtype else None)
        out = describe(r)
    except Exception as e:  # noqa: BLE001
        out = {"err": type(e).__name__, "msg": (str(e).splitlines() or [""])[0][:160]}
    CASES.append({"fn": "arange", "in": None, "kw": {"args": pos, "dtype": dtype}, "out": out})

golden = {"tf_version": tf.__version__, "mode": "all", "inputs": INPUTS, "cases": CASES}
OUT.write_text(json.dumps(golden, separators=(",", ":")))
print(f"{len(CASES)} cases, {len(INPUTS)} inputs, {OUT.stat().st_size / 1e6:.2f} MB -> {OUT}", file=sys.stderr)
