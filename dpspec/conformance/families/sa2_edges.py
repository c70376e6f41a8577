"""Vector family ``sa2-edges``: the SA2 protocol's less travelled paths (dpspec.spec.sa2.protocol).

One file, ``sa2-edges/protocol_edges.json``:

* ``sa2e.collection_counts``: a whole collection's counters (participants, dummies, RAPPOR
  reports over ``max_weight`` that are not uploaded, reports sent and dropped) and verdicts;
  binary randomized response with ``B = 1`` and every malicious kind (the inflated count ``B``,
  the AAD sealed with ``B + 1``).
* ``sa2e.tampered_batch``: the aggregators' refusals of altered reports (short nonce, malformed
  token, a helper ciphertext that does not open, an input share that does not decode) and of
  arrival times that do not fit the reports.
* ``sa2e.budget``: the on-device accountant (``PrivacyBudget.admit``) over a sequence of recipes:
  budget and query limits, the rounds of a federated-learning task.
* ``sa2e.rounds``: several rounds of a federated-learning task (``run_rounds``, ``round_seed``).
* ``sa2e.guarantee``: the SA2-model, aggregator-model and released-count statements of a recipe
  (fixed-size sampling, dummy reports, the federated-learning path), as a device prints them.
* ``sa2e.ideal_release``: the ideal functionality's release for a recipe's ``Dec`` (the sum
  Prio3 computes), and ``build_vdaf``'s refusal of an unknown VDAF.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import mpmath

from dpspec.conformance.families._groups import Groups, compare_keys
from dpspec.conformance.families.sa2 import (
    deployment_from_args,
    deployment_keys,
    h_token_verify,
    vector_deployment,
    vector_recipe,
)
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
from dpspec.spec.sa2 import fl, hpke, ideal, periodic, privacy, protocol, tokens
from dpspec.spec.sa2.randomizers import Randomizer
from dpspec.spec.tape import RandomTape

SCHEMA = "sa2_edges-v1.json"
#: significant digits of the published epsilon and delta (rounded up, privacy.publish)
DIGITS = 12
#: relative tolerance of compare on the published reals (mpmath at 50 digits; the shuffle
#: accountants' bounds are binary64 numerics, as in sa2-privacy)
REL_TOL = mpmath.mpf("1e-6")
REALS = frozenset({"epsilon", "delta"})

_STRINGS: dict[str, Any] = {"type": "array", "items": {"type": "string"}}
_COUNTS: dict[str, Any] = {"type": "object", "additionalProperties": COUNT}
_RELEASE: dict[str, Any] = {"anyOf": [{"type": "null"}, {"type": "array", "items": DEC}]}


def _data(args: dict[str, Any]) -> list[Any]:
    return [x if isinstance(x, list) else parse_int(x, "data") for x in args["data"]]


def release_strings(value: tuple[int, ...] | None) -> list[str] | None:
    return None if value is None else [str(x) for x in value]


# -- reference handlers ----------------------------------------------------------------------------
def h_counts(args: dict[str, Any]) -> dict[str, Any]:
    """One collection (dpspec.spec.sa2.protocol.run_collection), its counters and verdicts."""
    dep = deployment_from_args(args)
    recipe = protocol.check_recipe_structure(args["recipe"])
    vdaf = protocol.build_vdaf(recipe)
    res = protocol.run_collection(recipe, dep, vdaf, _data(args), hex_arg(args, "seed"),
                                  malicious=int_arg(args, "malicious"),
                                  drop_rate=ideal.parse_rate(args.get("dropRate", "0"), "dropRate"))
    return {"participants": res.participants, "dummies": res.dummies,
            "overweight": res.overweight, "sent": res.sent, "dropped": res.dropped,
            "tokensIssued": res.tokens_issued, "verdicts": res.outcome.verdicts,
            "rejected": dict(sorted(res.outcome.rejected.items())),
            "release": release_strings(res.release)}


def _tamper(rep: protocol.Report, kind: str, recipe: protocol.Recipe) -> protocol.Report:
    if kind == "none":
        return rep
    if kind == "short_nonce":
        return dataclasses.replace(rep, nonce=rep.nonce[:-1])
    if kind == "short_token":
        return dataclasses.replace(rep, token=rep.token[:-1])
    if kind == "helper_ciphertext":
        flipped = bytes([rep.helper_ct[0] ^ 1]) + rep.helper_ct[1:]
        return dataclasses.replace(rep, helper_ct=flipped)
    if kind == "undecodable_share":
        # the leader's share re-sealed (same AAD, ephemeral IKM 32 zero bytes) as a single zero
        # byte, which is no encoded input share
        aad = protocol.hpke_aad(recipe.task_id, recipe.B, rep.nonce, rep.public_share, rep.token)
        enc, ct = hpke.seal(recipe.leader.hpke_public_key, protocol.hpke_info(protocol.ROLE_LEADER),
                            aad, b"\x00", ephemeral_ikm=bytes(32))
        return dataclasses.replace(rep, leader_enc=enc, leader_ct=ct)
    raise ValueError(f"unknown tamper {kind!r}")


def _tampered_outcome(args: dict[str, Any]) -> tuple[protocol.BatchOutcome, Any]:
    """The batch outcome of :func:`h_tampered` and the VDAF."""
    dep = deployment_from_args(args)
    recipe = protocol.check_recipe_structure(args["recipe"])
    vdaf = protocol.build_vdaf(recipe)
    # the collection's own delivery (not output) gives a time-bounded task the time t0 for all
    arrival = (None if recipe.window is None
               else protocol.evenly_spaced(recipe.window[0], Fraction(0)))
    res = protocol.run_collection(recipe, dep, vdaf, _data(args), hex_arg(args, "seed"),
                                  arrival=arrival)
    kinds = args["tamper"]
    if len(kinds) != len(res.reports):
        raise ValueError("one tamper kind per report")
    reports = [_tamper(r, k, recipe) for r, k in zip(res.reports, kinds, strict=True)]
    leader = protocol.Aggregator(protocol.ROLE_LEADER, recipe.task_config(dep.verify_key),
                                 dep.leader_hpke.private_key, vdaf)
    helper = protocol.Aggregator(protocol.ROLE_HELPER, recipe.task_config(dep.verify_key),
                                 dep.helper_hpke.private_key, vdaf)
    times = None if args.get("times") is None else [ideal.exact(t, "times") for t in args["times"]]
    if args.get("period") is None:
        outcome = protocol.aggregate_batch(leader, helper, reports, times=times)
    else:
        outcome = periodic.aggregate_in_periods(leader, helper, reports,
                                                int_arg(args, "period"), times=times)
    return outcome, vdaf


def h_tampered(args: dict[str, Any]) -> dict[str, Any]:
    """Honest reports (every device selected, nothing dropped), the i-th altered by
    ``tamper[i]``, delivered in sending order to fresh aggregators (aggregate_batch)."""
    outcome, vdaf = _tampered_outcome(args)
    return {"verdicts": outcome.verdicts, "accepted": outcome.accepted,
            "rejected": dict(sorted(outcome.rejected.items())),
            "release": release_strings(protocol.collect(vdaf, outcome))}


def h_aggregator_release(args: dict[str, Any]) -> dict[str, Any]:
    """The batch of :func:`h_tampered`; whether each aggregator releases its aggregate share
    (each enforces B, the fixed-size pool and the rate limit by itself)."""
    outcome, _ = _tampered_outcome(args)
    return {"leaderReleases": outcome.leader_share is not None,
            "helperReleases": outcome.helper_share is not None}


def _budget_steps(args: dict[str, Any], recipes: list[Any],
                  admit: Callable[[protocol.PrivacyBudget, Any], Any]) -> dict[str, Any]:
    """One PrivacyBudget(epsilonAllowed, queriesAllowed); ``admit(budget, recipe)`` on each recipe
    in turn, each step's verdict (``admitted`` or the RecipeRefused reason) with the budget's
    epsilon and queries used after it."""
    budget = protocol.PrivacyBudget(ideal.exact(args["epsilonAllowed"], "epsilonAllowed"),
                                    int_arg(args, "queriesAllowed"))
    steps = []
    for recipe in recipes:
        try:
            admit(budget, recipe)
            verdict = "admitted"
        except protocol.RecipeRefused as exc:
            verdict = exc.reason
        steps.append({"verdict": verdict, "epsilonUsed": format_rational(budget.epsilon_used),
                      "queriesUsed": budget.queries_used})
    return {"steps": steps}


def h_budget(args: dict[str, Any]) -> dict[str, Any]:
    """PrivacyBudget.admit on each recipe in turn (a recipe of a bad structure refuses the case)."""
    recipes = [protocol.check_recipe_structure(doc) for doc in args["recipes"]]
    return _budget_steps(args, recipes, lambda budget, recipe: budget.admit(recipe))


def h_rounds(args: dict[str, Any]) -> dict[str, Any]:
    """run_rounds: ``updates[r]`` are the devices' updates in round r, ``budgets`` their
    accountants (epsilonAllowed, queriesAllowed)."""
    dep = deployment_from_args(args)
    recipe = protocol.check_recipe_structure(args["recipe"])
    vdaf = protocol.build_vdaf(recipe)
    budgets = [protocol.PrivacyBudget(ideal.exact(b[0], "budgets"), parse_int(b[1], "budgets"))
               for b in args["budgets"]]
    updates = args["updates"]
    seed = hex_arg(args, "seed")
    out = protocol.run_rounds(recipe, dep, vdaf, lambda r: updates[r], seed, len(updates),
                              budgets)
    return {"rounds": [
        {"round": rr.round, "roundSeed": protocol.round_seed(seed, rr.round).hex(),
         "admitted": rr.admitted, "refused": dict(sorted(rr.refused.items())),
         "verdicts": None if rr.result is None else rr.result.outcome.verdicts,
         "release": None if rr.result is None else release_strings(rr.result.release)}
        for rr in out]}


def _statement(st: privacy.PrivacyStatement | None) -> dict[str, Any] | None:
    if st is None:
        return None
    out: dict[str, Any] = st.as_strings(DIGITS)
    del out["derivation"]  # prose (with 6-digit numbers): not compared
    return out


def h_guarantee(args: dict[str, Any]) -> dict[str, Any]:
    """A recipe's statements: SA2 model (guarantee), aggregator model, released count."""
    recipe = protocol.check_recipe_structure(args["recipe"])
    return {"sa2": _statement(protocol.guarantee(recipe)),
            "aggregator": _statement(protocol.aggregator_guarantee(recipe)),
            "count": _statement(protocol.count_guarantee(recipe))}


def h_ideal_release(args: dict[str, Any]) -> dict[str, Any]:
    """A_B^Dec (ideal.aggregate) of the measurements with the recipe's Dec and sum
    (protocol.ideal_aggregation) on a recipe document read by parse_recipe."""
    recipe = protocol.parse_recipe(args["recipe"])
    vdaf = protocol.build_vdaf(recipe)
    agg = protocol.ideal_aggregation(recipe, vdaf)
    meas = [m if isinstance(m, list) else parse_int(m, "measurements")
            for m in args["measurements"]]
    return {"release": release_strings(ideal.aggregate(meas, recipe.B, agg))}


def h_check_recipe(args: dict[str, Any]) -> dict[str, Any]:
    """protocol.check_recipe (structure, privacy claim, then the budget's charge) on each recipe
    in turn with one PrivacyBudget(epsilonAllowed, queriesAllowed)."""
    return _budget_steps(args, args["recipes"], lambda budget, doc: protocol.check_recipe(doc, budget))


def h_malicious(args: dict[str, Any]) -> dict[str, Any]:
    """protocol.malicious_reports(j, kind, ...) with a fresh attester of the issuer key: the
    reports of malicious device j as uploaded."""
    dep = deployment_from_args(args)
    recipe = protocol.check_recipe_structure(args["recipe"])
    vdaf = protocol.build_vdaf(recipe)
    attester = tokens.Attester(tokens.Issuer(dep.issuer_sk))
    reports = protocol.malicious_reports(int_arg(args, "j"), args["kind"], recipe, vdaf, attester,
                                         hex_arg(args, "seed"))
    return {"reports": [r.to_json() for r in reports]}


def _private_key(args: dict[str, Any]) -> tokens.PrivateKey:
    """The key (issuerP, issuerQ) in hex, with the public exponent ``exponent`` if given."""
    e = {"e": int(args["exponent"])} if "exponent" in args else {}
    return tokens.PrivateKey(int(args["issuerP"], 16), int(args["issuerQ"], 16), **e)


def h_token_request(args: dict[str, Any]) -> dict[str, Any]:
    """A whole issuance with the key (issuerP, issuerQ), which need not be a proper RSA key:
    request_token (coins from the tape), blind_sign, finish_token."""
    sk = _private_key(args)
    pk = sk.public_key()
    req = tokens.request_token(pk, hex_arg(args, "taskId"),
                               RandomTape(hex_arg(args, "seed"), args["tag"]))
    blind_sig = tokens.blind_sign(sk, req.blinded_msg)
    token = tokens.finish_token(pk, req, blind_sig)
    return {"blindedMsg": req.blinded_msg.hex(), "blindSig": blind_sig.hex(),
            "token": token.encode().hex()}


def h_attest(args: dict[str, Any]) -> dict[str, Any]:
    """The attester's rate limit (sec. 4.3): each request [deviceId, keyId] for a blinded
    message is issued or refused; one token per device and issuance key (the key of
    :func:`_private_key`)."""
    attester = tokens.Attester(tokens.Issuer(_private_key(args)))
    blinded = hex_arg(args, "blindedMsg")
    results = []
    for device, key_id in args["requests"]:
        try:
            attester.request(device, bytes.fromhex(key_id), blinded)
            results.append("issued")
        except tokens.TokenError:
            results.append("refused")
    return {"results": results, "issued": attester.issuer.issued}


HANDLERS: dict[str, Handler] = {
    "sa2e.collection_counts": h_counts,
    "sa2e.tampered_batch": h_tampered,
    "sa2e.budget": h_budget,
    "sa2e.rounds": h_rounds,
    "sa2e.guarantee": h_guarantee,
    "sa2e.ideal_release": h_ideal_release,
    "sa2e.token_request": h_token_request,
    "sa2e.token_check": h_token_verify,  # the sa2 family's verdicts handler
    "sa2e.attest": h_attest,
    "sa2e.check_recipe": h_check_recipe,
    "sa2e.malicious_reports": h_malicious,
    "sa2e.aggregator_release": h_aggregator_release,
}

HEADER = [
    "Less travelled paths of the SA2 protocol (module dpspec.spec.sa2.protocol; Talwar et al.,"
    " 'Samplable Anonymous Aggregation for Private Federated Data Analysis', sec. 3, 4.3-4.6,"
    " Example 5). Keys, recipes, coins and encodings are those of vectors/sa2/"
    "protocol_transcripts.json (its header states them); the keys are this file's group params.",
    "sa2e.collection_counts: run one collection as in sa2/protocol_transcripts.json (no network"
    " loss) and output its counters: participants (devices whose participation coin is 1),"
    " dummies, overweight (RAPPOR reports heavier than the recipe's maxWeight: not uploaded,"
    " sec. 4.5), sent, dropped, tokensIssued, the verdicts in arrival order, the rejections by"
    " reason and the release. `dropRate` (default 0) is the anonymizer's loss rate: one"
    " bernoulli(dropRate) coin per sent report from the tape sa2/network, 1 = lost.",
    "sa2e.tampered_batch: run the collection with samplingRate 1 and no network loss; take its"
    " reports in sending order, alter report i by tamper[i] (none; short_nonce: drop the nonce's"
    " last byte; short_token: drop the token's last byte; helper_ciphertext: flip bit 0 of the"
    " helper ciphertext's first byte; undecodable_share: re-seal the leader share as the single"
    " byte 00 with the report's AAD and ephemeral IKM 32 zero bytes) and deliver them in that"
    " order to a fresh leader and helper. Each aggregator's checks, in order: nonce length"
    " (malformed), token decoding (token_malformed), token verification, HPKE open"
    " (decrypt_failed), share decoding (decode_failed), Prio3 verification; a helper refusal is"
    " reported as helper_<reason>. `times`, when given, are the arrival times (one per report,"
    " non-decreasing: else invalid); a time-bounded task without them is invalid. `period`,"
    " when given, makes the aggregators work in periods of that many reports"
    " (dpspec.spec.sa2.periodic.aggregate_in_periods), which changes no verdict or release.",
    "sa2e.budget: the device's accountant ([PFS] sec. 4.3, basic composition) with"
    " epsilonAllowed and queriesAllowed admits each recipe in turn: a single-round recipe is"
    " charged its epsilon and one query (budget_exhausted if either limit would be passed);"
    " a federated-learning recipe is charged at its task's first round only, and a round past"
    " its `rounds` is refused (rounds_exhausted). Nothing is charged on a refusal.",
    "sa2e.rounds: round r = 0, 1, ... of a federated-learning task: each device's accountant"
    " (budgets[i] = [epsilonAllowed, queriesAllowed]) admits the round or refuses it; the"
    " admitted devices' updates (updates[r], in device order) run one collection with"
    " roundSeed = 32 x uniform(256) from the tape (seed, 'sa2/fl/round/{r}'); no collection"
    " (verdicts and release null) when nobody is admitted.",
    "sa2e.guarantee: the recipe's SA2-model statement (Theorem 3: Poisson amplification at q;"
    " fixed-size: sampling B of population; the federated-learning path: all rounds), its"
    " aggregator-model statement, and the released count's statement (sec. 4.6; null without"
    " dummy reports), each with epsilon and delta rounded UP to 12 significant digits ('inf':"
    " no guarantee), bound and, if the requested bound did not apply, fallback (the reason)."
    " compare accepts epsilon and delta within relative 1e-6 (the shuffle bounds are binary64"
    " numerics), the rest exactly.",
    "sa2e.ideal_release: A_B^Dec of the measurements (randomizer outputs: a bucket for"
    " randomized response, a bit for binary randomized response, a 0/1 vector for RAPPOR, an"
    " encoded integer vector for the Gaussian vector randomizer) with the recipe's Dec and the"
    " sum Prio3 computes (modulo the VDAF's field prime, except the signed Gaussian sum).",
    "sa2e.token_request: the issuance of vectors/sa2/tokens.json (sa2.token_issuance) with the"
    " key (issuerP, issuerQ, e = 65537), which need not be a sound RSA key; outputs blindedMsg,"
    " blindSig and the token. Refusals: EMSA-PSS encoding error, token input lengths, BlindSign's"
    " signing failure (RFC 9474 sec. 4.2, 4.3).",
    "sa2e.token_check: the checks of sa2.token_verify (vectors/sa2/tokens.json) on crafted tokens:"
    " a wrong prefix, a signature s >= n, RSAVP1 values whose EMSA-PSS encoding does not end in"
    " 0xbc, has bits set above emBits = modBits - 1 or a DB not of the form 00..00 01 salt,"
    " and (modulus of 8j + 1 bits, emLen = modulus length - 1) an RSAVP1 value >= 256^emLen"
    " (RFC 8017 sec. 8.1.2 step 2c, 9.1.2).",
    "sa2e.attest: the attester of sec. 4.3 issues one token per (deviceId, keyId); keyId is"
    " SHA-256(I2OSP(n) || I2OSP(e, 4)) of the issuance key; a request for another key or a second"
    " one of a device is refused; `issued` counts the issuer's signatures.",
    "sa2e.check_recipe: the client's checks of a recipe (check_recipe: the structure, the privacy"
    " claim by the recipe's accountant, then the budget's charge as in sa2e.budget) on each"
    " recipe in turn; the verdict is admitted or the refusal's reason (weak_issuer_key: an issuer"
    " modulus of fewer than 2048 bits).",
    "sa2e.malicious_reports: the reports malicious device j of `kind` uploads"
    " (protocol.malicious_reports: tape sa2/malicious/{j} of seed; tokens from a fresh attester"
    " of the issuer key; wrong_B seals the AAD with B - 1, or B + 1 when B = 1; inflated sets a"
    " Prio3Count encoding to B), each as in the transcripts (nonce, public share, token, both"
    " HPKE encapsulations and ciphertexts, hex). An unknown kind is invalid.",
    "sa2e.aggregator_release: the batch of sa2e.tampered_batch; leaderReleases and"
    " helperReleases tell whether each aggregator releases its aggregate share (Aggregator."
    "release: no more than maxReports received, at least B aggregated; fixed-size mode: exactly"
    " B aggregated out of at least `population` accepted). The collector needs both.",
    "Seeds are hex; " + VECTOR_SEED_HEADER[0].lower() + VECTOR_SEED_HEADER[1:] + ".",
]

NOTES = {
    "Overweight": "RAPPOR with overweight 1/4: max_weight is small, many reports exceed it.",
    "Malicious": "Malicious devices j = 0..4 (invalid_proof, forged_token, replayed_token, "
                 "wrong_B, inflated) send after the honest devices.",
    "BadTimes": "Arrival times must be one per report and non-decreasing.",
    "MissingTimes": "A time-bounded task needs the arrival time of every report.",
    "OneBudgetPerDevice": "Every round lists one update per device accountant.",
    "UnknownVdaf": "build_vdaf refuses a VDAF type it does not know (vdaf_mismatch).",
    "BadRandomizer": "The Gaussian vector randomizer needs 1 <= dimension <= 4096, "
                     "0 <= fractionalBits <= 32 and 1 <= tailExponent <= 200 (the recipe is "
                     "malformed).",
    "EncodingError": "EMSA-PSS-ENCODE (RFC 8017 sec. 9.1.1 step 3): emLen < hLen + sLen + 2.",
    "BadTokenInput": "The task id and the nonce have 32 bytes each.",
    "SigningFailure": "RFC 9474 sec. 4.3 BlindSign: the signature fails RSAVP1 (a bad key).",
    "RateLimit": "Rate validation (sec. 4.7): with population N the aggregators release no batch "
                 "of more than floor(2 N (q + (1 - q) q')) received reports.",
    "UnknownKind": "malicious_reports knows invalid_proof, forged_token, replayed_token, "
                   "wrong_B and inflated.",
    "FixedSize": "Fixed-size mode: exactly B aggregated out of at least population accepted "
                 "reports.",
}


def compare_outputs(want: dict[str, Any], got: Any) -> str | None:
    """Exact, except epsilon and delta of the statements (relative REL_TOL)."""
    def close(w: Any, g: Any) -> bool:
        if not isinstance(g, str):
            return False
        if w == "inf" or g == "inf":
            return bool(w == g)
        with mpmath.workdps(50):
            a, b = mpmath.mpf(w), mpmath.mpf(g)
            ok: bool = abs(a - b) <= REL_TOL * abs(a)
            return ok

    def check(k: str, w: Any, g: Any) -> str | None:
        if k in ("sa2", "aggregator", "count") and isinstance(w, dict):
            if not isinstance(g, dict) or set(g) != set(w):
                return f"{k}: expected keys {sorted(w)}"
            for kk in sorted(w):
                ok = close(w[kk], g[kk]) if kk in REALS else w[kk] == g[kk]
                if not ok:
                    return f"{k}.{kk}: {g[kk]!r} does not match {w[kk]!r}"
            return None
        return None if g == w else f"{k}: expected {w!r}, got {g!r}"

    return compare_keys(want, got, check)


class Sa2EdgesFamily(Family):
    name = "sa2-edges"
    summary = ("SA2 protocol edges: collection counters, tampered reports, device budgets, "
               "rounds, recipe guarantees, ideal release")

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
        stmt: dict[str, Any] = {"anyOf": [{"type": "null"}, {
            "type": "object", "required": ["model", "epsilon", "delta", "bound"],
            "properties": {"model": {"type": "string"}, "epsilon": {"type": "string"},
                           "delta": {"type": "string"}, "bound": {"type": "string"},
                           "fallback": {"type": "string"}}}]}
        ops: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
            "sa2e.collection_counts": (
                {"properties": {**run, "malicious": COUNT, "dropRate": RAT}},
                {"type": "object",
                 "required": ["participants", "dummies", "overweight", "sent", "dropped",
                              "tokensIssued", "verdicts", "rejected", "release"],
                 "properties": {"participants": COUNT, "dummies": COUNT, "overweight": COUNT,
                                "sent": COUNT, "dropped": COUNT, "tokensIssued": COUNT,
                                "verdicts": _STRINGS, "rejected": _COUNTS,
                                "release": _RELEASE}}),
            "sa2e.tampered_batch": (
                {"properties": {**run, "tamper": {"type": "array", "items": {"enum": [
                    "none", "short_nonce", "short_token", "helper_ciphertext",
                    "undecodable_share"]}},
                    "times": {"anyOf": [{"type": "null"}, {"type": "array", "items": RAT}]},
                    "period": COUNT}},
                {"type": "object", "required": ["verdicts", "accepted", "rejected", "release"],
                 "properties": {"verdicts": _STRINGS, "accepted": COUNT, "rejected": _COUNTS,
                                "release": _RELEASE}}),
            "sa2e.budget": (
                {"properties": {"epsilonAllowed": RAT, "queriesAllowed": COUNT,
                                "recipes": {"type": "array", "items": {"type": "object"}}}},
                {"type": "object", "required": ["steps"],
                 "properties": {"steps": {"type": "array", "items": {
                     "type": "object", "required": ["verdict", "epsilonUsed", "queriesUsed"],
                     "properties": {"verdict": {"enum": ["admitted", "budget_exhausted",
                                                         "rounds_exhausted"]},
                                    "epsilonUsed": RAT, "queriesUsed": COUNT}}}}}),
            "sa2e.rounds": (
                {"properties": {**keys, "recipe": {"type": "object"}, "seed": HEX,
                                "budgets": {"type": "array", "items": {
                                    "type": "array", "prefixItems": [RAT, DEC], "minItems": 2,
                                    "maxItems": 2}},
                                "updates": {"type": "array", "items": data}}},
                {"type": "object", "required": ["rounds"],
                 "properties": {"rounds": {"type": "array", "items": {
                     "type": "object",
                     "required": ["round", "roundSeed", "admitted", "refused", "verdicts",
                                  "release"],
                     "properties": {"round": COUNT, "roundSeed": HEX, "admitted": COUNT,
                                    "refused": _COUNTS,
                                    "verdicts": {"anyOf": [{"type": "null"}, _STRINGS]},
                                    "release": _RELEASE}}}}}),
            "sa2e.guarantee": (
                {"properties": {"recipe": {"type": "object"}}},
                {"type": "object", "required": ["sa2", "aggregator", "count"],
                 "properties": {"sa2": stmt, "aggregator": stmt, "count": stmt}}),
            "sa2e.ideal_release": (
                {"properties": {"recipe": {"type": "object"}, "measurements": {
                    "type": "array", "items": {"anyOf": [DEC, {"type": "array", "items": {
                        "type": "integer"}}]}}}},
                {"type": "object", "required": ["release"],
                 "properties": {"release": _RELEASE}}),
            "sa2e.token_request": (
                {"properties": {"issuerP": HEX, "issuerQ": HEX, "taskId": HEX, "seed": HEX,
                                "tag": {"type": "string"}}},
                {"type": "object", "required": ["blindedMsg", "blindSig", "token"],
                 "properties": {"blindedMsg": HEX, "blindSig": HEX, "token": HEX}}),
            "sa2e.token_check": (
                {"properties": {"modulus": {"type": "string", "pattern": "^[0-9a-f]+$"},
                                "exponent": DEC, "taskId": HEX,
                                "tokens": {"type": "array", "items": HEX}}},
                {"type": "object", "required": ["verdicts"],
                 "properties": {"verdicts": _STRINGS}}),
            "sa2e.check_recipe": (
                {"properties": {"epsilonAllowed": RAT, "queriesAllowed": COUNT,
                                "recipes": {"type": "array", "items": {"type": "object"}}}},
                {"type": "object", "required": ["steps"], "properties": {"steps": {
                    "type": "array", "items": {
                        "type": "object", "required": ["verdict", "epsilonUsed", "queriesUsed"],
                        "properties": {"verdict": {"type": "string"}, "epsilonUsed": RAT,
                                       "queriesUsed": COUNT}}}}}),
            "sa2e.malicious_reports": (
                {"properties": {**keys, "recipe": {"type": "object"}, "seed": HEX, "j": COUNT,
                                "kind": {"type": "string"}}},
                {"type": "object", "required": ["reports"], "properties": {"reports": {
                    "type": "array", "items": {"type": "object",
                                               "additionalProperties": HEX}}}}),
            "sa2e.aggregator_release": (
                {"properties": {**run, "tamper": {"type": "array", "items": {
                    "type": "string"}}, "times": {"type": "array", "items": RAT},
                    "period": COUNT}},
                {"type": "object", "required": ["leaderReleases", "helperReleases"],
                 "properties": {"leaderReleases": {"type": "boolean"},
                                "helperReleases": {"type": "boolean"}}}),
            "sa2e.attest": (
                {"properties": {"issuerP": HEX, "issuerQ": HEX, "blindedMsg": HEX,
                                "requests": {"type": "array", "items": {
                                    "type": "array", "prefixItems": [{"type": "string"}, HEX],
                                    "minItems": 2, "maxItems": 2}}}},
                {"type": "object", "required": ["results", "issued"],
                 "properties": {"results": {"type": "array", "items": {
                     "enum": ["issued", "refused"]}}, "issued": COUNT}}),
        }
        return {SCHEMA: family_schema(SCHEMA, "SA2 protocol edge vectors", ops)}

    def files(self) -> list[VectorFile]:
        return [self.vector_file(
            "sa2-edges/protocol_edges.json", algorithm="SA2-protocol-edges", schema=SCHEMA,
            header=HEADER, notes=NOTES, groups=_groups())]


def _groups() -> list[dict[str, Any]]:
    dep = vector_deployment()
    keys = deployment_keys(dep)

    def recipe(r: protocol.AnyRandomizer, B: int, q: str, dummy: str = "0", **over: Any
               ) -> dict[str, Any]:
        return vector_recipe(dep, r, B, q, dummy, **over)

    def seed(label: str) -> str:
        return vector_seed(f"sa2-edges/{label}").hex()

    rr = Randomizer("randomized_response", 4, Fraction(1, 2))
    bin_ = Randomizer("binary_randomized_response", 2, Fraction(1, 4))
    heavy = Randomizer("rappor", 5, Fraction(2, 5), Fraction(1, 4))
    gauss = fl.GaussianVector(2, Fraction(1), 4, Fraction(1, 10))
    groups = Groups(HANDLERS)

    groups.add("sa2e.collection_counts", [
        ("RAPPOR k = 5, flip 2/5, overweight 1/4: the reports over maxWeight are not uploaded",
         {"recipe": recipe(heavy, 1, "1"), "seed": seed("counts/0"),
          "data": ["0", "1", "2", "3", "4", "0", "1", "2"], "malicious": 0}, ["Overweight"]),
        ("binary randomized response, B = 1, one malicious device of each kind: the inflated "
         "count B, the AAD sealed with B + 1",
         {"recipe": recipe(bin_, 1, "1/2"), "seed": seed("counts/1"),
          "data": ["0", "1", "1", "0"], "malicious": 5}, ["Malicious"]),
        ("binary randomized response, B = 2, dummies at rate 1/2",
         {"recipe": recipe(bin_, 2, "1/2", dummy="1/2"), "seed": seed("counts/2"),
          "data": ["1", "1", "0", "0", "1", "0"], "malicious": 0}),
    ], params=keys)

    rr_run = {"recipe": recipe(rr, 2, "1"), "seed": seed("tamper"),
              "data": ["0", "1", "2", "3", "1"]}
    window = recipe(rr, 2, "1", window=(Fraction(0), Fraction(3)))
    groups.add("sa2e.tampered_batch", [
        ("one report of each alteration; the two untouched ones are summed",
         {**rr_run, "tamper": ["short_nonce", "short_token", "none", "helper_ciphertext",
                               "undecodable_share"]}),
        ("the untouched reports only: released", {**rr_run, "tamper": ["none"] * 5}),
        ("time window [0, 3]: arrivals 0, 1, 3, 3, 7/2 (the last is outside)",
         {**rr_run, "recipe": window, "tamper": ["none"] * 5,
          "times": ["0", "1", "3", "3", "7/2"]}),
        ("aggregated in periods of 2 reports (dpspec.spec.sa2.periodic): the same release",
         {**rr_run, "tamper": ["short_token", "none", "none", "none", "none"], "period": 2,
          "times": ["0", "1", "2", "3", "4"]}),
    ], [
        ("arrival times out of order", {**rr_run, "tamper": ["none"] * 5,
                                        "times": ["0", "2", "1", "3", "4"]}, "BadTimes"),
        ("one arrival time missing", {**rr_run, "tamper": ["none"] * 5,
                                      "times": ["0", "1", "2", "3"]}, "BadTimes"),
        ("a time-bounded task without arrival times",
         {**rr_run, "recipe": window, "tamper": ["none"] * 5}, "MissingTimes"),
        ("aggregated in periods of 2: one arrival time too many",
         {**rr_run, "tamper": ["none"] * 5, "period": 2,
          "times": ["0", "1", "2", "3", "4", "5"]}, "BadTimes"),
    ], params=keys)

    one = recipe(rr, 2, "1/2", epsilon=Fraction(1))
    two = recipe(rr, 2, "1/2", epsilon=Fraction(2))
    fl2 = recipe(gauss, 2, "1/2", rounds=2, epsilon=Fraction(3))
    fl_other = recipe(gauss, 2, "1/2", rounds=1, epsilon=Fraction(3),
                      task_id=vector_seed("sa2-edges/other-task"))
    groups.add("sa2e.budget", [
        ("epsilon 1 + 2 = 3 of 3 allowed, then one more is refused",
         {"epsilonAllowed": "3", "queriesAllowed": 10, "recipes": [one, two, one]}),
        ("the query limit: 2 queries allowed", {"epsilonAllowed": "100", "queriesAllowed": 2,
                                               "recipes": [one, one, one]}),
        ("epsilon exactly used up, then a second query limit check",
         {"epsilonAllowed": "2", "queriesAllowed": 2, "recipes": [two, one]}),
        ("federated learning, rounds = 2: charged once, the third round is refused",
         {"epsilonAllowed": "5", "queriesAllowed": 5, "recipes": [fl2, fl2, fl2]}),
        ("two federated-learning tasks: the second does not fit the budget",
         {"epsilonAllowed": "5", "queriesAllowed": 5, "recipes": [fl2, fl_other, fl2]}),
        ("a federated-learning task past the query limit",
         {"epsilonAllowed": "5", "queriesAllowed": 1, "recipes": [one, fl2]}),
    ])

    def upd(label: str, n: int) -> list[list[str]]:
        t = RandomTape(vector_seed(label), "vectors/sa2/updates")
        return [[format_rational(Fraction(t.uniform(65) - 32, 64)) for _ in range(2)]
                for _ in range(n)]

    groups.add("sa2e.rounds", [
        ("three rounds of a two-round task; device 3 (from 0) allows epsilon 2 < 3, device 2 no "
         "query: devices 0 and 1 take part in rounds 0 and 1, nobody in round 2",
         {"recipe": recipe(gauss, 1, "1", rounds=2, epsilon=Fraction(3)),
          "seed": seed("rounds"),
          "budgets": [["10", "5"], ["3", "1"], ["10", "0"], ["2", "5"]],
          "updates": [upd(f"sa2-edges/rounds/{r}", 4) for r in range(3)]}),
    ], [
        ("a round with more updates than device accountants",
         {"recipe": recipe(gauss, 1, "1", rounds=2, epsilon=Fraction(3)),
          "seed": seed("rounds"), "budgets": [["10", "5"]],
          "updates": [upd("sa2-edges/rounds/bad", 2)]}, "OneBudgetPerDevice"),
    ], params=keys)

    rap = Randomizer("rappor", 6, Fraction(1, 10), Fraction(1, 100))
    groups.add("sa2e.guarantee", [
        ("randomized response, fixed-size: B = 20 of at least 200",
         {"recipe": recipe(rr, 20, "1", sampling="fixed_size", population=200,
                           epsilon=Fraction(5), delta=Fraction(1, 10**6))}),
        ("binary randomized response, dummies at rate 1/10 among 1000 devices, q = 1/20",
         {"recipe": recipe(Randomizer("binary_randomized_response", 2, Fraction(1, 10)), 20,
                           "1/20", dummy="1/10", population=1000, epsilon=Fraction(3),
                           delta=Fraction(1, 10**6))}),
        ("RAPPOR, dummies at rate 1/2 among 100 devices, q = 1/4",
         {"recipe": recipe(rap, 10, "1/4", dummy="1/2", population=100, epsilon=Fraction(8),
                           delta=Fraction(1, 10**4))}),
        ("RAPPOR, dummies at rate 1/20 among 100 devices, B = 80: at least 80 - d real reports",
         {"recipe": recipe(rap, 80, "1/4", dummy="1/20", population=100, epsilon=Fraction(8),
                           delta=Fraction(1, 10**4))}),
        ("binary randomized response, dummies at rate 1/50 among 1000 devices, B = 300",
         {"recipe": recipe(Randomizer("binary_randomized_response", 2, Fraction(1, 10)), 300,
                           "1/4", dummy="1/50", population=1000, epsilon=Fraction(8),
                           delta=Fraction(1, 10**4))}),
        ("the federated-learning path: two rounds of the Gaussian vector randomizer",
         {"recipe": recipe(fl.GaussianVector(2, Fraction(1), 8, Fraction(4)), 50, "1/10",
                           rounds=2, epsilon=Fraction(5), delta=Fraction(1, 10**5))}),
    ])

    vdaf_params = recipe(rr, 1, "1")
    unknown = {**vdaf_params, "vdaf": {"type": "Prio3Sum", "shares": 2}}
    g_doc = recipe(gauss, 2, "1")
    groups.add("sa2e.ideal_release", [
        ("randomized response k = 4: a histogram of the buckets",
         {"recipe": recipe(rr, 3, "1"), "measurements": ["0", "3", "3", "1"]}),
        ("randomized response: fewer than B measurements, no output",
         {"recipe": recipe(rr, 5, "1"), "measurements": ["0", "3", "3", "1"]}),
        ("binary randomized response: one coordinate, the count of ones",
         {"recipe": recipe(bin_, 2, "1"), "measurements": ["1", "0", "1"]}),
        ("RAPPOR k = 6: the coordinate-wise sum of the bit vectors",
         {"recipe": recipe(rap, 2, "1"),
          "measurements": [[1, 0, 0, 1, 0, 0], [0, 0, 0, 1, 1, 0]]}),
        ("Gaussian vector d = 2, f = 4: the signed sum of the encoded entries",
         {"recipe": recipe(gauss, 2, "1"), "measurements": [[3, -20], [-7, 5]]}),
    ], [
        ("a VDAF type build_vdaf does not know", {"recipe": unknown, "measurements": ["0"]},
         "UnknownVdaf"),
        *[(f"Gaussian vector randomizer with {key} = {value}",
           {"recipe": {**g_doc, "randomizer": {**g_doc["randomizer"], key: value}},
            "measurements": []}, "BadRandomizer")
          for key, value in [("dimension", fl.MAX_DIMENSION + 1),
                             ("fractionalBits", fl.MAX_FRACTIONAL_BITS + 1),
                             ("tailExponent", 0), ("tailExponent", fl.MAX_TAIL_EXPONENT + 1)]],
    ])
    _token_groups(groups, dep)
    _boundary_groups(groups, dep, keys)
    return groups.groups


def _boundary_groups(groups: Groups, dep: protocol.Deployment, keys: dict[str, Any]) -> None:
    """Groups appended later (tcIds after the token groups): both sides of the aggregators'
    release conditions, the population's lower end, the inflated binary count with B > 1, and
    the aggregator-model statement at B - d = 1 and 0 real reports."""
    def recipe(r: protocol.AnyRandomizer, B: int, q: str, dummy: str = "0", **over: Any
               ) -> dict[str, Any]:
        return vector_recipe(dep, r, B, q, dummy, **over)

    def seed(label: str) -> str:
        return vector_seed(f"sa2-edges/{label}").hex()

    rr = Randomizer("randomized_response", 4, Fraction(1, 2))
    bin_ = Randomizer("binary_randomized_response", 2, Fraction(1, 4))
    limit = recipe(rr, 2, "1", population=2)  # maxReports = 2 * 2 * 1 = 4
    fixed = recipe(rr, 2, "1", sampling="fixed_size", population=5)  # pool 5
    groups.add("sa2e.tampered_batch", [
        ("population 2, q = 1: at most 4 reports; 4 received, released",
         {"recipe": limit, "seed": seed("limit"), "data": ["0", "1", "2", "3"],
          "tamper": ["none"] * 4}, ["RateLimit"]),
        ("population 2, q = 1: 5 received, one more than 4: no release",
         {"recipe": limit, "seed": seed("limit"), "data": ["0", "1", "2", "3", "1"],
          "tamper": ["none"] * 5}, ["RateLimit"]),
        ("fixed-size B = 2 of pool 5: 5 accepted (exactly the pool), the first 2 summed",
         {"recipe": fixed, "seed": seed("fixed"), "data": ["0", "1", "2", "3", "1"],
          "tamper": ["none"] * 5}, ["FixedSize"]),
        ("fixed-size B = 2 of pool 5: 4 accepted, B reached but fewer than the pool: no release",
         {"recipe": fixed, "seed": seed("fixed"), "data": ["0", "1", "2", "3"],
          "tamper": ["none"] * 4}, ["FixedSize"]),
    ], params=keys)
    groups.add("sa2e.collection_counts", [
        ("binary randomized response, B = 2, one malicious device of each kind: the inflated "
         "count is B = 2 (not a bit), the AAD sealed with B - 1",
         {"recipe": recipe(bin_, 2, "1"), "seed": seed("counts/b2"),
          "data": ["0", "1", "1"], "malicious": 5}, ["Malicious"]),
    ], params=keys)
    groups.add("sa2e.collection_counts", [
        ("randomized response, B = 2, the network loses each report with probability 1/2 "
         "(dropRate)", {"recipe": recipe(rr, 2, "1"), "seed": seed("counts/lossy"),
                        "data": ["0", "1", "2", "3", "0", "1"], "malicious": 0,
                        "dropRate": "1/2"}),
    ], params=keys)
    groups.add("sa2e.ideal_release", [
        ("population 1 (the smallest accepted)",
         {"recipe": recipe(rr, 1, "1", population=1), "measurements": ["2"]}),
    ])
    brr = Randomizer("binary_randomized_response", 2, Fraction(1, 10))
    # dummies at rate 1/10 among 100: at most d = 25 with probability 1 - 4.1e-6
    groups.add("sa2e.guarantee", [
        (f"binary randomized response, dummies at rate 1/10 among 100 devices, B = {B}: "
         f"{what}", {"recipe": recipe(brr, B, "1/4", dummy="1/10", population=100,
                                      epsilon=Fraction(8), delta=Fraction(1, 10**4))})
        for B, what in [(26, "at least B - d = 1 real report (the local guarantee)"),
                        (25, "up to B - d = 0 real reports: no aggregator-model guarantee")]
    ])

    claim = recipe(rr, 20, "1", sampling="fixed_size", population=200, epsilon=Fraction(5),
                   delta=Fraction(1, 10**6))
    weak = {**claim, "issuer": {**claim["issuer"],
                                "modulus": ((1 << 2046) + 1).to_bytes(256, "big").hex()}}  # 2047 bits
    groups.add("sa2e.check_recipe", [
        ("a claim of epsilon 5 that holds, twice with 8 allowed: admitted and charged, then "
         "budget_exhausted; an issuer modulus of 2047 bits: weak_issuer_key",
         {"epsilonAllowed": "8", "queriesAllowed": 5, "recipes": [claim, claim, weak]}),
    ])
    groups.add("sa2e.aggregator_release", [
        (f"{what}: {n} report(s) delivered", {
            "recipe": rec, "seed": seed(label), "data": ["0", "1", "2", "3", "1"][:n],
            "tamper": ["none"] * n})
        for what, rec, label, n in [
            ("population 2, q = 1, at most 4 received", limit, "limit", 4),
            ("population 2, q = 1, at most 4 received", limit, "limit", 5),
            ("fixed-size B = 2 of pool 5", fixed, "fixed", 5),
            ("fixed-size B = 2 of pool 5", fixed, "fixed", 4),
            ("fixed-size B = 2 of pool 5", fixed, "fixed", 1)]
    ], params=keys)
    mal = {"seed": seed("malicious")}
    groups.add("sa2e.malicious_reports", [
        (f"{kind}, B = {B}", {**mal, "recipe": recipe(bin_, B, "1"), "j": j, "kind": kind})
        for j, kind, B in [(3, "wrong_B", 1), (3, "wrong_B", 3), (4, "inflated", 2)]
    ], [
        ("an unknown kind", {**mal, "recipe": recipe(bin_, 1, "1"), "j": 0, "kind": "bogus"},
         "UnknownKind"),
    ], params=keys)


def _token_groups(groups: Groups, dep: protocol.Deployment) -> None:
    from sympy import nextprime

    sk = dep.issuer_sk
    pk = sk.public_key()
    task = vector_seed("sa2/task")
    nonce = vector_seed("sa2-edges/nonce")
    tin = tokens.token_input(task, nonce)

    def signed(m: int) -> str:
        # a signature whose RSAVP1 is the representative m (made with the issuer's key)
        return (tin + tokens.i2osp(tokens.rsasp1(sk, m), pk.modulus_len)).hex()

    em_bits = pk.n.bit_length() - 1
    mixed = [
        ("a token input without the prefix (right length)",
         [(b"X" * len(tokens.TOKEN_PREFIX) + task + nonce + bytes(pk.modulus_len)).hex()]),
        ("a signature equal to n (out of range)", [(tin + tokens.i2osp(pk.n, pk.modulus_len)).hex()]),
        ("an encoded message not ending in 0xbc", [signed((1 << (em_bits - 8)) + 0x01)]),
        ("an encoded message ending in 0xbc with its top bit set beyond emBits",
         [signed((1 << em_bits) + 0xBC)]),
        ("a signature of the wrong length", [(tin + bytes(pk.modulus_len - 1)).hex()]),
        ("an encoded message 00...00bc: the unmasked DB does not start with zeros then 01",
         [signed(0xBC)]),
    ]
    valid = [(label, {"tokens": toks}) for label, toks in mixed]
    # a modulus of 8j + 1 bits (emLen = modulus length - 1): an RSAVP1 value can exceed 256^emLen
    odd_n = (1 << 1025) - 1
    s = 2
    while pow(s, tokens.E, odd_n) < 1 << 1024:
        s += 1
    odd_len = (odd_n.bit_length() + 7) // 8
    groups.add("sa2e.token_check", valid, params={
        "modulus": format(pk.n, "x"), "exponent": str(pk.e), "taskId": task.hex()})
    groups.add("sa2e.token_check", [
        ("modulus 2^1025 - 1 (1025 bits): a signature whose RSAVP1 is >= 2^1024 is invalid",
         {"tokens": [(tin + s.to_bytes(odd_len, "big")).hex()]})],
        params={"modulus": format(odd_n, "x"), "exponent": str(tokens.E), "taskId": task.hex()})

    p512 = int(nextprime(1 << 511 | 1 << 510))
    q512 = int(nextprime(p512 + (1 << 400)))
    small = {"issuerP": format(int(nextprime(1 << 127)), "x"),
             "issuerQ": format(int(nextprime(1 << 100)), "x")}
    base = {"issuerP": format(p512, "x"), "issuerQ": format(q512, "x"), "taskId": task.hex(),
            "tag": "sa2/client/0/token"}
    composite = p512 + 2
    while composite % 3 == 0 or (composite - 1) % tokens.E == 0:
        composite += 2
    groups.add("sa2e.token_request", [
        ("a 1024-bit key from primes p, q (nextprime): issuance succeeds",
         {**base, "seed": vector_seed("sa2-edges/request").hex()})], [
        ("a 228-bit modulus: EMSA-PSS needs emLen >= 98 (encoding error)",
         {**base, **small, "seed": vector_seed("sa2-edges/request").hex()}, "EncodingError"),
        ("a task id of 31 bytes", {**base, "taskId": task[:31].hex(),
                                   "seed": vector_seed("sa2-edges/request").hex()},
         "BadTokenInput"),
        ("p not prime: the CRT signature does not verify", {
            **base, "issuerP": format(composite, "x"),
            "seed": vector_seed("sa2-edges/request").hex()}, "SigningFailure"),
    ])

    other = tokens.PublicKey(pk.n, 3).key_id().hex()
    own = pk.key_id().hex()
    groups.add("sa2e.attest", [
        ("two devices, then the first again (rate limit), then a request for another key",
         {"requests": [["a", own], ["b", own], ["a", own], ["c", other], ["c", own]]}),
    ], params={"issuerP": format(sk.p, "x"), "issuerQ": format(sk.q, "x"),
               "blindedMsg": tokens.i2osp(2, pk.modulus_len).hex()})


FAMILY = Sa2EdgesFamily()
