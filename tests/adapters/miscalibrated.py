"""A deliberately mis-calibrated accounting adapter, for the privacy verdicts' own tests.

Run as ``python tests/adapters/miscalibrated.py FACTOR [interval]``. It answers the accounting ops
with the reference handlers, then scales every judged answer by ``FACTOR``: noise parameters
(``sigma``, ``lambda``, ``r``) and privacy parameters (``delta``, ``eps``, ``rdp``) alike. A factor
below 1 is under-calibrated (too little noise, privacy understated: UNSAFE); above 1 is
over-calibrated (CONSERVATIVE). With ``interval``, privacy parameters are answered as certified
intervals ``{"lower": x/FACTOR, "upper": x*FACTOR}`` (FACTOR >= 1 gives an interval containing
the truth).
"""

from __future__ import annotations

import sys
from decimal import Decimal, localcontext
from typing import Any

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[2]))

from dpspec.conformance.adapters.protocol import serve  # noqa: E402
from dpspec.conformance.families import all_families  # noqa: E402
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


def main(argv: list[str]) -> int:
    factor = Decimal(argv[0])
    interval = "interval" in argv[1:]
    handlers = {}
    for family in all_families():
        for op, handler in family.handlers().items():
            if op in JUDGED:
                handlers[op] = handler

    def wrap(op: str) -> Any:
        base = handlers[op]

        def run(args: dict[str, Any]) -> dict[str, Any]:
            out = dict(base(args))
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
