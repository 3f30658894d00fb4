"""``lattensor.errors``: exception classes mirroring ``tf.errors``.

``OpError`` is the base of the op errors. Promotion refusals (SAFE mode, a
Variable's immutable dtype) raise the built-in ``TypeError``, as TF does.
"""

from lattensor._lattensor import errors as _e

OpError = _e.OpError
InvalidArgumentError = _e.InvalidArgumentError
OutOfRangeError = _e.OutOfRangeError
ResourceExhaustedError = _e.ResourceExhaustedError
UnimplementedError = _e.UnimplementedError

__all__ = [
    "OpError",
    "InvalidArgumentError",
    "OutOfRangeError",
    "ResourceExhaustedError",
    "UnimplementedError",
]
