"""The sa2-ohttp vector family: its transcripts match RFC 9458 Appendix A, its invalid cases are
refused by the reference, a changed output is caught by the comparison, and the collections over
the relay release what the ideal anonymizer's collection releases."""

from __future__ import annotations

import json
from typing import Any

import pytest

from dpspec.conformance.families.sa2_ohttp import FAMILY, h_collection
from dpspec.conformance.vectors import VectorFile

FILES: dict[str, VectorFile] = {f.path: f for f in FAMILY.files()}


def _tests(path: str, op: str) -> list[dict[str, Any]]:
    doc = FILES[path].doc
    return [t for g in doc["testGroups"] if g["op"] == op for t in g["tests"]]


def test_rfc9458_appendix_a_transcript() -> None:
    enc = _tests("sa2-ohttp/encapsulation.json", "ohttp.encapsulate_request")[0]["outputs"]
    assert enc["enc"] == "4b28f881333e7c164ffc499ad9796f877f4e1051ee6d31bad19dec96c208b472"
    assert enc["info"] == "6d6573736167652f626874747020726571756573740001002000010001"
    resp = _tests("sa2-ohttp/encapsulation.json", "ohttp.encapsulate_response")[0]["outputs"]
    assert resp["aeadKey"] == "5d0172a080e428b16d298c4ea0db620d"
    assert resp["aeadNonce"] == "f6bf1aeb88d6df87007fa263"
    assert resp["encResponse"] == ("c789e7151fcba46158ca84b04464910d86f9013e404feea014e7be4a441f2"
                                   "34f857fbd")


def test_every_file_has_invalid_cases_refused_by_the_reference() -> None:
    handlers = FAMILY.handlers()
    for vf in FILES.values():
        invalid = 0
        for group in vf.doc["testGroups"]:
            for t in group["tests"]:
                if t["result"] != "invalid":
                    continue
                invalid += 1
                with pytest.raises(ValueError):
                    handlers[group["op"]]({**group["params"], **t["inputs"]})
        assert invalid > 0, vf.path


@pytest.mark.parametrize("path", sorted(FILES))
def test_a_changed_output_is_caught(path: str) -> None:
    doc = json.loads(json.dumps(FILES[path].doc))
    cases = [c for c in FAMILY.cases(path, doc) if c.expected is not None]
    case = cases[len(cases) // 2]
    key = sorted(case.expected)[0]
    bad = dict(case.expected)
    bad[key] = "tampered" if bad[key] != "tampered" else "x"
    assert FAMILY.compare(case, case.expected) is None
    assert FAMILY.compare(case, bad) is not None


def test_relay_collections_release_as_the_ideal_anonymizer() -> None:
    for t in _tests("sa2-ohttp/collections.json", "sa2.collection_ohttp"):
        if t["result"] != "valid" or not t["inputs"]["ohttp"]:
            continue
        plain = h_collection({**t["inputs"], "ohttp": False, "period": None})
        assert plain["release"] == t["outputs"]["release"]
        assert plain["arrival"] == t["outputs"]["arrival"]
        assert t["outputs"]["responsesOk"] == len(t["outputs"]["arrival"])
