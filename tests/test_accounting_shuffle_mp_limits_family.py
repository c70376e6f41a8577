"""The accounting-shuffle-mp-limits vector family: every op has a tolerance and both valid and
invalid cases, invalid cases are refused, its compare rejects a value moved by one step (an atom,
one unit of a fixed-point total, one grid value of a search), and the ties the cases claim are
ties of the spec: the cut-off equals the tail bound it stops at, the clone limit is met exactly,
a search target lies between a sum and its allowance, the window estimate is exactly 40000."""

from __future__ import annotations

import copy

import mpmath
import pytest

from dpspec.conformance.families import accounting_shuffle_mp_limits as fam
from dpspec.conformance.families.accounting import published
from dpspec.conformance.families.accounting_shuffle_mp_limits import (
    FAMILY,
    HANDLERS,
    TOLERANCE,
)
from dpspec.conformance.vectors import Case
from dpspec.spec.accounting import shuffle_mp
from tests.family_cases import find_case, generated_cases

CASES = generated_cases(FAMILY)
P = "accounting_shuffle_mp_limits."


def test_every_op_has_a_tolerance_and_valid_and_invalid_cases() -> None:
    ops = {c.op for c in CASES}
    assert ops == set(HANDLERS) == set(TOLERANCE)
    for op in ops:
        assert any(c.op == op and c.result == "valid" for c in CASES), op
        assert any(c.op == op and c.result == "invalid" for c in CASES), op


@pytest.mark.parametrize("case", [c for c in CASES if c.result == "invalid"],
                         ids=lambda c: f"{c.op.split('.')[1]}-{c.comment[:30]}")
def test_invalid_cases_are_refused(case: Case) -> None:
    with pytest.raises((ValueError, TypeError, ArithmeticError)):
        HANDLERS[case.op](dict(case.args))


def test_cutoff_met_exactly_stops_the_walk() -> None:
    tie = find_case(CASES, P + "binom_window", "equal to the upward tail bound")
    half = find_case(CASES, P + "binom_window", "half that cut-off")
    assert tie.expected is not None and half.expected is not None
    with mpmath.workdps(shuffle_mp.WPS):
        # the window is complete below the mode (lo 0), so lost is the upper tail bound alone
        assert tie.expected["lo"] == 0
        assert tie.expected["lost"] == published(mpmath.mpf(fam.TIE_BIN30))
    assert half.expected["atoms"] == tie.expected["atoms"] + 1
    changed = dict(tie.expected, atoms=tie.expected["atoms"] + 1)
    assert FAMILY.compare(tie, changed) is not None
    assert FAMILY.compare(tie, copy.deepcopy(tie.expected)) is None


def test_clone_limit_is_met_exactly() -> None:
    at = find_case(CASES, P + "clone_limits", "exactly 2e6 CDF terms")
    below = find_case(CASES, P + "clone_limits", "one 50-digit unit below", "invalid")
    assert at.expected is not None
    assert below.args["n"] == at.args["n"]
    with mpmath.workdps(shuffle_mp.WPS):
        a, b = mpmath.mpf(at.args["eps0"]), mpmath.mpf(below.args["eps0"])
        assert a - b == mpmath.mpf(2) ** (mpmath.mag(a) - mpmath.mp.prec)


def test_clone_total_is_compared_exactly_and_gives_the_bound() -> None:
    case = find_case(CASES, P + "clone_curve", "multiple of 3")
    assert case.expected is not None
    total = case.expected["total"]
    assert isinstance(total, int) and total > 10 ** 100
    changed = dict(case.expected, total=total + 1)
    assert FAMILY.compare(case, changed) is not None
    for c in CASES:
        if c.op == P + "clone_curve" and c.result == "valid" and c.expected is not None \
                and c.expected["total"] is not None:
            with mpmath.workdps(shuffle_mp.WPS):
                bound = shuffle_mp._from_fixed_up(c.expected["total"], 3 * c.expected["bits"])
                assert published(min(bound, mpmath.mpf(1))) == c.expected["delta"]


def test_threshold_exactly_zero_returns_the_lost_mass() -> None:
    case = find_case(CASES, P + "clone_curve", "threshold is exactly 0")
    assert case.expected is not None
    assert case.expected["total"] is None and case.expected["delta"] == "0"
    near = find_case(CASES, P + "clone_curve", "share enclosed in [0, one unit]")
    assert near.expected is not None and near.expected["total"] is not None
    assert mpmath.mpf(near.expected["delta"]) < mpmath.mpf("1e-70")


def test_search_targets_lie_between_a_sum_and_its_allowance() -> None:
    for plain, gap in (("rr eps0 1, n 20, digits 4, delta 1e-3", "0.6872 is refused"),
                       ("histogram eps0 1, n 50, digits 4, delta 1e-3", "0.4876 is refused")):
        a = find_case(CASES, P + "search", plain)
        b = find_case(CASES, P + "search", gap)
        assert a.expected is not None and b.expected is not None
        # one grid step (digits 4) above the answer at delta 1e-3
        step = mpmath.mpf(b.expected["eps"]) - mpmath.mpf(a.expected["eps"])
        assert abs(step - mpmath.mpf("0.0001")) < mpmath.mpf("1e-12")
        assert FAMILY.compare(b, {"eps": a.expected["eps"]}) is not None
    with mpmath.workdps(shuffle_mp.WPS):
        at = shuffle_mp.rr_sum_delta("0.6872", "1", 20, delta=mpmath.mpf(fam.RR_GAP))
        gap = mpmath.mpf(fam.RR_GAP)
        assert gap < at < gap * (1 + mpmath.mpf("2e-40"))


def test_publish_at_the_window_limit() -> None:
    at = find_case(CASES, P + "publish", "exactly 40000")
    over = find_case(CASES, P + "publish", "40001, null")
    assert at.expected is not None and isinstance(at.expected["published"], list)
    assert over.expected == {"published": None}
    with mpmath.workdps(shuffle_mp.WPS):
        p = 1 / (mpmath.exp(mpmath.mpf(1)) + 1)
        d = mpmath.mpf("1e-6")
        assert shuffle_mp.window_estimate(fam.N_AT_LIMIT - 1, p, d) == 40000
        assert shuffle_mp.window_estimate(fam.N_AT_LIMIT, p, d) == 40001
    assert FAMILY.compare(at, {"published": None}) is not None


def test_handlers_restore_the_spec_functions() -> None:
    names = ("_binomial_half_lower_cdf", "_from_fixed_up")
    before = tuple(vars(shuffle_mp)[n] for n in names)
    case = find_case(CASES, P + "clone_curve", "multiple of 3")
    HANDLERS[case.op](dict(case.args))
    assert tuple(vars(shuffle_mp)[n] for n in names) == before
