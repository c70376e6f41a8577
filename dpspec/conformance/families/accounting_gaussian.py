"""Vector family ``accounting-gaussian``: the decision points of the Gaussian accountant
(dpspec.spec.accounting.gaussian, after Theorem 8 and Algorithm 1 of [BW18]) and of the seeds'
recomputed tables (dpspec.spec.accounting.seed_tables) that the other accounting families leave
open.

* ``delta``: the exact delta(eps) of the Gaussian mechanism where the spec stops evaluating the
  normal tails (the Mills-ratio bound beyond FAR = 10^6 standard deviations, delta = 1 above it) and
  at the largest accepted eps (MAX_EPS = 10^6); published as ln(delta), since these deltas are far
  below any floating-point range (near e^(-10^12)).
* ``epsilon``: the search of gaussian_epsilon (early exit at eps = 0, doubling, bisection), with the
  number of delta evaluations it made and the end of its doubling.
* ``calibration``: calibrate_gaussian_sigma with its whole result (the 40-digit bisection end, the
  rounded sigma, delta there), its initial bracket and its number of delta evaluations; the
  defaults (sensitivity 1, 12 digits) by leaving the argument out, the digits limits.
* ``closed_forms``: the classical bound of [DR14] Theorem A.1 and the Renyi / zCDP curves
  ([Mir17] Proposition 7, [BS16] Proposition 1.6), each with its default sensitivity.
* ``seed_table``: Table 1 of the DP draft (seed 003, sec. 6.1.1) at its own parameters (the default
  n = 100000 and delta = 1e-9), next to them, and at the delta where the draft's Renyi route gives
  exactly the printed epsilon; the search for the smallest cohort size at target 0.
"""

from __future__ import annotations

from typing import Any

import mpmath

from dpspec.conformance.families._groups import Call, build_group, memoised, recorded_calls
from dpspec.conformance.families.accounting import AccountingFilesFamily, optional, published
from dpspec.conformance.families.accounting_curves import binary64_rows
from dpspec.conformance.vectors import (
    Handler,
    TestNumberer,
)
from dpspec.spec.accounting import gaussian, numeric, seed_tables
from dpspec.spec.accounting.numeric import DPS, mpf

SCHEMA = "accounting_gaussian-v1.json"
NAME = "accounting-gaussian"
P = "accounting_gaussian."

#: mpmath values at 40 digits rounded up to 20 significant digits, compared within 1e-15 relative;
#: the absolute floor 1e-30 only matters for ln(delta) = 0 (delta = 1)
MP = (1e-15, 1e-30)
#: the calibration's values are published with 36 significant digits (rounded up) and compared
#: within 1e-34 relative: the 40-digit bisection end is reproducible to far better than that by any
#: evaluation at 36 digits or more, while the bracket it starts from leaves its mark near 1e-31
HP = (1e-34, 0.0)
#: table rows are strings with a stated number of decimals (and integers): compared exactly
EXACT = (0.0, 0.0)


TOLERANCE: dict[str, tuple[float, float]] = {
    P + "delta": MP,
    P + "epsilon": MP,
    P + "calibration": HP,
    P + "closed_forms": MP,
    P + "seed_table": EXACT,
}

#: significant digits of the calibration's published values
HP_DIGITS = 36


def _probes(calls: list[Call], position: int) -> list[mpmath.mpf]:
    """Argument ``position`` of each recorded call of ``gaussian.gaussian_delta`` (the spec's own
    calls, nothing recomputed), as mpmath values."""
    with mpmath.workdps(DPS):
        return [mpf(c.args[position]) for c in calls]


# -- reference handlers -----------------------------------------------------------------------
def h_delta(a: dict[str, Any]) -> dict[str, Any]:
    """ln(delta(eps)) rounded up to 20 digits; null when delta is 0."""
    d = gaussian.gaussian_delta(a["eps"], a["sigma"], **optional(a, "sensitivity"))
    with mpmath.workdps(DPS):
        return {"lnDelta": published(mpmath.log(d)) if d > 0 else None}


def h_epsilon(a: dict[str, Any]) -> dict[str, Any]:
    """gaussian_epsilon, the number of delta evaluations it made and the largest eps it
    evaluated (the end of its doubling; 0 when it returned at eps = 0)."""
    with recorded_calls(gaussian, "gaussian_delta") as calls:
        e = gaussian.gaussian_epsilon(a["delta"], a["sigma"], **optional(a, "sensitivity"))
    probes = _probes(calls, 0)
    return {"eps": published(e), "evaluations": len(probes), "hi": published(max(probes))}


def h_calibration(a: dict[str, Any]) -> dict[str, Any]:
    """Every field of calibrate_gaussian_sigma's result, the smallest and largest sigma it
    evaluated (its bracket before the bisection) and the number of delta evaluations."""
    with recorded_calls(gaussian, "gaussian_delta") as calls:
        c = gaussian.calibrate_gaussian_sigma(a["eps"], a["delta"],
                                              **optional(a, "sensitivity", "digits"))
    probes = _probes(calls, 1)
    return {"sigma": c.sigma, "digits": c.digits, "exact": published(c.exact, HP_DIGITS),
            "deltaAtSigma": published(c.delta_at_sigma, HP_DIGITS), "evaluations": len(probes),
            "lo": published(min(probes), HP_DIGITS), "hi": published(max(probes), HP_DIGITS)}


def h_closed_forms(a: dict[str, Any]) -> dict[str, Any]:
    fn = a["function"]
    kw = optional(a, "sensitivity")
    if fn == "classical_sigma":
        return {"value": published(gaussian.classical_gaussian_sigma(a["eps"], a["delta"], **kw))}
    if fn == "classical_epsilon":
        return {"value": published(gaussian.classical_gaussian_epsilon(a["delta"], a["sigma"], **kw))}
    if fn == "rdp":
        return {"value": published(gaussian.gaussian_rdp(a["alpha"], a["sigma"], **kw))}
    if fn == "zcdp":
        return {"value": published(gaussian.gaussian_zcdp(a["sigma"], **kw))}
    raise ValueError(f"unknown function {fn!r}")


def h_seed_table(a: dict[str, Any]) -> dict[str, Any]:
    t = a["table"]
    if t == "dp-draft-table1":
        kw: dict[str, Any] = {}
        if "n" in a:  # absent: the draft's n = 100000 (the function's default)
            kw["n"] = numeric.positive_int(a["n"], "n", 2)
        if "delta" in a:  # absent: the draft's delta = 1e-9
            kw["delta"] = a["delta"]
        return {"rows": binary64_rows(seed_tables.dp_draft_table1(**kw))}
    if t == "mjtb-smallest-n":
        # the search behind the MJTB+22 claim's smallest cohort sizes, here with target >= 0
        return {"n": seed_tables._smallest_n(
            float(numeric.positive(a["eps0"], "eps0")),
            float(numeric.probability(a["delta"], "delta")),
            float(numeric.non_negative(a["target"], "target")), a["bound"])}
    raise ValueError(f"unknown table {t!r}")


HANDLERS: dict[str, Handler] = {
    P + "delta": memoised(h_delta),
    P + "epsilon": memoised(h_epsilon),
    P + "calibration": memoised(h_calibration),
    P + "closed_forms": memoised(h_closed_forms),
    P + "seed_table": memoised(h_seed_table),
}


_ARG_NAMES: dict[str, tuple[str, ...]] = {
    P + "delta": ("eps", "sigma", "sensitivity"),
    P + "epsilon": ("delta", "sigma", "sensitivity"),
    P + "calibration": ("eps", "delta", "sensitivity", "digits"),
    P + "closed_forms": ("function", "eps", "delta", "sigma", "alpha", "sensitivity"),
    P + "seed_table": ("table", "n", "delta", "eps0", "target", "bound"),
}


HEADER = [
    "The Gaussian mechanism f(X) + N(0, sigma^2 I), f of L2 sensitivity S (`sensitivity`, default"
    " 1 when absent), module dpspec.spec.accounting.gaussian, and the seeds' recomputed privacy"
    " tables (dpspec.spec.accounting.seed_tables). Cases sit on both sides of each decision, on"
    " the decision itself where an exact input reaches it, at each default and each input check.",
    "Encodings: numbers are decimal strings (`sqrt(x)` allowed), sizes JSON integers. mpmath"
    " values (40 significant digits) are published rounded up (toward +infinity) as compact"
    " decimals. Tolerance (rel, abs) per op, |got - want| <= max(rel |want|, abs) on numeric"
    " strings, anything else exact: " + "; ".join(f"{op.split('.', 1)[1]} ({r:g}, {ab:g})"
                                                  for op, (r, ab) in sorted(TOLERANCE.items()))
    + ".",
    "delta: [BW18] Theorem 8, delta(eps) = Phi(a - b) - e^eps Phi(-a - b) with a = S / (2 sigma),"
    " b = eps sigma / S, clamped below at 0; when a - b < -10^6 it is replaced by the Mills-ratio"
    " bound phi(a - b) / (b - a) (phi the standard normal density), when a - b > 10^6 by 1 (a - b"
    " = -10^6 and +10^6 exactly use the formula). eps in [0, 10^6], sigma > 0, S > 0. Published:"
    " lnDelta = ln(delta) rounded up to 20 significant digits (null if delta is 0): these deltas"
    " are near e^(-10^12).",
    "epsilon: the smallest eps with delta(eps) <= `delta` (delta in (0, 1)): 0 if delta(0) <= delta"
    " (one evaluation); else hi = 1, doubled while delta(hi) > delta, then bisection on [0, hi]:"
    " while b - a > 10^-30 b, mid = (a + b) / 2, b = mid if delta(mid) <= delta else a = mid;"
    " eps = b (20 digits). evaluations = the number of delta evaluations in all; hi = the largest"
    " eps evaluated (the final doubling end; 0 after the early exit).",
    "calibration: [BW18] Algorithm 1 as a bisection on sigma: eps in (0, 10^6], delta in (0, 1),"
    " `digits` in [10, 30] (default 12 when absent). lo = 10^-6 S, hi = S; hi doubled while"
    " delta(eps; hi) > delta; lo halved while delta(eps; lo) <= delta (never for eps <= 10^6);"
    " bisection on [lo, hi] as for epsilon (b = mid when delta(mid) <= delta) to 10^-30 relative;"
    " exact = b, sigma = b rounded up to `digits` significant digits (a string, exact),"
    " deltaAtSigma = delta(eps; sigma), evaluations = the number of delta evaluations including"
    " that last one, lo / hi = the smallest / largest sigma evaluated. exact, deltaAtSigma, lo and"
    " hi are published with 36 significant digits, rounded up.",
    "closed_forms: classical_sigma = S sqrt(2 ln(1.25 / delta)) / eps ([DR14] Theorem A.1, proven"
    " for eps < 1; eps > 0, delta in (0, 1)); classical_epsilon = S sqrt(2 ln(1.25 / delta)) /"
    " sigma (SA2 Example 3); rdp = alpha S^2 / (2 sigma^2) ([Mir17] Proposition 7); zcdp = S^2 /"
    " (2 sigma^2) ([BS16] Proposition 1.6).",
    "seed_table: dp-draft-table1 = the rows of the DP draft (seed 003) sec. 6.1.1 Table 1"
    " recomputed (the accounting-curves family's header states the method of each field) at cohort"
    " size `n` (default 100000, the draft's) and `delta` (default 1e-9), compared exactly;"
    " std_holds says whether the printed standard deviation is sqrt(n e^eps0 / (e^eps0 - 1)^2)"
    " rounded up at the 4th decimal, holds whether the printed epsilon is at least both the Renyi"
    " route and the exact curve. mjtb-smallest-n = the smallest n >= 2 whose binary64 shuffle bound"
    " `bound` at (eps0, n, delta) is at most `target` (>= 0; the search of MJTB+22's 'once n >"
    " 1000': n = 2 first, then 4, 8, ... until the bound holds, then bisection).",
    "Invalid: every input check of these functions.",
]


NOTES = {
    "Seed": "a table or number printed in a seed (DP draft, SA2 paper), recomputed",
    "Boundary": "parameters on or next to a decision point (a limit of the tail evaluation or of"
                " eps, a threshold met exactly, the first or last step of a search)",
    "Default": "an optional argument left out: the spec's default applies",
    "BadParameter": "an argument outside its domain; the implementation must reject it",
}


def _group(op: str, params: dict[str, Any], tests: list[tuple[str, dict[str, Any], list[str]]],
           tc: TestNumberer, invalid: list[tuple[str, dict[str, Any]]] | None = None
           ) -> dict[str, Any]:
    """A group whose invalid cases must be refused with ValueError (nothing else counts)."""
    return build_group(tc, HANDLERS, op, tests, [(c, i, "BadParameter") for c, i in invalid or []],
                       params, rejects=(ValueError,))


def _gaussian_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    op = P + "delta"

    def d(eps: str, sigma: str, s: str | None = "1") -> dict[str, Any]:
        out = {"eps": eps, "sigma": sigma}
        if s is not None:
            out["sensitivity"] = s
        return out

    g = [_group(op, {}, [
        ("eps 1, sigma 1.5e6: a - b near -1.5e6, beyond 10^6 standard deviations (Mills bound)",
         d("1", "1500000"), ["Boundary"]),
        ("eps 1, sigma 7e5: a - b near -7e5, inside the limit (the formula, whose two terms"
         " nearly cancel: about e^-27 times the Mills bound)", d("1", "700000"), ["Boundary"]),
        ("eps 500000.125, sigma 2: a - b = -10^6 exactly (the formula)", d("500000.125", "2"),
         ["Boundary"]),
        ("eps 0, sigma 1, sensitivity 2e6: a - b = +10^6 exactly (the formula gives 1)",
         d("0", "1", "2000000"), ["Boundary"]),
        ("eps 0, sigma 1, sensitivity 4e6: a - b = 2e6 (delta 1 without evaluation)",
         d("0", "1", "4000000"), ["Boundary"]),
        ("eps 10^6 (the largest accepted), sigma 1: a - b = -999999.5 inside the limit, a + b"
         " just above 10^6", d("1000000", "1"), ["Boundary"]),
        ("eps 600000, sigma 1: between 9^6 and 10^6", d("600000", "1"), ["Boundary"]),
        ("eps 1000, sigma 3, sensitivity absent (default 1)", d("1000", "3", None),
         ["Default"]),
        ("eps 0.5, sigma 1.5e6, sensitivity 1/2: a - b = -3e6", d("0.5", "1500000", "1/2"), []),
    ], tc, [
        ("eps 1000000.5 just above the largest accepted", d("1000000.5", "1")),
        ("eps 1500000", d("1500000", "1")),
        ("eps -1e-9", d("-1e-9", "1")),
        ("sigma 0", d("1", "0")),
        ("sensitivity 0", d("1", "1", "0")),
    ])]

    def e(delta: str, sigma: str, s: str | None = None) -> dict[str, Any]:
        out = {"delta": delta, "sigma": sigma}
        if s is not None:
            out["sensitivity"] = s
        return out

    g.append(_group(P + "epsilon", {}, [
        ("SA2 Example 3: sigma 5.1, delta 1e-8 (eps just above 1: one doubling to 2)",
         e("1e-8", "5.1"), ["Seed", "Default"]),
        ("sigma 2, delta 0.1: eps below 1 (no doubling, hi stays 1)", e("0.1", "2", "1"),
         ["Boundary"]),
        ("sigma 10, delta 0.5: delta(0) = 0.0399 <= delta, eps 0 after one evaluation",
         e("0.5", "10", "1"), ["Boundary"]),
        ("sigma 1, delta 1e-6: doubling to 8", e("1e-6", "1", "1"), []),
        ("sigma 0.5, sensitivity 2, delta 1e-3: hi 32", e("1e-3", "0.5", "2"), []),
    ], tc, [
        ("delta 0", e("0", "1")),
        ("delta 1", e("1", "1")),
        ("sigma -1", e("1e-6", "-1")),
    ]))

    def c(eps: str, delta: str, s: str | None = None, digits: int | None = None
          ) -> dict[str, Any]:
        out: dict[str, Any] = {"eps": eps, "delta": delta}
        if s is not None:
            out["sensitivity"] = s
        if digits is not None:
            out["digits"] = digits
        return out

    g.append(_group(P + "calibration", {}, [
        ("SA2 Example 3: (1, 1e-8), sensitivity and digits absent (defaults 1 and 12)",
         c("1", "1e-8"), ["Seed", "Default"]),
        ("DP draft Table 2 row 1: (0.317, 1e-9), S sqrt(2), digits 30 (the most accepted)",
         c("0.317", "1e-9", "sqrt(2)", 30), ["Seed", "Boundary"]),
        ("eps 5, delta 0.1, digits 10 (the fewest accepted): sigma below S, hi stays S",
         c("5", "0.1", "1", 10), ["Boundary"]),
        ("eps 10^6 (the largest accepted), delta 1e-6: sigma near 7e-4, above lo = 1e-6",
         c("1000000", "1e-6", "1", 10), ["Boundary"]),
        ("eps 0.5, delta 1e-5, S 3, digits 15: two doublings", c("0.5", "1e-5", "3", 15), []),
    ], tc, [
        ("digits 9", c("1", "1e-6", "1", 9)),
        ("digits 31", c("1", "1e-6", "1", 31)),
        ("eps 0", c("0", "1e-6")),
        ("eps 1000001", c("1000001", "1e-6")),
        ("delta 1", c("1", "1")),
        ("sensitivity 0", c("1", "1e-6", "0")),
    ]))

    def f(fn: str, s: str | None = None, **kw: str) -> dict[str, Any]:
        out: dict[str, Any] = {"function": fn, **kw}
        if s is not None:
            out["sensitivity"] = s
        return out

    g.append(_group(P + "closed_forms", {}, [
        ("classical sigma, SA2 Examples 1 and 3 (eps 1, delta 1e-8), sensitivity absent",
         f("classical_sigma", eps="1", delta="1e-8"), ["Seed", "Default"]),
        ("classical sigma, eps 0.5, delta 1e-5, S 2", f("classical_sigma", "2", eps="0.5",
                                                       delta="1e-5"), []),
        ("classical epsilon, SA2 Example 3 (sigma 7, delta 1e-8), sensitivity absent",
         f("classical_epsilon", delta="1e-8", sigma="7"), ["Seed", "Default"]),
        ("Renyi divergence of order 2.5, sigma 5.1, sensitivity absent",
         f("rdp", alpha="2.5", sigma="5.1"), ["Default"]),
        ("Renyi divergence of order 32, sigma 3, S 2", f("rdp", "2", alpha="32", sigma="3"), []),
        ("zCDP rho, sigma 5.1, sensitivity absent", f("zcdp", sigma="5.1"), ["Default"]),
        ("zCDP rho, sigma 0.5, S sqrt(2)", f("zcdp", "sqrt(2)", sigma="0.5"), []),
    ], tc, [
        ("classical sigma, eps 0", f("classical_sigma", eps="0", delta="1e-5")),
        ("classical sigma, delta 0", f("classical_sigma", eps="1", delta="0")),
        ("classical epsilon, sigma 0", f("classical_epsilon", delta="1e-5", sigma="0")),
        ("zcdp, sensitivity -1", f("zcdp", "-1", sigma="1")),
        ("rdp, sigma 0", f("rdp", alpha="2", sigma="0")),
        ("unknown function", f("laplace", sigma="1")),
    ]))
    return g


#: the delta at which the Renyi route of Table 1's first row (eps0 5, n 100000) is exactly the
#: printed 0.317 at its 10 significant digits (0.31699999993..., found by a secant search on ln
#: delta)
RENYI_TIE_DELTA = "9.1215783062e-10"


def _seed_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    op = P + "seed_table"
    return [_group(op, {}, [
        ("DP draft Table 1 as printed (n and delta absent: the draft's 100000 and 1e-9); every"
         " printed standard deviation is the recomputed one rounded up at the 4th decimal",
         {"table": "dp-draft-table1"}, ["Seed", "Default"]),
        ("DP draft Table 1 at n 100001: each recomputed standard deviation is now above the"
         " printed one", {"table": "dp-draft-table1", "n": 100001, "delta": "1e-9"},
         ["Seed", "Boundary"]),
        (f"DP draft Table 1 at delta {RENYI_TIE_DELTA}: the Renyi route of row 0.317 is exactly"
         " 0.317 (holds: the printed epsilon is at least it)",
         {"table": "dp-draft-table1", "n": 100000, "delta": RENYI_TIE_DELTA},
         ["Seed", "Boundary"]),
        ("smallest n with the fmt20 bound at most 0 (eps0 1, delta 0.2): the bound reaches 0"
         " exactly", {"table": "mjtb-smallest-n", "eps0": "1", "delta": "0.2", "target": "0",
                      "bound": "fmt20"}, ["Boundary"]),
        ("smallest n with the exact-rr bound at most 0 (eps0 1, delta 0.2)",
         {"table": "mjtb-smallest-n", "eps0": "1", "delta": "0.2", "target": "0",
          "bound": "exact-rr"}, ["Boundary"]),
    ], tc, [
        ("Table 1 with n 1", {"table": "dp-draft-table1", "n": 1}),
        ("smallest n with target -0.1", {"table": "mjtb-smallest-n", "eps0": "1", "delta": "0.2",
                                         "target": "-0.1", "bound": "fmt20"}),
        ("unknown table", {"table": "dp-draft-table3"}),
    ])]


_FILES = {
    "gaussian": ("the Gaussian mechanism: tails, searches, calibration, closed forms",
                 _gaussian_doc),
    "seed_tables": ("the DP draft's Table 1 at and next to its parameters", _seed_doc),
}


class AccountingGaussianFamily(AccountingFilesFamily):
    """Its own ops, files and schema; numeric outputs within their op's tolerance, seed-table rows
    exactly."""

    name = NAME
    summary = ("decision points of the Gaussian accountant ([BW18]) and of the DP draft's"
               " Table 1")
    tolerance = TOLERANCE
    schema = SCHEMA
    header = HEADER
    notes = NOTES
    handler_table = HANDLERS
    arg_names = _ARG_NAMES
    file_table = _FILES
    exact_ops_as_json = True


FAMILY = AccountingGaussianFamily()
