"""Conformance reports: a JSON document, JUnit XML, and the human summary table.

JSON (``--report-json``)::

    {"reportVersion": 1, "dpspecVersion": "0.1.0", "disposition": "PASS" | "FAIL" | "UNTESTED",
     "seconds": ..., "notInstalled": {impl: why},
     "implementations": [
       {"name", "command", "capabilities", "disposition", "problems": [...],
        "counts": {"passed", "failed", "skipped", "error"},
        "suites": [{"name", "mode", "summary", "counts", "notes": [...], "details": {...},
                    "outcomes": [{"suite", "source", "test", "op", "status", "reason",
                                  "comment", "expected", "provided", "seconds"}]}]}]}

``outcomes`` lists every failed and error test in full; passed and skipped tests are listed
without ``expected``/``provided`` (``--report-all`` keeps those too). JUnit: one ``testsuite`` per
implementation and suite, one ``testcase`` per test (``failure`` for failed, ``error`` for
protocol errors, ``skipped`` for unsupported).
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from typing import Any

from dpspec.conformance.harness.model import (
    ERROR,
    FAILED,
    PASSED,
    SKIPPED,
    ImplResult,
    Outcome,
    RunReport,
)
from dpspec.conformance.harness.suites import vector_summary

REPORT_VERSION = 1


def _outcome_json(o: Outcome, full: bool) -> dict[str, Any]:
    doc = o.to_json()
    if full or o.status in (FAILED, ERROR):
        doc["expected"] = vector_summary(doc["expected"])
        doc["provided"] = vector_summary(doc["provided"])
    else:
        del doc["expected"], doc["provided"]
    return doc


def to_json(report: RunReport, *, full: bool = False) -> dict[str, Any]:
    """The JSON report document."""
    impls = []
    for impl in report.impls:
        impls.append({
            "name": impl.name,
            "command": impl.command,
            "capabilities": impl.capabilities,
            "disposition": impl.disposition,
            "problems": impl.problems,
            "implementation": (impl.capabilities or {}).get("implementation", impl.name),
            "version": (impl.capabilities or {}).get("version", ""),
            "counts": impl.counts,
            "verdicts": impl.verdict_counts,
            "invalidInputs": impl.invalid_counts,
            "seconds": round(impl.seconds, 3),
            "suites": [{
                "name": s.name, "mode": s.mode, "summary": s.summary, "counts": s.counts,
                "verdicts": s.verdict_counts, "invalidInputs": s.invalid_counts,
                "notes": s.notes, "details": s.details, "seconds": round(s.seconds, 3),
                "outcomes": [_outcome_json(o, full) for o in s.outcomes],
            } for s in impl.suites],
        })
    return {
        "reportVersion": REPORT_VERSION,
        "dpspecVersion": report.version,
        "disposition": report.disposition,
        "seconds": round(report.seconds, 3),
        "notInstalled": report.not_installed,
        "implementations": impls,
    }


def to_junit(report: RunReport) -> str:
    """JUnit XML (the common Jenkins/GitLab dialect)."""
    root = ET.Element("testsuites", name="dpspec conformance")
    totals = dict.fromkeys(("tests", "failures", "errors", "skipped"), 0)
    for impl in report.impls:
        if impl.problems:
            ts = ET.SubElement(root, "testsuite", name=f"{impl.name}", tests="1", failures="0",
                               errors="1", skipped="0")
            tc = ET.SubElement(ts, "testcase", classname=impl.name, name="capabilities")
            ET.SubElement(tc, "error", message="; ".join(impl.problems)[:1000])
            totals["tests"] += 1
            totals["errors"] += 1
        for suite in impl.suites:
            c = suite.counts
            ts = ET.SubElement(root, "testsuite", name=f"{impl.name}.{suite.name}",
                               tests=str(len(suite.outcomes)), failures=str(c[FAILED]),
                               errors=str(c[ERROR]), skipped=str(c[SKIPPED]),
                               time=f"{suite.seconds:.3f}")
            totals["tests"] += len(suite.outcomes)
            totals["failures"] += c[FAILED]
            totals["errors"] += c[ERROR]
            totals["skipped"] += c[SKIPPED]
            vc = suite.verdict_counts
            if suite.notes or any(vc.values()):
                props = ET.SubElement(ts, "properties")
                for i, note in enumerate(suite.notes):
                    ET.SubElement(props, "property", name=f"note{i + 1}", value=note)
                for status, n in vc.items():
                    if n:
                        ET.SubElement(props, "property", name=f"verdict.{status}", value=str(n))
            for o in suite.outcomes:
                tc = ET.SubElement(ts, "testcase", classname=f"{impl.name}.{suite.name}.{o.source}",
                                   name=f"{o.test} {o.op}".strip(), time=f"{o.seconds:.6f}")
                detail = (f"expected: {json.dumps(vector_summary(o.expected, 500))}\n"
                          f"provided: {json.dumps(vector_summary(o.provided, 500))}")
                if o.verdict is not None:
                    detail += f"\nverdict: {json.dumps(o.verdict)}"
                if o.status == FAILED:
                    kind = "unsafe" if (o.verdict or {}).get("status") == "UNSAFE" else "failed"
                    ET.SubElement(tc, "failure", message=o.reason[:1000], type=kind).text = detail
                elif o.status == ERROR:
                    ET.SubElement(tc, "error", message=o.reason[:1000]).text = detail
                elif o.status == SKIPPED:
                    ET.SubElement(tc, "skipped", message=o.reason[:1000])
    for key, value in totals.items():
        root.set(key, str(value))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def summary_table(report: RunReport) -> str:
    """The human summary: one row per implementation and suite, then the disposition."""
    rows = [("implementation", "suite", "mode", "passed", "failed", "unsafe", "skipped", "error",
             "invalid", "verdict")]
    for impl in report.impls:
        name = impl_label(impl)
        if impl.problems:
            rows.append((name, "(capabilities)", "-", "0", "0", "0", "0", "1", "-", "FAIL"))
        for s in impl.suites:
            c = s.counts
            inv = s.invalid_counts
            unsafe = s.verdict_counts["UNSAFE"]
            verdict = ("UNSAFE" if unsafe else "FAIL" if c[FAILED] or c[ERROR]
                       else "pass" if c[PASSED] else "skip")
            rows.append((name, s.name, s.mode, str(c[PASSED]), str(c[FAILED]), str(unsafe),
                         str(c[SKIPPED]), str(c[ERROR]),
                         f"{inv['passed']}/{inv['tests']}" if inv["tests"] else "-", verdict))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for n, row in enumerate(rows):
        cells = [cell.rjust(widths[i]) if 3 <= i <= 8 else cell.ljust(widths[i])
                 for i, cell in enumerate(row)]
        lines.append("  ".join(cells).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    out = ["\n".join(lines), ""]
    for impl in report.impls:
        for s in impl.suites:
            for note in s.notes:
                out.append(f"{impl.name} / {s.name}: {note}")
    for name, why in report.not_installed.items():
        out.append(f"{name}: not run ({why})")
    for impl in report.impls:
        c = impl.counts
        caps = impl.capabilities or {}
        label = f"{caps.get('implementation', impl.name)} {caps.get('version', '')}".strip()
        advisory = " (advisory: reported, not judged; see docs/ecosystem.md)" \
            if impl.name in report.advisory else ""
        out.append(f"{impl.name} ({label}): {impl.disposition}{advisory}: {c[PASSED]} passed, "
                   f"{c[FAILED]} failed, {c[SKIPPED]} skipped, {c[ERROR]} errors "
                   f"in {impl.seconds:.1f} s" + "".join(f"; {p}" for p in impl.problems))
    out.append("(unsafe: answers whose true privacy is worse than claimed, also counted in failed;"
               " invalid: invalid-input tests passed/run, also counted in passed/failed)")
    out.append(f"overall: {report.disposition}")
    return "\n".join(out) + "\n"


def impl_label(impl: ImplResult) -> str:
    """``name version`` from the adapter's capabilities (the bundled name if it gave none)."""
    caps = impl.capabilities or {}
    version = str(caps.get("version", "")).strip()
    return f"{impl.name} {version}".strip() if version else impl.name


def failure_details(report: RunReport, *, show_expected: bool = False, limit: int = 50) -> str:
    """One paragraph per failed or error test (the first ``limit`` per implementation)."""
    out = []
    for impl in report.impls:
        bad = [o for s in impl.suites for o in s.outcomes if o.status in (FAILED, ERROR)]
        for o in bad[:limit]:
            out.append(f"{o.status.upper()} {impl.name} / {o.suite} / {o.source} / test {o.test} "
                       f"({o.op}): {o.reason}")
            if o.comment:
                out.append(f"    comment:  {o.comment}")
            if show_expected:
                out.append(f"    expected: {json.dumps(vector_summary(o.expected, 300))}")
                out.append(f"    provided: {json.dumps(vector_summary(o.provided, 300))}")
        if len(bad) > limit:
            out.append(f"... and {len(bad) - limit} more for {impl.name} (see --report-json)")
    return "\n".join(out) + ("\n" if out else "")


__all__ = ["to_json", "to_junit", "summary_table", "failure_details", "PASSED"]
