"""Dask's own CuPy chunk-type tests (``dask/array/tests/test_cupy_*.py``, dask
2026.8.0) as a checklist, ported to lattensor chunks.

Each case builds the same Dask expression on lattensor chunks and on NumPy
chunks of the same float64 data, and checks that the lattensor graph's meta
and computed result are lattensor tensors and that the values equal NumPy's
(float64 data: equal within 1e-12 relative, exact for integers and bools).
Cases that need what lattensor does not have are marked ``xfail(strict=True)``
with the reason, so the list stays true: a case that starts to pass fails the
suite until its mark is removed. Cases that do not apply to a CPU chunk type
(GPU memory, ``cupy.asnumpy``, setitem on mutable device arrays) are left out;
docs/dask.md gives the count.
"""

from __future__ import annotations

import numpy as np
import pytest

da = pytest.importorskip("dask.array")

import dask  # noqa: E402

import lattensor as lt  # noqa: E402
import lattensor.dask as ld  # noqa: E402


def _xfail(reason):
    return pytest.mark.xfail(reason=reason, strict=True)


# test_cupy_core.py::test_basic's expressions, in its order
BASIC = [
    ("identity", lambda x: x),
    ("expm1", lambda x: da.expm1(x)),
    ("2*x", lambda x: 2 * x),
    ("x/2", lambda x: x / 2),
    ("x**2", lambda x: x**2),
    ("x+x", lambda x: x + x),
    ("x*x", lambda x: x * x),
    ("x[0]", lambda x: x[0]),
    ("x[:,1]", lambda x: x[:, 1]),
    ("x[:1,None,1:3]", lambda x: x[:1, None, 1:3]),
    ("x.T", lambda x: x.T),
    ("transpose", lambda x: da.transpose(x, (1, 2, 0))),
    ("sum", lambda x: x.sum()),
    ("empty_like", lambda x: da.empty_like(x)),
    ("ones_like", lambda x: da.ones_like(x)),
    ("zeros_like", lambda x: da.zeros_like(x)),
    ("full_like", lambda x: da.full_like(x, 5)),
    ("mean", lambda x: x.mean()),
    ("moment0", lambda x: x.moment(order=0)),
    ("moment2", lambda x: x.moment(order=2)),
    ("std", lambda x: x.std()),
    ("var", lambda x: x.var()),
    ("dot(arange)", lambda x: x.dot(np.arange(x.shape[-1]))),
    ("dot(eye)", lambda x: x.dot(np.eye(x.shape[-1]))),
    ("tensordot(ones)", lambda x: da.tensordot(x, np.ones(x.shape[:2]), axes=[(0, 1), (0, 1)])),
    ("sum(axis=0)", lambda x: x.sum(axis=0)),
    ("max(axis=0)", lambda x: x.max(axis=0)),
    ("sum(axis=(1,2))", lambda x: x.sum(axis=(1, 2))),
    ("astype(c128)", lambda x: x.astype(np.complex128)),
    ("map_blocks", lambda x: x.map_blocks(lambda b: b * 2)),
    ("round(1)", lambda x: x.round(1)),
    ("reshape merge", lambda x: x.reshape((x.shape[0] * x.shape[1], x.shape[2]))),
    ("rechunk+reshape", lambda x: (x.rechunk(x.shape)).reshape((x.shape[1], x.shape[0], x.shape[2]))),
    ("reshape split", lambda x: x.reshape((x.shape[0], x.shape[1], x.shape[2] / 2, x.shape[2] / 2))),
    ("abs", lambda x: abs(x)),
    ("x>0.5", lambda x: x > 0.5),
    ("rechunk(4,4,4)", lambda x: x.rechunk((4, 4, 4))),
    ("rechunk(2,2,1)", lambda x: x.rechunk((2, 2, 1))),
    ("einsum ijk,ijk", lambda x: da.einsum("ijk,ijk", x, x)),
    ("isneginf", lambda x: np.isneginf(x)),
    ("isposinf", lambda x: np.isposinf(x)),
    ("isreal", lambda x: np.isreal(x)),
    ("iscomplex", lambda x: np.iscomplex(x)),
    ("real", lambda x: np.real(x)),
    ("imag", lambda x: np.imag(x)),
    ("exp", lambda x: np.exp(x)),
    ("fix", lambda x: np.fix(x)),
    ("i0", lambda x: np.i0(x.reshape((24,)))),
    ("sinc", lambda x: np.sinc(x)),
    ("nan_to_num", lambda x: np.nan_to_num(x)),
    ("np.max", lambda x: np.max(x)),
    ("np.min", lambda x: np.min(x)),
    ("np.prod", lambda x: np.prod(x)),
    ("np.any", lambda x: np.any(x)),
    ("np.all", lambda x: np.all(x)),
    ("nansum", lambda x: np.nansum(x)),
    ("nanprod", lambda x: np.nanprod(x)),
    ("nanmin", lambda x: np.nanmin(x)),
    ("nanmax", lambda x: np.nanmax(x)),
    ("angle", lambda x: np.angle(x)),
    ("angle(deg)", lambda x: np.angle(x, True)),
]

# the other files' cases that apply to a CPU chunk type
OTHER = [
    ("creation: diag", lambda x: da.diag(x[0, :, 0])),
    ("creation: diagonal", lambda x: da.diagonal(x, axis1=1, axis2=2)),
    ("creation: pad constant", lambda x: da.pad(x, 1, mode="constant")),
    ("creation: tril", lambda x: da.tril(x[0])),
    ("creation: triu", lambda x: da.triu(x[0], 1)),
    ("reductions: argmax", lambda x: da.argmax(x, axis=0)),
    ("reductions: argmin", lambda x: da.argmin(x, axis=1)),
    ("reductions: nanargmax", lambda x: da.nanargmax(x, axis=0)),
    ("reductions: cumsum", lambda x: da.cumsum(x, axis=1)),
    ("reductions: cumprod", lambda x: da.cumprod(x, axis=2)),
    ("routines: diff", lambda x: da.diff(x, axis=2)),
    ("routines: compress", lambda x: da.compress([True, False, True], x, axis=1)),
    ("routines: digitize", lambda x: da.digitize(x, np.array([0.2, 0.5, 0.8]))),
    ("routines: unique", lambda x: da.unique(x.round(1))),
    ("slicing: int dask index", lambda x: x[:, da.from_array(np.array([2, 0, 1]), chunks=2)]),
    ("slicing: vindex", lambda x: x.vindex[[0, 1], [2, 0], [3, 1]]),
    ("overlap: periodic", lambda x: da.overlap.overlap(x, depth={0: 0, 1: 1, 2: 1}, boundary="periodic")),
    ("overlap: reflect", lambda x: da.overlap.overlap(x, depth={0: 0, 1: 1, 2: 1}, boundary="reflect")),
    ("overlap: nearest", lambda x: da.overlap.overlap(x, depth={0: 0, 1: 1, 2: 1}, boundary="nearest")),
    ("overlap: constant", lambda x: da.overlap.overlap(x, depth={0: 0, 1: 1, 2: 1}, boundary=0)),
    ("overlap: map_overlap", lambda x: x.map_overlap(lambda b: b * 2, depth=1, boundary="none")),
    ("percentile", lambda x: da.percentile(x.reshape((24,)), [10, 50, 90])),
    ("gufunc: apply_gufunc", lambda x: da.apply_gufunc(lambda b: b.sum(axis=-1), "(i)->()", x.rechunk({2: -1}), axis=-1, output_dtypes=x.dtype)),
]

# what lattensor lacks, with the reason (strict xfails: kept true by the suite)
XFAIL = {
    "reductions: argmax": "np.argmax on blocks: no lattensor counterpart; the graph's meta comes out NumPy",
    "reductions: argmin": "np.argmin on blocks: no lattensor counterpart; the graph's meta comes out NumPy",
    "reductions: nanargmax": "np.nanargmax on blocks: no lattensor counterpart; the graph's meta comes out NumPy",
    "routines: unique": "da.unique builds NumPy structured arrays from the blocks",
    "slicing: vindex": "lattensor indexing takes an integer array on the first axis only, not one per axis",
}


def _data():
    return np.random.default_rng(0).random((2, 3, 4))


def _close(got, want):
    g, w = np.asarray(got), np.asarray(want)
    assert g.shape == w.shape
    if w.dtype.kind in "biu":
        np.testing.assert_array_equal(g, w)
    else:
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-12)


CASES = [pytest.param(f, id=name, marks=_xfail(XFAIL[name]) if name in XFAIL else ()) for name, f in BASIC + OTHER]


@pytest.mark.parametrize("func", CASES)
def test_like_cupy(func):
    n = _data()
    dc = ld.from_array(lt.constant(n), chunks=(1, 2, 2))
    dn = da.from_array(n, chunks=(1, 2, 2))
    ddc = func(dc)
    ddn = func(dn)
    assert type(ddc._meta) is lt.Tensor
    (got,) = dask.compute(ddc, scheduler="sync")
    (want,) = dask.compute(ddn, scheduler="sync")
    assert isinstance(got, lt.Tensor), f"computed {type(got).__name__}"
    if next(iter(ddc.dask.keys()))[0].startswith("empty"):
        # uninitialised memory (NumPy) against zeros (lattensor): shapes only, as Dask's test
        assert got.shape == want.shape
        return
    _close(got, want)


def test_sizeof_counts_the_tensor_bytes():
    from dask.sizeof import sizeof

    t = lt.constant(np.ones((100, 100), np.float32))
    assert sizeof(t) >= 100 * 100 * 4


@pytest.mark.parametrize("method", ["random_sample", "standard_normal", "uniform", "normal"])
def test_random_state_with_the_lattensor_backend(method):
    with dask.config.set({"array.backend": "lattensor"}):
        rs = da.random.RandomState(5)
        x = getattr(rs, method)(size=(30, 20), chunks=(10, 10))
    assert type(x._meta) is lt.Tensor
    (v,) = dask.compute(x, scheduler="sync")
    assert isinstance(v, lt.Tensor) and v.shape == (30, 20) and v.dtype == lt.float64


@pytest.mark.parametrize("method", ["random", "standard_normal", "uniform", "normal"])
def test_random_generator_with_the_lattensor_backend(method):
    with dask.config.set({"array.backend": "lattensor"}):
        rng = da.random.default_rng(5)
        x = getattr(rng, method)(size=(30, 20), chunks=(10, 10))
    assert type(x._meta) is lt.Tensor
    (v,) = dask.compute(x, scheduler="sync")
    assert isinstance(v, lt.Tensor) and v.shape == (30, 20) and v.dtype == lt.float64


def test_to_backend_like_cupy():
    n = _data()
    x = da.from_array(n, chunks=(1, 2, 2))
    y = x.to_backend("lattensor")
    assert type(y._meta) is lt.Tensor
    _close(dask.compute(y, scheduler="sync")[0], n)
