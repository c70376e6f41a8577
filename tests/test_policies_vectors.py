"""The policy and mechanism vector files: the VDAF part is a plain Prio3 transcript, the harness
comparison catches a changed DP output, and max_weight agrees with the Prio3 family's own."""

from __future__ import annotations

import copy
import json

import pytest

from dpspec.conformance.families.mechanisms import FAMILY as MECHANISMS
from dpspec.conformance.families.policies import FAMILY as POLICIES_FAMILY
from dpspec.conformance.families.policies import MAX_WEIGHT_PATH, SETS
from dpspec.conformance.families.vdaf import rappor_max_weight, replay_operations
from dpspec.conformance.store import default_vectors_dir
from dpspec.spec.policies import max_weight

ROOT = default_vectors_dir()
TRANSCRIPTS = [f"policies/{stem}.json" for stem, *_ in SETS]


@pytest.mark.parametrize("path", TRANSCRIPTS)
def test_base_part_is_a_plain_prio3_transcript(path: str) -> None:
    doc = json.loads((ROOT / path).read_text())
    base = {k: v for k, v in doc.items() if k != "dp_policy"}
    assert replay_operations(path, base) == []
    dp = doc["dp_policy"]
    assert dp["meas_count"] == len(doc["reports"])
    assert [r["vdaf_report_index"] for r in dp["reports"] if r["rejected"] is None] == \
        list(range(len(doc["reports"])))


@pytest.mark.parametrize("key", ["noised_agg_shares", "agg_result", "debiased_result", "accepted"])
def test_policy_harness_detects_a_changed_output(key: str) -> None:
    path = "policies/Prio3MultihotCountVec_multihot-client-rr-fill_d10_target20.json"
    doc = json.loads((ROOT / path).read_text())
    [case] = POLICIES_FAMILY.cases(path, doc)
    provided = POLICIES_FAMILY.handlers()[case.op](dict(case.args))
    assert POLICIES_FAMILY.compare(case, provided) is None
    bad = copy.deepcopy(provided)
    if key == "noised_agg_shares":
        bad[key][0] = "00" + bad[key][0][2:]
    elif key == "accepted":
        bad[key][0] = not bad[key][0]
    elif key == "agg_result":
        bad[key][0] += 1
    else:
        bad[key][0] = str(float(bad[key][0]) + 1e-9)
    assert POLICIES_FAMILY.compare(case, bad) is not None


def test_debiased_tolerance_is_relative_1e12() -> None:
    path = "policies/Prio3MultihotCountVec_multihot-client-rr_d10_eps5.json"
    doc = json.loads((ROOT / path).read_text())
    [case] = POLICIES_FAMILY.cases(path, doc)
    provided = POLICIES_FAMILY.handlers()[case.op](dict(case.args))
    close = copy.deepcopy(provided)
    close["debiased_result"] = [str(float(x)) for x in close["debiased_result"]]  # ~1e-16 off
    assert POLICIES_FAMILY.compare(case, close) is None


def test_mechanism_harness_detects_a_changed_output() -> None:
    doc = json.loads((ROOT / "mechanisms/mechanisms.json").read_text())
    cases = [c for c in MECHANISMS.cases("mechanisms/mechanisms.json", doc) if c.result == "valid"
             and c.op == "mechanisms.symmetric_rappor"]
    case = cases[0]
    provided = MECHANISMS.handlers()[case.op](dict(case.args))
    assert MECHANISMS.compare(case, provided) is None
    bad = copy.deepcopy(provided)
    first = bad["noisy"][0]
    bad["noisy"][0] = ("1" if first[0] == "0" else "0") + first[1:]
    assert MECHANISMS.compare(case, bad) is not None
    bad = copy.deepcopy(provided)
    bad["debiased"][0] = str(float(bad["debiased"][0]) + 1e-6)
    assert MECHANISMS.compare(case, bad) is not None


@pytest.mark.parametrize("length", [10, 100])
@pytest.mark.parametrize("eps0", ["5.0", "6.5", "7.0"])
def test_max_weight_agrees_with_the_prio3_family(length: int, eps0: str) -> None:
    # dpspec.spec.policies.max_weight (rigorous) and the vdaf family's mpmath computation (60 digits).
    assert max_weight(length, eps0, "1e-9") == rappor_max_weight(length, eps0)


def test_max_weight_vectors_file_exists() -> None:
    doc = json.loads((ROOT / MAX_WEIGHT_PATH).read_text())
    assert doc["numberOfTests"] >= 20
