"""The shuffle curves of :mod:`dpspec.spec.accounting.shuffle`, evaluated in mpmath with rigorous
truncation bounds: the values that are published (vectors, ``dpspec tables``).

The binary64 functions of :mod:`~dpspec.spec.accounting.shuffle` are fast but their last digits
depend on the numpy/scipy version. Every published shuffle number is therefore computed here, at
:data:`WPS` significant digits, as an *upper bound*:

* a binomial PMF is tabulated outward from its mode by exact term ratios until the mass left out
  is below a cut-off; the mass left out is bounded by a geometric series (the term ratio decreases
  away from the mode) and that bound is added to the delta;
* a delta is the hockey-stick sum over the tabulated atoms plus every bound left out, so the
  published delta is never below the exact one;
* a published epsilon is the smallest decimal with the stated number of significant digits whose
  delta bound meets the target (:func:`dpspec.spec.accounting.numeric.smallest_on_grid`): the
  binary64 search only says where to start, the answer depends on the mpmath evaluation alone.

The cut-off is 1e-60 or 1e-30 of the target delta, whichever is smaller, so a tail constant is
never counted as delta (the cause of an infinite epsilon at delta = 1e-300 in binary64).
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import mpmath

from dpspec.spec.accounting.definitions import DEFAULT_ORDERS
from dpspec.spec.accounting.numeric import (
    Real,
    golden_section,
    mpf,
    positive,
    positive_int,
    probability,
    round_up,
    smallest_on_grid,
)

#: working precision (significant decimal digits) of every computation in this module
WPS = 50
#: published significant digits of an epsilon or delta (rounded up)
DIGITS = 10
#: largest Renyi order of the RAPPOR Renyi route
RDP_MAX_ORDER = 256
#: largest number of tabulated atoms (beyond it the exact computation is refused)
MAX_ATOMS = 2_000_000
#: largest window of the clone count (about 10 s per evaluation on a busy machine)
MAX_CLONE_ATOMS = 1_000_000
#: largest number of terms of the one binomial CDF a clone curve sums per evaluation
MAX_CDF_TERMS = 2_000_000

MP = mpmath.mpf


def cutoff_for(delta: mpmath.mpf | None) -> mpmath.mpf:
    """The truncation cut-off for a target delta in (0, 1): min(1e-60, 1e-30 delta)."""
    c = MP(10) ** -60
    return c if delta is None else min(c, probability(delta, "delta") * MP(10) ** -30)


@dataclass(frozen=True)
class Window:
    """The PMF of Bin(m, p) on ``lo .. lo + len(pmf) - 1``; ``lost`` bounds the mass outside."""

    lo: int
    pmf: list[mpmath.mpf]
    lost: mpmath.mpf


def _walk(m: int, j: int, top: mpmath.mpf, odds: mpmath.mpf, upward: bool,
          cutoff: mpmath.mpf, held: int, max_atoms: int) -> tuple[list[mpmath.mpf], mpmath.mpf]:
    """The terms of Bin(m, p) after ``top``, walking away from the mode, and a bound on the mass
    beyond the last one kept.

    The walk is written in the coordinate ``j`` of the walk's direction: ``j = k`` upward and
    ``j = m - k`` downward (Bin(m, p) read from its top end is Bin(m, 1 - p)), so both directions
    step by the ratio ``(m - j) / (j + 1)`` times the odds ``p / (1 - p)`` (upward) or their
    inverse (downward) and stop at ``j = m``. It stops earlier once the next term over
    ``1 - r``, ``r`` the ratio after it, is at most ``cutoff`` (the ratios decrease away from the
    mode, so the rest is below a geometric series); that bound is returned. ``held`` atoms are
    already kept on this side (the mode on the upper one); more than ``max_atoms`` on one side
    is refused.
    """
    terms: list[mpmath.mpf] = []
    cur = top
    while j < m:
        if upward:
            nxt = cur * (m - j) / (j + 1) * odds
            r_next = (m - j - 1) * odds / (j + 2)
        else:
            nxt = cur * (m - j) / ((j + 1) * odds)
            r_next = (m - j - 1) / ((j + 2) * odds)
        if r_next < 1 and nxt / (1 - r_next) <= cutoff:
            return terms, nxt / (1 - r_next)
        terms.append(nxt)
        cur = nxt
        j += 1
        if held + len(terms) > max_atoms:
            raise ValueError(f"Bin({m}, p) needs more than {max_atoms} atoms")
    return terms, MP(0)


def binom_window(m: int, p: mpmath.mpf, cutoff: mpmath.mpf, max_atoms: int = MAX_ATOMS) -> Window:
    """Bin(m, p) tabulated from its mode outward (ratios ``(m - k)/(k + 1) * p/(1 - p)``); a side
    that would hold more than ``max_atoms`` atoms (the mode counted on the upper one) is refused,
    as in :func:`fixed_binom_window`."""
    if m == 0 or p == 0:
        return Window(0, [MP(1)], MP(0))
    if p == 1:
        return Window(m, [MP(1)], MP(0))
    odds = p / (1 - p)
    mode = min(max(int(mpmath.floor((m + 1) * p)), 0), m)
    log_mode = (mpmath.loggamma(m + 1) - mpmath.loggamma(mode + 1) - mpmath.loggamma(m - mode + 1)
                + mode * mpmath.log(p) + (m - mode) * mpmath.log1p(-p))
    top = mpmath.exp(log_mode)
    up, lost_up = _walk(m, mode, top, odds, True, cutoff, 1, max_atoms)
    down, lost_down = _walk(m, m - mode, top, odds, False, cutoff, 0, max_atoms)
    return Window(mode - len(down), down[::-1] + [top] + up, lost_up + lost_down)


def _rounding(x: mpmath.mpf) -> mpmath.mpf:
    # allowance for the rounding of the working precision on sums of up to 10^7 terms
    return abs(x) * MP(10) ** -(WPS - 10)


# -- fixed-point interval arithmetic -------------------------------------------------------------
# The clone curves sum up to 10^6 atoms per evaluation (n = 10^9); mpmath numbers cost microseconds
# per operation there. They are evaluated instead on integers: a probability x is held as a pair
# of integers (lo, hi) with lo <= x 2^S <= hi, every product or quotient rounded down in lo and up
# in hi (Python integers are exact), so the result is a rigorous enclosure; the only inputs from
# mpmath (a binomial probability at the mode, e^-eps0, e^eps, ...) are computed at
# fixed_dps(S) digits (at least WPS; their relative error is then below 2^-S) and widened by
# 10^-(dps - 5) relative before they are rounded outward onto the grid.


def fixed_dps(bits: int) -> int:
    """mpmath digits for the inputs of a fixed-point computation at scale 2^bits."""
    return max(WPS, int(bits * 0.30103) + 20)


def _fix(x: mpmath.mpf, bits: int) -> tuple[int, int]:
    """``(lo, hi)`` with ``lo <= x 2^bits <= hi`` for an mpmath value x >= 0 computed at the
    current working precision (which must be :func:`fixed_dps` of bits or more)."""
    widen = MP(10) ** -(mpmath.mp.dps - 5)
    lo = int(mpmath.floor(x * (1 - widen) * MP(2) ** bits))
    hi = int(mpmath.ceil(x * (1 + widen) * MP(2) ** bits))
    return max(lo, 0), hi


def _ceil_div(a: int, b: int) -> int:
    return -((-a) // b)


def _from_fixed_up(x: int, bits: int) -> mpmath.mpf:
    """The smallest WPS-precision mpf >= x / 2^bits."""
    return mpmath.mpf(mpmath.libmp.from_man_exp(x, -bits, mpmath.mp.prec, "c"))


@dataclass(frozen=True)
class FixedWindow:
    """Bin(m, p) on ``lo .. lo + len(hi) - 1`` as fixed-point enclosures at scale ``2^bits``
    (``lo_pmf[i] <= pmf 2^bits <= hi_pmf[i]``); ``lost`` bounds the mass outside from above."""

    lo: int
    lo_pmf: list[int]
    hi_pmf: list[int]
    bits: int
    lost: mpmath.mpf
    lost_fixed: int  # lost, rounded up at scale 2^bits


def _fixed_walk(m: int, j: int, top_lo: int, top_hi: int, ratio_lo: int, ratio_hi: int,
                bits: int, cut: int, max_atoms: int, held: int) -> tuple[list[int], list[int], int]:
    """:func:`_walk` in fixed-point interval arithmetic at scale ``2^bits``: the enclosures
    ``(lo, hi)`` of the terms after ``(top_lo, top_hi)`` and the bound on the rest, rounded up.

    ``ratio_lo <= r 2^bits <= ratio_hi`` encloses the odds ``p / (1 - p)`` upward and their
    inverse downward (``j = m - k``); the step from ``j`` to ``j + 1`` multiplies by
    ``(m - j) / (j + 1) r``, and every later ratio is at most ``(m - j - 1) / (j + 2) r``.
    """
    terms_lo: list[int] = []
    terms_hi: list[int] = []
    cl, ch = top_lo, top_hi
    while j < m:
        # ceil(x / (d 2^bits)) <= floor(x / 2^bits) // d + 1: a division by a small integer
        ch = ((ch * (m - j) * ratio_hi) >> bits) // (j + 1) + 1
        cl = ((cl * (m - j) * ratio_lo) >> bits) // (j + 1)
        num, den = (m - j - 1) * ratio_hi, (j + 2) << bits  # every later ratio is <= num/den
        if num < den:
            tail = _ceil_div(ch * den, den - num)
            if tail <= cut:
                return terms_lo, terms_hi, tail
        terms_lo.append(cl)
        terms_hi.append(ch)
        j += 1
        if held + len(terms_hi) > max_atoms:
            raise ValueError(f"Bin({m}, p) needs more than {max_atoms} atoms")
    return terms_lo, terms_hi, 0


def fixed_binom_window(m: int, p: mpmath.mpf, cutoff: mpmath.mpf, bits: int,
                       max_atoms: int = MAX_ATOMS) -> FixedWindow:
    """:func:`binom_window` in fixed-point interval arithmetic: Bin(m, p) from its mode outward
    by the exact term ratios, stopped once the geometric bound on the rest (the ratios decrease
    away from the mode) is below ``cutoff``; that bound, rounded up, is ``lost``."""
    one = 1 << bits
    if m == 0 or p == 0:
        return FixedWindow(0, [one], [one], bits, MP(0), 0)
    if p == 1:
        return FixedWindow(m, [one], [one], bits, MP(0), 0)
    with mpmath.workdps(fixed_dps(bits)):
        p = mpf(p)
        odds_lo, odds_hi = _fix(p / (1 - p), bits)
        inv_lo, inv_hi = _fix((1 - p) / p, bits)
        mode = min(max(int(mpmath.floor((m + 1) * p)), 0), m)
        top = mpmath.exp(mpmath.loggamma(m + 1) - mpmath.loggamma(mode + 1)
                         - mpmath.loggamma(m - mode + 1) + mode * mpmath.log(p)
                         + (m - mode) * mpmath.log1p(-p))
        top_lo, top_hi = _fix(top, bits)
        cut = int(mpmath.floor(cutoff * MP(2) ** bits))
    up_lo, up_hi, lost_up = _fixed_walk(m, mode, top_lo, top_hi, odds_lo, odds_hi, bits, cut,
                                        max_atoms, 1)
    down_lo, down_hi, lost_down = _fixed_walk(m, m - mode, top_lo, top_hi, inv_lo, inv_hi, bits,
                                              cut, max_atoms, 0)
    lost = lost_up + lost_down  # at scale 2^bits, rounded up
    with mpmath.workdps(WPS):
        lost_mp = _from_fixed_up(lost, bits)
    return FixedWindow(mode - len(down_hi), down_lo[::-1] + [top_lo] + up_lo,
                       down_hi[::-1] + [top_hi] + up_hi, bits, lost_mp, lost)


def fixed_bits(cutoff: mpmath.mpf, atoms: int) -> int:
    """Fixed-point bits for a computation at ``cutoff`` over about ``atoms`` atoms: 2^-bits is
    below the cut-off by a factor 2^64 times the number of atoms (the rounding of each step is
    one unit of 2^-bits)."""
    with mpmath.workdps(WPS):
        return int(-mpmath.log(cutoff, 2)) + 64 + max(atoms, 1).bit_length()


def _binomial_half_lower_cdf(c: int, a: int, pmf_lo: int, cut: int) -> int:
    """A lower bound on ``P[Bin(c, 1/2) <= a] 2^bits`` from a lower bound on its last term: the
    terms below a, summed down by the exact ratios j / (c - j + 1) while they exceed ``cut``."""
    total = term = pmf_lo
    j = a
    while j > 0 and term > cut:
        term = (term * j) // (c - j + 1)
        total += term
        j -= 1
    return total


# -- clone pairs ([FMT20], [FMT22]) ---------------------------------------------------------------
def clone_limits(eps0: Real, n: int, variant: str, delta: mpmath.mpf | None = None
                 ) -> tuple[mpmath.mpf, mpmath.mpf, int, int]:
    """``(clone probability pc, window cut-off, fixed-point bits, about how many atoms)`` of
    :class:`CloneCurve`, or a ValueError saying why the evaluation would be too large (checked
    before any work is done): at most :data:`MAX_ATOMS` atoms of ``Bin(n - 1, pc)`` and
    :data:`MAX_CDF_TERMS` terms of the one binomial CDF summed per evaluation. The cut-off is
    1e-25 of the target delta, which must lie in (0, 1) (the mass left out is added to delta in
    full, so the bound moves by at most 1e-25 relative), 1e-60 without a target."""
    n = positive_int(n, "n", 2)
    with mpmath.workdps(WPS):
        e0 = positive(eps0, "eps0")
        if variant == "fmt20":
            pc = mpmath.exp(-e0)
        elif variant == "fmt22":
            pc = 2 / (mpmath.exp(e0) + 1)
        else:
            raise ValueError(f"unknown clone variant {variant!r} (fmt20 or fmt22)")
        cutoff = (probability(delta, "delta") * MP(10) ** -25 if delta is not None
                  else cutoff_for(None))
        atoms = window_estimate(n - 1, pc, None, cutoff)
        if atoms > MAX_CLONE_ATOMS:
            raise ValueError(f"the {variant} bound at n = {n} needs about {atoms} atoms of the "
                             f"clone count's distribution, more than the {MAX_CLONE_ATOMS} "
                             "evaluated here (its spread grows like sqrt(n))")
        bits = fixed_bits(cutoff, 2 * atoms)
        # the CDF of Bin(c, 1/2) is summed until its terms fall below 2^-bits: about
        # sqrt(c)/2 sqrt(2 bits log 2) terms below the Gaussian range of the threshold
        top = (n - 1) * pc + 20 * mpmath.sqrt((n - 1) * pc * (1 - pc)) + 20
        terms = mpmath.sqrt(top) / 2 * (mpmath.sqrt(2 * bits * mpmath.log(2)) + 40)
        if terms > MAX_CDF_TERMS:
            raise ValueError(f"the {variant} bound at n = {n}: the clone count reaches about "
                             f"{mpmath.nstr(top, 3)}, whose binomial CDF needs more than "
                             f"{MAX_CDF_TERMS} terms")
        return pc, cutoff, bits, atoms


class CloneCurve:
    """delta(eps) upper bounds of the clone pair of :func:`shuffle.clone_delta`.

    ``C ~ Bin(n - 1, pc)`` is tabulated on a :class:`FixedWindow` (the mass left out is added to
    delta in full). Given ``C = c`` the hockey-stick divergence is a sum over ``a <= m_c``, the
    largest integer below ``share (c + 1)`` (the likelihood ratio is decreasing in a); with
    ``al + bl = 1`` it is ``(e^eps al - bl) B_c(m_c) - (e^eps - 1) F_c(m_c)``, B and F the PMF and
    CDF of Bin(c, 1/2). So ``delta = K1 sum_c w_c B_c(m_c) - K2 sum_c w_c F_c(m_c)``, and both
    sums are carried from one c to the next by exact recurrences (adding a fair coin:
    ``F_{c+1}(a) = F_c(a) - B_c(a)/2``, ``B_{c+1}(a) = B_c(a) (c + 1) / (2 (c + 1 - a))``, and
    ``m`` grows by at most one), in fixed-point interval arithmetic: an upper bound on the first
    sum, a lower bound on the second. Where the interval of ``share`` leaves ``m_c`` undecided (an
    integer within 10^-45 relative of ``share (c + 1)``) the whole weight ``w_c`` is added.
    The initial CDF is summed down from its last term; that sum costs about ``13 sqrt(c)`` steps,
    which :data:`MAX_CDF_TERMS` bounds.
    """

    def __init__(self, eps0: Real, n: int, variant: str, delta: mpmath.mpf | None = None) -> None:
        n = positive_int(n, "n", 2)
        _, self.cutoff, self.bits, _ = clone_limits(eps0, n, variant, delta)
        # every input of the fixed-point sums at the precision of its grid (fixed_dps), eps0
        # included (a decimal string is read exactly to that precision)
        with mpmath.workdps(fixed_dps(self.bits)):
            self.e0 = positive(eps0, "eps0")
            pc = mpmath.exp(-self.e0) if variant == "fmt20" else 2 / (mpmath.exp(self.e0) + 1)
            self.window = fixed_binom_window(n - 1, pc, self.cutoff, self.bits)
            self.alpha = 1 / (1 + mpmath.exp(-self.e0))
            self.beta = 1 / (1 + mpmath.exp(self.e0))  # 1 - alpha, without cancellation

    def delta(self, eps: mpmath.mpf) -> mpmath.mpf:
        """An upper bound on delta(eps) (both directions are equal)."""
        with mpmath.workdps(fixed_dps(self.window.bits)):
            e = mpf(eps)
            w = self.window
            if e >= self.e0:
                return MP(0)  # the local guarantee: eps0-DP with delta 0
            al, bl = self.alpha, self.beta
            ee = mpmath.exp(e)
            num = al - ee * bl
            if num <= 0:
                return min(w.lost, MP(1))
            thr = num / (ee * al - bl)
            share = thr / (1 + thr)
            bits = w.bits
            tb = bits + 64
            if e == 0:  # share = 1/2 exactly: ties are exact, and their terms are zero
                sh_lo = sh_hi = 1 << (tb - 1)
            else:  # share is irrational: an undecided m_c needs share (c + 1) within 1e-40
                sh_lo, sh_hi = _fix(share, tb)
            k1_hi = _fix(ee * al - bl, bits)[1]
            k2_lo = _fix(ee - 1, bits)[0] if e > 0 else 0
            c = w.lo
            x_lo, x_hi = sh_lo * (c + 1), sh_hi * (c + 1)
            # the largest integer below share (c + 1) > 0 (so at least 0), from below
            a = max((x_lo - 1) >> tb, 0)
            undecided = 0 if ((x_hi - 1) >> tb) == a else w.hi_pmf[0]
            b = mpmath.exp(mpmath.loggamma(c + 1) - mpmath.loggamma(a + 1)
                           - mpmath.loggamma(c - a + 1) - c * mpmath.log(2))
            b_lo, b_hi = _fix(b, bits)
            f_lo = _binomial_half_lower_cdf(c, a, b_lo, 0)
            sum_b = sum_f = 0
            hi_pmf, lo_pmf = w.hi_pmf, w.lo_pmf
            last = len(hi_pmf) - 1
            for i in range(last + 1):
                sum_b += hi_pmf[i] * b_hi
                sum_f += lo_pmf[i] * f_lo
                if i == last:
                    break
                # add a fair coin: from Bin(c, 1/2) to Bin(c + 1, 1/2) at the same a
                f_lo -= (b_hi + 1) >> 1
                c += 1
                den = 2 * (c - a)
                b_hi = -((-b_hi * c) // den)
                b_lo = (b_lo * c) // den
                x_lo += sh_lo
                x_hi += sh_hi
                nxt = (a + 1) << tb
                if x_lo > nxt:  # m_c = a + 1 (m grows by at most one: share < 1/2)
                    b_hi = -((-b_hi * (c - a)) // (a + 1))
                    b_lo = (b_lo * (c - a)) // (a + 1)
                    a += 1
                    f_lo += b_lo
                elif x_hi > nxt:
                    undecided += hi_pmf[i + 1]
            total = (k1_hi * sum_b - k2_lo * sum_f + (undecided << (2 * bits))
                     + (w.lost_fixed << (2 * bits)))
            with mpmath.workdps(WPS):
                return min(_from_fixed_up(total, 3 * bits), MP(1))


def certified_epsilon(delta_of: Callable[[mpmath.mpf], mpmath.mpf], delta: Real,
                      estimate: float | mpmath.mpf, cap: mpmath.mpf, digits: int = DIGITS) -> str:
    """The smallest ``digits``-significant-digit decimal eps with ``delta_of(eps) <= delta``
    (``delta_of`` non-increasing), at most ``cap`` rounded up (the local guarantee)."""
    with mpmath.workdps(WPS):
        d = probability(delta, "delta")
        cap_s = round_up(cap, digits)
        if delta_of(MP(0)) <= d:
            return "0"
        est = mpf(estimate) if estimate is not None and math.isfinite(float(estimate)) else cap
        est = min(max(est, MP(10) ** -30), mpf(cap_s))

        def ok(x: mpmath.mpf) -> bool:
            return bool(x >= mpf(cap_s) or delta_of(x) <= d)

        return smallest_on_grid(ok, est, digits)


def clone_epsilon(eps0: Real, n: int, delta: Real, variant: str = "fmt22",
                  estimate: float | None = None, digits: int = DIGITS) -> str:
    """Published eps of the clone bound: :func:`certified_epsilon` of :class:`CloneCurve`."""
    with mpmath.workdps(WPS):
        d = probability(delta, "delta")
        curve = CloneCurve(eps0, n, variant, d)
        return certified_epsilon(curve.delta, d, estimate if estimate is not None else curve.e0,
                                 curve.e0, digits)


# -- summed binary randomized response -------------------------------------------------------------
def _convolve(a: Window, b: Window) -> Window:
    out = [MP(0)] * (len(a.pmf) + len(b.pmf) - 1)
    for i, x in enumerate(a.pmf):
        for j, y in enumerate(b.pmf):
            out[i + j] += x * y
    return Window(a.lo + b.lo, out, a.lost + b.lost)


def _others(eps0: mpmath.mpf, n: int, ones: int, cutoff: mpmath.mpf) -> tuple[mpmath.mpf, Window]:
    p = 1 / (mpmath.exp(eps0) + 1)
    zeros = binom_window(n - 1 - ones, p, cutoff)
    if ones == 0:
        return p, zeros
    return p, _convolve(zeros, binom_window(ones, 1 - p, cutoff))


def _shift(w: Window, p0: mpmath.mpf, p1: mpmath.mpf) -> list[mpmath.mpf]:
    """PMF (on w.lo .. w.lo + len) of others + the target's report, which is 0 with probability
    ``p0`` and 1 with probability ``p1 = 1 - p0``: ``x[k] p0 + x[k - 1] p1``. Both are passed,
    because ``1 - (1 - p)`` is 0 at working precision once p < 10^-WPS (eps0 above about 115),
    which dropped the atom that carries the privacy loss."""
    x = w.pmf
    return [(x[k] if k < len(x) else MP(0)) * p0 + (x[k - 1] if k > 0 else MP(0)) * p1
            for k in range(len(x) + 1)]


def _positive_atoms(p: list[mpmath.mpf], q: list[mpmath.mpf]) -> None:
    """Refuse a pair with an atom that has no mass on one side (an infinite privacy loss, which
    the suffix sums and Renyi sums below would silently leave out). Every atom of the summed-RR
    pair is positive for eps0 > 0; this guards the bounds against a regression of that."""
    if any(x <= 0 or y <= 0 for x, y in zip(p, q, strict=True)):
        raise ArithmeticError("an atom of the summed-RR pair has no mass on one side")


def rr_pairs(eps0: Real, n: int, neighbours: str, ones: int, cutoff: mpmath.mpf
             ) -> tuple[list[tuple[list[mpmath.mpf], list[mpmath.mpf]]], mpmath.mpf]:
    """The aligned neighbouring pairs of :func:`shuffle.rr_sum_pairs` on a window, and the mass
    bound outside it."""
    n = positive_int(n, "n", 1)
    ones = positive_int(ones, "ones", 0)
    if ones > n - 1:
        raise ValueError("ones must be <= n - 1")
    e0 = positive(eps0, "eps0")
    p, others = _others(e0, n, ones, cutoff)
    with_one = _shift(others, p, 1 - p)  # target reports 1 with probability 1 - p
    with_zero = _shift(others, 1 - p, p)
    if neighbours == "replacement":
        return [(with_one, with_zero)], others.lost
    if neighbours == "deletion":
        absent = [*others.pmf, MP(0)]
        return [(with_zero, absent), (with_one, absent)], others.lost
    raise ValueError("neighbours must be 'replacement' or 'deletion'")


def _hs(p: Sequence[mpmath.mpf], q: Sequence[mpmath.mpf], ee: mpmath.mpf) -> mpmath.mpf:
    return mpmath.fsum(x - ee * y for x, y in zip(p, q, strict=True) if x > ee * y)


def rr_sum_delta(eps: Real, eps0: Real, n: int, neighbours: str = "replacement", ones: int = 0,
                 delta: mpmath.mpf | None = None) -> mpmath.mpf:
    """Upper bound on the exact delta(eps) of :func:`shuffle.rr_sum_delta`."""
    with mpmath.workdps(WPS):
        pairs, lost = rr_pairs(eps0, n, neighbours, ones, cutoff_for(delta))
        return _rr_delta_on(pairs, lost, mpf(eps, "eps"))


def _rr_delta_on(pairs: list[tuple[list[mpmath.mpf], list[mpmath.mpf]]], lost: mpmath.mpf,
                 eps: mpmath.mpf) -> mpmath.mpf:
    with mpmath.workdps(WPS):
        ee = mpmath.exp(eps)
        d = max(max(_hs(a, b, ee), _hs(b, a, ee)) for a, b in pairs)
        return min(d + _rounding(d) + lost, MP(1))


def rr_sum_epsilon(eps0: Real, n: int, delta: Real, neighbours: str = "replacement",
                   ones: int = 0, estimate: float | None = None, digits: int = DIGITS) -> str:
    """Published eps of the exact summed-RR curve (:func:`shuffle.rr_sum_epsilon`)."""
    with mpmath.workdps(WPS):
        d = probability(delta, "delta")
        e0 = positive(eps0, "eps0")
        pairs, lost = rr_pairs(e0, n, neighbours, ones, cutoff_for(d))
        cap = e0 if neighbours == "replacement" else 4 * e0 + 50
        if neighbours != "replacement" and _rr_delta_on(pairs, lost, cap) > d:
            return "inf"
        return certified_epsilon(lambda x: _rr_delta_on(pairs, lost, x), d,
                                 estimate if estimate is not None else cap, cap, digits)


def rr_sum_worst_delta(eps: Real, eps0: Real, n: int, neighbours: str = "replacement",
                       digits: int = DIGITS) -> tuple[str, int]:
    """``(max over compositions of delta(eps) rounded up, the smallest maximising ones)``.

    Ties are decided on the published (rounded-up) values, so bit-flip symmetric compositions
    (ones and n - 1 - ones) cannot swap places between machines."""
    n = positive_int(n, "n", 1)
    best: tuple[mpmath.mpf, str, int] | None = None
    for ones in range(n):
        s = round_up(rr_sum_delta(eps, eps0, n, neighbours, ones), digits)
        v = mpf(s)
        if best is None or v > best[0]:
            best = (v, s, ones)
    assert best is not None
    return best[1], best[2]


# -- symmetric-RAPPOR histogram -------------------------------------------------------------------
def rappor_histogram_delta(eps: Real, eps0: Real, n: int, delta: mpmath.mpf | None = None
                           ) -> mpmath.mpf:
    """Upper bound on :func:`shuffle.rappor_histogram_delta` (the product pair, ones = 0)."""
    with mpmath.workdps(WPS):
        table = _RapporTable(eps0, n, delta)
        return table.delta(mpf(eps, "eps"))


class _RapporTable:
    """The pair (P x Q, Q x P) of one-hot symmetric RAPPOR, prepared for suffix sums."""

    def __init__(self, eps0: Real, n: int, delta: mpmath.mpf | None) -> None:
        with mpmath.workdps(WPS):
            [(p, q)], lost = rr_pairs(eps0, positive_int(n, "n", 2), "replacement", 0,
                                      cutoff_for(delta))
            _positive_atoms(p, q)
            keep = list(zip(p, q, strict=True))
            self.p = [x for x, _ in keep]
            self.q = [y for _, y in keep]
            self.lost = lost
            # second coordinate (Q, P): its loss log(q/p), sorted increasingly, with suffix sums
            items = sorted(((mpmath.log(y) - mpmath.log(x), y, x) for x, y in keep),
                           key=lambda t: t[0])
            self.loss2 = [t[0] for t in items]
            self.sp = [MP(0)] * (len(items) + 1)  # suffix sums of the second P (= q)
            self.sq = [MP(0)] * (len(items) + 1)
            for i in range(len(items) - 1, -1, -1):
                self.sp[i] = self.sp[i + 1] + items[i][1]
                self.sq[i] = self.sq[i + 1] + items[i][2]
            self.loss1 = [mpmath.log(x) - mpmath.log(y) for x, y in keep]

    def delta(self, eps: mpmath.mpf) -> mpmath.mpf:
        with mpmath.workdps(WPS):
            ee = mpmath.exp(eps)
            total = MP(0)
            for l1, p1, q1 in zip(self.loss1, self.p, self.q, strict=True):
                t = bisect.bisect_right(self.loss2, eps - l1)
                term = p1 * self.sp[t] - ee * q1 * self.sq[t]
                if term > 0:
                    total += term
            # the product mass outside the window is at most the two marginal masses outside
            return min(total + _rounding(total) + 2 * self.lost, MP(1))


def rappor_histogram_epsilon(eps0: Real, n: int, delta: Real, estimate: float | None = None,
                             digits: int = DIGITS) -> str:
    """Published eps of :func:`shuffle.rappor_histogram_epsilon`."""
    with mpmath.workdps(WPS):
        d = probability(delta, "delta")
        e0 = positive(eps0, "eps0")
        table = _RapporTable(e0, n, d)
        return certified_epsilon(table.delta, d, estimate if estimate is not None else 2 * e0,
                                 2 * e0, digits)


class _RapporRenyi:
    """The Renyi route's window of the histogram pair (see :func:`rappor_histogram_rdp_epsilon`)
    and its divergences at one order."""

    def __init__(self, eps0: Real, n: int, delta: Real) -> None:
        with mpmath.workdps(WPS):
            self.delta = probability(delta, "delta")
            self.eps0 = positive(eps0, "eps0")
            cut = cutoff_for(self.delta) * mpmath.exp(-(RDP_MAX_ORDER - 1) * self.eps0)
            [(p, q)], self.lost = rr_pairs(self.eps0, positive_int(n, "n", 2), "replacement", 0,
                                           cut)
            _positive_atoms(p, q)
            self.logs = [(mpmath.log(x), mpmath.log(y)) for x, y in zip(p, q, strict=True)]
            self.ld = mpmath.log(1 / self.delta)

    def divergences(self, a: mpmath.mpf) -> tuple[mpmath.mpf, mpmath.mpf, mpmath.mpf]:
        """``(forward, backward, tail)`` at order ``a``, at 30 digits: the bounds on D_a(P||Q) and
        D_a(Q||P), each the log of its window sum plus ``tail`` over ``a - 1``."""
        with mpmath.workdps(30):
            tail = mpmath.exp((a - 1) * self.eps0) * self.lost
            fwd = mpmath.fsum(mpmath.exp(a * lp + (1 - a) * lq) for lp, lq in self.logs) + tail
            bwd = mpmath.fsum(mpmath.exp(a * lq + (1 - a) * lp) for lp, lq in self.logs) + tail
            return mpmath.log(fwd) / (a - 1), mpmath.log(bwd) / (a - 1), tail

    def converted(self, a: mpmath.mpf) -> mpmath.mpf:
        """eps at order ``a``: ``2 rho`` (rho the larger direction, at least 0) converted by SA2
        Theorem 1."""
        with mpmath.workdps(30):
            fwd, bwd, _ = self.divergences(a)
            return 2 * max(fwd, bwd, MP(0)) + (self.ld + (a - 1) * mpmath.log1p(-1 / a)
                                               - mpmath.log(a)) / (a - 1)


def rappor_histogram_renyi(eps0: Real, n: int, delta: Real, alpha: Real
                           ) -> tuple[mpmath.mpf, mpmath.mpf, mpmath.mpf]:
    """``(forward, backward, tail)``: the Renyi route's bounds at order ``alpha`` (in (1,
    :data:`RDP_MAX_ORDER`]) on D_alpha(P||Q) and D_alpha(Q||P) of the histogram pair, and the
    term ``e^((alpha - 1) eps0)`` times the mass left out of the window that each includes (see
    :func:`rappor_histogram_rdp_epsilon`, which takes the larger direction)."""
    table = _RapporRenyi(eps0, n, delta)
    with mpmath.workdps(WPS):
        a = mpf(alpha, "alpha")
        if not 1 < a <= RDP_MAX_ORDER:
            raise ValueError(f"alpha must be in (1, {RDP_MAX_ORDER}]")
    return table.divergences(a)


def rappor_histogram_rdp_epsilon(eps0: Real, n: int, delta: Real, digits: int = DIGITS
                                 ) -> tuple[str, str]:
    """``(eps rounded up, alpha)`` of the Renyi route (:func:`shuffle.rappor_histogram_rdp_epsilon`,
    ``worst_case=False``), in mpmath.

    The Renyi divergence is summed over the window; outside it the likelihood ratio of one
    coordinate lies in [e^-eps0, e^eps0], so the left-out part of ``sum P^a Q^(1-a)`` is at most
    ``e^((a - 1) eps0)`` times the mass left out, which is added (the window is cut at
    ``e^(-(RDP_MAX_ORDER - 1) eps0)`` times the usual cut-off, so that term stays negligible). The
    order is minimised over the ``DEFAULT_ORDERS`` up to :data:`RDP_MAX_ORDER` and refined by 40
    golden-section steps in mpmath at 30 digits (any order gives a valid bound); ``alpha`` is
    returned with 6 digits.
    """
    table = _RapporRenyi(eps0, n, delta)
    conv = table.converted
    with mpmath.workdps(WPS):
        orders = [mpf(o) for o in DEFAULT_ORDERS if mpf(o) <= RDP_MAX_ORDER]
        vals = [conv(a) for a in orders]
        i = min(range(len(vals)), key=lambda j: vals[j])
        best_a, best = orders[i], vals[i]
        lo, hi = orders[max(i - 1, 0)], orders[min(i + 1, len(orders) - 1)]
        s = golden_section(conv, lo, hi, phi=(mpmath.sqrt(5) - 1) / 2, iterations=40)
        for a, v in ((s.x1, s.f1), (s.x2, s.f2)):
            if v < best:
                best, best_a = v, a
        eps = min(max(best, MP(0)), 2 * table.eps0)
        return round_up(eps, digits), mpmath.nstr(best_a, 6)


def closed_form_value(eps0: Real, n: int, delta: Real, digits: int = DIGITS) -> str:
    """MJTB+22 eq. (1) at 50 digits, rounded up (see :func:`shuffle.closed_form_value`)."""
    with mpmath.workdps(WPS):
        e0 = positive(eps0, "eps0")
        n = positive_int(n, "n", 2)
        d = probability(delta, "delta")
        term = (4 * mpmath.sqrt(2 * mpmath.log(4 / d)) / mpmath.sqrt((mpmath.exp(e0) + 1) * n)
                + MP(4) / n)
        return round_up(mpmath.log1p(mpmath.expm1(e0) * term), digits)


__all__ = [
    "CloneCurve",
    "binom_window",
    "certified_epsilon",
    "clone_epsilon",
    "closed_form_value",
    "rappor_histogram_delta",
    "rappor_histogram_epsilon",
    "rappor_histogram_rdp_epsilon",
    "rappor_histogram_renyi",
    "rr_sum_delta",
    "rr_sum_epsilon",
    "rr_sum_worst_delta",
]


#: largest window (atoms) for which :func:`publish` evaluates in mpmath (about a second each)
PUBLISH_MAX_ATOMS = 40_000


def window_estimate(m: int, p: mpmath.mpf, delta: mpmath.mpf | None,
                    cutoff: mpmath.mpf | None = None) -> int:
    """About how many atoms :func:`binom_window` keeps for Bin(m, p) at the cut-off of delta
    (or at ``cutoff``)."""
    with mpmath.workdps(WPS):
        sd = mpmath.sqrt(m * p * (1 - p))
        cut = cutoff if cutoff is not None else cutoff_for(delta)
        width = mpmath.sqrt(2 * mpmath.log(1 / cut)) + 2
        return int(min(2 * width * sd + 2 * width + 10, MP(m + 1)))


def binary64_slack(eps0: Real, n: int, delta: Real, bound: str) -> mpmath.mpf | None:
    """None when :func:`publish` certifies this bound; otherwise the amount by which the binary64
    search must lower delta to cover its rounding: 1e-15 per tabulated atom (every atom adds a
    term of magnitude at most 1 with a relative error of a few units of 1e-16)."""
    try:
        n = positive_int(n, "n", 2)
        with mpmath.workdps(WPS):
            d = probability(delta, "delta")
            e0 = positive(eps0, "eps0")
    except (ValueError, TypeError):
        return None  # the caller reports the bad parameter
    if bound == "closed":
        return None
    with mpmath.workdps(WPS):
        if bound in ("fmt20", "fmt22"):
            return None  # always certified (CloneCurve), or refused by clone_limits
        atoms = window_estimate(n - 1, 1 / (mpmath.exp(e0) + 1), d)
        if bound == "exact-rr":
            atoms = max(atoms, n)  # the binary64 curve tabulates all n + 1 atoms
        if atoms <= PUBLISH_MAX_ATOMS and bound == "exact-rr":
            return None
        return atoms * MP(10) ** -15


def publish(eps0: Real, n: int, delta: Real, bound: str, estimate: float | None,
            neighbours: str = "replacement", ones: int = 0, digits: int = DIGITS
            ) -> tuple[str, str] | None:
    """``(eps, precision note)`` for the CLI: the certified value of the bound (fmt20, fmt22: up
    to the limits of :func:`clone_limits`; exact-rr, one composition: when its window is at most
    :data:`PUBLISH_MAX_ATOMS` atoms, else None, and the caller then rounds the binary64 value up
    and says so)."""
    n = positive_int(n, "n", 2)
    with mpmath.workdps(WPS):
        d = probability(delta, "delta")
        e0 = positive(eps0, "eps0")
        if bound in ("fmt20", "fmt22"):
            value = clone_epsilon(eps0, n, d, bound, estimate, digits)  # eps0 as given
        elif bound == "exact-rr":
            p = 1 / (mpmath.exp(e0) + 1)
            if (window_estimate(n - 1, p, d) > PUBLISH_MAX_ATOMS
                    or (ones and window_estimate(ones, p, d) > 2000)):
                return None
            value = rr_sum_epsilon(e0, n, d, neighbours, ones, estimate, digits)
        else:
            raise ValueError(f"no certified evaluation for bound {bound!r}")
    return value, (f"mpmath {WPS} digits, rigorous tail bounds; the smallest {digits}-digit "
                   "decimal meeting delta")
