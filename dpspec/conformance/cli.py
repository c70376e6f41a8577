"""The ``dpspec`` command line.

Subcommands live in ``dpspec/conformance/commands/``: each module defines ``register(subparsers)`` that
adds its parser and sets ``func`` (a callable taking the parsed arguments and returning an exit
code). Adding a command is one module.

Conventions: results go to stdout, diagnostics to stderr; a bad argument or input prints one line
``dpspec: error: ...`` on stderr and exits 2 (usage) or 1 (failed check), never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

from dpspec.conformance import GENERATOR_VERSION, commands


class CliError(Exception):
    """A user-facing error: printed as one line, exit status ``status``."""

    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise CliError(f"{self.prog}: {message}")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="dpspec",
        description="Executable specification, test vectors and conformance harness for "
        "differential privacy in DAP/VDAF and SA2.",
    )
    parser.add_argument("--version", action="version", version=f"dpspec {GENERATOR_VERSION}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``dpspec`` console script."""
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        status: int = args.func(args)
        return status
    except CliError as exc:
        print(f"dpspec: error: {exc}", file=sys.stderr)
        return exc.status
    except KeyboardInterrupt:
        print("dpspec: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1


if __name__ == "__main__":
    sys.exit(main())
