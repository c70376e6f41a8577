"""HPKE wrapper (dpspec.spec.sa2.hpke): the DAP suite, checked against RFC 9180 A.1.1."""

from __future__ import annotations

import pytest

from dpspec.spec.sa2 import hpke
from dpspec.spec.sa2.hpke import HpkeError

# RFC 9180 Appendix A.1.1: DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, AES-128-GCM, mode base,
# sequence number 0.
IKM_E = bytes.fromhex("7268600d403fce431561aef583ee1613527cff655c1343f29812e66706df3234")
PK_EM = bytes.fromhex("37fda3567bdbd628e88668c3c8d7e97d1d1253b6d4ea6d44c150f741f1bf4431")
SK_EM = bytes.fromhex("52c4a758a802cd8b936eceea314432798d5baf2d7e9235dc084ab1b9cfa2f736")
IKM_R = bytes.fromhex("6db9df30aa07dd42ee5e8181afdb977e538f5e1fec8a06223f33f7013e525037")
PK_RM = bytes.fromhex("3948cfe0ad1ddb695d780e59077195da6c56506b027329794ab02bca80815c4d")
SK_RM = bytes.fromhex("4612c550263fc8ad58375df3f557aac531d26850903e55a9f23f21d8534e8ac8")
INFO = bytes.fromhex("4f6465206f6e2061204772656369616e2055726e")
AAD = bytes.fromhex("436f756e742d30")
PT = bytes.fromhex("4265617574792069732074727574682c20747275746820626561757479")
CT = bytes.fromhex("f938558b5d72f1a23810b4be2ab4f84331acc02fc97babc53a52ae8218a355a9"
                   "6d8770ac83d07bea87e13c512a")


def test_rfc9180_derive_key_pair() -> None:
    assert hpke.derive_key_pair(IKM_E) == hpke.HpkeKeyPair(SK_EM, PK_EM)
    assert hpke.derive_key_pair(IKM_R) == hpke.HpkeKeyPair(SK_RM, PK_RM)


def test_rfc9180_seal_with_fixed_ephemeral_key() -> None:
    assert hpke.seal(PK_RM, INFO, AAD, PT, ephemeral_ikm=IKM_E) == (PK_EM, CT)


def test_rfc9180_open() -> None:
    assert hpke.open_(SK_RM, PK_EM, INFO, AAD, CT) == PT


def test_random_ephemeral_roundtrip_and_failures() -> None:
    enc, ct = hpke.seal(PK_RM, b"info", b"aad", b"share")
    assert enc != PK_EM
    assert hpke.open_(SK_RM, enc, b"info", b"aad", ct) == b"share"
    for args in [(SK_RM, enc, b"info", b"aad!", ct), (SK_RM, enc, b"inf0", b"aad", ct),
                 (SK_EM, enc, b"info", b"aad", ct), (SK_RM, enc, b"info", b"aad", ct[:-1] + b"x"),
                 (SK_RM, enc[:-1], b"info", b"aad", ct), (SK_RM, enc, b"info", b"aad", b"")]:
        with pytest.raises(HpkeError):
            hpke.open_(*args)
    with pytest.raises(HpkeError):
        hpke.seal(b"\x00" * 5, b"", b"", b"")
    with pytest.raises(HpkeError):
        hpke.derive_key_pair(b"short")
