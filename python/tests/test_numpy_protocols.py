"""NumPy's protocols on lattensor tensors (NEP 13 ``__array_ufunc__``, NEP 18
``__array_function__``), differential against NumPy itself.

Each case runs one NumPy call twice, once on NumPy arrays and once on the same
values as strong lattensor tensors: the tensor call must return a lattensor
``Tensor`` (or a tuple of them) with NumPy's dtype, shape and values. The
places where lattensor's lattice deliberately differs from NumPy's table are
checked separately, against the lattice's answer.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import lattensor as lt
import lattensor.array_api as xp
from lattensor import _numpy_protocols as proto

RNG = np.random.default_rng(7)
F64 = RNG.standard_normal((3, 4))
F32 = RNG.standard_normal((3, 4)).astype(np.float32)
POS = (np.abs(F64) + 0.5).astype(np.float64)
I8 = np.array([[1, -2, 3, 0], [4, 5, -6, 7], [-8, 9, 2, 1]], np.int8)
I32 = I8.astype(np.int32) * 100
I64 = I8.astype(np.int64)
U8 = np.abs(I8).astype(np.uint8)
B = I8 > 0
F16 = F64.astype(np.float16)
C128 = F64 + 1j * F64[::-1]
NAN = F64.copy()
NAN[0, 1] = NAN[2, 3] = np.nan
SQ = RNG.standard_normal((4, 4))


def tensors(obj):
    """The same structure with every NumPy array replaced by a strong lattensor tensor."""
    if isinstance(obj, np.ndarray):
        return xp.asarray(obj)
    if isinstance(obj, list):
        return [tensors(o) for o in obj]
    if isinstance(obj, tuple):
        return tuple(tensors(o) for o in obj)
    return obj


def check(ours, theirs, rtol=None):
    """A lattensor result with NumPy's dtype, shape and values (NaN equal)."""
    if isinstance(theirs, (tuple, list)):
        assert isinstance(ours, (tuple, list)) and len(ours) == len(theirs), (type(ours), ours)
        for o, t in zip(ours, theirs):
            check(o, t, rtol)
        return
    theirs = np.asarray(theirs)
    assert isinstance(ours, lt.Tensor), type(ours)
    assert not ours.weak or theirs.ndim == 0, "results of strong operands are strong"
    assert np.dtype(ours.dtype.as_numpy_dtype) == theirs.dtype, (ours.dtype, theirs.dtype)
    assert tuple(ours.shape) == theirs.shape
    o = np.asarray(ours)
    if o.dtype.kind in "fc":
        tol = rtol or {2: 2e-3, 4: 2e-5, 8: 2e-5, 16: 1e-12}.get(o.dtype.itemsize, 1e-12)
        if o.dtype == np.float64:
            tol = rtol or 1e-12
        np.testing.assert_allclose(o, theirs, rtol=tol, atol=tol, equal_nan=True)
    else:
        np.testing.assert_array_equal(o, theirs)


def run(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        warnings.filterwarnings("ignore", "'where' used without 'out'", UserWarning)
        want = fn(*args, **kwargs)
        got = fn(*tensors(args), **kwargs)
    return got, want


# (id, function, args, kwargs): NumPy's answer is the expected one
UFUNC_CASES = [
    *[(f"{n}-f64", getattr(np, n), (POS,), {}) for n in (
        "exp", "log", "log2", "log10", "log1p", "expm1", "sqrt", "sin", "cos", "tan", "arctan",
        "sinh", "cosh", "tanh", "arcsinh", "floor", "ceil", "trunc", "rint", "sign", "square",
        "absolute", "negative", "positive", "reciprocal", "isnan", "isinf", "isfinite", "signbit")],
    *[(f"{n}-f32", getattr(np, n), (F32,), {}) for n in ("exp", "sin", "tanh", "floor", "absolute", "negative", "square", "sign")],
    ("arcsin", np.arcsin, (F64 / 4,), {}), ("arccos", np.arccos, (F64 / 4,), {}),
    ("arctanh", np.arctanh, (F64 / 4,), {}), ("arccosh", np.arccosh, (POS + 1,), {}),
    *[(f"{n}-i8", getattr(np, n), (I8,), {}) for n in ("absolute", "negative", "square", "sign", "invert", "floor", "ceil", "trunc")],
    ("negative-u8-wraps", np.negative, (U8,), {}), ("conjugate-c128", np.conjugate, (C128,), {}),
    ("absolute-c128", np.absolute, (C128,), {}), ("exp-c128", np.exp, (C128,), {}),
    ("reciprocal-int", np.reciprocal, (I32 + 1000,), {}),
    ("logical_not", np.logical_not, (B,), {}), ("logical_not-int", np.logical_not, (I8,), {}),
    *[(f"{n}-f64", getattr(np, n), (F64, POS), {}) for n in (
        "add", "subtract", "multiply", "divide", "floor_divide", "remainder", "power", "maximum",
        "minimum", "arctan2", "hypot", "copysign", "logaddexp", "nextafter", "equal", "not_equal",
        "less", "less_equal", "greater", "greater_equal")],
    *[(f"{n}-i8", getattr(np, n), (I8, I8[::-1]), {}) for n in (
        "add", "subtract", "multiply", "maximum", "minimum", "bitwise_and", "bitwise_or", "bitwise_xor", "equal", "less")],
    ("floor_divide-i32", np.floor_divide, (I32, I8.astype(np.int32) % 5 + 1), {}),
    ("remainder-i32", np.remainder, (I32, I8.astype(np.int32) % 5 + 1), {}),
    ("left_shift", np.left_shift, (I32, np.full((3, 4), 2, np.int32)), {}),
    ("right_shift", np.right_shift, (I32, np.full((3, 4), 2, np.int32)), {}),
    ("logical_and", np.logical_and, (B, B[::-1]), {}), ("logical_or", np.logical_or, (B, B[::-1]), {}),
    ("logical_xor", np.logical_xor, (B, B[::-1]), {}), ("logical_and-int", np.logical_and, (I8, I8[::-1]), {}),
    ("add-broadcast", np.add, (F64, F64[0]), {}), ("add-f32-f64", np.add, (F32, F64), {}),
    ("add-u8-i8", np.add, (U8, I8), {}), ("multiply-c128", np.multiply, (C128, F64), {}),
    ("matmul", np.matmul, (F64, F64.T), {}), ("matmul-vec", np.matmul, (F64, F64[0]), {}),
    ("add-dtype", np.add, (I8, I8), {"dtype": np.float64}), ("add-dtype-str", np.add, (F32, F32), {"dtype": "float64"}),
    ("divide-float32", np.divide, (F32, F32 + 3), {}),
    # ufunc methods
    ("add.reduce", np.add.reduce, (F64,), {}), ("add.reduce-axis1", np.add.reduce, (F64,), {"axis": 1}),
    ("add.reduce-None", np.add.reduce, (I8,), {"axis": None}), ("add.reduce-keepdims", np.add.reduce, (F64,), {"axis": 1, "keepdims": True}),
    ("multiply.reduce", np.multiply.reduce, (F64,), {}), ("maximum.reduce", np.maximum.reduce, (I8,), {"axis": 1}),
    ("minimum.reduce", np.minimum.reduce, (F32,), {}), ("logical_and.reduce", np.logical_and.reduce, (B,), {}),
    ("logical_or.reduce", np.logical_or.reduce, (B,), {"axis": 1}), ("add.reduce-dtype", np.add.reduce, (I8,), {"dtype": np.int16}),
    ("add.accumulate", np.add.accumulate, (F64,), {}), ("multiply.accumulate", np.multiply.accumulate, (F64,), {"axis": 1}),
    ("multiply.outer", np.multiply.outer, (F64[0], F64[1]), {}), ("subtract.outer", np.subtract.outer, (F64, F64[0]), {}),
]


@pytest.mark.parametrize("fn,args,kwargs", [c[1:] for c in UFUNC_CASES], ids=[c[0] for c in UFUNC_CASES])
def test_ufuncs_match_numpy(fn, args, kwargs):
    check(*run(fn, *args, **kwargs))


def _ids(cases):
    return [c[0] for c in cases]


FUNCTION_CASES = [
    # reductions, with Dask's chunk-level keywords (axis tuples, keepdims, dtype)
    *[(f"{n}-{k}", getattr(np, n), (a,), kw) for n in ("sum", "prod") for k, a, kw in (
        ("f64", F64, {}), ("i8", I8, {}), ("u8", U8, {}), ("bool", B, {}), ("f16", F16, {}), ("c128", C128, {}),
        ("axis", F64, {"axis": 0}), ("axes", F64, {"axis": (0, 1), "keepdims": True}),
        ("dtype", I8, {"axis": 1, "dtype": np.float64}), ("keepdims", F32, {"axis": -1, "keepdims": True}),
        ("dtype-f16", I8, {"dtype": np.float16}))],
    *[(f"{n}-{k}", getattr(np, n), (a,), kw) for n in ("max", "min", "amax", "amin") for k, a, kw in (
        ("f64", F64, {}), ("i8", I8, {"axis": 0}), ("bool", B, {"axis": 1, "keepdims": True}), ("u8", U8, {"axis": (0, 1)}),
        ("f16", F16, {"axis": 0}))],
    *[(f"{n}-{k}", getattr(np, n), (a,), kw) for n in ("mean", "var", "std") for k, a, kw in (
        ("f64", F64, {}), ("f32", F32, {"axis": 0}), ("i8", I8, {"axis": 1, "keepdims": True}), ("bool", B, {}),
        ("f16", F16, {}), ("dtype", F32, {"dtype": np.float64}), ("axes", F64, {"axis": (0, 1), "keepdims": True}))],
    ("mean-c128", np.mean, (C128,), {"axis": 0}),
    ("var-ddof", np.var, (F64,), {"ddof": 1, "axis": 0}), ("std-ddof", np.std, (F64,), {"ddof": 1}),
    ("var-correction", np.var, (F64,), {"correction": 1}),
    *[(f"{n}-{k}", getattr(np, n), (a,), kw) for n in ("any", "all") for k, a, kw in (
        ("bool", B, {}), ("int", I8, {"axis": 0}), ("float", F64, {"axis": 1, "keepdims": True}))],
    *[(f"{n}-{k}", getattr(np, n), (a,), kw) for n in ("argmax", "argmin") for k, a, kw in (
        ("f64", F64, {}), ("i8-axis", I8, {"axis": 1}), ("keepdims", F32, {"axis": 0, "keepdims": True}),
        ("f16", F16, {"axis": 1}))],
    *[(f"{n}-{k}", getattr(np, n), (a,), kw) for n in ("cumsum", "cumprod") for k, a, kw in (
        ("f64", F64, {}), ("i8", I8, {"axis": 1}), ("bool", B, {"axis": 0}), ("u8", U8, {"axis": 0}),
        ("dtype", I8, {"axis": 0, "dtype": np.float32}), ("f16", F16, {"axis": 1}),
        ("dtype-f16", I8, {"axis": 0, "dtype": np.float16}))],
    # NaN-ignoring reductions
    *[(f"{n}", getattr(np, n), (NAN,), {}) for n in (
        "nansum", "nanprod", "nanmax", "nanmin", "nanmean", "nanvar", "nanstd", "nancumsum", "nancumprod")],
    *[(f"{n}-axis", getattr(np, n), (NAN,), {"axis": 1, "keepdims": True}) for n in (
        "nansum", "nanmax", "nanmin", "nanmean", "nanvar", "nanstd")],
    ("nanvar-ddof", np.nanvar, (NAN,), {"axis": 0, "ddof": 1}), ("nansum-int", np.nansum, (I8,), {"axis": 0}),
    ("nanmax-int", np.nanmax, (I8,), {}), ("nanmean-int", np.nanmean, (I8,), {"axis": 1}),
    ("nanmax-all-nan", np.nanmax, (np.array([[np.nan, 1.0], [np.nan, np.nan]]),), {"axis": 1}),
    # joining, contraction, indexing
    ("concatenate", np.concatenate, ([F64, F64],), {}), ("concatenate-axis1", np.concatenate, ([F64, F32],), {"axis": 1}),
    ("concatenate-None", np.concatenate, ([F64, I8],), {"axis": None}),
    ("concatenate-dtype", np.concatenate, ([I8, I8],), {"dtype": np.float32}),
    ("concatenate-tuple", np.concatenate, ((I8, I8),), {"axis": -1}),
    ("stack", np.stack, ([F64, F64],), {}), ("stack-axis", np.stack, ([I8, I8, I8],), {"axis": -1}),
    ("stack-dtype", np.stack, ([I8, I8],), {"axis": 1, "dtype": np.int64}),
    ("tensordot-2", np.tensordot, (F64, F64), {"axes": 2}), ("tensordot-1", np.tensordot, (F64, F64.T), {"axes": 1}),
    ("tensordot-pairs", np.tensordot, (F64, F64), {"axes": ([0], [0])}),
    ("tensordot-ints", np.tensordot, (F64, F64), {"axes": (1, 1)}), ("tensordot-0", np.tensordot, (F64[0], F64[1]), {"axes": 0}),
    ("einsum-mm", np.einsum, ("ij,kj->ik", F64, F64), {}), ("einsum-implicit", np.einsum, ("ij,jk", F64, F64.T), {}),
    ("einsum-trace", np.einsum, ("ii", SQ), {}), ("einsum-sum", np.einsum, ("ij->j", F32), {}),
    ("einsum-dtype", np.einsum, ("ij,ij->i", I8, I8), {"dtype": np.float64}),
    ("take-flat", np.take, (F64, [0, 5, -1]), {}), ("take-axis", np.take, (F64, [2, 0]), {"axis": 1}),
    ("take-2d", np.take, (I8, [[0, 1], [2, 2]]), {"axis": 0}), ("take-scalar", np.take, (F64, 1), {"axis": 0}),
    ("take-ndarray", np.take, (F64, np.array([1, 0])), {"axis": -1}),
    ("where", np.where, (B, F64, F32), {}), ("where-scalar", np.where, (B, F32, 0), {}),
    ("where-int-cond", np.where, (I8, F64, -F64), {}), ("where-1", np.where, (B,), {}),
    ("dot", np.dot, (F64, F64.T), {}), ("dot-vec", np.dot, (F64[0], F64[1]), {}), ("dot-scalar", np.dot, (F64, 2.0), {}),
    ("matmul-fn", np.matmul, (F32, F32.T), {}),
    # shape
    ("broadcast_to", np.broadcast_to, (F64[0], (5, 4)), {}), ("broadcast_to-int", np.broadcast_to, (np.array([3.0]), 4), {}),
    ("reshape", np.reshape, (F64, (4, 3)), {}), ("reshape-neg", np.reshape, (I8, (-1,)), {}),
    ("reshape-int", np.reshape, (I8, 12), {}), ("reshape-kw", np.reshape, (F64,), {"shape": (2, 6)}),
    ("ravel", np.ravel, (F64,), {}), ("transpose", np.transpose, (F64,), {}),
    ("transpose-axes", np.transpose, (F64.reshape(3, 2, 2), (1, 2, 0)), {}),
    ("swapaxes", np.swapaxes, (F64.reshape(3, 2, 2), 0, 2), {}), ("moveaxis", np.moveaxis, (F64.reshape(3, 2, 2), 0, -1), {}),
    ("squeeze", np.squeeze, (F64.reshape(1, 3, 1, 4),), {}), ("squeeze-axis", np.squeeze, (F64.reshape(1, 3, 1, 4),), {"axis": 2}),
    ("expand_dims", np.expand_dims, (F64, 1), {}), ("expand_dims-tuple", np.expand_dims, (F64, (0, 3)), {}),
    ("flip", np.flip, (F64,), {}), ("flip-axis", np.flip, (F64,), {"axis": 1}),
    ("astype", np.astype, (F64, np.int32), {}), ("astype-f16", np.astype, (I8, np.float16), {}),
    ("real", np.real, (C128,), {}), ("imag", np.imag, (C128,), {}), ("real-of-real", np.real, (F64,), {}),
    ("round", np.round, (F64 * 3,), {}), ("around", np.around, (F32 * 3,), {}),
    ("clip", np.clip, (F64, -0.5, 0.5), {}), ("clip-int-float", np.clip, (I8, 0, 2.5), {}),
    ("clip-none", np.clip, (I8, None, 3), {}), ("clip-kw", np.clip, (F32,), {"min": 0.0}),
    # creation like an array
    ("zeros_like", np.zeros_like, (I8,), {}), ("ones_like", np.ones_like, (F32,), {"dtype": np.float64}),
    ("zeros_like-shape", np.zeros_like, (F64,), {"shape": (2, 5)}), ("ones_like-shape", np.ones_like, (I8,), {"shape": 3}),
    ("full_like", np.full_like, (I8, 7), {}), ("full_like-float", np.full_like, (F64, 2.5), {"dtype": np.float32}),
    ("full_like-np-scalar", np.full_like, (F64, np.float64(3.0)), {}),
]


@pytest.mark.parametrize("fn,args,kwargs", [c[1:] for c in FUNCTION_CASES], ids=_ids(FUNCTION_CASES))
def test_functions_match_numpy(fn, args, kwargs):
    check(*run(fn, *args, **kwargs))


def test_empty_like_has_the_shape_and_dtype_asked_for():
    # NumPy's memory is uninitialised; lattensor's tensors are never left uninitialised, so zeros
    for kw in ({}, {"dtype": np.int16}, {"shape": (2, 5)}):
        got, want = np.empty_like(xp.asarray(F32), **kw), np.empty_like(F32, **kw)
        assert isinstance(got, lt.Tensor) and tuple(got.shape) == want.shape
        assert np.dtype(got.dtype.as_numpy_dtype) == want.dtype
        assert not np.asarray(got).any()


@pytest.mark.parametrize("name", sorted(n for n in ("sum", "prod", "max", "min", "mean", "var", "std", "any", "all",
                                                      "argmax", "argmin", "cumsum", "cumprod", "concatenate", "stack",
                                                      "tensordot", "einsum", "take", "where", "broadcast_to", "reshape",
                                                      "transpose", "squeeze", "expand_dims", "astype", "empty_like",
                                                      "ones_like", "zeros_like", "full_like", "nansum", "nanmean",
                                                      "nanmax", "nanmin", "nanvar", "nanstd", "nanprod",
                                                      "result_type")))
def test_the_functions_dask_calls_on_chunks_are_mapped(name):
    # mapped (on lattensor's kernels, recorded on tapes), not a host fall-back
    assert getattr(np, name) in proto.HANDLED_FUNCTIONS


def test_the_ufuncs_dask_calls_on_chunks_are_mapped():
    assert {"add", "multiply", "matmul", "exp", "sqrt", "maximum", "equal"} <= proto.HANDLED_UFUNCS
    assert {"add", "multiply", "maximum", "minimum"} <= proto.HANDLED_UFUNC_METHODS["reduce"]


def test_mapped_calls_do_not_fall_back(monkeypatch):
    def fell_back(result):
        raise AssertionError("fell back to NumPy")

    monkeypatch.setattr(proto, "_from_numpy", fell_back)
    t = xp.asarray(F64)
    np.sum(t, axis=0, keepdims=True, dtype=np.float64)
    np.concatenate([t, t])
    np.einsum("ij->i", t)
    np.add(t, 1)
    np.add.reduce(t)
    np.nanvar(t, axis=1)


# ---- promotion: the namespace's rules (lattice), where they differ from NumPy ----


def test_python_scalars_are_weak_and_numpy_arrays_strong():
    i8 = xp.asarray(I8)
    assert np.add(i8, 1).dtype == lt.int8  # NumPy (NEP 50) says int8 too
    assert np.multiply(xp.asarray(F32), 2.5).dtype == lt.float32
    assert np.add(1, i8).dtype == lt.int8
    assert np.add(i8, np.int16(1)).dtype == lt.int16  # a NumPy scalar is strong
    r = np.add(i8, np.ones((3, 4), np.float64))
    assert r.dtype == lt.float64 and not r.weak
    r = np.ones((3, 4), np.float32) + xp.asarray(F32)  # ndarray + tensor: NumPy hands the call to the tensor
    assert isinstance(r, lt.Tensor) and r.dtype == lt.float32


@pytest.mark.parametrize(
    "fn,a,b,lattice,numpy",
    [
        (np.add, I64, F32, "float32", "float64"),  # mixed kinds meet in the lattice
        (np.multiply, I32, F16, "float16", "float64"),
        (np.divide, I8, I8, "float32", "float64"),  # TF's true division of small ints
        (np.sqrt, U8, None, "float32", "float16"),  # float results of small ints: float32
    ],
)
def test_lattice_differences_from_numpy(fn, a, b, lattice, numpy):
    args = (a,) if b is None else (a, b)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = fn(*args)
    got = fn(*tensors(args))
    assert isinstance(got, lt.Tensor)
    assert str(want.dtype) == numpy
    assert got.dtype.name == lattice
    np.testing.assert_allclose(np.asarray(got, np.float64), want.astype(np.float64), rtol=2e-3)


ALL_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
              "float16", "float32", "float64", "complex64", "complex128"]


def _lattice_add(a, b):
    """NumPy's dtype for ``a + b``, except that an integer with a float or complex
    dtype gives that float or complex dtype (the lattice; NumPy widens it to hold
    the integer's range)."""
    ints = [d for d in (a, b) if d[0] in "iu"]
    inexact = [d for d in (a, b) if d[0] in "fc"]
    if ints and inexact:
        return inexact[0]
    return str(np.result_type(a, b))


@pytest.mark.parametrize("a", ALL_DTYPES)
def test_binary_promotion_over_every_dtype_pair(a):
    for b in ALL_DTYPES:
        x, y = np.array([1, 0], a), np.array([1, 1], b)
        got = np.add(xp.asarray(x), xp.asarray(y))
        assert got.dtype.name == _lattice_add(a, b), (a, b, got.dtype)
        np.testing.assert_array_equal(np.asarray(got), np.add(x, y).astype(got.dtype.as_numpy_dtype))


def test_bool_arithmetic_is_numpy_logic():
    p, q = np.array([True, True, False, False]), np.array([True, False, True, False])
    for fn in (np.add, np.multiply, np.maximum, np.minimum):
        check(fn(xp.asarray(p), xp.asarray(q)), fn(p, q))
    check(np.add(xp.asarray(p), True), np.add(p, True))


def test_result_type_is_the_lattice_as_a_numpy_dtype():
    assert np.result_type(xp.asarray(I64), np.float32) == np.dtype("float32")
    assert np.result_type(xp.asarray(I8), 1) == np.dtype("int8")
    assert np.result_type(xp.asarray(I8), xp.asarray(U8)) == np.dtype("int16")
    assert np.result_type(xp.asarray(F32), np.ones(2, np.float64)) == np.dtype("float64")
    assert isinstance(np.result_type(xp.asarray(F32), lt.float16), np.dtype)


# ---- immutability: out= and ufunc.at -------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda t: np.add(t, 1, out=t),
        lambda t: np.exp(t, out=(t,)),
        lambda t: np.add.reduce(t, out=lt.constant(np.zeros(4))),
        lambda t: np.sum(t, out=lt.constant(np.float64(0))),
        lambda t: np.mean(t, axis=0, out=lt.Variable(np.zeros(4))),
        lambda t: np.cumsum(t, out=[0.0] * 12),
        lambda t: np.concatenate([t, t], out=t),
        lambda t: np.nanmax(t, out=t),
        lambda t: np.percentile(t, 50, out=t),  # a fall-back function refuses it too
    ],
)
def test_an_out_tensor_is_refused_with_a_type_error(call):
    with pytest.raises(TypeError, match="argument 'out' must be None or a NumPy array, got .*: NumPy does not write into lattensor tensors"):
        call(xp.asarray(F64))


@pytest.mark.parametrize(
    "call,want",
    [
        (lambda t, o: np.add(t, 1, out=o), F64 + 1),
        (lambda t, o: np.exp(t, out=(o,)), np.exp(F64)),
        (lambda t, o: np.multiply(np.ones((3, 4)), t, out=o), F64),
    ],
)
def test_an_out_numpy_array_is_filled_by_numpy(call, want):
    out = np.zeros((3, 4))
    r = call(xp.asarray(F64), out)
    assert r is out
    np.testing.assert_allclose(out, want)


def test_ndarray_in_place_operators_write_into_the_ndarray():
    a = np.ones((3, 4))
    a += xp.asarray(F64)
    np.testing.assert_allclose(a, 1 + F64)
    a *= xp.asarray(F64)
    np.testing.assert_allclose(a, (1 + F64) * F64)


def test_functions_fill_out_numpy_arrays():
    out = np.zeros(4)
    assert np.sum(xp.asarray(F64), axis=0, out=out) is out
    np.testing.assert_allclose(out, F64.sum(axis=0))
    out = np.zeros((6, 4))
    assert np.concatenate([xp.asarray(F64), F64], out=out) is out
    np.testing.assert_allclose(out, np.concatenate([F64, F64]))


def test_out_none_is_accepted():
    check(np.add(xp.asarray(F64), 1, out=None), F64 + 1)
    check(np.sum(xp.asarray(F64), out=None), np.sum(F64))


def test_ufunc_at_is_refused_on_a_tensor_and_updates_a_numpy_array():
    with pytest.raises(TypeError, match=r"numpy\.add\.at: NumPy does not write into lattensor tensors"):
        np.add.at(xp.asarray(F64), [0], 1)
    a = np.zeros(3)
    np.add.at(a, [0, 0, 2], xp.asarray(np.array([1.0, 2.0, 3.0])))
    np.testing.assert_array_equal(a, [3.0, 0.0, 3.0])


# ---- the fall-back to NumPy ------------------------------------------------------


FALLBACK_CASES = [
    ("percentile", np.percentile, (F64, 30), {}),
    ("median", np.median, (F64,), {"axis": 0}),
    ("linalg.norm", np.linalg.norm, (F64,), {}),
    ("histogram", np.histogram, (F64,), {"bins": 3}),
    ("diff", np.diff, (F64,), {}),
    ("sort", np.sort, (F64,), {"axis": 0}),
    ("unique", np.unique, (I8,), {"return_counts": True}),
    ("cbrt", np.cbrt, (F64,), {}),  # an unmapped ufunc
    ("add-where", np.add, (F64, 1.0), {"where": B}),  # an unmapped ufunc keyword
    ("sum-where", np.sum, (F64,), {"where": B}),  # an unmapped function keyword
    ("max-initial", np.max, (F64,), {"initial": 10.0}),
    ("add.reduceat", np.add.reduceat, (F64[0], [0, 2]), {}),
    ("round-decimals", np.round, (F64,), {"decimals": 2}),
    ("take-clip", np.take, (F64, [0, 99]), {"mode": "clip"}),
    ("max-complex", np.max, (C128,), {}),
    ("einsum-sublists", np.einsum, (F64, [0, 1], [1]), {}),
]


@pytest.mark.parametrize("fn,args,kwargs", [c[1:] for c in FALLBACK_CASES], ids=_ids(FALLBACK_CASES))
def test_fallback_runs_numpy_and_returns_tensors(fn, args, kwargs):
    got, want = run(fn, *args, **kwargs)
    if fn is np.add:  # where=: NumPy leaves the masked-out elements of a fresh output undefined
        m = kwargs["where"]
        assert isinstance(got, lt.Tensor)
        np.testing.assert_array_equal(np.asarray(got)[m], want[m])
        return
    check(got, want)


def test_fallback_gives_non_array_results_as_numpy_does():
    t = xp.asarray(F64)
    assert np.allclose(t, t) is True
    assert np.array_equal(t, F64) is True
    assert np.shape(t) == (3, 4) and np.ndim(t) == 2 and np.size(t) == 12
    assert np.isrealobj(t) is True


def test_asarray_is_the_escape_hatch_to_numpy():
    t = xp.asarray(F64)
    for a in (np.asarray(t), np.array(t), np.asanyarray(t)):
        assert type(a) is np.ndarray
        np.testing.assert_array_equal(a, F64)


def test_fallback_of_an_unsupported_dtype_returns_numpy():
    t = xp.asarray(F64)
    r = np.char.add(np.asarray(["a", "b"]), ["c", "d"])  # no tensor: NumPy's own
    assert r.dtype.kind == "U"
    labels = np.array(["x", "y", "z"])
    r = np.take(labels, xp.asarray(np.array([0, 2])))  # a str array: NumPy result
    assert type(r) is np.ndarray and r.tolist() == ["x", "z"]
    del t


# ---- other array types keep control ---------------------------------------------


class _Foreign:
    """A stand-in for another array library (Dask, xarray) that handles both protocols."""

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return ("foreign ufunc", ufunc.__name__)

    def __array_function__(self, func, types, args, kwargs):
        return ("foreign function", func.__name__)


def test_other_array_libraries_are_handed_the_call():
    t = xp.asarray(F64)
    assert np.add(t, _Foreign()) == ("foreign ufunc", "add")
    assert np.concatenate([t, _Foreign()]) == ("foreign function", "concatenate")
    assert np.add(t, 1, out=_Foreign()) == ("foreign ufunc", "add")


# ---- variables and gradients -----------------------------------------------------


def test_variables_take_part_as_their_value():
    v = lt.Variable(F32)
    check(np.add(v, 1), F32 + 1)
    check(np.sum(v, axis=0), np.sum(F32, axis=0))
    check(np.concatenate([v, xp.asarray(F32)]), np.concatenate([F32, F32]))
    check(np.ones((3, 4), np.float32) * v, F32)


def test_gradients_flow_through_numpy_calls():
    x = lt.constant(np.array([1.0, 2.0, 3.0], np.float32))
    with lt.GradientTape() as tape:
        tape.watch(x)
        y = np.sum(np.multiply(np.add(x, 1), x))  # sum(x^2 + x)
    np.testing.assert_allclose(np.asarray(tape.gradient(y, x)), [3.0, 5.0, 7.0])

    with lt.GradientTape() as tape:
        tape.watch(x)
        y = np.mean(np.exp(np.stack([x, np.square(x)])))
    want = (np.exp([1.0, 2.0, 3.0]) + 2 * np.array([1.0, 2.0, 3.0]) * np.exp([1.0, 4.0, 9.0])) / 6
    np.testing.assert_allclose(np.asarray(tape.gradient(y, x)), want, rtol=1e-5)


def test_gradients_reach_variables_through_numpy_calls():
    v = lt.Variable(np.array([1.0, -2.0], np.float32))
    with lt.GradientTape() as tape:
        y = np.add.reduce(np.square(v))
    np.testing.assert_allclose(np.asarray(tape.gradient(y, v)), [2.0, -4.0])


def test_einsum_and_tensordot_gradients():
    a = lt.constant(F32)
    b = lt.constant(F32.T.copy())
    with lt.GradientTape() as tape:
        tape.watch(a)
        y = np.sum(np.einsum("ij,jk->ik", a, b)) + np.sum(np.tensordot(a, b, axes=1))
    # d/da sum(a @ b) = ones @ b.T, twice
    want = 2 * np.ones((3, 3), np.float32) @ F32
    np.testing.assert_allclose(np.asarray(tape.gradient(y, a)), want, rtol=1e-5)


# ---- drawn inputs: reductions over any axis of any shape ---------------------------

hyp = pytest.importorskip("hypothesis")
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.extra import numpy as hnp  # noqa: E402

DRAWN_DTYPES = ["int8", "int32", "int64", "uint8", "uint32", "float32", "float64", "bool"]
REDUCTIONS = ["sum", "prod", "max", "min", "mean", "var", "std", "any", "all", "argmax", "argmin", "cumsum", "cumprod"]


@st.composite
def reduction_inputs(draw):
    dtype = draw(st.sampled_from(DRAWN_DTYPES))
    elements = st.integers(-3, 3) if dtype[0] in "iu" else None
    if dtype.startswith("u"):
        elements = st.integers(0, 3)
    if dtype.startswith("f"):
        elements = st.floats(-4, 4, width=int(dtype[-2:]))
    a = draw(hnp.arrays(np.dtype(dtype), hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4), elements=elements))
    name = draw(st.sampled_from(REDUCTIONS))
    if name in ("argmax", "argmin", "cumsum", "cumprod"):
        axis = draw(st.none() | st.integers(-a.ndim, a.ndim - 1))
        kwargs = {"axis": axis}
        if name.startswith("arg"):
            kwargs["keepdims"] = draw(st.booleans()) if axis is not None else False
    else:
        axis = draw(st.none() | st.integers(-a.ndim, a.ndim - 1) | st.just(tuple(range(a.ndim))))
        kwargs = {"axis": axis, "keepdims": draw(st.booleans())}
    return name, a, kwargs


@settings(max_examples=60, deadline=None, derandomize=True)
@given(reduction_inputs())
def test_drawn_reductions_match_numpy(case):
    name, a, kwargs = case
    fn = getattr(np, name)
    got, want = run(fn, a, **kwargs)
    check(got, want, rtol=1e-4 if a.dtype == np.float32 else None)


def test_numpy_calls_follow_the_promotion_mode():
    i32, f32 = xp.asarray(I32), xp.asarray(F32)
    assert np.add(i32, f32).dtype == lt.float32
    with lt.promotion_mode("safe"):
        with pytest.raises(TypeError, match="disallowed|refuse|promotion"):
            np.add(i32, f32)
        with pytest.raises(TypeError):
            np.ones((3, 4), np.float32) + i32  # the ndarray's operator goes through the protocol too
