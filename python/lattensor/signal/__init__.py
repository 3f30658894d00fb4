"""``lattensor.signal``: TF's ``tf.signal`` Fourier transforms, on rustfft/realfft.

``fft``/``ifft`` transform the innermost axis, ``fft2d``/``fft3d`` the inner
two or three (complex input, as TF's kernels require); ``rfft``/``irfft`` (and
the 2-D/3-D forms) take ``fft_length`` for the inner axes; ``fftshift`` and
``ifftshift`` roll by half the length. TF's transforms are unnormalised
forward and scaled by ``1/n`` inverse (the Array API's ``"backward"``).
"""

from lattensor import _lattensor as _C

__all__ = ["fft", "ifft", "fft2d", "ifft2d", "fft3d", "ifft3d", "rfft", "irfft", "rfft2d", "irfft2d", "rfft3d",
           "irfft3d", "fftshift", "ifftshift"]


def _complex(fn, x):
    t = x if isinstance(x, _C.Tensor) else _C.constant(x)
    if t.dtype not in (_C.complex64, _C.complex128):
        raise TypeError(f"{fn}: input must be complex64 or complex128, got {t.dtype}; cast with tf.cast(x, tf.complex64)")
    return t


def _lengths(fft_length, k):
    if fft_length is None:
        return None
    v = [int(n) for n in (fft_length.numpy().tolist() if hasattr(fft_length, "numpy") else fft_length)]
    if len(v) != k:
        raise ValueError(f"fft_length must have {k} entries, got {v}")
    return v


def fft(input, name=None):  # noqa: A002 (TF's name)
    """The DFT of the innermost axis."""
    return _C._fft_fft(_complex("fft", input), None, -1, "backward")


def ifft(input, name=None):  # noqa: A002
    """The inverse DFT of the innermost axis (scaled by ``1/n``)."""
    return _C._fft_ifft(_complex("ifft", input), None, -1, "backward")


def fft2d(input, name=None):  # noqa: A002
    """The 2-D DFT of the inner two axes."""
    return _C._fft_fftn(_complex("fft2d", input), None, [-2, -1], "backward")


def ifft2d(input, name=None):  # noqa: A002
    """The inverse 2-D DFT of the inner two axes."""
    return _C._fft_ifftn(_complex("ifft2d", input), None, [-2, -1], "backward")


def fft3d(input, name=None):  # noqa: A002
    """The 3-D DFT of the inner three axes."""
    return _C._fft_fftn(_complex("fft3d", input), None, [-3, -2, -1], "backward")


def ifft3d(input, name=None):  # noqa: A002
    """The inverse 3-D DFT of the inner three axes."""
    return _C._fft_ifftn(_complex("ifft3d", input), None, [-3, -2, -1], "backward")


def _real(x):
    return x if isinstance(x, _C.Tensor) else _C.constant(x)


def rfft(input_tensor, fft_length=None, name=None):
    """The real-input DFT of the innermost axis (``fft_length // 2 + 1`` terms)."""
    n = _lengths(fft_length, 1)
    return _C._fft_rfft(_real(input_tensor), None if n is None else n[0], -1, "backward")


def irfft(input_tensor, fft_length=None, name=None):
    """The inverse of ``rfft``: a real innermost axis of ``fft_length`` (default ``2 (m - 1)``)."""
    n = _lengths(fft_length, 1)
    return _C._fft_irfft(_complex("irfft", input_tensor), None if n is None else n[0], -1, "backward")


def rfft2d(input_tensor, fft_length=None, name=None):
    """The real-input 2-D DFT of the inner two axes."""
    return _C._fft_rfftn(_real(input_tensor), _lengths(fft_length, 2), [-2, -1], "backward")


def irfft2d(input_tensor, fft_length=None, name=None):
    """The inverse of ``rfft2d``."""
    t = _complex("irfft2d", input_tensor)
    s = _lengths(fft_length, 2) or [t.shape[-2], 2 * (t.shape[-1] - 1)]
    return _C._fft_irfftn(t, s, [-2, -1], "backward")


def rfft3d(input_tensor, fft_length=None, name=None):
    """The real-input 3-D DFT of the inner three axes."""
    return _C._fft_rfftn(_real(input_tensor), _lengths(fft_length, 3), [-3, -2, -1], "backward")


def irfft3d(input_tensor, fft_length=None, name=None):
    """The inverse of ``rfft3d``."""
    t = _complex("irfft3d", input_tensor)
    s = _lengths(fft_length, 3) or [t.shape[-3], t.shape[-2], 2 * (t.shape[-1] - 1)]
    return _C._fft_irfftn(t, s, [-3, -2, -1], "backward")


def fftshift(x, axes=None, name=None):
    """``x`` rolled by half its length along ``axes`` (default: all)."""
    ax = None if axes is None else ([axes] if isinstance(axes, int) else list(axes))
    return _C._fft_shift(_real(x), ax, False)


def ifftshift(x, axes=None, name=None):
    """The inverse of ``fftshift``."""
    ax = None if axes is None else ([axes] if isinstance(axes, int) else list(axes))
    return _C._fft_shift(_real(x), ax, True)
