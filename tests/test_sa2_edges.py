"""The sa2-edges family: its compare, and that its invalid cases are refused for their reason."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from dpspec.conformance.families import sa2_edges
from dpspec.spec.sa2 import protocol, tokens


def _tests(op: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    out = []
    for g in sa2_edges._groups():
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
