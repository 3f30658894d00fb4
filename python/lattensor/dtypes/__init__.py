"""``lattensor.dtypes``: TF's ``tf.dtypes``: the dtype objects, ``as_dtype``,
``cast`` and ``saturate_cast``."""

from lattensor._lattensor import (  # noqa: F401 (re-exported)
    DType,
    as_dtype,
    bfloat16,
    cast,
    complex64,
    complex128,
    float16,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    saturate_cast,
    uint8,
    uint16,
    uint32,
    uint64,
)
from lattensor._lattensor import bool  # noqa: A004, F401 (TF's name)

half = float16
double = float64
