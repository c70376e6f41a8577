"""Vector family ``realnum``: the lazy profile's real-number layer, driven by explicit bits.

Two ops (dpspec.spec.samplers.realnum):

* ``real.compare`` {number, its parameters, bits} -> {decision, bitsRead}: the lazy comparison
  lc(x) with U's binary digits taken from ``bits`` (a string of 0/1, first = most significant).
  ``decision`` is "1" (U < x), "0" (U >= x) or "undecided" (the string ended first).
* ``real.bracket`` {number, its parameters, k} -> {floor}: floor(2^k x) as a decimal string.

The compare vectors follow x's binary expansion for 64 to 256 digits and then either stop
(undecided after exactly that many digits) or leave it (decided one digit later, with more bits
after it that must not be read). An implementation whose bounds on x round the wrong way, or
are too coarse, decides early or wrongly and fails them.
"""

from __future__ import annotations

from typing import Any

from dpspec.conformance.jsonargs import COUNT, DEC
from dpspec.conformance.vectors import (
    Family,
    Handler,
    InvalidCase,
    TestNumberer,
    VectorFile,
    family_schema,
    invalid_tests,
    test_entry,
)
from dpspec.spec.samplers.realnum import (
    MAX_BITS,
    MAX_J,
    NUMBERS,
    binary_digits,
    bracket,
    compare_bits,
    parse_number,
)

SCHEMA = "realnum-v1.json"


def real_compare(args: dict[str, Any]) -> dict[str, Any]:
    extra = sorted(set(args) - {"number", "bits", *NUMBERS.get(args.get("number", ""), ((),))[0]})
    if extra:
        raise ValueError(f"unknown arguments {extra}")
    x = parse_number(args)
    decision, read = compare_bits(x, args.get("bits"))
    return {"decision": "undecided" if decision is None else str(decision), "bitsRead": read}


def real_bracket(args: dict[str, Any]) -> dict[str, Any]:
    extra = sorted(set(args) - {"number", "k", *NUMBERS.get(args.get("number", ""), ((),))[0]})
    if extra:
        raise ValueError(f"unknown arguments {extra}")
    x = parse_number(args)
    k = args.get("k")
    if isinstance(k, bool) or not isinstance(k, int):
        raise ValueError("k must be a JSON integer")
    return {"floor": str(bracket(x, k))}


#: (number, parameters, comment)
INSTANCES: list[tuple[str, dict[str, str], str]] = [
    ("exp_neg", {"z": "1/3"}, "exp(-1/3)"),
    ("exp_neg", {"z": "1"}, "exp(-1): be(1)"),
    ("exp_neg", {"z": "1/1000000"}, "exp(-10^-6), just below 1"),
    ("exp_neg", {"z": "20"}, "exp(-20) < 2^-28: leading zeros"),
    ("exp_neg", {"z": "1/1099511627776"}, "exp(-2^-40): a run of about 40 ones"),
    ("exp_neg", {"z": "1/1208925819614629174706176"}, "exp(-2^-80): a run of about 80 ones"),
    ("rr_flip", {"eps": "1/1208925819614629174706176"},
     "1/(1 + exp(2^-80)) = 1/2 - 2^-82 + ...: 0.0 then a run of about 80 ones"),
    ("exp_neg_digit", {"z": "1/10", "j": "3"}, "digit 3 of geometric_exp(1/10)"),
    ("exp_neg_digit", {"z": "1/100000", "j": "16"}, "digit 16 of geometric_exp(10^-5)"),
    ("rr_flip", {"eps": "1"}, "1/(1 + e)"),
    ("rr_flip", {"eps": "1/4"}, "1/(1 + e^(1/4))"),
    ("rr_ratio_power", {"eps": "1", "j": "0"}, "1/(1 + e^-1)"),
    ("rr_ratio_power", {"eps": "3", "j": "5"}, "(1/(1 + e^-3))^32"),
    ("rational_power", {"q": "999/1000", "j": "9"}, "(999/1000)^512: geometric(1/1000)"),
    ("rational_power", {"q": "999999999/1000000000", "j": "29"},
     "(1 - 10^-9)^(2^29): a 16-billion-bit denominator, evaluated by bounds"),
    ("rational_power_digit", {"q": "2/3", "j": "4"}, "(2/3)^16 / (1 + (2/3)^16)"),
    ("rational_power_digit", {"q": "7/10", "j": "1"}, "0.49/1.49: geometric(3/10) digit 1"),
]

#: Dyadic (exactly representable) instances: the comparison must reach equality exactly.
DYADIC: list[tuple[str, dict[str, str], str]] = [
    ("rational_power_digit", {"q": "3/5", "j": "0"}, "3/8: geometric(2/5) digit 0"),
    ("rational_power", {"q": "1/2", "j": "1"}, "1/4: geometric(1/2) block"),
    ("rational_power", {"q": "1023/1024", "j": "6"}, "(1023/1024)^64, a 640-bit dyadic"),
    ("exp_neg", {"z": "0"}, "exp(0) = 1: decided before any bit"),
    ("rr_flip", {"eps": "0"}, "1/2"),
]

#: Instances added later (a second group of each file, so that the first group's tcIds keep
#: their meaning): the exact shortcuts of the named numbers (eps = 0, 2^j z = 0) and an exp(-z)
#: whose z exceeds the first working precision.
LATER: list[tuple[str, dict[str, str], str]] = [
    ("exp_neg_digit", {"z": "0", "j": "3"}, "z = 0: y = 1 and y / (1 + y) = 1/2 exactly"),
    ("rr_ratio_power", {"eps": "0", "j": "0"}, "eps = 0: q = 1/2 exactly"),
    ("rr_ratio_power", {"eps": "0", "j": "3"}, "eps = 0: q^8 = 1/256 exactly"),
    ("exp_neg", {"z": "100"}, "exp(-100) < 2^-144: z above the first precision of 64 bits"),
]

LENGTHS = (64, 65, 96, 128, 192, 255, 256)
BRACKET_K = (0, 1, 8, 32, 63, 64, 65, 128, 256, 1024)

INVALID: list[tuple[str, dict[str, Any], str]] = [
    ("real.compare", {"number": "exp_neg", "z": "-1", "bits": "0"}, "OutOfRange"),
    ("real.compare", {"number": "exp_neg", "z": "1/3", "bits": "012"}, "BadBits"),
    ("real.compare", {"number": "exp_neg", "z": "1/3", "bits": "0" * (MAX_BITS + 1)}, "BadBits"),
    ("real.compare", {"number": "sqrt", "z": "2", "bits": "0"}, "UnknownNumber"),
    ("real.compare", {"number": "exp_neg_digit", "z": "1", "j": str(MAX_J + 1), "bits": "1"},
     "OutOfRange"),
    ("real.compare", {"number": "rational_power", "q": "3/2", "j": "0", "bits": "1"},
     "OutOfRange"),
    ("real.compare", {"number": "rational_power", "q": "1/2", "j": "1/2", "bits": "1"},
     "NotInteger"),
    ("real.bracket", {"number": "exp_neg", "z": "1", "k": MAX_BITS + 1}, "OutOfRange"),
    ("real.bracket", {"number": "exp_neg", "z": "1", "k": -1}, "OutOfRange"),
    # added later (appended: the earlier tcIds keep their meaning)
    ("real.compare", {"number": "exp_neg_digit", "z": "-1/2", "j": "0", "bits": "1"},
     "OutOfRange"),
    ("real.compare", {"number": "exp_neg", "bits": "0"}, "MissingParameter"),
    ("real.compare", {"number": "rational_power", "j": "1", "bits": "1"}, "MissingParameter"),
    ("real.compare", {"number": "sqrt", "bits": "0"}, "UnknownNumber"),
    ("real.compare", {"number": "exp_neg", "z": 1, "bits": "0"}, "NotRational"),
    ("real.compare", {"number": "rr_flip", "eps": 0.5, "bits": "0"}, "NotRational"),
    ("real.bracket", {"number": "rr_ratio_power", "eps": "0", "k": 8}, "MissingParameter"),
]

NOTES = {
    "FollowsExpansion": "The bits are the first binary digits of x: the comparison must stay"
                        " undecided (bounds that round the wrong way decide early).",
    "LeavesExpansion": "The bits follow x's expansion, then differ at the next digit: the"
                       " comparison must decide exactly there and read no further bit.",
    "Dyadic": "x is a dyadic rational: the comparison reaches equality exactly (see the"
              " samplers' EXACT NUMBERS header).",
    "OutOfRange": "A parameter outside its domain.",
    "NotInteger": "j must be an integer.",
    "BadBits": "bits must be a string of 0 and 1 of at most 4096 characters.",
    "UnknownNumber": "The number's name is not one of the named numbers.",
    "MissingParameter": "A parameter of the named number is missing.",
    "NotRational": "A parameter is not a JSON string (the samplers' grammar, step 1).",
}

HEADER = [
    "dpspec real-number layer (module dpspec.spec.samplers.realnum): the numbers the lazy sampler"
    " profile compares, tested with explicit bits instead of the random tape.",
    "NUMBERS: " + "; ".join(f"{name}({', '.join(ps)}) = {meaning}"
                            for name, (ps, meaning) in NUMBERS.items())
    + f". z, eps >= 0 and q in [0, 1] are rationals (the samplers' grammar); j is an integer"
    f" in [0, {MAX_J}].",
    "real.compare: the LAZY COMPARISON lc(x) of the samplers family (V = 0, i = 0; loop: if"
    " (V + 1) / 2^i <= x return 1; if V / 2^i >= x return 0; else V = 2V + next digit, i = i + 1)"
    " where the next digit is the next character of `bits` (first character = the most"
    " significant digit of U; the opposite of the tape's uniform(), which assembles integers"
    " least significant bit first). If a digit is needed and `bits` is exhausted, the answer is"
    " decision 'undecided'. bitsRead = the number of digits read (i at the end).",
    "real.bracket: floor(2^k x), 0 <= k <= 4096, as a decimal string. An implementation that"
    " evaluates x with bounds lo <= 2^P x <= hi must refine P until floor(lo / 2^(P-k)) ="
    " floor(hi / 2^(P-k)) (or, for an irrational x, hi lands on the next multiple of 2^(P-k)).",
    "Bounds must round outward: lo rounded down and hi rounded up at every step (for exp(-z):"
    " partial sums of the alternating Taylor series bracket it; squaring keeps the bracket only"
    " with lo*lo rounded down and hi*hi rounded up). Vectors flagged FollowsExpansion catch"
    " inward rounding and too few guard bits: their bits agree with x for 64 to 256 digits.",
]


class RealNumFamily(Family):
    name = "realnum"
    summary = "the lazy profile's real-number layer: lc(x) on explicit bits, floor(2^k x)"

    def handlers(self) -> dict[str, Handler]:
        return {"real.compare": real_compare, "real.bracket": real_bracket}

    def schemas(self) -> dict[str, dict[str, Any]]:
        # a parameter is a string; a JSON number appears only in invalid tests (NotRational)
        params = {p: {"type": ["string", "number"]} for ps, _ in NUMBERS.values() for p in ps}
        number = {"type": "string"}
        compare_out = {"type": "object", "required": ["decision", "bitsRead"],
                       "additionalProperties": False,
                       "properties": {"decision": {"enum": ["0", "1", "undecided"]},
                                      "bitsRead": COUNT}}
        bracket_out = {"type": "object", "required": ["floor"], "additionalProperties": False,
                       "properties": {"floor": DEC}}
        ops = {
            "real.compare": ({"properties": {"number": number, "bits": {"type": "string"},
                                             **params}}, compare_out),
            "real.bracket": ({"properties": {"number": number, "k": {"type": "integer"},
                                             **params}}, bracket_out),
        }
        return {SCHEMA: family_schema(SCHEMA, "real-number layer vectors", ops)}

    def files(self) -> list[VectorFile]:
        return [self._compare(), self._bracket()]

    def _compare(self) -> VectorFile:
        tc = TestNumberer()
        tests = []
        for number, params, comment in INSTANCES + DYADIC:
            dyadic = (number, params, comment) in DYADIC
            x = parse_number({"number": number, **params})
            digits = binary_digits(x, max(LENGTHS) + 1)
            cases: list[tuple[str, str, list[str]]] = []
            for n in LENGTHS:
                cases.append((f"{comment}: bits = its first {n} digits", digits[:n],
                              ["FollowsExpansion"]))
                other = "1" if digits[n] == "0" else "0"
                cases.append((f"{comment}: its first {n} digits, then the opposite digit",
                              digits[:n] + other + "0110", ["LeavesExpansion"]))
            cases.append((f"{comment}: no bits", "", []))
            cases.append((f"{comment}: first digit wrong", ("1" if digits[0] == "0" else "0")
                          + "1" * 8, []))
            for text, bits, flags in cases:
                inputs = {"number": number, **params, "bits": bits}
                out = real_compare(dict(inputs))
                tests.append(test_entry(tc(), text, inputs, out,
                                        flags=flags + (["Dyadic"] if dyadic else [])))
        tests += invalid_tests(tc, real_compare, {}, _invalid("real.compare"))
        later = []
        for number, params, comment in LATER:
            x = parse_number({"number": number, **params})
            digits = binary_digits(x, max(LENGTHS) + 1)
            for n in (0, 1, 64, 65, 256):
                inputs = {"number": number, **params, "bits": digits[:n]}
                later.append(test_entry(tc(), f"{comment}: bits = its first {n} digits", inputs,
                                        real_compare(dict(inputs))))
                other = "1" if digits[n] == "0" else "0"
                inputs = {"number": number, **params, "bits": digits[:n] + other + "0110"}
                later.append(test_entry(tc(), f"{comment}: its first {n} digits, then the"
                                        " opposite digit", inputs, real_compare(dict(inputs))))
        groups = [{"op": "real.compare", "params": {}, "tests": tests},
                  {"op": "real.compare", "params": {}, "tests": later}]
        return self.vector_file("realnum/compare.json",
                                algorithm="dpspec real-number layer: lazy comparison",
                                schema=SCHEMA, header=HEADER, notes=NOTES, groups=groups)

    def _bracket(self) -> VectorFile:
        tc = TestNumberer()
        tests = []
        for number, params, comment in INSTANCES + DYADIC:
            x = parse_number({"number": number, **params})
            for k in BRACKET_K:
                inputs: dict[str, Any] = {"number": number, **params, "k": k}
                tests.append(test_entry(tc(), f"floor(2^{k} {comment})", inputs,
                                        {"floor": str(bracket(x, k))}))
        tests += invalid_tests(tc, real_bracket, {}, _invalid("real.bracket"))
        later = []
        for number, params, comment in LATER:
            x = parse_number({"number": number, **params})
            for k in BRACKET_K:
                inputs = {"number": number, **params, "k": k}
                later.append(test_entry(tc(), f"floor(2^{k} {comment})", inputs,
                                        {"floor": str(bracket(x, k))}))
        groups = [{"op": "real.bracket", "params": {}, "tests": tests},
                  {"op": "real.bracket", "params": {}, "tests": later}]
        return self.vector_file("realnum/bracket.json",
                                algorithm="dpspec real-number layer: brackets floor(2^k x)",
                                schema=SCHEMA, header=HEADER, notes=NOTES, groups=groups)


def _invalid(op: str) -> list[InvalidCase]:
    """The invalid cases of ``op`` in INVALID, commented by their flag."""
    return [(f"invalid: {flag}", args, flag) for case_op, args, flag in INVALID if case_op == op]


FAMILY = RealNumFamily()
