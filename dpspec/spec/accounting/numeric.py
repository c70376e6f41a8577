"""Numbers for privacy accounting: parsing parameters, working precision, conservative rounding.

Accounting and calibration are analysis, not sampling, so they may use high-precision floating
point. Two arithmetics are used, and every function says which:

* **mpmath** at :data:`DPS` significant decimal digits (default 40) for the Gaussian, discrete
  Gaussian, Renyi, zCDP, composition and Ghazi et al. computations. Results are then *rounded
  conservatively* to a stated number of significant digits: a noise scale is rounded up, an epsilon
  or delta is rounded up, so a printed value is never more optimistic than the exact one.
* **binary64** (numpy/scipy) for the shuffle bounds, whose distributions have up to 10^6 atoms.
  There, every probability is computed from log-PMFs and hockey-stick divergences add only positive
  terms, so a delta carries an absolute error below about 1e-14 (tests compare with mpmath at small
  ``n`` to 1e-9 relative); the reported epsilon is the upper end of a bisection bracket of relative
  width ``dpspec.spec.accounting.shuffle.EPS_TOL``.

Parameters may be given as ``int``, ``fractions.Fraction``, ``decimal.Decimal``, decimal or
rational strings (``"0.317"``, ``"1/3"``, ``"1e-9"``) or ``float``. A float is accepted here because
it *is* an exact dyadic rational and is never used on a sampling path; prefer strings so that the
value you mean (0.1) is the value you get. Where an mpf is accepted, the string ``"sqrt(R)"`` (R a
decimal or rational) denotes the square root of R at the working precision, as in the L2
sensitivity ``"sqrt(2)"`` of the one-hot histogram (sec. 6.1.2 of the DP draft).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal, localcontext
from fractions import Fraction
from typing import Any

import mpmath

#: working precision (significant decimal digits) of the mpmath computations
DPS = 40

Real = int | float | str | Fraction | Decimal


def to_fraction(x: Real | mpmath.mpf, name: str = "value") -> Fraction:
    """``x`` as an exact rational; rejects booleans, NaN and infinities with a clear message."""
    if isinstance(x, bool):
        raise TypeError(f"{name} must be a number, not a boolean")
    if isinstance(x, Fraction):
        return x
    if isinstance(x, int):
        return Fraction(x)
    if isinstance(x, float):
        if not math.isfinite(x):
            raise ValueError(f"{name} must be finite, got {x}")
        return Fraction(x)
    if isinstance(x, Decimal):
        if not x.is_finite():
            raise ValueError(f"{name} must be finite, got {x}")
        return Fraction(x)
    if isinstance(x, str):
        text = x.strip()
        try:
            if "/" in text:
                return Fraction(text)
            d = Decimal(text)
        except (ValueError, ArithmeticError) as exc:
            raise ValueError(f"{name}: {x!r} is not a decimal or rational number") from exc
        if not d.is_finite():
            raise ValueError(f"{name} must be finite, got {x!r}")
        return Fraction(d)
    if isinstance(x, mpmath.mpf):
        if not mpmath.isfinite(x):
            raise ValueError(f"{name} must be finite")
        sign, man, exp, _ = x._mpf_
        value = Fraction(int(man)) * (Fraction(2) ** int(exp))
        return -value if sign else value
    raise TypeError(f"{name} must be an int, Fraction, Decimal, float or numeric string, "
                    f"not {type(x).__name__}")


def mpf(x: Real | mpmath.mpf, name: str = "value") -> mpmath.mpf:
    """``x`` as an mpf at the current working precision (exact rationals are divided there)."""
    if isinstance(x, mpmath.mpf):
        return x
    if isinstance(x, str):
        text = x.strip().replace(" ", "")
        if text.startswith("sqrt(") and text.endswith(")"):
            inner = mpf(text[5:-1], name)
            if inner < 0:
                raise ValueError(f"{name}: square root of a negative number")
            return mpmath.sqrt(inner)
    f = to_fraction(x, name)
    return mpmath.mpf(f.numerator) / f.denominator


def positive(x: Real | mpmath.mpf, name: str) -> mpmath.mpf:
    v = mpf(x, name)
    if not v > 0:
        raise ValueError(f"{name} must be > 0, got {mpmath.nstr(v, 12)}")
    return v


def non_negative(x: Real | mpmath.mpf, name: str) -> mpmath.mpf:
    v = mpf(x, name)
    if v < 0:
        raise ValueError(f"{name} must be >= 0, got {mpmath.nstr(v, 12)}")
    return v


def probability(x: Real | mpmath.mpf, name: str, *, open_left: bool = True,
                open_right: bool = True) -> mpmath.mpf:
    """A probability in (0, 1), with the ends allowed on request."""
    v = mpf(x, name)
    lo_ok = v > 0 if open_left else v >= 0
    hi_ok = v < 1 if open_right else v <= 1
    if not (lo_ok and hi_ok):
        lo = "(" if open_left else "["
        hi = ")" if open_right else "]"
        raise ValueError(f"{name} must be in {lo}0, 1{hi}, got {mpmath.nstr(v, 12)}")
    return v


def positive_int(x: int | str, name: str, minimum: int = 1) -> int:
    if isinstance(x, bool):
        raise TypeError(f"{name} must be an integer")
    if isinstance(x, str):
        try:
            x = int(x, 10)
        except ValueError as exc:
            raise ValueError(f"{name} must be an integer, got {x!r}") from exc
    if not isinstance(x, int):
        raise TypeError(f"{name} must be an integer, not {type(x).__name__}")
    if x < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {x}")
    return x


def _to_decimal(x: mpmath.mpf) -> Decimal:
    # Exact conversion of the binary mpf to a Decimal (no rounding yet).
    f = to_fraction(x)
    with localcontext() as ctx:
        ctx.prec = 200
        return Decimal(f.numerator) / Decimal(f.denominator)


def round_sig(x: Real | mpmath.mpf, digits: int, *, up: bool) -> str:
    """``x`` rounded to ``digits`` significant digits, toward +infinity (``up``) or -infinity.

    Returned as a plain decimal string (no exponent), e.g. ``round_sig(23.39027..., 10, up=True)
    == "23.39027362"``. Rounding up is how a calibrated noise scale or a reported epsilon/delta is
    published: never below the exact value.
    """
    v = mpf(x) if not isinstance(x, mpmath.mpf) else x
    if v == 0:
        return "0"
    d = _to_decimal(v)
    exponent = d.adjusted()  # position of the leading digit
    quantum = Decimal(1).scaleb(exponent - digits + 1)
    with localcontext() as ctx:
        ctx.prec = 200
        r = d.quantize(quantum, rounding=ROUND_CEILING if up else ROUND_FLOOR)
    text = format(r, "f")
    return text


def round_up(x: Real | mpmath.mpf, digits: int = 10) -> str:
    """:func:`round_sig` toward +infinity."""
    return round_sig(x, digits, up=True)


def round_down(x: Real | mpmath.mpf, digits: int = 10) -> str:
    """:func:`round_sig` toward -infinity."""
    return round_sig(x, digits, up=False)


def bisect_increasing(f: object, lo: mpmath.mpf, hi: mpmath.mpf, target: mpmath.mpf,
                      rel_tol: mpmath.mpf, max_iter: int = 400) -> tuple[mpmath.mpf, mpmath.mpf]:
    """Bracket ``x`` with ``f(x) = target`` for a non-decreasing ``f`` given ``f(lo) <= target < f(hi)``.

    Returns ``(a, b)`` with ``f(a) <= target < f(b)`` (as evaluated) and ``b - a <= rel_tol * b``.
    """
    assert callable(f)
    a, b = lo, hi
    for _ in range(max_iter):
        if b - a <= rel_tol * abs(b):
            break
        mid = (a + b) / 2
        if f(mid) <= target:
            a = mid
        else:
            b = mid
    return a, b



@dataclass(frozen=True)
class GoldenSection:
    """The end state of :func:`golden_section`: the bracket and its two interior points."""

    lo: Any
    hi: Any
    x1: Any
    f1: Any
    x2: Any
    f2: Any


def golden_section(f: Callable[[Any], Any], lo: Any, hi: Any, *, phi: Any,
                   iterations: int | None = None, tol: Any = 0) -> GoldenSection:
    """Golden-section search for the minimum of a unimodal ``f`` on ``[lo, hi]``.

    Works in the arithmetic of its arguments (binary64 floats or mpmath numbers); ``phi`` is
    ``(sqrt(5) - 1) / 2`` in that arithmetic. Each step drops the part of the bracket beyond the
    worse of the two interior points ``x1 < x2`` and evaluates ``f`` at one new point. It stops
    after ``iterations`` steps (no limit if None) or once ``hi - lo <= tol``. Used where every point
    gives a valid bound (an RDP order, a design parameter), so optimality needs no proof.
    """
    x1, x2 = hi - phi * (hi - lo), lo + phi * (hi - lo)
    f1, f2 = f(x1), f(x2)
    step = 0
    while (iterations is None or step < iterations) and not hi - lo <= tol:
        if f1 < f2:
            hi, x2, f2 = x2, x1, f1
            x1 = hi - phi * (hi - lo)
            f1 = f(x1)
        else:
            lo, x1, f1 = x1, x2, f2
            x2 = lo + phi * (hi - lo)
            f2 = f(x2)
        step += 1
    return GoldenSection(lo, hi, x1, f1, x2, f2)
