"""The ``"lattensor"`` Dask array backend.

``dask.config.set({"array.backend": "lattensor"})`` makes Dask's creation
functions (``da.ones``, ``da.zeros``, ``da.empty``, ``da.full``,
``da.arange``, ``da.from_array``, ``da.random.*`` and the generator of
``da.random.default_rng``) produce lattensor chunks.
Dask finds the backend through the ``dask.array.backends`` entry point in
``pyproject.toml``; :func:`lattensor.dask.register` also registers it
directly, for a source tree that was never installed.
"""

from __future__ import annotations

from functools import partial

import numpy as np
from dask.array.backends import ArrayBackendEntrypoint

from lattensor import _lattensor as _C


def _lattensor_dtype(dtype, default="float64"):
    return _C.as_dtype(dtype if dtype is not None else default)


def _filled_block(shape, value=0, dtype=None, meta=None, **kwargs):
    """One block of a constant array (the block's shape comes first)."""
    del meta, kwargs
    d = _lattensor_dtype(dtype)
    return _C.fill([int(s) for s in shape], _C.cast(_C.convert_to_tensor(value), d))


def _empty_meta(dtype, weak=False):
    meta = _C.zeros([0], _lattensor_dtype(dtype))
    return _C._with_weak(meta, weak) if weak else meta


def _filled(value, shape, dtype=None, chunks="auto", name=None, **kwargs):
    from dask.array.wrap import wrap_func_shape_as_first_arg

    kwargs.pop("meta", None)
    if kwargs.pop("order", "C") != "C":
        raise NotImplementedError("lattensor chunks are row-major: order='C' only")
    if kwargs:
        raise TypeError(f"unexpected keyword arguments for the lattensor backend: {sorted(kwargs)}")
    d = np.dtype(_lattensor_dtype(dtype).as_numpy_dtype)
    return wrap_func_shape_as_first_arg(
        partial(_filled_block, value=value),
        shape,
        dtype=d,
        chunks=chunks,
        name=name,
        meta=_empty_meta(d),
    )


class LattensorBackendEntrypoint(ArrayBackendEntrypoint):
    """Dask's array-creation functions with lattensor chunks."""

    def __init__(self):
        from lattensor.dask._register import register

        register()

    @classmethod
    def to_backend_dispatch(cls):
        from lattensor.dask._register import to_lattensor_dispatch

        return to_lattensor_dispatch

    @classmethod
    def to_backend(cls, data, **kwargs):
        if isinstance(data._meta, _C.Tensor):
            return data
        meta = _empty_meta(data.dtype)
        return data.map_blocks(cls.to_backend_dispatch(), meta=meta, **kwargs)

    @property
    def RandomState(self):
        from lattensor.dask._random import RandomState

        return RandomState

    @property
    def default_bit_generator(self):
        # da.random.default_rng(seed) builds Generator(PhiloxSeed(seed)), spawns
        # one PhiloxSeed per block and draws it with lattensor.random.default_rng
        from lattensor.random._generator import PhiloxSeed

        return PhiloxSeed

    @staticmethod
    def ones(shape, *, dtype=None, meta=None, **kwargs):
        return _filled(1, shape, dtype=dtype, **kwargs)

    @staticmethod
    def zeros(shape, *, dtype=None, meta=None, **kwargs):
        return _filled(0, shape, dtype=dtype, **kwargs)

    @staticmethod
    def empty(shape, *, dtype=None, meta=None, **kwargs):
        # lattensor never hands out uninitialised memory: empty blocks are zeros
        return _filled(0, shape, dtype=dtype, **kwargs)

    @staticmethod
    def full(shape, fill_value, *, dtype=None, meta=None, **kwargs):
        if dtype is None:
            dtype = np.asarray(fill_value).dtype
        return _filled(fill_value, shape, dtype=dtype, **kwargs)

    @staticmethod
    def arange(start, /, stop=None, step=1, *, dtype=None, meta=None, **kwargs):
        import dask
        import dask.array as da

        from lattensor.dask._dispatch import from_numpy

        with dask.config.set({"array.backend": "numpy"}):
            x = da.arange(start, stop, step, dtype=dtype, **kwargs)
        return x.map_blocks(from_numpy, meta=_empty_meta(x.dtype), dtype=x.dtype)
