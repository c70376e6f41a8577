"""Exact arithmetic for the mechanisms: rational parameters, rigorous enclosures, exact inversion.

Symmetric RAPPOR flips a coordinate with probability ``p0 = 1/(e^EPSILON_0 + 1)`` (sec. 4.3 of the
DP draft). For a rational ``EPSILON_0 > 0`` this is a transcendental number (Lindemann), so neither
a float comparison nor a rational Bernoulli can realise it. This module supplies the two exact
tools the mechanisms and policies need:

* :func:`exp_neg_enclosure` -- rigorous rational bounds ``lo <= e^-x <= hi`` for rational ``x >= 0``
  (those of :func:`dpspec.spec.samplers.lazy.exp_neg_bounds`: alternating Taylor series and exact
  integer arithmetic). No floating point, no library elementary functions: the bounds are proofs.
* :class:`GeometricSkip` -- the exact sampler of ``Geometric(p0)`` (failures before the first
  success of independent ``Bernoulli(p0)`` trials) by inversion with a lazily read uniform. This
  is what makes the efficient form of symmetric RAPPOR cost ``O(expected number of flips)``.
* :func:`binomial_cdf_interval` -- a rigorous interval for ``Pr[Bin(n, p) <= j]`` when ``p`` is only
  known to lie in an interval, with interval arithmetic (``mpmath.iv``, outward rounding).
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import mpmath

from dpspec.spec.accounting.numeric import smallest_int
from dpspec.spec.rational import format_rational, parse_rational
from dpspec.spec.samplers.lazy import exp_neg_bounds
from dpspec.spec.tape import RandomTape


def exact_rational(value: object, name: str) -> Fraction:
    """An exact rational parameter (:func:`dpspec.spec.rational.parse_rational`: int, Fraction or a string
    such as ``"0.5"``, ``"1/3"``, ``"1e-9"``; floats are refused because they are inexact)."""
    return parse_rational(value, name)


def rational_text(x: Fraction) -> str:
    """The canonical text of an exact rational in vectors: ``"3"``, ``"-1/4"`` (lowest terms)."""
    return format_rational(x)


# -- rigorous enclosures ----------------------------------------------------------------------
def exp_neg_enclosure(x: Fraction, prec: int = 128) -> tuple[Fraction, Fraction]:
    """Dyadic rationals ``lo <= e^-x <= hi`` for rational ``x >= 0``; ``hi - lo`` is a few units of
    ``2^-(prec + ceil(2x))``, so below ``2^-prec`` relative to ``e^-x >= 2^(-1.45 x)`` (``e^-x`` is
    irrational for rational ``x != 0``).

    The bounds are those of :func:`dpspec.spec.samplers.lazy.exp_neg_bounds` (the samplers' rigorous
    enclosure: alternating Taylor series of ``e^-z``, ``z = x / 2^s <= 1/2``, squared ``s`` times
    with outward rounding) at ``prec + ceil(2x)`` bits.
    """
    if x < 0:
        raise ValueError("exp_neg_enclosure needs x >= 0")
    if x == 0:
        return Fraction(1), Fraction(1)
    bits = prec + math.ceil(x * 2)
    lo, hi = exp_neg_bounds(x, bits)
    return Fraction(lo, 1 << bits), Fraction(hi, 1 << bits)


def rr_flip_enclosure(eps: Fraction, prec: int = 128) -> tuple[Fraction, Fraction]:
    """Rational bounds on ``p0 = 1/(e^eps + 1) = e^-eps / (1 + e^-eps)`` (increasing in ``e^-eps``)."""
    lo, hi = exp_neg_enclosure(eps, prec)
    return lo / (1 + lo), hi / (1 + hi)


def exp_enclosure(x: Fraction, prec: int = 128) -> tuple[Fraction, Fraction]:
    """Rational bounds on ``e^x`` for rational ``x >= 0`` (the reciprocals of :func:`exp_neg_enclosure`)."""
    lo, hi = exp_neg_enclosure(x, prec)
    return 1 / hi, 1 / lo


def exp_mpf(x: Fraction, dps: int = 50) -> Any:
    """``e^x`` as an mpmath number at ``dps`` digits (for debiasing and utility formulas only)."""
    with mpmath.workdps(dps):
        return mpmath.exp(mpmath.mpf(x.numerator) / x.denominator)


# -- exact inversion: Geometric(1/(1 + e^eps)) ---------------------------------------------------
CHUNK_BITS = 64


class GeometricSkip:
    """Exact ``Geometric(p0)``, ``p0 = 1/(e^eps + 1)``: the number of failures before the first success.

    Normative definition (version 1). Let ``q = 1 - p0 = 1/(1 + e^-eps)`` and ``T_k = q^k``. The
    sample is the unique ``k >= 0`` with ``T_{k+1} < U <= T_k``, where ``U`` in ``[0, 1)`` is the
    real number whose binary expansion is read from the tape in 64-bit chunks:
    ``U = sum_{j>=1} c_j 2^(-64 j)`` with ``c_j = tape.bits(64)`` (so the first chunk holds the
    most significant bits of ``U``). Chunks are read one at a time, and reading stops as soon as
    the interval ``[u_j, u_j + 2^(-64 j))`` of values ``U`` can still take, where
    ``u_j = sum_{i<=j} c_i 2^(-64 i)``, lies inside one bucket ``(T_{k+1}, T_k]``; ``k`` is the
    output. Because ``T_k`` is irrational for ``k >= 1`` and ``eps`` rational ``> 0``, no chunk
    boundary coincides with a bucket boundary, so the rule decides after finitely many chunks
    with probability 1. A second chunk is needed only if ``U < 2^-64`` or the first interval
    holds some ``T_k >= 2^-64``; there are at most ``1 + 64 ln 2 / -ln q < 45 (1 + e^eps)`` such
    ``k``, so this happens with probability below ``45 (1 + e^eps) 2^-64`` (``2^-47`` at
    ``eps = 8``).

    This is the inverse-CDF method, ``k = floor(ln U / ln q)``, carried out exactly. The buckets are
    located with rigorous integer enclosures of ``T_k`` at ``work`` bits (doubled whenever they
    are too coarse to decide), never with floating point. The enclosure table is extended lazily.
    """

    def __init__(self, eps: Fraction, work: int = 128) -> None:
        if eps <= 0:
            raise ValueError("GeometricSkip needs eps > 0")
        self.eps = eps
        self._set_precision(work)

    def _set_precision(self, work: int) -> None:
        self.work = work
        p_lo, p_hi = rr_flip_enclosure(self.eps, work + 16)
        scale = 1 << work
        # q = 1 - p0 in [1 - p_hi, 1 - p_lo], scaled to integers and rounded outward.
        self._q_lo = math.floor((1 - p_hi) * scale)
        self._q_hi = math.ceil((1 - p_lo) * scale)
        # Enclosures of T_k * 2^work: lo_k <= T_k 2^work <= hi_k; stored negated so that bisect
        # (ascending order) works on the decreasing sequence.
        self._neg_lo: list[int] = [-scale]
        self._neg_hi: list[int] = [-scale]

    _TABLE_MAX = 1 << 16

    def _bounds(self, k: int) -> tuple[int, int]:
        """Integers ``lo <= T_k 2^work <= hi``: from the table for small ``k``, else by powers."""
        if k < len(self._neg_lo):
            return -self._neg_lo[k], -self._neg_hi[k]
        w = self.work
        lo, hi = 1 << w, 1 << w
        base_lo, base_hi, e = self._q_lo, self._q_hi, k
        while e:
            if e & 1:
                lo = (lo * base_lo) >> w
                hi = -((-hi * base_hi) >> w)
            e >>= 1
            if e:
                base_lo = (base_lo * base_lo) >> w
                base_hi = -((-base_hi * base_hi) >> w)
        return lo, hi

    def _first_below(self, a: int) -> int:
        """The least ``i`` with ``hi_i < a`` (``T_i`` certainly below ``a 2^-work``)."""
        neg_lo, neg_hi = self._neg_lo, self._neg_hi
        w, q_lo, q_hi = self.work, self._q_lo, self._q_hi
        while -neg_hi[-1] >= a and len(neg_hi) < self._TABLE_MAX:
            neg_lo.append(-((-neg_lo[-1] * q_lo) >> w))
            neg_hi.append((neg_hi[-1] * q_hi) >> w)
        if -neg_hi[-1] < a:
            return bisect.bisect_right(neg_hi, -a)
        # Beyond the table (its last entry is not below a): exponential then binary search with
        # enclosures by powers.
        return smallest_int(lambda i: self._bounds(i)[1] < a, len(neg_hi) - 1,
                            first=2 * len(neg_hi), lo_fails=True)

    def sample(self, tape: RandomTape) -> int:
        """One sample; reads 64-bit chunks from ``tape`` as the class docstring specifies."""
        u = tape.bits(CHUNK_BITS)
        ubits = CHUNK_BITS
        while True:
            decided = self._locate(u, ubits)
            if decided is not None:
                return decided
            u = (u << CHUNK_BITS) | tape.bits(CHUNK_BITS)
            ubits += CHUNK_BITS

    def _locate(self, u: int, ubits: int) -> int | None:
        """Bucket of the interval ``[u, u + 1) 2^-ubits``, or None if more chunks are needed."""
        if u == 0:
            return None  # [0, 2^-ubits) contains T_k for every large k
        while True:
            verdict = self._try_locate(u, ubits)
            if verdict is not _AMBIGUOUS:
                return verdict  # type: ignore[return-value]
            self._set_precision(self.work * 2)

    def _try_locate(self, u: int, ubits: int) -> object:
        w = self.work
        if w < ubits + 16:
            return _AMBIGUOUS
        a = u << (w - ubits)  # the interval of U is [a, b) in units of 2^-work
        b = (u + 1) << (w - ubits)
        k = self._first_below(a) - 1  # T_{k+1} < a certainly; hi_k >= a
        lo_k, hi_k = self._bounds(k)
        if k == 0 or b <= lo_k:
            return k  # T_{k+1} < U < b <= T_k  (T_0 = 1 >= b always)
        if lo_k > a and hi_k < b:
            return None  # T_k lies strictly inside the interval: read more bits
        return _AMBIGUOUS  # the enclosure is too wide to tell: raise the precision


_AMBIGUOUS = object()


def geometric_skip_positions(skip: GeometricSkip, dimension: int, tape: RandomTape) -> list[int]:
    """Positions in ``[0, dimension)`` of independent ``Bernoulli(p0)`` successes, in increasing order.

    ``pos = -1``; repeat: ``pos += 1 + skip.sample(tape)``; stop once ``pos >= dimension``, else
    record ``pos``. Exactly one more gap is drawn than positions are returned. The gaps between
    successes of i.i.d. Bernoulli(p0) trials are i.i.d. Geometric(p0), so the returned set has the
    distribution of the set of successes of ``dimension`` independent trials.
    """
    out: list[int] = []
    pos = -1
    sample: Callable[[RandomTape], int] = skip.sample
    while True:
        pos += 1 + sample(tape)
        if pos >= dimension:
            return out
        out.append(pos)


# -- rigorous binomial CDF --------------------------------------------------------------------
def _iv_rational(x: Fraction) -> Any:
    return mpmath.iv.mpf(x.numerator) / x.denominator


def binomial_cdf_interval(n: int, j: int, p_lo: Fraction, p_hi: Fraction,
                          prec: int = 128) -> tuple[Fraction, Fraction]:
    """Rationals ``lo <= Pr[Bin(n, p) <= j] <= hi`` for every ``p`` in ``[p_lo, p_hi]`` (``0 < p < 1``).

    The CDF is decreasing in ``p``: ``lo`` is computed at ``p_hi`` and ``hi`` at ``p_lo``. Each is a sum
    of terms ``t_i = C(n,i) p^i (1-p)^(n-i)`` started at ``i = j`` (or ``j + 1``) and run away from the
    mode on the cheaper side: the lower tail ``i <= j`` when ``j`` is below the mean ``n p``, else
    ``1 -`` the upper tail ``i > j``. The first term is enclosed with interval arithmetic
    (``mpmath.iv`` at ``prec`` bits, ``ln C(n,i)`` from exact factorials or Stirling's series with a
    rigorous remainder); the next ones follow exactly by the ratio ``t_{i-1}/t_i = i(1-p)/((n-i+1)p)``
    (or ``t_{i+1}/t_i = (n-i)p/((i+1)(1-p))``) in integer fixed point at ``prec + 32`` bits, every
    rounding in the direction of the bound being computed. Summation stops when the ratio is at
    most 1/2 and the next term is below ``2^-prec``; an upper bound then adds twice that term,
    which bounds the whole remaining tail (a geometric series: the ratios only shrink away from
    the mode).
    """
    if not 0 < p_lo <= p_hi < 1:
        raise ValueError("need 0 < p_lo <= p_hi < 1")
    if j < 0:
        return Fraction(0), Fraction(0)
    if j >= n:
        return Fraction(1), Fraction(1)
    saved = mpmath.iv.prec
    mpmath.iv.prec = prec
    try:
        return _cdf_at(n, j, p_hi, prec, False), _cdf_at(n, j, p_lo, prec, True)
    finally:
        mpmath.iv.prec = saved


def _mpf_fraction(raw: tuple[int, int, int, int]) -> Fraction:
    sign, man, exp, _ = raw
    x = Fraction(man) * (Fraction(2) ** exp)
    return -x if sign else x


def _cdf_at(n: int, j: int, p: Fraction, prec: int, up: bool) -> Fraction:
    """A bound on ``Pr[Bin(n, p) <= j]`` (upper if ``up`` else lower) for rational ``p``."""
    iv = mpmath.iv
    w = prec + 32
    a, b = p.numerator, p.denominator  # p = a/b, 1 - p = (b-a)/b
    upper_side = j + 1 > n * p  # sum the upper tail i > j and subtract from 1
    round_up = up != upper_side  # direction for the tail sum itself
    i = j + 1 if upper_side else j
    pi = _iv_rational(p)
    t = iv.exp(_log_comb_iv(n, i) + i * iv.log(pi) + (n - i) * iv.log(1 - pi))
    lo_t, hi_t = _mpf_fraction(t._mpi_[0]), _mpf_fraction(t._mpi_[1])
    term = math.ceil(hi_t * (1 << w)) if round_up else math.floor(lo_t * (1 << w))
    small = 1 << (w - prec)
    total = 0
    while term > 0:
        total += term
        if upper_side:
            if i == n:
                break
            num, den = (n - i) * a, (i + 1) * (b - a)
            i += 1
        else:
            if i == 0:
                break
            num, den = i * (b - a), (n - i + 1) * a
            i -= 1
        term = -((-term * num) // den) if round_up else (term * num) // den
        if 2 * num <= den and term < small:
            if round_up:
                # the rest, term + (later terms), is at most term (1 + r + r^2 + ...) <= 2 term:
                # every later ratio is at most r <= 1/2 (the ratios shrink away from the mode)
                total += 2 * term
            break
    tail = Fraction(total, 1 << w)
    return 1 - tail if upper_side else tail


# Stirling's series for ln Gamma(x): sum_{i>=1} B_{2i} / (2i (2i-1) x^(2i-1)); for real x > 0 the
# remainder after any number of terms is bounded by the first omitted term (and has its sign).
_STIRLING_TERMS = 10
_BERNOULLI_2I = [Fraction(1, 6), Fraction(-1, 30), Fraction(1, 42), Fraction(-1, 30), Fraction(5, 66),
                 Fraction(-691, 2730), Fraction(7, 6), Fraction(-3617, 510), Fraction(43867, 798),
                 Fraction(-174611, 330), Fraction(854513, 138)]


def _log_factorial_iv(k: int) -> Any:
    """An interval containing ``ln k!``: from the exact integer for ``k < 4096`` (or when the working
    precision exceeds what the series below gives), else Stirling's series for ``ln Gamma(k+1)``
    with 10 terms and the 11th as a rigorous bound on the remainder (about ``2^-232`` here)."""
    iv = mpmath.iv
    if k < 4096 or iv.prec > 220:
        return iv.log(iv.mpf(math.factorial(k)))
    x = iv.mpf(k + 1)
    total = (x - iv.mpf(0.5)) * iv.log(x) - x + iv.log(2 * iv.pi) / 2
    for i in range(1, _STIRLING_TERMS + 1):
        b = _BERNOULLI_2I[i - 1]
        total += _iv_rational(b / (2 * i * (2 * i - 1))) / x ** (2 * i - 1)
    i = _STIRLING_TERMS + 1
    bound = (_iv_rational(abs(_BERNOULLI_2I[i - 1]) / (2 * i * (2 * i - 1))) / x ** (2 * i - 1)).b
    return total + iv.mpf([-bound, bound])


def _log_comb_iv(n: int, i: int) -> Any:
    return _log_factorial_iv(n) - _log_factorial_iv(i) - _log_factorial_iv(n - i)
