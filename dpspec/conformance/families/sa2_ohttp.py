"""Vector family ``sa2-ohttp``: the SA2 anonymizer as an Oblivious HTTP relay (dpspec.spec.sa2.ohttp).

RFC 9458 (Oblivious HTTP) and RFC 9292 (Binary HTTP) are not among the seeds; what is implemented
is stated in the module docstring of :mod:`dpspec.spec.sa2.ohttp` and repeated in the files'
headers, so an implementer can check every byte from the files alone.

Files:

* ``sa2-ohttp/binary_http.json``: QUIC variable-length integers (RFC 9000 sec. 16) and Binary
  HTTP known-length requests/responses (RFC 9292 sec. 3), encoding and decoding, with every
  decoding failure as an invalid case.
* ``sa2-ohttp/key_config.json``: key configurations (RFC 9458 sec. 3.1): derivation of the
  Gateway's key, encoding, decoding and each decoding check.
* ``sa2-ohttp/encapsulation.json``: request and response encapsulation (RFC 9458 sec. 4.3, 4.4)
  with explicit ephemeral keys and response nonces; every intermediate value (info, enc, the
  exported secret, salt, prk, AEAD key and nonce); every authentication failure.
* ``sa2-ohttp/relay.json``: the SA2 report as an upload request and the relay of
  :class:`dpspec.spec.sa2.ohttp.OhttpAnonymizer` (encapsulate, drop, shuffle, decapsulate,
  answer) on synthetic reports.
* ``sa2-ohttp/query.json``: the query bucketing rules of a recipe (dpspec.spec.sa2.query;
  [PFS] sec. 4.1 and App. B, [SA2] sec. 4.1).
* ``sa2-ohttp/collections.json``: whole collections over the relay, with periodic
  sub-aggregation (dpspec.spec.sa2.periodic; [SA2] sec. 4.7/4.8) and query records.
* ``sa2-ohttp/recipe_structure.json``: the parts of SA2 the ``sa2`` family leaves out: every
  refusal code of the client's structural recipe checks, the local randomizers' parsing and
  weight bound, RFC 9474 blind signatures step by step with each step's checks, and the ideal
  functionality's integer / modular sums and donation wait.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from dpspec.conformance.families._groups import Groups
from dpspec.conformance.jsonargs import COUNT, DEC, HEX, RAT, hex_arg, int_arg, parse_int
from dpspec.conformance.vectors import (
    VECTOR_SEED_HEADER,
    Family,
    Handler,
    InvalidCase,
    TestNumberer,
    VectorFile,
    family_schema,
    invalid_tests,
    test_entry,
    vector_seed,
)
from dpspec.spec.sa2 import fl, hpke, ideal, ohttp, protocol, tokens
from dpspec.spec.sa2.query import Query
from dpspec.spec.sa2.randomizers import Randomizer
from dpspec.spec.tape import RandomTape

BHTTP_SCHEMA = "sa2_ohttp_bhttp-v1.json"
KEYCONFIG_SCHEMA = "sa2_ohttp_keyconfig-v1.json"
ENCAP_SCHEMA = "sa2_ohttp_encapsulation-v1.json"
RELAY_SCHEMA = "sa2_ohttp_relay-v1.json"
QUERY_SCHEMA = "sa2_query-v1.json"
COLLECTION_SCHEMA = "sa2_ohttp_collection-v1.json"
RECIPE_SCHEMA = "sa2_recipe_structure-v1.json"

_FIELDS: dict[str, Any] = {"type": "array",
                           "items": {"type": "array", "items": HEX, "minItems": 2, "maxItems": 2}}
_HEXES: dict[str, Any] = {"type": "array", "items": HEX}


def _fields_arg(args: dict[str, Any], key: str) -> ohttp.Fields:
    raw = args.get(key, [])
    if not isinstance(raw, list) or not all(isinstance(f, list) and len(f) == 2 for f in raw):
        raise ValueError(f"{key} must be a list of [name, value] hex pairs")
    return tuple((bytes.fromhex(n), bytes.fromhex(v)) for n, v in raw)


def _fields_out(fields: ohttp.Fields) -> list[list[str]]:
    return [[n.hex(), v.hex()] for n, v in fields]


# -- reference handlers ---------------------------------------------------------------------------
def h_varint_encode(args: dict[str, Any]) -> dict[str, Any]:
    return {"encoded": ohttp.encode_varint(int_arg(args, "value")).hex()}


def h_varint_decode(args: dict[str, Any]) -> dict[str, Any]:
    r = ohttp._Reader(hex_arg(args, "encoded"))
    value = r.varint()
    return {"value": str(value), "length": r.pos}


def h_request_encode(args: dict[str, Any]) -> dict[str, Any]:
    req = ohttp.BhttpRequest(hex_arg(args, "method"), hex_arg(args, "scheme"),
                             hex_arg(args, "authority"), hex_arg(args, "path"),
                             _fields_arg(args, "headers"), hex_arg(args, "content"),
                             _fields_arg(args, "trailers"))
    return {"encoded": req.encode().hex()}


def h_request_decode(args: dict[str, Any]) -> dict[str, Any]:
    req = ohttp.BhttpRequest.decode(hex_arg(args, "message"))
    return {"method": req.method.hex(), "scheme": req.scheme.hex(),
            "authority": req.authority.hex(), "path": req.path.hex(),
            "headers": _fields_out(req.headers), "content": req.content.hex(),
            "trailers": _fields_out(req.trailers), "reencoded": req.encode().hex()}


def h_response_encode(args: dict[str, Any]) -> dict[str, Any]:
    resp = ohttp.BhttpResponse(int_arg(args, "status"), _fields_arg(args, "headers"),
                               hex_arg(args, "content"), _fields_arg(args, "trailers"))
    return {"encoded": resp.encode().hex()}


def h_response_decode(args: dict[str, Any]) -> dict[str, Any]:
    resp = ohttp.BhttpResponse.decode(hex_arg(args, "message"))
    return {"status": str(resp.status), "headers": _fields_out(resp.headers),
            "content": resp.content.hex(), "trailers": _fields_out(resp.trailers),
            "reencoded": resp.encode().hex()}


def h_response_decode_only(args: dict[str, Any]) -> dict[str, Any]:
    """BhttpResponse.decode alone (ohttp.bhttp_response_decode also re-encodes, whose own status
    check would refuse what a lax decoder let through)."""
    resp = ohttp.BhttpResponse.decode(hex_arg(args, "message"))
    return {"status": str(resp.status), "headers": _fields_out(resp.headers),
            "content": resp.content.hex(), "trailers": _fields_out(resp.trailers)}


def h_key_config_derive(args: dict[str, Any]) -> dict[str, Any]:
    kp = hpke.derive_key_pair(hex_arg(args, "ikm"))
    key_id = int_arg(args, "keyId")
    if not 0 <= key_id <= 255:
        raise ValueError("keyId is one byte")
    kc = ohttp.KeyConfig(key_id, hpke.KEM_ID, kp.public_key, ((hpke.KDF_ID, hpke.AEAD_ID),))
    return {"privateKey": kp.private_key.hex(), "publicKey": kp.public_key.hex(),
            "keyConfig": kc.encode().hex()}


def h_key_config_decode(args: dict[str, Any]) -> dict[str, Any]:
    kc = ohttp.KeyConfig.decode(hex_arg(args, "keyConfig"))
    return {"keyId": kc.key_id, "kemId": kc.kem_id, "publicKey": kc.public_key.hex(),
            "algorithms": [[k, a] for k, a in kc.algorithms],
            "supportsSuite": kc.supports_suite(), "reencoded": kc.encode().hex()}


def h_encapsulate_request(args: dict[str, Any]) -> dict[str, Any]:
    kc = ohttp.KeyConfig.decode(hex_arg(args, "keyConfig"))
    msg, ctx = ohttp.encapsulate_request(kc, hex_arg(args, "request"),
                                         hex_arg(args, "ephemeralSk"))
    return {"info": ohttp.request_info(kc.key_id).hex(), "enc": ctx.enc.hex(),
            "encRequest": msg.hex()}


def h_decapsulate_request(args: dict[str, Any]) -> dict[str, Any]:
    kc = ohttp.KeyConfig.decode(hex_arg(args, "keyConfig"))
    request, gw = ohttp.decapsulate_request(hex_arg(args, "privateKey"), kc,
                                            hex_arg(args, "encRequest"))
    return {"request": request.hex(), "enc": gw.enc.hex()}


def h_encapsulate_response(args: dict[str, Any]) -> dict[str, Any]:
    """The Gateway: open the request, then derive the response keys and seal the response."""
    kc = ohttp.KeyConfig.decode(hex_arg(args, "keyConfig"))
    _, gw = ohttp.decapsulate_request(hex_arg(args, "privateKey"), kc,
                                      hex_arg(args, "encRequest"))
    nonce = hex_arg(args, "responseNonce")
    msg = ohttp.encapsulate_response(gw, hex_arg(args, "response"), nonce)
    keys = ohttp.response_keys(gw.context, gw.enc, nonce)
    return {"secret": keys.secret.hex(), "salt": (gw.enc + nonce).hex(), "prk": keys.prk.hex(),
            "aeadKey": keys.key.hex(), "aeadNonce": keys.nonce.hex(), "encResponse": msg.hex()}


def h_decapsulate_response(args: dict[str, Any]) -> dict[str, Any]:
    """The Client: its context is the one of its request (re-made from ``ephemeralSk``)."""
    kc = ohttp.KeyConfig.decode(hex_arg(args, "keyConfig"))
    _, client = ohttp.encapsulate_request(kc, hex_arg(args, "request"),
                                          hex_arg(args, "ephemeralSk"))
    return {"response": ohttp.decapsulate_response(client, hex_arg(args, "encResponse")).hex()}


_REPORT_FIELDS = ("nonce", "publicShare", "token", "leaderEnc", "leaderCt", "helperEnc",
                  "helperCt")


def h_roundtrip_fresh(args: dict[str, Any]) -> dict[str, Any]:
    """Encapsulate ``request`` with a FRESH random ephemeral key (the production path), then
    decapsulate it with ``privateKey``: only the opened request and the length are reproducible."""
    kc = ohttp.KeyConfig.decode(hex_arg(args, "keyConfig"))
    msg, _ = ohttp.encapsulate_request(kc, hex_arg(args, "request"))
    request, _ = ohttp.decapsulate_request(hex_arg(args, "privateKey"), kc, msg)
    return {"request": request.hex(), "encRequestLength": len(msg)}


def h_hpke(args: dict[str, Any]) -> dict[str, Any]:
    """The input-share HPKE of dpspec.spec.sa2.hpke: SealBase to ``publicKey`` with the ephemeral
    key DeriveKeyPair(``ephemeralIkm``), then OpenBase with ``privateKey`` of ``openEnc`` /
    ``openCiphertext`` (default: what was sealed)."""
    info, aad = hex_arg(args, "info"), hex_arg(args, "aad")
    enc, ct = hpke.seal(hex_arg(args, "publicKey"), info, aad, hex_arg(args, "plaintext"),
                        hex_arg(args, "ephemeralIkm"))
    open_enc = hex_arg(args, "openEnc") if "openEnc" in args else enc
    open_ct = hex_arg(args, "openCiphertext") if "openCiphertext" in args else ct
    opened = hpke.open_(hex_arg(args, "privateKey"), open_enc, info, aad, open_ct)
    return {"enc": enc.hex(), "ciphertext": ct.hex(), "opened": opened.hex()}


def h_report_decode(args: dict[str, Any]) -> dict[str, Any]:
    rep = ohttp.decode_report(hex_arg(args, "report"))
    values = (rep.nonce, rep.public_share, rep.token, rep.leader_enc, rep.leader_ct,
              rep.helper_enc, rep.helper_ct)
    out: dict[str, Any] = {k: v.hex() for k, v in zip(_REPORT_FIELDS, values, strict=True)}
    out["reencoded"] = ohttp.encode_report(rep).hex()
    out["uploadRequest"] = ohttp.upload_request(rep).encode().hex()
    return out


def h_relay(args: dict[str, Any]) -> dict[str, Any]:
    seed = hex_arg(args, "seed")
    reports = [ohttp.decode_report(bytes.fromhex(r)) for r in args["reports"]]
    relay = ohttp.OhttpAnonymizer(seed)
    delivered, dropped = relay(reports, ideal.parse_rate(args["dropRate"], "dropRate"),
                               RandomTape(seed, protocol.TAGS["network"]),
                               RandomTape(seed, protocol.TAGS["shuffle"]))
    sent = [m for _, m in relay.log.relay_saw]
    return {"gatewayPrivateKey": relay.gateway_sk.hex(), "keyConfig": relay.config.encode().hex(),
            "encRequests": [m.hex() for m in sent],
            "dropped": dropped,
            "forwarded": [sent.index(m) for m in relay.log.gateway_saw],
            "delivered": [ohttp.encode_report(r).hex() for r in delivered],
            "responsesOk": relay.log.responses_ok}


def h_collection(args: dict[str, Any]) -> dict[str, Any]:
    """One SA2 collection (as op sa2.collection of the sa2 family; device data are bucket indices
    or records for the recipe's query) with the OHTTP relay as the anonymizer (if ``ohttp``) and
    the aggregators working in periods of ``period`` reports (null: one batch)."""
    dep = protocol.Deployment(
        tokens.PrivateKey(int(args["issuerP"], 16), int(args["issuerQ"], 16)),
        hex_arg(args, "leaderHpkeIkm"), hex_arg(args, "helperHpkeIkm"),
        hex_arg(args, "verifyKey"))
    recipe = protocol.check_recipe_structure(args["recipe"])
    vdaf = protocol.build_vdaf(recipe)
    period = args["period"]
    if period is not None and (isinstance(period, bool) or not isinstance(period, int)):
        raise ValueError("period must be an integer or null")
    data = [x if isinstance(x, dict) else parse_int(x, "data") for x in args["data"]]
    times = None
    if recipe.window is not None:
        times = protocol.evenly_spaced(recipe.window[0],
                                       ideal.exact(args["arrivalSpacing"], "arrivalSpacing"))
    seed = hex_arg(args, "seed")
    relay = ohttp.OhttpAnonymizer(seed) if args["ohttp"] else None
    trace: list[dict[str, str]] = []
    res = protocol.run_collection(recipe, dep, vdaf, data, seed,
                                  malicious=int_arg(args, "malicious"),
                                  drop_rate=ideal.parse_rate(args["dropRate"], "dropRate"),
                                  trace=trace, arrival=times, anonymizer=relay, period=period)
    periods: list[list[int]] = []
    if period is not None:  # again, watching each period close (periodic.aggregate_in_periods)
        from dpspec.spec.sa2.periodic import PeriodicAggregation, aggregate_in_periods, state_bytes

        raw = {b for rep in res.delivered
               for b in (rep.leader_enc, rep.leader_ct, rep.helper_enc, rep.helper_ct)}

        def closed(agg: PeriodicAggregation) -> None:
            left = set(state_bytes(agg)) & raw
            periods.append([agg.periods_closed, len(agg.verdicts), agg.leader.accepted,
                            len(left)])

        roles = ((protocol.ROLE_LEADER, dep.leader_hpke.private_key),
                 (protocol.ROLE_HELPER, dep.helper_hpke.private_key))
        leader, helper = (protocol.Aggregator(role, recipe.task_config(dep.verify_key), key, vdaf)
                          for role, key in roles)
        again = aggregate_in_periods(leader, helper, res.delivered, period,
                                     times=None if times is None else times(len(res.delivered)),
                                     on_close=closed)
        if again.verdicts != res.outcome.verdicts:  # pragma: no cover - a spec bug
            raise RuntimeError("periodic aggregation is not deterministic")
    arrival: list[int] = []  # the relay delivers decoded copies: match by value, first unused
    for rep in res.delivered:
        arrival.append(next(i for i, r in enumerate(res.reports)
                            if r == rep and i not in arrival))
    return {
        "reports": trace,
        "encRequests": [] if relay is None else [m.hex() for _, m in relay.log.relay_saw],
        "responsesOk": 0 if relay is None else relay.log.responses_ok,
        "dropped": res.drop_flags,
        "arrival": arrival,
        "verdicts": res.outcome.verdicts,
        "accepted": res.outcome.accepted,
        "aggregated": res.outcome.aggregated,
        "rejected": dict(sorted(res.outcome.rejected.items())),
        "release": None if res.release is None else [str(x) for x in res.release],
        "periods": periods,
    }


def h_recipe_structure(args: dict[str, Any]) -> dict[str, Any]:
    """The client's structural checks on a recipe (check_recipe_structure): its refusal code, or
    what it read from an accepted recipe."""
    try:
        r = protocol.check_recipe_structure(args["recipe"])
    except protocol.RecipeRefused as exc:
        return {"verdict": exc.reason}
    return {"verdict": "accepted", "B": str(r.B), "q": str(r.q), "dummyRate": str(r.dummy_rate),
            "population": r.population, "sampling": r.sampling,
            "window": None if r.window is None else [str(r.window[0]), str(r.window[1])],
            "rounds": r.rounds, "k": r.randomizer.k, "maxReports": r.max_reports(),
            "vdaf": protocol.build_vdaf(r).__class__.__name__}


def h_randomizer(args: dict[str, Any]) -> dict[str, Any]:
    """A local randomizer (dpspec.spec.sa2.randomizers) read from JSON, applied to ``inputs``
    with the tape (seed, tag) in turn."""
    r = Randomizer.from_json(args["randomizer"])
    tape = RandomTape(hex_arg(args, "seed"), args["tag"])
    reports, decoded = [], []
    for x in args["inputs"]:
        m = r.apply(x, tape)
        reports.append(None if m is None else (m if isinstance(m, int) else [int(b) for b in m]))
        decoded.append(None if m is None else list(r.dec(m)))
    zero = r.zero_measurement()
    rappor = r.name == "rappor"
    return {"normalized": r.to_json(), "reports": reports, "decoded": decoded,
            "zero": zero if zero is None or isinstance(zero, int) else [int(b) for b in zero],
            "maxWeight": r.max_weight() if rappor else None,
            "overweightProbability": str(r.overweight_probability()) if rappor else None,
            "bitsConsumed": tape.bits_consumed}


def h_blind_signature(args: dict[str, Any]) -> dict[str, Any]:
    """RFC 9474 RSABSSA-SHA384-PSS-Deterministic step by step (dpspec.spec.sa2.tokens): Blind with
    the given salt and r, BlindSign, Finalize, Verify; ``blindedMsg``, ``blindSig`` and ``sig``,
    when given, replace what the previous step produced (to reach each step's checks)."""
    sk = tokens.PrivateKey(int(args["issuerP"], 16), int(args["issuerQ"], 16))
    pk = sk.public_key()
    msg = hex_arg(args, "msg")
    blinded, inv = tokens.blind(pk, msg, hex_arg(args, "salt"), int(args["r"], 16))
    blinded = hex_arg(args, "blindedMsg") if "blindedMsg" in args else blinded
    blind_sig = tokens.blind_sign(sk, blinded)
    blind_sig = hex_arg(args, "blindSig") if "blindSig" in args else blind_sig
    sig = tokens.finalize(pk, msg, blind_sig, inv)
    sig = hex_arg(args, "sig") if "sig" in args else sig
    return {"blindedMsg": blinded.hex(), "inv": format(inv, "x"), "blindSig": blind_sig.hex(),
            "sig": sig.hex(), "verified": tokens.verify(pk, msg, sig)}


def h_ideal_release(args: dict[str, Any]) -> dict[str, Any]:
    """The ideal functionality's release (dpspec.spec.sa2.ideal) over the integer sum, or the
    vector sum of ``length`` (modulo ``modulus`` if given), of JSON messages."""
    msgs = args["messages"]
    if "length" in args:
        modulus = int_arg(args, "modulus") if "modulus" in args else None
        agg: ideal.Aggregation[Any, Any] = ideal.vector_sum(int_arg(args, "length"),
                                                            modulus=modulus)
    else:
        agg = ideal.integer_sum()
    B = int_arg(args, "B")
    mode = args["mode"]
    tape = RandomTape(hex_arg(args, "seed"), args["tag"])
    if mode == "aggregate":
        out = ideal.aggregate(msgs, B, agg)
    elif mode == "samplable":
        out = ideal.samplable_aggregate(msgs, B, args["q"], agg, tape)
    elif mode == "fixed_size":
        out = ideal.fixed_size_aggregate(msgs, B, agg, tape)
    else:
        raise ValueError(f"unknown mode {mode!r}")
    release = None if out is None else (str(out) if isinstance(out, int) else
                                         [str(x) for x in out])
    return {"release": release, "bitsConsumed": tape.bits_consumed}


def h_donation_wait(args: dict[str, Any]) -> dict[str, Any]:
    tape = RandomTape(hex_arg(args, "seed"), args["tag"])
    waits = []
    for _ in range(int_arg(args, "count")):
        w = ideal.donation_wait(int_arg(args, "m"), args["K"], tape)
        waits.append(None if w is None else str(w))
    return {"waits": waits, "bitsConsumed": tape.bits_consumed}


def h_poisson_sample(args: dict[str, Any]) -> dict[str, Any]:
    """The secret selection of SA_B (dpspec.spec.sa2.ideal.poisson_sample), for step-by-step
    comparison only; ``k`` is passed as given (an integer)."""
    tape = RandomTape(hex_arg(args, "seed"), args["tag"])
    keep = ideal.poisson_sample(int_arg(args, "k"), args["q"], tape)
    return {"keep": keep, "bitsConsumed": tape.bits_consumed}


def h_fixed_size_subset(args: dict[str, Any]) -> dict[str, Any]:
    tape = RandomTape(hex_arg(args, "seed"), args["tag"])
    chosen = ideal.fixed_size_subset(int_arg(args, "k"), int_arg(args, "B"), tape)
    return {"chosen": chosen, "bitsConsumed": tape.bits_consumed}


def h_donation_round(args: dict[str, Any]) -> dict[str, Any]:
    """The round offset of App. A; ``m`` is passed to the spec as the JSON value it is (the spec
    itself refuses booleans and non-integers)."""
    tape = RandomTape(hex_arg(args, "seed"), args["tag"])
    return {"round": ideal.donation_round(args["m"], tape), "bitsConsumed": tape.bits_consumed}


def h_rappor_max_weight(args: dict[str, Any]) -> dict[str, Any]:
    """RAPPOR's weight bound (refused for the other randomizers)."""
    r = Randomizer.from_json(args["randomizer"])
    return {"maxWeight": r.max_weight(), "overweightProbability": str(r.overweight_probability())}


def h_rappor_bit_epsilon(args: dict[str, Any]) -> dict[str, Any]:
    """RAPPOR's per-coordinate parameter ln((1 - flip) / flip) at 50 digits, rounded down to 20
    decimal places (refused for the other randomizers)."""
    import mpmath

    eps = Randomizer.from_json(args["randomizer"]).bit_epsilon()
    with mpmath.workdps(50):
        low = Fraction(int(mpmath.floor(eps * 10**20)), 10**20)
    return {"bitEpsilon": str(low)}


def h_query(args: dict[str, Any]) -> dict[str, Any]:
    q = Query.from_json(args["query"])
    buckets = [q.apply(rec) for rec in args["records"]]
    return {"size": q.size, "buckets": buckets,
            "labels": [list(q.labels(b)) for b in buckets], "normalized": q.to_json()}


def h_query_labels(args: dict[str, Any]) -> dict[str, Any]:
    q = Query.from_json(args["query"])
    return {"labels": list(q.labels(int_arg(args, "index")))}


# -- headers ----------------------------------------------------------------------------------------
COMMON = [
    "RFC 9458 (Oblivious HTTP) and RFC 9292 (Binary HTTP) are not among the seeds: this family pins"
    " down dpspec.spec.sa2.ohttp, which implements them as stated here. The anonymizer is the"
    " anonymizing layer of sec. 4.2 of [SA2] (Talwar et al., 'Samplable Anonymous Aggregation for"
    " Private Federated Data Analysis').",
    "All byte strings are lower-case hex. HPKE (RFC 9180) suite: KEM DHKEM(X25519, HKDF-SHA256)"
    " 0x0020, KDF HKDF-SHA256 0x0001, AEAD AES-128-GCM 0x0001 (Nk = 16, Nn = 12, Nt = 16,"
    " Npk = Nenc = 32), base mode.",
]

BHTTP_HEADER = COMMON + [
    "ohttp.varint_encode / ohttp.varint_decode: QUIC variable-length integers (RFC 9000 sec. 16):"
    " the two top bits of the first byte give the length 1, 2, 4 or 8 bytes; the remaining bits"
    " hold the value big-endian. The encoder uses the shortest form; values must lie in"
    " [0, 2^62). The decoder accepts any length (also non-shortest forms) and reports how many"
    " bytes it read (`length`); a varint running past the end is invalid.",
    "ohttp.bhttp_request_*: a known-length request (RFC 9292 sec. 3): varint framing indicator 0,"
    " then method, scheme, authority, path, each as varint length || bytes; then the header"
    " section (varint length of the section || for each field varint len || name || varint len"
    " || value), the content (varint length || bytes) and the trailer section (as the header"
    " section). Trailing empty sections (a single 0x00 each) are left out by the encoder"
    " (sec. 3.8); the decoder accepts them truncated, and after the last section accepts only"
    " zero bytes (padding). `reencoded` is the encoder's output for the decoded message.",
    "ohttp.bhttp_response_*: a known-length response: varint framing indicator 1, the varint final"
    " status code (only 200..599 are accepted: no informational responses), then the three"
    " sections as for a request.",
    "Fields are lists of [name, value] hex pairs. Every decoding failure is invalid.",
    "ohttp.bhttp_response_decode_only: the decoding of ohttp.bhttp_response_decode without"
    " `reencoded` (so that the decoder's own status check is what refuses).",
]

KEYCONFIG_HEADER = COMMON + [
    "A key configuration (RFC 9458 sec. 3.1): key_id (1 byte) || kem_id (2 bytes) || public key"
    " (32 bytes) || uint16 length in bytes of the algorithm list || (kdf_id (2) || aead_id (2))*,"
    " all big-endian.",
    "ohttp.key_config_derive: the Gateway's key pair is RFC 9180 DeriveKeyPair(ikm) (sec. 7.1.3;"
    " ikm of at least 32 bytes) and its configuration offers one pair, (0x0001, 0x0001).",
    "ohttp.key_config_decode: invalid unless kem_id is 0x0020, the list length is a non-zero"
    " multiple of 4, and the message ends exactly after the list; `supportsSuite` says whether"
    " (HKDF-SHA256, AES-128-GCM) = (0x0001, 0x0001) is offered.",
]

ENCAP_HEADER = COMMON + [
    "Encapsulated request (RFC 9458 sec. 4.3): hdr = key_id || kem_id || kdf_id || aead_id"
    " (7 bytes); info = 'message/bhttp request' || 0x00 || hdr; (enc, ctx) = SetupBaseS(pkR,"
    " info) with the ephemeral private key `ephemeralSk` (raw X25519 scalar, 32 bytes; FIXED"
    " EPHEMERAL KEYS ARE FOR VECTORS ONLY); ct = ctx.Seal(aad = '', request); the message is"
    " hdr || enc || ct. The encapsulator refuses a configuration that does not offer"
    " (0x0001, 0x0001) and an ephemeral key that is not 32 bytes.",
    "Decapsulation: invalid if the message is shorter than 7 + 32 + 16 bytes, if hdr differs"
    " from the configuration's key_id with (0x0020, 0x0001, 0x0001), or if HPKE open fails.",
    "Encapsulated response (sec. 4.4): secret = ctx.Export('message/bhttp response', 16);"
    " response_nonce = 16 bytes (`responseNonce`; random in production); salt = enc ||"
    " response_nonce; prk = HKDF-Extract(salt, secret); aeadKey = HKDF-Expand(prk, 'key', 16);"
    " aeadNonce = HKDF-Expand(prk, 'nonce', 12); the message is response_nonce ||"
    " AES-128-GCM-Seal(aeadKey, aeadNonce, aad = '', response) (ciphertext || 16-byte tag)."
    " A nonce of another length is invalid.",
    "ohttp.encapsulate_response runs the Gateway: it decapsulates `encRequest` with `privateKey`,"
    " then encapsulates `response`. ohttp.decapsulate_response runs the Client: it re-creates its"
    " context by encapsulating `request` with `ephemeralSk`, then opens `encResponse`; invalid if"
    " it is shorter than 16 + 16 bytes or authentication fails.",
    "The first tests are RFC 9458 Appendix A's example (its key configuration also offers"
    " ChaCha20-Poly1305, 0x0003).",
    "hpke.seal_open: the input-share HPKE of SA2 (dpspec.spec.sa2.hpke): SealBase(publicKey, info,"
    " aad, plaintext) with the ephemeral key DeriveKeyPair(ephemeralIkm) (at least 32 bytes),"
    " then OpenBase(privateKey, enc, info, aad, ciphertext); `openEnc` / `openCiphertext`"
    " replace what is opened. Open refuses an enc that is not 32 bytes, a ciphertext shorter"
    " than the 16-byte tag, and any authentication failure.",
    "ohttp.roundtrip_fresh: the production path: encapsulate `request` to `keyConfig` with a"
    " FRESH random ephemeral key, then decapsulate with `privateKey`: `request` is the opened"
    " request and `encRequestLength` = 7 + 32 + len(request) + 16 (nothing else is fixed).",
]

RELAY_HEADER = COMMON + [
    "ohttp.report_decode: an SA2 report (dpspec.spec.sa2.protocol.Report) as bytes is its seven"
    " fields nonce, publicShare, token, leaderEnc, leaderCt, helperEnc, helperCt in this order,"
    " each as a 4-byte big-endian length || bytes, and nothing after (else invalid)."
    " `uploadRequest` is its Binary HTTP upload: POST, 'https', 'leader.example', '/sa2/upload',"
    " one header field content-type: application/dpspec-sa2-report, the report as content.",
    "ohttp.relay (dpspec.spec.sa2.ohttp.OhttpAnonymizer with `seed`): every byte drawn from a"
    " random tape is uniform(256); "
    + VECTOR_SEED_HEADER[0].lower() + VECTOR_SEED_HEADER[1:] + ". The Gateway's key is"
    " DeriveKeyPair(32 bytes of tape (seed, 'sa2/ohttp/setup')), key id 1, one algorithm pair."
    " Report k (in the order given) is uploaded as above and encapsulated with the ephemeral key"
    " DeriveKeyPair(32 bytes of tape (seed, 'sa2/ohttp/client/{k}')): `encRequests`, in sending"
    " order. The Relay draws one bernoulli(dropRate) per request in order from tape (seed,"
    " 'sa2/network') (`dropped`; the exact Bernoulli sampler of vectors/samplers), then shuffles"
    " the survivors by Fisher-Yates from tape (seed, 'sa2/shuffle'): for j = n-1 down to 1 swap"
    " positions j and uniform(j + 1). `forwarded` lists the sending index of each request in the"
    " order the Gateway gets it; `delivered` the reports it decodes, in that order. The Gateway"
    " answers each with a 200 response (encapsulated with the response nonce of 16 bytes of"
    " tape (seed, 'sa2/ohttp/gateway/{k}'), k the sending index); `responsesOk` counts the"
    " clients that read a 200.",
]

QUERY_HEADER = [
    "The query of an SA2 recipe (dpspec.spec.sa2.query; [PFS] sec. 4.1 and App. B, [SA2] sec."
    " 4.1): a device maps its record to a bucket in [0, K).",
    "A feature has exactly one rule. 'intervals' b_0 < ... < b_m (exact rationals, at least two):"
    " bucket 1 + i is [b_i, b_{i+1}); anything outside [b_0, b_m), missing, not a number (a"
    " boolean, a list, an unparsable string) is bucket 0 (OOV); size 1 + m. 'categories' (distinct"
    " strings, at least one): bucket 1 + i is the i-th string, anything else (also a non-string)"
    " OOV; size 1 + len. Records are objects; numbers in them are JSON integers or rational"
    " strings ('3/2', '0.5').",
    "The record's bucket is the mixed-radix index, first feature most significant: index ="
    " (...(c_1 s_2 + c_2) s_3 + ...) + c_d; K = s_1 ... s_d (`size`). `labels` reads an index"
    " back: per feature 'OOV', '[a, b)' (rationals as a or a/b) or the category; an index"
    " outside [0, K) is invalid. `normalized` is the query as the spec writes it back.",
    "Invalid queries: not an object with a non-empty feature list; a feature without a non-empty"
    " name; both or neither rule; fewer than two boundaries or not strictly increasing;"
    " categories empty, not strings, or repeated; two features with one name.",
]


class Sa2OhttpFamily(Family):
    name = "sa2-ohttp"
    summary = "SA2 anonymizer over Oblivious HTTP (RFC 9458/9292) and the recipe's query bucketing"

    def handlers(self) -> dict[str, Handler]:
        return {
            "ohttp.varint_encode": h_varint_encode,
            "ohttp.varint_decode": h_varint_decode,
            "ohttp.bhttp_request_encode": h_request_encode,
            "ohttp.bhttp_request_decode": h_request_decode,
            "ohttp.bhttp_response_encode": h_response_encode,
            "ohttp.bhttp_response_decode": h_response_decode,
            "ohttp.bhttp_response_decode_only": h_response_decode_only,
            "ohttp.roundtrip_fresh": h_roundtrip_fresh,
            "ohttp.key_config_derive": h_key_config_derive,
            "ohttp.key_config_decode": h_key_config_decode,
            "ohttp.encapsulate_request": h_encapsulate_request,
            "ohttp.decapsulate_request": h_decapsulate_request,
            "ohttp.encapsulate_response": h_encapsulate_response,
            "ohttp.decapsulate_response": h_decapsulate_response,
            "hpke.seal_open": h_hpke,
            "ohttp.report_decode": h_report_decode,
            "ohttp.relay": h_relay,
            "sa2.collection_ohttp": h_collection,
            "sa2.recipe_structure": h_recipe_structure,
            "sa2.randomizer": h_randomizer,
            "sa2.blind_signature": h_blind_signature,
            "sa2.ideal_release": h_ideal_release,
            "sa2.donation_wait": h_donation_wait,
            "sa2.poisson_sample": h_poisson_sample,
            "sa2.fixed_size_subset": h_fixed_size_subset,
            "sa2.donation_round": h_donation_round,
            "sa2.rappor_max_weight": h_rappor_max_weight,
            "sa2.rappor_bit_epsilon": h_rappor_bit_epsilon,
            "sa2.query": h_query,
            "sa2.query_labels": h_query_labels,
        }

    def schemas(self) -> dict[str, dict[str, Any]]:
        def obj(props: dict[str, Any]) -> dict[str, Any]:
            return {"type": "object", "required": sorted(props), "properties": props}

        req_parts = {k: HEX for k in ("method", "scheme", "authority", "path", "content")}
        sections = {"headers": _FIELDS, "trailers": _FIELDS}
        bhttp: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
            "ohttp.varint_encode": ({"properties": {"value": DEC}}, obj({"encoded": HEX})),
            "ohttp.varint_decode": ({"properties": {"encoded": HEX}},
                                    obj({"value": DEC, "length": COUNT})),
            "ohttp.bhttp_request_encode": ({"properties": {**req_parts, **sections}},
                                           obj({"encoded": HEX})),
            "ohttp.bhttp_request_decode": ({"properties": {"message": HEX}},
                                           obj({**req_parts, **sections, "reencoded": HEX})),
            "ohttp.bhttp_response_encode": (
                {"properties": {"status": DEC, "content": HEX, **sections}},
                obj({"encoded": HEX})),
            "ohttp.bhttp_response_decode": (
                {"properties": {"message": HEX}},
                obj({"status": DEC, "content": HEX, **sections, "reencoded": HEX})),
            "ohttp.bhttp_response_decode_only": (
                {"properties": {"message": HEX}},
                obj({"status": DEC, "content": HEX, **sections})),
        }
        kc: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
            "ohttp.key_config_derive": ({"properties": {"ikm": HEX, "keyId": DEC}},
                                        obj({"privateKey": HEX, "publicKey": HEX,
                                             "keyConfig": HEX})),
            "ohttp.key_config_decode": (
                {"properties": {"keyConfig": HEX}},
                obj({"keyId": COUNT, "kemId": COUNT, "publicKey": HEX,
                     "algorithms": {"type": "array", "items": {"type": "array", "items": COUNT}},
                     "supportsSuite": {"type": "boolean"}, "reencoded": HEX})),
        }
        encap: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
            "ohttp.encapsulate_request": (
                {"properties": {"keyConfig": HEX, "request": HEX, "ephemeralSk": HEX}},
                obj({"info": HEX, "enc": HEX, "encRequest": HEX})),
            "ohttp.decapsulate_request": (
                {"properties": {"keyConfig": HEX, "privateKey": HEX, "encRequest": HEX}},
                obj({"request": HEX, "enc": HEX})),
            "ohttp.roundtrip_fresh": (
                {"properties": {"keyConfig": HEX, "privateKey": HEX, "request": HEX}},
                obj({"request": HEX, "encRequestLength": COUNT})),
            "ohttp.encapsulate_response": (
                {"properties": {"keyConfig": HEX, "privateKey": HEX, "encRequest": HEX,
                                "response": HEX, "responseNonce": HEX}},
                obj({k: HEX for k in ("secret", "salt", "prk", "aeadKey", "aeadNonce",
                                      "encResponse")})),
            "hpke.seal_open": (
                {"properties": {k: HEX for k in ("publicKey", "privateKey", "info", "aad",
                                                 "plaintext", "ephemeralIkm", "openEnc",
                                                 "openCiphertext")}},
                obj({"enc": HEX, "ciphertext": HEX, "opened": HEX})),
            "ohttp.decapsulate_response": (
                {"properties": {"keyConfig": HEX, "request": HEX, "ephemeralSk": HEX,
                                "encResponse": HEX}},
                obj({"response": HEX})),
        }
        relay: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
            "ohttp.report_decode": (
                {"properties": {"report": HEX}},
                obj({**{k: HEX for k in _REPORT_FIELDS}, "reencoded": HEX,
                     "uploadRequest": HEX})),
            "ohttp.relay": (
                {"properties": {"seed": HEX, "reports": _HEXES, "dropRate": RAT}},
                obj({"gatewayPrivateKey": HEX, "keyConfig": HEX, "encRequests": _HEXES,
                     "dropped": {"type": "array", "items": {"type": "boolean"}},
                     "forwarded": {"type": "array", "items": COUNT}, "delivered": _HEXES,
                     "responsesOk": COUNT})),
        }
        labels: dict[str, Any] = {"type": "array", "items": {"type": "string"}}
        query: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
            "sa2.query": ({"properties": {"query": {}, "records": {"type": "array"}}},
                          obj({"size": COUNT, "buckets": {"type": "array", "items": COUNT},
                               "labels": {"type": "array", "items": labels},
                               "normalized": {"type": "object"}})),
            "sa2.query_labels": ({"properties": {"query": {}, "index": DEC}},
                                 obj({"labels": labels})),
        }
        opt_int: dict[str, Any] = {"anyOf": [{"type": "null"}, COUNT]}
        rec: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
            "sa2.recipe_structure": (
                {"properties": {"recipe": {}}},
                {"type": "object", "required": ["verdict"], "properties": {
                    "verdict": {"type": "string"}, "B": DEC, "q": RAT, "dummyRate": RAT,
                    "population": opt_int, "sampling": {"type": "string"},
                    "window": {"anyOf": [{"type": "null"}, {"type": "array", "items": RAT}]},
                    "rounds": COUNT, "k": COUNT, "maxReports": opt_int,
                    "vdaf": {"type": "string"}}}),
            "sa2.randomizer": (
                {"properties": {"randomizer": {}, "seed": HEX, "tag": {"type": "string"},
                                "inputs": {"type": "array"}}},
                obj({"normalized": {"type": "object"}, "reports": {"type": "array"},
                     "decoded": {"type": "array"}, "zero": {},
                     "maxWeight": opt_int, "overweightProbability": {
                         "anyOf": [{"type": "null"}, RAT]},
                     "bitsConsumed": COUNT})),
            "sa2.blind_signature": (
                {"properties": {**{k: HEX for k in ("msg", "salt", "blindedMsg", "blindSig",
                                                    "sig")},
                                **{k: {"type": "string", "pattern": "^[0-9a-f]+$"}
                                   for k in ("issuerP", "issuerQ", "r")}}},
                obj({"blindedMsg": HEX, "inv": {"type": "string", "pattern": "^[0-9a-f]+$"},
                     "blindSig": HEX, "sig": HEX, "verified": {"type": "boolean"}})),
        }
        tape_args: dict[str, Any] = {"seed": HEX, "tag": {"type": "string"}}
        rec["sa2.ideal_release"] = (
            {"properties": {**tape_args, "messages": {"type": "array"}, "B": DEC, "q": RAT,
                            "mode": {"type": "string"}, "length": DEC, "modulus": DEC}},
            obj({"release": {"anyOf": [{"type": "null"}, DEC, {"type": "array", "items": DEC}]},
                 "bitsConsumed": COUNT}))
        rec["sa2.donation_wait"] = (
            {"properties": {**tape_args, "m": DEC, "K": RAT, "count": DEC}},
            obj({"waits": {"type": "array", "items": {"anyOf": [{"type": "null"}, RAT]}},
                 "bitsConsumed": COUNT}))
        rec["sa2.poisson_sample"] = (
            {"properties": {**tape_args, "k": DEC, "q": RAT}},
            obj({"keep": {"type": "array", "items": {"type": "boolean"}}, "bitsConsumed": COUNT}))
        rec["sa2.fixed_size_subset"] = (
            {"properties": {**tape_args, "k": DEC, "B": DEC}},
            obj({"chosen": {"anyOf": [{"type": "null"}, {"type": "array", "items": COUNT}]},
                 "bitsConsumed": COUNT}))
        rec["sa2.donation_round"] = (
            {"properties": {**tape_args, "m": {}}},
            obj({"round": {"anyOf": [{"type": "null"}, COUNT]}, "bitsConsumed": COUNT}))
        rec["sa2.rappor_max_weight"] = (
            {"properties": {"randomizer": {}}},
            obj({"maxWeight": COUNT, "overweightProbability": RAT}))
        rec["sa2.rappor_bit_epsilon"] = ({"properties": {"randomizer": {}}},
                                         obj({"bitEpsilon": RAT}))
        coll_args: dict[str, Any] = {
            "recipe": {"type": "object"}, "issuerP": HEX, "issuerQ": HEX,
            "leaderHpkeIkm": HEX, "helperHpkeIkm": HEX, "verifyKey": HEX, "seed": HEX,
            "data": {"type": "array", "items": {"anyOf": [DEC, {"type": "object"}]}},
            "malicious": COUNT, "dropRate": RAT, "arrivalSpacing": RAT,
            "ohttp": {"type": "boolean"},
            "period": {"anyOf": [{"type": "null"}, {"type": "integer"}]}}
        coll: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
            "sa2.collection_ohttp": ({"properties": coll_args}, obj({
                "reports": {"type": "array", "items": {"type": "object"}},
                "encRequests": _HEXES, "responsesOk": COUNT,
                "periods": {"type": "array", "items": {"type": "array", "items": COUNT}},
                "dropped": {"type": "array", "items": {"type": "boolean"}},
                "arrival": {"type": "array", "items": COUNT},
                "verdicts": {"type": "array", "items": {"type": "string"}},
                "accepted": COUNT, "aggregated": COUNT,
                "rejected": {"type": "object", "additionalProperties": COUNT},
                "release": {"anyOf": [{"type": "null"}, {"type": "array", "items": DEC}]}}))}
        return {
            BHTTP_SCHEMA: family_schema(BHTTP_SCHEMA, "SA2 OHTTP: varints and Binary HTTP", bhttp),
            KEYCONFIG_SCHEMA: family_schema(KEYCONFIG_SCHEMA, "SA2 OHTTP key configurations", kc),
            ENCAP_SCHEMA: family_schema(ENCAP_SCHEMA, "SA2 OHTTP encapsulation", encap),
            RELAY_SCHEMA: family_schema(RELAY_SCHEMA, "SA2 OHTTP relay", relay),
            QUERY_SCHEMA: family_schema(QUERY_SCHEMA, "SA2 query bucketing", query),
            RECIPE_SCHEMA: family_schema(RECIPE_SCHEMA, "SA2 recipe parsing", rec),
            COLLECTION_SCHEMA: family_schema(COLLECTION_SCHEMA, "SA2 collections over OHTTP",
                                             coll),
        }

    def files(self) -> list[VectorFile]:
        return [self._bhttp_file(), self._key_config_file(), self._encap_file(),
                self._relay_file(), self._query_file(), self._collection_file(),
                self._recipe_file()]

    def _run(self, op: str, args: dict[str, Any]) -> dict[str, Any]:
        return self.handlers()[op](args)

    # -- binary HTTP ------------------------------------------------------------------------------
    def _bhttp_file(self) -> VectorFile:
        groups = Groups(self.handlers())
        values = [0, 1, 37, 63, 64, 494878333 & 0x3FFF, 16383, 16384, 494878333, (1 << 30) - 1,
                  1 << 30, 151288809941952652, (1 << 62) - 1]
        groups.add("ohttp.varint_encode", [(f"value {v}", {"value": str(v)}) for v in values], [
            ("negative", {"value": "-1"}, "OutOfRange"),
            ("2^62 does not fit", {"value": str(1 << 62)}, "OutOfRange")])
        dec = [("1 byte, 37", "25"), ("2 bytes (RFC 9000 A.1: 15293)", "7bbd"),
               ("4 bytes (RFC 9000 A.1: 494878333)", "9d7f3e7d"),
               ("8 bytes (RFC 9000 A.1: 151288809941952652)", "c2197c5eff14e88c"),
               ("non-shortest 2-byte form of 37 is accepted", "4025"),
               ("only the first varint is read", "3fff"),
               ("8-byte maximum", "ffffffffffffffff")]
        groups.add("ohttp.varint_decode", [(c, {"encoded": e}) for c, e in dec], [
            ("empty", {"encoded": ""}, "Truncated"),
            ("2-byte prefix, 1 byte", {"encoded": "40"}, "Truncated"),
            ("4-byte prefix, 3 bytes", {"encoded": "9d7f3e"}, "Truncated"),
            ("8-byte prefix, 7 bytes", {"encoded": "c2197c5eff14e8"}, "Truncated")])

        def b(s: str) -> str:
            return s.encode().hex()

        get: dict[str, Any] = {"method": b("GET"), "scheme": b("https"), "authority": b("example.com"),
               "path": b("/"), "headers": [], "content": "", "trailers": []}
        long_content = bytes(range(256)) * 1 + bytes(64)  # 320 bytes: a 2-byte length
        reqs: list[tuple[str, dict[str, Any]]] = [
            ("RFC 9458 A: GET https://example.com/ (all sections empty, truncated)", get),
            ("one header field, empty content and trailers truncated",
             {**get, "headers": [[b("accept"), b("*/*")]]}),
            ("content only: the empty header section stays (0x00)",
             {**get, "method": b("POST"), "content": b("hi")}),
            ("trailers only: header and content sections stay",
             {**get, "trailers": [[b("x"), b("")]]}),
            ("every section, two header fields, 320-byte content (2-byte varint length)",
             {**get, "method": b("POST"), "headers": [[b("a"), b("1")], [b("bb"), b("22")]],
              "content": long_content.hex(), "trailers": [[b("t"), b("v")]]}),
            ("empty method and path", {**get, "method": "", "path": ""}),
        ]
        groups.add("ohttp.bhttp_request_encode", reqs)
        enc = {c: self._run("ohttp.bhttp_request_encode", i)["encoded"] for c, i in reqs}
        rfc, full = enc[reqs[0][0]], enc[reqs[4][0]]
        groups.add("ohttp.bhttp_request_decode", [
            ("RFC 9458 A request", {"message": rfc}),
            ("the empty sections written out (not truncated)", {"message": rfc + "000000"}),
            ("only the header section written out", {"message": rfc + "00"}),
            ("zero padding after the trailers", {"message": full + "0000"}),
            ("every section", {"message": full}),
            ("an empty header section and 5 bytes of content",
             {"message": rfc + "00" + "05" + b("hello")}),
            ("framing indicator in a 2-byte varint (4000)", {"message": "4000" + rfc[2:]}),
        ], [
            ("empty", {"message": ""}, "Truncated"),
            ("framing indicator 1 (a response)", {"message": "01" + rfc[2:]}, "WrongFraming"),
            ("framing indicator 2 (indeterminate-length request)", {"message": "02" + rfc[2:]},
             "WrongFraming"),
            ("truncated inside the path", {"message": rfc[:-2]}, "Truncated"),
            ("truncated inside the content", {"message": full[:-40]}, "Truncated"),
            ("header section longer than the message", {"message": rfc + "05" + "0161"},
             "Truncated"),
            ("a field name without its value", {"message": rfc + "02" + "0161"}, "Truncated"),
            ("a non-zero byte after the trailers", {"message": full + "0001"}, "TrailingBytes"),
            ("varint of the method length cut", {"message": "0040"}, "Truncated"),
        ])
        resps: list[tuple[str, dict[str, Any]]] = [
            ("RFC 9458 A: 200, all sections empty", {"status": "200", "headers": [],
                                                      "content": "", "trailers": []}),
            ("599 with content", {"status": "599", "headers": [], "content": b("no"),
                                  "trailers": []}),
            ("204 with a header field", {"status": "204", "headers": [[b("k"), b("v")]],
                                         "content": "", "trailers": []}),
            ("200 with every section", {"status": "200", "headers": [[b("k"), b("v")]],
                                        "content": b("ok"), "trailers": [[b("t"), b("")]]}),
        ]
        groups.add("ohttp.bhttp_response_encode", resps, [
            ("199 is not a final status", {**resps[0][1], "status": "199"}, "BadStatus"),
            ("600 is out of range", {**resps[0][1], "status": "600"}, "BadStatus")])
        r200 = "0140c8"
        every = self._run("ohttp.bhttp_response_encode", resps[3][1])["encoded"]
        groups.add("ohttp.bhttp_response_decode", [
            ("RFC 9458 A response", {"message": r200}),
            ("status 200 at the lower bound, sections written out", {"message": r200 + "000000"}),
            ("status 599 at the upper bound", {"message": "01" + "4257"}),
            ("every section", {"message": every}),
            ("zero padding", {"message": every + "00"}),
        ], [
            ("framing indicator 0 (a request)", {"message": "0040c8"}, "WrongFraming"),
            ("informational status 100", {"message": "014064" + "0000"}, "BadStatus"),
            ("status 199", {"message": "0140c7"}, "BadStatus"),
            ("status 600", {"message": "014258"}, "BadStatus"),
            ("status varint cut", {"message": "0140"}, "Truncated"),
            ("content longer than the message", {"message": r200 + "00" + "09" + "6f6b"},
             "Truncated"),
            ("a non-zero byte after the trailers", {"message": every + "000100"},
             "TrailingBytes"),
        ])
        # appended: the decoder's own status check (the group above also re-encodes)
        groups.add("ohttp.bhttp_response_decode_only", [
            ("status 200", {"message": r200}),
            ("status 599", {"message": "01" + "4257"}),
        ], [
            ("status 199", {"message": "0140c7"}, "BadStatus"),
            ("status 600", {"message": "014258"}, "BadStatus"),
            ("informational status 100", {"message": "014064"}, "BadStatus"),
        ])
        notes = {
            "OutOfRange": "The value does not lie in [0, 2^62).",
            "Truncated": "The message ends inside a varint or a length-prefixed field.",
            "WrongFraming": "The framing indicator is not the known-length one of the message.",
            "TrailingBytes": "After the last section only zero padding is allowed.",
            "BadStatus": "Only final statuses 200..599 are accepted.",
        }
        return self.vector_file("sa2-ohttp/binary_http.json", algorithm="SA2-OHTTP-BinaryHTTP",
                                schema=BHTTP_SCHEMA, header=BHTTP_HEADER, notes=notes,
                                groups=groups.groups)

    # -- key configuration ------------------------------------------------------------------------
    def _key_config_file(self) -> VectorFile:
        groups = Groups(self.handlers())
        groups.add("ohttp.key_config_derive", [
            ("key id 1", {"ikm": vector_seed("sa2-ohttp/gateway").hex(), "keyId": "1"}),
            ("key id 0, a 40-byte ikm", {"ikm": vector_seed("sa2-ohttp/gw0", 40).hex(),
                                         "keyId": "0"}),
            ("key id 255", {"ikm": vector_seed("sa2-ohttp/gateway").hex(), "keyId": "255"}),
        ], [
            ("31 bytes of ikm", {"ikm": vector_seed("sa2-ohttp/gateway", 31).hex(),
                                 "keyId": "1"}, "ShortIkm")])
        rfc = RFC_KEY_CONFIG
        pk = rfc[6:70]
        groups.add("ohttp.key_config_decode", [
            ("RFC 9458 A: key id 1, AES-128-GCM and ChaCha20-Poly1305", {"keyConfig": rfc}),
            ("only ChaCha20-Poly1305: decodes, the suite is not offered",
             {"keyConfig": "07" + "0020" + pk + "0004" + "00010003"}),
            ("the suite second of three", {"keyConfig": "ff" + "0020" + pk + "000c"
                                           + "00020001" + "00010001" + "00030002"}),
            ("HKDF-SHA256 with another AEAD and another KDF with AES-128-GCM: not offered",
             {"keyConfig": "00" + "0020" + pk + "0008" + "00010002" + "00020001"}),
        ], [
            ("empty", {"keyConfig": ""}, "Truncated"),
            ("KEM P-256 (0x0010)", {"keyConfig": rfc[:2] + "0010" + rfc[6:]}, "WrongKem"),
            ("KEM 0x0021 (X448)", {"keyConfig": rfc[:2] + "0021" + rfc[6:]}, "WrongKem"),
            ("public key cut", {"keyConfig": rfc[:60]}, "Truncated"),
            ("list length missing", {"keyConfig": rfc[:70]}, "Truncated"),
            ("empty algorithm list", {"keyConfig": rfc[:70] + "0000"}, "BadAlgorithms"),
            ("list length 6 (not a multiple of 4)",
             {"keyConfig": rfc[:70] + "0006" + "000100010001"}, "BadAlgorithms"),
            ("list length 2", {"keyConfig": rfc[:70] + "0002" + "0001"}, "BadAlgorithms"),
            ("list shorter than its length", {"keyConfig": rfc[:-2]}, "Truncated"),
            ("a byte after the list", {"keyConfig": rfc + "00"}, "TrailingBytes"),
        ])
        notes = {
            "ShortIkm": "DeriveKeyPair needs at least 32 bytes of input keying material.",
            "Truncated": "The configuration ends early.",
            "WrongKem": "Only DHKEM(X25519, HKDF-SHA256) 0x0020 is supported.",
            "BadAlgorithms": "The algorithm list length must be a non-zero multiple of 4.",
            "TrailingBytes": "Bytes after the algorithm list.",
        }
        return self.vector_file("sa2-ohttp/key_config.json", algorithm="SA2-OHTTP-KeyConfig",
                                schema=KEYCONFIG_SCHEMA, header=KEYCONFIG_HEADER, notes=notes,
                                groups=groups.groups)

    # -- encapsulation ----------------------------------------------------------------------------
    def _encap_file(self) -> VectorFile:
        groups = Groups(self.handlers())
        gw = self._run("ohttp.key_config_derive",
                       {"ikm": vector_seed("sa2-ohttp/gateway").hex(), "keyId": "1"})
        own_kc, own_sk = gw["keyConfig"], gw["privateKey"]
        eph = [vector_seed(f"sa2-ohttp/ephemeral/{i}").hex() for i in range(3)]
        upload = ohttp.upload_request(_synthetic_report(0)).encode().hex()
        reqs: list[tuple[str, dict[str, Any]]] = [
            ("RFC 9458 A", {"keyConfig": RFC_KEY_CONFIG, "request": RFC_REQUEST,
                            "ephemeralSk": RFC_SKE}),
            ("an SA2 upload to the derived gateway key (key id 1)",
             {"keyConfig": own_kc, "request": upload, "ephemeralSk": eph[0]}),
            ("an empty request", {"keyConfig": own_kc, "request": "", "ephemeralSk": eph[1]}),
            ("key id 0 goes into hdr and info",
             {"keyConfig": "00" + own_kc[2:], "request": RFC_REQUEST, "ephemeralSk": eph[2]}),
        ]
        groups.add("ohttp.encapsulate_request", reqs, [
            ("the configuration offers only ChaCha20-Poly1305",
             {"keyConfig": own_kc[:70] + "0004" + "00010003", "request": RFC_REQUEST,
              "ephemeralSk": eph[0]}, "UnsupportedSuite"),
            ("a 31-byte ephemeral key", {"keyConfig": own_kc, "request": RFC_REQUEST,
                                         "ephemeralSk": eph[0][:62]}, "BadEphemeral"),
        ])
        enc_reqs = {c: self._run("ohttp.encapsulate_request", i)["encRequest"] for c, i in reqs}
        rfc_enc, own_enc = enc_reqs[reqs[0][0]], enc_reqs[reqs[1][0]]
        empty_enc, kid0_enc = enc_reqs[reqs[2][0]], enc_reqs[reqs[3][0]]

        def flip(h: str, pos: int) -> str:
            data = bytearray(bytes.fromhex(h))
            data[pos] ^= 1
            return data.hex()

        rfc_gw = {"keyConfig": RFC_KEY_CONFIG, "privateKey": RFC_SKR}
        own_gw = {"keyConfig": own_kc, "privateKey": own_sk}
        n = len(bytes.fromhex(rfc_enc))
        groups.add("ohttp.decapsulate_request", [
            ("RFC 9458 A", {**rfc_gw, "encRequest": rfc_enc}),
            ("the SA2 upload", {**own_gw, "encRequest": own_enc}),
            ("an empty request (the shortest message: 7 + 32 + 16 bytes)",
             {**own_gw, "encRequest": empty_enc}),
            ("key id 0", {"keyConfig": "00" + own_kc[2:], "privateKey": own_sk,
                          "encRequest": kid0_enc}),
        ], [
            ("54 bytes: one short of hdr + enc + tag", {**own_gw, "encRequest": empty_enc[:-2]},
             "TooShort"),
            ("wrong key id", {**rfc_gw, "encRequest": flip(rfc_enc, 0)}, "WrongHeader"),
            ("key id 0 sent to the key id 1 configuration",
             {**own_gw, "encRequest": kid0_enc}, "WrongHeader"),
            ("wrong KEM id in hdr", {**rfc_gw, "encRequest": flip(rfc_enc, 2)}, "WrongHeader"),
            ("wrong KDF id in hdr", {**rfc_gw, "encRequest": flip(rfc_enc, 4)}, "WrongHeader"),
            ("wrong AEAD id in hdr (ChaCha20-Poly1305)",
             {**rfc_gw, "encRequest": rfc_enc[:12] + "03" + rfc_enc[14:]}, "WrongHeader"),
            ("tampered enc", {**rfc_gw, "encRequest": flip(rfc_enc, 7)}, "DecryptionFailed"),
            ("tampered ciphertext", {**rfc_gw, "encRequest": flip(rfc_enc, 7 + 32)},
             "DecryptionFailed"),
            ("tampered tag", {**rfc_gw, "encRequest": flip(rfc_enc, n - 1)},
             "DecryptionFailed"),
            ("the wrong gateway key", {**own_gw, "keyConfig": RFC_KEY_CONFIG,
                                       "encRequest": rfc_enc}, "DecryptionFailed"),
            ("the last ciphertext byte removed", {**rfc_gw, "encRequest": rfc_enc[:-2]},
             "DecryptionFailed"),
        ])
        nonces = [vector_seed(f"sa2-ohttp/response-nonce/{i}", 16).hex() for i in range(3)]
        ok = ohttp.BhttpResponse(200).encode().hex()
        resp_cases: list[tuple[str, dict[str, Any]]] = [
            ("RFC 9458 A", {**rfc_gw, "encRequest": rfc_enc, "response": "0140c8",
                            "responseNonce": RFC_RESPONSE_NONCE}),
            ("200 to the SA2 upload", {**own_gw, "encRequest": own_enc, "response": ok,
                                       "responseNonce": nonces[0]}),
            ("a 40-byte response", {**own_gw, "encRequest": own_enc,
                                    "response": bytes(range(40)).hex(),
                                    "responseNonce": nonces[1]}),
            ("an empty response to the empty request",
             {**own_gw, "encRequest": empty_enc, "response": "", "responseNonce": nonces[2]}),
        ]
        groups.add("ohttp.encapsulate_response", resp_cases, [
            ("a 15-byte response nonce", {**own_gw, "encRequest": own_enc, "response": ok,
                                          "responseNonce": nonces[0][:30]}, "BadNonce"),
            ("a 17-byte response nonce", {**own_gw, "encRequest": own_enc, "response": ok,
                                          "responseNonce": nonces[0] + "00"}, "BadNonce"),
            ("a 12-byte (Nn) response nonce", {**own_gw, "encRequest": own_enc, "response": ok,
                                               "responseNonce": nonces[0][:24]}, "BadNonce"),
        ])
        enc_resps = [self._run("ohttp.encapsulate_response", i)["encResponse"]
                     for _, i in resp_cases]
        rfc_client = {"keyConfig": RFC_KEY_CONFIG, "request": RFC_REQUEST,
                      "ephemeralSk": RFC_SKE}
        own_client = {"keyConfig": own_kc, "request": upload, "ephemeralSk": eph[0]}
        m = len(bytes.fromhex(enc_resps[0]))
        groups.add("ohttp.decapsulate_response", [
            ("RFC 9458 A", {**rfc_client, "encResponse": enc_resps[0]}),
            ("200 to the SA2 upload", {**own_client, "encResponse": enc_resps[1]}),
            ("the 40-byte response", {**own_client, "encResponse": enc_resps[2]}),
            ("the empty response (the shortest message: 16 + 16 bytes)",
             {"keyConfig": own_kc, "request": "", "ephemeralSk": eph[1],
              "encResponse": enc_resps[3]}),
        ], [
            ("31 bytes", {"keyConfig": own_kc, "request": "", "ephemeralSk": eph[1],
                          "encResponse": enc_resps[3][:-2]}, "TooShort"),
            ("tampered response nonce", {**rfc_client, "encResponse": flip(enc_resps[0], 0)},
             "DecryptionFailed"),
            ("tampered ciphertext", {**rfc_client, "encResponse": flip(enc_resps[0], 16)},
             "DecryptionFailed"),
            ("tampered tag", {**rfc_client, "encResponse": flip(enc_resps[0], m - 1)},
             "DecryptionFailed"),
            ("another client's response (another request context)",
             {**own_client, "encResponse": enc_resps[0]}, "DecryptionFailed"),
            ("the response to the same request under another ephemeral key",
             {**own_client, "ephemeralSk": eph[2], "encResponse": enc_resps[1]},
             "DecryptionFailed"),
        ])
        hp = {"privateKey": own_sk}
        base = {"publicKey": gw["publicKey"], "info": b"dpspec/sa2 input share\x01\x02".hex(), "aad": "00ff",
                "plaintext": bytes(range(20)).hex(), "ephemeralIkm": eph[0]}
        sealed = self._run("hpke.seal_open", {**hp, **base})
        groups.add("hpke.seal_open", [
            ("seal and open", base),
            ("empty plaintext and aad, a 40-byte ephemeral IKM",
             {**base, "plaintext": "", "aad": "",
              "ephemeralIkm": vector_seed("sa2-ohttp/ephemeral/40", 40).hex()}),
        ], [
            ("a 31-byte ephemeral IKM", {**base, "ephemeralIkm": eph[0][:62]}, "BadEphemeral"),
            ("a 31-byte recipient public key", {**base, "publicKey": gw["publicKey"][:62]},
             "BadPublicKey"),
            ("open a 31-byte enc", {**base, "openEnc": sealed["enc"][:62]}, "TooShort"),
            ("open a 15-byte ciphertext", {**base, "openCiphertext": sealed["ciphertext"][:30]},
             "TooShort"),
            ("open a tampered ciphertext",
             {**base, "openCiphertext": flip(sealed["ciphertext"], 0)}, "DecryptionFailed"),
            ("open under another enc", {**base, "openEnc": flip(sealed["enc"], 3)},
             "DecryptionFailed"),
        ], hp)
        # appended: the production path, a fresh ephemeral key (only the round trip is fixed)
        groups.add("ohttp.roundtrip_fresh", [
            ("an SA2 upload, fresh ephemeral key", {"keyConfig": own_kc, "privateKey": own_sk,
                                                    "request": upload}),
        ])
        notes = {
            "UnsupportedSuite": "The configuration does not offer (0x0001, 0x0001).",
            "BadEphemeral": "The ephemeral X25519 private key must have 32 bytes (HPKE: the "
                            "ephemeral IKM at least 32).",
            "BadPublicKey": "Not a 32-byte X25519 public key.",
            "TooShort": "Shorter than the fixed parts of the message.",
            "WrongHeader": "hdr is not the configuration's key id with the supported suite.",
            "DecryptionFailed": "The AEAD (or the KEM) refuses the message.",
            "BadNonce": "The response nonce must have max(Nn, Nk) = 16 bytes.",
        }
        return self.vector_file("sa2-ohttp/encapsulation.json",
                                algorithm="SA2-OHTTP-Encapsulation", schema=ENCAP_SCHEMA,
                                header=ENCAP_HEADER, notes=notes, groups=groups.groups)

    # -- reports and the relay --------------------------------------------------------------------
    def _relay_file(self) -> VectorFile:
        groups = Groups(self.handlers())
        reps = [ohttp.encode_report(_synthetic_report(k)).hex() for k in range(5)]
        empty = ohttp.encode_report(protocol.Report(*[b""] * 7)).hex()
        groups.add("ohttp.report_decode", [
            ("a synthetic report (field sizes of a real one, fewer ciphertext bytes)",
             {"report": reps[0]}),
            ("another", {"report": reps[1]}),
            ("seven empty fields", {"report": empty}),
        ], [
            ("a byte after the seventh field", {"report": reps[0] + "00"}, "TrailingBytes"),
            ("the last field cut", {"report": reps[0][:-2]}, "Truncated"),
            ("only six fields", {"report": empty[:-8]}, "Truncated"),
            ("a length of 2^32 - 1", {"report": "ffffffff" + empty[8:]}, "Truncated"),
        ])
        seed = vector_seed("sa2-ohttp/relay").hex()
        groups.add("ohttp.relay", [
            ("three reports, no drops: encapsulated, shuffled, all answered",
             {"seed": seed, "reports": reps[:3], "dropRate": "0"}),
            ("five reports, drop rate 1/2", {"seed": seed, "reports": reps,
                                             "dropRate": "1/2"}),
            ("another seed, drop rate 1/4",
             {"seed": vector_seed("sa2-ohttp/relay/2").hex(), "reports": reps[1:],
              "dropRate": "1/4"}),
            ("drop rate 1: nothing forwarded", {"seed": seed, "reports": reps[:2],
                                                "dropRate": "1"}),
            ("one report", {"seed": seed, "reports": reps[4:], "dropRate": "0"}),
        ], [
            ("a malformed report", {"seed": seed, "reports": [reps[0] + "00"], "dropRate": "0"},
             "TrailingBytes"),
            ("drop rate above 1", {"seed": seed, "reports": reps[:1], "dropRate": "3/2"},
             "BadRate"),
        ])
        notes = {
            "TrailingBytes": "Bytes after the seventh field of a report.",
            "Truncated": "The report ends inside a length or a field.",
            "BadRate": "The drop rate must be a rational in [0, 1].",
        }
        return self.vector_file("sa2-ohttp/relay.json", algorithm="SA2-OHTTP-Relay",
                                schema=RELAY_SCHEMA, header=RELAY_HEADER, notes=notes,
                                groups=groups.groups)

    # -- collections ------------------------------------------------------------------------------
    def _collection_file(self) -> VectorFile:
        from dpspec.conformance.families.sa2 import vector_deployment

        tc = TestNumberer()
        dep = vector_deployment()
        keys = {"issuerP": format(dep.issuer_sk.p, "x"), "issuerQ": format(dep.issuer_sk.q, "x"),
                "leaderHpkeIkm": dep.leader_ikm.hex(), "helperHpkeIkm": dep.helper_ikm.hex(),
                "verifyKey": dep.verify_key.hex()}

        def recipe(r: Randomizer, B: int, q: str, **over: Any) -> dict[str, Any]:
            args: dict[str, Any] = dict(
                recipe_id="dpspec-sa2-ohttp-vector", task_id=vector_seed("sa2/task"),
                randomizer=r, B=B, q=Fraction(q), chunk_length=2,
                leader_pk=dep.leader_hpke.public_key, helper_pk=dep.helper_hpke.public_key,
                issuer_key=dep.issuer_sk.public_key(), epsilon=Fraction(1000),
                delta=Fraction(1, 2))
            args.update(over)
            return protocol.make_recipe(**args)

        def data(label: str, n: int, k: int) -> list[str]:
            t = RandomTape(vector_seed(label), "vectors/sa2/data")
            return [str(t.uniform(k)) for _ in range(n)]

        query = Query.from_json({"features": [
            {"name": "age", "intervals": ["20", "40", "60"]},
            {"name": "fruit", "categories": ["apple"]}]})  # K = 3 * 2
        rr6 = Randomizer("randomized_response", 6, Fraction(1, 4))
        rr3 = Randomizer("randomized_response", 3, Fraction(1, 2))
        records: list[Any] = [{"age": 25, "fruit": "apple"}, {"age": 59, "fruit": "pear"},
                              {"age": 60, "fruit": "apple"}, {"age": "40", "fruit": "apple"}]
        cases: list[tuple[str, dict[str, Any], list[Any], int, str, bool, int | None,
                          list[str]]] = [
            ("records through a query, over OHTTP, periods of 2 reports",
             recipe(rr6, 2, "1", query=query), records, 0, "0", True, 2,
             ["Query", "Ohttp", "Periodic"]),
            ("over OHTTP with loss 1/4, one report a period, two malicious devices",
             recipe(rr3, 2, "1"), data("sa2-ohttp/collection/1", 3, 3), 2, "1/4", True, 1,
             ["Ohttp", "Periodic", "Malicious"]),
            ("time bound with periods of 2 (arrival times travel with the period)",
             recipe(rr3, 2, "1", window=(Fraction(0), Fraction(2))),
             data("sa2-ohttp/collection/2", 4, 3), 0, "0", False, 2, ["Periodic", "TimeBound"]),
            ("fixed size B = 2 of at least 3, periods of 3 (the last one shorter)",
             recipe(rr3, 2, "1", sampling="fixed_size", population=3),
             data("sa2-ohttp/collection/3", 4, 3), 0, "0", False, 3, ["Periodic", "FixedSize"]),
            ("below B = 5: four accepted in one period of 5, nothing released",
             recipe(rr3, 5, "1"), data("sa2-ohttp/collection/4", 4, 3), 0, "0", True, 5,
             ["Ohttp", "Periodic"]),
        ]
        tests = []
        for i, (label, rec, devices, mal, drop, use, period, flags) in enumerate(cases):
            inputs: dict[str, Any] = {
                **keys, "recipe": rec, "seed": vector_seed(f"sa2-ohttp/collection/{i}").hex(),
                "data": devices, "malicious": mal, "dropRate": drop, "ohttp": use,
                "period": period}
            if "timeWindow" in rec:
                inputs["arrivalSpacing"] = "1"
            tests.append(test_entry(tc(), label, inputs,
                                    self._run("sa2.collection_ohttp", inputs), flags=flags))
        bad = {**keys, "recipe": recipe(rr3, 2, "1"), "data": ["0", "1"], "malicious": 0,
               "dropRate": "0", "seed": vector_seed("sa2-ohttp/collection/bad").hex()}
        tests += invalid_tests(tc, h_collection, {}, [
            ("period 0", {**bad, "ohttp": False, "period": 0}, "BadPeriod"),
            ("period -1 over OHTTP", {**bad, "ohttp": True, "period": -1}, "BadPeriod"),
            ("a query with 6 buckets for k = 3",
             {**bad, "recipe": recipe(rr3, 2, "1") | {"query": query.to_json()},
              "ohttp": False, "period": None}, "QueryMismatch"),
        ])
        notes = {
            "Query": "Devices hold records; the recipe's query maps them to buckets.",
            "Ohttp": "The anonymizer is the OHTTP relay.",
            "Periodic": "The aggregators work in periods of `period` reports.",
            "Malicious": "Malicious devices as in vectors/sa2/protocol_transcripts.json.",
            "TimeBound": "App. A time window as in vectors/sa2/protocol_transcripts.json.",
            "FixedSize": "Fixed-size sampling as in vectors/sa2/protocol_transcripts.json.",
            "BadPeriod": "A period must be a positive number of reports.",
            "QueryMismatch": "The client refuses a recipe whose query does not have k buckets.",
        }
        return self.vector_file("sa2-ohttp/collections.json",
                                algorithm="SA2-collection-OHTTP-periodic",
                                schema=COLLECTION_SCHEMA, header=COLLECTION_HEADER, notes=notes,
                                groups=[{"op": "sa2.collection_ohttp", "params": {},
                                         "tests": tests}])

    # -- recipes and randomizers ----------------------------------------------------------------
    def _recipe_file(self) -> VectorFile:
        from dpspec.conformance.families.sa2 import vector_deployment

        dep = vector_deployment()

        def recipe(r: Any, B: int = 3, q: str = "1/2", **over: Any) -> dict[str, Any]:
            args: dict[str, Any] = dict(
                recipe_id="dpspec-sa2-recipe", task_id=vector_seed("sa2/task"),
                randomizer=r, B=B, q=Fraction(q), chunk_length=2,
                leader_pk=dep.leader_hpke.public_key, helper_pk=dep.helper_hpke.public_key,
                issuer_key=dep.issuer_sk.public_key(), epsilon=Fraction(1),
                delta=Fraction(1, 10**6))
            args.update(over)
            return protocol.make_recipe(**args)

        rr = Randomizer("randomized_response", 4, Fraction(1, 2))
        rap = Randomizer("rappor", 4, Fraction(1, 10))
        bin_ = Randomizer("binary_randomized_response", 2, Fraction(1, 4))
        gauss = fl.GaussianVector(2, Fraction(1), 8, Fraction(1, 10))
        base = recipe(rr)

        def edit(**kw: Any) -> dict[str, Any]:
            out = dict(base)
            for k, v in kw.items():
                if v is None:
                    out.pop(k, None)
                else:
                    out[k] = v
            return out

        def sub(key: str, **kw: Any) -> dict[str, Any]:
            inner = dict(base[key])
            for k, v in kw.items():
                if v is None:
                    inner.pop(k, None)
                else:
                    inner[k] = v
            return edit(**{key: inner})

        lead = base["aggregators"][0]
        help_ = base["aggregators"][1]
        small_issuer = {"modulus": "f" * 510, "exponent": 65537}
        q6 = {"features": [{"name": "a", "intervals": ["0", "1", "2"]},
                           {"name": "b", "categories": ["x"]}]}
        q4 = {"features": [{"name": "a", "intervals": ["0", "1", "2", "3"]}]}
        cases: list[tuple[str, Any]] = [
            ("accepted: randomized response, Poisson q = 1/2", base),
            ("accepted: binary RR with dummies 1/3 and population 10 (rate limit 13)",
             recipe(bin_, dummy_rate=Fraction(1, 3), population=10)),
            ("accepted: rappor with population 7, q = 1/2 (rate limit 7)",
             recipe(rap, population=7)),
            ("accepted: fixed size with population = B", recipe(rr, 3, "1", sampling="fixed_size",
                                                                  population=3)),
            ("accepted: time window t0 = 5/2, K = 1/3",
             recipe(rr, window=(Fraction(5, 2), Fraction(1, 3)))),
            ("accepted: a query of 4 buckets", edit(query=q4)),
            ("accepted: B = 1, q = 0", recipe(rr, 1, "0")),
            ("not an object", [base]),
            ("no recipeId", edit(recipeId=None)),
            ("no privacy", edit(privacy=None)),
            ("version 2", edit(version=protocol.RECIPE_VERSION + 1)),
            ("unknown randomizer", edit(randomizer={"name": "laplace", "flip": "1/2", "k": 4})),
            ("cohortSize 0", edit(cohortSize=0)),
            ("samplingRate 3/2", edit(samplingRate="3/2")),
            ("dummyRate -1/2", edit(dummyRate="-1/2")),
            ("privacy not an object", edit(privacy="eps=1")),
            ("epsilon missing", sub("privacy", epsilon=None)),
            ("delta missing", sub("privacy", delta=None)),
            ("population 0", edit(population=0)),
            ("population true", edit(population=True)),
            ("population '5'", edit(population="5")),
            ("dummies without a population",
             edit(randomizer=bin_.to_json(), decoding="identity", vdaf={"type": "Prio3Count",
                                                                         "shares": 2},
                  dummyRate="1/3")),
            ("sampling 'uniform'", edit(sampling="uniform")),
            ("fixed size with population B - 1",
             edit(sampling="fixed_size", samplingRate="1", population=2)),
            ("fixed size without a population", edit(sampling="fixed_size", samplingRate="1")),
            ("fixed size with q = 1/2", edit(sampling="fixed_size", population=3)),
            ("fixed size with dummies",
             recipe(bin_, 3, "1", dummy_rate=Fraction(1, 2), population=3) | {
                 "sampling": "fixed_size"}),
            ("a malformed query", edit(query={"features": []})),
            ("timeWindow not an object", edit(timeWindow=[0, 1])),
            ("timeWindow K = 0", edit(timeWindow={"t0": "0", "K": "0"})),
            ("timeWindow without t0", edit(timeWindow={"K": "1"})),
            ("rounds 2 for randomized response", edit(rounds=2)),
            ("rounds 0", edit(rounds=0)),
            ("rounds above the maximum", edit(rounds=protocol.MAX_ROUNDS + 1)),
            ("rounds true", edit(rounds=True)),
            ("unknown accountant", sub("privacy", accountant="renyi-2")),
            ("vdaf without a type", edit(vdaf={"shares": 2})),
            ("vdaf a string", edit(vdaf="Prio3Histogram")),
            ("one aggregator", edit(aggregators=[lead])),
            ("aggregators in the wrong order", edit(aggregators=[help_, lead])),
            ("an aggregator that is not an object", edit(aggregators=[lead, "helper"])),
            ("a 31-byte helper key", edit(aggregators=[lead, {
                **help_, "hpkePublicKey": help_["hpkePublicKey"][:62]}])),
            ("a helper key that is not hex", edit(aggregators=[lead, {
                **help_, "hpkePublicKey": "zz" * 32}])),
            ("a helper key that is not a string", edit(aggregators=[lead, {
                **help_, "hpkePublicKey": 7}])),
            ("issuer not an object", edit(issuer="rsa")),
            ("issuer exponent 65536 (even)", sub("issuer", exponent=65536)),
            ("issuer exponent 1", sub("issuer", exponent=1)),
            ("issuer exponent 3 (the smallest accepted) with a 2040-bit modulus",
             edit(issuer=small_issuer | {"exponent": 3})),
            ("issuer exponent true", sub("issuer", exponent=True)),
            ("empty recipeId", edit(recipeId="")),
            ("taskId of 31 bytes", edit(taskId=base["taskId"][:62])),
            ("chunkLength 0", sub("vdaf", chunkLength=0)),
            ("chunkLength true", sub("vdaf", chunkLength=True)),
            ("decoding 'identity' for randomized response", edit(decoding="identity")),
            ("vdaf length 5 for k = 4", sub("vdaf", length=5)),
            ("vdaf Prio3Count for randomized response", sub("vdaf", type="Prio3Count")),
            ("issuer modulus of 2040 bits", edit(issuer=small_issuer)),
            ("leader and helper share a key",
             edit(aggregators=[lead, {**help_, "hpkePublicKey": lead["hpkePublicKey"]}])),
            ("randomized response with dummies",
             recipe(rr, dummy_rate=Fraction(1, 2), population=10)),
            ("delta 0", sub("privacy", delta="0")),
            ("delta 1", sub("privacy", delta="1")),
            ("rappor-clone accountant for randomized response",
             sub("privacy", accountant="rappor-clone")),
            ("a query of 6 buckets for k = 4", edit(query=q6)),
            ("accepted: Gaussian vector updates, 2 rounds", recipe(gauss, rounds=2)),
            ("Gaussian vector with dummies", recipe(gauss, dummy_rate=Fraction(1, 2),
                                                   population=10)),
            ("Gaussian vector with fixed-size sampling",
             recipe(gauss, 3, "1", sampling="fixed_size", population=3)),
            ("Gaussian vector with a query", recipe(gauss) | {"query": q4}),
        ]
        groups = Groups(self.handlers())
        groups.add("sa2.recipe_structure", [(c, {"recipe": d}) for c, d in cases])
        seed = vector_seed("sa2-ohttp/randomizer").hex()
        tag = protocol.TAGS["randomizer"].format(i=0)
        rand_cases: list[tuple[str, dict[str, Any]]] = [
            ("randomized response k = 3, flip 1/2", {"randomizer": {
                "name": "randomized_response", "k": 3, "flip": "1/2"},
                "inputs": [0, 1, 2, 2, 1, 0]}),
            ("binary randomized response flip 1 (always replaced)", {"randomizer": {
                "name": "binary_randomized_response", "flip": "1"}, "inputs": [0, 1, 1, 0]}),
            ("rappor k = 4, flip 1/10: maxWeight and the exact overweight probability",
             {"randomizer": {"name": "rappor", "k": 4, "flip": "1/10"},
              "inputs": [0, 1, 2, 3, 3]}),
            ("rappor k = 3, flip 49/100, overweight 1/2: heavy reports are withheld",
             {"randomizer": {"name": "rappor", "k": 3, "flip": "49/100", "overweight": "1/2"},
              "inputs": [0, 1, 2, 0, 1, 2]}),
            ("rappor k = 2, flip 1/1000, overweight 1/10", {"randomizer": {
                "name": "rappor", "k": 2, "flip": "1/1000", "overweight": "1/10"},
                "inputs": [1]}),
        ]
        rr3 = {"name": "randomized_response", "k": 3, "flip": "1/2"}
        groups.add("sa2.randomizer", rand_cases, [
            ("not an object", {"randomizer": "rr", "inputs": []}, "BadRandomizer"),
            ("unknown name", {"randomizer": {**rr3, "name": "rr"}, "inputs": []},
             "BadRandomizer"),
            ("flip 0", {"randomizer": {**rr3, "flip": "0"}, "inputs": []}, "BadRandomizer"),
            ("flip 3/2", {"randomizer": {**rr3, "flip": "3/2"}, "inputs": []}, "BadRandomizer"),
            ("flip missing", {"randomizer": {"name": "rappor", "k": 3}, "inputs": []},
             "BadRandomizer"),
            ("rappor flip 1/2", {"randomizer": {"name": "rappor", "k": 3, "flip": "1/2"},
                                 "inputs": []}, "BadRandomizer"),
            ("k = 1", {"randomizer": {**rr3, "k": 1}, "inputs": []}, "BadRandomizer"),
            ("k = true", {"randomizer": {**rr3, "k": True}, "inputs": []}, "BadRandomizer"),
            ("k missing", {"randomizer": {"name": "randomized_response", "flip": "1/2"},
                           "inputs": []}, "BadRandomizer"),
            ("overweight for randomized response", {"randomizer": {**rr3, "overweight": "1/2"},
                                                    "inputs": []}, "BadRandomizer"),
            ("rappor overweight 0", {"randomizer": {"name": "rappor", "k": 3, "flip": "1/4",
                                                    "overweight": "0"}, "inputs": []},
             "BadRandomizer"),
            ("rappor overweight 1", {"randomizer": {"name": "rappor", "k": 3, "flip": "1/4",
                                                    "overweight": "1"}, "inputs": []},
             "BadRandomizer"),
            ("input k", {"randomizer": rr3, "inputs": [3]}, "BadInput"),
            ("input -1", {"randomizer": rr3, "inputs": [-1]}, "BadInput"),
            ("input true", {"randomizer": rr3, "inputs": [True]}, "BadInput"),
            ("rappor input 3 for k = 3", {"randomizer": {"name": "rappor", "k": 3,
                                                         "flip": "1/4"}, "inputs": [3]},
             "BadInput"),
        ], {"seed": seed, "tag": tag})
        sk = dep.issuer_sk
        n = sk.p * sk.q
        nlen = (n.bit_length() + 7) // 8
        key = {"issuerP": format(sk.p, "x"), "issuerQ": format(sk.q, "x")}
        msg = vector_seed("sa2-ohttp/token-input", 83).hex()
        salt = vector_seed("sa2-ohttp/salt", 48).hex()
        r = format(int.from_bytes(vector_seed("sa2-ohttp/r", 200), "big"), "x")
        good = self._run("sa2.blind_signature", {**key, "msg": msg, "salt": salt, "r": r})

        def flip(h: str, pos: int) -> str:
            data = bytearray(bytes.fromhex(h))
            data[pos] ^= 1
            return data.hex()

        sig_cases: list[tuple[str, dict[str, Any]]] = [
            ("blind, sign, finalize, verify", {"msg": msg, "salt": salt, "r": r}),
            ("r = 1 (no blinding: blindedMsg is the PSS encoding)",
             {"msg": msg, "salt": salt, "r": "1"}),
            ("r = n - 1", {"msg": msg, "salt": salt, "r": format(n - 1, "x")}),
            ("an empty message", {"msg": "", "salt": salt, "r": r}),
            ("a signature of another length does not verify",
             {"msg": msg, "salt": salt, "r": r, "sig": good["sig"][:-2]}),
            ("a signature >= n does not verify",
             {"msg": msg, "salt": salt, "r": r, "sig": "ff" * nlen}),
            ("a tampered signature does not verify",
             {"msg": msg, "salt": salt, "r": r, "sig": flip(good["sig"], nlen - 1)}),
            ("the signature of another message does not verify",
             {"msg": msg, "salt": salt, "r": r,
              "sig": self._run("sa2.blind_signature", {**key, "msg": "", "salt": salt,
                                                        "r": r})["sig"]}),
        ]
        groups.add("sa2.blind_signature", sig_cases, [
            ("a 47-byte salt", {"msg": msg, "salt": salt[:-2], "r": r}, "BadBlind"),
            ("r = 0", {"msg": msg, "salt": salt, "r": "0"}, "BadBlind"),
            ("r = n", {"msg": msg, "salt": salt, "r": format(n, "x")}, "BadBlind"),
            ("r = p (not invertible mod n)", {"msg": msg, "salt": salt, "r": key["issuerP"]},
             "BadBlind"),
            ("a blinded message one byte short",
             {"msg": msg, "salt": salt, "r": r, "blindedMsg": good["blindedMsg"][:-2]},
             "BadBlindSign"),
            ("a blinded message >= n",
             {"msg": msg, "salt": salt, "r": r, "blindedMsg": "ff" * nlen}, "BadBlindSign"),
            ("a blind signature one byte short",
             {"msg": msg, "salt": salt, "r": r, "blindSig": good["blindSig"][:-2]},
             "BadFinalize"),
            ("a tampered blind signature",
             {"msg": msg, "salt": salt, "r": r, "blindSig": flip(good["blindSig"], 5)},
             "BadFinalize"),
            ("a blinded message the signer signs but Finalize rejects (tampered)",
             {"msg": msg, "salt": salt, "r": r, "blindedMsg": flip(good["blindedMsg"], 9)},
             "BadFinalize"),
        ], key)
        tp = {"seed": vector_seed("sa2-ohttp/ideal").hex(), "tag": "sa2/poisson"}
        vecs = [[1, 2], [3, 4], [5, 6], [0, 7]]
        groups.add("sa2.ideal_release", [
            ("integer sum, A_B with B = k", {"mode": "aggregate", "messages": [3, -1, 4, 1, 5],
                                            "B": "5"}),
            ("integer sum, A_B with B = k + 1: no output",
             {"mode": "aggregate", "messages": [3, -1, 4, 1, 5], "B": "6"}),
            ("integer sum, Poisson q = 1/2, B = 1",
             {"mode": "samplable", "messages": [3, -1, 4, 1, 5], "B": "1", "q": "1/2"}),
            ("vector sum modulo 5, fixed size B = 3",
             {"mode": "fixed_size", "messages": vecs, "B": "3", "length": "2", "modulus": "5"}),
            ("vector sum modulo 7, A_B", {"mode": "aggregate", "messages": vecs, "B": "4",
                                          "length": "2", "modulus": "7"}),
            ("vector sum, fixed size B = 5 of 4: no output, nothing drawn",
             {"mode": "fixed_size", "messages": vecs, "B": "5", "length": "2"}),
            ("vector sum, Poisson q = 1: everything, no bits", {
                "mode": "samplable", "messages": vecs, "B": "4", "q": "1", "length": "2"}),
        ], [
            ("a boolean message for the integer sum",
             {"mode": "aggregate", "messages": [1, True], "B": "1"}, "BadMessage"),
            ("a string message for the integer sum",
             {"mode": "aggregate", "messages": ["1"], "B": "1"}, "BadMessage"),
            ("a vector with a boolean", {"mode": "aggregate", "messages": [[1, False]],
                                         "B": "1", "length": "2"}, "BadMessage"),
            ("a scalar for the vector sum", {"mode": "aggregate", "messages": [1], "B": "1",
                                             "length": "1"}, "BadMessage"),
            ("a vector of length 3 for length 2", {"mode": "aggregate", "messages": [[1, 2, 3]],
                                                   "B": "1", "length": "2"}, "BadMessage"),
            ("B = 0 with Poisson sampling", {"mode": "samplable", "messages": [1], "B": "0",
                                             "q": "1/2"}, "BadCohort"),
            ("B = 0 with fixed size", {"mode": "fixed_size", "messages": [1], "B": "0"},
             "BadCohort"),
            ("an unknown mode", {"mode": "shuffle", "messages": [1], "B": "1"}, "BadCohort"),
        ], tp)
        dp = {"seed": vector_seed("sa2-ohttp/donation").hex(), "tag": "sa2/donation"}
        groups.add("sa2.donation_wait", [
            ("m = 3, K = 2: waits 0, 2, 4 or null", {"m": "3", "K": "2", "count": "6"}),
            ("m = 1, K = 1/3: always the first round", {"m": "1", "K": "1/3", "count": "2"}),
        ], [
            ("K = 0", {"m": "3", "K": "0", "count": "1"}, "BadWindow"),
            ("K = -1", {"m": "3", "K": "-1", "count": "1"}, "BadWindow"),
        ], dp)
        # -- appended: the ideal functionality's steps and RAPPOR's bounds at their boundaries --
        groups.add("sa2.randomizer", [
            ("rappor k = 2, flip 1/4, overweight 1/4: Pr[Bin(1, 1/4) <= 0] = 3/4 = 1 - overweight"
             " exactly, so maxWeight = 1 (>=, not >)",
             {"randomizer": {"name": "rappor", "k": 2, "flip": "1/4", "overweight": "1/4"},
              "inputs": [0, 1]}),
            ("rappor k = 10, flip 1/10, overweight 1/100: maxWeight 4, well below k - 1",
             {"randomizer": {"name": "rappor", "k": 10, "flip": "1/10", "overweight": "1/100"},
              "inputs": [3, 9]}),
        ], [], {"seed": seed, "tag": tag})
        bounds = [
            ("rappor k = 4, flip 1/10", {"randomizer": {"name": "rappor", "k": 4, "flip": "1/10"}}),
            ("rappor k = 10, flip 1/10, overweight 1/100", {"randomizer": {
                "name": "rappor", "k": 10, "flip": "1/10", "overweight": "1/100"}}),
            ("rappor k = 5, flip 1/3", {"randomizer": {"name": "rappor", "k": 5, "flip": "1/3"}}),
            ("rappor k = 2, flip 1/4, overweight 1/4 (the tie)", {"randomizer": {
                "name": "rappor", "k": 2, "flip": "1/4", "overweight": "1/4"}}),
            ("rappor k = 3, flip 49/100, overweight 1/2", {"randomizer": {
                "name": "rappor", "k": 3, "flip": "49/100", "overweight": "1/2"}}),
        ]
        not_rappor: list[tuple[str, dict[str, Any], str]] = [
            ("randomized response: rappor only", {"randomizer": rr3}, "NotRappor"),
            ("binary randomized response: rappor only", {"randomizer": {
                "name": "binary_randomized_response", "flip": "1/4"}}, "NotRappor"),
        ]
        groups.add("sa2.rappor_max_weight", bounds, not_rappor)
        groups.add("sa2.rappor_bit_epsilon", bounds, not_rappor)
        ps = {"seed": vector_seed("sa2-ohttp/ideal").hex(), "tag": "sa2/poisson"}
        groups.add("sa2.poisson_sample", [
            ("k = 0: no coin", {"k": "0", "q": "1/2"}),
            ("k = 1", {"k": "1", "q": "1/2"}),
            ("k = 6, q = 1/3", {"k": "6", "q": "1/3"}),
        ], [
            ("k = -1", {"k": "-1", "q": "1/2"}, "BadCount"),
            ("q = 2", {"k": "1", "q": "2"}, "BadCount"),
        ], ps)
        fs = {"seed": vector_seed("sa2-ohttp/ideal").hex(), "tag": "sa2/fixed"}
        groups.add("sa2.fixed_size_subset", [
            ("k = 0 < B = 1: null, nothing drawn", {"k": "0", "B": "1"}),
            ("k = 1 = B", {"k": "1", "B": "1"}),
            ("k = 2 < B = 3: null", {"k": "2", "B": "3"}),
            ("k = 6, B = 3", {"k": "6", "B": "3"}),
            ("k = 5 = B: a whole permutation", {"k": "5", "B": "5"}),
        ], [
            ("k = -1", {"k": "-1", "B": "1"}, "BadCount"),
            ("B = 0", {"k": "3", "B": "0"}, "BadCohort"),
        ], fs)
        dr = {"seed": vector_seed("sa2-ohttp/donation").hex(), "tag": "sa2/donation"}
        groups.add("sa2.donation_round", [
            ("m = 1: always round 0", {"m": 1}),
            ("m = 2", {"m": 2}),
            ("m = 4", {"m": 4}),
        ], [
            ("m = 0", {"m": 0}, "BadCount"),
            ("m = -1", {"m": -1}, "BadCount"),
            ("m = true (a boolean is not an integer)", {"m": True}, "BadCount"),
            ("m = '2' (a string)", {"m": "2"}, "BadCount"),
        ], dr)
        notes = {
            "NotRappor": "max_weight and bit_epsilon apply to rappor only.",
            "BadCount": "A count that must be an integer >= 0 (k) or >= 1 (m), or a rate outside"
                        " [0, 1].",
            "BadRandomizer": "A malformed randomizer (see the header).",
            "BadInput": "The randomizer's input must be an integer in [0, k).",
            "BadMessage": "A message that the aggregation cannot decode.",
            "BadCohort": "B must be >= 1 (and the mode one of aggregate, samplable, "
                         "fixed_size).",
            "BadWindow": "The donation window K must be > 0.",
            "BadBlind": "Blind refuses: salt not 48 bytes, r outside [1, n) or not invertible.",
            "BadBlindSign": "BlindSign refuses: wrong length or representative >= n.",
            "BadFinalize": "Finalize refuses: wrong length or the unblinded signature does not "
                           "verify.",
        }
        return self.vector_file("sa2-ohttp/recipe_structure.json",
                                algorithm="SA2-recipe-structure-and-randomizers",
                                schema=RECIPE_SCHEMA, header=RECIPE_HEADER, notes=notes,
                                groups=groups.groups)

    # -- query ------------------------------------------------------------------------------------
    def _query_file(self) -> VectorFile:
        groups = Groups(self.handlers())
        age = {"name": "age", "intervals": ["20", "30", "40", "50", "60", "70", "80"]}
        word = {"name": "word", "categories": ["apple", "pear", "plum"]}
        frac = {"name": "x", "intervals": ["-1/2", "0", "3/2"]}
        two = {"features": [age, word]}
        recs: list[Any] = [
            {"age": 20, "word": "apple"}, {"age": 19, "word": "pear"},
            {"age": 80, "word": "plum"}, {"age": 79, "word": "kiwi"},
            {"age": "59/2", "word": "Apple"}, {"age": "30", "word": "plum"},
            {"word": "pear"}, {"age": True, "word": 3}, {"age": [30], "word": None},
            {"age": "thirty", "word": "apple"}, {"age": "69.99", "word": "pear"}, {},
        ]
        bad: list[InvalidCase] = [
            ("query is a list", {"query": [age]}, "BadQuery"),
            ("no features", {"query": {"features": []}}, "BadQuery"),
            ("features not a list", {"query": {"features": age}}, "BadQuery"),
            ("a feature that is not an object", {"query": {"features": ["age"]}}, "BadQuery"),
            ("empty name", {"query": {"features": [{**age, "name": ""}]}}, "BadQuery"),
            ("no name", {"query": {"features": [{"intervals": ["0", "1"]}]}}, "BadQuery"),
            ("both rules", {"query": {"features": [{**age, "categories": ["a"]}]}}, "BadQuery"),
            ("neither rule", {"query": {"features": [{"name": "age"}]}}, "BadQuery"),
            ("one boundary", {"query": {"features": [{"name": "a", "intervals": ["1"]}]}},
             "BadQuery"),
            ("intervals not a list", {"query": {"features": [{"name": "a", "intervals": "1"}]}},
             "BadQuery"),
            ("equal boundaries", {"query": {"features": [
                {"name": "a", "intervals": ["0", "1", "1"]}]}}, "BadQuery"),
            ("decreasing boundaries", {"query": {"features": [
                {"name": "a", "intervals": ["0", "2", "1"]}]}}, "BadQuery"),
            ("a boundary that is not a rational", {"query": {"features": [
                {"name": "a", "intervals": ["0", "x"]}]}}, "BadQuery"),
            ("no categories", {"query": {"features": [{"name": "w", "categories": []}]}},
             "BadQuery"),
            ("a category that is not a string", {"query": {"features": [
                {"name": "w", "categories": ["a", 1]}]}}, "BadQuery"),
            ("a repeated category", {"query": {"features": [
                {"name": "w", "categories": ["a", "b", "a"]}]}}, "BadQuery"),
            ("categories not a list", {"query": {"features": [
                {"name": "w", "categories": "ab"}]}}, "BadQuery"),
            ("two features named age", {"query": {"features": [age, {**word, "name": "age"}]}},
             "BadQuery"),
            ("a record that is not an object", {"query": two, "records": [[20, "apple"]]},
             "BadRecord"),
        ]
        for i, (c, inp, f) in enumerate(bad):
            if "records" not in inp:
                bad[i] = (c, {**inp, "records": [{}]}, f)
        groups.add("sa2.query", [
            ("age (1 + 6 buckets) x word (1 + 3): both sides of every boundary, OOV cases",
             {"query": two, "records": recs}),
            ("one interval feature with rational boundaries",
             {"query": {"features": [frac]},
              "records": [{"x": "-1/2"}, {"x": "-0.5000001"}, {"x": "-1/3"}, {"x": 0},
                          {"x": "1499/1000"}, {"x": "3/2"}, {"x": 1}]}),
            ("word then age: the first feature is the most significant",
             {"query": {"features": [word, age]}, "records": recs[:4]}),
            ("two boundaries: one bucket plus OOV; a single category",
             {"query": {"features": [{"name": "b", "intervals": ["0", "1"]},
                                     {"name": "c", "categories": ["yes"]}]},
              "records": [{"b": 0, "c": "yes"}, {"b": 1, "c": "no"}, {"b": "1/2"}]}),
        ], bad)
        groups.add("sa2.query_labels", [
            (f"index {i} of 28", {"index": str(i)}) for i in (0, 1, 3, 4, 5, 26, 27)], [
            ("index 28 = K", {"index": "28"}, "OutOfRange"),
            ("index -1", {"index": "-1"}, "OutOfRange")], {"query": two})
        notes = {
            "BadQuery": "A malformed query (last paragraph of the header).",
            "BadRecord": "A record must be an object.",
            "OutOfRange": "The index must lie in [0, K).",
        }
        return self.vector_file("sa2-ohttp/query.json", algorithm="SA2-query-bucketing",
                                schema=QUERY_SCHEMA, header=QUERY_HEADER, notes=notes,
                                groups=groups.groups)


COLLECTION_HEADER = [
    "Whole SA2 collections exactly as in vectors/sa2/protocol_transcripts.json (same keys, tapes,"
    " report layout, verdicts and release; see its header), with two system parts changed:",
    "`ohttp` true: the anonymizer is the OHTTP relay of sa2-ohttp/relay.json (op ohttp.relay,"
    " with the collection's seed): the reports are encapsulated in sending order"
    " (`encRequests`), dropped and shuffled with the same tapes and rules as the ideal"
    " anonymizer, and `responsesOk` clients read a 200 answer; false: the ideal anonymizer.",
    "`period` p (not null): periodic sub-aggregation ([SA2] sec. 4.7 of seed 000, 4.8 of seed"
    " 001; dpspec.spec.sa2.periodic): the aggregators verify and aggregate the delivered reports"
    " p at a time in arrival order (the last period may be shorter), discarding each period's"
    " raw shares; the minimum batch size is enforced on the final release only. The verdicts and"
    " the release equal one-shot aggregation's. A period below 1 is invalid. `periods` has one"
    " entry per closed period: [periods closed so far, verdicts so far, reports the Leader"
    " accepted so far, sealed shares (enc or ciphertext of a delivered report) still reachable"
    " from the aggregation's state: always 0]; empty without periods.",
    "A recipe with a `query` (sa2-ohttp/query.json): device i's `data` entry is its record, and"
    " it feeds its record's bucket to the randomizer; the query must have k buckets.",
]


RECIPE_HEADER = [
    "The client's structural checks on an SA2 recipe (dpspec.spec.sa2.protocol.parse_recipe and"
    " check_recipe_structure; [SA2] sec. 4.1, 4.8 'Reliance on client code'), without the"
    " privacy claim (that is vectors/sa2/recipe_checks.json). The recipe format is the one of"
    " vectors/sa2/protocol_transcripts.json; each refused recipe changes one field of an"
    " accepted base recipe.",
    "sa2.recipe_structure: `verdict` is 'accepted' or the refusal code, checked in this order:"
    " malformed (not an object, a missing field), unsupported_version, malformed (randomizer,"
    " cohortSize >= 1, samplingRate and dummyRate in [0, 1], privacy object, epsilon, delta,"
    " population integer >= 1, dummies need a population, sampling 'poisson' or 'fixed_size',"
    " fixed size needs population >= B with q = 1 and no dummies, query, timeWindow object"
    " with K > 0, rounds integer in [1, MAX_ROUNDS] and only for the Gaussian vector"
    " randomizer), unsupported_accountant, malformed (vdaf object with a type, aggregators"
    " [leader, helper] with 32-byte hex keys, issuer object with hex modulus and odd exponent"
    " >= 3, non-empty recipeId, 32-byte taskId), vdaf_mismatch (chunkLength a positive"
    " integer), decoding_mismatch, vdaf_mismatch (the VDAF the randomizer needs),"
    " weak_issuer_key (modulus below 2048 bits), same_aggregator_keys, dummy_unsupported"
    " (randomized response has no zero measurement), malformed (delta in (0, 1)),"
    " accountant_not_applicable, query_mismatch. An accepted recipe also gives what the client"
    " read: B, q, dummyRate, population, sampling, window [t0, K], rounds, k, the rate limit"
    " maxReports = floor(2 N (q + (1 - q) q')) (null without a population) and the VDAF class.",
    "sa2.randomizer: the local randomizers (dpspec.spec.sa2.randomizers), from the tape (seed,"
    " tag) of vectors/tape, applied to `inputs` in turn: randomized response (k >= 2) and binary"
    " randomized response (k = 2): if bernoulli(flip) then uniform(k) else x; rappor: bit j ="
    " [j == x] XOR bernoulli(flip) for j = 0..k-1, and a report heavier than maxWeight is null"
    " (not uploaded). maxWeight = the least m >= 1 with Pr[1 + Bin(k - 1, flip) <= m] >="
    " 1 - overweight (default overweight 1/10^9); overweightProbability = 1 - ((1 - flip)"
    " Pr[Bin(k-1, flip) <= m - 1] + flip Pr[Bin(k-1, flip) <= m]), exact. `decoded` is Dec"
    " (one-hot for randomized response, the value for binary, the bits for rappor); `zero` the"
    " zero measurement for dummies (null for randomized response). Invalid: unknown name,"
    " flip not in (0, 1] (rappor: (0, 1/2)), k not an integer >= 2, overweight outside (0, 1)"
    " or given for a non-rappor randomizer, an input outside [0, k).",
    "sa2.blind_signature: RFC 9474 RSABSSA-SHA384-PSS-Deterministic with the vector issuer key"
    " (issuerP, issuerQ, e = 65537) as in vectors/sa2/tokens.json, step by step: (blindedMsg, inv)"
    " = Blind(pk, msg, salt, r) (salt 48 bytes, r in [1, n) hex, invertible mod n), blindSig ="
    " BlindSign(sk, blindedMsg), sig = Finalize(pk, msg, blindSig, inv), verified ="
    " RSASSA-PSS-VERIFY(pk, msg, sig). An input `blindedMsg`, `blindSig` or `sig` replaces the"
    " value of that step before the next one runs. A refusal of any step is invalid.",
    "sa2.ideal_release: the ideal functionality as in vectors/sa2/ideal_functionality.json (mode"
    " aggregate = A_B^Dec, samplable = SA_B^Dec Poisson(q) from the tape, fixed_size = the"
    " partial Fisher-Yates B-subset) over the integer sum of integer messages, or (with `length`)"
    " the coordinate-wise sum of integer vectors of that length, reduced modulo `modulus` after"
    " each addition if given. Booleans are not integers. release null is bottom.",
    "sa2.donation_wait (App. A): `count` devices in turn from one tape: m coins"
    " bernoulli(1/m) (all drawn); wait = K * (index of the first 1), null if none. K > 0.",
    "sa2.rappor_max_weight (rappor only, else invalid): maxWeight and overweightProbability as"
    " in sa2.randomizer. sa2.rappor_bit_epsilon (rappor only, else invalid): bitEpsilon ="
    " ln((1 - flip) / flip) computed at 50 significant digits and rounded down to 20 decimal"
    " places, as a fraction 'a/b' in lowest terms.",
    "sa2.poisson_sample: the secret selection of SA_B (never released by an implementation):"
    " bernoulli(q) for i = 0..k-1 in order; k an integer >= 0. sa2.fixed_size_subset: null (no"
    " draw) if k < B, else the first B positions of the partial Fisher-Yates of"
    " sa2.ideal_release mode fixed_size; B >= 1, k >= 0. sa2.donation_round: the m coins of"
    " sa2.donation_wait, the index of the first 1 or null; m is the JSON value as given and"
    " must be an integer >= 1 (booleans and strings are refused).",
]


# RFC 9458 Appendix A (numbers only)
RFC_SKR = "3c168975674b2fa8e465970b79c8dcf09f1c741626480bd4c6162fc5b6a98e1a"
RFC_KEY_CONFIG = ("01002031e1f05a740102115220e9af918f738674aec95f54db6e04eb705aae8e798155"
                  "00080001000100010003")
RFC_REQUEST = "00034745540568747470730b6578616d706c652e636f6d012f"
RFC_SKE = "bc51d5e930bda26589890ac7032f70ad12e4ecb37abb1b65b1256c9c48999c73"
RFC_RESPONSE_NONCE = "c789e7151fcba46158ca84b04464910d"


def _synthetic_report(k: int) -> protocol.Report:
    """A report whose fields are bytes of the vector seed 'sa2-ohttp/report/{k}' (the relay does
    not look inside a report; only the sizes resemble a real one)."""
    t = RandomTape(vector_seed(f"sa2-ohttp/report/{k}"), "sa2-ohttp/report")
    sizes = (16, 0, 8, 32, 24, 32, 20)
    return protocol.Report(*[bytes(t.uniform(256) for _ in range(s)) for s in sizes])


FAMILY = Sa2OhttpFamily()
