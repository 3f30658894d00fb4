"""``lattensor.array_api.fft``: the standard's fft extension, on rustfft/realfft.

``fft``/``ifft``/``fftn``/``ifftn`` take complex arrays and keep their dtype;
``rfft``/``rfftn``/``ihfft`` take real floating arrays and return the matching
complex dtype; ``irfft``/``irfftn``/``hfft`` take complex arrays and return
the matching real dtype. ``norm`` is ``"backward"`` (default), ``"ortho"`` or
``"forward"``; ``n``/``s`` crop or zero-pad the input (an ``s`` entry of -1
keeps the axis).
"""

from __future__ import annotations

from lattensor import _lattensor as _C
from lattensor.array_api import _COMPLEX, _DEFAULT_FLOAT, _REAL_FLOATS, _arr, _dtype_arg, _err

__all__ = [
    "fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft", "fftfreq", "rfftfreq",
    "fftshift", "ifftshift",
]


def _input(fn: str, x, kinds, what: str):
    _arr(fn, "x", x)
    if x.dtype not in kinds:
        raise TypeError(_err(fn, "x", f"must have a {what} dtype, got {x.dtype}"))
    return x


def _n(fn: str, n):
    if n is None:
        return None
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(_err(fn, "n", f"must be an int or None, got {n!r}"))
    if n < 1:
        raise ValueError(_err(fn, "n", f"must be at least 1, got {n}"))
    return n


def _seq(fn: str, name: str, v):
    if v is None:
        return None
    if isinstance(v, int) and not isinstance(v, bool):
        return [v]
    return [int(a) for a in v]


def _s(fn: str, x, s, axes, last_real: bool = False):
    """``s`` with -1 entries replaced by the axis's size (for an inverse real
    transform's last axis, ``2 (m - 1)``)."""
    s = _seq(fn, "s", s)
    axes = _seq(fn, "axes", axes)
    if s is None:
        return None, axes
    ax = axes if axes is not None else list(range(x.ndim - len(s), x.ndim))
    if len(ax) != len(s):
        raise ValueError(_err(fn, "s", f"must have one entry per axis, got s={s} for axes={ax}"))
    out = []
    for i, (n, a) in enumerate(zip(s, ax)):
        if n == -1:
            m = x.shape[a]
            n = 2 * (m - 1) if last_real and i == len(s) - 1 else m
        elif n < 1:
            raise ValueError(_err(fn, "s", f"entries must be at least 1 (or -1), got {s}"))
        out.append(n)
    return out, axes


def fft(x, /, *, n=None, axis=-1, norm="backward"):
    """The 1-D discrete Fourier transform along ``axis``."""
    return _C._fft_fft(_input("fft", x, _COMPLEX, "complex"), _n("fft", n), axis, norm)


def ifft(x, /, *, n=None, axis=-1, norm="backward"):
    """The inverse of ``fft``."""
    return _C._fft_ifft(_input("ifft", x, _COMPLEX, "complex"), _n("ifft", n), axis, norm)


def fftn(x, /, *, s=None, axes=None, norm="backward"):
    """The n-D transform over ``axes`` (default: all, or the last ``len(s)``)."""
    s, axes = _s("fftn", _input("fftn", x, _COMPLEX, "complex"), s, axes)
    return _C._fft_fftn(x, s, axes, norm)


def ifftn(x, /, *, s=None, axes=None, norm="backward"):
    """The inverse of ``fftn``."""
    s, axes = _s("ifftn", _input("ifftn", x, _COMPLEX, "complex"), s, axes)
    return _C._fft_ifftn(x, s, axes, norm)


def rfft(x, /, *, n=None, axis=-1, norm="backward"):
    """The transform of a real signal: its ``n // 2 + 1`` non-negative frequencies."""
    return _C._fft_rfft(_input("rfft", x, _REAL_FLOATS, "real floating-point"), _n("rfft", n), axis, norm)


def irfft(x, /, *, n=None, axis=-1, norm="backward"):
    """The inverse of ``rfft``: a real signal of length ``n`` (default ``2 (m - 1)``)."""
    return _C._fft_irfft(_input("irfft", x, _COMPLEX, "complex"), _n("irfft", n), axis, norm)


def rfftn(x, /, *, s=None, axes=None, norm="backward"):
    """``rfft`` over the last of ``axes``, then ``fft`` over the others."""
    s, axes = _s("rfftn", _input("rfftn", x, _REAL_FLOATS, "real floating-point"), s, axes)
    return _C._fft_rfftn(x, s, axes, norm)


def irfftn(x, /, *, s=None, axes=None, norm="backward"):
    """The inverse of ``rfftn``."""
    s, axes = _s("irfftn", _input("irfftn", x, _COMPLEX, "complex"), s, axes, last_real=True)
    return _C._fft_irfftn(x, s, axes, norm)


def hfft(x, /, *, n=None, axis=-1, norm="backward"):
    """The transform of a Hermitian-symmetric signal given by its first half: real output."""
    return _C._fft_hfft(_input("hfft", x, _COMPLEX, "complex"), _n("hfft", n), axis, norm)


def ihfft(x, /, *, n=None, axis=-1, norm="backward"):
    """The inverse of ``hfft``."""
    return _C._fft_ihfft(_input("ihfft", x, _REAL_FLOATS, "real floating-point"), _n("ihfft", n), axis, norm)


def _freq(fn: str, n, d, dtype, device, rfft: bool):
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise ValueError(_err(fn, "n", f"must be a positive int, got {n!r}"))
    dtype = _dtype_arg(fn, dtype)
    if dtype is not None and dtype not in _REAL_FLOATS:
        raise ValueError(_err(fn, "dtype", f"must be a real floating-point dtype, got {dtype}"))
    if device not in (None, "cpu") and device != _C.constant(0).device:
        raise ValueError(_err(fn, "device", f"must be None or the CPU, got {device!r}"))
    return _C._fft_freq(n, float(d), dtype or _DEFAULT_FLOAT, rfft)


def fftfreq(n, /, *, d=1.0, dtype=None, device=None):
    """``[0, 1, …, -2, -1] / (d n)``: the frequencies of an ``n``-point ``fft``."""
    return _freq("fftfreq", n, d, dtype, device, False)


def rfftfreq(n, /, *, d=1.0, dtype=None, device=None):
    """``[0, 1, …, n // 2] / (d n)``: the frequencies of an ``n``-point ``rfft``."""
    return _freq("rfftfreq", n, d, dtype, device, True)


def fftshift(x, /, *, axes=None):
    """``x`` rolled so the zero frequency is in the middle of each of ``axes`` (default: all)."""
    _arr("fftshift", "x", x)
    return _C._fft_shift(x, _seq("fftshift", "axes", axes), False)


def ifftshift(x, /, *, axes=None):
    """The inverse of ``fftshift``."""
    _arr("ifftshift", "x", x)
    return _C._fft_shift(x, _seq("ifftshift", "axes", axes), True)
