"""Statistical mode: correct samplers pass, slightly wrong ones are caught, power is reported.

The fake adapter's samplers are driven by a fixed seed, so each assertion here is deterministic;
with the default false-alarm rate 1e-6 per suite a correct sampler would fail with probability
below 1e-6 for a fresh seed.
"""

from __future__ import annotations

import math
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpspec.conformance.harness.adapters import AdapterSpec
from dpspec.conformance.harness.model import FAILED, PASSED
from dpspec.conformance.harness.runner import run_impl
from dpspec.conformance.statistical import (
    DISTRIBUTIONS,
    StatisticalSuite,
    bernoulli_rr_table,
    binomial_table,
    bins_for,
    chi2_sf,
    detection_power,
    gaussian_table,
    geometric_table,
    laplace_table,
    parse_samples,
    poisson_table,
    two_sided_p,
)

FAKE = Path(__file__).resolve().parent / "adapters" / "fake.py"
N = 20_000


def fake(*modes: str) -> AdapterSpec:
    return AdapterSpec("fake", (sys.executable, str(FAKE), *modes), "test", bundled=False)


def suites() -> list[StatisticalSuite]:
    return [StatisticalSuite(k, samples=N) for k in DISTRIBUTIONS]


def by_suite(spec: AdapterSpec) -> dict[str, dict[str, int]]:
    impl = run_impl(spec, suites(), timeout=30.0)
    return {s.name: s.counts for s in impl.suites}


def test_correct_samplers_pass_and_power_is_reported() -> None:
    impl = run_impl(fake("seed=7"), suites(), timeout=30.0)
    assert impl.disposition == "PASS", [o.reason for s in impl.suites for o in s.outcomes]
    gauss = next(s for s in impl.suites if s.name == "statistical.discrete_gaussian")
    assert len(gauss.outcomes) == 9 and all(o.status == PASSED for o in gauss.outcomes)
    points = gauss.details["points"]
    assert all(0.02 < p["detectableRelativeError"] < 0.06 for p in points)
    assert any("detected with probability 99%" in n for n in gauss.notes)
    assert gauss.details["perTestAlpha"] == pytest.approx(1e-6 / 9)


def test_sampler_with_slightly_wrong_sigma_is_caught() -> None:
    # 5% too large a sigma (and t): above the reported detectable error for the Gaussian
    counts = by_suite(fake("sigma=1.05"))
    assert counts["statistical.discrete_gaussian"][FAILED] >= 3
    assert counts["statistical.bernoulli"][FAILED] == 0
    counts = by_suite(fake("sigma=0.95"))
    assert counts["statistical.discrete_gaussian"][FAILED] >= 3
    assert counts["statistical.discrete_laplace"][FAILED] >= 1


def test_rappor_with_wrong_flip_probability_is_caught() -> None:
    # RAPPOR's randomized response flips with probability 1/(1+exp(eps)); 10% too high
    counts = by_suite(fake("rr=1.1"))
    assert counts["statistical.bernoulli_rr"][FAILED] >= 2
    assert sum(c[FAILED] for name, c in counts.items() if name != "statistical.bernoulli_rr") == 0
    # and a plain Bernoulli coin with p 10% too high
    counts = by_suite(fake("bernoulli=1.1"))
    assert counts["statistical.bernoulli"][FAILED] >= 2
    assert counts["statistical.discrete_gaussian"][FAILED] == 0


def test_statistical_garbage_samples_fail_cleanly() -> None:
    suite = StatisticalSuite("bernoulli", samples=200)
    impl = run_impl(fake("unsupported"), [suite], timeout=10.0)
    assert impl.disposition == "UNTESTED"
    with pytest.raises(ValueError, match="sample 1"):
        parse_samples(["1", "x"])
    with pytest.raises(ValueError):
        parse_samples([True])
    assert parse_samples(["-3", 4]) == [-3, 4]


def test_tables_match_exact_moments() -> None:
    g = gaussian_table(Fraction(4))
    assert math.fsum(g.probs) == pytest.approx(1, abs=1e-15)
    # the discrete Gaussian's variance is a little below sigma^2
    assert 3.99 < g.moment(2) < 4.0
    lap = laplace_table(Fraction(2))
    a = math.exp(-1 / 2)
    assert lap.moment(2) == pytest.approx(2 * a / (1 - a) ** 2, rel=1e-12)
    bins = bins_for(g, 10_000)
    assert math.fsum(b[2] for b in bins) == pytest.approx(1)
    assert all(10_000 * b[2] >= 50 for b in bins)


def test_tables_agree_with_spec_distributions() -> None:
    from dpspec.spec.distributions import (
        binomial_pmf,
        discrete_gaussian_pmf,
        discrete_laplace_pmf,
        geometric_pmf,
        poisson_pmf,
    )

    checks = [
        (gaussian_table(Fraction(100)), lambda x: discrete_gaussian_pmf(Fraction(100), x), 40),
        (laplace_table(Fraction(20)), lambda x: discrete_laplace_pmf(Fraction(20), x), 200),
        (geometric_table(Fraction(1, 20)), lambda x: geometric_pmf(Fraction(1, 20), x), 300),
        (poisson_table(Fraction(40)), lambda x: poisson_pmf(Fraction(40), x), 90),
        (binomial_table(Fraction(1, 10)), lambda x: binomial_pmf(40, Fraction(1, 10), x), 30),
    ]
    for table, pmf, span in checks:
        assert math.fsum(table.probs) == pytest.approx(1, abs=1e-12)
        for x in range(max(table.lo, -span), span, 3):
            assert table.probs[x - table.lo] == pytest.approx(float(pmf(x)), rel=1e-12)
    assert bernoulli_rr_table(Fraction(1)).probs[1] == pytest.approx(1 / (1 + math.e), rel=1e-15)


def test_p_values() -> None:
    assert chi2_sf(0.0, 3) == pytest.approx(1.0)
    assert chi2_sf(7.814727903251178, 3) == pytest.approx(0.05, rel=1e-9)
    assert two_sided_p(1.959963984540054) == pytest.approx(0.05, rel=1e-9)


def test_power_shrinks_with_the_sample_size() -> None:
    dist = DISTRIBUTIONS["discrete_gaussian"]
    small = detection_power(dist, Fraction(25, 4), 10_000, 5.5)
    large = detection_power(dist, Fraction(25, 4), 40_000, 5.5)
    assert large == pytest.approx(small / 2, rel=0.1)


@given(st.fractions(min_value=Fraction(1, 10), max_value=Fraction(400), max_denominator=50),
       st.integers(min_value=200, max_value=10**6))
@settings(max_examples=40)
def test_bins_are_a_partition_with_enough_expected(sigma2: Fraction, n: int) -> None:
    table = gaussian_table(sigma2)
    bins = bins_for(table, n)
    if not bins:  # then no split into two contiguous bins of expected count >= 50 exists
        cdf = 0.0
        for p in table.probs:
            cdf += p
            assert n * cdf < 50 or n * (1 - cdf) < 50
        return
    assert bins[0][0] < table.lo and bins[-1][1] > table.hi  # open-ended tails
    for (_, hi, _), (lo, _, _) in zip(bins, bins[1:], strict=False):
        assert lo == hi + 1
    assert math.fsum(b[2] for b in bins) == pytest.approx(1, abs=1e-12)
    assert all(n * b[2] >= 50 * (1 - 1e-9) for b in bins)


def test_failures_show_where_the_sampler_departs() -> None:
    impl = run_impl(fake("sigma=1.05"), [StatisticalSuite("discrete_gaussian", samples=N,
                                                          points=("25/4",))], timeout=30.0)
    chi = next(o for s in impl.suites for o in s.outcomes if o.test == "chi-square")
    assert chi.status == FAILED
    worst = chi.provided["largestDeviations"]
    assert len(worst) == 3 and abs(worst[0]["residual"]) >= abs(worst[1]["residual"])
    # a too-wide sampler puts too much mass in the tails
    assert any(w["range"].startswith(("<=", ">=")) and w["residual"] > 0 for w in worst)


def test_registry_samplers_have_suites_and_local_power_is_close() -> None:
    from dataclasses import replace

    from dpspec.conformance.statistical import (
        REGISTRY_SUITES,
        registry_distributions,
        statistical_suites,
    )
    from dpspec.spec.samplers.registry import SAMPLERS

    dists = registry_distributions()
    names = {s.name for s in statistical_suites(samples=1000)}
    for name in REGISTRY_SUITES:
        assert name in SAMPLERS and name in dists and f"statistical.{name}" in names
    # the first-order power used for the registry suites agrees with the exact bisection
    for key, point in [("discrete_gaussian", "25/4"), ("poisson", "15/2"), ("geometric", "1/5")]:
        exact = detection_power(DISTRIBUTIONS[key], Fraction(point), 50_000, 5.7)
        local = detection_power(replace(DISTRIBUTIONS[key], local_power=True), Fraction(point),
                                50_000, 5.7)
        assert local == pytest.approx(exact, rel=0.05)


def test_registry_suites_pass_a_correct_sampler() -> None:
    from dpspec.conformance.statistical import registry_distributions

    suites = [StatisticalSuite(k, samples=N) for k in registry_distributions()]
    impl = run_impl(fake("seed=3"), suites, timeout=30.0)
    assert impl.disposition == "PASS"
    assert {s.name for s in impl.suites} == {s.name for s in suites}
