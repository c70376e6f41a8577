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
import os
import sys
from collections.abc import Sequence

from dpspec.conformance import GENERATOR_VERSION, commands


class CliError(Exception):
    """A user-facing error: printed as one line, exit status ``status``."""

    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status


def check_output_folder(path: os.PathLike[str] | str) -> None:
    """Refuse, before a long computation, an output folder that cannot be made or written: a file
    in its place or on its way, or a nearest existing folder that is not writable."""
    p = os.path.abspath(path)
    if os.path.exists(p) and not os.path.isdir(p):
        raise CliError(f"{path}: exists and is not a folder")
    existing = p
    while not os.path.exists(existing):
        existing = os.path.dirname(existing)
    if not os.path.isdir(existing):
        raise CliError(f"{path}: cannot be created ({existing} is a file)")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise CliError(f"{path}: not writable ({existing})")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise CliError(f"{self.prog}: {message}")


def _selected(argv: Sequence[str]) -> str | None:
    """The subcommand ``argv`` names (its first word that is not an option), if any."""
    for word in argv:
        if word == "--":
            return None
        if not word.startswith("-"):
            return word if word in commands.COMMANDS else None
    return None


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser. Given ``argv``, only the subcommand it names is imported and registered in
    full (the others are listed by name and help only); without, every subcommand is."""
    parser = _Parser(
        prog="dpspec",
        description="Executable specification, test vectors and conformance harness for "
        "differential privacy in DAP/VDAF and SA2.",
    )
    parser.add_argument("--version", action="version", version=f"dpspec {GENERATOR_VERSION}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    chosen = _selected(argv) if argv is not None else None
    for name, help_text in commands.COMMANDS.items():
        if argv is None or name == chosen:
            module = importlib.import_module(f"{commands.__name__}.{name}")
            module.register(sub)
        else:
            sub.add_parser(name, help=help_text)
    return parser


def _one_line(exc: BaseException) -> str:
    """A user-facing line for an exception that escaped a command (never a traceback)."""
    if isinstance(exc, UnicodeDecodeError):
        return f"input is not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at offset {exc.start})"
    if isinstance(exc, OSError):
        where = f"{exc.filename}: " if exc.filename else ""
        return f"{where}{exc.strerror or exc}"
    if isinstance(exc, MemoryError):
        return "out of memory: the input asks for more than this machine has"
    if isinstance(exc, RecursionError):
        return "input too deeply nested"
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``dpspec`` console script.

    The error boundary: a CliError prints its line; an unreadable, non-UTF-8 or invalid input
    (OSError, UnicodeDecodeError, ValueError, ArithmeticError, MemoryError) that escaped a command
    prints one line and exits 2; anything else is an internal error, one line and exit 3 (set
    DPSPEC_TRACEBACK=1 to see the traceback). Never a traceback by default.
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        parser = build_parser(argv)
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
    except (OSError, ValueError, ArithmeticError, MemoryError, RecursionError) as exc:
        if os.environ.get("DPSPEC_TRACEBACK"):
            raise
        print(f"dpspec: error: {_one_line(exc)}", file=sys.stderr)
        return 2
    except Exception as exc:  # the boundary: one line, never a traceback
        if os.environ.get("DPSPEC_TRACEBACK"):
            raise
        print(f"dpspec: internal error: {type(exc).__name__}: {_one_line(exc)} "
              "(please report it; DPSPEC_TRACEBACK=1 shows the traceback)", file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
