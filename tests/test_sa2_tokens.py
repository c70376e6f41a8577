"""RSA blind signatures (RFC 9474) and the SA2 token protocol (dpspec.spec.sa2.tokens)."""

from __future__ import annotations

import math

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from hypothesis import given, settings
from hypothesis import strategies as st

from dpspec.spec.sa2 import tokens
from dpspec.spec.sa2.tokens import TokenError
from dpspec.spec.tape import RandomTape

# RFC 9474 (Oct. 2023), Appendix A, "RSABSSA-SHA384-PSS-Deterministic Test Vector", as published
# in the CFRG repository cfrg/draft-irtf-cfrg-blind-signatures (draft-irtf-cfrg-rsa-blind-
# signatures.md, sec. "Test Vectors"). Values are hex; msg_prefix is empty (identity preparation)
# and prepared_msg equals msg. The vector gives the blind's inverse `inv`, so r = inv^-1 mod n.
RFC9474_PSS_DETERMINISTIC: dict[str, str] = {
    "p": (
        "e1f4d7a34802e27c7392a3cea32a262a34dc3691bd87f3f310dc75673488930559c120fd0410194f"
        "b8a0da55bd0b81227e843fdca6692ae80e5a5d414116d4803fca7d8c30eaaae57e44a1816ebb5c5b"
        "0606c536246c7f11985d731684150b63c9a3ad9e41b04c0b5b27cb188a692c84696b742a80d3cd00"
        "ab891f2457443dadfeba6d6daf108602be26d7071803c67105a5426838e6889d77e8474b29244cef"
        "af418e381b312048b457d73419213063c60ee7b0d81820165864fef93523c9635c22210956e53a8d"
        "96322493ffc58d845368e2416e078e5bcb5d2fd68ae6acfa54f9627c42e84a9d3f2774017e32ebca"
        "06308a12ecc290c7cd1156dcccfb2311"
    ),
    "q": (
        "c601a9caea66dc3835827b539db9df6f6f5ae77244692780cd334a006ab353c806426b60718c0524"
        "5650821d39445d3ab591ed10a7339f15d83fe13f6a3dfb20b9452c6a9b42eaa62a68c970df3cadb2"
        "139f804ad8223d56108dfde30ba7d367e9b0a7a80c4fdba2fd9dde6661fc73fc2947569d2029f287"
        "0fc02d8325acf28c9afa19ecf962daa7916e21afad09eb62fe9f1cf91b77dc879b7974b490d3ebd2"
        "e95426057f35d0a3c9f45f79ac727ab81a519a8b9285932d9b2e5ccd347e59f3f32ad9ca359115e7"
        "da008ab7406707bd0e8e185a5ed8758b5ba266e8828f8d863ae133846304a2936ad7bc7c9803879d"
        "2fc4a28e69291d73dbd799f8bc238385"
    ),
    "n": (
        "aec4d69addc70b990ea66a5e70603b6fee27aafebd08f2d94cbe1250c556e047a928d635c3f45ee9"
        "b66d1bc628a03bac9b7c3f416fe20dabea8f3d7b4bbf7f963be335d2328d67e6c13ee4a8f955e05a"
        "3283720d3e1f139c38e43e0338ad058a9495c53377fc35be64d208f89b4aa721bf7f7d3fef837be2"
        "a80e0f8adf0bcd1eec5bb040443a2b2792fdca522a7472aed74f31a1ebe1eebc1f408660a0543dfe"
        "2a850f106a617ec6685573702eaaa21a5640a5dcaf9b74e397fa3af18a2f1b7c03ba91a6336158de"
        "420d63188ee143866ee415735d155b7c2d854d795b7bc236cffd71542df34234221a0413e142d8c6"
        "1355cc44d45bda94204974557ac2704cd8b593f035a5724b1adf442e78c542cd4414fce6f1298182"
        "fb6d8e53cef1adfd2e90e1e4deec52999bdc6c29144e8d52a125232c8c6d75c706ea3cc06841c7bd"
        "a33568c63a6c03817f722b50fcf898237d788a4400869e44d90a3020923dc646388abcc914315215"
        "fcd1bae11b1c751fd52443aac8f601087d8d42737c18a3fa11ecd4131ecae017ae0a14acfc4ef85b"
        "83c19fed33cfd1cd629da2c4c09e222b398e18d822f77bb378dea3cb360b605e5aa58b20edc29d00"
        "0a66bd177c682a17e7eb12a63ef7c2e4183e0d898f3d6bf567ba8ae84f84f1d23bf8b8e261c3729e"
        "2fa6d07b832e07cddd1d14f55325c6f924267957121902dc19b3b32948bdead5"
    ),
    "e": (
        "010001"
    ),
    "d": (
        "0d43242aefe1fb2c13fbc66e20b678c4336d20b1808c558b6e62ad16a287077180b177e1f01b12f9"
        "c6cd6c52630257ccef26a45135a990928773f3bd2fc01a313f1dac97a51cec71cb1fd7efc7adffde"
        "b05f1fb04812c924ed7f4a8269925dad88bd7dcfbc4ef01020ebfc60cb3e04c54f981fdbd273e69a"
        "8a58b8ceb7c2d83fbcbd6f784d052201b88a9848186f2a45c0d2826870733e6fd9aa46983e0a6e82"
        "e35ca20a439c5ee7b502a9062e1066493bdadf8b49eb30d9558ed85abc7afb29b3c9bc644199654a"
        "4676681af4babcea4e6f71fe4565c9c1b85d9985b84ec1abf1a820a9bbebee0df1398aae2c85ab58"
        "0a9f13e7743afd3108eb32100b870648fa6bc17e8abac4d3c99246b1f0ea9f7f93a5dd5458c56d9f"
        "3f81ff2216b3c3680a13591673c43194d8e6fc93fc1e37ce2986bd628ac48088bc723d8fbe293861"
        "ca7a9f4a73e9fa63b1b6d0074f5dea2a624c5249ff3ad811b6255b299d6bc5451ba7477f19c5a0db"
        "690c3e6476398b1483d10314afd38bbaf6e2fbdbcd62c3ca9797a420ca6034ec0a83360a3ee2adf4"
        "b9d4ba29731d131b099a38d6a23cc463db754603211260e99d19affc902c915d7854554aabf608e3"
        "ac52c19b8aa26ae042249b17b2d29669b5c859103ee53ef9bdc73ba3c6b537d5c34b6d8f034671d7"
        "f3a8a6966cc4543df223565343154140fd7391c7e7be03e241f4ecfeb877a051"
    ),
    "msg": (
        "8f3dc6fb8c4a02f4d6352edf0907822c1210a9b32f9bdda4c45a698c80023aa6b59f8cfec5fdbb36"
        "331372ebefedae7d"
    ),
    "salt": (
        "051722b35f458781397c3a671a7d3bd3096503940e4c4f1aaa269d60300ce449555cd7340100df9d"
        "46944c5356825abf"
    ),
    "encoded_msg": (
        "6e0c464d9c2f9fbc147b43570fc4f238e0d0b38870b3addcf7a4217df912ccef17a7f629aa850f63"
        "a063925f312d61d6437be954b45025e8282f9c0b1131bc8ff19a8a928d859b37113db1064f92a27f"
        "64761c181c1e1f9b251ae5a2f8a4047573b67a270584e089beadcb13e7c82337797119712e9b849f"
        "f56e04385d144d3ca9d8d92bf78adb20b5bbeb3685f17038ec6afade3ef354429c51c687b45a7018"
        "ee3a6966b3af15c9ba8f40e6461ba0a17ef5a799672ad882bab02b518f9da7c1a962945c2e9b0f02"
        "f29b31b9cdf3e633f9d9d2a22e96e1de28e25241ca7dd04147112f578973403e0f4fd80865965475"
        "d22294f065e17a1c4a201de93bd14223e6b1b999fd548f2f759f52db71964528b6f15b9c2d7811f2"
        "a0a35d534b8216301c47f4f04f412cae142b48c4cdff78bc54df690fd43142d750c671dd8e2e938e"
        "6a440b2f825b6dbb3e19f1d7a3c0150428a47948037c322365b7fe6fe57ac88d8f80889e9ff38177"
        "bad8c8d8d98db42908b389cb59692a58ce275aa15acb032ca951b3e0a3404b7f33f655b7c7d83a2f"
        "8d1b6bbff49d5fcedf2e030e80881aa436db27a5c0dea13f32e7d460dbf01240c2320c2bb5b3225b"
        "17145c72d61d47c8f84d1e19417ebd8ce3638a82d395cc6f7050b6209d9283dc7b93fecc04f3f9e7"
        "f566829ac41568ef799480c733c09759aa9734e2013d7640dc6151018ea902bc"
    ),
    "inv": (
        "80682c48982407b489d53d1261b19ec8627d02b8cda5336750b8cee332ae260de57b02d72609c1e0"
        "e9f28e2040fc65b6f02d56dbd6aa9af8fde656f70495dfb723ba01173d4707a12fddac628ca29f3e"
        "32340bd8f7ddb557cf819f6b01e445ad96f874ba235584ee71f6581f62d4f43bf03f910f6510deb8"
        "5e8ef06c7f09d9794a008be7ff2529f0ebb69decef646387dc767b74939265fec0223aa6d84d2a8a"
        "1cc912d5ca25b4e144ab8f6ba054b54910176d5737a2cff011da431bd5f2a0d2d66b9e70b39f4b05"
        "0e45c0d9c16f02deda9ddf2d00f3e4b01037d7029cd49c2d46a8e1fc2c0c17520af1f4b5e25ba396"
        "afc4cd60c494a4c426448b35b49635b337cfb08e7c22a39b256dd032c00adddafb51a627f99a0e17"
        "04170ac1f1912e49d9db10ec04c19c58f420212973e0cb329524223a6aa56c7937c5dffdb5d966b6"
        "cd4cbc26f3201dd25c80960a1a111b32947bb78973d269fac7f5186530930ed19f68507540eed9e1"
        "bab8b00f00d8ca09b3f099aae46180e04e3584bd7ca054df18a1504b89d1d1675d0966c4ae1407be"
        "325cdf623cf13ff13e4a28b594d59e3eadbadf6136eee7a59d6a444c9eb4e2198e8a974f27a39eb6"
        "3af2c9af3870488b8adaad444674f512133ad80b9220e09158521614f1faadfe8505ef57b7df6813"
        "048603f0dd04f4280177a11380fbfc861dbcbd7418d62155248dad5fdec0991f"
    ),
    "blinded_msg": (
        "10c166c6a711e81c46f45b18e5873cc4f494f003180dd7f115585d871a28930259654fe28a54dab3"
        "19cc5011204c8373b50a57b0fdc7a678bd74c523259dfe4fd5ea9f52f170e19dfa332930ad1609fc"
        "8a00902d725cfe50685c95e5b2968c9a2828a21207fcf393d15f849769e2af34ac4259d91dfd98c3"
        "a707c509e1af55647efaa31290ddf48e0133b798562af5eabd327270ac2fb6c594734ce339a14ea4"
        "fe1b9a2f81c0bc230ca523bda17ff42a377266bc2778a274c0ae5ec5a8cbbe364fcf0d2403f7ee17"
        "8d77ff28b67a20c7ceec009182dbcaa9bc99b51ebbf13b7d542be337172c6474f2cd3561219fe0df"
        "a3fb207cff89632091ab841cf38d8aa88af6891539f263adb8eac6402c41b6ebd72984e43666e537"
        "f5f5fe27b2b5aa114957e9a580730308a5f5a9c63a1eb599f093ab401d0c6003a451931b6d124180"
        "305705845060ebba6b0036154fcef3e5e9f9e4b87e8f084542fd1dd67e7782a5585150181c01eb6d"
        "90cb95883837384a5b91dbb606f266059ecc51b5acbaa280e45cfd2eec8cc1cdb1b7211c8e14805b"
        "a683f9b78824b2eb005bc8a7d7179a36c152cb87c8219e5569bba911bb32a1b923ca83de0e03fb10"
        "fba75d85c55907dda5a2606bf918b056c3808ba496a4d95532212040a5f44f37e1097f26dc27b98a"
        "51837daa78f23e532156296b64352669c94a8a855acf30533d8e0594ace7c442"
    ),
    "blind_sig": (
        "364f6a40dbfbc3bbb257943337eeff791a0f290898a6791283bba581d9eac90a6376a837241f5f73"
        "a78a5c6746e1306ba3adab6067c32ff69115734ce014d354e2f259d4cbfb890244fd451a497fe6ec"
        "f9aa90d19a2d441162f7eaa7ce3fc4e89fd4e76b7ae585be2a2c0fd6fb246b8ac8d58bcb585634e3"
        "0c9168a434786fe5e0b74bfe8187b47ac091aa571ffea0a864cb906d0e28c77a00e8cd8f6aba4317"
        "a8cc7bf32ce566bd1ef80c64de041728abe087bee6cadd0b7062bde5ceef308a23bd1ccc154fd0c3"
        "a26110df6193464fc0d24ee189aea8979d722170ba945fdcce9b1b4b63349980f3a92dc2e5418c54"
        "d38a862916926b3f9ca270a8cf40dfb9772bfbdd9a3e0e0892369c18249211ba857f35963d0e05d8"
        "da98f1aa0c6bba58f47487b8f663e395091275f82941830b050b260e4767ce2fa903e75ff8970c98"
        "bfb3a08d6db91ab1746c86420ee2e909bf681cac173697135983c3594b2def673736220452fde4dd"
        "ec867d40ff42dd3da36c84e3e52508b891a00f50b4f62d112edb3b6b6cc3dbd546ba10f36b03f06c"
        "0d82aeec3b25e127af545fac28e1613a0517a6095ad18a98ab79f68801e05c175e15bae21f821e80"
        "c80ab4fdec6fb34ca315e194502b8f3dcf7892b511aee45060e3994cd15e003861bc7220a2babd7b"
        "40eda03382548a34a7110f9b1779bf3ef6011361611e6bc5c0dc851e1509de1a"
    ),
    "sig": (
        "6fef8bf9bc182cd8cf7ce45c7dcf0e6f3e518ae48f06f3c670c649ac737a8b8119a34d51641785be"
        "151a697ed7825fdfece82865123445eab03eb4bb91cecf4d6951738495f8481151b62de869658573"
        "df4e50a95c17c31b52e154ae26a04067d5ecdc1592c287550bb982a5bb9c30fd53a768cee6baabb3"
        "d483e9f1e2da954c7f4cf492fe3944d2fe456c1ecaf0840369e33fb4010e6b44bb1d721840513524"
        "d8e9a3519f40d1b81ae34fb7a31ee6b7ed641cb16c2ac999004c2191de0201457523f5a4700dd649"
        "267d9286f5c1d193f1454c9f868a57816bf5ff76c838a2eeb616a3fc9976f65d4371deecfbab2936"
        "2caebdff69c635fe5a2113da4d4d8c24f0b16a0584fa05e80e607c5d9a2f765f1f069f8d4da21f27"
        "c2a3b5c984b4ab24899bef46c6d9323df4862fe51ce300fca40fb539c3bb7fe2dcc9409e425f2d3b"
        "95e70e9c49c5feb6ecc9d43442c33d50003ee936845892fb8be475647da9a080f5bc7f8a716590b3"
        "745c2209fe05b17992830ce15f32c7b22cde755c8a2fe50bd814a0434130b807dc1b7218d4e85342"
        "d70695a5d7f29306f25623ad1e8aa08ef71b54b8ee447b5f64e73d09bdd6c3b7ca224058d7c67cc7"
        "551e9241688ada12d859cb7646fbd3ed8b34312f3b49d69802f0eaa11bc4211c2f7a29cd5c01ed01"
        "a39001c5856fab36228f5ee2f2e1110811872fe7c865c42ed59029c706195d52"
    ),
}


def _h(key: str) -> bytes:
    return bytes.fromhex(RFC9474_PSS_DETERMINISTIC[key])


def _i(key: str) -> int:
    return int(RFC9474_PSS_DETERMINISTIC[key], 16)


SK = tokens.PrivateKey(_i("p"), _i("q"), _i("e"))
PK = SK.public_key()


def test_rfc9474_key() -> None:
    assert SK.n == _i("n") and PK.modulus_len == 512
    # d may be given modulo lambda(n); both exponents invert e.
    phi = (SK.p - 1) * (SK.q - 1)
    assert _i("d") * SK.e % (phi // math.gcd(SK.p - 1, SK.q - 1)) == 1


def test_rfc9474_encoded_msg() -> None:
    assert tokens.emsa_pss_encode(_h("msg"), SK.n.bit_length() - 1, _h("salt")) == _h("encoded_msg")


def test_rfc9474_blind() -> None:
    r = pow(_i("inv"), -1, SK.n)
    blinded, inv = tokens.blind(PK, _h("msg"), _h("salt"), r)
    assert blinded == _h("blinded_msg") and inv == _i("inv")


def test_rfc9474_blind_sign() -> None:
    assert tokens.blind_sign(SK, _h("blinded_msg")) == _h("blind_sig")


def test_rfc9474_finalize_and_verify() -> None:
    sig = tokens.finalize(PK, _h("msg"), _h("blind_sig"), _i("inv"))
    assert sig == _h("sig")
    assert tokens.verify(PK, _h("msg"), sig)
    assert not tokens.verify(PK, _h("msg") + b"\x00", sig)
    bad = bytearray(sig)
    bad[100] ^= 1
    assert not tokens.verify(PK, _h("msg"), bytes(bad))


def test_rfc9474_signature_verifies_with_cryptography() -> None:
    key = rsa.RSAPublicNumbers(PK.e, PK.n).public_key()
    pss = padding.PSS(mgf=padding.MGF1(hashes.SHA384()), salt_length=48)
    key.verify(_h("sig"), _h("msg"), pss, hashes.SHA384())
    with pytest.raises(InvalidSignature):
        key.verify(_h("sig"), _h("msg")[:-1], pss, hashes.SHA384())


def test_finalize_rejects_bad_blind_sig() -> None:
    with pytest.raises(TokenError, match="invalid signature"):
        tokens.finalize(PK, _h("msg"), _h("blinded_msg"), _i("inv"))
    with pytest.raises(TokenError, match="unexpected input size"):
        tokens.finalize(PK, _h("msg"), _h("blind_sig")[1:], _i("inv"))


def test_cryptography_signatures_verify_with_ours() -> None:
    key = rsa.generate_private_key(65537, 2048)
    pss = padding.PSS(mgf=padding.MGF1(hashes.SHA384()), salt_length=48)
    sig = key.sign(b"hello", pss, hashes.SHA384())
    nums = key.public_key().public_numbers()
    pk = tokens.PublicKey(nums.n, nums.e)
    assert tokens.verify(pk, b"hello", sig) and not tokens.verify(pk, b"hellp", sig)


# -- deterministic keys and the token protocol ---------------------------------------------------
KEY = tokens.generate_key(1024, RandomTape(bytes(32), "sa2/test/issuer_key"))
TASK = bytes(range(32))


def test_generated_key_is_sound() -> None:
    assert KEY.n.bit_length() == 1024 and KEY.p != KEY.q
    assert tokens.generate_key(1024, RandomTape(bytes(32), "sa2/test/issuer_key")) == KEY
    with pytest.raises(TokenError):
        tokens.generate_key(1000, RandomTape(bytes(32), "x"))


@settings(max_examples=15)
@given(st.binary(min_size=16, max_size=16))
def test_blind_protocol_roundtrip(seed: bytes) -> None:
    pk = KEY.public_key()
    req = tokens.request_token(pk, TASK, RandomTape(seed, "t"))
    token = tokens.finish_token(pk, req, tokens.blind_sign(KEY, req.blinded_msg))
    assert tokens.verify(pk, token.token_input, token.sig)
    assert token.task_id == TASK and len(token.nonce) == 32
    assert tokens.decode_token(token.encode(), pk.modulus_len) == token


def test_attester_rate_limits_and_issuer_sees_no_identity() -> None:
    issuer = tokens.Issuer(KEY)
    attester = tokens.Attester(issuer)
    pk = KEY.public_key()
    t1 = tokens.obtain_token("device-1", attester, pk, TASK, RandomTape(bytes(16), "a"))
    with pytest.raises(TokenError, match="rate limit"):
        tokens.obtain_token("device-1", attester, pk, TASK, RandomTape(bytes(16), "b"))
    t2 = tokens.obtain_token("device-2", attester, pk, TASK, RandomTape(bytes(16), "b"))
    assert issuer.issued == 2 and t1.nonce != t2.nonce
    with pytest.raises(TokenError, match="unknown issuance key"):
        attester.request("device-3", b"\x00" * 32, b"")


def test_verifier_rejects_replay_forgery_and_wrong_task() -> None:
    pk = KEY.public_key()
    attester = tokens.Attester(tokens.Issuer(KEY))
    token = tokens.obtain_token("d", attester, pk, TASK, RandomTape(bytes(16), "a"))
    v = tokens.TokenVerifier(pk, TASK)
    assert v.check(token) is None
    assert v.check(token) == "token_replayed"
    forged = tokens.Token(tokens.token_input(TASK, b"\x07" * 32), token.sig)
    assert v.check(forged) == "token_invalid"
    other = tokens.TokenVerifier(pk, bytes(32))
    assert other.check(token) == "token_wrong_task"
    assert v.check(tokens.Token(b"junk", token.sig)) == "token_malformed"
    # A token from another issuer key does not verify.
    key2 = tokens.generate_key(1024, RandomTape(bytes(32), "other"))
    t_other = tokens.obtain_token("d", tokens.Attester(tokens.Issuer(key2)), key2.public_key(),
                                  TASK, RandomTape(bytes(16), "c"))
    assert v.check(t_other) == "token_invalid"


def test_blinded_message_is_independent_of_the_nonce() -> None:
    # Unlinkability: for a fixed message, the blinded message m * r^e is uniform over units as r
    # is; check the map r -> blinded is a bijection on a few values (distinct r, distinct z).
    pk = KEY.public_key()
    msg = tokens.token_input(TASK, b"\x01" * 32)
    salt = b"\x02" * 48
    zs = {tokens.blind(pk, msg, salt, r)[0] for r in range(2, 50)}
    assert len(zs) == 48
