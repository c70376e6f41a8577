"""Suites: what the harness can run against an adapter.

* one **exact** suite per vector family (``tape``, ``samplers``, ...): every test of every file the
  family owns in ``vectors/`` (found through ``vectors/MANIFEST.json``), turned into cases by
  ``family.cases`` and judged by ``family.compare``, so a family that lands later is a suite with
  no change here;
* the **statistical** suites of :mod:`dpspec.conformance.statistical` (samplers run without a seed) and
  :mod:`dpspec.conformance.statistical_mechanisms` (the DP mechanisms run without a seed);
* the **official VDAF vectors** (:mod:`dpspec.conformance.harness.vdaf_official`).
"""

from __future__ import annotations

import abc
import json
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from dpspec.conformance import verdicts
from dpspec.conformance.harness.model import ERROR, FAILED, PASSED, SKIPPED, Outcome, SuiteResult
from dpspec.conformance.harness.process import ProtocolFailure, Response
from dpspec.conformance.harness.session import Session
from dpspec.conformance.vectors import Case, Family

#: progress callback: (done, total)
Progress = Callable[[int, int], None]


class Suite(abc.ABC):
    """A named set of tests in one mode (``exact`` or ``statistical``)."""

    name: str = ""
    mode: str = "exact"
    summary: str = ""

    @abc.abstractmethod
    def ops(self) -> frozenset[str]:
        """Every op the suite may send."""

    @abc.abstractmethod
    def size(self) -> int:
        """How many tests (for listings and progress)."""

    @abc.abstractmethod
    def run(self, session: Session, progress: Progress) -> SuiteResult:
        """Run every test against ``session``; never raises for anything the adapter does."""

    def available(self) -> str | None:
        """None if the suite can run here; else why not (missing data)."""
        return None

    def problems(self) -> list[str]:
        """Vector files the suite could not read (reported as errors for every adapter)."""
        return []


def judge(family: Family, case: Case, response: Response, *, max_slack: float | None = None
          ) -> tuple[str, str]:
    """(status, reason) for one envelope-format case and a well-formed response."""
    status, reason, _ = judge_with_verdict(family, case, response, max_slack=max_slack)
    return status, reason


def judge_with_verdict(family: Family, case: Case, response: Response, *,
                       max_slack: float | None = None) -> tuple[str, str, dict[str, Any] | None]:
    """(status, reason, privacy verdict) for one case and a well-formed response.

    Ops with a privacy rule (:mod:`dpspec.conformance.verdicts`) are judged by the true privacy
    at the answer (UNSAFE fails; CONSERVATIVE fails only beyond ``max_slack``); their other
    outputs, if any, are compared by the family as before.
    """
    if response.unsupported is not None:
        return SKIPPED, f"unsupported: {response.unsupported}", None
    if not response.ok:
        if case.result in ("invalid", "acceptable"):
            return PASSED, f"rejected as expected: {response.error}", None
        return FAILED, f"rejected a valid input: {response.error}", None
    if case.result == "invalid":
        return FAILED, "accepted an invalid input (the vector says it must be rejected)", None
    if case.expected is None:
        return PASSED, "", None
    if not isinstance(response.result, dict):
        return FAILED, "result is not a JSON object", None
    judged = verdicts.JUDGED.get(case.op, ())
    verdict = None
    if judged:
        try:
            verdict = verdicts.judge(case.op, case.args, response.result, case.expected)
        except Exception as exc:  # an odd answer must not crash the run
            return FAILED, f"outputs cannot be judged ({type(exc).__name__}: {exc})", None
    rest = {k: v for k, v in case.expected.items() if k not in judged}
    why: str | None = None
    if rest or not judged:
        try:
            why = family.compare(replace(case, expected=rest),
                                 {k: v for k, v in response.result.items() if k not in judged})
        except Exception as exc:  # a family's comparison must not crash the run on odd outputs
            why = f"outputs cannot be compared ({type(exc).__name__}: {exc})"
    doc = verdict.to_json() if verdict is not None else None
    if verdict is not None and verdict.fails(max_slack):
        reason = verdict.line()
        if not verdict.fails_privacy:
            reason += f" exceeds --max-slack {max_slack:g}"
        return FAILED, reason, doc
    if why is not None:
        return FAILED, why, doc
    return PASSED, verdict.line() if verdict is not None else "", doc


def run_case(suite: str, family: Family, case: Case, session: Session, *,
             max_slack: float | None = None) -> Outcome:
    """Send one case and judge the answer."""
    test = str(case.tc_id)
    base = Outcome(suite=suite, source=case.path, test=test, op=case.op, status=SKIPPED,
                   expected=case.expected if case.result != "invalid" else {"result": "invalid"},
                   comment=case.comment, invalid_input=case.result == "invalid")
    if case.op in session.ops and case.op not in session.ops_for("exact"):
        base.reason = f"op {case.op} is listed for other modes only (opsByMode)"
        return base
    try:
        response = session.call(case.op, dict(case.args))
    except ProtocolFailure as exc:
        base.status, base.reason = ERROR, str(exc)
        return base
    base.seconds = response.seconds
    base.provided = (response.result if response.ok else
                     {"unsupported": response.unsupported} if response.unsupported is not None
                     else {"error": response.error})
    base.status, base.reason, base.verdict = judge_with_verdict(family, case, response,
                                                                max_slack=max_slack)
    if not response.ok and response.error is not None:
        base.rejected_by = rejected_by(response.error)
    return base


#: the prefix an adapter puts on an error it raised itself (not the library); PROTOCOL.md
ADAPTER_REJECTION = "adapter:"


def rejected_by(error: str) -> str:
    """``adapter`` when the adapter says it refused the input itself, else ``library``."""
    return "adapter" if error.strip().lower().startswith(ADAPTER_REJECTION) else "library"


class FamilySuite(Suite):
    """Every vector of one family, exact mode."""

    mode = "exact"

    def __init__(self, family: Family, vectors_dir: Path, *, max_slack: float | None = None
                 ) -> None:
        self.family = family
        self.max_slack = max_slack
        self.name = family.name
        self.summary = family.summary
        self.vectors_dir = vectors_dir
        self._cases: list[Case] | None = None
        self._problems: list[str] = []

    def paths(self) -> list[str]:
        """The family's files, from the manifest."""
        try:
            manifest = json.loads((self.vectors_dir / "MANIFEST.json").read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            return []
        return sorted(e["path"] for e in manifest.get("files", [])
                      if e.get("family") == self.family.name)

    def cases(self) -> list[Case]:
        if self._cases is None:
            cases: list[Case] = []
            for path in self.paths():
                try:
                    doc = json.loads((self.vectors_dir / path).read_text(encoding="utf-8"))
                    cases.extend(self.family.cases(path, doc))
                except (OSError, json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
                    self._problems.append(f"{path}: cannot be read ({exc})")
            self._cases = cases
        return self._cases

    def ops(self) -> frozenset[str]:
        return frozenset(c.op for c in self.cases()) | frozenset(self.family.handlers())

    def problems(self) -> list[str]:
        self.cases()
        return list(self._problems)

    def size(self) -> int:
        return len(self.cases())

    def available(self) -> str | None:
        if not (self.vectors_dir / "MANIFEST.json").is_file():
            return f"no vectors at {self.vectors_dir}"
        return None

    def run(self, session: Session, progress: Progress) -> SuiteResult:
        result = SuiteResult(self.name, self.mode, self.summary)
        start = time.monotonic()
        cases = self.cases()
        for problem in self._problems:
            result.outcomes.append(Outcome(self.name, problem.split(":", 1)[0], "-", "-", ERROR,
                                           problem))
        for i, case in enumerate(cases):
            result.outcomes.append(run_case(self.name, self.family, case, session,
                                            max_slack=self.max_slack))
            progress(i + 1, len(cases))
        result.seconds = time.monotonic() - start
        return result


def vector_summary(value: Any, limit: int = 2000) -> Any:
    """A value for a report, with very long strings and lists cut (the JSON report stays small)."""
    if isinstance(value, str) and len(value) > limit:
        return value[:limit] + f"...({len(value)} chars)"
    if isinstance(value, list) and len(value) > 200:
        return [vector_summary(v, limit) for v in value[:200]] + [f"...({len(value)} items)"]
    if isinstance(value, dict):
        return {k: vector_summary(v, limit) for k, v in value.items()}
    if isinstance(value, list):
        return [vector_summary(v, limit) for v in value]
    return value
