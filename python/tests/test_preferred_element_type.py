"""`preferred_element_type` (JAX's name) on matmul, einsum and tensordot, and
TF's `output_type` on `tf.linalg.matmul`: against JAX's results on the same
inputs (python/tests/data/jax_preferred_element_type.json, made by
scripts/golden/jax_preferred_element_type.py), against an int64 NumPy
reference where JAX's CPU backend has no kernel (int4/uint4), and the
refusals with their exception class."""

from __future__ import annotations

import json
import pathlib

import ml_dtypes
import numpy as np
import pytest

import lattensor as tf
import lattensor.array_api as xp
import lattensor.experimental.numpy as tnp

GOLDEN = json.loads((pathlib.Path(__file__).parent / "data" / "jax_preferred_element_type.json").read_text())
RANGES = {"int8": (-128, 127), "uint8": (0, 255), "int16": (-32768, 32767), "uint16": (0, 65535),
          "int32": (-2**31, 2**31 - 1), "int4": (-8, 7), "uint4": (0, 15), "bool": (0, 1)}
# Where lattensor refuses what JAX 0.10 accepts: a conversion that loses the operand's
# kind or width is written out as a cast (docs/low_precision.md).
REFUSED = {("float32", "int32"), ("complex64", "float64"), ("float64", "float32"), ("int32", "int16"),
           ("float32", "bfloat16"), ("float32", "bool")}


def values(dtype, shape, seed):
    """The golden script's operand values."""
    n = int(np.prod(shape))
    u = (np.arange(seed * 7919, seed * 7919 + n, dtype=np.uint64) * np.uint64(2654435761)) % np.uint64(2**32)
    if dtype in RANGES:
        lo, hi = RANGES[dtype]
        v = lo + (u.astype(object) * (hi - lo + 1)) // 2**32
        return np.array([int(x) for x in v], dtype=np.int64).reshape(shape)
    return ((u % np.uint64(25)).astype(np.float64) - 12.0).reshape(shape) / 8.0


def np_dtype(name):
    return np.dtype(getattr(ml_dtypes, name, None) or name)


def operands(c):
    out = []
    for i, (d, shp) in enumerate(zip(c["dtypes"], c["shapes"])):
        v = np.full(shp, c["extra"]["fill"][i]) if c["op"] == "matmul_fill" else values(d, shp, i + 1)
        if d not in RANGES and not d.startswith("complex"):  # the values the dtype holds (float8 rounds some)
            v = v.astype(np_dtype(d)).astype(np.float64)
        out.append(v)
    return out


def run(c, arrays):
    p = getattr(tf, c["preferred"])
    ts = [tf.constant(np.asarray(v).astype(np_dtype(d))) for v, d in zip(arrays, c["dtypes"])]
    if c["op"] in ("matmul", "matmul_fill"):
        return tnp.matmul(ts[0], ts[1], preferred_element_type=p)
    if c["op"] == "einsum":
        return tnp.einsum(c["extra"]["equation"], *ts, preferred_element_type=p)
    return tnp.tensordot(ts[0], ts[1], axes=c["extra"]["axes"], preferred_element_type=p)


def reference(c, arrays):
    """The exact product in int64 (object for safety) or float64, wrapped/rounded to the preferred dtype."""
    kind = "i" if c["preferred"].startswith(("int", "uint")) else "f"
    arrs = [np.asarray(a).astype(object if kind == "i" else np.float64) for a in arrays]
    if c["op"] in ("matmul", "matmul_fill"):
        r = np.matmul(arrs[0], arrs[1]) if kind == "f" else np.array(arrs[0].dot(arrs[1]))
    elif c["op"] == "einsum":
        r = np.einsum(c["extra"]["equation"], *arrs)
    else:
        r = np.tensordot(arrs[0], arrs[1], axes=c["extra"]["axes"])
    if kind == "i":
        bits = np.dtype(c["preferred"]).itemsize * 8
        signed = c["preferred"].startswith("int")
        wrap = [int(x) % 2**bits for x in np.asarray(r).ravel()]
        return [x - 2**bits if signed and x >= 2**(bits - 1) else x for x in wrap]
    return [float(x) for x in np.asarray(r).ravel()]


@pytest.mark.parametrize("c", GOLDEN["cases"], ids=lambda c: f"{c['op']}-{'x'.join(c['dtypes'])}-{c['preferred']}")
def test_matches_jax(c):
    arrays = operands(c)
    key = (c["dtypes"][0], c["preferred"])
    if key in REFUSED:
        with pytest.raises(TypeError, match=f"preferred_element_type={c['preferred']}"):
            run(c, arrays)
        return
    r = run(c, arrays)
    got = np.asarray(r)
    assert r.dtype.name == c["preferred"] and not r.weak
    if "error" in c:
        # JAX's CPU backend has no int4/uint4 product, and refuses e5m2 with e5m2fnuz:
        # the exact reference instead
        assert c["error"] in ("JaxRuntimeError", "TypeError")
        assert got.ravel().tolist() == reference(c, arrays)
        return
    assert list(got.shape) == c["shape"]
    assert got.ravel().tolist() == c["values"]
    assert c["values"] == reference(c, arrays)


def test_tf_output_type_is_exact_for_int8():
    a = tf.constant(np.full((2, 1 << 17), 127, np.int8))
    b = tf.constant(np.full((1 << 17, 3), 127, np.int8))
    r = tf.linalg.matmul(a, b, output_type=tf.int32)
    assert r.dtype == tf.int32 and np.asarray(r).tolist() == [[127 * 127 << 17] * 3] * 2
    # transpose flags with output_type
    r = tf.linalg.matmul(b, a, transpose_a=True, transpose_b=True, output_type=tf.int32)
    assert r.shape == (3, 2)
    # without output_type, int8 arithmetic wraps (as TF's int8 matmul does)
    small = tf.constant([[100, 100]], tf.int8)
    assert tf.linalg.matmul(small, tf.transpose(small)).numpy().tolist() == [[np.int8(np.int64(20000) % 256 - 256)]]


def test_array_api_and_numpy_protocol_forms():
    a = xp.asarray(np.arange(-6, 6, dtype=np.int8).reshape(3, 4) * 20)
    b = xp.asarray(np.arange(8, dtype=np.int8).reshape(4, 2) * 30)
    want = (np.asarray(a).astype(np.int64) @ np.asarray(b).astype(np.int64)).tolist()
    for r in (xp.matmul(a, b, preferred_element_type=xp.int32),
              xp.tensordot(a, b, axes=1, preferred_element_type=xp.int32),
              tf.einsum("ij,jk->ik", a, b, preferred_element_type=tf.int32)):
        assert r.dtype == xp.int32 and np.asarray(r).tolist() == want
    # 1-D operands as vectors
    v = xp.asarray(np.array([100, 100, 100], np.int8))
    assert xp.matmul(v, v, preferred_element_type=xp.int32).numpy().tolist() == 30000


@pytest.mark.parametrize("p,says", [
    (tf.int32, "would truncate a (weak )?float32 operand"),
    (tf.bool, "cannot hold a product"),
    (tf.float8_e4m3fn, "cannot hold a product"),
])
def test_refusals_are_type_errors_naming_the_fix(p, says):
    f = tf.constant([[1.5, 2.0]])
    for call in (lambda: tnp.matmul(f, tf.transpose(f), preferred_element_type=p),
                 lambda: tnp.einsum("ij,kj->ik", f, f, preferred_element_type=p),
                 lambda: tnp.tensordot(f, f, axes=[[1], [1]], preferred_element_type=p),
                 lambda: tf.linalg.matmul(f, f, transpose_b=True, output_type=p)):
        with pytest.raises(TypeError, match=says):
            call()


def test_einsum_rejects_unknown_keywords_still():
    with pytest.raises(TypeError, match="Invalid keyword"):
        tf.einsum("ij->ji", tf.ones((2, 2)), preferred_type=tf.int32)
