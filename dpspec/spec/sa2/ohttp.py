"""The SA2 anonymizer as an Oblivious HTTP relay (RFC 9458) instead of an ideal shuffle.

Sec. 4.2 of [SA2] asks for an anonymizing layer between devices and the Leader; the ideal one is
:func:`dpspec.spec.sa2.protocol.anonymize` (drop, then a uniform shuffle). This module builds it
from Oblivious HTTP, over the HPKE suite already in use (:mod:`dpspec.spec.sa2.hpke`: DHKEM(X25519,
HKDF-SHA256), HKDF-SHA256, AES-128-GCM):

* the **Client** wraps its upload as a Binary HTTP (RFC 9292) known-length request -- ``POST``
  to the Leader's upload resource, the serialized report as content -- and encapsulates it to
  the **Gateway**'s key configuration (RFC 9458 sec. 4.3);
* the **Relay** receives ``(client, encapsulated request)`` pairs; it knows who sent each one but
  not what it says, and forwards the encapsulated requests without the senders' identities, after
  dropping some (network loss) and shuffling them (Fisher-Yates from its tape, exactly as the ideal
  anonymizer does); it remembers which client each forwarded request came from, to route the
  answer back;
* the **Gateway** (in front of the Leader) decapsulates each request, learns the report but not
  the sender, and answers with an encapsulated response (RFC 9458 sec. 4.4) carrying a Binary HTTP
  known-length response ``200``; the Client decapsulates it.

Wire formats implemented exactly as the RFCs state them:

* key configuration (RFC 9458 sec. 3.1): ``key_id (8) || kem_id (16) || public_key (Npk bytes) ||
  uint16 length of the algorithm list || (kdf_id (16) || aead_id (16))*``;
* encapsulated request (sec. 4.3): ``hdr = key_id || kem_id || kdf_id || aead_id``;
  ``info = "message/bhttp request" || 0x00 || hdr``; ``enc, sctxt = SetupBaseS(pkR, info)``;
  ``ct = sctxt.Seal("", request)``; the message is ``hdr || enc || ct``;
* encapsulated response (sec. 4.4): ``secret = context.Export("message/bhttp response",
  max(Nn, Nk))``; ``response_nonce`` = ``max(Nn, Nk)`` random bytes; ``salt = enc ||
  response_nonce``; ``prk = Extract(salt, secret)``; ``aead_key = Expand(prk, "key", Nk)``;
  ``aead_nonce = Expand(prk, "nonce", Nn)``; the message is ``response_nonce || Seal(aead_key,
  aead_nonce, "", response)``;
* Binary HTTP (RFC 9292 sec. 3): QUIC variable-length integers (RFC 9000 sec. 16); a known-length
  request is framing indicator 0, then method, scheme, authority and path, each length-prefixed,
  then the header section, content and trailer section, each length-prefixed; a known-length
  response is framing indicator 1, the final status code, then the same three sections. Trailing
  empty sections may be truncated (sec. 3.8); the encoder truncates them, the decoder accepts both.

RFC 9458's Appendix A test vector is reproduced in the tests. Coins: the Client's ephemeral key
and the Gateway's response nonce come from tapes in the simulation (:class:`OhttpAnonymizer`);
**fixed ephemeral keys and nonces are for simulations and vectors only** (as in
:mod:`dpspec.spec.sa2.hpke`).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from Crypto.Cipher import AES
from pyhpke.exceptions import PyHPKEError
from pyhpke.kem_key import KEMKeyPair

from dpspec.spec.sa2 import hpke
from dpspec.spec.sa2.ideal import Sa2Error
from dpspec.spec.samplers import bernoulli
from dpspec.spec.tape import RandomTape

REQUEST_LABEL = b"message/bhttp request"
RESPONSE_LABEL = b"message/bhttp response"
NK, NN = 16, 12  # AES-128-GCM key and nonce sizes
NPK = 32  # X25519 public key
RESPONSE_NONCE_LEN = max(NK, NN)
UPLOAD_PATH = "/sa2/upload"

#: Tape tags of the OHTTP anonymizer in a simulation ({k}: position in the order sent).
TAGS = {
    "setup": "sa2/ohttp/setup",
    "client": "sa2/ohttp/client/{k}",
    "gateway": "sa2/ohttp/gateway/{k}",
}


class OhttpError(Sa2Error):
    """A malformed or undecryptable OHTTP or Binary HTTP message."""


# -- QUIC variable-length integers (RFC 9000 sec. 16) --------------------------------------------
def encode_varint(v: int) -> bytes:
    if v < 0 or v >= 1 << 62:
        raise OhttpError(f"varint out of range: {v}")
    if v < 1 << 6:
        return v.to_bytes(1, "big")
    if v < 1 << 14:
        return (v | 0x4000).to_bytes(2, "big")
    if v < 1 << 30:
        return (v | 0x8000_0000).to_bytes(4, "big")
    return (v | 0xC000_0000_0000_0000).to_bytes(8, "big")


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data, self.pos = data, 0

    def done(self) -> bool:
        return self.pos == len(self.data)

    def take(self, n: int) -> bytes:
        if self.pos + n > len(self.data):
            raise OhttpError("truncated message")
        out = self.data[self.pos:self.pos + n]
        self.pos += n
        return out

    def varint(self) -> int:
        first = self.take(1)[0]
        size = 1 << (first >> 6)
        rest = self.take(size - 1)
        return int.from_bytes(bytes([first & 0x3F]) + rest, "big")

    def prefixed(self) -> bytes:
        return self.take(self.varint())


def _prefixed(b: bytes) -> bytes:
    return encode_varint(len(b)) + b


# -- Binary HTTP, known-length messages (RFC 9292 sec. 3) ---------------------------------------
Fields = tuple[tuple[bytes, bytes], ...]


def _encode_fields(fields: Fields) -> bytes:
    body = b"".join(_prefixed(n) + _prefixed(v) for n, v in fields)
    return _prefixed(body)


def _decode_fields(r: _Reader) -> Fields:
    if r.done():  # truncated (sec. 3.8)
        return ()
    inner = _Reader(r.prefixed())
    out = []
    while not inner.done():
        out.append((inner.prefixed(), inner.prefixed()))
    return tuple(out)


def _encode_tail(headers: Fields, content: bytes, trailers: Fields) -> bytes:
    parts = [_encode_fields(headers), _prefixed(content), _encode_fields(trailers)]
    while parts and parts[-1] == b"\x00":  # empty trailing sections are truncated
        parts.pop()
    return b"".join(parts)


def _decode_tail(r: _Reader, what: str) -> tuple[Fields, bytes, Fields]:
    """The inverse of :func:`_encode_tail`: header fields, content, trailer fields, then only
    zero padding (RFC 9292 sec. 3.8)."""
    headers = _decode_fields(r)
    content = b"" if r.done() else r.prefixed()
    trailers = _decode_fields(r)
    if not r.done() and any(r.take(len(r.data) - r.pos)):
        raise OhttpError(f"trailing bytes after the {what} (only zero padding is allowed)")
    return headers, content, trailers


@dataclass(frozen=True)
class BhttpRequest:
    method: bytes
    scheme: bytes
    authority: bytes
    path: bytes
    headers: Fields = ()
    content: bytes = b""
    trailers: Fields = ()

    def encode(self) -> bytes:
        return (encode_varint(0) + _prefixed(self.method) + _prefixed(self.scheme)
                + _prefixed(self.authority) + _prefixed(self.path)
                + _encode_tail(self.headers, self.content, self.trailers))

    @staticmethod
    def decode(data: bytes) -> BhttpRequest:
        r = _Reader(data)
        if r.varint() != 0:
            raise OhttpError("not a known-length request (framing indicator 0)")
        method, scheme, authority, path = r.prefixed(), r.prefixed(), r.prefixed(), r.prefixed()
        return BhttpRequest(method, scheme, authority, path, *_decode_tail(r, "request"))


@dataclass(frozen=True)
class BhttpResponse:
    status: int
    headers: Fields = ()
    content: bytes = b""
    trailers: Fields = ()

    def encode(self) -> bytes:
        if not 200 <= self.status <= 599:
            raise OhttpError("a final response has a status in [200, 599]")
        return (encode_varint(1) + encode_varint(self.status)
                + _encode_tail(self.headers, self.content, self.trailers))

    @staticmethod
    def decode(data: bytes) -> BhttpResponse:
        r = _Reader(data)
        if r.varint() != 1:
            raise OhttpError("not a known-length response (framing indicator 1)")
        status = r.varint()
        if not 200 <= status <= 599:  # informational (1xx) responses are not used here
            raise OhttpError(f"unexpected status {status}")
        return BhttpResponse(status, *_decode_tail(r, "response"))


# -- key configuration (RFC 9458 sec. 3.1) --------------------------------------------------------
@dataclass(frozen=True)
class KeyConfig:
    key_id: int
    kem_id: int
    public_key: bytes
    algorithms: tuple[tuple[int, int], ...]  # (kdf_id, aead_id)

    def encode(self) -> bytes:
        algs = b"".join(k.to_bytes(2, "big") + a.to_bytes(2, "big") for k, a in self.algorithms)
        return (bytes([self.key_id]) + self.kem_id.to_bytes(2, "big") + self.public_key
                + len(algs).to_bytes(2, "big") + algs)

    @staticmethod
    def decode(data: bytes) -> KeyConfig:
        r = _Reader(data)
        key_id = r.take(1)[0]
        kem_id = int.from_bytes(r.take(2), "big")
        if kem_id != hpke.KEM_ID:
            raise OhttpError(f"unsupported KEM 0x{kem_id:04x}")
        pk = r.take(NPK)
        length = int.from_bytes(r.take(2), "big")
        if length == 0 or length % 4:
            raise OhttpError("the algorithm list must hold at least one (KDF, AEAD) pair")
        inner = _Reader(r.take(length))
        if not r.done():
            raise OhttpError("trailing bytes after the key configuration")
        algs = []
        while not inner.done():
            algs.append((int.from_bytes(inner.take(2), "big"), int.from_bytes(inner.take(2), "big")))
        return KeyConfig(key_id, kem_id, pk, tuple(algs))

    def supports_suite(self) -> bool:
        return (hpke.KDF_ID, hpke.AEAD_ID) in self.algorithms


def _header(key_id: int) -> bytes:
    return (bytes([key_id]) + hpke.KEM_ID.to_bytes(2, "big") + hpke.KDF_ID.to_bytes(2, "big")
            + hpke.AEAD_ID.to_bytes(2, "big"))


def request_info(key_id: int) -> bytes:
    return REQUEST_LABEL + b"\x00" + _header(key_id)


# -- encapsulation (RFC 9458 sec. 4.3, 4.4) -----------------------------------------------------
@dataclass
class ClientContext:
    """What the Client keeps to read the response: ``enc`` and the HPKE sender context."""

    enc: bytes
    context: Any = field(repr=False)


def encapsulate_request(config: KeyConfig, request: bytes, ephemeral_sk: bytes | None = None
                        ) -> tuple[bytes, ClientContext]:
    """``hdr || enc || ct`` (sec. 4.3). ``ephemeral_sk`` fixes the sender's ephemeral X25519
    private key: FOR VECTORS AND SIMULATIONS ONLY."""
    if not config.supports_suite():
        raise OhttpError("the key configuration does not offer HKDF-SHA256 / AES-128-GCM")
    try:
        pkr = hpke.SUITE.kem.deserialize_public_key(config.public_key)
    except (PyHPKEError, ValueError) as exc:
        raise OhttpError("bad gateway public key") from exc
    eks = None
    if ephemeral_sk is not None:
        from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

        if len(ephemeral_sk) != hpke.NSK:
            raise OhttpError("the ephemeral private key must have 32 bytes")
        pk = X25519PrivateKey.from_private_bytes(ephemeral_sk).public_key().public_bytes_raw()
        eks = KEMKeyPair(hpke.SUITE.kem.deserialize_private_key(ephemeral_sk),
                         hpke.SUITE.kem.deserialize_public_key(pk))
    enc, ctx = hpke.SUITE.create_sender_context(pkr, request_info(config.key_id), eks=eks)
    ct = ctx.seal(request, b"")
    return _header(config.key_id) + enc + ct, ClientContext(enc, ctx)


@dataclass
class GatewayContext:
    enc: bytes
    context: Any = field(repr=False)


def decapsulate_request(private_key: bytes, config: KeyConfig, message: bytes
                        ) -> tuple[bytes, GatewayContext]:
    """Check the header against the configuration, open the request (sec. 4.3)."""
    hdr_len = 7
    if len(message) < hdr_len + NPK + hpke.NT:
        raise OhttpError("encapsulated request too short")
    hdr = message[:hdr_len]
    if hdr != _header(config.key_id):
        raise OhttpError("unknown key id or algorithms")
    enc, ct = message[hdr_len:hdr_len + NPK], message[hdr_len + NPK:]
    try:
        skr = hpke.SUITE.kem.deserialize_private_key(private_key)
        ctx = hpke.SUITE.create_recipient_context(enc, skr, request_info(config.key_id))
        request: bytes = ctx.open(ct, b"")
    except (PyHPKEError, ValueError) as exc:
        raise OhttpError("request decryption failed") from exc
    return request, GatewayContext(enc, ctx)


def _hkdf_extract(salt: bytes, ikm: bytes) -> bytes:
    return hmac.new(salt, ikm, hashlib.sha256).digest()


def _hkdf_expand(prk: bytes, info: bytes, length: int) -> bytes:
    out, block, i = b"", b"", 1
    while len(out) < length:
        block = hmac.new(prk, block + info + bytes([i]), hashlib.sha256).digest()
        out += block
        i += 1
    return out[:length]


@dataclass(frozen=True)
class ResponseKeys:
    secret: bytes
    prk: bytes
    key: bytes
    nonce: bytes


def response_keys(context: Any, enc: bytes, response_nonce: bytes) -> ResponseKeys:
    """The key schedule of sec. 4.4 from the HPKE context (either side's)."""
    secret: bytes = context.export(RESPONSE_LABEL, RESPONSE_NONCE_LEN)
    prk = _hkdf_extract(enc + response_nonce, secret)
    return ResponseKeys(secret, prk, _hkdf_expand(prk, b"key", NK), _hkdf_expand(prk, b"nonce", NN))


def encapsulate_response(gw: GatewayContext, response: bytes, response_nonce: bytes) -> bytes:
    """``response_nonce || ct`` (sec. 4.4); ``response_nonce`` must be fresh random bytes in
    production (a tape in simulations)."""
    if len(response_nonce) != RESPONSE_NONCE_LEN:
        raise OhttpError(f"response_nonce must have {RESPONSE_NONCE_LEN} bytes")
    keys = response_keys(gw.context, gw.enc, response_nonce)
    cipher = AES.new(keys.key, AES.MODE_GCM, nonce=keys.nonce)
    ct, tag = cipher.encrypt_and_digest(response)
    return response_nonce + ct + tag


def decapsulate_response(client: ClientContext, message: bytes) -> bytes:
    if len(message) < RESPONSE_NONCE_LEN + hpke.NT:
        raise OhttpError("encapsulated response too short")
    nonce, body = message[:RESPONSE_NONCE_LEN], message[RESPONSE_NONCE_LEN:]
    keys = response_keys(client.context, client.enc, nonce)
    cipher = AES.new(keys.key, AES.MODE_GCM, nonce=keys.nonce)
    try:
        out: bytes = cipher.decrypt_and_verify(body[:-hpke.NT], body[-hpke.NT:])
    except ValueError as exc:
        raise OhttpError("response decryption failed") from exc
    return out


# -- the SA2 report as an upload request ----------------------------------------------------------
def encode_report(report: Any) -> bytes:
    """A :class:`dpspec.spec.sa2.protocol.Report` as bytes: its seven fields in declaration order,
    each with a 4-byte big-endian length."""
    parts = (report.nonce, report.public_share, report.token, report.leader_enc, report.leader_ct,
             report.helper_enc, report.helper_ct)
    return b"".join(len(p).to_bytes(4, "big") + p for p in parts)


def decode_report(data: bytes) -> Any:
    from dpspec.spec.sa2.protocol import Report

    r = _Reader(data)
    parts = [r.take(int.from_bytes(r.take(4), "big")) for _ in range(7)]
    if not r.done():
        raise OhttpError("trailing bytes after the report")
    return Report(*parts)


def upload_request(report: Any, authority: bytes = b"leader.example") -> BhttpRequest:
    return BhttpRequest(b"POST", b"https", authority, UPLOAD_PATH.encode(),
                        ((b"content-type", b"application/dpspec-sa2-report"),),
                        encode_report(report))


# -- the simulation's anonymizer ------------------------------------------------------------------
def _tape_bytes(tape: RandomTape, n: int) -> bytes:
    return bytes(tape.uniform(256) for _ in range(n))


@dataclass
class RelayLog:
    """What each party of one run saw (for the tests' checks on who learns what)."""

    relay_saw: list[tuple[str, bytes]] = field(default_factory=list)   # (client, encapsulated)
    gateway_saw: list[bytes] = field(default_factory=list)             # encapsulated requests
    responses_ok: int = 0


@dataclass
class OhttpAnonymizer:
    """A callable with the signature of :func:`dpspec.spec.sa2.protocol.anonymize` that runs the
    Client -> Relay -> Gateway path (module docstring). The Gateway's key pair is
    ``DeriveKeyPair`` of 32 bytes from ``RandomTape(seed, "sa2/ohttp/setup")``, key id 1; the
    k-th report sent is encapsulated with the ephemeral key ``DeriveKeyPair`` of 32 bytes from
    ``"sa2/ohttp/client/{k}"``, and answered with a response nonce of 16 bytes from
    ``"sa2/ohttp/gateway/{k}"``. The Relay drops and shuffles exactly as ``anonymize`` does (one
    ``bernoulli(drop_rate)`` per request in order from the network tape, then Fisher-Yates from
    the shuffle tape), so on the same tapes the Gateway delivers the same reports in the same
    order as the ideal anonymizer."""

    seed: bytes
    log: RelayLog = field(default_factory=RelayLog)

    def __post_init__(self) -> None:
        kp = hpke.derive_key_pair(_tape_bytes(RandomTape(self.seed, TAGS["setup"]), 32))
        self.gateway_sk = kp.private_key
        self.config = KeyConfig(1, hpke.KEM_ID, kp.public_key, ((hpke.KDF_ID, hpke.AEAD_ID),))

    def __call__(self, reports: Sequence[Any], drop_rate: Fraction, network: RandomTape,
                 shuffle: RandomTape) -> tuple[list[Any], list[bool]]:
        config = KeyConfig.decode(self.config.encode())  # what a Client fetches
        # Clients: encapsulate their uploads
        sent: list[tuple[str, bytes, ClientContext]] = []
        for k, rep in enumerate(reports):
            eph = hpke.derive_key_pair(
                _tape_bytes(RandomTape(self.seed, TAGS["client"].format(k=k)), 32))
            msg, ctx = encapsulate_request(config, upload_request(rep).encode(), eph.private_key)
            sent.append((f"client-{k}", msg, ctx))
        # Relay: sees (client, ciphertext); drops, shuffles, forwards ciphertexts only
        self.log.relay_saw = [(who, msg) for who, msg, _ in sent]
        dropped = [bernoulli(network, drop_rate) == 1 for _ in sent]
        queue = [k for k, d in enumerate(dropped) if not d]
        for j in range(len(queue) - 1, 0, -1):
            i = shuffle.uniform(j + 1)
            queue[j], queue[i] = queue[i], queue[j]
        forwarded = [sent[k][1] for k in queue]
        # Gateway: decapsulates, hands the report to the Leader, answers 200
        self.log.gateway_saw = list(forwarded)
        delivered, answers = [], []
        for pos, msg in enumerate(forwarded):
            request, gw = decapsulate_request(self.gateway_sk, self.config, msg)
            req = BhttpRequest.decode(request)
            if req.method != b"POST" or req.path != UPLOAD_PATH.encode():
                raise OhttpError("unexpected upload request")
            delivered.append(decode_report(req.content))
            nonce = _tape_bytes(RandomTape(self.seed, TAGS["gateway"].format(k=queue[pos])),
                                RESPONSE_NONCE_LEN)
            answers.append(encapsulate_response(gw, BhttpResponse(200).encode(), nonce))
        # Relay routes each answer back to its client; the client reads it
        for pos, ans in enumerate(answers):
            ctx = sent[queue[pos]][2]
            if BhttpResponse.decode(decapsulate_response(ctx, ans)).status == 200:
                self.log.responses_ok += 1
        return delivered, dropped
