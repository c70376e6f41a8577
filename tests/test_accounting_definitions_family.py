"""The accounting-definitions vector family: every op has a tolerance and both valid and invalid
cases, its compare applies the stated tolerance (relative, no absolute floor), transcripts (the
orders a curve is evaluated at, the search's step count) are compared exactly, invalid cases are
refused, and the spec's search function is restored after a transcript is taken."""

from __future__ import annotations

import copy

import mpmath

from dpspec.conformance.families.accounting_definitions import FAMILY, HANDLERS
from dpspec.spec.accounting import definitions, numeric
from tests.family_cases import find_case, generated_cases

CASES = generated_cases(FAMILY)


def test_compare_rejects_a_perturbed_value() -> None:
    case = find_case(CASES, "accounting_definitions.renyi_divergence", "alpha 2, full supports")
    assert case.expected is not None
    assert FAMILY.compare(case, copy.deepcopy(case.expected)) is None
    value = mpmath.mpf(case.expected["divergence"])
    changed = {"divergence": mpmath.nstr(value * (1 + 1e-12), 25)}
    assert FAMILY.compare(case, changed) is not None
    within = {"divergence": mpmath.nstr(value * (1 + 1e-17), 25)}
    assert FAMILY.compare(case, within) is None


def test_infinite_divergence_is_named() -> None:
    case = find_case(CASES, "accounting_definitions.renyi_divergence", "where Q has none")
    assert case.expected == {"divergence": "inf"}
    assert FAMILY.compare(case, {"divergence": "1e300"}) is not None


def test_a_point_without_mass_on_either_side_is_skipped() -> None:
    case = find_case(CASES, "accounting_definitions.renyi_divergence", "both 0")
    assert case.expected is not None
    # the same distributions without the empty point: the same divergence
    args = {"p": ["0.5", "0.5"], "q": ["0.25", "0.75"], "alpha": "3"}
    assert HANDLERS[case.op](args) == case.expected


def test_default_orders_are_published_and_compared_exactly() -> None:
    case = find_case(CASES, "accounting_definitions.rdp_curve_to_dp", "the default orders")
    assert case.expected is not None
    orders = case.expected["evaluatedOrders"]
    assert len(orders) == len(definitions.DEFAULT_ORDERS)
    assert orders[:4] == ["1.25", "1.5", "1.75", "2"] and orders[-1] == "1024"
    changed = copy.deepcopy(case.expected)
    changed["evaluatedOrders"][10] = "6"
    assert FAMILY.compare(case, changed) is not None
    changed = copy.deepcopy(case.expected)
    changed["evaluatedOrders"].append("2048")
    assert FAMILY.compare(case, changed) is not None


def test_tie_keeps_the_first_order() -> None:
    case = find_case(CASES, "accounting_definitions.rdp_curve_to_dp", "the first (3) is kept")
    assert case.expected == {"eps": "0", "alpha": "3", "evaluatedOrders": None}


def test_search_transcript() -> None:
    capped = find_case(CASES, "accounting_definitions.zcdp_to_dp", "stops at 200 steps")
    assert capped.expected is not None and capped.expected["search"]["steps"] == 200
    usual = find_case(CASES, "accounting_definitions.zcdp_to_dp", "tight absent")
    assert usual.expected is not None
    search = usual.expected["search"]
    assert search["lo"] == "1.000001" and 0 < search["steps"] < 200
    changed = copy.deepcopy(usual.expected)
    changed["search"]["steps"] += 1
    assert FAMILY.compare(usual, changed) is not None
    assert find_case(CASES, "accounting_definitions.zcdp_to_dp", "tight false").expected["search"] is None  # type: ignore[index]


def test_delta_one_is_allowed_and_clamped() -> None:
    case = find_case(CASES, "accounting_definitions.zcdp_to_dp", "clamped at 0")
    assert case.expected is not None
    assert case.expected["eps"] == "0" and case.expected["search"]["hi"] == "2"
    assert FAMILY.compare(case, {"eps": "-1", "search": case.expected["search"]}) is not None


def test_handlers_restore_the_spec_function() -> None:
    before = vars(definitions)["golden_section"]
    assert before is numeric.golden_section
    for c in CASES:
        if c.op.endswith("zcdp_to_dp"):
            try:
                HANDLERS[c.op](dict(c.args))
            except ValueError:
                assert c.result == "invalid"
    assert vars(definitions)["golden_section"] is before
