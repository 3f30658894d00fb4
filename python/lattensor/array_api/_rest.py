"""The standard's statistical, searching, sorting, set, manipulation, indexing,
linear-algebra and utility functions."""

from __future__ import annotations

import builtins as _b
from typing import NamedTuple

import numpy as _np

from lattensor import _lattensor as _C
from lattensor.array_api import (
    _BOOL,
    _COMPLEX,
    _DEFAULT_INDEX,
    _DEFAULT_INT,
    _FLOATS,
    _INTS,
    _SIGNED,
    _UNSIGNED,
    Tensor,
    _arr,
    _axes,
    _cast,
    _dtype_arg,
    _err,
    _np_of,
    _operand,
    _strong,
    uint64,
)
from lattensor.experimental import numpy as _tnp

__all__ = [
    "argmax", "argmin", "argsort", "all", "any", "broadcast_arrays", "broadcast_shapes", "broadcast_to",
    "concat", "count_nonzero", "cumulative_prod", "cumulative_sum", "diff", "expand_dims", "flip", "isin",
    "matmul", "matrix_transpose", "max", "mean", "min", "moveaxis", "nonzero", "permute_dims", "prod",
    "repeat", "reshape", "roll", "searchsorted", "sort", "squeeze", "stack", "std", "sum", "take",
    "take_along_axis", "tensordot", "tile", "unique_all", "unique_counts", "unique_inverse",
    "unique_values", "unstack", "var", "vecdot", "where",
]


def _reduce_axes(fn, x, axis):
    return _axes(fn, axis, x.ndim)


def _sum_dtype(fn, x, dtype):
    """The standard's accumulator: small signed ints widen to int64, unsigned to uint64."""
    dtype = _dtype_arg(fn, dtype)
    if dtype is not None:
        return dtype
    if x.dtype in _SIGNED or x.dtype in _BOOL:
        return _DEFAULT_INT
    if x.dtype in _UNSIGNED:
        return uint64
    return x.dtype


# --- statistical -----------------------------------------------------------


def sum(x, /, *, axis=None, dtype=None, keepdims=False):  # noqa: A001
    """Sum over ``axis`` (all axes if None); integers accumulate in int64 / uint64."""
    _arr("sum", "x", x)
    ax = _reduce_axes("sum", x, axis)
    d = _sum_dtype("sum", x, dtype)
    return _tnp.sum(_cast(x, d), axis=ax, keepdims=keepdims, dtype=d)  # tnp's own would widen uint8 to uint32


def prod(x, /, *, axis=None, dtype=None, keepdims=False):
    """Product over ``axis``; integers accumulate in int64 / uint64."""
    _arr("prod", "x", x)
    ax = _reduce_axes("prod", x, axis)
    d = _sum_dtype("prod", x, dtype)
    return _tnp.prod(_cast(x, d), axis=ax, keepdims=keepdims, dtype=d)


def _minmax(name, kernel):
    def f(x, /, *, axis=None, keepdims=False):
        _arr(name, "x", x)
        ax = _reduce_axes(name, x, axis)
        if x.size == 0 and _b.any(x.shape[a] == 0 for a in ax):
            raise ValueError(_err(name, "x", "is empty along the reduced axes (the standard leaves it undefined)"))
        if x.dtype in _COMPLEX:
            raise TypeError(_err(name, "x", "must be real (complex numbers are not ordered)"))
        if not ax:
            return x
        return kernel(x, axis=ax, keepdims=keepdims)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"The {name}imum over ``axis`` (NaN propagates)."
    return f


max = _minmax("max", _tnp.max)  # noqa: A001
min = _minmax("min", _tnp.min)  # noqa: A001


def mean(x, /, *, axis=None, keepdims=False):
    """The arithmetic mean over ``axis`` (floating ``x``)."""
    _arr("mean", "x", x)
    if x.dtype not in _FLOATS:
        raise TypeError(_err("mean", "x", f"must have a floating dtype, got {x.dtype.name}"))
    ax = _reduce_axes("mean", x, axis)
    return _cast(_tnp.mean(x, axis=ax, keepdims=keepdims), x.dtype)


def _moment(name, x, axis, correction, keepdims):
    _arr(name, "x", x)
    if x.dtype not in _FLOATS or x.dtype in _COMPLEX:
        raise TypeError(_err(name, "x", f"must have a real floating dtype, got {x.dtype.name}"))
    ax = _reduce_axes(name, x, axis)
    n = 1
    for a in ax:
        n *= x.shape[a]
    m = _tnp.mean(x, axis=ax, keepdims=True)
    d = x - m
    ss = _tnp.sum(d * d, axis=ax, keepdims=keepdims)
    return _cast(ss / (n - correction) if n - correction != 0 else ss * float("nan"), x.dtype)


def var(x, /, *, axis=None, correction=0.0, keepdims=False):
    """The variance over ``axis``, dividing by ``N - correction``."""
    return _moment("var", x, axis, correction, keepdims)


def std(x, /, *, axis=None, correction=0.0, keepdims=False):
    """The standard deviation over ``axis``, dividing by ``N - correction``."""
    return _tnp.sqrt(_moment("std", x, axis, correction, keepdims))


def _cumulative(name, kernel, x, axis, dtype, include_initial, initial):
    _arr(name, "x", x)
    if axis is None:
        if x.ndim > 1:
            raise ValueError(_err(name, "axis", "is required for arrays of more than one dimension"))
        axis = 0
    if x.ndim == 0:
        raise ValueError(_err(name, "x", "must have at least one dimension"))
    (axis,) = _axes(name, axis, x.ndim, allow_none=False)
    x = _cast(x, _sum_dtype(name, x, dtype))
    out = kernel(x, axis=axis) if x.shape[axis] else x
    if include_initial:
        shape = list(x.shape)
        shape[axis] = 1
        out = _tnp.concatenate([_strong(_np.full(shape, initial, x.dtype.as_numpy_dtype)), out], axis=axis)
    return _cast(out, x.dtype)


def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
    """Running sums along ``axis`` (``include_initial``: a leading 0)."""
    return _cumulative("cumulative_sum", _tnp.cumsum, x, axis, dtype, include_initial, 0)


def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False):
    """Running products along ``axis`` (``include_initial``: a leading 1)."""
    return _cumulative("cumulative_prod", _tnp.cumprod, x, axis, dtype, include_initial, 1)


# --- utility ---------------------------------------------------------------


def all(x, /, *, axis=None, keepdims=False):  # noqa: A001
    """Whether every element over ``axis`` is true (nonzero)."""
    _arr("all", "x", x)
    return _tnp.all(x, axis=_reduce_axes("all", x, axis), keepdims=keepdims)


def any(x, /, *, axis=None, keepdims=False):  # noqa: A001
    """Whether some element over ``axis`` is true (nonzero)."""
    _arr("any", "x", x)
    return _tnp.any(x, axis=_reduce_axes("any", x, axis), keepdims=keepdims)


def diff(x, /, *, axis=-1, n=1, prepend=None, append=None):
    """The ``n``-th forward difference along ``axis``."""
    _arr("diff", "x", x)
    (axis,) = _axes("diff", axis, x.ndim, allow_none=False)
    parts = [p for p in (prepend, x, append) if p is not None]
    y = concat(parts, axis=axis) if len(parts) > 1 else x
    for _ in range(n):
        k = y.shape[axis]
        lo = [slice(None)] * y.ndim
        hi = [slice(None)] * y.ndim
        lo[axis], hi[axis] = slice(0, k - 1), slice(1, k)
        y = _C.logical_xor(y[tuple(hi)], y[tuple(lo)]) if y.dtype in _BOOL else y[tuple(hi)] - y[tuple(lo)]
    return y


# --- searching -------------------------------------------------------------


def _argext(name, kernel):
    def f(x, /, *, axis=None, keepdims=False):
        _arr(name, "x", x)
        if x.size == 0:
            raise ValueError(_err(name, "x", "must not be empty"))
        if axis is None:
            out = kernel(_tnp.ravel(x), axis=0)
            if keepdims:
                out = _tnp.reshape(out, (1,) * x.ndim)
        else:
            (ax,) = _axes(name, axis, x.ndim, allow_none=False)
            out = kernel(x, axis=ax)
            if keepdims:
                out = _tnp.expand_dims(out, ax)
        return _cast(out, _DEFAULT_INDEX)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"The index of the first {name[3:]}imum over ``axis`` (of the flattened ``x`` if None)."
    return f


argmax = _argext("argmax", _tnp.argmax)
argmin = _argext("argmin", _tnp.argmin)


def count_nonzero(x, /, *, axis=None, keepdims=False):
    """The number of nonzero elements over ``axis`` (int64)."""
    _arr("count_nonzero", "x", x)
    ax = _reduce_axes("count_nonzero", x, axis)
    return _tnp.sum(_cast(_tnp.not_equal(x, 0) if x.dtype not in _BOOL else x, _DEFAULT_INDEX), axis=ax, keepdims=keepdims)


def nonzero(x, /):
    """The indices of the nonzero elements, one int64 array per axis."""
    _arr("nonzero", "x", x)
    if x.ndim == 0:
        raise ValueError(_err("nonzero", "x", "must have at least one dimension"))
    return tuple(_strong(i, _DEFAULT_INDEX) for i in _np.nonzero(_np_of(x)))


def where(condition, x1, x2, /):
    """``x1`` where ``condition`` is true, else ``x2``, broadcast; dtypes promote as ``x1 + x2``."""
    _arr("where", "condition", condition)
    if condition.dtype not in _BOOL:
        raise TypeError(_err("where", "condition", f"must be a bool array, got {condition.dtype.name}"))
    a = _operand("where", "x1", x1, (_b.bool, int, float, complex))
    b = _operand("where", "x2", x2, (_b.bool, int, float, complex))
    return _tnp.where(condition, a, b)


def searchsorted(x1, x2, /, *, side="left", sorter=None):
    """Where ``x2``'s elements go in the sorted 1-D ``x1`` (int64 indices)."""
    _arr("searchsorted", "x1", x1)
    if side not in ("left", "right"):
        raise ValueError(_err("searchsorted", "side", f"must be 'left' or 'right', got {side!r}"))
    v = _np_of(x2) if isinstance(x2, Tensor) else x2
    s = None if sorter is None else _np_of(_arr("searchsorted", "sorter", sorter))
    return _strong(_np.searchsorted(_np_of(x1), v, side=side, sorter=s), _DEFAULT_INDEX)


# --- sorting ---------------------------------------------------------------


def argsort(x, /, *, axis=-1, descending=False, stable=True):
    """Indices that sort ``x`` along ``axis`` (int64; stable; NaNs last, first if descending)."""
    _arr("argsort", "x", x)
    if x.dtype in _COMPLEX:
        raise TypeError(_err("argsort", "x", "must be real"))
    if x.ndim == 0:
        return _strong(0, _DEFAULT_INDEX)
    (ax,) = _axes("argsort", axis, x.ndim, allow_none=False)
    if not descending:
        return _cast(_tnp.argsort(x, axis=ax), _DEFAULT_INDEX)
    # stable descending: ascending order of the reversed array, reversed back
    n = x.shape[ax]
    idx = _cast(_tnp.argsort(_tnp.flip(x, ax), axis=ax), _DEFAULT_INDEX)
    return (n - 1) - _tnp.flip(idx, ax)


def sort(x, /, *, axis=-1, descending=False, stable=True):
    """``x`` sorted along ``axis`` (NaNs last, first if descending)."""
    _arr("sort", "x", x)
    if x.ndim == 0:
        return x
    return take_along_axis(x, argsort(x, axis=axis, descending=descending), axis=axis)


# --- set (NumPy on the host data: NaNs are distinct, as the standard says) --


class UniqueAllResult(NamedTuple):
    values: Tensor
    indices: Tensor
    inverse_indices: Tensor
    counts: Tensor


class UniqueCountsResult(NamedTuple):
    values: Tensor
    counts: Tensor


class UniqueInverseResult(NamedTuple):
    values: Tensor
    inverse_indices: Tensor


def _unique(name, x):
    _arr(name, "x", x)
    a = _np_of(x)
    flat = a.reshape(-1)
    vals, idx, inv, cnt = _np.unique(flat, return_index=True, return_inverse=True, return_counts=True, equal_nan=False)
    return a, vals, idx, inv, cnt


def unique_values(x, /):
    """The distinct values of ``x`` (sorted; each NaN distinct)."""
    _, vals, _, _, _ = _unique("unique_values", x)
    return _strong(vals, x.dtype)


def unique_counts(x, /):
    """``(values, counts)``: distinct values and how often each occurs."""
    _, vals, _, _, cnt = _unique("unique_counts", x)
    return UniqueCountsResult(_strong(vals, x.dtype), _strong(cnt, _DEFAULT_INDEX))


def unique_inverse(x, /):
    """``(values, inverse_indices)``: ``values[inverse_indices]`` rebuilds ``x``."""
    a, vals, _, inv, _ = _unique("unique_inverse", x)
    return UniqueInverseResult(_strong(vals, x.dtype), _strong(inv.reshape(a.shape), _DEFAULT_INDEX))


def unique_all(x, /):
    """``(values, indices, inverse_indices, counts)``."""
    a, vals, idx, inv, cnt = _unique("unique_all", x)
    return UniqueAllResult(_strong(vals, x.dtype), _strong(idx, _DEFAULT_INDEX), _strong(inv.reshape(a.shape), _DEFAULT_INDEX), _strong(cnt, _DEFAULT_INDEX))


def isin(x1, x2, /, *, invert=False):
    """Whether each element of ``x1`` occurs in ``x2`` (bool, ``x1``'s shape)."""
    a = _operand("isin", "x1", x1, (int,))
    b = _operand("isin", "x2", x2, (int,))
    a_np = _np_of(a) if isinstance(a, Tensor) else _np.asarray(a)
    b_np = _np_of(b) if isinstance(b, Tensor) else _np.asarray(b)
    return _strong(_np.isin(a_np, b_np, invert=invert))


# --- manipulation ----------------------------------------------------------


def broadcast_arrays(*arrays):
    """The arrays broadcast to one shape."""
    for i, a in enumerate(arrays):
        _arr("broadcast_arrays", f"arrays[{i}]", a)
    shape = broadcast_shapes(*[a.shape for a in arrays])
    return tuple(_tnp.broadcast_to(a, shape) for a in arrays)


def broadcast_shapes(*shapes):
    """The shape that ``shapes`` broadcast to (``ValueError`` if they do not)."""
    try:
        return tuple(_np.broadcast_shapes(*shapes))
    except ValueError:
        raise ValueError(_err("broadcast_shapes", "shapes", f"{shapes!r} do not broadcast together")) from None


def broadcast_to(x, /, shape):
    """``x`` broadcast to ``shape``."""
    _arr("broadcast_to", "x", x)
    try:
        _np.broadcast_shapes(tuple(x.shape), tuple(shape))
        if tuple(_np.broadcast_shapes(tuple(x.shape), tuple(shape))) != tuple(shape):
            raise ValueError
    except ValueError:
        raise ValueError(_err("broadcast_to", "shape", f"{tuple(shape)!r} is not a broadcast of {tuple(x.shape)!r}")) from None
    return _tnp.broadcast_to(x, tuple(shape))


def concat(arrays, /, *, axis=0):
    """Joins arrays along ``axis`` (``None``: flattened first); dtypes promote."""
    if not isinstance(arrays, (list, tuple)) or not arrays:
        raise TypeError(_err("concat", "arrays", "must be a non-empty list or tuple of arrays"))
    for i, a in enumerate(arrays):
        _arr("concat", f"arrays[{i}]", a)
    if axis is None:
        return _tnp.concatenate([_tnp.ravel(a) for a in arrays], axis=0)
    (ax,) = _axes("concat", axis, arrays[0].ndim, allow_none=False)
    return _tnp.concatenate(list(arrays), axis=ax)


def expand_dims(x, /, axis=0):
    """``x`` with new length-1 axes at ``axis`` (an int or a tuple)."""
    _arr("expand_dims", "x", x)
    single = isinstance(axis, int)
    ax = _axes("expand_dims", axis, x.ndim + (1 if single else len(axis)), allow_none=False)
    out = x
    for a in sorted(ax):
        out = _tnp.expand_dims(out, a)
    return out


def flip(x, /, *, axis=None):
    """``x`` reversed along ``axis`` (all axes if None)."""
    _arr("flip", "x", x)
    out = x
    for a in _axes("flip", axis, x.ndim):
        out = _tnp.flip(out, a)
    return out


def moveaxis(x, source, destination, /):
    """``x`` with axes ``source`` moved to ``destination``."""
    _arr("moveaxis", "x", x)
    s = _axes("moveaxis", source, x.ndim, allow_none=False)
    d = _axes("moveaxis", destination, x.ndim, allow_none=False)
    if len(s) != len(d):
        raise ValueError(_err("moveaxis", "destination", "must have as many axes as source"))
    order = [a for a in range(x.ndim) if a not in s]
    for dst, src in sorted(zip(d, s)):
        order.insert(dst, src)
    return _tnp.transpose(x, tuple(order))


def permute_dims(x, /, axes):
    """``x`` with its axes in the order ``axes``."""
    _arr("permute_dims", "x", x)
    ax = _axes("permute_dims", axes, x.ndim, allow_none=False)
    if len(ax) != x.ndim:
        raise ValueError(_err("permute_dims", "axes", f"must name all {x.ndim} axes, got {axes!r}"))
    return _tnp.transpose(x, ax)


def repeat(x, repeats, /, *, axis=None):
    """Each element repeated ``repeats`` times along ``axis`` (flattened if None)."""
    _arr("repeat", "x", x)
    r = _np_of(repeats) if isinstance(repeats, Tensor) else repeats
    if axis is None:
        return _strong(_np.repeat(_np_of(x).reshape(-1), r), x.dtype)
    (ax,) = _axes("repeat", axis, x.ndim, allow_none=False)
    return _strong(_np.repeat(_np_of(x), r, axis=ax), x.dtype)


def reshape(x, /, shape, *, copy=None):
    """``x`` in ``shape`` (one entry may be -1)."""
    _arr("reshape", "x", x)
    out = _tnp.reshape(x, tuple(shape))
    return _C.identity(out) if copy and out is x else out


def roll(x, /, shift, *, axis=None):
    """``x`` shifted cyclically by ``shift`` along ``axis`` (flattened if None)."""
    _arr("roll", "x", x)
    if axis is None:
        return _tnp.reshape(_tnp.roll(_tnp.ravel(x), shift), x.shape)
    return _tnp.roll(x, shift, axis=axis)


def squeeze(x, /, axis):
    """``x`` without the length-1 axes ``axis``."""
    _arr("squeeze", "x", x)
    ax = _axes("squeeze", axis, x.ndim, allow_none=False)
    for a in ax:
        if x.shape[a] != 1:
            raise ValueError(_err("squeeze", "axis", f"{a} has length {x.shape[a]}, not 1"))
    return _tnp.reshape(x, tuple(d for i, d in enumerate(x.shape) if i not in ax))


def stack(arrays, /, *, axis=0):
    """Joins equal-shaped arrays along a new ``axis``; dtypes promote."""
    if not isinstance(arrays, (list, tuple)) or not arrays:
        raise TypeError(_err("stack", "arrays", "must be a non-empty list or tuple of arrays"))
    for i, a in enumerate(arrays):
        _arr("stack", f"arrays[{i}]", a)
    (ax,) = _axes("stack", axis, arrays[0].ndim + 1, allow_none=False)
    return _tnp.stack(list(arrays), axis=ax)


def tile(x, repetitions, /):
    """``x`` repeated ``repetitions[i]`` times along axis ``i``."""
    _arr("tile", "x", x)
    return _tnp.tile(x, tuple(repetitions))


def unstack(x, /, *, axis=0):
    """The slices of ``x`` along ``axis``, as a tuple."""
    _arr("unstack", "x", x)
    if x.ndim == 0:
        raise ValueError(_err("unstack", "x", "must have at least one dimension"))
    (ax,) = _axes("unstack", axis, x.ndim, allow_none=False)
    return tuple(x[(slice(None),) * ax + (i,)] for i in range(x.shape[ax]))


# --- indexing --------------------------------------------------------------


def take(x, indices, /, *, axis=None):
    """Elements of ``x`` at integer ``indices`` along ``axis`` (negative indices count from the end)."""
    _arr("take", "x", x)
    _arr("take", "indices", indices)
    if axis is None:
        if x.ndim != 1:
            raise ValueError(_err("take", "axis", "is required for arrays of more than one dimension"))
        axis = 0
    (ax,) = _axes("take", axis, x.ndim, allow_none=False)
    idx = _np_of(indices) % _b.max(x.shape[ax], 1)
    return _tnp.take(x, _strong(idx, _DEFAULT_INDEX), axis=ax)


def take_along_axis(x, indices, /, *, axis=-1):
    """Elements of ``x`` at ``indices`` (``x``'s rank) along ``axis``."""
    _arr("take_along_axis", "x", x)
    _arr("take_along_axis", "indices", indices)
    (ax,) = _axes("take_along_axis", axis, x.ndim, allow_none=False)
    idx = _np_of(indices) % _b.max(x.shape[ax], 1)
    return _tnp.take_along_axis(x, _strong(idx, _DEFAULT_INDEX), axis=ax)


# --- linear algebra --------------------------------------------------------


def matmul(x1, x2, /, *, preferred_element_type=None):
    """The matrix product, batched over leading axes (1-D operands as vectors).
    ``preferred_element_type`` (JAX's; an extension of the standard) is the dtype
    the product accumulates in and returns: ``int8 @ int8`` into ``int32`` is exact."""
    _arr("matmul", "x1", x1)
    _arr("matmul", "x2", x2)
    if x1.ndim == 0 or x2.ndim == 0:
        raise ValueError(_err("matmul", "x1" if x1.ndim == 0 else "x2", "must have at least one dimension"))
    k1 = x1.shape[-1]
    k2 = x2.shape[-2] if x2.ndim > 1 else x2.shape[0]
    if k1 != k2:
        raise ValueError(_err("matmul", "x2", f"has {k2} rows but x1 has {k1} columns"))
    return _tnp.matmul(x1, x2, preferred_element_type=preferred_element_type)


def matrix_transpose(x, /):
    """``x`` with its last two axes swapped."""
    _arr("matrix_transpose", "x", x)
    if x.ndim < 2:
        raise ValueError(_err("matrix_transpose", "x", "must have at least two dimensions"))
    return _tnp.swapaxes(x, -1, -2)


def tensordot(x1, x2, /, *, axes=2, preferred_element_type=None):
    """The sum of products over ``axes`` (an int: the last of ``x1`` with the first of
    ``x2``), accumulated in ``preferred_element_type`` if given (as :func:`matmul`)."""
    _arr("tensordot", "x1", x1)
    _arr("tensordot", "x2", x2)
    return _tnp.tensordot(x1, x2, axes=axes, preferred_element_type=preferred_element_type)


def vecdot(x1, x2, /, *, axis=-1):
    """``sum(conj(x1) * x2, axis)``, broadcast over the other axes."""
    _arr("vecdot", "x1", x1)
    _arr("vecdot", "x2", x2)
    if axis >= 0:
        raise ValueError(_err("vecdot", "axis", "must be negative (it counts from the end after broadcasting)"))
    if x1.ndim < -axis or x2.ndim < -axis or x1.shape[axis] != x2.shape[axis]:
        raise ValueError(_err("vecdot", "x2", f"must match x1's length along axis {axis}"))
    a = _C.conj(x1) if x1.dtype in _COMPLEX else x1
    prod = a * x2
    return _cast(_tnp.sum(prod, axis=axis), prod.dtype)


_ = (_INTS, _dtype_arg)
