"""Vector family ``accounting-definitions``: the privacy definitions and conversions of
dpspec.spec.accounting.definitions (and the Laplace calibration of accounting.laplace) at the
decision points the ``accounting`` family leaves open.

Hockey-stick and Renyi divergences of finite distributions (SA2 Definitions 2.1 and 2.2) with
zero masses on either side; the RDP -> (eps, delta) conversions of [Mir17] Proposition 3 and SA2
Theorem 1 (= [CKS20] Proposition 12) in both directions, at the order limit alpha = 1; the
minimisation of an RDP curve over Renyi orders with the orders the spec evaluates (its default
list when none is given); the zCDP -> (eps, delta) conversion of [BS16] Proposition 1.3 and of
[CKS20] Corollary 13 with the golden-section search's bracket and number of steps; the Laplace
mechanism's epsilon and scale ([DR14] Theorem 3.6) with the default sensitivity.

Outputs are compared like the ``accounting`` family's (``|got - want| <= max(rel |want|, abs)`` for
numeric strings, anything else exactly), with the tolerance of each op in :data:`TOLERANCE`.
"""

from __future__ import annotations

from typing import Any

import mpmath

from dpspec.conformance.families._groups import build_group, memoised, replaced
from dpspec.conformance.families.accounting import AccountingFilesFamily, decimal_list, optional, published
from dpspec.conformance.vectors import Handler, TestNumberer
from dpspec.spec.accounting import definitions, laplace, numeric

SCHEMA = "accounting_definitions-v1.json"
NAME = "accounting-definitions"
P = "accounting_definitions."

#: mpmath values at 40 digits rounded up to 20 significant digits, compared relatively (no
#: absolute floor: the tiny epsilons of nearly private curves are compared too)
MP = (1e-15, 0.0)


TOLERANCE: dict[str, tuple[float, float]] = {
    P + "hockey_stick": MP,
    P + "renyi_divergence": MP,
    P + "rdp_to_dp_epsilon": MP,
    P + "rdp_to_dp_delta": MP,
    P + "rdp_curve_to_dp": MP,
    P + "zcdp_to_dp": MP,
    P + "laplace": MP,
}


def _flag(a: dict[str, Any], name: str) -> dict[str, Any]:
    if name not in a:
        return {}
    if not isinstance(a[name], bool):
        raise ValueError(f"{name} must be a boolean")
    return {name: a[name]}


# -- reference handlers -----------------------------------------------------------------------
def h_hockey_stick(a: dict[str, Any]) -> dict[str, Any]:
    p, q = decimal_list(a, "p"), decimal_list(a, "q")
    return {"pq": published(definitions.hockey_stick(p, q, a["eps"])),
            "qp": published(definitions.hockey_stick(q, p, a["eps"])),
            "delta": published(definitions.dp_delta(p, q, a["eps"]))}


def h_renyi(a: dict[str, Any]) -> dict[str, Any]:
    p, q = decimal_list(a, "p"), decimal_list(a, "q")
    return {"divergence": published(definitions.renyi_divergence(p, q, a["alpha"]))}


def h_rdp_eps(a: dict[str, Any]) -> dict[str, Any]:
    return {"eps": published(definitions.rdp_to_dp_epsilon(a["rdp"], a["alpha"], a["delta"],
                                                           **_flag(a, "improved")))}


def h_rdp_delta(a: dict[str, Any]) -> dict[str, Any]:
    return {"delta": published(definitions.rdp_to_dp_delta(a["rdp"], a["alpha"], a["eps"]))}


def h_curve(a: dict[str, Any]) -> dict[str, Any]:
    """The spec's (eps, alpha) for a curve given as pairs, or as the zCDP curve alpha -> rho
    alpha (a function, evaluated by the spec at each order: ``evaluatedOrders`` lists the orders
    it was called with, in order; null for pairs). ``orders`` absent: the spec's default list."""
    kw: dict[str, Any] = _flag(a, "improved")
    if "orders" in a:
        kw["orders"] = decimal_list(a, "orders")
    if ("rho" in a) == ("pairs" in a):
        raise ValueError("give exactly one of rho (a zCDP curve) and pairs")
    seen: list[Any] | None = None
    if "rho" in a:
        rho = a["rho"]
        seen = []

        def curve(alpha: mpmath.mpf) -> mpmath.mpf:
            assert seen is not None
            seen.append(published(alpha))
            return definitions.zcdp_to_rdp(rho, alpha)

        eps, order = definitions.rdp_curve_to_dp(curve, a["delta"], **kw)
    else:
        pairs = a["pairs"]
        if not isinstance(pairs, list) or not all(isinstance(x, list) and len(x) == 2
                                                  for x in pairs):
            raise ValueError("pairs must be a list of [alpha, rdp] pairs")
        rows = [(x[0], mpmath.inf if x[1] == "inf" else x[1]) for x in pairs]
        eps, order = definitions.rdp_curve_to_dp(rows, a["delta"], **kw)
    return {"eps": published(eps), "alpha": published(order), "evaluatedOrders": seen}


def h_zcdp(a: dict[str, Any]) -> dict[str, Any]:
    """The spec's eps, and for the tight conversion the golden-section search it ran: the
    initial bracket [lo, hi] and the number of steps (evaluations of the objective after the
    first two), observed by wrapping the search for the duration of the call; null when the
    spec returns without searching."""
    runs: list[dict[str, Any]] = []
    inner = numeric.golden_section  # the function definitions imports

    def search(f: Any, lo: Any, hi: Any, **kw: Any) -> Any:
        calls = [0]

        def counted(x: Any) -> Any:
            calls[0] += 1
            return f(x)

        result = inner(counted, lo, hi, **kw)
        runs.append({"lo": published(lo), "hi": published(hi), "steps": calls[0] - 2})
        return result

    with replaced(definitions, golden_section=search):
        eps = definitions.zcdp_to_dp_epsilon(a["rho"], a["delta"], **_flag(a, "tight"))
    if len(runs) > 1:  # pragma: no cover - the spec searches at most once
        raise RuntimeError("more than one search")
    return {"eps": published(eps), "search": runs[0] if runs else None}


def h_laplace(a: dict[str, Any]) -> dict[str, Any]:
    kw = optional(a, "sensitivity")
    return {"epsilon": published(laplace.laplace_epsilon(a["scale"], **kw)),
            "scale": published(laplace.laplace_scale(a["eps"], **kw))}


HANDLERS: dict[str, Handler] = {
    P + "hockey_stick": h_hockey_stick,
    P + "renyi_divergence": h_renyi,
    P + "rdp_to_dp_epsilon": h_rdp_eps,
    P + "rdp_to_dp_delta": h_rdp_delta,
    P + "rdp_curve_to_dp": h_curve,
    P + "zcdp_to_dp": h_zcdp,
    P + "laplace": h_laplace,
}


HANDLERS = {op: memoised(h) for op, h in HANDLERS.items()}


_ARG_NAMES: dict[str, tuple[str, ...]] = {
    P + "hockey_stick": ("p", "q", "eps"),
    P + "renyi_divergence": ("p", "q", "alpha"),
    P + "rdp_to_dp_epsilon": ("rdp", "alpha", "delta", "improved"),
    P + "rdp_to_dp_delta": ("rdp", "alpha", "eps"),
    P + "rdp_curve_to_dp": ("rho", "pairs", "delta", "orders", "improved"),
    P + "zcdp_to_dp": ("rho", "delta", "tight"),
    P + "laplace": ("scale", "eps", "sensitivity"),
}


HEADER = [
    "Privacy definitions and conversions (module dpspec.spec.accounting.definitions; laplace from"
    " dpspec.spec.accounting.laplace). Cases sit on both sides of each decision and at each"
    " limit; optional arguments are exercised by leaving them out (the spec's default applies);"
    " every input check has an invalid case.",
    "Encodings: numbers and probabilities are decimal strings, distributions lists of them (P and"
    " Q aligned on one support), flags JSON booleans. mpmath values (40 significant digits) are"
    " published rounded up (toward +infinity) to 20 significant digits, as compact decimals; an"
    " infinite value is the string \"inf\". Tolerance (rel, abs) per op, |got - want| <= max(rel"
    " |want|, abs) on numeric strings, anything else exact: "
    + "; ".join(f"{op.split('.', 1)[1]} ({r:g}, {ab:g})" for op, (r, ab) in sorted(TOLERANCE.items()))
    + ".",
    "hockey_stick: pq = D_{e^eps}(P||Q) = sum_x max(0, P(x) - e^eps Q(x)) (SA2 Definition 2.1),"
    " qp the reverse, delta = max(pq, qp); P and Q of different lengths, or with a negative mass,"
    " are refused.",
    "renyi_divergence: D_alpha(P||Q) = log(sum_x P(x)^alpha Q(x)^(1-alpha)) / (alpha - 1) (SA2"
    " Definition 2.2), the sum over the x with P(x) > 0 (a point where both are 0 contributes"
    " nothing); inf when P(x) > 0 = Q(x) for some x; alpha > 1; P and Q of different lengths, or"
    " with a negative mass, are refused.",
    "rdp_to_dp_epsilon: (alpha, rdp)-RDP -> (eps, delta)-DP; improved (default true): eps = rdp +"
    " (log(1/delta) + (alpha - 1) log(1 - 1/alpha) - log(alpha)) / (alpha - 1) (SA2 Theorem 1,"
    " [CKS20] Proposition 12); improved false: eps = rdp + log(1/delta) / (alpha - 1) ([Mir17]"
    " Proposition 3); clamped at 0; rdp >= 0, alpha > 1, delta in (0, 1].",
    "rdp_to_dp_delta: delta = min(1, exp((alpha - 1)(rdp - eps)) (1 - 1/alpha)^(alpha - 1) /"
    " alpha) (SA2 Theorem 1 solved for delta); rdp >= 0, eps >= 0, alpha > 1.",
    "rdp_curve_to_dp: the smallest rdp_to_dp_epsilon over the orders, and the order attaining it"
    " (the first one on a tie); orders with an infinite rdp are skipped, and if all are infinite"
    " the answer is (inf, 0). The curve is either `pairs` [alpha, rdp] (rdp \"inf\" for an"
    " infinite one) or the zCDP curve alpha ->"
    " rho alpha of `rho`, evaluated at each of `orders` in order (default: 1.25, 1.5, 1.75, 2,"
    " 2.25, 2.5, 3, 3.5, 4, 4.5, 5, 6, ..., 63, 64, 80, 96, 128, 160, 192, 256, 320, 384, 512,"
    " 768, 1024); evaluatedOrders lists those evaluations (null for pairs). No pairs: refused.",
    "zcdp_to_dp: rho-zCDP -> (eps, delta)-DP, rho >= 0, delta in (0, 1]. simple = rho + 2 sqrt(rho"
    " log(1/delta)) ([BS16] Proposition 1.3); tight false or rho 0: eps = simple, search null."
    " tight (default true): golden-section search ([CKS20] Corollary 13) of g(alpha) = alpha rho +"
    " (log(1/delta) + (alpha - 1) log(1 - 1/alpha) - log(alpha)) / (alpha - 1) on [lo, hi] = ["
    "1.000001, 2 + 4 sqrt(log(1/delta) / rho) + 4 log(1/delta)]: x1 = hi - phi (hi - lo), x2 = lo +"
    " phi (hi - lo), phi = (sqrt 5 - 1)/2; each step keeps [lo, x2] if g(x1) < g(x2), else [x1,"
    " hi], and evaluates g at one new point; it stops after 200 steps or once hi - lo <= 10^-20."
    " eps = max(min(g((lo + hi)/2), simple), 0) with the final bracket; search = the initial"
    " bracket lo, hi and the number of steps taken.",
    "laplace: epsilon = sensitivity / scale and scale = sensitivity / eps ([DR14] Theorem 3.6);"
    " sensitivity (L1) default 1; scale, eps, sensitivity > 0.",
]


NOTES = {
    "Boundary": "parameters on or next to a decision point (a limit of a domain, a zero mass, a"
                " clamp, the step limit of a search)",
    "Default": "an optional argument left out: the spec's default applies",
    "BadParameter": "an argument outside its domain; the implementation must reject it",
}

LN2 = "0.69314718055994530941723212145817656807550013436026"


def _group(op: str, tests: list[tuple[str, dict[str, Any], list[str]]], tc: TestNumberer,
           invalid: list[tuple[str, dict[str, Any]]] | None = None) -> dict[str, Any]:
    return build_group(tc, HANDLERS, op, tests, [(c, i, "BadParameter") for c, i in invalid or []],
                       {}, rejects=(ValueError,))


def _divergences_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    g = [_group(P + "hockey_stick", [
        ("eps 0: both directions are the total variation distance 0.3",
         {"p": ["0.5", "0.3", "0.2"], "q": ["0.2", "0.3", "0.5"], "eps": "0"}, ["Boundary"]),
        ("eps 0.5: the two directions differ",
         {"p": ["0.7", "0.2", "0.1"], "q": ["0.1", "0.3", "0.6"], "eps": "0.5"}, []),
        ("P = Q: 0 both ways", {"p": ["0.25", "0.75"], "q": ["0.25", "0.75"], "eps": "0.1"},
         ["Boundary"]),
        ("disjoint supports: 1 both ways at any eps",
         {"p": ["1", "0"], "q": ["0", "1"], "eps": "3"}, ["Boundary"]),
        ("eps ln 2: only the points with P(x) > 2 Q(x) count",
         {"p": ["0.5", "0.3", "0.2"], "q": ["0.1", "0.2", "0.7"], "eps": LN2}, []),
    ], tc, [
        ("P longer than Q", {"p": ["0.5", "0.5"], "q": ["1"], "eps": "0"}),
        ("Q longer than P", {"p": ["1"], "q": ["0.5", "0.5"], "eps": "0"}),
        ("a negative mass in P (its masses still sum to 1)",
         {"p": ["1.5", "-0.5"], "q": ["0.5", "0.5"], "eps": "0"}),
        ("a negative mass in Q (its masses still sum to 1)",
         {"p": ["0.5", "0.5"], "q": ["-0.25", "1.25"], "eps": "0.5"}),
    ])]
    g.append(_group(P + "renyi_divergence", [
        ("alpha 2, full supports", {"p": ["0.5", "0.5"], "q": ["0.25", "0.75"], "alpha": "2"},
         []),
        ("alpha 1.5 (fractional)", {"p": ["0.2", "0.8"], "q": ["0.6", "0.4"], "alpha": "1.5"},
         []),
        ("P(x) = 1 at the one point Q also covers: only that point counts",
         {"p": ["1", "0"], "q": ["0.5", "0.5"], "alpha": "2"}, ["Boundary"]),
        ("a point where P and Q are both 0 contributes nothing (not inf)",
         {"p": ["0.5", "0.5", "0"], "q": ["0.25", "0.75", "0"], "alpha": "3"}, ["Boundary"]),
        ("P = Q = a point mass (Q(x) = 1): divergence 0",
         {"p": ["1", "0"], "q": ["1", "0"], "alpha": "2"}, ["Boundary"]),
        ("P puts mass where Q has none: inf",
         {"p": ["0.5", "0.5"], "q": ["1", "0"], "alpha": "2"}, ["Boundary"]),
        ("alpha 1.000001, just above the limit",
         {"p": ["0.5", "0.5"], "q": ["0.25", "0.75"], "alpha": "1.000001"}, ["Boundary"]),
    ], tc, [
        ("alpha 1", {"p": ["0.5", "0.5"], "q": ["0.25", "0.75"], "alpha": "1"}),
        ("alpha 1 where the divergence would be inf (P has mass outside Q)",
         {"p": ["0.5", "0.5"], "q": ["1", "0"], "alpha": "1"}),
        ("alpha 0.5", {"p": ["0.5", "0.5"], "q": ["0.25", "0.75"], "alpha": "0.5"}),
        ("Q longer than P (the extra point has no mass)",
         {"p": ["0.5", "0.5"], "q": ["0.5", "0.5", "0"], "alpha": "2"}),
        ("P longer than Q (the extra point has no mass)",
         {"p": ["0.5", "0.5", "0"], "q": ["0.5", "0.5"], "alpha": "2"}),
        ("a negative mass in P (its masses still sum to 1)",
         {"p": ["-0.5", "1.5"], "q": ["0.5", "0.5"], "alpha": "2"}),
        ("a negative mass in Q where P has mass",
         {"p": ["0.5", "0.5"], "q": ["1.5", "-0.5"], "alpha": "2"}),
    ]))
    return g


def _conversions_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    g = [_group(P + "rdp_to_dp_epsilon", [
        ("rdp 1, alpha 10, delta 1e-6, improved absent (default true)",
         {"rdp": "1", "alpha": "10", "delta": "1e-6"}, ["Default"]),
        ("the same with improved false ([Mir17])",
         {"rdp": "1", "alpha": "10", "delta": "1e-6", "improved": False}, []),
        ("improved true given explicitly",
         {"rdp": "0.5", "alpha": "1.5", "delta": "1e-5", "improved": True}, []),
        ("delta 1 (allowed), rdp 0: negative, clamped at 0",
         {"rdp": "0", "alpha": "2", "delta": "1"}, ["Boundary"]),
        ("delta 1, improved false: eps = rdp",
         {"rdp": "0.25", "alpha": "2", "delta": "1", "improved": False}, ["Boundary"]),
    ], tc, [
        ("alpha 1", {"rdp": "1", "alpha": "1", "delta": "1e-6"}),
        ("alpha 1, improved false", {"rdp": "1", "alpha": "1", "delta": "1e-6",
                                     "improved": False}),
        ("alpha 0.5, improved false", {"rdp": "1", "alpha": "0.5", "delta": "1e-6",
                                       "improved": False}),
        ("rdp -0.1", {"rdp": "-0.1", "alpha": "2", "delta": "1e-6"}),
        ("delta 0", {"rdp": "1", "alpha": "2", "delta": "0"}),
        ("delta 1.5", {"rdp": "1", "alpha": "2", "delta": "1.5"}),
    ])]
    g.append(_group(P + "rdp_to_dp_delta", [
        ("rdp 1, alpha 10, eps 3", {"rdp": "1", "alpha": "10", "eps": "3"}, []),
        ("eps 0 (allowed), rdp 0: below 1, not capped",
         {"rdp": "0", "alpha": "2", "eps": "0"}, ["Boundary"]),
        ("eps below rdp: capped at 1", {"rdp": "2", "alpha": "4", "eps": "0.5"}, ["Boundary"]),
        ("alpha 1.000001, just above the limit", {"rdp": "0.1", "alpha": "1.000001",
                                                  "eps": "1"}, ["Boundary"]),
    ], tc, [
        ("alpha 1", {"rdp": "1", "alpha": "1", "eps": "0.5"}),
        ("alpha 0.5", {"rdp": "1", "alpha": "0.5", "eps": "0.5"}),
        ("alpha -1", {"rdp": "1", "alpha": "-1", "eps": "0.5"}),
        ("rdp -1", {"rdp": "-1", "alpha": "2", "eps": "0.5"}),
        ("eps -0.5", {"rdp": "1", "alpha": "2", "eps": "-0.5"}),
    ]))
    g.append(_group(P + "rdp_curve_to_dp", [
        ("zCDP curve rho 0.01, delta 1e-6, orders and improved absent: the default orders",
         {"rho": "0.01", "delta": "1e-6"}, ["Default"]),
        ("zCDP curve rho 1e-5, delta 1e-9, default orders: the minimum at a large order",
         {"rho": "1e-5", "delta": "1e-9"}, ["Default"]),
        ("zCDP curve rho 0.5, delta 1e-3, orders given, improved false",
         {"rho": "0.5", "delta": "1e-3", "orders": ["2", "3", "4", "8"], "improved": False}, []),
        ("pairs: an infinite order is skipped",
         {"pairs": [["2", "inf"], ["4", "0.5"], ["8", "0.75"]], "delta": "1e-5"}, ["Boundary"]),
        ("pairs: every order infinite gives (inf, 0)",
         {"pairs": [["2", "inf"], ["3", "inf"]], "delta": "1e-5"}, ["Boundary"]),
        ("pairs, delta 1, rdp 0: eps clamped to 0 at both orders, the first (3) is kept",
         {"pairs": [["3", "0"], ["2", "0"]], "delta": "1"}, ["Boundary"]),
    ], tc, [
        ("no pairs", {"pairs": [], "delta": "1e-5"}),
        ("no orders", {"rho": "0.1", "delta": "1e-5", "orders": []}),
        ("an order of 1", {"rho": "0.1", "delta": "1e-5", "orders": ["1", "2"]}),
        ("delta 0", {"rho": "0.1", "delta": "0"}),
    ]))
    return g


def _zcdp_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    return [_group(P + "zcdp_to_dp", [
        ("rho 0.5, delta 1e-6, tight absent (default true)", {"rho": "0.5", "delta": "1e-6"},
         ["Default"]),
        ("the same with tight false ([BS16])", {"rho": "0.5", "delta": "1e-6", "tight": False},
         []),
        ("rho 0.01, delta 1e-10, tight true given", {"rho": "0.01", "delta": "1e-10",
                                                     "tight": True}, []),
        ("rho 0: no search, eps 0", {"rho": "0", "delta": "1e-6"}, ["Boundary"]),
        ("delta 1 (allowed): bracket [1.000001, 2], g negative, clamped at 0",
         {"rho": "0.01", "delta": "1"}, ["Boundary"]),
        ("delta 1, tight false: eps = rho", {"rho": "0.01", "delta": "1", "tight": False},
         ["Boundary"]),
        ("rho 1e-50, delta 1e-10: the bracket is so wide that the search stops at 200 steps",
         {"rho": "1e-50", "delta": "1e-10"}, ["Boundary"]),
    ], tc, [
        ("rho -0.1", {"rho": "-0.1", "delta": "1e-6"}),
        ("delta 0", {"rho": "0.5", "delta": "0"}),
        ("delta 1.5", {"rho": "0.5", "delta": "1.5"}),
    ])]


def _laplace_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    return [_group(P + "laplace", [
        ("scale 2, eps 0.5, sensitivity absent (default 1)", {"scale": "2", "eps": "0.5"},
         ["Default"]),
        ("scale 3, eps 0.25, sensitivity 3", {"scale": "3", "eps": "0.25", "sensitivity": "3"},
         []),
    ], tc, [
        ("scale 0", {"scale": "0", "eps": "1"}),
        ("eps 0", {"scale": "1", "eps": "0"}),
        ("sensitivity 0", {"scale": "1", "eps": "1", "sensitivity": "0"}),
    ])]


_FILES = {
    "divergences": ("hockey-stick and Renyi divergences of finite distributions",
                    _divergences_doc),
    "conversions": ("RDP -> (eps, delta) in both directions and over a curve", _conversions_doc),
    "zcdp": ("zCDP -> (eps, delta), with the golden-section search", _zcdp_doc),
    "laplace": ("the Laplace mechanism's epsilon and scale", _laplace_doc),
}


class AccountingDefinitionsFamily(AccountingFilesFamily):
    """Its own ops, files and schema; cases and compare as the accounting family's (per-op
    tolerances, here this module's :data:`TOLERANCE`)."""

    name = NAME
    summary = "decision points of the privacy definitions and conversions"
    tolerance = TOLERANCE
    schema = SCHEMA
    header = HEADER
    notes = NOTES
    handler_table = HANDLERS
    arg_names = _ARG_NAMES
    file_table = _FILES


FAMILY = AccountingDefinitionsFamily()
