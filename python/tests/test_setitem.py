"""Item assignment (``x[key] = value``, the Array API's ``__setitem__``) and the
``@`` operator's vector rule, against NumPy and array-api-strict on the same
inputs.

Item assignment gives the ``Tensor`` object a new tensor: values are never
written in place, so slices, NumPy views, buffers and copies taken before the
write keep the old values."""

from __future__ import annotations

import copy
import threading

import ml_dtypes
import numpy as np
import pytest

import lattensor as lt
import lattensor.array_api as xp

strict = pytest.importorskip("array_api_strict")

BASE = np.arange(24, dtype=np.float64).reshape(4, 6) - 7.5
MASK = (np.arange(24).reshape(4, 6) % 5) == 1

# (key for NumPy, key for lattensor, value shape): every kind of index the standard names
KEYS = [
    ("int", 2, 2, (6,)),
    ("negative int", -1, -1, (6,)),
    ("tuple of ints", (1, 3), (1, 3), ()),
    ("slice", slice(1, 3), slice(1, 3), (2, 6)),
    ("stepped slices", (slice(None, None, 2), slice(5, 0, -2)), (slice(None, None, 2), slice(5, 0, -2)), (2, 3)),
    ("ellipsis", (Ellipsis, 0), (Ellipsis, 0), (4,)),
    ("empty slice", slice(2, 2), slice(2, 2), (0, 6)),
    ("boolean mask", MASK, None, (int(MASK.sum()),)),
    ("boolean row mask", np.array([True, False, True, False]), None, (2, 6)),
    ("integer array", np.array([3, 0, -1]), None, (3, 6)),
]

DTYPES = ["float32", "float64", "int8", "int64", "uint8", "complex64", "float16", "bfloat16", "bool"]


def _np_dtype(name):
    return np.dtype(ml_dtypes.bfloat16) if name == "bfloat16" else np.dtype(name)


def _lt_key(np_key, lt_key):
    if lt_key is not None:
        return lt_key
    return lt.constant(np_key)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", KEYS, ids=[k[0] for k in KEYS])
@pytest.mark.parametrize("value_kind", ["scalar", "array", "broadcast"])
def test_setitem_matches_numpy(dtype, case, value_kind):
    _, np_key, lt_key, vshape = case
    d = _np_dtype(dtype)
    want = BASE.astype(d)
    x = lt.constant(want)
    if value_kind == "scalar":
        value_np = value_lt = True if dtype == "bool" else (3 if dtype in ("int8", "int64", "uint8") else 2.5)
    else:
        shape = vshape if value_kind == "array" else vshape[-1:]
        value_np = (np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape) * 3 - 4).astype(d)
        value_lt = lt.constant(value_np)
    want[np_key] = value_np
    x[_lt_key(np_key, lt_key)] = value_lt
    assert x.dtype == lt.as_dtype(dtype) and not x.weak
    got = np.asarray(x)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8))  # bit for bit


@pytest.mark.parametrize("case", KEYS, ids=[k[0] for k in KEYS])
def test_setitem_matches_array_api_strict(case):
    _, np_key, lt_key, vshape = case
    if isinstance(np_key, np.ndarray) and np_key.dtype != np.bool_:
        pytest.skip("array-api-strict refuses integer-array keys in __setitem__; lattensor takes NumPy's")
    x = xp.asarray(BASE, dtype=xp.float32)
    s = strict.asarray(BASE, dtype=strict.float32)
    value = np.linspace(-1.0, 1.0, int(np.prod(vshape)), dtype=np.float32).reshape(vshape)
    x[_lt_key(np_key, lt_key)] = xp.asarray(value)
    # array-api-strict wants an index per axis (or an ellipsis) and its own arrays
    skey = strict.asarray(np_key) if isinstance(np_key, np.ndarray) else np_key
    if isinstance(skey, (int, slice)):
        skey = (skey, Ellipsis)
    s[skey] = strict.asarray(value)
    np.testing.assert_array_equal(np.asarray(x), np.asarray(s))


def test_repeated_integer_indices_keep_the_last_value_as_numpy_does():
    x = xp.zeros(4, dtype=xp.int32)
    x[xp.asarray([1, 1, 3, 1])] = xp.asarray([5, 6, 7, 8], dtype=xp.int32)
    np.testing.assert_array_equal(np.asarray(x), [0, 8, 0, 7])


def test_a_write_that_would_change_the_dtype_is_a_type_error():
    # as array-api-strict: result_type(x, value) must be x's dtype
    for x, s, value, svalue in [
        (xp.ones(3, dtype=xp.float32), strict.ones(3, dtype=strict.float32), xp.ones(3, dtype=xp.float64), strict.ones(3, dtype=strict.float64)),
        (xp.ones(3, dtype=xp.int8), strict.ones(3, dtype=strict.int8), 1.5, 1.5),
        (xp.ones(3, dtype=xp.int8), strict.ones(3, dtype=strict.int8), xp.ones(3, dtype=xp.int16), strict.ones(3, dtype=strict.int16)),
    ]:
        with pytest.raises(TypeError):
            s[0] = svalue
        with pytest.raises(TypeError, match=r"__setitem__: a \w+ value would promote the \w+ array to \w+.*cast the value first"):
            x[0] = value
        np.testing.assert_array_equal(np.asarray(x), [1, 1, 1])  # unchanged


def test_a_weak_literal_adapts_and_the_array_keeps_its_weakness():
    x = lt.constant([1.5, 2.5])  # weak float32
    x[0] = 3
    assert x.weak and x.dtype == lt.float32
    np.testing.assert_array_equal(np.asarray(x), np.array([3.0, 2.5], np.float32))
    y = xp.asarray([1, 2], dtype=xp.uint8)
    y[1] = 255
    assert not y.weak and np.asarray(y).tolist() == [1, 255]


def test_bad_shapes_and_indices_raise_numpys_classes_naming_the_op():
    x = xp.zeros((2, 3), dtype=xp.float32)
    with pytest.raises(ValueError, match="__setitem__: could not broadcast"):
        x[0] = xp.ones(2, dtype=xp.float32)
    with pytest.raises(IndexError, match="__setitem__: index 5 is out of bounds"):
        x[5] = 1.0
    np.testing.assert_array_equal(np.asarray(x), np.zeros((2, 3)))


def test_earlier_views_copies_and_buffers_keep_the_old_values():
    x = xp.asarray(BASE, dtype=xp.float32)
    old = BASE.astype(np.float32)
    row = x[1]
    view = np.asarray(x)
    buf = memoryview(x)
    dup = copy.copy(x)
    deep = copy.deepcopy(x)
    same = x
    x[1] = 100.0
    x[...] = -1.0  # the old memory is still referenced only by the views above
    for kept in (np.asarray(row), view[1], np.asarray(buf)[1], np.asarray(dup)[1], np.asarray(deep)[1]):
        np.testing.assert_array_equal(kept, old[1])
    np.testing.assert_array_equal(np.asarray(same), np.full((4, 6), -1.0, np.float32))  # the same object
    assert dup is not x and deep is not x


def test_an_assignment_during_an_op_on_another_thread_never_corrupts():
    # the op reads the tensor it borrowed; the write either waits its turn in
    # Python or is refused with RuntimeError, and every result is one whole value
    x = xp.ones((512, 512), dtype=xp.float32)
    results, errors = [], []

    def reader():
        for _ in range(20):
            results.append(float(xp.sum(x @ x)))

    t = threading.Thread(target=reader)
    t.start()
    for i in range(20):
        try:
            x[...] = 1.0
        except RuntimeError as exc:
            errors.append(str(exc))
    t.join()
    assert results and all(r == 512.0 * 512 * 512 for r in results)
    assert all("__setitem__: an operation on another thread is reading this array" in e for e in errors)


def test_item_assignment_is_not_recorded_on_tapes_but_does_not_break_them():
    x = lt.constant([1.0, 2.0, 3.0])
    with lt.GradientTape(persistent=True) as g:
        g.watch(x)
        before = copy.copy(x)  # the watched tensor, in another object
        y = x * x
        x[0] = 10.0  # y was computed from the old values; x now holds an untracked tensor
    np.testing.assert_array_equal(np.asarray(y), [1.0, 4.0, 9.0])
    np.testing.assert_array_equal(np.asarray(g.gradient(y, before)), [2.0, 4.0, 6.0])
    assert g.gradient(y, x) is None


# ---- the @ operator: NumPy's matmul, 1-D operands are vectors ---------------


@pytest.mark.parametrize(
    "sa,sb",
    [((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 2)), ((4, 2, 3), (3,)), ((3,), (4, 3, 2)), ((2, 3), (3, 5)), ((1, 2, 3), (4, 3, 2))],
)
def test_matmul_operator_follows_numpy(sa, sb):
    rng = np.random.default_rng(1)
    a = rng.integers(-5, 5, sa).astype(np.float32)
    b = rng.integers(-5, 5, sb).astype(np.float32)
    want = a @ b
    for got in (lt.constant(a) @ lt.constant(b), a @ lt.constant(b), xp.matmul(xp.asarray(a), xp.asarray(b))):
        assert isinstance(got, lt.Tensor)
        assert tuple(got.shape) == want.shape
        np.testing.assert_array_equal(np.asarray(got), want)


def test_matmul_operator_refuses_scalars_and_mismatched_lengths():
    with pytest.raises(lt.errors.InvalidArgumentError, match="matmul: operands must have at least one dimension"):
        lt.constant(2.0) @ lt.constant([1.0, 2.0])
    with pytest.raises(lt.errors.InvalidArgumentError):
        lt.constant([1.0, 2.0]) @ lt.constant([1.0, 2.0, 3.0])
    # tf.linalg.matmul keeps TF's rank >= 2 rule
    with pytest.raises(lt.errors.InvalidArgumentError):
        lt.linalg.matmul(lt.constant([[1.0, 2.0]]), lt.constant([1.0, 2.0]))
