"""Pickling tensors: protocol 5 sends the data out of band; every dtype and the
weak flag round-trip bit-exactly, in-band and out of band."""

from __future__ import annotations

import copy
import pickle

import ml_dtypes
import numpy as np
import pytest

import lattensor as lt

_NUMPY = {
    "bool": np.bool_,
    "uint8": np.uint8,
    "uint16": np.uint16,
    "uint32": np.uint32,
    "uint64": np.uint64,
    "int8": np.int8,
    "int16": np.int16,
    "int32": np.int32,
    "int64": np.int64,
    "bfloat16": ml_dtypes.bfloat16,
    "float16": np.float16,
    "float32": np.float32,
    "float64": np.float64,
    "complex64": np.complex64,
    "complex128": np.complex128,
}


def _sample(name, shape=(3, 5)):
    """Every bit pattern class of the dtype: random raw bytes (NaN payloads,
    infinities and subnormals included for floats)."""
    rng = np.random.default_rng(7)
    descr = np.dtype(_NUMPY[name])
    n = int(np.prod(shape))
    if name == "bool":
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    raw = rng.integers(0, 256, size=n * descr.itemsize, dtype=np.uint8)
    return raw.view(descr).reshape(shape)


def _bits(t):
    return np.asarray(t).reshape(-1).view(np.uint8).tobytes()


@pytest.mark.parametrize("name", sorted(_NUMPY))
@pytest.mark.parametrize("protocol", [2, 4, 5])
def test_round_trip_is_bit_exact_in_band(name, protocol):
    t = lt.constant(_sample(name))
    back = pickle.loads(pickle.dumps(t, protocol=protocol))
    assert back.dtype == t.dtype and back.shape == t.shape and back.weak is False
    assert _bits(back) == _bits(t)


@pytest.mark.parametrize("name", sorted(_NUMPY))
def test_protocol_5_sends_the_data_out_of_band(name):
    t = lt.constant(_sample(name, (64, 32)))
    buffers = []
    stream = pickle.dumps(t, protocol=5, buffer_callback=buffers.append)
    assert len(buffers) == 1
    assert buffers[0].raw().nbytes == t.dtype.size * 64 * 32
    # the stream holds the dtype, shape and flag, not the 2048 elements
    assert len(stream) < 300
    back = pickle.loads(stream, buffers=buffers)
    assert back.dtype == t.dtype and back.shape == t.shape
    assert _bits(back) == _bits(t)


def test_out_of_band_buffer_is_the_tensor_memory_not_a_copy():
    t = lt.constant(np.arange(1000, dtype=np.float32))
    buffers = []
    pickle.dumps(t, protocol=5, buffer_callback=buffers.append)
    raw = buffers[0].raw()
    assert raw.readonly
    view = np.asarray(t)
    assert np.frombuffer(raw, np.float32).__array_interface__["data"][0] == view.__array_interface__["data"][0]


@pytest.mark.parametrize(
    "value, dtype",
    [(5, "int32"), (2**40, "int64"), (1.5, "float32"), (1.5 + 2j, "complex128")],
)
@pytest.mark.parametrize("protocol", [4, 5])
def test_weakness_survives(value, dtype, protocol):
    t = lt.constant(value)
    assert t.weak is True and t.dtype == dtype
    buffers = []
    callback = buffers.append if protocol >= 5 else None
    back = pickle.loads(pickle.dumps(t, protocol=protocol, buffer_callback=callback), buffers=buffers)
    assert len(buffers) == (1 if protocol >= 5 else 0)
    assert back.weak is True and back.dtype == dtype
    assert np.asarray(back) == np.asarray(t)


def test_weak_tensor_adapts_after_round_trip():
    back = pickle.loads(pickle.dumps(lt.constant([1.5, 2.5]), protocol=5))
    y = lt.constant(np.ones(2, np.float16)) + back
    assert y.dtype == lt.float16 and y.weak is False


def test_views_and_empty_tensors():
    base = lt.constant(np.arange(24, dtype=np.int16).reshape(4, 6))
    for t in (base[:, 1::2], lt.transpose(base), base[1:1], lt.constant(np.zeros((0, 3), np.float16))):
        buffers = []
        back = pickle.loads(pickle.dumps(t, protocol=5, buffer_callback=buffers.append), buffers=buffers)
        assert back.shape == t.shape and back.dtype == t.dtype
        np.testing.assert_array_equal(np.asarray(back), np.asarray(t))


def test_copy_and_deepcopy_keep_weakness():
    t = lt.constant(3.0)
    for c in (copy.copy(t), copy.deepcopy(t)):
        assert c.weak is True and float(c) == 3.0


def test_numpy_dtype_of_a_lattensor_dtype():
    assert np.dtype(lt.float16) == np.float16
    assert np.dtype(lt.bfloat16) == ml_dtypes.bfloat16
    assert np.zeros(2, dtype=lt.complex64).dtype == np.complex64
    assert lt.int8.dtype == np.dtype(np.int8)
