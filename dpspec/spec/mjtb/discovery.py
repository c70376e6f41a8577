"""Interactive n-gram discovery by prefix-tree refinement ([MJTB+22] sec. 1 and 4).

The algorithm of the paper's introduction, run end to end with the paper's system parts:

* round ``r = 1, 2, ...`` is one query of one analysis, sent as a recipe whose prefix tree holds
  the frequent ``(r-1)``-grams found so far (round 1: the single empty leaf, i.e. 1-grams) and the
  known words (:class:`dpspec.spec.mjtb.recipe.PrefixTree`); the rounds are chained: the
  frequent buckets of round ``r`` become the leaves of round ``r + 1`` (phrases that end, the
  end-token buckets, are discovered but not extended);
* a device invited to round ``r`` runs its on-device budget accountant
  (:class:`dpspec.spec.accounting.budget.Accountant`, sec. 4.3: checks 1-3, and the query-class
  check of sec. 4.2 when the policy has one); it answers only if the accountant allows, and then
  commits the query's cost; its answer is the footnote-3 selection (a matching n-gram, else a
  random bucket) made one-hot and randomized by symmetric RAPPOR with the round's ``eps0``;
* the aggregation releases the sum of the answers only if at least ``min_cohort`` devices answered
  (sec. 3.1.2, the cohort-aggregate guarantee); the server debiases (Algorithm 4) and keeps the
  buckets whose estimate is at least ``z`` standard deviations (Theorem C.2 variance), at most
  ``top_k`` of them, as the next round's leaves.

Every device's accountant starts from the same policy and every device receives the same queries,
so a device's state is a function of how many rounds it answered; the simulation keeps one
accountant per such count (exactly the decisions per-device accountants would make, computed once).

Synthetic data (the paper's keyboard data are not public). A vocabulary of ``V`` words ``w0 ...``;
each device holds one phrase drawn from a Zipf-like language model: the first word has weight
``L // (k + 1)`` for the ``k``-th word (``L = 720720``); after a prefix, the next token is the end
token with weight ``L // 2`` or word ``(k + shift) mod V`` with weight ``L // (k + 1)``, where
``shift = 7 * (sum of the prefix's word indices) + len(prefix)`` (so each prefix has its own
ranking); phrases stop at ``max_order`` words. Sampling is exact: ``tape.uniform(total weight)``.
A device's ``r``-grams are its phrase's first ``r`` words, or the phrase and the end token when the
phrase has ``r - 1`` words.

Recall. The true frequent prefixes are the word sequences of length 1 to ``max_order`` held (as
phrase prefixes) by at least ``tau`` of the devices; the recall after round ``r`` is the fraction
of them discovered by rounds ``1..r``.
"""

from __future__ import annotations

import copy
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import mpmath

from dpspec.spec.accounting.budget import Accountant, Query
from dpspec.spec.mechanisms.rappor import SymmetricRappor
from dpspec.spec.mjtb.recipe import END, PrefixTree, select_bucket
from dpspec.spec.rational import parse_int, parse_rational
from dpspec.spec.tape import RandomTape

#: the numerator of the Zipf-like integer weights
ZIPF_L = 720720
POPULATION_TAG = "dpspec/mjtb/population"
INVITE_TAG = "dpspec/mjtb/invite"
DEVICE_TAG = "dpspec/mjtb/device"
ANALYSIS = "keyboard"
FIELD = "n-gram"


def _weighted(tape: RandomTape, weights: Sequence[int]) -> int:
    u = tape.uniform(sum(weights))
    for i, w in enumerate(weights):
        if u < w:
            return i
        u -= w
    raise AssertionError("unreachable")


def sample_phrase(tape: RandomTape, vocab: int, max_order: int) -> tuple[str, ...]:
    """One device's phrase from the Zipf-like language model (module docstring)."""
    first = [ZIPF_L // (k + 1) for k in range(vocab)]
    idx = [_weighted(tape, first)]
    while len(idx) < max_order:
        shift = 7 * sum(idx) + len(idx)
        w = _weighted(tape, [ZIPF_L // 2] + first)
        if w == 0:
            break
        idx.append((w - 1 + shift) % vocab)
    return tuple(f"w{i}" for i in idx)


def device_ngrams(phrase: tuple[str, ...], order: int) -> list[tuple[str, ...]]:
    """The ``order``-grams a device holds for a prefix-tree query of that order."""
    if len(phrase) >= order:
        return [phrase[:order]]
    if len(phrase) == order - 1:
        return [(*phrase, END)]
    return []


def true_frequent(phrases: Sequence[tuple[str, ...]], tau: Fraction) -> set[tuple[str, ...]]:
    """Word sequences held as phrase prefixes by at least ``tau`` of the devices."""
    c: Counter[tuple[str, ...]] = Counter()
    for p in phrases:
        for r in range(1, len(p) + 1):
            c[p[:r]] += 1
    n = len(phrases)
    return {g for g, k in c.items() if k >= tau * n}


@dataclass(frozen=True)
class DiscoveryParams:
    """Parameters of one run (recorded with every experiment row)."""

    devices: int = 5000
    vocab: int = 20
    max_order: int = 3
    rounds: int = 3
    eps0: Fraction = Fraction(1)          # each round's symmetric RAPPOR (deletion-model eps0)
    eps: Fraction = Fraction(1)           # cohort-aggregate budget claimed per round
    min_cohort: int = 1000
    eps_allowed: Fraction = Fraction(3)   # the analysis's (and field's) cohort budget
    k_allowed: int = 10
    eps_local_allowed: Fraction = Fraction(8)
    delta: Fraction = Fraction(1, 10**6)
    invite: Fraction = Fraction(1)        # probability a device is asked in a round
    z: Fraction = Fraction(3)             # threshold in standard deviations
    top_k: int = 8
    tau: Fraction = Fraction(1, 50)       # true-frequency threshold for recall

    def policy(self) -> Accountant:
        from dpspec.spec.accounting.budget import AnalysisBudget, FieldBudget

        # symmetric RAPPOR is eps0-DP in the deletion model (MJTB+22 App. C): check 3 uses the
        # deletion-model form of Theorem 3.1
        acc = Accountant(self.delta, bound="closed", local_model="deletion")
        acc.analyses[ANALYSIS] = AnalysisBudget(self.eps_allowed, self.k_allowed)
        acc.fields[FIELD] = FieldBudget(self.eps_local_allowed, self.eps_allowed, self.k_allowed)
        return acc

    def to_dict(self) -> dict[str, str]:
        return {k: str(v) for k, v in self.__dict__.items()}

    @staticmethod
    def from_json(doc: Any) -> DiscoveryParams:
        """Parameters from JSON (camelCase keys; a missing key takes the default). Checked in
        the order of :data:`PARAM_LIMITS`: integers in their ranges, rationals (strings) in
        theirs; an unknown key or a wrong type is a ValueError."""
        if not isinstance(doc, dict):
            raise ValueError("params must be an object")
        unknown = sorted(set(doc) - set(PARAM_LIMITS))
        if unknown:
            raise ValueError(f"unknown discovery parameter {unknown[0]!r}")
        out: dict[str, Any] = {}
        for key, (attr, kind, low, high, low_open) in PARAM_LIMITS.items():
            if key not in doc:
                continue
            value = doc[key]
            if kind == "int":
                x: Any = parse_int(value, key)
            else:
                x = parse_rational(value, key)
            if x < low or (low_open and x == low) or (high is not None and x > high):
                lo = f"({low}" if low_open else f"[{low}"
                raise ValueError(f"{key} must be in {lo}, {high if high is not None else 'inf'}]")
            out[attr] = x
        return DiscoveryParams(**out)


#: JSON key -> (attribute, kind, lower limit, upper limit or None, lower limit excluded)
PARAM_LIMITS: dict[str, tuple[str, str, Any, Any, bool]] = {
    "devices": ("devices", "int", 1, 100_000, False),
    "vocab": ("vocab", "int", 1, 1000, False),
    "maxOrder": ("max_order", "int", 1, 8, False),
    "rounds": ("rounds", "int", 1, 8, False),
    "eps0": ("eps0", "rational", 0, 64, True),
    "eps": ("eps", "rational", 0, 1000, True),
    "minCohort": ("min_cohort", "int", 1, 10**6, False),
    "epsAllowed": ("eps_allowed", "rational", 0, 1000, True),
    "kAllowed": ("k_allowed", "int", 1, 1000, False),
    "epsLocalAllowed": ("eps_local_allowed", "rational", 0, 1000, True),
    "delta": ("delta", "rational", 0, Fraction(1, 2), True),
    "invite": ("invite", "rational", 0, 1, True),
    "z": ("z", "rational", 0, 100, False),
    "topK": ("top_k", "int", 1, 1000, False),
    "tau": ("tau", "rational", 0, 1, True),
}


@dataclass
class RoundRecord:
    """What one round did."""

    round: int
    leaves: int
    buckets: int
    invited: int
    refused: int
    answered: int
    released: bool
    found: list[tuple[str, ...]] = field(default_factory=list)
    cohort_eps: float | None = None
    refusal: str = ""
    recall: float = 0.0
    counts: list[int] = field(default_factory=list)  # the noisy sum of the answers, per bucket


@dataclass
class DiscoveryResult:
    params: DiscoveryParams
    truth: set[tuple[str, ...]]
    discovered: set[tuple[str, ...]]
    rounds: list[RoundRecord]
    spent: dict[int, int]  # rounds answered -> number of devices

    def recall(self) -> float:
        return len(self.truth & self.discovered) / len(self.truth) if self.truth else 1.0


def run_discovery(params: DiscoveryParams, seed: bytes) -> DiscoveryResult:
    """Run the interactive algorithm (module docstring) on a synthetic population from ``seed``."""
    pop = RandomTape(seed, POPULATION_TAG)
    phrases = [sample_phrase(pop, params.vocab, params.max_order) for _ in range(params.devices)]
    truth = true_frequent(phrases, params.tau)
    words = tuple(f"w{i}" for i in range(params.vocab))
    rappor = SymmetricRappor(params.eps0)
    invite = RandomTape(seed, INVITE_TAG)
    answered_count = [0] * params.devices
    states: dict[int, Accountant] = {0: params.policy()}
    leaves: list[tuple[str, ...]] = [()]
    discovered: set[tuple[str, ...]] = set()
    records: list[RoundRecord] = []
    for r in range(1, params.rounds + 1):
        if not leaves or r > params.max_order:
            break
        tree = PrefixTree(tuple(leaves), words)
        query = Query.make(ANALYSIS, [FIELD], params.eps0, params.eps, params.min_cohort,
                           f"ngram-{r}")
        rec = RoundRecord(r, len(leaves), tree.count, 0, 0, 0, False)
        decisions: dict[int, Any] = {}
        counts = [0] * tree.count
        for i in range(params.devices):
            if params.invite < 1 and invite.uniform(params.invite.denominator) >= \
                    params.invite.numerator:
                continue
            rec.invited += 1
            k = answered_count[i]
            if k not in decisions:
                decisions[k] = states[k].check(query)
            d = decisions[k]
            if not d.allowed:
                rec.refused += 1
                rec.refusal = d.reason
                continue
            rec.cohort_eps = d.cohort_eps
            if k + 1 not in states:
                nxt = copy.deepcopy(states[k])
                nxt.commit(query)
                states[k + 1] = nxt
            answered_count[i] = k + 1
            rec.answered += 1
            tape = RandomTape(seed + r.to_bytes(2, "big") + i.to_bytes(4, "big"), DEVICE_TAG)
            b = select_bucket(tree, device_ngrams(phrases[i], r), tape)
            flips = set(rappor.flip_positions(tree.count, tape))
            counts[b] += 1
            for j in flips:
                counts[j] += -1 if j == b else 1
        rec.counts = counts
        rec.released = rec.answered >= params.min_cohort
        if rec.released:
            est = rappor.debias(counts, rec.answered)
            with mpmath.workdps(30):
                sd = mpmath.sqrt(rappor.debiased_variance(rec.answered))
                thr = mpmath.mpf(params.z.numerator) / params.z.denominator * sd
                ranked = sorted((g for g in range(tree.count)
                                 if tree.label(g) is not None and est[g] >= thr),
                                key=lambda g: (-est[g], g))[:params.top_k]
            rec.found = [lbl for g in ranked if (lbl := tree.label(g)) is not None]
            for lbl in rec.found:
                discovered.add(lbl[:-1] if lbl[-1] == END else lbl)
            leaves = [lbl for lbl in rec.found if lbl[-1] != END]
        else:
            leaves = []
        rec.recall = len(truth & discovered) / len(truth) if truth else 1.0
        records.append(rec)
    discovered.discard(())
    spent = dict(sorted(Counter(answered_count).items()))
    return DiscoveryResult(params, truth, discovered, records, spent)


def round_eps(eps0: Fraction, min_cohort: int, delta: Fraction) -> Fraction:
    """The cohort-aggregate epsilon a round claims: the deletion-model Theorem 3.1 bound
    (:func:`dpspec.spec.accounting.budget.cohort_epsilon_deletion`) for ``min_cohort`` reports,
    rounded up to 3 decimals (so check 3 passes at exactly that cohort size)."""
    from dpspec.spec.accounting.budget import cohort_epsilon_deletion

    e = cohort_epsilon_deletion(eps0, min_cohort, delta, "closed").eps
    return Fraction(math.ceil(e * 1000), 1000)


def recall_experiment(seed: bytes, devices: int, rounds: int,
                      eps0_grid: Sequence[Fraction] = (Fraction(1, 2), Fraction(1)),
                      budget_grid: Sequence[Fraction] = (Fraction(1), Fraction(2), Fraction(3)),
                      *, min_cohort: int) -> list[dict[str, Any]]:
    """Recall against rounds and budget: for each local ``eps0`` and analysis budget
    ``eps_allowed``, run the algorithm with the per-round cohort epsilon of :func:`round_eps`
    and record, after each round, whether devices answered and the recall so far. The sizes
    (``devices``, ``rounds``, ``min_cohort``) are the caller's (``dpspec experiment mjtb``: 5000,
    3 and 1000 by default)."""
    rows: list[dict[str, Any]] = []
    for eps0 in eps0_grid:
        for allowed in budget_grid:
            base = DiscoveryParams()
            eps = round_eps(eps0, min_cohort, base.delta)
            p = DiscoveryParams(devices=devices, rounds=rounds, max_order=rounds, eps0=eps0,
                                eps=eps, min_cohort=min_cohort, eps_allowed=allowed)
            res = run_discovery(p, seed)
            recalls = [rec.recall for rec in res.rounds]
            answered = [rec.answered for rec in res.rounds]
            while len(recalls) < rounds:  # the algorithm stopped early (nothing to extend)
                recalls.append(recalls[-1] if recalls else 0.0)
                answered.append(0)
            rows.append({"eps0": str(eps0), "eps_per_round": f"{float(eps):.3f}",
                         "eps_allowed": str(allowed),
                         "recall_by_round": recalls, "answered_by_round": answered,
                         "true_frequent": len(res.truth), "params": p.to_dict()})
    return rows
