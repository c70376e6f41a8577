"""The accounting-ghazi vector family: its compare applies the stated tolerance (relative, no
absolute floor), transcripts are compared exactly where they are integers or names, the spec's
functions are restored after a transcript is taken, and invalid cases are refused."""

from __future__ import annotations

import copy

import mpmath
import pytest

from dpspec.conformance.families._groups import counted_calls
from dpspec.conformance.families.accounting_ghazi import FAMILY, HANDLERS
from dpspec.spec.accounting import ghazi
from tests.family_cases import find_case, generated_cases

CASES = generated_cases(FAMILY)


def test_tiny_tails_are_compared_relatively() -> None:
    case = find_case(CASES, "accounting_ghazi.mechanism_delta", "1e-311")
    assert case.expected is not None
    tails = case.expected["shifts"][0]["tails"]
    name, k, value = tails[0]
    assert name == "sf" and mpmath.mpf(value) < mpmath.mpf("1e-300")
    assert FAMILY.compare(case, copy.deepcopy(case.expected)) is None
    changed = copy.deepcopy(case.expected)
    changed["shifts"][0]["tails"][0][2] = mpmath.nstr(mpmath.mpf(value) * (1 + 1e-12), 25)
    assert FAMILY.compare(case, changed) is not None


def test_thresholds_and_probes_are_compared_exactly() -> None:
    case = find_case(CASES, "accounting_ghazi.mechanism_delta", "equals the level")
    assert case.expected is not None
    first = case.expected["shifts"][0]["thresholds"][0]
    assert first["k"] == 2 and first["probes"] == [1, 3, 2]
    changed = copy.deepcopy(case.expected)
    changed["shifts"][0]["thresholds"][0]["probes"].append(2)
    assert FAMILY.compare(case, changed) is not None
    changed = copy.deepcopy(case.expected)
    changed["shifts"][0]["tails"][0][1] = 0
    assert FAMILY.compare(case, changed) is not None


def test_evaluation_count_and_rounded_value_are_exact() -> None:
    case = find_case(CASES, "accounting_ghazi.minimal_parameter", "the answer is 1")
    assert case.expected is not None
    assert case.expected["value"] == "1" and case.expected["evaluations"] == 2
    changed = copy.deepcopy(case.expected)
    changed["evaluations"] = 3
    assert FAMILY.compare(case, changed) is not None


def test_handlers_restore_the_spec_functions() -> None:
    before = (ghazi._shift_delta, ghazi._threshold, ghazi.poisson_mechanism_delta,
              ghazi.negative_binomial_mechanism_delta)
    for c in CASES:
        if c.op in ("accounting_ghazi.mechanism_delta", "accounting_ghazi.minimal_parameter"):
            try:
                HANDLERS[c.op](dict(c.args))
            except (ValueError, TypeError, ArithmeticError):
                assert c.result == "invalid"
    after = (ghazi._shift_delta, ghazi._threshold, ghazi.poisson_mechanism_delta,
             ghazi.negative_binomial_mechanism_delta)
    assert before == after


def test_minimal_parameter_digits_are_bounded_before_any_search() -> None:
    # 31 digits cannot be certified by a 40-digit bisection (it used to loop without end from
    # about 39); the r = 1 shortcut must refuse too, not only the search
    assert ghazi.minimal_poisson_lambda("2", "0.1", digits=ghazi.MAX_DIGITS).value.startswith("2.30258509")
    with counted_calls(ghazi, "poisson_mechanism_delta") as calls:
        with pytest.raises(ValueError, match="at most 30"):
            ghazi.minimal_poisson_lambda("2", "0.1", digits=31)
    assert calls[0] == 0
    with pytest.raises(ValueError, match="at most 30"):
        ghazi.minimal_negative_binomial_r("1", "0.5", p="0.5", digits=31)
    with pytest.raises(ValueError, match=">= 1"):
        ghazi.minimal_negative_binomial_r("1", "1e-3", digits=0)
