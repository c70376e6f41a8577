"""The JavaScript adapters' npm packages, installed on first use.

``dpspec conformance run`` (and the test suite) call :func:`ensure_npm_lock` before they look for
the node adapters: if Node.js and npm are present and the pinned packages of
``dpspec/conformance/adapters/package-lock.json`` are not installed, it runs ``npm ci`` there once
and says so on stderr. Without Node.js it installs nothing and returns one line saying what is
skipped and how to get it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

from dpspec.conformance.harness.adapters import ADAPTERS_DIR

NPM_TIMEOUT = 900.0


def npm_packages(folder: Path = ADAPTERS_DIR) -> list[str]:
    """The npm packages package.json pins."""
    try:
        doc = json.loads((folder / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return sorted(doc.get("dependencies", {}))


def npm_lock_installed(folder: Path = ADAPTERS_DIR) -> bool:
    return all((folder / "node_modules" / p / "package.json").is_file() for p in npm_packages(folder))


def ensure_npm_lock(say: Callable[[str], None], folder: Path = ADAPTERS_DIR) -> str | None:
    """Install the npm lock if needed and possible. None when the packages are there (already, or
    now); otherwise one line: what is skipped and why."""
    if npm_lock_installed(folder):
        return None
    if shutil.which("node") is None or shutil.which("npm") is None:
        return ("Node.js is not installed (node and npm, version 18 or later): the JavaScript adapters "
                "divviup-ts and node-example are skipped; install Node.js and run again")
    say(f"dpspec: installing the JavaScript adapters' pinned npm packages (npm ci in {folder}), once")
    try:
        done = subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--silent"], cwd=folder,
                              capture_output=True, text=True, timeout=NPM_TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"npm ci in {folder} did not complete ({exc}); the JavaScript adapters are skipped"
    if done.returncode != 0 or not npm_lock_installed(folder):
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        return f"npm ci in {folder} failed ({last}); the JavaScript adapters are skipped"
    return None
