"""Vector family ``accounting-pld-grid``: the exact building blocks of the certified PLD accountant
of the Poisson-subsampled Gaussian (dpspec.spec.accounting.pld) below its evaluation step.

The accountant discretises the privacy loss on a grid of width h (the privacy buckets of [MM18]),
splits each bucket's atom onto its two end points for the upper bound (the dominating pair of
[DGKKM22], [ZDW22] Def. 7) and keeps one atom per bucket for the lower bound, quantises the masses
to integers at scale 2^s with directed rounding, and composes by exact integer convolution
([KJH20] sec. 2: composition is convolution of PLDs), moving tails below a threshold in the safe
direction. The ``accounting-curves`` family publishes only the final delta/eps bounds to 12
digits; here each block is published on its own, exactly: the Kronecker-substitution product,
the trimming window and the trimmed distributions, the fixed-point exponential steps, one
composition, the default grid width, the one-step grid and its buckets, the quantiser, the
one-step upper and lower distributions, and exact rationals of a small composition.

Outputs: exact integers as hexadecimal strings (compared exactly), mpmath values rounded up to
20 significant digits (compared relatively, :data:`MP`), rationals as ``n/d`` strings (exact).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import mpmath

from dpspec.conformance.families._groups import build_group, memoised, recorded_calls, replaced
from dpspec.conformance.families.accounting import AccountingFilesFamily, optional, published
from dpspec.conformance.vectors import Handler, TestNumberer
from dpspec.spec.accounting import pld
from dpspec.spec.accounting.numeric import to_fraction

SCHEMA = "accounting_pld_grid-v1.json"
NAME = "accounting-pld-grid"
P = "accounting_pld_grid."

#: mpmath values (50 digits) rounded up to 20 significant digits, compared relatively
MP = (1e-15, 0.0)
EXACT = (0.0, 0.0)

TOLERANCE: dict[str, tuple[float, float]] = {
    P + "convolve": EXACT,
    P + "window": EXACT,
    P + "trim": EXACT,
    P + "exp_steps": EXACT,
    P + "compose_upper": EXACT,
    P + "grid_width": EXACT,
    P + "grid": MP,
    P + "grid_span": MP,
    P + "quantum": EXACT,
    P + "one_step": EXACT,
    P + "composed": EXACT,
}


def _hex(v: int) -> str:
    """An exact integer as a hexadecimal string (compared as a string, so exactly)."""
    return hex(v)


def _hexes(v: list[int]) -> list[str]:
    return [_hex(x) for x in v]


def _ints(v: Any, name: str) -> list[int]:
    """A list of JSON integers (booleans refused)."""
    if not isinstance(v, list) or any(isinstance(x, bool) or not isinstance(x, int) for x in v):
        raise TypeError(f"{name} must be a list of integers")
    return list(v)


def _int(v: Any, name: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError(f"{name} must be an integer")
    return v


def _fresh_cache() -> Any:
    """The spec's cache of exponential steps, emptied for the duration of a call, so that a case's
    outputs do not depend on which cases ran before it in the same process."""
    return replaced(pld, _EXP_CACHE={})


def _rational(x: Fraction) -> dict[str, str]:
    """An exact rational in lowest terms, numerator and denominator as hexadecimal strings
    (compared as strings, so exactly, like the integers)."""
    return {"numerator": _hex(x.numerator), "denominator": _hex(x.denominator)}


def _tail(a: dict[str, Any]) -> mpmath.mpf:
    """The tail probability as the spec's :func:`pld.composed` passes it to the grid."""
    t = to_fraction(a["tail"], "tail")
    if not 0 < t <= 1:
        raise ValueError("tail must be in (0, 1]")
    return mpmath.mpf(t.numerator) / t.denominator


def _width(a: dict[str, Any]) -> Fraction:
    h = to_fraction(a["h"], "h")
    if not h > 0:
        raise ValueError("h must be > 0")
    return h


# -- reference handlers -----------------------------------------------------------------------
def h_convolve(a: dict[str, Any]) -> dict[str, Any]:
    """The product of two integer polynomials by Kronecker substitution, by each multiplication
    the spec has (Python integers, FLINT); both must agree."""
    x, y = _ints(a["a"], "a"), _ints(a["b"], "b")
    by_python = pld._convolve_python(x, y)
    by_flint = pld._convolve_flint(x, y)
    if by_python != by_flint:
        raise ArithmeticError("the two convolution paths disagree")
    return {"product": _hexes(by_python)}


def h_window(a: dict[str, Any]) -> dict[str, Any]:
    lo, hi = pld._window(_ints(a["weights"], "weights"), _int(a["tail"], "tail"))
    return {"lo": lo, "hi": hi}


def _upper_in(d: dict[str, Any]) -> pld._Upper:
    return pld._Upper(_int(d["offset"], "offset"), _ints(d["p"], "p"), _int(d["inf"], "inf"))


def _upper_out(u: pld._Upper) -> dict[str, Any]:
    return {"offset": u.offset, "p": _hexes(u.p), "inf": _hex(u.inf)}


def _lower_out(w: pld._Lower) -> dict[str, Any]:
    return {"offset": w.offset, "p": _hexes(w.p), "r": _hexes(w.r)}


def h_trim(a: dict[str, Any]) -> dict[str, Any]:
    tail = _int(a["tail"], "tail")
    if a["kind"] == "upper":
        return _upper_out(pld._trim_upper(_upper_in(a), tail))
    if a["kind"] == "lower":
        w = pld._Lower(_int(a["offset"], "offset"), _ints(a["p"], "p"), _ints(a["r"], "r"),
                       _width(a))
        with _fresh_cache():
            return _lower_out(pld._trim_lower(w, tail))
    raise ValueError("kind must be upper or lower")


def h_exp_steps(a: dict[str, Any]) -> dict[str, Any]:
    count = _int(a["count"], "count")
    with _fresh_cache():
        steps = pld._exp_steps(_width(a), _int(a["sign"], "sign"), count)
    return {"F": _hexes(steps[:count + 1])}


def h_compose_upper(a: dict[str, Any]) -> dict[str, Any]:
    u = pld._compose_upper(_upper_in(a["x"]), _upper_in(a["y"]), _int(a["s"], "s"),
                           _int(a["tail"], "tail"))
    return _upper_out(u)


def h_grid_width(a: dict[str, Any]) -> dict[str, Any]:
    h = pld.default_grid_width(a["q"], a["sigma"], _int(a["steps"], "steps"),
                               **optional(a, "resolution"))
    return {"h": str(h)}


def _grid(a: dict[str, Any]) -> pld.Grid:
    return pld.one_step_grid(a["q"], a["sigma"], _width(a), _tail(a),
                             **optional(a, maxBuckets="max_buckets"))


def h_grid(a: dict[str, Any]) -> dict[str, Any]:
    """The one-step grid (its index range and survival functions) and the buckets of both
    directions (first index, (P_j, Q_j) per bucket, low and high tail masses)."""
    g = _grid(a)
    out: dict[str, Any] = {"lo": g.lo, "hi": g.hi, "sa": [published(x) for x in g.sa],
                           "sb": [published(x) for x in g.sb]}
    for direction in pld.DIRECTIONS:
        first, buckets, low, high = pld._buckets(g, direction)
        out[direction] = {"first": first,
                          "buckets": [[published(p), published(q)] for p, q in buckets],
                          "low": [published(x) for x in low],
                          "high": [published(x) for x in high]}
    return out


def h_grid_span(a: dict[str, Any]) -> dict[str, Any]:
    """A large grid summarised: its index range and the survival functions at both ends."""
    g = _grid(a)
    return {"lo": g.lo, "hi": g.hi, "sa": [published(g.sa[0]), published(g.sa[-1])],
            "sb": [published(g.sb[0]), published(g.sb[-1])]}


def h_quantum(a: dict[str, Any]) -> dict[str, Any]:
    up = a["up"]
    if not isinstance(up, bool):
        raise TypeError("up must be a boolean")
    with mpmath.workdps(pld.MASS_DPS):
        x = mpmath.mpf(to_fraction(a["x"], "x").numerator) / to_fraction(a["x"], "x").denominator
        return {"value": _hex(pld._quantum(x, _int(a["s"], "s"), up))}


def h_one_step(a: dict[str, Any]) -> dict[str, Any]:
    direction = a["direction"]
    if direction not in pld.DIRECTIONS:
        raise ValueError("direction must be remove or add")
    s = _int(a["s"], "s")
    g = _grid(a)
    return {"upper": _upper_out(pld.one_step_upper(g, direction, s)),
            "lower": _lower_out(pld.one_step_lower(g, direction, s))}


def h_composed(a: dict[str, Any]) -> dict[str, Any]:
    """The exact (lower, upper) bounds on delta(eps) as rationals, with the grid width and the
    mass exponent the spec used (recorded from its own calls)."""
    kw = optional(a, "h", "tail", "resolution", massBits="mass_bits")
    with _fresh_cache(), recorded_calls(pld, "one_step_upper") as calls:
        curves = pld.composed(a["q"], a["sigma"], _int(a["steps"], "steps"), **kw)
        lo, hi = curves.delta(a["eps"])
    return {"h": str(curves.h), "massBits": calls[0].args[2], "lower": _rational(lo),
            "upper": _rational(hi)}


HANDLERS: dict[str, Handler] = {
    P + "convolve": h_convolve,
    P + "window": h_window,
    P + "trim": h_trim,
    P + "exp_steps": h_exp_steps,
    P + "compose_upper": h_compose_upper,
    P + "grid_width": h_grid_width,
    P + "grid": h_grid,
    P + "grid_span": h_grid_span,
    P + "quantum": h_quantum,
    P + "one_step": h_one_step,
    P + "composed": h_composed,
}

HANDLERS = {op: memoised(h) for op, h in HANDLERS.items()}

_ARG_NAMES: dict[str, tuple[str, ...]] = {
    P + "convolve": ("a", "b"),
    P + "window": ("weights", "tail"),
    P + "trim": ("kind", "offset", "p", "inf", "r", "h", "tail"),
    P + "exp_steps": ("h", "sign", "count"),
    P + "compose_upper": ("x", "y", "s", "tail"),
    P + "grid_width": ("q", "sigma", "steps", "resolution"),
    P + "grid": ("q", "sigma", "h", "tail", "maxBuckets"),
    P + "grid_span": ("q", "sigma", "h", "tail", "maxBuckets"),
    P + "quantum": ("x", "s", "up"),
    P + "one_step": ("q", "sigma", "h", "tail", "maxBuckets", "direction", "s"),
    P + "composed": ("q", "sigma", "steps", "h", "massBits", "tail", "resolution", "eps"),
}

HEADER = [
    "Certified PLD accounting of the Poisson-subsampled Gaussian (rate q, noise multiplier sigma,"
    " sensitivity 1, add/remove neighbours), module dpspec.spec.accounting.pld: the exact blocks"
    " below the evaluation of delta. Sources: the privacy buckets of [MM18] (Meiser, Mohammadi,"
    " CCS 2018), composition as convolution of PLDs ([SMM19], [KJH20] sec. 2), the split of a"
    " bucket atom onto its two grid end points (the dominating pair of [DGKKM22] sec. 3; [ZDW22]"
    " Def. 7 and Thm 10 for the composition of dominating pairs).",
    "Encodings: numbers are decimal strings (h and eps may be fractions n/d), sizes and indices"
    " JSON integers. Exact integers in outputs are lower-case hexadecimal strings with the prefix"
    " 0x, compared exactly; exact rationals are {numerator, denominator} in lowest terms, both such"
    " hexadecimal strings; mpmath"
    " values (50 digits) are published rounded up (toward +infinity) to 20 significant digits."
    " Tolerance (rel, abs) per op, |got - want| <= max(rel |want|, abs) on decimal strings: "
    + "; ".join(f"{op.split('.', 1)[1]} ({r:g}, {ab:g})" for op, (r, ab) in sorted(TOLERANCE.items()))
    + ".",
    "convolve: the coefficients of the product of the polynomials a and b (non-negative integers;"
    " an empty input gives an empty product; len(a) + len(b) - 1 coefficients otherwise), computed"
    " by Kronecker substitution: each coefficient in a slot of ceil(bits / 8) bytes, bits ="
    " bitlen(max a) + bitlen(max b) + bitlen(min(len a, len b)) + 1.",
    "window: (lo, hi) for integer weights w and an integer tail t: lo is advanced from 0 while lo <"
    " len - 1 and the weights skipped so far plus w[lo] stay <= t; then hi is moved down from len -"
    " 1 while hi > lo and the weights skipped on that side plus w[hi] stay <= t.",
    "trim: kind upper (P-masses p at grid indices offset + i, mass inf at +infinity): with the"
    " window of p, the low tail is added to the first kept mass and the high tail to inf. Kind"
    " lower (P-masses p and scaled Q-masses r = Q e^(k h) at index k = offset + i): with the window"
    " of p + r (same lengths required), the tails of p are added to the edge masses; a dropped r"
    " at d indices below (above) the first (last) kept index is multiplied by F_d of exp_steps"
    " with sign +1 (-1), summed, and ceil(sum / 2^256) is added to the edge r.",
    "exp_steps: F_0 = 2^256 and F_d = ceil(F_(d-1) e_s / 2^256) with e_s = ceil(e^(sign h)"
    " 2^256) + 1 (the first count + 1 values).",
    "compose_upper: the upper distributions x and y composed at mass exponent s and tail t:"
    " p = ceil(x.p * y.p / 2^s) (convolution), offset the sum of the offsets, inf = ceil((x.inf"
    " (sum y.p + y.inf) + sum x.p y.inf) / 2^s), then trimmed as trim (kind upper).",
    "grid_width: the default grid width 2^k, k = floor(log2(sqrt(steps v) / resolution)), v ="
    " log(1 + q^2 (e^(1/sigma^2) - 1)), resolution 500 when absent (30 digits).",
    "grid: the one-step grid of width h: L(x) = log(1 - q + q e^((2x - 1)/(2 sigma^2))), z ="
    " sqrt(2 log(1/tail)) + 1 (raised by 1 while the normal upper tail at z exceeds tail), lo ="
    " floor(L(-z sigma)/h), hi = ceil(L(1 + z sigma)/h); if hi - lo > maxBuckets (2^17 when"
    " absent): lo = max(lo, min(c - maxBuckets // 4, hi - maxBuckets)) with c = floor(L(1/2)/h),"
    " hi = min(hi, lo + maxBuckets). sa[i], sb[i] = A(L >= (lo + i) h), B(L >= (lo + i) h) (both 1"
    " below the range of L). Per direction: first index, bucket masses [P_j, Q_j] and the low and"
    " high tails [P, Q]; remove: first lo, buckets (sa[i] - sa[i+1], sb[i] - sb[i+1]), low (1 -"
    " sa[0], 1 - sb[0]), high (sa[n], sb[n]); add (the pair swapped, loss negated): first -hi, the"
    " buckets reversed with P and Q exchanged, low = remove's high exchanged, high = remove's low"
    " exchanged. grid_span: the same grid, only lo, hi and sa, sb at both ends.",
    "quantum: ceil(x 2^s) + 1 floored at 1 (up true: max(ceil, 0) + 1), or max(floor(x 2^s) - 1,"
    " 0) (up false); x at 50 digits.",
    "one_step: the one-step distributions of a direction at mass exponent s. upper: bucket j's atom"
    " split, beta = (P_j - Q_j e^(j h)) / (1 - e^-h) clamped to [0, P_j] goes to the upper end"
    " point, P_j - beta to the lower; the low tail's P joins the first point; of the high tail,"
    " top = min(Q e^(l_top), P) joins the last point and P - top is the mass at +infinity; each"
    " mass by quantum (up). lower: one atom per bucket, tails merged into the edge buckets, p by"
    " quantum (down), r = Q e^(k h) by quantum (up).",
    "composed: the exact (lower, upper) rational bounds on delta(eps) of `steps` compositions, with"
    " the grid width h used (default: grid_width) and the mass exponent (default 128); tail default"
    " 1e-30.",
]

NOTES = {
    "Boundary": "inputs on or next to a decision point (a sum equal to the tail, a loop bound, a"
                " clamp met exactly or just exceeded, a slot exactly wide enough)",
    "Default": "an optional argument left out: the spec's default applies",
    "BadParameter": "an argument outside its domain; the implementation must reject it",
}

REJECTS = (ValueError, TypeError, ArithmeticError)


def _group(op: str, tests: list[tuple[str, dict[str, Any], list[str]]], tc: TestNumberer,
           invalid: list[tuple[str, dict[str, Any]]] | None = None) -> dict[str, Any]:
    return build_group(tc, HANDLERS, op, tests, [(c, i, "BadParameter") for c, i in invalid or []],
                       {}, rejects=REJECTS)


M = 10 ** 6


def _blocks_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    g = [_group(P + "convolve", [
        ("[1, 2, 3] times [4, 5]", {"a": [1, 2, 3], "b": [4, 5]}, []),
        ("three 255s times three 127s: the middle coefficient 97155 needs the slot's 18 bits"
         " (3 bytes; 2 would overflow)", {"a": [255, 255, 255], "b": [127, 127, 127]},
         ["Boundary"]),
        ("[0] times [0]: one zero coefficient", {"a": [0], "b": [0]}, ["Boundary"]),
        ("empty times [1, 2]: empty", {"a": [], "b": [1, 2]}, ["Boundary"]),
        ("[3, 0, 7] times empty: empty", {"a": [3, 0, 7], "b": []}, ["Boundary"]),
        ("2^40 + 1 and 2^40 - 1 coefficients, lengths 4 and 2",
         {"a": [2 ** 40 + 1, 0, 5, 2 ** 40 - 1], "b": [2 ** 40 - 1, 2 ** 40 + 1]}, []),
    ], tc, [
        ("a negative coefficient", {"a": [1, -1], "b": [1]}),
        ("a non-integer coefficient", {"a": [1, "2"], "b": [1]}),
    ])]
    g.append(_group(P + "window", [
        ("[1, 2, 3, 4, 5], tail 3: the low side stops after a sum equal to the tail",
         {"weights": [1, 2, 3, 4, 5], "tail": 3}, ["Boundary"]),
        ("[5, 4, 3, 2, 1], tail 3: the high side stops after a sum equal to the tail",
         {"weights": [5, 4, 3, 2, 1], "tail": 3}, ["Boundary"]),
        ("[1, 2, 1, 5], tail 3: the next weight would exceed the tail by one",
         {"weights": [1, 2, 1, 5], "tail": 3}, ["Boundary"]),
        ("[5, 1, 2, 1], tail 3: the high side, the next weight exceeds the tail by one",
         {"weights": [5, 1, 2, 1], "tail": 3}, ["Boundary"]),
        ("[5, 1, 1], tail 3: the first weight is above the tail, the high side moves",
         {"weights": [5, 1, 1], "tail": 3}, []),
        ("[1, 1, 1], tail 10: everything below the tail, lo stops at the last index and hi"
         " meets it", {"weights": [1, 1, 1], "tail": 10}, ["Boundary"]),
        ("[7], tail 0: one weight", {"weights": [7], "tail": 0}, ["Boundary"]),
        ("[0, 0, 4, 0], tail 0: zero weights at both ends are dropped",
         {"weights": [0, 0, 4, 0], "tail": 0}, ["Boundary"]),
    ], tc, [
        ("a non-integer weight", {"weights": [1, "x"], "tail": 1}),
    ]))
    upper = {"kind": "upper", "offset": 5, "inf": 7}
    lower = {"kind": "lower", "offset": -2, "h": "1/2"}
    g.append(_group(P + "trim", [
        ("upper, low tail of 3 moved up onto the first kept mass",
         {**upper, "p": [1, 2, 3, 4, 5], "tail": 3}, ["Boundary"]),
        ("upper, high tail of 3 moved to +infinity",
         {**upper, "p": [5, 4, 3, 2, 1], "tail": 3}, ["Boundary"]),
        ("upper, tail 0: nothing moved", {**upper, "p": [1, 2, 3], "tail": 0}, []),
        ("lower, two buckets merged up into the first kept one and two down into the last, h 1/2",
         {**lower, "p": [M, M, 5 * M, 6 * M, M, 0], "r": [M, 0, 4 * M, 7 * M, 0, M],
          "tail": 3 * M}, ["Boundary"]),
        ("lower, one bucket merged at each end, h 1/3, large r",
         {**lower, "h": "1/3", "p": [0, 9 * M, 8 * M, 3 * M], "r": [2 * M, 9 * M, 8 * M, 0],
          "tail": 2 * M}, []),
        ("lower, the window set by p - r would differ: p + r is the weight",
         {**lower, "p": [3 * M, 5 * M, 5 * M, M], "r": [M, 5 * M, 5 * M, 3 * M], "tail": 3 * M},
         ["Boundary"]),
        ("lower, tail 0: nothing merged", {**lower, "p": [1, 2], "r": [3, 4], "tail": 0}, []),
    ], tc, [
        ("lower, p and r of different lengths", {**lower, "p": [1, 2, 3], "r": [1, 2],
                                                 "tail": 0}),
        ("unknown kind", {"kind": "middle", "offset": 0, "p": [1], "inf": 0, "tail": 0}),
    ]))
    g.append(_group(P + "exp_steps", [
        ("h 1/2, sign +1, 3 steps", {"h": "1/2", "sign": 1, "count": 3}, []),
        ("h 1/2, sign -1, 2 steps", {"h": "1/2", "sign": -1, "count": 2}, []),
        ("h 1/5, sign +1, one step (the first extension)", {"h": "1/5", "sign": 1, "count": 1},
         ["Boundary"]),
        ("h 1/7, sign -1, no step: 2^256 alone", {"h": "1/7", "sign": -1, "count": 0},
         ["Boundary"]),
    ], tc))
    g.append(_group(P + "compose_upper", [
        ("masses at +infinity on both sides, s 2, tail 0",
         {"x": {"offset": -1, "p": [3, 5, 2], "inf": 2}, "y": {"offset": 0, "p": [1, 4], "inf": 3},
          "s": 2, "tail": 0}, []),
        ("s 3, tail 6: both ends trimmed after the product",
         {"x": {"offset": 2, "p": [1, 9, 4, 1], "inf": 1}, "y": {"offset": -3, "p": [2, 8, 1],
                                                              "inf": 5},
          "s": 3, "tail": 6}, []),
    ], tc))
    return g


def _grid_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    base = {"q": "1", "sigma": "1", "h": "1/2", "tail": "1e-6"}
    g = [_group(P + "grid_width", [
        ("q 1, sigma 1, 250500 steps: sqrt(T v)/500 just above 1, h 1; resolution absent",
         {"q": "1", "sigma": "1", "steps": 250500}, ["Boundary", "Default"]),
        ("q 1, sigma 1, 249500 steps: just below 1, h 1/2; resolution absent",
         {"q": "1", "sigma": "1", "steps": 249500}, ["Boundary", "Default"]),
        ("q 1, sigma 1, 250500 steps, resolution 501: just below 1",
         {"q": "1", "sigma": "1", "steps": 250500, "resolution": 501}, ["Boundary"]),
        ("q 0.01, sigma 0.8, 1000 steps", {"q": "0.01", "sigma": "0.8", "steps": 1000},
         ["Default"]),
    ], tc)]
    g.append(_group(P + "grid", [
        ("q 1, sigma 1, h 1/2, tail 1e-6: the loss is x - 1/2; maxBuckets absent",
         dict(base), ["Default"]),
        ("q 0.5, sigma 1, h 1/4, tail 1e-6: the lowest boundary is below log(1 - q)",
         {"q": "0.5", "sigma": "1", "h": "1/4", "tail": "1e-6"}, ["Boundary"]),
        ("q 0.2, sigma 1.5, h 1/8, tail 1e-4", {"q": "0.2", "sigma": "1.5", "h": "1/8",
                                                "tail": "1e-4"}, []),
        ("maxBuckets 28 = hi - lo: no clamp", {**base, "maxBuckets": 28}, ["Boundary"]),
        ("maxBuckets 27: clamped at the top, lo = hi - 27", {**base, "maxBuckets": 27},
         ["Boundary"]),
        ("maxBuckets 20: lo = hi - 20 (below c - 5)", {**base, "maxBuckets": 20}, []),
        ("maxBuckets 12: lo = c - 3 (below hi - 12), hi = lo + 12", {**base, "maxBuckets": 12},
         ["Boundary"]),
    ], tc, [
        ("h 0", {**base, "h": "0"}),
        ("tail 0", {**base, "tail": "0"}),
    ]))
    g.append(_group(P + "grid_span", [
        ("q 1, sigma 1, h 2^-14, tail 1e-6: 221400 buckets, clamped to the default 2^17",
         {**base, "h": "1/16384"}, ["Boundary", "Default"]),
    ], tc))
    g.append(_group(P + "quantum", [
        ("1/4 at s 4, up: exactly 4 quanta", {"x": "0.25", "s": 4, "up": True}, ["Boundary"]),
        ("1/4 at s 4, down", {"x": "0.25", "s": 4, "up": False}, ["Boundary"]),
        ("0.3 at s 4, up", {"x": "0.3", "s": 4, "up": True}, []),
        ("0.3 at s 4, down", {"x": "0.3", "s": 4, "up": False}, []),
        ("-1/2 at s 3, up: the floor at 0 applies", {"x": "-0.5", "s": 3, "up": True},
         ["Boundary"]),
        ("0 at s 10, up", {"x": "0", "s": 10, "up": True}, ["Boundary"]),
        ("0 at s 10, down: the floor at 0 applies", {"x": "0", "s": 10, "up": False},
         ["Boundary"]),
        ("1e-30 at s 128, down", {"x": "1e-30", "s": 128, "up": False}, []),
    ], tc, [
        ("up not a boolean", {"x": "0.25", "s": 4, "up": 1}),
    ]))
    g.append(_group(P + "one_step", [
        ("remove, q 1, sigma 1, h 1/2, s 64", {**base, "direction": "remove", "s": 64}, []),
        ("add, q 1, sigma 1, h 1/2, s 64", {**base, "direction": "add", "s": 64}, []),
        ("remove, q 0.5, sigma 1, h 1/4, s 64",
         {"q": "0.5", "sigma": "1", "h": "1/4", "tail": "1e-6", "direction": "remove", "s": 64},
         []),
        ("add, q 0.5, sigma 1, h 1/4, s 64",
         {"q": "0.5", "sigma": "1", "h": "1/4", "tail": "1e-6", "direction": "add", "s": 64}, []),
    ], tc, [
        ("unknown direction", {**base, "direction": "both", "s": 64}),
    ]))
    return g


def _composed_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    base = {"q": "1", "sigma": "2", "steps": 3, "h": "1/8", "tail": "1e-6", "eps": "0.5"}
    return [_group(P + "composed", [
        ("q 1, sigma 2, 3 steps, h 1/8, eps 0.5, massBits absent (128)", dict(base),
         ["Default"]),
        ("the same at massBits 64", {**base, "massBits": 64}, []),
        ("q 0.5, sigma 2, 4 steps, h 1/16, tail 1e-5, massBits 64, eps 1",
         {"q": "0.5", "sigma": "2", "steps": 4, "h": "1/16", "tail": "1e-5", "massBits": 64,
          "eps": "1"}, []),
        ("q 1, sigma 2, 3 steps, h absent (resolution 20), eps 0.5",
         {"q": "1", "sigma": "2", "steps": 3, "resolution": 20, "tail": "1e-6", "eps": "0.5"},
         ["Default"]),
    ], tc, [
        ("steps 0", {**base, "steps": 0}),
        ("h 0", {**base, "h": "0"}),
        ("tail 1e-3", {**base, "tail": "1e-3"}),
        ("massBits 31", {**base, "massBits": 31}),
    ])]


_FILES = {
    "blocks": ("convolution, trimming window, exponential steps, one composition", _blocks_doc),
    "grid": ("default grid width, one-step grid and buckets, quantiser, one-step distributions",
             _grid_doc),
    "composed": ("exact rational bounds of a small composition", _composed_doc),
}


class AccountingPldGridFamily(AccountingFilesFamily):
    """Its own ops, files and schema; cases and compare as the accounting family's (per-op
    tolerances, here this module's :data:`TOLERANCE`)."""

    name = NAME
    summary = "exact building blocks of the certified PLD accountant (grid, convolution, trimming)"
    tolerance = TOLERANCE
    schema = SCHEMA
    header = HEADER
    notes = NOTES
    handler_table = HANDLERS
    arg_names = _ARG_NAMES
    file_table = _FILES


FAMILY = AccountingPldGridFamily()
