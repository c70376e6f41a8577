"""XofTurboShake128, XofFixedKeyAes128 and the domain-separation tag of the VDAF draft
(draft-irtf-cfrg-vdaf-20).

Sec. 6.2 (XOF interface, ``derive_seed``, ``next_vec``, ``expand_into_vec``), sec. 6.2.1
(XofTurboShake128), sec. 6.2.2 (XofFixedKeyAes128, which Prio3 does not use; it is here so that the
draft's XOF vectors are regenerated from their inputs) and sec. 6.2.3 (``format_dst``).
TurboSHAKE128 itself is RFC 9861; we use pycryptodome's implementation with domain byte ``D = 1``.

The XOF absorbs ``M = le16(len(dst)) || dst || le8(len(seed)) || seed || binder`` and its output is
read as one stream: successive ``next(n)`` calls return consecutive slices of
``TurboSHAKE128(M, 1, L)``.
"""

from __future__ import annotations

from Crypto.Cipher import AES
from Crypto.Hash import TurboSHAKE128

from dpspec.spec.encoding import from_le_bytes, next_power_of_2, to_be_bytes, to_le_bytes
from dpspec.spec.field import F

#: ``VERSION`` of the VDAF draft: draft-irtf-cfrg-vdaf-18, -19 and -20 all use 18.
VERSION = 18

#: Algorithm classes used in the first byte after VERSION in ``format_dst``.
ALGO_CLASS_VDAF = 0


def format_dst(algo_class: int, algo: int, usage: int) -> bytes:
    """Domain-separation tag of sec. 6.2.3: ``VERSION || algo_class || be32(algo) || be16(usage)``."""
    if not 0 <= algo_class < 2**8 or not 0 <= algo < 2**32 or not 0 <= usage < 2**16:
        raise ValueError("format_dst: algo_class, algo or usage out of range")
    return (
        to_be_bytes(VERSION, 1)
        + to_be_bytes(algo_class, 1)
        + to_be_bytes(algo, 4)
        + to_be_bytes(usage, 2)
    )


class XofTurboShake128:
    """The XOF of sec. 6.2.1 of the VDAF draft.

    Pre-conditions (checked): ``len(seed) <= 255`` and ``len(dst) <= 65535``.
    """

    SEED_SIZE = 32

    def __init__(self, seed: bytes, dst: bytes, binder: bytes) -> None:
        if len(seed) > 255:
            raise ValueError(f"XofTurboShake128: seed of {len(seed)} bytes exceeds 255")
        if len(dst) > 65535:
            raise ValueError(f"XofTurboShake128: dst of {len(dst)} bytes exceeds 65535")
        self._hash = TurboSHAKE128.new(domain=1)
        self._hash.update(
            to_le_bytes(len(dst), 2) + dst + to_le_bytes(len(seed), 1) + seed + binder
        )
        self.bytes_read = 0

    def next(self, length: int) -> bytes:
        """The next ``length`` bytes of the output stream."""
        if length < 0:
            raise ValueError("length must be >= 0")
        self.bytes_read += length
        out: bytes = self._hash.read(length) if length else b""
        return out

    def next_vec(self, field: type[F], length: int) -> list[F]:
        """``length`` field elements by rejection sampling (sec. 6.2).

        Each candidate is ``ENCODED_SIZE`` little-endian bytes masked to the bit length of
        ``MODULUS``; candidates >= MODULUS are discarded.
        """
        mask = next_power_of_2(field.MODULUS) - 1
        vec: list[F] = []
        while len(vec) < length:
            x = from_le_bytes(self.next(field.ENCODED_SIZE)) & mask
            if x < field.MODULUS:
                vec.append(field(x))
        return vec

    @classmethod
    def derive_seed(cls, seed: bytes, dst: bytes, binder: bytes) -> bytes:
        """A fresh ``SEED_SIZE``-byte seed (sec. 6.2)."""
        return cls(seed, dst, binder).next(cls.SEED_SIZE)

    @classmethod
    def expand_into_vec(
        cls, field: type[F], seed: bytes, dst: bytes, binder: bytes, length: int
    ) -> list[F]:
        """One-shot ``next_vec`` from a fresh XOF (sec. 6.2)."""
        return cls(seed, dst, binder).next_vec(field, length)


class XofFixedKeyAes128(XofTurboShake128):
    """The XOF of sec. 6.2.2 of the VDAF draft: AES-128 under a fixed key, in a
    Matyas-Meyer-Oseas-style hash of the counter blocks ``seed XOR le128(i)``.

    The key is ``TurboSHAKE128(le16(len(dst)) || dst || binder, D = 2, 16 bytes)``; block ``i`` of
    the stream is ``AES(key, s) XOR s`` with ``s = hi || (hi XOR lo)`` for ``lo || hi = seed XOR
    le128(i)`` (8-byte halves). Pre-conditions (checked): ``len(seed) == 16``,
    ``len(dst) <= 65535``.
    """

    SEED_SIZE = 16

    def __init__(self, seed: bytes, dst: bytes, binder: bytes) -> None:
        if len(seed) != self.SEED_SIZE:
            raise ValueError(f"XofFixedKeyAes128: seed must be 16 bytes, got {len(seed)}")
        if len(dst) > 65535:
            raise ValueError(f"XofFixedKeyAes128: dst of {len(dst)} bytes exceeds 65535")
        key_hash = TurboSHAKE128.new(domain=2)
        key_hash.update(to_le_bytes(len(dst), 2) + dst + binder)
        self._cipher = AES.new(key_hash.read(16), AES.MODE_ECB)
        self._seed = seed
        self.bytes_read = 0

    def _hash_block(self, index: int) -> bytes:
        block = bytes(a ^ b for a, b in zip(self._seed, to_le_bytes(index, 16), strict=True))
        lo, hi = block[:8], block[8:]
        sigma = hi + bytes(a ^ b for a, b in zip(hi, lo, strict=True))
        encrypted: bytes = self._cipher.encrypt(sigma)
        return bytes(a ^ b for a, b in zip(encrypted, sigma, strict=True))

    def next(self, length: int) -> bytes:
        """The next ``length`` bytes of the output stream."""
        if length < 0:
            raise ValueError("length must be >= 0")
        start, end = self.bytes_read, self.bytes_read + length
        self.bytes_read = end
        blocks = b"".join(self._hash_block(i) for i in range(start // 16, end // 16 + 1))
        return blocks[start % 16: start % 16 + length]
