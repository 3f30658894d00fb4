"""The NumPy functions Dask calls on blocks, computed by ``lattensor.array_api``.

Dask's reductions and contractions call NumPy on each block: ``np.sum(block,
axis=…, keepdims=True)``, ``np.max``, ``np.stack``, ``np.full_like``,
``np.matmul``, ``block.sum(…)``. Without a NumPy protocol on
``lattensor.Tensor`` NumPy converts the block to an ``ndarray`` and the chunk
silently stops being a lattensor tensor.

:func:`install` gives ``Tensor`` an ``__array_function__`` and an
``__array_ufunc__`` that handle exactly the calls in :data:`_FUNCTIONS` and
NumPy ufuncs with an ``array_api`` counterpart, and hands every other function
to NumPy's own implementation (the behaviour without the protocol), plus the
reduction methods NumPy's ``_wrapreduction`` and Dask call on blocks (``sum``,
``prod``, ``max``, ``min``, ``any``, ``all``, ``mean``, ``var``, ``std``). It
does nothing when ``Tensor`` already has ``__array_function__`` (lattensor's
general NumPy protocols take precedence).
"""

from __future__ import annotations

import numpy as np

from lattensor import _lattensor as _C


def _xp():
    from lattensor import array_api as xp

    return xp


def _t(x):
    if isinstance(x, _C.Tensor):
        return x
    if isinstance(x, (bool, int, float, complex)):
        return x
    return _C.convert_to_tensor(np.asarray(x))


def _no_out(kwargs, name):
    out = kwargs.pop("out", None)
    if out is not None:
        raise TypeError(f"numpy.{name} on a lattensor tensor: out= is not supported (tensors are immutable)")
    for k in ("initial", "where"):
        if k in kwargs:
            raise TypeError(f"numpy.{name} on a lattensor tensor: {k}= is not supported")
    return kwargs


def _axis(axis):
    if axis is None:
        return None
    return tuple(axis) if isinstance(axis, (tuple, list)) else axis


def _reduction(name):
    def f(a, axis=None, dtype=None, out=None, keepdims=False, **kwargs):
        _no_out(dict(kwargs, out=out), name)
        x = _t(a)
        xp = _xp()
        extra = {}
        d = None if dtype is None else _C.as_dtype(dtype)
        if d is not None and d != x.dtype and name in ("sum", "prod", "mean"):
            # NumPy accumulates in `dtype`: convert first (the standard's
            # namespace has no float16/bfloat16 `dtype=` to pass instead)
            x = _C.cast(x, d)
        # float16 and bfloat16 are not the standard's dtypes: tnp's reductions
        # take them (accumulating in float32)
        low = x.dtype in (_C.float16, _C.bfloat16)
        if low:
            from lattensor.experimental import numpy as xp
        if name in ("var", "std"):
            extra["ddof" if low else "correction"] = kwargs.pop("ddof", 0)
        if kwargs:
            raise TypeError(f"numpy.{name} on a lattensor tensor: unsupported keywords {sorted(kwargs)}")
        out_t = getattr(xp, name)(x, axis=_axis(axis), keepdims=bool(keepdims), **extra)
        if d is not None and out_t.dtype != d:
            out_t = _C.cast(out_t, d)
        return out_t

    f.__name__ = name
    return f


def _like(kind):
    def f(a, *args, dtype=None, order="K", subok=True, shape=None, **kwargs):
        del order, subok
        x = _t(a)
        shape = tuple(x.shape) if shape is None else ((shape,) if isinstance(shape, int) else tuple(shape))
        d = _C.as_dtype(dtype) if dtype is not None else x.dtype
        if kind != "full" and args:
            d = _C.as_dtype(args[0]) if args[0] is not None else d
        if kind == "full":
            value = args[0] if args else kwargs.pop("fill_value")
            if len(args) > 1:
                d = _C.as_dtype(args[1]) if args[1] is not None else d
        else:
            value = 1 if kind == "ones" else 0
        return _C.fill(list(shape), _C.cast(_C.convert_to_tensor(value), d))

    return f


def _concatenate(arrays, axis=0, out=None, dtype=None, casting=None):
    del casting
    _no_out({"out": out}, "concatenate")
    out_t = _xp().concat([_t(a) for a in arrays], axis=axis)
    return out_t if dtype is None else _C.cast(out_t, _C.as_dtype(dtype))


def _stack(arrays, axis=0, out=None, dtype=None, casting=None):
    del casting
    _no_out({"out": out}, "stack")
    out_t = _xp().stack([_t(a) for a in arrays], axis=axis)
    return out_t if dtype is None else _C.cast(out_t, _C.as_dtype(dtype))


def _broadcast_to(array, shape, subok=False):
    del subok
    return _xp().broadcast_to(_t(array), tuple(shape) if not isinstance(shape, int) else (shape,))


def _where(condition, x=None, y=None):
    if x is None and y is None:
        return NotImplemented
    return _xp().where(_t(condition), _t(x), _t(y))


def _transpose(a, axes=None):
    x = _t(a)
    axes = tuple(reversed(range(x.ndim))) if axes is None else tuple(axes)
    return _xp().permute_dims(x, axes)


def _reshape(a, shape=None, order="C", *, newshape=None, copy=None):
    del copy
    if order != "C":
        return NotImplemented
    shape = newshape if shape is None else shape
    return _xp().reshape(_t(a), (shape,) if isinstance(shape, int) else tuple(shape))


def _einsum(*operands, out=None, dtype=None, order="K", casting="safe", optimize=False):
    from lattensor.dask._dispatch import einsum

    _no_out({"out": out}, "einsum")
    del order, casting, optimize
    subscripts, *ops = operands
    return einsum(subscripts, *ops, dtype=dtype)


def _tensordot(a, b, axes=2):
    from lattensor.dask._dispatch import tensordot

    return tensordot(a, b, axes=axes)


def _round(a, decimals=0, out=None):
    """``np.round``: NumPy's method, round half to even of ``a * 10**decimals``,
    scaled back (integers are returned as they are for ``decimals >= 0``)."""
    _no_out({"out": out}, "round")
    x = _t(a)
    if decimals == 0:
        return _xp().round(x)
    if not (x.dtype.is_floating or x.dtype.is_complex):
        return x if decimals > 0 else NotImplemented
    scale = 10.0**decimals
    return _xp().round(x * scale) / scale


def _isnan(x):
    return _xp().isnan(_t(x))


_FUNCTIONS = {
    np.sum: _reduction("sum"),
    np.prod: _reduction("prod"),
    np.max: _reduction("max"),
    np.amax: _reduction("max"),
    np.min: _reduction("min"),
    np.amin: _reduction("min"),
    np.any: _reduction("any"),
    np.all: _reduction("all"),
    np.mean: _reduction("mean"),
    np.var: _reduction("var"),
    np.std: _reduction("std"),
    np.concatenate: _concatenate,
    np.stack: _stack,
    np.full_like: _like("full"),
    np.zeros_like: _like("zeros"),
    np.ones_like: _like("ones"),
    np.empty_like: _like("zeros"),
    np.broadcast_to: _broadcast_to,
    np.where: _where,
    np.transpose: _transpose,
    np.reshape: _reshape,
    np.einsum: _einsum,
    np.tensordot: _tensordot,
    np.round: _round,
    np.around: _round,
}


def _array_function(self, func, types, args, kwargs):
    impl = _FUNCTIONS.get(func)
    if impl is not None:
        out = impl(*args, **kwargs)
        if out is not NotImplemented:
            return out
    implementation = getattr(func, "_implementation", None)
    if implementation is None:
        # a C-level creation function called with like=tensor (np.array,
        # np.empty, np.arange…): NumPy builds it, the result is a tensor
        kwargs = {k: v for k, v in kwargs.items() if k != "like"}
        out = func(*args, **kwargs)
        return _C.convert_to_tensor(out) if isinstance(out, np.ndarray) else out
    # everything else: NumPy's own implementation, as without the protocol
    # (it calls NumPy functions and ufuncs on the tensor, which come back here)
    return implementation(*args, **kwargs)


_REDUCE = {"add": "sum", "multiply": "prod", "maximum": "max", "minimum": "min", "logical_and": "all", "logical_or": "any"}


def _array_ufunc(self, ufunc, method, *inputs, **kwargs):
    from lattensor.dask._lattice import _UFUNC_NAMES, ArrayApiUfunc

    xp = _xp()
    if method == "__call__":
        name = _UFUNC_NAMES.get(ufunc.__name__, ufunc.__name__)
        if kwargs.pop("out", None) is not None or kwargs.pop("where", True) is not True:
            return NotImplemented
        dtype = kwargs.pop("dtype", None)
        if kwargs or not callable(getattr(xp, name, None)):
            return NotImplemented
        out = ArrayApiUfunc(name)(*inputs)
        return out if dtype is None else _C.cast(out, _C.as_dtype(dtype))
    if method == "reduce" and ufunc.__name__ in _REDUCE:
        return _reduction(_REDUCE[ufunc.__name__])(*inputs, **kwargs)
    return NotImplemented


def _method(name):
    func = getattr(np, name)

    def m(self, axis=None, dtype=None, out=None, keepdims=False, **kwargs):
        if dtype is not None and name not in ("max", "min", "any", "all"):
            kwargs["dtype"] = dtype
        if out is not None:
            kwargs["out"] = out
        # through the NumPy protocol Tensor has (lattensor's, or the one above)
        return func(self, axis=axis, keepdims=keepdims, **kwargs)

    m.__name__ = name
    m.__doc__ = f"``numpy.{name}(self, ...)``, computed by lattensor."
    return m


def _squeeze(self, axis=None):
    """``ndarray.squeeze``: drops the size-1 axes (all of them, or ``axis``)."""
    if axis is None:
        axis = tuple(i for i, d in enumerate(self.shape) if d == 1)
    return _xp().squeeze(self, axis=axis if isinstance(axis, tuple) else (axis,))


def install() -> bool:
    """Installs the protocols on ``Tensor`` unless it already has
    ``__array_function__`` (returns whether it did), and the methods Dask
    calls on blocks that ``Tensor`` lacks."""
    T = _C.Tensor
    installed = not hasattr(T, "__array_function__")
    if installed:
        T.__array_function__ = _array_function
        T.__array_ufunc__ = _array_ufunc
    for name in ("sum", "prod", "max", "min", "any", "all", "mean", "var", "std"):
        if not hasattr(T, name):
            setattr(T, name, _method(name))
    if not hasattr(T, "squeeze"):
        T.squeeze = _squeeze
    return installed
