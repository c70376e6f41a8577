"""The rational-only sampler profile for DAP (normative): only integer and rational arithmetic.

The samplers a DAP deployment needs for the DP draft's mechanisms (sec. 4.1 discrete Laplace and
sec. 4.2 discrete Gaussian, both citing [CKS20]; sec. 4.3's randomized-response coin) can be
written so that every coin is a lazy comparison lc(a/b) with an explicit *rational* a/b, or a fair
bit. No number compared is irrational, so an implementation needs big integers only: no
floating point, no interval arithmetic, no exp(). This module is that profile.

It samples exactly the same distributions as the lazy profile (:mod:`dpspec.spec.samplers.core`)
from a different sequence of coins, so the same seed gives different samples: the profile has
its own tape tags (``dpspec/sampler/rational.NAME``) and its own vectors
(``vectors/samplers/rational/NAME.json``). Building blocks:

* ``be(g)``, Bernoulli(exp(-g)) for rational g >= 0: Algorithm 1 of [CKS20], as in
  :func:`dpspec.spec.samplers.core.bernoulli_exp` (its coins lc(g/K) are already rational).
* ``rr(g)``, Bernoulli(exp(-g) / (1 + exp(-g))) for rational g >= 0, by the two-coin Bernoulli
  factory: loop { if bit() = 1 return 0; if be(g) = 1 return 1 }. (One round returns 1 with
  probability exp(-g)/2 and 0 with probability 1/2.)
* the halving geometric with ratio x = exp(-gamma): with m the largest integer >= 0 such that
  2^m gamma <= 1 (m = 0 if gamma > 1), K = R + 2^m V where V is geometric with ratio
  exp(-2^m gamma) (a run of ``be(2^m gamma)`` successes) and the m binary digits of R are
  independent, digit j being 1 with probability exp(-2^j gamma) / (1 + exp(-2^j gamma)), that
  is ``rr(2^j gamma)``. The lazy profile compares a uniform with those irrational numbers
  directly; here each is a small exact experiment that has the same probability.

The discrete Laplace and Gaussian loops are the lazy profile's (``core._dlap`` and
``core._dgauss``, the constructions of Algorithms 2 and 3 of [CKS20]) called with this profile's
geometric sampler, so the two profiles differ only in how the geometric is drawn.

Cost: ``be(g)`` for g <= 1 reads about 2 (1 + g) bits on average, so a geometric_exp sample
costs O(log(1/gamma)) coins, like the lazy profile's, but each coin is a few lazy comparisons
instead of one (bits per sample: ``tests/benchmarks/bench_samplers.py``).
"""

from __future__ import annotations

from functools import lru_cache

from dpspec.spec.samplers.core import MAX_DIMENSION, _bern_exp, _bern_rr, _dgauss, _dlap
from dpspec.spec.samplers.params import (
    MAX_GAUSSIAN_VARIANCE,
    MAX_LAPLACE_SCALE,
    SamplerParameterError,
    count,
    max_scale,
    min_rate,
    rational_in,
)
from dpspec.spec.tape import RandomTape


def bernoulli_exp(tape: RandomTape, gamma: object) -> int:
    """Bernoulli(exp(-gamma)), rational gamma >= 0: ``be(gamma)`` (Algorithm 1 of [CKS20]).

    Steps, for gamma <= 1: K = 1; while lc(gamma / K) = 1: K = K + 1; return 1 if K is odd,
    else 0. For gamma > 1: floor(gamma) times { if be(1) = 0 return 0 }; return
    be(gamma - floor(gamma)). The same steps as the lazy profile's ``bernoulli_exp``.
    """
    g = rational_in(gamma, "gamma", low=0)
    return _bern_exp(tape, g.numerator, g.denominator)


def bernoulli_rr(tape: RandomTape, eps: object) -> int:
    """Bernoulli(1 / (1 + exp(eps))), rational eps >= 0: the randomized-response coin ``rr(eps)``.

    Steps: loop { if bit() = 1 return 0; if be(eps) = 1 return 1 }.
    """
    e = rational_in(eps, "eps", low=0)
    return _bern_rr(tape, e.numerator, e.denominator)


@lru_cache(maxsize=512)
def _halving_m(a: int, b: int) -> int:
    """The largest m >= 0 with 2^m a/b <= 1 (0 when a/b > 1)."""
    m = 0
    while (a << (m + 1)) <= b:
        m += 1
    return m


def _geometric_exp(tape: RandomTape, a: int, b: int) -> int:
    """Geometric with ratio exp(-a/b), a, b > 0: the steps of :func:`geometric_exp`."""
    m = _halving_m(a, b)
    v = 0
    while _bern_exp(tape, a << m, b):
        v += 1
    r = 0
    for j in range(m):
        r |= _bern_rr(tape, a << j, b) << j
    return r + (v << m)


def geometric_exp(tape: RandomTape, gamma: object) -> int:
    """P[K = k] = (1 - exp(-gamma)) exp(-gamma k), k >= 0, for rational gamma > 0.

    m = the largest integer >= 0 with 2^m gamma <= 1 (m = 0 if gamma > 1). Steps:

    1. V = 0; while be(2^m gamma) = 1: V = V + 1.
    2. For j = 0, 1, ..., m - 1: d_j = rr(2^j gamma).
    3. Return sum_j d_j 2^j + 2^m V.

    Cost limit: gamma < 2^-256 is refused (CostTooLarge).
    """
    g = rational_in(gamma, "gamma", low=0, low_open=True)
    min_rate("rational.geometric_exp", "gamma", g)
    return _geometric_exp(tape, g.numerator, g.denominator)


def discrete_laplace(tape: RandomTape, t: object) -> int:
    """Discrete Laplace, P[X = x] proportional to exp(-|x| / t), rational t > 0.

    The construction of Algorithm 2 of [CKS20] with the magnitude drawn by this profile's
    :func:`geometric_exp`: loop { Y = geometric_exp(1/t); B = bit(); if B = 1 and Y = 0:
    continue; return Y if B = 0 else -Y }. Cost limit: t > 2^256 is refused (CostTooLarge).
    """
    q = rational_in(t, "t", low=0, low_open=True)
    max_scale("rational.discrete_laplace", "t", q, MAX_LAPLACE_SCALE, "2^256")
    return _dlap(tape, q.numerator, q.denominator, _geometric_exp)


def discrete_gaussian(tape: RandomTape, sigma2: object) -> int:
    """Discrete Gaussian N_Z(0, sigma^2), rational sigma^2 = n/d > 0 (Algorithm 3 of [CKS20]).

    t = isqrt(n d) div d + 1 (= floor(sigma) + 1). Loop { Y = discrete_laplace(t); if
    be((|Y| t d - n)^2 / (2 t^2 d n)) = 1 return Y } (the exponent is (|Y| - sigma^2/t)^2 /
    (2 sigma^2) written over integers). Cost limit: sigma^2 > 2^512 is refused (CostTooLarge).
    """
    s2 = rational_in(sigma2, "sigma2", low=0, low_open=True)
    max_scale("rational.discrete_gaussian", "sigma2", s2, MAX_GAUSSIAN_VARIANCE, "2^512")
    return _dgauss(tape, s2.numerator, s2.denominator, _geometric_exp)


def discrete_gaussian_vector(tape: RandomTape, sigma2: object, dim: object) -> list[int]:
    """``dim`` independent :func:`discrete_gaussian` samples, in order, from one tape."""
    s2 = rational_in(sigma2, "sigma2", low=0, low_open=True)
    k = count(dim, "dim", maximum=MAX_DIMENSION)
    if k == 0:
        raise SamplerParameterError("dim must be >= 1, got 0")
    max_scale("rational.discrete_gaussian_vector", "sigma2", s2, MAX_GAUSSIAN_VARIANCE, "2^512")
    return [_dgauss(tape, s2.numerator, s2.denominator, _geometric_exp) for _ in range(k)]
