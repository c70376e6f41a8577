"""Vector family ``accounting-shuffle-mp-windows``: the certified machinery under the published
shuffle numbers (dpspec.spec.accounting.shuffle_mp), pinned where ``accounting-curves`` only
samples it.

``accounting-curves`` publishes a few binomial windows at 15 digits and fixed-point windows with a
relative tolerance, which cannot see a fixed-point enclosure moved by one unit. Here:

* the truncation cut-off (1e-60, or 1e-30 of a target delta below 1e-30) and the working
  precision of the fixed-point inputs (``fixed_dps``: 50 digits, more from about 100 bits) and
  the fixed-point scale (``fixed_bits``), exactly;
* Bin(m, p) tabulated from its mode outward, in mpmath (``binom_window``) and in fixed-point
  interval arithmetic (``fixed_binom_window``): the mode clamps, the early stop on the geometric
  tail bound (``lost``), the walk to the last atom (cut-off 0), the enclosures ``(lo, hi)`` of
  the mode term widened by 10^-(dps - 5) relative (values within 10^-45 of the grid), the atom
  budget per side (``maxAtoms`` given, and the default 2e6 met exactly, published as sums),
  a tail bound met exactly, a ratio bound exactly 1;
* ``clone_limits`` of the clone reductions of [FMT20] (Theorem 3.1) and [FMT22]:
  the smallest cohort n = 2, the default cut-off, and both size limits (1e6 atoms of Bin(n - 1,
  p_c), 2e6 terms of the fair-coin CDF) met on either side;
* ``CloneCurve.delta`` of the clone pair at eps = 0 (share 1/2 exactly), at eps = eps0 (delta 0 by
  the local guarantee, also where the window leaves mass out) and above, where the window starts
  at an odd clone count, and n given as a decimal string;
* the rounding allowance 10^-40 of a summed randomized-response delta, the cut-off of the Renyi
  route of MJTB+22 Theorem C.3 (scaled by e^-(255 eps0)) and the default of 10 published digits.

Outputs are compared like the ``accounting`` family's (``|got - want| <= max(rel |want|, abs)`` for
numeric strings, anything else exactly), with the tolerance of each op in :data:`TOLERANCE`.
"""

from __future__ import annotations

from typing import Any

import mpmath

from dpspec.conformance.families._groups import build_group, memoised, recorded_calls
from dpspec.conformance.families.accounting import AccountingFilesFamily, optional, published
from dpspec.conformance.vectors import Handler, TestNumberer
from dpspec.spec.accounting import shuffle_mp
from dpspec.spec.accounting.numeric import mpf

SCHEMA = "accounting_shuffle_mp_windows-v1.json"
NAME = "accounting-shuffle-mp-windows"
P = "accounting_shuffle_mp_windows."

#: mpmath values at 50 digits rounded up to 20 significant digits, compared relatively
MP = (1e-15, 0.0)
#: exact: integers (fixed-point enclosures as decimal strings, sizes) and values that are exact
#: dyadic rationals or decimals rounded up by the spec
EXACT = (0.0, 0.0)

TOLERANCE: dict[str, tuple[float, float]] = {
    P + "cutoff_for": MP,
    P + "fixed_dps": EXACT,
    P + "fixed_bits": EXACT,
    P + "binom_window": MP,
    P + "fixed_binom_window": EXACT,
    P + "fixed_window_size": EXACT,
    P + "clone_limits": MP,
    P + "clone_curve_delta": MP,
    P + "rr_rounding": MP,
    P + "rdp_route_cutoff": MP,
    P + "default_digits": EXACT,
}


def _value(a: dict[str, Any], key: str) -> mpmath.mpf:
    """A decimal input read at the module's working precision (50 digits)."""
    with mpmath.workdps(shuffle_mp.WPS):
        return mpf(a[key], key)


# -- reference handlers -----------------------------------------------------------------------
def h_cutoff_for(a: dict[str, Any]) -> dict[str, Any]:
    """The window cut-off of a target delta (absent: no target), at the module's precision (the
    spec's callers evaluate it inside their 50-digit context)."""
    delta = _value(a, "delta") if "delta" in a else None
    with mpmath.workdps(shuffle_mp.WPS):
        return {"cutoff": published(shuffle_mp.cutoff_for(delta))}


def h_fixed_dps(a: dict[str, Any]) -> dict[str, Any]:
    return {"dps": shuffle_mp.fixed_dps(a["bits"])}


def h_fixed_bits(a: dict[str, Any]) -> dict[str, Any]:
    return {"bits": shuffle_mp.fixed_bits(_value(a, "cutoff"), a["atoms"])}


def h_binom_window(a: dict[str, Any]) -> dict[str, Any]:
    kw = optional(a, maxAtoms="max_atoms")
    with mpmath.workdps(shuffle_mp.WPS):
        w = shuffle_mp.binom_window(a["m"], _value(a, "p"), _value(a, "cutoff"), **kw)
        return {"lo": w.lo, "pmf": [published(x) for x in w.pmf], "lost": published(w.lost)}


def h_fixed_binom_window(a: dict[str, Any]) -> dict[str, Any]:
    """The window's enclosures as decimal integers (exact). ``p`` is read at the digits of the
    grid (``fixed_dps(bits)``, where the spec computes), so that p = 1/2 + 2.5e-46 keeps its
    last digits."""
    kw = optional(a, maxAtoms="max_atoms")
    with mpmath.workdps(shuffle_mp.fixed_dps(a["bits"])):
        p = mpf(a["p"], "p")
    fw = shuffle_mp.fixed_binom_window(a["m"], p, _value(a, "cutoff"), a["bits"], **kw)
    return {"lo": fw.lo, "loPmf": [str(x) for x in fw.lo_pmf], "hiPmf": [str(x) for x in fw.hi_pmf],
            "lostFixed": str(fw.lost_fixed), "lost": published(fw.lost)}


def h_fixed_window_size(a: dict[str, Any]) -> dict[str, Any]:
    """A fixed-point window too long to publish atom by atom: its first atom, number of atoms,
    tail bound and the exact sums of both enclosures (the default atom budget applies)."""
    with mpmath.workdps(shuffle_mp.fixed_dps(a["bits"])):
        p = mpf(a["p"], "p")
    fw = shuffle_mp.fixed_binom_window(a["m"], p, _value(a, "cutoff"), a["bits"])
    return {"lo": fw.lo, "atoms": len(fw.hi_pmf), "loSum": str(sum(fw.lo_pmf)),
            "hiSum": str(sum(fw.hi_pmf)), "lostFixed": str(fw.lost_fixed)}


def h_clone_limits(a: dict[str, Any]) -> dict[str, Any]:
    delta = _value(a, "delta") if "delta" in a else None
    pc, cutoff, bits, atoms = shuffle_mp.clone_limits(a["eps0"], a["n"], a["variant"], delta)
    return {"pc": published(pc), "cutoff": published(cutoff), "bits": bits, "atoms": atoms}


def h_clone_curve_delta(a: dict[str, Any]) -> dict[str, Any]:
    delta = _value(a, "delta") if "delta" in a else None
    curve = shuffle_mp.CloneCurve(a["eps0"], a["n"], a["variant"], delta)
    w = curve.window
    return {"windowLo": w.lo, "windowAtoms": len(w.hi_pmf), "bits": curve.bits,
            "delta": published(curve.delta(a["eps"]))}


def h_rr_rounding(a: dict[str, Any]) -> dict[str, Any]:
    """The summed randomized-response delta and the rounding allowance the spec added to it
    (observed by wrapping the spec's own ``_rounding`` for the duration of the call)."""
    with recorded_calls(shuffle_mp, "_rounding") as calls:
        d = shuffle_mp.rr_sum_delta(a["eps"], a["eps0"], a["n"], a["neighbours"])
    return {"delta": published(d), "allowance": [published(c.result) for c in calls]}


def h_rdp_route_cutoff(a: dict[str, Any]) -> dict[str, Any]:
    """The Renyi route's epsilon (default digits) and the cut-off of the window it tabulated (the
    last argument of each ``rr_pairs`` call, observed, not recomputed)."""
    with recorded_calls(shuffle_mp, "rr_pairs") as calls:
        eps, alpha = shuffle_mp.rappor_histogram_rdp_epsilon(a["eps0"], a["n"], a["delta"])
    return {"eps": eps, "alpha": alpha, "cutoffs": [published(c.args[4]) for c in calls]}


def h_default_digits(a: dict[str, Any]) -> dict[str, Any]:
    return {"eps": shuffle_mp.closed_form_value(a["eps0"], a["n"], a["delta"])}


HANDLERS: dict[str, Handler] = {
    P + "cutoff_for": h_cutoff_for,
    P + "fixed_dps": h_fixed_dps,
    P + "fixed_bits": h_fixed_bits,
    P + "binom_window": h_binom_window,
    P + "fixed_binom_window": h_fixed_binom_window,
    P + "fixed_window_size": h_fixed_window_size,
    P + "clone_limits": h_clone_limits,
    P + "clone_curve_delta": h_clone_curve_delta,
    P + "rr_rounding": h_rr_rounding,
    P + "rdp_route_cutoff": h_rdp_route_cutoff,
    P + "default_digits": h_default_digits,
}

HANDLERS = {op: memoised(h) for op, h in HANDLERS.items()}

_ARG_NAMES: dict[str, tuple[str, ...]] = {
    P + "cutoff_for": ("delta",),
    P + "fixed_dps": ("bits",),
    P + "fixed_bits": ("cutoff", "atoms"),
    P + "binom_window": ("m", "p", "cutoff", "maxAtoms"),
    P + "fixed_binom_window": ("m", "p", "cutoff", "bits", "maxAtoms"),
    P + "fixed_window_size": ("m", "p", "cutoff", "bits"),
    P + "clone_limits": ("eps0", "n", "variant", "delta"),
    P + "clone_curve_delta": ("eps0", "n", "variant", "delta", "eps"),
    P + "rr_rounding": ("eps", "eps0", "n", "neighbours"),
    P + "rdp_route_cutoff": ("eps0", "n", "delta"),
    P + "default_digits": ("eps0", "n", "delta"),
}

HEADER = [
    "Certified shuffle accounting, module dpspec.spec.accounting.shuffle_mp: every published"
    " shuffle number is an upper bound computed at 50 significant digits, binomial distributions"
    " tabulated outward from the mode until a geometric bound on the rest is below a cut-off (the"
    " bound is added to delta), the clone reductions of [FMT20] Theorem 3.1 and [FMT22]"
    " in fixed-point interval arithmetic on Python integers. Cases sit on both sides of each"
    " decision and at each size limit; inputs outside the domain are invalid cases.",
    "Encodings: decimal strings; sizes JSON integers; fixed-point enclosures decimal strings of"
    " integers (scale 2^bits). mpmath values are published rounded up (toward +infinity) to 20"
    " significant digits. Tolerance (rel, abs) per op, |got - want| <= max(rel |want|, abs) on"
    " numeric strings, anything else exact: "
    + "; ".join(f"{op.split('.', 1)[1]} ({r:g}, {ab:g})" for op, (r, ab) in sorted(TOLERANCE.items()))
    + ".",
    "cutoff_for: min(1e-60, 1e-30 delta); 1e-60 when delta is absent.",
    "fixed_dps: max(50, floor(0.30103 bits) + 20), the digits of the mpmath inputs of a"
    " fixed-point computation at scale 2^bits. fixed_bits: floor(-log2 cutoff) + 64 +"
    " bitlength(max(atoms, 1)).",
    "binom_window: Bin(m, p) from its mode min(max(floor((m + 1) p), 0), m) (m = 0 or p = 0: the"
    " single atom 0; p = 1: the single atom m). The mode term is C(m, k) p^k (1 - p)^(m - k)"
    " (log-gamma, 50 digits). Upward, from j = mode: next = cur (m - j)/(j + 1) o, o = p/(1 - p),"
    " r = (m - j - 1) o/(j + 2); downward the same in j = m - k with 1/o. A side stops before"
    " keeping next when r < 1 and next/(1 - r) <= cutoff, and that bound is its lost mass; it"
    " stops with lost 0 at j = m. lo = mode - (atoms below the mode), pmf in increasing k, lost ="
    " the sum of both sides'. More than maxAtoms atoms on a side (default 2000000; the mode"
    " counted on the upper side) is refused.",
    "fixed_binom_window: the same walk on integers at scale 2^bits, p read at fixed_dps(bits)"
    " digits. An mpmath value x >= 0 becomes the enclosure lo = max(floor(x (1 - w) 2^bits), 0),"
    " hi = ceil(x (1 + w) 2^bits), w = 10^-(dps - 5); so are the odds o (upward ratio), 1/o"
    " (downward) and the mode term. A step from j: hi' = floor(hi (m - j) o_hi / 2^bits) // (j +"
    " 1) + 1, lo' = floor(lo (m - j) o_lo / 2^bits) // (j + 1); then num = (m - j - 1) o_hi, den"
    " = (j + 2) 2^bits; if num < den, tail = ceil(hi' den / (den - num)) and the side stops,"
    " lostFixed += tail, when tail <= floor(cutoff 2^bits). More than maxAtoms (default"
    " 2000000) atoms on a side, the mode counted on the upper side, is refused. m = 0 or p = 0:"
    " one atom 2^bits at 0; p = 1: at m. lost = lostFixed / 2^bits rounded up to 50 digits.",
    "fixed_window_size: fixed_binom_window at the default atom budget, summarised: lo, the"
    " number of atoms, the sums of the lower and upper enclosures, lostFixed.",
    "clone_limits: p_c = e^-eps0 (fmt20) or 2/(e^eps0 + 1) (fmt22); cutoff = 1e-25 delta (1e-60"
    " when delta is absent); atoms = floor(min(2 W sd + 2 W + 10, n)), sd = sqrt((n - 1) p_c (1 -"
    " p_c)), W = sqrt(2 ln(1/cutoff)) + 2; more than 1000000 atoms is refused; bits ="
    " fixed_bits(cutoff, 2 atoms); with top = (n - 1) p_c + 20 sqrt((n - 1) p_c (1 - p_c)) + 20,"
    " more than 2000000 = sqrt(top)/2 (sqrt(2 bits ln 2) + 40) CDF terms is refused; n >= 2,"
    " eps0 > 0.",
    "clone_curve_delta: CloneCurve(eps0, n, variant, delta).delta(eps), the upper bound on the"
    " hockey-stick divergence of the clone pair (0 when eps >= eps0), with its window's first"
    " clone count, number of atoms and fixed-point bits; n >= 2, an integer or its decimal"
    " string.",
    "rr_rounding: rr_sum_delta(eps, eps0, n, neighbours) and the rounding allowance added to the"
    " hockey-stick sum d, |d| 10^-40, once per evaluation.",
    "rdp_route_cutoff: rappor_histogram_rdp_epsilon(eps0, n, delta) (eps at the default 10"
    " digits, the order alpha at 6) and the cut-off of its window, cutoff_for(delta) e^-(255"
    " eps0).",
    "default_digits: closed_form_value(eps0, n, delta) at the default of 10 significant digits,"
    " rounded up.",
]

NOTES = {
    "Boundary": "parameters on or next to a decision point (a clamp, a size limit met exactly,"
                " a tail bound equal to the cut-off, the first or last step of a walk)",
    "Default": "an optional argument left out: the spec's default applies",
    "BadParameter": "an argument outside its domain; the implementation must reject it",
}

#: eps0 of fmt22 at n = 5.2e9, delta 1e-6 where the fair-coin CDF needs 2e6 - 7e-15 terms (valid)
#: and 2e6 + 1.2e-16 terms (refused)
CDF_BELOW = "0.0418018177360857139"
CDF_ABOVE = "0.041801817736085713886"
#: fmt22, eps0 1, delta 1e-6: the largest n whose clone count needs at most 1e6 atoms
ATOMS_LAST = 5169276686


def _group(op: str, tests: list[tuple[str, dict[str, Any], list[str]]], tc: TestNumberer,
           invalid: list[tuple[str, dict[str, Any]]] | None = None) -> dict[str, Any]:
    return build_group(tc, HANDLERS, op, tests, [(c, i, "BadParameter") for c, i in invalid or []],
                       {}, rejects=(ValueError, TypeError, ArithmeticError))


def _precision_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    return [
        _group(P + "cutoff_for", [
            ("delta absent: 1e-60", {}, ["Default"]),
            ("delta 1e-6: 1e-60 is the smaller", {"delta": "1e-6"}, []),
            ("delta 1e-30: both candidates are 1e-60", {"delta": "1e-30"}, ["Boundary"]),
            ("delta 1e-40: 1e-70", {"delta": "1e-40"}, []),
        ], tc),
        _group(P + "fixed_dps", [
            ("64 bits: the 50-digit floor", {"bits": 64}, ["Boundary"]),
            ("100 bits: floor(30.103) + 20 = 50, equal to the floor", {"bits": 100}, ["Boundary"]),
            ("103 bits: 51 digits", {"bits": 103}, ["Boundary"]),
            ("200 bits: 80 digits", {"bits": 200}, []),
        ], tc),
        _group(P + "fixed_bits", [
            ("cut-off 1e-31, 0 atoms: counted as 1 (bit length 1)", {"cutoff": "1e-31", "atoms": 0},
             ["Boundary"]),
            ("cut-off 1e-31, 1 atom", {"cutoff": "1e-31", "atoms": 1}, ["Boundary"]),
            ("cut-off 1e-60, 2000000 atoms", {"cutoff": "1e-60", "atoms": 2000000}, []),
        ], tc),
        _group(P + "cutoff_for", [], tc, [
            ("delta 0: a target must be a probability in (0, 1)", {"delta": "0"}),
            ("delta 1", {"delta": "1"}),
            ("delta -1e-6", {"delta": "-1e-6"}),
        ]),
    ]


def _binom_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    op = P + "binom_window"
    return [_group(op, [
        ("Bin(10, 0.3), cut-off 0: every atom, lost 0", {"m": 10, "p": "0.3", "cutoff": "0"},
         ["Boundary"]),
        ("Bin(10, 0.3), cut-off 1e-3: both sides stop early",
         {"m": 10, "p": "0.3", "cutoff": "1e-3"}, []),
        ("Bin(40, 0.6), cut-off 1e-9: both sides stop early",
         {"m": 40, "p": "0.6", "cutoff": "1e-9"}, []),
        ("Bin(1, 0.3): one trial, two atoms", {"m": 1, "p": "0.3", "cutoff": "1e-6"},
         ["Boundary"]),
        ("Bin(10, 0.01), cut-off 0.1: mode clamped to 0, the upper side stops at once",
         {"m": 10, "p": "0.01", "cutoff": "0.1"}, ["Boundary"]),
        ("Bin(9, 0.3), cut-off 0.2: (m + 1) p = 3 exactly, P(2) = P(3), mode 3",
         {"m": 9, "p": "0.3", "cutoff": "0.2"}, ["Boundary"]),
        ("Bin(9, 0.29), cut-off 0.2: (m + 1) p = 2.9, mode 2",
         {"m": 9, "p": "0.29", "cutoff": "0.2"}, ["Boundary"]),
        ("Bin(9, 0.3), cut-off 0.7: only the mode 3 is kept (P(2)/(1 - 7/12) = 0.640 <= 0.7);"
         " a walk from 2 would keep two atoms", {"m": 9, "p": "0.3", "cutoff": "0.7"},
         ["Boundary"]),
        ("Bin(9, 0.29), cut-off 0.7: only the mode 2 is kept; a walk from 3 would keep two atoms",
         {"m": 9, "p": "0.29", "cutoff": "0.7"}, ["Boundary"]),
        ("Bin(200, 0.5), cut-off 1e-20", {"m": 200, "p": "0.5", "cutoff": "1e-20"}, []),
        ("Bin(5, 0.9), cut-off 0: the mode is the last atom but one",
         {"m": 5, "p": "0.9", "cutoff": "0"}, []),
    ], tc, [
        ("m -1: no such distribution", {"m": -1, "p": "0.3", "cutoff": "1e-6"}),
    ]), _group(op, [
        ("Bin(10, 0.3), cut-off 0, maxAtoms 8: the upper side holds exactly 8 (the mode 3 and the"
         " 7 atoms above it)", {"m": 10, "p": "0.3", "cutoff": "0", "maxAtoms": 8}, ["Boundary"]),
        ("Bin(10, 0.8), cut-off 0, maxAtoms 8: the lower side holds exactly 8 (the atoms 0 to 7"
         " below the mode 8)", {"m": 10, "p": "0.8", "cutoff": "0", "maxAtoms": 8}, ["Boundary"]),
    ], tc, [
        ("Bin(10, 0.3), maxAtoms 7: the upper side needs 8",
         {"m": 10, "p": "0.3", "cutoff": "0", "maxAtoms": 7}),
        ("Bin(10, 0.8), maxAtoms 7: the lower side needs 8",
         {"m": 10, "p": "0.8", "cutoff": "0", "maxAtoms": 7}),
    ])]


def _fixed(m: int, p: str, cutoff: str, bits: int, max_atoms: int | None = None
           ) -> dict[str, Any]:
    d: dict[str, Any] = {"m": m, "p": p, "cutoff": cutoff, "bits": bits}
    if max_atoms is not None:
        d["maxAtoms"] = max_atoms
    return d


#: p = (1 + 2 t)/2 with t = 2.5e-46 and 2.5e-45: the mode term of Bin(1, p) is p, so p 2^64 is
#: 2^63 (1 + 5e-46) or 2^63 (1 + 5e-45), within the widening 1e-45 of the grid point 2^63 or not
P_NEAR = "0.50000000000000000000000000000000000000000000025"
P_FAR = "0.5000000000000000000000000000000000000000000025"


def _fixed_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    op = P + "fixed_binom_window"
    return [_group(op, [
        ("Bin(10, 0.3), cut-off 0, 64 bits, maxAtoms absent: every atom",
         _fixed(10, "0.3", "0", 64), ["Default"]),
        ("Bin(40, 0.3), cut-off 1e-6, 64 bits: both sides stop early", _fixed(40, "0.3", "1e-6", 64),
         []),
        ("Bin(60, 0.55), cut-off 1e-12, 80 bits", _fixed(60, "0.55", "1e-12", 80), []),
        ("m 0, p 0.3: one atom 2^bits", _fixed(0, "0.3", "1e-6", 64), ["Boundary"]),
        ("m 1, p 0.3: two atoms", _fixed(1, "0.3", "0", 64), ["Boundary"]),
        ("p 0: one atom at 0, lost 0", _fixed(5, "0", "1e-6", 64), ["Boundary"]),
        ("p 1: one atom at m, lost 0", _fixed(5, "1", "1e-6", 64), ["Boundary"]),
        ("Bin(1, p), p 2^64 = 2^63 (1 + 5e-46): inside the widening, lo = 2^63 - 1",
         _fixed(1, P_NEAR, "0", 64), ["Boundary"]),
        ("Bin(1, p), p 2^64 = 2^63 (1 + 5e-45): outside the widening, lo = 2^63",
         _fixed(1, P_FAR, "0", 64), ["Boundary"]),
        ("Bin(10, 1e-30), 64 bits: the odds' lower enclosure is 0, the mode clamped to 0",
         _fixed(10, "1e-30", "0", 64), ["Boundary"]),
        ("Bin(98, 0.5), 4 bits, cut-off 0: at the first upward step num = den = 816 (no tail"
         " bound)", _fixed(98, "0.5", "0", 4), ["Boundary"]),
        ("Bin(10, 0.3), cut-off 0, maxAtoms 8: the upper side holds exactly 8",
         _fixed(10, "0.3", "0", 64, 8), ["Boundary"]),
        ("Bin(10, 0.8), cut-off 0, maxAtoms 8: the lower side holds exactly 8",
         _fixed(10, "0.8", "0", 64, 8), ["Boundary"]),
        ("Bin(9, 0.3), cut-off 0, 64 bits: (m + 1) p = 3 exactly", _fixed(9, "0.3", "0", 64),
         ["Boundary"]),
        ("Bin(9, 0.29), cut-off 0, 64 bits", _fixed(9, "0.29", "0", 64), []),
        ("Bin(10, 0.01), cut-off 0.1, 64 bits: the upper side stops at once",
         _fixed(10, "0.01", "0.1", 64), ["Boundary"]),
        ("Bin(20, 0.3), 16 bits, cut-off 1162/2^16: the upper tail bound after k = 11 is 1162,"
         " equal to the cut-off (stop there)", _fixed(20, "0.3", "0.017730712890625", 16),
         ["Boundary"]),
    ], tc, [
        ("Bin(10, 0.3), maxAtoms 7: the upper side needs 8", _fixed(10, "0.3", "0", 64, 7)),
        ("Bin(10, 0.8), maxAtoms 7: the lower side needs 8", _fixed(10, "0.8", "0", 64, 7)),
    ]), _group(P + "fixed_window_size", [
        ("Bin(1999999, 1e-30), cut-off 0: the upper side holds exactly the default 2000000 atoms",
         _fixed(1_999_999, "1e-30", "0", 64), ["Boundary", "Default"]),
    ], tc, [
        ("Bin(2000000, 1e-30), cut-off 0: the upper side needs 2000001 atoms, one more than the"
         " default budget", _fixed(2_000_000, "1e-30", "0", 64)),
    ])]


def _clone_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    limits = P + "clone_limits"
    curve = P + "clone_curve_delta"
    return [
        _group(limits, [
            ("n 2: the smallest cohort", {"eps0": "1", "n": 2, "variant": "fmt20",
                                          "delta": "1e-6"}, ["Boundary"]),
            ("delta absent: cut-off 1e-60", {"eps0": "2", "n": 1000, "variant": "fmt22"},
             ["Default"]),
            (f"fmt22 eps0 1, n {ATOMS_LAST}: exactly 1000000 atoms (the limit)",
             {"eps0": "1", "n": ATOMS_LAST, "variant": "fmt22", "delta": "1e-6"}, ["Boundary"]),
            ("fmt22 n 5.2e9: 2e6 - 7e-15 CDF terms, just below the limit",
             {"eps0": CDF_BELOW, "n": 5_200_000_000, "variant": "fmt22", "delta": "1e-6"},
             ["Boundary"]),
        ], tc, [
            (f"fmt22 eps0 1, n {ATOMS_LAST + 1}: 1000001 atoms",
             {"eps0": "1", "n": ATOMS_LAST + 1, "variant": "fmt22", "delta": "1e-6"}),
            ("fmt22 n 5.2e9: 2e6 + 1.2e-16 CDF terms, just above the limit",
             {"eps0": CDF_ABOVE, "n": 5_200_000_000, "variant": "fmt22", "delta": "1e-6"}),
            ("eps0 0", {"eps0": "0", "n": 100, "variant": "fmt22", "delta": "1e-6"}),
        ]),
        _group(curve, [
            ("fmt22 eps0 1, n 10, eps 0: share 1/2 exactly",
             {"eps0": "1", "n": 10, "variant": "fmt22", "delta": "1e-6", "eps": "0"},
             ["Boundary"]),
            ("fmt20 eps0 1, n 11, eps 0", {"eps0": "1", "n": 11, "variant": "fmt20",
                                           "delta": "1e-6", "eps": "0"}, ["Boundary"]),
            ("fmt22 eps0 1, n 10, eps = eps0: 0 by the local guarantee",
             {"eps0": "1", "n": 10, "variant": "fmt22", "delta": "1e-6", "eps": "1"},
             ["Boundary"]),
            ("fmt20 eps0 1, n 10, eps 1.5 above eps0: 0",
             {"eps0": "1", "n": 10, "variant": "fmt20", "delta": "1e-6", "eps": "1.5"}, []),
            ("fmt22 eps0 1, n 10, eps 0.3", {"eps0": "1", "n": 10, "variant": "fmt22",
                                             "delta": "1e-6", "eps": "0.3"}, []),
            ("fmt22 eps0 2, n 2, eps 0.5: one other user", {"eps0": "2", "n": 2, "variant": "fmt22",
                                                            "delta": "1e-6", "eps": "0.5"},
             ["Boundary"]),
            ("fmt20 eps0 1e-20, n 3, eps 0: the window starts at the odd count 1",
             {"eps0": "1e-20", "n": 3, "variant": "fmt20", "delta": "1e-6", "eps": "0"},
             ["Boundary"]),
            ("fmt22 eps0 1e-12, n 4, eps 0: the window starts at 1",
             {"eps0": "1e-12", "n": 4, "variant": "fmt22", "delta": "1e-6", "eps": "0"},
             ["Boundary"]),
            ("fmt20 eps0 1e-12, n 5, eps 1e-13: the window starts at 2",
             {"eps0": "1e-12", "n": 5, "variant": "fmt20", "delta": "1e-6", "eps": "1e-13"},
             []),
            ("fmt22 eps0 0.5, n 300, eps 0.1, delta absent",
             {"eps0": "0.5", "n": 300, "variant": "fmt22", "eps": "0.1"}, ["Default"]),
            ("fmt22 eps0 0.5, n 300, eps = eps0, delta absent: 0 although the window leaves mass"
             " out (the local guarantee is exact)",
             {"eps0": "0.5", "n": 300, "variant": "fmt22", "eps": "0.5"}, ["Boundary", "Default"]),
            ("fmt22 eps0 1, n given as the decimal string \"10\" (read as the integer 10)",
             {"eps0": "1", "n": "10", "variant": "fmt22", "delta": "1e-6", "eps": "0.3"}, []),
        ], tc, [
            ("n 1", {"eps0": "1", "n": 1, "variant": "fmt22", "delta": "1e-6", "eps": "0.3"}),
            ("unknown variant", {"eps0": "1", "n": 10, "variant": "fmt21", "delta": "1e-6",
                                 "eps": "0.3"}),
        ]),
        _group(limits, [], tc, [
            ("target delta 0", {"eps0": "1", "n": 10, "variant": "fmt22", "delta": "0"}),
            ("target delta 1", {"eps0": "1", "n": 10, "variant": "fmt22", "delta": "1"}),
            ("target delta 1e25: its cut-off 1e0 would leave out more than all the mass",
             {"eps0": "1", "n": 100, "variant": "fmt22", "delta": "1e25"}),
        ]),
        _group(curve, [], tc, [
            ("target delta 2e25: not a probability",
             {"eps0": "1", "n": 100, "variant": "fmt22", "delta": "2e25", "eps": "0.3"}),
        ]),
    ]


def _routes_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    return [
        _group(P + "rr_rounding", [
            ("replacement, eps 0.3, eps0 2, n 60", {"eps": "0.3", "eps0": "2", "n": 60,
                                                    "neighbours": "replacement"}, []),
            ("deletion, eps 0.4, eps0 1, n 20", {"eps": "0.4", "eps0": "1", "n": 20,
                                                 "neighbours": "deletion"}, []),
        ], tc),
        _group(P + "rdp_route_cutoff", [
            ("eps0 1, n 50, delta 1e-6", {"eps0": "1", "n": 50, "delta": "1e-6"}, []),
        ], tc),
        _group(P + "default_digits", [
            ("eps0 3, n 10^4, delta 1e-6, digits absent (10)",
             {"eps0": "3", "n": 10000, "delta": "1e-6"}, ["Default"]),
        ], tc),
    ]


_FILES = {
    "precision": ("cut-offs and fixed-point precision", _precision_doc),
    "binom_window": ("binomial windows in mpmath", _binom_doc),
    "fixed_binom_window": ("binomial windows in fixed-point interval arithmetic", _fixed_doc),
    "clone": ("clone-reduction limits and curves", _clone_doc),
    "routes": ("rounding allowance, Renyi-route cut-off, default digits", _routes_doc),
}


class AccountingShuffleMpWindowsFamily(AccountingFilesFamily):
    """Its own ops, files and schema; cases and compare as the accounting family's (per-op
    tolerances, here this module's :data:`TOLERANCE`)."""

    name = NAME
    summary = "windows, cut-offs and size limits of the certified shuffle accountant"
    tolerance = TOLERANCE
    schema = SCHEMA
    header = HEADER
    notes = NOTES
    handler_table = HANDLERS
    arg_names = _ARG_NAMES
    file_table = _FILES


FAMILY = AccountingShuffleMpWindowsFamily()
