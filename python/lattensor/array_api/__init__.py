"""``lattensor.array_api``: the Python Array API standard (revision 2025.12).

Libraries written against the standard (SciPy, scikit-learn, xarray,
``array-api-extra``) find this namespace through ``x.__array_namespace__()``
on any ``lattensor.Tensor``::

    import lattensor.array_api as xp

    x = xp.asarray([1.0, 2.0, 3.0])       # float64, strong (the standard's default)
    xp.sum(x * 2)                         # 12.0, float64
    x.__array_namespace__() is xp         # True
    xp.asarray([1, 2], dtype=xp.int8) + 1 # int8: Python scalars are weak

Why a submodule and not ``lattensor`` itself: the top level mirrors
TensorFlow (``tf.constant``, ``tf.reduce_sum``, ``tf.concat``), and TF's
names and rules differ from the standard's — ``tf.constant([1, 2])`` is a
*weak* ``int32`` where the standard wants a strong default integer,
``tf.round`` and ``tf.sort`` take TF's keywords, ``tf.math.reduce_sum``
widens as TF does, ``tnp.argsort`` returns ``int32``. One module cannot
honour both, and TF-NumPy programs port by changing their import, so the
top level keeps TF's semantics and the standard lives here.

Rules of this namespace (docs/array_api.md has the full list):

* dtypes are lattensor's ``DType`` objects (``xp.float32 is lattensor.float32``);
  the default dtypes are ``float64``, ``complex128`` and ``int64`` (as NumPy and
  ``array-api-strict``); every array a function here creates is strong.
* Promotion is lattensor's lattice. Between strong arrays of one kind it is the
  standard's table; mixed kinds (``int64`` with ``float32``) follow the lattice
  (``float32``), which the standard leaves to the implementation. Python
  scalars are weak: ``int8_array + 1`` is ``int8``.
* ``x[key] = value`` gives the object ``x`` a new tensor holding the update: a
  tensor's values never change in place, so slices, NumPy views and copies
  taken before keep the old values (docs/array_api.md, "Mutation").
* One device, the CPU: ``x.device`` is lattensor's device string and
  ``device=`` keywords accept ``None``, that string or ``"cpu"``.
* A few functions with no lattensor kernel yet (the ``unique_*`` family,
  ``searchsorted``, ``isin``, integer-array indexing) run NumPy on the host data
  and return lattensor arrays.
"""

from __future__ import annotations

import builtins as _b
import math as _math
from typing import NamedTuple

import numpy as _np

from lattensor import _lattensor as _C
from lattensor.experimental import numpy as _tnp

__array_api_version__ = "2025.12"

Tensor = _C.Tensor

# dtypes: lattensor's own DType objects, so ``x.dtype == xp.int8`` holds
bool = _C.bool  # noqa: A001 (the standard's name)
int8, int16, int32, int64 = _C.int8, _C.int16, _C.int32, _C.int64
uint8, uint16, uint32, uint64 = _C.uint8, _C.uint16, _C.uint32, _C.uint64
float32, float64 = _C.float32, _C.float64
complex64, complex128 = _C.complex64, _C.complex128

e, pi, inf, nan, newaxis = _math.e, _math.pi, _math.inf, _math.nan, None

_BOOL = (bool,)
_SIGNED = (int8, int16, int32, int64)
_UNSIGNED = (uint8, uint16, uint32, uint64)
_INTS = _SIGNED + _UNSIGNED
_REAL_FLOATS = (float32, float64)
_COMPLEX = (complex64, complex128)
_FLOATS = _REAL_FLOATS + _COMPLEX
_NUMERIC = _INTS + _FLOATS
_ALL = _BOOL + _NUMERIC

_DEFAULT_FLOAT, _DEFAULT_COMPLEX, _DEFAULT_INT, _DEFAULT_INDEX = float64, complex128, int64, int64
_CPU = Tensor.device.__get__(_C.constant(0)) if hasattr(Tensor, "device") else "cpu"


# ---------------------------------------------------------------------------
# argument checks: every error names the function and the argument
# ---------------------------------------------------------------------------


def _err(fn: str, arg: str, msg: str) -> str:
    return f"lattensor.array_api.{fn}: argument '{arg}' {msg}"


def _arr(fn: str, arg: str, x) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(_err(fn, arg, f"must be an array (lattensor.Tensor), got {type(x).__name__}"))
    return x


def _operand(fn: str, arg: str, x, kinds=(int, float, complex)):
    """An array, or a Python scalar of an allowed kind (kept as a weak scalar)."""
    if isinstance(x, Tensor):
        return x
    if isinstance(x, kinds) and not isinstance(x, _np.ndarray):
        return x
    allowed = ", ".join(k.__name__ for k in kinds)
    raise TypeError(_err(fn, arg, f"must be an array or a Python {allowed}, got {type(x).__name__}"))


def _dtype_arg(fn: str, dtype, allow_none: bool = True):
    if dtype is None and allow_none:
        return None
    if isinstance(dtype, _C.DType) and dtype in _ALL:
        return dtype
    raise TypeError(_err(fn, "dtype", f"must be one of the namespace's dtypes (xp.int8, ..., xp.complex128), got {dtype!r}"))


def _device_arg(fn: str, device) -> None:
    if device is None or device == _CPU or device == "cpu":
        return
    raise ValueError(_err(fn, "device", f"must be None, {_CPU!r} or 'cpu' (lattensor has one device), got {device!r}"))


def _shape_arg(fn: str, shape) -> tuple:
    if isinstance(shape, int) and not isinstance(shape, _b.bool):
        shape = (shape,)
    try:
        shape = tuple(shape)
    except TypeError:
        raise TypeError(_err(fn, "shape", f"must be an int or a tuple of ints, got {type(shape).__name__}")) from None
    for d in shape:
        if not isinstance(d, int) or isinstance(d, _b.bool) or d < 0:
            raise ValueError(_err(fn, "shape", f"must hold non-negative ints, got {shape!r}"))
    return shape


def _axes(fn: str, axis, ndim: int, allow_none: bool = True):
    """Normalises ``axis`` (int, tuple or None) to a tuple of non-negative ints."""
    if axis is None:
        if allow_none:
            return tuple(range(ndim))
        raise TypeError(_err(fn, "axis", "must be an int"))
    single = isinstance(axis, int)
    seq = (axis,) if single else tuple(axis)
    out = []
    for a in seq:
        if not isinstance(a, int) or isinstance(a, _b.bool):
            raise TypeError(_err(fn, "axis", f"must be an int or a tuple of ints, got {axis!r}"))
        if not -ndim <= a < ndim:
            raise IndexError(_err(fn, "axis", f"{a} is out of bounds for an array of {ndim} dimensions"))
        out.append(a % ndim if ndim else 0)
    if len(set(out)) != len(out):
        raise ValueError(_err(fn, "axis", f"repeats an axis: {axis!r}"))
    return tuple(out)


def _strong(np_value, dtype=None) -> Tensor:
    """A strong tensor holding a NumPy value (copies)."""
    a = _np.asarray(np_value)
    if dtype is not None:
        a = a.astype(dtype.as_numpy_dtype, copy=False)
    return _C.constant(a if a.flags.c_contiguous else a.copy(order="C"))


def _np_of(x: Tensor) -> _np.ndarray:
    return _np.asarray(x)


def _cast(x: Tensor, dtype) -> Tensor:
    return x if x.dtype == dtype else _C.cast(x, dtype)


# ---------------------------------------------------------------------------
# data type functions
# ---------------------------------------------------------------------------


class finfo_object(NamedTuple):
    """``finfo(dtype)``'s result: the standard's attributes, as Python floats."""

    bits: int
    eps: float
    max: float
    min: float
    smallest_normal: float
    dtype: object


class iinfo_object(NamedTuple):
    """``iinfo(dtype)``'s result: the standard's attributes, as Python ints."""

    bits: int
    max: int
    min: int
    dtype: object


def finfo(type, /):  # noqa: A002 (the standard's name)
    """``finfo(float32)``: limits of a floating dtype (of a complex dtype: its real part's)."""
    dt = type.dtype if isinstance(type, Tensor) else type
    if not (isinstance(dt, _C.DType) and dt in _FLOATS):
        raise TypeError(_err("finfo", "type", f"must be a floating dtype or array, got {type!r}"))
    f = _np.finfo(dt.as_numpy_dtype)
    real = {complex64: float32, complex128: float64}.get(dt, dt)
    return finfo_object(int(f.bits), float(f.eps), float(f.max), float(f.min), float(f.smallest_normal), real)


def iinfo(type, /):  # noqa: A002 (the standard's name)
    """``iinfo(int8)``: limits of an integer dtype."""
    dt = type.dtype if isinstance(type, Tensor) else type
    if not (isinstance(dt, _C.DType) and dt in _INTS):
        raise TypeError(_err("iinfo", "type", f"must be an integer dtype or array, got {type!r}"))
    f = _np.iinfo(dt.as_numpy_dtype)
    return iinfo_object(int(f.bits), int(f.max), int(f.min), dt)


_KINDS = {
    "bool": _BOOL,
    "signed integer": _SIGNED,
    "unsigned integer": _UNSIGNED,
    "integral": _INTS,
    "real floating": _REAL_FLOATS,
    "complex floating": _COMPLEX,
    "numeric": _NUMERIC,
}


def isdtype(dtype, kind):
    """``isdtype(int8, "integral")``: whether ``dtype`` is ``kind`` (a dtype, a kind
    name or a tuple of them)."""
    if not isinstance(dtype, _C.DType):
        raise TypeError(_err("isdtype", "dtype", f"must be a dtype, got {dtype!r}"))
    if isinstance(kind, tuple):
        return _b.any(isdtype(dtype, k) for k in kind)
    if isinstance(kind, _C.DType):
        return dtype == kind
    if isinstance(kind, str):
        if kind not in _KINDS:
            raise ValueError(_err("isdtype", "kind", f"must be a dtype or one of {sorted(_KINDS)}, got {kind!r}"))
        return dtype in _KINDS[kind]
    raise TypeError(_err("isdtype", "kind", f"must be a dtype, a kind name or a tuple of them, got {kind!r}"))


def result_type(*arrays_and_dtypes):
    """The lattice's result dtype; Python scalars are weak (they adapt to the arrays)."""
    if not arrays_and_dtypes:
        raise ValueError("lattensor.array_api.result_type: needs at least one array or dtype")
    strong = []
    scalars = []
    for a in arrays_and_dtypes:
        if isinstance(a, Tensor):
            strong.append(a.dtype)
        elif isinstance(a, _C.DType):
            strong.append(a)
        elif isinstance(a, (_b.bool, int, float, complex)):
            scalars.append(a)
        else:
            raise TypeError(_err("result_type", "arrays_and_dtypes", f"must hold arrays, dtypes or Python scalars, got {type(a).__name__}"))
    if not strong:
        raise ValueError("lattensor.array_api.result_type: needs at least one array or dtype (Python scalars alone have no dtype)")
    out = strong[0]
    for d in strong[1:]:
        out = _C.result_type(out, d)[0]
    for s in scalars:
        out = _C.result_type(out, s)[0]
    return out


def can_cast(from_, to, /):
    """Whether the lattice promotes ``from_`` to ``to`` (``result_type(from_, to) == to``)."""
    f = from_.dtype if isinstance(from_, Tensor) else from_
    if not isinstance(f, _C.DType):
        raise TypeError(_err("can_cast", "from_", f"must be a dtype or an array, got {from_!r}"))
    if not isinstance(to, _C.DType):
        raise TypeError(_err("can_cast", "to", f"must be a dtype, got {to!r}"))
    if f == to:
        return True
    # a float never casts to an integer, a complex never to a real
    if (f in _FLOATS and to in _INTS + _BOOL) or (f in _COMPLEX and to in _REAL_FLOATS) or (f in _NUMERIC and to == bool):
        return False
    return _C.result_type(f, to)[0] == to


def astype(x, dtype, /, *, copy=True, device=None):
    """``astype(x, int8)``: ``x`` converted (C casts: floats truncate toward zero).
    ``copy=False`` returns ``x`` itself when it already has ``dtype``."""
    _arr("astype", "x", x)
    dtype = _dtype_arg("astype", dtype, allow_none=False)
    _device_arg("astype", device)
    if x.dtype == dtype:
        return _C.identity(x) if copy else x
    if x.dtype in _COMPLEX and dtype not in _COMPLEX:
        raise TypeError(_err("astype", "dtype", f"cannot cast complex {x.dtype.name} to {dtype.name} (the standard leaves it undefined; take xp.real first)"))
    return _C.cast(x, dtype)


# ---------------------------------------------------------------------------
# creation functions
# ---------------------------------------------------------------------------


def _infer(obj):
    """The standard's default dtype for a Python scalar or a nested sequence of them."""
    kinds = set()

    def walk(o):
        if isinstance(o, Tensor):
            kinds.add(o.dtype)
        elif isinstance(o, _b.bool) or isinstance(o, _np.bool_):
            kinds.add("bool")
        elif isinstance(o, int):
            kinds.add("int")
        elif isinstance(o, float):
            kinds.add("float")
        elif isinstance(o, complex):
            kinds.add("complex")
        elif isinstance(o, (list, tuple)):
            for i in o:
                walk(i)
        else:
            kinds.add("other")

    walk(obj)
    tensors = [k for k in kinds if isinstance(k, _C.DType)]
    if tensors:
        return result_type(*tensors) if len(tensors) > 1 or len(kinds) == 1 else None
    if "other" in kinds:
        return None
    if "complex" in kinds:
        return _DEFAULT_COMPLEX
    if "float" in kinds:
        return _DEFAULT_FLOAT
    if "int" in kinds:
        return _DEFAULT_INT
    if "bool" in kinds:
        return bool
    return _DEFAULT_FLOAT  # an empty list


def asarray(obj, /, *, dtype=None, device=None, copy=None):
    """``asarray(obj)``: an array from an array, a Python scalar, a nested sequence or
    a buffer / ``__array__`` / DLPack object. Python values take the default dtypes
    (``int64``, ``float64``, ``complex128``, ``bool``); ``copy=False`` raises
    ``ValueError`` when a copy would be needed, ``copy=None`` copies only then."""
    dtype = _dtype_arg("asarray", dtype)
    _device_arg("asarray", device)
    if copy not in (None, True, False):
        raise TypeError(_err("asarray", "copy", f"must be None, True or False, got {copy!r}"))
    if isinstance(obj, Tensor):
        if dtype is None or obj.dtype == dtype:
            return _C.identity(obj) if copy else obj
        if copy is False:
            raise ValueError(_err("asarray", "copy", f"is False but converting {obj.dtype.name} to {dtype.name} needs a copy"))
        return _C.cast(obj, dtype)
    if copy is False:
        raise ValueError(_err("asarray", "copy", f"is False but a {type(obj).__name__} cannot be shared without a copy"))
    if hasattr(obj, "__dlpack__") and not isinstance(obj, _np.ndarray):
        t = _C.from_dlpack(obj)
        return _cast(t, dtype) if dtype is not None else t
    if isinstance(obj, (_b.bool, int, float, complex, list, tuple)):
        inferred = _infer(obj)
        target = dtype or inferred
        if target is None:
            a = _np.asarray(obj)
        else:
            if dtype is not None and dtype in _INTS:
                _check_int_range("asarray", obj, dtype)
            a = _np.asarray(obj, dtype=target.as_numpy_dtype)
        return _strong(a)
    try:
        a = _np.asarray(obj)
    except Exception as exc:  # noqa: BLE001 (reported with the function's name)
        raise TypeError(_err("asarray", "obj", f"cannot be converted to an array: {exc}")) from None
    if a.dtype == object:
        raise TypeError(_err("asarray", "obj", f"cannot be converted to an array (NumPy sees objects of type {type(obj).__name__})"))
    t = _strong(a)
    return _cast(t, dtype) if dtype is not None else t


def _check_int_range(fn, obj, dtype):
    info = _np.iinfo(dtype.as_numpy_dtype)

    def walk(o):
        if isinstance(o, (list, tuple)):
            for i in o:
                walk(i)
        elif isinstance(o, int) and not isinstance(o, _b.bool) and not info.min <= o <= info.max:
            raise OverflowError(_err(fn, "obj", f"{o} is out of range for {dtype.name}"))

    walk(obj)


def _fill(fn, shape, value, dtype):
    shape = _shape_arg(fn, shape)
    return _strong(_np.full(shape, value, dtype.as_numpy_dtype))


def zeros(shape, *, dtype=None, device=None):
    """``zeros((2, 3))``: float64 zeros by default."""
    _device_arg("zeros", device)
    return _fill("zeros", shape, 0, _dtype_arg("zeros", dtype) or _DEFAULT_FLOAT)


def ones(shape, *, dtype=None, device=None):
    """``ones((2, 3))``: float64 ones by default."""
    _device_arg("ones", device)
    return _fill("ones", shape, 1, _dtype_arg("ones", dtype) or _DEFAULT_FLOAT)


def empty(shape, *, dtype=None, device=None):
    """``empty((2, 3))``: as ``zeros`` (tensors are immutable, so contents are defined)."""
    _device_arg("empty", device)
    return _fill("empty", shape, 0, _dtype_arg("empty", dtype) or _DEFAULT_FLOAT)


def _scalar_dtype(value):
    if isinstance(value, _b.bool):
        return bool
    if isinstance(value, int):
        return _DEFAULT_INT
    if isinstance(value, float):
        return _DEFAULT_FLOAT
    if isinstance(value, complex):
        return _DEFAULT_COMPLEX
    return None


def full(shape, fill_value, *, dtype=None, device=None):
    """``full((2,), 7)``: ``fill_value`` everywhere; the dtype follows it when not given."""
    _device_arg("full", device)
    dtype = _dtype_arg("full", dtype)
    if isinstance(fill_value, Tensor) and fill_value.ndim == 0:
        fill_value = fill_value.item()
    inferred = _scalar_dtype(fill_value)
    if inferred is None:
        raise TypeError(_err("full", "fill_value", f"must be a Python bool, int, float or complex, got {type(fill_value).__name__}"))
    return _fill("full", shape, fill_value, dtype or inferred)


def zeros_like(x, /, *, dtype=None, device=None):
    """``zeros_like(x)``: zeros of ``x``'s shape and dtype."""
    _arr("zeros_like", "x", x)
    _device_arg("zeros_like", device)
    return _fill("zeros_like", x.shape, 0, _dtype_arg("zeros_like", dtype) or x.dtype)


def ones_like(x, /, *, dtype=None, device=None):
    """``ones_like(x)``: ones of ``x``'s shape and dtype."""
    _arr("ones_like", "x", x)
    _device_arg("ones_like", device)
    return _fill("ones_like", x.shape, 1, _dtype_arg("ones_like", dtype) or x.dtype)


def empty_like(x, /, *, dtype=None, device=None):
    """``empty_like(x)``: as ``zeros_like``."""
    _arr("empty_like", "x", x)
    _device_arg("empty_like", device)
    return _fill("empty_like", x.shape, 0, _dtype_arg("empty_like", dtype) or x.dtype)


def full_like(x, /, fill_value, *, dtype=None, device=None):
    """``full_like(x, 7)``: ``fill_value`` in ``x``'s shape and (by default) dtype."""
    _arr("full_like", "x", x)
    _device_arg("full_like", device)
    if _scalar_dtype(fill_value) is None:
        raise TypeError(_err("full_like", "fill_value", f"must be a Python bool, int, float or complex, got {type(fill_value).__name__}"))
    return _fill("full_like", x.shape, fill_value, _dtype_arg("full_like", dtype) or x.dtype)


def eye(n_rows, n_cols=None, /, *, k=0, dtype=None, device=None):
    """``eye(3, k=1)``: ones on the ``k``-th diagonal."""
    _device_arg("eye", device)
    dtype = _dtype_arg("eye", dtype) or _DEFAULT_FLOAT
    return _strong(_np.eye(n_rows, n_cols, k=k, dtype=dtype.as_numpy_dtype))


def arange(start, /, stop=None, step=1, *, dtype=None, device=None):
    """``arange(5)``, ``arange(0.0, 1.0, 0.25)``: evenly spaced values in ``[start, stop)``."""
    _device_arg("arange", device)
    dtype = _dtype_arg("arange", dtype)
    if stop is None:
        start, stop = 0, start
    for name, v in (("start", start), ("stop", stop), ("step", step)):
        if not isinstance(v, (int, float)) or isinstance(v, _b.bool):
            raise TypeError(_err("arange", name, f"must be a Python int or float, got {type(v).__name__}"))
    if step == 0:
        raise ValueError(_err("arange", "step", "must not be zero"))
    if dtype is None:
        dtype = _DEFAULT_FLOAT if _b.any(isinstance(v, float) for v in (start, stop, step)) else _DEFAULT_INT
    n = _b.max(0, _math.ceil((stop - start) / step))
    vals = _np.arange(n, dtype=_np.float64 if dtype in _FLOATS else _np.int64) * step + start
    return _strong(vals, dtype)


def linspace(start, stop, /, num, *, dtype=None, device=None, endpoint=True):
    """``linspace(0, 1, 5)``: ``num`` evenly spaced values from ``start`` to ``stop``."""
    _device_arg("linspace", device)
    dtype = _dtype_arg("linspace", dtype)
    if dtype is None:
        dtype = _DEFAULT_COMPLEX if isinstance(start, complex) or isinstance(stop, complex) else _DEFAULT_FLOAT
    if not isinstance(num, int) or num < 0:
        raise ValueError(_err("linspace", "num", f"must be a non-negative int, got {num!r}"))
    return _strong(_np.linspace(start, stop, num, endpoint=endpoint, dtype=dtype.as_numpy_dtype))


def from_dlpack(x, /, *, device=None, copy=None):
    """An array sharing a DLPack producer's memory (``copy=True``: a copy)."""
    _device_arg("from_dlpack", device)
    t = _C.from_dlpack(x)
    return _C.identity(t) if copy else t


def meshgrid(*arrays, indexing="xy"):
    """``meshgrid(x, y)``: coordinate matrices from 1-D arrays (``indexing`` ``"xy"`` or ``"ij"``)."""
    for i, a in enumerate(arrays):
        _arr("meshgrid", f"arrays[{i}]", a)
    if indexing not in ("xy", "ij"):
        raise ValueError(_err("meshgrid", "indexing", f"must be 'xy' or 'ij', got {indexing!r}"))
    if len({a.dtype for a in arrays}) > 1:
        raise ValueError(_err("meshgrid", "arrays", "must all have one dtype"))
    return tuple(_strong(g) for g in _np.meshgrid(*[_np_of(a) for a in arrays], indexing=indexing))


def tril(x, /, *, k=0):
    """The lower triangle of the last two axes (below the ``k``-th diagonal), zeros above."""
    _arr("tril", "x", x)
    return _tnp.tril(x, k)


def triu(x, /, *, k=0):
    """The upper triangle of the last two axes (above the ``k``-th diagonal), zeros below."""
    _arr("triu", "x", x)
    return _tnp.triu(x, k)


from lattensor.array_api._elementwise import *  # noqa: E402,F401,F403
from lattensor.array_api._rest import *  # noqa: E402,F401,F403
from lattensor.array_api._info import __array_namespace_info__  # noqa: E402,F401
from lattensor.array_api import _tensor_methods  # noqa: E402,F401
from lattensor.array_api import fft, linalg  # noqa: E402,F401 (the extensions, as submodules)
