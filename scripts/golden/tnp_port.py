#!/usr/bin/env python3
"""Golden data for porting: Python expressions over `tf` and `tnp`, as TF 2.21 evaluates them.

Each expression of EXPRS is evaluated with `tf` = tensorflow and `tnp` =
tensorflow.experimental.numpy (numpy behaviour on, dtype_conversion_mode="all");
python/tests/test_port.py evaluates the same text with `tf` = lattensor and `tnp` =
lattensor.experimental.numpy and compares dtype, weakness, shape and values. It covers
the names beyond the guide's list that the package provides (creation functions, dtype
names, top-level aliases, concat/stack/where).

    /work/venv/bench/bin/python scripts/golden/tnp_port.py

Writes python/tests/data/tnp_port_golden.json.
"""
import json
import pathlib

import numpy as np
import tensorflow as tf
import tensorflow.experimental.numpy as tnp
from tf_values import encode

tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="all")
OUT = pathlib.Path(__file__).resolve().parents[2] / "python/tests/data/tnp_port_golden.json"

EXPRS = [
    # creation: tnp's defaults (float is float32, int int32, complex complex128)
    "tnp.zeros(3)", "tnp.zeros((2, 2), dtype=int)", "tnp.zeros(2, tnp.int16)", "tnp.zeros(())",
    "tnp.zeros(3, complex)", "tnp.zeros([0, 2], tnp.uint8)", "tnp.ones(3)", "tnp.ones([2], bool)",
    "tnp.ones((1, 2), tnp.float64)", "tnp.empty(2)", "tnp.empty((2, 1), int)",
    "tnp.full(3, 7)", "tnp.full(3, 7.0)", "tnp.full(3, 7.0, tnp.float16)", "tnp.full((2, 2), [1, 2])",
    "tnp.full(3, tf.constant(1.5, tf.float16))", "tnp.full((2,), -0.0)", "tnp.full(2, 1 + 2j)",
    "tnp.full((2, 3), True)", "tnp.full(2, 300, tnp.int16)",
    "tnp.eye(2)", "tnp.eye(2, 3, k=1, dtype=int)", "tnp.eye(3, k=-1)", "tnp.eye(2, dtype=bool)",
    "tnp.eye(3, 2, k=5)", "tnp.identity(2)", "tnp.identity(3, tnp.complex64)",
    "tnp.linspace(0, 1, 5)", "tnp.linspace(0, 1, 5, endpoint=False)", "tnp.linspace(-3, 7, 11)",
    "tnp.linspace(0, 1, 1)", "tnp.linspace(2, 3, 0)", "tnp.linspace(0, 1, 4, retstep=True)[0]",
    "tnp.linspace(1, 2, 7)",
    # dtype names and constants
    "tnp.asarray([1, 2], dtype=tnp.int8)", "tnp.arange(3).astype(tnp.float16)",
    "tnp.sum(tnp.array([[1, 2], [3, 4]], dtype=tnp.int8), axis=0)", "tnp.asarray([tnp.pi, tnp.e])",
    "tnp.asarray([1.0], dtype=tnp.float_)", "tnp.asarray([1], dtype=tnp.int_)",
    "tnp.asarray([1.0], dtype=tnp.complex_)", "tnp.asarray([1], dtype=tnp.bool_)",
    # tf.math names at tf's top level
    "tf.sin(tf.constant([0.5, 1.0]))", "tf.cos(tf.constant([0.5], tf.float64))", "tf.tanh(2.0)",
    "tf.sigmoid(tf.constant([-1.0, 0.0, 1.0]))", "tf.reduce_logsumexp(tf.constant([[1.0, 2.0], [3.0, 4.0]]), axis=1)",
    "tf.logical_and(tf.constant([True, False]), True)", "tf.logical_not(tf.constant([True, False]))",
    "tf.floor(tf.constant([1.5, -1.5]))", "tf.scalar_mul(2, tf.constant([1.5]))", "tf.atan(1.0)",
    "tf.acosh(tf.constant([2.0], tf.float64))", "tf.asinh(tf.constant([1], tf.int32) + 0.5)",
    # concat / stack / where
    "tf.concat([tf.reshape(tf.range(6), [2, 3]), tf.ones([2, 1], tf.int32)], axis=1)",
    "tf.stack([tf.constant([1, 2]), tf.constant([3, 4])], axis=1)",
    "tf.where(tf.constant([True, False, True]), tf.constant([1.0, 2.0, 3.0]), tf.constant([9.0, 8.0, 7.0]))",
    "tf.where(tf.constant([[True], [False]]), tf.constant([1, 2]), tf.constant(0))",
    "tnp.concatenate([tnp.ones(2), tnp.zeros(3)])", "tnp.stack([tnp.ones(2), tnp.zeros(2)])",
    "tnp.where(tnp.array([1, 0, 1]) > 0, 1.0, 2.0)", "tnp.where([0, 2, -1], tnp.ones(3), tnp.zeros(3))",
    "tnp.concatenate([tnp.ones((2, 2)), tnp.zeros((2, 2))], axis=None)",
    # NumPy's binary functions
    "tnp.add(tnp.array(1), 2)", "tnp.add([1, 2], 2.5)", "tnp.add(tf.constant([1], tf.int8), 2.5)",
    "tnp.multiply(tf.constant([1], tf.int8), tf.constant([2], tf.int16))", "tnp.subtract(tf.constant([1], tf.uint8), 2)",
    "tnp.true_divide([1, 2], 2)", "tnp.divide(tf.constant([1], tf.int8), 2)", "tnp.floor_divide([7, -7], 2)",
    "tnp.mod([7, -7], 3)", "tnp.remainder([7.5, -7], 3)", "tnp.power([2, 3], 2)", "tnp.power(2.0, [0.5, 3])",
    "tnp.maximum([1, 5], 2.5)", "tnp.minimum(tf.constant([1, 5], tf.uint16), 3)", "tnp.equal([1, 2], 2.0)",
    "tnp.not_equal([1, 2], 2)", "tnp.less(tf.constant([1], tf.int8), 300)", "tnp.greater_equal([1.5], 1)",
    "tnp.logical_and([1, 0], [1, 1])", "tnp.logical_or([0, 0], [0.5, 0])", "tnp.logical_xor([True, False], [1, 1])",
    "tnp.logical_not([0, 2])", "tnp.matmul([[1, 2], [3, 4]], [[1.0], [2.0]])",
    "tnp.dot([1, 2], [3, 4])", "tnp.dot(2, [3, 4])", "tnp.dot([[1, 2], [3, 4]], [1, 1])",
    "tnp.dot(tnp.ones((2, 3, 4)), tnp.ones((5, 4, 2)))", "tnp.dot([[1.5, 2]], tf.constant([[1], [2]], tf.int8))",
    "tnp.outer([1, 2], [1.5, 2, 3])", "tnp.outer([[1, 2]], tf.constant([3], tf.int16))",
    "tnp.clip([1, 5, 9], 2, 6.5)", "tnp.clip(tf.constant([1, 5, 9], tf.int8), 2, 6)", "tnp.clip([1.0, 5.0], None, 2)",
    "tnp.clip(tf.constant([-1.5, 0.5], tf.float16), -1, None)",
    "tnp.isclose([1.0, 1.00001, float('nan'), 2.0], [1.0, 1.0, float('nan'), 2.00000001])",
    "tnp.isclose([1.0, float('nan')], [1.0, float('nan')], equal_nan=True)",
    "tnp.isclose(tf.constant([1], tf.int32), 1)", "tnp.isclose([100.0, 1e-9], [101.0, 0.0], rtol=0.02)",
    "tnp.allclose([1.0, 2.0], [1.0, 2.0000001])", "tnp.allclose([1.0, 2.0], [1.0, 2.1])",
    # the methods TF's NumPy behaviour adds to tensors
    "tf.constant([[1.0, 5.0], [3.0, 2.0]]).max()", "tf.constant([[1.0, 5.0], [3.0, 2.0]]).max(axis=0, keepdims=True)",
    "tf.constant([[1, 5], [3, 2]], tf.int16).min(1)", "tf.constant([[1.0, 5.0], [3.0, 2.0]]).mean()",
    "tf.constant([[1, 5], [3, 2]]).mean(axis=0)", "tnp.arange(6).reshape(2, 3).transpose()",
    "tnp.arange(6).reshape(1, 2, 3).transpose(2, 0, 1)", "tnp.arange(6).reshape(2, 3).transpose((1, 0))",
    "tnp.arange(6).reshape(2, 3).T.ravel()", "tf.constant([[1.5, 2.5]], tf.float16).flatten()",
    "tf.constant([1, 5, 9]).clip(2, 6)", "tf.constant([1.0, 5.0, 9.0]).clip(2.5, None)",
    # argmax / argmin
    "tf.math.argmax(tf.constant([[1, 5, 5], [7, 2, 7]]))", "tf.argmax(tf.constant([[1, 5, 5], [7, 2, 7]]), axis=1)",
    "tf.argmin(tf.constant([[1.5, -2.0], [0.0, 3.0]], tf.float16), axis=-1)",
    "tf.math.argmax(tf.constant([1, 3]), output_type=tf.int32)", "tf.argmax(tf.constant([True, False, True]))",
    "tf.argmax(tf.constant([1, 3], tf.uint64))", "tf.argmin(tf.constant([2.0, 3.0], tf.bfloat16))",
    "tf.argmax(tf.constant([-0.0, 0.0]))", "tnp.argmax([[1, 5], [7, 2]])", "tnp.argmax([[1, 5], [7, 2]], axis=0)",
    "tnp.argmin([[1, 5], [7, 2]], axis=-1)", "tnp.argmax(5)", "tnp.argmin(tf.constant([3, 1, 1], tf.int8))",
    # indices and tiling
    "tf.where(tf.constant([[True, False], [False, True]]))", "tf.where([0, 3, 0, -1])", "tf.where(True)",
    "tnp.nonzero([[0, 1], [2, 0]])[0]", "tnp.nonzero([[0, 1], [2, 0]])[1]", "tnp.where([0.0, 2.5, 0.0])[0]",
    "tnp.tile(tnp.array([1, 2]), 2)", "tnp.tile(tf.constant([[1, 2]], tf.int8), (2, 2))", "tnp.tile([1.5], (2, 1, 3))",
    "tnp.tile(tnp.ones((2, 3)), 0)", "tnp.tile(7, 3)",
    "tnp.meshgrid(tnp.arange(2), tnp.arange(3))[0]", "tnp.meshgrid(tnp.arange(2), tnp.arange(3))[1]",
    "tnp.meshgrid([1.0, 2.0], [3, 4, 5], indexing='ij')[0]", "tnp.meshgrid([1.0, 2.0], [3, 4, 5], indexing='ij')[1]",
    # gather and take (strong results with the input's dtype; TF's take clips indices by default)
    "tf.gather(tf.constant([1.0, 2.0]), [1, 1, 0])", "tf.gather(tf.constant([[1, 2], [3, 4]]), [1], axis=1)",
    "tf.gather(tnp.array([1.0, 2.0]), 1)", "tf.gather(tf.constant([[1, 2], [3, 4]]), [[0, 1], [1, 0]])",
    "tf.gather(tf.constant([[1, 2], [3, 4]]), [[0, 1], [1, 0]], batch_dims=1, axis=1)",
    "tf.gather(tf.constant([1.0, 2.0]), tf.constant([1], tf.int64))", "tf.gather(tf.constant([[1, 2], [3, 4]]), [1, 0], axis=-1)",
    "tf.gather(tf.constant([[[1, 2], [3, 4]], [[5, 6], [7, 8]]]), [[1], [0]], axis=2, batch_dims=1)",
    "tf.gather(tf.constant([[1, 2], [3, 4]]), [[1], [0]], batch_dims=-1)", "tf.gather(tf.zeros([2, 0]), [1], axis=0)",
    "tf.gather(tf.constant([True, False]), [1])", "tf.gather(tf.constant([1 + 2j]), [0, 0])",
    "tf.gather(tf.constant([1.5, 2.5], tf.bfloat16), [1])",
    "tnp.take(tnp.array([1.0, 2.0, 3.0]), [2, 0])", "tnp.take(tnp.array([[1, 2], [3, 4]]), 3)",
    "tnp.take(tnp.array([[1, 2], [3, 4]]), [1], axis=1)", "tnp.take(tnp.array([1, 2, 3]), 5)",
    "tnp.take(tnp.array([1, 2, 3]), 5, mode='clip')", "tnp.take(tnp.array([1, 2, 3]), -1)", "tnp.take(1.5, [0, 0])",
    "tnp.take(tf.constant([[1, 2], [3, 4]], tf.int8), [[0, 1]], axis=0)", "tnp.take(tnp.array([1, 2, 3]), [1], mode='wrap')",
    "tnp.take(tnp.array([1, 2, 3]), [-4], mode='wrap')", "tnp.take(tnp.array([[1, 2], [3, 4]]), 1, axis=-1)",
    "tnp.take(tnp.array([1, 2, 3]), [-1], mode='raise')",
    # float functions of two operands: the lattice's join, bool and integers computed in float32
    "tnp.arctan2(1.0, tf.constant(2.0, tf.float64))", "tnp.arctan2(tf.constant([1.0], tf.float16), 2.0)",
    "tnp.arctan2(tf.constant([1.0], tf.bfloat16), 2.0)", "tnp.arctan2(tf.constant([1.0, -0.0]), tf.constant([-1.0, -1.0]))",
    "tnp.arctan2(tf.constant([1.0], tf.float16), tf.constant([2.0], tf.float64))", "tnp.arctan2(1, 2)",
    "tnp.arctan2(tf.constant([1], tf.int8), 2)", "tf.math.atan2(tf.constant(1.0), 2.0)", "tf.math.atan2(tf.constant([1.0]), 2)",
    "tf.math.atan2(tf.constant([0.0, -0.0, 0.0]), tf.constant([-0.0, -0.0, 0.0]))",
    "tf.atan2(tf.constant([1.0], tf.float64), tf.constant([-1.0], tf.float64))",
    "tf.math.atan2(tf.constant([1.0]), tf.constant([2.0], tf.float64))",
    "tnp.hypot(3, 4)", "tnp.hypot(3.0, tf.constant(4.0, tf.float16))", "tnp.hypot(tf.constant([3], tf.int32), 4)",
    "tnp.hypot(tf.constant([3.0]), tf.constant([4.0], tf.float64))", "tnp.hypot(tf.constant([3], tf.uint8), tf.constant([4], tf.uint8))",
    "tnp.hypot(tf.constant([3], tf.uint8), 4.0)",
    "tnp.heaviside(tnp.array([-1.0, 0.0, 2.0]), 0.5)", "tnp.heaviside(tf.constant([-1, 0, 2]), 1)",
    "tnp.heaviside(tf.constant([-1, 0, 2], tf.int8), tf.constant(1, tf.int8))", "tnp.heaviside(tnp.array(-1.0), 2)",
    "tnp.heaviside(tf.constant([0.0], tf.float16), 2)", "tnp.heaviside(tf.constant([0], tf.uint8), tf.constant([3], tf.int64))",
    "tnp.heaviside(tf.constant([0.0], tf.float64), tf.constant([float('nan')], tf.float32))",
    # broadcasting views
    "tf.broadcast_to(1.5, [2])", "tf.broadcast_to(tf.constant([1, 2], tf.int8), [3, 2])",
    "tf.broadcast_to(tnp.array(2.5), [2, 2])", "tf.broadcast_to(tf.constant([[1], [2]]), (2, 3))",
    "tnp.broadcast_to(1.5, [2])",
    "tnp.broadcast_to(tnp.array([1, 2], tnp.int8), (3, 2))", "tnp.broadcast_to([True, False], (2, 1, 2))",
    "tnp.broadcast_to(tnp.arange(3), (0, 3))",
    # split: lists of zero-copy views (strong, as TF's)
    "tf.split(tf.range(6), 3)", "tf.split(tf.reshape(tf.range(12), [3, 4]), 2, axis=1)",
    "tf.split(tf.reshape(tf.range(12), [3, 4]), [1, -1], axis=-2)",
    "tf.split(tf.constant([1.5, 2.5, 3.5, 4.5], tf.float16), [1, 2, 1])", "tf.split(tf.constant([True, False, True, True]), 2)",
    "tf.split([1.0, 2.0], 2)", "tf.split(tnp.array([1.0, 2.0, 3.0]), [2, 1])", "tf.split(tnp.array(1) + tf.range(4), 2)",
    "tf.split(tf.constant([[1, 2], [3, 4]], tf.uint8), 2, axis=1, num=2)", "tf.split(tf.range(6), [6])",
    "tf.split(tf.zeros([0, 2]), 2)", "tf.split(tf.range(6), [0, 6, 0])", "tf.split(tf.constant([1 + 2j, 3j]), 2)",
    "tf.split(tf.range(6, dtype=tf.int64), tf.constant([2, 4]))", "tf.split(tf.range(6), np.array([3, 3]))",
    "tf.split(tf.constant([[1.5], [2.5]], tf.bfloat16), 2)", "tf.split(tf.range(4), 2)[1]",
    "tnp.split(tnp.arange(6), 3)", "tnp.split(tnp.arange(6), [1, 4])", "tnp.split(tnp.arange(6.0), [10])",
    "tnp.split(tnp.arange(12).reshape(3, 4), 2, axis=1)", "tnp.split(tnp.arange(12).reshape(3, 4), [], axis=1)",
    "tnp.split([1.0, 2.0], 2)", "tnp.split(tnp.array([True, False]), [1])", "tnp.split(tf.constant([1, 2, 3, 4], tf.int8), (2,))",
    "tnp.split(tnp.ones((2, 3), tnp.float16), 3, axis=-1)", "tnp.split(tnp.arange(6), [2, 2])",
    "tnp.hsplit(tnp.arange(6), 2)", "tnp.hsplit(tnp.arange(6).reshape(2, 3), [1])", "tnp.hsplit(tnp.arange(6).reshape(2, 3), 3)",
    "tnp.vsplit(tnp.arange(6).reshape(2, 3), 2)", "tnp.vsplit(tnp.arange(6), 3)", "tnp.dsplit(tnp.arange(8).reshape(1, 2, 4), [1, 3])",
    # pad: CONSTANT / REFLECT / SYMMETRIC (any case in tf.pad); strong results
    "tf.pad(tf.constant([[1, 2], [3, 4]]), [[1, 1], [2, 0]])", "tf.pad(tnp.array([1.0, 2.0]), [[1, 2]])",
    "tf.pad([1.0, 2.0], [[1, 2]], constant_values=-1)", "tf.pad(tf.constant([1, 2, 3]), [[2, 2]], 'REFLECT')",
    "tf.pad(tf.constant([1, 2, 3]), [[2, 2]], 'reflect')", "tf.pad(tf.constant([1, 2, 3]), [[3, 3]], 'SYMMETRIC')",
    "tf.pad(tf.constant([1, 2, 3]), [[1, 1]], 'Symmetric')", "tf.pad(tf.constant([[1, 2], [3, 4]]), [[1, 1], [1, 1]], 'REFLECT')",
    "tf.pad(tf.constant([[1, 2], [3, 4]]), [[2, 2], [1, 1]], 'SYMMETRIC')",
    "tf.pad(tf.constant([1, 2], tf.int8), [[1, 1]], constant_values=300)",
    "tf.pad(tf.constant([1, 2], tf.uint8), [[1, 1]], constant_values=-1)",
    "tf.pad(tf.constant([True, False]), [[1, 0]], constant_values=True)", "tf.pad(tf.constant([True, False]), [[1, 0]])",
    "tf.pad(tf.constant([1.5], tf.float16), [[1, 1]], constant_values=2)",
    "tf.pad(tf.constant([1.0]), [[1, 1]], constant_values=tnp.array(2.0))", "tf.pad(tf.constant([1.0]), [[1, 1]], constant_values=True)",
    "tf.pad(tf.constant([1.0]), [[1, 1]], constant_values=1e300)", "tf.pad(tf.constant([1 + 2j]), [[1, 0]], constant_values=3j)",
    "tf.pad(tf.constant(5), tf.zeros([0, 2], tf.int32))", "tf.pad(tf.constant([1, 2, 3]), tf.constant([[1, 1]], tf.int64), 'REFLECT', constant_values=5)",
    "tf.pad(tf.zeros([0, 2]), [[1, 0], [0, 1]])", "tf.pad(tf.reshape(tf.range(24), [2, 3, 4]), [[0, 1], [1, 0], [2, 1]], 'SYMMETRIC')",
    "tf.pad(tf.reshape(tf.range(24.0), [2, 3, 4]), [[1, 0], [2, 1], [3, 3]], 'REFLECT')",
    "tf.pad(tf.transpose(tf.reshape(tf.range(6), [2, 3])), [[1, 0], [0, 2]], constant_values=-7)",
    "tf.pad(tf.constant([[1.5, 2.5]], tf.bfloat16), [[0, 0], [1, 1]], 'SYMMETRIC')",
    "tnp.pad(tnp.array([1, 2, 3]), ((1, 2),), 'constant')",
    "tnp.pad(tnp.array([[1, 2], [3, 4]]), ((1, 2), (0, 1)), 'constant', constant_values=9)",
    "tnp.pad([1.0, 2.0], ((1, 1),), 'constant')", "tnp.pad(tnp.array([1, 2, 3]), ((2, 2),), 'reflect')",
    "tnp.pad(tnp.array([1, 2, 3]), ((3, 3),), 'symmetric')", "tnp.pad(tnp.array([1, 2, 3]), np.array([[1, 1]]), 'constant')",
    "tnp.pad(tf.constant([1.5, 2.5], tf.float16), ((1, 0),), 'constant', constant_values=7)",
    "tnp.pad(tnp.array([1, 2, 3]), ((1, 1),), 'reflect', reflect_type='even')",
    # append: NumPy's semantics, lattice promotion (as concatenate)
    "tnp.append([1, 2], [3, 4])", "tnp.append(tnp.array([1, 2]), [3.5])", "tnp.append(tf.constant([1, 2], tf.int8), [3.5])",
    "tnp.append(tf.constant([1, 2], tf.int8), 300)", "tnp.append(tf.constant([1, 2], tf.int8), tf.constant([3], tf.int16))",
    "tnp.append([[1, 2], [3, 4]], [[5, 6]], axis=0)", "tnp.append([[1, 2], [3, 4]], [[5], [6]], axis=1)",
    "tnp.append([[1, 2], [3, 4]], [[5, 6]])", "tnp.append(1.0, 2)", "tnp.append([True], [False])", "tnp.append([True], [2])",
    "tnp.append(tf.constant([1.5], tf.float16), 2.5)", "tnp.append(tf.constant([1], tf.uint8), tf.constant([1], tf.int8))",
    "tnp.append(tf.constant([1 + 1j]), [2])", "tnp.append([], [1])", "tnp.append([[1, 2]], [[3, 4]], axis=-1)",
    "tnp.append(tf.constant([1.0], tf.float64), tf.constant([2.0], tf.float32))",
    # unique: order of first occurrence; NaN != NaN; strong results
    "tf.unique(tf.constant([1, 1, 2, 4, 4, 4, 7, 8, 8]))", "tf.unique(tf.constant([1, 1, 2]), out_idx=tf.int64)",
    "tf.unique([1.0, 1.0, 2.0])", "tf.unique(tnp.array([3, 1, 3]))", "tf.unique(tf.constant([float('nan'), float('nan'), 1.0]))",
    "tf.unique(tf.constant([0.0, -0.0, 1.0]))", "tf.unique(tf.constant([-0.0, 0.0, 1.0]))",
    "tf.unique(tf.constant([True, False, True]))", "tf.unique(tf.constant([1.5, 1.5, -2.0], tf.float16))",
    "tf.unique(tf.constant([1.5, 1.5], tf.bfloat16))", "tf.unique(tf.constant([1, 2, 1], tf.uint64))",
    "tf.unique(tf.zeros([0], tf.int32))", "tf.unique(tf.constant([3, 1, 3, 2, 1], tf.int8))",
    "tf.unique(tf.constant([1, 1, 2])).idx",
    "tf.unique_with_counts(tf.constant([1, 1, 2, 4, 4, 4, 7, 8, 8]))",
    "tf.unique_with_counts(tf.constant([1, 1, 2]), out_idx=tf.int64)",
    "tf.unique_with_counts(tf.constant([float('nan'), float('nan'), 1.0]))", "tf.unique_with_counts(tnp.array([1.0, 1.0]))",
    "tf.unique_with_counts(tf.constant([5, 5])).count",
    # one_hot: TF's dtype rules; out-of-range and negative indices give all off
    "tf.one_hot([0, 2, -1, 3], 3)", "tf.one_hot(tf.constant([0, 2, -1, 3], tf.int64), 3)",
    "tf.one_hot(tf.constant([0, 2], tf.uint8), 3)", "tf.one_hot(tf.constant([0, 2], tf.int8), 3)",
    "tf.one_hot([0, 2], 3, on_value=5, off_value=-1)", "tf.one_hot([0, 2], 3, on_value=5.0)",
    "tf.one_hot([0, 2], 3, on_value=True, off_value=False)", "tf.one_hot([0, 2], 3, dtype=tf.int8)",
    "tf.one_hot([0, 2], 3, on_value=2, dtype=tf.float16)", "tf.one_hot([0, 2], 3, on_value=tf.constant(2, tf.int64))",
    "tf.one_hot([0, 2], 3, on_value=tnp.array(2.0))", "tf.one_hot([[0, 2], [1, 1]], 3)",
    "tf.one_hot([[0, 2], [1, 1]], 3, axis=0)", "tf.one_hot([[0, 2], [1, 1]], 3, axis=1)",
    "tf.one_hot([[0, 2], [1, 1]], 3, axis=2)", "tf.one_hot([[0, 2], [1, 1]], 3, axis=-1)", "tf.one_hot(1, 3)",
    "tf.one_hot(1, 0)", "tf.one_hot([], 3)", "tf.one_hot([0, 1], tf.constant(2))", "tf.one_hot([0, 1], 3, on_value=1 + 1j)",
    "tf.one_hot(tf.constant([0, 1]), 3, dtype=tf.complex64)", "tf.one_hot([0, 2], 3, off_value=7)",
    "tf.one_hot([0, 1], 3, on_value=np.float64(1.5))", "tf.one_hot([0, 2], 3, dtype=tf.bfloat16)",
    "tf.one_hot([0, 2], 3, dtype=tf.uint64)", "tf.one_hot(tf.constant(7), 3, axis=0)",
    "tf.one_hot([0, 1], 3, dtype=tf.int32, on_value=tnp.array(2))", "tf.one_hot([0, 1], 3, on_value=2, off_value=tnp.array(0))",
    "tf.one_hot(tnp.array([0, 1]), 3)", "tf.one_hot([True], 3)", "tf.one_hot([0, 1], 2, on_value=-0.0, off_value=float('nan'))",
    # shape, size, rank
    "tf.shape(tf.ones([2, 3]))", "tf.shape(tf.ones([2, 3]), out_type=tf.int64)", "tf.shape(5)", "tf.shape([])", "tf.constant([], tf.int32)", "tf.constant([[], []], tf.bool)",
    "tf.size(tf.ones([2, 3]))", "tf.size([[1, 2]], out_type=tf.int64)", "tf.rank(tf.ones([2, 3]))", "tf.rank(1.0)",
    # predicates and array facts
    "tnp.isnan(tnp.array([1.0, float('nan')]))", "tnp.isnan(1.0)", "tnp.isnan([1, 2])", "tnp.isnan(tf.constant([1], tf.int8))",
    "tnp.isnan(tf.constant([True]))", "tnp.isnan(tf.constant([1.0, float('nan')], tf.bfloat16))",
    "tnp.isinf(tnp.array([1.0, float('inf'), -float('inf')]))", "tnp.isinf(tf.constant([1.0, float('nan')], tf.float64))",
    "tnp.isfinite(tf.constant([1.0, float('inf'), float('nan')], tf.float16))", "tnp.isfinite(3)",
    "tnp.isfinite(tnp.array([[1.0], [float('nan')]]))",
    "tnp.isneginf(tnp.array([1.0, float('inf'), -float('inf')]))", "tnp.isposinf(tnp.array([1.0, float('inf'), -float('inf')]))",
    "tnp.isneginf(tf.constant([1.0, -float('inf')], tf.float64))", "tnp.isposinf(tf.constant([float('inf')], tf.float16))",
    "tnp.isreal([1 + 0j, 1 + 1j])", "tnp.isreal([1.0, 2.0])", "tnp.isreal(3)", "tnp.isreal(tf.constant([1j, 2], tf.complex64))",
    "tnp.iscomplex([1 + 0j, 1 + 1j])", "tnp.iscomplex([1.0])", "tnp.iscomplex(tf.constant([[1]], tf.uint8))",
    "tnp.iscomplexobj([1 + 0j])", "tnp.iscomplexobj(1.0)", "tnp.iscomplexobj(tf.constant([1], tf.complex64))",
    "tnp.isrealobj(1.0)", "tnp.isrealobj(tf.constant([1j]))", "tnp.isrealobj(tf.constant([1], tf.int8))",
    "tnp.isscalar(1.0)", "tnp.isscalar(tnp.array(1.0))", "tnp.isscalar([1])", "tnp.isscalar('a')",
    "tnp.isscalar(np.float32(1))", "tnp.isscalar(tnp.ones(2))", "tnp.isscalar(True)",
    "tnp.sign([-2, 0, 3])", "tnp.sign(tnp.array([-2.5, 0.0, float('nan'), -0.0]))", "tnp.sign(-2.5)",
    "tnp.sign(tf.constant([-2, 3], tf.int8))", "tnp.sign(tf.constant([-2.0, 3.0], tf.float16))",
    "tnp.sign(tf.constant([3 + 4j, 0j], tf.complex64))", "tnp.sign(tf.constant([-7, 0], tf.int64))",
    "tnp.ndim([[1, 2]])", "tnp.ndim(1.0)", "tnp.ndim(tnp.ones((2, 3)))", "tnp.ndim(tf.constant([1], tf.int8))",
    "tnp.shape([[1, 2]])", "tnp.shape(tnp.ones((2, 3)))", "tnp.shape(1.0)", "tnp.shape(tnp.ones((0, 4)))",
    "tnp.size([[1, 2]])", "tnp.size(tnp.ones((2, 3)))", "tnp.size(1.0)", "tnp.size(tnp.ones((0, 4)))",
    # bitwise functions, truth reductions, NaN-skipping reductions
    "tnp.bitwise_and([12, 10], 6)", "tnp.bitwise_and(tf.constant([12, 10], tf.int8), 6)",
    "tnp.bitwise_and(tf.constant([12, 10], tf.uint8), tf.constant([6, 3], tf.int16))",
    "tnp.bitwise_or([True, False], [False, False])", "tnp.bitwise_or(tf.constant([12], tf.int64), tf.constant([3], tf.int64))",
    "tnp.bitwise_xor(tf.constant([12], tf.uint16), 5)", "tnp.bitwise_xor([True, False], True)",
    "tnp.bitwise_and(tnp.array(5), tnp.array(3))", "tnp.bitwise_or(tf.constant([-8], tf.int32), tf.constant([[1], [2]], tf.int32))",
    "tnp.all([1, 0])", "tnp.all([[1, 1], [0, 1]], axis=0)", "tnp.all([[1, 1], [0, 1]], axis=1, keepdims=True)",
    "tnp.any([0.0, 0.5])", "tnp.any(tf.constant([[0, 0], [0, 1]], tf.int8), axis=-1)", "tnp.any([])", "tnp.all([])",
    "tnp.all(tnp.array(2.0))", "tnp.all(tnp.array([1, 2]), axis=None)", "tnp.any(tf.constant([float('nan')]))",
    "tnp.count_nonzero([[0, 1], [2, 0]])", "tnp.count_nonzero([[0, 1], [2, 0]], axis=0)",
    "tnp.count_nonzero([0.0, float('nan')])", "tnp.count_nonzero(tf.constant([True, False, True]))",
    "tnp.count_nonzero([[0, 1], [2, 3]], axis=(0, 1))", "tnp.count_nonzero(tf.constant([[0, 1], [2, 0]], tf.uint8), axis=-1)",
    "tnp.nansum(tnp.ones((2, 2)))", "tnp.nansum(tf.constant([1.0, float('nan'), 2.0]))",
    "tnp.nansum(tf.constant([[1.0, float('nan')], [2.0, 3.0]]), axis=0)", "tnp.nansum(tf.constant([1, 2], tf.int8))",
    "tnp.nansum(tf.constant([1.0, float('nan')], tf.float16), keepdims=True)",
    "tnp.nansum(tf.constant([1.0, float('nan')], tf.float64), dtype=tnp.float32)",
    "tnp.nanprod(tf.constant([2.0, float('nan'), 3.0]))", "tnp.nanprod(tf.constant([[2.0, float('nan')], [2.0, 3.0]]), axis=1)",
    "tnp.nanprod(tf.constant([2, 3], tf.uint8))", "tnp.nanprod(tf.constant([2.0, float('nan')], tf.float64), keepdims=True)",
    "tnp.ptp([1, 5, 3])", "tnp.ptp([[1.0, 5.0], [3.0, -2.0]], axis=0)", "tnp.ptp([[1.0, 5.0], [3.0, -2.0]], axis=1, keepdims=True)",
    "tnp.ptp(tf.constant([250, 3], tf.uint8))", "tnp.ptp(tf.constant([100, -100], tf.int8))", "tnp.ptp(tnp.array(2.0))",
    "tnp.ptp(tf.constant([[1.5, 0.5]], tf.float16), axis=-1)",
    # stacking, triangles, rolling
    "tnp.hstack([tnp.ones((2, 1)), tnp.zeros((2, 2), tnp.int8)])",
    "tnp.hstack([tf.constant([1], tf.int8), tf.constant([2], tf.int16)])", "tnp.hstack([tf.constant(1.0), tf.constant([2.0, 3.0])])",
    "tnp.vstack([tnp.ones((2, 2)), tf.constant([5.0, 6.0])])", "tnp.vstack([tf.constant(1), tf.constant(2)])",
    "tnp.vstack([tf.constant([1, 2], tf.uint8), tf.constant([[3, 4]], tf.uint8)])",
    "tnp.dstack([tnp.ones((2, 2)), tnp.zeros((2, 2))])", "tnp.dstack([tf.constant([[1], [2]], tf.uint8), tf.constant([[3], [4]], tf.uint8)])",
    "tnp.dstack([tf.constant([1, 2]), tf.constant([3, 4])])",
    "tnp.atleast_1d(1.0)", "tnp.atleast_1d([1, 2])", "tnp.atleast_1d(tf.constant(3, tf.int8))", "tnp.atleast_1d(1, [2, 3])",
    "tnp.atleast_2d(1.0)", "tnp.atleast_2d([1, 2])", "tnp.atleast_2d(tnp.ones((2, 3, 4)))",
    "tnp.atleast_3d(1)", "tnp.atleast_3d([1, 2])", "tnp.atleast_3d([[1, 2]])", "tnp.atleast_3d(tf.constant([[1.0]], tf.float16), 2.0)",
    "tnp.atleast_3d(tnp.ones((1, 2, 3, 4)))",
    "tnp.tri(3)", "tnp.tri(2, 3, k=1, dtype=int)", "tnp.tri(3, k=-1, dtype=bool)", "tnp.tri(3, 2, 1, tnp.float64)", "tnp.tri(0)",
    "tnp.tril(tnp.ones((3, 3)), k=1)", "tnp.tril(tnp.ones((3, 3)), -1)", "tnp.tril(tf.constant([[1, 2], [3, 4]], tf.int8))",
    "tnp.tril(tnp.ones((2, 3, 3)))", "tnp.tril(tf.constant([[1, 2, 3], [4, 5, 6]], tf.int64), 5)",
    "tnp.roll(tf.constant([1, 2, 3], tf.uint8), 2)", "tnp.roll(tnp.ones((2, 3)), 1, axis=-1)",
    "tnp.roll(tf.constant([[1, 2], [3, 4]]), 1)", "tnp.roll(tf.constant([[1, 2], [3, 4]]), 1, axis=0)",
    "tnp.roll(tf.constant([[1, 2, 3], [4, 5, 6]]), (1, -1), axis=(0, 1))", "tnp.roll(tf.constant([1.0, 2.0, 3.0, 4.0]), -5)",
    "tnp.roll(tf.constant([[1, 2, 3], [4, 5, 6]]), (1, 1), axis=(1, 1))",
    # products, broadcasting, indexing, comparison, sorting
    "tnp.inner([1, 2], [3, 4])", "tnp.inner([[1.0, 2.0], [3.0, 4.0]], [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])",
    "tnp.inner(tnp.ones((2, 3)), tnp.ones(3))", "tnp.inner(tf.constant([1, 2], tf.int8), tf.constant([3, 4], tf.int8))",
    "tnp.vdot([1, 2], [3, 4])", "tnp.vdot([[1.0, 2.0], [3.0, 4.0]], [[1.0, 0.0], [0.0, 1.0]])",
    "tnp.vdot(tf.constant([1 + 2j, 3j]), tf.constant([2 + 0j, 1j]))", "tnp.vdot(tnp.array([1.0, 2.0]), tnp.array([3.0, 4.0]))",
    "tnp.tensordot([[1, 2], [3, 4]], [[1, 0], [0, 1]])",
    "tnp.tensordot(tnp.ones((2, 3, 4)), tnp.ones((4, 3, 5)), axes=([1, 2], [1, 0]))",
    "tnp.tensordot([1, 2], [3, 4], axes=0)", "tnp.tensordot([1.0, 2.0], [3, 4], axes=1)",
    "tnp.tensordot(tnp.ones((2, 3)), tnp.ones((3, 2)), axes=[[1], [0]])", "tnp.tensordot(tnp.ones((2, 3)), tnp.ones((3, 2)), axes=(1, 0))",
    "tnp.tensordot(tf.constant([[1, 2], [3, 4]], tf.int16), tf.constant([[5], [6]], tf.int16), axes=(-1, 0))",
    "tnp.kron([1, 2], [1, 10])", "tnp.kron([[1, 2], [3, 4]], [[1, 1], [1, 1]])", "tnp.kron(tnp.ones((2,)), tnp.ones((2, 2)))",
    "tnp.kron(2, [1, 2])", "tnp.kron(tf.constant([1, 2], tf.int8), tf.constant([3], tf.int16))",
    "tnp.cross([1, 2, 3], [4, 5, 6])", "tnp.cross(tnp.array([1.0, 2.0]), tnp.array([4.0, 5.0]))",
    "tnp.cross(tf.constant([1.0, 2.0]), tf.constant([4.0, 5.0, 6.0]))", "tnp.cross(tf.constant([4.0, 5.0, 6.0]), tf.constant([1.0, 2.0]))",
    "tnp.cross(tf.constant([[1, 2, 3], [4, 5, 6]]), tf.constant([[4, 5, 6], [1, 2, 3]]))",
    "tnp.cross(tnp.ones((3, 2)), tnp.ones((3, 2)), axis=0)", "tnp.cross(tnp.ones((3, 2)), tnp.ones((2, 3)), axisa=0)",
    "tnp.cross(tf.constant([1, 0, 0], tf.int8), tf.constant([0, 1, 0], tf.int8))",
    "tnp.cross(tf.constant([[1.0, 0.0, 0.0]]), tf.constant([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]), axisc=0)",
    "tnp.broadcast_arrays([1, 2], [[3], [4]])", "tnp.broadcast_arrays(tnp.ones(3), 2.0)",
    "tnp.broadcast_arrays(tf.constant([1], tf.int8), tf.constant([[1, 2]], tf.int16))",
    "tnp.take_along_axis(tnp.array([[10, 30, 20], [60, 40, 50]]), tnp.array([[0, 2], [1, 0]]), axis=1)",
    "tnp.take_along_axis(tnp.array([[10, 30, 20], [60, 40, 50]]), tnp.array([[1, 0, 1]]), axis=0)",
    "tnp.take_along_axis(tnp.array([3.0, 1.0, 2.0]), tnp.array([1, 2, 0]), axis=None)",
    "tnp.take_along_axis([[1, 2], [3, 4]], [[1], [0]], axis=-1)",
    "tnp.take_along_axis(tf.constant([[1, 2], [3, 4]], tf.int8), tf.constant([[1], [0]], tf.int64), 1)",
    "tnp.take_along_axis(tf.constant([[1.5, 2.5], [3.5, 4.5]], tf.float16), tf.constant([[-1, 0]]), 1)",
    "tnp.array_equal([1, 2], [1, 2])", "tnp.array_equal([1, 2], [1, 2, 3])", "tnp.array_equal([1.0, float('nan')], [1.0, float('nan')])",
    "tnp.array_equal(tnp.ones((2, 2)), 1.0)", "tnp.array_equal([1, 2], [1.0, 2.0])", "tnp.array_equal([[1, 2]], [[1, 3]])",
    "tnp.argsort([3, 1, 2])", "tnp.argsort([[3.0, 1.0], [0.0, 5.0]])", "tnp.argsort([[3.0, 1.0], [0.0, 5.0]], axis=0)",
    "tnp.argsort([3, 1, 2, 1], kind='stable')", "tnp.argsort([[3, 1], [2, 0]], axis=None)",
    "tnp.argsort(tf.constant([3, 1, 2], tf.uint8))", "tnp.argsort([1.0, float('nan'), 0.0])",
    "tnp.argsort(tf.constant([2.0, -1.0], tf.float16))",
    # binary float and integer functions, dtype queries
    "tnp.logaddexp(tf.constant([1.0], tf.float16), 2.0)", "tnp.logaddexp(tf.constant([float('inf')]), float('inf'))",
    "tnp.logaddexp(tf.constant([1000.0]), 1000.0)", "tnp.logaddexp(tf.constant([1.0, -3.0]), tf.constant([2.0, 5.0]))",
    "tnp.logaddexp(tf.constant([1.0, -float('inf')], tf.float64), tf.constant([2.0, -float('inf')], tf.float64))",
    "tnp.logaddexp2(tf.constant([1.0], tf.float64), 2)",
    "tnp.divmod(tf.constant([7, -7]), 2)", "tnp.divmod(tf.constant([7.5, -7.0]), 2)",
    "tnp.divmod(tf.constant([7, -7], tf.int8), tf.constant([2, 3], tf.int8))",
    "tnp.gcd(tf.constant([12, 18]), 8)", "tnp.gcd(tf.constant([12, -18], tf.int8), tf.constant([8, 4], tf.int8))",
    "tnp.gcd(tf.constant([0, 5]), tf.constant([0, 0]))", "tnp.lcm(tf.constant([4, 6]), 6)",
    "tnp.lcm(tf.constant([4, -6], tf.int16), 10)", "tnp.lcm(tf.constant([0, 5]), tf.constant([0, 3]))",
    "tnp.gcd(tf.constant([[12], [9]], tf.int64), tf.constant([18, 4], tf.int64))",
    "tnp.result_type(tnp.int8, tnp.int16)", "tnp.result_type(1, 2.0)", "tnp.result_type(tnp.int8, 1.0)",
    "tnp.result_type(tf.constant([1], tf.uint8), tf.constant([1], tf.int8))", "tnp.result_type(tnp.ones(2), 1j)",
    # logspace, geomspace, issubdtype
    "tnp.logspace(0, 3, 4)", "tnp.logspace(0, 3, 4, base=2.0)", "tnp.logspace(-1, 1, 3)",
    "tnp.geomspace(1, 256, 3, dtype=tnp.float32)", "tnp.geomspace(1.0, 8.0, 4, endpoint=False, dtype=tnp.float32)",
    "tnp.issubdtype(tnp.int8, tnp.inexact)", "tnp.issubdtype(tnp.float32, tnp.inexact)", "tnp.issubdtype(tnp.complex64, tnp.inexact)",
    "tnp.issubdtype(tnp.bool_, tnp.inexact)", "tnp.issubdtype(tnp.int8, tnp.int8)",
    # float_power, nextafter, select, compress, diag_indices, ix_, polyval, promote_types
    "tnp.float_power(tf.constant([2.0], tf.float16), 2)",
    "tnp.float_power(tf.constant([2.0, 3.0], tf.float64), tf.constant([0.5, -1.0], tf.float64))",
    "tnp.float_power(tf.constant([4.0]), 0.5)",
    "tnp.nextafter(tf.constant([1.0]), 2.0)",
    "tnp.nextafter(tf.constant([1.0, 0.0], tf.float64), tf.constant([0.0, -1.0], tf.float64))",
    "tnp.select([tnp.array([True, False, False]), tnp.array([False, True, False])], [tnp.array([1, 2, 3]), tnp.array([4, 5, 6])])",
    "tnp.select([tnp.array([True, False, False]), tnp.array([True, True, False])], [tf.constant([1, 1, 1], tf.int8), tf.constant([2, 2, 2], tf.int8)], default=9)",
    "tnp.select([[True, False]], [[1.5, 2.5]])",
    "tnp.compress([True, False, True], [1, 2, 3])",
    "tnp.compress([0, 1], tnp.array([[1, 2], [3, 4]]), axis=0)",
    "tnp.compress([True, False], tnp.array([[1, 2], [3, 4]]), axis=1)",
    "tnp.compress([True, False, True, True], tnp.array([[1, 2], [3, 4]]))",
    "tnp.compress([True], tf.constant([1.5, 2.5], tf.float16))",
    "tnp.diag_indices(3)",
    "tnp.diag_indices(2, 3)",
    "tnp.ix_([0, 1], [2, 4])",
    "tnp.ix_(tf.constant([1, 3], tf.int64), tnp.array([2]))",
    "tnp.polyval([1, 2, 3], 2)",
    "tnp.polyval([1.0, 0.5], tnp.array([1.0, 2.0]))",
    "tnp.polyval(tf.constant([1, 2], tf.int8), tf.constant([3], tf.int8))",
    "tnp.polyval(tf.constant([2.0, 0.0, -1.0], tf.float64), tf.constant([[0.5], [2.0]], tf.float64))",
    "tnp.tril([[1, 2], [3, 4]])",
    "tnp.promote_types(tnp.int8, tnp.uint8)",
    "tnp.promote_types(tnp.float16, tnp.float32)",
    "tnp.promote_types(tnp.bool_, tnp.int8)",
    "tnp.promote_types('int16', 'uint8')",
    "tnp.promote_types(tnp.complex64, tnp.float64)",
    "tnp.ix_([True, False, True])",
    "tnp.select([tf.constant([True, False])], [tf.constant([1.0, 2.0], tf.float64)], default=tf.constant(7.0))",
    # tf.random's stateless generators (deterministic in the seed; bit for bit in crates/lattensor/tests/random.rs)
    "tf.random.stateless_uniform([2, 3], seed=[1, 2])",
    "tf.random.stateless_uniform([3], seed=[1, 2], minval=[0.0, 10.0, 100.0], maxval=200.0)",
    "tf.random.stateless_uniform([2, 2], seed=(5, 6), minval=-1.5, maxval=tf.constant([[1.0], [2.0]]))",
    "tf.random.stateless_uniform([4], seed=[5, 6], minval=-3, maxval=9, dtype=tf.int32)",
    "tf.random.stateless_uniform([3], seed=[5, 6], minval=tf.constant(2, tf.int64), maxval=tnp.int64(2**40), dtype=tf.int64)",
    "tf.random.stateless_uniform([3], seed=[5, 6], minval=None, maxval=None, dtype=tf.int32)",
    "tf.random.stateless_uniform([2], seed=tf.constant([1, 2], tf.int64), dtype=tf.float16, minval=1, maxval=2)",
    "tf.random.stateless_uniform([2], seed=[-3, 4], dtype=tf.bfloat16)",
    "tf.random.stateless_normal([5], seed=[7, 8])",
    "tf.random.stateless_normal([2, 3], seed=[7, 8], mean=[1.0, 2.0, 3.0], stddev=0.5, dtype=tf.float64)",
    "tf.random.stateless_normal([3], seed=tf.constant([1, 2]), mean=2, stddev=3, dtype=tf.bfloat16)",
    "tf.random.stateless_normal([4], seed=[0, 0], dtype=tf.float16)",
    "tf.random.stateless_truncated_normal([2, 3], seed=[7, 8], mean=[1.0, 2.0, 3.0], stddev=0.5)",
    "tf.random.stateless_truncated_normal([5], seed=[1, 2], dtype=tf.float64)",
]

#: Where lattensor goes beyond TF (TF raises): test_port.py's EXTENSIONS give lattensor's result.
EXTENSION_EXPRS = [
    "tnp.split(tnp.arange(6), [4, 1])", "tnp.split(tnp.arange(6), [-2])",
    "tnp.pad(tnp.array([1, 2, 3]), 1, 'constant')", "tnp.pad(tnp.array([[1, 2], [3, 4]]), (1, 2), 'constant')",
    "tnp.pad(tnp.array([1, 2, 3]), ((4, 4),), 'reflect')", "tnp.pad(tnp.array([1, 2, 3]), 1)",
    "tnp.pad(tnp.array([[1, 2], [3, 4]]), [[1], [2]], 'symmetric')", "tnp.pad(7, 2, 'constant')",
    "tf.unique(tf.constant([1 + 1j, 1 + 1j, 2j]))", "tf.unique(tf.constant([1 + 1j, 1 + 1j, 2j], tf.complex64))",
    "tf.one_hot([[0, 2], [1, 1]], 3, axis=-2)",
    "tf.one_hot(tf.constant([0, 2], tf.int16), 3)", "tf.one_hot(tf.constant([0, 2], tf.uint32), 3)",
    "tnp.isnan(tf.constant([1 + 1j, complex('nan')]))", "tnp.isinf([1.0, float('inf'), -float('inf')])",
    "tnp.isneginf([1.0, -float('inf')])", "tnp.isfinite(tf.constant([1 + 1j, complex('inf'), complex('nan')], tf.complex64))",
    "tnp.sign(tf.constant([0, 3], tf.uint8))", "tnp.nansum(tf.constant([1 + 1j, complex('nan')]))",
    "tnp.tril(tf.constant([[True, True], [True, True]]))", "tnp.roll(tf.constant([[1, 2, 3], [4, 5, 6]]), 2, axis=(0, 1))",
    "tnp.inner(tf.constant([1, 2], tf.int8), tf.constant([3, 4], tf.int16))", "tnp.argsort(tf.constant([True, False]))",
    "tnp.logaddexp(tf.constant([1.0, 2.0]), [3.0, -1.0])", "tnp.logaddexp([1.0, 2.0], [3.0, -1.0])",
    "tnp.gcd(tf.constant([4], tf.uint8), tf.constant([6], tf.uint8))",
]
EXPRS += EXTENSION_EXPRS

#: tnp.random's stateful generators: their values are not reproducible across libraries
#: (nor TF's own runs without a seed), so the golden data keeps dtype, weakness and shape.
RANDOM_EXPRS = [
    "tnp.random.randn(2)", "tnp.random.randn()", "tnp.random.randn(2, 3)", "tnp.random.rand(2, 3)",
    "tnp.random.rand()", "tnp.random.random()", "tnp.random.random((2, 2))", "tnp.random.uniform(tnp.zeros(2), 5)",
    "tnp.random.uniform(tf.constant([1, 2], tf.float32), 5.0)", "tnp.random.uniform(size=(3,))",
    "tnp.random.uniform(tf.constant([[1.0], [2.0]], tf.float64), [3.0, 4.0])",
    "tnp.random.standard_normal((2, 2))", "tnp.random.standard_normal()", "tnp.random.standard_normal(3)",
    "tnp.random.randint(5, size=3)", "tnp.random.randint(2, 5, (2,))", "tnp.random.randint(5, size=3, dtype=tnp.int32)",
    "tnp.random.randint(5)", "tnp.random.randint(-3, 3, size=(2, 2), dtype=tf.int64)",
    "tnp.random.poisson(3.0, 4)", "tnp.random.poisson(size=(2,))", "tnp.random.poisson(tnp.array([1.0, 50.0]), (3, 2))",
    "tnp.random.poisson(20.0)",
    "tf.random.uniform([2, 3])", "tf.random.uniform([2], 1, 10, dtype=tf.int32)", "tf.random.uniform([2], dtype=tf.float64)",
    "tf.random.normal([3], 1.0, 2.0)", "tf.random.truncated_normal([2, 2], stddev=0.1)", "tf.random.normal([2, 2], dtype=tf.float16)",
    "tf.random.poisson([4], [2.0, 3.0])", "tf.random.poisson([2], 5.0, dtype=tf.int32)",
    # TF 2.21 refuses an int size here (its shape must be a vector); lattensor accepts it as NumPy does
    "tnp.random.random(3)", "tnp.random.uniform(1, 2, 3)",
]

#: Where TF 2.21 departs from its own rules and lattensor does not (docs/deviations.md).
DEVIATIONS = {
    "tnp.linspace(0, 10, 5, dtype=int)": "TF ignores dtype (float32); lattensor returns int32 [0, 2, 5, 7, 10] as NumPy",
    "tnp.linspace(0.0, 1.0, 3, dtype=tnp.float64)": "TF ignores dtype (float32); lattensor returns float64",
    "tf.argmax(tf.constant([1.0, float('nan'), 3.0]))": "TF skips NaN (2); lattensor: the first NaN (1), as NumPy",
    "tnp.meshgrid(tnp.arange(2), tnp.arange(3), tf.constant([7, 8], tf.int16))[2]":
        "TF joins int32* and int16 to int32; the lattice gives int16",
    "tnp.argmin(tf.constant([1.0, 3.0, float('nan')]))": "TF skips NaN (0); lattensor: the first NaN (2), as NumPy",
    "tnp.heaviside(tf.constant([float('nan'), -0.0]), 0.5)": "TF gives x2 at NaN; lattensor NaN, as NumPy",
    "tnp.hypot(tf.constant([3e30]), 4e30)": "TF overflows (inf, and weak); lattensor 5e30 (float32, strong: f32 ⊔ f32*)",
    "tnp.hypot(tf.constant([float('inf')]), float('nan'))": "TF nan; lattensor inf, as NumPy and C's hypot",
    "tnp.hypot(tf.constant([3.0], tf.bfloat16), 4)": "TF computes bfloat16 in float32; lattensor keeps bfloat16",
    "tnp.heaviside(1, 0.5)": "TF gives float64; the lattice joins i32* and f32* to f32*",
    "tnp.arctan2(1.0, 2.0)": "TF gives float64; the lattice keeps f32*",
    "tnp.logspace(0, 1, 3, endpoint=False)": "TF computes in float32 (10^(2/3) 1 ulp low); lattensor rounds the float64 value once",
    "tnp.logspace(0, 2, 3, dtype=tnp.float64)": "TF ignores dtype (float32); lattensor returns float64",
    "tnp.logspace(0, 2, 3, dtype=int)": "TF ignores dtype (float32); lattensor returns int32, as NumPy",
    "tnp.geomspace(1, 1000, 4)": "TF: float64 computed through float32 (10.0000003); lattensor: float32 (tnp's float), exact",
    "tnp.float_power(2, 0.5)": "TF gives float64 for Python numbers; the lattice computes i32* ⊔ f32* as f32*",
    "tnp.logaddexp(1, 2)": "TF gives float64; the lattice computes i32* operands in f32*, as every tnp float function",
    "tnp.logaddexp2(tf.constant([1.0, 3.0]), tf.constant([3.0, -1.0]))":
        "TF gives float64 for float32 operands (it divides by a float64 log(2)); lattensor keeps float32",
    "tnp.logaddexp2(1, tf.constant([2], tf.int8))": "TF gives float64; lattensor computes integers in float32",
    "tnp.isclose([1.0, float('inf'), -float('inf')], [1.0, float('inf'), float('inf')])":
        "TF: inf is not close to inf; lattensor: infinities are close to themselves, as NumPy",
}




def encode_any(r):
    """A tensor's encoding, or for a list/tuple of tensors (tf.split, tf.unique) each one's."""
    if isinstance(r, (list, tuple)):
        return {"parts": [encode(x) for x in r]}
    if isinstance(r, (bool, int, np.integer, tf.TensorShape, tf.DType, np.dtype)):
        return {"python": python_value(r)}
    return encode(r)


def python_value(r):
    """A non-tensor answer (tnp.ndim/shape/size/isscalar/result_type) as JSON."""
    if isinstance(r, tf.TensorShape):
        return [int(d) for d in r]
    if isinstance(r, (tf.DType, np.dtype)):
        return r.name
    return r if isinstance(r, bool) else int(r)


cases = []
for e in EXPRS:
    try:
        out = encode_any(eval(e))  # noqa: S307 (our own expression list)
    except Exception as ex:  # noqa: BLE001
        out = {"error": type(ex).__name__}
    cases.append({"expr": e, "out": out})
for e in RANDOM_EXPRS:
    try:
        out = encode_any(eval(e))  # noqa: S307 (our own expression list)
        del out["values"]
    except Exception as ex:  # noqa: BLE001
        out = {"error": type(ex).__name__}
    cases.append({"expr": e, "out": out, "random": True})
for e, why in DEVIATIONS.items():
    cases.append({"expr": e, "out": encode_any(eval(e)), "deviation": why})  # noqa: S307
OUT.write_text(json.dumps({"tf_version": tf.__version__, "cases": cases}, indent=0) + "\n")
print(f"wrote {len(cases)} cases to {OUT}")
