"""The shared argument parsers of dpspec.conformance.jsonargs: accepted forms and clear rejections."""

from __future__ import annotations

import jsonschema
import pytest

from dpspec.conformance.jsonargs import (
    COUNT,
    DEC,
    HEX,
    RAT,
    any_value_ops,
    count_arg,
    hex_arg,
    hex_list_arg,
    int_arg,
    json_int_arg,
    no_float,
)
from dpspec.conformance.vectors import family_schema


def test_hex() -> None:
    assert hex_arg({"k": "00ff"}, "k") == b"\x00\xff"
    assert hex_list_arg({"k": ["", "01"]}, "k") == [b"", b"\x01"]
    for bad in [{"k": 5}, {"k": "0g"}, {"k": "abc"}, {}]:
        with pytest.raises(ValueError, match="k"):
            hex_arg(bad, "k")
    with pytest.raises(ValueError, match="k"):
        hex_list_arg({"k": "00"}, "k")


def test_integers() -> None:
    assert int_arg({"n": "-12"}, "n") == -12
    assert int_arg({"n": 7}, "n") == 7
    for bad in [True, "1.5", " 3", "+3", "1_000", 2.0, None, "\u0663"]:
        with pytest.raises(ValueError, match="n"):
            int_arg({"n": bad}, "n")
    assert json_int_arg({"n": 3}, "n") == 3
    with pytest.raises(ValueError, match="n must be an integer"):
        json_int_arg({"n": "3"}, "n")
    assert count_arg({"c": 0}, "c") == 0
    assert count_arg({"c": 10}, "c", 10) == 10
    for bad in [-1, 11, "3", False]:
        with pytest.raises(ValueError, match="c must be"):
            count_arg({"c": bad}, "c", 10)
    with pytest.raises(ValueError, match="missing argument c"):
        count_arg({}, "c")


def test_no_float() -> None:
    assert no_float({"eps": "1/2"}, "eps") == "1/2"
    with pytest.raises(ValueError, match="inexact"):
        no_float({"eps": 0.5}, "eps")


def test_schema_fragments() -> None:
    ok = [(HEX, "", "00ab"), (DEC, "0", "-17"), (RAT, "3/7", "0.25"), (COUNT, 0, 5)]
    bad = [(HEX, "0A", "abc"), (DEC, "01", "1.0"), (RAT, "1/0", "1e-3"), (COUNT, -1, "2")]
    for schema, *values in ok:
        for v in values:
            jsonschema.validate(v, schema)
    for schema, *values in bad:
        for v in values:
            with pytest.raises(jsonschema.ValidationError):
                jsonschema.validate(v, schema)


def test_any_value_ops() -> None:
    ops = any_value_ops({"x.op": ("a", "b")})
    assert ops == {"x.op": ({"properties": {"a": {}, "b": {}}}, {"type": "object"})}
    doc = family_schema("x-v1.json", "x", ops)
    group = {"op": "x.op", "params": {"a": 0.5}, "tests": [{"inputs": {"b": [None]}}]}
    jsonschema.validate(group, doc["allOf"][1]["properties"]["testGroups"]["items"])
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**group, "params": {"c": 1}},
                            doc["allOf"][1]["properties"]["testGroups"]["items"])
