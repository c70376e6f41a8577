"""Vector family ``vdaf``: Prio3 (VDAF draft-irtf-cfrg-vdaf-20) transcripts in the draft's own
test-vector format (its section "Test Vectors"), not the dpspec envelope.

A file ``vdaf/<VdafName>_<label>.json`` is one batch: the VDAF parameters (``shares`` and the type
parameters), ``verify_key``, ``ctx``, ``agg_param``, the ``operations`` to replay in order, per
report every message (hex), the aggregate shares and the aggregate result. Negative files
(``<VdafName>_bad_<what>.json``) hold a tampered or invalid report whose failing operation has
``success: false``; their ``measurement`` and ``agg_result`` are null. The same code writes the
project's own files and, given their inputs, reproduces the draft's official ones byte for byte
(``tests/test_prio3_vectors.py``); ``vdaf/INDEX.json`` documents each own file.

Harness cases: a valid file is one case ``vdaf.prio3.transcript`` (inputs: the VDAF and its
parameters, verify_key, ctx, agg_param, measurements, nonces, rands; outputs: every message of
every report, the aggregate shares and result). A negative file is one ``invalid`` case
``vdaf.prio3.verify`` (inputs: the parameters and the received report, plus the verifier message
when that is what was tampered with): the implementation must reject it.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable
from typing import Any

import mpmath

from dpspec.conformance.jsonargs import COUNT, HEX, hex_arg, hex_list_arg
from dpspec.conformance.vectors import SCHEMA_ID_PREFIX, Case, Family, Handler, VectorFile, vector_seed
from dpspec.spec.field import FIELDS, Field
from dpspec.spec.vdaf import VerifyError
from dpspec.spec.vdaf.bounded_l2 import Prio3BoundedL2VecSum
from dpspec.spec.vdaf.prio3 import (
    Prio3,
    Prio3Count,
    Prio3HigherDegree,
    Prio3Histogram,
    Prio3MultihotCountVec,
    Prio3Sum,
    Prio3SumVec,
    Prio3SumVecWithMultiproof,
)
from dpspec.spec.vdaf.run import VdafTranscript, run_vdaf

FORMAT_SCHEMA = "vdaf_test_vector-v1.json"
INDEX_SCHEMA = "vdaf_index-v1.json"
INDEX_PATH = "vdaf/INDEX.json"

AnyPrio3 = Prio3[Any, Any, Any]

#: The parameters each VDAF's files carry besides ``shares`` (the draft's "Test Vectors" section).
TYPE_PARAMS: dict[str, tuple[str, ...]] = {
    "Prio3Count": (),
    "Prio3Sum": ("max_measurement",),
    "Prio3SumVec": ("length", "max_measurement", "chunk_length"),
    "Prio3SumVecWithMultiproof": ("length", "max_measurement", "chunk_length"),
    "Prio3Histogram": ("length", "chunk_length"),
    "Prio3MultihotCountVec": ("length", "max_weight", "chunk_length"),
    "Prio3HigherDegree": (),
    "Prio3BoundedL2VecSum": ("length", "bits", "norm_bound", "chunk_length"),  # not in draft-20
}

#: The draft's Prio3SumVecWithMultiproof vectors use Field64 and 3 proofs; the format does not
#: record either, so this family keeps that convention for every file of that name.
MULTIPROOF_FIELD = "Field64"
MULTIPROOF_PROOFS = 3


def make_vdaf(name: str, params: dict[str, Any]) -> AnyPrio3:
    """The Prio3 instance named ``name`` (a file-name prefix) with the file's parameters.

    ``params`` holds ``shares`` and the type parameters; for Prio3SumVecWithMultiproof also
    ``field`` and ``num_proofs`` (defaults: the draft's Field64 and 3)."""
    def arg(key: str) -> int:
        value = params.get(key)
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{name}: parameter {key} must be an integer")
        return value

    shares = arg("shares")
    if name == "Prio3Count":
        return Prio3Count(shares)
    if name == "Prio3Sum":
        return Prio3Sum(shares, arg("max_measurement"))
    if name == "Prio3SumVec":
        return Prio3SumVec(shares, arg("length"), arg("max_measurement"), arg("chunk_length"))
    if name == "Prio3SumVecWithMultiproof":
        field = FIELDS.get(params.get("field", MULTIPROOF_FIELD))
        if field is None:
            raise ValueError(f"unknown field {params.get('field')!r}")
        return Prio3SumVecWithMultiproof(shares, field, params.get("num_proofs", MULTIPROOF_PROOFS),
                                         arg("length"), arg("max_measurement"), arg("chunk_length"))
    if name == "Prio3Histogram":
        return Prio3Histogram(shares, arg("length"), arg("chunk_length"))
    if name == "Prio3MultihotCountVec":
        return Prio3MultihotCountVec(shares, arg("length"), arg("max_weight"), arg("chunk_length"))
    if name == "Prio3HigherDegree":
        return Prio3HigherDegree(shares)
    if name == "Prio3BoundedL2VecSum":
        return Prio3BoundedL2VecSum(shares, arg("length"), arg("bits"), arg("norm_bound"),
                                    arg("chunk_length"))
    raise ValueError(f"unknown VDAF {name!r}; known: {', '.join(TYPE_PARAMS)}")


def vdaf_name_of(path: str) -> str:
    """``Prio3Histogram`` from ``.../Prio3Histogram_2.json``."""
    return os.path.basename(path).split("_", 1)[0]


def params_of(name: str, doc: dict[str, Any]) -> dict[str, Any]:
    """``shares`` and the type parameters recorded in a file."""
    if name not in TYPE_PARAMS:
        raise ValueError(f"unknown VDAF {name!r}")
    return {key: doc[key] for key in ("shares", *TYPE_PARAMS[name])}


def official_json_text(doc: dict[str, Any]) -> str:
    """The text the draft's generator writes: ``json.dump(indent=4, sort_keys=True)`` + newline.

    (Files under ``vectors/`` use the project's canonical form, indent 2: same content.)"""
    return json.dumps(doc, indent=4, sort_keys=True) + "\n"


def test_vec_gen_rand(length: int) -> bytes:
    """The draft's vector randomness: the bytes ``i % 256`` for ``i < length``."""
    return bytes(i % 256 for i in range(length))


# -- writing transcripts ------------------------------------------------------------------------
def transcript_doc(vdaf: AnyPrio3, params: dict[str, Any], run: VdafTranscript) -> dict[str, Any]:
    """A valid batch in the draft's format (operations in the order its generator lists them)."""
    ops: list[dict[str, Any]] = []
    reports = []
    for i, rep in enumerate(run.reports):
        ops.append({"operation": "shard", "report_index": i, "success": True})
        ops += [{"operation": "verify_init", "aggregator_id": j, "report_index": i, "success": True}
                for j in range(vdaf.SHARES)]
        ops.append({"operation": "verifier_shares_to_message", "round": 0, "report_index": i,
                    "success": True})
        ops += [{"operation": "verify_next", "round": 1, "aggregator_id": j, "report_index": i,
                 "success": True} for j in range(vdaf.SHARES)]
        reports.append({
            "measurement": rep.measurement,
            "nonce": rep.nonce.hex(),
            "rand": rep.rand.hex(),
            "public_share": rep.public_share.hex(),
            "input_shares": [s.hex() for s in rep.input_shares],
            "verifier_shares": [[s.hex() for s in rnd] for rnd in rep.verifier_shares],
            "verifier_messages": [m.hex() for m in rep.verifier_messages],
            "out_shares": [vdaf.encode_out_share(s).hex() for s in rep.out_shares],
        })
    ops += [{"operation": "aggregate", "aggregator_id": j, "success": True} for j in range(vdaf.SHARES)]
    ops.append({"operation": "unshard", "success": True})
    return {
        **params,
        "shares": vdaf.SHARES,
        "verify_key": run.verify_key.hex(),
        "agg_param": vdaf.encode_agg_param(run.agg_param).hex(),
        "ctx": run.ctx.hex(),
        "operations": ops,
        "reports": reports,
        "agg_shares": [vdaf.encode_agg_share(s).hex() for s in run.agg_shares],
        "agg_result": run.agg_result,
    }


def negative_doc(vdaf: AnyPrio3, params: dict[str, Any], verify_key: bytes, ctx: bytes, nonce: bytes,
                 rand: bytes, public_share: bytes, input_shares: list[bytes],
                 bad_verifier_message: bytes | None = None) -> dict[str, Any]:
    """A rejected report in the draft's format.

    Without ``bad_verifier_message``: every Aggregator runs verify_init, and
    verifier_shares_to_message must fail. With it: the Leader runs verify_init, then verify_next
    on that message must fail. Raises RuntimeError if the report is in fact accepted."""
    vshares: list[bytes] = []
    states = []
    received_public = vdaf.decode_public_share(public_share)
    agg_ids = [0] if bad_verifier_message is not None else list(range(vdaf.SHARES))
    for j in agg_ids:
        state, share = vdaf.verify_init(verify_key, ctx, j, None, nonce, received_public,
                                        vdaf.decode_input_share(j, input_shares[j]))
        states.append(state)
        vshares.append(vdaf.encode_verifier_share(share))
    ops: list[dict[str, Any]] = [
        {"operation": "verify_init", "aggregator_id": j, "report_index": 0, "success": True}
        for j in agg_ids]
    if bad_verifier_message is None:
        ops.append({"operation": "verifier_shares_to_message", "round": 0, "report_index": 0,
                    "success": False})
    else:
        ops.append({"operation": "verify_next", "aggregator_id": 0, "round": 1, "report_index": 0,
                    "success": False})
    try:
        if bad_verifier_message is None:
            vdaf.verifier_shares_to_message(
                ctx, None, [vdaf.decode_verifier_share(st, v) for st, v in zip(states, vshares, strict=True)])
        else:
            vdaf.verify_next(ctx, states[0], vdaf.decode_verifier_message(states[0], bad_verifier_message))
    except VerifyError:
        pass
    else:
        raise RuntimeError("negative vector: the report was accepted")
    return {
        **params,
        "shares": vdaf.SHARES,
        "verify_key": verify_key.hex(),
        "agg_param": "",
        "ctx": ctx.hex(),
        "operations": ops,
        "reports": [{
            "measurement": None,
            "nonce": nonce.hex(),
            "rand": rand.hex(),
            "public_share": public_share.hex(),
            "input_shares": [s.hex() for s in input_shares],
            "verifier_shares": [[v.hex() for v in vshares]],
            "verifier_messages": [] if bad_verifier_message is None else [bad_verifier_message.hex()],
            "out_shares": [],
        }],
        "agg_shares": [],
        "agg_result": None,
    }


def _flip_first_bit(data: bytes) -> bytes:
    return bytes([data[0] ^ 1]) + data[1:]


#: How each ``bad_<what>`` negative vector alters an honest report (the draft's kinds, plus
#: ``bad_measurement``, generated separately): ``(report, vdaf) -> (public share, input shares,
#: verifier message or None)``, all decoded. Leader elements are incremented by one; seeds, blinds
#: and joint randomness parts get their first bit flipped; the verifier message becomes zeros.
Tamper = Callable[[AnyPrio3, Any, list[Any]], tuple[Any, list[Any], bytes | None]]


def _bump(vec: list[Field], index: int) -> list[Field]:
    out = list(vec)
    out[index] = out[index] + type(out[index])(1)
    return out


TAMPERS: dict[str, Tamper] = {
    "bad_meas_share": lambda v, ps, ins: (ps, [(_bump(ins[0][0], 0), ins[0][1], ins[0][2]), *ins[1:]],
                                          None),
    "bad_wire_seed": lambda v, ps, ins: (ps, [(ins[0][0], _bump(ins[0][1], 0), ins[0][2]), *ins[1:]],
                                         None),
    "bad_gadget_poly": lambda v, ps, ins: (ps, [(ins[0][0], _bump(ins[0][1], -1), ins[0][2]),
                                                *ins[1:]], None),
    "bad_helper_seed": lambda v, ps, ins: (ps, [ins[0], (_flip_first_bit(ins[1][0]), ins[1][1]),
                                                *ins[2:]], None),
    "bad_leader_jr_blind": lambda v, ps, ins: (ps, [(ins[0][0], ins[0][1], _flip_first_bit(ins[0][2])),
                                                    *ins[1:]], None),
    "bad_helper_jr_blind": lambda v, ps, ins: (ps, [ins[0], (ins[1][0], _flip_first_bit(ins[1][1])),
                                                    *ins[2:]], None),
    "bad_public_share": lambda v, ps, ins: ([_flip_first_bit(ps[0]), *ps[1:]], ins, None),
    "bad_verifier_message": lambda v, ps, ins: (ps, ins, bytes(v.xof.SEED_SIZE)),
}
JOINT_RAND_TAMPERS = ("bad_leader_jr_blind", "bad_helper_jr_blind", "bad_public_share",
                      "bad_verifier_message")


def tampered_doc(vdaf: AnyPrio3, params: dict[str, Any], kind: str, verify_key: bytes, ctx: bytes,
                 nonce: bytes, rand: bytes, measurement: Any) -> dict[str, Any]:
    """Shard ``measurement`` honestly, alter the report as ``TAMPERS[kind]`` says, and write the
    negative vector."""
    public_share, input_shares = vdaf.shard(ctx, measurement, nonce, rand)
    public_share, input_shares, bad_message = TAMPERS[kind](vdaf, public_share, input_shares)
    return negative_doc(vdaf, params, verify_key, ctx, nonce, rand,
                        vdaf.encode_public_share(public_share),
                        [vdaf.encode_input_share(s) for s in input_shares], bad_message)


def invalid_measurement_doc(vdaf: AnyPrio3, params: dict[str, Any], verify_key: bytes, ctx: bytes,
                            nonce: bytes, rand: bytes, encoded: list[Field]) -> dict[str, Any]:
    """A malicious Client: an encoded measurement outside the circuit's language, sharded with an
    honestly computed proof (``Prio3.shard_encoded``); the proof check must reject it."""
    public_share, input_shares = vdaf.shard_encoded(ctx, encoded, nonce, rand)
    return negative_doc(vdaf, params, verify_key, ctx, nonce, rand,
                        vdaf.encode_public_share(public_share),
                        [vdaf.encode_input_share(s) for s in input_shares])


# -- the draft's official files, regenerated from their inputs --------------------------------
OFFICIAL_CTX = b"some application"

#: (file stem, VDAF name, parameters, measurements) of the draft's valid Prio3 vectors.
OFFICIAL_VALID: list[tuple[str, str, dict[str, Any], list[Any]]] = [
    ("Prio3Count_0", "Prio3Count", {"shares": 2}, [1]),
    ("Prio3Count_1", "Prio3Count", {"shares": 3}, [1]),
    ("Prio3Count_2", "Prio3Count", {"shares": 2}, [0, 1, 1, 0, 1]),
    ("Prio3Sum_0", "Prio3Sum", {"shares": 2, "max_measurement": 255}, [100]),
    ("Prio3Sum_1", "Prio3Sum", {"shares": 3, "max_measurement": 255}, [100]),
    ("Prio3Sum_2", "Prio3Sum", {"shares": 2, "max_measurement": 1337}, [0, 1, 1337, 99, 42, 0, 0, 42]),
    ("Prio3SumVec_0", "Prio3SumVec",
     {"shares": 2, "length": 10, "max_measurement": 255, "chunk_length": 9},
     [list(range(10)), [1] * 10, [255] * 10]),
    ("Prio3SumVec_1", "Prio3SumVec",
     {"shares": 3, "length": 3, "max_measurement": 32000, "chunk_length": 7},
     [[10000, 32000, 9], [19342, 19615, 3061], [15986, 24671, 23910]]),
    ("Prio3SumVecWithMultiproof_0", "Prio3SumVecWithMultiproof",
     {"shares": 2, "length": 10, "max_measurement": 255, "chunk_length": 9},
     [list(range(10)), [1] * 10, [255] * 10]),
    ("Prio3SumVecWithMultiproof_1", "Prio3SumVecWithMultiproof",
     {"shares": 3, "length": 3, "max_measurement": 65535, "chunk_length": 7},
     [[10000, 32000, 9], [19342, 19615, 3061], [15986, 24671, 23910]]),
    ("Prio3Histogram_0", "Prio3Histogram", {"shares": 2, "length": 4, "chunk_length": 2}, [2]),
    ("Prio3Histogram_1", "Prio3Histogram", {"shares": 3, "length": 11, "chunk_length": 3}, [2]),
    ("Prio3Histogram_2", "Prio3Histogram", {"shares": 2, "length": 100, "chunk_length": 10},
     [2, 99, 99, 17, 42, 0, 0, 1, 2, 0]),
    ("Prio3MultihotCountVec_0", "Prio3MultihotCountVec",
     {"shares": 2, "length": 4, "max_weight": 2, "chunk_length": 2}, [[False, True, True, False]]),
    ("Prio3MultihotCountVec_1", "Prio3MultihotCountVec",
     {"shares": 4, "length": 10, "max_weight": 2, "chunk_length": 3},
     [[False, True, False, False, False, False, False, False, False, True]]),
    ("Prio3MultihotCountVec_2", "Prio3MultihotCountVec",
     {"shares": 2, "length": 4, "max_weight": 4, "chunk_length": 1},
     [[False, True, True, False], [False, False, True, False], [False, False, False, False],
      [True, True, True, False], [True, True, True, True]]),
    ("Prio3HigherDegree_0", "Prio3HigherDegree", {"shares": 2}, [2]),
]

#: (file stem, VDAF name, parameters, honest measurement, tamper kind) of the draft's negatives.
OFFICIAL_NEGATIVE: list[tuple[str, str, dict[str, Any], Any, str]] = [
    (f"Prio3Count_{kind}", "Prio3Count", {"shares": 2}, 1, kind)
    for kind in ("bad_meas_share", "bad_wire_seed", "bad_gadget_poly", "bad_helper_seed")
] + [
    (f"Prio3Histogram_{kind}", "Prio3Histogram", {"shares": 2, "length": 5, "chunk_length": 2}, 3, kind)
    for kind in JOINT_RAND_TAMPERS
]


def official_docs() -> dict[str, dict[str, Any]]:
    """The draft-20 Prio3 vector files (file name -> document), regenerated from their inputs:
    verify key, nonces and rands are ``test_vec_gen_rand`` bytes, ``ctx = b"some application"``."""
    out: dict[str, dict[str, Any]] = {}
    for stem, name, params, measurements in OFFICIAL_VALID:
        vdaf = make_vdaf(name, params)
        n = len(measurements)
        run = run_vdaf(vdaf, test_vec_gen_rand(vdaf.VERIFY_KEY_SIZE), OFFICIAL_CTX, None,
                       [test_vec_gen_rand(vdaf.NONCE_SIZE)] * n, measurements,
                       [test_vec_gen_rand(vdaf.RAND_SIZE)] * n)
        out[stem + ".json"] = transcript_doc(vdaf, params, run)
    for stem, name, params, measurement, kind in OFFICIAL_NEGATIVE:
        vdaf = make_vdaf(name, params)
        out[stem + ".json"] = tampered_doc(
            vdaf, params, kind, test_vec_gen_rand(vdaf.VERIFY_KEY_SIZE), OFFICIAL_CTX,
            test_vec_gen_rand(vdaf.NONCE_SIZE), test_vec_gen_rand(vdaf.RAND_SIZE), measurement)
    return out


# -- replaying a file step by step ---------------------------------------------------------------
def replay_operations(path: str, doc: dict[str, Any],
                      params_extra: dict[str, Any] | None = None) -> list[str]:
    """Run a file's ``operations`` in order against :mod:`dpspec.spec.vdaf.prio3`, each step taking its
    inputs from the file (decoded) and comparing its encoded outputs with the file's.

    Returns the problems found (empty if the file replays exactly): an output that differs, an
    operation that fails although ``success`` is true, or one that succeeds although it is false.
    """
    name = vdaf_name_of(path)
    vdaf = make_vdaf(name, {**params_of(name, doc), **(params_extra or {})})
    ctx = bytes.fromhex(doc["ctx"])
    verify_key = bytes.fromhex(doc["verify_key"])
    vdaf.decode_agg_param(bytes.fromhex(doc["agg_param"]))  # Prio3: must be empty
    agg_param = None
    reports = doc["reports"]
    states: dict[tuple[int, int], Any] = {}
    problems: list[str] = []

    def expect(what: str, want: Any, got: Any) -> None:
        if want != got:
            problems.append(f"{what}: expected {str(want)[:80]}, got {str(got)[:80]}")

    for step, op in enumerate(doc["operations"]):
        kind, ok = op["operation"], op["success"]
        i, j = op.get("report_index"), op.get("aggregator_id")
        where = f"operation {step} ({kind}, report {i}, aggregator {j})"
        rep = reports[i] if i is not None else None
        try:
            if kind == "shard":
                assert rep is not None
                public, inputs = vdaf.shard(ctx, rep["measurement"], bytes.fromhex(rep["nonce"]),
                                            bytes.fromhex(rep["rand"]))
                expect(f"{where} public_share", rep["public_share"], vdaf.encode_public_share(public).hex())
                expect(f"{where} input_shares", rep["input_shares"],
                       [vdaf.encode_input_share(s).hex() for s in inputs])
            elif kind == "verify_init":
                assert rep is not None and j is not None
                state, share = vdaf.verify_init(
                    verify_key, ctx, j, agg_param, bytes.fromhex(rep["nonce"]),
                    vdaf.decode_public_share(bytes.fromhex(rep["public_share"])),
                    vdaf.decode_input_share(j, bytes.fromhex(rep["input_shares"][j])))
                states[(i, j)] = state
                expect(f"{where} verifier share", rep["verifier_shares"][0][j],
                       vdaf.encode_verifier_share(share).hex())
            elif kind == "verifier_shares_to_message":
                assert rep is not None
                rnd = op["round"]
                shares = [vdaf.decode_verifier_share(states.get((i, k)), bytes.fromhex(s))
                          for k, s in enumerate(rep["verifier_shares"][rnd])]
                message = vdaf.verifier_shares_to_message(ctx, agg_param, shares)
                expect(f"{where} verifier message", rep["verifier_messages"][rnd],
                       vdaf.encode_verifier_message(message).hex())
            elif kind == "verify_next":
                assert rep is not None and j is not None
                rnd = op["round"]
                state = states[(i, j)]
                encoded = bytes.fromhex(rep["verifier_messages"][rnd - 1])
                message = vdaf.decode_verifier_message(state, encoded)
                out_share = vdaf.verify_next(ctx, state, message)
                expect(f"{where} out share", rep["out_shares"][j], vdaf.encode_out_share(out_share).hex())
            elif kind == "aggregate":
                assert j is not None
                agg = vdaf.agg_init(agg_param)
                for r in reports:
                    out = vdaf.decode_out_share(bytes.fromhex(r["out_shares"][j]))
                    agg = vdaf.agg_update(agg_param, agg, out)
                expect(f"{where} agg share", doc["agg_shares"][j], vdaf.encode_agg_share(agg).hex())
            elif kind == "unshard":
                agg_shares = [vdaf.decode_agg_share(agg_param, bytes.fromhex(s)) for s in doc["agg_shares"]]
                expect(f"{where} agg result", doc["agg_result"],
                       vdaf.unshard(agg_param, agg_shares, len(reports)))
            else:
                problems.append(f"{where}: unknown operation")
                continue
        except VerifyError as exc:
            if ok:
                problems.append(f"{where}: failed unexpectedly: {exc}")
            continue
        if not ok:
            problems.append(f"{where}: succeeded but the vector says it fails")
    return problems


# -- harness ops ------------------------------------------------------------------------------------
def _vdaf_from_args(args: dict[str, Any]) -> AnyPrio3:
    name = args.get("vdaf")
    if not isinstance(name, str):
        raise ValueError("vdaf must name a Prio3 variant")
    return make_vdaf(name, args)


def op_transcript(args: dict[str, Any]) -> dict[str, Any]:
    """``vdaf.prio3.transcript``: run the batch, return every message and the result."""
    vdaf = _vdaf_from_args(args)
    nonces = hex_list_arg(args, "nonces")
    rands = hex_list_arg(args, "rands")
    vdaf.decode_agg_param(hex_arg(args, "agg_param"))  # Prio3: must be empty
    run = run_vdaf(vdaf, hex_arg(args, "verify_key"), hex_arg(args, "ctx"), None, nonces,
                   args["measurements"], rands)
    doc = transcript_doc(vdaf, {}, run)
    return {"reports": [{k: r[k] for k in ("public_share", "input_shares", "verifier_shares",
                                           "verifier_messages", "out_shares")} for r in doc["reports"]],
            "agg_shares": doc["agg_shares"], "agg_result": doc["agg_result"]}


def op_verify(args: dict[str, Any]) -> dict[str, Any]:
    """``vdaf.prio3.verify``: verify one received report (all Aggregators); with
    ``verifier_message`` given, the Aggregators use it instead of the one they compute."""
    vdaf = _vdaf_from_args(args)
    ctx, verify_key, nonce = hex_arg(args, "ctx"), hex_arg(args, "verify_key"), hex_arg(args, "nonce")
    vdaf.decode_agg_param(hex_arg(args, "agg_param"))  # Prio3: must be empty
    agg_param = None
    public = vdaf.decode_public_share(hex_arg(args, "public_share"))
    inputs = args["input_shares"]
    if not isinstance(inputs, list) or len(inputs) != vdaf.SHARES:
        raise ValueError(f"input_shares must list {vdaf.SHARES} shares")
    states, shares = [], []
    for j in range(vdaf.SHARES):
        state, share = vdaf.verify_init(verify_key, ctx, j, agg_param, nonce, public,
                                        vdaf.decode_input_share(j, bytes.fromhex(inputs[j])))
        states.append(state)
        shares.append(share)
    if "verifier_message" in args:
        encoded = hex_arg(args, "verifier_message")
    else:
        encoded = vdaf.encode_verifier_message(vdaf.verifier_shares_to_message(ctx, agg_param, shares))
    outs = [vdaf.verify_next(ctx, st, vdaf.decode_verifier_message(st, encoded)) for st in states]
    return {"verifier_shares": [vdaf.encode_verifier_share(s).hex() for s in shares],
            "verifier_message": encoded.hex(),
            "out_shares": [vdaf.encode_out_share(o).hex() for o in outs]}


def cases_of(path: str, doc: dict[str, Any]) -> list[Case]:
    """The harness cases of one file in the draft's format (see the module docstring)."""
    name = vdaf_name_of(path)
    params: dict[str, Any] = {"vdaf": name, **params_of(name, doc)}
    if name == "Prio3SumVecWithMultiproof":
        params.update(field=MULTIPROOF_FIELD, num_proofs=MULTIPROOF_PROOFS)
    common = {**params, "verify_key": doc["verify_key"], "ctx": doc["ctx"], "agg_param": doc["agg_param"]}
    if all(op["success"] for op in doc["operations"]):
        reports = doc["reports"]
        args = {**common, "measurements": [r["measurement"] for r in reports],
                "nonces": [r["nonce"] for r in reports], "rands": [r["rand"] for r in reports]}
        expected = {"reports": [{k: r[k] for k in ("public_share", "input_shares", "verifier_shares",
                                                  "verifier_messages", "out_shares")} for r in reports],
                    "agg_shares": doc["agg_shares"], "agg_result": doc["agg_result"]}
        return [Case(path=path, tc_id=1, op="vdaf.prio3.transcript", args=args, expected=expected,
                     result="valid", comment=f"{name} batch of {len(reports)} reports")]
    [rep] = doc["reports"]
    args = {**common, "nonce": rep["nonce"], "public_share": rep["public_share"],
            "input_shares": rep["input_shares"]}
    failing = next(op for op in doc["operations"] if not op["success"])
    if failing["operation"] == "verify_next":
        args["verifier_message"] = rep["verifier_messages"][failing["round"] - 1]
    return [Case(path=path, tc_id=1, op="vdaf.prio3.verify", args=args, expected=None, result="invalid",
                 comment=f"{name}: {os.path.basename(path)[len(name) + 1 : -5]} must be rejected")]


# -- the project's own parameter sets -------------------------------------------------------------
RAPPOR_FALSE_REJECTION = mpmath.mpf(10) ** -9
RAPPOR_EPSILON_0 = ("5.0", "6.5", "7.0")  # Table 1 of draft-wang-ppm-differential-privacy-00
MPMATH_DPS = 60


def rappor_max_weight(length: int, eps0: str, p_fail: mpmath.mpf = RAPPOR_FALSE_REJECTION) -> int:
    """``max_weight`` for MultihotCountVec under symmetric RAPPOR (sec. 6.1.1 of the DP draft):
    the smallest ``m`` with ``Pr[1 + C <= m] >= 1 - p_fail``, ``C ~ Binomial(length - 1, p0)``,
    ``p0 = 1 / (exp(eps0) + 1)``, capped at ``length``. Computed with mpmath at 60 significant
    digits; the binomial tail is summed term by term (no approximation)."""
    with mpmath.workdps(MPMATH_DPS):
        p0 = 1 / (mpmath.exp(mpmath.mpf(eps0)) + 1)
        trials = length - 1
        cdf = mpmath.mpf(0)
        for c in range(trials + 1):
            cdf += mpmath.binomial(trials, c) * p0**c * (1 - p0) ** (trials - c)
            if cdf >= 1 - p_fail:
                return min(c + 1, length)
    return length


def _chunk(meas_len: int) -> int:
    """The draft's recommended chunk length: an integer near ``sqrt(MEAS_LEN)`` (sec. 7.4.3)."""
    r = math.isqrt(meas_len)
    return max(1, r + 1 if (r + 1) ** 2 - meas_len < meas_len - r * r else r)


def own_sets() -> list[tuple[str, str, dict[str, Any], list[Any], str]]:
    """(file stem, VDAF, parameters, measurements, purpose) of the project's own valid files."""
    sets: list[tuple[str, str, dict[str, Any], list[Any], str]] = [
        ("Prio3Count_dpspec_2shares", "Prio3Count", {"shares": 2}, [0, 1, 1, 0, 1, 1],
         "counts, two Aggregators"),
        ("Prio3Count_dpspec_5shares", "Prio3Count", {"shares": 5}, [1, 0, 1],
         "counts, five Aggregators (star topology)"),
        ("Prio3Sum_dpspec_max1", "Prio3Sum", {"shares": 2, "max_measurement": 1}, [0, 1, 1],
         "smallest range: one bit, no last-weight correction"),
        ("Prio3Sum_dpspec_max1000", "Prio3Sum", {"shares": 2, "max_measurement": 1000},
         [0, 1, 511, 512, 999, 1000], "range not of the form 2^k - 1: values on both sides of the "
         "last-weight switch (511 / 512)"),
        ("Prio3Sum_dpspec_max2pow32", "Prio3Sum", {"shares": 3, "max_measurement": 2**32 - 1},
         [0, 1, 2**32 - 1], "32-bit range, three Aggregators"),
        ("Prio3SumVec_dpspec_len10", "Prio3SumVec",
         {"shares": 2, "length": 10, "max_measurement": 1, "chunk_length": 3},
         [[1, 0, 1, 0, 1, 0, 1, 0, 1, 0], [0] * 10, [1] * 10],
         "0/1 vectors (the SumVec DP policy's bounded-contribution case)"),
        ("Prio3SumVec_dpspec_len100", "Prio3SumVec",
         {"shares": 2, "length": 100, "max_measurement": 255, "chunk_length": 28},
         [[i % 256 for i in range(100)], [255] * 100], "length 100, 8-bit entries, chunk near sqrt(800)"),
        ("Prio3Histogram_dpspec_len10", "Prio3Histogram",
         {"shares": 2, "length": 10, "chunk_length": 3}, [0, 9, 4, 4],
         "histogram of the aggregator-randomization DP policy (sec. 6.1.2 of the DP draft), d = 10"),
        ("Prio3Histogram_dpspec_len100", "Prio3Histogram",
         {"shares": 2, "length": 100, "chunk_length": 10}, [0, 99, 50],
         "histogram of the aggregator-randomization DP policy, d = 100"),
        ("Prio3HigherDegree_dpspec", "Prio3HigherDegree", {"shares": 3}, [0, 1, 2],
         "the draft's degree-3 test circuit, every valid value, three Aggregators"),
        ("Prio3SumVecWithMultiproof_dpspec", "Prio3SumVecWithMultiproof",
         {"shares": 2, "length": 4, "max_measurement": 15, "chunk_length": 3},
         [[0, 15, 7, 8], [1, 2, 3, 4]], "three proofs over Field64 (the draft's multiproof convention)"),
    ]
    sets.append(("Prio3BoundedL2VecSum_dpspec", "Prio3BoundedL2VecSum",
                 {"shares": 2, "length": 5, "bits": 8, "norm_bound": 10000, "chunk_length": 3},
                 [[0, 0, 0, 0, 0], [100, 0, 0, 0, 0], [-60, 80, 0, 0, 0], [0, 0, 0, 0, -100],
                  [50, -50, 50, -50, 0]],
                 "NOT PART OF VDAF draft-20 (private-use codepoint 0xFFFF0100): SA2's "
                 "federated-learning path, signed 8-bit entries of squared L2 norm <= 10000"))
    for length in (10, 100):
        for eps0 in RAPPOR_EPSILON_0:
            m = rappor_max_weight(length, eps0)
            meas_len = length + m.bit_length()
            chunk = _chunk(meas_len)
            measurements = [
                [False] * length,
                [i == 0 for i in range(length)],
                [i < m for i in range(length)],
                [i % 3 == 1 and i // 3 < m - 1 for i in range(length)],
            ]
            sets.append((f"Prio3MultihotCountVec_dpspec_rappor_d{length}_eps{eps0}", "Prio3MultihotCountVec",
                         {"shares": 2, "length": length, "max_weight": m, "chunk_length": chunk},
                         measurements,
                         f"client-randomization DP policy (sec. 6.1.1 of the DP draft): symmetric RAPPOR "
                         f"with EPSILON_0 = {eps0} on d = {length} buckets; max_weight = {m}, the "
                         f"smallest m with Pr[1 + Binomial(d - 1, 1/(e^EPSILON_0 + 1)) <= m] >= 1 - 1e-9"))
    return sets


def own_negative_sets() -> list[tuple[str, str, dict[str, Any], str, Any, str]]:
    """(file stem, VDAF, parameters, kind, measurement or invalid encoding, purpose)."""
    m = rappor_max_weight(100, "5.0")
    return [
        ("Prio3Count_dpspec_bad_measurement", "Prio3Count", {"shares": 2}, "bad_measurement", [2],
         "a Client encodes 2, outside {0, 1}"),
        ("Prio3Sum_dpspec_bad_measurement", "Prio3Sum", {"shares": 2, "max_measurement": 1000},
         "bad_measurement", [2] + [0] * 9, "a Client puts 2 in a bit of the range-checked encoding"),
        ("Prio3Histogram_dpspec_bad_measurement", "Prio3Histogram",
         {"shares": 2, "length": 10, "chunk_length": 3}, "bad_measurement",
         [1, 1, 0, 0, 0, 0, 0, 0, 0, 0], "a Client reports a two-hot vector (sum check fails)"),
        ("Prio3Histogram_dpspec_bad_measurement_nonbit", "Prio3Histogram",
         {"shares": 2, "length": 10, "chunk_length": 3}, "bad_measurement",
         [2, -1, 0, 0, 0, 0, 0, 0, 0, 0], "entries 2 and -1 sum to one but are not bits (range check "
         "fails)"),
        ("Prio3MultihotCountVec_dpspec_bad_measurement", "Prio3MultihotCountVec",
         {"shares": 2, "length": 100, "max_weight": m, "chunk_length": _chunk(100 + m.bit_length())},
         "bad_measurement", None, f"a Client sets max_weight + 1 = {m + 1} entries and reports weight "
         f"{m} (weight check fails)"),
        ("Prio3SumVec_dpspec_bad_helper_seed", "Prio3SumVec",
         {"shares": 3, "length": 10, "max_measurement": 1, "chunk_length": 3}, "bad_helper_seed",
         [1] * 10, "a Helper's seed altered in transit"),
        ("Prio3MultihotCountVec_dpspec_bad_public_share", "Prio3MultihotCountVec",
         {"shares": 2, "length": 10, "max_weight": 3, "chunk_length": 4}, "bad_public_share",
         [True, False, True] + [False] * 7, "a joint randomness part altered (joint randomness check "
         "fails)"),
        ("Prio3BoundedL2VecSum_dpspec_bad_measurement", "Prio3BoundedL2VecSum",
         {"shares": 2, "length": 5, "bits": 8, "norm_bound": 10000, "chunk_length": 3},
         "bad_measurement", [101, 0, 0, 0, 0], "NOT PART OF VDAF draft-20: a Client sends a vector "
         "of squared norm 10201 and reports 10000 (norm check fails)"),
        ("Prio3Histogram_dpspec_bad_gadget_poly", "Prio3Histogram",
         {"shares": 2, "length": 100, "chunk_length": 10}, "bad_gadget_poly", 7,
         "the last gadget polynomial value altered (gadget test fails)"),
    ]


def _own_inputs(stem: str, vdaf: AnyPrio3, count: int) -> tuple[bytes, list[bytes], list[bytes]]:
    """verify key, nonces and rands of an own file: ``vector_seed`` labels under the file stem."""
    verify_key = vector_seed(f"vdaf/{stem}/verify_key", vdaf.VERIFY_KEY_SIZE)
    nonces = [vector_seed(f"vdaf/{stem}/nonce/{i}", vdaf.NONCE_SIZE) for i in range(count)]
    rands = [vector_seed(f"vdaf/{stem}/rand/{i}", vdaf.RAND_SIZE) for i in range(count)]
    return verify_key, nonces, rands


OWN_CTX = b"dpspec vdaf vectors"


def _own_invalid_encoding(vdaf: AnyPrio3, name: str, spec: Any, params: dict[str, Any]) -> list[Field]:
    field = vdaf.field
    if name == "Prio3MultihotCountVec":
        m = params["max_weight"]
        ones = [field(1)] * (m + 1) + [field(0)] * (params["length"] - m - 1)
        weight = vdaf.flp.valid.encode([True] * m + [False] * (params["length"] - m))[params["length"]:]
        return ones + weight
    if name == "Prio3BoundedL2VecSum":
        bits = params["bits"]
        entries = [(x + (1 << (bits - 1))) >> j & 1 for x in spec for j in range(bits)]
        reported = vdaf.flp.valid.encode([0] * (params["length"] - 1) + [100])
        return [field(b) for b in entries] + reported[params["length"] * bits:]
    return [field(x % field.MODULUS) for x in spec]


INDEX_NOTES = [
    "Files in this folder follow the test-vector format of draft-irtf-cfrg-vdaf-20 (section 'Test "
    "Vectors'); schema vdaf_test_vector-v1.json. They are written in dpspec's canonical JSON form "
    "(indent 2, sorted keys); the draft's own files use indent 4, same content.",
    "The VDAF is named by the file-name prefix before the first '_'. Prio3SumVecWithMultiproof files "
    "use Field64 and 3 proofs, as the draft's do (the format does not record either).",
    "Inputs: ctx = ASCII 'dpspec vdaf vectors'; verify_key = vector_seed('vdaf/<stem>/verify_key', 32); "
    "the nonce and rand of report i are vector_seed('vdaf/<stem>/nonce/<i>', 16) and "
    "vector_seed('vdaf/<stem>/rand/<i>', RAND_SIZE), where vector_seed(label, n) = "
    "TurboSHAKE128(b'dpspec vector seed ' || label, D = 1, n bytes).",
    "Negative files (<VDAF>_..._bad_<what>): 'bad_measurement' is a malicious Client that shards an "
    "encoded measurement outside the circuit's language with an honestly computed proof; other kinds "
    "alter one part of an honest report as the draft's negative vectors do (an element of the Leader "
    "share + 1, the first bit of a seed, blind or joint randomness part flipped). Verification must "
    "fail at the operation with success: false.",
    "Prio3BoundedL2VecSum (codepoint 0xFFFF0100, private use) is NOT PART OF VDAF draft-20: an "
    "extension circuit of dpspec (dpspec.spec.flp.bounded_l2) for SA2's federated-learning path; its "
    "parameters are length, bits (signed entries in [-2^(bits-1), 2^(bits-1))), norm_bound (on the "
    "squared L2 norm) and chunk_length.",
    "MultihotCountVec max_weight for the client-randomization DP policy (sec. 6.1.1 of "
    "draft-wang-ppm-differential-privacy-00): the smallest m with Pr[1 + Binomial(d - 1, p0) <= m] >= "
    "1 - 1e-9, p0 = 1/(exp(EPSILON_0) + 1), EPSILON_0 from its Table 1 (5.0, 6.5, 7.0), computed with "
    "mpmath at 60 digits (dpspec.conformance.families.vdaf.rappor_max_weight). 1e-9 is the DELTA of that "
    "table; it bounds the probability that an honest Client's noisy report exceeds m.",
]


class VdafFamily(Family):
    name = "vdaf"
    summary = "Prio3 (VDAF draft-20) transcripts in the draft's own test-vector format"

    def handlers(self) -> dict[str, Handler]:
        return {"vdaf.prio3.transcript": op_transcript, "vdaf.prio3.verify": op_verify}

    def cases(self, path: str, doc: Any) -> list[Case]:
        if path == INDEX_PATH:
            return []
        return cases_of(path, doc)

    def files(self) -> list[VectorFile]:
        files: list[VectorFile] = []
        index: list[dict[str, Any]] = []
        for stem, name, params, measurements, purpose in own_sets():
            vdaf = make_vdaf(name, params)
            verify_key, nonces, rands = _own_inputs(stem, vdaf, len(measurements))
            run = run_vdaf(vdaf, verify_key, OWN_CTX, None, nonces, measurements, rands)
            files.append(VectorFile(f"vdaf/{stem}.json", transcript_doc(vdaf, params, run), FORMAT_SCHEMA))
            index.append({"file": f"{stem}.json", "vdaf": name, "params": params, "purpose": purpose,
                          "result": "valid"})
        for stem, name, params, kind, meas, purpose in own_negative_sets():
            vdaf = make_vdaf(name, params)
            verify_key, nonces, rands = _own_inputs(stem, vdaf, 1)
            if kind == "bad_measurement":
                doc = invalid_measurement_doc(vdaf, params, verify_key, OWN_CTX, nonces[0], rands[0],
                                              _own_invalid_encoding(vdaf, name, meas, params))
            else:
                doc = tampered_doc(vdaf, params, kind, verify_key, OWN_CTX, nonces[0], rands[0], meas)
            files.append(VectorFile(f"vdaf/{stem}.json", doc, FORMAT_SCHEMA))
            index.append({"file": f"{stem}.json", "vdaf": name, "params": params, "purpose": purpose,
                          "result": "invalid"})
        files.append(VectorFile(INDEX_PATH, {
            "format": "draft-irtf-cfrg-vdaf-20 test vectors (Prio3), wire version 18",
            "notes": INDEX_NOTES, "files": index}, INDEX_SCHEMA))
        return files

    def schemas(self) -> dict[str, dict[str, Any]]:
        return {FORMAT_SCHEMA: format_schema(), INDEX_SCHEMA: index_schema()}




def format_schema() -> dict[str, Any]:
    """JSON Schema (2020-12) of the draft-20 test-vector format for Prio3."""
    measurement: dict[str, Any] = {"anyOf": [
        {"type": "null"}, {"type": "integer", "minimum": 0},
        {"type": "array", "items": {"type": "integer", "minimum": 0}},
        {"type": "array", "items": {"type": "boolean"}}]}
    agg_result: dict[str, Any] = {"anyOf": [
        {"type": "null"}, {"type": "integer", "minimum": 0},
        {"type": "array", "items": {"type": "integer", "minimum": 0}}]}
    # dpspec's Prio3BoundedL2VecSum (not in draft-20; files with norm_bound) has signed entries
    signed: dict[str, Any] = {"anyOf": [{"type": "null"},
                                        {"type": "array", "items": {"type": "integer"}}]}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID_PREFIX + FORMAT_SCHEMA,
        "title": "Prio3 test vector of draft-irtf-cfrg-vdaf-20 (section 'Test Vectors')",
        "type": "object",
        "additionalProperties": False,
        "required": ["shares", "verify_key", "ctx", "agg_param", "operations", "reports", "agg_shares",
                     "agg_result"],
        "properties": {
            "shares": {"type": "integer", "minimum": 2, "maximum": 255},
            "verify_key": {**HEX, "minLength": 64, "maxLength": 64},
            "ctx": HEX,
            "agg_param": {"const": ""},
            "max_measurement": {"type": "integer", "minimum": 1},
            "length": {"type": "integer", "minimum": 1},
            "chunk_length": {"type": "integer", "minimum": 1},
            "max_weight": {"type": "integer", "minimum": 1},
            "bits": {"type": "integer", "minimum": 2},
            "norm_bound": {"type": "integer", "minimum": 1},
            "operations": {"type": "array", "items": {
                "type": "object", "additionalProperties": False, "required": ["operation", "success"],
                "properties": {
                    "operation": {"enum": ["shard", "verify_init", "verifier_shares_to_message",
                                           "verify_next", "aggregate", "unshard"]},
                    "round": COUNT, "aggregator_id": COUNT, "report_index": COUNT,
                    "success": {"type": "boolean"}}}},
            "reports": {"type": "array", "items": {
                "type": "object", "additionalProperties": False,
                "required": ["measurement", "nonce", "rand", "public_share", "input_shares",
                             "verifier_shares", "verifier_messages", "out_shares"],
                "properties": {
                    "measurement": {"anyOf": [measurement, signed]},
                    "nonce": {**HEX, "minLength": 32, "maxLength": 32},
                    "rand": HEX,
                    "public_share": HEX,
                    "input_shares": {"type": "array", "items": HEX},
                    "verifier_shares": {"type": "array", "items": {"type": "array", "items": HEX}},
                    "verifier_messages": {"type": "array", "items": HEX},
                    "out_shares": {"type": "array", "items": HEX}}}},
            "agg_shares": {"type": "array", "items": HEX},
            "agg_result": {"anyOf": [agg_result, signed]},
        },
        "if": {"not": {"required": ["norm_bound"]}},
        "then": {"properties": {"agg_result": agg_result, "reports": {"items": {
            "properties": {"measurement": measurement}}}}},
    }


def index_schema() -> dict[str, Any]:
    """JSON Schema of ``vdaf/INDEX.json``."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID_PREFIX + INDEX_SCHEMA,
        "title": "Index of the dpspec Prio3 vector files",
        "type": "object",
        "additionalProperties": False,
        "required": ["format", "notes", "files"],
        "properties": {
            "format": {"type": "string"},
            "notes": {"type": "array", "items": {"type": "string"}},
            "files": {"type": "array", "items": {
                "type": "object", "additionalProperties": False,
                "required": ["file", "vdaf", "params", "purpose", "result"],
                "properties": {"file": {"type": "string"}, "vdaf": {"enum": list(TYPE_PARAMS)},
                               "params": {"type": "object"}, "purpose": {"type": "string"},
                               "result": {"enum": ["valid", "invalid"]}}}},
        },
    }


FAMILY = VdafFamily()
