#!/usr/bin/env python3
"""Golden data for refusals: the exception class TF 2.21 raises for each expression.

Each expression of CASES is evaluated with `tf` = tensorflow and `tnp` =
tensorflow.experimental.numpy (numpy behaviour on, dtype_conversion_mode="all"), and
must raise. The class is recorded by name with the families that matter to a caller's
`except`: the built-ins in its MRO (ValueError, TypeError, IndexError, …) and whether
it is one of `tf.errors`' classes. python/tests/test_exceptions.py evaluates the same
text with `tf` = lattensor and `tnp` = lattensor.experimental.numpy and requires the
same families.

    /work/venv/tf/bin/python scripts/golden/tf_exceptions.py

Writes python/tests/data/tf_exceptions.json. Besides the refusals, it records what TF
gives for conversions it performs (ACCEPTED) and, in dtype_conversion_mode="safe", what
composite ops that convert an operand before promoting do with a pair SAFE refuses
(SAFE_CASES: the refusal, or the dtype TF computes in where it bypasses the lattice).
"""
import json
import os
import pathlib

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402,F401 (used by the expressions)
import tensorflow as tf  # noqa: E402
import tensorflow.experimental.numpy as tnp  # noqa: E402

tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="all")
OUT = pathlib.Path(__file__).resolve().parents[2] / "python/tests/data/tf_exceptions.json"

#: The built-in classes whose membership a caller's `except` can depend on.
BUILTINS = ["ValueError", "TypeError", "IndexError", "KeyError", "AttributeError", "OverflowError",
            "NotImplementedError", "ZeroDivisionError"]


class Unknown:
    """An operand type no tensor knows; nothing handles it, so the operator raises."""


class Declines:
    """An operand whose reflected methods decline (`NotImplemented`) or fail."""

    def __rsub__(self, other):
        return NotImplemented

    def __radd__(self, other):
        raise TypeError("Declines cannot add")


CASES = [
    # argument checks of TF's Python layer: TypeError
    "tf.math.reduce_std(tf.constant([[1, 2], [3, 4]]), axis=0)",
    "tf.math.reduce_variance(tf.constant([1, 2], tf.int8))",
    "tf.math.reduce_variance(tf.constant([1, 2], tf.uint8))",
    "tf.math.reduce_variance(tf.constant([1, 2], tf.int32))",
    "tf.math.reduce_std(tf.constant([True, False]))",
    "tnp.arange(1, 2, 1j)",
    "tf.math.scalar_mul(2.5, tf.constant([-4, 5, -1]))",
    "tf.math.scalar_mul(1j, tf.constant([2.0, 4.5]))",
    "tf.constant(1.5, tf.int32)",
    "tf.constant([1.5, 2.0], tf.int32)",
    "tf.constant(1j, tf.float32)",
    "tf.convert_to_tensor(1.5, tf.int32)",
    "tf.constant(1.5, tf.uint8)",
    # argument checks of TF's Python layer: ValueError
    "tf.math.scalar_mul(tf.constant(0.5, tf.float64), tf.constant([1.0, 2.0]))",
    "tf.math.scalar_mul(tf.constant([1.0, 2.0]), tf.constant([4.0, 0.5]))",
    "tf.math.scalar_mul(tf.constant(2, tf.int32), tf.constant([1.0]))",
    "tf.constant(tf.constant(1, tf.int64), tf.int32)",
    "tf.convert_to_tensor(tf.constant([1.0], tf.float64), tf.float32)",
    "tf.constant([[1, 2], [3]])",
    "tnp.asarray([[1.0, 2.0], [3.0]])",
    "tf.linalg.matrix_transpose(tf.constant([1.0, 2.0, 3.0]))",
    "tf.linalg.matrix_transpose(tf.constant(1.0))",
    "tnp.diag(tf.zeros([2, 2, 2]))",
    "tnp.diag(tf.constant(1.0))",
    "tnp.triu(tf.constant([1.0, 2.0, 3.0]))",
    "tnp.tril(tf.constant([1.0, 2.0, 3.0]))",
    "tnp.vander(tf.ones([2, 2]))",
    "tnp.arange(0, 5, 0)",
    "tnp.arange(0.0, 5.0, 0.0)",
    "tf.nn.gelu(tf.constant([7, -2]))",
    "tf.nn.gelu(tf.constant([True]))",
    "tf.image.adjust_gamma(tf.constant([[[0.5, 0.1]]]), -1.0)",
    "tf.image.random_brightness(tf.constant([[[0.5, 0.1, 0.2]]]), -0.1)",
    "tf.image.stateless_random_brightness(tf.constant([[[0.5, 0.1, 0.2]]]), -0.1, seed=(1, 2))",
    "tnp.split(tnp.arange(6), 4)",
    "tnp.amax(tf.constant([1.0, 2.0]), out=[])",
    # binary operators with operands no tensor knows
    "tf.ones([1], tf.int32) + Unknown()",
    "Unknown() + tf.ones([1], tf.int32)",
    "tf.ones([1], tf.int32) * [Unknown()]",
    "tf.ones([2]) - Unknown()",
    "tf.ones([2]) / Unknown()",
    "tf.ones([2]) < Unknown()",
    "tf.ones([1]) @ Unknown()",
    "tf.ones([1]) ** Unknown()",
    "tf.ones([1], tf.int32) & Unknown()",
    "tf.ones([1]) // Unknown()",
    "tf.ones([1]) % Unknown()",
    "tf.ones([1], tf.int32) - Declines()",
    "tf.ones([1], tf.int32) + Declines()",
    "Declines() + tf.ones([1])",
    "tf.ones([1]) > None",
    "tf.ones([1]) + None",
    "tf.ones([2]) + [1, [2]]",
    # values of types no tensor converts: ValueError
    "tf.constant(Unknown())",
    "tf.convert_to_tensor(Unknown())",
    "tf.math.add(tf.ones([1]), Unknown())",
    "tf.constant(None)",
    "tf.constant([1, None])",
    # more argument checks of TF's Python layer
    "tnp.linspace(0, 1, -1)",
    "tnp.clip(tf.ones([2]), None, None)",
    "tnp.meshgrid(tf.ones([2]), indexing='xx')",
    "tnp.select([tf.constant([True])], [tf.ones([2]), tf.ones([2])])",
    "tnp.diag_indices(-1)",
    "bool(tf.ones([2]))",
    "tf.Variable(1.0).assign(tf.ones([2]))",
    "tf.math.reduce_sum(tf.ones([2]), axis=0.5)",
    "float(tf.ones([2]))",
    "int(tf.ones([2]))",
    "len(tf.constant(1.0))",
    "tf.Variable(1.0).assign(tf.constant(1.0, tf.float64))",
    "tf.cast(tf.ones([2]), 'foo')",
    "tf.ones([2])['a']",
    "tf.constant(2**70)",
    "tnp.diff(tf.constant(1.0))",
    "tnp.dsplit(tf.ones([2, 2]), 2)",
    # axes and indices TF's Python layer checks: IndexError
    "tnp.swapaxes(tf.ones([2, 3]), 0, 2)",
    # kernel refusals: InvalidArgumentError (and only that)
    "tf.math.sqrt(2)",
    "tf.math.sqrt(tf.constant([4], tf.int32))",
    "tf.math.log(tf.constant([1, 2]))",
    "tf.reshape(tf.ones([6]), [4])",
    "tf.ones([2]) + tf.ones([3])",
    "tf.linalg.matmul(tf.ones([2, 3]), tf.ones([2, 3]))",
    "tf.math.reduce_sum(tf.ones([2, 3]), axis=5)",
    "tf.expand_dims(tf.ones([2]), 5)",
    "tf.concat([tf.ones([2]), tf.ones([2, 2])], 0)",
    "tf.gather(tf.ones([3]), 5)",
    "tf.transpose(tf.ones([2, 3]), [0, 0])",
    "tf.nn.softmax(tf.constant([1, 2]))",
    "tf.math.argmax(tf.ones([2, 3]), axis=3)",
    "tf.einsum('ij,jk->ik', tf.ones([2, 3]), tf.ones([2, 3]))",
    "tnp.expand_dims(tf.ones([2]), 5)",
    "tnp.sum(tf.ones([2, 3]), axis=5)",
    "tnp.diagonal(tf.ones([3]))",
    "tnp.fliplr(tf.ones([3]))",
    "tnp.rot90(tf.ones([3]))",
    "tf.linalg.diag_part(tf.ones([3]))",
    "tf.linalg.diag(tf.constant(1.0))",
    "tf.linalg.matmul(tf.ones([3]), tf.ones([3]))",
    "tf.linalg.trace(tf.ones([3]))",
    "tnp.transpose(tf.ones([2, 3]), (0, 0))",
    "tnp.squeeze(tf.ones([2, 3]), 0)",
    "tf.squeeze(tf.ones([2, 3]), 0)",
    "tnp.concatenate([tf.ones([2]), tf.ones([2, 2])])",
    "tnp.stack([tf.ones([2]), tf.ones([3])])",
    "tf.stack([tf.ones([2]), tf.ones([3])])",
    "tnp.reshape(tf.ones([6]), (4,))",
    "tf.ones([2]).reshape(3)",
    "tnp.argmax(tf.ones([2, 3]), axis=3)",
    "tnp.cumsum(tf.ones([2]), axis=3)",
    "tf.random.uniform([2], minval=1, maxval=0, dtype=tf.int32)",
    "tnp.broadcast_to(tf.ones([2]), [3])",
    "tf.broadcast_to(tf.ones([2]), [3])",
    "tnp.einsum('ij,jk', tf.ones([2, 3]), tf.ones([2, 3]))",
    "tnp.dot(tf.ones([2, 3]), tf.ones([2, 3]))",
    "tnp.vdot(tf.ones([2]), tf.ones([3]))",
    "tnp.tensordot(tf.ones([2]), tf.ones([3]), 1)",
    "tnp.inner(tf.ones([2]), tf.ones([3]))",
    "tnp.vstack([tf.ones([2]), tf.ones([3])])",
    "tf.one_hot([0], -2)",
    "tf.gather(tf.ones([3]), [0], axis=2)",
    "tf.gather(tf.ones([3]), [0.5])",
    "tf.split(tf.ones([5]), 2)",
    "tf.split(tf.ones([5]), [2, 2])",
    "tnp.sort(tf.ones([2]), axis=3)",
    "tnp.argsort(tf.ones([2]), axis=3)",
    "tf.reduce_mean(tf.ones([2]), axis=[0, 0])",
    "tnp.mean(tf.ones([2]), axis=(0, 0))",
    "tf.nn.relu(tf.constant([True]))",
    "tf.nn.softmax(tf.ones([2]), axis=3)",
    "tf.math.floormod(tf.constant([1 + 1j]), 2)",
    "tf.bitwise.bitwise_and(tf.constant(1.0), tf.constant(2.0))",
    "tf.clip_by_value(tf.ones([2]), tf.ones([3]), 2.0)",
    "tf.pad(tf.ones([2]), [[1, 1], [1, 1]])",
    "tf.where(tf.constant([True]), tf.ones([2]), tf.ones([3]))",
    "tf.math.floordiv(tf.constant([1]), tf.constant([0]))",
    # TF's kernel refuses these (InvalidArgumentError) where NumPy raises ValueError or
    # IndexError; lattensor's class is both (python/tests/test_exceptions.py: NUMPY_TOO)
    "tnp.eye(-1)",
    "tnp.tri(-1)",
    "tf.zeros([-1])",
    "tnp.zeros(-1)",
    "tf.random.normal([-1])",
    "tnp.tile(tf.ones([2]), -1)",
    "tnp.full([2], [1, 2, 3])",
    "tf.ones([2])[5]",
    "tf.ones([2])[0, 0]",
    "tf.ones([2, 2])[..., ..., 0]",
    # a tensor or variable with another requested dtype: convert_to_tensor never converts it
    "tf.convert_to_tensor(tf.constant([1, 2], tf.int16), tf.float32)",
    "tf.convert_to_tensor(tf.constant([1, 2], tf.int16), tf.int32)",
    "tf.convert_to_tensor(tf.constant([1.0, 2.0]), tf.float64)",
    "tf.convert_to_tensor(tf.Variable(tf.constant([1, 2], tf.int16)), tf.float32)",
    # a tensor tf.constant does not convert: the promotion does not land on the dtype
    "tf.constant(tf.constant([1, 2], tf.int32), tf.int16)",
    "tf.constant(tf.constant([1.0, 2.0], tf.float32), tf.int32)",
    # Python ints outside int32 for an int32 (or narrower) dtype: OverflowError
    "tf.constant(2**40, tf.int32)",
    "tf.constant([2**40], tf.int32)",
    "tf.constant([1, -2**31 - 1], tf.int32)",
    "tf.constant(2**31, tf.int8)",
    "tf.convert_to_tensor(2**40, tf.int32)",
    # einsum: tf.einsum and tnp.einsum check the equation and operand count in Python
    # (ValueError); the kernel refuses shapes, and every refusal of the raw op
    "tf.einsum('ij,jk->ik', tf.ones([2, 3]))",
    "tf.einsum('ij->ij', tf.ones([2, 3]), tf.ones([3, 4]))",
    "tf.einsum('ij,jk,kl->il', tf.ones([2, 3]), tf.ones([3, 4]))",
    "tf.einsum('i$,jk->ik', tf.ones([2, 3]), tf.ones([3, 4]))",
    "tf.einsum('ij,jk->iz', tf.ones([2, 3]), tf.ones([3, 4]))",
    "tf.einsum('ij,jk->ii', tf.ones([2, 3]), tf.ones([3, 4]))",
    "tf.einsum('ij,jk->i->k', tf.ones([2, 3]), tf.ones([3, 4]))",
    "tf.einsum('..i.,i->', tf.ones([2, 3]), tf.ones([3]))",
    "tf.einsum('ij,jk,->ik', tf.ones([2, 3]), tf.ones([3, 4]))",
    "tf.einsum('ij,jk->ik', tf.ones([2, 3]), tf.ones([2, 3]))",
    "tf.einsum('ijk,jk->i', tf.ones([2, 3]), tf.ones([3, 4]))",
    "tf.einsum('...ij,...jk->...ik', tf.ones([2, 2, 3]), tf.ones([3, 3, 4]))",
    "tf.einsum('i...j...,jk->ik', tf.ones([2, 3]), tf.ones([3, 4]))",
    "tf.einsum('ii->i', tf.ones([2, 3]))",
    "tnp.einsum('ij,jk->ik', tf.ones([2, 3]))",
    "tnp.einsum('ij->ij', tf.ones([2, 3]), tf.ones([3, 4]))",
    "tnp.einsum('i$,jk->ik', tf.ones([2, 3]), tf.ones([3, 4]))",
    "tnp.einsum('ij,jk->iz', tf.ones([2, 3]), tf.ones([3, 4]))",
    "tnp.einsum('ij,jk->ii', tf.ones([2, 3]), tf.ones([3, 4]))",
    "tnp.einsum('ij,jk->i->k', tf.ones([2, 3]), tf.ones([3, 4]))",
    "tnp.einsum('..i.,i->', tf.ones([2, 3]), tf.ones([3]))",
    "tnp.einsum('ijk,jk->i', tf.ones([2, 3]), tf.ones([3, 4]))",
    "tnp.einsum('...ij,...jk->...ik', tf.ones([2, 2, 3]), tf.ones([3, 3, 4]))",
    "tnp.einsum('ii->i', tf.ones([2, 3]))",
    "tf.raw_ops.Einsum(inputs=[tf.ones([2, 3]), tf.ones([3, 4])], equation='ij,jk')",
    "tf.raw_ops.Einsum(inputs=[tf.ones([2, 3])], equation='ij,jk->ik')",
    "tf.raw_ops.Einsum(inputs=[tf.ones([2, 3]), tf.ones([3, 4]), tf.ones([4, 5])], equation='ij,jk->ik')",
    "tf.raw_ops.Einsum(inputs=[tf.ones([2, 3]), tf.ones([3, 4])], equation='ij,jk,kl->il')",
    "tf.raw_ops.Einsum(inputs=[tf.ones([2, 3])] * 3, equation='ij,ij,ij->ij')",
    "tf.raw_ops.Einsum(inputs=[tf.ones([2, 3]), tf.ones([2, 3])], equation='ij,jk->ik')",
    "tf.raw_ops.Einsum(inputs=[tf.ones([2, 3]), tf.ones([3, 4])], equation='ijk,jk->i')",
    "tf.raw_ops.Einsum(inputs=[tf.ones([2, 2, 3]), tf.ones([3, 3, 4])], equation='...ij,...jk->...ik')",
    "tf.raw_ops.Einsum(inputs=[tf.ones([2, 3]), tf.ones([3])], equation='..i.,i->')",
    "tf.raw_ops.Einsum(inputs=[tf.ones([2, 3])], equation='ii->i')",
]

#: Conversions TF performs (no refusal): the dtype and values it gives, in mode "all".
ACCEPTED = [
    "tf.constant(tf.constant([1, 2], tf.int16), tf.float32)",
    "tf.constant(tf.constant([1, 2], tf.int16), tf.int32)",
    "tf.constant(tf.constant([1, 2]), tf.int8)",
    "tf.constant(tf.constant([1.0, 2.0], tf.float32), tf.float64)",
    "tf.convert_to_tensor(tf.constant([1, 2], tf.int16), tf.int16)",
    "tf.constant(300, tf.int8)",
    "tf.constant([-1, 2**31 - 1], tf.int32)",
    "tf.constant([-1, 255], tf.uint8)",
]

#: Composite ops that convert an operand (to an inexact dtype, to a working dtype)
#: before they promote: run with `x` an int32 and `y` a float32 tensor in
#: dtype_conversion_mode="safe", where `tf.math.add(x, y)` raises TypeError.
#: python/tests/test_exceptions.py runs each in lattensor's SAFE mode with the same
#: operands and in its STRICT mode with `y` an int16 tensor.
SAFE_X = "tf.constant([1, 2, 3], tf.int32)"
SAFE_Y = "tf.constant([1.0, 2.0, 3.0], tf.float32)"
SAFE_CASES = [
    "tf.math.add(x, y)",
    "tnp.average(x, weights=y)",
    "tnp.average(x, axis=0, weights=y)",
    "tnp.average(x, weights=y, returned=True)",
    "tnp.var(x, dtype=y.dtype)",
    "tnp.arctan2(x, y)",
    "tnp.hypot(x, y)",
    "tnp.heaviside(x, y)",
    "tnp.nextafter(x, y)",
    "tnp.logaddexp(x, y)",
    "tnp.logaddexp2(x, y)",
    "tnp.float_power(x, y)",
    "tnp.true_divide(x, y)",
    "tnp.divide(x, y)",
    "tf.math.truediv(x, y)",
    "tf.math.divide(x, y)",
    "x / y",
    "tnp.isclose(x, y)",
    "tnp.allclose(x, y)",
    "tnp.cross(x, y)",
    "tnp.dot(x, y)",
    "tnp.inner(x, y)",
    "tnp.outer(x, y)",
    "tnp.vdot(x, y)",
    "tnp.kron(x, y)",
    "tnp.tensordot(x, y, 1)",
    "tnp.matmul(x, y)",
    "tnp.einsum('i,i', x, y)",
    "tnp.polyval(x, y)",
    "tnp.clip(x, y, y)",
    "tnp.where(tf.constant([True, False, True]), x, y)",
    "tnp.append(x, y)",
]


def families(e):
    """What a caller's `except` sees: the class name, its built-ins, whether it is a tf.errors class."""
    mro = type(e).__mro__
    return {
        "class": type(e).__name__,
        "builtins": [b for b in BUILTINS if any(k.__name__ == b and k.__module__ == "builtins" for k in mro)],
        "tf_error": next((k.__name__ for k in mro if issubclass(k, tf.errors.OpError) and k is not tf.errors.OpError),
                         None),
        "message": str(e).splitlines()[0][:200] if str(e) else "",
    }


def outcome(expr, env=None):
    """What TF does with `expr`: the refusal's families, or the dtype and values it gives."""
    try:
        got = eval(expr, globals(), env)  # noqa: S307 (our own expressions)
    except Exception as e:  # noqa: BLE001 (recording whatever TF raises is the point)
        return {"expr": expr, "raises": True, **families(e)}
    first = got[0] if isinstance(got, tuple) else got
    return {"expr": expr, "raises": False, "dtype": first.dtype.name, "value": np.asarray(first).tolist()}


def main():
    out, accepted = [], []
    for expr in CASES:
        r = outcome(expr)
        if r.pop("raises"):
            out.append(r)
        else:
            accepted.append(f"{expr!r}: {r}")
    if accepted:
        raise SystemExit("TF does not raise for:\n" + "\n".join(accepted))
    conversions = [outcome(expr) for expr in ACCEPTED]
    refused = [c["expr"] for c in conversions if c["raises"]]
    if refused:
        raise SystemExit("TF raises for:\n" + "\n".join(refused))
    # TF's promotion mode is process-wide: SAFE for these, then back to ALL
    tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="safe")
    try:
        env = {"x": eval(SAFE_X), "y": eval(SAFE_Y)}  # noqa: S307
        safe = [outcome(expr, env) for expr in SAFE_CASES]
    finally:
        tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="all")
    OUT.write_text(json.dumps({"tf": tf.__version__, "cases": out, "accepted": conversions,
                               "safe": {"x": SAFE_X, "y": SAFE_Y, "cases": safe}}, indent=1) + "\n")
    print(f"wrote {len(out)} refusals, {len(conversions)} conversions and {len(safe)} SAFE cases to {OUT}")


if __name__ == "__main__":
    main()
