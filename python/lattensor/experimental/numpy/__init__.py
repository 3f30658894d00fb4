"""``lattensor.experimental.numpy`` (also ``lattensor.numpy``): TF-NumPy.

NumPy-style names and signatures over the same lattice: ``tnp.array(1)`` is
``i32*``, ``tnp.array(1.0)`` is ``f32*``, float functions compute integers in
float32 (``tnp.sqrt(4)`` is ``f32*`` 2.0), ``sum``-like reductions widen small
integers to 32 bits, and weakness is kept — TF 2.21's rules, implemented in
the Rust library (``lattensor::numpy``; docs/deviations.md lists where TF
breaks them and lattensor does not).

``experimental_enable_numpy_behavior(dtype_conversion_mode=...)`` sets the
process-wide promotion mode; ``lattensor.promotion_mode("safe")`` scopes one
to a ``with`` block on the calling thread.
"""

from __future__ import annotations

import builtins as _builtins

import numpy as _np

from lattensor import _lattensor as _C
from lattensor._api import bind as _bind

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
    c = _C.convert_to_tensor(condition)
    if c.dtype != _C.bool:
        c = _C.not_equal(c, 0)
    return _C.where(c, x, y)


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
    shape = _shape(shape)
    value = _C.convert_to_tensor(fill_value)
    value = asarray(value, dtype=value.dtype if dtype is None else dtype)
    try:
        return _C.broadcast_to(value, shape)
    except _C.errors.InvalidArgumentError:
        raise ValueError(f"full: fill_value of shape {list(value.shape)} does not broadcast to shape {shape}") from None


def eye(N, M=None, k=0, dtype=float):  # noqa: N803 (NumPy's names)
    """``tnp.eye(N, M=None, k=0, dtype=float)``: ones on diagonal ``k``."""
    n = int(N)
    m = n if M is None else int(M)
    if n < 0 or m < 0:
        raise ValueError(f"eye: negative dimensions are not allowed (N={n}, M={m})")
    rows = _C.reshape(_C.range(n, dtype=_C.int64), [n, 1]) + int(k)
    cols = _C.reshape(_C.range(m, dtype=_C.int64), [1, m])
    # the comparison allocates n·m bools (within lattensor's size limit, or an error)
    return _C.cast(_C.equal(cols, rows), dtype)


def identity(n, dtype=float):
    """``tnp.identity(n, dtype=float)``."""
    return eye(n, dtype=dtype)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=float, axis=0):
    """``tnp.linspace``: ``num`` evenly spaced values, computed in float64 (NumPy's
    algorithm) and rounded once to ``dtype`` (float32 by default). TF 2.21 ignores
    ``dtype`` and always returns float32; lattensor honours it."""
    if int(num) * 8 > _C.max_tensor_bytes():
        from lattensor.errors import ResourceExhaustedError

        raise ResourceExhaustedError(f"linspace: {int(num)} values exceed max_tensor_bytes ({_C.max_tensor_bytes()})")
    values, step = _np.linspace(_np.asarray(start, _np.float64), _np.asarray(stop, _np.float64), int(num),
                                endpoint=bool(endpoint), retstep=True, axis=int(axis))
    dt = _C.as_dtype(dtype)
    if dt.is_integer:
        values = _np.floor(values)  # NumPy's rule for an integer dtype
    out = _C.cast(_C.constant(values), dt)
    return (out, step) if retstep else out


# ---- NumPy's binary functions: the lattice's ops under NumPy's names ----------------

add, subtract, multiply = _C.add, _C.subtract, _C.multiply
divide = true_divide = _C.truediv
floor_divide = _C.floordiv
mod = remainder = _C.floormod
power = _C.pow
maximum, minimum = _C.maximum, _C.minimum
equal, not_equal, less, less_equal, greater, greater_equal = (
    _C.equal, _C.not_equal, _C.less, _C.less_equal, _C.greater, _C.greater_equal)
matmul = _C.matmul


def _truth(x):
    """``x`` as bool: nonzero is true (NumPy's truth of a number)."""
    x = _C.convert_to_tensor(x)
    return x if x.dtype == _C.bool else _C.not_equal(x, 0)


def logical_and(x1, x2):
    """``tnp.logical_and``: of the operands' truth values (nonzero is true)."""
    return _C.logical_and(_truth(x1), _truth(x2))


def logical_or(x1, x2):
    """``tnp.logical_or``: of the operands' truth values (nonzero is true)."""
    return _C.logical_or(_truth(x1), _truth(x2))


def logical_xor(x1, x2):
    """``tnp.logical_xor``: of the operands' truth values (nonzero is true)."""
    return _C.logical_xor(_truth(x1), _truth(x2))


def logical_not(x):
    """``tnp.logical_not``: of the operand's truth value (nonzero is true)."""
    return _C.logical_not(_truth(x))


_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def dot(a, b):
    """``tnp.dot``: a scalar operand multiplies; otherwise the sum over ``a``'s last axis
    and ``b``'s second-to-last (its only one if 1-D), as NumPy. Runs as an einsum, so
    mixed dtypes promote through the lattice."""
    a, b = _C.convert_to_tensor(a), _C.convert_to_tensor(b)
    if a.ndim == 0 or b.ndim == 0:
        return _C.multiply(a, b)
    if a.ndim + b.ndim > len(_LETTERS):
        raise ValueError(f"dot: ranks {a.ndim} and {b.ndim} need more than {len(_LETTERS) - 1} labels")
    k = _LETTERS[-1]
    left = _LETTERS[: a.ndim - 1]
    if b.ndim == 1:
        return _C.einsum(f"{left}{k},{k}->{left}", a, b)
    right = _LETTERS[a.ndim - 1: a.ndim - 1 + b.ndim - 1]
    lhs_b = right[:-1] + k + right[-1]
    return _C.einsum(f"{left}{k},{lhs_b}->{left}{right}", a, b)


def outer(a, b):
    """``tnp.outer``: ``ravel(a)[i] * ravel(b)[j]``; dtypes promote through the lattice."""
    return _C.einsum("i,j->ij", ravel(a), ravel(b))


def clip(a, a_min, a_max):
    """``tnp.clip``: ``minimum(maximum(a, a_min), a_max)`` (a ``None`` bound is skipped),
    the operands first converted to their lattice join, as TF's tnp does: a strong
    result (``clip([1, 5, 9], 2, 6.5)`` is float32)."""
    if a_min is None and a_max is None:
        raise ValueError("clip: a_min and a_max cannot both be None")
    dt, _ = _C.result_type(*[v for v in (a, a_min, a_max) if v is not None])
    out = asarray(a, dtype=dt)
    if a_min is not None:
        out = _C.maximum(out, asarray(a_min, dtype=dt))
    if a_max is not None:
        out = _C.minimum(out, asarray(a_max, dtype=dt))
    return out


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """``tnp.isclose``: ``|a - b| <= atol + rtol·|b|`` element-wise, as NumPy: infinities
    are close only to themselves, NaN to nothing (to NaN if ``equal_nan``). Integers and
    bool compare in float64. A strong bool tensor."""
    x, y = _C.convert_to_tensor(a), _C.convert_to_tensor(b)
    dt, _ = _C.result_type(x, y)
    if not (dt.is_floating or dt.is_complex):
        dt = _C.float64
    x, y = _C.cast(x, dt), _C.cast(y, dt)
    ax, ay = _C.abs(x), _C.abs(y)
    finite = _C.logical_and(_C.is_finite(ax), _C.is_finite(ay))
    close = _C.less_equal(_C.abs(_C.subtract(x, y)), atol + rtol * ay)
    out = _C.where(finite, close, _C.equal(x, y))
    if equal_nan:
        out = _C.logical_or(out, _C.logical_and(_C.is_nan(ax), _C.is_nan(ay)))
    return out


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """``tnp.allclose``: whether every element is ``isclose``; a strong bool scalar tensor."""
    return _C.constant(bool(_np.all(_np.asarray(isclose(a, b, rtol, atol, equal_nan)))))


def argmax(a, axis=None):
    """``tnp.argmax``: the first index of the maximum along ``axis`` (``None``: of the
    flattened input), int64; the first NaN wins, as NumPy."""
    if axis is None:
        return _C.argmax(ravel(a), 0)
    return _C.argmax(a, axis)


def argmin(a, axis=None):
    """``tnp.argmin``: as ``argmax``, for the minimum."""
    if axis is None:
        return _C.argmin(ravel(a), 0)
    return _C.argmin(a, axis)


# ---- index and tiling functions -------------------------------------------------------

def nonzero(a):
    """``tnp.nonzero``: a tuple of int64 tensors, one per axis, of the coordinates of
    the nonzero (true) elements in row-major order."""
    truth = _np.asarray(_truth(a))
    return tuple(_C.constant(_np.asarray(ix, _np.int64)) for ix in _np.nonzero(truth))


def tile(A, reps):  # noqa: N803 (NumPy's name)
    """``tnp.tile``: ``A`` repeated ``reps[i]`` times along axis ``i`` (NumPy's rule:
    the shorter of ``A.shape`` and ``reps`` is padded with leading 1s). Keeps ``A``'s
    dtype and weakness."""
    x = _C.convert_to_tensor(A)
    reps = [int(reps)] if _np.ndim(reps) == 0 else [int(r) for r in reps]
    if any(r < 0 for r in reps):
        raise ValueError(f"tile: reps must be non-negative, got {reps}")
    rank = _builtins.max(x.ndim, len(reps))  # `max` here is tnp.max
    x = _C.reshape(x, [1] * (rank - x.ndim) + list(x.shape))
    reps = [1] * (rank - len(reps)) + reps
    for axis, r in enumerate(reps):
        if r == 0:
            x = x[(slice(None),) * axis + (slice(0, 0),)]
        elif r > 1:
            x = _C.concat([x] * r, axis)
    return x


def meshgrid(*xi, indexing="xy"):
    """``tnp.meshgrid``: coordinate tensors from 1-D ones (flattened first), each
    broadcast to the grid's shape; ``indexing="xy"`` (the default) swaps the first two
    axes, ``"ij"`` does not. The inputs are converted to their lattice join first, as
    TF converts them to a common dtype; the results are strong."""
    if indexing not in ("xy", "ij"):
        raise ValueError(f"meshgrid: indexing must be 'xy' or 'ij', got {indexing!r}")
    if not xi:
        return []
    dt, _ = _C.result_type(*xi)
    vs = [ravel(asarray(v, dtype=dt)) for v in xi]
    shape = [int(v.shape[0]) for v in vs]
    if indexing == "xy" and len(vs) > 1:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    for i, v in enumerate(vs):
        axis = {0: 1, 1: 0}.get(i, i) if indexing == "xy" and len(vs) > 1 else i
        view = [1] * len(vs)
        view[axis] = shape[axis]
        v = _C.reshape(v, view)
        out.append(_C.broadcast_to(v, shape))
    return out
