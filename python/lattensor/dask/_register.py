"""Registers lattensor with Dask: chunk type, dispatch, backend, lattice dtypes.

:func:`register` runs once per process, the first time both ``lattensor`` and
``dask.array`` are imported (whichever comes first; see
``lattensor._dask_hook``), and on every Dask worker, which imports lattensor
when it unpickles the first lattensor chunk or task.
"""

from __future__ import annotations

import functools
import threading

import numpy as np

from lattensor import _lattensor as _C

_lock = threading.RLock()
_done = False
to_lattensor_dispatch = None


def register() -> None:
    """Makes ``lattensor.Tensor`` a Dask array chunk type (idempotent).

    - ``dask.array.chunk_types.register_chunk_type(Tensor)``: Dask wraps
      tensors as chunks and does not defer to them in arithmetic;
    - the per-type dispatch of ``dask.array.dispatch`` (concatenate, take,
      tensordot, einsum, empty, divide, numel/nannumel, percentile, to NumPy);
    - Dask's element-wise graph building takes the dtype and weakness of a
      lattensor operand's result from the lattice (``lattensor.dask._lattice``);
    - ``da.from_array`` of a tensor keeps tensor chunks, and with the
      ``"lattensor"`` backend converts other inputs to tensors first;
    - the ``"lattensor"`` array backend.
    """
    global _done, to_lattensor_dispatch
    with _lock:
        if _done:
            return
        import dask.array as da
        from dask.array import chunk_types, dispatch
        from dask.array.backends import array_creation_dispatch
        from dask.sizeof import sizeof
        from dask.utils import Dispatch

        from lattensor.dask import _dispatch as impl
        from lattensor.dask import _chunk_numpy, _lattice
        from lattensor.dask._backend import LattensorBackendEntrypoint

        T = _C.Tensor
        if not chunk_types.is_valid_chunk_type(T):
            chunk_types.register_chunk_type(T)
        dispatch.concatenate_lookup.register(T, impl.concatenate)
        dispatch.take_lookup.register(T, impl.take)
        dispatch.tensordot_lookup.register(T, impl.tensordot)
        dispatch.einsum_lookup.register(T, impl.einsum)
        dispatch.empty_lookup.register(T, impl.empty)
        dispatch.divide_lookup.register(T, impl.divide)
        # element counts stay NumPy arrays (Dask writes into them, as it does
        # for `sparse` chunks)
        dispatch.numel_lookup.register(T, impl.numel)
        dispatch.nannumel_lookup.register(T, impl.nannumel)
        dispatch.percentile_lookup.register(T, impl.percentile)
        dispatch.to_numpy_dispatch.register(T, impl.to_numpy)

        # the bytes a chunk holds, for distributed's memory accounting
        sizeof.register(T)(_sizeof)

        to_lattensor_dispatch = Dispatch("to_lattensor_dispatch")
        to_lattensor_dispatch.register(np.ndarray, impl.from_numpy)
        to_lattensor_dispatch.register(T, lambda data, **kwargs: data)

        _chunk_numpy.install()
        _lattice.install()
        _install_from_array(da)
        _done = True
        if "lattensor" not in array_creation_dispatch._lookup:
            array_creation_dispatch.register_backend("lattensor", LattensorBackendEntrypoint())


def _sizeof(t) -> int:
    n = 1
    for d in t.shape:
        n *= int(d)
    return n * t.dtype.size + 64


def _install_from_array(da) -> None:
    """Wraps ``da.from_array``: a tensor's blocks are sliced as tensors (never
    through ``np.asarray``), and under the ``"lattensor"`` backend a NumPy
    array or list becomes a tensor first."""
    import dask.array.core as core

    original = core.from_array
    if hasattr(original, "__lattensor_wrapped__"):
        return

    @functools.wraps(original)
    def from_array(x, chunks="auto", *args, **kwargs):
        from dask.array.backends import array_creation_dispatch

        if not isinstance(x, _C.Tensor) and array_creation_dispatch.backend == "lattensor" and _host_array(x):
            x = _C.convert_to_tensor(np.asarray(x))
        if isinstance(x, _C.Tensor):
            kwargs["asarray"] = False
            kwargs.setdefault("meta", x[tuple(slice(0, 0) for _ in range(x.ndim))])
        return original(x, chunks, *args, **kwargs)

    from_array.__lattensor_wrapped__ = original
    core.from_array = from_array
    da.from_array = from_array


def _host_array(x) -> bool:
    return isinstance(x, (np.ndarray, np.generic, list, tuple, int, float, complex, bool))
