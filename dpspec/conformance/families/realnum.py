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

from fractions import Fraction
from typing import Any, cast

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
from dpspec.spec.rational import parse_rational
from dpspec.spec.samplers.lazy import bernoulli_bounded, bernoulli_ratio, exp_neg_fixed
from dpspec.spec.samplers.realnum import (
    MAX_BITS,
    MAX_J,
    NUMBERS,
    Number,
    binary_digits,
    bracket,
    compare_bits,
    parse_number,
)
from dpspec.spec.tape import RandomTape

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


class _Exhausted(Exception):
    """The explicit bit string ended where the comparison needs another digit."""


class _BitTape:
    """A stand-in for the random tape whose digits are the characters of ``bits``, in order."""

    def __init__(self, bits: str) -> None:
        self._bits = bits
        self.read = 0

    def bits(self, n: int) -> int:
        if n != 1 or self.read >= len(self._bits):
            raise _Exhausted
        self.read += 1
        return int(self._bits[self.read - 1])


def lazy_compare(x: Number, z: Fraction | None, bits: str) -> tuple[int | None, int]:
    """lc(x) evaluated by the samplers' own routines (dpspec.spec.samplers.lazy), digits from bits.

    An exact x = a/b goes to ``bernoulli_ratio``; any other x to ``bernoulli_bounded`` with the
    number's bounds and irrationality, except x = exp(-z) (``z`` given), whose bounds are those
    of ``exp_neg_fixed`` (the samplers' geometric_exp and binomial_rr evaluate exp with it).
    """
    tape = cast(RandomTape, _BitTape(bits))
    try:
        if x.exact is not None:
            decision = bernoulli_ratio(tape, x.exact.numerator, x.exact.denominator)
        elif z is not None:
            gamma = z
            decision = bernoulli_bounded(tape, lambda p: exp_neg_fixed(gamma, p), irrational=True)
        else:
            decision = bernoulli_bounded(tape, x.bounds, irrational=x.irrational)
    except _Exhausted:
        return None, cast(_BitTape, tape).read
    return decision, cast(_BitTape, tape).read


def real_lazy(args: dict[str, Any]) -> dict[str, Any]:
    extra = sorted(set(args) - {"number", "bits", *NUMBERS.get(args.get("number", ""), ((),))[0]})
    if extra:
        raise ValueError(f"unknown arguments {extra}")
    x = parse_number(args)
    bits = args.get("bits")
    if not isinstance(bits, str) or bits.strip("01") or len(bits) > MAX_BITS:
        raise ValueError(f"bits must be a string of at most {MAX_BITS} characters 0 and 1")
    z = parse_rational(args["z"], "z") if args["number"] == "exp_neg" and x.exact is None else None
    decision, read = lazy_compare(x, z, bits)
    return {"decision": "undecided" if decision is None else str(decision), "bitsRead": read}


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

_LN2 = "/1237940039285380274899124224"  # 2^90
_Q = "/42391158275216203514294433201"  # 3^60
_DYADIC_Q = f"{(1 << 1023) - 1}/{1 << 1023}"

#: Numbers within 2^-70 .. 2^-141 of a short dyadic (a rational parameter next to ln 2, ln 3,
#: 2^(-1/1024), ...), on both sides: (number, parameters, comment, digits examined). Their
#: expansions have a long run of equal digits, so the bits of the vectors land on a dyadic
#: endpoint that x misses by less than the first working precision (64 bits): bounds that
#: round the wrong way, or a test that treats touching bounds wrongly, decide there wrongly.
NEAR: list[tuple[str, dict[str, str], str, int]] = [
    ("exp_neg", {"z": "858074647932929271111585486" + _LN2},
     "exp(-z), z = floor(2^90 ln 2) / 2^90: 1/2 + about 2^-91", 200),
    ("exp_neg", {"z": "858074647932929271111585487" + _LN2},
     "exp(-z), z = ceil(2^90 ln 2) / 2^90: 1/2 - about 2^-91", 200),
    ("exp_neg", {"z": "818323753292969962226/1180591620717411303424"},
     "exp(-z), z = floor(2^70 ln 2) / 2^70: 1/2 + about 2^-71", 200),
    ("exp_neg", {"z": "818323753292969962227/1180591620717411303424"},
     "exp(-z), z = ceil(2^70 ln 2) / 2^70: 1/2 - about 2^-71", 200),
    ("exp_neg", {"z": "966106166171702452789019208761976768099343/"
                      "1393796574908163946345982392040522594123776"},
     "exp(-z), z = floor(2^140 ln 2) / 2^140: 1/2 + about 2^-141", 300),
    ("exp_neg", {"z": "966106166171702452789019208761976768099344/"
                      "1393796574908163946345982392040522594123776"},
     "exp(-z), z = ceil(2^140 ln 2) / 2^140: 1/2 - about 2^-141", 300),
    ("exp_neg", {"z": "356133156072657295853401959" + _LN2},
     "exp(-z), z = floor(2^90 ln(4/3)) / 2^90: 3/4 + about 2^-91", 200),
    ("exp_neg", {"z": "356133156072657295853401960" + _LN2},
     "exp(-z), z = ceil(2^90 ln(4/3)) / 2^90: 3/4 - about 2^-91", 200),
    ("exp_neg", {"z": "2574223943798787813334756459" + _LN2},
     "exp(-z), z = floor(2^90 3 ln 2) / 2^90: 1/8 + about 2^-93", 200),
    ("exp_neg", {"z": "2574223943798787813334756460" + _LN2},
     "exp(-z), z = ceil(2^90 3 ln 2) / 2^90: 1/8 - about 2^-93", 200),
    ("rr_flip", {"eps": "1360016139793201246369769013" + _LN2},
     "1/(1 + exp(eps)), eps = floor(2^90 ln 3) / 2^90: 1/4 + about 2^-93", 200),
    ("rr_flip", {"eps": "1360016139793201246369769014" + _LN2},
     "1/(1 + exp(eps)), eps = ceil(2^90 ln 3) / 2^90: 1/4 - about 2^-93", 200),
    ("rr_ratio_power", {"eps": "1360016139793201246369769013" + _LN2, "j": "0"},
     "1/(1 + exp(-eps)), eps = floor(2^90 ln 3) / 2^90: 3/4 - about 2^-93", 200),
    ("rr_ratio_power", {"eps": "1360016139793201246369769014" + _LN2, "j": "0"},
     "1/(1 + exp(-eps)), eps = ceil(2^90 ln 3) / 2^90: 3/4 + about 2^-93", 200),
    ("rr_ratio_power", {"eps": "1360016139793201246369769013" + _LN2, "j": "1"},
     "(1/(1 + exp(-eps)))^2, eps = floor(2^90 ln 3) / 2^90: 9/16 - about 2^-92", 200),
    ("rr_ratio_power", {"eps": "1360016139793201246369769014" + _LN2, "j": "1"},
     "(1/(1 + exp(-eps)))^2, eps = ceil(2^90 ln 3) / 2^90: 9/16 + about 2^-92", 200),
    ("exp_neg_digit", {"z": "680008069896600623184884506" + _LN2, "j": "1"},
     "y/(1 + y), y = exp(-2z), z = floor(2^90 ln(3)/2) / 2^90: 1/4 + about 2^-92", 200),
    ("exp_neg_digit", {"z": "680008069896600623184884507" + _LN2, "j": "1"},
     "y/(1 + y), y = exp(-2z), z = ceil(2^90 ln(3)/2) / 2^90: 1/4 - about 2^-92", 200),
    ("rational_power", {"q": "42362473344280585740675094351" + _Q, "j": "10"},
     "q^1024, q = floor(3^60 2^(-1/1024)) / 3^60 (evaluated by bounds): just below 1/2", 200),
    ("rational_power", {"q": "42362473344280585740675094352" + _Q, "j": "10"},
     "q^1024, q = ceil(3^60 2^(-1/1024)) / 3^60 (evaluated by bounds): just above 1/2", 200),
    ("rational_power_digit", {"q": "42345702734259794418100384755" + _Q, "j": "10"},
     "y/(1 + y), y = q^1024, q = floor(3^60 3^(-1/1024)) / 3^60: just below 1/4", 200),
    ("rational_power_digit", {"q": "42345702734259794418100384756" + _Q, "j": "10"},
     "y/(1 + y), y = q^1024, q = ceil(3^60 3^(-1/1024)) / 3^60: just above 1/4", 200),
    ("rational_power", {"q": _DYADIC_Q, "j": "7"},
     "(1 - 2^-1023)^128, a dyadic evaluated by bounds: 1 - 2^-1016 + about 2^-2033", 2100),
    ("rational_power_digit", {"q": _DYADIC_Q, "j": "7"},
     "y/(1 + y), y = (1 - 2^-1023)^128, evaluated by bounds: 1/2 - about 2^-1018", 2100),
    ("rational_power", {"q": f"{(3 ** 60 << 30) - 1}/{3 ** 60 << 30}", "j": "10"},
     "q^1024, q = 1 - 1/(3^60 2^30) (evaluated by bounds): 1 - about 2^-115", 200),
]

#: Rational numbers on the bounds path (q^(2^j) with j = 17: past the exact limit) that are
#: dyadic endpoints themselves: the bounds are exact there, and the comparison must decide at the
#: endpoint (V / 2^i >= x gives 0, (V + 1) / 2^i <= x gives 1) instead of refining forever.
AT_ENDPOINT: list[tuple[str, dict[str, str], str]] = [
    ("rational_power_digit", {"q": "1", "j": "17"}, "1/(1 + 1^(2^17)) = 1/2 by bounds"),
    ("rational_power", {"q": "1", "j": "17"}, "1^(2^17) = 1 by bounds"),
    ("rational_power", {"q": "0", "j": "17"}, "0^(2^17) = 0 by bounds"),
]
AT_ENDPOINT_BITS = ("", "0", "1", "00", "01", "10", "11")

#: Tiny numbers (exp(-10^9) and the like): the comparison decides from bounds 0 and 1 (an
#: irrational x is never a dyadic endpoint); evaluating x to 10^9 digits is not an option.
TINY: list[tuple[str, dict[str, str], str]] = [
    ("exp_neg", {"z": "1e9"}, "exp(-10^9)"),
    ("exp_neg_digit", {"z": "1e9", "j": "0"}, "y/(1 + y), y = exp(-10^9)"),
    ("exp_neg_digit", {"z": "1", "j": "64"}, "y/(1 + y), y = exp(-2^64): j = 64, the largest"),
    ("rr_flip", {"eps": "1e9"}, "1/(1 + exp(10^9))"),
    ("rr_ratio_power", {"eps": "1", "j": "64"}, "(1/(1 + exp(-1)))^(2^64): j = 64, the largest"),
]
TINY_BITS = ("", "0", "1", "01", "0" * 100, "0" * 100 + "1")

#: Other edges: 2^j z = 1 (not the exact shortcut of 2^j z = 0), bits of the largest length.
EDGE: list[tuple[str, dict[str, str], str]] = [
    ("exp_neg_digit", {"z": "1/8", "j": "3"}, "y/(1 + y), y = exp(-1): 2^j z = 1"),
    ("rational_power", {"q": "1/3", "j": "0"}, "1/3 with 4096 bits, the largest length"),
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

#: Invalid cases of the edges file (each check of named_number and compare_bits not refused in
#: compare.json): j = -1, a missing z or eps, negative eps and q.
INVALID_EDGE: list[tuple[str, dict[str, Any], str]] = [
    ("real.compare", {"number": "rr_ratio_power", "eps": "1", "j": "-1", "bits": "1"},
     "OutOfRange"),
    ("real.compare", {"number": "exp_neg_digit", "z": "1", "j": "-1", "bits": "1"}, "OutOfRange"),
    ("real.compare", {"number": "exp_neg_digit", "j": "1", "bits": "1"}, "MissingParameter"),
    ("real.compare", {"number": "exp_neg_digit", "z": "1", "bits": "1"}, "MissingParameter"),
    ("real.compare", {"number": "rr_flip", "bits": "1"}, "MissingParameter"),
    ("real.compare", {"number": "rr_ratio_power", "j": "1", "bits": "1"}, "MissingParameter"),
    ("real.compare", {"number": "rr_ratio_power", "eps": "1", "bits": "1"}, "MissingParameter"),
    ("real.compare", {"number": "rr_flip", "eps": "-1/2", "bits": "1"}, "OutOfRange"),
    ("real.compare", {"number": "rr_ratio_power", "eps": "-1", "j": "0", "bits": "1"},
     "OutOfRange"),
    ("real.compare", {"number": "rational_power", "q": "-1/2", "j": "1", "bits": "1"},
     "OutOfRange"),
    ("real.compare", {"number": "rational_power_digit", "q": "-1/3", "j": "0", "bits": "1"},
     "OutOfRange"),
    ("real.compare", {"number": "rational_power_digit", "q": "4/3", "j": "0", "bits": "1"},
     "OutOfRange"),
    ("real.compare", {"number": "exp_neg", "z": "1/3", "bits": "01" * 2048 + "0"}, "BadBits"),
    ("real.bracket", {"number": "rational_power", "q": "1/3", "j": "0", "k": MAX_BITS + 1},
     "OutOfRange"),
    ("real.bracket", {"number": "exp_neg_digit", "j": "1", "k": 8}, "MissingParameter"),
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

#: The notes of the edges and lazy files (those of compare.json and bracket.json, and two more).
NOTES_EDGE = {
    **NOTES,
    "NearDyadic": "x lies within 2^-70 to 2^-141 (or, for the dyadic (1 - 2^-1023)^128, 2^-2033)"
                  " of a dyadic endpoint that the bits reach: the first working precision cannot"
                  " tell on which side; bounds that round inward, or a wrong test of touching"
                  " bounds, decide wrongly or read a wrong number of bits.",
    "Tiny": "x is far below 2^-4096 (exp(-10^9), powers with j = 64): x is irrational, so bounds"
            " 0 and 1 place it strictly inside [0, 2^-i) and the comparison must decide without"
            " evaluating x to 10^9 digits.",
}

LAZY_HEADER = [
    "real.lazy: the same lc(x) and outputs as real.compare (bitsRead = the number of digits"
    " drawn; 'undecided' when a digit is needed after the last character of bits), evaluated by"
    " the reference with the samplers' own lazy comparison (module dpspec.spec.samplers.lazy):"
    " bernoulli_ratio for an exact x, bernoulli_bounded otherwise, with the bounds of"
    " exp_neg_fixed for exp_neg (those the samplers' geometric_exp and binomial_rr use) and the"
    " number's own bounds for the others. An implementation's samplers must agree with it.",
]

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
        return {"real.compare": real_compare, "real.bracket": real_bracket,
                "real.lazy": real_lazy}

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
            "real.lazy": ({"properties": {"number": number, "bits": {"type": "string"},
                                          **params}}, compare_out),
        }
        return {SCHEMA: family_schema(SCHEMA, "real-number layer vectors", ops)}

    def files(self) -> list[VectorFile]:
        return [self._compare(), self._bracket(), self._edges(), self._lazy()]

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


    def _edges(self) -> VectorFile:
        tc = TestNumberer()
        near = []
        for number, params, comment, n_digits in NEAR:
            digits = binary_digits(parse_number({"number": number, **params}), n_digits + 1)
            for text, bits, flags in _near_cases(comment, digits):
                inputs = {"number": number, **params, "bits": bits}
                near.append(test_entry(tc(), text, inputs, real_compare(dict(inputs)),
                                       flags=flags + ["NearDyadic"]))
        edge = []
        for number, params, comment in TINY:
            for bits in TINY_BITS:
                inputs = {"number": number, **params, "bits": bits}
                edge.append(test_entry(tc(), f"{comment}: bits {_short(bits)}", inputs,
                                       real_compare(dict(inputs)), flags=["Tiny"]))
        for number, params, comment in EDGE:
            x = parse_number({"number": number, **params})
            digits = binary_digits(x, MAX_BITS)
            lengths = (MAX_BITS,) if number == "rational_power" else LENGTHS
            for n in lengths:
                other = "1" if digits[n - 1] == "0" else "0"
                for text, bits in ((f"its first {n} digits", digits[:n]),
                                   (f"its first {n - 1} digits, then the opposite digit",
                                    digits[:n - 1] + other)):
                    inputs = {"number": number, **params, "bits": bits}
                    edge.append(test_entry(tc(), f"{comment}: {text}", inputs,
                                           real_compare(dict(inputs))))
        for number, params, comment in AT_ENDPOINT:
            for bits in AT_ENDPOINT_BITS:
                inputs = {"number": number, **params, "bits": bits}
                edge.append(test_entry(tc(), f"{comment}: bits {_short(bits)}", inputs,
                                       real_compare(dict(inputs)), flags=["Dyadic"]))
        edge += invalid_tests(tc, real_compare, {}, _invalid("real.compare", INVALID_EDGE))
        brackets = []
        for number, params, comment, n_digits in NEAR:
            x = parse_number({"number": number, **params})
            for k in sorted(_positions(binary_digits(x, n_digits + 1))):
                inputs_b: dict[str, Any] = {"number": number, **params, "k": k}
                brackets.append(test_entry(tc(), f"floor(2^{k} {comment})", inputs_b,
                                           {"floor": str(bracket(x, k))}, flags=["NearDyadic"]))
        for number, params, comment in TINY:
            for k in (0, 64, MAX_BITS):
                inputs_k: dict[str, Any] = {"number": number, **params, "k": k}
                brackets.append(test_entry(tc(), f"floor(2^{k} {comment})", inputs_k,
                                           real_bracket(dict(inputs_k)), flags=["Tiny"]))
        for number, params, comment in AT_ENDPOINT:
            for k in (0, 1, 2):
                inputs_e: dict[str, Any] = {"number": number, **params, "k": k}
                brackets.append(test_entry(tc(), f"floor(2^{k} {comment})", inputs_e,
                                           real_bracket(dict(inputs_e)), flags=["Dyadic"]))
        for number, params, comment in EDGE[1:] + [("exp_neg", {"z": "1/3"}, "exp(-1/3)")]:
            inputs_m: dict[str, Any] = {"number": number, **params, "k": MAX_BITS}
            brackets.append(test_entry(tc(), f"floor(2^{MAX_BITS} {comment}): the largest k",
                                       inputs_m, real_bracket(dict(inputs_m))))
        brackets += invalid_tests(tc, real_bracket, {}, _invalid("real.bracket", INVALID_EDGE))
        groups = [{"op": "real.compare", "params": {}, "tests": near},
                  {"op": "real.compare", "params": {}, "tests": edge},
                  {"op": "real.bracket", "params": {}, "tests": brackets}]
        return self.vector_file("realnum/edges.json",
                                algorithm="dpspec real-number layer: near-dyadic numbers and edges",
                                schema=SCHEMA, header=HEADER, notes=NOTES_EDGE, groups=groups)

    def _lazy(self) -> VectorFile:
        tc = TestNumberer()
        tests = []
        for number, params, comment in INSTANCES + DYADIC + LATER:
            digits = binary_digits(parse_number({"number": number, **params}), 257)
            for n in (0, 1, 64, 65, 256):
                other = "1" if digits[n] == "0" else "0"
                for text, bits in ((f"bits = its first {n} digits", digits[:n]),
                                   (f"its first {n} digits, then the opposite digit",
                                    digits[:n] + other + "0110")):
                    inputs = {"number": number, **params, "bits": bits}
                    tests.append(test_entry(tc(), f"{comment}: {text}", inputs,
                                            real_lazy(dict(inputs))))
        near = []
        for number, params, comment, n_digits in NEAR:
            digits = binary_digits(parse_number({"number": number, **params}), n_digits + 1)
            for text, bits, flags in _near_cases(comment, digits):
                inputs = {"number": number, **params, "bits": bits}
                near.append(test_entry(tc(), text, inputs, real_lazy(dict(inputs)),
                                       flags=flags + ["NearDyadic"]))
        for number, params, comment in TINY:
            for bits in TINY_BITS:
                inputs = {"number": number, **params, "bits": bits}
                near.append(test_entry(tc(), f"{comment}: bits {_short(bits)}", inputs,
                                       real_lazy(dict(inputs)), flags=["Tiny"]))
        for number, params, comment in AT_ENDPOINT:
            for bits in AT_ENDPOINT_BITS:
                inputs = {"number": number, **params, "bits": bits}
                near.append(test_entry(tc(), f"{comment}: bits {_short(bits)}", inputs,
                                       real_lazy(dict(inputs)), flags=["Dyadic"]))
        near += invalid_tests(tc, real_lazy, {}, [
            ("invalid: BadBits", {"number": "exp_neg", "z": "1", "bits": "0" * (MAX_BITS + 1)},
             "BadBits"),
            ("invalid: BadBits", {"number": "exp_neg", "z": "1", "bits": "0 1"}, "BadBits"),
            ("invalid: OutOfRange", {"number": "exp_neg", "z": "-1", "bits": "0"}, "OutOfRange"),
            ("invalid: UnknownNumber", {"number": "exp", "z": "1", "bits": "0"}, "UnknownNumber"),
        ])
        groups = [{"op": "real.lazy", "params": {}, "tests": tests},
                  {"op": "real.lazy", "params": {}, "tests": near}]
        return self.vector_file("realnum/lazy.json",
                                algorithm="dpspec real-number layer: lc(x) by the samplers' routines",
                                schema=SCHEMA, header=HEADER + LAZY_HEADER, notes=NOTES_EDGE,
                                groups=groups)


def _short(bits: str) -> str:
    """A readable description of a bit string of the vectors."""
    if not bits:
        return "empty"
    if len(bits) > 8 and len(set(bits[:-1])) == 1:
        return f"{bits[0]} x {len(bits) - 1} then {bits[-1]}" if bits[-1] != bits[0] else \
            f"{bits[0]} x {len(bits)}"
    return repr(bits)


def _positions(digits: str) -> set[int]:
    """Where the near-dyadic vectors stop or leave x's expansion: the first digits, both ends of
    every run of at least 10 equal digits, and around the working precisions 64 and 129."""
    out = set(range(6)) | set(range(62, 67)) | set(range(127, 132))
    start = 0
    for i in range(1, len(digits) + 1):
        if i == len(digits) or digits[i] != digits[start]:
            if i - start >= 10:
                out |= set(range(start - 1, start + 2)) | set(range(i - 2, i + 3))
            start = i
    return {n for n in out if 0 <= n < len(digits) - 1}


def _near_cases(comment: str, digits: str) -> list[tuple[str, str, list[str]]]:
    """For each position n of :func:`_positions`: x's first n digits, and the first n digits
    followed by the opposite of digit n + 1 (then 0110)."""
    cases = []
    for n in sorted(_positions(digits)):
        other = "1" if digits[n] == "0" else "0"
        cases.append((f"{comment}: bits = its first {n} digits", digits[:n],
                      ["FollowsExpansion"]))
        cases.append((f"{comment}: its first {n} digits, then the opposite digit",
                      digits[:n] + other + "0110", ["LeavesExpansion"]))
    return cases


def _invalid(op: str, cases: list[tuple[str, dict[str, Any], str]] | None = None) \
        -> list[InvalidCase]:
    """The invalid cases of ``op`` in INVALID, commented by their flag."""
    return [(f"invalid: {flag}", args, flag) for case_op, args, flag in
            (INVALID if cases is None else cases) if case_op == op]


FAMILY = RealNumFamily()
