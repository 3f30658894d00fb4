"""The ndarray methods Dask calls on blocks, for lattensor tensors.

Dask's reductions call methods of the blocks themselves, not only NumPy
functions: ``block.sum(axis=…, dtype=…, keepdims=…)`` when it combines the
partial sums of ``mean``/``var``/``std`` (``dask/array/reductions.py``), and
``block.squeeze(axis)`` after a contraction (``dask/array/routines.py``).
:func:`install` gives ``lattensor.Tensor`` the ones it lacks; each calls the
NumPy function of the same name on the tensor, which lattensor's NumPy
protocol (``lattensor/_numpy_protocols.py``) computes, so a method gives what
``np.sum(t, ...)`` gives.
"""

from __future__ import annotations

import numpy as np

from lattensor import _lattensor as _C

#: ndarray reduction methods Dask calls on blocks, with the keywords each takes
_REDUCTIONS = {
    "sum": ("dtype", "out"),
    "prod": ("dtype", "out"),
    "max": ("out",),
    "min": ("out",),
    "any": ("out",),
    "all": ("out",),
    "mean": ("dtype", "out"),
    "var": ("dtype", "out", "ddof"),
    "std": ("dtype", "out", "ddof"),
}


def _method(name, accepted):
    func = getattr(np, name)

    def method(self, axis=None, dtype=None, out=None, keepdims=False, **kwargs):
        given = dict(kwargs, dtype=dtype, out=out)
        extra = {k: v for k, v in given.items() if v is not None and k in accepted}
        unknown = sorted(k for k, v in given.items() if v is not None and k not in accepted)
        if unknown:
            raise TypeError(f"Tensor.{name}: unexpected keyword arguments {unknown}")
        return func(self, axis=axis, keepdims=keepdims, **extra)

    method.__name__ = name
    method.__doc__ = f"``numpy.{name}(self, axis, ..., keepdims)``, computed by lattensor's NumPy protocol."
    return method


def _squeeze(self, axis=None):
    """``ndarray.squeeze``: drops the size-1 axes (all of them, or ``axis``)."""
    return np.squeeze(self, axis=axis)


def install() -> None:
    """Gives ``Tensor`` the reduction methods and ``squeeze`` it lacks (the
    ones it has — ``max``, ``min``, ``mean``, ``var`` — are kept)."""
    T = _C.Tensor
    for name, accepted in _REDUCTIONS.items():
        if not hasattr(T, name):
            setattr(T, name, _method(name, accepted))
    if not hasattr(T, "squeeze"):
        T.squeeze = _squeeze
