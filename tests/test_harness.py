"""The conformance harness against correct and deliberately broken adapters (exact mode)."""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dpspec.conformance.families import get_family
from dpspec.conformance.harness.adapters import AdapterSpec, bundled, resolve
from dpspec.conformance.harness.model import ERROR, FAILED, PASSED, SKIPPED, ImplResult, RunReport
from dpspec.conformance.harness.process import AdapterProcess, ProtocolFailure
from dpspec.conformance.harness.runner import all_suites, run_impl, select_suites
from dpspec.conformance.harness.suites import FamilySuite
from dpspec.conformance.report import failure_details, summary_table, to_json, to_junit
from dpspec.conformance.store import default_vectors_dir

FAKE = Path(__file__).resolve().parent / "adapters" / "fake.py"


def fake(*modes: str) -> AdapterSpec:
    return AdapterSpec("fake " + " ".join(modes), (sys.executable, str(FAKE), *modes), "test",
                       bundled=False)


def tape_suite() -> FamilySuite:
    return FamilySuite(get_family("tape"), default_vectors_dir())


def run(spec: AdapterSpec, timeout: float = 5.0) -> ImplResult:
    return run_impl(spec, [tape_suite()], timeout=timeout, startup_timeout=60.0)


def statuses(impl: ImplResult) -> dict[str, int]:
    return impl.counts


def test_reference_passes_every_vector() -> None:
    impl = run(bundled()["reference"])
    suite = tape_suite()
    assert impl.counts == {PASSED: suite.size(), FAILED: 0, SKIPPED: 0, ERROR: 0}
    assert impl.disposition == "PASS"
    assert impl.capabilities is not None and impl.capabilities["protocol"] == 1


def test_correct_fake_passes() -> None:
    impl = run(fake())
    assert impl.disposition == "PASS"
    assert impl.counts[FAILED] == impl.counts[ERROR] == 0


def test_wrong_value_is_a_failure_naming_the_tests() -> None:
    impl = run(fake("tape-wrong"))
    failed = [o for s in impl.suites for o in s.outcomes if o.status == FAILED]
    assert failed and impl.disposition == "FAIL"
    assert all(o.op == "tape.uniform" for o in failed)
    assert all("values: expected" in o.reason for o in failed)
    # every tape.uniform test with more than 3 values fails, and only those
    cases = [c for c in tape_suite().cases() if c.op == "tape.uniform" and c.expected
             and len(c.expected["values"]) > 3]
    assert sorted(int(o.test) for o in failed) == sorted(c.tc_id for c in cases)
    assert impl.counts[ERROR] == 0


def test_accepting_an_invalid_input_fails() -> None:
    impl = run(fake("accept-invalid"))
    failed = [o for s in impl.suites for o in s.outcomes if o.status == FAILED]
    assert len(failed) == 1
    assert failed[0].op == "xof.derive_seed" and "accepted an invalid input" in failed[0].reason


def test_crash_mid_run_gives_errors_and_the_run_continues() -> None:
    impl = run(fake("crash-after=10"))
    counts = impl.counts
    # the adapter dies on every 10th request after a (re)start: 9 answered, then one error
    assert counts[ERROR] >= 3
    assert counts[PASSED] >= 30
    errors = [o for s in impl.suites for o in s.outcomes if o.status == ERROR]
    assert all("exited with status 3" in o.reason for o in errors)
    assert "crashing on purpose" in errors[0].reason  # the adapter's stderr tail is quoted
    assert counts[PASSED] + counts[ERROR] == tape_suite().size()


# Timeouts are tested without wall-clock races: a normal answer takes milliseconds and gets
# HANG_TIMEOUT (hundreds of times more, so a fully loaded machine still answers in time), while a
# hanging adapter never answers; the start-up allowance is far above any real start-up. The test
# asserts what was reported, never how long it took (pytest-timeout bounds the whole run).
HANG_TIMEOUT = 4.0
GENEROUS_STARTUP = 120.0


def run_patiently(spec: AdapterSpec, timeout: float = HANG_TIMEOUT) -> ImplResult:
    return run_impl(spec, [tape_suite()], timeout=timeout, startup_timeout=GENEROUS_STARTUP)


def test_hang_is_cut_by_the_timeout_and_the_run_continues() -> None:
    impl = run_patiently(fake("hang-after=20"))
    # 19 answers, a timeout, a fresh adapter: 19 answers, a timeout, ... to the end of the suite
    size = tape_suite().size()
    hangs = list(range(19, size, 20))
    assert impl.counts == {PASSED: size - len(hangs), FAILED: 0, SKIPPED: 0, ERROR: len(hangs)}
    outcomes = [o for s in impl.suites for o in s.outcomes]
    errors = [o for o in outcomes if o.status == ERROR]
    assert [i for i, o in enumerate(outcomes) if o.status == ERROR] == hangs
    assert all(f"timeout: no complete response within {HANG_TIMEOUT:g} s" in o.reason for o in errors)


def test_always_hanging_adapter_is_declared_dead() -> None:
    # every request after a restart hangs and so waits the timeout plus the start-up allowance:
    # 10 s of allowance (the fake adapter starts in well under a second, even on a loaded
    # machine) keeps the test at about half a minute instead of four
    impl = run_impl(fake("hang-after=1"), [tape_suite()], timeout=HANG_TIMEOUT, startup_timeout=10.0)
    errors = [o for s in impl.suites for o in s.outcomes]
    assert impl.counts[ERROR] == tape_suite().size()
    assert all("timeout" in o.reason for o in errors[:3])
    assert all("declared dead after 3 consecutive" in o.reason for o in errors[3:])


def test_a_slow_starting_adapter_gets_its_start_up_allowance_after_every_restart() -> None:
    """Issue: 3 s start-up, a crash, --timeout 2 declared such an adapter dead. The start-up delay
    (5 s) exceeds the request timeout (4 s), so without the allowance on restart the first request
    after the crash could not be answered in time; with it, only the crashing requests fail."""
    impl = run_patiently(fake("start-delay=5", "crash-after=20"))
    size = tape_suite().size()
    crashes = len(range(19, size, 20))
    assert impl.counts == {PASSED: size - crashes, FAILED: 0, SKIPPED: 0, ERROR: crashes}
    errors = [o for s in impl.suites for o in s.outcomes if o.status == ERROR]
    assert all("exited with status 3" in o.reason for o in errors)


def test_capabilities_honours_the_timeout_plus_the_start_up_allowance() -> None:
    """The first capabilities gets --timeout plus the start-up allowance (PROTOCOL.md sec. 8), no
    fixed timeout of its own: an adapter slower than both is reported, not waited for."""
    impl = run_impl(fake("start-delay=3600"), [tape_suite()], timeout=1.0, startup_timeout=1.0)
    assert impl.problems and "timeout: no complete response within 2 s" in impl.problems[0]


@pytest.mark.parametrize("mode, text", [
    ("garbage", "not JSON"),
    ("wrong-id", "does not match request id"),
    ("not-object", "not a JSON object"),
])
def test_malformed_answers_are_errors(mode: str, text: str) -> None:
    impl = run(fake(mode))
    # capabilities is answered correctly; every test then breaks the protocol
    assert impl.counts[ERROR] == tape_suite().size()
    errors = [o for s in impl.suites for o in s.outcomes]
    assert text in errors[0].reason
    assert "declared dead" in errors[-1].reason
    assert impl.disposition == "FAIL"


def test_oversized_and_unterminated_answers() -> None:
    spec = fake("huge")
    proc = AdapterProcess(spec.command, timeout=5.0, max_response_bytes=1_000_000)
    with proc:
        assert proc.request("capabilities", {}).ok
        with pytest.raises(ProtocolFailure, match="exceeds the limit"):
            proc.request("tape.uniform", {"seed": "00" * 16, "tag": "t", "n": "5", "count": 1})
    proc = AdapterProcess(fake("no-newline").command, timeout=1.0)
    with proc:
        assert proc.request("capabilities", {}).ok
        with pytest.raises(ProtocolFailure, match="timeout"):
            proc.request("tape.uniform", {"seed": "00" * 16, "tag": "t", "n": "5", "count": 1})


def test_dead_adapter_and_missing_program() -> None:
    impl = run(fake("dead"))
    assert impl.problems and "capabilities" in impl.problems[0]
    assert impl.disposition == "FAIL"
    impl = run(resolve("/nonexistent/adapter --flag"))
    assert impl.problems and "cannot start" in impl.problems[0]


def test_unsupported_is_skipped_not_failed() -> None:
    impl = run(fake("unsupported"))
    assert impl.counts[SKIPPED] == tape_suite().size()
    assert impl.disposition == "UNTESTED"


def test_reports_json_junit_and_summary() -> None:
    report = RunReport(version="test")
    report.impls.append(run(fake("tape-wrong")))
    report.impls.append(run(fake("dead")))
    doc = to_json(report)
    assert doc["disposition"] == "FAIL"
    first = doc["implementations"][0]
    bad = [o for s in first["suites"] for o in s["outcomes"] if o["status"] == FAILED]
    assert bad and "expected" in bad[0] and "provided" in bad[0]
    good = [o for s in first["suites"] for o in s["outcomes"] if o["status"] == PASSED]
    assert good and "expected" not in good[0]
    json.dumps(doc)
    root = ET.fromstring(to_junit(report))
    assert int(root.get("failures", "0")) == len(bad)
    assert int(root.get("errors", "0")) == 1
    table = summary_table(report)
    assert "overall: FAIL" in table and "tape" in table
    details = failure_details(report, show_expected=True)
    assert "expected:" in details and "provided:" in details


def test_every_family_is_a_suite() -> None:
    from dpspec.conformance.families import all_families

    names = {s.name for s in all_suites()}
    for family in all_families():
        assert (family.name in names) == family.harness_suite
    # the official VDAF files run as the step-by-step suites below, not as a family suite
    assert {"vdaf-official-20", "vdaf-official-08", "statistical.discrete_gaussian"} <= names
    assert [s.name for s in select_suites(all_suites(), ["statistical"])] == [
        n for n in [s.name for s in all_suites()] if n.startswith("statistical.")]
    with pytest.raises(KeyError):
        select_suites(all_suites(), ["no-such-suite"])


@given(st.binary(max_size=200))
def test_any_line_parses_or_is_a_protocol_failure(raw: bytes) -> None:
    from dpspec.conformance.harness.process import Response, _parse_response

    try:
        out = _parse_response(raw.replace(b"\n", b""), 7, 0.0)
    except ProtocolFailure:
        return
    assert isinstance(out, Response)


@given(st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=5),
                 st.lists(st.integers(), max_size=3)),
       st.sampled_from(["ok", "id", "result", "error", "unsupported"]))
def test_responses_with_a_wrong_field_are_rejected(value: object, field: str) -> None:
    from dpspec.conformance.harness.process import _parse_response

    doc: dict[str, object] = {"id": 7, "ok": True, "result": {}}
    doc[field] = value
    raw = json.dumps(doc).encode()
    try:
        out = _parse_response(raw, 7, 0.0)
    except ProtocolFailure:
        return
    # accepted only if it is still a well-formed response to request 7
    assert doc["id"] == 7 and isinstance(doc["ok"], bool) and out.ok == doc["ok"]
