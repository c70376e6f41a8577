"""The harness checks a third party's federated-learning path against the sa2 vectors: the
randomizer (sa2/fl_randomizer.json, op sa2.gaussian_vector) and the FL rounds among the protocol
transcripts (op sa2.collection). An adapter with the reference's handlers passes; one that rounds
the fixed-point encoding to nearest, or forgets to clip, fails exactly where that matters."""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

import pytest

from dpspec.conformance.families import get_family
from dpspec.conformance.harness.adapters import AdapterSpec
from dpspec.conformance.harness.model import FAILED, PASSED, SKIPPED, ImplResult
from dpspec.conformance.harness.runner import run_impl
from dpspec.conformance.harness.suites import FamilySuite
from dpspec.conformance.store import default_vectors_dir

SCRIPT = Path(__file__).resolve().parent / "adapters" / "sa2_fl.py"


@cache
def run(mode: str) -> ImplResult:
    spec = AdapterSpec(f"sa2-fl-{mode}", (sys.executable, str(SCRIPT), mode), "test",
                       bundled=False)
    suite = FamilySuite(get_family("sa2"), default_vectors_dir())
    return run_impl(spec, [suite], timeout=120.0, startup_timeout=60.0)


def fl_case(comment: str) -> bool:
    return comment.startswith("federated learning")


def outcomes(impl: ImplResult, op: str) -> list[object]:
    return [o for s in impl.suites for o in s.outcomes if o.op == op]


def test_the_reference_handlers_pass() -> None:
    impl = run("correct")
    assert impl.disposition == "PASS"
    for op in ("sa2.gaussian_vector", "sa2.collection"):
        got = outcomes(impl, op)
        assert got and all(o.status == PASSED for o in got)  # type: ignore[attr-defined]
    others = [o for s in impl.suites for o in s.outcomes
              if o.op not in ("sa2.gaussian_vector", "sa2.collection")]
    assert others and all(o.status == SKIPPED for o in others)


@pytest.mark.parametrize("mode", ["nearest", "no-clip"])
def test_a_wrong_randomizer_fails_the_vectors(mode: str) -> None:
    impl = run(mode)
    assert impl.disposition == "FAIL"
    suite = FamilySuite(get_family("sa2"), default_vectors_dir())
    comments = {(c.path, c.tc_id): c.comment for c in suite.cases()}
    failed = {(o.source, int(o.test)) for s in impl.suites for o in s.outcomes
              if o.status == FAILED}
    rand = [c for c in suite.cases() if c.op == "sa2.gaussian_vector"]
    rand_failed = {c.tc_id for c in rand if (c.path, c.tc_id) in failed}
    # invalid inputs are refused either way; only valid cases the mistake touches fail
    assert all(c.expected is not None for c in rand if c.tc_id in rand_failed)
    if mode == "nearest":  # entries that are not multiples of 2^-f round differently
        assert len(rand_failed) >= 4
    else:  # the three clipped updates
        clipped = {c.tc_id for c in rand if "Clipped" in c.flags}
        assert rand_failed == clipped and len(clipped) == 3
    coll = [c for c in suite.cases() if c.op == "sa2.collection"]
    coll_failed = {comments[(c.path, c.tc_id)] for c in coll if (c.path, c.tc_id) in failed}
    assert coll_failed and all(fl_case(c) for c in coll_failed)
    if mode == "no-clip":  # the synthetic updates reach 1.5 per entry: some exceed C = 1
        assert len(coll_failed) == sum(fl_case(c.comment) for c in coll)
