"""Execution of a VDAF (sec. 5.6 of the VDAF draft, draft-irtf-cfrg-vdaf-20), keeping every
intermediate message.

``run_vdaf`` is the draft's ``run_vdaf`` with its randomness made an argument: the caller gives
each report's nonce and sharding randomness (the draft draws them with ``gen_rand``). Every
message crosses the wire in encoded form, exactly as between real parties: each step decodes
what the previous step encoded, so the codecs are exercised too. The transcript records the
encoded messages (the content of the draft's test vectors, sec. "Test Vectors") plus the output
and aggregate shares as field vectors and the aggregate result.

Verification failure raises :class:`dpspec.spec.vdaf.VerifyError`; ``run_vdaf`` does not drop
reports (the caller decides what a failed report means for its batch).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from dpspec.spec.vdaf.prio3 import Prio3


@dataclass
class ReportTranscript:
    """Everything one report produces, messages encoded as bytes (sec. 5.6)."""

    measurement: Any
    nonce: bytes
    rand: bytes
    public_share: bytes
    input_shares: list[bytes]
    verifier_shares: list[list[bytes]]  # [round][agg_id]
    verifier_messages: list[bytes]  # [round]
    out_shares: list[list[Any]]  # [agg_id], field vectors


@dataclass
class VdafTranscript:
    """The run of a batch: per-report transcripts, aggregate shares and the aggregate result."""

    verify_key: bytes
    ctx: bytes
    agg_param: Any
    reports: list[ReportTranscript] = field(default_factory=list)
    agg_shares: list[list[Any]] = field(default_factory=list)
    agg_result: Any = None


def run_report(vdaf: Prio3[Any, Any, Any], verify_key: bytes, ctx: bytes, agg_param: Any,
               nonce: bytes, measurement: Any, rand: bytes) -> ReportTranscript:
    """Shard one measurement and verify it through to the output shares (sec. 5.6)."""
    public_share, input_shares = vdaf.shard(ctx, measurement, nonce, rand)
    report = ReportTranscript(
        measurement=measurement, nonce=nonce, rand=rand,
        public_share=vdaf.encode_public_share(public_share),
        input_shares=[vdaf.encode_input_share(s) for s in input_shares],
        verifier_shares=[], verifier_messages=[], out_shares=[])
    received_public = vdaf.decode_public_share(report.public_share)
    states = []
    outbound = []
    for j in range(vdaf.SHARES):
        received_input = vdaf.decode_input_share(j, report.input_shares[j])
        state, share = vdaf.verify_init(verify_key, ctx, j, agg_param, nonce, received_public,
                                        received_input)
        states.append(state)
        outbound.append(vdaf.encode_verifier_share(share))
    report.verifier_shares.append(outbound)
    # Prio3 has one round (ROUNDS = 1): the verifier message leads straight to the output shares.
    message = vdaf.verifier_shares_to_message(
        ctx, agg_param, [vdaf.decode_verifier_share(states[j], outbound[j]) for j in range(vdaf.SHARES)])
    report.verifier_messages.append(vdaf.encode_verifier_message(message))
    for j in range(vdaf.SHARES):
        received = vdaf.decode_verifier_message(states[j], report.verifier_messages[-1])
        report.out_shares.append(vdaf.verify_next(ctx, states[j], received))
    return report


def run_vdaf(vdaf: Prio3[Any, Any, Any], verify_key: bytes, ctx: bytes, agg_param: Any,
             nonces: Sequence[bytes], measurements: Sequence[Any],
             rands: Sequence[bytes]) -> VdafTranscript:
    """Run the whole VDAF on a batch (sec. 5.6): shard, verify, aggregate, unshard.

    ``nonces[i]`` and ``rands[i]`` are the nonce (``NONCE_SIZE`` bytes) and sharding randomness
    (``RAND_SIZE`` bytes) of ``measurements[i]``; production callers draw both from a CSPRNG.
    """
    if not len(nonces) == len(measurements) == len(rands):
        raise ValueError("run_vdaf: nonces, measurements and rands must have the same length")
    out = VdafTranscript(verify_key=verify_key, ctx=ctx, agg_param=agg_param)
    agg_shares = [vdaf.agg_init(agg_param) for _ in range(vdaf.SHARES)]
    for nonce, measurement, rand in zip(nonces, measurements, rands, strict=True):
        report = run_report(vdaf, verify_key, ctx, agg_param, nonce, measurement, rand)
        out.reports.append(report)
        for j in range(vdaf.SHARES):
            agg_shares[j] = vdaf.agg_update(agg_param, agg_shares[j], report.out_shares[j])
    out.agg_shares = agg_shares
    received = [vdaf.decode_agg_share(agg_param, vdaf.encode_agg_share(s)) for s in agg_shares]
    out.agg_result = vdaf.unshard(agg_param, received, len(measurements))
    return out
