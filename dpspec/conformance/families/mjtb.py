"""Vector family ``mjtb``: the recipe encoding of [MJTB+22] App. B / Figure 4
(dpspec.spec.mjtb.recipe): the bin a device's (age, n-grams) maps to, with footnote 3's random
bucket when no n-gram matches."""

from __future__ import annotations

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
from dpspec.spec.mjtb.recipe import END, figure4_recipe
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

NOTES = {"BadNgram": "Every n-gram of a 3-gram query has exactly 3 tokens.",
         "BadAge": "The age is an integer or null (unknown: OOV).",
         "BadSeed": "The seed must have 16 to 255 bytes."}


class MjtbFamily(Family):
    name = "mjtb"
    summary = "MJTB+22 App. B / Figure 4 recipe encoding (272 bins, footnote 3)"

    def handlers(self) -> dict[str, Handler]:
        return {"mjtb.encode": encode}

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
        }
        return {SCHEMA: family_schema(SCHEMA, "MJTB+22 recipe encoding vectors", ops)}

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
        return [self.vector_file("mjtb/recipe_encoding.json",
                                 algorithm="MJTB+22 recipe encoding (App. B, Figure 4)",
                                 schema=SCHEMA, header=HEADER, notes=NOTES,
                                 groups=[{"op": "mjtb.encode", "params": {}, "tests": tests}])]


FAMILY = MjtbFamily()
