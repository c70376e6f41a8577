"""The random tape (dpspec.spec.tape): the normative rules, exactness and separation."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from dpspec.spec.tape import RandomTape, TapeError
from dpspec.spec.xof import XofTurboShake128

SEED = bytes(range(32))


def test_bits_follow_the_stated_rule() -> None:
    # Rebuild the bit stream from the XOF by the module's text and compare.
    stream = XofTurboShake128(SEED, b"dpspec/tape/v1/t", b"").next(40)
    bits = [(stream[i // 8] >> (i % 8)) & 1 for i in range(320)]
    tape = RandomTape(SEED, "t")
    pos = 0
    for n in [2, 3, 1, 1000, 257, 2**40 + 3, 7]:
        k = (n - 1).bit_length()
        while True:
            x = sum(bits[pos + j] << j for j in range(k))
            pos += k
            if x < n:
                break
        assert tape.uniform(n) == x
        assert tape.bits_consumed == pos
    assert tape.bytes_consumed == math.ceil(pos / 8)


def test_uniform_one_takes_no_bits() -> None:
    tape = RandomTape(SEED, "t")
    assert [tape.uniform(1) for _ in range(10)] == [0] * 10
    assert tape.bits_consumed == 0


@given(st.binary(min_size=16, max_size=255), st.text(
    alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E), min_size=1, max_size=255),
    st.integers(1, 2**130))
def test_determinism_and_range(seed: bytes, tag: str, n: int) -> None:
    a, b = RandomTape(seed, tag), RandomTape(seed, tag)
    xs = [a.uniform(n) for _ in range(5)]
    assert xs == [b.uniform(n) for _ in range(5)]
    assert all(0 <= x < n for x in xs)
    assert a.bits_consumed == b.bits_consumed


@given(st.binary(min_size=16, max_size=64), st.text(
    alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E), min_size=1, max_size=20))
def test_tags_separate_streams(seed: bytes, tag: str) -> None:
    a, b = RandomTape(seed, tag), RandomTape(seed, tag + "x")
    assert [a.uniform(2**64) for _ in range(2)] != [b.uniform(2**64) for _ in range(2)]


@pytest.mark.parametrize("bad", [b"", bytes(15), bytes(256)])
def test_bad_seed(bad: bytes) -> None:
    with pytest.raises(TapeError, match="seed"):
        RandomTape(bad, "t")


@pytest.mark.parametrize("bad", ["", "é", "a\nb", "t" * 256])
def test_bad_tag(bad: str) -> None:
    with pytest.raises(TapeError, match="tag"):
        RandomTape(SEED, bad)


@pytest.mark.parametrize("bad", [0, -1, 2.0, True, "3"])
def test_bad_modulus(bad: object) -> None:
    with pytest.raises(TapeError):
        RandomTape(SEED, "t").uniform(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("n", [3, 10, 257])
def test_uniform_is_uniform(n: int) -> None:
    """Chi-square goodness of fit; fixed seed, and alpha = 1e-7 so a false alarm cannot flake."""
    tape = RandomTape(SEED, f"uniformity/{n}")
    draws = 200 * n
    counts = [0] * n
    for _ in range(draws):
        counts[tape.uniform(n)] += 1
    _, pvalue = stats.chisquare(counts)
    assert pvalue > 1e-7
    # mean bits per draw: k / (n / 2^k)
    k = (n - 1).bit_length()
    expected_bits = k * 2**k / n
    assert abs(tape.bits_consumed / draws - expected_bits) < 0.05 * expected_bits
