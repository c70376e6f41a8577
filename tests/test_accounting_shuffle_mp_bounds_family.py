"""The accounting-shuffle-mp-bounds vector family: every op has a tolerance and both valid and
invalid cases, its compare rejects a perturbed value (fixed-point integers and search transcripts
exactly), invalid cases are refused, the published clone bound is the one its fixed-point total
gives, and the spec's functions are restored after a transcript is taken."""

from __future__ import annotations

import copy

import mpmath
import pytest

from dpspec.conformance.families.accounting import published
from dpspec.conformance.families.accounting_shuffle_mp_bounds import (
    FAMILY,
    HANDLERS,
    TOLERANCE,
)
from dpspec.conformance.vectors import Case
from dpspec.spec.accounting import shuffle_mp
from tests.family_cases import find_case, generated_cases

CASES = generated_cases(FAMILY)
P = "accounting_shuffle_mp_bounds."


def test_every_op_has_a_tolerance_and_valid_cases() -> None:
    ops = {c.op for c in CASES}
    assert ops == set(HANDLERS) == set(TOLERANCE)
    for op in ops:
        assert any(c.op == op and c.result == "valid" for c in CASES), op
    invalid_ops = {c.op for c in CASES if c.result == "invalid"}
    assert len(invalid_ops) >= 9


@pytest.mark.parametrize("case", [c for c in CASES if c.result == "invalid"],
                         ids=lambda c: f"{c.op.split('.')[1]}-{c.comment[:30]}")
def test_invalid_cases_are_refused(case: Case) -> None:
    with pytest.raises((ValueError, TypeError, ArithmeticError)):
        HANDLERS[case.op](dict(case.args))


def test_fixed_point_total_is_compared_exactly() -> None:
    case = find_case(CASES, P + "clone_curve", "ties exact")
    assert case.expected is not None
    total = case.expected["total"]
    assert isinstance(total, int) and total > 10 ** 100
    assert FAMILY.compare(case, copy.deepcopy(case.expected)) is None
    changed = copy.deepcopy(case.expected)
    changed["total"] = total + 1
    assert FAMILY.compare(case, changed) is not None
    changed = copy.deepcopy(case.expected)
    changed["lowerCdf"] = str(case.expected["lowerCdf"])
    assert FAMILY.compare(case, changed) is not None


def test_clone_bound_is_read_from_its_total() -> None:
    for c in CASES:
        if c.op.endswith("clone_curve") and c.result == "valid" and c.expected is not None \
                and c.expected["total"] is not None:
            with mpmath.workdps(shuffle_mp.WPS):
                bound = shuffle_mp._from_fixed_up(c.expected["total"], 3 * c.expected["bits"])
                assert published(min(bound, mpmath.mpf(1))) == c.expected["delta"]


def test_search_transcript_is_compared_exactly() -> None:
    case = find_case(CASES, P + "search", "rr deletion eps0 1, n 20")
    assert case.expected is not None
    at = case.expected["evaluatedAt"]
    assert at[0] == "54.0" and at[1] == "0.0"  # the cap check, then the test at 0
    changed = copy.deepcopy(case.expected)
    with mpmath.workdps(40):
        changed["evaluatedAt"][2] = mpmath.nstr(mpmath.mpf(at[2]) * (1 + mpmath.mpf("1e-18")), 30)
    assert FAMILY.compare(case, changed) is not None
    changed = copy.deepcopy(case.expected)
    changed["grid"] = changed["grid"][:-1]
    assert FAMILY.compare(case, changed) is not None


def test_certified_search_starts_where_its_estimate_says() -> None:
    floor = find_case(CASES, P + "certified_epsilon", "estimate 1e-35")
    above = find_case(CASES, P + "certified_epsilon", "estimate 100")
    assert floor.expected is not None and above.expected is not None
    assert floor.expected["evaluatedAt"][1] == "1.01e-30"
    assert mpmath.mpf(above.expected["evaluatedAt"][1]) < 1
    capped = find_case(CASES, P + "certified_epsilon", "cap 0.3 below")
    assert capped.expected is not None and capped.expected["eps"] == "0.300"
    assert "0.3" not in capped.expected["evaluatedAt"]


def test_values_are_compared_relatively() -> None:
    case = find_case(CASES, P + "rr_pairs", "both windows cut below")
    assert case.expected is not None
    with mpmath.workdps(40):
        d = mpmath.mpf(case.expected["lost"])
        assert 0 < d < mpmath.mpf("1e-60")
        far = mpmath.nstr(d * (1 + mpmath.mpf("1e-12")), 25)
        near = mpmath.nstr(d * (1 + mpmath.mpf("1e-17")), 25)
    assert FAMILY.compare(case, dict(case.expected, lost=far)) is not None
    assert FAMILY.compare(case, dict(case.expected, lost=near)) is None


def test_bounds_with_a_cap_are_compared_exactly() -> None:
    case = find_case(CASES, P + "histogram_delta", "twice the lost mass")
    assert case.expected is not None
    with mpmath.workdps(40):
        near = mpmath.nstr(mpmath.mpf(case.expected["delta"]) * (1 + mpmath.mpf("1e-17")), 25)
    assert FAMILY.compare(case, {"delta": near}) is not None
    assert FAMILY.compare(case, copy.deepcopy(case.expected)) is None


def test_capped_bounds_publish_one() -> None:
    clone = find_case(CASES, P + "clone_curve", "capped at 1")
    assert clone.expected is not None and clone.expected["delta"] == "1"
    assert clone.expected["total"] > 1 << (3 * clone.expected["bits"])
    changed = dict(clone.expected, delta="1.0000000000000000001")
    assert FAMILY.compare(clone, changed) is not None
    assert find_case(CASES, P + "rr_delta", "passes 1, capped").expected == {"delta": "1"}
    assert find_case(CASES, P + "histogram_delta", "passes 1, capped").expected == {"delta": "1"}


OBSERVED = ("smallest_on_grid", "certified_epsilon", "rr_pairs", "_rr_delta_on", "golden_section",
            "_others", "_from_fixed_up", "_binomial_half_lower_cdf")


def _spec_functions() -> tuple[object, ...]:
    return (*(vars(shuffle_mp)[n] for n in OBSERVED), vars(shuffle_mp.CloneCurve)["delta"],
            vars(shuffle_mp._RapporTable)["delta"])


def test_handlers_restore_the_spec_functions() -> None:
    before = _spec_functions()
    for op in ("search", "clone_curve", "histogram_renyi", "rr_pairs"):
        for c in CASES:
            if c.op.endswith(op) and c.result == "valid":
                HANDLERS[c.op](dict(c.args))
                break
    assert _spec_functions() == before


def test_worst_delta_is_the_specs_string() -> None:
    case = find_case(CASES, P + "rr_worst_delta", "n 6, digits 4")
    assert case.expected is not None and case.expected["delta"] == "0.1126"
    changed = {"delta": mpmath.mpf("0.1126"), "ones": case.expected["ones"]}
    assert FAMILY.compare(case, changed) is not None


def test_renyi_order_transcript_matches_the_route() -> None:
    """At the order the Renyi route reports, converting the larger published-style direction
    gives the route's eps (before its rounding up); the tail is e^((alpha - 1) eps0) times the
    window's lost mass; and a tail with e^((alpha + 1) eps0), or a forward sum with the
    exponent 1 + alpha (both smaller than the other direction's effect on eps), fails the
    compare."""
    eps, alpha = shuffle_mp.rappor_histogram_rdp_epsilon("1", 3000, "1e-6")
    fwd, bwd, tail = shuffle_mp.rappor_histogram_renyi("1", 3000, "1e-6", alpha)
    with mpmath.workdps(30):
        a = mpmath.mpf(alpha)
        conv = 2 * max(fwd, bwd) + (mpmath.log(mpmath.mpf("1e6")) + (a - 1) * mpmath.log1p(-1 / a)
                                    - mpmath.log(a)) / (a - 1)
    # alpha is published with 6 digits, so the conversion there is within 1e-9 of the optimum
    assert mpmath.mpf(eps) - mpmath.mpf("1e-9") <= conv <= mpmath.mpf(eps) + mpmath.mpf("1e-6")
    table = shuffle_mp._RapporRenyi("1", 3000, "1e-6")
    assert table.lost > 0
    with mpmath.workdps(30):
        assert abs(tail - mpmath.exp(a - 1) * table.lost) <= mpmath.mpf("1e-25") * tail

    case = find_case(CASES, P + "histogram_renyi_order", "alpha 256 (the largest order)")
    assert case.expected is not None
    assert FAMILY.compare(case, HANDLERS[case.op](dict(case.args))) is None
    wrong = dict(case.expected, tail=published(mpmath.mpf(case.expected["tail"]) * mpmath.e ** 2))
    assert FAMILY.compare(case, wrong) is not None
    with mpmath.workdps(30):
        logs = table.logs
        a = mpmath.mpf(256)
        smaller = mpmath.log(mpmath.fsum(mpmath.exp(a * lp - (1 + a) * lq) for lp, lq in logs)
                             + tail) / (a - 1)
    assert FAMILY.compare(case, dict(case.expected, forward=published(smaller))) is not None
