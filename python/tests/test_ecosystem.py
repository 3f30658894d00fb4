"""lattensor tensors as other libraries see them: array-api-compat's namespace
lookup and helpers, NumPy reading lattensor dtypes, item assignment, and
scikit-learn estimators and SciPy functions on lattensor arrays
(scripts/ecosystem_check.py runs more of SciPy, scikit-learn and xarray by
hand; docs/array_api.md has its table)."""

from __future__ import annotations

import numpy as np
import pytest

import lattensor as lt
import lattensor.array_api as xp

compat = pytest.importorskip("array_api_compat")


def test_array_api_compat_finds_the_namespace():
    t = xp.asarray([[1.0, 2.0], [3.0, 4.0]])
    assert compat.array_namespace(t) is xp
    assert compat.array_namespace(t, xp.asarray([1, 2])) is xp
    assert compat.is_array_api_obj(t)
    assert not compat.is_numpy_array(t)
    assert compat.size(t) == 4
    assert compat.device(t) == t.device
    assert compat.to_device(t, compat.device(t)) is t


def test_array_api_compat_refuses_mixing_with_numpy():
    # two namespaces in one call: the library must choose, as with NumPy and CuPy arrays
    with pytest.raises(TypeError, match="Multiple namespaces"):
        compat.array_namespace(xp.asarray([1.0]), np.ones(1))


def test_tensor_methods_return_the_namespace_functions_results():
    x = xp.asarray([[1.0, -2.0], [3.0, 4.0]])
    ns = compat.array_namespace(x)
    np.testing.assert_array_equal(np.asarray(ns.abs(x)), [[1.0, 2.0], [3.0, 4.0]])
    assert ns.sum(x, axis=0).dtype == xp.float64


@pytest.mark.parametrize(
    "dtype", [lt.bool, lt.int8, lt.uint16, lt.int64, lt.float16, lt.bfloat16, lt.float32, lt.float64, lt.complex64]
)
def test_numpy_reads_a_lattensor_dtype(dtype):
    want = np.dtype(dtype.as_numpy_dtype)
    assert np.dtype(dtype) == want
    assert np.zeros(2, dtype=dtype).dtype == want
    assert dtype.kind == want.kind and dtype.itemsize == want.itemsize
    # what xarray and Dask ask of an array's dtype
    assert np.asarray(xp.asarray([1, 0]), dtype=dtype).dtype == want


def test_item_assignment_follows_the_standard():
    t = xp.asarray([[1.0, 2.0], [3.0, 4.0]])
    t[xp.asarray([[True, False], [False, True]])] = 0.0
    t[0, 1] = 9.0
    np.testing.assert_array_equal(np.asarray(t), [[0.0, 9.0], [3.0, 0.0]])
    assert compat.is_writeable_array(t)


# ---- downstream libraries (skipped where not installed; scripts/test-python installs them)

X = np.random.default_rng(0).standard_normal((40, 3))
Y = (X[:, 0] + 0.3 * np.random.default_rng(1).standard_normal(40) > 0).astype(np.int64)


def _same(got, want, rtol=1e-9):
    assert isinstance(got, lt.Tensor), type(got)
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=rtol, atol=1e-12)


@pytest.mark.parametrize(
    "name",
    ["StandardScaler", "MinMaxScaler", "PCA", "LinearDiscriminantAnalysis", "Ridge"],
)
def test_scikit_learn_estimators_run_on_lattensor_arrays(name):
    sklearn = pytest.importorskip("sklearn")
    from sklearn.decomposition import PCA
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    from sklearn.linear_model import Ridge
    from sklearn.preprocessing import MinMaxScaler, StandardScaler

    make = {
        "StandardScaler": lambda: StandardScaler(),
        "MinMaxScaler": lambda: MinMaxScaler(),
        "PCA": lambda: PCA(2, svd_solver="full"),
        "LinearDiscriminantAnalysis": lambda: LinearDiscriminantAnalysis(),
        "Ridge": lambda: Ridge(solver="svd"),
    }[name]

    def run(x, y):
        est = make()
        if name in ("LinearDiscriminantAnalysis", "Ridge"):
            fitted = est.fit(x, y if name == "LinearDiscriminantAnalysis" else y * 1.0)
            return fitted.predict(x) if name == "Ridge" else fitted.decision_function(x)
        return est.fit_transform(x)

    want = run(X, Y)
    with sklearn.config_context(array_api_dispatch=True):
        got = run(xp.asarray(X), xp.asarray(Y) if name == "LinearDiscriminantAnalysis" else xp.asarray(Y * 1.0))
    if name == "PCA":  # components are defined up to sign
        got, want = np.abs(np.asarray(got)), np.abs(want)
        got = lt.constant(got)
    _same(got, want, rtol=1e-7)


@pytest.mark.parametrize("name", ["logsumexp", "rel_entr", "zscore", "variation", "whiten"])
def test_scipy_functions_that_write_into_arrays_run_on_lattensor_arrays(name):
    import os

    if os.environ.get("SCIPY_ARRAY_API") != "1":
        pytest.skip("SciPy's array API support is switched on by SCIPY_ARRAY_API=1 before it is imported")
    pytest.importorskip("scipy")
    from scipy import cluster, special, stats

    p = np.abs(X) + 0.1
    f = {
        "logsumexp": lambda a: special.logsumexp(a, axis=1),
        "rel_entr": lambda a: special.rel_entr(a, a[::-1]),
        "zscore": lambda a: stats.zscore(a),
        "variation": lambda a: stats.variation(a),
        "whiten": lambda a: cluster.vq.whiten(a),
    }[name]
    _same(f(xp.asarray(p)), f(p))
