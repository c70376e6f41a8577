"""JSON arguments of vector ops: schema fragments and strict parsers shared by every family.

A reference handler receives ``params ∪ inputs`` of a test (see :mod:`dpspec.conformance.vectors`) as a
JSON object. The envelope's encoding rules fix how values are written; this module is the one
place that turns them into Python values and writes their JSON Schema fragments:

========== ============================== ==========================================
fragment   JSON                           parser
========== ============================== ==========================================
``HEX``    lower-case hex string          :func:`hex_arg` -> ``bytes``
``DEC``    decimal string ``"-12"``       :func:`int_arg` -> ``int`` (also a JSON integer)
``RAT``    ``"3/7"``, ``"0.25"``, ``"2"``  passed on to the spec (``dpspec.spec.rational``) as text
``COUNT``  JSON integer >= 0              :func:`count_arg` -> ``int``
========== ============================== ==========================================

Every parser raises :class:`ValueError` naming the argument when a value is missing or has the
wrong type or form (a bool is never an integer; a float is never an exact rational), so a handler
rejects bad input with a one-line reason.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

HEX: dict[str, Any] = {"type": "string", "pattern": "^([0-9a-f]{2})*$"}
"""Bytes: lower-case hex, two digits a byte (the empty string is zero bytes)."""

DEC: dict[str, Any] = {"type": "string", "pattern": "^-?(0|[1-9][0-9]*)$"}
"""An unbounded integer as a decimal string, no sign for non-negative values, no leading zeros."""

RAT: dict[str, Any] = {"type": "string",
                       "pattern": "^-?(0|[1-9][0-9]*)((/[1-9][0-9]*)|(\\.[0-9]+))?$"}
"""An exact rational: an integer, a fraction ``a/b`` or a finite decimal ``x.y``."""

COUNT: dict[str, Any] = {"type": "integer", "minimum": 0}
"""A size or count: a JSON integer >= 0."""



def any_value_ops(arg_names: Mapping[str, Iterable[str]]) -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    """The ``ops`` argument of :func:`dpspec.conformance.vectors.family_schema` for families whose
    handlers parse their own arguments: per op, every named argument may hold any JSON value and
    the outputs are any object.

    The schema then checks only that a group or test names no argument the op does not take;
    the forms of the values are checked by replay (the handlers' parsers).
    """
    return {op: ({"properties": {name: {} for name in names}}, {"type": "object"})
            for op, names in arg_names.items()}


_DECIMAL = re.compile(r"-?[0-9]+", re.ASCII)


def _get(args: Mapping[str, Any], key: str) -> Any:
    if key not in args:
        raise ValueError(f"missing argument {key}")
    return args[key]


def hex_arg(args: Mapping[str, Any], key: str) -> bytes:
    """``args[key]``, a hex string, as bytes."""
    value = _get(args, key)
    if not isinstance(value, str):
        raise ValueError(f"{key} must be a hex string")
    try:
        return bytes.fromhex(value)
    except ValueError as exc:
        raise ValueError(f"{key} is not valid hex") from exc


def hex_list_arg(args: Mapping[str, Any], key: str) -> list[bytes]:
    """``args[key]``, a list of hex strings, as a list of bytes."""
    value = _get(args, key)
    if not isinstance(value, list):
        raise ValueError(f"{key} must be a list of hex strings")
    return [hex_arg({key: item}, key) for item in value]


def parse_int(value: Any, name: str) -> int:
    """A JSON integer or a decimal string (ASCII digits, optional ``-``) as an int."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ValueError(f"{name} must be an integer or a decimal string")
    if isinstance(value, str) and not _DECIMAL.fullmatch(value):
        raise ValueError(f"{name} must be a decimal integer, not {value!r}")
    return int(value)


def int_arg(args: Mapping[str, Any], key: str) -> int:
    """``args[key]``, a JSON integer or a decimal string, as an int."""
    return parse_int(_get(args, key), key)


def json_int_arg(args: Mapping[str, Any], key: str) -> int:
    """``args[key]``, which must be a JSON integer (not a string, not a bool)."""
    value = _get(args, key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{key} must be an integer")
    return value


def count_arg(args: Mapping[str, Any], key: str, maximum: int | None = None) -> int:
    """``args[key]``, a JSON integer in ``[0, maximum]`` (no upper bound when None)."""
    value = _get(args, key)
    if (isinstance(value, bool) or not isinstance(value, int) or value < 0
            or (maximum is not None and value > maximum)):
        bound = "a non-negative integer" if maximum is None else f"an integer in [0, {maximum}]"
        raise ValueError(f"{key} must be {bound}")
    return value


def no_float(args: Mapping[str, Any], key: str) -> Any:
    """``args[key]`` unchanged, after refusing a JSON float (inexact) for an exact rational."""
    value = _get(args, key)
    if isinstance(value, float):
        raise ValueError(f"{key}: JSON floats are inexact; give the rational as a string")
    return value
