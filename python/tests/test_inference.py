"""Input inference (report.md §d): what dtype and weakness Python values get."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import lattensor as lt
import lattensor.experimental.numpy as tnp


def k(t):
    return (t.dtype.name, t.weak)


@pytest.mark.parametrize(
    "value,want",
    [
        (5, ("int32", True)),
        (-(2**31), ("int32", True)),
        (2**31 - 1, ("int32", True)),
        (2**31, ("int64", True)),  # TF: OverflowError; lattensor: i64*
        (-(2**63), ("int64", True)),
        (5.0, ("float32", True)),
        (1e300, ("float32", True)),  # the value does not matter, as in TF (it becomes inf)
        (5j, ("complex128", True)),
        (True, ("bool", False)),
        ([1, 2.0], ("float32", True)),
        ([1, 1j], ("complex128", True)),
        ([True, 1], ("int32", True)),
        ((1.0, 2.0), ("float32", True)),
        ([[1, 2], [3, 4]], ("int32", True)),
        ([], ("float32", True)),
        ([np.int8(1), 1], ("int8", False)),
        ([np.float64(1), 1], ("float64", False)),
        (np.array([1, 2]), ("int64", False)),
        (np.array(1.0), ("float64", False)),
        (np.float32(1), ("float32", False)),
        (np.float64(1), ("float64", False)),  # a float subclass, but a NumPy value: strong
        (np.bool_(True), ("bool", False)),
        (np.array([1, 2], dtype=ml_dtypes.bfloat16), ("bfloat16", False)),
    ],
)
def test_constant_inference(value, want):
    assert k(lt.constant(value)) == want


@pytest.mark.parametrize(
    "make",
    [
        lambda: lt.constant(2**63),  # no weak uint64 exists
        lambda: lt.constant(2**63, lt.int64),
        lambda: lt.constant(2**63, lt.int32),
        lambda: lt.constant([1, 2**63]),
        lambda: lt.constant([2**63], lt.int64),
        lambda: lt.convert_to_tensor(2**63),
        lambda: lt.constant(1, lt.int64) + 2**63,
        lambda: lt.math.add(lt.constant(1, lt.int64), 2**63),
        lambda: lt.fill([2], 2**63),
        lambda: tnp.asarray(2**63),
        lambda: tnp.asarray(2**63, tnp.int64),
        lambda: tnp.full([2], 2**63),
    ],
)
def test_int_in_2_63_to_2_64_into_a_signed_dtype_is_an_overflow_error(make):
    # TF 2.21 with NumPy behaviour raises OverflowError in each of these
    with pytest.raises(OverflowError):
        make()


def test_int_beyond_int64():
    t = lt.constant(2**64 - 1, dtype=lt.uint64)
    assert k(t) == ("uint64", False) and int(t) == 2**64 - 1
    with pytest.raises(OverflowError):
        lt.constant(2**64)


def test_big_int_with_int64_dtype_is_accepted():
    # TF raises OverflowError even with dtype=int64; lattensor converts
    t = lt.constant(2**40, lt.int64)
    assert k(t) == ("int64", False) and int(t) == 2**40
    assert lt.constant([1, 2**40], dtype=lt.int64).numpy().tolist() == [1, 2**40]
    assert (lt.constant(1, lt.int64) + 2**40).numpy() == 2**40 + 1


def test_tensors_keep_theirs_and_variables_are_strong():
    w = lt.constant(5)
    assert lt.constant(w) is not None and k(lt.constant(w)) == ("int32", True)
    v = lt.Variable(10)
    assert k(v.read_value()) == ("int32", False)
    assert k(lt.math.add(v, 1)) == ("int32", False)


def test_ragged_and_unsupported_inputs_raise_clearly():
    with pytest.raises(ValueError, match="ragged"):
        lt.constant([[1, 2], [3]])
    # a type no tensor converts is TF's ValueError (there are no string tensors)
    with pytest.raises(ValueError, match="cannot convert"):
        lt.constant("text")
    with pytest.raises(ValueError, match="cannot convert"):
        lt.constant(object())
    with pytest.raises(ValueError):
        lt.constant(None)
    with pytest.raises(TypeError):
        lt.constant(np.array(["a"]))


def test_constant_with_dtype_follows_tf_rule():
    assert k(lt.constant(lt.constant(10, lt.int16), lt.float32)) == ("float32", False)
    assert lt.constant(300, lt.int8).numpy() == 44  # TF wraps: the literal is not range-checked
    with pytest.raises(lt.errors.InvalidArgumentError):
        lt.constant(1.5, lt.int32)
    assert lt.constant(np.array([1.5]), lt.int32).numpy().tolist() == [1]  # NumPy data casts, as TF
    with lt.promotion_mode("safe"):
        with pytest.raises(TypeError):
            lt.constant(lt.constant(1, lt.int32), lt.float32)


def test_constant_shape_argument():
    assert lt.constant(0, shape=[2, 3]).numpy().tolist() == [[0, 0, 0], [0, 0, 0]]
    assert lt.constant([1, 2, 3, 4], shape=(2, 2)).shape == (2, 2)


def test_numpy_input_is_copied_not_aliased():
    a = np.arange(4, dtype=np.float32)
    t = lt.constant(a)
    a[0] = 100
    assert t.numpy()[0] == 0  # constant copies NumPy data


def test_noncontiguous_and_byteswapped_numpy():
    a = np.arange(12, dtype=np.int32).reshape(3, 4)[:, ::2]
    assert lt.constant(a).numpy().tolist() == a.tolist()
    b = np.arange(3, dtype=">i4")
    t = lt.constant(b)
    assert t.dtype == lt.int32 and t.numpy().tolist() == [0, 1, 2]


def test_result_type_accepts_dtypes_and_values():
    assert lt.result_type(lt.int32, lt.float32) == (lt.float32, False)
    assert lt.result_type(1, 2) == (lt.int32, True)
