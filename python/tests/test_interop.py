"""DLPack round trips with NumPy (and PyTorch / JAX when installed)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import lattensor as lt

DTYPES = ["bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64",
          "float16", "float32", "float64", "complex64", "complex128"]


def sample(dtype, shape=(3, 4)):
    n = int(np.prod(shape))
    return (np.arange(n) % 7).astype(dtype).reshape(shape)


def data_ptr(a):
    return a.__array_interface__["data"][0]


@pytest.mark.parametrize("dtype", DTYPES)
def test_numpy_from_lattensor_is_zero_copy(dtype):
    t = lt.constant(sample(dtype))
    a = np.from_dlpack(t)
    assert a.dtype == np.dtype(dtype) and np.array_equal(a, sample(dtype))
    assert data_ptr(a) == data_ptr(np.asarray(t))  # the same memory


@pytest.mark.parametrize("dtype", DTYPES + ["bfloat16"])
def test_lattensor_from_numpy_and_back(dtype):
    a = sample(ml_dtypes.bfloat16 if dtype == "bfloat16" else dtype)
    if dtype != "bfloat16":  # NumPy's DLPack export has no bfloat16
        t = lt.from_dlpack(a)
        assert t.dtype == dtype and not t.weak and np.array_equal(t.numpy(), a)
    t = lt.constant(a)
    u = lt.from_dlpack(t)  # lattensor → lattensor through a capsule
    assert u.dtype == dtype and np.array_equal(u.numpy(), a)


def test_strided_views_round_trip():
    a = np.arange(24, dtype=np.float32).reshape(4, 6)
    t = lt.constant(a)[::2, ::-3]
    b = np.from_dlpack(t)
    assert b.tolist() == a[::2, ::-3].tolist()
    assert lt.from_dlpack(a[::2, ::-3]).numpy().tolist() == a[::2, ::-3].tolist()
    assert lt.from_dlpack(np.broadcast_to(np.float32(1), (2, 3))).shape == (2, 3)


def test_capsule_keeps_memory_alive():
    t = lt.constant(np.arange(5, dtype=np.int64))
    a = np.from_dlpack(t)
    del t
    assert a.tolist() == [0, 1, 2, 3, 4]


def test_dlpack_device_and_versioned_export():
    t = lt.constant([1.0, 2.0])
    assert t.__dlpack_device__() == (1, 0)
    cap = t.__dlpack__(max_version=(1, 0))
    assert type(cap).__name__ == "PyCapsule"
    with pytest.raises(BufferError):
        t.__dlpack__(copy=True)


def test_torch_round_trip():
    torch = pytest.importorskip("torch")
    t = lt.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
    x = torch.from_dlpack(t)
    assert x.tolist() == [[0, 1, 2], [3, 4, 5]]
    y = torch.arange(4, dtype=torch.bfloat16)
    assert lt.from_dlpack(y).dtype == lt.bfloat16


def test_jax_round_trip():
    jnp = pytest.importorskip("jax.numpy")
    t = lt.constant(np.arange(6, dtype=np.float32))
    x = jnp.from_dlpack(t)
    assert x.tolist() == list(range(6))
    assert lt.from_dlpack(jnp.arange(3, dtype=jnp.int32)).numpy().tolist() == [0, 1, 2]
