"""Privacy statements for an SA2 protocol ``(R, Dec, B, q)`` (sec. 2.1, 3, 4.6 and App. A of [SA2]).

A single-round protocol is ``(eps, delta)``-DP *in the aggregator model* if ``A_B^Dec(R(x_1), ...,
R(x_k))`` is, for every ``k >= B`` (sec. 3); it is ``(eps', delta')``-DP *in the SA2 model* if
``SA_B^Dec(R(x_1), ..., R(x_k))`` is. The second follows from the first by amplification by
Poisson sampling at rate ``q`` (Theorem 3 of [SA2]).

One implementation of each bound. This module computes no bound itself (except the dummy-count
bound below, which :mod:`dpspec.spec.accounting` does not have): every number comes from
:mod:`dpspec.spec.accounting`, and this module only decides *which* bound applies to a randomizer
and records how the number was obtained:

* :data:`ACCOUNTANTS` -- the aggregator-model bounds a recipe may name (``privacy.accountant``),
  each with the randomizers it is proven for. ``shuffle-closed-form`` is MJTB+22 Theorem 3.1 *with
  its validity condition* (:func:`dpspec.spec.accounting.shuffle.closed_form`): outside
  ``eps0 <= log(B / (8 log(2/delta)) - 1)`` the formula is not a theorem and the valid numerical
  [FMT20] bound is used instead, as ``dpspec account shuffle --bound closed`` does;
* :func:`sa2_model` -- Theorem 3 (:func:`dpspec.spec.accounting.subsampling.poisson_amplification`);
* :func:`donation_time` -- App. A (:func:`dpspec.spec.accounting.composition.randomized_donation_time`);
* :func:`gaussian_steps` -- Example 5, the subsampled Gaussian over many rounds
  (:func:`dpspec.spec.accounting.subsampling.subsampled_gaussian_epsilon`).

Monotonicity in ``B``. The aggregator releases a sum over ``n >= B`` reports; every shuffle bound
used here is evaluated at ``n = B``, the fewest reports a release can have, and decreases in ``n``.

Precision: the shuffle bounds are binary64 upper ends of a bisection bracket
(:mod:`dpspec.spec.accounting.shuffle`); the Gaussian and amplification bounds are mpmath. A
randomizer's irrational ``eps0`` is rounded *up* to 12 significant digits before it is handed to
a shuffle bound (every bound is non-decreasing in ``eps0``, so this is conservative).

Every public function here runs at its own working precision, :data:`DPS` decimal digits
(:func:`at_working_precision`, mpmath's ``workdps``), whatever the caller's global ``mp.dps``:
a verdict or a value never depends on it (``tests/test_sa2_precision.py`` sets it to 5 and 200).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, ParamSpec, TypeVar

import mpmath

from dpspec.spec.accounting import composition, gaussian, subsampling
from dpspec.spec.accounting.numeric import bisect_int, compact, round_up, to_fraction
from dpspec.spec.lazy import lazy_module
from dpspec.spec.sa2.ideal import Sa2Error, check_cohort_size, exact, parse_rate

if TYPE_CHECKING:
    from dpspec.spec.accounting import shuffle
else:
    shuffle = lazy_module("dpspec.spec.accounting.shuffle")  # numpy on first use only

DPS = 50

_P = ParamSpec("_P")
_R = TypeVar("_R")


def at_dps(dps: int) -> Callable[[Callable[_P, _R]], Callable[_P, _R]]:
    """A decorator: run the function at ``dps`` decimal digits (``mpmath.workdps``), restoring
    the caller's precision afterwards, so that nothing it computes depends on the global
    ``mp.dps``."""
    def decorate(fn: Callable[_P, _R]) -> Callable[_P, _R]:
        @functools.wraps(fn)
        def wrapped(*args: _P.args, **kwargs: _P.kwargs) -> _R:
            with mpmath.workdps(dps):
                return fn(*args, **kwargs)
        return wrapped
    return decorate


#: :func:`at_dps` at this module's :data:`DPS`.
at_working_precision = at_dps(DPS)


@dataclass(frozen=True)
class PrivacyStatement:
    """``(epsilon, delta)``-DP in ``model`` ("aggregator" or "sa2"), with how it was derived.

    ``fallback`` is set when the requested bound did not apply and a valid one replaced it; it
    says why (e.g. the closed form's validity condition failed).
    """

    model: str
    epsilon: mpmath.mpf
    delta: mpmath.mpf
    derivation: str
    bound: str
    fallback: str = ""

    def as_strings(self, digits: int = 6) -> dict[str, str]:
        out = {"model": self.model, "epsilon": publish(self.epsilon, digits),
               "delta": publish(self.delta, digits), "derivation": self.derivation,
               "bound": self.bound}
        if self.fallback:
            out["fallback"] = self.fallback
        return out


def publish(x: mpmath.mpf, digits: int = 6) -> str:
    """A guarantee's epsilon or delta as printed: rounded *up* to ``digits`` significant digits
    (:func:`dpspec.spec.accounting.numeric.round_up`; never below the computed bound), in the
    shortest decimal form; ``"inf"`` for no guarantee."""
    if x == mpmath.inf:
        return "inf"
    return compact(round_up(x, digits))


def _mp(x: Fraction | mpmath.mpf | float) -> mpmath.mpf:
    if isinstance(x, Fraction):
        return mpmath.mpf(x.numerator) / x.denominator
    return mpmath.mpf(x)


# -- aggregator-model accountants (sec. 3, Examples 3, 4) ----------------------------------------
@dataclass(frozen=True)
class Accountant:
    """A named aggregator-model bound: ``(eps0 or sigma, B, delta) -> ShuffleResult``-like value,
    and the randomizers it is proven for."""

    name: str
    applies_to: tuple[str, ...]
    describe: str


#: Local randomizers that are eps0-LDP (replacement) and so admit the generic shuffle bounds.
LDP_RANDOMIZERS = ("binary_randomized_response", "randomized_response", "rappor")

ACCOUNTANTS: dict[str, Accountant] = {a.name: a for a in (
    Accountant("shuffle-closed-form", LDP_RANDOMIZERS,
               "MJTB+22 Theorem 3.1 (closed form of [FMT20]) where its condition holds, "
               "else the numerical [FMT20] bound"),
    Accountant("shuffle-fmt20", LDP_RANDOMIZERS,
               "numerical [FMT20] clone bound (every eps0-LDP randomizer)"),
    Accountant("shuffle-fmt22", ("binary_randomized_response",),
               "numerical [FMT22] clone bound (proven for binary randomized response)"),
    Accountant("rappor-clone", ("rappor",),
               "symmetric-RAPPOR histogram as a product of two [FMT22] clone pairs "
               "(proven for every dataset)"),
    Accountant("subsampled-gaussian", ("gaussian_vector",),
               "Example 5: the Poisson-subsampled Gaussian over the recipe's rounds, moments "
               "accountant (dpspec.spec.sa2.fl.statement)"),
)}
DEFAULT_ACCOUNTANT = "shuffle-closed-form"
#: the accountant of the federated-learning randomizer
GAUSSIAN_ACCOUNTANT = "subsampled-gaussian"


@at_working_precision
def eps0_up(eps0: mpmath.mpf) -> Fraction:
    """``eps0`` rounded up to 12 significant digits, as an exact rational."""
    return exact(round_up(eps0, 12), "eps0")


@at_working_precision
def check_applicable(accountant: str, randomizer: str) -> None:
    """Sa2Error unless ``accountant`` is known and proven for ``randomizer``."""
    acc = ACCOUNTANTS.get(accountant)
    if acc is None:
        raise Sa2Error(f"unknown accountant {accountant!r}; known: {', '.join(sorted(ACCOUNTANTS))}")
    if randomizer not in acc.applies_to:
        raise Sa2Error(f"accountant {accountant} ({acc.describe}) is not proven for randomizer "
                       f"{randomizer}; it applies to {', '.join(acc.applies_to)}")


@at_working_precision
def shuffle_statement(accountant: str, randomizer: str, eps0: mpmath.mpf, B: int,
                      delta: Fraction, *, rappor_bit_eps: mpmath.mpf | None = None
                      ) -> PrivacyStatement:
    """The aggregator-model guarantee of ``B`` shuffled reports of an eps0-LDP randomizer
    (Example 4 of [SA2]; aggregation post-processes the shuffled reports), by ``accountant``.

    ``rappor_bit_eps`` (``ln((1 - flip)/flip)``) is needed by ``rappor-clone``.
    """
    check_applicable(accountant, randomizer)
    check_cohort_size(B)
    d = parse_rate(delta, "delta")
    if not 0 < d < 1:
        raise Sa2Error("delta must lie in (0, 1)")
    e0 = eps0_up(eps0)
    if B < 2:
        return PrivacyStatement("aggregator", _mp(e0), mpmath.mpf(0),
                                f"B = 1: the local guarantee eps0 = {float(e0):.6g}", "local")
    dtext = str(d)
    if accountant == "shuffle-closed-form":
        res = shuffle.closed_form(e0, B, dtext)
    elif accountant == "shuffle-fmt20":
        res = shuffle.clone_epsilon(e0, B, dtext, "fmt20")
    elif accountant == "shuffle-fmt22":
        res = shuffle.clone_epsilon(e0, B, dtext, "fmt22")
    else:
        if rappor_bit_eps is None:
            raise Sa2Error("rappor-clone needs the per-bit epsilon")
        res = shuffle.rappor_histogram_clone_epsilon(eps0_up(rappor_bit_eps), B, dtext)
    fallback = "" if res.valid else res.note
    how = (f"{ACCOUNTANTS[accountant].describe}; eps0 = {float(e0):.6g}, B = {B}: "
           f"{res.note} (bound used: {res.bound})")
    return PrivacyStatement("aggregator", _mp(res.eps), _mp(d), how, res.bound, fallback)


@at_working_precision
def gaussian_statement(sigma: Fraction, sensitivity: mpmath.mpf | Fraction, delta: Fraction
                       ) -> PrivacyStatement:
    """Example 3 of [SA2]: the sum carries Gaussian noise of standard deviation at least
    ``sigma`` (every one of the ``n >= B`` clients adds its share); the analytic Gaussian
    mechanism of [BW18] (:func:`dpspec.spec.accounting.gaussian.gaussian_epsilon`) at L2
    sensitivity ``sensitivity`` gives the smallest valid epsilon."""
    d = parse_rate(delta, "delta")
    with mpmath.workdps(DPS):
        eps = gaussian.gaussian_epsilon(str(d), str(sigma),
                                        sensitivity if isinstance(sensitivity, mpmath.mpf)
                                        else str(sensitivity))
    return PrivacyStatement("aggregator", eps, _mp(d),
                            f"analytic Gaussian [BW18], sigma = {sigma}, L2 sensitivity "
                            f"{mpmath.nstr(_mp(sensitivity), 8)}", "gaussian-analytic")


# -- the SA2 model (Theorem 3) ----------------------------------------------------------------------
@at_working_precision
def sa2_model(base: PrivacyStatement, q: Fraction) -> PrivacyStatement:
    """The aggregator-model statement amplified by Poisson sampling at rate ``q`` (Theorem 3 of
    [SA2]; Examples 5, 6), through :func:`dpspec.spec.accounting.subsampling.poisson_amplification`."""
    rate = parse_rate(q, "q")
    if base.epsilon == mpmath.inf:
        return PrivacyStatement("sa2", base.epsilon, base.delta, base.derivation, base.bound,
                                base.fallback)
    if rate == 1:  # nothing to amplify: the statement itself, exactly
        return PrivacyStatement("sa2", base.epsilon, base.delta,
                                f"{base.derivation}; q = 1 (no amplification)", base.bound,
                                base.fallback)
    with mpmath.workdps(DPS):
        eps, delta = subsampling.poisson_amplification(base.epsilon, base.delta, rate)
    return PrivacyStatement("sa2", eps, delta,
                            f"{base.derivation}; amplified by Poisson sampling at q = {rate}",
                            base.bound, base.fallback)


@at_working_precision
def fixed_size_model(base: PrivacyStatement, B: int, population: int) -> PrivacyStatement:
    """The fixed-size variant of SA2 (end of sec. 3): exactly ``B`` of at least ``population``
    reports are summed, a uniform subset; the aggregator-model statement amplified by sampling
    without replacement (:func:`dpspec.spec.accounting.subsampling.without_replacement_amplification`,
    [BBG18] Theorem 9, substitution neighbours): ``(ln(1 + (B/N)(e^eps - 1)), (B/N) delta)``."""
    if base.epsilon == mpmath.inf:
        return PrivacyStatement("sa2", base.epsilon, base.delta, base.derivation, base.bound,
                                base.fallback)
    with mpmath.workdps(DPS):
        eps, delta = subsampling.without_replacement_amplification(base.epsilon, base.delta, B,
                                                                  population)
    return PrivacyStatement("sa2", eps, delta,
                            f"{base.derivation}; amplified by sampling {B} of at least "
                            f"{population} reports without replacement", base.bound,
                            base.fallback)


@at_working_precision
def poisson_shortfall(q: Fraction, k: int, B: int) -> mpmath.mpf:
    """``Pr[Bin(k, q) < B]``: the probability that the Poisson sample of sec. 3 has fewer than
    ``B`` members (then SA_B releases nothing). The paper notes it is below ``delta`` when
    ``B < qk - sqrt(qk log(1/delta))``; above ``B``, the Poisson sample is a mixture of uniform
    subsets of sizes ``B' >= B``, which relates the two variants."""
    return 1 - binomial_sf(k, q, B)


@at_working_precision
def donation_time(eps: mpmath.mpf | Fraction | str, delta: mpmath.mpf | Fraction | str, m: int
                  ) -> tuple[mpmath.mpf, mpmath.mpf]:
    """App. A of [SA2], the bound as printed (``eps_paper``, ``delta_paper``) of
    :func:`dpspec.spec.accounting.composition.randomized_donation_time`. An mpf argument is
    taken at its exact binary value."""
    if isinstance(m, bool) or not isinstance(m, int) or m < 1:
        raise Sa2Error(f"m must be an integer >= 1, got {m!r}")

    def arg(x: mpmath.mpf | Fraction | str) -> Fraction | str:
        return to_fraction(x) if isinstance(x, mpmath.mpf) else x

    b = composition.randomized_donation_time(arg(eps), arg(delta), m)
    return b.eps_paper, b.delta_paper


@at_working_precision
def gaussian_steps(q: Fraction, noise_multiplier: Fraction, steps: int, delta: Fraction
                   ) -> mpmath.mpf:
    """Example 5 of [SA2]: ``steps`` rounds, each the Gaussian sum with noise multiplier
    ``sigma / C`` over a Poisson sample at rate ``q``; RDP accounting of the subsampled Gaussian
    (:func:`dpspec.spec.accounting.subsampling.subsampled_gaussian_epsilon`)."""
    eps, _ = subsampling.subsampled_gaussian_epsilon(str(q), str(noise_multiplier), steps,
                                                     str(delta))
    return mpmath.mpf(eps)


# -- sec. 4.6: the released count B' with dummy reports ------------------------------------------
@at_working_precision
def dummy_rate_paper(epsilon: Fraction, k: int) -> Fraction:
    """The dummy rate of sec. 4.6 of [SA2]: ``q' = 1 / (epsilon k)`` for ``k`` devices (capped at 1).

    The paper writes ``q' ~ 1/(eps k)``. :func:`dummy_count_delta` gives the guarantee it really
    buys: about ``1/eps`` dummies in expectation, which leaves ``delta`` of order
    ``e^{-1/eps}``; :func:`dummy_rate_for` derives the rate that reaches a stated delta.
    """
    e = exact(epsilon, "epsilon")
    if e <= 0 or isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise Sa2Error("need epsilon > 0 and k >= 1")
    return min(Fraction(1), 1 / (e * k))


@at_working_precision
def dummy_count_delta(eps: Fraction | mpmath.mpf, rate: Fraction, others: int) -> mpmath.mpf:
    """delta(eps) of the released report count ``B'`` of sec. 4.6 (both directions).

    Model: ``others`` devices did not select themselves and each sends a dummy with probability
    ``q' = rate``; the target device either contributes a real report or, in the neighbouring
    world, does not select itself (and then sends a dummy with probability ``q'``). With ``X ~
    Bin(others, q')`` the two worlds release ``X + 1`` and ``X + Bern(q')`` (plus the same count of
    other real reports). Writing ``f`` for the PMF of ``X`` and ``r(x) = f(x+1)/f(x) = (others - x)
    q' / ((x + 1)(1 - q'))`` (decreasing in ``x``), the likelihood ratio at ``X = x`` is
    ``Q/P = (1 - q') r(x) + q'``, so each hockey-stick divergence is a binomial tail:

    * ``D(P||Q) = (1 - e^eps q') S(t) - e^eps (1 - q') S(t + 1)`` with ``t`` the first ``x`` where
      ``(1 - q') r(x) + q' < e^-eps`` and ``S(t) = Pr[X >= t]``;
    * ``D(Q||P) = (1 - q') F(u + 1) + (q' - e^eps) F(u)`` with ``u`` the last ``x`` where
      ``(1 - q') r(x) + q' > e^eps`` (``u = -1`` if none) and ``F(u) = Pr[X <= u]``; the term
      includes the atom ``(1 - q')^(others + 1)`` at ``X + Bern = 0``, which ``X + 1`` never
      reaches.

    mpmath at 50 digits (regularised incomplete beta for the tails); analysis only.
    """
    q = parse_rate(rate, "q'")
    n = others
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise Sa2Error("others must be an integer >= 0")
    with mpmath.workdps(DPS):
        ee = mpmath.exp(_mp(eps) if not isinstance(eps, mpmath.mpf) else eps)
        if q == 0:
            return mpmath.mpf(1)
        if q == 1:
            return mpmath.mpf(0)
        qq = _mp(q)

        def ratio(x: int) -> mpmath.mpf:  # Q/P at X = x, for 0 <= x < n (r(n) = 0)
            r = mpmath.mpf(n - x) * qq / ((x + 1) * (1 - qq)) if x < n else mpmath.mpf(0)
            return (1 - qq) * r + qq

        def sf(t: int) -> mpmath.mpf:  # Pr[X >= t]
            return binomial_sf(n, q, t)

        def cdf(u: int) -> mpmath.mpf:
            return 1 - sf(u + 1)

        def first(pred: Callable[[int], bool]) -> int:
            """Smallest x in [0, n] with pred (pred monotone False..True); n + 1 if none."""
            return bisect_int(pred, -1, n + 1)

        t = first(lambda x: ratio(x) < 1 / ee)
        d_pq = (1 - ee * qq) * sf(t) - ee * (1 - qq) * sf(t + 1)
        u = first(lambda x: not ratio(x) > ee) - 1
        d_qp = (1 - qq) * cdf(u + 1) + (qq - ee) * cdf(u)
        return max(d_pq, d_qp, mpmath.mpf(0))


@at_working_precision
def dummy_count_statement(eps: Fraction, rate: Fraction, others: int) -> PrivacyStatement:
    """``(eps, delta)``-DP of ``B'`` for the target's participation (sec. 4.6)."""
    d = dummy_count_delta(eps, rate, others)
    return PrivacyStatement("count", _mp(eps), d,
                            f"released count B' with dummy rate q' = {rate} over {others} "
                            "non-selected devices (exact binomial tails)", "dummy-binomial")


@at_working_precision
def dummy_rate_for(eps: Fraction, delta: Fraction, others: int, denominator: int = 10**9
                   ) -> Fraction:
    """The smallest ``q' = j / denominator`` with ``dummy_count_delta(eps, q', others) <= delta``
    (bisection over ``j``; delta is non-increasing in ``q'`` on the range searched)."""
    target = _mp(parse_rate(delta, "delta"))
    j = bisect_int(lambda j: dummy_count_delta(eps, Fraction(j, denominator), others) <= target,
                   0, denominator)  # delta(q' = 1) = 0; q' = 0 is not tried
    return Fraction(j, denominator)



@at_working_precision
def binomial_sf(n: int, rate: Fraction, t: int) -> mpmath.mpf:
    """``Pr[Bin(n, rate) >= t]``, mpmath at 50 digits: the PMF at the starting point from
    log-gamma, then the term ratio ``(n - i) rate / ((i + 1)(1 - rate))``, summing the tail on
    the side away from the mean until a term is below ``10^-60`` of the sum."""
    if t <= 0:
        return mpmath.mpf(1)
    if t > n:
        return mpmath.mpf(0)
    if rate in (0, 1):
        return mpmath.mpf(1 if rate == 1 else 0)
    with mpmath.workdps(DPS):
        p = _mp(rate)

        def pmf(i: int) -> mpmath.mpf:
            return mpmath.exp(mpmath.loggamma(n + 1) - mpmath.loggamma(i + 1)
                              - mpmath.loggamma(n - i + 1) + i * mpmath.log(p)
                              + (n - i) * mpmath.log1p(-p))

        tiny = mpmath.mpf(10) ** -60
        if t > n * p:  # upper tail, terms decrease from t on
            term, total, i = pmf(t), mpmath.mpf(0), t
            while i <= n:
                total += term
                if term < tiny * total:
                    break
                term *= mpmath.mpf(n - i) * p / ((i + 1) * (1 - p))
                i += 1
            return total
        term, total, i = pmf(t - 1), mpmath.mpf(0), t - 1  # lower tail Pr[X <= t - 1]
        while i >= 0:
            total += term
            if term < tiny * total:
                break
            term *= mpmath.mpf(i) * (1 - p) / ((n - i + 1) * p)
            i -= 1
        return 1 - total


@at_working_precision
def dummy_margin(rate: Fraction, population: int, tail: Fraction) -> tuple[int, mpmath.mpf]:
    """``(d, Pr[Bin(population, rate) > d])`` for the smallest ``d`` whose tail is ``<= tail``.

    At most ``population`` devices can send a dummy, so the number of dummies ``D`` is dominated
    by ``Bin(population, q')``: with probability at least ``1 - tail``, ``D <= d``.
    """
    d = bisect_int(lambda d: binomial_sf(population, rate, d + 1) <= _mp(tail),
                   -1, population)  # tail(population) = 0
    return d, binomial_sf(population, rate, d + 1)
