"""Values and weakness of the bindings whose signatures are not plain unary/binary."""

from __future__ import annotations

import numpy as np
import pytest

import lattensor as lt


def k(t):
    return (t.dtype.name, t.weak)


def test_shape_ops_keep_weakness_and_match_numpy():
    a = np.arange(6, dtype=np.float64).reshape(2, 3, 1)
    w = lt.constant(a.tolist())  # f32*
    assert k(lt.reshape(w, [3, 2])) == ("float32", True)
    assert lt.reshape(a, [-1]).numpy().tolist() == a.reshape(-1).tolist()
    assert lt.expand_dims(a, 0).shape == (1, 2, 3, 1)
    assert lt.squeeze(a).shape == (2, 3) and lt.squeeze(a, axis=[2]).shape == (2, 3)
    assert lt.transpose(a).numpy().tolist() == a.T.tolist()
    assert lt.transpose(a, perm=[1, 0, 2]).numpy().tolist() == a.transpose(1, 0, 2).tolist()
    assert k(lt.zeros_like(w)) == ("float32", True) and k(lt.ones_like(w, dtype=lt.int8)) == ("int8", False)
    assert k(lt.identity(w)) == ("float32", True) and k(lt.stop_gradient(5)) == ("int32", True)


def test_clip_and_scalar_mul():
    x = lt.constant([1, 5, 9], lt.int32)
    assert lt.clip_by_value(x, 2, 7).numpy().tolist() == [2, 5, 7]
    h = lt.constant([1.5], lt.float16)
    assert lt.math.scalar_mul(2, h).dtype == lt.float16
    with pytest.raises(lt.errors.InvalidArgumentError):
        lt.math.scalar_mul(2.5, lt.constant(1, lt.int32))


def test_nn_against_formulas():
    x = np.linspace(-3, 3, 13)
    np.testing.assert_allclose(lt.nn.relu(x).numpy(), np.maximum(x, 0))
    np.testing.assert_allclose(lt.nn.relu6(x * 3).numpy(), np.clip(x * 3, 0, 6))
    np.testing.assert_allclose(lt.nn.leaky_relu(x).numpy(), np.where(x > 0, x, 0.2 * x))
    np.testing.assert_allclose(lt.nn.swish(x).numpy(), x / (1 + np.exp(-x)), rtol=1e-12)
    np.testing.assert_allclose(lt.nn.softsign(x).numpy(), x / (1 + np.abs(x)))
    ls = x - np.log(np.exp(x).sum())
    np.testing.assert_allclose(lt.nn.log_softmax(x).numpy(), ls, rtol=1e-12)
    img = np.arange(16, dtype=np.float32).reshape(1, 2, 2, 4)
    assert lt.nn.depth_to_space(lt.nn.space_to_depth(lt.nn.depth_to_space(img, 2), 2), 2).shape == (1, 4, 4, 1)


def test_linalg():
    m = np.arange(9, dtype=np.float64).reshape(3, 3)
    assert lt.linalg.trace(m).numpy() == np.trace(m)
    assert lt.linalg.diag_part(m).numpy().tolist() == np.diag(m).tolist()
    assert lt.linalg.diag([1, 2]).numpy().tolist() == [[1, 0], [0, 2]]
    assert lt.linalg.matrix_transpose(m).numpy().tolist() == m.T.tolist()
    assert lt.linalg.matmul(m, m, transpose_b=True).numpy().tolist() == (m @ m.T).tolist()
    assert k(lt.linalg.matmul([[1, 2]], [[3], [4]])) == ("int32", True)


def test_image():
    img = np.array([[[[0.1], [0.5]]]], dtype=np.float32)
    np.testing.assert_allclose(lt.image.adjust_brightness(img, 0.2).numpy(), img + 0.2, rtol=1e-6)
    np.testing.assert_allclose(lt.image.adjust_gamma(img, 2).numpy(), img**2, rtol=1e-6)
    x = np.arange(1, 10, dtype=np.int32).reshape(1, 3, 3, 1)
    p = lt.image.extract_patches(x, [1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], "VALID")
    assert p.shape == (1, 2, 2, 4) and p.numpy().ravel().tolist()[:4] == [1, 2, 4, 5]
    a = lt.image.stateless_random_brightness(img, 0.1, seed=(1, 2))
    b = lt.image.stateless_random_brightness(img, 0.1, seed=(1, 2))
    assert np.array_equal(a.numpy(), b.numpy())
    assert lt.image.random_brightness(img, 0.1).shape == img.shape


def test_check_numerics():
    assert lt.debugging.check_numerics([1.0, 2.0], "ok").numpy().tolist() == [1.0, 2.0]
    with pytest.raises(lt.errors.InvalidArgumentError, match="after layer 3"):
        lt.debugging.check_numerics(np.array([np.nan]), "after layer 3")


def test_tnp_creation_is_weak_for_python_values():
    assert k(lt.numpy.array(1)) == ("int32", True) and k(lt.numpy.array(1.0)) == ("float32", True)
    assert k(lt.numpy.asarray(np.float64(1))) == ("float64", False)
    assert k(lt.numpy.arange(5)) == ("int32", True) and lt.numpy.arange(1, 4).numpy().tolist() == [1, 2, 3]
    assert k(lt.numpy.arange(5, dtype=lt.int64)) == ("int64", False)
    assert k(lt.numpy.array([1, 2], dtype=lt.float16)) == ("float16", False)
    assert lt.numpy.array(1, ndmin=2).shape == (1, 1)


def test_creation_helpers():
    assert lt.zeros([2, 3]).dtype == lt.float32 and lt.ones([2], lt.int8).numpy().tolist() == [1, 1]
    assert lt.fill([2], 7).numpy().tolist() == [7, 7] and not lt.fill([2], 7).weak
    assert lt.range(5).numpy().tolist() == [0, 1, 2, 3, 4] and lt.range(1, 2, 0.5).dtype == lt.float32
    assert lt.eye(2).numpy().tolist() == [[1, 0], [0, 1]]
    assert lt.linspace(0, 1, 3).numpy().tolist() == [0, 0.5, 1]


def test_einsum_and_bitcast_front_doors():
    a = np.ones((2, 3), np.float32)
    assert lt.einsum("ij->j", a).numpy().tolist() == [2, 2, 2]
    assert lt.einsum("ij,jk->ik", [a, a.T]).shape == (2, 2)  # TF also takes one list
    assert lt.numpy.einsum("ij", a).shape == (2, 3)  # NumPy's implicit output
    assert lt.bitcast(lt.constant(1.0, lt.float32), lt.int32).numpy() == 0x3F800000
