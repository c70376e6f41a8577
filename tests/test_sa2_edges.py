"""The sa2-edges family: its compare, and that its invalid cases are refused for their reason."""

from __future__ import annotations

import copy
import functools
from typing import Any

import pytest

from dpspec.conformance.families import sa2_edges
from dpspec.spec.sa2 import protocol, tokens


@functools.cache
def _groups() -> list[dict[str, Any]]:
    return sa2_edges._groups()


def _tests(op: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    out = []
    for g in _groups():
        if g["op"] == op:
            out += [(g["params"], t) for t in g["tests"]]
    return out


def test_compare_tolerates_only_the_stated_error() -> None:
    (params, t), *_ = _tests("sa2e.guarantee")
    want = t["outputs"]
    assert sa2_edges.compare_outputs(want, copy.deepcopy(want)) is None
    near = copy.deepcopy(want)
    eps = float(near["sa2"]["epsilon"])
    near["sa2"]["epsilon"] = repr(eps * (1 + 1e-8))
    assert sa2_edges.compare_outputs(want, near) is None
    far = copy.deepcopy(want)
    far["sa2"]["epsilon"] = repr(eps * (1 + 1e-4))
    assert sa2_edges.compare_outputs(want, far) is not None
    bound = copy.deepcopy(want)
    bound["sa2"]["bound"] = "closed"
    assert sa2_edges.compare_outputs(want, bound) is not None


def test_tampered_reports_get_each_refusal() -> None:
    params, t = _tests("sa2e.tampered_batch")[0]
    assert t["outputs"]["verdicts"] == ["malformed", "token_malformed", "accepted",
                                       "helper_decrypt_failed", "decode_failed"]


def test_budget_refusals_charge_nothing() -> None:
    for _, t in _tests("sa2e.budget"):
        steps = t["outputs"]["steps"]
        for a, b in zip(steps, steps[1:], strict=False):
            if b["verdict"] != "admitted":
                assert (a["epsilonUsed"], a["queriesUsed"]) == (b["epsilonUsed"],
                                                                 b["queriesUsed"])


def test_unknown_vdaf_is_a_vdaf_mismatch() -> None:
    params, t = [x for x in _tests("sa2e.ideal_release") if x[1]["result"] == "invalid"][0]
    with pytest.raises(protocol.RecipeRefused) as info:
        sa2_edges.h_ideal_release({**params, **t["inputs"]})
    assert info.value.reason == "vdaf_mismatch"


@pytest.mark.parametrize("flag,message", [
    ("EncodingError", "encoding error"),
    ("BadTokenInput", "task_id and nonce must have 32 bytes each"),
    ("SigningFailure", "signing failure")])
def test_token_request_refusals(flag: str, message: str) -> None:
    for params, t in _tests("sa2e.token_request"):
        if flag in t.get("flags", []):
            with pytest.raises(tokens.TokenError, match=message):
                sa2_edges.h_token_request({**params, **t["inputs"]})
            return
    raise AssertionError(flag)


def test_release_rules_are_pinned_on_both_sides() -> None:
    got = [(t["outputs"]["leaderReleases"], t["outputs"]["helperReleases"])
           for _, t in _tests("sa2e.aggregator_release")]
    # 4 then 5 reports against a limit of 4; 5, 4 and 1 accepted against a pool of 5 (B = 2)
    assert got == [(True, True), (False, False), (True, True), (False, False), (False, False)]


def test_check_recipe_charges_then_refuses() -> None:
    (_, t), = _tests("sa2e.check_recipe")
    assert [s["verdict"] for s in t["outputs"]["steps"]] == [
        "admitted", "budget_exhausted", "weak_issuer_key"]


def test_wrong_b_seals_b_plus_one_at_b_1_and_b_minus_one_above() -> None:
    valid = [t for _, t in _tests("sa2e.malicious_reports") if t["result"] == "valid"]
    one, three = valid[0]["outputs"]["reports"], valid[1]["outputs"]["reports"]
    # same tape and task: B = 1 seals with B + 1 = 2 and B = 3 with B - 1 = 2, the same report
    assert one == three and len(one) == 1


def test_lossy_anonymizer_drops_reports() -> None:
    lossy = [t for _, t in _tests("sa2e.collection_counts") if "dropRate" in t["inputs"]]
    assert lossy and all(t["outputs"]["dropped"] > 0 for t in lossy)
