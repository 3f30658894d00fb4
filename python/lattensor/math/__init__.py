"""``lattensor.math``: TF's ``tf.math`` namespace.

Every function promotes its operands through the lattice of the current
promotion mode (binary ops) or keeps the input's dtype and weakness (unary
ops); Python numbers and lists are inferred as TF infers them.
"""

from lattensor._api import bind as _bind
from lattensor.math import special

_bind(
    globals(),
    """
    abs acos acosh add angle asin asinh atan atan2 atanh ceil conj cos cosh digamma divide
    divide_no_nan erf erfc erfcinv erfinv exp expm1 floor floordiv floormod imag lgamma log
    log1p log_sigmoid multiply multiply_no_nan ndtri negative pow real reciprocal
    reciprocal_no_nan reduce_euclidean_norm reduce_logsumexp reduce_max reduce_mean reduce_min
    reduce_prod reduce_std reduce_sum reduce_variance rint round rsqrt scalar_mul sigmoid sign
    sin sinh softplus sqrt square subtract tan tanh
    truediv realdiv truncatediv truncatemod maximum minimum equal not_equal less less_equal
    greater greater_equal logical_and logical_or logical_xor logical_not is_nan is_inf is_finite
    reduce_any reduce_all cumsum cumprod argmax argmin unsorted_segment_sum
    """.split(),
)

mod = floormod  # TF's alias: tf.math.mod is tf.math.floormod


def count_nonzero(input, axis=None, keepdims=None, dtype=None, name=None):  # noqa: A002 (TF's names)
    """``tf.math.count_nonzero(input, axis=None, keepdims=None, dtype=tf.int64)``: how
    many elements of ``input`` along ``axis`` (all if ``None``) are not zero (not
    ``False`` for bool), as a strong ``dtype`` (int64 by default)."""
    import lattensor as _tf
    import lattensor.experimental.numpy as _tnp

    del name
    counts = _tnp.count_nonzero(input, axis, keepdims=bool(keepdims))
    return counts if dtype is None else _tf.cast(counts, dtype)
