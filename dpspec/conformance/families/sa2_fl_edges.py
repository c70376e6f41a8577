"""Vector family ``sa2-fl-edges``: the boundaries of SA2's federated-learning path
(dpspec.spec.sa2.fl, the Gaussian vector randomizer and its multi-round statement).

One file, ``sa2-fl-edges/gaussian_vector_edges.json``:

* ``sa2fle.parameters``: the randomizer built directly from its five parameters (the checks of
  the constructor), its fixed-point variance, norm bound, bits per entry and the collector's
  decoding of a sum: every parameter at both ends of its range and just outside.
* ``sa2fle.from_json``: the recipe's ``randomizer`` object read and written back (the integer
  checks of the JSON reader: booleans, strings, the default tail exponent).
* ``sa2fle.steps``: clip, encode, noise and norm check on chosen updates (an update whose squared
  norm is exactly ``C^2`` with ``C`` not dyadic, fractional and negative entries, a noised report
  whose squared norm equals ``normBound`` exactly, and one just above).
* ``sa2fle.multiplier``: ``z^2``, ``z`` rounded down to 12 digits (one case ``1e-41`` below a
  12-digit decimal) and the drop probability bound.
* ``sa2fle.statement``: the guarantee at ``B = 1`` and ``B = 2``, at the smallest fixed-point
  variance accepted and just below it, in both models, with its derivation text.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from dpspec.conformance.families._groups import Groups, compare_keys
from dpspec.conformance.jsonargs import COUNT, DEC, HEX, RAT, hex_arg, parse_int
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
from dpspec.spec.sa2 import fl, ideal
from dpspec.spec.tape import RandomTape

SCHEMA = "sa2_fl_edges-v1.json"
PATH = "sa2-fl-edges/gaussian_vector_edges.json"
#: significant digits of the published epsilon and delta (rounded up, privacy.publish)
DIGITS = 12

_RATS: dict[str, Any] = {"type": "array", "items": RAT}
_DECS: dict[str, Any] = {"type": "array", "items": DEC}


def _rats(xs: list[Fraction]) -> list[str]:
    return [format_rational(x) for x in xs]


def _randomizer(args: dict[str, Any]) -> fl.GaussianVector:
    return fl.GaussianVector.from_json(args["randomizer"])


def _int(args: dict[str, Any], key: str) -> int:
    return parse_int(args[key], key)


# -- reference handlers ----------------------------------------------------------------------------
def h_parameters(args: dict[str, Any]) -> dict[str, Any]:
    """GaussianVector(dimension, clipNorm, fractionalBits, noiseVariance, tailExponent) built
    directly (the JSON values as given), and what follows from the parameters."""
    r = fl.GaussianVector(args["dimension"], ideal.exact(args["clipNorm"], "clipNorm"),
                          args["fractionalBits"], ideal.exact(args["noiseVariance"],
                                                               "noiseVariance"),
                          args["tailExponent"])
    total = [parse_int(v, "total") for v in args["total"]]
    return {"fixedPointVariance": format_rational(r.fixed_point_variance()),
            "normBound": str(r.norm_bound()), "bits": r.bits(),
            "decodedSum": _rats(r.decode_sum(total))}


def h_from_json(args: dict[str, Any]) -> dict[str, Any]:
    """GaussianVector.from_json then to_json (the canonical object) and the norm bound."""
    r = _randomizer(args)
    return {"canonical": r.to_json(), "normBound": str(r.norm_bound())}


def h_steps(args: dict[str, Any]) -> dict[str, Any]:
    """GaussianVector.steps on ``update`` with the tape (seed, tag)."""
    r = _randomizer(args)
    s = r.steps(args["update"], RandomTape(hex_arg(args, "seed"), args["tag"]))
    return {"clipped": _rats(s["clipped"]), "encoded": [str(v) for v in s["encoded"]],
            "noise": [str(v) for v in s["noise"]], "normSquared": str(s["normSquared"]),
            "normBound": str(r.norm_bound()),
            "report": None if s["report"] is None else [str(v) for v in s["report"]]}


def h_multiplier(args: dict[str, Any]) -> dict[str, Any]:
    """z^2 = (B - 1) s2 / normBound, z rounded down (noise_multiplier), drop_probability."""
    r = _randomizer(args)
    B = _int(args, "B")
    return {"multiplierSquared": format_rational(r.multiplier_squared(B)),
            "noiseMultiplier": fl.noise_multiplier(r, B),
            "dropProbability": format_rational(fl.drop_probability(r))}


def h_statement(args: dict[str, Any]) -> dict[str, Any]:
    """fl.statement(randomizer, B, q, rounds, delta, model) as a device prints it."""
    r = _randomizer(args)
    st = fl.statement(r, _int(args, "B"), ideal.exact(args["q"], "q"), _int(args, "rounds"),
                      ideal.exact(args["delta"], "delta"), args["model"])
    out: dict[str, Any] = st.as_strings(DIGITS)
    return out


HANDLERS: dict[str, Handler] = {
    "sa2fle.parameters": h_parameters,
    "sa2fle.from_json": h_from_json,
    "sa2fle.steps": h_steps,
    "sa2fle.multiplier": h_multiplier,
    "sa2fle.statement": h_statement,
}

HEADER = [
    "Boundaries of the federated-learning path of SA2 (module dpspec.spec.sa2.fl; Talwar et al.,"
    " 'Samplable Anonymous Aggregation for Private Federated Data Analysis', sec. 4.5, Examples 3"
    " and 5): the Gaussian vector randomizer with dimension d, clipNorm C, fractionalBits f,"
    " noiseVariance v and tailExponent t (the module docstring and vectors/sa2/fl_randomizer.json"
    " state the algorithm). Rationals are 'a' or 'a/b' in lowest terms; big integers are decimal"
    " strings.",
    "sa2fle.parameters: the randomizer made from its parameters as given (JSON values, no"
    " conversion: 1 <= d <= 4096 and not a boolean, 0 <= f <= 32, C > 0, v > 0, 1 <= t <= 200,"
    " else invalid); outputs s2 = v 4^f, normBound = ceil((C 2^f + R)^2) with R = ceil(sqrt(s2"
    " (d + 2 ceil(sqrt(d t)) + 2 t))), bits = bitlength(isqrt(normBound)) + 1, and the"
    " collector's decoding total_i / 2^f of `total`.",
    "sa2fle.from_json: the recipe's randomizer object (name 'gaussian_vector'; dimension,"
    " fractionalBits and tailExponent JSON integers, not booleans, in their ranges; tailExponent"
    " 50 when absent; clipNorm and noiseVariance exact rationals; no other field) read and"
    " written back in canonical form (rationals as 'a' or 'a/b'), with its normBound.",
    "sa2fle.steps: on `update` (d exact rationals in a JSON list; anything else is invalid):"
    " S = sum x_i^2; clipped = x if S <= C^2, else x C / r with r = ceil(sqrt(S) 2^64) / 2^64;"
    " encoded_i = clipped_i 2^f rounded toward zero; noise = d draws of the discrete Gaussian"
    " of parameter s2 (Algorithm 3 of [CKS20], dpspec.spec.samplers.discrete_gaussian_vector)"
    " from the tape (seed, tag); report = encoded + noise if its squared norm (normSquared) is"
    " <= normBound, else null (not uploaded).",
    "sa2fle.multiplier: multiplierSquared = (B - 1) s2 / normBound; noiseMultiplier = its"
    " square root rounded DOWN to 12 significant digits, exactly (the largest 12-digit decimal"
    " whose square is at most multiplierSquared); dropProbability = e^-t computed at 40 digits"
    " and rounded UP to 12 significant digits, as an exact rational.",
    "sa2fle.statement: fl.statement (the module docstring): B = 1 gives no guarantee (epsilon"
    " inf, delta 1); s2 < 4 is invalid; otherwise the subsampled distributed discrete Gaussian"
    " accountant (dpspec.spec.accounting.distributed.subsampled_epsilon, mpmath) at rate q"
    " (model 'sa2') or 1 (model 'aggregator') for `rounds` rounds, with noise multiplier"
    " noiseMultiplier, others = B - 1, the drop probability above; invalid when it refuses"
    " (dropped reports worth more than half of delta). epsilon and delta are rounded UP to 12"
    " significant digits ('inf': none); the derivation text (its numbers by mpmath.nstr at 3"
    " significant digits) is compared exactly, as is everything else.",
    "Seeds are hex; " + VECTOR_SEED_HEADER[0].lower() + VECTOR_SEED_HEADER[1:] + ".",
]

NOTES = {
    "BadParameter": "A parameter outside its range (or a boolean dimension) is refused.",
    "BadJson": "The randomizer object's integers must be JSON integers (not booleans or "
               "strings) in their ranges.",
    "BadUpdate": "An update is a JSON list of exactly d rationals.",
    "NormBoundEquality": "The noised report's squared norm equals normBound: it is uploaded.",
    "Precision": ("The true z lies below 1 by about half of 1 - z^2 (2e-41 and 5e-42 in the two "
                  "cases): rounded down to 12 digits it is 0.999999999999."),
    "ExactDecimal": "z is exactly a 12-digit decimal: it is published as itself.",
    "SmallVariance": "s2 = v 4^f must be at least 4 for the statement.",
    "DropRefused": "Dropped reports would take more than half of delta.",
}


class Sa2FlEdgesFamily(Family):
    name = "sa2-fl-edges"
    summary = ("SA2 federated-learning path edges: Gaussian vector randomizer parameters, "
               "clipping boundaries, norm bound equality, noise multiplier rounding, statements")

    def handlers(self) -> dict[str, Handler]:
        return dict(HANDLERS)

    def compare(self, case: Case, provided: dict[str, Any]) -> str | None:
        assert case.expected is not None
        return compare_keys(case.expected, provided,
                            lambda k, w, g: None if g == w else f"{k}: expected {w!r}, got {g!r}")

    def schemas(self) -> dict[str, dict[str, Any]]:
        rand: dict[str, Any] = {"type": "object"}
        ops: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
            "sa2fle.parameters": (
                {"properties": {"dimension": {}, "clipNorm": RAT, "fractionalBits": {},
                                "noiseVariance": RAT, "tailExponent": {}, "total": _DECS}},
                {"type": "object",
                 "required": ["fixedPointVariance", "normBound", "bits", "decodedSum"],
                 "properties": {"fixedPointVariance": RAT, "normBound": DEC, "bits": COUNT,
                                "decodedSum": _RATS}}),
            "sa2fle.from_json": (
                {"properties": {"randomizer": rand}},
                {"type": "object", "required": ["canonical", "normBound"],
                 "properties": {"canonical": rand, "normBound": DEC}}),
            "sa2fle.steps": (
                {"properties": {"randomizer": rand, "update": {}, "seed": HEX,
                                "tag": {"type": "string"}}},
                {"type": "object",
                 "required": ["clipped", "encoded", "noise", "normSquared", "normBound",
                              "report"],
                 "properties": {"clipped": _RATS, "encoded": _DECS, "noise": _DECS,
                                "normSquared": DEC, "normBound": DEC,
                                "report": {"anyOf": [{"type": "null"}, _DECS]}}}),
            "sa2fle.multiplier": (
                {"properties": {"randomizer": rand, "B": DEC}},
                {"type": "object",
                 "required": ["multiplierSquared", "noiseMultiplier", "dropProbability"],
                 "properties": {"multiplierSquared": RAT, "noiseMultiplier": {"type": "string"},
                                "dropProbability": RAT}}),
            "sa2fle.statement": (
                {"properties": {"randomizer": rand, "B": DEC, "q": RAT, "rounds": DEC,
                                "delta": RAT, "model": {"enum": ["sa2", "aggregator"]}}},
                {"type": "object",
                 "required": ["model", "epsilon", "delta", "derivation", "bound"],
                 "properties": {k: {"type": "string"} for k in
                                ("model", "epsilon", "delta", "derivation", "bound",
                                 "fallback")}}),
        }
        return {SCHEMA: family_schema(SCHEMA, "SA2 federated-learning edge vectors", ops)}

    def files(self) -> list[VectorFile]:
        return [self.vector_file(PATH, algorithm="SA2-gaussian-vector-edges", schema=SCHEMA,
                                 header=HEADER, notes=NOTES, groups=_groups())]


def gv(d: int, C: str, f: int, v: str | Fraction, t: int = fl.DEFAULT_TAIL_EXPONENT
       ) -> dict[str, Any]:
    """The canonical randomizer object of the parameters."""
    return fl.GaussianVector(d, ideal.exact(C), f, ideal.exact(v), t).to_json()


#: the noised-report boundary: d = 1, C = 3, f = 0, s2 = 4, t = 1 (normBound 64 = 8^2)
EDGE = (1, "3", 0, "4", 1)
#: the noise-multiplier precision case: z^2 = 1 - 4e-41 (d = 1, C = 1, f = 0, t = 1, B = 101)
PRECISION_V = Fraction(4, 100) * (1 - Fraction(4, 10**41))


def edge_tags() -> tuple[str, str]:
    """The first two tags ``sa2-fl-edges/steps/{i}`` whose single noise draw ``z`` has
    ``5 <= |z| <= 11`` (so that an update ``y`` with ``|y| <= 3`` makes ``|y + z| = 8``), and the
    first with ``|z| >= 7`` (for a report just above the bound)."""
    r = fl.GaussianVector.from_json(gv(*EDGE))
    seed = vector_seed("sa2-fl-edges/steps")
    on = over = None
    i = 0
    while on is None or over is None:
        tag = f"sa2-fl-edges/steps/{i}"
        z = r.noise(RandomTape(seed, tag))[0]
        if on is None and 5 <= abs(z) <= 11:
            on = tag
        elif over is None and 7 <= abs(z) <= 11:
            over = tag
        i += 1
    return on, over


def _groups() -> list[dict[str, Any]]:
    groups = Groups(HANDLERS)
    seed = vector_seed("sa2-fl-edges/steps")

    def par(d: Any, C: str, f: Any, v: str, t: Any, total: list[str] | None = None
            ) -> dict[str, Any]:
        return {"dimension": d, "clipNorm": C, "fractionalBits": f, "noiseVariance": v,
                "tailExponent": t, "total": total or ["0"]}

    groups.add("sa2fle.parameters", [
        ("d = 1, t = 1 (d t = 1: ceil(sqrt(1)) = 1), C = 1/3, f = 0: normBound is ceil of a "
         "non-integer", par(1, "1/3", 0, "4", 1, ["5", "-7"])),
        ("d = 4096, t = 200, f = 32 (all at their maximum)",
         par(fl.MAX_DIMENSION, "1", fl.MAX_FRACTIONAL_BITS, "1/1000", fl.MAX_TAIL_EXPONENT,
             ["1", "-1", str(3 << 33)])),
        ("f = 3: the sum decoded in eighths", par(3, "5/2", 3, "1/7", 50, ["-9", "8", "13"])),
        ("a tiny clip norm and variance", par(2, "1/1000", 1, "1/1000000", 2, ["1"])),
    ], [
        ("dimension 0", par(0, "1", 0, "4", 1), "BadParameter"),
        ("dimension 4097", par(fl.MAX_DIMENSION + 1, "1", 0, "4", 1), "BadParameter"),
        ("dimension true (a boolean)", par(True, "1", 0, "4", 1), "BadParameter"),
        ("fractionalBits -1", par(1, "1", -1, "4", 1), "BadParameter"),
        ("fractionalBits 33", par(1, "1", fl.MAX_FRACTIONAL_BITS + 1, "4", 1), "BadParameter"),
        ("clipNorm 0", par(1, "0", 0, "4", 1), "BadParameter"),
        ("noiseVariance 0", par(1, "1", 0, "0", 1), "BadParameter"),
        ("noiseVariance -1/2", par(1, "1", 0, "-1/2", 1), "BadParameter"),
        ("tailExponent 0", par(1, "1", 0, "4", 0), "BadParameter"),
        ("tailExponent 201", par(1, "1", 0, "4", fl.MAX_TAIL_EXPONENT + 1), "BadParameter"),
    ])

    base = gv(2, "1", 2, "1", 7)
    groups.add("sa2fle.from_json", [
        ("dimension 1 (the lower end)", {"randomizer": gv(1, "1/3", 0, "4", 1)}),
        ("dimension 4096, fractionalBits 32, tailExponent 200 (the upper ends)",
         {"randomizer": gv(fl.MAX_DIMENSION, "2", fl.MAX_FRACTIONAL_BITS, "1/9",
                           fl.MAX_TAIL_EXPONENT)}),
        ("fractionalBits 0, no tailExponent (50 by default), clipNorm as a decimal",
         {"randomizer": {"name": "gaussian_vector", "dimension": 3, "clipNorm": "0.25",
                         "fractionalBits": 0, "noiseVariance": "12/8"}}),
    ], [
        ("fractionalBits true (a boolean)",
         {"randomizer": {**base, "fractionalBits": True}}, "BadJson"),
        ("tailExponent true (a boolean)", {"randomizer": {**base, "tailExponent": True}},
         "BadJson"),
        ("dimension as a string", {"randomizer": {**base, "dimension": "2"}}, "BadJson"),
        ("dimension 0", {"randomizer": {**base, "dimension": 0}}, "BadJson"),
        ("fractionalBits -1", {"randomizer": {**base, "fractionalBits": -1}}, "BadJson"),
        ("tailExponent 0", {"randomizer": {**base, "tailExponent": 0}}, "BadJson"),
        ("another name", {"randomizer": {**base, "name": "rappor"}}, "BadJson"),
        ("an unknown field", {"randomizer": {**base, "extra": 1}}, "BadJson"),
    ])

    on, over = edge_tags()
    edge = fl.GaussianVector.from_json(gv(*EDGE))
    z_on = edge.noise(RandomTape(seed, on))[0]
    z_over = edge.noise(RandomTape(seed, over))[0]
    y_on = (8 if z_on > 0 else -8) - z_on  # |y_on + z_on| = 8, normSquared = 64 = normBound
    y_over = (9 if z_over > 0 else -9) - z_over
    assert abs(y_on) <= 3 and abs(y_over) <= 3
    third = gv(2, "1/3", 0, "4", 1)
    groups.add("sa2fle.steps", [
        ("squared norm exactly C^2 = 1/9 with C = 1/3 (not dyadic): not clipped",
         {"randomizer": third, "update": ["1/5", "4/15"], "tag": "sa2-fl-edges/steps/c2"}),
        ("squared norm 1/4, between C^2 = 1/9 and C = 1/3: clipped (r rounds 1/2 up)",
         {"randomizer": third, "update": ["1/2", "0"], "tag": "sa2-fl-edges/steps/c1"}),
        ("entries 1/3 and -5/6 with f = 2: encoded 1 and -3 (toward zero)",
         {"randomizer": gv(2, "2", 2, "1", 1), "update": ["1/3", "-5/6"],
          "tag": "sa2-fl-edges/steps/trunc"}),
        ("entries 1/8 and -1/8 with f = 2: both encode to 0 (|x 2^f| < 1)",
         {"randomizer": gv(2, "2", 2, "1", 1), "update": ["1/8", "-1/8"],
          "tag": "sa2-fl-edges/steps/small"}),
        (f"d = 1, C = 3, s2 = 4, t = 1 (normBound 64): noise {z_on}, update {y_on}: the report's "
         "squared norm is exactly normBound (uploaded)",
         {"randomizer": gv(*EDGE), "update": [str(y_on)], "tag": on}, ["NormBoundEquality"]),
        (f"the same randomizer: noise {z_over}, update {y_over}: squared norm 81 > 64 (not "
         "uploaded)", {"randomizer": gv(*EDGE), "update": [str(y_over)], "tag": over}),
    ], [
        ("an update given as a string of d characters", {
            "randomizer": gv(2, "1", 0, "4", 1), "update": "12",
            "tag": "sa2-fl-edges/steps/bad"}, "BadUpdate"),
        ("an update of d + 1 entries", {
            "randomizer": gv(2, "1", 0, "4", 1), "update": ["1", "0", "0"],
            "tag": "sa2-fl-edges/steps/bad"}, "BadUpdate"),
        ("an update of d - 1 entries", {
            "randomizer": gv(2, "1", 0, "4", 1), "update": ["1"],
            "tag": "sa2-fl-edges/steps/bad"}, "BadUpdate"),
    ], params={"seed": seed.hex()})

    groups.add("sa2fle.multiplier", [
        ("z^2 = 1 - 4e-41 exactly (B = 101, s2 = 4/100 (1 - 4e-41), normBound 4): z rounded "
         "down is 0.999999999999", {"randomizer": gv(1, "1", 0, PRECISION_V, 1), "B": "101"},
         ["Precision"]),
        ("t = 1: e^-1 rounded up", {"randomizer": gv(1, "1/3", 0, "4", 1), "B": "2"}),
        ("t = 37, B = 1: z = 0", {"randomizer": gv(3, "2", 4, "5/3", 37), "B": "1"}),
        ("t = 200: e^-200 rounded up", {"randomizer": gv(2, "1", 8, "4", 200), "B": "50"}),
    ])

    big = gv(1, "1/1000", 0, "1000000", 40)
    groups.add("sa2fle.statement", [
        ("B = 1: no other report's noise, no guarantee",
         {"randomizer": gv(2, "1", 8, "4"), "B": "1", "q": "1/10", "rounds": "2",
          "delta": "1/100000", "model": "sa2"}),
        ("s2 = 4 exactly (the smallest accepted), B = 500, two rounds at q = 1/10",
         {"randomizer": gv(1, "1", 0, "4"), "B": "500", "q": "1/10", "rounds": "2",
          "delta": "1/100000", "model": "sa2"}),
        ("the same in the aggregator model (q = 1)",
         {"randomizer": gv(1, "1", 0, "4"), "B": "500", "q": "1/10", "rounds": "2",
          "delta": "1/100000", "model": "aggregator"}),
        ("B = 5, t = 40, C = 1/1000, s2 = 10^6: the dropped reports' share of delta counts the "
         "B - 1 = 4 other reports", {"randomizer": big, "B": "5", "q": "1/100", "rounds": "1",
                                     "delta": "1/10", "model": "sa2"}),
    ], [
        ("s2 = 4 - 1/1000 (just below 4)",
         {"randomizer": gv(1, "1", 0, "3999/1000"), "B": "500", "q": "1/10", "rounds": "2",
          "delta": "1/100000", "model": "sa2"}, "SmallVariance"),
        ("B = 2 (one other report), d = 1, s2 = 4, t = 1: the dropped reports exceed half of "
         "delta",
         {"randomizer": gv(1, "1", 0, "4", 1), "B": "2", "q": "1/10", "rounds": "1",
          "delta": "1/100000", "model": "sa2"}, "DropRefused"),
    ])

    groups.add("sa2fle.multiplier", [
        ("z^2 = 1 - 1e-41 exactly (B = 101, s2 = 4/100 (1 - 1e-41), normBound 4): the 40-digit "
         "square root rounds up onto 1, z rounded down is still 0.999999999999",
         {"randomizer": gv(1, "1", 0, Fraction(4, 100) * (1 - Fraction(1, 10**41)), 1), "B": "101"},
         ["Precision"]),
    ])
    groups.add("sa2fle.multiplier", [
        ("z = 0.401 exactly (z^2 = 160801/10^6: B = 13, d = 1, C = 1, f = 0, s2 = "
         "85063729/750000, t = 30): a 12-digit z is published as itself, 0.401000000000, although "
         "its 40-digit square root rounds below it",
         {"randomizer": gv(1, "1", 0, Fraction(85063729, 750000), 30), "B": "13"},
         ["ExactDecimal"]),
    ])
    return groups.groups


FAMILY = Sa2FlEdgesFamily()
