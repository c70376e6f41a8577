"""The accounting-gaussian vector family: every op has a tolerance and valid and invalid cases, the
far-tail deltas are the Mills bound beyond 10^6 standard deviations and the formula inside, the
compare rejects perturbed values (relative on numbers, exact on counts and table rows), the spec's
function is restored after a search is observed, and invalid cases are refused."""

from __future__ import annotations

import copy

import mpmath
import pytest

from dpspec.conformance.families.accounting_gaussian import FAMILY, HANDLERS, P
from dpspec.spec.accounting import gaussian
from tests.family_cases import find_case, generated_cases

CASES = generated_cases(FAMILY)


def _ln_mills(eps: str, sigma: str, sens: str) -> mpmath.mpf:
    """ln(phi(x) / |x|) at x = S / (2 sigma) - eps sigma / S, computed here from scratch."""
    with mpmath.workdps(40):
        e, s, d = mpmath.mpf(eps), mpmath.mpf(sigma), mpmath.mpf(sens)
        x = d / (2 * s) - e * s / d
        return -x * x / 2 - mpmath.log(-x * mpmath.sqrt(2 * mpmath.pi))


def test_far_tail_is_the_mills_bound_only_beyond_the_limit() -> None:
    beyond = find_case(CASES, P + "delta", "beyond 10^6")
    inside = find_case(CASES, P + "delta", "inside the limit (the formula")
    assert beyond.expected is not None and inside.expected is not None
    with mpmath.workdps(40):
        got = mpmath.mpf(beyond.expected["lnDelta"])
        assert abs(got - _ln_mills("1", "1500000", "1")) < mpmath.mpf("1e-6")
        # inside the limit the two terms of the formula nearly cancel: far below the Mills bound
        assert mpmath.mpf(inside.expected["lnDelta"]) < _ln_mills("1", "700000", "1") - 20


def test_ln_delta_is_compared_relatively() -> None:
    case = find_case(CASES, P + "delta", "a - b = -10^6 exactly")
    assert case.expected is not None
    assert FAMILY.compare(case, copy.deepcopy(case.expected)) is None
    with mpmath.workdps(40):
        moved = mpmath.mpf(case.expected["lnDelta"]) * (1 + mpmath.mpf("1e-13"))
    assert FAMILY.compare(case, {"lnDelta": mpmath.nstr(moved, 25)}) is not None
    one = find_case(CASES, P + "delta", "+10^6 exactly")
    assert one.expected == {"lnDelta": "0"}
    assert FAMILY.compare(one, {"lnDelta": "-1e-20"}) is not None


def test_search_counts_are_exact_and_the_bracket_end_is_pinned() -> None:
    eps = find_case(CASES, P + "epsilon", "no doubling")
    assert eps.expected is not None and eps.expected["hi"] == "1"
    changed = copy.deepcopy(eps.expected)
    changed["evaluations"] += 1
    assert FAMILY.compare(eps, changed) is not None
    early = find_case(CASES, P + "epsilon", "eps 0 after one evaluation")
    assert early.expected == {"eps": "0", "evaluations": 1, "hi": "0"}
    cal = find_case(CASES, P + "calibration", "defaults 1 and 12")
    assert cal.expected is not None and cal.expected["digits"] == 12
    assert len(cal.expected["sigma"].replace(".", "").lstrip("0")) == 12
    with mpmath.workdps(50):
        exact = mpmath.mpf(cal.expected["exact"])
        assert exact <= mpmath.mpf(cal.expected["sigma"])
        changed = copy.deepcopy(cal.expected)
        changed["exact"] = mpmath.nstr(exact * (1 + mpmath.mpf("1e-32")), 40)
    assert FAMILY.compare(cal, changed) is not None
    assert FAMILY.compare(cal, copy.deepcopy(cal.expected)) is None


def test_seed_rows_are_compared_exactly() -> None:
    case = find_case(CASES, P + "seed_table", "as printed")
    assert case.expected is not None
    rows = case.expected["rows"]
    assert [r["std_holds"] for r in rows] == [True, True, True]
    assert all(r["holds"] for r in rows)
    changed = copy.deepcopy(case.expected)
    changed["rows"][0]["eps_renyi_route"] = "0.3160250000001"
    assert FAMILY.compare(case, changed) is not None
    nxt = find_case(CASES, P + "seed_table", "n 100001")
    assert nxt.expected is not None
    assert [r["std_holds"] for r in nxt.expected["rows"]] == [False, False, False]


def test_handlers_restore_the_spec_function_and_refuse_invalid_cases() -> None:
    before = gaussian.gaussian_delta
    for c in CASES:
        if c.op in (P + "epsilon", P + "calibration", P + "delta", P + "closed_forms"):
            if c.result == "invalid":
                with pytest.raises(ValueError):
                    HANDLERS[c.op](dict(c.args))
            else:
                assert HANDLERS[c.op](dict(c.args)) == c.expected
    assert gaussian.gaussian_delta is before
