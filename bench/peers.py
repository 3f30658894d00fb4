#!/usr/bin/env python3
"""Side-by-side benchmarks: lattensor vs NumPy, opt_einsum, JAX, TensorFlow and PyTorch.

Every workload's candidates ("peers") run in ONE process run, interleaved
round-robin: a block of k back-to-back calls per peer (k chosen so a block lasts
>= --block-ms), rotating through the peers, until each has enough clean blocks.
lattensor runs through its bench server (bench/rust/src/bin/bench_server/main.rs)
speaking a line protocol over stdin/stdout; its inputs are built by the same
formula as the peers' inputs, and one result per workload is checked against
NumPy's.

Noise control as in shared/spec/perf_baselines.md: before and after each block,
after a short pause and a wait until no peer's worker thread spins, the
server runs a 2-thread FMA + spin-barrier canary (a block is discarded if either
canary took > 1.5x the best canary of the run: the host stole a vCPU) and a
2-thread 96 MiB read that tags the block with the host's DRAM-bandwidth mode.

Peers that are not installed are skipped; errors are reported as rows.
See bench/README.md.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import random
import re
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERVER = ROOT / "target" / "release" / "bench_server"

# Machine limits (shared/spec/perf_baselines.md, "Measured limits"): GB/s or GFLOP/s,
# 2 threads in the host's usual ("slow") bandwidth mode, and 1 thread.
LIMITS = {
    "add": (47.1, 40.1, "STREAM add (best of regular/NT stores)"),
    "copy": (51.7, 45.1, "STREAM copy (best of regular/NT stores)"),
    "read": (35.9, 31.4, "STREAM read (sum)"),
    "fill": (28.1, 27.6, "fill (best of regular/NT stores)"),
    "fma32": (233.0, 117.2, "FMA f32 peak"),
    "fma64": (115.9, 58.5, "FMA f64 peak"),
    # vpdpbusd: 64 int8 multiply-adds an instruction against 16 for an f32 FMA, two a
    # cycle on Zen 4 against one FMA: 8x (the hand loop measured 942 GOP/s on one thread)
    "dot8": (1875.0, 937.6, "VNNI int8 peak (8x FMA f32)"),
}

M10 = 10_000_000
# workload limits that the bench server's hand-written STREAM kernels measure on this host
STREAM_KINDS = ("add", "copy", "read", "fill")
# ... and that its hand-written FMA loop measures, for products of at least FMA_HOST_MIN
# operations (GEMM-shaped work; the small path-dependent contractions are not near a peak)
FMA_KINDS = ("fma32", "fma64", "dot8")
FMA_HOST_MIN = 1e8


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-w", "--workloads", default=".", help="regex over workload ids (e.g. 'P1|E1a')")
    ap.add_argument("--rounds", type=int, default=9, help="clean blocks wanted per peer (default 9)")
    ap.add_argument("--quick", action="store_true", help="5 clean blocks, 40 ms blocks")
    ap.add_argument("--block-ms", type=float, default=60.0, help="target block length")
    ap.add_argument("--pause", type=float, default=0.02,
                    help="seconds of idle before each canary pair (torch's OpenMP workers spin ~10 ms after work)")
    ap.add_argument("--no-canaries", action="store_true",
                    help="skip the noise canaries (they cost ~1 s per block on a saturated host); all blocks count")
    ap.add_argument("--threads", type=int, choices=(1, 2), default=2, help="1: pin everything to CPU 0")
    ap.add_argument(
        "--lattensor",
        action="append",
        default=[],
        metavar="NAME=PATH",
        help="a lattensor bench_server binary (repeatable, e.g. to compare before/after builds); "
        f"default lattensor={SERVER.relative_to(ROOT)}",
    )
    ap.add_argument("--no-host-limit", action="store_true",
                    help="skip the host-limit reference (hand-written STREAM kernels in the bench server)")
    ap.add_argument("--only", default="", help="regex over peer names to keep (lattensor always kept)")
    ap.add_argument("--max-call-s", type=float, default=3.0, help="skip a peer whose first call is slower")
    ap.add_argument("--json", type=Path, help="also write raw results here")
    ap.add_argument("--markdown", type=Path, help="also write the tables here")
    a = ap.parse_args()
    if a.quick:
        a.rounds, a.block_ms = 5, 40.0
    return a


ARGS = parse_args()
if ARGS.threads == 1:
    os.sched_setaffinity(0, {0})
    for v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "LATTENSOR_NUM_THREADS", "RAYON_NUM_THREADS"):
        os.environ[v] = "1"
    os.environ["XLA_FLAGS"] = "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402  (required)


def optional(name):
    try:
        return __import__(name)
    except Exception as e:  # not installed, or broken
        print(f"[peers] {name} unavailable: {type(e).__name__}: {e}", file=sys.stderr)
        return None


ml_dtypes = optional("ml_dtypes")
oe = optional("opt_einsum")
torch = optional("torch")
jax = optional("jax")
if jax is not None:
    jax.config.update("jax_enable_x64", True)  # else JAX silently computes f64 inputs in f32
    import jax.numpy as jnp
tf = optional("tensorflow")
if tf is not None and ARGS.threads == 1:
    tf.config.threading.set_intra_op_parallelism_threads(1)
    tf.config.threading.set_inter_op_parallelism_threads(1)
if torch is not None:
    torch.set_num_threads(ARGS.threads)


# ---------------------------------------------------------------- inputs (same formula as crates/lattensor/benches/workloads/mod.rs)
def floats(shape, second=False):
    n = math.prod(shape)
    i = np.arange(n, 2 * n, dtype=np.uint64) if second else np.arange(n, dtype=np.uint64)
    u = (i * np.uint64(2654435761)) & np.uint64(0xFFFFFFFF)
    return ((u.astype(np.float64) / 4294967296.0) * 2.0 - 1.0).astype(np.float32).reshape(shape)


def ints(n):
    u = (np.arange(n, dtype=np.uint64) * np.uint64(2654435761)) & np.uint64(0xFFFFFFFF)
    return ((u >> np.uint64(22)).astype(np.int64) - 512).astype(np.int32)


# ---------------------------------------------------------------- peers
@dataclass
class Peer:
    name: str
    call: object  # () -> result, or None when the peer errored at setup
    note: str = ""
    error: str = ""
    times: list = field(default_factory=list)  # (per-call seconds, clean, fast)
    out_itemsize: int = 0
    dtype: str = ""
    lattensor: bool = False
    # the host's own limit (`limit` of the bench server): shown beside the peers, never one of them
    reference: bool = False
    amount: float = 0.0  # bytes per call, when the workload's formula does not apply


def jit(f, *xs):
    g = jax.jit(f)
    return lambda: g(*xs).block_until_ready()


def tf_fn(f, *xs, xla=False):
    g = tf.function(f, jit_compile=True) if xla else tf.function(f)
    return lambda: g(*xs)


def prealloc_np(f, like):
    out = np.empty_like(like)
    return lambda: f(out)


def elementwise_peers(np_args, expr, np_ufunc=None, torch_fn=None, prealloc_dtype=None, tf_expr=None):
    """Peers of an element-wise op given as `expr(*operands)` in each framework."""
    ps = [("numpy (new output)", lambda: expr(*np_args))]
    if np_ufunc is not None:
        out = np.empty(np.broadcast_shapes(*[np.shape(a) for a in np_args]), dtype=prealloc_dtype or np_args[0].dtype)
        ps.append(("numpy out=prealloc", lambda: np_ufunc(*np_args, out=out)))
    if torch is not None:
        ts = [torch.from_numpy(a) if isinstance(a, np.ndarray) else a for a in np_args]
        ps.append(("torch (new output)", lambda: expr(*ts)))
        if torch_fn is not None:
            r = expr(*ts)
            o = torch.empty_like(r)
            ps.append(("torch out=prealloc", lambda: torch_fn(*ts, out=o)))
    if jax is not None:
        js = [jnp.asarray(a) if isinstance(a, np.ndarray) else a for a in np_args]
        arrays = [a for a in js if not isinstance(a, float)]
        scalars = [a for a in js if isinstance(a, float)]
        if scalars:
            ps.append(("jax.jit", jit(lambda *xs: expr(*xs, *scalars), *arrays)))
        else:
            ps.append(("jax.jit", jit(expr, *arrays)))
    if tf is not None:
        te = tf_expr or expr
        tfs = [tf.constant(a) if isinstance(a, np.ndarray) else a for a in np_args]
        arrays = [a for a in tfs if not isinstance(a, float)]
        scalars = [a for a in tfs if isinstance(a, float)]
        ps.append(("tf eager", lambda: te(*tfs)))
        ps.append(("tf.function", tf_fn(lambda *xs: te(*xs, *scalars), *arrays)))
    return ps


def exp_any(a):
    """exp in whichever framework `a` belongs to."""
    if isinstance(a, np.ndarray):
        return np.exp(a)
    if torch is not None and isinstance(a, torch.Tensor):
        return torch.exp(a)
    if tf is not None and isinstance(a, tf.Tensor):
        return tf.exp(a)
    return jnp.exp(a)


def cast_to(a, kind):
    """An f32 numpy array converted to f16/bf16 in every framework (RNE, like lattensor's cast)."""
    return a.astype(np.float16) if kind == "f16" else a.astype(ml_dtypes.bfloat16)


def half_peers(kind):
    a, b = floats([M10]), floats([M10], True)
    ps = []
    if kind == "f16" or ml_dtypes is not None:
        ha, hb = cast_to(a, kind), cast_to(b, kind)
        out = np.empty_like(ha)
        ps += [("numpy a + b", lambda: ha + hb), ("numpy out=prealloc", lambda: np.add(ha, hb, out=out))]
    if torch is not None:
        dt = torch.float16 if kind == "f16" else torch.bfloat16
        ta, tb = torch.from_numpy(a).to(dt), torch.from_numpy(b).to(dt)
        to = torch.empty_like(ta)
        ps += [("torch a + b", lambda: ta + tb), ("torch out=prealloc", lambda: torch.add(ta, tb, out=to))]
    if jax is not None:
        dt = jnp.float16 if kind == "f16" else jnp.bfloat16
        ja, jb = jnp.asarray(a).astype(dt), jnp.asarray(b).astype(dt)
        ps.append(("jax.jit", jit(lambda x, y: x + y, ja, jb)))
    if tf is not None:
        dt = tf.float16 if kind == "f16" else tf.bfloat16
        xa, xb = tf.cast(tf.constant(a), dt), tf.cast(tf.constant(b), dt)
        ps += [("tf eager", lambda: tf.add(xa, xb)), ("tf.function", tf_fn(lambda x, y: x + y, xa, xb))]
    return ps


def mixed_peers():
    i, x = ints(M10), floats([M10], True)
    out64 = np.empty(M10, np.float64)
    ps = [
        ("numpy a + b (-> f64)", lambda: i + x),
        ("numpy out=prealloc (-> f64)", lambda: np.add(i, x, out=out64)),
        ("numpy i.astype(f32) + x", lambda: i.astype(np.float32) + x),
    ]
    if torch is not None:
        ti, tx = torch.from_numpy(i), torch.from_numpy(x)
        to = torch.empty_like(tx)
        ps += [("torch a + b", lambda: ti + tx), ("torch out=prealloc", lambda: torch.add(ti, tx, out=to))]
    if jax is not None:
        ps.append(("jax.jit", jit(lambda a, b: a + b, jnp.asarray(i), jnp.asarray(x))))
    if tf is not None:
        fi, fx = tf.constant(i), tf.constant(x)
        ps += [
            ("tf eager tf.add (no promotion)", lambda: tf.add(fi, fx)),
            ("tf eager cast + add", lambda: tf.cast(fi, tf.float32) + fx),
            ("tf.function(cast + add)", tf_fn(lambda a, b: tf.cast(a, tf.float32) + b, fi, fx)),
        ]
    return ps


def reduce_peers(shape, axis):
    x = floats(shape)
    if axis is None:
        ps = [("numpy x.sum()", lambda: x.sum())]
        tfn, tff, jf = (lambda t: torch.sum(t)), (lambda t: tf.reduce_sum(t)), (lambda t: jnp.sum(t))
    else:
        ps = [("numpy x.mean(axis=0)", lambda: x.mean(axis=0))]
        tfn, tff, jf = (lambda t: torch.mean(t, dim=0)), (lambda t: tf.reduce_mean(t, axis=0)), (lambda t: jnp.mean(t, axis=0))
    if torch is not None:
        t = torch.from_numpy(x)
        ps.append(("torch", lambda: tfn(t)))
    if jax is not None:
        ps.append(("jax.jit", jit(jf, jnp.asarray(x))))
    if tf is not None:
        t2 = tf.constant(x)
        ps += [("tf eager", lambda: tff(t2)), ("tf.function", tf_fn(tff, t2))]
    return ps


def bitcast_peers():
    x = floats([M10])
    ps = [("numpy x.view(np.uint8)", lambda: x.view(np.uint8))]
    if torch is not None:
        t = torch.from_numpy(x)
        ps.append(("torch x.view(torch.uint8)", lambda: t.view(torch.uint8)))
    if tf is not None:
        t2 = tf.constant(x)
        ps += [("tf eager tf.bitcast", lambda: tf.bitcast(t2, tf.uint8))]
    if jax is not None:
        ps.append(("jax.jit(lax.bitcast_convert_type)", jit(lambda v: jax.lax.bitcast_convert_type(v, jnp.uint8), jnp.asarray(x))))
    return ps


def einsum_peers(eq, arrays, naive=True, blas=None):
    ps = []
    if naive:
        ps.append(("numpy einsum optimize=False", lambda: np.einsum(eq, *arrays, optimize=False)))
    ps.append(("numpy einsum optimize=True", lambda: np.einsum(eq, *arrays, optimize=True)))
    if blas is not None:
        ps.append(blas)
    if oe is not None:
        ps.append(("opt_einsum.contract", lambda: oe.contract(eq, *arrays)))
        expr = oe.contract_expression(eq, *[a.shape for a in arrays])
        ps.append(("opt_einsum contract_expression (precomputed)", lambda: expr(*arrays)))
    if jax is not None:
        ps.append(("jax.jit(jnp.einsum)", jit(lambda *xs: jnp.einsum(eq, *xs), *[jnp.asarray(a) for a in arrays])))
    if tf is not None:
        ts = [tf.constant(a) for a in arrays]
        ps.append(("tf.einsum (eager)", lambda: tf.einsum(eq, *ts)))
        ps.append(("tf.function(tf.einsum)", tf_fn(lambda *xs: tf.einsum(eq, *xs), *ts)))
        ps.append(("tf.function(jit_compile=True)", tf_fn(lambda *xs: tf.einsum(eq, *xs), *ts, xla=True)))
    if torch is not None:
        tt = [torch.from_numpy(a) for a in arrays]
        ps.append(("torch.einsum", lambda: torch.einsum(eq, *tt)))
    return ps


@dataclass
class Workload:
    id: str
    title: str
    limit: str | None  # key of LIMITS, None for views
    amount: object  # (out_itemsize) -> bytes or flops
    peers: object  # () -> [(name, call)]
    unit: str = "GB/s"
    # () -> the exact sum of the result, for sums whose f32 NumPy value is itself inexact
    exact: object = None


def mm_peers(dt):
    a, b = floats([1024, 1024]).astype(dt), floats([1024, 1024], True).astype(dt)
    return einsum_peers("ij,jk->ik", [a, b], blas=("numpy a @ b (BLAS ref)", lambda: a @ b))


def int8s(shape, second=False):
    """int8 values `(u >> 24) - 128`, the sequence the bench server builds."""
    n = math.prod(shape)
    i = np.arange(n, 2 * n, dtype=np.uint64) if second else np.arange(n, dtype=np.uint64)
    u = (i * np.uint64(2654435761)) & np.uint64(0xFFFFFFFF)
    return ((u >> np.uint64(24)).astype(np.int32) - 128).astype(np.int8).reshape(shape)


def int8_mm_peers():
    """int8 x int8 -> int32, 1024^2: every peer's exact int8 product."""
    a, b = int8s([1024, 1024]), int8s([1024, 1024], True)
    ps = [("numpy a.astype(int32) @ b.astype(int32) (no BLAS for ints)",
           lambda: a.astype(np.int32) @ b.astype(np.int32))]
    if jax is not None:
        ps.append(("jax.jit(jnp.matmul(preferred_element_type=int32))",
                   jit(lambda x, y: jnp.matmul(x, y, preferred_element_type=jnp.int32), jnp.asarray(a), jnp.asarray(b))))
    if torch is not None:
        ta, tb = torch.from_numpy(a), torch.from_numpy(b)
        ps.append(("torch._int_mm (int8 -> int32)", lambda: torch._int_mm(ta, tb)))
    if tf is not None:
        t1, t2 = tf.constant(a), tf.constant(b)
        ps.append(("tf.linalg.matmul(output_type=tf.int32) (eager)", lambda: tf.linalg.matmul(t1, t2, output_type=tf.int32)))
    return ps


def int8_mm_exact():
    a, b = int8s([1024, 1024]).astype(np.int64), int8s([1024, 1024], True).astype(np.int64)
    return float((a.sum(axis=0) * b.sum(axis=1)).sum())


def diag_peers():
    m = floats([1000, 1000])
    ps = einsum_peers("ii->i", [m])
    ps.append(("numpy np.diagonal (view)", lambda: np.diagonal(m)))
    if torch is not None:
        t = torch.from_numpy(m)
        ps.append(("torch.diagonal (view)", lambda: torch.diagonal(t)))
    return ps


def sum3_peers():
    x = floats([512, 512, 512])
    ps = einsum_peers("ijk->", [x])
    if torch is not None:
        t = torch.from_numpy(x)
        ps.append(("torch.sum", lambda: torch.sum(t)))
    return ps


def e7_arrays():
    return [floats([32, 64, 48]), floats([48, 64], True), floats([64, 48]), floats([48, 32, 32], True)]


WORKLOADS = [
    Workload("P1_add_f32", "add f32+f32, 10M", "add", lambda o: M10 * (8 + o),
             lambda: elementwise_peers([floats([M10]), floats([M10], True)], lambda a, b: a + b, np.add, torch and torch.add)),
    Workload("P2_add_i32_f32", "add i32+f32, 10M (mixed; lattensor/JAX/torch -> f32, numpy -> f64)", "add",
             lambda o: M10 * (8 + o), mixed_peers),
    Workload("P3_add_f16", "add f16+f16, 10M", "add", lambda o: M10 * (4 + o), lambda: half_peers("f16")),
    Workload("P4_add_bf16", "add bf16+bf16, 10M (numpy: ml_dtypes)", "add", lambda o: M10 * (4 + o),
             lambda: half_peers("bf16")),
    Workload("P5_add_weak_scalar", "x + 1.0 (weak Python scalar), f32 10M", "copy", lambda o: M10 * (4 + o),
             lambda: elementwise_peers([floats([M10]), 1.0], lambda a, s: a + s, np.add, torch and torch.add)),
    Workload("P6_exp_f32", "exp(x) f32, 10M", "copy", lambda o: M10 * (4 + o),
             lambda: elementwise_peers([floats([M10])], exp_any, np.exp, torch and torch.exp)),
    Workload("P7_sum_f32", "sum over 10M f32", "read", lambda o: M10 * 4, lambda: reduce_peers([M10], None),
             exact=lambda: math.fsum(floats([M10]).astype(np.float64))),
    Workload("P8_mean_axis0", "mean over axis 0 of 4096x4096 f32 (64 MiB read)", "read", lambda o: 4096 * 4096 * 4,
             lambda: reduce_peers([4096, 4096], 0)),
    Workload("P9_bitcast", "bitcast 10M f32 -> uint8 (O(1) view)", None, None, bitcast_peers),
    Workload("E1a_mm_f32", "einsum 'ij,jk->ik' 1024x1024 f32", "fma32", lambda o: 2 * 1024**3,
             lambda: mm_peers(np.float32), "GFLOP/s"),
    Workload("E1b_mm_f64", "einsum 'ij,jk->ik' 1024x1024 f64", "fma64", lambda o: 2 * 1024**3,
             lambda: mm_peers(np.float64), "GFLOP/s"),
    Workload("E2_bmm", "einsum 'bij,bjk->bik' b=64 128x128 f32", "fma32", lambda o: 2 * 64 * 128**3,
             lambda: einsum_peers("bij,bjk->bik", [floats([64, 128, 128]), floats([64, 128, 128], True)]), "GFLOP/s"),
    Workload("E3_attn", "einsum 'bhqd,bhkd->bhqk' (8,8,256,64) f32", "fma32", lambda o: 2 * 64 * 256 * 256 * 64,
             lambda: einsum_peers("bhqd,bhkd->bhqk", [floats([8, 8, 256, 64]), floats([8, 8, 256, 64], True)]), "GFLOP/s"),
    Workload("E4_chain", "einsum 'ij,jk,kl->il' (1000x10, 10x1000, 1000x10) f32", "fma32", lambda o: 400_000,
             lambda: einsum_peers("ij,jk,kl->il", [floats([1000, 10]), floats([10, 1000], True), floats([1000, 10])]),
             "GFLOP/s"),
    Workload("E5a_diag", "einsum 'ii->i' 1000x1000 f32 (diagonal)", None, None, diag_peers),
    Workload("E5b_sum3", "einsum 'ijk->' 512^3 f32 (512 MiB read)", "read", lambda o: 512**3 * 4, sum3_peers,
             exact=lambda: float(np.sum(floats([512, 512, 512]), dtype=np.float64))),
    Workload("E6_outer", "einsum 'i,j->ij' 4096x4096 f32 (64 MiB written)", "fill", lambda o: 4096 * 4096 * o,
             lambda: einsum_peers("i,j->ij", [floats([4096]), floats([4096], True)])),
    Workload("E7_four", "einsum 'abc,cd,de,efa->bf' (a32 b64 c48 d64 e48 f32) f32", "fma32", lambda o: 11_304_960,
             lambda: einsum_peers("abc,cd,de,efa->bf", e7_arrays(), naive=False), "GFLOP/s"),
    Workload("Q1_mm_i8_i32", "matmul int8 x int8 -> int32 (preferred_element_type) 1024x1024", "dot8",
             lambda o: 2 * 1024**3, int8_mm_peers, "GOP/s", exact=int8_mm_exact),
]


# ---------------------------------------------------------------- lattensor bench server
class Server:
    def __init__(self, path):
        self.p = subprocess.Popen([str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def ask(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        reply = self.p.stdout.readline().strip()
        if not reply.startswith("ok"):
            raise RuntimeError(f"bench_server: {line!r} -> {reply!r}")
        return reply[3:]

    def close(self):
        try:
            self.p.stdin.write("quit\n")
            self.p.stdin.flush()
            self.p.wait(5)
        except Exception:
            self.p.kill()


def itemsize(r):
    """Element size of a peer's result (numpy, torch, jax, tf)."""
    for attr in ("itemsize",):
        if hasattr(r, "dtype") and hasattr(r.dtype, attr):
            return int(r.dtype.itemsize), str(r.dtype).replace("torch.", "")
    if torch is not None and isinstance(r, torch.Tensor):
        return r.element_size(), str(r.dtype).replace("torch.", "")
    if tf is not None and isinstance(r, tf.Tensor):
        return r.dtype.size, r.dtype.name
    return 0, type(r).__name__


def to_numpy(r):
    if torch is not None and isinstance(r, torch.Tensor):
        return r.float().numpy() if r.dtype == torch.bfloat16 else r.numpy()
    if tf is not None and isinstance(r, tf.Tensor):
        return r.numpy()
    return np.asarray(r)


# ---------------------------------------------------------------- measurement
SERVER_PIDS: list[int] = []
QUIET_WAITS: list[float] = []


def busy_ns():
    """CPU time used so far by this process (every thread: NumPy's, TF's, JAX's and
    PyTorch's pools live here) and by the lattensor bench servers, in ns."""
    total = time.process_time_ns()
    for pid in SERVER_PIDS:
        try:
            for task in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                    total += int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            pass  # not Linux, or the thread just ended
    return total


def wait_quiet(window=0.005, cap=0.5):
    """Waits until no thread of any peer is spinning: until the CPU time used by
    the peers in a 5 ms window is under 10% of one CPU (at most `cap` seconds).
    OpenBLAS's worker keeps one vCPU busy for ~100 ms after a 1024² product,
    PyTorch's OpenMP workers for ~10 ms; whoever runs next would share the
    2 vCPUs with it."""
    start = time.perf_counter()
    prev = busy_ns()
    while time.perf_counter() - start < cap:
        time.sleep(window)
        cur = busy_ns()
        if cur - prev < 0.1 * window * 1e9:
            break
        prev = cur
    QUIET_WAITS.append(time.perf_counter() - start)


def canaries(server):
    time.sleep(ARGS.pause)
    wait_quiet()
    if ARGS.no_canaries:
        return 0, 0.0
    fma = int(server.ask("probe_fma"))
    gbps = float(server.ask("probe_read"))
    return fma, gbps


def fmt_t(s):
    if s is None:
        return "-"
    if s >= 1:
        return f"{s:.2f} s"
    if s >= 1e-3:
        return f"{s * 1e3:.2f} ms"
    return f"{s * 1e6:.1f} µs"


def measure(w: Workload, servers):
    print(f"\n== {w.id}: {w.title}", file=sys.stderr, flush=True)
    peers = []
    for name, srv in servers:
        peers.append(Peer(name, ("server", srv), lattensor=True))
    try:
        raw = w.peers()
    except Exception as e:
        raw = []
        print(f"[peers] {w.id}: peer setup failed: {e}", file=sys.stderr)
    only = re.compile(ARGS.only) if ARGS.only else None
    for name, call in raw:
        if only is None or only.search(name):
            peers.append(Peer(name, call))
    if w.limit in STREAM_KINDS and not ARGS.no_host_limit:
        peers.append(Peer(f"host limit: STREAM {w.limit}, hand loop", ("limit", servers[0][1]), reference=True))
    if w.limit in FMA_KINDS and w.amount(4) >= FMA_HOST_MIN and not ARGS.no_host_limit:
        peak_name = "VNNI int8 dot-product peak" if w.limit == "dot8" else f"FMA {w.limit[3:]}-bit peak"
        peers.append(Peer(f"host limit: {peak_name}, hand loop", ("limit", servers[0][1]),
                          reference=True))

    ref = None
    block_s = ARGS.block_ms / 1e3
    for p in peers:
        try:
            if p.reference:
                # the same bytes (or operations) as lattensor's call (the first peer: its check ran)
                p.amount = w.amount(peers[0].out_itemsize)
                ns, moved, stores = p.call[1].ask(f"limit {w.limit} {int(p.amount)} 1").split()
                if w.limit in FMA_KINDS:
                    p.amount, p.dtype = float(moved), "i8" if w.limit == "dot8" else "f" + w.limit[3:]
                    p.note = f"loop {stores}, {float(moved) / 1e9:.2f} GFLOP a call, registers only"
                else:
                    p.amount, p.dtype = float(moved), "f32"
                    p.note = f"variant {stores}, {float(moved) / 1e6:.0f} MB a call, warm buffers"
                one = int(ns) / 1e9
                p.k = max(1, min(1_000_000, math.ceil(block_s / max(one, 1e-7))))
                continue
            if p.lattensor:
                srv = p.call[1]
                total, shape, dtype = srv.ask(f"check {w.id}").split(" ", 2)
                p.dtype = dtype.split()[-1].lower()
                p.out_itemsize = {"f64": 8, "f32": 4, "i32": 4, "f16": 2, "bf16": 2, "u8": 1}.get(p.dtype, 4)
                p.note = f"sum {float(total):.6g}"
                p.check_sum = float(total)
                for _ in range(2):
                    srv.ask(f"run {w.id} 1")
                one = int(srv.ask(f"run {w.id} 1")) / 1e9
                p.k = max(1, min(1_000_000, math.ceil(block_s / max(one, 1e-7))))
                continue
            r = p.call()  # the first call may trace or compile
            t0 = time.perf_counter()
            r = p.call()
            first = time.perf_counter() - t0
            p.out_itemsize, p.dtype = itemsize(r)
            if ref is None and p.name.startswith("numpy"):
                ref = float(np.asarray(to_numpy(r), dtype=np.float64).sum())
            if first > ARGS.max_call_s:
                p.error = f"skipped: one call took {first:.1f} s (> --max-call-s)"
                continue
            for _ in range(3):
                p.call()
            t0 = time.perf_counter()
            p.call()
            one = time.perf_counter() - t0
            p.k = max(1, min(1_000_000, math.ceil(block_s / max(one, 1e-7))))
        except Exception as e:
            msg = str(e).strip().splitlines()[0] if str(e).strip() else ""
            p.error = f"error: {type(e).__name__}: {msg[:100]}"
    for p in peers:
        if p.lattensor and ref is not None and hasattr(p, "check_sum"):
            rel = abs(p.check_sum - ref) / max(abs(ref), 1e-30)
            if rel < 2e-3:
                p.note += " (= numpy)"
            elif w.exact is not None:
                # NumPy's f32 sum of 10M+ terms can be off in the leading digits; judge by the exact sum
                exact = w.exact()
                rel = abs(p.check_sum - exact) / max(abs(exact), 1e-30)
                verdict = "= exact sum" if rel < 1e-6 else f"MISMATCH vs exact sum {exact:.9g}"
                p.note += f" ({verdict}; numpy's f32 sum {ref:.6g})"
            else:
                p.note += f" (MISMATCH vs numpy {ref:.6g})"

    live = [p for p in peers if not p.error]
    probe_srv = servers[0][1]
    blocks = 0

    def clean_count(p):
        best = min((t[1] for q in live for t in q.times), default=0)
        return sum(1 for t in p.times if t[1] <= 1.5 * best)

    for rnd in range(3 * ARGS.rounds):
        pending = [p for p in live if clean_count(p) < ARGS.rounds]
        if not pending:
            break
        order = pending[rnd % len(pending):] + pending[: rnd % len(pending)]
        for p in order:
            fma0, bw0 = canaries(probe_srv)
            if p.reference:
                per = int(p.call[1].ask(f"limit {w.limit} {int(p.amount)} {p.k}").split()[0]) / 1e9 / p.k
            elif p.lattensor:
                per = int(p.call[1].ask(f"run {w.id} {p.k}")) / 1e9 / p.k
            else:
                f, k = p.call, p.k
                t0 = time.perf_counter()
                for _ in range(k):
                    f()
                per = (time.perf_counter() - t0) / k
            fma1, bw1 = canaries(probe_srv)
            # (per-call seconds, worse FMA canary in ns, lower read canary in GB/s, round)
            p.times.append((per, max(fma0, fma1), min(bw0, bw1), rnd))
            blocks += 1
    return peers, blocks


def summarise(w, peers, threads):
    lim = LIMITS.get(w.limit) if w.limit else None
    limit = (lim[0] if threads == 2 else lim[1]) if lim else None
    rows = []
    best_fma = min((t[1] for p in peers for t in p.times), default=None)
    for p in peers:
        if p.error:
            rows.append(dict(peer=p.name, error=p.error, lattensor=p.lattensor, reference=p.reference))
            continue
        # clean blocks by round (a peer runs one block a round), for ratios paired within a round
        by_round = {t[3]: t[0] for t in p.times if t[1] <= 1.5 * best_fma}
        clean = list(by_round.values())
        noisy = len(clean) < 3
        ts = clean if not noisy else [t[0] for t in p.times]
        med = statistics.median(ts)
        amount = p.amount or (w.amount(p.out_itemsize) if w.amount else None)
        rate = amount / med / 1e9 if amount else None
        fast = sum(1 for t in p.times if t[2] > 50)
        rows.append(dict(peer=p.name, median=med, min=min(ts), max=max(ts), rate=rate,
                         pct=(100 * rate / limit if rate and limit else None), dtype=p.dtype,
                         note=p.note + (" NOISY (<3 clean blocks)" if noisy else ""), lattensor=p.lattensor,
                         reference=p.reference, rounds=by_round,
                         clean=len(clean), blocks=len(p.times), fast=fast))
    ok = [r for r in rows if "median" in r]
    ok.sort(key=lambda r: r["median"])
    return dict(id=w.id, title=w.title, unit=w.unit, limit=limit, limit_name=lim[2] if lim else "",
                rows=ok + [r for r in rows if "median" not in r])


def paired(lat, peer):
    """The peer's time over lattensor's in each round both ran a clean block in
    (their blocks minutes apart at most, so the host's slow drifts cancel): the
    median ratio, a 95% bootstrap interval for it, and in how many rounds
    lattensor was faster. An interval that straddles 1.00x is a tie."""
    common = sorted(set(lat.get("rounds", {})) & set(peer.get("rounds", {})))
    ratios = [peer["rounds"][k] / lat["rounds"][k] for k in common]
    if len(ratios) < 3:
        return "-"
    med, lo, hi = median_interval(ratios)
    return f"{med:.2f}x [{lo:.2f}–{hi:.2f}] {sum(r > 1 for r in ratios)}/{len(ratios)}"


def median_interval(values):
    """The median of `values` and a 95% bootstrap interval for it (2000 resamples, seeded)."""
    rng = random.Random(0)
    boots = sorted(statistics.median(rng.choices(values, k=len(values))) for _ in range(2000))
    return statistics.median(values), boots[50], boots[1949]


def paired_pct(lat, host):
    """lattensor's rate as a percentage of the host limit's, round by round (the
    limit's block runs in the same round, so a stretch of host noise meets both):
    the median and a 95% bootstrap interval, or None with fewer than 3 rounds."""
    common = sorted(set(lat.get("rounds", {})) & set(host.get("rounds", {})))
    if not lat.get("rate") or not host.get("rate"):
        return None
    # per-round rate = amount / time; the amounts are fixed, so their ratio is the medians'
    scale = lat["rate"] * lat["median"] / (host["rate"] * host["median"])
    pcts = [100 * scale * host["rounds"][k] / lat["rounds"][k] for k in common]
    if len(pcts) < 3:
        return None
    med, lo, hi = median_interval(pcts)
    return f"{med:.0f}% [{lo:.0f}–{hi:.0f}]"


def framework(name):
    for fw in ("numpy", "opt_einsum", "jax", "tf", "torch"):
        if name.startswith(fw):
            return fw
    return name.split()[0]


def render(results, threads, header):
    out = [header, ""]
    # summary
    out.append("### Summary: lattensor vs the best variant of each peer framework")
    out.append("")
    lat_names = [r["peer"] for r in results[0]["rows"] if r.get("lattensor")] if results else []
    # ratios are against "lattensor" if given, else the last --lattensor build (the newest)
    main = "lattensor" if "lattensor" in lat_names or not lat_names else ARGS_LATTENSOR_ORDER[-1]
    fws = ["numpy", "opt_einsum", "jax", "tf", "torch"]
    out.append("ratio = peer median / lattensor median (> 1: lattensor is faster); "
               "'% of host limit': lattensor's rate against the hand-written STREAM kernel on the same "
               "bytes (or the hand-written FMA loop on the same operations) in the same run, round by round, "
               "median [95% bootstrap interval]; '% of Zen 4 limit': against the task's measured limits; "
               "'paired vs best': the best peer's time over lattensor's round by round, median "
               "[95% bootstrap interval] and the rounds lattensor won")
    out.append("")
    out.append("| workload | lattensor | rate | % of host limit | % of Zen 4 limit | best peer | best peer median | vs best | "
               "paired vs best | " + " | ".join(f"vs {f}" for f in fws) + " |")
    out.append("|---" * (9 + len(fws)) + "|")
    for res in results:
        rows = [r for r in res["rows"] if "median" in r]
        lat = next((r for r in rows if r["peer"] == main), None)
        peers = [r for r in rows if not r.get("lattensor") and not r.get("reference")]
        host = next((r for r in rows if r.get("reference")), None)
        if lat is None:
            continue
        host_pct = (paired_pct(lat, host) or f"{100 * lat['rate'] / host['rate']:.0f}%"
                    if host and lat["rate"] and host["rate"] else "-")
        best = min(peers, key=lambda r: r["median"], default=None)
        rate = f"{lat['rate']:.1f} {res['unit']}" if lat["rate"] else "view"
        pct = f"{lat['pct']:.0f}%" if lat["pct"] else "-"
        cells = []
        for f in fws:
            fr = [r for r in peers if framework(r["peer"]) == f]
            cells.append(f"{min(r['median'] for r in fr) / lat['median']:.2f}x" if fr else "-")
        out.append(f"| {res['id']} | {fmt_t(lat['median'])} | {rate} | {host_pct} | {pct} | "
                   + (f"{best['peer']} | {fmt_t(best['median'])} | {best['median'] / lat['median']:.2f}x | "
                      f"{paired(lat, best)} | " if best else "- | - | - | - | ")
                   + " | ".join(cells) + " |")
    out.append("")
    for res in results:
        out.append(f"#### {res['id']}: {res['title']}")
        out.append("")
        if res["limit"]:
            out.append(f"Limit ({res['limit_name']}, {threads} thread{'s' if threads > 1 else ''}): {res['limit']} {res['unit']}.")
            out.append("")
        lat = next((r for r in res["rows"] if r.get("peer") == main and "median" in r), None)
        out.append(f"| peer | median [min–max] | {res['unit']} | % of Zen 4 limit | vs {main} | result dtype | clean/blocks | notes |")
        out.append("|---|---|---|---|---|---|---|---|")
        for r in res["rows"]:
            name = f"**{r['peer']}**" if r.get("lattensor") else f"_{r['peer']}_" if r.get("reference") else r["peer"]
            if "median" not in r:
                out.append(f"| {name} | {r['error']} | - | - | - | - | - | |")
                continue
            rate = f"{r['rate']:.1f}" if r["rate"] else "-"
            pct = f"{r['pct']:.0f}%" if r["pct"] else "-"
            ratio = f"{r['median'] / lat['median']:.2f}x" if lat else "-"
            out.append(f"| {name} | {fmt_t(r['median'])} [{fmt_t(r['min'])}–{fmt_t(r['max'])}] | {rate} | {pct} | "
                       f"{ratio} | {r['dtype']} | {r['clean']}/{r['blocks']} | {r['note']} |")
        out.append("")
    return "\n".join(out)


ARGS_LATTENSOR_ORDER = []


def main():
    bins = []
    for spec in ARGS.lattensor or [f"lattensor={SERVER}"]:
        name, _, path = spec.partition("=")
        if not Path(path).exists():
            sys.exit(f"{path} not found: build it with `cargo build --release -p lattensor-bench --bin bench_server`")
        bins.append((name, Server(path)))
        SERVER_PIDS.append(bins[-1][1].p.pid)
        ARGS_LATTENSOR_ORDER.append(name)
    pat = re.compile(ARGS.workloads)
    results, raw = [], []
    started = datetime.datetime.now(datetime.timezone.utc)
    try:
        for w in WORKLOADS:
            if not pat.search(w.id):
                continue
            peers, blocks = measure(w, bins)
            res = summarise(w, peers, ARGS.threads)
            results.append(res)
            print(render([res], ARGS.threads, "").strip().split("\n#### ")[1].split("\n", 1)[1] if res["rows"] else "",
                  file=sys.stderr, flush=True)
            raw.append(dict(id=w.id, peers=[dict(name=p.name, error=p.error, times=p.times, dtype=p.dtype) for p in peers]))
        bws = [float(bins[0][1].ask("probe_read")) for _ in range(3)]
    finally:
        for _, s in bins:
            s.close()
    versions = {"python": platform.python_version(), "numpy": np.__version__}
    for m in (oe, jax, tf, torch, ml_dtypes):
        if m is not None:
            versions[m.__name__] = getattr(m, "__version__", "?")
    header = (f"Run {started:%Y-%m-%d %H:%M} UTC, {ARGS.threads} thread(s), {ARGS.rounds} clean blocks/peer "
              f"of >= {ARGS.block_ms:.0f} ms, {platform.machine()} {os.cpu_count()} CPUs; read-BW canary at end "
              f"{statistics.median(bws):.0f} GB/s (> 50: the host's fast mode); "
              + (f"wait for idle peers before a block: median {statistics.median(QUIET_WAITS) * 1e3:.0f} ms, "
                 f"max {max(QUIET_WAITS) * 1e3:.0f} ms; " if QUIET_WAITS else "")
              + ", ".join(f"{k} {v}" for k, v in versions.items()))
    text = render(results, ARGS.threads, header)
    print(text)
    if ARGS.markdown:
        ARGS.markdown.write_text(text + "\n")
    if ARGS.json:
        ARGS.json.write_text(json.dumps(dict(header=header, results=results, raw=raw), indent=1, default=str))


if __name__ == "__main__":
    main()
