"""Vector family ``sa2-crypto``: the RSA blind-signature primitives of SA2's tokens, step by step.

The ``sa2`` family publishes whole token issuances under the 2048-bit vector key; there every
length is far from a boundary and every check passes, so a wrong constant or a dropped check
inside the primitives of :mod:`dpspec.spec.sa2.tokens` changes nothing. This family calls each
primitive on its own, at the boundaries of its checks and with crafted inputs that only a
correct check refuses.

Files:

* ``sa2-crypto/rsa_pss.json``: I2OSP, MGF1-SHA-384, EMSA-PSS-ENCODE/VERIFY (RFC 8017 sec. 4.1,
  B.2.1, 9.1.1, 9.1.2) at every ``emBits mod 8`` and at the minimum encoded length; RSASP1 /
  RSAVP1 (sec. 5.2) at both ends of their ranges; RSASSA-PSS-VERIFY (sec. 8.1.2) under moduli
  whose bit length is 1 or 2 mod 8; the deterministic key generation of the vectors; RFC 9474
  Blind, BlindSign and Finalize with each of their checks; the device's token request with
  moduli next to a power of two (the bound of the ``r`` draw); HPKE SealBase without a fixed
  ephemeral key (round trip only).
"""

from __future__ import annotations

import hashlib
from functools import cache
from math import gcd
from typing import Any

from dpspec.conformance.families._groups import Groups
from dpspec.conformance.jsonargs import COUNT, DEC, HEX, hex_arg, int_arg
from dpspec.conformance.vectors import (
    VECTOR_SEED_HEADER,
    Family,
    Handler,
    VectorFile,
    family_schema,
    vector_seed,
)
from dpspec.spec.sa2 import hpke, tokens
from dpspec.spec.tape import RandomTape

RSA_SCHEMA = "sa2_crypto_rsa-v1.json"


def _hexint(args: dict[str, Any], key: str) -> int:
    text = args[key]
    if not isinstance(text, str):
        raise ValueError(f"{key} must be a hex string")
    return int(text, 16)


def _pk(args: dict[str, Any]) -> tokens.PublicKey:
    return tokens.PublicKey(_hexint(args, "modulus"), int_arg(args, "exponent"))


def _sk(args: dict[str, Any]) -> tokens.PrivateKey:
    return tokens.PrivateKey(_hexint(args, "issuerP"), _hexint(args, "issuerQ"))


# -- reference handlers ---------------------------------------------------------------------------
def h_i2osp(args: dict[str, Any]) -> dict[str, Any]:
    return {"octets": tokens.i2osp(int_arg(args, "x"), int_arg(args, "length")).hex()}


def h_mgf1(args: dict[str, Any]) -> dict[str, Any]:
    return {"mask": tokens.mgf1_sha384(hex_arg(args, "seed"), int_arg(args, "length")).hex()}


def h_pss_encode(args: dict[str, Any]) -> dict[str, Any]:
    em = tokens.emsa_pss_encode(hex_arg(args, "msg"), int_arg(args, "emBits"), hex_arg(args, "salt"))
    return {"em": em.hex()}


def h_pss_verify(args: dict[str, Any]) -> dict[str, Any]:
    """The verifier's answer as returned (True: "consistent", False: "inconsistent")."""
    return {"consistent": tokens.emsa_pss_verify(hex_arg(args, "msg"), hex_arg(args, "em"),
                                                 int_arg(args, "emBits"), int_arg(args, "saltLen"))}


def h_rsasp1(args: dict[str, Any]) -> dict[str, Any]:
    return {"s": str(tokens.rsasp1(_sk(args), int_arg(args, "m")))}


def h_rsavp1(args: dict[str, Any]) -> dict[str, Any]:
    return {"m": str(tokens.rsavp1(_pk(args), int_arg(args, "s")))}


def h_generate_key(args: dict[str, Any]) -> dict[str, Any]:
    sk = tokens.generate_key(int_arg(args, "modulusBits"), RandomTape(hex_arg(args, "seed"),
                                                                      args["tag"]))
    return {"p": format(sk.p, "x"), "q": format(sk.q, "x"), "n": format(sk.n, "x")}


def h_blind(args: dict[str, Any]) -> dict[str, Any]:
    blinded, inv = tokens.blind(_pk(args), hex_arg(args, "msg"), hex_arg(args, "salt"),
                                _hexint(args, "r"))
    return {"blindedMsg": blinded.hex(), "inv": format(inv, "x")}


def h_blind_sign(args: dict[str, Any]) -> dict[str, Any]:
    return {"blindSig": tokens.blind_sign(_sk(args), hex_arg(args, "blindedMsg")).hex()}


def h_finalize(args: dict[str, Any]) -> dict[str, Any]:
    sig = tokens.finalize(_pk(args), hex_arg(args, "msg"), hex_arg(args, "blindSig"),
                          _hexint(args, "inv"))
    return {"sig": sig.hex()}


def h_verify(args: dict[str, Any]) -> dict[str, Any]:
    """RSASSA-PSS-VERIFY's answer as returned."""
    return {"valid": tokens.verify(_pk(args), hex_arg(args, "msg"), hex_arg(args, "sig"))}


def h_request_token(args: dict[str, Any]) -> dict[str, Any]:
    req = tokens.request_token(_pk(args), hex_arg(args, "taskId"),
                               RandomTape(hex_arg(args, "seed"), args["tag"]))
    return {"tokenInput": req.msg.hex(), "inv": format(req.inv, "x"),
            "blindedMsg": req.blinded_msg.hex()}


def h_hpke_roundtrip(args: dict[str, Any]) -> dict[str, Any]:
    """SealBase with a fresh (unpublished) ephemeral key, then OpenBase: only the opened
    plaintext and the lengths are reproducible."""
    info, aad = hex_arg(args, "info"), hex_arg(args, "aad")
    kp = hpke.derive_key_pair(hex_arg(args, "ikm"))
    enc, ct = hpke.seal(kp.public_key, info, aad, hex_arg(args, "plaintext"))
    opened = hpke.open_(kp.private_key, enc, info, aad, ct)
    return {"opened": opened.hex(), "encLength": len(enc), "ciphertextLength": len(ct)}


# -- inputs built from the spec's own functions -------------------------------------------------------
def _craft_em(msg: bytes, em_bits: int, db: bytes, hash_salt: bytes) -> bytes:
    """An encoded message ``maskedDB || H || 0xbc`` with a chosen ``DB`` (any length, any
    content) and ``H = SHA-384(0^8 || SHA-384(msg) || hash_salt)``: the verifier's inputs that
    a correct encoder never produces (wrong PS, wrong length)."""
    em_len = (em_bits + 7) // 8
    h = hashlib.sha384(b"\x00" * 8 + hashlib.sha384(msg).digest() + hash_salt).digest()
    mask = tokens.mgf1_sha384(h, len(db))
    masked = bytearray(x ^ y for x, y in zip(db, mask, strict=True))
    masked[0] &= 0xFF >> (8 * em_len - em_bits)
    return bytes(masked) + h + b"\xbc"


def _sign_encoded(sk: tokens.PrivateKey, em: bytes) -> bytes:
    """RSASP1 of an encoded message, as a signature of the modulus' length."""
    pk = sk.public_key()
    return tokens.i2osp(tokens.rsasp1(sk, tokens.os2ip(em)), pk.modulus_len)


@cache
def _odd_keys() -> dict[int, tokens.PrivateKey]:
    """Keys whose modulus has 913 and 914 bits (emBits = 912, 0 mod 8, and 913, 1 mod 8): the
    next primes after fixed powers of two (found once, by sympy's nextprime)."""
    from sympy import nextprime

    out = {}
    for bits, (a, b) in {913: (456, 456), 914: (457, 456)}.items():
        p = int(nextprime(2**a + 2**200))
        q = int(nextprime(2**b + 2**300))
        assert (p - 1) % tokens.E and (q - 1) % tokens.E
        sk = tokens.PrivateKey(p, q)
        assert sk.n.bit_length() == bits
        out[bits] = sk
    return out


HEADER = [
    "RFC 9474 RSABSSA-SHA384-PSS-Deterministic as used by SA2's tokens (module"
    " dpspec.spec.sa2.tokens; [SA2] sec. 4.3), primitive by primitive. RFC 8017 and RFC 9474 are"
    " not among the seeds: the steps are those of the module docstring, repeated here.",
    "Integers: `x`, `m`, `s` decimal strings; RSA key parts (`modulus`, `issuerP`, `issuerQ`, `r`,"
    " `inv`, `p`, `q`, `n`) lower-case hex without padding; byte strings lower-case hex;"
    " `exponent` a decimal string. The private key (issuerP, issuerQ) has e = 65537 and"
    " d = e^-1 mod (p - 1)(q - 1).",
    "rsa.i2osp: x as `length` big-endian bytes; invalid if x < 0 or x >= 256^length.",
    "rsa.mgf1: MGF1 with SHA-384: T = SHA-384(seed || I2OSP(0, 4)) || SHA-384(seed || I2OSP(1, 4))"
    " || ...; the first `length` bytes.",
    "rsa.emsa_pss_encode (RFC 8017 9.1.1, SHA-384): emLen = ceil(emBits / 8); invalid if"
    " emLen < 48 + len(salt) + 2; H = SHA-384(0^8 || SHA-384(msg) || salt); DB = 0^(emLen -"
    " len(salt) - 50) || 0x01 || salt; maskedDB = DB xor MGF1(H, emLen - 49) with its leftmost"
    " 8 emLen - emBits bits cleared; EM = maskedDB || H || 0xbc.",
    "rsa.emsa_pss_verify (RFC 8017 9.1.2, sLen = `saltLen`): false if len(EM) != emLen, emLen <"
    " 48 + sLen + 2, the last byte is not 0xbc, or a leftmost bit of maskedDB beyond emBits is"
    " set; DB = maskedDB xor MGF1(H, emLen - 49) with those bits cleared; false unless DB ="
    " 0^(emLen - sLen - 50) || 0x01 || salt; true iff H = SHA-384(0^8 || SHA-384(msg) || salt)."
    " Some EMs are crafted with a chosen DB (a non-zero PS, one byte short of the minimum"
    " length) and a correct H: only the structural checks refuse them.",
    "rsa.rsasp1 (RFC 8017 5.2.1, by the CRT): s = m^d mod n; invalid unless 0 <= m < n."
    " rsa.rsavp1 (5.2.2): m = s^e mod n; invalid unless 0 <= s < n.",
    "rsa.generate_key (vectors only): from the random tape (seed, tag) of vectors/tape, a prime"
    " candidate is x = bits(modulusBits / 2) | 3 * 2^(modulusBits / 2 - 2) | 1 (two top bits"
    " and the low bit set); the first x with (x - 1) mod 65537 != 0 that is prime is p; q"
    " likewise, drawn on until q != p. Invalid unless modulusBits is even and >= 1024.",
    "rsa.blind (RFC 9474 4.2, with the salt and r given): invalid unless len(salt) = 48;"
    " EM = EMSA-PSS-ENCODE(msg, bitlen(n) - 1, salt), m = OS2IP(EM), invalid if gcd(m, n) != 1,"
    " invalid unless 1 <= r < n, invalid if r has no inverse mod n; blindedMsg = I2OSP(m *"
    " r^e mod n, modulus length), inv = r^-1 mod n. The modulus need not be an RSA modulus here.",
    "rsa.blind_sign (RFC 9474 4.3): invalid unless len(blindedMsg) = modulus length; s ="
    " RSASP1(sk, OS2IP(blindedMsg)); invalid ('signing failure') if RSAVP1(pk, s) != m (e.g. a"
    " key whose p is not prime); blindSig = I2OSP(s, modulus length).",
    "rsa.finalize (RFC 9474 4.4): invalid unless len(blindSig) = modulus length; sig = I2OSP("
    "OS2IP(blindSig) * inv mod n, modulus length); invalid unless rsa.verify(msg, sig).",
    "rsa.verify (RFC 8017 8.1.2, sLen = 48): false unless len(sig) = modulus length and s < n;"
    " m = RSAVP1(s); emBits = bitlen(n) - 1, emLen = ceil(emBits / 8); false if m >= 256^emLen;"
    " else EMSA-PSS-VERIFY(msg, I2OSP(m, emLen), emBits). Some signatures are made with the"
    " private key from a chosen m (m = 2^emBits, the first value too large).",
    "rsa.request_token (the device's side of sa2.token_issuance, vectors/sa2/tokens.json): from"
    " the tape (seed, tag) the nonce (32 x uniform(256)), the salt (48 x uniform(256)), then"
    " r = 1 + uniform(n - 1) until gcd(r, n) = 1; tokenInput = b'dpspec/sa2/token/v1' || taskId"
    " || nonce; (blindedMsg, inv) = rsa.blind(tokenInput, salt, r). uniform(k) draws"
    " bitlen(k - 1) bits and rejects values >= k, so a modulus 2^1023 + 1 or + 2 tells"
    " uniform(n - 1) from uniform(n) or uniform(n + 1).",
    "hpke.seal_open_fresh: SealBase (RFC 9180, DHKEM(X25519, HKDF-SHA256) / HKDF-SHA256 /"
    " AES-128-GCM) to DeriveKeyPair(ikm) with a FRESH random ephemeral key, then OpenBase:"
    " `opened` and the lengths (enc 32 bytes, ciphertext plaintext + 16) do not depend on it.",
    VECTOR_SEED_HEADER,
]


NOTES = {
    "OutOfRange": "An integer outside the primitive's range (I2OSP: [0, 256^length); RSASP1,"
                  " RSAVP1: [0, n)).",
    "EncodingError": "EMSA-PSS-ENCODE: emLen < hLen + sLen + 2.",
    "BadSize": "A byte string or a key size the step refuses (blinded message or blind"
               " signature not of the modulus length, even with a leading zero; modulusBits odd"
               " or below 1024).",
    "BadSalt": "Blind: the PSS salt is not 48 bytes.",
    "BadBlind": "Blind: r outside [1, n), or r not invertible mod n.",
    "InvalidInput": "Blind: gcd(OS2IP(EM), n) != 1.",
    "SigningFailure": "BlindSign: RSAVP1(RSASP1(m)) != m.",
    "InvalidSignature": "Finalize: the unblinded signature does not verify.",
}


class Sa2CryptoFamily(Family):
    name = "sa2-crypto"
    summary = "RSA blind-signature primitives of SA2 tokens (RFC 8017 / RFC 9474), step by step"

    def handlers(self) -> dict[str, Handler]:
        return {
            "rsa.i2osp": h_i2osp,
            "rsa.mgf1": h_mgf1,
            "rsa.emsa_pss_encode": h_pss_encode,
            "rsa.emsa_pss_verify": h_pss_verify,
            "rsa.rsasp1": h_rsasp1,
            "rsa.rsavp1": h_rsavp1,
            "rsa.generate_key": h_generate_key,
            "rsa.blind": h_blind,
            "rsa.blind_sign": h_blind_sign,
            "rsa.finalize": h_finalize,
            "rsa.verify": h_verify,
            "rsa.request_token": h_request_token,
            "hpke.seal_open_fresh": h_hpke_roundtrip,
        }

    def schemas(self) -> dict[str, dict[str, Any]]:
        def obj(props: dict[str, Any]) -> dict[str, Any]:
            return {"type": "object", "required": sorted(props), "properties": props}

        hexint: dict[str, Any] = {"type": "string", "pattern": "^[0-9a-f]+$"}
        pub = {"modulus": hexint, "exponent": DEC}
        priv = {"issuerP": hexint, "issuerQ": hexint}
        boolean: dict[str, Any] = {"type": "boolean"}
        ops = {
            "rsa.i2osp": (obj({"x": DEC, "length": DEC}), obj({"octets": HEX})),
            "rsa.mgf1": (obj({"seed": HEX, "length": DEC}), obj({"mask": HEX})),
            "rsa.emsa_pss_encode": (obj({"msg": HEX, "emBits": DEC, "salt": HEX}),
                                    obj({"em": HEX})),
            "rsa.emsa_pss_verify": (obj({"msg": HEX, "em": HEX, "emBits": DEC, "saltLen": DEC}),
                                    obj({"consistent": boolean})),
            "rsa.rsasp1": (obj({**priv, "m": DEC}), obj({"s": DEC})),
            "rsa.rsavp1": (obj({**pub, "s": DEC}), obj({"m": DEC})),
            "rsa.generate_key": (obj({"modulusBits": DEC, "seed": HEX, "tag": {"type": "string"}}),
                                 obj({"p": hexint, "q": hexint, "n": hexint})),
            "rsa.blind": (obj({**pub, "msg": HEX, "salt": HEX, "r": {"type": "string"}}),
                          obj({"blindedMsg": HEX, "inv": hexint})),
            "rsa.blind_sign": (obj({**priv, "blindedMsg": HEX}), obj({"blindSig": HEX})),
            "rsa.finalize": (obj({**pub, "msg": HEX, "blindSig": HEX, "inv": hexint}),
                             obj({"sig": HEX})),
            "rsa.verify": (obj({**pub, "msg": HEX, "sig": HEX}), obj({"valid": boolean})),
            "rsa.request_token": (obj({**pub, "taskId": HEX, "seed": HEX,
                                       "tag": {"type": "string"}}),
                                  obj({"tokenInput": HEX, "inv": hexint, "blindedMsg": HEX})),
            "hpke.seal_open_fresh": (obj({"ikm": HEX, "info": HEX, "aad": HEX, "plaintext": HEX}),
                                     obj({"opened": HEX, "encLength": COUNT,
                                          "ciphertextLength": COUNT})),
        }
        return {RSA_SCHEMA: family_schema(RSA_SCHEMA, "SA2 RSA blind-signature primitives", ops)}

    def files(self) -> list[VectorFile]:
        return [self._rsa_file()]

    def _run(self, op: str, args: dict[str, Any]) -> dict[str, Any]:
        return self.handlers()[op](args)

    def _rsa_file(self) -> VectorFile:  # noqa: C901 - one list of cases per primitive
        g = Groups(self.handlers())
        # -- I2OSP, MGF1 ---------------------------------------------------------------------------
        g.add("rsa.i2osp", [
            ("0 in one byte", {"x": "0", "length": "1"}),
            ("0 in zero bytes", {"x": "0", "length": "0"}),
            ("255 in one byte (largest)", {"x": "255", "length": "1"}),
            ("256 in two bytes", {"x": "256", "length": "2"}),
        ], [
            ("256 does not fit one byte", {"x": "256", "length": "1"}, "OutOfRange"),
            ("1 does not fit zero bytes", {"x": "1", "length": "0"}, "OutOfRange"),
            ("negative", {"x": "-1", "length": "1"}, "OutOfRange"),
        ])
        seed = vector_seed("sa2-crypto/mgf1")
        g.add("rsa.mgf1", [(f"length {n}", {"seed": seed.hex(), "length": str(n)})
                           for n in (0, 1, 47, 48, 49, 96, 97)])
        # -- EMSA-PSS ------------------------------------------------------------------------------
        salt = vector_seed("sa2-crypto/salt", 48)

        def msg_with(em_bits: int, s: bytes, want_odd_first: bool) -> bytes:
            """The first message 'pss i' whose encoding's first byte has the wanted parity."""
            i = 0
            while True:
                m = f"pss {i}".encode()
                em = tokens.emsa_pss_encode(m, em_bits, s)
                if (em[0] & 1) == want_odd_first:
                    return m
                i += 1

        enc_cases: list[tuple[str, int, bytes, bool]] = [
            ("emBits 784 = 8 * 98: the minimum length, no bit cleared, odd first byte", 784, salt, True),
            ("emBits 777: emLen 98, seven leftmost bits cleared", 777, salt, True),
            ("emBits 783: emLen 98, one bit cleared", 783, salt, False),
            ("emBits 785: emLen 99, a one-byte PS", 785, salt, True),
            ("emBits 2047 (a 2048-bit modulus)", 2047, salt, True),
            ("emBits 400 with an empty salt: emLen 50, the minimum for sLen 0", 400, b"", True),
            ("emBits 1000, a 20-byte salt", 1000, salt[:20], True),
        ]
        encoded: dict[int, tuple[bytes, bytes, bytes]] = {}
        valid = []
        for comment, bits, s, odd in enc_cases:
            m = msg_with(bits, s, odd)
            encoded[bits] = (m, s, tokens.emsa_pss_encode(m, bits, s))
            valid.append((comment, {"msg": m.hex(), "emBits": str(bits), "salt": s.hex()}))
        g.add("rsa.emsa_pss_encode", valid, [
            ("emBits 776: emLen 97 < 48 + 48 + 2", {"msg": "00", "emBits": "776",
                                                   "salt": salt.hex()}, "EncodingError"),
            ("emBits 392 with an empty salt: emLen 49 < 50", {"msg": "00", "emBits": "392",
                                                             "salt": ""}, "EncodingError"),
        ])

        def ver(comment: str, m: bytes, em: bytes, bits: int, slen: int = 48
                ) -> tuple[str, dict[str, Any]]:
            return comment, {"msg": m.hex(), "em": em.hex(), "emBits": str(bits),
                             "saltLen": str(slen)}

        vcases = []
        for bits in (784, 777, 783, 785, 2047, 1000):
            m, s, em = encoded[bits]
            vcases.append(ver(f"the encoding of emBits {bits} is consistent", m, em, bits, len(s)))
        m, s, em = encoded[400]
        vcases.append(ver("sLen 0 (no salt), emLen 50", m, em, 400, 0))
        m, s, em = encoded[2047]
        vcases += [
            ver("another message", m + b"!", em, 2047),
            ver("the leftmost bit set (beyond emBits 2047)", m, bytes([em[0] | 0x80]) + em[1:], 2047),
            ver("trailer 0xbd instead of 0xbc", m, em[:-1] + b"\xbd", 2047),
            ver("one byte longer (a leading zero)", m, b"\x00" + em, 2047),
            ver("one byte shorter", m, em[1:], 2047),
            ver("sLen 47 against a 48-byte salt", m, em, 2047, 47),
        ]
        m, s, em = encoded[784]
        vcases.append(ver("emBits 784 with a wrong emBits 776 (emLen 97)", m, em, 776))
        # crafted: emLen 97 (one short of 48 + 48 + 2), DB = 0^47 || 0x01 read as the salt
        db97 = b"\x00" * 47 + b"\x01"
        vcases.append(ver("crafted, emLen 97: DB = 0^47 || 01 with a matching H (too short)",
                          b"x", _craft_em(b"x", 776, db97, db97), 776))
        # crafted: a non-zero PS before a correct 0x01 || salt and a matching H
        vcases.append(ver("crafted, emLen 100: PS = 00 07 is not all zero", b"x",
                          _craft_em(b"x", 800, b"\x00\x07\x01" + salt, salt), 800))
        vcases.append(ver("crafted, emLen 100: 0x02 instead of the 0x01 separator", b"x",
                          _craft_em(b"x", 800, b"\x00\x00\x02" + salt, salt), 800))
        vcases.append(ver("crafted, emLen 100: a correct DB (the crafting is EMSA-PSS-ENCODE)", b"x",
                          _craft_em(b"x", 800, b"\x00\x00\x01" + salt, salt), 800))
        g.add("rsa.emsa_pss_verify", vcases)
        # -- RSASP1 / RSAVP1 -------------------------------------------------------------------------
        small = {"issuerP": format(61, "x"), "issuerQ": format(53, "x")}
        swapped = {"issuerP": format(53, "x"), "issuerQ": format(61, "x")}
        g.add("rsa.rsasp1", [
            ("m = 0", {**small, "m": "0"}),
            ("m = 1", {**small, "m": "1"}),
            ("m = 65", {**small, "m": "65"}),
            ("m = n - 1 = 3232", {**small, "m": "3232"}),
            ("p < q: m = 65", {**swapped, "m": "65"}),
            ("p < q: m = 3000", {**swapped, "m": "3000"}),
        ], [
            ("m = n", {**small, "m": "3233"}, "OutOfRange"),
            ("m = -1", {**small, "m": "-1"}, "OutOfRange"),
        ])
        pub_small = {"modulus": format(3233, "x"), "exponent": "65537"}
        g.add("rsa.rsavp1", [
            ("s = 0", {**pub_small, "s": "0"}),
            ("s = 1", {**pub_small, "s": "1"}),
            ("s = 2790", {**pub_small, "s": "2790"}),
            ("s = n - 1", {**pub_small, "s": "3232"}),
        ], [
            ("s = n", {**pub_small, "s": "3233"}, "OutOfRange"),
            ("s = -1", {**pub_small, "s": "-1"}, "OutOfRange"),
        ])
        # -- key generation ------------------------------------------------------------------------------
        kseed = vector_seed("sa2-crypto/key").hex()
        g.add("rsa.generate_key", [
            ("1024 bits, the smallest accepted", {"modulusBits": "1024", "seed": kseed,
                                                 "tag": "sa2/issuer"}),
        ], [
            (f"{b} bits", {"modulusBits": str(b), "seed": kseed, "tag": "sa2/issuer"}, "BadSize")
            for b in (1022, 1023, 1025)
        ])
        # -- Blind, BlindSign, Finalize ----------------------------------------------------------------
        sk = tokens.generate_key(1024, RandomTape(bytes.fromhex(kseed), "sa2/issuer"))
        pk = sk.public_key()
        pub = {"modulus": format(pk.n, "x"), "exponent": str(pk.e)}
        priv = {"issuerP": format(sk.p, "x"), "issuerQ": format(sk.q, "x")}
        msg = b"dpspec/sa2-crypto message"
        r = tokens.os2ip(vector_seed("sa2-crypto/r", 127)) % pk.n
        blind_in = {**pub, "msg": msg.hex(), "salt": salt.hex(), "r": format(r, "x")}
        # a modulus 3 * (2^1021 + 3): OS2IP(EM) shares the factor 3 for some messages
        n3 = 3 * (2**1021 + 3)
        pub3 = {"modulus": format(n3, "x"), "exponent": "65537"}

        def em_int(m: bytes, n: int) -> int:
            return tokens.os2ip(tokens.emsa_pss_encode(m, n.bit_length() - 1, salt))

        shared = next(f"m{i}".encode() for i in range(100) if em_int(f"m{i}".encode(), n3) % 3 == 0)
        coprime = next(f"m{i}".encode() for i in range(100)
                       if gcd(em_int(f"m{i}".encode(), n3), n3) == 1)
        g.add("rsa.blind", [
            ("the 1024-bit key", blind_in),
            ("r = 1", {**blind_in, "r": "1"}),
            ("r = n - 1", {**blind_in, "r": format(pk.n - 1, "x")}),
            ("modulus 3 * (2^1021 + 3), gcd(m, n) = 1", {**pub3, "msg": coprime.hex(),
                                                         "salt": salt.hex(), "r": "2"}),
        ], [
            ("a 47-byte salt", {**blind_in, "salt": salt[:47].hex()}, "BadSalt"),
            ("a 49-byte salt", {**blind_in, "salt": (salt + b"\x00").hex()}, "BadSalt"),
            ("r = 0", {**blind_in, "r": "0"}, "BadBlind"),
            ("r = n", {**blind_in, "r": format(pk.n, "x")}, "BadBlind"),
            ("r = n + 1 (invertible, but out of range)", {**blind_in, "r": format(pk.n + 1, "x")},
             "BadBlind"),
            ("modulus 3 * (2^1021 + 3), gcd(m, n) = 3: invalid input",
             {**pub3, "msg": shared.hex(), "salt": salt.hex(), "r": "2"}, "InvalidInput"),
            ("modulus 3 * (2^1021 + 3), r = 3 has no inverse",
             {**pub3, "msg": coprime.hex(), "salt": salt.hex(), "r": "3"}, "BadBlind"),
        ])
        blinded, inv = tokens.blind(pk, msg, salt, r)
        blind_sig = tokens.blind_sign(sk, blinded)
        composite = {"issuerP": format(9, "x"), "issuerQ": format(7, "x")}
        bad_m = next(m for m in range(2, 63)
                     if pow(tokens.rsasp1(tokens.PrivateKey(9, 7), m), 65537, 63) != m)
        g.add("rsa.blind_sign", [
            ("the blinded message of rsa.blind", {**priv, "blindedMsg": blinded.hex()}),
            ("blinded message 0", {**priv, "blindedMsg": "00" * pk.modulus_len}),
        ], [
            ("a leading zero byte too many", {**priv, "blindedMsg": "00" + blinded.hex()},
             "BadSize"),
            ("one byte short", {**priv, "blindedMsg": blinded[1:].hex()}, "BadSize"),
            (f"p = 9 is not prime: RSAVP1(RSASP1({bad_m})) != {bad_m} (signing failure)",
             {**composite, "blindedMsg": bytes([bad_m]).hex()}, "SigningFailure"),
        ])
        fin = {**pub, "msg": msg.hex(), "blindSig": blind_sig.hex(), "inv": format(inv, "x")}
        g.add("rsa.finalize", [("unblind and verify", fin)], [
            ("a leading zero byte too many (same integer)", {**fin, "blindSig": "00" + blind_sig.hex()},
             "BadSize"),
            ("another message", {**fin, "msg": (msg + b"!").hex()}, "InvalidSignature"),
            ("inv + 1", {**fin, "inv": format(inv + 1, "x")}, "InvalidSignature"),
        ])
        # -- RSASSA-PSS-VERIFY under moduli of 913 and 914 bits ------------------------------------
        sig = tokens.finalize(pk, msg, blind_sig, inv)
        vcases = [
            ("the finalized signature", {**pub, "msg": msg.hex(), "sig": sig.hex()}),
            ("another message", {**pub, "msg": (msg + b"!").hex(), "sig": sig.hex()}),
            ("a leading zero byte too many", {**pub, "msg": msg.hex(), "sig": "00" + sig.hex()}),
            ("s = n", {**pub, "msg": msg.hex(),
                       "sig": tokens.i2osp(pk.n, pk.modulus_len).hex()}),
        ]
        for bits, key in _odd_keys().items():
            kp = key.public_key()
            kpub = {"modulus": format(kp.n, "x"), "exponent": str(kp.e)}
            em_bits = bits - 1
            em = tokens.emsa_pss_encode(msg, em_bits, salt)
            good = _sign_encoded(key, em)
            vcases.append((f"{bits}-bit modulus (emBits {em_bits}): valid", {**kpub, "msg": msg.hex(),
                                                                            "sig": good.hex()}))
            if em_bits % 8 == 0:
                top = tokens.i2osp(pow(2**em_bits, key.d, kp.n), kp.modulus_len)
                vcases.append((f"{bits}-bit modulus: m = 2^{em_bits} = 256^emLen is too large",
                               {**kpub, "msg": msg.hex(), "sig": top.hex()}))
                above = tokens.i2osp(pow(2**em_bits + 12345, key.d, kp.n), kp.modulus_len)
                vcases.append((f"{bits}-bit modulus: m = 2^{em_bits} + 12345 is too large",
                               {**kpub, "msg": msg.hex(), "sig": above.hex()}))
        g.add("rsa.verify", vcases)
        # -- the device's token request with moduli next to 2^1023 ----------------------------------
        task = vector_seed("sa2/task").hex()
        rcases = []
        for off in (1,):  # an even modulus is refused: OS2IP(EM) is even (EM ends in 0xbc)
            n = 2**1023 + off
            npub = {"modulus": format(n, "x"), "exponent": "65537", "taskId": task}
            found = 0
            for i in range(200):
                inputs = {**npub, "seed": vector_seed(f"sa2-crypto/request/{off}/{i}").hex(),
                          "tag": "sa2/client/0/token"}
                try:
                    self._run("rsa.request_token", inputs)
                except ValueError:
                    continue
                rcases.append((f"modulus 2^1023 + {off}, seed {i}", inputs))
                found += 1
                if found == 2:
                    break
        rcases.append(("the 1024-bit key", {**pub, "taskId": task,
                                            "seed": vector_seed("sa2-crypto/request").hex(),
                                            "tag": "sa2/client/0/token"}))
        g.add("rsa.request_token", rcases)
        # -- HPKE with a fresh ephemeral key ------------------------------------------------------------
        g.add("hpke.seal_open_fresh", [
            ("a 5-byte plaintext", {"ikm": vector_seed("sa2-crypto/hpke").hex(), "info": "01",
                                    "aad": "02", "plaintext": "0102030405"}),
        ])
        return self.vector_file("sa2-crypto/rsa_pss.json",
                                algorithm="SA2-RSABSSA-SHA384-PSS-primitives", schema=RSA_SCHEMA,
                                header=HEADER, notes=NOTES, groups=g.groups)


FAMILY = Sa2CryptoFamily()
