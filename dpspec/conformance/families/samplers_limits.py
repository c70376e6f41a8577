"""Vector family ``samplers-limits``: the lazy profile's exp(-gamma) enclosures and the order of
the samplers' parameter checks, at their limits.

Four ops:

* ``samplers_limits.exp_neg_bounds`` {gamma, p} -> {lo, hi}: the integers lo <= 2^p exp(-gamma)
  <= hi of ``dpspec.spec.samplers.lazy.exp_neg_bounds`` (halve gamma to z <= 1/2, sum the
  alternating Taylor series of exp(-z) until a term is below 2^-(w+2), w = p + s + 8, square
  s times rounding outward). These are the bounds the mechanisms' exact enclosures publish, so
  their digits are normative.
* ``samplers_limits.exp_neg_fixed`` {gamma, p} -> {lo, hi}: the same enclosure computed by
  ``exp_neg_fixed``, the fixed-point evaluation that the samplers' geometric_exp and binomial_rr
  compare against (z rounded to the two neighbouring multiples of 2^-w, the series summed on
  w-bit integers with floored or ceiled terms).
* ``samplers_limits.refuse`` {sampler, the sampler's parameters}: a sampler call that must be
  refused with the flag of the FIRST failing check in the order the sampler states (range checks
  before cost limits), for instance discrete_gaussian_vector with dim = 2^20 (in range) and
  sigma^2 above 2^512 (CostTooLarge, not OutOfRange).

The cases sit on the decisions of the two evaluations: gamma exactly at a halving boundary
(z = 1/2 is not halved again), gamma for which the Taylor stopping limit 2^-(w+2) decides the
last digit of a bound, a dyadic gamma whose scaled value 2^(w-s) gamma is an integer (then both
roundings of z coincide), gamma = 0 and gamma >= p (the shortcuts). Sources: the alternating
series bound for exp(-z) (Leibniz's criterion) and the exact Bernoulli(exp(-gamma)) sampling of
Algorithm 1 of [CKS20] (Canonne, Kamath, Steinke, "The Discrete Gaussian for Differential
Privacy", NeurIPS 2020), which the samplers evaluate lazily.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from dpspec.conformance.jsonargs import COUNT, DEC, hex_arg
from dpspec.conformance.vectors import (
    Family,
    Handler,
    TestNumberer,
    VectorFile,
    family_schema,
    test_entry,
    vector_seed,
)
from dpspec.spec.rational import RationalError
from dpspec.spec.samplers import SAMPLERS
from dpspec.spec.samplers.counts import binomial
from dpspec.spec.samplers.lazy import exp_neg_bounds, exp_neg_fixed
from dpspec.spec.samplers.params import rational_in
from dpspec.spec.tape import RandomTape

SCHEMA = "samplers_limits-v1.json"
#: The largest precision p accepted (the enclosures cost about p^2 bit operations).
MAX_P = 4096

EXP_OPS = ("samplers_limits.exp_neg_bounds", "samplers_limits.exp_neg_fixed")
REFUSE = "samplers_limits.refuse"
STREAM = "samplers_limits.binomial_stream"
#: The longest explicit tape stream accepted, in bytes.
MAX_STREAM = 4096


def _exp_args(args: dict[str, Any]) -> tuple[Fraction, int]:
    extra = sorted(set(args) - {"gamma", "p"})
    if extra:
        raise ValueError(f"unknown arguments {extra}")
    if "gamma" not in args or "p" not in args:
        raise ValueError("gamma and p are required")
    gamma = args["gamma"]
    if not isinstance(gamma, str):
        raise RationalError("gamma must be a rational string")
    g = rational_in(gamma, "gamma", low=0)
    p = args["p"]
    if isinstance(p, bool) or not isinstance(p, int) or not 1 <= p <= MAX_P:
        raise ValueError(f"p must be a JSON integer in [1, {MAX_P}]")
    return g, p


def h_exp_neg_bounds(args: dict[str, Any]) -> dict[str, Any]:
    g, p = _exp_args(args)
    lo, hi = exp_neg_bounds(g, p)
    return {"lo": str(lo), "hi": str(hi)}


def h_exp_neg_fixed(args: dict[str, Any]) -> dict[str, Any]:
    g, p = _exp_args(args)
    lo, hi = exp_neg_fixed(g, p)
    return {"lo": str(lo), "hi": str(hi)}


def h_refuse(args: dict[str, Any]) -> dict[str, Any]:
    """Call the sampler named ``sampler`` once (one sample, a fixed tape); its outputs if accepted."""
    name = args.get("sampler")
    if not isinstance(name, str) or name not in SAMPLERS:
        raise ValueError("sampler must name one of the samplers")
    sampler = SAMPLERS[name]
    params = {k: v for k, v in args.items() if k != "sampler"}
    names = {p.name for p in sampler.params}
    if set(params) != names:
        raise ValueError(f"{name} takes the parameters {sorted(names)}")
    for key, value in params.items():
        if not isinstance(value, str):
            raise RationalError(f"{key} must be a rational string")
    tape = RandomTape(vector_seed("samplers-limits/refuse"), sampler.tag)
    sample = sampler.func(tape, **params)
    return {"sample": [str(x) for x in sample] if sampler.vector else str(sample)}


class _Exhausted(Exception):
    """The steps asked for a bit beyond the explicit stream."""


class _Stream:
    """The tape's byte source replaced by explicit bytes (then zeros to the end of the last
    refill; a further request ends the run: the steps needed more than was given)."""

    def __init__(self, data: bytes) -> None:
        self._data = data
        self._at = 0

    def next(self, n: int) -> bytes:
        if self._at >= len(self._data) and self._data:
            raise _Exhausted
        if not self._data:
            raise _Exhausted
        chunk = self._data[self._at:self._at + n]
        self._at += n
        return chunk + bytes(n - len(chunk))


def _stream_tape(data: bytes) -> RandomTape:
    """A RandomTape whose byte stream is ``data`` instead of the seeded XOF (the same bits(k)
    and uniform(n): bits are taken least significant first from consecutive bytes)."""
    tape = RandomTape.__new__(RandomTape)
    tape.tag = "explicit"
    tape._xof = _Stream(data)  # type: ignore[assignment]
    tape._buf = 0
    tape._nbits = 0
    tape.bits_consumed = 0
    return tape


def h_binomial_stream(args: dict[str, Any]) -> dict[str, Any]:
    """binomial(n, p) drawn from the explicit stream: the sample and the bits consumed, or
    "exhausted" (bitsConsumed null) when the steps need a bit past the end of the stream."""
    extra = sorted(set(args) - {"n", "p", "stream"})
    if extra:
        raise ValueError(f"unknown arguments {extra}")
    for key in ("n", "p"):
        if key not in args:
            raise ValueError(f"missing parameter {key}")
        if not isinstance(args[key], str):
            raise RationalError(f"{key} must be a rational string")
    data = hex_arg(args, "stream")
    if len(data) > MAX_STREAM:
        raise ValueError(f"stream must have at most {MAX_STREAM} bytes")
    tape = _stream_tape(data)
    try:
        sample = binomial(tape, args["n"], args["p"])
    except _Exhausted:
        return {"sample": "exhausted", "bitsConsumed": None}
    if tape.bits_consumed > 8 * len(data):
        return {"sample": "exhausted", "bitsConsumed": None}
    return {"sample": str(sample), "bitsConsumed": tape.bits_consumed}


#: binomial(513, 1/2) uses the mode envelope (n p = 256.5 > 256): M = 257, d = 12, a = 245,
#: b = 269 < n, right ratio rho(269) = 244/270, so the right geometric (m = 3 digits) must give
#: G = n - b - 1 = 243 = 3 + 8 * 30 for the candidate k = n, which happens with probability
#: about 10^-11 per sample from a seeded tape. This stream was built by feeding, to each lazy
#: comparison in turn, ones (the comparison gives 0) or zeros (it gives 1) in the order of the
#: steps: the middle coin 0, the right coin 1, thirty trials 1 then one 0 (V = 30), the digits
#: 1, 1, 0 (R = 3), and the acceptance test 1; 543 bits in all.
STEERED_513 = "03" + "00" * 7 + "21" + "00" * 59

#: (n, p, stream, comment)
STREAMS: list[tuple[str, str, str, str]] = [
    ("513", "1/2", STEERED_513, "the right tail proposes k = n = 513 (top) and the acceptance"
     " test accepts it: the sample is n (the check 'k > top' must not reject k = top)"),
    ("513", "1/2", STEERED_513[:-2], "the same stream one byte short: the steps run past its"
     " end"),
    ("513", "1/2", "", "an empty stream: the first coin already needs a bit"),
    ("40", "1/3", "5a" * 64, "a small binomial (the gaps) from a fixed stream"),
]

#: (gamma, p, flag, comment): each case is published for both enclosures.
EXP_CASES: list[tuple[str, int, str, str]] = [
    ("1/2", 405, "HalvingBoundary", "gamma = 1/2 exactly: z = 1/2 is not halved (s = 0);"
     " halving it once more moves exp_neg_bounds' lo by 1"),
    ("1", 405, "HalvingBoundary", "gamma = 1: halved once, to z = 1/2 exactly (s = 1)"),
    ("2", 64, "HalvingBoundary", "gamma = 2: halved twice, to z = 1/2 exactly"),
    ("1/2", 64, "HalvingBoundary", "gamma = 1/2 at the first working precision"),
    ("7/128", 38, "StoppingLimit", "gamma = 7/128: summing one Taylor term past the stopping"
     " limit 2^-(w+2) would raise exp_neg_bounds' lo by 1"),
    ("7/128", 39, "StoppingLimit", "gamma = 7/128: stopping one term before the limit"
     " 2^-(w+2) would lower exp_neg_bounds' lo by 1"),
    ("37/1024", 128, "StoppingLimit", "gamma = 37/1024: one term past the stopping limit would"
     " raise exp_neg_bounds' lo by 1"),
    ("1/65536", 6, "StoppingLimit", "gamma = 2^-16, p = 6: the first term |z| equals the"
     " stopping limit 2^-(w+2) (w = 14): not below it, so the sum goes on"),
    ("1/64", 3, "StoppingLimit", "gamma = 2^-6, p = 3: the second term z^2/2 equals the"
     " stopping limit 2^-(w+2) (w = 11): not below it, so the sum goes on"),
    ("3/8", 4, "GridGamma", "gamma = 3/8: exp_neg_fixed's upper series must run to its first"
     " even term whose ceiling is <= 1"),
    ("3/8", 5, "GridGamma", "gamma = 3/8 at p = 5"),
    ("27/64", 5, "GridGamma", "gamma = 27/64: the upper series' stopping term at p = 5"),
    ("13/7", 5, "Rounded", "gamma = 13/7: z rounded to both neighbouring multiples of 2^-w"),
    ("1/2048", 1, "GridGamma", "gamma = 2^-11, p = 1: z on the w-bit grid, both roundings of z"
     " agree; lo = 1 since 2 exp(-2^-11) < 2"),
    ("1/65536", 5, "GridGamma", "gamma = 2^-16, p = 5: z on the grid, lo = 2^p - 1"),
    ("0", 64, "Shortcut", "gamma = 0: exp(0) = 1 exactly, lo = hi = 2^p"),
    ("64", 64, "Shortcut", "gamma = p: the shortcut (0, 1), as exp(-p) < 2^-p"),
    ("127/2", 64, "GridGamma", "gamma = p - 1/2, just below the shortcut: evaluated, and"
     " (0, 1) like the shortcut (2^p exp(-gamma) < 1)"),
    ("1000/3", 512, "Rounded", "gamma = 1000/3 at p = 512: ten halvings and squarings (32 in exp_neg_fixed)"),
]

#: (sampler, parameters, flag, comment): refused by the first failing check of the stated order.
REFUSALS: list[tuple[str, dict[str, str], str, str]] = [
    ("discrete_gaussian_vector", {"sigma2": str((1 << 512) + 1), "dim": str(1 << 20)},
     "CostTooLarge", "dim = 2^20 is the largest dimension (in range), so the cost check refuses"
     " sigma^2 = 2^512 + 1"),
    ("rational.discrete_gaussian_vector", {"sigma2": str((1 << 512) + 1), "dim": str(1 << 20)},
     "CostTooLarge", "the rational profile: dim = 2^20 in range, sigma^2 = 2^512 + 1 above the"
     " cap"),
    ("rational.discrete_gaussian_vector", {"sigma2": "0", "dim": "2"}, "OutOfRange",
     "the rational profile: sigma^2 = 0 is outside sigma^2 > 0"),
    ("rational.discrete_gaussian_vector", {"sigma2": "-1/2", "dim": "2"}, "OutOfRange",
     "the rational profile: sigma^2 = -1/2 is outside sigma^2 > 0"),
    ("discrete_gaussian_vector", {"sigma2": "1", "dim": str((1 << 20) + 1)}, "OutOfRange",
     "dim = 2^20 + 1 is above the largest dimension"),
    ("discrete_gaussian_vector", {"sigma2": str((1 << 512) + 1), "dim": str((1 << 20) + 1)},
     "OutOfRange", "dim = 2^20 + 1 and sigma^2 = 2^512 + 1: the range check comes before the"
     " cost check"),
]

#: (inputs, flag, comment) refused by the enclosure ops' own checks.
EXP_INVALID: list[tuple[dict[str, Any], str, str]] = [
    ({"gamma": "-1/2", "p": 64}, "OutOfRange", "gamma < 0"),
    ({"gamma": "1/2", "p": 0}, "OutOfRange", "p = 0 (p must be at least 1)"),
    ({"gamma": "1/2", "p": MAX_P + 1}, "OutOfRange", "p above the largest precision"),
    ({"gamma": 0.5, "p": 64}, "NotRational", "gamma given as a JSON number"),
]

STREAM_INVALID: list[tuple[dict[str, Any], str, str]] = [
    ({"n": "513", "p": "3/2", "stream": "00"}, "OutOfRange", "p = 3/2 is outside [0, 1]"),
    ({"n": "-1", "p": "1/2", "stream": "00"}, "OutOfRange", "n = -1 is outside n >= 0"),
    ({"n": "513", "p": "1/2", "stream": "0"}, "OutOfRange", "stream is not whole bytes of hex"),
]

HEADER = [
    "dpspec sampler limits: the enclosures of exp(-gamma) of the lazy profile"
    " (dpspec.spec.samplers.lazy) and the order of the samplers' parameter checks.",
    "samplers_limits.exp_neg_bounds(gamma, p), rational gamma >= 0, integer 1 <= p <= 4096:"
    " if gamma = 0 return (2^p, 2^p); if gamma >= p return (0, 1). Else s = the number of"
    " halvings z = z/2 done while z > 1/2 (starting at z = gamma); w = p + s + 8; sum the"
    " Taylor series of exp(-z) in exact rationals, term_k = -term_(k-1) z / k, stopping after"
    " the first term with |term| < 2^-(w+2); the last two partial sums bracket exp(-z); lo ="
    " floor(2^w lower), hi = ceil(2^w upper); square s times (lo = floor(lo^2 / 2^w), hi ="
    " ceil(hi^2 / 2^w)); return (floor(lo / 2^(w-p)), ceil(hi / 2^(w-p))).",
    "samplers_limits.exp_neg_fixed(gamma, p): same shortcuts; gamma = a/b, s = bitlen(ceil(2a/b)"
    " - 1) + isqrt(p), w = p + s + 8 + bitlen(p + s); zlo = floor(a 2^(w-s) / b), zhi = zlo + 1"
    " if that division has a remainder else zlo; lower = max(E(zhi, lower), 0), upper ="
    " E(zlo, upper) where E sums 2^w x^k/k! (x = z/2^w) with terms carried as floor (d) and"
    " ceil (u) of the previous term times z / (k 2^w): the lower sum subtracts u for odd k and"
    " adds d for even k, and returns after an odd k with u <= 1; the upper sum subtracts d, adds"
    " u, and returns after an even k with u <= 1. Then square s times and shift as above.",
    "samplers_limits.binomial_stream(n, p, stream): binomial(n, p) of the samplers family with"
    " the tape's byte stream replaced by the bytes of `stream` (bits taken least significant"
    " first, as from the seeded stream); sample 'exhausted' (bitsConsumed null) when the steps"
    " need a bit past the end of the stream, else the sample and the bits consumed.",
    "samplers_limits.refuse(sampler, parameters): the named sampler must refuse the parameters"
    " with the flag of the first failing check in its stated order (for discrete_gaussian_vector:"
    " sigma^2 > 0, then 1 <= dim <= 2^20, then the cost cap sigma^2 <= 2^512).",
]

NOTES = {
    "HalvingBoundary": "z reaches 1/2 exactly: it is not halved again (z > 1/2 halves).",
    "StoppingLimit": "The last digit of a bound depends on where the Taylor sum stops.",
    "GridGamma": "gamma 2^(w-s) is an integer: z's two roundings coincide.",
    "Shortcut": "gamma = 0 or gamma >= p: fixed bounds, no series.",
    "Rounded": "gamma 2^(w-s) is not an integer: z is rounded down and up.",
    "TopCandidate": "The mode envelope proposes k = top (= n) itself, which is a valid value.",
    "CheckOrder": "The flag of the first failing check in the sampler's stated order.",
    "OutOfRange": "A parameter outside its domain.",
    "NotRational": "A parameter is not a JSON string (the samplers' grammar, step 1).",
    "CostTooLarge": "The sampler's cost limit refuses the parameters.",
}


class SamplersLimitsFamily(Family):
    name = "samplers-limits"
    summary = "exp(-gamma) enclosures of the lazy profile at their limits; check order"

    def handlers(self) -> dict[str, Handler]:
        return {EXP_OPS[0]: h_exp_neg_bounds, EXP_OPS[1]: h_exp_neg_fixed, REFUSE: h_refuse,
                STREAM: h_binomial_stream}

    def schemas(self) -> dict[str, dict[str, Any]]:
        exp_args = {"properties": {"gamma": {"type": ["string", "number"]},
                                   "p": {"type": "integer"}}}
        exp_out = {"type": "object", "required": ["lo", "hi"], "additionalProperties": False,
                   "properties": {"lo": DEC, "hi": DEC}}
        params = {p.name: {"type": ["string", "number"]} for s in SAMPLERS.values()
                  for p in s.params}
        refuse_args = {"properties": {"sampler": {"type": "string"}, **params}}
        refuse_out = {"type": "object", "required": ["sample"], "additionalProperties": False,
                      "properties": {"sample": {}}}
        stream_args = {"properties": {"n": {"type": ["string", "number"]},
                                      "p": {"type": ["string", "number"]},
                                      "stream": {"type": "string"}}}
        stream_out = {"type": "object", "required": ["sample", "bitsConsumed"],
                      "additionalProperties": False,
                      "properties": {"sample": {"anyOf": [DEC, {"const": "exhausted"}]},
                                     "bitsConsumed": {"anyOf": [COUNT, {"type": "null"}]}}}
        ops = {EXP_OPS[0]: (exp_args, exp_out), EXP_OPS[1]: (exp_args, exp_out),
               REFUSE: (refuse_args, refuse_out), STREAM: (stream_args, stream_out)}
        return {SCHEMA: family_schema(SCHEMA, "sampler limit vectors", ops)}

    def files(self) -> list[VectorFile]:
        tc = TestNumberer()
        groups = []
        for op, handler in ((EXP_OPS[0], h_exp_neg_bounds), (EXP_OPS[1], h_exp_neg_fixed)):
            tests = []
            for gamma, p, flag, comment in EXP_CASES:
                inputs = {"gamma": gamma, "p": p}
                tests.append(test_entry(tc(), comment, inputs, handler(dict(inputs)), "valid",
                                        [flag]))
            for inputs, flag, comment in EXP_INVALID:
                _refused(handler, inputs, flag, comment)
                tests.append(test_entry(tc(), comment, inputs, None, "invalid", [flag]))
            groups.append({"op": op, "params": {}, "tests": tests})
        tests = []
        for name, params, flag, comment in REFUSALS:
            inputs = {"sampler": name, **params}
            _refused(h_refuse, inputs, flag, comment)
            tests.append(test_entry(tc(), comment, inputs, None, "invalid", [flag, "CheckOrder"]))
        groups.append({"op": REFUSE, "params": {}, "tests": tests})
        tests = []
        for n, prob, stream, comment in STREAMS:
            inputs = {"n": n, "p": prob, "stream": stream}
            tests.append(test_entry(tc(), comment, inputs, h_binomial_stream(dict(inputs)),
                                    "valid", ["TopCandidate"] if "top" in comment else []))
        for inputs, flag, comment in STREAM_INVALID:
            _refused(h_binomial_stream, inputs, flag, comment)
            tests.append(test_entry(tc(), comment, inputs, None, "invalid", [flag]))
        groups.append({"op": STREAM, "params": {}, "tests": tests})
        return [self.vector_file("samplers-limits/limits.json",
                                   algorithm="dpspec sampler limits", schema=SCHEMA,
                                   header=HEADER, notes=NOTES, groups=groups)]


def _refused(handler: Handler, inputs: dict[str, Any], flag: str, comment: str) -> None:
    """The reference must refuse ``inputs`` with exactly ``flag`` (a ValueError otherwise)."""
    try:
        handler(dict(inputs))
    except RationalError as exc:
        if exc.flag != flag:
            raise AssertionError(f"case {comment!r}: refused as {exc.flag}, not {flag}") from exc
        return
    except ValueError as exc:
        if flag != "OutOfRange" or isinstance(exc, RationalError):
            raise AssertionError(f"case {comment!r}: {exc!r}, not {flag}") from exc
        return
    raise AssertionError(f"case {comment!r} was accepted")


FAMILY = SamplersLimitsFamily()
