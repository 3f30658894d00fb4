"""A TF-NumPy program ports by changing its imports: expressions evaluated by TF 2.21
(data/tnp_port_golden.json, from scripts/golden/tnp_port.py) give the same dtype,
weakness, shape and values with `tf` = lattensor and `tnp` = lattensor.experimental.numpy.

Exceptions, each in docs/deviations.md:

* `WEAK_BY_LATTICE`: tf.stack/tf.where and tnp's binary functions (`tnp.add`,
  `tnp.power`, …) of weak inputs. TF's forms are not on the WeakTensor list and return
  strong tensors; lattensor's carry the lattice join's weakness, as `+` does.
* `EXTENSIONS`: TF raises, lattensor computes NumPy's result (`concatenate(axis=None)`,
  `x.transpose(2, 0, 1)`, `tf.where(True)`, `take(mode='raise')`, `arctan2` of integers,
  `tnp.split` at negative or decreasing indices, `tnp.pad` with NumPy's `pad_width`
  forms, mirrors longer than the axis, or no `mode`), the lattice's join
  (`tf.math.atan2(float32, float64)`), or computes where TF has no kernel (`tf.unique` of
  complex numbers, `tf.one_hot` of int16/uint32 indices) or refuses an axis
  (`one_hot(axis=-2)`).
* tnp's bitwise functions, `divmod`, `gcd`/`lcm`, `cross`, `select`, `polyval`,
  `float_power`, `nextafter`, `hstack`/`vstack`/`dstack` join weakness through the
  lattice; `nansum`/`nanprod` keep it as `sum`/`prod`; `roll`/`tril` as `reshape`/`triu`
  (`WEAK_BY_LATTICE`). Non-tensor answers (`ndim`, `shape`, `isscalar`, `result_type`,
  `promote_types`) are compared as Python values.
* `tnp.append` promotes like `tnp.concatenate` (the lattice's join, weakness included),
  so appending weak values gives a weak result (`WEAK_BY_LATTICE`).

Expressions returning a list or tuple of tensors (`tf.split`, `tf.unique`) are
compared part by part.
* cases marked "deviation" in the golden data: TF ignores `linspace`'s dtype; TF's
  `isclose` finds inf not close to inf (NumPy and lattensor: close); TF's argmax/argmin
  skip NaN (NumPy and lattensor: the first NaN is the answer); TF's meshgrid joins
  `int32*` and `int16` to int32 (the lattice: int16); TF's `hypot` overflows in between
  and computes bfloat16 as float32, `heaviside(nan)` is not NaN, and Python floats make
  `arctan2`/`heaviside` float64.
* `tnp.random`/`tf.random`'s stateful generators (cases marked "random"): dtype,
  weakness and shape as TF's; the values are another stream (the stateless generators
  are compared value by value). `RANDOM_EXTENSIONS`: an int `size` TF refuses.
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

#: tnp.random with an int size: TF 2.21 raises (its shape must be a vector), NumPy and lattensor accept it.
RANDOM_EXTENSIONS = {
    "tnp.random.random(3)": {"dtype": "float32", "shape": [3], "weak": False},
    "tnp.random.uniform(1, 2, 3)": {"dtype": "float32", "shape": [3], "weak": False},
}

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
    # append joins like concatenate: weak operands give a weak result
    "tnp.append([1, 2], [3, 4])", "tnp.append(tnp.array([1, 2]), [3.5])", "tnp.append(tf.constant([1, 2], tf.int8), [3.5])",
    "tnp.append([[1, 2], [3, 4]], [[5, 6]], axis=0)", "tnp.append([[1, 2], [3, 4]], [[5], [6]], axis=1)",
    "tnp.append([[1, 2], [3, 4]], [[5, 6]])", "tnp.append(1.0, 2)", "tnp.append([True], [2])",
    "tnp.append(tf.constant([1 + 1j]), [2])", "tnp.append([], [1])", "tnp.append([[1, 2]], [[3, 4]], axis=-1)",
    # bitwise functions, divmod, gcd/lcm and cross are the lattice's ops (TF's are strong)
    "tnp.bitwise_and([12, 10], 6)",
    "tnp.bitwise_and(tnp.array(5), tnp.array(3))",
    "tnp.cross([1, 2, 3], [4, 5, 6])",
    "tnp.cross(tf.constant([1.0, 2.0]), tf.constant([4.0, 5.0, 6.0]))",
    "tnp.cross(tf.constant([4.0, 5.0, 6.0]), tf.constant([1.0, 2.0]))",
    "tnp.cross(tf.constant([[1, 2, 3], [4, 5, 6]]), tf.constant([[4, 5, 6], [1, 2, 3]]))",
    "tnp.cross(tf.constant([[1.0, 0.0, 0.0]]), tf.constant([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]), axisc=0)",
    "tnp.cross(tnp.array([1.0, 2.0]), tnp.array([4.0, 5.0]))",
    "tnp.divmod(tf.constant([7, -7]), 2)",
    "tnp.divmod(tf.constant([7.5, -7.0]), 2)",
    "tnp.gcd(tf.constant([0, 5]), tf.constant([0, 0]))",
    "tnp.gcd(tf.constant([12, 18]), 8)",
    "tnp.lcm(tf.constant([0, 5]), tf.constant([0, 3]))",
    "tnp.lcm(tf.constant([4, 6]), 6)",
    # nansum/nanprod keep weakness as sum/prod do (TF's go through a strong tf.where)
    "tnp.nanprod(tf.constant([2.0, float('nan'), 3.0]))",
    "tnp.nanprod(tf.constant([[2.0, float('nan')], [2.0, 3.0]]), axis=1)",
    "tnp.nansum(tf.constant([1.0, float('nan'), 2.0]))",
    "tnp.nansum(tf.constant([[1.0, float('nan')], [2.0, 3.0]]), axis=0)",
    # hstack/vstack/dstack join like concatenate; roll keeps weakness as reshape and tile do
    "tnp.dstack([tf.constant([1, 2]), tf.constant([3, 4])])",
    "tnp.hstack([tf.constant(1.0), tf.constant([2.0, 3.0])])",
    "tnp.roll(tf.constant([1.0, 2.0, 3.0, 4.0]), -5)",
    "tnp.roll(tf.constant([[1, 2, 3], [4, 5, 6]]), (1, -1), axis=(0, 1))",
    "tnp.roll(tf.constant([[1, 2, 3], [4, 5, 6]]), (1, 1), axis=(1, 1))",
    "tnp.roll(tf.constant([[1, 2], [3, 4]]), 1)",
    "tnp.roll(tf.constant([[1, 2], [3, 4]]), 1, axis=0)",
    "tnp.vstack([tf.constant(1), tf.constant(2)])",
    # float_power/nextafter/select/polyval join through the lattice; tril keeps weakness as triu does
    "tnp.float_power(tf.constant([4.0]), 0.5)", "tnp.nextafter(tf.constant([1.0]), 2.0)",
    "tnp.select([tnp.array([True, False, False]), tnp.array([False, True, False])], [tnp.array([1, 2, 3]), tnp.array([4, 5, 6])])",
    "tnp.select([[True, False]], [[1.5, 2.5]])", "tnp.polyval([1, 2, 3], 2)",
    "tnp.polyval([1.0, 0.5], tnp.array([1.0, 2.0]))", "tnp.tril([[1, 2], [3, 4]])",
}


def _np(a):
    """NumPy's answer in the comparison format: (dtype name, shape, encoded values)."""
    a = np.asarray(a)
    return (a.dtype.name, list(a.shape), encode(a))
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
    # NumPy's split indices: Python slicing between consecutive cuts (TF: ValueError)
    "tnp.split(tnp.arange(6), [4, 1])": [_np(p) for p in np.split(np.arange(6, dtype=np.int32), [4, 1])],
    "tnp.split(tnp.arange(6), [-2])": [_np(p) for p in np.split(np.arange(6, dtype=np.int32), [-2])],
    # NumPy's pad_width forms and mirrors (TF accepts only ((b0, a0), …) and mirrors shorter than the axis)
    "tnp.pad(tnp.array([1, 2, 3]), 1, 'constant')": _np(np.pad(np.int32([1, 2, 3]), 1)),
    "tnp.pad(tnp.array([[1, 2], [3, 4]]), (1, 2), 'constant')": _np(np.pad(np.int32([[1, 2], [3, 4]]), (1, 2))),
    "tnp.pad(tnp.array([1, 2, 3]), ((4, 4),), 'reflect')": _np(np.pad(np.int32([1, 2, 3]), ((4, 4),), "reflect")),
    # mode defaults to "constant", as in NumPy (TF's tnp.pad requires it)
    "tnp.pad(tnp.array([1, 2, 3]), 1)": _np(np.pad(np.int32([1, 2, 3]), 1)),
    "tnp.pad(tnp.array([[1, 2], [3, 4]]), [[1], [2]], 'symmetric')":
        _np(np.pad(np.int32([[1, 2], [3, 4]]), [[1], [2]], "symmetric")),
    "tnp.pad(7, 2, 'constant')": _np(np.pad(np.int32(7), 2)),
    # complex unique (TF 2.21: NotFoundError, no kernel)
    "tf.unique(tf.constant([1 + 1j, 1 + 1j, 2j]))": [("complex128", [2], [[1.0, 1.0], [0.0, 2.0]]),
                                                    ("int32", [3], [0.0, 0.0, 1.0])],
    "tf.unique(tf.constant([1 + 1j, 1 + 1j, 2j], tf.complex64))": [("complex64", [2], [[1.0, 1.0], [0.0, 2.0]]),
                                                                  ("int32", [3], [0.0, 0.0, 1.0])],
    # a negative axis counts from the end of the result (TF accepts only -1): axis=-2 is axis=1 here
    "tf.one_hot([[0, 2], [1, 1]], 3, axis=-2)":
        ("float32", [2, 3, 2], [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0]),
    # every integer dtype indexes (TF: uint8, int8, int32, int64 only)
    "tf.one_hot(tf.constant([0, 2], tf.int16), 3)": ("float32", [2, 3], [1.0, 0.0, 0.0, 0.0, 0.0, 1.0]),
    "tf.one_hot(tf.constant([0, 2], tf.uint32), 3)": ("float32", [2, 3], [1.0, 0.0, 0.0, 0.0, 0.0, 1.0]),
    # NumPy's predicates of complex numbers (TF has no complex kernel): either part NaN / infinite
    "tnp.isnan(tf.constant([1 + 1j, complex('nan')]))": ("bool", [2], [False, True]),
    "tnp.isfinite(tf.constant([1 + 1j, complex('inf'), complex('nan')], tf.complex64))":
        ("bool", [3], [True, False, False]),
    # array-likes are converted (TF: AttributeError on a list)
    "tnp.isinf([1.0, float('inf'), -float('inf')])": ("bool", [3], [False, True, True]),
    "tnp.isneginf([1.0, -float('inf')])": ("bool", [2], [False, True]),
    "tnp.logaddexp([1.0, 2.0], [3.0, -1.0])": _np(np.logaddexp(np.float32([1, 2]), np.float32([3, -1]))),
    # NumPy's sign of unsigned integers, nansum of complex, tril of bool, argsort of bool
    "tnp.sign(tf.constant([0, 3], tf.uint8))": ("uint8", [2], [0.0, 1.0]),
    "tnp.nansum(tf.constant([1 + 1j, complex('nan')]))": ("complex128", [], [[1.0, 1.0]]),
    "tnp.tril(tf.constant([[True, True], [True, True]]))": ("bool", [2, 2], [True, False, True, True]),
    "tnp.argsort(tf.constant([True, False]))": ("int32", [2], [1.0, 0.0]),
    # NumPy's roll: one shift broadcast over several axes
    "tnp.roll(tf.constant([[1, 2, 3], [4, 5, 6]]), 2, axis=(0, 1))":
        _np(np.roll(np.int32([[1, 2, 3], [4, 5, 6]]), 2, axis=(0, 1))),
    # every integer dtype multiplies, joined by the lattice (TF's matmul has no int8/int16 kernel)
    "tnp.inner(tf.constant([1, 2], tf.int8), tf.constant([3, 4], tf.int8))": ("int8", [], [11.0]),
    "tnp.inner(tf.constant([1, 2], tf.int8), tf.constant([3, 4], tf.int16))": ("int16", [], [11.0]),
    "tnp.tensordot(tf.constant([[1, 2], [3, 4]], tf.int16), tf.constant([[5], [6]], tf.int16), axes=(-1, 0))":
        ("int16", [2, 1], [17.0, 39.0]),
    "tnp.gcd(tf.constant([4], tf.uint8), tf.constant([6], tf.uint8))": ("uint8", [1], [2.0]),
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
    "tnp.logspace(0, 1, 3, endpoint=False)": _np(np.float32(np.logspace(0, 1, 3, endpoint=False))),
    "tnp.logspace(0, 2, 3, dtype=tnp.float64)": ("float64", [3], [1.0, 10.0, 100.0]),
    "tnp.logspace(0, 2, 3, dtype=int)": ("int32", [3], [1.0, 10.0, 100.0]),
    "tnp.geomspace(1, 1000, 4)": ("float32", [4], [1.0, 10.0, 100.0, 1000.0]),
    "tnp.float_power(2, 0.5)": _np(np.float32(np.sqrt(2))),
    "tnp.logaddexp(1, 2)": _np(np.logaddexp(np.float32(1), np.float32(2))),
    "tnp.logaddexp2(tf.constant([1.0, 3.0]), tf.constant([3.0, -1.0]))":
        _np(np.logaddexp2(np.float32([1, 3]), np.float32([3, -1]))),
    "tnp.logaddexp2(1, tf.constant([2], tf.int8))": _np(np.logaddexp2(np.float32([1]), np.float32([2]))),
}


def _python(got):
    """A non-tensor answer (tnp.ndim/shape/size/isscalar/result_type) in the golden format."""
    if isinstance(got, tuple):
        return [int(d) for d in got]
    if isinstance(got, (tf.DType, np.dtype)):
        return got.name
    return got if isinstance(got, bool) else int(got)


def _summary(got):
    """(dtype name, shape, values) of a tensor, or a list of those for a list/tuple of tensors."""
    if isinstance(got, (list, tuple)):
        return [_summary(g) for g in got]
    return (got.dtype.name, list(got.shape), encode(got))


@pytest.mark.parametrize("case", GOLDEN["cases"], ids=lambda c: c["expr"][:60])
def test_expression_matches_tf(case):
    expr, want = case["expr"], case["out"]
    got = eval(expr)  # noqa: S307 (the golden file's own expressions)
    if case.get("random"):
        # values differ from TF's (another stream); dtype, weakness and shape do not
        if expr in RANDOM_EXTENSIONS:
            assert "error" in want
            want = RANDOM_EXTENSIONS[expr]
        assert (got.dtype.name, list(got.shape), got.weak) == (want["dtype"], want["shape"], want["weak"])
        assert np.all(np.isfinite(np.asarray(got, np.float64)))
        return
    if expr in EXTENSIONS:
        assert "error" in want
        assert _summary(got) == EXTENSIONS[expr]
        return
    if expr in DEVIATIONS:
        assert "deviation" in case and want != {"dtype": DEVIATIONS[expr][0], "weak": False,
                                                 "shape": DEVIATIONS[expr][1], "values": DEVIATIONS[expr][2]}
        assert (got.dtype.name, list(got.shape), encode(got)) == DEVIATIONS[expr]
        return
    if "python" in want:
        assert isinstance(got, (bool, int, tuple, tf.DType, np.dtype)), got
        assert isinstance(got, bool) == isinstance(want["python"], bool), got
        assert _python(got) == want["python"]
        return
    if "parts" in want:
        # a list (tf.split) or named tuple (tf.unique) of tensors: each part as TF's
        assert isinstance(got, (list, tuple)) and type(got).__name__ in ("list", "tuple", "Unique", "UniqueWithCounts")
        assert len(got) == len(want["parts"]), (len(got), len(want["parts"]))
        for g, w in zip(got, want["parts"]):
            _check_one(expr, g, w)
        return
    _check_one(expr, got, want)


def _check_one(expr, got, want):
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


def test_split_parts_are_strong_views_and_refuse_what_tf_refuses():
    x = tf.range(6)
    # TF 2.21: InvalidArgumentError for counts that do not divide, counts < 1, sizes that do
    # not sum to the length, two -1s, a -1 left negative, negative sizes, non-integer sizes
    for bad in (4, 0, -1, [1, 2], [1, -1, -1], [7, -1], [-2, 8], [2.0, 4.0]):
        with pytest.raises(tf.errors.InvalidArgumentError, match="split"):
            tf.split(x, bad)
    with pytest.raises(tf.errors.InvalidArgumentError, match="axis 2"):
        tf.split(tf.reshape(x, [2, 3]), 3, axis=2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="0-d"):
        tf.split(tf.constant(5), 1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="num=3"):
        tf.split(x, [2, 4], num=3)
    # TF: ValueError "Rank-0 tensors are not supported as the num_or_size_splits argument"
    for bad in (2.0, tf.constant(3)):
        with pytest.raises(ValueError):
            tf.split(x, bad)
    for bad in (4, 0):
        with pytest.raises(tf.errors.InvalidArgumentError):
            tnp.split(tnp.arange(6), bad)
    with pytest.raises(tf.errors.InvalidArgumentError):
        tnp.split(5, 1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="hsplit"):
        tnp.hsplit(tnp.array(5), 1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="dsplit"):
        tnp.dsplit(tnp.ones((2, 2)), 2)
    # the parts view the input's memory (no copy), in its dtype, strong
    big = tf.reshape(tf.range(10_000, dtype=tf.float64), [1000, 10])
    parts = tf.split(big, [3, -1], axis=1)
    assert [list(p.shape) for p in parts] == [[1000, 3], [1000, 7]]
    assert all(np.shares_memory(np.asarray(p), np.asarray(big)) for p in parts)
    assert all(not p.weak and p.dtype == tf.float32 for p in tnp.split(tnp.array([1.0, 2.0]), 2))


def test_pad_refuses_what_tf_refuses():
    v = tf.constant([1, 2, 3])
    # TF 2.21: InvalidArgumentError for mirrors too long, negative paddings, paddings of
    # the wrong shape or dtype, non-scalar or mistyped constant_values
    for paddings, mode in [([[3, 0]], "REFLECT"), ([[4, 0]], "SYMMETRIC"), ([[-1, 1]], "CONSTANT"),
                           ([[1, 1], [1, 1]], "CONSTANT"), ([1, 1], "CONSTANT"), ([[1, 1, 1]], "CONSTANT"),
                           ([[1.0, 1.0]], "CONSTANT"), ([], "CONSTANT")]:
        with pytest.raises(tf.errors.InvalidArgumentError, match="pad"):
            tf.pad(v, paddings, mode)
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.pad(tf.zeros([0]), [[0, 0]], "REFLECT")  # TF: 0 is not less than 0
    for c in ([2.0], tf.constant(2.0, tf.float64)):
        with pytest.raises(tf.errors.InvalidArgumentError):
            tf.pad(tf.constant([1.0]), [[1, 1]], constant_values=c)
    with pytest.raises(ValueError, match="WRAP"):
        tf.pad(v, [[1, 1]], "WRAP")
    a = tnp.array([1, 2, 3])
    for mode in ("edge", "wrap", "CONSTANT"):  # NumPy's lower-case names only, as TF's tnp
        with pytest.raises(ValueError, match="mode"):
            tnp.pad(a, 1, mode)
    with pytest.raises(tf.errors.InvalidArgumentError, match="non-negative"):
        tnp.pad(a, -1, "constant")
    with pytest.raises(tf.errors.InvalidArgumentError, match="single value"):
        tnp.pad(a, ((1, 1),), "constant", constant_values=(8, 9))
    with pytest.raises(tf.errors.InvalidArgumentError, match="broadcast"):
        tnp.pad(tnp.ones((2, 2)), [[1, 2, 3]], "constant")
    with pytest.raises(tf.errors.UnimplementedError, match="odd"):
        tnp.pad(a, 1, "reflect", reflect_type="odd")  # TF ignores it and pads as "even"
    with pytest.raises(ValueError, match="foo"):
        tnp.pad(a, 1, "constant", foo=1)
    assert not tf.pad(tnp.array([1.0]), [[1, 1]]).weak


def test_append_refuses_what_concatenate_refuses():
    with pytest.raises(tf.errors.InvalidArgumentError, match="rank"):
        tnp.append([[1, 2], [3, 4]], [5, 6], axis=0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="axis 1"):
        tnp.append([1, 2], [3], axis=1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="scalars"):
        tnp.append(1, 2, axis=0)
    with pytest.raises(tf.errors.InvalidArgumentError):
        tnp.append([[1, 2]], [[1, 2, 3]], axis=0)
    with tf.promotion_mode("safe"), pytest.raises(TypeError):
        tnp.append(tf.constant([1], tf.int32), tf.constant([1.0], tf.float32))


def test_unique_returns_named_tuples_and_refuses_what_tf_refuses():
    u = tf.unique(tf.constant([4, 4, 2]))
    assert type(u).__name__ == "Unique" and u._fields == ("y", "idx")
    assert u.y.numpy().tolist() == [4, 2] and u.idx.numpy().tolist() == [0, 0, 1]
    c = tf.unique_with_counts(tf.constant([4, 4, 2]), out_idx=tf.int64)
    assert c._fields == ("y", "idx", "count") and c.count.dtype == tf.int64
    y, idx = tf.unique([float("nan"), float("nan")])  # NaN != NaN: two distinct values, as TF
    assert y.shape == (2,) and idx.numpy().tolist() == [0, 1]
    for bad in (tf.constant([[1, 2], [1, 2]]), tf.constant(5)):
        with pytest.raises(tf.errors.InvalidArgumentError, match="1-D"):
            tf.unique(bad)
        with pytest.raises(tf.errors.InvalidArgumentError, match="1-D"):
            tf.unique_with_counts(bad)
    for out_idx in (tf.int16, tf.float32):
        with pytest.raises(tf.errors.InvalidArgumentError, match="out_idx"):
            tf.unique(tf.constant([1, 1, 2]), out_idx=out_idx)


def test_one_hot_refuses_what_tf_refuses():
    # TF 2.21: InvalidArgumentError from the kernel, TypeError from one_hot's dtype checks
    for kwargs in [dict(indices=tf.constant([0.0, 2.0]), depth=3), dict(indices=[0, 1], depth=-1),
                   dict(indices=[0, 1], depth=[2]), dict(indices=[[0, 2]], depth=3, axis=3),
                   dict(indices=[0, 2], depth=3, on_value=[2.0])]:
        with pytest.raises(tf.errors.InvalidArgumentError, match="one_hot"):
            tf.one_hot(**kwargs)
    for kwargs in [dict(depth=2.0), dict(depth=3, on_value=5.0, off_value=1), dict(depth=3, on_value=5, off_value=1.0),
                   dict(depth=3, dtype=tf.bool), dict(depth=3, on_value=2.5, dtype=tf.int32),
                   dict(depth=3, on_value=tf.constant(2, tf.int64), off_value=tf.constant(0, tf.int32)),
                   dict(depth=3, on_value=tf.constant(2, tf.int64), dtype=tf.int32),
                   dict(depth=3, on_value=tnp.array(2.0), dtype=tf.float16),
                   dict(depth=3, on_value=1.5, off_value=np.float64(0))]:
        with pytest.raises(TypeError):
            tf.one_hot([0, 2], **kwargs)
    assert not tf.one_hot([0], 2, on_value=tnp.array(1.0)).weak
