"""Anonymous rate-limited device tokens (sec. 4.3 of [SA2]) from RSA blind signatures (RFC 9474).

The blind signature is RSABSSA-SHA384-PSS-Deterministic (RFC 9474 sec. 5): EMSA-PSS with SHA-384,
MGF1-SHA-384 and a 48-byte salt, and the identity preparation function (``input_msg = msg``). The
identity preparation is safe here because every token message carries a fresh 32-byte nonce
(RFC 9474 sec. 7.3, "Message Entropy").

The four RFC 9474 functions are written out below from the RFC's steps, with the randomness they
need (the PSS salt, the blind ``r``) as explicit arguments; RSAVP1/RSASP1 are the RFC 8017 sec.
5.2 primitives and EMSA-PSS-ENCODE/VERIFY are RFC 8017 sec. 9.1.1/9.1.2. The tests check them
against the published RFC 9474 test vector and check signatures with ``cryptography``'s
RSASSA-PSS verifier as well.

The token protocol (sec. 4.3 of [SA2], after the split-trust rate-limited issuance of Privacy Pass):

* the **attester** sees the device identity, checks that the device has not yet obtained a token
  for this issuance key (one per device per collection), and forwards only the blinded message;
* the **issuer** signs blinded messages with the collection's key and never sees a device
  identity; the blinded message is uniformly distributed, so the signed token is unlinkable to
  the issuance;
* the device's **token** is ``(token_input, sig)`` with ``token_input = TOKEN_PREFIX || task_id
  || nonce`` (``task_id`` 32 bytes, ``nonce`` 32 bytes);
* each **aggregator** verifies the signature under the collection's issuer key, checks the task,
  and rejects a nonce it has seen before (a double spend).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import cached_property
from math import gcd

from dpspec.spec.tape import RandomTape

HASH_LEN = 48  # SHA-384
SALT_LEN = 48  # RSABSSA-SHA384-PSS-*: sLen = hLen
E = 65537
TOKEN_PREFIX = b"dpspec/sa2/token/v1"
TASK_ID_LEN = 32
NONCE_LEN = 32
TOKEN_INPUT_LEN = len(TOKEN_PREFIX) + TASK_ID_LEN + NONCE_LEN


class TokenError(ValueError):
    """An RFC 9474 error (the message names which) or a rejected token."""


# -- RFC 8017 primitives -----------------------------------------------------------------------
def i2osp(x: int, length: int) -> bytes:
    """RFC 8017 sec. 4.1 (int_to_bytes)."""
    if x < 0 or x >= 256**length:
        raise TokenError("integer too large")
    return x.to_bytes(length, "big")


def os2ip(b: bytes) -> int:
    """RFC 8017 sec. 4.2 (bytes_to_int)."""
    return int.from_bytes(b, "big")


def _sha384(data: bytes) -> bytes:
    return hashlib.sha384(data).digest()


def mgf1_sha384(seed: bytes, length: int) -> bytes:
    """MGF1 with SHA-384 (RFC 8017 sec. B.2.1)."""
    out = bytearray()
    counter = 0
    while len(out) < length:
        out += _sha384(seed + counter.to_bytes(4, "big"))
        counter += 1
    return bytes(out[:length])


def emsa_pss_encode(msg: bytes, em_bits: int, salt: bytes) -> bytes:
    """EMSA-PSS-ENCODE (RFC 8017 sec. 9.1.1) with SHA-384, MGF1-SHA-384 and the given salt."""
    em_len = (em_bits + 7) // 8
    m_hash = _sha384(msg)
    if em_len < HASH_LEN + len(salt) + 2:
        raise TokenError("encoding error")
    h = _sha384(b"\x00" * 8 + m_hash + salt)
    db = b"\x00" * (em_len - len(salt) - HASH_LEN - 2) + b"\x01" + salt
    masked = bytearray(x ^ y for x, y in zip(db, mgf1_sha384(h, em_len - HASH_LEN - 1), strict=True))
    masked[0] &= 0xFF >> (8 * em_len - em_bits)
    return bytes(masked) + h + b"\xbc"


def emsa_pss_verify(msg: bytes, em: bytes, em_bits: int, salt_len: int = SALT_LEN) -> bool:
    """EMSA-PSS-VERIFY (RFC 8017 sec. 9.1.2): True for "consistent"."""
    em_len = (em_bits + 7) // 8
    m_hash = _sha384(msg)
    if len(em) != em_len or em_len < HASH_LEN + salt_len + 2 or em[-1] != 0xBC:
        return False
    masked, h = em[: em_len - HASH_LEN - 1], em[em_len - HASH_LEN - 1: -1]
    top_mask = (0xFF << (8 - (8 * em_len - em_bits))) & 0xFF
    if masked[0] & top_mask:
        return False
    db = bytearray(x ^ y for x, y in zip(masked, mgf1_sha384(h, em_len - HASH_LEN - 1), strict=True))
    db[0] &= 0xFF >> (8 * em_len - em_bits)
    ps_len = em_len - HASH_LEN - salt_len - 2
    if any(db[:ps_len]) or db[ps_len] != 0x01:
        return False
    salt = bytes(db[len(db) - salt_len:]) if salt_len else b""
    return _sha384(b"\x00" * 8 + m_hash + salt) == h


# -- keys ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class PublicKey:
    n: int
    e: int

    @property
    def modulus_len(self) -> int:
        return (self.n.bit_length() + 7) // 8

    def key_id(self) -> bytes:
        """SHA-256 of ``I2OSP(n) || I2OSP(e, 4)``: names the issuance key (for the attester)."""
        return hashlib.sha256(i2osp(self.n, self.modulus_len) + i2osp(self.e, 4)).digest()


@dataclass(frozen=True)
class PrivateKey:
    p: int
    q: int
    e: int = E

    @property
    def n(self) -> int:
        return self.p * self.q

    @cached_property
    def d(self) -> int:
        return pow(self.e, -1, (self.p - 1) * (self.q - 1))

    def public_key(self) -> PublicKey:
        return PublicKey(self.n, self.e)


def rsavp1(pk: PublicKey, s: int) -> int:
    """RFC 8017 sec. 5.2.2."""
    if not 0 <= s < pk.n:
        raise TokenError("signature representative out of range")
    return pow(s, pk.e, pk.n)


def rsasp1(sk: PrivateKey, m: int) -> int:
    """RFC 8017 sec. 5.2.1, by the Chinese remainder theorem (the second form of sec. 5.2.1)."""
    n = sk.n
    if not 0 <= m < n:
        raise TokenError("message representative out of range")
    d = sk.d
    s1 = pow(m, d % (sk.p - 1), sk.p)
    s2 = pow(m, d % (sk.q - 1), sk.q)
    h = (s1 - s2) * pow(sk.q, -1, sk.p) % sk.p
    return s2 + sk.q * h


def _random_prime(bits: int, tape: RandomTape) -> int:
    from sympy import isprime
    while True:
        x = tape.bits(bits) | (3 << (bits - 2)) | 1  # top two bits set: p*q has 2*bits bits
        if (x - 1) % E != 0 and isprime(x):
            return x


def generate_key(modulus_bits: int, tape: RandomTape) -> PrivateKey:
    """A deterministic RSA key from a tape, FOR VECTORS AND SIMULATIONS ONLY.

    Primes: draw ``modulus_bits/2`` bits, set the two top bits and the low bit, keep the first
    candidate that is prime (sympy's BPSW test) with ``gcd(e, p - 1) = 1``; then ``q`` likewise
    (``q != p``). A deployment generates its key with a vetted library and a CSPRNG.
    """
    if modulus_bits < 1024 or modulus_bits % 2:
        raise TokenError("modulus_bits must be even and >= 1024 (RFC 9474 asks for >= 2048)")
    p = _random_prime(modulus_bits // 2, tape)
    while True:
        q = _random_prime(modulus_bits // 2, tape)
        if q != p:
            return PrivateKey(p, q)


# -- RFC 9474 sec. 4 -----------------------------------------------------------------------------
def prepare_identity(msg: bytes) -> bytes:
    """RFC 9474 sec. 4.1: the identity preparation of the -Deterministic variants."""
    return msg


def blind(pk: PublicKey, msg: bytes, salt: bytes, r: int) -> tuple[bytes, int]:
    """RFC 9474 sec. 4.2 Blind, with the PSS ``salt`` and the blind ``r`` in ``[1, n)`` given.

    Returns ``(blinded_msg, inv)``.
    """
    if len(salt) != SALT_LEN:
        raise TokenError(f"salt must have {SALT_LEN} bytes")
    encoded = emsa_pss_encode(msg, pk.n.bit_length() - 1, salt)
    m = os2ip(encoded)
    if gcd(m, pk.n) != 1:
        raise TokenError("invalid input")
    if not 1 <= r < pk.n:
        raise TokenError("r must lie in [1, n)")
    try:
        inv = pow(r, -1, pk.n)
    except ValueError as exc:
        raise TokenError("blinding error") from exc
    x = rsavp1(pk, r)
    z = m * x % pk.n
    return i2osp(z, pk.modulus_len), inv


def blind_sign(sk: PrivateKey, blinded_msg: bytes) -> bytes:
    """RFC 9474 sec. 4.3 BlindSign."""
    pk = sk.public_key()
    if len(blinded_msg) != pk.modulus_len:
        raise TokenError("unexpected input size")
    m = os2ip(blinded_msg)
    s = rsasp1(sk, m)
    if rsavp1(pk, s) != m:
        raise TokenError("signing failure")
    return i2osp(s, pk.modulus_len)


def rsassa_pss_verify(pk: PublicKey, msg: bytes, sig: bytes) -> bool:
    """RSASSA-PSS-VERIFY (RFC 8017 sec. 8.1.2) with SHA-384, MGF1-SHA-384, sLen = 48."""
    if len(sig) != pk.modulus_len:
        return False
    s = os2ip(sig)
    if s >= pk.n:
        return False
    m = rsavp1(pk, s)
    em_bits = pk.n.bit_length() - 1
    em_len = (em_bits + 7) // 8
    if m >= 256**em_len:
        return False
    return emsa_pss_verify(msg, i2osp(m, em_len), em_bits)


def finalize(pk: PublicKey, msg: bytes, blind_sig: bytes, inv: int) -> bytes:
    """RFC 9474 sec. 4.4 Finalize: unblind and verify."""
    if len(blind_sig) != pk.modulus_len:
        raise TokenError("unexpected input size")
    z = os2ip(blind_sig)
    sig = i2osp(z * inv % pk.n, pk.modulus_len)
    if not rsassa_pss_verify(pk, msg, sig):
        raise TokenError("invalid signature")
    return sig


def verify(pk: PublicKey, msg: bytes, sig: bytes) -> bool:
    """RFC 9474 sec. 4.5: RSASSA-PSS-VERIFY over the prepared message."""
    return rsassa_pss_verify(pk, prepare_identity(msg), sig)


# -- the SA2 token protocol (sec. 4.3) -----------------------------------------------------------
@dataclass(frozen=True)
class Token:
    """An anonymous token: the signed message and its signature."""

    token_input: bytes
    sig: bytes

    @property
    def task_id(self) -> bytes:
        return self.token_input[len(TOKEN_PREFIX): len(TOKEN_PREFIX) + TASK_ID_LEN]

    @property
    def nonce(self) -> bytes:
        return self.token_input[len(TOKEN_PREFIX) + TASK_ID_LEN:]

    def encode(self) -> bytes:
        return self.token_input + self.sig


def decode_token(data: bytes, modulus_len: int) -> Token:
    if len(data) != TOKEN_INPUT_LEN + modulus_len:
        raise TokenError("token has the wrong length")
    return Token(data[:TOKEN_INPUT_LEN], data[TOKEN_INPUT_LEN:])


def token_input(task_id: bytes, nonce: bytes) -> bytes:
    if len(task_id) != TASK_ID_LEN or len(nonce) != NONCE_LEN:
        raise TokenError("task_id and nonce must have 32 bytes each")
    return TOKEN_PREFIX + task_id + nonce


@dataclass(frozen=True)
class TokenRequest:
    """The device's pending request: what it must keep to finalize, and what it sends."""

    msg: bytes
    inv: int
    blinded_msg: bytes


def request_token(pk: PublicKey, task_id: bytes, tape: RandomTape) -> TokenRequest:
    """Device side. Draws, in order: the nonce (32 x ``uniform(256)``), the salt
    (48 x ``uniform(256)``), then ``r = 1 + uniform(n - 1)`` until ``gcd(r, n) = 1``."""
    nonce = bytes(tape.uniform(256) for _ in range(NONCE_LEN))
    salt = bytes(tape.uniform(256) for _ in range(SALT_LEN))
    while True:
        r = 1 + tape.uniform(pk.n - 1)
        if gcd(r, pk.n) == 1:
            break
    msg = prepare_identity(token_input(task_id, nonce))
    blinded, inv = blind(pk, msg, salt, r)
    return TokenRequest(msg, inv, blinded)


def finish_token(pk: PublicKey, request: TokenRequest, blind_sig: bytes) -> Token:
    return Token(request.msg, finalize(pk, request.msg, blind_sig, request.inv))


@dataclass
class Issuer:
    """Signs blinded messages with the collection's key; sees no device identity."""

    sk: PrivateKey
    issued: int = 0

    def issue(self, blinded_msg: bytes) -> bytes:
        self.issued += 1
        return blind_sign(self.sk, blinded_msg)


@dataclass
class Attester:
    """Sees device identities; allows one token per device per issuance key (rate limit)."""

    issuer: Issuer
    seen: set[tuple[str, bytes]] = field(default_factory=set)

    def request(self, device_id: str, key_id: bytes, blinded_msg: bytes) -> bytes:
        if key_id != self.issuer.sk.public_key().key_id():
            raise TokenError("unknown issuance key")
        if (device_id, key_id) in self.seen:
            raise TokenError("rate limit: this device already has a token for this collection")
        self.seen.add((device_id, key_id))
        return self.issuer.issue(blinded_msg)


def obtain_token(device_id: str, attester: Attester, pk: PublicKey, task_id: bytes,
                 tape: RandomTape) -> Token:
    """The whole issuance of one token for ``device_id`` (sec. 4.3)."""
    req = request_token(pk, task_id, tape)
    return finish_token(pk, req, attester.request(device_id, pk.key_id(), req.blinded_msg))


@dataclass
class TokenVerifier:
    """An aggregator's check: valid signature, right task, nonce not spent before."""

    pk: PublicKey
    task_id: bytes
    spent: set[bytes] = field(default_factory=set)

    def check(self, token: Token) -> str | None:
        """None if the token is accepted (and is now spent); else the reason for rejection."""
        if len(token.token_input) != TOKEN_INPUT_LEN or not token.token_input.startswith(
                TOKEN_PREFIX):
            return "token_malformed"
        if token.task_id != self.task_id:
            return "token_wrong_task"
        if not verify(self.pk, token.token_input, token.sig):
            return "token_invalid"
        if token.nonce in self.spent:
            return "token_replayed"
        self.spent.add(token.nonce)
        return None
