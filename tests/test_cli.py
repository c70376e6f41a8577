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
    """The command end to end on the committed set, restricted to three cheap families (the whole
    set: CI runs `dpspec vectors check` under the oldest dependencies, and
    tests/test_vectors.py regenerates and replays every file in process)."""
    out = run("vectors", "check", "--family", "tape", "--family", "realnum", "--family", "mjtb")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().endswith("tests: all match")
    families = ("tape", "realnum", "mjtb")  # the count of their files from the manifest (schemas
    # carry no family)
    manifest = json.loads((default_vectors_dir() / "MANIFEST.json").read_text(encoding="utf-8"))
    files = [f for f in manifest["files"] if f.get("family") in families]
    assert out.stdout.startswith(f"{len(files)} files, ")


def test_check_of_some_families_looks_only_at_them(tmp_path: Path) -> None:
    """--family: a damage in another family's file, a stray file elsewhere and the manifest are
    not looked at; an unknown family is a usage error naming the known ones."""
    copy = tmp_path / "vectors"
    shutil.copytree(default_vectors_dir(), copy)
    (copy / "realnum" / "bracket.json").write_text("{ not json")
    (copy / "samplers" / "extra.json").write_text("{}\n")
    out = run("vectors", "check", "--dir", str(copy), "--family", "tape")
    assert out.returncode == 0, out.stderr
    out = run("vectors", "check", "--dir", str(copy), "--family", "realnum")
    assert out.returncode == 1 and "realnum/bracket.json: not valid JSON" in out.stderr
    assert "samplers/extra.json" not in out.stderr
    out = run("vectors", "check", "--family", "nope")
    assert out.returncode == 2 and "no vector family 'nope'; known: accounting" in out.stderr


def test_generate_writes_the_committed_set_byte_for_byte(tmp_path: Path) -> None:
    """`vectors generate --out` writes exactly the committed files, byte for byte (generation in
    another process than the one that wrote vectors/; in-process determinism is
    tests/test_vectors.py::test_regeneration_is_deterministic)."""
    out = tmp_path / "v"
    assert main(["vectors", "generate", "--out", str(out), "-q"]) == 0
    root = default_vectors_dir()
    written = sorted(p.relative_to(out) for p in out.rglob("*") if p.is_file())
    assert written == sorted(p.relative_to(root) for p in root.rglob("*") if p.is_file())
    for rel in written:
        assert (out / rel).read_bytes() == (root / rel).read_bytes(), rel


def test_check_names_every_damage_by_file_and_test(tmp_path: Path) -> None:
    """One copy of the vectors with a different damage in each of several files, checked once (a
    whole check regenerates every family, so one run serves every damage): a changed value is
    named by file and tcId with both values, a file that is not JSON, a missing and a stray file,
    a file formatted otherwise; the damages do not hide each other and nothing else is reported."""
    copy = tmp_path / "vectors"
    shutil.copytree(default_vectors_dir(), copy)
    # a value changed in one test
    path = copy / "tape" / "random_tape.json"
    doc = json.loads(path.read_text())
    test = doc["testGroups"][0]["tests"][3]
    have = str(int(test["outputs"]["values"][0]) + 1)
    want = test["outputs"]["values"][0]
    test["outputs"]["values"][0] = have
    path.write_text(json.dumps(doc, indent=2, sort_keys=True) + "\n")
    # a file that is not JSON
    (copy / "tape" / "xof_turboshake128.json").write_text("{ not json")
    # a missing file and a stray one
    (copy / "tape" / "tape_boundaries.json").unlink()
    (copy / "tape" / "extra.json").write_text("{}\n")
    # the same content, formatted otherwise
    path = copy / "realnum" / sorted(p.name for p in (copy / "realnum").glob("*.json"))[0]
    path.write_text(json.dumps(json.loads(path.read_text())))
    reformatted = path.relative_to(copy).as_posix()

    # only the two damaged families: a whole check would regenerate every family for nothing
    out = run("vectors", "check", "--dir", str(copy), "--family", "tape", "--family", "realnum")
    assert out.returncode == 1 and "Traceback" not in out.stderr, out.stderr
    expected = [
        f"tape/random_tape.json: tcId {test['tcId']}",
        f'outputs.values[0] committed "{have}", regenerated "{want}"',
        "tape/xof_turboshake128.json: not valid JSON",
        "tape/tape_boundaries.json: missing",
        "tape/extra.json: not produced by any generator",
        f"{reformatted}: formatting differs",
    ]
    for message in expected:
        assert message in out.stderr, (message, out.stderr)
    named = {line.split(":", 1)[0] for line in out.stderr.splitlines()
             if ": " in line and not line.startswith(" ")}
    assert named <= {"tape/random_tape.json", "tape/xof_turboshake128.json", "tape/tape_boundaries.json",
                     "tape/extra.json", reformatted}, out.stderr
    assert out.stdout.strip().endswith("problems")


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
