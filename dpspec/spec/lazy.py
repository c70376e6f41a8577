"""Modules imported on first use, so that ``dpspec --help`` and other quick commands start without
loading large numeric libraries that only a few computations need."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any


class LazyModule:
    """Stands for module ``name``; the first attribute access imports it."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._module: ModuleType | None = None

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__"):
            raise AttributeError(attr)
        if self._module is None:
            self._module = importlib.import_module(self._name)
        return getattr(self._module, attr)


def lazy_module(name: str) -> Any:
    """A stand-in for ``import name`` that imports on first attribute access."""
    return LazyModule(name)
