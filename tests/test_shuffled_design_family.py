"""The shuffled-design vectors hold what they claim: the published roundings bracket their input,
the Theorem 18 splits spend exactly the target budget, the exact designs are private at their
target, the mechanism without D3 has delta = 1 - a, and compare applies its tolerances only
where the notes state them."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import mpmath

from dpspec.conformance.families.shuffled_design import FAMILY
from dpspec.conformance.vectors import Case

VECTORS = Path(__file__).resolve().parent.parent / "vectors" / "shuffled-design"


def _valid(name: str, op: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    doc = json.loads((VECTORS / name).read_text())
    return [({**g["params"], **t["inputs"]}, t) for g in doc["testGroups"] if g["op"] == op
            for t in g["tests"] if t["result"] == "valid"]


def _case(name: str, op: str, index: int = 0) -> Case:
    args, t = _valid(name, op)[index]
    return Case(path=name, tc_id=t["tcId"], op=op, args=args, expected=t["outputs"],
                result="valid", comment=t["comment"], flags=tuple(t["flags"]))


def test_decimal_roundings_bracket_their_input() -> None:
    tests = _valid("params.json", "shuffled.params.decimal")
    assert len(tests) >= 8
    for args, t in tests:
        x, unit = Fraction(args["x"]), Fraction(1, 10 ** args["digits"])
        up, down = Fraction(t["outputs"]["up"]), Fraction(t["outputs"]["down"])
        assert down <= x <= up and (up / unit).denominator == 1 == (down / unit).denominator
        assert up - down == (0 if (x / unit).denominator == 1 else unit)


def test_theorem18_splits_spend_the_target() -> None:
    with mpmath.workdps(40):
        for args, t in _valid("params.json", "shuffled.params.theorem18"):
            out = t["outputs"]
            a = Fraction(out["a"])
            eps1, eps2 = mpmath.mpf(out["epsilon1"]), mpmath.mpf(out["epsilon2"])
            d2, d3 = mpmath.mpf(out["delta2"]), mpmath.mpf(out["delta3"])
            exact_d3 = mpmath.mpf(a.numerator) ** (out["Delta"] + 1) / \
                mpmath.mpf(a.denominator) ** (out["Delta"] + 1)
            assert abs(d3 / exact_d3 - 1) < mpmath.mpf(10) ** -18
            assert abs(eps1 + mpmath.log(mpmath.mpf(a.numerator) / a.denominator)) < 1e-18
            delta = Fraction(args["delta"])
            total = mpmath.exp(eps1) * d2 + 2 * mpmath.exp(2 * eps1) * d3
            assert abs(total / (mpmath.mpf(delta.numerator) / delta.denominator) - 1) < 1e-15
            if "epsilon" in args and not args.get("nearCentral"):
                assert abs(eps1 + eps2 - mpmath.mpf(Fraction(args["epsilon"]).numerator)
                           / Fraction(args["epsilon"]).denominator) < 1e-18


def test_exact_designs_are_private_and_no_d3_means_one_minus_a() -> None:
    for args, t in _valid("params.json", "shuffled.params.exact"):
        assert float(t["outputs"]["exactDelta"]) <= float(Fraction(args["delta"]))
    for args, t in _valid("exact.json", "shuffled.exact.correlated_delta"):
        if args["d3"] in ({"family": "poisson", "lambda": "0"},
                          {"family": "negative_binomial", "r": "2", "p": "0"}):
            want = 1 - float(Fraction(args["a"]))
            assert abs(float(t["outputs"]["deltaMp"]) - want) < 1e-15
            assert abs(float(t["outputs"]["deltaBinary64"]) - want) < 1e-7
    point = _valid("exact.json", "shuffled.exact.brute_force")[0][1]
    assert float(point["outputs"]["deltaBinary64"]) == 0.5


def test_compare_applies_tolerances_only_where_stated() -> None:
    case = _case("exact.json", "shuffled.exact.correlated_delta", 2)
    out = dict(case.expected or {})
    assert FAMILY.compare(case, out) is None
    b64 = float(out["deltaBinary64"])
    assert FAMILY.compare(case, {**out, "deltaBinary64": repr(b64 * (1 + 1e-9))}) is None
    assert FAMILY.compare(case, {**out, "deltaBinary64": repr(b64 * (1 + 1e-6))}) is not None
    mp = mpmath.mpf(out["deltaMp"])
    assert FAMILY.compare(case, {**out, "deltaMp": mpmath.nstr(mp * (1 + 1e-16), 25)}) is not None
    assert FAMILY.compare(case, {**out, "extra": 1}) is not None
    design = _case("params.json", "shuffled.params.theorem18")
    got = json.loads(json.dumps(design.expected))
    got["d3"]["r"] = str(Fraction(got["d3"]["r"]) + Fraction(1, 10**12))
    assert FAMILY.compare(design, got) is not None
    got = {**(design.expected or {}), "Delta": (design.expected or {})["Delta"] + 1}
    assert FAMILY.compare(design, got) is not None


def test_every_input_check_has_an_invalid_case() -> None:
    handlers = FAMILY.handlers()
    seen: set[str] = set()
    for name in ("params.json", "exact.json", "compare.json"):
        doc = json.loads((VECTORS / name).read_text())
        for g in doc["testGroups"]:
            for t in g["tests"]:
                if t["result"] == "invalid":
                    seen.add(g["op"])
                    try:
                        handlers[g["op"]]({**g["params"], **t["inputs"]})
                    except ValueError:
                        continue
                    raise AssertionError(t["comment"])
    assert len(seen) >= 10
