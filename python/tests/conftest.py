"""Shared fixtures: repository paths and a clean promotion mode per test."""

from __future__ import annotations

import os
import pathlib

import pytest

# SciPy reads this once, when it is first imported: its array API support (the
# downstream tests in test_ecosystem.py) is off without it
os.environ.setdefault("SCIPY_ARRAY_API", "1")

import lattensor as lt

REPO = pathlib.Path(__file__).resolve().parents[2]
DATA = REPO / "crates" / "lattensor" / "tests" / "data"


@pytest.fixture(autouse=True)
def _mode_all():
    """Every test starts in ALL mode and leaves the process default as it found it."""
    lt.set_promotion_mode("all")
    yield
    lt.set_promotion_mode("all")


def encode_values(t):
    """A tensor's values in the golden scripts' encoding (scripts/golden/tf_values.py):
    complex as [re, im], bool as bool, real as float with "nan", "inf", "-inf" and
    "-0.0" as strings."""
    import math

    import numpy as np

    a = np.asarray(t)
    if a.dtype.kind == "c":
        return [[float(x.real), float(x.imag)] for x in a.reshape(-1)]
    if a.dtype.kind == "b":
        return [bool(x) for x in a.reshape(-1)]
    out = []
    for x in a.astype(np.float64).reshape(-1):
        v = float(x)
        out.append("-0.0" if v == 0.0 and math.copysign(1.0, v) < 0 else (v if math.isfinite(v) else str(v)))
    return out
