"""lattensor's implementations of Dask's per-chunk-type dispatch functions.

Dask looks these up by the type of a chunk (``dask.array.dispatch``), as it
does for CuPy and ``sparse``: concatenating blocks, ``take``, ``tensordot``,
``einsum``, empty blocks, ``divide``, percentiles and the conversion to
NumPy. Each one computes with lattensor's own ops on lattensor tensors, so
chunks keep their dtype and weakness and promote through the lattice; none of
them converts a chunk to NumPy behind the caller's back. The exceptions are
host-side bookkeeping: the element counts of ``mean``/``var``/``std`` are NumPy
arrays, as Dask makes them for ``sparse`` chunks (Dask assigns into them), and
``percentile`` runs NumPy on the host data, as ``lattensor.array_api``'s host
paths do, returning lattensor values.
"""

from __future__ import annotations


import ml_dtypes
import numpy as np

from lattensor import _lattensor as _C
from lattensor import array_api as xp


def _tensor(x):
    """``x`` as a tensor: tensors as they are (weakness kept), anything else
    converted by lattensor's rules (NumPy arrays keep their dtype)."""
    return x if isinstance(x, _C.Tensor) else _C.convert_to_tensor(x)


def concatenate(arrays, axis=0):
    """``np.concatenate`` for lattensor blocks; mixed dtypes promote through the lattice."""
    arrays = [_tensor(a) for a in arrays]
    if axis is None:
        return xp.concat([xp.reshape(a, (-1,)) for a in arrays], axis=0)
    return xp.concat(arrays, axis=axis)


def take(a, indices, axis=0):
    """``np.take`` for a lattensor block; ``indices`` may be a NumPy array or list."""
    idx = indices if isinstance(indices, _C.Tensor) else _C.convert_to_tensor(np.asarray(indices, dtype=np.int64))
    return xp.take(_tensor(a), idx, axis=axis)


def tensordot(a, b, axes=2):
    """``np.tensordot`` for lattensor blocks."""
    if not isinstance(axes, int):
        axes = tuple(tuple(ax) if isinstance(ax, (list, tuple)) else (ax,) for ax in axes)
    return xp.tensordot(_tensor(a), _tensor(b), axes=axes)


def einsum(subscripts, *operands, dtype=None, casting=None, order=None, optimize=None, **kwargs):
    """``np.einsum`` for lattensor blocks (NumPy's subscript rules; ``casting``,
    ``order`` and ``optimize`` only concern NumPy's own buffers and are ignored)."""
    del casting, order, optimize
    if kwargs:
        raise TypeError(f"einsum on lattensor chunks: unexpected keyword arguments {sorted(kwargs)}")
    from lattensor.experimental import numpy as tnp

    ops = [_tensor(o) for o in operands]
    if dtype is not None:
        # NumPy computes in `dtype`: convert the operands first (a float16
        # contraction asked for in float32 must not overflow in float16)
        d = _C.as_dtype(dtype)
        ops = [o if o.dtype == d else _C.cast(o, d) for o in ops]
    return tnp.einsum(subscripts, *ops)


def empty(shape, dtype=None, **kwargs):
    """``np.empty`` for lattensor: zeros (lattensor never hands out
    uninitialised memory)."""
    del kwargs
    if isinstance(shape, int):
        shape = (shape,)
    return _C.zeros(list(shape), _C.as_dtype(dtype if dtype is not None else "float64"))


def divide(a, b, dtype=None):
    """``np.divide`` with an optional result dtype, for ``mean``'s last step."""
    out = xp.divide(_tensor(a), _tensor(b))
    if dtype is not None and out.dtype != dtype:
        out = _C.cast(out, _C.as_dtype(dtype))
    return out


def nannumel(x, **kwargs):
    """How many non-NaN elements a reduction over ``axis`` sees, as a NumPy
    array (Dask writes into the counts)."""
    a = np.asarray(x)
    if kwargs.get("dtype") is not None and np.dtype(kwargs["dtype"]) in _LOW:
        kwargs["dtype"] = np.float32
    return np.sum(~np.isnan(a), **kwargs) if a.dtype.kind in "fcV" else backends_numel(a, **kwargs)


def numel(x, **kwargs):
    """How many elements a reduction over ``axis`` sees, as a NumPy array
    (Dask writes into the counts). Counts asked for in
    float16 or bfloat16 are float32, exact to 2**24 (a bfloat16 count is
    already inexact above 256)."""
    if kwargs.get("dtype") is not None and np.dtype(kwargs["dtype"]) in _LOW:
        kwargs["dtype"] = np.float32
    return backends_numel(x, **kwargs)


_LOW = (np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16))


def backends_numel(a, **kwargs):
    from dask.array.backends import _numel_ndarray

    return _numel_ndarray(a, **kwargs)


def percentile(a, q, method="linear"):
    """Percentiles of one block (NumPy on the host data, as Dask computes them
    for NumPy blocks); the values come back as a lattensor tensor of the
    block's dtype, the counts as NumPy, which Dask's merge step expects."""
    from dask.array.percentile import _percentile

    vals, n = _percentile(np.asarray(a), np.asarray(q), method)
    return _C.convert_to_tensor(np.asarray(vals)), n


def to_numpy(data, **kwargs):
    """A lattensor chunk as a NumPy array (a copy; bfloat16 via ml_dtypes)."""
    del kwargs
    return np.array(data)


def from_numpy(data, **kwargs):
    """A NumPy chunk as a lattensor tensor of the same dtype (strong)."""
    del kwargs
    return _C.convert_to_tensor(np.asarray(data))
