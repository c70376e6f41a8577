"""What every accounting vector family with per-op tolerances promises, checked on the committed
files (that they equal what the families generate is checked by tests/test_cli.py): every op has a
tolerance and published cases, valid ones at least, and every invalid case is refused by the
reference handler. The families' own test modules check what is particular to each."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dpspec.conformance.families import get_family
from dpspec.conformance.families.accounting import AccountingFamily
from dpspec.conformance.vectors import Case

VECTORS = Path(__file__).resolve().parent.parent / "vectors"

ANY = (ValueError, TypeError, ArithmeticError)
#: the families: whether each of their ops must also publish an invalid case, and the exceptions
#: their handlers refuse an invalid case with
FAMILIES: dict[str, tuple[bool, tuple[type[Exception], ...]]] = {
    "accounting-budget": (False, ANY),
    "accounting-curves": (False, ANY),
    "accounting-definitions": (True, (ValueError,)),
    "accounting-discrete": (True, ANY),
    "accounting-discrete-limits": (True, ANY),
    "accounting-edges": (True, ANY),
    "accounting-gaussian": (True, ANY),
    "accounting-ghazi": (True, ANY),
    "accounting-limits": (True, ANY),
    "accounting-numeric": (False, ANY),
    "accounting-pld-bounds": (False, ANY),
    "accounting-pld-grid": (False, ANY),
    "accounting-shuffle-clone": (True, ANY),
    "accounting-shuffle-limits": (True, ANY),
    "accounting-shuffle-mp-bounds": (False, ANY),
    "accounting-shuffle-mp-limits": (True, ANY),
    "accounting-shuffle-mp-windows": (False, ANY),
    "accounting-shuffle-rr": (True, ANY),
    "accounting-subsampling": (False, ANY),
    "accounting-tables": (False, (ValueError,)),
    "accounting-tails": (False, ANY),
}


def _family(name: str) -> AccountingFamily:
    family = get_family(name)
    assert isinstance(family, AccountingFamily), name
    return family


def _cases(name: str) -> list[Case]:
    family = _family(name)
    out: list[Case] = []
    for path in sorted((VECTORS / name).glob("*.json")):
        rel = f"{name}/{path.name}"
        out.extend(family.cases(rel, json.loads(path.read_text(encoding="utf-8"))))
    assert out, f"no committed cases for {name}"
    return out


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_every_op_has_a_tolerance_and_cases(name: str) -> None:
    family = _family(name)
    handlers = family.handlers()
    cases = _cases(name)
    assert set(family.tolerance) == set(handlers)
    assert {c.op for c in cases} == set(handlers)
    for op in handlers:
        assert any(c.op == op and c.result == "valid" for c in cases), op
        if FAMILIES[name][0]:
            assert any(c.op == op and c.result == "invalid" for c in cases), op


INVALID = [(name, c) for name in sorted(FAMILIES) for c in _cases(name) if c.result == "invalid"]


@pytest.mark.parametrize(("name", "case"), INVALID, ids=[f"{c.path}#{c.tc_id}" for _, c in INVALID])
def test_invalid_cases_are_refused(name: str, case: Case) -> None:
    with pytest.raises(FAMILIES[name][1]):
        _family(name).handlers()[case.op](dict(case.args))


@pytest.mark.parametrize("want, got, same", [
    ("0.1000000000000000000000000000000000000000001", "0.1", False),  # past the 40th digit
    ("0.5", "0.50", True),
    ("1/3", "0.3333333333333333333333333333333333333333333", False),
    ("1e-9", 1e-9, True),
    ("7", 7, True),
    ("inf", "inf", True),
])
def test_exact_ops_compare_every_digit(want: str, got: object, same: bool) -> None:
    # an op with tolerance (0, 0) compares its numbers as rationals, not at the working precision
    family = AccountingFamily()
    op = next(op for op, tol in family.tolerance.items() if tol == (0.0, 0.0))
    case = Case("accounting/x.json", 1, op, {}, {"v": want}, "valid", "", [], None)
    assert (family.compare(case, {"v": got}) is None) is same
    # with a tolerance, 40 digits are enough
    loose = next(op for op, tol in family.tolerance.items() if tol[0] > 0)
    case = Case("accounting/x.json", 1, loose, {}, {"v": want}, "valid", "", [], None)
    assert family.compare(case, {"v": got}) is None
