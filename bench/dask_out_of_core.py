"""Out-of-core reductions on a Dask cluster: lattensor chunks against NumPy chunks.

Two arrays ``a`` and ``b`` of ``--size-gib`` GiB each (default: twice this
machine's RAM) are generated block by block on the workers with a stateless
Philox generator (lattensor's ``stateless_uniform``; NumPy's
``Generator(Philox(key))``), so no process ever holds a whole array. Two
computations reduce them:

- ``a.mean(axis=0)``             (reads ``a`` once)
- ``da.einsum('ij,ij->', a, b)`` (reads ``a`` and ``b`` once)

(for float16 both with ``dtype=float32``: in float16 the element count and
the einsum's total overflow, with either chunk type)

Each runs on a ``distributed.LocalCluster`` (``--workers`` processes of
``--threads`` threads, ``--memory-limit`` each), once with lattensor chunks and
once with NumPy chunks, interleaved for ``--rounds`` rounds, after an untimed
warm-up of each (the workers' first import of lattensor). The script prints
a Markdown table: seconds, throughput (GiB of input per second), the peak
resident memory of any worker (sampled every 0.2 s) and the ratio NumPy time /
lattensor time (above 1, lattensor is faster). Both backends' results are
checked against each other (the generators differ, so the check is that both
means are near 0.5 and both einsums near n/4 for uniform [0, 1) inputs).

    python bench/dask_out_of_core.py --size-gib 4 --dtype float32
    python bench/dask_out_of_core.py --dtype float16          # 2x RAM: long
"""

from __future__ import annotations

import argparse
import os
import statistics
import threading
import time

import numpy as np


def total_ram_gib() -> float:
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) / 2**20
    raise RuntimeError("no MemTotal in /proc/meminfo")


def lattensor_block(shape, seed, index, dtype):
    """One block of uniform [0, 1) values, a pure function of (seed, index)."""
    import lattensor as lt

    return lt.random.stateless_uniform(list(shape), seed=[seed, index], dtype=dtype)


def numpy_block(shape, seed, index, dtype):
    """The NumPy counterpart: Philox keyed by (seed, index); float16 is drawn as
    float32 and rounded (NumPy has no float16 generator)."""
    gen = np.random.Generator(np.random.Philox(key=(seed << 32) | index))
    draw = np.float64 if dtype == "float64" else np.float32
    out = gen.random(shape, dtype=draw)
    return out if out.dtype == np.dtype(dtype) else out.astype(dtype)


def generated(kind, rows, cols, chunk_rows, dtype, seed):
    import dask.array as da

    import lattensor as lt

    n = -(-rows // chunk_rows)
    chunks = (tuple(min(chunk_rows, rows - i * chunk_rows) for i in range(n)), (cols,))
    make = lattensor_block if kind == "lattensor" else numpy_block
    meta = lt.zeros([0, 0], lt.as_dtype(dtype)) if kind == "lattensor" else np.empty((0, 0), dtype)

    def block(block_info=None):
        info = block_info[None]
        return make(info["chunk-shape"], seed, info["chunk-location"][0], dtype)

    return da.map_blocks(block, chunks=chunks, dtype=np.dtype(dtype), meta=meta)


class PeakMemory:
    """Samples every worker's resident memory while running."""

    def __init__(self, client, period=0.2):
        self.client, self.period, self.peak = client, period, 0
        self._stop = threading.Event()

    def __enter__(self):
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()
        return self

    def _loop(self):
        import psutil

        def rss():
            return psutil.Process().memory_info().rss

        while not self._stop.is_set():
            try:
                self.peak = max([self.peak, *self.client.run(rss).values()])
            except Exception:  # noqa: BLE001 (a sample lost while a worker restarts)
                pass
            self._stop.wait(self.period)

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size-gib", type=float, default=None, help="GiB per array (default: 2x total RAM)")
    ap.add_argument("--cols", type=int, default=4096)
    ap.add_argument("--chunk-mib", type=float, default=32.0)
    ap.add_argument("--dtype", default="float32", choices=["float32", "float16", "float64"])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--memory-limit", default="2GiB", help="per worker")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--seed", type=int, default=20261206)
    ap.add_argument(
        "--lattensor-threads",
        default="1",
        help="LATTENSOR_NUM_THREADS in the workers (default 1: Dask already runs one task per core)",
    )
    args = ap.parse_args()
    # the worker processes inherit it; NumPy's element-wise kernels are single-threaded too
    os.environ["LATTENSOR_NUM_THREADS"] = args.lattensor_threads

    import dask.array as da
    import distributed

    import lattensor as lt  # noqa: F401 (registers with Dask)

    size_gib = args.size_gib if args.size_gib is not None else 2 * total_ram_gib()
    item = np.dtype(args.dtype).itemsize
    rows = int(size_gib * 2**30) // (args.cols * item)
    chunk_rows = max(1, int(args.chunk_mib * 2**20) // (args.cols * item))
    gib = rows * args.cols * item / 2**30

    cluster = distributed.LocalCluster(
        n_workers=args.workers,
        threads_per_worker=args.threads,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        memory_limit=args.memory_limit,
    )
    client = distributed.Client(cluster)
    print(
        f"arrays: 2 x ({rows}, {args.cols}) {args.dtype} = 2 x {gib:.2f} GiB, chunks ({chunk_rows}, {args.cols}) "
        f"= {chunk_rows * args.cols * item / 2**20:.0f} MiB; RAM {total_ram_gib():.1f} GiB; "
        f"{args.workers} workers x {args.threads} threads, memory limit {args.memory_limit} each; "
        f"{os.cpu_count()} CPUs; LATTENSOR_NUM_THREADS={args.lattensor_threads}",
        flush=True,
    )
    times = {}
    peaks = {}
    results = {}
    # float16 accumulates in float32: in float16 Dask's element count (65536
    # rows) and the einsum's total overflow to inf, with either chunk type
    acc = np.float32 if args.dtype == "float16" else None
    workloads = {
        "mean(axis=0)": (lambda a, b: a.mean(axis=0, dtype=acc), 1),
        "einsum('ij,ij->')": (lambda a, b: da.einsum("ij,ij->", a, b, dtype=acc), 2),
    }
    # Warm-up, not timed: each worker imports lattensor (and registers it with
    # Dask) when its first lattensor task arrives, which added about 1.3 s to the
    # first timed computation at 1 GiB; one small run of each workload and chunk
    # type (two chunks per worker) first.
    for fn, _n_inputs in workloads.values():
        for kind in ("lattensor", "numpy"):
            small = min(rows, 4 * chunk_rows)
            a = generated(kind, small, args.cols, chunk_rows, args.dtype, args.seed)
            b = generated(kind, small, args.cols, chunk_rows, args.dtype, args.seed + 1)
            client.compute(fn(a, b), sync=True)
    for _ in range(args.rounds):
        for wl, (fn, _n_inputs) in workloads.items():
            for kind in ("lattensor", "numpy"):
                a = generated(kind, rows, args.cols, chunk_rows, args.dtype, args.seed)
                b = generated(kind, rows, args.cols, chunk_rows, args.dtype, args.seed + 1)
                graph = fn(a, b)
                with PeakMemory(client) as mem:
                    t0 = time.perf_counter()
                    out = client.compute(graph, sync=True)
                    dt = time.perf_counter() - t0
                times.setdefault((wl, kind), []).append(dt)
                peaks[(wl, kind)] = max(peaks.get((wl, kind), 0), mem.peak)
                results[(wl, kind)] = out
                if kind == "lattensor":
                    assert isinstance(out, lt.Tensor), type(out)
                print(f"  {wl:18s} {kind:9s} {dt:8.2f} s", flush=True)

    n = rows * args.cols
    mean_l = float(np.asarray(results[("mean(axis=0)", "lattensor")], np.float64).mean())
    mean_n = float(np.asarray(results[("mean(axis=0)", "numpy")], np.float64).mean())
    dot_l = float(np.asarray(results[("einsum('ij,ij->')", "lattensor")], np.float64)) / n
    dot_n = float(np.asarray(results[("einsum('ij,ij->')", "numpy")], np.float64)) / n
    print(f"\ncheck: mean of means {mean_l:.4f} (lattensor) {mean_n:.4f} (NumPy), expected 0.5; "
          f"einsum / n {dot_l:.4f} / {dot_n:.4f}, expected 0.25\n")
    print("| workload | dtype | GiB read | lattensor s (GiB/s) | NumPy s (GiB/s) | NumPy / lattensor | peak worker RSS (lattensor / NumPy) |")
    print("|---|---|---|---|---|---|---|")
    for wl, (_fn, n_inputs) in workloads.items():
        tl = statistics.median(times[(wl, "lattensor")])
        tn = statistics.median(times[(wl, "numpy")])
        read = gib * n_inputs
        print(
            f"| {wl} | {args.dtype} | {read:.2f} | {tl:.2f} ({read / tl:.2f}) | {tn:.2f} ({read / tn:.2f}) | "
            f"{tn / tl:.2f}x | {peaks[(wl, 'lattensor')] / 2**20:.0f} / {peaks[(wl, 'numpy')] / 2**20:.0f} MiB |"
        )
    client.close()
    cluster.close()


if __name__ == "__main__":
    main()
