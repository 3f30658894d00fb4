"""``lattensor.errors``: exception classes mirroring ``tf.errors``.

``OpError`` is the base of the op errors. Promotion refusals (SAFE mode, a
Variable's immutable dtype) raise the built-in ``TypeError``, as TF does.

Where TF's Python layer refuses an argument with a built-in exception before
any kernel runs, lattensor raises a class derived from both
``InvalidArgumentError`` and that built-in: ``InvalidValueError`` (a
``ValueError``), ``InvalidTypeError`` (a ``TypeError``) and
``InvalidIndexError`` (an ``IndexError``). Code written for TF that catches
the built-in catches them.
"""

from lattensor._lattensor import errors as _e

OpError = _e.OpError
InvalidArgumentError = _e.InvalidArgumentError
OutOfRangeError = _e.OutOfRangeError
ResourceExhaustedError = _e.ResourceExhaustedError
UnimplementedError = _e.UnimplementedError
InvalidValueError = _e.InvalidValueError
InvalidTypeError = _e.InvalidTypeError
InvalidIndexError = _e.InvalidIndexError

__all__ = [
    "OpError",
    "InvalidArgumentError",
    "OutOfRangeError",
    "ResourceExhaustedError",
    "UnimplementedError",
    "InvalidValueError",
    "InvalidTypeError",
    "InvalidIndexError",
]
