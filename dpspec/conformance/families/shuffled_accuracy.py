"""Vector family ``shuffled-accuracy``: the error measures of the shuffled-model mechanisms and
their single-message baselines ([GKMP20] sec. 5), away from the ``shuffled`` family's transcripts.

Files (envelope format, one numbering per file):

* ``bary-linf.json``: ``shuffled.bary_linf`` -- the certified interval ``[lower, upper]`` on
  ``E[max_j |est_j - c_j|]`` of B-ary randomized response
  (:func:`dpspec.spec.shuffled.bary_linf.bary_rr_expected_linf`), rounded outwards to 16 and to 8
  significant digits; ``shuffled.round_outward`` -- the directed decimal rounding used for it;
* ``accuracy.json``: exact MSEs and expected message counts (Observations 9, 10, 16, 17), the
  discrete Laplace variance, its inverse and the central RMSE;
* ``baselines.json``: randomized response, B-ary randomized response and RAPPOR run on seeded tapes
  (per-user reports, counts, estimates), and their analyzers alone;
* ``linf.json``: ``E[max_j |X_j|]`` of independent discrete-Laplace errors and of (fragmented)
  RAPPOR, and the synthetic datasets of the error-growth experiment.

Exact values are rationals ``"a"`` or ``"a/b"``; real values are decimal strings rounded in a
stated direction to a stated number of significant digits and compared with the tolerance in
:data:`TOLERANCE` (nothing published comes from binary64 arithmetic).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import mpmath

import dpspec.spec.shuffled.accuracy as acc  # by its full name: a fresh import of it is seen
from dpspec.conformance.families._groups import build_group, compare_keys
from dpspec.conformance.families.shuffled import noise_from_json
from dpspec.conformance.jsonargs import any_value_ops, hex_arg, int_arg
from dpspec.conformance.vectors import (
    VECTOR_SEED_HEADER,
    Case,
    Family,
    Handler,
    TestNumberer,
    VectorFile,
    family_schema,
    vector_seed,
)
from dpspec.spec.shuffled.bary_linf import bary_rr_expected_linf, round_outward
from dpspec.spec.shuffled.baselines import BaryRandomizedResponse, RandomizedResponse, Rappor
from dpspec.spec.shuffled.counting import CorrelatedMechanism, DistributedMechanism
from dpspec.spec.shuffled.divisible import ParameterError, format_rational, rational
from dpspec.spec.shuffled.fragmented import expected_linf
from dpspec.spec.shuffled.histogram_experiment import (
    dlap_expected_linf,
    error_growth,
    synthetic_counts,
)
from dpspec.spec.tape import RandomTape

SCHEMA = "shuffled_accuracy-v1.json"
#: significant digits of the published real values (rounded down unless stated otherwise)
DIGITS = 20
#: relative tolerance per output key (anything not listed is compared exactly)
TOLERANCE = {"lower": 1e-14, "upper": 1e-14, "lower8": 1e-7, "upper8": 1e-7, "rmse": 1e-18,
             "decay": 1e-18, "expectedLinf": 1e-18, "sqrt": 1e-18}
#: slack of the one-sided check lower8 <= lower, upper8 >= upper (relative)
OUTWARD_SLACK = 1e-14
#: relative tolerance of the 8-digit values in error_growth rows (rounded to nearest by the spec)
ROWS_REL = 2e-7
TAGS = {"rr": "dpspec/shuffled-accuracy/rr", "bary_rr": "dpspec/shuffled-accuracy/bary-rr",
        "rappor": "dpspec/shuffled-accuracy/rappor"}

HEADER = [
    "Source: Ghazi, Kumar, Manurangsi, Pagh, 'Private Counting from Anonymous Messages: Near-Optimal"
    " Accuracy with Vanishing Communication Overhead' (ICML 2020), [GKMP20], sec. 5 (baselines and"
    " the error comparison of sec. 5.2); dpspec.spec.shuffled.{accuracy, baselines, bary_linf,"
    " fragmented, histogram_experiment}.",
    "Exact values are rationals 'a' or 'a/b' in lowest terms. Real values are decimal strings with"
    f" {DIGITS} significant digits rounded down (mpmath at 30 digits), unless the op says otherwise;"
    " they are compared with a relative tolerance stated in the file notes (Tolerance).",
    "An invalid test must be refused (an error, no output).",
]
NOTES = {
    "Tolerance": "Real outputs match when |got - want| <= rel |want|: rel = 1e-14 for lower/upper"
                 " (16 digits), 1e-7 for lower8/upper8, 1e-18 for the 20-digit values; the rest"
                 " exactly. Besides, the 8-digit ends must be rounded outwards: lower8 <= lower"
                 " (1 + 1e-14) and upper8 >= upper (1 - 1e-14), with lower and upper the published"
                 " 16-digit values (an end rounded inwards fails this unless it is an 8-digit decimal"
                 " to 16 digits).",
    "Boundary": "A parameter or input at an end of its allowed range, or on a branch point.",
    "BadParam": "A parameter outside its allowed range: must be refused.",
    "BadInput": "A user input or count vector the mechanism does not accept: must be refused.",
    "ExactCase": "B = 2 or the point mass (every user in bucket 0): the interval is the exact value"
                 " enclosed (lower and upper agree to about 30 digits before rounding).",
    "OpenInterval": "A dataset whose counts are not multinomial: lower and upper are the"
                    " negative-association and union bounds of bary_linf (module docstring).",
}


# -- argument parsing ----------------------------------------------------------------------------
def _rat(args: dict[str, Any], key: str) -> Fraction:
    if key not in args:
        raise ValueError(f"missing argument {key}")
    return rational(args[key], key)


def _raw(args: dict[str, Any], key: str) -> Any:
    """A JSON value passed to the spec as it is (so the spec's own checks decide)."""
    if key not in args:
        raise ValueError(f"missing argument {key}")
    return args[key]


def _counts(args: dict[str, Any], key: str = "counts") -> list[Any]:
    value = _raw(args, key)
    if not isinstance(value, list):
        raise ValueError(f"{key} must be a list")
    return value


def _dec(x: Any, digits: int = DIGITS, up: bool = False) -> str:
    """``x >= 0`` rounded to ``digits`` significant digits (down unless ``up``), as a decimal."""
    if not isinstance(x, mpmath.mpf):  # a complex or other non-real result: a reference bug
        raise RuntimeError(f"a real mpmath number is expected, got {x!r}")
    r = round_outward(x, digits, up)   # exact; refuses a negative or non-finite x (ParameterError)
    with mpmath.workdps(digits + 10):
        text: str = mpmath.nstr(r, digits, min_fixed=-30, max_fixed=30, strip_zeros=True)
    return text


def _signed_dec(x: Any, digits: int = DIGITS) -> str:
    """Like :func:`_dec` (rounded down, i.e. towards minus infinity) but for any sign, so that a
    negative result of the spec is published rather than refused by the family."""
    if isinstance(x, mpmath.mpf) and x < 0:
        return "-" + _dec(-x, digits, up=True)
    return _dec(x, digits)


def _strict(handler: Handler) -> Handler:
    """``handler`` with the spec's arithmetic and type errors turned into :class:`RuntimeError`.

    The replay counts ArithmeticError, TypeError and KeyError as a refusal; every input these
    ops refuse is refused by a check of the spec (a ``ParameterError``, a ValueError), so a
    division by zero or a type error means a missing or broken check, not a refusal."""
    def run(a: dict[str, Any]) -> dict[str, Any]:
        try:
            return handler(a)
        except (ArithmeticError, TypeError, KeyError) as exc:
            raise RuntimeError(f"refused without a check: {type(exc).__name__}: {exc}") from exc

    run.__doc__ = handler.__doc__
    return run


def _mpf_exact(x: mpmath.mpf) -> Fraction:
    man, exp = x.man_exp
    return Fraction(int(man)) * Fraction(2) ** int(exp)


# -- handlers --------------------------------------------------------------------------------
def h_bary_linf(a: dict[str, Any]) -> dict[str, Any]:
    """``bary_rr_expected_linf(gamma, B, n, counts, point_mass_exact)`` rounded outwards."""
    exact = a.get("pointMassExact", True)
    if not isinstance(exact, bool):
        raise ValueError("pointMassExact must be a boolean")
    _rat(a, "gamma")  # the decimal or rational text is checked here, then passed as it is:
    try:              # the spec reads it with Fraction(gamma)
        b = bary_rr_expected_linf(a["gamma"], _raw(a, "B"), _raw(a, "n"), _counts(a),
                                  point_mass_exact=exact)
    except ParameterError:
        raise
    except ValueError as exc:  # every refusal of bary_linf is a ParameterError of its checks
        raise RuntimeError(f"bary_linf failed without a check: {exc}") from exc
    if not (mpmath.isfinite(b.lower) and mpmath.isfinite(b.upper) and 0 <= b.lower <= b.upper):
        raise RuntimeError(f"bary_linf returned a broken interval {b}")
    r16, r8 = b.rounded(16), b.rounded()
    with mpmath.workdps(40):
        return {"lower": mpmath.nstr(r16.lower, 16, strip_zeros=True),
                "upper": mpmath.nstr(r16.upper, 16, strip_zeros=True),
                "lower8": mpmath.nstr(r8.lower, 8, strip_zeros=True),
                "upper8": mpmath.nstr(r8.upper, 8, strip_zeros=True)}


def h_round_outward(a: dict[str, Any]) -> dict[str, Any]:
    """``round_outward(x, digits, up)`` for a dyadic ``x = mantissa 2^exponent``: the result
    exactly (a rational) and as the decimal it approximates."""
    man, exp, digits, up = int_arg(a, "mantissa"), int_arg(a, "exponent"), int_arg(a, "digits"), a.get("up")
    if not isinstance(up, bool) or digits < 1:
        raise ValueError("up must be a boolean, digits >= 1")
    with mpmath.workprec(max(53, man.bit_length())):
        x = mpmath.mpf((man, exp))
    r = round_outward(x, digits, up)
    with mpmath.workdps(digits + 10):
        text = mpmath.nstr(r, digits, min_fixed=-40, max_fixed=40, strip_zeros=True)
    return {"value": format_rational(_mpf_exact(r)), "decimal": text}


def _mechanism(a: dict[str, Any]) -> DistributedMechanism | CorrelatedMechanism:
    if "noise" in a:
        return DistributedMechanism(noise_from_json(a["noise"], "noise"), int_arg(a, "n"),
                                    int_arg(a, "Delta"))
    return CorrelatedMechanism(noise_from_json(_raw(a, "d1"), "d1"), noise_from_json(_raw(a, "d2"), "d2"),
                               noise_from_json(_raw(a, "d3"), "d3"), int_arg(a, "n"))


def h_mechanism(a: dict[str, Any]) -> dict[str, Any]:
    """MSE (Obs. 9/16), expected messages at x = 0, 1 and the bound (Obs. 10/17), the
    histogram's expected messages at B buckets, and the RMSE."""
    m = _mechanism(a)
    mse = acc.mse_of(m)
    out = {"mse": format_rational(mse), "messagesAt0": format_rational(acc.expected_messages_of(m, 0)),
           "messagesAt1": format_rational(acc.expected_messages_of(m, 1)),
           "messagesBound": format_rational(acc.expected_messages_of(m)),
           "histogramMessages": format_rational(acc.expected_messages_histogram(m, int_arg(a, "B"))),
           "rmse": _dec(acc.rmse(mse))}
    if isinstance(m, DistributedMechanism):
        out["mseDirect"] = format_rational(acc.mse_distributed(m.noise))
        out["messagesDirect"] = format_rational(acc.expected_messages_distributed(
            m.noise, m.n, None, m.delta_sum))
        # the bound with the default Delta = 1 (Observation 10 for counting)
        out["messagesDefaultDelta"] = format_rational(acc.expected_messages_distributed(m.noise, m.n))
    else:
        out["mseDirect"] = format_rational(acc.mse_correlated(m.d1, m.d2))
        out["messagesDirect"] = format_rational(acc.expected_messages_correlated(m.d1, m.d2, m.d3, m.n))
    return out


def h_baseline_mse(a: dict[str, Any]) -> dict[str, Any]:
    """The baselines' exact MSEs (accuracy.py), after the constructors' parameter checks."""
    mech, n = _raw(a, "mechanism"), int_arg(a, "n")
    if mech == "rr":
        p = RandomizedResponse(_rat(a, "p"), n).p
        return {"mse": format_rational(acc.mse_randomized_response(p, n))}
    if mech == "rappor":
        r = Rappor(_rat(a, "f"), int_arg(a, "B"), n)
        return {"mse": format_rational(acc.mse_rappor(r.f, n))}
    if mech == "bary_rr":
        b = BaryRandomizedResponse(_rat(a, "gamma"), int_arg(a, "B"), n)
        counts = [int(c) for c in _counts(a)]
        if len(counts) != b.buckets or sum(counts) != n or min(counts) < 0:
            raise ValueError("counts must be B non-negative integers summing to n")
        return {"mse": format_rational(acc.mse_bary_rr(b.gamma, b.buckets, n)),
                "bucketMse": [format_rational(acc.mse_bary_rr_bucket(b.gamma, b.buckets, n, c))
                              for c in counts]}
    raise ValueError("mechanism must be rr, bary_rr or rappor")


def h_dlap(a: dict[str, Any]) -> dict[str, Any]:
    """The discrete Laplace of decay a: its variance (exact), the decay recovered from that
    variance, the central RMSE at epsilon, and sqrt of a rational."""
    out: dict[str, Any] = {}
    if "a" in a:
        dec = _rat(a, "a")
        if not 0 < dec < 1:
            raise ValueError("a must lie in (0, 1)")
        var = acc.dlap_variance(dec)
        assert isinstance(var, Fraction)
        out["variance"] = format_rational(var)
        with mpmath.workdps(30):
            out["decay"] = _dec(acc.dlap_decay_for_variance(mpmath.mpf(var.numerator) / var.denominator))
    if "variance" in a:
        v = _rat(a, "variance")
        with mpmath.workdps(30):
            out["decay"] = _signed_dec(acc.dlap_decay_for_variance(mpmath.mpf(v.numerator)
                                                                   / v.denominator))
    if "epsilon" in a:
        out["rmse"] = _signed_dec(acc.central_dlap_rmse(_rat(a, "epsilon")))
    if "square" in a:
        out["sqrt"] = _dec(acc.rmse(_rat(a, "square")))
    if not out:
        raise ValueError("give a, variance, epsilon or square")
    return out


def _baseline(a: dict[str, Any]) -> RandomizedResponse | BaryRandomizedResponse | Rappor:
    mech = _raw(a, "mechanism")
    if mech == "rr":
        return RandomizedResponse(_rat(a, "p"), int_arg(a, "n"))
    if mech == "bary_rr":
        return BaryRandomizedResponse(_rat(a, "gamma"), _raw(a, "B"), int_arg(a, "n"))
    if mech == "rappor":
        return Rappor(_rat(a, "f"), _raw(a, "B"), int_arg(a, "n"))
    raise ValueError("mechanism must be rr, bary_rr or rappor")


def h_baseline_run(a: dict[str, Any]) -> dict[str, Any]:
    """Every user's report on its tape RandomTape(seed_i, TAG), the counts and the estimates."""
    m = _baseline(a)
    xs, seeds = _counts(a, "x"), _counts(a, "seeds")
    if len(xs) != m.n or len(seeds) != m.n:
        raise ValueError("x and seeds must hold n entries")
    tag = TAGS[_raw(a, "mechanism")]
    reports: list[Any] = []
    bits: list[int] = []
    for x, seed in zip(xs, seeds, strict=True):
        tape = RandomTape(hex_arg({"seed": seed}, "seed"), tag)
        reports.append(m.randomize(x, tape))
        bits.append(tape.bits_consumed)
    if isinstance(m, RandomizedResponse):
        ones = sum(reports)
        return {"reports": reports, "bitsConsumed": bits, "ones": ones,
                "estimate": format_rational(m.analyze(ones))}
    if isinstance(m, BaryRandomizedResponse):
        counts = [reports.count(j) for j in range(m.buckets)]
    else:
        counts = [sum(r[j] for r in reports) for j in range(m.buckets)]
    return {"reports": reports, "bitsConsumed": bits, "counts": counts,
            "estimates": [format_rational(e) for e in m.analyze(counts)]}


def h_baseline_analyze(a: dict[str, Any]) -> dict[str, Any]:
    m = _baseline(a)
    if isinstance(m, RandomizedResponse):
        return {"estimate": format_rational(m.analyze(int_arg(a, "ones")))}
    counts = [int_arg({"c": c}, "c") for c in _counts(a)]
    return {"estimates": [format_rational(e) for e in m.analyze(counts)]}


def h_linf(a: dict[str, Any]) -> dict[str, Any]:
    """E[max_j |X_j|]: independent DLap(a) errors over B buckets, or (fragmented) RAPPOR."""
    kind = _raw(a, "kind")
    if kind == "dlap":
        dec = _rat(a, "a")
        if not 0 < dec < 1:
            raise ValueError("a must lie in (0, 1)")
        b = int_arg(a, "B")
        if b < 1:
            raise ValueError("B must be >= 1")
        with mpmath.workdps(30):
            v = dlap_expected_linf(mpmath.mpf(dec.numerator) / dec.denominator, b)
        return {"expectedLinf": _dec(v)}
    if kind == "rappor":
        f = _rat(a, "f")
        if not 0 <= f < Fraction(1, 2):
            raise ValueError("f must satisfy 0 <= f < 1/2")
        counts = [int_arg({"c": c}, "c") for c in _counts(a)]
        return {"expectedLinf": _dec(expected_linf(f, int_arg(a, "n"), counts))}
    raise ValueError("kind must be dlap or rappor")


def h_synthetic(a: dict[str, Any]) -> dict[str, Any]:
    n, b = int_arg(a, "n"), int_arg(a, "B")
    if n < 1 or b < 1:
        raise ValueError("n and B must be positive")
    return {"counts": synthetic_counts(_raw(a, "distribution"), n, b)}


def h_error_growth(a: dict[str, Any]) -> dict[str, Any]:
    """histogram_experiment.error_growth at (eps, delta, n) over the B grid and distributions; the
    rows as the spec serialises them (GrowthRow.as_json)."""
    eps, delta, n = _rat(a, "epsilon"), _rat(a, "delta"), int_arg(a, "n")
    grid, dists = _counts(a, "Bs"), _counts(a, "distributions")
    if not all(isinstance(b, int) and not isinstance(b, bool) for b in grid):
        raise ValueError("Bs must be a list of integers")
    if not all(isinstance(d, str) for d in dists):
        raise ValueError("distributions must be a list of names")
    told: list[str] = []
    with mpmath.workdps(30):
        rows = error_growth(mpmath.mpf(eps.numerator) / eps.denominator,
                            mpmath.mpf(delta.numerator) / delta.denominator, n, grid, dists,
                            progress=told.append)
    return {"rows": [r.as_json() for r in rows], "progress": told}


HANDLERS: dict[str, Handler] = {op: _strict(h) for op, h in {
    "shuffled.bary_linf": h_bary_linf, "shuffled.round_outward": h_round_outward,
    "shuffled.accuracy.mechanism": h_mechanism, "shuffled.accuracy.baseline_mse": h_baseline_mse,
    "shuffled.accuracy.dlap": h_dlap, "shuffled.baseline.run": h_baseline_run,
    "shuffled.baseline.analyze": h_baseline_analyze, "shuffled.linf": h_linf,
    "shuffled.synthetic_counts": h_synthetic, "shuffled.error_growth": h_error_growth,
}.items()}
ARGS = {
    "shuffled.bary_linf": ("gamma", "B", "n", "counts", "pointMassExact"),
    "shuffled.round_outward": ("mantissa", "exponent", "digits", "up"),
    "shuffled.accuracy.mechanism": ("noise", "d1", "d2", "d3", "n", "Delta", "B"),
    "shuffled.accuracy.baseline_mse": ("mechanism", "p", "f", "gamma", "B", "n", "counts"),
    "shuffled.accuracy.dlap": ("a", "variance", "epsilon", "square"),
    "shuffled.baseline.run": ("mechanism", "p", "f", "gamma", "B", "n", "x", "seeds"),
    "shuffled.baseline.analyze": ("mechanism", "p", "f", "gamma", "B", "n", "ones", "counts"),
    "shuffled.linf": ("kind", "a", "B", "f", "n", "counts"),
    "shuffled.synthetic_counts": ("distribution", "n", "B"),
    "shuffled.error_growth": ("epsilon", "delta", "n", "Bs", "distributions"),
}


# -- comparison ------------------------------------------------------------------------------
def _close(want: Any, got: Any, rel: float, where: str) -> str | None:
    if isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            return f"{where}: expected a list of {len(want)}"
        for w, g in zip(want, got, strict=True):
            why = _close(w, g, rel, where)
            if why:
                return why
        return None
    if not isinstance(got, str):
        return f"{where}: expected a decimal string, got {got!r}"
    with mpmath.workdps(40):
        try:
            w, g = mpmath.mpf(want), mpmath.mpf(got)
        except (ValueError, TypeError):
            return f"{where}: not a number: {got!r}"
        if abs(g - w) > mpmath.mpf(rel) * abs(w):
            return f"{where}: expected {want} (rel {rel}), got {got}"
    return None


def _close_rows(want: Any, got: Any) -> str | None:
    """error_growth rows: B and distribution exactly, the rmse / expectedLinf values at ROWS_REL."""
    if not isinstance(got, list) or len(got) != len(want):
        return f"rows: expected a list of {len(want)}"
    for w, g in zip(want, got, strict=True):
        def check(key: str, wv: Any, gv: Any) -> str | None:
            if key in ("rmse", "expectedLinf"):
                if not isinstance(gv, dict):
                    return f"rows.{key}: expected an object"
                return compare_keys(wv, gv, lambda k, x, y: _close(x, y, ROWS_REL, f"rows.{key}.{k}"))
            return None if gv == wv else f"rows.{key}: expected {wv!r}, got {gv!r}"
        why = compare_keys(w, g, check)
        if why:
            return why
    return None


def compare_outputs(expected: dict[str, Any], provided: dict[str, Any]) -> str | None:
    """Keys of :data:`TOLERANCE` within their relative tolerance; everything else exactly."""
    def check(key: str, want: Any, got: Any) -> str | None:
        if key == "rows":
            return _close_rows(want, got)
        if key in TOLERANCE:
            return _close(want, got, TOLERANCE[key], key)
        return None if got == want else f"{key}: expected {want!r}, got {got!r}"

    why = compare_keys(expected, provided, check)
    return why if why else _outward(expected, provided)


def _outward(expected: dict[str, Any], provided: dict[str, Any]) -> str | None:
    """The one-sided part of the bary_linf comparison (notes, Tolerance): the 8-digit ends lie
    outside the published 16-digit ends, up to :data:`OUTWARD_SLACK`."""
    if "lower8" not in expected or "lower" not in expected:
        return None
    with mpmath.workdps(40):
        slack = mpmath.mpf(OUTWARD_SLACK)
        lo, hi = mpmath.mpf(expected["lower"]), mpmath.mpf(expected["upper"])
        lo8, hi8 = mpmath.mpf(provided["lower8"]), mpmath.mpf(provided["upper8"])
        if lo8 > lo * (1 + slack):
            return f"lower8: {provided['lower8']} is above the lower end {expected['lower']}"
        if hi8 < hi * (1 - slack):
            return f"upper8: {provided['upper8']} is below the upper end {expected['upper']}"
    return None


# -- generation ------------------------------------------------------------------------------
Valid = tuple[str, dict[str, Any], list[str]]


def _bary_linf_cases() -> tuple[list[Valid], list[tuple[str, dict[str, Any], str]]]:
    def c(g: str, b: int, n: int, counts: list[Any], exact: bool = True) -> dict[str, Any]:
        return {"gamma": g, "B": b, "n": n, "counts": counts, "pointMassExact": exact}

    valid: list[Valid] = [
        ("gamma = 0: no error", c("0", 3, 3, [1, 1, 1]), ["Boundary"]),
        ("B = 2, n = 1, gamma = 1/2", c("1/2", 2, 1, [1, 0]), ["Boundary", "ExactCase"]),
        ("B = 2, n = 6, counts (4, 2)", c("1/2", 2, 6, [4, 2]), ["ExactCase"]),
        ("B = 2, n = 6, counts (3, 3) (one group)", c("1/3", 2, 6, [3, 3]), ["ExactCase"]),
        ("B = 2, n = 60, gamma = 1/50 (atoms below 10^-60 cut)", c("1/50", 2, 60, [50, 10]),
         ["ExactCase"]),
        ("B = 2, gamma = 99/100 (near 1)", c("99/100", 2, 4, [4, 0]), ["Boundary", "ExactCase"]),
        ("point mass, B = 3, n = 5", c("1/3", 3, 5, [5, 0, 0]), ["ExactCase"]),
        ("point mass, B = 3, n = 5, marginal bounds only", c("1/3", 3, 5, [5, 0, 0], False),
         ["OpenInterval"]),
        ("point mass, B = 5, n = 12", c("1/4", 5, 12, [12, 0, 0, 0, 0]), ["ExactCase"]),
        ("point mass, B = 4, n = 12, marginal bounds only", c("1/4", 4, 12, [12, 0, 0, 0], False),
         ["OpenInterval"]),
        ("point mass, B = 3, n = 40, gamma = 1/50 (windows cut)", c("1/50", 3, 40, [40, 0, 0]),
         ["ExactCase"]),
        ("point mass, B = 32, n = 320 (Poissonized power trimmed at both ends)",
         c("1/2", 32, 320, [320] + [0] * 31), ["ExactCase"]),
        ("point mass in the last bucket, B = 3 (not the exact case)", c("1/3", 3, 5, [0, 0, 5]),
         ["OpenInterval"]),
        ("B = 4, n = 8, counts (3, 2, 2, 1)", c("1/2", 4, 8, [3, 2, 2, 1]), ["OpenInterval"]),
        ("B = 3, n = 60, uniform", c("1/10", 3, 60, [20, 20, 20]), ["OpenInterval"]),
        ("B = 3, n = 1 (one user)", c("2/3", 3, 1, [0, 1, 0]), ["Boundary", "OpenInterval"]),
        ("B = 6, n = 7, zipf-like", c("3/5", 6, 7, [3, 1, 1, 1, 1, 0]), ["OpenInterval"]),
        ("B = 2, n = 4, gamma = 1/(8 10^40): after the first step the union bound 4 gamma is below"
         " the sweep's stop 10^-40, the rest is charged at the largest deviation",
         c("1/80000000000000000000000000000000000000000", 2, 4, [2, 2]), ["Boundary", "ExactCase"]),
        ("B = 2, n = 4, gamma = 3/(8 10^40): the union bound 4 gamma = 1.5 10^-40 is above the stop,"
         " the sweep goes on", c("3/80000000000000000000000000000000000000000", 2, 4, [2, 2]),
         ["Boundary", "ExactCase"]),
        ("B = 3, n = 3, gamma = 1/(16 10^40), counts (2, 1, 0): the sweep stops after its first"
         " step and charges the rest up to the largest deviation, n - mu of the empty bucket",
         c("1/160000000000000000000000000000000000000000", 3, 3, [2, 1, 0]),
         ["Boundary", "OpenInterval"]),
        ("B = 3, n = 3, gamma = 3 10^-30, counts (2, 1, 0): atoms of about 10^-59, just above"
         " the 10^-60 floor, are kept", c("3/1000000000000000000000000000000", 3, 3, [2, 1, 0]),
         ["Boundary", "OpenInterval"]),
        ("B = 3, n = 3, gamma = 10^-30, counts (2, 1, 0): atoms of about 10^-61, below the floor,"
         " are carried as unlocated mass", c("1/1000000000000000000000000000000", 3, 3, [2, 1, 0]),
         ["Boundary", "OpenInterval"]),
        ("B = 2, n = 220, gamma = 99/100, everyone in bucket 1: the windows of Bin(220, p) start"
         " above 0 (P(0) < 10^-60)", c("99/100", 2, 220, [0, 220]), ["ExactCase"]),
        ("point mass, B = 3, n = 1, gamma = 9/(4 10^30): the marginal bounds are 2 gamma/3 ="
         " 1.5 10^-30 apart, above the 10^-30 from which the exact box probability is used",
         c("9/4000000000000000000000000000000", 3, 1, [1, 0, 0]), ["Boundary", "ExactCase"]),
        ("point mass, B = 3, n = 1, gamma = 3/(4 10^30): the marginal bounds are 5 10^-31 apart,"
         " below 10^-30: the interval stays the marginal one",
         c("3/4000000000000000000000000000000", 3, 1, [1, 0, 0]), ["Boundary", "OpenInterval"]),
        ("point mass, B = 3, n = 140, gamma = 99/100: P(Y_0 = n) < 10^-60 (the window of Y_0 ends"
         " below n), and two deviations of Y_0 follow each other (the box probability is updated"
         " without recomputing Q)", c("99/100", 3, 140, [140, 0, 0]), ["ExactCase"]),
    ]
    base = c("1/3", 3, 5, [5, 0, 0])
    invalid = [
        ("B = 1", {**base, "B": 1, "counts": [5]}, "BadParam"),
        ("B = true", {**base, "B": True}, "BadParam"),
        ("B = '3' (a string)", {**base, "B": "3"}, "BadParam"),
        ("n = 0", {**base, "n": 0, "counts": [0, 0, 0]}, "BadParam"),
        ("n = true", {**base, "n": True, "counts": [1, 0, 0]}, "BadParam"),
        ("n = '5' (a string)", {**base, "n": "5"}, "BadParam"),
        ("two counts for B = 3", {**base, "counts": [5, 0]}, "BadInput"),
        ("a negative count", {**base, "counts": [6, -1, 0]}, "BadInput"),
        ("a boolean count", {**base, "n": 1, "counts": [True, 0, 0]}, "BadInput"),
        ("a string count", {**base, "counts": ["5", 0, 0]}, "BadInput"),
        ("counts sum to n - 1", {**base, "counts": [4, 0, 0]}, "BadInput"),
        ("gamma = 1", {**base, "gamma": "1"}, "BadParam"),
        ("gamma = -1/3", {**base, "gamma": "-1/3"}, "BadParam"),
        ("gamma = 0 (no error) with a negative count: the counts are checked first",
         {**base, "gamma": "0", "counts": [6, -1, 0]}, "BadInput"),
        ("gamma = 0 with counts summing to n + 1", {**base, "gamma": "0", "counts": [5, 1, 0]},
         "BadInput"),
        ("pointMassExact = 1 (not a boolean)", {**base, "pointMassExact": 1}, "BadParam"),
    ]
    return valid, invalid


ROUND_CASES: list[tuple[str, int, int, int, bool]] = [
    ("zero", 0, 0, 8, True),
    ("one, up", 1, 0, 8, True), ("one, down", 1, 0, 8, False),
    ("exactly 1000 (a power of ten), up", 1000, 0, 3, True),
    ("exactly 1000, down", 1000, 0, 1, False),
    ("7/8 = 0.875 (already 3 digits), down", 7, -3, 3, False),
    ("7/8 to 2 digits, up", 7, -3, 2, True), ("7/8 to 2 digits, down", 7, -3, 2, False),
    ("2^-10 = 0.0009765625 to 4 digits, up", 1, -10, 4, True),
    ("2^-10 to 4 digits, down", 1, -10, 4, False),
    ("0.1 as a 64-bit dyadic (just above 1/10), 1 digit, down", 0xCCCCCCCCCCCCCCCD, -67, 1, False),
    ("the same, 1 digit, up", 0xCCCCCCCCCCCCCCCD, -67, 1, True),
    ("just below 1 (1 - 2^-60), 3 digits, up (carries to 1)", (1 << 60) - 1, -60, 3, True),
    ("just below 1 (1 - 2^-60), 3 digits, down", (1 << 60) - 1, -60, 3, False),
    ("just below 10 (10 - 2^-50), 5 digits, down", 10 * (1 << 50) - 1, -50, 5, False),
    ("just above 100 (100 + 2^-40), 4 digits, up", 100 * (1 << 40) + 1, -40, 4, True),
    ("2^100, 16 digits, up", 1, 100, 16, True), ("2^100, 16 digits, down", 1, 100, 16, False),
    ("3 2^-200, 8 digits, up", 3, -200, 8, True),
]

NB = {"family": "negative_binomial", "r": "3/2", "p": "1/4"}
POI = {"family": "poisson", "lambda": "5/2"}


def _mechanism_cases() -> list[tuple[str, dict[str, Any], list[str]]]:
    return [
        ("distributed, Poisson(5/2), n = 10, Delta = 1, B = 4", {"noise": POI, "n": 10, "Delta": 1, "B": 4},
         []),
        ("distributed, Poisson(5/2), n = 10, Delta = 3 (the bound uses Delta)",
         {"noise": POI, "n": 10, "Delta": 3, "B": 1}, []),
        ("distributed, negative binomial(3/2, 1/4), n = 7", {"noise": NB, "n": 7, "Delta": 1, "B": 2}, []),
        ("distributed, n = 1", {"noise": POI, "n": 1, "Delta": 1, "B": 3}, ["Boundary"]),
        ("correlated, D1 = D2 = NB(3/2, 1/4), D3 = Poisson(5/2), n = 9",
         {"d1": NB, "d2": NB, "d3": POI, "n": 9, "B": 5}, []),
        ("correlated, D1 = Poisson(1/3), D2 = NB(2, 1/3), D3 = NB(3/2, 1/4), n = 4",
         {"d1": {"family": "poisson", "lambda": "1/3"}, "d2": {"family": "negative_binomial", "r": "2",
                                                                "p": "1/3"}, "d3": NB, "n": 4, "B": 2}, []),
    ]


def _baseline_mse_cases() -> tuple[list[Valid], list[tuple[str, dict[str, Any], str]]]:
    valid: list[Valid] = [
        ("RR, p = 0 (no noise)", {"mechanism": "rr", "p": "0", "n": 10}, ["Boundary"]),
        ("RR, p = 1/4, n = 10", {"mechanism": "rr", "p": "1/4", "n": 10}, []),
        ("RR, p = 49/100, n = 3", {"mechanism": "rr", "p": "49/100", "n": 3}, ["Boundary"]),
        ("RR, p = 1/3, n = 1 (one user)", {"mechanism": "rr", "p": "1/3", "n": 1}, ["Boundary"]),
        ("RAPPOR, f = 1/3, B = 2, n = 1 (one user)", {"mechanism": "rappor", "f": "1/3", "B": 2, "n": 1},
         ["Boundary"]),
        ("B-ary RR, gamma = 1/3, B = 3, n = 1 (one user)",
         {"mechanism": "bary_rr", "gamma": "1/3", "B": 3, "n": 1, "counts": [0, 1, 0]}, ["Boundary"]),
        ("RAPPOR, f = 1/5, B = 4, n = 9", {"mechanism": "rappor", "f": "1/5", "B": 4, "n": 9}, []),
        ("B-ary RR, gamma = 1/2, B = 4, counts (5, 3, 0, 0)",
         {"mechanism": "bary_rr", "gamma": "1/2", "B": 4, "n": 8, "counts": [5, 3, 0, 0]}, []),
        ("B-ary RR, gamma = 0, B = 2", {"mechanism": "bary_rr", "gamma": "0", "B": 2, "n": 3,
                                        "counts": [3, 0]}, ["Boundary"]),
        ("B-ary RR, gamma = 9/10, B = 3, point mass",
         {"mechanism": "bary_rr", "gamma": "9/10", "B": 3, "n": 6, "counts": [6, 0, 0]}, []),
    ]
    invalid = [
        ("RR, p = 1/2", {"mechanism": "rr", "p": "1/2", "n": 10}, "BadParam"),
        ("RR, p = -1/10", {"mechanism": "rr", "p": "-1/10", "n": 10}, "BadParam"),
        ("RR, n = 0", {"mechanism": "rr", "p": "1/4", "n": 0}, "BadParam"),
        ("RR, n = true", {"mechanism": "rr", "p": "1/4", "n": True}, "BadParam"),
        ("RAPPOR, n = 0", {"mechanism": "rappor", "f": "1/5", "B": 4, "n": 0}, "BadParam"),
        ("B-ary RR, n = 0", {"mechanism": "bary_rr", "gamma": "1/2", "B": 2, "n": 0, "counts": [0, 0]},
         "BadParam"),
        ("B-ary RR, gamma = -1/10", {"mechanism": "bary_rr", "gamma": "-1/10", "B": 2, "n": 3,
                                     "counts": [3, 0]}, "BadParam"),
        ("B-ary RR, gamma = 1/1000 - 1 (in (-1, 0))", {"mechanism": "bary_rr", "gamma": "-999/1000",
                                                     "B": 2, "n": 3, "counts": [3, 0]}, "BadParam"),
        ("RAPPOR, f = 1/2", {"mechanism": "rappor", "f": "1/2", "B": 4, "n": 9}, "BadParam"),
        ("RAPPOR, B = 0", {"mechanism": "rappor", "f": "1/5", "B": 0, "n": 9}, "BadParam"),
        ("B-ary RR, gamma = 1", {"mechanism": "bary_rr", "gamma": "1", "B": 2, "n": 3, "counts": [3, 0]},
         "BadParam"),
        ("B-ary RR, B = 1", {"mechanism": "bary_rr", "gamma": "1/2", "B": 1, "n": 3, "counts": [3]},
         "BadParam"),
        ("B-ary RR, counts sum to n + 1", {"mechanism": "bary_rr", "gamma": "1/2", "B": 2, "n": 3,
                                           "counts": [3, 1]}, "BadInput"),
        ("an unknown mechanism", {"mechanism": "laplace", "n": 3}, "BadParam"),
    ]
    return valid, invalid


def _seeds(label: str, n: int) -> list[str]:
    return [vector_seed(f"shuffled-accuracy/{label}/{i}").hex() for i in range(n)]


def _run_cases() -> tuple[list[Valid], list[tuple[str, dict[str, Any], str]]]:
    rr = {"mechanism": "rr", "p": "1/4", "n": 12, "x": [1, 0] * 6, "seeds": _seeds("rr", 12)}
    rr0 = {"mechanism": "rr", "p": "0", "n": 3, "x": [1, 0, 1], "seeds": _seeds("rr0", 3)}
    bary = {"mechanism": "bary_rr", "gamma": "1/2", "B": 3, "n": 12, "x": [0, 1, 2, 0] * 3,
            "seeds": _seeds("bary", 12)}
    bary_hi = {"mechanism": "bary_rr", "gamma": "9/10", "B": 5, "n": 8, "x": [4] * 8,
               "seeds": _seeds("bary-hi", 8)}
    rap_seeds = _seeds("rappor", 6)
    rap: dict[str, Any] = {"mechanism": "rappor", "f": "1/4", "B": 4, "n": 6, "x": [0, 1, 2, 3, 3, 0],
                           "seeds": rap_seeds}
    rap1 = {"mechanism": "rappor", "f": "1/3", "B": 1, "n": 4, "x": [0] * 4, "seeds": _seeds("rappor1", 4)}
    valid: list[Valid] = [
        ("randomized response, p = 1/4, 12 users", rr, []),
        ("randomized response, p = 0 (reports the input)", rr0, ["Boundary"]),
        ("B-ary RR, gamma = 1/2, B = 3, 12 users", bary, []),
        ("B-ary RR, gamma = 9/10, B = 5, every user in the last bucket", bary_hi, ["Boundary"]),
        ("RAPPOR, f = 1/4, B = 4, 6 users", rap, []),
        ("RAPPOR, B = 1", rap1, ["Boundary"]),
    ]
    invalid = [
        ("RR, input 2", {**rr0, "x": [1, 0, 2]}, "BadInput"),
        ("RR, input true", {**rr0, "x": [True, 0, 1]}, "BadInput"),
        ("B-ary RR, input B", {**bary, "x": [0] * 11 + [3]}, "BadInput"),
        ("B-ary RR, input -1", {**bary, "x": [-1] + [0] * 11}, "BadInput"),
        ("B-ary RR, input true", {**bary, "x": [True] + [0] * 11}, "BadInput"),
        ("B-ary RR, B = true", {**bary, "B": True}, "BadParam"),
        ("RAPPOR, input B", {**rap, "x": [4, 0, 0, 0, 0, 0]}, "BadInput"),
        ("RAPPOR, input true", {**rap, "x": [True, 0, 0, 0, 0, 0]}, "BadInput"),
        ("RAPPOR, input -1", {**rap, "x": [0, 0, 0, 0, 0, -1]}, "BadInput"),
        ("RAPPOR, B = true", {**rap, "B": True}, "BadParam"),
        ("one seed short", {**rap, "seeds": rap_seeds[:-1]}, "BadInput"),
    ]
    return valid, invalid


def _analyze_cases() -> tuple[list[Valid], list[tuple[str, dict[str, Any], str]]]:
    valid: list[Valid] = [
        ("RR, p = 1/3, 0 ones of 9", {"mechanism": "rr", "p": "1/3", "n": 9, "ones": 0}, ["Boundary"]),
        ("RR, p = 1/3, 9 ones of 9", {"mechanism": "rr", "p": "1/3", "n": 9, "ones": 9}, ["Boundary"]),
        ("B-ary RR, gamma = 2/3, B = 4", {"mechanism": "bary_rr", "gamma": "2/3", "B": 4, "n": 10,
                                          "counts": [0, 1, 4, 5]}, []),
        ("RAPPOR, f = 1/5, B = 3", {"mechanism": "rappor", "f": "1/5", "B": 3, "n": 10,
                                    "counts": [0, 10, 3]}, []),
    ]
    invalid = [
        ("B-ary RR, B - 1 counts", {"mechanism": "bary_rr", "gamma": "2/3", "B": 4, "n": 10,
                                    "counts": [0, 1, 4]}, "BadInput"),
        ("RAPPOR, B + 1 counts", {"mechanism": "rappor", "f": "1/5", "B": 3, "n": 10,
                                  "counts": [0, 1, 4, 5]}, "BadInput"),
    ]
    return valid, invalid


def _dlap_cases() -> tuple[list[Valid], list[tuple[str, dict[str, Any], str]]]:
    valid: list[Valid] = [
        ("a = 1/2", {"a": "1/2"}, []), ("a = 1/1000", {"a": "1/1000"}, ["Boundary"]),
        ("a = 999/1000", {"a": "999/1000"}, ["Boundary"]),
        ("variance 1", {"variance": "1"}, []), ("variance 10^6", {"variance": "1000000"}, []),
        ("epsilon 1", {"epsilon": "1"}, []), ("epsilon 1/100", {"epsilon": "1/100"}, ["Boundary"]),
        ("epsilon 20", {"epsilon": "20"}, []),
        ("sqrt of 2", {"square": "2"}, []), ("sqrt of 0", {"square": "0"}, ["Boundary"]),
    ]
    invalid = [
        ("epsilon 0", {"epsilon": "0"}, "BadParam"), ("epsilon -1", {"epsilon": "-1"}, "BadParam"),
        ("variance 0", {"variance": "0"}, "BadParam"), ("variance -1", {"variance": "-1"}, "BadParam"),
        ("variance -1/2", {"variance": "-1/2"}, "BadParam"),
        ("epsilon -1/2", {"epsilon": "-1/2"}, "BadParam"),
        ("a = 1", {"a": "1"}, "BadParam"), ("nothing to compute", {}, "BadParam"),
    ]
    return valid, invalid


def _linf_cases() -> tuple[list[Valid], list[tuple[str, dict[str, Any], str]]]:
    valid: list[Valid] = [
        ("DLap(1/2), B = 1", {"kind": "dlap", "a": "1/2", "B": 1}, ["Boundary"]),
        ("DLap(1/2), B = 8", {"kind": "dlap", "a": "1/2", "B": 8}, []),
        ("DLap(9/10), B = 3", {"kind": "dlap", "a": "9/10", "B": 3}, []),
        ("RAPPOR f = 1/4, n = 6, counts (6, 0, 0)", {"kind": "rappor", "f": "1/4", "n": 6,
                                                    "counts": [6, 0, 0]}, []),
        ("RAPPOR f = 1/10, n = 8, counts (3, 3, 2)", {"kind": "rappor", "f": "1/10", "n": 8,
                                                     "counts": [3, 3, 2]}, []),
        ("RAPPOR f = 1/100, n = 40 (atoms below 10^-40 dropped)",
         {"kind": "rappor", "f": "1/100", "n": 40, "counts": [30, 10]}, ["Boundary"]),
        ("RAPPOR f = 2/5, n = 200, point mass (atoms below 10^-40 dropped below the mode)",
         {"kind": "rappor", "f": "2/5", "n": 200, "counts": [200, 0]}, ["Boundary"]),
        ("RAPPOR f = 0 (no error)", {"kind": "rappor", "f": "0", "n": 3, "counts": [1, 2]}, ["Boundary"]),
    ]
    invalid: list[tuple[str, dict[str, Any], str]] = [
        ("RAPPOR, counts sum to n - 1", {"kind": "rappor", "f": "1/4", "n": 6, "counts": [5, 0]}, "BadInput"),
        ("RAPPOR, a negative count", {"kind": "rappor", "f": "1/4", "n": 6, "counts": [7, -1]}, "BadInput"),
        ("RAPPOR, f = 1/2", {"kind": "rappor", "f": "1/2", "n": 2, "counts": [1, 1]}, "BadParam"),
        ("DLap, a = 0", {"kind": "dlap", "a": "0", "B": 2}, "BadParam"),
        ("DLap, B = 0", {"kind": "dlap", "a": "1/2", "B": 0}, "BadParam"),
        ("an unknown kind", {"kind": "gauss"}, "BadParam"),
    ]
    return valid, invalid


def _synthetic_cases() -> tuple[list[Valid], list[tuple[str, dict[str, Any], str]]]:
    valid: list[Valid] = []
    invalid: list[tuple[str, dict[str, Any], str]]
    for dist in ("uniform", "zipf", "point"):
        for n, b in ((10, 3), (7, 7), (3, 5), (100, 6), (1, 1)):
            valid.append((f"{dist}, n = {n}, B = {b}", {"distribution": dist, "n": n, "B": b},
                          ["Boundary"] if n <= b else []))
    invalid = [("an unknown distribution", {"distribution": "census", "n": 10, "B": 3}, "BadParam"),
               ("n = 0", {"distribution": "uniform", "n": 0, "B": 3}, "BadParam")]
    return valid, invalid


class ShuffledAccuracyFamily(Family):
    name = "shuffled-accuracy"
    summary = "shuffled model: exact MSEs, baselines on tapes, certified l-infinity error bounds"

    def handlers(self) -> dict[str, Handler]:
        return dict(HANDLERS)

    def schemas(self) -> dict[str, dict[str, Any]]:
        return {SCHEMA: family_schema(SCHEMA, "Shuffled-model accuracy vectors", any_value_ops(ARGS))}

    def compare(self, case: Case, provided: dict[str, Any]) -> str | None:
        assert case.expected is not None
        return compare_outputs(case.expected, provided)

    def _file(self, path: str, algorithm: str, header: list[str],
              groups: list[dict[str, Any]]) -> VectorFile:
        return self.vector_file(f"shuffled-accuracy/{path}", algorithm=algorithm, schema=SCHEMA,
                                header=HEADER + header, notes=NOTES, groups=groups)

    def files(self) -> list[VectorFile]:
        tc = TestNumberer()
        rounding = [(text, {"mantissa": m, "exponent": e, "digits": d, "up": up}, ["Boundary"])
                    for text, m, e, d, up in ROUND_CASES]
        bary = self._file("bary-linf.json", "Certified bounds on E[max_j |X_j|] of B-ary randomized"
                          " response ([GKMP20] sec. 5.2)", [
            "shuffled.bary_linf: dpspec.spec.shuffled.bary_linf.bary_rr_expected_linf(gamma, B, n,"
            " counts, pointMassExact): B-ary RR with blanket gamma, n users with true bucket counts"
            " 'counts'; the error of bucket j is X_j = (Y_j - n gamma/B)/(1 - gamma) - c_j. lower/upper:"
            " the certified interval's ends rounded outwards to 16 significant digits (lower down,"
            " upper up); lower8/upper8 the same to 8 digits (LinfBounds.rounded()).",
            "The interval: union bound above, negative association of the counts below, both from"
            " the exact marginals Y_j ~ Bin(c_j, 1 - gamma + gamma/B) + Bin(n - c_j, gamma/B); exact"
            " for B = 2 and (pointMassExact) for the point mass counts = (n, 0, ..., 0).",
            "shuffled.round_outward: round_outward(x, digits, up) for x = mantissa 2^exponent: x"
            " rounded to 'digits' significant decimal digits up or down, returned as the binary"
            " number (precision 4 digits + 64 bits) nearest that decimal on the outer side: 'value'"
            " is that binary number exactly, 'decimal' the decimal it stands for.",
        ], [build_group(tc, HANDLERS, "shuffled.bary_linf", *_bary_linf_cases()),
            build_group(tc, HANDLERS, "shuffled.round_outward", rounding, [
                ("digits = 0", {"mantissa": 1, "exponent": 0, "digits": 0, "up": True}, "BadParam"),
                ("x = -3 (negative)", {"mantissa": -3, "exponent": 0, "digits": 3, "up": True},
                 "BadParam"),
                ("x = -1/2 (negative, above -1)", {"mantissa": -1, "exponent": -1, "digits": 3,
                                                   "up": False}, "BadParam"),
                ("up = 1 (not a boolean)", {"mantissa": 1, "exponent": 0, "digits": 3, "up": 1},
                 "BadParam")])])
        tc = TestNumberer()
        accuracy = self._file("accuracy.json", "Exact errors and expected messages ([GKMP20] Obs. 9,"
                              " 10, 16, 17; sec. 5 baselines)", [
            "shuffled.accuracy.mechanism: the D-distributed mechanism {noise, n, Delta} or the"
            " correlated mechanism {d1, d2, d3, n} (noise as in the shuffled family: poisson(lambda),"
            " negative_binomial(r, p)). mse = Var[D] (Obs. 9) or Var[D1] + Var[D2] (Obs. 16);"
            " messagesAt0/messagesAt1: expected messages of a user with input 0/1, x + E[D]/n (Obs. 10)"
            " or x + (E[D1] + E[D2] + 2 E[D3])/n (Obs. 17); messagesBound the same at x = Delta (at x"
            " = 1 for the correlated one); histogramMessages = 1 + B messagesAt0; rmse = sqrt(mse);"
            " mseDirect/messagesDirect recompute mse and messagesBound from the noise alone;"
            " messagesDefaultDelta (distributed only): the bound at the default Delta = 1,"
            " 1 + E[D]/n.",
            "shuffled.accuracy.baseline_mse: rr: n p (1-p)/(1-2p)^2; rappor: n f (1-f)/(1-2f)^2;"
            " bary_rr: mse = mean over buckets, bucketMse_j = [c_j P1 (1-P1) + (n - c_j) P0 (1-P0)]"
            " /(1-gamma)^2 with P1 = 1 - gamma + gamma/B, P0 = gamma/B.",
            "shuffled.accuracy.dlap: variance = 2a/(1-a)^2 of the discrete Laplace P[k] ~ a^|k|;"
            " decay = the root in (0, 1) of 2a/(1-a)^2 = variance; rmse = sqrt(2 e^-eps)/(1 - e^-eps),"
            " the central DLap(eps) RMSE; sqrt = sqrt(square).",
        ], [build_group(tc, HANDLERS, "shuffled.accuracy.mechanism", _mechanism_cases(), [
                ("distributed, n = 0", {"noise": POI, "n": 0, "Delta": 1, "B": 1}, "BadParam"),
                ("an unknown noise family", {"noise": {"family": "gauss"}, "n": 3, "Delta": 1, "B": 1},
                 "BadParam")]),
            build_group(tc, HANDLERS, "shuffled.accuracy.baseline_mse", *_baseline_mse_cases()),
            build_group(tc, HANDLERS, "shuffled.accuracy.dlap", *_dlap_cases())])
        tc = TestNumberer()
        baselines = self._file("baselines.json", "Single-message baselines on seeded tapes ([GKMP20]"
                               " sec. 5)", [
            "shuffled.baseline.run: user i with input x[i] runs the randomizer on RandomTape(seeds[i],"
            f" TAG): rr (TAG '{TAGS['rr']}'): report x XOR bernoulli(tape, p); bary_rr (TAG"
            f" '{TAGS['bary_rr']}'): if bernoulli(tape, gamma) then tape.uniform(B) else x; rappor (TAG"
            f" '{TAGS['rappor']}'): bits j = 0..B-1 in order, [j == x] XOR bernoulli(tape, f)."
            " bernoulli is dpspec.spec.samplers.bernoulli (see the samplers vectors). Outputs: the"
            " reports, bitsConsumed per user, the counts (rr: the number of ones) and the estimates:"
            " rr (ones - n p)/(1 - 2p); bary_rr (C_j - n gamma/B)/(1 - gamma); rappor (C_j - n f)/(1 - 2f).",
            "shuffled.baseline.analyze: the analyzers alone on given counts.",
            VECTOR_SEED_HEADER + "; labels 'shuffled-accuracy/<name>/<i>'.",
        ], [build_group(tc, HANDLERS, "shuffled.baseline.run", *_run_cases()),
            build_group(tc, HANDLERS, "shuffled.baseline.analyze", *_analyze_cases())])
        tc = TestNumberer()
        linf = self._file("linf.json", "Expected l-infinity errors and synthetic datasets ([GKMP20]"
                          " sec. 5.2)", [
            "shuffled.linf kind dlap: E[max_j |X_j|] of B independent DLap(a) errors,"
            " sum_{t >= 0} (1 - (1 - 2 a^(t+1)/(1+a))^B), summed until a term is below 10^-25"
            " (histogram_experiment.dlap_expected_linf).",
            "shuffled.linf kind rappor: E[max_j |est_j - h_j|] of (fragmented) RAPPOR with flip f, n users"
            " with true counts 'counts' (independent buckets; fragmented.expected_linf: an upper bound"
            " within 2 B n 10^-40/(1 - 2f) of the exact value).",
            "shuffled.synthetic_counts: histogram_experiment.synthetic_counts: uniform (the first n mod B"
            " buckets get one more), zipf (weights 1/(j+1), largest remainder, ties to the lower"
            " bucket), point (every user in bucket 0).",
            "shuffled.error_growth (appended): histogram_experiment.error_growth(eps, delta, n, Bs,"
            " distributions), the rows of the sec. 5.2 error-growth table on synthetic data: per"
            " (B, distribution), in the order B then distribution, the RMSE over buckets and the"
            " expected l-infinity error of central DLap(eps/2), the correlated mechanism at (eps/2,"
            " delta/2) with D3 by the exact curve (here delta/2 >= 1 - a, so D3 = Poi(0)), B-ary RR"
            " (and its worst bucket's RMSE; expectedLinf bary_rr / bary_rr_lower the certified"
            " interval), RAPPOR and Fragmented RAPPOR, each by the spec's parameters"
            " (shuffled.privacy) and written as GrowthRow.as_json does: mpmath.nstr(value, 8),"
            " rounded to nearest at 8 significant digits, compared at 2e-7 relative; progress is the"
            " 'B = b, distribution' text the spec reports before each row.",
        ], [build_group(tc, HANDLERS, "shuffled.linf", *_linf_cases()),
            build_group(tc, HANDLERS, "shuffled.synthetic_counts", *_synthetic_cases()),
            build_group(tc, HANDLERS, "shuffled.error_growth", [
                ("eps 1, delta 9/10, n 20, B 2 and 3, point and zipf data",
                 {"epsilon": "1", "delta": "9/10", "n": 20, "Bs": [2, 3],
                  "distributions": ["point", "zipf"]}, [])], [
                ("an unknown distribution", {"epsilon": "1", "delta": "9/10", "n": 20, "Bs": [2],
                                             "distributions": ["census"]}, "BadParam"),
                ("B = 1 (B-ary randomized response needs B >= 2)",
                 {"epsilon": "1", "delta": "9/10", "n": 20, "Bs": [1], "distributions": ["point"]},
                 "BadParam")])])
        return [accuracy, bary, baselines, linf]


FAMILY = ShuffledAccuracyFamily()
