"""The accounting-budget vector family: its compare applies the stated tolerances and compares
decisions, state text and step counts exactly; invalid cases are refused; the bisection counter
leaves the spec module as it found it."""

from __future__ import annotations

import copy
import json

import pytest

from dpspec.conformance.families.accounting_budget import FAMILY, HANDLERS
from dpspec.conformance.vectors import Case
from dpspec.spec.accounting import composition
from tests.family_cases import generated_cases

CASES = generated_cases(FAMILY)


def _case(comment_start: str) -> Case:
    for c in CASES:
        if c.comment.startswith(comment_start) and c.result == "valid":
            assert c.expected is not None
            return c
    raise AssertionError(f"no valid case {comment_start!r}")


def test_state_text_and_decisions_are_compared_exactly() -> None:
    case = _case("basic: eps0 0 and eps 0")
    assert case.expected is not None
    assert FAMILY.compare(case, copy.deepcopy(case.expected)) is None
    reindented = copy.deepcopy(case.expected)
    reindented["stateText"] = json.dumps(json.loads(reindented["stateText"]), indent=1,
                                         sort_keys=True) + "\n"
    assert FAMILY.compare(case, reindented) is not None
    refused = copy.deepcopy(case.expected)
    refused["decisions"][0]["failedCheck"] = 3
    assert FAMILY.compare(case, refused) is not None


def test_composed_delta_is_compared_within_tolerance() -> None:
    case = _case("advanced, slack 0.9")
    assert case.expected is not None
    eps, delta = case.expected["composed"]["analyses"]["kb"]
    assert delta == "0.900001"  # k_used delta + deltaSlack, not the basic k_used delta
    basic = copy.deepcopy(case.expected)
    basic["composed"]["analyses"]["kb"][1] = "1e-6"
    assert FAMILY.compare(case, basic) is not None


def test_bisection_evaluations_are_exact_and_the_counter_is_removed() -> None:
    case = _case("answer below 1")
    assert case.expected is not None
    assert case.expected["evaluations"] > 2
    fewer = dict(case.expected, evaluations=case.expected["evaluations"] - 1)
    assert FAMILY.compare(case, fewer) is not None
    before = composition.optimal_composition_delta
    HANDLERS[case.op](dict(case.args) | {"deltaTotal": "0.011"})
    assert composition.optimal_composition_delta is before


def test_bisection_counter_is_removed_when_the_search_refuses() -> None:
    before = composition.optimal_composition_delta
    with pytest.raises(ValueError):
        HANDLERS["accounting_budget.composition"]({
            "function": "optimal_composition_epsilon", "eps": "1", "delta": "0.5", "k": 1,
            "deltaTotal": "0.4"})
    assert composition.optimal_composition_delta is before


def test_zcdp_fallback_case_reports_order_zero() -> None:
    case = _case("sigma 1000, one step")
    assert case.expected is not None
    assert case.expected["order"] == "0.0"
