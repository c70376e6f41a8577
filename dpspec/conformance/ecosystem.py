"""The third-party Python DP libraries the harness runs, pinned, and how to install them.

``dpspec conformance install`` installs them all (``pip install -e '.[ecosystem]'`` installs the
ones that share this project's environment; the command also creates the per-library virtual
environments). Libraries whose pins conflict with this project's environment get a virtual
environment of their own under :func:`venv_root` (``$DPSPEC_VENVS``, default
``~/.cache/dpspec/venvs``), created on first use by the install command:

* Tumult Core pins ``numpy<2`` and ``pandas<2`` (and pyspark) on Python < 3.12; its samplers need
  none of pyspark, so its environment holds ``tmlt.core`` (installed without dependencies) and
  the dependencies its ``tmlt.core.random`` package imports, pinned below.

Opacus needs torch (a large wheel), so it is a separate group: ``install --without opacus``
leaves it out.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

#: pins for this project's environment (the ``ecosystem`` extra of pyproject.toml lists the same)
SHARED: dict[str, tuple[str, ...]] = {
    "opendp": ("opendp==0.16.0",),
    "dp-accounting": ("dp-accounting==0.6.0",),
    "diffprivlib": ("diffprivlib==0.6.6", "scikit-learn==1.5.2"),
    "python-dp": ("python-dp==1.1.5",),
    "autodp": ("autodp==0.2.3.1",),
    "prv-accountant": ("prv-accountant==0.2.0",),
    "opacus": ("opacus==1.6.0", "torch==2.13.0"),
}


@dataclass(frozen=True)
class Venv:
    """A library in a virtual environment of its own."""

    name: str
    packages: tuple[str, ...]      # installed with their dependencies
    no_deps: tuple[str, ...]       # installed without (the library itself)
    probe: str                     # a module that must import

    def path(self) -> Path:
        return venv_root() / self.name

    def python(self) -> Path:
        return self.path() / "bin" / "python"

    def ready(self) -> str | None:
        """None if the environment exists and the library imports there; else why not."""
        if not self.python().is_file():
            return (f"its virtual environment {self.path()} does not exist "
                    "(run `dpspec conformance install`)")
        marker = self.path() / "dpspec-installed.txt"
        wanted = "\n".join((*self.packages, *self.no_deps))
        if not marker.is_file() or marker.read_text(encoding="utf-8") != wanted:
            return f"{self.path()} is not installed with the current pins (run `dpspec conformance install`)"
        return None


VENVS: dict[str, Venv] = {
    "tmlt-core": Venv(
        "tmlt-core",
        ("numpy==1.26.4", "scipy==1.17.1", "python-flint==0.9.0", "randomgen==2.3.0",
         "sympy==1.12.1", "typeguard==4.6.0", "pandas==1.5.3", "pyarrow==23.0.1", "setuptools"),
        ("tmlt-core==0.20.0",),
        "tmlt.core.random.discrete_gaussian"),
}


def venv_root() -> Path:
    return Path(os.environ.get("DPSPEC_VENVS", Path.home() / ".cache" / "dpspec" / "venvs"))


def _pip(python: str, *args: str) -> None:
    subprocess.run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                    *args], check=True)


def install(without: tuple[str, ...] = (), log: object = None) -> None:
    """Install every library (but ``without``): shared pins here, then the per-library venvs."""
    shared = [p for name, pins in SHARED.items() if name not in without for p in pins]
    if shared:
        print(f"installing {len(shared)} pinned packages into {sys.prefix}", file=sys.stderr)
        _pip(sys.executable, *shared)
    for venv in VENVS.values():
        if venv.name in without or venv.ready() is None:
            continue
        print(f"creating {venv.path()} for {venv.name}", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv.path())], check=True)
        _pip(str(venv.python()), *venv.packages)
        _pip(str(venv.python()), "--no-deps", *venv.no_deps)
        subprocess.run([str(venv.python()), "-c", f"import {venv.probe}"], check=True)
        (venv.path() / "dpspec-installed.txt").write_text(
            "\n".join((*venv.packages, *venv.no_deps)), encoding="utf-8")
