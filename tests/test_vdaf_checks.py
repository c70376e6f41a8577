"""The vdaf-checks vectors hold what they claim: honest encodings pass their circuit, the
per-Aggregator verify_init outputs of one report verify and sum to the measurement, decoded
messages re-encode to their bytes, and every refusal is one of the documented kinds."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from dpspec.conformance.families.vdaf_checks import (
    FAMILY,
    _vdaf,
    op_decide,
    op_decode,
    op_encode,
    op_eval,
    op_query,
    op_verify_init,
)
from dpspec.conformance.store import replay
from dpspec.spec.flp import bbcggi19

VECTORS = Path(__file__).resolve().parent.parent / "vectors" / "vdaf-checks"


def _tests(name: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    doc = json.loads((VECTORS / name).read_text())
    return [({**g["params"], **t["inputs"]}, t) for g in doc["testGroups"] for t in g["tests"]]


def test_the_committed_files_are_the_generated_ones() -> None:
    for vf in FAMILY.files():
        assert json.loads((VECTORS.parent / vf.path).read_text()) == vf.doc


def test_honest_encodings_pass_and_flagged_vectors_fail_the_circuit() -> None:
    honest = flagged = 0
    for _args, t in _tests("eval.json"):
        if t["result"] != "valid":
            continue
        zero = not any(t["outputs"]["out"])
        assert zero == ("NotAMeasurement" not in t["flags"])
        if "an honest encoding" in t["comment"] and t["inputs"]["numShares"] == 1:
            assert zero, t["comment"]
            honest += 1
        flagged += not zero
    assert honest >= 8 and flagged >= 40


def test_every_valid_encoding_evaluates_to_zero() -> None:
    """Each valid measurement of encode.json passes its circuit (two shares' worth of joint
    randomness drawn arbitrarily: an honest encoding gives zero for any joint randomness)."""
    for args, t in _tests("encode.json"):
        if t["result"] != "valid":
            continue
        vdaf = _vdaf(args)
        jr = [(7 * i + 3) % vdaf.field.MODULUS for i in range(vdaf.flp.JOINT_RAND_LEN)]
        out = op_eval({**args, "meas": t["outputs"]["encoded"], "jointRand": jr, "numShares": 1})
        assert not any(out["out"]), t["comment"]
        assert t["outputs"] == op_encode(dict(args))


def test_verify_init_outputs_verify_and_sum_to_the_measurement() -> None:
    inits: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for args, t in _tests("shard.json"):
        if "verifierShare" in (t["outputs"] or {}):
            key = (args["vdaf"], args["publicShare"] + args["nonce"])
            inits.setdefault(key, []).append(t["outputs"])
    assert len(inits) == 4
    for (name, _), outs in inits.items():
        params = next(a for a, t in _tests("shard.json") if a["vdaf"] == name and "rand" in a
                      and _vdaf(a).SHARES == len(outs))
        vdaf = _vdaf(params)
        shares = [vdaf.decode_verifier_share(None, bytes.fromhex(o["verifierShare"])) for o in outs]
        vdaf.verifier_shares_to_message(b"dpspec vdaf-checks", None, shares)  # raises if rejected
        total = [sum(col) % vdaf.field.MODULUS for col in zip(*(o["outShare"] for o in outs), strict=True)]
        meas = params["measurement"]
        assert total == [x.val for x in vdaf.flp.truncate(vdaf.flp.encode(meas))]


def test_decoded_messages_re_encode_to_their_bytes() -> None:
    for args, t in _tests("decode.json"):
        if t["result"] != "valid":
            continue
        vdaf = _vdaf(args)
        out = op_decode(dict(args))
        data = bytes.fromhex(args["encoded"])
        if "elements" in out:
            assert vdaf.field.encode_vec([vdaf.field(v) for v in out["elements"]]) == data
        if "measShare" in out:
            head = vdaf.field.encode_vec([vdaf.field(v) for v in out["measShare"] + out["proofsShare"]])
            assert head + bytes.fromhex(out["blind"] or "") == data


@pytest.mark.parametrize("name", ["params.json", "encode.json", "eval.json", "decode.json", "shard.json",
                                  "flp.json", "verify.json"])
def test_refusals_are_explained(name: str) -> None:
    doc = json.loads((VECTORS / name).read_text())
    for g in doc["testGroups"]:
        for t in g["tests"]:
            if t["result"] == "invalid":
                assert len(t["flags"]) == 1 and t["flags"][0] in doc["notes"], t["comment"]


def test_flp_verifier_shares_sum_to_the_whole_verifier_and_decide() -> None:
    """query is linear in (meas, proof): the two verifier shares of flp.json add up to the whole
    verifier, which the decision accepts; the verifier of a malicious encoding is rejected."""
    tests = _tests("flp.json")
    whole = {(a["vdaf"], t["comment"].split(":")[0]): t["outputs"]["verifier"] for a, t in tests
             if a.get("numShares") == 1 and "honest encoding, whole" in t["comment"]}
    assert len(whole) == 8
    for (name, _), verifier in whole.items():
        shares = [t["outputs"]["verifier"] for a, t in tests
                  if a["vdaf"] == name and "verifier share" in t["comment"] and t["result"] == "valid"]
        assert len(shares) == 2
        p = _vdaf(next(a for a, _t in tests if a["vdaf"] == name)).field.MODULUS
        assert [(x + y) % p for x, y in zip(*shares, strict=True)] == verifier
    decisions = {t["comment"]: t["outputs"]["decision"] for _a, t in tests
                 if "decision" in (t["outputs"] or {})}
    assert sum(decisions.values()) == 8  # the honest verifiers only
    assert all(not v for c, v in decisions.items() if "first element p - 1" in c or "+ 1" in c)


def test_test_points_at_roots_of_unity_are_refused() -> None:
    seen = 0
    for args, t in _tests("flp.json"):
        if "TestPoint" in t["flags"]:
            with pytest.raises(bbcggi19.TestPointError):
                op_query(dict(args))
            seen += 1
    assert seen == 2 * 9  # two points for each of the nine gadgets


def test_a_wrong_own_public_share_part_is_ignored() -> None:
    """An Aggregator recomputes its own joint randomness part: a public share whose part for it is
    wrong gives the honest verifier share; a wrong part of another Aggregator changes it."""
    tests = [(a, t) for a, t in _tests("verify.json") if "verifierShare" in (t["outputs"] or {})]
    checked = 0
    for args, t in tests:
        if "zeroed" not in t["comment"]:
            continue
        part = int(t["comment"].split("part ")[1].split()[0])
        honest = next(t2 for a2, t2 in tests if a2["vdaf"] == args["vdaf"] and a2["aggId"] == args["aggId"]
                      and "honest report" in t2["comment"])
        same = t["outputs"]["verifierShare"] == honest["outputs"]["verifierShare"]
        assert same == (part == args["aggId"]), t["comment"]
        assert t["outputs"] == op_verify_init(dict(args))
        checked += 1
    assert checked == 2 * 2 + 3 * 3


def test_decide_reads_each_gadget_at_its_own_position() -> None:
    """BoundedL2VecSum has two gadgets: changing any element of the second one's part of the
    verifier rejects, although the first gadget's part is intact."""
    tests = [(a, t) for a, t in _tests("flp.json") if a["vdaf"] == "Prio3BoundedL2VecSum"
             and "verifier" in a and "+ 1" in t["comment"]]
    assert len(tests) == 11
    for args, t in tests:
        assert op_decide(dict(args)) == t["outputs"] == {"decision": False}


def test_bounded_l2_decode_sign_boundary() -> None:
    tests = {t["comment"].split("(mod p) ")[1]: t["outputs"]["aggResult"] for a, t in _tests("flp.json")
             if "(mod p)" in t["comment"]}
    p = _vdaf(next(a for a, _t in _tests("flp.json") if a["vdaf"] == "Prio3BoundedL2VecSum")).field.MODULUS
    assert tests["p // 2, p // 2 + 1"] == [p // 2, p // 2 + 1 - p]
    assert tests["p // 3 + 1, p // 2 - 1"] == [p // 3 + 1, p // 2 - 1]
    assert tests["-1, 0"] == [-1, 0]


def test_perturbed_outputs_of_the_new_ops_are_caught() -> None:
    for name in ("flp.json", "verify.json"):
        doc = json.loads((VECTORS / name).read_text())
        for case in FAMILY.cases(f"vdaf-checks/{name}", doc):
            assert replay(FAMILY, case) is None
            if case.result != "valid" or not case.expected:
                continue
            key, value = next(iter(case.expected.items()))
            if isinstance(value, bool):
                bad = not value
            elif isinstance(value, list) and value and isinstance(value[0], int):
                bad = [value[0] + 1, *value[1:]]
            else:
                continue
            wrong = dataclasses.replace(case, expected={**case.expected, key: bad})
            assert replay(FAMILY, wrong) is not None, case.tc_id
