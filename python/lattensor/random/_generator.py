"""``lattensor.random.default_rng``: NumPy's ``Generator`` methods drawing
lattensor tensors from the stateless Philox generator.

This is the object Dask's ``da.random.default_rng`` builds its blocks with
under the ``"lattensor"`` array backend: Dask spawns one
``numpy.random.SeedSequence`` per block, wraps it in :class:`PhiloxSeed` (the
backend's ``default_bit_generator``) and calls
``lattensor.random.default_rng(bit_generator).<method>(..., size=block_shape)``.
Each method draws with ``stateless_uniform``/``stateless_normal`` keyed by the
sequence's first two 32-bit words, so a block is a pure function of its seed
sequence: the same ``default_rng(seed)`` and calls give the same values in any
process.
"""

from __future__ import annotations

import numpy as _np

from lattensor import _lattensor as _C

_FLOATS = ("float16", "bfloat16", "float32", "float64")
_DRAWN_INTS = ("int32", "int64")


class PhiloxSeed:
    """A seed for lattensor's stateless Philox generator, derived from a
    ``numpy.random.SeedSequence`` (``seed``: ``None``, an int, a sequence of
    ints or a ``SeedSequence``). ``_seed_seq`` is the attribute Dask spawns
    per-block children from, as it does with NumPy's bit generators."""

    def __init__(self, seed=None):
        self._seed_seq = seed if isinstance(seed, _np.random.SeedSequence) else _np.random.SeedSequence(seed)
        words = self._seed_seq.generate_state(2, _np.uint32)
        self.seed = [int(words[0]), int(words[1])]

    def __dask_tokenize__(self):
        s = self._seed_seq
        return ("lattensor.random.PhiloxSeed", s.entropy, tuple(s.spawn_key), s.pool_size, s.n_children_spawned)

    def __repr__(self):
        return f"PhiloxSeed(seed={self.seed})"


class Generator:
    """The ``numpy.random.Generator`` methods ``random``, ``uniform``,
    ``standard_normal``, ``normal`` and ``integers``, returning lattensor
    tensors. Every call with the same :class:`PhiloxSeed` gives the same values
    (the generator is stateless: build a new seed for new values, as Dask does
    per block). Floats follow TF's conversion of Philox words (float64 from 52
    random bits, float32 from 23), not NumPy's, so the values differ from
    NumPy's for the same seed."""

    def __init__(self, bit_generator):
        self.bit_generator = bit_generator

    @property
    def _seed(self):
        return self.bit_generator.seed

    def random(self, size=None, dtype="float64", out=None):
        """Uniform floats in [0, 1) (float16, bfloat16, float32 or float64)."""
        _no_out("random", out)
        return _C.stateless_uniform_float(_shape(size), self._seed, 0.0, 1.0, _float("random", dtype))

    def uniform(self, low=0.0, high=1.0, size=None, dtype="float64"):
        """Uniform floats in [low, high): ``u * (high - low) + low`` in ``dtype``."""
        from lattensor import random as _random

        return _random.stateless_uniform(_shape(size), self._seed, low, high, dtype=_float("uniform", dtype))

    def standard_normal(self, size=None, dtype="float64", out=None):
        """Standard normal floats (Box–Muller on Philox words, as TF)."""
        _no_out("standard_normal", out)
        return _C.stateless_normal_float(_shape(size), self._seed, 0.0, 1.0, _float("standard_normal", dtype))

    def normal(self, loc=0.0, scale=1.0, size=None, dtype="float64"):
        """Normal floats of mean ``loc`` and standard deviation ``scale``."""
        from lattensor import random as _random

        return _random.stateless_normal(_shape(size), self._seed, loc, scale, dtype=_float("normal", dtype))

    def integers(self, low, high=None, size=None, dtype="int64", endpoint=False):
        """Integers in [low, high) (``endpoint=True``: [low, high]; one bound:
        from 0). int32 and int64 are drawn as TF draws them (32 or 64 random
        bits modulo the range); the other integer dtypes are drawn as int64
        within their bounds and cast, which is exact.

        Raises:
            ValueError: ``low >= high`` (after ``endpoint``), or a bound
                outside ``dtype``'s range.
            TypeError: ``dtype`` is not an integer dtype.
        """
        if high is None:
            low, high = 0, low
        low, high = int(low), int(high) + (1 if endpoint else 0)
        d = _C.as_dtype(dtype)
        if not d.is_integer:
            raise TypeError(f"lattensor.random Generator.integers: dtype must be an integer dtype, got {d.name}")
        info = _np.iinfo(_np.dtype(d.as_numpy_dtype))
        if not (low < high and info.min <= low and high - 1 <= info.max):
            raise ValueError(
                f"lattensor.random Generator.integers: need low < high within {d.name}'s range "
                f"[{info.min}, {info.max}], got low={low}, high={high - (1 if endpoint else 0)}"
                f"{' (endpoint=True)' if endpoint else ''}"
            )
        if d.name in _DRAWN_INTS:
            return _C.stateless_uniform_int(_shape(size), self._seed, low, high, d)
        drawn = _C.stateless_uniform_int(_shape(size), self._seed, low, high, _C.int64)
        return _C.cast(drawn, d)

    def __getattr__(self, name):
        raise AttributeError(
            f"lattensor.random Generator has no {name!r}: it draws random, uniform, standard_normal, "
            "normal and integers (with Dask, use dask.config.set({'array.backend': 'numpy'}) for the others)"
        )


def default_rng(seed=None):
    """A :class:`Generator` keyed by ``seed``: ``None`` (fresh entropy), an
    int or sequence of ints (through ``numpy.random.SeedSequence``), a
    ``SeedSequence``, a :class:`PhiloxSeed`, or a :class:`Generator` (returned
    as is)."""
    if isinstance(seed, Generator):
        return seed
    return Generator(seed if isinstance(seed, PhiloxSeed) else PhiloxSeed(seed))


def _shape(size):
    if size is None:
        return []
    return [int(size)] if _np.isscalar(size) else [int(d) for d in size]


def _float(op, dtype):
    d = _C.as_dtype(dtype if dtype is not None else "float64")
    if d.name not in _FLOATS:
        raise TypeError(
            f"lattensor.random Generator.{op}: dtype must be one of {', '.join(_FLOATS)}, got {d.name}"
        )
    return d


def _no_out(op, out):
    if out is not None:
        raise NotImplementedError(
            f"lattensor.random Generator.{op}: out= is not supported (it does not write into tensors); use the return value"
        )
