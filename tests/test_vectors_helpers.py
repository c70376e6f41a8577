"""The generator helpers of dpspec.conformance.vectors that families share."""

from __future__ import annotations

from typing import Any

import pytest

from dpspec.conformance import vectors
from dpspec.conformance.families import all_families
from dpspec.conformance.vectors import invalid_tests


def _nonnegative(args: dict[str, Any]) -> dict[str, Any]:
    if args["x"] + args["shift"] < 0:
        raise ValueError("negative")
    return {}


def test_invalid_tests_numbers_and_flags_each_case() -> None:
    tc = vectors.TestNumberer()
    tc()
    tests = invalid_tests(tc, _nonnegative, {"shift": 1},
                          [("x = -2", {"x": -2}, "Negative"), ("x = -5", {"x": -5}, "Far")])
    assert tests == [vectors.test_entry(2, "x = -2", {"x": -2}, None, "invalid", ["Negative"]),
                     vectors.test_entry(3, "x = -5", {"x": -5}, None, "invalid", ["Far"])]


def test_invalid_tests_refuses_a_case_the_reference_accepts() -> None:
    # x = -1 is rejected alone but accepted with the group's shift: the helper must see params too
    with pytest.raises(RuntimeError, match="'x = -1' was accepted"):
        invalid_tests(vectors.TestNumberer(), _nonnegative, {"shift": 1}, [("x = -1", {"x": -1}, "Negative")])


def test_vector_file_fills_family_and_schema() -> None:
    family = next(f for f in all_families() if f.name == "mjtb")
    groups = [{"op": "mjtb.encode", "params": {},
               "tests": [vectors.test_entry(1, "c", {"age": 1}, {"bin": 0})]}]
    vf = family.vector_file("mjtb/x.json", algorithm="a", schema="x-v2.json", header=["h"],
                            notes={}, groups=groups)
    assert vf == vectors.VectorFile("mjtb/x.json", vectors.envelope(
        algorithm="a", family="mjtb", schema="x-v2.json", header=["h"], notes={}, groups=groups),
        "x-v2.json")
    assert vf.doc["family"] == "mjtb" and vf.doc["schemaVersion"] == 2


def test_invalid_tests_rejections_are_only_the_given_exceptions() -> None:
    with pytest.raises(KeyError):
        invalid_tests(vectors.TestNumberer(), _nonnegative, {}, [("no shift", {"x": 1}, "Missing")])
    tests = invalid_tests(vectors.TestNumberer(), _nonnegative, {}, [("no shift", {"x": 1}, "Missing")],
                          rejects=(ValueError, KeyError))
    assert [t["flags"] for t in tests] == [["Missing"]]
