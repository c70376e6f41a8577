"""The accounting-pld-bounds vector family: every op is compared exactly (the bounds are exact
rationals), a bound moved by one unit of its last place is rejected, the search ties the cases
claim are real ties, and invalid cases are refused."""

from __future__ import annotations

import copy
from fractions import Fraction

import pytest

from dpspec.conformance.families.accounting_pld_bounds import (
    FAMILY,
    HANDLERS,
    TOLERANCE,
    A,
    exact,
)
from dpspec.conformance.store import replay
from dpspec.spec.accounting import pld
from tests.family_cases import find_case, generated_cases

CASES = generated_cases(FAMILY)


def test_every_op_has_an_exact_tolerance_and_valid_and_invalid_cases() -> None:
    ops = {c.op for c in CASES}
    assert ops == set(HANDLERS) == set(TOLERANCE)
    assert all(t == (0.0, 0.0) for t in TOLERANCE.values())
    for op in ops - {"accounting_pld_bounds.decimal_bound"}:
        results = {c.result for c in CASES if c.op == op}
        assert results == {"valid", "invalid"}, op


def test_exact_rationals_are_published_in_lowest_terms() -> None:
    assert exact(Fraction(6, 8)) == "3/4"
    assert exact(Fraction(4, 2)) == "2"
    assert exact(None) == "inf"


def _bump(text: str) -> str:
    """The rational one unit of 2^-400 larger (far below any tolerance but exact)."""
    return exact(Fraction(text) + Fraction(1, 2 ** 400))


def test_a_bound_moved_by_a_tiny_amount_is_rejected() -> None:
    case = find_case(CASES, "accounting_pld_bounds.delta_bounds", "eps 0.5")
    assert case.expected is not None
    assert FAMILY.compare(case, copy.deepcopy(case.expected)) is None
    changed = copy.deepcopy(case.expected)
    changed["upper"] = _bump(changed["upper"])
    assert FAMILY.compare(case, changed) is not None
    case = find_case(CASES, "accounting_pld_bounds.curves", "one step, h 1/4")
    assert case.expected is not None
    changed = copy.deepcopy(case.expected)
    changed["delta"][0]["lower"][1] = _bump(changed["delta"][0]["lower"][1])
    assert FAMILY.compare(case, changed) is not None
    changed = copy.deepcopy(case.expected)
    changed["epsilon"][1]["upper"] = _bump(changed["epsilon"][1]["upper"])
    assert FAMILY.compare(case, changed) is not None


def test_infinite_and_decimal_strings_are_compared_exactly() -> None:
    case = find_case(CASES, "accounting_pld_bounds.curves", "the upper end is infinite")
    assert case.expected is not None
    assert case.expected["epsilon"][0]["upper"] == "inf"
    changed = copy.deepcopy(case.expected)
    changed["epsilon"][0]["upper"] = "1e300"
    assert FAMILY.compare(case, changed) is not None
    case = find_case(CASES, "accounting_pld_bounds.decimal_bound", "a tie, down")
    assert case.expected == {"bound": "0.12"}
    assert FAMILY.compare(case, {"bound": "0.13"}) is not None


def test_the_search_ties_are_exact_ties() -> None:
    c = pld.composed(A["q"], A["sigma"], A["steps"], h=A["h"], mass_bits=A["massBits"],
                     tail=A["tail"])
    lo0, up0 = c.delta(0)
    floor = max(u.floor() for u in c.upper)
    top = max(u.top() for u in c.upper)
    assert c.delta(top + 1)[1] == floor
    upper0 = find_case(CASES, "accounting_pld_bounds.curves", "upper bound at eps 0 exactly")
    lower0 = find_case(CASES, "accounting_pld_bounds.curves", "lower bound at eps 0 exactly")
    at_inf = find_case(CASES, "accounting_pld_bounds.curves", "mass at +inf exactly")
    assert Fraction(upper0.args["delta"][0]) == up0
    assert Fraction(lower0.args["delta"][0]) == lo0
    assert Fraction(at_inf.args["delta"][0]) == floor
    assert upper0.expected is not None and upper0.expected["epsilon"][0]["upper"] == "0"
    assert lower0.expected is not None and lower0.expected["epsilon"][0]["lower"] == "0"
    # met exactly at the bracket end: finite, and at most top + 1
    assert at_inf.expected is not None
    assert Fraction(at_inf.expected["epsilon"][0]["upper"]) <= top + 1


def test_digits_one_stops_on_the_tie_and_digits_40_on_the_width() -> None:
    case = find_case(CASES, "accounting_pld_bounds.curves", "digits 1")
    assert case.expected is not None
    top = max(Fraction(t) for t in case.expected["top"])
    # hi = 10/16 (top + 1): the path fail, pass, pass, fail gives hi - lo = hi / 10 exactly
    assert Fraction(case.expected["epsilon"][0]["upper"]) == Fraction(10, 16) * (top + 1)
    case = find_case(CASES, "accounting_pld_bounds.curves", "digits 40")
    assert case.expected is not None
    up = Fraction(case.expected["epsilon"][0]["upper"])
    low = Fraction(case.expected["epsilon"][0]["lower"])
    # bisection of [0, top + 1] (top + 1 = 15/4): the end points are dyadic, and 40 digits take
    # well over 120 halvings but far fewer than the 400-step cap
    for x in (up, low):
        assert x.denominator & (x.denominator - 1) == 0
        assert 120 < x.denominator.bit_length() < 200


def test_high_losses_give_zero_weights_and_a_lower_bound_of_zero() -> None:
    case = find_case(CASES, "accounting_pld_bounds.curves", "every loss above 256 ln 2")
    assert case.expected is not None
    rows = {r["eps"]: r for r in case.expected["delta"]}
    assert rows["240"]["lower"] == ["0", "0"]
    assert Fraction(rows["0"]["upper"][0]) > 1  # every e^-l weight is 0: the whole mass
    assert rows["391"]["upper"] == case.expected["floor"]


def test_valid_cases_replay_and_invalid_cases_are_refused() -> None:
    for c in CASES:
        assert replay(FAMILY, c) is None, (c.tc_id, c.comment)
    invalid = [c for c in CASES if c.result == "invalid"]
    assert len(invalid) >= 20
    for c in invalid:
        with pytest.raises((ValueError, TypeError, ArithmeticError)):
            HANDLERS[c.op](dict(c.args))


def test_an_accepted_invalid_case_is_reported() -> None:
    case = next(c for c in CASES if c.result == "invalid" and "eps -1e-9" in c.comment)
    accepting = dict(case.args)
    accepting["eps"] = "0"
    assert HANDLERS[case.op](accepting)["lower"] != "0"


def test_exact_compare_checks_types_keys_and_every_digit() -> None:
    from dpspec.conformance.families.accounting_pld_bounds import exact_compare

    want = {"a": ["1/3", "inf"], "b": "0"}
    assert exact_compare(want, copy.deepcopy(want)) is None
    assert exact_compare(want, {"a": ["1/3", "inf"], "b": 0}) is not None
    assert exact_compare(want, {"a": ["2/6", "inf"], "b": "0"}) is not None
    assert exact_compare(want, {"a": ["1/3"], "b": "0"}) is not None
    assert exact_compare(want, {"a": ["1/3", "inf"], "b": "0", "c": "1"}) is not None


def test_search_starts_at_one_when_the_top_is_negative() -> None:
    """A top below 0 still searches [0, 1] (probes 0, 1, 1/2, ...); a search that needs more than
    400 halvings stops after 401 (0, hi and 401 midpoints)."""
    op = "accounting_pld_bounds.search"
    for part in ("top -1/3 below 0: hi", "top -2"):
        case = find_case(CASES, op, part)
        assert case.expected is not None
        assert case.expected["probes"][:3] == ["0", "1", "1/2"], part
    long = find_case(CASES, op, "digits 150")
    assert long.expected is not None and len(long.expected["probes"]) == 403
    assert Fraction(long.expected["end"]) > Fraction(1, 3)
