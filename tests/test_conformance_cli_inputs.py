"""`dpspec conformance run` never succeeds silently: a mistyped folder, a vector folder that violates
the schemas, an unwritable report path or a run that tests nothing is an error with its reason."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dpspec.conformance.store import default_vectors_dir

FAKE = Path(__file__).resolve().parent / "adapters" / "fake.py"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "dpspec", "conformance", "run", "--quiet", *args],
                          capture_output=True, text=True, timeout=600)


def one_line_error(out: subprocess.CompletedProcess[str], status: int, *words: str) -> None:
    assert out.returncode == status, out.stdout + out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("dpspec: error: "), out.stderr
    for word in words:
        assert word in lines[0], lines[0]


@pytest.mark.parametrize(("argv", "words"), [
    (["--vectors", "/nonexistent/vectors"], ["--vectors", "no such folder"]),
    (["--vectors", "."], ["no MANIFEST.json"]),
    (["--vdaf-vectors", "/nonexistent/vdaf"], ["--vdaf-vectors", "no such folder"]),
    (["--vdaf-vectors", "."], ["neither draft-20/ nor draft-08/"]),
    (["--junit", "/nonexistent/dir/out.xml"], ["does not exist"]),
    (["--report-json", "."], ["is a folder"]),
])
def test_bad_folders_and_outputs_are_refused_before_the_run(argv: list[str], words: list[str]) -> None:
    one_line_error(run("--impl", "reference", "--suite", "tape", *argv), 2, *words)


def test_a_schema_violation_in_the_vectors_folder_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "v"
    shutil.copytree(default_vectors_dir(), folder)
    tape = folder / "tape" / "random_tape.json"
    tape.write_text(tape.read_text().replace('"result": "valid"', '"result": "bogus"', 1))
    one_line_error(run("--impl", "reference", "--suite", "tape", "--vectors", str(folder)), 2,
                   "tape/random_tape.json", "schema violation", "bogus")


def test_a_valid_copy_of_the_vectors_folder_runs(tmp_path: Path) -> None:
    folder = tmp_path / "v"
    shutil.copytree(default_vectors_dir(), folder)
    out = run("--impl", "reference", "--suite", "tape", "--vectors", str(folder))
    assert out.returncode == 0, out.stderr
    assert "overall: PASS" in out.stdout


def test_a_suite_with_no_tests_in_the_folder_is_an_error(tmp_path: Path) -> None:
    folder = tmp_path / "v"
    folder.mkdir()
    (folder / "MANIFEST.json").write_text('{"files": []}\n')
    one_line_error(run("--impl", "reference", "--suite", "tape", "--vectors", str(folder)), 2,
                   "suite tape cannot run", "no tests")


def test_an_implementation_that_supports_nothing_selected_fails_the_run() -> None:
    out = run("--impl", f"{sys.executable} {FAKE}", "--suite", "vdaf-official-20")
    one_line_error(out, 1, "nothing was tested")


def test_an_implementation_that_answers_unsupported_to_everything_fails_the_run() -> None:
    out = run("--impl", f"{sys.executable} {FAKE} unsupported", "--suite", "tape")
    one_line_error(out, 1, "nothing was tested")


def test_without_node_the_npm_step_says_what_is_skipped(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from dpspec.conformance.harness import npm
    from dpspec.conformance.harness.adapters import ADAPTERS_DIR

    shutil.copy(ADAPTERS_DIR / "package.json", tmp_path / "package.json")
    monkeypatch.setattr(npm.shutil, "which", lambda name: None)
    said: list[str] = []
    why = npm.ensure_npm_lock(said.append, tmp_path)
    assert why is not None and "Node.js is not installed" in why and "divviup-ts" in why
    assert said == [] and not (tmp_path / "node_modules").exists()
