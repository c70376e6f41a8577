"""Bernoulli family, geometric, discrete Laplace and discrete Gaussian samplers (normative).

All samplers read their coins from a :class:`dpspec.spec.tape.RandomTape` one bit at a time, with
``tape.bits(1)`` (the tape's ``uniform(2)``), and in no other way: every coin is a fair bit or a
*lazy comparison* (:mod:`dpspec.spec.samplers.lazy`), which reads 2 bits on average whatever its bias.
The order of the calls is part of the specification; each function documents it as numbered
steps. Arithmetic is exact (Python integers and rationals); no floating point is used anywhere.

References: [CKS20] C. Canonne, G. Kamath, T. Steinke, "The Discrete Gaussian for Differential
Privacy", NeurIPS 2020 (Algorithms 1, 2 and 3); the DP draft (draft-wang-ppm-differential-privacy-00)
sec. 4.1 and 4.2, which cites them for the discrete Laplace and Gaussian mechanisms.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache
from math import isqrt

from dpspec.spec.samplers.lazy import (
    START_PRECISION,
    Oracle,
    bernoulli_bounded,
    bernoulli_ratio,
    exp_neg_fixed,
    ratio_bounds,
    square_bounds,
)
from dpspec.spec.samplers.params import (
    MAX_GAUSSIAN_VARIANCE,
    MAX_LAPLACE_SCALE,
    SamplerParameterError,
    count,
    max_scale,
    min_rate,
    probability,
    rational_in,
)
from dpspec.spec.tape import RandomTape

# -- Bernoulli family --------------------------------------------------------------------------


def bernoulli(tape: RandomTape, p: object) -> int:
    """Bernoulli(p) for rational p in [0, 1]: one lazy comparison with x = p.

    No bits for p = 0 or 1, 2 bits on average otherwise.
    """
    q = probability(p, "p")
    return bernoulli_ratio(tape, q.numerator, q.denominator)


def _bern_exp(tape: RandomTape, a: int, b: int) -> int:
    """Bernoulli(exp(-a/b)), a >= 0, b > 0: Algorithm 1 of [CKS20]."""
    if a <= b:
        # gamma in [0, 1]: K = 1, 2, ...: draw Bernoulli(gamma / K) until it gives 0; return
        # 1 iff the final K is odd.
        k = 1
        while bernoulli_ratio(tape, a, b * k):
            k += 1
        return k & 1
    # gamma > 1: floor(gamma) trials of Bernoulli(exp(-1)), stop at the first 0; then one trial
    # of Bernoulli(exp(-(gamma - floor(gamma)))).
    whole, rest = divmod(a, b)
    for _ in range(whole):
        if not _bern_exp(tape, 1, 1):
            return 0
    return _bern_exp(tape, rest, b)


def bernoulli_exp(tape: RandomTape, gamma: object) -> int:
    """Bernoulli(exp(-gamma)) for rational gamma >= 0 (Algorithm 1 of [CKS20]).

    Steps, for gamma in [0, 1]: for K = 1, 2, ... draw ``bernoulli(gamma / K)``; at the first 0
    stop and return 1 if K is odd, else 0. For gamma > 1: for k = 1 .. floor(gamma) draw
    ``bernoulli_exp(1)`` and return 0 at the first 0; then return
    ``bernoulli_exp(gamma - floor(gamma))``.
    """
    g = rational_in(gamma, "gamma", low=0)
    return _bern_exp(tape, g.numerator, g.denominator)


def _bern_rr(tape: RandomTape, a: int, b: int) -> int:
    """Bernoulli(1 / (1 + exp(a/b))) by the two-coin Bernoulli factory."""
    bits = tape.bits
    while True:
        if bits(1):
            return 0
        if _bern_exp(tape, a, b):
            return 1


def bernoulli_rr(tape: RandomTape, eps: object) -> int:
    """Bernoulli(1 / (1 + exp(eps))) for rational eps >= 0: the randomized-response flip.

    An exact Bernoulli factory (the "two-coin" construction): repeat { draw one bit c; if c = 1
    return 0; if ``bernoulli_exp(eps)`` = 1 return 1 }. One round returns 1 with probability
    exp(-eps)/2 and 0 with probability 1/2, so P[1] = exp(-eps) / (1 + exp(-eps)).
    """
    e = rational_in(eps, "eps", low=0)
    return _bern_rr(tape, e.numerator, e.denominator)


# -- geometric ---------------------------------------------------------------------------------


class _HalvingGeometric:
    """Geometric variates with ratio x (P[k] = (1 - x) x^k), x known through a bounds oracle.

    With M = 2^m, K = R + M V where V and R are independent: P[V = v] = (1 - x^M) (x^M)^v and
    R in [0, M) has P[R = r] proportional to x^r. The m binary digits of R are independent,
    digit j being 1 with probability x^(2^j) / (1 + x^(2^j)).
    """

    def __init__(self, base: Callable[[int], tuple[int, int]], m: int,
                 exact: Fraction | None = None, irrational: bool = False) -> None:
        self.base = base
        self.m = m
        self.exact = exact
        self.irrational = irrational  # x (hence every number compared) is irrational
        self._cache: dict[tuple[int, int], tuple[int, int]] = {}
        self._chains: dict[int, list[tuple[int, int]]] = {}
        self._exact_pow: dict[int, Fraction] = {}
        self._coins: dict[tuple[bool, int], tuple[int, int, Oracle | None, tuple[int, int]]] = {}

    def power_bounds(self, j: int, p: int) -> tuple[int, int]:
        """Bounds lo <= 2^p x^(2^j) <= hi (0 <= j <= m).

        All powers at precision p come from one chain of squarings at the working precision
        w = p + m + 8 (each squaring at most doubles the error, so m + 8 guard bits absorb it):
        O(m) squarings for all j, not O(m) for each.
        """
        key = (j, p)
        got = self._cache.get(key)
        if got is None:
            w = p + self.m + 8
            chain = self._chains.get(p)
            if chain is None:
                chain = self._chains[p] = [self.base(w)]
            while len(chain) <= j:
                chain.append(square_bounds(*chain[-1], w, 1))
            lo, hi = chain[j]
            got = (lo >> (w - p), -((-hi) >> (w - p)))
            self._cache[key] = got
        return got

    def _small_exact(self, j: int) -> Fraction | None:
        if self.exact is None:
            return None
        got = self._exact_pow.get(j)
        if got is None:
            if self.exact.denominator.bit_length() << j > 512:
                return None
            got = self.exact ** (1 << j)
            self._exact_pow[j] = got
        return got

    def _coin(self, digit: bool, j: int) -> tuple[int, int, Oracle | None, tuple[int, int]]:
        """The lazy comparison with x^(2^j) (or the digit probability), prepared once.

        Either an exact ratio (a, b) or an oracle with its bounds at the starting precision.
        """
        key = (digit, j)
        got = self._coins.get(key)
        if got is not None:
            return got
        q = self._small_exact(j)
        if q is not None:
            a, b = q.numerator, q.denominator
            got = (a, a + b, None, (0, 0)) if digit else (a, b, None, (0, 0))
        else:
            if digit:
                def oracle(p: int) -> tuple[int, int]:
                    w = p + 2
                    lo, hi = self.power_bounds(j, w)
                    one = 1 << w
                    return (lo << p) // (one + lo), -((-(hi << p)) // (one + hi))
            else:
                def oracle(p: int) -> tuple[int, int]:
                    return self.power_bounds(j, p)
            got = (0, 0, oracle, oracle(START_PRECISION))
        self._coins[key] = got
        return got

    def trial(self, tape: RandomTape, digit: bool, j: int) -> int:
        """lazy_compare(x^(2^j)), or lazy_compare(x^(2^j) / (1 + x^(2^j))) if ``digit``."""
        a, b, oracle, first = self._coin(digit, j)
        if oracle is None:
            return bernoulli_ratio(tape, a, b)
        return bernoulli_bounded(tape, oracle, irrational=self.irrational, first=first)

    def sample(self, tape: RandomTape) -> int:
        v = 0
        trial = self.trial
        while trial(tape, False, self.m):
            v += 1
        r = 0
        for j in range(self.m):
            r |= trial(tape, True, j) << j
        return r + (v << self.m)


@lru_cache(maxsize=512)
def _geometric_machine(p: Fraction) -> _HalvingGeometric:
    """The sampler of geometric(p), p rational in (0, 1)."""
    q = 1 - p
    m = (p.denominator // p.numerator).bit_length() - 1  # largest m with 2^m p <= 1
    return _HalvingGeometric(lambda w: ratio_bounds(q, w), m, exact=q)


def geometric(tape: RandomTape, p: object) -> int:
    """Geometric(p): P[K = k] = (1 - p)^k p for k = 0, 1, ... (failures before the first success).

    p is rational in (0, 1]. Exact, with O(log(1/p)) coins on average. Let q = 1 - p and let m
    be the largest integer >= 0 with 2^m p <= 1. Steps (p = 1 returns 0 and takes no bits):

    1. V = 0; while lazy_compare(q^(2^m)) = 1: V = V + 1.
    2. For j = 0, 1, ..., m - 1: digit d_j = lazy_compare(q^(2^j) / (1 + q^(2^j))).
    3. Return sum_j d_j 2^j + 2^m V.

    (The digits of K mod 2^m are independent with those probabilities, and K div 2^m is
    geometric with ratio q^(2^m).) lazy_compare is the comparison of :mod:`dpspec.spec.samplers.lazy`.
    The numbers compared are rational, but q^(2^j) is exponentially large when written exactly
    for large j; it is evaluated (here by repeated squaring of interval bounds) to the binary
    digits the comparison reads, which gives the same bits as exact arithmetic.

    Cost limit: p < 2^-256 is refused (CostTooLarge; :data:`~dpspec.spec.samplers.params.MAX_SCALE_BITS`):
    the m digits cost about m^2 big-integer work.
    """
    q = rational_in(p, "p", low=0, low_open=True, high=1)
    min_rate("geometric", "p", q)
    if q == 1:
        return 0
    return _geometric_machine(q).sample(tape)


@lru_cache(maxsize=512)
def _exp_machine(a: int, b: int) -> _HalvingGeometric:
    """The sampler of geometric_exp(a/b), a, b > 0 (cached per parameter)."""
    gamma = Fraction(a, b)
    m = 0
    while (a << (m + 1)) <= b:
        m += 1
    return _HalvingGeometric(lambda w: exp_neg_fixed(gamma, w), m, irrational=True)


def _geometric_exp(tape: RandomTape, a: int, b: int) -> int:
    """Geometric with ratio exp(-a/b) (a, b > 0); see :func:`geometric_exp`."""
    return _exp_machine(a, b).sample(tape)


def geometric_exp(tape: RandomTape, gamma: object) -> int:
    """P[K = k] = (1 - exp(-gamma)) exp(-gamma k), k >= 0, for rational gamma > 0.

    The steps of :func:`geometric` with ratio x = exp(-gamma) in place of q, and m the largest
    integer >= 0 with 2^m gamma <= 1 (m = 0 when gamma > 1):

    1. V = 0; while lazy_compare(exp(-2^m gamma)) = 1: V = V + 1.
    2. For j = 0, ..., m - 1: digit d_j = lazy_compare(exp(-2^j gamma) / (1 + exp(-2^j gamma))).
    3. Return sum_j d_j 2^j + 2^m V.

    Every coin is one lazy comparison (2 bits on average); the numbers compared are irrational
    (gamma > 0 is rational), and are evaluated with rigorous bounds
    (:func:`dpspec.spec.samplers.lazy.exp_neg_fixed`) to as many binary digits as the comparison reads.
    Cost limit: gamma < 2^-256 is refused (CostTooLarge).
    """
    g = rational_in(gamma, "gamma", low=0, low_open=True)
    min_rate("geometric_exp", "gamma", g)
    return _geometric_exp(tape, g.numerator, g.denominator)


# -- discrete Laplace and Gaussian -------------------------------------------------------------


#: A sampler of the geometric with ratio exp(-a/b): (tape, a, b) -> K. Each profile has its own
#: (this module's :func:`_geometric_exp`, or the rational-only profile's); the discrete Laplace
#: and Gaussian loops below are shared and take it as an argument.
GeometricExp = Callable[[RandomTape, int, int], int]


def _dlap(tape: RandomTape, a: int, b: int, geometric: GeometricExp = _geometric_exp) -> int:
    """Discrete Laplace with scale a/b, the magnitude drawn by ``geometric`` with ratio exp(-b/a)."""
    bits = tape.bits
    while True:
        y = geometric(tape, b, a)
        if bits(1):
            if y == 0:
                continue
            return -y
        return y


def discrete_laplace(tape: RandomTape, t: object) -> int:
    """Discrete Laplace with rational scale t > 0: P[X = x] proportional to exp(-|x| / t).

    The construction of Algorithm 2 of [CKS20] (a geometric magnitude with ratio exp(-1/t) and a
    fair sign, rejecting "negative zero"), with the magnitude drawn by :func:`geometric_exp`,
    which needs no uniform(t) draw and no rejection step. Steps: repeat { Y =
    ``geometric_exp(1/t)``; B = one bit; if B = 1 and Y = 0, start again; return Y if B = 0,
    else -Y }. Cost limit: t > 2^256 is refused (CostTooLarge).
    """
    q = rational_in(t, "t", low=0, low_open=True)
    max_scale("discrete_laplace", "t", q, MAX_LAPLACE_SCALE, "2^256")
    return _dlap(tape, q.numerator, q.denominator)


def _sigma_floor(n: int, d: int) -> int:
    """floor(sqrt(n/d)) exactly."""
    return isqrt(n * d) // d


def _dgauss(tape: RandomTape, n: int, d: int, geometric: GeometricExp = _geometric_exp) -> int:
    """Discrete Gaussian with sigma^2 = n/d; Algorithm 3 of [CKS20] over ``_dlap(.., geometric)``."""
    t = _sigma_floor(n, d) + 1
    # gamma = (|Y| - sigma^2/t)^2 / (2 sigma^2) = (|Y| t d - n)^2 / (2 t^2 d n)
    den = 2 * t * t * d * n
    td = t * d
    while True:
        y = _dlap(tape, t, 1, geometric)
        z = abs(y) * td - n
        if _bern_exp(tape, z * z, den):
            return y


def discrete_gaussian(tape: RandomTape, sigma2: object) -> int:
    """Discrete Gaussian N_Z(0, sigma^2) for rational sigma^2 > 0 (Algorithm 3 of [CKS20]).

    t = floor(sigma) + 1 (computed exactly: floor(sqrt(n/d)) = isqrt(n d) div d for
    sigma^2 = n/d). Repeat { Y = ``discrete_laplace(t)``; C =
    ``bernoulli_exp((|Y| - sigma^2/t)^2 / (2 sigma^2))``; if C = 1 return Y }.
    Cost limit: sigma^2 > 2^512 is refused (CostTooLarge).
    """
    s2 = rational_in(sigma2, "sigma2", low=0, low_open=True)
    max_scale("discrete_gaussian", "sigma2", s2, MAX_GAUSSIAN_VARIANCE, "2^512")
    return _dgauss(tape, s2.numerator, s2.denominator)


MAX_DIMENSION = 1 << 20


def discrete_gaussian_vector(tape: RandomTape, sigma2: object, dim: object) -> list[int]:
    """``dim`` independent ``discrete_gaussian(sigma2)`` samples, drawn in order from one tape.

    Range: 1 <= dim <= 2^20. Cost limit (after both ranges): sigma2 > 2^512 is refused.
    """
    s2 = rational_in(sigma2, "sigma2", low=0, low_open=True)
    k = count(dim, "dim", maximum=MAX_DIMENSION)
    if k == 0:
        raise SamplerParameterError("dim must be >= 1, got 0")
    max_scale("discrete_gaussian_vector", "sigma2", s2, MAX_GAUSSIAN_VARIANCE, "2^512")
    return [_dgauss(tape, s2.numerator, s2.denominator) for _ in range(k)]
