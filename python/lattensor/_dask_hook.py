"""Registers lattensor with Dask when both are imported, without importing Dask.

lattensor does not depend on Dask. When ``dask.array`` is already imported,
:func:`install` registers at once; otherwise it leaves a finder on
``sys.meta_path`` that waits for ``dask.array`` to finish importing and then
registers (``lattensor.dask.register``). The finder only wraps the loader of
that one module and removes itself once it has fired.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys

_TARGET = "dask.array"


def _register() -> None:
    from lattensor.dask._register import register

    register()


class _Loader(importlib.abc.Loader):
    """Runs the real loader of ``dask.array``, then registers lattensor."""

    def __init__(self, loader):
        self._loader = loader

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        self._loader.exec_module(module)
        _register()


class _Finder(importlib.abc.MetaPathFinder):
    """Finds ``dask.array`` through the other finders and wraps its loader."""

    def find_spec(self, fullname, path, target=None):
        if fullname != _TARGET:
            return None
        sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
        if spec is None or spec.loader is None:
            return spec
        spec.loader = _Loader(spec.loader)
        return spec


def install() -> None:
    """Registers now if ``dask.array`` is imported, else when it is."""
    module = sys.modules.get(_TARGET)
    if module is not None and getattr(getattr(module, "__spec__", None), "_initializing", False) is False:
        _register()
    elif not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
