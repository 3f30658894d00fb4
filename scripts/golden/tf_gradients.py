#!/usr/bin/env python3
"""Golden gradients: what TF 2.21's GradientTape returns for every differentiable
API of the guide's WeakTensor list (tf.* and tf.experimental.numpy), the extra ops
the package has (concat, stack, where, gather, pad, split, matmul with every flag,
einsum, cumsum, sort, reductions with axes and keepdims) and the Tensor operators.

A case is a list of source expressions and a function of the sources, both as
Python source text evaluated with `tf` = tensorflow, `tnp` =
tensorflow.experimental.numpy and `np` = numpy, under a promotion mode ("all"
unless the case says "safe"). `run` below watches each source (a tf.Variable is
watched by being read), calls the function under the tape and asks for the
gradient of its result with respect to every source, with output gradients
`weights(y)` (deterministic, exact in every float dtype) for a non-scalar float
result so that the gradient depends on more than a sum. It records, per source,
the gradient's dtype, weakness, shape and values, or None; or the class of the
error raised and where ("forward" or "gradient").

Every API runs on: (a) a weak source (`tf.constant(python_float)`), (b) strong
float32 and float64 sources, (c) a float16 or bfloat16 source, (d) a tf.Variable;
binary ops also on (e) mixed dtypes (each source's gradient dtype), a few of
them under "safe" too; integer sources and the ops TF does not differentiate
(floor, round, floordiv, …) record TF's None.

python/tests/test_gradients_golden.py evaluates the same text with lattensor and
compares dtype and weakness exactly and values with a tolerance by dtype.

    /work/venv/tf/bin/python scripts/golden/tf_gradients.py

Writes python/tests/data/tf_gradients.json.
"""
import json
import os
import pathlib
import sys

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf  # noqa: E402
import tensorflow.experimental.numpy as tnp  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tf_values import encode  # noqa: E402

tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="all")
OUT = pathlib.Path(__file__).resolve().parents[2] / "python/tests/data/tf_gradients.json"

# ---- the harness (python/tests/test_gradients_golden.py has the same one) -------------


def weights(shape):
    """Output gradients of a result of `shape`: -0.75, -0.25, 0.25, 0.75, 1.25, … (exact in bfloat16)."""
    n = int(np.prod(shape, dtype=np.int64))
    return np.array([((k % 5) - 2) * 0.5 + 0.25 for k in range(n)], np.float64).reshape(shape)


def run(tf, case, env):
    """Per source: the encoded gradient or None; or {"error": class, "stage": …}."""
    try:
        xs = [eval(s, env) for s in case["srcs"]]  # noqa: S307 (our own expressions)
        f = eval(case["f"], env)  # noqa: S307
        with tf.GradientTape() as tape:
            for x in xs:
                if not isinstance(x, tf.Variable):
                    tape.watch(x)
            y = f(*xs)
    except Exception as ex:  # noqa: BLE001
        return {"error": type(ex).__name__, "stage": "forward"}
    try:
        ys = list(y) if isinstance(y, (list, tuple)) else [y]
        og = []
        for t in ys:
            if t.dtype.is_floating or t.dtype.is_complex:
                og.append(tf.cast(tf.constant(weights(tuple(t.shape)), tf.float64), t.dtype))
            else:
                og.append(None)
        if all(o is None for o in og) or all(len(t.shape) == 0 for t in ys):
            og = None
        elif any(o is None for o in og):
            og = None
        grads = tape.gradient(ys if isinstance(y, (list, tuple)) else y, xs, output_gradients=og)
    except Exception as ex:  # noqa: BLE001
        return {"error": type(ex).__name__, "stage": "gradient"}
    return {"grads": [None if g is None else encode_grad(tf, g) for g in grads]}


def encode_grad(tf, g):
    """A gradient's encoding; TF's IndexedSlices (gather's gradient) as the dense
    tensor, with the dtype and weakness of its values, marked "indexed_slices"."""
    if isinstance(g, tf.IndexedSlices):
        e = encode(tf.convert_to_tensor(g))
        e["weak"] = encode(g.values)["weak"]
        e["indexed_slices"] = True
        return e
    return encode(g)


# ---- the cases ---------------------------------------------------------------------------

# input values by domain (three each; the weak scalar is the first)
DOMAINS = {
    "any": [-1.3, 0.4, 2.1],
    "pos": [0.3, 1.2, 2.5],
    "unit": [-0.6, 0.1, 0.75],
    "gt1": [1.2, 2.0, 3.5],
    "prob": [0.1, 0.45, 0.8],
    "two": [0.2, 1.0, 1.7],
    "small": [-0.8, 0.3, 1.1],
}

CASES = []


def case(api, srcs, f, mode="all", variant="", note=None):
    c = {"api": api, "variant": variant, "srcs": srcs, "f": f, "mode": mode}
    if note:
        c["note"] = note
    CASES.append(c)


def vec(dom, dtype):
    return f"tf.constant({DOMAINS[dom]!r}, tf.{dtype})"


def unary(api, f, dom="any", half="float16", complex_ok=False, extra=()):
    """An element-wise function of one tensor on every kind of source."""
    v = DOMAINS[dom]
    case(api, [f"tf.constant({v[0]!r})"], f, variant="weak")
    case(api, [f"tf.constant({v!r})"], f, variant="list")
    case(api, [vec(dom, "float32")], f, variant="float32")
    case(api, [vec(dom, "float64")], f, variant="float64")
    if half:
        case(api, [vec(dom, half)], f, variant=half)
    case(api, [f"tf.Variable({v!r})"], f, variant="variable")
    case(api, [f"tf.constant([1, 2, 3])"], f, variant="int32")
    if complex_ok:
        case(api, ["tf.constant([0.5+0.25j, -1.5+1j], tf.complex64)"], f, variant="complex64")
        case(api, ["tf.constant(0.5-0.75j)"], f, variant="weak complex")
    for i, (variant, src) in enumerate(extra):
        case(api, [src], f, variant=variant)


def binary(api, f, dom_a="any", dom_b="pos", safe=False, complex_ok=False, ints=True):
    """A binary op on matching, mixed, weak, variable and integer sources."""
    a, b = DOMAINS[dom_a], DOMAINS[dom_b]
    A = lambda d: f"tf.constant({a!r}, tf.{d})"  # noqa: E731
    B = lambda d: f"tf.constant({b!r}, tf.{d})"  # noqa: E731
    case(api, [f"tf.constant({a[1]!r})", f"tf.constant({b[2]!r})"], f, variant="weak,weak")
    case(api, [A("float32"), B("float32")], f, variant="float32,float32")
    case(api, [A("float64"), B("float64")], f, variant="float64,float64")
    case(api, [A("float16"), B("float16")], f, variant="float16,float16")
    case(api, [A("bfloat16"), f"tf.constant({b[0]!r})"], f, variant="bfloat16,weak")
    case(api, [A("float32"), B("float64")], f, variant="float32,float64")
    case(api, [f"tf.constant({a[0]!r})", B("float32")], f, variant="weak,float32")
    case(api, [A("float16"), B("float32")], f, variant="float16,float32")
    case(api, [f"tf.Variable({a!r})", B("float32")], f, variant="variable,float32")
    case(api, [f"tf.constant([[{a[0]!r}], [{a[1]!r}]], tf.float64)", B("float64")], f, variant="broadcast")
    if ints:
        case(api, ["tf.constant([1, 2, 3])", B("float32")], f, variant="int32,float32")
    if complex_ok:
        case(api, ["tf.constant([0.5+0.25j, -1.5+1j, 2-1j], tf.complex64)", B("float32")], f,
             variant="complex64,float32")
    if safe:
        case(api, [A("float32"), B("float64")], f, mode="safe", variant="float32,float64")
        case(api, [A("float16"), B("float32")], f, mode="safe", variant="float16,float32")
        case(api, [f"tf.constant({a[0]!r})", B("float32")], f, mode="safe", variant="weak,float32")


M23 = "tf.constant([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], tf.{})"
M34 = "tf.constant([[0.5, -1.0, 2.0, 1.0], [1.5, 0.25, -0.75, 0.5], [-2.0, 1.0, 0.5, 1.25]], tf.{})"
M33 = "tf.constant([[2.0, -1.0, 0.5], [0.25, 1.5, -0.75], [1.0, 0.5, 3.0]], tf.{})"
T234 = "tf.reshape(tf.cast(tf.range(24), tf.{}) * 0.25 - 2.0, [2, 3, 4])"


def shaped(api, f, src=M23, dtypes=("float32", "float64", "float16"), var=True, tag=""):
    """A function of one non-element-wise tensor on strong, half and variable sources."""
    for d in dtypes:
        case(api, [src.format(d)], f, variant=d + tag)
    if var:
        case(api, [f"tf.Variable({src.format('float32')})"], f, variant="variable")


# -- tf.math element-wise
U = [
    ("tf.math.abs", "any", True), ("tf.math.acos", "unit", False), ("tf.math.acosh", "gt1", False),
    ("tf.math.asin", "unit", False), ("tf.math.asinh", "any", False), ("tf.math.atan", "any", False),
    ("tf.math.atanh", "unit", False), ("tf.math.ceil", "any", False), ("tf.math.cos", "any", True),
    ("tf.math.cosh", "any", False), ("tf.math.digamma", "pos", False), ("tf.math.erf", "any", False),
    ("tf.math.erfc", "any", False), ("tf.math.erfcinv", "two", False), ("tf.math.erfinv", "unit", False),
    ("tf.math.exp", "any", True), ("tf.math.expm1", "any", False), ("tf.math.floor", "any", False),
    ("tf.math.lgamma", "pos", False), ("tf.math.log1p", "pos", False), ("tf.math.log_sigmoid", "any", False),
    ("tf.math.log", "pos", True), ("tf.math.ndtri", "prob", False), ("tf.math.negative", "any", True),
    ("tf.math.reciprocal_no_nan", "pos", False), ("tf.math.reciprocal", "pos", True),
    ("tf.math.rint", "any", False), ("tf.math.round", "any", False), ("tf.math.rsqrt", "pos", False),
    ("tf.math.sigmoid", "any", False), ("tf.math.sign", "any", False), ("tf.math.sin", "any", True),
    ("tf.math.sinh", "any", False), ("tf.math.softplus", "any", False), ("tf.math.sqrt", "pos", True),
    ("tf.math.square", "any", True), ("tf.math.tan", "small", False), ("tf.math.tanh", "any", True),
    ("tf.math.conj", "any", True), ("tf.math.real", "any", True), ("tf.math.imag", "any", True),
    ("tf.math.angle", "any", True),
]
for name, dom, cplx in U:
    unary(name, f"lambda x: {name}(x)", dom, complex_ok=cplx)
for name in ("tf.math.exp", "tf.math.tanh", "tf.math.sigmoid", "tf.nn.relu", "tf.math.square"):
    case(name, [vec("any", "bfloat16")], f"lambda x: {name}(x)", variant="bfloat16")

SPECIAL = [("bessel_i0", "any"), ("bessel_i0e", "any"), ("bessel_i1", "any"), ("bessel_i1e", "any"),
           ("bessel_j0", "any"), ("bessel_j1", "any"), ("bessel_k0", "pos"), ("bessel_k0e", "pos"),
           ("bessel_k1", "pos"), ("bessel_k1e", "pos"), ("bessel_y0", "pos"), ("bessel_y1", "pos"),
           ("dawsn", "any"), ("expint", "pos"), ("fresnel_cos", "any"), ("fresnel_sin", "any"),
           ("spence", "pos")]
for name, dom in SPECIAL:
    unary(f"tf.math.special.{name}", f"lambda x: tf.math.special.{name}(x)", dom, half=None)

# -- tf.nn activations
for name, dom in [("elu", "any"), ("gelu", "any"), ("relu6", "any"), ("relu", "any"), ("selu", "any"),
                  ("softsign", "any"), ("swish", "any"), ("leaky_relu", "any")]:
    unary(f"tf.nn.{name}", f"lambda x: tf.nn.{name}(x)", dom)
unary("tf.nn.gelu", "lambda x: tf.nn.gelu(x, approximate=True)", "any", half=None)
unary("tf.nn.leaky_relu", "lambda x: tf.nn.leaky_relu(x, alpha=0.3)", "any", half=None)
unary("tf.nn.relu6", "lambda x: tf.nn.relu6(x * 3.0)", "any", half=None)
shaped("tf.nn.log_softmax", "lambda x: tf.nn.log_softmax(x)")
shaped("tf.nn.log_softmax", "lambda x: tf.nn.log_softmax(x, axis=0)", dtypes=("float32",), var=False)
shaped("tf.nn.softmax", "lambda x: tf.nn.softmax(x)")
D2S = "tf.reshape(tf.cast(tf.range(16), tf.{}) * 0.5 - 3.0, [1, 2, 2, 4])"
shaped("tf.nn.depth_to_space", "lambda x: tf.nn.depth_to_space(x, 2)", src=D2S)
S2D = "tf.reshape(tf.cast(tf.range(16), tf.{}) * 0.5 - 3.0, [1, 4, 4, 1])"
shaped("tf.nn.space_to_depth", "lambda x: tf.nn.space_to_depth(x, 2)", src=S2D)

# -- binary tf.math / top-level
BIN = [("tf.math.add", "any", "pos", True, True), ("tf.math.subtract", "any", "pos", True, True),
       ("tf.math.multiply", "any", "pos", True, True), ("tf.math.divide", "any", "pos", True, True),
       ("tf.realdiv", "any", "pos", False, False), ("tf.math.divide_no_nan", "any", "pos", False, False),
       ("tf.math.multiply_no_nan", "any", "pos", False, False), ("tf.math.pow", "pos", "any", True, False),
       ("tf.math.floordiv", "any", "pos", False, False), ("tf.math.floormod", "any", "pos", False, False),
       ("tf.truncatediv", "any", "pos", False, False), ("tf.truncatemod", "any", "pos", False, False),
       ("tf.math.maximum", "any", "pos", False, False), ("tf.math.minimum", "any", "pos", False, False),
       ("tf.math.atan2", "any", "pos", False, False)]
for name, da, db, safe, cplx in BIN:
    binary(name, f"lambda a, b: {name}(a, b)", da, db, safe=safe, complex_ok=cplx)
case("tf.math.divide_no_nan", ["tf.constant([1.0, 2.0, 3.0])", "tf.constant([0.0, 2.0, 0.0])"],
     "lambda a, b: tf.math.divide_no_nan(a, b)", variant="zero divisor")
case("tf.math.multiply_no_nan", ["tf.constant([1.0, np.inf, 3.0])", "tf.constant([0.0, 0.0, 2.0])"],
     "lambda a, b: tf.math.multiply_no_nan(a, b)", variant="zero times inf")
case("tf.math.pow", ["tf.constant([0.0, 2.0, -1.5])", "tf.constant([2.0, 0.5, 2.0])"],
     "lambda a, b: tf.math.pow(a, b)", variant="zero and negative base")
case("tf.math.maximum", ["tf.constant([1.0, 2.0])", "tf.constant([1.0, 3.0])"],
     "lambda a, b: tf.math.maximum(a, b)", variant="tie")
case("tf.math.minimum", ["tf.constant([1.0, 2.0])", "tf.constant([1.0, 3.0])"],
     "lambda a, b: tf.math.minimum(a, b)", variant="tie")
case("tf.math.scalar_mul", ["tf.constant([0.5, -1.0, 2.0])"], "lambda x: tf.math.scalar_mul(2.5, x)",
     variant="float32")
case("tf.math.scalar_mul", ["tf.constant(1.5)"], "lambda x: tf.math.scalar_mul(2.5, x)", variant="weak")
case("tf.math.scalar_mul", ["tf.constant(1.5)", "tf.constant([0.5, -1.0])"],
     "lambda s, x: tf.math.scalar_mul(s, x)", variant="weak scalar source")
case("tf.math.scalar_mul", ["tf.Variable([0.5, -1.0, 2.0])"], "lambda x: tf.math.scalar_mul(2.5, x)",
     variant="variable")
case("tf.math.abs", ["tf.constant([0.0, -0.0, 1.0])"], "lambda x: tf.math.abs(x)", variant="kink at 0")
case("tf.nn.relu", ["tf.constant([0.0, -1.0, 1.0])"], "lambda x: tf.nn.relu(x)", variant="kink at 0")
case("tf.math.sqrt", ["tf.constant([0.0, 4.0])"], "lambda x: tf.math.sqrt(x)", variant="zero")

# -- clip_by_value
for d in ("float32", "float64", "float16"):
    case("tf.clip_by_value", [vec("any", d)], "lambda x: tf.clip_by_value(x, -1.0, 1.0)", variant=d)
case("tf.clip_by_value", ["tf.constant(1.7)"], "lambda x: tf.clip_by_value(x, -1.0, 1.0)", variant="weak")
case("tf.clip_by_value", ["tf.Variable([-1.3, 0.4, 2.1])"], "lambda x: tf.clip_by_value(x, -1.0, 1.0)",
     variant="variable")
case("tf.clip_by_value", [vec("any", "float32"), "tf.constant(-1.0)", "tf.constant([1.0, 1.0, 1.0])"],
     "lambda x, lo, hi: tf.clip_by_value(x, lo, hi)", variant="bounds as sources")

# -- reductions, with axes and keepdims
RED = ["reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod", "reduce_logsumexp",
       "reduce_std", "reduce_variance", "reduce_euclidean_norm"]
for r in RED:
    for axis, kd in [(None, False), (0, False), (1, True), ([0, 1], False), (-1, False)]:
        shaped(f"tf.math.{r}", f"lambda x: tf.math.{r}(x, axis={axis!r}, keepdims={kd!r})",
               dtypes=("float32",), var=False)
    shaped(f"tf.math.{r}", f"lambda x: tf.math.{r}(x)", dtypes=("float64", "float16"), var=True)
    case(f"tf.math.{r}", ["tf.constant(1.5)"], f"lambda x: tf.math.{r}(x)", variant="weak")
    case(f"tf.math.{r}", ["tf.constant([1.5, -0.5, 2.0])"], f"lambda x: tf.math.{r}(x)", variant="list")
    case(f"tf.math.{r}", [T234.format("float32")], f"lambda x: tf.math.{r}(x, axis=[0, 2])", variant="3-d")
case("tf.math.reduce_max", ["tf.constant([1.0, 3.0, 3.0, 2.0])"], "lambda x: tf.math.reduce_max(x)", variant="tie")
case("tf.math.reduce_prod", ["tf.constant([[1.0, 0.0, 3.0], [2.0, 0.0, 0.0]])"],
     "lambda x: tf.math.reduce_prod(x, axis=1)", variant="zeros")
case("tf.math.reduce_std", ["tf.constant([2.0, 2.0, 2.0])"], "lambda x: tf.math.reduce_std(x)",
     variant="no spread")
case("tf.math.reduce_variance", ["tf.constant([2.0, 2.0, 2.0])"], "lambda x: tf.math.reduce_variance(x)",
     variant="no spread")
case("tf.math.reduce_euclidean_norm", ["tf.constant([0.0, 0.0])"], "lambda x: tf.math.reduce_euclidean_norm(x)",
     variant="zeros")
case("tf.math.reduce_sum", ["tf.constant([1, 2, 3])"], "lambda x: tf.math.reduce_sum(x)", variant="int32")
case("tf.math.reduce_sum", ["tf.constant([0.5+1j, 2-1j])"], "lambda x: tf.math.reduce_sum(x * x)",
     variant="complex")

# -- shape ops
shaped("tf.reshape", "lambda x: tf.reshape(x, [3, 2])")
shaped("tf.reshape", "lambda x: tf.reshape(x, [-1])", dtypes=("float32",), var=False)
shaped("tf.expand_dims", "lambda x: tf.expand_dims(x, 1)")
shaped("tf.squeeze", "lambda x: tf.squeeze(tf.expand_dims(x, 0))")
case("tf.squeeze", ["tf.constant([[1.5], [2.5]])"], "lambda x: tf.squeeze(x, axis=1)", variant="list")
shaped("tf.transpose", "lambda x: tf.transpose(x)")
shaped("tf.transpose", "lambda x: tf.transpose(x, perm=[2, 0, 1])", src=T234, dtypes=("float32",), var=False)
shaped("tf.identity", "lambda x: tf.identity(x) * x")
case("tf.identity", ["tf.constant(1.5)"], "lambda x: tf.identity(x)", variant="weak")
shaped("tf.stop_gradient", "lambda x: tf.stop_gradient(x)")
shaped("tf.stop_gradient", "lambda x: x * tf.stop_gradient(x)", dtypes=("float32",), var=False)
shaped("tf.ones_like", "lambda x: tf.ones_like(x)", dtypes=("float32",))
shaped("tf.zeros_like", "lambda x: tf.zeros_like(x)", dtypes=("float32",))
shaped("tf.ones_like", "lambda x: x * tf.ones_like(x)", dtypes=("float32",), var=False)
shaped("tf.debugging.check_numerics", "lambda x: tf.debugging.check_numerics(x, 'msg') * 2.0")
shaped("tf.cast", "lambda x: tf.cast(x, tf.float64)", dtypes=("float32", "float16"))
shaped("tf.cast", "lambda x: tf.cast(x, tf.float16)", dtypes=("float64",), var=False)
shaped("tf.cast", "lambda x: tf.cast(x, tf.int32)", dtypes=("float32",), var=False)
shaped("tf.cast", "lambda x: tf.cast(x, tf.complex64)", dtypes=("float32",), var=False)
case("tf.cast", ["tf.constant(1.5)"], "lambda x: tf.cast(x, tf.float64)", variant="weak")
SAT = [("float32", "float16", "[1e5, -3.0, 70000.0, -1e6]"), ("float64", "float32", "[1e40, -3.0, 1.5, -1e39]"),
       ("float32", "bfloat16", "[300.0, -3.0, 1.5, 2.5]"), ("bfloat16", "float16", "[1e5, -3.0, 1.5, -7e4]"),
       ("float64", "float16", "[65504.0, 65520.0, -65504.0, 2.0]"), ("float32", "int32", "[1e10, -3.0, 1.5, 2.5]"),
       ("float32", "float64", "[1e10, -3.0, 1.5, 2.5]")]
for a, b, v in SAT:
    case("tf.dtypes.saturate_cast", [f"tf.constant({v}, tf.{a})"], f"lambda x: tf.dtypes.saturate_cast(x, tf.{b})",
         variant=f"{a} to {b}")
case("tf.dtypes.saturate_cast", ["tf.constant(1e5)"], "lambda x: tf.dtypes.saturate_cast(x, tf.float16)",
     variant="weak to float16")
case("tf.dtypes.saturate_cast", ["tf.Variable([1e5, -3.0])"], "lambda x: tf.dtypes.saturate_cast(x, tf.float16)",
     variant="variable to float16")
shaped("tf.broadcast_to", "lambda x: tf.broadcast_to(x, [4, 2, 3])")

# -- linalg
for d in ("float32", "float64", "float16"):
    case("tf.linalg.matmul", [M23.format(d), M34.format(d)], "lambda a, b: tf.linalg.matmul(a, b)", variant=d)
for flags in ["transpose_a=True", "transpose_b=True", "adjoint_a=True", "adjoint_b=True",
              "transpose_a=True, transpose_b=True", "adjoint_a=True, adjoint_b=True"]:
    ta = "transpose_a" in flags or "adjoint_a" in flags
    tb = "transpose_b" in flags or "adjoint_b" in flags
    a = "tf.transpose({})".format(M23.format("float32")) if ta else M23.format("float32")
    b = "tf.transpose({})".format(M34.format("float32")) if tb else M34.format("float32")
    case("tf.linalg.matmul", [a, b], f"lambda a, b: tf.linalg.matmul(a, b, {flags})", variant=flags)
case("tf.linalg.matmul", ["tf.constant([[1+1j, 2-1j], [0.5j, 1]], tf.complex64)",
                          "tf.constant([[1-2j, 0.5], [1j, -1]], tf.complex64)"],
     "lambda a, b: tf.linalg.matmul(a, b, adjoint_a=True)", variant="complex adjoint_a")
case("tf.linalg.matmul", [T234.format("float32"), M34.format("float32")],
     "lambda a, b: tf.linalg.matmul(a, tf.transpose(b))", variant="batch broadcast")
case("tf.linalg.matmul", [M23.format("float32"), M34.format("float64")],
     "lambda a, b: tf.linalg.matmul(a, b)", variant="float32,float64")
case("tf.linalg.matmul", [f"tf.Variable({M23.format('float32')})", M34.format("float32")],
     "lambda a, b: tf.linalg.matmul(a, b)", variant="variable")
shaped("tf.linalg.matrix_transpose", "lambda x: tf.linalg.matrix_transpose(x)")
shaped("tf.linalg.matrix_transpose", "lambda x: tf.linalg.matrix_transpose(x)", src=T234,
       dtypes=("float32",), var=False, tag=" 3-d")
shaped("tf.linalg.trace", "lambda x: tf.linalg.trace(x)", src=M33)
shaped("tf.linalg.trace", "lambda x: tf.linalg.trace(x)", src=T234, dtypes=("float32",), var=False, tag=" 3-d")
shaped("tf.linalg.diag_part", "lambda x: tf.linalg.diag_part(x)", src=M33)
shaped("tf.linalg.diag_part", "lambda x: tf.linalg.diag_part(x, k=1)", src=M34, dtypes=("float32",), var=False)
shaped("tf.linalg.tensor_diag_part", "lambda x: tf.linalg.tensor_diag_part(x)", src=M33)
shaped("tf.linalg.diag", "lambda x: tf.linalg.diag(x)", src="tf.constant([0.5, -1.0, 2.0], tf.{})")
shaped("tf.linalg.diag", "lambda x: tf.linalg.diag(x, k=-1, num_rows=4)",
       src="tf.constant([0.5, -1.0, 2.0], tf.{})", dtypes=("float32",), var=False)
case("tf.linalg.diag", ["tf.constant(1.5)"], "lambda x: tf.linalg.diag(tf.stack([x, x]))", variant="weak")
shaped("tf.linalg.set_diag", "lambda x: tf.linalg.set_diag(x, tf.constant([1.0, 2.0, 3.0], x.dtype))", src=M33)
case("tf.linalg.set_diag", [M33.format("float32"), "tf.constant([1.0, 2.0, 3.0])"],
     "lambda x, d: tf.linalg.set_diag(x, d)", variant="both sources")
shaped("tf.linalg.band_part", "lambda x: tf.linalg.band_part(x, 1, 0)", src=M34)

# -- decompositions and Fourier transforms. Singular vectors, eigenvectors and
#    QR factors are checked through their squares, which do not depend on the
#    libraries' sign conventions.
SPD = "tf.constant([[4.0, 1.0, 0.5], [1.0, 3.0, -0.25], [0.5, -0.25, 2.5]], tf.{})"
M43 = "tf.transpose(" + M34 + ")"
C4 = "tf.constant([0.5+0.25j, -1.5+1j, 2-0.5j, 0.25j], tf.{})"
C33 = "tf.constant([[2+0.5j, -1+0.25j, 0.5j], [0.25, 1.5-1j, -0.75], [1+1j, 0.5, 3-0.5j]], tf.{})"
for d in ("float32", "float64"):
    case("tf.linalg.det", [M33.format(d)], "lambda x: tf.linalg.det(x)", variant=d)
    case("tf.linalg.slogdet", [M33.format(d)], "lambda x: tf.linalg.slogdet(x)[1]", variant=d)
    case("tf.linalg.logdet", [SPD.format(d)], "lambda x: tf.linalg.logdet(x)", variant=d)
    case("tf.linalg.inv", [M33.format(d)], "lambda x: tf.linalg.inv(x)", variant=d)
    case("tf.linalg.solve", [M33.format(d), M34.format(d)], "lambda a, b: tf.linalg.solve(a, b)", variant=d)
    case("tf.linalg.cholesky", [SPD.format(d)], "lambda x: tf.linalg.cholesky(x)", variant=d)
    case("tf.linalg.eigh", [SPD.format(d)], "lambda x: tf.linalg.eigh(x)[0]", variant=f"{d} values")
    case("tf.linalg.eigh", [SPD.format(d)], "lambda x: tf.linalg.eigh(x)[1] ** 2", variant=f"{d} vectors")
    case("tf.linalg.eigvalsh", [SPD.format(d)], "lambda x: tf.linalg.eigvalsh(x)", variant=d)
    case("tf.linalg.svd", [M34.format(d)], "lambda x: tf.linalg.svd(x, compute_uv=False)", variant=f"{d} values")
    case("tf.linalg.svd", [M34.format(d)], "lambda x: [t ** 2 for t in tf.linalg.svd(x)]", variant=f"{d} wide")
    case("tf.linalg.svd", [M43.format(d)], "lambda x: [t ** 2 for t in tf.linalg.svd(x)]", variant=f"{d} tall")
    case("tf.linalg.qr", [M43.format(d)], "lambda x: [t ** 2 for t in tf.linalg.qr(x)]", variant=d)
    case("tf.signal.rfft", [f"tf.constant([0.5, -1.0, 2.0, 1.5, 0.25], tf.{d})"], "lambda x: tf.signal.rfft(x)",
         variant=d)
for c in ("complex64", "complex128"):
    case("tf.linalg.det", [C33.format(c)], "lambda x: tf.linalg.det(x)", variant=c)
    case("tf.linalg.inv", [C33.format(c)], "lambda x: tf.linalg.inv(x)", variant=c)
    case("tf.signal.fft", [C4.format(c)], "lambda x: tf.signal.fft(x)", variant=c)
    case("tf.signal.ifft", [C4.format(c)], "lambda x: tf.signal.ifft(x)", variant=c)
    case("tf.signal.irfft", [C4.format(c)], "lambda x: tf.signal.irfft(x)", variant=c)
    case("tf.signal.irfft", [C4.format(c)], "lambda x: tf.signal.irfft(x, fft_length=[5])", variant=f"{c} n=5")
    case("tf.signal.fft2d", [C33.format(c)], "lambda x: tf.signal.fft2d(x)", variant=c)
case("tf.signal.rfft", ["tf.constant([0.5, -1.0, 2.0, 1.5])"], "lambda x: tf.signal.rfft(x, fft_length=[6])",
     variant="n=6")
case("tf.signal.rfft2d", [M34.format("float32")], "lambda x: tf.signal.rfft2d(x)", variant="float32")

# -- einsum
EINSUM = [
    ("ij,jk->ik", [M23, M34]), ("ij->ji", [M23]), ("ii->i", [M33]), ("ii->", [M33]), ("ij->", [M23]),
    ("ij->j", [M23]), ("bij,bjk->bik", [T234, "tf.reshape(tf.cast(tf.range(40), tf.{}) * 0.1, [2, 4, 5])"]),
    ("i,i->", ["tf.constant([0.5, -1.0, 2.0], tf.{})", "tf.constant([1.5, 0.25, -0.75], tf.{})"]),
    ("i,j->ij", ["tf.constant([0.5, -1.0, 2.0], tf.{})", "tf.constant([1.5, 0.25], tf.{})"]),
    ("ij,jk,kl->il", [M23, M34, "tf.reshape(tf.cast(tf.range(8), tf.{}) * 0.5 - 1.0, [4, 2])"]),
    ("i,ij,j->", ["tf.constant([0.5, -1.0], tf.{})", M23, "tf.constant([1.5, 0.25, -0.75], tf.{})"]),
    ("...ij,...jk->...ik", [T234, "tf.reshape(tf.cast(tf.range(8), tf.{}) * 0.5 - 1.0, [4, 2])"]),
    ("ij,ij->i", [M23, M23]),
    ("bij->bji", [T234]),
    ("ijk->kj", [T234]),
]
for eq, srcs in EINSUM:
    args = ", ".join(chr(ord("a") + i) for i in range(len(srcs)))
    case("tf.einsum", [s.format("float32") for s in srcs], f"lambda {args}: tf.einsum({eq!r}, {args})",
         variant=f"{eq} float32")
    case("tf.einsum", [s.format("float64") for s in srcs], f"lambda {args}: tf.einsum({eq!r}, {args})",
         variant=f"{eq} float64")
case("tf.einsum", [M23.format("float32"), M34.format("float64")], "lambda a, b: tf.einsum('ij,jk->ik', a, b)",
     variant="float32,float64")
case("tf.einsum", [M23.format("float16"), M34.format("float16")], "lambda a, b: tf.einsum('ij,jk->ik', a, b)",
     variant="float16")
case("tf.einsum", ["tf.constant([[1+1j, 2-1j], [0.5j, 1]], tf.complex64)",
                   "tf.constant([[1-2j, 0.5], [1j, -1]], tf.complex64)"],
     "lambda a, b: tf.einsum('ij,jk->ik', a, b)", variant="complex64")
case("tf.einsum", [f"tf.Variable({M23.format('float32')})", M34.format("float32")],
     "lambda a, b: tf.einsum('ij,jk->ik', a, b)", variant="variable")

# -- combining, selecting and indexing
for d in ("float32", "float64", "float16"):
    case("tf.concat", [M23.format(d), M23.format(d)], "lambda a, b: tf.concat([a, b * 2.0], axis=0)", variant=d)
    case("tf.stack", [M23.format(d), M23.format(d)], "lambda a, b: tf.stack([a, b * 2.0], axis=1)", variant=d)
case("tf.concat", [M23.format("float32"), M23.format("float64")], "lambda a, b: tf.concat([a, b], axis=1)",
     variant="float32,float64")
case("tf.concat", ["tf.constant(1.5)", "tf.constant([2.5])"], "lambda a, b: tf.concat([[a], b], axis=0)",
     variant="weak")
case("tf.stack", ["tf.constant(1.5)", "tf.constant(2.5, tf.float64)"], "lambda a, b: tf.stack([a, b])",
     variant="weak,float64")
case("tf.stack", [f"tf.Variable({M23.format('float32')})"], "lambda a: tf.stack([a, a], axis=-1)",
     variant="variable")
for d in ("float32", "float64", "float16"):
    case("tf.where", [M23.format(d), M23.format(d)], "lambda a, b: tf.where(a > 0.3, a, b * 2.0)", variant=d)
case("tf.where", [M23.format("float32"), "tf.constant(1.5)"], "lambda a, b: tf.where(a > 0.3, a, b)",
     variant="float32,weak")
case("tf.where", ["tf.constant([1.0, -2.0, 3.0])", "tf.constant([0.5], tf.float32)"],
     "lambda a, b: tf.where([True, False, True], a, b)", variant="broadcast")
for d in ("float32", "float64", "float16"):
    case("tf.gather", [M34.format(d)], "lambda x: tf.gather(x, [2, 0, 2])", variant=d)
case("tf.gather", [M34.format("float32")], "lambda x: tf.gather(x, [[1, 3], [3, 0]], axis=1)", variant="axis=1")
case("tf.gather", [f"tf.Variable({M34.format('float32')})"], "lambda x: tf.gather(x, [1, 1])", variant="variable")
case("tf.gather", [M34.format("float32")], "lambda x: tf.gather(x, [[0], [2], [1]], axis=1, batch_dims=1)",
     variant="batch_dims=1")
for d in ("float32", "float64", "float16"):
    case("tf.pad", [M23.format(d)], "lambda x: tf.pad(x, [[1, 0], [2, 1]])", variant=d)
case("tf.pad", [M23.format("float32")], "lambda x: tf.pad(x, [[1, 1], [1, 2]], mode='REFLECT')", variant="REFLECT")
case("tf.pad", [M23.format("float32")], "lambda x: tf.pad(x, [[1, 1], [2, 2]], mode='SYMMETRIC')",
     variant="SYMMETRIC")
case("tf.pad", [M23.format("float32")], "lambda x: tf.pad(x, [[1, 0], [0, 1]], constant_values=3.0)",
     variant="constant_values")
for d in ("float32", "float64", "float16"):
    case("tf.split", [M34.format(d)], "lambda x: tf.split(x, 2, axis=1)", variant=d)
case("tf.split", [M34.format("float32")], "lambda x: tf.split(x, [1, 3], axis=1)[1]", variant="sizes, one used")
case("tf.split", [M34.format("float32")], "lambda x: tf.split(x, [2, -1], axis=0)", variant="sizes with -1")

# -- tf.image
IMG = "tf.reshape(tf.cast(tf.range(12), tf.{}) / 12.0, [1, 2, 2, 3])"
shaped("tf.image.adjust_brightness", "lambda x: tf.image.adjust_brightness(x, 0.25)", src=IMG)
shaped("tf.image.adjust_gamma", "lambda x: tf.image.adjust_gamma(x + 0.1, 2.0, 1.5)", src=IMG)
case("tf.image.adjust_gamma", [IMG.format("float32"), "tf.constant(2.0)", "tf.constant(1.5)"],
     "lambda x, g, k: tf.image.adjust_gamma(x + 0.1, g, k)", variant="gamma and gain as sources")
case("tf.image.adjust_brightness", [IMG.format("float32"), "tf.constant(0.25)"],
     "lambda x, d: tf.image.adjust_brightness(x, d)", variant="delta as a source")
PATCH = "tf.reshape(tf.cast(tf.range(32), tf.{}) * 0.25, [1, 4, 4, 2])"
shaped("tf.image.extract_patches", "lambda x: tf.image.extract_patches(x, [1, 2, 2, 1], [1, 1, 2, 1], "
       "[1, 1, 1, 1], 'VALID')", src=PATCH)
shaped("tf.image.stateless_random_brightness",
       "lambda x: tf.image.stateless_random_brightness(x, 0.2, seed=(1, 2)) - x", src=IMG)
shaped("tf.image.random_brightness", "lambda x: tf.image.random_brightness(x, 0.2, seed=3) - x", src=IMG)

# -- Tensor operators and methods
OPS = [("+", "a + b"), ("-", "a - b"), ("*", "a * b"), ("/", "a / b"), ("**", "a ** b"), ("//", "a // b"),
       ("%", "a % b")]
for sym, expr in OPS:
    binary(f"Tensor.__op__ {sym}", f"lambda a, b: {expr}", "pos", "pos", safe=sym in "+*")
    case(f"Tensor.__op__ {sym}", ["tf.constant([0.5, 1.5, 2.0])"], f"lambda a: {expr.replace('b', '2.0')}",
         variant="float32 with python float")
    case(f"Tensor.__op__ {sym}", ["tf.constant([0.5, 1.5, 2.0], tf.float16)"],
         f"lambda b: {expr.replace('a', '3.0')}", variant="python float with float16")
case("Tensor.__op__ -x", [vec("any", "float32")], "lambda x: -x", variant="float32")
case("Tensor.__op__ abs", [vec("any", "float32")], "lambda x: abs(x)", variant="float32")
case("Tensor.__op__ @", [M23.format("float32"), M34.format("float32")], "lambda a, b: a @ b", variant="float32")
case("Tensor.__op__ @", [M23.format("float32"), M34.format("float64")], "lambda a, b: a @ b",
     variant="float32,float64")
case("Tensor.__op__ @", [M23.format("float16"), M34.format("float16")], "lambda a, b: a @ b", variant="float16")
case("Tensor.__op__ @", [f"tf.Variable({M23.format('float32')})", M34.format("float32")], "lambda a, b: a @ b",
     variant="variable")
case("Tensor.__getitem__", [M34.format("float32")], "lambda x: x[1]", variant="int")
case("Tensor.__getitem__", [M34.format("float32")], "lambda x: x[:, 1:3]", variant="slice")
case("Tensor.__getitem__", [M34.format("float32")], "lambda x: x[::2, ::-1]", variant="strided")
case("Tensor.__getitem__", [M34.format("float32")], "lambda x: x[..., None, 2]", variant="ellipsis,newaxis")
case("Tensor.__getitem__", [M34.format("float64")], "lambda x: x[-1, 0] * x[0, -1]", variant="float64 twice")
case("Tensor.__getitem__", [M34.format("float16")], "lambda x: x[1:, :2]", variant="float16")
case("Tensor.__getitem__", [f"tf.Variable({M34.format('float32')})"], "lambda x: x[0]", variant="variable")
case("Tensor.__getitem__", ["tf.constant([1.5, 2.5, 3.5])"], "lambda x: x[1]", variant="list")
case("Tensor.__rpow__", ["tf.constant([0.5, 1.5])"], "lambda x: 2.0 ** x", variant="float32")
case("Tensor.__pow__", ["tf.constant([0.5, 1.5])"], "lambda x: x ** 2", variant="int exponent")
case("Tensor.__pow__", ["tf.constant(1.5)"], "lambda x: x ** 3.0", variant="weak")
case("tf.math.square", ["tf.constant([1.0, 2.0])", "tf.constant(3.0, tf.float64)"],
     "lambda a, b: tf.math.square(a) * tf.cast(b, tf.float32)", variant="through a cast")

# -- tf.experimental.numpy
TNP_U = [("abs", "any"), ("absolute", "any"), ("angle", "any"), ("arccos", "unit"), ("arccosh", "gt1"),
         ("arcsin", "unit"), ("arcsinh", "any"), ("arctan", "any"), ("arctanh", "unit"), ("around", "any"),
         ("cbrt", "pos"), ("ceil", "any"), ("conj", "any"), ("conjugate", "any"), ("cos", "any"), ("cosh", "any"),
         ("deg2rad", "any"), ("exp2", "any"), ("exp", "any"), ("expm1", "any"), ("fabs", "any"), ("fix", "any"),
         ("floor", "any"), ("imag", "any"), ("log10", "pos"), ("log1p", "pos"), ("log2", "pos"), ("log", "pos"),
         ("negative", "any"), ("positive", "any"), ("rad2deg", "any"), ("real", "any"), ("reciprocal", "pos"),
         ("round", "any"), ("sin", "any"), ("sinc", "any"), ("sinh", "any"), ("sqrt", "pos"), ("square", "any"),
         ("tan", "small"), ("tanh", "any"), ("copy", "any"), ("array", "any"), ("asarray", "any"),
         ("asanyarray", "any"), ("ascontiguousarray", "any"), ("signbit", "any")]
for name, dom in TNP_U:
    v = DOMAINS[dom]
    f = f"lambda x: tnp.{name}(x)"
    api = f"tf.experimental.numpy.{name}"
    case(api, [f"tf.constant({v[0]!r})"], f, variant="weak")
    case(api, [vec(dom, "float32")], f, variant="float32")
    case(api, [vec(dom, "float64")], f, variant="float64")
    case(api, [vec(dom, "float16")], f, variant="float16")
    case(api, [f"tf.Variable({v!r})"], f, variant="variable")
TNP_S = [
    ("amax", "tnp.amax(x, axis=1)"), ("amin", "tnp.amin(x, axis=0)"), ("max", "tnp.max(x)"),
    ("min", "tnp.min(x, axis=1, keepdims=True)"), ("mean", "tnp.mean(x, axis=0)"), ("sum", "tnp.sum(x, axis=1)"),
    ("prod", "tnp.prod(x, axis=1)"), ("std", "tnp.std(x, axis=1)"), ("var", "tnp.var(x)"),
    ("average", "tnp.average(x, axis=1)"), ("average", "tnp.average(x, axis=1, weights=[1.0, 2.0, 3.0])"),
    ("nanmean", "tnp.nanmean(x, axis=0)"), ("cumsum", "tnp.cumsum(x, axis=1)"),
    ("cumprod", "tnp.cumprod(x, axis=1)"), ("diag", "tnp.diag(x)"), ("diagflat", "tnp.diagflat(x)"),
    ("diagonal", "tnp.diagonal(x)"), ("diff", "tnp.diff(x)"), ("diff", "tnp.diff(x, n=2, axis=1)"),
    ("expand_dims", "tnp.expand_dims(x, 0)"), ("flatten", "tnp.flatten(x)"), ("flip", "tnp.flip(x)"),
    ("fliplr", "tnp.fliplr(x)"), ("flipud", "tnp.flipud(x)"), ("moveaxis", "tnp.moveaxis(x, 0, -1)"),
    ("ravel", "tnp.ravel(x)"), ("repeat", "tnp.repeat(x, 2, axis=1)"), ("reshape", "tnp.reshape(x, [3, 2])"),
    ("rot90", "tnp.rot90(x)"), ("sort", "tnp.sort(x)"), ("squeeze", "tnp.squeeze(tnp.expand_dims(x, 0))"),
    ("swapaxes", "tnp.swapaxes(x, 0, 1)"), ("trace", "tnp.trace(x)"), ("transpose", "tnp.transpose(x)"),
    ("triu", "tnp.triu(x)"), ("vander", "tnp.vander(x[0])"), ("empty_like", "x * 0 + tnp.empty_like(x)"),
    ("full_like", "tnp.full_like(x, 2.0)"), ("ones_like", "tnp.ones_like(x)"),
    ("zeros_like", "tnp.zeros_like(x)"),
]
for name, expr in TNP_S:
    api = f"tf.experimental.numpy.{name}"
    for d in ("float32", "float64", "float16"):
        case(api, [M23.format(d)], f"lambda x: {expr}", variant=d)
    case(api, [f"tf.Variable({M23.format('float32')})"], f"lambda x: {expr}", variant="variable")
case("tf.experimental.numpy.mean", ["tf.constant(1.5)"], "lambda x: tnp.mean(tnp.stack([x, x * 2]))",
     variant="weak")
case("tf.experimental.numpy.sum", ["tf.constant([1.5, 2.5])"], "lambda x: tnp.sum(x)", variant="list")


def main():
    env = {"tf": tf, "tnp": tnp, "np": np}
    out = []
    for c in CASES:
        tnp.experimental_enable_numpy_behavior(dtype_conversion_mode=c["mode"])
        r = run(tf, c, env)
        tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="all")
        out.append({**c, "tf": r})
    OUT.write_text(json.dumps({"tf_version": tf.__version__, "cases": out}, indent=0) + "\n")
    print(f"wrote {len(out)} cases to {OUT}")


if __name__ == "__main__":
    main()
