"""Policies parameterised from privacy targets through dpspec.spec.accounting (Table 2 of the DP draft)."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest

from dpspec.spec.accounting.definitions import zcdp_to_dp_epsilon
from dpspec.spec.accounting.discrete import discrete_gaussian_delta
from dpspec.spec.mechanisms import DiscreteGaussianMechanism
from dpspec.spec.policies import (
    HistogramWithAggregatorRandomization,
    MultiHotHistogramWithClientRandomization,
    SumVecWithAggregatorRandomization,
)


def sqrt(x: Fraction) -> mpmath.mpf:
    with mpmath.workdps(30):
        return mpmath.sqrt(mpmath.mpf(x.numerator) / x.denominator)


@pytest.mark.parametrize(("eps", "sd_two", "sd_one"), [
    ("0.317", "33.0788", "23.3903"), ("0.906", "12.0777", "8.5402"), ("1.528", "7.3403", "5.1904")])
def test_table_2(eps: str, sd_two: str, sd_one: str) -> None:
    """Table 2 lists the continuous (analytic) Gaussian sigma; the discrete Gaussian's exact curve
    gives a sigma within 0.2% of it (slightly smaller for small sigma, CKS20 Theorem 7)."""
    pol = HistogramWithAggregatorRandomization(length=4, epsilon=eps, delta="1e-9")
    sigma = sqrt(pol.mechanism.sigma2)
    assert abs(sigma / mpmath.mpf(sd_one) - 1) < 2e-3
    sds = pol.guarantee(10)["noise_sd_per_bucket_by_honest_aggregators"]
    assert abs(mpmath.mpf(sds["2"]) / mpmath.mpf(sd_two) - 1) < 2e-3
    assert abs(mpmath.mpf(sds["1"]) / mpmath.mpf(sd_one) - 1) < 2e-3


def test_from_approx_dp_meets_the_target() -> None:
    mech = DiscreteGaussianMechanism.from_approx_dp("1", "1e-6", [1, -1])
    assert mech.target == (Fraction(1), Fraction(1, 10**6)) and mech.l2_sensitivity_squared == 2
    sigma = sqrt(mech.sigma2)
    assert discrete_gaussian_delta(1, sigma, [1, -1]) <= mpmath.mpf("1e-6")
    assert discrete_gaussian_delta(1, sigma * mpmath.mpf("0.999"), [1, -1]) > mpmath.mpf("1e-6")


def test_sumvec_gaussian_from_eps_delta_via_zcdp() -> None:
    pol = SumVecWithAggregatorRandomization(length=4, max_measurement=3, noise="gaussian",
                                            epsilon="1", delta="1e-9")
    rho = pol.target["rho"]
    assert pol.mechanism.sigma2 == Fraction(36) / (2 * rho)
    assert zcdp_to_dp_epsilon(str(rho), "1e-9") <= 1
    assert zcdp_to_dp_epsilon(str(rho * Fraction(1001, 1000)), "1e-9") > 1
    assert pol.params()["epsilon"] == "1" and "sigma2" not in pol.params()


def test_client_policy_reports_the_aggregate_epsilon() -> None:
    pol = MultiHotHistogramWithClientRandomization(length=10, eps0=5)
    g = pol.guarantee(50)
    agg = g["aggregate_epsilon"]
    assert float(agg["mjtb_theorem_c3"]) <= float(agg["proven_worst_case"]) <= 10
    assert "aggregate_epsilon" not in pol.guarantee(50, numeric=False)


@pytest.mark.slow
def test_table_1_epsilon() -> None:
    """Table 1 of the DP draft: n = 100000, EPSILON_0 = 5 gives EPSILON = 0.317 at DELTA = 1e-9."""
    pol = MultiHotHistogramWithClientRandomization(length=10, eps0=5)
    agg = pol.guarantee(100000)["aggregate_epsilon"]
    assert abs(float(agg["mjtb_theorem_c3"]) - 0.317) < 1.5e-3
