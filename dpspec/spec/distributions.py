"""Exact probability mass functions of the distributions dpspec samples from.

These are the yardsticks for the statistical tests and the conformance harness's statistical
mode: the samplers (``dpspec.spec.samplers``) must produce exactly these distributions. Values are
computed with mpmath at ``dps`` decimal digits (default 50); the only approximation is the
truncation of the discrete Gaussian's normalising sum, whose tail is bounded below 10^-(dps+5).

Conventions, as in the sources:

* discrete Laplace with scale t > 0 (CKS20 Definition 28): ``P[x] ∝ exp(-|x|/t)`` on the integers;
* discrete Gaussian with variance parameter sigma^2 > 0 (CKS20 Definition 1):
  ``P[x] ∝ exp(-x^2 / (2 sigma^2))`` on the integers;
* geometric with success probability p: ``P[k] = (1-p)^k p`` for k = 0, 1, 2, ... (failures
  before the first success);
* Poisson(lambda); binomial(n, p); negative binomial NB(r, p) with ``P[k] = C(k+r-1, k) (1-p)^r p^k``
  (the convention of Ghazi et al., sec. 3: k counts successes of probability p before r failures;
  mean ``r p / (1-p)``).
"""

from __future__ import annotations

from fractions import Fraction

import mpmath

Number = int | Fraction


def to_mpf(x: Number) -> mpmath.mpf:
    """An exact rational as an mpf at the working precision."""
    if isinstance(x, Fraction):
        return mpmath.mpf(x.numerator) / x.denominator
    return mpmath.mpf(x)


def discrete_laplace_pmf(t: Number, x: int, dps: int = 50) -> mpmath.mpf:
    """``P[X = x]`` for the discrete Laplace with scale ``t`` (CKS20 Definition 28)."""
    with mpmath.workdps(dps):
        a = mpmath.exp(-1 / to_mpf(t))
        return (1 - a) / (1 + a) * a ** abs(x)


def discrete_gaussian_normaliser(sigma2: Number, dps: int = 50) -> mpmath.mpf:
    """``sum_{x in Z} exp(-x^2 / (2 sigma^2))``, truncated where the tail is below 10^-(dps+5)."""
    with mpmath.workdps(dps + 10):
        s2 = to_mpf(sigma2)
        # exp(-x^2/(2 s2)) < 10^-(dps+10) once x > sqrt(2 s2 (dps+10) ln 10); the tail beyond is
        # bounded by a geometric series with ratio below one, so the error is < 10^-(dps+5).
        bound = int(mpmath.ceil(mpmath.sqrt(2 * s2 * (dps + 10) * mpmath.log(10)))) + 1
        if bound > 10**6:
            # Poisson summation: Z = sqrt(2 pi s2) * sum_k exp(-2 pi^2 s2 k^2); k = 0, +-1 suffice
            # for huge s2 (the k = 1 term is below exp(-2 pi^2 10^11)).
            return mpmath.sqrt(2 * mpmath.pi * s2) * (1 + 2 * mpmath.exp(-2 * mpmath.pi**2 * s2))
        total = mpmath.mpf(1)
        for x in range(1, bound + 1):
            total += 2 * mpmath.exp(-mpmath.mpf(x * x) / (2 * s2))
        return total


def discrete_gaussian_pmf(sigma2: Number, x: int, dps: int = 50,
                          normaliser: mpmath.mpf | None = None) -> mpmath.mpf:
    """``P[X = x]`` for the discrete Gaussian N_Z(0, sigma^2) (CKS20 Definition 1)."""
    with mpmath.workdps(dps):
        z = normaliser if normaliser is not None else discrete_gaussian_normaliser(sigma2, dps)
        return mpmath.exp(-mpmath.mpf(x * x) / (2 * to_mpf(sigma2))) / z


def geometric_pmf(p: Number, k: int, dps: int = 50) -> mpmath.mpf:
    """``P[K = k] = (1-p)^k p``, k >= 0."""
    if k < 0:
        return mpmath.mpf(0)
    with mpmath.workdps(dps):
        q = to_mpf(p)
        return (1 - q) ** k * q


def bernoulli_pmf(p: Number, k: int) -> Fraction:
    """``P[B = k]`` for k in {0, 1} (exact)."""
    p = Fraction(p)
    return p if k == 1 else (1 - p if k == 0 else Fraction(0))


def binomial_pmf(n: int, p: Number, k: int, dps: int = 50) -> mpmath.mpf:
    """``P[K = k]`` for Binomial(n, p)."""
    if not 0 <= k <= n:
        return mpmath.mpf(0)
    with mpmath.workdps(dps):
        q = to_mpf(p)
        return mpmath.binomial(n, k) * q**k * (1 - q) ** (n - k)


def poisson_pmf(lam: Number, k: int, dps: int = 50) -> mpmath.mpf:
    """``P[K = k]`` for Poisson(lambda); lambda = 0 is the point mass at 0."""
    if k < 0:
        return mpmath.mpf(0)
    with mpmath.workdps(dps):
        lm = to_mpf(lam)
        if lm == 0:
            return mpmath.mpf(1 if k == 0 else 0)
        return mpmath.exp(k * mpmath.log(lm) - lm - mpmath.loggamma(k + 1))


def negative_binomial_pmf(r: Number, p: Number, k: int, dps: int = 50) -> mpmath.mpf:
    """``P[K = k] = Gamma(k+r)/(k! Gamma(r)) (1-p)^r p^k`` for NB(r, p), real r > 0."""
    if k < 0:
        return mpmath.mpf(0)
    with mpmath.workdps(dps):
        rr, q = to_mpf(r), to_mpf(p)
        if q == 0:
            return mpmath.mpf(1 if k == 0 else 0)
        log_c = mpmath.loggamma(k + rr) - mpmath.loggamma(k + 1) - mpmath.loggamma(rr)
        return mpmath.exp(log_c + rr * mpmath.log(1 - q) + k * mpmath.log(q))
