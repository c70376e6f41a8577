"""XofTurboShake128 against the official draft-20 vector (sec. 6.2.1 of the VDAF draft)."""

from __future__ import annotations

import json

import pytest

from dpspec.spec.field import Field64, Field128
from dpspec.spec.xof import VERSION, XofFixedKeyAes128, XofTurboShake128, format_dst
from tests.conftest import VDAF_VECTORS

OFFICIAL = VDAF_VECTORS / "draft-20" / "XofTurboShake128.json"


@pytest.fixture(scope="module")
def official() -> dict:
    return json.loads(OFFICIAL.read_text())


def test_official_derive_seed(official: dict) -> None:
    seed, dst, binder = (bytes.fromhex(official[k]) for k in ("seed", "dst", "binder"))
    assert XofTurboShake128.derive_seed(seed, dst, binder).hex() == official["derived_seed"]


def test_official_expand_into_vec(official: dict) -> None:
    seed, dst, binder = (bytes.fromhex(official[k]) for k in ("seed", "dst", "binder"))
    vec = XofTurboShake128.expand_into_vec(Field128, seed, dst, binder, official["length"])
    assert Field128.encode_vec(vec).hex() == official["expanded_vec_field128"]


def test_official_fixed_key_aes128() -> None:
    """XofFixedKeyAes128 (sec. 6.2.2) against the official draft-20 vector."""
    doc = json.loads((VDAF_VECTORS / "draft-20" / "XofFixedKeyAes128.json").read_text())
    seed, dst, binder = (bytes.fromhex(doc[k]) for k in ("seed", "dst", "binder"))
    assert XofFixedKeyAes128.derive_seed(seed, dst, binder).hex() == doc["derived_seed"]
    vec = XofFixedKeyAes128.expand_into_vec(Field128, seed, dst, binder, doc["length"])
    assert Field128.encode_vec(vec).hex() == doc["expanded_vec_field128"]


def test_fixed_key_aes128_is_one_stream_and_checks_its_seed() -> None:
    a = XofFixedKeyAes128(bytes(range(16)), b"d", b"b")
    b = XofFixedKeyAes128(bytes(range(16)), b"d", b"b")
    assert a.next(5) + a.next(30) + a.next(0) + a.next(16) + a.next(1) == b.next(52)
    with pytest.raises(ValueError, match="16 bytes"):
        XofFixedKeyAes128(bytes(32), b"", b"")


def test_next_is_one_stream() -> None:
    a = XofTurboShake128(b"s" * 32, b"d", b"b")
    b = XofTurboShake128(b"s" * 32, b"d", b"b")
    assert a.next(5) + a.next(300) + a.next(0) + a.next(7) == b.next(312)


def test_inputs_are_length_prefixed() -> None:
    # Moving a byte from dst to seed must change the stream: the lengths are absorbed.
    x = XofTurboShake128(b"ab" * 16, b"dst", b"").next(16)
    y = XofTurboShake128(b"b" + b"ab" * 15, b"dsta", b"").next(16)
    assert x != y


def test_limits() -> None:
    XofTurboShake128(bytes(255), b"", b"")
    with pytest.raises(ValueError, match="255"):
        XofTurboShake128(bytes(256), b"", b"")
    with pytest.raises(ValueError, match="65535"):
        XofTurboShake128(b"", bytes(65536), b"")


def test_next_vec_rejects_out_of_range_candidates() -> None:
    # Field64's modulus is just below 2^64: masking keeps all 64 bits, so candidates >= p
    # must be skipped. Check every element is canonical over many draws.
    xof = XofTurboShake128(bytes(32), b"t", b"")
    vec = xof.next_vec(Field64, 2000)
    assert all(0 <= x.int() < Field64.MODULUS for x in vec)
    assert xof.bytes_read >= 2000 * 8


def test_format_dst() -> None:
    assert VERSION == 18
    assert format_dst(0, 1, 2) == bytes([18, 0, 0, 0, 0, 1, 0, 2])
    with pytest.raises(ValueError):
        format_dst(256, 0, 0)
