"""Exact rational parameters: the grammar dpspec accepts for probabilities, scales and counts.

Every sampler parameter is an exact rational number (or an integer), written as text. This module
turns the accepted spellings into :class:`fractions.Fraction` / ``int`` and refuses everything
else. Python callers may also pass ``int`` (not ``bool``) and ``fractions.Fraction``, taken as
they are; ``float`` is refused because a binary floating-point literal such as ``0.1`` is not the
number it looks like (it is 3602879701896397/36028797018963968).

Grammar (normative; ABNF, RFC 5234, with its core rule DIGIT = %x30-39; literals are
case-insensitive in ABNF, so "e" also matches "E")::

    rational  = [sign] ( fraction / decimal )
    fraction  = digits "/" digits
    decimal   = mantissa [exponent]
    mantissa  = digits [ "." *DIGIT ] / "." digits
    exponent  = "e" [sign] digits
    integer   = [sign] digits
    sign      = "+" / "-"
    digits    = 1*DIGIT

Examples: ``12``, ``-3/7``, ``+0.25``, ``.5``, ``12.``, ``1e-3`` (exactly 1/1000), ``2.5E6``.
Leading zeros are allowed (``007`` is 7). Not accepted: blanks anywhere (``" 1/2"``), a sign
after ``/`` (``1/-2``), ``0x10``, ``1_000``, ``inf``, ``nan``, a lone ``.``, an exponent on a
fraction (``1/2e3``), non-ASCII digits. A parameter of kind *integer* (a count such as ``n`` or
``dim``) must match ``integer``: ``4/2``, ``1e3`` and ``3.0`` are refused even though their
values are integers.

Order of validation (normative; the first failing step decides the error):

1. type: the value is a string (JSON string in the vectors)            -> ``NotRational``
2. length: at most :data:`MAX_TEXT_LENGTH` characters                  -> ``TooLong``
3. syntax: the text matches the production of the parameter's kind      -> ``NotRational`` /
   (``rational`` or ``integer``), as a whole                               ``NotInteger``
4. exponent: its magnitude is at most :data:`MAX_EXPONENT`              -> ``ExponentTooLarge``
5. denominator: a ``fraction``'s denominator is not zero                -> ``ZeroDenominator``
6. range: the sampler's domain for that parameter                       -> ``OutOfRange``
7. cost: the sampler's cost limit, over all its parameters              -> ``CostTooLarge``

Steps 1-6 run for each parameter in the order of the sampler's signature; step 7 runs once
all parameters have passed. The value of a ``decimal`` is ``mantissa * 10^exponent`` exactly.

The canonical text of a rational (:func:`format_rational`) is ``"a"`` for an integer and
``"a/b"`` (lowest terms, b > 1) otherwise; it matches the vector envelope's ``rational`` pattern.
"""

from __future__ import annotations

import re
from fractions import Fraction

RationalLike = int | Fraction | str

_INTEGER = re.compile(r"[+-]?[0-9]+", re.ASCII)
_FRACTION = re.compile(r"([+-]?)([0-9]+)/([0-9]+)", re.ASCII)
_DECIMAL = re.compile(r"([+-]?)(?:([0-9]+)(?:\.([0-9]*))?|\.([0-9]+))(?:[eE]([+-]?[0-9]+))?",
                      re.ASCII)

#: The grammar of the module docstring, one rule a line (for vector headers and docs).
GRAMMAR_ABNF = (
    'rational = [sign] ( fraction / decimal )',
    'fraction = digits "/" digits',
    'decimal  = mantissa [exponent]',
    'mantissa = digits [ "." *DIGIT ] / "." digits',
    'exponent = "e" [sign] digits',
    'integer  = [sign] digits',
    'sign     = "+" / "-"',
    'digits   = 1*DIGIT',
)

#: Step 4: refuse exponents beyond this magnitude ("1e999999999" would build a huge integer).
MAX_EXPONENT = 10_000
#: Step 2: refuse texts longer than this.
MAX_TEXT_LENGTH = 1000


class RationalError(ValueError):
    """A parameter that is not an exact rational (or not in the allowed range).

    ``flag`` names the validation step that failed (see the module docstring).
    """

    flag = "NotRational"


class TooLongError(RationalError):
    flag = "TooLong"


class NotIntegerError(RationalError):
    flag = "NotInteger"


class ExponentTooLargeError(RationalError):
    flag = "ExponentTooLarge"


class ZeroDenominatorError(RationalError):
    flag = "ZeroDenominator"


def _check_text(value: str, name: str) -> None:
    if len(value) > MAX_TEXT_LENGTH:
        raise TooLongError(f"{name}: {len(value)} characters; at most {MAX_TEXT_LENGTH} allowed")


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
        _check_text(value, name)
        return _parse_text(value, name)
    raise RationalError(
        f"{name}: expected an int, a Fraction or a rational string, got {type(value).__name__}"
    )


def _parse_text(text: str, name: str) -> Fraction:
    m = _FRACTION.fullmatch(text)
    if m:
        den = int(m.group(3))
        if den == 0:
            raise ZeroDenominatorError(f"{name}: zero denominator in {text!r}")
        value = Fraction(int(m.group(2)), den)
        return -value if m.group(1) == "-" else value
    m = _DECIMAL.fullmatch(text)
    if m:
        sign, whole, frac, frac_only, exp = m.groups()
        digits = frac_only if frac_only is not None else (frac or "")
        whole = whole or "0"
        e = int(exp) if exp is not None else 0
        if abs(e) > MAX_EXPONENT:
            raise ExponentTooLargeError(
                f"{name}: exponent in {text!r} is beyond +-{MAX_EXPONENT}")
        value = Fraction(int(whole + digits), 10 ** len(digits)) * Fraction(10) ** e
        return -value if sign == "-" else value
    raise RationalError(
        f"{name}: {text!r} is not a rational number (forms: 12, 3/7, 0.25, 1e-3; no blanks)"
    )


def parse_int(value: object, name: str = "value") -> int:
    """An integer parameter: an int, an integral Fraction, or text matching ``integer``.

    Text such as ``"4/2"``, ``"1e3"`` or ``"3.0"`` is refused (NotIntegerError) although its
    value is an integer: the grammar of an integer parameter is ``[sign] digits``.
    """
    if isinstance(value, str):
        _check_text(value, name)
        if _INTEGER.fullmatch(value):
            return int(value)
        raise NotIntegerError(f"{name} must be an integer written [sign] digits, got {value!r}")
    q = parse_rational(value, name)
    if q.denominator != 1:
        raise NotIntegerError(f"{name} must be an integer, got {format_rational(q)}")
    return q.numerator


def format_rational(q: Fraction | int) -> str:
    """Canonical text: ``"a"`` or ``"a/b"`` in lowest terms."""
    q = Fraction(q)
    if q.denominator == 1:
        return str(q.numerator)
    return f"{q.numerator}/{q.denominator}"
