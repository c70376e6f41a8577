"""Exact-distribution tests of the samplers against the PMFs of dpspec.spec.distributions.

Each test draws N samples from a fixed seed (so the outcome is reproducible, never flaky) and
applies a chi-square goodness-of-fit test against the exact PMF, with consecutive support points
merged into bins of expected count >= 5 and both tails folded into the extreme bins. A test
fails when the p-value is below ALPHA = 1e-9; with the ~45 tests of this file the probability
that a correct sampler fails any of them on a fresh seed is below 1e-7 (union bound). Mean and
variance are checked with 6-standard-error bounds (two-sided false-alarm rate 2e-9 each; the
standard error of the sample variance uses the exact fourth central moment).

The seeds are fixed, so a pass here is a fact about these samples; the false-alarm rate says how
unlikely it would be to see a failure for a correct sampler on any other seed. Power: N is
chosen so that a bias of a few per cent in any bin with expected count >= 200 is detected.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from math import fsum

import mpmath
import pytest
from scipy.stats import chi2

from dpspec.spec import distributions as D
from dpspec.spec.samplers import (
    bernoulli,
    bernoulli_exp,
    bernoulli_rr,
    binomial,
    binomial_rr,
    binomial_textbook,
    discrete_gaussian,
    discrete_gaussian_vector,
    discrete_laplace,
    geometric,
    geometric_exp,
    negative_binomial,
    negative_binomial_exp,
    poisson,
)
from dpspec.spec.tape import RandomTape

ALPHA = 1e-9
SIGMAS = 6.0
SEED = bytes.fromhex("5eed" * 16)

Pmf = Callable[[int], float]


def draw(sampler: Callable[..., int], *params: object, n: int, tag: str) -> list[int]:
    t = RandomTape(SEED, "stats/" + tag)
    return [sampler(t, *params) for _ in range(n)]


def chi_square_p(samples: list[int], probs: list[float], lo: int) -> float:
    """p-value of the chi-square test of ``samples`` against the PMF values ``probs`` on
    lo, lo + 1, ..., hi (samples outside are folded into the extreme bins)."""
    n = len(samples)
    hi = lo + len(probs) - 1
    inner = sum(probs)
    assert inner > 1 - 1e-9, "support range too small for the test"
    counts = Counter(min(max(x, lo), hi) for x in samples)
    bins: list[tuple[float, int]] = []
    acc_p, acc_c = 0.0, 0
    for i, k in enumerate(range(lo, hi + 1)):
        acc_p += probs[i]
        acc_c += counts.get(k, 0)
        if acc_p * n >= 5:
            bins.append((acc_p, acc_c))
            acc_p, acc_c = 0.0, 0
    if bins:
        last_p, last_c = bins.pop()
        bins.append((last_p + acc_p + (1 - inner), last_c + acc_c))
    if len(bins) < 2:
        return 1.0
    stat = sum((c - n * p) ** 2 / (n * p) for p, c in bins)
    return float(chi2.sf(stat, len(bins) - 1))


def moments(probs: list[float], lo: int) -> tuple[float, float, float]:
    """Mean, variance and fourth central moment of the PMF values ``probs`` on lo, lo + 1, ..."""
    mean = fsum(p * (lo + i) for i, p in enumerate(probs))
    var = fsum(p * (lo + i - mean) ** 2 for i, p in enumerate(probs))
    m4 = fsum(p * (lo + i - mean) ** 4 for i, p in enumerate(probs))
    return mean, var, m4


def check(samples: list[int], pmf: Pmf, lo: int, hi: int) -> None:
    probs = [float(pmf(k)) for k in range(lo, hi + 1)]
    p = chi_square_p(samples, probs, lo)
    assert p > ALPHA, f"chi-square p-value {p:.3g}"
    mean, var, m4 = moments(probs, lo)
    n = len(samples)
    s_mean = sum(samples) / n
    s_var = sum((x - s_mean) ** 2 for x in samples) / (n - 1)
    assert abs(s_mean - mean) <= SIGMAS * (var / n) ** 0.5 + 1e-12, (s_mean, mean)
    se_var = ((m4 - var * var) / n) ** 0.5
    # the second term bounds the (mean-estimation) O(1/n) part that the CLT term misses
    assert abs(s_var - var) <= SIGMAS * se_var + SIGMAS**2 * var / n, (s_var, var)


# -- Bernoulli family ------------------------------------------------------------------------------


@pytest.mark.parametrize("p", ["1/3", "1/1000", "999/1000", "1/2", "0.7071067811865475"])
def test_bernoulli(p: str) -> None:
    q = Fraction(p)
    check(draw(bernoulli, p, n=20000, tag="bern" + p), lambda k: float(D.bernoulli_pmf(q, k)), 0, 1)


@pytest.mark.parametrize("gamma", ["0", "1/10", "1", "5/2", "7"])
def test_bernoulli_exp(gamma: str) -> None:
    x = mpmath.exp(-D.to_mpf(Fraction(gamma)))
    check(draw(bernoulli_exp, gamma, n=20000, tag="bexp" + gamma),
          lambda k: float(x if k == 1 else 1 - x), 0, 1)


@pytest.mark.parametrize("eps", ["0", "1/4", "1", "3"])
def test_bernoulli_rr(eps: str) -> None:
    x = 1 / (1 + mpmath.exp(D.to_mpf(Fraction(eps))))
    check(draw(bernoulli_rr, eps, n=20000, tag="brr" + eps),
          lambda k: float(x if k == 1 else 1 - x), 0, 1)


# -- geometric, Laplace, Gaussian ------------------------------------------------------------------


@pytest.mark.parametrize("p,hi", [("1/2", 60), ("1/3", 100), ("9/10", 20), ("1/1000", 25000),
                                  ("0.37", 100)])
def test_geometric(p: str, hi: int) -> None:
    q = Fraction(p)
    check(draw(geometric, p, n=20000, tag="geo" + p), lambda k: D.geometric_pmf(q, k), 0, hi)


@pytest.mark.parametrize("gamma,hi", [("1/10", 400), ("3", 20), ("1/2", 80), ("1/1000", 25000)])
def test_geometric_exp(gamma: str, hi: int) -> None:
    g = Fraction(gamma)
    ratio = mpmath.exp(-D.to_mpf(g))
    check(draw(geometric_exp, gamma, n=20000, tag="gexp" + gamma),
          lambda k: (1 - ratio) * ratio**k, 0, hi)


@pytest.mark.parametrize("t", ["1/3", "1", "5/2", "10", "100"])
def test_discrete_laplace(t: str) -> None:
    q = Fraction(t)
    k = int(40 * q) + 5
    check(draw(discrete_laplace, t, n=20000, tag="dlap" + t),
          lambda x: D.discrete_laplace_pmf(q, x), -k, k)


@pytest.mark.parametrize("sigma2", ["1/100", "1/2", "1", "3/2", "100", "1000", "10000"])
def test_discrete_gaussian(sigma2: str) -> None:
    q = Fraction(sigma2)
    z = D.discrete_gaussian_normaliser(q, 30)
    k = int(10 * mpmath.sqrt(D.to_mpf(q))) + 3
    check(draw(discrete_gaussian, sigma2, n=20000, tag="dg" + sigma2),
          lambda x: D.discrete_gaussian_pmf(q, x, 30, z), -k, k)


def test_discrete_gaussian_huge_sigma_moments() -> None:
    """sigma^2 = 10^12: mean 0 and variance sigma^2 (to within 10^-1000 relative)."""
    xs = draw(discrete_gaussian, 10**12, n=4000, tag="dghuge")
    n = len(xs)
    mean = sum(xs) / n
    var = sum(x * x for x in xs) / n
    assert abs(mean) <= SIGMAS * (10**12 / n) ** 0.5
    assert abs(var - 10**12) <= SIGMAS * (2 * 10**24 / n) ** 0.5


def test_discrete_gaussian_vector_coordinates() -> None:
    t = RandomTape(SEED, "stats/dgvec")
    rows = [discrete_gaussian_vector(t, 2, 4) for _ in range(5000)]
    q = Fraction(2)
    z = D.discrete_gaussian_normaliser(q, 30)
    for i in range(4):
        check([r[i] for r in rows], lambda x: D.discrete_gaussian_pmf(q, x, 30, z), -20, 20)


# -- counts -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("n,p", [(20, "1/2"), (1000, "1/100"), (50, "9/10"), (10**6, "1/10**5"),
                                 (7, "1/3")])
def test_binomial(n: int, p: str) -> None:
    q = Fraction(1, 10**5) if p == "1/10**5" else Fraction(p)
    lo, hi = 0, min(n, 200)
    check(draw(binomial, n, q, n=4000 if n > 10**4 else 10000, tag=f"bin{n}/{p}"),
          lambda k: D.binomial_pmf(n, q, k), lo, hi)


@pytest.mark.parametrize("n,p", [(20, "1/2"), (40, "1/10")])
def test_binomial_textbook(n: int, p: str) -> None:
    q = Fraction(p)
    check(draw(binomial_textbook, n, q, n=10000, tag=f"bint{n}/{p}"),
          lambda k: D.binomial_pmf(n, q, k), 0, n)


@pytest.mark.parametrize("n,p", [(30, "1/4"), (60, "3/5")])
def test_binomial_agrees_with_textbook(n: int, p: str) -> None:
    """The two binomial samplers agree in distribution (two-sample chi-square, homogeneity)."""
    a = Counter(draw(binomial, n, p, n=10000, tag="agree-a"))
    b = Counter(draw(binomial_textbook, n, p, n=10000, tag="agree-b"))
    # bins with pooled count >= 10, tails merged
    keys = sorted(set(a) | set(b))
    bins: list[tuple[int, int]] = []
    ca = cb = 0
    for k in keys:
        ca += a.get(k, 0)
        cb += b.get(k, 0)
        if ca + cb >= 20:
            bins.append((ca, cb))
            ca = cb = 0
    last = bins.pop()
    bins.append((last[0] + ca, last[1] + cb))
    na, nb = sum(a.values()), sum(b.values())
    stat = 0.0
    for x, y in bins:
        tot = x + y
        ea, eb = tot * na / (na + nb), tot * nb / (na + nb)
        stat += (x - ea) ** 2 / ea + (y - eb) ** 2 / eb
    assert chi2.sf(stat, len(bins) - 1) > ALPHA


@pytest.mark.parametrize("n,eps", [(40, "0"), (100, "1"), (200, "3"), (10**5, "12")])
def test_binomial_rr(n: int, eps: str) -> None:
    p = 1 / (1 + mpmath.exp(D.to_mpf(Fraction(eps))))
    hi = min(n, 120)

    def pmf(k: int) -> float:
        with mpmath.workdps(30):
            return float(mpmath.binomial(n, k) * p**k * (1 - p) ** (n - k))

    check(draw(binomial_rr, n, eps, n=4000, tag=f"binrr{n}/{eps}"), pmf, 0, hi)


@pytest.mark.parametrize("lam,hi", [("1/100", 6), ("1/2", 12), ("3", 30), ("25/2", 60)])
def test_poisson(lam: str, hi: int) -> None:
    q = Fraction(lam)
    check(draw(poisson, q, n=10000, tag="poi" + lam), lambda k: D.poisson_pmf(q, k), 0, hi)


@pytest.mark.parametrize("r,p,hi", [("1/3", "1/2", 60), ("1/100", "9/10", 600), ("2", "1/4", 40),
                                    ("5/2", "3/4", 150), ("1", "1/2", 60)])
def test_negative_binomial(r: str, p: str, hi: int) -> None:
    rr, q = Fraction(r), Fraction(p)
    check(draw(negative_binomial, rr, q, n=10000, tag=f"nb{r}/{p}"),
          lambda k: D.negative_binomial_pmf(rr, q, k), 0, hi)


@pytest.mark.parametrize("r,gamma,hi", [("1", "1", 40), ("1/100", "1/2", 40), ("1/3", "1/10", 400),
                                        ("3", "1/2", 80)])
def test_negative_binomial_exp(r: str, gamma: str, hi: int) -> None:
    rr = D.to_mpf(Fraction(r))
    with mpmath.workdps(40):
        p = mpmath.exp(-D.to_mpf(Fraction(gamma)))

        def pmf(k: int) -> float:
            with mpmath.workdps(40):
                log_c = mpmath.loggamma(k + rr) - mpmath.loggamma(k + 1) - mpmath.loggamma(rr)
                return float(mpmath.exp(log_c + rr * mpmath.log(1 - p) + k * mpmath.log(p)))

    check(draw(negative_binomial_exp, r, gamma, n=6000, tag=f"nbexp{r}/{gamma}"), pmf, 0, hi)


# -- the registry's PMFs (what the conformance harness's statistical mode uses) ---------------------

_REGISTRY_CASES: list[tuple[str, dict[str, str], int, int]] = [
    ("bernoulli", {"p": "2/7"}, 0, 1), ("bernoulli_exp", {"gamma": "3/2"}, 0, 1),
    ("bernoulli_rr", {"eps": "1"}, 0, 1), ("geometric", {"p": "1/10"}, 0, 300),
    ("geometric_exp", {"gamma": "1/7"}, 0, 300), ("discrete_laplace", {"t": "5/2"}, -120, 120),
    ("discrete_gaussian", {"sigma2": "20"}, -60, 60), ("binomial", {"n": "30", "p": "1/6"}, 0, 30),
    ("binomial_textbook", {"n": "30", "p": "1/6"}, 0, 30),
    ("binomial_rr", {"n": "30", "eps": "1/2"}, 0, 30), ("poisson", {"lam": "3/2"}, 0, 40),
    ("negative_binomial", {"r": "1/3", "p": "1/2"}, 0, 100),
    ("negative_binomial_exp", {"r": "1/3", "gamma": "1/2"}, 0, 100),
    ("rational.bernoulli_exp", {"gamma": "3/2"}, 0, 1), ("rational.bernoulli_rr", {"eps": "1"}, 0, 1),
    ("rational.geometric_exp", {"gamma": "1/7"}, 0, 300),
    ("rational.discrete_laplace", {"t": "5/2"}, -120, 120),
    ("rational.discrete_gaussian", {"sigma2": "20"}, -60, 60),
]


def test_registry_cases_cover_every_scalar_sampler() -> None:
    from dpspec.spec.samplers import SAMPLERS

    assert {c[0] for c in _REGISTRY_CASES} == {n for n, s in SAMPLERS.items() if not s.vector}


@pytest.mark.parametrize("name,params,lo,hi", _REGISTRY_CASES)
def test_registry_pmf(name: str, params: dict[str, str], lo: int, hi: int) -> None:
    from dpspec.spec.samplers import SAMPLERS

    s = SAMPLERS[name]
    total = fsum(float(s.pmf(params, k)) for k in range(lo, hi + 1))
    assert abs(total - 1) < 1e-9
    t = RandomTape(SEED, "stats/registry/" + name)
    samples = [s.draw(t, params) for _ in range(4000)]
    check(samples, lambda k: s.pmf(params, k), lo, hi)


def test_registry_pmf_vector() -> None:
    from dpspec.spec.samplers import SAMPLERS

    s = SAMPLERS["discrete_gaussian_vector"]
    params = {"sigma2": "2", "dim": "2"}
    one = SAMPLERS["discrete_gaussian"].pmf({"sigma2": "2"}, 1)
    assert s.pmf(params, [1, 1]) == one * one
    assert s.pmf(params, [1]) == 0
