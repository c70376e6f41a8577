"""Running suites against implementations."""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO

from dpspec.conformance import GENERATOR_VERSION
from dpspec.conformance.families import all_families
from dpspec.conformance.harness.adapters import AdapterSpec
from dpspec.conformance.harness.model import ERROR, SKIPPED, ImplResult, Outcome, RunReport, SuiteResult
from dpspec.conformance.harness.process import (
    DEFAULT_STARTUP_TIMEOUT,
    DEFAULT_TIMEOUT,
    AdapterProcess,
)
from dpspec.conformance.harness.session import Session
from dpspec.conformance.harness.suites import FamilySuite, Suite
from dpspec.conformance.store import default_vectors_dir


def all_suites(vectors_dir: Path | None = None, *, samples: int | None = None,
               vdaf_dir: Path | None = None, alpha: float | None = None,
               max_slack: float | None = None) -> list[Suite]:
    """Every suite: the vector families, the statistical suites, the official VDAF vectors.

    ``alpha`` is the false-alarm rate of each statistical suite (default: DEFAULT_ALPHA);
    ``max_slack`` makes CONSERVATIVE privacy verdicts looser than it fail.
    """
    from dpspec.conformance.harness.vdaf_official import official_suites
    from dpspec.conformance.statistical import statistical_suites
    from dpspec.conformance.statistical_mechanisms import mechanism_suites

    root = vectors_dir if vectors_dir is not None else default_vectors_dir()
    suites: list[Suite] = [FamilySuite(f, root, max_slack=max_slack) for f in all_families()
                           if f.harness_suite]
    from dpspec.conformance.statistical import DEFAULT_ALPHA

    rate = DEFAULT_ALPHA if alpha is None else alpha
    suites.extend(statistical_suites(samples=samples, alpha=rate))
    suites.extend(mechanism_suites(samples=samples, alpha=rate))
    if vdaf_dir is None and vectors_dir is not None:
        vdaf_dir = vectors_dir / "vdaf-official"
    suites.extend(official_suites(vdaf_dir))
    return suites


def select_suites(suites: Sequence[Suite], names: Sequence[str]) -> list[Suite]:
    """The suites named (a name also selects every ``NAME.*`` or ``NAME-*`` suite)."""
    if not names:
        return list(suites)
    chosen = []
    for suite in suites:
        if any(suite.name == n or suite.name.startswith(n + ".") or suite.name.startswith(n + "-")
               for n in names):
            chosen.append(suite)
    unknown = [n for n in names if not any(
        s.name == n or s.name.startswith(n + ".") or s.name.startswith(n + "-") for s in suites)]
    if unknown:
        raise KeyError(f"no suite {', '.join(map(repr, unknown))}; known: "
                       f"{', '.join(s.name for s in suites)}")
    return chosen


class ProgressLine:
    """Progress on stderr: a redrawn bar per suite and a line when it ends, only on a terminal
    (off with --quiet and when stderr is not a terminal, so logs and pipes stay clean)."""

    def __init__(self, stream: IO[str] | None = None, enabled: bool = True) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.tty = enabled and hasattr(self.stream, "isatty") and self.stream.isatty()
        self.enabled = self.tty
        self._last = 0.0
        self._label = ""

    def begin(self, impl: str, suite: str, total: int) -> None:
        self._label = f"{impl} / {suite}"
        if self.enabled and not self.tty:
            print(f"[{self._label}] {total} tests ...", file=self.stream, flush=True)
        self.update(0, total)

    def update(self, done: int, total: int) -> None:
        if not self.tty:
            return
        now = time.monotonic()
        if done < total and now - self._last < 0.1:
            return
        self._last = now
        width = 30
        filled = width * done // total if total else width
        bar = "#" * filled + "." * (width - filled)
        self.stream.write(f"\r[{bar}] {done}/{total} {self._label[:60]:60}")
        self.stream.flush()

    def end(self, result: SuiteResult) -> None:
        if not self.enabled:
            return
        c = result.counts
        text = (f"[{self._label}] {c['passed']} passed, {c['failed']} failed, "
                f"{c['skipped']} skipped, {c['error']} errors ({result.seconds:.1f} s)")
        if self.tty:
            self.stream.write("\r" + " " * 110 + "\r")
        print(text, file=self.stream, flush=True)


def _skip_all(suite: Suite, reason: str) -> SuiteResult:
    result = SuiteResult(suite.name, suite.mode, suite.summary)
    result.outcomes.append(Outcome(suite.name, "-", "*", "-", SKIPPED, reason))
    return result


def run_impl(spec: AdapterSpec, suites: Sequence[Suite], *, timeout: float = DEFAULT_TIMEOUT,
             startup_timeout: float = DEFAULT_STARTUP_TIMEOUT, progress: ProgressLine | None = None,
             only_supported: bool = True) -> ImplResult:
    """Run ``suites`` against one implementation.

    A suite none of whose ops the adapter lists (or whose mode it does not offer) is reported as
    one skipped entry when ``only_supported``; otherwise its tests are each reported skipped.
    """
    progress = progress if progress is not None else ProgressLine(enabled=False)
    impl = ImplResult(spec.name, list(spec.command))
    start = time.monotonic()
    process = AdapterProcess(spec.command, cwd=spec.cwd, timeout=timeout,
                             startup_timeout=startup_timeout)
    try:
        session = Session(process)
        if not session.handshake():
            impl.problems.append(session.problem or "capabilities failed")
            return impl
        impl.capabilities = session.capabilities
        for suite in suites:
            why = suite.available()
            if why is not None:
                impl.suites.append(_skip_all(suite, f"suite not available: {why}"))
                continue
            if suite.mode not in session.modes:
                if not only_supported:
                    impl.suites.append(_skip_all(suite, f"adapter does not offer {suite.mode} mode"))
                continue
            if only_supported and not (suite.ops() & session.ops_for(suite.mode)) \
                    and not suite.problems():
                continue
            progress.begin(spec.name, suite.name, suite.size())
            try:
                result = suite.run(session, progress.update)
            except Exception as exc:  # a harness bug must not end the run: report and go on
                result = SuiteResult(suite.name, suite.mode, suite.summary)
                result.outcomes.append(Outcome(suite.name, "-", "*", "-", ERROR,
                                               f"harness error: {type(exc).__name__}: {exc}"))
            progress.end(result)
            impl.suites.append(result)
    finally:
        process.close()
        impl.seconds = time.monotonic() - start
    return impl


def run_all(specs: Sequence[AdapterSpec], suites: Sequence[Suite], *,
            timeout: float = DEFAULT_TIMEOUT, progress: ProgressLine | None = None,
            skip_missing: bool = True,
            startup_timeout: float = DEFAULT_STARTUP_TIMEOUT) -> RunReport:
    """Run every implementation; those not installed are noted (or, if not bundled, run anyway)."""
    report = RunReport(version=GENERATOR_VERSION)
    start = time.monotonic()
    for spec in specs:
        missing = spec.missing()
        if missing is not None and skip_missing:
            report.not_installed[spec.name] = missing
            continue
        report.impls.append(run_impl(spec, suites, timeout=timeout, progress=progress,
                                     startup_timeout=startup_timeout))
    report.seconds = time.monotonic() - start
    return report
