"""The sa2-population-edges vector family: its cases sit on the boundaries they claim (a block cut
at its maximum that ends on a rejected candidate, a trial chain ending on its block's last
position, a long second trial, rows whose coins overflow, both sides of the release's
subtraction route, an audit larger than the participants), the values agree with the scalar
samplers where that is cheap, the compare is exact and invalid cases are refused."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest

from dpspec.conformance.families._groups import recorded_calls
from dpspec.conformance.families.sa2_population_edges import FAMILY, HANDLERS
from dpspec.spec.sa2 import population
from dpspec.spec.sa2.ideal import Sa2Error, exact
from dpspec.spec.sa2.randomizers import Randomizer
from dpspec.spec.samplers import bernoulli
from dpspec.spec.tape import RandomTape, tape_dst
from dpspec.spec.xof import XofTurboShake128
from tests.family_cases import find_case, generated_cases

CASES = generated_cases(FAMILY)
OP = "sa2pope."


def _stream_bits(seed_hex: str, tag: str, n: int) -> list[int]:
    raw = XofTurboShake128(bytes.fromhex(seed_hex), tape_dst(tag), b"").next((n + 7) // 8)
    return [int(b) for b in np.unpackbits(np.frombuffer(raw, np.uint8), bitorder="little")[:n]]


def _candidates(seed: bytes, tag: str, k: int, count: int) -> Any:
    """The first ``count`` ``k``-bit candidates of a stream (first bit least significant)."""
    bits = np.asarray(_stream_bits(seed.hex(), tag, count * k), dtype=np.int64)
    return bits.reshape(count, k) @ (np.int64(1) << np.arange(k, dtype=np.int64))


def test_every_op_has_valid_cases_and_invalid_ones_are_refused() -> None:
    assert {c.op for c in CASES} == set(HANDLERS)
    invalid = [c for c in CASES if c.result == "invalid"]
    assert {c.op for c in invalid} == {OP + "bitstream", OP + "randomize", OP + "release"}
    for c in invalid:
        with pytest.raises(ValueError):
            HANDLERS[c.op](dict(c.args))


def test_compare_is_exact() -> None:
    case = find_case(CASES, OP + "bitstream", "ends on a rejected candidate")
    assert case.expected is not None
    assert FAMILY.compare(case, copy.deepcopy(case.expected)) is None
    changed = copy.deepcopy(case.expected)
    changed["bitsConsumed"] += 2
    assert FAMILY.compare(case, changed) is not None
    verdict = find_case(CASES, OP + "audit_verdict", "the sums differ")
    assert verdict.expected == {"agrees": False}
    assert FAMILY.compare(verdict, {"agrees": True}) is not None


def test_the_block_tie_ends_on_a_rejected_candidate() -> None:
    block = population.BLOCK
    for phrase, extra in (("ends on a rejected candidate", 0), ("one draw more", 1)):
        case = find_case(CASES, OP + "bitstream", phrase)
        assert case.expected is not None
        draw = case.args["draws"][0]
        values = _candidates(bytes.fromhex(case.args["seed"]), case.args["tag"], 2, block)
        accepted = np.flatnonzero(values < 3)
        assert int(values[-1]) == 3 and draw["count"] == accepted.size + extra
        # more draws than fit in 1.05 times the expected candidates: the block is cut at 2^22
        assert draw["count"] * 4 / 3 * 1.05 + 64 > block
        if extra == 0:
            consumed = 2 * (int(accepted[-1]) + 1)
            assert case.expected["values"][0]["count"] == draw["count"]
            assert case.expected["bitsConsumed"] - consumed in range(15, 100)  # then 5 uniform(5)
            assert consumed < 2 * block


def test_the_trim_cases_read_the_stream_bits() -> None:
    trim = population.TRIM
    tie = find_case(CASES, OP + "bitstream", "exactly 2^24 bits")
    after = find_case(CASES, OP + "bitstream", "the next read drops them")
    assert tie.expected is not None and after.expected is not None
    bits = _stream_bits(tie.args["seed"], tie.args["tag"], trim + 40)
    assert tie.expected["values"][1:3] == [[bits[3]], [bits[trim - 1]]]
    assert after.expected["values"][2:] == [[bits[trim + 8 + j]] for j in range(10)]
    assert after.expected["bitsConsumed"] >= trim + 18  # the bits read back were consumed


def test_scalar_and_long_trials_equal_the_scalar_sampler() -> None:
    for phrase in ("reaches r = 1", "longer than 64 bits"):
        case = find_case(CASES, OP + "bitstream", phrase)
        assert case.expected is not None
        draw = case.args["draws"][0]
        tape = RandomTape(bytes.fromhex(case.args["seed"]), case.args["tag"])
        p = exact(draw["p"], "p")
        starts, values = [], []
        for _ in range(draw["count"]):
            starts.append(tape.bits_consumed)
            values.append(int(bernoulli(tape, p)))
        assert case.expected["values"][0] == values
        if phrase == "reaches r = 1":
            assert p.denominator >= population.MAX_DENOMINATOR
            bits = _stream_bits(case.args["seed"], case.args["tag"], 64)
            assert any(bits[s] == 1 for s in starts)  # r = 2a - b = 1 after that bit
        else:
            assert starts[1] == 1 and starts[2] - starts[1] > population.MAX_DEPTH
            assert values[1] == 1


def test_the_trial_chain_ends_on_the_block_end() -> None:
    case = find_case(CASES, OP + "bitstream", "ends exactly on its last position")
    draw = case.args["draws"][0]
    p = exact(draw["p"], "p")
    stream = population.BitStream(bytes.fromhex(case.args["seed"]), case.args["tag"])
    length, _ = stream._trials(p.numerator, p.denominator, population.BLOCK)
    rel = t = 0
    lengths = length.tolist()
    while rel < population.BLOCK:
        assert lengths[rel] > 0
        rel += lengths[rel]
        t += 1
    assert rel == population.BLOCK and t < draw["count"]


def test_overflowing_rows_equal_the_scalar_randomizer() -> None:
    case = find_case(CASES, OP + "randomize", "k = 2^61 + 1")
    assert case.expected is not None
    r = Randomizer.from_json(case.args["randomizer"])
    seed = bytes.fromhex(case.args["seed"])
    want = [r.apply(v, RandomTape(seed, f"sa2/client/{i}/randomizer"))
            for i, v in zip(case.args["devices"], case.args["values"], strict=True)]
    assert case.expected["reports"] == want
    # three of the devices are replayed one by one: their coins run past the first 64 bytes
    with recorded_calls(population, "RandomTape") as calls:
        assert HANDLERS[case.op](dict(case.args)) == case.expected
    assert len(calls) == 3 and {str(c.args[1]).split("/")[2] for c in calls} < {
        str(i) for i in case.args["devices"]}


def test_default_chunk_and_workers_zero() -> None:
    case = find_case(CASES, OP + "decoded_sum", "20001 devices")
    assert case.expected is not None
    assert case.expected["progress"][0] == ["clients", 20000, 20001]
    zero = find_case(CASES, OP + "decoded_sum", "workers = 0")
    one = find_case(CASES, OP + "decoded_sum", "workers = 1")
    assert zero.expected == one.expected


def test_release_routes_and_defaults() -> None:
    plain = find_case(CASES, OP + "release", "left out")
    assert plain.expected is not None
    assert plain.expected["dropped"] == 0 and plain.expected["sent"] == plain.expected[
        "participants"] and plain.expected["release"] is not None
    for phrase, subtract in (("more than half", True), ("between a third and a half", False)):
        case = find_case(CASES, OP + "release", phrase)
        assert case.expected is not None and case.expected["release"] is not None
        with recorded_calls(population, "decoded_sum") as calls:
            assert HANDLERS[case.op](dict(case.args)) == case.expected
        sent = len(case.expected["participantIndex"])
        summed = case.expected["aggregated"]
        assert len(calls) == 2 and len(calls[0].args[2]) == case.expected["participants"]
        if subtract:
            assert 2 * summed > sent and len(calls[1].args[2]) == sent - summed
        else:
            assert 2 * summed < sent < 3 * summed and len(calls[1].args[2]) == summed
    light = find_case(CASES, OP + "release", "max_weight = k")
    r = Randomizer.from_json(light.args["randomizer"])
    assert r.max_weight() == r.k
    with recorded_calls(population, "decoded_sum") as calls:
        HANDLERS[light.op](dict(light.args))
    assert len(calls) == 1


def test_audit_larger_than_the_participants() -> None:
    case = find_case(CASES, OP + "release", "an audit of 6")
    assert case.expected is not None
    audit = case.expected["audit"]
    assert case.args["auditSize"] > case.expected["participants"]
    assert audit["devices"] == case.expected["participantIndex"] and audit["agrees"]


@pytest.mark.parametrize("part", ["RAPPOR k = 3, no devices", "RAPPOR k = 4 with a flip",
                                  "no devices and no values", "denominator 2^62 + 1 (at least",
                                  "the exact route's bound"])
def test_exact_route_equals_the_scalar_randomizer(part: str) -> None:
    """The exact route's reports are the scalar randomizer's, one device at a time (RAPPOR: the
    raw bits of rappor_bits); its flip denominators are at least 2^61, or there are no devices."""
    case = find_case(CASES, OP + "randomize", part)
    assert case.expected is not None
    r = Randomizer.from_json(case.args["randomizer"])
    assert not case.args["devices"] or r.flip.denominator >= population.MAX_DENOMINATOR
    seed = bytes.fromhex(case.args["seed"])
    tapes = [(v, RandomTape(seed, f"sa2/client/{i}/randomizer"))
             for i, v in zip(case.args["devices"], case.args["values"], strict=True)]
    if r.name == "rappor":
        want: list[Any] = [[int(b) for b in r.rappor_bits(v, t)] for v, t in tapes]
    else:
        want = [r.apply(v, t) for v, t in tapes]
    assert case.expected["reports"] == want
    assert HANDLERS[case.op](dict(case.args)) == case.expected
    if want:
        changed = copy.deepcopy(case.expected)
        changed["reports"] = changed["reports"][:-1]
        assert FAMILY.compare(case, changed) is not None


def test_an_unsupported_randomizer_is_refused() -> None:
    case = find_case(CASES, OP + "release", "gaussian_vector", result="invalid")
    with pytest.raises(Sa2Error, match="does not replay randomizer gaussian_vector"):
        HANDLERS[case.op](dict(case.args))
