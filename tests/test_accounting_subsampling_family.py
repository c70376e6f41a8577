"""The accounting-subsampling vector family: its compare applies the stated tolerances and refuses
a negative divergence, and its invalid cases are refused by the reference handlers."""

from __future__ import annotations

import copy

from dpspec.conformance.families.accounting_subsampling import FAMILY, HANDLERS, TOLERANCE
from dpspec.conformance.vectors import Case
from tests.family_cases import generated_cases

CASES = generated_cases(FAMILY)


def _case(comment_start: str) -> Case:
    for c in CASES:
        if c.comment.startswith(comment_start):
            return c
    raise AssertionError(f"no case {comment_start!r}")


def test_every_op_has_a_tolerance_and_valid_and_invalid_cases() -> None:
    assert set(TOLERANCE) == set(HANDLERS)
    assert {c.op for c in CASES if c.result == "valid"} == set(HANDLERS)
    assert {c.op for c in CASES if c.result == "invalid"} == set(HANDLERS)


def test_published_values_replay() -> None:
    for c in CASES:
        if c.result != "valid":
            continue
        assert c.expected is not None
        assert FAMILY.compare(c, HANDLERS[c.op](dict(c.args))) is None, c.comment


def test_near_tie_rdp_tolerance() -> None:
    case = _case("near tie, q 1 - 1e-7, sigma 2")
    assert case.expected is not None
    x = float(case.expected["rdp"])
    near = {"rdp": repr(x * (1 + 1e-12))}
    assert FAMILY.compare(case, near) is None
    # the backward direction at these parameters is about 5e-8 relative below the forward one
    far = {"rdp": repr(x * (1 - 5e-8))}
    assert FAMILY.compare(case, far) is not None


def test_a_negative_rdp_or_eps_is_refused_even_within_tolerance() -> None:
    case = _case("sigma 10^30, fractional alpha")
    assert case.expected == {"rdp": "3.125000000001e-61"}
    assert FAMILY.compare(case, {"rdp": "3.125e-61"}) is None
    assert FAMILY.compare(case, {"rdp": "-1e-62"}) is not None
    tie = _case("all orders convert to 0")
    assert tie.expected == {"eps": "0", "order": "2"}
    assert FAMILY.compare(tie, {"eps": "-1e-40", "order": "2"}) is not None


def test_the_minimising_order_must_match() -> None:
    case = _case("fractional 1.5 wins below every integer order")
    assert case.expected is not None and case.expected["order"] == "1.5"
    changed = copy.deepcopy(case.expected)
    changed["order"] = "2"
    assert FAMILY.compare(case, changed) is not None
