#!/usr/bin/env python3
"""Golden data for tnp.concatenate / tnp.stack / tnp.where over every pair of input kinds.

Runs TensorFlow 2.21 with `tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="all")`
and records, for each pair of inputs (a strong tensor of each of the 15 dtypes, or a Python
list of ints, floats or complexes, which TF makes weak), TF's result dtype, weakness
(`EagerWeakTensor`), shape and values, or the exception's class name.

    /work/venv/bench/bin/python scripts/golden/tnp_combine.py

Writes python/tests/data/tnp_combine_golden.json, read by python/tests/test_combine.py.
"""
import json
import pathlib

import numpy as np
import tensorflow as tf
import tensorflow.experimental.numpy as tnp
from tf_values import encode

tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="all")

OUT = pathlib.Path(__file__).resolve().parents[2] / "python/tests/data/tnp_combine_golden.json"
DTYPES = ["bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64",
          "bfloat16", "float16", "float32", "float64", "complex64", "complex128"]
KINDS = DTYPES + ["py_int", "py_float", "py_complex"]
VALUES = {"py_int": [1, 2], "py_float": [1.5, -2.0], "py_complex": [1 + 2j, -1j]}


def make(kind):
    """The input as a description (for the test) and as TF's value."""
    if kind in VALUES:
        return VALUES[kind]
    vals = [True, False] if kind == "bool" else [3, 4]
    return tf.constant(vals, dtype=kind)




def run(f):
    try:
        return encode(f())
    except Exception as e:  # noqa: BLE001 (the class name is the golden fact)
        return {"error": type(e).__name__}


cases = []
for ka in KINDS:
    for kb in KINDS:
        a, b = make(ka), make(kb)
        cases.append({"op": "concatenate", "a": ka, "b": kb, "out": run(lambda: tnp.concatenate([a, b]))})
        cases.append({"op": "stack", "a": ka, "b": kb, "out": run(lambda: tnp.stack([a, b], axis=1))})
        cond = tf.constant([True, False])
        cases.append({"op": "where", "a": ka, "b": kb, "out": run(lambda: tnp.where(cond, a, b))})
OUT.write_text(json.dumps({"tf_version": tf.__version__, "kinds": KINDS, "cases": cases}, indent=0) + "\n")
print(f"wrote {len(cases)} cases to {OUT}")
