"""Certified bounds on the expected l-infinity error of B-ary randomized response ([GKMP20] sec. 5.2).

B-ary randomized response with blanket probability ``gamma``
(:class:`dpspec.spec.shuffled.baselines.BaryRandomizedResponse`): each of the ``n`` users reports
its true bucket with probability ``1 - gamma`` and a uniform bucket otherwise; the analyzer
estimates bucket ``j`` by ``(Y_j - n gamma / B) / (1 - gamma)`` from the report count ``Y_j``.
For a dataset with true counts ``c_j`` the error of bucket ``j`` is
``X_j = (Y_j - mu_j) / (1 - gamma)`` with ``mu_j = n gamma / B + (1 - gamma) c_j``, and the
quantity wanted is ``E[max_j |X_j|]``.

The counts are *not* independent (they sum to ``n``), and they are not multinomial either unless
all users hold the same value: a user in bucket ``i`` reports ``j`` with probability
``p1 = 1 - gamma + gamma / B`` if ``j = i`` and ``p0 = gamma / B`` otherwise, so ``Y`` is a sum of
``n`` independent one-hot vectors with user-dependent laws. What is exact is each marginal:
``Y_j ~ Bin(c_j, p1) + Bin(n - c_j, p0)``. This module computes two certified bounds from the
marginals alone:

* upper: ``P(max_j |X_j| > t) <= min(1, sum_j P(|X_j| > t))`` (union bound);
* lower: ``P(max_j |X_j| > t) >= max(max_j P(|X_j| > t),
  1 - min(prod_j P(X_j <= t), prod_j P(X_j >= -t)))``.
  The occupancy counts of balls thrown independently, each with its own distribution over the
  bins, are negatively associated (D. Dubhashi and D. Ranjan, "Balls and bins: a study in
  negative dependence", Random Structures & Algorithms 13(2), 1998: a one-hot vector is
  negatively associated, independent unions and non-decreasing functions of disjoint sets of
  negatively associated variables remain so; K. Joag-Dev and F. Proschan, Ann. Statist. 11(1),
  1983, for the definition and closure properties). For negatively associated ``Y`` and
  thresholds ``h_j``, ``P(Y_j <= h_j for all j) <= prod_j P(Y_j <= h_j)`` and likewise for
  ``>=`` (the lower orthant inequality); both are one-sided events, so no statement about
  two-sided intervals is relied upon.

Then ``E[max_j |X_j|] = (1/(1-gamma)) * integral_0^inf P(max_j |Y_j - mu_j| > r) dr``; the
integrand is a step function whose steps sit at the deviations ``|y - mu_j|`` (``y`` an
integer), i.e. on the union of the shifted lattices ``mu_j + Z`` of all buckets with distinct
``mu_j mod 1``. The sweep visits exactly these points in increasing order (deviations scaled to
integers by the common denominator of the ``mu_j``, so the order is exact), keeping per group of
buckets with equal true count (they share the law; a group of ``m`` buckets enters the sum with
weight ``m`` and the products with power ``m``) the mass of ``|Y - mu| <= r`` and the two
one-sided CDFs. The sweep stops once the union bound is below ``10^-40`` and charges the rest as
that bound times the largest possible deviation, so the upper bound stays an upper bound.

Two cases are exact (the interval closes):

* ``B = 2``: ``Y_1 - mu_1 = -(Y_0 - mu_0)``, so the maximum is ``|X_0|`` and both bounds are
  the integral of one marginal's tail;
* the point mass (every user in one bucket, ``B > 2``): the counts are multinomial, and
  ``P(box) = sum_{y0} P(Y_0 = y0) Q(n - y0)`` with ``Q`` the box probability of
  ``Multinomial(m, uniform over B - 1)``, computed by Poissonization (class ``_PointMass``)
  wherever the two bounds differ by more than ``10^-30`` (the interval's width is then of
  that order: below ``2 * 10^-30`` at the sec. 5.2 parameters).

For the other datasets the interval stays open; at the sec. 5.2 parameters (n = 10^4) its upper
end exceeds the lower by 5% (B = 2048, uniform) to 38% (B = 8) (docs/ghazi/extensions.md).
An exact value there needs the joint law of the counts (a bivariate generating function with
about ``n^2`` coefficients per threshold), which this module does not attempt.

Arithmetic is ball arithmetic (python-flint ``arb``, :data:`PREC` bits). Each marginal's PMF is
enclosed on a window around its mode (binomial atoms below ``10^-60`` cut, their mass carried as
the unlocated ball ``[0, cut]`` in every sum); the bounds published are the lower end of the lower
bound's ball and the upper end of the upper bound's ball, so the result is a rigorous interval
containing the exact expectation, independent of binary64 and of summation order.
"""

from __future__ import annotations

import heapq
import math
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath

from dpspec.spec.shuffled.divisible import ParameterError

#: working precision of the ball arithmetic (bits)
PREC = 192
#: the sweep stops once the union bound on P(max > t) is below this
TAIL = Fraction(1, 10**40)
#: binomial atoms below this are left out (their mass is carried as an unlocated ball)
ATOM_FLOOR = Fraction(1, 10**60)
#: the point mass's exact box probability is computed where the two bounds differ by more
EXACT_GAP = Fraction(1, 10**30)


@dataclass(frozen=True)
class LinfBounds:
    """A certified interval ``[lower, upper]`` containing ``E[max_j |X_j|]``."""

    lower: mpmath.mpf
    upper: mpmath.mpf

    def rounded(self, digits: int = 8) -> LinfBounds:
        """The interval widened to ``digits`` significant decimal digits (lower end rounded
        down, upper end rounded up), so it still contains the exact value."""
        return LinfBounds(round_outward(self.lower, digits, up=False),
                          round_outward(self.upper, digits, up=True))


def round_outward(x: mpmath.mpf, digits: int, up: bool) -> mpmath.mpf:
    """``x >= 0`` rounded to ``digits`` significant decimal digits, up or down (exactly).

    A negative or non-finite ``x`` is refused (``ParameterError``): ``man_exp`` carries no sign,
    so reading it for a negative number would round ``|x|`` instead."""
    if not mpmath.isfinite(x) or x < 0:
        raise ParameterError(f"round_outward needs a finite x >= 0, got {x}")
    man, exp = x.man_exp
    v = Fraction(int(man)) * (Fraction(2) ** int(exp))
    if v <= 0:
        return mpmath.mpf(0)
    e = len(str(int(v))) - 1 if v >= 1 else -len(str(int(1 / v)))
    while Fraction(10) ** e > v:
        e -= 1
    while Fraction(10) ** (e + 1) <= v:
        e += 1
    unit = Fraction(10) ** (e - digits + 1)
    k = v / unit
    q = -(-k.numerator // k.denominator) if up else k.numerator // k.denominator
    r = q * unit
    # the binary number nearest to the decimal on the outer side
    return mpmath.fdiv(r.numerator, r.denominator, prec=4 * digits + 64,
                       rounding="c" if up else "f")


def _exact_mpf(x: Any) -> mpmath.mpf:
    """The value of an exact ``arb`` (a ball of radius 0) as an mpmath number, exactly."""
    man, exp = x.man_exp()
    with mpmath.workprec(max(53, int(man).bit_length())):
        return mpmath.mpf((int(man), int(exp)))


def _ball(q: Fraction) -> Any:
    from flint import arb, fmpq

    return arb(fmpq(q.numerator, q.denominator))


def _binomial_window(m: int, p: Fraction) -> tuple[int, list[Any], Any]:
    """``(k0, atoms, lost)``: enclosures of the PMF of ``Bin(m, p)`` on ``k0, k0 + 1, ...``, from
    the mode outwards until an atom falls below :data:`ATOM_FLOOR` on each side, and an upper
    bound ``lost`` on the mass left out (beyond the mode the ratio of consecutive atoms decreases,
    so each dropped tail is at most ``a / (1 - r)`` for its first atom ``a`` and ratio ``r``)."""
    from flint import arb

    if m == 0 or p == 0:
        return 0, [arb(1)], arb(0)
    if p == 1:
        return m, [arb(1)], arb(0)
    mode = min(m, (m + 1) * p.numerator // p.denominator)
    ball_p, ball_q = _ball(p), _ball(1 - p)
    floor = _ball(ATOM_FLOOR)
    pm = arb(math.comb(m, mode)) * ball_p ** mode * ball_q ** (m - mode)
    up: list[Any] = [pm]
    lost = arb(0)
    k, v = mode, pm
    while k < m:
        ratio = _ball(Fraction(m - k, k + 1) * p / (1 - p))
        v = v * ratio
        k += 1
        if v < floor and ratio < 1:
            lost += (v / (1 - ratio)).upper()
            break
        up.append(v)
    down: list[Any] = []
    k, v = mode, pm
    while k > 0:
        ratio = _ball(Fraction(k, m - k + 1) * (1 - p) / p)
        v = v * ratio
        k -= 1
        if v < floor and ratio < 1:
            lost += (v / (1 - ratio)).upper()
            break
        down.append(v)
    return mode - len(down), down[::-1] + up, lost


def _count_window(c: int, n: int, p1: Fraction, p0: Fraction) -> tuple[int, list[Any], Any]:
    """``(y0, atoms, lost)`` for ``Y ~ Bin(c, p1) + Bin(n - c, p0)``: lower enclosures of
    ``P(Y = y)`` on ``y0, y0 + 1, ...`` (the convolution of the two windows) and an upper bound on
    the mass they miss, which may lie anywhere in ``[0, n]``."""
    from flint import arb

    a0, pa, lost_a = _binomial_window(c, p1)
    d0, pd, lost_d = _binomial_window(n - c, p0)
    atoms = [arb(0)] * (len(pa) + len(pd) - 1)
    for i, qa in enumerate(pa):
        for k, qd in enumerate(pd):
            atoms[i + k] += qa * qd
    return a0 + d0, atoms, lost_a + lost_d


def _deviations(mu_scaled: int, scale: int, lo: int, hi: int,
                g: int) -> Iterator[tuple[int, int, int]]:
    """``(|y scale - mu_scaled|, g, y)`` for the integers ``y`` in ``[lo, hi]``, increasing in the
    first component (the two sides of ``mu`` merged)."""
    below = min(max(mu_scaled // scale, lo - 1), hi)   # largest y <= mu, clipped to the range
    above = below + 1
    while below >= lo or above <= hi:
        d_below = abs(mu_scaled - below * scale) if below >= lo else None
        d_above = abs(above * scale - mu_scaled) if above <= hi else None
        if d_above is None or (d_below is not None and d_below <= d_above):
            assert d_below is not None
            yield d_below, g, below
            below -= 1
        else:
            yield d_above, g, above
            above += 1


class _PointMass:
    """Exact ``P(all |Y_j - mu_j| <= r)`` when every user holds bucket 0 (the counts are then
    multinomial): given ``Y_0 = y0`` the other ``B - 1`` counts are ``Multinomial(n - y0,
    uniform)``, so ``P(box) = sum_{y0 in I_0} P(Y_0 = y0) Q(n - y0)`` with
    ``Q(m) = P(Multinomial(m, uniform over B - 1) in I_1^(B-1))``. By Poissonization
    ``Q(m) = [w^m] E(w)^(B-1) / Poi(Lambda; m)``, ``E(w) = sum_{y in I_1} Poi(lambda; y) w^y``,
    ``Lambda = (B - 1) lambda``, for any ``lambda > 0`` (``lambda = mu_1``, so the coefficients
    needed are near the top of ``E^(B-1)``). The power is taken by repeated squaring, truncated
    above the largest degree needed (exact: the exponents are non-negative) and with coefficients
    below :data:`ATOM_FLOOR` cut at both ends; everything cut is at most the mass it would have
    contributed (each factor has total mass <= 1), so it is carried as the ball ``[0, cut]`` on
    every coefficient."""

    def __init__(self, buckets: int, lam: Fraction, m_lo: int, m_hi: int) -> None:
        from flint import arb

        self.buckets = buckets
        self.lam = _ball(lam)
        self.m_lo, self.m_hi = m_lo, m_hi
        big = (buckets - 1) * self.lam
        # Poi(Lambda; m) for the degrees needed
        self.poi = [(-big + m * big.log() - arb(m + 1).lgamma()).exp()
                    for m in range(m_lo, m_hi + 1)]

    def q_table(self, lo1: int, hi1: int) -> list[Any]:
        """Enclosures of ``Q(m)``, ``m = m_lo .. m_hi``, for ``I_1 = [lo1, hi1]``."""
        from flint import arb, arb_poly

        floor = _ball(ATOM_FLOOR)
        cut = arb(0)

        def trim(off: int, coeffs: list[Any]) -> tuple[int, list[Any]]:
            nonlocal cut
            coeffs = coeffs[: max(0, self.m_hi - off + 1)]
            a, b = 0, len(coeffs)
            while a < b and coeffs[a] < floor:
                cut += coeffs[a].upper()
                a += 1
            while b > a and coeffs[b - 1] < floor:
                cut += coeffs[b - 1].upper()
                b -= 1
            return off + a, coeffs[a:b]

        def mul(x: tuple[int, list[Any]], y: tuple[int, list[Any]]) -> tuple[int, list[Any]]:
            if not x[1] or not y[1]:
                return x[0] + y[0], []
            prod = arb_poly(x[1]) * arb_poly(y[1])
            return trim(x[0] + y[0], list(prod.coeffs()))

        base_coeffs = [(-self.lam).exp() * self.lam ** lo1 / arb(lo1 + 1).gamma()]
        for y in range(lo1 + 1, hi1 + 1):
            base_coeffs.append(base_coeffs[-1] * self.lam / y)
        base = (lo1, base_coeffs)
        result: tuple[int, list[Any]] = (0, [arb(1)])
        e = self.buckets - 1
        while e:
            if e & 1:
                result = mul(result, base)
            e >>= 1
            if e:
                base = mul(base, base)
        off, coeffs = result
        slack = arb(cut / 2, cut / 2)
        table = []
        for i, m in enumerate(range(self.m_lo, self.m_hi + 1)):
            c = coeffs[m - off] if 0 <= m - off < len(coeffs) else arb(0)
            table.append((c + slack) / self.poi[i])
        return table


def bary_rr_expected_linf(gamma: Fraction, buckets: int, n: int, true_counts: Sequence[int],
                          *, point_mass_exact: bool = True) -> LinfBounds:
    """Certified bounds on ``E[max_j |est_j - c_j|]`` of B-ary randomized response with blanket
    ``gamma`` for the dataset with bucket counts ``true_counts`` (module docstring).
    ``point_mass_exact=False`` keeps the marginal bounds alone for the point mass too (to
    measure their gap)."""
    from flint import arb, ctx

    if isinstance(buckets, bool) or not isinstance(buckets, int) or buckets < 2:
        raise ParameterError(f"B must be an integer >= 2, got {buckets!r}")
    if isinstance(n, bool) or not isinstance(n, int) or n < 1 or len(true_counts) != buckets \
            or any(isinstance(c, bool) or not isinstance(c, int) or c < 0 for c in true_counts) \
            or sum(true_counts) != n:
        raise ParameterError("true_counts must be B non-negative integers summing to n >= 1")
    gamma = Fraction(gamma)
    if not 0 <= gamma < 1:
        raise ParameterError(f"gamma must satisfy 0 <= gamma < 1, got {gamma}")
    if gamma == 0:  # every report is the true value: no error
        return LinfBounds(mpmath.mpf(0), mpmath.mpf(0))
    p1 = 1 - gamma + gamma / buckets
    p0 = gamma / buckets
    mult = Counter(true_counts)
    groups = sorted(mult)
    mus = {c: n * gamma / buckets + (1 - gamma) * c for c in groups}
    scale = 1
    for mu in mus.values():
        scale = scale * mu.denominator // math.gcd(scale, mu.denominator)
    mu_scaled = {c: int(mus[c] * scale) for c in groups}
    worst = max(max(mu_scaled[c], n * scale - mu_scaled[c]) for c in groups)
    old_prec = ctx.prec
    ctx.prec = PREC
    try:
        windows = {c: _count_window(c, n, p1, p0) for c in groups}
        # per group, the mass left out of the window is the ball [0, lost] in every sum:
        # inside = P(|Y - mu| <= r), cdf up = P(Y <= mu + r), cdf down = P(Y >= mu - r)
        inside: dict[int, Any] = {}
        cdf: dict[str, dict[int, Any]] = {"up": {}, "down": {}}
        for c in groups:
            y0, atoms, lost = windows[c]
            slack = arb(lost / 2, lost / 2)
            inside[c] = slack
            below, above = arb(0), arb(0)
            for i, q in enumerate(atoms):
                if (y0 + i) * scale < mu_scaled[c]:
                    below += q
                elif (y0 + i) * scale > mu_scaled[c]:
                    above += q
            cdf["up"][c] = below + slack
            cdf["down"][c] = above + slack

        def product(side: str) -> Any:
            prod = arb(1)
            for c in groups:
                prod *= cdf[side][c] ** mult[c]
            return prod

        # the point mass (B > 2): exact P(box) where the two bounds are apart (class _PointMass)
        point: _PointMass | None = None
        if point_mass_exact and buckets > 2 and groups == [0, n]:
            y_lo = windows[n][0]
            point = _PointMass(buckets, mus[0], n - (y_lo + len(windows[n][1]) - 1), n - y_lo)
        span: dict[int, list[int]] = {}               # included atoms: y in [span[0], span[1]]
        q_table: list[Any] | None = None              # Q(m) for the current I_1 (None: stale)
        in_box = arb(0)                               # sum_{y0 in I_0} P(Y_0 = y0) Q(n - y0)

        union = arb(0)                                # sum_j P(|Y_j - mu_j| > r)
        for c in groups:
            union += mult[c] * (1 - inside[c])
        prods = {side: product(side) for side in cdf}
        tail = _ball(TAIL)
        total_up, total_lo = arb(0), arb(0)
        prev = 0
        events = heapq.merge(*(
            _deviations(mu_scaled[c], scale, windows[c][0],
                        windows[c][0] + len(windows[c][1]) - 1, g)
            for g, c in enumerate(groups)))
        for dev, g, y in events:
            if dev > prev:
                # P(max_j |Y_j - mu_j| > r) on [prev, dev): the state holds every atom <= prev
                single = max((1 - inside[c]).lower() for c in groups)
                if buckets == 2:       # Y_1 - mu_1 = -(Y_0 - mu_0): the maximum is one bucket's
                    upper = min(arb(1), max((1 - inside[c]).upper() for c in groups))
                else:
                    upper = min(arb(1), union.upper())
                lower = max(arb(0), single,
                            (1 - min(prods["up"].upper(), prods["down"].upper())).lower())
                if point is not None and upper - lower > _ball(EXACT_GAP) \
                        and 0 in span and n in span:
                    if q_table is None:
                        q_table = point.q_table(*span[0])
                        y_lo = windows[n][0]
                        in_box = arb(0)
                        for y0 in range(span[n][0], span[n][1] + 1):
                            in_box += windows[n][1][y0 - y_lo] * q_table[n - y0 - point.m_lo]
                    lost0 = windows[n][2]
                    exact_out = 1 - (in_box + arb(lost0 / 2, lost0 / 2))
                    upper = min(upper, exact_out.upper())
                    lower = max(lower, exact_out.lower())
                total_up += (dev - prev) * upper
                total_lo += (dev - prev) * lower
                prev = dev
                if union.upper() < tail:
                    break
            c = groups[g]
            q = windows[c][1][y - windows[c][0]]
            if c in span:
                span[c] = [min(span[c][0], y), max(span[c][1], y)]
            else:
                span[c] = [y, y]
            if point is not None:
                if c == 0:
                    q_table = None
                elif q_table is not None:
                    in_box += q * q_table[n - y - point.m_lo]
            union -= mult[c] * q
            inside[c] += q
            for side, hit in (("up", y * scale >= mu_scaled[c]),
                              ("down", y * scale <= mu_scaled[c])):
                if hit:
                    old = cdf[side][c]
                    cdf[side][c] = old + q
                    if old.lower() > 0:
                        prods[side] = prods[side] / old ** mult[c] * cdf[side][c] ** mult[c]
                    else:
                        prods[side] = product(side)
        # beyond prev, P(max > r) <= union (non-increasing in r) up to the largest deviation
        total_up += (worst - prev) * min(arb(1), union.upper())
        s = 1 - gamma
        lo = (total_lo * s.denominator / (s.numerator * scale)).lower()
        hi = (total_up * s.denominator / (s.numerator * scale)).upper()
        return LinfBounds(_exact_mpf(lo), _exact_mpf(hi))
    finally:
        ctx.prec = old_prec
