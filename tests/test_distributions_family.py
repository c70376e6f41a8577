"""The ``distributions`` vector family: enclosures, its tolerant compare, and its invalid cases."""

from __future__ import annotations

import json
from decimal import Decimal

import mpmath
import pytest

from dpspec.conformance.families.distributions import FAMILY, HANDLERS, compare_enclosure
from dpspec.conformance.store import default_vectors_dir, replay

DOC = json.loads((default_vectors_dir() / "distributions" / "pmf.json").read_text())
CASES = FAMILY.cases("distributions/pmf.json", DOC)


def _case(op: str, **inputs: str):  # type: ignore[no-untyped-def]
    for case in CASES:
        if case.op == op and case.args == inputs:
            return case
    raise LookupError((op, inputs))


def test_every_case_replays() -> None:
    assert all(replay(FAMILY, c) is None for c in CASES)


def test_enclosures_contain_an_independent_value() -> None:
    """Values recomputed at 80 digits from the closed forms lie inside the published ends."""
    with mpmath.workdps(80):
        a = mpmath.exp(-mpmath.mpf(2) / 5)
        checks = {
            ("distributions.discrete_laplace_pmf", "5/2", "-7"): (1 - a) / (1 + a) * a**7,
            ("distributions.poisson_pmf", "10", "40"):
                mpmath.mpf(10) ** 40 * mpmath.exp(-10) / mpmath.factorial(40),
        }
        for (op, p, x), truth in checks.items():
            key = "t" if op.endswith("laplace_pmf") else "lambda"
            k = "x" if key == "t" else "k"
            out = _case(op, **{key: p, k: x}).expected
            assert out is not None
            assert mpmath.mpf(out["lower"]) <= truth <= mpmath.mpf(out["upper"])
            assert out["lower"] != out["upper"]


def test_compare_tolerance() -> None:
    exp = {"lower": "0.170003401568547919902157746194",
           "upper": "0.170003401568547919902157746195"}
    assert compare_enclosure(exp, {"value": "0.1700034015685479199021577461945"}) is None
    assert compare_enclosure(exp, dict(exp)) is None
    assert compare_enclosure(exp, {"value": "0.17000340156854791990216"}) is not None
    assert compare_enclosure(exp, {"value": "0.17000340156854792"}) is not None  # binary64
    assert compare_enclosure(exp, {"lower": exp["upper"], "upper": exp["lower"]}) is not None
    assert compare_enclosure(exp, {}) is not None
    assert compare_enclosure(exp, {"value": 0.17}) is not None
    assert compare_enclosure(exp, {"value": "0.17", "p": "1"}) is not None
    zero = {"lower": "0", "upper": "0"}
    assert compare_enclosure(zero, {"value": "0"}) is None
    assert compare_enclosure(zero, {"value": "1e-400"}) is not None
    tiny = {"lower": "5.60162915310219114000919706268e-19544",
            "upper": "5.60162915310219114000919706269e-19544"}
    assert compare_enclosure(tiny, {"value": "5.601629153102191140009197062685e-19544"}) is None
    assert compare_enclosure(tiny, {"value": "0"}) is not None


def test_compare_is_applied_by_the_family() -> None:
    case = _case("distributions.geometric_pmf", p="1/3", k="5")
    assert case.expected is not None
    assert FAMILY.compare(case, {"value": case.expected["upper"]}) is None
    bumped = Decimal(case.expected["upper"]) * (1 + Decimal("1e-20"))
    assert FAMILY.compare(case, {"value": str(bumped)}) is not None
    bern = _case("distributions.bernoulli_pmf", p="1/3", k="0")
    assert FAMILY.compare(bern, {"value": "2/3"}) is None
    assert FAMILY.compare(bern, {"value": "0.6666666666666666"}) is not None


@pytest.mark.parametrize("case", [c for c in CASES if c.result == "invalid"],
                         ids=lambda c: f"tc{c.tc_id}")
def test_invalid_cases_are_refused(case) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError):
        HANDLERS[case.op](dict(case.args))


def test_every_op_has_valid_and_invalid_tests() -> None:
    for op in HANDLERS:
        results = {c.result for c in CASES if c.op == op}
        assert results == {"valid", "invalid"}, op


def test_sampler_pmf_matches_the_direct_op() -> None:
    """The registry's pmf of a sampler agrees with the pmf op of its distribution."""
    via = HANDLERS["distributions.sampler_pmf"](
        {"sampler": "binomial", "params": {"n": "6", "p": "2/5"}, "x": "3"})
    direct = HANDLERS["distributions.binomial_pmf"]({"n": "6", "p": "2/5", "k": "3"})
    assert via == {**direct, "signature": "binomial(n: integer, p: rational)"}
    case = next(c for c in CASES if c.op == "distributions.sampler_pmf" and c.result == "valid")
    assert case.expected is not None
    wrong = {**case.expected, "signature": "x()"}
    assert FAMILY.compare(case, wrong) is not None
    assert FAMILY.compare(case, dict(case.expected)) is None
