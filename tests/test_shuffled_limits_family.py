"""The shuffled-limits vector family: its compare applies the stated relative tolerances and
compares window sizes, probes and supports exactly; invalid cases are refused; the recorded spec
functions are left as they were found."""

from __future__ import annotations

import copy

import mpmath
import pytest

from dpspec.conformance.families.shuffled_limits import FAMILY, HANDLERS
from dpspec.spec.shuffled import bary_linf, divisible, privacy
from tests.family_cases import find_case, generated_cases

CASES = generated_cases(FAMILY)


def test_window_values_are_compared_within_their_tolerance() -> None:
    case = find_case(CASES, "shl.bary.binomial_window", "upper tail is cut")
    want = case.expected
    assert want is not None
    assert FAMILY.compare(case, copy.deepcopy(want)) is None
    lost = float(want["lost"])
    assert FAMILY.compare(case, {**want, "lost": repr(lost * (1 + 1e-14))}) is None
    assert FAMILY.compare(case, {**want, "lost": repr(lost * (1 + 1e-9))}) is not None
    assert FAMILY.compare(case, {**want, "lost": "-" + want["lost"]}) is not None
    assert FAMILY.compare(case, {**want, "lost": "x"}) is not None
    assert FAMILY.compare(case, {**want, "atoms": str(int(want["atoms"]) + 1)}) is not None
    assert FAMILY.compare(case, {**want, "k0": "1"}) is not None


def test_count_windows_are_compared_one_by_one() -> None:
    case = find_case(CASES, "shl.bary.expected_linf", "200/100/0")
    want = case.expected
    assert want is not None and len(want["windows"]) == 3
    assert FAMILY.compare(case, copy.deepcopy(want)) is None
    fewer = {**want, "windows": want["windows"][:-1]}
    assert FAMILY.compare(case, fewer) is not None
    moved = copy.deepcopy(want)
    moved["windows"][1]["k0"] = str(int(moved["windows"][1]["k0"]) + 1)
    assert FAMILY.compare(case, moved) is not None
    # the interval is certified: lower below upper
    assert float(want["lower"]) < float(want["upper"])


def test_the_limits_themselves() -> None:
    def out(op: str, part: str) -> dict[str, object]:
        expected = find_case(CASES, op, part).expected
        assert expected is not None
        return expected

    top = out("shl.bary.binomial_window", "m = 1, p = 1 - 10^-70")
    assert (top["k0"], top["atoms"]) == ("1", "1")
    both = out("shl.bary.binomial_window", "both tails cut")
    assert int(str(both["k0"])) > 0 and int(str(both["k0"])) + int(str(both["atoms"])) < 2001
    assert out("shl.difference_pmf", "lambda 8")["probes"] == ["16", "32"]
    assert out("shl.difference_pmf", "lambda 21/10")["probes"] == ["16", "32"]
    assert out("shl.exact.pmf_array", "Poisson(0)")["support"] == "1"
    assert out("shl.exact.pmf_array", "Poisson(1)")["support"] == "62"
    assert out("shl.params.design_exact", "the tie")["d3"] == {"family": "poisson", "lambda": "0"}
    assert out("shl.privacy.largest_eps0", "eps 50")["eps0"] == ["40.0"]


def test_probes_and_supports_are_exact() -> None:
    case = find_case(CASES, "shl.difference_pmf", "lambda 8")
    assert case.expected is not None
    assert FAMILY.compare(case, {**case.expected, "probes": ["16", "32", "64"]}) is not None
    case = find_case(CASES, "shl.exact.pmf_array", "Poisson(1)")
    assert case.expected is not None
    assert FAMILY.compare(case, {"support": "61"}) is not None
    case = find_case(CASES, "shl.exact.correlated_delta", "the tie")
    assert case.expected is not None
    delta = float(case.expected["delta"])
    assert FAMILY.compare(case, {"delta": repr(delta * (1 + 1e-12))}) is None
    assert FAMILY.compare(case, {"delta": repr(delta * (1 + 1e-6))}) is not None


@pytest.mark.parametrize("op", sorted({c.op for c in CASES if c.result == "invalid"}))
def test_invalid_cases_are_refused_with_a_value_error(op: str) -> None:
    invalid = [c for c in CASES if c.op == op and c.result == "invalid"]
    assert invalid
    for c in invalid:
        with pytest.raises(ValueError):
            HANDLERS[op](dict(c.args))


def test_recorded_functions_are_restored() -> None:
    before = (bary_linf._count_window, divisible.Poisson.sf, privacy._largest_eps0)
    for part, op in (("200/200", "shl.bary.expected_linf"), ("lambda 8", "shl.difference_pmf"),
                     ("eps 50", "shl.privacy.largest_eps0")):
        HANDLERS[op](dict(find_case(CASES, op, part).args))
    assert (bary_linf._count_window, divisible.Poisson.sf, privacy._largest_eps0) == before


def test_slack_delta_tolerances_see_the_slack_bound() -> None:
    """The result there is the bound 1 - a = 5e-13 exactly; the formula alone is smaller by a
    relative 1e-12 or so, which the compare sees."""
    case = find_case(CASES, "shl.exact.slack_delta", "the bound 1 - a e^eps")
    want = case.expected
    assert want is not None
    assert FAMILY.compare(case, copy.deepcopy(want)) is None
    dmp = want["deltaMp"]
    assert "delta64" not in want  # the binary64 value depends on the rounding of 1 - a
    assert mpmath.mpf(dmp) == mpmath.mpf("5e-13")
    with mpmath.workdps(50):
        far, near = (mpmath.nstr(mpmath.mpf("5e-13") * (1 + mpmath.mpf(x)), 40)
                     for x in ("-1e-20", "1e-31"))
    assert FAMILY.compare(case, {**want, "deltaMp": far}) is not None
    assert FAMILY.compare(case, {**want, "deltaMp": near}) is None


def test_binary64_slack_bound_case_rejects_the_formula_alone() -> None:
    """D3 = Poisson(10^6): the formula alone (about 4.5474734928e-13) is 3.5e-9 below the bound
    2^-41 that is published, beyond the 1e-9 tolerance."""
    case = find_case(CASES, "shl.exact.correlated_delta", "Poisson(10^6)")
    assert case.expected is not None
    assert float(case.expected["delta"]) == pytest.approx(2.0**-41, rel=1e-11)
    assert FAMILY.compare(case, {"delta": "4.54747349276e-13"}) is not None


def test_fragmented_atoms_are_exact() -> None:
    case = find_case(CASES, "shl.fragmented.binomial_atoms", "m = 43")
    assert case.expected is not None
    assert FAMILY.compare(case, {**case.expected, "atoms": "43"}) is not None
