"""The SA2 architecture of sec. 4 of [SA2], simulated faithfully on one machine.

Components and where the paper describes them:

* **Recipe** (sec. 4.1; [PFS] sec. 4.1 and App. B): a JSON document naming the randomizer R, the
  decoding, the cohort size B, the sampling rate q, the Prio3 VDAF and its parameters, the two
  aggregators' HPKE public keys, the token issuer's key, the privacy claim and the dummy rate.
  The client checks it (:func:`check_recipe`) and refuses with a reason (:class:`RecipeRefused`).
* **Client** (sec. 4.1): its own coin decides participation at rate q; it runs R, shards the
  measurement with Prio3, seals each input share with HPKE to its aggregator, with the task and B
  in the associated data (sec. 4.8 "Reliance on client code"), and attaches its anonymous token.
* **Tokens** (sec. 4.3): :mod:`dpspec.spec.sa2.tokens`, one per device per collection.
* **Anonymization** (sec. 4.2): :func:`anonymize` drops reports (network loss, optional) and
  delivers the rest in a uniformly shuffled order; reports carry no sender identity.
* **Leader and helper** (sec. 4.4, 4.5): each checks the token (and rejects a double spend),
  opens its share, runs Prio3 verification with the other, aggregates the output shares of the
  reports both accepted, and refuses to release an aggregate share over fewer than B reports.
* **Dummy reports** (sec. 4.6): a device that did not select itself sends, with probability q',
  a report of the zero measurement, which hides the number of real contributions.
* **Collector**: unshards the two aggregate shares.

The VDAF is a parameter: any object with the VDAF draft-20 interface (``shard``, ``verify_init``,
``verifier_shares_to_message``, ``verify_next``, ``agg_init``, ``agg_update``, ``unshard``,
``encode_/decode_public_share``, ``encode_/decode_input_share``, ``NONCE_SIZE``, ``RAND_SIZE``,
``VERIFY_KEY_SIZE``); a failed verification is any ``ValueError`` (Prio3 raises ``VerifyError``).

Wire formats (all integers big-endian):

* HPKE ``info = b"dpspec/sa2 input share" || 0x01 || role`` with role 0x02 (leader), 0x03 (helper).
* HPKE ``aad = b"dpspec/sa2/v1" || task_id (32) || uint32(B) || nonce (16) ||
  uint32(len(public_share)) || public_share || token``.
* VDAF application context ``ctx = b"dpspec/sa2/v1" || task_id``.
* A report: ``nonce``, ``public_share``, ``token``, and per aggregator ``(enc, ciphertext)``.

Coins (randomness is an argument): the simulation :func:`run_collection` derives every tape from
one seed, under the tags listed in :data:`TAGS`, so that a run is reproducible and an implementation
can be compared with the ideal functionality on the *same* coins (the participation coins are the
``poisson_sample`` draws of :mod:`dpspec.spec.sa2.ideal`, one per device in device order). A client's
report coins, in order: nonce (``NONCE_SIZE`` bytes), the VDAF ``rand`` (``RAND_SIZE`` bytes), the
leader's then the helper's HPKE ephemeral IKM (32 bytes each); a byte is ``uniform(256)``. Fixed
HPKE ephemeral keys from a tape are FOR SIMULATION AND VECTORS ONLY (see :mod:`dpspec.spec.sa2.hpke`).
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import mpmath

from dpspec.spec.flp.bbcggi19 import ProveGadget
from dpspec.spec.flp.gadgets import gadget_poly_len, wire_poly_len
from dpspec.spec.flp.valid import encode_range_checked_int
from dpspec.spec.sa2 import fl, hpke, ideal, privacy, tokens
from dpspec.spec.sa2.fl import GaussianVector
from dpspec.spec.sa2.ideal import Aggregation, Sa2Error, exact, parse_rate
from dpspec.spec.sa2.privacy import DEFAULT_ACCOUNTANT, PrivacyStatement
from dpspec.spec.sa2.query import Query
from dpspec.spec.sa2.randomizers import Randomizer
from dpspec.spec.samplers import bernoulli
from dpspec.spec.tape import RandomTape
from dpspec.spec.vdaf import prio3
from dpspec.spec.vdaf.bounded_l2 import Prio3BoundedL2VecSum

PROTOCOL_LABEL = b"dpspec/sa2/v1"
INFO_PREFIX = b"dpspec/sa2 input share"
ROLE_CLIENT, ROLE_LEADER, ROLE_HELPER = 1, 2, 3
RECIPE_VERSION = 1
SAMPLING_MODES = ("poisson", "fixed_size")
MIN_ISSUER_MODULUS_BITS = 2048

#: Tape tags of the simulation (``{i}`` is the device index, ``{j}`` the malicious device index).
TAGS = {
    "participation": "sa2/poisson",
    "dummy": "sa2/dummy",
    "network": "sa2/network",
    "shuffle": "sa2/shuffle",
    "data": "sa2/sim/data",
    "randomizer": "sa2/client/{i}/randomizer",
    "report": "sa2/client/{i}/report",
    "token": "sa2/client/{i}/token",
    "malicious": "sa2/malicious/{j}",
    "setup": "sa2/setup",
    "round": "sa2/fl/round/{r}",
}

MALICIOUS_KINDS = ("invalid_proof", "forged_token", "replayed_token", "wrong_B", "inflated")

#: A recipe's randomizer: a local randomizer of :mod:`dpspec.spec.sa2.randomizers`, or the
#: federated-learning path's Gaussian vector randomizer (:mod:`dpspec.spec.sa2.fl`).
AnyRandomizer = Randomizer | GaussianVector
#: most rounds a federated-learning recipe may run
MAX_ROUNDS = 100_000


def parse_randomizer(doc: Any) -> AnyRandomizer:
    if isinstance(doc, dict) and doc.get("name") == fl.NAME:
        return GaussianVector.from_json(doc)
    return Randomizer.from_json(doc)


class RecipeRefused(Sa2Error):
    """The client refuses a recipe; ``reason`` is a short code, the message says why."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(f"{reason}: {message}")
        self.reason = reason


# -- recipes (sec. 4.1) ---------------------------------------------------------------------------
@dataclass(frozen=True)
class AggregatorInfo:
    role: str
    hpke_public_key: bytes


@dataclass(frozen=True)
class Recipe:
    """A parsed recipe. ``doc`` is the JSON document it came from."""

    recipe_id: str
    task_id: bytes
    randomizer: AnyRandomizer
    B: int
    q: Fraction
    vdaf_params: dict[str, Any]
    leader: AggregatorInfo
    helper: AggregatorInfo
    issuer_key: tokens.PublicKey
    epsilon: Fraction
    delta: Fraction
    dummy_rate: Fraction
    doc: dict[str, Any]
    accountant: str = DEFAULT_ACCOUNTANT
    population: int | None = None
    sampling: str = "poisson"
    window: tuple[Fraction, Fraction] | None = None
    query: Query | None = None
    rounds: int = 1

    def bucket(self, datum: Any) -> int:
        """What the device feeds the randomizer: its record's bucket under the recipe's query
        (:mod:`dpspec.spec.sa2.query`), or, for a recipe without a query, the datum itself."""
        return datum if self.query is None else self.query.apply(datum)

    def task_config(self, verify_key: bytes) -> TaskConfig:
        """What each aggregator is provisioned with (sec. 4.4; fixed-size pool; App. A window;
        the rate limit of :meth:`max_reports`)."""
        return TaskConfig(self.task_id, self.B, verify_key, self.issuer_key,
                          self.population if self.sampling == "fixed_size" else None,
                          self.window, self.max_reports())

    def max_reports(self) -> int | None:
        """Rate validation by the leader and the helper ([SA2] sec. 4.7): with a stated
        population ``N``, the expected number of reports is ``N (q + (1 - q) q')`` (real and
        dummy); each aggregator refuses to release a batch with more than twice that many
        (rounded down), a sign of injected reports. (The paper counts the rate per window of
        time; a collection here is one window.) If the honest count is near its expectation, at
        least half of an accepted batch then comes from devices the attacker does not control.
        None without a population."""
        if self.population is None:
            return None
        expected = self.population * (self.q + (1 - self.q) * self.dummy_rate)
        return int(2 * expected)


def _hex_field(doc: dict[str, Any], key: str, size: int | None = None) -> bytes:
    value = doc.get(key)
    if not isinstance(value, str):
        raise RecipeRefused("malformed", f"{key} must be a hex string")
    try:
        out = bytes.fromhex(value)
    except ValueError as exc:
        raise RecipeRefused("malformed", f"{key} is not hex") from exc
    if size is not None and len(out) != size:
        raise RecipeRefused("malformed", f"{key} must have {size} bytes")
    return out


def parse_recipe(doc: Any) -> Recipe:
    """Read a recipe document (the format is in the README and :func:`make_recipe`)."""
    if not isinstance(doc, dict):
        raise RecipeRefused("malformed", "a recipe is a JSON object")
    required = ["recipeId", "version", "taskId", "randomizer", "cohortSize", "samplingRate",
                "vdaf", "aggregators", "issuer", "privacy"]
    missing = [k for k in required if k not in doc]
    if missing:
        raise RecipeRefused("malformed", f"missing fields {missing}")
    if doc["version"] != RECIPE_VERSION:
        raise RecipeRefused("unsupported_version", f"recipe version {doc['version']!r}; "
                            f"this client understands {RECIPE_VERSION}")
    try:
        randomizer = parse_randomizer(doc["randomizer"])
        B = ideal.check_cohort_size(doc["cohortSize"])
        q = parse_rate(doc["samplingRate"], "samplingRate")
        dummy = parse_rate(doc.get("dummyRate", "0"), "dummyRate")
        priv = doc["privacy"]
        if not isinstance(priv, dict):
            raise Sa2Error("privacy must be an object")
        eps = exact(priv.get("epsilon", "missing"), "privacy.epsilon")
        delta = parse_rate(priv.get("delta", "missing"), "privacy.delta")
        accountant = priv.get("accountant", DEFAULT_ACCOUNTANT)
        population = doc.get("population")
        if population is not None and (isinstance(population, bool)
                                       or not isinstance(population, int) or population < 1):
            raise Sa2Error("population must be an integer >= 1")
        if dummy > 0 and population is None:
            raise Sa2Error("a recipe with dummy reports states the population (the number of "
                           "eligible devices), which bounds the number of dummies")
        sampling = doc.get("sampling", "poisson")
        if sampling not in SAMPLING_MODES:
            raise Sa2Error(f"sampling must be one of {', '.join(SAMPLING_MODES)}")
        if sampling == "fixed_size":
            if population is None or population < B:
                raise Sa2Error("fixed-size sampling needs population >= B: the aggregators sum "
                               "B of at least that many accepted reports")
            if q != 1 or dummy != 0:
                raise Sa2Error("fixed-size sampling happens at the aggregators: samplingRate "
                               "must be 1 and no dummy reports are needed (sec. 4.6)")
        query = Query.from_json(doc["query"]) if "query" in doc else None
        window = None
        if "timeWindow" in doc:
            tw = doc["timeWindow"]
            if not isinstance(tw, dict):
                raise Sa2Error("timeWindow must be an object {t0, K}")
            window = (exact(tw.get("t0", "missing"), "timeWindow.t0"),
                      exact(tw.get("K", "missing"), "timeWindow.K"))
            if window[1] <= 0:
                raise Sa2Error("timeWindow.K must be > 0")
        rounds = doc.get("rounds", 1)
        if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
            raise Sa2Error(f"rounds must be an integer in [1, {MAX_ROUNDS}]")
        if rounds != 1 and not isinstance(randomizer, GaussianVector):
            raise Sa2Error("rounds applies to the federated-learning randomizer only")
        if isinstance(randomizer, GaussianVector) and (dummy != 0 or sampling != "poisson"
                                                       or query is not None):
            raise Sa2Error(f"a {fl.NAME} recipe uses Poisson sampling without dummy reports or "
                           "a query (Example 5)")
    except RecipeRefused:
        raise
    except Sa2Error as exc:
        raise RecipeRefused("malformed", str(exc)) from exc
    if accountant not in privacy.ACCOUNTANTS:
        raise RecipeRefused("unsupported_accountant", f"privacy.accountant {accountant!r}; this "
                            f"client knows {', '.join(sorted(privacy.ACCOUNTANTS))}")
    vdaf = doc["vdaf"]
    if not isinstance(vdaf, dict) or not isinstance(vdaf.get("type"), str):
        raise RecipeRefused("malformed", "vdaf must be an object with a type")
    aggs = doc["aggregators"]
    if not isinstance(aggs, list) or len(aggs) != 2 or not all(isinstance(a, dict) for a in aggs):
        raise RecipeRefused("malformed", "aggregators must list the leader and the helper")
    if [a.get("role") for a in aggs] != ["leader", "helper"]:
        raise RecipeRefused("malformed", "aggregators must be [leader, helper] in that order")
    infos = [AggregatorInfo(a["role"], _hex_field(a, "hpkePublicKey", hpke.NENC)) for a in aggs]
    issuer = doc["issuer"]
    if not isinstance(issuer, dict):
        raise RecipeRefused("malformed", "issuer must be an object")
    n = int.from_bytes(_hex_field(issuer, "modulus"), "big")
    e = issuer.get("exponent")
    if isinstance(e, bool) or not isinstance(e, int) or e < 3 or e % 2 == 0:
        raise RecipeRefused("malformed", "issuer.exponent must be an odd integer >= 3")
    rid = doc["recipeId"]
    if not isinstance(rid, str) or not rid:
        raise RecipeRefused("malformed", "recipeId must be a non-empty string")
    return Recipe(rid, _hex_field(doc, "taskId", tokens.TASK_ID_LEN), randomizer, B, q,
                  dict(vdaf), infos[0], infos[1], tokens.PublicKey(n, e), eps, delta, dummy,
                  doc, accountant, population, sampling, window, query, rounds)


def make_recipe(*, recipe_id: str, task_id: bytes, randomizer: AnyRandomizer, B: int, q: Fraction,
                chunk_length: int, leader_pk: bytes, helper_pk: bytes,
                issuer_key: tokens.PublicKey, epsilon: Fraction, delta: Fraction,
                dummy_rate: Fraction = Fraction(0), population: int | None = None,
                accountant: str | None = None, sampling: str = "poisson",
                window: tuple[Fraction, Fraction] | None = None,
                query: Query | None = None, rounds: int | None = None) -> dict[str, Any]:
    """A recipe document for the given parameters (the VDAF follows from the randomizer;
    ``rounds``, the number of federated-learning rounds the claim covers, for a
    :class:`~dpspec.spec.sa2.fl.GaussianVector` only)."""
    if accountant is None:
        accountant = (privacy.GAUSSIAN_ACCOUNTANT if isinstance(randomizer, GaussianVector)
                      else DEFAULT_ACCOUNTANT)
    vdaf: dict[str, Any] = {"type": randomizer.vdaf_name(), "shares": 2}
    if isinstance(randomizer, GaussianVector):
        vdaf = randomizer.vdaf_params(chunk_length)
    elif randomizer.name == "randomized_response":
        vdaf.update(length=randomizer.k, chunkLength=chunk_length)
    elif randomizer.name == "rappor":
        vdaf.update(length=randomizer.k, maxWeight=randomizer.max_weight(),
                    chunkLength=chunk_length)
    out: dict[str, Any] = {
        "recipeId": recipe_id,
        "version": RECIPE_VERSION,
        "taskId": task_id.hex(),
        "randomizer": randomizer.to_json(),
        "decoding": expected_decoding(randomizer),
        "cohortSize": B,
        "samplingRate": str(q),
        "dummyRate": str(dummy_rate),
        "vdaf": vdaf,
        "aggregators": [{"role": "leader", "hpkePublicKey": leader_pk.hex()},
                        {"role": "helper", "hpkePublicKey": helper_pk.hex()}],
        "issuer": {"modulus": tokens.i2osp(issuer_key.n, issuer_key.modulus_len).hex(),
                   "exponent": issuer_key.e},
        "privacy": {"model": "sa2", "epsilon": str(epsilon), "delta": str(delta),
                    "accountant": accountant},
    }
    if population is not None:
        out["population"] = population
    if sampling != "poisson":
        out["sampling"] = sampling
    if window is not None:
        out["timeWindow"] = {"t0": str(window[0]), "K": str(window[1])}
    if query is not None:
        out["query"] = query.to_json()
    if rounds is not None:
        out["rounds"] = rounds
    return out


def expected_decoding(randomizer: AnyRandomizer) -> str:
    """The name of Dec for a randomizer: "one-hot" (a bucket index becomes its indicator
    vector) for randomized response, "fixed-point" (signed integers, ``2^f`` per unit) for the
    Gaussian vector randomizer, "identity" (the measurement is summed as is) otherwise."""
    if isinstance(randomizer, GaussianVector):
        return "fixed-point"
    return "one-hot" if randomizer.name == "randomized_response" else "identity"


def expected_vdaf_params(randomizer: AnyRandomizer, chunk_length: int) -> dict[str, Any]:
    doc = make_recipe(recipe_id="x", task_id=bytes(32), randomizer=randomizer, B=1,
                      q=Fraction(1), chunk_length=chunk_length, leader_pk=bytes(32),
                      helper_pk=bytes(32), issuer_key=tokens.PublicKey(3, 3),
                      epsilon=Fraction(1), delta=Fraction(0))
    vdaf: dict[str, Any] = doc["vdaf"]
    return vdaf


def build_vdaf(recipe: Recipe) -> Any:
    """The Prio3 instance the recipe names (from :mod:`dpspec.spec.vdaf.prio3`)."""
    p = recipe.vdaf_params
    if p["type"] == "Prio3Count":
        return prio3.Prio3Count(p["shares"])
    if p["type"] == "Prio3Histogram":
        return prio3.Prio3Histogram(p["shares"], p["length"], p["chunkLength"])
    if p["type"] == "Prio3MultihotCountVec":
        return prio3.Prio3MultihotCountVec(p["shares"], p["length"], p["maxWeight"],
                                           p["chunkLength"])
    if p["type"] == "Prio3BoundedL2VecSum":
        return Prio3BoundedL2VecSum(p["shares"], p["length"], p["bits"], p["normBound"],
                                    p["chunkLength"])
    raise RecipeRefused("vdaf_mismatch", f"unsupported VDAF {p['type']}")


#: Share of delta given to "more than d dummies were counted" when a recipe has dummy reports.
DUMMY_TAIL_SHARE = Fraction(1, 10)


@privacy.at_working_precision
def aggregator_guarantee(recipe: Recipe) -> PrivacyStatement:
    """The aggregator-model guarantee of the recipe's ``(R, Dec, B)`` (sec. 3) by its accountant,
    validity-gated (:mod:`dpspec.spec.sa2.privacy`): Sa2Error if the accountant is not proven for
    the randomizer.

    Dummy reports (sec. 4.6) count toward the aggregators' threshold ``B`` but carry no noise, so
    the guarantee counts only real reports: with ``D`` dummies, at least ``B - D`` real reports
    are summed. ``D`` is dominated by ``Bin(population, q')``; with ``d`` its ``DUMMY_TAIL_SHARE *
    delta`` upper quantile (:func:`dpspec.spec.sa2.privacy.dummy_margin`), the statement is the
    bound at ``B - d`` real reports and ``delta (1 - DUMMY_TAIL_SHARE)``, plus the exact tail
    ``Pr[D > d]`` added to delta.
    """
    r = recipe.randomizer
    if isinstance(r, GaussianVector):  # parse_recipe allows no dummies here
        return fl.statement(r, recipe.B, recipe.q, recipe.rounds, recipe.delta, "aggregator")
    B, delta, tail, note = recipe.B, recipe.delta, mpmath.mpf(0), ""
    if recipe.dummy_rate > 0:
        assert recipe.population is not None  # parse_recipe enforces it
        d, tail = privacy.dummy_margin(recipe.dummy_rate, recipe.population,
                                       DUMMY_TAIL_SHARE * recipe.delta)
        B, delta = recipe.B - d, recipe.delta * (1 - DUMMY_TAIL_SHARE)
        note = (f"; dummies: at most {d} with probability 1 - {mpmath.nstr(tail, 6)}, so at "
                f"least {B} real reports")
        if B < 1:
            return PrivacyStatement("aggregator", mpmath.inf, mpmath.mpf(1),
                                    f"up to {d} of the B = {recipe.B} reports may be dummies: "
                                    "no real report is guaranteed", recipe.accountant)
    base = privacy.shuffle_statement(recipe.accountant, r.name, r.epsilon0(), B, delta,
                                     rappor_bit_eps=r.bit_epsilon() if r.name == "rappor" else None)
    if recipe.dummy_rate == 0:
        return base
    with mpmath.workdps(privacy.DPS):
        return PrivacyStatement("aggregator", base.epsilon, base.delta + tail,
                                base.derivation + note, base.bound, base.fallback)


@privacy.at_working_precision
def count_guarantee(recipe: Recipe) -> PrivacyStatement | None:
    """The guarantee of the released report count ``B'`` (sec. 4.6 of [SA2]) for one device's
    participation (present with a real report, or not selected), at the recipe's epsilon; None
    without dummies.

    The count's noise is the dummies of the *other* non-selected devices; more of them only
    helps. Of the ``population - 1`` others, the number selected is ``Bin(population - 1, q)``;
    with probability ``1 - t`` it is at most its upper quantile ``s``
    (:func:`dpspec.spec.sa2.privacy.dummy_margin`, ``t <= DUMMY_TAIL_SHARE * delta``), leaving at
    least ``population - 1 - s`` non-selected others. The statement is
    :func:`dpspec.spec.sa2.privacy.dummy_count_delta` over that many, plus ``t``.
    """
    if recipe.dummy_rate == 0 or recipe.population is None:
        return None
    n = recipe.population - 1
    s, t = privacy.dummy_margin(recipe.q, n, DUMMY_TAIL_SHARE * recipe.delta)
    base = privacy.dummy_count_statement(recipe.epsilon, recipe.dummy_rate, n - s)
    with mpmath.workdps(privacy.DPS):
        return PrivacyStatement("count", base.epsilon, base.delta + t,
                                base.derivation + f" (at least {n - s} of the {n} other devices "
                                f"not selected, except with probability {mpmath.nstr(t, 6)})",
                                base.bound)


@privacy.at_working_precision
def guarantee(recipe: Recipe) -> PrivacyStatement:
    """The SA2-model guarantee of the recipe's ``(R, Dec, B, q)``: :func:`aggregator_guarantee`
    amplified by Poisson sampling at ``q`` (Theorem 3 of [SA2]); in fixed-size mode, amplified
    by sampling ``B`` of at least ``population`` reports without replacement
    (:func:`dpspec.spec.sa2.privacy.fixed_size_model`). For the federated-learning randomizer,
    all ``rounds`` rounds of Example 5 (:func:`dpspec.spec.sa2.fl.statement`)."""
    if isinstance(recipe.randomizer, GaussianVector):
        return fl.statement(recipe.randomizer, recipe.B, recipe.q, recipe.rounds, recipe.delta)
    if recipe.sampling == "fixed_size":
        assert recipe.population is not None  # parse_recipe enforces it
        return privacy.fixed_size_model(aggregator_guarantee(recipe), recipe.B, recipe.population)
    return privacy.sa2_model(aggregator_guarantee(recipe), recipe.q)


@dataclass
class PrivacyBudget:
    """The on-device accountant of [PFS] sec. 4.3 (checks 1 and 3, basic composition).

    A single-round recipe is charged its claimed epsilon at every check (each is a collection).
    Multi-round tasks (the federated-learning path, Example 5 of [SA2]): a recipe's claim covers
    all its ``rounds``; ``rounds_taken`` counts, per task, the rounds the device has taken part
    in (run its participation coin for). The first round charges the recipe's total epsilon;
    a round beyond ``rounds`` is refused (``rounds_exhausted``): the claim does not cover it."""

    epsilon_allowed: Fraction
    queries_allowed: int
    epsilon_used: Fraction = Fraction(0)
    queries_used: int = 0
    rounds_taken: dict[bytes, int] = field(default_factory=dict)

    def charge(self, epsilon: Fraction) -> None:
        self.epsilon_used += epsilon
        self.queries_used += 1

    def admit(self, recipe: Recipe) -> None:
        """Take part in one collection (one round) of ``recipe``, whose claim has been checked;
        RecipeRefused (``budget_exhausted``, ``rounds_exhausted``) without charging anything."""
        if not isinstance(recipe.randomizer, GaussianVector):  # one collection per check
            self._charge_checked(recipe.epsilon)
            return
        taken = self.rounds_taken.get(recipe.task_id, 0)
        if taken >= recipe.rounds:
            raise RecipeRefused("rounds_exhausted", f"the device took part in all {recipe.rounds} "
                                f"round(s) of task {recipe.task_id.hex()[:16]}...; the claim "
                                "covers no more")
        if taken == 0:
            self._charge_checked(recipe.epsilon)
        self.rounds_taken[recipe.task_id] = taken + 1

    def _charge_checked(self, epsilon: Fraction) -> None:
        if self.epsilon_used + epsilon > self.epsilon_allowed:
            raise RecipeRefused("budget_exhausted", f"epsilon {epsilon} would bring the device "
                                f"to {self.epsilon_used + epsilon} > {self.epsilon_allowed}")
        if self.queries_used + 1 > self.queries_allowed:
            raise RecipeRefused("budget_exhausted",
                                f"the device allows {self.queries_allowed} queries")
        self.charge(epsilon)


@privacy.at_working_precision
def check_recipe(doc: Any, budget: PrivacyBudget,
                 chunk_length: int | None = None) -> tuple[Recipe, PrivacyStatement]:
    """The client's checks before contributing (sec. 4.1; [PFS] sec. 4.3). RecipeRefused if any
    fails; on success the budget is charged the claimed epsilon (whether or not the device's coin
    later selects it: the SA2 guarantee already accounts for sampling) by
    :meth:`PrivacyBudget.admit`, which also counts the rounds of a multi-round recipe.

    The privacy claim is checked with the recipe's accountant *as a theorem*: a bound outside its
    validity region is replaced by a valid one (:mod:`dpspec.spec.sa2.privacy`), an accountant not
    proven for the randomizer is refused (``accountant_not_applicable``), and a claim below the
    valid bound is refused (``privacy_claim_not_met``, with the reason)."""
    recipe, stmt = check_claim(doc, chunk_length)
    budget.admit(recipe)
    return recipe, stmt


@privacy.at_working_precision
def check_claim(doc: Any, chunk_length: int | None = None) -> tuple[Recipe, PrivacyStatement]:
    """:func:`check_recipe` without the budget: the structure and the privacy claim."""
    recipe = check_recipe_structure(doc, chunk_length)
    try:
        stmt = guarantee(recipe)
    except Sa2Error as exc:  # e.g. noise too coarse for the Gaussian accountant
        raise RecipeRefused("privacy_claim_not_met", str(exc)) from exc
    with mpmath.workdps(privacy.DPS):
        over = (stmt.epsilon > mpmath.mpf(recipe.epsilon.numerator) / recipe.epsilon.denominator
                or stmt.delta > mpmath.mpf(recipe.delta.numerator) / recipe.delta.denominator)
    if over:
        why = f" ({stmt.fallback})" if stmt.fallback else ""
        raise RecipeRefused("privacy_claim_not_met",
                            f"for B = {recipe.B} and q = {recipe.q} the {recipe.accountant} "
                            f"accountant gives (eps, delta) = ({mpmath.nstr(stmt.epsilon, 6)}, "
                            f"{mpmath.nstr(stmt.delta, 6)}){why}, above the claimed "
                            f"({recipe.epsilon}, {recipe.delta})")
    return recipe, stmt


def check_recipe_structure(doc: Any, chunk_length: int | None = None) -> Recipe:
    """The checks of :func:`check_recipe` that do not involve the privacy claim or the budget
    (format, VDAF and decoding, keys, dummies, the accountant's applicability). Transcripts of
    the protocol's mechanics on toy cohorts, where no claim can hold, use this alone."""
    recipe = parse_recipe(doc)
    r = recipe.randomizer
    p = recipe.vdaf_params
    chunk = p.get("chunkLength", 1) if chunk_length is None else chunk_length
    if isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 1:
        raise RecipeRefused("vdaf_mismatch", "vdaf.chunkLength must be a positive integer")
    want_dec = expected_decoding(r)
    if recipe.doc.get("decoding") != want_dec:
        raise RecipeRefused("decoding_mismatch", f"randomizer {r.name} is decoded by {want_dec!r}, "
                            f"the recipe says {recipe.doc.get('decoding')!r}")
    want = expected_vdaf_params(r, chunk)
    if p != want:
        raise RecipeRefused("vdaf_mismatch", f"randomizer {r.name} with k = {r.k} needs vdaf {want}, "
                            f"the recipe names {p}")
    if recipe.issuer_key.n.bit_length() < MIN_ISSUER_MODULUS_BITS:
        raise RecipeRefused("weak_issuer_key", f"issuer modulus has {recipe.issuer_key.n.bit_length()} "
                            f"bits; at least {MIN_ISSUER_MODULUS_BITS} required (RFC 9474)")
    if recipe.leader.hpke_public_key == recipe.helper.hpke_public_key:
        raise RecipeRefused("same_aggregator_keys", "leader and helper share a key: no split trust")
    if recipe.dummy_rate > 0 and r.zero_measurement() is None:
        raise RecipeRefused("dummy_unsupported", f"dummy reports need a zero measurement; {r.name} "
                            "(a histogram) has none")
    if recipe.delta <= 0 or recipe.delta >= 1:
        raise RecipeRefused("malformed", "privacy.delta must lie in (0, 1)")
    try:
        privacy.check_applicable(recipe.accountant, r.name)
    except Sa2Error as exc:
        raise RecipeRefused("accountant_not_applicable", str(exc)) from exc
    if recipe.query is not None and recipe.query.size != r.k:
        raise RecipeRefused("query_mismatch", f"the query has {recipe.query.size} buckets, the "
                            f"randomizer k = {r.k}")
    return recipe


def ideal_aggregation(recipe: Recipe, vdaf: Any) -> Aggregation[Any, tuple[int, ...]]:
    """``Dec`` and the sum that Prio3 computes, for the ideal functionality (modulo the field;
    Prio3BoundedL2VecSum's result is the signed sum itself)."""
    r = recipe.randomizer
    if isinstance(r, GaussianVector):
        return ideal.vector_sum(r.dimension, dec=r.dec)
    dim = 1 if r.name == "binary_randomized_response" else r.k
    return ideal.vector_sum(dim, dec=r.dec, modulus=vdaf.field.MODULUS)


# -- messages --------------------------------------------------------------------------------------
def tape_bytes(tape: RandomTape, n: int) -> bytes:
    """``n`` bytes, each ``uniform(256)``."""
    return bytes(tape.uniform(256) for _ in range(n))


def vdaf_ctx(task_id: bytes) -> bytes:
    return PROTOCOL_LABEL + task_id


def hpke_info(role: int) -> bytes:
    return INFO_PREFIX + bytes([ROLE_CLIENT, role])


def hpke_aad(task_id: bytes, B: int, nonce: bytes, public_share: bytes, token: bytes) -> bytes:
    return (PROTOCOL_LABEL + task_id + B.to_bytes(4, "big") + nonce
            + len(public_share).to_bytes(4, "big") + public_share + token)


@dataclass(frozen=True)
class Report:
    """What a client uploads (through the anonymizer): no sender identity."""

    nonce: bytes
    public_share: bytes
    token: bytes
    leader_enc: bytes
    leader_ct: bytes
    helper_enc: bytes
    helper_ct: bytes

    def to_json(self) -> dict[str, str]:
        return {"nonce": self.nonce.hex(), "publicShare": self.public_share.hex(),
                "token": self.token.hex(), "leaderEnc": self.leader_enc.hex(),
                "leaderCiphertext": self.leader_ct.hex(), "helperEnc": self.helper_enc.hex(),
                "helperCiphertext": self.helper_ct.hex()}


def client_report(recipe: Recipe, vdaf: Any, measurement: Any, token: tokens.Token,
                  tape: RandomTape, *, aad_B: int | None = None,
                  encoded_measurement: list[Any] | None = None,
                  deceive: int | None = None,
                  trace: list[dict[str, str]] | None = None) -> Report:
    """Shard ``measurement`` and seal the two input shares (coins: module docstring).

    ``aad_B`` (a different B in the associated data), ``encoded_measurement`` (shard an
    arbitrary field vector, e.g. an invalid one) and ``deceive`` (shard with
    :func:`split_joint_rand_shard`, lying to aggregator ``deceive``) exist to simulate malicious
    clients only. ``trace``, if given, receives the report's intermediate values (for
    transcripts).
    """
    nonce = tape_bytes(tape, vdaf.NONCE_SIZE)
    rand = tape_bytes(tape, vdaf.RAND_SIZE)
    ctx = vdaf_ctx(recipe.task_id)
    if deceive is not None:
        enc = vdaf.flp.encode(measurement) if encoded_measurement is None else encoded_measurement
        public_share, input_shares = split_joint_rand_shard(vdaf, ctx, enc, nonce, rand, deceive)
    elif encoded_measurement is None:
        public_share, input_shares = vdaf.shard(ctx, measurement, nonce, rand)
    else:
        public_share, input_shares = vdaf.shard_encoded(ctx, encoded_measurement, nonce, rand)
    ps = vdaf.encode_public_share(public_share)
    tok = token.encode()
    aad = hpke_aad(recipe.task_id, recipe.B if aad_B is None else aad_B, nonce, ps, tok)
    encs = []
    step: dict[str, str] = {"rand": rand.hex(), "aad": aad.hex()}
    for role, name, info, share in ((ROLE_LEADER, "leader", recipe.leader, input_shares[0]),
                                    (ROLE_HELPER, "helper", recipe.helper, input_shares[1])):
        ikm = tape_bytes(tape, 32)
        plain = vdaf.encode_input_share(share)
        step[f"{name}EphemeralIkm"] = ikm.hex()
        step[f"{name}InputShare"] = plain.hex()
        encs.append(hpke.seal(info.hpke_public_key, hpke_info(role), aad, plain,
                              ephemeral_ikm=ikm))
    report = Report(nonce, ps, tok, encs[0][0], encs[0][1], encs[1][0], encs[1][1])
    if trace is not None:
        trace.append({**step, **report.to_json()})
    return report


# -- aggregators (sec. 4.4, 4.5) --------------------------------------------------------------------
@dataclass
class TaskConfig:
    """What an aggregator is provisioned with for one collection (from the logged recipe)."""

    task_id: bytes
    B: int
    verify_key: bytes
    issuer_key: tokens.PublicKey
    pool: int | None = None
    window: tuple[Fraction, Fraction] | None = None
    max_reports: int | None = None

    def in_window(self, time: Fraction | None) -> bool:
        """App. A: a report is aggregated only if it arrives in ``[t0, t0 + K]``."""
        if self.window is None:
            return True
        if time is None:
            raise Sa2Error("a time-bounded task needs the arrival time of every report")
        t0, K = self.window
        return t0 <= time <= t0 + K


@dataclass
class Aggregator:
    """The leader (agg_id 0) or the helper (agg_id 1)."""

    role: int
    task: TaskConfig
    hpke_private_key: bytes
    vdaf: Any
    tokens_seen: tokens.TokenVerifier = field(init=False)
    agg_share: Any = field(init=False)
    count: int = 0
    accepted: int = 0
    received: int = 0

    def __post_init__(self) -> None:
        # a verify key of another size is a provisioning error, refused here; otherwise every
        # report would fail verification as if it were invalid
        if len(self.task.verify_key) != self.vdaf.VERIFY_KEY_SIZE:
            raise Sa2Error(f"the verify key must have {self.vdaf.VERIFY_KEY_SIZE} bytes, "
                           f"got {len(self.task.verify_key)}")
        self.tokens_seen = tokens.TokenVerifier(self.task.issuer_key, self.task.task_id)
        self.agg_share = self.vdaf.agg_init(None)

    @property
    def agg_id(self) -> int:
        return 0 if self.role == ROLE_LEADER else 1

    def open_report(self, nonce: bytes, public_share: bytes, token: bytes, enc: bytes,
                    ct: bytes) -> tuple[str | None, Any]:
        """Check the token, open the input share, start verification.

        Returns ``(None, (verify_state, verifier_share))`` or ``(reason, None)``.
        """
        v = self.vdaf
        if len(nonce) != v.NONCE_SIZE:
            return "malformed", None
        try:
            tok = tokens.decode_token(token, self.task.issuer_key.modulus_len)
        except tokens.TokenError:
            return "token_malformed", None
        why = self.tokens_seen.check(tok)
        if why is not None:
            return why, None
        aad = hpke_aad(self.task.task_id, self.task.B, nonce, public_share, token)
        try:
            plain = hpke.open_(self.hpke_private_key, enc, hpke_info(self.role), aad, ct)
        except hpke.HpkeError:
            return "decrypt_failed", None
        try:
            pub = v.decode_public_share(public_share)
            share = v.decode_input_share(self.agg_id, plain)
        except ValueError:
            return "decode_failed", None
        try:
            return None, v.verify_init(self.task.verify_key, vdaf_ctx(self.task.task_id),
                                       self.agg_id, None, nonce, pub, share)
        except ValueError:
            return "vdaf_verify_failed", None

    def finish(self, state: Any, message: Any) -> tuple[str | None, Any]:
        """Finish verification (``verify_next``): ``(None, out_share)`` or
        ``("vdaf_verify_failed", None)``. Nothing is counted yet: see :meth:`accept`."""
        try:
            return None, self.vdaf.verify_next(vdaf_ctx(self.task.task_id), state, message)
        except ValueError:
            return "vdaf_verify_failed", None

    def accept(self, out_share: Any) -> None:
        """Count a report both aggregators verified; aggregate its output share unless
        (fixed-size mode) ``B`` reports are already aggregated: then it is counted, not summed."""
        self.accepted += 1
        if self.task.pool is None or self.count < self.task.B:
            self.agg_share = self.vdaf.agg_update(None, self.agg_share, out_share)
            self.count += 1
        return None

    def release(self) -> Any | None:
        """The aggregate share, or None (⊥): each aggregator enforces B itself.

        Poisson mode (sec. 3): at least ``B`` reports aggregated. Fixed-size mode (end of sec. 3):
        exactly ``B`` aggregated -- the first ``B`` accepted in arrival order, which the
        anonymizer's uniform shuffle makes a uniform ``B``-subset -- out of at least ``pool``
        accepted reports."""
        if self.task.max_reports is not None and self.received > self.task.max_reports:
            return None  # rate validation ([SA2] sec. 4.7): a flood of reports, refuse the batch
        if self.task.pool is None:
            return self.agg_share if self.count >= self.task.B else None
        return self.agg_share if self.count == self.task.B and \
            self.accepted >= self.task.pool else None


@dataclass
class BatchOutcome:
    accepted: int
    rejected: Counter[str]
    leader_share: Any | None
    helper_share: Any | None
    verdicts: list[str]
    aggregated: int = -1

    def __post_init__(self) -> None:
        if self.aggregated < 0:
            self.aggregated = self.accepted


def aggregate_batch(leader: Aggregator, helper: Aggregator, reports: Sequence[Report],
                    progress: Callable[[int], None] | None = None,
                    times: Sequence[Fraction] | None = None) -> BatchOutcome:
    """The leader processes reports in arrival order, forwarding the helper's part (sec. 4.4).

    A report is aggregated only if both accept it, so both sum over the same set; that includes
    a report only one aggregator's ``verify_next`` refuses (the reason is ``vdaf_verify_failed``
    for the leader, ``helper_vdaf_verify_failed`` for the helper). ``verdicts``
    lists ``"accepted"`` or the rejection reason per report, in arrival order. ``times`` (the
    arrival time of each report, non-decreasing) is needed by a time-bounded task (App. A):
    each aggregator refuses a report outside ``[t0, t0 + K]`` (``outside_time_window``)
    before opening it.
    """
    if times is not None and (len(times) != len(reports)
                              or any(b < a for a, b in zip(times, times[1:], strict=False))):
        raise Sa2Error("times must give one non-decreasing arrival time per report")
    vdaf = leader.vdaf
    rejected: Counter[str] = Counter()
    verdicts: list[str] = []
    ctx = vdaf_ctx(leader.task.task_id)
    for idx, rep in enumerate(reports):
        if progress is not None:
            progress(idx)
        leader.received += 1
        helper.received += 1
        t = None if times is None else times[idx]
        if not (leader.task.in_window(t) and helper.task.in_window(t)):
            rejected["outside_time_window"] += 1
            verdicts.append("outside_time_window")
            continue
        why, lead = leader.open_report(rep.nonce, rep.public_share, rep.token, rep.leader_enc,
                                       rep.leader_ct)
        if why is None:
            why_h, help_ = helper.open_report(rep.nonce, rep.public_share, rep.token,
                                              rep.helper_enc, rep.helper_ct)
            if why_h is not None:
                why = f"helper_{why_h}"
        if why is None:
            try:
                message = vdaf.verifier_shares_to_message(ctx, None, [lead[1], help_[1]])
            except ValueError:
                why = "vdaf_verify_failed"
        if why is None:
            # Prio3's verify_next fails only on the joint randomness check, and a client can
            # make it fail at one aggregator alone (split_joint_rand_shard): both finish first,
            # and the output shares are kept only if both succeed
            why, out_l = leader.finish(lead[0], message)
            why_h, out_h = helper.finish(help_[0], message)
            if why is None and why_h is not None:
                why = f"helper_{why_h}"
            if why is None:
                leader.accept(out_l)
                helper.accept(out_h)
        if why is None:
            verdicts.append("accepted")
        else:
            rejected[why] += 1
            verdicts.append(why)
    return BatchOutcome(leader.accepted, rejected, leader.release(), helper.release(), verdicts,
                        leader.count)


def collect(vdaf: Any, outcome: BatchOutcome) -> tuple[int, ...] | None:
    """The collector's unshard; None (⊥) if either aggregator refused (fewer than B reports)."""
    if outcome.leader_share is None or outcome.helper_share is None:
        return None
    result = vdaf.unshard(None, [outcome.leader_share, outcome.helper_share], outcome.aggregated)
    return (result,) if isinstance(result, int) else tuple(result)


# -- anonymization (sec. 4.2) ------------------------------------------------------------------------
def anonymize(reports: Sequence[Report], drop_rate: Fraction, network: RandomTape,
              shuffle: RandomTape) -> tuple[list[Report], list[bool]]:
    """Drop each report with probability ``drop_rate`` (one ``dpspec.spec.samplers.bernoulli`` coin per
    report, in order, from ``network``), then deliver the survivors in a uniformly random order
    (Fisher-Yates from ``shuffle``: for ``j = n-1 .. 1``, swap ``j`` with ``uniform(j + 1)``).
    Returns the delivered reports and the per-report drop flags."""
    dropped = [bernoulli(network, drop_rate) == 1 for _ in reports]
    out = [r for r, d in zip(reports, dropped, strict=True) if not d]
    for j in range(len(out) - 1, 0, -1):
        k = shuffle.uniform(j + 1)
        out[j], out[k] = out[k], out[j]
    return out, dropped


# -- setup and the whole collection ------------------------------------------------------------------
@dataclass
class Deployment:
    """Keys and configuration of one collection (provisioned from a setup tape in simulations)."""

    issuer_sk: tokens.PrivateKey
    leader_ikm: bytes
    helper_ikm: bytes
    verify_key: bytes
    leader_hpke: hpke.HpkeKeyPair = field(init=False)
    helper_hpke: hpke.HpkeKeyPair = field(init=False)

    def __post_init__(self) -> None:
        """The HPKE key pairs are DeriveKeyPair(IKM) (RFC 9180 sec. 7.1.3)."""
        self.leader_hpke = hpke.derive_key_pair(self.leader_ikm)
        self.helper_hpke = hpke.derive_key_pair(self.helper_ikm)


def provision(seed: bytes, issuer_bits: int = 2048) -> Deployment:
    """Deterministic keys for a simulation from ``seed`` (tape tag ``sa2/setup``), in order: the
    issuer's RSA key (:func:`dpspec.spec.sa2.tokens.generate_key`), the leader's then the helper's HPKE
    IKM (32 bytes each), the VDAF verify key (32 bytes). FOR SIMULATIONS AND VECTORS ONLY."""
    tape = RandomTape(seed, TAGS["setup"])
    sk = tokens.generate_key(issuer_bits, tape)
    return Deployment(sk, tape_bytes(tape, 32), tape_bytes(tape, 32), tape_bytes(tape, 32))


def check_deployment(recipe: Recipe, dep: Deployment) -> None:
    if recipe.leader.hpke_public_key != dep.leader_hpke.public_key or \
            recipe.helper.hpke_public_key != dep.helper_hpke.public_key or \
            recipe.issuer_key != dep.issuer_sk.public_key():
        raise Sa2Error("the recipe's keys are not those of the provisioned aggregators/issuer "
                       "(generate the recipe from the same seed)")


@dataclass
class CollectionResult:
    release: tuple[int, ...] | None
    outcome: BatchOutcome
    participants: int
    dummies: int
    overweight: int
    sent: int
    dropped: int
    drop_flags: list[bool]
    tokens_issued: int
    reports: list[Report]
    delivered: list[Report]


def malicious_reports(j: int, kind: str, recipe: Recipe, vdaf: Any, attester: tokens.Attester,
                      seed: bytes) -> list[Report]:
    """The reports of malicious device ``j`` (tape ``sa2/malicious/{j}``), by ``kind``:

    * ``invalid_proof``: a real token, but the encoded measurement's first element is 2 (never a
      valid Prio3 encoding), so the proof fails;
    * ``forged_token``: a valid report whose token signature is random bytes;
    * ``replayed_token``: a valid report of the zero-decoding measurement (or R(0)), then a
      second, freshly encrypted report of the same measurement with the same token;
    * ``wrong_B``: a valid report sealed with ``B - 1`` (``B + 1`` when B = 1) in the AAD;
    * ``inflated`` (sec. 4.5): a real token and a report worth more than one honest report: every
      coordinate of the encoded measurement set to 1 (a histogram or multi-hot vector heavier
      than the circuit allows), or the count set to ``B`` for Prio3Count, or, for the Gaussian
      vector randomizer, a vector over the norm bound (:func:`over_norm_encoding`); the proof
      fails.
    """
    tape = RandomTape(seed, TAGS["malicious"].format(j=j))
    pk = recipe.issuer_key
    if kind == "forged_token":
        nonce = tape_bytes(tape, tokens.NONCE_LEN)
        sig = tape_bytes(tape, pk.modulus_len)
        tok = tokens.Token(tokens.token_input(recipe.task_id, nonce), sig)
    else:
        tok = tokens.obtain_token(f"malicious-{j}", attester, pk, recipe.task_id, tape)
    meas = adversary_measurement(recipe, tape)
    if kind == "invalid_proof":
        enc = vdaf.flp.encode(meas)
        enc[0] = vdaf.field(2)
        return [client_report(recipe, vdaf, None, tok, tape, encoded_measurement=enc)]
    if kind == "inflated":
        if isinstance(recipe.randomizer, GaussianVector):
            return [client_report(recipe, vdaf, None, tok, tape,
                                  encoded_measurement=over_norm_encoding(recipe.randomizer, vdaf))]
        enc = vdaf.flp.encode(meas)
        if recipe.randomizer.name == "binary_randomized_response":
            enc[0] = vdaf.field(recipe.B)
        else:
            enc[:recipe.randomizer.k] = [vdaf.field(1)] * recipe.randomizer.k
        return [client_report(recipe, vdaf, None, tok, tape, encoded_measurement=enc)]
    if kind == "wrong_B":
        return [client_report(recipe, vdaf, meas, tok, tape, aad_B=recipe.B - 1 if recipe.B > 1
                              else recipe.B + 1)]
    if kind == "replayed_token":
        return [client_report(recipe, vdaf, meas, tok, tape),
                client_report(recipe, vdaf, meas, tok, tape)]
    if kind == "forged_token":
        return [client_report(recipe, vdaf, meas, tok, tape)]
    raise Sa2Error(f"unknown malicious kind {kind!r}")


def over_norm_encoding(randomizer: GaussianVector, vdaf: Any) -> list[Any]:
    """A Prio3BoundedL2VecSum encoding of the vector whose every entry is ``-2^(bits-1)``
    (squared norm ``d 4^(bits-1)``, above ``normBound`` by the choice of ``bits``) that reports
    the norm ``normBound``: every element is a bit, but the norm check fails."""
    valid = vdaf.flp.valid
    field = valid.field
    return ([field(0)] * (valid.length * valid.bits)
            + encode_range_checked_int(field, valid.norm_bound, valid.norm_bound))


def _gadget_inputs(valid: Any, meas_share: list[Any], joint_rand: list[Any]) -> list[Any]:
    """Per gadget, the input wires (ints, after a zero seed) of the share-wise evaluation of
    ``valid`` on ``meas_share`` (two shares), as the FLP prover records them (sec. 7.3.3)."""
    wrapped = copy.copy(valid)
    shims = [ProveGadget(valid.field, valid.field.zeros(g.ARITY), g, calls)
             for g, calls in zip(valid.GADGETS, valid.GADGET_CALLS, strict=True)]
    wrapped.GADGETS = list(shims)
    wrapped.eval(meas_share, joint_rand, 2)
    return [shim.wires for shim in shims]


def split_joint_rand_shard(vdaf: Any, ctx: bytes, meas: list[Any], nonce: bytes, rand: bytes,
                           deceived: int) -> tuple[list[bytes], list[Any]]:
    """A malicious client's Prio3 shard that one aggregator's joint randomness check refuses and
    the other's accepts, behind a proof that passes (for vectors of :func:`aggregate_batch`).

    Two-share Prio3 with joint randomness (sec. 7.2 of the VDAF draft): aggregator ``i`` takes
    the public share's parts, recomputes its own, queries the proof with the joint randomness of
    that seed, and in ``verify_next`` checks that the seed of the two recomputed parts is the one
    it used. The honest shard of ``meas`` on coins ``(nonce, rand)`` gives the input shares and
    the true parts; the public share here keeps the true part of ``deceived`` (0 the leader, 1
    the helper) but flips the first byte of the other aggregator's part. So ``deceived`` queries
    with joint randomness ``r'`` from a wrong seed and the other with the true ``r``.

    The proof is the FLP proof (sec. 7.3.3; wire seeds from the prove seed of ``rand``, as in
    the honest shard) of the gadget inputs of the two share-wise circuit evaluations added up:
    ``deceived``'s measurement share under ``r'``, the other's under ``r``. The query is linear
    in the shares, so the verifier shares add up to the verifier of those wires, which accepts
    if the circuit output on them is 0. For the bit checks of SumVec, Histogram and
    MultihotCountVec (sec. 7.4.3-7.4.5) that holds when every element of ``meas`` is 1: each
    gadget call's second input ``x - 1`` is 0 in the sum, whatever the first input is. The
    proof check then passes, ``deceived``'s ``verify_next`` fails and the other's succeeds.
    """
    if vdaf.SHARES != 2 or vdaf.PROOFS != 1 or not vdaf.uses_joint_rand:
        raise Sa2Error("split_joint_rand_shard needs a two-share, one-proof Prio3 with joint "
                       "randomness (every VDAF of an SA2 recipe but Prio3Count)")
    if deceived not in (0, 1):
        raise Sa2Error("deceived must be 0 (the leader) or 1 (the helper)")
    parts, shares = vdaf.shard_encoded(ctx, meas, nonce, rand)
    (leader_meas, _, leader_blind), (helper_seed, helper_blind) = shares
    other = 1 - deceived
    lied = list(parts)
    lied[other] = bytes([parts[other][0] ^ 1]) + parts[other][1:]
    true_r = vdaf.joint_rands(ctx, vdaf.joint_rand_seed(ctx, parts))
    lied_r = vdaf.joint_rands(ctx, vdaf.joint_rand_seed(ctx, lied))
    joint = [lied_r, true_r] if deceived == 0 else [true_r, lied_r]  # what each one queries with
    valid, field = vdaf.flp.valid, vdaf.field
    evaluations = [_gadget_inputs(valid, meas_share, joint[agg])
                   for agg, meas_share in enumerate([leader_meas,
                                                     vdaf.helper_meas_share(ctx, 1, helper_seed)])]
    size = vdaf.xof.SEED_SIZE
    seeds = vdaf.prove_rands(ctx, rand[3 * size :])  # the honest shard's prove seed
    proof: list[Any] = []
    for g, calls, lead, help_ in zip(valid.GADGETS, valid.GADGET_CALLS, *evaluations,
                                     strict=True):
        own, seeds = seeds[: g.ARITY], seeds[g.ARITY :]
        wires = [[seed.val] + [(a + b) % field.MODULUS for a, b in zip(x[1:], y[1:], strict=True)]
                 for seed, x, y in zip(own, lead, help_, strict=True)]
        gadget_poly = g.eval_poly(field, wires)
        proof += own
        proof += [field(x) for x in gadget_poly[: gadget_poly_len(g.DEGREE, wire_poly_len(calls))]]
    helper_proof = vdaf.helper_proofs_share(ctx, 1, helper_seed)
    leader_proof = [a - b for a, b in zip(proof, helper_proof, strict=True)]
    return lied, [(leader_meas, leader_proof, leader_blind), (helper_seed, helper_blind)]


def adversary_measurement(recipe: Recipe, tape: RandomTape) -> Any:
    """The (valid) measurement a malicious device puts in its reports: ``R(0)`` (``R`` of the
    zero vector for the Gaussian vector randomizer) on its tape, or the zero-decoding measurement
    if that came out heavier than the circuit allows (RAPPOR's ``max_weight``, the norm bound)."""
    r = recipe.randomizer
    meas = r.apply(r.zero_measurement(), tape) if isinstance(r, GaussianVector) else r.apply(0, tape)
    return recipe.randomizer.zero_measurement() if meas is None else meas


def evenly_spaced(t0: Fraction, spacing: Fraction) -> Callable[[int], list[Fraction]]:
    """Arrival times ``t0, t0 + spacing, t0 + 2 spacing, ...`` (a simulation's clock)."""
    return lambda n: [t0 + i * spacing for i in range(n)]


def run_collection(recipe: Recipe, dep: Deployment, vdaf: Any, data: Sequence[Any], seed: bytes,
                   *, malicious: int = 0, drop_rate: Fraction = Fraction(0),
                   arrival: Callable[[int], list[Fraction]] | None = None,
                   progress: Callable[[str, int, int], None] | None = None,
                   trace: list[dict[str, str]] | None = None,
                   anonymizer: Callable[..., tuple[list[Report], list[bool]]] | None = None,
                   period: int | None = None) -> CollectionResult:
    """One collection: ``len(data)`` honest devices (device ``i`` holds ``data[i]``: a bucket
    index, or a record that the recipe's query maps to one, :meth:`Recipe.bucket`), ``malicious``
    adversarial devices (kinds cycling through :data:`MALICIOUS_KINDS`), the anonymizer, the
    leader and helper, and the collector.

    Coins (tags in :data:`TAGS`): participation ``poisson_sample(len(data), q)`` from
    ``sa2/poisson``; then for each non-participating device in order a ``bernoulli(q')`` dummy coin
    from ``sa2/dummy``; device ``i``'s randomizer from ``sa2/client/{i}/randomizer``, its token
    from ``sa2/client/{i}/token`` and its report from ``sa2/client/{i}/report``. Reports are sent
    in device order (honest devices, then malicious ones) and pass :func:`anonymize` with tapes
    ``sa2/network`` and ``sa2/shuffle``.

    ``arrival(n)`` gives the arrival times of the ``n`` delivered reports (non-decreasing), for a
    recipe with a time window (App. A; e.g. :func:`evenly_spaced`).

    ``anonymizer`` replaces :func:`anonymize` by a callable of the same signature (e.g. the OHTTP
    relay of :class:`dpspec.spec.sa2.ohttp.OhttpAnonymizer`); ``period`` makes the Leader and
    Helper aggregate in periods of that many reports, discarding each period's raw shares
    (:func:`dpspec.spec.sa2.periodic.aggregate_in_periods`). Neither changes the release.

    Simulation note: devices that send nothing fetch no token here; a deployment should have
    every device fetch its token at a random time (sec. 4.3) so the fetch reveals nothing.
    """
    check_deployment(recipe, dep)
    keep = ideal.poisson_sample(len(data), recipe.q, RandomTape(seed, TAGS["participation"]))
    dummy_tape = RandomTape(seed, TAGS["dummy"])
    issuer = tokens.Issuer(dep.issuer_sk)
    attester = tokens.Attester(issuer)
    pk = dep.issuer_sk.public_key()
    reports: list[Report] = []
    participants = dummies = overweight = 0
    zero = recipe.randomizer.zero_measurement()
    for i, x in enumerate(data):
        if progress is not None and i % 1000 == 0:
            progress("clients", i, len(data))
        if keep[i]:
            meas = recipe.randomizer.apply(recipe.bucket(x),
                                           RandomTape(seed, TAGS["randomizer"].format(i=i)))
            participants += 1
            if meas is None:  # heavier than max_weight: not uploaded (sec. 4.5)
                overweight += 1
                continue
        elif recipe.dummy_rate > 0 and bernoulli(dummy_tape, recipe.dummy_rate):
            meas = zero
            dummies += 1
        else:
            continue
        tok = tokens.obtain_token(f"device-{i}", attester, pk, recipe.task_id,
                                  RandomTape(seed, TAGS["token"].format(i=i)))
        reports.append(client_report(recipe, vdaf, meas, tok,
                                     RandomTape(seed, TAGS["report"].format(i=i)), trace=trace))
        if trace is not None:
            trace[-1] = {"sender": f"device {i}" + ("" if keep[i] else " (dummy)"), **trace[-1]}
    for j in range(malicious):
        kind = MALICIOUS_KINDS[j % len(MALICIOUS_KINDS)]
        new = malicious_reports(j, kind, recipe, vdaf, attester, seed)
        reports += new
        if trace is not None:
            trace += [{"sender": f"malicious {j} ({kind})", **r.to_json()} for r in new]
    delivered, dropped = (anonymize if anonymizer is None else anonymizer)(
        reports, drop_rate, RandomTape(seed, TAGS["network"]), RandomTape(seed, TAGS["shuffle"]))
    leader = Aggregator(ROLE_LEADER, recipe.task_config(dep.verify_key),
                        dep.leader_hpke.private_key, vdaf)
    helper = Aggregator(ROLE_HELPER, recipe.task_config(dep.verify_key),
                        dep.helper_hpke.private_key, vdaf)

    def tick(k: int) -> None:
        if progress is not None and k % 100 == 0:
            progress("reports", k, len(delivered))

    times = None if arrival is None else arrival(len(delivered))
    if period is None:
        outcome = aggregate_batch(leader, helper, delivered, tick, times)
    else:
        from dpspec.spec.sa2.periodic import aggregate_in_periods

        outcome = aggregate_in_periods(leader, helper, delivered, period, tick, times)
    return CollectionResult(collect(vdaf, outcome), outcome, participants, dummies, overweight,
                            len(reports),
                            sum(dropped), dropped, issuer.issued, reports, delivered)


# -- the federated-learning path: many rounds (Example 5) -------------------------------------------
def round_seed(seed: bytes, r: int) -> bytes:
    """The seed of round ``r`` of a multi-round simulation: 32 bytes (each ``uniform(256)``)
    from the tape ``(seed, "sa2/fl/round/{r}")``; round ``r`` is :func:`run_collection` with it."""
    return tape_bytes(RandomTape(seed, TAGS["round"].format(r=r)), 32)


@dataclass
class RoundResult:
    """One round: the devices that took part (admitted by their accountant), the refusals by
    reason, and the collection (None when every device refused)."""

    round: int
    admitted: int
    refused: Counter[str]
    result: CollectionResult | None


def run_rounds(recipe: Recipe, dep: Deployment, vdaf: Any,
               updates: Callable[[int], Sequence[Any]], seed: bytes, rounds: int,
               budgets: Sequence[PrivacyBudget], **kw: Any) -> list[RoundResult]:
    """``rounds`` rounds of one task (Example 5 of [SA2]): in round ``r`` device ``i`` holds
    ``updates(r)[i]``; its on-device accountant ``budgets[i]`` admits the round
    (:meth:`PrivacyBudget.admit`: the recipe's total epsilon is charged at the first round, a round
    past ``recipe.rounds`` is refused) or refuses it, and the devices that take part run
    :func:`run_collection` with :func:`round_seed` (device indices are those of the admitted
    devices, in order). ``kw`` goes to :func:`run_collection`."""
    out: list[RoundResult] = []
    for r in range(rounds):
        data = updates(r)
        if len(data) != len(budgets):
            raise Sa2Error("one budget per device")
        taking: list[Any] = []
        refused: Counter[str] = Counter()
        for x, budget in zip(data, budgets, strict=True):
            try:
                budget.admit(recipe)
            except RecipeRefused as exc:
                refused[exc.reason] += 1
                continue
            taking.append(x)
        res = (run_collection(recipe, dep, vdaf, taking, round_seed(seed, r), **kw)
               if taking else None)
        out.append(RoundResult(r, len(taking), refused, res))
    return out
