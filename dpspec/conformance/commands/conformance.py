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
        "adapter installed here; the third-party DP libraries (installed by `dpspec conformance "
        "install`) are reported as advisory there: their findings (docs/ecosystem.md) do not "
        "fail the run unless the library is named with --impl. Exit 0 if nothing judged failed.")
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
    run.add_argument("--max-slack", type=float, default=None, metavar="X",
                     help="fail CONSERVATIVE privacy verdicts looser than X (0.05: more than 5 %% "
                     "extra noise, or a privacy parameter more than 5 %% above the truth); "
                     "UNSAFE answers always fail")
    run.add_argument("--sweep", action="store_true",
                     help="also run the suite 'sweep': accounting ops over a documented grid (eps "
                     "1e-3..20, delta 1e-3..1e-16, sensitivities, step counts), the truth computed "
                     "on the fly (dpspec/conformance/sweep.py)")
    run.add_argument("--sweep-every", type=int, default=1, metavar="N",
                     help="with --sweep: keep every N-th grid point of each op (and the first and "
                     "last), for a quick spread-out run")
    run.add_argument("--vectors", type=Path, default=None, metavar="DIR",
                     help="vector folder (default: the repository's vectors/)")
    run.add_argument("--vdaf-vectors", type=Path, default=None, metavar="DIR",
                     help="folder with the official VDAF vectors (draft-20/, draft-08/)")
    run.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr")
    run.set_defaults(func=run_run)

    desc = csub.add_parser("describe", help="an op's arguments, outputs, verdict rule and example",
                           description="Print what an adapter must do for OP: its arguments and "
                           "outputs, how its answer is judged, and an example request and answer "
                           "taken from the vectors.")
    desc.add_argument("op", metavar="OP", help="e.g. privacy.gaussian_mechanism_sigma")
    desc.add_argument("--json", action="store_true", help="machine-readable")
    desc.set_defaults(func=run_describe)

    eco = csub.add_parser(
        "ecosystem", help="run the third-party DP libraries and write docs/ecosystem.md",
        description="Run every bundled third-party adapter installed here (see `dpspec "
        "conformance install`) on the accounting, privacy, sweep and discrete-sampler suites, "
        "and write docs/ecosystem.md with its plots. --check: fail if the committed document "
        "or plot data differ from a fresh run.")
    eco.add_argument("--docs", type=Path, default=None, metavar="DIR",
                     help="the docs folder (default: the repository's docs/)")
    eco.add_argument("--check", action="store_true", help="compare instead of writing")
    eco.add_argument("--report-json", type=Path, default=None, metavar="FILE",
                     help="also write the run's JSON report here")
    eco.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr")
    eco.set_defaults(func=run_ecosystem_command)

    inst = csub.add_parser(
        "install", help="install the pinned third-party libraries of the bundled adapters",
        description="pip-install the pinned libraries into this environment and create the "
        "per-library virtual environments (Tumult Core) under $DPSPEC_VENVS.")
    inst.add_argument("--without", action="append", default=[], metavar="NAME",
                      help="leave out a library (e.g. opacus, which needs torch); repeatable")
    inst.set_defaults(func=run_install)

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
    if args.max_slack is not None and not args.max_slack >= 0:
        raise CliError("--max-slack must be >= 0")
    if args.sweep_every < 1:
        raise CliError("--sweep-every must be >= 1")
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
                        alpha=args.false_alarm_rate, max_slack=args.max_slack)
    if args.sweep:
        from dpspec.conformance.sweep import SweepSuite

        suites.append(SweepSuite(every=args.sweep_every, max_slack=args.max_slack))
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
    if not explicit:
        # a plain run reports the third-party DP libraries but judges only the reference and the
        # interoperability adapters: the libraries' findings are documented (docs/ecosystem.md);
        # name one with --impl to make its failures fail the run
        report.advisory = frozenset(s.name for s in specs if s.ecosystem)
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


def describe(op: str) -> dict[str, Any]:
    """Everything the vectors say about ``op``; KeyError if no family uses it."""
    from dpspec.conformance import verdicts
    from dpspec.conformance.families import all_families
    from dpspec.conformance.harness.suites import FamilySuite
    from dpspec.conformance.store import default_vectors_dir

    for family in all_families():
        if op not in family.handlers():
            continue
        cases = [c for c in FamilySuite(family, default_vectors_dir()).cases() if c.op == op]
        valid = [c for c in cases if c.result != "invalid"]
        invalid = [c for c in cases if c.result == "invalid"]
        args: list[str] = []
        outputs: list[str] = []
        for c in valid:
            args += [k for k in c.args if k not in args]
            outputs += [k for k in (c.expected or {}) if k not in outputs]
        summary = ""
        from dpspec.conformance.families import privacy

        if op in privacy.OPS:
            summary = privacy.OPS[op][2]
        judged = verdicts.JUDGED.get(op, ())
        return {
            "op": op, "family": family.name, "summary": summary, "arguments": args,
            "outputs": outputs, "tests": len(cases), "invalidTests": len(invalid),
            "judgedBy": ("privacy verdict on " + ", ".join(judged) + " (UNSAFE fails; see "
                         "dpspec.conformance.verdicts)") if judged else "comparison with the vector",
            "example": ({"request": {"id": 2, "op": op, "args": valid[0].args},
                         "answer": {"id": 2, "ok": True, "result": valid[0].expected},
                         "comment": valid[0].comment} if valid else None),
            "invalidExample": ({"args": invalid[0].args, "comment": invalid[0].comment}
                               if invalid else None),
        }
    raise KeyError(op)


def run_describe(args: argparse.Namespace) -> int:
    try:
        doc = describe(args.op)
    except KeyError:
        raise CliError(f"no op {args.op!r}; `dpspec conformance list --json` lists the ops") from None
    if args.json:
        print(json.dumps(doc, indent=1))
        return 0
    print(f"{doc['op']}  (family {doc['family']}, {doc['tests']} tests, "
          f"{doc['invalidTests']} of them invalid inputs)")
    if doc["summary"]:
        print(f"  {doc['summary']}")
    print(f"  arguments: {', '.join(doc['arguments']) or '-'}")
    print(f"  outputs:   {', '.join(doc['outputs']) or '-'}")
    print(f"  judged by: {doc['judgedBy']}")
    if doc["example"]:
        print(f"  example ({doc['example']['comment']}):")
        print(f"    > {json.dumps(doc['example']['request'])}")
        print(f"    < {json.dumps(doc['example']['answer'])}")
    if doc["invalidExample"]:
        print(f"  must reject ({doc['invalidExample']['comment']}): "
              f"{json.dumps(doc['invalidExample']['args'])}")
    return 0


def run_install(args: argparse.Namespace) -> int:
    import subprocess

    from dpspec.conformance.ecosystem import SHARED, VENVS, install

    unknown = sorted(set(args.without) - set(SHARED) - set(VENVS))
    if unknown:
        raise CliError(f"--without: no library {', '.join(unknown)}; known: "
                       f"{', '.join([*SHARED, *VENVS])}")
    try:
        install(tuple(args.without))
    except subprocess.CalledProcessError as exc:
        raise CliError(f"install failed: {' '.join(map(str, exc.cmd))} exited {exc.returncode}",
                       status=1) from None
    return 0


def run_ecosystem_command(args: argparse.Namespace) -> int:
    from dpspec.conformance import ecosystem_doc as doc
    from dpspec.conformance.store import default_vectors_dir

    docs = args.docs if args.docs is not None else default_vectors_dir().parent / "docs"
    report = doc.run_ecosystem(ProgressLine(enabled=not args.quiet))
    if args.report_json is not None:
        _write(args.report_json, json.dumps(to_json(report), indent=1) + "\n")
    text, data = doc.render(report)
    targets = [(docs / "ecosystem.md", text), (docs / "ecosystem" / "sweep.json", doc.plot_json(data))]
    if args.check:
        problems = doc.stale(targets)
        for p in problems:
            print(f"dpspec: {p} (run `dpspec conformance ecosystem`)", file=sys.stderr)
        if not problems:
            print(f"{docs / 'ecosystem.md'} is fresh ({len(report.impls)} libraries)")
        return 1 if problems else 0
    for path, content in targets:
        _write(path, content)
    plots = doc.write_plots(data, docs / "ecosystem")
    print(f"wrote {docs / 'ecosystem.md'}, {len(plots)} plots ({len(report.impls)} libraries; "
          f"not installed: {', '.join(report.not_installed) or 'none'})")
    return 0
