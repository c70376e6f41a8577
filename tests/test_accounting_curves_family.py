"""The accounting-curves vector family: its compare applies the stated tolerances, and its
invalid cases are refused by the reference handlers."""

from __future__ import annotations

import copy

import pytest

from dpspec.conformance.families.accounting_curves import FAMILY, HANDLERS, TOLERANCE
from dpspec.conformance.vectors import Case

CASES = [c for f in FAMILY.files() for c in FAMILY.cases(f.path, f.doc)]


def _first(op: str, key: str, function: str | None = None) -> Case:
    for c in CASES:
        if function is not None and c.args.get("function") != function:
            continue
        if c.op == op and c.result == "valid" and c.expected and key in c.expected:
            return c
    raise AssertionError(f"no {op} case with {key}")


def test_every_op_has_a_tolerance_and_cases() -> None:
    assert set(TOLERANCE) == set(HANDLERS)
    assert {c.op for c in CASES} == set(HANDLERS)


def test_binary64_tolerance_accepts_last_digit_noise_but_not_a_changed_value() -> None:
    case = _first("accounting_curves.shuffle_binary64", "delta", "clone_delta")
    want = case.expected
    assert want is not None
    x = float(want["delta"])
    assert x > 1e-9
    near = copy.deepcopy(want)
    near["delta"] = repr(x * (1 + 1e-12))
    assert FAMILY.compare(case, near) is None
    far = copy.deepcopy(want)
    far["delta"] = repr(x * (1 + 1e-5))
    assert FAMILY.compare(case, far) is not None


def test_seed_table_verdicts_are_compared_exactly() -> None:
    case = _first("accounting_curves.seed_table", "rows")
    assert case.expected is not None
    changed = copy.deepcopy(case.expected)
    row = changed["rows"][0]
    row["verdict"] = row["verdict"] + " "
    assert FAMILY.compare(case, changed) is not None


def test_budget_decisions_are_compared_exactly() -> None:
    case = _first("accounting_curves.budget_transcript", "decisions")
    assert case.expected is not None
    changed = copy.deepcopy(case.expected)
    changed["decisions"][0]["failedCheck"] = 7
    assert FAMILY.compare(case, changed) is not None


@pytest.mark.parametrize("case", [c for c in CASES if c.result == "invalid"],
                         ids=lambda c: f"{c.path}#{c.tc_id}")
def test_invalid_cases_are_refused(case: Case) -> None:
    with pytest.raises((ValueError, TypeError, ArithmeticError)):
        HANDLERS[case.op](dict(case.args))
