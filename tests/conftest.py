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
