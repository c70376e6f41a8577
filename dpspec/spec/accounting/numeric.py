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
import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import MAX_PREC, ROUND_CEILING, ROUND_FLOOR, Decimal, localcontext
from fractions import Fraction
from typing import Any, overload

import mpmath

#: working precision (significant decimal digits) of the mpmath computations
DPS = 40
#: largest significant-digit count a published value may have (the 40-digit arithmetic certifies
#: the bisection brackets to 1e-30 relative, so 30 digits rounded up are exact)
MAX_DIGITS = 30
#: decimal parameters are accepted between 10^-MAX_EXPONENT and 10^MAX_EXPONENT in magnitude
MAX_EXPONENT = 4000

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
        if "_" in text:
            # Decimal and Fraction accept digit separators ("1_0" == 10): too easy to mistype
            raise ValueError(f"{name}: {x!r} is not a decimal or rational number "
                             "(no '_' separators)")
        if len(text) > 1000:
            raise ValueError(f"{name}: a number of more than 1000 characters is not accepted")
        try:
            if "/" in text:
                return Fraction(text)
            d = Decimal(text)
        except (ValueError, ArithmeticError) as exc:
            raise ValueError(f"{name}: {x!r} is not a decimal or rational number") from exc
        if not d.is_finite():
            raise ValueError(f"{name} must be finite, got {x!r}")
        if d != 0 and not -MAX_EXPONENT <= d.adjusted() <= MAX_EXPONENT:
            raise ValueError(f"{name}: {x!r} is outside the accepted range "
                             f"1e-{MAX_EXPONENT} .. 1e{MAX_EXPONENT}")
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


def strict_int(text: str) -> int:
    """A decimal integer as typed: digits with an optional sign, no '_' separators, at most 30
    digits (``int()`` would read ``"1_0"`` as 10). For argparse ``type=``."""
    t = text.strip()
    if not re.fullmatch(r"[+-]?[0-9]{1,30}", t):
        raise ValueError(f"{text!r} is not a decimal integer of at most 30 digits")
    return int(t)


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


#: the most significant digits round_sig gives (far more than any published value carries)
MAX_ROUND_DIGITS = 200


def _to_decimal(x: mpmath.mpf) -> Decimal:
    # Exact conversion of the binary mpf to a Decimal (no rounding yet): its value is n / 2^k, which
    # is n 5^k / 10^k. (A 200-digit division rounded to nearest once an mpf had more than about
    # 660 bits, so that round_up could return less than its argument.)
    f = to_fraction(x)
    k = f.denominator.bit_length() - 1
    with localcontext() as ctx:
        ctx.prec = MAX_PREC  # scaleb is then exact
        return Decimal(f.numerator * 5**k).scaleb(-k)


def round_sig(x: Real | mpmath.mpf, digits: int, *, up: bool) -> str:
    """``x`` rounded to ``digits`` significant digits, toward +infinity (``up``) or -infinity.

    Returned as a plain decimal string (no exponent), e.g. ``round_sig(23.39027..., 10, up=True)
    == "23.39027362"``. Rounding up is how a calibrated noise scale or a reported epsilon/delta is
    published: never below the mpf rounded, whatever its precision. An ``x`` that is not an mpf is
    first read as one at the working precision (:func:`mpf`, rounded to nearest: a string "0.1"
    or the rational 1/3 is not taken exactly). More than :data:`MAX_ROUND_DIGITS` digits are
    refused.
    """
    if digits > MAX_ROUND_DIGITS:
        raise ValueError(f"at most {MAX_ROUND_DIGITS} significant digits, got {digits}")
    v = mpf(x) if not isinstance(x, mpmath.mpf) else x
    if v == 0:
        return "0"
    d = _to_decimal(v)
    exponent = d.adjusted()  # position of the leading digit
    quantum = Decimal(1).scaleb(exponent - digits + 1)
    with localcontext() as ctx:
        ctx.prec = MAX_PREC  # the quantized value has as many digits as it needs
        r = d.quantize(quantum, rounding=ROUND_CEILING if up else ROUND_FLOOR)
    text = format(r, "f")
    return text


def compact(text: str) -> str:
    """A decimal string in its shortest exact form: trailing zeros dropped, scientific notation
    below 1e-5 and from 1e21 on (``compact("0.000000001000000000") == "1e-9"``); no rounding."""
    d = Decimal(text)
    if d == 0:
        return "0"
    with localcontext() as ctx:  # normalize() rounds to the context's precision: keep every digit
        ctx.prec = max(ctx.prec, len(d.as_tuple().digits))
        d = d.normalize()
    sign, digits, _ = d.as_tuple()
    adjusted = d.adjusted()
    if -5 <= adjusted < 21:
        return format(d, "f")
    mant = "".join(map(str, digits))
    body = mant[0] + ("." + mant[1:] if len(mant) > 1 else "")
    return ("-" if sign else "") + f"{body}e{adjusted}"


def round_up(x: Real | mpmath.mpf, digits: int = 10) -> str:
    """:func:`round_sig` toward +infinity."""
    return round_sig(x, digits, up=True)


def round_down(x: Real | mpmath.mpf, digits: int = 10) -> str:
    """:func:`round_sig` toward -infinity."""
    return round_sig(x, digits, up=False)


def round_fixed(x: Real | mpmath.mpf, places: int, *, up: bool) -> str:
    """``x`` rounded to ``places`` decimals toward +infinity (``up``) or -infinity, exactly.

    Works on the exact value of ``x`` (a float is the dyadic rational it holds), e.g.
    ``round_fixed(0.56111579131857, 6, up=True) == "0.561116"``.
    """
    f = x if isinstance(x, Fraction) else to_fraction(x if not isinstance(x, str) else mpf(x))
    scaled = f * 10**places
    q = -((-scaled.numerator) // scaled.denominator) if up else scaled.numerator // scaled.denominator
    with localcontext() as ctx:
        ctx.prec = MAX_PREC  # exact however many digits q has
        return format(Decimal(q).scaleb(-places), "f")


def grid_step_down(g: Decimal, digits: int) -> Decimal:
    """The next smaller decimal with ``digits`` significant digits below ``g > 0``."""
    with localcontext() as ctx:
        ctx.prec = MAX_PREC  # the differences are exact
        quantum = Decimal(1).scaleb(g.adjusted() - digits + 1)
        h = g - quantum
        if h.adjusted() < g.adjusted():  # crossed a power of ten: the grid is finer below it
            h = g - quantum.scaleb(-1)
        return h


def smallest_on_grid(ok: Callable[[mpmath.mpf], bool], estimate: Real | mpmath.mpf,
                     digits: int, *, lowest: Real | mpmath.mpf = 0) -> str:
    """The smallest decimal ``g`` with ``digits`` significant digits such that ``ok(g)``, for a
    predicate ``ok`` that is monotone (false below a point, true above it).

    ``estimate`` (from any arithmetic, e.g. a binary64 search) only says where to start; the
    answer depends on ``ok`` alone: it is the rounded-up estimate, moved up until ``ok`` holds and
    then down while the next smaller grid value still satisfies ``ok``. This is how a value found
    quickly in binary64 is published reproducibly: ``ok`` is evaluated in mpmath. ``lowest``: the
    answer is never below it (returned as ``round_up(lowest)`` if ``ok`` holds there).
    """
    low = mpf(lowest)
    start = max(mpf(estimate), low)
    if start <= 0:
        start = mpmath.mpf(10) ** -30

    def up(v: mpmath.mpf) -> Decimal:
        return Decimal(round_up(v, digits))

    def test(g: Decimal) -> bool:
        return bool(ok(mpf(str(g))))

    def canon(g: Decimal) -> str:  # exact: g is on the grid already
        with localcontext() as ctx:
            ctx.prec = MAX_PREC
            return format(g.quantize(Decimal(1).scaleb(g.adjusted() - digits + 1)), "f")

    floor_g = up(low) if low > 0 else None
    step = mpmath.mpf(10) ** (-digits + 1)
    good = up(start)
    if test(good):  # look below for a failing grid value
        while True:
            cand = up(mpf(str(good)) * (1 - step))
            if cand >= good:
                cand = grid_step_down(good, digits)
            if floor_g is not None and cand <= floor_g:
                cand = floor_g
            if cand <= 0:
                return canon(good)
            if test(cand):
                good = cand
                if cand == floor_g:
                    return canon(good)
                step = min(step * 2, mpmath.mpf("0.5"))
            else:
                bad = cand
                break
    else:  # look above for a passing grid value
        bad = good
        for _ in range(4000):
            good = up(mpf(str(bad)) * (1 + step))
            if test(good):
                break
            bad, step = good, step * 2
        else:  # pragma: no cover
            raise ArithmeticError("no value on the grid satisfies the bound")
    while True:  # bisection on the grid: bad fails, good holds
        mid = up((mpf(str(bad)) + mpf(str(good))) / 2)
        if mid >= good or mid <= bad:
            below = grid_step_down(good, digits)
            if below > bad and test(below):
                good = below
                continue
            return canon(good)
        if test(mid):
            good = mid
        else:
            bad = mid


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


def bisect_int(pred: Callable[[int], bool], lo: int, hi: int) -> int:
    """The smallest integer ``n`` in ``(lo, hi]`` with ``pred(n)``, by bisection, given that
    ``pred(lo)`` is false and ``pred(hi)`` true (neither end is evaluated: either may be a
    sentinel outside the predicate's domain) and that ``pred`` is monotone between them (false
    below a point, true from it on). ``hi`` is returned when ``pred`` holds nowhere inside."""
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if pred(mid):
            hi = mid
        else:
            lo = mid
    return hi


@overload
def smallest_int(pred: Callable[[int], bool], lo: int, *, first: int | None = None,
                 cap: None = None, lo_fails: bool = False) -> int: ...
@overload
def smallest_int(pred: Callable[[int], bool], lo: int, *, first: int | None = None,
                 cap: int, lo_fails: bool = False) -> int | None: ...
def smallest_int(pred: Callable[[int], bool], lo: int, *, first: int | None = None,
                 cap: int | None = None, lo_fails: bool = False) -> int | None:
    """The smallest integer ``n >= lo`` with ``pred(n)``, for a ``pred`` that is monotone on
    ``n >= lo`` (false below a point, true from it on; the answer is only defined then).

    ``pred(lo)`` is evaluated first (``lo`` is the answer if it holds) unless ``lo_fails`` says
    it is known to be false; then ``pred`` at ``first`` (default ``max(2 lo, lo + 1, 1)``; it
    must exceed ``lo`` and 0), doubling the probe until ``pred`` holds, and :func:`bisect_int`
    between the last failing probe and the first passing one. With a ``cap``, no probe above
    ``cap`` is made: None is returned when ``pred`` fails at ``lo`` and at every probe up to
    ``cap`` (the last failing probe is then the largest ``first 2^i <= cap``). Without a cap the
    search does not end if ``pred`` never holds.
    """
    hi = max(2 * lo, lo + 1, 1) if first is None else first
    if hi <= max(lo, 0):
        raise ValueError(f"smallest_int: the first probe {hi} must exceed lo = {lo} and 0")
    if not lo_fails and pred(lo):
        return lo
    while True:
        if cap is not None and hi > cap:
            return None
        if pred(hi):
            return bisect_int(pred, lo, hi)
        lo, hi = hi, 2 * hi


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
