"""Binomial, Poisson and negative binomial samplers (normative, exact).

These are the count distributions of the shuffled-model mechanisms of Ghazi, Kumar, Manurangsi
and Pagh ("Private Counting from Anonymous Messages", sec. 3: the Poisson and negative binomial
D-distributed mechanisms, whose shares Poi(lambda/n) and NB(r/n, p) rely on infinite
divisibility) and of randomized response. Every sampler here is exact: its output distribution
is exactly the stated one, with no truncation and no floating point. They are built from
:func:`dpspec.spec.samplers.core.geometric` and the lazy comparison of :mod:`dpspec.spec.samplers.lazy`.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache
from math import isqrt

from dpspec.spec.rational import format_rational
from dpspec.spec.samplers.core import _exp_machine, _geometric_machine, _HalvingGeometric
from dpspec.spec.samplers.lazy import Oracle, bernoulli_bounded, bernoulli_ratio, exp_neg_bounds
from dpspec.spec.samplers.params import (
    CostTooLargeError,
    SamplerParameterError,
    count,
    probability,
    rational_in,
)
from dpspec.spec.tape import RandomTape

#: Poisson and negative binomial cost grows linearly with the mean; refuse means beyond this.
MAX_MEAN = 10**6
#: binomial and binomial_rr draw about n min(p, 1 - p) geometrics; refuse more than this.
MAX_BINOMIAL_WORK = 10**6
#: binomial_textbook draws n Bernoulli trials; refuse n beyond this.
MAX_TEXTBOOK_TRIALS = 10**6


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


#: Above this mean, poisson and binomial use the mode envelope (cost O(sqrt(mean)) arithmetic,
#: O(log(mean)) coins); at or below it, their original linear-cost steps (vectors unchanged).
ENVELOPE_THRESHOLD = 256


def _mode_envelope(tape: RandomTape, rho: Callable[[int], Fraction], mode: int, d: int,
                   top: int | None) -> int:
    """Rejection from a flat-top two-sided geometric envelope; exact for log-concave PMFs.

    f is a PMF on 0..top (top None: unbounded) with f(k+1)/f(k) = rho(k) rational and strictly
    decreasing in k, and mode M: rho(M) <= 1 <= rho(M - 1). See :func:`poisson` for the steps.
    """
    a = max(0, mode - d)
    b = mode + d if top is None else min(top, mode + d)
    w_mid = Fraction(b - a + 1)
    right = rho(b) if top is None or b < top else Fraction(0)
    left = 1 / rho(a - 1) if a > 0 else Fraction(0)
    w_right = right / (1 - right)
    w_left = left / (1 - left)
    choose_mid = w_mid / (w_mid + w_right + w_left)
    choose_right = w_right / (w_right + w_left) if w_right + w_left else Fraction(0)
    right_machine = _geometric_machine(1 - right) if right else None
    left_machine = _geometric_machine(1 - left) if left else None
    while True:
        if bernoulli_ratio(tape, choose_mid.numerator, choose_mid.denominator):
            k = a + tape.uniform(b - a + 1)
            h = Fraction(1)
        elif bernoulli_ratio(tape, choose_right.numerator, choose_right.denominator):
            assert right_machine is not None
            g = right_machine.sample(tape)
            k = b + 1 + g
            h = right ** (g + 1)
        else:
            assert left_machine is not None
            g = left_machine.sample(tape)
            k = a - 1 - g
            h = left ** (g + 1)
            if k < 0:
                continue
        if top is not None and k > top:
            continue
        # R / h with R = f(k) / f(M), as one unreduced integer ratio num / den
        terms = [rho(i) for i in range(mode, k)] if k > mode else [rho(i) for i in range(k, mode)]
        up = _product([t.numerator for t in terms]) if terms else 1
        down = _product([t.denominator for t in terms]) if terms else 1
        if k < mode:
            up, down = down, up
        if bernoulli_ratio(tape, up * h.denominator, down * h.numerator):
            return k


def _product(xs: list[int]) -> int:
    """The product of xs by halves (fast for many large factors)."""
    while len(xs) > 1:
        xs = [xs[i] * xs[i + 1] if i + 1 < len(xs) else xs[i] for i in range(0, len(xs), 2)]
    return xs[0]


def _binomial(tape: RandomTape, n: int, p: Fraction) -> int:
    if p == 0:
        return 0
    if p == 1:
        return n
    if p > Fraction(1, 2):
        return n - _binomial(tape, n, 1 - p)
    if n * p > ENVELOPE_THRESHOLD:
        ratio = p / (1 - p)
        return _mode_envelope(tape, lambda k: (n - k) * ratio / (k + 1),
                              ((n + 1) * p).__floor__(), isqrt((n * p * (1 - p)).__floor__()) + 1,
                              n)
    return _binomial_by_gaps(tape, n, _geometric_machine(p))


def binomial(tape: RandomTape, n: object, p: object) -> int:
    """Binomial(n, p), p rational in [0, 1]; exact, cost O(1 + n min(p, 1 - p)) geometrics.

    Cost limit: n min(p, 1 - p) > 10^6 is refused (CostTooLarge). When, after the reflection,
    0 < p <= 1/2 and n p > 256, the mode envelope of :func:`poisson` is used instead of the gaps:
    rho(k) = (n - k) p / ((k + 1)(1 - p)), M = floor((n + 1) p), d = isqrt(floor(n p (1 - p)))
    + 1, top = n.

    Steps: p = 0 returns 0 and p = 1 returns n (no bits); if p > 1/2 return
    n - binomial(n, 1 - p). Otherwise (0 < p <= 1/2) the positions of the successes are found by
    skipping runs of failures: if n = 0 return 0; S = 0, P = 0; repeat { P = P +
    ``geometric(p)`` + 1; if P > n return S; S = S + 1 }.
    """
    k = count(n, "n")
    q = probability(p, "p")
    if k * min(q, 1 - q) > MAX_BINOMIAL_WORK:
        raise CostTooLargeError(f"binomial: n min(p, 1 - p) = {format_rational(k * min(q, 1 - q))}"
                                f" exceeds {MAX_BINOMIAL_WORK} (cost)")
    return _binomial(tape, k, q)


def binomial_textbook(tape: RandomTape, n: object, p: object) -> int:
    """Binomial(n, p) as the sum of n ``bernoulli(p)`` trials drawn in order (cost linear in n).

    Cost limit: n > 10^6 is refused (CostTooLarge), checked after both parameters' ranges.
    """
    k = count(n, "n")
    q = probability(p, "p")
    if k > MAX_TEXTBOOK_TRIALS:
        raise CostTooLargeError(f"binomial_textbook: n exceeds {MAX_TEXTBOOK_TRIALS} (cost)")
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
    Cost limit: n / (1 + exp(eps)) > 10^6 is refused (CostTooLarge).
    """
    k = count(n, "n")
    e = rational_in(eps, "eps", low=0)
    if e == 0:
        if k > 2 * MAX_BINOMIAL_WORK:
            raise CostTooLargeError(f"binomial_rr: n / 2 exceeds {MAX_BINOMIAL_WORK} (cost)")
        return _binomial(tape, k, Fraction(1, 2))
    _rr_cost_check(k, e)
    return _binomial_by_gaps(tape, k, _rr_machine(e))


def _rr_cost_check(n: int, eps: Fraction) -> None:
    """CostTooLarge if n / (1 + exp(eps)) > MAX_BINOMIAL_WORK (decided with rigorous bounds)."""
    if n <= MAX_BINOMIAL_WORK:
        return
    w = 64
    while True:
        lo, hi = exp_neg_bounds(eps, w)  # p = y / (1 + y), y = exp(-eps), increasing in y
        one = 1 << w
        if n * hi <= MAX_BINOMIAL_WORK * (one + hi):
            return
        if n * lo > MAX_BINOMIAL_WORK * (one + lo):
            raise CostTooLargeError(
                f"binomial_rr: n / (1 + exp(eps)) exceeds {MAX_BINOMIAL_WORK} (cost)")
        w *= 2


def _poisson(tape: RandomTape, lam: Fraction) -> int:
    if lam == 0:
        return 0
    if lam > ENVELOPE_THRESHOLD:
        mode = lam.__floor__()
        return _mode_envelope(tape, lambda k: lam / (k + 1), mode, isqrt(mode) + 1, None)
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

    For lambda > 256 (ENVELOPE_THRESHOLD) the *mode envelope* is used instead, with cost
    O(sqrt(lambda)) big-integer operations and O(log lambda) coins: f(k) = P[K = k] has the
    rational ratio rho(k) = f(k+1)/f(k) = lambda / (k + 1), decreasing in k, and the mode
    M = floor(lambda); let d = isqrt(M) + 1. Steps of the mode envelope for (rho, M, d, top)
    (top = the largest value with f > 0, none here; binomial has top = n):

    1. a = max(0, M - d); b = M + d (min(top, M + d) with a top); W = b - a + 1;
       r+ = rho(b) (0 if b = top); r- = 1 / rho(a - 1) (0 if a = 0);
       A = r+ / (1 - r+); B = r- / (1 - r-); c = W / (W + A + B); c' = A / (A + B) (0 if A = B = 0).
    2. If lc(c) = 1: k = a + uniform(W), h = 1. Else if lc(c') = 1: G = geometric(1 - r+),
       k = b + 1 + G, h = r+^(G + 1). Else: G = geometric(1 - r-), k = a - 1 - G,
       h = r-^(G + 1); if k < 0 go to 2. If k > top go to 2.
    3. R = f(k)/f(M) = the product of rho(i) for M <= i < k, or of 1/rho(i) for k <= i < M.
       If lc(R / h) = 1 return k, else go to 2.

    (h(k) >= f(k)/f(M) everywhere by log-concavity, so R/h <= 1 and the accepted k has PMF f;
    the acceptance rate is about 0.6.) uniform is the tape's uniform(n) and lc the lazy
    comparison, with rationals only.
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

    For r >= 1, a mean lambda = r p / (1 - p) > 256 and r >= lambda / 256 (so that the standard
    deviation is O(sqrt(lambda))) the PMF is log-concave with the rational ratio
    f(k+1)/f(k) = (k + r) p / (k + 1) and mode M = floor((r - 1) p / (1 - p)): the steps of the
    mode envelope of :func:`poisson` with d = isqrt(floor(r p / (1 - p)^2)) + 1 and no upper end.
    Other parameters keep the compound-Poisson steps, whose cost is linear in the mean (not
    sublinear: NB with a small r and p near 1 has a standard deviation close to its mean).
    """
    rr = rational_in(r, "r", low=0, low_open=True)
    q = rational_in(p, "p", low=0, high=1, high_open=True)
    if q == 0:
        return 0
    lam = rr * q / (1 - q)
    if lam > MAX_MEAN:
        raise SamplerParameterError(
            f"negative_binomial: the mean r p / (1 - p) exceeds {MAX_MEAN} (cost)")
    if rr >= 1 and lam > ENVELOPE_THRESHOLD and rr * ENVELOPE_THRESHOLD >= lam:
        var = lam / (1 - q)
        return _mode_envelope(tape, lambda k: (k + rr) * q / (k + 1),
                              ((rr - 1) * q / (1 - q)).__floor__(), isqrt(var.__floor__()) + 1,
                              None)
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
