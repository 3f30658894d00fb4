"""``lattensor.experimental.numpy`` (also ``lattensor.numpy``): TF-NumPy.

NumPy-style names and signatures over the same lattice: ``tnp.array(1)`` is
``i32*``, ``tnp.array(1.0)`` is ``f32*``, and every function promotes through
the current mode's lattice (TF 2.21 sends most binary ``tnp`` functions
through NumPy's own ``result_type`` instead; lattensor keeps one lattice for
every op, see docs/deviations.md).

``experimental_enable_numpy_behavior(dtype_conversion_mode=...)`` sets the
process-wide promotion mode; ``lattensor.promotion_mode("safe")`` scopes one
to a ``with`` block on the calling thread.
"""

from __future__ import annotations

from lattensor import _lattensor as _C
from lattensor._api import bind as _bind

_TNP = getattr(_C, "numpy", None)  # the Rust TF-NumPy module, when the library has it


def experimental_enable_numpy_behavior(prefer_float32: bool = False, dtype_conversion_mode: str = "legacy") -> None:
    """Sets the process-wide promotion mode, like TF's function of that name.

    ``dtype_conversion_mode`` is ``"all"`` or ``"safe"`` (the lattice),
    ``"legacy"`` (NumPy's rules) or ``"off"`` (no implicit promotion between
    strong dtypes). Unlike TF, it may be called at any time, any number of
    times; threads inside a ``lattensor.promotion_mode`` block keep theirs.
    ``prefer_float32`` is accepted for compatibility and has no effect.
    """
    del prefer_float32
    _C.set_promotion_mode(dtype_conversion_mode)


# ---- creation ------------------------------------------------------------------

array = _C.numpy_array


def asarray(a, dtype=None):
    """Like ``array`` without copying (tensors are immutable, so the same object may come back)."""
    if dtype is None and isinstance(a, _C.Tensor):
        return a
    return _C.numpy_array(a, dtype)


asanyarray = asarray
arange = _C.numpy_arange
einsum = _C.numpy_einsum
full_like = _C.full_like


def zeros_like(a, dtype=None):
    """Zeros with the shape of ``a`` (its dtype and weakness unless ``dtype`` is given)."""
    return _C.zeros_like(a, dtype)


def ones_like(a, dtype=None):
    """Ones with the shape of ``a`` (its dtype and weakness unless ``dtype`` is given)."""
    return _C.ones_like(a, dtype)


# ---- shapes --------------------------------------------------------------------


def reshape(a, newshape, order="C"):
    """``a`` with a new shape (a view when possible); only C order."""
    if order != "C":
        raise _C.errors.UnimplementedError("reshape: only order='C' is supported")
    return _C.reshape(a, newshape)


def expand_dims(a, axis):
    """Inserts a length-1 axis at ``axis`` (a view)."""
    return _C.expand_dims(a, axis)


def squeeze(a, axis=None):
    """Removes length-1 axes (a view)."""
    return _C.squeeze(a, axis)


def transpose(a, axes=None):
    """Permutes the axes (reversed if ``axes`` is None; a view)."""
    return _C.transpose(a, axes)


# ---- elementwise twins of tf.math (same kernels) --------------------------------

_TWINS = {
    "abs": "abs",
    "absolute": "abs",
    "arccos": "acos",
    "arccosh": "acosh",
    "arcsin": "asin",
    "arcsinh": "asinh",
    "arctan": "atan",
    "arctanh": "atanh",
    "bitwise_not": "invert",
    "ceil": "ceil",
    "conj": "conj",
    "conjugate": "conj",
    "cos": "cos",
    "cosh": "cosh",
    "exp": "exp",
    "expm1": "expm1",
    "floor": "floor",
    "imag": "imag",
    "log": "log",
    "log1p": "log1p",
    "negative": "negative",
    "real": "real",
    "reciprocal": "reciprocal",
    "sin": "sin",
    "sinh": "sinh",
    "sqrt": "sqrt",
    "square": "square",
    "tan": "tan",
    "tanh": "tanh",
}

for _name, _tf in _TWINS.items():
    if hasattr(_C, _tf):
        globals()[_name] = getattr(_C, _tf)


def angle(z, deg=False):
    """The complex argument (in degrees if ``deg``)."""
    r = _C.angle(z)
    return r * (180.0 / 3.141592653589793) if deg else r


def around(a, decimals=0):
    """Rounds half to even (``decimals`` other than 0 needs the Rust TF-NumPy module)."""
    if decimals != 0:
        raise _C.errors.UnimplementedError("around: decimals != 0 is not supported yet")
    return _C.round(a)


round = around  # noqa: A001 (NumPy's name)


def _reduction(tf_name):
    f = getattr(_C, tf_name)

    def reduce(a, axis=None, keepdims=False):
        return f(a, axis, keepdims)

    reduce.__doc__ = f"NumPy-style wrapper of ``{tf_name}`` (``axis=None`` reduces everything)."
    return reduce


amax = max = _reduction("reduce_max")  # noqa: A001
amin = min = _reduction("reduce_min")  # noqa: A001
mean = _reduction("reduce_mean")
prod = _reduction("reduce_prod")
std = _reduction("reduce_std")
sum = _reduction("reduce_sum")  # noqa: A001
var = _reduction("reduce_variance")

# Names the Rust TF-NumPy module provides override the twins above.
if _TNP is not None:
    _bind(globals(), [n for n in dir(_TNP) if not n.startswith("_")], source=_TNP)

del _name, _tf
