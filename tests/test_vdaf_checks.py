"""The vdaf-checks vectors hold what they claim: honest encodings pass their circuit, the
per-Aggregator verify_init outputs of one report verify and sum to the measurement, decoded
messages re-encode to their bytes, and every refusal is one of the documented kinds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dpspec.conformance.families.vdaf_checks import FAMILY, _vdaf, op_decode, op_encode, op_eval

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


@pytest.mark.parametrize("name", ["params.json", "encode.json", "eval.json", "decode.json", "shard.json"])
def test_refusals_are_explained(name: str) -> None:
    doc = json.loads((VECTORS / name).read_text())
    for g in doc["testGroups"]:
        for t in g["tests"]:
            if t["result"] == "invalid":
                assert len(t["flags"]) == 1 and t["flags"][0] in doc["notes"], t["comment"]
