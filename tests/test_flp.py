"""The FLP of sec. 7.3 (dpspec.spec.flp): gadgets, circuits, prove / query / decide."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpspec.spec.field import Field, Field64, Field128, vec_add, vec_sub
from dpspec.spec.flp import poly
from dpspec.spec.flp.bbcggi19 import FlpBBCGGI19, ProveGadget
from dpspec.spec.flp.gadgets import Mul, ParallelSum, PolyEval, gadget_poly_len, wire_poly_len
from dpspec.spec.flp.valid import (
    Count,
    HigherDegree,
    Histogram,
    MultihotCountVec,
    Sum,
    SumVec,
    decode_range_checked_int,
    encode_range_checked_int,
)


def rand_vec(rng: random.Random, field: type[Field], n: int) -> list[Any]:
    return [field(rng.randrange(field.MODULUS)) for _ in range(n)]


def share(rng: random.Random, field: type[Field], vec: list[Any], n: int) -> list[list[Any]]:
    shares = [rand_vec(rng, field, len(vec)) for _ in range(n - 1)]
    last = vec
    for s in shares:
        last = vec_sub(last, s)
    return [*shares, last]


def run_flp(flp: FlpBBCGGI19[Any, Any, Any], meas: list[Any], num_shares: int, seed: int) -> bool:
    """Sec. 7.1's run_flp with a seeded generator: prove, share, query each share, decide."""
    rng = random.Random(seed)
    field = flp.field
    joint_rand = rand_vec(rng, field, flp.JOINT_RAND_LEN)
    prove_rand = rand_vec(rng, field, flp.PROVE_RAND_LEN)
    query_rand = rand_vec(rng, field, flp.QUERY_RAND_LEN)
    proof = flp.prove(meas, prove_rand, joint_rand)
    assert len(proof) == flp.PROOF_LEN
    verifier = field.zeros(flp.VERIFIER_LEN)
    for m, pr in zip(share(rng, field, meas, num_shares), share(rng, field, proof, num_shares),
                     strict=True):
        verifier = vec_add(verifier, flp.query(m, pr, query_rand, joint_rand, num_shares))
    return flp.decide(verifier)


CIRCUITS = [
    ("Count", Count(Field64), [0, 1]),
    ("Sum", Sum(Field64, 1337), [0, 1, 1000, 1337]),
    ("SumVec", SumVec(Field128, 5, 7, 3), [[0, 1, 2, 3, 7], [7] * 5]),
    ("Histogram", Histogram(Field128, 11, 3), [0, 5, 10]),
    ("MultihotCountVec", MultihotCountVec(Field128, 9, 4, 2),
     [[False] * 9, [True] * 4 + [False] * 5, [True, False] * 4 + [True]][:2]),
    ("HigherDegree", HigherDegree(), [0, 1, 2]),
]


@pytest.mark.parametrize(("name", "valid", "measurements"), CIRCUITS, ids=[c[0] for c in CIRCUITS])
@pytest.mark.parametrize("num_shares", [1, 2, 3])
def test_valid_measurements_are_accepted(name: str, valid: Any, measurements: list[Any],
                                         num_shares: int) -> None:
    flp = FlpBBCGGI19(valid)
    for i, m in enumerate(measurements):
        meas = flp.encode(m)
        joint_rand = [valid.field(5)] * valid.JOINT_RAND_LEN
        assert valid.eval(meas, joint_rand, 1) == [valid.field(0)] * valid.EVAL_OUTPUT_LEN
        assert run_flp(flp, meas, num_shares, seed=i)


INVALID = [
    ("Count", Count(Field64), [[2], [Field64.MODULUS - 1]]),
    ("Sum", Sum(Field64, 5), [[2, 0, 0], [1, 1, 3]]),
    ("SumVec", SumVec(Field128, 2, 3, 3), [[2, 0, 0, 0], [0, 0, 0, Field128.MODULUS - 1]]),
    ("Histogram", Histogram(Field128, 5, 2),
     [[1, 1, 0, 0, 0], [0, 0, 0, 0, 0], [2, Field128.MODULUS - 1, 0, 0, 0]]),
    ("MultihotCountVec", MultihotCountVec(Field128, 4, 2, 3), [[1, 1, 1, 0, 0, 1], [1, 0, 0, 0, 0, 0]]),
    ("HigherDegree", HigherDegree(), [[3]]),
]


@pytest.mark.parametrize(("name", "valid", "encodings"), INVALID, ids=[c[0] for c in INVALID])
def test_invalid_encodings_are_rejected(name: str, valid: Any, encodings: list[list[int]]) -> None:
    """Soundness error per run is at most about (gadget calls * degree + outputs) / |F| < 2**-50."""
    flp = FlpBBCGGI19(valid)
    for i, enc in enumerate(encodings):
        meas = [valid.field(x) for x in enc]
        assert not run_flp(flp, meas, 2, seed=100 + i)


@pytest.mark.parametrize("field", [Field64, Field128])
@given(st.data())
@settings(max_examples=20)
def test_range_checked_int_round_trip(field: type[Field], data: st.DataObject) -> None:
    max_measurement = data.draw(st.integers(1, 2**40))
    value = data.draw(st.integers(0, max_measurement))
    enc = encode_range_checked_int(field, value, max_measurement)
    assert len(enc) == max_measurement.bit_length()
    assert all(x.int() in (0, 1) for x in enc)
    assert decode_range_checked_int(field, enc, max_measurement) == field(value)


def test_range_checked_int_rejects() -> None:
    with pytest.raises(ValueError, match="outside"):
        encode_range_checked_int(Field64, 6, 5)
    with pytest.raises(ValueError, match="outside"):
        encode_range_checked_int(Field64, -1, 5)
    with pytest.raises(ValueError, match="integer"):
        encode_range_checked_int(Field64, 1.0, 5)  # type: ignore[arg-type]


GADGETS: dict[str, Callable[[int], Any]] = {
    "Mul": lambda calls: Mul(),
    "Range2": lambda calls: PolyEval([0, -1, 1], calls),
    "Range3": lambda calls: PolyEval([0, 2, -3, 1], calls),
    "ParallelSum": lambda calls: ParallelSum(Mul(), 3),
}


@pytest.mark.parametrize("name", sorted(GADGETS))
@pytest.mark.parametrize("calls", [1, 3, 7])
def test_gadget_polynomial_interpolates_the_calls(name: str, calls: int) -> None:
    """G(alpha**k) = gadget(call k inputs), deg G <= DEGREE * (m - 1): the proof's invariant."""
    gadget = GADGETS[name](calls)
    rng = random.Random(calls)
    field = Field128
    m = wire_poly_len(calls)
    shim = ProveGadget(field, rand_vec(rng, field, gadget.ARITY), gadget, calls)
    outputs = [shim.eval(field, rand_vec(rng, field, gadget.ARITY)) for _ in range(calls)]
    g = shim.eval_poly(field, shim.wires)
    size = len(g)
    assert size == 1 << (gadget_poly_len(gadget.DEGREE, m) - 1).bit_length()
    for k in range(1, calls + 1):
        assert g[k * size // m] == outputs[k - 1].int()
    coeffs = poly.inv_ntt(field, g, size)
    assert all(c == 0 for c in coeffs[gadget_poly_len(gadget.DEGREE, m):])


def test_gadget_eval() -> None:
    f = Field64
    assert Mul().eval(f, [f(3), f(4)]) == f(12)
    assert PolyEval([0, 2, -3, 1], 1).eval(f, [f(3)]) == f(6)
    assert PolyEval([1, 0, 0], 1).DEGREE == 0
    assert ParallelSum(Mul(), 2).eval(f, [f(1), f(2), f(3), f(4)]) == f(14)
    with pytest.raises(ValueError):
        PolyEval([0, 0], 1)


def test_flp_parameters_match_the_draft() -> None:
    """Lengths of the draft's Prio3Histogram(length 4, chunk 2) and Prio3Count (proof and verifier)."""
    flp = FlpBBCGGI19(Histogram(Field128, 4, 2))
    # 2 calls -> wire poly length 4; ParallelSum(Mul, 2): arity 4, degree 2
    assert (flp.PROOF_LEN, flp.VERIFIER_LEN, flp.QUERY_RAND_LEN, flp.JOINT_RAND_LEN) == (4 + 7, 6, 3, 2)
    count = FlpBBCGGI19(Count(Field64))
    assert (count.PROOF_LEN, count.VERIFIER_LEN, count.PROVE_RAND_LEN) == (2 + 3, 4, 2)


def test_constructor_checks() -> None:
    with pytest.raises(ValueError):
        MultihotCountVec(Field128, 4, 5, 2)
    with pytest.raises(ValueError):
        Histogram(Field128, 0, 1)
    with pytest.raises(ValueError):
        SumVec(Field128, 3, 0, 1)
    with pytest.raises(ValueError):
        Sum(Field64, 0)


@given(st.lists(st.integers(0, Field128.MODULUS - 1), min_size=8, max_size=8))
def test_parallel_sum_of_mul_fast_path_matches_the_definition(values: list[int]) -> None:
    gadget = ParallelSum(Mul(), 4)
    inp = [Field128(v) for v in values]
    assert gadget.eval(Field128, inp) == gadget.eval_generic(Field128, inp)
    other = ParallelSum(PolyEval([0, -1, 1], 1), 8)
    assert other.eval(Field128, inp) == other.eval_generic(Field128, inp)


def test_query_refuses_a_root_of_unity_as_test_point() -> None:
    from dpspec.spec.flp.bbcggi19 import TestPointError

    flp = FlpBBCGGI19(Count(Field64))
    rng = random.Random(5)
    meas = flp.encode(1)
    proof = flp.prove(meas, rand_vec(rng, Field64, flp.PROVE_RAND_LEN), [])
    root = Field64.nth_root(2)  # Count: one call, wire polynomials of length 2
    with pytest.raises(TestPointError):
        flp.query(meas, proof, [root], [], 1)


@given(st.integers(1, 2**70), st.lists(st.integers(0, Field128.MODULUS - 1), min_size=71, max_size=71))
def test_decode_range_checked_int_is_the_weighted_sum(max_measurement: int, values: list[int]) -> None:
    """The int form against the field-element form of sec. 7.4.2, on arbitrary shares."""
    f = Field128
    bits = max_measurement.bit_length()
    enc = [f(v) for v in values[:bits]]
    want = f(0)
    for i, b in enumerate(enc[: bits - 1]):
        want += f(1 << i) * b
    want += f(max_measurement - (2 ** (bits - 1) - 1)) * enc[bits - 1]
    assert decode_range_checked_int(f, enc, max_measurement) == want


@given(st.data())
@settings(max_examples=20)
def test_parallel_range_check_matches_the_drafts_form(data: st.DataObject) -> None:
    """The int inner loop of parallel_range_check against the draft's element-wise loop."""
    from dpspec.spec.flp.valid import parallel_range_check

    f = Field128
    length = data.draw(st.integers(1, 12))
    chunk = data.draw(st.integers(1, 5))
    num_shares = data.draw(st.integers(1, 4))
    valid = Histogram(f, length, chunk)
    calls = valid.GADGET_CALLS[0]
    elems = st.integers(0, f.MODULUS - 1).map(f)
    meas = data.draw(st.lists(elems, min_size=length, max_size=length))
    joint_rand = data.draw(st.lists(elems, min_size=calls, max_size=calls))
    gadget = valid.GADGETS[0]
    shares_inv = f(num_shares).inv()
    want = f(0)
    for i in range(calls):
        r_power = joint_rand[i]
        inputs = []
        for j in range(chunk):
            index = i * chunk + j
            x = meas[index] if index < length else f(0)
            inputs += [r_power * x, x - shares_inv]
            r_power *= joint_rand[i]
        want += gadget.eval(f, inputs)
    assert parallel_range_check(valid, gadget, calls, chunk, meas, joint_rand, num_shares) == want
