"""The fixed-size variant of SA2 (end of sec. 3) and the time bound of App. A, run through the
protocol and compared with the ideal functionality (dpspec.spec.sa2.ideal)."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from typing import Any

import mpmath
import pytest
from scipy import stats

from dpspec.spec.accounting import subsampling
from dpspec.spec.sa2 import ideal, privacy, protocol
from dpspec.spec.sa2.ideal import Sa2Error
from dpspec.spec.sa2.protocol import TAGS, RecipeRefused
from dpspec.spec.sa2.randomizers import Randomizer
from dpspec.spec.tape import RandomTape

F = Fraction
SEED = bytes(range(40, 72))
DEP = protocol.provision(SEED)
RR = Randomizer("randomized_response", 4, F(1, 3))


def make(B: int, **over: Any) -> protocol.Recipe:
    args: dict[str, Any] = dict(
        recipe_id="variants", task_id=bytes(range(32)), randomizer=RR, B=B, q=F(1),
        chunk_length=2, leader_pk=DEP.leader_hpke.public_key,
        helper_pk=DEP.helper_hpke.public_key, issuer_key=DEP.issuer_sk.public_key(),
        epsilon=F(1000), delta=F(1, 2))
    args.update(over)
    return protocol.check_recipe_structure(protocol.make_recipe(**args))


def honest(recipe: protocol.Recipe, xs: list[int], seed: bytes) -> list[Any]:
    return [recipe.randomizer.apply(x, RandomTape(seed, TAGS["randomizer"].format(i=i)))
            for i, x in enumerate(xs)]


def delivered_messages(recipe: protocol.Recipe, xs: list[int], seed: bytes,
                       malicious: int = 0) -> list[Any]:
    """The honest messages in the anonymizer's arrival order (q = 1, no loss); the malicious
    reports (sent after the honest ones, all rejected here) are shuffled too, then left out."""
    msgs = honest(recipe, xs, seed)
    order: list[Any] = list(range(len(msgs) + malicious))
    shuffled, _ = protocol.anonymize(order, F(0), RandomTape(seed, TAGS["network"]),
                                     RandomTape(seed, TAGS["shuffle"]))
    return [msgs[i] for i in shuffled if i < len(msgs)]


# -- fixed size ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("n", "B", "pool", "released"), [
    (9, 4, 9, True), (9, 4, 6, True), (5, 5, 5, True), (6, 4, 7, False)])
def test_fixed_size_sums_the_first_B_accepted_in_arrival_order(n: int, B: int, pool: int,
                                                              released: bool) -> None:
    recipe = make(B, sampling="fixed_size", population=pool)
    seed = bytes([n, B, pool]) + SEED[3:]
    xs = [i % 4 for i in range(n)]
    vdaf = protocol.build_vdaf(recipe)
    res = protocol.run_collection(recipe, DEP, vdaf, xs, seed, malicious=2)
    arrived = delivered_messages(recipe, xs, seed, malicious=2)
    want = ideal.aggregate(arrived[:B], B, protocol.ideal_aggregation(recipe, vdaf))
    assert res.outcome.aggregated == min(B, res.outcome.accepted)
    if released:
        # the malicious reports (invalid proof, forged token) are never among the accepted
        assert res.release == want is not None
    else:
        assert res.release is None


def test_the_first_B_in_arrival_order_are_a_uniform_subset() -> None:
    """The anonymizer's shuffle makes the first B arrivals a uniform B-subset, the selection of
    ideal.fixed_size_subset: chi-square over all C(5, 2) = 10 subsets, 20000 runs, false-alarm
    rate 1e-6."""
    n, B, runs = 5, 2, 20000
    seen: Counter[tuple[int, ...]] = Counter()
    for r in range(runs):
        items: list[Any] = list(range(n))
        out, _ = protocol.anonymize(items, F(0), RandomTape(SEED, f"u/{r}/n"),
                                    RandomTape(SEED, f"u/{r}/s"))
        seen[tuple(sorted(out[:B]))] += 1
    subsets = list(itertools.combinations(range(n), B))
    expected = runs / len(subsets)
    chi2 = sum((seen[s] - expected) ** 2 / expected for s in subsets)
    assert set(seen) == set(subsets) and chi2 < stats.chi2.isf(1e-6, len(subsets) - 1)


def test_fixed_size_privacy_statement() -> None:
    bin_ = Randomizer("binary_randomized_response", 2, F(1, 2))
    doc = protocol.make_recipe(
        recipe_id="fs", task_id=bytes(32), randomizer=bin_, B=10000, q=F(1), chunk_length=1,
        leader_pk=DEP.leader_hpke.public_key, helper_pk=DEP.helper_hpke.public_key,
        issuer_key=DEP.issuer_sk.public_key(), epsilon=F(1, 100), delta=F(1, 10**6),
        sampling="fixed_size", population=500000)
    recipe, stmt = protocol.check_recipe(doc, protocol.PrivacyBudget(F(1), 1))
    base = protocol.aggregator_guarantee(recipe)
    want = subsampling.without_replacement_amplification(base.epsilon, base.delta, 10000, 500000)
    assert mpmath.almosteq(stmt.epsilon, want[0], 1e-30) and stmt.delta == want[1]
    assert "without replacement" in stmt.derivation and stmt.epsilon < mpmath.mpf("0.01")
    # sec. 3: a Poisson sample at q = 1/50 of 500000 has fewer than 9500 members w.p. < 1e-6
    assert privacy.poisson_shortfall(F(1, 50), 500000, 9500) < mpmath.mpf("1e-6")


@pytest.mark.parametrize(("over", "message"), [
    (dict(sampling="fixed_size"), "population >= B"),
    (dict(sampling="fixed_size", population=3), "population >= B"),
    (dict(sampling="fixed_size", population=10, q=F(1, 2)), "samplingRate must be 1"),
    (dict(sampling="reservoir"), "sampling must be one of"),
    (dict(window=(F(0), F(0))), "K must be > 0"),
])
def test_variant_recipes_are_checked(over: dict[str, Any], message: str) -> None:
    with pytest.raises(RecipeRefused, match=message):
        make(4, **over)


# -- App. A: the time bound ---------------------------------------------------------------------
@pytest.mark.parametrize(("spacing", "K", "B"), [
    (F(1), F(10), 5), (F(1), F(3), 3), (F(1, 2), F(2), 6), (F(3), F(100), 4), (F(2), F(3), 3)])
def test_time_bound_matches_the_ideal_functionality(spacing: Fraction, K: Fraction,
                                                    B: int) -> None:
    recipe = make(B, window=(F(5), K))
    seed = bytes([int(spacing * 2), int(K), B]) + SEED[3:]
    xs = [i % 4 for i in range(8)]
    vdaf = protocol.build_vdaf(recipe)
    times = protocol.evenly_spaced(F(5), spacing)
    res = protocol.run_collection(recipe, DEP, vdaf, xs, seed, arrival=times)
    arrived = delivered_messages(recipe, xs, seed)
    t = times(len(arrived))
    inside = [(m, ti) for m, ti in zip(arrived, t, strict=True) if ti <= 5 + K]
    agg = protocol.ideal_aggregation(recipe, vdaf)
    # each aggregator closes the collection at t0 + K: A_{B,K} over what arrived by then
    assert res.release == ideal.time_bounded_aggregate(F(5), inside, B, K, agg)
    late = len(arrived) - len(inside)
    assert res.outcome.rejected.get("outside_time_window", 0) == late
    if late == 0:  # nothing late: the same as A_{B,K} on every message
        assert res.release == ideal.time_bounded_aggregate(F(5), list(zip(arrived, t, strict=True)),
                                                           B, K, agg)


def test_a_report_before_t0_or_after_t0_plus_K_is_not_aggregated() -> None:
    recipe = make(1, window=(F(10), F(5)))
    vdaf = protocol.build_vdaf(recipe)
    res = protocol.run_collection(recipe, DEP, vdaf, [1, 2, 3], SEED,
                                  arrival=lambda n: [F(9), F(10), F(15)][:n])
    assert res.outcome.verdicts[0] == "outside_time_window"
    assert res.outcome.verdicts[1:] == ["accepted", "accepted"]
    res = protocol.run_collection(recipe, DEP, vdaf, [1, 2, 3], SEED,
                                  arrival=lambda n: [F(10), F(15), F(31, 2)][:n])
    assert res.outcome.verdicts == ["accepted", "accepted", "outside_time_window"]
    with pytest.raises(Sa2Error, match="arrival time"):
        protocol.run_collection(recipe, DEP, vdaf, [1], SEED)
    with pytest.raises(Sa2Error, match="non-decreasing"):
        protocol.run_collection(recipe, DEP, vdaf, [1, 2], SEED,
                                arrival=lambda n: [F(12), F(11)][:n])


# -- sec. 4.7: rate validation by the leader and the helper -----------------------------------------
def test_rate_validation_refuses_a_flooded_batch() -> None:
    recipe = make(2, population=4, q=F(1, 2))  # expected 2 reports: at most 4 accepted
    assert recipe.max_reports() == 4 and recipe.task_config(DEP.verify_key).max_reports == 4
    vdaf = protocol.build_vdaf(recipe)
    xs = [i % 4 for i in range(6)]
    res = protocol.run_collection(recipe, DEP, vdaf, xs, SEED)
    assert res.sent <= 4 and res.release is not None
    flood = protocol.run_collection(recipe, DEP, vdaf, xs, SEED, malicious=8)
    assert flood.sent > 4 and flood.outcome.accepted >= 2 and flood.release is None
    # without a population the aggregators have no expectation and do not validate the rate
    assert make(2).max_reports() is None
