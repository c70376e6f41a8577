"""The accounting-tables vector family: its compare applies the stated tolerances (30-digit values
within 1e-27, table rows as exact strings), and its invalid cases are refused with ValueError."""

from __future__ import annotations

import copy

import mpmath
import pytest

from dpspec.conformance.families.accounting_tables import FAMILY, HANDLERS
from dpspec.conformance.vectors import Case
from tests.family_cases import generated_cases

CASES = generated_cases(FAMILY)


def _first(op: str, function: str | None = None, table: str | None = None) -> Case:
    for c in CASES:
        if c.op != op or c.result != "valid" or not c.expected:
            continue
        if function is not None and c.args.get("function") != function:
            continue
        if table is not None and c.args.get("table") != table:
            continue
        return c
    raise AssertionError(f"no {op} case")


def test_distributed_tolerance_accepts_the_last_digits_but_not_a_margin() -> None:
    case = _first("accounting_tables.distributed", "subsampled_epsilon")
    want = case.expected
    assert want is not None
    with mpmath.workdps(50):
        x = mpmath.mpf(want["eps"])
        near = copy.deepcopy(want)
        near["eps"] = mpmath.nstr(x * (1 + mpmath.mpf(10) ** -29), 40)
        assert FAMILY.compare(case, near) is None
        # a relative allowance of 1e-25 instead of nothing, or twice it, is outside
        far = copy.deepcopy(want)
        far["eps"] = mpmath.nstr(x * (1 + mpmath.mpf(10) ** -25), 40)
        assert FAMILY.compare(case, far) is not None


def test_seed_rows_compare_as_exact_strings() -> None:
    case = _first("accounting_tables.seed_table", table="sa2-examples")
    want = case.expected
    assert want is not None
    assert FAMILY.compare(case, copy.deepcopy(want)) is None
    more = copy.deepcopy(want)
    more["rows"][0]["recomputed"] += "0"  # the same number with one more decimal
    assert FAMILY.compare(case, more) is not None


def test_the_refusal_names_the_tail_exponent() -> None:
    case = _first("accounting_tables.distributed", "tail_exponent")
    assert case.expected == {"tailExponent": 17}
    args = dict(case.args)
    args.pop("function")
    with pytest.raises(ValueError, match="tail exponent of at least 17"):
        HANDLERS["accounting_tables.distributed"]({**args, "function": "subsampled_epsilon"})
