"""``lattensor.experimental.numpy`` (also ``lattensor.numpy``): TF-NumPy.

NumPy-style names and signatures over the same lattice: ``tnp.array(1)`` is
``i32*``, ``tnp.array(1.0)`` is ``f32*``, float functions compute integers in
float32 (``tnp.sqrt(4)`` is ``f32*`` 2.0), ``sum``-like reductions widen small
integers to 32 bits, and weakness is kept — TF 2.21's rules, implemented in
the Rust library (``lattensor::numpy``; docs/deviations.md lists where TF
breaks them and lattensor does not).

``experimental_enable_numpy_behavior(dtype_conversion_mode=...)`` sets the
process-wide promotion mode; ``lattensor.promotion_mode("safe")`` scopes one
to a ``with`` block on the calling thread.
"""

from __future__ import annotations

import numpy as _np

from lattensor import _lattensor as _C
from lattensor._api import bind as _bind

_bind(globals(), [n for n in dir(_C.numpy) if not n.startswith("_") and n != "numpy_einsum"], source=_C.numpy)

# tnp's dtype names are NumPy's scalar types, as in TF (every ``dtype=`` argument
# takes them, and ``lattensor.float32 == tnp.float32``); its constants are NumPy's.
bool_ = _np.bool_
int8, int16, int32, int64 = _np.int8, _np.int16, _np.int32, _np.int64
uint8, uint16, uint32, uint64 = _np.uint8, _np.uint16, _np.uint32, _np.uint64
float16, float32, float64 = _np.float16, _np.float32, _np.float64
complex64, complex128 = _np.complex64, _np.complex128
float_, int_, complex_ = _np.float64, _np.int64, _np.complex128
pi, e, inf, nan, newaxis = _np.pi, _np.e, _np.inf, _np.nan, None
iinfo, finfo = _np.iinfo, _np.finfo
ndarray = _C.Tensor


def experimental_enable_numpy_behavior(prefer_float32: bool = False, dtype_conversion_mode: str = "legacy") -> None:
    """Sets the process-wide promotion mode, like TF's function of that name.

    ``dtype_conversion_mode`` is ``"all"`` or ``"safe"`` (the lattice),
    ``"legacy"`` (NumPy's rules) or ``"off"`` (no implicit promotion between
    strong dtypes). Unlike TF, it may be called at any time, any number of
    times; threads inside a ``lattensor.promotion_mode`` block keep theirs.
    ``prefer_float32`` is accepted for compatibility and has no effect.
    """
    del prefer_float32
    _C.set_promotion_mode(dtype_conversion_mode)


def concatenate(arys, axis=0):
    """``tnp.concatenate``: joins along ``axis`` (``None``: the flattened inputs);
    dtypes promote through the lattice (dtype and weakness, as ``+`` joins them)."""
    if axis is None:
        return _C.concat([ravel(a) for a in arys], 0)
    return _C.concat(list(arys), axis)


def stack(arrays, axis=0):
    """``tnp.stack``: joins equal shapes along a new axis; dtypes promote through the lattice."""
    return _C.stack(list(arrays), axis)


def where(condition, x=None, y=None):
    """``tnp.where(condition, x, y)``: ``x`` where ``condition`` is true (nonzero), else
    ``y``, broadcast; ``x`` and ``y`` promote through the lattice. The one-argument
    form (indices) is not implemented."""
    if x is None or y is None:
        return _C.where(condition, x, y)
    c = _C.convert_to_tensor(condition)
    if c.dtype != _C.bool:
        c = _C.not_equal(c, 0)
    return _C.where(c, x, y)
