"""Pickling of tensors with protocol 5: the data travels out of band.

``Tensor.__reduce__`` (Rust) copies the data into a ``bytes`` object inside the
pickle stream, which every protocol understands. With protocol 5 (what Dask's
``distributed`` uses between processes) ``Tensor.__reduce_ex__`` hands the
tensor's memory to pickle as a :class:`pickle.PickleBuffer` instead: a pickler
with a ``buffer_callback`` sends it beside the stream without copying it into
the stream, and one without a callback writes it in-band, as before. The
dtype travels by name and the weak flag as a bool, so bfloat16, float16,
complex and bool tensors round-trip bit-exactly and keep their weakness.
"""

from __future__ import annotations

import pickle

import numpy as np

from lattensor import _lattensor as _C


def _raw_bytes(t) -> np.ndarray:
    """The tensor's elements as a flat, C-ordered uint8 array, a view of the
    tensor's own memory when the tensor is contiguous (a copy otherwise)."""
    a = np.asarray(t)  # zero-copy, read-only view; bfloat16 through ml_dtypes
    if not a.flags.c_contiguous:
        a = np.ascontiguousarray(a)
    return a.reshape(-1).view(np.uint8)


def _rebuild(buffer, shape, dtype, weak):
    """Unpickles a tensor from its raw bytes (any object with the buffer
    protocol: ``bytes`` in-band, the receiver's frame out of band). The bytes
    are copied once, into lattensor's 64-byte-aligned storage."""
    descr = np.dtype(_C.as_dtype(dtype).as_numpy_dtype)
    a = np.frombuffer(buffer, dtype=descr).reshape(shape)
    return _C._with_weak(_C.convert_to_tensor(a), weak)


def _reduce_ex(self, protocol):
    """``Tensor.__reduce_ex__``: out-of-band data for protocol 5 and above,
    ``Tensor.__reduce__`` (data in the stream) below."""
    if protocol < 5:
        return self.__reduce__()
    data = pickle.PickleBuffer(_raw_bytes(self))
    return _rebuild, (data, tuple(int(d) for d in self.shape), self.dtype.name, bool(self.weak))


def install() -> None:
    """Gives ``lattensor.Tensor`` its protocol-5 ``__reduce_ex__``."""
    _C.Tensor.__reduce_ex__ = _reduce_ex
