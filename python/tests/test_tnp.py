"""lattensor.experimental.numpy (the Rust TF-NumPy module) against NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import lattensor as lt
import lattensor.experimental.numpy as tnp

RNG = np.random.default_rng(7)


def k(t):
    return (t.dtype.name, t.weak)


def test_int_inputs_become_float_like_tnp():
    assert k(tnp.sqrt(4)) == ("float32", True) and float(tnp.sqrt(4)) == 2.0
    assert tnp.sqrt(np.array([4], np.int32)).dtype in (lt.float32, lt.float64)


@pytest.mark.parametrize(
    "name",
    ["fabs", "cbrt", "exp2", "log2", "log10", "deg2rad", "rad2deg", "sinc", "fix", "positive", "signbit",
     "negative", "square", "arctan", "floor"],
)
def test_unary_against_numpy(name):
    x = RNG.uniform(0.5, 4, size=(3, 4))
    np.testing.assert_allclose(np.asarray(getattr(tnp, name)(x), dtype=np.float64),
                               getattr(np, name)(x).astype(np.float64), rtol=1e-12)


@pytest.mark.parametrize(
    "name,args",
    [("flip", ()), ("fliplr", ()), ("flipud", ()), ("rot90", ()), ("ravel", ()), ("diagonal", ()),
     ("triu", ()), ("swapaxes", (0, 1)), ("moveaxis", (0, 1)), ("cumsum", ()), ("cumprod", ()),
     ("sort", ()), ("diff", ()), ("trace", ()), ("copy", ()), ("ascontiguousarray", ())],
)
def test_shape_and_scan_functions_against_numpy(name, args):
    x = RNG.uniform(-2, 2, size=(4, 4))
    got = np.asarray(getattr(tnp, name)(x, *args))
    np.testing.assert_allclose(got, getattr(np, name)(x, *args), rtol=1e-12)


def test_reductions_and_average():
    x = RNG.uniform(-2, 2, size=(3, 5))
    np.testing.assert_allclose(np.asarray(tnp.sum(x, axis=1)), x.sum(axis=1), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(tnp.std(x, axis=0)), x.std(axis=0), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(tnp.var(x)), x.var(), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(tnp.average(x, axis=0)), np.average(x, axis=0), rtol=1e-12)
    x[0, 0] = np.nan
    np.testing.assert_allclose(np.asarray(tnp.nanmean(x)), np.nanmean(x), rtol=1e-12)
    assert float(tnp.amax([1, 5, 3])) == 5 and k(tnp.amax([1, 5, 3])) == ("int32", True)


def test_creation_and_repeat():
    assert k(tnp.array(1)) == ("int32", True) and k(tnp.array(1.0)) == ("float32", True)
    assert tnp.arange(3).numpy().tolist() == [0, 1, 2]
    assert tnp.repeat([1, 2], 2).numpy().tolist() == [1, 1, 2, 2]
    assert tnp.vander([1, 2, 3]).numpy().tolist() == np.vander([1, 2, 3]).tolist()
    assert tnp.diag([1, 2]).numpy().tolist() == np.diag([1, 2]).tolist()
    assert tnp.diagflat([1, 2]).numpy().tolist() == np.diagflat([1, 2]).tolist()
    assert tnp.empty_like([1.0, 2.0]).shape == (2,)
    assert tnp.full_like([1, 2], 7).numpy().tolist() == [7, 7]
    assert tnp.around(1.2345, 2).numpy() == pytest.approx(1.23)
