"""Sec. 5.2 of the DP draft: a policy executed as a DAP task over the SA2 simulation's client /
leader / helper / collector path (dpspec.spec.policies.dap), end to end with HPKE, tokens, the
anonymizer and Prio3 verification; exact checks (noise replayed from the Aggregators' tapes)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from dpspec.spec.policies import (
    HistogramWithAggregatorRandomization,
    MultiHotHistogramWithClientRandomization,
)
from dpspec.spec.policies.dap import TAGS, run_policy_in_dap
from dpspec.spec.sa2 import protocol
from dpspec.spec.sa2.randomizers import Randomizer
from dpspec.spec.samplers import discrete_gaussian_vector
from dpspec.spec.tape import RandomTape

SEED = b"dpspec dap policy end-to-end test"
DEP = protocol.provision(SEED)


def recipe(vdaf_randomizer: Randomizer, B: int, chunk_length: int) -> protocol.Recipe:
    doc = protocol.make_recipe(
        recipe_id="dap-policy", task_id=bytes(range(32)), randomizer=vdaf_randomizer, B=B,
        q=Fraction(1), chunk_length=chunk_length, leader_pk=DEP.leader_hpke.public_key,
        helper_pk=DEP.helper_hpke.public_key, issuer_key=DEP.issuer_sk.public_key(),
        epsilon=Fraction(1), delta=Fraction(1, 10**9))
    return protocol.parse_recipe(doc)


def test_aggregator_noise_policy_through_leader_helper_collector() -> None:
    pol = HistogramWithAggregatorRandomization(length=4, sigma2=16, chunk_length=2)
    rec = recipe(Randomizer("randomized_response", 4, Fraction(1, 2)), B=5, chunk_length=2)
    meas = [0, 1, 1, 3, 3, 3]
    run = run_policy_in_dap(pol, rec, DEP, meas, SEED)
    assert run.outcome is not None and run.outcome.accepted == 6
    z = [discrete_gaussian_vector(RandomTape(SEED, TAGS["aggregator_noise"].format(j=j)), 16, 4)
         for j in range(2)]
    truth = [1, 2, 0, 3]
    assert run.debiased_result == [truth[i] + z[0][i] + z[1][i] for i in range(4)]
    # the Aggregators' shares before the hook unshard to the exact histogram
    assert pol.vdaf.unshard(None, run.agg_shares, 6) == truth
    # a dishonest Helper that skips its noise: only the Leader's noise reaches the Collector
    cheat = run_policy_in_dap(pol, rec, DEP, meas, SEED, skip_noise=[1])
    assert cheat.debiased_result == [truth[i] + z[0][i] for i in range(4)]


def test_below_min_batch_size_nothing_is_released() -> None:
    pol = HistogramWithAggregatorRandomization(length=4, sigma2=16, chunk_length=2)
    rec = recipe(Randomizer("randomized_response", 4, Fraction(1, 2)), B=10, chunk_length=2)
    run = run_policy_in_dap(pol, rec, DEP, [0, 1, 2], SEED)
    assert run.agg_result is None and run.noised_agg_shares == [] and run.meas_count == 3


def test_client_randomization_policy_upload_hook() -> None:
    """The Client noises before sharding; the Aggregators verify and sum the noised vectors."""
    pol = MultiHotHistogramWithClientRandomization(length=4, eps0=2, chunk_length=2)
    assert pol.max_weight == 4  # so the SA2 recipe's Prio3MultihotCountVec is the policy's
    rec = recipe(Randomizer("rappor", 4, Fraction(1, 4)), B=3, chunk_length=2)
    meas = [0, 1, 2, 3, 3]
    run = run_policy_in_dap(pol, rec, DEP, meas, SEED)
    for i, m in enumerate(meas):
        want = pol.add_noise_to_measurement(
            pol.encode_measurement(m), RandomTape(SEED, TAGS["client_noise"].format(i=i)))
        assert run.noisy_measurements[i] == want
    sums = [sum(int(v[k]) for v in run.noisy_measurements) for k in range(4)]
    assert run.agg_result == sums
    assert run.debiased_result == pol.rappor.debias(sums, 5)


def test_mismatched_vdaf_refused() -> None:
    pol = HistogramWithAggregatorRandomization(length=5, sigma2=16, chunk_length=2)
    rec = recipe(Randomizer("randomized_response", 4, Fraction(1, 2)), B=3, chunk_length=2)
    with pytest.raises(ValueError):
        run_policy_in_dap(pol, rec, DEP, [0], SEED)


def test_overweight_client_is_not_uploaded() -> None:
    """The upload hook's failure branch: a Client whose noised multi-hot vector is heavier than
    max_weight cannot shard it (Prio3MultihotCountVec), so it uploads nothing; the batch is the
    other Clients' and meas_count counts only them."""
    pol = MultiHotHistogramWithClientRandomization(length=8, eps0="1/2", p="1/2", chunk_length=2)
    assert pol.max_weight == 4
    rec = recipe(Randomizer("rappor", 8, Fraction(3775, 10000), Fraction(1, 2)), B=3,
                 chunk_length=2)
    meas = [3] * 12
    run = run_policy_in_dap(pol, rec, DEP, meas, SEED)
    heavy = [i for i, v in enumerate(run.noisy_measurements) if sum(v) > pol.max_weight]
    assert heavy, "this seed should produce at least one overweight Client"
    assert run.not_uploaded == heavy
    assert run.outcome is not None and run.meas_count == len(meas) - len(heavy)
    kept = [v for i, v in enumerate(run.noisy_measurements) if i not in heavy]
    assert run.agg_result == [sum(int(v[k]) for v in kept) for k in range(8)]


@pytest.mark.parametrize("skip", [[2], [-1], [0, 5], [True], [1.0]])
def test_skip_noise_rejects_bad_aggregator_ids(skip: list[int]) -> None:
    pol = HistogramWithAggregatorRandomization(length=4, sigma2=16, chunk_length=2)
    rec = recipe(Randomizer("randomized_response", 4, Fraction(1, 2)), B=3, chunk_length=2)
    with pytest.raises(ValueError, match="skip_noise"):
        run_policy_in_dap(pol, rec, DEP, [0], SEED, skip_noise=skip)
