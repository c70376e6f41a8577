"""Sec. 3.3.2 of the DP draft (TODO issue#15): an Aggregator that skips its noise
(run_vdaf_with_dp_policy(skip_noise=...), dpspec.spec.policies.corruption).

Exact checks only (the noise is recomputed from the Aggregators' tapes); the one expectation
(the App. B.1 bias) is checked exactly by linearity, no sampling.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import mpmath
import pytest

from dpspec.spec.policies import (
    DpPolicy,
    HistogramWithAggregatorRandomization,
    MultiHotHistogramWithClientRandomization,
    MultiHotHistogramWithClientRandomizationAndFill,
    PolicyRandomness,
    PolicyTranscript,
    SumVecWithAggregatorRandomization,
    run_vdaf_with_dp_policy,
)
from dpspec.spec.policies.corruption import fill_bias, skipped_noise_guarantee
from dpspec.spec.samplers import discrete_gaussian_vector, discrete_laplace
from dpspec.spec.tape import RandomTape

SEED = bytes.fromhex("3c" * 32)
CTX = b"dpspec corruption tests"


def run(policy: DpPolicy, measurements: list[Any], skip: Collection[int] = ()
        ) -> PolicyTranscript:
    r = PolicyRandomness.derive(SEED, policy.vdaf, len(measurements))
    return run_vdaf_with_dp_policy(policy, policy.vdaf, CTX, None, measurements, r,
                                   skip_noise=skip)


def test_gaussian_histogram_collector_receives_only_honest_noise() -> None:
    pol = HistogramWithAggregatorRandomization(length=4, sigma2=25)
    meas = [0, 1, 1, 3, 3, 3]
    truth = [1, 2, 0, 3]
    honest = run(pol, meas)
    one = run(pol, meas, skip=[1])
    both = run(pol, meas, skip={0, 1})
    z = [discrete_gaussian_vector(RandomTape(s, pol.AGGREGATOR_TAG), 25, 4)
         for s in one.randomness.aggregator_noise_seeds]
    assert honest.debiased_result == [truth[i] + z[0][i] + z[1][i] for i in range(4)]
    assert one.skipped_noise == [1]
    assert one.noised_agg_shares[1] == one.agg_shares[1]
    assert one.noised_agg_shares[0] == honest.noised_agg_shares[0]
    assert one.debiased_result == [truth[i] + z[0][i] for i in range(4)]
    # every Aggregator skipping: the Collector learns the exact histogram
    assert both.debiased_result == truth
    # the honest Aggregator that kept its noise recovers the exact aggregate (issue#15)
    assert [x - n for x, n in zip(one.debiased_result, z[0], strict=True)] == truth


def test_gaussian_histogram_guarantee_per_corruption() -> None:
    pol = HistogramWithAggregatorRandomization(length=4, sigma2=25, shares=3)
    honest = skipped_noise_guarantee(pol, 10, [], numeric=False)
    assert honest["attacker"]["trust_model"].startswith("OAOC")
    assert "other 2 honest" in honest["honest_aggregator_keeping_noise"]
    one = skipped_noise_guarantee(pol, 10, [0, 2], numeric=False)
    assert one["honest"] == [1]
    assert one["attacker"] == {**pol.guarantee(10, False), "note": one["attacker"]["note"]}
    assert "issue#15" in one["honest_aggregator_keeping_noise"]
    assert one["utility"]["noise_sd_per_coordinate"] == "<= 5.0"
    none = skipped_noise_guarantee(pol, 10, [0, 1, 2], numeric=False)
    assert none["attacker"]["note"].startswith("none") and none["honest"] == []


def test_sumvec_laplace_skip() -> None:
    pol = SumVecWithAggregatorRandomization(length=2, max_measurement=3, noise="laplace",
                                            scale=2)
    meas = [[1, 2], [3, 0], [0, 0]]
    tr = run(pol, meas, skip=[0])
    tape = RandomTape(tr.randomness.aggregator_noise_seeds[1], pol.AGGREGATOR_TAG)
    z = [discrete_laplace(tape, 2) for _ in range(2)]
    assert tr.debiased_result == [4 + z[0], 2 + z[1]]
    g = skipped_noise_guarantee(pol, 3, [0])
    assert g["honest"] == [1] and "laplace" not in g["utility"]["noise_sd_per_coordinate"]
    # 1 copy of discrete Laplace(2): variance 2q/(1-q)^2, q = e^(-1/2)
    q = mpmath.exp(-0.5)
    assert mpmath.almosteq(mpmath.mpf(g["utility"]["noise_sd_per_coordinate"]),
                           mpmath.sqrt(2 * q / (1 - q) ** 2), 1e-7)


def test_client_randomization_is_unaffected() -> None:
    pol = MultiHotHistogramWithClientRandomization(length=4, eps0=2)
    meas = [0, 1, 2, 3, 3]
    a, b = run(pol, meas), run(pol, meas, skip=[0, 1])
    assert a.agg_result == b.agg_result and a.debiased_result == b.debiased_result
    g = skipped_noise_guarantee(pol, 5, [0, 1], numeric=False)
    assert g["utility"]["expected_bias_per_bucket"] == "0"
    assert "unchanged" in g["attacker"]["note"]


def test_fill_policy_with_one_skipping_aggregator() -> None:
    pol = MultiHotHistogramWithClientRandomizationAndFill(length=4, eps0=2, target_count=9)
    meas = [0, 1, 2, 3]
    tr = run(pol, meas, skip=[1])
    fill0 = pol.fill_noise(tr.meas_count, RandomTape(tr.randomness.aggregator_noise_seeds[0],
                                                     pol.AGGREGATOR_TAG))
    kept = [r for r in tr.reports if r.rejected is None]
    client = [sum(int(r.noisy_measurement[i]) for r in kept) for i in range(4)]
    assert tr.agg_result == [client[i] + fill0[i] for i in range(4)]
    g = skipped_noise_guarantee(pol, tr.meas_count, [1], numeric=False)
    assert "unchanged" in g["attacker"]["note"]
    # expected debiased value with one fill missing, by linearity of debias in the counts
    missing = pol.missing(tr.meas_count)
    p = pol.rappor.flip_probability()
    true = [1, 1, 1, 1]
    n_total = tr.meas_count + 2 * missing
    with mpmath.workdps(40):
        expected_counts = [c * (1 - p) + (tr.meas_count - c) * p + missing * p for c in true]
        e = mpmath.exp(2)  # Algorithm 4 of [MJTB+22] on the expected counts
        est = [((e + 1) * s - n_total) / (e - 1) for s in expected_counts]
        bias = fill_bias(pol, tr.meas_count, 1)
        for x, c in zip(est, true, strict=True):
            assert mpmath.almosteq(x - c, bias, 1e-25)
        assert mpmath.almosteq(bias, -missing / (mpmath.exp(2) - 1), 1e-25)


def test_fill_policy_with_every_aggregator_skipping_degrades() -> None:
    pol = MultiHotHistogramWithClientRandomizationAndFill(length=4, eps0=1, target_count=2000)
    g = skipped_noise_guarantee(pol, 200, [0, 1])
    assert "degraded" in g["attacker"]["note"]
    full = skipped_noise_guarantee(pol, 200, [])
    eps_deg = float(g["attacker"]["aggregate_epsilon"]["proven_worst_case"])
    eps_full = float(full["attacker"]["aggregate_epsilon"]["proven_worst_case"])
    assert eps_deg > eps_full
    assert skipped_noise_guarantee(pol, 2000, [0, 1], numeric=False)["utility"][
        "expected_bias_per_bucket"] == "0.0"


@pytest.mark.parametrize("skip", [[2], [-1], [True], ["0"]])
def test_skip_noise_rejects_bad_ids(skip: list[object]) -> None:
    pol = HistogramWithAggregatorRandomization(length=2, sigma2=4)
    with pytest.raises(ValueError):
        run(pol, [0], skip=skip)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        skipped_noise_guarantee(pol, 1, skip)  # type: ignore[arg-type]
