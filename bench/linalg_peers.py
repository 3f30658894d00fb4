"""lattensor's linalg/fft kernels (faer, rustfft) against NumPy in one run.

    cargo build --release -p lattensor-bench --bin linalg_bench
    OPENBLAS_NUM_THREADS=1 python bench/linalg_peers.py [--n 512] [--rounds 5]

Both sides build the same inputs (the LCG of linalg_bench.rs): an N × N f64
matrix A = B Bᵀ / N + I, an N × 8 right-hand side and an N²-point signal.
Rounds alternate: one run of the Rust program (best of 5 calls per op), then
NumPy (best of 5 calls per op). Prints per op the median over rounds of each
side's best time and the ratio NumPy / lattensor (above 1: lattensor faster).
faer runs single-threaded in lattensor (no rayon); set OPENBLAS_NUM_THREADS=1
for a like-for-like comparison, or leave it unset to see NumPy's threads.
"""

import argparse
import os
import pathlib
import statistics
import subprocess
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
BIN = ROOT / "target" / "release" / "linalg_bench"


def lcg(n, seed):
    out = np.empty(n)
    s = seed
    m = (1 << 64) - 1
    for i in range(n):
        s = (s * 6364136223846793005 + 1442695040888963407) & m
        out[i] = ((s >> 11) / float(1 << 53)) * 2.0 - 1.0
    return out


def best(reps, f):
    f()
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=512)
    p.add_argument("--rounds", type=int, default=5)
    args = p.parse_args()
    n = args.n
    b = lcg(n * n, 1).reshape(n, n)
    a = b @ b.T / n + np.eye(n)
    rhs = lcg(n * 8, 2).reshape(n, 8)
    sig = lcg(n * n, 3)
    csig = sig.astype(np.complex128)
    ops = {
        "solve": lambda: np.linalg.solve(a, rhs),
        "inv": lambda: np.linalg.inv(a),
        "det": lambda: np.linalg.det(a),
        "cholesky": lambda: np.linalg.cholesky(a),
        "qr": lambda: np.linalg.qr(a),
        "eigh": lambda: np.linalg.eigh(a),
        "svd": lambda: np.linalg.svd(a, full_matrices=False),
        "svdvals": lambda: np.linalg.svd(a, compute_uv=False),
        "fft": lambda: np.fft.fft(csig),
        "rfft": lambda: np.fft.rfft(sig),
    }
    ours = {k: [] for k in ops}
    theirs = {k: [] for k in ops}
    for _ in range(args.rounds):
        out = subprocess.run([str(BIN), str(n), "5"], check=True, capture_output=True, text=True).stdout
        for line in out.splitlines():
            name, t = line.split()
            ours[name].append(float(t))
        for name, f in ops.items():
            theirs[name].append(best(5, f))
    threads = os.environ.get("OPENBLAS_NUM_THREADS", "unset")
    print(f"N = {n}, {args.rounds} rounds, NumPy {np.__version__}, OPENBLAS_NUM_THREADS={threads}")
    print("| op | lattensor (faer/rustfft) | NumPy | NumPy / lattensor |")
    print("|---|---|---|---|")
    for name in ops:
        o, t = statistics.median(ours[name]), statistics.median(theirs[name])
        print(f"| {name} | {o * 1e3:.2f} ms | {t * 1e3:.2f} ms | {t / o:.2f} |")


if __name__ == "__main__":
    main()
