"""Certified privacy-loss-distribution (PLD) accounting of the Poisson-subsampled Gaussian.

The optimal ``delta(eps)`` of ``T`` steps of the Poisson-subsampled Gaussian mechanism (rate
``q``, noise multiplier ``sigma``, L2 sensitivity 1, add/remove neighbours) is bracketed by a
lower and an upper bound, both exact rationals, with the true value provably between them; the
optimal ``eps(delta)`` is bracketed by monotone search on those bounds. This is the "optimal /
PLD value with certified bounds" that RDP accounting (:mod:`.subsampling`) over-estimates.

**The mechanism as a pair.** With ``A = (1 - q) N(0, sigma^2) + q N(1, sigma^2)`` and
``B = N(0, sigma^2)``, the T-fold composition under add/remove adjacency has
``delta_T(eps) = max(H_eps(A^T || B^T), H_eps(B^T || A^T))`` where ``H_eps`` is the hockey-stick
divergence; both *directions* ("remove": (A, B), "add": (B, A)) are bounded and the larger taken
([ZDW22] sec. 3, [KJH20] sec. 2; dp-accounting and [GLW21] do the same). For a pair (P, Q) with
privacy loss ``L = log(P/Q)`` under P, ``H_eps(P || Q) = E_P[(1 - e^(eps - L))_+]`` and, for
discrete pairs, ``sum_atoms (p - e^eps q)_+``; the loss of the product is the sum of the losses,
so composition is convolution of PLDs ([SMM19], [KJH20]).

**Discretisation on a grid of width h** (losses ``l_j = j h``). The loss of the mechanism is a
monotone map of the Gaussian sample ``x`` (``L(x) = log(1 - q + q exp((2x - 1)/(2 sigma^2)))``),
so the x-interval of every loss bucket ``[l_j, l_{j+1})`` has exact masses ``(P_j, Q_j)`` from the
Gaussian CDF at the inverse of the loss map (mpmath at :data:`MASS_DPS` digits).

* *Lower bound* (a pair that is a post-processing of the true one): keep every bucket as one atom
  with its exact masses ``(P_j, Q_j)`` (coarsening x into buckets is a post-processing), compose by
  convolving the P-masses and the Q-masses on the bucket index, which merges atoms (again a
  post-processing). The data-processing inequality for ``H_eps`` makes the result's
  ``sum_k (p_k - e^eps q_k)_+`` a lower bound; the sum over any subset of buckets is one too.
* *Upper bound* (a dominating pair, the "connect the dots" construction of [DGKKM22] in effect):
  split each bucket's atom ``(P_j, Q_j)``, whose loss lies in ``[l_j, l_{j+1}]``, into two atoms
  at exactly ``l_j`` and ``l_{j+1}`` with the same total P- and Q-mass. The bucket atom is a merge
  (post-processing) of the two, so the split pair dominates ([ZDW22] Def. 7 and Thm 10: dominating
  pairs compose), and its PLD lives on the grid: ``delta = sum_k p_k (1 - e^(eps - l_k))_+ + p_inf``.
* Tails: below the grid, the upper bound moves P-mass up to the lowest grid loss; above it, the
  part that cannot sit at the top loss goes to ``+inf`` (``p_inf``, counted in full). The lower
  bound merges tails into the edge buckets.

This is the privacy-buckets idea of [MM18] (bucketing the loss and bounding the error) with the
split/merge of [DGKKM22]/[ZDW22], instead of rounding losses up or down, so the gap between the
bounds is second order in h, not ``T h``.

**Exact arithmetic.** Bucket masses are quantised to integers at scale ``2^s`` (``s`` =
``mass_bits``): P-masses of the upper bound and Q-masses of the lower bound are rounded *up*,
P-masses of the lower bound *down* (every bound is monotone in these masses, so this keeps both
bounds valid; one extra unit covers the mpmath error). Composition is exact integer convolution
(Kronecker substitution: one product of two large integers, by FLINT/GMP if python-flint is
installed, else by Python's own integers: the same integers either way), by repeated squaring of the one-step
vectors, each product rescaled by ``2^-s`` with the same directed rounding, then truncated in the
safe direction (tail masses below ``tail`` are moved as above). Evaluation is exact: the bounds
are rationals built from the integers and from ``e^eps`` bracketed by integers at ``2^-64``
(rounded down for the upper bound, up for the lower), ``e^-h`` and the grid weights rounded down.
Nothing depends on floating point, library versions or summation order.

**Literature.** [MM18] S. Meiser, E. Mohammadi, "Tight on budget? Tight bounds for r-fold
approximate differential privacy", CCS 2018 (privacy buckets). [SMM19] D. Sommer, S. Meiser,
E. Mohammadi, "Privacy loss classes: the central limit theorem in differential privacy", PoPETS
2019. [KJH20] A. Koskela, J. Jalko, A. Honkela, "Computing tight differential privacy guarantees
using FFT", AISTATS 2020. [GLW21] S. Gopi, Y. T. Lee, L. Wutschitz, "Numerical composition of
differential privacy", NeurIPS 2021 (PRV accountant). [ZDW22] Y. Zhu, J. Dong, Y.-X. Wang,
"Optimal accounting of differential privacy via characteristic function", AISTATS 2022.
[DGKKM22] V. Doroshenko, B. Ghazi, P. Kamath, R. Kumar, P. Manurangsi, "Connect the dots: tighter
discrete approximations of privacy loss distributions", PoPETs 2022.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal, localcontext
from fractions import Fraction
from typing import TypeVar

import mpmath

from dpspec.spec.accounting.numeric import (
    Real,
    bisect_int,
    compact,
    mpf,
    positive,
    positive_int,
    probability,
    to_fraction,
)

#: decimal digits of the mpmath computation of the one-step bucket masses (absolute error far
#: below the quantum ``2^-mass_bits``; one extra quantum covers it)
MASS_DPS = 50
#: default mass quantum exponent: masses are integers at scale 2^MASS_BITS
MASS_BITS = 128
#: default resolution: the grid width is about (std of the composed loss) / RESOLUTION, rounded
#: down to a power of two
RESOLUTION = 500
#: at most this many one-step grid buckets (the rest of the loss range is a tail, bounded safely)
MAX_BUCKETS = 1 << 17
#: bits of the fixed-point e^eps and e^-l brackets
_FIX = 64
_WEIGHT_BITS = 256
DIRECTIONS = ("remove", "add")


# -- exact integer convolution -----------------------------------------------------------------
def _multiply_python(x: int, y: int) -> int:
    return x * y


def _multiply_flint(x: int, y: int) -> int:
    import flint

    fx = flint.fmpz(x)
    return int(fx * fx if x is y else fx * flint.fmpz(y))


def _kronecker(a: list[int], b: list[int], multiply: Callable[[int, int], int]) -> list[int]:
    """Exact product of integer polynomials with non-negative coefficients by Kronecker
    substitution: pack each into one integer with slots wide enough for any product
    coefficient, multiply, unpack."""
    if not a or not b:
        return []
    bits = max(a).bit_length() + max(b).bit_length() + min(len(a), len(b)).bit_length() + 1
    nb = (bits + 7) // 8

    def pack(v: list[int]) -> int:
        return int.from_bytes(b"".join(x.to_bytes(nb, "little") for x in v), "little")

    pa = pack(a)
    prod = multiply(pa, pa) if a is b else multiply(pa, pack(b))
    n = len(a) + len(b) - 1
    raw = prod.to_bytes(n * nb, "little")
    return [int.from_bytes(raw[i * nb:(i + 1) * nb], "little") for i in range(n)]


def _convolve_python(a: list[int], b: list[int]) -> list[int]:
    return _kronecker(a, b, _multiply_python)


def _convolve_flint(a: list[int], b: list[int]) -> list[int]:
    return _kronecker(a, b, _multiply_flint)


def _pick_convolution() -> Callable[[list[int], list[int]], list[int]]:
    try:
        import flint  # noqa: F401
    except ImportError:  # pragma: no cover - python-flint is a dependency; this is the fallback
        return _convolve_python
    return _convolve_flint


convolve = _pick_convolution()


# -- discrete distributions on the grid ----------------------------------------------------------
@dataclass
class _Upper:
    """P-masses (integers, scale 2^s) at grid losses ``(offset + i) h``, plus mass at +inf."""

    offset: int
    p: list[int]
    inf: int


@dataclass
class _Lower:
    """Bucket atoms at grid indices ``k = offset + i``: P-masses ``p`` and the Q-masses scaled by
    the bucket's base likelihood ratio, ``r_k = Q_k e^(k h)`` (integers, scale 2^s). The scaling
    is multiplicative over index sums, so convolving ``r`` convolves the Q-masses, and ``r`` is
    of the order of ``p`` even where ``Q`` is far below the quantum (large losses)."""

    offset: int
    p: list[int]
    r: list[int]
    h: Fraction


_D = TypeVar("_D", "_Upper", "_Lower")


def _shift_up(v: list[int], s: int) -> list[int]:
    return [-((-x) >> s) for x in v]


def _shift_down(v: list[int], s: int) -> list[int]:
    return [x >> s for x in v]


def _window(weights: list[int], tail: int) -> tuple[int, int]:
    """(lo, hi): the smallest index range outside which each side's total weight is <= tail."""
    lo, acc = 0, 0
    while lo < len(weights) - 1 and acc + weights[lo] <= tail:
        acc += weights[lo]
        lo += 1
    hi, acc = len(weights) - 1, 0
    while hi > lo and acc + weights[hi] <= tail:
        acc += weights[hi]
        hi -= 1
    return lo, hi


def _trim_upper(u: _Upper, tail: int) -> _Upper:
    """Move the low tail up to the lowest kept loss and the high tail to +inf (both only make
    every partial sum of losses larger: safe for the upper bound)."""
    lo, hi = _window(u.p, tail)
    p = u.p[lo:hi + 1]
    p[0] += sum(u.p[:lo])
    return _Upper(u.offset + lo, p, u.inf + sum(u.p[hi + 1:]))


_EXP_CACHE: dict[tuple[Fraction, int], list[int]] = {}


def _exp_steps(h: Fraction, sign: int, count: int) -> list[int]:
    """``[F_0, ..., F_count]`` with ``F_d >= e^(sign d h) 2^W`` (rounded up at every step)."""
    cached = _EXP_CACHE.setdefault((h, sign), [1 << _WEIGHT_BITS])
    if len(cached) <= count:
        step = _exp_fixed(sign * h, _WEIGHT_BITS, up=True)
        while len(cached) <= count:
            cached.append(-((-(cached[-1] * step)) >> _WEIGHT_BITS))
    return cached


def _trim_lower(w: _Lower, tail: int) -> _Lower:
    """Merge the tails into the edge buckets (merging atoms is a post-processing); a merged
    atom's Q-mass is rescaled to its new bucket's base ratio, rounded up."""
    lo, hi = _window([x + y for x, y in zip(w.p, w.r, strict=True)], tail)
    p, r = w.p[lo:hi + 1], w.r[lo:hi + 1]
    p[0] += sum(w.p[:lo])
    p[-1] += sum(w.p[hi + 1:])
    if lo:
        up = _exp_steps(w.h, 1, lo)  # moving from index lo - d up to lo: factor e^(d h)
        acc = sum(w.r[lo - d] * up[d] for d in range(1, lo + 1))
        r[0] += -((-acc) >> _WEIGHT_BITS)
    extra = len(w.p) - 1 - hi
    if extra:
        down = _exp_steps(w.h, -1, extra)
        acc = sum(w.r[hi + d] * down[d] for d in range(1, extra + 1))
        r[-1] += -((-acc) >> _WEIGHT_BITS)
    return _Lower(w.offset + lo, p, r, w.h)


def _compose_upper(x: _Upper, y: _Upper, s: int, tail: int) -> _Upper:
    p = _shift_up(convolve(x.p, y.p), s)
    fx, fy = sum(x.p), sum(y.p)
    inf = -((-(x.inf * (fy + y.inf) + fx * y.inf)) >> s)
    return _trim_upper(_Upper(x.offset + y.offset, p, inf), tail)


def _compose_lower(x: _Lower, y: _Lower, s: int, tail: int) -> _Lower:
    p = _shift_down(convolve(x.p, y.p), s)
    r = _shift_up(convolve(x.r, y.r), s)
    return _trim_lower(_Lower(x.offset + y.offset, p, r, x.h), tail)


def _power(one: _D, steps: int, compose: Callable[[_D, _D], _D]) -> _D:
    """``one`` composed with itself ``steps`` times, by repeated squaring (least bit first)."""
    result: _D | None = None
    base = one
    while True:
        if steps & 1:
            result = base if result is None else compose(result, base)
        steps >>= 1
        if not steps:
            assert result is not None
            return result
        base = compose(base, base)


# -- the one-step buckets ------------------------------------------------------------------------
@dataclass(frozen=True)
class Grid:
    """The one-step discretisation: grid width ``h`` and bucket boundaries ``j h``, ``j`` from
    ``lo`` to ``hi``; ``sa[i]``, ``sb[i]`` are ``A(L >= (lo + i) h)`` and ``B(L >= (lo + i) h)``
    for the loss ``L`` of the "remove" direction (mpmath, :data:`MASS_DPS` digits)."""

    h: Fraction
    lo: int
    hi: int
    sa: list[mpmath.mpf]
    sb: list[mpmath.mpf]


def default_grid_width(q: Real, sigma: Real, steps: int, resolution: int = RESOLUTION) -> Fraction:
    """``2^k`` just below ``s_T / resolution``, with ``s_T = sqrt(T v)`` and
    ``v = log(1 + q^2 (e^(1/sigma^2) - 1))`` (the log of 1 + the chi-square divergence of one step,
    about the variance of its privacy loss: exact for q = 1). Only the tightness depends on it."""
    with mpmath.workdps(30):
        rate, s = mpf(q), mpf(sigma)
        v = mpmath.log1p(rate * rate * mpmath.expm1(1 / (s * s)))
        spread = mpmath.sqrt(steps * v) / resolution
        k = int(mpmath.floor(mpmath.log(spread, 2)))
    return Fraction(2) ** k


def one_step_grid(q: Real, sigma: Real, h: Fraction, tail: mpmath.mpf,
                  max_buckets: int = MAX_BUCKETS) -> Grid:
    """The bucket boundaries and survival functions of one step (see the module docstring).

    The grid spans the losses of samples within ``z`` standard deviations, ``z`` such that the
    Gaussian tail beyond is below ``tail`` (at most ``max_buckets`` buckets; beyond, a tail)."""
    with mpmath.workdps(MASS_DPS):
        rate, s = mpf(q), mpf(sigma)
        hh = mpf(h)
        two_s2 = 2 * s * s

        def loss(x: mpmath.mpf) -> mpmath.mpf:
            return mpmath.log((1 - rate) + rate * mpmath.exp((2 * x - 1) / two_s2))

        def inverse(l_: mpmath.mpf) -> mpmath.mpf:  # x with loss(x) = l_ (-inf below the range)
            d = mpmath.exp(l_) - (1 - rate)
            if d <= 0:
                return mpmath.ninf
            return s * s * mpmath.log(d / rate) + mpmath.mpf(1) / 2

        def upper_tail(z: mpmath.mpf) -> mpmath.mpf:
            return mpmath.erfc(z / mpmath.sqrt(2)) / 2

        z = mpmath.sqrt(2 * mpmath.log(1 / tail)) + 1
        while upper_tail(z) > tail:
            z += 1
        lo = int(mpmath.floor(loss(-z * s) / hh))
        hi = int(mpmath.ceil(loss(1 + z * s) / hh))
        if hi - lo > max_buckets:  # keep the top (where delta is decided) and the centre
            centre = int(mpmath.floor(loss(mpmath.mpf(1) / 2) / hh))
            lo = max(lo, min(centre - max_buckets // 4, hi - max_buckets))
            hi = min(hi, lo + max_buckets)
        sa, sb = [], []
        for j in range(lo, hi + 1):
            x = inverse(j * hh)
            if x == mpmath.ninf:
                sa.append(mpmath.mpf(1))
                sb.append(mpmath.mpf(1))
                continue
            sb_j = upper_tail(x / s)
            sa.append((1 - rate) * sb_j + rate * upper_tail((x - 1) / s))
            sb.append(sb_j)
    return Grid(h, lo, hi, sa, sb)


def _buckets(g: Grid, direction: str
             ) -> tuple[int, list[tuple[mpmath.mpf, mpmath.mpf]], tuple[mpmath.mpf, mpmath.mpf],
                        tuple[mpmath.mpf, mpmath.mpf]]:
    """(first index, [(P_j, Q_j)] for consecutive indices, low tail, high tail) of a direction."""
    n = g.hi - g.lo
    rem = [(g.sa[i] - g.sa[i + 1], g.sb[i] - g.sb[i + 1]) for i in range(n)]
    low = (1 - g.sa[0], 1 - g.sb[0])
    high = (g.sa[n], g.sb[n])
    if direction == "remove":
        return g.lo, rem, low, high
    # "add": the pair (B, A), loss -L: bucket [l_j, l_j+1) becomes (-l_j+1, -l_j], index -(j+1)
    swapped = [(b, a) for a, b in reversed(rem)]
    return -g.hi, swapped, (high[1], high[0]), (low[1], low[0])


def _quantum(x: mpmath.mpf, s: int, up: bool) -> int:
    """``x 2^s`` rounded up plus one quantum (``up``) or down minus one, never negative."""
    y = mpmath.ldexp(x, s)
    if up:
        return max(int(mpmath.ceil(y)), 0) + 1
    return max(int(mpmath.floor(y)) - 1, 0)


def one_step_upper(g: Grid, direction: str, s: int) -> _Upper:
    """The dominating pair on the grid (bucket atoms split onto both endpoints), quantised up."""
    first, buckets, low, high = _buckets(g, direction)
    with mpmath.workdps(MASS_DPS):
        hh = mpmath.mpf(g.h.numerator) / g.h.denominator
        denom = -mpmath.expm1(-hh)
        masses = [mpmath.mpf(0)] * (len(buckets) + 1)
        for i, (p, q) in enumerate(buckets):
            beta = (p - q * mpmath.exp((first + i) * hh)) / denom
            beta = min(max(beta, mpmath.mpf(0)), p)
            masses[i] += p - beta
            masses[i + 1] += beta
        masses[0] += low[0]  # the low tail's P-mass moves up to the lowest grid loss
        top = min(high[1] * mpmath.exp((first + len(buckets)) * hh), high[0])
        masses[-1] += top
        inf = high[0] - top
        return _Upper(first, [_quantum(m, s, True) for m in masses], _quantum(inf, s, True))


def one_step_lower(g: Grid, direction: str, s: int) -> _Lower:
    """The coarsened pair (one atom per bucket), P quantised down and ``r = Q e^(k h)`` up."""
    first, buckets, low, high = _buckets(g, direction)
    with mpmath.workdps(MASS_DPS):
        hh = mpf(g.h)
        p = [b[0] for b in buckets]
        q = [b[1] for b in buckets]
        p[0] += low[0]
        q[0] += low[1]
        p[-1] += high[0]
        q[-1] += high[1]
        r = [x * mpmath.exp((first + i) * hh) for i, x in enumerate(q)]
        return _Lower(first, [_quantum(x, s, False) for x in p], [_quantum(x, s, True) for x in r],
                      g.h)


# -- evaluation --------------------------------------------------------------------------------
def _exp_fixed(x: Fraction, bits: int, up: bool) -> int:
    """An integer bracket of ``e^x 2^bits``: >= (``up``) or <= it. mpmath works with 64 bits
    beyond the integer part of the value (which ``bits + 2 max(ceil x, 0)`` bits hold, as
    log2 e < 2), so that its error, the rounding of ``x`` included, stays below one unit, which
    the extra unit covers (a fixed number of digits does not: eps 391 at 64 bits and a loss
    of -1246 at 256 bits give values of 190 and 620 digits)."""
    with mpmath.workprec(bits + 2 * max(math.ceil(x), 0) + 64):
        y = mpmath.ldexp(mpmath.exp(mpmath.mpf(x.numerator) / x.denominator), bits)
        return int(mpmath.ceil(y)) + 1 if up else max(int(mpmath.floor(y)) - 1, 0)


class _UpperCurve:
    """``delta(eps) = sum_k p_k (1 - e^(eps - l_k))_+ + p_inf`` (scale 2^s), bounded above."""

    def __init__(self, u: _Upper, h: Fraction, s: int) -> None:
        self.u, self.h, self.s = u, h, s
        n = len(u.p)
        w = _WEIGHT_BITS
        step = _exp_fixed(-h, w, up=False)  # <= e^-h 2^w
        first = _exp_fixed(-u.offset * h, w, up=False)
        weights = [0] * n  # weights[k] <= e^(-l_k) 2^w (rounded down at every step)
        cur = first
        for k in range(n):
            weights[k] = cur
            cur = (cur * step) >> w
        self.mass = [0] * (n + 1)  # suffix sums of p
        self.weighted = [0] * (n + 1)  # suffix sums of p_k weights[k]
        for k in range(n - 1, -1, -1):
            self.mass[k] = self.mass[k + 1] + u.p[k]
            self.weighted[k] = self.weighted[k + 1] + u.p[k] * weights[k]

    def delta(self, eps: Fraction) -> Fraction:
        j = eps // self.h + 1  # the terms with l_k > eps (exact: eps and h are rationals)
        k0 = min(max(j - self.u.offset, 0), len(self.u.p))
        e_low = _exp_fixed(eps, _FIX, up=False)  # <= e^eps 2^64
        num = ((self.mass[k0] + self.u.inf) << (_FIX + _WEIGHT_BITS)) - e_low * self.weighted[k0]
        return Fraction(max(num, 0), 1 << (self.s + _FIX + _WEIGHT_BITS))

    def top(self) -> Fraction:
        """The loss of the highest grid atom."""
        return (self.u.offset + len(self.u.p) - 1) * self.h

    def floor(self) -> Fraction:
        """``delta(eps)`` for every eps at or above the top loss: the mass at +inf."""
        return Fraction(self.u.inf, 1 << self.s)


class _LowerCurve:
    """``max over subsets S of sum_{k in S} (p_k - e^eps Q_k)`` (scale 2^s), bounded below: the
    buckets sorted by their likelihood ratio ``p_k / Q_k`` (approximately: any subset gives a
    lower bound), the subset a prefix."""

    def __init__(self, w: _Lower, s: int) -> None:
        self.s = s
        n = len(w.p)
        # g[k] >= e^(-l_k) 2^W, rounded up at every step
        g = [0] * n
        g[0] = _exp_fixed(-w.offset * w.h, _WEIGHT_BITS, up=True)
        step = _exp_fixed(-w.h, _WEIGHT_BITS, up=True)
        for k in range(1, n):
            g[k] = -((-(g[k - 1] * step)) >> _WEIGHT_BITS)
        qw = [w.r[k] * g[k] for k in range(n)]  # >= Q_k 2^(s + W)
        keys = [(w.p[k] << (_WEIGHT_BITS + 200)) // max(qw[k], 1) for k in range(n)]
        order = sorted(range(n), key=lambda k: (-keys[k], k))
        self.keys = [keys[k] for k in order]
        self.pp = [0]
        self.qq = [0]
        for k in order:
            self.pp.append(self.pp[-1] + w.p[k])
            self.qq.append(self.qq[-1] + qw[k])

    def delta(self, eps: Fraction) -> Fraction:
        e_up = _exp_fixed(eps, _FIX, up=True)  # >= e^eps 2^64
        threshold = e_up << (200 - _FIX)
        keys = self.keys  # non-increasing: count the leading keys above the threshold
        lead = bisect_int(lambda i: keys[i] <= threshold, -1, len(keys))
        num = (self.pp[lead] << (_FIX + _WEIGHT_BITS)) - e_up * self.qq[lead]
        return Fraction(max(num, 0), 1 << (self.s + _FIX + _WEIGHT_BITS))


@dataclass(frozen=True)
class Curves:
    """The composed bounds of both directions: ``delta(eps)`` bounded below and above."""

    lower: tuple[_LowerCurve, ...]
    upper: tuple[_UpperCurve, ...]
    h: Fraction
    steps: int

    def delta(self, eps: Real) -> tuple[Fraction, Fraction]:
        """(lower, upper) bounds on the optimal delta at ``eps`` (exact rationals)."""
        e = to_fraction(eps, "eps")
        return (max(c.delta(e) for c in self.lower), max(c.delta(e) for c in self.upper))

    def epsilon(self, delta: Real, *, digits: int = 12) -> tuple[Fraction, Fraction | None]:
        """(lower, upper) bounds on the optimal eps at ``delta``; upper None means infinite.

        Bisection on each bound (both non-increasing in eps) to ``digits`` significant digits:
        the lower end is a point where the lower bound on delta still exceeds ``delta``, the upper
        end a point where the upper bound on delta is at most ``delta`` (or 0, where it already is).
        """
        d = to_fraction(delta, "delta")
        if not 0 < d < 1:
            raise ValueError("delta must be in (0, 1)")
        top = max(c.top() for c in self.upper)
        up = _search(lambda e: max(c.delta(e) for c in self.upper) <= d, top, digits)
        low = _search(lambda e: max(c.delta(e) for c in self.lower) <= d, top, digits,
                      lower=True)
        assert low is not None
        return low, up


def _search(ok: Callable[[Fraction], bool], top: Fraction, digits: int,
            lower: bool = False) -> Fraction | None:
    """For the upper bound: a rational ``e >= 0`` with ``ok(e)``, near the smallest; None if
    ``ok`` fails at ``top + 1`` (delta stays above the target: infinite eps). For the lower
    bound: a rational ``e >= 0`` with ``not ok(e)`` near the largest (0 if ``ok(0)``)."""
    def at(x: Fraction) -> bool:
        return ok(x)

    zero = Fraction(0)
    if at(zero):
        return zero
    hi = max(top, Fraction(0)) + 1
    if not at(hi):
        return hi if lower else None
    lo, steps = zero, 0
    while True:  # lo fails, hi passes
        mid = (lo + hi) / 2
        if at(mid):
            hi = mid
        else:
            lo = mid
        steps += 1
        if hi - lo <= hi * Fraction(1, 10 ** digits) or steps > 400:
            return lo if lower else hi


def composed(q: Real, sigma: Real, steps: int, *, h: Real | None = None,
             mass_bits: int = MASS_BITS, tail: Real = "1e-30",
             resolution: int = RESOLUTION) -> Curves:
    """The certified bounds of ``steps`` compositions of the Poisson-subsampled Gaussian.

    ``h``: grid width (default :func:`default_grid_width`); ``tail``: probability mass below
    which a tail is moved (safely) at each step (the bounds then differ from the exact ones of
    the discretised pairs by at most about ``tail`` per composition, in the safe direction);
    ``mass_bits``: masses are integers at scale ``2^mass_bits``.
    """
    t = positive_int(steps, "steps")
    if t > 10**7:
        raise ValueError("steps must be at most 10^7")
    probability(q, "q", open_left=True, open_right=False)
    positive(sigma, "sigma")
    tau = to_fraction(tail, "tail")
    if not 0 < tau < Fraction(1, 1000):
        raise ValueError("tail must be in (0, 1e-3)")
    s = positive_int(mass_bits, "mass_bits", 32)
    width = default_grid_width(q, sigma, t, resolution) if h is None else to_fraction(h, "h")
    if not 0 < width:
        raise ValueError("h must be > 0")
    grid = one_step_grid(q, sigma, width, mpmath.mpf(tau.numerator) / tau.denominator)
    tail_int = max(int(tau * (1 << s)), 1)
    lowers, uppers = [], []
    for direction in DIRECTIONS:
        u1 = _trim_upper(one_step_upper(grid, direction, s), tail_int)
        u = _power(u1, t, lambda x, y: _compose_upper(x, y, s, tail_int))
        uppers.append(_UpperCurve(u, width, s))
        w1 = _trim_lower(one_step_lower(grid, direction, s), tail_int)
        w = _power(w1, t, lambda x, y: _compose_lower(x, y, s, tail_int))
        lowers.append(_LowerCurve(w, s))
    return Curves(tuple(lowers), tuple(uppers), width, t)


def delta_bounds(q: Real, sigma: Real, steps: int, eps: Real, **kw: object
                 ) -> tuple[Fraction, Fraction]:
    """Certified (lower, upper) on the optimal delta(eps) of ``steps`` subsampled Gaussians
    (``eps >= 0``)."""
    if to_fraction(eps, "eps") < 0:
        raise ValueError("eps must be >= 0")
    return composed(q, sigma, steps, **kw).delta(eps)  # type: ignore[arg-type]


def default_tail(delta: Real) -> Fraction:
    """The tail threshold for eps(delta): ``delta 2^-30`` (at most 1e-6)."""
    d = to_fraction(delta, "delta")
    if not 0 < d < 1:
        raise ValueError("delta must be in (0, 1)")
    return min(d / 2 ** 30, Fraction(1, 10 ** 6))


def epsilon_bounds(q: Real, sigma: Real, steps: int, delta: Real, *, digits: int = 12,
                   **kw: object) -> tuple[Fraction, Fraction | None]:
    """Certified (lower, upper) on the optimal eps(delta); upper None means infinite.

    The tail threshold defaults to ``delta 2^-30`` (so truncation costs at most that per step).
    """
    kw.setdefault("tail", default_tail(delta))
    d = to_fraction(delta, "delta")
    return composed(q, sigma, steps, **kw).epsilon(d, digits=digits)  # type: ignore[arg-type]


def decimal_bound(x: Fraction | None, digits: int, *, up: bool) -> str:
    """An exact rational bound rounded outward (``up`` for an upper end) to ``digits``
    significant digits (Decimal division is correctly rounded); None (infinite) is "inf"."""
    if x is None:
        return "inf"
    if x == 0:
        return "0"
    with localcontext() as ctx:
        ctx.prec = digits
        ctx.rounding = ROUND_CEILING if up else ROUND_FLOOR
        return compact(str(Decimal(x.numerator) / Decimal(x.denominator)))
