"""Vector family ``mjtb``: the recipe encoding of [MJTB+22] App. B / Figure 4
(dpspec.spec.mjtb.recipe): the bin a device's (age, n-grams) maps to, with footnote 3's random
bucket when no n-gram matches; and the interactive n-gram discovery of sec. 1 and 4
(dpspec.spec.mjtb.discovery): population, rounds, accountant decisions, noisy sums and findings."""

from __future__ import annotations

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
    round_eps,
    run_discovery,
    sample_phrase,
)
from dpspec.spec.mjtb.recipe import END, figure4_recipe
from dpspec.spec.rational import format_rational
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
    used = {key: (getattr(params, attr) if kind == "int"
                  else format_rational(getattr(params, attr)))
            for key, (attr, kind, *_rest) in PARAM_LIMITS.items()}
    return {"params": used, "phrases": phrases, "truth": sorted(list(g) for g in res.truth),
            "rounds": rounds, "discovered": sorted(list(g) for g in res.discovered),
            "spent": [[k, n] for k, n in res.spent.items()]}


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

DISCOVERY_NOTES = {"Refused": "The on-device accountant refuses a round (budget or query count).",
                   "NotReleased": "Fewer than minCohort devices answered: nothing released.",
                   "Invite": "Only some devices are invited (invite < 1).",
                   "BadParameter": "A parameter fails its type or range check."}

NOTES = {"BadNgram": "Every n-gram of a 3-gram query has exactly 3 tokens.",
         "BadAge": "The age is an integer or null (unknown: OOV).",
         "BadSeed": "The seed must have 16 to 255 bytes."}


class MjtbFamily(Family):
    name = "mjtb"
    summary = "MJTB+22 App. B / Figure 4 recipe encoding (272 bins, footnote 3)"

    def handlers(self) -> dict[str, Handler]:
        return {"mjtb.encode": encode, "mjtb.discovery": discovery}

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
        return [self._discovery_file(), self.vector_file("mjtb/recipe_encoding.json",
                                 algorithm="MJTB+22 recipe encoding (App. B, Figure 4)",
                                 schema=SCHEMA, header=HEADER, notes=NOTES,
                                 groups=[{"op": "mjtb.encode", "params": {}, "tests": tests}])]

    def _discovery_file(self) -> VectorFile:
        tc = TestNumberer()
        eps = format_rational(round_eps(Fraction(4), 100, Fraction(1, 10**6)))
        base = {"devices": 400, "vocab": 6, "maxOrder": 3, "rounds": 3, "eps0": "4", "eps": eps,
                "minCohort": 100, "epsAllowed": "100", "epsLocalAllowed": "100"}
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
        return self.vector_file("mjtb/discovery.json",
                                algorithm="MJTB+22 interactive n-gram discovery (sec. 1, 4)",
                                schema=SCHEMA, header=DISCOVERY_HEADER, notes=DISCOVERY_NOTES,
                                groups=[{"op": "mjtb.discovery", "params": {}, "tests": tests}])


FAMILY = MjtbFamily()
