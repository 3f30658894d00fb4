"""Dask arrays of lattensor chunks, computed on three schedulers: Dask's
synchronous scheduler, a ``distributed.LocalCluster`` of two worker processes,
and a loopback cluster of ``dask scheduler`` + two ``dask worker`` processes
started from the command line. Every result is compared with the same
operation done in-process by lattensor on whole tensors: dtype, weakness and
values (bit-equal for element-wise ops, integer ops, max, slicing,
concatenation; float sums and means within a stated rounding bound, because
Dask adds the chunks' partial sums in another order).
"""

from __future__ import annotations

import numpy as np
import pytest

da = pytest.importorskip("dask.array")
distributed = pytest.importorskip("distributed")

import dask  # noqa: E402
import ml_dtypes  # noqa: E402

import lattensor as lt  # noqa: E402
import lattensor.dask as ld  # noqa: E402
from lattensor import array_api as xp  # noqa: E402

from dask_clusters import CliCluster, local_cluster  # noqa: E402

SCHEDULERS = ["sync", "local-cluster", "cli-cluster"]


@pytest.fixture(scope="module")
def _local():
    cluster, client = local_cluster()
    yield client
    client.close()
    cluster.close()


@pytest.fixture(scope="module")
def _cli(tmp_path_factory):
    cluster = CliCluster(str(tmp_path_factory.mktemp("dask-cli")))
    try:
        cluster.start()
        yield cluster.client
    finally:
        cluster.close()


@pytest.fixture(params=SCHEDULERS)
def run(request):
    """``run(*arrays)``: the computed arrays, as a tuple, on one scheduler."""
    if request.param == "sync":
        return lambda *xs: dask.compute(*xs, scheduler="sync")
    client = request.getfixturevalue("_local" if request.param == "local-cluster" else "_cli")
    return lambda *xs: tuple(client.compute(list(xs), sync=True))


def _data(dtype, shape=(40, 30), seed=0):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind in "iu":
        return rng.integers(-50 if np.dtype(dtype).kind == "i" else 0, 50, size=shape).astype(dtype)
    if np.dtype(dtype).kind == "b":
        return rng.integers(0, 2, size=shape).astype(bool)
    return rng.standard_normal(shape).astype(dtype)


def _bits(t):
    a = np.ascontiguousarray(np.asarray(t))
    return a.reshape(-1).view(np.uint8).tobytes()


def reference(name, a, **kwargs):
    """lattensor's in-process reduction: ``lattensor.array_api``'s, or for
    float16/bfloat16 (not the standard's dtypes) ``tnp``'s."""
    mod = lt.experimental.numpy if a.dtype in (lt.float16, lt.bfloat16) else xp
    return getattr(mod, name)(a, **kwargs)


def assert_same(got, want):
    """``got`` is a lattensor tensor equal to ``want`` in dtype, weakness, shape and bits."""
    assert isinstance(got, lt.Tensor), f"chunk type {type(got).__name__}, expected lattensor.Tensor"
    assert (got.dtype, got.weak, tuple(got.shape)) == (want.dtype, want.weak, tuple(want.shape))
    assert _bits(got) == _bits(want), f"\n{np.asarray(got)}\n!=\n{np.asarray(want)}"


def assert_close(got, want, bound):
    """Same dtype, weakness and shape; values within ``bound`` (elementwise, absolute)."""
    assert isinstance(got, lt.Tensor)
    assert (got.dtype, got.weak, tuple(got.shape)) == (want.dtype, want.weak, tuple(want.shape))
    g = np.asarray(got).astype(np.float64)
    w = np.asarray(want).astype(np.float64)
    assert np.all(np.abs(g - w) <= bound), f"max error {np.max(np.abs(g - w))} > bound"


def assert_meta(dx, want):
    """The graph's meta is a zero-size lattensor tensor of the result's dtype and weakness."""
    assert isinstance(dx._meta, lt.Tensor)
    assert dx._meta.dtype == want.dtype and dx._meta.weak == want.weak
    assert int(np.prod(dx._meta.shape)) == 0
    assert dx.dtype == want.dtype and tuple(dx.shape) == tuple(want.shape)


# ---- element-wise: mixed dtypes and weak scalars ---------------------------

ELEMENTWISE = [
    ("f16 + 1.0", "float16", None, lambda x, y: x + 1.0),
    ("1.0 - f16", "float16", None, lambda x, y: 1.0 - x),
    ("i32 + bf16", "int32", "bfloat16", lambda x, y: x + y),
    ("i8 * u8", "int8", "uint8", lambda x, y: x * y),
    ("i64 / i32", "int64", "int32", lambda x, y: x / y),
    ("i64 + f16", "int64", "float16", lambda x, y: x + y),
    ("u32 - 3", "uint32", None, lambda x, y: x - 3),
    ("f32 ** 2", "float32", None, lambda x, y: x**2),
    ("c64 * 2.5", "complex64", None, lambda x, y: x * 2.5),
    ("f64 < bf16", "float64", "bfloat16", lambda x, y: x < y),
    ("-f32", "float32", None, lambda x, y: -x),
    ("abs(i16)", "int16", None, lambda x, y: abs(x)),
    ("maximum(f32, i8)", "float32", "int8", lambda x, y: xp.maximum(x, y) if isinstance(x, lt.Tensor) else da.maximum(x, y)),
]


def _np(name):
    return ml_dtypes.bfloat16 if name == "bfloat16" else np.dtype(name)


@pytest.mark.parametrize("case", ELEMENTWISE, ids=[c[0] for c in ELEMENTWISE])
def test_elementwise(run, case):
    _, a_dtype, b_dtype, f = case
    a = lt.constant(_data(_np(a_dtype)))
    b = lt.constant(_data(_np(b_dtype), seed=1)) if b_dtype else None
    dx = ld.from_array(a, chunks=(16, 12))
    dy = ld.from_array(b, chunks=(16, 12)) if b_dtype else None
    want = f(a, b)
    dz = f(dx, dy)
    assert_meta(dz, want)
    (got,) = run(dz)
    assert_same(got, want)


def test_weak_tensor_operands_stay_weak(run):
    a = lt.constant([[1.5, -2.25], [0.5, 4.0]])  # weak f32
    assert a.weak
    dx = ld.from_array(a, chunks=1)
    assert dx._meta.weak
    want = a * 2
    dz = dx * 2
    assert_meta(dz, want)
    (got,) = run(dz)
    assert_same(got, want)
    # a weak operand adapts to a strong float16 operand, chunk by chunk
    h = lt.constant(np.ones((2, 2), np.float16))
    dh = ld.from_array(h, chunks=1)
    assert_same(run(dx + dh)[0], a + h)


def test_safe_mode_refuses_while_the_graph_is_built():
    a = lt.constant(_data(np.int32))
    b = lt.constant(_data(np.float32))
    dx = ld.from_array(a, chunks=(16, 12))
    dy = ld.from_array(b, chunks=(16, 12))
    with lt.promotion_mode("safe"):
        with pytest.raises(TypeError) as in_process:
            a + b
        with pytest.raises(TypeError) as in_dask:
            dx + dy  # no compute: the refusal comes from building the graph
    assert str(in_dask.value) == str(in_process.value)
    assert "int32" in str(in_dask.value) and "float32" in str(in_dask.value)


def test_the_graph_computes_in_the_mode_it_was_built_in(run):
    # int64 + float16 is float16 in ALL mode and float64 under NumPy's rules;
    # workers default to ALL, so the mode must travel with the tasks
    a = lt.constant(_data(np.int64))
    b = lt.constant(_data(np.float16))
    dx = ld.from_array(a, chunks=(16, 12))
    dy = ld.from_array(b, chunks=(16, 12))
    with lt.promotion_mode("numpy"):
        want = a + b
        dz = dx + dy
    assert want.dtype == lt.float64
    assert_meta(dz, want)
    (got,) = run(dz)
    assert_same(got, want)


# ---- reductions ------------------------------------------------------------

AXES = [0, 1, None]


@pytest.mark.parametrize("axis", AXES, ids=lambda a: f"axis={a}")
@pytest.mark.parametrize("dtype", ["int32", "uint8", "int64"])
def test_integer_reductions_are_bit_equal(run, dtype, axis):
    a = lt.constant(_data(np.dtype(dtype)))
    dx = ld.from_array(a, chunks=(16, 12))
    for name in ("sum", "max", "min", "prod"):
        want = getattr(xp, name)(a, axis=axis)
        dz = getattr(dx, name)(axis=axis)
        (got,) = run(dz)
        assert_same(got, want)


@pytest.mark.parametrize("axis", AXES, ids=lambda a: f"axis={a}")
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
def test_float_reductions(run, dtype, axis):
    x = _data(_np(dtype))
    a = lt.constant(x)
    dx = ld.from_array(a, chunks=(16, 12))
    n = x.size if axis is None else x.shape[axis]
    k = 3 * 3 if axis is None else 3  # chunks along the reduced axes: 40 = 16+16+8, 30 = 12+12+6
    # stated bound: Dask sums each chunk (lattensor accumulates float16 and
    # bfloat16 in float32), rounds each partial sum to the dtype, then adds the
    # k partial sums in the dtype; a sum of n terms in another order differs by
    # at most (n - 1) * eps_acc * sum(|x|), and the k + 1 roundings to the
    # dtype add (k + 1) * eps * sum(|x|)
    acc_eps = float(np.finfo(np.float32 if dtype in ("float16", "bfloat16") else dtype).eps)
    out_eps = float(ml_dtypes.finfo(_np(dtype)).eps)
    absx = np.abs(x.astype(np.float64)).sum(axis=axis)
    sum_bound = (n - 1) * acc_eps * absx + (k + 1) * out_eps * absx
    if dtype == "bfloat16" and axis is None:
        # Dask's std over all axes writes into a bfloat16 NumPy scalar (its
        # count): it fails the same way with NumPy chunks
        with pytest.raises(TypeError, match="item assignment"):
            run(dx.std())
        with pytest.raises(TypeError, match="item assignment"):
            run(da.from_array(x, chunks=(16, 12)).std())
        got_sum, got_mean, got_max = run(dx.sum(axis=axis), dx.mean(axis=axis), dx.max(axis=axis))
        got_std = None
    else:
        got_sum, got_mean, got_max, got_std = run(
            dx.sum(axis=axis), dx.mean(axis=axis), dx.max(axis=axis), dx.std(axis=axis)
        )
    assert_close(got_sum, reference("sum", a, axis=axis), sum_bound)
    want_mean = reference("mean", a, axis=axis)
    assert_close(got_mean, want_mean, sum_bound / n + 2 * out_eps * np.abs(np.asarray(want_mean).astype(np.float64)))
    assert_same(got_max, reference("max", a, axis=axis))
    # std: Dask combines per-chunk moments (Chan et al.); the bound is relative,
    # a few roundings of the dtype per chunk combination
    if got_std is None:
        return
    want_std = reference("std", a, axis=axis)
    assert_close(got_std, want_std, 4 * (k + 1) * out_eps * np.abs(np.asarray(want_std).astype(np.float64)) + sum_bound / n)


# ---- contractions ----------------------------------------------------------


@pytest.mark.parametrize("dtype", ["int32", "float32"])
def test_matmul_einsum_tensordot(run, dtype):
    a = lt.constant(_data(np.dtype(dtype), (24, 18)))
    b = lt.constant(_data(np.dtype(dtype), (18, 10), seed=3))
    dx = ld.from_array(a, chunks=(8, 6))
    dy = ld.from_array(b, chunks=(6, 5))
    want = xp.matmul(a, b)
    if dtype == "int32":
        # Dask adds the chunks' partial products with `sum`, whose result for
        # int32 is the default integer, int64 (NumPy's and the Array API's
        # rule; Dask does the same with NumPy chunks): the values are exact
        want = xp.astype(want, xp.int64)
    outs = run(dx @ dy, da.einsum("ij,jk->ik", dx, dy), da.tensordot(dx, dy, axes=((1,), (0,))))
    bound = 0.0 if dtype == "int32" else 18 * 2 * float(np.finfo(np.float32).eps) * np.abs(np.asarray(a)) @ np.abs(np.asarray(b))
    for got in outs:
        if dtype == "int32":
            assert_same(got, want)
        else:
            assert_close(got, want, bound)


def test_einsum_full_contraction(run):
    a = lt.constant(_data(np.int64, (20, 16)))
    b = lt.constant(_data(np.int64, (20, 16), seed=2))
    dx = ld.from_array(a, chunks=(7, 5))
    dy = ld.from_array(b, chunks=(7, 5))
    want = lt.experimental.numpy.einsum("ij,ij->", a, b)
    (got,) = run(da.einsum("ij,ij->", dx, dy))
    assert_same(got, want)


# ---- structure: slicing, concatenation, rechunking, map_blocks -------------


def test_slicing_take_concatenate_rechunk_map_blocks(run):
    a = lt.constant(_data(ml_dtypes.bfloat16))
    b = lt.constant(_data(np.float16, seed=4))
    dx = ld.from_array(a, chunks=(16, 12))
    dy = ld.from_array(b, chunks=(10, 10))
    idx = np.array([1, 5, 7, 33, 2])
    cases = [
        (dx[3:17, ::2], a[3:17, ::2]),
        (dx[idx], xp.take(a, lt.constant(idx), axis=0)),
        (da.concatenate([dx, dy], axis=0), xp.concat([a, b], axis=0)),
        (da.concatenate([dx, dx], axis=1), xp.concat([a, a], axis=1)),
        (dx.rechunk((7, 9)), a),
        (dx.map_blocks(lambda blk: blk * 2.0), a * 2.0),
        (dx.T, xp.permute_dims(a, (1, 0))),
        (dx.rechunk((8, 30)).reshape((4, 10, 30)), xp.reshape(a, (4, 10, 30))),
    ]
    outs = run(*[c[0] for c in cases])
    for (dz, want), got in zip(cases, outs):
        assert_meta(dz, want)
        assert_same(got, want)


@pytest.mark.parametrize("dtype", ["float32", "int16", "bfloat16"])
def test_item_assignment_on_a_dask_array(run, dtype):
    # Dask copies each chunk it writes into (x.copy()) and assigns into the copy
    x = _data(_np(dtype))
    dx = ld.from_array(lt.constant(x), chunks=(16, 12))
    dx[dx > 1] = 0
    dx[3] = 7
    dx[:, 5:9] = ld.from_array(lt.constant(np.full((40, 4), 2, dtype=_np(dtype))), chunks=(16, 4))
    want = x.copy()
    want[want > 1] = 0
    want[3] = 7
    want[:, 5:9] = 2
    (got,) = run(dx)
    assert_same(got, lt.constant(want))


# ---- meta, chunk type, backend ---------------------------------------------


@pytest.mark.parametrize("dtype", ["bfloat16", "float16", "complex64", "bool"])
def test_distributed_sends_tensor_data_out_of_band(dtype):
    from distributed.protocol import deserialize, serialize

    t = lt.constant(_data(_np(dtype), (100, 50)))
    header, frames = serialize(t, serializers=("pickle",))
    sizes = sorted(memoryview(f).nbytes for f in frames)
    # a small pickle stream plus the data as its own frame, not copied into the stream
    assert sizes[-1] == 100 * 50 * t.dtype.size and sizes[0] < 300
    back = deserialize(header, frames)
    assert (back.dtype, back.weak) == (t.dtype, t.weak) and _bits(back) == _bits(t)


def test_registration():
    from dask.array.chunk_types import is_valid_chunk_type
    from dask.array.dispatch import concatenate_lookup, einsum_lookup, tensordot_lookup

    assert is_valid_chunk_type(lt.Tensor)
    for lookup in (concatenate_lookup, einsum_lookup, tensordot_lookup):
        assert lookup.dispatch(lt.Tensor).__module__ == "lattensor.dask._dispatch"


def test_meta_keeps_dtype_and_weakness():
    dx = ld.from_array(lt.constant([1.0, 2.0, 3.0]), chunks=2)
    assert isinstance(dx._meta, lt.Tensor) and dx._meta.weak and dx._meta.shape == (0,)
    assert dx.dtype == lt.float32 and np.dtype(dx.dtype) == np.float32
    dh = ld.from_array(lt.constant(np.ones(3, np.float16)), chunks=2)
    assert (dh + 1.0)._meta.dtype == lt.float16 and not (dh + 1.0)._meta.weak


def test_lattensor_backend_creates_lattensor_chunks(run):
    with dask.config.set({"array.backend": "lattensor"}):
        ones = da.ones((10, 7), chunks=4, dtype="float16")
        zeros = da.zeros((5,), chunks=2, dtype=lt.bfloat16)
        full = da.full((3, 3), 7, chunks=2, dtype="int8")
        rand = da.random.RandomState(42).random_sample((50, 20), chunks=(20, 10))
        normal = da.random.RandomState(42).normal(3.0, 2.0, size=(200,), chunks=60)
        from_np = da.from_array(np.arange(12, dtype=np.int16).reshape(3, 4), chunks=2)
        ar = da.arange(10, chunks=3)
    for dz in (ones, zeros, full, rand, normal, from_np, ar):
        assert isinstance(dz._meta, lt.Tensor)
    got = run(ones, zeros, full, rand, normal, from_np, ar)
    assert_same(got[0], lt.ones([10, 7], lt.float16))
    assert_same(got[1], lt.zeros([5], lt.bfloat16))
    assert_same(got[2], lt.fill([3, 3], lt.constant(7, lt.int8)))
    r = np.asarray(got[3])
    assert got[3].dtype == lt.float64 and r.shape == (50, 20) and r.min() >= 0 and r.max() < 1
    # a block is a pure function of its seed: the same values on every scheduler
    assert _bits(got[3]) == _bits(dask.compute(rand, scheduler="sync")[0])
    assert abs(float(np.asarray(got[4]).mean()) - 3.0) < 0.5
    assert_same(got[5], lt.constant(np.arange(12, dtype=np.int16).reshape(3, 4)))
    assert_same(got[6], lt.constant(np.arange(10)))


def _default_rng_draws(seed):
    rng = da.random.default_rng(seed)
    return (
        rng.random((50, 20), chunks=(20, 10)),
        rng.standard_normal((30,), chunks=7, dtype="float32"),
        rng.integers(0, 10, size=(40,), chunks=15),
        rng.uniform(-2.0, 3.0, size=(25,), chunks=10),
        rng.normal(3.0, 2.0, size=(200,), chunks=60),
    )


def test_default_rng_with_the_lattensor_backend(run):
    with dask.config.set({"array.backend": "lattensor"}):
        draws = _default_rng_draws(42)
        again = _default_rng_draws(42)
        other = _default_rng_draws(43)
    for dz in draws:
        assert isinstance(dz._meta, lt.Tensor)
    got = run(*draws)
    assert [g.dtype for g in got] == [lt.float64, lt.float32, lt.int64, lt.float64, lt.float64]
    assert all(isinstance(g, lt.Tensor) for g in got)
    # reproducible by seed, on any scheduler: a second default_rng(42) graph, computed synchronously
    rerun = dask.compute(*again, scheduler="sync")
    assert [_bits(g) for g in got] == [_bits(r) for r in rerun]
    assert all(_bits(g) != _bits(o) for g, o in zip(got, dask.compute(*other, scheduler="sync")))
    # each block is lattensor.random.default_rng(the block's spawned SeedSequence):
    # Dask spawns one child per block, in block order, for each call
    seq = np.random.SeedSequence(42)
    children = seq.spawn(6)
    blocks = [
        lt.random.default_rng(c).random(shape)
        for c, shape in zip(children, [(20, 10), (20, 10), (20, 10), (20, 10), (10, 10), (10, 10)])
    ]
    want = np.block([[np.asarray(blocks[0]), np.asarray(blocks[1])],
                     [np.asarray(blocks[2]), np.asarray(blocks[3])],
                     [np.asarray(blocks[4]), np.asarray(blocks[5])]])
    assert _bits(got[0]) == _bits(want)
    r, i, u = np.asarray(got[0]), np.asarray(got[2]), np.asarray(got[3])
    assert r.min() >= 0 and r.max() < 1 and i.min() >= 0 and i.max() <= 9 and u.min() >= -2 and u.max() < 3
    assert abs(float(np.asarray(got[4]).mean()) - 3.0) < 0.5


def test_to_backend_round_trip(run):
    dnp = da.from_array(_data(np.int16), chunks=(16, 12))
    dlt = dnp.to_backend("lattensor")
    assert isinstance(dlt._meta, lt.Tensor)
    (got,) = run(dlt)
    assert_same(got, lt.constant(_data(np.int16)))
    back = dlt.to_backend("numpy")
    (got_np,) = run(back)
    assert isinstance(got_np, np.ndarray)
    np.testing.assert_array_equal(got_np, _data(np.int16))


# ---- bad input -------------------------------------------------------------


def test_compute_refuses_numpy_chunks():
    dnp = da.from_array(np.ones((4, 4)), chunks=2)
    with pytest.raises(TypeError, match="numpy.ndarray|ndarray chunks"):
        ld.compute(dnp)


def test_a_block_function_that_returns_numpy_is_caught(run):
    dx = ld.from_array(lt.constant(_data(np.float32)), chunks=(16, 12))
    bad = dx.map_blocks(np.asarray, meta=dx._meta)  # declares lattensor chunks, returns NumPy
    with pytest.raises(TypeError, match="not a lattensor tensor|lattensor"):
        ld.compute(bad, scheduler="sync")


def test_out_and_where_are_refused_not_ignored():
    dx = ld.from_array(lt.constant(_data(np.float32)), chunks=(16, 12))
    with pytest.raises(NotImplementedError, match="does not write into lattensor tensors"):
        da.add(dx, 1.0, where=dx > 0)


def test_a_worker_without_lattensor_fails_clearly_and_loses_nothing(tmp_path):
    # a worker whose `import lattensor` fails, as on a host without the package
    shadow = tmp_path / "shadow" / "lattensor"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("raise ModuleNotFoundError(\"No module named 'lattensor'\", name='lattensor')\n")
    import os

    env = dict(os.environ)
    env["PYTHONPATH"] = str(tmp_path / "shadow") + os.pathsep + env.get("PYTHONPATH", "")
    cluster = CliCluster(str(tmp_path), n_workers=0)
    try:
        cluster.start()
        client = cluster.client
        cluster.add_worker(env=env, log="worker-without-lattensor.log")
        client.wait_for_workers(1, timeout=60)
        with pytest.raises(RuntimeError, match="1 of 1 Dask workers cannot import lattensor.*No module named 'lattensor'"):
            ld.check_workers(client)
        a = lt.constant(_data(np.int32))
        future = client.compute(ld.from_array(a, chunks=(16, 12)) + 1)
        # the worker dies receiving the task; the task waits, it is not run elsewhere or as NumPy
        with pytest.raises(TimeoutError):
            future.result(timeout=5)
        assert future.status == "pending"
        cluster.add_worker(log="worker-with-lattensor.log")
        assert_same(future.result(timeout=60), a + 1)
        versions = ld.check_workers(client)
        assert list(versions.values()) == [lt.__version__]
    finally:
        cluster.close()


def test_backend_entry_point_loads_lattensor_in_a_fresh_process():
    # Dask finds the backend through the installed entry point, before anything imported lattensor
    import subprocess
    import sys

    code = (
        "import sys, dask, dask.array as da\n"
        "assert 'lattensor' not in sys.modules\n"
        "with dask.config.set({'array.backend': 'lattensor'}):\n"
        "    x = da.ones((4, 4), chunks=2, dtype='float16')\n"
        "v = x.compute(scheduler='sync')\n"
        "print(type(x._meta).__name__, type(v).__name__, v.dtype.name)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["Tensor", "Tensor", "float16"]
