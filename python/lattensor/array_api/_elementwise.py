"""The standard's element-wise functions, on lattensor's kernels (``lattensor.experimental.numpy``).

Each takes arrays (binary ones also a Python scalar on one side, weak as in
``x + 1``); errors name the function and the argument.
"""

from __future__ import annotations

import builtins as _b

from lattensor import _lattensor as _C
from lattensor.array_api import (
    _COMPLEX,
    _INTS,
    _UNSIGNED,
    _BOOL,
    Tensor,
    _arr,
    _err,
    _operand,
)
from lattensor.experimental import numpy as _tnp

__all__ = []


def _unary(name, kernel, doc):
    def f(x, /):
        return kernel(_arr(name, "x", x))

    f.__name__ = f.__qualname__ = name
    f.__doc__ = doc
    globals()[name] = f
    __all__.append(name)


def _checked_call(name, kernel, kinds, x1, x2):
    """The standard's argument checks (an array, or a Python scalar of ``kinds``, on
    each side; not two scalars), then ``kernel``."""
    a = _operand(name, "x1", x1, kinds)
    b = _operand(name, "x2", x2, kinds)
    if not isinstance(a, Tensor) and not isinstance(b, Tensor):
        raise TypeError(_err(name, "x1", "or 'x2' must be an array (both are Python scalars)"))
    return kernel(a, b)


def _binary(name, kernel, doc, kinds=(int, float, complex)):
    def f(x1, x2, /):
        # an array with an array or an allowed Python scalar (the common calls) needs no
        # more checks; Tensor has no subclasses
        t1, t2 = type(x1), type(x2)
        if (t1 is Tensor and (t2 is Tensor or t2 in kinds)) or (t2 is Tensor and t1 in kinds):
            return kernel(x1, x2)
        return _checked_call(name, kernel, kinds, x1, x2)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = doc
    globals()[name] = f
    __all__.append(name)


def _exact_for_ints(kernel):
    """Rounding functions return integer and boolean arrays unchanged (the standard's rule)."""

    def k(x):
        return x if x.dtype in _INTS + _BOOL else kernel(x)

    return k


def _real_part(x):
    return _C.real(x) if x.dtype in _COMPLEX else x


def _imag_part(x):
    return _C.imag(x) if x.dtype in _COMPLEX else _tnp.zeros_like(x)


def _conj(x):
    return _C.conj(x) if x.dtype in _COMPLEX else x


def _bitwise_invert(x):
    return _C.logical_not(x) if x.dtype in _BOOL else _tnp.bitwise_not(x)


def _abs(x):
    return x if x.dtype in _UNSIGNED + _BOOL else _tnp.abs(x)


def _negative(x):
    # unsigned negation wraps modulo 2**bits, as the standard's C semantics
    return _tnp.subtract(_tnp.zeros_like(x), x) if x.dtype in _UNSIGNED else _tnp.negative(x)


_UNARY = {
    "abs": (_abs, "``|x|`` (for complex ``x``: the modulus, a real dtype)."),
    "acos": (_tnp.arccos, "Inverse cosine."),
    "acosh": (_tnp.arccosh, "Inverse hyperbolic cosine."),
    "asin": (_tnp.arcsin, "Inverse sine."),
    "asinh": (_tnp.arcsinh, "Inverse hyperbolic sine."),
    "atan": (_tnp.arctan, "Inverse tangent."),
    "atanh": (_tnp.arctanh, "Inverse hyperbolic tangent."),
    "bitwise_invert": (_bitwise_invert, "``~x`` (for bool: logical not)."),
    "ceil": (_exact_for_ints(_tnp.ceil), "The smallest integer >= ``x``, in ``x``'s dtype."),
    "conj": (_conj, "The complex conjugate (real ``x`` is returned unchanged)."),
    "cos": (_tnp.cos, "Cosine."),
    "cosh": (_tnp.cosh, "Hyperbolic cosine."),
    "exp": (_tnp.exp, "``e**x``."),
    "expm1": (_tnp.expm1, "``e**x - 1``, accurate near 0."),
    "floor": (_exact_for_ints(_tnp.floor), "The largest integer <= ``x``, in ``x``'s dtype."),
    "imag": (_imag_part, "The imaginary part (zeros for real ``x``)."),
    "isfinite": (_tnp.isfinite, "Whether each element is finite (bool)."),
    "isinf": (_tnp.isinf, "Whether each element is +-infinity (bool)."),
    "isnan": (_tnp.isnan, "Whether each element is NaN (bool)."),
    "log": (_tnp.log, "Natural logarithm."),
    "log1p": (_tnp.log1p, "``log(1 + x)``, accurate near 0."),
    "log2": (_tnp.log2, "Base-2 logarithm."),
    "log10": (_tnp.log10, "Base-10 logarithm."),
    "logical_not": (_C.logical_not, "Logical not of a bool array."),
    "negative": (_negative, "``-x``."),
    "positive": (_tnp.positive, "``+x``."),
    "real": (_real_part, "The real part (real ``x`` is returned unchanged)."),
    "reciprocal": (_tnp.reciprocal, "``1 / x``."),
    "round": (_exact_for_ints(_tnp.round), "Rounds to the nearest integer, halves to even, in ``x``'s dtype."),
    "sign": (_tnp.sign, "-1, 0 or 1 (for complex ``x``: ``x / |x|``)."),
    "signbit": (_tnp.signbit, "Whether the sign bit is set (true for -0.0)."),
    "sin": (_tnp.sin, "Sine."),
    "sinh": (_tnp.sinh, "Hyperbolic sine."),
    "square": (_tnp.square, "``x * x``."),
    "sqrt": (_tnp.sqrt, "Square root."),
    "tan": (_tnp.tan, "Tangent."),
    "tanh": (_tnp.tanh, "Hyperbolic tangent."),
    "trunc": (_exact_for_ints(_tnp.fix), "Rounds toward zero, in ``x``'s dtype."),
}
for _n, (_k, _d) in _UNARY.items():
    _unary(_n, _k, _d)

_RI = (int, float)
_INT_BOOL = (int, _b.bool)


def _copysign(x1, x2):
    a = _tnp.abs(x1)
    return _tnp.where(_tnp.signbit(x2), _tnp.negative(a), a)


def _remainder(x1, x2):
    """``x1 % x2`` with a zero remainder carrying ``x2``'s sign, as the standard (and NumPy)
    want; TF's ``floormod`` behind ``_tnp.remainder`` and the ``%`` operator keeps ``x1``'s."""
    r = _tnp.remainder(x1, x2)
    if r.dtype in _INTS + _BOOL:
        return r
    z = _tnp.abs(r)  # +0 where r is a zero of either sign
    return _tnp.where(_tnp.equal(r, 0), _tnp.where(_tnp.less(x2, 0), _tnp.negative(z), z), r)


# (kernel, doc, the Python scalar kinds taken); doc None: bound in Rust, documented there
_BINARY = {
    "add": (_tnp.add, None, (int, float, complex)),
    "atan2": (_tnp.arctan2, "The angle of the point ``(x2, x1)``.", _RI),
    "bitwise_and": (_tnp.bitwise_and, "``x1 & x2``.", _INT_BOOL),
    "bitwise_or": (_tnp.bitwise_or, "``x1 | x2``.", _INT_BOOL),
    "bitwise_xor": (_tnp.bitwise_xor, "``x1 ^ x2``.", _INT_BOOL),
    "bitwise_left_shift": (lambda a, b: a << b if isinstance(a, Tensor) else _tnp.asarray(a, b.dtype) << b, "``x1 << x2``.", (int,)),
    "bitwise_right_shift": (lambda a, b: a >> b if isinstance(a, Tensor) else _tnp.asarray(a, b.dtype) >> b, "``x1 >> x2``.", (int,)),
    "copysign": (_copysign, "``|x1|`` with ``x2``'s sign bit.", _RI),
    "divide": (_tnp.true_divide, None, (int, float, complex)),
    "equal": (_tnp.equal, None, (int, float, complex, _b.bool)),
    "floor_divide": (_tnp.floor_divide, None, _RI),
    "greater": (_tnp.greater, None, _RI),
    "greater_equal": (_tnp.greater_equal, None, _RI),
    "hypot": (_tnp.hypot, "``sqrt(x1**2 + x2**2)`` without overflow.", _RI),
    "less": (_tnp.less, None, _RI),
    "less_equal": (_tnp.less_equal, None, _RI),
    "logaddexp": (_tnp.logaddexp, "``log(exp(x1) + exp(x2))`` without overflow.", _RI),
    "logical_and": (_tnp.logical_and, "Logical and of bool arrays.", (_b.bool,)),
    "logical_or": (_tnp.logical_or, "Logical or of bool arrays.", (_b.bool,)),
    "logical_xor": (_tnp.logical_xor, "Logical xor of bool arrays.", (_b.bool,)),
    "maximum": (_tnp.maximum, None, _RI),
    "minimum": (_tnp.minimum, None, _RI),
    "multiply": (_tnp.multiply, None, (int, float, complex)),
    "nextafter": (_tnp.nextafter, "The next representable value after ``x1`` toward ``x2``.", _RI),
    "not_equal": (_tnp.not_equal, None, (int, float, complex, _b.bool)),
    "pow": (_tnp.power, None, (int, float, complex)),
    "remainder": (_remainder, "``x1 % x2``, with ``x2``'s sign (Python's ``%``), a zero's included.", _RI),
    "subtract": (_tnp.subtract, None, (int, float, complex)),
}
# the functions whose kernel is one lattice op are bound in Rust (``_C.array_api``), with
# no Python frame for an array with an array or an allowed Python scalar; they hand
# other arguments to ``_checked``
_RUST = _C.array_api
for _n, (_k, _d, _kinds) in _BINARY.items():
    if _n in _RUST.RUST_BINARY:
        globals()[_n] = getattr(_RUST, _n)
        __all__.append(_n)
    else:
        _binary(_n, _k, _d, _kinds)


def _checked(name, x1, x2):
    """The standard's argument checks for the Rust-bound ``name``, then its kernel."""
    kernel, _, kinds = _BINARY[name]
    return _checked_call(name, kernel, kinds, x1, x2)


def clip(x, /, min=None, max=None):  # noqa: A002 (the standard's names)
    """``clip(x, 0, 1)``: ``x`` limited to ``[min, max]`` (either may be None); keeps ``x``'s dtype."""
    _arr("clip", "x", x)
    out = x
    if min is not None:
        _operand("clip", "min", min, (int, float))
        out = _tnp.where(_tnp.less(out, min), _C.cast(_tnp.asarray(min), x.dtype) if isinstance(min, Tensor) else min, out)
    if max is not None:
        _operand("clip", "max", max, (int, float))
        out = _tnp.where(_tnp.greater(out, max), _C.cast(_tnp.asarray(max), x.dtype) if isinstance(max, Tensor) else max, out)
    out = _tnp.where(_tnp.isnan(x), x, out) if x.dtype not in _INTS + _BOOL else out
    out = _tnp.broadcast_to(out, _tnp.broadcast_arrays(out, x)[0].shape)
    return out if out.dtype == x.dtype else _C.cast(out, x.dtype)


__all__.append("clip")
