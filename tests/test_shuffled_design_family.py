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


def test_correlated_delta_mp_tail_is_the_one_the_note_states() -> None:
    """At a = 1 - 10^-30 and eps 1 only the term m = 0 of the sum is positive, so delta_mp is
    (1 - a) P[D3 = 0] plus P[D3 > hi] at the hi of the TailCut note (32 for poisson(57/100), whose
    tail there is below 10^-45; 64 for poisson(3/5), whose tail at 32 is not)."""
    tests = _valid("exact.json", "shuffled.exact.correlated_delta_mp")
    assert len(tests) >= 3
    with mpmath.workdps(60):
        for args, t in tests[:2]:
            a, lam = Fraction(args["a"]), Fraction(args["d3"]["lambda"])
            assert 1 - a == Fraction(1, 10**30)
            lam_mp = mpmath.mpf(lam.numerator) / lam.denominator
            hi = 32 if lam == Fraction(57, 100) else 64
            tail = mpmath.gammainc(hi + 1, 0, lam_mp, regularized=True)
            want = mpmath.mpf(10) ** -30 * mpmath.exp(-lam_mp) + tail
            got = mpmath.mpf(t["outputs"]["deltaMp"])
            assert abs(got / want - 1) < mpmath.mpf(10) ** -18
            if hi == 32:
                assert mpmath.mpf(10) ** -46 < tail <= mpmath.mpf(10) ** -45
            else:
                assert mpmath.gammainc(33, 0, lam_mp, regularized=True) > mpmath.mpf(10) ** -45
    # the mp-only op agrees with the mpmath output of correlated_delta where both apply
    both = _valid("exact.json", "shuffled.exact.correlated_delta")
    args, t = tests[2]
    twin = [u for b, u in both if (b["epsilon"], b["a"], b["d3"]) ==
            (args["epsilon"], args["a"], args["d3"])]
    assert twin and twin[0]["outputs"]["deltaMp"] == t["outputs"]["deltaMp"]
    handler = FAMILY.handlers()["shuffled.exact.correlated_delta_mp"]
    for bad in ("1", "0", "3/2"):
        try:
            handler({**args, "a": bad})
        except ValueError:
            continue
        raise AssertionError(f"a = {bad} accepted")


def test_binary_comparison_defaults_when_the_flags_are_absent() -> None:
    """Without theorems / nearCentral the handler uses binary_comparison's defaults: the rows by
    Theorems 18 + 13 and 11, and no near-central rows."""
    tests = _valid("params.json", "shuffled.compare.binary")
    assert len(tests) == 1
    args, t = tests[0]
    assert "theorems" not in args and "nearCentral" not in args
    keys = [row["key"] for row in t["outputs"]["rows"]]
    assert "correlated_thm" in keys and "poisson_thm" in keys
    assert not any(k.startswith("near_central") for k in keys)


def test_brute_force_with_a_tiny_true_delta_shows_its_cut() -> None:
    """With D3 = (10^-30, 1 - 10^-30), a = 1/2 and eps 100 the true delta is about 5e-31; the brute
    force returns the mass its cut geometrics (j <= zmax = 61) leave to one dataset only, 2^-62."""
    tests = _valid("exact.json", "shuffled.exact.brute_force")
    tiny = [t for args, t in tests if args["epsilon"] == "100"]
    assert len(tiny) == 1
    assert abs(float(tiny[0]["outputs"]["deltaBinary64"]) / 2.0**-62 - 1) < 1e-7
