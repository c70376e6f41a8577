"""The installed package carries what it needs: build the wheel, install it into a fresh virtual
environment beside an unrelated distribution that owns the top-level module ``spec``, and run
``dpspec`` from an empty folder (no checkout on the path).

The fresh environment borrows the third-party dependencies of the test environment through a
``.pth`` line (so the test needs no network); dpspec itself comes only from the wheel. CI
(``.ci/run``) also installs the wheel with its dependencies resolved from the index.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.slow


def _run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=900)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, str]]:
    """(bin folder of the fresh venv, an empty working folder, environment)."""
    root = tmp_path_factory.mktemp("wheel")
    dist = root / "dist"
    built = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                  "-w", str(dist), str(REPO)], cwd=root)
    assert built.returncode == 0, built.stderr
    [wheel] = dist.glob("dpspec-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "dpspec/vectors/MANIFEST.json" in names
    assert "dpspec/vectors/schema/envelope-v1.json" in names
    assert "dpspec/vectors/vdaf-official/draft-08/Prio3Count_0.json" in names
    assert not any("node_modules" in n for n in names)

    # An unrelated distribution with a top-level module named ``spec``.
    other = root / "other-spec"
    (other / "spec").mkdir(parents=True)
    (other / "spec" / "__init__.py").write_text('"""Not dpspec."""\nOWNER = "other"\n')
    (other / "pyproject.toml").write_text(
        '[build-system]\nrequires = ["setuptools>=68"]\nbuild-backend = "setuptools.build_meta"\n'
        '[project]\nname = "other-spec-module"\nversion = "1.0"\n'
        '[tool.setuptools]\npackages = ["spec"]\n')

    env_dir = root / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    bin_dir = env_dir / ("Scripts" if os.name == "nt" else "bin")
    py = bin_dir / "python"
    site = _run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], cwd=root)
    purelib = Path(site.stdout.strip())
    (purelib / "borrowed-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    for target in (str(wheel), str(other)):
        inst = _run([sys.executable, "-m", "pip", "--python", str(py), "install", "--no-deps",
                     "--no-build-isolation", "-q", target], cwd=root)
        assert inst.returncode == 0, inst.stderr
    work = root / "empty"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "DPSPEC_VDAF_VECTORS")}
    env["PATH"] = str(bin_dir) + os.pathsep + env.get("PATH", "")
    return bin_dir, work, env


def test_dpspec_comes_from_the_wheel_and_spec_from_the_other_distribution(
        installed: tuple[Path, Path, dict[str, str]]) -> None:
    bin_dir, work, env = installed
    out = _run([str(bin_dir / "python"), "-c",
                "import dpspec, spec, dpspec.conformance.store as s; "
                "print(dpspec.__file__); print(spec.OWNER); print(s.default_vectors_dir())"],
               cwd=work, env=env)
    assert out.returncode == 0, out.stderr
    where, owner, vectors = out.stdout.split("\n")[:3]
    assert str(REPO) not in where and owner == "other"
    assert vectors.endswith(os.path.join("dpspec", "vectors"))


def test_installed_conformance_run_tests_the_shipped_vectors(
        installed: tuple[Path, Path, dict[str, str]]) -> None:
    bin_dir, work, env = installed
    version = _run([str(bin_dir / "dpspec"), "--version"], cwd=work, env=env)
    assert version.returncode == 0 and version.stdout.startswith("dpspec ")
    run = _run([str(bin_dir / "dpspec"), "conformance", "run", "--impl", "reference", "--quiet",
                "--suite", "tape", "--suite", "vdaf-official-20"], cwd=work, env=env)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "overall: PASS" in run.stdout and " 0 failed" in run.stdout
