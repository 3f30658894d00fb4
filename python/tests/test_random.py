"""lattensor.random (tf.random) and lattensor.experimental.numpy.random (tnp.random).

The stateless generators are checked bit for bit against TF 2.21 through the Python
layer (the golden data of crates/lattensor/tests/data/tf_random.json, from
scripts/golden/tf_random.py); dtypes and shapes of the stateful ones are in
test_port.py's golden cases. Here: the seed state, ranges and distributions, errors.
"""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest

import lattensor as tf
import lattensor.experimental.numpy as tnp

GOLDEN = json.loads(
    (pathlib.Path(__file__).resolve().parents[2] / "crates/lattensor/tests/data/tf_random.json").read_text()
)
UINT = {"float16": np.uint16, "bfloat16": np.uint16, "float32": np.uint32, "float64": np.uint64,
        "int32": np.uint32, "int64": np.uint64, "uint32": np.uint32, "uint64": np.uint64}
SMALL = [c for c in GOLDEN["cases"] if "bits" in c]


def _bits(t):
    """The elements' bits as unsigned integers of the dtype's width."""
    raw = np.frombuffer(t.numpy().tobytes(), dtype=UINT[t.dtype.name])
    return [int(x) for x in raw]


@pytest.mark.parametrize("case", SMALL, ids=lambda c: f"{c['fn']}-{c['dtype']}-{c['shape']}-{c['seed']}")
def test_stateless_generators_match_tf_bit_for_bit(case):
    dt, shape, seed = getattr(tf, case["dtype"]), case["shape"], case["seed"]
    if case["fn"] == "uniform":
        t = tf.random.stateless_uniform(shape, seed, case["minval"], case["maxval"], dtype=dt)
    elif case["fn"] == "uniform_int":
        t = tf.random.stateless_uniform(shape, seed, case["minval"], case["maxval"], dtype=dt)
    elif case["fn"] == "full_int":
        t = tf.random.stateless_uniform(shape, seed, None, None, dtype=dt)
    elif case["fn"] == "normal":
        t = tf.random.stateless_normal(shape, seed, case["mean"], case["stddev"], dtype=dt)
    else:
        t = tf.random.stateless_truncated_normal(shape, seed, case["mean"], case["stddev"], dtype=dt)
    assert t.dtype == dt and list(t.shape) == shape and not t.weak
    assert _bits(t) == case["bits"]


def test_seed_makes_the_stateful_generators_repeat():
    tnp.random.seed(123)
    a = [tnp.random.randn(4), tnp.random.rand(3), tnp.random.randint(0, 1000, 5), tnp.random.poisson(4.0, 3)]
    tnp.random.seed(123)
    b = [tnp.random.randn(4), tnp.random.rand(3), tnp.random.randint(0, 1000, 5), tnp.random.poisson(4.0, 3)]
    for x, y in zip(a, b):
        np.testing.assert_array_equal(np.asarray(x), np.asarray(y))
    # tf.random.set_seed and tnp.random.seed drive the same generator
    tf.random.set_seed(123)
    np.testing.assert_array_equal(np.asarray(tnp.random.randn(4)), np.asarray(a[0]))
    # successive calls differ
    assert not np.array_equal(np.asarray(tnp.random.randn(4)), np.asarray(tnp.random.randn(4)))
    # an op seed picks another stream, repeatable too
    tf.random.set_seed(5)
    s1 = tf.random.uniform([4], seed=7)
    tf.random.set_seed(5)
    s2 = tf.random.uniform([4], seed=7)
    tf.random.set_seed(5)
    s3 = tf.random.uniform([4])
    np.testing.assert_array_equal(np.asarray(s1), np.asarray(s2))
    assert not np.array_equal(np.asarray(s1), np.asarray(s3))
    # None forgets the seed: a fresh 63-bit base, so the values no longer repeat
    tf.random.set_seed(None)
    f1 = tf.random.uniform([4])
    tf.random.set_seed(None)
    assert not np.array_equal(np.asarray(f1), np.asarray(tf.random.uniform([4])))


def test_uniform_values_stay_in_their_ranges():
    tnp.random.seed(1)
    u = np.asarray(tnp.random.uniform(-2.0, 3.0, 100_000))
    assert u.min() >= -2.0 and u.max() < 3.0
    assert abs(u.mean() - 0.5) < 6 * 5 / np.sqrt(12 * 100_000)
    r = np.asarray(tnp.random.rand(50_000))
    assert r.min() >= 0.0 and r.max() < 1.0
    k = np.asarray(tnp.random.randint(-3, 4, size=10_000))
    assert set(k.tolist()) == set(range(-3, 4))
    k = np.asarray(tnp.random.randint(6, size=10_000))
    assert set(k.tolist()) == set(range(6))
    # array bounds broadcast with size
    b = np.asarray(tnp.random.uniform([0.0, 10.0], [1.0, 20.0], (1000, 2)))
    assert b.shape == (1000, 2)
    assert (b[:, 0] < 1.0).all() and (b[:, 1] >= 10.0).all() and (b[:, 1] < 20.0).all()


def test_normal_and_poisson_have_their_moments():
    tnp.random.seed(2)
    z = np.asarray(tnp.random.standard_normal(200_000), np.float64)
    assert abs(z.mean()) < 6 / np.sqrt(z.size) and abs(z.var() - 1) < 6 * np.sqrt(2 / z.size)
    t = np.asarray(tf.random.truncated_normal([100_000], mean=1.0, stddev=2.0), np.float64)
    assert (np.abs(t - 1.0) < 4.0).all()
    # the standard normal truncated to (-2, 2) has variance 0.7737
    assert abs(t.var() / 4.0 - 0.7737) < 6 * 0.7737 * np.sqrt(2 / t.size)
    g = np.asarray(tf.random.normal([100_000], mean=3.0, stddev=0.5, dtype=tf.float64))
    assert abs(g.mean() - 3.0) < 6 * 0.5 / np.sqrt(g.size) and abs(g.std() - 0.5) < 0.01
    for lam in [0.7, 4.0, 30.0, 1e4]:
        p = np.asarray(tnp.random.poisson(lam, 100_000), np.float64)
        assert abs(p.mean() - lam) < 6 * np.sqrt(lam / p.size), lam
        assert abs(p.var() - lam) < 6 * lam * np.sqrt(2 / p.size) + 6 * np.sqrt(lam / p.size), lam
    # one rate per trailing position (TF's shape rule: size + lam.shape)
    p = np.asarray(tnp.random.poisson(tnp.array([1.0, 500.0]), (2000,)))
    assert p.shape == (2000, 2) and p[:, 0].mean() < 2 and 450 < p[:, 1].mean() < 550


def test_stateless_poisson_is_deterministic_and_checks_lam():
    a = tf.random.stateless_poisson([3, 2], [4, 5], [1.0, 100.0])
    b = tf.random.stateless_poisson([3, 2], [4, 5], [1.0, 100.0])
    assert a.dtype == tf.int32 and list(a.shape) == [3, 2]
    np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
    with pytest.raises(tf.errors.InvalidArgumentError, match="non-negative"):
        tf.random.stateless_poisson([2], [0, 0], -1.0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="does not broadcast"):
        tf.random.stateless_poisson([2, 3], [0, 0], [1.0, 2.0])


def test_bad_arguments_raise_what_tf_raises():
    with pytest.raises(ValueError, match="Only those convertible to"):
        tnp.random.randint(5, size=3, dtype=tnp.int16)
    with pytest.raises(tf.errors.InvalidArgumentError, match="minval < maxval"):
        tnp.random.randint(5, 3)
    with pytest.raises(ValueError):
        tnp.random.seed("a")
    with pytest.raises(ValueError, match="must be both None or not None"):
        tf.random.stateless_uniform([2], [1, 2], minval=3, dtype=tf.int32)
    with pytest.raises(ValueError, match="unsigned"):
        tf.random.stateless_uniform([2], [1, 2], minval=0, maxval=3, dtype=tf.uint32)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"seed must have shape \[2\], not \[3\]"):
        tf.random.stateless_uniform([2], [1, 2, 3])
    with pytest.raises(ValueError, match="Accepted dtypes"):
        tf.random.stateless_uniform([2], [1, 2], dtype=tf.complex64)
    with pytest.raises(TypeError):
        tf.random.stateless_normal([2], [1, 2], dtype=tf.int32)
    with pytest.raises(tf.errors.ResourceExhaustedError):
        tf.random.stateless_normal([2**40, 2**20], [1, 2])


# ---- default_rng: NumPy's Generator interface on the stateless generator ----


def _philox_seed(seq):
    w = seq.generate_state(2, np.uint32)
    return [int(w[0]), int(w[1])]


def test_default_rng_draws_the_stateless_stream_of_its_seed_sequence():
    seq = np.random.SeedSequence(1234)
    g = tf.random.default_rng(seq)
    seed = _philox_seed(np.random.SeedSequence(1234))
    assert _bits(g.random((5, 3))) == _bits(tf.random.stateless_uniform([5, 3], seed, dtype=tf.float64))
    assert _bits(g.random(7, dtype="float32")) == _bits(tf.random.stateless_uniform([7], seed))
    assert _bits(g.standard_normal((4,), dtype="float32")) == _bits(tf.random.stateless_normal([4], seed))
    want = tf.random.stateless_uniform([6], seed, -2.0, 3.0, dtype=tf.float64)
    assert _bits(g.uniform(-2.0, 3.0, size=6)) == _bits(want)
    assert _bits(g.normal(3.0, 2.0, size=6)) == _bits(tf.random.stateless_normal([6], seed, 3.0, 2.0, tf.float64))
    assert _bits(g.integers(5, 9, size=8)) == _bits(tf.random.stateless_uniform([8], seed, 5, 9, dtype=tf.int64))
    # stateless: the same call gives the same values; an int seed goes through SeedSequence
    assert _bits(g.random(9)) == _bits(tf.random.default_rng(1234).random(9))
    assert _bits(g.random(9)) != _bits(tf.random.default_rng(1235).random(9))
    assert tf.random.default_rng(g) is g
    assert g.random().shape == ()


def test_default_rng_integers_bounds_and_dtypes():
    g = tf.random.default_rng(7)
    v = g.integers(3, size=2000).numpy()
    assert v.dtype == np.int64 and v.min() == 0 and v.max() == 2
    e = g.integers(-2, 2, size=2000, endpoint=True).numpy()
    assert e.min() == -2 and e.max() == 2
    u8 = g.integers(250, 256, size=500, dtype="uint8")
    assert u8.dtype == tf.uint8 and set(u8.numpy().tolist()) == set(range(250, 256))
    # the narrow dtypes are the int64 draw, cast
    assert u8.numpy().tolist() == g.integers(250, 256, size=500).numpy().tolist()
    with pytest.raises(ValueError, match="low < high"):
        g.integers(5, 5)
    with pytest.raises(ValueError, match="int8's range"):
        g.integers(0, 300, dtype="int8")
    with pytest.raises(TypeError, match="integer dtype"):
        g.integers(0, 3, dtype="float32")
    with pytest.raises(TypeError, match="dtype must be one of"):
        g.random(3, dtype="int32")
    with pytest.raises(NotImplementedError, match="out="):
        g.random(3, out=np.empty(3))
    with pytest.raises(AttributeError, match="has no 'permutation'"):
        g.permutation(3)
