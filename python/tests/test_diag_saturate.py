"""tf.linalg's diagonal functions and tf.dtypes.saturate_cast against TF 2.21.

The expressions of data/tf_diag_saturate_golden.json (from
scripts/golden/tf_diag_saturate.py) give the same dtype, weakness, shape and
values with `tf` = lattensor, or raise the same class of error. The cases
marked "deviation" are where TF's saturate_cast is undefined behaviour or
crashes (docs/deviations.md); `DEVIATIONS` holds lattensor's answers.
"""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest

import lattensor as tf
import lattensor.experimental.numpy as tnp  # noqa: F401 (used by the expressions)
from conftest import encode_values as encode

GOLDEN = json.loads((pathlib.Path(__file__).parent / "data" / "tf_diag_saturate_golden.json").read_text())

I64_MAX, I64_MIN = 9.223372036854776e18, -9.223372036854776e18
DEVIATIONS = {
    # NaN casts to 0 (TF: INT_MIN, undefined behaviour in C++)
    "tf.dtypes.saturate_cast(tf.constant([float('nan'), float('inf'), -1e10]), tf.int32)":
        ("int32", [3], [0.0, 2147483520.0, -2147483648.0]),
    # float → 64-bit integers saturate (TF: INT_MIN / 2⁶³ from an out-of-range cast)
    "tf.dtypes.saturate_cast(tf.constant([1e20, -1e20, float('inf')], tf.float32), tf.int64)":
        ("int64", [3], [I64_MAX, I64_MIN, I64_MAX]),
    "tf.dtypes.saturate_cast(tf.constant([1e20, -1e20, float('inf')], tf.float32), tf.uint64)":
        ("uint64", [3], [1.8446744073709552e19, 0.0, 1.8446744073709552e19]),
    # 64-bit integer bounds (TF: OverflowError converting them to np.int32)
    "tf.dtypes.saturate_cast(tf.constant([2**63-1, -5], tf.int64), tf.uint64)":
        ("uint64", [2], [I64_MAX, 0.0]),
    "tf.dtypes.saturate_cast(tf.constant([2**40, -5], tf.int64), tf.complex64)":
        ("complex64", [2], [[1099511627776.0, 0.0], [-5.0, 0.0]]),
    "tf.dtypes.saturate_cast(tf.constant([2**62, -2**62], tf.int64), tf.float16)":
        ("float16", [2], [65504.0, -65504.0]),
}


@pytest.mark.parametrize("case", GOLDEN["cases"], ids=lambda c: c["expr"][:70])
def test_expression_matches_tf(case):
    expr, want = case["expr"], case["out"]
    if case.get("deviation"):
        got = eval(expr)  # noqa: S307 (the golden file's own expressions)
        assert want != {"dtype": DEVIATIONS[expr][0], "weak": False, "shape": DEVIATIONS[expr][1],
                        "values": DEVIATIONS[expr][2]}
        assert (got.dtype.name, list(got.shape), encode(got)) == DEVIATIONS[expr]
        assert not got.weak
        return
    if "error" in want:
        with pytest.raises(Exception) as info:  # noqa: PT011 (the class is checked below)
            eval(expr)  # noqa: S307
        assert type(info.value).__name__ == want["error"], info.value
        return
    got = eval(expr)  # noqa: S307
    assert (got.dtype.name, list(got.shape), got.weak) == (want["dtype"], want["shape"], want["weak"])
    assert _nan_safe(encode(got)) == _nan_safe(want["values"])


def _nan_safe(values):
    """Encoded values with NaN (which complex parts keep as floats) spelled "nan", so they compare equal."""
    if isinstance(values, list):
        return [_nan_safe(v) for v in values]
    return "nan" if isinstance(values, float) and values != values else values


def test_issue_cases_by_value():
    # the cases the conformance report gives, spelled out
    m = tf.linalg.diag(tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), k=(-1, 0))
    assert np.asarray(m).tolist() == [[1, 0, 0], [4, 2, 0], [0, 5, 3]]
    p = tf.linalg.diag([1.5, 2.5], padding_value=7)
    assert (p.dtype, p.weak, np.asarray(p).tolist()) == (tf.float32, True, [[1.5, 7], [7, 2.5]])
    x = tf.reshape(tf.range(9), [3, 3])
    b = tf.linalg.diag_part(x, k=(-1, 1), padding_value=-1)
    assert np.asarray(b).tolist() == [[-1, 1, 5], [0, 4, 8], [3, 7, -1]]
    # a single diagonal is a view of the input
    assert np.asarray(tf.linalg.diag_part(x, k=-1)).tolist() == [3, 7]


def test_refusals_name_the_op_and_the_allowed_values():
    with pytest.raises(tf.errors.InvalidArgumentError, match='diag: align must be one of "RIGHT_LEFT"'):
        tf.linalg.diag([1.0], align="right_left")
    with pytest.raises(tf.errors.InvalidArgumentError, match="diag_part: the upper diagonal index 5"):
        tf.linalg.diag_part(tf.ones([2, 2]), k=(0, 5))
    with pytest.raises(tf.errors.InvalidArgumentError, match="num_rows must be -1"):
        tf.linalg.diag([1.0], num_rows=-3)
    with pytest.raises(TypeError, match="bool has no range"):
        tf.saturate_cast(tf.constant([True]), tf.float32)


def test_saturate_cast_is_tf_dtypes_and_top_level():
    assert tf.dtypes.saturate_cast is tf.saturate_cast
    assert tf.dtypes.cast is tf.cast and tf.dtypes.float32 is tf.float32 and tf.dtypes.bool is tf.bool
    # convert_image_dtype's saturation is the same op
    img = tf.constant([[[1.5, -0.5]]], tf.float64)
    got = tf.image.convert_image_dtype(img, tf.uint8, saturate=True)
    assert np.asarray(got).tolist() == [[[255, 0]]]
