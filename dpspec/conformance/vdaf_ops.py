"""The reference side of the step-by-step VDAF ops (``vdaf.shard`` ... ``vdaf.unshard``).

These ops let the harness drive any Prio3 implementation through the official VDAF vectors one
operation at a time (see :mod:`dpspec.conformance.harness.vdaf_official` for the arguments and results,
and ``dpspec/conformance/PROTOCOL.md``). The reference answers them with :mod:`dpspec.spec.vdaf.prio3`
(VDAF draft-20), imported on first use so this module loads even where Prio3 is absent; requests
for another draft, or made before Prio3 exists, are answered ``unsupported``.

``state`` (returned by ``vdaf.verify_init``, sent back in ``vdaf.verify_next``) is Prio3's verify
state made explicit: ``{"out_share": hex, "joint_rand_seed": hex | null}``. The reference is thus
stateless between requests; other adapters may use any JSON value, for example a handle.
"""

from __future__ import annotations

import functools
import importlib
import json
from typing import Any

from dpspec.conformance.adapters.protocol import Handler, Unsupported
from dpspec.conformance.jsonargs import hex_arg, hex_list_arg, int_arg, json_int_arg

SUPPORTED_DRAFT = 20


def _prio3() -> Any:
    try:
        return importlib.import_module("dpspec.spec.vdaf.prio3")
    except ImportError as exc:
        raise Unsupported(f"the reference has no Prio3 here ({exc})") from None


@functools.lru_cache(maxsize=64)
def _build(key: str) -> Any:
    desc = json.loads(key)
    p = _prio3()
    shares = int_arg(desc, "shares")
    vtype = desc.get("type")
    if vtype == "Prio3Count":
        return p.Prio3Count(shares)
    if vtype == "Prio3Sum":
        return p.Prio3Sum(shares, int_arg(desc, "max_measurement"))
    if vtype == "Prio3SumVec":
        return p.Prio3SumVec(shares, int_arg(desc, "length"), int_arg(desc, "max_measurement"),
                             int_arg(desc, "chunk_length"))
    if vtype == "Prio3Histogram":
        return p.Prio3Histogram(shares, int_arg(desc, "length"), int_arg(desc, "chunk_length"))
    if vtype == "Prio3MultihotCountVec":
        return p.Prio3MultihotCountVec(shares, int_arg(desc, "length"), int_arg(desc, "max_weight"),
                                       int_arg(desc, "chunk_length"))
    if vtype == "Prio3SumVecWithMultiproof":
        from dpspec.spec.field import FIELDS

        field = FIELDS.get(str(desc.get("field")))
        if field is None:
            raise ValueError(f"unknown field {desc.get('field')!r}")
        return p.Prio3SumVecWithMultiproof(shares, field, int_arg(desc, "num_proofs"),
                                           int_arg(desc, "length"), int_arg(desc, "max_measurement"),
                                           int_arg(desc, "chunk_length"))
    if vtype == "Prio3HigherDegree":
        return p.Prio3HigherDegree(shares)
    if vtype == "Prio3BoundedL2VecSum":  # dpspec's extension, not part of VDAF draft-20
        from dpspec.spec.vdaf.bounded_l2 import Prio3BoundedL2VecSum

        return Prio3BoundedL2VecSum(shares, int_arg(desc, "length"), int_arg(desc, "bits"),
                                    int_arg(desc, "norm_bound"), int_arg(desc, "chunk_length"))
    raise Unsupported(f"unknown VDAF type {vtype!r}")


def instance(args: dict[str, Any]) -> Any:
    """The Prio3 instance an op's ``vdaf`` argument describes."""
    desc = args.get("vdaf")
    if not isinstance(desc, dict):
        raise ValueError("vdaf must be an object")
    if desc.get("draft") != SUPPORTED_DRAFT:
        raise Unsupported(f"the reference implements VDAF draft-{SUPPORTED_DRAFT} only")
    return _build(json.dumps(desc, sort_keys=True))


def _ctx(args: dict[str, Any]) -> bytes:
    return hex_arg(args, "ctx")


def _agg_param(vdaf: Any, args: dict[str, Any]) -> Any:
    return vdaf.decode_agg_param(hex_arg(args, "agg_param")) if "agg_param" in args else None


def _measurement(vdaf: Any, value: Any) -> Any:
    if type(vdaf).__name__ == "Prio3MultihotCountVec" and isinstance(value, list):
        return [bool(v) for v in value]
    return value


def op_shard(args: dict[str, Any]) -> dict[str, Any]:
    vdaf = instance(args)
    public_share, input_shares = vdaf.shard(_ctx(args), _measurement(vdaf, args["measurement"]),
                                            hex_arg(args, "nonce"), hex_arg(args, "rand"))
    return {"public_share": vdaf.encode_public_share(public_share).hex(),
            "input_shares": [vdaf.encode_input_share(s).hex() for s in input_shares]}


def op_verify_init(args: dict[str, Any]) -> dict[str, Any]:
    vdaf = instance(args)
    agg_id = json_int_arg(args, "aggregator_id")
    public_share = vdaf.decode_public_share(hex_arg(args, "public_share"))
    input_share = vdaf.decode_input_share(agg_id, hex_arg(args, "input_share"))
    (out_share, seed), verifier_share = vdaf.verify_init(
        hex_arg(args, "verify_key"), _ctx(args), agg_id, _agg_param(vdaf, args), hex_arg(args, "nonce"),
        public_share, input_share)
    return {"state": {"out_share": vdaf.encode_out_share(out_share).hex(),
                      "joint_rand_seed": seed.hex() if seed is not None else None},
            "verifier_share": vdaf.encode_verifier_share(verifier_share).hex()}


def op_verifier_shares_to_message(args: dict[str, Any]) -> dict[str, Any]:
    vdaf = instance(args)
    shares = [vdaf.decode_verifier_share(None, s) for s in hex_list_arg(args, "verifier_shares")]
    message = vdaf.verifier_shares_to_message(_ctx(args), _agg_param(vdaf, args), shares)
    return {"verifier_message": vdaf.encode_verifier_message(message).hex()}


def op_verify_next(args: dict[str, Any]) -> dict[str, Any]:
    vdaf = instance(args)
    state = args["state"]
    if not isinstance(state, dict):
        raise ValueError("state must be the object vdaf.verify_init returned")
    out_share = vdaf.decode_out_share(hex_arg(state, "out_share"))
    seed = state.get("joint_rand_seed")
    verify_state = (out_share, bytes.fromhex(seed) if isinstance(seed, str) else None)
    message = vdaf.decode_verifier_message(verify_state, hex_arg(args, "verifier_message"))
    result = vdaf.verify_next(_ctx(args), verify_state, message)
    return {"out_share": vdaf.encode_out_share(result).hex()}


def op_aggregate(args: dict[str, Any]) -> dict[str, Any]:
    vdaf = instance(args)
    agg_param = _agg_param(vdaf, args)
    agg_share = vdaf.agg_init(agg_param)
    for s in hex_list_arg(args, "out_shares"):
        agg_share = vdaf.agg_update(agg_param, agg_share, vdaf.decode_out_share(s))
    return {"agg_share": vdaf.encode_agg_share(agg_share).hex()}


def op_unshard(args: dict[str, Any]) -> dict[str, Any]:
    vdaf = instance(args)
    agg_param = _agg_param(vdaf, args)
    shares = [vdaf.decode_agg_share(agg_param, s) for s in hex_list_arg(args, "agg_shares")]
    num = json_int_arg(args, "num_measurements")
    return {"agg_result": vdaf.unshard(agg_param, shares, num)}


def handlers() -> dict[str, Handler]:
    """The step-by-step VDAF ops, for the reference adapter."""
    return {
        "vdaf.shard": op_shard,
        "vdaf.verify_init": op_verify_init,
        "vdaf.verifier_shares_to_message": op_verifier_shares_to_message,
        "vdaf.verify_next": op_verify_next,
        "vdaf.aggregate": op_aggregate,
        "vdaf.unshard": op_unshard,
    }
