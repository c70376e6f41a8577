"""The utility experiments of sec. 3.1 and App. B of [SA2] (seed 001), recomputed.

Three ways to estimate a distribution over an alphabet of size ``d`` from a population of ``n``
devices, when at most ``m`` devices may report for each of ``K`` tasks that share one
``(eps, delta)`` budget (sec. 3.1, "We consider the standard task of building a histogram"):

* **NonPriv**: the sampled devices' one-hot vectors are summed, no noise;
* **Agg** (an aggregator alone, the sample is known to the server): the count vector gets Gaussian
  noise ``N(0, sigma^2 I_d)``; the K tasks compose, and K Gaussian mechanisms of L2 sensitivity 1
  compose exactly into one Gaussian mechanism of sensitivity ``sqrt(K)``, so ``sigma`` is the
  analytic-Gaussian calibration ([BW18] Thm 8, :func:`dpspec.spec.accounting.gaussian.
  calibrate_gaussian_sigma`) at sensitivity ``sqrt(K)``;
* **SampAgg** (the samplable anonymous aggregator of sec. 3): each task Poisson-samples devices at
  rate ``q`` and the sample stays secret, so ``sigma`` is the smallest noise whose K-fold
  Poisson-subsampled Gaussian is ``(eps, delta)``-DP by the moments accountant
  (:func:`dpspec.spec.accounting.subsampling.subsampled_gaussian_epsilon`), found here by
  bisection and rounded up (or Agg's sigma when that is smaller, :func:`sampagg_noise`).

Neighbouring datasets differ by adding or removing one device (the relation under which Poisson
amplification holds), so one device changes the count vector by one one-hot vector: L2
sensitivity 1 for all three.

Error model. The error of an estimate ``p_hat`` of the distribution ``p`` is the expected squared
L2 error ``E ||p_hat - p||^2``. A sample of ``m`` i.i.d. draws from ``p`` normalised by ``m`` has
sampling error ``(1 - ||p||^2) / m`` (the multinomial variance; the paper's footnote 5 calls it
"approximately 1/m"); Gaussian noise of standard deviation ``sigma`` on each of the ``d`` counts
adds ``d sigma^2 / m^2``. For the private algorithms the estimate is normalised by the expected
sample size ``m = q n``. Both terms are closed forms evaluated in mpmath at 40 digits; no
simulation is involved. Every public function sets that precision itself (``workdps``), so no
result depends on the caller's global ``mp.dps``.

Counting needles (sec. 3.1, last paragraph; Fig. 3 and App. B Figs. 6-8): a fraction ``s`` of the
devices hold a non-default value in ``{1..d}`` (distributed as ``p``), the rest hold the default 0,
and the target is the distribution of the non-default values. With *uniform* sampling at rate
``m / n``, about ``s m`` samples are useful; with *importance sampling* the non-default values are
sampled at rate ``beta = min(1, m / (2 s n))`` and the default at the rate that brings the expected
sample size to ``m`` (so, when ``beta < 1``, half the samples are useful). An aggregator alone cannot
privatise importance sampling (whether a device reports reveals its value), so Agg uses uniform
sampling; SampAgg can, and its amplification is governed by the largest per-device rate
(``beta``, the rate of the devices holding a needle; the RDP of the subsampled Gaussian increases
with q). The error counts the useful samples ``m_u`` (``s m`` or ``beta s n``):
``(1 - ||p||^2) / m_u + d sigma^2 / m_u^2``.

Sec. 3.1's sampling gain (:func:`sampling_gain`): T steps, each on a q-fraction of the devices and
``(eps0, delta0)``-DP. When the sample is known, a device takes part in about ``qT`` steps and
advanced composition over them gives the total; when it is secret, each step is first amplified to
``(log(1 + q(e^eps0 - 1)), q delta0)`` and composition runs over all T steps. Both use
:func:`dpspec.spec.accounting.composition.advanced_composition` with the same slack.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import mpmath

from dpspec.spec.accounting import composition, gaussian, subsampling
from dpspec.spec.accounting.numeric import DPS, round_up, smallest_int
from dpspec.spec.sa2.privacy import at_dps

#: every public function computes at DPS digits, whatever the caller's global mp.dps
_precise = at_dps(DPS)

#: Renyi orders for the moments accountant here: integer orders, so every RDP is the exact finite
#: sum of [MTZ19] (fractional orders need quadrature and would make a sweep take minutes).
ORDERS: tuple[int, ...] = (2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 28, 32, 40, 48, 56, 64,
                           80, 96, 128, 160, 192, 256, 384, 512, 768, 1024)

#: significant digits of a published (rounded-up) sigma
SIGMA_DIGITS = 5

DISTRIBUTIONS = ("uniform", "zipf")


class ExperimentError(ValueError):
    """Invalid experiment parameters."""


def _mpf(x: Fraction | int) -> mpmath.mpf:
    x = Fraction(x)
    return mpmath.mpf(x.numerator) / x.denominator


# -- privacy calibrations (all through dpspec.spec.accounting) ---------------------------------
@functools.cache
@_precise
def agg_sigma(eps: Fraction, delta: Fraction, tasks: int) -> mpmath.mpf:
    """Agg's noise: the analytic Gaussian at sensitivity sqrt(K) ([BW18] Algorithm 1), rounded up."""
    sens = f"sqrt({tasks})"
    cal = gaussian.calibrate_gaussian_sigma(_frac_str(eps), _frac_str(delta), sens,
                                            digits=max(10, SIGMA_DIGITS))
    return round_up_mpf(mpmath.mpf(cal.sigma))


def _frac_str(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


@_precise
def round_up_mpf(x: mpmath.mpf, digits: int = SIGMA_DIGITS) -> mpmath.mpf:
    """``x`` rounded up to ``digits`` significant digits (:func:`accounting.numeric.round_up`)."""
    return mpmath.mpf(round_up(x, digits))


@_precise
def sampagg_epsilon(q: Fraction, sigma: mpmath.mpf, tasks: int, delta: Fraction) -> mpmath.mpf:
    """The moments-accountant epsilon of K Poisson-subsampled Gaussian steps ([ACGMMTZ16])."""
    eps, _ = subsampling.subsampled_gaussian_epsilon(_frac_str(q), str(sigma), tasks,
                                                     _frac_str(delta), orders=ORDERS)
    return eps


@functools.cache
@_precise
def sampagg_sigma(q: Fraction, eps: Fraction, delta: Fraction, tasks: int) -> mpmath.mpf:
    """SampAgg's noise: the smallest sigma (to 1e-4 relative, then rounded up to
    :data:`SIGMA_DIGITS` digits) whose K-step moments-accountant epsilon is at most ``eps``.

    Bisection on log sigma; epsilon decreases with sigma. The rounded value is checked again.
    """
    if not 0 < q <= 1:
        raise ExperimentError(f"sampling rate must be in (0, 1], got {q}")
    target = _mpf(eps)

    def ok(s: mpmath.mpf) -> bool:
        return bool(sampagg_epsilon(q, s, tasks, delta) <= target)

    hi = mpmath.mpf(1)
    while not ok(hi):
        hi *= 2
        if hi > 10**7:  # pragma: no cover - only for absurd parameters
            raise ExperimentError("no sigma below 1e7 reaches the target epsilon")
    lo = hi / 2
    while ok(lo):
        hi, lo = lo, lo / 2
        if lo < mpmath.mpf("1e-4"):
            break
    while hi / lo > 1 + mpmath.mpf("1e-4"):
        mid = mpmath.sqrt(lo * hi)
        if ok(mid):
            hi = mid
        else:
            lo = mid
    published = round_up_mpf(hi)
    if not ok(published):  # pragma: no cover - rounding up only adds noise
        raise ArithmeticError("rounded sigma fails the target")
    return published


@_precise
def sampagg_noise(q: Fraction, eps: Fraction, delta: Fraction, tasks: int) -> mpmath.mpf:
    """SampAgg's noise: the smaller of :func:`sampagg_sigma` and :func:`agg_sigma`.

    Given its (secret) sample, SampAgg's release is the same Gaussian mechanism as Agg's, so Agg's
    analysis is valid for it too; it wins when q is close to 1 (no amplification left to gain, and
    the analytic Gaussian is tighter than the Renyi conversion).
    """
    return min(sampagg_sigma(q, eps, delta, tasks), agg_sigma(eps, delta, tasks))


# -- distributions ------------------------------------------------------------------------
@_precise
def collision_probability(distribution: str, d: int) -> mpmath.mpf:
    """``||p||^2`` of the uniform distribution (1/d) or of Zipf's law ``p_j ~ 1/j`` on ``d`` values."""
    with mpmath.workdps(DPS):
        if distribution == "uniform":
            return mpmath.mpf(1) / d
        if distribution == "zipf":
            h1 = mpmath.fsum(mpmath.mpf(1) / j for j in range(1, d + 1))
            h2 = mpmath.fsum(mpmath.mpf(1) / (j * j) for j in range(1, d + 1))
            return h2 / (h1 * h1)
    raise ExperimentError(f"unknown distribution {distribution!r}; known: {DISTRIBUTIONS}")


@_precise
def estimate_error(useful: mpmath.mpf, collision: mpmath.mpf, d: int,
                   sigma: mpmath.mpf) -> mpmath.mpf:
    """``(1 - ||p||^2) / m_u + d sigma^2 / m_u^2`` (module docstring), at :data:`DPS` digits."""
    with mpmath.workdps(DPS):
        return (1 - collision) / useful + d * sigma * sigma / (useful * useful)


# -- the two experiments ------------------------------------------------------------------------
@dataclass(frozen=True)
class Setting:
    """One panel: the alphabet, population, tasks and budget; ``sparsity`` None for Fig. 2 / 5
    (every device holds a value), a fraction in (0, 1) for counting needles (Fig. 3, 6-8)."""

    d: int
    n: int
    tasks: int
    eps: Fraction
    delta: Fraction
    distribution: str = "uniform"
    sparsity: Fraction | None = None

    def __post_init__(self) -> None:
        if self.d < 2 or self.n < 2 or self.tasks < 1:
            raise ExperimentError("need d >= 2, n >= 2 and K >= 1")
        if not 0 < self.eps <= 50 or not 0 < self.delta < 1:
            raise ExperimentError("need 0 < eps <= 50 and 0 < delta < 1")
        if self.sparsity is not None and not 0 < self.sparsity < 1:
            raise ExperimentError("the sparsity must lie in (0, 1)")
        if self.distribution not in DISTRIBUTIONS:
            raise ExperimentError(f"unknown distribution {self.distribution!r}")

    def describe(self) -> str:
        s = f"d = {self.d}, n = {self.n}, K = {self.tasks}, eps = {_dec(self.eps)}, " \
            f"delta = {_dec(self.delta)}, {self.distribution}"
        if self.sparsity is not None:
            s += f", s = {_dec(self.sparsity)}"
        return s


@dataclass(frozen=True)
class Point:
    """The three (or, for needles, four) errors at one ``m`` with the noise scales used."""

    m: int
    nonpriv: mpmath.mpf
    agg: mpmath.mpf
    sampagg: mpmath.mpf
    sigma_agg: mpmath.mpf
    sigma_sampagg: mpmath.mpf
    q_sampagg: Fraction
    nonpriv_uniform: mpmath.mpf | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@_precise
def histogram_point(st: Setting, m: int) -> Point:
    """Fig. 2 / Fig. 5 at one ``m``: NonPriv, Agg (analytic Gaussian), SampAgg (moments accountant)."""
    if st.sparsity is not None:
        return needles_point(st, m)
    if not 1 <= m <= st.n:
        raise ExperimentError(f"m must lie in [1, n], got {m}")
    q = Fraction(m, st.n)
    col = collision_probability(st.distribution, st.d)
    mm = mpmath.mpf(m)
    s_agg = agg_sigma(st.eps, st.delta, st.tasks)
    s_samp = sampagg_noise(q, st.eps, st.delta, st.tasks)
    zero = mpmath.mpf(0)
    return Point(m, estimate_error(mm, col, st.d, zero), estimate_error(mm, col, st.d, s_agg),
                 estimate_error(mm, col, st.d, s_samp), s_agg, s_samp, q)


@_precise
def importance_rates(n: int, s: Fraction, m: int) -> tuple[Fraction, Fraction]:
    """``(alpha, beta)``: the default value's and the needles' sampling rates (module docstring)."""
    needles = s * n
    beta = min(Fraction(1), Fraction(m) / (2 * needles))
    alpha = (Fraction(m) - beta * needles) / (n - needles)
    if not 0 <= alpha <= 1:
        raise ExperimentError(f"m = {m} cannot be sampled from n = {n} devices")
    return alpha, beta


@_precise
def needles_point(st: Setting, m: int) -> Point:
    """Fig. 3 / Figs. 6-8 at one ``m`` (module docstring: counting needles)."""
    assert st.sparsity is not None
    if not 1 <= m <= st.n:
        raise ExperimentError(f"m must lie in [1, n], got {m}")
    s = st.sparsity
    col = collision_probability(st.distribution, st.d)
    alpha, beta = importance_rates(st.n, s, m)
    useful_uniform = _mpf(s * m)
    useful_importance = _mpf(beta * s * st.n)
    q_max = max(alpha, beta)
    s_agg = agg_sigma(st.eps, st.delta, st.tasks)
    s_samp = sampagg_noise(q_max, st.eps, st.delta, st.tasks)
    zero = mpmath.mpf(0)
    return Point(
        m, estimate_error(useful_importance, col, st.d, zero),
        estimate_error(useful_uniform, col, st.d, s_agg),
        estimate_error(useful_importance, col, st.d, s_samp), s_agg, s_samp, q_max,
        nonpriv_uniform=estimate_error(useful_uniform, col, st.d, zero),
        extra={"alpha": alpha, "beta": beta})


@_precise
def sweep(st: Setting, ms: Sequence[int]) -> list[Point]:
    """The points of one panel (``m`` values that the population cannot supply are skipped)."""
    return [histogram_point(st, m) for m in ms if m <= st.n]


# -- sec. 3.1: the sampling gain -------------------------------------------------------------------
@dataclass(frozen=True)
class Gain:
    """Sec. 3.1's comparison for one (eps0, delta0, q, T) (see :func:`sampling_gain`)."""

    participations: int
    eps_known: mpmath.mpf
    delta_known: mpmath.mpf
    eps_step_amplified: mpmath.mpf
    delta_step_amplified: mpmath.mpf
    eps_secret: mpmath.mpf
    delta_secret: mpmath.mpf
    ratio: mpmath.mpf
    runs_known: int | None
    runs_secret: int | None


#: the largest number of runs :func:`_max_runs` probes
_RUNS_CAP = 10**12


def _max_runs(steps: int, eps: mpmath.mpf, delta: mpmath.mpf, slack: Fraction,
              budget: Fraction, budget_delta: Fraction) -> int:
    """The largest M such that advanced composition over ``M * steps`` steps stays within
    ``(budget, budget_delta)`` (0 if not even one run fits); doubling then bisection, both sides
    monotone. Counts are probed up to :data:`_RUNS_CAP` only."""
    def fits(runs: int) -> bool:
        e, d = composition.advanced_composition(eps, delta, runs * steps, _frac_str(slack))
        return bool(e <= _mpf(budget) and d <= _mpf(budget_delta))

    first_misfit = smallest_int(lambda runs: not fits(runs), 1, cap=_RUNS_CAP)
    if first_misfit is None:  # pragma: no cover - every power of two up to the cap fits
        return 1 << (_RUNS_CAP.bit_length() - 1)  # the largest one, a lower bound on M
    return first_misfit - 1


@_precise
def sampling_gain(eps0: Fraction, delta0: Fraction, q: Fraction, steps: int, slack: Fraction,
                  budget: Fraction | None = None,
                  budget_delta: Fraction | None = None) -> Gain:
    """Sec. 3.1 of [SA2]: T steps on a q-fraction, each ``(eps0, delta0)``-DP.

    * known sample: advanced composition ([DRV10]) over ``ceil(q T)`` participations (the paper's
      "on average qT steps"; a device may take part in more, so this side is optimistic);
    * secret sample: Poisson amplification (SA2 Theorem 3) of each step, then advanced composition
      over all T steps.

    ``ratio`` is ``eps_known / eps_secret`` (the paper: about ``1/sqrt(q)``). With a ``budget``,
    also the number of such T-step algorithms that fit in ``(budget, budget_delta)`` under advanced
    composition of all their steps (the paper: about ``1/q`` times as many when the sample is secret).
    """
    if not 0 < q <= 1 or steps < 1:
        raise ExperimentError("need 0 < q <= 1 and T >= 1")
    part = max(1, math.ceil(q * steps))
    e0, d0 = _frac_str(eps0), _frac_str(delta0)
    ek, dk = composition.advanced_composition(e0, d0, part, _frac_str(slack))
    ea, da = subsampling.poisson_amplification(e0, d0, _frac_str(q))
    es, ds = composition.advanced_composition(ea, da, steps, _frac_str(slack))
    runs_k = runs_s = None
    if budget is not None:
        bd = budget_delta if budget_delta is not None else Fraction(1, 10**6)
        with mpmath.workdps(40):
            runs_k = _max_runs(part, _mpf(eps0), _mpf(delta0), slack, budget, bd)
            runs_s = _max_runs(steps, ea, da, slack, budget, bd)
    return Gain(part, ek, dk, ea, da, es, ds, ek / es, runs_k, runs_s)


@_precise
def gaussian_gain(sigma: Fraction, q: Fraction, steps: int, delta: Fraction) -> dict[str, mpmath.mpf]:
    """The same comparison by numerical accounting, as in Example 5 of [SA2]: a Gaussian step of
    noise multiplier ``sigma``; known sample: the ``ceil(qT)`` (and, for reference, all ``T``)
    participations compose into one Gaussian of sensitivity ``sqrt(participations)`` ([BW18]);
    secret sample: the moments accountant over T Poisson-subsampled steps."""
    part = max(1, math.ceil(q * steps))
    s, dl = _frac_str(sigma), _frac_str(delta)
    known = gaussian.gaussian_epsilon(dl, s, f"sqrt({part})")
    every = gaussian.gaussian_epsilon(dl, s, f"sqrt({steps})")
    secret = sampagg_epsilon(q, _mpf(sigma), steps, delta)
    one = gaussian.gaussian_epsilon(dl, s)
    amp, _ = subsampling.poisson_amplification(one, dl, _frac_str(q))
    return {"participations": mpmath.mpf(part), "eps_known": known, "eps_all_steps": every,
            "eps_secret": secret, "eps_step": one, "eps_step_amplified": amp,
            "ratio": known / secret}


def _dec(x: Fraction) -> str:
    """A short decimal for a parameter (exact when the denominator is a power of 10)."""
    if x.denominator == 1:
        return str(x.numerator)
    d = x.denominator
    k = 0
    while d % 10 == 0:
        d //= 10
        k += 1
    if d == 1:
        if k > 4 and x.numerator == 1:
            return f"1e-{k}"
        return f"{float(x):.{k}f}"
    return f"{x.numerator}/{x.denominator}"
