"""Vector family ``accounting-ghazi``: the decision points of the shuffled-model counting accountant
of [GKMP20] (seed 004; dpspec.spec.accounting.ghazi) that the ``accounting`` family leaves open.

Theorems 11, 13 and 18 at their validity limits; the exact delta(eps) of the Poisson and
negative-binomial mechanisms with a per-shift transcript (the privacy-loss thresholds, the tail
probabilities the hockey-stick divergences are made of, each shift's delta); the smallest noise
parameter with its bisection bracket and number of delta evaluations; the correlated
(D1, D2, D3) mechanism of sec. 4.1 / 5.1. Defaults (sensitivity 1, digits 10, Theorem 13's p) are
exercised by leaving the argument out.

Outputs are compared like the ``accounting`` family's (``|got - want| <= max(rel |want|, abs)`` for
numeric strings, anything else exactly), with the tolerance of each op in :data:`TOLERANCE`.
"""

from __future__ import annotations

from typing import Any

import mpmath

from dpspec.conformance.families._groups import build_group, counted_calls, memoised, replaced
from dpspec.conformance.families.accounting import AccountingFilesFamily, optional, published
from dpspec.conformance.vectors import (
    Handler,
    TestNumberer,
)
from dpspec.spec.accounting import ghazi

SCHEMA = "accounting_ghazi-v1.json"
NAME = "accounting-ghazi"
P = "accounting_ghazi."

#: mpmath values at 40 digits rounded up to 20 significant digits, compared relatively (no
#: absolute floor: tail probabilities far below 1e-300 are published and compared too)
MP = (1e-15, 0.0)


TOLERANCE: dict[str, tuple[float, float]] = {
    P + "theorems": MP,
    P + "theorem18": MP,
    P + "mechanism_delta": MP,
    P + "minimal_parameter": MP,
    P + "correlated": MP,
}
# -- reference handlers -----------------------------------------------------------------------
def h_theorems(a: dict[str, Any]) -> dict[str, Any]:
    kw = optional(a, "sensitivity")
    lam = ghazi.theorem11_lambda(a["eps"], a["delta"], **kw)
    p, r = ghazi.theorem13_parameters(a["eps"], a["delta"], **kw)
    return {"lambda": published(lam), "p": published(p), "r": published(r)}


def h_theorem18(a: dict[str, Any]) -> dict[str, Any]:
    e, d = ghazi.theorem18_guarantee(a["eps1"], a["eps2"], a["delta2"], a["delta3"])
    return {"eps": published(e), "delta": published(d)}


def _mechanism(a: dict[str, Any]) -> mpmath.mpf:
    kw = optional(a, "sensitivity")
    if a["mechanism"] == "poisson":
        return ghazi.poisson_mechanism_delta(a["eps"], a["lambda"], **kw)
    if a["mechanism"] == "negative-binomial":
        return ghazi.negative_binomial_mechanism_delta(a["eps"], a["r"], a["p"], **kw)
    raise ValueError("mechanism must be poisson or negative-binomial")


def h_mechanism_delta(a: dict[str, Any]) -> dict[str, Any]:
    """delta(eps), and per shift s (in the spec's order) the transcript of ghazi._shift_delta:
    both threshold searches (result and the k at which the loss was evaluated, in order), the
    tail probabilities it read (in order) and the shift's delta. The spec's own functions are
    observed by wrapping them for the duration of the call; nothing is recomputed here."""
    shifts: list[dict[str, Any]] = []
    inner_shift, inner_threshold = ghazi._shift_delta, ghazi._threshold

    def threshold(log_ratio: Any, start: int, level: Any, sup: Any) -> int | None:
        probes: list[int] = []

        def lr(k: int) -> Any:
            probes.append(k)
            return log_ratio(k)

        k = inner_threshold(lr, start, level, sup)
        shifts[-1]["thresholds"].append({"k": k, "probes": probes})
        return k

    def shift(eps: Any, s: int, log_ratio: Any, cdf: Any, sf: Any, sup: Any) -> Any:
        row: dict[str, Any] = {"s": s, "thresholds": [], "tails": []}
        shifts.append(row)

        def c(k: int) -> Any:
            v = cdf(k)
            row["tails"].append(["cdf", k, published(v)])
            return v

        def f(k: int) -> Any:
            v = sf(k)
            row["tails"].append(["sf", k, published(v)])
            return v

        d = inner_shift(eps, s, log_ratio, c, f, sup)
        row["delta"] = published(d)
        return d

    with replaced(ghazi, _shift_delta=shift, _threshold=threshold):
        d = _mechanism(a)
    return {"delta": published(d), "shifts": shifts}


def h_minimal(a: dict[str, Any]) -> dict[str, Any]:
    """The spec's minimal parameter and the number of mechanism-delta evaluations it made
    (counted by wrapping the module's function for the duration of the call)."""
    kw = optional(a, "sensitivity", "digits")
    mech = a["mechanism"]
    if mech == "poisson":
        name = "poisson_mechanism_delta"
    elif mech == "negative-binomial":
        name = "negative_binomial_mechanism_delta"
        if "p" in a:
            kw["p"] = a["p"]
    else:
        raise ValueError("mechanism must be poisson or negative-binomial")
    with counted_calls(ghazi, name) as calls:
        if mech == "poisson":
            m = ghazi.minimal_poisson_lambda(a["eps"], a["delta"], **kw)
        else:
            m = ghazi.minimal_negative_binomial_r(a["eps"], a["delta"], **kw)
    return {"value": m.value, "bracketHi": published(m.exact), "deltaAtValue": published(m.delta_at_value),
            "theoremValue": published(m.theorem_value), "evaluations": calls[0]}


def h_correlated(a: dict[str, Any]) -> dict[str, Any]:
    kw = optional(a, "sensitivity")
    tail = ghazi.geometric_tail(a["eps1"], **kw)
    e, d = ghazi.correlated_mechanism_guarantee(a["eps1"], a["eps2"], a["r"], a["p"], **kw)
    return {"geometricTail": published(tail), "eps": published(e), "delta": published(d)}


HANDLERS: dict[str, Handler] = {
    P + "theorems": h_theorems,
    P + "theorem18": h_theorem18,
    P + "mechanism_delta": h_mechanism_delta,
    P + "minimal_parameter": h_minimal,
    P + "correlated": h_correlated,
}


HANDLERS = {op: memoised(h) for op, h in HANDLERS.items()}


_ARG_NAMES: dict[str, tuple[str, ...]] = {
    P + "theorems": ("eps", "delta", "sensitivity"),
    P + "theorem18": ("eps1", "eps2", "delta2", "delta3"),
    P + "mechanism_delta": ("mechanism", "eps", "lambda", "r", "p", "sensitivity"),
    P + "minimal_parameter": ("mechanism", "eps", "delta", "p", "sensitivity", "digits"),
    P + "correlated": ("eps1", "eps2", "r", "p", "sensitivity"),
}


HEADER = [
    "Shuffled-model counting of [GKMP20] (seed 004), module dpspec.spec.accounting.ghazi: a"
    " D-distributed mechanism releases sum x_i + Z, Z infinitely divisible on 0, 1, ...; by their"
    " Observation 8 it is (eps, delta)-DP iff the central D mechanism is, for Delta-summation"
    " (neighbouring sums differ by a shift s in 1..Delta; `sensitivity` = Delta, default 1 when"
    " absent). Cases sit on both sides of each decision and at each validity limit; every input"
    " check has an invalid case.",
    "Encodings: numbers are decimal strings; sizes JSON integers. mpmath values (40 significant"
    " digits) are published rounded up (toward +infinity) to 20 significant digits, as compact"
    " decimals. Tolerance (rel, abs) per op, |got - want| <= max(rel |want|, abs) on numeric"
    " strings, anything else exact: " + "; ".join(f"{op.split('.', 1)[1]} ({r:g}, {ab:g})"
                                                  for op, (r, ab) in sorted(TOLERANCE.items()))
    + ".",
    "theorems: Theorem 11 lambda = 16 ln(10/delta)/g^2 + 2 Delta/g with g = 1 - e^(-eps/Delta);"
    " Theorem 13 p = e^(-eps/(10 Delta)), r = 50 e^(eps/Delta) ln(1/delta); eps > 0, delta in"
    " (0, 1), Delta >= 1.",
    "theorem18: (eps1 + eps2, min(e^eps1 delta2 + 2 e^(2 eps1) delta3, 1)) (Theorem 18); eps1,"
    " eps2 >= 0, delta2 and delta3 in [0, 1].",
    "mechanism_delta: the exact delta(eps) of Poi(lambda) (lambda > 0) or NB(r, p) (NB(k; r, p) ="
    " C(k+r-1, k)(1-p)^r p^k, r >= 1, p in (0, 1)), eps >= 0: the max over shifts s = 1..Delta of"
    " both hockey-stick divergences between X + s and X. With L(k) = ln P[X = k-s] - ln P[X = k]"
    " (k >= s, non-decreasing, supremum infinite for Poisson and -s ln p for NB): k1 = the"
    " smallest k >= s with L(k) > eps (null when eps >= the supremum), d1 = sf(k1 - s) - e^eps"
    " sf(k1) (0 when k1 is null); t2 = the smallest k >= s with L(k) > -eps, k2 = t2 - 1, d2 ="
    " cdf(k2) - e^eps cdf(k2 - s); the shift's delta max(d1, d2, 0); sf(k) = P[X >= k] (1 for k"
    " <= 0), cdf(k) = P[X <= k] (0 for k < 0). Transcript `shifts`: per s in order, `thresholds` ="
    " [k1 search, t2 search], each its result `k` and `probes`, the k at which L was evaluated in"
    " order (none when k1 is null; else L(s) first, then s' = max(s + 1, 2s + 1) doubling until"
    " L(s') > level, then bisection between the last failing and the first passing probe: mid ="
    " (lo + hi) // 2, numeric.smallest_int/bisect_int); `tails` = the tail values read, in the"
    " order sf(k1 - s), sf(k1), cdf(k2), cdf(k2 - s) (the sf pair absent when k1 is null); and the"
    " shift's `delta`.",
    "minimal_parameter: the smallest lambda (resp. r >= 1, for `p`, default Theorem 13's p) with"
    " delta(eps) <= delta, published rounded up to `digits` significant digits (default 10; 1 to 30)."
    " Search (delta' = the mechanism's delta): NB only, if delta'(1) <= delta the answer is 1"
    " (value \"1\", bracketHi 1, 2 evaluations). Else hi = start (Theorem 11's lambda; NB: Theorem"
    " 13's r when p is absent, else 10); while delta'(hi) > delta: hi = 2 hi; lo = max(hi/2,"
    " floor) (floor 1e-6 for lambda, 1 for r); while lo > floor and delta'(lo) <= delta: hi, lo ="
    " lo, max(lo/2, floor); then while hi - lo > 10^-(digits+2) hi: mid = (lo + hi)/2, hi = mid if"
    " delta'(mid) <= delta else lo = mid. value = hi rounded up, bracketHi = hi, deltaAtValue ="
    " delta'(value), theoremValue = Theorem 11's lambda (resp. 13's r), evaluations = the number"
    " of delta' evaluations in all.",
    "correlated: [GKMP20] sec. 4.1 / 5.1 and Theorem 18 with D1 = D2 = NB(1, e^-eps1), D3 = NB(r,"
    " p): geometricTail = delta3 = P[D2 > Delta] = e^(-eps1 (Delta + 1)), (eps, delta) ="
    " theorem18(eps1, eps2, min(delta_NB(r, p)(eps2), 1), delta3) with delta_NB as in"
    " mechanism_delta; eps1 > 0.",
]


NOTES = {
    "Boundary": "parameters on or next to a decision point (a validity limit, a threshold met"
                " exactly, the first or last step of a search)",
    "Default": "an optional argument left out: the spec's default applies",
    "BadParameter": "an argument outside its domain; the implementation must reject it",
}

LN2 = "0.69314718055994530941723212145817656807550013436026"


def _group(op: str, tests: list[tuple[str, dict[str, Any], list[str]]], tc: TestNumberer,
           invalid: list[tuple[str, dict[str, Any]]] | None = None,
           params: dict[str, Any] | None = None) -> dict[str, Any]:
    return build_group(tc, HANDLERS, op, tests, [(c, i, "BadParameter") for c, i in invalid or []],
                       params or {}, rejects=(ValueError, TypeError, ArithmeticError))


def _theorems_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    g = [_group(P + "theorems", [
        ("eps 1, delta 1e-6, sensitivity absent (default 1)", {"eps": "1", "delta": "1e-6"},
         ["Default"]),
        ("eps 2, delta 0.5, Delta 2", {"eps": "2", "delta": "0.5", "sensitivity": 2}, []),
        ("eps 0.5, delta 1e-3, Delta 1", {"eps": "0.5", "delta": "1e-3", "sensitivity": 1}, []),
    ], tc, [
        ("eps 0", {"eps": "0", "delta": "1e-6"}),
        ("eps -1", {"eps": "-1", "delta": "1e-6"}),
        ("delta 0", {"eps": "1", "delta": "0"}),
        ("delta 1", {"eps": "1", "delta": "1"}),
        ("sensitivity 0", {"eps": "1", "delta": "1e-6", "sensitivity": 0}),
    ])]
    g.append(_group(P + "theorem18", [
        ("eps1 0 and eps2 0 (allowed)", {"eps1": "0", "eps2": "0", "delta2": "1e-3",
                                         "delta3": "1e-4"}, ["Boundary"]),
        ("delta2 0 and delta3 0 (allowed)", {"eps1": "0.5", "eps2": "0.25", "delta2": "0",
                                             "delta3": "0"}, ["Boundary"]),
        ("delta2 1: delta capped at 1", {"eps1": "0.1", "eps2": "0.2", "delta2": "1",
                                         "delta3": "1e-9"}, ["Boundary"]),
        ("delta3 1: delta capped at 1", {"eps1": "0.1", "eps2": "0.2", "delta2": "0",
                                         "delta3": "1"}, ["Boundary"]),
        ("eps1 1, eps2 0.5", {"eps1": "1", "eps2": "0.5", "delta2": "1e-7", "delta3": "1e-8"},
         []),
    ], tc, [
        ("eps1 -0.1", {"eps1": "-0.1", "eps2": "0", "delta2": "0", "delta3": "0"}),
        ("eps2 -0.5", {"eps1": "0", "eps2": "-0.5", "delta2": "0", "delta3": "0"}),
        ("eps2 -1e-9", {"eps1": "0", "eps2": "-1e-9", "delta2": "0", "delta3": "0"}),
        ("delta2 -0.1", {"eps1": "0", "eps2": "0", "delta2": "-0.1", "delta3": "0"}),
        ("delta2 1.5", {"eps1": "0", "eps2": "0", "delta2": "1.5", "delta3": "0"}),
        ("delta3 -0.1", {"eps1": "0", "eps2": "0", "delta2": "0", "delta3": "-0.1"}),
        ("delta3 1.5", {"eps1": "0", "eps2": "0", "delta2": "0", "delta3": "1.5"}),
    ]))
    g.append(_group(P + "correlated", [
        ("eps1 1, eps2 0.5, NB(3.5, 0.9), sensitivity absent (default 1)",
         {"eps1": "1", "eps2": "0.5", "r": "3.5", "p": "0.9"}, ["Default"]),
        ("eps1 0.5, eps2 1, NB(20, 0.9), Delta 2", {"eps1": "0.5", "eps2": "1", "r": "20",
                                                    "p": "0.9", "sensitivity": 2}, []),
        ("eps1 5, eps2 1, NB(20, 0.9), Delta 3: delta below 1 (2 e^(2 eps1) delta3 = 2 e^-10)",
         {"eps1": "5", "eps2": "1", "r": "20", "p": "0.9", "sensitivity": 3}, []),
    ], tc, [
        ("eps1 0", {"eps1": "0", "eps2": "0.5", "r": "3.5", "p": "0.9"}),
        ("sensitivity 0", {"eps1": "1", "eps2": "0.5", "r": "3.5", "p": "0.9",
                           "sensitivity": 0}),
        ("r 0.5", {"eps1": "1", "eps2": "0.5", "r": "0.5", "p": "0.9"}),
    ]))
    return g


def _poi(eps: str, lam: str, s: int | None = None) -> dict[str, Any]:
    d: dict[str, Any] = {"mechanism": "poisson", "eps": eps, "lambda": lam}
    if s is not None:
        d["sensitivity"] = s
    return d


def _nb(eps: str, r: str, p: str, s: int | None = None) -> dict[str, Any]:
    d: dict[str, Any] = {"mechanism": "negative-binomial", "eps": eps, "r": r, "p": p}
    if s is not None:
        d["sensitivity"] = s
    return d


def _mechanism_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    op = P + "mechanism_delta"
    return [_group(op, [
        ("Poisson, eps 0, lambda 1: L(1) = 0 exactly equals the level, so k1 = t2 = 2",
         _poi("0", "1", 1), ["Boundary"]),
        ("Poisson, eps 1, lambda 0.5, sensitivity absent: k1 = s + 1 (sf(1) read), t2 = s",
         _poi("1", "0.5"), ["Boundary", "Default"]),
        ("Poisson, eps 0.5, lambda 0.5: L(1) = ln 2 > eps, so k1 = s and sf(0) = 1 is read",
         _poi("0.5", "0.5", 1), ["Boundary"]),
        ("Poisson, eps 0.5, lambda 3, Delta 2: the shift 2 is the worst",
         _poi("0.5", "3", 2), []),
        ("Poisson, eps 0.2, lambda 40, Delta 3: thresholds far from s",
         _poi("0.2", "40", 3), []),
        ("NB, eps 0 (allowed), r 1 (allowed), p 0.5, Delta 2: sf(0) read",
         _nb("0", "1", "0.5", 2), ["Boundary"]),
        ("NB, eps = ln 2 = the loss supremum -ln p at p 0.5: k1 null (eps >= sup)",
         _nb(LN2, "2", "0.5", 1), ["Boundary"]),
        ("NB, eps 0.5, r 3.5, p 0.9, Delta 2, sensitivity absent", _nb("0.5", "3.5", "0.9"),
         ["Default"]),
        ("NB, eps 0.1 just below the supremum -ln 0.9: k1 in the far upper tail",
         _nb("0.1", "3.5", "0.9", 1), ["Boundary"]),
        ("NB, eps 0.1, r 1.5, p 0.99: mode 49, k1 in the far upper tail",
         _nb("0.1", "1.5", "0.99", 1), []),
        ("NB, eps 3, r 60, p 0.95: lower tails near 1e-75, far below the mode 1121",
         _nb("3", "60", "0.95", 1), []),
        ("NB, eps 0.3, r 60, p 0.95: lower tails near 1e-30 at k 140, far below the mode",
         _nb("0.3", "60", "0.95", 1), []),
        ("NB, eps 0.105 closer to the supremum -ln 0.9: upper tails near 1e-311 at k 6933",
         _nb("0.105", "3.5", "0.9", 1), ["Boundary"]),
        ("NB, eps 2, r 20, p 0.9, Delta 2", _nb("2", "20", "0.9", 2), []),
        ("NB, eps 0.01, r 20, p 0.5, Delta 2: k1 - s at or below the mode 19 (sf(18), sf(19)"
         " contain the mode)", _nb("0.01", "20", "0.5", 2), ["Boundary"]),
        ("NB, eps 0.5, r 2, p 1 - 10^-20 (mode 10^20): lower tails near 1e-40, summed directly",
         _nb("0.5", "2", "0.99999999999999999999", 1), ["Boundary"]),
    ], tc, [
        ("Poisson eps -0.1", _poi("-0.1", "1")),
        ("Poisson lambda 0", _poi("1", "0")),
        ("Poisson sensitivity 0", _poi("1", "1", 0)),
        ("NB eps -0.1", _nb("-0.1", "2", "0.5")),
        ("NB eps -1e-9", _nb("-1e-9", "2", "0.5")),
        ("NB r 0.999 (below 1)", _nb("1", "0.999", "0.5")),
        ("NB p 0", _nb("1", "2", "0")),
        ("NB p 1", _nb("1", "2", "1")),
        ("NB sensitivity 0", _nb("1", "2", "0.5", 0)),
        ("unknown mechanism", {"mechanism": "binomial", "eps": "1"}),
    ])]


def _minimal_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    op = P + "minimal_parameter"
    return [_group(op, [
        ("Poisson eps 2, delta 0.1, digits 3: the bracket halves down from Theorem 11's lambda",
         {"mechanism": "poisson", "eps": "2", "delta": "0.1", "sensitivity": 1, "digits": 3}, []),
        ("Poisson eps 1, delta 0.01, sensitivity and digits absent (defaults 1, 10)",
         {"mechanism": "poisson", "eps": "1", "delta": "0.01"}, ["Default"]),
        ("NB eps 1, delta 1e-3, p absent (Theorem 13's), digits 3",
         {"mechanism": "negative-binomial", "eps": "1", "delta": "1e-3", "digits": 3},
         ["Default"]),
        ("NB eps 1, delta 1e-3, p 0.5, digits 3: start 10 fails, one doubling",
         {"mechanism": "negative-binomial", "eps": "1", "delta": "1e-3", "p": "0.5",
          "digits": 3}, ["Boundary"]),
        ("NB eps 1, delta 0.45, p 0.5, digits 4: the answer 1.15 below 1.25, lo reaches the"
         " floor 1",
         {"mechanism": "negative-binomial", "eps": "1", "delta": "0.45", "p": "0.5",
          "digits": 4}, ["Boundary"]),
        ("NB eps 1, delta 0.5, p 0.5: delta'(1) <= delta, the answer is 1",
         {"mechanism": "negative-binomial", "eps": "1", "delta": "0.5", "p": "0.5",
          "digits": 3}, ["Boundary"]),
        ("NB eps 1, delta 0.01, p 0.5, digits absent (default 10)",
         {"mechanism": "negative-binomial", "eps": "1", "delta": "0.01", "p": "0.5"},
         ["Default"]),
        ("NB eps 1, delta 1e-3, p 0.5, Delta 2, digits 3",
         {"mechanism": "negative-binomial", "eps": "1", "delta": "1e-3", "p": "0.5",
          "sensitivity": 2, "digits": 3}, []),
    ], tc, [
        ("eps 0", {"mechanism": "poisson", "eps": "0", "delta": "0.1"}),
        ("delta 0", {"mechanism": "poisson", "eps": "1", "delta": "0"}),
        ("delta 1", {"mechanism": "negative-binomial", "eps": "1", "delta": "1"}),
        ("p 1", {"mechanism": "negative-binomial", "eps": "1", "delta": "0.1", "p": "1"}),
        ("unknown mechanism", {"mechanism": "binomial", "eps": "1", "delta": "0.1"}),
        ("digits 31, above the 30 a 40-digit search can deliver",
         {"mechanism": "poisson", "eps": "2", "delta": "0.1", "digits": 31}),
        ("digits 0", {"mechanism": "negative-binomial", "eps": "1", "delta": "1e-3", "digits": 0}),
        ("digits 31 where the answer is r = 1 without a search",
         {"mechanism": "negative-binomial", "eps": "1", "delta": "0.5", "p": "0.5", "digits": 31}),
    ]), _group(op, [
        ("Poisson eps 2, delta 0.1, digits 30: the most digits allowed (the answer is ln 10)",
         {"mechanism": "poisson", "eps": "2", "delta": "0.1", "digits": 30}, ["Boundary"]),
        ("NB eps 1, p 0.9, digits 1: the bracket reaches lo = 9.755859375, hi = 9.765625, where"
         " hi - lo = 10^-(digits + 2) hi exactly (a tie of dyadic values): the search stops there",
         {"mechanism": "negative-binomial", "eps": "1", "delta": "1.4436844402444654708e-8",
          "p": "0.9", "sensitivity": 1, "digits": 1}, ["Boundary"]),
    ], tc)]


_FILES = {
    "theorems": ("Theorems 11, 13 and 18 and the correlated mechanism", _theorems_doc),
    "mechanism_delta": ("exact delta of the Poisson and negative-binomial mechanisms",
                        _mechanism_doc),
    "minimal_parameter": ("the smallest noise parameter (bisection transcript)", _minimal_doc),
}


class AccountingGhaziFamily(AccountingFilesFamily):
    """Its own ops, files and schema; cases and compare as the accounting family's (per-op
    tolerances, here this module's :data:`TOLERANCE`)."""

    name = NAME
    summary = "decision points of the [GKMP20] shuffled-model counting accountant"
    tolerance = TOLERANCE
    schema = SCHEMA
    header = HEADER
    notes = NOTES
    handler_table = HANDLERS
    arg_names = _ARG_NAMES
    file_table = _FILES


FAMILY = AccountingGhaziFamily()
