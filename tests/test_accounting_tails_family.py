"""The accounting-tails vector family: every op is compared exactly, a bound or an end moved by a
tiny amount is rejected, the cases are at the limits their comments claim (the search's cap, a
jump of the upper bound at a grid loss, the lower search's bracket end, losses whose weights are
not zero), and invalid cases are refused."""

from __future__ import annotations

import copy
from fractions import Fraction

import mpmath
import pytest

from dpspec.conformance.families.accounting_tails import (
    FAMILY,
    HANDLERS,
    LOW,
    TOLERANCE,
    A,
    exact,
    grid_target,
)
from dpspec.conformance.store import replay
from dpspec.spec.accounting import pld
from tests.family_cases import find_case, generated_cases

CASES = generated_cases(FAMILY)
P = "accounting_tails."


def _bump(text: str) -> str:
    return exact(Fraction(text) + Fraction(1, 2 ** 500))


def test_every_op_has_an_exact_tolerance_and_valid_and_invalid_cases() -> None:
    ops = {c.op for c in CASES}
    assert ops == set(HANDLERS) == set(TOLERANCE)
    assert all(t == (0.0, 0.0) for t in TOLERANCE.values())
    for op in ops - {P + "grid_width"}:
        assert {c.result for c in CASES if c.op == op} == {"valid", "invalid"}, op


def test_grid_widths_are_the_powers_of_two_below_s() -> None:
    """Each published width is 2^floor(log2 s), checked with exact rationals (q 1: v = 1/sigma^2,
    so s^2 = steps / (sigma resolution)^2), and s is at least 5% away from a power of two."""
    for c in CASES:
        if c.op != P + "grid_width":
            continue
        assert c.expected is not None
        h = Fraction(c.expected["h"])
        n, d = h.numerator, h.denominator
        assert (n == 1 and d & (d - 1) == 0) or (d == 1 and n & (n - 1) == 0)  # a power of two
        if c.args["q"] == "1":
            s2 = Fraction(c.args["steps"]) / (Fraction(c.args["sigma"])
                                              * c.args.get("resolution", 500)) ** 2
            assert (Fraction(105, 100) * h) ** 2 <= s2 <= (Fraction(95, 100) * 2 * h) ** 2
    case = find_case(CASES, P + "grid_width", "not a power of two")
    assert case.expected is not None
    assert FAMILY.compare(case, {"h": exact(Fraction(case.expected["h"]) * 2)}) is not None


def test_a_bound_or_an_end_moved_by_a_tiny_amount_is_rejected() -> None:
    case = find_case(CASES, P + "upper_far", "eps 150, 155 and 160")
    assert case.expected is not None
    assert FAMILY.compare(case, copy.deepcopy(case.expected)) is None
    changed = copy.deepcopy(case.expected)
    changed["upper"][1][0] = _bump(changed["upper"][1][0])
    assert FAMILY.compare(case, changed) is not None
    case = find_case(CASES, P + "epsilon_upper", "digits 130")
    assert case.expected is not None
    changed = {"upper": _bump(case.expected["upper"])}
    assert FAMILY.compare(case, changed) is not None
    case = find_case(CASES, P + "epsilon", "target 1e-4")
    assert case.expected is not None
    assert FAMILY.compare(case, {"lower": case.expected["lower"], "upper": "1e300"}) is not None


def test_far_eps_stays_below_90_digits_and_meets_nonzero_weights() -> None:
    case = find_case(CASES, P + "upper_far", "eps 150, 155 and 160")
    assert case.expected is not None
    # e^eps 2^64 has fewer than 90 digits (the spec's bracket of e^eps is exact to the unit),
    # and the bound is neither the whole mass nor zero: the losses above eps still count
    eps = [int(e) for e in case.args["eps"]]
    assert all(mpmath.exp(e) * 2 ** 64 < mpmath.mpf(10) ** 89 for e in eps)
    assert all(Fraction(t) > 160 for t in case.expected["top"])
    for row in case.expected["upper"]:
        for x in row:
            assert 0 < Fraction(x) < 1
    # the bound decreases with eps
    firsts = [Fraction(row[0]) for row in case.expected["upper"]]
    assert firsts == sorted(firsts, reverse=True)


def test_the_cap_case_targets_a_jump_and_stops_after_401_steps() -> None:
    case = find_case(CASES, P + "epsilon_upper", "grid loss 1/2 exactly, digits 130")
    assert case.expected is not None
    half = Fraction(1, 2)
    assert case.args["delta"] == grid_target(A, half)
    c = pld.composed(A["q"], A["sigma"], A["steps"], h=A["h"], mass_bits=A["massBits"],
                     tail=A["tail"])
    target = Fraction(case.args["delta"])
    # the upper bound jumps down at the grid loss: larger just below it, the target at it
    assert max(u.delta(half - Fraction(1, 2 ** 300)) for u in c.upper) > target
    top = max(u.top() for u in c.upper)
    up = Fraction(case.expected["upper"])
    # 401 halvings of [0, top + 1], from above 1/2 (never exactly on it: 1/2 / (top + 1) = 2/15)
    width = (top + 1) / 2 ** 401
    assert half < up <= half + width
    assert ((up / (top + 1)) * 2 ** 401).denominator == 1
    # with 12 digits the search stops long before the cap
    short = find_case(CASES, P + "epsilon_upper", "digits 12")
    assert short.expected is not None
    s = Fraction(short.expected["upper"])
    assert half < s and s - half < half * Fraction(1, 10 ** 11) and s != up
    default = find_case(CASES, P + "epsilon_upper", "digits absent")
    assert default.expected == short.expected


def test_the_lower_search_ends_at_its_bracket() -> None:
    case = find_case(CASES, P + "epsilon", "target 1e-4")
    assert case.expected is not None
    c = pld.composed(LOW["q"], LOW["sigma"], LOW["steps"], h=LOW["h"], mass_bits=LOW["massBits"],
                     tail=LOW["tail"])
    top = max(u.top() for u in c.upper)
    low_at_end, _ = c.delta(top + 1)
    assert low_at_end > Fraction(case.args["delta"])
    assert case.expected == {"lower": exact(top + 1), "upper": "inf"}
    other = find_case(CASES, P + "epsilon", "target 5e-4")
    assert other.expected is not None
    assert low_at_end <= Fraction(other.args["delta"])
    assert 0 < Fraction(other.expected["lower"]) < top + 1
    assert other.expected["upper"] == "inf"


def test_valid_cases_replay_and_invalid_cases_are_refused() -> None:
    for c in CASES:
        assert replay(FAMILY, c) is None, (c.tc_id, c.comment)
    invalid = [c for c in CASES if c.result == "invalid"]
    assert len(invalid) >= 6
    for c in invalid:
        with pytest.raises((ValueError, TypeError, ArithmeticError)):
            HANDLERS[c.op](dict(c.args))


def test_an_accepted_invalid_case_is_reported() -> None:
    case = next(c for c in CASES if c.result == "invalid" and c.comment == "target delta 1")
    accepting = dict(case.args)
    accepting["delta"] = "0.5"
    assert HANDLERS[case.op](accepting)["upper"] != "inf"


def test_figure1_rows_have_two_integer_digits_and_a_changed_decimal_is_rejected() -> None:
    case = find_case(CASES, P + "figure1", "eps0 12 and 15")
    assert case.expected is not None
    rows = case.expected["rows"]
    assert len(rows) == len(case.args["ns"]) * len(case.args["eps0s"])
    for row in rows:
        for key in ("fmt20", "fmt22", "exact_rr"):
            whole, frac = row[key].split(".")
            # 8 significant digits: two before the point, the 6 printed decimals after it
            assert len(whole) == 2 and len(frac) == 6, row
            assert 10 < Fraction(row[key]) <= Fraction(row["eps0"])
    changed = copy.deepcopy(case.expected)
    last = changed["rows"][0]["fmt20"]
    changed["rows"][0]["fmt20"] = last[:-1] + str((int(last[-1]) + 1) % 10)
    assert FAMILY.compare(case, changed) is not None
