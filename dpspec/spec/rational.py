"""Exact rational parameters: how dpspec reads a probability, a scale or a variance.

Every sampler parameter is an exact rational number. This module turns the accepted spellings
into :class:`fractions.Fraction` and refuses everything else:

* ``int`` (not ``bool``) and ``fractions.Fraction``: taken as they are;
* a string, after stripping surrounding blanks, in one of the forms

  - an integer ``"-12"``, ``"+3"``, ``"0"``;
  - a fraction ``"3/7"``, ``"-10/4"`` (denominator a positive integer);
  - a decimal ``"0.25"``, ``".5"``, ``"12."``, ``"-1.75"``;
  - a decimal with an exponent ``"1e-3"``, ``"2.5E6"`` (the value is exact: ``1e-3`` is 1/1000).

``float`` is refused: a binary floating-point literal such as ``0.1`` is not the number it looks
like (it is 3602879701896397/36028797018963968), so letting it in would silently change the
distribution being sampled. Write the number as a string (``"0.1"``) or a Fraction instead.

The canonical text of a rational (:func:`format_rational`) is ``"a"`` for an integer and
``"a/b"`` (lowest terms, b > 1) otherwise; it matches the vector envelope's ``rational`` pattern.
"""

from __future__ import annotations

import re
from fractions import Fraction

RationalLike = int | Fraction | str

_INT = re.compile(r"[+-]?[0-9]+")
_FRACTION = re.compile(r"([+-]?[0-9]+)/([0-9]+)")
_DECIMAL = re.compile(r"([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?")

#: Refuse exponents beyond this magnitude: "1e999999999" would otherwise build a huge integer.
MAX_EXPONENT = 10_000


class RationalError(ValueError):
    """A parameter that is not an exact rational (or not in the allowed range)."""


def parse_rational(value: object, name: str = "value") -> Fraction:
    """``value`` as an exact Fraction; RationalError (a ValueError) naming ``name`` otherwise."""
    if isinstance(value, bool):
        raise RationalError(f"{name}: a bool is not a number")
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, Fraction):
        return value
    if isinstance(value, float):
        raise RationalError(
            f"{name}: floats are refused because they are inexact (the float {value!r} is really "
            f"{Fraction(value)}); pass an exact rational instead: an int, a Fraction, or a string "
            f"such as \"0.1\" or \"1/10\""
        )
    if isinstance(value, str):
        return _parse_text(value.strip(), name)
    raise RationalError(
        f"{name}: expected an int, a Fraction or a rational string, got {type(value).__name__}"
    )


def _parse_text(text: str, name: str) -> Fraction:
    if _INT.fullmatch(text):
        return Fraction(int(text))
    m = _FRACTION.fullmatch(text)
    if m:
        den = int(m.group(2))
        if den == 0:
            raise RationalError(f"{name}: zero denominator in {text!r}")
        return Fraction(int(m.group(1)), den)
    m = _DECIMAL.fullmatch(text)
    if m and (m.group(2) or m.group(3)):
        sign, whole, frac, exp = m.group(1), m.group(2) or "0", m.group(3) or "", m.group(4)
        e = int(exp) if exp is not None else 0
        if abs(e) > MAX_EXPONENT:
            raise RationalError(f"{name}: exponent in {text!r} is beyond +-{MAX_EXPONENT}")
        value = Fraction(int(whole + frac), 10 ** len(frac)) * Fraction(10) ** e
        return -value if sign == "-" else value
    raise RationalError(
        f"{name}: {text!r} is not a rational number (forms: 12, 3/7, 0.25, 1e-3)"
    )


def parse_int(value: object, name: str = "value") -> int:
    """An integer parameter given as int or as a rational string/Fraction that is integral."""
    q = parse_rational(value, name)
    if q.denominator != 1:
        raise RationalError(f"{name} must be an integer, got {format_rational(q)}")
    return q.numerator


def format_rational(q: Fraction | int) -> str:
    """Canonical text: ``"a"`` or ``"a/b"`` in lowest terms."""
    q = Fraction(q)
    if q.denominator == 1:
        return str(q.numerator)
    return f"{q.numerator}/{q.denominator}"
