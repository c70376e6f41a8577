"""A client that cannot be talked into a false claim (issue: validity-gated bounds), RAPPOR reports
that cannot be inflated (max_weight), and dummy reports (sec. 4.6 of [SA2])."""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpspec.conformance.cli import main
from dpspec.spec.accounting import shuffle
from dpspec.spec.mechanisms.exact import rr_flip_enclosure
from dpspec.spec.policies.max_weight import max_weight as policy_max_weight
from dpspec.spec.sa2 import privacy, protocol
from dpspec.spec.sa2.ideal import Sa2Error
from dpspec.spec.sa2.protocol import PrivacyBudget, RecipeRefused
from dpspec.spec.sa2.randomizers import Randomizer
from dpspec.spec.tape import RandomTape

F = Fraction
SEED = "ab" * 32
DEP = protocol.provision(bytes.fromhex(SEED))


def recipe(r: Randomizer, B: int, q: Fraction, eps: Fraction, delta: Fraction,
           **over: Any) -> dict[str, Any]:
    return protocol.make_recipe(
        recipe_id="claims", task_id=bytes(32), randomizer=r, B=B, q=q, chunk_length=2,
        leader_pk=DEP.leader_hpke.public_key, helper_pk=DEP.helper_hpke.public_key,
        issuer_key=DEP.issuer_sk.public_key(), epsilon=eps, delta=delta, **over)


def verdict(doc: dict[str, Any]) -> str:
    try:
        protocol.check_recipe(doc, PrivacyBudget(F(10**6), 10))
    except RecipeRefused as exc:
        return exc.reason
    return "accepted"


# -- 1. one implementation of each bound, validity-gated ------------------------------------------
def test_the_issue_recipe_is_refused_with_the_reason(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sa2", "recipe", "--seed", SEED, "--randomizer", "rappor", "--k", "4",
                 "--flip", "1/22", "--B", "5000", "--q", "1", "--delta", "1e-6",
                 "--epsilon", "2.1"]) == 0
    out = capsys.readouterr()
    assert "warning: a client will refuse this recipe" in out.err
    path = tmp_path / "r.json"
    path.write_text(out.out)
    assert main(["sa2", "simulate", "--recipe", str(path), "--clients", "200", "--seed", SEED,
                 "--device-budget", "10", "-q"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("the client refuses the recipe: privacy_claim_not_met")
    assert "Theorem 3.1 does not apply" in err and "fmt20" in err and err.count("\n") == 1
    # the valid bound is about 6, far above the claim
    stmt = protocol.guarantee(protocol.parse_recipe(json.loads(path.read_text())))
    assert 6.0 < stmt.epsilon < 6.1 and stmt.bound == "fmt20"


@pytest.mark.parametrize(("r", "B", "claim", "accountant", "inside", "want"), [
    # outside the closed form's region (eps0 = 6.09 > 3.74): the formula says 2.064, invalid
    (Randomizer("rappor", 4, F(1, 22)), 5000, F(21, 10), "shuffle-closed-form", False,
     "privacy_claim_not_met"),
    # inside the region (eps0 = ln 3 <= 4.29): the closed form applies and is the number
    (Randomizer("binary_randomized_response", 2, F(1, 2)), 10000, F(1, 10),
     "shuffle-closed-form", True, "privacy_claim_not_met"),
    (Randomizer("binary_randomized_response", 2, F(1, 2)), 10000, F(1, 4),
     "shuffle-closed-form", True, "accepted"),
    # the same RAPPOR recipe under the proven RAPPOR-specific bound: 2.1 holds (0.49)
    (Randomizer("rappor", 4, F(1, 22)), 5000, F(21, 10), "rappor-clone", None, "accepted"),
    (Randomizer("rappor", 4, F(1, 22)), 5000, F(2, 5), "rappor-clone", None,
     "privacy_claim_not_met"),
    (Randomizer("rappor", 4, F(1, 22)), 5000, F(21, 10), "shuffle-fmt22", None,
     "accountant_not_applicable"),
])
def test_claims_inside_and_outside_the_validity_region(r: Randomizer, B: int, claim: Fraction,
                                                       accountant: str, inside: bool | None,
                                                       want: str) -> None:
    if inside is not None:
        ok, _ = shuffle.closed_form_condition(privacy.eps0_up(r.epsilon0()), B, "1e-6")
        assert ok is inside
    doc = recipe(r, B, F(1), claim, F(1, 10**6), accountant=accountant)
    assert verdict(doc) == want


@settings(max_examples=25, deadline=None)
@given(flip=st.sampled_from([F(1, 22), F(1, 10), F(1, 4), F(1, 2)]),
       B=st.sampled_from([50, 500, 5000]), q=st.sampled_from([F(1, 50), F(1, 2), F(1)]),
       accountant=st.sampled_from(["shuffle-closed-form", "shuffle-fmt20"]))
def test_every_accepted_claim_holds_under_a_valid_bound(flip: Fraction, B: int, q: Fraction,
                                                       accountant: str) -> None:
    """Whatever the accountant named, the statement is >= the proven fmt20 bound amplified, or it
    is the closed form inside its region: never the formula outside it."""
    r = Randomizer("randomized_response", 6, flip)
    rec = protocol.parse_recipe(recipe(r, B, q, F(1), F(1, 10**6), accountant=accountant))
    stmt = protocol.aggregator_guarantee(rec)
    e0 = privacy.eps0_up(r.epsilon0())
    ok, _ = shuffle.closed_form_condition(e0, B, "1/1000000")
    fmt20 = shuffle.clone_epsilon(e0, B, "1/1000000", "fmt20").eps
    if accountant == "shuffle-closed-form" and ok:
        assert stmt.bound == "closed" and stmt.epsilon == mpmath.mpf(
            min(shuffle.closed_form_value(e0, B, "1/1000000"), float(e0)))
    else:
        assert stmt.bound == "fmt20" and stmt.epsilon == mpmath.mpf(fmt20)


def test_sa2_has_no_bound_of_its_own() -> None:
    """The duplicate formulas are gone; the rational parser is dpspec.spec.rational's."""
    src = (Path(privacy.__file__).read_text() + Path(protocol.__file__).read_text())
    for formula in ("4 / d", "1.25", "sqrt(2 * m"):
        assert formula not in src
    from dpspec.spec.sa2 import ideal
    assert not hasattr(ideal, "parse_rational") or ideal.parse_rational.__module__ == \
        "dpspec.spec.rational"


# -- 2. reports that cannot be inflated --------------------------------------------------------
def _brute_weight_law(k: int, flip: Fraction) -> dict[int, Fraction]:
    law: dict[int, Fraction] = {}
    for bits in itertools.product([0, 1], repeat=k):  # bucket 0 is the true one
        p = Fraction(1)
        for j, b in enumerate(bits):
            p *= (1 - flip) if b == (j == 0) else flip
        law[sum(bits)] = law.get(sum(bits), Fraction(0)) + p
    return law


@pytest.mark.parametrize(("k", "flip", "over"), [(4, F(1, 22), F(1, 10**9)), (6, F(1, 4), F(1, 20)),
                                                 (8, F(1, 3), F(1, 100)), (3, F(2, 5), F(1, 2))])
def test_max_weight_and_the_overweight_rate_are_exact(k: int, flip: Fraction,
                                                       over: Fraction) -> None:
    r = Randomizer("rappor", k, flip, over)
    m = r.max_weight()
    # the draft's rule with the model weight 1 + Bin(k - 1, flip), by enumeration
    model = _brute_weight_law(k, flip)  # true law of W; the model law is 1 + Bin(k-1, flip)
    def model_cdf(x: int) -> Fraction:
        return sum((Fraction(math.comb(k - 1, i)) * flip**i * (1 - flip) ** (k - 1 - i)
                    for i in range(x)), Fraction(0))
    assert model_cdf(m) >= 1 - over and (m == 1 or model_cdf(m - 1) < 1 - over)
    assert r.overweight_probability() == sum(p for w, p in model.items() if w > m)
    assert r.overweight_probability() <= over
    assert protocol.expected_vdaf_params(r, 2)["maxWeight"] == m


@pytest.mark.parametrize(("k", "eps0", "p"), [(16, "2", "1e-9"), (100, "1", "1e-6"), (40, "3", "1e-3")])
def test_max_weight_brackets_the_policys(k: int, eps0: str, p: str) -> None:
    """dpspec.spec.policies.max_weight uses p0 = 1/(e^eps0 + 1); the recipe's rule at rational
    flips just below and above p0 must bracket it (the rule is monotone in the flip)."""
    lo, hi = rr_flip_enclosure(Fraction(eps0), 64)
    want = policy_max_weight(k, eps0, p)
    over = Fraction(p)
    assert Randomizer("rappor", k, lo, over).max_weight() <= want
    assert want <= Randomizer("rappor", k, hi, over).max_weight()


def test_heavy_honest_reports_are_not_sent() -> None:
    r = Randomizer("rappor", 6, F(1, 3), F(1, 5))
    m = r.max_weight()
    assert m < 6
    heavy = light = 0
    for i in range(400):
        out = r.apply(2, RandomTape(bytes(16), f"heavy/{i}"))
        if out is None:
            heavy += 1
        else:
            assert sum(out) <= m
            light += 1
    # Pr[heavy] = overweight_probability(); a 1e-9 false-alarm binomial band
    from scipy import stats
    pr = float(r.overweight_probability())
    lo, hi = stats.binom.ppf(1e-9, 400, pr), stats.binom.isf(1e-9, 400, pr)
    assert lo <= heavy <= hi and light > 0


def test_inflated_reports_are_refused_by_the_aggregators() -> None:
    r = Randomizer("rappor", 8, F(1, 10), F(1, 1000))
    doc = recipe(r, 2, F(1), F(100), F(1, 2), accountant="shuffle-fmt20")
    rec = protocol.parse_recipe(doc)
    vdaf = protocol.build_vdaf(rec)
    assert rec.vdaf_params["maxWeight"] == r.max_weight() < 8
    res = protocol.run_collection(rec, DEP, vdaf, [0, 1, 2, 3], bytes.fromhex(SEED),
                                  malicious=5)
    # malicious 4 is "inflated": its all-ones vector fails the weight check
    assert res.outcome.rejected["vdaf_verify_failed"] == 2
    assert res.release is not None and max(res.release) <= 4 + 1


# -- 3. dummy reports ------------------------------------------------------------------------------
def _brute_count_delta(eps: Fraction, rate: Fraction, others: int) -> mpmath.mpf:
    """Both hockey-stick divergences of X + 1 vs X + Bern(q'), X ~ Bin(others, q'), directly."""
    with mpmath.workdps(50):
        e = mpmath.exp(mpmath.mpf(eps.numerator) / eps.denominator)
        f = [Fraction(math.comb(others, x)) * rate**x * (1 - rate) ** (others - x)
             for x in range(others + 1)]
        P = [Fraction(0)] + f  # y = 0..others+1 for X + 1
        Q = [Fraction(0)] * (others + 2)
        for x, fx in enumerate(f):
            Q[x] += fx * (1 - rate)
            Q[x + 1] += fx * rate
        to = [mpmath.mpf(v.numerator) / v.denominator for v in P]
        tq = [mpmath.mpf(v.numerator) / v.denominator for v in Q]
        d1 = mpmath.fsum(max(a - e * b, 0) for a, b in zip(to, tq, strict=True))
        d2 = mpmath.fsum(max(b - e * a, 0) for a, b in zip(to, tq, strict=True))
        return max(d1, d2)


@pytest.mark.parametrize(("eps", "rate", "others"), [
    (F(1), F(1, 10), 30), (F(1, 2), F(1, 3), 12), (F(2), F(1, 50), 200), (F(1), F(1, 2), 0),
    (F(1, 10), F(9, 10), 7), (F(3), F(1, 100), 600)])
def test_dummy_count_delta_is_exact(eps: Fraction, rate: Fraction, others: int) -> None:
    got = privacy.dummy_count_delta(eps, rate, others)
    want = _brute_count_delta(eps, rate, others)
    assert mpmath.almosteq(got, want, 1e-30, 1e-40)


def test_the_papers_dummy_rate_and_a_derived_one() -> None:
    # sec. 4.6: q' ~ 1/(eps k). With eps = 1, k = 10^4 that is ~1 dummy in expectation, and the
    # count B' is then only (1, 0.37)-DP; the derived rate reaches delta = 1e-6.
    k = 10**4
    paper = privacy.dummy_rate_paper(F(1), k)
    assert paper == F(1, k)
    assert privacy.dummy_count_delta(F(1), paper, k) > mpmath.mpf(1) / 3
    derived = privacy.dummy_rate_for(F(1), F(1, 10**6), k)
    assert privacy.dummy_count_delta(F(1), derived, k) <= mpmath.mpf("1e-6")
    below = derived - F(1, 10**9)
    assert privacy.dummy_count_delta(F(1), below, k) > mpmath.mpf("1e-6")


def test_guarantee_with_dummies_counts_only_real_reports() -> None:
    r = Randomizer("binary_randomized_response", 2, F(1, 2))
    doc = recipe(r, 2000, F(1, 10), F(1), F(1, 10**6), dummy_rate=F(1, 1000),
                 population=100000, accountant="shuffle-fmt20")
    rec = protocol.parse_recipe(doc)
    stmt = protocol.aggregator_guarantee(rec)
    d, tail = privacy.dummy_margin(F(1, 1000), 100000, F(1, 10**7))
    assert privacy.binomial_sf(100000, F(1, 1000), d + 1) == tail <= mpmath.mpf("1e-7")
    assert privacy.binomial_sf(100000, F(1, 1000), d) > mpmath.mpf("1e-7")
    base = privacy.shuffle_statement("shuffle-fmt20", r.name, r.epsilon0(), 2000 - d,
                                     F(9, 10**7))
    assert stmt.epsilon == base.epsilon and mpmath.almosteq(stmt.delta, base.delta + tail, 1e-14)
    # counting the dummies as noise would have claimed more than holds
    naive = privacy.shuffle_statement("shuffle-fmt20", r.name, r.epsilon0(), 2000, F(1, 10**6))
    assert naive.epsilon < stmt.epsilon
    count = protocol.count_guarantee(rec)
    assert count is not None and count.epsilon == 1 and count.delta < 1


def test_dummies_that_may_outnumber_B_refuse_the_recipe() -> None:
    r = Randomizer("binary_randomized_response", 2, F(1, 2))
    doc = recipe(r, 50, F(1, 10), F(100), F(1, 10**6), dummy_rate=F(1, 100), population=10**5)
    assert verdict(doc) == "privacy_claim_not_met"


def test_printed_guarantee_holds_with_dummies_present() -> None:
    """In every simulated collection that releases, at least B - d real reports were summed, so
    the printed bound (at B - d real reports) applies; d is the bound the statement used."""
    r = Randomizer("binary_randomized_response", 2, F(1, 2))
    doc = recipe(r, 12, F(1, 2), F(1000), F(1, 4), dummy_rate=F(1, 4), population=40)
    rec = protocol.parse_recipe(doc)
    d, _ = privacy.dummy_margin(rec.dummy_rate, 40, protocol.DUMMY_TAIL_SHARE * rec.delta)
    vdaf = protocol.build_vdaf(rec)
    released = 0
    for s in range(6):
        seed = bytes([s]) * 16
        res = protocol.run_collection(rec, DEP, vdaf, [1] * 40, seed)
        if res.release is not None:
            released += 1
            real = res.outcome.accepted - res.dummies
            assert res.dummies <= d and real >= rec.B - d
    assert released > 0
    with pytest.raises(Sa2Error):
        privacy.dummy_rate_paper(F(0), 10)
