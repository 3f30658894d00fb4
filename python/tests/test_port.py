"""A TF-NumPy program ports by changing its imports: expressions evaluated by TF 2.21
(data/tnp_port_golden.json, from scripts/golden/tnp_port.py) give the same dtype,
weakness, shape and values with `tf` = lattensor and `tnp` = lattensor.experimental.numpy.

Exceptions, each in docs/deviations.md:

* `WEAK_BY_LATTICE`: tf.stack/tf.where and tnp's binary functions (`tnp.add`,
  `tnp.power`, …) of weak inputs. TF's forms are not on the WeakTensor list and return
  strong tensors; lattensor's carry the lattice join's weakness, as `+` does.
* `EXTENSIONS`: TF raises, lattensor computes NumPy's result (`concatenate(axis=None)`,
  `x.transpose(2, 0, 1)`, `tf.where(True)`, `take(mode='raise')`, `arctan2` of integers)
  or the lattice's join (`tf.math.atan2(float32, float64)`).
* cases marked "deviation" in the golden data: TF ignores `linspace`'s dtype; TF's
  `isclose` finds inf not close to inf (NumPy and lattensor: close); TF's argmax/argmin
  skip NaN (NumPy and lattensor: the first NaN is the answer); TF's meshgrid joins
  `int32*` and `int16` to int32 (the lattice: int16); TF's `hypot` overflows in between
  and computes bfloat16 as float32, `heaviside(nan)` is not NaN, and Python floats make
  `arctan2`/`heaviside` float64.
* `linspace` values are NumPy's, computed in float64 and rounded once (correctly
  rounded); TF computes in float32 and can be 1 ulp off (`linspace(1, 2, 7)[4]`).
"""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest

import lattensor as tf
import lattensor.experimental.numpy as tnp
from conftest import encode_values as encode

GOLDEN = json.loads((pathlib.Path(__file__).parent / "data" / "tnp_port_golden.json").read_text())

WEAK_BY_LATTICE = {
    "tf.stack([tf.constant([1, 2]), tf.constant([3, 4])], axis=1)",
    "tf.where(tf.constant([True, False, True]), tf.constant([1.0, 2.0, 3.0]), tf.constant([9.0, 8.0, 7.0]))",
    "tnp.where(tnp.array([1, 0, 1]) > 0, 1.0, 2.0)",
    "tf.where(tf.constant([[True], [False]]), tf.constant([1, 2]), tf.constant(0))",
    # NumPy's binary functions are the lattice's ops: `tnp.add(i32*, i32*)` is `i32*`, as `+` is
    "tnp.add(tnp.array(1), 2)", "tnp.add([1, 2], 2.5)", "tnp.add(tf.constant([1], tf.int8), 2.5)",
    "tnp.true_divide([1, 2], 2)", "tnp.floor_divide([7, -7], 2)", "tnp.mod([7, -7], 3)",
    "tnp.remainder([7.5, -7], 3)", "tnp.power([2, 3], 2)", "tnp.power(2.0, [0.5, 3])", "tnp.dot(2, [3, 4])",
    # atan2, arctan2, hypot and heaviside are the lattice's join too
    "tnp.arctan2(tf.constant([1.0, -0.0]), tf.constant([-1.0, -1.0]))", "tf.math.atan2(tf.constant(1.0), 2.0)",
    "tf.math.atan2(tf.constant([1.0]), 2)", "tf.math.atan2(tf.constant([0.0, -0.0, 0.0]), tf.constant([-0.0, -0.0, 0.0]))",
    "tnp.heaviside(tnp.array([-1.0, 0.0, 2.0]), 0.5)", "tnp.heaviside(tf.constant([-1, 0, 2]), 1)",
    "tnp.heaviside(tnp.array(-1.0), 2)",
    # tile keeps its input's weakness, as reshape does
    "tnp.tile(tnp.array([1, 2]), 2)", "tnp.tile([1.5], (2, 1, 3))", "tnp.tile(7, 3)",
}
EXTENSIONS = {
    "tnp.concatenate([tnp.ones((2, 2)), tnp.zeros((2, 2))], axis=None)": ("float32", [8], [1.0] * 4 + [0.0] * 4),
    # NumPy's `argwhere` of a 0-d condition: one match, no coordinates
    "tf.where(True)": ("int64", [1, 0], []),
    # NumPy's `x.transpose(*axes)`
    "tnp.arange(6).reshape(1, 2, 3).transpose(2, 0, 1)": ("int32", [3, 1, 2], [0.0, 3.0, 1.0, 4.0, 2.0, 5.0]),
    # NumPy's take mode; TF supports only 'clip' and 'wrap'
    "tnp.take(tnp.array([1, 2, 3]), [-1], mode='raise')": ("int32", [1], [3.0]),
    # integers computed in float32 as by every tnp float function (TF has no integer atan2 kernel)
    "tnp.arctan2(1, 2)": ("float32", [], [0.46364760398864746]),
    "tnp.arctan2(tf.constant([1], tf.int8), 2)": ("float32", [1], [0.46364760398864746]),
    # the lattice's join (TF refuses mixed dtypes outside the WeakTensor list)
    "tf.math.atan2(tf.constant([1.0]), tf.constant([2.0], tf.float64))": ("float64", [1], [0.4636476090008061]),
}
DEVIATIONS = {
    "tnp.linspace(0, 10, 5, dtype=int)": ("int32", [5], [0.0, 2.0, 5.0, 7.0, 10.0]),
    "tnp.linspace(0.0, 1.0, 3, dtype=tnp.float64)": ("float64", [3], [0.0, 0.5, 1.0]),
    "tnp.isclose([1.0, float('inf'), -float('inf')], [1.0, float('inf'), float('inf')])":
        ("bool", [3], [True, True, False]),
    "tf.argmax(tf.constant([1.0, float('nan'), 3.0]))": ("int64", [], [1.0]),
    # the lattice's join: i32* ⊔ i16 = i16 (TF's meshgrid joins them to int32)
    "tnp.meshgrid(tnp.arange(2), tnp.arange(3), tf.constant([7, 8], tf.int16))[2]":
        ("int16", [3, 2, 2], [7.0, 8.0] * 6),
    "tnp.argmin(tf.constant([1.0, 3.0, float('nan')]))": ("int64", [], [2.0]),
    "tnp.heaviside(tf.constant([float('nan'), -0.0]), 0.5)": ("float32", [2], ["nan", 0.5]),
    "tnp.hypot(tf.constant([3e30]), 4e30)": ("float32", [1], [4.9999999241216036e+30]),
    "tnp.hypot(tf.constant([float('inf')]), float('nan'))": ("float32", [1], ["inf"]),
    "tnp.hypot(tf.constant([3.0], tf.bfloat16), 4)": ("bfloat16", [1], [5.0]),
    "tnp.heaviside(1, 0.5)": ("float32", [], [1.0]),
    "tnp.arctan2(1.0, 2.0)": ("float32", [], [0.46364760398864746]),
}



@pytest.mark.parametrize("case", GOLDEN["cases"], ids=lambda c: c["expr"][:60])
def test_expression_matches_tf(case):
    expr, want = case["expr"], case["out"]
    got = eval(expr)  # noqa: S307 (the golden file's own expressions)
    if expr in EXTENSIONS:
        assert "error" in want
        assert (got.dtype.name, list(got.shape), encode(got)) == EXTENSIONS[expr]
        return
    if expr in DEVIATIONS:
        assert "deviation" in case and want != {"dtype": DEVIATIONS[expr][0], "weak": False,
                                                 "shape": DEVIATIONS[expr][1], "values": DEVIATIONS[expr][2]}
        assert (got.dtype.name, list(got.shape), encode(got)) == DEVIATIONS[expr]
        return
    assert "error" not in want, want
    assert (got.dtype.name, list(got.shape)) == (want["dtype"], want["shape"])
    assert got.weak == (want["weak"] or expr in WEAK_BY_LATTICE)
    if expr.startswith("tnp.linspace(") and encode(got) != want["values"]:
        # correctly rounded, where TF's float32 arithmetic is within an ulp of it
        exact = eval(expr.replace("tnp.", "np."))  # noqa: S307
        assert encode(got) == encode(np.asarray(exact, np.float32))
        spacing = np.spacing(np.abs(np.asarray(exact, np.float32)))
        assert np.all(np.abs(np.asarray(got) - np.asarray(want["values"], np.float64)) <= spacing)
        return
    assert encode(got) == want["values"]


def test_full_checks_the_shape_and_keeps_every_bit():
    with pytest.raises(ValueError, match="does not broadcast"):
        tnp.full((2,), [1, 2, 3])
    nan = np.frombuffer(np.array([0x7FC01234], np.uint32).tobytes(), np.float32)
    r = tnp.full((3,), tf.constant(nan))
    assert np.asarray(r).view(np.uint32).tolist() == [0x7FC01234] * 3
    assert tnp.linspace(0, 1, 4, retstep=True)[1] == pytest.approx(1 / 3)


def test_broadcast_to_is_a_strong_view_and_refuses_what_tf_refuses():
    # TF 2.21: InvalidArgumentError "Incompatible shapes: [3] vs. [2,2]"
    with pytest.raises(tf.errors.InvalidArgumentError, match="broadcast_to"):
        tf.broadcast_to(tf.constant([1, 2, 3]), [2, 2])
    with pytest.raises(tf.errors.InvalidArgumentError):
        tnp.broadcast_to(tnp.ones((2, 3)), (3,))
    big = tf.broadcast_to(tf.constant([1.0, 2.0]), [1_000_000, 2])  # a view: no 8 MB copy
    assert not big.weak and list(big.shape) == [1_000_000, 2]
    assert float(tf.reduce_sum(big)) == 3_000_000.0


def test_gather_and_take_refuse_what_they_should():
    # TF 2.21: InvalidArgumentError "indices = 5 is not in [0, 2)"
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"= 5 is not in \[0, 2\)"):
        tf.gather(tf.constant([1.0, 2.0]), 5)
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.gather(tf.constant([1.0, 2.0]), -1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="at least 1-dimensional"):
        tf.gather(2.5, 0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="batch_dims"):
        tf.gather(tf.constant([[1, 2], [3, 4]]), [1, 0], axis=0, batch_dims=1)
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.gather(tf.constant([1, 2]), [0.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="out of bounds"):
        tnp.take(tnp.array([1, 2, 3]), 3, mode="raise")
    with pytest.raises(tf.errors.InvalidArgumentError, match="unknown mode"):
        tnp.take(tnp.array([1, 2, 3]), 0, mode="nope")
    with pytest.raises(ValueError, match="out argument"):
        tnp.take(tnp.array([1, 2, 3]), 0, out=tnp.zeros(1))
    # NumPy's take agrees wherever TF's modes are NumPy's
    a = np.arange(24, dtype=np.float64).reshape(2, 3, 4)
    for axis in (None, 0, 1, -1):
        for mode in ("clip", "wrap"):
            idx = [[5, -7], [0, 2]]
            assert np.array_equal(np.asarray(tnp.take(tf.constant(a), idx, axis=axis, mode=mode)),
                                  np.take(a, idx, axis=axis, mode=mode))
