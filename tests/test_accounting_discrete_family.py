"""The accounting-discrete vector family: every op has a tolerance and both valid and invalid
cases; the compare applies the relative tolerance to the transcript's values and compares table
sizes, work counts and thresholds exactly; the limit on one evaluation is met and exceeded; the
spec's functions are restored after a transcript is taken."""

from __future__ import annotations

import copy

import mpmath

from dpspec.conformance.families.accounting_discrete import FAMILY, HANDLERS
from dpspec.spec.accounting import discrete
from tests.family_cases import find_case, generated_cases

CASES = generated_cases(FAMILY)


def test_transcript_values_are_compared_relatively() -> None:
    case = find_case(CASES, "accounting_discrete.delta", "several refinements")
    assert case.expected is not None
    passes = case.expected["passes"]
    assert len(passes) >= 2 and passes[0]["computed"] == "0"
    assert FAMILY.compare(case, copy.deepcopy(case.expected)) is None
    value = passes[1]["above"][0][1]
    changed = copy.deepcopy(case.expected)
    changed["passes"][1]["above"][0][1] = mpmath.nstr(mpmath.mpf(value) * (1 + 1e-12), 25)
    assert FAMILY.compare(case, changed) is not None
    changed = copy.deepcopy(case.expected)
    changed["passes"][1]["allowance"] = mpmath.nstr(
        mpmath.mpf(passes[1]["allowance"]) * (1 + 1e-13), 25)
    assert FAMILY.compare(case, changed) is not None


def test_table_size_and_thresholds_are_exact() -> None:
    case = find_case(CASES, "accounting_discrete.delta", "K = 0")
    assert case.expected is not None
    first = case.expected["passes"][0]
    assert first["K"] == 0 and first["z"] == "1"
    assert first["above"][0][0] == "-799/400"
    changed = copy.deepcopy(case.expected)
    changed["passes"][0]["K"] = 1
    assert FAMILY.compare(case, changed) is not None
    changed = copy.deepcopy(case.expected)
    changed["passes"][0]["above"][0][0] = "-800/400"
    assert FAMILY.compare(case, changed) is not None


def test_work_limit_met_and_exceeded() -> None:
    at = find_case(CASES, "accounting_discrete.work", "exactly 4000000")
    assert at.expected == {"work": discrete.MAX_WORK}
    assert FAMILY.compare(at, {"work": discrete.MAX_WORK + 1}) is not None
    above = find_case(CASES, "accounting_discrete.work", "one above", "invalid")
    args = dict(above.args)
    args.pop("limit")
    assert HANDLERS["accounting_discrete.work"](args) == {"work": discrete.MAX_WORK + 1}


def test_calibration_counts_and_sigma_bound() -> None:
    case = find_case(CASES, "accounting_discrete.calibration", "not monotone")
    assert case.expected is not None
    plain = find_case(CASES, "accounting_discrete.calibration", "defaults")
    assert plain.expected is not None
    # the restart after the scan costs more evaluations than a search without one
    assert case.expected["evaluations"] > plain.expected["evaluations"]
    changed = copy.deepcopy(case.expected)
    changed["evaluations"] += 1
    assert FAMILY.compare(case, changed) is not None
    lower = copy.deepcopy(case.expected)
    lower["sigma"] = mpmath.nstr(mpmath.mpf(case.expected["sigma"]) * (1 - 1e-14), 20)
    assert FAMILY.compare(case, lower) is not None


def test_handlers_restore_the_spec_functions() -> None:
    before = (discrete._delta_once, discrete._table, discrete._prob_greater,
              discrete.discrete_gaussian_delta)
    for c in CASES:
        if c.op in ("accounting_discrete.delta", "accounting_discrete.calibration"):
            try:
                HANDLERS[c.op](dict(c.args))
            except (ValueError, TypeError, ArithmeticError):
                assert c.result == "invalid"
    after = (discrete._delta_once, discrete._table, discrete._prob_greater,
             discrete.discrete_gaussian_delta)
    assert before == after


def test_bracket_probes_start_at_the_ends_and_are_compared_in_order() -> None:
    case = find_case(CASES, "accounting_discrete.bracket", "no probe")
    assert case.expected is not None
    assert case.expected["probes"] == ["1", "2"]
    assert (case.expected["lo"], case.expected["hi"]) == ("1", "2")
    steep = find_case(CASES, "accounting_discrete.bracket", "steep")
    assert steep.expected is not None
    probes = steep.expected["probes"]
    assert probes[:2] == ["1", "4"] and len(probes) > 4
    changed = copy.deepcopy(steep.expected)
    changed["probes"] = probes[:2] + probes[3:]
    assert FAMILY.compare(steep, changed) is not None
    changed = copy.deepcopy(steep.expected)
    changed["probes"][2], changed["probes"][3] = probes[3], probes[2]
    assert FAMILY.compare(steep, changed) is not None


def test_search_rounds_follow_the_teeth_and_the_limits_refuse() -> None:
    """Each chained tooth costs one more bracket round, up to discrete.SCAN_ROUNDS; one tooth more
    is refused, as is a published x that falls in a tooth; the real calibration's vectors come
    out of the same search (its cases are regenerated unchanged, checked by the vector tests)."""
    op = "accounting_discrete.search"
    for part, rounds in (("no teeth", 1), ("one tooth", 2), ("seven teeth", discrete.SCAN_ROUNDS)):
        case = find_case(CASES, op, part)
        assert case.expected is not None and case.expected["rounds"] == rounds, part
        assert len(case.args.get("teeth", [])) == rounds - 1
    widened = find_case(CASES, op, "doubled again")
    assert widened.expected is not None and widened.expected["sigma"] == "3.300000001"
    for part in ("eight teeth", "falls in the tooth"):
        case = find_case(CASES, op, part, "invalid")
        try:
            HANDLERS[op](dict(case.args))
        except ArithmeticError:
            continue
        raise AssertionError(f"{part}: not refused with ArithmeticError")
