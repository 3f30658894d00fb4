"""Cases where TensorFlow programs ported by changing the import met a
difference; the expected values are TF 2.21's on the same inputs."""

from __future__ import annotations

import numpy as np
import pytest

import lattensor as tf
import lattensor.experimental.numpy as tnp


def test_reshape_and_flatten_take_numpys_order():
    x = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    # TF: tnp.reshape(x, (2, 3), order='F') is [[1, 3, 5], [2, 4, 6]]
    f = tnp.reshape(x, (2, 3), order="F")
    assert f.numpy().tolist() == [[1.0, 3.0, 5.0], [2.0, 4.0, 6.0]]
    assert (f.dtype, f.weak) == (x.dtype, x.weak)
    assert tnp.reshape(x, (2, 3), order="C").numpy().tolist() == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    # -1 and higher ranks follow NumPy's column-major fill
    y = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    t = tf.constant(y)
    assert np.array_equal(tnp.reshape(t, (4, -1), order="F").numpy(), np.reshape(y, (4, -1), order="F"))
    assert np.array_equal(t.reshape(6, 4, order="F").numpy(), y.reshape(6, 4, order="F"))
    assert np.array_equal(t.flatten("F").numpy(), y.flatten("F"))
    assert np.array_equal(t.flatten().numpy(), y.flatten())
    for bad in (lambda: tnp.reshape(x, (2, 3), order="A"), lambda: t.flatten("K"), lambda: t.reshape(24, order="X")):
        with pytest.raises(ValueError, match="order"):
            bad()


def test_format_marks_weak_tensors_whatever_the_spec():
    # TF: format(tf.constant(2), 'b') == '10 weakly typed'
    assert format(tf.constant(2), "b") == "10 weakly typed"
    assert format(tf.constant(2.5), ".3f") == "2.500 weakly typed"
    assert format(tf.constant(2, tf.int32), "b") == "10"
    assert format(tf.constant(2), "").endswith(" weakly typed")


def test_round_of_a_tensor_is_tf_round():
    x = tf.constant([0.5, 1.5, 2.5, -0.5], tf.float32)
    r = round(x)
    assert (r.dtype, r.numpy().tolist()) == (tf.float32, [0.0, 2.0, 2.0, -0.0])  # half to even
    assert round(tf.constant([1.2345, 2.5], tf.float64), 2).numpy().tolist() == [1.23, 2.5]
    w = round(tf.constant(2.5))
    assert (w.dtype, w.weak, float(w)) == (tf.float32, True, 2.0)


def test_math_mod_and_count_nonzero():
    assert tf.math.mod is tf.math.floormod
    assert tf.math.mod(tf.constant([-7, 7]), 3).numpy().tolist() == [2, 1]
    x = tf.constant([[0, 1, 2], [0, 0, 3]])
    n = tf.math.count_nonzero(x)
    assert (n.dtype, n.weak, int(n)) == (tf.int64, False, 3)
    assert tf.math.count_nonzero(x, axis=1).numpy().tolist() == [2, 1]
    k = tf.math.count_nonzero(x, axis=0, keepdims=True, dtype=tf.int32)
    assert (k.dtype, k.shape, k.numpy().tolist()) == (tf.int32, (1, 3), [[0, 1, 2]])
    assert int(tf.math.count_nonzero(tf.constant([True, False, True]))) == 2
    assert tnp.count_nonzero(x, axis=1, keepdims=True).shape == (2, 1)


def test_einsum_refuses_unknown_keywords():
    a = tf.ones([2, 2])
    # TF: TypeError for keywords other than name and optimize
    with pytest.raises(TypeError, match="invalid1"):
        tf.einsum("ij,jk->ik", a, a, name="n", invalid1="v")
    assert tf.einsum("ij,jk->ik", a, a, name="n", optimize="greedy").shape == (2, 2)


def test_full_like_broadcasts_an_array_fill_value():
    a = tf.constant([-3.383, 3.037], tf.float16)
    # TF and NumPy: strong float16 [1., 2.]
    r = tnp.full_like(a, tf.constant([1.0, 2.0], tf.float64))
    assert (r.dtype, r.weak, r.numpy().tolist()) == (tf.float16, False, [1.0, 2.0])
    m = tnp.full_like(tf.zeros([2, 3], tf.int32), [7, 8, 9])
    assert (m.dtype, m.numpy().tolist()) == (tf.int32, [[7, 8, 9], [7, 8, 9]])
    # TF's broadcast_to refuses it with InvalidArgumentError
    with pytest.raises(tf.errors.InvalidArgumentError, match="broadcast"):
        tnp.full_like(tf.zeros([2, 3]), [1.0, 2.0])


def test_asarray_of_a_tensor_is_the_tensor():
    z = tf.constant([1.0, 2.0])
    assert tnp.asarray(z) is z and tnp.asanyarray(z) is z
    assert tnp.asarray(z, dtype=z.dtype) is z
    c = tnp.asarray(z, dtype=tnp.float64)
    assert c is not z and c.dtype == tf.float64


def test_result_type_takes_numpy_dtypes():
    # TF: tf.result_type(np.dtype(np.float32)) == (float32, False)
    assert tf.result_type(np.dtype(np.float32)) == (tf.float32, False)
    assert tf.result_type(np.dtype("int8"), 1.5) == tf.result_type(tf.int8, 1.5)
    with pytest.raises(NotImplementedError):
        tf.result_type(np.dtype([("a", np.int32)]))


def test_argmax_of_a_scalar():
    # TF and NumPy: tnp.argmax(5, axis=0) and axis=-1 are 0
    for f in (tnp.argmax, tnp.argmin):
        for axis in (0, -1, None):
            assert int(f(5, axis=axis)) == 0


def test_arange_keeps_a_strong_arguments_dtype_and_strength():
    # TF: a strong argument gives a strong result of the arguments' result type
    r = tnp.arange(tf.constant(4.0, tf.float64))
    assert (r.dtype, r.weak, r.numpy().tolist()) == (tf.float64, False, [0.0, 1.0, 2.0, 3.0])
    r = tnp.arange(tf.constant(5, tf.int32))
    assert (r.dtype, r.weak) == (tf.int32, False)
    r = tnp.arange(np.array(5), 10)
    assert (r.dtype, r.weak, r.numpy().tolist()) == (tf.int64, False, [5, 6, 7, 8, 9])
    r = tnp.arange(tf.constant(5.0, tf.float32), 10)
    assert (r.dtype, r.weak) == (tf.float32, False)
    # literals alone stay weak
    w = tnp.arange(5)
    assert (w.dtype, w.weak) == (tf.int32, True)


def test_image_ops_keep_a_weak_images_weakness():
    x = tf.constant([[0.5, 0.25]])  # weak float32
    for y in (tf.image.adjust_brightness(x, 0.1), tf.image.adjust_gamma(x, 2.0),
              tf.image.random_brightness(x, 0.2), tf.image.stateless_random_brightness(x, 0.2, seed=(1, 2))):
        assert (y.dtype, y.weak) == (tf.float32, True)
    assert tf.image.adjust_gamma(tf.constant([[0.5, 0.25]], tf.float32), 2.0).weak is False
    assert tf.image.adjust_brightness(x, 0.1).numpy().tolist() == [[0.6000000238418579, 0.3499999940395355]]


def test_numpy_reductions_on_tensors_and_out():
    t = tf.constant([[1.0, 5.0, 2.0], [4.0, 0.0, 3.0]])
    # NumPy passes out=None to the tensor's methods
    assert np.asarray(np.amax(t, axis=1)).tolist() == [5.0, 4.0]
    assert np.asarray(np.amin(t, axis=0)).tolist() == [1.0, 0.0, 2.0]
    assert float(np.mean(t)) == 2.5
    assert abs(float(np.var(t)) - np.var(t.numpy())) < 1e-6
    # TF: tnp.amax/amin/mean/var(x, out=[]) raise ValueError
    for f in (tnp.amax, tnp.amin, tnp.mean, tnp.var, tnp.sum, tnp.std):
        with pytest.raises(ValueError, match="out"):
            f(t, out=[])
    assert tnp.amax(t, out=None).numpy() == 5.0


def test_raw_ops_einsum_expands_diagonals():
    x = tf.constant([1, 2, 3], tf.int32)
    d = tf.raw_ops.Einsum(inputs=[x], equation="i->ii")
    assert (d.dtype, d.numpy().tolist()) == (tf.int32, [[1, 0, 0], [0, 2, 0], [0, 0, 3]])
    m = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    assert tf.raw_ops.Einsum(inputs=[m, m], equation="ij,jk->ik").numpy().tolist() == [[7.0, 10.0], [15.0, 22.0]]
    with pytest.raises(TypeError):
        tf.raw_ops.Einsum([x], "i->ii")  # raw ops take keywords only
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.raw_ops.Einsum(inputs=[x, x], equation="i,i")


def test_average_checks_data_and_weights_in_safe_mode():
    a, w = tf.constant([6, 6, 1], tf.int32), tf.constant([1.0, 2.0, 3.0])
    # TF: the SAFE TypeError for int32 with float32, as tf.math.add of those
    with tf.promotion_mode("safe"), pytest.raises(TypeError):
        tnp.average(a, weights=w)
    assert float(tnp.average(a, weights=w)) == 3.5


def test_promotion_refusals_advise_in_python():
    # the library's message is written for Rust callers; from Python the advice is Python
    with tf.promotion_mode("safe"):
        with pytest.raises(TypeError) as e:
            tf.constant(1, tf.int32) + tf.constant(1.0, tf.float32)
    msg = str(e.value)
    assert "tf.cast(x, tf.float32)" in msg and "DType::" not in msg, msg
    assert 'tf.promotion_mode("all")' in msg, msg
