#!/usr/bin/env python3
"""Golden values for tf.bitwise's binary ops on every integer dtype (same-dtype
operands, which is all TF 2.21 accepts), written to
crates/lattensor/tests/data/tf_bitwise.json.

    /path/to/venv-with-tensorflow/bin/python scripts/golden/tf_bitwise.py

Shift amounts include negatives and amounts ≥ the bit width, where TF clamps
the amount to [0, bits − 1].
"""
import json
import pathlib

import tensorflow as tf

OUT = pathlib.Path(__file__).resolve().parents[2] / "crates/lattensor/tests/data/tf_bitwise.json"
DTYPES = [tf.int8, tf.int16, tf.int32, tf.int64, tf.uint8, tf.uint16, tf.uint32, tf.uint64]
OPS = ["bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift"]


def inputs(d):
    bits = d.size * 8
    if d.is_unsigned:
        lo, hi = 0, 2**bits - 1
        a = [0, 1, 5, 200 % (hi + 1), hi, hi - 1, 2 ** (bits - 1), 12345 % (hi + 1)]
        b = [3, 0, 1, bits - 1, bits, bits + 3, hi, 7]
    else:
        lo, hi = -(2 ** (bits - 1)), 2 ** (bits - 1) - 1
        a = [0, -1, 5, -16, hi, lo, -7, 100]
        b = [3, -1, 1, bits - 1, bits, bits + 3, -100 if bits > 8 else -100, 2]
    return a, b


out = {"tf_version": tf.__version__, "cases": []}
for d in DTYPES:
    a, b = inputs(d)
    ta, tb = tf.constant(a, d), tf.constant(b, d)
    for op in OPS:
        r = getattr(tf.bitwise, op)(ta, tb)
        out["cases"].append({"op": op, "dtype": d.name, "a": a, "b": b, "out": [int(v) for v in r.numpy().tolist()]})
OUT.write_text(json.dumps(out, indent=1) + "\n")
print(f"wrote {len(out['cases'])} cases to {OUT}")
