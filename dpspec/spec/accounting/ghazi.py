"""Shuffled-model counting of Ghazi, Kumar, Manurangsi and Pagh ([GKMP20], seed 004).

A D-distributed mechanism releases ``sum_i x_i + Z`` with ``Z ~ D`` infinitely divisible on the
non-negative integers; by their Observation 8 it is (eps, delta)-DP in the shuffled model iff the
central D mechanism is, for Delta-summation (each x_i in {0, ..., Delta}; neighbouring sums differ
by a shift s in {1, ..., Delta}).

* Theorem 11 (sufficient): ``Poi(lambda)`` with
  ``lambda = 16 log(10/delta) / (1 - e^{-eps/Delta})^2 + 2 Delta / (1 - e^{-eps/Delta})``.
* Theorem 13 (sufficient): ``NB(r, p)`` with ``p = e^{-0.1 eps/Delta}``,
  ``r = 50 e^{eps/Delta} log(1/delta)``, where ``NB(k; r, p) = C(k+r-1, k) (1-p)^r p^k``.
* Theorem 18: the correlated mechanism (D1, D2, D3) is ``(eps1 + eps2, e^{eps1} delta2 +
  2 e^{2 eps1} delta3)``-DP when D1 - D2 gives eps1-DP, D3 gives (eps2, delta2)-DP for
  Delta-summation and the negative noise exceeds Delta with probability at most delta3. (The seed's
  statement names D3 in the third condition; its proof overview, and the construction, use the
  concentration of D2 -- the ``-1`` noise that is correlated with D3. This module follows the proof.)
* Exact minimal parameters: the exact delta(eps) of the Poisson and negative-binomial mechanisms
  (hockey-stick divergence in both directions, every shift s <= Delta, tails through regularized
  incomplete gamma/beta functions at 40 digits) and the smallest lambda (resp. r for a given p) that
  reaches a target delta, by bisection. delta is non-increasing in lambda (and in r) because
  ``Poi(l') = Poi(l) + Poi(l' - l)``: a larger parameter is post-processing of a smaller one. The
  parameter is published rounded up to ``digits`` significant digits and re-checked.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import mpmath

from dpspec.spec.accounting.numeric import (
    DPS,
    Real,
    mpf,
    positive,
    positive_int,
    probability,
    round_up,
    smallest_int,
)


def _delta_arg(d: Real) -> mpmath.mpf:
    return probability(d, "delta")


def theorem11_lambda(eps: Real, delta: Real, sensitivity: int = 1) -> mpmath.mpf:
    """lambda of [GKMP20] Theorem 11."""
    s = positive_int(sensitivity, "sensitivity")
    with mpmath.workdps(DPS):
        e = positive(eps, "eps")
        d = _delta_arg(delta)
        g = -mpmath.expm1(-e / s)  # 1 - e^{-eps/Delta}
        return 16 * mpmath.log(10 / d) / (g * g) + 2 * s / g


def theorem13_parameters(eps: Real, delta: Real, sensitivity: int = 1
                         ) -> tuple[mpmath.mpf, mpmath.mpf]:
    """``(p, r)`` of [GKMP20] Theorem 13."""
    s = positive_int(sensitivity, "sensitivity")
    with mpmath.workdps(DPS):
        e = positive(eps, "eps")
        d = _delta_arg(delta)
        return mpmath.exp(-e / (10 * s)), 50 * mpmath.exp(e / s) * mpmath.log(1 / d)


def theorem18_guarantee(eps1: Real, eps2: Real, delta2: Real, delta3: Real
                        ) -> tuple[mpmath.mpf, mpmath.mpf]:
    """``(eps1 + eps2, e^{eps1} delta2 + 2 e^{2 eps1} delta3)`` ([GKMP20] Theorem 18)."""
    with mpmath.workdps(DPS):
        e1 = mpf(eps1, "eps1")
        e2 = mpf(eps2, "eps2")
        if e1 < 0 or e2 < 0:
            raise ValueError("eps1 and eps2 must be >= 0")
        d2 = probability(delta2, "delta2", open_left=False, open_right=False)
        d3 = probability(delta3, "delta3", open_left=False, open_right=False)
        return e1 + e2, min(mpmath.exp(e1) * d2 + 2 * mpmath.exp(2 * e1) * d3, mpmath.mpf(1))


# -- exact privacy curves of the shifted mechanisms ------------------------------------------
def _threshold(log_ratio: Callable[[int], mpmath.mpf], start: int, level: mpmath.mpf,
               sup: mpmath.mpf) -> int | None:
    """Smallest k >= start with log_ratio(k) > level, for log_ratio non-decreasing in k with
    supremum ``sup``; None when no k qualifies (level >= sup)."""
    if level >= sup:
        return None
    return smallest_int(lambda k: log_ratio(k) > level, start,
                        first=max(start + 1, 2 * start + 1))


def _shift_delta(eps: mpmath.mpf, s: int, log_ratio: Callable[[int], mpmath.mpf],
                 cdf: Callable[[int], mpmath.mpf], sf: Callable[[int], mpmath.mpf],
                 sup: mpmath.mpf) -> mpmath.mpf:
    """max of both hockey-stick divergences between ``X + s`` and ``X`` (X on 0, 1, ...).

    ``log_ratio(k) = log P[X = k - s] - log P[X = k]`` for k >= s, non-decreasing in k;
    ``cdf(k) = P[X <= k]`` (0 for k < 0), ``sf(k) = P[X >= k]`` (1 for k <= 0); ``sup`` is the
    supremum of the loss (infinite for the Poisson, ``-s log p`` for NB(r, p) with r >= 1).
    """
    ee = mpmath.exp(eps)
    # D(X + s || X): atoms k >= k1 where the loss exceeds eps (none if eps >= sup)
    k1 = _threshold(log_ratio, s, eps, sup)
    d1 = mpmath.mpf(0) if k1 is None else sf(k1 - s) - ee * sf(k1)
    # D(X || X + s): atoms k < s (no mass under X + s) and k >= s with loss < -eps
    t2 = _threshold(log_ratio, s, -eps, sup)
    assert t2 is not None  # sup > 0 >= -eps
    k2 = t2 - 1  # largest k with loss <= -eps (or s - 1)
    # atoms with loss exactly -eps contribute 0, so including them is harmless
    d2 = cdf(k2) - ee * cdf(k2 - s)
    return max(d1, d2, mpmath.mpf(0))


def poisson_mechanism_delta(eps: Real, lam: Real, sensitivity: int = 1) -> mpmath.mpf:
    """Exact delta(eps) of the ``Poi(lambda)`` mechanism for Delta-summation (max over shifts)."""
    smax = positive_int(sensitivity, "sensitivity")
    with mpmath.workdps(DPS):
        e = mpf(eps, "eps")
        if e < 0:
            raise ValueError("eps must be >= 0")
        lm = positive(lam, "lambda")
        log_lm = mpmath.log(lm)

        def cdf(k: int) -> mpmath.mpf:
            if k < 0:
                return mpmath.mpf(0)
            return mpmath.gammainc(k + 1, lm, mpmath.inf, regularized=True)

        def sf(k: int) -> mpmath.mpf:
            if k <= 0:
                return mpmath.mpf(1)
            return mpmath.gammainc(k, 0, lm, regularized=True)

        worst = mpmath.mpf(0)
        for s in range(1, smax + 1):
            def log_ratio(k: int, s: int = s) -> mpmath.mpf:
                # log(Poi(k - s) / Poi(k)) = log(k! / (k - s)!) - s log(lambda)
                return mpmath.loggamma(k + 1) - mpmath.loggamma(k - s + 1) - s * log_lm

            worst = max(worst, _shift_delta(e, s, log_ratio, cdf, sf, mpmath.inf))
        return worst


def negative_binomial_mechanism_delta(eps: Real, r: Real, p: Real, sensitivity: int = 1
                                      ) -> mpmath.mpf:
    """Exact delta(eps) of the ``NB(r, p)`` mechanism for Delta-summation; needs r >= 1 (then the
    privacy loss is monotone in the output)."""
    smax = positive_int(sensitivity, "sensitivity")
    with mpmath.workdps(DPS):
        e = mpf(eps, "eps")
        if e < 0:
            raise ValueError("eps must be >= 0")
        rr = mpf(r, "r")
        if rr < 1:
            raise ValueError("r must be >= 1 (the loss is monotone only then)")
        pp = probability(p, "p")
        log_p = mpmath.log(pp)

        cdf, sf = _nb_tails(rr, pp)

        worst = mpmath.mpf(0)
        for s in range(1, smax + 1):
            def log_ratio(k: int, s: int = s) -> mpmath.mpf:
                # log NB(k - s) - log NB(k)
                return (mpmath.loggamma(k - s + rr) - mpmath.loggamma(k - s + 1)
                        - mpmath.loggamma(k + rr) + mpmath.loggamma(k + 1) - s * log_p)

            worst = max(worst, _shift_delta(e, s, log_ratio, cdf, sf, -s * log_p))
        return worst


def _nb_tails(r: mpmath.mpf, p: mpmath.mpf
              ) -> tuple[Callable[[int], mpmath.mpf], Callable[[int], mpmath.mpf]]:
    """``(cdf, sf)`` of NB(r, p) by summing PMF terms outward from beyond the mode.

    (mpmath's incomplete beta does not converge for the parameters of Theorem 13.) A tail that
    starts on the far side of the mode is summed directly, term ratios ``p (k + r) / (k + 1)``
    upward and the inverse downward, until a term is below 10^-(DPS+10) of the sum; a tail that
    contains the mode is one minus the opposite tail. Exact to the working precision.
    """
    mode = int(mpmath.floor((r - 1) * p / (1 - p))) if r > 1 else 0
    log_norm = r * mpmath.log1p(-p) - mpmath.loggamma(r)
    log_p = mpmath.log(p)
    eps_rel = mpmath.mpf(10) ** -(DPS + 10)

    def log_pmf(k: int) -> mpmath.mpf:
        return mpmath.loggamma(k + r) - mpmath.loggamma(k + 1) + k * log_p + log_norm

    def upper_from(k: int) -> mpmath.mpf:  # sum_{j >= k}, k > mode
        term = mpmath.exp(log_pmf(k))
        total = term
        j = k
        while term > eps_rel * total:
            term = term * p * (j + r) / (j + 1)
            total += term
            j += 1
        return total

    def lower_to(k: int) -> mpmath.mpf:  # sum_{j <= k}, k < mode
        term = mpmath.exp(log_pmf(k))
        total = term
        j = k
        while j > 0 and term > eps_rel * total:
            term = term * j / (p * (j - 1 + r))
            total += term
            j -= 1
        return total

    def cdf(k: int) -> mpmath.mpf:
        if k < 0:
            return mpmath.mpf(0)
        return lower_to(k) if k < mode else 1 - upper_from(k + 1)

    def sf(k: int) -> mpmath.mpf:
        if k <= 0:
            return mpmath.mpf(1)
        return upper_from(k) if k > mode else 1 - lower_to(k - 1)

    return cdf, sf


@dataclass(frozen=True)
class MinimalParameter:
    """An exact minimal noise parameter: ``value`` (decimal, rounded up), the bisection bracket's
    upper end, delta at the published value, and the sufficient value from the theorem."""

    value: str
    exact: mpmath.mpf
    delta_at_value: mpmath.mpf
    theorem_value: mpmath.mpf


#: the most significant digits a minimal parameter may be asked for: the bisection stops at a
#: relative width of 10^-(digits+2), which a 40-digit (DPS) search can reach only with a margin
MAX_DIGITS = 30


def _digits(digits: int) -> int:
    d = positive_int(digits, "digits")
    if d > MAX_DIGITS:
        raise ValueError(f"digits must be at most {MAX_DIGITS} (the search runs at {DPS} digits),"
                         f" got {d}")
    return d


def _minimise(delta_of: Callable[[mpmath.mpf], mpmath.mpf], target: mpmath.mpf,
              start: mpmath.mpf, floor: mpmath.mpf, digits: int) -> tuple[str, mpmath.mpf,
                                                                           mpmath.mpf]:
    hi = start
    while delta_of(hi) > target:
        hi *= 2
    lo = max(hi / 2, floor)
    while lo > floor and delta_of(lo) <= target:
        hi, lo = lo, max(lo / 2, floor)
    tol = mpmath.mpf(10) ** -(digits + 2)
    while hi - lo > tol * hi:
        mid = (lo + hi) / 2
        if delta_of(mid) <= target:
            hi = mid
        else:
            lo = mid
    published = round_up(hi, digits)
    at = delta_of(mpf(published))
    if at > target:  # pragma: no cover - monotone by post-processing
        raise ArithmeticError("rounded parameter fails the target")
    return published, hi, at


def minimal_poisson_lambda(eps: Real, delta: Real, sensitivity: int = 1, digits: int = 10
                           ) -> MinimalParameter:
    """The smallest lambda making ``Poi(lambda)`` (eps, delta)-DP for Delta-summation, exactly."""
    with mpmath.workdps(DPS):
        digits = _digits(digits)
        e = positive(eps, "eps")
        d = _delta_arg(delta)
        thm = theorem11_lambda(e, d, sensitivity)
        value, exact, at = _minimise(lambda lm: poisson_mechanism_delta(e, lm, sensitivity), d,
                                     thm, mpmath.mpf("1e-6"), digits)
        return MinimalParameter(value, exact, at, thm)


def minimal_negative_binomial_r(eps: Real, delta: Real, p: Real | None = None,
                                sensitivity: int = 1, digits: int = 10) -> MinimalParameter:
    """The smallest r >= 1 making ``NB(r, p)`` (eps, delta)-DP, for ``p`` (default: Theorem 13's)."""
    with mpmath.workdps(DPS):
        digits = _digits(digits)
        e = positive(eps, "eps")
        d = _delta_arg(delta)
        p13, r13 = theorem13_parameters(e, d, sensitivity)
        pp = p13 if p is None else probability(p, "p")
        if negative_binomial_mechanism_delta(e, 1, pp, sensitivity) <= d:
            at = negative_binomial_mechanism_delta(e, 1, pp, sensitivity)
            return MinimalParameter("1", mpmath.mpf(1), at, r13)
        value, exact, at = _minimise(
            lambda r: negative_binomial_mechanism_delta(e, r, pp, sensitivity), d,
            r13 if p is None else mpmath.mpf(10), mpmath.mpf(1), digits)
        return MinimalParameter(value, exact, at, r13)


def geometric_tail(eps1: Real, sensitivity: int = 1) -> mpmath.mpf:
    """``P[NB(1, e^{-eps1}) > Delta] = e^{-eps1 (Delta + 1)}``: the delta3 of Theorem 18 when the
    negative noise D2 is geometric (the choice of [GKMP20] sec. 5.1)."""
    s = positive_int(sensitivity, "sensitivity")
    with mpmath.workdps(DPS):
        return mpmath.exp(-positive(eps1, "eps1") * (s + 1))


def correlated_mechanism_guarantee(eps1: Real, eps2: Real, r: Real, p: Real,
                                   sensitivity: int = 1) -> tuple[mpmath.mpf, mpmath.mpf]:
    """(eps, delta) of the (D1, D2, D3)-correlated distributed mechanism via Theorem 18 with the
    choices of [GKMP20] sec. 4.1 / 5.1: D1 = D2 = NB(1, e^{-eps1}) (so D1 - D2 = DLap(eps1),
    eps1-DP for binary summation), D3 = NB(r, p) (its (eps2, delta2) computed exactly for
    Delta-summation) and delta3 = P[D2 > Delta] = e^{-eps1 (Delta + 1)} (:func:`geometric_tail`).
    """
    d2 = negative_binomial_mechanism_delta(eps2, r, p, sensitivity)
    d3 = geometric_tail(eps1, sensitivity)
    return theorem18_guarantee(eps1, eps2, min(d2, mpmath.mpf(1)), d3)
