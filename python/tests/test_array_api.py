"""lattensor.array_api against array-api-strict (the standard's reference
namespace): the same inputs through both, the same dtype, shape and values.

Inputs are drawn by Hypothesis with bounded examples; each check builds the
operands in both namespaces from one NumPy array, so any difference is the
function's, not the input's.
"""

from __future__ import annotations

import numpy as np
import pytest

hyp = pytest.importorskip("hypothesis")
strict = pytest.importorskip("array_api_strict")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.extra import numpy as hnp  # noqa: E402

import lattensor as lt  # noqa: E402
import lattensor.array_api as xp  # noqa: E402

SETTINGS = settings(max_examples=15, deadline=None, derandomize=True)

INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
REAL = ["float32", "float64"]
NUMERIC = INTS + REAL


def both(a: np.ndarray):
    """The same values as a lattensor and an array-api-strict array."""
    a = np.ascontiguousarray(a)
    return xp.asarray(a), strict.asarray(a)


def check(ours, theirs, *, rtol=None):
    """Same dtype name, shape and values (NaN equal; floats to a dtype-sized tolerance)."""
    if isinstance(theirs, (tuple, list)):
        assert isinstance(ours, (tuple, list)) and len(ours) == len(theirs)
        for o, t in zip(ours, theirs):
            check(o, t, rtol=rtol)
        return
    assert isinstance(ours, lt.Tensor), type(ours)
    assert ours.dtype.name == str(theirs.dtype).split(".")[-1], (ours.dtype, theirs.dtype)
    assert tuple(ours.shape) == tuple(theirs.shape)
    o, t = np.asarray(ours), np.asarray(theirs)
    if o.dtype.kind in "fc":
        tol = rtol if rtol is not None else (2e-5 if o.dtype in (np.float32, np.complex64) else 1e-12)
        np.testing.assert_allclose(o, t, rtol=tol, atol=tol, equal_nan=True)
    else:
        np.testing.assert_array_equal(o, t)


def arrays(dtypes, min_dims=0, max_dims=3, min_side=0, max_side=4, elements=None):
    return st.sampled_from(dtypes).flatmap(
        lambda d: hnp.arrays(
            np.dtype(d),
            hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side, max_side=max_side),
            elements=elements(d) if elements else None,
        )
    )


def finite(d):
    if np.dtype(d).kind == "f":
        return st.floats(-100, 100, width=np.dtype(d).itemsize * 8)
    info = np.iinfo(d)
    return st.integers(max(info.min, -100), min(info.max, 100))


# ---- element-wise --------------------------------------------------------

UNARY_FLOAT = ["abs", "acos", "asin", "atan", "ceil", "cos", "cosh", "exp", "expm1", "floor", "isfinite",
               "isinf", "isnan", "log", "log1p", "log2", "log10", "negative", "positive", "round", "sign",
               "signbit", "sin", "sinh", "square", "sqrt", "tan", "tanh", "trunc", "reciprocal",
               "conj", "acosh", "asinh", "atanh"]
UNARY_INT = ["abs", "ceil", "floor", "negative", "positive", "round", "sign", "square", "trunc", "bitwise_invert"]


@pytest.mark.parametrize("name", UNARY_FLOAT)
@SETTINGS
@given(a=arrays(REAL, elements=lambda d: st.floats(-3, 3, width=np.dtype(d).itemsize * 8)))
def test_unary_float(name, a):
    ours, theirs = both(a)
    with np.errstate(all="ignore"):
        check(getattr(xp, name)(ours), getattr(strict, name)(theirs), rtol=1e-4 if a.dtype == np.float32 else 1e-9)


@pytest.mark.parametrize("name", UNARY_INT)
@SETTINGS
@given(a=arrays(["int8", "int16", "int32", "int64"], elements=lambda d: st.integers(-100, 100)))
def test_unary_int(name, a):
    ours, theirs = both(a)
    check(getattr(xp, name)(ours), getattr(strict, name)(theirs))


BINARY = ["add", "subtract", "multiply", "maximum", "minimum", "equal", "not_equal", "less", "less_equal",
          "greater", "greater_equal"]


@pytest.mark.parametrize("name", BINARY + ["divide", "atan2", "hypot", "logaddexp", "copysign", "pow"])
@SETTINGS
@given(data=st.data(), d=st.sampled_from(REAL))
def test_binary_float(name, data, d):
    shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=3))
    a = data.draw(hnp.arrays(np.dtype(d), shape, elements=st.floats(0.25, 4, width=np.dtype(d).itemsize * 8)))
    b = data.draw(hnp.arrays(np.dtype(d), shape, elements=st.floats(-4, 4, width=np.dtype(d).itemsize * 8)))
    (a1, a2), (b1, b2) = both(a), both(b)
    check(getattr(xp, name)(a1, b1), getattr(strict, name)(a2, b2), rtol=1e-4 if d == "float32" else 1e-9)


@pytest.mark.parametrize("name", BINARY + ["floor_divide", "remainder", "bitwise_and", "bitwise_or", "bitwise_xor"])
@SETTINGS
@given(data=st.data(), d=st.sampled_from(INTS))
def test_binary_int_and_weak_scalars(name, data, d):
    shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=3))
    a = data.draw(hnp.arrays(np.dtype(d), shape, elements=st.integers(1, 10)))
    b = data.draw(hnp.arrays(np.dtype(d), shape, elements=st.integers(1, 10)))
    s = data.draw(st.integers(1, 5))
    (a1, a2), (b1, b2) = both(a), both(b)
    check(getattr(xp, name)(a1, b1), getattr(strict, name)(a2, b2))
    # a Python int is weak: the result keeps the array's dtype
    check(getattr(xp, name)(a1, s), getattr(strict, name)(a2, s))


def test_remainder_zero_takes_the_divisor_sign():
    x1 = xp.asarray([-0.0, 0.0, 3.0, -3.0], dtype=xp.float32)
    x2 = xp.asarray([1.0, -1.0, -1.5, 1.5], dtype=xp.float32)
    r = np.asarray(xp.remainder(x1, x2))
    assert (r == 0).all() and list(np.signbit(r)) == [False, True, True, False]
    assert np.array_equal(np.signbit(r), np.signbit(np.remainder(np.asarray(x1), np.asarray(x2))))
    r = np.asarray(xp.remainder(xp.asarray([-0.0, 0.0, 4.0, -4.0], dtype=xp.float32), -2.0))
    assert r.dtype == np.float32 and list(np.signbit(r)) == [True, True, True, True]
    # the % operator keeps TF's floormod: the dividend's sign
    assert list(np.signbit(np.asarray(x1 % x2))) == [True, False, False, True]


@SETTINGS
@given(a=arrays(NUMERIC, elements=finite), lo=st.integers(0, 20), width=st.integers(0, 30))
def test_clip(a, lo, width):
    ours, theirs = both(a)
    check(xp.clip(ours, lo, lo + width), strict.clip(theirs, lo, lo + width))


@SETTINGS
@given(a=arrays(REAL, elements=finite))
def test_operators_match_functions(a):
    ours, theirs = both(a)
    check(ours * 2 + 1, theirs * 2 + 1)
    check(-ours / 4, -theirs / 4)
    check(ours >= 0, theirs >= 0)


# ---- statistical, utility, searching, sorting, sets ----------------------


def axis_strategy(ndim):
    return st.one_of(st.none(), st.integers(-ndim, ndim - 1) if ndim else st.none())


@pytest.mark.parametrize("name", ["sum", "prod", "max", "min", "all", "any", "count_nonzero"])
@SETTINGS
@given(data=st.data())
def test_reductions(name, data):
    a = data.draw(arrays(NUMERIC + ["bool"] if name in ("all", "any", "count_nonzero", "sum") else NUMERIC,
                         min_side=1, elements=None if name in ("all", "any", "count_nonzero") else finite))
    axis = data.draw(axis_strategy(a.ndim))
    keepdims = data.draw(st.booleans())
    ours, theirs = both(a)
    with np.errstate(all="ignore"):
        check(getattr(xp, name)(ours, axis=axis, keepdims=keepdims),
              getattr(strict, name)(theirs, axis=axis, keepdims=keepdims), rtol=1e-3)


@pytest.mark.parametrize("name", ["mean", "std", "var"])
@SETTINGS
@given(data=st.data())
def test_float_statistics(name, data):
    a = data.draw(arrays(REAL, min_side=2, elements=finite))
    axis = data.draw(axis_strategy(a.ndim))
    kw = {"correction": 1} if name != "mean" else {}
    ours, theirs = both(a)
    check(getattr(xp, name)(ours, axis=axis, **kw), getattr(strict, name)(theirs, axis=axis, **kw), rtol=1e-3)


@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
@SETTINGS
@given(a=arrays(NUMERIC, min_dims=1, max_dims=1, elements=lambda d: finite(d) if np.dtype(d).kind == "f" else st.integers(0, 3)),
       include_initial=st.booleans())
def test_cumulative(name, a, include_initial):
    ours, theirs = both(a)
    check(getattr(xp, name)(ours, include_initial=include_initial),
          getattr(strict, name)(theirs, include_initial=include_initial), rtol=1e-4)


@pytest.mark.parametrize("name", ["argmax", "argmin"])
@SETTINGS
@given(data=st.data())
def test_argmax_argmin(name, data):
    a = data.draw(arrays(NUMERIC, min_dims=1, min_side=1, elements=finite))
    axis = data.draw(axis_strategy(a.ndim))
    keepdims = data.draw(st.booleans())
    ours, theirs = both(a)
    check(getattr(xp, name)(ours, axis=axis, keepdims=keepdims), getattr(strict, name)(theirs, axis=axis, keepdims=keepdims))


@pytest.mark.parametrize("name", ["sort", "argsort"])
@SETTINGS
@given(a=arrays(NUMERIC, min_dims=1, elements=lambda d: finite(d) if np.dtype(d).kind == "f" else st.integers(0, 5)),
       descending=st.booleans())
def test_sorting(name, a, descending):
    ours, theirs = both(a)
    check(getattr(xp, name)(ours, descending=descending), getattr(strict, name)(theirs, descending=descending))


@SETTINGS
@given(a=arrays(NUMERIC, min_dims=1, elements=lambda d: st.integers(0, 5)))
def test_sets_and_search(a):
    ours, theirs = both(a)
    check(xp.unique_values(ours), strict.unique_values(theirs))
    check(tuple(xp.unique_counts(ours)), tuple(strict.unique_counts(theirs)))
    check(tuple(xp.unique_inverse(ours)), tuple(strict.unique_inverse(theirs)))
    check(xp.nonzero(ours), strict.nonzero(theirs))
    s1, s2 = both(np.sort(a.reshape(-1)))
    check(xp.searchsorted(s1, ours.reshape(-1) if False else xp.reshape(ours, (-1,))),
          strict.searchsorted(s2, strict.reshape(theirs, (-1,))))
    check(xp.where(ours > 2, ours, xp.zeros_like(ours)), strict.where(theirs > 2, theirs, strict.zeros_like(theirs)))


# ---- manipulation, indexing, linear algebra ------------------------------


@SETTINGS
@given(a=arrays(NUMERIC + ["bool"], min_dims=1, elements=None), shift=st.integers(-5, 5))
def test_manipulation(a, shift):
    ours, theirs = both(a)
    nd = a.ndim
    check(xp.flip(ours), strict.flip(theirs))
    check(xp.flip(ours, axis=0), strict.flip(theirs, axis=0))
    check(xp.roll(ours, shift), strict.roll(theirs, shift))
    check(xp.roll(ours, shift, axis=-1), strict.roll(theirs, shift, axis=-1))
    perm = tuple(reversed(range(nd)))
    check(xp.permute_dims(ours, perm), strict.permute_dims(theirs, perm))
    check(xp.expand_dims(ours, axis=0), strict.expand_dims(theirs, axis=0))
    check(xp.squeeze(xp.expand_dims(ours, axis=-1), axis=-1), strict.squeeze(strict.expand_dims(theirs, axis=-1), axis=-1))
    check(xp.reshape(ours, (-1,)), strict.reshape(theirs, (-1,)))
    check(xp.concat([ours, ours], axis=0), strict.concat([theirs, theirs], axis=0))
    check(xp.concat([ours, ours], axis=None), strict.concat([theirs, theirs], axis=None))
    check(xp.stack([ours, ours], axis=-1), strict.stack([theirs, theirs], axis=-1))
    check(xp.tile(ours, (2,) * nd), strict.tile(theirs, (2,) * nd))
    check(xp.repeat(ours, 2, axis=0), strict.repeat(theirs, 2, axis=0))
    check(xp.moveaxis(ours, 0, -1), strict.moveaxis(theirs, 0, -1))
    check(xp.unstack(ours, axis=0), strict.unstack(theirs, axis=0))
    check(xp.broadcast_to(ours, (2,) + a.shape), strict.broadcast_to(theirs, (2,) + a.shape))
    check(xp.diff(ours, axis=-1) if a.dtype != np.bool_ else xp.flip(ours),
          strict.diff(theirs, axis=-1) if a.dtype != np.bool_ else strict.flip(theirs))


@SETTINGS
@given(a=arrays(NUMERIC, min_dims=1, min_side=1, elements=None), data=st.data())
def test_indexing(a, data):
    ours, theirs = both(a)
    n = a.shape[0]
    idx = np.array(data.draw(st.lists(st.integers(-n, n - 1), max_size=5)), dtype=np.int64)
    (i1, i2) = both(idx)
    check(xp.take(ours, i1, axis=0), strict.take(theirs, i2, axis=0))
    mask = data.draw(hnp.arrays(np.bool_, a.shape))
    m1, m2 = both(mask)
    check(ours[m1], theirs[m2])
    rest = (0,) * (a.ndim - 1)  # the standard's integer-array indexing: arrays and ints only
    check(ours[(i1,) + rest], theirs[(i2,) + rest])
    check(ours[..., None], theirs[..., None])
    order = np.argsort(a, axis=-1, kind="stable").astype(np.int64)
    o1, o2 = both(order)
    check(xp.take_along_axis(ours, o1, axis=-1), strict.take_along_axis(theirs, o2, axis=-1))


@SETTINGS
@given(d=st.sampled_from(REAL + ["int32", "int64"]), m=st.integers(1, 4), k=st.integers(1, 4), n=st.integers(1, 4),
       batch=st.integers(1, 3), seed=st.integers(0, 2**16))
def test_linear_algebra(d, m, k, n, batch, seed):
    rng = np.random.default_rng(seed)
    a = rng.integers(-5, 5, size=(batch, m, k)).astype(d)
    b = rng.integers(-5, 5, size=(batch, k, n)).astype(d)
    (a1, a2), (b1, b2) = both(a), both(b)
    check(xp.matmul(a1, b1), strict.matmul(a2, b2))
    check(a1 @ b1, a2 @ b2)
    check(xp.matrix_transpose(a1), strict.matrix_transpose(a2))
    check(a1.mT, a2.mT)
    c1, c2 = both(rng.integers(-5, 5, size=(k, n)).astype(d))
    check(xp.tensordot(a1, c1, axes=1), strict.tensordot(a2, c2, axes=1))
    check(xp.vecdot(a1, a1), strict.vecdot(a2, a2))


# ---- creation and data types ---------------------------------------------


@SETTINGS
@given(start=st.integers(-10, 10), stop=st.integers(-10, 10), step=st.integers(1, 3),
       n=st.integers(0, 4), fstart=st.floats(-5, 5), num=st.integers(0, 6), k=st.integers(-2, 2))
def test_creation(start, stop, step, n, fstart, num, k):
    check(xp.arange(start, stop, step), strict.arange(start, stop, step))
    check(xp.arange(float(start), float(stop), 0.5), strict.arange(float(start), float(stop), 0.5))
    check(xp.linspace(fstart, 7.0, num), strict.linspace(fstart, 7.0, num))
    check(xp.zeros((n, 2)), strict.zeros((n, 2)))
    check(xp.ones(n, dtype=xp.int8), strict.ones(n, dtype=strict.int8))
    check(xp.full((2, n), 3), strict.full((2, n), 3))
    check(xp.full((n,), 1.5, dtype=xp.float32), strict.full((n,), 1.5, dtype=strict.float32))
    check(xp.eye(n, n + 1, k=k), strict.eye(n, n + 1, k=k))
    check(xp.asarray([[start, stop]]), strict.asarray([[start, stop]]))
    check(xp.asarray([fstart, 1]), strict.asarray([fstart, 1]))
    check(xp.asarray(True), strict.asarray(True))
    check(xp.tril(xp.ones((3, 4)), k=k), strict.tril(strict.ones((3, 4)), k=k))
    check(xp.triu(xp.ones((3, 4)), k=k), strict.triu(strict.ones((3, 4)), k=k))
    grid_o = xp.meshgrid(xp.arange(n), xp.arange(2), indexing="ij")
    grid_t = strict.meshgrid(strict.arange(n), strict.arange(2), indexing="ij")
    check(grid_o, grid_t)


ALL_NAMES = ["bool"] + NUMERIC + ["complex64", "complex128"]


@pytest.mark.parametrize("a", ALL_NAMES)
@pytest.mark.parametrize("b", ALL_NAMES)
def test_promotion_matches_the_standard_within_a_kind(a, b):
    da, db = getattr(xp, a), getattr(xp, b)
    sa, sb = getattr(strict, a), getattr(strict, b)
    try:
        expected = str(strict.result_type(sa, sb)).split(".")[-1]
    except TypeError:
        return  # mixed kinds: the standard leaves them to the implementation (the lattice decides)
    assert xp.result_type(da, db).name == expected
    assert xp.can_cast(da, db) == strict.can_cast(sa, sb)
    if expected != "bool":
        x = xp.ones(2, dtype=da) + xp.ones(2, dtype=db)
        assert x.dtype.name == expected


@pytest.mark.parametrize("name", ALL_NAMES)
def test_dtype_functions(name):
    d, s = getattr(xp, name), getattr(strict, name)
    for kind in ["bool", "signed integer", "unsigned integer", "integral", "real floating", "complex floating", "numeric"]:
        assert xp.isdtype(d, kind) == strict.isdtype(s, kind), kind
    if name in INTS:
        assert tuple(xp.iinfo(d)[:3]) == (strict.iinfo(s).bits, strict.iinfo(s).max, strict.iinfo(s).min)
    if name in REAL + ["complex64", "complex128"]:
        ours, theirs = xp.finfo(d), strict.finfo(s)
        assert (ours.bits, ours.eps, ours.max, ours.min, ours.smallest_normal) == (
            theirs.bits, theirs.eps, theirs.max, theirs.min, theirs.smallest_normal)
    if name != "complex64" and name != "complex128":
        ones = xp.ones(3, dtype=d)
        for target in ALL_NAMES[:11]:
            check(xp.astype(ones, getattr(xp, target)), strict.astype(strict.ones(3, dtype=s), getattr(strict, target)))


def test_namespace_and_array_object():
    x = xp.asarray([[1.0, 2.0], [3.0, 4.0]])
    assert x.__array_namespace__() is xp and lt.constant(1).__array_namespace__() is xp
    assert xp.__array_api_version__ == strict.__array_api_version__
    info = xp.__array_namespace_info__()
    assert info.default_dtypes()["real floating"] == xp.float64 and info.devices() == (x.device,)
    assert set(info.dtypes(kind="integral")) == set(strict.__array_namespace_info__().dtypes(kind="integral"))
    assert x.to_device(x.device) is x
    assert float(x[0, 1]) == 2.0 and int(xp.asarray(3)) == 3 and bool(xp.asarray(True))
    assert complex(xp.asarray(1 + 2j)) == 1 + 2j
    assert [10, 20, 30][xp.asarray(1, dtype=xp.int8)] == 20  # __index__
    assert xp.asarray(x, copy=False) is x
    with pytest.raises(ValueError, match="asarray.*copy"):
        xp.asarray(x, dtype=xp.float32, copy=False)


@pytest.mark.parametrize(
    ("call", "error", "names"),
    [
        (lambda: xp.sin([1.0]), TypeError, "sin: argument 'x'"),
        (lambda: xp.add(1, 2), TypeError, "add: argument 'x1'"),
        (lambda: xp.add(xp.ones(2), "a"), TypeError, "add: argument 'x2'"),
        (lambda: xp.add(np.ones(2), xp.ones(2)), TypeError, "add: argument 'x1'"),
        (lambda: xp.multiply(xp.ones(2), np.ones(2)), TypeError, "multiply: argument 'x2'"),
        (lambda: xp.atan2(xp.ones(2), 1j), TypeError, "atan2: argument 'x2'"),
        (lambda: xp.logical_and(xp.ones(2, dtype=xp.bool), 1.0), TypeError, "logical_and: argument 'x2'"),
        (lambda: xp.zeros((2,), dtype="float32"), TypeError, "zeros: argument 'dtype'"),
        (lambda: xp.zeros((-1,)), ValueError, "zeros: argument 'shape'"),
        (lambda: xp.ones(2, device="gpu"), ValueError, "ones: argument 'device'"),
        (lambda: xp.sum(xp.ones((2, 2)), axis=2), IndexError, "sum: argument 'axis'"),
        (lambda: xp.squeeze(xp.ones((2, 2)), axis=0), ValueError, "squeeze: argument 'axis'"),
        (lambda: xp.mean(xp.ones(2, dtype=xp.int64)), TypeError, "mean: argument 'x'"),
        (lambda: xp.isdtype(xp.int8, "integer"), ValueError, "isdtype: argument 'kind'"),
        (lambda: xp.finfo(xp.int8), TypeError, "finfo: argument 'type'"),
        (lambda: xp.where(xp.ones(2), 1, 0), TypeError, "where: argument 'condition'"),
        (lambda: xp.matmul(xp.ones((2, 3)), xp.ones((2, 3))), ValueError, "matmul: argument 'x2'"),
        (lambda: xp.broadcast_to(xp.ones(3), (2,)), ValueError, "broadcast_to: argument 'shape'"),
        (lambda: xp.asarray(xp.ones(2)).__array_namespace__(api_version="2020.01"), ValueError, "api_version"),
    ],
)
def test_bad_input_names_function_and_argument(call, error, names):
    with pytest.raises(error, match=names):
        call()


def test_scalar_operands_of_every_accepted_type_match_the_array_call():
    """An array with a Python scalar (checked quickly for the exact types
    int/float/complex, the long way for bool and subclasses) computes what the
    same value as a weak 0-d operand does, on either side."""
    a = xp.asarray([1.5, -2.0, 4.0], dtype=xp.float32)
    i = xp.asarray([3, -7, 8], dtype=xp.int32)
    for f in (xp.add, xp.multiply, xp.subtract, xp.divide):
        for x, s in ((a, 2.5), (a, 3), (i, 3), (i, True)):
            for got, want in ((f(x, s), f(x, lt.constant(s))), (f(s, x), f(lt.constant(s), x))):
                assert got.dtype == want.dtype, (f.__name__, s)
                assert np.array_equal(np.asarray(got), np.asarray(want)), (f.__name__, s)


@pytest.mark.parametrize("name", ["int8", "uint8", "int16", "uint16", "int32", "uint32"])
@pytest.mark.parametrize("fn", ["sum", "prod"])
def test_sum_and_prod_with_a_dtype_accumulate_in_it(name, fn):
    # the standard: dtype= is the accumulator's and the result's dtype (vecdot's
    # reference in array-api-tests sums uint8 products with dtype=uint8)
    a = np.array([[200, 3, 7], [250, 9, 1]], dtype=np.int64) % (100 if name.startswith("int") else 256)
    x, s = xp.asarray(a.astype(name)), strict.asarray(a.astype(name))
    for axis in (None, 0, 1):
        got = getattr(xp, fn)(x, axis=axis, dtype=getattr(xp, name))
        want = getattr(strict, fn)(s, axis=axis, dtype=getattr(strict, name))
        assert got.dtype.name == str(want.dtype).split(".")[-1] == name
        np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


@pytest.mark.parametrize("name", sorted(lt._lattensor.array_api.RUST_BINARY))
def test_functions_bound_in_rust_take_the_standards_arguments(name):
    """The binary functions bound in Rust compute what array-api-strict does,
    take a subclass of a scalar type (np.float64, the checked path) as its
    value, take positional arguments only, and refuse what the standard
    refuses with a TypeError naming the function and the argument."""
    f = getattr(xp, name)
    assert f.__name__ == name and f.__doc__
    x, y = np.array([1.5, -2.0, 4.0, 0.0]), np.array([0.5, 3.0, 4.0, -1.0])
    got = f(xp.asarray(x), xp.asarray(y))
    want = getattr(strict, name)(strict.asarray(x), strict.asarray(y))
    assert got.dtype.name == str(want.dtype).split(".")[-1], name
    assert np.array_equal(np.asarray(got), np.asarray(want), equal_nan=True), name
    a = xp.asarray(x, dtype=xp.float32)
    for sub, plain in ((np.float64(2.0), 2.0), (True, 1) if name in ("equal", "not_equal") else (2, 2)):
        assert np.array_equal(np.asarray(f(a, sub)), np.asarray(f(a, plain)), equal_nan=True), (name, sub)
    with pytest.raises(TypeError, match=f"{name}: argument 'x2'"):
        f(a, "s")
    with pytest.raises(TypeError, match=f"{name}: argument 'x1'"):
        f([1.0], a)
    with pytest.raises(TypeError, match=f"{name}: argument 'x1'"):
        f(1.0, 2.0)
    with pytest.raises(TypeError):
        f(x1=a, x2=a)
