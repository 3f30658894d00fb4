"""Every name of the guide's WeakTensor API list is reachable by its TF path."""

from __future__ import annotations

import importlib
import math

import pytest

import lattensor as lt

from conftest import REPO

API_LIST = REPO / "docs" / "weak_tensor_apis.txt"

#: Names of the list that the Rust library does not implement yet. Each is an
#: expected failure (strict: the test fails once the name appears, so this
#: list must shrink with the library).
NOT_YET_BOUND: set[str] = set()


def _names():
    seen = []
    for line in API_LIST.read_text().split():
        if line.startswith("tf.") and line not in seen:
            seen.append(line)
    return seen


def _resolve(tf_path: str):
    parts = tf_path.split(".")[1:]
    obj = lt
    for p in parts:
        obj = getattr(obj, p)
    return obj


def test_the_list_is_complete():
    names = _names()
    assert len(names) >= 200, len(names)


@pytest.mark.parametrize(
    "tf_path",
    [
        pytest.param(n, marks=pytest.mark.xfail(strict=True, reason="not in the Rust library yet"))
        if n in NOT_YET_BOUND
        else n
        for n in _names()
    ],
)
def test_reachable_by_tf_path(tf_path):
    f = _resolve(tf_path)
    assert callable(f), tf_path


def test_numpy_alias_is_the_same_module():
    import lattensor.numpy as tnp1
    import lattensor.experimental.numpy as tnp2

    assert tnp1 is tnp2 is lt.numpy is lt.experimental.numpy


@pytest.mark.parametrize(
    "mod",
    ["lattensor.math", "lattensor.math.special", "lattensor.nn", "lattensor.linalg", "lattensor.image",
     "lattensor.bitwise", "lattensor.debugging", "lattensor.errors", "lattensor.experimental.numpy"],
)
def test_namespaces_import(mod):
    assert importlib.import_module(mod) is not None


def test_dtypes_exist_with_tf_names():
    names = ["bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64",
             "bfloat16", "float16", "float32", "float64", "complex64", "complex128"]
    for n in names:
        d = getattr(lt, n)
        assert isinstance(d, lt.DType) and d.name == n
    assert lt.half == lt.float16 and lt.double == lt.float64


#: tf.math names that TF also exposes at the top level (``tf.sin is tf.math.sin``),
#: measured on TF 2.21: every one lattensor.math has must be a top-level name too.
TF_TOP_LEVEL_MATH_ALIASES = """
    abs acos acosh add asin asinh atan atanh cos cosh divide equal exp floor greater
    greater_equal less less_equal logical_and logical_not logical_or maximum minimum multiply
    negative not_equal pow realdiv reduce_logsumexp reduce_max reduce_mean reduce_min reduce_prod
    reduce_sum round scalar_mul sigmoid sign sin sinh sqrt square subtract tan tanh truediv
""".split()


@pytest.mark.parametrize("name", TF_TOP_LEVEL_MATH_ALIASES)
def test_top_level_aliases_are_the_math_functions(name):
    assert getattr(lt, name) is getattr(lt.math, name)


def test_top_level_alias_computes():
    x = lt.constant([0.0, 1.0], lt.float64)
    assert lt.sin(x).numpy().tolist() == [0.0, math.sin(1.0)]
    r = lt.reduce_logsumexp(lt.constant([[0.0, 0.0]]), axis=1, keepdims=True)
    assert r.shape == (1, 1) and abs(float(r.numpy()[0, 0]) - math.log(2.0)) < 1e-6
    assert lt.logical_not(lt.constant([True, False])).numpy().tolist() == [False, True]


def test_tnp_dtype_names_and_constants_are_numpys():
    import numpy as np

    import lattensor.experimental.numpy as tnp

    names = ["bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
             "float16", "float32", "float64", "complex64", "complex128"]
    for n in names:
        assert getattr(tnp, n) is getattr(np, n)
        # usable wherever a dtype is taken, and equal to lattensor's DType of that name
        assert tnp.asarray([1], dtype=getattr(tnp, n)).dtype == getattr(np, n)
        assert getattr(lt, "bool" if n == "bool_" else n) == getattr(tnp, n)
    assert (tnp.float_, tnp.int_, tnp.complex_) == (np.float64, np.int64, np.complex128)
    assert tnp.sum(tnp.array([[1, 2], [3, 4]], dtype=tnp.int8), axis=0).dtype == lt.int32
    assert tnp.arange(3).astype(tnp.float16).dtype == lt.float16
    assert (tnp.pi, tnp.e, tnp.newaxis) == (math.pi, math.e, None)
    assert math.isinf(tnp.inf) and math.isnan(tnp.nan)
    assert tnp.iinfo(tnp.int8).max == 127 and tnp.finfo(tnp.float32).eps == np.finfo(np.float32).eps
    assert isinstance(tnp.array([1.0]), tnp.ndarray)
