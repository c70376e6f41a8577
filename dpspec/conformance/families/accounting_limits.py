"""Vector family ``accounting-limits``: the parts of the subsampled Gaussian's Renyi DP
(dpspec.spec.accounting.subsampling) that its final value hides.

``sampled_gaussian_rdp`` returns ``max(D_alpha(mu || mu_0), D_alpha(mu_0 || mu), 0)`` ([MTZ19]
sec. 3.3, Theorem 5). For every input tried, the first direction is the larger one, so the second
(the ``mu_0 || mu`` integral that a fractional order needs) never shows in the published RDP: an
implementation could get it wrong, or skip it for fractional orders >= 2, unseen. Here both
logarithmic moments are published separately:

* ``logA = log E_{z ~ mu_0}[(mu(z)/mu_0(z))^alpha]`` (the exact finite sum for an integer order, the
  integral otherwise) and
* ``logB = log E_{z ~ mu_0}[(mu_0(z)/mu(z))^(alpha - 1)]`` (only for a fractional order; ``null``
  when the spec does not compute it: an integer order >= 2, by Theorem 5, or the ``q = 0`` /
  ``q = 1`` shortcuts),

with, for each integral, the quadrature transcript of the spec's method: the finite points at which
the real line is split (the modes ``0``, ``alpha/2``, ``alpha`` of the first integrand, merged when
closer than ``sigma/2``, the points ``0, +-sigma`` of the second, and ``+-40 sigma`` beyond), the
integrand scaled by its largest value at the candidate modes, evaluated at those points, and the
scaled integral. The integer-order sum is also published at 20 digits where it cancels: ``A_alpha =
1 + O(q^2)`` for a tiny rate, so a sum evaluated in too few digits loses the whole of ``logA``.

Outputs are compared like the ``accounting`` family's (``|got - want| <= max(rel |want|, abs)``
per op, :data:`TOLERANCE`).
"""

from __future__ import annotations

from typing import Any

import mpmath

from dpspec.conformance.families._groups import build_group, memoised, recorded_calls, replaced
from dpspec.conformance.families.accounting import AccountingFilesFamily, optional, published
from dpspec.conformance.vectors import (
    Handler,
    TestNumberer,
)
from dpspec.spec.accounting import subsampling
from dpspec.spec.accounting.numeric import compact

SCHEMA = "accounting_limits-v1.json"
NAME = "accounting-limits"
P = "accounting_limits."

#: the integer-order sum, at 50 digits, published rounded up to 20 significant digits
EXACT = (1e-15, 0.0)
#: the 20-digit quadratures (about 14 correct digits), published rounded up to 13 significant
#: digits; values below 1e-30 (the scaled integrand 40 sigma away from the modes) are compared
#: absolutely
QUAD = (1e-10, 1e-30)


TOLERANCE: dict[str, tuple[float, float]] = {
    P + "sampled_gaussian_parts": QUAD,
    P + "sampled_gaussian_sum": EXACT,
    P + "pruned_search": QUAD,
    P + "sampled_gaussian_directions": QUAD,
}


class _QuadratureTrace:
    """Stands for the ``mpmath`` module inside :mod:`subsampling` while a handler runs: every
    attribute is mpmath's, except ``quad``, which records the finite split points it is given,
    the integrand at those points and the integral it returns (the spec's own call, observed)."""

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(mpmath, name)

    def quad(self, f: Any, points: list[Any], *args: Any, **kwargs: Any) -> Any:
        total = mpmath.quad(f, points, *args, **kwargs)
        finite = [p for p in points if mpmath.isfinite(p)]
        self.calls.append({"points": [published(mpmath.mpf(p), 13) for p in finite],
                           "scaled": [published(f(mpmath.mpf(p)), 13) for p in finite],
                           "integral": published(total, 13)})
        return total


def _observed(a: dict[str, Any]) -> tuple[mpmath.mpf, dict[str, Any], list[dict[str, Any]]]:
    """The spec's RDP and the log-moments it computed on the way (by wrapping its helpers for the
    duration of the call; nothing is recomputed here)."""
    trace = _QuadratureTrace()
    kw = optional(a, "method")
    with recorded_calls(subsampling, "_log_a_integer") as by_sum, \
            recorded_calls(subsampling, "_log_a_integral") as by_integral, \
            recorded_calls(subsampling, "_log_b_integral") as backward, \
            replaced(subsampling, mpmath=trace):
        r = subsampling.sampled_gaussian_rdp(a["q"], a["sigma"], a["alpha"], **kw)
    log_a = [c.result for c in by_sum + by_integral]
    seen = {"logA": log_a[-1] if log_a else None,
            "logB": backward[-1].result if backward else None}
    return r, seen, trace.calls


# -- reference handlers -----------------------------------------------------------------------
def h_parts(a: dict[str, Any]) -> dict[str, Any]:
    """rdp, logA, logB (null when not computed) and the quadrature transcripts, in call order."""
    r, seen, calls = _observed(a)
    return {"rdp": published(r, 13), "logA": published(seen["logA"], 13), "logB": published(seen["logB"], 13),
            "quadratures": calls}


def h_sum(a: dict[str, Any]) -> dict[str, Any]:
    """rdp and logA of an integer order by the finite sum (no quadrature may be involved)."""
    r, seen, calls = _observed(a)
    if calls:
        raise ValueError("the finite-sum op takes integer orders only")
    return {"rdp": published(r, 20), "logA": published(seen["logA"], 20)}


def h_pruned(a: dict[str, Any]) -> dict[str, Any]:
    """(eps, order) of the moments accountant and the orders whose RDP the pruned search
    evaluated, in call order, each with its one-step RDP (the spec's calls, observed)."""
    with recorded_calls(subsampling, "sampled_gaussian_rdp") as calls:
        e, order = subsampling.subsampled_gaussian_epsilon(a["q"], a["sigma"], a["steps"],
                                                           a["delta"], a["orders"])
    evaluated = [[compact(mpmath.nstr(c.args[2], 20)), published(c.result, 13)] for c in calls]
    return {"eps": published(e, 13), "order": compact(mpmath.nstr(order, 20)), "evaluated": evaluated}


def h_directions(a: dict[str, Any]) -> dict[str, Any]:
    """forward and backward (null when not computed), each divided by alpha - 1."""
    kw = optional(a, "method")
    fwd, bwd = subsampling.sampled_gaussian_rdp_directions(a["q"], a["sigma"], a["alpha"], **kw)
    return {"forward": published(fwd, 13), "backward": published(bwd, 13)}


HANDLERS: dict[str, Handler] = {
    P + "sampled_gaussian_parts": h_parts,
    P + "sampled_gaussian_sum": h_sum,
    P + "pruned_search": h_pruned,
    P + "sampled_gaussian_directions": h_directions,
}
HANDLERS = {op: memoised(h) for op, h in HANDLERS.items()}


_ARG_NAMES: dict[str, tuple[str, ...]] = {
    P + "sampled_gaussian_parts": ("q", "sigma", "alpha", "method"),
    P + "sampled_gaussian_sum": ("q", "sigma", "alpha", "method"),
    P + "pruned_search": ("q", "sigma", "steps", "delta", "orders"),
    P + "sampled_gaussian_directions": ("q", "sigma", "alpha", "method"),
}


HEADER = [
    "The parts of the Renyi DP of the Poisson-subsampled Gaussian (module"
    " dpspec.spec.accounting.subsampling; sensitivity 1, noise multiplier sigma > 0, rate q in"
    " [0, 1], order alpha > 1): with mu_0 = N(0, sigma^2) and mu = (1 - q) N(0, sigma^2) + q N(1,"
    " sigma^2), rdp = max(logA/(alpha - 1), logB/(alpha - 1), 0) where logA = ln E_{z~mu_0}[(mu/mu_0)"
    "^alpha] and logB = ln E_{z~mu_0}[(mu_0/mu)^(alpha - 1)] ([MTZ19] sec. 3.3); logB is computed"
    " only for a fractional alpha ([MTZ19] Theorem 5 makes the first direction the larger for an"
    " integer alpha >= 2) and is null otherwise; q = 0 gives rdp 0 and q = 1 alpha/(2 sigma^2), with"
    " logA and logB null. `method` (absent: auto): auto (the finite sum for an integer alpha, else"
    " the integrals), sum (integer alpha only), integral (the forward integral also for an integer"
    " alpha).",
    "Encodings: numbers are decimal strings. Outputs are mpmath values rounded up (toward"
    " +infinity): sampled_gaussian_sum to 20 significant digits (the sum is evaluated at 50),"
    " sampled_gaussian_parts to 13 (20-digit quadratures). Tolerance (rel, abs) per op, |got -"
    " want| <= max(rel |want|, abs) on numeric strings, anything else exact: "
    + "; ".join(f"{op.split('.', 1)[1]} ({r:g}, {ab:g})" for op, (r, ab) in sorted(TOLERANCE.items()))
    + ".",
    "sampled_gaussian_sum: integer alpha by A_alpha = sum_k C(alpha, k) (1-q)^(alpha-k) q^k"
    " exp((k^2 - k)/(2 sigma^2)), logA = ln A_alpha, rdp = max(logA/(alpha - 1), 0); for a tiny q,"
    " A_alpha = 1 + alpha (alpha - 1) q^2 (e^(1/sigma^2) - 1)/2 + ..., so the sum must be carried"
    " to about 20 digits beyond -log10(logA).",
    "sampled_gaussian_parts: `quadratures` lists, for each integral the spec evaluates (logA's,"
    " then logB's), `points` = the finite points splitting the real line, in the order used,"
    " `scaled` = exp(g(z) - peak) at those points and `integral` = the integral of exp(g - peak)"
    " over the line. The moment E[(1 + u)^beta] (z ~ N(0, sigma^2), u(z) = q (e^((2z - 1)/(2"
    " sigma^2)) - 1), whose mean is 0; beta = alpha for logA, 1 - alpha for logB) is 1 + E[h],"
    " h = (1 + u)^beta - 1 - beta u >= 0 (integrating the moment itself cancels: its excess over"
    " 1 is about q^2), and g(z) = ln h(u(z)) - z^2/(2 sigma^2) (-inf where h = 0), the log of the"
    " integrand times sqrt(2 pi) sigma. For logA: marks m = [0], then each of alpha/2, alpha"
    " appended when it exceeds the last mark by more than sigma/2, points = [m_first - 40 sigma,"
    " marks..., m_last + 40 sigma], peak = max g over {alpha/2, alpha}; for logB: points ="
    " [-40 sigma, -sigma, 0, sigma, 40 sigma], peak = max g over {0, -sigma, -3 sigma, -alpha}."
    " Then logX = ln(1 + e^peak integral / sqrt(2 pi sigma^2)).",
    "pruned_search: the moments accountant's (eps, order) over `orders` (as the"
    " accounting-subsampling family's subsampled_gaussian_epsilon: steps x rdp converted by SA2"
    " Theorem 1, the minimum over the orders, the zCDP bound of [CKS20] Corollary 13 when strictly"
    " smaller, with order 0) and `evaluated`, the orders whose one-step rdp the search computed,"
    " in order, each as [alpha, rdp]. The orders (duplicates merged) are visited increasingly,"
    " the integers first, then the fractional ones; an order alpha is skipped when the conversion"
    " at alpha of steps x rdp(b), b the largest integer order <= alpha computed so far (0 if"
    " none), is not below the best epsilon so far (the RDP is non-decreasing in the order, so it"
    " could not win); only integer orders serve as such bounds.",
    "sampled_gaussian_directions: forward = logA/(alpha - 1) = D_alpha(mu || mu_0) and backward ="
    " logB/(alpha - 1) = D_alpha(mu_0 || mu) (null where logB is null), rounded up to 13 digits;"
    " q = 0 gives 0 and 0, q = 1 alpha/(2 sigma^2) both. rdp is the larger, at least 0: both are"
    " published because an error in the smaller would not show in rdp.",
    "Invalid: every input check (alpha <= 1, q outside [0, 1], sigma <= 0, an unknown method, a"
    " fractional alpha by the sum).",
]


NOTES = {
    "Boundary": "parameters on or next to a decision point (a tie of the mark spacing, a"
                " candidate mode that wins, a shortcut)",
    "Default": "an optional argument left out: the spec's default applies",
    "Cancellation": "the integer-order sum is 1 plus a term far below 1: a sum carried in too"
                    " few digits returns a wrong logA",
    "BadParameter": "an argument outside its domain; the implementation must reject it",
}


def _group(op: str, tests: list[tuple[str, dict[str, Any], list[str]]], tc: TestNumberer,
           invalid: list[tuple[str, dict[str, Any]]] | None = None,
           params: dict[str, Any] | None = None) -> dict[str, Any]:
    return build_group(tc, HANDLERS, P + op, tests,
                       [(c, i, "BadParameter") for c, i in invalid or []], params or {},
                       rejects=(ValueError, TypeError, ArithmeticError))


def _g(q: str, sigma: str, alpha: str, method: str | None = None) -> dict[str, Any]:
    d = {"q": q, "sigma": sigma, "alpha": alpha}
    if method is not None:
        d["method"] = method
    return d


def _subsampling_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    g = [_group("sampled_gaussian_parts", [
        ("q 0.01, sigma 2, alpha 1.5, method absent: marks [0, 1.5]",
         _g("0.01", "2", "1.5"), ["Default"]),
        ("q 0.5, sigma 5, alpha 3.5: marks [0, 3.5]", _g("0.5", "5", "3.5", "auto"), []),
        ("q 0.9, sigma 0.5, alpha 3.5: marks [0, 1.75, 3.5]; the second integrand's largest"
         " candidate is z = -sigma", _g("0.9", "0.5", "3.5", "auto"), ["Boundary"]),
        ("q 0.99, sigma 1, alpha 3.5: the second integrand's largest candidate is z = -3 sigma",
         _g("0.99", "1", "3.5", "auto"), ["Boundary"]),
        ("q 0.999, sigma 5, alpha 3.5", _g("0.999", "5", "3.5", "auto"), []),
        ("q 0.1, sigma 3, alpha 2.5: alpha/2 = 1.25 is within sigma/2 of 0, alpha is not: marks"
         " [0, 2.5]", _g("0.1", "3", "2.5", "auto"), ["Boundary"]),
        ("q 0.1, sigma = alpha = 2.5: the gap alpha/2 - 0 equals sigma/2 exactly, and only a"
         " strictly larger gap opens a mark: marks [0, 2.5]", _g("0.1", "2.5", "2.5", "auto"),
         ["Boundary"]),
        ("q 0.3, sigma 0.5, alpha 1.5: marks [0, 0.75, 1.5]; the second integrand's largest"
         " candidate is z = 0", _g("0.3", "0.5", "1.5", "auto"),
         []),
        ("q 0.05, sigma 0.8, alpha 1.01, just above 1", _g("0.05", "0.8", "1.01", "auto"), []),
        ("integer alpha 3 by the integral: only the forward integral (logB null)",
         _g("0.2", "1", "3", "integral"), ["Boundary"]),
        ("integer alpha 3 by the sum (auto): no quadrature, logB null", _g("0.2", "1", "3"),
         ["Default"]),
        ("integer alpha 2 by the sum (auto): the smallest order [MTZ19] Theorem 5 covers, logB"
         " null", _g("0.2", "1", "2", "auto"), ["Boundary"]),
        ("q 0, fractional alpha: rdp 0, nothing computed", _g("0", "1", "2.5", "auto"),
         ["Boundary"]),
        ("q 1, fractional alpha: alpha/(2 sigma^2), nothing computed",
         _g("1", "2", "2.5", "auto"), ["Boundary"]),
    ], tc, [
        ("alpha 1", _g("0.5", "1", "1", "auto")),
        ("q 1.5", _g("1.5", "1", "2.5", "auto")),
        ("sigma 0", _g("0.5", "0", "2.5", "auto")),
        ("unknown method", _g("0.5", "1", "2.5", "series")),
        ("fractional alpha by the sum", _g("0.5", "1", "2.5", "sum")),
    ])]
    g.append(_group("sampled_gaussian_sum", [
        ("q 1e-12, sigma 1, alpha 2: logA = (e - 1) 1e-24 + ..., method absent",
         _g("1e-12", "1", "2"), ["Cancellation", "Default"]),
        ("q 1e-15, sigma 0.5, alpha 10: logA about 2.4e-27", _g("1e-15", "0.5", "10", "sum"),
         ["Cancellation"]),
        ("q 1e-8, sigma 2, alpha 64: logA about 5.7e-14", _g("1e-8", "2", "64", "sum"),
         ["Cancellation"]),
        ("q 0.5, sigma 0.5, alpha 7: no cancellation", _g("0.5", "0.5", "7", "sum"), []),
    ], tc, [
        ("alpha 2.5 by the sum", _g("0.1", "1", "2.5", "sum")),
        ("alpha 1", _g("0.1", "1", "1", "sum")),
        ("q -0.1", _g("-0.1", "1", "2", "sum")),
        ("sigma -1", _g("0.1", "-1", "2", "sum")),
    ]))
    g.append(_group("pruned_search", [
        ("q 0.01, sigma 1, 1000 steps: orders 32 and 64 are skipped (bounded by order 16's"
         " value), the fractional 1.5 and 2.5 too",
         {"q": "0.01", "sigma": "1", "steps": 1000, "delta": "1e-6",
          "orders": ["1.5", "2", "2.5", "3", "4", "8", "16", "32", "64"]}, ["Boundary"]),
        ("q 0.1, sigma 2, 100 steps: orders from 32 up are skipped",
         {"q": "0.1", "sigma": "2", "steps": 100, "delta": "1e-5",
          "orders": ["2", "3", "4", "5", "6", "8", "16", "32", "64", "128", "256"]},
         ["Boundary"]),
        ("SA2 Example 5's parameters with two fractional orders (1.75, 12.5) added",
         {"q": "0.02", "sigma": "5.1", "steps": 2500, "delta": "1e-8",
          "orders": ["1.5", "2", "4", "8", "16", "24", "32", "48", "64", "1.75", "12.5"]},
         []),
        ("fractional orders only: each is evaluated unless its bound from 0 already loses",
         {"q": "0.2", "sigma": "1", "steps": 10, "delta": "1e-5",
          "orders": ["1.25", "1.5", "2.5", "3.5", "7.5"]}, ["Boundary"]),
    ], tc, [
        ("steps 0", {"q": "0.1", "sigma": "1", "steps": 0, "delta": "1e-6", "orders": ["2"]}),
        ("no orders", {"q": "0.1", "sigma": "1", "steps": 1, "delta": "1e-6", "orders": []}),
        ("an order 0.5", {"q": "0.1", "sigma": "1", "steps": 1, "delta": "1e-6",
                          "orders": ["0.5", "2"]}),
    ]))
    g.append(_group("sampled_gaussian_parts", [
        ("q 1e-4, sigma 1, alpha 3.5: the first integrand's largest candidate is z = alpha/2 (the"
         " excess is still about its quadratic term at z = alpha)", _g("1e-4", "1", "3.5"),
         ["Boundary"]),
        ("q 0.5, sigma 2, alpha 2.5: the second integrand's largest candidate is z = -alpha",
         _g("0.5", "2", "2.5"), ["Boundary"]),
        ("q 0.2, sigma 1, alpha 2 by the integral: the midpoint of [0, 1] is z = 1/2, where the"
         " excess is exactly 0", _g("0.2", "1", "2", "integral"), ["Boundary"]),
    ], tc))
    g.append(_group("sampled_gaussian_directions", [
        ("q 0.01, sigma 2, alpha 1.5, method absent", _g("0.01", "2", "1.5"), ["Default"]),
        ("q 0.5, sigma 5, alpha 3.5", _g("0.5", "5", "3.5", "auto"), []),
        ("q 0.9, sigma 0.5, alpha 3.5", _g("0.9", "0.5", "3.5", "auto"), []),
        ("q 0.99, sigma 1, alpha 7.5 by the integral",
         _g("0.99", "1", "7.5", "integral"), []),
        ("q 0.05, sigma 0.8, alpha 1.01, just above 1", _g("0.05", "0.8", "1.01"), ["Boundary"]),
        ("integer alpha 3 by the integral: backward null", _g("0.2", "1", "3", "integral"),
         ["Boundary"]),
        ("integer alpha 2 by the sum: backward null", _g("0.2", "1", "2", "sum"), ["Boundary"]),
        ("q 0: both 0", _g("0", "1", "2.5"), ["Boundary"]),
        ("q 1: both alpha/(2 sigma^2)", _g("1", "2", "2.5"), ["Boundary"]),
    ], tc, [
        ("alpha 1", _g("0.5", "1", "1")),
        ("q -0.1", _g("-0.1", "1", "2.5")),
        ("sigma 0", _g("0.5", "0", "2.5")),
        ("unknown method", _g("0.5", "1", "2.5", "series")),
        ("fractional alpha by the sum", _g("0.5", "1", "2.5", "sum")),
    ]))
    return g


_FILES = {
    "subsampling": ("the parts of the subsampled Gaussian's Renyi DP", _subsampling_doc),
}


class AccountingLimitsFamily(AccountingFilesFamily):
    """Its own ops, files and schema; cases and compare as the accounting family's (per-op
    tolerances, here this module's :data:`TOLERANCE`)."""

    name = NAME
    summary = "both Renyi directions, quadrature transcripts and cancelling sums of the" \
              " subsampled Gaussian"
    tolerance = TOLERANCE
    schema = SCHEMA
    header = HEADER
    notes = NOTES
    handler_table = HANDLERS
    arg_names = _ARG_NAMES
    file_table = _FILES


FAMILY = AccountingLimitsFamily()
