"""The official VDAF vectors through the harness: divviup-ts (draft-08), the reference (draft-20),
and a Prio3 that mis-encodes one field element."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from collections import Counter
from pathlib import Path

import pytest

from dpspec.conformance.harness.adapters import ADAPTERS_DIR, AdapterSpec, bundled
from dpspec.conformance.harness.model import FAILED, PASSED, SKIPPED, ImplResult
from dpspec.conformance.harness.runner import run_impl
from dpspec.conformance.harness.vdaf_official import (
    OfficialVdafSuite,
    default_vdaf_dir,
    describe_difference,
    load_chain,
)

VDAF_DIR = default_vdaf_dir()
needs_divviup = pytest.mark.skipif(
    shutil.which("node") is None
    or not (ADAPTERS_DIR / "node_modules" / "@divviup" / "prio3").is_dir(),
    reason="node or the npm packages (npm ci in dpspec/conformance/adapters) are missing")
MISENCODE = Path(__file__).resolve().parent / "adapters" / "divviup_misencode.mjs"

DRAFT08_PASSING = ("Prio3Count", "Prio3Sum", "Prio3SumVec", "Prio3Histogram",
                   "Prio3SumVecWithMultiproof")


def has_prio3() -> bool:
    try:
        return importlib.util.find_spec("dpspec.spec.vdaf.prio3") is not None
    except ModuleNotFoundError:
        return False


def suite(draft: int) -> OfficialVdafSuite:
    return OfficialVdafSuite(draft, VDAF_DIR)


def per_file(impl: ImplResult) -> dict[str, Counter[str]]:
    out: dict[str, Counter[str]] = {}
    for s in impl.suites:
        for o in s.outcomes:
            out.setdefault(o.source.split("/")[-1], Counter())[o.status] += 1
    return out


def test_chains_cover_every_operation() -> None:
    chain = load_chain(VDAF_DIR / "draft-20" / "vdaf" / "Prio3Sum_0.json", "x", 20)
    assert [s.test for s in chain.steps] == [
        "r0.shard", "r0.verify_init[0]", "r0.verify_init[1]", "r0.verifier_shares_to_message",
        "r0.verify_next[0]", "r0.verify_next[1]", "aggregate[0]", "aggregate[1]", "unshard"]
    bad = load_chain(VDAF_DIR / "draft-20" / "vdaf" / "Prio3Count_bad_meas_share.json", "x", 20)
    assert bad.steps[-1].op == "vdaf.verifier_shares_to_message" and bad.steps[-1].expected is None
    old = load_chain(VDAF_DIR / "draft-08" / "Prio3SumVecWithMultiproof_0.json", "x", 8)
    assert old.vdaf == {"draft": 8, "type": "Prio3SumVecWithMultiproof", "shares": 2, "bits": 8,
                        "length": 10, "chunk_length": 9, "field": "Field64", "num_proofs": 4}
    assert "ctx" not in old.steps[0].args
    assert suite(20).size() > 300 and suite(8).size() > 100


@needs_divviup
def test_divviup_ts_passes_the_draft08_vectors() -> None:
    spec = bundled()["divviup-ts"]
    assert spec.missing() is None
    impl = run_impl(spec, [suite(8)], timeout=60.0)
    files = per_file(impl)
    for name, counts in files.items():
        kind = name.split("_")[0]
        if kind in DRAFT08_PASSING:
            assert counts == Counter({PASSED: counts[PASSED]}), (name, counts)
        else:
            assert kind == "Prio3MultiHotHistogram" and set(counts) == {SKIPPED}, (name, counts)
    assert {n.split("_")[0] for n in files} == {*DRAFT08_PASSING, "Prio3MultiHotHistogram"}
    skipped = [o for s in impl.suites for o in s.outcomes if o.status == SKIPPED]
    assert all("Prio3MultiHotHistogram is not in @divviup/prio3 0.8.0" in o.reason
               or "verify_init step it continues was skipped" in o.reason for o in skipped)
    assert impl.disposition == "PASS"
    # divviup-ts implements draft-08 only: the draft-20 vectors are all unsupported
    impl20 = run_impl(spec, [suite(20)], timeout=60.0)
    assert impl20.counts[SKIPPED] == suite(20).size() and impl20.disposition == "UNTESTED"


@needs_divviup
@pytest.mark.parametrize("where, op", [("agg", "vdaf.aggregate"), ("input", "vdaf.shard")])
def test_prio3_misencoding_one_field_element_is_caught(where: str, op: str) -> None:
    spec = AdapterSpec("misencode", ("node", str(MISENCODE), where), "test", bundled=False)
    impl = run_impl(spec, [suite(8)], timeout=60.0)
    failed = [o for s in impl.suites for o in s.outcomes if o.status == FAILED]
    assert failed and all(o.op == op for o in failed)
    assert all("differs at hex digit 0 (byte 0)" in o.reason for o in failed)
    passing = suite(8)
    expected = sum(1 for c in passing.chains() if c.vdaf["type"] in DRAFT08_PASSING
                   for s in c.steps if s.op == op)
    assert len(failed) == expected
    assert impl.counts[PASSED] == sum(
        len(c.steps) for c in passing.chains() if c.vdaf["type"] in DRAFT08_PASSING) - expected


def test_reference_runs_the_draft20_vectors() -> None:
    impl = run_impl(bundled()["reference"], [suite(20), suite(8)], timeout=60.0)
    s20, s08 = impl.suites
    assert s08.counts[SKIPPED] == suite(8).size()  # the reference is draft-20 only
    if not has_prio3():
        assert s20.counts[SKIPPED] == suite(20).size()
        assert "no Prio3" in s20.outcomes[0].reason
    else:
        assert s20.counts == {PASSED: suite(20).size(), FAILED: 0, SKIPPED: 0, "error": 0}


def test_describe_difference() -> None:
    assert describe_difference("k", "00ff", "00FF") is None
    assert "byte 1" in (describe_difference("k", "00ff", "00fe") or "")
    assert "k[1]" in (describe_difference("k", ["aa", "bb"], ["aa", "bc"]) or "")
    assert "got 2 digits" in (describe_difference("k", "aabb", "aa") or "")
    assert describe_difference("k", [1, 2], [1, 2]) is None
    assert "expected [1, 2]" in (describe_difference("k", [1, 2], [1]) or "")


def test_prio3_draft20_misencoding_the_verifier_share_is_caught() -> None:
    """The reference's vdaf.* ops with one field element of the verifier share big-endian."""
    script = Path(__file__).resolve().parent / "adapters" / "prio3_misencode.py"
    spec = AdapterSpec("misencode20", (sys.executable, str(script)), "test", bundled=False)
    impl = run_impl(spec, [suite(20)], timeout=60.0)
    outcomes = [o for s in impl.suites for o in s.outcomes]
    if not has_prio3():
        assert impl.disposition == "UNTESTED"
        return
    verify_init = [o for o in outcomes if o.op == "vdaf.verify_init"]
    assert verify_init and all(o.status == FAILED and "verifier_share: differs at hex digit"
                               in o.reason for o in verify_init)
    for o in outcomes:
        if o.op == "vdaf.verify_next":
            assert o.status == FAILED and "verify_init step it continues did not succeed" in o.reason
        elif o.op != "vdaf.verify_init":
            assert o.status == PASSED, (o.source, o.test, o.reason)
