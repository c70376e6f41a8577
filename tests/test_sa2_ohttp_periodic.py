"""[SA2] sec. 4.2/4.4/4.5 system parts: the anonymizer as an Oblivious HTTP relay (RFC 9458 over
Binary HTTP, RFC 9292; dpspec.spec.sa2.ohttp) and periodic sub-aggregation with the raw shares
discarded (dpspec.spec.sa2.periodic); both keep the release equal to the ideal functionality's.

RFC 9458 Appendix A: the numbers below are the RFC's test vector (key configuration with key id 1,
DHKEM(X25519, HKDF-SHA256), HKDF-SHA256 with AES-128-GCM and ChaCha20-Poly1305; a GET of
https://example.com/; a 200 response), copied from RFC 9458 Appendix A as reproduced in public
OHTTP implementations' test files (numbers only).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpspec.spec.sa2 import ideal, ohttp, protocol
from dpspec.spec.sa2.periodic import PeriodicAggregation, aggregate_in_periods, state_bytes
from dpspec.spec.sa2.protocol import TAGS, PrivacyBudget
from dpspec.spec.sa2.randomizers import Randomizer
from dpspec.spec.tape import RandomTape

h = bytes.fromhex

# -- RFC 9458 Appendix A ------------------------------------------------------------------------
RFC = {
    "skR": "3c168975674b2fa8e465970b79c8dcf09f1c741626480bd4c6162fc5b6a98e1a",
    "pkR": "31e1f05a740102115220e9af918f738674aec95f54db6e04eb705aae8e798155",
    "keyConfig": "01002031e1f05a740102115220e9af918f738674aec95f54db6e04eb705aae8e798155"
                 "00080001000100010003",
    "request": "00034745540568747470730b6578616d706c652e636f6d012f",
    "skE": "bc51d5e930bda26589890ac7032f70ad12e4ecb37abb1b65b1256c9c48999c73",
    "pkE": "4b28f881333e7c164ffc499ad9796f877f4e1051ee6d31bad19dec96c208b472",
    "info": "6d6573736167652f626874747020726571756573740001002000010001",
    "encRequest": "010020000100014b28f881333e7c164ffc499ad9796f877f4e1051ee6d31bad19dec96c208b472"
                  "6374e469135906992e1268c594d2a10c695d858c40a026e7965e7d86b83dd440b2c0185204b4d63525",
    "response": "0140c8",
    "secret": "62d87a6ba569ee81014c2641f52bea36",
    "responseNonce": "c789e7151fcba46158ca84b04464910d",
    "salt": "4b28f881333e7c164ffc499ad9796f877f4e1051ee6d31bad19dec96c208b472"
            "c789e7151fcba46158ca84b04464910d",
    "prk": "979aaeae066cf211ab407b31ae49767f344e1501e475c84e8aff547cc5a683db",
    "aeadKey": "5d0172a080e428b16d298c4ea0db620d",
    "aeadNonce": "f6bf1aeb88d6df87007fa263",
    "encResponse": "c789e7151fcba46158ca84b04464910d86f9013e404feea014e7be4a441f234f857fbd",
}


def test_rfc9458_key_config() -> None:
    kc = ohttp.KeyConfig.decode(h(RFC["keyConfig"]))
    assert (kc.key_id, kc.kem_id, kc.public_key) == (1, 0x0020, h(RFC["pkR"]))
    assert kc.algorithms == ((0x0001, 0x0001), (0x0001, 0x0003))
    assert kc.encode() == h(RFC["keyConfig"])
    assert kc.supports_suite()


def test_rfc9458_binary_http_messages() -> None:
    req = ohttp.BhttpRequest.decode(h(RFC["request"]))
    assert req == ohttp.BhttpRequest(b"GET", b"https", b"example.com", b"/")
    assert req.encode() == h(RFC["request"])  # empty sections truncated
    resp = ohttp.BhttpResponse.decode(h(RFC["response"]))
    assert resp == ohttp.BhttpResponse(200)
    assert resp.encode() == h(RFC["response"])


def test_rfc9458_request_encapsulation() -> None:
    kc = ohttp.KeyConfig.decode(h(RFC["keyConfig"]))
    assert ohttp.request_info(1) == h(RFC["info"])
    msg, ctx = ohttp.encapsulate_request(kc, h(RFC["request"]), h(RFC["skE"]))
    assert msg == h(RFC["encRequest"])
    assert ctx.enc == h(RFC["pkE"])
    request, gw = ohttp.decapsulate_request(h(RFC["skR"]), kc, h(RFC["encRequest"]))
    assert request == h(RFC["request"])
    assert gw.enc == h(RFC["pkE"])


def test_rfc9458_response_encapsulation() -> None:
    kc = ohttp.KeyConfig.decode(h(RFC["keyConfig"]))
    _, client = ohttp.encapsulate_request(kc, h(RFC["request"]), h(RFC["skE"]))
    _, gw = ohttp.decapsulate_request(h(RFC["skR"]), kc, h(RFC["encRequest"]))
    keys = ohttp.response_keys(gw.context, gw.enc, h(RFC["responseNonce"]))
    assert gw.enc + h(RFC["responseNonce"]) == h(RFC["salt"])
    assert (keys.secret, keys.prk, keys.key, keys.nonce) == (
        h(RFC["secret"]), h(RFC["prk"]), h(RFC["aeadKey"]), h(RFC["aeadNonce"]))
    enc_resp = ohttp.encapsulate_response(gw, h(RFC["response"]), h(RFC["responseNonce"]))
    assert enc_resp == h(RFC["encResponse"])
    assert ohttp.decapsulate_response(client, enc_resp) == h(RFC["response"])


# -- invalid messages ---------------------------------------------------------------------------
def test_rejects_bad_messages() -> None:
    kc = ohttp.KeyConfig.decode(h(RFC["keyConfig"]))
    enc_req = bytearray(h(RFC["encRequest"]))
    for mutate in (0, 2, 7, len(enc_req) - 1):  # key id, KEM id, enc, tag
        bad = bytearray(enc_req)
        bad[mutate] ^= 1
        with pytest.raises(ohttp.OhttpError):
            ohttp.decapsulate_request(h(RFC["skR"]), kc, bytes(bad))
    with pytest.raises(ohttp.OhttpError):
        ohttp.decapsulate_request(h(RFC["skR"]), kc, bytes(enc_req[:40]))
    _, client = ohttp.encapsulate_request(kc, h(RFC["request"]), h(RFC["skE"]))
    bad_resp = bytearray(h(RFC["encResponse"]))
    bad_resp[-1] ^= 1
    with pytest.raises(ohttp.OhttpError):
        ohttp.decapsulate_response(client, bytes(bad_resp))
    with pytest.raises(ohttp.OhttpError):
        ohttp.decapsulate_response(client, bytes(10))
    for bad_kc in (h(RFC["keyConfig"])[:-1], h(RFC["keyConfig"]) + b"\x00",
                   h(RFC["keyConfig"])[:35] + b"\x00\x00",                      # no algorithms
                   b"\x01\x00\x10" + h(RFC["keyConfig"])[3:]):                  # P-256 KEM id
        with pytest.raises(ohttp.OhttpError):
            ohttp.KeyConfig.decode(bad_kc)
    only_chacha = ohttp.KeyConfig(1, 0x0020, h(RFC["pkR"]), ((1, 3),))
    with pytest.raises(ohttp.OhttpError):
        ohttp.encapsulate_request(only_chacha, b"x")
    with pytest.raises(ohttp.OhttpError):
        ohttp.BhttpRequest.decode(h("01") + h(RFC["request"])[1:])  # framing indicator 1
    with pytest.raises(ohttp.OhttpError):
        ohttp.BhttpRequest.decode(h(RFC["request"])[:-1])           # truncated inside the path
    with pytest.raises(ohttp.OhttpError):
        ohttp.BhttpResponse.decode(h("0140640000"))                  # status 100 is not final
    assert ohttp.BhttpRequest.decode(h(RFC["request"]) + bytes(5)).path == b"/"  # zero padding


@settings(max_examples=40, deadline=None)
@given(st.integers(0, (1 << 62) - 1))
def test_varint_round_trip(v: int) -> None:
    enc = ohttp.encode_varint(v)
    r = ohttp._Reader(enc)
    assert r.varint() == v and r.done()
    assert len(enc) == (1 if v < 64 else 2 if v < 1 << 14 else 4 if v < 1 << 30 else 8)


@settings(max_examples=25, deadline=None)
@given(st.binary(max_size=300), st.lists(st.tuples(st.binary(min_size=1, max_size=20),
                                                   st.binary(max_size=20)), max_size=3))
def test_bhttp_request_round_trip(content: bytes, headers: list[tuple[bytes, bytes]]) -> None:
    req = ohttp.BhttpRequest(b"POST", b"https", b"leader.example", b"/sa2/upload",
                             tuple(headers), content)
    assert ohttp.BhttpRequest.decode(req.encode()) == req


# -- in the SA2 simulation ----------------------------------------------------------------------
SEED = bytes(range(60, 92))
DEP = protocol.provision(SEED)


def make(r: Randomizer, B: int, q: Fraction, pool: int | None = None) -> protocol.Recipe:
    doc = protocol.make_recipe(
        recipe_id="ohttp", task_id=bytes(range(32)), randomizer=r, B=B, q=q, chunk_length=2,
        leader_pk=DEP.leader_hpke.public_key, helper_pk=DEP.helper_hpke.public_key,
        issuer_key=DEP.issuer_sk.public_key(), epsilon=Fraction(1000), delta=Fraction(1, 2))
    recipe, _ = protocol.check_recipe(doc, PrivacyBudget(Fraction(10**6), 10))
    return recipe


def xs(n: int, k: int) -> list[int]:
    t = RandomTape(SEED, "test/ohttp/data")
    return [t.uniform(k) for _ in range(n)]


def ideal_release(recipe: protocol.Recipe, data: list[int], seed: bytes) -> Any:
    msgs = [recipe.randomizer.apply(x, RandomTape(seed, TAGS["randomizer"].format(i=i)))
            for i, x in enumerate(data)]
    vdaf = protocol.build_vdaf(recipe)
    return ideal.samplable_aggregate(msgs, recipe.B, recipe.q,
                                     protocol.ideal_aggregation(recipe, vdaf),
                                     RandomTape(seed, TAGS["participation"]))


@pytest.mark.parametrize("randomizer", [Randomizer("randomized_response", 4, Fraction(1, 3)),
                                        Randomizer("rappor", 4, Fraction(1, 8))])
def test_ohttp_relay_release_equals_ideal_and_shuffle(randomizer: Randomizer) -> None:
    recipe = make(randomizer, 5, Fraction(1, 2))
    data = xs(24, 4)
    vdaf = protocol.build_vdaf(recipe)
    relay = ohttp.OhttpAnonymizer(SEED)
    res = protocol.run_collection(recipe, DEP, vdaf, data, SEED, anonymizer=relay)
    plain = protocol.run_collection(recipe, DEP, vdaf, data, SEED)
    assert res.release is not None
    assert res.release == plain.release == ideal_release(recipe, data, SEED)
    assert res.delivered == plain.delivered          # same order as the ideal shuffle
    assert relay.log.responses_ok == len(res.delivered)
    # the relay saw who sent what ciphertext, never a report's bytes; the gateway saw no sender
    for who, msg in relay.log.relay_saw:
        assert who.startswith("client-")
        for rep in res.reports:
            assert rep.leader_ct not in msg and rep.token not in msg and rep.nonce not in msg
    assert sorted(relay.log.gateway_saw) == sorted(m for _, m in relay.log.relay_saw)


def test_ohttp_relay_with_drops_equals_ideal_anonymizer() -> None:
    recipe = make(Randomizer("randomized_response", 3, Fraction(1, 4)), 4, Fraction(2, 3))
    data = xs(20, 3)
    vdaf = protocol.build_vdaf(recipe)
    relay = ohttp.OhttpAnonymizer(SEED)
    res = protocol.run_collection(recipe, DEP, vdaf, data, SEED, drop_rate=Fraction(1, 4),
                                  anonymizer=relay)
    plain = protocol.run_collection(recipe, DEP, vdaf, data, SEED, drop_rate=Fraction(1, 4))
    assert res.dropped > 0 and res.drop_flags == plain.drop_flags
    assert res.release == plain.release and res.delivered == plain.delivered


def test_report_serialization_round_trip() -> None:
    recipe = make(Randomizer("randomized_response", 4, Fraction(1, 3)), 2, Fraction(1))
    res = protocol.run_collection(recipe, DEP, protocol.build_vdaf(recipe), [0, 1, 2], SEED)
    for rep in res.reports:
        assert ohttp.decode_report(ohttp.encode_report(rep)) == rep
    with pytest.raises(ohttp.OhttpError):
        ohttp.decode_report(ohttp.encode_report(res.reports[0]) + b"\x00")


@pytest.mark.parametrize("period", [1, 3, 7, 100])
def test_periodic_release_equals_one_shot_and_ideal(period: int) -> None:
    recipe = make(Randomizer("randomized_response", 4, Fraction(1, 3)), 5, Fraction(1, 2))
    data = xs(30, 4)
    vdaf = protocol.build_vdaf(recipe)
    res = protocol.run_collection(recipe, DEP, vdaf, data, SEED, period=period)
    one = protocol.run_collection(recipe, DEP, vdaf, data, SEED)
    assert res.release is not None
    assert res.release == one.release == ideal_release(recipe, data, SEED)
    assert res.outcome.verdicts == one.outcome.verdicts
    assert res.outcome.aggregated == one.outcome.aggregated


def test_periodic_with_ohttp_and_malicious_clients() -> None:
    recipe = make(Randomizer("rappor", 4, Fraction(1, 8)), 5, Fraction(1, 2))
    data = xs(24, 4)
    vdaf = protocol.build_vdaf(recipe)
    res = protocol.run_collection(recipe, DEP, vdaf, data, SEED, malicious=5, period=4,
                                  anonymizer=ohttp.OhttpAnonymizer(SEED))
    one = protocol.run_collection(recipe, DEP, vdaf, data, SEED, malicious=5)
    assert sum(res.outcome.rejected.values()) > 0
    assert res.release == one.release and res.outcome.rejected == one.outcome.rejected


def test_no_raw_share_survives_a_period() -> None:
    """After each period, nothing reachable from the two Aggregators' state or the periodic
    aggregator holds a byte string of that period's sealed shares (enc, ciphertext) or opened
    input shares; the running aggregate share is all that is kept."""
    recipe = make(Randomizer("randomized_response", 4, Fraction(1, 3)), 3, Fraction(1))
    vdaf = protocol.build_vdaf(recipe)
    trace: list[dict[str, str]] = []
    res = protocol.run_collection(recipe, DEP, vdaf, xs(10, 4), SEED, trace=trace)
    raw = {bytes.fromhex(t[k]) for t in trace
           for k in ("leaderInputShare", "helperInputShare", "leaderEnc", "leaderCiphertext",
                     "helperEnc", "helperCiphertext")}
    leader = protocol.Aggregator(protocol.ROLE_LEADER, recipe.task_config(DEP.verify_key),
                                 DEP.leader_hpke.private_key, vdaf)
    helper = protocol.Aggregator(protocol.ROLE_HELPER, recipe.task_config(DEP.verify_key),
                                 DEP.helper_hpke.private_key, vdaf)
    checked: list[int] = []

    def check(agg: PeriodicAggregation) -> None:
        assert agg.pending == []
        held = set(state_bytes(agg))
        assert not raw & held
        assert not any(r in b for r in raw for b in held if len(b) > len(r))
        checked.append(agg.leader.count)

    out = aggregate_in_periods(leader, helper, res.delivered, 4, on_close=check)
    assert checked == [4, 8, 10]  # three periods: 4 + 4 + 2 reports
    assert protocol.collect(vdaf, out) == res.release
    # the check is not vacuous: while a period is open, its sealed shares are held
    open_ = PeriodicAggregation(leader, helper, 100)
    open_.receive(res.delivered[0])
    assert raw & set(state_bytes(open_))
    with pytest.raises(ideal.Sa2Error):
        PeriodicAggregation(leader, helper, 0)


# -- the CLI: dpspec sa2 simulate --anonymizer ohttp --period P ---------------------------------
CLI_SEED = "00112233445566778899aabbccddeeff"


def test_cli_simulate_with_ohttp_and_periods(tmp_path: Any, capsys: pytest.CaptureFixture[str]
                                              ) -> None:
    import json

    from dpspec.conformance.cli import main

    assert main(["sa2", "recipe", "--seed", CLI_SEED, "--B", "5", "--q", "1/2", "--k", "4",
                 "--flip", "1/3", "--chunk-length", "2"]) == 0
    path = tmp_path / "r.json"
    path.write_text(capsys.readouterr().out)
    base = ["sa2", "simulate", "--recipe", str(path), "--clients", "20", "--seed", CLI_SEED,
            "--device-budget", "1000", "--json", "-q"]
    assert main(base) == 0
    plain = json.loads(capsys.readouterr().out)
    assert main(base + ["--anonymizer", "ohttp", "--period", "3"]) == 0
    relayed = json.loads(capsys.readouterr().out)
    assert relayed["release"] == plain["release"] is not None
    for bad, msg in ((["--period", "0"], "--period must be >= 1"),
                     (["--engine", "population", "--anonymizer", "ohttp"], "--engine protocol")):
        assert main(base + bad) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and msg in err[0]
