"""The sa2-crypto vector family: its valid signatures verify under an independent RSASSA-PSS
verifier (``cryptography``), its crafted encodings are refused only by the checks they target,
its invalid cases are refused by the reference, and a changed output is caught."""

from __future__ import annotations

import json
from typing import Any

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from dpspec.conformance.families.sa2_crypto import FAMILY, _odd_keys
from dpspec.conformance.vectors import VectorFile
from dpspec.spec.sa2 import tokens

FILES: dict[str, VectorFile] = {f.path: f for f in FAMILY.files()}
PATH = "sa2-crypto/rsa_pss.json"


def _tests(op: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    doc = FILES[PATH].doc
    return [({**g["params"], **t["inputs"]}, t) for g in doc["testGroups"] if g["op"] == op
            for t in g["tests"]]


def _independent_verify(n: int, msg: bytes, sig: bytes) -> bool:
    pub = rsa.RSAPublicNumbers(tokens.E, n).public_key()
    try:
        pub.verify(sig, msg, padding.PSS(mgf=padding.MGF1(hashes.SHA384()), salt_length=48),
                   hashes.SHA384())
    except InvalidSignature:
        return False
    return True


def test_verify_agrees_with_cryptography() -> None:
    cases = _tests("rsa.verify")
    assert len(cases) >= 8
    for args, t in cases:
        n = int(args["modulus"], 16)
        sig = bytes.fromhex(args["sig"])
        if len(sig) != (n.bit_length() + 7) // 8:
            continue  # cryptography refuses the length itself
        assert _independent_verify(n, bytes.fromhex(args["msg"]), sig) == t["outputs"]["valid"]


def test_odd_moduli_have_the_stated_bit_lengths() -> None:
    keys = _odd_keys()
    assert sorted(keys) == [913, 914]
    assert [(k.n.bit_length() - 1) % 8 for k in keys.values()] == [0, 1]


def test_crafted_encodings_differ_from_the_valid_one_only_where_stated() -> None:
    verdicts = {t["comment"]: t["outputs"]["consistent"] for _, t in _tests("rsa.emsa_pss_verify")}
    assert verdicts["crafted, emLen 100: a correct DB (the crafting is EMSA-PSS-ENCODE)"] is True
    assert verdicts["crafted, emLen 100: PS = 00 07 is not all zero"] is False
    assert verdicts["crafted, emLen 97: DB = 0^47 || 01 with a matching H (too short)"] is False
    # the one-byte PS at emBits 785 and every emBits mod 8 of the list verify
    assert all(v for c, v in verdicts.items() if c.startswith("the encoding of emBits"))


def test_every_invalid_case_is_refused_by_the_reference() -> None:
    handlers = FAMILY.handlers()
    n = 0
    for group in FILES[PATH].doc["testGroups"]:
        for t in group["tests"]:
            if t["result"] == "invalid":
                n += 1
                with pytest.raises(ValueError):
                    handlers[group["op"]]({**group["params"], **t["inputs"]})
    assert n >= 20


def test_a_changed_output_is_caught() -> None:
    doc = json.loads(json.dumps(FILES[PATH].doc))
    cases = [c for c in FAMILY.cases(PATH, doc) if c.expected is not None]
    for case in cases[::7]:
        want = case.expected
        assert want is not None
        key = sorted(want)[0]
        bad = dict(want)
        bad[key] = "tampered"
        assert FAMILY.compare(case, want) is None
        assert FAMILY.compare(case, bad) is not None
