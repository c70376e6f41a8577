"""Statistical mode for the mechanisms: correct ones pass, a RAPPOR with a wrong flip probability and
a k-ary RR with a wrong keep probability are caught, power is reported.

Determinism: the fake adapter (tests/adapters/fake.py) runs the reference mechanisms with seeds
drawn from Python's ``random`` under a fixed seed, and its planted bugs sample from that same
``random``, so those runs are reproducible. The planted errors are far above the reported power
(RAPPOR's eps0 * 1.1 moves p0 by -7.1% at eps0 = 1 and by -25% at eps0 = 3, against 1.6% and
4.3% detectable; the keep probability e^eps/(e^eps + k) is 9.5% low at k = 6, eps = 3/2,
against 3.5%), so for any seed a miss would have probability far below 1e-6. The run against
the real reference adapter draws fresh randomness (os.urandom): it uses a false-alarm rate of
1e-8 per suite, so that with every other unseeded statistical run of the test suite and of CI
(each at 1e-8 per suite) a spurious failure stays below 1e-6 per CI run.
"""

from __future__ import annotations

import math
import sys
from fractions import Fraction
from pathlib import Path

import mpmath
import pytest

from dpspec.conformance.harness.adapters import AdapterSpec, bundled
from dpspec.conformance.harness.model import FAILED, PASSED
from dpspec.conformance.harness.runner import all_suites, run_impl, select_suites
from dpspec.conformance.statistical import MIN_EXPECTED
from dpspec.conformance.statistical_mechanisms import (
    DEFAULT_REPORTS,
    AdditiveSuite,
    FlipSuite,
    KaryRRSuite,
    _bits,
    _category,
    _Failure,
    flip_probability,
    keep_probability,
    mechanism_suites,
    rate_power,
)
from dpspec.spec.mechanisms import KaryRandomizedResponse, SymmetricRappor

FAKE = Path(__file__).resolve().parent / "adapters" / "fake.py"


OTHERS = ("symmetric_rappor_textbook", "asymmetric_rappor", "binary_rr", "kary_rr",
          "discrete_laplace", "discrete_gaussian")


def fake(*modes: str) -> AdapterSpec:
    return AdapterSpec("fake", (sys.executable, str(FAKE), *modes), "test", bundled=False)


def failures(spec: AdapterSpec, suites: list[FlipSuite | KaryRRSuite | AdditiveSuite]
             ) -> dict[str, list[tuple[str, str]]]:
    impl = run_impl(spec, suites, timeout=60.0)
    out: dict[str, list[tuple[str, str]]] = {}
    for s in impl.suites:
        assert s.outcomes, s.name
        out[s.name] = [(o.source, o.test) for o in s.outcomes if o.status != PASSED]
    return out


def all_mechanism_suites(alpha: float = 1e-6) -> list[FlipSuite | KaryRRSuite | AdditiveSuite]:
    suites = mechanism_suites(alpha=alpha)
    assert all(isinstance(s, FlipSuite | KaryRRSuite | AdditiveSuite) for s in suites)
    return suites  # type: ignore[return-value]


def test_rappor_with_wrong_flip_probability_is_caught_and_the_rest_passes() -> None:
    got = failures(fake("seed=11", "rappor-eps=1.1"), all_mechanism_suites())
    rappor = got.pop("statistical.mechanisms.symmetric_rappor")
    # every test at both points: the flip rate, the per-coordinate cells, the flips per report
    assert sorted(rappor) == sorted((f"eps0={e}", t) for e in ("1", "3")
                                    for t in ("flip rate", "per coordinate", "flips per report"))
    # the other mechanisms (the textbook form of symmetric RAPPOR among them) are right
    assert got == {f"statistical.mechanisms.{k}": [] for k in OTHERS}


def test_rappor_with_dependent_flips_is_caught_by_the_flips_per_report_test() -> None:
    # every coordinate flips with the right p0, so the rate tests pass (up to the 1e-6 false-alarm
    # rate); the number of flips per report is 2 Binomial(8, p0), twice the variance of
    # Binomial(16, p0): the chi-square of the flips per report rejects it
    impl = run_impl(fake("seed=2", "rappor-pairs"), [FlipSuite("symmetric_rappor")], timeout=60.0)
    (suite,) = impl.suites
    bad = sorted((o.source, o.test) for o in suite.outcomes if o.status == FAILED)
    assert bad == [("eps0=1", "flips per report"), ("eps0=3", "flips per report")]


def test_kary_rr_with_wrong_keep_probability_is_caught() -> None:
    suites = [KaryRRSuite(), FlipSuite("symmetric_rappor")]
    impl = run_impl(fake("seed=5", "kary-keep"), suites, timeout=60.0)
    kary, rappor = impl.suites
    assert impl.disposition == "FAIL"
    assert all(o.status == PASSED for o in rappor.outcomes)
    bad = {(o.source, o.test) for o in kary.outcomes if o.status == FAILED}
    assert {("k=6, eps=3/2", "keep rate"), ("k=6, eps=3/2", "output distribution")} <= bad
    keep = next(o for o in kary.outcomes if o.source == "k=6, eps=3/2" and o.test == "keep rate")
    assert keep.provided["rate"] < keep_probability(6, Fraction(3, 2)) and keep.provided["z"] < -8
    assert keep.reason.startswith("rejected: keep rate")


def test_reference_passes_with_fresh_randomness() -> None:
    impl = run_impl(bundled()["reference"], all_mechanism_suites(alpha=1e-8), timeout=60.0)
    assert impl.disposition == "PASS", [o.reason for s in impl.suites for o in s.outcomes
                                        if o.status != PASSED]
    assert len(impl.suites) == 7 and sum(len(s.outcomes) for s in impl.suites) == 38


def test_power_is_reported_and_stated_at_the_default_sizes() -> None:
    rappor = FlipSuite("symmetric_rappor")
    crit = 5.0
    powers = [rappor.power(p, crit) for p in rappor.points]
    assert 0.01 < powers[0] < 0.02 and 0.03 < powers[1] < 0.06
    # quadrupling the sample halves the detectable error
    p0 = flip_probability(Fraction(1))
    assert rate_power(p0, 4 * 10**5, crit) == pytest.approx(rate_power(p0, 10**5, crit) / 2,
                                                            rel=0.05)
    # the z-test at the stated error: shift minus the critical value is the 99% quantile
    delta = rate_power(p0, 10**5, crit)
    for sign in (1, -1):
        p1 = p0 * (1 + sign * delta)
        z = (math.sqrt(10**5) * abs(p1 - p0) - crit * math.sqrt(p0 * (1 - p0))) / math.sqrt(
            p1 * (1 - p1))
        assert z >= 2.326
    kary = KaryRRSuite()
    assert all(kary.min_expected(p) >= MIN_EXPECTED for p in kary.points)
    # RAPPOR's smallest cell: (coordinate, input 1) at eps0 = 3
    assert DEFAULT_REPORTS["symmetric_rappor"] // 16 * flip_probability(Fraction(3)) >= MIN_EXPECTED


def test_exact_probabilities_agree_with_the_spec() -> None:
    for eps in (Fraction(1), Fraction(3), Fraction(1, 2)):
        assert flip_probability(eps) == pytest.approx(
            float(SymmetricRappor(eps).flip_probability()), rel=1e-14)
    for k, eps in ((6, Fraction(3, 2)), (10, Fraction(1))):
        e = mpmath.exp(float(eps))
        assert keep_probability(k, eps) == pytest.approx(float(e / (e + k - 1)), rel=1e-14)
        KaryRandomizedResponse(k, eps)  # the points are valid parameters


def test_malformed_outputs_are_rejected() -> None:
    assert _bits("0101", 4, 0) == [0, 1, 0, 1]
    for bad in ("012", "01", 5, None):
        with pytest.raises(_Failure, match="output 3"):
            _bits(bad, 3, 3)
    assert _category("4", 5, 0) == 4 and _category(0, 2, 0) == 0
    for bad in (5, "-1", True, "x"):
        with pytest.raises(_Failure, match="category"):
            _category(bad, 5, 1)


def test_suites_are_listed_and_selectable() -> None:
    names = [s.name for s in select_suites(all_suites(), ["statistical.mechanisms"])]
    assert names == [f"statistical.mechanisms.{k}" for k in ("symmetric_rappor", *OTHERS)]
    sized = mechanism_suites(samples=200_000)
    assert [getattr(s, "reports", getattr(s, "samples", None)) for s in sized] == [200_000] * 7
    # too few reports for the chi-square cells: raised, and said so
    for suite in mechanism_suites(samples=100)[:5]:
        assert isinstance(suite, FlipSuite | KaryRRSuite)
        assert suite.reports > 100 and "raised from 100" in suite.summary
        assert suite.reports >= max(suite.minimum_reports(p) for p in suite.points)
    kary = KaryRRSuite(reports=100)
    assert min(kary.min_expected(p) for p in kary.points) >= MIN_EXPECTED
