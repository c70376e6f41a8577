"""Sweep mode, and dpspec's own calibration across the sweep grid checked independently."""

from __future__ import annotations

import sys
from pathlib import Path

import mpmath
import pytest

from dpspec.conformance.harness.adapters import AdapterSpec, bundled
from dpspec.conformance.harness.runner import run_impl
from dpspec.conformance.sweep import DELTA, EPS, SENSITIVITY, SweepSuite, grid, thin
from dpspec.spec.accounting.gaussian import calibrate_gaussian_sigma

MISCALIBRATED = Path(__file__).resolve().parent / "adapters" / "miscalibrated.py"


def independent_gaussian_delta(eps: str, sigma: mpmath.mpf, sens: str) -> mpmath.mpf:
    """delta(eps) of N(0, sigma^2) noise at L2 sensitivity S ([BW18] Thm 8), written here at 80
    digits from mpmath's erfc, not through the code under test."""
    with mpmath.workdps(80):
        s = mpmath.sqrt(2) if sens == "sqrt(2)" else mpmath.mpf(sens)
        e = mpmath.mpf(eps)
        sg = mpmath.mpf(sigma)

        def phi(x: mpmath.mpf) -> mpmath.mpf:
            return mpmath.erfc(-x / mpmath.sqrt(2)) / 2

        return phi(s / (2 * sg) - e * sg / s) - mpmath.exp(e) * phi(-s / (2 * sg) - e * sg / s)


@pytest.mark.parametrize("sens", SENSITIVITY)
@pytest.mark.parametrize("delta", DELTA)
def test_calibrated_sigma_is_never_too_small_and_nearly_minimal(delta: str, sens: str) -> None:
    for eps in EPS:
        cal = calibrate_gaussian_sigma(eps, delta, sens, digits=15)
        with mpmath.workdps(80):
            sigma = mpmath.mpf(cal.sigma)
            target = mpmath.mpf(delta)
            assert independent_gaussian_delta(eps, sigma, sens) <= target, (eps, delta, sens)
            # minimal to 1e-9: a billionth less noise breaks the target
            below = sigma * (1 - mpmath.mpf("1e-9"))
            assert independent_gaussian_delta(eps, below, sens) > target, (eps, delta, sens)


def test_grid_spans_the_documented_ranges() -> None:
    g = grid()
    sig = [a for _, a in g["privacy.gaussian_mechanism_sigma"]]
    assert {a["eps"] for a in sig} >= {"0.001", "20"} and {a["delta"] for a in sig} >= {"1e-3", "1e-16"}
    assert {a["k"] for _, a in g["privacy.gaussian_kfold_delta"]} == {1, 10, 100, 1000}
    pts = list(range(10))
    assert thin(pts, 4) == [0, 4, 8, 9] and thin(pts, 1) == pts


def test_sweep_judges_reference_exact_and_under_calibration_unsafe() -> None:
    ops = ("privacy.gaussian_mechanism_sigma", "privacy.gaussian_kfold_delta")
    suite = SweepSuite(every=9, ops=ops)
    ref = run_impl(bundled()["reference"], [suite], timeout=120.0, startup_timeout=30.0)
    assert ref.disposition == "PASS" and ref.verdict_counts["UNSAFE"] == 0
    assert ref.verdict_counts["EXACT"] == suite.size()
    under = run_impl(AdapterSpec("under", (sys.executable, str(MISCALIBRATED), "0.99"), "t",
                                 bundled=False), [suite], timeout=120.0, startup_timeout=30.0)
    judged = [o for s in under.suites for o in s.outcomes if o.verdict]
    assert len(judged) == suite.size()
    assert all(o.verdict["status"] == "UNSAFE" for o in judged if o.verdict["truth"] != "0.0")
