"""The sa2-protocol-edges family: its compare (exact, except the two reals within their stated
tolerance), the decisions its boundary cases pin, and that its invalid cases are refused."""

from __future__ import annotations

import copy
from typing import Any

import mpmath
import pytest

from dpspec.conformance.families import sa2_protocol_edges as fam
from dpspec.conformance.vectors import Case
from tests.family_cases import find_case, generated_cases

CASES = generated_cases(fam.FAMILY)


def _outputs(op: str, comment_part: str) -> dict[str, Any]:
    case = find_case(CASES, op, comment_part)
    assert case.expected is not None
    return case.expected


def test_compare_is_exact_except_the_stated_tolerances() -> None:
    case = find_case(CASES, "sa2pe.binomial_tail", "t = 90")
    want = case.expected
    assert want is not None
    assert fam.FAMILY.compare(case, copy.deepcopy(want)) is None
    sf = mpmath.mpf(want["sf"])
    assert fam.FAMILY.compare(case, {"sf": mpmath.nstr(sf * (1 + mpmath.mpf("5e-16")), 25)}) is None
    assert fam.FAMILY.compare(case, {"sf": mpmath.nstr(sf * (1 + mpmath.mpf("1e-12")), 25)}) is not None
    assert fam.FAMILY.compare(case, {"sf": "0"}) is not None
    sigma = find_case(CASES, "sa2pe.sampagg_sigma", "sigma below 1/4")
    assert fam.FAMILY.compare(sigma, {"sigma": "0.17887"}) is None
    assert fam.FAMILY.compare(sigma, {"sigma": "0.17888"}) is not None
    verdict = find_case(CASES, "sa2pe.claim", "exactly eps0")
    assert fam.FAMILY.compare(verdict, {"verdict": "privacy_claim_not_met"}) is not None
    split = find_case(CASES, "sa2pe.split_batch", "refused by the helper alone")
    assert split.expected is not None
    changed = copy.deepcopy(split.expected)
    changed["verdicts"][-1] = "accepted"
    assert fam.FAMILY.compare(split, changed) is not None


def test_far_tail_is_tiny_and_positive() -> None:
    sf = float(_outputs("sa2pe.binomial_tail", "t = 90")["sf"])
    assert 0 < sf < 1e-70


def test_sampagg_search_floor_keeps_a_larger_sigma_than_needed() -> None:
    """eps = 10^9: the published sigma (just above 2^-14) meets eps, so does 2.3e-5, which the
    search never reaches (it stops halving below 10^-4); a search without that stop would publish
    about 2.24e-5, which the compare refuses."""
    from fractions import Fraction

    from dpspec.spec.sa2 import experiments

    case = find_case(CASES, "sa2pe.sampagg_sigma", "eps = 10^9")
    assert case.expected is not None
    sigma = mpmath.mpf(case.expected["sigma"])
    assert mpmath.mpf(2) ** -14 <= sigma < mpmath.mpf("6.11e-5")
    eps = experiments.sampagg_epsilon(Fraction(1, 2), mpmath.mpf("2.3e-5"), 1, Fraction(1, 10**5))
    assert eps <= 10**9
    assert fam.FAMILY.compare(case, {"sigma": "2.2361e-5"}) is not None


def test_non_objects_are_malformed_and_rounds_bounds() -> None:
    for part in ("a number", "null", "a list"):
        assert _outputs("sa2pe.recipe_verdict", part) == {"verdict": "malformed"}
    got = [_outputs("sa2pe.recipe_verdict", f"rounds = {n}")["verdict"]
           for n in (0, 1, 100000, 100001)]
    assert got == ["malformed", "ok", "ok", "malformed"]


def test_claim_tie_holds_and_below_does_not() -> None:
    assert _outputs("sa2pe.claim", "exactly eps0") == {"verdict": "admitted"}
    assert _outputs("sa2pe.claim", "1e-12 lower") == {"verdict": "privacy_claim_not_met"}


def test_each_aggregator_enforces_its_own_configuration() -> None:
    both = _outputs("sa2pe.split_batch", "refused by the helper alone")
    assert both["verdicts"][2:] == ["outside_time_window"] * 2
    one = _outputs("sa2pe.split_batch", "the leader releases, the helper does not")
    assert (one["leaderReleases"], one["helperReleases"], one["release"]) == (True, False, None)
    ok = _outputs("sa2pe.split_batch", "both limits 4")
    assert ok["release"] is not None


def test_aggregated_defaults_to_the_accepted_count() -> None:
    left_out = _outputs("sa2pe.collect", "aggregated left out")
    given = _outputs("sa2pe.collect", "aggregated = 3 given")
    zero = _outputs("sa2pe.collect", "aggregated = 0 given")
    assert left_out["aggregated"] == left_out["accepted"] == 3
    assert left_out["release"] == given["release"] != zero["release"]


def test_top_bit_token_is_refused() -> None:
    assert _outputs("sa2pe.token_check", "bit 2^emBits") == {
        "verdicts": ["accepted", "token_invalid"]}


def test_exponents_without_key_id_refuse_every_request() -> None:
    for case in CASES:
        if case.op == "sa2pe.attest":
            assert case.expected == {"results": ["refused"], "issued": 0}


def _invalid(op: str) -> list[Case]:
    out = [c for c in CASES if c.op == op and c.result == "invalid"]
    assert out
    return out


@pytest.mark.parametrize("op", ["sa2pe.provision", "sa2pe.fl_clip", "sa2pe.sampagg_sigma",
                                "sa2pe.token_request"])
def test_invalid_cases_are_refused(op: str) -> None:
    for case in _invalid(op):
        with pytest.raises(ValueError):
            fam.HANDLERS[op](copy.deepcopy(case.args))


def test_a_short_verify_key_is_refused_by_the_aggregators() -> None:
    """31 bytes: refused when the aggregators are set up, not report by report as failed
    verifications (the spec's Prio3 would raise on every verify_init)."""
    (case,) = _invalid("sa2pe.split_batch")
    assert len(bytes.fromhex(case.args["verifyKey"])) == 31
    with pytest.raises(ValueError, match="verify key must have 32 bytes, got 31"):
        fam.HANDLERS["sa2pe.split_batch"](copy.deepcopy(case.args))


def test_valid_cases_replay() -> None:
    for case in CASES:
        if case.result == "valid" and case.op in ("sa2pe.recipe_verdict", "sa2pe.fl_clip",
                                                  "sa2pe.binomial_tail", "sa2pe.attest"):
            assert fam.FAMILY.compare(case, fam.HANDLERS[case.op](copy.deepcopy(case.args))) \
                is None


def test_prime_draw_skips_a_prime_one_mod_65537() -> None:
    skipped = int(_outputs("sa2pe.prime_draw", "skipped")["prime"])
    kept = int(_outputs("sa2pe.prime_draw", "is kept")["prime"])
    for p in (skipped, kept):
        assert p.bit_length() == 20 and (p - 1) % 65537 != 0
    case = find_case(CASES, "sa2pe.prime_draw", "skipped")
    assert fam.FAMILY.compare(case, {"prime": "917519"}) is not None


@pytest.mark.parametrize("bits", [2048, 1024])
def test_largest_blind_draws_r_equal_to_n_minus_1(bits: int) -> None:
    """The LargestBlind cases: the request's first candidate for r - 1 is n - 2, so the spec's
    r = 1 + uniform(n - 1) takes r = n - 1 (a uniform(n - 2) would reject it and read on), and
    inv = r^-1 mod n is n - 1 itself."""
    from dpspec.spec.sa2 import tokens
    from dpspec.spec.tape import RandomTape

    seed, n = fam._largest_blind(bits)
    tape = RandomTape(seed, "sa2/client/0/token")
    tape.bits(8 * (tokens.NONCE_LEN + tokens.SALT_LEN))
    assert tape.uniform(n - 1) == n - 2
    case = next(c for c in generated_cases(fam.FAMILY)
                if c.op == "sa2pe.token_request" and c.args.get("seed") == seed.hex())
    assert case.expected is not None and int(case.expected["inv"], 16) == n - 1
    assert int(case.args["modulus"], 16) == n and n.bit_length() == bits


def test_largest_blind_1024_seed_index_is_the_first_that_qualifies() -> None:
    """LARGEST_BLIND_SEED[1024] is the first index whose tape qualifies (the 2048-bit search
    takes several thousand primality tests; its index is checked by _largest_blind itself)."""
    for i in range(fam.LARGEST_BLIND_SEED[1024]):
        saved = fam.LARGEST_BLIND_SEED[1024]
        fam.LARGEST_BLIND_SEED[1024] = i
        try:
            with pytest.raises(AssertionError):
                fam._largest_blind(1024)
        finally:
            fam.LARGEST_BLIND_SEED[1024] = saved
