"""Shared test configuration.

Hypothesis runs derandomized (fixed seed) so that a property run is reproducible, never flaky.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, settings

settings.register_profile(
    "dpspec", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("dpspec")

REPO = Path(__file__).resolve().parent.parent
#: The official VDAF vectors, part of the project (draft-20 regenerated, draft-08 kept as data).
VDAF_VECTORS = REPO / "vectors" / "vdaf-official"


def pytest_configure(config: object) -> None:
    """Install the JavaScript adapters' npm lock on first use (as `dpspec conformance run` does),
    so that the divviup-ts and node-example tests run on a fresh clone where Node.js is present."""
    import sys

    from dpspec.conformance.harness.npm import ensure_npm_lock

    why = ensure_npm_lock(lambda line: print(line, file=sys.stderr, flush=True))
    if why is not None:
        print(f"dpspec tests: {why}", file=sys.stderr)
