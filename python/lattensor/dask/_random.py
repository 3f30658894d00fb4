"""``da.random`` with lattensor chunks: a ``RandomState`` for Dask's backend.

Dask's legacy random API (``da.random.random``, ``da.random.normal``, …) makes
one ``RandomState(state_data)`` per block from 624 seed words and calls the
method with the block's ``size``. This class draws each block with lattensor's
stateless Philox generator (``tf.random.stateless_*``), seeded from those
words, so a block is a pure function of its seed: recomputing a lost block on
another worker gives the same values.
"""

from __future__ import annotations

import numpy as np

from lattensor import _lattensor as _C
from lattensor import random as _random


class RandomState:
    """NumPy ``RandomState``'s methods that Dask's ``da.random`` calls, drawing
    lattensor tensors (float64 unless ``dtype=`` says otherwise, as NumPy)."""

    def __init__(self, seed=None):
        words = np.asarray(np.random.SeedSequence(_entropy(seed)).generate_state(2, np.uint32), np.int64)
        self._seed = [int(words[0]), int(words[1])]

    def _shape(self, size):
        if size is None:
            return []
        return [int(size)] if np.isscalar(size) else [int(d) for d in size]

    def random_sample(self, size=None, dtype=None):
        """Uniform floats in [0, 1)."""
        return _random.stateless_uniform(self._shape(size), self._seed, 0.0, 1.0, dtype=_C.as_dtype(dtype or "float64"))

    random = random_sample

    def uniform(self, low=0.0, high=1.0, size=None, dtype=None):
        """Uniform floats in [low, high)."""
        return _random.stateless_uniform(self._shape(size), self._seed, low, high, dtype=_C.as_dtype(dtype or "float64"))

    def standard_normal(self, size=None, dtype=None):
        """Standard normal floats."""
        return _random.stateless_normal(self._shape(size), self._seed, 0.0, 1.0, dtype=_C.as_dtype(dtype or "float64"))

    def normal(self, loc=0.0, scale=1.0, size=None, dtype=None):
        """Normal floats of mean ``loc`` and standard deviation ``scale``."""
        return _random.stateless_normal(self._shape(size), self._seed, loc, scale, dtype=_C.as_dtype(dtype or "float64"))

    def randint(self, low, high=None, size=None, dtype="int64"):
        """Integers in [low, high) (or [0, low) with one bound)."""
        if high is None:
            low, high = 0, low
        return _random.stateless_uniform(self._shape(size), self._seed, int(low), int(high), dtype=_C.as_dtype(dtype))

    def __getattr__(self, name):
        raise AttributeError(
            f"da.random.{name} has no lattensor implementation; the lattensor backend draws "
            "random, random_sample, uniform, standard_normal, normal and randint "
            "(use dask.config.set({'array.backend': 'numpy'}) for the others)"
        )


def _entropy(seed):
    """Dask passes 624 uint32 words (``random_state_data``); users may pass an int."""
    if seed is None:
        return None
    a = np.asarray(seed)
    return [int(v) for v in a.reshape(-1)] if a.ndim else int(a)
