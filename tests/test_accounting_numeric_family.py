"""The accounting-numeric vector family: exact ops are compared as JSON values (a trailing zero or a
changed probe fails), the mpmath ops within their tolerance, every op has a tolerance and both valid
and refused cases, and the refused cases are refused by the reference handlers."""

from __future__ import annotations

import copy

import mpmath
import pytest

from dpspec.conformance.families.accounting_numeric import EXACT, FAMILY, HANDLERS, TOLERANCE
from dpspec.spec.accounting import numeric
from tests.family_cases import find_case, generated_cases

CASES = generated_cases(FAMILY)
P = "accounting_numeric."

#: ops whose spec function has no input check of its own (a search given a callable)
NO_REFUSAL = {"accounting_numeric.bisect_increasing", "accounting_numeric.bisect_int",
              "accounting_numeric.golden_section"}


def test_every_op_has_a_tolerance_and_cases() -> None:
    ops = {c.op for c in CASES}
    assert ops == set(HANDLERS) == set(TOLERANCE)
    for op in ops:
        results = {c.result for c in CASES if c.op == op}
        assert "valid" in results
        if op not in NO_REFUSAL:
            assert "invalid" in results, op
    for c in CASES:
        assert c.tolerance == {"rel": TOLERANCE[c.op][0], "abs": TOLERANCE[c.op][1]}


def test_expected_outputs_compare_equal_to_themselves() -> None:
    for c in CASES:
        if c.result == "valid":
            assert c.expected is not None
            assert FAMILY.compare(c, copy.deepcopy(c.expected)) is None, c.comment


def test_exact_texts_keep_their_trailing_zeros() -> None:
    case = find_case(CASES, P + "round_sig", "trailing zero kept")
    assert case.expected == {"text": "1.50"}
    assert FAMILY.compare(case, {"text": "1.5"}) is not None
    zero = find_case(CASES, P + "round_sig", "0 is 0")
    assert zero.expected == {"text": "0"}
    assert FAMILY.compare(zero, {"text": "0.000000000"}) is not None
    sci = find_case(CASES, P + "compact", "'1e21'")
    assert FAMILY.compare(sci, {"text": "1000000000000000000000"}) is not None


def test_rounding_direction_is_pinned() -> None:
    up, down = find_case(CASES, P + "round_sig", "-1/3 up"), find_case(CASES, P + "round_sig", "-1/3 down")
    assert up.expected == {"text": "-0.3333333333"}
    assert down.expected == {"text": "-0.3333333334"}
    assert FAMILY.compare(up, down.expected) is not None
    # the excess of a value read at 250 digits over 1 is about 2e-199: rounding up must see it
    tiny = find_case(CASES, P + "round_sig", "1 + 2^-660")
    assert tiny.expected == {"text": "1.000000001"}


def test_search_transcripts_are_exact() -> None:
    case = find_case(CASES, P + "smallest_on_grid", "steps down")
    assert case.expected is not None and case.expected["value"] == "0.92"
    changed = copy.deepcopy(case.expected)
    changed["probes"] = changed["probes"][:-1]
    assert FAMILY.compare(case, changed) is not None
    first = find_case(CASES, P + "smallest_int", "lo 5, threshold 7")
    assert first.expected == {"value": 7, "probes": [5, 10, 7, 6]}
    assert FAMILY.compare(first, {"value": 7, "probes": [5, 6, 7]}) is not None


def test_mpmath_ops_use_their_tolerance() -> None:
    case = find_case(CASES, P + "golden_section", "20 steps")
    assert TOLERANCE[case.op] != EXACT and case.expected is not None
    rel = TOLERANCE[case.op][0]
    lo = case.expected["lo"]
    near = copy.deepcopy(case.expected)
    with mpmath.workdps(40):
        near["lo"] = mpmath.nstr(numeric.mpf(lo) * (1 + numeric.mpf(rel) / 10), 30)
        far = copy.deepcopy(case.expected)
        far["lo"] = mpmath.nstr(numeric.mpf(lo) * (1 + numeric.mpf(rel) * 10), 30)
    assert FAMILY.compare(case, near) is None
    assert FAMILY.compare(case, far) is not None
    evals = copy.deepcopy(case.expected)
    evals["evaluations"] += 1
    assert FAMILY.compare(case, evals) is not None


def test_all_halvings_are_counted() -> None:
    case = find_case(CASES, P + "bisect_increasing", "all 400 halvings")
    assert case.expected is not None and case.expected["evaluations"] == 400


def test_invalid_cases_are_refused() -> None:
    n = 0
    for c in CASES:
        if c.result == "invalid":
            n += 1
            with pytest.raises((ValueError, TypeError, ArithmeticError)):
                HANDLERS[c.op](dict(c.args))
    assert n >= 40


@pytest.mark.parametrize("value", ["1e4000", "1e-4000", "0e5000", "-0"])
def test_parameter_range_limits_are_accepted(value: str) -> None:
    assert numeric.to_fraction(value) is not None
    out = HANDLERS["accounting_numeric.to_fraction"]({"value": value})
    assert set(out) == {"numerator", "denominator"}


def test_a_boolean_is_not_a_number() -> None:
    with pytest.raises(TypeError):
        HANDLERS["accounting_numeric.check"]({"check": "positive_int", "value": True})
    with pytest.raises(TypeError):
        HANDLERS["accounting_numeric.to_fraction"]({"value": False})


def test_grid_searches_finer_than_the_working_precision_end() -> None:
    # 12 or 13 digits searched at a 10-digit working precision: the search must still end, on a
    # value of the requested grid, with every evaluated point published
    for part in ("a midpoint can round onto", "does not move the value at 10 digits"):
        case = find_case(CASES, P + "smallest_on_grid", part)
        assert case.expected is not None and case.args["precision"] == 10
        assert len(case.expected["value"].replace("0.", "", 1)) == case.args["digits"]
        assert case.expected["probes"][-1] != case.expected["probes"][0]
        changed = copy.deepcopy(case.expected)
        changed["probes"].append(changed["probes"][-1])
        assert FAMILY.compare(case, changed) is not None
