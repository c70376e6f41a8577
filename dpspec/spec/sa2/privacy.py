"""Privacy statements for an SA2 protocol ``(R, Dec, B, q)`` (sec. 2.1, 3 and App. A of [SA2]).

A single-round protocol is ``(eps, delta)``-DP *in the aggregator model* if ``A_B^Dec(R(x_1), ...,
R(x_k))`` is, for every ``k`` (sec. 3); it is ``(eps', delta')``-DP *in the SA2 model* if
``SA_B^Dec(R(x_1), ..., R(x_k))`` is. The second follows from the first by privacy amplification
by Poisson sampling at rate ``q`` (Theorem 3 of [SA2], from [KLNRS08]):

    eps' = ln(1 + q (e^eps - 1)),    delta' = q delta.

The aggregator-model bound depends on the randomizer: it is a *pluggable* function ``B ->
(eps, delta)`` (:data:`AggregateBound`). This module provides the closed forms stated in [SA2]
(the classic Gaussian bound of Example 3, the analytic shuffle bound quoted in Example 4) and the
tighter numerical bounds of :mod:`dpspec.spec.accounting` (the analytic Gaussian of [BW18],
:func:`gaussian_analytic_bound`; the numerical shuffling bound of [FMT22],
:func:`shuffle_numeric_bound`), which plug in the same way.

Precision: every bound is evaluated with mpmath at ``DPS = 50`` decimal digits and returned as an
mpf; inputs are exact rationals. These are bounds, not samplers; no coin depends on them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

import mpmath

from dpspec.spec.accounting import gaussian as acc_gaussian
from dpspec.spec.lazy import lazy_module
from dpspec.spec.sa2.ideal import Rational, Sa2Error, check_cohort_size, parse_rate, parse_rational

if TYPE_CHECKING:
    from dpspec.spec.accounting import shuffle as acc_shuffle
else:
    acc_shuffle = lazy_module("dpspec.spec.accounting.shuffle")  # numpy on first use only

DPS = 50

#: An aggregator-model bound: cohort size B -> (eps, delta) for one round.
AggregateBound = Callable[[int], tuple[mpmath.mpf, mpmath.mpf]]


def _mpf(x: Rational | mpmath.mpf) -> mpmath.mpf:
    if isinstance(x, mpmath.mpf):
        return x
    value = parse_rational(x)
    return mpmath.mpf(value.numerator) / value.denominator


@dataclass(frozen=True)
class PrivacyStatement:
    """``(epsilon, delta)``-DP in ``model`` ("aggregator" or "sa2"), with how it was derived."""

    model: str
    epsilon: mpmath.mpf
    delta: mpmath.mpf
    derivation: str

    def as_strings(self, digits: int = 6) -> dict[str, str]:
        return {"model": self.model, "epsilon": mpmath.nstr(self.epsilon, digits),
                "delta": mpmath.nstr(self.delta, digits), "derivation": self.derivation}


def amplify_by_poisson_sampling(
    eps: Rational | mpmath.mpf, delta: Rational | mpmath.mpf, q: Rational
) -> tuple[mpmath.mpf, mpmath.mpf]:
    """Theorem 3 of [SA2] ([KLNRS08]): ``(ln(1 + q(e^eps - 1)), q delta)``."""
    rate = parse_rate(q)
    with mpmath.workdps(DPS):
        e, d, qq = _mpf(eps), _mpf(delta), _mpf(rate)
        if e < 0 or not 0 <= d <= 1:
            raise Sa2Error("need eps >= 0 and 0 <= delta <= 1")
        return mpmath.log1p(qq * mpmath.expm1(e)), qq * d


def gaussian_classic_epsilon(sigma: Rational, delta: Rational) -> mpmath.mpf:
    """Example 3 of [SA2]: the Gaussian with sum noise sigma^2 (sensitivity 1) is
    ``(sqrt(2 ln(1.25/delta)) / sigma, delta)``-DP (valid for eps <= 1)."""
    with mpmath.workdps(DPS):
        s, d = _mpf(sigma), _mpf(delta)
        if s <= 0 or not 0 < d < 1:
            raise Sa2Error("need sigma > 0 and 0 < delta < 1")
        return mpmath.sqrt(2 * mpmath.log(mpmath.mpf("1.25") / d)) / s


def gaussian_aggregate_bound(sigma: Rational, delta: Rational) -> AggregateBound:
    """Example 3 as an :data:`AggregateBound`: each of ``k >= B`` clients adds N(0, sigma^2/B),
    so the sum carries at least N(0, sigma^2): the bound does not depend on ``B``."""
    def bound(B: int) -> tuple[mpmath.mpf, mpmath.mpf]:
        check_cohort_size(B)
        eps = gaussian_classic_epsilon(sigma, delta)
        if eps > 1:
            raise Sa2Error(f"the classic Gaussian bound holds for eps <= 1 only (got {eps})")
        return eps, _mpf(delta)
    return bound


def shuffle_analytic_epsilon(eps0: Rational, B: int, delta: Rational) -> mpmath.mpf:
    """Example 4 of [SA2], the analytic bound of [FMT20] on shuffling ``B`` eps0-local reports:
    ``ln(1 + (e^eps0 - 1)(4 sqrt(2 ln(4/delta)) / sqrt((e^eps0 + 1) B) + 4/B))``."""
    check_cohort_size(B)
    with mpmath.workdps(DPS):
        e0, d = _mpf(eps0), _mpf(delta)
        if e0 < 0 or not 0 < d < 1:
            raise Sa2Error("need eps0 >= 0 and 0 < delta < 1")
        inner = 4 * mpmath.sqrt(2 * mpmath.log(4 / d)) / mpmath.sqrt((mpmath.exp(e0) + 1) * B)
        return mpmath.log1p(mpmath.expm1(e0) * (inner + mpmath.mpf(4) / B))


def shuffle_aggregate_bound(eps0: Rational, delta: Rational) -> AggregateBound:
    """Example 4 as an :data:`AggregateBound` (any eps0-local randomizer; aggregation is a
    post-processing of the shuffled reports)."""
    def bound(B: int) -> tuple[mpmath.mpf, mpmath.mpf]:
        return shuffle_analytic_epsilon(eps0, B, delta), _mpf(delta)
    return bound


def gaussian_analytic_bound(sigma: Rational, delta: Rational) -> AggregateBound:
    """Example 3 with the analytic Gaussian mechanism of [BW18] (``dpspec.spec.accounting.gaussian``):
    the smallest eps with ``delta(eps) <= delta`` for noise N(0, sigma^2) on a sum of
    sensitivity 1."""
    def bound(B: int) -> tuple[mpmath.mpf, mpmath.mpf]:
        check_cohort_size(B)
        return acc_gaussian.gaussian_epsilon(str(parse_rational(delta)),
                                             str(parse_rational(sigma))), _mpf(delta)
    return bound


def shuffle_numeric_bound(eps0: Rational | mpmath.mpf, delta: Rational,
                          bound: str = "fmt22") -> AggregateBound:
    """Example 4 with the numerical shuffling bound (``dpspec.spec.accounting.shuffle``, default
    [FMT22]) for ``B`` eps0-local reports; aggregation post-processes the shuffled reports."""
    def f(B: int) -> tuple[mpmath.mpf, mpmath.mpf]:
        check_cohort_size(B)
        res = acc_shuffle.shuffle_epsilon(eps0, B, str(parse_rational(delta)), bound)
        with mpmath.workdps(DPS):
            return mpmath.mpf(res.eps), _mpf(delta)
    return f


def aggregator_model(bound: AggregateBound, B: int, how: str) -> PrivacyStatement:
    """The guarantee of ``(R, Dec, B)`` in the aggregator model (sec. 3)."""
    eps, delta = bound(check_cohort_size(B))
    return PrivacyStatement("aggregator", eps, delta, how)


def sa2_model(bound: AggregateBound, B: int, q: Rational, how: str) -> PrivacyStatement:
    """The guarantee of ``(R, Dec, B, q)`` in the SA2 model: the aggregator-model bound amplified
    by Poisson sampling at rate ``q`` (Theorem 3; Examples 5 and 6 of [SA2])."""
    base = aggregator_model(bound, B, how)
    eps, delta = amplify_by_poisson_sampling(base.epsilon, base.delta, q)
    return PrivacyStatement("sa2", eps, delta, f"{how}, amplified by Poisson sampling at q = {q}")


def donation_time_bound(
    eps: Rational | mpmath.mpf, delta: Rational | mpmath.mpf, m: int
) -> tuple[mpmath.mpf, mpmath.mpf]:
    """App. A of [SA2]: each round ``(eps, delta)``-DP in the SA2 model, each device at most once,
    randomized donation time over ``m`` rounds with an aggregator that refuses collections longer
    than K. With ``eps_r = ln(1 + (e^eps - 1)/m)`` (Theorem 3 at rate 1/m) the paper's bound is

        eps' = eps_r sqrt(2 m ln(1/delta)) + m eps_r^2 / 2,    delta' = (m + 1) delta.

    (The paper's argument gives ``m (delta/m) + delta = 2 delta``; ``(m + 1) delta`` is the value it
    states, and is larger for ``m >= 1``, so both are valid; this returns the stated one.) It agrees
    with ``dpspec.spec.accounting.composition.randomized_donation_time`` (``eps_paper``, ``delta_paper``),
    which also gives the tighter [KOV15] composition; the tests check the agreement.
    """
    if isinstance(m, bool) or not isinstance(m, int) or m < 1:
        raise Sa2Error(f"m must be an integer >= 1, got {m!r}")
    with mpmath.workdps(DPS):
        d = _mpf(delta)
        if not 0 < d < 1:
            raise Sa2Error("need 0 < delta < 1")
        eps_r, _ = amplify_by_poisson_sampling(eps, delta, Fraction(1, m))
        eps_prime = eps_r * mpmath.sqrt(2 * m * mpmath.log(1 / d)) + m * eps_r**2 / 2
        return eps_prime, (m + 1) * d
