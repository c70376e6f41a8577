"""The helpers the vector families share (dpspec/conformance/families/_groups.py)."""

from __future__ import annotations

from typing import Any

import pytest

from dpspec.conformance import vectors
from dpspec.conformance.families._groups import (
    Groups,
    build_group,
    compare_keys,
    counted_calls,
    memoised,
    recorded_calls,
    with_tolerances,
)
from dpspec.conformance.vectors import Case


def _half(args: dict[str, Any]) -> dict[str, Any]:
    n = args["n"]
    if n % 2:
        raise ValueError("odd")
    return {"half": n // 2, "scale": args.get("scale", 1)}


def test_build_group_valid_then_invalid_with_params() -> None:
    tc = vectors.TestNumberer()
    g = build_group(tc, {"op.half": _half}, "op.half",
                    [("two", {"n": 2}), ("four, flagged", {"n": 4}, ["Edge", "Edge"])],
                    [("three", {"n": 3}, "Odd")], params={"scale": 5})
    assert g["op"] == "op.half" and g["params"] == {"scale": 5}
    assert [t["tcId"] for t in g["tests"]] == [1, 2, 3]
    assert g["tests"][0]["outputs"] == {"half": 1, "scale": 5}
    assert g["tests"][0]["inputs"] == {"n": 2} and g["tests"][0]["flags"] == []
    assert g["tests"][1]["flags"] == ["Edge"]
    assert g["tests"][2] == {"tcId": 3, "comment": "three", "flags": ["Odd"], "inputs": {"n": 3},
                             "outputs": None, "result": "invalid"}


def test_an_accepted_invalid_case_is_a_generator_bug() -> None:
    with pytest.raises(RuntimeError):
        build_group(vectors.TestNumberer(), {"op.half": _half}, "op.half", [], [("even", {"n": 2}, "Odd")])


def test_groups_number_on_through_the_file() -> None:
    groups = Groups({"op.half": _half})
    groups.add("op.half", [("two", {"n": 2})])
    groups.add("op.half", [("six", {"n": 6})], [("one", {"n": 1}, "Odd")])
    assert [t["tcId"] for g in groups.groups for t in g["tests"]] == [1, 2, 3]


def test_compare_keys_reasons() -> None:
    def exact(k: str, w: Any, g: Any) -> str | None:
        return None if w == g else f"{k} differs"

    want = {"a": 1, "b": 2}
    assert compare_keys(want, {"a": 1, "b": 2}, exact) is None
    assert compare_keys(want, [], exact) == "outputs must be an object"
    assert compare_keys(want, {"a": 1}, exact) == "missing output 'b'"
    assert compare_keys(want, {"a": 0, "b": 2}, exact) == "a differs"
    assert compare_keys(want, {"a": 1, "b": 2, "c": 3}, exact) == "unexpected outputs ['c']"


def test_with_tolerances_and_memoised() -> None:
    case = Case("f.json", 1, "op.half", {"n": 2}, {"half": 1}, "valid")
    (out,) = with_tolerances([case], {"op.half": (1e-9, 0.0)})
    assert out.tolerance == {"rel": 1e-9, "abs": 0.0} and out.args == case.args
    calls = []

    def h(args: dict[str, Any]) -> dict[str, Any]:
        calls.append(args)
        return _half(args)

    m = memoised(h)
    first = m({"n": 4})
    first["half"] = 99  # a caller cannot alter the memo
    assert m({"n": 4}) == {"half": 2, "scale": 1} and len(calls) == 1
    for _ in range(2):
        with pytest.raises(ValueError):
            m({"n": 3})
    assert len(calls) == 3  # refusals are not memoised


def test_recorded_calls_see_the_spec_function_and_restore_it() -> None:
    import types

    module = types.SimpleNamespace(f=lambda x, y=1: x * y)
    original = module.f
    with recorded_calls(module, "f") as calls, counted_calls(module, "f") as count:
        assert module.f(3) == 3
        assert module.f(2, y=5) == 10
    assert [(c.args, c.kwargs, c.result) for c in calls] == [((3,), {}, 3), ((2,), {"y": 5}, 10)]
    assert count == [2]
    assert module.f is original
    with pytest.raises(ZeroDivisionError), recorded_calls(module, "f") as calls:
        module.f = lambda x: 1 // x  # the block may replace it again; the original comes back
        module.f(0)
    assert module.f is original
