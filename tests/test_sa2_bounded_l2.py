"""The bounded-L2 extension circuit (dpspec.spec.flp.bounded_l2) and Prio3BoundedL2VecSum
(dpspec.spec.vdaf.bounded_l2; private-use codepoint, not part of VDAF draft-20)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpspec.spec.field import Field64, Field128, vec_add, vec_sub
from dpspec.spec.flp.bbcggi19 import FlpBBCGGI19
from dpspec.spec.flp.bounded_l2 import BoundedL2VecSum
from dpspec.spec.vdaf import VerifyError
from dpspec.spec.vdaf.bounded_l2 import Prio3BoundedL2VecSum
from dpspec.spec.vdaf.run import run_vdaf

RNG = random.Random(20261122)  # test inputs only (not a sampling path)


def rand_vec(field: Any, n: int) -> list[Any]:
    return [field(RNG.randrange(field.MODULUS)) for _ in range(n)]


def flp_accepts(flp: FlpBBCGGI19[Any, Any, Any], meas: list[Any], shares: int = 2) -> bool:
    """Prove, split the measurement and the proof into additive shares, query each, decide."""
    field = flp.field
    prove_rand = rand_vec(field, flp.PROVE_RAND_LEN)
    joint_rand = rand_vec(field, flp.JOINT_RAND_LEN)
    query_rand = rand_vec(field, flp.QUERY_RAND_LEN)
    proof = flp.prove(meas, prove_rand, joint_rand)
    meas_shares = [rand_vec(field, len(meas)) for _ in range(shares - 1)]
    proof_shares = [rand_vec(field, len(proof)) for _ in range(shares - 1)]
    last_m, last_p = meas, proof
    for m, p in zip(meas_shares, proof_shares, strict=True):
        last_m, last_p = vec_sub(last_m, m), vec_sub(last_p, p)
    meas_shares.append(last_m)
    proof_shares.append(last_p)
    verifier = [field(0)] * flp.VERIFIER_LEN
    for m, p in zip(meas_shares, proof_shares, strict=True):
        verifier = vec_add(verifier, flp.query(m, p, query_rand, joint_rand, shares))
    return flp.decide(verifier)


@settings(max_examples=30, deadline=None)
@given(data=st.data(), length=st.integers(1, 6), bits=st.integers(2, 6),
       chunk=st.integers(1, 4))
def test_circuit_is_zero_exactly_on_valid_vectors(data: st.DataObject, length: int, bits: int,
                                                  chunk: int) -> None:
    half = 1 << (bits - 1)
    vec = data.draw(st.lists(st.integers(-half, half - 1), min_size=length, max_size=length))
    norm = sum(x * x for x in vec)
    bound = data.draw(st.integers(max(norm, 1), length * half * half))
    valid = BoundedL2VecSum(Field128, length, bits, bound, chunk)
    enc = valid.encode(vec)
    jr = rand_vec(Field128, valid.JOINT_RAND_LEN)
    assert valid.eval(enc, jr, 1) == [Field128(0), Field128(0)]
    assert valid.decode(valid.truncate(enc), 1) == vec
    # a reported norm that is not the norm is caught by the second output
    if norm + 1 <= bound:
        from dpspec.spec.flp.valid import encode_range_checked_int
        bad = enc[: length * bits] + encode_range_checked_int(Field128, norm + 1, bound)
        assert valid.eval(bad, jr, 1)[1] != Field128(0)


def test_encode_refuses_over_norm_and_out_of_range() -> None:
    valid = BoundedL2VecSum(Field128, 3, 4, 50, 2)
    valid.encode([5, 5, 0])
    with pytest.raises(ValueError, match="exceeds norm_bound"):
        valid.encode([5, 5, 1])
    with pytest.raises(ValueError):
        valid.encode([8, 0, 0])  # outside [-8, 8)
    with pytest.raises(ValueError):
        valid.encode([1, 2])
    with pytest.raises(ValueError, match="below the field modulus"):
        BoundedL2VecSum(Field64, 4, 33, 10, 1)


def test_flp_proves_valid_and_rejects_an_over_norm_vector() -> None:
    """A malicious client encodes a vector of norm 72 > 50 but reports 50 (the largest value the
    range-checked encoding can hold): every entry is a bit, yet the FLP rejects it."""
    valid = BoundedL2VecSum(Field128, 3, 4, 50, 2)
    flp = FlpBBCGGI19(valid)
    assert flp_accepts(flp, valid.encode([5, -5, 0]))
    honest = valid.encode([5, 5, 0])
    wide = BoundedL2VecSum(Field128, 3, 4, 192, 2)
    over = wide.encode([6, 6, 0])[:12] + honest[12:]  # entries 6, 6 (norm 72), reported 50
    assert not flp_accepts(flp, over)
    nonbit = list(honest)
    nonbit[0] = Field128(2)
    assert not flp_accepts(flp, nonbit)


def test_prio3_end_to_end_and_the_aggregators_refuse_an_over_norm_report() -> None:
    vdaf = Prio3BoundedL2VecSum(2, 4, 6, 300, 3)
    assert vdaf.ID == 0xFFFF0100
    meas = [[10, -3, 7, 0], [-16, 2, 2, -5], [0, 0, 0, 17]]
    nonces = [bytes([i]) * vdaf.NONCE_SIZE for i in range(3)]
    rands = [bytes([i + 7]) * vdaf.RAND_SIZE for i in range(3)]
    ctx, key = b"dpspec test", bytes(range(vdaf.VERIFY_KEY_SIZE))
    t = run_vdaf(vdaf, key, ctx, None, nonces, meas, rands)
    assert t.agg_result == [sum(col) for col in zip(*meas, strict=True)]
    # a malicious client shards an over-norm encoding directly
    enc = vdaf.flp.valid.encode([17, 0, 0, 0])  # norm 289 <= 300
    u = 31 + 32  # entry 31 (norm 961 > 300), offset by 2**(bits - 1)
    enc[:6] = [Field128((u >> j) & 1) for j in range(6)]
    public, shares = vdaf.shard_encoded(ctx, enc, nonces[0], rands[0])
    states = [vdaf.verify_init(key, ctx, j, None, nonces[0], public, shares[j]) for j in range(2)]
    with pytest.raises(VerifyError):
        vdaf.verifier_shares_to_message(ctx, None, [s[1] for s in states])
