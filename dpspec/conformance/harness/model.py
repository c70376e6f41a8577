"""What a conformance run records: one outcome per test, grouped by suite and implementation."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

PASSED = "passed"
FAILED = "failed"
SKIPPED = "skipped"
ERROR = "error"
STATUSES = (PASSED, FAILED, SKIPPED, ERROR)


@dataclass
class Outcome:
    """The verdict on one test.

    ``passed``: the implementation behaved as the vector says. ``failed``: it answered, wrongly
    (wrong output, accepted an invalid input, rejected a valid one, failed a statistical test).
    ``skipped``: it does not implement the op (``unsupported``, or the op is not in its
    capabilities). ``error``: it broke the protocol (timeout, crash, garbage, wrong id).
    """

    suite: str
    source: str
    test: str
    op: str
    status: str
    reason: str = ""
    expected: Any = None
    provided: Any = None
    comment: str = ""
    seconds: float = 0.0
    #: the privacy verdict (:mod:`dpspec.conformance.verdicts`) of an accounting answer
    verdict: dict[str, Any] | None = None
    #: the test gives invalid arguments (counted apart: rejecting them is the expected answer)
    invalid_input: bool = False
    #: who rejected: "library" (the library's own check) or "adapter" (the adapter's code)
    rejected_by: str = ""

    def to_json(self) -> dict[str, Any]:
        doc = {
            "suite": self.suite, "source": self.source, "test": self.test, "op": self.op,
            "status": self.status, "reason": self.reason, "comment": self.comment,
            "expected": self.expected, "provided": self.provided,
            "seconds": round(self.seconds, 6),
        }
        if self.verdict is not None:
            doc["verdict"] = self.verdict
        if self.invalid_input:
            doc["invalidInput"] = True
        if self.rejected_by:
            doc["rejectedBy"] = self.rejected_by
        return doc


@dataclass
class SuiteResult:
    """Every outcome of one suite against one implementation, and notes (statistical power)."""

    name: str
    mode: str
    summary: str
    outcomes: list[Outcome] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0

    def count(self, status: str) -> int:
        return sum(1 for o in self.outcomes if o.status == status)

    @property
    def counts(self) -> dict[str, int]:
        return {s: self.count(s) for s in STATUSES}

    @property
    def verdict_counts(self) -> dict[str, int]:
        """How many judged answers were UNSAFE, WRONG, CONSERVATIVE, EXACT."""
        return _verdict_counts(self.outcomes)

    @property
    def invalid_counts(self) -> dict[str, int]:
        """Invalid-input tests, apart: how many ran, passed, and who rejected them."""
        return _invalid_counts(self.outcomes)


VERDICTS = ("UNSAFE", "WRONG", "CONSERVATIVE", "EXACT")


def _verdict_counts(outcomes: list[Outcome]) -> dict[str, int]:
    counts = dict.fromkeys(VERDICTS, 0)
    for o in outcomes:
        if o.verdict is not None and o.verdict.get("status") in counts:
            counts[o.verdict["status"]] += 1
    return counts


def _invalid_counts(outcomes: list[Outcome]) -> dict[str, int]:
    inv = [o for o in outcomes if o.invalid_input and o.status != SKIPPED]
    return {"tests": len(inv), "passed": sum(o.status == PASSED for o in inv),
            "rejectedByLibrary": sum(o.rejected_by == "library" for o in inv),
            "rejectedByAdapter": sum(o.rejected_by == "adapter" for o in inv)}


@dataclass
class ImplResult:
    """One implementation's run: its capabilities and suite results."""

    name: str
    command: list[str]
    capabilities: dict[str, Any] | None = None
    suites: list[SuiteResult] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def counts(self) -> dict[str, int]:
        total = dict.fromkeys(STATUSES, 0)
        for suite in self.suites:
            for status, n in suite.counts.items():
                total[status] += n
        return total

    @property
    def verdict_counts(self) -> dict[str, int]:
        return _verdict_counts([o for s in self.suites for o in s.outcomes])

    @property
    def invalid_counts(self) -> dict[str, int]:
        return _invalid_counts([o for s in self.suites for o in s.outcomes])

    @property
    def disposition(self) -> str:
        """PASS: something ran and nothing failed. FAIL: a failure or error. UNTESTED: nothing ran."""
        counts = self.counts
        if counts[FAILED] or counts[ERROR] or self.problems:
            return "FAIL"
        return "PASS" if counts[PASSED] else "UNTESTED"


@dataclass
class RunReport:
    """A whole ``dpspec conformance run``."""

    impls: list[ImplResult] = field(default_factory=list)
    not_installed: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0
    version: str = ""
    #: implementations whose results are reported but do not decide the disposition: the
    #: third-party DP libraries in a plain run (their findings are docs/ecosystem.md)
    advisory: frozenset[str] = frozenset()

    @property
    def disposition(self) -> str:
        judged = [i for i in self.impls if i.name not in self.advisory]
        if any(i.disposition == "FAIL" for i in judged):
            return "FAIL"
        return "PASS" if any(i.disposition == "PASS" for i in judged) else "UNTESTED"
