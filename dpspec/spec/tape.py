"""The random tape: how every randomized algorithm in dpspec turns a seed into coins.

The DP draft (sec. 4) asks that a mechanism "securely expand a short, uniform random seed into a
sample"; its reference code leaves this open. This module fixes one precise answer, so that a
sampler run from the same seed gives the same output in every language.

Specification (version 1)
-------------------------
Inputs: a ``seed`` of 16 to 255 bytes (at least 128 bits of entropy in production) and a ``tag``,
a non-empty ASCII string of at most 255 printable characters (0x20-0x7E) naming the consumer, for
example ``"discrete_gaussian"``. Distinct consumers of one seed MUST use distinct tags.

1. The byte stream ``S`` is the output of XofTurboShake128 (sec. 6.2.1 of the VDAF draft) with
   ``seed = seed``, ``dst = b"dpspec/tape/v1/" || ASCII(tag)`` and ``binder = b""``.
2. The bit stream ``b_0, b_1, ...`` reads ``S`` byte by byte, least-significant bit first:
   ``b_{8i+j} = (S[i] >> j) & 1``.
3. ``uniform(n)`` for an integer ``n >= 1`` returns an exact uniform integer in ``[0, n)``:
   let ``k = bit_length(n - 1)`` (so ``k = 0`` for ``n = 1``). Take the next ``k`` bits
   ``c_0 .. c_{k-1}`` of the stream and form ``x = sum(c_j << j)`` (the first bit taken is the least
   significant). If ``x < n`` return ``x``; otherwise discard those ``k`` bits and repeat.
   ``uniform(1)`` returns 0 and takes no bits. ``n <= 0`` is an error.

That is the whole interface: every sampler is written in terms of ``uniform`` alone. The tape
counts the bits it has handed out (``bits_consumed``); ``bytes_consumed = ceil(bits_consumed / 8)``
is the length of the prefix of ``S`` that was needed. (An implementation may read ``S`` ahead in
larger blocks; that does not change any value, because ``S`` is one deterministic stream.)

Each call of ``uniform(n)`` needs fewer than ``2k`` bits on average (a candidate is accepted with
probability ``n / 2**k > 1/2``).
"""

from __future__ import annotations

from dpspec.spec.xof import XofTurboShake128

TAPE_VERSION = 1
DST_PREFIX = b"dpspec/tape/v1/"
MIN_SEED_SIZE = 16
MAX_SEED_SIZE = 255
MAX_TAG_LENGTH = 255

_REFILL_BYTES = 64


class TapeError(ValueError):
    """Invalid seed, tag or request."""


def tape_dst(tag: str) -> bytes:
    """The XOF domain-separation string for ``tag``; TapeError if the tag is not allowed."""
    if not isinstance(tag, str) or not tag:
        raise TapeError("tape tag must be a non-empty string")
    if len(tag) > MAX_TAG_LENGTH:
        raise TapeError(f"tape tag has {len(tag)} characters; at most {MAX_TAG_LENGTH} allowed")
    if any(not 0x20 <= ord(ch) <= 0x7E for ch in tag):
        raise TapeError("tape tag must be printable ASCII (0x20-0x7E)")
    return DST_PREFIX + tag.encode("ascii")


class RandomTape:
    """Exact uniform integers from ``(seed, tag)``; see the module docstring for the normative text."""

    __slots__ = ("_xof", "_buf", "_nbits", "bits_consumed", "tag")

    def __init__(self, seed: bytes, tag: str) -> None:
        if not isinstance(seed, bytes | bytearray):
            raise TapeError("tape seed must be bytes")
        if not MIN_SEED_SIZE <= len(seed) <= MAX_SEED_SIZE:
            raise TapeError(
                f"tape seed has {len(seed)} bytes; it must have {MIN_SEED_SIZE} to {MAX_SEED_SIZE}"
            )
        self.tag = tag
        self._xof = XofTurboShake128(bytes(seed), tape_dst(tag), b"")
        self._buf = 0  # unread bits, the next one in the least-significant position
        self._nbits = 0
        self.bits_consumed = 0

    @property
    def bytes_consumed(self) -> int:
        """Length of the prefix of the XOF stream that the bits handed out so far come from."""
        return (self.bits_consumed + 7) // 8

    def bits(self, k: int) -> int:
        """The next ``k`` bits as an integer, first bit least significant (``uniform(2**k)``)."""
        if k < 0:
            raise TapeError("bit count must be >= 0")
        while self._nbits < k:
            chunk = self._xof.next(_REFILL_BYTES)
            self._buf |= int.from_bytes(chunk, "little") << self._nbits
            self._nbits += 8 * _REFILL_BYTES
        x = self._buf & ((1 << k) - 1)
        self._buf >>= k
        self._nbits -= k
        self.bits_consumed += k
        return x

    def uniform(self, n: int) -> int:
        """An exact uniform integer in ``[0, n)`` by rejection sampling (step 3 of the spec)."""
        if isinstance(n, bool) or not isinstance(n, int):
            raise TapeError(f"uniform(n) needs an integer n, got {type(n).__name__}")
        if n <= 0:
            raise TapeError(f"uniform(n) needs n >= 1, got {n}")
        k = (n - 1).bit_length()
        while True:
            x = self.bits(k)
            if x < n:
                return x
