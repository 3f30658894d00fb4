"""lattensor tensors as other libraries see them: array-api-compat's namespace
lookup and helpers, NumPy reading lattensor dtypes, and the immutability error
that libraries written for mutable arrays meet (scripts/ecosystem_check.py runs
SciPy, scikit-learn and xarray by hand; docs/array_api.md has its table)."""

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


def test_item_assignment_says_tensors_are_immutable():
    t = xp.asarray([[1.0, 2.0], [3.0, 4.0]])
    for key in (0, (0, 1), xp.asarray([[True, False], [False, True]]), slice(None)):
        with pytest.raises(TypeError, match=r"does not support item assignment: tensors are immutable.*xp\.where"):
            t[key] = 0.0
    np.testing.assert_array_equal(np.asarray(t), [[1.0, 2.0], [3.0, 4.0]])
