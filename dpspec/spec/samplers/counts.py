"""Binomial, Poisson and negative binomial samplers (normative, exact).

These are the count distributions of the shuffled-model mechanisms of Ghazi, Kumar, Manurangsi
and Pagh ("Private Counting from Anonymous Messages", sec. 3: the Poisson and negative binomial
D-distributed mechanisms, whose shares Poi(lambda/n) and NB(r/n, p) rely on infinite
divisibility) and of randomized response. Every sampler here is exact: its output distribution
is exactly the stated one, with no truncation and no floating point. They are built from
:func:`dpspec.spec.samplers.core.geometric` and the lazy comparison of :mod:`dpspec.spec.samplers.lazy`.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from dpspec.spec.samplers.core import _exp_machine, _geometric_machine, _HalvingGeometric
from dpspec.spec.samplers.lazy import Oracle, bernoulli_bounded, bernoulli_ratio, exp_neg_bounds
from dpspec.spec.samplers.params import SamplerParameterError, count, probability, rational_in
from dpspec.spec.tape import RandomTape

#: Poisson and negative binomial cost grows linearly with the mean; refuse means beyond this.
MAX_MEAN = 10**6


def _binomial_by_gaps(tape: RandomTape, n: int, machine: _HalvingGeometric) -> int:
    """Count successes among n trials by jumping over geometric runs of failures."""
    if n == 0:
        return 0
    successes, position = 0, 0
    while True:
        position += machine.sample(tape) + 1
        if position > n:
            return successes
        successes += 1


def _binomial(tape: RandomTape, n: int, p: Fraction) -> int:
    if p == 0:
        return 0
    if p == 1:
        return n
    if p > Fraction(1, 2):
        return n - _binomial(tape, n, 1 - p)
    return _binomial_by_gaps(tape, n, _geometric_machine(p))


def binomial(tape: RandomTape, n: object, p: object) -> int:
    """Binomial(n, p), p rational in [0, 1]; exact, cost O(1 + n min(p, 1 - p)) geometrics.

    Steps: p = 0 returns 0 and p = 1 returns n (no bits); if p > 1/2 return
    n - binomial(n, 1 - p). Otherwise (0 < p <= 1/2) the positions of the successes are found by
    skipping runs of failures: if n = 0 return 0; S = 0, P = 0; repeat { P = P +
    ``geometric(p)`` + 1; if P > n return S; S = S + 1 }.
    """
    k = count(n, "n")
    return _binomial(tape, k, probability(p, "p"))


def binomial_textbook(tape: RandomTape, n: object, p: object) -> int:
    """Binomial(n, p) as the sum of n ``bernoulli(p)`` trials drawn in order (cost linear in n)."""
    k = count(n, "n")
    q = probability(p, "p")
    a, b = q.numerator, q.denominator
    return sum(bernoulli_ratio(tape, a, b) for _ in range(k))


@lru_cache(maxsize=256)
def _rr_machine(eps: Fraction) -> _HalvingGeometric:
    """Geometric with success probability p = 1/(1 + exp(eps)), eps > 0 (ratio 1 - p)."""

    def y_bounds(w: int) -> tuple[int, int]:
        return exp_neg_bounds(eps, w)

    def q_bounds(w: int) -> tuple[int, int]:
        # q = 1 - p = 1 / (1 + y), y = exp(-eps); decreasing in y.
        v = w + 4
        lo, hi = y_bounds(v)
        num = 1 << (w + v)
        return num // ((1 << v) + hi), -((-num) // ((1 << v) + lo))

    # m = the largest m >= 0 with 2^m <= 1 + exp(eps), i.e. (2^m - 1) y <= 1.
    m = 0
    w = 64
    while True:
        lo, hi = y_bounds(w)
        c = (1 << (m + 1)) - 1
        if c * hi <= 1 << w:
            m += 1
        elif c * lo > 1 << w:
            break
        else:
            w *= 2
    return _HalvingGeometric(q_bounds, m, irrational=True)


def binomial_rr(tape: RandomTape, n: object, eps: object) -> int:
    """Binomial(n, 1/(1 + exp(eps))) for rational eps >= 0: the number of randomized-response flips.

    Exact and efficient: eps = 0 is ``binomial(n, 1/2)``. For eps > 0, p = 1/(1 + exp(eps)) < 1/2
    and the steps of :func:`binomial` for p <= 1/2 are used, with the geometric(p) variates drawn
    by the steps of :func:`dpspec.spec.samplers.core.geometric` for this irrational p: q = 1 - p =
    1/(1 + exp(-eps)) and m = the largest integer >= 0 with 2^m <= 1 + exp(eps). The numbers
    q^(2^j) and q^(2^j)/(1 + q^(2^j)) are irrational; the lazy comparison needs as many of their
    binary digits as it reads, computed here with rigorous interval bounds on exp(-eps).
    """
    k = count(n, "n")
    e = rational_in(eps, "eps", low=0)
    if e == 0:
        return _binomial(tape, k, Fraction(1, 2))
    return _binomial_by_gaps(tape, k, _rr_machine(e))


def _poisson(tape: RandomTape, lam: Fraction) -> int:
    if lam == 0:
        return 0
    pieces = -((-2 * lam.numerator) // lam.denominator)  # ceil(2 lambda)
    mu = lam / pieces
    machine = _geometric_machine(1 - mu)
    total = 0
    for _ in range(pieces):
        while True:
            k = machine.sample(tape)
            factorial = 1
            for i in range(2, k + 1):
                factorial *= i
            if bernoulli_ratio(tape, 1, factorial):
                total += k
                break
    return total


def poisson(tape: RandomTape, lam: object) -> int:
    """Poisson(lambda) for rational lambda >= 0, exact; cost O(1 + lambda).

    Poisson is infinitely divisible: with k = ceil(2 lambda) pieces of mean mu = lambda/k <= 1/2,
    the sum of k independent Poisson(mu) variates is Poisson(lambda). Each piece is drawn by
    rejection (the Poisson "Buffon machine" of Flajolet, Pelletier and Soria): repeat { K =
    ``geometric(1 - mu)`` (so P[K = k] = (1 - mu) mu^k); accept K if lazy_compare(1/K!) = 1 };
    the accepted K has P[K = k] proportional to mu^k / k!. Acceptance is (1 - mu) e^mu >= 0.82.
    lambda = 0 returns 0 without bits; lambda > 10^6 is refused (cost).
    """
    q = rational_in(lam, "lam", low=0, high=MAX_MEAN)
    return _poisson(tape, q)


def negative_binomial(tape: RandomTape, r: object, p: object) -> int:
    """NB(r, p): P[K = k] = C(k + r - 1, k) (1 - p)^r p^k, rational r > 0, rational p in [0, 1).

    Exact for every rational r, integral or fractional (the shares NB(r/n, p) of Ghazi et al.,
    sec. 3), by the compound-Poisson form of the negative binomial: its generating function is
    ((1 - p)/(1 - p z))^r = prod_{j >= 1} exp((r p^j / j)(z^j - 1)), so K = sum_j j N_j with
    independent N_j ~ Poisson(r p^j / j). The N_j are produced together by thinning one Poisson
    process: draw N ~ Poisson(r p / (1 - p)) points, give each a size J = 1 + geometric(1 - p)
    (P[J = j] = (1 - p) p^(j - 1)), keep it with probability 1/J; the kept points of size j are
    Poisson(r p^j / j). Steps: p = 0 returns 0 without bits; N = ``poisson(r p / (1 - p))``;
    total = 0; N times { J = 1 + ``geometric(1 - p)``; if lazy_compare(1/J) = 1: total += J };
    return total. Cost O(1 + r p / (1 - p)); means r p/(1 - p) > 10^6 are refused.
    """
    rr = rational_in(r, "r", low=0, low_open=True)
    q = rational_in(p, "p", low=0, high=1, high_open=True)
    if q == 0:
        return 0
    lam = rr * q / (1 - q)
    if lam > MAX_MEAN:
        raise SamplerParameterError(
            f"negative_binomial: the mean r p / (1 - p) exceeds {MAX_MEAN} (cost)")
    n = _poisson(tape, lam)
    machine = _geometric_machine(1 - q)
    total = 0
    for _ in range(n):
        j = 1 + machine.sample(tape)
        if bernoulli_ratio(tape, 1, j):
            total += j
    return total


def _poisson_bounded(tape: RandomTape, lam: Oracle) -> int:
    pieces = _pieces(lam)
    return _poisson_pieces(tape, lam, pieces)


@lru_cache(maxsize=256)
def _pieces(lam: Oracle) -> int:
    """ceil(2 lambda) = floor(2 lambda) + 1 for irrational lambda."""
    p = 64
    while True:
        lo, hi = lam(p)
        if (2 * lo) >> p == (2 * hi) >> p:
            return ((2 * lo) >> p) + 1
        p *= 2


def _poisson_pieces(tape: RandomTape, lam: Oracle, pieces: int) -> int:
    """Poisson(lambda) for an irrational lambda > 0 known through rigorous bounds.

    The steps of :func:`poisson`: k = ceil(2 lambda) = floor(2 lambda) + 1 pieces of mean
    mu = lambda / k < 1/2, each: repeat { K = 0; while lazy_compare(mu) = 1: K = K + 1; accept K
    if lazy_compare(1/K!) = 1 }. (For mu < 1/2 the geometric(1 - mu) of :func:`poisson` is this
    plain count, m = 0.)
    """
    def mu(w: int) -> tuple[int, int]:
        a, b = lam(w)
        return a // pieces, -((-b) // pieces)

    total = 0
    for _ in range(pieces):
        while True:
            k = 0
            while bernoulli_bounded(tape, mu, irrational=True):
                k += 1
            factorial = 1
            for i in range(2, k + 1):
                factorial *= i
            if bernoulli_ratio(tape, 1, factorial):
                total += k
                break
    return total


@lru_cache(maxsize=256)
def _nb_exp_mean(r: Fraction, gamma: Fraction) -> Oracle:
    """Bounds of lambda = r exp(-gamma) / (1 - exp(-gamma)) = r / (exp(gamma) - 1)."""
    extra = 32 + (gamma.denominator // gamma.numerator + 1).bit_length()
    cache: dict[int, tuple[int, int]] = {}

    def bounds(p: int) -> tuple[int, int]:
        got = cache.get(p)
        if got is not None:
            return got
        w = p + extra
        while True:
            ylo, yhi = exp_neg_bounds(gamma, w)
            one = 1 << w
            if yhi < one:
                break
            w *= 2
        a, b = r.numerator, r.denominator
        lo = (a * ylo << p) // (b * (one - ylo))
        hi = -((-(a * yhi << p)) // (b * (one - yhi)))
        cache[p] = (lo, hi)
        return lo, hi

    return bounds


def negative_binomial_exp(tape: RandomTape, r: object, gamma: object) -> int:
    """NB(r, exp(-gamma)) for rational r > 0 and rational gamma > 0, exact.

    The parameterisation of Ghazi et al. (sec. 3: NB(r, p) with p = e^(-0.1 eps / Delta) in
    Theorem 13, and NB(1/n, e^(-eps)) shares whose difference is a discrete Laplace), where p is
    irrational. Steps, as in :func:`negative_binomial` with p = exp(-gamma): N = Poisson(lambda)
    with the irrational mean lambda = r / (exp(gamma) - 1), drawn by the steps of
    :func:`_poisson_bounded`; total = 0; N times { J = 1 + ``geometric_exp(gamma)``; if
    lazy_compare(1/J) = 1: total = total + J }; return total. Means lambda > 10^6 are refused.
    """
    rr = rational_in(r, "r", low=0, low_open=True)
    g = rational_in(gamma, "gamma", low=0, low_open=True)
    lam = _nb_exp_mean(rr, g)
    p = 64
    while True:
        lo, hi = lam(p)
        if hi <= MAX_MEAN << p:
            break
        if lo > MAX_MEAN << p:
            raise SamplerParameterError(
                f"negative_binomial_exp: the mean r / (exp(gamma) - 1) exceeds {MAX_MEAN} (cost)")
        p *= 2
    n = _poisson_bounded(tape, lam)
    machine = _exp_machine(g.numerator, g.denominator)
    total = 0
    for _ in range(n):
        j = 1 + machine.sample(tape)
        if bernoulli_ratio(tape, 1, j):
            total += j
    return total
