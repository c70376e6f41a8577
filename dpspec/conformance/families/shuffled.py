"""Vector family ``shuffled``: the shuffled-model counting mechanisms of [GKMP20] (dpspec.spec.shuffled).

Four files: the D-distributed mechanism (Algorithms 1, 2), the correlated distributed mechanism
(Algorithms 3, 4), the B-bucket histogram built from either, and the fast (discrete compound
Poisson) form of the histogram randomizer (sec. 1.2; dpspec.spec.shuffled.fast). A randomize
test gives a user's seed, parameters and input and expects the noise draws (intermediate values)
and the user's messages as counts of +1 and -1; an analyze test gives the shuffled totals and
expects the estimate.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from dpspec.conformance.jsonargs import COUNT, DEC, HEX, RAT, hex_arg, int_arg
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
from dpspec.spec.shuffled.counting import (
    TAG_CORRELATED,
    TAG_DISTRIBUTED,
    CorrelatedMechanism,
    DistributedMechanism,
    Messages,
)
from dpspec.spec.shuffled.divisible import (
    Divisible,
    NegativeBinomial,
    ParameterError,
    Poisson,
    format_rational,
)
from dpspec.spec.shuffled.fast import TAG_FAST_HISTOGRAM, randomize_fast
from dpspec.spec.shuffled.fragmented import TAG_FRAGMENTED_RAPPOR, FragmentedRappor
from dpspec.spec.shuffled.histogram import TAG_HISTOGRAM, HistogramMechanism
from dpspec.spec.tape import RandomTape

DISTRIBUTED_SCHEMA = "ghazi_distributed-v1.json"
CORRELATED_SCHEMA = "ghazi_correlated-v1.json"
HISTOGRAM_SCHEMA = "ghazi_histogram-v1.json"
HISTOGRAM_FAST_SCHEMA = "ghazi_histogram_fast-v1.json"
FRAGMENTED_SCHEMA = "ghazi_fragmented_rappor-v1.json"

_NOISE: dict[str, Any] = {
    "type": "object",
    "required": ["family"],
    "additionalProperties": False,
    "properties": {"family": {"enum": ["poisson", "negative_binomial"]},
                   "lambda": {"type": "string"}, "r": {"type": "string"},
                   "p": {"type": "string"}},
}


# -- argument parsing ------------------------------------------------------------------------
def noise_from_json(obj: Any, name: str) -> Divisible:
    """``{"family": "poisson", "lambda": L}`` or ``{"family": "negative_binomial", "r": R, "p": P}``."""
    if not isinstance(obj, dict):
        raise ParameterError(f"{name} must be an object")
    fam = obj.get("family")
    if fam == "poisson" and set(obj) == {"family", "lambda"}:
        return Poisson(obj["lambda"])
    if fam == "negative_binomial" and set(obj) == {"family", "r", "p"}:
        return NegativeBinomial(obj["r"], obj["p"])
    raise ParameterError(f"{name}: unknown noise description {obj!r}")


def noise_to_json(d: Divisible) -> dict[str, str]:
    return {"family": d.family, **d.params()}


def _messages(args: dict[str, Any]) -> Messages:
    return Messages(int_arg(args, "plus"), int_arg(args, "minus"))


def _distributed(args: dict[str, Any]) -> DistributedMechanism:
    return DistributedMechanism(noise_from_json(args["noise"], "noise"), int_arg(args, "n"),
                                int_arg(args, "Delta"))


def _correlated(args: dict[str, Any]) -> CorrelatedMechanism:
    return CorrelatedMechanism(noise_from_json(args["d1"], "d1"), noise_from_json(args["d2"], "d2"),
                               noise_from_json(args["d3"], "d3"), int_arg(args, "n"))


def _histogram(args: dict[str, Any]) -> HistogramMechanism:
    bucket: CorrelatedMechanism | DistributedMechanism
    if "noise" in args:
        bucket = DistributedMechanism(noise_from_json(args["noise"], "noise"), int_arg(args, "n"))
    else:
        bucket = _correlated(args)
    return HistogramMechanism(bucket, int_arg(args, "B"))


def _fragmented(args: dict[str, Any]) -> FragmentedRappor:
    return FragmentedRappor(args["f"], int_arg(args, "B"), int_arg(args, "n"))


# -- reference handlers ----------------------------------------------------------------------
def fragmented_randomize(args: dict[str, Any]) -> dict[str, Any]:
    mech = _fragmented(args)
    tape = RandomTape(hex_arg(args, "seed"), TAG_FRAGMENTED_RAPPOR)
    out = mech.randomize(int_arg(args, "x"), tape)
    return {"fragments": [str(j) for j in out], "bitsConsumed": tape.bits_consumed}


def fragmented_analyze(args: dict[str, Any]) -> dict[str, Any]:
    mech = _fragmented(args)
    counts = args["counts"]
    if not isinstance(counts, list):
        raise ParameterError("counts must be a list")
    return {"estimates": [format_rational(e)
                          for e in mech.analyze([int_arg({"c": c}, "c") for c in counts])]}


def distributed_randomize(args: dict[str, Any]) -> dict[str, Any]:
    mech = _distributed(args)
    tape = RandomTape(hex_arg(args, "seed"), TAG_DISTRIBUTED)
    x = int_arg(args, "x")
    out = mech.randomize(x, tape)
    return {"z": str(out.plus - x), "plus": str(out.plus), "bitsConsumed": tape.bits_consumed}


def distributed_analyze(args: dict[str, Any]) -> dict[str, Any]:
    mech = _distributed(args)
    return {"estimate": format_rational(mech.analyze(int_arg(args, "plus")))}


def correlated_randomize(args: dict[str, Any]) -> dict[str, Any]:
    mech = _correlated(args)
    x = int_arg(args, "x")
    if x not in (0, 1):
        raise ParameterError("the correlated mechanism is for binary inputs")
    tape = RandomTape(hex_arg(args, "seed"), TAG_CORRELATED)
    z1, z2, z3 = mech.sample_noise(tape)
    return {"z1": str(z1), "z2": str(z2), "z3": str(z3), "plus": str(x + z1 + z3),
            "minus": str(z2 + z3), "bitsConsumed": tape.bits_consumed}


def correlated_analyze(args: dict[str, Any]) -> dict[str, Any]:
    mech = _correlated(args)
    return {"estimate": format_rational(mech.analyze(_messages(args)))}


def histogram_randomize(args: dict[str, Any]) -> dict[str, Any]:
    mech = _histogram(args)
    tape = RandomTape(hex_arg(args, "seed"), TAG_HISTOGRAM)
    out = mech.randomize(int_arg(args, "x"), tape)
    return {"plus": [str(m.plus) for m in out], "minus": [str(m.minus) for m in out],
            "bitsConsumed": tape.bits_consumed}


def histogram_randomize_fast(args: dict[str, Any]) -> dict[str, Any]:
    mech = _histogram(args)
    tape = RandomTape(hex_arg(args, "seed"), TAG_FAST_HISTOGRAM)
    out = randomize_fast(mech, int_arg(args, "x"), tape)
    keys = sorted(out.messages)
    return {"buckets": [str(j) for j in keys],
            "plus": [str(out.messages[j].plus) for j in keys],
            "minus": [str(out.messages[j].minus) for j in keys],
            "bitsConsumed": tape.bits_consumed}


def histogram_analyze(args: dict[str, Any]) -> dict[str, Any]:
    mech = _histogram(args)
    plus, minus = args["plus"], args["minus"]
    if not isinstance(plus, list) or not isinstance(minus, list) or len(plus) != len(minus):
        raise ParameterError("plus and minus must be lists of equal length")
    view = [Messages(int(p), int(m)) for p, m in zip(plus, minus, strict=True)]
    return {"estimates": [format_rational(e) for e in mech.analyze(view)]}


# -- headers -----------------------------------------------------------------------------------
COMMON_HEADER = [
    "Source: Ghazi, Kumar, Manurangsi, Pagh, 'Private Counting from Anonymous Messages: Near-Optimal"
    " Accuracy with Vanishing Communication Overhead' (ICML 2020), [GKMP20].",
    "Noise distributions are given as {family, parameters} with exact rational parameters:"
    " poisson(lambda), P[k] = lambda^k e^-lambda / k!; negative_binomial(r, p),"
    " P[k] = C(k+r-1, k) (1-p)^r p^k (k successes of probability p before the r-th failure,"
    " mean r p/(1-p)). The per-user share D/n is poisson(lambda/n) or negative_binomial(r/n, p).",
    "A sample from a share is exactly one call of the dpspec sampler of that family"
    " (dpspec.spec.samplers.poisson(tape, lambda/n) or"
    " dpspec.spec.samplers.negative_binomial(tape, r/n, p), see"
    " the samplers vectors), all on the user's random tape RandomTape(seed, TAG), TAG given below.",
    "Integers that are samples or message counts are decimal strings; estimates are exact"
    " rationals written 'a' or 'a/b' in lowest terms. bitsConsumed counts tape bits handed out.",
    VECTOR_SEED_HEADER + "; in production each user draws a fresh random seed.",
]

DISTRIBUTED_HEADER = COMMON_HEADER + [
    f"ghazi.distributed.randomize (Algorithm 1): tape = RandomTape(seed, '{TAG_DISTRIBUTED}');"
    " z = one sample of noise/n; the user sends plus = x + z messages '1'. x in {0..Delta}.",
    "ghazi.distributed.analyze (Algorithm 2): estimate = plus - E[noise].",
    "Invalid: x outside {0..Delta}, n < 1, Delta < 1, lambda < 0, r <= 0, p outside [0, 1),"
    " parameters that are not exact rationals.",
]

CORRELATED_HEADER = COMMON_HEADER + [
    f"ghazi.correlated.randomize (Algorithm 3): tape = RandomTape(seed, '{TAG_CORRELATED}');"
    " z1 = sample of d1/n, z2 = sample of d2/n, z3 = sample of d3/n, in this order on one tape;"
    " the user sends plus = x + z1 + z3 messages +1 and minus = z2 + z3 messages -1. x in {0, 1}.",
    "ghazi.correlated.analyze (Algorithm 4): estimate = plus - minus - (E[d1] - E[d2]).",
    "With d1 = d2 = negative_binomial(1, a) the estimate's error is the discrete Laplace"
    " P[k] = (1-a)/(1+a) a^|k| (Observation 16).",
]

HISTOGRAM_FAST_HEADER = COMMON_HEADER + [
    f"ghazi.histogram.randomize_fast (sec. 1.2, discrete compound Poisson form): tape ="
    f" RandomTape(seed, '{TAG_FAST_HISTOGRAM}'). For each share S in order (d1/n, d2/n, d3/n for"
    " the correlated mechanism; noise/n for the distributed one): N = poisson(tape, B * rate(S))"
    " with rate(poisson(mu)) = mu and rate(negative_binomial(r, p)) = r p / (1 - p); then N times:"
    " j = tape.uniform(B); for poisson Z[j] += 1; for negative_binomial J = 1 + geometric(tape,"
    " 1 - p) and, if bernoulli_ratio(tape, 1, J), Z[j] += J. Messages: plus[j] = [x == j] + Z1[j]"
    " + Z3[j], minus[j] = Z2[j] + Z3[j] (distributed: plus[j] = [x == j] + Z[j]).",
    "Outputs list only the buckets with a message, in increasing order: buckets, plus, minus.",
    "The law of the messages equals ghazi.histogram.randomize's (same per-bucket distribution,"
    " independent buckets); the tape is read differently, so the two have separate vectors.",
    "Invalid: x outside {0..B-1}, B < 1.",
]

HISTOGRAM_HEADER = COMMON_HEADER + [
    f"ghazi.histogram.randomize (Corollary 2): tape = RandomTape(seed, '{TAG_HISTOGRAM}'); for"
    " buckets j = 0..B-1 in order, run the per-bucket randomizer with input bit [x == j] on the"
    " same tape: Algorithm 3 (params d1, d2, d3) or Algorithm 1 (param noise, Delta = 1)."
    " Outputs plus[j], minus[j] are the counts of messages (j, +1) and (j, -1).",
    "ghazi.histogram.analyze: estimates[j] = the per-bucket analyzer (Algorithm 4 or 2) on"
    " plus[j], minus[j].",
    "Invalid: x outside {0..B-1}, B < 1.",
]


FRAGMENTED_HEADER = [
    "Source: Fragmented RAPPOR as compared in sec. 5.2 of Ghazi, Kumar, Manurangsi, Pagh (ICML"
    " 2020), from Erlingsson, Feldman, Mironov, Raghunathan, Song, Talwar, Thakurta, 'Encode,"
    " Shuffle, Analyze Privacy Revisited' (arXiv:2001.03618, 2020): one-time symmetric RAPPOR whose"
    " set bits are sent as separate, unlinkable messages (fragments); dpspec.spec.shuffled.fragmented.",
    f"ghazi.fragmented_rappor.randomize: tape = RandomTape(seed, '{TAG_FRAGMENTED_RAPPOR}'); for"
    " j = 0..B-1 in order, b_j = [j == x] XOR bernoulli(tape, f) (dpspec.spec.samplers.bernoulli:"
    " an exact comparison with the rational f; no bits when f = 0). Output: fragments = the j"
    " with b_j = 1, increasing. x in {0..B-1}.",
    "ghazi.fragmented_rappor.analyze: counts[j] = number of fragments j in the shuffled output;"
    " estimates[j] = (counts[j] - n f) / (1 - 2 f), exact rationals 'a' or 'a/b'.",
    "Parameters: f an exact rational in [0, 1/2) (decimal or 'a/b'), B >= 1, n >= 1 decimal"
    " strings. bitsConsumed counts tape bits handed out. Vector seeds are TurboSHAKE128(b'dpspec"
    " vector seed ' || label, D = 1, 32 bytes); in production each user draws a fresh seed.",
    "Invalid: x outside {0..B-1}, f outside [0, 1/2), B < 1, n < 1, a count list of the wrong"
    " length or with a negative count.",
]


class ShuffledFamily(Family):
    name = "shuffled"
    summary = "shuffled-model counting and histograms of Ghazi, Kumar, Manurangsi, Pagh (ICML 2020)"

    def handlers(self) -> dict[str, Handler]:
        return {
            "ghazi.distributed.randomize": distributed_randomize,
            "ghazi.distributed.analyze": distributed_analyze,
            "ghazi.correlated.randomize": correlated_randomize,
            "ghazi.correlated.analyze": correlated_analyze,
            "ghazi.histogram.randomize": histogram_randomize,
            "ghazi.histogram.analyze": histogram_analyze,
            "ghazi.histogram.randomize_fast": histogram_randomize_fast,
            "ghazi.fragmented_rappor.randomize": fragmented_randomize,
            "ghazi.fragmented_rappor.analyze": fragmented_analyze,
        }

    def schemas(self) -> dict[str, dict[str, Any]]:
        dist_args = {"noise": _NOISE, "n": DEC, "Delta": DEC, "seed": HEX, "x": DEC}
        corr_args = {"d1": _NOISE, "d2": _NOISE, "d3": _NOISE, "n": DEC, "seed": HEX, "x": DEC}
        est = {"type": "object", "required": ["estimate"], "properties": {"estimate": RAT}}
        dec_list: dict[str, Any] = {"type": "array", "items": DEC}
        ops_d: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
            "ghazi.distributed.randomize": (
                {"properties": dist_args},
                {"type": "object", "required": ["z", "plus", "bitsConsumed"],
                 "properties": {"z": DEC, "plus": DEC, "bitsConsumed": COUNT}}),
            "ghazi.distributed.analyze": (
                {"properties": {**dist_args, "plus": DEC}}, est),
        }
        ops_c: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
            "ghazi.correlated.randomize": (
                {"properties": corr_args},
                {"type": "object", "required": ["z1", "z2", "z3", "plus", "minus", "bitsConsumed"],
                 "properties": {"z1": DEC, "z2": DEC, "z3": DEC, "plus": DEC, "minus": DEC,
                                "bitsConsumed": COUNT}}),
            "ghazi.correlated.analyze": (
                {"properties": {**corr_args, "plus": DEC, "minus": DEC}}, est),
        }
        hist_args = {**corr_args, "noise": _NOISE, "B": DEC}
        ops_h: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
            "ghazi.histogram.randomize": (
                {"properties": hist_args},
                {"type": "object", "required": ["plus", "minus", "bitsConsumed"],
                 "properties": {"plus": dec_list, "minus": dec_list, "bitsConsumed": COUNT}}),
            "ghazi.histogram.analyze": (
                {"properties": {**hist_args, "plus": dec_list, "minus": dec_list}},
                {"type": "object", "required": ["estimates"],
                 "properties": {"estimates": {"type": "array", "items": RAT}}}),
        }
        ops_f: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
            "ghazi.histogram.randomize_fast": (
                {"properties": hist_args},
                {"type": "object", "required": ["buckets", "plus", "minus", "bitsConsumed"],
                 "properties": {"buckets": dec_list, "plus": dec_list, "minus": dec_list,
                                "bitsConsumed": COUNT}}),
        }
        frag_args = {"f": RAT, "B": DEC, "n": DEC, "seed": HEX, "x": DEC}
        ops_r: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
            "ghazi.fragmented_rappor.randomize": (
                {"properties": frag_args},
                {"type": "object", "required": ["fragments", "bitsConsumed"],
                 "properties": {"fragments": dec_list, "bitsConsumed": COUNT}}),
            "ghazi.fragmented_rappor.analyze": (
                {"properties": {**frag_args, "counts": dec_list}},
                {"type": "object", "required": ["estimates"],
                 "properties": {"estimates": {"type": "array", "items": RAT}}}),
        }
        return {
            FRAGMENTED_SCHEMA: family_schema(
                FRAGMENTED_SCHEMA, "Fragmented RAPPOR vectors (GKMP20 sec. 5.2)", ops_r),
            HISTOGRAM_FAST_SCHEMA: family_schema(
                HISTOGRAM_FAST_SCHEMA, "GKMP20 fast histogram randomizer vectors", ops_f),
            DISTRIBUTED_SCHEMA: family_schema(DISTRIBUTED_SCHEMA,
                                              "GKMP20 D-distributed mechanism vectors", ops_d),
            CORRELATED_SCHEMA: family_schema(CORRELATED_SCHEMA,
                                             "GKMP20 correlated distributed mechanism vectors", ops_c),
            HISTOGRAM_SCHEMA: family_schema(HISTOGRAM_SCHEMA, "GKMP20 histogram vectors", ops_h),
        }

    def files(self) -> list[VectorFile]:
        return [self._distributed_file(), self._correlated_file(), self._histogram_file(),
                self._histogram_fast_file(), self._fragmented_file()]

    # -- generators ------------------------------------------------------------------------
    def _run(self, op: str, args: dict[str, Any]) -> dict[str, Any]:
        return self.handlers()[op](args)

    def _group(self, tc: TestNumberer, op: str, params: dict[str, Any],
               cases: list[tuple[str, dict[str, Any]]],
               invalid: Sequence[InvalidCase] = ()) -> dict[str, Any]:
        """A group of ``op``: the valid ``cases`` (outputs from the reference), then ``invalid``."""
        tests = []
        for label, inputs in cases:
            tests.append(test_entry(tc(), label, inputs, self._run(op, {**params, **inputs})))
        tests += invalid_tests(tc, self.handlers()[op], params, invalid)
        return {"op": op, "params": params, "tests": tests}

    def _seeds(self, label: str, count: int) -> list[str]:
        return [vector_seed(f"shuffled/{label}/{i}").hex() for i in range(count)]

    def _noisy_seeds(self, label: str, op: str, params: dict[str, Any], text: str,
                     count: int) -> list[tuple[str, dict[str, Any]]]:
        """The first ``count`` seeds (in label order) whose user sends noise messages: with large n
        most users send none, and a vector set should show the rare case too."""
        found: list[tuple[str, dict[str, Any]]] = []
        i = 0
        while len(found) < count:
            inputs = {"seed": vector_seed(f"shuffled/{label}/{i}").hex(), "x": "1"}
            out = self._run(op, {**params, **inputs})
            if int(out["plus"]) > 1 or int(out.get("minus", "0")) > 0:
                found.append((f"{text}, x = 1, a user that sends noise (seed {label}/{i})", inputs))
            i += 1
        return found

    def _distributed_file(self) -> VectorFile:
        tc = TestNumberer()
        groups: list[dict[str, Any]] = []
        profiles: list[tuple[str, Divisible, int, int, int]] = [
            # label, noise, n, Delta, number of seeds
            ("poisson lambda = 35, n = 10000 (eps = 1, delta = 1e-6 size)", Poisson(35), 10_000, 1, 6),
            ("poisson lambda = 7/2, n = 3 (large shares)", Poisson(Fraction(7, 2)), 3, 1, 6),
            ("negative binomial r = 5, p = 9/10, n = 4, Delta = 3", NegativeBinomial(5, "0.9"), 4, 3, 6),
            ("negative binomial r = 1/3, p = 1/2, n = 1 (the share is D itself)",
             NegativeBinomial(Fraction(1, 3), Fraction(1, 2)), 1, 1, 4),
        ]
        for i, (label, noise, n, delta_sum, count) in enumerate(profiles):
            params = {"noise": noise_to_json(noise), "n": str(n), "Delta": str(delta_sum)}
            cases = [(f"{label}, x = {j % (delta_sum + 1)}",
                      {"seed": s, "x": str(j % (delta_sum + 1))})
                     for j, s in enumerate(self._seeds(f"dist/{i}", count))]
            if i == 0:
                cases += self._noisy_seeds(f"dist/{i}/noisy", "ghazi.distributed.randomize", params,
                                           label, 2)
            invalid: list[InvalidCase] = []
            if i == 0:
                seed = self._seeds("dist/bad", 1)[0]
                invalid = [("input above Delta", {"seed": seed, "x": str(delta_sum + 1)}, "BadInput"),
                           ("negative input", {"seed": seed, "x": "-1"}, "BadInput"),
                           ("15-byte seed", {"seed": "00" * 15, "x": "0"}, "BadSeed")]
            groups.append(self._group(tc, "ghazi.distributed.randomize", params, cases, invalid))
        seed = self._seeds("dist/badparams", 1)[0]
        bad_params: list[InvalidCase] = [
            ("negative lambda", {"noise": {"family": "poisson", "lambda": "-1"}}, "BadNoise"),
            ("p = 1", {"noise": {"family": "negative_binomial", "r": "1", "p": "1"}}, "BadNoise"),
            ("r = 0", {"noise": {"family": "negative_binomial", "r": "0", "p": "1/2"}}, "BadNoise"),
            ("hexadecimal is not a rational spelling",
             {"noise": {"family": "poisson", "lambda": "0x23"}}, "BadNoise"),
            ("a malformed decimal is rejected",
             {"noise": {"family": "poisson", "lambda": "35.0.0"}}, "BadNoise"),
            ("n = 0", {"n": "0"}, "BadUsers"),
            ("Delta = 0", {"Delta": "0"}, "BadDelta"),
        ]
        base = {"noise": noise_to_json(Poisson(2)), "n": "10", "Delta": "1", "seed": seed, "x": "0"}
        groups.append(self._group(tc, "ghazi.distributed.randomize", {}, [],
                                  [(label, {**base, **change}, flag) for label, change, flag in bad_params]))

        params = {"noise": noise_to_json(Poisson(35)), "n": "10000", "Delta": "1"}
        cases = [(f"U = {u}", {"plus": str(u)}) for u in (0, 35, 4035, 10_000)]
        groups.append(self._group(tc, "ghazi.distributed.analyze", params, cases,
                                  [("negative count", {"plus": "-1"}, "BadCount")]))
        params = {"noise": noise_to_json(NegativeBinomial(Fraction(5, 2), Fraction(2, 3))),
                  "n": "7", "Delta": "2"}
        cases = [(f"U = {u}, E[D] = 5", {"plus": str(u)}) for u in (0, 9)]
        groups.append(self._group(tc, "ghazi.distributed.analyze", params, cases))
        return self.vector_file("shuffled/ghazi_distributed.json",
                                algorithm="GKMP20 D-distributed mechanism (Algorithms 1, 2)",
                                schema=DISTRIBUTED_SCHEMA, header=DISTRIBUTED_HEADER, notes=_NOTES,
                                groups=groups)

    def _correlated_file(self) -> VectorFile:
        tc = TestNumberer()
        groups: list[dict[str, Any]] = []
        a = Fraction(43, 100)
        profiles: list[tuple[str, Divisible, Divisible, Divisible, int, int]] = [
            ("d1 = d2 = NB(1, 43/100), d3 = NB(27/10, 987/1000), n = 10000", NegativeBinomial(1, a),
             NegativeBinomial(1, a), NegativeBinomial(Fraction(27, 10), Fraction(987, 1000)),
             10_000, 8),
            ("d1 = d2 = NB(1, 43/100), d3 = NB(27/10, 987/1000), n = 2 (large shares)",
             NegativeBinomial(1, a), NegativeBinomial(1, a),
             NegativeBinomial(Fraction(27, 10), Fraction(987, 1000)), 2, 8),
            ("d1 = NB(2, 1/3), d2 = NB(1, 1/5), d3 = poisson(40), n = 5", NegativeBinomial(2, "1/3"),
             NegativeBinomial(1, "0.2"), Poisson(40), 5, 6),
        ]
        for i, (label, d1, d2, d3, n, count) in enumerate(profiles):
            params = {"d1": noise_to_json(d1), "d2": noise_to_json(d2), "d3": noise_to_json(d3),
                      "n": str(n)}
            cases = [(f"{label}, x = {j % 2}", {"seed": s, "x": str(j % 2)})
                     for j, s in enumerate(self._seeds(f"corr/{i}", count))]
            if i == 0:
                cases += self._noisy_seeds(f"corr/{i}/noisy", "ghazi.correlated.randomize", params,
                                           label, 2)
            invalid: list[InvalidCase] = []
            if i == 0:
                seed = self._seeds("corr/bad", 1)[0]
                invalid = [("input 2 is not binary", {"seed": seed, "x": "2"}, "BadInput"),
                           ("negative input", {"seed": seed, "x": "-1"}, "BadInput")]
            groups.append(self._group(tc, "ghazi.correlated.randomize", params, cases, invalid))
        d1, d2, d3 = (NegativeBinomial(1, a), NegativeBinomial(1, Fraction(1, 5)),
                      NegativeBinomial(Fraction(27, 10), Fraction(987, 1000)))
        params = {"d1": noise_to_json(d1), "d2": noise_to_json(d2), "d3": noise_to_json(d3),
                  "n": "10000"}
        cases = [(f"U+ = {p}, U- = {m}", {"plus": str(p), "minus": str(m)})
                 for p, m in [(0, 0), (4321, 412), (5000, 5001)]]
        groups.append(self._group(tc, "ghazi.correlated.analyze", params, cases,
                                  [("negative count", {"plus": "3", "minus": "-1"}, "BadCount")]))
        return self.vector_file("shuffled/ghazi_correlated.json",
                                algorithm="GKMP20 correlated distributed mechanism (Algorithms 3, 4)",
                                schema=CORRELATED_SCHEMA, header=CORRELATED_HEADER, notes=_NOTES,
                                groups=groups)

    def _histogram_file(self) -> VectorFile:
        tc = TestNumberer()
        groups: list[dict[str, Any]] = []
        a = Fraction(43, 100)
        corr: dict[str, Any] = {
            "d1": noise_to_json(NegativeBinomial(1, a)), "d2": noise_to_json(NegativeBinomial(1, a)),
            "d3": noise_to_json(NegativeBinomial(Fraction(27, 10), Fraction(987, 1000)))}
        profiles: list[tuple[str, dict[str, Any]]] = [
            ("correlated, B = 4, n = 3", {**corr, "n": "3", "B": "4"}),
            ("correlated, B = 10, n = 1000", {**corr, "n": "1000", "B": "10"}),
            ("poisson(35), B = 5, n = 2", {"noise": noise_to_json(Poisson(35)), "n": "2", "B": "5"}),
        ]
        cases: list[tuple[str, dict[str, Any]]]
        for i, (label, params) in enumerate(profiles):
            buckets = int(params["B"])
            cases = [(f"{label}, x = {j % buckets}", {"seed": s, "x": str(j % buckets)})
                     for j, s in enumerate(self._seeds(f"hist/{i}", 4))]
            invalid: list[InvalidCase] = []
            if i == 0:
                seed = self._seeds("hist/bad", 1)[0]
                invalid = [("input equal to B", {"seed": seed, "x": params["B"]}, "BadInput")]
            groups.append(self._group(tc, "ghazi.histogram.randomize", params, cases, invalid))
        params = {**corr, "n": "1000", "B": "3"}
        cases = [
            ("three buckets", {"plus": ["400", "350", "260"], "minus": ["3", "0", "7"]})]
        groups.append(self._group(tc, "ghazi.histogram.analyze", params, cases,
                                  [("two buckets for B = 3", {"plus": ["1", "2"], "minus": ["0", "0"]},
                                    "BadCount")]))
        return self.vector_file("shuffled/ghazi_histogram.json",
                                algorithm="GKMP20 histogram (Corollary 2)", schema=HISTOGRAM_SCHEMA,
                                header=HISTOGRAM_HEADER, notes=_NOTES, groups=groups)

    def _histogram_fast_file(self) -> VectorFile:
        tc = TestNumberer()
        groups: list[dict[str, Any]] = []
        a = Fraction(43, 100)
        corr: dict[str, Any] = {
            "d1": noise_to_json(NegativeBinomial(1, a)), "d2": noise_to_json(NegativeBinomial(1, a)),
            "d3": noise_to_json(NegativeBinomial(Fraction(27, 10), Fraction(987, 1000)))}
        op = "ghazi.histogram.randomize_fast"
        profiles: list[tuple[str, dict[str, Any]]] = [
            ("correlated, B = 4, n = 3 (many messages per bucket)", {**corr, "n": "3", "B": "4"}),
            ("correlated, B = 1000, n = 1000 (most buckets silent)",
             {**corr, "n": "1000", "B": "1000"}),
            ("correlated, B = 100000, n = 10000 (the fast form's case)",
             {**corr, "n": "10000", "B": "100000"}),
            ("poisson(35), B = 5, n = 2", {"noise": noise_to_json(Poisson(35)), "n": "2", "B": "5"}),
            ("poisson(35), B = 10000, n = 10000", {"noise": noise_to_json(Poisson(35)),
                                                    "n": "10000", "B": "10000"}),
        ]
        for i, (label, params) in enumerate(profiles):
            buckets = int(params["B"])
            cases = [(f"{label}, x = {(7 * j) % buckets}", {"seed": s, "x": str((7 * j) % buckets)})
                     for j, s in enumerate(self._seeds(f"hist-fast/{i}", 4))]
            invalid: list[InvalidCase] = []
            if i == 0:
                seed = self._seeds("hist-fast/bad", 1)[0]
                invalid = [("input equal to B", {"seed": seed, "x": params["B"]}, "BadInput"),
                           ("negative input", {"seed": seed, "x": "-1"}, "BadInput")]
            groups.append(self._group(tc, op, params, cases, invalid))
        return self.vector_file("shuffled/ghazi_histogram_fast.json",
                                algorithm="GKMP20 histogram randomizer, discrete compound Poisson form"
                                " (sec. 1.2)", schema=HISTOGRAM_FAST_SCHEMA,
                                header=HISTOGRAM_FAST_HEADER, notes=_NOTES, groups=groups)

    def _fragmented_file(self) -> VectorFile:
        tc = TestNumberer()
        groups: list[dict[str, Any]] = []
        op = "ghazi.fragmented_rappor.randomize"
        profiles: list[tuple[str, dict[str, Any]]] = [
            # f of dpspec experiment ghazi at eps = 1, delta = 1e-6, n = 10^4 (fmt22, eps/2)
            ("f = 0.01381019023, B = 10, n = 10000 (the experiment's calibration)",
             {"f": "0.01381019023", "B": "10", "n": "10000"}),
            ("f = 1/4, B = 5, n = 3", {"f": "1/4", "B": "5", "n": "3"}),
            ("f = 0 (no randomization, no tape), B = 4, n = 2", {"f": "0", "B": "4", "n": "2"}),
            ("f = 499/1000 (near 1/2), B = 8, n = 5", {"f": "499/1000", "B": "8", "n": "5"}),
            ("B = 1, f = 1/3, n = 1 (a single bucket)", {"f": "1/3", "B": "1", "n": "1"}),
        ]
        for i, (label, params) in enumerate(profiles):
            buckets = int(params["B"])
            cases = [(f"{label}, x = {(3 * j) % buckets}", {"seed": s, "x": str((3 * j) % buckets)})
                     for j, s in enumerate(self._seeds(f"frag/{i}", 4))]
            invalid: list[tuple[str, dict[str, Any], str]] = []
            if i == 1:
                seed = self._seeds("frag/bad", 1)[0]
                invalid = [("input equal to B", {"seed": seed, "x": "5"}, "BadInput"),
                           ("negative input", {"seed": seed, "x": "-1"}, "BadInput"),
                           ("15-byte seed", {"seed": "00" * 15, "x": "0"}, "BadSeed")]
            groups.append(self._group(tc, op, params, cases, invalid))
        seed = self._seeds("frag/badparams", 1)[0]
        base = {"f": "1/4", "B": "3", "n": "3", "seed": seed, "x": "0"}
        groups.append(self._group(tc, op, {}, [], [
            (label, {**base, **change}, flag) for label, change, flag in [
                ("f = 1/2 (no information)", {"f": "1/2"}, "BadFlip"),
                ("negative f", {"f": "-1/10"}, "BadFlip"),
                ("f above 1/2", {"f": "0.7"}, "BadFlip"),
                ("B = 0", {"B": "0"}, "BadBuckets"),
                ("n = 0", {"n": "0"}, "BadUsers")]]))
        op = "ghazi.fragmented_rappor.analyze"
        params = {"f": "1/4", "B": "3", "n": "8"}
        count_cases: list[tuple[str, dict[str, Any]]] = [
            ("counts 3, 2, 6", {"counts": ["3", "2", "6"]}),
            ("all zero", {"counts": ["0", "0", "0"]}),
            ("every user sent every bucket", {"counts": ["8", "8", "8"]})]
        groups.append(self._group(
            tc, op, params, count_cases,
            [("two counts for B = 3", {"counts": ["1", "2"]}, "BadCount"),
             ("a negative count", {"counts": ["1", "-2", "0"]}, "BadCount")]))
        return self.vector_file("shuffled/ghazi_fragmented_rappor.json",
                                algorithm="Fragmented RAPPOR (EFMRSTT20; compared in GKMP20 sec. 5.2)",
                                schema=FRAGMENTED_SCHEMA, header=FRAGMENTED_HEADER,
                                notes=_FRAGMENTED_NOTES, groups=groups)


_NOTES = {
    "BadInput": "The user input is outside the mechanism's input domain.",
    "BadSeed": "The seed must have 16 to 255 bytes (the random tape).",
    "BadNoise": "Noise parameters must be exact rationals with lambda >= 0, r > 0, 0 <= p < 1.",
    "BadUsers": "The number of users n must be a positive integer.",
    "BadDelta": "Delta must be a positive integer.",
    "BadCount": "Message counts must be non-negative integers, one pair per bucket.",
}
_FRAGMENTED_NOTES = {
    "BadInput": _NOTES["BadInput"], "BadSeed": _NOTES["BadSeed"], "BadUsers": _NOTES["BadUsers"],
    "BadFlip": "The flip probability f must be an exact rational in [0, 1/2).",
    "BadBuckets": "B must be a positive integer.",
    "BadCount": "Bucket counts must be non-negative integers, one per bucket.",
}

FAMILY = ShuffledFamily()
