"""``__array_namespace_info__()``: what this namespace supports."""

from __future__ import annotations

import lattensor.array_api as _xp


class _Info:
    """The standard's inspection object (``xp.__array_namespace_info__()``)."""

    __module__ = "lattensor.array_api"

    def capabilities(self):
        """Boolean-mask indexing and data-dependent shapes are supported; any rank."""
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": None}

    def default_device(self):
        """The CPU, lattensor's one device."""
        return _xp._CPU

    def devices(self):
        """``(the CPU,)``."""
        return (_xp._CPU,)

    def default_dtypes(self, *, device=None):
        """float64, complex128, int64 and int64 for indices (as NumPy)."""
        _xp._device_arg("default_dtypes", device)
        return {
            "real floating": _xp.float64,
            "complex floating": _xp.complex128,
            "integral": _xp.int64,
            "indexing": _xp.int64,
        }

    def dtypes(self, *, device=None, kind=None):
        """The dtypes of ``kind`` (a kind name, a tuple of them, or None for all) by name."""
        _xp._device_arg("dtypes", device)
        names = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                 "float32", "float64", "complex64", "complex128"]
        out = {n: getattr(_xp, n) for n in names}
        if kind is None:
            return out
        return {n: d for n, d in out.items() if _xp.isdtype(d, kind)}


def __array_namespace_info__():
    """The namespace's inspection object: capabilities, devices, default dtypes and dtypes per kind."""
    return _Info()
