"""``lattensor.random``: TF's ``tf.random`` generators.

The stateless ones are deterministic in their two-integer ``seed`` and equal
to TF 2.21's on CPU bit for bit (``stateless_uniform`` and
``stateless_normal``, ``stateless_truncated_normal``, every dtype TF accepts)::

    import lattensor as tf
    tf.random.stateless_uniform([3], seed=[1, 2])   # [0.8440604, 0.19204533, 0.9962232], as TF

``stateless_poisson`` follows TF's algorithms but not its exact stream.

The stateful ones (``uniform``, ``normal``, ``truncated_normal``, ``poisson``; also behind
``lattensor.experimental.numpy.random``) draw each call's seed from one
process-wide generator: ``set_seed(s)`` makes the following calls repeat from
run to run; without it, each process starts from a fresh random seed. Their
values have TF's distributions and dtypes but are not TF's streams (TF's
depend on its graph-level op counters); docs/deviations.md.

``default_rng(seed)`` (not in TF) is NumPy's ``Generator`` interface on the
stateless generator (``random``, ``uniform``, ``standard_normal``, ``normal``,
``integers``), which Dask's ``da.random.default_rng`` calls per block under the
``"lattensor"`` array backend; docs/dask.md.
"""

from __future__ import annotations

import secrets as _secrets
import threading as _threading

import numpy as _np

from lattensor import _lattensor as _C
from lattensor.random._generator import default_rng

_MASK63 = (1 << 63) - 1


class _Seeds:
    """The process-wide seed state: a base seed and a call counter."""

    def __init__(self):
        self._lock = _threading.Lock()
        self.reset(None)

    def reset(self, seed):
        with self._lock:
            self._base = _secrets.randbits(63) if seed is None else int(seed) & _MASK63
            self._count = 0

    def next(self, op_seed=None):
        """A fresh stateless seed pair; ``op_seed`` selects a separate stream."""
        with self._lock:
            count, self._count = self._count, self._count + 1
        base = self._base if op_seed is None else (self._base * 1_000_003 + int(op_seed) + 1) & _MASK63
        return [base, count]


_seeds = _Seeds()


def set_seed(seed):
    """``tf.random.set_seed(seed)``: restarts the process-wide generator from
    ``seed``, so the stateful functions' following calls repeat from run to run
    (``None``: from a fresh random seed, as at start-up)."""
    _seeds.reset(None if seed is None else int(seed))


def _scalar(v):
    """A Python number from a number, a NumPy scalar or a 0-d tensor (else ``None``)."""
    a = _np.asarray(v.numpy() if hasattr(v, "numpy") else v)
    return a.item() if a.ndim == 0 else None


def _in(v, dtype):
    """``v`` (a number, list or tensor) as a strong tensor of ``dtype``."""
    return _C.cast(_C.convert_to_tensor(v), dtype)


_UNIFORM_DTYPES = (_C.float16, _C.bfloat16, _C.float32, _C.float64, _C.int32, _C.int64, _C.uint32, _C.uint64)


def stateless_uniform(shape, seed, minval=0, maxval=None, dtype=None, name=None, alg="auto_select"):
    """``tf.random.stateless_uniform``: uniform values in ``[minval, maxval)``,
    deterministic in ``seed`` (two integers) and equal to TF 2.21's bit for bit.

    Floats (float16, bfloat16, float32 — the default — and float64): ``maxval``
    defaults to 1; bounds may be tensors that broadcast with ``shape``. Integers
    (int32, int64): both bounds or neither; with neither, uint32 and uint64 are
    allowed too and the values cover the dtype's whole range.
    """
    del name, alg
    dtype = _C.as_dtype(dtype if dtype is not None else _C.float32)
    if dtype not in _UNIFORM_DTYPES:
        raise ValueError(
            f"Argument `dtype` got invalid value {dtype}. Accepted dtypes are "
            "(tf.float16, tf.bfloat16, tf.float32, tf.float64, tf.int32, tf.int64, tf.uint32, tf.uint64)."
        )
    if dtype.is_integer:
        if (minval is None) != (maxval is None):
            raise ValueError(
                f"For integer `dtype` argument {dtype}, argument `minval` and `maxval` must be both None "
                f"or not None. Got `minval`={minval} and `maxval`={maxval}."
            )
        if minval is None:
            return _C.stateless_uniform_full_int(shape, seed, dtype)
        if dtype.is_unsigned:
            raise ValueError(
                f"Argument `dtype` got invalid value {dtype} when argument `minval` is not None. "
                "Please don't use unsigned integers in this case."
            )
        lo, hi = _scalar(minval), _scalar(maxval)
        if lo is None or hi is None:
            raise ValueError("stateless_uniform: integer minval and maxval must be scalars")
        return _C.stateless_uniform_int(shape, seed, int(lo), int(hi), dtype)
    if maxval is None:
        maxval = 1
    lo, hi = _scalar(minval), _scalar(maxval)
    if lo is not None and hi is not None:
        return _C.stateless_uniform_float(shape, seed, float(lo), float(hi), dtype)
    u = _C.stateless_uniform_float(shape, seed, 0.0, 1.0, dtype)
    lo, hi = _in(minval, dtype), _in(maxval, dtype)
    return u * (hi - lo) + lo


def _normal(kernel, op, shape, seed, mean, stddev, dtype):
    """``kernel``'s standard normals scaled by ``stddev`` and shifted by ``mean``
    in ``dtype`` (bounds that are tensors broadcast with ``shape``)."""
    dtype = _C.as_dtype(dtype if dtype is not None else _C.float32)
    if dtype not in _UNIFORM_DTYPES[:4]:
        # TF fails converting `mean` to the dtype: a TypeError
        raise TypeError(f"{op}: dtype {dtype.name} is not supported; use float16, bfloat16, float32 or float64")
    m, s = _scalar(mean), _scalar(stddev)
    if m is not None and s is not None:
        return kernel(shape, seed, float(m), float(s), dtype)
    z = kernel(shape, seed, 0.0, 1.0, dtype)
    return z * _in(stddev, dtype) + _in(mean, dtype)


def stateless_normal(shape, seed, mean=0.0, stddev=1.0, dtype=None, name=None, alg="auto_select"):
    """``tf.random.stateless_normal``: normal values, deterministic in ``seed``
    and equal to TF 2.21's bit for bit (Box–Muller on Philox-4x32-10); float16,
    bfloat16, float32 (the default) or float64."""
    del name, alg
    return _normal(_C.stateless_normal_float, "stateless_normal", shape, seed, mean, stddev, dtype)


def stateless_truncated_normal(shape, seed, mean=0.0, stddev=1.0, dtype=None, name=None, alg="auto_select"):
    """``tf.random.stateless_truncated_normal``: normal values redrawn outside two
    standard deviations, deterministic in ``seed`` and equal to TF 2.21's bit for bit."""
    del name, alg
    return _normal(_C.stateless_truncated_normal_float, "stateless_truncated_normal", shape, seed, mean, stddev, dtype)


def stateless_poisson(shape, seed, lam, dtype=None, name=None):
    """``tf.random.stateless_poisson``: Poisson counts with rates ``lam`` (which
    broadcasts to ``shape``), deterministic in ``seed``; int32 (the default),
    int64 or a float dtype. TF's algorithms, not TF's stream."""
    del name
    return _C.stateless_poisson_counts(shape, seed, lam, _C.as_dtype(dtype if dtype is not None else _C.int32))


def uniform(shape, minval=0, maxval=None, dtype=None, seed=None, name=None):
    """``tf.random.uniform``: as :func:`stateless_uniform`, seeded from the
    process-wide generator (``seed``, an int, picks a separate stream)."""
    return stateless_uniform(shape, _seeds.next(seed), minval, maxval, dtype, name)


def normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None, name=None):
    """``tf.random.normal``: as :func:`stateless_normal`, seeded from the
    process-wide generator."""
    return stateless_normal(shape, _seeds.next(seed), mean, stddev, dtype, name)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None, name=None):
    """``tf.random.truncated_normal``: as :func:`stateless_truncated_normal`,
    seeded from the process-wide generator."""
    return stateless_truncated_normal(shape, _seeds.next(seed), mean, stddev, dtype, name)


def poisson(shape, lam, dtype=None, seed=None, name=None):
    """``tf.random.poisson(shape, lam)``: counts of shape ``shape + lam.shape`` (as
    TF), float32 by default, seeded from the process-wide generator."""
    del name
    lam = _C.convert_to_tensor(lam)
    full = [int(d) for d in _np.atleast_1d(_np.asarray(shape, dtype=_np.int64))] + list(lam.shape)
    dtype = _C.as_dtype(dtype if dtype is not None else _C.float32)
    return _C.stateless_poisson_counts(full, _seeds.next(seed), lam, dtype)
