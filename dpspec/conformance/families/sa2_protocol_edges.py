"""Vector family ``sa2-protocol-edges``: bounds of the SA2 protocol's checks, tokens and claims.

One file, ``sa2-protocol-edges/protocol_bounds.json``; every op calls the spec function it names
(modules dpspec.spec.sa2.protocol, tokens, privacy, experiments, fl):

* ``sa2pe.recipe_verdict``: the client's structural checks of a recipe document
  (``check_recipe_structure``, sec. 4.1 of the SA2 paper): a document that is no JSON object,
  the ``rounds`` of a federated-learning recipe at 0, 1, ``MAX_ROUNDS`` and one more.
* ``sa2pe.claim``: the privacy-claim check (``check_claim``) at an exact tie: with ``B = 1`` and
  ``q = 1`` the statement is the randomizer's eps0 rounded up to 12 digits, a rational, so a
  claim equal to it holds and one just below does not.
* ``sa2pe.split_batch``: a leader and a helper provisioned with different task configurations
  (time window, rate limit): each enforces its own (sec. 4.4, App. A), a report counts only if both
  accept it, and the collector gets a result only if both release.
* ``sa2pe.split_joint_rand``: a malicious report (``protocol.split_joint_rand_shard``) whose
  proof passes but whose public share lies to one aggregator about the other's joint-randomness
  part, so that aggregator's ``verify_next`` alone fails: both refuse it, and the batch goes on.
* ``sa2pe.collect``: the collector's unshard from a batch outcome whose ``aggregated`` count is
  left out (it defaults to the accepted count) or given; the signed Gaussian sum subtracts
  ``aggregated * 2^(bits-1)``.
* ``sa2pe.token_check``: a token whose EMSA-PSS encoding is valid except for the bit just above
  ``emBits`` (RFC 8017 sec. 9.1.2 step 6).
* ``sa2pe.token_request``: the device's blinding coins for a modulus ``n = 2^k + 1``, where
  ``uniform(n - 1)`` draws ``k`` bits (``uniform(n)`` would draw ``k + 1``), and for a prime
  modulus ``n = c + 2`` built from the tape's first candidate ``c``, so that ``r = n - 1``, the
  largest blind (sec. 4.2 of RFC 9474: ``r`` uniform in ``[1, n)``).
* ``sa2pe.attest``: the attester's key id ``SHA-256(I2OSP(n) || I2OSP(e, 4))`` for an exponent
  that does not fit in 4 bytes (no key id: every request refused).
* ``sa2pe.provision``: the simulation keys ``provision(seed, issuerBits)`` draws.
* ``sa2pe.prime_draw``: the same prime draw at 20 bits, for a seed whose first prime is
  ``1 mod 65537`` (skipped) and one whose first prime is kept.
* ``sa2pe.fl_clip``: the federated-learning randomizer's clipping (exact rationals) and encoding.
* ``sa2pe.binomial_tail``: ``Pr[Bin(n, rate) >= t]`` far in the upper tail (the dummy margin of
  sec. 4.6 at a tiny delta).
* ``sa2pe.sampagg_sigma``: SampAgg's noise (sec. 3.1 of the paper's later version) when the
  smallest sigma is below 1/4, so the search halves its lower end several times.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

import mpmath
import sympy

from dpspec.conformance.families._groups import Groups, compare_keys
from dpspec.conformance.families.sa2 import (
    deployment_from_args,
    deployment_keys,
    h_token_verify,
    vector_deployment,
    vector_recipe,
)
from dpspec.conformance.families.sa2_edges import h_attest, release_strings
from dpspec.conformance.jsonargs import COUNT, DEC, HEX, RAT, hex_arg, int_arg, parse_int
from dpspec.conformance.vectors import (
    VECTOR_SEED_HEADER,
    Case,
    Family,
    Handler,
    VectorFile,
    family_schema,
    vector_seed,
)
from dpspec.spec.rational import format_rational
from dpspec.spec.sa2 import experiments, fl, ideal, privacy, protocol, tokens
from dpspec.spec.sa2.randomizers import Randomizer
from dpspec.spec.tape import RandomTape

SCHEMA = "sa2_protocol_edges-v1.json"
#: significant digits of the published reals (rounded up, privacy.publish)
DIGITS = 20
#: relative tolerance of compare on each published real: the binomial tail is an mpmath value at
#: 50 digits (the upper tail sums positive terms from t on); sigma is a 5-digit decimal, printed
#: to 15 digits rounded to nearest
REL_TOL = {"sf": mpmath.mpf("1e-15"), "sigma": mpmath.mpf("1e-9")}

_STRINGS: dict[str, Any] = {"type": "array", "items": {"type": "string"}}
_RELEASE: dict[str, Any] = {"anyOf": [{"type": "null"}, {"type": "array", "items": DEC}]}
_WINDOW: dict[str, Any] = {"anyOf": [{"type": "null"}, {"type": "array", "items": RAT,
                                                        "minItems": 2, "maxItems": 2}]}
_TASK: dict[str, Any] = {"type": "object", "properties": {
    "maxReports": {"anyOf": [{"type": "null"}, COUNT]}, "window": _WINDOW}}


def _data(args: dict[str, Any]) -> list[Any]:
    return [x if isinstance(x, list) else parse_int(x, "data") for x in args["data"]]


# -- reference handlers ----------------------------------------------------------------------------
def h_recipe_verdict(args: dict[str, Any]) -> dict[str, Any]:
    """protocol.check_recipe_structure on any JSON value: ``ok`` or the RecipeRefused reason."""
    try:
        protocol.check_recipe_structure(args["recipe"])
    except protocol.RecipeRefused as exc:
        return {"verdict": exc.reason}
    return {"verdict": "ok"}


def h_claim(args: dict[str, Any]) -> dict[str, Any]:
    """protocol.check_claim: ``admitted`` or the RecipeRefused reason."""
    try:
        protocol.check_claim(args["recipe"])
    except protocol.RecipeRefused as exc:
        return {"verdict": exc.reason}
    return {"verdict": "admitted"}


def _task(base: protocol.TaskConfig, over: dict[str, Any] | None) -> protocol.TaskConfig:
    if not over:
        return base
    changes: dict[str, Any] = {}
    if "maxReports" in over:
        changes["max_reports"] = (None if over["maxReports"] is None
                                  else int_arg(over, "maxReports"))
    if "window" in over:
        w = over["window"]
        changes["window"] = None if w is None else (ideal.exact(w[0], "window"),
                                                    ideal.exact(w[1], "window"))
    return dataclasses.replace(base, **changes)


def _reports(args: dict[str, Any]) -> tuple[protocol.Deployment, protocol.Recipe, Any,
                                            protocol.CollectionResult]:
    dep = deployment_from_args(args)
    recipe = protocol.check_recipe_structure(args["recipe"])
    vdaf = protocol.build_vdaf(recipe)
    res = protocol.run_collection(recipe, dep, vdaf, _data(args), hex_arg(args, "seed"))
    return dep, recipe, vdaf, res


def _aggregators(dep: protocol.Deployment, recipe: protocol.Recipe, vdaf: Any,
                 args: dict[str, Any]) -> tuple[protocol.Aggregator, protocol.Aggregator]:
    """A leader and a helper provisioned with the recipe's task configuration, with the
    overrides ``leader`` and ``helper`` of ``args`` where given."""
    base = recipe.task_config(dep.verify_key)
    return (protocol.Aggregator(protocol.ROLE_LEADER, _task(base, args.get("leader")),
                                dep.leader_hpke.private_key, vdaf),
            protocol.Aggregator(protocol.ROLE_HELPER, _task(base, args.get("helper")),
                                dep.helper_hpke.private_key, vdaf))


def h_split_batch(args: dict[str, Any]) -> dict[str, Any]:
    """The collection's reports (samplingRate 1) delivered in sending order to a leader and a
    helper whose task configurations are the recipe's with the overrides ``leader`` and
    ``helper`` (maxReports, window), at arrival times ``times`` (aggregate_batch, collect)."""
    dep, recipe, vdaf, res = _reports(args)
    leader, helper = _aggregators(dep, recipe, vdaf, args)
    times = None if args.get("times") is None else [ideal.exact(t, "times") for t in args["times"]]
    outcome = protocol.aggregate_batch(leader, helper, res.reports, times=times)
    return {"verdicts": outcome.verdicts, "accepted": outcome.accepted,
            "leaderReleases": outcome.leader_share is not None,
            "helperReleases": outcome.helper_share is not None,
            "release": release_strings(protocol.collect(vdaf, outcome))}


def h_split_joint_rand(args: dict[str, Any]) -> dict[str, Any]:
    """The collection's reports (samplingRate 1) in sending order, with a report of
    ``measurement`` sharded by protocol.split_joint_rand_shard (lying to aggregator
    ``deceived``) inserted at ``position``; its token and coins come from the tape
    (seed, 'sa2pe/split'). The verdicts, both aggregators' accepted counts, the release and the
    malicious report."""
    dep, recipe, vdaf, res = _reports(args)
    tape = RandomTape(hex_arg(args, "seed"), "sa2pe/split")
    attester = tokens.Attester(tokens.Issuer(dep.issuer_sk))
    tok = tokens.obtain_token("malicious-split", attester, dep.issuer_sk.public_key(),
                              recipe.task_id, tape)
    meas = args["measurement"]
    meas = [parse_int(x, "measurement") for x in meas] if isinstance(meas, list) else \
        parse_int(meas, "measurement")
    bad = protocol.client_report(recipe, vdaf, meas, tok, tape, deceive=int_arg(args, "deceived"))
    reports = list(res.reports)
    reports.insert(int_arg(args, "position"), bad)
    leader, helper = _aggregators(dep, recipe, vdaf, args)
    outcome = protocol.aggregate_batch(leader, helper, reports)
    return {"verdicts": outcome.verdicts, "accepted": outcome.accepted,
            "helperAccepted": helper.accepted,
            "release": release_strings(protocol.collect(vdaf, outcome)),
            "report": bad.to_json()}


def h_collect(args: dict[str, Any]) -> dict[str, Any]:
    """The collection's batch outcome rebuilt as BatchOutcome(accepted, rejected, leader share,
    helper share, verdicts[, aggregated]) and unsharded by protocol.collect."""
    _, _, vdaf, res = _reports(args)
    o = res.outcome
    extra = {} if args.get("aggregated") is None else {"aggregated": int_arg(args, "aggregated")}
    outcome = protocol.BatchOutcome(o.accepted, o.rejected, o.leader_share, o.helper_share,
                                    o.verdicts, **extra)
    return {"accepted": outcome.accepted, "aggregated": outcome.aggregated,
            "release": release_strings(protocol.collect(vdaf, outcome))}


def h_token_request(args: dict[str, Any]) -> dict[str, Any]:
    """tokens.request_token for the public key (modulus, exponent): the blinded message and the
    unblinding inverse."""
    pk = tokens.PublicKey(int(args["modulus"], 16), int_arg(args, "exponent"))
    req = tokens.request_token(pk, hex_arg(args, "taskId"),
                               RandomTape(hex_arg(args, "seed"), args["tag"]))
    return {"blindedMsg": req.blinded_msg.hex(), "inv": format(req.inv, "x")}


def h_provision(args: dict[str, Any]) -> dict[str, Any]:
    """protocol.provision(seed, issuerBits): the simulation's keys in drawing order."""
    dep = protocol.provision(hex_arg(args, "seed"), int_arg(args, "issuerBits"))
    return {**deployment_keys(dep),
            "leaderHpkePublicKey": dep.leader_hpke.public_key.hex(),
            "helperHpkePublicKey": dep.helper_hpke.public_key.hex()}


def h_prime_draw(args: dict[str, Any]) -> dict[str, Any]:
    """The prime draw of tokens.generate_key (tokens._random_prime) for ``bits`` bits from the
    tape (seed, tag)."""
    return {"prime": str(tokens._random_prime(int_arg(args, "bits"),
                                              RandomTape(hex_arg(args, "seed"), args["tag"])))}


def h_fl_clip(args: dict[str, Any]) -> dict[str, Any]:
    """GaussianVector(dimension, clipNorm, fractionalBits, noiseVariance): clip (step 1, exact
    rationals) and encode (step 2) of the update."""
    r = fl.GaussianVector(int_arg(args, "dimension"), ideal.exact(args["clipNorm"], "clipNorm"),
                          int_arg(args, "fractionalBits"),
                          ideal.exact(args["noiseVariance"], "noiseVariance"))
    clipped = r.clip(r.check_input(args["update"]))
    return {"clipped": [format_rational(v) for v in clipped],
            "encoded": [str(v) for v in r.encode(clipped)]}


def h_binomial_tail(args: dict[str, Any]) -> dict[str, Any]:
    """privacy.binomial_sf(n, rate, t) = Pr[Bin(n, rate) >= t]."""
    sf = privacy.binomial_sf(int_arg(args, "n"), ideal.exact(args["rate"], "rate"),
                             int_arg(args, "t"))
    return {"sf": privacy.publish(sf, DIGITS)}


def h_sampagg_sigma(args: dict[str, Any]) -> dict[str, Any]:
    """experiments.sampagg_sigma(q, eps, delta, tasks)."""
    sigma = experiments.sampagg_sigma(ideal.exact(args["q"], "q"), ideal.exact(args["eps"], "eps"),
                                      ideal.exact(args["delta"], "delta"), int_arg(args, "tasks"))
    with mpmath.workdps(50):
        return {"sigma": mpmath.nstr(sigma, 15)}


HANDLERS: dict[str, Handler] = {
    "sa2pe.recipe_verdict": h_recipe_verdict,
    "sa2pe.claim": h_claim,
    "sa2pe.split_batch": h_split_batch,
    "sa2pe.collect": h_collect,
    "sa2pe.split_joint_rand": h_split_joint_rand,
    "sa2pe.token_check": h_token_verify,  # the sa2 family's verdicts handler
    "sa2pe.token_request": h_token_request,
    "sa2pe.attest": h_attest,
    "sa2pe.provision": h_provision,
    "sa2pe.prime_draw": h_prime_draw,
    "sa2pe.fl_clip": h_fl_clip,
    "sa2pe.binomial_tail": h_binomial_tail,
    "sa2pe.sampagg_sigma": h_sampagg_sigma,
}

HEADER = [
    "Bounds of the SA2 protocol's checks (Talwar et al., 'Samplable Anonymous Aggregation for"
    " Private Federated Data Analysis', sec. 3, 4.1-4.6, App. A; RFC 8017 and RFC 9474 for the"
    " tokens). Keys, recipes and coins are those of vectors/sa2/protocol_transcripts.json (its"
    " header states them); the keys are the group params where a test runs a collection.",
    "sa2pe.recipe_verdict: the client's structural checks of a recipe (format, VDAF, decoding,"
    " keys); verdict ok or the refusal's reason. A recipe is a JSON object; rounds is an integer"
    " in [1, 100000], and other than 1 only for the gaussian_vector randomizer.",
    "sa2pe.claim: the structure, then the privacy claim: the recipe's accountant's (epsilon,"
    " delta) at 50 digits against the claimed rationals; refused (privacy_claim_not_met) only if"
    " a computed value is strictly above its claim. With B = 1 the aggregator-model epsilon is the"
    " local eps0 rounded up to 12 significant digits (a rational), and q = 1 amplifies nothing.",
    "sa2pe.split_batch: run the collection (samplingRate 1, no loss) and deliver its reports in"
    " sending order to a leader and a helper whose configurations are the recipe's with the"
    " overrides `leader` and `helper` (maxReports: the most reports it may have received and"
    " still release, null for no limit; window [t0, K], null for none) at arrival times"
    " `times`. A report outside either aggregator's window is refused (outside_time_window);"
    " each aggregator releases only within its own limit and with at least B aggregated; the"
    " release is null unless both do.",
    "sa2pe.split_joint_rand: run the collection (samplingRate 1) and insert at `position` of"
    " the sending order a report of `measurement` whose public share carries the true"
    " joint-randomness part of aggregator `deceived` (0 leader, 1 helper) and the other's with"
    " its first byte XOR 1, and whose proofs are built for the wires of the deceived share under"
    " the joint randomness of those parts plus the other share under the true one (token and"
    " coins: tape (seed, 'sa2pe/split'), token for device 'malicious-split', then the report's"
    " coins). With every encoded element 1 the proof passes, the deceived aggregator's"
    " verify_next fails and the other's passes: both refuse it (vdaf_verify_failed, or"
    " helper_vdaf_verify_failed) and neither counts it. Otherwise the proof fails.",
    "sa2pe.collect: run the collection, then unshard the leader's and helper's aggregate shares"
    " with the count `aggregated` (when given) or, when left out, the number of accepted"
    " reports. Prio3BoundedL2VecSum's decoding subtracts aggregated * 2^(bits-1) from each"
    " coordinate.",
    "sa2pe.token_check: the verdicts of sa2.token_verify (vectors/sa2/tokens.json). A signature"
    " whose RSAVP1 value is a valid EMSA-PSS encoding plus 2^emBits (emBits = modBits - 1) sets"
    " the bit above emBits: invalid (RFC 8017 sec. 9.1.2 step 6), though the rest checks out.",
    "sa2pe.token_request: the device's request (sa2.token_issuance): nonce, salt, then r = 1 +"
    " uniform(n - 1) until gcd(r, n) = 1; outputs the blinded message and inv = r^-1 mod n (hex)."
    " For n = 2^k + 1, uniform(n - 1) = uniform(2^k) draws exactly k bits.",
    "sa2pe.attest: the attester (sec. 4.3) of the key (issuerP, issuerQ, exponent). The key id"
    " is SHA-256(I2OSP(n) || I2OSP(e, 4)); I2OSP refuses e < 0 and e >= 2^32, and then every"
    " request is refused.",
    "sa2pe.provision: provision(seed, issuerBits): from the tape (seed, 'sa2/setup') the issuer's"
    " RSA key (each prime: draw issuerBits/2 bits, set the two top bits and the low bit, keep"
    " the first prime p with (p - 1) mod 65537 != 0; q likewise, q != p), the leader's and the"
    " helper's HPKE IKM (32 bytes each) and the verify key (32 bytes); the HPKE public keys are"
    " DeriveKeyPair(IKM).",
    "sa2pe.prime_draw: one prime of provision's issuer key at a small size: draw `bits` bits from"
    " the tape (seed, tag), set the two top bits and the low bit, and keep the first candidate"
    " that is prime with (p - 1) mod 65537 != 0 (a prime p = 1 mod 65537 is skipped: e = 65537"
    " would have no inverse mod p - 1). Decimal output.",
    "sa2pe.fl_clip: the gaussian_vector randomizer's step 1 (S = sum x_i^2; if S > C^2 every"
    " entry is multiplied by C / r with r = ceil(sqrt(S) 2^64) / 2^64, exactly) and step 2"
    " (trunc(x 2^f)).",
    "sa2pe.binomial_tail: Pr[Bin(n, rate) >= t] (the dummy margin's tail, sec. 4.6), rounded up"
    " to 20 significant digits; compare accepts a relative difference of 1e-15.",
    "sa2pe.sampagg_sigma: SampAgg's sigma (sec. 3.1 of the paper's later version;"
    " vectors/sa2-experiments): the smallest sigma to 1e-4 relative, rounded up to 5 digits"
    " (printed to 15 digits); compare accepts a relative difference of 1e-9. The search halves"
    " its lower end while the target holds there and stops once it is below 10^-4, so below"
    " about 10^-4 the result is not the smallest sigma (flag SearchFloor).",
    "Seeds are hex; " + VECTOR_SEED_HEADER[0].lower() + VECTOR_SEED_HEADER[1:] + ".",
]

NOTES = {
    "NotAnObject": "A recipe is a JSON object (malformed otherwise).",
    "Rounds": "rounds must be an integer in [1, 100000] (malformed otherwise).",
    "Tie": "A claim equal to the computed bound holds.",
    "SplitConfig": "The leader and the helper enforce their own configuration.",
    "Default": "BatchOutcome's aggregated defaults to the accepted count.",
    "TopBit": "The bit just above emBits is set.",
    "PowerOfTwo": "n - 1 is a power of two.",
    "LargestBlind": "The first candidate of r = 1 + uniform(n - 1) is n - 2, accepted: r = n - 1.",
    "KeyId": "The exponent does not fit the 4-byte key id.",
    "SkippedPrime": "A prime p with p = 1 mod 65537 is not a valid RSA prime for e = 65537.",
    "FarTail": "The upper tail is far below 1e-30.",
    "BadVerifyKey": "The verify key is not VERIFY_KEY_SIZE bytes long (refused).",
    "SearchFloor": "The search for sigma stops below 10^-4 although a smaller sigma meets eps.",
    "BadBits": "provision needs an even issuerBits >= 1024.",
    "BadUpdate": "An update has exactly `dimension` entries.",
    "BadRate": "SampAgg's sampling rate lies in (0, 1].",
    "BadTokenInput": "The task id and the nonce have 32 bytes each.",
    "OneSided": "Only one aggregator's joint randomness check fails: both refuse the report.",
    "ProofFails": "The crafted proof passes only if every encoded element is 1.",
    "NoJointRand": "Lying about joint randomness needs a Prio3 that uses it (refused).",
    "BadAggregator": "The deceived aggregator is 0 (leader) or 1 (helper) (refused).",
}


def compare_outputs(want: dict[str, Any], got: Any) -> str | None:
    """Exact, except ``sf`` and ``sigma`` (relative REL_TOL[key])."""
    def check(k: str, w: Any, g: Any) -> str | None:
        if k in REL_TOL:
            if not isinstance(g, str):
                return f"{k}: expected a decimal string"
            with mpmath.workdps(50):
                try:
                    a, b = mpmath.mpf(w), mpmath.mpf(g)
                except (ValueError, TypeError):
                    return f"{k}: {g!r} is not a number"
                ok = abs(a - b) <= REL_TOL[k] * abs(a)
            return None if ok else f"{k}: {g!r} does not match {w!r}"
        return None if g == w else f"{k}: expected {w!r}, got {g!r}"

    return compare_keys(want, got, check)


class Sa2ProtocolEdgesFamily(Family):
    name = "sa2-protocol-edges"
    summary = ("SA2 protocol bounds: recipe checks, the claim tie, split aggregator configurations, "
               "token encodings, provisioning, clipping, dummy tails, SampAgg's sigma")

    def handlers(self) -> dict[str, Handler]:
        return dict(HANDLERS)

    def compare(self, case: Case, provided: dict[str, Any]) -> str | None:
        assert case.expected is not None
        return compare_outputs(case.expected, provided)

    def schemas(self) -> dict[str, dict[str, Any]]:
        keys: dict[str, Any] = {"issuerP": HEX, "issuerQ": HEX, "leaderHpkeIkm": HEX,
                                "helperHpkeIkm": HEX, "verifyKey": HEX}
        data: dict[str, Any] = {"type": "array",
                                "items": {"anyOf": [DEC, {"type": "array", "items": RAT}]}}
        run = {**keys, "recipe": {"type": "object"}, "seed": HEX, "data": data}
        verdict: dict[str, Any] = {"type": "object", "required": ["verdict"],
                                   "properties": {"verdict": {"type": "string"}}}
        ops: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
            "sa2pe.recipe_verdict": ({"properties": {"recipe": {}}}, verdict),
            "sa2pe.claim": ({"properties": {"recipe": {"type": "object"}}}, verdict),
            "sa2pe.split_batch": (
                {"properties": {**run, "leader": _TASK, "helper": _TASK,
                                "times": {"anyOf": [{"type": "null"},
                                                    {"type": "array", "items": RAT}]}}},
                {"type": "object",
                 "required": ["verdicts", "accepted", "leaderReleases", "helperReleases",
                              "release"],
                 "properties": {"verdicts": _STRINGS, "accepted": COUNT,
                                "leaderReleases": {"type": "boolean"},
                                "helperReleases": {"type": "boolean"}, "release": _RELEASE}}),
            "sa2pe.split_joint_rand": (
                {"properties": {**run, "deceived": COUNT, "position": COUNT,
                                "measurement": {"anyOf": [DEC, {"type": "array", "items": DEC}]}},
                 "required": ["deceived", "position", "measurement"]},
                {"type": "object",
                 "required": ["verdicts", "accepted", "helperAccepted", "release", "report"],
                 "properties": {"verdicts": _STRINGS, "accepted": COUNT, "helperAccepted": COUNT,
                                "release": _RELEASE, "report": {"type": "object"}}}),
            "sa2pe.collect": (
                {"properties": {**run, "aggregated": {"anyOf": [{"type": "null"}, COUNT]}}},
                {"type": "object", "required": ["accepted", "aggregated", "release"],
                 "properties": {"accepted": COUNT, "aggregated": {"type": "integer"},
                                "release": _RELEASE}}),
            "sa2pe.token_check": (
                {"properties": {"modulus": {"type": "string", "pattern": "^[0-9a-f]+$"},
                                "exponent": DEC, "taskId": HEX,
                                "tokens": {"type": "array", "items": HEX}}},
                {"type": "object", "required": ["verdicts"],
                 "properties": {"verdicts": _STRINGS}}),
            "sa2pe.token_request": (
                {"properties": {"modulus": {"type": "string", "pattern": "^[0-9a-f]+$"},
                                "exponent": DEC, "taskId": HEX, "seed": HEX,
                                "tag": {"type": "string"}}},
                {"type": "object", "required": ["blindedMsg", "inv"],
                 "properties": {"blindedMsg": HEX,
                                "inv": {"type": "string", "pattern": "^[0-9a-f]+$"}}}),
            "sa2pe.attest": (
                {"properties": {"issuerP": HEX, "issuerQ": HEX,
                                "exponent": {"type": "string", "pattern": "^-?[0-9]+$"},
                                "blindedMsg": HEX,
                                "requests": {"type": "array", "items": {
                                    "type": "array", "prefixItems": [{"type": "string"}, HEX],
                                    "minItems": 2, "maxItems": 2}}}},
                {"type": "object", "required": ["results", "issued"],
                 "properties": {"results": {"type": "array", "items": {
                     "enum": ["issued", "refused"]}}, "issued": COUNT}}),
            "sa2pe.provision": (
                {"properties": {"seed": HEX, "issuerBits": COUNT}},
                {"type": "object",
                 "required": [*keys, "leaderHpkePublicKey", "helperHpkePublicKey"],
                 "properties": {**keys, "leaderHpkePublicKey": HEX,
                                "helperHpkePublicKey": HEX}}),
            "sa2pe.prime_draw": (
                {"properties": {"seed": HEX, "tag": {"type": "string"}, "bits": COUNT}},
                {"type": "object", "required": ["prime"], "properties": {"prime": DEC}}),
            "sa2pe.fl_clip": (
                {"properties": {"dimension": COUNT, "clipNorm": RAT, "fractionalBits": COUNT,
                                "noiseVariance": RAT, "update": {"type": "array", "items": RAT}}},
                {"type": "object", "required": ["clipped", "encoded"],
                 "properties": {"clipped": {"type": "array", "items": RAT},
                                "encoded": {"type": "array", "items": DEC}}}),
            "sa2pe.binomial_tail": (
                {"properties": {"n": COUNT, "rate": RAT, "t": {"type": "integer"}}},
                {"type": "object", "required": ["sf"], "properties": {"sf": {"type": "string"}}}),
            "sa2pe.sampagg_sigma": (
                {"properties": {"q": RAT, "eps": RAT, "delta": RAT, "tasks": COUNT}},
                {"type": "object", "required": ["sigma"],
                 "properties": {"sigma": {"type": "string"}}}),
        }
        return {SCHEMA: family_schema(SCHEMA, "SA2 protocol bound vectors", ops)}

    def files(self) -> list[VectorFile]:
        return [self.vector_file(
            "sa2-protocol-edges/protocol_bounds.json", algorithm="SA2-protocol-bounds",
            schema=SCHEMA, header=HEADER, notes=NOTES, groups=_groups())]


def _label(text: str) -> bytes:
    return vector_seed(f"sa2-protocol-edges/{text}")


def _groups() -> list[dict[str, Any]]:
    dep = vector_deployment()
    keys = deployment_keys(dep)

    def recipe(r: protocol.AnyRandomizer, B: int, q: str, dummy: str = "0", **over: Any
               ) -> dict[str, Any]:
        return vector_recipe(dep, r, B, q, dummy, **over)

    rr = Randomizer("randomized_response", 4, Fraction(1, 2))
    gauss = fl.GaussianVector(2, Fraction(1), 4, Fraction(1, 10))
    groups = Groups(HANDLERS)

    fl_doc = recipe(gauss, 2, "1")
    groups.add("sa2pe.recipe_verdict", [
        ("a number, not a JSON object", {"recipe": 7}, ["NotAnObject"]),
        ("null, not a JSON object", {"recipe": None}, ["NotAnObject"]),
        ("a list, not a JSON object", {"recipe": []}, ["NotAnObject"]),
        *[(f"a gaussian_vector recipe with rounds = {n}", {"recipe": {**fl_doc, "rounds": n}},
           ["Rounds"])
          for n in (0, 1, protocol.MAX_ROUNDS, protocol.MAX_ROUNDS + 1)],
        ("a randomized-response recipe with rounds = 0", {"recipe": {**recipe(rr, 2, "1"),
                                                                    "rounds": 0}}, ["Rounds"]),
    ])

    # B = 1, q = 1: the statement is eps0 rounded up to 12 digits (eps0_up), exactly
    brr = Randomizer("binary_randomized_response", 2, Fraction(1, 10))
    tie = privacy.eps0_up(brr.epsilon0())
    below = tie - Fraction(1, 10**12)
    groups.add("sa2pe.claim", [
        (f"binary randomized response, B = 1, q = 1: a claim of exactly eps0 rounded up ({tie})",
         {"recipe": recipe(brr, 1, "1", epsilon=tie, delta=Fraction(1, 10**6))}, ["Tie"]),
        (f"the same with a claim 1e-12 lower ({below})",
         {"recipe": recipe(brr, 1, "1", epsilon=below, delta=Fraction(1, 10**6))}, ["Tie"]),
    ])

    run = {"recipe": recipe(rr, 2, "1"), "seed": _label("split").hex(),
           "data": ["0", "1", "2", "3"]}
    groups.add("sa2pe.split_batch", [
        ("leader window [0, 3], helper window [0, 1]; arrivals 0, 1, 2, 3: the last two are "
         "refused by the helper alone", {**run, "leader": {"window": ["0", "3"]},
                                          "helper": {"window": ["0", "1"]},
                                          "times": ["0", "1", "2", "3"]}, ["SplitConfig"]),
        ("leader window [0, 1], helper without a window; arrivals 0, 1, 2, 3",
         {**run, "leader": {"window": ["0", "1"]}, "helper": {"window": None},
          "times": ["0", "1", "2", "3"]}, ["SplitConfig"]),
        ("4 reports; the helper releases at most 3 received (rate limit), the leader has no "
         "limit: the leader releases, the helper does not, no result",
         {**run, "helper": {"maxReports": 3}}, ["SplitConfig"]),
        ("4 reports; the leader's limit is 3, the helper's 4: no result",
         {**run, "leader": {"maxReports": 3}, "helper": {"maxReports": 4}}, ["SplitConfig"]),
        ("4 reports; both limits 4: released", {**run, "leader": {"maxReports": 4},
                                               "helper": {"maxReports": 4}}),
    ], params=keys)

    def upd(label: str, n: int) -> list[list[str]]:
        t = RandomTape(_label(label), "vectors/sa2/updates")
        return [[format_rational(Fraction(t.uniform(65) - 32, 64)) for _ in range(2)]
                for _ in range(n)]

    g_run = {"recipe": recipe(gauss, 2, "1"), "seed": _label("collect").hex(),
             "data": upd("collect", 3)}
    groups.add("sa2pe.collect", [
        ("Gaussian vector d = 2, 3 reports, aggregated left out (the accepted count)",
         g_run, ["Default"]),
        ("the same, aggregated = 3 given", {**g_run, "aggregated": 3}),
        ("the same, aggregated = 0 given: nothing subtracted", {**g_run, "aggregated": 0},
         ["Default"]),
        ("the same, aggregated = 1 given", {**g_run, "aggregated": 1}),
    ], params=keys)

    _token_groups(groups, dep)

    groups.add("sa2pe.provision", [
        (f"issuer of {bits} bits, seed '{label}'",
         {"seed": _label(label).hex(), "issuerBits": bits})
        for label, bits in [("provision/0", 1024)]
    ], [
        (f"issuerBits = {bits}", {"seed": _label("provision/0").hex(), "issuerBits": bits},
         "BadBits") for bits in (1022, 1023)
    ])

    groups.add("sa2pe.prime_draw", [
        ("20 bits: the first prime drawn is 917519 = 14 * 65537 + 1, skipped",
         {"seed": _label("prime/9428").hex(), "bits": 20}, ["SkippedPrime"]),
        ("20 bits: the first prime drawn is kept", {"seed": _label("prime/0").hex(), "bits": 20}),
    ], params={"tag": "sa2/setup"})

    groups.add("sa2pe.fl_clip", [
        ("d = 2, C = 1, update (1, 1): S = 2 > 1, r = ceil(sqrt(2) 2^64) / 2^64",
         {"dimension": 2, "clipNorm": "1", "fractionalBits": 4, "noiseVariance": "1/10",
          "update": ["1", "1"]}),
        ("d = 3, C = 1/3, update (1/2, -1/3, 1/5): clipped",
         {"dimension": 3, "clipNorm": "1/3", "fractionalBits": 8, "noiseVariance": "1/10",
          "update": ["1/2", "-1/3", "1/5"]}),
        ("d = 2, C = 5, update (3, 4): S = 25 = C^2, kept",
         {"dimension": 2, "clipNorm": "5", "fractionalBits": 2, "noiseVariance": "1/10",
          "update": ["3", "4"]}),
    ], [
        ("d = 2, an update of 3 entries", {"dimension": 2, "clipNorm": "1", "fractionalBits": 4,
                                           "noiseVariance": "1/10", "update": ["1", "1", "1"]},
         "BadUpdate"),
    ])

    groups.add("sa2pe.binomial_tail", [
        ("n = 100, rate 1/10, t = 90: about 6e-78", {"n": 100, "rate": "1/10", "t": 90},
         ["FarTail"]),
        ("n = 1000, rate 1/2, t = 900", {"n": 1000, "rate": "1/2", "t": 900}, ["FarTail"]),
        ("n = 200, rate 1/3, t = 150", {"n": 200, "rate": "1/3", "t": 150}, ["FarTail"]),
    ])

    groups.add("sa2pe.sampagg_sigma", [
        ("q = 1/2, eps = 40, delta = 1e-5, one task: sigma below 1/4",
         {"q": "1/2", "eps": "40", "delta": "1/100000", "tasks": 1}),
    ], [
        (f"q = {q}", {"q": q, "eps": "40", "delta": "1/100000", "tasks": 1}, "BadRate")
        for q in ("0", "3/2")
    ])

    groups.add("sa2pe.token_request", [
        (f"n = c + 2 for the first {bits}-bit candidate c of r's draw (odd, top bit set): "
         "uniform(n - 1) accepts c = n - 2, so r = n - 1, the largest value r can take",
         {"modulus": format(n, "x"), "exponent": "65537", "seed": seed.hex(),
          "taskId": vector_seed("sa2/task").hex()}, ["LargestBlind"])
        for bits in (2048, 1024)
        for seed, n in [_largest_blind(bits)]
    ], params={"tag": "sa2/client/0/token"})
    # appended (earlier tcIds unchanged): an aggregator provisioned with a short verify key
    groups.add("sa2pe.split_batch", [], [
        ("the deployment's verify key has 31 bytes (Prio3 needs 32): the aggregators refuse it",
         {**run}, "BadVerifyKey"),
    ], params={**keys, "verifyKey": keys["verifyKey"][:62]})
    # appended (earlier tcIds unchanged): the halving of the lower end stops below 10^-4
    groups.add("sa2pe.sampagg_sigma", [
        ("q = 1/2, eps = 10^9, delta = 1e-5, one task: sigma = 2^-14 (about 6.1e-5) still meets "
         "eps, but the halving stops once the lower end is below 10^-4, so the search ends just "
         "above 2^-14 (the smallest sigma, about 2.2e-5, is not looked for)",
         {"q": "1/2", "eps": "1000000000", "delta": "1/100000", "tasks": 1}, ["SearchFloor"]),
    ])
    # appended (earlier tcIds unchanged): a report only one aggregator's verify_next refuses
    rappor = Randomizer("rappor", 2, Fraction(1, 4))  # max_weight 2: [1, 1] is valid
    split_data = ["0", "1", "1"]
    split = {"recipe": recipe(rappor, 3, "1"), "seed": _label("split-joint-rand").hex(),
             "data": split_data}
    groups.add("sa2pe.split_joint_rand", [
        ("RAPPOR k = 2 (max weight 2), B = 3: measurement [1, 1] lying to the leader, sent "
         "second: the proof passes, the leader's joint randomness check fails, the helper's "
         "passes; refused by both, the three honest reports are released",
         {**split, "deceived": 0, "position": 1, "measurement": ["1", "1"]}, ["OneSided"]),
        ("the same lying to the helper, sent last",
         {**split, "deceived": 1, "position": 3, "measurement": ["1", "1"]}, ["OneSided"]),
        ("the same lying to the leader, sent first, with only two honest reports: no release",
         {**split, "data": split_data[:2], "deceived": 0, "position": 0,
          "measurement": ["1", "1"]}, ["OneSided"]),
        ("measurement [0, 1]: a 0 element makes the hybrid proof fail (the proof check refuses)",
         {**split, "deceived": 1, "position": 1, "measurement": ["0", "1"]}, ["ProofFails"]),
        ("the Gaussian vector randomizer (Prio3BoundedL2VecSum, two gadgets), update [0, 0]: "
         "its bits are not all 1, so the proof fails",
         {**split, "recipe": recipe(gauss, 3, "1"), "data": upd("split", 3), "deceived": 0,
          "position": 2, "measurement": ["0", "0"]}, ["ProofFails"]),
    ], [
        ("binary randomized response (Prio3Count: no joint randomness to lie about)",
         {**split, "recipe": recipe(Randomizer("binary_randomized_response", 2,
                                               Fraction(1, 10)), 3, "1"),
          "data": ["0", "1", "1"], "deceived": 0, "position": 0, "measurement": "1"}, "NoJointRand"),
        ("deceived = 2: there are two aggregators",
         {**split, "deceived": 2, "position": 0, "measurement": ["1", "1"]}, "BadAggregator"),
    ], params=keys)
    return groups.groups


#: the seed index i of :func:`_largest_blind` per modulus size (the first that qualifies)
LARGEST_BLIND_SEED = {2048: 6630, 1024: 38}


def _largest_blind(bits: int) -> tuple[bytes, int]:
    """Seed ``request/largest/{bits}/{i}`` (``i`` from :data:`LARGEST_BLIND_SEED`), whose request
    tape (tag ``sa2/client/0/token``), after the nonce and salt (80 x ``uniform(256)``, 8 bits
    each), offers a ``bits``-bit candidate ``c`` with its top bit set and ``n = c + 2`` prime (so
    that every encoded message is invertible mod ``n``), and that modulus:
    ``r = 1 + uniform(n - 1)`` then draws ``c`` itself on its first try."""
    seed = _label(f"request/largest/{bits}/{LARGEST_BLIND_SEED[bits]}")
    tape = RandomTape(seed, "sa2/client/0/token")
    tape.bits(8 * (tokens.NONCE_LEN + tokens.SALT_LEN))
    c = tape.bits(bits)
    if not (c >> (bits - 1) and (c + 2).bit_length() == bits and sympy.isprime(c + 2)):
        raise AssertionError(f"seed index {LARGEST_BLIND_SEED[bits]} does not qualify")
    return seed, c + 2


def _token_groups(groups: Groups, dep: protocol.Deployment) -> None:
    sk = dep.issuer_sk
    pk = sk.public_key()
    task = vector_seed("sa2/task")
    tin = tokens.token_input(task, _label("nonce"))
    em_bits = pk.n.bit_length() - 1
    # the first salt (48 x uniform(256) from the tape) whose encoding m leaves m + 2^emBits < n
    tape = RandomTape(_label("salt"), "sa2-protocol-edges/salt")
    while True:
        salt = bytes(tape.uniform(256) for _ in range(tokens.SALT_LEN))
        m = tokens.os2ip(tokens.emsa_pss_encode(tin, em_bits, salt))
        if m + (1 << em_bits) < pk.n:
            break

    def signed(rep: int) -> str:
        return (tin + tokens.i2osp(tokens.rsasp1(sk, rep), pk.modulus_len)).hex()

    groups.add("sa2pe.token_check", [
        ("a valid token, then its encoding with the bit 2^emBits added (signed again)",
         {"tokens": [signed(m), signed(m + (1 << em_bits))]}, ["TopBit"]),
    ], params={"modulus": format(pk.n, "x"), "exponent": str(pk.e), "taskId": task.hex()})

    groups.add("sa2pe.token_request", [
        (f"n = 2^{k} + 1, e = 65537", {"modulus": format((1 << k) + 1, "x"), "exponent": "65537",
                                       "seed": _label(f"request/{k}").hex(),
                                       "taskId": task.hex()}, ["PowerOfTwo"])
        for k in (2048, 1024)
    ], [
        ("a task id of 31 bytes", {"modulus": format((1 << 2048) + 1, "x"), "exponent": "65537",
                                   "seed": _label("request/2048").hex(),
                                   "taskId": task[:31].hex()}, "BadTokenInput"),
    ], params={"tag": "sa2/client/0/token"})

    own = {"issuerP": format(sk.p, "x"), "issuerQ": format(sk.q, "x"),
           "blindedMsg": tokens.i2osp(2, pk.modulus_len).hex()}
    groups.add("sa2pe.attest", [
        (f"exponent {e}: {what}",
         {**own, "exponent": str(e),
          "requests": [["a", tokens.PublicKey(pk.n, 65537).key_id().hex()]]}, ["KeyId"])
        for e, what in [(2**32, "2^32, one more than 4 bytes hold"),
                        (2**32 + 1, "2^32 + 1"),
                        (-1, "negative")]
    ])


FAMILY = Sa2ProtocolEdgesFamily()
