"""The accounting-edges vector family: every op has a tolerance and valid and invalid cases, its
compare applies the stated tolerance (relative on numbers, exact on table sizes, pass counts and
probe lists), the pass limit and the convergence factor show in the published passes, the spec's
functions are restored after a transcript is taken, and invalid cases are refused."""

from __future__ import annotations

import copy

import mpmath
import pytest

from dpspec.conformance.families._groups import counted_calls
from dpspec.conformance.families.accounting_edges import FAMILY, HANDLERS, TOLERANCE
from dpspec.spec.accounting import discrete
from tests.family_cases import find_case, generated_cases

CASES = generated_cases(FAMILY)
REFUSED = (ValueError, TypeError, ArithmeticError)


def test_every_op_has_a_tolerance_and_valid_and_invalid_cases() -> None:
    assert set(TOLERANCE) == set(HANDLERS)
    for op in HANDLERS:
        results = {c.result for c in CASES if c.op == op}
        assert results == {"valid", "invalid"}, op


def test_invalid_cases_are_refused() -> None:
    invalid = [c for c in CASES if c.result == "invalid"]
    assert len(invalid) >= 8
    for c in invalid:
        with pytest.raises(REFUSED):
            HANDLERS[c.op](dict(c.args))


def test_the_64th_pass_is_the_last_one_allowed() -> None:
    case = find_case(CASES, "accounting_edges.refinement", "64th pass")
    assert case.expected is not None
    passes = case.expected["passes"]
    assert len(passes) == 64 and passes[-1]["K"] == 4 and passes[-2]["K"] == 3
    refused = find_case(CASES, "accounting_edges.refinement", "65th pass", "invalid")
    assert "NoConvergence" in refused.flags
    with pytest.raises(ArithmeticError, match="did not converge"):
        discrete.discrete_gaussian_delta(refused.args["eps"], refused.args["sigma"],
                                         refused.args["vector"], tail=refused.args["tail"])


def test_pass_counts_and_table_sizes_are_compared_exactly() -> None:
    two = find_case(CASES, "accounting_edges.refinement", "a second pass")
    one = find_case(CASES, "accounting_edges.refinement", "one pass")
    assert two.expected is not None and one.expected is not None
    assert len(two.expected["passes"]) == 2 and len(one.expected["passes"]) == 1
    changed = copy.deepcopy(one.expected)
    changed["passes"].append(copy.deepcopy(two.expected["passes"][1]))
    assert FAMILY.compare(one, changed) is not None
    changed = copy.deepcopy(two.expected)
    changed["passes"][1]["K"] += 1
    assert FAMILY.compare(two, changed) is not None
    table = find_case(CASES, "accounting_edges.table_size", "K = 6")
    assert table.expected == {"work": 14}
    assert FAMILY.compare(table, {"work": 12}) is not None


def test_numbers_are_compared_relatively() -> None:
    case = find_case(CASES, "accounting_edges.refinement", "10^-25 of it")
    assert case.expected is not None
    target = mpmath.mpf(case.expected["passes"][1]["lnTarget"])
    # the refined target is 1e-25 times the first pass's delta, far below 1e-90 = target^2
    assert target < mpmath.log(mpmath.mpf("1e-93"))
    for factor, accepted in (("1e-17", True), ("1e-12", False)):
        changed = copy.deepcopy(case.expected)
        changed["passes"][1]["lnTarget"] = mpmath.nstr(target * (1 + mpmath.mpf(factor)), 30)
        assert (FAMILY.compare(case, changed) is None) is accepted


def test_calibration_publishes_its_handed_target_and_every_evaluation() -> None:
    case = find_case(CASES, "accounting_edges.calibration", "below 1e-45")
    assert case.expected is not None
    assert case.expected["tail"] == "1e-55"
    probes = case.expected["probes"]
    # the last evaluation is the re-check at the published sigma
    assert mpmath.mpf(probes[-1]) == mpmath.mpf(case.expected["sigma"])
    changed = copy.deepcopy(case.expected)
    changed["probes"].pop(3)
    assert FAMILY.compare(case, changed) is not None
    changed = copy.deepcopy(case.expected)
    changed["tail"] = "1e-54"
    assert FAMILY.compare(case, changed) is not None


def test_bracket_decisions_on_exact_functions() -> None:
    zero = find_case(CASES, "accounting_edges.bracket", "is the root")
    assert zero.expected is not None
    # f(1.46875) = 0 moves hi, and the next step does not probe hi = 1.46875 again
    assert zero.expected["hi"] == "1.46875"
    assert zero.expected["probes"].count("1.46875") == 1
    clamped = find_case(CASES, "accounting_edges.bracket", "clamped")
    assert clamped.expected is not None
    # the probe at lo itself is skipped: lo is evaluated once, as the first probe
    assert clamped.expected["probes"] == ["1", "2", "1.0625"]
    changed = copy.deepcopy(clamped.expected)
    changed["probes"].insert(2, "1")
    assert FAMILY.compare(clamped, changed) is not None


def test_handlers_restore_the_spec_functions() -> None:
    before = (discrete._table, discrete.discrete_gaussian_delta)
    for c in CASES:
        if c.op in ("accounting_edges.refinement", "accounting_edges.calibration"):
            try:
                HANDLERS[c.op](dict(c.args))
            except REFUSED:
                assert c.result == "invalid"
    assert (discrete._table, discrete.discrete_gaussian_delta) == before


def test_the_work_limit_refuses_before_any_evaluation() -> None:
    case = find_case(CASES, "accounting_edges.calibration", "just over the limit", "invalid")
    assert "WorkLimit" in case.flags
    with counted_calls(discrete, "discrete_gaussian_delta") as calls:
        with pytest.raises(ValueError, match="table operations"):
            discrete.calibrate_discrete_gaussian_sigma(case.args["eps"], case.args["delta"],
                                                      case.args["vector"], case.args["digits"])
    assert calls[0] == 0


def test_half_width_tie_keeps_regula_falsi() -> None:
    case = find_case(CASES, "accounting_edges.bracket", "exactly half")
    assert case.expected is not None
    probes = [mpmath.mpf(x) for x in case.expected["probes"]]
    lo = probes[0]
    # widths 31/64, 23/64, 31/128: the third step does not probe the midpoint of [lo, 1.7578125]
    assert probes[2:4] == [mpmath.mpf("1.875"), mpmath.mpf("1.7578125")]
    assert probes[4] != (lo + probes[3]) / 2
