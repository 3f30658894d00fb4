"""The Tensor object: metadata, repr, indexing, conversions, pickling, Variable."""

from __future__ import annotations

import pickle

import ml_dtypes
import numpy as np
import pytest

import lattensor as lt


def test_metadata():
    t = lt.constant([[1.5, 2.0], [3.0, 4.0]])
    assert t.shape == (2, 2) and t.ndim == 2 and t.dtype == lt.float32 and t.weak
    assert t.dtype == np.float32 and t.dtype == "float32" and t.dtype != lt.float64
    assert len(t) == 2 and t.size == 4


def test_repr_str_format_like_tf():
    assert repr(lt.constant(5)) == "<lattensor.Tensor: shape=(), dtype=int32, numpy=5, weak=True>"
    assert repr(lt.constant(5, lt.int32)) == "<lattensor.Tensor: shape=(), dtype=int32, numpy=5>"
    assert (
        repr(lt.constant([5.0, 10.0, 3]))
        == "<lattensor.Tensor: shape=(3,), dtype=float32, numpy=array([ 5., 10.,  3.], dtype=float32), weak=True>"
    )
    assert str(lt.constant(5)) == "lattensor.Tensor(5, shape=(), dtype=int32, weak=True)"
    assert str(lt.constant([5.0, 10.0, 3])) == "lattensor.Tensor([ 5. 10.  3.], shape=(3,), dtype=float32, weak=True)"
    assert f"{lt.constant(5)}" == "5 weakly typed"
    assert f"{lt.constant(5, lt.int32)}" == "5"
    assert f"{lt.constant(2.5, lt.float64):.3f}" == "2.500"
    h = lt.constant(1, lt.int64) + lt.constant(3.2, lt.float16)
    assert repr(h) == "<lattensor.Tensor: shape=(), dtype=float16, numpy=4.19921875>"


@pytest.mark.parametrize(
    "key",
    [0, -1, slice(None), slice(1, None), slice(None, None, -1), slice(None, None, 2), (1, 2), (slice(None), 0),
     (None, 0), (Ellipsis, 1), (0, Ellipsis), (slice(3, 0, -2), None, slice(None)), np.int64(1), ()],
)
def test_basic_indexing_matches_numpy(key):
    a = np.arange(24, dtype=np.int32).reshape(4, 6)
    t = lt.constant(a)
    got = t[key]
    assert got.numpy().tolist() == a[key].tolist()
    assert got.dtype == lt.int32


def test_index_errors():
    t = lt.constant([1, 2, 3])
    with pytest.raises(IndexError):
        t[3]
    with pytest.raises(IndexError):
        t[0, 0]
    with pytest.raises(IndexError):
        t[[0, 1]]
    with pytest.raises(ValueError):
        t[::0]


def test_numpy_returns_a_copy_and_scalars_for_0d():
    t = lt.constant([1.0, 2.0])
    a = t.numpy()
    a[0] = 9
    assert t.numpy()[0] == 1.0
    s = lt.constant(5).numpy()
    assert isinstance(s, np.int32) and s == 5


def test_array_protocol_is_zero_copy_and_read_only():
    t = lt.constant(np.arange(12, dtype=np.float64).reshape(3, 4))
    a = np.asarray(t)
    b = np.asarray(t)
    assert np.shares_memory(a, b)
    assert not a.flags.writeable
    v = t[:, ::-2]  # a strided view exports without a copy, too
    av = np.asarray(v)
    assert np.shares_memory(av, a) and av.tolist() == np.asarray(t)[:, ::-2].tolist()
    assert np.asarray(t, dtype=np.float32).dtype == np.float32


def test_buffer_protocol():
    t = lt.constant(np.arange(6, dtype=np.int16).reshape(2, 3))
    m = memoryview(t)
    assert m.readonly and m.format == "h" and m.shape == (2, 3) and m.tolist() == [[0, 1, 2], [3, 4, 5]]
    with pytest.raises(BufferError):
        memoryview(lt.constant(np.ones(2, ml_dtypes.bfloat16)))
    assert np.asarray(lt.constant(np.ones(2, ml_dtypes.bfloat16))).dtype == ml_dtypes.bfloat16


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int64", "bfloat16", "float16", "float32", "complex64", "complex128"])
def test_pickle_round_trip(dtype):
    t = lt.cast(lt.constant([[0, 1, 2]]), dtype)
    u = pickle.loads(pickle.dumps(t))
    assert u.dtype == t.dtype and u.weak == t.weak and u.shape == t.shape
    assert np.array_equal(u.numpy(), t.numpy())
    w = pickle.loads(pickle.dumps(lt.constant(2.5)))
    assert w.weak and float(w) == 2.5


def test_python_number_conversions():
    assert int(lt.constant(7)) == 7 and float(lt.constant(2.5)) == 2.5 and complex(lt.constant(1j)) == 1j
    assert [1, 2, 3][lt.constant(1)] == 2
    assert bool(lt.constant(True)) is True
    with pytest.raises(ValueError):
        bool(lt.constant([1, 2]))
    assert [x.numpy().tolist() for x in lt.constant([[1, 2], [3, 4]])] == [[1, 2], [3, 4]]


def test_tensors_are_unhashable_and_compare_elementwise():
    t = lt.constant([1, 2, 3])
    with pytest.raises(TypeError):
        hash(t)
    assert (t == 2).numpy().tolist() == [False, True, False]
    assert (t != 2).numpy().tolist() == [True, False, True]
    assert (t < 2).dtype == lt.bool
    assert (t == "x") is False


def test_variable_assign_family():
    a = lt.Variable(10, lt.int32)  # TF: the 2nd positional argument is `trainable`
    assert a.dtype == lt.int32 and a.trainable == lt.int32
    a.assign_add(lt.constant(5, lt.int16))
    assert repr(a) == "<lattensor.Variable 'Variable:0' shape=() dtype=int32, numpy=15>"
    a.assign_sub(1)
    assert int(a.read_value()) == 14
    with pytest.raises(TypeError, match="Variable dtype is immutable"):
        a.assign(5.0)
    with pytest.raises(TypeError):
        a.assign(lt.constant(1, lt.int64))
    a.assign(True)
    assert int(a.numpy()) == 1
    f = lt.Variable(1.0, dtype=lt.float32)
    f.assign_add(1)
    assert float(f.numpy()) == 2.0
    assert (f + 1).dtype == lt.float32  # operators on variables use their value
    assert np.asarray(f) == 2.0


def test_errors_are_tf_families():
    assert issubclass(lt.errors.InvalidArgumentError, lt.errors.OpError)
    with pytest.raises(lt.errors.InvalidArgumentError):
        lt.constant([1, 2]) + lt.constant([1, 2, 3])
    with pytest.raises(lt.errors.InvalidArgumentError):
        lt.math.sqrt(4)  # as TF: no int sqrt kernel, no silent promotion to float
    with pytest.raises(lt.errors.ResourceExhaustedError):
        lt.zeros([2**40, 2**30])
    with pytest.raises(lt.errors.InvalidArgumentError):
        lt.reshape(lt.constant([1, 2, 3]), [2, 2])


def test_modes():
    assert lt.get_promotion_mode() == "all"
    with lt.promotion_mode("safe"):
        assert lt.get_promotion_mode() == "safe"
        with lt.promotion_mode("strict"):
            assert lt.get_promotion_mode() == "strict"
        assert lt.get_promotion_mode() == "safe"
    assert lt.get_promotion_mode() == "all"
    lt.numpy.experimental_enable_numpy_behavior(dtype_conversion_mode="legacy")
    assert lt.get_promotion_mode() == "numpy"
    lt.numpy.experimental_enable_numpy_behavior(dtype_conversion_mode="all")
    with pytest.raises(lt.errors.InvalidArgumentError):
        lt.promotion_mode("fast")


def test_dunders_cover_the_operators():
    a = lt.constant([6, 7], lt.int32)
    assert (a + 1).numpy().tolist() == [7, 8] and (1 + a).numpy().tolist() == [7, 8]
    assert (a - 1).numpy().tolist() == [5, 6] and (10 - a).numpy().tolist() == [4, 3]
    assert (a * 2).numpy().tolist() == [12, 14] and (2 * a).numpy().tolist() == [12, 14]
    assert (a / 2).dtype == lt.float64 and (a / 2).numpy().tolist() == [3.0, 3.5]
    assert (a // 4).numpy().tolist() == [1, 1] and (20 // a).numpy().tolist() == [3, 2]
    assert (a % 4).numpy().tolist() == [2, 3] and (20 % a).numpy().tolist() == [2, 6]
    assert (a**2).numpy().tolist() == [36, 49] and (2**a).numpy().tolist() == [64, 128]
    assert (-a).numpy().tolist() == [-6, -7] and (+a) is a and abs(-a).numpy().tolist() == [6, 7]
    assert (~a).numpy().tolist() == [-7, -8]
    m = lt.constant([[1, 2], [3, 4]])
    assert (m @ m).numpy().tolist() == [[7, 10], [15, 22]]
    assert ([[1, 0], [0, 1]] @ m).numpy().tolist() == [[1, 2], [3, 4]]
    b = lt.constant([True, False])
    assert (b & True).numpy().tolist() == [True, False]
    assert (b | False).numpy().tolist() == [True, False]
    assert (b ^ True).numpy().tolist() == [False, True]
    assert (~b).numpy().tolist() == [False, True]
    for op in ("__lt__", "__le__", "__gt__", "__ge__"):
        assert getattr(a, op)(7).dtype == lt.bool


INT_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]


@pytest.mark.parametrize("name", INT_DTYPES)
def test_integer_bitwise_dunders_match_numpy(name):
    info = np.iinfo(name)
    bits = info.bits
    x = np.array([0, 1, 5, info.max, info.min, info.max - 3, 12, 100 % (info.max + 1)], dtype=name)
    y = np.array([3, info.max, 1, 7, 2, 5, 0, 9], dtype=name)
    s = np.array([0, 1, bits - 1, 3, 2, bits // 2, 5, 1], dtype=name)  # in-range shifts, where NumPy agrees with TF
    a, b, sh = lt.constant(x), lt.constant(y), lt.constant(s)
    for got, want in [(a & b, x & y), (a | b, x | y), (a ^ b, x ^ y), (a << sh, x << s), (a >> sh, x >> s),
                      (~a, ~x), (lt.bitwise.bitwise_and(a, b), x & y), (lt.bitwise.left_shift(a, sh), x << s)]:
        assert got.dtype == name and not got.weak
        np.testing.assert_array_equal(got.numpy(), want)
    # Python ints are weak: the tensor's dtype wins, reflected operators too
    assert (a & 6).dtype == name and (6 & a).numpy().tolist() == (x & 6).tolist()
    assert (3 | a).numpy().tolist() == (x | 3).tolist() and (a ^ 1).numpy().tolist() == (x ^ 1).tolist()
    assert (1 << sh).numpy().tolist() == (np.ones_like(s) << s).tolist()


def test_bitwise_follows_the_lattice_and_tf_shift_clamping():
    i8, i16 = lt.constant([-1, 6], lt.int8), lt.constant([0x0F0F, 3], lt.int16)
    r = i8 & i16  # TF 2.21 raises; the lattice gives int16
    assert r.dtype == lt.int16 and r.numpy().tolist() == [0x0F0F, 2]
    w = lt.constant(12) | 3
    assert w.dtype == lt.int32 and w.weak and int(w) == 15
    # TF clamps shift amounts to [0, bits - 1]
    x = lt.constant([1, 1, -16, -16], lt.int8)
    assert (x << lt.constant([7, 9, -1, 0], lt.int8)).numpy().tolist() == [-128, -128, -16, -16]
    assert lt.bitwise.right_shift(x, 99).numpy().tolist() == [0, 0, -1, -1]
    # bool with int8 is int8 (bits); bool with bool is logic
    assert (lt.constant([True, False]) & lt.constant([3, 3], lt.int8)).numpy().tolist() == [1, 0]
    with pytest.raises(lt.errors.InvalidArgumentError, match="bitwise_and.*float32"):
        lt.constant([1.0, 2.0], lt.float32) & lt.constant([1.0, 2.0], lt.float32)
    with pytest.raises(lt.errors.InvalidArgumentError, match="left_shift.*bool"):
        lt.constant(True) << True


def test_dtype_none_is_not_a_dtype():
    # NumPy reads None as float64; TF does not: tf.as_dtype(None) is a TypeError
    assert (lt.float64 == None) is False  # noqa: E711
    assert lt.float64 != None  # noqa: E711
    with pytest.raises(TypeError, match="None"):
        lt.as_dtype(None)
    assert lt.constant([1.0], dtype=None).dtype == lt.float32
