"""Vector family ``accounting-shuffle-limits``: the limits of the shuffle accountant
(dpspec.spec.accounting.shuffle) and of the Gaussian calibration where a slightly wrong
implementation moves a published number by far more than its tolerance.

``accounting-curves``, ``accounting-shuffle-clone`` and ``accounting-shuffle-rr`` publish typical
values; the cases here are chosen so that a small mistake is magnified:

* an epsilon search whose bracket ``[0, eps0]`` is already exactly as narrow as the stopping
  width ``1e-10 * max(hi, 1e-3)`` (eps0 = 1e-13): no probe may be evaluated;
* the bracket end of every epsilon search that has one of its own (the worst case over
  compositions under deletion, the two symmetric-RAPPOR histogram searches), published as the
  second point at which delta is evaluated;
* the proven histogram search with a target between one and two times the unenumerated clone
  mass (answer infinity: that mass is charged twice) and between two and three times it;
* delta(eps) of the clone pair at n = 10^9, where the clone weights must come from the binomial
  PMF itself (its logarithm loses six digits there), and where the fair-coin recurrence must
  start from the log-PMF of its own first atom because the PMF underflows;
* the exact histogram delta where one coordinate's output n has mass under one dataset and none
  (binary64 underflow) under the other: that atom has infinite privacy loss and must be kept;
* the minimisation over the Renyi order: the golden-section bracket (the grid neighbours of the
  best grid order) and the number of objective evaluations (grid, two, 40 refinement steps);
* the Gaussian calibration when the target delta is exactly delta at sigma = sensitivity, the
  first bracket end: the published sigma then meets the target with equality, which is allowed.

Outputs are compared like the ``accounting`` family's (``|got - want| <= max(rel |want|, abs)`` on
numeric strings, anything else exactly), with the tolerance of each op in :data:`TOLERANCE`.
"""

from __future__ import annotations

import math
from typing import Any

from dpspec.conformance.families._groups import build_group, counted_calls, memoised, recorded_calls
from dpspec.conformance.families.accounting import AccountingFilesFamily, optional
from dpspec.conformance.vectors import Handler, TestNumberer, binary64_text
from dpspec.spec.accounting import gaussian, shuffle
from dpspec.spec.accounting.numeric import mpf

SCHEMA = "accounting_shuffle_limits-v1.json"
NAME = "accounting-shuffle-limits"
P = "accounting_shuffle_limits."

#: binary64 results of numpy/scipy (8 significant digits, binary64_text): relative 1e-7 with an
#: absolute floor of 1e-15, as accounting-curves compares them
B64 = (1e-7, 1e-15)
#: binary64 deltas far below 1e-15 (clone tail masses near 1e-38, an atom of mass near 1e-261),
#: compared relatively only: each is a sum of positive terms accurate to far better than 1e-7
B64_REL = (1e-7, 0.0)
#: the minimum over the Renyi order: the golden-section refinement locates alpha only to about
#: 1e-8 (the objective is flat at its minimum); the bracket ends are grid orders, the count an int
ORDER = (1e-6, 1e-15)
#: the calibrated sigma: a decimal rounded up to 12 digits from a 40-digit bisection; one unit in
#: the 12th digit (1e-11 relative) is what a change of the last of the 40 digits can move it by
SIGMA = (1e-10, 0.0)

TOLERANCE: dict[str, tuple[float, float]] = {
    P + "search": B64,
    P + "clone_delta": B64_REL,
    P + "histogram_delta": B64_REL,
    P + "min_over_alpha": ORDER,
    P + "calibrate": SIGMA,
}

#: how far (in log delta) an evaluation of rr_sum_epsilon must stay from the target for the
#: number of evaluations to be published (the summed-RR curve at n <= 10 moves by about 1e-16)
SIDE_MARGIN = 5e-14


def _f(x: float) -> str:
    return binary64_text(float(x))


# -- reference handlers -----------------------------------------------------------------------
_SEARCHED = {
    # function: (spec function it calls for delta, index of eps among that function's arguments)
    "rr_sum_epsilon": ("_pairs_delta", 1),
    "rr_sum_worst_epsilon": ("_pairs_delta", 1),
    "rappor_histogram_epsilon": ("_product_delta", 4),
}


def _points(calls: list[Any], index: int) -> list[tuple[float, float]]:
    """The evaluated points in order, with the largest delta seen at each (the worst case over
    compositions evaluates one delta per composition at the same point)."""
    out: list[tuple[float, float]] = []
    for c in calls:
        x = float(c.args[index])
        if out and out[-1][0] == x:
            out[-1] = (x, max(out[-1][1], float(c.result)))
        else:
            out.append((x, float(c.result)))
    return out


def h_search(a: dict[str, Any]) -> dict[str, Any]:
    """An epsilon search: the answer, the bracket end it searched up to (the second evaluated
    point; the first is 0) and, for rr_sum_epsilon, the number of delta evaluations."""
    fn = a["function"]
    if fn == "rappor_histogram_clone_epsilon":
        with recorded_calls(shuffle._LossTable, "product_delta") as calls:
            r = shuffle.rappor_histogram_clone_epsilon(a["eps0"], a["n"], a["delta"])
        points = [(float(c.args[3]), math.nan) for c in calls]
    elif fn in _SEARCHED:
        name, index = _SEARCHED[fn]
        kw = optional(a, "neighbours", "ones") if fn == "rr_sum_epsilon" else optional(
            a, "neighbours")
        spec_fn = getattr(shuffle, fn)
        with recorded_calls(shuffle, name) as calls:
            r = spec_fn(a["eps0"], a["n"], a["delta"], **kw)
        points = _points(calls, index)
    else:
        raise ValueError(f"unknown function {fn!r}")
    out: dict[str, Any] = {"eps": _f(r.eps), "bracketEnd": _f(points[1][0])
                           if len(points) > 1 else None}
    if fn == "rr_sum_epsilon":
        log_t = math.log(r.delta)
        for x, v in points:
            if abs((math.log(v) if v > 0 else -1000.0) - log_t) < SIDE_MARGIN:
                raise RuntimeError(f"point {x!r}: delta {v!r} too close to the target")
        out["evaluations"] = len(calls)
    return out


def h_clone_delta(a: dict[str, Any]) -> dict[str, Any]:
    """clone_delta of the fmt22 pair (variant default)."""
    return {"delta": _f(shuffle.clone_delta(float(mpf(a["eps"], "eps")),
                                            float(mpf(a["eps0"], "eps0")), int(a["n"])))}


def h_histogram_delta(a: dict[str, Any]) -> dict[str, Any]:
    return {"delta": _f(shuffle.rappor_histogram_delta(a["eps"], a["eps0"], a["n"]))}


def h_min_over_alpha(a: dict[str, Any]) -> dict[str, Any]:
    """rappor_histogram_rdp_epsilon (composition ones = 0): the answer, its order, the
    golden-section bracket and the number of objective evaluations (each evaluates the Renyi
    divergence in both directions)."""
    with recorded_calls(shuffle, "golden_section") as golden, \
            counted_calls(shuffle, "_renyi_log") as renyi:
        r = shuffle.rappor_histogram_rdp_epsilon(a["eps0"], a["n"], a["delta"])
    lo, hi = golden[0].args[1], golden[0].args[2]
    return {"eps": _f(r.eps), "alpha": _f(r.extra["alpha"]), "bracket": [_f(lo), _f(hi)],
            "evaluations": renyi[0] // 2}


def h_calibrate(a: dict[str, Any]) -> dict[str, Any]:
    c = gaussian.calibrate_gaussian_sigma(a["eps"], a["delta"],
                                          **optional(a, "sensitivity", "digits"))
    return {"sigma": c.sigma}


HANDLERS: dict[str, Handler] = {
    P + "search": h_search,
    P + "clone_delta": h_clone_delta,
    P + "histogram_delta": h_histogram_delta,
    P + "min_over_alpha": h_min_over_alpha,
    P + "calibrate": h_calibrate,
}

HANDLERS = {op: memoised(h) for op, h in HANDLERS.items()}

_ARG_NAMES: dict[str, tuple[str, ...]] = {
    P + "search": ("function", "eps0", "n", "delta", "neighbours", "ones"),
    P + "clone_delta": ("eps", "eps0", "n"),
    P + "histogram_delta": ("eps", "eps0", "n"),
    P + "min_over_alpha": ("eps0", "n", "delta"),
    P + "calibrate": ("eps", "delta", "sensitivity", "digits"),
}

HEADER = [
    "Limits of the binary64 shuffle accountant (module dpspec.spec.accounting.shuffle; MJTB+22"
    " sec. 3.1.2, App. C.1.3 and Theorem C.3; the clone pair of [FMT22]; SA2 Theorem 1) and of"
    " the analytic Gaussian calibration ([BW18] Theorem 8 and Algorithm 1, module"
    " dpspec.spec.accounting.gaussian): cases where a small deviation from the specified"
    " algorithm moves a published value by far more than its tolerance.",
    "Encodings: numbers are decimal strings, sizes and counts JSON integers. Binary64 results"
    " are published with 8 significant digits (binary64_text). Tolerance (rel, abs) per op,"
    " |got - want| <= max(rel |want|, abs) on numeric strings, anything else exact: "
    + "; ".join(f"{op.split('.', 1)[1]} ({r:g}, {ab:g})" for op, (r, ab) in sorted(TOLERANCE.items()))
    + ".",
    "search: the epsilon searches of accounting-shuffle-clone (smallest eps in [0, hi] with"
    " delta(eps) <= delta; 0 if delta(0) <= delta, inf if delta(hi) > delta; stop when hi - lo"
    " <= 1e-10 max(hi, 1e-3), checked before any probe) for rr_sum_epsilon (hi = eps0 under"
    " replacement), rr_sum_worst_epsilon (delta = the maximum over every number of other users"
    " holding a 1; hi = min(4 eps0 + 50, 700) under deletion), rappor_histogram_epsilon (hi = 2"
    " eps0) and rappor_histogram_clone_epsilon (delta = the product curve of two fmt22 clone"
    " pairs plus twice the unenumerated mass; hi = 2 eps0). Published: eps, bracketEnd = hi"
    " (the second point at which delta is evaluated, after 0), and for rr_sum_epsilon the number"
    " of delta evaluations (delta(0) counts twice).",
    "clone_delta: delta(eps) of the fmt22 clone pair as in accounting-shuffle-clone; the weights"
    " of C ~ Bin(n - 1, p_c) are the binomial PMF (windows of more than 20000 atoms) or exp of"
    " the log-PMF (smaller windows); the fair-coin recurrence starts from the PMF of its first"
    " atom, or from that atom's log-PMF when the PMF is at most 1e-300.",
    "histogram_delta: rappor_histogram_delta (exact delta(eps) of the symmetric-RAPPOR histogram"
    " for one-hot replacement, composition ones = 0): D_{e^eps}(P x Q || Q x P) over the atoms"
    " where P or Q has mass; an atom with mass under P only has infinite privacy loss.",
    "min_over_alpha: rappor_histogram_rdp_epsilon (composition ones = 0): 2 rho_2RR converted"
    " by SA2 Theorem 1, minimised over the default orders (1.25 ... 1024), then golden-section"
    " refinement (phi = (sqrt 5 - 1)/2, 40 steps) inside bracket = [the order before, the order"
    " after] the best grid order (clamped to the grid); evaluations = objective evaluations"
    " (grid orders + 2 + 40).",
    "calibrate: calibrate_gaussian_sigma (smallest sigma with delta(eps, sigma) <= delta, the"
    " bisection's upper end rounded up to `digits` significant digits, default 12; the"
    " bracket starts at [1e-6 S, S] and its upper end doubles while delta there exceeds the"
    " target). A published sigma whose delta equals the target is valid.",
]

NOTES = {
    "Boundary": "parameters on a decision point (a stopping width met exactly, a bracket end,"
                " a switch of method, an equality allowed by the spec)",
    "Default": "an optional argument left out: the spec's default applies",
    "BadParameter": "an argument outside its domain; the implementation must reject it",
}


def _group(op: str, params: dict[str, Any], tests: list[tuple[str, dict[str, Any], list[str]]],
           tc: TestNumberer, invalid: list[tuple[str, dict[str, Any]]] | None = None
           ) -> dict[str, Any]:
    return build_group(tc, HANDLERS, op, tests, [(c, i, "BadParameter") for c, i in invalid or []],
                       params, rejects=(ValueError, TypeError, ArithmeticError))


def _search_doc() -> list[dict[str, Any]]:
    """Epsilon searches at their stopping width and bracket ends (MJTB+22 App. C.1.3, [FMT22])."""
    tc = TestNumberer()
    op = P + "search"
    return [
        _group(op, {"function": "rr_sum_epsilon"}, [
            ("eps0 1e-13 = 1e-10 x 1e-3: the bracket [0, eps0] is already the stopping width,"
             " so eps = eps0 after delta(0), delta(0) again and delta(eps0), no probe",
             {"eps0": "1e-13", "n": 2, "delta": "1e-14"}, ["Boundary", "Default"]),
        ], tc, [("n 1", {"eps0": "1e-13", "n": 1, "delta": "1e-14"})]),
        _group(op, {"function": "rr_sum_worst_epsilon", "neighbours": "deletion"}, [
            ("deletion, eps0 0.5, n 5, delta 1e-3 (below the floor of ones = 4): hi = 4 x 0.5 + 50"
             " = 52, inf", {"eps0": "0.5", "n": 5, "delta": "1e-3"}, []),
            ("deletion, eps0 2, n 6, delta 0.5 (between the floor 0.467 of ones = 5 and delta(0)):"
             " hi = 58", {"eps0": "2", "n": 6, "delta": "0.5"}, []),
        ], tc, [("n 3001", {"eps0": "1", "n": 3001, "delta": "1e-3"})]),
        _group(op, {"function": "rappor_histogram_epsilon"}, [
            ("eps0 1, n 50, delta 1e-6: hi = 2 eps0", {"eps0": "1", "n": 50, "delta": "1e-6"}, []),
        ], tc, [("delta 0", {"eps0": "1", "n": 50, "delta": "0"})]),
        _group(op, {"function": "rappor_histogram_clone_epsilon"}, [
            ("eps0 1, n 1000, delta 1e-6: hi = 2 eps0", {"eps0": "1", "n": 1000, "delta": "1e-6"},
             []),
            ("eps0 1, n 1000, delta 1.6e-37, between once and twice the unenumerated mass"
             " 1.06e-37: the mass is charged twice, so even 2 eps0 misses delta: inf",
             {"eps0": "1", "n": 1000, "delta": "1.6e-37"}, ["Boundary"]),
            ("eps0 1, n 1000, delta 2.6e-37, between twice and three times that mass: finite",
             {"eps0": "1", "n": 1000, "delta": "2.6e-37"}, ["Boundary"]),
        ], tc, [("n 1", {"eps0": "1", "n": 1, "delta": "1e-6"})]),
    ]


def _delta_doc() -> list[dict[str, Any]]:
    """delta(eps) where the weights' arithmetic decides (the clone pair of [FMT22]) and where an
    atom has infinite privacy loss (the symmetric-RAPPOR histogram, MJTB+22 App. C.1.3)."""
    tc = TestNumberer()
    return [
        _group(P + "clone_delta", {}, [
            ("eps0 8, n 10^9, eps 0.092: 21308 atoms by the recurrence; the first atom's fair-coin"
             " PMF is 4e-307, below 1e-300, so the start is its log-PMF; every term vanishes and"
             " delta is the unenumerated mass", {"eps": "0.092", "eps0": "8", "n": 10**9},
             ["Boundary"]),
        ], tc, [("eps0 -1", {"eps": "0.5", "eps0": "-1", "n": 100})]),
        _group(P + "histogram_delta", {}, [
            ("eps0 300, n 3, eps 650 > 2 eps0: output 3 has mass p^2 (about 2.7e-261) when the"
             " target holds a 1 and p^3 (below the binary64 range) when it holds a 0; that atom"
             " alone gives delta", {"eps": "650", "eps0": "300", "n": 3}, ["Boundary"]),
            ("eps0 300, n 3, eps 100", {"eps": "100", "eps0": "300", "n": 3}, []),
        ], tc, [("eps 700.5", {"eps": "700.5", "eps0": "300", "n": 3}),
                ("eps0 700.5", {"eps": "1", "eps0": "700.5", "n": 3})]),
    ]


def _alpha_doc() -> list[dict[str, Any]]:
    """The minimisation over the Renyi order (MJTB+22 Theorem C.3 with SA2 Theorem 1)."""
    tc = TestNumberer()
    return [
        _group(P + "min_over_alpha", {}, [
            ("eps0 2, n 500, delta 1e-6: best grid order 25, bracket [24, 26]",
             {"eps0": "2", "n": 500, "delta": "1e-6"}, []),
            ("eps0 1, n 1000, delta 1e-6: best grid order 96, bracket [80, 128]",
             {"eps0": "1", "n": 1000, "delta": "1e-6"}, []),
        ], tc, [("delta 0", {"eps0": "1", "n": 100, "delta": "0"})]),
    ]


def _calibrate_doc() -> list[dict[str, Any]]:
    """[BW18] Algorithm 1 at an equality the spec allows."""
    tc = TestNumberer()
    op = P + "calibrate"
    # delta(1, sigma 1) of [BW18] Theorem 8 to 50 digits: Phi(-1/2) - e Phi(-3/2)
    tie = "0.12693673750664394580082962475776688041508108918347"
    return [
        _group(op, {}, [
            ("eps 1, delta = delta(1, sigma 1) to 50 digits: sigma 1, the first bracket end,"
             " meets the target with equality", {"eps": "1", "delta": tie},
             ["Boundary", "Default"]),
            ("eps 1, delta 0.1", {"eps": "1", "delta": "0.1"}, ["Default"]),
        ], tc, [("digits 9", {"eps": "1", "delta": "0.1", "digits": 9}),
                ("eps 0", {"eps": "0", "delta": "0.1"})]),
    ]


_FILES = {
    "search": ("epsilon searches at their stopping width and bracket ends", _search_doc),
    "delta": ("delta where the weights' arithmetic or an infinite loss decides", _delta_doc),
    "alpha": ("the minimisation over the Renyi order", _alpha_doc),
    "calibrate": ("the Gaussian calibration at an allowed equality", _calibrate_doc),
}


class AccountingShuffleLimitsFamily(AccountingFilesFamily):
    """Its own ops, files and schema; cases and compare as the accounting family's (per-op
    tolerances, here this module's :data:`TOLERANCE`)."""

    name = NAME
    summary = "limits of the shuffle accountant and the Gaussian calibration (magnified cases)"
    tolerance = TOLERANCE
    schema = SCHEMA
    header = HEADER
    notes = NOTES
    handler_table = HANDLERS
    arg_names = _ARG_NAMES
    file_table = _FILES


FAMILY = AccountingShuffleLimitsFamily()
