"""``DType.dtype``: the NumPy dtype of a lattensor dtype.

NumPy converts any object with a ``dtype`` attribute holding a NumPy dtype, so
this makes ``np.dtype(lattensor.float16)``, ``np.empty(n, lattensor.bfloat16)``
and ``np.zeros(1, dtype=t.dtype)`` work — the calls Dask makes on an array's
dtype, which for a Dask array of lattensor chunks is the chunks' lattensor
dtype. bfloat16 maps to ``ml_dtypes.bfloat16``.
"""

from __future__ import annotations

from lattensor import _lattensor as _C


def _numpy_dtype(self):
    """The NumPy dtype of this dtype (``numpy.dtype(self.as_numpy_dtype)``)."""
    import numpy as np

    return np.dtype(self.as_numpy_dtype)


# The NumPy dtype attributes code written for NumPy dtypes reads (Dask reads
# `x.dtype.itemsize`, `.kind` and `.type` of an array's dtype).
_DELEGATED = ("itemsize", "kind", "type", "char", "str", "byteorder", "alignment", "num", "descr", "isnative")


def _delegate(attr):
    return property(lambda self: getattr(_numpy_dtype(self), attr), doc=f"``numpy.dtype.{attr}`` of this dtype.")


def install() -> None:
    """Gives ``lattensor.DType`` its ``dtype`` property and NumPy's dtype attributes."""
    _C.DType.dtype = property(_numpy_dtype)
    for attr in _DELEGATED:
        if not hasattr(_C.DType, attr):
            setattr(_C.DType, attr, _delegate(attr))
