"""The optimal (PLD) subsampled-Gaussian ops of the privacy family: verdicts against the certified
interval, the vectors, the bundled adapters that answer them, and ``--method pld``."""

from __future__ import annotations

import json

import mpmath
import pytest

from dpspec.conformance import verdicts
from dpspec.conformance.cli import main
from dpspec.conformance.families import get_family
from dpspec.conformance.families.privacy import judge_bracket
from dpspec.conformance.harness.suites import FamilySuite
from dpspec.conformance.store import default_vectors_dir

OP = "privacy.subsampled_gaussian_optimal_epsilon"


def _vector_cases(op: str) -> list:  # type: ignore[type-arg]
    suite = FamilySuite(get_family("privacy"), default_vectors_dir())
    return [c for c in suite.cases() if c.op == op]


def test_judge_bracket() -> None:
    lo, hi = mpmath.mpf("1.0"), mpmath.mpf("1.1")
    assert judge_bracket("eps", "eps", "0.9", lo, hi, "t").status == verdicts.UNSAFE
    inside = judge_bracket("eps", "eps", "1.05", lo, hi, "t")
    assert inside.status == verdicts.EXACT and inside.width
    assert judge_bracket("eps", "eps", "1", lo, hi, "t").status == verdicts.EXACT
    above = judge_bracket("eps", "eps", "1.21", lo, hi, "t")
    assert above.status == verdicts.CONSERVATIVE and abs(float(above.slack) - 0.1) < 1e-9
    assert above.fails(0.05) and not above.fails(None)
    assert judge_bracket("eps", "eps", "inf", lo, hi, "t").status == verdicts.CONSERVATIVE
    iv = judge_bracket("eps", "eps", {"lower": "0.5", "upper": "0.99"}, lo, hi, "t")
    assert iv.status == verdicts.UNSAFE and iv.fails(None)
    iv = judge_bracket("eps", "eps", {"lower": "1.2", "upper": "1.3"}, lo, hi, "t")
    assert iv.status == verdicts.WRONG
    iv = judge_bracket("eps", "eps", {"lower": "0.5", "upper": "1.01"}, lo, hi, "t")
    assert iv.status == verdicts.EXACT
    with pytest.raises(ValueError):
        judge_bracket("eps", "eps", {"lower": "2", "upper": "1"}, lo, hi, "t")


def test_vectors_hold_outward_intervals() -> None:
    cases = _vector_cases(OP) + _vector_cases("privacy.subsampled_gaussian_optimal_delta")
    valid = [c for c in cases if c.result == "valid"]
    assert len(valid) >= 9 and len(cases) - len(valid) >= 6
    for c in valid:
        key = "eps" if c.op == OP else "delta"
        iv = c.expected[key]
        lo, hi = mpmath.mpf(iv["lower"]), mpmath.mpf(iv["upper"])
        assert 0 <= lo <= hi and (hi - lo) / hi < 0.005, (c.comment, iv)
    seed = next(c for c in valid if c.args.get("delta") == "1e-8")
    iv = seed.expected["eps"]
    # SA2 Example 5: the optimal eps is below the RDP value of the paper's setting
    assert mpmath.mpf("1.02") < mpmath.mpf(iv["lower"]) < mpmath.mpf(iv["upper"]) < 1.021


@pytest.fixture
def composed_once(monkeypatch: pytest.MonkeyPatch) -> dict[tuple[object, ...], object]:
    """``pld.composed`` memoised for one test: two judgments (or CLI runs) of the same arguments
    compute the curves once. Returns the memo (one entry per distinct computation)."""
    from dpspec.spec.accounting import pld

    memo: dict[tuple[object, ...], object] = {}
    composed = pld.composed

    def once(*args: object, **kwargs: object) -> object:
        key = (args, tuple(sorted(kwargs.items())))
        if key not in memo:
            memo[key] = composed(*args, **kwargs)  # type: ignore[arg-type]
        return memo[key]

    monkeypatch.setattr(pld, "composed", once)
    return memo


def test_rule_recomputes_when_no_vector(composed_once: dict[tuple[object, ...], object]) -> None:
    args = {"q": "0.1", "sigma": "2", "steps": 20, "delta": "1e-5"}
    v = verdicts.judge(OP, args, {"eps": "0.0001"})
    assert v is not None and v.status == verdicts.UNSAFE
    v = verdicts.judge(OP, args, {"eps": "100"})
    assert v is not None and v.status == verdicts.CONSERVATIVE
    assert len(composed_once) == 1


def test_scaled_answers_are_judged() -> None:
    """Judged against the vectors' intervals: the interval itself and its ends are EXACT; scaled
    down by 0.1 % it is UNSAFE wherever the certified interval is narrower than that; 1 % above
    the upper end is CONSERVATIVE. (The harness path is in test_verdicts, through the
    miscalibrated adapter.)"""
    cases = [c for op in (OP, "privacy.subsampled_gaussian_optimal_delta")
             for c in _vector_cases(op) if c.result == "valid"]
    unsafe = 0
    for c in cases:
        assert c.expected is not None
        key = next(iter(c.expected))
        iv = c.expected[key]
        lo, hi = mpmath.mpf(iv["lower"]), mpmath.mpf(iv["upper"])

        def status(answer: object, c: object = c, key: str = key) -> str:
            v = verdicts.judge(c.op, c.args, {key: answer}, c.expected)  # type: ignore[attr-defined]
            assert v is not None
            return v.status

        assert status(iv) == status(iv["lower"]) == status(iv["upper"]) == verdicts.EXACT
        assert status(mpmath.nstr(hi * mpmath.mpf("1.01"), 15)) == verdicts.CONSERVATIVE
        scaled = {"lower": mpmath.nstr(lo * mpmath.mpf("0.999"), 15),
                  "upper": mpmath.nstr(hi * mpmath.mpf("0.999"), 15)}
        if hi * mpmath.mpf("0.999") < lo:
            assert status(scaled) == status(scaled["upper"]) == verdicts.UNSAFE
            unsafe += 1
    assert unsafe >= 6


def test_bundled_adapters_answer_natively() -> None:
    args = {"q": "0.02", "sigma": "5.1", "steps": 400, "delta": "1e-6"}
    pytest.importorskip("dp_accounting")
    from dpspec.conformance.adapters import dp_accounting

    answer = dp_accounting.handlers()[OP](dict(args))
    v = verdicts.judge(OP, args, answer)
    assert v is not None and v.status == verdicts.EXACT and v.width
    answer = dp_accounting.handlers()["privacy.subsampled_gaussian_optimal_delta"](
        {"q": "0.02", "sigma": "5.1", "steps": 400, "eps": "0.5"})
    v = verdicts.judge("privacy.subsampled_gaussian_optimal_delta",
                       {"q": "0.02", "sigma": "5.1", "steps": 400, "eps": "0.5"}, answer)
    assert v is not None and not v.fails_privacy


def test_cli_method_pld(capsys: pytest.CaptureFixture[str],
                        composed_once: dict[tuple[object, ...], object]) -> None:
    status = main(["account", "subsampled-gaussian", "--sigma", "2", "--q", "0.1", "--steps", "20",
                   "--delta", "1e-6", "--method", "pld", "--json", "--no-cross-check"])
    out, _ = capsys.readouterr()
    assert status == 0
    doc = json.loads(out)["optimal"]
    lo, hi = mpmath.mpf(doc["lower"]), mpmath.mpf(doc["upper"])
    assert 0 < lo <= hi < 2 and len(doc["lower"].replace(".", "").lstrip("0")) <= 10
    status = main(["account", "subsampled-gaussian", "--sigma", "2", "--q", "0.1", "--steps", "20",
                   "--delta", "1e-6", "--method", "pld", "--no-cross-check"])
    out, _ = capsys.readouterr()
    assert status == 0 and out.startswith(f"eps in [{doc['lower']}, {doc['upper']}]")
    status = main(["account", "subsampled-gaussian", "--sigma", "2", "--q", "0", "--steps", "20",
                   "--delta", "1e-6", "--method", "pld", "--no-cross-check"])
    _, err = capsys.readouterr()
    assert status == 2 and "q must be" in err and "Traceback" not in err
    assert len(composed_once) == 1
