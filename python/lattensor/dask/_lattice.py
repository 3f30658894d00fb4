"""Element-wise Dask graphs whose dtype comes from the lattice.

Dask infers the dtype of ``x + y`` by running the operation on one-element
NumPy arrays, which applies NumPy's promotion and drops weakness: an
``int32`` chunk plus a ``bfloat16`` chunk would be declared ``float64``, and a
refusal in SAFE mode would surface as Dask's generic "unsupported operand"
error. For arrays whose chunks are lattensor tensors this module runs the
operation on the zero-size lattensor metas instead, under the caller's
promotion mode, so the graph's ``_meta`` (dtype and weakness) is exactly what
the chunks will be, and a refusal raises lattensor's own error while the
graph is built, before any task runs.

The promotion mode in force when the graph is built travels with each task
(:class:`InMode`), so a worker thread or process computes under the same mode
as the caller whatever its own default.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

import numpy as np

import lattensor
from lattensor import _lattensor as _C


class InMode:
    """``op`` called under a fixed promotion mode (picklable; Dask tokenizes it
    by the op and the mode)."""

    __slots__ = ("op", "mode")

    def __init__(self, op, mode: str):
        self.op = op
        self.mode = mode

    def __call__(self, *args, **kwargs):
        with _C.promotion_mode(self.mode):
            return self.op(*args, **kwargs)

    def __reduce__(self):
        return InMode, (self.op, self.mode)

    def __dask_tokenize__(self):
        from dask.base import normalize_token

        return ("lattensor-in-mode", normalize_token(self.op), self.mode)

    def __repr__(self):
        return f"InMode({self.op!r}, {self.mode!r})"


def is_lattensor_meta(x) -> bool:
    """Whether ``x`` is a lattensor tensor or a Dask array of lattensor chunks."""
    if isinstance(x, _C.Tensor):
        return True
    return isinstance(getattr(x, "_meta", None), _C.Tensor)


def _meta_of(x):
    """The zero-size stand-in for ``x`` in the meta computation: a Dask array's
    meta, a zero-size slice of an array, the value itself for a scalar."""
    from dask.array.core import Array, is_scalar_for_elemwise
    from dask.array.utils import meta_from_array

    if isinstance(x, Array):
        return x._meta
    if is_scalar_for_elemwise(x):
        return x
    return meta_from_array(x)


def lattice_elemwise(original):
    """Wraps Dask's ``elemwise``: calls with a lattensor operand build the graph
    here, every other call goes to ``original`` unchanged."""

    @functools.wraps(original)
    def elemwise(op, *args, out=None, where=True, dtype=None, name=None, **kwargs):
        if not any(is_lattensor_meta(a) for a in args):
            return original(op, *args, out=out, where=where, dtype=dtype, name=name, **kwargs)
        return _build(op, args, out, where, dtype, name, kwargs)

    elemwise.__lattensor_wrapped__ = original
    return elemwise


def _build(op, args, out, where, dtype, name, kwargs):
    from dask.array.core import blockwise, broadcast_shapes, is_scalar_for_elemwise
    from dask.base import is_dask_collection, tokenize
    from dask.utils import funcname

    fname = funcname(op)
    if kwargs:
        raise TypeError(f"{fname} does not take the following keyword arguments {sorted(kwargs)}")
    if out is not None or where is not True:
        raise NotImplementedError(
            f"{fname} on Dask arrays of lattensor chunks: `out=` and `where=` are not supported "
            f"(NumPy does not write into lattensor tensors); use da.where(mask, {fname}(x, y), fallback) instead"
        )
    args = [np.asarray(a) if isinstance(a, (list, tuple)) else a for a in args]
    shapes = []
    for a in args:
        shape = getattr(a, "shape", ())
        if not isinstance(shape, Iterable) or any(is_dask_collection(s) for s in shape):
            shape = ()
        shapes.append(shape)
    out_ndim = len(broadcast_shapes(*shapes))  # raises ValueError on a shape mismatch
    expr_inds = tuple(range(out_ndim))[::-1]

    mode = _C.get_promotion_mode()
    bound = InMode(op, mode)
    if dtype is not None:
        bound = InMode(_CastAfter(op, lattensor.as_dtype(dtype)), mode)
    # Runs on zero-size tensors: cheap, and raises lattensor's error (a SAFE
    # refusal, an unsupported dtype) here, while the graph is being built.
    meta = bound(*[_meta_of(a) for a in args])
    if not isinstance(meta, _C.Tensor):
        meta = _C.convert_to_tensor(meta)
    if not name:
        name = f"{fname}-{tokenize(bound, *args)}"
    pairs = []
    for a in args:
        pairs.append(a)
        pairs.append(None if is_scalar_for_elemwise(a) else tuple(range(a.ndim))[::-1])
    return blockwise(bound, expr_inds, *pairs, dtype=meta.dtype, meta=meta, name=name, token=fname.strip("_"))


class _CastAfter:
    """``op`` followed by a cast to an explicit ``dtype=`` (picklable)."""

    __slots__ = ("op", "dtype")

    def __init__(self, op, dtype):
        self.op = op
        self.dtype = dtype

    def __call__(self, *args, **kwargs):
        return _C.cast(self.op(*args, **kwargs), self.dtype)

    def __reduce__(self):
        return _CastAfter, (self.op, self.dtype)

    def __dask_tokenize__(self):
        from dask.base import normalize_token

        return ("lattensor-cast-after", normalize_token(self.op), self.dtype.name)


def install() -> None:
    """Routes Dask's element-wise graph building through :func:`lattice_elemwise`
    (once): ``dask.array.core.elemwise``, which Dask's operators and ``da.*``
    ufuncs call, and the copy ``dask.array.routines`` imported (``da.around``,
    ``da.isclose``, …)."""
    import dask.array.core as core
    import dask.array.routines as routines

    if not hasattr(core.elemwise, "__lattensor_wrapped__"):
        core.elemwise = lattice_elemwise(core.elemwise)
    if not hasattr(routines.elemwise, "__lattensor_wrapped__"):
        routines.elemwise = lattice_elemwise(routines.elemwise)
