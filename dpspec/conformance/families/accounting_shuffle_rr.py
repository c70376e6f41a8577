"""Vector family ``accounting-shuffle-rr``: the decision points of the summed binary randomized
response curves, their Renyi divergences and the symmetric-RAPPOR histogram bounds of
dpspec.spec.accounting.shuffle that ``accounting-curves`` leaves open.

``accounting-curves`` publishes typical values of these functions; this family sits on their
edges: the defaults (``ones``, ``worst_case``) exercised by leaving the argument out, the validity
limits met exactly (n = 1, n = 2, n = 10^7, n = 3000, eps0 = 700), the search brackets of the
epsilon searches (deletion answers above eps0, a bracket end near the binary64 overflow of
e^eps), the log-PMF path of the Renyi divergence where the linear PMFs underflow, the
unenumerated clone mass that the Renyi and histogram bounds charge, the ends of the order grid of
the minimisation over alpha, and every input check's invalid case.

Outputs are compared like the ``accounting`` family's (``|got - want| <= max(rel |want|, abs)`` for
numeric strings, anything else exactly), with the tolerance of each op in :data:`TOLERANCE`.
"""

from __future__ import annotations

from typing import Any

from dpspec.conformance.families._groups import build_group, memoised
from dpspec.conformance.families.accounting import AccountingFilesFamily, optional
from dpspec.conformance.families.accounting_curves import binary64_rows
from dpspec.conformance.vectors import (
    Handler,
    TestNumberer,
    binary64_text,
)
from dpspec.spec.accounting import shuffle

SCHEMA = "accounting_shuffle_rr-v1.json"
NAME = "accounting-shuffle-rr"
P = "accounting_shuffle_rr."

#: binary64 results of numpy/scipy, published by binary64_text (8 significant digits): 1e-7
#: relative, and 1e-15 absolute for probabilities and divergences near 0
B64 = (1e-7, 1e-15)
#: the minimum over alpha: its golden-section refinement locates the order only to about 1e-8
#: relative (the objective is flat at its minimum), so alpha and eps are compared at 1e-6
ORDER = (1e-6, 1e-15)
#: deltas of the proven histogram bound that consist of the uncounted clone mass (around 1e-40):
#: relative only, no absolute floor (each published value is far from any rounding residue)
REL = (1e-7, 0.0)


TOLERANCE: dict[str, tuple[float, float]] = {
    P + "rr_sum": B64,
    P + "renyi": B64,
    P + "min_over_alpha": ORDER,
    P + "histogram": B64,
    P + "clone_histogram": REL,
}


def _f(x: float) -> str:
    return binary64_text(float(x))

# -- reference handlers -----------------------------------------------------------------------
def h_rr_sum(a: dict[str, Any]) -> dict[str, Any]:
    """The summed-RR curves: the neighbouring pairs, delta(eps), the smallest eps, and their
    worst cases over the compositions of the other users' bits."""
    fn = a["function"]
    nb = optional(a, neighbours="neighbours")
    ones = optional(a, ones="ones")
    if fn == "rr_sum_pairs":
        pairs = shuffle.rr_sum_pairs(a["eps0"], a["n"], **nb, **ones)
        return {"pairs": binary64_rows([{"p": [float(v) for v in p], "q": [float(v) for v in q]}
                                        for p, q in pairs])}
    if fn == "rr_sum_delta":
        return {"delta": _f(shuffle.rr_sum_delta(a["eps"], a["eps0"], a["n"], **nb, **ones))}
    if fn == "rr_sum_epsilon":
        r = shuffle.rr_sum_epsilon(a["eps0"], a["n"], a["delta"], **nb, **ones)
        return {"eps": _f(r.eps), "bound": r.bound}
    if fn == "rr_sum_worst_delta":
        d, arg = shuffle.rr_sum_worst_delta(a["eps"], a["eps0"], a["n"], **nb)
        return {"delta": _f(d), "ones": arg}
    if fn == "rr_sum_worst_delta_value":
        # the same call, the maximising composition left out: for every composition k the
        # mirrored one n - 1 - k has the same delta, and rounding picks between them
        d, _ = shuffle.rr_sum_worst_delta(a["eps"], a["eps0"], a["n"], **nb)
        return {"delta": _f(d)}
    if fn == "rr_sum_worst_epsilon":
        r = shuffle.rr_sum_worst_epsilon(a["eps0"], a["n"], a["delta"], **nb)
        return {"eps": _f(r.eps), "bound": r.bound}
    raise ValueError(f"unknown function {fn!r}")


def h_renyi(a: dict[str, Any]) -> dict[str, Any]:
    fn = a["function"]
    if fn == "rr_clone_rdp":
        return {"rdp": _f(shuffle.rr_clone_rdp(a["alpha"], a["eps0"], a["n"]))}
    if fn == "rr_sum_rdp":
        return {"rdp": _f(shuffle.rr_sum_rdp(a["alpha"], a["eps0"], a["n"],
                                             **optional(a, ones="ones")))}
    raise ValueError(f"unknown function {fn!r}")


def h_min_over_alpha(a: dict[str, Any]) -> dict[str, Any]:
    r = shuffle.rappor_histogram_rdp_epsilon(a["eps0"], a["n"], a["delta"],
                                             **optional(a, worstCase="worst_case"))
    return {"eps": _f(r.eps), "alpha": _f(r.extra["alpha"])}


def h_histogram(a: dict[str, Any]) -> dict[str, Any]:
    fn = a["function"]
    if fn == "rappor_histogram_delta":
        return {"delta": _f(shuffle.rappor_histogram_delta(a["eps"], a["eps0"], a["n"]))}
    if fn == "rappor_histogram_epsilon":
        return {"eps": _f(shuffle.rappor_histogram_epsilon(a["eps0"], a["n"], a["delta"]).eps)}
    raise ValueError(f"unknown function {fn!r}")


def h_clone_histogram(a: dict[str, Any]) -> dict[str, Any]:
    fn = a["function"]
    if fn == "rappor_histogram_clone_delta":
        return {"delta": _f(shuffle.rappor_histogram_clone_delta(a["eps"], a["eps0"], a["n"]))}
    if fn == "rappor_histogram_clone_epsilon":
        return {"eps": _f(shuffle.rappor_histogram_clone_epsilon(a["eps0"], a["n"],
                                                                 a["delta"]).eps)}
    raise ValueError(f"unknown function {fn!r}")


HANDLERS: dict[str, Handler] = {
    P + "rr_sum": h_rr_sum,
    P + "renyi": h_renyi,
    P + "min_over_alpha": h_min_over_alpha,
    P + "histogram": h_histogram,
    P + "clone_histogram": h_clone_histogram,
}


HANDLERS = {op: memoised(h) for op, h in HANDLERS.items()}


_ARG_NAMES: dict[str, tuple[str, ...]] = {
    P + "rr_sum": ("function", "eps", "eps0", "n", "delta", "neighbours", "ones"),
    P + "renyi": ("function", "alpha", "eps0", "n", "ones"),
    P + "min_over_alpha": ("eps0", "n", "delta", "worstCase"),
    P + "histogram": ("function", "eps", "eps0", "n", "delta"),
    P + "clone_histogram": ("function", "eps", "eps0", "n", "delta"),
}


HEADER = [
    "Summed binary randomized response and the symmetric-RAPPOR histogram (module"
    " dpspec.spec.accounting.shuffle; MJTB+22 = seed 002, App. C.1.3 and Theorem C.3; SA2 = seed"
    " 000, Theorem 1; the DP draft = seed 003, sec. 4.3 and 6.1.1). n users each report their bit"
    " flipped with probability p = 1/(e^eps0 + 1); only the sum is released. Cases sit at the"
    " decision points and limits of each function; every input check has an invalid case; an"
    " optional argument that is absent takes the function's default.",
    "Encodings: numbers are decimal strings, sizes JSON integers (a size may also be given as a"
    " decimal string, which the functions accept). Binary64 results are published with 8"
    " significant digits (never within 1e-9 relative of a rounding boundary); infinity as \"inf\"."
    " Tolerance (rel, abs) per op, |got - want| <= max(rel |want|, abs) on numeric strings,"
    " anything else exact: " + "; ".join(f"{op.split('.', 1)[1]} ({r:g}, {ab:g})"
                                         for op, (r, ab) in sorted(TOLERANCE.items())) + ".",
    "rr_sum: `function` rr_sum_pairs (the neighbouring output distributions on 0..n:"
    " replacement [(target bit 1, target bit 0)], deletion [(present with bit 0, absent), (present"
    " with bit 1, absent)], `ones` of the n - 1 others holding a 1, default 0; n in 1..10^7, eps0"
    " in (0, 700], ones in 0..n-1), rr_sum_delta (max of both hockey-stick divergences at eps),"
    " rr_sum_epsilon (the smallest eps with delta(eps) <= delta, searched in [0, eps0] for"
    " replacement and [0, 4 eps0 + 50] for deletion, inf when missed there; n >= 2),"
    " rr_sum_worst_delta (max over ones = 0..n-1 and the first maximising ones; n in 1..3000),"
    " rr_sum_worst_delta_value (its delta only), rr_sum_worst_epsilon (n in 2..3000).",
    "renyi: rr_clone_rdp (the Renyi divergence of order alpha > 1 of the fmt22 clone pair, n >= 2;"
    " values of C ~ Bin(n - 1, 2/(e^eps0 + 1)) outside the enumerated window enter with"
    " D_alpha = eps0), rr_sum_rdp (max of both Renyi divergences of the replacement pair, n >= 2,"
    " ones default 0: rho_2RR of MJTB+22 App. C.1.3; for 0 < ones < n - 1 it goes through the"
    " linear PMFs, and a composition whose PMFs underflow to 0 somewhere on 0..n is refused).",
    "min_over_alpha: rappor_histogram_rdp_epsilon: 2 rho(alpha) converted by SA2 Theorem 1,"
    " minimised over the default orders 1.25 .. 1024 and refined by golden section between the"
    " neighbours of the best order; rho = rho_2RR at ones = 0 (worstCase absent or false) or the"
    " clone bound (worstCase true); eps capped at 2 eps0; `alpha` is the order attaining it.",
    "histogram: rappor_histogram_delta / _epsilon, the exact curve of two coordinates changing"
    " (ones = 0), eps searched in [0, 2 eps0]. clone_histogram: rappor_histogram_clone_delta /"
    " _epsilon, the proven bound from two fmt22 clone pairs; atoms of probability below 1e-40 and"
    " the unenumerated values of C are counted in full (twice, once per coordinate), delta capped"
    " at 1.",
]


NOTES = {
    "Boundary": "parameters on or next to a decision point (a validity limit, a tie, the end of a"
                " search bracket or of the order grid)",
    "Default": "an optional argument left out: the spec's default applies",
    "Encoding": "a size given as a decimal string",
    "BadParameter": "an argument outside its domain; the implementation must reject it",
}


def _group(op: str, fixed: dict[str, Any], tests: list[tuple[str, dict[str, Any], list[str]]],
           tc: TestNumberer, invalid: list[tuple[str, dict[str, Any]]] | None = None
           ) -> dict[str, Any]:
    return build_group(tc, HANDLERS, op, [(c, {**fixed, **i}, fl) for c, i, fl in tests],
                       [(c, {**fixed, **i}, "BadParameter") for c, i in invalid or []], {},
                       rejects=(ValueError, TypeError, ArithmeticError))


def _rr_sum_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    op = P + "rr_sum"

    def fn(name: str) -> dict[str, Any]:
        return {"function": name}

    return [
        _group(op, fn("rr_sum_pairs"), [
            ("n 4, eps0 1, neighbours and ones absent (replacement, ones 0)",
             {"eps0": "1", "n": 4}, ["Default"]),
            ("n 2: one other user, whose report is convolved in", {"eps0": "1", "n": 2},
             ["Boundary"]),
            ("n 1: the target alone (no other user)", {"eps0": "1", "n": 1}, ["Boundary"]),
            ("n 1, deletion: present with bit 0 or 1 vs the empty sum",
             {"eps0": "1.5", "n": 1, "neighbours": "deletion"}, ["Boundary"]),
            ("eps0 700, the largest accepted (flip probability about 1e-304)",
             {"eps0": "700", "n": 2}, ["Boundary"]),
            ("n given as the decimal string \"4\"", {"eps0": "1", "n": "4", "ones": 2},
             ["Encoding"]),
        ], tc, [
            ("n 1, ones 1 (> n - 1)", {"eps0": "1", "n": 1, "ones": 1}),
            ("n 1, ones 2", {"eps0": "1", "n": 1, "ones": 2}),
            ("n 1, ones -1", {"eps0": "1", "n": 1, "ones": -1}),
            ("n 3, ones 3", {"eps0": "1", "n": 3, "ones": 3}),
            ("eps0 700.5 (above 700)", {"eps0": "700.5", "n": 2}),
            ("n 0", {"eps0": "1", "n": 0}),
            ("n 10^7 + 1", {"eps0": "1", "n": 10000001}),
            ("unknown neighbours", {"eps0": "1", "n": 2, "neighbours": "add-remove"}),
        ]),
        _group(op, fn("rr_sum_delta"), [
            ("eps 0.3, eps0 2, n 60, ones absent (0)", {"eps": "0.3", "eps0": "2", "n": 60},
             ["Default"]),
            ("n 10^7, the largest accepted (eps 0.001, eps0 2)",
             {"eps": "0.001", "eps0": "2", "n": 10000000}, ["Boundary"]),
            ("deletion, n 1", {"eps": "0.5", "eps0": "1", "n": 1, "neighbours": "deletion"},
             ["Boundary"]),
        ], tc, [
            ("n 1, ones 1", {"eps": "0.5", "eps0": "1", "n": 1, "ones": 1}),
            ("eps0 0", {"eps": "0.5", "eps0": "0", "n": 10}),
        ]),
        _group(op, fn("rr_sum_epsilon"), [
            ("deletion, eps0 1, n 3, delta 0.1: the answer 1.28 lies above eps0",
             {"eps0": "1", "n": 3, "delta": "0.1", "neighbours": "deletion"}, ["Boundary"]),
            ("deletion, eps0 140, n 2, delta 0.5: the answer eps0 + ln 0.5 (the bracket end 610"
             " keeps e^eps finite)",
             {"eps0": "140", "n": 2, "delta": "0.5", "neighbours": "deletion"}, ["Boundary"]),
            ("replacement, eps0 2, n 50, delta 1e-3, ones absent",
             {"eps0": "2", "n": 50, "delta": "1e-3"}, ["Default"]),
        ], tc, [
            ("n 1", {"eps0": "1", "n": 1, "delta": "0.1"}),
            ("ones 5 with n 5", {"eps0": "1", "n": 5, "delta": "0.1", "ones": 5}),
        ]),
        _group(op, fn("rr_sum_worst_delta"), [
            ("n 1: the only composition is ones 0", {"eps": "0.5", "eps0": "1", "n": 1},
             ["Boundary"]),
            ("eps 3 above eps0 1, n 5: every composition gives delta 0, the first (ones 0) is"
             " kept", {"eps": "3", "eps0": "1", "n": 5}, ["Boundary"]),
            ("n 5, eps 0.2, eps0 1, deletion", {"eps": "0.2", "eps0": "1", "n": 5,
                                                "neighbours": "deletion"}, []),
        ], tc, [
            ("n 0", {"eps": "0.5", "eps0": "1", "n": 0}),
            ("n -1", {"eps": "0.5", "eps0": "1", "n": -1}),
            ("n 3001", {"eps": "0.5", "eps0": "1", "n": 3001}),
        ]),
        _group(op, fn("rr_sum_worst_delta_value"), [
            ("n 3000, the largest accepted (eps 0.3, eps0 2)",
             {"eps": "0.3", "eps0": "2", "n": 3000}, ["Boundary"]),
        ], tc),
        _group(op, fn("rr_sum_worst_epsilon"), [
            ("deletion, eps0 0.5, n 5, delta 0.1: the answer 0.72 lies above eps0",
             {"eps0": "0.5", "n": 5, "delta": "0.1", "neighbours": "deletion"}, ["Boundary"]),
            ("deletion, eps0 140, n 2, delta 0.5: P[all report 1] is about 1 for ones 1, so eps"
             " is infinite (the bracket end 610 keeps e^eps finite)",
             {"eps0": "140", "n": 2, "delta": "0.5", "neighbours": "deletion"}, ["Boundary"]),
            ("n 3000, the largest accepted; delta 0.5 is met at eps 0",
             {"eps0": "2", "n": 3000, "delta": "0.5"}, ["Boundary"]),
        ], tc, [
            ("n 3001", {"eps0": "2", "n": 3001, "delta": "0.5"}),
            ("n 1", {"eps0": "2", "n": 1, "delta": "0.5"}),
        ]),
    ]


def _renyi_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    r = P + "renyi"
    return [
        _group(r, {"function": "rr_clone_rdp"}, [
            ("n 2, the smallest accepted", {"alpha": "1.5", "eps0": "1", "n": 2}, ["Boundary"]),
            ("alpha 50, eps0 2, n 1000: the values of C outside the window (mass about 1e-38)"
             " enter with D = eps0 and carry a large share of the sum",
             {"alpha": "50", "eps0": "2", "n": 1000}, ["Boundary"]),
            ("alpha 200, eps0 2, n 1000: the unenumerated values of C dominate",
             {"alpha": "200", "eps0": "2", "n": 1000}, ["Boundary"]),
        ], tc, [
            ("alpha 0.5", {"alpha": "0.5", "eps0": "1", "n": 10}),
            ("alpha 1", {"alpha": "1", "eps0": "1", "n": 10}),
            ("n 1", {"alpha": "2", "eps0": "1", "n": 1}),
        ]),
        _group(r, {"function": "rr_sum_rdp"}, [
            ("alpha 3, eps0 2, n 100, ones absent (0)", {"alpha": "3", "eps0": "2", "n": 100},
             ["Default"]),
            ("n 2, the smallest accepted", {"alpha": "2", "eps0": "1", "n": 2}, ["Boundary"]),
            ("ones 98 = n - 2: the linear PMFs (equal to ones 1 by the mirror symmetry)",
             {"alpha": "3", "eps0": "2", "n": 100, "ones": 98}, ["Boundary"]),
            ("ones 199 = n - 1, eps0 30, n 200: the log-PMF path (the linear PMFs underflow where"
             " the ratio is e^30 and would give an infinite divergence)",
             {"alpha": "2", "eps0": "30", "n": 200, "ones": 199}, ["Boundary"]),
            ("ones 0, eps0 30, n 200: the log-PMF path",
             {"alpha": "2", "eps0": "30", "n": 200, "ones": 0}, ["Boundary"]),
            ("ones given as the decimal string \"3\"",
             {"alpha": "2", "eps0": "1", "n": 10, "ones": "3"}, ["Encoding"]),
        ], tc, [
            ("alpha 0.5", {"alpha": "0.5", "eps0": "1", "n": 10}),
            ("alpha 1, eps0 30, n 200, ones 100 (both PMFs underflow in places)",
             {"alpha": "1", "eps0": "30", "n": 200, "ones": 100}),
            ("ones 10 = n", {"alpha": "2", "eps0": "1", "n": 10, "ones": 10}),
            ("ones 11", {"alpha": "2", "eps0": "1", "n": 10, "ones": 11}),
            ("ones -1", {"alpha": "2", "eps0": "1", "n": 10, "ones": -1}),
            ("n 1", {"alpha": "2", "eps0": "1", "n": 1}),
        ]),
        _group(P + "min_over_alpha", {}, [
            ("eps0 2, n 100, delta 1e-6, worstCase absent (ones 0)",
             {"eps0": "2", "n": 100, "delta": "1e-6"}, ["Default"]),
            ("eps0 4, n 50, delta 0.5: the best order is the first (1.25), the minimum lies"
             " inside (1.25, 1.5)", {"eps0": "4", "n": 50, "delta": "0.5", "worstCase": False},
             ["Boundary"]),
            ("the same with the clone bound", {"eps0": "4", "n": 50, "delta": "0.5",
                                               "worstCase": True}, ["Boundary"]),
            ("eps0 2, n 5, delta 0.7: the first order again",
             {"eps0": "2", "n": 5, "delta": "0.7", "worstCase": False}, ["Boundary"]),
            ("eps0 0.5, n 3000, delta 1e-30: the best order is the second last (768), the"
             " minimum lies inside (768, 1024)",
             {"eps0": "0.5", "n": 3000, "delta": "1e-30"}, ["Boundary"]),
            ("eps0 0.5, n 10^5, delta 1e-200: the best order is the last (1024)",
             {"eps0": "0.5", "n": 100000, "delta": "1e-200", "worstCase": False},
             ["Boundary"]),
        ], tc, [
            ("delta 0", {"eps0": "2", "n": 100, "delta": "0"}),
            ("n 1", {"eps0": "2", "n": 1, "delta": "1e-6"}),
        ]),
        # appended (earlier tcIds unchanged): the linear PMFs of a middle composition underflow
        _group(r, {"function": "rr_sum_rdp"}, [
            ("eps0 5, n 200, ones 100: the linear PMFs reach 1.3e-220, still positive",
             {"alpha": "2", "eps0": "5", "n": 200, "ones": 100}, ["Boundary"]),
        ], tc, [
            ("eps0 5, n 400, ones 200: the linear PMFs underflow to 0 at 69 of the 401 points"
             " (both are positive on 0..n): refused, not an infinite divergence",
             {"alpha": "2", "eps0": "5", "n": 400, "ones": 200}),
        ]),
    ]


def _histogram_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    h = P + "histogram"
    c = P + "clone_histogram"
    return [
        _group(h, {"function": "rappor_histogram_epsilon"}, [
            ("eps0 1, n 2, delta 1e-6: the answer lies above eps0 (two coordinates change)",
             {"eps0": "1", "n": 2, "delta": "1e-6"}, ["Boundary"]),
            ("eps0 1, n 3, delta 1e-3", {"eps0": "1", "n": 3, "delta": "1e-3"}, []),
        ], tc, [
            ("n 1", {"eps0": "1", "n": 1, "delta": "1e-6"}),
        ]),
        _group(h, {"function": "rappor_histogram_delta"}, [
            ("eps 1.5, eps0 1, n 2", {"eps": "1.5", "eps0": "1", "n": 2}, []),
        ], tc, [
            ("n 0", {"eps": "1", "eps0": "1", "n": 0}),
        ]),
        _group(c, {"function": "rappor_histogram_clone_delta"}, [
            ("n 2, the smallest accepted", {"eps": "0.5", "eps0": "1", "n": 2}, ["Boundary"]),
            ("eps 21 above 2 eps0, eps0 10, n 10: no loss reaches eps, delta is twice the mass"
             " of the atoms below 1e-40 (C fully enumerated)",
             {"eps": "21", "eps0": "10", "n": 10}, ["Boundary"]),
            ("eps 5 above 2 eps0, eps0 2, n 200: twice the dropped atoms plus the"
             " unenumerated values of C", {"eps": "5", "eps0": "2", "n": 200}, ["Boundary"]),
        ], tc, [
            ("n 1", {"eps": "1", "eps0": "1", "n": 1}),
            ("eps0 0", {"eps": "1", "eps0": "0", "n": 5}),
        ]),
        _group(c, {"function": "rappor_histogram_clone_epsilon"}, [
            ("eps0 1, n 2, delta 1e-3", {"eps0": "1", "n": 2, "delta": "1e-3"}, []),
        ], tc, [
            ("delta 1", {"eps0": "1", "n": 2, "delta": "1"}),
        ]),
    ]


_FILES = {
    "rr_sum": ("summed binary randomized response: pairs, curves and worst cases", _rr_sum_doc),
    "renyi": ("Renyi divergences of summed randomized response and the minimum over alpha",
              _renyi_doc),
    "histogram": ("symmetric-RAPPOR histogram curves, exact and proven", _histogram_doc),
}


class AccountingShuffleRrFamily(AccountingFilesFamily):
    """Its own ops, files and schema; cases and compare as the accounting family's (per-op
    tolerances, here this module's :data:`TOLERANCE`)."""

    name = NAME
    summary = "decision points of the summed randomized-response and RAPPOR histogram curves"
    tolerance = TOLERANCE
    schema = SCHEMA
    header = HEADER
    notes = NOTES
    handler_table = HANDLERS
    arg_names = _ARG_NAMES
    file_table = _FILES


FAMILY = AccountingShuffleRrFamily()
