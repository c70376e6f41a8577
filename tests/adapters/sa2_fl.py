"""The federated-learning ops of the sa2 family (sa2.gaussian_vector, sa2.collection), served by the
reference handlers, correctly or with one deliberate mistake, for the harness's tests.

Run as ``python tests/adapters/sa2_fl.py MODE`` with MODE one of ``correct``, ``nearest`` (the
fixed-point encoding rounds to the nearest integer instead of toward zero) and ``no-clip`` (updates
longer than the clipping norm are not clipped).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from dpspec.conformance.adapters.protocol import serve  # noqa: E402
from dpspec.conformance.families.sa2 import FAMILY  # noqa: E402
from dpspec.spec.sa2 import fl  # noqa: E402

OPS = ("sa2.gaussian_vector", "sa2.collection")


def main() -> int:
    mode = sys.argv[1] if len(sys.argv) > 1 else "correct"
    if mode == "nearest":
        def encode(self: fl.GaussianVector, x: Sequence[Fraction]) -> list[int]:
            return [round(v * (1 << self.fractional_bits)) for v in x]
        fl.GaussianVector.encode = encode  # type: ignore[method-assign]
    elif mode == "no-clip":
        def clip(self: fl.GaussianVector, x: Sequence[Fraction]) -> list[Fraction]:
            return list(x)
        fl.GaussianVector.clip = clip  # type: ignore[method-assign]
    elif mode != "correct":
        print(f"unknown mode {mode}", file=sys.stderr)
        return 2
    handlers = {op: h for op, h in FAMILY.handlers().items() if op in OPS}
    return serve(handlers, implementation=f"sa2 fl ({mode})", version="0", modes=["exact"])


if __name__ == "__main__":
    sys.exit(main())
