"""The accounting commands, the accounting vector family's tolerance rules, and the dp-accounting
adapter."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from dpspec.conformance.adapters import dp_accounting as dpa_adapter
from dpspec.conformance.cli import main
from dpspec.conformance.families.accounting import FAMILY
from dpspec.conformance.store import default_vectors_dir
from dpspec.conformance.vectors import Case


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_calibrate_gaussian(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "calibrate", "gaussian", "--epsilon", "0.317", "--delta", "1e-9",
                         "--sensitivity", "sqrt(2)", "--json")
    assert status == 0
    doc = json.loads(out)
    assert doc["sigma"] == "23.3907294069" and doc["rounding"] == "up"
    status, out, _ = run(capsys, "calibrate", "gaussian", "--epsilon", "0.317", "--delta", "1e-9",
                         "--sensitivity", "sqrt(2)", "--discrete")
    assert status == 0 and out.startswith("sigma = 23.3915792404")


def test_calibrate_discrete_considers_every_vector(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "calibrate", "gaussian", "--epsilon", "3", "--delta", "1e-3",
                         "--sensitivity", "2", "--discrete", "--json", "--digits", "10")
    doc = json.loads(out)
    assert status == 0
    assert sorted(map(tuple, doc["vectorsConsidered"])) == [(1, 1, 1, 1), (2,)]


def test_calibrate_errors(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "calibrate", "gaussian", "--epsilon", "0", "--delta", "1e-9",
                           "--sensitivity", "1")
    assert status == 2 and out == "" and err.startswith("dpspec: error:") and err.count("\n") == 1
    status, _, err = run(capsys, "calibrate", "gaussian", "--epsilon", "1", "--delta", "1e-9",
                         "--sensitivity", "sqrt(3.5)", "--discrete")
    assert status == 2 and "integer" in err


def test_calibrate_poisson(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "calibrate", "poisson", "--epsilon", "1", "--delta", "1e-6",
                         "--json")
    doc = json.loads(out)
    assert status == 0 and doc["lambda"] == "34.06790514"
    assert float(doc["theorem11Lambda"]) > 600


def test_account_shuffle_fallback_is_explicit(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "account", "shuffle", "--eps0", "4", "--n", "10000", "--delta",
                         "1e-10", "--bound", "closed", "--json")
    doc = json.loads(out)
    assert status == 0 and doc["valid"] is False and doc["bound"] == "fmt20"
    assert float(doc["epsilon"]) > 0.8  # the fallback, not the formula's 1.1 nor a small number
    status, out, _ = run(capsys, "account", "shuffle", "--eps0", "4", "--n", "10000", "--delta",
                         "1e-10", "--bound", "closed")
    assert "not applicable" in out


def test_account_subsampled(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "account", "subsampled-gaussian", "--sigma", "5.1", "--q", "0.02",
                         "--steps", "100", "--delta", "1e-8", "--json")
    doc = json.loads(out)
    assert status == 0 and 0 < float(doc["rdp"]["epsilon"]) < 1


def test_budget_flow(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    policy, state = tmp_path / "policy.json", tmp_path / "state.json"
    status, out, _ = run(capsys, "budget", "example")
    policy.write_text(out)
    assert run(capsys, "budget", "init", "--policy", str(policy), "--state", str(state))[0] == 0
    assert run(capsys, "budget", "init", "--policy", str(policy), "--state", str(state))[0] == 2
    q = ["--state", str(state), "--analysis", "keyboard", "--fields", "n-gram", "--eps0", "3",
         "--eps", "0.5", "--min-cohort", "5000"]
    status, out, _ = run(capsys, "budget", "check", *q)
    assert status == 0 and out.startswith("allowed")
    assert json.loads(state.read_text())["analyses"]["keyboard"]["kUsed"] == 0
    status, out, _ = run(capsys, "budget", "commit", *q)
    assert status == 0 and "recorded" in out
    assert json.loads(state.read_text())["analyses"]["keyboard"]["kUsed"] == 1
    status, out, _ = run(capsys, "budget", "commit", *q, "--json")
    assert status == 1 and json.loads(out)["failedCheck"] == 1
    status, _, err = run(capsys, "budget", "show", "--state", str(tmp_path / "missing.json"))
    assert status == 2 and "cannot read" in err


def test_tables_sa2_and_dp_draft(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "tables", "sa2", "--json")
    rows = json.loads(out)
    by = {(r["example"], r["printed"]): r for r in rows}
    assert by[("4", "0.61")]["holds"] is True
    assert by[("5", "0.8")]["holds"] is False
    status, out, _ = run(capsys, "tables", "dp-draft")
    assert status == 0 and "| 0.317 | 23.3903 |" in out and "DOES NOT HOLD" in out


def test_tables_mjtb_writes_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "tables", "mjtb", "--out", str(tmp_path))
    assert status == 0 and "Figure 1" in out
    png = tmp_path / "mjtb_figure1.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# -- the family's tolerance rules --------------------------------------------------------------
def _case(op: str, expected: dict[str, object]) -> Case:
    return Case("x", 1, op, {}, expected, "valid")


def test_compare_applies_tolerance() -> None:
    c = _case("accounting.gaussian_delta", {"delta": "1.0017463115617429233e-8"})
    assert FAMILY.compare(c, {"delta": "1.00174631156e-8"}) is None
    assert FAMILY.compare(c, {"delta": "1.0018e-8"}) is not None
    assert FAMILY.compare(c, {}) is not None
    assert FAMILY.compare(c, {"delta": "1.0017463115617429233e-8", "x": 1}) is not None


def test_compare_rejects_a_sigma_rounded_down() -> None:
    c = _case("accounting.gaussian_sigma", {"sigma": "23.3907294068218"})
    assert FAMILY.compare(c, {"sigma": "23.39072940682"}) is None
    assert FAMILY.compare(c, {"sigma": "23.3903"}) is not None


def test_compare_exact_fields() -> None:
    c = _case("accounting.shuffle_closed_form", {"valid": False, "eps": None})
    assert FAMILY.compare(c, {"valid": False, "eps": None}) is None
    assert FAMILY.compare(c, {"valid": True, "eps": None}) is not None
    assert FAMILY.compare(c, {"valid": False, "eps": "0.5"}) is not None


# -- the dp-accounting adapter -------------------------------------------------------------
def test_dp_accounting_adapter_passes_what_it_answers() -> None:
    """Every valid answer is judged PASSED (privacy verdicts: never UNSAFE); out-of-domain inputs
    that dp-accounting accepts are the library's behaviour (the adapter validates nothing), so
    they are only counted here."""
    from dpspec.conformance.harness.process import Response
    from dpspec.conformance.harness.suites import judge_with_verdict

    doc = json.loads((default_vectors_dir() / "accounting/accounting.json").read_text())
    cases = FAMILY.cases("accounting/accounting.json", doc)
    lines = [json.dumps({"id": i, "op": c.op, "args": c.args}) for i, c in enumerate(cases)]
    lines.append(json.dumps({"id": "cap", "op": "capabilities", "args": {}}))
    out = io.StringIO()
    dpa_adapter.serve_dp_accounting(io.StringIO("\n".join(lines) + "\n"), out)
    answers = [json.loads(x) for x in out.getvalue().splitlines()]
    assert answers[-1]["result"]["implementation"] == "dp-accounting"
    answered = 0
    for c, r in zip(cases, answers, strict=False):
        if "unsupported" in r or c.result == "invalid":
            continue
        answered += 1
        assert r["ok"], (c.comment, r)
        status, reason, verdict = judge_with_verdict(FAMILY, c, Response(True, r["result"]))
        assert status == "passed", (c.comment, reason)
        assert verdict is None or verdict["status"] != "UNSAFE"
    assert answered >= 25
