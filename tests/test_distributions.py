"""The reference PMFs sum to one and have the textbook moments."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

import mpmath
import pytest

from dpspec.spec import distributions as d


@pytest.fixture(autouse=True)
def _working_precision() -> Iterator[None]:
    """60 digits inside this module's tests only: a global ``mpmath.mp.dps`` set at import would
    leak into every other test of the session (and change what the library computes there)."""
    with mpmath.workdps(60):
        yield




def total(pmf, lo: int, hi: int) -> mpmath.mpf:  # type: ignore[no-untyped-def]
    return mpmath.fsum(pmf(x) for x in range(lo, hi + 1))


@pytest.mark.parametrize("t", [Fraction(1, 3), 1, 10])
def test_discrete_laplace(t: Fraction) -> None:
    assert abs(total(lambda x: d.discrete_laplace_pmf(t, x), -2000, 2000) - 1) < 1e-40
    var = mpmath.fsum(x * x * d.discrete_laplace_pmf(t, x) for x in range(-2000, 2001))
    a = mpmath.exp(-1 / d.to_mpf(t))
    assert abs(var - 2 * a / (1 - a) ** 2) < 1e-30


@pytest.mark.parametrize("sigma2", [Fraction(1, 100), 1, Fraction(81, 4), 10**4])
def test_discrete_gaussian(sigma2: Fraction) -> None:
    z = d.discrete_gaussian_normaliser(sigma2)
    span = int(40 * mpmath.sqrt(d.to_mpf(sigma2))) + 5
    pmf = lambda x: d.discrete_gaussian_pmf(sigma2, x, normaliser=z)  # noqa: E731
    assert abs(total(pmf, -span, span) - 1) < 1e-40
    # variance is below sigma^2 (CKS20 Corollary 9)
    var = mpmath.fsum(x * x * pmf(x) for x in range(-span, span + 1))
    assert var <= d.to_mpf(sigma2) * (1 + mpmath.mpf(10) ** -45)


def test_huge_sigma_normaliser_matches_sum() -> None:
    s2 = 10**12
    approx = d.discrete_gaussian_normaliser(s2)
    assert abs(approx / mpmath.sqrt(2 * mpmath.pi * s2) - 1) < 1e-40


def test_counting_distributions() -> None:
    assert abs(total(lambda k: d.binomial_pmf(30, Fraction(1, 7), k), 0, 30) - 1) < 1e-40
    assert abs(total(lambda k: d.poisson_pmf(Fraction(5, 2), k), 0, 400) - 1) < 1e-40
    assert d.poisson_pmf(0, 0) == 1 and d.poisson_pmf(0, 3) == 0
    assert abs(total(lambda k: d.geometric_pmf(Fraction(1, 3), k), 0, 2000) - 1) < 1e-40
    r, p = Fraction(3, 10), Fraction(2, 3)
    assert abs(total(lambda k: d.negative_binomial_pmf(r, p, k), 0, 3000) - 1) < 1e-30
    mean = mpmath.fsum(k * d.negative_binomial_pmf(r, p, k) for k in range(0, 3000))
    assert abs(mean - d.to_mpf(r) * d.to_mpf(p) / (1 - d.to_mpf(p))) < 1e-25
    assert d.bernoulli_pmf(Fraction(1, 3), 1) == Fraction(1, 3)
