"""The dpspec command line: generate, check, errors without tracebacks."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dpspec.conformance.cli import main
from dpspec.conformance.store import default_vectors_dir


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "dpspec", *args],
                          capture_output=True, text=True, timeout=600)


def test_version() -> None:
    out = run("--version")
    assert out.returncode == 0 and out.stdout.startswith("dpspec ")


def test_check_passes_on_the_repository() -> None:
    out = run("vectors", "check")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().endswith("tests: all match")


def test_generate_twice_is_byte_identical(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    assert main(["vectors", "generate", "--out", str(a), "-q"]) == 0
    assert main(["vectors", "generate", "--out", str(b), "-q"]) == 0
    files_a = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
    assert files_a == sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file())
    for rel in files_a:
        assert (a / rel).read_bytes() == (b / rel).read_bytes()


@pytest.fixture()
def copy(tmp_path: Path) -> Path:
    dst = tmp_path / "vectors"
    shutil.copytree(default_vectors_dir(), dst)
    return dst


def test_corrupted_value_is_named_by_file_and_tcid(copy: Path) -> None:
    path = copy / "tape" / "random_tape.json"
    doc = json.loads(path.read_text())
    test = doc["testGroups"][0]["tests"][3]
    test["outputs"]["values"][0] = str(int(test["outputs"]["values"][0]) + 1)
    path.write_text(json.dumps(doc, indent=2, sort_keys=True) + "\n")
    out = run("vectors", "check", "--dir", str(copy))
    assert out.returncode == 1
    assert f"tape/random_tape.json: tcId {test['tcId']}" in out.stderr
    # the committed and the regenerated value are both shown
    have = test["outputs"]["values"][0]
    want = str(int(have) - 1)
    assert f'outputs.values[0] committed "{have}", regenerated "{want}"' in out.stderr
    assert "Traceback" not in out.stderr


def test_unparseable_file_is_named(copy: Path) -> None:
    (copy / "tape" / "xof_turboshake128.json").write_text("{ not json")
    out = run("vectors", "check", "--dir", str(copy))
    assert out.returncode == 1
    assert "tape/xof_turboshake128.json: not valid JSON" in out.stderr


def test_missing_and_stray_files(copy: Path) -> None:
    (copy / "tape" / "random_tape.json").unlink()
    (copy / "tape" / "extra.json").write_text("{}\n")
    out = run("vectors", "check", "--dir", str(copy))
    assert out.returncode == 1
    assert "tape/random_tape.json: missing" in out.stderr
    assert "tape/extra.json: not produced by any generator" in out.stderr


def test_reformatting_is_reported(copy: Path) -> None:
    path = copy / "tape" / "random_tape.json"
    path.write_text(json.dumps(json.loads(path.read_text())))
    out = run("vectors", "check", "--dir", str(copy))
    assert out.returncode == 1 and "formatting differs" in out.stderr


@pytest.mark.parametrize("argv", [["vectors", "nope"], ["nope"], ["vectors", "check", "--dir"],
                                  []])
def test_bad_arguments_give_one_line(argv: list[str]) -> None:
    out = run(*argv)
    assert out.returncode == 2
    assert out.stderr.startswith("dpspec: error:") and "Traceback" not in out.stderr


def test_check_of_missing_dir() -> None:
    out = run("vectors", "check", "--dir", "/nonexistent/dpspec")
    assert out.returncode == 2 and "no such folder" in out.stderr


def test_the_command_table_matches_the_modules() -> None:
    """`dpspec --help` lists commands from commands.COMMANDS without importing them; the table
    must name every module with the help line that module registers."""
    import argparse
    import importlib
    import pkgutil

    from dpspec.conformance import commands

    modules = sorted(m.name for m in pkgutil.iter_modules(commands.__path__))
    assert sorted(commands.COMMANDS) == modules
    for name in modules:
        sub = argparse.ArgumentParser().add_subparsers()
        importlib.import_module(f"{commands.__name__}.{name}").register(sub)
        [action] = sub._choices_actions
        assert (action.dest, action.help) == (name, commands.COMMANDS[name])


def test_quick_commands_import_no_heavy_library() -> None:
    """--version, --help and SUB --help never load scipy or matplotlib (speed: bench_cli.py)."""
    code = ("import sys\nfrom dpspec.conformance.cli import main\n"
            "for argv in (['--version'], ['--help'], ['account', '--help'], ['experiment', '--help'],"
            " ['tables', '--help']):\n"
            "    try:\n        main(argv)\n    except SystemExit:\n        pass\n"
            "heavy = sorted(m for m in ('scipy', 'matplotlib', 'sympy') if m in sys.modules)\n"
            "print('HEAVY=' + ','.join(heavy))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[-1] == "HEAVY="
