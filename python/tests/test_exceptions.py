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


@pytest.mark.parametrize("case", GOLDEN["accepted"], ids=lambda c: c["expr"][:70])
def test_conversions_tf_performs(case):
    # tf.constant(tensor, dtype) converts where the promotion lands on dtype; an int
    # literal inside int32 wraps to a narrower dtype, as TF's np.int32 route does
    got = eval(case["expr"])  # noqa: S307 (the golden file's own expressions)
    assert got.dtype.name == case["dtype"] and not got.weak, (case, got)
    assert np.asarray(got).tolist() == case["value"], (case, got)


def _safe_operands(mode):
    """TF's SAFE operands (int32, float32); for STRICT a pair SAFE allows and STRICT
    refuses (int32, int16); for ALL two float8 dtypes the lattice has no join for."""
    env = {"tf": tf, "tnp": tnp}
    if mode == "all":
        import ml_dtypes
        return (tf.constant(np.array([1, 2, 3], ml_dtypes.float8_e4m3fn)),
                tf.constant(np.array([1, 2, 3], ml_dtypes.float8_e5m2)))
    x = eval(GOLDEN["safe"]["x"], env)  # noqa: S307
    y = tf.constant([1, 2, 3], tf.int16) if mode == "strict" else eval(GOLDEN["safe"]["y"], env)  # noqa: S307
    return x, y


@pytest.mark.parametrize("mode", ["safe", "strict", "all"])
@pytest.mark.parametrize("case", GOLDEN["safe"]["cases"], ids=lambda c: c["expr"][:60])
def test_composite_ops_check_the_operands_as_given(case, mode):
    """An op that converts an operand (to float, to a working dtype) before promoting it
    still refuses the pair the mode refuses, as `tf.math.add` of the same operands does."""
    x, y = _safe_operands(mode)
    with tf.promotion_mode(mode), pytest.raises(TypeError) as info:
        eval(case["expr"], {"tf": tf, "tnp": tnp, "x": x, "y": y})  # noqa: S307
    got = info.value
    # the refusal is the promotion error of the original operands, not of a converted one
    msg = str(got)
    assert f"promotion mode {mode.upper()}" in msg, msg
    for d in (x.dtype, y.dtype):
        assert f"({d.name}, weak=False)" in msg, msg
    if case["raises"]:
        # TF's SAFE class (TypeError, no tf.errors class): the same families
        assert {b for b, cls in BUILTINS.items() if isinstance(got, cls)} == set(case["builtins"]), case
        assert not isinstance(got, tf.errors.OpError)
    else:
        # TF's tnp function bypasses the lattice here (docs/deviations.md): it computes
        # in a dtype the pair's join is not, which the same operands' `add` refuses
        assert case["dtype"] in ("float64", "bool"), case


def test_safe_golden_covers_refusals_and_bypasses():
    cases = {c["expr"]: c for c in GOLDEN["safe"]["cases"]}
    # the reference op refuses in TF; the lattice-bypassing tnp functions accept
    assert cases["tf.math.add(x, y)"]["raises"] and cases["tf.math.add(x, y)"]["builtins"] == ["TypeError"]
    assert cases["tnp.average(x, weights=y)"]["raises"]
    assert not cases["tnp.arctan2(x, y)"]["raises"] and cases["tnp.arctan2(x, y)"]["dtype"] == "float64"


@pytest.mark.parametrize("mode", ["all", "safe", "strict"])
def test_std_with_dtype_checks_like_var(mode):
    # tnp.std's dtype (NumPy's; TF's tnp.std has none) follows tnp.var's measured rule
    for pair in ("safe", "strict"):
        x, y = _safe_operands(pair)
        with tf.promotion_mode(mode):
            try:
                want = tnp.var(x, dtype=y.dtype)
            except TypeError as e:
                with pytest.raises(type(e)):
                    tnp.std(x, dtype=y.dtype)
                continue
            got = tnp.std(x, dtype=y.dtype)
        assert got.dtype == want.dtype == y.dtype and not got.weak
        np.testing.assert_allclose(np.asarray(got, np.float64) ** 2, np.asarray(want, np.float64), rtol=1e-6)


def test_convert_to_tensor_never_converts_a_tensor():
    i16 = tf.constant([1, 2], tf.int16)
    for d in (tf.float32, tf.int32, tf.int8):
        with pytest.raises(ValueError, match=f"requested dtype {d.name} for a Tensor of dtype int16"):
            tf.convert_to_tensor(i16, d)
        # tf.constant converts where the promotion allows (int16 -> float32, int32)
        if d != tf.int8:
            assert tf.constant(i16, d).dtype == d
    assert tf.convert_to_tensor(i16, tf.int16) is not None
    with pytest.raises(ValueError, match="for a Variable of dtype int16"):
        tf.convert_to_tensor(tf.Variable(i16), tf.float32)


def test_int_literal_overflow_names_value_and_dtype():
    for expr, value, dtype in [("tf.constant(2**40, tf.int32)", 2**40, "int32"),
                               ("tf.constant([1, 2**40], tf.int32)", 2**40, "int32"),
                               ("tf.constant(-2**31 - 1, tf.int16)", -2**31 - 1, "int16")]:
        with pytest.raises(OverflowError) as info:
            eval(expr)  # noqa: S307
        assert f"{value}" in str(info.value) and dtype in str(info.value), info.value
    # beyond int32, a dtype that holds the literal keeps it (TF raises: docs/deviations.md)
    assert np.asarray(tf.constant(2**40, tf.int64)).tolist() == 2**40
    assert np.asarray(tf.constant([2**31], tf.uint32)).tolist() == [2**31]
