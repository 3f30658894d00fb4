"""Shared fixtures: repository paths and a clean promotion mode per test."""

from __future__ import annotations

import pathlib

import pytest

import lattensor as lt

REPO = pathlib.Path(__file__).resolve().parents[2]
DATA = REPO / "crates" / "lattensor" / "tests" / "data"


@pytest.fixture(autouse=True)
def _mode_all():
    """Every test starts in ALL mode and leaves the process default as it found it."""
    lt.set_promotion_mode("all")
    yield
    lt.set_promotion_mode("all")
