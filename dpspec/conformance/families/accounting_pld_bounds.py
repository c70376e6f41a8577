"""Vector family ``accounting-pld-bounds``: the evaluation and search half of the certified PLD
accountant (dpspec.spec.accounting.pld), published exactly.

The composed bounds of the Poisson-subsampled Gaussian are exact rationals (integer masses at
scale ``2^mass_bits``, ``e^eps`` and ``e^-l`` bracketed by integers at ``2^-64`` and ``2^-256``),
so every bound here is published as the exact rational the spec computes (``"n/d"``, or an
integer) and compared exactly: an implementation that follows the spec's rounding directions
reproduces it bit for bit, and one that rounds a single bracket the wrong way does not. The
constructions are the split/merge dominating pair of [DGKKM22] / [ZDW22] (Def. 7, Thm 10) for the
upper bound and the bucket coarsening of [MM18] / [KJH20] for the lower bound; the
hockey-stick divergence of both directions (add and remove) as in [ZDW22] sec. 3.

Cases sit at the decision points of the evaluation and of the eps(delta) search: eps below the
lowest grid loss and at or above the highest (where the upper bound is its mass at +inf), losses
above 256 ln 2 (where the ``2^-256`` weights are zero), a lower bound made of one bucket, a target
delta equal to a bound exactly (the search's ties at eps 0 and at its bracket end), the number of
digits and the 400-step cap of the bisection, each argument's limit and each input check.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from dpspec.conformance.families._groups import build_group, memoised
from dpspec.conformance.families.accounting import AccountingFilesFamily, optional
from dpspec.conformance.vectors import Case, Handler, TestNumberer
from dpspec.spec.accounting import pld
from dpspec.spec.accounting.numeric import to_fraction

SCHEMA = "accounting_pld_bounds-v1.json"
NAME = "accounting-pld-bounds"
P = "accounting_pld_bounds."

#: every output is an exact rational (or a decimal string the spec rounds itself): no tolerance
EXACT = (0.0, 0.0)

TOLERANCE: dict[str, tuple[float, float]] = {
    P + "curves": EXACT,
    P + "delta_bounds": EXACT,
    P + "epsilon_bounds": EXACT,
    P + "default_tail": EXACT,
    P + "decimal_bound": EXACT,
    P + "search": EXACT,
}

#: the inputs of composed() a case may give (input name -> keyword); absent ones take defaults
_COMPOSED_KW = {"h": "h", "massBits": "mass_bits", "tail": "tail", "resolution": "resolution"}


def exact(x: Fraction | None) -> str:
    """An exact rational as published: ``"n/d"`` in lowest terms, an integer as ``"n"``; None
    (an infinite eps) as ``"inf"``."""
    if x is None:
        return "inf"
    return str(Fraction(x))


def _composed_kw(a: dict[str, Any]) -> dict[str, Any]:
    return optional(a, **_COMPOSED_KW)


def exact_compare(want: Any, got: Any, where: str = "") -> str | None:
    """None if ``got`` is ``want`` exactly (the same objects, lists and strings, the same JSON
    types), else where they first differ: a bound is one rational in lowest terms with up to a
    few hundred digits, and it is published as exactly that text."""
    if isinstance(want, dict):
        if not isinstance(got, dict) or sorted(got) != sorted(want):
            return f"{where or 'outputs'}: expected the keys {sorted(want)}"
        for k in sorted(want):
            why = exact_compare(want[k], got[k], f"{where}{k}.")
            if why:
                return why
        return None
    if isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            return f"{where.rstrip('.')}: expected a list of {len(want)}"
        for i, (w, g) in enumerate(zip(want, got, strict=True)):
            why = exact_compare(w, g, f"{where}{i}.")
            if why:
                return why
        return None
    if type(got) is not type(want) or got != want:
        return f"{where.rstrip('.')}: expected {want!r}, got {got!r}"
    return None


# -- reference handlers -----------------------------------------------------------------------
def h_curves(a: dict[str, Any]) -> dict[str, Any]:
    """pld.composed once, then its curves: per direction (remove, add) the highest grid loss of
    the upper bound and its mass at +inf, and at each eps the lower and upper bound of each
    direction and Curves.delta; at each target delta Curves.epsilon (``digits`` if given)."""
    c = pld.composed(a["q"], a["sigma"], a["steps"], **_composed_kw(a))
    deltas = []
    for e in a["eps"]:
        x = to_fraction(e, "eps")
        lo, hi = c.delta(e)
        deltas.append({"eps": e, "lower": [exact(w.delta(x)) for w in c.lower],
                       "upper": [exact(u.delta(x)) for u in c.upper],
                       "bounds": [exact(lo), exact(hi)]})
    kw = optional(a, "digits")
    epsilons = []
    for d in a["delta"]:
        elo, ehi = c.epsilon(d, **kw)
        epsilons.append({"delta": d, "lower": exact(elo), "upper": exact(ehi)})
    return {"h": exact(c.h), "top": [exact(u.top()) for u in c.upper],
            "floor": [exact(u.floor()) for u in c.upper], "delta": deltas, "epsilon": epsilons}


def h_delta_bounds(a: dict[str, Any]) -> dict[str, Any]:
    lo, hi = pld.delta_bounds(a["q"], a["sigma"], a["steps"], a["eps"], **_composed_kw(a))
    return {"lower": exact(lo), "upper": exact(hi)}


def h_epsilon_bounds(a: dict[str, Any]) -> dict[str, Any]:
    lo, hi = pld.epsilon_bounds(a["q"], a["sigma"], a["steps"], a["delta"],
                                **optional(a, "digits"), **_composed_kw(a))
    return {"lower": exact(lo), "upper": exact(hi)}


def h_default_tail(a: dict[str, Any]) -> dict[str, Any]:
    return {"tail": exact(pld.default_tail(a["delta"]))}


def h_decimal_bound(a: dict[str, Any]) -> dict[str, Any]:
    x = a["value"]
    return {"bound": pld.decimal_bound(None if x is None else to_fraction(x, "value"),
                                       a["digits"], up=a["up"])}


def h_search(a: dict[str, Any]) -> dict[str, Any]:
    """The eps(delta) search by itself (pld._search) on the made-up predicate ok(e) = (e >= root)
    with the given top loss: the end it returns and every point it tried, in order."""
    top, root = to_fraction(a["top"], "top"), to_fraction(a["root"], "root")
    digits, lower = a["digits"], a["lower"]
    if isinstance(digits, bool) or not isinstance(digits, int) or digits < 1:
        raise ValueError("digits must be an integer >= 1")
    if not isinstance(lower, bool):
        raise ValueError("lower must be true or false")
    probes: list[str] = []

    def ok(e: Fraction) -> bool:
        probes.append(exact(e))
        return e >= root

    return {"end": exact(pld._search(ok, top, digits, lower=lower)), "probes": probes}


HANDLERS: dict[str, Handler] = {
    P + "curves": h_curves,
    P + "delta_bounds": h_delta_bounds,
    P + "epsilon_bounds": h_epsilon_bounds,
    P + "default_tail": h_default_tail,
    P + "decimal_bound": h_decimal_bound,
    P + "search": h_search,
}

HANDLERS = {op: memoised(h) for op, h in HANDLERS.items()}

_GRID = ("h", "massBits", "tail", "resolution")
_ARG_NAMES: dict[str, tuple[str, ...]] = {
    P + "curves": ("q", "sigma", "steps", *_GRID, "eps", "delta", "digits"),
    P + "delta_bounds": ("q", "sigma", "steps", "eps", *_GRID),
    P + "epsilon_bounds": ("q", "sigma", "steps", "delta", "digits", *_GRID),
    P + "default_tail": ("delta",),
    P + "decimal_bound": ("value", "digits", "up"),
    P + "search": ("top", "root", "digits", "lower"),
}

HEADER = [
    "Certified PLD bounds of T compositions of the Poisson-subsampled Gaussian (rate q, noise"
    " multiplier sigma, sensitivity 1, add/remove neighbours), module dpspec.spec.accounting.pld:"
    " the lower bound coarsens the privacy loss into buckets [j h, (j+1) h) ([MM18], [KJH20]), the"
    " upper bound splits each bucket onto its two end points, a dominating pair ([DGKKM22];"
    " [ZDW22] Def. 7, Thm 10); both directions, remove (A, B) and add (B, A), are bounded and the"
    " larger taken ([ZDW22] sec. 3). Composition is exact integer convolution at scale"
    " 2^massBits, see the module docstring for every rounding direction.",
    "Encodings: numbers are decimal or rational strings (\"n/d\"), sizes and digits JSON integers;"
    " every bound is published as the exact rational the spec computes (\"n/d\" in lowest terms,"
    " an integer as \"n\", an infinite eps as \"inf\") and compared exactly, as a string, every"
    " digit (not at 40 digits as the other accounting families); decimal_bound's string too."
    " Tolerance (rel, abs) per op: " + "; ".join(f"{op.split('.', 1)[1]} ({r:g}, {ab:g})"
                                                  for op, (r, ab) in sorted(TOLERANCE.items()))
    + ".",
    "Common inputs of composed(q, sigma, steps, h, massBits, tail, resolution): q in (0, 1] (1"
    " allowed: no subsampling), sigma > 0, steps an integer in [1, 10^7], tail in (0, 1e-3)"
    " (default 1e-30), massBits an integer >= 32 (default 128), h > 0 (default: the power of two"
    " just below sqrt(steps v) / resolution, v = log(1 + q^2 (e^(1/sigma^2) - 1)), resolution"
    " default 500). An input left out takes its default.",
    "curves: composed() once; `h` the grid width used; per direction [remove, add]: `top` the"
    " loss (offset + n - 1) h of the upper bound's highest grid atom, `floor` its mass at +inf"
    " (inf / 2^massBits, the upper bound at every eps >= top). `delta`: per eps (any rational;"
    " the spec does not restrict it here) `lower` and `upper` per direction and `bounds` ="
    " [max lower, max upper] (Curves.delta). Upper, at scale 2^-(massBits+64+256): with j ="
    " floor(eps/h) + 1 and k0 = min(max(j - offset, 0), n), ((sum_{k>=k0} p_k + p_inf) 2^320 -"
    " E sum_{k>=k0} p_k w_k)_+ where E = floor(e^eps 2^64) - 1 (at least 0) and w_k the weights"
    " w_0 = max(floor(e^(-offset h) 2^256) - 1, 0), w_(k+1) = floor(w_k S / 2^256), S ="
    " max(floor(e^-h 2^256) - 1, 0). Lower: buckets sorted by the key floor(p_k 2^456 / max(r_k"
    " g_k, 1)) (descending, ties by index; g_0 = ceil(e^(-offset h) 2^256) + 1, g_(k+1) ="
    " ceil(g_k G / 2^256), G = ceil(e^-h 2^256) + 1), the prefix of the keys above"
    " (ceil(e^eps 2^64) + 1) 2^136, value (sum p 2^320 - E' sum r g)_+ with E' = ceil(e^eps 2^64)"
    " + 1. `epsilon`: per target delta in (0, 1) (else invalid) Curves.epsilon(delta, digits)"
    " (digits default 12): [lower, upper], upper \"inf\" when the upper bound stays above delta.",
    "The search (both ends): ok(e) = (max bound at e <= delta). If ok(0) the answer is 0. Else"
    " hi = max(top over directions, 0) + 1; if not ok(hi) the upper end is infinite and the lower"
    " end is hi. Else lo = 0 and bisect: mid = (lo + hi) / 2, hi = mid if ok(mid) else lo = mid,"
    " until hi - lo <= hi 10^-digits or more than 400 steps; the upper end is hi, the lower end"
    " lo. search: that search by itself, given `top` (any rational, also below 0, which the"
    " curves' tops are not found to be) on the made-up ok(e) = (e >= root): `end` the upper end"
    " (null for infinite) or, with `lower` true, the lower end, and `probes` every e tried, in"
    " order (0 first).",
    "delta_bounds: Curves.delta of composed() at eps >= 0 (else invalid). epsilon_bounds:"
    " Curves.epsilon of composed() with tail default_tail(delta) when tail is absent (digits"
    " default 12). default_tail: min(delta 2^-30, 10^-6) for delta in (0, 1), exact."
    " decimal_bound: an exact rational `value` (null: infinite, \"inf\"; 0: \"0\") to `digits`"
    " significant digits, toward +infinity when `up` else toward -infinity, as a compact decimal"
    " (scientific below 1e-5).",
]

NOTES = {
    "Boundary": "parameters on or next to a decision point (a limit met exactly, a tie of the"
                " search, the first or last step of a loop or clamp)",
    "Default": "an optional argument left out: the spec's default applies",
    "BadParameter": "an argument outside its domain; the implementation must reject it",
}

#: a small grid: two directions of about 15 atoms, exact values of about 200 digits
A: dict[str, Any] = {"q": "0.5", "sigma": "1", "steps": 1, "h": "1/4", "massBits": 32,
                     "tail": "0.0009995"}
#: every loss above 177 = 256 ln 2 (q 1, sigma 0.04: losses from about 235 to 390)
HIGH: dict[str, Any] = {"q": "1", "sigma": "0.04", "steps": 1, "h": "1", "massBits": 32,
                        "tail": "0.0009995"}


def _with(base: dict[str, Any], **kw: Any) -> dict[str, Any]:
    d = dict(base)
    d.update(kw)
    return d


def _group(op: str, tests: list[tuple[str, dict[str, Any], list[str]]], tc: TestNumberer,
           invalid: list[tuple[str, dict[str, Any]]] | None = None) -> dict[str, Any]:
    return build_group(tc, HANDLERS, op, tests, [(c, i, "BadParameter") for c, i in invalid or []],
                       {}, rejects=(ValueError, TypeError, ArithmeticError))


def _ties() -> dict[str, str]:
    """Target deltas equal to a bound of case A exactly (computed by the spec): the upper and
    the lower bound at eps 0 and the upper bound at the search's bracket end (its mass at
    +inf)."""
    kw = _composed_kw(A)
    c = pld.composed(A["q"], A["sigma"], A["steps"], **kw)
    lo0, up0 = c.delta(0)
    return {"upper0": exact(up0), "lower0": exact(lo0),
            "floor": exact(max(u.floor() for u in c.upper))}


def _curves_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    op = P + "curves"
    ties = _ties()
    eps_a = ["0", "1/8", "1/2", "21/8", "11/4", "3", "25/8", "15/4"]
    return [_group(op, [
        ("q 0.5, sigma 1, one step, h 1/4, massBits 32 (the least allowed), tail 0.0009995 (just"
         " below the limit 1e-3): eps from 0 past the top loss 11/4 (the add direction's lower"
         " bound is one bucket at eps 1/2, the remove direction's at 21/8 to 3; none at 25/8);"
         " targets 0.5 (met at eps 0), 0.01 and 1e-3",
         _with(A, eps=eps_a, delta=["0.5", "0.01", "1e-3"]), ["Boundary"]),
        ("the same, digits absent (default 12)", _with(A, eps=["1"], delta=["0.02"]),
         ["Default"]),
        ("the same, digits 1: the upper end's bisection stops with hi - lo = hi / 10 exactly"
         " (hi = 10 steps of the final width)", _with(A, eps=[], delta=["0.0015"], digits=1),
         ["Boundary"]),
        ("the same, digits 40 (about 133 bisection steps: still far inside the 400-step cap,"
         " whose reach, beyond 120 digits, is decided by the last digits of e^eps and so not"
         " published)", _with(A, eps=[], delta=["0.01"], digits=40), ["Boundary"]),
        ("the same, target = the upper bound at eps 0 exactly: the upper end is 0",
         _with(A, eps=[], delta=[ties["upper0"]], digits=6), ["Boundary"]),
        ("the same, target = the lower bound at eps 0 exactly: the lower end is 0",
         _with(A, eps=[], delta=[ties["lower0"]], digits=6), ["Boundary"]),
        ("the same, target = the upper bound's mass at +inf exactly: met at the bracket end"
         " top + 1, so the upper end is finite", _with(A, eps=[], delta=[ties["floor"]], digits=6),
         ["Boundary"]),
        ("the same, target 1e-4 below the mass at +inf: the upper end is infinite",
         _with(A, eps=[], delta=["1e-4"], digits=6), ["Boundary"]),
        ("two steps (composition mixes the edge buckets into the middle ones)",
         _with(A, steps=2, eps=["0", "1/2", "1", "2", "31/8", "4"], delta=["0.01"], digits=8),
         []),
        ("q 1 (the loss is unbounded both ways: both grid tails carry mass), two steps",
         _with(A, q="1", steps=2, eps=["0", "1/2", "1", "2", "3", "5"], delta=["0.01"],
               digits=8), ["Boundary"]),
        ("q 1, sigma 1, h 4 (the lowest bucket is heavier than the tail and kept), massBits 64,"
         " tail 1e-9, two steps: the low tail (about 1e-17) stays in the lowest bucket",
         {"q": "1", "sigma": "1", "steps": 2, "h": "4", "massBits": 64, "tail": "1e-9",
          "eps": ["0", "1", "4"], "delta": []}, ["Boundary"]),
        ("q 1 (allowed), sigma 0.04, h 1: every loss above 256 ln 2, eps 0 and 2 below the lowest"
         " grid loss (235), 240 and 300 inside, 390 = top, 391 above",
         _with(HIGH, eps=["0", "2", "240", "300", "390", "391"], delta=["0.5"], digits=6),
         ["Boundary"]),
        ("q 0.001, sigma 5, tail 0.0009995: every grid loss below 1, the search's bracket is"
         " [0, top + 1] with top < 1", {"q": "0.001", "sigma": "5", "steps": 1, "h": "1/4096",
                                        "massBits": 32, "tail": "0.0009995", "eps": ["0"],
                                        "delta": ["1e-5", "1e-3"], "digits": 6}, ["Boundary"]),
        ("q 0.01, sigma 1, four steps, h, massBits and tail absent (defaults), resolution 4",
         {"q": "0.01", "sigma": "1", "steps": 4, "resolution": 4, "eps": ["0", "1/2"],
          "delta": ["1e-3"], "digits": 6}, ["Default"]),
    ], tc, [
        ("target delta 0", _with(A, eps=[], delta=["0"])),
        ("target delta 1", _with(A, eps=[], delta=["1"])),
        ("target delta 1.5", _with(A, eps=[], delta=["1.5"])),
        ("target delta -0.5", _with(A, eps=[], delta=["-0.5"])),
    ])]


def _delta_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    op = P + "delta_bounds"
    g = [_group(op, [
        ("eps 0 (allowed)", _with(A, eps="0"), ["Boundary"]),
        ("eps 0.5", _with(A, eps="0.5"), []),
        ("q 1 (allowed), sigma 1", _with(A, q="1", eps="1"), ["Boundary"]),
        ("massBits 32 with tail absent (1e-30 is below one quantum: the trim threshold is the"
         " least, one quantum)", {"q": "0.5", "sigma": "1", "steps": 3, "h": "1/2",
                                  "massBits": 32, "eps": "1"}, ["Boundary", "Default"]),
        ("steps 10^7 (the most allowed), q 0.001, sigma 20, h 1/4096, tail 1e-4",
         {"q": "0.001", "sigma": "20", "steps": 10**7, "h": "1/4096", "massBits": 32,
          "tail": "0.0001", "eps": "0.5"}, ["Boundary"]),
    ], tc, [
        ("eps -1e-9", _with(A, eps="-1e-9")),
        ("eps -1", _with(A, eps="-1")),
        ("steps 0", _with(A, steps=0, eps="1")),
        ("steps 10^7 + 1", _with(A, steps=10**7 + 1, eps="1")),
        ("q 0", _with(A, q="0", eps="1")),
        ("q 1.5", _with(A, q="1.5", eps="1")),
        ("sigma 0", _with(A, sigma="0", eps="1")),
        ("sigma -1", _with(A, sigma="-1", eps="1")),
        ("tail 0", _with(A, tail="0", eps="1")),
        ("tail -1e-9", _with(A, tail="-1e-9", eps="1")),
        ("tail 1e-3", _with(A, tail="0.001", eps="1")),
        ("massBits 31", _with(A, massBits=31, eps="1")),
        ("h 0", _with(A, h="0", eps="1")),
        ("h -1/4", _with(A, h="-1/4", eps="1")),
    ])]
    g.append(_group(P + "epsilon_bounds", [
        ("q 0.5, sigma 1, h 1/4, massBits 32, delta 1e-3, digits and tail absent (12; tail"
         " delta 2^-30)", {"q": "0.5", "sigma": "1", "steps": 1, "h": "1/4", "massBits": 32,
                           "delta": "1e-3"}, ["Default"]),
        ("the same, two steps, digits 4", {"q": "0.5", "sigma": "1", "steps": 2, "h": "1/4",
                                           "massBits": 32, "delta": "1e-3", "digits": 4}, []),
    ], tc, [
        ("delta 0", {"q": "0.5", "sigma": "1", "steps": 1, "h": "1/4", "delta": "0"}),
        ("delta 1", {"q": "0.5", "sigma": "1", "steps": 1, "h": "1/4", "delta": "1"}),
    ]))
    g.append(_group(P + "default_tail", [
        ("delta 1e-3", {"delta": "1e-3"}, []),
        ("delta 1/3 (not a decimal)", {"delta": "1/3"}, []),
        ("delta 0.999999, near the upper limit", {"delta": "0.999999"}, ["Boundary"]),
        ("delta 1e-300", {"delta": "1e-300"}, []),
    ], tc, [
        ("delta 0", {"delta": "0"}),
        ("delta 1", {"delta": "1"}),
        ("delta 1.5", {"delta": "1.5"}),
        ("delta -0.5", {"delta": "-0.5"}),
    ]))
    g.append(_group(P + "decimal_bound", [
        ("null (infinite) is inf", {"value": None, "digits": 12, "up": True}, ["Boundary"]),
        ("0 is 0", {"value": "0", "digits": 12, "up": False}, ["Boundary"]),
        ("1, up", {"value": "1", "digits": 12, "up": True}, ["Boundary"]),
        ("1, down", {"value": "1", "digits": 3, "up": False}, ["Boundary"]),
        ("-1, down", {"value": "-1", "digits": 5, "up": False}, ["Boundary"]),
        ("-1/3 up: toward +infinity, the magnitude rounds down",
         {"value": "-1/3", "digits": 3, "up": True}, []),
        ("-1/3 down: toward -infinity, the magnitude rounds up",
         {"value": "-1/3", "digits": 3, "up": False}, []),
        ("2/3 up", {"value": "2/3", "digits": 4, "up": True}, []),
        ("2/3 down", {"value": "2/3", "digits": 4, "up": False}, []),
        ("1/8 with 3 digits is exact either way (up)", {"value": "1/8", "digits": 3, "up": True},
         ["Boundary"]),
        ("1/8 with 3 digits (down)", {"value": "1/8", "digits": 3, "up": False}, ["Boundary"]),
        ("1/8 with 2 digits, a tie, up", {"value": "1/8", "digits": 2, "up": True}, ["Boundary"]),
        ("1/8 with 2 digits, a tie, down", {"value": "1/8", "digits": 2, "up": False},
         ["Boundary"]),
        ("7/1000000, below 1e-5: scientific", {"value": "7/1000000", "digits": 2, "up": True},
         []),
        ("123456789/1000, 4 digits up: 1.235e+5 as a plain integer",
         {"value": "123456789/1000", "digits": 4, "up": True}, []),
    ], tc))

    def se(top: str, root: str, digits: int = 6, lower: bool = False) -> dict[str, Any]:
        return {"top": top, "root": root, "digits": digits, "lower": lower}

    g.append(_group(P + "search", [
        ("top 5/2, root 7/3: hi = top + 1 = 7/2", se("5/2", "7/3"), []),
        ("the same, the lower end", se("5/2", "7/3", lower=True), []),
        ("root 0: ok at 0, the answer 0 without a search", se("3", "0"), ["Boundary"]),
        ("top 1, root 3: fails at hi = 2, the upper end is infinite", se("1", "3"), ["Boundary"]),
        ("top 1, root 3, lower: fails at hi = 2, the lower end is 2", se("1", "3", lower=True),
         ["Boundary"]),
        ("top 1, root 2: ok exactly at hi = 2", se("1", "2"), ["Boundary"]),
        ("top -1/3 below 0: hi = 0 + 1, not top + 1", se("-1/3", "1/5"), ["Boundary"]),
        ("top -1/3 below 0, the lower end", se("-1/3", "1/5", lower=True), ["Boundary"]),
        ("top -2: hi is still 1", se("-2", "1/5"), ["Boundary"]),
        ("digits 150: stops after 401 steps", se("0", "1/3", 150), ["Boundary"]),
    ], tc, [
        ("digits 0", se("1", "1/3", 0)),
        ("lower 1 (not a boolean)", {"top": "1", "root": "1/3", "digits": 6, "lower": 1}),
    ]))
    return g


_FILES = {
    "curves": ("the composed PLD bounds of each direction and the eps(delta) search", _curves_doc),
    "bounds": ("delta_bounds, epsilon_bounds, default_tail and decimal_bound", _delta_doc),
}


class AccountingPldBoundsFamily(AccountingFilesFamily):
    """Its own ops, files and schema; cases and compare as the accounting family's (per-op
    tolerances, here this module's :data:`TOLERANCE`: all exact)."""

    name = NAME
    summary = "exact certified PLD bounds: evaluation, eps(delta) search and their input checks"
    tolerance = TOLERANCE
    schema = SCHEMA
    header = HEADER
    notes = NOTES
    handler_table = HANDLERS
    arg_names = _ARG_NAMES
    file_table = _FILES

    def compare(self, case: Case, provided: dict[str, Any]) -> str | None:
        """Exact (every op's tolerance is (0, 0)): :func:`exact_compare`."""
        assert case.expected is not None
        return exact_compare(case.expected, provided)


FAMILY = AccountingPldBoundsFamily()
