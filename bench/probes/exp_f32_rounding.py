"""How often is each library's float32 `exp` correctly rounded?

Evaluates exp on 2M uniform float32 arguments in [-87, 88] (seed 0) with
NumPy, TensorFlow, PyTorch, JAX and lattensor (whichever are installed), and
compares each result with the correctly rounded one: exp computed in float64
and rounded once to float32 (wrong only in a double-rounding case, about one
argument in 2^29). Prints the share of results that differ and the largest
difference in ulps. Quoted in docs/deviations.md.

    python bench/probes/exp_f32_rounding.py

Measured 2026-12-05 (numpy 2.4.6, tensorflow 2.21.0, torch 2.15.0, jax 0.10.2):
numpy 39.3% (max 2 ulp), tf 26.4% (1), torch 1.13% (1), jax 9.46% (1).
lattensor's exp is correctly rounded on all 2^32 float32 inputs (checked
exhaustively in `kernels/exp`, against mpmath near the rounding boundaries),
so it shows 0% wherever this float64 reference is itself right.
"""
import os

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

x = np.random.default_rng(0).uniform(-87, 88, 2_000_000).astype(np.float32)
ref = np.exp(x.astype(np.float64)).astype(np.float32)


def report(name, y):
    d = np.abs(np.asarray(y, np.float32).view(np.int32).astype(np.int64) - ref.view(np.int32).astype(np.int64))
    print(f"{name:10s} {100 * (d > 0).mean():8.5f}% not correctly rounded, max {d.max()} ulp")


def candidates():
    yield "numpy", lambda: np.exp(x)
    try:
        import tensorflow as tf

        yield "tf", lambda: tf.exp(x).numpy()
    except ImportError:
        pass
    try:
        import torch

        yield "torch", lambda: torch.exp(torch.from_numpy(x)).numpy()
    except ImportError:
        pass
    try:
        import jax
        import jax.numpy as jnp

        yield "jax", lambda: jax.jit(jnp.exp)(x)
    except ImportError:
        pass
    try:
        import lattensor

        yield "lattensor", lambda: np.asarray(lattensor.exp(lattensor.constant(x)))
    except ImportError:
        pass


for name, f in candidates():
    report(name, f())
