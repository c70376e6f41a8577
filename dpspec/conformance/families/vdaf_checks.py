"""Vector family ``vdaf-checks``: what a Prio3 implementation must compute and refuse outside a
batch transcript (VDAF draft-irtf-cfrg-vdaf-20).

The ``vdaf`` family publishes whole batches in the draft's own format; a batch exercises the
honest path of each variant at a few parameters. This family isolates the decision points around
it, as envelope files with one op each:

* ``vdaf.prio3.params`` {vdaf, shares, type parameters} -> the derived lengths of sec. 7.3.2
  (MEAS_LEN, OUTPUT_LEN, JOINT_RAND_LEN, EVAL_OUTPUT_LEN, PROVE_RAND_LEN, QUERY_RAND_LEN, PROOF_LEN,
  VERIFIER_LEN, GADGET_CALLS) and RAND_SIZE (sec. 7.2); invalid at every parameter bound;
* ``vdaf.prio3.encode`` {..., measurement} -> the encoded measurement (sec. 7.4, ``encode``) and its
  truncation (``truncate``), as integers; invalid for every measurement the circuit refuses;
* ``vdaf.flp.eval`` {..., meas, jointRand, numShares} -> the validity circuit's output
  (``Valid.eval``, sec. 7.3.2 and 7.4) on any field vector, valid measurement or not;
* ``vdaf.prio3.decode`` {..., message, encoded[, aggId]} -> the decoded message (field elements
  as integers, seeds as hex); invalid for every length, range and parameter check of the
  message decoders of sec. 7.2.7;
* ``vdaf.flp.prove`` / ``vdaf.flp.query`` / ``vdaf.flp.decide`` {..., meas, proveRand | proof,
  queryRand, jointRand, numShares | verifier} -> the FLP transcript of sec. 7.3.3-7.3.5 (the proof,
  the verifier (share), the decision); invalid for every length check and for a query point that
  is a root of unity of the wire polynomials' domain;
* ``vdaf.flp.truncate`` / ``vdaf.flp.decode`` {..., meas | output, numMeasurements} -> the output
  (share) of an encoded measurement (share) and the aggregate result of an aggregate (sec. 7.3.2);
* ``vdaf.prio3.shard_encoded`` {..., encodedMeasurement, nonce, rand} -> the shares of an encoded
  measurement, valid or not (a malicious Client: the proof is honest, the measurement is not);
* ``vdaf.prio3.verifier_shares_to_message`` {..., ctx, verifierShares} -> the verifier message, or
  the name of the failed check (``rejected``: ``proof``) when the combined verifier rejects.

Field elements are JSON integers in ``[0, MODULUS)``; byte strings are lower-case hex.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dpspec.conformance.families.vdaf import make_vdaf
from dpspec.conformance.jsonargs import any_value_ops, hex_arg, hex_list_arg
from dpspec.conformance.vectors import (
    Family,
    Handler,
    TestNumberer,
    VectorFile,
    family_schema,
    invalid_tests,
    test_entry,
    vector_seed,
)
from dpspec.spec.field import Field, Field64, Field128
from dpspec.spec.flp.gadgets import wire_poly_len
from dpspec.spec.vdaf import VerifyError

SCHEMA = "vdaf_checks-v1.json"
#: the application context string of the shard vectors
CTX = b"dpspec vdaf-checks"
TYPE_KEYS = ("vdaf", "shares", "length", "max_measurement", "chunk_length", "max_weight", "bits",
             "norm_bound", "field", "num_proofs")

HEADER = [
    "Prio3 (VDAF draft-irtf-cfrg-vdaf-20) away from the honest batch: derived lengths at every",
    "parameter bound, the encoding and truncation of measurements, the validity circuits on",
    "arbitrary field vectors, and the message decoders' length and range checks. Parameters are",
    "named as in the draft (shares = SHARES; Prio3SumVecWithMultiproof also takes field and",
    "num_proofs). An invalid test must be refused (an error, no output).",
]
NOTES = {
    "ParamBound": "A type parameter or SHARES/PROOFS at an end of its allowed range.",
    "BadParam": "A parameter outside its range: constructing the VDAF must fail.",
    "BadMeasurement": "The measurement is outside what the circuit encodes: encode must fail.",
    "NotAMeasurement": "The circuit output is not all zero. At numShares = 1 the input is a whole"
                       " encoded measurement and this means it is invalid; at numShares > 1 it is read"
                       " as one of numShares shares, whose constant terms are divided among them.",
    "BadLength": "The input has the wrong number of elements or bytes.",
    "Overflow": "An encoded field element is >= MODULUS.",
    "BadAggId": "agg_id outside [0, SHARES).",
    "TestPoint": "The query point t is an m-th root of unity (t**m = 1, m the length of a wire"
                 " polynomial of that gadget): the query must be refused (sec. 7.3.4).",
    "Tampered": "A message changed after an honest party made it; the expected outputs say what"
                " must happen (a recomputed value ignores it, a combined verifier rejects).",
    "MaliciousClient": "The encoded measurement is not a valid one but its proof is honestly computed:"
                       " verification must reject it.",
    "JointRandLen1": "A circuit with exactly one joint randomness element (JOINT_RAND_LEN = 1): the"
                     " joint randomness is still used (RAND_SIZE, blinds, public share).",
}


def _vdaf(args: dict[str, Any]) -> Any:
    name = args.get("vdaf")
    if not isinstance(name, str):
        raise ValueError("vdaf must name a Prio3 variant")
    return make_vdaf(name, {k: args[k] for k in TYPE_KEYS if k in args and k != "vdaf"})


def op_params(args: dict[str, Any]) -> dict[str, Any]:
    """``vdaf.prio3.params``: the derived lengths (sec. 7.3.2) and RAND_SIZE."""
    vdaf = _vdaf(args)
    flp, valid = vdaf.flp, vdaf.flp.valid
    return {"MEAS_LEN": flp.MEAS_LEN, "OUTPUT_LEN": flp.OUTPUT_LEN, "JOINT_RAND_LEN": flp.JOINT_RAND_LEN,
            "EVAL_OUTPUT_LEN": valid.EVAL_OUTPUT_LEN, "PROVE_RAND_LEN": flp.PROVE_RAND_LEN,
            "QUERY_RAND_LEN": flp.QUERY_RAND_LEN, "PROOF_LEN": flp.PROOF_LEN,
            "VERIFIER_LEN": flp.VERIFIER_LEN, "GADGET_CALLS": list(valid.GADGET_CALLS),
            "RAND_SIZE": vdaf.RAND_SIZE}


def op_encode(args: dict[str, Any]) -> dict[str, Any]:
    """``vdaf.prio3.encode``: ``encode(measurement)`` and ``truncate`` of it, as integers."""
    vdaf = _vdaf(args)
    if "measurement" not in args:
        raise ValueError("missing argument measurement")
    meas = vdaf.flp.encode(args["measurement"])
    return {"encoded": [x.val for x in meas], "truncated": [x.val for x in vdaf.flp.truncate(meas)]}


def _elements(field: Any, args: dict[str, Any], key: str) -> list[Any]:
    values = args.get(key)
    if not isinstance(values, list) or not all(isinstance(v, int) and not isinstance(v, bool)
                                               for v in values):
        raise ValueError(f"{key} must be a list of integers")
    return [field(v) for v in values]


def op_eval(args: dict[str, Any]) -> dict[str, Any]:
    """``vdaf.flp.eval``: ``Valid.eval(meas, joint_rand, num_shares)`` (sec. 7.3.2)."""
    vdaf = _vdaf(args)
    field = vdaf.field
    num_shares = args.get("numShares")
    if isinstance(num_shares, bool) or not isinstance(num_shares, int) or num_shares < 1:
        raise ValueError("numShares must be a positive integer")
    out = vdaf.flp.valid.eval(_elements(field, args, "meas"), _elements(field, args, "jointRand"),
                              num_shares)
    return {"out": [x.val for x in out]}


def op_shard(args: dict[str, Any]) -> dict[str, Any]:
    """``vdaf.prio3.shard`` (sec. 7.2.1): the encoded public share and input shares."""
    vdaf = _vdaf(args)
    if "measurement" not in args:
        raise ValueError("missing argument measurement")
    public, shares = vdaf.shard(hex_arg(args, "ctx"), args["measurement"], hex_arg(args, "nonce"),
                                hex_arg(args, "rand"))
    return {"publicShare": vdaf.encode_public_share(public).hex(),
            "inputShares": [vdaf.encode_input_share(x).hex() for x in shares]}


def op_verify_init(args: dict[str, Any]) -> dict[str, Any]:
    """``vdaf.prio3.verify_init`` (sec. 7.2.2) of one Aggregator on the encoded shares: its
    encoded verifier share and its output share."""
    vdaf = _vdaf(args)
    agg_id = args.get("aggId")
    public = vdaf.decode_public_share(hex_arg(args, "publicShare"))
    share = vdaf.decode_input_share(agg_id, hex_arg(args, "inputShare"))
    (out_share, _seed), verifier = vdaf.verify_init(hex_arg(args, "verifyKey"), hex_arg(args, "ctx"),
                                                    agg_id, None, hex_arg(args, "nonce"), public, share)
    return {"verifierShare": vdaf.encode_verifier_share(verifier).hex(),
            "outShare": [x.val for x in out_share]}


MESSAGES = ("public_share", "input_share", "verifier_share", "verifier_message", "agg_param",
            "out_share", "agg_share")


def op_decode(args: dict[str, Any]) -> dict[str, Any]:
    """``vdaf.prio3.decode``: decode one message (sec. 7.2.7) and show what it holds."""
    vdaf = _vdaf(args)
    message, data = args.get("message"), hex_arg(args, "encoded")
    if message not in MESSAGES:
        raise ValueError(f"message must be one of {MESSAGES}")

    def vec(v: Any) -> list[int]:
        return [x.val for x in v]

    def opt(b: bytes | None) -> str | None:
        return None if b is None else b.hex()

    if message == "public_share":
        parts = vdaf.decode_public_share(data)
        return {"jointRandParts": None if parts is None else [p.hex() for p in parts]}
    if message == "input_share":
        share = vdaf.decode_input_share(args.get("aggId"), data)
        if len(share) == 3:
            return {"measShare": vec(share[0]), "proofsShare": vec(share[1]), "blind": opt(share[2])}
        return {"seed": share[0].hex(), "blind": opt(share[1])}
    if message == "verifier_share":
        verifiers, part = vdaf.decode_verifier_share(None, data)
        return {"verifiersShare": vec(verifiers), "jointRandPart": opt(part)}
    if message == "verifier_message":
        return {"jointRandSeed": opt(vdaf.decode_verifier_message(None, data))}
    if message == "agg_param":
        vdaf.decode_agg_param(data)
        return {}
    if message == "out_share":
        return {"elements": vec(vdaf.decode_out_share(data))}
    return {"elements": vec(vdaf.decode_agg_share(None, data))}


def _num_shares(args: dict[str, Any]) -> int:
    num_shares = args.get("numShares")
    if isinstance(num_shares, bool) or not isinstance(num_shares, int) or num_shares < 1:
        raise ValueError("numShares must be a positive integer")
    return num_shares


def op_prove(args: dict[str, Any]) -> dict[str, Any]:
    """``vdaf.flp.prove``: ``FlpBBCGGI19.prove(meas, prove_rand, joint_rand)`` (sec. 7.3.3)."""
    vdaf = _vdaf(args)
    f = vdaf.field
    proof = vdaf.flp.prove(_elements(f, args, "meas"), _elements(f, args, "proveRand"),
                           _elements(f, args, "jointRand"))
    return {"proof": [x.val for x in proof]}


def op_query(args: dict[str, Any]) -> dict[str, Any]:
    """``vdaf.flp.query``: the verifier (share) of sec. 7.3.4; refused when the test point is a
    root of unity of a wire polynomial's domain."""
    vdaf = _vdaf(args)
    f = vdaf.field
    verifier = vdaf.flp.query(_elements(f, args, "meas"), _elements(f, args, "proof"),
                              _elements(f, args, "queryRand"), _elements(f, args, "jointRand"),
                              _num_shares(args))
    return {"verifier": [x.val for x in verifier]}


def op_decide(args: dict[str, Any]) -> dict[str, Any]:
    """``vdaf.flp.decide``: the decision on a whole verifier (sec. 7.3.5)."""
    vdaf = _vdaf(args)
    return {"decision": vdaf.flp.decide(_elements(vdaf.field, args, "verifier"))}


def op_truncate(args: dict[str, Any]) -> dict[str, Any]:
    """``vdaf.flp.truncate``: the output (share) of an encoded measurement (share) (sec. 7.3.2)."""
    vdaf = _vdaf(args)
    return {"truncated": [x.val for x in vdaf.flp.truncate(_elements(vdaf.field, args, "meas"))]}


def op_flp_decode(args: dict[str, Any]) -> dict[str, Any]:
    """``vdaf.flp.decode``: the aggregate result of an aggregate of ``numMeasurements`` outputs."""
    vdaf = _vdaf(args)
    count = args.get("numMeasurements")
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise ValueError("numMeasurements must be a non-negative integer")
    return {"aggResult": vdaf.flp.decode(_elements(vdaf.field, args, "output"), count)}


def op_shard_encoded(args: dict[str, Any]) -> dict[str, Any]:
    """``vdaf.prio3.shard_encoded``: ``shard`` after the encoding step, on any field vector."""
    vdaf = _vdaf(args)
    meas = _elements(vdaf.field, args, "encodedMeasurement")
    public, shares = vdaf.shard_encoded(hex_arg(args, "ctx"), meas, hex_arg(args, "nonce"),
                                        hex_arg(args, "rand"))
    return {"publicShare": vdaf.encode_public_share(public).hex(),
            "inputShares": [vdaf.encode_input_share(x).hex() for x in shares]}


def op_to_message(args: dict[str, Any]) -> dict[str, Any]:
    """``vdaf.prio3.verifier_shares_to_message`` (sec. 7.2.2) on the encoded verifier shares: the
    encoded verifier message, or the failed check when the combined verifier rejects."""
    vdaf = _vdaf(args)
    shares = [vdaf.decode_verifier_share(None, x) for x in hex_list_arg(args, "verifierShares")]
    try:
        message = vdaf.verifier_shares_to_message(hex_arg(args, "ctx"), None, shares)
    except VerifyError as exc:
        return {"verifierMessage": None, "rejected": exc.check}
    return {"verifierMessage": vdaf.encode_verifier_message(message).hex(), "rejected": None}


# -- generation --------------------------------------------------------------------------------
F64, F128 = Field64.MODULUS, Field128.MODULUS


def _p(vdaf: str, **kw: Any) -> dict[str, Any]:
    return {"vdaf": vdaf, **kw}


COUNT = _p("Prio3Count", shares=2)
SUM = _p("Prio3Sum", shares=2, max_measurement=5)
SUMVEC = _p("Prio3SumVec", shares=2, length=3, max_measurement=2, chunk_length=4)
HIST = _p("Prio3Histogram", shares=2, length=5, chunk_length=2)
MULTI = _p("Prio3MultihotCountVec", shares=2, length=4, max_weight=2, chunk_length=3)
HIGHER = _p("Prio3HigherDegree", shares=2)
BL2 = _p("Prio3BoundedL2VecSum", shares=2, length=2, bits=3, norm_bound=20, chunk_length=2)
MULTIPROOF = _p("Prio3SumVecWithMultiproof", shares=3, field="Field64", num_proofs=3, length=2,
                max_measurement=3, chunk_length=2)


ValidParams = list[tuple[str, dict[str, Any], list[str]]]


def _params_tests() -> tuple[ValidParams, list[tuple[str, dict[str, Any], str]]]:
    valid: ValidParams = [
        ("Count, SHARES = 2", COUNT, []),
        ("Count, SHARES = 255 (the largest)", _p("Prio3Count", shares=255), ["ParamBound"]),
        ("Sum, max_measurement = 1 (one bit)", _p("Prio3Sum", shares=2, max_measurement=1), ["ParamBound"]),
        ("Sum, max_measurement = 5", SUM, []),
        ("Sum, max_measurement = 2^k - 1 = 255", _p("Prio3Sum", shares=2, max_measurement=255), []),
        ("Sum, max_measurement = 256 (one more bit)", _p("Prio3Sum", shares=2, max_measurement=256), []),
        ("Sum, max_measurement = MODULUS - 1 (the largest)",
         _p("Prio3Sum", shares=2, max_measurement=F64 - 1), ["ParamBound"]),
        ("SumVec, length 3, max 2, chunk 4", SUMVEC, []),
        ("SumVec, all parameters 1", _p("Prio3SumVec", shares=2, length=1, max_measurement=1, chunk_length=1),
         ["ParamBound"]),
        ("SumVec, chunk_length = MEAS_LEN (one call)",
         _p("Prio3SumVec", shares=2, length=3, max_measurement=3, chunk_length=6), []),
        ("SumVec, chunk_length = MEAS_LEN + 1",
         _p("Prio3SumVec", shares=2, length=3, max_measurement=3, chunk_length=7), []),
        ("SumVec, chunk_length divides MEAS_LEN",
         _p("Prio3SumVec", shares=2, length=4, max_measurement=3, chunk_length=4), []),
        ("Histogram, length 5, chunk 2", HIST, []),
        ("Histogram, length 1, chunk 1", _p("Prio3Histogram", shares=2, length=1, chunk_length=1),
         ["ParamBound"]),
        ("Histogram, chunk 5 = length", _p("Prio3Histogram", shares=3, length=5, chunk_length=5), []),
        ("MultihotCountVec, length 4, max_weight 2, chunk 3", MULTI, []),
        ("MultihotCountVec, max_weight = length",
         _p("Prio3MultihotCountVec", shares=2, length=4, max_weight=4, chunk_length=2), ["ParamBound"]),
        ("MultihotCountVec, max_weight 1", _p("Prio3MultihotCountVec", shares=2, length=3, max_weight=1,
                                              chunk_length=1), ["ParamBound"]),
        ("HigherDegree", HIGHER, []),
        ("BoundedL2VecSum, length 2, bits 3, norm_bound 20", BL2, []),
        ("BoundedL2VecSum, norm_bound = length 4^(bits-1) (the largest)",
         _p("Prio3BoundedL2VecSum", shares=2, length=2, bits=3, norm_bound=32, chunk_length=2),
         ["ParamBound"]),
        ("BoundedL2VecSum, bits 2, norm_bound 1, length 1, chunk 1",
         _p("Prio3BoundedL2VecSum", shares=2, length=1, bits=2, norm_bound=1, chunk_length=1),
         ["ParamBound"]),
        ("BoundedL2VecSum, length 2^20, chunk 2^20 (the largest)",
         _p("Prio3BoundedL2VecSum", shares=2, length=1 << 20, bits=2, norm_bound=1, chunk_length=1 << 20),
         ["ParamBound"]),
        ("BoundedL2VecSum, bits 62 at length 1 (4^61 below MODULUS)",
         _p("Prio3BoundedL2VecSum", shares=2, length=1, bits=62, norm_bound=1, chunk_length=1),
         ["ParamBound"]),
        ("BoundedL2VecSum, (2^20 - 1) 4^54 just below MODULUS",
         _p("Prio3BoundedL2VecSum", shares=2, length=(1 << 20) - 1, bits=55, norm_bound=1, chunk_length=64),
         ["ParamBound"]),
        ("SumVecWithMultiproof, Field64, 3 proofs, 3 shares", MULTIPROOF, []),
        ("SumVecWithMultiproof, Field128, 1 proof",
         {**MULTIPROOF, "field": "Field128", "num_proofs": 1}, ["ParamBound"]),
        ("SumVecWithMultiproof, 255 proofs", {**MULTIPROOF, "num_proofs": 255}, ["ParamBound"]),
    ]
    invalid: list[tuple[str, dict[str, Any], str]] = [
        ("Count, SHARES = 1", _p("Prio3Count", shares=1), "BadParam"),
        ("Count, SHARES = 256", _p("Prio3Count", shares=256), "BadParam"),
        ("Count, SHARES = true", _p("Prio3Count", shares=True), "BadParam"),
        ("Sum, max_measurement = 0", _p("Prio3Sum", shares=2, max_measurement=0), "BadParam"),
        ("Sum, max_measurement = MODULUS", _p("Prio3Sum", shares=2, max_measurement=F64), "BadParam"),
        ("SumVec, length 0", {**SUMVEC, "length": 0}, "BadParam"),
        ("SumVec, max_measurement 0", {**SUMVEC, "max_measurement": 0}, "BadParam"),
        ("SumVec, chunk_length 0", {**SUMVEC, "chunk_length": 0}, "BadParam"),
        ("SumVec, length MODULUS", {**SUMVEC, "length": F128}, "BadParam"),
        ("SumVec, max_measurement MODULUS", {**SUMVEC, "max_measurement": F128}, "BadParam"),
        ("SumVec, chunk_length MODULUS", {**SUMVEC, "chunk_length": F128}, "BadParam"),
        ("Histogram, length 0", {**HIST, "length": 0}, "BadParam"),
        ("Histogram, chunk_length 0", {**HIST, "chunk_length": 0}, "BadParam"),
        ("Histogram, length MODULUS", {**HIST, "length": F128}, "BadParam"),
        ("Histogram, chunk_length MODULUS", {**HIST, "chunk_length": F128}, "BadParam"),
        ("MultihotCountVec, max_weight = length + 1", {**MULTI, "max_weight": 5}, "BadParam"),
        ("MultihotCountVec, max_weight 0", {**MULTI, "max_weight": 0}, "BadParam"),
        ("MultihotCountVec, length 0", {**MULTI, "length": 0, "max_weight": 0}, "BadParam"),
        ("MultihotCountVec, chunk_length 0", {**MULTI, "chunk_length": 0}, "BadParam"),
        ("MultihotCountVec, length MODULUS", {**MULTI, "length": F128}, "BadParam"),
        ("MultihotCountVec, chunk_length MODULUS", {**MULTI, "chunk_length": F128}, "BadParam"),
        ("BoundedL2VecSum, length 0", {**BL2, "length": 0}, "BadParam"),
        ("BoundedL2VecSum, length 2^20 + 1", {**BL2, "length": (1 << 20) + 1}, "BadParam"),
        ("BoundedL2VecSum, bits 1", {**BL2, "bits": 1, "norm_bound": 1}, "BadParam"),
        ("BoundedL2VecSum, bits 63", {**BL2, "length": 1, "bits": 63, "norm_bound": 1}, "BadParam"),
        ("BoundedL2VecSum, norm_bound 0", {**BL2, "norm_bound": 0}, "BadParam"),
        ("BoundedL2VecSum, norm_bound = length 4^(bits-1) + 1", {**BL2, "norm_bound": 33}, "BadParam"),
        ("BoundedL2VecSum, chunk_length 0", {**BL2, "chunk_length": 0}, "BadParam"),
        ("BoundedL2VecSum, chunk_length 2^20 + 1", {**BL2, "chunk_length": (1 << 20) + 1}, "BadParam"),
        ("BoundedL2VecSum, 2^20 4^54 = 2^128 above MODULUS",
         _p("Prio3BoundedL2VecSum", shares=2, length=1 << 20, bits=55, norm_bound=1, chunk_length=64),
         "BadParam"),
        ("SumVecWithMultiproof, 0 proofs", {**MULTIPROOF, "num_proofs": 0}, "BadParam"),
        ("SumVecWithMultiproof, 256 proofs", {**MULTIPROOF, "num_proofs": 256}, "BadParam"),
        ("SumVecWithMultiproof, proofs = true", {**MULTIPROOF, "num_proofs": True}, "BadParam"),
        ("SumVecWithMultiproof, an unknown field", {**MULTIPROOF, "field": "Field255"}, "BadParam"),
    ]
    return valid, invalid


def _params_bounds() -> ValidParams:
    """Appended: the upper bound MODULUS - 1 of every length-like parameter the draft leaves
    unbounded (only the field limits it), MultihotCountVec at length 1, and the circuits with one
    joint randomness element."""
    top = F128 - 1
    return [
        ("SumVec, length = MODULUS - 1 (the largest)",
         _p("Prio3SumVec", shares=2, length=top, max_measurement=1, chunk_length=top), ["ParamBound"]),
        ("SumVec, max_measurement = MODULUS - 1 (the largest)",
         _p("Prio3SumVec", shares=2, length=1, max_measurement=top, chunk_length=1), ["ParamBound"]),
        ("SumVec, chunk_length = MODULUS - 1 (the largest)", {**SUMVEC, "chunk_length": top}, ["ParamBound"]),
        ("Histogram, length = chunk_length = MODULUS - 1 (the largest)",
         _p("Prio3Histogram", shares=2, length=top, chunk_length=top), ["ParamBound"]),
        ("Histogram, chunk_length = MODULUS - 1 (the largest)", {**HIST, "chunk_length": top},
         ["ParamBound"]),
        ("MultihotCountVec, length 1 (the smallest), max_weight 1",
         _p("Prio3MultihotCountVec", shares=2, length=1, max_weight=1, chunk_length=1), ["ParamBound"]),
        ("MultihotCountVec, length = chunk_length = MODULUS - 1 (the largest)",
         _p("Prio3MultihotCountVec", shares=2, length=top, max_weight=1, chunk_length=top), ["ParamBound"]),
        ("MultihotCountVec, chunk_length = MODULUS - 1 (the largest)", {**MULTI, "chunk_length": top},
         ["ParamBound"]),
        ("Histogram, length 2, chunk 2: JOINT_RAND_LEN = 1", HIST_JR1, ["JointRandLen1"]),
        ("SumVec, SHARES 3, length 1, max 1, chunk 1: JOINT_RAND_LEN = 1", SUMVEC_JR1, ["JointRandLen1"]),
    ]


ENCODE_CASES: list[tuple[dict[str, Any], list[Any], list[Any]]] = [
    # (parameters, valid measurements, refused measurements)
    (COUNT, [0, 1, True, False], [2, -1, 1.0, "1", None]),
    (SUM, [0, 1, 4, 5], [6, -1, 5.0, True, [5]]),
    (_p("Prio3Sum", shares=2, max_measurement=8), [0, 7, 8], [9]),
    (SUMVEC, [[0, 0, 0], [2, 1, 0], [2, 2, 2]],
     [[3, 0, 0], [0, 0, -1], [0, 0], [0, 0, 0, 0], 0, [0, 0, 1.0]]),
    (HIST, [0, 3, 4], [5, -1, True, 2.0]),
    (MULTI, [[False] * 4, [True, False, False, True], [0, 1, 1, 0], [True, True, False, False]],
     [[True, True, True, False], [True] * 4, [2, 0, 0, 0], [-1, 0, 0, 0], [True] * 3, [True] * 5, 3,
      [0.0, 0, 0, 0]]),
    (HIGHER, [0, 1, 2], [3, -1]),
    (BL2, [[0, 0], [-4, 0], [3, -3], [-4, 2], [3, 3]], [[4, 0], [-5, 0], [-4, -4], [0], [0, 0, 0], 0,
                                                          [0, 0.5]]),
    (_p("Prio3BoundedL2VecSum", shares=2, length=2, bits=3, norm_bound=18, chunk_length=1),
     [[3, -3], [-4, 1], [-3, -3]], [[-4, 2], [-4, -4]]),
    (MULTIPROOF, [[0, 3], [1, 2]], [[4, 0], [0, -1]]),
]


def _last_valid(params: dict[str, Any]) -> Any:
    """The last valid measurement ENCODE_CASES lists for exactly these parameters."""
    return next(good[-1] for p, good, _bad in ENCODE_CASES if p == params)


def _eval_cases() -> list[tuple[str, dict[str, Any], dict[str, Any], list[str]]]:
    """(comment, params, inputs, flags) for vdaf.flp.eval: honest encodings and vectors no honest
    client sends, with joint randomness from a vector seed."""
    out: list[tuple[str, dict[str, Any], dict[str, Any], list[str]]] = []
    for params in (COUNT, SUM, SUMVEC, HIST, MULTI, HIGHER, BL2, MULTIPROOF):
        vdaf = _vdaf(params)
        p = vdaf.field.MODULUS
        jr_len = vdaf.flp.JOINT_RAND_LEN
        seed = vector_seed(f"vdaf-checks/eval/{params['vdaf']}", 16 * max(jr_len, 1) + 64)
        jr = [int.from_bytes(seed[16 * i : 16 * i + 16], "little") % p for i in range(jr_len)]
        n = vdaf.flp.MEAS_LEN
        honest = [x.val for x in vdaf.flp.encode(_last_valid(params))]
        vectors: list[tuple[str, list[int]]] = [
            ("an honest encoding", honest), ("all zero", [0] * n),
            ("the first element 2", [2] + [0] * (n - 1)),
            ("the last element p - 1", [0] * (n - 1) + [p - 1]), ("all ones", [1] * n),
        ]
        for shares in (1, vdaf.SHARES, 3):
            for text, meas in vectors:
                out.append((f"{params['vdaf']}: {text}, numShares = {shares}", params,
                            {"meas": meas, "jointRand": jr, "numShares": shares}, []))
        out.append((f"{params['vdaf']}: one element short", params,
                    {"meas": honest[:-1], "jointRand": jr, "numShares": 2}, ["BadLength"]))
        out.append((f"{params['vdaf']}: one joint randomness element too many", params,
                    {"meas": honest, "jointRand": jr + [1], "numShares": 2}, ["BadLength"]))
    return out


def _rand_elements(field: Any, n: int, label: str) -> list[int]:
    raw = vector_seed(label, 16 * n + 16)
    return [int.from_bytes(raw[16 * i : 16 * i + 16], "little") % field.MODULUS for i in range(n)]


def _enc(field: type[Field], values: list[int]) -> bytes:
    return field.encode_vec([field(v) for v in values])


def _decode_cases() -> tuple[list[tuple[str, dict[str, Any], dict[str, Any]]],
                             list[tuple[str, dict[str, Any], dict[str, Any], str]]]:
    valid: list[tuple[str, dict[str, Any], dict[str, Any]]] = []
    invalid: list[tuple[str, dict[str, Any], dict[str, Any], str]] = []
    for params in (COUNT, HIST, MULTIPROOF):
        vdaf = _vdaf(params)
        f, name, es = vdaf.field, params["vdaf"], vdaf.field.ENCODED_SIZE
        jr = vdaf.uses_joint_rand
        seed = vector_seed(f"vdaf-checks/decode/{name}/seed", 32)
        blind = vector_seed(f"vdaf-checks/decode/{name}/blind", 32) if jr else b""
        meas = _rand_elements(f, vdaf.flp.MEAS_LEN, f"vdaf-checks/decode/{name}/meas")
        meas[0] = f.MODULUS - 1  # the largest element
        proofs = _rand_elements(f, vdaf.flp.PROOF_LEN * vdaf.PROOFS, f"vdaf-checks/decode/{name}/proofs")
        verifiers = _rand_elements(f, vdaf.flp.VERIFIER_LEN * vdaf.PROOFS, f"vdaf-checks/decode/{name}/ver")
        out = _rand_elements(f, vdaf.flp.OUTPUT_LEN, f"vdaf-checks/decode/{name}/out")
        leader = _enc(f, meas) + _enc(f, proofs) + blind
        helper = seed + blind
        public = b"".join(vector_seed(f"vdaf-checks/decode/{name}/part{i}", 32)
                          for i in range(vdaf.SHARES)) if jr else b""
        ver = _enc(f, verifiers) + (blind if jr else b"")
        msg = seed if jr else b""
        last = vdaf.SHARES - 1
        over = f.MODULUS.to_bytes(es, "little")
        for what, data, extra in (("public_share", public, {}), ("input_share", leader, {"aggId": 0}),
                                  ("input_share", helper, {"aggId": 1}),
                                  ("input_share", helper, {"aggId": last}),
                                  ("verifier_share", ver, {}), ("verifier_message", msg, {}),
                                  ("agg_param", b"", {}), ("out_share", _enc(f, out), {}),
                                  ("agg_share", _enc(f, out), {})):
            who = f" (agg_id {extra['aggId']})" if "aggId" in extra else ""
            inputs = {"message": what, "encoded": data.hex(), **extra}
            valid.append((f"{name}: {what}{who}, {len(data)} bytes", params, inputs))
            if data:
                invalid.append((f"{name}: {what}{who} one byte short", params,
                                {**inputs, "encoded": data[:-1].hex()}, "BadLength"))
            invalid.append((f"{name}: {what}{who} with one trailing byte", params,
                            {**inputs, "encoded": (data + b"\x00").hex()}, "BadLength"))
        n_leader = vdaf.flp.MEAS_LEN + vdaf.flp.PROOF_LEN * vdaf.PROOFS
        n_ver = vdaf.flp.VERIFIER_LEN * vdaf.PROOFS
        for what, data, extra, count in (("input_share", leader, {"aggId": 0}, n_leader),
                                         ("out_share", _enc(f, out), {}, vdaf.flp.OUTPUT_LEN),
                                         ("agg_share", _enc(f, out), {}, vdaf.flp.OUTPUT_LEN),
                                         ("verifier_share", ver, {}, n_ver)):
            for pos in sorted({0, count - 1}):
                bad = data[: pos * es] + over + data[(pos + 1) * es :]
                invalid.append((f"{name}: {what}, element {pos} = MODULUS", params,
                                {"message": what, "encoded": bad.hex(), **extra}, "Overflow"))
        for agg_id in (-1, vdaf.SHARES, True):
            invalid.append((f"{name}: input_share with agg_id {agg_id}", params,
                            {"message": "input_share", "encoded": helper.hex(), "aggId": agg_id}, "BadAggId"))
        if not jr:
            invalid.append((f"{name}: a 32-byte public share where none is used", params,
                            {"message": "public_share", "encoded": bytes(32).hex()}, "BadLength"))
        invalid.append((f"{name}: a one-byte aggregation parameter", params,
                        {"message": "agg_param", "encoded": "00"}, "BadLength"))
    return valid, invalid


# -- the FLP transcript (sec. 7.3.3-7.3.5) and the verification steps (sec. 7.2.1-7.2.2) ----------
FLP_CIRCUITS = (COUNT, SUM, SUMVEC, HIST, MULTI, HIGHER, BL2, MULTIPROOF)
#: circuits with exactly one joint randomness element (one call of their gadget)
HIST_JR1 = _p("Prio3Histogram", shares=2, length=2, chunk_length=2)
SUMVEC_JR1 = _p("Prio3SumVec", shares=3, length=1, max_measurement=1, chunk_length=1)
#: (parameters, a measurement, an encoded measurement that no honest Client sends)
VERIFY_CASES: list[tuple[dict[str, Any], Any, list[int]]] = [
    (HIST_JR1, 1, [1, 1]), (SUMVEC_JR1, [1], [2]), (COUNT, 1, [2]),
]
#: aggregates of one BoundedL2VecSum (bits = 3, offset 4) whose entries minus the offset are
#: around p // 2 (the sign boundary of the decoded value) and p // 3
BL2_DECODE = [("p // 2, p // 2 + 1", [F128 // 2 + 4, F128 // 2 + 5]),
              ("p // 3 + 1, p // 2 - 1", [F128 // 3 + 5, F128 // 2 + 3]), ("-1, 0", [3, 4])]


@dataclass
class _Pending:
    """A valid test whose tcId is given when its group is laid out (tcIds run through a file)."""

    comment: str
    inputs: dict[str, Any]
    outputs: dict[str, Any]
    flags: tuple[str, ...] | list[str] = ()

    def entry(self, tc: TestNumberer) -> dict[str, Any]:
        return test_entry(tc(), self.comment, self.inputs, self.outputs, flags=self.flags)


def _split(field: type[Field], values: list[int], label: str) -> list[list[int]]:
    """Two additive shares of ``values`` (the first from a vector seed)."""
    first = _rand_elements(field, len(values), label)
    return [first, [(v - r) % field.MODULUS for v, r in zip(values, first, strict=True)]]


def _bump(values: list[int], pos: int, p: int) -> list[int]:
    return values[:pos] + [(values[pos] + 1) % p] + values[pos + 1 :]


class VdafChecksFamily(Family):
    name = "vdaf-checks"
    summary = "Prio3 (VDAF draft-20) away from the batch: lengths, encodings, circuits, decoders"

    def handlers(self) -> dict[str, Handler]:
        return {"vdaf.prio3.params": op_params, "vdaf.prio3.encode": op_encode,
                "vdaf.flp.eval": op_eval, "vdaf.prio3.decode": op_decode, "vdaf.prio3.shard": op_shard,
                "vdaf.prio3.verify_init": op_verify_init, "vdaf.flp.prove": op_prove,
                "vdaf.flp.query": op_query, "vdaf.flp.decide": op_decide, "vdaf.flp.truncate": op_truncate,
                "vdaf.flp.decode": op_flp_decode, "vdaf.prio3.shard_encoded": op_shard_encoded,
                "vdaf.prio3.verifier_shares_to_message": op_to_message}

    def schemas(self) -> dict[str, dict[str, Any]]:
        ops = any_value_ops({
            "vdaf.prio3.params": TYPE_KEYS,
            "vdaf.prio3.encode": (*TYPE_KEYS, "measurement"),
            "vdaf.flp.eval": (*TYPE_KEYS, "meas", "jointRand", "numShares"),
            "vdaf.prio3.decode": (*TYPE_KEYS, "message", "encoded", "aggId"),
            "vdaf.prio3.shard": (*TYPE_KEYS, "ctx", "measurement", "nonce", "rand"),
            "vdaf.prio3.verify_init": (*TYPE_KEYS, "verifyKey", "ctx", "aggId", "nonce", "publicShare",
                                       "inputShare"),
            "vdaf.flp.prove": (*TYPE_KEYS, "meas", "proveRand", "jointRand"),
            "vdaf.flp.query": (*TYPE_KEYS, "meas", "proof", "queryRand", "jointRand", "numShares"),
            "vdaf.flp.decide": (*TYPE_KEYS, "verifier"),
            "vdaf.flp.truncate": (*TYPE_KEYS, "meas"),
            "vdaf.flp.decode": (*TYPE_KEYS, "output", "numMeasurements"),
            "vdaf.prio3.shard_encoded": (*TYPE_KEYS, "ctx", "encodedMeasurement", "nonce", "rand"),
            "vdaf.prio3.verifier_shares_to_message": (*TYPE_KEYS, "ctx", "verifierShares"),
        })
        return {SCHEMA: family_schema(SCHEMA, "Prio3 decision-point vectors", ops)}

    def _file(self, path: str, algorithm: str, groups: list[dict[str, Any]]) -> VectorFile:
        return self.vector_file(path, algorithm=algorithm, schema=SCHEMA, header=HEADER, notes=NOTES,
                                groups=groups)

    def files(self) -> list[VectorFile]:
        return [self._params(), self._encode(), self._eval(), self._decode(), self._shard(), self._flp(),
                self._verify()]

    def _shard(self) -> VectorFile:
        """Sharding and one Aggregator's verify_init per report, with the size checks of both."""
        shard_tests: list[dict[str, Any]] = []
        init_tests: list[dict[str, Any]] = []
        tc_s = TestNumberer()
        made: list[tuple[dict[str, Any], Any, dict[str, Any], bytes, bytes]] = []
        ctx = CTX.hex()
        for params, meas in ((COUNT, 1), (_p("Prio3Count", shares=3), 0), (HIST, 3), (MULTIPROOF, [3, 1])):
            vdaf, name = _vdaf(params), params["vdaf"]
            label = f"vdaf-checks/shard/{name}/{vdaf.SHARES}"
            nonce, rand = vector_seed(label + "/nonce", 16), vector_seed(label + "/rand", vdaf.RAND_SIZE)
            key = vector_seed(label + "/verify_key", vdaf.VERIFY_KEY_SIZE)
            args = {**params, "ctx": ctx, "measurement": meas, "nonce": nonce.hex(), "rand": rand.hex()}
            shard = op_shard(dict(args))
            shard_tests.append(test_entry(tc_s(), f"{name}, SHARES = {vdaf.SHARES}, measurement {meas!r}",
                                          args, shard))
            shard_tests += invalid_tests(tc_s, op_shard, {}, [
                (f"{name}: a {n}-byte nonce", {**args, "nonce": vector_seed(label + "/n", n).hex()},
                 "BadLength") for n in (15, 17)] + [
                (f"{name}: rand of RAND_SIZE {d:+d} bytes",
                 {**args, "rand": vector_seed(label + "/r", vdaf.RAND_SIZE + d).hex()}, "BadLength")
                for d in (-1, 1)])
            made.append((params, vdaf, shard, key, nonce))
        tc_i = tc_s  # one numbering for the whole file
        for params, vdaf, shard, key, nonce in made:
            name = params["vdaf"]
            base = {**params, "verifyKey": key.hex(), "ctx": ctx, "nonce": nonce.hex(),
                    "publicShare": shard["publicShare"]}
            for agg_id, share in enumerate(shard["inputShares"]):
                inputs = {**base, "aggId": agg_id, "inputShare": share}
                init_tests.append(test_entry(tc_i(), f"{name}: Aggregator {agg_id} of {vdaf.SHARES}", inputs,
                                             op_verify_init(dict(inputs))))
            leader = {**base, "aggId": 0, "inputShare": shard["inputShares"][0]}
            bad = [
                (f"{name}: a 33-byte verify key", {**leader, "verifyKey": key.hex() + "00"}, "BadLength"),
                (f"{name}: a 31-byte verify key", {**leader, "verifyKey": key[:31].hex()}, "BadLength"),
                (f"{name}: a 15-byte nonce", {**leader, "nonce": nonce[:15].hex()}, "BadLength"),
                (f"{name}: agg_id = SHARES", {**leader, "aggId": vdaf.SHARES}, "BadAggId")]
            init_tests += invalid_tests(tc_i, op_verify_init, {}, bad)
        return self._file("vdaf-checks/shard.json", "Prio3 sharding and verify_init (sec. 7.2.1, 7.2.2)",
                          [{"op": "vdaf.prio3.shard", "params": {}, "tests": shard_tests},
                           {"op": "vdaf.prio3.verify_init", "params": {}, "tests": init_tests}])

    def _params(self) -> VectorFile:
        tc = TestNumberer()
        valid, invalid = _params_tests()
        tests = [test_entry(tc(), text, args, op_params(dict(args)), flags=flags)
                 for text, args, flags in valid]
        tests += invalid_tests(tc, op_params, {}, invalid)
        more = [test_entry(tc(), text, args, op_params(dict(args)), flags=flags)
                for text, args, flags in _params_bounds()]
        return self._file("vdaf-checks/params.json", "Prio3 derived lengths (sec. 7.2, 7.3.2)",
                          [{"op": "vdaf.prio3.params", "params": {}, "tests": tests},
                           {"op": "vdaf.prio3.params", "params": {}, "tests": more}])

    def _encode(self) -> VectorFile:
        groups = []
        tc = TestNumberer()
        for params, good, bad in ENCODE_CASES:
            tests = [test_entry(tc(), f"{params['vdaf']}: measurement {m!r}", {"measurement": m},
                                op_encode({**params, "measurement": m})) for m in good]
            tests += invalid_tests(tc, op_encode, params, [(f"{params['vdaf']}: measurement {m!r}",
                                                             {"measurement": m}, "BadMeasurement")
                                                            for m in bad])
            groups.append({"op": "vdaf.prio3.encode", "params": params, "tests": tests})
        return self._file("vdaf-checks/encode.json", "Prio3 measurement encoding (sec. 7.4)", groups)

    def _eval(self) -> VectorFile:
        tc = TestNumberer()
        tests = []
        bad: list[tuple[str, dict[str, Any], str]] = []
        for text, params, inputs, flags in _eval_cases():
            args = {**params, **inputs}
            if "BadLength" in flags:
                bad.append((text, args, "BadLength"))
            else:
                got = op_eval(dict(args))
                flags = ["NotAMeasurement"] if any(got["out"]) else []
                tests.append(test_entry(tc(), text, args, got, flags=flags))
        tests += invalid_tests(tc, op_eval, {}, bad)
        return self._file("vdaf-checks/eval.json", "Prio3 validity circuits (sec. 7.3.2, 7.4)",
                          [{"op": "vdaf.flp.eval", "params": {}, "tests": tests}])

    def _decode(self) -> VectorFile:
        tc = TestNumberer()
        valid, invalid = _decode_cases()
        tests = [test_entry(tc(), text, {**params, **inputs}, op_decode({**params, **inputs}))
                 for text, params, inputs in valid]
        tests += invalid_tests(tc, op_decode, {}, [(text, {**params, **inputs}, flag)
                                                   for text, params, inputs, flag in invalid])
        # Appended: output and aggregate shares one whole element short or long (a length that
        # is a multiple of ENCODED_SIZE, so only the element count can refuse it).
        more: list[tuple[str, dict[str, Any], str]] = []
        for params in (COUNT, HIST, MULTIPROOF):
            vdaf, name = _vdaf(params), params["vdaf"]
            f = vdaf.field
            out = _enc(f, _rand_elements(f, vdaf.flp.OUTPUT_LEN, f"vdaf-checks/decode/{name}/out"))
            for what in ("out_share", "agg_share"):
                for text, data in (("one element short", out[: -f.ENCODED_SIZE]),
                                   ("one element too many", out + _enc(f, [1]))):
                    more.append((f"{name}: {what} {text} ({len(data)} bytes)",
                                 {**params, "message": what, "encoded": data.hex()}, "BadLength"))
        return self._file("vdaf-checks/decode.json", "Prio3 message decoding (sec. 7.2.7)",
                          [{"op": "vdaf.prio3.decode", "params": {}, "tests": tests},
                           {"op": "vdaf.prio3.decode", "params": {},
                            "tests": invalid_tests(tc, op_decode, {}, more)}])

    def _flp(self) -> VectorFile:
        """The FLP transcript of each circuit: proof, verifier (whole and in two shares), decision,
        truncation and decoding, with every length check and the test-point check."""
        tc = TestNumberer()
        prove: list[_Pending] = []
        query: list[_Pending] = []
        decide: list[_Pending] = []
        trunc: list[_Pending] = []
        dec: list[_Pending] = []
        bad_prove: list[tuple[str, dict[str, Any], str]] = []
        bad_query: list[tuple[str, dict[str, Any], str]] = []
        bad_decide: list[tuple[str, dict[str, Any], str]] = []
        bad_trunc: list[tuple[str, dict[str, Any], str]] = []
        bad_dec: list[tuple[str, dict[str, Any], str]] = []
        for params in FLP_CIRCUITS:
            vdaf, name = _vdaf(params), params["vdaf"]
            flp, f, p = vdaf.flp, vdaf.field, vdaf.field.MODULUS
            label = f"vdaf-checks/flp/{name}"
            honest = [x.val for x in flp.encode(_last_valid(params))]
            malicious = [p - 1] + honest[1:]  # -1: no circuit admits it as its first element
            prove_rand = _rand_elements(f, flp.PROVE_RAND_LEN, label + "/prove_rand")
            joint_rand = _rand_elements(f, flp.JOINT_RAND_LEN, label + "/joint_rand")
            query_rand = _rand_elements(f, flp.QUERY_RAND_LEN, label + "/query_rand")
            for what, meas in (("an honest encoding", honest), ("first element p - 1", malicious)):
                args = {**params, "meas": meas, "proveRand": prove_rand, "jointRand": joint_rand}
                proof = op_prove(dict(args))["proof"]
                prove.append(_Pending(f"{name}: proof of {what}", args, {"proof": proof},
                                        flags=[] if meas is honest else ["MaliciousClient"]))
                qargs = {**params, "meas": meas, "proof": proof, "queryRand": query_rand,
                         "jointRand": joint_rand, "numShares": 1}
                verifier = op_query(dict(qargs))["verifier"]
                query.append(_Pending(f"{name}: verifier of {what}, whole", qargs,
                                        {"verifier": verifier}))
                if meas is honest:
                    meas_shares = _split(f, meas, label + "/meas_share")
                    proof_shares = _split(f, proof, label + "/proof_share")
                    for j in range(2):
                        sargs = {**qargs, "meas": meas_shares[j], "proof": proof_shares[j], "numShares": 2}
                        query.append(_Pending(f"{name}: verifier share {j} of 2 of {what}", sargs,
                                                op_query(dict(sargs))))
                cases: list[tuple[str, list[int], list[str]]] = [
                    (f"{name}: verifier of {what}", verifier, [])]
                if meas is honest:
                    cases += [(f"{name}: verifier of {what}, element {i} + 1", _bump(verifier, i, p),
                               ["Tampered"]) for i in range(len(verifier))]
                for text, ver, flags in cases:
                    dargs = {**params, "verifier": ver}
                    decide.append(_Pending(text, dargs, op_decide(dict(dargs)), flags=flags))
                if meas is honest:
                    bad_prove += [
                        (f"{name}: prove randomness one element short",
                         {**args, "proveRand": prove_rand[:-1]}, "BadLength"),
                        (f"{name}: prove randomness one element too many",
                         {**args, "proveRand": prove_rand + [1]}, "BadLength"),
                        (f"{name}: measurement one element short", {**args, "meas": meas[:-1]}, "BadLength"),
                        (f"{name}: one joint randomness element too many",
                         {**args, "jointRand": joint_rand + [1]}, "BadLength")]
                    bad_query += [
                        (f"{name}: proof one element short", {**qargs, "proof": proof[:-1]}, "BadLength"),
                        (f"{name}: proof one element too many", {**qargs, "proof": proof + [0]}, "BadLength"),
                        (f"{name}: query randomness one element short",
                         {**qargs, "queryRand": query_rand[:-1]}, "BadLength"),
                        (f"{name}: query randomness one element too many",
                         {**qargs, "queryRand": query_rand + [1]}, "BadLength"),
                        (f"{name}: measurement one element too many", {**qargs, "meas": meas + [0]},
                         "BadLength")]
                    first = flp.QUERY_RAND_LEN - len(vdaf.flp.valid.GADGETS)
                    for g, calls in enumerate(vdaf.flp.valid.GADGET_CALLS):
                        m = wire_poly_len(calls)
                        for t, text in ((f.nth_root(m).val, f"gen^(GEN_ORDER / {m}), of order m = {m}"),
                                        (1, "1")):
                            rand = list(query_rand)
                            rand[first + g] = t
                            bad_query.append((f"{name}: test point of gadget {g} is {text}",
                                              {**qargs, "queryRand": rand}, "TestPoint"))
                    bad_decide += [
                        (f"{name}: verifier one element short", {**params, "verifier": verifier[:-1]},
                         "BadLength"),
                        (f"{name}: verifier one element too many", {**params, "verifier": verifier + [0]},
                         "BadLength")]
            # truncate and decode
            rand_meas = _rand_elements(f, flp.MEAS_LEN, label + "/truncate")
            for what, meas in (("an honest encoding", honest), ("a random vector", rand_meas)):
                targs = {**params, "meas": meas}
                trunc.append(_Pending(f"{name}: truncate {what}", targs, op_truncate(dict(targs))))
            bad_trunc += [(f"{name}: truncate, one element short", {**params, "meas": honest[:-1]},
                           "BadLength"),
                          (f"{name}: truncate, one element too many", {**params, "meas": honest + [0]},
                           "BadLength")]
            output = op_truncate({**params, "meas": honest})["truncated"]
            outputs: list[tuple[str, list[int], int]] = [
                ("the output of one honest measurement", output, 1),
                ("a random aggregate of 3", _rand_elements(f, flp.OUTPUT_LEN, label + "/decode"), 3)]
            if params is BL2:
                outputs += [(f"the aggregate of 1 with offset entries (mod p) {text}", v, 1)
                            for text, v in BL2_DECODE]
            for what, out, count in outputs:
                oargs = {**params, "output": out, "numMeasurements": count}
                dec.append(_Pending(f"{name}: decode {what}", oargs, op_flp_decode(dict(oargs))))
            bad_dec += [(f"{name}: decode, one element short",
                         {**params, "output": output[:-1], "numMeasurements": 1}, "BadLength"),
                        (f"{name}: decode, one element too many",
                         {**params, "output": output + [0], "numMeasurements": 1}, "BadLength")]
        groups = []
        for op, handler, tests, bad in (("vdaf.flp.prove", op_prove, prove, bad_prove),
                                        ("vdaf.flp.query", op_query, query, bad_query),
                                        ("vdaf.flp.decide", op_decide, decide, bad_decide),
                                        ("vdaf.flp.truncate", op_truncate, trunc, bad_trunc),
                                        ("vdaf.flp.decode", op_flp_decode, dec, bad_dec)):
            groups.append({"op": op, "params": {}, "tests": [t.entry(tc) for t in tests]
                           + invalid_tests(tc, handler, {}, bad)})
        return self._file("vdaf-checks/flp.json", "The FLP of [BBCGGI19] (sec. 7.3.3-7.3.5)", groups)

    def _verify(self) -> VectorFile:
        """Sharding (of measurements and of encoded vectors) and verification of reports of circuits
        with one joint randomness element, of malicious Clients and of tampered messages."""
        tc = TestNumberer()
        shard: list[_Pending] = []
        shard_enc: list[_Pending] = []
        init: list[_Pending] = []
        to_msg: list[_Pending] = []
        bad_enc: list[tuple[str, dict[str, Any], str]] = []
        bad_msg: list[tuple[str, dict[str, Any], str]] = []
        ctx = CTX.hex()
        for params, meas, malicious in VERIFY_CASES:
            vdaf, name = _vdaf(params), params["vdaf"]
            jr1 = ["JointRandLen1"] if vdaf.flp.JOINT_RAND_LEN == 1 else []
            label = f"vdaf-checks/verify/{name}/{vdaf.SHARES}"
            nonce, rand = vector_seed(label + "/nonce", 16), vector_seed(label + "/rand", vdaf.RAND_SIZE)
            key = vector_seed(label + "/verify_key", vdaf.VERIFY_KEY_SIZE)
            base = {**params, "ctx": ctx, "nonce": nonce.hex(), "rand": rand.hex()}
            sargs = {**base, "measurement": meas}
            honest = op_shard(dict(sargs))
            shard.append(_Pending(f"{name}, SHARES = {vdaf.SHARES}, measurement {meas!r}", sargs,
                                    honest, flags=jr1))
            encoded = [x.val for x in vdaf.flp.encode(meas)]
            reports: list[tuple[str, dict[str, Any], list[str]]] = [("honest report", honest, [])]
            for what, vec, flags in (("the honest encoding", encoded, []),
                                     ("a malicious encoding", malicious, ["MaliciousClient"])):
                eargs = {**base, "encodedMeasurement": vec}
                got = op_shard_encoded(dict(eargs))
                shard_enc.append(_Pending(f"{name}: {what} {vec}", eargs, got, flags=jr1 + flags))
                if flags:
                    reports.append(("malicious report", got, flags))
            eargs = {**base, "encodedMeasurement": encoded}
            bad_enc += [
                (f"{name}: a {n}-byte nonce", {**eargs, "nonce": vector_seed(label + "/n", n).hex()},
                 "BadLength") for n in (15, 17)] + [
                (f"{name}: rand of RAND_SIZE {d:+d} bytes",
                 {**eargs, "rand": vector_seed(label + "/r", vdaf.RAND_SIZE + d).hex()}, "BadLength")
                for d in (-1, 1)] + [
                (f"{name}: encoded measurement one element short",
                 {**eargs, "encodedMeasurement": encoded[:-1]}, "BadLength"),
                (f"{name}: encoded measurement one element too many",
                 {**eargs, "encodedMeasurement": encoded + [0]}, "BadLength")]
            if vdaf.uses_joint_rand:
                parts = [honest["publicShare"][64 * i : 64 * i + 64] for i in range(vdaf.SHARES)]
                for i in range(vdaf.SHARES):
                    wrong = parts[:i] + ["00" * 32] + parts[i + 1 :]
                    reports.append((f"report with public share part {i} zeroed",
                                    {**honest, "publicShare": "".join(wrong)}, ["Tampered"]))
            vbase = {**params, "verifyKey": key.hex(), "ctx": ctx, "nonce": nonce.hex()}
            for what, report, flags in reports:
                shares = []
                for agg_id, share in enumerate(report["inputShares"]):
                    iargs = {**vbase, "publicShare": report["publicShare"], "aggId": agg_id,
                             "inputShare": share}
                    got = op_verify_init(dict(iargs))
                    shares.append(got["verifierShare"])
                    init.append(_Pending(f"{name}: {what}, Aggregator {agg_id} of {vdaf.SHARES}",
                                           iargs, got, flags=jr1 + flags))
                margs = {**params, "ctx": ctx, "verifierShares": shares}
                to_msg.append(_Pending(f"{name}: the verifier shares of the {what}", margs,
                                         op_to_message(dict(margs)), flags=jr1 + flags))
                if what == "honest report":
                    es = vdaf.field.ENCODED_SIZE
                    for j in range(vdaf.SHARES):
                        raw = bytes.fromhex(shares[j])
                        first = (int.from_bytes(raw[:es], "little") + 1) % vdaf.field.MODULUS
                        bumped = first.to_bytes(es, "little") + raw[es:]
                        targs = {**margs, "verifierShares": shares[:j] + [bumped.hex()] + shares[j + 1 :]}
                        to_msg.append(_Pending(f"{name}: verifier share {j}, element 0 + 1", targs,
                                                 op_to_message(dict(targs)), flags=["Tampered"]))
                    bad_msg += [(f"{name}: SHARES - 1 verifier shares",
                                 {**margs, "verifierShares": shares[:-1]}, "BadLength"),
                                (f"{name}: SHARES + 1 verifier shares",
                                 {**margs, "verifierShares": shares + shares[-1:]}, "BadLength")]
        groups = [{"op": "vdaf.prio3.shard", "params": {}, "tests": [t.entry(tc) for t in shard]}]
        groups.append({"op": "vdaf.prio3.shard_encoded", "params": {},
                       "tests": [t.entry(tc) for t in shard_enc]
                       + invalid_tests(tc, op_shard_encoded, {}, bad_enc)})
        groups.append({"op": "vdaf.prio3.verify_init", "params": {}, "tests": [t.entry(tc) for t in init]})
        groups.append({"op": "vdaf.prio3.verifier_shares_to_message", "params": {},
                       "tests": [t.entry(tc) for t in to_msg]
                       + invalid_tests(tc, op_to_message, {}, bad_msg)})
        return self._file("vdaf-checks/verify.json", "Prio3 verification steps (sec. 7.2.1, 7.2.2)", groups)


FAMILY = VdafChecksFamily()
