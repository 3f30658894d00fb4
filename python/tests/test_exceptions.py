"""Refusals raise the exception classes TF 2.21 raises.

The golden data (data/tf_exceptions.json, from scripts/golden/tf_exceptions.py) holds,
for each expression, the class TF raised: the built-ins in its MRO (ValueError,
TypeError, IndexError, …) and the `tf.errors` class, if any. The same expression with
`tf` = lattensor must raise a class an `except` clause written for TF catches: every
built-in of TF's class and its `tf.errors` class (TF's NotFoundError for a missing
kernel is InvalidArgumentError here). It may not be a built-in TF's class is not,
except where NumPy raises one for the same refusal (NUMPY_TOO).
"""

from __future__ import annotations

import json
import pathlib

import numpy as np  # noqa: F401 (used by the expressions)
import pytest

import lattensor as tf
import lattensor.experimental.numpy as tnp  # noqa: F401 (used by the expressions)

GOLDEN = json.loads((pathlib.Path(__file__).parent / "data" / "tf_exceptions.json").read_text())

BUILTINS = {b: getattr(__import__("builtins"), b) for b in [
    "ValueError", "TypeError", "IndexError", "KeyError", "AttributeError", "OverflowError",
    "NotImplementedError", "ZeroDivisionError"]}

#: TF's kernel raises InvalidArgumentError, NumPy the built-in: lattensor's class is both
#: (docs/deviations.md, "Exception classes").
NUMPY_TOO = {
    "tnp.eye(-1)": "ValueError",
    "tnp.tri(-1)": "ValueError",
    "tf.zeros([-1])": "ValueError",
    "tnp.zeros(-1)": "ValueError",
    "tf.random.normal([-1])": "ValueError",
    "tnp.tile(tf.ones([2]), -1)": "ValueError",
    "tnp.full([2], [1, 2, 3])": "ValueError",
    "tf.ones([2])[5]": "IndexError",
    "tf.ones([2])[0, 0]": "IndexError",
    "tf.ones([2, 2])[..., ..., 0]": "IndexError",
}


class Unknown:
    """An operand type no tensor knows; nothing handles it, so the operator raises."""


class Declines:
    """An operand whose reflected methods decline (`NotImplemented`) or fail."""

    def __rsub__(self, other):
        return NotImplemented

    def __radd__(self, other):
        raise TypeError("Declines cannot add")


def _tf_class(name):
    return getattr(tf.errors, "InvalidArgumentError" if name == "NotFoundError" else name)


@pytest.mark.parametrize("case", GOLDEN["cases"], ids=lambda c: c["expr"][:70])
def test_refusal_class_matches_tf(case):
    expr = case["expr"]
    with pytest.raises(Exception) as info:
        eval(expr)  # noqa: S307 (the golden file's own expressions)
    got = info.value
    ours = {b for b, cls in BUILTINS.items() if isinstance(got, cls)}
    want = set(case["builtins"])
    assert want <= ours, f"{expr}: TF raised {case['class']}, lattensor {type(got).__mro__}: {got}"
    extra = ours - want - ({NUMPY_TOO[expr]} if expr in NUMPY_TOO else set())
    assert not extra, f"{expr}: TF's {case['class']} is not a {extra}; lattensor raised {type(got).__mro__}: {got}"
    if case["tf_error"]:
        assert isinstance(got, _tf_class(case["tf_error"])), (
            f"{expr}: TF raised {case['tf_error']}, lattensor {type(got).__mro__}: {got}")


def test_numpy_too_cases_are_tf_kernel_refusals():
    cases = {c["expr"]: c for c in GOLDEN["cases"]}
    for expr in NUMPY_TOO:
        assert cases[expr]["tf_error"] == "InvalidArgumentError" and not cases[expr]["builtins"], expr


def test_dual_classes_are_both():
    assert issubclass(tf.errors.InvalidValueError, tf.errors.InvalidArgumentError)
    assert issubclass(tf.errors.InvalidValueError, ValueError)
    assert issubclass(tf.errors.InvalidTypeError, tf.errors.InvalidArgumentError)
    assert issubclass(tf.errors.InvalidTypeError, TypeError)
    assert issubclass(tf.errors.InvalidIndexError, tf.errors.InvalidArgumentError)
    assert issubclass(tf.errors.InvalidIndexError, IndexError)
    assert not issubclass(tf.errors.InvalidArgumentError, (ValueError, TypeError, IndexError))
    with pytest.raises(tf.errors.InvalidValueError, match="step must be non-zero"):
        tnp.arange(0, 5, 0)


class Handles:
    """An operand that implements the operators with a tensor itself."""

    def __radd__(self, other):
        return ("radd", other.numpy().tolist())

    def __rmul__(self, other):
        return "rmul"

    def __rmatmul__(self, other):
        return "rmatmul"


def test_operators_hand_over_to_the_operand():
    # TF: `tensor + obj` hands over to `obj.__radd__` when the tensor cannot convert obj
    assert tf.ones([1], tf.int32) + Handles() == ("radd", [1])
    assert tf.ones([2]) * Handles() == "rmul"
    assert tf.ones([2]) @ Handles() == "rmatmul"
    # the tensor on the right does not hand back (TF's reflected operators convert or raise)
    with pytest.raises(ValueError):
        Handles() + tf.ones([1], tf.int32)
    # a list's own `__rmul__` (repetition) is not arithmetic with a tensor
    with pytest.raises(ValueError):
        tf.ones([1], tf.int32) * [Unknown()]


FLOAT64_ONLY = [2.0 ** 24 + 1, 1e-300, 1e300, 2.2e-271, 0.1]


@pytest.mark.parametrize("make", [
    lambda v: tf.constant(v, tf.float64),
    lambda v: tf.constant(v, dtype="float64"),
    lambda v: tf.convert_to_tensor(v, tf.float64),
    lambda v: tnp.asarray(v, dtype=tnp.float64),
    lambda v: tnp.asanyarray(v, tnp.float64),
    lambda v: tnp.array(v, dtype=tnp.float64),
    lambda v: tf.Tensor(v, tf.float64),
], ids=["constant", "constant-name", "convert_to_tensor", "asarray", "asanyarray", "array", "Tensor"])
def test_python_floats_keep_float64_precision(make):
    for shape in [(5,), (5, 1), (1, 5, 1)]:
        values = np.array(FLOAT64_ONLY).reshape(shape)
        got = make(values.tolist())
        assert got.dtype == tf.float64 and not got.weak
        assert np.asarray(got).tolist() == values.tolist(), shape
    # a tuple, and a list of mixed ints and floats
    assert np.asarray(make((2.0 ** 24 + 1, 1))).tolist() == [16777217.0, 1.0]
    # without a dtype the list is weak float32, as in TF
    w = tf.constant(FLOAT64_ONLY)
    assert (w.dtype, w.weak) == (tf.float32, True)
