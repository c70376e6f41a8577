"""Vector family ``mechanisms``: the DP mechanisms of sec. 4 of the DP draft (dpspec.spec.mechanisms).

One file, ``mechanisms/mechanisms.json`` (envelope format, schema ``mechanisms-v1.json``). Each test
gives a seed, the mechanism's parameters and a batch of inputs; the implementation builds ONE
random tape ``RandomTape(seed, TAG)`` (the tag of the mechanism, listed in the header) and noises
the inputs in order from it. Outputs: the noised values, their coordinate-wise sum, the debiased
sum and the number of tape bits consumed. Debiased values are decimal strings with 20
significant digits; an implementation's value must agree to a relative (or, near 0, absolute)
difference of 1e-12. Everything else must match exactly.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any

import mpmath

from dpspec.conformance.jsonargs import DEC, HEX, count_arg, hex_arg, json_int_arg, no_float
from dpspec.conformance.vectors import (
    Case,
    Family,
    Handler,
    TestNumberer,
    VectorFile,
    diff_outputs,
    envelope,
    family_schema,
    invalid_tests,
    test_entry,
    vector_seed,
)
from dpspec.spec.mechanisms import (
    AsymmetricRappor,
    BinaryRandomizedResponse,
    DiscreteGaussianMechanism,
    DiscreteLaplaceMechanism,
    KaryRandomizedResponse,
    SymmetricRappor,
    SymmetricRapporTextbook,
)
from dpspec.spec.mechanisms.base import DpMechanism
from dpspec.spec.mechanisms.calibration import rappor_aggregate_epsilon, zcdp_rho_for_approx_dp
from dpspec.spec.mechanisms.exact import (
    GeometricSkip,
    binomial_cdf_interval,
    exact_rational,
    exp_enclosure,
    exp_neg_enclosure,
    rational_text,
)
from dpspec.spec.tape import RandomTape

SCHEMA = "mechanisms-v1.json"
PATH = "mechanisms/mechanisms.json"
DEBIAS_DIGITS = 20
TOLERANCE = Decimal("1e-12")

_EXACT: dict[str, Any] = {"type": ["string", "number"]}  # JSON floats: rejected by the handler
_INT: dict[str, Any] = {"type": "integer"}
_REALS: dict[str, Any] = {"type": "array", "items": {"type": "string"}}

Test = tuple[str, dict[str, Any], list[str], str]
"""A test as the generators list it: ``(comment, inputs, flags, result)``."""


def _seed(args: dict[str, Any]) -> bytes:
    if "seed" not in args:  # statistical mode (dpspec/conformance/statistical_mechanisms.py): own seed
        return os.urandom(32)
    return hex_arg(args, "seed")


def _rational_arg(args: dict[str, Any], key: str) -> Any:
    return exact_rational(no_float(args, key), key)


def _real_text(x: Any) -> str:
    return str(mpmath.nstr(x, DEBIAS_DIGITS, min_fixed=-30, max_fixed=40))


def _int_list(value: Any, name: str) -> list[int]:
    if not isinstance(value, list):
        raise ValueError(f"{name} must be a list")
    out = []
    for x in value:
        if isinstance(x, bool):
            raise ValueError(f"{name} must hold integers")
        out.append(int(x))
    return out


# -- reference handlers -----------------------------------------------------------------------------
def _run_vectors(mech: DpMechanism[Any, Any], args: dict[str, Any],
                 parse: Callable[[Any], Any], render: Callable[[Any], Any]) -> dict[str, Any]:
    tape = RandomTape(_seed(args), mech.TAG)
    inputs = args["measurements"]
    if not isinstance(inputs, list) or not inputs:
        raise ValueError("measurements must be a non-empty list")
    noisy = [mech.add_noise(parse(x), tape) for x in inputs]
    first = noisy[0]
    if isinstance(first, list):
        total: Any = [sum(col) for col in zip(*noisy, strict=True)]
        debiased = [_real_text(x) if not isinstance(x, int) else str(x)
                    for x in mech.debias(total, len(noisy))]
        total_out: Any = [str(x) for x in total]
    else:
        total = sum(noisy)
        d = mech.debias(total, len(noisy))
        debiased = [_real_text(d)]
        total_out = [str(total)]
    return {"noisy": [render(v) for v in noisy], "sum": total_out, "debiased": debiased,
            "bitsConsumed": tape.bits_consumed}


def _bits_text(v: list[int]) -> str:
    return "".join(str(b) for b in v)


def _parse_bits(x: Any) -> list[int]:
    if not isinstance(x, str) or any(c not in "01" for c in x):
        raise ValueError("a bit-vector measurement is a string of 0 and 1")
    return [int(c) for c in x]


def op_symmetric_rappor(args: dict[str, Any]) -> dict[str, Any]:
    return _run_vectors(SymmetricRappor(_rational_arg(args, "eps0")), args, _parse_bits, _bits_text)


def op_symmetric_rappor_textbook(args: dict[str, Any]) -> dict[str, Any]:
    return _run_vectors(SymmetricRapporTextbook(_rational_arg(args, "eps0")), args, _parse_bits,
                        _bits_text)


def op_asymmetric_rappor(args: dict[str, Any]) -> dict[str, Any]:
    return _run_vectors(AsymmetricRappor(_rational_arg(args, "eps")), args, _parse_bits, _bits_text)


def op_binary_rr(args: dict[str, Any]) -> dict[str, Any]:
    def parse(x: Any) -> int:
        if isinstance(x, bool) or x not in (0, 1):
            raise ValueError("a binary RR measurement is 0 or 1")
        return int(x)

    return _run_vectors(BinaryRandomizedResponse(_rational_arg(args, "eps")), args, parse, int)


def op_kary_rr(args: dict[str, Any]) -> dict[str, Any]:
    k = json_int_arg(args, "k")
    mech = KaryRandomizedResponse(k, _rational_arg(args, "eps"))

    def parse(x: Any) -> list[int]:
        if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x < k:
            raise ValueError(f"a k-ary RR measurement is a category in [0, {k})")
        v = [0] * k
        v[x] = 1
        return v

    return _run_vectors(mech, args, parse, lambda v: v.index(1))


def op_discrete_laplace(args: dict[str, Any]) -> dict[str, Any]:
    mech = DiscreteLaplaceMechanism(_rational_arg(args, "scale"))
    return _run_vectors(mech, args, lambda x: [int(s) for s in _dec_list(x)],
                        lambda v: [str(s) for s in v])


def op_discrete_gaussian(args: dict[str, Any]) -> dict[str, Any]:
    mech = DiscreteGaussianMechanism(_rational_arg(args, "sigma2"))
    return _run_vectors(mech, args, lambda x: [int(s) for s in _dec_list(x)],
                        lambda v: [str(s) for s in v])


def _dec_list(x: Any) -> list[str]:
    if not isinstance(x, list) or not all(isinstance(s, str) for s in x):
        raise ValueError("an integer-vector measurement is a list of decimal strings")
    return x


def op_geometric_skip(args: dict[str, Any]) -> dict[str, Any]:
    eps = _rational_arg(args, "eps")
    if eps <= 0:
        raise ValueError("eps must be > 0")
    count = count_arg(args, "count")
    skip = GeometricSkip(eps)
    tape = RandomTape(_seed(args), args["tag"])
    values = [str(skip.sample(tape)) for _ in range(count)]
    return {"values": values, "bitsConsumed": tape.bits_consumed}


HANDLERS: dict[str, Handler] = {
    "mechanisms.symmetric_rappor": op_symmetric_rappor,
    "mechanisms.symmetric_rappor_textbook": op_symmetric_rappor_textbook,
    "mechanisms.asymmetric_rappor": op_asymmetric_rappor,
    "mechanisms.binary_rr": op_binary_rr,
    "mechanisms.kary_rr": op_kary_rr,
    "mechanisms.discrete_laplace": op_discrete_laplace,
    "mechanisms.discrete_gaussian": op_discrete_gaussian,
    "mechanisms.geometric_skip": op_geometric_skip,
}

HEADER = [
    "DP mechanisms of sec. 4 of draft-wang-ppm-differential-privacy-00, seeded (dpspec.spec.mechanisms).",
    "Each test: tape = RandomTape(seed, TAG) (dpspec/spec/tape.py); noise the measurements in order from"
    " that one tape; outputs noisy values, their coordinate-wise sum, debias(sum, len(measurements))"
    " and tape.bits_consumed.",
    "TAGs: symmetric_rappor 'dpspec/mechanism/symmetric_rappor'; symmetric_rappor_textbook"
    " 'dpspec/mechanism/symmetric_rappor_textbook'; asymmetric_rappor"
    " 'dpspec/mechanism/asymmetric_rappor'; binary_rr 'dpspec/mechanism/binary_rr'; kary_rr"
    " 'dpspec/mechanism/kary_rr'; discrete_laplace 'dpspec/mechanism/discrete_laplace';"
    " discrete_gaussian 'dpspec/mechanism/discrete_gaussian'. geometric_skip uses the given tag.",
    "geometric_skip(eps): with q = 1/(1 + e^-eps) and T_k = q^k, the sample is the k with"
    " T_{k+1} < U <= T_k, U = sum_j c_j 2^(-64 j), c_j = tape.bits(64) read one at a time until"
    " the interval [u_j, u_j + 2^(-64 j)) lies inside one bucket (T_{k+1}, T_k].",
    "symmetric_rappor (efficient form): pos = -1; repeat pos += 1 + geometric_skip(eps0); stop when"
    " pos >= d, else flip coordinate pos. Textbook form: for i in 0..d-1, flip i iff"
    " bernoulli_rr(tape, eps0) = 1 (dpspec.spec.samplers). Debias (Algorithm 4 of MJTB+22):"
    " ((e^eps0 + 1) S_j - n)/(e^eps0 - 1).",
    "asymmetric_rappor: positions P as for symmetric RAPPOR over all d coordinates; then for each i"
    " with x_i = 1 in increasing i one bit tape.bits(1); output x_i = 1 -> that bit, x_i = 0 -> [i"
    " in P]. Debias: (2 (e^eps + 1) S_j - 2 n)/(e^eps - 1) (Algorithm 2 of MJTB+22 with its"
    " constant corrected from n to 2 n).",
    "binary_rr: output x XOR bernoulli_rr(tape, eps); debias as symmetric RAPPOR. kary_rr (k, eps):"
    " repeat i = tape.uniform(k); if i = x output x; elif bernoulli_exp(tape, eps) = 1 output i."
    " Debias: ((e^eps + k - 1) c_y - n)/(e^eps - 1).",
    "discrete_laplace (scale t) / discrete_gaussian (sigma2): per coordinate discrete_laplace(tape,"
    " t) / discrete_gaussian_vector(tape, sigma2, d) added to the integer vector; debias is the"
    " identity.",
    "Encodings: bit vectors as strings of '0'/'1'; integer vectors as lists of decimal strings;"
    " rationals as strings ('1/2', '0.25'); debiased values as decimal strings with 20"
    " significant digits (compare to 1e-12 relative or absolute).",
]

NOTES = {
    "ZeroEpsilon": "EPSILON_0 must be > 0 (debiasing divides by e^EPSILON_0 - 1).",
    "FloatParameter": "A JSON number with a fraction part is inexact; rationals are strings.",
    "NotBits": "A bit-vector measurement must contain only 0 and 1.",
    "BadCategory": "A k-ary RR measurement must be a category in [0, k).",
    "LargeDimension": "Dimension 10^4 or more: the geometric skip reads few bits.",
    "TextbookForm": "The per-coordinate form; agrees with the efficient form in distribution only.",
}


# -- decision points, sample_noise, debias and the analysis formulas (mechanisms_decisions.json) ---
DECISIONS_SCHEMA = "mechanisms_decisions-v1.json"
DECISIONS_PATH = "mechanisms/mechanisms_decisions.json"
#: outputs that are real numbers (20 significant digits, compared to TOLERANCE)
REAL_OUTPUTS = ("debiased", "debiasedVariance", "flipProbability", "responseProbabilities")


def _mechanism(args: dict[str, Any]) -> DpMechanism[Any, Any]:
    """The mechanism named by ``args["mechanism"]`` with its parameter(s) from ``args``."""
    name = args.get("mechanism")
    if name == "symmetric_rappor":
        return SymmetricRappor(_rational_arg(args, "eps0"))
    if name == "symmetric_rappor_textbook":
        return SymmetricRapporTextbook(_rational_arg(args, "eps0"))
    if name == "asymmetric_rappor":
        return AsymmetricRappor(_rational_arg(args, "eps"))
    if name == "binary_rr":
        return BinaryRandomizedResponse(_rational_arg(args, "eps"))
    if name == "kary_rr":
        return KaryRandomizedResponse(json_int_arg(args, "k"), _rational_arg(args, "eps"))
    if name == "discrete_laplace":
        return DiscreteLaplaceMechanism(_rational_arg(args, "scale"))
    if name == "discrete_gaussian":
        return DiscreteGaussianMechanism(_rational_arg(args, "sigma2"))
    raise ValueError(f"unknown mechanism {name!r}")


def _render_noise(mech: DpMechanism[Any, Any], noise: Any) -> Any:
    if isinstance(mech, KaryRandomizedResponse):
        return noise.index(1)
    if isinstance(mech, SymmetricRappor | AsymmetricRappor):
        return _bits_text(noise)
    if isinstance(noise, list):
        return [str(x) for x in noise]
    return int(noise)


def op_sample_noise(args: dict[str, Any]) -> dict[str, Any]:
    """``sample_noise(dimension, tape)`` with ``tape = RandomTape(seed, TAG)``; the dimension is
    passed as given (the mechanism checks it)."""
    mech = _mechanism(args)
    tape = mech.tape(_seed(args))
    noise = mech.sample_noise(args["dimension"], tape)
    return {"noise": _render_noise(mech, noise), "bitsConsumed": tape.bits_consumed}


def op_debias(args: dict[str, Any]) -> dict[str, Any]:
    """``debias(sum, measCount)``: ``sum`` a list of decimal strings (one string for binary_rr),
    ``measCount`` passed as given (the mechanism checks it)."""
    mech = _mechanism(args)
    raw = args["sum"]
    total: Any = int(_dec_list([raw])[0]) if isinstance(mech, BinaryRandomizedResponse) else [
        int(s) for s in _dec_list(raw)]
    out = mech.debias(total, args["measCount"])
    values = out if isinstance(out, list) else [out]
    return {"debiased": [_real_text(x) if not isinstance(x, int) else str(x) for x in values]}


def op_analysis(args: dict[str, Any]) -> dict[str, Any]:
    """The mechanism's exact parameters and its analysis formulas at ``measCount`` reports
    (``trueCount`` of them holding the counted value, where the variance depends on it)."""
    mech = _mechanism(args)
    n, true_count = count_arg(args, "measCount"), count_arg(args, "trueCount")
    if true_count > n:
        raise ValueError("trueCount must be <= measCount")
    out: dict[str, Any] = {"params": {k: str(v) for k, v in mech.params().items()}}
    if isinstance(mech, KaryRandomizedResponse | AsymmetricRappor):
        out["debiasedVariance"] = [_real_text(mech.debiased_variance(n, true_count))]
    elif isinstance(mech, SymmetricRappor | BinaryRandomizedResponse):
        out["debiasedVariance"] = [_real_text(mech.debiased_variance(n))]
    if isinstance(mech, SymmetricRappor):
        out["flipProbability"] = [_real_text(mech.flip_probability())]
        lo, hi = mech.flip_probability_bounds()
        out["flipProbabilityBounds"] = [rational_text(lo), rational_text(hi)]
    if isinstance(mech, KaryRandomizedResponse):
        out["responseProbabilities"] = [_real_text(x) for x in mech.response_probabilities()]
    return out


def op_geometric_skip_bucket(args: dict[str, Any]) -> dict[str, Any]:
    """The decision rule of geometric_skip on the first ``ubits`` bits ``u`` of ``U``: the bucket
    ``k`` with ``(T_{k+1}, T_k]`` holding all of ``[u, u + 1) 2^-ubits``, or null when more bits
    are needed."""
    eps = _rational_arg(args, "eps")
    if eps <= 0:
        raise ValueError("eps must be > 0")
    ubits = json_int_arg(args, "ubits")
    if ubits < 1 or ubits % 64:
        raise ValueError("ubits must be a positive multiple of 64")
    u = int(no_float(args, "u"))
    if not 0 <= u < 1 << ubits:
        raise ValueError("u must be in [0, 2^ubits)")
    k = GeometricSkip(eps)._locate(u, ubits)
    return {"bucket": None if k is None else str(k)}


def op_add_noise(args: dict[str, Any]) -> dict[str, Any]:
    """``add_noise(measurement, mech.tape(seed))`` with the measurement passed as given (a JSON list
    of integers, or an integer for binary_rr): the mechanism's own input checks decide."""
    mech = _mechanism(args)
    tape = mech.tape(_seed(args))
    noisy = mech.add_noise(args["measurement"], tape)
    return {"noisy": _render_noise(mech, noisy), "bitsConsumed": tape.bits_consumed}


def op_calibrate(args: dict[str, Any]) -> dict[str, Any]:
    """The calibrations of dpspec.spec.mechanisms: ``method`` names one (see the header)."""
    method = args.get("method")
    if method == "laplace_from_epsilon":
        lap = DiscreteLaplaceMechanism.from_epsilon(_rational_arg(args, "eps"),
                                                    _rational_arg(args, "sensitivity"))
        return {"scale": rational_text(lap.scale)}
    if method == "gaussian_from_zcdp":
        gauss = DiscreteGaussianMechanism.from_zcdp(_rational_arg(args, "rho"),
                                                    _rational_arg(args, "sensitivity"))
        return {"sigma2": rational_text(gauss.sigma2)}
    if method == "gaussian_from_approx_dp":
        diff = args["difference"]
        if not isinstance(diff, list) or any(isinstance(x, bool) or not isinstance(x, int) for x in diff):
            raise ValueError("difference must be a list of JSON integers")
        gauss = DiscreteGaussianMechanism.from_approx_dp(_rational_arg(args, "eps"),
                                                         _rational_arg(args, "delta"), diff)
        rho = gauss.rho()
        assert rho is not None  # from_approx_dp records the sensitivity
        return {"sigma2": rational_text(gauss.sigma2), "rho": rational_text(rho)}
    if method == "zcdp_rho_for_approx_dp":
        return {"rho": rational_text(zcdp_rho_for_approx_dp(_rational_arg(args, "eps"),
                                                             _rational_arg(args, "delta")))}
    if method == "rappor_aggregate_epsilon":
        out = rappor_aggregate_epsilon(_rational_arg(args, "eps0"), count_arg(args, "measCount"),
                                       _rational_arg(args, "delta"))
        return {"aggregateEpsilon": out}
    raise ValueError(f"unknown calibration method {method!r}")


def op_exp_enclosure(args: dict[str, Any]) -> dict[str, Any]:
    """The rigorous enclosures ``exp_neg_enclosure(x, prec)`` and ``exp_enclosure(x, prec)``."""
    x = _rational_arg(args, "x")
    prec = json_int_arg(args, "prec")
    lo, hi = exp_neg_enclosure(x, prec)
    elo, ehi = exp_enclosure(x, prec)
    return {"expNeg": [rational_text(lo), rational_text(hi)], "exp": [rational_text(elo), rational_text(ehi)]}


def op_binomial_cdf_interval(args: dict[str, Any]) -> dict[str, Any]:
    """``binomial_cdf_interval(n, j, pLo, pHi)`` (dpspec.spec.mechanisms.exact, at its default
    precision): published only where the answer is exact, j outside [0, n), and for the
    parameter checks."""
    n, j = count_arg(args, "n"), json_int_arg(args, "j")
    lo, hi = binomial_cdf_interval(n, j, _rational_arg(args, "pLo"), _rational_arg(args, "pHi"))
    return {"cdf": [rational_text(lo), rational_text(hi)]}


#: significant digits of the exact CDF values that binomial_cdf_enclosure publishes
EXACT_CDF_DIGITS = 60
#: how far a bound of binomial_cdf_enclosure may lie from the exact value: 2^-(prec - 28)
ENCLOSURE_SLACK_BITS = 28


def _exact_binomial_cdf(n: int, j: int, p: Fraction) -> Fraction:
    """``Pr[Bin(n, p) <= j]`` exactly: ``sum_{i <= j} C(n, i) a^i (b - a)^(n - i) / b^n``, ``p = a/b``."""
    a, b = p.numerator, p.denominator
    low = [1]  # (b - a)^e for e = 0 .. n
    for _ in range(n):
        low.append(low[-1] * (b - a))
    comb, a_pow, total = 1, 1, 0
    for i in range(j + 1):
        total += comb * a_pow * low[n - i]
        comb, a_pow = comb * (n - i) // (i + 1), a_pow * a
    return Fraction(total, b ** n)


def _decimal_text(x: Fraction, digits: int) -> str:
    """``0 < x <= 1`` rounded to ``digits`` significant decimal digits (half up), as ``d.ddd...E-k``."""
    e = 0
    while x * 10 ** (e + 1) < 10 ** digits:  # x 10^e has digits integer digits after the loop
        e += 1
    m = str(math.floor(x * 10 ** e + Fraction(1, 2)))
    return f"{m[0]}.{m[1:]}E{len(m) - 1 - e}"


def op_binomial_cdf_enclosure(args: dict[str, Any]) -> dict[str, Any]:
    """``binomial_cdf_interval(n, j, pLo, pHi, prec)`` at an inexact point (``0 <= j < n``):
    ``cdf`` the reference's enclosure, ``exactAtEnds`` the exact ``Pr[Bin(n, pHi) <= j]`` and
    ``Pr[Bin(n, pLo) <= j]`` to EXACT_CDF_DIGITS significant digits (what the enclosure is checked
    against: see :meth:`MechanismsFamily.compare`)."""
    n, j = count_arg(args, "n"), json_int_arg(args, "j")
    p_lo, p_hi = _rational_arg(args, "pLo"), _rational_arg(args, "pHi")
    if not 0 <= j < n:
        raise ValueError("binomial_cdf_enclosure takes 0 <= j < n (the exact cases: binomial_cdf_interval)")
    if "prec" in args:
        lo, hi = binomial_cdf_interval(n, j, p_lo, p_hi, json_int_arg(args, "prec"))
    else:  # the default precision (128)
        lo, hi = binomial_cdf_interval(n, j, p_lo, p_hi)
    return {"cdf": [rational_text(lo), rational_text(hi)],
            "exactAtEnds": [_decimal_text(_exact_binomial_cdf(n, j, p), EXACT_CDF_DIGITS)
                            for p in (p_hi, p_lo)]}


def _check_enclosure(case: Case, provided: dict[str, Any]) -> str | None:
    """binomial_cdf_enclosure: the provided ``cdf = [lo, hi]`` must enclose the exact values
    (``lo <= Pr[Bin(n, pHi) <= j]``, ``hi >= Pr[Bin(n, pLo) <= j]``, both known to 10^-EXACT_CDF_DIGITS)
    and lie within ``2^-(prec - ENCLOSURE_SLACK_BITS)`` of them; the reference's own bits (the
    expected ``cdf``) depend on the interval arithmetic and are not required."""
    assert case.expected is not None
    got = provided.get("cdf")
    if not isinstance(got, list) or len(got) != 2:
        return "cdf: expected a pair of rationals"
    try:
        lo, hi = (exact_rational(x, "cdf") for x in got)
    except (TypeError, ValueError):
        return "cdf: not rationals"
    f_hi, f_lo = (Fraction(Decimal(x)) for x in case.expected["exactAtEnds"])
    eps = Fraction(1, 10 ** EXACT_CDF_DIGITS)
    slack = Fraction(1, 1 << (case.args.get("prec", 128) - ENCLOSURE_SLACK_BITS))
    if lo > f_hi + eps or hi < f_lo - eps:
        return f"cdf: [{got[0]}, {got[1]}] does not enclose the exact values {case.expected['exactAtEnds']}"
    if f_hi - lo > slack or hi - f_lo > slack:
        return f"cdf: [{got[0]}, {got[1]}] is not within 2^-(prec - {ENCLOSURE_SLACK_BITS}) of the exact"
    return None


DECISION_HANDLERS: dict[str, Handler] = {
    "mechanisms.add_noise": op_add_noise,
    "mechanisms.binomial_cdf_interval": op_binomial_cdf_interval,
    "mechanisms.binomial_cdf_enclosure": op_binomial_cdf_enclosure,
    "mechanisms.calibrate": op_calibrate,
    "mechanisms.exp_enclosure": op_exp_enclosure,
    "mechanisms.sample_noise": op_sample_noise,
    "mechanisms.debias": op_debias,
    "mechanisms.analysis": op_analysis,
    "mechanisms.geometric_skip_bucket": op_geometric_skip_bucket,
    "mechanisms.geometric_skip": op_geometric_skip,
}

DECISIONS_HEADER = [
    "Decision points and analysis formulas of the DP mechanisms of sec. 4 of"
    " draft-wang-ppm-differential-privacy-00 (dpspec.spec.mechanisms); companion of"
    " mechanisms/mechanisms.json, whose header defines the tags, the tape order and the encodings.",
    "sample_noise(mechanism, dimension): tape = RandomTape(seed, TAG); outputs the noise alone"
    " (RAPPOR: add_noise of the zero vector; binary_rr: the response to 0, dimension must be 1;"
    " kary_rr: the category tape.uniform(k), dimension must be k; discrete Laplace/Gaussian: one"
    " sample per coordinate) and tape.bits_consumed. A dimension that is not a non-negative JSON"
    " integer is refused.",
    "debias(mechanism, sum, measCount): the debiasing map of mechanisms.json on a given sum of"
    " measCount reports; measCount must be a non-negative JSON integer.",
    "analysis(mechanism, measCount, trueCount): params (the exact parameters as rational strings);"
    " debiasedVariance: symmetric RAPPOR and binary RR n e^eps/(e^eps - 1)^2; asymmetric RAPPOR"
    " 4 n e^eps/(e^eps - 1)^2 + trueCount; k-ary RR (trueCount pk (1 - pk) + (n - trueCount)"
    " qk (1 - qk)) ((e^eps + k - 1)/(e^eps - 1))^2 with pk = e^eps/(e^eps + k - 1), qk ="
    " 1/(e^eps + k - 1) (responseProbabilities = [pk, qk]); flipProbability p0 = 1/(e^eps0 + 1)"
    " and flipProbabilityBounds, the dyadic enclosure of p0 at 128 bits that the sampler uses"
    " (exact strings).",
    "geometric_skip_bucket(eps, u, ubits): the rule of geometric_skip (mechanisms.json header) after"
    " ubits/64 chunks read, U in [u, u + 1) 2^-ubits: the k with T_{k+1} < U <= T_k for every such"
    " U, or null if the interval holds some T_k (or u = 0) and more chunks are needed. The cases sit"
    " at the bucket boundaries: u = floor(T_k 2^ubits) and its neighbours.",
    "geometric_skip at eps 20: gaps beyond 2^16 (the search past the enclosure table).",
    "add_noise(mechanism, measurement): as in mechanisms.json, but the measurement is a JSON list of"
    " integers (a one-hot list for kary_rr; an integer for binary_rr) checked by the mechanism:"
    " RAPPOR takes only 0/1 entries, the additive mechanisms only integers (JSON booleans and"
    " fractions are refused), kary_rr exactly one 1 among k entries, binary_rr 0 or 1.",
    "calibrate(method): laplace_from_epsilon scale = sensitivity/eps; gaussian_from_zcdp sigma2 ="
    " sensitivity/(2 rho) (sensitivity = Delta_2^2); zcdp_rho_for_approx_dp the largest rho (12"
    " significant digits, rounded down) with rho-zCDP => (eps, delta)-DP; rappor_aggregate_epsilon"
    " the OAMC epsilon of measCount symmetric-RAPPOR Clients (6 digits, rounded up) by MJTB+22"
    " Theorem C.3 and by the proven worst case. Every parameter must be > 0; 0 < delta < 1.",
    "calibrate(gaussian_from_approx_dp): sigma2 of DiscreteGaussianMechanism.from_approx_dp(eps,"
    " delta, difference), the smallest sigma (12 significant digits, rounded up) for (eps,"
    " delta)-DP when neighbouring inputs differ by the integer vector difference ((1, -1) for a"
    " one-hot histogram), squared exactly; rho = Delta_2^2/(2 sigma2) with Delta_2^2 the sum of"
    " the squared entries of difference.",
    "binomial_cdf_interval(n, j, pLo, pHi): rationals lo <= Pr[Bin(n, p) <= j] <= hi for every p in"
    " [pLo, pHi] (the enclosure behind max_weight of the policies); the vectors hold only the"
    " exact cases, j < 0 (0, 0) and j >= n (1, 1), and the checks: 0 < pLo <= pHi < 1, n a"
    " non-negative JSON integer.",
    "binomial_cdf_enclosure(n, j, pLo, pHi[, prec]): the same enclosure at 0 <= j < n, prec 128 unless"
    " given. Outputs cdf = [lo, hi] (the reference's rationals) and exactAtEnds, the exact Pr[Bin(n,"
    " pHi) <= j] and Pr[Bin(n, pLo) <= j] rounded to 60 significant digits. An implementation's"
    " [lo, hi] passes iff lo <= Pr[Bin(n, pHi) <= j] and hi >= Pr[Bin(n, pLo) <= j] (to 10^-60) and"
    " each is within 2^-(prec - 28) of that value; its bits need not match (they depend on the"
    " interval arithmetic of the first term). The cases run both tails, the ends i = 0 and i = n of"
    " the sums, j + 1 = n p exactly, and n, i or n - i on both sides of 4096 (exact factorials below,"
    " Stirling's series from 4096 on when prec <= 220).",
    "geometric_skip_bucket, NearBoundary: eps is a rational with a denominator of 2^300 or 2^340 chosen"
    " so that T_k (k = 1, or k = 70000 at eps near 20, beyond the 2^16 entries of the enclosure"
    " table) lies within about 2^-300 of m 2^-64, above or below it; u = m and u = m - 1. An"
    " implementation must decide the side exactly (128- and 256-bit enclosures cannot; 512 bits"
    " can). LargeGap boundary cases at eps 20 sit at k = 65535 (the last table entry), 65536 and"
    " 65537.",
    "exp_enclosure(x, prec): dyadic rationals lo <= e^-x <= hi at prec + ceil(2x) bits and their"
    " reciprocals for e^x (dpspec.spec.mechanisms.exact); x >= 0 (x = 0 gives exactly 1).",
    "Real outputs (debiased, debiasedVariance, flipProbability, responseProbabilities) are decimal"
    " strings with 20 significant digits compared to 1e-12 relative (or absolute near 0);"
    " everything else exactly.",
]

DECISIONS_NOTES = {
    "BadDimension": "The dimension must be a non-negative integer (the mechanism's own for RR).",
    "BadCount": "measCount must be a non-negative integer.",
    "BoundaryBucket": "u = floor(T_k 2^ubits) or a neighbour: the decision is at a bucket boundary.",
    "TailStop": "binomial_cdf_enclosure: a ratio of successive terms equals 1/2 exactly where the"
                " tail sum may stop (the stopping test is 2 num <= den, non-strict).",
    "MoreBits": "The interval of U holds a bucket boundary: more tape chunks are needed (null).",
    "BadU": "u must be an integer in [0, 2^ubits) and ubits a positive multiple of 64.",
    "LargeGap": "eps >= 20: the gaps exceed the 2^16 entries of the enclosure table.",
    "EmptyGaussian": "discrete_gaussian_vector (dpspec.spec.samplers) needs dimension >= 1.",
    "BadMeasurement": "The measurement does not have the mechanism's type (see the header).",
    "BadParameter": "A calibration parameter is out of its range.",
    "NegativeX": "The enclosure is defined for x >= 0.",
    "NonPositiveEpsilon": "EPSILON must be > 0, also where the noise alone would not need it (debiasing"
                          " divides by e^EPSILON - 1).",
    "NearBoundary": "T_k lies within about 2^-300 of an end of the interval of U: rigorous enclosures"
                    " need 512 bits to decide.",
}


def _t_floor(eps: Fraction, k: int, ubits: int) -> int:
    """``floor(T_k 2^ubits)``, ``T_k = (1/(1 + e^-eps))^k``, from enclosures at 4 ubits + 64 bits."""
    skip = GeometricSkip(eps, work=4 * ubits + 64)
    lo, hi = skip._bounds(k)
    shift = skip.work - ubits
    if lo >> shift != hi >> shift:
        raise ArithmeticError("enclosure too coarse")  # pragma: no cover
    return int(lo >> shift)


def decision_groups(seed: Callable[[str], str]) -> list[tuple[str, dict[str, Any], list[Test]]]:
    """The groups of mechanisms_decisions.json: (op, params, tests)."""
    groups: list[tuple[str, dict[str, Any], list[Test]]] = []
    mech_params: list[tuple[str, dict[str, Any], int]] = [
        ("symmetric_rappor", {"eps0": "1"}, 30), ("symmetric_rappor_textbook", {"eps0": "1"}, 30),
        ("asymmetric_rappor", {"eps": "2"}, 30), ("binary_rr", {"eps": "1/2"}, 1),
        ("kary_rr", {"k": 6, "eps": "3/2"}, 6), ("discrete_laplace", {"scale": "5/2"}, 5),
        ("discrete_gaussian", {"sigma2": "100"}, 5),
    ]
    for name, params, dim in mech_params:
        p = {"mechanism": name, **params}
        tests: list[Test] = [
            (f"{name}: noise of dimension {dim}", {"seed": seed(f"noise/{name}"), "dimension": dim}, [],
             "valid")]
        if name in ("binary_rr", "kary_rr"):
            tests.append((f"{name}: dimension {dim + 1} is refused",
                          {"seed": seed(f"noise/{name}/bad"), "dimension": dim + 1}, ["BadDimension"],
                          "invalid"))
        elif name == "discrete_gaussian":  # discrete_gaussian_vector needs dim >= 1
            tests.append((f"{name}: dimension 0 is refused", {"seed": seed(f"noise/{name}/0"),
                                                             "dimension": 0}, ["EmptyGaussian"], "invalid"))
        else:
            tests.append((f"{name}: dimension 0 gives empty noise", {"seed": seed(f"noise/{name}/0"),
                                                                    "dimension": 0}, [], "valid"))
        tests.append((f"{name}: dimension -1 is refused",
                      {"seed": seed(f"noise/{name}/neg"), "dimension": -1}, ["BadDimension"], "invalid"))
        tests.append((f"{name}: dimension true (a JSON boolean) is refused",
                      {"seed": seed(f"noise/{name}/bool"), "dimension": True}, ["BadDimension"], "invalid"))
        groups.append(("mechanisms.sample_noise", p, tests))

    debias_cases: list[tuple[str, dict[str, Any], Any]] = [
        ("symmetric_rappor", {"eps0": "1"}, ["0", "3", "10"]),
        ("asymmetric_rappor", {"eps": "2"}, ["0", "3", "10"]),
        ("binary_rr", {"eps": "1/2"}, "7"),
        ("kary_rr", {"k": 3, "eps": "3/2"}, ["2", "5", "3"]),
        ("discrete_laplace", {"scale": "5/2"}, ["-4", "12"]),
    ]
    for name, params, total in debias_cases:
        tests = [(f"{name}: sum of 10 reports", {"sum": total, "measCount": 10}, [], "valid"),
                 (f"{name}: sum of 0 reports", {"sum": total, "measCount": 0}, [], "valid")]
        if name != "discrete_laplace":  # its debias is the identity: nothing to check
            tests += [
                (f"{name}: measCount -1 is refused", {"sum": total, "measCount": -1}, ["BadCount"],
                 "invalid"),
                (f"{name}: measCount true is refused", {"sum": total, "measCount": True}, ["BadCount"],
                 "invalid")]
        groups.append(("mechanisms.debias", {"mechanism": name, **params}, tests))

    analysis: list[tuple[str, dict[str, Any]]] = [
        ("symmetric_rappor", {"eps0": "1"}), ("symmetric_rappor", {"eps0": "13/2"}),
        ("asymmetric_rappor", {"eps": "2"}), ("binary_rr", {"eps": "1/2"}),
        ("kary_rr", {"k": 2, "eps": "1"}), ("kary_rr", {"k": 6, "eps": "3/2"}),
        ("discrete_laplace", {"scale": "5/2"}), ("discrete_gaussian", {"sigma2": "100"}),
    ]
    for name, params in analysis:
        groups.append(("mechanisms.analysis", {"mechanism": name, **params}, [
            (f"{name} {params}: 1000 reports, 100 true", {"measCount": 1000, "trueCount": 100}, [], "valid"),
            (f"{name} {params}: 7 reports, 7 true", {"measCount": 7, "trueCount": 7}, [], "valid"),
        ]))

    for eps in (Fraction(1), Fraction(8)):
        tests = [("u = 0: the interval holds every T_k of large k", {"u": "0", "ubits": 64},
                  ["MoreBits"], "valid")]
        for k in (1, 2, 5):
            t = _t_floor(eps, k, 64)
            for du in (-1, 0, 1):
                tests.append((f"u = floor(T_{k} 2^64) {du:+d}", {"u": str(t + du), "ubits": 64},
                              ["BoundaryBucket"], "valid"))
        t = _t_floor(eps, 1, 128)
        tests.append(("two chunks: u = floor(T_1 2^128)", {"u": str(t), "ubits": 128}, ["BoundaryBucket"],
                      "valid"))
        tests.append(("u = 2^64 - 1: the top of the range", {"u": str((1 << 64) - 1), "ubits": 64}, [],
                      "valid"))
        tests.append(("u = 2^64 is out of range", {"u": str(1 << 64), "ubits": 64}, ["BadU"], "invalid"))
        tests.append(("ubits = 32 is refused", {"u": "1", "ubits": 32}, ["BadU"], "invalid"))
        groups.append(("mechanisms.geometric_skip_bucket", {"eps": rational_text(eps)}, tests))

    add_cases: list[tuple[str, dict[str, Any], list[tuple[Any, str]]]] = [
        # (a JSON true among the bits is accepted as 1 by check_bits, unlike check_ints: no vector)
        ("symmetric_rappor", {"eps0": "1"}, [([1, 0, 1, 1, 0], ""), ([0, 2], "BadMeasurement"),
                                             ([0, -1], "BadMeasurement"), ("01", "BadMeasurement")]),
        ("asymmetric_rappor", {"eps": "2"}, [([1, 0, 1, 1, 0], ""), ([1, 2], "BadMeasurement")]),
        ("binary_rr", {"eps": "1/2"}, [(1, ""), (0, ""), (2, "BadMeasurement"), (True, "BadMeasurement")]),
        ("kary_rr", {"k": 3, "eps": "3/2"}, [([0, 0, 1], ""), ([1, 1, 0], "BadMeasurement"),
                                             ([0, 0, 0], "BadMeasurement"), ([0, 1], "BadMeasurement"),
                                             ([0, 2, 0], "BadMeasurement")]),
        ("discrete_laplace", {"scale": "5/2"}, [([3, -2], ""), ([1, True], "BadMeasurement"),
                                                ([1, 0.5], "BadMeasurement"), ("12", "BadMeasurement")]),
    ]
    for name, params, cases in add_cases:
        tests = [(f"{name}: measurement {json.dumps(m)}",
                  {"seed": seed(f"add/{name}/{i}"), "measurement": m},
                  [flag] if flag else [], "invalid" if flag else "valid")
                 for i, (m, flag) in enumerate(cases)]
        groups.append(("mechanisms.add_noise", {"mechanism": name, **params}, tests))

    bad = ["BadParameter"]
    groups.append(("mechanisms.calibrate", {}, [
        ("discrete Laplace for eps = 1/2, Delta_1 = 3", {"method": "laplace_from_epsilon", "eps": "1/2",
                                                         "sensitivity": "3"}, [], "valid"),
        ("eps = 0 is refused", {"method": "laplace_from_epsilon", "eps": "0", "sensitivity": "1"}, bad,
         "invalid"),
        ("Delta_1 = 0 is refused", {"method": "laplace_from_epsilon", "eps": "1", "sensitivity": "0"}, bad,
         "invalid"),
        ("discrete Gaussian for rho = 1/8, Delta_2^2 = 2", {"method": "gaussian_from_zcdp", "rho": "1/8",
                                                             "sensitivity": "2"}, [], "valid"),
        ("rho = 0 is refused", {"method": "gaussian_from_zcdp", "rho": "0", "sensitivity": "2"}, bad,
         "invalid"),
        ("Delta_2^2 = 0 is refused", {"method": "gaussian_from_zcdp", "rho": "1", "sensitivity": "0"}, bad,
         "invalid"),
        ("zCDP: eps = 0 is refused", {"method": "zcdp_rho_for_approx_dp", "eps": "0", "delta": "1/1000000"},
         bad, "invalid"),
        ("zCDP: delta = 0 is refused", {"method": "zcdp_rho_for_approx_dp", "eps": "1", "delta": "0"}, bad,
         "invalid"),
        ("zCDP: delta = 1 is refused", {"method": "zcdp_rho_for_approx_dp", "eps": "1", "delta": "1"}, bad,
         "invalid"),
        ("RAPPOR aggregate: eps0 = 2, 1000 Clients, delta = 10^-6",
         {"method": "rappor_aggregate_epsilon", "eps0": "2", "measCount": 1000, "delta": "1/1000000"}, [],
         "valid"),
    ]))
    groups.append(("mechanisms.exp_enclosure", {}, [
        ("x = 0: exactly 1", {"x": "0", "prec": 16}, [], "valid"),
        ("x = 1/3 at 16 bits", {"x": "1/3", "prec": 16}, [], "valid"),
        ("x = 5 at 64 bits", {"x": "5", "prec": 64}, [], "valid"),
        ("x = -1 is refused", {"x": "-1", "prec": 16}, ["NegativeX"], "invalid"),
    ]))
    groups.append(("mechanisms.analysis", {"mechanism": "kary_rr", "eps": "1"}, [
        ("k = 1 is refused", {"k": 1, "measCount": 1, "trueCount": 0}, ["BadParameter"], "invalid"),
        ("k = 0 is refused", {"k": 0, "measCount": 1, "trueCount": 0}, ["BadParameter"], "invalid"),
    ]))

    groups.append(("mechanisms.geometric_skip", {"tag": "vectors/geometric_skip"}, [
        (f"8 gaps at eps = {eps}", {"seed": seed(f"skip/large/{eps}"), "eps": eps, "count": 8},
         ["LargeGap"], "valid") for eps in ("20",)]))
    # parameters at and below 1 (the checks are "> 0", not "> 1"), sensitivities of exactly 1
    groups.append(("mechanisms.calibrate", {}, [
        ("discrete Laplace for eps = 2, Delta_1 = 1: scale 1/2", {
            "method": "laplace_from_epsilon", "eps": "2", "sensitivity": "1"}, [], "valid"),
        ("discrete Gaussian for rho = 1, Delta_2^2 = 1: sigma^2 = 1/2", {
            "method": "gaussian_from_zcdp", "rho": "1", "sensitivity": "1"}, [], "valid"),
        *[(f"zCDP: the largest rho for ({e}, {d})-DP", {"method": "zcdp_rho_for_approx_dp", "eps": e,
                                                       "delta": d}, [], "valid")
          for e, d in (("1", "1/1000000000"), ("1/2", "1/1000000"), ("5", "1/100000"),
                       ("1/100", "1/2"))],
    ]))
    for name, key in (("discrete_laplace", "scale"), ("discrete_gaussian", "sigma2")):
        groups.append(("mechanisms.sample_noise", {"mechanism": name}, [
            (f"{name}: {key} = {v}", {key: v, "seed": seed(f"noise/{name}/small/{v}"), "dimension": 3},
             [], "valid") for v in ("1", "1/2")]))
    groups += _boundary_groups(seed)
    groups += _second_run_groups(seed)
    return groups


def _boundary_groups(seed: Callable[[str], str]) -> list[tuple[str, dict[str, Any], list[Test]]]:
    """Groups appended after the mutation run of the mechanisms area (issue 19): each check a
    function makes, on the input just outside it where nothing else refuses that input."""
    bad, meas = ["BadParameter"], ["BadMeasurement"]
    groups: list[tuple[str, dict[str, Any], list[Test]]] = []
    # The additive mechanisms check their scale when built: debias (the identity) uses nothing
    # else, so the check alone refuses a zero scale (the samplers would refuse it too).
    groups.append(("mechanisms.debias", {"mechanism": "discrete_gaussian", "sigma2": "100"}, [
        ("discrete_gaussian: sum of 10 reports (the identity)", {"sum": ["-4", "12"], "measCount": 10},
         [], "valid")]))
    for name, key in (("discrete_laplace", "scale"), ("discrete_gaussian", "sigma2")):
        groups.append(("mechanisms.debias", {"mechanism": name}, [
            (f"{name}: {key} = 0 is refused", {key: "0", "sum": ["1"], "measCount": 1}, bad, "invalid"),
            (f"{name}: {key} = -1 is refused", {key: "-1", "sum": ["1"], "measCount": 1}, bad,
             "invalid"),
            (f"{name}: {key} = 1/1000000 is accepted", {key: "1/1000000", "sum": ["1"], "measCount": 1},
             [], "valid")]))
    # calibration: both parameters negative give a positive quotient, so only the "> 0" checks
    # refuse them; the zCDP search for an upper end of the bracket (eps(1) below the target)
    groups.append(("mechanisms.calibrate", {}, [
        ("eps = -1 and Delta_1 = -1 are refused (their quotient is 1)",
         {"method": "laplace_from_epsilon", "eps": "-1", "sensitivity": "-1"}, bad, "invalid"),
        ("rho = -1 and Delta_2^2 = -2 are refused (sigma^2 would be 1)",
         {"method": "gaussian_from_zcdp", "rho": "-1", "sensitivity": "-2"}, bad, "invalid"),
        *[(f"zCDP: the largest rho for ({e}, {d})-DP (above rho = 1)",
           {"method": "zcdp_rho_for_approx_dp", "eps": e, "delta": d}, [], "valid")
          for e, d in (("20", "1/1000000"), ("3", "1/2"))],
        *[(f"discrete Gaussian for ({e}, {d})-DP, difference {v}",
           {"method": "gaussian_from_approx_dp", "eps": e, "delta": d, "difference": v}, [], "valid")
          for e, d, v in (("1", "1/1000000", [2, -1]), ("1/2", "1/1000000000", [1, -1]))],
        ("gaussian_from_approx_dp: a zero difference is refused",
         {"method": "gaussian_from_approx_dp", "eps": "1", "delta": "1/1000000", "difference": [0, 0]},
         bad, "invalid"),
        ("gaussian_from_approx_dp: delta = 1 is refused",
         {"method": "gaussian_from_approx_dp", "eps": "1", "delta": "1", "difference": [1, -1]},
         bad, "invalid"),
        ("zCDP: eps = -1 is refused", {"method": "zcdp_rho_for_approx_dp", "eps": "-1", "delta": "1/2"},
         bad, "invalid"),
        ("zCDP: delta = -1/2 is refused", {"method": "zcdp_rho_for_approx_dp", "eps": "1",
                                          "delta": "-1/2"}, bad, "invalid"),
    ]))
    # the binomial CDF enclosure: the exact answers outside [0, n) and the range check of p
    groups.append(("mechanisms.binomial_cdf_interval", {"n": 10}, [
        *[(f"j = {j}: exactly {'0' if j < 0 else '1'}", {"j": j, "pLo": "1/4", "pHi": "1/3"}, [], "valid")
          for j in (-2, -1, 10, 11)],
        ("j = 10, pLo = pHi = 1/4 (a point)", {"j": 10, "pLo": "1/4", "pHi": "1/4"}, [], "valid"),
        *[(f"j = {j}, {lo} <= p <= {hi} is refused", {"j": j, "pLo": lo, "pHi": hi}, bad, "invalid")
          for j, lo, hi in ((-1, "0", "1/3"), (10, "1/4", "1"), (3, "1/3", "1/4"), (3, "-1/4", "1/3"),
                            (3, "1/4", "3/2"))],
    ]))
    # bit vectors: a JSON number instead of a list, and lists whose only entries are not bits
    # (the check must name one of them, not run out of entries)
    groups.append(("mechanisms.add_noise", {"mechanism": "symmetric_rappor", "eps0": "1"}, [
        (f"symmetric_rappor: measurement {json.dumps(m)}", {"seed": seed(f"add/bits/{i}"), "measurement": m},
         meas, "invalid") for i, m in enumerate([3, 0, [2], [-1], [1.0]])] + [
        ("symmetric_rappor: the empty measurement (dimension 0)", {"seed": seed("add/bits/empty"),
                                                                   "measurement": []}, [], "valid")]))
    groups.append(("mechanisms.add_noise", {"mechanism": "discrete_laplace", "scale": "5/2"}, [
        (f"discrete_laplace: measurement {json.dumps(m)}", {"seed": seed(f"add/ints/{i}"), "measurement": m},
         meas, "invalid") for i, m in enumerate(["", 3])] + [
        ("discrete_laplace: the empty measurement", {"seed": seed("add/ints/empty"), "measurement": []},
         [], "valid")]))
    return groups


def _compare_reals(key: str, want: Any, got: Any) -> str | None:
    """Real-valued outputs: same length, each within TOLERANCE (relative, absolute near 0)."""
    if want is None:
        return None if got is None else f"unexpected output {key!r}"
    if not isinstance(got, list) or len(got) != len(want):
        return f"{key}: wrong shape"
    for i, (a, b) in enumerate(zip(want, got, strict=True)):
        try:
            da, db = Decimal(a), Decimal(str(b))
        except ArithmeticError:
            return f"{key}[{i}]: not a number"
        if abs(da - db) > TOLERANCE * max(Decimal(1), abs(da)):
            return f"{key}[{i}]: expected {a}, got {b}"
    return None


#: what the handlers raise on an input they refuse (a JSON boolean or float: TypeError)
REJECTS: tuple[type[Exception], ...] = (ValueError, TypeError)


def _group(tc: TestNumberer, handler: Handler, op: str, params: dict[str, Any],
           tests: list[Test]) -> dict[str, Any]:
    """A group of ``op``, tests in the order given: a valid one gets the reference outputs; an
    invalid one (one flag) goes through :func:`invalid_tests`, which checks that ``handler``
    refuses it."""
    out: list[dict[str, Any]] = []
    for comment, inputs, flags, result in tests:
        if result == "valid":
            out.append(test_entry(tc(), comment, inputs, handler({**params, **inputs}), result,
                                  flags))
        else:
            [flag] = flags
            out += invalid_tests(tc, handler, params, [(comment, inputs, flag)], rejects=REJECTS)
    return {"op": op, "params": params, "tests": out}


class MechanismsFamily(Family):
    name = "mechanisms"
    summary = "DP mechanisms (sec. 4 of the DP draft): RAPPOR, RR, discrete Laplace/Gaussian"

    def handlers(self) -> dict[str, Handler]:
        return {**HANDLERS, **DECISION_HANDLERS}

    def compare(self, case: Case, provided: dict[str, Any]) -> str | None:
        assert case.expected is not None
        if case.op == "mechanisms.binomial_cdf_enclosure":
            return _check_enclosure(case, provided)
        exact = {k: v for k, v in case.expected.items() if k not in REAL_OUTPUTS}
        why = diff_outputs(exact, {k: v for k, v in provided.items() if k not in REAL_OUTPUTS})
        if why is not None:
            return why
        for key in REAL_OUTPUTS:
            why = _compare_reals(key, case.expected.get(key), provided.get(key))
            if why is not None:
                return why
        return None

    def schemas(self) -> dict[str, dict[str, Any]]:
        out_vec: dict[str, Any] = {
            "type": "object", "required": ["noisy", "sum", "debiased", "bitsConsumed"],
            "properties": {"noisy": {"type": "array"}, "sum": {"type": "array", "items": DEC},
                           "debiased": _REALS, "bitsConsumed": {"type": "integer", "minimum": 0}}}
        common = {"seed": HEX, "measurements": {"type": "array"}}
        ops: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
            "mechanisms.symmetric_rappor": ({"properties": {**common, "eps0": _EXACT}}, out_vec),
            "mechanisms.symmetric_rappor_textbook": ({"properties": {**common, "eps0": _EXACT}}, out_vec),
            "mechanisms.asymmetric_rappor": ({"properties": {**common, "eps": _EXACT}}, out_vec),
            "mechanisms.binary_rr": ({"properties": {**common, "eps": _EXACT}}, out_vec),
            "mechanisms.kary_rr": ({"properties": {**common, "eps": _EXACT, "k": _INT}}, out_vec),
            "mechanisms.discrete_laplace": ({"properties": {**common, "scale": _EXACT}}, out_vec),
            "mechanisms.discrete_gaussian": ({"properties": {**common, "sigma2": _EXACT}}, out_vec),
            "mechanisms.geometric_skip": (
                {"properties": {"seed": HEX, "tag": {"type": "string"}, "eps": _EXACT,
                                "count": {"type": "integer"}}},
                {"type": "object", "required": ["values", "bitsConsumed"],
                 "properties": {"values": {"type": "array", "items": DEC},
                                "bitsConsumed": {"type": "integer", "minimum": 0}}}),
        }
        reals = {"type": "array", "items": {"type": "string"}}
        mech_args = {"mechanism": {"type": "string"}, "eps0": _EXACT, "eps": _EXACT, "k": _INT,
                     "scale": _EXACT, "sigma2": _EXACT}
        decision_ops: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
            "mechanisms.sample_noise": (
                {"properties": {**mech_args, "seed": HEX, "dimension": {}}},
                {"type": "object", "required": ["noise", "bitsConsumed"],
                 "properties": {"noise": {}, "bitsConsumed": {"type": "integer", "minimum": 0}}}),
            "mechanisms.debias": (
                {"properties": {**mech_args, "sum": {}, "measCount": {}}},
                {"type": "object", "required": ["debiased"], "properties": {"debiased": reals}}),
            "mechanisms.analysis": (
                {"properties": {**mech_args, "measCount": _INT, "trueCount": _INT}},
                {"type": "object", "required": ["params"],
                 "properties": {"params": {"type": "object"}, "debiasedVariance": reals,
                                "flipProbability": reals, "responseProbabilities": reals,
                                "flipProbabilityBounds": {"type": "array", "items": {"type": "string"}}}}),
            "mechanisms.geometric_skip_bucket": (
                {"properties": {"eps": _EXACT, "u": DEC, "ubits": _INT}},
                {"type": "object", "required": ["bucket"],
                 "properties": {"bucket": {"anyOf": [DEC, {"type": "null"}]}}}),
            "mechanisms.geometric_skip": ops["mechanisms.geometric_skip"],
            "mechanisms.add_noise": (
                {"properties": {**mech_args, "seed": HEX, "measurement": {}}},
                {"type": "object", "required": ["noisy", "bitsConsumed"],
                 "properties": {"noisy": {}, "bitsConsumed": {"type": "integer", "minimum": 0}}}),
            "mechanisms.calibrate": (
                {"properties": {"method": {"type": "string"}, "eps": _EXACT, "eps0": _EXACT, "rho": _EXACT,
                                "delta": _EXACT, "sensitivity": _EXACT, "measCount": _INT,
                                "difference": {"type": "array"}}},
                {"type": "object", "properties": {
                    "scale": {"type": "string"}, "sigma2": {"type": "string"}, "rho": {"type": "string"},
                    "aggregateEpsilon": {"type": "object"}}}),
            "mechanisms.binomial_cdf_interval": (
                {"properties": {"n": _INT, "j": _INT, "pLo": _EXACT, "pHi": _EXACT}},
                {"type": "object", "required": ["cdf"],
                 "properties": {"cdf": {"type": "array", "items": {"type": "string"}}}}),
            "mechanisms.binomial_cdf_enclosure": (
                {"properties": {"n": _INT, "j": _INT, "pLo": _EXACT, "pHi": _EXACT, "prec": _INT}},
                {"type": "object", "required": ["cdf", "exactAtEnds"],
                 "properties": {"cdf": {"type": "array", "items": {"type": "string"}},
                                "exactAtEnds": reals}}),
            "mechanisms.exp_enclosure": (
                {"properties": {"x": _EXACT, "prec": _INT}},
                {"type": "object", "required": ["expNeg", "exp"],
                 "properties": {"expNeg": reals, "exp": reals}}),
        }
        return {SCHEMA: family_schema(SCHEMA, "DP mechanism vectors", ops),
                DECISIONS_SCHEMA: family_schema(DECISIONS_SCHEMA, "DP mechanism decision-point vectors",
                                                decision_ops)}

    def files(self) -> list[VectorFile]:
        tc = TestNumberer()
        groups: list[dict[str, Any]] = []

        def seed(label: str) -> str:
            return vector_seed("mechanisms/" + label).hex()

        def group(op: str, params: dict[str, Any], tests: list[Test]) -> None:
            groups.append(_group(tc, HANDLERS[op], op, params, tests))

        one_hot = ["0" * i + "1" + "0" * (9 - i) for i in (0, 3, 3, 9, 5)]
        skip_tests: list[Test] = []
        for eps in ["1", "5", "8", "1/3"]:
            skip_tests.append((f"64 gaps at eps = {eps}", {"seed": seed(f"skip/{eps}"),
                               "tag": "vectors/geometric_skip", "eps": eps, "count": 64}, [], "valid"))
        skip_tests.append(("eps = 0 is refused", {"seed": seed("skip/0"), "tag": "t", "eps": "0",
                                                  "count": 1}, ["ZeroEpsilon"], "invalid"))
        group("mechanisms.geometric_skip", {}, skip_tests)

        for form, op in [("efficient", "mechanisms.symmetric_rappor"),
                         ("textbook", "mechanisms.symmetric_rappor_textbook")]:
            flags = ["TextbookForm"] if form == "textbook" else []
            for eps0 in ["1", "5", "13/2"]:
                tests = [
                    (f"{form}: five one-hot reports, d = 10", {
                        "seed": seed(f"srappor/{form}/{eps0}/a"), "measurements": one_hot}, flags, "valid"),
                    (f"{form}: one report of dimension 1000", {
                        "seed": seed(f"srappor/{form}/{eps0}/b"),
                        "measurements": ["0" * 500 + "1" + "0" * 499]}, flags, "valid"),
                ]
                if form == "efficient":
                    tests.append((f"{form}: dimension 20000 (cost ~ flips)", {
                        "seed": seed(f"srappor/{form}/{eps0}/c"),
                        "measurements": ["1" + "0" * 19999]}, ["LargeDimension"], "valid"))
                group(op, {"eps0": eps0}, tests)
            group(op, {}, [
                ("EPSILON_0 = 0 is refused", {"seed": seed("bad/0"), "measurements": ["01"],
                                              "eps0": "0"}, ["ZeroEpsilon"], "invalid"),
                ("a float EPSILON_0 is refused", {"seed": seed("bad/1"), "measurements": ["01"],
                                                  "eps0": 0.5}, ["FloatParameter"], "invalid"),
                ("a non-bit coordinate is refused", {"seed": seed("bad/2"), "measurements": ["012"],
                                                     "eps0": "2"}, ["NotBits"], "invalid"),
            ])
        group("mechanisms.asymmetric_rappor", {"eps": "2"}, [
            ("five one-hot reports, d = 10", {"seed": seed("arappor/a"), "measurements": one_hot},
             [], "valid"),
            ("a multi-hot vector (noised coordinate-wise)", {"seed": seed("arappor/b"),
                                                             "measurements": ["1101001000"]}, [], "valid"),
        ])
        group("mechanisms.binary_rr", {"eps": "1/2"}, [
            ("twenty bits", {"seed": seed("brr/a"), "measurements": [1, 0] * 10}, [], "valid"),
            ("a 2 is refused", {"seed": seed("brr/b"), "measurements": [2]}, ["NotBits"], "invalid"),
        ])
        group("mechanisms.kary_rr", {"k": 6, "eps": "3/2"}, [
            ("twelve categories", {"seed": seed("krr/a"), "measurements": [0, 1, 2, 3, 4, 5] * 2},
             [], "valid"),
            ("category 6 of 6 is refused", {"seed": seed("krr/b"), "measurements": [6]},
             ["BadCategory"], "invalid"),
        ])
        group("mechanisms.discrete_laplace", {"scale": "5/2"}, [
            ("three integer vectors", {"seed": seed("dlap/a"),
                                       "measurements": [["0", "10", "-3"], ["1", "1", "1"],
                                                        ["100", "0", "0"]]}, [], "valid"),
        ])
        group("mechanisms.discrete_gaussian", {"sigma2": "100"}, [
            ("three integer vectors", {"seed": seed("dg/a"),
                                       "measurements": [["0", "10", "-3"], ["1", "1", "1"],
                                                        ["100", "0", "0"]]}, [], "valid"),
        ])
        doc = envelope(algorithm="DP mechanisms (draft-wang-ppm-differential-privacy-00 sec. 4)",
                       family=self.name, schema=SCHEMA, header=HEADER, notes=NOTES, groups=groups)
        return [VectorFile(PATH, doc, SCHEMA), self._decisions_file(seed)]

    def _decisions_file(self, seed: Callable[[str], str]) -> VectorFile:
        tc = TestNumberer()
        groups = [_group(tc, DECISION_HANDLERS[op], op, params, tests)
                  for op, params, tests in decision_groups(seed)]
        doc = envelope(algorithm="DP mechanisms: decision points, noise alone, debiasing, analysis",
                       family=self.name, schema=DECISIONS_SCHEMA, header=DECISIONS_HEADER,
                       notes=DECISIONS_NOTES, groups=groups)
        return VectorFile(DECISIONS_PATH, doc, DECISIONS_SCHEMA)


FAMILY = MechanismsFamily()


def _near_dyadic_eps(k: int, m: int, bits: int, above: bool) -> Fraction:
    """A rational ``eps`` (denominator ``2^bits``) with ``T_k = q^k``, ``q = 1/(1 + e^-eps)``, within
    about ``2^-bits`` of ``m 2^-64``: strictly above it if ``above``, else strictly below. ``eps*``
    with ``T_k = m 2^-64`` exactly is ``ln(q*/(1 - q*))``, ``q* = (m 2^-64)^(1/k)``; ``T_k`` is
    increasing in ``eps``, so rounding ``eps*`` up (down) puts ``T_k`` above (below) ``m 2^-64``. The
    side is checked with GeometricSkip's own enclosures at ``4 bits`` bits."""
    with mpmath.workprec(4 * bits):
        q = mpmath.power(mpmath.mpf(m) / 2 ** 64, mpmath.mpf(1) / k)
        scaled = mpmath.log(q / (1 - q)) * 2 ** bits
        num = int(mpmath.ceil(scaled) if above else mpmath.floor(scaled))
    eps = Fraction(num, 1 << bits)
    skip = GeometricSkip(eps, work=4 * bits)
    lo, hi = skip._bounds(k)
    target = m << (skip.work - 64)
    if not (lo > target if above else hi < target):
        raise ArithmeticError("near-dyadic eps: the enclosure does not decide the side")  # pragma: no cover
    return eps


def _second_run_groups(seed: Callable[[str], str]) -> list[tuple[str, dict[str, Any], list[Test]]]:
    """Groups appended after the whole-population mutation run of the mechanisms area (issue 19):
    the geometric skip where its enclosures cannot decide at the first precision and beyond its
    enclosure table, the binomial CDF enclosure at inexact points, and EPSILON = 0 where nothing
    but the parameter check refuses it."""
    groups: list[tuple[str, dict[str, Any], list[Test]]] = []
    # geometric_skip_bucket, T_k within 2^-300 (k = 1) or about 2^-345 (k = 70000, beyond the
    # 2^16 entries of the table) of the end of the interval [u, u + 1) 2^-64: the 128-bit
    # enclosures cannot tell the side, nor can 256 bits; 512 bits do
    for k, m, bits in ((1, 3 << 62, 300), (70000, _t_floor(Fraction(20), 70000, 64), 340)):
        for above in (False, True):
            eps = _near_dyadic_eps(k, m, bits, above)
            side = "above" if above else "below"
            groups.append(("mechanisms.geometric_skip_bucket", {"eps": rational_text(eps)}, [
                (f"T_{k} just {side} m 2^-64 (m = {m}): u = m", {"u": str(m), "ubits": 64},
                 ["NearBoundary"], "valid"),
                (f"T_{k} just {side} m 2^-64 (m = {m}): u = m - 1", {"u": str(m - 1), "ubits": 64},
                 ["NearBoundary"], "valid")]))
    # the last entries of the enclosure table (T_65535 is its last) and the first beyond it
    tests: list[Test] = []
    for k in (65535, 65536, 65537):
        t = _t_floor(Fraction(20), k, 64)
        tests += [(f"u = floor(T_{k} 2^64) {du:+d}", {"u": str(t + du), "ubits": 64},
                   ["BoundaryBucket", "LargeGap"], "valid") for du in (-1, 0, 1)]
    groups.append(("mechanisms.geometric_skip_bucket", {"eps": "20"}, tests))
    # two chunks on either side of T_1 (the two-chunk case above holds T_1: null)
    for eps in (Fraction(1), Fraction(8)):
        t = _t_floor(eps, 1, 128)
        groups.append(("mechanisms.geometric_skip_bucket", {"eps": rational_text(eps)}, [
            (f"two chunks: u = floor(T_1 2^128) {du:+d}", {"u": str(t + du), "ubits": 128},
             ["BoundaryBucket"], "valid") for du in (-1, 1)]))
    # binomial CDF enclosures: lower tail (j below the mean) and upper tail, the ends i = 0 and
    # i = n of the sums, ln k! from exact factorials (k < 4096) and from Stirling's series (k >= 4096),
    # a point and a range of p, and the precision where the series stops being used (prec > 220)
    enc: list[Test] = []
    for n, j, p_lo, p_hi in ((20, 0, "1/3", "1/3"), (20, 19, "1/3", "1/3"), (50, 10, "1/10", "1/5"),
                             (50, 29, "1/2", "3/5"), (1000, 250, "1/4", "1/4"), (4095, 1000, "1/4", "1/4"),
                             (4096, 1000, "1/4", "1/4"), (4097, 1100, "1/4", "1/4"),
                             (8191, 4095, "1/2", "1/2"), (10000, 4999, "1/2", "1/2"),
                             (10000, 7600, "3/4", "3/4")):
        enc.append((f"n = {n}, j = {j}, {p_lo} <= p <= {p_hi}", {"n": n, "j": j, "pLo": p_lo, "pHi": p_hi},
                    [], "valid"))
    for prec in (220, 221):
        enc.append((f"n = 4096, j = 1000, p = 1/4 at prec = {prec}",
                    {"n": 4096, "j": 1000, "pLo": "1/4", "pHi": "1/4", "prec": prec}, [], "valid"))
    groups.append(("mechanisms.binomial_cdf_enclosure", {}, enc))
    # EPSILON = 0 and -1/2: k-ary RR's noise alone (a uniform category) and its Bernoulli race
    # would run at eps = 0; only the parameter check refuses it
    groups.append(("mechanisms.sample_noise", {"mechanism": "kary_rr", "k": 6}, [
        (f"kary_rr: EPSILON = {e} is refused", {"eps": e, "seed": seed(f"noise/kary_rr/eps/{e}"),
                                                "dimension": 6}, ["NonPositiveEpsilon"], "invalid")
        for e in ("0", "-1/2")]))
    # the stopping rule of the tail sum at a ratio of exactly 1/2 (2 num = den): at p = 1/2 the
    # lower-tail ratios i/(n - i + 1) reach 1/2 at i = (n + 1)/3, where the sum may stop
    groups.append(("mechanisms.binomial_cdf_enclosure", {}, [
        ("n = 2000, j = 700, p = 1/2: a tail ratio of exactly 1/2 at the stopping point",
         {"n": 2000, "j": 700, "pLo": "1/2", "pHi": "1/2"}, ["TailStop"], "valid")]))
    # the enclosure's own integers at precisions where a guard bit, the halving count or the
    # series' stopping term shows in the last bits (found by a scan over small x and prec)
    groups.append(("mechanisms.exp_enclosure", {}, [
        (f"x = {x} at {prec} bits", {"x": x, "prec": prec}, [], "valid")
        for x, prec in (("6", 83), ("9/10", 23), ("2", 29), ("4/3", 51), ("2/3", 60))]))
    return groups
