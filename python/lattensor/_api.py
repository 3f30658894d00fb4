"""Helpers shared by the namespace modules (not public API)."""

from __future__ import annotations

from lattensor import _lattensor as _C


def bind(namespace: dict, names, source=_C) -> None:
    """Binds each name that the compiled module provides.

    Names the Rust library does not implement yet are left out (so
    ``hasattr`` tells the truth); the test suite lists them as expected
    failures.
    """
    for name in names:
        target = getattr(source, name, None)
        if target is not None:
            namespace[name] = target
