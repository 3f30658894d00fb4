"""``lattensor.experimental.numpy.random``: TF-NumPy's ``tnp.random``.

The same names, signatures and dtypes as TF 2.21 (floats are float32,
``randint`` and ``poisson`` give int64 by default), drawn from the
process-wide generator of :mod:`lattensor.random`: ``seed(s)`` makes the
following calls repeat from run to run. The values follow the same
distributions as TF's but are not TF's streams (docs/deviations.md). Unlike
TF 2.21, ``random(3)`` and ``uniform(0, 1, 3)`` accept an int ``size`` as
NumPy does.
"""

from __future__ import annotations

import numpy as _np

from lattensor import _lattensor as _C
from lattensor import random as _random
from lattensor.random import _seeds

__all__ = ["poisson", "rand", "randint", "randn", "random", "seed", "standard_normal", "uniform"]


def seed(s):
    """``tnp.random.seed(s)``: restarts the process-wide generator (an integer,
    or anything ``int()`` takes, as TF)."""
    try:
        s = int(s)
    except TypeError:
        raise ValueError(f"Argument `s` got an invalid value {s}. Only integers are supported.") from None
    _random.set_seed(s)


def _size(size):
    """NumPy's ``size``: ``None`` is a scalar, an int a vector."""
    if size is None:
        return []
    return [int(d) for d in _np.atleast_1d(_np.asarray(size, dtype=_np.int64))]


def standard_normal(size=None):
    """``tnp.random.standard_normal(size=None)``: float32 standard normals."""
    return _random.normal(_size(size), dtype=_C.float32)


def randn(*args):
    """``tnp.random.randn(d0, d1, ...)``: float32 standard normals of that shape."""
    return standard_normal(size=args)


def uniform(low=0.0, high=1.0, size=None):
    """``tnp.random.uniform(low=0.0, high=1.0, size=None)``: float32 values in
    ``[low, high)``; ``low`` and ``high`` may be arrays (``size`` defaults to
    their broadcast shape)."""
    low = _C.cast(_C.convert_to_tensor(low), _C.float32)
    high = _C.cast(_C.convert_to_tensor(high), _C.float32)
    shape = _np.broadcast_shapes(tuple(low.shape), tuple(high.shape)) if size is None else _size(size)
    u = _random.uniform(list(shape), dtype=_C.float32)
    return u * (high - low) + low


def random(size=None):
    """``tnp.random.random(size=None)``: float32 values in ``[0, 1)``."""
    return uniform(0.0, 1.0, size)


def rand(*size):
    """``tnp.random.rand(d0, d1, ...)``: float32 values in ``[0, 1)`` of that shape."""
    return uniform(0.0, 1.0, size)


def randint(low, high=None, size=None, dtype=_np.int64):
    """``tnp.random.randint(low, high=None, size=None, dtype=int64)``: integers in
    ``[low, high)`` (``[0, low)`` without ``high``); int32 or int64."""
    low = int(low)
    if high is None:
        low, high = 0, low
    d = _C.as_dtype(dtype)
    if d not in (_C.int32, _C.int64):
        raise ValueError(
            f"Argument `dtype` got an invalid value {dtype}. Only those convertible to "
            "(<class 'numpy.int32'>, <class 'numpy.int64'>) are supported."
        )
    return _random.uniform(_size(size), low, int(high), dtype=d)


def poisson(lam=1.0, size=None):
    """``tnp.random.poisson(lam=1.0, size=None)``: int64 counts of shape
    ``size + lam.shape`` (TF's shape rule; NumPy broadcasts ``lam`` to ``size``)."""
    return _random.poisson(_size(size), lam, dtype=_C.int64)
