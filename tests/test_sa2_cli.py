"""``dpspec sa2 recipe|simulate``: recipes from a seed, refusals and errors without tracebacks."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from dpspec.conformance.cli import main
from dpspec.spec.sa2 import protocol

SEED = "00112233445566778899aabbccddeeff"


@pytest.fixture(scope="module")
def recipe_doc() -> dict[str, object]:
    import contextlib
    import io
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(["sa2", "recipe", "--seed", SEED, "--B", "500", "--q", "0.05"]) == 0
    doc: dict[str, object] = json.loads(buf.getvalue())
    return doc


def test_recipe_is_accepted_and_matches_the_seed(recipe_doc: dict[str, object]) -> None:
    recipe, stmt = protocol.check_recipe(recipe_doc, protocol.PrivacyBudget(Fraction(1), 1))
    assert recipe.B == 500 and recipe.q == Fraction(1, 20)
    # The claimed epsilon is the computed one rounded up to four significant digits.
    claimed = float(recipe.epsilon)
    assert float(stmt.epsilon) <= claimed < float(stmt.epsilon) * 1.001
    protocol.check_deployment(recipe, protocol.provision(bytes.fromhex(SEED)))


def test_simulate_refuses_a_recipe_over_budget(recipe_doc: dict[str, object], tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(recipe_doc))
    assert main(["sa2", "simulate", "--recipe", str(path), "--clients", "10", "--seed", SEED,
                 "--device-budget", "0.001"]) == 1
    assert "budget_exhausted" in capsys.readouterr().err


def test_simulate_refuses_a_tampered_recipe(recipe_doc: dict[str, object], tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    doc = dict(recipe_doc)
    doc["cohortSize"] = 20  # a server lowering B: the client's privacy check fails
    path = tmp_path / "r.json"
    path.write_text(json.dumps(doc))
    assert main(["sa2", "simulate", "--recipe", str(path), "--clients", "10", "--seed", SEED]) == 1
    assert "privacy_claim_not_met" in capsys.readouterr().err


@pytest.mark.parametrize(("argv", "message"), [
    (["sa2", "recipe", "--seed", "00"], "--seed must have 16"),
    (["sa2", "recipe", "--seed", "zz"], "--seed must be hex"),
    (["sa2", "recipe", "--seed", SEED, "--q", "0.5.1"], "is not a rational"),
    (["sa2", "recipe", "--seed", SEED, "--flip", "0"], "flip must be > 0"),
    (["sa2", "simulate", "--recipe", "/nonexistent.json", "--clients", "1", "--seed", SEED],
     "cannot read"),
    (["sa2", "simulate", "--recipe", "x", "--clients", "-1", "--seed", SEED], "must be >= 0"),
])
def test_errors_are_one_line(argv: list[str], message: str,
                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_not_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.json"
    path.write_text("{")
    assert main(["sa2", "simulate", "--recipe", str(path), "--clients", "1", "--seed", SEED]) == 2
    assert "is not JSON" in capsys.readouterr().err


def test_recipe_with_the_fmt22_accountant_claims_less(recipe_doc: dict[str, object],
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sa2", "recipe", "--seed", SEED, "--B", "500", "--q", "0.05",
                 "--randomizer", "binary_randomized_response",
                 "--accountant", "shuffle-fmt22"]) == 0
    doc = json.loads(capsys.readouterr().out)
    recipe, stmt = protocol.check_recipe(doc, protocol.PrivacyBudget(Fraction(1), 1))
    closed = protocol.parse_recipe(recipe_doc)
    assert recipe.accountant == "shuffle-fmt22" and recipe.epsilon < closed.epsilon
