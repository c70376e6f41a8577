"""The accounting-shuffle-limits vector family: every op has a tolerance and valid and invalid
cases, the compare rejects perturbed values (relatively, with no absolute floor where the published
deltas are far below 1e-15), invalid cases are refused, and the boundary cases say what their
comments claim (checked independently where that is cheap)."""

from __future__ import annotations

import copy

import mpmath
import pytest

from dpspec.conformance.families.accounting_shuffle_limits import FAMILY, HANDLERS, TOLERANCE
from dpspec.spec.accounting.definitions import DEFAULT_ORDERS
from tests.family_cases import find_case, generated_cases

CASES = generated_cases(FAMILY)
P = "accounting_shuffle_limits."


def _scaled(text: str, factor: float) -> str:
    return str(mpmath.nstr(mpmath.mpf(text) * factor, 20))


def test_every_op_has_a_tolerance_and_valid_and_invalid_cases() -> None:
    assert set(TOLERANCE) == set(HANDLERS)
    for op in HANDLERS:
        results = {c.result for c in CASES if c.op == op}
        assert results == {"valid", "invalid"}, op


@pytest.mark.parametrize("case", [c for c in CASES if c.result == "invalid"],
                         ids=lambda c: f"{c.path}:{c.tc_id}")
def test_invalid_cases_are_refused(case: object) -> None:
    with pytest.raises((ValueError, TypeError, ArithmeticError)):
        HANDLERS[case.op](dict(case.args))  # type: ignore[attr-defined]


def test_search_at_the_stopping_width_evaluates_no_probe() -> None:
    case = find_case(CASES, P + "search", "already the stopping width")
    assert case.expected is not None
    # the stopping width of the bracket [0, 1e-13] is 1e-10 * max(1e-13, 1e-3), in binary64
    assert 1e-10 * max(1e-13, 1e-3) == float(case.args["eps0"])
    assert case.expected["evaluations"] == 3
    assert case.expected["eps"] == case.args["eps0"]
    assert FAMILY.compare(case, copy.deepcopy(case.expected)) is None
    assert FAMILY.compare(case, {**case.expected, "evaluations": 4}) is not None
    assert FAMILY.compare(case, {**case.expected, "eps": "7.5e-14"}) is not None


def test_bracket_ends_follow_the_spec_formulas() -> None:
    for part, want in (("hi = 4 x 0.5 + 50", 52), ("hi = 58", 58)):
        case = find_case(CASES, P + "search", part)
        assert case.expected is not None
        assert mpmath.mpf(case.expected["bracketEnd"]) == want
        assert FAMILY.compare(case, {**case.expected, "bracketEnd": str(want + 0.5)}) is not None
    case = find_case(CASES, P + "search", "n 50, delta 1e-6")
    assert case.expected is not None and case.expected["bracketEnd"] == "2"
    changed = {**case.expected, "eps": _scaled(case.expected["eps"], 1 + 1e-6)}
    assert FAMILY.compare(case, changed) is not None


def test_unenumerated_clone_mass_is_charged_twice() -> None:
    inf = find_case(CASES, P + "search", "between once and twice")
    finite = find_case(CASES, P + "search", "between twice and three times")
    assert inf.expected is not None and finite.expected is not None
    assert inf.expected["eps"] == "inf"
    assert 0 < mpmath.mpf(finite.expected["eps"]) < 2
    assert FAMILY.compare(inf, {**inf.expected, "eps": finite.expected["eps"]}) is not None


def test_tiny_deltas_are_compared_without_an_absolute_floor() -> None:
    for op, part in ((P + "clone_delta", "below 1e-300"), (P + "histogram_delta", "that atom")):
        case = find_case(CASES, op, part)
        assert case.expected is not None
        value = case.expected["delta"]
        assert mpmath.mpf(value) < mpmath.mpf("1e-30")
        assert FAMILY.compare(case, {"delta": value}) is None
        for wrong in ("0", _scaled(value, 1.5), _scaled(value, 1 + 1e-6)):
            assert FAMILY.compare(case, {"delta": wrong}) is not None


def test_infinite_loss_atom_matches_an_independent_value() -> None:
    """eps0 300, n 3, eps 650: the only atom pair with loss above 650 has output 3 in the first
    coordinate (mass p^2 (1 - p) against p^3, which binary64 rounds to 0); its P x Q mass is
    p^2 (1 - p) (1 - p^3), recomputed here at 50 digits."""
    case = find_case(CASES, P + "histogram_delta", "that atom")
    assert case.expected is not None
    with mpmath.workdps(50):
        p = 1 / (mpmath.exp(300) + 1)
        want = p**2 * (1 - p) * (1 - p**3)
        assert p**3 < mpmath.mpf("1e-324")
        assert abs(mpmath.mpf(case.expected["delta"]) - want) <= mpmath.mpf("1e-7") * want


def test_no_case_publishes_a_cohort_where_scipy_decides_the_digits() -> None:
    """At n 10^9 the binomial PMF weights differ between scipy versions by about 1e-7 relative
    (the published 8 digits moved under the oldest dependencies), so no clone_delta case has a
    window of more than 20000 atoms at n >= 10^8."""
    for case in CASES:
        if case.op == P + "clone_delta" and case.result == "valid":
            assert int(case.args["n"]) < 10**8 or "by the recurrence" in case.comment


def test_order_bracket_and_evaluations() -> None:
    orders = [mpmath.mpf(o) for o in DEFAULT_ORDERS]
    for part in ("bracket [24, 26]", "bracket [80, 128]"):
        case = find_case(CASES, P + "min_over_alpha", part)
        assert case.expected is not None
        lo, hi = (mpmath.mpf(x) for x in case.expected["bracket"])
        i = orders.index(lo)
        assert orders[i + 2] == hi
        assert lo < mpmath.mpf(case.expected["alpha"]) < hi
        assert case.expected["evaluations"] == len(orders) + 2 + 40
        assert FAMILY.compare(case, {**case.expected, "bracket": [str(orders[i - 1]),
                                                                  case.expected["bracket"][1]]}
                              ) is not None
        assert FAMILY.compare(case, {**case.expected, "evaluations": 124}) is not None


def test_calibration_tie_is_allowed() -> None:
    """delta(1, sigma 1) = Phi(-1/2) - e Phi(-3/2) ([BW18] Theorem 8), recomputed at 60 digits:
    the case's target is that value to the spec's 40 working digits, and the published sigma is
    exactly the sensitivity."""
    case = find_case(CASES, P + "calibrate", "meets the target with equality")
    assert case.expected == {"sigma": "1.00000000000"}
    with mpmath.workdps(60):
        want = mpmath.ncdf(-0.5) - mpmath.e * mpmath.ncdf(-1.5)
        assert abs(mpmath.mpf(case.args["delta"]) - want) < mpmath.mpf("1e-40") * want
    assert FAMILY.compare(case, {"sigma": "1.00000000001"}) is None  # within one 12th-digit unit
    assert FAMILY.compare(case, {"sigma": "1.000000001"}) is not None
