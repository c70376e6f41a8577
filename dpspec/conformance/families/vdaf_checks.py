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
  message decoders of sec. 7.2.7.

Field elements are JSON integers in ``[0, MODULUS)``; byte strings are lower-case hex.
"""

from __future__ import annotations

from typing import Any

from dpspec.conformance.families._groups import Groups
from dpspec.conformance.families.vdaf import make_vdaf
from dpspec.conformance.jsonargs import any_value_ops, hex_arg
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


class VdafChecksFamily(Family):
    name = "vdaf-checks"
    summary = "Prio3 (VDAF draft-20) away from the batch: lengths, encodings, circuits, decoders"

    def handlers(self) -> dict[str, Handler]:
        return {"vdaf.prio3.params": op_params, "vdaf.prio3.encode": op_encode,
                "vdaf.flp.eval": op_eval, "vdaf.prio3.decode": op_decode, "vdaf.prio3.shard": op_shard,
                "vdaf.prio3.verify_init": op_verify_init}

    def schemas(self) -> dict[str, dict[str, Any]]:
        ops = any_value_ops({
            "vdaf.prio3.params": TYPE_KEYS,
            "vdaf.prio3.encode": (*TYPE_KEYS, "measurement"),
            "vdaf.flp.eval": (*TYPE_KEYS, "meas", "jointRand", "numShares"),
            "vdaf.prio3.decode": (*TYPE_KEYS, "message", "encoded", "aggId"),
            "vdaf.prio3.shard": (*TYPE_KEYS, "ctx", "measurement", "nonce", "rand"),
            "vdaf.prio3.verify_init": (*TYPE_KEYS, "verifyKey", "ctx", "aggId", "nonce", "publicShare",
                                       "inputShare"),
        })
        return {SCHEMA: family_schema(SCHEMA, "Prio3 decision-point vectors", ops)}

    def _file(self, path: str, algorithm: str, groups: list[dict[str, Any]]) -> VectorFile:
        return self.vector_file(path, algorithm=algorithm, schema=SCHEMA, header=HEADER, notes=NOTES,
                                groups=groups)

    def files(self) -> list[VectorFile]:
        return [self._params(), self._encode(), self._eval(), self._decode(), self._shard()]

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
        groups = Groups(self.handlers())
        groups.add("vdaf.prio3.params", *_params_tests())
        return self._file("vdaf-checks/params.json", "Prio3 derived lengths (sec. 7.2, 7.3.2)",
                          groups.groups)

    def _encode(self) -> VectorFile:
        groups = Groups(self.handlers())
        for params, good, bad in ENCODE_CASES:
            groups.add("vdaf.prio3.encode",
                       [(f"{params['vdaf']}: measurement {m!r}", {"measurement": m}) for m in good],
                       [(f"{params['vdaf']}: measurement {m!r}", {"measurement": m}, "BadMeasurement")
                        for m in bad], params)
        return self._file("vdaf-checks/encode.json", "Prio3 measurement encoding (sec. 7.4)",
                          groups.groups)

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
        groups = Groups(self.handlers())
        valid, invalid = _decode_cases()
        groups.add("vdaf.prio3.decode",
                   [(text, {**params, **inputs}) for text, params, inputs in valid],
                   [(text, {**params, **inputs}, flag) for text, params, inputs, flag in invalid])
        return self._file("vdaf-checks/decode.json", "Prio3 message decoding (sec. 7.2.7)",
                          groups.groups)


FAMILY = VdafChecksFamily()
