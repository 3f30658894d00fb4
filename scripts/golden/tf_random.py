#!/usr/bin/env python3
"""Golden data for lattensor::random: TF 2.21's stateless uniform, normal and
truncated normal generators on CPU, bit for bit.

    /work/venv/bench/bin/python scripts/golden/tf_random.py

Writes crates/lattensor/tests/data/tf_random.json. Each case names the function
(`uniform`, `uniform_int`, `full_int`, `normal`,
`truncated_normal`), its arguments, and the result's
bits as unsigned integers of the dtype's width: every bit for small shapes; for
the large ones (filled by lattensor in parallel chunks of 2^15 elements) the bits
at chosen indices around the chunk edges plus a checksum of all of them,
sum((i + 1) * bits[i]) mod 2^64.
"""
import json
import pathlib

import numpy as np
import tensorflow as tf

OUT = pathlib.Path(__file__).resolve().parents[2] / "crates/lattensor/tests/data/tf_random.json"
UINT = {"float16": np.uint16, "bfloat16": np.uint16, "float32": np.uint32, "float64": np.uint64,
        "int32": np.uint32, "int64": np.uint64, "uint32": np.uint32, "uint64": np.uint64}
SEEDS = [[1, 2], [0, 0], [-5, 2**40], [2**62 + 3, -1]]


def bits(t):
    a = t.numpy()
    return a.reshape(-1).view(UINT[t.dtype.name])


def case(fn, shape, seed, dtype, t, **args):
    b = bits(t)
    c = {"fn": fn, "shape": shape, "seed": seed, "dtype": dtype, **args}
    n = b.size
    if n <= 64:
        c["bits"] = [int(x) for x in b]
    else:
        idx = sorted({i for k in range(n // 32768 + 1) for i in range(32768 * k - 3, 32768 * k + 3) if 0 <= i < n}
                     | set(range(n - 5, n)))
        c["at"] = idx
        c["bits_at"] = [int(b[i]) for i in idx]
        w = (np.arange(1, n + 1, dtype=np.uint64) * b.astype(np.uint64))
        c["checksum"] = int(np.sum(w, dtype=np.uint64))
    return c


cases = []
for seed in SEEDS:
    for dtype in ["float16", "bfloat16", "float32", "float64"]:
        for lo, hi in [(0.0, 1.0), (-3.5, 2.25), (5.0, 1.0)]:
            for shape in [[7], [2, 3], []]:
                t = tf.random.stateless_uniform(shape, seed, lo, hi, dtype=dtype)
                cases.append(case("uniform", shape, seed, dtype, t, minval=lo, maxval=hi))
        for mean, std in [(0.0, 1.0), (2.5, 0.75)]:
            t = tf.random.stateless_normal([9], seed, mean, std, dtype=dtype)
            cases.append(case("normal", [9], seed, dtype, t, mean=mean, stddev=std))
            t = tf.random.stateless_truncated_normal([9], seed, mean, std, dtype=dtype)
            cases.append(case("truncated_normal", [9], seed, dtype, t, mean=mean, stddev=std))
    for dtype, bounds in [("int32", [(0, 10), (-7, 100), (-2**31, 2**31 - 1)]),
                          ("int64", [(0, 10), (-7, 100), (-2**63, 2**63 - 1), (3, 2**40 + 7)])]:
        for lo, hi in bounds:
            t = tf.random.stateless_uniform([11], seed, lo, hi, dtype=dtype)
            cases.append(case("uniform_int", [11], seed, dtype, t, minval=lo, maxval=hi))
    for dtype in ["int32", "int64", "uint32", "uint64"]:
        t = tf.random.stateless_uniform([6], seed, None, None, dtype=dtype)
        cases.append(case("full_int", [6], seed, dtype, t))

big = 2 * 2**17 + 5
for dtype in ["float32", "float64", "float16"]:
    t = tf.random.stateless_uniform([big], [7, 8], dtype=dtype)
    cases.append(case("uniform", [big], [7, 8], dtype, t, minval=0.0, maxval=1.0))
    t = tf.random.stateless_normal([big], [7, 8], dtype=dtype)
    cases.append(case("normal", [big], [7, 8], dtype, t, mean=0.0, stddev=1.0))
    t = tf.random.stateless_truncated_normal([big], [7, 8], dtype=dtype)
    cases.append(case("truncated_normal", [big], [7, 8], dtype, t, mean=0.0, stddev=1.0))
t = tf.random.stateless_uniform([big], [7, 8], -1000, 1000, dtype="int64")
cases.append(case("uniform_int", [big], [7, 8], "int64", t, minval=-1000, maxval=1000))

OUT.write_text(json.dumps({"tf_version": tf.__version__, "cases": cases}, separators=(",", ":")) + "\n")
print(f"{len(cases)} cases -> {OUT}")
