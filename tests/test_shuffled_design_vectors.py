"""The shuffled-design vector family: replay, tolerance of compare, and its invalid cases."""

from __future__ import annotations

import json
from pathlib import Path

from dpspec.conformance.families.shuffled_design import FAMILY
from dpspec.conformance.vectors import Case

FILE = Path(__file__).resolve().parents[1] / "vectors" / "shuffled-design" / "ghazi_design.json"


def _cases() -> list[Case]:
    return FAMILY.cases("shuffled-design/ghazi_design.json", json.loads(FILE.read_text()))


def _case(op: str) -> Case:
    return next(c for c in _cases() if c.op == op and c.result == "valid")


def test_compare_exact_ops_reject_any_change() -> None:
    c = _case("ghazi.design.decay")
    assert c.expected is not None
    assert FAMILY.compare(c, dict(c.expected)) is None
    bad = {**c.expected, "a": c.expected["a"] + "1"}
    assert FAMILY.compare(c, bad) is not None


def test_compare_tolerant_ops() -> None:
    c = _case("ghazi.design.correlated_delta")
    assert c.expected is not None
    x = float(c.expected["delta"])
    assert FAMILY.compare(c, {**c.expected, "delta": repr(x * (1 + 1e-9))}) is None
    assert FAMILY.compare(c, {**c.expected, "delta": repr(x * (1 + 1e-4))}) is not None
    assert FAMILY.compare(c, {**c.expected, "delta": "not a number"}) is not None


def test_invalid_cases_are_refused_and_flagged() -> None:
    handlers = FAMILY.handlers()
    invalid = [c for c in _cases() if c.result == "invalid"]
    assert len(invalid) >= 10
    for c in invalid:
        assert c.flags and c.flags[0] in json.loads(FILE.read_text())["notes"]
        try:
            handlers[c.op](c.args)
        except ValueError:
            continue
        raise AssertionError(f"tcId {c.tc_id} accepted")


def test_exact_ops_tolerate_only_last_digits_of_decimals() -> None:
    c = _case("ghazi.design.theorem18")
    assert c.expected is not None
    x = float(c.expected["epsilon2"])
    assert FAMILY.compare(c, {**c.expected, "epsilon2": repr(x * (1 + 1e-17))}) is None
    assert FAMILY.compare(c, {**c.expected, "epsilon2": repr(x * (1 + 1e-12))}) is not None
    assert FAMILY.compare(c, {**c.expected, "Delta": "19.0000000000000001"}) is not None
