"""The accounting-shuffle-mp-windows vector family: every op has a tolerance, fixed-point
enclosures and sizes are compared exactly, mpmath values relatively, the boundary cases sit where
their comments say, the spec's functions are restored after an intermediate value is observed,
and invalid cases are refused."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import mpmath
import pytest

from dpspec.conformance.families.accounting_shuffle_mp_windows import (
    _ARG_NAMES,
    ATOMS_LAST,
    CDF_ABOVE,
    CDF_BELOW,
    FAMILY,
    HANDLERS,
    TOLERANCE,
)
from dpspec.conformance.vectors import Case
from dpspec.spec.accounting import shuffle_mp
from tests.family_cases import generated_cases

VECTORS = Path(__file__).resolve().parents[1] / "vectors"
CASES = generated_cases(FAMILY)


def _first(op: str, comment_part: str) -> Case:
    for c in CASES:
        if c.op.endswith("." + op) and comment_part in c.comment:
            return c
    raise AssertionError(f"no {op} case mentioning {comment_part!r}")


def test_every_op_has_a_tolerance_cases_and_valid_and_invalid_where_it_checks() -> None:
    assert set(HANDLERS) == set(TOLERANCE) == set(_ARG_NAMES)
    ops = {c.op for c in CASES}
    assert ops == set(HANDLERS)
    for op in ("binom_window", "fixed_binom_window", "fixed_window_size", "clone_limits",
               "clone_curve_delta"):
        results = {c.result for c in CASES if c.op.endswith("." + op)}
        assert results == {"valid", "invalid"}, op


def test_committed_outputs_are_reproduced() -> None:
    committed = []
    for f in FAMILY.files():
        doc = json.loads((VECTORS / f.path).read_text())
        committed += FAMILY.cases(f.path, doc)
    assert len(committed) == len(CASES)
    for c in committed:
        if c.result == "valid":
            assert FAMILY.compare(c, HANDLERS[c.op](dict(c.args))) is None, c.comment


def test_invalid_cases_are_refused() -> None:
    invalid = [c for c in CASES if c.result == "invalid"]
    assert len(invalid) >= 6
    for c in invalid:
        with pytest.raises((ValueError, TypeError, ArithmeticError)):
            HANDLERS[c.op](dict(c.args))


def test_fixed_point_enclosures_are_compared_exactly() -> None:
    case = _first("fixed_binom_window", "inside the widening")
    assert case.expected is not None
    assert case.expected["loPmf"][1] == str(2**63 - 1)
    outside = _first("fixed_binom_window", "outside the widening").expected
    assert outside is not None and outside["loPmf"][1] == str(2**63)
    changed = copy.deepcopy(case.expected)
    changed["loPmf"][1] = str(2**63)
    assert FAMILY.compare(case, changed) is not None
    changed = copy.deepcopy(case.expected)
    changed["lostFixed"] = "1"
    assert FAMILY.compare(case, changed) is not None


def test_window_values_are_compared_relatively() -> None:
    case = _first("binom_window", "both sides stop early")
    assert case.expected is not None
    lost = mpmath.mpf(case.expected["lost"])
    assert lost > 0
    changed = copy.deepcopy(case.expected)
    changed["lost"] = mpmath.nstr(lost * (1 + mpmath.mpf("1e-12")), 25)
    assert FAMILY.compare(case, changed) is not None
    changed = copy.deepcopy(case.expected)
    changed["lost"] = mpmath.nstr(lost * (1 + mpmath.mpf("1e-17")), 25)
    assert FAMILY.compare(case, changed) is None


def test_size_limits_are_met_on_both_sides() -> None:
    ok = _first("clone_limits", "exactly 1000000 atoms")
    assert ok.expected is not None and ok.expected["atoms"] == shuffle_mp.MAX_CLONE_ATOMS
    with pytest.raises(ValueError, match="1000001 atoms"):
        shuffle_mp.clone_limits("1", ATOMS_LAST + 1, "fmt22", mpmath.mpf("1e-6"))
    shuffle_mp.clone_limits(CDF_BELOW, 5_200_000_000, "fmt22", mpmath.mpf("1e-6"))
    with pytest.raises(ValueError, match="terms"):
        shuffle_mp.clone_limits(CDF_ABOVE, 5_200_000_000, "fmt22", mpmath.mpf("1e-6"))


def test_default_atom_budget_is_met_exactly() -> None:
    case = _first("fixed_window_size", "exactly the default")
    assert case.expected is not None and case.expected["atoms"] == shuffle_mp.MAX_ATOMS
    changed = copy.deepcopy(case.expected)
    changed["hiSum"] = str(int(changed["hiSum"]) + 1)
    assert FAMILY.compare(case, changed) is not None


def test_precision_helpers() -> None:
    dps = {c.args["bits"]: c.expected["dps"] for c in CASES
           if c.op.endswith(".fixed_dps") and c.expected is not None}
    assert dps == {64: 50, 100: 50, 103: 51, 200: 80}
    bits = [c.expected["bits"] for c in CASES if c.op.endswith(".fixed_bits") and c.expected]
    assert bits[0] == bits[1] == 103 + 64


def test_clone_curve_is_zero_at_eps0_and_positive_below() -> None:
    assert _first("clone_curve_delta", "eps = eps0").expected == {
        "bits": 171, "delta": "0", "windowAtoms": 10, "windowLo": 0}
    truncated = _first("clone_curve_delta", "leaves mass out").expected
    assert truncated is not None and truncated["delta"] == "0" and truncated["windowLo"] > 0
    odd = _first("clone_curve_delta", "odd count 1").expected
    assert odd is not None and odd["windowLo"] == 1 and mpmath.mpf(odd["delta"]) > 0


def test_observing_handlers_restore_the_spec_functions() -> None:
    before = (shuffle_mp._rounding, shuffle_mp.rr_pairs)
    for c in CASES:
        if c.op.endswith((".rr_rounding", ".rdp_route_cutoff")):
            out = HANDLERS[c.op](dict(c.args))
            assert out.get("allowance", out.get("cutoffs"))
    assert (shuffle_mp._rounding, shuffle_mp.rr_pairs) == before


@pytest.mark.parametrize("delta", ["0", "1", "-1e-6", "1e25", "2e25"])
def test_target_delta_outside_zero_one_is_refused_everywhere(delta: str) -> None:
    """A target delta sets a cut-off; one that is not a probability was read unchecked (1e25
    made the window leave out more than all the mass, 2e25 crashed with a TypeError)."""
    with mpmath.workdps(shuffle_mp.WPS):
        d = mpmath.mpf(delta)
        for call in (lambda: shuffle_mp.cutoff_for(d),
                     lambda: shuffle_mp.clone_limits("1", 100, "fmt22", d),
                     lambda: shuffle_mp.CloneCurve("1", 100, "fmt22", d),
                     lambda: shuffle_mp.rr_sum_delta("0.3", "1", 20, delta=d),
                     lambda: shuffle_mp.rappor_histogram_delta("0.3", "1", 20, d)):
            with pytest.raises(ValueError, match=r"delta must be in \(0, 1\)"):
                call()


def test_target_delta_inside_zero_one_keeps_its_cutoffs() -> None:
    with mpmath.workdps(shuffle_mp.WPS):
        tiny = mpmath.mpf("1e-300")
        assert shuffle_mp.cutoff_for(tiny) == tiny * mpmath.mpf(10) ** -30
        assert shuffle_mp.clone_limits("1", 100, "fmt22", tiny)[1] == tiny * mpmath.mpf(10) ** -25
