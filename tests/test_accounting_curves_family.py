"""The accounting-curves vector family: its compare applies the stated tolerances, and its
invalid cases are refused by the reference handlers."""

from __future__ import annotations

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from dpspec.conformance.families.accounting_curves import FAMILY
from dpspec.conformance.vectors import Case
from tests.family_cases import generated_cases

CASES = generated_cases(FAMILY)


def _first(op: str, key: str, function: str | None = None) -> Case:
    for c in CASES:
        if function is not None and c.args.get("function") != function:
            continue
        if c.op == op and c.result == "valid" and c.expected and key in c.expected:
            return c
    raise AssertionError(f"no {op} case with {key}")


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


@settings(max_examples=400, deadline=None)
@given(st.floats(min_value=1e-300, max_value=1e300, allow_nan=False, allow_infinity=False),
       st.sampled_from([-2e-13, -1e-15, 1e-15, 2e-13]))
def test_binary64_values_are_published_independently_of_their_last_digits(x: float, rel: float) -> None:
    """A double that moves by the ~2e-13 relative seen between numpy/scipy versions publishes
    the same 8 digits, or generation refuses it (never different digits); the published value is
    within the tolerance."""
    from dpspec.conformance.families.accounting_curves import B64, _f

    try:
        text = _f(x)
    except ValueError:
        return
    try:
        assert _f(x * (1 + rel)) == text
    except ValueError:
        pass
    mantissa = text.split("e")[0].replace(".", "").replace("-", "").lstrip("0")
    assert len(mantissa) <= 8
    assert abs(float(text) - x) <= B64[0] * x
