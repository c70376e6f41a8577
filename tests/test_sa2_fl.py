"""The federated-learning path of SA2 (Examples 3 and 5, sec. 4.5): the Gaussian vector
randomizer, its privacy statement through spec.accounting, recipes and the device's multi-round
accountant, the bounded-L2 circuit refusing an over-norm report, and the ideal functionality."""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Any

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpspec.spec.accounting import distributed, subsampling
from dpspec.spec.sa2 import fl, ideal, protocol, tokens
from dpspec.spec.sa2.fl import GaussianVector
from dpspec.spec.sa2.ideal import Sa2Error
from dpspec.spec.sa2.protocol import TAGS, PrivacyBudget, RecipeRefused
from dpspec.spec.samplers import discrete_gaussian_vector
from dpspec.spec.tape import RandomTape

F = Fraction
SEED = bytes(range(40, 72))
DEP = protocol.provision(SEED)
R4 = GaussianVector(4, F(1), 8, F(1, 10))
R4_20 = GaussianVector(4, F(1), 8, F(1, 10), tail_exponent=20)


HALF, HUGE, MICRO = F(1, 2), F(10**6), F(1, 10**6)


def fl_recipe(r: GaussianVector = R4, B: int = 3, q: Fraction = HALF, rounds: int = 3,
              eps: Fraction = HUGE, delta: Fraction = MICRO, **over: Any) -> dict[str, Any]:
    return protocol.make_recipe(
        recipe_id="fl", task_id=bytes(range(32)), randomizer=r, B=B, q=q, chunk_length=4,
        leader_pk=DEP.leader_hpke.public_key, helper_pk=DEP.helper_hpke.public_key,
        issuer_key=DEP.issuer_sk.public_key(), epsilon=eps, delta=delta, rounds=rounds, **over)


def updates(n: int, d: int, seed: bytes, r: int = 0) -> list[list[str]]:
    """Synthetic updates with entries in [-1, 1] (some vectors are clipped)."""
    t = RandomTape(seed, f"test/fl/{r}")
    return [[str(F(t.uniform(257) - 128, 128)) for _ in range(d)] for _ in range(n)]


# -- the randomizer -------------------------------------------------------------------------------
@settings(max_examples=60)
@given(st.lists(st.fractions(min_value=-50, max_value=50, max_denominator=1000), min_size=3,
                max_size=3),
       st.fractions(min_value=F(1, 100), max_value=10, max_denominator=100))
def test_clip_is_exact_and_never_above_C(x: list[Fraction], C: Fraction) -> None:
    r = GaussianVector(3, C, 10, F(1))
    y = r.clip(x)
    norm2 = sum(v * v for v in y)
    assert norm2 <= C * C
    if sum(v * v for v in x) <= C * C:
        assert y == x
    else:  # a positive multiple of x, and within 2^-60 of the ball's radius
        ratio = {v / w for v, w in zip(y, x, strict=True) if w != 0}
        assert len(ratio) == 1 and ratio.pop() > 0
        assert F(math.isqrt(int(norm2 * 2**120)), 2**60) >= C - F(1, 2**58)
    enc = r.encode(y)
    assert all(abs(e) <= abs(v) * 2**10 < abs(e) + 1 for e, v in zip(enc, y, strict=True))
    assert sum(e * e for e in enc) <= C * C * 4**10


def test_the_noise_is_the_exact_discrete_gaussian_from_the_tape() -> None:
    for i in range(5):
        steps = R4.steps(["1", "0", "-1/2", "1/8"], RandomTape(SEED, f"noise/{i}"))
        assert steps["noise"] == discrete_gaussian_vector(RandomTape(SEED, f"noise/{i}"),
                                                          F(65536, 10), 4)
        assert steps["report"] == [a + b for a, b in zip(steps["encoded"], steps["noise"],
                                                         strict=True)]


def test_norm_bound_and_bits_follow_the_stated_formula() -> None:
    s2 = F(65536, 10)
    R = math.isqrt(int(s2 * (4 + 2 * math.isqrt(80 - 1) + 2 + 40))) + 1  # ceil(sqrt(80)) = 9
    assert R * R >= s2 * (4 + 18 + 40) > (R - 1) ** 2
    assert R4_20.norm_bound() == (256 + R) ** 2
    assert R4_20.bits() == math.isqrt(R4_20.norm_bound()).bit_length() + 1
    assert 2 ** (R4_20.bits() - 1) > math.isqrt(R4_20.norm_bound())


def test_honest_reports_stay_under_the_norm_bound_and_the_rule_is_applied() -> None:
    tight = GaussianVector(2, F(1), 4, F(1, 4), tail_exponent=1)  # e^-1: drops happen
    dropped = 0
    for i in range(300):
        st_ = tight.steps(["1", "1"], RandomTape(SEED, f"tail/{i}"))
        over = st_["normSquared"] > tight.norm_bound()
        assert (st_["report"] is None) == over
        dropped += over
    # Laurent-Massart: at most e^-1 of the reports; 300 draws, false alarm < 1e-9 (binomial tail)
    assert dropped <= 0.37 * 300 + 60
    for i in range(200):
        assert R4.apply(["1", "1", "1", "1"], RandomTape(SEED, f"ok/{i}")) is not None


@pytest.mark.parametrize(("doc", "why"), [
    ({"dimension": 0}, "dimension"), ({"clipNorm": "0"}, "clipNorm"),
    ({"clipNorm": 1.5}, "float"), ({"fractionalBits": 33}, "fractionalBits"),
    ({"noiseVariance": "-1"}, "noiseVariance"), ({"tailExponent": 0}, "tailExponent"),
    ({"sigma": "1"}, "unknown"),
])
def test_invalid_randomizer_parameters_are_refused(doc: dict[str, Any], why: str) -> None:
    base = R4.to_json()
    with pytest.raises(Sa2Error, match=why):
        GaussianVector.from_json({**base, **doc})


@pytest.mark.parametrize("x", [["1", "2", "3"], ["1", "2", "3", 0.5], "1234", ["1", "x", "0", "0"]])
def test_invalid_updates_are_refused(x: Any) -> None:
    with pytest.raises(Sa2Error):
        R4.apply(x, RandomTape(SEED, "bad"))


# -- privacy --------------------------------------------------------------------------------------
@pytest.mark.parametrize(("below", "want"), [
    (Fraction(1, 10**41), "0.999999999999"),   # the 40-digit root rounds up onto 1
    (Fraction(4, 10**41), "0.999999999999"),
    (Fraction(1, 10**30), "0.999999999999"),
    (Fraction(0), "1.00000000000"),
])
def test_the_noise_multiplier_is_a_lower_bound_next_to_a_decimal(below: Fraction, want: str) -> None:
    """z rounded down never exceeds the exact z, also when z lies within 1e-40 below a 12-digit
    decimal (z^2 = 1 - below: d = 1, C = 1, f = 0, t = 1, B = 101, normBound 4)."""
    r = GaussianVector(1, Fraction(1), 0, Fraction(4, 100) * (1 - below), 1)
    assert r.multiplier_squared(101) == 1 - below
    z = fl.noise_multiplier(r, 101)
    assert z == want
    assert Fraction(z) ** 2 <= 1 - below


def _floor_12_digits(z2: Fraction) -> Fraction:
    """The largest decimal with 12 significant digits whose square is at most z2 > 0, by integer
    square roots: floor(sqrt(z2) 10^e) = isqrt(floor(z2 10^(2 e)))."""
    e = 0
    while math.isqrt((Fraction(z2) * Fraction(100) ** e).__floor__()) >= 10**12:
        e -= 1
    while math.isqrt((Fraction(z2) * Fraction(100) ** e).__floor__()) < 10**11:
        e += 1
    return Fraction(math.isqrt((Fraction(z2) * Fraction(100) ** e).__floor__())) / Fraction(10) ** e


@settings(max_examples=60, deadline=None)
@given(st.integers(10**11, 10**12 - 1), st.integers(11, 16), st.integers(2, 10**4),
       st.integers(-2, 2))
def test_the_noise_multiplier_is_the_exact_floor_to_12_digits(m: int, scale: int, B: int,
                                                                nudge: int) -> None:
    """z rounded down is the largest 12-significant-digit decimal whose square is at most z^2,
    whatever the 40-digit root does, for z near m / 10^scale (s2 chosen so that z is that
    decimal exactly, nudge 0, or 1e-45 relative above or below it): the 40-digit root of an
    exact 12-digit z can round below it, and the published value must still be z itself."""
    base = GaussianVector(1, Fraction(1), 0, Fraction(1), 30)
    want = Fraction(m, 10**scale) * (1 + Fraction(nudge, 10**45))
    r = GaussianVector(1, Fraction(1), 0,
                       want * want * base.norm_bound() / (B - 1) / base.fixed_point_variance(), 30)
    z2 = r.multiplier_squared(B)
    text = fl.noise_multiplier(r, B)
    assert Fraction(text) == _floor_12_digits(z2)
    if z2 == want * want and nudge >= 0:
        assert Fraction(text) == Fraction(m, 10**scale)


def test_the_noise_multiplier_of_an_exact_12_digit_z_is_z() -> None:
    """z = 0.401 exactly (B = 13, s2 = 85063729/750000, t = 30): the 40-digit square root
    rounds just below 0.401; the published multiplier is 0.401000000000 (sa2-fl-edges)."""
    r = GaussianVector(1, Fraction(1), 0, Fraction(85063729, 750000), 30)
    assert r.multiplier_squared(13) == Fraction(401, 1000) ** 2
    assert fl.noise_multiplier(r, 13) == "0.401000000000"


def test_the_noise_multiplier_ignores_the_callers_decimal_context() -> None:
    """The step up to the next 12-digit decimal is exact even when the caller has lowered the
    decimal precision below 12 digits (it would round back and never end)."""
    import decimal

    r = GaussianVector(1, Fraction(1), 0, Fraction(85063729, 750000), 30)
    with decimal.localcontext() as ctx:
        ctx.prec = 6
        assert fl.noise_multiplier(r, 13) == "0.401000000000"


def test_the_statement_is_the_distributed_accountant_at_a_rounded_down_multiplier() -> None:
    z = fl.noise_multiplier(R4, 500)
    assert F(z) ** 2 <= R4.multiplier_squared(500) < (F(z) + F(1, 10**11)) ** 2
    stmt = fl.statement(R4, 500, F(1, 20), 7, F(1, 10**6))
    kw = {"sigma2": R4.fixed_point_variance(), "others": 499, "dimension": 4,
          "drop_probability": fl.drop_probability(R4)}
    want = distributed.subsampled_epsilon("1/20", z, 7, "1/1000000", **kw)
    assert stmt.epsilon == want.epsilon and stmt.model == "sa2"
    # integer orders only, so never below the continuous accountant over all its orders
    assert stmt.epsilon >= subsampling.subsampled_gaussian_epsilon("1/20", z, 7, "1/1000000")[0]
    agg = fl.statement(R4, 500, F(1, 20), 7, F(1, 10**6), "aggregator")
    assert agg.epsilon == distributed.subsampled_epsilon("1", z, 7, "1/1000000", **kw).epsilon
    assert agg.epsilon > stmt.epsilon
    assert fl.drop_probability(R4) >= F(mpmath.nstr(mpmath.exp(-50), 30))


def test_a_short_tail_is_refused_with_the_exponent_needed() -> None:
    """Dropped honest reports cost (1 + e^eps) T (B - 1) e^-t of delta; at t = 20 that is more
    than half of delta here, and the refusal names the exponent needed."""
    with pytest.raises(Sa2Error, match=r"tail exponent of at least (\d+)") as info:
        fl.statement(R4_20, 2000, F(1, 100), 50, F(1, 10**6))
    need = int(re.search(r"at least (\d+)", str(info.value)).group(1))  # type: ignore[union-attr]
    assert 20 < need <= 50
    fl.statement(GaussianVector(4, F(1), 8, F(1, 10), tail_exponent=need + 1), 2000, F(1, 100),
                 50, F(1, 10**6))


def test_example_5_of_the_paper() -> None:
    """sigma = 5.1, q = 0.02, 2500 rounds, delta = 1e-8: the moments accountant at multiplier 5.1
    gives 1.08 (the paper prints 0.8, which does not hold: docs/accounting's seed tables);
    dpspec's statement pays for the noise in the norm bound and counts B - 1 other reports, so
    its multiplier is a little lower (B = 10^6, d = 1, f = 16)."""
    paper, _ = subsampling.subsampled_gaussian_epsilon("0.02", "5.1", 2500, "1e-8")
    assert 1.07 < paper < 1.09
    r = GaussianVector(1, F(1), 16, F(2601, 100) / 10**6)
    stmt = fl.statement(r, 10**6, F(1, 50), 2500, F(1, 10**8))
    assert paper < stmt.epsilon < 1.2 * paper + 0.3
    assert 4.8 < float(fl.noise_multiplier(r, 10**6)) < 5.1  # t = 50: R is about 10 sigma_device


def test_coarse_noise_is_refused() -> None:
    coarse = GaussianVector(4, F(1), 0, F(1))  # s2 = 1 < 4
    with pytest.raises(RecipeRefused, match="privacy_claim_not_met"):
        protocol.check_recipe(fl_recipe(coarse), PrivacyBudget(F(10**7), 10))


# -- recipes and the device's multi-round accountant ----------------------------------------------
def test_recipe_claims_are_checked_through_the_accountant() -> None:
    doc = fl_recipe(B=2000, q=F(1, 100), rounds=50, eps=F(1))
    stmt = protocol.check_claim(doc)[1]
    assert stmt.bound == "gaussian-rounds" and stmt.epsilon < 1
    want = fl.statement(R4, 2000, F(1, 100), 50, F(1, 10**6))
    assert stmt.epsilon == want.epsilon
    low = fl_recipe(B=2000, q=F(1, 100), rounds=50,
                    eps=F(mpmath.nstr(stmt.epsilon * mpmath.mpf("0.95"), 6)))
    with pytest.raises(RecipeRefused, match="privacy_claim_not_met"):
        protocol.check_claim(low)
    # the claim is for all rounds: the same recipe over more rounds needs a larger epsilon
    fits_50 = F(mpmath.nstr(stmt.epsilon * mpmath.mpf("1.01"), 6))
    protocol.check_claim(fl_recipe(B=2000, q=F(1, 100), rounds=50, eps=fits_50))
    more = fl_recipe(B=2000, q=F(1, 100), rounds=5000, eps=fits_50)
    with pytest.raises(RecipeRefused, match="privacy_claim_not_met"):
        protocol.check_claim(more)


@pytest.mark.parametrize(("change", "reason"), [
    ({"randomizer": {**R4.to_json(), "dimension": 5}}, "vdaf_mismatch"),
    ({"vdaf": {**fl_recipe()["vdaf"], "normBound": 10**9}}, "vdaf_mismatch"),
    ({"decoding": "identity"}, "decoding_mismatch"),
    ({"privacy": {**fl_recipe()["privacy"], "accountant": "shuffle-fmt20"}},
     "accountant_not_applicable"),
    ({"dummyRate": "1/10", "population": 100}, "malformed"),
    ({"rounds": 0}, "malformed"),
])
def test_malformed_fl_recipes_are_refused(change: dict[str, Any], reason: str) -> None:
    with pytest.raises(RecipeRefused) as info:
        protocol.check_recipe_structure({**fl_recipe(), **change})
    assert info.value.reason == reason


def test_the_device_counts_rounds_and_refuses_past_the_recipe_or_its_budget() -> None:
    recipe = _structure(fl_recipe(rounds=3, eps=F(5)))  # a toy cohort: the budget mechanics
    budget = PrivacyBudget(F(12), 10)
    for _ in range(3):
        budget.admit(recipe)
    assert budget.epsilon_used == 5 and budget.rounds_taken[recipe.task_id] == 3
    with pytest.raises(RecipeRefused, match="rounds_exhausted"):
        budget.admit(recipe)
    other = protocol.parse_recipe({**fl_recipe(rounds=2, eps=F(5)), "taskId": "11" * 32})
    budget.admit(other)  # a second task: 10 of 12 spent
    assert budget.epsilon_used == 10
    third = protocol.parse_recipe({**fl_recipe(rounds=2, eps=F(5)), "taskId": "22" * 32})
    with pytest.raises(RecipeRefused, match="budget_exhausted"):
        budget.admit(third)
    assert budget.epsilon_used == 10 and third.task_id not in budget.rounds_taken


# -- the protocol: bounded-norm circuit and the ideal functionality --------------------------------
def _structure(doc: dict[str, Any]) -> protocol.Recipe:
    return protocol.check_recipe_structure(doc)  # toy cohorts: mechanics only


def gv(recipe: protocol.Recipe) -> GaussianVector:
    assert isinstance(recipe.randomizer, GaussianVector)
    return recipe.randomizer


def test_honest_round_equals_the_ideal_functionality() -> None:
    recipe = _structure(fl_recipe(B=3, q=F(1, 2)))
    vdaf = protocol.build_vdaf(recipe)
    xs = updates(12, 4, SEED)
    res = protocol.run_collection(recipe, DEP, vdaf, xs, SEED)
    msgs = [gv(recipe).apply(x, RandomTape(SEED, TAGS["randomizer"].format(i=i)))
            for i, x in enumerate(xs)]
    want = ideal.samplable_aggregate(msgs, 3, F(1, 2), protocol.ideal_aggregation(recipe, vdaf),
                                     RandomTape(SEED, TAGS["participation"]))
    assert want is not None and res.release == want
    assert res.outcome.rejected == {}
    assert any(v < 0 for v in want)  # signed fixed-point sums come back signed


def test_an_over_norm_report_is_refused_by_the_aggregators() -> None:
    recipe = _structure(fl_recipe(B=2, q=F(1, 2)))
    vdaf = protocol.build_vdaf(recipe)
    assert isinstance(recipe.randomizer, GaussianVector)
    enc = protocol.over_norm_encoding(recipe.randomizer, vdaf)
    over = [-(1 << (recipe.randomizer.bits() - 1))] * 4
    assert sum(v * v for v in over) > recipe.randomizer.norm_bound()
    with pytest.raises(ValueError, match="exceeds norm_bound"):
        vdaf.flp.encode(over)  # an honest client cannot even encode it
    att = tokens.Attester(tokens.Issuer(DEP.issuer_sk))
    tape = RandomTape(SEED, "over-norm")
    tok = tokens.obtain_token("bad", att, recipe.issuer_key, recipe.task_id, tape)
    rep = protocol.client_report(recipe, vdaf, None, tok, tape, encoded_measurement=enc)
    leader = protocol.Aggregator(protocol.ROLE_LEADER, recipe.task_config(DEP.verify_key),
                                 DEP.leader_hpke.private_key, vdaf)
    helper = protocol.Aggregator(protocol.ROLE_HELPER, recipe.task_config(DEP.verify_key),
                                 DEP.helper_hpke.private_key, vdaf)
    out = protocol.aggregate_batch(leader, helper, [rep])
    assert out.verdicts == ["vdaf_verify_failed"]


def test_malicious_clients_release_equals_the_robust_ideal_functionality() -> None:
    recipe = _structure(fl_recipe(B=3, q=F(1, 2)))
    vdaf = protocol.build_vdaf(recipe)
    xs = updates(10, 4, SEED[::-1])
    K = len(protocol.MALICIOUS_KINDS)
    res = protocol.run_collection(recipe, DEP, vdaf, xs, SEED[::-1], malicious=K)
    assert res.outcome.rejected == {"vdaf_verify_failed": 2, "token_invalid": 1,
                                    "token_replayed": 1, "decrypt_failed": 1}
    keep = ideal.poisson_sample(len(xs), recipe.q, RandomTape(SEED[::-1], TAGS["participation"]))
    msgs = [gv(recipe).apply(x, RandomTape(SEED[::-1], TAGS["randomizer"].format(i=i)))
            for i, (x, k) in enumerate(zip(xs, keep, strict=True)) if k]
    j = protocol.MALICIOUS_KINDS.index("replayed_token")
    t = RandomTape(SEED[::-1], TAGS["malicious"].format(j=j))
    tokens.request_token(recipe.issuer_key, recipe.task_id, t)
    adversary = [protocol.adversary_measurement(recipe, t)]  # one valid report of the replayer
    want = ideal.aggregate(msgs + adversary, 3, protocol.ideal_aggregation(recipe, vdaf))
    assert res.release == want is not None


def test_rounds_run_until_the_recipe_is_used_up() -> None:
    recipe = _structure(fl_recipe(B=2, q=F(1, 2), rounds=2, eps=F(3)))
    vdaf = protocol.build_vdaf(recipe)
    budgets = [PrivacyBudget(F(10), 5) for _ in range(6)]
    out = protocol.run_rounds(recipe, DEP, vdaf, lambda r: updates(6, 4, SEED, r), SEED, 3,
                              budgets)
    assert [o.admitted for o in out] == [6, 6, 0]
    assert out[2].refused == {"rounds_exhausted": 6} and out[2].result is None
    assert all(b.epsilon_used == 3 for b in budgets)
    for o in out[:2]:
        assert o.result is not None
        seed = protocol.round_seed(SEED, o.round)
        xs = updates(6, 4, SEED, o.round)
        msgs = [gv(recipe).apply(x, RandomTape(seed, TAGS["randomizer"].format(i=i)))
                for i, x in enumerate(xs)]
        want = ideal.samplable_aggregate(msgs, 2, F(1, 2),
                                         protocol.ideal_aggregation(recipe, vdaf),
                                         RandomTape(seed, TAGS["participation"]))
        assert o.result.release == want


# -- the command line -----------------------------------------------------------------------------
CLI_SEED = "0f0e0d0c0b0a09080706050403020100"
# B must be well above d + 2 sqrt(d t) + 2 t (the norm bound pays for each report's own noise);
# with 8 clients no round reaches B = 150, so rounds release nothing (allowed below)
FL_ARGS = ["sa2", "recipe", "--seed", CLI_SEED, "--randomizer", "gaussian_vector", "--B", "150",
           "--q", "1/2", "--sigma", "4", "--dimension", "2", "--rounds", "2"]


@pytest.mark.parametrize("bad", [["--dimension", "0"], ["--sigma", "0"], ["--sigma", "0.5.1"],
                                 ["--fractional-bits", "40"], ["--rounds", "0"],
                                 ["--clip-norm", "-1"], ["--tail-exponent", "0"]])
def test_bad_fl_recipe_options_give_one_line_and_exit_2(bad: list[str],
                                                        capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    from dpspec.conformance.cli import main

    assert main([*FL_ARGS, *bad]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_simulate_runs_the_rounds_end_to_end(tmp_path: Any,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from dpspec.conformance.cli import main

    assert main(FL_ARGS) == 0
    path = tmp_path / "fl.json"
    path.write_text(capsys.readouterr().out)
    sim = ["sa2", "simulate", "--recipe", str(path), "--clients", "8", "--seed", CLI_SEED]
    assert main([*sim, "--rounds", "3", "--device-budget", "1000", "--json", "-q"]) == 0
    out = json.loads(capsys.readouterr().out)
    rounds = out["rounds"]
    assert [r["devices"] for r in rounds] == [8, 8, 0]
    assert rounds[2]["refused"] == {"rounds_exhausted": 8}
    for r in rounds[:2]:
        assert r["release"] is None or len(r["sum"]) == 2
    assert main([*sim, "--rounds", "0", "-q"]) == 2
    assert main([*sim, "--engine", "population", "--device-budget", "1000", "-q"]) == 2
    capsys.readouterr()
    assert main([*sim, "--device-budget", "1"]) == 1  # the recipe's total exceeds the budget
    assert "budget_exhausted" in capsys.readouterr().err


def test_the_statement_prints_the_users_delta() -> None:
    """delta is the user's rational; its binary value must not be published as the next 6-digit
    decimal above it (1e-8 used to print as 1.00001e-8)."""
    for delta, text in ((F(1, 10**6), "1e-6"), (F(1, 10**8), "1e-8"), (F(3, 10**7), "3e-7")):
        stmt = fl.statement(R4, 500, F(1, 20), 7, delta)
        assert stmt.as_strings()["delta"] == text
        man, exp = stmt.delta.man_exp
        assert F(man) * F(2) ** exp <= delta  # exactly: never above the user's delta
