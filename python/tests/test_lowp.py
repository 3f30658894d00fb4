"""The eight low-precision dtypes from Python: ml_dtypes arrays in and out
(every bit pattern, zero-copy out), casts against ml_dtypes, errors with the
cast to write, promotion refusals, DLPack where its codes cover them."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import lattensor as tf

FLOATS = ["float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e8m0fnu", "float4_e2m1fn"]
INTS = ["int4", "uint4"]
ALL = FLOATS + INTS


def patterns(name):
    n = 16 if name in ("float4_e2m1fn", "int4", "uint4") else 256
    return np.arange(n, dtype=np.uint8).view(getattr(ml_dtypes, name))


@pytest.mark.parametrize("name", ALL)
def test_ml_dtypes_arrays_round_trip_bit_for_bit(name):
    a = patterns(name)
    t = tf.constant(a)
    assert t.dtype == getattr(tf, name) and t.dtype.name == name and not t.weak
    back = np.asarray(t)
    assert back.dtype == a.dtype
    assert back.view(np.uint8).tolist() == a.view(np.uint8).tolist()
    # zero-copy: two NumPy views of one tensor share its memory
    assert np.shares_memory(np.asarray(t), np.asarray(t))
    assert tf.dtypes.as_dtype(name) == getattr(tf.dtypes, name)


@pytest.mark.parametrize("name", ALL)
def test_casts_match_ml_dtypes(name):
    a = patterns(name)
    with np.errstate(all="ignore"):
        want = a.astype(np.float32)
    got = np.asarray(tf.cast(tf.constant(a), tf.float32))
    assert np.array_equal(got, want, equal_nan=True)
    if name in FLOATS:
        rng = np.random.default_rng(0)
        x = np.concatenate([rng.standard_normal(4096) * 100, rng.standard_normal(4096) * 1e-3, [np.inf, -np.inf, np.nan, 0.0, -0.0]])
        x = x.astype(np.float32)
        with np.errstate(all="ignore"):
            want = x.astype(getattr(ml_dtypes, name)).view(np.uint8)
        got = np.asarray(tf.cast(tf.constant(x), getattr(tf, name))).view(np.uint8)
        assert got.tolist() == want.tolist()


def test_ops_refuse_with_the_cast_to_write():
    t = tf.constant(patterns("int4"))
    with pytest.raises(Exception) as e:
        tf.exp(t)
    assert "int4" in str(e.value) and "tf.cast(x, tf.float32)" in str(e.value)
    f8 = tf.constant(patterns("float8_e4m3fn"))
    with pytest.raises(TypeError) as e:
        f8 + tf.constant(np.zeros(256, ml_dtypes.bfloat16))
    msg = str(e.value)
    assert "float8_e4m3fn" in msg and "bfloat16" in msg and "tf.cast(x, tf.float32)" in msg
    # a weak literal adapts: equality against a Python float runs
    assert int(np.asarray(f8 == 1.0).sum()) == 1


def test_dlpack_where_its_codes_cover_them():
    f8 = tf.constant(patterns("float8_e5m2"))
    u = tf.from_dlpack(f8)
    assert u.dtype == tf.float8_e5m2
    assert np.asarray(u).view(np.uint8).tolist() == list(range(256))
    with pytest.raises(BufferError, match="packed"):
        tf.from_dlpack(tf.constant(patterns("int4")))
