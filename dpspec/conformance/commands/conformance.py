"""``dpspec conformance run|list``: the conformance harness on the command line."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from dpspec.conformance.cli import CliError
from dpspec.conformance.harness.adapters import AdapterSpec, bundled, resolve
from dpspec.conformance.harness.model import SKIPPED, RunReport
from dpspec.conformance.harness.process import DEFAULT_STARTUP_TIMEOUT, DEFAULT_TIMEOUT
from dpspec.conformance.harness.runner import ProgressLine, all_suites, run_all, select_suites
from dpspec.conformance.harness.suites import FamilySuite, Suite
from dpspec.conformance.report import failure_details, summary_table, to_json, to_junit
from dpspec.conformance.statistical import DEFAULT_ALPHA


def register(sub: Any) -> None:
    parser = sub.add_parser("conformance", help="run the conformance harness against implementations")
    csub = parser.add_subparsers(dest="conformance_command", metavar="ACTION")
    csub.required = True

    run = csub.add_parser(
        "run", help="run suites against the reference and third-party adapters",
        description="Run the conformance suites. Without --impl: the reference and every bundled "
        "third-party adapter that is installed here. Exit 0 if nothing failed.")
    run.add_argument("--impl", action="append", nargs="+", metavar="NAME|CMD", default=None,
                     help="a bundled adapter (" + ", ".join(bundled()) + ") or the command line "
                     "of any adapter speaking dpspec/conformance/PROTOCOL.md; repeatable")
    run.add_argument("--suite", action="append", default=None, metavar="NAME",
                     help="run only this suite (a prefix such as 'statistical' selects "
                     "'statistical.*'); repeatable; see `dpspec conformance list`")
    run.add_argument("--report-json", type=Path, default=None, metavar="FILE",
                     help="write the JSON report here")
    run.add_argument("--report-all", action="store_true",
                     help="keep expected and provided values of passed tests in the JSON report")
    run.add_argument("--junit", type=Path, default=None, metavar="FILE",
                     help="write a JUnit XML report here")
    run.add_argument("--show-expected", action="store_true",
                     help="print expected and provided values for each failure")
    run.add_argument("--max-details", type=int, default=20, metavar="N",
                     help="failures printed per implementation (default 20)")
    run.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                     help=f"per-request timeout (default {DEFAULT_TIMEOUT:g})")
    run.add_argument("--startup-timeout", type=float, default=DEFAULT_STARTUP_TIMEOUT, metavar="SECONDS",
                     help="extra time for the first request after each (re)start of an adapter "
                     f"(default {DEFAULT_STARTUP_TIMEOUT:g})")
    run.add_argument("--samples", type=int, default=None, metavar="N",
                     help="samples per parameter point in statistical mode")
    run.add_argument("--false-alarm-rate", type=float, default=DEFAULT_ALPHA, metavar="ALPHA",
                     help="probability that a statistical suite fails a correct implementation "
                     f"(default {DEFAULT_ALPHA:g} per suite; CI passes 1e-8 so that a whole run, "
                     "every suite and adapter, stays below 1e-6)")
    run.add_argument("--vectors", type=Path, default=None, metavar="DIR",
                     help="vector folder (default: the repository's vectors/)")
    run.add_argument("--vdaf-vectors", type=Path, default=None, metavar="DIR",
                     help="folder with the official VDAF vectors (draft-20/, draft-08/)")
    run.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr")
    run.set_defaults(func=run_run)

    lst = csub.add_parser("list", help="list the suites and the bundled adapters")
    lst.add_argument("--json", action="store_true", help="machine-readable listing")
    lst.set_defaults(func=run_list)


def _specs(impls: list[list[str]] | None) -> tuple[list[AdapterSpec], bool]:
    """The adapters to run, and whether missing bundled ones are an error (explicit request)."""
    if not impls:
        return list(bundled().values()), False
    specs = []
    for tokens in impls:
        text = tokens[0] if len(tokens) == 1 else " ".join(_quote(t) for t in tokens)
        try:
            specs.append(resolve(text))
        except ValueError as exc:
            raise CliError(str(exc)) from None
    return specs, True


def _quote(token: str) -> str:
    import shlex

    return shlex.quote(token)


def run_run(args: argparse.Namespace) -> int:
    if not 0 < args.timeout < 1e6:
        raise CliError("--timeout must be a positive number of seconds")
    if not 0 <= args.startup_timeout < 1e6:
        raise CliError("--startup-timeout must be a number of seconds >= 0")
    if args.samples is not None and args.samples < 100:
        raise CliError("--samples must be at least 100")
    if not 0 < args.false_alarm_rate < 1:
        raise CliError("--false-alarm-rate must be in (0, 1)")
    specs, explicit = _specs(args.impl)
    if any(spec.bundled and spec.command[:1] == ("node",) for spec in specs):
        from dpspec.conformance.harness.npm import ensure_npm_lock

        why = ensure_npm_lock(lambda line: print(line, file=sys.stderr, flush=True))
        if why is not None and not explicit:
            print(f"dpspec: note: {why}", file=sys.stderr)
    if explicit:
        for spec in specs:
            missing = spec.missing()
            if spec.bundled and missing is not None:
                raise CliError(f"adapter {spec.name} cannot run here: {missing}", status=1)
    _check_folders(args.vectors, args.vdaf_vectors)
    for out in (args.report_json, args.junit):
        if out is not None:
            check_writable(out)
    suites = all_suites(args.vectors, samples=args.samples, vdaf_dir=args.vdaf_vectors,
                        alpha=args.false_alarm_rate)
    try:
        suites = select_suites(suites, args.suite or [])
    except KeyError as exc:
        raise CliError(str(exc.args[0])) from None
    _check_runnable(suites, explicit=bool(args.suite))
    if args.vectors is not None:
        _validate(args.vectors, suites)
    progress = ProgressLine(enabled=not args.quiet)
    report = run_all(specs, suites, timeout=args.timeout, progress=progress,
                     startup_timeout=args.startup_timeout)
    if args.report_json is not None:
        _write(args.report_json, json.dumps(to_json(report, full=args.report_all), indent=1) + "\n")
    if args.junit is not None:
        _write(args.junit, to_junit(report))
    sys.stdout.write(summary_table(report))
    details = failure_details(report, show_expected=args.show_expected, limit=args.max_details)
    if details:
        sys.stdout.write("\n" + details)
    if report.disposition == "FAIL":
        return 1
    untested = [i.name for i in report.impls if i.disposition != "PASS"] if explicit else (
        [] if report.disposition == "PASS" else ["every implementation"])
    if untested:
        print(f"dpspec: error: nothing was tested for {', '.join(untested)}: "
              f"{_why_untested(report)}", file=sys.stderr)
        return 1
    return 0


def _why_untested(report: RunReport) -> str:
    """One line: why a run (or some implementation in it) tested nothing."""
    reasons: list[str] = [f"{name} not installed ({why})" for name, why in report.not_installed.items()]
    for impl in report.impls:
        reasons += [f"{impl.name}: {p}" for p in impl.problems]
        for suite in impl.suites:
            reasons += [f"{impl.name} / {suite.name}: {o.reason}" for o in suite.outcomes[:1]
                        if o.status == SKIPPED and o.reason]
        if impl.disposition != "PASS" and not impl.problems and not impl.suites:
            reasons.append(f"{impl.name} supports none of the selected suites' operations")
    return "; ".join(dict.fromkeys(reasons)) or "no suite ran"


def _check_folders(vectors: Path | None, vdaf_vectors: Path | None) -> None:
    """A mistyped --vectors / --vdaf-vectors is an error before anything runs."""
    if vectors is not None:
        if not vectors.is_dir():
            raise CliError(f"--vectors {vectors}: no such folder")
        if not (vectors / "MANIFEST.json").is_file():
            raise CliError(f"--vectors {vectors}: no MANIFEST.json there (not a dpspec vectors folder; "
                           "`dpspec vectors generate --out DIR` writes one)")
    if vdaf_vectors is not None:
        if not vdaf_vectors.is_dir():
            raise CliError(f"--vdaf-vectors {vdaf_vectors}: no such folder")
        if not any((vdaf_vectors / d).is_dir() for d in ("draft-20", "draft-08")):
            raise CliError(f"--vdaf-vectors {vdaf_vectors}: holds neither draft-20/ nor draft-08/ "
                           "(the layout of vectors/vdaf-official)")


def _check_runnable(suites: list[Suite], *, explicit: bool) -> None:
    """A suite named with --suite that cannot run, or has no tests, is an error with its reason."""
    if not explicit:
        return
    for suite in suites:
        why = suite.available()
        if why is None and suite.size() == 0 and not suite.problems():
            why = "it has no tests in this vector folder"
        if why is not None:
            raise CliError(f"suite {suite.name} cannot run: {why}")


def _validate(vectors: Path, suites: list[Suite]) -> None:
    """Validate the vector files of the selected families against the project's schemas."""
    from dpspec.conformance.store import validate_folder

    families = {s.family.name for s in suites if isinstance(s, FamilySuite)}
    problems = validate_folder(vectors, families=families)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise CliError(f"--vectors {vectors}: {problems[0]}{more}")


def check_writable(path: Path) -> None:
    """Refuse, before a long run, an output path that cannot be written (its folder must exist)."""
    if path.is_dir():
        raise CliError(f"{path}: is a folder, not a file")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise CliError(f"{path}: folder {parent} does not exist (create it first)")
    if not os.access(parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise CliError(f"{path}: not writable")


def _write(path: Path, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CliError(f"cannot write {path}: {exc.strerror}", status=1) from None


def run_list(args: argparse.Namespace) -> int:
    suites = all_suites()
    adapters = bundled()
    if args.json:
        doc = {
            "suites": [{"name": s.name, "mode": s.mode, "tests": s.size(), "summary": s.summary,
                        "ops": sorted(s.ops()), "available": s.available() is None}
                       for s in suites],
            "adapters": [{"name": a.name, "command": list(a.command), "summary": a.summary,
                          "installed": a.missing() is None, "missing": a.missing()}
                         for a in adapters.values()],
        }
        print(json.dumps(doc, indent=1))
        return 0
    print("suites:")
    width = max((len(s.name) for s in suites), default=0)
    for s in suites:
        why = s.available()
        state = "" if why is None else f"  [not available: {why}]"
        print(f"  {s.name:{width}} {s.mode:12} {s.size():6} tests  {s.summary}{state}")
    print("adapters:")
    for a in adapters.values():
        missing = a.missing()
        state = "installed" if missing is None else f"not installed: {missing}"
        print(f"  {a.name:16} {a.summary} [{state}]")
    return 0
