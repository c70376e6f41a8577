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
    run_protocol,
)
from dpspec.spec.shuffled.divisible import (
    Divisible,
    NegativeBinomial,
    ParameterError,
    Poisson,
    format_rational,
)
from dpspec.spec.shuffled.fast import (
    TAG_FAST_HISTOGRAM,
    expected_messages,
    expected_points,
    point_rate,
    randomize_fast,
    randomize_fast_seeded,
    sparse_shares,
)
from dpspec.spec.shuffled.fragmented import TAG_FRAGMENTED_RAPPOR, FragmentedRappor
from dpspec.spec.shuffled.histogram import TAG_HISTOGRAM, HistogramMechanism
from dpspec.spec.tape import RandomTape

DISTRIBUTED_SCHEMA = "ghazi_distributed-v1.json"
CORRELATED_SCHEMA = "ghazi_correlated-v1.json"
HISTOGRAM_SCHEMA = "ghazi_histogram-v1.json"
HISTOGRAM_FAST_SCHEMA = "ghazi_histogram_fast-v1.json"
FRAGMENTED_SCHEMA = "ghazi_fragmented_rappor-v1.json"
PROTOCOL_SCHEMA = "ghazi_protocol-v1.json"

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
        delta_sum = int_arg(args, "Delta") if "Delta" in args else 1
        bucket = DistributedMechanism(noise_from_json(args["noise"], "noise"), int_arg(args, "n"),
                                      delta_sum)
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
    received: Messages | int = _messages(args) if "minus" in args else int_arg(args, "plus")
    return {"estimate": format_rational(mech.analyze(received))}


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


def _int_list(args: dict[str, Any], key: str) -> list[int]:
    value = args[key]
    if not isinstance(value, list):
        raise ParameterError(f"{key} must be a list")
    return [int_arg({key: v}, key) for v in value]


def _seed_list(args: dict[str, Any]) -> list[bytes]:
    value = args["seeds"]
    if not isinstance(value, list):
        raise ParameterError("seeds must be a list")
    return [hex_arg({"seed": v}, "seed") for v in value]


def protocol_run(args: dict[str, Any]) -> dict[str, Any]:
    """run_protocol of the D-distributed (param noise) or correlated (d1, d2, d3) mechanism; the
    users' messages again by randomize_seeded (the same tapes)."""
    mech: DistributedMechanism | CorrelatedMechanism
    mech = _distributed(args) if "noise" in args else _correlated(args)
    tag = TAG_DISTRIBUTED if isinstance(mech, DistributedMechanism) else TAG_CORRELATED
    inputs, seeds = _int_list(args, "inputs"), _seed_list(args)
    view, estimate = run_protocol(mech, inputs, [RandomTape(s, tag) for s in seeds])
    users = [mech.randomize_seeded(x, s) for x, s in zip(inputs, seeds, strict=True)]
    return {"userPlus": [str(m.plus) for m in users], "userMinus": [str(m.minus) for m in users],
            "plus": str(view.plus), "minus": str(view.minus), "total": str(view.total),
            "estimate": format_rational(estimate)}


def histogram_run(args: dict[str, Any]) -> dict[str, Any]:
    """Every user's randomize_seeded, the shuffler's totals (shuffle) and analyze."""
    mech = _histogram(args)
    inputs, seeds = _int_list(args, "inputs"), _seed_list(args)
    if len(inputs) != len(seeds):
        raise ParameterError("one seed per input")
    totals = mech.shuffle([mech.randomize_seeded(x, s) for x, s in zip(inputs, seeds, strict=True)])
    return {"n": str(mech.n), "messageBits": str(mech.message_bits),
            "plus": [str(m.plus) for m in totals], "minus": [str(m.minus) for m in totals],
            "estimates": [format_rational(e) for e in mech.analyze(totals)]}


def histogram_shuffle(args: dict[str, Any]) -> dict[str, Any]:
    """HistogramMechanism.shuffle on given user outputs (per-bucket counts)."""
    mech = _histogram(args)
    users = args["users"]
    if not isinstance(users, list) or not all(isinstance(u, dict) for u in users):
        raise ParameterError("users must be a list of objects")
    outs = []
    for u in users:
        plus, minus = _int_list(u, "plus"), _int_list(u, "minus")
        if len(plus) != len(minus):
            raise ParameterError("plus and minus must have equal length")
        outs.append([Messages(p, m) for p, m in zip(plus, minus, strict=True)])
    totals = mech.shuffle(outs)
    return {"plus": [str(m.plus) for m in totals], "minus": [str(m.minus) for m in totals]}


def histogram_fast_dense(args: dict[str, Any]) -> dict[str, Any]:
    """randomize_fast_seeded laid out densely, its message total and the expected costs."""
    mech = _histogram(args)
    out = randomize_fast_seeded(mech, int_arg(args, "x"), hex_arg(args, "seed"))
    dense = out.dense()
    return {"plus": [str(m.plus) for m in dense], "minus": [str(m.minus) for m in dense],
            "total": str(out.total), "expectedPoints": format_rational(expected_points(mech)),
            "expectedMessages": format_rational(expected_messages(mech))}


def histogram_sparse_shares(args: dict[str, Any]) -> dict[str, Any]:
    """sparse_shares(share, B, RandomTape(seed, TAG_FAST_HISTOGRAM)): steps 1-2 of the DCP form."""
    share = noise_from_json(args["share"], "share")
    tape = RandomTape(hex_arg(args, "seed"), TAG_FAST_HISTOGRAM)
    out = sparse_shares(share, int_arg(args, "B"), tape)
    keys = sorted(out)
    return {"description": share.describe(), "pointRate": format_rational(point_rate(share)),
            "buckets": [str(j) for j in keys], "values": [str(out[j]) for j in keys],
            "bitsConsumed": tape.bits_consumed}


def fragmented_counts(args: dict[str, Any]) -> dict[str, Any]:
    """FragmentedRappor.counts of a shuffled multiset of fragments, and mean_count of each count."""
    mech = _fragmented(args)
    counts = mech.counts(_int_list(args, "fragments"))
    return {"counts": [str(c) for c in counts],
            "meanCounts": [format_rational(mech.mean_count(c)) for c in counts],
            "variance": format_rational(mech.variance()),
            "expectedMessages": format_rational(mech.expected_messages())}


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

PROTOCOL_HEADER = COMMON_HEADER + [
    "ghazi.protocol.run: the whole binary-summation protocol among n users (run_protocol): user i"
    f" runs Algorithm 1 on RandomTape(seeds[i], '{TAG_DISTRIBUTED}') (param noise; inputs in"
    f" {{0..Delta}}) or Algorithm 3 on RandomTape(seeds[i], '{TAG_CORRELATED}') (params d1, d2, d3;"
    " inputs in {0, 1}); userPlus/userMinus are each user's message counts, plus/minus the"
    " shuffler's totals, total = plus + minus, estimate the analyzer's (Algorithm 2 or 4)."
    " There must be exactly n inputs and n seeds.",
    "ghazi.distributed.analyze with a minus count: the view as message counts; a -1 message is"
    " refused (Algorithm 1 sends only messages 1).",
    f"ghazi.histogram.run (Corollary 2): user i runs ghazi.histogram.randomize on RandomTape(seeds[i],"
    f" '{TAG_HISTOGRAM}'); plus/minus are the per-bucket totals over the users, estimates the"
    " per-bucket analyzer on them; n is the mechanism's n, messageBits = bitlength(B - 1) index"
    " bits plus 1 sign bit for correlated buckets (none for Algorithm 1's). A D-distributed"
    " bucket must have Delta = 1.",
    "ghazi.histogram.shuffle: the shuffler's per-bucket totals of given user outputs; every user"
    " output must have B buckets.",
    f"ghazi.histogram.fast_dense: ghazi.histogram.randomize_fast on RandomTape(seed,"
    f" '{TAG_FAST_HISTOGRAM}') laid out over all B buckets (plus[j], minus[j], zeros included);"
    " total = all messages; expectedPoints = sum over the shares S of B * rate(S) (the expected"
    " number of compound-Poisson points drawn); expectedMessages = 1 + B (E[Z1] + E[Z2] + 2 E[Z3])"
    " (correlated) or 1 + B E[Z] (distributed), shares Z = D/n.",
    f"ghazi.histogram.sparse_shares: steps 1-2 of the fast form for one share S on RandomTape(seed,"
    f" '{TAG_FAST_HISTOGRAM}'): N = poisson(tape, B * rate(S)), then N points (see the"
    " randomize_fast header); output the buckets with a non-zero value, increasing, and their"
    " values; pointRate = rate(S); description = 'family(k=v, ...)' with the parameters as"
    " written here.",
    "ghazi.fragmented_rappor.counts: counts[j] = the number of fragments j in the shuffled"
    " multiset; meanCounts[j] = E[C_j] for a bucket whose true count is counts[j]:"
    " h (1 - f) + (n - h) f; variance = n f (1 - f)/(1 - 2f)^2; expectedMessages = (1 - f) +"
    " (B - 1) f. Fragments outside {0..B-1} are refused.",
]



def _correlated_profile(a: Fraction) -> dict[str, Any]:
    """The correlated noise of the histogram and protocol files: D1 = D2 = NB(1, a) and
    D3 = NB(27/10, 987/1000)."""
    return {"d1": noise_to_json(NegativeBinomial(1, a)), "d2": noise_to_json(NegativeBinomial(1, a)),
            "d3": noise_to_json(NegativeBinomial(Fraction(27, 10), Fraction(987, 1000)))}

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
            "ghazi.protocol.run": protocol_run,
            "ghazi.histogram.run": histogram_run,
            "ghazi.histogram.shuffle": histogram_shuffle,
            "ghazi.histogram.fast_dense": histogram_fast_dense,
            "ghazi.histogram.sparse_shares": histogram_sparse_shares,
            "ghazi.fragmented_rappor.counts": fragmented_counts,
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
                {"properties": {**dist_args, "plus": DEC, "minus": DEC}}, est),
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
        hex_list: dict[str, Any] = {"type": "array", "items": HEX}
        run_args = {**dist_args, **corr_args, "inputs": dec_list, "seeds": hex_list}
        user = {"type": "object", "properties": {"plus": dec_list, "minus": dec_list}}
        ops_p: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
            "ghazi.distributed.analyze": ops_d["ghazi.distributed.analyze"],
            "ghazi.protocol.run": (
                {"properties": run_args},
                {"type": "object", "required": ["userPlus", "userMinus", "plus", "minus", "total",
                                                "estimate"],
                 "properties": {"userPlus": dec_list, "userMinus": dec_list, "plus": DEC,
                                "minus": DEC, "total": DEC, "estimate": RAT}}),
            "ghazi.histogram.run": (
                {"properties": {**hist_args, "Delta": DEC, "inputs": dec_list, "seeds": hex_list}},
                {"type": "object", "required": ["n", "messageBits", "plus", "minus", "estimates"],
                 "properties": {"n": DEC, "messageBits": DEC, "plus": dec_list, "minus": dec_list,
                                "estimates": {"type": "array", "items": RAT}}}),
            "ghazi.histogram.shuffle": (
                {"properties": {**hist_args, "users": {"type": "array", "items": user}}},
                {"type": "object", "required": ["plus", "minus"],
                 "properties": {"plus": dec_list, "minus": dec_list}}),
            "ghazi.histogram.fast_dense": (
                {"properties": hist_args},
                {"type": "object", "required": ["plus", "minus", "total", "expectedPoints",
                                                "expectedMessages"],
                 "properties": {"plus": dec_list, "minus": dec_list, "total": DEC,
                                "expectedPoints": RAT, "expectedMessages": RAT}}),
            "ghazi.histogram.sparse_shares": (
                {"properties": {"share": _NOISE, "B": DEC, "seed": HEX}},
                {"type": "object", "required": ["description", "pointRate", "buckets", "values",
                                                "bitsConsumed"],
                 "properties": {"description": {"type": "string"}, "pointRate": RAT,
                                "buckets": dec_list, "values": dec_list, "bitsConsumed": COUNT}}),
            "ghazi.fragmented_rappor.counts": (
                {"properties": {**frag_args, "fragments": dec_list}},
                {"type": "object", "required": ["counts", "meanCounts", "variance",
                                                "expectedMessages"],
                 "properties": {"counts": dec_list, "meanCounts": {"type": "array", "items": RAT},
                                "variance": RAT, "expectedMessages": RAT}}),
        }
        return {
            PROTOCOL_SCHEMA: family_schema(
                PROTOCOL_SCHEMA, "GKMP20 whole-protocol and helper vectors", ops_p),
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
                self._histogram_fast_file(), self._fragmented_file(), self._protocol_file()]

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
        # appended: the view given as message counts (plus, minus), as run_protocol hands it on
        params = {"noise": noise_to_json(Poisson(35)), "n": "10000", "Delta": "1"}
        groups.append(self._group(tc, "ghazi.distributed.analyze", params,
                                  [("U = 40 given as a view with no -1 messages",
                                    {"plus": "40", "minus": "0"})],
                                  [("a view with one -1 message", {"plus": "40", "minus": "1"},
                                    "BadCount")]))
        # appended: n is checked even where the analyzer does not use it
        groups.append(self._group(tc, "ghazi.distributed.analyze", {}, [], [
            (f"n = {n}", {**params, "n": n, "plus": "40"}, "BadUsers") for n in ("0", "-1")]))
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
        # appended: n is checked even where the analyzer does not use it
        groups.append(self._group(tc, "ghazi.correlated.analyze", {}, [], [
            (f"n = {n}", {**params, "n": n, "plus": "3", "minus": "1"}, "BadUsers")
            for n in ("0", "-1")]))
        return self.vector_file("shuffled/ghazi_correlated.json",
                                algorithm="GKMP20 correlated distributed mechanism (Algorithms 3, 4)",
                                schema=CORRELATED_SCHEMA, header=CORRELATED_HEADER, notes=_NOTES,
                                groups=groups)

    def _histogram_file(self) -> VectorFile:
        tc = TestNumberer()
        groups: list[dict[str, Any]] = []
        a = Fraction(43, 100)
        corr = _correlated_profile(a)
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
        # appended: the smallest B, and B = 0 with the empty view it would fit
        params = {"noise": noise_to_json(Poisson(35)), "n": "2", "B": "1"}
        groups.append(self._group(tc, "ghazi.histogram.analyze", params, [
            ("B = 1: one bucket", {"plus": ["40"], "minus": ["0"]})]))
        groups.append(self._group(tc, "ghazi.histogram.analyze", {}, [], [
            ("B = 0 (with an empty view)", {**params, "B": "0", "plus": [], "minus": []},
             "BadBuckets")]))
        return self.vector_file("shuffled/ghazi_histogram.json",
                                algorithm="GKMP20 histogram (Corollary 2)", schema=HISTOGRAM_SCHEMA,
                                header=HISTOGRAM_HEADER, notes=_NOTES, groups=groups)

    def _histogram_fast_file(self) -> VectorFile:
        tc = TestNumberer()
        groups: list[dict[str, Any]] = []
        a = Fraction(43, 100)
        corr = _correlated_profile(a)
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
        # appended: the count -1 (the edge of the check), and B = 0 with the empty count list
        groups.append(self._group(tc, op, {}, [], [
            ("a count -1", {**params, "counts": ["1", "-1", "0"]}, "BadCount"),
            ("B = 0 (with no counts)", {**params, "B": "0", "counts": []}, "BadBuckets")]))
        return self.vector_file("shuffled/ghazi_fragmented_rappor.json",
                                algorithm="Fragmented RAPPOR (EFMRSTT20; compared in GKMP20 sec. 5.2)",
                                schema=FRAGMENTED_SCHEMA, header=FRAGMENTED_HEADER,
                                notes=_FRAGMENTED_NOTES, groups=groups)

    def _protocol_file(self) -> VectorFile:
        tc = TestNumberer()
        groups: list[dict[str, Any]] = []
        a = Fraction(43, 100)
        corr = _correlated_profile(a)
        dist: dict[str, Any] = {"noise": noise_to_json(Poisson(Fraction(7, 2))), "n": "3",
                                "Delta": "2"}
        seeds = self._seeds("proto/dist", 3)
        groups.append(self._group(tc, "ghazi.protocol.run", dist, [
            ("D-distributed, poisson(7/2), n = 3, Delta = 2, inputs 0, 1, 2",
             {"inputs": ["0", "1", "2"], "seeds": seeds}),
            ("D-distributed, every user at Delta", {"inputs": ["2", "2", "2"], "seeds": seeds}),
        ], [
            ("two inputs for n = 3", {"inputs": ["0", "1"], "seeds": seeds[:2]}, "BadUsers"),
            ("three inputs, two seeds", {"inputs": ["0", "1", "2"], "seeds": seeds[:2]}, "BadUsers"),
            ("an input above Delta", {"inputs": ["0", "1", "3"], "seeds": seeds}, "BadInput"),
        ]))
        seeds = self._seeds("proto/corr", 4)
        groups.append(self._group(tc, "ghazi.protocol.run", {**corr, "n": "4"}, [
            ("correlated, n = 4, inputs 1, 0, 1, 1", {"inputs": ["1", "0", "1", "1"], "seeds": seeds}),
            ("correlated, n = 4, all inputs 0", {"inputs": ["0", "0", "0", "0"], "seeds": seeds}),
        ], [
            ("four inputs, five seeds",
             {"inputs": ["1", "0", "1", "1"], "seeds": seeds + self._seeds("proto/corr/extra", 1)},
             "BadUsers"),
            ("input 2 is not binary", {"inputs": ["1", "0", "2", "1"], "seeds": seeds}, "BadInput"),
        ]))
        hist_profiles: list[tuple[str, dict[str, Any]]] = [
            ("correlated buckets, B = 3, n = 3", {**corr, "n": "3", "B": "3"}),
            ("poisson(7/2) buckets, B = 5, n = 3", {"noise": noise_to_json(Poisson(Fraction(7, 2))),
                                                    "n": "3", "B": "5"}),
            ("poisson(7/2) buckets, B = 1, n = 3 (one bucket: 0 index bits)",
             {"noise": noise_to_json(Poisson(Fraction(7, 2))), "n": "3", "B": "1"}),
        ]
        for i, (label, params) in enumerate(hist_profiles):
            buckets = int(params["B"])
            seeds = self._seeds(f"proto/hist/{i}", 3)
            inputs = [str(j % buckets) for j in (0, 2, 2)]
            invalid: list[InvalidCase] = []
            if i == 1:
                invalid = [
                    ("Delta = 2: histogram buckets are binary", {"Delta": "2", "inputs": inputs,
                                                                "seeds": seeds}, "BadDelta"),
                    ("an input equal to B", {"inputs": ["0", "5", "1"], "seeds": seeds}, "BadInput")]
            groups.append(self._group(tc, "ghazi.histogram.run", params, [
                (f"{label}, inputs {', '.join(inputs)}", {"inputs": inputs, "seeds": seeds}),
            ] + ([("poisson(7/2) buckets, Delta = 1 given", {"Delta": "1", "inputs": inputs,
                                                                  "seeds": seeds})] if i == 1 else []),
                invalid))
        groups.append(self._group(tc, "ghazi.histogram.run", {}, [], [
            ("B = 0", {**hist_profiles[1][1], "B": "0", "inputs": ["0"],
                       "seeds": self._seeds("proto/hist/bad", 1)}, "BadBuckets")]))
        params = {"noise": noise_to_json(Poisson(1)), "n": "2", "B": "3"}
        groups.append(self._group(tc, "ghazi.histogram.shuffle", params, [
            ("two users", {"users": [{"plus": ["1", "0", "2"], "minus": ["0", "0", "0"]},
                                     {"plus": ["0", "3", "1"], "minus": ["0", "0", "0"]}]}),
            ("correlated-style counts with -1 messages",
             {"users": [{"plus": ["2", "0", "1"], "minus": ["1", "4", "0"]},
                        {"plus": ["0", "1", "5"], "minus": ["2", "0", "3"]}]}),
            ("no users: all totals 0", {"users": []}),
        ], [
            ("a user with two buckets for B = 3",
             {"users": [{"plus": ["1", "0", "2"], "minus": ["0", "0", "0"]},
                        {"plus": ["1", "0"], "minus": ["0", "0"]}]}, "BadCount"),
        ]))
        fast_profiles: list[tuple[str, dict[str, Any]]] = [
            ("correlated, B = 4, n = 3", {**corr, "n": "3", "B": "4"}),
            ("poisson(35), B = 5, n = 2", {"noise": noise_to_json(Poisson(35)), "n": "2", "B": "5"}),
            ("negative binomial(2, 1/2), B = 3, n = 4",
             {"noise": noise_to_json(NegativeBinomial(2, Fraction(1, 2))), "n": "4", "B": "3"}),
        ]
        for i, (label, params) in enumerate(fast_profiles):
            buckets = int(params["B"])
            groups.append(self._group(tc, "ghazi.histogram.fast_dense", params, [
                (f"{label}, x = {j % buckets}", {"seed": s, "x": str(j % buckets)})
                for j, s in enumerate(self._seeds(f"proto/fast/{i}", 2))]))
        share_profiles: list[tuple[str, Divisible, int]] = [
            ("poisson(1/2), B = 8", Poisson(Fraction(1, 2)), 8),
            ("negative binomial(3/4, 3/5), B = 6", NegativeBinomial(Fraction(3, 4), Fraction(3, 5)), 6),
            ("poisson(0), B = 4 (rate 0: N = 0, no tape bits)", Poisson(0), 4),
            ("negative binomial(1, 0), B = 4 (rate 0: N = 0, no tape bits)", NegativeBinomial(1, 0), 4),
        ]
        for i, (label, share, buckets) in enumerate(share_profiles):
            groups.append(self._group(tc, "ghazi.histogram.sparse_shares",
                                      {"share": noise_to_json(share), "B": str(buckets)},
                                      [(label, {"seed": s})
                                       for s in self._seeds(f"proto/sparse/{i}", 2)]))
        groups.append(self._group(tc, "ghazi.histogram.sparse_shares", {}, [], [
            ("B = 0", {"share": noise_to_json(Poisson(Fraction(1, 2))), "B": "0",
                       "seed": self._seeds("proto/sparse/bad", 1)[0]}, "BadBuckets")]))
        params = {"f": "1/4", "B": "3", "n": "4"}
        groups.append(self._group(tc, "ghazi.fragmented_rappor.counts", params, [
            ("fragments 2, 0, 2, 1, 2", {"fragments": ["2", "0", "2", "1", "2"]}),
            ("no fragments", {"fragments": []}),
            ("only bucket B - 1", {"fragments": ["2", "2"]}),
        ], [
            ("a fragment equal to B", {"fragments": ["0", "3"]}, "BadCount"),
            ("a negative fragment", {"fragments": ["-1"]}, "BadCount"),
        ]))
        # appended: the smallest B
        groups.append(self._group(tc, "ghazi.histogram.sparse_shares",
                                  {"share": noise_to_json(Poisson(Fraction(1, 2))), "B": "1"},
                                  [("poisson(1/2), B = 1 (a single bucket)", {"seed": s})
                                   for s in self._seeds("proto/sparse/one", 2)]))
        return self.vector_file("shuffled/ghazi_protocol.json",
                                algorithm="GKMP20 whole protocols (Algorithms 1-4, Corollary 2) and"
                                " the helpers around them", schema=PROTOCOL_SCHEMA,
                                header=PROTOCOL_HEADER, notes=_PROTOCOL_NOTES, groups=groups)


_NOTES = {
    "BadInput": "The user input is outside the mechanism's input domain.",
    "BadSeed": "The seed must have 16 to 255 bytes (the random tape).",
    "BadNoise": "Noise parameters must be exact rationals with lambda >= 0, r > 0, 0 <= p < 1.",
    "BadUsers": "The number of users n must be a positive integer.",
    "BadDelta": "Delta must be a positive integer.",
    "BadCount": "Message counts must be non-negative integers, one pair per bucket.",
    "BadBuckets": "B must be a positive integer.",
}
_PROTOCOL_NOTES = {
    "BadInput": _NOTES["BadInput"], "BadUsers": "There must be exactly n inputs and n seeds.",
    "BadDelta": "Histogram buckets run binary summation: Delta must be 1.",
    "BadBuckets": "B must be a positive integer.",
    "BadCount": "Counts must be non-negative; a D-distributed view has no -1 messages; a user"
                " output or fragment must fit the B buckets.",
}
_FRAGMENTED_NOTES = {
    "BadInput": _NOTES["BadInput"], "BadSeed": _NOTES["BadSeed"], "BadUsers": _NOTES["BadUsers"],
    "BadFlip": "The flip probability f must be an exact rational in [0, 1/2).",
    "BadBuckets": "B must be a positive integer.",
    "BadCount": "Bucket counts must be non-negative integers, one per bucket.",
}

FAMILY = ShuffledFamily()
