"""Vector family ``accounting-edges``: edges of the exact discrete Gaussian accountant
(dpspec.spec.accounting.discrete; [CKS20] Theorem 7 in its multivariate form, the distributed noise
of sec. 4.2 and 6.1.2 of the DP draft, seed 003) that the ``accounting-discrete`` family leaves
open.

* ``refinement``: how many truncation passes one evaluation of delta(eps) takes and the target and
  table half-width of each: the last pass allowed (the 64th) and one more needed (refused), the
  convergence test on either side of its factor 10^-20, and the refined target 10^-25 delta that
  replaces the squared one when the computed delta is far below the truncated mass (several
  coordinates).
* ``table_size``: the table half-width K for a truncation target within 10^-30 relative of the
  neglected-mass bound of K, on both sides (the bound needs more than 20 digits to decide).
* ``calibration``: the calibration with the truncation target it hands to every evaluation and the
  sigma of every evaluation in order: difference vectors whose entries are not all 1 (the
  continuous starting point uses the L2 norm), a target delta below 10^-20 (the handed target is
  then below 10^-45) and an eps so large that delta jumps from near 1 to below 10^-100000 at one
  sigma (the search clamps log delta there).
* ``bracket``: the calibration's regula falsi bracket search on a piecewise-linear function, which
  makes each of its decisions exact: a probe where the function is exactly 0 (it belongs to the
  upper end), an estimate clamped to one end so that a probe falls on the end itself (not
  evaluated), and a step whose bracket is exactly half the width of two steps before (no bisection
  step then).

Outputs are compared like the ``accounting`` family's (``|got - want| <= max(rel |want|, abs)`` for
numeric strings, anything else exactly), with the tolerance of each op in :data:`TOLERANCE`.
"""

from __future__ import annotations

from typing import Any

import mpmath

from dpspec.conformance.families._groups import build_group, memoised, recorded_calls
from dpspec.conformance.families.accounting import AccountingFilesFamily, optional, published
from dpspec.conformance.vectors import Handler, TestNumberer
from dpspec.spec.accounting import discrete
from dpspec.spec.accounting.numeric import compact, mpf

SCHEMA = "accounting_edges-v1.json"
NAME = "accounting-edges"
P = "accounting_edges."

#: mpmath values at 40 digits rounded up to 20 significant digits, compared relatively with no
#: absolute floor (deltas far below 1e-300 are compared too); integers and counts exactly
MP = (1e-15, 0.0)
#: integers only (table sizes): exact
EXACT = (0.0, 0.0)

TOLERANCE: dict[str, tuple[float, float]] = {
    P + "refinement": MP,
    P + "table_size": EXACT,
    P + "calibration": MP,
    P + "bracket": MP,
}


def _target(x: mpmath.mpf) -> str:
    """A truncation target to 15 significant digits, rounded to nearest (a target is a square of
    a square ..., or 10^-25 of a computed delta: its last digits are rounding, not content)."""
    return compact(mpmath.nstr(x, 15, min_fixed=1, max_fixed=0))


# -- reference handlers -----------------------------------------------------------------------
def h_refinement(a: dict[str, Any]) -> dict[str, Any]:
    """ln delta(eps) (the deltas of the pass-limit cases are near 10^(-10^20)) and, per pass in
    order, ln of the truncation target the spec's pass function was given and the table
    half-width K it built (the spec's own discrete._table calls, recorded)."""
    kw = optional(a, "tail", vector="sensitivity")
    with recorded_calls(discrete, "_table") as tables:
        d = discrete.discrete_gaussian_delta(a["eps"], a["sigma"], **kw)
    if not isinstance(d, mpmath.mpf):  # neither a delta nor a refusal: not an answer
        raise AssertionError(f"discrete_gaussian_delta returned {d!r}")
    with mpmath.workdps(discrete.DPS_DISCRETE + 10):
        ln_delta = mpmath.log(d)
        passes = [{"lnTarget": published(mpmath.log(c.args[1])), "K": c.result[0]} for c in tables]
    return {"lnDelta": published(ln_delta), "passes": passes}


def h_table_size(a: dict[str, Any]) -> dict[str, Any]:
    """work_estimate of one coordinate-list at the given target: with T = 2K + 1 table entries."""
    return {"work": discrete.work_estimate(a["sigma"], a["vector"], a["tail"])}


def h_calibration(a: dict[str, Any]) -> dict[str, Any]:
    """The calibrated sigma, the bracket's upper end, delta at the published sigma; the truncation
    target handed to the evaluations and the sigma of each evaluation of delta, in order (the
    spec's own discrete_gaussian_delta calls, recorded)."""
    kw = optional(a, "digits", vector="sensitivity")
    with recorded_calls(discrete, "discrete_gaussian_delta") as calls:
        cal = discrete.calibrate_discrete_gaussian_sigma(a["eps"], a["delta"], **kw)
    tails = {_target(c.kwargs["tail"]) for c in calls}
    if len(tails) != 1:
        raise AssertionError("the calibration handed different targets to its evaluations")
    return {"sigma": cal.sigma, "bracketHi": published(cal.exact),
            "deltaAtSigma": published(cal.delta_at_sigma), "tail": tails.pop(),
            "probes": [published(mpf(c.args[1])) for c in calls]}


def _piecewise_linear(knots: list[list[str]]) -> Any:
    xs = [mpf(x) for x, _ in knots]
    ys = [mpf(y) for _, y in knots]
    if len(xs) < 2 or any(not xs[i] < xs[i + 1] for i in range(len(xs) - 1)):
        raise ValueError("knots must be at least two points with increasing x")

    def f(x: mpmath.mpf) -> mpmath.mpf:
        if not xs[0] <= x <= xs[-1]:
            raise ValueError("the search evaluated f outside the knots")
        i = max(j for j in range(len(xs) - 1) if xs[j] <= x)
        return ys[i] + (ys[i + 1] - ys[i]) * (x - xs[i]) / (xs[i + 1] - xs[i])
    return f


def h_bracket(a: dict[str, Any]) -> dict[str, Any]:
    """discrete._bracket on the piecewise-linear f through ``knots``: every probe in order (the
    ends first) and the final bracket."""
    probes: list[str] = []
    with mpmath.workdps(discrete.DPS_DISCRETE + 10):
        g = _piecewise_linear(a["knots"])
        lo, hi = mpf(a["lo"]), mpf(a["hi"])
        if not (lo < hi and g(lo) > 0 >= g(hi)):
            raise ValueError("the bracket needs lo < hi with f(lo) > 0 >= f(hi)")

        def f(x: mpmath.mpf) -> mpmath.mpf:
            probes.append(published(x))
            return g(x)

        lo, hi = discrete._bracket(f, lo, hi, mpf(a["tol"]))
    return {"probes": probes, "lo": published(lo), "hi": published(hi)}


HANDLERS: dict[str, Handler] = {
    P + "refinement": h_refinement,
    P + "table_size": h_table_size,
    P + "calibration": h_calibration,
    P + "bracket": h_bracket,
}

HANDLERS = {op: memoised(h) for op, h in HANDLERS.items()}

_ARG_NAMES: dict[str, tuple[str, ...]] = {
    P + "refinement": ("eps", "sigma", "vector", "tail"),
    P + "table_size": ("sigma", "vector", "tail"),
    P + "calibration": ("eps", "delta", "vector", "digits"),
    P + "bracket": ("lo", "hi", "tol", "knots"),
}

HEADER = [
    "Discrete Gaussian N_Z(0, sigma^2) (P[y] proportional to exp(-y^2/(2 sigma^2)) on the"
    " integers, [CKS20] Definition 1) added to each coordinate; neighbouring inputs differ by the"
    " integer vector `vector` (zero entries dropped, signs ignored, sorted; default (1) when"
    " absent). Module dpspec.spec.accounting.discrete; the accounting-discrete family states the"
    " computation in full, these cases sit at the edges of its loops and searches.",
    "Encodings: numbers are decimal strings; sizes and counts JSON integers. mpmath values (40"
    " significant digits) are published rounded up to 20 significant digits; truncation targets"
    " to 15 significant digits rounded to nearest. Tolerance (rel, abs) per op, |got - want| <="
    " max(rel |want|, abs) on numeric strings, anything else exact: "
    + "; ".join(f"{op.split('.', 1)[1]} ({r:g}, {ab:g})" for op, (r, ab) in sorted(TOLERANCE.items()))
    + ".",
    "refinement: delta(eps) = P[S > a] - e^eps P[S > b], S = sum v_i Y_i, a = sigma^2 eps -"
    " |v|^2/2, b = sigma^2 eps + |v|^2/2, from tables of w(y) = exp(-y^2/(2 sigma^2)) on |y| <= K,"
    " K the smallest integer >= 0 with 2 B(K) <= target, B(K) = exp(-(K+1)^2/(2 sigma^2)) / (1 -"
    " exp(-(2K+3)/(2 sigma^2))). A pass computes c (the truncated delta, clamped at 0) and an"
    " allowance A (d tau (1 + e^eps P'[S > b]) + (P'[S > a] + e^eps P'[S > b]) 10^-35, tau ="
    " 2 B(K), d the number of non-zero entries); it returns c + A when A <= 10^-20 c, else the"
    " next target is min(target^2, 10^-25 c) (target^2 when c = 0). The first target is min(1e-45,"
    " tail) (1e-45 when `tail` is absent); at most 64 passes, after which the evaluation is"
    " refused (NoConvergence). Published: lnDelta = ln delta (the natural logarithm of the result; the"
    " pass-limit cases have deltas near 10^(-10^20)); `passes` = per pass in order lnTarget (ln of its"
    " target) and `K`.",
    "table_size: the size of one evaluation at target `tail` (work_estimate): with T = 2K + 1,"
    " work = T + sum over the sorted entries c_1..c_{d-1} of width_j T, width_1 = 1, width_{j+1} ="
    " width_j + 2 c_j K, plus the final width (for one entry: 2K + 2).",
    "calibration: the smallest sigma with delta(eps) <= delta, rounded up to `digits` significant"
    " digits (default 12), searched as the accounting-discrete family states (start [0.999 c, 1.001"
    " c] around the continuous Gaussian's 12-digit sigma c for L2 sensitivity |v|, widening,"
    " regula falsi on f(sigma) = ln(max(delta(sigma), 10^-100000)) - ln(delta), the scan of 32"
    " points up to twice sigma); refused up front when one evaluation at twice c, at target"
    " min(1e-45, 10^-25 delta), would exceed 4000000 table operations. `tail` = the first"
    " truncation target handed to every evaluation (10^-25 delta; the evaluation uses min(1e-45,"
    " tail)); `probes` = the sigma of every evaluation of delta in order, the final one at the"
    " published sigma included.",
    "bracket: the search by itself from [lo, hi] to relative width tol on f = the piecewise-linear"
    " function through `knots` ([x, f(x)] pairs, x increasing; lo and hi within them, f(lo) > 0 >="
    " f(hi)): stop when hi - lo <= tol hi (at most 400 steps); a step probes the midpoint alone"
    " when the width after the last step is more than half the width two steps before, else the"
    " estimate x = hi - f(hi)(hi - lo)/(f(hi) - f(lo)) clamped to [lo + w, hi - w], w = tol hi / 4,"
    " at x - w then (if that one has f > 0) x + w, each only if strictly inside (lo, hi); f(y) > 0"
    " moves lo (halving the kept f(hi) if lo also moved last time), else hi (halving f(lo)"
    " likewise). `probes` = every x at which f was evaluated, in order (lo and hi first).",
]

NOTES = {
    "Boundary": "parameters on or next to a decision point (a limit met, a test passed or failed"
                " by a small factor, a value exactly on a comparison)",
    "Default": "an optional argument left out: the spec's default applies",
    "BadParameter": "an argument outside its domain; the implementation must reject it",
    "WorkLimit": "valid parameters whose exact evaluation would take more than 4000000 table"
                 " operations; the implementation must refuse up front",
    "NoConvergence": "valid parameters whose exact evaluation needs more refinement passes than"
                     " the spec allows; the implementation must refuse instead of answering",
}


def _group(op: str, tests: list[tuple[str, dict[str, Any], list[str]]], tc: TestNumberer,
           invalid: list[tuple[str, dict[str, Any], str]] | None = None) -> dict[str, Any]:
    return build_group(tc, HANDLERS, op, tests, invalid or [], {},
                       rejects=(ValueError, TypeError, ArithmeticError))


def _dg(eps: str, sigma: str, vector: list[int] | None = None, tail: str | None = None
        ) -> dict[str, Any]:
    d: dict[str, Any] = {"eps": eps, "sigma": sigma}
    if vector is not None:
        d["vector"] = vector
    if tail is not None:
        d["tail"] = tail
    return d


def _refinement_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    op = P + "refinement"
    return [_group(op, [
        ("sigma 1e-10, eps 3.5e20, tail 1e-50, vector absent: a = 3, and the table first reaches"
         " y = 4 at the 64th pass, the last one allowed", _dg("3.5e20", "1e-10", tail="1e-50"),
         ["Boundary", "Default"]),
        ("sigma 1e-10, eps 3e20, tail 1e-50: a = 2.5, 63 passes", _dg("3e20", "1e-10", [1],
                                                                        "1e-50"), []),
        ("sigma 1, eps 11.4956: the first pass's allowance is 3.0e-20 of the computed delta"
         " (above 10^-20, below 9^-20): a second pass", _dg("11.4956", "1", [1]), ["Boundary"]),
        ("sigma 1, eps 11.4667: the first pass's allowance is 4.0e-21 of the computed delta"
         " (below 10^-20, above 11^-20): one pass", _dg("11.4667", "1", [1]), ["Boundary"]),
        ("sigma 1.705, eps 51.8639, v (1, 5): the first pass computes 3.2e-69 against a truncated"
         " mass near 1e-45, so the next target is 10^-25 of it, below target^2 = 1e-90",
         _dg("51.8639", "1.705", [1, 5]), ["Boundary"]),
        ("sigma 2.936, eps 44.7881, v (1, 5, 3): the next target is 10^-25 of the computed delta",
         _dg("44.7881", "2.936", [1, 5, 3]), []),
    ], tc, [
        ("sigma 1e-10, eps 4.5e20, tail 1e-50: a = 4 needs K >= 5, which a 65th pass would"
         " reach", _dg("4.5e20", "1e-10", [1], "1e-50"), "NoConvergence"),
        ("eps -1", _dg("-1", "1", [1]), "BadParameter"),
    ])]


def _table_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    op = P + "table_size"
    return [_group(op, [
        ("sigma 2, v (1), tail 10^-30 below 2 B(5): K = 6, not 5",
         {"sigma": "2", "vector": [1], "tail": "2.76656905479652968345886865377553083e-2"},
         ["Boundary"]),
        ("sigma 1.3, v (1), tail 10^-30 above 2 B(5): K = 5",
         {"sigma": "1.3", "vector": [1], "tail": "4.83933964746146582829413389759758143e-5"},
         ["Boundary"]),
        ("sigma 0.7, v (1, 1), tail 10^-30 above 2 B(8): K = 8",
         {"sigma": "0.7", "vector": [1, 1], "tail": "2.54250370879106728056883056816513678e-36"},
         ["Boundary"]),
    ], tc, [
        ("tail 0", {"sigma": "1", "vector": [1], "tail": "0"}, "BadParameter"),
        ("sigma 0", {"sigma": "0", "vector": [1], "tail": "1e-10"}, "BadParameter"),
    ])]


def _cal(eps: str, delta: str, vector: list[int] | None = None, digits: int | None = None
         ) -> dict[str, Any]:
    d: dict[str, Any] = {"eps": eps, "delta": delta}
    if vector is not None:
        d["vector"] = vector
    if digits is not None:
        d["digits"] = digits
    return d


def _calibration_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    op = P + "calibration"
    return [_group(op, [
        ("eps 3, delta 1e-3, v (2), digits 10: the continuous start is for L2 norm 2",
         _cal("3", "1e-3", [2], 10), []),
        ("eps 1, delta 1e-5, v (1, 2), digits 10: L2 norm sqrt(5)", _cal("1", "1e-5", [1, 2], 10),
         []),
        ("eps 2, delta 1e-30, vector and digits absent: the handed target 1e-55 is below 1e-45",
         _cal("2", "1e-30"), ["Boundary", "Default"]),
        ("eps 3e5, delta 1e-3, v (1), digits 10: delta jumps at sigma^2 = 1/(2 eps) from near 1"
         " to about e^-eps < 10^-100000, where log delta is clamped",
         _cal("300000", "1e-3", [1], 10), ["Boundary"]),
    ], tc, [
        ("delta 1e-4001, below the accepted range", _cal("1", "1e-4001", [1], 10),
         "BadParameter"),
        ("zero vector", _cal("1", "1e-3", [0], 10),
         "BadParameter"),
        ("eps 0.612, delta 1e-30, v (1, 1, 1): one evaluation at twice the continuous sigma, at"
         " the target 1e-55 handed to it, would take 4020020 table operations, just over the"
         " limit 4000000 (3940220 at 9^-25 delta, 3301484 at 1e-45): refused up front",
         _cal("0.612", "1e-30", [1, 1, 1], 10), "WorkLimit"),
    ])]


def _br(lo: str, hi: str, tol: str, knots: list[list[str]]) -> dict[str, Any]:
    return {"lo": lo, "hi": hi, "tol": tol, "knots": knots}


def _bracket_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    op = P + "bracket"
    return [_group(op, [
        ("[1, 2], tol 1/16, f(1) = 1, f(2) = -1: the estimate 1.5, its first probe 1.46875 is the"
         " root (f = 0 moves hi); the next step's second probe would be hi itself (skipped)",
         _br("1", "2", "0.0625", [["1", "1"], ["1.46875", "0"], ["2", "-1"]]), ["Boundary"]),
        ("[1, 2], tol 1/16, f(1) = 1/1024, f(2) = -1: the estimate 1.00097... is clamped to"
         " lo + w = 1.03125, so its first probe is lo itself (skipped)",
         _br("1", "2", "0.0625", [["1", "0.0009765625"], ["2", "-1"]]), ["Boundary"]),
        ("[1.515625, 2], tol 1/8, f = 0 on [1.625, 2]: each estimate is hi itself, clamped to"
         " hi - w, and its first probe moves hi; after two steps the width 31/128 is exactly half"
         " of the first 31/64, so the third step is regula falsi, not bisection",
         _br("1.515625", "2", "0.125", [["1.515625", "1"], ["1.625", "0"], ["2", "0"]]),
         ["Boundary"]),
    ], tc, [
        ("knots not increasing", _br("1", "2", "0.0625", [["1", "1"], ["1", "0"], ["2", "-1"]]),
         "BadParameter"),
        ("f(lo) <= 0", _br("1", "2", "0.0625", [["1", "0"], ["2", "-1"]]), "BadParameter"),
    ])]


_FILES = {
    "refinement": ("passes of the exact discrete Gaussian delta", _refinement_doc),
    "table_size": ("the table half-width at a target next to its bound", _table_doc),
    "calibration": ("the discrete Gaussian calibration's evaluations", _calibration_doc),
    "bracket": ("the calibration's bracket search on exact functions", _bracket_doc),
}


class AccountingEdgesFamily(AccountingFilesFamily):
    """Its own ops, files and schema; cases and compare as the accounting family's (per-op
    tolerances, here this module's :data:`TOLERANCE`)."""

    name = NAME
    summary = "edges of the exact discrete Gaussian accountant's loops and searches"
    tolerance = TOLERANCE
    schema = SCHEMA
    header = HEADER
    notes = NOTES
    handler_table = HANDLERS
    arg_names = _ARG_NAMES
    file_table = _FILES


FAMILY = AccountingEdgesFamily()
