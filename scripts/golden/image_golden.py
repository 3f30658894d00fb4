#!/usr/bin/env python3
"""Goldens for lattensor::image, identity/stop_gradient and check_numerics,
measured on TensorFlow 2.21 (CPU) with WeakTensor semantics on
(`experimental_enable_numpy_behavior(dtype_conversion_mode="all")`).

Writes crates/lattensor/tests/data/image_golden.json. Tensors are stored as
{dtype, shape, weak, hex}: `hex` is the little-endian bytes of the row-major
elements, so values round-trip bit for bit. A weak input stands for a Python
list (the image) or a Python scalar (delta, gamma, gain: stored as {"py": v}).

Run: /work/venv/oracle/bin/python scripts/golden/image_golden.py
"""
import json
import os
import pathlib

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np
import tensorflow as tf
from tensorflow.python.framework import weak_tensor

tf.experimental.numpy.experimental_enable_numpy_behavior(dtype_conversion_mode="all")

OUT = pathlib.Path(__file__).resolve().parents[2] / "crates/lattensor/tests/data/image_golden.json"
INTS = [tf.uint8, tf.uint16, tf.uint32, tf.uint64, tf.int8, tf.int16, tf.int32, tf.int64]
FLOATS = [tf.bfloat16, tf.float16, tf.float32, tf.float64]
IMAGE_DTYPES = INTS + FLOATS
rng = np.random.default_rng(20261130)


def enc(t):
    """A tensor (or WeakTensor) → its JSON record."""
    a = np.ascontiguousarray(np.asarray(t))
    return {"dtype": t.dtype.name, "shape": list(a.shape), "weak": isinstance(t, weak_tensor.WeakTensor),
            "hex": a.tobytes().hex()}


def image(dtype, shape):
    """Pixel values over the dtype's whole range, edges included; floats mostly in [0, 1]
    with some outside, plus signed zeros."""
    n = int(np.prod(shape))
    if dtype.is_integer:
        lo, hi = dtype.min, dtype.max
        v = rng.integers(lo, hi, size=n, endpoint=True, dtype=np.int64 if dtype != tf.uint64 else np.uint64)
        edges = [lo, hi, 0, 1, hi // 2, hi - 1]
        v = v.astype(dtype.as_numpy_dtype)
        v[: min(n, len(edges))] = np.array([int(e) for e in edges[: min(n, len(edges))]], dtype=dtype.as_numpy_dtype)
        return tf.constant(v.reshape(shape), dtype)
    v = rng.uniform(0, 1, size=n)
    extra = [0.0, 1.0, -0.0, 1.25, -0.25, 0.5, 1e-3]
    v[: min(n, len(extra))] = extra[: min(n, len(extra))]
    return tf.cast(tf.constant(v.reshape(shape), tf.float64), dtype)


def arg(v):
    """A delta/gamma/gain argument: Python scalars stay Python, tensors are encoded."""
    return {"py": v} if isinstance(v, (int, float)) else enc(v)


def run(fn, *args):
    try:
        return {"out": enc(fn(*args))}
    except Exception as e:  # recorded: the Rust side must refuse too
        return {"error": type(e).__name__, "message": str(e).splitlines()[0][:300]}


cases = []
# ---- adjust_brightness ------------------------------------------------------
for d in IMAGE_DTYPES:
    for shape in ([5, 4, 3], [2, 3, 3, 1]):
        x = image(d, shape)
        for delta in [0.1, -0.3, 0.0, 0.75, -1e-3, 1]:
            cases.append({"op": "adjust_brightness", "image": enc(x), "delta": arg(delta),
                          **run(tf.image.adjust_brightness, x, delta)})
    x = image(d, [3, 2, 1])
    for delta in [tf.constant(0.2, tf.float64), tf.constant(-0.1, tf.float16), tf.constant([0.05, -0.05], tf.float32)]:
        cases.append({"op": "adjust_brightness", "image": enc(x), "delta": arg(delta),
                      **run(tf.image.adjust_brightness, x, delta)})
# weak images (Python lists)
for lst in ([[[0.1], [0.2]], [[0.3], [0.9]]], [[[1], [2]], [[3], [200]]]):
    w = tf.constant(lst)
    cases.append({"op": "adjust_brightness", "image": enc(w), "delta": arg(0.1),
                  **run(tf.image.adjust_brightness, lst, 0.1)})
# NaN in float images
for d in FLOATS:
    x = tf.cast(tf.constant([[np.nan, 0.5]], tf.float64), d)
    cases.append({"op": "adjust_brightness", "image": enc(x), "delta": arg(0.25), **run(tf.image.adjust_brightness, x, 0.25)})

# ---- adjust_gamma -----------------------------------------------------------
for d in IMAGE_DTYPES:
    x = image(d, [4, 3, 3])
    for gamma, gain in [(0.5, 1.0), (1.0, 1.0), (2.2, 1.0), (0.0, 1.0), (3, 1), (0.7, 0.8), (1.5, 2)]:
        cases.append({"op": "adjust_gamma", "image": enc(x), "gamma": arg(gamma), "gain": arg(gain),
                      **run(tf.image.adjust_gamma, x, gamma, gain)})
    for gamma, gain in [(tf.constant(0.5, tf.float64), 1.0), (0.5, tf.constant(1.5, tf.float64)),
                        (tf.constant(2, tf.int32), 1.0), (-1.0, 1.0), (tf.constant(-0.5, tf.float32), 1.0)]:
        cases.append({"op": "adjust_gamma", "image": enc(x), "gamma": arg(gamma), "gain": arg(gain),
                      **run(tf.image.adjust_gamma, x, gamma, gain)})
for lst in ([[[0.1], [0.2]], [[0.3], [0.9]]], [[[1], [2]], [[3], [200]]]):
    w = tf.constant(lst)
    cases.append({"op": "adjust_gamma", "image": enc(w), "gamma": arg(0.5), "gain": arg(1.0),
                  **run(tf.image.adjust_gamma, lst, 0.5, 1.0)})
    cases.append({"op": "adjust_gamma", "image": enc(w), "gamma": arg(0.5), "gain": arg(1.0),
                  **run(tf.image.adjust_gamma, w, 0.5, 1.0)})

# ---- extract_patches --------------------------------------------------------
configs = [
    ([1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], "VALID"),
    ([1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], "SAME"),
    ([1, 3, 2, 1], [1, 2, 3, 1], [1, 2, 2, 1], "SAME"),
    ([1, 3, 3, 1], [1, 2, 1, 1], [1, 1, 2, 1], "VALID"),
    ([1, 1, 4, 1], [1, 3, 2, 1], [1, 1, 1, 1], "SAME"),
    ([1, 6, 1, 1], [1, 2, 1, 1], [1, 1, 1, 1], "VALID"),
    ([1, 5, 5, 1], [1, 1, 1, 1], [1, 2, 1, 1], "SAME"),
    ([1, 9, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1], "VALID"),
    ([2, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1], "VALID"),
    ([1, 0, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1], "VALID"),
    ([1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 2], "VALID"),
]
base = tf.reshape(tf.range(1, 2 * 5 * 4 * 3 + 1), [2, 5, 4, 3])
for sizes, strides, rates, padding in configs:
    for d in [tf.float32, tf.int64]:
        x = tf.cast(base, d)
        cases.append({"op": "extract_patches", "image": enc(x), "sizes": sizes, "strides": strides, "rates": rates,
                      "padding": padding, **run(tf.image.extract_patches, x, sizes, strides, rates, padding)})
for d in IMAGE_DTYPES + [tf.complex64, tf.complex128, tf.bool]:
    x = tf.cast(base[:1, :3, :3, :2] - 20, d) if d != tf.bool else tf.cast(base[:1, :3, :3, :2] % 2, tf.bool)
    cfg = ([1, 2, 2, 1], [1, 1, 2, 1], [1, 1, 1, 1], "SAME")
    cases.append({"op": "extract_patches", "image": enc(x), "sizes": cfg[0], "strides": cfg[1], "rates": cfg[2],
                  "padding": cfg[3], **run(tf.image.extract_patches, x, *cfg)})
w = tf.constant([[[[1.5], [2.5]], [[3.5], [4.5]]]])
cases.append({"op": "extract_patches", "image": enc(w), "sizes": [1, 2, 1, 1], "strides": [1, 1, 1, 1],
              "rates": [1, 1, 1, 1], "padding": "VALID",
              **run(tf.image.extract_patches, [[[[1.5], [2.5]], [[3.5], [4.5]]]], [1, 2, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1], "VALID")})
for shape in ([1, 5, 4], [2, 3, 3, 1, 1]):
    x = tf.zeros(shape)
    cases.append({"op": "extract_patches", "image": enc(x), "sizes": [1, 1, 1, 1], "strides": [1, 1, 1, 1],
                  "rates": [1, 1, 1, 1], "padding": "VALID",
                  **run(tf.image.extract_patches, x, [1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1], "VALID")})

# ---- stateless_random_brightness --------------------------------------------
I64 = np.iinfo(np.int64)
seeds = [[1, 2], [0, 0], [-1, -1], [I64.max, I64.min], [I64.min, 0], [2**31 - 1, -2**31], [2**32, 2**32 + 1]]
seeds += [[int(a), int(b)] for a, b in rng.integers(-2**63, 2**63, size=(150, 2), dtype=np.int64)]
seeds += [[int(a), int(b)] for a, b in rng.integers(-2**31, 2**31, size=(100, 2), dtype=np.int64)]
zero = tf.zeros([1], tf.float32)
for i, s in enumerate(seeds):
    md = [0.2, 0.5, 1.0, 0.0, 1e-3, 3.7, 1e30][i % 7]
    seed = tf.constant(np.array(s, np.int64))
    cases.append({"op": "stateless_random_brightness", "image": enc(zero), "max_delta": md, "seed": s,
                  **run(tf.image.stateless_random_brightness, zero, md, seed)})
for d in IMAGE_DTYPES:
    for shape in ([4, 4, 3], [2, 2, 2, 1]):
        x = image(d, shape)
        for s in seeds[:6]:
            cases.append({"op": "stateless_random_brightness", "image": enc(x), "max_delta": 0.3, "seed": s,
                          **run(tf.image.stateless_random_brightness, x, 0.3, tf.constant(np.array(s, np.int64)))})
# int32 seeds give the same values as int64 seeds of equal value
for s in seeds[7:27]:
    if -2**31 <= s[0] < 2**31 and -2**31 <= s[1] < 2**31:
        cases.append({"op": "stateless_random_brightness", "image": enc(zero), "max_delta": 0.5, "seed": s,
                      **run(tf.image.stateless_random_brightness, zero, 0.5, tf.constant(np.array(s, np.int32)))})
lst = [[[0.1], [0.2]], [[0.3], [0.9]]]
cases.append({"op": "stateless_random_brightness", "image": enc(tf.constant(lst)), "max_delta": 0.2, "seed": [1, 2],
              **run(tf.image.stateless_random_brightness, lst, 0.2, (1, 2))})
cases.append({"op": "stateless_random_brightness", "image": enc(zero), "max_delta": -0.5, "seed": [1, 2],
              **run(tf.image.stateless_random_brightness, zero, -0.5, (1, 2))})

# ---- identity, stop_gradient, check_numerics ---------------------------------
ALL = [tf.bool, tf.uint8, tf.uint16, tf.uint32, tf.uint64, tf.int8, tf.int16, tf.int32, tf.int64,
       tf.bfloat16, tf.float16, tf.float32, tf.float64, tf.complex64, tf.complex128]
for d in ALL:
    x = tf.cast(tf.constant([[0.0, 1.0, 2.0]]), d)
    for name, fn in [("identity", tf.identity), ("stop_gradient", tf.stop_gradient),
                     ("check_numerics", lambda t: tf.debugging.check_numerics(t, "golden message"))]:
        cases.append({"op": name, "image": enc(x), **run(fn, x)})
for lst in ([1.5, 2.5], [1, 2]):
    for name, fn in [("identity", tf.identity), ("stop_gradient", tf.stop_gradient),
                     ("check_numerics", lambda t: tf.debugging.check_numerics(t, "golden message"))]:
        cases.append({"op": name, "image": enc(tf.constant(lst)), **run(fn, lst)})
for d in FLOATS:
    for vals in ([1.0, np.nan], [np.inf, 0.0], [-np.inf, np.nan], [0.0, -0.0]):
        x = tf.cast(tf.constant(vals, tf.float64), d)
        cases.append({"op": "check_numerics", "image": enc(x),
                      **run(lambda t: tf.debugging.check_numerics(t, "golden message"), x)})

OUT.write_text(json.dumps({"tf_version": tf.__version__, "cases": cases}, separators=(",", ":")) + "\n")
print(f"{len(cases)} cases -> {OUT} ({OUT.stat().st_size} bytes)")
