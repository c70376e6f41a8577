"""The shuffled-edges family: its compare, its transcripts and that its invalid cases are refused."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from dpspec.conformance.families import shuffled_edges

GROUPS = shuffled_edges._groups()


def _tests(op: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    return [(g["params"], t) for g in GROUPS if g["op"] == op for t in g["tests"]]


def test_compare_is_exact_except_the_dropped_mass() -> None:
    _, t = [x for x in _tests("she.fragmented.binomial_atoms") if x[1]["inputs"]["m"] == "60"][0]
    want = t["outputs"]
    assert shuffled_edges.compare_outputs(want, copy.deepcopy(want)) is None
    near = {**want, "dropped": "1e-27"}
    assert shuffled_edges.compare_outputs(want, near) is None
    far = {**want, "dropped": "1e-20"}
    assert shuffled_edges.compare_outputs(want, far) is not None
    assert shuffled_edges.compare_outputs(want, {**want, "dropped": "x"}) is not None
    assert shuffled_edges.compare_outputs(want, {**want, "atoms": "52"}) is not None
    _, t = _tests("she.fragmented.expected_linf")[2]
    linf = t["outputs"]["expectedLinf"]
    assert shuffled_edges.compare_outputs(t["outputs"], {"expectedLinf": linf[:-1]}) is not None


@pytest.mark.parametrize("op", sorted({g["op"] for g in GROUPS}))
def test_invalid_cases_are_refused_with_a_value_error(op: str) -> None:
    handler = shuffled_edges.HANDLERS[op]
    for params, t in _tests(op):
        if t["result"] == "invalid":
            with pytest.raises(ValueError):
                handler({**params, **t["inputs"]})


def test_the_delta_search_transcript() -> None:
    by_comment = {t["comment"]: t["outputs"] for _, t in _tests("she.design_correlated")
                  if t["result"] == "valid"}
    whole = by_comment["the whole search"]
    # two rises in a row of the D3 mean stop the search; the cheapest Delta is kept
    means = [m for _, m in whole["calls"]]
    assert len(means) == 3 and whole["Delta"] == whole["calls"][0][0]
    late = by_comment["no D3 below Delta_min + 6 = 25 (default max extra sensitivity)"]
    assert [d for d, _ in late["calls"]] == [str(d) for d in range(19, 26)]
    assert late["Delta"] == "25"


def test_binomial_atoms_cut_the_tails() -> None:
    out = {t["inputs"]["m"] + "/" + t["inputs"]["f"]: t["outputs"]
           for _, t in _tests("she.fragmented.binomial_atoms")}
    assert out["60/1/10"]["k0"] == "0" and int(out["60/1/10"]["atoms"]) < 61
    assert int(out["300/2/5"]["k0"]) > 0
    assert out["2/1"]["k0"] == "2" and out["2/1"]["atoms"] == "1"
