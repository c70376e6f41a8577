"""A deliberately mis-calibrated accounting adapter, for the privacy verdicts' own tests.

Run as ``python tests/adapters/miscalibrated.py FACTOR [interval]``. It answers the accounting ops
with the reference handlers, then scales every judged answer by ``FACTOR``: noise parameters
(``sigma``, ``lambda``, ``r``) and privacy parameters (``delta``, ``eps``, ``rdp``) alike. A factor
below 1 is under-calibrated (too little noise, privacy understated: UNSAFE); above 1 is
over-calibrated (CONSERVATIVE). With ``interval``, privacy parameters are answered as certified
intervals ``{"lower": x/FACTOR, "upper": x*FACTOR}`` (FACTOR >= 1 gives an interval containing
the truth).

A request whose arguments are those of a committed valid vector is answered from the vector's
recorded output (what the reference computed when the vectors were generated; the vector replay
tests and the reference's conformance run check that it still computes them), so the verdict tests
do not recompute the slow certified PLD vectors; other requests (the sweep's grid) run the handler.
"""

from __future__ import annotations

import json
import sys
from decimal import Decimal, localcontext
from typing import Any

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[2]))

from dpspec.conformance.adapters.protocol import serve  # noqa: E402
from dpspec.conformance.families import all_families  # noqa: E402
from dpspec.conformance.harness.suites import FamilySuite  # noqa: E402
from dpspec.conformance.store import default_vectors_dir  # noqa: E402
from dpspec.conformance.verdicts import JUDGED  # noqa: E402

NOISE = ("sigma", "lambda", "r", "scale")


def scaled(value: Any, factor: Decimal, *, divide: bool = False) -> Any:
    if isinstance(value, list):
        return [scaled(v, factor, divide=divide) for v in value]
    if isinstance(value, dict):  # a certified interval (the PLD ops' reference answers)
        return {k: scaled(v, factor, divide=divide) for k, v in value.items()}
    if not isinstance(value, str):
        return value
    with localcontext() as ctx:
        ctx.prec = 40
        x = Decimal(value)
        return str(x / factor if divide else x * factor)


def _key(op: str, args: dict[str, Any]) -> str:
    return json.dumps([op, args], sort_keys=True)


def recorded_outputs(families: list[Any]) -> dict[str, dict[str, Any]]:
    """``(op, args) -> expected output`` of every valid vector of ``families``."""
    out: dict[str, dict[str, Any]] = {}
    for family in families:
        for case in FamilySuite(family, default_vectors_dir()).cases():
            if case.result == "valid" and case.expected is not None:
                out[_key(case.op, case.args)] = case.expected
    return out


def main(argv: list[str]) -> int:
    factor = Decimal(argv[0])
    interval = "interval" in argv[1:]
    handlers = {}
    judged_families = []
    for family in all_families():
        ops = {op: h for op, h in family.handlers().items() if op in JUDGED}
        if ops:
            handlers.update(ops)
            judged_families.append(family)
    recorded = recorded_outputs(judged_families)

    def wrap(op: str) -> Any:
        base = handlers[op]

        def run(args: dict[str, Any]) -> dict[str, Any]:
            known = recorded.get(_key(op, args))
            out = dict(known) if known is not None else dict(base(args))
            for key in JUDGED[op]:
                if key not in out or key == "order":
                    continue
                if interval and key not in NOISE:
                    out[key] = {"lower": scaled(out[key], factor, divide=True),
                                "upper": scaled(out[key], factor)}
                else:
                    out[key] = scaled(out[key], factor)
            return out
        return run

    return serve({op: wrap(op) for op in handlers}, implementation="miscalibrated",
                 version=str(factor), modes=["exact"])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
