"""tnp's predicates, reductions, stacking, products, indexing and integer functions
beyond the golden expressions (test_port.py): what they refuse, where they go beyond
TF 2.21, and agreement with NumPy over random inputs."""

from __future__ import annotations

import decimal

import numpy as np
import pytest

import lattensor as tf
import lattensor.experimental.numpy as tnp

RNG = np.random.default_rng(7)


def test_int_inf_predicates_are_tensors_of_the_input_shape():
    # TF 2.21 returns a Python False for integer inputs; NumPy and lattensor a bool array
    for f in (tnp.isposinf, tnp.isneginf, tnp.isinf, tnp.isnan):
        r = f(tf.constant([[1, 2]], tf.int8))
        assert r.dtype == tf.bool and list(r.shape) == [1, 2] and not np.asarray(r).any()
    assert np.asarray(tnp.isfinite(tf.constant([True, False]))).all()


def test_size_takes_an_axis_and_shape_is_a_tuple():
    # TF 2.21: NotImplementedError for axis
    assert tnp.size(tnp.ones((2, 3)), axis=1) == 3 and tnp.size(tnp.ones((2, 3)), -2) == 2
    assert tnp.shape([[1, 2, 3]]) == (1, 3) and tnp.ndim(7) == 0


def test_refusals():
    with pytest.raises(tf.errors.InvalidArgumentError):
        tnp.sign(tf.constant([True]))  # TF and NumPy refuse bool too
    with pytest.raises((tf.errors.InvalidArgumentError, TypeError)):
        tnp.bitwise_and(1.0, 2)  # TF: InvalidArgumentError (no float kernel)
    with pytest.raises(ValueError, match="rank at least 2"):
        tnp.tril([1, 2, 3])  # TF: the same ValueError
    with pytest.raises(ValueError, match="2 or 3"):
        tnp.cross([1, 2, 3, 4], [1, 2, 3])
    for f in (tnp.gcd, tnp.lcm):
        with pytest.raises(TypeError, match="integer"):
            f(tf.constant([1.5]), 2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="out of range"):
        tnp.take_along_axis(tnp.array([1, 2]), tnp.array([2]), 0)
    with pytest.raises(ValueError, match="rank"):
        tnp.take_along_axis(tnp.ones((2, 2)), tnp.array([0]), 0)
    with pytest.raises(ValueError, match="order"):
        tnp.argsort([1, 2], order="x")
    with pytest.raises(tf.errors.InvalidArgumentError):
        tnp.broadcast_arrays([1, 2], [1, 2, 3])
    with pytest.raises(tf.errors.InvalidArgumentError):
        tnp.roll([1, 2], 1, axis=1)
    with pytest.raises(ValueError):
        tnp.tri(-1)


def test_shape_and_index_functions_agree_with_numpy():
    for _ in range(20):
        a = RNG.integers(-50, 50, size=tuple(RNG.integers(1, 4, size=3))).astype(np.int16)
        shift = [int(s) for s in RNG.integers(-7, 7, size=2)]
        assert np.array_equal(tnp.roll(tf.constant(a), shift, axis=(0, 2)).numpy(), np.roll(a, shift, axis=(0, 2)))
        assert np.array_equal(tnp.roll(tf.constant(a), shift[0]).numpy(), np.roll(a, shift[0]))
        k = int(RNG.integers(-3, 3))
        assert np.array_equal(tnp.tril(tf.constant(a), k).numpy(), np.tril(a, k))
        axis = int(RNG.integers(-3, 3))
        idx = RNG.integers(-a.shape[axis], a.shape[axis], size=tuple(
            int(RNG.integers(1, 4)) if d == axis % 3 else int(RNG.choice([1, a.shape[d]])) for d in range(3)))
        assert np.array_equal(tnp.take_along_axis(tf.constant(a), tf.constant(idx), axis).numpy(),
                              np.take_along_axis(a, np.where(idx < 0, idx + a.shape[axis], idx), axis))
        assert np.array_equal(tnp.argsort(tf.constant(a), axis=axis).numpy(), np.argsort(a, axis=axis, kind="stable"))
        for f in (tnp.atleast_1d, tnp.atleast_2d, tnp.atleast_3d):
            for v in (a, a[0], a[0, 0], a[0, 0, 0]):
                assert f(tf.constant(v)).shape == getattr(np, f.__name__)(v).shape
    parts = [RNG.standard_normal((2, 3)).astype(np.float32) for _ in range(3)]
    for f in (tnp.hstack, tnp.vstack, tnp.dstack):
        assert np.array_equal(f([tf.constant(p) for p in parts]).numpy(), getattr(np, f.__name__)(parts))


@pytest.mark.filterwarnings("ignore:Arrays of 2-dimensional vectors:DeprecationWarning")
def test_products_agree_with_numpy():
    for _ in range(20):
        a = RNG.integers(-9, 9, size=(2, 3, 4)).astype(np.int32)
        b = RNG.integers(-9, 9, size=(4, 3, 2)).astype(np.int32)
        ta, tb = tf.constant(a), tf.constant(b)
        assert np.array_equal(tnp.tensordot(ta, tb, axes=([1, 2], [1, 0])).numpy(),
                              np.tensordot(a, b, axes=([1, 2], [1, 0])))
        assert np.array_equal(tnp.tensordot(ta, tb, axes=1).numpy(), np.tensordot(a, b, axes=1))
        assert np.array_equal(tnp.inner(ta, tf.constant(a)).numpy(), np.inner(a, a))
        assert np.array_equal(tnp.kron(ta, tb).numpy(), np.kron(a, b))
        assert np.array_equal(tnp.kron(ta[0], tf.constant(b)).numpy(), np.kron(a[0], b))
        assert tnp.vdot(ta, tf.constant(a)).numpy() == np.vdot(a, a)
        u = RNG.integers(-9, 9, size=(5, 3)).astype(np.int64)
        v = RNG.integers(-9, 9, size=(5, 2)).astype(np.int64)
        assert np.array_equal(tnp.cross(tf.constant(u), tf.constant(u[::-1])).numpy(), np.cross(u, u[::-1]))
        assert np.array_equal(tnp.cross(tf.constant(u), tf.constant(v)).numpy(), np.cross(u, v))
        assert np.array_equal(tnp.cross(tf.constant(v), tf.constant(u)).numpy(), np.cross(v, u))
        assert np.array_equal(tnp.cross(tf.constant(v), tf.constant(v[::-1])).numpy(), np.cross(v, v[::-1]))
        assert np.array_equal(tnp.cross(tf.constant(u.T), tf.constant(u.T), axisa=0, axisb=0, axisc=0).numpy(),
                              np.cross(u.T, u.T, axisa=0, axisb=0, axisc=0))


def test_float_and_integer_functions_agree_with_numpy():
    x = RNG.standard_normal(50) * 30
    y = RNG.standard_normal(50) * 30
    x[:4] = [np.inf, -np.inf, np.nan, np.inf]
    y[:4] = [np.inf, -np.inf, 1.0, -np.inf]
    with np.errstate(invalid="ignore"):
        np.testing.assert_allclose(tnp.logaddexp(tf.constant(x), tf.constant(y)).numpy(), np.logaddexp(x, y), rtol=1e-14)
        np.testing.assert_allclose(tnp.logaddexp2(tf.constant(x), tf.constant(y)).numpy(), np.logaddexp2(x, y),
                                   rtol=1e-14)
    p = RNG.integers(-1000, 1000, size=200)
    q = RNG.integers(-1000, 1000, size=200)
    q[:5] = 0
    p[:2] = 0
    assert np.array_equal(tnp.gcd(tf.constant(p), tf.constant(q)).numpy(), np.gcd(p, q))
    assert np.array_equal(tnp.lcm(tf.constant(p), tf.constant(q)).numpy(), np.lcm(p, q))
    d, m = tnp.divmod(tf.constant(p), tf.constant(np.where(q == 0, 7, q)))
    assert np.array_equal(d.numpy(), p // np.where(q == 0, 7, q)) and np.array_equal(m.numpy(), p % np.where(q == 0, 7, q))


def test_reductions_agree_with_numpy():
    a = RNG.standard_normal((3, 4, 5)).astype(np.float64)
    a[a > 1] = np.nan
    for axis in (None, 0, -1, (0, 2)):
        np.testing.assert_allclose(tnp.nansum(tf.constant(a), axis=axis).numpy(), np.nansum(a, axis=axis), rtol=1e-12)
        np.testing.assert_allclose(tnp.nanprod(tf.constant(a), axis=axis).numpy(), np.nanprod(a, axis=axis),
                                   rtol=1e-12)
        assert np.array_equal(tnp.count_nonzero(tf.constant(a > 0), axis=axis).numpy(),
                              np.count_nonzero(a > 0, axis=axis))
        assert np.array_equal(tnp.all(tf.constant(a > -2), axis=axis).numpy(), np.all(a > -2, axis=axis))
        assert np.array_equal(tnp.any(tf.constant(a > 0.9), axis=axis, keepdims=True).numpy(),
                              np.any(a > 0.9, axis=axis, keepdims=True))
        b = np.nan_to_num(a)
        np.testing.assert_array_equal(tnp.ptp(tf.constant(b), axis=axis).numpy(), np.ptp(b, axis=axis))


def test_promote_types_is_the_lattice_and_the_rest_refuse():
    # TF 2.21 returns NumPy's table (int32, float16 -> float64; float32, int64 -> float64)
    assert tnp.promote_types(tnp.int32, tnp.float16) == np.float16
    assert tnp.promote_types("float32", "int64") == np.float32
    assert tnp.promote_types(tnp.int8, tnp.uint8) == np.int16
    with pytest.raises(ValueError, match="conditions"):
        tnp.select([[True]], [[1], [2]])
    with pytest.raises(tf.errors.InvalidArgumentError):
        tnp.compress([False, False, True], [1, 2])
    with pytest.raises(ValueError, match="1-D"):
        tnp.ix_([[0, 1]])


def test_select_compress_polyval_nextafter_agree_with_numpy():
    for _ in range(10):
        x = RNG.standard_normal(12)
        conds = [x > 0.5, x < -0.5, np.abs(x) < 0.1]
        choices = [x * 2, x - 1, np.ones(12)]
        assert np.array_equal(tnp.select([tf.constant(c) for c in conds], [tf.constant(c) for c in choices], -7.0).numpy(),
                              np.select(conds, choices, -7.0))
        c = RNG.integers(0, 2, size=5).astype(bool)
        a = RNG.standard_normal((5, 5))
        for axis in (0, 1, None):
            assert np.array_equal(tnp.compress(tf.constant(c), tf.constant(a), axis=axis).numpy(), np.compress(c, a, axis=axis))
        p = RNG.integers(-5, 5, size=4).astype(np.float64)
        np.testing.assert_allclose(tnp.polyval(tf.constant(p), tf.constant(x)).numpy(), np.polyval(p, x), rtol=1e-12)
        y = RNG.standard_normal(12).astype(np.float32)
        assert np.array_equal(tnp.nextafter(tf.constant(x.astype(np.float32)), tf.constant(y)).numpy(),
                              np.nextafter(x.astype(np.float32), y))
    rows, cols = tnp.diag_indices(4)
    assert np.array_equal(rows.numpy(), np.diag_indices(4)[0]) and np.array_equal(cols.numpy(), np.diag_indices(4)[1])


def test_spaced_ranges_round_numpy_once_and_issubdtype_takes_lattensor_dtypes():
    for start, stop, num, endpoint in [(1, 1000, 7, True), (2.5, 0.1, 5, False), (-1, -64, 4, True)]:
        assert np.array_equal(tnp.geomspace(start, stop, num, endpoint).numpy(),
                              np.geomspace(start, stop, num, endpoint).astype(np.float32))
        # base ** exponent rounded from 60 digits: NumPy's vectorised power is 1 ulp off
        # on some of these (3 ** 8.35 gives ...079, the nearest double is ...08)
        exps = np.linspace(start / 10, stop / 100, num, endpoint)
        exact = [float(decimal.Context(prec=60).power(decimal.Decimal(3), decimal.Decimal(float(e)))) for e in exps]
        assert tnp.logspace(start / 10, stop / 100, num, endpoint, base=3.0, dtype=tnp.float64).numpy().tolist() == exact
        np.testing.assert_allclose(exact, np.logspace(start / 10, stop / 100, num, endpoint, base=3.0), rtol=4e-16)
    assert tnp.issubdtype(tf.float64, tnp.inexact) and not tnp.issubdtype(tf.int8, tnp.inexact)  # TF: TypeError


@pytest.mark.parametrize(
    ("name", "op"),
    [("add", "add"), ("subtract", "subtract"), ("multiply", "multiply"), ("divide", "truediv"),
     ("true_divide", "truediv"), ("floor_divide", "floordiv"), ("mod", "floormod"), ("remainder", "floormod"),
     ("power", "pow"), ("maximum", "maximum"), ("minimum", "minimum"), ("equal", "equal"),
     ("not_equal", "not_equal"), ("less", "less"), ("less_equal", "less_equal"), ("greater", "greater"),
     ("greater_equal", "greater_equal")],
)
def test_binary_functions_are_the_lattice_ops_under_numpys_names(name, op):
    f = getattr(tnp, name)
    assert f.__name__ == name
    x1, x2 = tf.constant([7, -3, 4], tf.int8), 2.5
    for args, kwargs in (((x1, x2), {}), ((), {"x1": x1, "x2": x2}), ((x2,), {"x2": x1})):
        got = f(*args, **kwargs)
        want = getattr(tf.math, op)(*(args + tuple(kwargs.values())))
        assert (got.dtype, got.weak) == (want.dtype, want.weak)
        assert np.array_equal(got.numpy(), want.numpy(), equal_nan=got.dtype.is_floating)
    with pytest.raises(TypeError):
        f(x1, x2, x1)
