"""Infinitely divisible noise on the non-negative integers and its per-user shares [GKMP20, sec. 3].

A distribution D is infinitely divisible (Definition 7 of [GKMP20]) if for every n there is a
distribution D/n whose n-fold independent sum is D. The shuffled-model mechanisms need two such
families on the non-negative integers:

* Poisson ``Poi(lambda)``, ``P[k] = lambda^k e^-lambda / k!``; ``Poi(lambda)/n = Poi(lambda/n)``;
* negative binomial ``NB(r, p)``, ``P[k] = C(k+r-1, k) (1-p)^r p^k`` (footnote 3 of [GKMP20]: k
  successes of probability p before the r-th failure; real r > 0); ``NB(r, p)/n = NB(r/n, p)``.
  ``NB(1, p)`` is the geometric distribution with ``P[k] = (1-p) p^k``, and ``NB(1, a) - NB(1, a)``
  is the discrete Laplace distribution ``P[k] = (1-a)/(1+a) a^|k|`` (sec. 4 of [GKMP20]).

Parameters are exact rationals (``int``, :class:`fractions.Fraction` or a string, read by
:mod:`dpspec.spec.rational`); floats are refused, because a float is not the number its decimal spelling
suggests and every implementation must sample the same distribution. Means and variances are exact rationals;
probabilities (``pmf``, ``sf``) are mpmath numbers at ``dps`` decimal digits.

Sampling consumes the tape through :func:`dpspec.spec.samplers.poisson` and
:func:`dpspec.spec.samplers.negative_binomial`; one call of :meth:`sample` is exactly one call of that
sampler with this object's parameters, so the tape is consumed exactly as that sampler specifies.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass
from fractions import Fraction

import mpmath

from dpspec.spec.distributions import negative_binomial_pmf, poisson_pmf, to_mpf
from dpspec.spec.rational import RationalError, RationalLike, format_rational, parse_rational
from dpspec.spec.tape import RandomTape

__all__ = ["Divisible", "NegativeBinomial", "ParameterError", "Poisson", "RationalLike",
           "difference_pmf", "format_rational", "geometric", "rational"]


class ParameterError(ValueError):
    """A parameter that is not an exact rational in the allowed range."""


def rational(value: object, name: str) -> Fraction:
    """``value`` as an exact Fraction by :func:`dpspec.spec.rational.parse_rational` (floats refused)."""
    try:
        return parse_rational(value, name)
    except RationalError as exc:
        raise ParameterError(str(exc)) from exc


class Divisible(abc.ABC):
    """An infinitely divisible distribution on the non-negative integers (Definition 7)."""

    #: short family name used in vectors: "poisson" or "negative_binomial"
    family: str = ""

    @abc.abstractmethod
    def mean(self) -> Fraction:
        """``E[D]`` (exact)."""

    @abc.abstractmethod
    def variance(self) -> Fraction:
        """``Var[D]`` (exact)."""

    @abc.abstractmethod
    def share(self, n: int) -> Divisible:
        """``D/n``: the distribution whose n independent copies sum to ``D``."""

    @abc.abstractmethod
    def sample(self, tape: RandomTape) -> int:
        """One exact sample, drawn from ``tape`` by the project's sampler."""

    @abc.abstractmethod
    def pmf(self, k: int, dps: int = 50) -> mpmath.mpf:
        """``P[D = k]`` at ``dps`` digits."""

    @abc.abstractmethod
    def sf(self, k: int, dps: int = 50) -> mpmath.mpf:
        """``P[D > k]`` at ``dps`` digits (computed directly, without cancellation)."""

    @abc.abstractmethod
    def params(self) -> dict[str, str]:
        """The parameters as canonical rational strings (for vectors and reports)."""

    def describe(self) -> str:
        inner = ", ".join(f"{k}={v}" for k, v in self.params().items())
        return f"{self.family}({inner})"


def _check_n(n: int) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ParameterError(f"the number of users n must be a positive integer, got {n!r}")


@dataclass(frozen=True)
class Poisson(Divisible):
    """``Poi(lam)`` for rational ``lam >= 0`` (sec. 3.1 of [GKMP20]); ``lam = 0`` is the point 0."""

    lam: Fraction
    family = "poisson"

    def __init__(self, lam: RationalLike) -> None:
        value = rational(lam, "lambda")
        if value < 0:
            raise ParameterError(f"lambda must be >= 0, got {format_rational(value)}")
        object.__setattr__(self, "lam", value)

    def mean(self) -> Fraction:
        return self.lam

    def variance(self) -> Fraction:
        return self.lam

    def share(self, n: int) -> Poisson:
        _check_n(n)
        return Poisson(self.lam / n)

    def sample(self, tape: RandomTape) -> int:
        from dpspec.spec.samplers import poisson

        return int(poisson(tape, self.lam))

    def pmf(self, k: int, dps: int = 50) -> mpmath.mpf:
        return poisson_pmf(self.lam, k, dps)

    def sf(self, k: int, dps: int = 50) -> mpmath.mpf:
        if k < 0:
            return mpmath.mpf(1)
        with mpmath.workdps(dps):
            if self.lam == 0:
                return mpmath.mpf(0)
            # P[Poi(lam) > k] = P(k+1, lam), the regularised lower incomplete gamma function.
            return mpmath.gammainc(k + 1, 0, to_mpf(self.lam), regularized=True)

    def params(self) -> dict[str, str]:
        return {"lambda": format_rational(self.lam)}


@dataclass(frozen=True)
class NegativeBinomial(Divisible):
    """``NB(r, p)`` for rational ``r > 0`` and ``0 <= p < 1`` (footnote 3 of [GKMP20]).

    Mean ``r p / (1-p)``, variance ``r p / (1-p)^2`` (sec. 3.2 of [GKMP20]).
    """

    r: Fraction
    p: Fraction
    family = "negative_binomial"

    def __init__(self, r: RationalLike, p: RationalLike) -> None:
        rv, pv = rational(r, "r"), rational(p, "p")
        if rv <= 0:
            raise ParameterError(f"r must be > 0, got {format_rational(rv)}")
        if not 0 <= pv < 1:
            raise ParameterError(f"p must satisfy 0 <= p < 1, got {format_rational(pv)}")
        object.__setattr__(self, "r", rv)
        object.__setattr__(self, "p", pv)

    def mean(self) -> Fraction:
        return self.r * self.p / (1 - self.p)

    def variance(self) -> Fraction:
        return self.r * self.p / (1 - self.p) ** 2

    def share(self, n: int) -> NegativeBinomial:
        _check_n(n)
        return NegativeBinomial(self.r / n, self.p)

    def sample(self, tape: RandomTape) -> int:
        from dpspec.spec.samplers import negative_binomial

        return int(negative_binomial(tape, self.r, self.p))

    def pmf(self, k: int, dps: int = 50) -> mpmath.mpf:
        return negative_binomial_pmf(self.r, self.p, k, dps)

    def sf(self, k: int, dps: int = 50) -> mpmath.mpf:
        if k < 0:
            return mpmath.mpf(1)
        with mpmath.workdps(dps):
            if self.p == 0:
                return mpmath.mpf(0)
            # P[NB(r, p) > k] = I_p(k+1, r), the regularised incomplete beta function.
            return mpmath.betainc(k + 1, to_mpf(self.r), 0, to_mpf(self.p), regularized=True)

    def params(self) -> dict[str, str]:
        return {"r": format_rational(self.r), "p": format_rational(self.p)}


def geometric(a: RationalLike) -> NegativeBinomial:
    """``NB(1, a)``: ``P[k] = (1-a) a^k``; two independent copies differ by a discrete Laplace."""
    return NegativeBinomial(1, a)


def discrete_laplace_decay(epsilon: mpmath.mpf | int | Fraction, dps: int = 50) -> mpmath.mpf:
    """``a = e^-eps``: the decay of ``DLap(eps)`` (footnote 4 of [GKMP20]), ``P[k] ∝ a^|k|``."""
    with mpmath.workdps(dps):
        return mpmath.exp(-to_mpf(epsilon) if isinstance(epsilon, int | Fraction) else -epsilon)


def difference_pmf(d1: Divisible, d2: Divisible, k: int, dps: int = 50,
                   terms: int | None = None) -> mpmath.mpf:
    """``P[D1 - D2 = k]`` by direct convolution, truncated where both tails are below 10^-(dps+5).

    The truncation point is the smallest ``m`` with ``P[D1 > m] + P[D2 > m] < 10^-(dps+5)``
    (found by doubling), unless ``terms`` fixes it.
    """
    with mpmath.workdps(dps + 10):
        if terms is None:
            eps = mpmath.mpf(10) ** -(dps + 5)
            m = 16
            while d1.sf(m, dps + 10) + d2.sf(m, dps + 10) >= eps:
                m *= 2
            terms = m
        lo = max(0, k)
        total = mpmath.fsum(d1.pmf(j, dps + 10) * d2.pmf(j - k, dps + 10)
                            for j in range(lo, terms + max(0, k) + 1))
    return +total
