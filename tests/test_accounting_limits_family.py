"""The accounting-limits vector family: every op has a tolerance and valid and invalid cases; the
compare rejects a perturbed log-moment, a missing or extra second direction and a moved split
point; the transcripts are the spec's own (the wrapped helpers are restored afterwards); the
published parts are consistent with the published RDP; invalid cases are refused."""

from __future__ import annotations

import copy

import mpmath
import pytest

from dpspec.conformance.families.accounting_limits import (
    FAMILY,
    TOLERANCE,
    h_directions,
    h_parts,
    h_pruned,
    h_sum,
)
from dpspec.spec.accounting import subsampling
from dpspec.spec.accounting.definitions import rdp_to_dp_epsilon
from tests.family_cases import find_case, generated_cases

CASES = generated_cases(FAMILY)
PARTS = "accounting_limits.sampled_gaussian_parts"
SUM = "accounting_limits.sampled_gaussian_sum"
PRUNED = "accounting_limits.pruned_search"
DIRECTIONS = "accounting_limits.sampled_gaussian_directions"
#: the handlers without their memo: each call runs the spec again
RAW = {PARTS: h_parts, SUM: h_sum, PRUNED: h_pruned, DIRECTIONS: h_directions}


def test_published_cases_match_and_invalid_ones_are_refused() -> None:
    for c in CASES:
        if c.result == "valid":
            assert FAMILY.compare(c, RAW[c.op](dict(c.args))) is None, c.comment
        else:
            with pytest.raises((ValueError, TypeError, ArithmeticError)):
                RAW[c.op](dict(c.args))


def test_parts_agree_with_the_rdp() -> None:
    """rdp = max(logA, logB, 0)/(alpha - 1) within the quadrature tolerance, and the forward
    direction is the larger in every published case."""
    rel = mpmath.mpf(TOLERANCE[PARTS][0])
    for c in CASES:
        if c.op != PARTS or c.result != "valid" or c.expected is None:
            continue
        out = c.expected
        if out["logA"] is None:
            continue
        a = mpmath.mpf(c.args["alpha"])
        parts = [mpmath.mpf(out["logA"])] + ([mpmath.mpf(out["logB"])] if out["logB"] else [])
        want = max(max(parts) / (a - 1), 0)
        assert abs(mpmath.mpf(out["rdp"]) - want) <= 10 * rel * want, c.comment
        if out["logB"] is not None:
            assert mpmath.mpf(out["logB"]) < mpmath.mpf(out["logA"]), c.comment


def test_directions_are_the_parts_divided_and_the_rdp_is_their_maximum() -> None:
    """Each published direction is its log-moment over alpha - 1 and the rdp the larger of the
    two (at least 0), checked against the parts cases of the same inputs; a backward direction
    divided by alpha instead of alpha - 1 (which leaves the rdp unchanged wherever the forward
    one is larger) fails the compare."""
    parts = {tuple(sorted(c.args.items())): c.expected for c in CASES
             if c.op == PARTS and c.result == "valid"}
    rel = mpmath.mpf(TOLERANCE[DIRECTIONS][0])
    matched = fractional = 0
    for c in CASES:
        if c.op != DIRECTIONS or c.result != "valid" or c.expected is None:
            continue
        a = mpmath.mpf(c.args["alpha"])
        fwd, bwd = c.expected["forward"], c.expected["backward"]
        other = parts.get(tuple(sorted(c.args.items())))
        if other is not None and other["logA"] is not None:
            matched += 1
            assert abs(mpmath.mpf(fwd) - mpmath.mpf(other["logA"]) / (a - 1)) <= \
                10 * rel * abs(mpmath.mpf(fwd)), c.comment
            assert (bwd is None) == (other["logB"] is None), c.comment
            want = max(mpmath.mpf(fwd), mpmath.mpf(bwd) if bwd else 0, 0)
            assert abs(mpmath.mpf(other["rdp"]) - want) <= 10 * rel * want, c.comment
        if bwd is not None and 0 < mpmath.mpf(bwd) < mpmath.mpf(fwd):
            fractional += 1
            wrong = dict(c.expected, backward=mpmath.nstr(mpmath.mpf(bwd) * (a - 1) / a, 20))
            assert FAMILY.compare(c, wrong) is not None, c.comment
    assert matched >= 4 and fractional >= 4


def test_log_b_is_published_only_for_fractional_orders() -> None:
    for c in CASES:
        if c.op == PARTS and c.result == "valid" and c.expected is not None:
            a = mpmath.mpf(c.args["alpha"])
            computed = c.expected["logB"] is not None
            shortcut = c.args["q"] in ("0", "1")
            assert computed == (a != mpmath.floor(a) and not shortcut), c.comment


def test_compare_rejects_a_perturbed_or_missing_direction() -> None:
    case = find_case(CASES, PARTS, "z = -alpha")
    assert case.expected is not None
    assert FAMILY.compare(case, copy.deepcopy(case.expected)) is None
    changed = copy.deepcopy(case.expected)
    changed["logB"] = mpmath.nstr(mpmath.mpf(changed["logB"]) * (1 + 1e-8), 20)
    assert FAMILY.compare(case, changed) is not None
    changed = copy.deepcopy(case.expected)
    changed["logB"] = None
    assert FAMILY.compare(case, changed) is not None
    changed = copy.deepcopy(case.expected)
    changed["quadratures"] = changed["quadratures"][:1]
    assert FAMILY.compare(case, changed) is not None


def test_compare_rejects_a_moved_split_point_or_scale() -> None:
    case = find_case(CASES, PARTS, "sigma = alpha = 2.5")
    assert case.expected is not None
    assert case.expected["quadratures"][0]["points"] == ["-100", "0", "2.5", "102.5"]
    changed = copy.deepcopy(case.expected)
    changed["quadratures"][0]["points"].insert(2, "1.25")
    assert FAMILY.compare(case, changed) is not None
    changed = copy.deepcopy(case.expected)
    changed["quadratures"][1]["scaled"][2] = "0.999999"
    assert FAMILY.compare(case, changed) is not None


def test_cancelling_sum_is_compared_at_its_tolerance() -> None:
    case = find_case(CASES, SUM, "q 1e-12")
    assert case.expected is not None
    log_a = mpmath.mpf(case.expected["logA"])
    assert abs(log_a / (mpmath.e - 1) / mpmath.mpf("1e-24") - 1) < mpmath.mpf("1e-10")
    changed = copy.deepcopy(case.expected)
    changed["logA"] = mpmath.nstr(log_a * (1 + 1e-13), 20)
    assert FAMILY.compare(case, changed) is not None


def test_a_cancelling_sum_in_too_few_digits_is_caught() -> None:
    """Summing A itself (its first-order terms cancel: A = 1 + 1.7e-24 here) at 30 digits fails
    the published logA; the spec's sum of A - 1 from non-negative terms keeps the digits at 30
    digits as at 50."""
    case = find_case(CASES, SUM, "q 1e-12")
    assert case.expected is not None
    q, s2 = mpmath.mpf("1e-12"), mpmath.mpf(1)
    with mpmath.workdps(30):
        naive = mpmath.log(sum(mpmath.binomial(2, k) * (1 - q) ** (2 - k) * q ** k
                               * mpmath.exp(mpmath.mpf(k * k - k) / (2 * s2)) for k in range(3)))
        careful = subsampling._log_a_integer(q, s2, 2)
    assert FAMILY.compare(case, dict(case.expected, logA=mpmath.nstr(naive, 20))) is not None
    assert FAMILY.compare(case, dict(case.expected, logA=mpmath.nstr(careful, 20))) is None


def test_handlers_restore_the_spec() -> None:
    before = (subsampling._log_a_integer, subsampling._log_a_integral,
              subsampling._log_b_integral, subsampling.mpmath)
    for c in CASES:
        try:
            RAW[c.op](dict(c.args))
        except (ValueError, TypeError, ArithmeticError):
            assert c.result == "invalid"
    after = (subsampling._log_a_integer, subsampling._log_a_integral,
             subsampling._log_b_integral, subsampling.mpmath)
    assert before == after
    assert subsampling.mpmath is mpmath


def test_pruned_search_follows_the_published_skip_rule() -> None:
    """Replaying the skip rule of the header on the published rdp values gives exactly the
    published list of evaluated orders (integers increasingly, then the fractional ones)."""
    seen = 0
    for c in CASES:
        if c.op != PRUNED or c.result != "valid" or c.expected is None:
            continue
        seen += 1
        a = c.args
        evaluated = {mpmath.mpf(o): mpmath.mpf(r) for o, r in c.expected["evaluated"]}
        orders = sorted({mpmath.mpf(o) for o in a["orders"]})
        visit = ([o for o in orders if o == mpmath.floor(o)]
                 + [o for o in orders if o != mpmath.floor(o)])
        best = None
        known: list[tuple[mpmath.mpf, mpmath.mpf]] = []
        expected_calls = []
        for o in visit:
            below = [r for b, r in known if b <= o]
            lower = rdp_to_dp_epsilon(below[-1] if below else 0, o, a["delta"])
            if best is not None and lower >= best * (1 - mpmath.mpf("1e-9")):
                continue
            expected_calls.append(o)
            r = a["steps"] * evaluated[o]
            if o == mpmath.floor(o):
                known.append((o, r))
            e = rdp_to_dp_epsilon(r, o, a["delta"])
            best = e if best is None else min(best, e)
        assert [mpmath.mpf(o) for o, _ in c.expected["evaluated"]] == expected_calls, c.comment
        assert abs(best - mpmath.mpf(c.expected["eps"])) <= mpmath.mpf("1e-9") * best
    assert seen >= 3


def test_compare_rejects_an_extra_evaluation() -> None:
    case = find_case(CASES, PRUNED, "orders 32 and 64 are skipped")
    assert case.expected is not None
    assert [o for o, _ in case.expected["evaluated"]] == ["2", "3", "4", "8", "16"]
    changed = copy.deepcopy(case.expected)
    changed["evaluated"].append(["32", "1"])
    assert FAMILY.compare(case, changed) is not None
