"""The privacy computations the shuffled-model mechanisms rely on, from :mod:`dpspec.spec.accounting`.

This module is the one place where :mod:`dpspec.spec.shuffled` asks the accounting module for numbers; it
turns them into exact rational parameters a sampler can use, by the rounding rule of
:mod:`dpspec.spec.shuffled.params` (never less private than the real-valued answer), and re-checks the
rounded parameters where the rounding is not monotone.

Neighbouring datasets differ in one user's input (replacement), as in [GKMP20] sec. 2. For the
baselines (shuffled randomized response) the bounds are the proven worst-case ones over the other
users' data:

* binary randomized response: the [FMT22] clone pair, proven for binary randomized response
  (``dpspec.spec.accounting.shuffle.clone_delta(..., "fmt22")``);
* B-ary randomized response: the [FMT20] clone reduction, valid for every eps0-DP randomizer;
* RAPPOR (one message per user): the [FMT20] clone reduction of its local ``eps0 = 2 ln((1-f)/f)``;
* Fragmented RAPPOR (one message per set bit, unlinkable): two coordinates of the count vector
  change under replacement; each is binary randomized response made (eps/2, delta/2)-DP by the
  fmt22 pair, and basic composition gives (eps, delta).
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath

from dpspec.spec.shuffled.divisible import NegativeBinomial
from dpspec.spec.shuffled.params import decimal_up

PROB_DIGITS = 12  # flip / blanket probabilities are multiples of 10^-12


def _largest_eps0(delta_at: object, eps: float, delta: float, hi: float = 40.0) -> float:
    """The largest eps0 in (0, hi] with ``delta_at(eps, eps0) <= delta`` by bisection (the clone
    deltas grow with eps0); 0 if none."""
    assert callable(delta_at)
    lo = 0.0
    if delta_at(eps, hi) <= delta:
        return hi
    for _ in range(60):
        mid = (lo + hi) / 2
        if delta_at(eps, mid) <= delta:
            lo = mid
        else:
            hi = mid
    return lo


def rr_flip_probability(eps: float, delta: float, n: int) -> tuple[Fraction, str]:
    """The smallest flip probability (a multiple of 10^-12) for which binary randomized response
    among n users is (eps, delta)-DP in the shuffled model, by the fmt22 clone pair."""
    from dpspec.spec.accounting.shuffle import clone_delta

    def delta_at(e: float, e0: float) -> float:
        return clone_delta(e, e0, n, "fmt22")

    e0 = _largest_eps0(delta_at, eps, delta)
    if e0 <= 0:
        raise ValueError("no randomized response is (eps, delta)-DP here")
    p = decimal_up(mpmath.mpf(1) / (mpmath.exp(e0) + 1), PROB_DIGITS)
    e0_rounded = math.log((1 - p) / p)
    if not delta_at(eps, e0_rounded) <= delta:  # pragma: no cover - rounding only lowers eps0
        raise AssertionError("rounded randomized response is not private")
    return p, "fmt22 clone pair (proven for binary randomized response)"


def bary_rr_blanket(eps: float, delta: float, n: int, buckets: int) -> tuple[Fraction, str]:
    """The smallest blanket probability gamma (multiple of 10^-12) for which B-ary randomized
    response is (eps, delta)-DP in the shuffled model by the fmt20 clone reduction of its local
    guarantee ``eps0 = ln(1 + B (1 - gamma) / gamma)``."""
    from dpspec.spec.accounting.shuffle import clone_delta

    def delta_at(e: float, e0: float) -> float:
        return clone_delta(e, e0, n, "fmt20")

    e0 = _largest_eps0(delta_at, eps, delta)
    if e0 <= 0:
        raise ValueError("no B-ary randomized response is (eps, delta)-DP here")
    gamma = decimal_up(mpmath.mpf(buckets) / (mpmath.exp(e0) + buckets - 1), PROB_DIGITS)
    e0_rounded = math.log(1 + buckets * (1 - gamma) / gamma)
    if not delta_at(eps, e0_rounded) <= delta:  # pragma: no cover
        raise AssertionError("rounded B-ary randomized response is not private")
    return gamma, "fmt20 clone reduction (every eps0-DP local randomizer)"


def rappor_flip_probability(eps: float, delta: float, n: int) -> tuple[Fraction, str]:
    """The smallest per-bit flip probability f (multiple of 10^-12) for which RAPPOR -- each user
    sends its whole randomized B-bit vector as one message -- is (eps, delta)-DP in the shuffled
    model, by the fmt20 clone reduction of its local guarantee ``eps0 = 2 ln((1-f)/f)``.

    The shuffled output is the multiset of vectors, not only the bucket counts, so the
    per-coordinate analysis of :func:`fragmented_rappor_flip_probability` does not apply to it
    (with small f, a vector with two or zero ones is rare among the others' reports and
    identifies more than its coordinates' counts do)."""
    from dpspec.spec.accounting.shuffle import clone_delta

    def delta_at(e: float, e0: float) -> float:
        return clone_delta(e, e0, n, "fmt20")

    e0 = _largest_eps0(delta_at, eps, delta)
    if e0 <= 0:
        raise ValueError("no RAPPOR is (eps, delta)-DP here")
    f = decimal_up(mpmath.mpf(1) / (mpmath.exp(e0 / 2) + 1), PROB_DIGITS)
    e0_rounded = 2 * math.log((1 - f) / f)
    if not delta_at(eps, e0_rounded) <= delta:  # pragma: no cover - rounding only lowers eps0
        raise AssertionError("rounded RAPPOR is not private")
    return f, "fmt20 clone reduction of eps0 = 2 ln((1-f)/f) (one message per user)"


def fragmented_rappor_flip_probability(eps: float, delta: float, n: int) -> tuple[Fraction, str]:
    """Fragmented RAPPOR's per-bit flip probability (:mod:`dpspec.spec.shuffled.fragmented`): the
    shuffled output is the vector of bucket counts, whose coordinates are independent sums of
    binary randomized responses; two change under replacement, each is made (eps/2, delta/2)-DP
    by the fmt22 clone pair (proven for summed binary randomized response), basic composition."""
    f, _ = rr_flip_probability(eps / 2, delta / 2, n)
    return f, "per coordinate fmt22 clone pair at (eps/2, delta/2), basic composition (fragments)"


# -- the D-distributed and correlated mechanisms ([GKMP20] Theorems 11, 13, 18) -----------------
NB_METHODS = {
    "theorem": "Theorems 18 and 13 (parameters rounded up)",
    "exact": "exact privacy curve of the mechanism",
}


def poisson_lambda(eps: mpmath.mpf, delta: mpmath.mpf, sensitivity: int, method: str
                   ) -> tuple[Fraction, str]:
    """lambda of the Poisson mechanism: Theorem 11's value rounded up (``method="theorem"``), or
    the exact minimal one of :func:`dpspec.spec.accounting.ghazi.minimal_poisson_lambda` (rounded up to
    10 significant digits there). Larger lambda is never less private (post-processing)."""
    from dpspec.spec.accounting import ghazi

    if method == "theorem":
        lam = decimal_up(ghazi.theorem11_lambda(eps, delta, sensitivity), 6)
        return lam, "Theorem 11 (lambda rounded up)"
    if method == "exact":
        found = ghazi.minimal_poisson_lambda(eps, delta, sensitivity)
        return Fraction(found.value), "exact minimal lambda (hockey-stick of the Poisson mechanism)"
    raise ValueError(f"unknown method {method!r}")


def theorem13_noise(eps2: mpmath.mpf, delta2: mpmath.mpf, sensitivity: int) -> NegativeBinomial:
    """D3 of a Theorem 18 design by Theorem 13: ``NB(r, p)`` with ``p = e^(-eps2/(10 Delta))``,
    ``r = 50 e^(eps2/Delta) ln(1/delta2)``; both are rounded up to multiples of 10^-12, which is
    never less private (the rounding rule of :mod:`dpspec.spec.shuffled.params`)."""
    from dpspec.spec.accounting import ghazi

    p, r = ghazi.theorem13_parameters(eps2, delta2, sensitivity)
    return NegativeBinomial(decimal_up(r, PROB_DIGITS), decimal_up(p, PROB_DIGITS))
