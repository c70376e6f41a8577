"""The accounting-shuffle-rr vector family: every op has a tolerance and valid and invalid cases,
the compare rejects perturbed values (relatively, with no absolute floor where the published
deltas are of order 1e-40), invalid cases are refused, and the boundary cases say what their
comments claim (checked independently where that is cheap)."""

from __future__ import annotations

import copy

import mpmath

from dpspec.conformance.families.accounting_shuffle_rr import FAMILY, HANDLERS
from tests.family_cases import find_case, generated_cases

CASES = generated_cases(FAMILY)


def _scaled(text: str, factor: float) -> str:
    return str(mpmath.nstr(mpmath.mpf(text) * factor, 20))


def test_compare_accepts_the_expected_and_rejects_a_perturbed_value() -> None:
    case = find_case(CASES, "accounting_shuffle_rr.rr_sum", "the answer 1.28")
    assert case.expected is not None
    assert FAMILY.compare(case, copy.deepcopy(case.expected)) is None
    changed = copy.deepcopy(case.expected)
    changed["eps"] = _scaled(case.expected["eps"], 1 + 1e-6)
    assert FAMILY.compare(case, changed) is not None
    changed = copy.deepcopy(case.expected)
    changed["bound"] = "fmt22"
    assert FAMILY.compare(case, changed) is not None


def test_clone_mass_is_compared_without_an_absolute_floor() -> None:
    case = find_case(CASES, "accounting_shuffle_rr.clone_histogram", "eps 21 above 2 eps0")
    assert case.expected is not None
    value = case.expected["delta"]
    assert mpmath.mpf(value) < mpmath.mpf("1e-40")
    for wrong in ("0", _scaled(value, 1.5), _scaled(value, -1)):
        assert FAMILY.compare(case, {"delta": wrong}) is not None


def test_clone_mass_matches_an_independent_sum() -> None:
    """eps0 10, n 10: C ~ Bin(9, 2/(e^10 + 1)) is enumerated in full; the published delta is
    twice the P-mass of the atoms (c, a) below 1e-40, recomputed here at 50 digits."""
    case = find_case(CASES, "accounting_shuffle_rr.clone_histogram", "eps 21 above 2 eps0")
    assert case.expected is not None
    with mpmath.workdps(50):
        e0 = mpmath.mpf(10)
        pc = 2 / (mpmath.exp(e0) + 1)
        al = mpmath.exp(e0) / (mpmath.exp(e0) + 1)
        be = 1 / (mpmath.exp(e0) + 1)
        dropped = mpmath.mpf(0)
        for c in range(10):
            w = mpmath.binomial(9, c) * pc**c * (1 - pc) ** (9 - c)
            for a in range(c + 2):
                b0 = mpmath.binomial(c, a) / mpmath.mpf(2) ** c if a <= c else 0
                b1 = mpmath.binomial(c, a - 1) / mpmath.mpf(2) ** c if a >= 1 else 0
                atom = w * (al * b0 + be * b1)
                if atom < mpmath.mpf("1e-40"):
                    dropped += atom
        assert dropped > 0
        want = mpmath.mpf(case.expected["delta"])
        assert abs(2 * dropped - want) <= mpmath.mpf("1e-7") * want


def test_worst_delta_tie_keeps_the_first_composition() -> None:
    case = find_case(CASES, "accounting_shuffle_rr.rr_sum", "every composition gives delta 0")
    assert case.expected == {"delta": "0", "ones": 0}
    assert FAMILY.compare(case, {"delta": "0", "ones": 4}) is not None


def test_mirrored_composition_has_the_same_renyi_divergence() -> None:
    """rho_2RR is a maximum over both directions, so ones = n - 2 equals ones = 1."""
    case = find_case(CASES, "accounting_shuffle_rr.renyi", "ones 98 = n - 2")
    assert case.expected is not None
    mirror = HANDLERS["accounting_shuffle_rr.renyi"]({**case.args, "ones": 1})
    assert FAMILY.compare(case, mirror) is None
    ones0 = HANDLERS["accounting_shuffle_rr.renyi"]({**case.args, "ones": 0})
    assert FAMILY.compare(case, ones0) is not None


def test_log_pmf_path_is_finite_where_the_linear_pmfs_underflow() -> None:
    case = find_case(CASES, "accounting_shuffle_rr.renyi", "ones 199 = n - 1")
    assert case.expected is not None
    assert mpmath.mpf(case.expected["rdp"]) < 31
    assert FAMILY.compare(case, {"rdp": "inf"}) is not None


def test_order_grid_ends() -> None:
    first = find_case(CASES, "accounting_shuffle_rr.min_over_alpha", "the minimum lies inside (1.25, 1.5)")
    assert first.expected is not None
    assert mpmath.mpf("1.25") < mpmath.mpf(first.expected["alpha"]) < mpmath.mpf("1.5")
    last = find_case(CASES, "accounting_shuffle_rr.min_over_alpha", "the last (1024)")
    assert last.expected is not None and last.expected["alpha"] == "1024"
    changed = {**first.expected, "alpha": "1.25"}
    assert FAMILY.compare(first, changed) is not None


def test_deletion_answers_above_eps0() -> None:
    for op_part in ("the answer 1.28", "the answer 0.72"):
        case = find_case(CASES, "accounting_shuffle_rr.rr_sum", op_part)
        assert case.expected is not None
        assert mpmath.mpf(case.expected["eps"]) > mpmath.mpf(case.args["eps0"])
    case = find_case(CASES, "accounting_shuffle_rr.rr_sum", "the answer eps0 + ln 0.5")
    assert case.expected is not None
    with mpmath.workdps(30):
        want = 140 + mpmath.log(mpmath.mpf("0.5"))
        assert abs(mpmath.mpf(case.expected["eps"]) - want) < mpmath.mpf("1e-5")
