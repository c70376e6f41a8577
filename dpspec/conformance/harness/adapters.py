"""The bundled adapters: how to start each, and whether it is installed here.

``--impl`` takes one of these names or, for anything else, a command line (split like a shell
would) that starts an adapter speaking :doc:`dpspec/conformance/PROTOCOL.md`.
"""

from __future__ import annotations

import importlib.util
import shlex
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ADAPTERS_DIR = Path(__file__).resolve().parent.parent / "adapters"


@dataclass(frozen=True)
class AdapterSpec:
    """A way to start an implementation under test."""

    name: str
    command: tuple[str, ...]
    summary: str
    bundled: bool = True
    check: Callable[[], str | None] = lambda: None
    cwd: str | None = None
    #: a third-party DP library (run by ``dpspec conformance ecosystem`` or when named, not by a
    #: plain ``dpspec conformance run``: its failures are findings about the library)
    ecosystem: bool = False

    def missing(self) -> str | None:
        """None if it can run here; else what is missing."""
        return self.check()


def _python_module(module: str, *needs: str) -> Callable[[], str | None]:
    def check() -> str | None:
        for name in (module, *needs):
            try:
                found = importlib.util.find_spec(name)
            except (ImportError, ValueError):
                found = None
            if found is None:
                return f"Python module {name} is not installed"
        return None
    return check


def _node(script: Path, *packages: str) -> Callable[[], str | None]:
    def check() -> str | None:
        if shutil.which("node") is None:
            return "node is not on PATH"
        if not script.is_file():
            return f"{script} is missing"
        for package in packages:
            if not (ADAPTERS_DIR / "node_modules" / package / "package.json").is_file():
                return (f"npm package {package} is not installed "
                        f"(run `npm ci` in {ADAPTERS_DIR})")
        return None
    return check


def bundled() -> dict[str, AdapterSpec]:
    """The bundled adapters, the reference first."""
    from dpspec.conformance.ecosystem import VENVS

    py = sys.executable
    tmlt = VENVS["tmlt-core"]
    divviup = ADAPTERS_DIR / "divviup_ts" / "adapter.mjs"
    example = ADAPTERS_DIR / "node_example" / "adapter.mjs"
    specs = [
        AdapterSpec("reference", (py, "-m", "dpspec.conformance.adapters.reference"),
                    "this project's own implementation of every op"),
        AdapterSpec("divviup-ts", ("node", str(divviup)),
                    "npm @divviup/prio3 0.8.0 (VDAF draft-08), official draft-08 Prio3 vectors",
                    check=_node(divviup, "@divviup/prio3")),
        AdapterSpec("opendp", (py, "-m", "dpspec.conformance.adapters.opendp"),
                    "OpenDP's discrete Laplace and discrete Gaussian samplers, statistical mode",
                    ecosystem=True, check=_python_module("dpspec.conformance.adapters.opendp", "opendp")),
        AdapterSpec("dp-accounting", (py, "-m", "dpspec.conformance.adapters.dp_accounting"),
                    "Google's dp-accounting: RDP and PLD accountants, calibrations",
                    ecosystem=True,
                    check=_python_module("dpspec.conformance.adapters.dp_accounting", "dp_accounting")),
        AdapterSpec("diffprivlib", (py, "-m", "dpspec.conformance.adapters.diffprivlib"),
                    "IBM's diffprivlib: mechanism calibrations, budget accountant, geometric sampler",
                    ecosystem=True, check=_python_module("diffprivlib", "sklearn")),
        AdapterSpec("python-dp", (py, "-m", "dpspec.conformance.adapters.python_dp"),
                    "Google's python-dp: calibrations; negative control of the discrete samplers",
                    ecosystem=True, check=_python_module("pydp")),
        AdapterSpec("autodp", (py, "-m", "dpspec.conformance.adapters.autodp"),
                    "autodp: analytic Gaussian calibration, subsampled-Gaussian RDP",
                    ecosystem=True, check=_python_module("autodp")),
        AdapterSpec("prv-accountant", (py, "-m", "dpspec.conformance.adapters.prv_accountant"),
                    "Microsoft's prv-accountant: certified intervals for compositions",
                    ecosystem=True, check=_python_module("prv_accountant")),
        AdapterSpec("opacus", (py, "-m", "dpspec.conformance.adapters.opacus"),
                    "Opacus' RDP analysis (needs torch)",
                    ecosystem=True, check=_python_module("opacus", "torch")),
        AdapterSpec("tmlt-core", (str(tmlt.python()), str(ADAPTERS_DIR / "tmlt_core.py")),
                    "Tumult Core's exact discrete samplers, in a virtual environment of its own",
                    ecosystem=True, check=tmlt.ready),
        AdapterSpec("node-example", ("node", str(example)),
                    "the worked example in a second language: random tape and samplers in Node.js",
                    check=_node(example)),
    ]
    return {s.name: s for s in specs}


def resolve(impl: str) -> AdapterSpec:
    """A bundled adapter by name, or a custom command line."""
    known = bundled()
    if impl in known:
        return known[impl]
    argv = shlex.split(impl)
    if not argv:
        raise ValueError("empty --impl command")
    return AdapterSpec(short_name(argv), tuple(argv), "custom adapter command", bundled=False)


def short_name(argv: list[str]) -> str:
    """A readable name for a custom command: its script (``python3 dir/my_adapter.py x`` ->
    ``my_adapter.py x``), else its program; the full command stays in the report."""
    interpreters = ("python", "python3", "node", "deno", "bun", "ruby", "perl", "java", "sh", "bash")
    program = Path(argv[0]).name
    rest = argv[1:]
    if program.split(".")[0].rstrip("0123456789.") in interpreters or program.startswith("python"):
        rest = [a for a in rest if not a.startswith("-")]
        if rest:
            return " ".join([Path(rest[0]).name, *rest[1:]])
    return " ".join([program, *rest])
