"""``lattensor.experimental.numpy`` (also ``lattensor.numpy``): TF-NumPy.

NumPy-style names and signatures over the same lattice: ``tnp.array(1)`` is
``i32*``, ``tnp.array(1.0)`` is ``f32*``, float functions compute integers in
float32 (``tnp.sqrt(4)`` is ``f32*`` 2.0), ``sum``-like reductions widen small
integers to 32 bits, and weakness is kept — TF 2.21's rules, implemented in
the Rust library (``lattensor::tnp``; docs/deviations.md lists where TF
breaks them and lattensor does not).

``experimental_enable_numpy_behavior(dtype_conversion_mode=...)`` sets the
process-wide promotion mode; ``lattensor.promotion_mode("safe")`` scopes one
to a ``with`` block on the calling thread.
"""

from __future__ import annotations

import math as _math

import numpy as _np

from lattensor import _lattensor as _C
from lattensor._api import bind as _bind

_N = _C.numpy
_bind(globals(), [n for n in dir(_C.numpy) if not n.startswith("_") and n != "numpy_einsum"], source=_C.numpy)

# tnp's dtype names are NumPy's scalar types, as in TF (every ``dtype=`` argument
# takes them, and ``lattensor.float32 == tnp.float32``); its constants are NumPy's.
bool_ = _np.bool_
int8, int16, int32, int64 = _np.int8, _np.int16, _np.int32, _np.int64
uint8, uint16, uint32, uint64 = _np.uint8, _np.uint16, _np.uint32, _np.uint64
float16, float32, float64 = _np.float16, _np.float32, _np.float64
complex64, complex128 = _np.complex64, _np.complex128
float_, int_, complex_ = _np.float64, _np.int64, _np.complex128
pi, e, inf, nan, newaxis = _np.pi, _np.e, _np.inf, _np.nan, None
iinfo, finfo = _np.iinfo, _np.finfo
ndarray = _C.Tensor


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


def broadcast_to(array, shape):
    """``tnp.broadcast_to(array, shape)``: ``array`` broadcast to ``shape`` by NumPy's
    rules, as a zero-copy view; strong, as in TF (not on the WeakTensor list)."""
    return _C.broadcast_to(array, shape)


def concatenate(arys, axis=0):
    """``tnp.concatenate``: joins along ``axis`` (``None``: the flattened inputs);
    dtypes promote through the lattice (dtype and weakness, as ``+`` joins them)."""
    if axis is None:
        return _C.concat([ravel(a) for a in arys], 0)
    return _C.concat(list(arys), axis)


def stack(arrays, axis=0):
    """``tnp.stack``: joins equal shapes along a new axis; dtypes promote through the lattice."""
    return _C.stack(list(arrays), axis)


def where(condition, x=None, y=None):
    """``tnp.where(condition, x, y)``: ``x`` where ``condition`` is true (nonzero), else
    ``y``, broadcast; ``x`` and ``y`` promote through the lattice. ``where(condition)``
    is ``nonzero(condition)``."""
    if x is None and y is None:
        return nonzero(condition)
    if x is None or y is None:
        raise ValueError("where: give both x and y, or neither")
    return _N.where(condition, x, y)


# ---- creation (tnp's defaults: `float` is float32, `int` int32; results are strong) ----

def _shape(shape):
    return [int(shape)] if isinstance(shape, int) or getattr(shape, "ndim", 1) == 0 else [int(d) for d in shape]


def zeros(shape, dtype=float):
    """``tnp.zeros(shape, dtype=float)``: float32 by default (``float`` is float32, ``int`` int32)."""
    return _C.zeros(_shape(shape), dtype)


def ones(shape, dtype=float):
    """``tnp.ones(shape, dtype=float)``."""
    return _C.ones(_shape(shape), dtype)


def empty(shape, dtype=float):
    """``tnp.empty(shape, dtype=float)``: zeros, as in TF (never uninitialised memory)."""
    return _C.zeros(_shape(shape), dtype)


def full(shape, fill_value, dtype=None):
    """``tnp.full(shape, fill_value, dtype=None)``: ``fill_value`` (any array-like that
    broadcasts to ``shape``) in its own dtype or ``dtype``; strong; every bit of the
    value kept (-0.0, NaN payloads); a zero-copy broadcast view of the value."""
    return _N.full(_shape(shape), fill_value, dtype)


def eye(N, M=None, k=0, dtype=float):  # noqa: N803 (NumPy's names)
    """``tnp.eye(N, M=None, k=0, dtype=float)``: ones on diagonal ``k``."""
    return _N.eye(int(N), None if M is None else int(M), int(k), dtype)


def identity(n, dtype=float):
    """``tnp.identity(n, dtype=float)``."""
    return eye(n, dtype=dtype)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=float, axis=0):
    """``tnp.linspace``: ``num`` evenly spaced values, computed in float64 (NumPy's
    algorithm) and rounded once to ``dtype`` (float32 by default). TF 2.21 ignores
    ``dtype`` and always returns float32; lattensor honours it."""
    return _N.linspace(start, stop, int(num), bool(endpoint), bool(retstep), dtype, int(axis))


# ---- NumPy's binary functions: the lattice's ops under NumPy's names ----------------

# bound in Rust (no Python frame per call): the ops of ``lattensor.math``, parameters ``x1, x2``
add, subtract, multiply = _N.add, _N.subtract, _N.multiply
divide, true_divide, floor_divide = _N.divide, _N.true_divide, _N.floor_divide
mod, remainder, power = _N.mod, _N.remainder, _N.power
maximum, minimum = _N.maximum, _N.minimum
equal, not_equal, less, less_equal, greater, greater_equal = (
    _N.equal, _N.not_equal, _N.less, _N.less_equal, _N.greater, _N.greater_equal)


def matmul(x1, x2, *, preferred_element_type=None):
    """``tnp.matmul(x1, x2)``: NumPy's matmul, batched over leading axes; a 1-D
    operand is a vector (a length-1 axis is added for the product, then removed).
    ``preferred_element_type`` (JAX's) is the dtype the product accumulates in and
    returns: ``int8 @ int8`` into ``int32`` is exact, float8/bfloat16 into
    ``float32`` accumulate in float32."""
    a, b = _C.convert_to_tensor(x1), _C.convert_to_tensor(x2)
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("matmul: operands must have at least one dimension (use multiply for scalars)")
    va, vb = a.ndim == 1, b.ndim == 1
    r = _C.matmul(_C.reshape(a, (1, -1)) if va else a, _C.reshape(b, (-1, 1)) if vb else b,
                  output_type=preferred_element_type)
    if va or vb:
        shape = tuple(r.shape)
        r = _C.reshape(r, shape[:-2] + ((shape[-2],) if not va else ()) + ((shape[-1],) if not vb else ()))
    return r


def _truth(x):
    """``x`` as bool: nonzero is true (NumPy's truth of a number)."""
    x = _C.convert_to_tensor(x)
    return x if x.dtype == _C.bool else _C.not_equal(x, 0)


def logical_and(x1, x2):
    """``tnp.logical_and``: of the operands' truth values (nonzero is true)."""
    return _N.logical_and(x1, x2)


def logical_or(x1, x2):
    """``tnp.logical_or``: of the operands' truth values (nonzero is true)."""
    return _N.logical_or(x1, x2)


def logical_xor(x1, x2):
    """``tnp.logical_xor``: of the operands' truth values (nonzero is true)."""
    return _N.logical_xor(x1, x2)


def logical_not(x):
    """``tnp.logical_not``: of the operand's truth value (nonzero is true)."""
    return _N.logical_not(x)


def dot(a, b):
    """``tnp.dot``: a scalar operand multiplies; otherwise the sum over ``a``'s last axis
    and ``b``'s second-to-last (its only one if 1-D), as NumPy. Runs as an einsum, so
    mixed dtypes promote through the lattice (``lattensor::tnp::dot``)."""
    return _N.dot(a, b)


def outer(a, b):
    """``tnp.outer``: ``ravel(a)[i] * ravel(b)[j]``; dtypes promote through the lattice."""
    return _N.outer(a, b)


def clip(a, a_min, a_max):
    """``tnp.clip``: ``minimum(maximum(a, a_min), a_max)`` (a ``None`` bound is skipped),
    the operands first converted to their lattice join, as TF's tnp does: a strong
    result (``clip([1, 5, 9], 2, 6.5)`` is float32)."""
    return _N.clip(a, a_min, a_max)


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """``tnp.isclose``: ``|a - b| <= atol + rtol·|b|`` element-wise, as NumPy: infinities
    are close only to themselves, NaN to nothing (to NaN if ``equal_nan``). Integers and
    bool compare in float64. A strong bool tensor."""
    return _N.isclose(a, b, float(rtol), float(atol), bool(equal_nan))


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """``tnp.allclose``: whether every element is ``isclose``; a strong bool scalar tensor."""
    return _N.allclose(a, b, float(rtol), float(atol), bool(equal_nan))


def argmax(a, axis=None):
    """``tnp.argmax``: the first index of the maximum along ``axis`` (``None``: of the
    flattened input), int64; the first NaN wins, as NumPy. A 0-d input has the
    index 0 along axis 0 or -1, as in NumPy and TF."""
    if axis is None or _is_0d_axis(a, axis):
        return _C.argmax(ravel(a), 0)
    return _C.argmax(a, axis)


def argmin(a, axis=None):
    """``tnp.argmin``: as ``argmax``, for the minimum."""
    if axis is None or _is_0d_axis(a, axis):
        return _C.argmin(ravel(a), 0)
    return _C.argmin(a, axis)


def _is_0d_axis(a, axis):
    """Whether ``a`` is 0-d and ``axis`` names its one position (0 or -1)."""
    return axis in (0, -1) and _C.convert_to_tensor(a).ndim == 0


# ---- index and tiling functions -------------------------------------------------------

def nonzero(a):
    """``tnp.nonzero``: a tuple of int64 tensors, one per axis, of the coordinates of
    the nonzero (true) elements in row-major order."""
    return _N.nonzero(a)


def tile(a, reps):
    """``tnp.tile``: ``a`` repeated ``reps[i]`` times along axis ``i`` (NumPy's rule:
    the shorter of ``a.shape`` and ``reps`` is padded with leading 1s). Keeps ``a``'s
    dtype and weakness."""
    return _N.tile(a, reps)


def meshgrid(*xi, indexing="xy"):
    """``tnp.meshgrid``: coordinate tensors from 1-D ones (flattened first), each
    broadcast to the grid's shape; ``indexing="xy"`` (the default) swaps the first two
    axes, ``"ij"`` does not. The inputs are converted to their lattice join first, as
    TF converts them to a common dtype; the results are strong."""
    return _N.meshgrid(*xi, indexing=indexing)


# ---- predicates and array facts (NumPy's names; results are strong bool tensors) ----------

def _tensor(x):
    return _C.convert_to_tensor(x)


def isnan(x):
    """``tnp.isnan``: whether each element is NaN; a strong bool tensor. Integers and
    bool are never NaN; a complex number is NaN if either part is (NumPy's rule; TF has
    no complex kernel)."""
    return _N.isnan(x)


def isinf(x):
    """``tnp.isinf``: whether each element is +inf or -inf; a strong bool tensor
    (integers and bool never are; complex: either part infinite, as NumPy)."""
    return _N.isinf(x)


def isfinite(x):
    """``tnp.isfinite``: whether each element is neither infinite nor NaN; a strong bool
    tensor (integers and bool always are; complex: both parts finite, as NumPy)."""
    return _N.isfinite(x)


def isposinf(x):
    """``tnp.isposinf``: whether each element is +inf; a strong bool tensor of the
    input's shape (all false for integers and bool, as NumPy; TF returns a Python
    ``False`` for them)."""
    return _N.isposinf(x)


def isneginf(x):
    """``tnp.isneginf``: whether each element is -inf; as ``isposinf``."""
    return _N.isneginf(x)


def isreal(x):
    """``tnp.isreal``: whether each element's imaginary part is zero (always true for
    non-complex dtypes); a strong bool tensor."""
    return _N.isreal(x)


def iscomplex(x):
    """``tnp.iscomplex``: whether each element's imaginary part is nonzero (never for
    non-complex dtypes); a strong bool tensor."""
    return _N.iscomplex(x)


def iscomplexobj(x):
    """``tnp.iscomplexobj``: whether ``x`` (converted as ``asarray`` would) has a complex
    dtype; a Python bool."""
    return bool(_tensor(x).dtype.is_complex)


def isrealobj(x):
    """``tnp.isrealobj``: ``not iscomplexobj(x)``; a Python bool."""
    return not iscomplexobj(x)


def isscalar(num):
    """``tnp.isscalar``: whether ``num`` has no axes, as TF's tnp: Python and NumPy
    scalars, strings and 0-d tensors are scalars; a Python bool."""
    if isinstance(num, _C.Tensor):
        return num.ndim == 0
    return bool(_np.ndim(num) == 0)


def sign(x):
    """``tnp.sign``: -1, 0 or 1 by the sign of each element (NaN stays NaN, ``z/|z|``
    for complex), in the input's dtype and weakness. Unsigned integers are 0 or 1 (as
    NumPy; TF has no kernel); bool is refused, as by NumPy and TF."""
    return _N.sign(x)


def ndim(a):
    """``tnp.ndim``: the number of axes of ``a`` (converted as ``asarray``); a Python int."""
    return int(a.ndim) if isinstance(a, _C.Tensor) else int(_tensor(a).ndim)


def shape(a):
    """``tnp.shape``: ``a``'s shape as a tuple of ints (TF returns a ``TensorShape``,
    which compares equal to the tuple)."""
    return tuple(int(d) for d in (a if isinstance(a, _C.Tensor) else _tensor(a)).shape)


def size(x, axis=None):
    """``tnp.size``: the number of elements of ``x`` (along ``axis`` if given, as NumPy;
    TF refuses ``axis``); a Python int."""
    s = shape(x)
    if axis is None:
        return _math.prod(s)
    return s[int(axis)]


# ---- bitwise functions, truth reductions, NaN-skipping reductions ----------------------

def bitwise_and(x1, x2):
    """``tnp.bitwise_and``: element-wise AND of integers or bools; the operands join
    through the lattice (dtype and weakness, as ``&`` does; TF's is strong)."""
    return _C.bitwise_and(x1, x2)


def bitwise_or(x1, x2):
    """``tnp.bitwise_or``: element-wise OR; promotes as ``bitwise_and``."""
    return _C.bitwise_or(x1, x2)


def bitwise_xor(x1, x2):
    """``tnp.bitwise_xor``: element-wise XOR; promotes as ``bitwise_and``."""
    return _C.bitwise_xor(x1, x2)


def _axis(axis):
    if axis is None:
        return None
    return [int(a) for a in axis] if isinstance(axis, (list, tuple)) else int(axis)


def all(a, axis=None, out=None, keepdims=False):  # noqa: A001 (NumPy's name)
    """``tnp.all``: whether every element along ``axis`` (all axes if ``None``) is
    true (nonzero); a strong bool tensor (true for no elements)."""
    return _N.all(a, _axis(axis), out=out, keepdims=bool(keepdims))


def any(a, axis=None, out=None, keepdims=False):  # noqa: A001 (NumPy's name)
    """``tnp.any``: whether some element along ``axis`` is true (nonzero); a strong
    bool tensor (false for no elements)."""
    return _N.any(a, _axis(axis), out=out, keepdims=bool(keepdims))


def count_nonzero(a, axis=None, *, keepdims=False):
    """``tnp.count_nonzero``: the number of nonzero (true; NaN counts) elements along
    ``axis`` (all axes if ``None``; kept with length 1 if ``keepdims``); a strong
    int64 tensor."""
    return _N.count_nonzero(a, _axis(axis), keepdims=keepdims)


def nansum(a, axis=None, dtype=None, out=None, keepdims=False):
    """``tnp.nansum``: ``sum`` with NaNs counted as zero; dtype and weakness are
    ``sum``'s (small integers widen to 32 bits; weak inputs give weak results, where
    TF's nansum is strong)."""
    return _N.nansum(a, axis, dtype, out=out, keepdims=keepdims)


def nanprod(a, axis=None, dtype=None, out=None, keepdims=False):
    """``tnp.nanprod``: ``prod`` with NaNs counted as one; dtype and weakness are
    ``prod``'s."""
    return _N.nanprod(a, axis, dtype, out=out, keepdims=keepdims)


def ptp(a, axis=None, out=None, keepdims=False):
    """``tnp.ptp``: ``max - min`` along ``axis`` (all axes if ``None``), in the input's
    dtype and weakness (integers wrap, as NumPy and TF)."""
    return _N.ptp(a, axis, out=out, keepdims=keepdims)


# ---- stacking, triangles, rolling ------------------------------------------------------

def atleast_1d(*arys):
    """``tnp.atleast_1d``: each input with at least one axis (a scalar becomes shape
    ``(1,)``), in its own dtype and weakness; a list when given several inputs."""
    return _N.atleast_1d(*arys)


def atleast_2d(*arys):
    """``tnp.atleast_2d``: each input with at least two axes (leading 1s added), in its
    own dtype and weakness; a list when given several inputs."""
    return _N.atleast_2d(*arys)


def atleast_3d(*arys):
    """``tnp.atleast_3d``: each input with at least three axes (NumPy's rule: ``()`` to
    ``(1, 1, 1)``, ``(N,)`` to ``(1, N, 1)``, ``(M, N)`` to ``(M, N, 1)``), in its own
    dtype and weakness; a list when given several inputs."""
    return _N.atleast_3d(*arys)


def hstack(tup):
    """``tnp.hstack``: concatenates along axis 1 (axis 0 if the inputs are 1-D, scalars
    becoming 1-D); dtypes join through the lattice, as ``concatenate``."""
    return _N.hstack(tup)


def vstack(tup):
    """``tnp.vstack``: the inputs made at least 2-D, concatenated along axis 0; dtypes
    join through the lattice, as ``concatenate``."""
    return _N.vstack(tup)


def dstack(tup):
    """``tnp.dstack``: the inputs made at least 3-D (as ``atleast_3d``), concatenated
    along axis 2; dtypes join through the lattice, as ``concatenate``."""
    return _N.dstack(tup)


def tri(N, M=None, k=0, dtype=float):  # noqa: N803 (NumPy's names)
    """``tnp.tri(N, M=None, k=0, dtype=float)``: ones at and below diagonal ``k``,
    zeros above; strong, float32 by default."""
    return _N.tri(int(N), None if M is None else int(M), int(k), dtype)


def tril(m, k=0):
    """``tnp.tril``: the elements of the last two axes at and below diagonal ``k``,
    zeros above (``False`` for bool); the input's dtype and weakness, as ``triu``.
    Inputs of rank < 2 are a ValueError, as in TF."""
    return _N.tril(m, int(k))


def roll(a, shift, axis=None):
    """``tnp.roll``: elements shifted by ``shift`` places along ``axis`` (of the
    flattened input if ``None``), wrapping around; ``shift`` and ``axis`` may be
    sequences (broadcast against each other, shifts of a repeated axis add up, as
    NumPy). Keeps the input's dtype and weakness, as ``reshape``."""
    return _N.roll(a, shift, axis)


# ---- products, broadcasting, indexing, comparison, sorting --------------------------

def inner(a, b):
    """``tnp.inner``: the sum over the last axes of ``a`` and ``b`` (a scalar operand
    multiplies); result shape ``a.shape[:-1] + b.shape[:-1]``. Runs as an einsum, so
    mixed dtypes join through the lattice."""
    return _N.inner(a, b)


def vdot(a, b):
    """``tnp.vdot``: ``sum(conj(ravel(a)) * ravel(b))``, a 0-d tensor; dtypes join
    through the lattice."""
    return _N.vdot(a, b)


def tensordot(a, b, axes=2, *, preferred_element_type=None):
    """``tnp.tensordot``: sums over ``axes`` (an int ``n``: ``a``'s last ``n`` axes with
    ``b``'s first ``n``; or a pair of axis lists); the free axes of ``a`` then of ``b``
    remain. Runs as an einsum, so mixed dtypes join through the lattice;
    ``preferred_element_type`` (JAX's) is the dtype to accumulate in and return."""
    return _N.tensordot(a, b, axes, preferred_element_type=preferred_element_type)


def kron(a, b):
    """``tnp.kron``: the Kronecker product (the inputs' shapes padded with leading 1s
    to one rank; block ``i`` is ``a[i] * b``). Runs as an einsum, so mixed dtypes join
    through the lattice."""
    return _N.kron(a, b)


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """``tnp.cross``: the cross product of 2- or 3-component vectors along ``axisa`` /
    ``axisb`` (``axis`` sets all three); two 2-vectors give the scalar z component,
    a 2-vector is taken with z = 0. Computed with ``*`` and ``-``, so dtypes and
    weakness join through the lattice; the components go along ``axisc``."""
    return _N.cross(a, b, int(axisa), int(axisb), int(axisc), None if axis is None else int(axis))


def broadcast_arrays(*args):
    """``tnp.broadcast_arrays``: the inputs broadcast to their common shape (NumPy's
    rules), each in its own dtype, as strong zero-copy views (as ``broadcast_to``); a
    list."""
    return _N.broadcast_arrays(*args)


def take_along_axis(arr, indices, axis):
    """``tnp.take_along_axis``: ``arr``'s elements at ``indices`` along ``axis`` (the
    other axes broadcast, as NumPy; ``axis=None``: of the flattened ``arr``); negative
    indices count from the end, out-of-range ones are an InvalidArgumentError. Strong,
    in ``arr``'s dtype, as ``gather``."""
    return _N.take_along_axis(arr, indices, None if axis is None else int(axis))


def array_equal(a1, a2):
    """``tnp.array_equal``: whether the inputs have the same shape and equal elements
    (compared in their lattice join; NaN is unequal to NaN); a strong bool scalar."""
    return _N.array_equal(a1, a2)


def argsort(a, axis=-1, kind="quicksort", order=None):
    """``tnp.argsort``: the indices that sort ``a`` along ``axis`` (of the flattened
    ``a`` if ``None``), ascending, NaNs last, ties in their original order (every
    ``kind`` is stable); strong int32, as in TF (NumPy: int64)."""
    del kind
    if order is not None:
        raise ValueError("argsort: 'order' argument to sort is not supported")
    return _N.argsort(a, None if axis is None else int(axis))


# ---- binary float and integer functions, dtype queries --------------------------------

def logaddexp(x1, x2):
    """``tnp.logaddexp``: ``log(exp(x1) + exp(x2))`` without overflow (``max + log1p(exp(-|x1 - x2|))``;
    equal infinities give themselves). The operands join through the lattice;
    integers compute in float32, as every tnp float function."""
    return _N.logaddexp(x1, x2)


def logaddexp2(x1, x2):
    """``tnp.logaddexp2``: ``log2(2**x1 + 2**x2)`` without overflow; promotes as
    ``logaddexp``."""
    return _N.logaddexp2(x1, x2)


def divmod(x1, x2):  # noqa: A001 (NumPy's name)
    """``tnp.divmod``: ``(floor_divide(x1, x2), mod(x1, x2))``, both in the operands'
    lattice join (dtype and weakness)."""
    return (_C.floordiv(x1, x2), _C.floormod(x1, x2))


def gcd(x1, x2):
    """``tnp.gcd``: the non-negative greatest common divisor of integers (``gcd(0, 0)``
    is 0); the operands join through the lattice (dtype and weakness)."""
    return _N.gcd(x1, x2)


def lcm(x1, x2):
    """``tnp.lcm``: the non-negative least common multiple of integers (0 if either is
    0); the operands join through the lattice (dtype and weakness)."""
    return _N.lcm(x1, x2)


def result_type(*arrays_and_dtypes):
    """``tnp.result_type``: the lattice join of the arguments' dtypes (Python scalars
    and tensors weak or strong as given; dtypes strong); a ``lattensor.DType``."""
    args = [_C.as_dtype(a) if isinstance(a, (type, _np.dtype, str)) and not isinstance(a, _C.Tensor) else a
            for a in arrays_and_dtypes]
    return _C.result_type(*args)[0]


def promote_types(type1, type2):
    """``tnp.promote_types``: the lattice's join of two (strong) dtypes, as a NumPy
    dtype. TF 2.21 returns NumPy's table instead (``promote_types(int32, float16)`` is
    float64 there, float16 here and in TF's own ops)."""
    dt, _ = _C.result_type(_C.as_dtype(type1), _C.as_dtype(type2))
    return _np.dtype(dt.as_numpy_dtype)


def float_power(x1, x2):
    """``tnp.float_power``: ``x1 ** x2`` computed as a float: the operands' lattice join,
    integers and bool as float32 (tnp's rule for float functions; weakness kept)."""
    return _N.float_power(x1, x2)


def nextafter(x1, x2):
    """``tnp.nextafter``: the next representable value after ``x1`` towards ``x2``, in the
    operands' lattice join (integers as float32; weakness kept)."""
    return _N.nextafter(x1, x2)


def select(condlist, choicelist, default=0):
    """``tnp.select``: for each element, the value of ``choicelist[i]`` for the first true
    ``condlist[i]`` (nonzero is true), else ``default``; everything broadcast, the
    choices and ``default`` joined through the lattice (as ``where`` joins them)."""
    return _N.select(condlist, choicelist, default)


def compress(condition, a, axis=None):
    """``tnp.compress``: the slices of ``a`` along ``axis`` (of the flattened ``a`` if
    ``None``) where the 1-D ``condition`` is true (nonzero); a shorter ``condition`` is
    padded with false, as NumPy. Strong, in ``a``'s dtype, as ``gather``."""
    return _N.compress(condition, a, None if axis is None else int(axis))


def diag_indices(n, ndim=2):
    """``tnp.diag_indices``: ``ndim`` copies of ``range(n)`` (strong int32), the index
    arrays of the main diagonal of an ``(n,) * ndim`` array."""
    return _N.diag_indices(int(n), int(ndim))


def ix_(*args):
    """``tnp.ix_``: open-mesh index arrays: the k-th 1-D input reshaped to have its
    length on axis k and 1 elsewhere (bool inputs become the indices of their true
    elements); dtype and weakness kept, as ``reshape``."""
    return _N.ix_(*args)


def polyval(p, x):
    """``tnp.polyval``: the polynomial with coefficients ``p`` (highest degree first) at
    ``x``, by Horner's rule (``y = y * x + p[i]`` from ``y = zeros_like(x)``): dtypes and
    weakness join through the lattice."""
    return _N.polyval(p, x)


# ---- log-spaced ranges and NumPy's abstract dtype names --------------------------------

inexact, object_, string_, unicode_ = _np.inexact, _np.object_, _np.bytes_, _np.str_


def issubdtype(arg1, arg2):
    """``tnp.issubdtype``: NumPy's ``issubdtype`` (lattensor dtypes are taken as their
    NumPy dtypes); a Python bool."""
    conv = [a.as_numpy_dtype if isinstance(a, _C.DType) else a for a in (arg1, arg2)]
    return bool(_np.issubdtype(*conv))


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """``tnp.logspace``: ``base ** linspace(start, stop, num)``, computed in float64 and
    rounded once to ``dtype`` (float32 by default, as TF; integers truncated, as NumPy's
    cast). TF 2.21 ignores ``dtype``."""
    return _N.logspace(start, stop, int(num), bool(endpoint), float(base), float if dtype is None else dtype, int(axis))


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """``tnp.geomspace``: ``num`` values from ``start`` to ``stop`` in geometric
    progression (NumPy's algorithm in float64: exact endpoints), rounded once to
    ``dtype``: float32 by default (tnp's ``float``); TF 2.21 returns float64 computed
    through float32 (``geomspace(1, 1000, 4)[1]`` is 10.0000003)."""
    return _N.geomspace(start, stop, int(num), bool(endpoint), float if dtype is None else dtype, int(axis))


from lattensor.experimental.numpy import random  # noqa: E402  (tnp.random)
