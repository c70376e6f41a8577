"""Byte-string helpers of sec. 2 ("Conventions") of the VDAF draft (draft-irtf-cfrg-vdaf-20)."""

from __future__ import annotations


def to_le_bytes(value: int, length: int) -> bytes:
    """Encode a non-negative ``value`` as ``length`` little-endian bytes (OverflowError if too big)."""
    return value.to_bytes(length, "little")


def from_le_bytes(encoded: bytes) -> int:
    """Decode a little-endian unsigned integer."""
    return int.from_bytes(encoded, "little")


def to_be_bytes(value: int, length: int) -> bytes:
    """Encode a non-negative ``value`` as ``length`` big-endian bytes (OverflowError if it does not fit)."""
    return value.to_bytes(length, "big")


def next_power_of_2(n: int) -> int:
    """The smallest power of two that is >= ``n`` (``n`` >= 1)."""
    if n < 1:
        raise ValueError("next_power_of_2 needs n >= 1")
    return 1 << (n - 1).bit_length()
