"""The array object's part of the standard, on ``lattensor.Tensor``:
``__array_namespace__``, ``mT``, ``to_device``, boolean-mask / integer-array
indexing in ``__getitem__`` (which the Rust class leaves to this module), and
item assignment (``__setitem__``)."""

from __future__ import annotations

import numpy as _np

from lattensor import _lattensor as _C

Tensor = _C.Tensor
_native_getitem = Tensor.__getitem__
_VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12", "2025.12")


def __array_namespace__(self, /, *, api_version=None):
    """``lattensor.array_api``, the Array API namespace (``api_version``: None or
    a revision up to 2025.12, which it implements)."""
    if api_version is not None and api_version not in _VERSIONS:
        raise ValueError(f"lattensor.Tensor.__array_namespace__: argument 'api_version' must be None or one of {_VERSIONS}, got {api_version!r}")
    import lattensor.array_api as xp

    return xp


def _mT(self):
    """The matrix transpose (the last two axes swapped)."""
    import lattensor.array_api as xp

    return xp.matrix_transpose(self)


def to_device(self, device, /, *, stream=None):
    """``self`` on ``device`` (lattensor has one device, the CPU)."""
    import lattensor.array_api as xp

    xp._device_arg("to_device", device)
    if stream is not None:
        raise ValueError("lattensor.Tensor.to_device: argument 'stream' must be None (the CPU has no streams)")
    return self


def _is_advanced(part) -> bool:
    if isinstance(part, Tensor):
        return part.ndim > 0 or part.dtype == _C.bool
    return isinstance(part, _np.ndarray)  # Python lists keep TF's IndexError


def _take_rows(x, idx):
    """``x[idx]`` for an integer array ``idx`` on the first axis, through ``gather``
    (recorded on gradient tapes); negative indices count from the end."""
    import lattensor.experimental.numpy as tnp

    idx = _C.constant(idx) if not isinstance(idx, Tensor) else idx
    n = int(x.shape[0])
    idx = tnp.where(idx < 0, idx + n, idx)
    return _C.gather(x, idx, axis=0)


def __getitem__(self, key):
    """Basic indexing (ints, slices, ``...``, ``None``) in Rust. A boolean mask
    over the leading axes, or an integer array on the first axis, goes through
    ``gather`` (so gradient tapes see it, as TF's do); other mixes of arrays are
    applied by NumPy to the host data (a new strong tensor, not differentiable)."""
    parts = key if isinstance(key, tuple) else (key,)
    if not any(_is_advanced(p) for p in parts):
        if any(isinstance(p, Tensor) for p in parts):
            key = tuple(int(p) if isinstance(p, Tensor) else p for p in parts)
        return _native_getitem(self, key)
    if len(parts) == 1:
        k = parts[0]
        kind = k.dtype if isinstance(k, Tensor) else _np.asarray(k).dtype
        if kind == _C.bool or kind == _np.bool_:
            import lattensor.experimental.numpy as tnp

            m = k if isinstance(k, Tensor) else _C.constant(k)
            if tuple(m.shape) == tuple(self.shape[: m.ndim]) and m.ndim > 0:
                rows = _C.reshape(self, [-1, *self.shape[m.ndim :]])
                return _C.gather(rows, tnp.nonzero(_C.reshape(m, [-1]))[0], axis=0)
        elif self.ndim > 0 and (getattr(kind, "kind", "") in "iu" or kind in (_C.int8, _C.int16, _C.int32, _C.int64, _C.uint8, _C.uint16, _C.uint32, _C.uint64)):
            return _take_rows(self, k)
    np_key = tuple(_np.asarray(p) if isinstance(p, Tensor) else p for p in parts)
    out = _np.asarray(self)[np_key if isinstance(key, tuple) else np_key[0]]
    out = _np.asarray(out)
    return _C.constant(out if out.flags.c_contiguous else out.copy(order="C"))


def __setitem__(self, key, value):
    """``x[key] = value``, as the standard's ``__setitem__``: ``value`` (an array
    or a Python scalar, broadcast to ``x[key]``'s shape) must not change
    ``x``'s dtype by the lattice (``result_type(x, value) == x.dtype``, else
    ``TypeError``); ``key`` is any index ``__getitem__`` takes (integers,
    slices, ``...``, ``None``, boolean masks, integer arrays, where a
    repeated index keeps the last value written, as NumPy does).

    The values of a tensor never change in place: ``x`` gets a new tensor
    holding the update, so arrays sharing the old memory (slices, NumPy views,
    DLPack capsules, the results of ``copy.copy``) keep the old values, where
    NumPy's views would see the write (the standard leaves writes through
    views unspecified). The update is not recorded on gradient tapes."""
    import lattensor.array_api as xp

    if not isinstance(value, (Tensor, bool, int, float, complex)):
        value = xp.asarray(value)
    target = xp.result_type(self, value)
    if target != self.dtype:
        got = value.dtype.name if isinstance(value, Tensor) else type(value).__name__
        raise TypeError(
            f"lattensor.Tensor.__setitem__: a {got} value would promote the {self.dtype.name} array to "
            f"{target.name}; item assignment keeps the array's dtype: cast the value first "
            f"(xp.astype(value, xp.{self.dtype.name}))"
        )
    update = _C.cast(value, self.dtype) if isinstance(value, Tensor) else _C.constant(value, self.dtype)
    parts = key if isinstance(key, tuple) else (key,)
    np_parts = tuple(_np.asarray(p) if isinstance(p, Tensor) else p for p in parts)
    host = _np.array(self)
    try:
        host[np_parts if isinstance(key, tuple) else np_parts[0]] = _np.asarray(update)
    except (ValueError, IndexError) as exc:
        raise type(exc)(f"lattensor.Tensor.__setitem__: {exc}") from None
    Tensor._assign(self, _C._with_weak(_C.constant(host, self.dtype), self.weak))


Tensor.__array_namespace__ = __array_namespace__
Tensor.mT = property(_mT)
Tensor.to_device = to_device
Tensor.__getitem__ = __getitem__
Tensor.__setitem__ = __setitem__
