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
