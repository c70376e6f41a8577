"""Argument conversion shared by the bundled third-party adapters (no validation here).

The libraries under test take binary64 floats, so the adapters convert the protocol's decimal
strings with :func:`num` (``sqrt(R)`` and ``a/b`` evaluated in binary64) and print answers with
``repr`` (shortest round trip). An adapter never checks an argument's domain itself: the
library's own rejection (or acceptance) is what is judged. What an adapter must refuse because it
cannot pass an argument to the library (a list where the library takes a number) it refuses with
:class:`~dpspec.conformance.adapters.protocol.AdapterRefusal`, counted apart in the reports.
"""

from __future__ import annotations

import math
from typing import Any

from dpspec.conformance.adapters.protocol import AdapterRefusal, Unsupported


def num(x: Any) -> float:
    """A protocol number as a binary64 float."""
    if isinstance(x, bool):
        raise AdapterRefusal("expected a number, got a boolean")
    if isinstance(x, int | float):
        return float(x)
    if not isinstance(x, str):
        raise AdapterRefusal(f"expected a number or numeric string, got {x!r}")
    text = x.strip().replace(" ", "")
    if text.startswith("sqrt(") and text.endswith(")"):
        return math.sqrt(num(text[5:-1]))
    if "/" in text:
        a, b = text.split("/", 1)
        return float(a) / float(b)
    try:
        return float(text)
    except ValueError:
        raise AdapterRefusal(f"{x!r} is not a number") from None


def integer(x: Any) -> int:
    """A protocol integer (a JSON number or a decimal string)."""
    if isinstance(x, bool):
        raise AdapterRefusal("expected an integer, got a boolean")
    if isinstance(x, int):
        return x
    if isinstance(x, str):
        try:
            return int(x, 10)
        except ValueError:
            raise AdapterRefusal(f"{x!r} is not an integer") from None
    raise AdapterRefusal(f"expected an integer, got {x!r}")


def out(x: Any) -> str:
    """An answer as the shortest decimal string of its binary64 value."""
    return repr(float(x))


def single_shift(vector: Any) -> int:
    """The one coordinate of a one-dimensional difference vector (libraries that take a scalar
    sensitivity); longer vectors are unsupported."""
    if not isinstance(vector, list):
        raise AdapterRefusal("vector must be a list")
    if len(vector) != 1:
        raise Unsupported("this library takes one scalar sensitivity, not a vector")
    return integer(vector[0])


def version_of(distribution: str) -> str:
    from importlib.metadata import version

    return version(distribution)
