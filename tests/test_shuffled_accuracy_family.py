"""The shuffled-accuracy vectors hold what they claim: compare applies the stated tolerance and
rejects a perturbed value, the published bary_linf intervals are ordered and bracket an
independent brute-force value, and the published MSEs and transcripts agree with each other."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import mpmath
import pytest

from dpspec.conformance.families.shuffled_accuracy import FAMILY, compare_outputs, h_bary_linf
from dpspec.conformance.vectors import Case

VECTORS = Path(__file__).resolve().parent.parent / "vectors" / "shuffled-accuracy"


def _tests(name: str, op: str) -> list[dict[str, Any]]:
    doc = json.loads((VECTORS / name).read_text())
    return [t for g in doc["testGroups"] if g["op"] == op for t in g["tests"]]


def _case(expected: dict[str, Any]) -> Case:
    return Case(path="x", tc_id=1, op="shuffled.bary_linf", args={}, expected=expected,
                result="valid", flags=())


def test_compare_tolerance_and_perturbation() -> None:
    want = h_bary_linf({"gamma": "1/3", "B": 3, "n": 5, "counts": [5, 0, 0]})
    assert compare_outputs(want, dict(want)) is None
    # within the stated relative tolerance of 1e-14
    nudged = dict(want, upper=mpmath.nstr(mpmath.mpf(want["upper"]) * (1 + mpmath.mpf("1e-16")), 20))
    assert compare_outputs(want, nudged) is None
    # a change in the 12th digit is refused, and so is a non-number and a missing key
    bad = dict(want, lower=mpmath.nstr(mpmath.mpf(want["lower"]) * (1 + mpmath.mpf("1e-12")), 20))
    assert compare_outputs(want, bad) is not None
    assert compare_outputs(want, dict(want, lower8="x")) is not None
    assert compare_outputs(want, {k: v for k, v in want.items() if k != "upper"}) is not None
    assert FAMILY.compare(_case(want), bad) is not None


def test_exact_outputs_compared_exactly() -> None:
    t = _tests("accuracy.json", "shuffled.accuracy.mechanism")[0]
    got = dict(t["outputs"], mse=t["outputs"]["mse"] + "0")
    assert compare_outputs(t["outputs"], got) is not None


def _brute(gamma: Fraction, counts: list[int]) -> Fraction:
    """E[max_j |X_j|] by enumerating every user's report (independent of bary_linf)."""
    b, n = len(counts), sum(counts)
    users = [j for j, c in enumerate(counts) for _ in range(c)]
    p1, p0 = 1 - gamma + gamma / b, gamma / b
    total = Fraction(0)
    for reports in itertools.product(range(b), repeat=n):
        pr = Fraction(1)
        for u, r in zip(users, reports, strict=True):
            pr *= p1 if u == r else p0
        err = max(abs((reports.count(j) - n * gamma / b) / (1 - gamma) - counts[j]) for j in range(b))
        total += pr * err
    return total


@pytest.mark.parametrize("t", [t for t in _tests("bary-linf.json", "shuffled.bary_linf")
                               if t["result"] == "valid"], ids=lambda t: str(t["tcId"]))
def test_bary_linf_interval(t: dict[str, Any]) -> None:
    out, args = t["outputs"], t["inputs"]
    lo, hi = Fraction(out["lower"]), Fraction(out["upper"])
    assert Fraction(out["lower8"]) <= lo <= hi <= Fraction(out["upper8"])
    if "ExactCase" in t["flags"]:
        assert hi - lo <= Fraction(3, 10**15) * max(hi, Fraction(1))
    if len(args["counts"]) ** args["n"] <= 1000:  # small enough to enumerate
        exact = _brute(Fraction(args["gamma"]), args["counts"])
        assert lo <= exact <= hi


def test_baseline_transcripts_are_consistent() -> None:
    for t in _tests("baselines.json", "shuffled.baseline.run"):
        if t["result"] != "valid":
            continue
        a, out = t["inputs"], t["outputs"]
        n = a["n"]
        if a["mechanism"] == "rr":
            assert out["ones"] == sum(out["reports"])
            p = Fraction(a["p"])
            assert Fraction(out["estimate"]) == (out["ones"] - n * p) / (1 - 2 * p)
            if p == 0:
                assert out["reports"] == a["x"]
        else:
            assert sum(out["counts"]) == (n if a["mechanism"] == "bary_rr" else
                                          sum(map(sum, out["reports"])))
        assert all(b >= 0 for b in out["bitsConsumed"]) and len(out["bitsConsumed"]) == n


def test_bary_rr_bucket_mse_mean() -> None:
    for t in _tests("accuracy.json", "shuffled.accuracy.baseline_mse"):
        if t["result"] == "valid" and "bucketMse" in t["outputs"]:
            ms = [Fraction(x) for x in t["outputs"]["bucketMse"]]
            assert sum(ms) / len(ms) == Fraction(t["outputs"]["mse"])


def test_real_values_are_not_binary64() -> None:
    """rmse^2 reproduces the exact MSE to the published 20 digits (a binary64 value would not),
    and E|X| of one DLap(1/2) error is 2a/(1 - a^2) = 4/3."""
    for t in _tests("accuracy.json", "shuffled.accuracy.mechanism"):
        if t["result"] == "valid":
            mse = Fraction(t["outputs"]["mse"])
            rmse = Fraction(t["outputs"]["rmse"])
            assert abs(rmse * rmse - mse) <= Fraction(4, 10**19) * mse
    one = _tests("linf.json", "shuffled.linf")[0]
    assert one["inputs"] == {"kind": "dlap", "a": "1/2", "B": 1}
    assert abs(Fraction(one["outputs"]["expectedLinf"]) - Fraction(4, 3)) < Fraction(1, 10**19)


def test_compare_refuses_inward_8_digit_ends() -> None:
    """lower8/upper8 must lie outside the 16-digit ends: one unit of the 8th digit inwards is
    within the 1e-7 tolerance but is refused by the one-sided check."""
    want = h_bary_linf({"gamma": "1/3", "B": 3, "n": 5, "counts": [1, 2, 2]})
    lo8, hi8 = Fraction(want["lower8"]), Fraction(want["upper8"])
    unit = Fraction(1, 10**7)  # the 8th significant digit of values in [1, 10)
    assert Fraction(1) <= lo8 < hi8 < Fraction(10)
    assert compare_outputs(want, dict(want, lower8=str(float(lo8 + unit)))) is not None
    assert compare_outputs(want, dict(want, upper8=str(float(hi8 - unit)))) is not None
    assert compare_outputs(want, dict(want, lower8=str(float(lo8 - unit)))) is None


def test_spec_errors_other_than_checks_fail_the_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    """A division by zero or a ValueError that is not a ParameterError of the spec's checks is a
    reference failure (RuntimeError), not a refusal the replay would accept."""
    from dpspec.conformance.families import shuffled_accuracy as fam
    from dpspec.spec.shuffled import accuracy as acc

    def broken(*_: Any, **__: Any) -> Any:
        raise ZeroDivisionError("1 / 0")

    monkeypatch.setattr(acc, "central_dlap_rmse", broken)
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        fam.HANDLERS["shuffled.accuracy.dlap"]({"epsilon": "1"})

    def comb_error(*_: Any, **__: Any) -> Any:
        raise ValueError("math.comb of a negative number")

    monkeypatch.setattr(fam, "bary_rr_expected_linf", comb_error)
    with pytest.raises(RuntimeError, match="without a check"):
        fam.HANDLERS["shuffled.bary_linf"]({"gamma": "1/3", "B": 3, "n": 5, "counts": [5, 0, 0]})
    # a check of the family itself (here: gamma's text) is still a refusal
    with pytest.raises(ValueError):
        fam.HANDLERS["shuffled.bary_linf"]({"gamma": "x", "B": 3, "n": 5, "counts": [5, 0, 0]})


def test_signed_decimal() -> None:
    """A negative spec result is published (rounded towards minus infinity), not refused."""
    from dpspec.conformance.families.shuffled_accuracy import _signed_dec

    assert _signed_dec(mpmath.mpf(-1) / 3, 5) == "-0.33334"
    assert _signed_dec(mpmath.mpf(1) / 3, 5) == "0.33333"
