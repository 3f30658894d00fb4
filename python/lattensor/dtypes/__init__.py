"""``lattensor.dtypes``: TF's ``tf.dtypes``: the dtype objects, ``as_dtype``,
``cast`` and ``saturate_cast``."""

from lattensor._lattensor import (  # noqa: F401 (re-exported)
    DType,
    as_dtype,
    bfloat16,
    cast,
    complex64,
    complex128,
    float4_e2m1fn,
    float8_e4m3fn,
    float8_e4m3fnuz,
    float8_e5m2,
    float8_e5m2fnuz,
    float8_e8m0fnu,
    float16,
    float32,
    float64,
    int4,
    int8,
    int16,
    int32,
    int64,
    saturate_cast,
    uint4,
    uint8,
    uint16,
    uint32,
    uint64,
)
from lattensor._lattensor import bool  # noqa: A004, F401 (TF's name)

half = float16
double = float64
