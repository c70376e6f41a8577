"""Vector family ``sa2``: the SA2 ideal functionality (dpspec.spec.sa2.ideal).

Files:

* ``sa2/ideal_functionality.json``: A_B^Dec, SA_B^Dec with Poisson sampling, the fixed-size
  variant, the time-bounded aggregator A_{B,K}^Dec and the randomized donation-time rule, each
  from a seed and the decoded messages.
* ``sa2/protocol_transcripts.json``: whole collections of the sec. 4 protocol (recipe, keys,
  tokens, every report with its coins and ciphertexts, the anonymizer's drops and order, the
  aggregators' verdicts, the release), deterministic from seeds; rounds of the federated-learning
  path among them.
* ``sa2/fl_randomizer.json``: the Gaussian vector randomizer of the federated-learning path
  (dpspec.spec.sa2.fl): seed and update to the clipped, encoded and noised vector.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Any

import mpmath

from dpspec.conformance.jsonargs import COUNT, DEC, HEX, RAT, count_arg, hex_arg, int_arg, parse_int
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
from dpspec.spec.rational import format_rational
from dpspec.spec.sa2 import fl, ideal, privacy, protocol, tokens
from dpspec.spec.sa2.randomizers import Randomizer
from dpspec.spec.tape import RandomTape

IDEAL_SCHEMA = "sa2_ideal-v1.json"
PROTOCOL_SCHEMA = "sa2_protocol-v1.json"
RECIPES_SCHEMA = "sa2_recipes-v1.json"
TOKENS_SCHEMA = "sa2_tokens-v1.json"
FL_SCHEMA = "sa2_fl-v1.json"

_VEC: dict[str, Any] = {"type": "array", "items": DEC}
_MSGS: dict[str, Any] = {"type": "array", "items": _VEC}
_RELEASE: dict[str, Any] = {"anyOf": [{"type": "null"}, _VEC]}


def _messages(args: dict[str, Any]) -> tuple[list[tuple[int, ...]], ideal.Aggregation[Any, Any]]:
    dim = int_arg(args, "dimension")
    if dim < 1:
        raise ValueError("dimension must be >= 1")
    msgs = [tuple(parse_int(x, "messages") for x in m) for m in args["messages"]]
    return msgs, ideal.vector_sum(dim)


def _release(value: tuple[int, ...] | None) -> list[str] | None:
    return None if value is None else [str(x) for x in value]


def _tape(args: dict[str, Any]) -> RandomTape:
    return RandomTape(hex_arg(args, "seed"), args["tag"])


# -- reference handlers ---------------------------------------------------------------------------
def h_aggregate(args: dict[str, Any]) -> dict[str, Any]:
    msgs, agg = _messages(args)
    return {"release": _release(ideal.aggregate(msgs, int_arg(args, "B"), agg))}


def h_poisson(args: dict[str, Any]) -> dict[str, Any]:
    msgs, agg = _messages(args)
    B = ideal.check_cohort_size(int_arg(args, "B"))
    tape = _tape(args)
    keep = ideal.poisson_sample(len(msgs), args["q"], tape)
    release = ideal.aggregate([m for m, k in zip(msgs, keep, strict=True) if k], B, agg)
    return {"selectedCount": sum(keep), "release": _release(release),
            "bitsConsumed": tape.bits_consumed}


def h_fixed(args: dict[str, Any]) -> dict[str, Any]:
    msgs, agg = _messages(args)
    tape = _tape(args)
    chosen = ideal.fixed_size_subset(len(msgs), int_arg(args, "B"), tape)
    release = None if chosen is None else agg.total([msgs[i] for i in chosen])
    return {"selectedCount": 0 if chosen is None else len(chosen), "release": _release(release),
            "bitsConsumed": tape.bits_consumed}


def h_time_bounded(args: dict[str, Any]) -> dict[str, Any]:
    msgs, agg = _messages(args)
    timed = list(zip(msgs, args["times"], strict=True))
    out = ideal.time_bounded_aggregate(args["t0"], timed, int_arg(args, "B"), args["K"], agg)
    return {"release": _release(out)}


def h_donation(args: dict[str, Any]) -> dict[str, Any]:
    tape = _tape(args)
    m = int_arg(args, "m")
    count = count_arg(args, "count")
    waits = []
    for _ in range(count):
        w = ideal.donation_schedule(args["q"], m, args["K"], tape)
        waits.append(None if w is None else format_rational(w))
    return {"waits": waits, "bitsConsumed": tape.bits_consumed}


def deployment_from_args(args: dict[str, Any]) -> protocol.Deployment:
    """The deployment whose keys a test lists (issuerP, issuerQ, the HPKE seeds, verifyKey)."""
    return protocol.Deployment(
        tokens.PrivateKey(int(args["issuerP"], 16), int(args["issuerQ"], 16)),
        hex_arg(args, "leaderHpkeIkm"), hex_arg(args, "helperHpkeIkm"),
        hex_arg(args, "verifyKey"))


def deployment_keys(dep: protocol.Deployment) -> dict[str, str]:
    """A deployment's keys as a test lists them (the inverse of :func:`deployment_from_args`)."""
    return {"issuerP": format(dep.issuer_sk.p, "x"), "issuerQ": format(dep.issuer_sk.q, "x"),
            "leaderHpkeIkm": dep.leader_ikm.hex(), "helperHpkeIkm": dep.helper_ikm.hex(),
            "verifyKey": dep.verify_key.hex()}


def vector_recipe(dep: protocol.Deployment, r: protocol.AnyRandomizer, B: int, q: str,
                  dummy: str = "0", **over: Any) -> dict[str, Any]:
    """The transcripts' recipe for randomizer ``r``, batch ``B``, sampling rate ``q`` and dummy
    rate ``dummy`` on deployment ``dep`` (a loose epsilon 1000, delta 1/2); ``over`` replaces
    any other argument of make_recipe."""
    args: dict[str, Any] = dict(
        recipe_id="dpspec-sa2-vector", task_id=vector_seed("sa2/task"), randomizer=r,
        B=B, q=Fraction(q), chunk_length=2, leader_pk=dep.leader_hpke.public_key,
        helper_pk=dep.helper_hpke.public_key, issuer_key=dep.issuer_sk.public_key(),
        epsilon=Fraction(1000), delta=Fraction(1, 2), dummy_rate=Fraction(dummy),
        population=100 if Fraction(dummy) else None)
    args.update(over)
    return protocol.make_recipe(**args)


def h_collection(args: dict[str, Any]) -> dict[str, Any]:
    """Run one collection from explicit keys and a seed; every intermediate value is output."""
    dep = deployment_from_args(args)
    recipe = protocol.check_recipe_structure(args["recipe"])
    vdaf = protocol.build_vdaf(recipe)
    trace: list[dict[str, str]] = []
    # a bucket index per device, or (federated learning) an update: a list of rationals
    data = [x if isinstance(x, list) else parse_int(x, "data") for x in args["data"]]
    arrival = None
    if recipe.window is not None:
        arrival = protocol.evenly_spaced(recipe.window[0],
                                         ideal.exact(args["arrivalSpacing"], "arrivalSpacing"))
    res = protocol.run_collection(recipe, dep, vdaf, data, hex_arg(args, "seed"),
                                  malicious=int_arg(args, "malicious"),
                                  drop_rate=ideal.parse_rate(args["dropRate"], "dropRate"),
                                  trace=trace, arrival=arrival)
    position = {id(r): i for i, r in enumerate(res.reports)}
    return {
        "reports": trace,
        "dropped": res.drop_flags,
        "arrival": [position[id(r)] for r in res.delivered],
        "verdicts": res.outcome.verdicts,
        "accepted": res.outcome.accepted,
        "aggregated": res.outcome.aggregated,
        "rejected": dict(sorted(res.outcome.rejected.items())),
        "release": _release(res.release),
        "tokensIssued": res.tokens_issued,
    }


def h_gaussian_vector(args: dict[str, Any]) -> dict[str, Any]:
    """The federated-learning randomizer's steps on one update (dpspec.spec.sa2.fl)."""
    doc = args["randomizer"]
    if not isinstance(doc, dict):
        raise ValueError("randomizer must be an object")
    r = fl.GaussianVector.from_json(doc)
    tape = _tape(args)
    out = r.steps(args["update"], tape)
    report = out["report"]
    return {"clipped": [format_rational(v) for v in out["clipped"]],
            "encoded": [str(v) for v in out["encoded"]],
            "noise": [str(v) for v in out["noise"]],
            "normSquared": str(out["normSquared"]), "normBound": str(r.norm_bound()),
            "bits": r.bits(), "report": None if report is None else [str(v) for v in report],
            "bitsConsumed": tape.bits_consumed}


def h_recipe_check(args: dict[str, Any]) -> dict[str, Any]:
    """The client's verdict on a recipe (dpspec.spec.sa2.protocol.check_recipe, budget 10^9)."""
    try:
        _, stmt = protocol.check_recipe(args["recipe"], protocol.PrivacyBudget(Fraction(10**9), 1))
    except protocol.RecipeRefused as exc:
        return {"verdict": exc.reason}
    return {"verdict": "accepted", "bound": stmt.bound}


def h_token_issuance(args: dict[str, Any]) -> dict[str, Any]:
    """One device's token: request (coins from the tape), BlindSign, Finalize."""
    sk = tokens.PrivateKey(int(args["issuerP"], 16), int(args["issuerQ"], 16))
    pk = sk.public_key()
    tape = _tape(args)
    req = tokens.request_token(pk, hex_arg(args, "taskId"), tape)
    blind_sig = tokens.blind_sign(sk, req.blinded_msg)
    token = tokens.finish_token(pk, req, blind_sig)
    # the coins again, to expose the salt and r (the request keeps only what Finalize needs)
    again = _tape(args)
    protocol.tape_bytes(again, tokens.NONCE_LEN)
    salt = protocol.tape_bytes(again, tokens.SALT_LEN)
    return {"tokenInput": token.token_input.hex(), "salt": salt.hex(),
            "inv": format(req.inv, "x"), "blindedMsg": req.blinded_msg.hex(),
            "blindSig": blind_sig.hex(), "sig": token.sig.hex(), "token": token.encode().hex()}


def h_token_verify(args: dict[str, Any]) -> dict[str, Any]:
    """An aggregator's verdicts on a sequence of encoded tokens (one spent-nonce set)."""
    pk = tokens.PublicKey(int(args["modulus"], 16), int_arg(args, "exponent"))
    verifier = tokens.TokenVerifier(pk, hex_arg(args, "taskId"))
    verdicts = []
    for text in args["tokens"]:
        try:
            tok = tokens.decode_token(bytes.fromhex(text), pk.modulus_len)
        except tokens.TokenError:
            verdicts.append("token_malformed")
            continue
        verdicts.append(verifier.check(tok) or "accepted")
    return {"verdicts": verdicts}


IDEAL_HEADER = [
    "The SA2 ideal functionality (module dpspec.spec.sa2.ideal) of Talwar et al., 'Samplable Anonymous"
    " Aggregation for Private Federated Data Analysis', sec. 3 and App. A.",
    "Messages are the decoded values Dec(m_i): integer vectors of length `dimension` (decimal"
    " strings); the sum is coordinate-wise over the integers. `release` null is the paper's"
    " bottom (no output).",
    "sa2.aggregate (A_B^Dec): release the sum of all messages if there are at least B, else null.",
    "bernoulli(q), q rational: the exact Bernoulli sampler of vectors/samplers/bernoulli.json (a lazy"
    " comparison of the tape's bits with q: 1 iff the uniform U = 0.b1 b2 ... < q; no bits when"
    " q is 0 or 1).",
    "sa2.samplable_aggregate (SA_B^Dec, Poisson rate q): from the random tape (seed, tag) of"
    " vectors/tape/random_tape.json, message i = 0, 1, ..., k-1 in order is kept iff"
    " bernoulli(q) = 1 (one coin per message); release A_B^Dec of the kept messages. Only"
    " `release` is the functionality's output; `selectedCount` and `bitsConsumed` are intermediate"
    " values for debugging and must never be released.",
    "sa2.fixed_size_aggregate: if k < B release null and draw nothing; else partial Fisher-Yates"
    " of [0..k-1]: for j = 0..B-1, r = j + uniform(k - j), swap positions j and r; release the"
    " sum of the messages at the first B positions.",
    "sa2.time_bounded_aggregate (A_{B,K}^Dec, App. A): messages come with arrival times `times`"
    " (rationals, non-decreasing, none before t0; otherwise invalid); release the sum if k >= B"
    " and the last time t_k <= t0 + K (K > 0), else null.",
    "sa2.donation_schedule (App. A): per device, a participation coin bernoulli(q); if it is 1,"
    " m coins chi_i = bernoulli(1/m) for i = 0..m-1 (all m drawn); the wait is"
    " K * min{i : chi_i = 1}, or null if no chi_i is 1 or the device did not participate."
    " `count` devices draw from one tape in turn.",
    "Rationals are decimal strings 'a/b' or '0.25'. Seeds are hex; "
    + VECTOR_SEED_HEADER[0].lower() + VECTOR_SEED_HEADER[1:] + ".",
]


@cache
def vector_deployment() -> protocol.Deployment:
    """The vectors' keys: provisioned from the vector seed 'sa2/deployment' (2048-bit issuer)."""
    return protocol.provision(vector_seed("sa2/deployment"))


PROTOCOL_HEADER = [
    "A whole SA2 collection (module dpspec.spec.sa2.protocol; Talwar et al. sec. 4): recipe, client"
    " coins, tokens, HPKE, anonymizer, leader/helper with Prio3 (VDAF draft-20), collector.",
    "Keys: the token issuer's RSA key (issuerP, issuerQ, e = 65537; RFC 9474"
    " RSABSSA-SHA384-PSS-Deterministic), the aggregators' HPKE key pairs DeriveKeyPair(IKM) for"
    " DHKEM(X25519, HKDF-SHA256) / HKDF-SHA256 / AES-128-GCM (RFC 9180), the Prio3 verify key.",
    "The client checks the recipe's structure (dpspec.spec.sa2.protocol.check_recipe_structure: the"
    " toy cohorts here support no privacy claim; claims have their own vectors in"
    " sa2/recipe_checks.json) and refuses it if the keys do not match the deployment.",
    "Coins from `seed` (random tape of vectors/tape); every Bernoulli coin is bernoulli(q) of"
    " vectors/samplers/bernoulli.json: participation poisson_sample over the devices (one"
    " bernoulli(q) each) from tag 'sa2/poisson'; dummy coins (bernoulli(q'), q' = dummyRate of the"
    " recipe) for each non-participating device in order from 'sa2/dummy'; device i's randomizer"
    " (dpspec.spec.sa2.randomizers: bernoulli(flip), then if 1 a uniform(k) replacement, for (binary)"
    " randomized response; bernoulli(flip) for bits 0..k-1 in order for rappor) from"
    " 'sa2/client/{i}/randomizer', its token request from 'sa2/client/{i}/token' (nonce 32 bytes,"
    " PSS salt 48 bytes, then r = 1 + uniform(n - 1)), its report from 'sa2/client/{i}/report'"
    " (Prio3 nonce 16 bytes, Prio3 rand, leader then helper HPKE ephemeral IKM 32 bytes each;"
    " each byte is uniform(256)); malicious device j from 'sa2/malicious/{j}'. FIXED HPKE"
    " EPHEMERAL KEYS ARE FOR VECTORS ONLY, NEVER FOR PRODUCTION.",
    "Token input: b'dpspec/sa2/token/v1' || taskId || nonce. HPKE info: b'dpspec/sa2 input share'"
    " || 0x01 || role (0x02 leader, 0x03 helper); aad: b'dpspec/sa2/v1' || taskId || uint32(B)"
    " || Prio3 nonce || uint32(len(publicShare)) || publicShare || token (big-endian). Prio3"
    " ctx: b'dpspec/sa2/v1' || taskId.",
    "Reports are listed in sending order (honest devices, then malicious ones) with their"
    " intermediate values; `dropped` has one coin bernoulli(dropRate) per report (tag"
    " 'sa2/network'); the survivors are shuffled (Fisher-Yates from tag 'sa2/shuffle': for"
    " j = n-1..1 swap j and uniform(j+1))"
    " and `arrival` lists their indices in arrival order; `verdicts` follow arrival order.",
    "Each aggregator checks the token (valid RSA signature, task, nonce not yet spent), opens its"
    " share with its own B, decodes, and runs Prio3 verification; a report is aggregated only"
    " if both accept it. Each refuses to release below B; `release` is the collector's unshard"
    " (null: no output).",
]


TOKENS_HEADER = [
    "Anonymous rate-limited tokens of SA2 sec. 4.3 (module dpspec.spec.sa2.tokens) over RFC 9474"
    " RSABSSA-SHA384-PSS-Deterministic: EMSA-PSS with SHA-384, MGF1-SHA-384, 48-byte salt,"
    " identity message preparation; the RSA key is (issuerP, issuerQ, e = 65537).",
    "sa2.token_issuance: from the random tape (seed, tag) draw the nonce (32 x uniform(256)),"
    " the PSS salt (48 x uniform(256)), then r = 1 + uniform(n - 1) until gcd(r, n) = 1;"
    " tokenInput = b'dpspec/sa2/token/v1' || taskId || nonce; (blindedMsg, inv) = Blind(pk,"
    " tokenInput, salt, r); blindSig = BlindSign(sk, blindedMsg); sig = Finalize(pk, tokenInput,"
    " blindSig, inv) (RFC 9474 sec. 4); token = tokenInput || sig. `inv` is hex without padding.",
    "sa2.token_verify: one aggregator's checks, in order, on each token of `tokens` with one"
    " spent-nonce set: length and prefix (else token_malformed), task (token_wrong_task),"
    " RSASSA-PSS-VERIFY of sig over tokenInput (token_invalid), nonce not spent before"
    " (token_replayed); otherwise accepted, and the nonce is spent.",
]


class Sa2Family(Family):
    name = "sa2"
    summary = "SA2 ideal functionality (A_B, SA_B Poisson and fixed-size, A_{B,K}, donation time)"

    def handlers(self) -> dict[str, Handler]:
        return {
            "sa2.aggregate": h_aggregate,
            "sa2.samplable_aggregate": h_poisson,
            "sa2.fixed_size_aggregate": h_fixed,
            "sa2.time_bounded_aggregate": h_time_bounded,
            "sa2.donation_schedule": h_donation,
            "sa2.collection": h_collection,
            "sa2.recipe_check": h_recipe_check,
            "sa2.token_issuance": h_token_issuance,
            "sa2.token_verify": h_token_verify,
            "sa2.gaussian_vector": h_gaussian_vector,
        }

    def schemas(self) -> dict[str, dict[str, Any]]:
        base: dict[str, Any] = {"B": DEC, "dimension": COUNT, "messages": _MSGS}
        tape_args: dict[str, Any] = {"seed": HEX, "tag": {"type": "string"}}
        sampled_out: dict[str, Any] = {
            "type": "object", "required": ["selectedCount", "release", "bitsConsumed"],
            "properties": {"selectedCount": COUNT, "release": _RELEASE, "bitsConsumed": COUNT}}
        release_out: dict[str, Any] = {"type": "object", "required": ["release"],
                                       "properties": {"release": _RELEASE}}
        ops: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
            "sa2.aggregate": ({"properties": base}, release_out),
            "sa2.samplable_aggregate": ({"properties": {**base, **tape_args, "q": RAT}},
                                        sampled_out),
            "sa2.fixed_size_aggregate": ({"properties": {**base, **tape_args}}, sampled_out),
            "sa2.time_bounded_aggregate": (
                {"properties": {**base, "t0": RAT, "K": RAT,
                                "times": {"type": "array", "items": RAT}}}, release_out),
            "sa2.donation_schedule": (
                {"properties": {**tape_args, "q": RAT, "m": DEC, "K": RAT, "count": COUNT}},
                {"type": "object", "required": ["waits", "bitsConsumed"],
                 "properties": {"waits": {"type": "array",
                                          "items": {"anyOf": [{"type": "null"}, RAT]}},
                                "bitsConsumed": COUNT}}),
        }
        report: dict[str, Any] = {"type": "object", "additionalProperties": HEX,
                                  "properties": {"sender": {"type": "string"}}}
        coll_args: dict[str, Any] = {
            "recipe": {"type": "object"}, "issuerP": HEX, "issuerQ": HEX,
            "leaderHpkeIkm": HEX, "helperHpkeIkm": HEX, "verifyKey": HEX, "seed": HEX,
            "data": {"type": "array", "items": {"anyOf": [DEC, {"type": "array", "items": RAT}]}},
            "malicious": COUNT, "dropRate": RAT,
            "arrivalSpacing": RAT}
        coll_out: dict[str, Any] = {
            "type": "object",
            "required": ["reports", "dropped", "arrival", "verdicts", "accepted", "aggregated",
                         "rejected", "release", "tokensIssued"],
            "properties": {
                "reports": {"type": "array", "items": report},
                "dropped": {"type": "array", "items": {"type": "boolean"}},
                "arrival": {"type": "array", "items": COUNT},
                "verdicts": {"type": "array", "items": {"type": "string"}},
                "accepted": COUNT, "aggregated": COUNT, "tokensIssued": COUNT,
                "rejected": {"type": "object", "additionalProperties": COUNT},
                "release": _RELEASE}}
        tok_ops: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
            "sa2.token_issuance": (
                {"properties": {"issuerP": HEX, "issuerQ": HEX, "taskId": HEX, "seed": HEX,
                                "tag": {"type": "string"}}},
                {"type": "object",
                 "required": ["tokenInput", "salt", "inv", "blindedMsg", "blindSig", "sig",
                              "token"],
                 "properties": {k: HEX for k in ["tokenInput", "salt", "blindedMsg",
                                                  "blindSig", "sig", "token"]}
                 | {"inv": {"type": "string", "pattern": "^[0-9a-f]+$"}}}),
            "sa2.token_verify": (
                {"properties": {"modulus": {"type": "string", "pattern": "^[0-9a-f]+$"},
                                "exponent": DEC, "taskId": HEX,
                                "tokens": {"type": "array", "items": HEX}}},
                {"type": "object", "required": ["verdicts"],
                 "properties": {"verdicts": {"type": "array", "items": {"enum": [
                     "accepted", "token_malformed", "token_wrong_task", "token_invalid",
                     "token_replayed"]}}}}),
        }
        verdicts = ["accepted", "privacy_claim_not_met", "accountant_not_applicable",
                    "unsupported_accountant", "vdaf_mismatch", "malformed", "dummy_unsupported",
                    "decoding_mismatch", "weak_issuer_key", "same_aggregator_keys",
                    "unsupported_version", "budget_exhausted"]
        rec_ops: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
            "sa2.recipe_check": (
                {"properties": {"recipe": {"type": "object"}}},
                {"type": "object", "required": ["verdict"],
                 "properties": {"verdict": {"enum": verdicts},
                                "bound": {"enum": ["closed", "fmt20", "fmt22", "local",
                                                   "gaussian-rounds"]}}})}
        fl_ops: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
            "sa2.gaussian_vector": (
                {"properties": {"randomizer": {"type": "object"}, "update": {"type": "array"},
                                **tape_args}},
                {"type": "object",
                 "required": ["clipped", "encoded", "noise", "normSquared", "normBound", "bits",
                              "report", "bitsConsumed"],
                 "properties": {"clipped": {"type": "array", "items": RAT},
                                "encoded": _VEC, "noise": _VEC, "normSquared": DEC,
                                "normBound": DEC, "bits": COUNT, "report": _RELEASE,
                                "bitsConsumed": COUNT}})}
        return {FL_SCHEMA: family_schema(FL_SCHEMA, "SA2 federated-learning randomizer", fl_ops),
                RECIPES_SCHEMA: family_schema(RECIPES_SCHEMA, "SA2 recipe checks", rec_ops),
                TOKENS_SCHEMA: family_schema(TOKENS_SCHEMA, "SA2 token vectors", tok_ops),
                IDEAL_SCHEMA: family_schema(IDEAL_SCHEMA, "SA2 ideal functionality vectors", ops),
                PROTOCOL_SCHEMA: family_schema(PROTOCOL_SCHEMA, "SA2 protocol transcripts",
                                               {"sa2.collection": ({"properties": coll_args},
                                                                   coll_out)})}

    def files(self) -> list[VectorFile]:
        return [self._ideal_file(), self._protocol_file(), self._tokens_file(),
                self._recipes_file(), self._fl_file()]

    def _fl_file(self) -> VectorFile:
        tc = TestNumberer()

        def gv(d: int, C: str, f: int, v: str, t: int = fl.DEFAULT_TAIL_EXPONENT
               ) -> dict[str, Any]:
            return fl.GaussianVector(d, ideal.exact(C), f, ideal.exact(v), t).to_json()

        def inputs(label: str, r: dict[str, Any], update: list[Any]) -> dict[str, Any]:
            return {"randomizer": r, "update": update, "seed": vector_seed(label).hex(),
                    "tag": protocol.TAGS["randomizer"].format(i=0)}

        tests = []
        cases: list[tuple[str, dict[str, Any], list[Any], list[str]]] = [
            ("inside the ball: not clipped; f = 8, variance 1/10 (s2 = 6553.6)",
             gv(4, "1", 8, "1/10"), ["1/4", "-1/2", "0", "3/8"], []),
            ("norm 5 > C = 1: clipped by exactly 1/5 (sqrt(25) is exact)",
             gv(2, "1", 8, "1/10"), ["3", "-4"], ["Clipped"]),
            ("norm sqrt(3) > C = 1/2: r rounds sqrt(3) up to a multiple of 2^-64",
             gv(3, "1/2", 10, "1/100"), ["1", "1", "1"], ["Clipped"]),
            ("encoding truncates toward zero (negative entries too), f = 3",
             gv(3, "10", 3, "1/2"), ["-0.99", "0.99", "-1/17"], []),
            ("f = 0: integer updates, large noise", gv(2, "100", 0, "400"), ["7", "-3"], []),
            ("the zero update (a dummy's measurement is the zero vector, no noise)",
             gv(4, "1", 8, "1/10"), ["0", "0", "0", "0"], []),
            ("Example 5 scale: C = 1, f = 16, variance 5.1^2 / 10^4",
             gv(2, "1", 16, "2601/1000000"), ["0.6", "-0.9"], ["Clipped"]),
            ("JSON integers are accepted as rationals", gv(2, "2", 4, "1"), [1, -1], []),
        ]
        for i, (label, r, update, flags) in enumerate(cases):
            inp = inputs(f"sa2/fl/{i}", r, update)
            tests.append(test_entry(tc(), label, inp, self._run("sa2.gaussian_vector", inp),
                                    flags=flags))
        # an honest report over the norm bound: tail exponent 1, the first seed that draws one
        tight = gv(2, "1", 4, "1/4", 1)
        for j in range(1000):
            inp = inputs(f"sa2/fl/over/{j}", tight, ["1", "0"])
            out = self._run("sa2.gaussian_vector", inp)
            if out["report"] is None:
                break
        else:  # pragma: no cover - e^-1 per draw
            raise AssertionError("no over-norm draw in 1000 seeds")
        tests.append(test_entry(tc(), "tail exponent 1: the noised report is over the norm "
                                "bound, so an honest device does not upload it", inp, out,
                                flags=["OverNorm"]))
        base = gv(3, "1", 8, "1/10")
        bad: list[tuple[str, dict[str, Any], list[Any]]] = [
            ("update of the wrong length", base, ["1", "2"]),
            ("a float entry", base, ["1", 0.5, "0"]),
            ("an entry that is not a rational", base, ["1", "one", "0"]),
            ("clipNorm 0", {**base, "clipNorm": "0"}, ["1", "0", "0"]),
            ("negative clipNorm", {**base, "clipNorm": "-1"}, ["1", "0", "0"]),
            ("fractionalBits 33", {**base, "fractionalBits": 33}, ["1", "0", "0"]),
            ("negative fractionalBits", {**base, "fractionalBits": -1}, ["1", "0", "0"]),
            ("noiseVariance 0", {**base, "noiseVariance": "0"}, ["1", "0", "0"]),
            ("tailExponent 0", {**base, "tailExponent": 0}, ["1", "0", "0"]),
            ("tailExponent 201", {**base, "tailExponent": 201}, ["1", "0", "0"]),
            ("dimension 0", {**base, "dimension": 0}, []),
            ("an unknown field", {**base, "sigma": "1"}, ["1", "0", "0"]),
            ("another randomizer's name", {**base, "name": "rappor"}, ["1", "0", "0"]),
        ]
        tests += invalid_tests(tc, h_gaussian_vector, {},
                               [(label, inputs("sa2/fl/bad", r, update), "BadParameter")
                                for label, r, update in bad])
        return self.vector_file(
            "sa2/fl_randomizer.json", algorithm="SA2-gaussian-vector-randomizer", schema=FL_SCHEMA,
            header=[
                "The federated-learning randomizer of SA2 (dpspec.spec.sa2.fl; Talwar et al."
                " Examples 3 and 5, sec. 4.5). All arithmetic is exact (no floating point).",
                "Parameters (`randomizer`): dimension d (1..4096), clipNorm C > 0 (rational),"
                " fractionalBits f (0..32), noiseVariance v > 0 (rational), tailExponent t"
                " (1..200, default 50); no other field. The update is d rationals (strings, or"
                " JSON integers; never floats).",
                "clip: S = sum x_i^2; if S <= C^2 the update is kept, else every entry is"
                " multiplied by C / r with r = ceil(sqrt(S) * 2^64) / 2^64 (the smallest multiple"
                " of 2^-64 at least sqrt(S)). `clipped` lists the result as reduced rationals.",
                "encode: encoded_i = trunc(clipped_i * 2^f), rounded toward zero.",
                "noise: d draws of the discrete Gaussian sampler of"
                " vectors/samplers/discrete_gaussian.json with sigma2 = v * 4^f, in coordinate"
                " order, from the random tape (seed, tag); report = encoded + noise.",
                "norm bound: normBound = ceil((C 2^f + R)^2), R = ceil(sqrt(s2 (d + 2"
                " ceil(sqrt(d t)) + 2 t))) with s2 = v 4^f; bits = isqrt(normBound).bit_length()"
                " + 1 (the Prio3BoundedL2VecSum parameters of the recipe). `report` is null when"
                " normSquared = sum report_i^2 exceeds normBound: the device does not upload it.",
            ],
            notes={"Clipped": "The update is longer than C and is scaled onto the ball.",
                   "OverNorm": "The noised report exceeds the norm bound (not uploaded).",
                   "BadParameter": "A parameter or the update fails its check."},
            groups=[{"op": "sa2.gaussian_vector", "params": {}, "tests": tests}])

    def _recipes_file(self) -> VectorFile:
        tc = TestNumberer()
        dep = vector_deployment()

        def recipe(r: protocol.AnyRandomizer, B: int, q: Fraction, eps: Fraction,
                   **over: Any) -> dict[str, Any]:
            args: dict[str, Any] = dict(
                recipe_id="dpspec-sa2-claims", task_id=vector_seed("sa2/task"), randomizer=r,
                B=B, q=q, chunk_length=2, leader_pk=dep.leader_hpke.public_key,
                helper_pk=dep.helper_hpke.public_key, issuer_key=dep.issuer_sk.public_key(),
                epsilon=eps, delta=Fraction(1, 10**6))
            args.update(over)
            return protocol.make_recipe(**args)

        F = Fraction
        rap = Randomizer("rappor", 4, F(1, 22))
        bin_ = Randomizer("binary_randomized_response", 2, F(1, 2))
        rr = Randomizer("randomized_response", 8, F(1, 2))
        heavy = recipe(rap, 5000, F(1), F(7))
        # federated learning: the claim over all rounds, through the subsampled Gaussian
        gauss = fl.GaussianVector(4, F(1), 8, F(1, 10))
        fl_eps = fl.statement(gauss, 2000, F(1, 100), 50, F(1, 10**6)).epsilon

        def scaled(x: Any, factor: str) -> Fraction:
            return F(privacy.publish(x * mpmath.mpf(factor), 4))

        # the smallest tail exponent whose dropped honest reports fit in half of delta: the
        # boundary of the ShortTail refusal (at the claim accepted below)
        def short(t: int) -> bool:
            try:
                fl.statement(fl.GaussianVector(4, F(1), 8, F(1, 10), tail_exponent=t), 2000,
                             F(1, 100), 50, F(1, 10**6))
            except ideal.Sa2Error:
                return True
            return False

        t_min = next(t for t in range(1, fl.MAX_TAIL_EXPONENT + 1) if not short(t))

        # dummies counted as real reports: the bound at B (not B - d) amplified, plus 2%
        dum = Randomizer("binary_randomized_response", 2, F(1, 2))
        naive = privacy.sa2_model(privacy.shuffle_statement(
            "shuffle-closed-form", dum.name, dum.epsilon0(), 2000, F(1, 10**6)), F(1, 10))
        dummy_args: dict[str, Any] = dict(dummy_rate=F(1, 40), population=20000)
        naive_claim = scaled(naive.epsilon, "1.02")
        truth = protocol.guarantee(protocol.parse_recipe(
            recipe(dum, 2000, F(1, 10), naive_claim, **dummy_args))).epsilon
        assert truth > naive_claim * mpmath.mpf("1.05")
        light = Randomizer("rappor", 16, F(1, 22))
        inflatable = recipe(light, 5000, F(1), F(7))
        inflatable["vdaf"] = {**inflatable["vdaf"], "maxWeight": 16}
        cases: list[tuple[str, dict[str, Any], list[str]]] = [
            ("RAPPOR k = 4, flip 1/22, B = 5000, q = 1, claim (2.1, 1e-6), closed form: eps0 = "
             "6.09 is outside Theorem 3.1's region (<= 3.74); the formula's 2.06 is not a bound, "
             "the valid fmt20 bound is 6.09: refuse", recipe(rap, 5000, F(1), F(21, 10)),
             ["FalseClaim", "OutsideRegion"]),
            ("the same recipe claiming 6.5: accepted under the fmt20 fallback",
             recipe(rap, 5000, F(1), F(13, 2)), ["OutsideRegion"]),
            ("binary RR flip 1/2, B = 10000, q = 1, claim 0.1: inside the region the closed form "
             "gives 0.19996: refuse", recipe(bin_, 10000, F(1), F(1, 10)),
             ["FalseClaim", "InsideRegion"]),
            ("binary RR flip 1/2, B = 10000, q = 1, claim 0.25: accepted (closed form)",
             recipe(bin_, 10000, F(1), F(1, 4)), ["InsideRegion"]),
            ("8-ary RR flip 1/2, B = 10000, q = 1/50, claim 0.02: accepted (closed form 0.445, "
             "amplified 0.0112)", recipe(rr, 10000, F(1, 50), F(1, 50)), ["InsideRegion"]),
            ("8-ary RR flip 1/2, B = 10000, q = 1/50, claim 0.01: refuse",
             recipe(rr, 10000, F(1, 50), F(1, 100)), ["FalseClaim", "InsideRegion"]),
            ("RAPPOR k = 4, flip 1/22, B = 5000, claim 2.1 under rappor-clone (0.488): accepted",
             recipe(rap, 5000, F(1), F(21, 10), accountant="rappor-clone"), []),
            ("RAPPOR under rappor-clone claiming 0.4: refuse",
             recipe(rap, 5000, F(1), F(2, 5), accountant="rappor-clone"), ["FalseClaim"]),
            ("the fmt22 bound is proven for binary RR only: refuse it for RAPPOR",
             recipe(rap, 5000, F(1), F(21, 10), accountant="shuffle-fmt22"), ["Accountant"]),
            ("an accountant the client does not know: refuse",
             recipe(rap, 5000, F(1), F(21, 10), accountant="moments"), ["Accountant"]),
            ("binary RR, B = 50, dummies at 1/100 over 10^5 devices: more dummies than B are "
             "likely, so no real report is guaranteed: refuse",
             recipe(bin_, 50, F(1, 10), F(100), dummy_rate=F(1, 100), population=10**5),
             ["FalseClaim", "Dummies"]),
            (f"RAPPOR k = 16, flip 1/22 with maxWeight = k: a report could set every bucket; "
             f"the client wants the exact max_weight ({light.max_weight()}): refuse",
             inflatable, ["Inflatable"]),
            ("RAPPOR k = 4 with the exact maxWeight (4 here, as k - 1 flips have probability "
             "above 1e-9) claiming 7: accepted", heavy, ["OutsideRegion"]),
            (f"binary RR, B = 2000, q = 1/10, dummies at 1/40 over 20000 devices, claiming "
             f"{naive_claim}: that holds only if all B reports were real (about 500 are dummies): "
             f"refuse", recipe(dum, 2000, F(1, 10), naive_claim, **dummy_args),
             ["FalseClaim", "Dummies"]),
            (f"federated learning: d = 4, C = 1, f = 8, variance 1/10, B = 2000, q = 1/100, 50 "
             f"rounds, claim {scaled(fl_eps, '1.1')} over all rounds: accepted",
             recipe(gauss, 2000, F(1, 100), scaled(fl_eps, "1.1"), rounds=50),
             ["FederatedLearning"]),
            (f"the same recipe claiming {scaled(fl_eps, '0.9')}: refuse",
             recipe(gauss, 2000, F(1, 100), scaled(fl_eps, "0.9"), rounds=50),
             ["FederatedLearning", "FalseClaim"]),
            ("the same claim over 500 rounds: refuse (the claim covers every round)",
             recipe(gauss, 2000, F(1, 100), scaled(fl_eps, "1.1"), rounds=500),
             ["FederatedLearning", "FalseClaim"]),
            (f"federated learning, tail exponent {t_min} (the smallest whose dropped honest "
             f"reports, (1 + e^eps) T (B - 1) e^-t, fit in half of delta): accepted",
             recipe(fl.GaussianVector(4, F(1), 8, F(1, 10), tail_exponent=t_min), 2000,
                    F(1, 100), scaled(fl_eps, "1.1"), rounds=50),
             ["FederatedLearning", "ShortTail"]),
            (f"the same with tail exponent {t_min - 1}: refuse (the client names the exponent "
             f"needed)",
             recipe(fl.GaussianVector(4, F(1), 8, F(1, 10), tail_exponent=t_min - 1), 2000,
                    F(1, 100), scaled(fl_eps, "1.1"), rounds=50),
             ["FederatedLearning", "ShortTail"]),
            ("federated learning with noise too coarse for the Gaussian accountant (variance "
             "times 4^f below 4): refuse",
             recipe(fl.GaussianVector(4, F(1), 0, F(1)), 2000, F(1, 100), F(100), rounds=5),
             ["FederatedLearning", "CoarseNoise"]),
        ]
        tests = []
        for label, rec, flags in cases:
            inputs = {"recipe": rec}
            tests.append(test_entry(tc(), label, inputs, self._run("sa2.recipe_check", inputs),
                                    flags=flags))
        return self.vector_file(
            "sa2/recipe_checks.json", algorithm="SA2-recipe-check", schema=RECIPES_SCHEMA,
            header=[
                "The client's verdict on a recipe (dpspec.spec.sa2.protocol.check_recipe with a"
                " budget of 10^9 and one query): 'accepted' or the reason code of the refusal;"
                " for an accepted recipe, the aggregator-model bound that supported the claim"
                " (closed: MJTB+22 Theorem 3.1 inside its region eps0 <= log(B / (8 log(2 /"
                " delta)) - 1); fmt20 / fmt22: the numerical clone bounds of"
                " dpspec.spec.accounting.shuffle).",
                "An implementation must refuse every recipe whose claim no valid bound supports;"
                " using MJTB+22 Theorem 3.1's formula outside its validity region accepts the"
                " first case (the formula gives 2.06 < 2.1) and is a conformance failure.",
                "Claims are at least 5% away from the computed bound, so verdicts do not depend on"
                " the floating-point details of the numerical bounds.",
            ],
            notes={
                "FalseClaim": "The claim is below every valid bound: the client must refuse.",
                "OutsideRegion": "The closed form's validity condition fails; the fallback is "
                                 "fmt20.",
                "InsideRegion": "The closed form applies.",
                "Accountant": "The accountant is unknown or not proven for the randomizer.",
                "Dummies": "Dummy reports count toward B but carry no noise.",
                "Inflatable": "The VDAF's maxWeight is not the exact one of the randomizer.",
                "FederatedLearning": "A gaussian_vector recipe (dpspec.spec.sa2.fl): the claim "
                                     "covers all `rounds` rounds; the client computes it with "
                                     "dpspec.spec.accounting.distributed.subsampled_epsilon: "
                                     "the moments accountant at integer orders at noise "
                                     "multiplier sqrt((B - 1) v 4^f / normBound), rounded down "
                                     "to 12 significant digits, plus the sum-of-discrete-"
                                     "Gaussians slack in epsilon and the dropped honest "
                                     "reports (1 + e^eps) T (B - 1) e^-t in delta.",
                "ShortTail": "At the boundary of the tail exponent t: an honest report "
                             "over the norm bound (probability e^-t) is dropped, which costs "
                             "(1 + e^eps) T (B - 1) e^-t of delta; more than half of delta is "
                             "refused.",
                "CoarseNoise": "v 4^f < 4: refused (the sum-of-discrete-Gaussians slack grows "
                               "quickly below it).",
            },
            groups=[{"op": "sa2.recipe_check", "params": {}, "tests": tests}])

    def _tokens_file(self) -> VectorFile:
        tc = TestNumberer()
        sk = vector_deployment().issuer_sk
        pk = sk.public_key()
        key = {"issuerP": format(sk.p, "x"), "issuerQ": format(sk.q, "x")}
        task = vector_seed("sa2/task").hex()
        tests = []
        inputs: dict[str, Any]
        issued = []
        for i in range(3):
            inputs = {**key, "taskId": task, "seed": vector_seed(f"sa2/token/{i}").hex(),
                      "tag": protocol.TAGS["token"].format(i=i)}
            out = self._run("sa2.token_issuance", inputs)
            issued.append(out["token"])
            tests.append(test_entry(tc(), f"device {i}: blind, sign, finalize", inputs, out))
        other = {**key, "taskId": "00" * 32, "seed": vector_seed("sa2/token/other").hex(),
                 "tag": "sa2/client/0/token"}
        other_token = self._run("sa2.token_issuance", other)["token"]
        groups: list[dict[str, Any]] = [{"op": "sa2.token_issuance", "params": {},
                                         "tests": tests}]
        forged = issued[0][: -2 * pk.modulus_len] + issued[1][-2 * pk.modulus_len:]
        sequences: list[tuple[str, list[str]]] = [
            ("three fresh tokens are accepted", issued),
            ("a token spent twice: the second is a replay", [issued[0], issued[1], issued[0]]),
            ("a signature moved to another token input is invalid", [forged, issued[1]]),
            ("a token for another task", [other_token]),
            ("a token of the wrong length is malformed", [issued[0][:-2], issued[2]]),
        ]
        tests = []
        params = {"modulus": format(pk.n, "x"), "exponent": str(pk.e), "taskId": task}
        for label, seq in sequences:
            inputs = {"tokens": seq}
            tests.append(test_entry(tc(), label, inputs,
                                    self._run("sa2.token_verify", {**params, **inputs})))
        groups.append({"op": "sa2.token_verify", "params": params, "tests": tests})
        # appended: two tokens whose nonces differ in their first byte only (the whole 32-byte
        # nonce is what is spent), signed with the vector key from fixed salts and blinds
        twins = []
        for first in (1, 2):
            nonce = bytes([first]) + vector_seed("sa2/token/twin", tokens.NONCE_LEN - 1)
            msg = tokens.token_input(bytes.fromhex(task), nonce)
            salt = vector_seed(f"sa2/token/twin/salt/{first}", tokens.SALT_LEN)
            blinded, inv = tokens.blind(pk, msg, salt, 1 + first)
            sig = tokens.finalize(pk, msg, tokens.blind_sign(sk, blinded), inv)
            twins.append(tokens.Token(msg, sig).encode().hex())
        tests = []
        for label, seq in [
                ("nonces equal but for the first byte are two different nonces", twins),
                ("... and each is a replay of itself", [twins[1], twins[0], twins[1]])]:
            inputs = {"tokens": seq}
            tests.append(test_entry(tc(), label, inputs,
                                    self._run("sa2.token_verify", {**params, **inputs})))
        groups.append({"op": "sa2.token_verify", "params": params, "tests": tests})
        return self.vector_file(
            "sa2/tokens.json", algorithm="SA2-tokens-RSABSSA-SHA384-PSS-Deterministic",
            schema=TOKENS_SCHEMA, header=TOKENS_HEADER, notes={}, groups=groups)

    def _protocol_file(self) -> VectorFile:
        tc = TestNumberer()
        dep = vector_deployment()
        keys = deployment_keys(dep)

        def recipe(r: protocol.AnyRandomizer, B: int, q: str, dummy: str = "0",
                   **over: Any) -> dict[str, Any]:
            return vector_recipe(dep, r, B, q, dummy, **over)

        def data(label: str, n: int, k: int) -> list[str]:
            t = RandomTape(vector_seed(label), "vectors/sa2/data")
            return [str(t.uniform(k)) for _ in range(n)]

        def updates(label: str, n: int, d: int) -> list[list[str]]:
            t = RandomTape(vector_seed(label), "vectors/sa2/updates")
            return [[format_rational(Fraction(t.uniform(193) - 96, 64)) for _ in range(d)]
                    for _ in range(n)]

        rr = Randomizer("randomized_response", 4, Fraction(1, 2))
        gauss = fl.GaussianVector(3, Fraction(1), 8, Fraction(1, 10))
        rap = Randomizer("rappor", 6, Fraction(1, 10), Fraction(1, 100))  # max_weight 4
        bin_ = Randomizer("binary_randomized_response", 2, Fraction(1, 4))
        tests = []
        cases: list[tuple[str, dict[str, Any], int, str, list[str]]] = [
            ("honest devices, randomized response (Prio3Histogram), released",
             recipe(rr, 3, "1/2"), 0, "0", []),
            ("fewer than B accepted reports: no output", recipe(rr, 6, "1/2"), 0, "0", []),
            ("one malicious device of each kind, RAPPOR k = 6 (Prio3MultihotCountVec, maxWeight 4)",
             recipe(rap, 2, "1/2"), 5, "0", ["Malicious"]),
            ("dummy reports at rate 1/2 and network loss 1/4, binary RR (Prio3Count)",
             recipe(bin_, 2, "1/3", dummy="1/2"), 0, "1/4", ["Dummies", "Dropped"]),
            ("fixed-size: the first B = 3 accepted of at least 6 are summed, randomized response",
             recipe(rr, 3, "1", sampling="fixed_size", population=6), 2, "0", ["FixedSize"]),
            ("time bound: reports arrive 1 apart from t0 = 0, K = 4: the last three are late",
             recipe(rr, 3, "1", window=(Fraction(0), Fraction(4))), 0, "0", ["TimeBound"]),
            ("federated learning: Gaussian vector updates (d = 3, C = 1, f = 8), "
             "Prio3BoundedL2VecSum, released (signed fixed-point sum)",
             recipe(gauss, 2, "1/2", rounds=2), 0, "0", ["FederatedLearning"]),
            ("federated learning, one malicious device of each kind: the over-norm report "
             "(inflated) fails the bounded-L2 proof",
             recipe(gauss, 2, "1/2", rounds=2), 5, "0", ["FederatedLearning", "Malicious"]),
        ]
        sizes = [8, 6, 6, 10, 7, 8, 8, 6]
        inputs: dict[str, Any]
        for i, (label, rec, mal, drop, flags) in enumerate(cases):
            r = protocol.parse_randomizer(rec["randomizer"])
            devices: list[Any] = (
                updates(f"sa2/collection/{i}", sizes[i], r.k)
                if isinstance(r, fl.GaussianVector) else data(f"sa2/collection/{i}", sizes[i], r.k))
            inputs = {**keys, "recipe": rec, "seed": vector_seed(f"sa2/collection/{i}").hex(),
                      "data": devices, "malicious": mal, "dropRate": drop}
            if "timeWindow" in rec:
                inputs["arrivalSpacing"] = "1"
            tests.append(test_entry(tc(), label, inputs, self._run("sa2.collection", inputs),
                                    flags=flags))
        wrong_key = recipe(rr, 3, "1/2", leader_pk=dep.helper_hpke.public_key,
                           helper_pk=dep.leader_hpke.public_key)
        refused = recipe(rr, 3, "1/2", accountant="rappor-clone")
        bad_run = {**keys, "seed": vector_seed("sa2/collection/bad").hex(),
                   "data": data("sa2/collection/bad", 4, 4), "malicious": 0, "dropRate": "0"}
        tests += invalid_tests(tc, h_collection, {}, [
            ("the recipe names other aggregator keys", {**bad_run, "recipe": wrong_key},
             "KeyMismatch"),
            ("the client refuses the recipe (accountant not applicable)",
             {**bad_run, "recipe": refused}, "RecipeRefused")])
        return self.vector_file(
            "sa2/protocol_transcripts.json", algorithm="SA2-protocol-transcript",
            schema=PROTOCOL_SCHEMA,
            header=PROTOCOL_HEADER,
            notes={
                "Malicious": "Malicious devices j = 0..K-1 (kinds invalid_proof, forged_token, "
                             "replayed_token, wrong_B, inflated in turn) send after the honest "
                             "devices.",
                "Dummies": "Devices that did not select themselves send a zero report at rate q'.",
                "Dropped": "The anonymizer drops reports at the given rate before shuffling.",
                "FixedSize": "Fixed-size variant (sec. 3): each aggregator sums the first B "
                             "reports both accepted, in arrival order, and releases only if at "
                             "least `population` were accepted.",
                "TimeBound": "App. A: report i (in arrival order) arrives at t0 + i * "
                             "arrivalSpacing; each aggregator refuses those outside [t0, t0 + K] "
                             "(outside_time_window) without opening them.",
                "FederatedLearning": "One round of the federated-learning path (dpspec.spec.sa2.fl;"
                                     " the randomizer's steps are in sa2/fl_randomizer.json): "
                                     "device i's `data` entry is its update (rationals); the "
                                     "VDAF is Prio3BoundedL2VecSum (codepoint 0xFFFF0100, NOT "
                                     "part of VDAF draft-20; vectors/vdaf/"
                                     "Prio3BoundedL2VecSum_dpspec.json); the inflated report is "
                                     "the vector of entries -2^(bits-1) claiming norm normBound. "
                                     "In a multi-round task, round r is this collection run "
                                     "with the seed made of 32 x uniform(256) from the tape "
                                     "(seed, 'sa2/fl/round/{r}').",
                "KeyMismatch": "The recipe's keys are not the deployment's: refuse to run.",
                "RecipeRefused": "The client's recipe check fails "
                             "(dpspec.spec.sa2.protocol.check_recipe_structure).",
            },
            groups=[{"op": "sa2.collection", "params": {}, "tests": tests}],
        )

    def _run(self, op: str, args: dict[str, Any]) -> dict[str, Any]:
        return self.handlers()[op](args)

    def _ideal_file(self) -> VectorFile:
        tc = TestNumberer()
        groups: list[dict[str, Any]] = []

        def msgs(label: str, k: int, dim: int, hi: int = 10) -> list[list[str]]:
            t = RandomTape(vector_seed(label), "vectors/sa2/messages")
            return [[str(t.uniform(hi)) for _ in range(dim)] for _ in range(k)]

        # A_B^Dec
        tests = []
        inputs: dict[str, Any]
        three = msgs("sa2/agg", 3, 2)
        for label, B, ms in [("k = B releases the sum", "3", three),
                             ("k > B releases the sum", "2", three),
                             ("k < B: no output", "4", three),
                             ("no messages: no output", "1", [])]:
            inputs = {"B": B, "dimension": 2, "messages": ms}
            tests.append(test_entry(tc(), label, inputs, self._run("sa2.aggregate", inputs)))
        inputs = {"B": "1", "dimension": 2, "messages": [["1", "-3"], ["4", "5"]]}
        tests.append(test_entry(tc(), "negative coordinates add like any integers", inputs,
                                self._run("sa2.aggregate", inputs)))
        agg_base: dict[str, Any] = {"B": "1", "dimension": 2, "messages": three}
        tests += invalid_tests(tc, h_aggregate, {}, [
            ("B = 0 is rejected", {**agg_base, "B": "0"}, "BadCohortSize"),
            ("message of the wrong length", {**agg_base, "messages": [["1"]]}, "BadMessage")])
        groups.append({"op": "sa2.aggregate", "params": {}, "tests": tests})

        # SA_B^Dec, Poisson
        tests = []
        cases = [("q = 1/2, k = 40, B = 10", "1/2", 40, "10", 1),
                 ("q = 0.02, k = 500, B = 5", "0.02", 500, "5", 1),
                 ("q = 0.02, k = 500, B = 20: too few selected, no output", "0.02", 500, "20", 1),
                 ("q = 3/7, three-dimensional messages", "3/7", 30, "8", 3),
                 ("q = 1 keeps all and draws nothing", "1", 12, "12", 1),
                 ("q = 0 keeps none and draws nothing", "0", 12, "1", 1),
                 ("q = 0.999", "0.999", 25, "25", 2)]
        for i, (label, q, k, B, dim) in enumerate(cases):
            inputs = {"seed": vector_seed(f"sa2/poisson/{i}").hex(), "tag": "sa2/poisson",
                      "q": q, "B": B, "dimension": dim, "messages": msgs(f"sa2/p/{i}", k, dim)}
            tests.append(test_entry(tc(), label, inputs,
                                    self._run("sa2.samplable_aggregate", inputs)))
        bad_poisson = {"seed": vector_seed("sa2/poisson/bad").hex(), "tag": "sa2/poisson",
                       "B": "1", "dimension": 1, "messages": msgs("sa2/p/bad", 4, 1)}
        tests += invalid_tests(tc, h_poisson, {}, [
            (label, {**bad_poisson, "q": q}, "BadRate")
            for label, q in [("q > 1 is rejected", "3/2"), ("negative q is rejected", "-1/2")]])
        groups.append({"op": "sa2.samplable_aggregate", "params": {}, "tests": tests})

        # fixed size
        tests = []
        for i, (label, k, B) in enumerate([("k = 20, B = 5", 20, "5"), ("k = B = 6", 6, "6"),
                                           ("k = 100, B = 1", 100, "1"),
                                           ("k = 4 < B = 5: no output, nothing drawn", 4, "5")]):
            inputs = {"seed": vector_seed(f"sa2/fixed/{i}").hex(), "tag": "sa2/fixed_size",
                      "B": B, "dimension": 2, "messages": msgs(f"sa2/f/{i}", k, 2)}
            tests.append(test_entry(tc(), label, inputs,
                                    self._run("sa2.fixed_size_aggregate", inputs)))
        groups.append({"op": "sa2.fixed_size_aggregate", "params": {}, "tests": tests})

        # A_{B,K}
        tests = []
        four = msgs("sa2/time", 4, 1)
        for label, times, B, K in [
                ("all within K", ["0", "1/2", "3", "10"], "4", "10"),
                ("last arrival after t0 + K: no output", ["0", "1/2", "3", "10"], "4", "9.99"),
                ("too few messages: no output", ["1", "2", "3", "4"], "5", "100"),
                ("last arrival exactly at t0 + K", ["0", "5", "5", "10"], "2", "10")]:
            inputs = {"t0": "0", "K": K, "B": B, "dimension": 1, "messages": four, "times": times}
            tests.append(test_entry(tc(), label, inputs,
                                    self._run("sa2.time_bounded_aggregate", inputs)))
        timed: dict[str, Any] = {"t0": "0", "K": "10", "B": "1", "dimension": 1,
                                 "messages": four}
        bad_times: list[InvalidCase] = [
            ("arrival before t0", {**timed, "times": ["-1", "0", "1", "2"]}, "BadTimes"),
            ("times out of order", {**timed, "times": ["0", "2", "1", "3"]}, "BadTimes"),
            ("K = 0 is rejected", {**timed, "K": "0", "times": ["0", "0", "0", "0"]},
             "BadWindow")]
        tests += invalid_tests(tc, h_time_bounded, {}, bad_times)
        groups.append({"op": "sa2.time_bounded_aggregate", "params": {}, "tests": tests})

        # donation time
        tests = []
        for i, (label, q, m, K, count) in enumerate([
                ("q = 1, m = 4, K = 15", "1", "4", "15", 32),
                ("q = 1/10, m = 8, K = 5/2", "1/10", "8", "5/2", 64),
                ("m = 1: wait 0 whenever the device participates", "1/2", "1", "7", 16)]):
            inputs = {"seed": vector_seed(f"sa2/donation/{i}").hex(),
                      "tag": "sa2/donation_time", "q": q, "m": m, "K": K, "count": count}
            tests.append(test_entry(tc(), label, inputs,
                                    self._run("sa2.donation_schedule", inputs)))
        tests += invalid_tests(tc, h_donation, {}, [(
            "m = 0 is rejected", {"seed": vector_seed("sa2/donation/bad").hex(),
                                  "tag": "sa2/donation_time", "q": "1", "m": "0", "K": "1",
                                  "count": 1}, "BadM")])
        groups.append({"op": "sa2.donation_schedule", "params": {}, "tests": tests})

        # appended: A_{B,K} at K = 1 and with B = 0 (the cohort size is checked first)
        tests = []
        for label, times, B, K in [
                ("K = 1: the last arrival at t0 + 1", ["0", "0", "1/2", "1"], "4", "1"),
                ("K = 1/2: the last arrival after t0 + K: no output", ["0", "0", "1/2", "1"], "4",
                 "1/2")]:
            inputs = {"t0": "0", "K": K, "B": B, "dimension": 1, "messages": four, "times": times}
            tests.append(test_entry(tc(), label, inputs,
                                    self._run("sa2.time_bounded_aggregate", inputs)))
        tests += invalid_tests(tc, h_time_bounded, {}, [
            ("B = 0 is rejected even though every arrival is in time",
             {**timed, "B": "0", "times": ["0", "1", "2", "3"]}, "BadCohortSize")])
        groups.append({"op": "sa2.time_bounded_aggregate", "params": {}, "tests": tests})

        return self.vector_file(
            "sa2/ideal_functionality.json", algorithm="SA2-ideal-functionality",
            schema=IDEAL_SCHEMA,
            header=IDEAL_HEADER,
            notes={
                "BadCohortSize": "B must be an integer >= 1.",
                "BadMessage": "Every message must be an integer vector of length `dimension`.",
                "BadRate": "q must be an exact rational in [0, 1].",
                "BadTimes": "Arrival times must be non-decreasing and not before t0.",
                "BadWindow": "K must be > 0.",
                "BadM": "m must be an integer >= 1.",
            },
            groups=groups,
        )


FAMILY = Sa2Family()
