#!/usr/bin/env python3
"""Golden data for tf.linalg's diagonal functions (diag, diag_part, set_diag,
band_part with k, num_rows/num_cols, padding_value and align) and for
tf.dtypes.saturate_cast on every kind of dtype pair, as TF 2.21 evaluates them.

Each expression of EXPRS is evaluated with `tf` = tensorflow, `tnp` =
tensorflow.experimental.numpy (numpy behaviour on, dtype_conversion_mode="all");
python/tests/test_diag_saturate.py evaluates the same text with lattensor and
compares dtype, weakness, shape and values, or the class of the error raised.

    /work/venv/tf/bin/python scripts/golden/tf_diag_saturate.py

Writes python/tests/data/tf_diag_saturate_golden.json.
"""
import json
import os
import pathlib
import sys

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf  # noqa: E402
import tensorflow.experimental.numpy as tnp  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tf_values import encode  # noqa: E402

tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="all")
OUT = pathlib.Path(__file__).resolve().parents[2] / "python/tests/data/tf_diag_saturate_golden.json"

X33 = "tf.reshape(tf.range(1, 10), [3, 3])"
X34 = "tf.reshape(tf.range(1., 13.), [3, 4])"
X234 = "tf.reshape(tf.range(24), [2, 3, 4])"
ALIGNS = ["RIGHT_LEFT", "LEFT_RIGHT", "LEFT_LEFT", "RIGHT_RIGHT"]

EXPRS = [
    # diag: one diagonal, k, num_rows/num_cols, padding_value and its dtype rules
    "tf.linalg.diag(tf.constant([-3.0, -1.5], tf.float64), k=1)",
    "tf.linalg.diag(tf.constant([-3.0, -1.5], tf.float64), k=-2)",
    "tf.linalg.diag(tf.constant([[1., 2, 3], [4, 5, 6]]), k=(-1, 0))",
    "tf.linalg.diag([1.5, 2.5], padding_value=7)",
    "tf.linalg.diag(tf.constant([1.5, 2.5], tf.bfloat16), padding_value=0.5)",
    "tf.linalg.diag(tf.constant([1, 2], tf.uint8), padding_value=-1)",
    "tf.linalg.diag(tf.constant([True, False]), padding_value=1)",
    "tf.linalg.diag(tf.constant([True, False]))",
    "tf.linalg.diag(tf.constant([1+2j, 3j]), padding_value=3)",
    "tf.linalg.diag(tf.constant([1., 2]), padding_value=np.float64(1.5))",
    "tf.linalg.diag(tf.constant([1., 2]), padding_value=tf.constant(9.))",
    "tf.linalg.diag(tf.constant([1., 2]), k=-1, num_rows=3, num_cols=4)",
    "tf.linalg.diag(tf.constant([1., 2]), num_rows=3)",
    "tf.linalg.diag(tf.constant([1., 2]), num_cols=4)",
    "tf.linalg.diag(tf.constant([1., 2]), num_rows=tf.constant(3))",
    "tf.linalg.diag(tf.constant([1., 2]), k=tf.constant([0]))",
    "tf.linalg.diag(tf.constant([[1., 2], [3, 4]]), k=(0, 1), align='LEFT_RIGHT')",
    "tf.linalg.diag(tf.constant([[1., 2], [3, 4]]), k=(-1, 0), align='LEFT_RIGHT', num_rows=3, num_cols=2)",
    "tf.linalg.diag(tf.zeros([2, 0]), k=(-1, 0))",
    "tf.linalg.diag(tf.zeros([0]))",
    "tf.linalg.diag(tf.constant([[[1, 2], [3, 4]], [[5, 6], [7, 8]]]), k=(-1, 0), padding_value=-1)",
    "tf.linalg.diag(tf.reshape(tf.range(1, 7), [2, 3]))",
    # diag refusals
    "tf.linalg.diag([1.5, 2.5], padding_value=tf.constant(1.0, tf.float64))",
    "tf.linalg.diag(tf.constant([1, 2]), padding_value=7.5)",
    "tf.linalg.diag(tf.constant([1., 2]), padding_value=1+1j)",
    "tf.linalg.diag(tf.constant([[1., 2, 3], [4, 5, 6]]), k=(0, -1))",
    "tf.linalg.diag(tf.constant([[1., 2, 3], [4, 5, 6]]), k=(-1, 1))",
    "tf.linalg.diag(tf.constant([1., 2]), k=(1, 2, 3))",
    "tf.linalg.diag(tf.constant([1., 2]), k=[])",
    "tf.linalg.diag(tf.constant([1., 2]), k=-1, num_rows=5, num_cols=5)",
    "tf.linalg.diag(tf.constant([1., 2]), num_rows=1)",
    "tf.linalg.diag(tf.constant([1., 2]), align='BAD')",
    "tf.linalg.diag(tf.constant(1.))",
    "tf.linalg.diag(tf.constant([1., 2]), k=1.5)",
    "tf.linalg.diag(tf.constant([1., 2]), padding_value=[2., 3.])",
    # diag_part
    f"tf.linalg.diag_part({X34}, k=1)",
    f"tf.linalg.diag_part({X34}, k=-2)",
    f"tf.linalg.diag_part({X33}, k=(-1, 1), padding_value=-1)",
    f"tf.linalg.diag_part({X33}, k=2)",
    f"tf.linalg.diag_part({X33}, k=tf.constant([0, 1]))",
    f"tf.linalg.diag_part({X33}, k=[1])",
    f"tf.linalg.diag_part({X33}, k=np.int64(1))",
    "tf.linalg.diag_part([[1., 2], [3, 4]], padding_value=5)",
    "tf.linalg.diag_part([[1., 2], [3, 4]], k=(0, 1), padding_value=5)",
    "tf.linalg.diag_part(tf.constant([[1, 2], [3, 4]], tf.bfloat16), k=(-1, 0), padding_value=0.5)",
    "tf.linalg.diag_part(tf.reshape(tf.range(6.), [1, 2, 3]), k=(-1, 2), align='RIGHT_RIGHT')",
    "tf.linalg.diag_part(tf.zeros([0, 3]), k=1)",
    "tf.linalg.diag_part(tf.zeros([2, 0]))",
    "tf.linalg.diag_part(tf.zeros([2, 3, 0, 4]), k=(0, 1))",
    f"tf.linalg.diag_part({X33}, k=3)",
    f"tf.linalg.diag_part({X33}, k=-3)",
    f"tf.linalg.diag_part({X33}, k=(1, -1))",
    "tf.linalg.diag_part(tf.constant([[1, 2], [3, 4]]), k=(0, 1), padding_value=5.5)",
    f"tf.linalg.diag_part(tf.cast({X33}, tf.float32), k=(-1, 1), padding_value=tf.constant(2, tf.int64))",
    f"tf.linalg.diag_part({X33}, k=(-1, 1), padding_value=[2, 3])",
    "tf.linalg.diag_part(tf.constant([1, 2]))",
    # set_diag and band_part
    "tf.linalg.set_diag(tf.constant([[1., 2], [3, 4]]), [5., 6])",
    "tf.linalg.set_diag([[1., 2], [3, 4]], [5., 6])",
    "tf.linalg.set_diag(tf.zeros([2, 3], tf.int32), [[5, 6], [7, 8]], k=(0, 1))",
    "tf.linalg.set_diag(tf.zeros([3, 2], tf.int8), [[5, 6], [7, 8]], k=(-1, 0), align='LEFT_RIGHT')",
    "tf.linalg.set_diag(tf.zeros([2, 2]), tf.constant([5., 6], tf.float64))",
    "tf.linalg.set_diag(tf.zeros([2, 3], tf.int32), [5, 6, 7])",
    "tf.linalg.band_part(tf.constant([[1., 2], [3, 4]]), 0, -1)",
    "tf.linalg.band_part([[1., 2], [3, 4]], -1, 0)",
    "tf.linalg.band_part(tf.constant([[1, 2], [3, 4]], tf.int8), 0, 0)",
    f"tf.linalg.band_part({X234}, 1, 2)",
    "tf.linalg.band_part(tf.constant([[1, 2], [3, 4]]), 2, 2)",
    "tf.linalg.band_part(tf.constant([[1, 2], [3, 4]]), 3, 0)",
    "tf.linalg.band_part(tf.constant([1, 2]), 0, 0)",
    # tnp's diagonal functions
    "tnp.diag(tf.constant([1., 2]), k=1)", "tnp.diag(tf.constant([[1, 2], [3, 4]]), k=-1)",
    "tnp.diagflat(tf.constant([[1., 2]]), k=-1)",
    "tnp.diagonal(tf.reshape(tf.range(8.), [2, 2, 2]), offset=1, axis1=1, axis2=2)",
    # saturate_cast: float → float (clipped to the finite range, inf included), float → int, int → int/float, complex
    "tf.dtypes.saturate_cast(tf.constant([1e10, -1e10, 3.5]), tf.float16)",
    "tf.dtypes.saturate_cast(tf.constant([1e300, -1e300, float('inf'), float('nan')], tf.float64), tf.float32)",
    "tf.dtypes.saturate_cast(tf.constant([1e300, -1e300, float('inf'), float('nan')], tf.float64), tf.bfloat16)",
    "tf.dtypes.saturate_cast(tf.constant([1e5, -1e5, 3.5], tf.float32), tf.float16)",
    "tf.dtypes.saturate_cast(tf.constant([1e5], tf.float32), tf.float64)",
    "tf.dtypes.saturate_cast(tf.constant([float('inf'), float('-inf'), float('nan')], tf.float32), tf.float64)",
    "tf.dtypes.saturate_cast(tf.constant([float('inf'), float('nan')], tf.float32), tf.float32)",
    "tf.dtypes.saturate_cast(tf.constant([float('inf'), 70000], tf.bfloat16), tf.float16)",
    "tf.dtypes.saturate_cast(tf.constant([float('inf')], tf.float16), tf.bfloat16)",
    "tf.dtypes.saturate_cast(tf.constant([1e30, 2], tf.float32), tf.bfloat16)",
    "tf.dtypes.saturate_cast(tf.constant([3.5e38, 2], tf.float32), tf.bfloat16)",
    "tf.dtypes.saturate_cast(tf.constant([1e39, -1e39], tf.float64), tf.float32)",
    "tf.dtypes.saturate_cast(tf.constant([1e5], tf.float64), tf.float16)",
    "tf.dtypes.saturate_cast(tf.constant([1.5, 2.5]), tf.float32)",
    "tf.dtypes.saturate_cast(1.5, tf.float32)",
    "tf.dtypes.saturate_cast(tf.constant([3e9, -3e9, 5e9]), tf.int32)",
    "tf.dtypes.saturate_cast(tf.constant([3e9, -3e9, 5e9]), tf.uint32)",
    "tf.dtypes.saturate_cast(tf.constant([40000., -40000], tf.float16), tf.int16)",
    "tf.dtypes.saturate_cast(tf.constant([300.7, -5.5, 7.9], tf.float64), tf.uint8)",
    "tf.dtypes.saturate_cast(tf.constant([1e20, -1e20], tf.bfloat16), tf.int32)",
    "tf.dtypes.saturate_cast(tf.constant([300, -5]), tf.uint8)",
    "tf.dtypes.saturate_cast([300, -5], tf.uint8)",
    "tf.dtypes.saturate_cast(tf.constant([300, -5], tf.int64), tf.int32)",
    "tf.dtypes.saturate_cast(tf.constant([-1, 100], tf.int8), tf.uint8)",
    "tf.dtypes.saturate_cast(tf.constant([70000, -70000], tf.int32), tf.float16)",
    "tf.dtypes.saturate_cast(tf.constant([65535, 7], tf.uint16), tf.float16)",
    "tf.dtypes.saturate_cast(tf.constant([300, 2], tf.int16), tf.float16)",
    "tf.dtypes.saturate_cast(tf.constant([1e300+1e300j, 1-2j]), tf.complex64)",
    "tf.dtypes.saturate_cast(tf.constant([1e300+1e300j, 1-2j]), tf.float32)",
    "tf.dtypes.saturate_cast(tf.constant([300+5j, -1-2j]), tf.uint8)",
    "tf.dtypes.saturate_cast(tf.constant([300., -5.]), tf.complex64)",
    "tf.dtypes.saturate_cast(tf.constant([1e300, 1e5], tf.float64), tf.complex64)",
    "tf.dtypes.saturate_cast(tf.constant([float('inf'), -5], tf.float64), tf.complex128)",
    "tf.dtypes.saturate_cast(tf.constant([complex(float('inf'), float('nan'))], tf.complex64), tf.complex128)",
    "tf.dtypes.saturate_cast(tf.constant([complex(float('inf'), float('nan'))], tf.complex128), tf.complex64)",
    "tf.dtypes.saturate_cast(tf.constant([65504.0 + 70000j], tf.complex64), tf.complex64)",
    "tf.dtypes.saturate_cast(tf.constant([True, False]), tf.int32)",
    "tf.dtypes.saturate_cast(tf.constant([1, 0]), tf.bool)",
    "tf.saturate_cast(tf.constant([1.0, 300.0]), tf.int8)",
]
# every alignment of a band of a batch, both ways
for a in ALIGNS:
    EXPRS.append(f"tf.linalg.diag_part({X234}, k=(-2, 1), padding_value=99, align='{a}')")
    EXPRS.append(f"tf.linalg.diag(tf.linalg.diag_part({X234}, k=(-1, 2), padding_value=99, align='{a}'), "
                 f"k=(-1, 2), num_rows=3, num_cols=4, padding_value=-1, align='{a}')")
    EXPRS.append(f"tf.linalg.set_diag(tf.zeros([2, 3, 4], tf.int32), tf.linalg.diag_part({X234}, k=(0, 2), "
                 f"align='{a}'), k=(0, 2), align='{a}')")

#: Where TF's saturate_cast is undefined or crashes; lattensor's answers are in the test.
DEVIATIONS = [
    # NaN → int: TF's cast gives INT_MIN (undefined in C++); lattensor casts NaN to 0 (docs/deviations.md)
    "tf.dtypes.saturate_cast(tf.constant([float('nan'), float('inf'), -1e10]), tf.int32)",
    # float → int64: TF's clip bound float32(2⁶³) is out of range and the cast gives INT_MIN; lattensor saturates
    "tf.dtypes.saturate_cast(tf.constant([1e20, -1e20, float('inf')], tf.float32), tf.int64)",
    "tf.dtypes.saturate_cast(tf.constant([1e20, -1e20, float('inf')], tf.float32), tf.uint64)",
    # 64-bit integer bounds: TF's implementation raises OverflowError converting them to np.int32
    "tf.dtypes.saturate_cast(tf.constant([2**63-1, -5], tf.int64), tf.uint64)",
    "tf.dtypes.saturate_cast(tf.constant([2**40, -5], tf.int64), tf.complex64)",
    "tf.dtypes.saturate_cast(tf.constant([2**62, -2**62], tf.int64), tf.float16)",
]


def run(e):
    try:
        return encode(eval(e))  # noqa: S307 (our own expression list)
    except Exception as ex:  # noqa: BLE001
        return {"error": type(ex).__name__}


cases = [{"expr": e, "out": run(e)} for e in EXPRS]
cases += [{"expr": e, "out": run(e), "deviation": True} for e in DEVIATIONS]
OUT.write_text(json.dumps({"tf_version": tf.__version__, "cases": cases}, indent=0) + "\n")
print(f"wrote {len(cases)} cases to {OUT}")
