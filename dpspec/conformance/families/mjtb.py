"""Vector family ``mjtb``: the recipe encoding of [MJTB+22] App. B / Figure 4
(dpspec.spec.mjtb.recipe): the bin a device's (age, n-grams) maps to, with footnote 3's random
bucket when no n-gram matches; and the interactive n-gram discovery of sec. 1 and 4
(dpspec.spec.mjtb.discovery): population, rounds, accountant decisions, noisy sums and findings."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

from dpspec.conformance.jsonargs import COUNT, HEX, hex_arg
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
from dpspec.spec.mjtb.discovery import (
    DEVICE_TAG,
    INVITE_TAG,
    PARAM_LIMITS,
    POPULATION_TAG,
    ZIPF_L,
    DiscoveryParams,
    recall_experiment,
    round_eps,
    run_discovery,
    sample_phrase,
)
from dpspec.spec.mjtb.recipe import END, AgeBuckets, PrefixTree, Recipe, figure4_recipe
from dpspec.spec.rational import format_rational, parse_int, parse_rational
from dpspec.spec.tape import RandomTape

SCHEMA = "mjtb_recipe-v1.json"
TAG = "dpspec/mjtb/encode"


def encode(args: dict[str, Any]) -> dict[str, Any]:
    r = figure4_recipe()
    age = args["age"]
    if age is not None and (isinstance(age, bool) or not isinstance(age, int)):
        raise ValueError("age must be an integer or null")
    grams = args["ngrams"]
    if not isinstance(grams, list) or not all(
            isinstance(g, list) and all(isinstance(w, str) for w in g) for g in grams):
        raise ValueError("ngrams must be a list of lists of strings")
    tape = RandomTape(hex_arg(args, "seed"), TAG)
    matched = any(r.ngrams.bucket(g) is not None for g in grams)
    g = r.select(grams, tape)
    a = r.ages.bucket(age)
    return {"ageBucket": a, "ngramBucket": g, "bin": r.bin(a, g), "matched": matched,
            "bitsConsumed": tape.bits_consumed}


def _in_force(params: DiscoveryParams) -> dict[str, Any]:
    """The parameters in force, as JSON (integers, rationals as strings)."""
    return {key: (getattr(params, attr) if kind == "int"
                  else format_rational(getattr(params, attr)))
            for key, (attr, kind, *_rest) in PARAM_LIMITS.items()}


def discovery(args: dict[str, Any]) -> dict[str, Any]:
    params = DiscoveryParams.from_json(args["params"])
    res = run_discovery(params, hex_arg(args, "seed"))
    pop = RandomTape(hex_arg(args, "seed"), POPULATION_TAG)
    phrases = [list(sample_phrase(pop, params.vocab, params.max_order))
               for _ in range(params.devices)]
    rounds = [{"round": r.round, "leaves": r.leaves, "buckets": r.buckets, "invited": r.invited,
               "refused": r.refused, "refusal": r.refusal, "answered": r.answered,
               "released": r.released, "counts": r.counts, "found": [list(g) for g in r.found]}
              for r in res.rounds]
    return {"params": _in_force(params), "phrases": phrases, "truth": sorted(list(g) for g in res.truth),
            "rounds": rounds, "discovered": sorted(list(g) for g in res.discovered),
            "spent": [[k, n] for k, n in res.spent.items()]}


def _check_age_and_ngrams(args: dict[str, Any]) -> tuple[int | None, list[list[str]]]:
    age = args["age"]
    if age is not None and (isinstance(age, bool) or not isinstance(age, int)):
        raise ValueError("age must be an integer or null")
    grams = args["ngrams"]
    if not isinstance(grams, list) or not all(
            isinstance(g, list) and all(isinstance(w, str) for w in g) for g in grams):
        raise ValueError("ngrams must be a list of lists of strings")
    return age, grams


def _strings(value: Any, what: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(w, str) for w in value):
        raise ValueError(f"{what} must be a list of strings")
    return tuple(value)


def recipe(args: dict[str, Any]) -> dict[str, Any]:
    """Figure 4's recipe with the age buckets and the prefix tree given: its App. B form, the
    label of every n-gram bucket, and a device's one-hot vector (Recipe.encode)."""
    bounds = args["ageBoundaries"]
    if not isinstance(bounds, list) or not all(
            isinstance(b, int) and not isinstance(b, bool) for b in bounds):
        raise ValueError("ageBoundaries must be a list of integers")
    leaves = args["leaves"]
    if not isinstance(leaves, list):
        raise ValueError("leaves must be a list of lists of strings")
    tree = PrefixTree(tuple(_strings(x, "a leaf") for x in leaves), _strings(args["words"], "words"))
    r: Recipe = dataclasses.replace(figure4_recipe(), ages=AgeBuckets(tuple(bounds)), ngrams=tree)
    age, grams = _check_age_and_ngrams(args)
    tape = RandomTape(hex_arg(args, "seed"), TAG)
    v = r.encode(age, grams, tape)
    labels = [None if (lbl := tree.label(g)) is None else list(lbl) for g in range(tree.count)]
    return {"recipe": r.to_dict(), "labels": labels, "length": len(v),
            "ones": [i for i, x in enumerate(v) if x == 1], "bitsConsumed": tape.bits_consumed}


def discovery_recall(args: dict[str, Any]) -> dict[str, Any]:
    """What mjtb.discovery leaves out: each round's cohort epsilon (the accountant's Theorem 3.1
    value for the query, null if no device answered) and the recall after each round and overall."""
    params = DiscoveryParams.from_json(args["params"])
    res = run_discovery(params, hex_arg(args, "seed"))
    return {"params": _in_force(params),
            "rounds": [{"round": r.round, "recall": r.recall,
                        "cohortEps": None if r.cohort_eps is None else f"{r.cohort_eps:.9g}"}
                       for r in res.rounds],
            "trueFrequent": len(res.truth), "recall": res.recall()}


def _bounded(value: Any, key: str, kind: str, low: Any, high: Any) -> Any:
    x = parse_int(value, key) if kind == "int" else parse_rational(value, key)
    if x < low or x > high or (kind == "rational" and x == 0):
        raise ValueError(f"{key} out of range")
    return x


#: mjtb.recall_experiment: JSON key -> (argument, kind, lower, upper); a missing grid takes its
#: default, the other keys are required
EXPERIMENT_ARGS: dict[str, tuple[str, str, Any, Any]] = {
    "devices": ("devices", "int", 1, 100_000), "rounds": ("rounds", "int", 1, 8),
    "eps0Grid": ("eps0_grid", "rational", 0, 64), "budgetGrid": ("budget_grid", "rational", 0, 1000),
    "minCohort": ("min_cohort", "int", 1, 10**6),
}


def recall_rows(args: dict[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(args) - set(EXPERIMENT_ARGS) - {"seed"})
    if unknown:
        raise ValueError(f"unknown argument {unknown[0]!r}")
    kw: dict[str, Any] = {}
    for key, (name, kind, low, high) in EXPERIMENT_ARGS.items():
        if key not in args:
            if not key.endswith("Grid"):
                raise ValueError(f"{key} is required")
            continue
        if key.endswith("Grid"):
            if not isinstance(args[key], list) or not args[key]:
                raise ValueError(f"{key} must be a non-empty list")
            kw[name] = tuple(_bounded(x, key, kind, low, high) for x in args[key])
        else:
            kw[name] = _bounded(args[key], key, kind, low, high)
    return {"rows": recall_experiment(hex_arg(args, "seed"), **kw)}


HEADER = [
    "Source: McMillan, Javidbakht, Talwar, Briggs, Chatzidakis, Chen, Duchi, Feldman, Goren,"
    " Hesse, Jina, Katti, Liu, Lyford, Meyer, Palmer, Park, Pauls, Pellegrin, Shankar, Gao, Wong,"
    " 'Private Federated Statistics in an Interactive Setting' (2022), [MJTB+22], App. B, Figure 4.",
    "The recipe is figure4_recipe() of dpspec.spec.mjtb.recipe: ages [10,20), [20,30), ...,"
    " [70,80) plus OOV (bucket 0); a prefix tree with leaves (hello, world), (good, morning),"
    " (i, got) and known words a, the, world, you, it, up, to, my, and; 272 bins.",
    f"n-gram buckets: 0 = global OOV; leaf i: 1 + 11 i = end token ('{END}' as the last token),"
    " + 1 = the leaf's OOV (unknown next word), + 2 + w = known word w. bin = 34 ageBucket +"
    " ngramBucket.",
    f"mjtb.encode: tape = RandomTape(seed, '{TAG}'); the matching n-grams (prefix a leaf), in input"
    " order, are mapped to buckets; if any, the device picks matches[uniform(#matches)]; if none"
    " (footnote 3), it sends ngramBucket = uniform(34). Every n-gram must have 3 tokens.",
    VECTOR_SEED_HEADER + ".",
]

DISCOVERY_HEADER = [
    "Source: [MJTB+22] sec. 1 and 4 (the interactive algorithm: n-gram discovery by prefix-tree"
    " refinement, rounds chained through recipes, the on-device accountant of sec. 4.3 deciding"
    " participation); dpspec.spec.mjtb.discovery, whose module docstring is normative here.",
    "params (camelCase, each optional, default in brackets): devices [5000] integer 1..100000,"
    " vocab [20] 1..1000, maxOrder [3] 1..8, rounds [3] 1..8, eps0 [1] rational in (0, 64],"
    " eps [1] (0, 1000], minCohort [1000] 1..10^6, epsAllowed [3] (0, 1000], kAllowed [10]"
    " 1..1000, epsLocalAllowed [8] (0, 1000], delta [1/10^6] (0, 1/2], invite [1] (0, 1],"
    " z [3] [0, 100], topK [8] 1..1000, tau [1/50] (0, 1]; checked in this order; an unknown key"
    " is invalid. `params` echoes the parameters in force (integers, rationals as strings).",
    f"population: tape (seed, '{POPULATION_TAG}'); device i's phrase: first word k with weight"
    f" {ZIPF_L} // (k + 1), then end token (weight {ZIPF_L} // 2, the phrase stops) or word"
    f" (k + shift) mod V with weight {ZIPF_L} // (k + 1), shift = 7 * (sum of the prefix's word"
    " indices) + len(prefix), each choice uniform(total weight) over the weights in order (end"
    " token first); at most maxOrder words. `phrases` lists them; `truth` the prefixes held by at"
    " least tau * devices devices.",
    f"round r: the recipe's prefix tree has the previous round's non-ending findings as leaves"
    f" (round 1: the empty leaf) and the words w0..w(V-1); invitation (only when invite < 1):"
    f" tape (seed, '{INVITE_TAG}'), device invited iff uniform(den) < num, in device order;"
    f" accountant decisions per rounds-answered count (the budget accountant of"
    f" dpspec.spec.accounting.budget, deletion-model closed form, analysis 'keyboard', field"
    f" 'n-gram'); an answering device uses tape (seed || r (2 bytes) || i (4 bytes),"
    f" '{DEVICE_TAG}'): footnote-3 bucket selection, then symmetric RAPPOR flip positions at"
    " eps0; `counts` is the per-bucket noisy sum.",
    "release iff answered >= minCohort; then buckets with a label whose debiased estimate is at"
    " least z standard deviations (Theorem C.2 variance), ranked by estimate then index, at most"
    " topK, are `found` (labels; the end token ends a phrase: discovered, not extended).",
    VECTOR_SEED_HEADER + ".",
]

RECIPE_HEADER = [
    "Source: [MJTB+22] App. B (the recipe's fields; the data content type: features and their"
    " buckets) and Figure 4; dpspec.spec.mjtb.recipe.",
    "mjtb.recipe: figure4_recipe() with its age buckets (ageBoundaries b_0 < ... < b_k: OOV = 0,"
    " [b_i, b_(i+1)) = i + 1) and its prefix tree (leaves: distinct, all of one length n - 1;"
    f" words: distinct, never '{END}') replaced. n-gram buckets: 0 = global OOV; leaf i:"
    " 1 + i (2 + W) = end token, + 1 = the leaf's OOV, + 2 + w = known word w. bin = ageBucket *"
    " (n-gram buckets) + ngramBucket.",
    "`recipe` is the App. B form (Recipe.to_dict); `labels[g]` the n-gram bucket g stands for"
    f" (null for an OOV bucket, '{END}' as the last token for an end-token bucket); `ones` the"
    " positions of the ones in the device's one-hot vector of `length` bins, selected as in"
    f" mjtb.encode (tape = RandomTape(seed, '{TAG}')).",
    VECTOR_SEED_HEADER + ".",
]

RECIPE_NOTES = {"BadRecipe": "Age boundaries: at least two, increasing integers; leaves: at least"
                             " one, all of one length, distinct; words: distinct, not the end"
                             " token.",
                "BadNgram": "Every n-gram has the tree's order (leaf length + 1) of tokens."}

RECALL_HEADER = [
    "Source: [MJTB+22] sec. 1 and 4; dpspec.spec.mjtb.discovery (module docstring: the recall).",
    "mjtb.discovery_recall: the run of mjtb.discovery (same inputs, same parameter checks, the same"
    " `params` echo); per"
    " round the cohort epsilon the accountant computed for the round's query (the deletion-model"
    " closed form of Theorem 3.1 at eps0, minCohort, delta, a decimal string of 9 significant"
    " digits; null when no device answered) and the"
    " recall after the round (true frequent prefixes discovered by rounds 1..r over their number,"
    " 1 when there are none); `recall` after the last round.",
    "mjtb.recall_experiment: recall_experiment(seed, devices, rounds, eps0Grid [1/2, 1],"
    " budgetGrid [1, 2, 3], minCohort) (devices, rounds and minCohort required, ranges as in"
    " mjtb.discovery; a grid non-empty, eps0 in (0, 64], budgets in (0, 1000]): for each eps0"
    " and each budget"
    " epsAllowed, a run with maxOrder = rounds and eps = round_eps(eps0, minCohort, 1/10^6)"
    " (Theorem 3.1 rounded up to 3 decimals); recall_by_round and answered_by_round padded to"
    " `rounds` when the run stopped early (last recall repeated, 0 answered).",
    VECTOR_SEED_HEADER + ".",
]

DISCOVERY_NOTES = {"Refused": "The on-device accountant refuses a round (budget or query count).",
                   "NotReleased": "Fewer than minCohort devices answered: nothing released.",
                   "Invite": "Only some devices are invited (invite < 1).",
                   "BadParameter": "A parameter fails its type or range check."}

NOTES = {"BadNgram": "Every n-gram of a 3-gram query has exactly 3 tokens.",
         "BadAge": "The age is an integer or null (unknown: OOV).",
         "BadSeed": "The seed must have 16 to 255 bytes."}



def _discovery_base() -> tuple[str, dict[str, Any]]:
    """The per-round epsilon of the discovery and recall vectors (round_eps for eps0 4, 100
    devices, delta 1e-6) and their base parameters: 400 devices, 3 rounds of 3-grams over 6
    words, every budget ample."""
    eps = format_rational(round_eps(Fraction(4), 100, Fraction(1, 10**6)))
    return eps, {"devices": 400, "vocab": 6, "maxOrder": 3, "rounds": 3, "eps0": "4", "eps": eps,
                 "minCohort": 100, "epsAllowed": "100", "epsLocalAllowed": "100"}

class MjtbFamily(Family):
    name = "mjtb"
    summary = "MJTB+22 App. B / Figure 4 recipe encoding (272 bins, footnote 3)"

    def handlers(self) -> dict[str, Handler]:
        return {"mjtb.encode": encode, "mjtb.discovery": discovery, "mjtb.recipe": recipe,
                "mjtb.discovery_recall": discovery_recall, "mjtb.recall_experiment": recall_rows}

    def schemas(self) -> dict[str, dict[str, Any]]:
        ops: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
            "mjtb.encode": (
                {"properties": {"seed": HEX, "age": {"type": ["integer", "null", "boolean",
                                                              "string"]},
                                "ngrams": {"type": "array"}}},
                {"type": "object", "required": ["ageBucket", "ngramBucket", "bin", "matched",
                                                "bitsConsumed"],
                 "properties": {"ageBucket": COUNT, "ngramBucket": COUNT, "bin": COUNT,
                                "matched": {"type": "boolean"}, "bitsConsumed": COUNT}}),
            "mjtb.discovery": (
                {"properties": {"seed": HEX, "params": {"type": ["object", "array", "string",
                                                                  "null", "integer"]}}},
                {"type": "object", "required": ["params", "phrases", "truth", "rounds",
                                                "discovered", "spent"],
                 "properties": {"params": {"type": "object"}, "phrases": {"type": "array"},
                                "truth": {"type": "array"},
                                "rounds": {"type": "array"}, "discovered": {"type": "array"},
                                "spent": {"type": "array"}}}),
            "mjtb.recipe": (
                {"properties": {"seed": HEX, "ageBoundaries": {"type": ["array", "string"]},
                                "leaves": {"type": ["array", "string"]},
                                "words": {"type": ["array", "string"]},
                                "age": {"type": ["integer", "null", "boolean", "string"]},
                                "ngrams": {"type": "array"}}},
                {"type": "object", "required": ["recipe", "labels", "length", "ones",
                                                "bitsConsumed"],
                 "properties": {"recipe": {"type": "object"}, "labels": {"type": "array"},
                                "length": COUNT, "ones": {"type": "array"},
                                "bitsConsumed": COUNT}}),
            "mjtb.discovery_recall": (
                {"properties": {"seed": HEX, "params": {"type": ["object", "array", "string",
                                                                  "null", "integer"]}}},
                {"type": "object", "required": ["params", "rounds", "trueFrequent", "recall"],
                 "properties": {"params": {"type": "object"}, "rounds": {"type": "array"},
                                "trueFrequent": COUNT,
                                "recall": {"type": "number"}}}),
            "mjtb.recall_experiment": (
                {"properties": {"seed": HEX, "devices": {"type": ["integer", "string"]},
                                "rounds": {"type": ["integer", "string"]},
                                "minCohort": {"type": ["integer", "string"]},
                                "eps0Grid": {"type": ["array", "string"]},
                                "budgetGrid": {"type": ["array", "string"]}}},
                {"type": "object", "required": ["rows"],
                 "properties": {"rows": {"type": "array"}}}),
        }
        return {SCHEMA: family_schema(SCHEMA, "MJTB+22 recipe encoding and discovery vectors",
                                      ops)}

    def files(self) -> list[VectorFile]:
        tc = TestNumberer()
        cases: list[tuple[str, dict[str, Any]]] = [
            ("one matching known word", {"age": 35, "ngrams": [["i", "got", "up"]]}),
            ("end token: the leaf was a whole phrase", {"age": 20, "ngrams": [["hello", "world", END]]}),
            ("unknown next word: the leaf's OOV", {"age": 79, "ngrams": [["good", "morning", "sunshine"]]}),
            ("age below every interval: age OOV", {"age": 9, "ngrams": [["i", "got", "it"]]}),
            ("age 80 is outside [70, 80): age OOV", {"age": 80, "ngrams": [["i", "got", "it"]]}),
            ("unknown age", {"age": None, "ngrams": [["hello", "world", "you"]]}),
            ("three matches, one chosen uniformly",
             {"age": 44, "ngrams": [["hello", "world", "a"], ["x", "y", "z"],
                                    ["good", "morning", END], ["i", "got", "my"]]}),
        ]
        for i in range(4):
            cases.append((f"no match (footnote 3): a uniformly random bucket, seed {i}",
                          {"age": 50, "ngrams": [["no", "such", "prefix"]]}))
        cases.append(("no n-grams at all (footnote 3)", {"age": 61, "ngrams": []}))
        tests = []
        for j, (label, inputs) in enumerate(cases):
            full = {"seed": vector_seed(f"mjtb/encode/{j}").hex(), **inputs}
            tests.append(test_entry(tc(), label, full, encode(full)))
        seed = vector_seed("mjtb/encode/bad").hex()
        invalid: list[InvalidCase] = [
            ("a 2-gram in a 3-gram query", {"age": 30, "ngrams": [["hello", "world"]]}, "BadNgram"),
            ("age given as a string", {"age": "30", "ngrams": []}, "BadAge"),
            ("15-byte seed", {"age": 30, "ngrams": [], "seed": "00" * 15}, "BadSeed"),
        ]
        tests += invalid_tests(tc, encode, {}, [(label, {"seed": seed, **inputs}, flag)
                                                 for label, inputs, flag in invalid])
        return [self._discovery_file(), self._recall_file(), self._recipe_file(),
                self.vector_file("mjtb/recipe_encoding.json",
                                 algorithm="MJTB+22 recipe encoding (App. B, Figure 4)",
                                 schema=SCHEMA, header=HEADER, notes=NOTES,
                                 groups=[{"op": "mjtb.encode", "params": {}, "tests": tests}])]

    def _discovery_file(self) -> VectorFile:
        tc = TestNumberer()
        eps, base = _discovery_base()
        cases: list[tuple[str, dict[str, Any], list[str]]] = [
            ("three rounds, every device answers every round", base, []),
            ("the analysis budget allows one round: round 2 refused",
             {**base, "epsAllowed": eps}, ["Refused"]),
            ("the query count allows two rounds", {**base, "kAllowed": 2}, ["Refused"]),
            ("eps0 4 above the field's local budget 3: refused from round 1",
             {**base, "epsLocalAllowed": "3"}, ["Refused"]),
            ("eps0 4 at exactly the field's local budget: answered",
             {**base, "epsLocalAllowed": "4", "rounds": 1}, []),
            ("fewer than minCohort answers: nothing released, the algorithm stops",
             {**base, "minCohort": 401}, ["NotReleased"]),
            ("exactly minCohort answers: released", {**base, "minCohort": 400}, []),
            ("half of the devices invited per round",
             {**base, "invite": "1/2", "minCohort": 150}, ["Invite"]),
            ("maxOrder 2 stops after two rounds; topK 3, z 1",
             {**base, "maxOrder": 2, "topK": 3, "z": "1"}, []),
            ("z 0: every labelled bucket with a non-negative estimate, topK 1000",
             {**base, "z": "0", "topK": 1000, "rounds": 2, "devices": 150, "minCohort": 50},
             []),
            ("z 5/2 (a fractional threshold), topK 4", {**base, "z": "5/2", "topK": 4}, []),
            ("z 0 over three rounds: phrases that end are found in every round",
             {**base, "z": "0", "topK": 1000, "devices": 150, "minCohort": 50}, []),
            ("weak local randomizer eps0 1/2, tau 1/10", {**base, "eps0": "1/2", "tau": "1/10",
                                                          "rounds": 2}, []),
            ("defaults except the population size (200 devices, minCohort 1000: not released)",
             {"devices": 200, "vocab": 4}, ["NotReleased"]),
        ]
        tests = []
        for j, (label, params, flags) in enumerate(cases):
            full = {"seed": vector_seed(f"mjtb/discovery/{j}").hex(), "params": params}
            tests.append(test_entry(tc(), label, full, discovery(full), flags=flags))
        seed = vector_seed("mjtb/discovery/bad").hex()
        invalid: list[InvalidCase] = []
        for key, (_, kind, low, high, low_open) in PARAM_LIMITS.items():
            below = low if low_open else low - 1
            invalid.append((f"{key} = {format_rational(Fraction(below))}: below its range",
                            {**base, key: below if kind == "int" else format_rational(
                                Fraction(below))}, "BadParameter"))
            above = high + 1 if kind == "int" else format_rational(Fraction(high) + Fraction(1, 10**6))
            invalid.append((f"{key} above its range", {**base, key: above}, "BadParameter"))
        invalid += [
            ("devices as a non-integer string", {**base, "devices": "4/2"}, "BadParameter"),
            ("eps0 as a float", {**base, "eps0": 0.5}, "BadParameter"),
            ("an unknown parameter", {**base, "cohorts": 3}, "BadParameter"),
        ]
        tests += invalid_tests(tc, discovery, {}, [(label, {"seed": seed, "params": p}, flag)
                                                    for label, p, flag in invalid])
        # appended later (the tests above keep their tcIds)
        tests += invalid_tests(tc, discovery, {}, [
            ("params an empty array, not an object", {"seed": seed, "params": []}, "BadParameter"),
            ("params null", {"seed": seed, "params": None}, "BadParameter")])
        full = {"seed": vector_seed(f"mjtb/discovery/{len(cases)}").hex(),
                "params": {**base, "z": "0", "topK": 1000, "rounds": 2, "devices": 150,
                           "minCohort": 50}}
        tests.append(test_entry(tc(), "z 0: the end token found in round 1 (the empty phrase,"
                                " a noisy estimate >= 0) is not a discovery", full,
                                discovery(full)))
        return self.vector_file("mjtb/discovery.json",
                                algorithm="MJTB+22 interactive n-gram discovery (sec. 1, 4)",
                                schema=SCHEMA, header=DISCOVERY_HEADER, notes=DISCOVERY_NOTES,
                                groups=[{"op": "mjtb.discovery", "params": {}, "tests": tests}])

    def _recipe_file(self) -> VectorFile:
        tc = TestNumberer()
        fig = figure4_recipe()
        fig4 = {"ageBoundaries": list(fig.ages.boundaries),
                "leaves": [list(x) for x in fig.ngrams.leaves], "words": list(fig.ngrams.words)}
        cases: list[tuple[str, dict[str, Any]]] = [
            ("Figure 4's own recipe", {**fig4, "age": 35, "ngrams": [["i", "got", "up"]]}),
            ("a 1-gram query (the empty leaf), three words, age at a boundary",
             {"ageBoundaries": [0, 18, 65, 130], "leaves": [[]], "words": ["a", "b", "c"],
              "age": 18, "ngrams": [["b"]]}),
            ("two boundaries (one interval): age at the upper boundary is OOV; a phrase end",
             {"ageBoundaries": [0, 100], "leaves": [["x"], ["y"]], "words": ["p"], "age": 100,
              "ngrams": [["y", END]]}),
            ("no word known: per leaf only the end token and OOV buckets; negative ages",
             {"ageBoundaries": [-5, 0], "leaves": [["x", "y"]], "words": [], "age": -5,
              "ngrams": [["x", "y", "z"]]}),
            ("no match (footnote 3): a uniformly random bucket of this tree, unknown age",
             {"ageBoundaries": [20, 40, 60], "leaves": [["x"], ["y"], ["z"]],
              "words": ["p", "q"], "age": None, "ngrams": [["q", "p"]]}),
        ]
        tests = []
        for j, (label, inputs) in enumerate(cases):
            full = {"seed": vector_seed(f"mjtb/recipe/{j}").hex(), **inputs}
            tests.append(test_entry(tc(), label, full, recipe(full)))
        seed = vector_seed("mjtb/recipe/bad").hex()
        ok = {"ageBoundaries": [0, 10], "leaves": [["x"]], "words": ["p"], "age": 1,
              "ngrams": [["x", "p"]]}
        invalid: list[InvalidCase] = [
            ("one age boundary (no interval)", {**ok, "ageBoundaries": [10]}, "BadRecipe"),
            ("no age boundary", {**ok, "ageBoundaries": []}, "BadRecipe"),
            ("equal age boundaries", {**ok, "ageBoundaries": [0, 10, 10]}, "BadRecipe"),
            ("decreasing age boundaries", {**ok, "ageBoundaries": [10, 0]}, "BadRecipe"),
            ("no leaf", {**ok, "leaves": []}, "BadRecipe"),
            ("leaves of different lengths", {**ok, "leaves": [["x"], ["x", "y"]]}, "BadRecipe"),
            ("a leaf listed twice", {**ok, "leaves": [["x"], ["y"], ["x"]]}, "BadRecipe"),
            ("a word listed twice", {**ok, "words": ["p", "q", "p"]}, "BadRecipe"),
            (f"the end token '{END}' as a known word", {**ok, "words": ["p", END]}, "BadRecipe"),
            ("an age boundary given as a string", {**ok, "ageBoundaries": [0, "10"]}, "BadRecipe"),
            ("a 3-gram in a 2-gram query", {**ok, "ngrams": [["x", "p", "q"]]}, "BadNgram"),
        ]
        tests += invalid_tests(tc, recipe, {}, [(label, {"seed": seed, **inputs}, flag)
                                                 for label, inputs, flag in invalid])
        return self.vector_file("mjtb/recipe.json",
                                algorithm="MJTB+22 recipe (App. B, Figure 4) with other buckets",
                                schema=SCHEMA, header=RECIPE_HEADER, notes=RECIPE_NOTES,
                                groups=[{"op": "mjtb.recipe", "params": {}, "tests": tests}])

    def _recall_file(self) -> VectorFile:
        tc = TestNumberer()
        eps, base = _discovery_base()
        cases: list[tuple[str, dict[str, Any], list[str]]] = [
            ("three rounds, every device answers every round", base, []),
            ("the analysis budget allows one round: round 2 refused, no cohort epsilon",
             {**base, "epsAllowed": eps}, ["Refused"]),
            ("fewer than minCohort answers: a cohort epsilon, nothing released, recall 0",
             {**base, "minCohort": 401}, ["NotReleased"]),
            ("tau 1: no prefix is held by every device, recall 1 by convention",
             {**base, "tau": "1", "rounds": 1}, []),
            ("half of the devices invited, tau 1/10", {**base, "invite": "1/2", "minCohort": 150,
                                                       "tau": "1/10"}, ["Invite"]),
            ("every parameter at its default (5000 devices, vocab 20, ...) but epsLocalAllowed"
             " 1/2 below eps0 1: every device refuses round 1",
             {"epsLocalAllowed": "1/2"}, ["Refused"]),
        ]
        tests = []
        for j, (label, params, flags) in enumerate(cases):
            full = {"seed": vector_seed(f"mjtb/recall/{j}").hex(), "params": params}
            tests.append(test_entry(tc(), label, full, discovery_recall(full), flags=flags))
        seed = vector_seed("mjtb/recall/bad").hex()
        tests += invalid_tests(tc, discovery_recall, {}, [
            ("an unknown parameter", {"seed": seed, "params": {**base, "k": 1}}, "BadParameter")])
        groups = [{"op": "mjtb.discovery_recall", "params": {}, "tests": tests}]
        runs: list[tuple[str, dict[str, Any]]] = [
            ("one eps0, a budget below one round (recall padded) and a large one",
             {"devices": 300, "rounds": 2, "eps0Grid": ["4"], "budgetGrid": ["1/2", "100"],
              "minCohort": 100}),
            ("the default grids (eps0 1/2, 1; budgets 1, 2, 3) with minCohort 100",
             {"devices": 300, "rounds": 2, "minCohort": 100}),
            ("the default grids, minCohort 1000 and exactly 1000 devices",
             {"devices": 1000, "rounds": 2, "minCohort": 1000}),
        ]
        tests = []
        for j, (label, inputs) in enumerate(runs):
            full = {"seed": vector_seed(f"mjtb/recall-experiment/{j}").hex(), **inputs}
            tests.append(test_entry(tc(), label, full, recall_rows(full)))
        seed = vector_seed("mjtb/recall-experiment/bad").hex()
        small = {"devices": 300, "rounds": 2, "minCohort": 100}
        tests += invalid_tests(tc, recall_rows, {}, [
            ("an empty eps0 grid", {"seed": seed, **small, "eps0Grid": []}, "BadParameter"),
            ("devices 0", {"seed": seed, **small, "devices": 0}, "BadParameter"),
            ("minCohort missing", {"seed": seed, "devices": 300, "rounds": 2}, "BadParameter")])
        groups.append({"op": "mjtb.recall_experiment", "params": {}, "tests": tests})
        return self.vector_file("mjtb/recall.json",
                                algorithm="MJTB+22 interactive n-gram discovery: recall",
                                schema=SCHEMA, header=RECALL_HEADER, notes=DISCOVERY_NOTES,
                                groups=groups)


FAMILY = MjtbFamily()
