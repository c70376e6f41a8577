"""HPKE (RFC 9180) for the SA2 protocol: each input share is sealed to its aggregator.

The suite is the one DAP uses by default: KEM DHKEM(X25519, HKDF-SHA256) (0x0020), KDF
HKDF-SHA256 (0x0001), AEAD AES-128-GCM (0x0001), base mode, single-shot seal/open (RFC 9180 sec.
6.1). The primitives are those of the ``pyhpke`` library; this module fixes the suite and names
the inputs. What goes into ``info`` and ``aad`` (the task and the cohort size B, sec. 4.8 of
[SA2] "Reliance on client code") is defined by :mod:`dpspec.spec.sa2.protocol`.

Randomness: the only coins of HPKE are the sender's ephemeral key pair. :func:`seal` takes
``ephemeral_ikm``: when it is None the ephemeral key comes from the library's CSPRNG (the only
acceptable production use); when it is given, the ephemeral key is ``DeriveKeyPair(ephemeral_ikm)``
(RFC 9180 sec. 7.1.3). **A fixed ephemeral key is for test vectors and seeded simulations only and
must never be used in production**: reusing it for two messages to one recipient reuses the AEAD
key and nonce.
"""

from __future__ import annotations

from dataclasses import dataclass

from pyhpke import AEADId, CipherSuite, KDFId, KEMId
from pyhpke.exceptions import PyHPKEError

KEM_ID = 0x0020
KDF_ID = 0x0001
AEAD_ID = 0x0001
NENC = 32  # X25519 public key / encapsulation size
NSK = 32
NT = 16  # AES-128-GCM tag

SUITE = CipherSuite.new(KEMId.DHKEM_X25519_HKDF_SHA256, KDFId.HKDF_SHA256, AEADId.AES128_GCM)


class HpkeError(ValueError):
    """Decryption failed (wrong key, wrong info/aad, tampered ciphertext or bad encoding)."""


@dataclass(frozen=True)
class HpkeKeyPair:
    """An X25519 key pair as raw bytes (RFC 9180 SerializePrivateKey/SerializePublicKey)."""

    private_key: bytes
    public_key: bytes


def derive_key_pair(ikm: bytes) -> HpkeKeyPair:
    """RFC 9180 sec. 7.1.3 DeriveKeyPair for DHKEM(X25519, HKDF-SHA256); ``ikm`` >= 32 bytes."""
    if len(ikm) < NSK:
        raise HpkeError("DeriveKeyPair needs at least 32 bytes of input keying material")
    kp = SUITE.kem.derive_key_pair(ikm)
    return HpkeKeyPair(kp.private_key.to_private_bytes(), kp.public_key.to_public_bytes())


def seal(public_key: bytes, info: bytes, aad: bytes, plaintext: bytes,
         ephemeral_ikm: bytes | None = None) -> tuple[bytes, bytes]:
    """Base-mode single-shot SealBase (RFC 9180 sec. 6.1); returns ``(enc, ciphertext)``.

    ``ephemeral_ikm`` fixes the ephemeral key: FOR VECTORS AND SEEDED SIMULATIONS ONLY, never in
    production (see the module docstring).
    """
    try:
        pkr = SUITE.kem.deserialize_public_key(public_key)
    except (PyHPKEError, ValueError) as exc:
        raise HpkeError(f"bad recipient public key: {exc}") from exc
    eks = None
    if ephemeral_ikm is not None:
        if len(ephemeral_ikm) < NSK:
            raise HpkeError("ephemeral_ikm needs at least 32 bytes")
        eks = SUITE.kem.derive_key_pair(ephemeral_ikm)
    enc, ctx = SUITE.create_sender_context(pkr, info, eks=eks)
    return enc, ctx.seal(plaintext, aad)


def open_(private_key: bytes, enc: bytes, info: bytes, aad: bytes, ciphertext: bytes) -> bytes:
    """Base-mode single-shot OpenBase (RFC 9180 sec. 6.1); HpkeError on any failure."""
    if len(enc) != NENC or len(ciphertext) < NT:
        raise HpkeError("malformed encapsulation or ciphertext")
    try:
        skr = SUITE.kem.deserialize_private_key(private_key)
        ctx = SUITE.create_recipient_context(enc, skr, info)
        out: bytes = ctx.open(ciphertext, aad)
        return out
    except (PyHPKEError, ValueError) as exc:
        raise HpkeError("HPKE open failed") from exc
