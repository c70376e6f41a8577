"""The accounting-discrete-limits vector family: every op has a tolerance and valid and invalid
cases; the exact working values are the binary numbers the spec computed and are compared as
text (one unit in the last of 136 bits is a difference); delta is compared to 30 digits and the
allowance is large enough for that to matter; the bracket search reaches its step limit; a
non-finite host number is a bad parameter; the spec's functions are restored after a call."""

from __future__ import annotations

import copy
from decimal import Decimal
from fractions import Fraction

import mpmath
import pytest

from dpspec.conformance.families._groups import recorded_calls
from dpspec.conformance.families.accounting_discrete_limits import FAMILY, HANDLERS, TOLERANCE
from dpspec.spec.accounting import discrete, numeric
from tests.family_cases import find_case, generated_cases

CASES = generated_cases(FAMILY)
P = "accounting_discrete_limits."


def test_every_op_has_a_tolerance_and_both_kinds_of_case() -> None:
    ops = {c.op for c in CASES}
    assert ops == set(HANDLERS) == set(TOLERANCE)
    for op in ops:
        assert any(c.op == op and c.result == "valid" for c in CASES), op
        assert any(c.op == op and c.result == "invalid" for c in CASES), op


def test_invalid_cases_are_refused() -> None:
    for c in CASES:
        if c.result == "invalid":
            with pytest.raises((ValueError, TypeError, ArithmeticError)):
                HANDLERS[c.op](dict(c.args))


def _next_dyadic(text: str) -> str:
    """The rational ``text`` moved by one unit of its denominator."""
    f = Fraction(text)
    return f"{f.numerator + 1}/{f.denominator}"


def test_working_values_are_the_binary_values_and_exact() -> None:
    case = find_case(CASES, P + "zcdp_binary", "rho = 1/18")
    assert case.expected is not None
    exact = Fraction(case.expected["rhoBinary"])
    assert exact != Fraction(1, 18) and abs(exact - Fraction(1, 18)) < Fraction(1, 10**40)
    assert exact.denominator & (exact.denominator - 1) == 0  # a power of two
    assert FAMILY.compare(case, copy.deepcopy(case.expected)) is None
    changed = copy.deepcopy(case.expected)
    changed["rhoBinary"] = _next_dyadic(case.expected["rhoBinary"])
    assert FAMILY.compare(case, changed) is not None
    # at one more digit of working precision the spec's own value is another binary number
    with mpmath.workdps(discrete.DPS_DISCRETE + 11):
        other = numeric.to_fraction(mpmath.mpf(1) / (2 * mpmath.mpf(3) * mpmath.mpf(3)))
    assert other != exact


def test_delta_start_records_the_working_sigma() -> None:
    case = find_case(CASES, P + "delta_start", "sqrt(3)")
    assert case.expected is not None
    s = Fraction(case.expected["sigma"])
    assert abs(s * s - 3) < Fraction(1, 10**38) and s * s != 3
    several = find_case(CASES, P + "delta_start", "several passes")
    assert several.expected is not None and several.expected["passes"] >= 2
    assert several.expected["eps"] == "20"


def test_delta_is_compared_to_30_digits_and_includes_the_allowance() -> None:
    case = find_case(CASES, P + "delta_30", "next to the 1e-20 stop")
    assert case.expected is not None
    delta = mpmath.mpf(case.expected["delta"])
    allowance = mpmath.mpf(case.expected["allowance"])
    assert 1e-23 < allowance / delta < 1e-20
    assert len(case.expected["delta"].split("e")[0].replace(".", "")) == 30
    assert TOLERANCE[case.op][0] <= 1e-27
    changed = copy.deepcopy(case.expected)
    with mpmath.workdps(50):  # the difference minus the allowance instead of plus it
        changed["delta"] = mpmath.nstr(delta - 2 * allowance, 30)
    assert FAMILY.compare(case, changed) is not None


def test_bracket_search_reaches_its_step_limit() -> None:
    case = find_case(CASES, P + "bracket_steps", "still moving at step 400")
    assert case.expected is not None
    # lo and hi, then one probe per step: 400 steps
    assert case.expected["evaluations"] == 402
    changed = copy.deepcopy(case.expected)
    changed["evaluations"] = 403
    assert FAMILY.compare(case, changed) is not None
    short = find_case(CASES, P + "bracket_steps", "few steps")
    assert short.expected is not None and short.expected["evaluations"] < 10


def test_non_finite_host_numbers_are_bad_parameters() -> None:
    case = find_case(CASES, P + "slack_host", "binary64 infinity")
    assert case.expected == {"slack": None}
    assert FAMILY.compare(case, {"slack": "1e-15"}) is not None
    # the spec refuses the value itself with ValueError (not an overflow)
    with pytest.raises(ValueError):
        numeric.to_fraction(float("inf"))
    with pytest.raises(ValueError):
        numeric.to_fraction(Decimal("-Infinity"))


def test_calibration_target_is_delta_times_1e_minus_25() -> None:
    case = find_case(CASES, P + "calibration_target", "target 1e-27")
    assert case.expected is not None
    target = Fraction(case.expected["target"])
    assert abs(target / Fraction(1, 10**27) - 1) < Fraction(1, 10**39)


def test_handlers_restore_the_spec_functions() -> None:
    before = (discrete._delta_once, discrete.discrete_gaussian_delta)
    for op in (P + "delta_start", P + "delta_30"):
        HANDLERS[op]({"eps": "1", "sigma": "1.5"})
    after = (discrete._delta_once, discrete.discrete_gaussian_delta)
    assert before == after


def test_delta_30_cases_have_little_cancellation() -> None:
    """The 30-digit tolerance needs e^eps P[S > b] <= 0.99 P[S > a] in the last pass."""
    for c in CASES:
        if c.op != P + "delta_30" or c.result != "valid":
            continue
        with recorded_calls(discrete, "_prob_greater") as calls:
            discrete.discrete_gaussian_delta(c.args["eps"], c.args["sigma"],
                                             c.args.get("vector", (1,)))
        with mpmath.workdps(40):
            pa, pb = calls[-2].result, calls[-1].result * mpmath.exp(mpmath.mpf(c.args["eps"]))
            assert pb <= mpmath.mpf("0.99") * pa, c.comment
