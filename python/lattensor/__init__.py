"""lattensor: tensors with TensorFlow-NumPy's lattice-based type promotion.

A TF-NumPy program ports by changing its imports::

    import lattensor as tf
    import lattensor.experimental.numpy as tnp

    tf.constant(5)                    # <lattensor.Tensor: shape=(), dtype=int32, numpy=5, weak=True>
    tf.constant(1.2) + tf.constant(3.1, tf.float16)   # float16: the weak literal adapts
    with tf.promotion_mode("safe"):
        tf.constant(1, tf.int32) + tf.constant(1.0, tf.float32)   # TypeError
    with tf.promotion_mode("all", compare_with="legacy") as scope:
        ...                           # runs under ALL; scope.report() lists what legacy would change

Python values are inferred as TF infers them (``int`` → ``i32*``, ``float``
→ ``f32*``, ``complex`` → ``c128*``, ``bool`` → ``bool``, NumPy values keep
their dtype); every op promotes through one lattice in the current mode
(``all`` by default; ``safe``, ``strict`` and ``numpy`` on request).
"""

from __future__ import annotations

import collections as _collections
import sys as _sys

from lattensor import _lattensor
from lattensor._api import bind as _bind
from lattensor._lattensor import (
    DType,
    PromotionChangeWarning,
    PromotionReport,
    Tensor,
    Variable,
    as_dtype,
    from_dlpack,
    get_promotion_mode,
    promotion_mode,
    result_type,
    set_promotion_mode,
)

# dtypes (tf.int32, …); `bool` is bound last so this module can still use the builtin above it
uint8 = _lattensor.uint8
uint16 = _lattensor.uint16
uint32 = _lattensor.uint32
uint64 = _lattensor.uint64
int8 = _lattensor.int8
int16 = _lattensor.int16
int32 = _lattensor.int32
int64 = _lattensor.int64
bfloat16 = _lattensor.bfloat16
float16 = half = _lattensor.float16
float32 = _lattensor.float32
float64 = double = _lattensor.float64
complex64 = _lattensor.complex64
complex128 = _lattensor.complex128
# the storage-and-cast dtypes (ml_dtypes' types; TF 2.21 has the float8_e4m3fn,
# float8_e5m2, int4 and uint4 names among them)
float8_e4m3fn = _lattensor.float8_e4m3fn
float8_e5m2 = _lattensor.float8_e5m2
float8_e4m3fnuz = _lattensor.float8_e4m3fnuz
float8_e5m2fnuz = _lattensor.float8_e5m2fnuz
float8_e8m0fnu = _lattensor.float8_e8m0fnu
float4_e2m1fn = _lattensor.float4_e2m1fn
int4 = _lattensor.int4
uint4 = _lattensor.uint4

# top-level functions, as in TF
_bind(
    globals(),
    """
    constant convert_to_tensor cast bitcast einsum identity stop_gradient clip_by_value expand_dims
    reshape squeeze transpose zeros_like ones_like zeros ones fill broadcast_to eye linspace range realdiv
    truncatediv truncatemod add subtract multiply divide truediv abs pow maximum minimum equal
    not_equal less less_equal greater greater_equal negative sign sqrt square exp round matmul
    reduce_sum reduce_mean reduce_max reduce_min reduce_prod reduce_any reduce_all
    max_tensor_bytes set_max_tensor_bytes
    acos acosh asin asinh atan atan2 atanh cos cosh sin sinh tan tanh floor sigmoid
    logical_and logical_not logical_or reduce_logsumexp scalar_mul concat stack argmax argmin gather
    split pad one_hot saturate_cast
    """.split(),
)

from lattensor import bitwise, debugging, dtypes, errors, experimental, image, linalg, math, nn, random, raw_ops, signal  # noqa: E402
from lattensor._autodiff import GradientTape, UnconnectedGradients, custom_gradient  # noqa: E402
from lattensor import array_api  # noqa: E402,F401 (also gives Tensor its Array API methods)
from lattensor import _numpy_protocols  # noqa: E402,F401 (NumPy's __array_ufunc__ / __array_function__ on Tensor)


def shape(input, out_type=None, name=None):  # noqa: A002 (TF's name)
    """``tf.shape(input, out_type=tf.int32)``: the shape as a strong 1-D integer tensor."""
    del name
    import numpy as np

    dims = [int(d) for d in _lattensor.convert_to_tensor(input).shape]
    return _lattensor.cast(_lattensor.constant(np.asarray(dims, np.int64).reshape(len(dims))), out_type or int32)


def size(input, out_type=None, name=None):  # noqa: A002 (TF's name)
    """``tf.size(input, out_type=tf.int32)``: the number of elements, a strong scalar."""
    del name
    import numpy as np

    n = int(np.prod([int(d) for d in _lattensor.convert_to_tensor(input).shape], dtype=np.int64))
    return _lattensor.cast(_lattensor.constant(np.int64(n)), out_type or int32)


def rank(input, name=None):  # noqa: A002 (TF's name)
    """``tf.rank(input)``: the number of axes, a strong int32 scalar."""
    del name
    import numpy as np

    return _lattensor.constant(np.int32(_lattensor.convert_to_tensor(input).ndim))


def where(condition, x=None, y=None, name=None):
    """``tf.where(condition, x, y)``: ``x`` where ``condition`` (bool) holds, else ``y``,
    broadcast; ``x`` and ``y`` promote through the lattice. ``tf.where(condition)``: the
    coordinates of the true (nonzero) elements, an int64 tensor of shape
    ``[count, rank]`` in row-major order."""
    del name
    if x is None and y is None:
        import numpy as np

        truth = experimental.numpy._truth(condition)
        return _lattensor.constant(np.argwhere(np.asarray(truth)).astype(np.int64))
    return _lattensor.where(condition, x, y)


_Unique = _collections.namedtuple("Unique", ["y", "idx"])
_UniqueWithCounts = _collections.namedtuple("UniqueWithCounts", ["y", "idx", "count"])


def unique(x, out_idx=None, name=None):
    """``tf.unique(x, out_idx=tf.int32)``: ``(y, idx)``, a named tuple: the distinct values
    of the 1-D ``x`` in order of first occurrence (``x``'s dtype), and for each element of
    ``x`` the position of its value in ``y`` (``out_idx``: int32 or int64). Values compare
    with ``==``, as in TF: ``-0.0 == 0.0`` (the first is kept) and every NaN is distinct.
    Strong results, as TF's."""
    return _Unique(*_lattensor.unique(x, out_idx, name))


def unique_with_counts(x, out_idx=None, name=None):
    """``tf.unique_with_counts(x, out_idx=tf.int32)``: ``(y, idx, count)``, a named tuple:
    ``unique``'s ``y`` and ``idx`` and how many elements of ``x`` equal each value of ``y``."""
    return _UniqueWithCounts(*_lattensor.unique_with_counts(x, out_idx, name))


numpy = experimental.numpy
_sys.modules[__name__ + ".numpy"] = experimental.numpy

bool = _lattensor.bool  # noqa: A001 (TF's name)

__version__ = "0.1.0"

from lattensor import _dask_hook, _numpy_dtype, _pickle  # noqa: E402

_numpy_dtype.install()  # np.dtype(lattensor.float16) is numpy.float16
_pickle.install()  # protocol-5 pickling: tensor data out of band
_dask_hook.install()  # registers with Dask when dask.array is (or gets) imported

