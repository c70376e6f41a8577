"""Vector family ``accounting-shuffle-clone``: the decision points of the binary64 shuffle
accountant (dpspec.spec.accounting.shuffle) that ``accounting-curves`` leaves open.

``accounting-curves`` publishes typical values of the closed form of MJTB+22 Theorem 3.1 and of
the clone reductions of [FMT20] / [FMT22] at 1e-7. Here the parts that decide those values are
pinned instead:

* the closed form's value as the exact binary64 it is rounded up to (it comes from mpmath, so no
  library version can move it) and its smallest cohort n = 2;
* the window of clone counts C ~ Bin(n - 1, p_c) that the accountant enumerates (first and last
  atom, number of atoms, the uncounted tail mass), at the clamps to 0 and n - 1, where the
  13-standard-deviation window must be widened, and at the 20000-atom switch to the fair-coin
  recurrence;
* delta(eps) of the clone pair where it is exactly 0 (eps = eps0) or reduced to the uncounted tail
  (eps just below eps0), compared relatively with no absolute floor;
* the epsilon search (regula falsi on log delta with a bisection fallback): every delta
  evaluation in order, which side of the target it fell on, and the width of the final bracket;
* the size limits of the exact summed randomized-response curves (n = 10^7, n = 3000).

Outputs are compared like the ``accounting`` family's (``|got - want| <= max(rel |want|, abs)`` on
numeric strings, anything else exactly), with the tolerance of each op in :data:`TOLERANCE`.
"""

from __future__ import annotations

import math
from typing import Any

from dpspec.conformance.families._groups import build_group, counted_calls, memoised, recorded_calls
from dpspec.conformance.families.accounting import AccountingFilesFamily
from dpspec.conformance.vectors import Handler, TestNumberer, binary64_text
from dpspec.spec.accounting import numeric, shuffle
from dpspec.spec.accounting.numeric import mpf

SCHEMA = "accounting_shuffle_clone-v1.json"
NAME = "accounting-shuffle-clone"
P = "accounting_shuffle_clone."

#: binary64 results of numpy/scipy (8 significant digits, see binary64_text), relative 1e-7 and an
#: absolute floor of 1e-15, as accounting-curves compares them
B64 = (1e-7, 1e-15)
#: binary64 results of numpy/scipy compared relatively only: tail masses near 1e-35 and deltas
#: that are exactly 0 (scipy's binomial tails are accurate to far better than 1e-7 relative there)
B64_REL = (1e-7, 0.0)
#: exact: binary64 values derived from mpmath (deterministic), integers, booleans
EXACT = (0.0, 0.0)

TOLERANCE: dict[str, tuple[float, float]] = {
    P + "closed_form": EXACT,
    P + "clone_support": B64_REL,
    P + "clone_delta": B64_REL,
    P + "search": B64,
    P + "rr_limits": B64,
}

#: how far (absolute, in log delta) a probe's delta must stay from the target for its side to be
#: published, per searched function: the clone sums (one scipy binomial CDF per atom) move by about
#: 1e-13 between library versions, the summed-RR curves at small n (a few log-PMFs, one
#: convolution) by about 1e-16
SIDE_MARGIN = {"clone_epsilon": 1e-11, "rr_sum_epsilon": 5e-14}
#: significant digits of the final bracket width (in units of the search tolerance)
WIDTH_DIGITS = 3


def _f(x: float) -> str:
    return binary64_text(float(x))


def _exact(x: float) -> str:
    """A binary64 value that no library can move (it comes from mpmath): its shortest repr."""
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return repr(float(x))


# -- reference handlers -----------------------------------------------------------------------
def h_closed_form(a: dict[str, Any]) -> dict[str, Any]:
    """closed_form_condition and closed_form_value (each with its own input checks)."""
    fn = a["function"]
    if fn == "closed_form_condition":
        ok, limit = shuffle.closed_form_condition(a["eps0"], a["n"], a["delta"])
        return {"valid": ok, "limit": _exact(limit)}
    if fn == "closed_form_value":
        return {"value": _exact(shuffle.closed_form_value(a["eps0"], a["n"], a["delta"]))}
    raise ValueError(f"unknown function {fn!r}")


def _clone_args(a: dict[str, Any]) -> tuple[float, int, str]:
    e0 = float(numeric.positive(a["eps0"], "eps0"))
    n = numeric.positive_int(a["n"], "n", 2)
    return e0, n, a.get("variant", "fmt22")


def h_clone_support(a: dict[str, Any]) -> dict[str, Any]:
    """The enumerated window of C: first and last atom, atom count, uncounted tail mass."""
    e0, n, variant = _clone_args(a)
    c, _w, lost = shuffle._clone_support(n, shuffle.clone_probability(e0, variant))
    return {"first": int(c[0]), "last": int(c[-1]), "atoms": len(c), "lost": _f(lost)}


def h_clone_delta(a: dict[str, Any]) -> dict[str, Any]:
    """clone_delta (variant default fmt22 when absent) and whether the spec summed the window by
    the fair-coin recurrence (its function observed for the duration of the call)."""
    e0, n, _variant = _clone_args(a)
    kw = {"variant": a["variant"]} if "variant" in a else {}
    with counted_calls(shuffle, "_clone_delta_recurrence") as calls:
        d = shuffle.clone_delta(float(mpf(a["eps"], "eps")), e0, n, **kw)
    return {"delta": _f(d), "recurrence": calls[0] > 0}


def h_search(a: dict[str, Any]) -> dict[str, Any]:
    """The epsilon search of clone_epsilon or rr_sum_epsilon with every delta evaluation."""
    fn = a["function"]
    if fn == "clone_epsilon":
        with recorded_calls(shuffle, "_clone_delta_on") as calls:
            r = shuffle.clone_epsilon(a["eps0"], a["n"], a["delta"], a["variant"])
        probes = [(c.args[0], c.result) for c in calls]
    elif fn == "rr_sum_epsilon":
        kw = {k: a[k] for k in ("neighbours", "ones") if k in a}
        with recorded_calls(shuffle, "_pairs_delta") as calls:
            r = shuffle.rr_sum_epsilon(a["eps0"], a["n"], a["delta"], **kw)
        probes = [(c.args[1], c.result) for c in calls]
    else:
        raise ValueError(f"unknown function {fn!r}")
    target = r.delta
    log_t = math.log(target)
    above = [v > target for _x, v in probes]
    # every published side must be far from a tie (SIDE_MARGIN in log delta), so that no
    # library's last digits can flip it
    for x, v in probes:
        gap = abs((math.log(v) if v > 0 else -1000.0) - log_t)
        if gap < SIDE_MARGIN[fn]:
            raise RuntimeError(f"probe {x!r}: delta {v!r} too close to the target to publish")
    out: dict[str, Any] = {"eps": _f(r.eps), "evaluations": len(probes),
                           "probes": [[_f(x), up] for (x, _v), up in zip(probes, above, strict=True)]}
    if 0 < r.eps < math.inf:
        lo = max(x for (x, _v), up in zip(probes, above, strict=True) if up)
        ratio = (r.eps - lo) / (shuffle.EPS_TOL * max(r.eps, 1e-3))
        text = f"{ratio:.{WIDTH_DIGITS}g}"
        if any(f"{ratio * (1 + s):.{WIDTH_DIGITS}g}" != text for s in (-1e-4, 1e-4)):
            raise RuntimeError(f"final width {ratio!r} too close to a rounding boundary")
        out["finalWidth"] = text
    return out


def h_rr_limits(a: dict[str, Any]) -> dict[str, Any]:
    fn = a["function"]
    nb = a.get("neighbours", "replacement")
    if fn == "rr_sum_delta":
        return {"delta": _f(shuffle.rr_sum_delta(a["eps"], a["eps0"], a["n"], nb))}
    if fn == "rr_sum_worst_delta":
        d, ones = shuffle.rr_sum_worst_delta(a["eps"], a["eps0"], a["n"], nb)
        return {"delta": _f(d), "ones": ones}
    raise ValueError(f"unknown function {fn!r}")


HANDLERS: dict[str, Handler] = {
    P + "closed_form": h_closed_form,
    P + "clone_support": h_clone_support,
    P + "clone_delta": h_clone_delta,
    P + "search": h_search,
    P + "rr_limits": h_rr_limits,
}

HANDLERS = {op: memoised(h) for op, h in HANDLERS.items()}

_ARG_NAMES: dict[str, tuple[str, ...]] = {
    P + "closed_form": ("function", "eps0", "n", "delta"),
    P + "clone_support": ("eps0", "n", "variant"),
    P + "clone_delta": ("eps", "eps0", "n", "variant"),
    P + "search": ("function", "eps0", "n", "delta", "variant", "neighbours", "ones"),
    P + "rr_limits": ("function", "eps", "eps0", "n", "neighbours"),
}

HEADER = [
    "Amplification by shuffling in binary64 (module dpspec.spec.accounting.shuffle; MJTB+22 sec."
    " 3.1.2 and Theorem 3.1 after [FMT20]; the clone reductions of [FMT20] Theorem 3.1 / App. E"
    " and [FMT22]): the decision points behind the values accounting-curves publishes. Cases sit"
    " on both sides of each decision and at each limit; every input check has an invalid case.",
    "Encodings: numbers are decimal strings; sizes JSON integers. Binary64 results of numpy/scipy"
    " are published with 8 significant digits (binary64_text); binary64 values that come from"
    " mpmath (closed_form) as their shortest round-trip repr. Tolerance (rel, abs) per op,"
    " |got - want| <= max(rel |want|, abs) on numeric strings, anything else exact: "
    + "; ".join(f"{op.split('.', 1)[1]} ({r:g}, {ab:g})" for op, (r, ab) in sorted(TOLERANCE.items()))
    + ".",
    "closed_form: closed_form_condition = (eps0 <= L, L) with L = log(n/(8 log(2/delta)) - 1),"
    " -inf when the inside of the log is <= 0; closed_form_value = log(1 + (e^eps0 - 1)(4 sqrt(2"
    " log(4/delta))/sqrt((e^eps0 + 1) n) + 4/n)) evaluated at 40 digits and rounded up to the"
    " next binary64 (never below the exact value); eps0 > 0, n >= 2, delta in (0, 1).",
    "clone_support: C ~ Bin(n - 1, p_c), p_c = e^-eps0 (fmt20) or 2/(e^eps0 + 1) (fmt22, the"
    " default when `variant` is absent). With m = (n - 1) p_c, s = sqrt((n - 1) p_c (1 - p_c))"
    " and w = 13 s + 10: first = max(floor(m - w), 0), last = min(floor(m + w) + 1, n - 1);"
    " below = P[C < first] (0 when first = 0), above = P[C > last] (0 when last = n - 1); while"
    " below > 1e-30 or above > 1e-30, w = 1.5 w and again. atoms = last - first + 1; lost ="
    " below + above (the mass counted in full as delta).",
    "clone_delta: delta(eps) of the pair P = (C, A + 1 - D), Q = (C, A + D), A ~ Bin(C, 1/2), D"
    " ~ Bern(1/(e^eps0 + 1)), summed over the window above plus lost, capped at 1; exactly 0"
    " for eps >= eps0. `recurrence`: whether the window (more than 20000 atoms) was summed by the"
    " fair-coin recurrence instead of one binomial CDF per atom (the values agree to far below"
    " the tolerance; the switch is part of the spec).",
    "search: the smallest eps in [0, hi] with delta(eps) <= delta (hi = eps0 for clone_epsilon and"
    " replacement rr_sum_epsilon, 4 eps0 + 50 for deletion): 0 (one evaluation) if delta(0) <="
    " delta; inf (two evaluations) if delta(hi) > delta. Else, with g(x) = log delta(x) - log"
    " delta (-1000 - log delta where delta(x) = 0), lo = 0, side = 0 and widths = [hi]; at most"
    " 200 times: tol = 1e-10 max(hi, 1e-3); stop when hi - lo <= tol; if at least 3 widths are"
    " recorded and the last exceeds half the third-last, probe the midpoint alone; else x = hi -"
    " g(hi)(hi - lo)/(g(hi) - g(lo)) (the midpoint when g(hi) = g(lo)), clamped to [lo + tol/4,"
    " hi - tol/4], probes x - tol/4 then x + tol/4. A probe y outside the open (lo, hi) is"
    " skipped; g(y) > 0 moves lo to y (halving g(hi) if the previous move was also of lo, side"
    " -1), else hi moves to y (halving g(lo) if the previous move was also of hi, side 1) and the"
    " remaining probe is dropped; then the width is recorded. eps = hi. Published: eps, the"
    " number of delta evaluations (including delta(0), which is evaluated twice, and delta(hi)),"
    " `probes` = each evaluated point in order with whether delta there exceeded the target, and"
    " finalWidth = (eps - the largest probe above the target)/(1e-10 max(eps, 1e-3)) to 3"
    " significant digits.",
    "rr_limits: rr_sum_delta (exact delta(eps) of the sum of n binary randomized responses,"
    " n <= 10^7) and rr_sum_worst_delta (its maximum over the number `ones` of other users"
    " holding a 1, with the maximising `ones`; n <= 3000), at and beyond their size limits;"
    " eps within [-700, 700] (e^eps a finite double), refused beyond. Under replacement `ones`"
    " and n - 1 - `ones` give the same delta, and the smaller of the pair is the one reported.",
]

NOTES = {
    "Boundary": "parameters on or next to a decision point (a validity limit, a clamp, a switch"
                " of method, a search step that hits an end of its bracket)",
    "Default": "an optional argument left out: the spec's default applies",
    "Binary64": "a binary64 (numpy/scipy) value, published to 8 significant digits",
    "BadParameter": "an argument outside its domain; the implementation must reject it",
}


def _group(op: str, params: dict[str, Any], tests: list[tuple[str, dict[str, Any], list[str]]],
           tc: TestNumberer, invalid: list[tuple[str, dict[str, Any]]] | None = None
           ) -> dict[str, Any]:
    return build_group(tc, HANDLERS, op, tests, [(c, i, "BadParameter") for c, i in invalid or []],
                       params, rejects=(ValueError, TypeError, ArithmeticError))


def _closed_doc() -> list[dict[str, Any]]:
    """MJTB+22 Theorem 3.1 (after [FMT20]) at its smallest cohort and its exact rounding."""
    tc = TestNumberer()
    op = P + "closed_form"
    return [
        _group(op, {"function": "closed_form_condition"}, [
            ("n 2, the smallest cohort: inside of the log negative, limit -inf",
             {"eps0": "1", "n": 2, "delta": "1e-6"}, ["Boundary"]),
            ("eps0 3, n 10^4, delta 1e-6: valid", {"eps0": "3", "n": 10000, "delta": "1e-6"}, []),
        ], tc, [("n 1", {"eps0": "1", "n": 1, "delta": "1e-6"}),
                ("delta 0", {"eps0": "1", "n": 100, "delta": "0"})]),
        _group(op, {"function": "closed_form_value"}, [
            ("n 2, the smallest cohort (the formula's value, outside validity)",
             {"eps0": "1", "n": 2, "delta": "1e-6"}, ["Boundary"]),
            ("eps0 3, n 10^4, delta 1e-6: the binary64 just above the 40-digit value",
             {"eps0": "3", "n": 10000, "delta": "1e-6"}, []),
            ("eps0 0.5, n 10^6, delta 1e-9", {"eps0": "0.5", "n": 1000000, "delta": "1e-9"}, []),
        ], tc, [("n 1", {"eps0": "1", "n": 1, "delta": "1e-6"}),
                ("eps0 0", {"eps0": "0", "n": 100, "delta": "1e-6"}),
                ("delta 1", {"eps0": "1", "n": 100, "delta": "1"})]),
    ]


def _support_doc() -> list[dict[str, Any]]:
    """The window of C of [FMT20] Theorem 3.1 / [FMT22] that the accountant enumerates."""
    tc = TestNumberer()
    op = P + "clone_support"
    g = [_group(op, {}, [
        ("fmt22 eps0 2, n 1000: interior window, floor(m - w) at .08", {"eps0": "2", "n": 1000,
                                                                        "variant": "fmt22"}, []),
        ("fmt22 eps0 2, n 1002: m + w just above an integer", {"eps0": "2", "n": 1002,
                                                               "variant": "fmt22"}, ["Boundary"]),
        ("fmt22 eps0 2, n 1006: m - w just below an integer", {"eps0": "2", "n": 1006,
                                                               "variant": "fmt22"}, ["Boundary"]),
        ("eps0 5, n 10^5, variant absent: the fmt22 default", {"eps0": "5", "n": 100000},
         ["Default"]),
        ("fmt20 eps0 5, n 10^5", {"eps0": "5", "n": 100000, "variant": "fmt20"}, []),
        ("fmt20 eps0 10, n 10^5: first clamped to 0, the upper tail too heavy at 13 sd: widened",
         {"eps0": "10", "n": 100000, "variant": "fmt20"}, ["Boundary"]),
        ("fmt22 eps0 0.5, n 50: both ends clamped (0 and n - 1), nothing lost",
         {"eps0": "0.5", "n": 50, "variant": "fmt22"}, ["Boundary"]),
        ("fmt22 eps0 0.01, n 16: first 1, last n - 1: lost is P[C = 0] alone",
         {"eps0": "0.01", "n": 16, "variant": "fmt22"}, ["Boundary"]),
        ("fmt20 eps0 7, n 14: first 0, last n - 2: lost is P[C = n - 1] alone",
         {"eps0": "7", "n": 14, "variant": "fmt20"}, ["Boundary"]),
        ("n 2, the smallest cohort: C ~ Bin(1, p_c), both atoms", {"eps0": "1", "n": 2,
                                                                   "variant": "fmt20"},
         ["Boundary"]),
        ("fmt22 eps0 1, n 2375101: exactly 20000 atoms", {"eps0": "1", "n": 2375101,
                                                          "variant": "fmt22"}, ["Boundary"]),
        ("fmt22 eps0 1, n 2375338: exactly 20001 atoms", {"eps0": "1", "n": 2375338,
                                                          "variant": "fmt22"}, ["Boundary"]),
    ], tc, [("n 1", {"eps0": "1", "n": 1, "variant": "fmt22"}),
            ("eps0 0", {"eps0": "0", "n": 100, "variant": "fmt22"}),
            ("unknown variant", {"eps0": "1", "n": 100, "variant": "fmt21"})])]
    op = P + "clone_delta"
    g.append(_group(op, {}, [
        ("eps = eps0: exactly 0 (no relative slack)", {"eps": "2", "eps0": "2", "n": 1000,
                                                        "variant": "fmt22"}, ["Boundary"]),
        ("eps above eps0: exactly 0", {"eps": "2.5", "eps0": "2", "n": 1000, "variant": "fmt20"},
         ["Boundary"]),
        ("eps = eps0 (1 - 10^-9): the window adds about 1e-67, delta is the uncounted tail",
         {"eps": "1.999999998", "eps0": "2", "n": 1000, "variant": "fmt22"}, ["Boundary"]),
        ("eps 0.5, eps0 2, n 1000, variant absent (fmt22)", {"eps": "0.5", "eps0": "2",
                                                             "n": 1000}, ["Default"]),
        ("20000 atoms: one binomial CDF per atom", {"eps": "0.001", "eps0": "1", "n": 2375101,
                                                    "variant": "fmt22"}, ["Boundary"]),
        ("20001 atoms: the fair-coin recurrence", {"eps": "0.001", "eps0": "1", "n": 2375338,
                                                   "variant": "fmt22"}, ["Boundary"]),
        ("recurrence, eps 0.0002: the threshold count steps up at the first atom",
         {"eps": "0.0002", "eps0": "1", "n": 2375338, "variant": "fmt22"}, ["Boundary"]),
        ("recurrence, eps 0.05: the first atom's fair-coin PMF underflows to 0 (the start is"
         " taken from the log-PMF), every term vanishes and delta is the uncounted tail",
         {"eps": "0.05", "eps0": "1", "n": 2375338, "variant": "fmt22"}, ["Boundary"]),
    ], tc, [("n 1", {"eps": "0.5", "eps0": "2", "n": 1, "variant": "fmt22"}),
            ("eps0 -1", {"eps": "0.5", "eps0": "-1", "n": 100, "variant": "fmt22"}),
            ("unknown variant", {"eps": "0.5", "eps0": "2", "n": 100, "variant": "fmt"})]))
    return g


def _search_doc() -> list[dict[str, Any]]:
    """The epsilon search behind clone_epsilon and rr_sum_epsilon (regula falsi, Illinois)."""
    tc = TestNumberer()
    op = P + "search"
    clone: list[tuple[str, dict[str, Any], list[str]]] = [
        ("fmt22 eps0 2, n 1000, delta 1e-6: delta(eps0) = 0 enters as -1000",
         {"eps0": "2", "n": 1000, "delta": "1e-6", "variant": "fmt22"}, []),
        ("fmt20 eps0 2, n 1000, delta 1e-6", {"eps0": "2", "n": 1000, "delta": "1e-6",
                                              "variant": "fmt20"}, []),
        ("fmt22 eps0 0.5, n 200, delta 1e-3", {"eps0": "0.5", "n": 200, "delta": "1e-3",
                                               "variant": "fmt22"}, []),
        ("fmt20 eps0 5, n 10^4, delta 1e-8", {"eps0": "5", "n": 10000, "delta": "1e-8",
                                              "variant": "fmt20"}, []),
        ("delta 0.9 met at eps 0: one evaluation", {"eps0": "1", "n": 100, "delta": "0.9",
                                                    "variant": "fmt22"}, ["Boundary"]),
    ]
    g = [_group(op, {"function": "clone_epsilon"}, clone, tc, [
        ("eps0 30.5 above the binary64 limit", {"eps0": "30.5", "n": 100, "delta": "1e-6",
                                                "variant": "fmt20"}),
        ("delta 1e-26 below the binary64 limit", {"eps0": "1", "n": 100, "delta": "1e-26",
                                                  "variant": "fmt22"}),
        ("n 1", {"eps0": "1", "n": 1, "delta": "1e-6", "variant": "fmt22"}),
    ])]
    g.append(_group(op, {"function": "rr_sum_epsilon"}, [
        ("deletion, n 3: P[all report 1] > delta at every eps: inf after two evaluations",
         {"eps0": "1", "n": 3, "delta": "1e-6", "neighbours": "deletion"}, ["Boundary"]),
        ("deletion, n 100, eps0 1, delta 1e-6: hi = 4 eps0 + 50 = 54",
         {"eps0": "1", "n": 100, "delta": "1e-6", "neighbours": "deletion"}, []),
        ("deletion, n 100, eps0 1, delta 10^-6 relative below delta(0): the answer near 0, where"
         " tol is 1e-13",
         {"eps0": "1", "n": 100, "delta": "0.065709277971991", "neighbours": "deletion"},
         ["Boundary"]),
        ("deletion, n 100, eps0 1, delta 2 x 10^-10 relative below delta(0): the first estimate"
         " is clamped to lo + tol/4, so its lower probe equals lo and is skipped",
         {"eps0": "1", "n": 100, "delta": "0.065709343668193", "neighbours": "deletion"},
         ["Boundary"]),
        ("deletion, n 10, eps0 1, delta 10^-11 relative above delta(hi) = P[all 10 report 1]:"
         " delta is flat at that floor from eps about 2.9 up, so the estimates fall within tol/4"
         " of hi, are clamped, and the probe above them equals hi and is skipped",
         {"eps0": "1", "n": 10, "delta": "5.381104673762382e-06", "neighbours": "deletion"},
         ["Boundary"]),
        ("deletion, n 20, eps0 2, delta 1e-4: the same end moves twice in a row several times,"
         " so the Illinois halvings of g at the other end shape the next estimates",
         {"eps0": "2", "n": 20, "delta": "1e-4", "neighbours": "deletion"}, []),
        ("deletion, n 60, eps0 0.5, delta 1e-3, ones 2", {"eps0": "0.5", "n": 60,
                                                          "delta": "1e-3", "ones": 2,
                                                          "neighbours": "deletion"}, []),
    ], tc, [("delta 0", {"eps0": "1", "n": 10, "delta": "0"})]))
    g.append(_group(op, {"function": "rr_sum_epsilon"}, [
        ("deletion, n 10, eps0 200: the bracket's end 4 eps0 + 50 = 850 is capped at 700 (e^eps"
         " must be a finite double); the answer is just below eps0",
         {"eps0": "200", "n": 10, "delta": "1e-6", "neighbours": "deletion"}, ["Boundary"]),
    ], tc, []))
    return g


def _rr_doc() -> list[dict[str, Any]]:
    """The size limits of the exact summed randomized-response curves (MJTB+22 App. C.1.3)."""
    tc = TestNumberer()
    op = P + "rr_limits"
    return [
        _group(op, {"function": "rr_sum_delta"}, [
            ("n 10^7, the largest allowed", {"eps": "0.0005", "eps0": "1", "n": 10000000},
             ["Boundary"]),
        ], tc, [("n 10^7 + 1", {"eps": "0.0005", "eps0": "1", "n": 10000001})]),
        _group(op, {"function": "rr_sum_worst_delta"}, [
            ("n 3000, the largest allowed", {"eps": "1", "eps0": "5", "n": 3000}, ["Boundary"]),
        ], tc, [("n 3001", {"eps": "1", "eps0": "5", "n": 3001})]),
        # e^eps must be a finite double: |eps| <= 700 (EXP_MAX), refused beyond
        _group(op, {"function": "rr_sum_delta"}, [
            ("deletion, eps 700, the largest allowed: delta is P[all 10 report 1], the mass the"
             " absent dataset lacks", {"eps": "700", "eps0": "1", "n": 10,
                                       "neighbours": "deletion"}, ["Boundary"]),
            ("eps -700, the smallest allowed: e^eps is tiny, delta is nearly the total mass 1",
             {"eps": "-700", "eps0": "1", "n": 10}, ["Boundary"]),
        ], tc, [("eps 700.5", {"eps": "700.5", "eps0": "1", "n": 10}),
                ("eps 1e400 (infinite in binary64)", {"eps": "1e400", "eps0": "1", "n": 10}),
                ("eps -700.5", {"eps": "-700.5", "eps0": "1", "n": 10})]),
        # replacement: ones and n - 1 - ones are mirrors with equal delta; the smaller is reported
        _group(op, {"function": "rr_sum_worst_delta"}, [
            ("n 10 (9 others), eps0 2, eps 0.05: the maximum is at the mirror pair 4 / 5, the"
             " last ones evaluated; 4 is reported", {"eps": "0.05", "eps0": "2", "n": 10},
             ["Boundary"]),
            ("n 11 (10 others), eps0 2, eps 0.05: the maximum is at ones 5, its own mirror, the"
             " last ones evaluated", {"eps": "0.05", "eps0": "2", "n": 11}, ["Boundary"]),
            ("n 60, eps0 2, eps 0.3: the maximum is at 2 (mirror 57), not at 0",
             {"eps": "0.3", "eps0": "2", "n": 60}, []),
        ], tc, [("eps 1e400", {"eps": "1e400", "eps0": "2", "n": 60})]),
    ]


_FILES = {
    "closed_form": ("MJTB+22 Theorem 3.1: smallest cohort and exact rounding", _closed_doc),
    "clone": ("the clone window of [FMT20] / [FMT22] and its delta at the edges", _support_doc),
    "search": ("the epsilon search: every delta evaluation", _search_doc),
    "rr_limits": ("size limits of the exact summed randomized response", _rr_doc),
}


class AccountingShuffleCloneFamily(AccountingFilesFamily):
    """Its own ops, files and schema; cases and compare as the accounting family's (per-op
    tolerances, here this module's :data:`TOLERANCE`)."""

    name = NAME
    summary = "decision points of the binary64 shuffle accountant (closed form, clone window, search)"
    tolerance = TOLERANCE
    schema = SCHEMA
    header = HEADER
    notes = NOTES
    handler_table = HANDLERS
    arg_names = _ARG_NAMES
    file_table = _FILES


FAMILY = AccountingShuffleCloneFamily()
