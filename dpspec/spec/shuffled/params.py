"""Parameter selection for the shuffled-model mechanisms of [GKMP20]: from (eps, delta, n) to the
distributions' exact rational parameters.

The privacy computations themselves (Theorem 11's lambda, Theorem 13's (p, r), the composition of
Theorem 18, the exact minimal noise parameters, the shuffled randomized-response bounds) belong to
:mod:`dpspec.spec.accounting`; this module only decides how a mechanism spends its budget and turns the
answers into rational parameters a sampler can use.

Rounding rule: every real-valued parameter is replaced by a rational that is never less private,
because the rounded noise is the exact noise plus independent noise (post-processing):

* Poisson: ``Poi(l') = Poi(l) + Poi(l' - l)`` for ``l' >= l``, so lambda is rounded up;
* negative binomial, r: ``NB(r', p) = NB(r, p) + NB(r' - r, p)`` for ``r' >= r``, so r is rounded up;
* negative binomial, p: for ``p' >= p``, ``NB(r, p') = NB(r, p) + X`` with X independent: the ratio
  of generating functions ``((1-p') (1-pz) / ((1-p) (1-p'z)))^r = exp(r sum_k (p'^k - p^k)(z^k - 1)/k)``
  is that of a compound Poisson law (its Levy measure ``(p'^k - p^k)/k`` is non-negative), so p is
  rounded up;
* the discrete-Laplace decay ``a`` of ``D1 = D2 = NB(1, a)`` is rounded up, which lowers
  ``eps1 = ln(1/a)`` (``NB(1, a)`` then only grows, by the previous point).

The correlated mechanism (sec. 4.1 and 5.1 of [GKMP20])
    D1 = D2 = NB(1, a), so D1 - D2 is the discrete Laplace with decay a: ``eps1 = ln(1/a)``-DP
    (first condition of Theorem 18). As in the paper's experiments, a is chosen so that the RMSE is
    a fixed factor (default 1.2) above the central ``DLap(eps)`` mechanism's; the rest of the
    budget, ``eps2 = eps - eps1``, goes to D3.
    Theorem 18 as stated in seed 004 bounds ``P[Y > Delta]`` for Y ~ D3 in its third condition;
    the proof sketch (and the role of the condition: Z2 is what the correlated noise must hide)
    show it is D2 that must be concentrated, ``P[D2 > Delta] <= delta3``. We use D2. For
    ``D2 = NB(1, a)`` this is exact: ``P[D2 > Delta] = a^(Delta+1)``.
    The total is ``(eps1 + eps2, e^eps1 delta2 + 2 e^(2 eps1) delta3)``. For each Delta starting at
    the smallest one for which ``delta2 > 0`` remains, ``delta3 = a^(Delta+1)`` exactly and the rest
    of delta goes to delta2; D3 is the cheapest negative binomial (fewest expected messages) that is
    ``(eps2, delta2)``-DP for Delta-summation, and the Delta giving the fewest messages is kept.
    Theorem 18 is only sufficient: the exact design (:func:`design_correlated_exact`) keeps the same
    D1 = D2 and chooses D3 by the mechanism's exact privacy curve (:mod:`dpspec.spec.shuffled.exact`),
    which needs far less D3 noise.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeAlias

import mpmath

from dpspec.spec.distributions import to_mpf
from dpspec.spec.shuffled import accuracy as acc
from dpspec.spec.shuffled import exact
from dpspec.spec.shuffled.counting import CorrelatedMechanism, DistributedMechanism
from dpspec.spec.shuffled.divisible import Divisible, NegativeBinomial, ParameterError, Poisson, geometric

DPS = 40  # working precision (decimal digits) of the real-valued computations here
DEFAULT_RMSE_FACTOR = Fraction(6, 5)  # sec. 5.1 of [GKMP20]: RMSE 20% above central DLap(eps)
DECAY_DIGITS = 12  # the rational decay a has this many digits after the decimal point

Real: TypeAlias = "mpmath.mpf | Fraction | int"


def _mpf(x: Real) -> mpmath.mpf:
    return x if isinstance(x, mpmath.mpf) else to_mpf(x)


def decimal_up(x: Real, digits: int) -> Fraction:
    """The smallest multiple of ``10^-digits`` that is ``>= x``."""
    with mpmath.workdps(DPS + digits):
        scaled = mpmath.ceil(_mpf(x) * mpmath.mpf(10) ** digits)
    return Fraction(int(scaled), 10**digits)


def decimal_down(x: Real, digits: int) -> Fraction:
    """The largest multiple of ``10^-digits`` that is ``<= x``."""
    with mpmath.workdps(DPS + digits):
        scaled = mpmath.floor(_mpf(x) * mpmath.mpf(10) ** digits)
    return Fraction(int(scaled), 10**digits)


def epsilon_of_decay(a: Fraction) -> mpmath.mpf:
    """``ln(1/a)``: the pure DP of the discrete Laplace with decay ``a`` for sensitivity 1."""
    with mpmath.workdps(DPS):
        return -mpmath.log(to_mpf(a))


def correlated_decay(epsilon: Real, rmse_factor: Fraction = DEFAULT_RMSE_FACTOR) -> Fraction:
    """The rational decay ``a`` of ``D1 = D2 = NB(1, a)``: the RMSE ``sqrt(2a)/(1-a)`` of the
    correlated mechanism is ``rmse_factor`` times the central ``DLap(eps)`` RMSE, rounded up
    to ``DECAY_DIGITS`` decimals (so the RMSE is at least that and ``eps1`` at most that)."""
    if rmse_factor < 1:
        raise ParameterError("the RMSE factor must be >= 1")
    with mpmath.workdps(DPS):
        target = (to_mpf(rmse_factor) * acc.central_dlap_rmse(_mpf(epsilon), DPS)) ** 2
        a = acc.dlap_decay_for_variance(target, DPS)
    return decimal_up(a, DECAY_DIGITS)


#: Chooses D3: (eps2, delta2, Delta) -> a negative binomial that is (eps2, delta2)-DP for
#: Delta-summation, or None if there is none (in the chooser's family).
D3Chooser = Callable[[mpmath.mpf, mpmath.mpf, int], NegativeBinomial | None]


@dataclass(frozen=True)
class Theorem18Split:
    """How a Theorem 18 design spends the budget: ``eps2`` and ``delta2`` for the D3 mechanism on
    Delta-summation, ``delta3 = P[D2 > Delta] = a^(Delta+1)``."""

    epsilon2: mpmath.mpf
    sensitivity: int
    delta2: mpmath.mpf
    delta3: mpmath.mpf


@dataclass(frozen=True)
class CorrelatedDesign:
    """The parameters of a (D1, D2, D3)-correlated mechanism with ``D1 = D2 = NB(1, a)``."""

    epsilon: mpmath.mpf  # the target
    delta: mpmath.mpf
    n: int
    a: Fraction
    d3: Divisible  # NB(r, p), or Poi(0) (no D3) when none is needed
    method: str  # how D3 was chosen (and hence how the guarantee is proven)
    split: Theorem18Split | None  # None for the exact design

    @property
    def epsilon1(self) -> mpmath.mpf:
        """``ln(1/a)``: the privacy of ``D1 - D2`` on its own."""
        return epsilon_of_decay(self.a)

    @property
    def d1(self) -> NegativeBinomial:
        return geometric(self.a)

    @property
    def d2(self) -> NegativeBinomial:
        return geometric(self.a)

    def mechanism(self) -> CorrelatedMechanism:
        return CorrelatedMechanism(self.d1, self.d2, self.d3, self.n)

    def mse(self) -> Fraction:
        return acc.mse_correlated(self.d1, self.d2)

    def expected_messages(self) -> Fraction:
        """Observation 17's bound (input 1)."""
        return acc.expected_messages_correlated(self.d1, self.d2, self.d3, self.n)

    def exact_delta(self) -> float:
        """The mechanism's exact delta at the target epsilon (:mod:`dpspec.spec.shuffled.exact`)."""
        return exact.correlated_delta(float(self.epsilon), self.a, self.d3)


def design_correlated_exact(epsilon: Real, delta: Real, n: int,
                            rmse_factor: Fraction = DEFAULT_RMSE_FACTOR,
                            decay: Fraction | None = None) -> CorrelatedDesign:
    """D1 = D2 = NB(1, a) with a from the RMSE factor (or ``decay`` when given), and the negative
    binomial D3 with the fewest expected messages for which the whole mechanism is exactly
    (eps, delta)-DP (:func:`dpspec.spec.shuffled.exact.minimal_correlated_d3`)."""
    eps, dlt = _mpf(epsilon), _mpf(delta)
    if eps <= 0 or not 0 < dlt < 1:
        raise ParameterError("need epsilon > 0 and 0 < delta < 1")
    a = correlated_decay(eps, rmse_factor) if decay is None else decay
    d3: Divisible
    if exact.correlated_delta(float(eps), a, Poisson(0)) <= float(dlt):
        d3 = Poisson(0)  # delta >= 1 - a: D1 - D2 alone is private enough
    else:
        d3 = exact.minimal_correlated_d3(float(eps), float(dlt), a)
    return CorrelatedDesign(eps, dlt, n, a, d3, "exact privacy curve of the mechanism", None)


def design_correlated(epsilon: Real, delta: Real, n: int, choose_d3: D3Chooser, method: str,
                      rmse_factor: Fraction = DEFAULT_RMSE_FACTOR,
                      max_extra_sensitivity: int = 6,
                      decay: Fraction | None = None) -> CorrelatedDesign:
    """A Theorem 18 design: split the budget as described in the module docstring and pick D3
    with ``choose_d3``; ``decay`` fixes ``a`` instead of the RMSE factor.

    Tries ``Delta = Delta_min, ..., Delta_min + max_extra_sensitivity`` (stopping early once the
    expected number of D3 messages has risen twice in a row) and keeps the cheapest.
    """
    with mpmath.workdps(DPS):
        eps, dlt = _mpf(epsilon), _mpf(delta)
        if eps <= 0 or not 0 < dlt < 1:
            raise ParameterError("need epsilon > 0 and 0 < delta < 1")
        a = correlated_decay(eps, rmse_factor) if decay is None else decay
        eps1 = epsilon_of_decay(a)
        eps2 = eps - eps1
        if eps2 <= 0:
            raise ParameterError("the RMSE factor leaves no budget for D3")
        af = to_mpf(a)
        # smallest Delta with 2 e^(2 eps1) a^(Delta+1) < delta, i.e. some delta2 > 0 is left
        k = int(mpmath.floor(mpmath.log(dlt / (2 * mpmath.exp(2 * eps1))) / mpmath.log(af)))
        delta_min = max(1, k)
        while 2 * mpmath.exp(2 * eps1) * af ** (delta_min + 1) >= dlt:
            delta_min += 1
        best: CorrelatedDesign | None = None
        rises = 0
        last: Fraction | None = None
        for sens in range(delta_min, delta_min + max_extra_sensitivity + 1):
            delta3 = af ** (sens + 1)
            delta2 = (dlt - 2 * mpmath.exp(2 * eps1) * delta3) / mpmath.exp(eps1)
            d3 = choose_d3(eps2, delta2, sens)
            if d3 is None:
                continue
            cand = CorrelatedDesign(eps, dlt, n, a, d3, method,
                                    Theorem18Split(eps2, sens, delta2, delta3))
            mean = d3.mean()
            if best is None or mean < best.d3.mean():
                best = cand
            rises = rises + 1 if last is not None and mean > last else 0
            last = mean
            if rises >= 2:
                break
    if best is None:
        raise ParameterError(f"no D3 found by {method} for eps = {epsilon}, delta = {delta}")
    return best


#: sec. 4.1 of [GKMP20]: the share of epsilon given to D1 - D2 in the near-central instance
NEAR_CENTRAL_SHARE = Fraction(99, 100)


def near_central_decay(epsilon: Real) -> Fraction:
    """``a = e^(-0.99 eps)`` rounded up to ``DECAY_DIGITS`` decimals: ``D1 - D2 = DLap(eps1)`` with
    ``eps1 <= 0.99 eps`` (rounding up never spends more than 0.99 eps), leaving ``>= 0.01 eps``
    for D3."""
    with mpmath.workdps(DPS):
        return decimal_up(mpmath.exp(-to_mpf(NEAR_CENTRAL_SHARE) * _mpf(epsilon)), DECAY_DIGITS)


def design_near_central(epsilon: Real, delta: Real, n: int, choose_d3: D3Chooser | None = None,
                        method: str = "") -> CorrelatedDesign:
    """The near-central instance of sec. 4.1 of [GKMP20] (the protocol of its Theorem 1), as a
    named parameter choice: ``D1 = D2 = NB(1, a)`` with ``D1 - D2 = DLap(0.99 eps)``
    (:func:`near_central_decay`) and the remaining ``0.01 eps`` to a negative binomial D3 through
    Theorem 18: chosen by ``choose_d3`` (the paper: Theorem 13, e.g.
    ``dpspec.spec.shuffled.privacy.theorem13_noise``), or, when ``choose_d3`` is None, by the
    mechanism's exact privacy curve (:func:`design_correlated_exact` with this ``a``)."""
    a = near_central_decay(epsilon)
    if choose_d3 is None:
        return design_correlated_exact(epsilon, delta, n, decay=a)
    return design_correlated(epsilon, delta, n, choose_d3, method or "Theorem 18 + chooser",
                             decay=a)


@dataclass(frozen=True)
class DistributedDesign:
    """A D-distributed mechanism's noise and how it was chosen."""

    epsilon: mpmath.mpf
    delta: mpmath.mpf
    n: int
    noise: Divisible
    method: str

    def mechanism(self) -> DistributedMechanism:
        return DistributedMechanism(self.noise, self.n)

    def mse(self) -> Fraction:
        return acc.mse_distributed(self.noise)

    def expected_messages(self) -> Fraction:
        """Observation 10's bound (input 1)."""
        return acc.expected_messages_distributed(self.noise, self.n)
