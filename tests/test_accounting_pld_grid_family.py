"""The accounting-pld-grid vector family: every op has a tolerance, exact integers and rationals
are compared exactly, grid masses relatively, invalid cases are refused, and a handler leaves the
spec's module as it found it (the exponential-step cache, the recorded function)."""

from __future__ import annotations

import copy
from typing import Any

import mpmath
import pytest

from dpspec.conformance.families.accounting_pld_grid import FAMILY, HANDLERS, REJECTS, TOLERANCE
from dpspec.conformance.vectors import Case
from dpspec.spec.accounting import pld
from tests.family_cases import find_case, generated_cases

CASES = generated_cases(FAMILY)
P = "accounting_pld_grid."


def _expected(case: Case) -> dict[str, Any]:
    assert case.expected is not None
    return copy.deepcopy(case.expected)


def test_every_op_has_a_tolerance_and_valid_and_invalid_or_boundary_cases() -> None:
    ops = {c.op for c in CASES}
    assert ops == set(HANDLERS) == set(TOLERANCE)
    for op in ops:
        assert any(c.op == op and c.result == "valid" for c in CASES), op
    for op in ("convolve", "window", "trim", "grid", "quantum", "one_step", "composed"):
        assert any(c.op == "accounting_pld_grid." + op and c.result == "invalid" for c in CASES)


def test_the_committed_expectations_match_the_reference() -> None:
    for c in CASES:
        if c.result != "valid":
            continue
        assert FAMILY.compare(c, HANDLERS[c.op](dict(c.args))) is None, (c.op, c.comment)


def test_invalid_cases_are_refused() -> None:
    for c in CASES:
        if c.result == "invalid":
            with pytest.raises(REJECTS):
                HANDLERS[c.op](dict(c.args))


def test_convolution_is_exact_and_slot_wide_enough() -> None:
    case = find_case(CASES, P + "convolve", "97155")
    got = _expected(case)
    assert [int(x, 16) for x in got["product"]] == [32385, 64770, 97155, 64770, 32385]
    got["product"][2] = hex(97155 - 65536)  # what a two-byte slot would leave
    assert FAMILY.compare(case, got) is not None
    got = _expected(case)
    got["product"].append("0x0")  # one coefficient too many
    assert FAMILY.compare(case, got) is not None


def test_big_integers_compare_exactly() -> None:
    case = find_case(CASES, P + "exp_steps", "3 steps")
    got = _expected(case)
    assert int(got["F"][0], 16) == 1 << 256
    got["F"][3] = hex(int(got["F"][3], 16) + 1)
    assert FAMILY.compare(case, got) is not None


def test_window_ties_are_inside() -> None:
    assert HANDLERS["accounting_pld_grid.window"]({"weights": [1, 2, 3, 4, 5], "tail": 3}) == {
        "lo": 2, "hi": 4}
    case = find_case(CASES, P + "window", "everything below the tail")
    got = _expected(case)
    assert got == {"lo": 2, "hi": 2}
    got["hi"] = 1
    assert FAMILY.compare(case, got) is not None


def test_grid_masses_compare_relatively() -> None:
    case = find_case(CASES, P + "grid", "below log(1 - q)")
    got = _expected(case)
    assert got["sa"][0] == "1" and got["sb"][0] == "1"
    v = got["remove"]["high"][0]
    got["remove"]["high"][0] = mpmath.nstr(mpmath.mpf(v) * (1 + 1e-13), 25)
    assert FAMILY.compare(case, got) is not None
    got["remove"]["high"][0] = mpmath.nstr(mpmath.mpf(v) * (1 + 1e-17), 25)
    assert FAMILY.compare(case, got) is None


def test_grid_clamp_keeps_the_stated_range() -> None:
    got = _expected(find_case(CASES, P + "grid", "maxBuckets 12"))
    assert (got["lo"], got["hi"]) == (-3, 9)
    assert len(got["sa"]) == 13 and len(got["remove"]["buckets"]) == 12
    assert (_expected(find_case(CASES, P + "grid", "maxBuckets 28"))["lo"],
            _expected(find_case(CASES, P + "grid", "maxBuckets 27"))["lo"]) == (-14, -13)


def test_one_step_masses_are_exact() -> None:
    case = find_case(CASES, P + "one_step", "remove, q 0.5")
    got = _expected(case)
    assert got["upper"]["offset"] == -3 and int(got["upper"]["inf"], 16) > 1
    got["upper"]["p"][0] = hex(int(got["upper"]["p"][0], 16) - 1)
    assert FAMILY.compare(case, got) is not None


def test_composed_rationals_are_exact() -> None:
    case = find_case(CASES, P + "composed", "massBits 64, eps 1")
    got = _expected(case)
    assert got["massBits"] == 64
    n = int(got["upper"]["numerator"], 16)
    assert n > 0 and int(got["upper"]["denominator"], 16) > n
    got["upper"]["numerator"] = hex(n + 1)  # one unit in the last of several hundred bits
    assert FAMILY.compare(case, got) is not None


def test_handlers_leave_the_spec_module_unchanged() -> None:
    before = (pld._EXP_CACHE, pld.one_step_upper)
    for op in ("trim", "exp_steps", "composed"):
        for c in CASES:
            if c.op == "accounting_pld_grid." + op and c.result == "valid":
                HANDLERS[c.op](dict(c.args))
    assert (pld._EXP_CACHE, pld.one_step_upper) == before
