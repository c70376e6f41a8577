"""Vector family ``accounting-discrete-limits``: the limits of the exact discrete Gaussian and
discrete Laplace accountant (dpspec.spec.accounting.discrete; [CKS20] Theorems 7 and 14, sec. 2.2)
and of the parameter reading it relies on (dpspec.spec.accounting.numeric) that the
``accounting-discrete`` family, at its 20-digit publication, cannot see.

Three kinds of case:

* The working values. The module computes at ``DPS_DISCRETE + 10 = 40`` significant digits. For
  a result that comes from correctly rounded operations only (the conversion of a decimal or
  rational input, a product, a quotient, a square root; mpmath rounds each of them correctly, as
  IEEE 754 does for binary64), the binary value at that precision is fully determined, and it is
  published exactly: a dyadic rational ``p/2^k``. zCDP ``|v|^2 / (2 sigma^2)``, the discrete
  Laplace conversions, the eps and sigma a delta evaluation starts from (``sigma =
  sqrt(sigma^2)`` read from the exact square), and the first truncation target a calibration
  hands to every evaluation (``10^-25 delta``).
* delta(eps) at 30 significant digits, relative tolerance 1e-27, in cases with little
  cancellation (e^eps P[S > b] at most 0.99 of P[S > a], so the difference loses at most 2.3 of
  the 40 digits) where the bound added for the truncated tables is a visible part of the result
  (1e-25 to 1e-20 of delta): the 40-digit computation determines these digits, and the result
  must be the computed difference *plus* that bound.
* The calibration's bracket search (the regula falsi of ``discrete._bracket``) run to its limit
  of 400 steps, and the refusal of a non-finite host number (binary64 infinity, Decimal
  Infinity) by a function that reports bad parameters as null
  (``shuffle_mp.binary64_slack``, [FMT22]-style clone bound of the shuffle accountant): a
  non-finite value must be refused like any bad parameter, not escape as an overflow.
"""

from __future__ import annotations

from typing import Any

import mpmath

from dpspec.conformance.families._groups import build_group, memoised, recorded_calls
from dpspec.conformance.families.accounting import AccountingFilesFamily, optional, published
from dpspec.conformance.families.accounting_numeric import host_value
from dpspec.conformance.vectors import Handler, TestNumberer
from dpspec.spec.accounting import discrete, numeric, shuffle_mp

SCHEMA = "accounting_discrete_limits-v1.json"
NAME = "accounting-discrete-limits"
P = "accounting_discrete_limits."

#: exact dyadic values, integers, null: the same JSON values
EXACT = (0.0, 0.0)
#: delta at 30 significant digits (rounded up) from a 40-digit computation without cancellation
D30 = (1e-27, 0.0)
#: the bracket search's end points (20 digits rounded up) and its probe count
MP = (1e-15, 0.0)

TOLERANCE: dict[str, tuple[float, float]] = {
    P + "zcdp_binary": EXACT,
    P + "laplace_binary": EXACT,
    P + "delta_start": EXACT,
    P + "delta_30": D30,
    P + "calibration_target": EXACT,
    P + "bracket_steps": MP,
    P + "slack_host": EXACT,
}


def _dyadic(x: Any) -> str:
    """An mpf as the exact rational it holds, ``p/q`` (``q`` a power of two) or ``p``."""
    if not isinstance(x, mpmath.mpf):
        raise TypeError(f"expected an mpmath value, got {type(x).__name__}")
    f = numeric.to_fraction(x)
    return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


def _vec(a: dict[str, Any]) -> dict[str, Any]:
    return {"sensitivity": a["vector"]} if "vector" in a else {}


# -- reference handlers -----------------------------------------------------------------------
def h_zcdp_binary(a: dict[str, Any]) -> dict[str, Any]:
    """discrete_gaussian_zcdp: rho rounded up to 20 digits and its exact 40-digit binary value."""
    rho = discrete.discrete_gaussian_zcdp(a["sigma"], **_vec(a))
    return {"rho": published(rho), "rhoBinary": _dyadic(rho)}


def h_laplace_binary(a: dict[str, Any]) -> dict[str, Any]:
    """discrete_laplace_epsilon / discrete_laplace_scale, exactly as the 40-digit value."""
    kw = optional(a, l1Sensitivity="l1_sensitivity")
    if a["direction"] == "epsilon":
        v = discrete.discrete_laplace_epsilon(a["scale"], **kw)
    elif a["direction"] == "scale":
        v = discrete.discrete_laplace_scale(a["eps"], **kw)
    else:
        raise ValueError("direction must be epsilon or scale")
    return {"value": published(v), "binary": _dyadic(v)}


def h_delta_start(a: dict[str, Any]) -> dict[str, Any]:
    """The working eps and sigma each refinement pass of discrete_gaussian_delta receives (the
    arguments of the spec's discrete._delta_once, recorded for the call), exactly, and the number
    of passes."""
    kw = {**_vec(a), **optional(a, "tail")}
    with recorded_calls(discrete, "_delta_once") as calls:
        discrete.discrete_gaussian_delta(a["eps"], a["sigma"], **kw)
    first = calls[0].args
    return {"eps": _dyadic(first[0]), "sigma": _dyadic(first[2]), "passes": len(calls)}


def h_delta_30(a: dict[str, Any]) -> dict[str, Any]:
    """delta(eps) rounded up to 30 significant digits (numeric.round_up), with the allowance of
    the last pass (discrete._delta_once's second result, recorded) to 20 digits."""
    kw = {**_vec(a), **optional(a, "tail")}
    with recorded_calls(discrete, "_delta_once") as calls:
        d = discrete.discrete_gaussian_delta(a["eps"], a["sigma"], **kw)
    return {"delta": numeric.compact(numeric.round_up(d, 30)),
            "allowance": published(calls[-1].result[1])}


def h_calibration_target(a: dict[str, Any]) -> dict[str, Any]:
    """calibrate_discrete_gaussian_sigma: the published sigma, and the first truncation target
    it hands to every delta evaluation (the ``tail`` keyword of each recorded call of the spec's
    discrete_gaussian_delta; all calls must agree), exactly."""
    kw = {**_vec(a), **optional(a, "digits")}
    with recorded_calls(discrete, "discrete_gaussian_delta") as calls:
        cal = discrete.calibrate_discrete_gaussian_sigma(a["eps"], a["delta"], **kw)
    tails = {_dyadic(c.kwargs["tail"]) for c in calls}
    if len(tails) != 1:
        raise ArithmeticError("the evaluations were handed different targets")
    return {"sigma": cal.sigma, "target": tails.pop(), "evaluations": len(calls)}


def h_bracket_steps(a: dict[str, Any]) -> dict[str, Any]:
    """discrete._bracket on the concave f(x) = 1 - x / root from [lo, hi] (f(lo) > 0 >= f(hi)):
    the number of evaluations of f and the final bracket."""
    with mpmath.workdps(discrete.DPS_DISCRETE + 10):
        r = numeric.positive(a["root"], "root")
        lo, hi = numeric.non_negative(a["lo"], "lo"), numeric.positive(a["hi"], "hi")
        if not lo < r < hi:
            raise ValueError("the root must lie strictly inside (lo, hi)")
        calls = [0]

        def f(x: mpmath.mpf) -> mpmath.mpf:
            calls[0] += 1
            return 1 - x / r

        lo_b, hi_b = discrete._bracket(f, lo, hi, numeric.non_negative(a["tol"], "tol"))
    return {"evaluations": calls[0], "lo": published(lo_b), "hi": published(hi_b)}


def h_slack_host(a: dict[str, Any]) -> dict[str, Any]:
    """shuffle_mp.binary64_slack with ``delta`` (or ``eps0``, named by ``which``) given as a host
    number: null when the bound is certified or a parameter is bad."""
    args = {"eps0": a.get("eps0", "1"), "n": a.get("n", 10), "delta": a.get("delta", "1e-6")}
    which = a["which"]
    if which not in ("eps0", "delta", "n"):
        raise ValueError("which must be eps0, delta or n")
    args[which] = host_value(a)
    s = shuffle_mp.binary64_slack(args["eps0"], args["n"], args["delta"], a["bound"])
    return {"slack": None if s is None else published(s)}


HANDLERS: dict[str, Handler] = {op: memoised(h) for op, h in {
    P + "zcdp_binary": h_zcdp_binary,
    P + "laplace_binary": h_laplace_binary,
    P + "delta_start": h_delta_start,
    P + "delta_30": h_delta_30,
    P + "calibration_target": h_calibration_target,
    P + "bracket_steps": h_bracket_steps,
    P + "slack_host": h_slack_host,
}.items()}

_ARG_NAMES: dict[str, tuple[str, ...]] = {
    P + "zcdp_binary": ("sigma", "vector"),
    P + "laplace_binary": ("direction", "scale", "eps", "l1Sensitivity"),
    P + "delta_start": ("eps", "sigma", "vector", "tail"),
    P + "delta_30": ("eps", "sigma", "vector", "tail"),
    P + "calibration_target": ("eps", "delta", "vector", "digits"),
    P + "bracket_steps": ("lo", "hi", "tol", "root"),
    P + "slack_host": ("which", "value", "as", "bound", "eps0", "n", "delta"),
}

HEADER = [
    "Limits of the exact discrete Gaussian accountant, module dpspec.spec.accounting.discrete"
    " ([CKS20]: N_Z(0, sigma^2), P[y] proportional to exp(-y^2/(2 sigma^2)) on the integers,"
    " added to each coordinate; neighbouring inputs differ by the integer vector `vector`, zero"
    " entries dropped, signs ignored, default (1) when absent), as the accounting-discrete family"
    " states it; these cases look at what its 20-digit publication cannot see.",
    "Working values: the module computes at 40 significant decimal digits (mpmath dps 40, 136"
    " bits). A value obtained from correctly rounded operations only (reading a decimal or"
    " rational input, a product, a quotient, a square root) is then one binary number, published"
    " exactly as the rational p/2^k it holds (`rhoBinary`, `binary`, delta_start's `eps` and"
    " `sigma`, calibration_target's `target`) and compared as text. zcdp_binary: rho = |v|^2 /"
    " (2 sigma sigma), sigma read at 40 digits. laplace_binary: eps = S1 / t or t = S1 / eps"
    " (S1 = l1Sensitivity, default 1). delta_start: the eps (read at 40 digits) and the sigma ="
    " sqrt(sigma^2) (sigma^2 the exact square of the input, or R for sqrt(R); quotient then square"
    " root at 40 digits) that every refinement pass of delta(eps) works with, and the number of"
    " passes. calibration_target: the target min(1e-45, tail) of every delta evaluation of the"
    " calibration gets tail = delta * 10^-25 (delta read at 40 digits, 10^-25 its correctly"
    " rounded reciprocal of 10^25, the product rounded), with the published sigma (default 12"
    " digits) and the number of evaluations.",
    "delta_30: delta(eps) = P[S > a] - e^eps P[S > b] plus the allowance for the truncated tables"
    " and the rounding (the accounting-discrete family's `delta`), rounded up to 30 significant"
    " digits, compared to 1e-27 relative: in these cases e^eps P[S > b] is at most 0.99 P[S > a]"
    " (the difference loses at most 2.3 of the 40 digits), so the computation determines 30"
    " digits, and the allowance (published to 20 digits as `allowance`) is between 1e-25 and"
    " 1e-20 of delta, so adding it shows.",
    "bracket_steps: the calibration's bracket search (regula falsi, Illinois, probes tol hi / 4"
    " either side of each estimate, a bisection step when two steps fail to halve the bracket;"
    " stated in full by the accounting-discrete family's `bracket`) on f(x) = 1 - x / root from"
    " [lo, hi] to relative width tol, at most 400 steps: `evaluations` counts f's evaluations"
    " (lo and hi included); the final bracket to 20 digits.",
    "slack_host: shuffle_mp.binary64_slack(eps0, n, delta, bound), null when the bound is"
    " certified (bound closed, fmt20, fmt22) or when a parameter is bad; the parameter `which` is"
    " given as the host number `value` converted as `as` names (float: binary64, decimal:"
    " Decimal; absent: the JSON value), the others are eps0 1, n 10, delta 1e-6 unless given.",
]

NOTES = {
    "Boundary": "parameters on or next to a decision point (a loop limit reached, a value that"
                " is refused)",
    "Default": "an optional argument left out: the spec's default applies",
    "Exactness": "the value is determined exactly (correct rounding at the working precision) or"
                 " to 30 digits, and compared so",
    "BadParameter": "an argument outside its domain; the implementation must reject it",
}


def _group(op: str, tests: list[tuple[str, dict[str, Any], list[str]]], tc: TestNumberer,
           invalid: list[tuple[str, dict[str, Any]]] | None = None) -> dict[str, Any]:
    return build_group(tc, HANDLERS, op, tests, [(c, i, "BadParameter") for c, i in invalid or []],
                       {}, rejects=(ValueError, TypeError, ArithmeticError))


def _working_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    g = [_group(P + "zcdp_binary", [
        ("sigma 3, vector absent (default (1)): rho = 1/18 at 40 digits", {"sigma": "3"},
         ["Default", "Exactness"]),
        ("sigma 0.7, v (1, -1)", {"sigma": "0.7", "vector": [1, -1]}, ["Exactness"]),
        ("sigma sqrt(2), v (1, 2, 2): the square root is read at 40 digits",
         {"sigma": "sqrt(2)", "vector": [1, 2, 2]}, ["Exactness"]),
        ("sigma 1/3, v (5)", {"sigma": "1/3", "vector": [5]}, ["Exactness"]),
    ], tc, [
        ("sigma 0", {"sigma": "0"}),
        ("zero vector", {"sigma": "1", "vector": [0]}),
    ])]
    g.append(_group(P + "laplace_binary", [
        ("epsilon: scale 3, L1 absent (default 1)", {"direction": "epsilon", "scale": "3"},
         ["Default", "Exactness"]),
        ("epsilon: scale 0.7, L1 2", {"direction": "epsilon", "scale": "0.7",
                                      "l1Sensitivity": 2}, ["Exactness"]),
        ("scale: eps 0.3, L1 absent (default 1)", {"direction": "scale", "eps": "0.3"},
         ["Default", "Exactness"]),
        ("scale: eps 7, L1 5", {"direction": "scale", "eps": "7", "l1Sensitivity": 5},
         ["Exactness"]),
    ], tc, [
        ("epsilon: scale 0", {"direction": "epsilon", "scale": "0"}),
        ("scale: eps -1", {"direction": "scale", "eps": "-1"}),
        ("unknown direction", {"direction": "both", "eps": "1"}),
    ]))
    g.append(_group(P + "delta_start", [
        ("eps 0.1, sigma 1.3, vector absent", {"eps": "0.1", "sigma": "1.3"},
         ["Default", "Exactness"]),
        ("eps 1/3, sigma sqrt(3), v (1, 1)", {"eps": "1/3", "sigma": "sqrt(3)",
                                              "vector": [1, 1]}, ["Exactness"]),
        ("eps 20, sigma 0.9: several passes, all from the same start",
         {"eps": "20", "sigma": "0.9", "vector": [1]}, ["Exactness"]),
    ], tc, [
        ("eps -1", {"eps": "-1", "sigma": "1"}),
        ("sigma sqrt(-2)", {"eps": "1", "sigma": "sqrt(-2)"}),
    ]))
    g.append(_group(P + "calibration_target", [
        ("eps 4, delta 0.01, v (1), digits 10: target 1e-27 at 40 digits",
         {"eps": "4", "delta": "0.01", "vector": [1], "digits": 10}, ["Exactness"]),
        ("eps 3, delta 1/3000, vector and digits absent", {"eps": "3", "delta": "1/3000"},
         ["Default", "Exactness"]),
    ], tc, [
        ("delta 0", {"eps": "1", "delta": "0"}),
    ]))
    return g


def _delta_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    return [_group(P + "delta_30", [
        ("eps 5, sigma 2, v (1): delta near 4.6e-24, the allowance about 1e-22 of it",
         {"eps": "5", "sigma": "2", "vector": [1]}, ["Exactness"]),
        ("eps 0.9, sigma 10, vector absent: the allowance about 3e-25 of delta",
         {"eps": "0.9", "sigma": "10"}, ["Default", "Exactness"]),
        ("eps 1, sigma 10: the allowance about 4.5e-21 of delta, next to the 1e-20 stop",
         {"eps": "1", "sigma": "10", "vector": [1]}, ["Boundary", "Exactness"]),
    ], tc, [
        ("eps -0.5", {"eps": "-0.5", "sigma": "2"}),
    ])]


def _searches_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    g = [_group(P + "bracket_steps", [
        ("root 1e-1000 in [0, 1], tol 1e-200: the search is still moving at step 400",
         {"lo": "0", "hi": "1", "tol": "1e-200", "root": "1e-1000"}, ["Boundary"]),
        ("root 1e-1000 in [0, 3], tol 1e-3000", {"lo": "0", "hi": "3", "tol": "1e-3000",
                                                 "root": "1e-1000"}, ["Boundary"]),
        ("root 2 in [1, 3], tol 1e-10: a linear f ends in a few steps",
         {"lo": "1", "hi": "3", "tol": "1e-10", "root": "2"}, []),
    ], tc, [
        ("root outside the bracket", {"lo": "1", "hi": "3", "tol": "1e-10", "root": "4"}),
    ])]
    g.append(_group(P + "slack_host", [
        ("delta binary64 infinity: a bad parameter, null",
         {"which": "delta", "value": "inf", "as": "float", "bound": "closed"}, ["Boundary"]),
        ("delta Decimal Infinity: null", {"which": "delta", "value": "Infinity",
                                          "as": "decimal", "bound": "closed"}, ["Boundary"]),
        ("eps0 binary64 -infinity: null", {"which": "eps0", "value": "-inf", "as": "float",
                                           "bound": "exact-rr"}, ["Boundary"]),
        ("eps0 Decimal -Infinity: null", {"which": "eps0", "value": "-Infinity",
                                          "as": "decimal", "bound": "exact-rr"}, ["Boundary"]),
        ("delta binary64 NaN: null", {"which": "delta", "value": "nan", "as": "float",
                                      "bound": "closed"}, ["Boundary"]),
        ("n given as the string 2.5: null", {"which": "n", "value": "2.5", "bound": "closed"},
         ["Boundary"]),
        ("delta binary64 1e-6, bound closed: certified, null",
         {"which": "delta", "value": "1e-6", "as": "float", "bound": "closed"}, []),
    ], tc, [
        ("unknown parameter", {"which": "m", "value": "1", "bound": "closed"}),
    ]))
    return g


_FILES = {
    "working": ("exact 40-digit working values: zCDP, discrete Laplace, the start of a delta"
                " evaluation, the calibration's target", _working_doc),
    "delta30": ("delta of the discrete Gaussian to 30 digits, the allowance visible", _delta_doc),
    "searches": ("the bracket search at its step limit; non-finite host numbers", _searches_doc),
}


class AccountingDiscreteLimitsFamily(AccountingFilesFamily):
    """Its own ops, files and schema; exact ops compared as JSON values, the others at this
    module's :data:`TOLERANCE`."""

    name = NAME
    summary = "limits of the exact discrete Gaussian accountant (working values, 30 digits)"
    tolerance = TOLERANCE
    schema = SCHEMA
    header = HEADER
    notes = NOTES
    handler_table = HANDLERS
    arg_names = _ARG_NAMES
    file_table = _FILES
    exact_ops_as_json = True


FAMILY = AccountingDiscreteLimitsFamily()
