"""Privacy verdicts: UNSAFE / EXACT / CONSERVATIVE, on their own and through the harness."""

from __future__ import annotations

import sys
from pathlib import Path

import mpmath
import pytest

from dpspec.conformance import verdicts
from dpspec.conformance.families import get_family
from dpspec.conformance.harness.adapters import AdapterSpec
from dpspec.conformance.harness.model import FAILED, PASSED, ImplResult, RunReport
from dpspec.conformance.harness.runner import run_impl
from dpspec.conformance.harness.suites import FamilySuite
from dpspec.conformance.report import summary_table, to_json, to_junit
from dpspec.conformance.store import default_vectors_dir
from dpspec.spec.accounting import gaussian

MISCALIBRATED = Path(__file__).resolve().parent / "adapters" / "miscalibrated.py"
CAL = {"eps": "1", "delta": "1e-8", "sensitivity": "1"}


def test_exact_sigma_is_exact() -> None:
    sigma = gaussian.calibrate_gaussian_sigma("1", "1e-8", 1, digits=15).sigma
    v = verdicts.judge("accounting.gaussian_sigma", CAL, {"sigma": sigma}, {"sigma": sigma})
    assert v is not None and v.status == verdicts.EXACT and not v.fails(None)


def test_sigma_a_billionth_above_is_conservative_not_a_failure() -> None:
    sigma = gaussian.calibrate_gaussian_sigma("1", "1e-8", 1, digits=15).exact
    above = mpmath.nstr(sigma * (1 + mpmath.mpf("1e-7")), 20)
    v = verdicts.judge("accounting.gaussian_sigma", CAL, {"sigma": above}, None)
    assert v is not None and v.status == verdicts.CONSERVATIVE
    assert 0.9e-7 < float(v.slack) < 1.1e-7
    assert not v.fails(None) and not v.fails(1e-3) and v.fails(1e-8)


def test_small_sigma_is_unsafe_with_the_true_delta_and_ratio() -> None:
    v = verdicts.judge("accounting.gaussian_sigma", CAL, {"sigma": "4"}, None)
    assert v is not None and v.status == verdicts.UNSAFE and v.fails(None)
    truth = gaussian.gaussian_delta("1", "4", "1")
    assert abs(mpmath.mpf(v.truth) / truth - 1) < 1e-10
    assert abs(float(v.ratio) - float(truth / mpmath.mpf("1e-8"))) < 1e-6 * float(v.ratio)
    assert "UNSAFE" in v.line() and "target" in v.line()


def test_understated_delta_is_unsafe_and_overstated_conservative() -> None:
    args = {"eps": "1", "sigma": "3", "sensitivity": "1"}
    truth = gaussian.gaussian_delta("1", "3", "1")
    low = verdicts.judge("accounting.gaussian_delta", args, {"delta": mpmath.nstr(truth / 2, 20)})
    high = verdicts.judge("accounting.gaussian_delta", args, {"delta": mpmath.nstr(truth * 2, 20)})
    assert low is not None and low.status == verdicts.UNSAFE and abs(float(low.ratio) - 2) < 1e-9
    assert high is not None and high.status == verdicts.CONSERVATIVE
    assert abs(float(high.slack) - 1) < 1e-9


def test_certified_intervals() -> None:
    args = {"eps": "1", "sigma": "3", "sensitivity": "1"}
    t = gaussian.gaussian_delta("1", "3", "1")

    def iv(lo: mpmath.mpf, hi: mpmath.mpf) -> dict[str, str]:
        return {"lower": mpmath.nstr(lo, 20), "upper": mpmath.nstr(hi, 20)}

    ok = verdicts.judge("accounting.gaussian_delta", args, {"delta": iv(t * 0.99, t * 1.01)})
    under = verdicts.judge("accounting.gaussian_delta", args, {"delta": iv(t * 0.5, t * 0.9)})
    over = verdicts.judge("accounting.gaussian_delta", args, {"delta": iv(t * 1.1, t * 1.2)})
    assert ok is not None and ok.status == verdicts.EXACT and 0.019 < float(ok.width) < 0.021
    assert under is not None and under.status == verdicts.UNSAFE
    assert over is not None and over.status == verdicts.WRONG and over.fails(None)
    with pytest.raises(ValueError):
        verdicts.judge("accounting.gaussian_delta", args, {"delta": iv(t * 2, t)})


def _run(factor: str, *extra: str, max_slack: float | None = None) -> ImplResult:
    spec = AdapterSpec(f"miscalibrated {factor}", (sys.executable, str(MISCALIBRATED), factor,
                                                   *extra), "test", bundled=False)
    suite = FamilySuite(get_family("accounting"), default_vectors_dir(), max_slack=max_slack)
    return run_impl(spec, [suite], timeout=120.0, startup_timeout=30.0)


def _judged(impl: ImplResult) -> list:  # type: ignore[type-arg]
    return [o for s in impl.suites for o in s.outcomes if o.verdict is not None]


def test_under_calibrated_adapter_is_reported_unsafe() -> None:
    impl = _run("0.9")
    judged = _judged(impl)
    assert judged and all(o.verdict["status"] == "UNSAFE" for o in judged
                          if o.verdict["truth"] not in ("0", "0.0"))
    assert all(o.status == FAILED for o in judged if o.verdict["status"] == "UNSAFE")
    assert impl.verdict_counts["UNSAFE"] >= 15 and impl.disposition == "FAIL"
    table = summary_table(RunReport(impls=[impl]))
    assert "UNSAFE" in table
    doc = to_json(RunReport(impls=[impl]))
    assert doc["implementations"][0]["verdicts"]["UNSAFE"] == impl.verdict_counts["UNSAFE"]
    assert doc["implementations"][0]["version"] == "0.9"
    assert 'type="unsafe"' in to_junit(RunReport(impls=[impl]))


def test_over_calibrated_adapter_is_conservative_and_passes_unless_max_slack() -> None:
    impl = _run("1.25")
    judged = _judged(impl)
    assert judged and all(o.status == PASSED for o in judged)
    assert impl.verdict_counts["CONSERVATIVE"] >= 15 and impl.verdict_counts["UNSAFE"] == 0
    noise = [o for o in judged if o.verdict.get("noise")]
    assert noise and all(abs(float(o.verdict["slack"]) - 0.25) < 1e-6 for o in noise)
    strict = _run("1.25", max_slack=0.1)
    assert all(o.status == FAILED for o in _judged(strict) if o.verdict["status"] == "CONSERVATIVE")
    assert strict.disposition == "FAIL"


def test_interval_answers_containing_the_truth_pass() -> None:
    impl = _run("1.01", "interval")
    privacy = [o for o in _judged(impl) if not o.verdict.get("noise")]
    assert privacy and all(o.verdict["status"] == "EXACT" and "width" in o.verdict
                           for o in privacy if o.verdict["truth"] not in ("0", "0.0"))


def test_privacy_family_reference_is_exact_and_under_calibration_unsafe() -> None:
    suite = FamilySuite(get_family("privacy"), default_vectors_dir())
    spec = AdapterSpec("exact", (sys.executable, str(MISCALIBRATED), "1"), "test", bundled=False)
    impl = run_impl(spec, [suite], timeout=120.0, startup_timeout=30.0)
    assert impl.disposition == "PASS"
    assert impl.verdict_counts["UNSAFE"] == 0 and impl.verdict_counts["EXACT"] >= 30
    # every extreme vector (delta < 1e-12 or eps >= 10) is there and judged
    extreme = [c for c in suite.cases() if "Extreme" in c.flags]
    assert len(extreme) >= 10
    under = run_impl(AdapterSpec("under", (sys.executable, str(MISCALIBRATED), "0.999"), "test",
                                 bundled=False), [suite], timeout=120.0, startup_timeout=30.0)
    unsafe = {o.test for s in under.suites for o in s.outcomes
              if o.verdict and o.verdict["status"] == "UNSAFE"}
    # every extreme answer scaled down by 0.1 % is UNSAFE, except the loose composition bounds
    # (advanced, KOV), which stay above the optimal composition, and pure compositions at delta 0
    loose = ("privacy.advanced_composition", "privacy.kov_composition")
    expected = {str(c.tc_id) for c in extreme if c.op not in loose}
    assert expected - unsafe <= {str(c.tc_id) for c in extreme if c.args.get("delta") == "0"}
    assert len(expected & unsafe) >= 8


def test_describe_names_arguments_outputs_and_verdict() -> None:
    from dpspec.conformance.commands.conformance import describe

    doc = describe("privacy.subsampled_gaussian_epsilon")
    assert {"q", "sigma", "steps", "delta", "orders", "conversion"} <= set(doc["arguments"])
    assert doc["outputs"] == ["eps"] and "privacy verdict" in doc["judgedBy"]
    assert doc["example"]["request"]["op"] == "privacy.subsampled_gaussian_epsilon"
    with pytest.raises(KeyError):
        describe("no.such_op")


def test_ops_by_mode_keeps_suites_of_other_modes_from_running(tmp_path: Path) -> None:
    script = tmp_path / "statonly.py"
    script.write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(Path(__file__).resolve().parents[1])!r})\n"
        "from dpspec.conformance.adapters.protocol import serve\n"
        "h = {'sampler.discrete_gaussian': lambda a: {}, 'tape.uniform': lambda a: {}}\n"
        "serve(h, implementation='s', version='1', modes=['exact', 'statistical'],\n"
        "      ops_by_mode={'statistical': ['sampler.discrete_gaussian'], 'exact': ['tape.uniform']})\n",
        encoding="utf-8")
    spec = AdapterSpec("statonly", (sys.executable, str(script)), "test", bundled=False)
    suites = [FamilySuite(get_family(n), default_vectors_dir()) for n in ("samplers", "tape")]
    impl = run_impl(spec, suites, timeout=30.0, startup_timeout=30.0)
    assert [s.name for s in impl.suites] == ["tape"]


def test_composition_claims_are_judged_by_the_optimal_composition() -> None:
    from dpspec.spec.accounting import composition

    args = {"eps": "0.1", "delta": "1e-7", "k": 50, "deltaSlack": "1e-6"}
    e, d = composition.advanced_composition("0.1", "1e-7", 50, "1e-6")
    named = verdicts.judge("privacy.advanced_composition", args,
                           {"eps": mpmath.nstr(e, 20), "delta": mpmath.nstr(d, 20)})
    assert named is not None and named.status == verdicts.CONSERVATIVE  # DRV10 is loose
    best = composition.optimal_composition_epsilon("0.1", "1e-7", 50, d)
    tight = verdicts.judge("privacy.advanced_composition", args,
                           {"eps": mpmath.nstr(best * (1 + mpmath.mpf("1e-12")), 20),
                            "delta": mpmath.nstr(d, 20)})
    assert tight is not None and tight.status == verdicts.EXACT  # a tighter valid bound is fine
    under = verdicts.judge("privacy.advanced_composition", args,
                           {"eps": mpmath.nstr(best * mpmath.mpf("0.9"), 20),
                            "delta": mpmath.nstr(d, 20)})
    assert under is not None and under.status == verdicts.UNSAFE and float(under.ratio) > 1


def test_negative_and_infinite_claims() -> None:
    args = {"rdp": "0", "alpha": "1000", "delta": "0.9"}
    neg = verdicts.judge("accounting.rdp_to_dp", args, {"eps": "-0.0078"})
    assert neg is not None and neg.status == verdicts.UNSAFE and neg.ratio == "inf"
    args2 = {"q": "0.3", "sigma": "0.8", "alpha": "1.5"}
    inf = verdicts.judge("accounting.sampled_gaussian_rdp", args2, {"rdp": "inf"})
    assert inf is not None and inf.status == verdicts.CONSERVATIVE and inf.fails(0.5)
