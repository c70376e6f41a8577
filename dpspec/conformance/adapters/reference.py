"""The reference adapter: this project's own implementation of every op of every vector family.

Run as ``python -m dpspec.conformance.adapters.reference``; it speaks the protocol of
:mod:`dpspec.conformance.adapters.protocol`.
"""

from __future__ import annotations

import sys

from dpspec.conformance import GENERATOR_VERSION
from dpspec.conformance.adapters.protocol import Handler, serve
from dpspec.conformance.families import all_families


def reference_handlers() -> dict[str, Handler]:
    """Every op of every registered family, mapped to its reference handler."""
    handlers: dict[str, Handler] = {}
    for family in all_families():
        for op, handler in family.handlers().items():
            if op in handlers:
                raise RuntimeError(f"op {op} is defined by two families")
            handlers[op] = handler
    from dpspec.conformance import vdaf_ops  # the step-by-step VDAF ops of the official-vector suites

    for op, handler in vdaf_ops.handlers().items():
        if op in handlers:
            raise RuntimeError(f"op {op} is defined by a family and by dpspec.conformance.vdaf_ops")
        handlers[op] = handler
    return handlers


def main() -> int:
    return serve(reference_handlers(), implementation="dpspec-reference", version=GENERATOR_VERSION,
                 modes=["exact", "statistical"])


if __name__ == "__main__":
    sys.exit(main())
