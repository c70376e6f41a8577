"""The accounting-shuffle-clone vector family: every op has a tolerance and both kinds of case, the
compare applies each op's tolerance (exact for mpmath-derived binary64 values, relative with no
floor for clone tails and exact zeros), search transcripts are compared entry by entry, the spec's
functions are restored after a transcript, and invalid cases are refused."""

from __future__ import annotations

import copy
import math

import mpmath

from dpspec.conformance.families.accounting_shuffle_clone import (
    FAMILY,
    h_clone_delta,
    h_search,
)
from dpspec.spec.accounting import shuffle
from tests.family_cases import find_case, generated_cases

CASES = generated_cases(FAMILY)


def test_closed_form_value_is_the_binary64_rounded_up_and_exact() -> None:
    case = find_case(CASES, "accounting_shuffle_clone.closed_form", "just above the 40-digit value")
    assert case.expected is not None
    value = float(case.expected["value"])
    with mpmath.workdps(40):
        e0, n, d = mpmath.mpf(3), 10000, mpmath.mpf("1e-6")
        exact = mpmath.log1p(mpmath.expm1(e0) * (4 * mpmath.sqrt(2 * mpmath.log(4 / d))
                                                 / mpmath.sqrt((mpmath.exp(e0) + 1) * n) + 4 / n))
        assert value >= exact and math.nextafter(value, -math.inf) < exact
    assert FAMILY.compare(case, copy.deepcopy(case.expected)) is None
    changed = {"value": repr(math.nextafter(value, math.inf))}
    assert FAMILY.compare(case, changed) is not None


def test_smallest_cohort_is_accepted() -> None:
    case = find_case(CASES, "accounting_shuffle_clone.closed_form", "n 2, the smallest cohort: inside")
    assert case.expected == {"valid": False, "limit": "-inf"}


def test_clone_window_matches_its_definition() -> None:
    for c in CASES:
        if c.op != "accounting_shuffle_clone.clone_support" or c.result != "valid":
            continue
        assert c.expected is not None
        n = c.args["n"]
        pc = shuffle.clone_probability(float(c.args["eps0"]), c.args.get("variant", "fmt22"))
        first, last = c.expected["first"], c.expected["last"]
        assert 0 <= first <= (n - 1) * pc <= last <= n - 1
        assert c.expected["atoms"] == last - first + 1
        # the window holds everything but at most 2e-30 of Bin(n - 1, pc)
        assert float(c.expected["lost"]) <= 2 * shuffle.CLONE_TAIL
        if first == 0 and last == n - 1:
            assert c.expected["lost"] == "0"


def test_the_switch_to_the_recurrence_is_at_20000_atoms() -> None:
    below = find_case(CASES, "accounting_shuffle_clone.clone_delta", "20000 atoms")
    above = find_case(CASES, "accounting_shuffle_clone.clone_delta", "20001 atoms")
    assert below.expected is not None and above.expected is not None
    assert below.expected["recurrence"] is False and above.expected["recurrence"] is True
    changed = copy.deepcopy(above.expected)
    changed["recurrence"] = False
    assert FAMILY.compare(above, changed) is not None


def test_exact_zero_and_tiny_tails_are_compared_without_a_floor() -> None:
    zero = find_case(CASES, "accounting_shuffle_clone.clone_delta", "eps = eps0: exactly 0")
    assert zero.expected is not None and zero.expected["delta"] == "0"
    assert FAMILY.compare(zero, {"delta": "1e-39", "recurrence": False}) is not None
    tail = find_case(CASES, "accounting_shuffle_clone.clone_support", "last n - 2")
    assert tail.expected is not None
    lost = mpmath.mpf(tail.expected["lost"])
    assert 0 < lost < mpmath.mpf("1e-30")
    assert FAMILY.compare(tail, copy.deepcopy(tail.expected)) is None
    changed = copy.deepcopy(tail.expected)
    changed["lost"] = mpmath.nstr(lost * (1 + mpmath.mpf("1e-6")), 12)
    assert FAMILY.compare(tail, changed) is not None


def test_search_transcript_is_consistent_and_compared_entry_by_entry() -> None:
    case = find_case(CASES, "accounting_shuffle_clone.search", "lower probe equals lo")
    assert case.expected is not None
    probes = case.expected["probes"]
    assert case.expected["evaluations"] == len(probes)
    # delta(0), delta(hi), delta(0) again; then the clamped estimate's upper probe at tol/2
    assert [p[1] for p in probes[:3]] == [True, False, True]
    assert probes[1][0] == "54" and mpmath.mpf(probes[3][0]) == mpmath.mpf("2.7e-9")
    assert FAMILY.compare(case, copy.deepcopy(case.expected)) is None
    changed = copy.deepcopy(case.expected)
    changed["probes"][3][1] = True
    assert FAMILY.compare(case, changed) is not None
    changed = copy.deepcopy(case.expected)
    changed["probes"].insert(3, ["0", True])
    changed["evaluations"] += 1
    assert FAMILY.compare(case, changed) is not None
    changed = copy.deepcopy(case.expected)
    changed["finalWidth"] = "0.4"
    assert FAMILY.compare(case, changed) is not None


def test_search_ends_on_the_last_probe_below_the_target() -> None:
    for c in CASES:
        if c.op != "accounting_shuffle_clone.search" or c.result != "valid":
            continue
        assert c.expected is not None
        eps, probes = c.expected["eps"], c.expected["probes"]
        if eps == "0":
            assert probes == [["0", False]]
        elif eps == "inf":
            assert len(probes) == 2 and all(up for _x, up in probes)
        else:
            below = [x for x, up in probes if not up]
            assert below[-1] == eps
            assert c.expected["finalWidth"] == "0.5"


def test_handlers_restore_the_spec_functions() -> None:
    """The unmemoised handlers (the memo would answer without calling the spec) observe the
    spec's functions and put them back, also when the spec refuses the input."""
    raw = {"accounting_shuffle_clone.search": h_search,
           "accounting_shuffle_clone.clone_delta": h_clone_delta}
    before = (shuffle._clone_delta_on, shuffle._pairs_delta, shuffle._clone_delta_recurrence)
    ran = 0
    for c in CASES:
        if c.op in raw and c.args.get("n", 0) < 10**6:
            try:
                out = raw[c.op](dict(c.args))
            except (ValueError, TypeError, ArithmeticError):
                assert c.result == "invalid"
            else:
                assert out == c.expected
                ran += 1
    after = (shuffle._clone_delta_on, shuffle._pairs_delta, shuffle._clone_delta_recurrence)
    assert before == after and ran >= 10
