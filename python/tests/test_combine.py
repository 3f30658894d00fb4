"""concat / stack / where (tf.* and tnp.*) against TensorFlow 2.21's tnp, pair by pair.

The golden data (data/tnp_combine_golden.json, from scripts/golden/tnp_combine.py)
holds TF's result for every pair of input kinds: a strong tensor of each dtype, or a
Python list of ints, floats or complexes. lattensor must give the same dtype, shape
and values, except where docs/deviations.md says otherwise:

* weakness: TF's tnp.concatenate/stack/where are not on the WeakTensor list and
  always return strong tensors; lattensor's results carry the lattice join's
  weakness, as `add` does (`stack([int8, [1.5, 2.0]])` is `f64*` like `int8 + 1.5`,
  where TF's is strong float64).
"""

from __future__ import annotations

import json
import pathlib

import pytest

import lattensor as lt
import lattensor.experimental.numpy as tnp
from conftest import encode_values

GOLDEN = json.loads((pathlib.Path(__file__).parent / "data" / "tnp_combine_golden.json").read_text())
PY = {"py_int": [1, 2], "py_float": [1.5, -2.0], "py_complex": [1 + 2j, -1j]}


def make(kind):
    if kind in PY:
        return PY[kind]
    return lt.constant([True, False] if kind == "bool" else [3, 4], dtype=kind)


def call(op, a, b):
    if op == "concatenate":
        return tnp.concatenate([a, b])
    if op == "stack":
        return tnp.stack([a, b], axis=1)
    return tnp.where(lt.constant([True, False]), a, b)


def lattice(a, b):
    """The lattice's join (dtype, weak) of the two inputs' types, as lattensor reports it."""
    return lt.result_type(make(a), make(b))


def _ids(c):
    return f"{c['op']}-{c['a']}-{c['b']}"


@pytest.mark.parametrize("case", GOLDEN["cases"], ids=_ids)
def test_matches_tf(case):
    op, a, b, want = case["op"], case["a"], case["b"], case["out"]
    assert "error" not in want  # TF accepts every pair; so must lattensor (in mode "all")
    got = call(op, make(a), make(b))
    assert (got.dtype.name, list(got.shape)) == (want["dtype"], want["shape"])
    assert not want["weak"]
    assert (got.dtype, got.weak) == lattice(a, b)
    assert encode_values(got) == want["values"]


def test_weak_results_are_the_lattices():
    # all weak: weak; a strong input that absorbs the weak one: strong
    assert tnp.stack([[1, 2], [1.5, 2.0]]).weak
    assert not lt.concat([lt.constant([1], lt.int8), [1]], 0).weak
    assert lt.concat([[1, 2], [1.5]], 0).dtype == lt.float32


def test_errors_name_the_op_and_the_fix():
    invalid = lt.errors.InvalidArgumentError
    with pytest.raises(invalid, match="concat: input 1 has rank 2"):
        lt.concat([lt.constant([1.0]), lt.constant([[1.0]])], 0)
    with pytest.raises(invalid, match="concat: incompatible shapes"):
        lt.concat([lt.constant([[1.0]]), lt.constant([[1.0, 2.0]])], 0)
    with pytest.raises(invalid, match="scalars"):
        lt.concat([lt.constant(1.0)], 0)
    with pytest.raises(invalid, match="stack"):
        lt.stack([lt.constant([1.0]), lt.constant([1.0, 2.0])])
    with pytest.raises(TypeError, match="list"):
        lt.concat(lt.constant([1.0]), 0)
    with pytest.raises(NotImplementedError, match="three-argument"):
        lt.where(lt.constant([True]), 1.0)
    with pytest.raises(invalid, match="condition must be bool, got int32"):
        lt.where(lt.constant([1]), 1.0, 2.0)
    with lt.promotion_mode("safe"), pytest.raises(TypeError):
        lt.concat([lt.constant([1], lt.int32), lt.constant([1.0], lt.float32)], 0)


def test_tf_and_tnp_forms():
    x = lt.reshape(lt.range(6), [2, 3])
    assert lt.concat([x, x], axis=-1).numpy().tolist() == [[0, 1, 2, 0, 1, 2], [3, 4, 5, 3, 4, 5]]
    assert tnp.concatenate([x, [[9, 9, 9]]], axis=0).shape == (3, 3)
    assert tnp.concatenate([x, [7]], axis=None).numpy().tolist() == [0, 1, 2, 3, 4, 5, 7]
    assert lt.stack([x, x], axis=2).shape == (2, 3, 2)
    assert tnp.stack((x, x)).shape == (2, 2, 3)
    # tnp.where takes any condition (nonzero is true); tf.where wants bool
    assert tnp.where([0, 2, -1], 1, 0.5).numpy().tolist() == [0.5, 1.0, 1.0]
    r = lt.where(lt.constant([[True], [False]]), lt.constant([1, 2], lt.int8), 0)
    assert (r.dtype, r.numpy().tolist()) == (lt.int8, [[1, 2], [0, 0]])
