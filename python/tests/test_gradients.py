"""tf.GradientTape as TF programs use it. Expected values, dtypes and weakness
are TF 2.21's for the same expressions (run with tnp's numpy behaviour on,
dtype_conversion_mode='all')."""

import numpy as np
import pytest

import lattensor as tf
import lattensor.experimental.numpy as tnp


def close(t, want, dtype, weak):
    assert t.dtype == dtype and t.weak == weak, (t.dtype, t.weak)
    np.testing.assert_allclose(np.asarray(t.numpy(), np.complex128 if "complex" in dtype.name else np.float64), want, rtol=1e-6)


def test_watch_weak_strong_and_half():
    x, xs, xh = tf.constant(3.0), tf.constant(3.0, tf.float32), tf.constant(3.0, tf.float16)
    with tf.GradientTape(persistent=True) as g:
        g.watch([x, xs, xh])
        a, b, c = x * x, xs * 2.0, xh * xh
    close(g.gradient(a, x), 6.0, tf.float32, True)
    close(g.gradient(b, xs), 2.0, tf.float32, False)
    close(g.gradient(c, xh), 6.0, tf.float16, False)


def test_integer_and_unconnected_sources():
    xi, x, other = tf.constant(3), tf.constant(1.0), tf.constant(2.0)
    with tf.GradientTape(persistent=True) as g:
        g.watch([xi, x])
        y = xi * xi
        z = x * 2
        w = tf.cast(x, tf.int32)
    assert g.gradient(y, xi) is None
    assert g.gradient(w, x) is None
    assert g.gradient(z, other) is None
    close(g.gradient(z, other, unconnected_gradients="zero"), 0.0, tf.float32, True)
    close(g.gradient(z, other, unconnected_gradients=tf.UnconnectedGradients.ZERO), 0.0, tf.float32, True)


def test_variables_are_watched_when_read():
    v = tf.Variable(2.0)
    frozen = tf.Variable(5.0, trainable=False)
    x = tf.constant(3.0)
    with tf.GradientTape() as g:
        y = v * x + frozen
    gv, gx, gf = g.gradient(y, [v, x, frozen])
    close(gv, 3.0, tf.float32, False)
    assert gx is None and gf is None
    assert g.watched_variables() == (v,)


def test_nested_structures_and_output_gradients():
    x = tf.constant(3.0)
    with tf.GradientTape() as g:
        g.watch(x)
        y = [x * 2, x * 3]
    r = g.gradient(y, {"a": x, "b": [x]})
    close(r["a"], 5.0, tf.float32, True)
    close(r["b"][0], 5.0, tf.float32, True)
    a = tf.constant([1.0, 2.0])
    with tf.GradientTape() as g:
        g.watch(a)
        y = a * a
    close(g.gradient(y, a, output_gradients=tf.constant([1.0, 3.0])), [2.0, 12.0], tf.float32, True)


def test_non_persistent_tape_is_single_use():
    x = tf.constant(3.0)
    with tf.GradientTape() as g:
        g.watch(x)
        y = x * 2
    g.gradient(y, x)
    with pytest.raises(RuntimeError, match="non-persistent"):
        g.gradient(y, x)


def test_complex_conjugate_convention():
    z = tf.constant(1 + 2j)
    with tf.GradientTape() as g:
        g.watch(z)
        y = z * z
    close(g.gradient(y, z), 2 - 4j, tf.complex128, True)


def test_kinks_as_tf():
    a = tf.constant(0.0)
    with tf.GradientTape(persistent=True) as g:
        g.watch(a)
        ys = [tf.abs(a), tf.nn.relu(a), tf.sqrt(a), tf.sign(a), tf.floor(a), tf.round(a), tf.maximum(a, 0.0), tf.minimum(a, 0.0)]
    got = [g.gradient(y, a) for y in ys]
    want = [0.0, 0.0, np.inf, 0.0, None, None, 1.0, 1.0]
    for t, w in zip(got, want):
        if w is None:
            assert t is None
        else:
            close(t, w, tf.float32, True)


def test_indexing_and_tnp():
    a = tf.constant([1.0, 2.0])
    with tf.GradientTape() as g:
        g.watch(a)
        y = a[0] * 3
    close(g.gradient(y, a), [3.0, 0.0], tf.float32, True)
    b = tnp.array([1.0, 2.0, 3.0])
    with tf.GradientTape() as g:
        g.watch(b)
        y = tnp.sum(tnp.exp(b[1:]) * 2)
    close(g.gradient(y, b), [0.0, 2 * np.exp(2.0), 2 * np.exp(3.0)], tf.float32, True)


def test_stop_gradient_stop_recording_and_reset():
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as g:
        g.watch(x)
        y = x * tf.stop_gradient(x)
        with g.stop_recording():
            z = x * x
    close(g.gradient(y, x), 3.0, tf.float32, True)
    assert g.gradient(z, x) is None
    g.reset()
    assert g.gradient(y, x) is None


def test_second_derivative_with_a_persistent_tape():
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as g:
        g.watch(x)
        y = x**3
        dy = g.gradient(y, x)
    close(dy, 27.0, tf.float32, True)
    close(g.gradient(dy, x), 18.0, tf.float32, True)


def test_nested_tapes():
    x = tf.constant(0.5, tf.float64)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.tanh(x)
        dy = inner.gradient(y, x)
    d2 = outer.gradient(dy, x)
    t = np.tanh(0.5)
    close(d2, -2 * t * (1 - t * t), tf.float64, False)


def test_custom_gradient():
    @tf.custom_gradient
    def clipped(x):
        def grad(dy):
            return tf.clip_by_value(dy * 10.0, -1.0, 1.0)

        return x * 2.0, grad

    x = tf.constant(3.0)
    with tf.GradientTape() as g:
        g.watch(x)
        y = clipped(x)
    close(y, 6.0, tf.float32, True)
    close(g.gradient(y, x), 1.0, tf.float32, True)


def test_jacobians():
    x = tf.constant([1.0, 2.0], tf.float64)
    with tf.GradientTape() as g:
        g.watch(x)
        y = x * x
    close(g.jacobian(y, x), [[2.0, 0.0], [0.0, 4.0]], tf.float64, False)
    a = tf.constant(np.arange(6.0).reshape(3, 2))
    m = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], tf.float64)
    with tf.GradientTape() as g:
        g.watch(a)
        y = tf.matmul(a, m)
    bj = g.batch_jacobian(y, a)
    assert tuple(bj.shape) == (3, 3, 2)
    close(bj[0], np.asarray(m.numpy()).T, tf.float64, False)


def test_training_loop_converges():
    # linear regression by gradient descent, as a TF training loop
    rng = np.random.default_rng(0)
    xs = rng.normal(size=(32, 3)).astype(np.float32)
    true_w = np.array([[1.5], [-2.0], [0.5]], np.float32)
    ys = xs @ true_w + 0.25
    w = tf.Variable(tf.zeros([3, 1]))
    b = tf.Variable(0.0)
    for _ in range(300):
        with tf.GradientTape() as g:
            loss = tf.reduce_mean(tf.square(tf.matmul(tf.constant(xs), w) + b - ys))
        gw, gb = g.gradient(loss, [w, b])
        w.assign_sub(0.1 * gw)
        b.assign_sub(0.1 * gb)
    np.testing.assert_allclose(w.numpy(), true_w, atol=1e-4)
    np.testing.assert_allclose(b.numpy(), 0.25, atol=1e-4)


def test_einsum_gradient_through_the_raw_ops_diagonal_expansion():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]], tf.float64)
    with tf.GradientTape() as g:
        g.watch(x)
        y = tf.einsum("ii->i", x) * tf.constant([1.0, 10.0], tf.float64)
    close(g.gradient(y, x), [[1.0, 0.0], [0.0, 10.0]], tf.float64, False)


def test_watch_refuses_what_is_not_a_tensor():
    with tf.GradientTape() as g:
        with pytest.raises(ValueError, match="watch"):
            g.watch(3.0)

