"""The sa2-fl-edges family: its boundary cases are the boundaries they claim to be."""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any

import mpmath

from dpspec.conformance.families import sa2_fl_edges
from dpspec.spec.accounting.numeric import round_down
from dpspec.spec.sa2 import fl


def _tests(op: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    out = []
    for g in sa2_fl_edges._groups():
        if g["op"] == op:
            out += [(g["params"], t) for t in g["tests"]]
    return out


def test_compare_is_exact() -> None:
    (params, t), *_ = [x for x in _tests("sa2fle.statement") if x[1]["result"] == "valid"
                       and x[1]["outputs"]["epsilon"] != "inf"]
    want = t["outputs"]
    case = type("C", (), {"expected": want})()
    assert sa2_fl_edges.FAMILY.compare(case, copy.deepcopy(want)) is None
    other = copy.deepcopy(want)
    other["derivation"] = other["derivation"].replace("reports", "report", 1)
    assert sa2_fl_edges.FAMILY.compare(case, other) is not None


def test_norm_bound_equality_case() -> None:
    eq = [t for _, t in _tests("sa2fle.steps") if "NormBoundEquality" in t["flags"]]
    assert len(eq) == 1
    out = eq[0]["outputs"]
    assert out["normSquared"] == out["normBound"] and out["report"] is not None


def test_clip_case_is_on_c_squared_with_a_non_dyadic_c() -> None:
    params, t = _tests("sa2fle.steps")[0]
    r = fl.GaussianVector.from_json(t["inputs"]["randomizer"])
    x = [Fraction(v) for v in t["inputs"]["update"]]
    assert sum(v * v for v in x) == r.clip_norm ** 2
    assert (r.clip_norm * (1 << 64)).denominator != 1


def test_precision_case_needs_40_digits() -> None:
    (params, t), *_ = _tests("sa2fle.multiplier")
    r = fl.GaussianVector.from_json(t["inputs"]["randomizer"])
    z2 = r.multiplier_squared(int(t["inputs"]["B"]))
    assert z2 < 1 and t["outputs"]["noiseMultiplier"] == "0.999999999999"
    with mpmath.workdps(39):  # too few digits: the rounding goes the wrong way
        assert round_down(mpmath.sqrt(mpmath.mpf(z2.numerator) / z2.denominator), 12) == \
            "1.00000000000"


def test_every_invalid_case_is_refused() -> None:
    for op in sa2_fl_edges.HANDLERS:
        for params, t in _tests(op):
            if t["result"] == "invalid":
                try:
                    sa2_fl_edges.HANDLERS[op]({**params, **t["inputs"]})
                except ValueError:
                    continue
                raise AssertionError(f"{op} tcId {t['tcId']} accepted")
