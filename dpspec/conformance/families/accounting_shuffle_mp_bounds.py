"""Vector family ``accounting-shuffle-mp-bounds``: the decision points of the certified (mpmath)
shuffle bounds of dpspec.spec.accounting.shuffle_mp that the other accounting families leave open.

The published shuffle numbers are upper bounds computed at 50 digits: the clone curve of [FMT20] /
[FMT22] ("hiding among the clones", its fixed-point evaluation of the sum over the clone count),
the summed binary randomized response of MJTB+22 sec. 3.1.2 / App. C.1.3 (its neighbouring pairs,
both neighbour relations, the other users' composition ``ones``), the symmetric-RAPPOR histogram
of sec. 4.3 of the DP draft (seed 003) and MJTB+22 Theorem C.3 (its exact product curve and its
Renyi route), the closed form of MJTB+22 Theorem 3.1, and the search that turns a delta curve into
the smallest decimal epsilon meeting a target. This family publishes what those functions decide
on the way: the exact fixed-point sum of the clone curve, the grid values a search tests, the
starting point and cap it is given, the window a bound tabulates, the bracket of the order
minimisation, and each input check's refusal.

Outputs are compared like the ``accounting`` family's (``|got - want| <= max(rel |want|, abs)`` for
numeric strings, anything else exactly: JSON integers, names, null), with the tolerance of each op
in :data:`TOLERANCE`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import mpmath

from dpspec.conformance.families._groups import build_group, memoised, recorded_calls, replaced
from dpspec.conformance.families.accounting import AccountingFilesFamily, optional, published
from dpspec.conformance.vectors import Handler, TestNumberer
from dpspec.spec.accounting import shuffle_mp
from dpspec.spec.accounting.numeric import mpf

SCHEMA = "accounting_shuffle_mp_bounds-v1.json"
NAME = "accounting-shuffle-mp-bounds"
P = "accounting_shuffle_mp_bounds."

#: mpmath values at 50 digits, published rounded up to 20 significant digits: relative 1e-15
#: (no absolute floor: the bounds near 1e-60 are compared too)
MP = (1e-15, 0.0)
#: the searches (every output a decimal on the search's grid or a name), the clone curve (its
#: fixed-point total is exact, so is the bound read from it) and the delta bounds whose cap at 1
#: is tested (a bound of 1 + 1e-40 rounds up to 1.0000000000000000001, which a relative
#: tolerance would accept): compared exactly
EXACT = (0.0, 0.0)

TOLERANCE: dict[str, tuple[float, float]] = {
    P + "clone_curve": EXACT,
    P + "search": EXACT,
    P + "certified_epsilon": EXACT,
    P + "rr_pairs": MP,
    P + "rr_delta": EXACT,
    P + "rr_worst_delta": MP,
    P + "histogram_delta": EXACT,
    P + "histogram_renyi": MP,
    P + "histogram_renyi_order": MP,
    P + "closed_form": MP,
    P + "window_estimate": EXACT,
    P + "binary64_slack": MP,
    P + "publish": EXACT,
}


# -- observation helpers (the spec's functions run unchanged) ---------------------------------
def _dec(x: Any) -> str:
    """An argument of a search (a grid decimal, 0, a cap or a given estimate) as a decimal: a
    string as given, a number to 30 significant digits, nearest (a grid value is exact)."""
    if isinstance(x, str):
        return x
    with mpmath.workdps(shuffle_mp.WPS):
        return str(mpmath.nstr(mpmath.mpf(x), 30))


@contextmanager
def _probes() -> Iterator[list[str]]:
    """The grid values the certified search hands to its predicate, in order: the spec's
    ``smallest_on_grid`` (as imported by shuffle_mp) is called with a predicate that notes each
    argument before it answers."""
    inner = vars(shuffle_mp)["smallest_on_grid"]  # imported there, not exported
    seen: list[str] = []

    def observed(ok: Callable[[Any], bool], estimate: Any, digits: int, **kw: Any) -> str:
        def noting(x: Any) -> bool:
            seen.append(_dec(x))
            return ok(x)

        return str(inner(noting, estimate, digits, **kw))

    with replaced(shuffle_mp, smallest_on_grid=observed):
        yield seen


def _start(calls: list[Any]) -> dict[str, Any]:
    """The estimate and cap the spec handed to certified_epsilon (its first call)."""
    if not calls:
        return {"estimate": None, "cap": None}
    _, _, estimate, cap, _ = calls[0].args[:5]
    return {"estimate": None if estimate is None else _dec(estimate), "cap": _dec(cap)}


# -- reference handlers -----------------------------------------------------------------------
def h_clone_curve(a: dict[str, Any]) -> dict[str, Any]:
    """CloneCurve(eps0, n, variant, delta).delta(eps), with its fixed-point transcript: the window
    of the clone count (lowest count, number of atoms, bits), the lower bound on the first CDF
    (``_binomial_half_lower_cdf``) and the integer total at scale 2^(3 bits) that the bound is
    read from (the argument of ``_from_fixed_up``), both as JSON integers (exact)."""
    delta = mpf(a["delta"]) if "delta" in a else None
    curve = shuffle_mp.CloneCurve(a["eps0"], a["n"], a["variant"], delta)
    with recorded_calls(shuffle_mp, "_binomial_half_lower_cdf") as cdf, \
            recorded_calls(shuffle_mp, "_from_fixed_up") as fixed:
        d = curve.delta(a["eps"])  # the decimal read at the curve's own precision
    w = curve.window
    return {"delta": published(d), "bits": curve.bits, "windowLo": w.lo, "atoms": len(w.hi_pmf),
            "lowerCdf": cdf[0].result if cdf else None,
            "total": fixed[0].args[0] if fixed else None}


def _curve_calls(fn: str) -> tuple[Any, str]:
    if fn == "clone_epsilon":
        return shuffle_mp.CloneCurve, "delta"
    if fn == "rr_sum_epsilon":
        return shuffle_mp, "_rr_delta_on"
    if fn == "rappor_histogram_epsilon":
        return shuffle_mp._RapporTable, "delta"
    raise ValueError(f"unknown function {fn!r}")


def h_search(a: dict[str, Any]) -> dict[str, Any]:
    """A published epsilon with the search's transcript: the start and cap the function hands to
    certified_epsilon, every eps at which it evaluated its delta curve (in order, the test at 0
    and a cap check included) and the grid values the search tested."""
    fn = a["function"]
    owner, name = _curve_calls(fn)
    est = optional(a, "estimate", "digits")
    with recorded_calls(owner, name) as evals, \
            recorded_calls(shuffle_mp, "certified_epsilon") as cert, _probes() as grid:
        if fn == "clone_epsilon":
            eps = shuffle_mp.clone_epsilon(a["eps0"], a["n"], a["delta"],
                                           **optional(a, "variant"), **est)
        elif fn == "rr_sum_epsilon":
            eps = shuffle_mp.rr_sum_epsilon(a["eps0"], a["n"], a["delta"],
                                            **optional(a, "neighbours", "ones"), **est)
        else:
            eps = shuffle_mp.rappor_histogram_epsilon(a["eps0"], a["n"], a["delta"], **est)
    return {"eps": eps, **_start(cert), "evaluatedAt": [_dec(c.args[-1]) for c in evals],
            "grid": grid}


def h_certified_epsilon(a: dict[str, Any]) -> dict[str, Any]:
    """certified_epsilon called directly on the summed-RR curve of (eps0, n, neighbours, ones)
    at the cut-off of ``delta``, with the given ``estimate`` (absent: None) and ``cap``: the
    answer, and every eps at which the curve was evaluated."""
    d = mpf(a["delta"])
    with mpmath.workdps(shuffle_mp.WPS):
        pairs, lost = shuffle_mp.rr_pairs(a["eps0"], a["n"], a.get("neighbours", "replacement"),
                                          a.get("ones", 0), shuffle_mp.cutoff_for(d))
    at: list[str] = []

    def curve(x: Any) -> Any:
        at.append(_dec(x))
        return shuffle_mp._rr_delta_on(pairs, lost, x)

    eps = shuffle_mp.certified_epsilon(curve, a["delta"], a.get("estimate"), mpf(a["cap"]),
                                       **optional(a, "digits"))
    return {"eps": eps, "evaluatedAt": at}


def h_rr_pairs(a: dict[str, Any]) -> dict[str, Any]:
    """rr_pairs at the cut-off for ``delta`` (absent: 1e-60): the aligned pairs (published), the
    mass bound outside them, and the window of the other users' count (its lowest count and
    length, from the spec's ``_others``)."""
    with mpmath.workdps(shuffle_mp.WPS):
        cut = shuffle_mp.cutoff_for(mpf(a["delta"]) if "delta" in a else None)
        with recorded_calls(shuffle_mp, "_others") as others:
            pairs, lost = shuffle_mp.rr_pairs(a["eps0"], a["n"], a["neighbours"], a["ones"], cut)
    w = others[0].result[1]
    return {"pairs": [[[published(x) for x in p], [published(x) for x in q]] for p, q in pairs],
            "lost": published(lost), "othersLo": w.lo, "othersAtoms": len(w.pmf)}


def h_rr_delta(a: dict[str, Any]) -> dict[str, Any]:
    return {"delta": published(shuffle_mp.rr_sum_delta(a["eps"], a["eps0"], a["n"],
                                                        **optional(a, "neighbours", "ones")))}


def h_rr_worst_delta(a: dict[str, Any]) -> dict[str, Any]:
    # the spec returns the rounded-up decimal string itself (ties are decided on it)
    d, ones = shuffle_mp.rr_sum_worst_delta(a["eps"], a["eps0"], a["n"],
                                            **optional(a, "neighbours", "digits"))
    return {"delta": d, "ones": ones}


def h_histogram_delta(a: dict[str, Any]) -> dict[str, Any]:
    delta = mpf(a["delta"]) if "delta" in a else None
    return {"delta": published(shuffle_mp.rappor_histogram_delta(a["eps"], a["eps0"], a["n"],
                                                                 delta))}


def h_histogram_renyi(a: dict[str, Any]) -> dict[str, Any]:
    """rappor_histogram_rdp_epsilon with its transcript: the cut-off of the window it tabulates
    and the window's length (the arguments and result of ``rr_pairs``), and the golden-section
    call (bracket, ratio, number of steps)."""
    with recorded_calls(shuffle_mp, "rr_pairs") as pairs, \
            recorded_calls(shuffle_mp, "golden_section") as golden:
        eps, alpha = shuffle_mp.rappor_histogram_rdp_epsilon(a["eps0"], a["n"], a["delta"],
                                                             **optional(a, "digits"))
    [(p, _)], _ = pairs[0].result
    g = golden[0]
    return {"eps": eps, "alpha": alpha, "cutoff": published(pairs[0].args[4]),
            "windowAtoms": len(p),
            "bracket": [published(mpf(g.args[1])), published(mpf(g.args[2]))],
            "ratio": published(g.kwargs["phi"]), "steps": g.kwargs["iterations"]}


def h_histogram_renyi_order(a: dict[str, Any]) -> dict[str, Any]:
    fwd, bwd, tail = shuffle_mp.rappor_histogram_renyi(a["eps0"], a["n"], a["delta"], a["alpha"])
    return {"forward": published(fwd), "backward": published(bwd), "tail": published(tail)}


def h_closed_form(a: dict[str, Any]) -> dict[str, Any]:
    return {"eps": shuffle_mp.closed_form_value(a["eps0"], a["n"], a["delta"],
                                                **optional(a, "digits"))}


def h_window_estimate(a: dict[str, Any]) -> dict[str, Any]:
    delta = mpf(a["delta"]) if "delta" in a else None
    cutoff = mpf(a["cutoff"]) if "cutoff" in a else None
    return {"atoms": shuffle_mp.window_estimate(a["m"], mpf(a["p"]), delta, cutoff)}


def h_binary64_slack(a: dict[str, Any]) -> dict[str, Any]:
    s = shuffle_mp.binary64_slack(a["eps0"], a["n"], a["delta"], a["bound"])
    return {"slack": None if s is None else published(s)}


def h_publish(a: dict[str, Any]) -> dict[str, Any]:
    r = shuffle_mp.publish(a["eps0"], a["n"], a["delta"], a["bound"], a.get("estimate"),
                           **optional(a, "neighbours", "ones", "digits"))
    return {"published": None if r is None else list(r)}


HANDLERS: dict[str, Handler] = {
    P + "clone_curve": h_clone_curve,
    P + "search": h_search,
    P + "certified_epsilon": h_certified_epsilon,
    P + "rr_pairs": h_rr_pairs,
    P + "rr_delta": h_rr_delta,
    P + "rr_worst_delta": h_rr_worst_delta,
    P + "histogram_delta": h_histogram_delta,
    P + "histogram_renyi": h_histogram_renyi,
    P + "histogram_renyi_order": h_histogram_renyi_order,
    P + "closed_form": h_closed_form,
    P + "window_estimate": h_window_estimate,
    P + "binary64_slack": h_binary64_slack,
    P + "publish": h_publish,
}

HANDLERS = {op: memoised(h) for op, h in HANDLERS.items()}

_ARG_NAMES: dict[str, tuple[str, ...]] = {
    P + "clone_curve": ("eps", "eps0", "n", "variant", "delta"),
    P + "search": ("function", "eps0", "n", "delta", "variant", "neighbours", "ones", "estimate",
                   "digits"),
    P + "certified_epsilon": ("eps0", "n", "neighbours", "ones", "delta", "estimate", "cap",
                              "digits"),
    P + "rr_pairs": ("eps0", "n", "neighbours", "ones", "delta"),
    P + "rr_delta": ("eps", "eps0", "n", "neighbours", "ones"),
    P + "rr_worst_delta": ("eps", "eps0", "n", "neighbours", "digits"),
    P + "histogram_delta": ("eps", "eps0", "n", "delta"),
    P + "histogram_renyi": ("eps0", "n", "delta", "digits"),
    P + "histogram_renyi_order": ("eps0", "n", "delta", "alpha"),
    P + "closed_form": ("eps0", "n", "delta", "digits"),
    P + "window_estimate": ("m", "p", "delta", "cutoff"),
    P + "binary64_slack": ("eps0", "n", "delta", "bound"),
    P + "publish": ("eps0", "n", "delta", "bound", "estimate", "neighbours", "ones", "digits"),
}

HEADER = [
    "Certified shuffle bounds (module dpspec.spec.accounting.shuffle_mp): every published shuffle"
    " epsilon or delta is an upper bound evaluated at 50 significant digits, with the mass outside"
    " each tabulated binomial window added to delta. Local randomizer eps0-DP, n users; the clone"
    " pair of [FMT20] (clone probability e^-eps0) and [FMT22] (2/(e^eps0 + 1)); summed binary"
    " randomized response (MJTB+22 sec. 3.1.2, App. C.1.3: report the bit with probability"
    " 1 - p, p = 1/(e^eps0 + 1); `ones` of the n - 1 other users hold a 1, default 0;"
    " `neighbours` replacement (default) or deletion); the symmetric-RAPPOR histogram (sec. 4.3 of"
    " the DP draft): two coordinates, the product pair (P x Q, Q x P) of the replacement pair with"
    " ones = 0 (MJTB+22 Theorem C.3 for its Renyi route); MJTB+22 Theorem 3.1's closed form.",
    "Encodings: numbers are decimal strings, sizes and fixed-point integers JSON integers (exact)."
    " mpmath values are published rounded up (toward +infinity) to 20 significant digits; a"
    " published epsilon is the spec's string: the smallest decimal with `digits` (default 10)"
    " significant digits whose delta bound meets the target. Tolerance (rel, abs) per op,"
    " |got - want| <= max(rel |want|, abs) on numeric strings, anything else exact: "
    + "; ".join(f"{op.split('.', 1)[1]} ({r:g}, {ab:g})" for op, (r, ab) in sorted(TOLERANCE.items()))
    + ".",
    "Cut-offs: cutoff_for(delta) = min(1e-60, 1e-30 delta) (1e-60 without a target); the clone"
    " curve cuts at 1e-25 delta. A binomial window is tabulated from the mode outward and stopped"
    " once the geometric bound on the rest is below the cut-off; that bound is `lost`.",
    "clone_curve: CloneCurve(eps0, n, variant, delta).delta(eps) (delta absent: no target). C ~"
    " Bin(n - 1, pc) on a fixed-point window at scale 2^bits (`windowLo`, `atoms`, `bits`); for"
    " eps >= eps0 the bound is 0 and nothing else is computed (lowerCdf, total null). Otherwise"
    " with alpha = 1/(1 + e^-eps0), beta = 1 - alpha, thr = (alpha - e^eps beta)/(e^eps alpha -"
    " beta), share = thr/(1 + thr) (exactly 1/2 at eps = 0, where ties are exact), m_c = the"
    " largest integer strictly below share (c + 1); `lowerCdf` = the lower bound on P[Bin(c0, 1/2)"
    " <= m_c0] 2^bits at the lowest count c0 (its terms summed down from the last by the exact"
    " ratios j/(c - j + 1), each rounded down, while positive); `total` = K1 sum_c w_c B_c(m_c) -"
    " K2 sum_c w_c F_c(m_c) + (undecided weight + lost) 2^(2 bits), the integer at scale 2^(3 bits)"
    " that `delta` is rounded up from (K1 = e^eps alpha - beta rounded up, K2 = e^eps - 1 rounded"
    " down, both at scale 2^bits; B and F carried from c to c + 1 by the fair-coin recurrences of"
    " the docstring, upper and lower bounds respectively; a count whose m_c the interval of share"
    " leaves undecided adds its whole weight).",
    "search: a published epsilon (`function` clone_epsilon, rr_sum_epsilon or"
    " rappor_histogram_epsilon) with its transcript: `estimate` and `cap` = what the function hands"
    " to certified_epsilon (estimate: the given `estimate`, else the cap; cap: eps0 for the clone"
    " curves and replacement, 4 eps0 + 50 for deletion, 2 eps0 for the histogram),"
    " `evaluatedAt` = every eps at which the delta curve was evaluated, in order (deletion first"
    " checks the cap: a delta above the target there is \"inf\"; then the test at 0: a delta at 0"
    " within the target is \"0\"), `grid` = the grid values the smallest-on-grid search tested.",
    "certified_epsilon: the same search called directly on the summed-RR curve of (eps0, n,"
    " neighbours, ones) at the cut-off of `delta`, with `estimate` (absent: none) and `cap`:"
    " the start is the estimate (the cap when absent or not finite) clamped to [1e-30, cap rounded"
    " up]; a grid value at or above the rounded-up cap is accepted without evaluating the curve.",
    "rr_pairs: the aligned neighbouring pairs (replacement: one pair, the target reporting 1 and"
    " 0; deletion: the target reporting 0, then 1, each against its absence), each list on the"
    " window of the other users' count from `othersLo` (`othersAtoms` atoms: Bin(n - 1 - ones, p)"
    " + Bin(ones, 1 - p), the second skipped when ones = 0) plus one, and `lost`; ones in"
    " [0, n - 1], n >= 1.",
    "rr_delta: rr_sum_delta (cut-off 1e-60): max over the pairs and both directions of the"
    " hockey-stick divergence, plus 1e-40 of itself, plus lost, capped at 1. rr_worst_delta: the"
    " largest delta over ones = 0 .. n - 1, as the spec's rounded-up decimal (`digits`, default"
    " 10), and the smallest maximising ones.",
    "histogram_delta: rappor_histogram_delta (cut-off of `delta`, 1e-60 when absent): the"
    " hockey-stick divergence of the product pair, plus 1e-40 of itself, plus twice the marginal"
    " lost, capped at 1; n >= 2.",
    "histogram_renyi: rappor_histogram_rdp_epsilon: (eps rounded up to `digits`, alpha to 6"
    " digits); the window is cut at cutoff_for(delta) e^(-255 eps0) (`cutoff`, `windowAtoms`); the"
    " conversion 2 max(rho, 0) + (ln(1/delta) + (a - 1) ln(1 - 1/a) - ln a)/(a - 1) is minimised"
    " over the default orders up to 256, then golden-section search on the `bracket` of the grid"
    " neighbours of the best order (ratio (sqrt 5 - 1)/2, 40 `steps`) and its two final points"
    " replace the best only when strictly better; eps clamped to [0, 2 eps0]."
    " histogram_renyi_order: that route at one order alpha in (1, 256] (rappor_histogram_renyi,"
    " 30 digits): tail = e^((alpha - 1) eps0) lost (lost: the mass the window leaves out),"
    " forward = ln(sum_window P^alpha Q^(1 - alpha) + tail)/(alpha - 1) and backward the same with"
    " P and Q exchanged (P: the target's bit 1, Q: 0, the other users' bits 0); histogram_renyi"
    " converts the larger of the two.",
    "closed_form: MJTB+22 eq. (1) rounded up, n >= 2. window_estimate: int(min(2 w sd + 2 w + 10,"
    " m + 1)), sd = sqrt(m p (1 - p)), w = sqrt(2 ln(1/cut)) + 2, cut = `cutoff` or"
    " cutoff_for(delta). binary64_slack: null when the bound is certified (closed, fmt20, fmt22;"
    " exact-rr up to 40000 atoms, n counted as atoms) or a parameter is bad; else 1e-15 per atom"
    " of window_estimate(n - 1, p, delta). publish: [eps, note] of the certified evaluation, null"
    " for exact-rr when window_estimate(n - 1, p, delta) > 40000 or, with ones, window_estimate("
    "ones, p, delta) > 2000.",
]

NOTES = {
    "Boundary": "parameters on or next to a decision point (a validity limit, a cap, a tie met"
                " exactly, the first or last step of a loop)",
    "Default": "an optional argument left out: the spec's default applies",
    "BadParameter": "an argument outside its domain; the implementation must reject it",
}

Case = tuple[str, dict[str, Any], list[str]]


def _group(op: str, tests: list[Case], tc: TestNumberer,
           invalid: list[tuple[str, dict[str, Any]]] | None = None) -> dict[str, Any]:
    return build_group(tc, HANDLERS, op, tests, [(c, i, "BadParameter") for c, i in invalid or []],
                       {}, rejects=(ValueError, TypeError, ArithmeticError))


#: eps at which the fmt22 share of eps0 = 1 is 45/100 and 45/101 (solved at 120 digits:
#: e^eps = (alpha + t beta)/(t alpha + beta), t = share/(1 - share))
E45_100 = ("0.09248930665713329445241399252805710988928814283381543826938003426756"
           "59760728055240314197367")
E45_101 = ("0.10074430435542952359304154748029854473005027922298182873416499660652"
           "535995090614616425622")


def _clone_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()

    def cc(eps: str, eps0: str, n: Any, variant: str = "fmt22", delta: str | None = "1e-6"
           ) -> dict[str, Any]:
        d: dict[str, Any] = {"eps": eps, "eps0": eps0, "n": n, "variant": variant}
        if delta is not None:
            d["delta"] = delta
        return d

    g = [_group(P + "clone_curve", [
        ("fmt22 eps0 1, n 100, eps 0: share exactly 1/2, ties exact", cc("0", "1", 100),
         ["Boundary"]),
        ("fmt22 eps0 1, n 100, eps 0.3", cc("0.3", "1", 100), []),
        ("fmt22 eps0 1, n 100, eps 0.99: just below eps0", cc("0.99", "1", 100), ["Boundary"]),
        ("fmt22 eps0 1, n 100, eps = eps0: the local guarantee, 0 without any sum",
         cc("1", "1", 100), ["Boundary"]),
        ("fmt20 eps0 2, n 50, eps 0.5", cc("0.5", "2", 50, "fmt20"), []),
        ("fmt20 eps0 2, n 50, eps 0", cc("0", "2", 50, "fmt20"), ["Boundary"]),
        ("fmt22 eps0 0.5, n 2000, eps 0.1, no target (cut-off 1e-60)",
         cc("0.1", "0.5", 2000, delta=None), ["Default"]),
        ("fmt22 eps0 1, n 100, eps with share = 45/100 to 90 digits: share (c + 1) is an"
         " integer at c = 19, 39, ..., 99 (the last count), each count's weight added whole",
         cc(E45_100, "1", 100), ["Boundary"]),
        ("fmt22 eps0 1, n 100, eps with share = 45/101: an integer share (c + 1) only one step"
         " past the last count 99, which is never taken", cc(E45_101, "1", 100), ["Boundary"]),
        ("fmt22 eps0 200, n 2, eps 0: the enclosure passes 1 by its rounding, capped at 1",
         cc("0", "200", 2), ["Boundary"]),
        ("fmt22 eps0 3, n 2: one other user, a two-atom window", cc("0.2", "3", 2),
         ["Boundary"]),
        ("fmt22 eps0 0.5, n 5000, eps 0.05: the window does not start at 0",
         cc("0.05", "0.5", 5000), []),
    ], tc, [
        ("n 1", cc("0.5", "1", 1)),
        ("eps0 0", cc("0.5", "0", 100)),
        ("unknown variant", cc("0.5", "1", 100, "fmt21")),
    ])]
    g.append(_group(P + "clone_curve", [], tc, [
        ("target delta 0: a target must lie in (0, 1)", cc("0.5", "1", 100, delta="0")),
        ("target delta 1e25: not a probability (its cut-off 1e0 would leave out more than all"
         " the mass)", cc("0.5", "1", 100, delta="1e25")),
    ]))
    return g


#: targets equal to a curve's 50-digit bound (written to 60 digits, which read back exactly):
#: summed RR, eps0 1, n 20, replacement, at eps 0 and at 0.6872; deletion, n 2, at the cap 54
TIE_AT_0 = "0.0941620886762688652762363076180272295560197976304327672368444"
TIE_AT_06872 = "0.000999696691845584255173912993080597270602714233673902217496667"
TIE_AT_CAP = "0.19661193324148185253742473358590902562228694662063834339133"


def _search_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()

    def s(fn: str, eps0: str, n: Any, delta: str, **kw: Any) -> dict[str, Any]:
        return {"function": fn, "eps0": eps0, "n": n, "delta": delta, **kw}

    g = [_group(P + "search", [
        ("clone fmt22 eps0 1, n 100, delta 1e-3, estimate absent: start at eps0",
         s("clone_epsilon", "1", 100, "1e-3", variant="fmt22"), ["Default"]),
        ("clone fmt22 eps0 1, n 100, delta 1e-3, estimate 0.5, digits 4",
         s("clone_epsilon", "1", 100, "1e-3", variant="fmt22", estimate="0.5", digits=4), []),
        ("clone, variant absent (fmt22), eps0 2, n 60, delta 1e-4, digits 3",
         s("clone_epsilon", "2", 60, "1e-4", digits=3), ["Default"]),
        ("rr replacement eps0 1, n 20, delta 1e-3, estimate absent: start at the cap eps0",
         s("rr_sum_epsilon", "1", 20, "1e-3", digits=4), ["Default"]),
        ("rr replacement eps0 1, n 20, delta 1e-3, estimate 0.3",
         s("rr_sum_epsilon", "1", 20, "1e-3", estimate="0.3", digits=4), []),
        ("rr deletion eps0 1, n 20, delta 1e-3: cap 4 eps0 + 50 = 54, checked first",
         s("rr_sum_epsilon", "1", 20, "1e-3", neighbours="deletion", digits=4), ["Boundary"]),
        ("rr deletion eps0 1, n 2, delta 0.1: the mass the absence cannot explain exceeds"
         " delta, inf", s("rr_sum_epsilon", "1", 2, "0.1", neighbours="deletion"),
         ["Boundary"]),
        ("rr deletion eps0 0.5, n 10, ones 3, delta 1e-2, estimate 2",
         s("rr_sum_epsilon", "0.5", 10, "1e-2", neighbours="deletion", ones=3, estimate="2",
           digits=4), []),
        ("rr replacement eps0 1, n 20, delta = the curve's bound at 0 exactly (its 50-digit"
         " value to 60 digits): within the target, eps 0",
         s("rr_sum_epsilon", "1", 20, TIE_AT_0), ["Boundary"]),
        ("rr replacement eps0 1, n 20, digits 4, delta = the curve's bound at the grid value"
         " 0.6872 exactly: 0.6872 meets it", s("rr_sum_epsilon", "1", 20, TIE_AT_06872, digits=4),
         ["Boundary"]),
        ("rr deletion eps0 1, n 2, delta = the curve's bound at the cap 54 exactly: not above"
         " the target, so finite", s("rr_sum_epsilon", "1", 2, TIE_AT_CAP, neighbours="deletion",
                                     digits=4), ["Boundary"]),
        ("histogram eps0 1, n 50, delta 1e-3, estimate absent: start at the cap 2 eps0",
         s("rappor_histogram_epsilon", "1", 50, "1e-3", digits=4), ["Default"]),
        ("histogram eps0 1, n 50, delta 1e-3, estimate 1.2",
         s("rappor_histogram_epsilon", "1", 50, "1e-3", estimate="1.2", digits=4), []),
        ("histogram eps0 2, n 3, delta 1e-9: the answer is above eps0",
         s("rappor_histogram_epsilon", "2", 3, "1e-9", digits=4), ["Boundary"]),
    ], tc, [
        ("clone delta 0", s("clone_epsilon", "1", 100, "0")),
        ("rr delta 1", s("rr_sum_epsilon", "1", 20, "1")),
        ("histogram eps0 0", s("rappor_histogram_epsilon", "0", 50, "1e-3")),
        ("unknown function", s("gaussian_epsilon", "1", 20, "1e-3")),
    ])]
    return g


def _certified_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()

    def c(delta: str, cap: str, eps0: str = "1", n: Any = 20, **kw: Any) -> dict[str, Any]:
        return {"eps0": eps0, "n": n, "delta": delta, "cap": cap, **kw}

    return [_group(P + "certified_epsilon", [
        ("estimate absent: the search starts at the cap", c("1e-3", "1", digits=4),
         ["Default"]),
        ("estimate 0.3, digits 4", c("1e-3", "1", estimate="0.3", digits=4), []),
        ("estimate 1e-35, below the floor 1e-30 of the start", c("1e-3", "1", estimate="1e-35",
                                                                  digits=3), ["Boundary"]),
        ("estimate 0: the start is the floor 1e-30", c("1e-3", "1", estimate="0", digits=3),
         ["Boundary"]),
        ("estimate 100, above the cap: the start is the rounded-up cap",
         c("1e-3", "1", estimate="100", digits=3), ["Boundary"]),
        ("estimate inf (not finite): start at the cap", c("1e-3", "1", estimate="inf",
                                                          digits=3), ["Boundary"]),
        ("cap 0.3 below the curve's answer: the rounded-up cap is the answer, never evaluated",
         c("1e-3", "0.3", digits=3), ["Boundary"]),
        ("cap 0.123456 with digits 3: rounded up to 0.124 before any test",
         c("1e-3", "0.123456", digits=3), ["Boundary"]),
        ("digits absent (10)", c("1e-3", "1", estimate="0.3"), ["Default"]),
        ("eps0 100, n 2, delta 0.5: the curve at 0 is capped at 1, above delta",
         c("0.5", "100", "100", 2, digits=3), ["Boundary"]),
        ("eps0 0.01, n 20, delta 0.5: the curve at 0 is within delta, eps 0",
         c("0.5", "0.01", "0.01", 20), ["Boundary"]),
    ], tc, [
        ("delta 0", c("0", "1")),
        ("delta 1", c("1", "1")),
    ])]


def _rr_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()

    def rp(eps0: str, n: Any, ones: Any, nb: str = "replacement", **kw: Any) -> dict[str, Any]:
        return {"eps0": eps0, "n": n, "ones": ones, "neighbours": nb, **kw}

    g = [_group(P + "rr_pairs", [
        ("n 1: the target alone", rp("1", 1, 0), ["Boundary"]),
        ("n 1, deletion", rp("1", 1, 0, "deletion"), ["Boundary"]),
        ("n 4, ones 0", rp("1", 4, 0), []),
        ("n 4, ones 1: one other holds a 1", rp("1", 4, 1), ["Boundary"]),
        ("n 4, ones 3 = n - 1: every other holds a 1", rp("1", 4, 3), ["Boundary"]),
        ("n 4, ones 2, deletion", rp("0.5", 4, 2, "deletion"), []),
        ("n as a decimal string \"5\", ones \"2\"", rp("1", "5", "2"), []),
        ("eps0 3, n 60, ones 50, delta 1e-6: both windows cut below, lowest count 40s",
         rp("3", 60, 50, delta="1e-6"), ["Boundary"]),
    ], tc, [
        ("n 0", rp("1", 0, 0)),
        ("ones -1", rp("1", 4, -1)),
        ("ones 4 = n", rp("1", 4, 4)),
        ("ones 5 > n", rp("1", 4, 5)),
        ("ones true (not an integer)", rp("1", 4, True)),
        ("n true (not an integer)", rp("1", True, 0)),
        ("n 2.0 (not an integer)", rp("1", 2.0, 0)),
        ("eps0 0", rp("0", 4, 0)),
        ("unknown neighbours", rp("1", 4, 0, "swap")),
    ])]

    def rd(eps: str, eps0: str, n: Any, **kw: Any) -> dict[str, Any]:
        return {"eps": eps, "eps0": eps0, "n": n, **kw}

    g.append(_group(P + "rr_delta", [
        ("neighbours and ones absent (replacement, 0)", rd("0.5", "1", 10), ["Default"]),
        ("ones absent, deletion", rd("0.5", "1", 10, neighbours="deletion"), ["Default"]),
        ("neighbours absent, ones 4", rd("0.5", "1", 10, ones=4), ["Default"]),
        ("eps0 100, n 2, eps 0: the divergence plus its rounding allowance passes 1, capped",
         rd("0", "100", 2), ["Boundary"]),
        ("eps0 100, n 2, eps 0, deletion: capped at 1", rd("0", "100", 2,
                                                           neighbours="deletion"), ["Boundary"]),
        ("n 1: the target alone, replacement", rd("0.5", "1", 1), ["Boundary"]),
        ("n 2000, eps = eps0, replacement: no divergence left, only the mass outside the"
         " window", rd("1", "1", 2000), ["Boundary"]),
    ], tc, [
        ("n 0", rd("0.5", "1", 0)),
        ("eps0 -1", rd("0.5", "-1", 10)),
    ]))

    g.append(_group(P + "rr_worst_delta", [
        ("n 1: only ones = 0", rd("0.5", "1", 1), ["Boundary"]),
        ("n 2, replacement: ones 0 and 1 mirror each other", rd("0.5", "1", 2), ["Boundary"]),
        ("n \"4\" as a decimal string, deletion", rd("0.5", "1", "4", neighbours="deletion"),
         []),
        ("n 6, digits 4", rd("0.2", "1", 6, digits=4), []),
    ], tc, [
        ("n 0", rd("0.5", "1", 0)),
        ("n true", rd("0.5", "1", True)),
        ("n 2.0", rd("0.5", "1", 2.0)),
    ]))
    return g


def _histogram_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()

    def hd(eps: str, eps0: str, n: Any, **kw: Any) -> dict[str, Any]:
        return {"eps": eps, "eps0": eps0, "n": n, **kw}

    g = [_group(P + "histogram_delta", [
        ("eps 0: total variation of the product pair", hd("0", "1", 10), ["Boundary"]),
        ("eps 0.05: below the gap between the two largest losses", hd("0.05", "1", 10),
         ["Boundary"]),
        ("eps 1 = eps0", hd("1", "1", 10), []),
        ("eps 1.5: most terms negative and dropped", hd("1.5", "1", 10), []),
        ("n 2, eps 0.5", hd("0.5", "1", 2), ["Boundary"]),
        ("n \"6\" as a decimal string", hd("0.5", "1", "6"), []),
        ("n 2000, eps 2 = 2 eps0: only the mass outside the window, twice", hd("2", "1", 2000),
         ["Boundary"]),
        ("n 2000, eps 3, delta 1e-40: cut-off 1e-70, twice the lost mass",
         hd("3", "1", 2000, delta="1e-40"), ["Boundary"]),
        ("eps0 100, n 2, eps 0: the divergence plus its rounding allowance passes 1, capped",
         hd("0", "100", 2), ["Boundary"]),
    ], tc, [
        ("n 1", hd("0.5", "1", 1)),
        ("eps0 0", hd("0.5", "0", 10)),
    ])]

    def hr(eps0: str, n: Any, delta: str, **kw: Any) -> dict[str, Any]:
        return {"eps0": eps0, "n": n, "delta": delta, **kw}

    g.append(_group(P + "histogram_renyi", [
        ("eps0 1, n 1000, delta 1e-6: the golden section beats the grid", hr("1", 1000, "1e-6"),
         []),
        ("eps0 2, n 3, delta 0.99: the smallest order 1.25 is best", hr("2", 3, "0.99"),
         ["Boundary"]),
        ("eps0 1, n 8000, delta 1e-6: the largest order 256 is best", hr("1", 8000, "1e-6"),
         ["Boundary"]),
        ("eps0 3, n 5, delta 0.1: between eps0 and 2 eps0", hr("3", 5, "0.1"), []),
        ("eps0 3, n 2, delta 1e-6: clamped at 2 eps0", hr("3", 2, "1e-6"), ["Boundary"]),
        ("eps0 0.5, n 2, delta 0.9: clamped at 0", hr("0.5", 2, "0.9"), ["Boundary"]),
        ("eps0 1, n 200, delta 1e-3, digits 4", hr("1", 200, "1e-3", digits=4), []),
    ], tc, [
        ("n 1", hr("1", 1, "1e-6")),
        ("delta 0", hr("1", 100, "0")),
    ]))
    # eps0 above about 115: p = 1/(e^eps0 + 1) is below 10^-50, and 1 - (1 - p) at the working
    # precision is 0; the atom of mass p that only one side has (infinite privacy loss) must
    # still be there
    g.append(_group(P + "histogram_delta", [
        ("eps0 200, n 2, eps 0: the pair differs by atoms of mass about e^-200, whose loss is"
         " about 200 each way: delta is at least their share, here capped at 1",
         hd("0", "200", 2), ["Boundary"]),
        ("eps0 200, n 2, eps 399: below the largest product loss 2 eps0, so delta > 0",
         hd("399", "200", 2), ["Boundary"]),
    ], tc, []))
    g.append(_group(P + "histogram_renyi", [
        ("eps0 200, n 2, delta 1e-6: every order's divergence is about 2 eps0, clamped at"
         " 2 eps0 = 400", hr("200", 2, "1e-6"), ["Boundary"]),
    ], tc, []))
    g.append(_group(P + "histogram_delta", [], tc, [
        ("target delta 0", hd("0.5", "1", 10, delta="0")),
        ("target delta 2", hd("0.5", "1", 10, delta="2")),
    ]))

    def ho(eps0: str, n: Any, delta: str, alpha: Any) -> dict[str, Any]:
        return {"eps0": eps0, "n": n, "delta": delta, "alpha": alpha}

    # both directions and the tail term are published: the route takes the larger direction,
    # so an error in the smaller one (or in the negligible tail) would not show in eps
    g.append(_group(P + "histogram_renyi_order", [
        ("eps0 1, n 3000, delta 1e-6, alpha 1.5: the window leaves out 1.9e-171",
         ho("1", 3000, "1e-6", "1.5"), []),
        ("eps0 1, n 3000, delta 1e-6, alpha 2", ho("1", 3000, "1e-6", "2"), []),
        ("eps0 1, n 3000, delta 1e-6, alpha 256 (the largest order): tail 1.1e-60",
         ho("1", 3000, "1e-6", "256"), ["Boundary"]),
        ("eps0 3, n 500, delta 1e-6, alpha 10: backward well above forward",
         ho("3", 500, "1e-6", "10"), []),
        ("eps0 0.1, n 2000, delta 1e-9, alpha 1.0001: near order 1",
         ho("0.1", 2000, "1e-9", "1.0001"), ["Boundary"]),
        ("eps0 0.5, n 2, delta 0.9, alpha 3: the whole distribution, nothing left out",
         ho("0.5", 2, "0.9", "3"), ["Boundary"]),
    ], tc, [
        ("alpha 1", ho("1", 100, "1e-6", "1")),
        ("alpha 256.001", ho("1", 100, "1e-6", "256.001")),
        ("alpha 0.5", ho("1", 100, "1e-6", "0.5")),
        ("n 1", ho("1", 1, "1e-6", "2")),
        ("delta 0", ho("1", 100, "0", "2")),
    ]))
    return g


def _misc_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()

    def cf(eps0: str, n: Any, delta: str, **kw: Any) -> dict[str, Any]:
        return {"eps0": eps0, "n": n, "delta": delta, **kw}

    g = [_group(P + "closed_form", [
        ("n 2, the smallest", cf("0.5", 2, "1e-6"), ["Boundary"]),
        ("n \"1000\" as a decimal string", cf("1", "1000", "1e-6"), []),
        ("n 10^6, digits 15", cf("2", 10**6, "1e-8", digits=15), []),
    ], tc, [
        ("n 1", cf("1", 1, "1e-6")),
        ("n true", cf("1", True, "1e-6")),
        ("n 2.5", cf("1", 2.5, "1e-6")),
        ("delta 1", cf("1", 100, "1")),
    ])]

    g.append(_group(P + "window_estimate", [
        ("m 5: the estimate is capped at m + 1 atoms", {"m": 5, "p": "0.3", "delta": "1e-6"},
         ["Boundary"]),
        ("m 0", {"m": 0, "p": "0.3", "delta": "1e-6"}, ["Boundary"]),
        ("m 10^6, p 0.2, delta 1e-6", {"m": 10**6, "p": "0.2", "delta": "1e-6"}, []),
        ("delta absent: cut-off 1e-60", {"m": 10**6, "p": "0.2"}, ["Default"]),
        ("cut-off 1e-10 given", {"m": 10**6, "p": "0.2", "cutoff": "1e-10"}, []),
    ], tc))

    def bs(n: Any, bound: str, eps0: str = "1", delta: str = "1e-6") -> dict[str, Any]:
        return {"eps0": eps0, "n": n, "delta": delta, "bound": bound}

    g.append(_group(P + "binary64_slack", [
        ("rdp route, n 2: 1e-15 per atom, window of one other user (2 atoms)", bs(2, "rdp"),
         ["Boundary"]),
        ("rdp route, n 1: bad parameter, null", bs(1, "rdp"), ["Boundary"]),
        ("rdp route, n \"3\" as a decimal string", bs("3", "rdp"), []),
        ("rdp route, n 2.0: bad parameter, null", bs(2.0, "rdp"), ["Boundary"]),
        ("exact-rr, n 40000: exactly the 40000 atoms certified, null", bs(40000, "exact-rr"),
         ["Boundary"]),
        ("exact-rr, n 40001: one atom more, 1e-15 per atom", bs(40001, "exact-rr"),
         ["Boundary"]),
        ("fmt20: certified, null", bs(100, "fmt20"), []),
        ("closed: null", bs(100, "closed"), []),
        ("delta 0: bad parameter, null", bs(100, "rdp", delta="0"), []),
    ], tc))

    def pb(eps0: str, n: Any, delta: str, bound: str, **kw: Any) -> dict[str, Any]:
        return {"eps0": eps0, "n": n, "delta": delta, "bound": bound, **kw}

    g.append(_group(P + "publish", [
        ("exact-rr n 2: the smallest", pb("1", 2, "1e-6", "exact-rr"), ["Boundary"]),
        ("exact-rr n \"20\" as a decimal string, digits 4", pb("1", "20", "1e-3", "exact-rr",
                                                                digits=4), []),
        ("exact-rr eps0 1, n 5852827: the window estimate 40001 atoms, one above the limit,"
         " null", pb("1", 5852827, "1e-6", "exact-rr"), ["Boundary"]),
        ("exact-rr ones 13967 of n 13968: the ones' window estimate 1999 atoms, certified",
         pb("1", 13968, "1e-6", "exact-rr", ones=13967, digits=4), ["Boundary"]),
        ("exact-rr ones 13982 of n 13983: the ones' window estimate exactly 2000, certified",
         pb("1", 13983, "1e-6", "exact-rr", ones=13982, digits=4), ["Boundary"]),
        ("exact-rr ones 13996 of n 13997: the ones' window estimate 2001, null",
         pb("1", 13997, "1e-6", "exact-rr", ones=13996), ["Boundary"]),
        ("fmt22 eps0 2, n 100, digits 4", pb("2", 100, "1e-6", "fmt22", digits=4), []),
    ], tc, [
        ("n 1", pb("1", 1, "1e-6", "exact-rr")),
        ("n true", pb("1", True, "1e-6", "exact-rr")),
        ("closed has no certified evaluation", pb("1", 100, "1e-6", "closed")),
    ]))
    return g


_FILES = {
    "clone_curve": ("the clone curve's fixed-point sum", _clone_doc),
    "search": ("certified epsilon searches", _search_doc),
    "certified_epsilon": ("the search on a given curve", _certified_doc),
    "rr_sum": ("summed randomized response: pairs and deltas", _rr_doc),
    "histogram": ("symmetric-RAPPOR histogram bounds", _histogram_doc),
    "limits": ("closed form, window estimates, binary64 slack, publish", _misc_doc),
}


class AccountingShuffleMpBoundsFamily(AccountingFilesFamily):
    """Its own ops, files and schema; cases and compare as the accounting family's (per-op
    tolerances, here this module's :data:`TOLERANCE`)."""

    name = NAME
    summary = "decision points of the certified mpmath shuffle bounds (shuffle_mp)"
    tolerance = TOLERANCE
    schema = SCHEMA
    header = HEADER
    notes = NOTES
    handler_table = HANDLERS
    arg_names = _ARG_NAMES
    file_table = _FILES


FAMILY = AccountingShuffleMpBoundsFamily()
