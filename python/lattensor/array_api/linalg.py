"""``lattensor.array_api.linalg``: the standard's linear-algebra extension.

The decompositions (``cholesky``, ``det``, ``slogdet``, ``inv``, ``solve``,
``qr``, ``eigh``, ``eigvalsh``, ``eig``, ``eigvals``, ``svd``, ``svdvals``, ``pinv``,
``matrix_rank``, ``matrix_norm``) run on faer in the Rust core, batched over
leading axes; the rest (``cross``, ``outer``, ``matrix_power``, ``diagonal``,
``trace``, ``vector_norm``, and ``matmul``, ``matrix_transpose``,
``tensordot``, ``vecdot`` from the main namespace) are built from the
namespace's functions. Inputs to the decompositions must be floating point
(real or complex); results keep the input's dtype (eigenvalues, singular
values, norms and ``logabsdet`` its real dtype). A singular matrix given to
``inv``/``solve`` and a matrix that is not positive-definite given to
``cholesky`` raise ``lattensor.errors.InvalidArgumentError`` (TF's class;
NumPy raises ``LinAlgError``).
"""

from __future__ import annotations

import builtins as _b
import math as _math
from typing import NamedTuple

from lattensor import _lattensor as _C
from lattensor import array_api as _xp
from lattensor.array_api import _COMPLEX, _FLOATS, Tensor, _arr, _err
from lattensor.array_api._rest import matmul, matrix_transpose, tensordot, vecdot
from lattensor.experimental import numpy as _tnp

__all__ = [
    "cholesky", "cross", "det", "diagonal", "eig", "eigh", "eigvals", "eigvalsh", "inv", "matmul", "matrix_norm",
    "matrix_power", "matrix_rank", "matrix_transpose", "outer", "pinv", "qr", "slogdet", "solve", "svd",
    "svdvals", "tensordot", "trace", "vecdot", "vector_norm",
]


class EighResult(NamedTuple):
    """``eigh``'s result."""

    eigenvalues: Tensor
    eigenvectors: Tensor


class QRResult(NamedTuple):
    """``qr``'s result."""

    Q: Tensor
    R: Tensor


class SlogdetResult(NamedTuple):
    """``slogdet``'s result."""

    sign: Tensor
    logabsdet: Tensor


class SVDResult(NamedTuple):
    """``svd``'s result."""

    U: Tensor
    S: Tensor
    Vh: Tensor


def _matrices(fn: str, x, square: bool = False) -> Tensor:
    """``x`` checked: an array of a floating dtype with at least two axes (square if asked)."""
    _arr(fn, "x", x)
    if x.dtype not in _FLOATS:
        raise TypeError(_err(fn, "x", f"must have a floating-point dtype, got {x.dtype}; cast with xp.astype(x, xp.float64)"))
    if x.ndim < 2:
        raise ValueError(_err(fn, "x", f"must have at least two dimensions, got shape {x.shape}"))
    if square and x.shape[-1] != x.shape[-2]:
        raise ValueError(_err(fn, "x", f"must be a stack of square matrices, got shape {x.shape}"))
    return x


def cholesky(x, /, *, upper=False):
    """The Cholesky factor: lower ``L`` with ``x = L Lᴴ``, or with ``upper`` ``U`` with ``x = Uᴴ U``."""
    return _C._linalg_cholesky(_matrices("cholesky", x, True), _b.bool(upper))


def det(x, /):
    """The determinant of each matrix."""
    return _C.det(_matrices("det", x, True))


def slogdet(x, /):
    """``(sign, logabsdet)`` of each matrix's determinant."""
    return SlogdetResult(*_C.slogdet(_matrices("slogdet", x, True)))


def inv(x, /):
    """The inverse of each matrix."""
    return _C.inv(_matrices("inv", x, True))


def solve(x1, x2, /):
    """The solution ``x`` of ``x1 @ x = x2``; a 1-D ``x2`` is one vector, otherwise ``(..., M, K)``."""
    _matrices("solve", x1, True)
    _arr("solve", "x2", x2)
    if x2.ndim == 1:
        if x2.shape[0] != x1.shape[-1]:
            raise ValueError(_err("solve", "x2", f"has {x2.shape[0]} rows but x1 is {x1.shape[-1]} × {x1.shape[-1]}"))
        out = _C._linalg_solve(x1, _xp.expand_dims(x2, axis=1))
        return _xp.squeeze(out, axis=-1)
    if x2.ndim < 2:
        raise ValueError(_err("solve", "x2", "must have at least one dimension"))
    return _C._linalg_solve(x1, x2)


def qr(x, /, *, mode="reduced"):
    """``(Q, R)`` with ``x = Q R``; ``mode`` is ``"reduced"`` or ``"complete"``."""
    if mode not in ("reduced", "complete"):
        raise ValueError(_err("qr", "mode", f"must be 'reduced' or 'complete', got {mode!r}"))
    return QRResult(*_C._linalg_qr(_matrices("qr", x), mode))


def eigh(x, /):
    """``(eigenvalues, eigenvectors)`` of each Hermitian matrix (lower triangle read), ascending."""
    return EighResult(*_C.eigh(_matrices("eigh", x, True)))


class EigResult(NamedTuple):
    """``eig``'s result."""

    eigenvalues: Tensor
    eigenvectors: Tensor


def eig(x, /):
    """``(eigenvalues, eigenvectors)`` of each general square matrix, complex
    (complex64 for float32 input, complex128 for float64)."""
    return EigResult(*_C._linalg_eig(_matrices("eig", x, True)))


def eigvals(x, /):
    """The complex eigenvalues of each general square matrix."""
    return _C._linalg_eigvals(_matrices("eigvals", x, True))


def eigvalsh(x, /):
    """The eigenvalues of each Hermitian matrix, ascending."""
    return _C.eigvalsh(_matrices("eigvalsh", x, True))


def svd(x, /, *, full_matrices=True):
    """``(U, S, Vh)`` with ``x = U diag(S) Vh``, ``S`` descending."""
    return SVDResult(*_C._linalg_svd(_matrices("svd", x), _b.bool(full_matrices)))


def svdvals(x, /):
    """The singular values of each matrix, descending."""
    return _C._linalg_svdvals(_matrices("svdvals", x))


def _rtol_float(fn: str, rtol):
    """``rtol`` as a Python float (or None), or None with the array to use per matrix."""
    if rtol is None:
        return None, None
    if isinstance(rtol, Tensor):
        if rtol.ndim == 0:
            return float(rtol), None
        return None, rtol
    if isinstance(rtol, (int, float)) and not isinstance(rtol, _b.bool):
        return float(rtol), None
    raise TypeError(_err(fn, "rtol", f"must be a float or an array, got {type(rtol).__name__}"))


def pinv(x, /, *, rtol=None):
    """The Moore-Penrose pseudo-inverse; singular values ≤ ``rtol · max(S)`` count as zero
    (``rtol`` defaults to ``max(M, N) · eps``)."""
    _matrices("pinv", x)
    r, arr = _rtol_float("pinv", rtol)
    if arr is None:
        return _C._linalg_pinv(x, r)
    u, s, vh = svd(x, full_matrices=False)
    cutoff = _xp.multiply(_xp.expand_dims(_xp.astype(arr, s.dtype), axis=-1), _xp.max(s, axis=-1, keepdims=True))
    sinv = _xp.where(s > cutoff, 1 / _xp.where(s > cutoff, s, _xp.ones_like(s)), _xp.zeros_like(s))
    v = _xp.conj(matrix_transpose(vh)) if x.dtype in _COMPLEX else matrix_transpose(vh)
    uh = _xp.conj(matrix_transpose(u)) if x.dtype in _COMPLEX else matrix_transpose(u)
    return matmul(v * _xp.astype(_xp.expand_dims(sinv, axis=-2), x.dtype), uh)


def matrix_rank(x, /, *, rtol=None):
    """The number of singular values above ``rtol · max(S)`` (default ``max(M, N) · eps``), as int64."""
    _matrices("matrix_rank", x)
    r, arr = _rtol_float("matrix_rank", rtol)
    if arr is None:
        return _C._linalg_matrix_rank(x, r)
    s = svdvals(x)
    cutoff = _xp.multiply(_xp.expand_dims(_xp.astype(arr, s.dtype), axis=-1), _xp.max(s, axis=-1, keepdims=True))
    return _xp.count_nonzero(s > cutoff, axis=-1)


def matrix_norm(x, /, *, keepdims=False, ord="fro"):  # noqa: A002 (the standard's name)
    """The matrix norm ``ord`` (``"fro"``, ``"nuc"``, 1, -1, 2, -2, inf, -inf) of each matrix."""
    return _C._linalg_matrix_norm(_matrices("matrix_norm", x), ord, _b.bool(keepdims))


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):  # noqa: A002
    """The vector ``ord``-norm over ``axis`` (default: all axes), in ``x``'s real dtype."""
    _arr("vector_norm", "x", x)
    if x.dtype not in _FLOATS:
        raise TypeError(_err("vector_norm", "x", f"must have a floating-point dtype, got {x.dtype}"))
    if isinstance(ord, _b.bool) or not isinstance(ord, (int, float)):
        raise TypeError(_err("vector_norm", "ord", f"must be a number, got {ord!r}"))
    a = _xp.abs(x)
    if ord == _math.inf:
        return _xp.max(a, axis=axis, keepdims=keepdims)
    if ord == -_math.inf:
        return _xp.min(a, axis=axis, keepdims=keepdims)
    if ord == 0:
        return _xp.astype(_xp.sum(_xp.astype(a != 0, a.dtype), axis=axis, keepdims=keepdims), a.dtype)
    if ord == 1:
        return _xp.sum(a, axis=axis, keepdims=keepdims)
    if ord == 2:
        return _xp.sqrt(_xp.sum(a * a, axis=axis, keepdims=keepdims))
    return _xp.pow(_xp.sum(_xp.pow(a, float(ord)), axis=axis, keepdims=keepdims), 1.0 / ord)


def cross(x1, x2, /, *, axis=-1):
    """The cross product of 3-element vectors along ``axis`` (after broadcasting)."""
    _arr("cross", "x1", x1)
    _arr("cross", "x2", x2)
    if not isinstance(axis, int) or isinstance(axis, _b.bool):
        raise TypeError(_err("cross", "axis", f"must be an int, got {axis!r}"))
    nd = _b.max(x1.ndim, x2.ndim)
    if not -nd <= axis < nd or (axis >= 0 and x1.ndim != x2.ndim):
        raise ValueError(_err("cross", "axis", f"{axis} is out of range for shapes {x1.shape} and {x2.shape}"))
    a, b = _xp.broadcast_arrays(x1, x2)
    if a.shape[axis] != 3:
        raise ValueError(_err("cross", "x1", f"must have size 3 along axis {axis}, got shape {x1.shape}"))
    a, b = _xp.moveaxis(a, axis, -1), _xp.moveaxis(b, axis, -1)
    a0, a1, a2 = (a[..., i] for i in range(3))
    b0, b1, b2 = (b[..., i] for i in range(3))
    c = _xp.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=-1)
    return _xp.moveaxis(c, -1, axis)


def outer(x1, x2, /):
    """The outer product of two vectors."""
    _arr("outer", "x1", x1)
    _arr("outer", "x2", x2)
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError(_err("outer", "x1" if x1.ndim != 1 else "x2", "must be one-dimensional"))
    return _xp.multiply(_xp.expand_dims(x1, axis=1), x2)


def matrix_power(x, n, /):
    """``x`` multiplied by itself ``n`` times (``n < 0``: powers of the inverse; 0: identity)."""
    _arr("matrix_power", "x", x)
    if not isinstance(n, int) or isinstance(n, _b.bool):
        raise TypeError(_err("matrix_power", "n", f"must be an int, got {type(n).__name__}"))
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(_err("matrix_power", "x", f"must be a stack of square matrices, got shape {x.shape}"))
    if n == 0:
        return _xp.broadcast_to(_xp.eye(x.shape[-1], dtype=x.dtype), x.shape)
    if n < 0:
        x, n = inv(x), -n
    result, base = None, x
    while n:
        if n & 1:
            result = base if result is None else matmul(result, base)
        n >>= 1
        if n:
            base = matmul(base, base)
    return result


def diagonal(x, /, *, offset=0):
    """The ``offset`` diagonal of each matrix (the last two axes)."""
    _arr("diagonal", "x", x)
    if x.ndim < 2:
        raise ValueError(_err("diagonal", "x", "must have at least two dimensions"))
    return _tnp.diagonal(x, offset, -2, -1)


def trace(x, /, *, offset=0, dtype=None):
    """The sum of the ``offset`` diagonal of each matrix (``sum``'s dtype rules)."""
    return _xp.sum(diagonal(x, offset=offset), axis=-1, dtype=dtype)
