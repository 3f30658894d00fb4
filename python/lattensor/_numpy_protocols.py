"""NumPy's dispatch protocols on ``lattensor.Tensor`` and ``lattensor.Variable``:
NEP 13 ``__array_ufunc__`` (``np.add(t, 1)``, ``np.exp(t)``, ``np.add.reduce(t)``)
and NEP 18 ``__array_function__`` (``np.sum(t, axis=0)``, ``np.concatenate``,
``np.einsum``, ...).

What a call returns:

* **Mapped** functions and ufuncs (``HANDLED_UFUNCS``, ``HANDLED_FUNCTIONS``)
  run on lattensor's kernels through ``lattensor.array_api`` and return
  lattensor tensors; gradient tapes record them as they record the namespace's
  functions.
* Every **other** NumPy function (``np.linalg.norm``, ``np.histogram``,
  ``np.percentile``, ...) and every unmapped ufunc or keyword (``where=``,
  ``initial=``) falls back to NumPy on the host data: tensors become NumPy
  arrays (a zero-copy view), NumPy runs, and array results come back as new
  strong lattensor tensors, as the namespace's host paths do (so chunk types
  stay closed for Dask). Non-array results (Python numbers, dtypes, bools)
  come back as NumPy returns them. The fall-back is not differentiable.
* ``np.asarray(t)`` / ``np.array(t)`` do not dispatch: they are the escape
  hatch to a NumPy array.

Promotion follows ``lattensor.array_api``: NumPy arrays and NumPy scalars are
strong tensors of their dtype, Python scalars are weak, and mixed kinds meet in
the lattice (``int64`` with ``float32`` is ``float32``, where NumPy says
``float64``). NumPy never writes into a tensor: an ``out=`` tensor and
``ufunc.at`` on a tensor raise ``TypeError``; an ``out=`` NumPy array (``ndarray += tensor``) is
NumPy's to write into, so NumPy computes that call.
"""

from __future__ import annotations

import builtins as _b
import operator as _operator
import warnings as _warnings

import numpy as _np

from lattensor import _lattensor as _C
import lattensor.array_api as _xp

Tensor = _C.Tensor
Variable = _C.Variable
_NoValue = _np._NoValue
_SCALARS = (_b.bool, int, float, complex)


class _Fallback(Exception):
    """Raised by a mapped implementation for an input it leaves to NumPy."""


# ---------------------------------------------------------------------------
# conversions
# ---------------------------------------------------------------------------


def _lt_dtype(np_dtype):
    """lattensor's dtype for a NumPy dtype, or ``_Fallback`` when it has none."""
    try:
        return _C.as_dtype(_np.dtype(np_dtype))
    except Exception:  # noqa: BLE001 (object, str, datetime, float128, ...)
        raise _Fallback from None


def _dtype_kw(dtype):
    """A ``dtype=`` keyword (NumPy's spellings or lattensor's ``DType``) as a ``DType``."""
    if dtype is None or isinstance(dtype, _C.DType):
        return dtype
    return _lt_dtype(dtype)


def _tensor(x):
    """An operand as a tensor: tensors as they are, a variable's value (read under
    any tape), NumPy arrays and scalars and Python sequences as strong tensors.
    Python scalars stay Python scalars (weak)."""
    if isinstance(x, Tensor):
        return x
    if isinstance(x, Variable):
        return x.value()
    if isinstance(x, _SCALARS):
        return x
    if isinstance(x, (_np.ndarray, _np.generic, list, tuple)):
        a = _np.asarray(x)
        if a.dtype == object:
            raise _Fallback
        _lt_dtype(a.dtype)
        return _C.constant(a if a.flags.c_contiguous else _np.ascontiguousarray(a))
    raise _Fallback


def _strict_tensor(x):
    """As ``_tensor``, but a Python scalar becomes a tensor too (NumPy's default dtypes)."""
    x = _tensor(x)
    return _xp.asarray(x) if isinstance(x, _SCALARS) else x


def _to_numpy(obj):
    """``obj`` with every tensor or variable replaced by a NumPy array (recursively)."""
    if isinstance(obj, (Tensor, Variable)):
        return _np.asarray(obj)
    if isinstance(obj, list):
        return [_to_numpy(o) for o in obj]
    if isinstance(obj, tuple) and not hasattr(obj, "_fields"):
        return tuple(_to_numpy(o) for o in obj)
    if isinstance(obj, dict):
        return {k: _to_numpy(v) for k, v in obj.items()}
    return obj


def _from_numpy(obj):
    """NumPy results as strong tensors (where lattensor has their dtype), recursively
    through tuples, lists and named tuples; other values unchanged."""
    if isinstance(obj, (_np.ndarray, _np.generic)):
        try:
            _lt_dtype(obj.dtype)
        except _Fallback:
            return obj
        a = _np.asarray(obj)
        return _C.constant(a if a.flags.c_contiguous and a.flags.writeable else a.copy(order="C"))
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):
        return type(obj)(*(_from_numpy(o) for o in obj))
    if isinstance(obj, (list, tuple)):
        return type(obj)(_from_numpy(o) for o in obj)
    return obj


def _outs(out):
    return out if isinstance(out, tuple) else (out,)


class _NumpyOut(_Fallback):
    """Raised for an ``out=`` of NumPy arrays: NumPy computes into them."""


def _refuse_out(name, out):
    """``out=``: NumPy does not write into tensors, so a tensor (or anything but a NumPy array)
    is refused with ``TypeError``; NumPy arrays (``ndarray += tensor``) are left to
    NumPy, which writes into them."""
    given = [o for o in _outs(out) if o is not None]
    if not given:
        return
    if all(type(o) is _np.ndarray for o in given):
        raise _NumpyOut
    raise TypeError(
        f"{name}: argument 'out' must be None or a NumPy array, got {type(given[0]).__name__}: "
        f"NumPy does not write into lattensor tensors; use the returned value"
    )


def _int(v):
    return _operator.index(v)


def _axis(axis):
    """NumPy's ``axis`` (an int, NumPy int, sequence or None) as the namespace wants it."""
    if axis is None:
        return None
    if isinstance(axis, (list, tuple)):
        return tuple(_int(a) for a in axis)
    return _int(axis)


def _keep(keepdims):
    return False if keepdims is _NoValue else _b.bool(keepdims)


def _given(v):
    return v is not _NoValue and v is not None


# ---------------------------------------------------------------------------
# ufuncs (NEP 13)
# ---------------------------------------------------------------------------

_UNARY = {
    "absolute": _xp.abs, "arccos": _xp.acos, "arccosh": _xp.acosh, "arcsin": _xp.asin,
    "arcsinh": _xp.asinh, "arctan": _xp.atan, "arctanh": _xp.atanh, "ceil": _xp.ceil,
    "conjugate": _xp.conj, "cos": _xp.cos, "cosh": _xp.cosh, "exp": _xp.exp, "expm1": _xp.expm1,
    "floor": _xp.floor, "invert": _xp.bitwise_invert, "isfinite": _xp.isfinite, "isinf": _xp.isinf,
    "isnan": _xp.isnan, "log": _xp.log, "log10": _xp.log10, "log1p": _xp.log1p, "log2": _xp.log2,
    "logical_not": _xp.logical_not, "negative": _xp.negative, "positive": _xp.positive,
    "reciprocal": _xp.reciprocal, "rint": _xp.round, "sign": _xp.sign, "signbit": _xp.signbit,
    "sin": _xp.sin, "sinh": _xp.sinh, "sqrt": _xp.sqrt, "square": _xp.square, "tan": _xp.tan,
    "tanh": _xp.tanh, "trunc": _xp.trunc,
}
_BINARY = {
    "add": _xp.add, "arctan2": _xp.atan2, "bitwise_and": _xp.bitwise_and, "bitwise_or": _xp.bitwise_or,
    "bitwise_xor": _xp.bitwise_xor, "copysign": _xp.copysign, "divide": _xp.divide, "equal": _xp.equal,
    "floor_divide": _xp.floor_divide, "greater": _xp.greater, "greater_equal": _xp.greater_equal,
    "hypot": _xp.hypot, "left_shift": _xp.bitwise_left_shift, "less": _xp.less,
    "less_equal": _xp.less_equal, "logaddexp": _xp.logaddexp, "logical_and": _xp.logical_and,
    "logical_or": _xp.logical_or, "logical_xor": _xp.logical_xor, "maximum": _xp.maximum,
    "minimum": _xp.minimum, "multiply": _xp.multiply, "nextafter": _xp.nextafter,
    "not_equal": _xp.not_equal, "power": _xp.pow, "remainder": _xp.remainder,
    "right_shift": _xp.bitwise_right_shift, "subtract": _xp.subtract,
}
_BOOL_RESULT = {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
                "logical_and", "logical_or", "logical_xor", "logical_not", "isnan", "isinf",
                "isfinite", "signbit"}
_LOGICAL = {"logical_and", "logical_or", "logical_xor", "logical_not"}
_BOOL_AS_LOGICAL = {"add": _xp.logical_or, "multiply": _xp.logical_and,
                    "maximum": _xp.logical_or, "minimum": _xp.logical_and}


def _is_bool(a):
    return a.dtype == _C.bool if isinstance(a, Tensor) else isinstance(a, _b.bool)


#: ufunc names that run on lattensor's kernels when called (``np.add(t, 1)``).
HANDLED_UFUNCS = frozenset(_UNARY) | frozenset(_BINARY) | {"matmul"}

_REDUCE = {"add": "sum", "multiply": "prod", "maximum": "max", "minimum": "min",
           "logical_and": "all", "logical_or": "any"}
_ACCUMULATE = {"add": "cumsum", "multiply": "cumprod"}

#: ufunc methods mapped for these ufuncs (``np.add.reduce``, ``np.add.accumulate``,
#: ``np.multiply.outer``); the rest fall back to NumPy.
HANDLED_UFUNC_METHODS = {"reduce": frozenset(_REDUCE), "accumulate": frozenset(_ACCUMULATE),
                         "outer": frozenset(_BINARY)}


def _matmul(a, b):
    """NumPy's matmul (1-D operands are vectors): the namespace's."""
    return _xp.matmul(_strict_tensor(a), _strict_tensor(b))


def _truth(x):
    """NumPy's truth of a value for the logical ufuncs (nonzero is true)."""
    if isinstance(x, Tensor):
        return x if x.dtype == _C.bool else _xp.not_equal(x, 0)
    return _b.bool(x)


def _call_ufunc(ufunc, inputs, kwargs):
    name = ufunc.__name__
    dtype = _dtype_kw(kwargs.pop("dtype", None))
    if kwargs.pop("casting", "same_kind") != "same_kind" or kwargs.pop("order", "K") != "K":
        raise _Fallback
    if kwargs.pop("subok", True) is not True or kwargs.pop("where", True) is not True or kwargs:
        raise _Fallback  # where=, signature=, axes=, ...
    args = [_tensor(x) for x in inputs]
    if dtype is not None:
        if name in _BOOL_RESULT:
            raise _Fallback
        args = [_C.cast(a, dtype) if isinstance(a, Tensor) and a.dtype != dtype else a for a in args]
    if name in _LOGICAL:
        args = [_truth(a) for a in args]
    if name == "matmul":
        return _matmul(*args)
    if len(args) == 1 and name in _UNARY:
        if name == "reciprocal" and args[0].dtype not in _INEXACT:
            raise _Fallback  # NumPy's integer reciprocal (1 / x truncated)
        return _UNARY[name](args[0])
    if len(args) == 2 and name in _BINARY:
        if not any(isinstance(a, Tensor) for a in args):
            raise _Fallback
        if name in _BOOL_AS_LOGICAL and all(_is_bool(a) for a in args):
            return _BOOL_AS_LOGICAL[name](*args)  # NumPy's bool + bool is "or", bool * bool is "and"
        return _BINARY[name](*args)
    raise _Fallback


def _ufunc_reduce(ufunc, inputs, kwargs):
    name = _REDUCE.get(ufunc.__name__)
    if name is None or len(inputs) != 1:
        raise _Fallback
    axis = kwargs.pop("axis", 0)
    dtype = kwargs.pop("dtype", None)
    keepdims = kwargs.pop("keepdims", False)
    if _given(kwargs.pop("initial", _NoValue)) or kwargs.pop("where", True) is not True or kwargs:
        raise _Fallback
    fn = _FUNCTIONS[getattr(_np, name)]
    if name in ("sum", "prod"):
        return fn(inputs[0], axis=axis, dtype=dtype, keepdims=keepdims)
    if dtype is not None:
        raise _Fallback
    return fn(inputs[0], axis=axis, keepdims=keepdims)


def _ufunc_accumulate(ufunc, inputs, kwargs):
    name = _ACCUMULATE.get(ufunc.__name__)
    if name is None or len(inputs) != 1:
        raise _Fallback
    axis = kwargs.pop("axis", 0)
    dtype = kwargs.pop("dtype", None)
    if kwargs:
        raise _Fallback
    return _FUNCTIONS[getattr(_np, name)](inputs[0], axis=axis, dtype=dtype)


def _ufunc_outer(ufunc, inputs, kwargs):
    if ufunc.__name__ not in _BINARY or len(inputs) != 2:
        raise _Fallback
    a, b = (_strict_tensor(x) for x in inputs)
    a = _xp.reshape(a, tuple(a.shape) + (1,) * b.ndim)
    return _call_ufunc(ufunc, (a, b), kwargs)


def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
    """NEP 13: ``np.exp(t)``, ``np.add(t, 1)``, ``ndarray + t``, ``np.add.reduce(t)``
    run on lattensor's kernels (``HANDLED_UFUNCS``); other ufuncs and keywords
    fall back to NumPy on the host data and return tensors. An ``out=`` tensor
    raises ``TypeError`` (NumPy does not write into tensors); ``out=`` NumPy arrays are
    NumPy's to fill."""
    for x in inputs + tuple(o for o in _outs(kwargs.get("out")) if o is not None):
        if not isinstance(x, (Tensor, Variable, _np.ndarray, _np.generic, list, tuple) + _SCALARS):
            if getattr(type(x), "__array_ufunc__", None) is not None:
                return NotImplemented  # another array library decides
    label = f"numpy.{ufunc.__name__}" + ("" if method == "__call__" else f".{method}")
    try:
        _refuse_out(label, kwargs.get("out"))
    except _NumpyOut:  # ``ndarray += tensor``: NumPy writes into its own array
        return getattr(ufunc, method)(*_to_numpy(inputs), **_to_numpy(kwargs))
    kwargs.pop("out", None)
    if method == "at":
        if isinstance(inputs[0], (Tensor, Variable)):
            raise TypeError(f"{label}: NumPy does not write into lattensor tensors, so ufunc.at cannot update one; use x[idx] = ... or the functional ops")
        return getattr(ufunc, method)(*_to_numpy(inputs), **_to_numpy(kwargs))  # updates a NumPy array
    try:
        if method == "__call__":
            return _call_ufunc(ufunc, inputs, dict(kwargs))
        if method == "reduce":
            return _ufunc_reduce(ufunc, inputs, dict(kwargs))
        if method == "accumulate":
            return _ufunc_accumulate(ufunc, inputs, dict(kwargs))
        if method == "outer":
            return _ufunc_outer(ufunc, inputs, dict(kwargs))
    except _Fallback:
        pass
    return _from_numpy(getattr(ufunc, method)(*_to_numpy(inputs), **_to_numpy(kwargs)))


# ---------------------------------------------------------------------------
# functions (NEP 18): each mapped one takes NumPy's signature
# ---------------------------------------------------------------------------

_FUNCTIONS = {}


def _implements(*np_funcs):
    def register(impl):
        for f in np_funcs:
            _FUNCTIONS[f] = impl
        return impl

    return register


def _plain(name, a, where=_NoValue, extra=()):
    """``a`` as a tensor for a mapped reduction; ``where=`` and other options fall back."""
    if where is not _NoValue and where is not True:
        raise _Fallback
    if _b.any(_given(v) for v in extra):
        raise _Fallback
    return _strict_tensor(a)


_INEXACT = _xp._FLOATS + (_C.float16, _C.bfloat16)


def _float_default(x):
    """NumPy's mean / var / std of integers and bools: computed in float64."""
    return x if x.dtype in _INEXACT else _C.cast(x, _C.float64)


def _half_safe(fn, x, **kw):
    """``fn(x)`` for the namespace's float-only statistics; float16 / bfloat16 are
    computed in float32 and rounded back, as NumPy does for float16."""
    if x.dtype in (_C.float16, _C.bfloat16):
        return _C.cast(fn(_C.cast(x, _C.float32), **kw), x.dtype)
    return fn(x, **kw)


def _accumulator(x, dtype):
    """``(x, dtype)`` for the namespace's ``dtype=`` keyword, which takes the
    standard's dtypes: a float16 / bfloat16 accumulator is a cast of ``x`` first."""
    dtype = _dtype_kw(dtype)
    if dtype is not None and dtype in (_C.float16, _C.bfloat16):  # (None == DType asks NumPy: slow)
        return (_C.cast(x, dtype) if x.dtype != dtype else x), None
    return x, dtype


def _exactly(r, dtype):
    """``r`` in the asked-for ``dtype`` (the integer kernels widen small accumulators)."""
    dtype = _dtype_kw(dtype)
    return _C.cast(r, dtype) if dtype is not None and r.dtype != dtype else r


def _sum_like(fn, name):
    def impl(a, axis=None, dtype=None, out=None, keepdims=_NoValue, initial=_NoValue, where=_NoValue):
        _refuse_out(f"numpy.{name}", out)
        x, acc = _accumulator(_plain(name, a, where, (initial,)), dtype)
        return _exactly(fn(x, axis=_axis(axis), dtype=acc, keepdims=_keep(keepdims)), dtype)

    return impl


_implements(_np.sum)(_sum_like(_xp.sum, "sum"))
_implements(_np.prod)(_sum_like(_xp.prod, "prod"))


def _minmax(fn, name):
    def impl(a, axis=None, out=None, keepdims=_NoValue, initial=_NoValue, where=_NoValue):
        _refuse_out(f"numpy.{name}", out)
        x = _plain(name, a, where, (initial,))
        if x.dtype in _xp._COMPLEX:
            raise _Fallback  # NumPy orders complex numbers lexicographically
        return fn(x, axis=_axis(axis), keepdims=_keep(keepdims))

    return impl


_implements(_np.max, _np.amax)(_minmax(_xp.max, "max"))
_implements(_np.min, _np.amin)(_minmax(_xp.min, "min"))


def _anyall(fn, name):
    def impl(a, axis=None, out=None, keepdims=_NoValue, *, where=_NoValue):
        _refuse_out(f"numpy.{name}", out)
        x = _plain(name, a, where)
        return fn(_truth(x), axis=_axis(axis), keepdims=_keep(keepdims))

    return impl


_implements(_np.any)(_anyall(_xp.any, "any"))
_implements(_np.all)(_anyall(_xp.all, "all"))


@_implements(_np.mean)
def _mean(a, axis=None, dtype=None, out=None, keepdims=_NoValue, *, where=_NoValue):
    _refuse_out("numpy.mean", out)
    x = _plain("mean", a, where)
    dtype = _dtype_kw(dtype)
    x = _C.cast(x, dtype) if dtype is not None and x.dtype != dtype else _float_default(x)
    return _half_safe(_xp.mean, x, axis=_axis(axis), keepdims=_keep(keepdims))


def _moment(fn, name):
    def impl(a, axis=None, dtype=None, out=None, ddof=0, keepdims=_NoValue, *, where=_NoValue,
             mean=_NoValue, correction=_NoValue):
        _refuse_out(f"numpy.{name}", out)
        x = _plain(name, a, where, (mean,))
        dtype = _dtype_kw(dtype)
        x = _C.cast(x, dtype) if dtype is not None and x.dtype != dtype else _float_default(x)
        if x.dtype in _xp._COMPLEX:
            raise _Fallback  # the namespace's var / std take real floats
        c = correction if correction is not _NoValue else ddof
        return _half_safe(fn, x, axis=_axis(axis), correction=c, keepdims=_keep(keepdims))

    return impl


_implements(_np.var)(_moment(_xp.var, "var"))
_implements(_np.std)(_moment(_xp.std, "std"))


def _arg(fn, name):
    def impl(a, axis=None, out=None, *, keepdims=_NoValue):
        _refuse_out(f"numpy.{name}", out)
        x = _strict_tensor(a)
        if x.dtype in _xp._COMPLEX:
            raise _Fallback
        return fn(x, axis=None if axis is None else _int(axis), keepdims=_keep(keepdims))

    return impl


_implements(_np.argmax)(_arg(_xp.argmax, "argmax"))
_implements(_np.argmin)(_arg(_xp.argmin, "argmin"))


def _cum(fn, name):
    def impl(a, axis=None, dtype=None, out=None):
        _refuse_out(f"numpy.{name}", out)
        x, acc = _accumulator(_strict_tensor(a), dtype)
        if axis is None:
            x, axis = _xp.reshape(x, (-1,)), 0
        return _exactly(fn(x, axis=_int(axis), dtype=acc), dtype)

    return impl


_implements(_np.cumsum)(_cum(_xp.cumulative_sum, "cumsum"))
_implements(_np.cumprod)(_cum(_xp.cumulative_prod, "cumprod"))


# --- the NaN-ignoring reductions ----------------------------------------------


def _nan_input(name, a, where=_NoValue, extra=()):
    x = _plain(name, a, where, extra)
    if x.dtype in _xp._COMPLEX:
        raise _Fallback
    return x, x.dtype in _INEXACT


def _count(x, axis, keepdims):
    return _xp.sum(_C.cast(_xp.logical_not(_xp.isnan(x)), x.dtype), axis=axis, keepdims=keepdims)


def _warn_all_nan(flags, what):
    if _b.bool(_np.any(_np.asarray(flags))):
        _warnings.warn(what, RuntimeWarning, stacklevel=4)


def _nan_sum_like(fn, fill, name):
    def impl(a, axis=None, dtype=None, out=None, keepdims=_NoValue, initial=_NoValue, where=_NoValue):
        _refuse_out(f"numpy.{name}", out)
        x, floating = _nan_input(name, a, where, (initial,))
        if floating:
            x = _xp.where(_xp.isnan(x), fill, x)
        x, acc = _accumulator(x, dtype)
        return _exactly(fn(x, axis=_axis(axis), dtype=acc, keepdims=_keep(keepdims)), dtype)

    return impl


_implements(_np.nansum)(_nan_sum_like(_xp.sum, 0, "nansum"))
_implements(_np.nanprod)(_nan_sum_like(_xp.prod, 1, "nanprod"))


def _nan_cum(fn, fill, name):
    def impl(a, axis=None, dtype=None, out=None):
        _refuse_out(f"numpy.{name}", out)
        x, floating = _nan_input(name, a)
        if floating:
            x = _xp.where(_xp.isnan(x), fill, x)
        x, acc = _accumulator(x, dtype)
        if axis is None:
            x, axis = _xp.reshape(x, (-1,)), 0
        return _exactly(fn(x, axis=_int(axis), dtype=acc), dtype)

    return impl


_implements(_np.nancumsum)(_nan_cum(_xp.cumulative_sum, 0, "nancumsum"))
_implements(_np.nancumprod)(_nan_cum(_xp.cumulative_prod, 1, "nancumprod"))


def _nan_minmax(fn, fill, name):
    def impl(a, axis=None, out=None, keepdims=_NoValue, initial=_NoValue, where=_NoValue):
        _refuse_out(f"numpy.{name}", out)
        x, floating = _nan_input(name, a, where, (initial,))
        ax, kd = _axis(axis), _keep(keepdims)
        if not floating:
            return fn(x, axis=ax, keepdims=kd)
        nan = _xp.isnan(x)
        r = fn(_xp.where(nan, fill, x), axis=ax, keepdims=kd)
        all_nan = _xp.all(nan, axis=ax, keepdims=kd)
        _warn_all_nan(all_nan, "All-NaN slice encountered")
        return _xp.where(all_nan, float("nan"), r)

    return impl


_implements(_np.nanmax)(_nan_minmax(_xp.max, float("-inf"), "nanmax"))
_implements(_np.nanmin)(_nan_minmax(_xp.min, float("inf"), "nanmin"))


@_implements(_np.nanmean)
def _nanmean(a, axis=None, dtype=None, out=None, keepdims=_NoValue, *, where=_NoValue):
    _refuse_out("numpy.nanmean", out)
    x, floating = _nan_input("nanmean", a, where)
    dtype = _dtype_kw(dtype)
    x = _C.cast(x, dtype) if dtype is not None and x.dtype != dtype else _float_default(x)
    ax, kd = _axis(axis), _keep(keepdims)
    if not floating:
        return _xp.mean(x, axis=ax, keepdims=kd)
    n = _count(x, ax, kd)
    _warn_all_nan(_xp.equal(n, 0), "Mean of empty slice")
    return _xp.sum(_xp.where(_xp.isnan(x), 0, x), axis=ax, keepdims=kd) / n


def _nan_moment(name, sqrt):
    def impl(a, axis=None, dtype=None, out=None, ddof=0, keepdims=_NoValue, *, where=_NoValue,
             mean=_NoValue, correction=_NoValue):
        _refuse_out(f"numpy.{name}", out)
        x, floating = _nan_input(name, a, where, (mean,))
        dtype = _dtype_kw(dtype)
        x = _C.cast(x, dtype) if dtype is not None and x.dtype != dtype else _float_default(x)
        c = correction if correction is not _NoValue else ddof
        ax, kd = _axis(axis), _keep(keepdims)
        if not floating:
            r = _xp.var(x, axis=ax, correction=c, keepdims=kd)
            return _xp.sqrt(r) if sqrt else r
        nan = _xp.isnan(x)
        n = _count(x, ax, True)
        m = _xp.sum(_xp.where(nan, 0, x), axis=ax, keepdims=True) / n
        d = _xp.where(nan, 0, x - m)
        ss = _xp.sum(d * d, axis=ax, keepdims=kd)
        dof = (n if kd else _xp.reshape(n, tuple(ss.shape))) - c
        _warn_all_nan(_xp.less_equal(dof, 0), "Degrees of freedom <= 0 for slice.")
        r = _xp.where(_xp.greater(dof, 0), ss / _xp.where(_xp.greater(dof, 0), dof, 1), float("nan"))
        return _xp.sqrt(r) if sqrt else r

    return impl


_implements(_np.nanvar)(_nan_moment("nanvar", False))
_implements(_np.nanstd)(_nan_moment("nanstd", True))


# --- joining, contraction, indexing -----------------------------------------------


def _joined(name, arrays, dtype):
    if not isinstance(arrays, (list, tuple)):
        raise _Fallback
    xs = [_strict_tensor(a) for a in arrays]
    dtype = _dtype_kw(dtype)
    if dtype is not None:
        xs = [_C.cast(x, dtype) if x.dtype != dtype else x for x in xs]
    return xs


@_implements(_np.concatenate)
def _concatenate(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    _refuse_out("numpy.concatenate", out)
    del casting
    xs = _joined("concatenate", arrays, dtype)
    return _xp.concat(xs, axis=None if axis is None else _int(axis))


@_implements(_np.stack)
def _stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    _refuse_out("numpy.stack", out)
    del casting
    return _xp.stack(_joined("stack", arrays, dtype), axis=_int(axis))


@_implements(_np.tensordot)
def _tensordot(a, b, axes=2):
    if not isinstance(axes, int):
        try:
            first, second = axes
        except (TypeError, ValueError):
            raise _Fallback from None
        first = [_int(first)] if not isinstance(first, (list, tuple)) else [_int(i) for i in first]
        second = [_int(second)] if not isinstance(second, (list, tuple)) else [_int(i) for i in second]
        axes = (first, second)
    return _xp.tensordot(_strict_tensor(a), _strict_tensor(b), axes=axes)


@_implements(_np.einsum)
def _einsum(*operands, out=None, dtype=None, order="K", casting="safe", optimize=False):
    _refuse_out("numpy.einsum", out)
    del optimize, casting
    if not operands or not isinstance(operands[0], str) or order not in ("K", "C", "A"):
        raise _Fallback  # the interleaved (operand, sublist) form
    import lattensor

    xs = [_strict_tensor(o) for o in operands[1:]]
    dtype = _dtype_kw(dtype)
    if dtype is not None:
        xs = [_C.cast(x, dtype) if x.dtype != dtype else x for x in xs]
    return lattensor.einsum(operands[0], *xs)


@_implements(_np.dot)
def _dot(a, b, out=None):
    _refuse_out("numpy.dot", out)
    x, y = _strict_tensor(a), _strict_tensor(b)
    if x.ndim == 0 or y.ndim == 0:
        return _xp.multiply(x, y)
    if x.ndim <= 2 and y.ndim <= 2:
        return _matmul(x, y)
    raise _Fallback


@_implements(_np.take)
def _take(a, indices, axis=None, out=None, mode="raise"):
    _refuse_out("numpy.take", out)
    if mode != "raise":
        raise _Fallback
    x = _strict_tensor(a)
    if axis is None:
        x, ax = _xp.reshape(x, (-1,)), 0
    else:
        ax = _int(axis)
        if not -x.ndim <= ax < x.ndim:
            raise _Fallback  # NumPy's AxisError
        ax %= x.ndim
    idx = _np.asarray(indices)
    if idx.dtype.kind not in "iu":
        raise _Fallback
    n = x.shape[ax]
    if idx.size and (int(idx.min()) < -n or int(idx.max()) >= n):
        raise IndexError(f"numpy.take: index {int(idx.max()) if int(idx.max()) >= n else int(idx.min())} "
                         f"is out of bounds for axis {ax} with size {n}")
    flat = _xp.asarray(idx.reshape(-1).astype(_np.int64))
    r = _xp.take(x, flat, axis=ax)
    return _xp.reshape(r, tuple(x.shape[:ax]) + idx.shape + tuple(x.shape[ax + 1:]))


@_implements(_np.where)
def _where(condition, *xy):
    c = _strict_tensor(condition)
    if not xy:
        return _xp.nonzero(_truth(c) if c.ndim else _xp.reshape(_truth(c), (1,)))
    if len(xy) != 2:
        raise _Fallback
    x, y = (_tensor(v) for v in xy)
    if not isinstance(x, Tensor) and not isinstance(y, Tensor):
        x, y = _strict_tensor(x), _strict_tensor(y)
    return _xp.where(_truth(c), x, y)


# --- shape ----------------------------------------------------------------------


@_implements(_np.broadcast_to)
def _broadcast_to(array, shape, subok=False):
    del subok
    shape = (shape,) if isinstance(shape, int) else tuple(_int(s) for s in shape)
    return _xp.broadcast_to(_strict_tensor(array), shape)


@_implements(_np.reshape)
def _reshape(a, /, shape=None, order="C", *, newshape=None, copy=None):
    if order != "C":
        raise _Fallback
    shape = newshape if shape is None else shape
    shape = (_int(shape),) if not isinstance(shape, (list, tuple)) else tuple(_int(s) for s in shape)
    return _xp.reshape(_strict_tensor(a), shape, copy=copy)


@_implements(_np.ravel)
def _ravel(a, order="C"):
    if order not in ("C", "K", "A"):
        raise _Fallback
    return _xp.reshape(_strict_tensor(a), (-1,))


@_implements(_np.transpose)
def _transpose(a, axes=None):
    x = _strict_tensor(a)
    axes = tuple(reversed(range(x.ndim))) if axes is None else tuple(_int(i) for i in axes)
    return _xp.permute_dims(x, axes)


@_implements(_np.swapaxes)
def _swapaxes(a, axis1, axis2):
    x = _strict_tensor(a)
    order = list(range(x.ndim))
    i, j = _int(axis1) % _b.max(x.ndim, 1), _int(axis2) % _b.max(x.ndim, 1)
    order[i], order[j] = order[j], order[i]
    return _xp.permute_dims(x, tuple(order))


@_implements(_np.moveaxis)
def _moveaxis(a, source, destination):
    return _xp.moveaxis(_strict_tensor(a), _axis(source), _axis(destination))


@_implements(_np.squeeze)
def _squeeze(a, axis=None):
    x = _strict_tensor(a)
    if axis is None:
        axis = tuple(i for i, d in enumerate(x.shape) if d == 1)
    return _xp.squeeze(x, _axis(axis))


@_implements(_np.expand_dims)
def _expand_dims(a, axis):
    return _xp.expand_dims(_strict_tensor(a), axis=_axis(axis))


@_implements(_np.flip)
def _flip(m, axis=None):
    return _xp.flip(_strict_tensor(m), axis=_axis(axis))


@_implements(_np.astype)
def _astype(x, dtype, /, *, copy=True, device=None):
    t = _strict_tensor(x)
    dtype = _dtype_kw(dtype)
    if t.dtype in _xp._COMPLEX and dtype not in _xp._COMPLEX:
        raise _Fallback  # NumPy drops the imaginary part with a ComplexWarning
    if dtype in (_C.float16, _C.bfloat16) or t.dtype in (_C.float16, _C.bfloat16):
        return _C.cast(t, dtype) if t.dtype != dtype else (_C.identity(t) if copy else t)  # beyond the standard's dtypes
    return _xp.astype(t, dtype, copy=copy, device=device)


@_implements(_np.real)
def _real(val):
    return _xp.real(_strict_tensor(val))


@_implements(_np.imag)
def _imag(val):
    return _xp.imag(_strict_tensor(val))


@_implements(_np.round, _np.around)
def _round(a, decimals=0, out=None):
    _refuse_out("numpy.round", out)
    if decimals != 0:
        raise _Fallback
    return _xp.round(_strict_tensor(a))


@_implements(_np.clip)
def _clip(a, a_min=_NoValue, a_max=_NoValue, out=None, *, min=_NoValue, max=_NoValue, **kwargs):  # noqa: A002
    _refuse_out("numpy.clip", out)
    if kwargs:
        raise _Fallback
    lo = min if min is not _NoValue else (None if a_min is _NoValue else a_min)
    hi = max if max is not _NoValue else (None if a_max is _NoValue else a_max)
    x = _strict_tensor(a)
    bounds = [b for b in (lo, hi) if b is not None]
    if not _b.all(isinstance(b, (int, float)) and not isinstance(b, _b.bool) for b in bounds):
        raise _Fallback
    target = _xp.result_type(x, *bounds)
    return _xp.clip(_C.cast(x, target) if target != x.dtype else x, lo, hi)


# --- creation like an array ----------------------------------------------------


def _like(fill, name):
    def impl(prototype, dtype=None, order="K", subok=True, shape=None, *, device=None):
        del order, subok, device
        x = _strict_tensor(prototype)
        dtype = _dtype_kw(dtype) or x.dtype
        shape = x.shape if shape is None else ((shape,) if isinstance(shape, int) else tuple(shape))
        shape = [_int(s) for s in shape]
        if dtype in (_C.float16, _C.bfloat16):
            # not the standard's dtypes: xp.full refuses them
            return _C.fill(shape, _C.cast(_C.convert_to_tensor(fill), dtype))
        return _xp.full(tuple(shape), fill, dtype=dtype)

    return impl


_implements(_np.zeros_like)(_like(0, "zeros_like"))
_implements(_np.ones_like)(_like(1, "ones_like"))
_implements(_np.empty_like)(_like(0, "empty_like"))


@_implements(_np.full_like)
def _full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None, *, device=None):
    del order, subok, device
    if isinstance(fill_value, (Tensor, Variable, _np.ndarray, _np.generic)):
        v = _np.asarray(fill_value)
        if v.ndim:
            raise _Fallback
        fill_value = v.item()
    if not isinstance(fill_value, _SCALARS):
        raise _Fallback
    x = _strict_tensor(a)
    dtype = _dtype_kw(dtype) or x.dtype
    shape = x.shape if shape is None else ((shape,) if isinstance(shape, int) else tuple(shape))
    return _xp.full(tuple(_int(s) for s in shape), fill_value, dtype=dtype)


@_implements(_np.result_type)
def _result_type(*arrays_and_dtypes):
    """The lattice's result as a NumPy dtype (what ``np.result_type`` promises)."""
    parts = []
    for a in arrays_and_dtypes:
        if isinstance(a, (Tensor, Variable)):
            parts.append(a.dtype)
        elif isinstance(a, _SCALARS):
            parts.append(a)
        elif isinstance(a, (_np.ndarray, _np.generic)):
            parts.append(_lt_dtype(a.dtype))
        else:
            parts.append(_dtype_kw(a))
    return _np.dtype(_xp.result_type(*parts).as_numpy_dtype)


#: NumPy functions that run on lattensor's kernels (the rest fall back to NumPy).
HANDLED_FUNCTIONS = frozenset(_FUNCTIONS)

_OURS = (Tensor, Variable, _np.ndarray)


def __array_function__(self, func, types, args, kwargs):
    """NEP 18: ``np.sum(t)``, ``np.concatenate([t, u])``, ``np.einsum(...)`` run on
    lattensor's kernels (``HANDLED_FUNCTIONS``); other NumPy functions run NumPy
    on the host data and return tensors for array results."""
    if not _b.all(issubclass(t, _OURS) for t in types):
        return NotImplemented
    impl = _FUNCTIONS.get(func)
    try:
        _refuse_out(f"numpy.{func.__name__}", kwargs.get("out"))
        if impl is not None:
            return impl(*args, **kwargs)
    except _NumpyOut:  # ``out=`` NumPy arrays: NumPy computes into them and returns them
        return func(*_to_numpy(args), **_to_numpy(kwargs))
    except _Fallback:
        pass
    return _from_numpy(func(*_to_numpy(args), **_to_numpy(kwargs)))


for _cls in (Tensor, Variable):
    _cls.__array_ufunc__ = __array_ufunc__
    _cls.__array_function__ = __array_function__


# ---------------------------------------------------------------------------
# dtypes: NumPy reads a lattensor DType as its NumPy dtype
# ---------------------------------------------------------------------------


def _np_dtype(self):
    """The NumPy dtype (``np.dtype(lattensor.float32)`` and ``dtype=lattensor.int8``
    keywords of NumPy functions read it; bfloat16 is ml_dtypes')."""
    return _np.dtype(self.as_numpy_dtype)


_C.DType.dtype = property(_np_dtype)
_C.DType.kind = property(lambda self: _np_dtype(self).kind, doc="NumPy's kind character ('b', 'i', 'u', 'f', 'c'; 'V' for bfloat16).")
_C.DType.itemsize = property(lambda self: _np_dtype(self).itemsize, doc="Bytes per element, as NumPy's ``dtype.itemsize``.")
_C.DType.type = property(lambda self: _np_dtype(self).type, doc="NumPy's scalar type (``numpy.float32``), as ``dtype.type``.")
