"""The registry of vector generator families.

Adding a family is one module in this package that defines ``FAMILY``, an instance of
:class:`dpspec.conformance.vectors.Family`. Families are found by name, in sorted module order.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from dpspec.conformance.vectors import Family


@cache
def all_families() -> tuple[Family, ...]:
    """Every registered family, sorted by module name."""
    found = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        family = getattr(module, "FAMILY", None)
        if isinstance(family, Family):
            found.append(family)
    names = [f.name for f in found]
    if len(set(names)) != len(names):
        raise RuntimeError(f"duplicate family names: {names}")
    return tuple(found)


def get_family(name: str) -> Family:
    """The family called ``name``; KeyError naming the known ones otherwise."""
    for family in all_families():
        if family.name == name:
            return family
    raise KeyError(f"no vector family {name!r}; known: {', '.join(f.name for f in all_families())}")
