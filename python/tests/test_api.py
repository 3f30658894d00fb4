"""Every name of the guide's WeakTensor API list is reachable by its TF path."""

from __future__ import annotations

import importlib

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
