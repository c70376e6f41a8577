"""Vector family ``accounting-budget``: the decision points of the on-device budget accountant
(dpspec.spec.accounting.budget, MJTB+22 sec. 4.3), of the composition theorems
(dpspec.spec.accounting.composition) and of the moments accountant's zCDP fallback
(dpspec.spec.accounting.subsampling) that the ``accounting`` and ``accounting-curves`` families
leave open: both sides of each comparison, every input check, the persisted state text, the
composed (eps, delta) of each budget row and the number of steps of the optimal-composition
bisection.

Outputs are compared like the ``accounting`` family's (``|got - want| <= max(rel |want|, abs)`` for
numeric strings, anything else exactly), with the tolerance of each op in :data:`TOLERANCE`.
"""

from __future__ import annotations

import json
from typing import Any

import mpmath

from dpspec.conformance.families._groups import build_group, counted_calls, memoised
from dpspec.conformance.families.accounting import AccountingFilesFamily, published
from dpspec.conformance.vectors import (
    Handler,
    TestNumberer,
    binary64_text,
)
from dpspec.spec.accounting import composition, subsampling
from dpspec.spec.accounting.budget import (
    Accountant,
    AnalysisBudget,
    FieldBudget,
    Query,
)
from dpspec.spec.accounting.numeric import positive_int, to_fraction

SCHEMA = "accounting_budget-v1.json"
NAME = "accounting-budget"
P = "accounting_budget."

#: transcripts carry the binary64 cohort eps of check 3 (8 digits, 1e-7 relative); everything else
#: in them (decisions, reasons, the state and its text) is compared exactly
B64 = (1e-7, 1e-15)
#: mpmath values at 40 digits rounded up to 20 significant digits
MP = (1e-15, 0.0)


TOLERANCE: dict[str, tuple[float, float]] = {
    P + "budget_transcript": B64,
    P + "composition": MP,
    P + "subsampled_gaussian_epsilon": (1e-12, 0.0),
}


def _pair(p: tuple[Any, Any]) -> list[Any]:
    return [published(p[0]), published(p[1])]


# -- reference handlers -----------------------------------------------------------------------
def _fresh(doc: Any) -> Accountant:
    """An accountant built from allowances alone with the spec's constructors (nothing used yet:
    the defaults of AnalysisBudget / FieldBudget / Accountant), as a device creates it."""
    if not isinstance(doc, dict):
        raise ValueError("fresh must be an object")
    kw: dict[str, Any] = {}
    for key, name in (("bound", "bound"), ("composition", "composition"),
                      ("localModel", "local_model")):
        if key in doc:
            kw[name] = doc[key]
    if "deltaSlack" in doc:
        kw["delta_slack"] = to_fraction(doc["deltaSlack"], "deltaSlack")
    acc = Accountant(to_fraction(doc["delta"], "delta"), **kw)
    for n, a in doc.get("analyses", {}).items():
        acc.analyses[n] = AnalysisBudget(to_fraction(a["epsAllowed"], "epsAllowed"),
                                         positive_int(a["kAllowed"], "kAllowed", 0))
    for n, f in doc.get("fields", {}).items():
        acc.fields[n] = FieldBudget(to_fraction(f["epsLocalAllowed"], "epsLocalAllowed"),
                                    to_fraction(f["epsAllowed"], "epsAllowed"),
                                    positive_int(f["kAllowed"], "kAllowed", 0))
    return acc


def h_budget(a: dict[str, Any]) -> dict[str, Any]:
    if "fresh" in a:
        acc = _fresh(a["fresh"])
    elif "policyText" in a:
        acc = Accountant.from_json(a["policyText"])
    else:
        acc = Accountant.from_dict(a["policy"])
    decisions = []
    for q in a["queries"]:
        d = acc.commit(Query.make(q["analysis"], q["fields"], q["eps0"], q["eps"], q["minCohort"],
                                  q.get("queryId")))
        decisions.append({"allowed": d.allowed, "failedCheck": d.check, "reason": d.reason,
                          "cohortEps": None if d.cohort_eps is None
                          else binary64_text(d.cohort_eps)})
    composed = {
        "analyses": {n: _pair(acc.composed(b.eps_used, b.eps_max, b.k_used))
                     for n, b in sorted(acc.analyses.items())},
        "fields": {n: _pair(acc.composed(b.eps_used, b.eps_max, b.k_used))
                   for n, b in sorted(acc.fields.items())},
    }
    text = acc.to_json()
    return {"decisions": decisions, "state": json.loads(text), "stateText": text,
            "composed": composed, "impliedLocalBound": acc.implied_local_bound()}


def _bisection(a: dict[str, Any]) -> dict[str, Any]:
    """optimal_composition_epsilon, and how many times it evaluated optimal_composition_delta
    (the two end checks plus one per bisection step): the calls are counted by wrapping the
    module's function for the duration of the call, the search itself is the spec's."""
    with counted_calls(composition, "optimal_composition_delta") as calls:
        v = composition.optimal_composition_epsilon(a["eps"], a["delta"], a["k"],
                                                    a["deltaTotal"])
    return {"value": published(v), "evaluations": calls[0]}


def h_composition(a: dict[str, Any]) -> dict[str, Any]:
    fn = a["function"]
    if fn == "basic_composition":
        g = a["guarantees"]
        if not isinstance(g, list) or not all(isinstance(x, list) and len(x) == 2 for x in g):
            raise ValueError("guarantees must be a list of [eps, delta] pairs")
        return {"value": _pair(composition.basic_composition([(e, d) for e, d in g]))}
    if fn == "advanced_composition":
        return {"value": _pair(composition.advanced_composition(a["eps"], a["delta"], a["k"],
                                                                a["deltaSlack"]))}
    if fn == "kov_composition":
        return {"value": _pair(composition.kov_composition(a["eps"], a["delta"], a["k"],
                                                          a["deltaSlack"]))}
    if fn == "optimal_composition_delta":
        return {"value": published(composition.optimal_composition_delta(a["eps"], a["delta"], a["k"],
                                                                         a["epsTotal"]))}
    if fn == "optimal_composition_epsilon":
        return _bisection(a)
    if fn == "randomized_donation_time":
        r = composition.randomized_donation_time(a["eps"], a["delta"], a["m"])
        return {"roundEps": published(r.round_eps), "roundDelta": published(r.round_delta),
                "epsPaper": published(r.eps_paper), "deltaPaper": published(r.delta_paper),
                "epsKov": published(r.eps_kov), "deltaKov": published(r.delta_kov)}
    raise ValueError(f"unknown function {fn!r}")


def h_subsampled(a: dict[str, Any]) -> dict[str, Any]:
    eps, order = subsampling.subsampled_gaussian_epsilon(a["q"], a["sigma"], a["steps"],
                                                         a["delta"], a["orders"])
    return {"eps": published(eps, 15), "order": str(mpmath.nstr(order, 20))}


HANDLERS: dict[str, Handler] = {
    P + "budget_transcript": h_budget,
    P + "composition": h_composition,
    P + "subsampled_gaussian_epsilon": h_subsampled,
}


HANDLERS = {op: memoised(h) for op, h in HANDLERS.items()}


_ARG_NAMES: dict[str, tuple[str, ...]] = {
    P + "budget_transcript": ("policy", "policyText", "fresh", "queries"),
    P + "composition": ("function", "guarantees", "eps", "delta", "k", "deltaSlack", "epsTotal",
                        "deltaTotal", "m"),
    P + "subsampled_gaussian_epsilon": ("q", "sigma", "steps", "delta", "orders"),
}


HEADER = [
    "Privacy accounting, decision points (module dpspec.spec.accounting): the on-device budget"
    " accountant of MJTB+22 sec. 4.3 (budget), the composition theorems (composition: [DR14] Thm"
    " 3.16 and 3.20, [KOV15] Thm 3.3 and 3.5, SA2 App. A) and the zCDP fallback of the moments"
    " accountant (subsampling). Cases sit on both sides of each comparison, at each validity"
    " limit, and every input check has an invalid case.",
    "Encodings: numbers are decimal or rational strings (\"0.5\", \"1/3\", \"1e-6\"); sizes are JSON"
    " integers (a decimal-integer string is read the same way, numeric.positive_int). mpmath values"
    " (40 significant digits) are published rounded up (toward +infinity) to 20 significant"
    " digits (15 for subsampled_gaussian_epsilon's eps), as compact decimals. The cohort eps of"
    " check 3 is binary64 (the shuffle bounds of dpspec.spec.accounting.shuffle), rounded to 8"
    " significant digits away from rounding boundaries.",
    "Tolerance (rel, abs) per op, |got - want| <= max(rel |want|, abs) on numeric strings, anything"
    " else exact: " + "; ".join(f"{op.split('.', 1)[1]} ({r:g}, {ab:g})"
                               for op, (r, ab) in sorted(TOLERANCE.items())) + ".",
    "budget_transcript: the accountant of MJTB+22 sec. 4.3 (checks 1 analysis, 2 field, 3 cohort"
    " bound at the policy's delta, 4 query class run first; failedCheck 0 = allowed), queries"
    " committed in order. The accountant is read from `policy` (a JSON object: a state whose used"
    " fields may be omitted), `policyText` (the same as JSON text) or built from `fresh`"
    " (allowances alone: nothing used, epsMax 0, deltaSlack absent unless given). Outputs: each"
    " decision (allowed, failedCheck, reason text, cohortEps or null), the state as an object and"
    " as its persisted text `stateText` (JSON with keys sorted, 2-space indent, a final newline;"
    " rationals as decimals when finite, else p/q; epsMax and composition only in advanced mode),"
    " `composed`: Accountant.composed(eps_used, eps_max, k_used) of every analysis and field"
    " ([eps, delta]: basic = (eps_used, k_used delta); advanced with k_used > 0 = (min(basic,"
    " [DR14] Thm 3.20 of k_used queries of eps_max with slack deltaSlack), max(k_used delta, k_used"
    " delta + deltaSlack))), and impliedLocalBound (eps_local_allowed x k_allowed per field; the"
    " largest field's eps_local_allowed (0 without fields) x k_allowed per analysis).",
    "composition: `function` names the spec function. basic_composition: (sum eps_i, min(sum"
    " delta_i, 1)) with each delta in [0, 1]; advanced_composition: (eps sqrt(2k ln(1/slack)) + k"
    " eps (e^eps - 1), min(k delta + slack, 1)), delta in [0, 1], slack in (0, 1), k >= 1;"
    " kov_composition: [KOV15] Thm 3.5, min(k eps, drift + eps sqrt(2k ln(e + sqrt(k eps^2)/slack)),"
    " drift + eps sqrt(2k ln(1/slack))), drift = k eps tanh(eps/2), delta 1 - (1-delta)^k (1 -"
    " slack); optimal_composition_delta: [KOV15] Thm 3.3, the sum over l = k, k-1, ... while eps (2l"
    " - k) > epsTotal of C(k, l)(e^(l eps) - e^(epsTotal + (k-l) eps))/(1 + e^eps)^k, then 1 - (1 -"
    " delta)^k (1 - sum); optimal_composition_epsilon: bisection on [0, k eps] (refused when"
    " delta'(k eps) > deltaTotal; 0 when delta'(0) <= deltaTotal; else halve while hi - lo >"
    " 10^-25 max(hi, 1), at most 200 times, keeping delta'(hi) <= deltaTotal), `value` = hi and"
    " `evaluations` = the number of delta' evaluations (2 end checks + 1 per step);"
    " randomized_donation_time: SA2 App. A (as in the accounting family's donation_time).",
    "subsampled_gaussian_epsilon: as in the accounting family (steps x sampled-Gaussian RDP over"
    " `orders`, SA2 Thm 1, minimised), and the zCDP bound of the unsampled Gaussian (rho = steps /"
    " (2 sigma^2), converted at its optimal order) when smaller; `order` is then 0.",
    "Invalid: every input check (out-of-domain parameters, malformed policies, sizes below their"
    " minimum).",
]


NOTES = {
    "Boundary": "parameters on or next to a decision point (a budget limit met exactly, a"
                " validity limit, a cap, the first or last step of a loop)",
    "BadParameter": "an argument outside its domain; the implementation must reject it",
}


def _group(op: str, tests: list[tuple[str, dict[str, Any], list[str]]], tc: TestNumberer,
           invalid: list[tuple[str, dict[str, Any]]] | None = None,
           params: dict[str, Any] | None = None) -> dict[str, Any]:
    return build_group(tc, HANDLERS, op, tests, [(c, i, "BadParameter") for c, i in invalid or []],
                       params or {}, rejects=(ValueError, TypeError, ArithmeticError))


def _q(eps0: str, eps: str, m: int, fields: list[str] | None = None, analysis: str = "kb"
       ) -> dict[str, Any]:
    return {"analysis": analysis, "fields": ["ngram"] if fields is None else fields,
            "eps0": eps0, "eps": eps, "minCohort": m}


def _budget_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    op = P + "budget_transcript"
    base: dict[str, Any] = {
        "format": "dpspec-budget-v1", "delta": "1e-6", "bound": "fmt20",
        "analyses": {"kb": {"epsAllowed": "1", "kAllowed": 3}},
        "fields": {"ngram": {"epsLocalAllowed": "4", "epsAllowed": "1", "kAllowed": 2},
                   "age": {"epsLocalAllowed": "2", "epsAllowed": "1/2", "kAllowed": 3}}}
    adv = {**base, "composition": {"mode": "advanced", "deltaSlack": "1e-6"},
           "analyses": {"kb": {"epsAllowed": "0.5", "kAllowed": 10}},
           "fields": {"ngram": {"epsLocalAllowed": "4", "epsAllowed": "0.5", "kAllowed": 10}}}
    wide = {**adv, "composition": {"mode": "advanced", "deltaSlack": "0.9"},
            "analyses": {"kb": {"epsAllowed": "0.08", "kAllowed": 10}},
            "fields": {"ngram": {"epsLocalAllowed": "4", "epsAllowed": "1", "kAllowed": 10}}}

    def an(**kw: Any) -> dict[str, Any]:
        return {**base, "analyses": {"kb": {"epsAllowed": "1", "kAllowed": 3, **kw}}}

    def fd(**kw: Any) -> dict[str, Any]:
        return {**base, "fields": {"ngram": {"epsLocalAllowed": "4", "epsAllowed": "1",
                                             "kAllowed": 2, **kw}}}

    g = [_group(op, [
        ("basic: eps0 0 and eps 0 (cohort eps 0 <= 0: allowed), then 0.25 twice; composed delta"
         " k_used x 1e-6", {"policy": base, "queries": [_q("0", "0", 2), _q("0", "0.25", 2),
                                                         _q("0", "0.25", 2, ["age"])]},
         ["Boundary"]),
        ("advanced: 0.2 then 0.3 meet the analysis's 0.5 exactly (basic is the smaller bound),"
         " then 0.01 is refused", {"policy": adv, "queries": [_q("0", "0.2", 2), _q("0", "0.3", 2),
                                                               _q("0", "0.01", 2)]},
         ["Boundary"]),
        ("advanced, slack 0.9: a single query of 0.1 composes to about 0.0564 < 0.08 ([DR14] Thm"
         " 3.20 at k 1 below basic) and is allowed; the second (0.2 over two queries) is refused",
         {"policy": wide, "queries": [_q("0", "0.1", 2), _q("0", "0.1", 2)]}, ["Boundary"]),
        ("advanced, nothing spent: composed (0, 0) at k_used 0", {"policy": adv, "queries": []},
         ["Boundary"]),
        ("an analysis and no fields: implied analysis bound 0 (no field budget); every query"
         " names an unknown field", {"policy": {**base, "fields": {}},
                                     "queries": [_q("0", "0.1", 2)]}, ["Boundary"]),
        ("analysis kAllowed 0: allowed, and every query is refused by check 1",
         {"policy": an(kAllowed=0), "queries": [_q("0", "0.1", 2)]}, ["Boundary"]),
        ("field kAllowed 0: allowed, and a query reading it is refused by check 2",
         {"policy": fd(kAllowed=0), "queries": [_q("0", "0.1", 2), _q("0", "0.1", 2, ["age"])]},
         ["Boundary"]),
        ("fresh accountant in advanced mode from allowances alone: epsMax 0 in the state",
         {"fresh": {"delta": "1e-6", "composition": "advanced", "deltaSlack": "1e-6",
                    "analyses": {"kb": {"epsAllowed": "1", "kAllowed": 3}},
                    "fields": {"ngram": {"epsLocalAllowed": "4", "epsAllowed": "1",
                                         "kAllowed": 2}}},
          "queries": []}, ["Boundary"]),
        ("fresh accountant in advanced mode, one query of 0.3: epsMax 0.3",
         {"fresh": {"delta": "1e-6", "composition": "advanced", "deltaSlack": "1e-6",
                    "analyses": {"kb": {"epsAllowed": "1", "kAllowed": 3}},
                    "fields": {"ngram": {"epsLocalAllowed": "4", "epsAllowed": "1",
                                         "kAllowed": 2}}},
          "queries": [_q("0", "0.3", 2)]}, []),
        ("fresh basic accountant (defaults: fmt20, basic, replacement)",
         {"fresh": {"delta": "1e-6", "analyses": {"kb": {"epsAllowed": "1", "kAllowed": 3}},
                    "fields": {"ngram": {"epsLocalAllowed": "4", "epsAllowed": "1",
                                         "kAllowed": 2}}},
          "queries": [_q("0", "1/3", 2)]}, []),
    ], tc, [
        ("query with cohort 1 (eps0 0, so no bound is evaluated)",
         {"policy": base, "queries": [_q("0", "0.1", 1)]}),
        ("query with cohort 1 for an unknown analysis",
         {"policy": base, "queries": [_q("0", "0.1", 1, analysis="mail")]}),
        ("advanced with deltaSlack 1", {"policy": {**adv, "composition": {
            "mode": "advanced", "deltaSlack": "1"}}, "queries": []}),
        ("analysis kAllowed -1", {"policy": an(kAllowed=-1), "queries": []}),
        ("analysis kUsed -1", {"policy": an(kUsed=-1), "queries": []}),
        ("field kAllowed -1", {"policy": fd(kAllowed=-1), "queries": []}),
        ("field kUsed -1", {"policy": fd(kUsed=-1), "queries": []}),
        ("fresh with delta 0", {"fresh": {"delta": "0"}, "queries": []}),
    ])]
    return g


def _composition_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    op = P + "composition"

    def fn(name: str, tests: list[tuple[str, dict[str, Any], list[str]]],
           invalid: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
        return _group(op, tests, tc, invalid, {"function": name})

    g = [
        fn("basic_composition", [
            ("a delta of 1 is allowed", {"guarantees": [["0.1", "1"], ["0.2", "0"]]},
             ["Boundary"]),
            ("deltas summing above 1 are capped at 1", {"guarantees": [["0.1", "0.6"],
                                                                       ["0.1", "0.7"]]},
             ["Boundary"]),
        ], [("a delta above 1", {"guarantees": [["0.1", "1.5"]]}),
            ("a negative eps", {"guarantees": [["-0.1", "0"]]})]),
        fn("advanced_composition", [
            ("delta 1 (allowed), k 2: k delta + slack capped at 1",
             {"eps": "0.1", "delta": "1", "k": 2, "deltaSlack": "1e-6"}, ["Boundary"]),
            ("k 1, slack 0.9", {"eps": "0.1", "delta": "0", "k": 1, "deltaSlack": "0.9"}, []),
        ], [("k 0", {"eps": "0.1", "delta": "0", "k": 0, "deltaSlack": "1e-6"}),
            ("slack 0", {"eps": "0.1", "delta": "0", "k": 2, "deltaSlack": "0"}),
            ("slack 1", {"eps": "0.1", "delta": "0", "k": 2, "deltaSlack": "1"}),
            ("delta above 1", {"eps": "0.1", "delta": "1.5", "k": 2, "deltaSlack": "1e-6"})]),
        fn("kov_composition", [
            ("delta 1 (allowed)", {"eps": "0.1", "delta": "1", "k": 2, "deltaSlack": "1e-6"},
             ["Boundary"]),
            ("k 400, eps 0.1: the third bound (ln(1/slack)) is the smallest",
             {"eps": "0.1", "delta": "0", "k": 400, "deltaSlack": "1e-6"}, ["Boundary"]),
            ("k 50, eps 0.1: the second bound is the smallest",
             {"eps": "0.1", "delta": "1e-7", "k": 50, "deltaSlack": "1e-6"}, []),
        ], [("k 0", {"eps": "0.1", "delta": "0", "k": 0, "deltaSlack": "1e-6"}),
            ("slack 0", {"eps": "0.1", "delta": "0", "k": 2, "deltaSlack": "0"})]),
        fn("optimal_composition_delta", [
            ("delta 1 (allowed): delta' 1", {"eps": "0.5", "delta": "1", "k": 3, "epsTotal": "0.2"},
             ["Boundary"]),
            ("k 1, epsTotal 0.5 below eps 1: only l = 1 counts", {"eps": "1", "delta": "0", "k": 1,
                                                                "epsTotal": "0.5"}, ["Boundary"]),
            ("k 1, epsTotal 1 = eps: no term", {"eps": "1", "delta": "0", "k": 1, "epsTotal": "1"},
             ["Boundary"]),
            ("eps 0: no term, delta' = 1 - (1 - delta)^k", {"eps": "0", "delta": "0.5", "k": 2,
                                                          "epsTotal": "0"}, ["Boundary"]),
        ], [("k 0", {"eps": "1", "delta": "0", "k": 0, "epsTotal": "0.5"}),
            ("negative epsTotal", {"eps": "1", "delta": "0", "k": 1, "epsTotal": "-0.5"})]),
        fn("optimal_composition_epsilon", [
            ("k 10 of (0.1, 0), deltaTotal 1e-6", {"eps": "0.1", "delta": "0", "k": 10,
                                                   "deltaTotal": "1e-6"}, []),
            ("deltaTotal exactly delta'(k eps) = 1 - (1 - 0.5)^1: accepted, answer 1",
             {"eps": "1", "delta": "0.5", "k": 1, "deltaTotal": "0.5"}, ["Boundary"]),
            ("answer below 1 (width relative to 1)", {"eps": "0.05", "delta": "0", "k": 3,
                                                      "deltaTotal": "0.01"}, []),
            ("answer between 1 and 2", {"eps": "0.5", "delta": "0", "k": 3, "deltaTotal": "0.02"},
             []),
            ("answer about 10", {"eps": "2", "delta": "0", "k": 5, "deltaTotal": "1e-9"}, []),
            ("deltaTotal above delta'(0): 0", {"eps": "0.1", "delta": "0", "k": 2,
                                               "deltaTotal": "0.9"}, ["Boundary"]),
        ], [("deltaTotal just below delta'(k eps) = 0.5", {"eps": "1", "delta": "0.5", "k": 1,
                                                           "deltaTotal": "0.4999"}),
            ("deltaTotal above 1", {"eps": "1", "delta": "0", "k": 1, "deltaTotal": "1.5"})]),
        fn("randomized_donation_time", [
            ("m given as the decimal-integer string '10'", {"eps": "1", "delta": "1e-8",
                                                            "m": "10"}, []),
            ("m 1: no amplification", {"eps": "1", "delta": "1e-8", "m": 1}, ["Boundary"]),
        ], [("m 0", {"eps": "1", "delta": "1e-8", "m": 0}),
            ("m '0'", {"eps": "1", "delta": "1e-8", "m": "0"}),
            ("m 2.5", {"eps": "1", "delta": "1e-8", "m": 2.5})]),
    ]
    return g


def _subsampling_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    op = P + "subsampled_gaussian_epsilon"
    orders = ["2", "4", "8", "16", "32", "64"]
    return [_group(op, [
        ("sigma 1000, one step: the zCDP bound (rho 1/(2 10^6)) beats every listed order",
         {"q": "0.5", "sigma": "1000", "steps": 1, "delta": "1e-8"}, ["Boundary"]),
        ("sigma 2, 10 steps: an order of the list wins", {"q": "0.5", "sigma": "2", "steps": 10,
                                                          "delta": "1e-8"}, []),
        ("q 0: nothing released", {"q": "0", "sigma": "2", "steps": 10, "delta": "1e-8"},
         ["Boundary"]),
    ], tc, [("steps 0", {"q": "0.5", "sigma": "2", "steps": 0, "delta": "1e-8"}),
            ("steps above 10^15", {"q": "0.5", "sigma": "2", "steps": 10**15 + 1,
                                   "delta": "1e-8"}),
            ("sigma 0", {"q": "0.5", "sigma": "0", "steps": 1, "delta": "1e-8"})],
        {"orders": orders})]


_FILES = {
    "budget": ("the budget accountant's decision points (MJTB+22 sec. 4.3)", _budget_doc),
    "composition": ("composition theorems' decision points", _composition_doc),
    "subsampling": ("the moments accountant's zCDP fallback", _subsampling_doc),
}


class AccountingBudgetFamily(AccountingFilesFamily):
    """Its own ops, files and schema; cases and compare as the accounting family's (per-op
    tolerances, here this module's :data:`TOLERANCE`)."""

    name = NAME
    summary = ("decision points of the budget accountant, the composition theorems and the"
               " moments accountant's zCDP fallback")
    tolerance = TOLERANCE
    schema = SCHEMA
    header = HEADER
    notes = NOTES
    handler_table = HANDLERS
    arg_names = _ARG_NAMES
    file_table = _FILES


FAMILY = AccountingBudgetFamily()
