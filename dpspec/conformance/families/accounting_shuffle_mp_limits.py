"""Vector family ``accounting-shuffle-mp-limits``: the certified shuffle bounds of
dpspec.spec.accounting.shuffle_mp pushed onto their exact limits, where the families
``accounting-shuffle-mp-bounds`` and ``accounting-shuffle-mp-windows`` stop one step short.

Every case here sits on a tie or on the last representable value before one:

* a binomial window (the summed randomized response of MJTB+22 sec. 3.1.2 tabulates Bin(m, p)
  from its mode outward) whose geometric tail bound is met exactly by the cut-off, so that the
  walk stops on ``<=`` and not one atom later;
* the size limit of the clone reduction of [FMT20] (Theorem 3.1, clone probability e^-eps0):
  an eps0 at which the fair-coin CDF needs exactly 2e6 terms (accepted) and the 50-digit value
  just below it (refused);
* the fixed-point clone curve at eps one unit of the working precision below eps0, where the
  threshold ``alpha - e^eps beta`` is exactly 0 or so small that the enclosure of the share is
  [0, 2^-tb]; at eps = 1e-150, where every odd count is undecided from the first atom of the
  window on; and at a share 1e-80 above 1/3, decided at the spec's scale 2^-(bits + 64) but not at
  a coarser one;
* the certified epsilon search with a target delta that lies between a curve's hockey-stick sum
  and that sum plus its rounding allowance of 1e-40 relative, so the grid value is refused only
  because the allowance is added (summed randomized response, and the symmetric-RAPPOR
  histogram of sec. 4.3 of the DP draft, seed 003);
* ``publish`` of the exact randomized-response bound at the n whose window estimate is exactly
  its limit of 40000 atoms (certified) while n itself would estimate 40001.

Outputs are compared like the ``accounting`` family's (``|got - want| <= max(rel |want|, abs)``
on numeric strings, anything else exactly), with the tolerance of each op in :data:`TOLERANCE`.
"""

from __future__ import annotations

from typing import Any

import mpmath

from dpspec.conformance.families._groups import build_group, memoised, recorded_calls
from dpspec.conformance.families.accounting import AccountingFilesFamily, optional, published
from dpspec.conformance.vectors import Handler, TestNumberer
from dpspec.spec.accounting import shuffle_mp
from dpspec.spec.accounting.numeric import mpf

SCHEMA = "accounting_shuffle_mp_limits-v1.json"
NAME = "accounting-shuffle-mp-limits"
P = "accounting_shuffle_mp_limits."

#: mpmath values at 50 digits, published rounded up to 20 significant digits: relative 1e-15
MP = (1e-15, 0.0)
#: the clone curve (its fixed-point total is an exact integer, the bound is read from it), the
#: searches and publish (their outputs are decimals on the search's grid): compared exactly
EXACT = (0.0, 0.0)

TOLERANCE: dict[str, tuple[float, float]] = {
    P + "binom_window": MP,
    P + "clone_limits": MP,
    P + "clone_curve": EXACT,
    P + "search": EXACT,
    P + "publish": EXACT,
}


# -- reference handlers -----------------------------------------------------------------------
def h_binom_window(a: dict[str, Any]) -> dict[str, Any]:
    """binom_window(m, p, cutoff) at the module's 50 digits: the first atom, the number of atoms
    and the bound on the mass left out (``p`` and ``cutoff`` read at 50 digits, so that a cut-off
    given to 60 digits is the 50-digit number it was printed from)."""
    with mpmath.workdps(shuffle_mp.WPS):
        w = shuffle_mp.binom_window(a["m"], mpf(a["p"], "p"), mpf(a["cutoff"], "cutoff"))
        return {"lo": w.lo, "atoms": len(w.pmf), "lost": published(w.lost)}


def h_clone_limits(a: dict[str, Any]) -> dict[str, Any]:
    with mpmath.workdps(shuffle_mp.WPS):
        delta = mpf(a["delta"]) if "delta" in a else None
    pc, cutoff, bits, atoms = shuffle_mp.clone_limits(a["eps0"], a["n"], a["variant"], delta)
    return {"pc": published(pc), "cutoff": published(cutoff), "bits": bits, "atoms": atoms}


def h_clone_curve(a: dict[str, Any]) -> dict[str, Any]:
    """CloneCurve(eps0, n, variant).delta(eps) with its window and the integer ``total`` at scale
    2^(3 bits) that the bound is rounded up from (the argument of the spec's ``_from_fixed_up``;
    null when the curve returns before the sum) and the lower bound on the first fair-coin CDF
    (``_binomial_half_lower_cdf``). ``eps`` is read by the spec at the curve's own precision."""
    curve = shuffle_mp.CloneCurve(a["eps0"], a["n"], a["variant"])
    with recorded_calls(shuffle_mp, "_binomial_half_lower_cdf") as cdf, \
            recorded_calls(shuffle_mp, "_from_fixed_up") as fixed:
        d = curve.delta(a["eps"])
    w = curve.window
    return {"delta": published(d), "bits": curve.bits, "windowLo": w.lo, "atoms": len(w.hi_pmf),
            "lowerCdf": cdf[0].result if cdf else None,
            "total": fixed[0].args[0] if fixed else None}


def h_search(a: dict[str, Any]) -> dict[str, Any]:
    fn = a["function"]
    kw = optional(a, "digits")
    if fn == "rr_sum_epsilon":
        eps = shuffle_mp.rr_sum_epsilon(a["eps0"], a["n"], a["delta"],
                                        **optional(a, "neighbours", "ones"), **kw)
    elif fn == "rappor_histogram_epsilon":
        eps = shuffle_mp.rappor_histogram_epsilon(a["eps0"], a["n"], a["delta"], **kw)
    else:
        raise ValueError(f"unknown function {fn!r}")
    return {"eps": eps}


def h_publish(a: dict[str, Any]) -> dict[str, Any]:
    r = shuffle_mp.publish(a["eps0"], a["n"], a["delta"], a["bound"], a.get("estimate"),
                           **optional(a, "digits"))
    return {"published": None if r is None else list(r)}


HANDLERS: dict[str, Handler] = {
    P + "binom_window": h_binom_window,
    P + "clone_limits": h_clone_limits,
    P + "clone_curve": h_clone_curve,
    P + "search": h_search,
    P + "publish": h_publish,
}

HANDLERS = {op: memoised(h) for op, h in HANDLERS.items()}

_ARG_NAMES: dict[str, tuple[str, ...]] = {
    P + "binom_window": ("m", "p", "cutoff"),
    P + "clone_limits": ("eps0", "n", "variant", "delta"),
    P + "clone_curve": ("eps", "eps0", "n", "variant"),
    P + "search": ("function", "eps0", "n", "delta", "neighbours", "ones", "digits"),
    P + "publish": ("eps0", "n", "delta", "bound", "estimate", "digits"),
}

HEADER = [
    "Certified shuffle bounds (module dpspec.spec.accounting.shuffle_mp) on their exact limits:"
    " every value is computed at 50 significant digits (the fixed-point clone curve at"
    " fixed_dps(bits) digits) and is an upper bound; the cases sit on ties that a 50-digit"
    " implementation meets exactly. Local randomizer eps0-DP, n users; the clone pair of [FMT20]"
    " (clone probability e^-eps0) and [FMT22] (2/(e^eps0 + 1)); summed binary randomized response"
    " (MJTB+22 sec. 3.1.2); the symmetric-RAPPOR histogram (sec. 4.3 of the DP draft).",
    "Reference arithmetic: the ties (the eps0 limits, the one-unit-below and share cases) are"
    " decided by the last bits of mpmath's exp, log and sqrt at the stated precision (mpmath 1.3,"
    " the same under the oldest and the newest dependencies CI checks). mpmath does not promise"
    " correct rounding of exp and log, so an implementation with other arithmetic (e.g. MPFR) may"
    " decide such a tie the other way: a difference there says the arithmetic differs, not that"
    " the bound is wrong; the values away from the ties do not depend on it.",
    "Encodings: numbers are decimal strings, sizes and fixed-point integers JSON integers (exact)."
    " A long decimal input is the exact decimal expansion of the binary number it was printed"
    " from, read at the precision the spec reads it at. mpmath values are published rounded up"
    " to 20 significant digits; a published epsilon is the spec's string. Tolerance (rel, abs)"
    " per op, |got - want| <= max(rel |want|, abs) on numeric strings, anything else exact: "
    + "; ".join(f"{op.split('.', 1)[1]} ({r:g}, {ab:g})" for op, (r, ab) in sorted(TOLERANCE.items()))
    + ".",
    "binom_window: Bin(m, p) tabulated from the mode floor((m + 1) p) outward by the exact term"
    " ratios; a side stops before the next term t once r < 1 and t/(1 - r) <= cutoff, r the ratio"
    " one step further (that bound is added to `lost`); `lo` the first atom, `atoms` the count.",
    "clone_limits: (pc, cutoff, bits, atoms) of the clone curve; refused when the window estimate"
    " of Bin(n - 1, pc) exceeds 1e6 atoms or when terms = sqrt(top)/2 (sqrt(2 bits ln 2) + 40),"
    " top = (n - 1) pc + 20 sqrt((n - 1) pc (1 - pc)) + 20, exceeds 2e6 (equal is accepted).",
    "clone_curve: CloneCurve(eps0, n, variant).delta(eps) (no target delta: cut-off 1e-60)."
    " For eps >= eps0 the bound is 0; when alpha - e^eps beta <= 0 (alpha = 1/(1 + e^-eps0),"
    " beta = 1 - alpha) the bound is the window's lost mass and no sum is taken (total null)."
    " Otherwise share = thr/(1 + thr), thr = (alpha - e^eps beta)/(e^eps alpha - beta), is"
    " enclosed at scale 2^(bits + 64) (widened by 10^-(dps - 5) relative, dps = fixed_dps(bits)),"
    " m_c = the largest integer strictly below share (c + 1), floored at 0 from the lower end of"
    " the enclosure, and a count whose m_c the enclosure leaves undecided adds its whole weight;"
    " `total` is the integer at scale 2^(3 bits) that `delta` is rounded up from, `lowerCdf` the"
    " lower bound on P[Bin(c0, 1/2) <= m_c0] 2^bits at the first count c0 = `windowLo`.",
    "search: rr_sum_epsilon (replacement, ones 0 unless given) or rappor_histogram_epsilon: the"
    " smallest `digits`-digit decimal eps whose delta bound (hockey-stick sum + 1e-40 of itself"
    " + the mass outside the window, twice it for the histogram, capped at 1) is <= delta.",
    "publish: [eps, note] of the certified exact-rr evaluation, null when window_estimate(n - 1,"
    " p, delta) > 40000 (p = 1/(e^eps0 + 1)); `estimate` is where the search starts.",
]

NOTES = {
    "Boundary": "parameters on or next to a decision point (a validity limit, a tie met exactly,"
                " the last representable value before one)",
    "Default": "an optional argument left out: the spec's default applies",
    "BadParameter": "an argument outside its domain; the implementation must reject it",
}

Case = tuple[str, dict[str, Any], list[str]]


def _group(op: str, tests: list[Case], tc: TestNumberer,
           invalid: list[tuple[str, dict[str, Any]]] | None = None) -> dict[str, Any]:
    return build_group(tc, HANDLERS, op, tests, [(c, i, "BadParameter") for c, i in invalid or []],
                       {}, rejects=(ValueError, TypeError, ArithmeticError))


#: the tail bound at which the upward walk of Bin(30, 3/10) stops (cut-off 1e-6): printed to 66
#: digits from its 50-digit value, so that it reads back as that value
TIE_BIN30 = "0.000000180385737215325763867200000000000000000000000000027254007446"
#: half of it: the walk has to keep one more atom
HALF_TIE_BIN30 = "0.0000000901928686076628819336000000000000000000000000000136270037228811985"

#: fmt20, n = 4500000001: the eps0 (a 50-digit binary number, printed exactly enough) at which
#: the fair-coin CDF of clone_limits needs exactly 2000000 terms, found by bisection and a walk
#: over neighbouring 50-digit values; LIMIT_BELOW is the 50-digit value one unit below it
LIMIT_EPS0 = "0.00483135621750175231963269734281458993009515832039078889651692"
LIMIT_BELOW = "0.00483135621750175231963269734281458993009515832039077845602977"

#: eps one unit of the curve's working precision (fixed_dps(266) = 100 digits) below eps0 = 1/4
#: and 1: for 1/4, alpha - e^eps beta rounds to exactly 0; for 1 it is about 7e-102, and the share
#: is enclosed in [0, 2^-(266 + 64)]
BELOW_QUARTER = ("0.24999999999999999999999999999999999999999999999999999999999999999999999999"
                 "99999999999999999999999999964281644")
BELOW_ONE = ("0.999999999999999999999999999999999999999999999999999999999999999999999999999999"
             "99999999999999999999998571265761")
#: eps one unit of the curve's working precision (fixed_dps(271) = 101 digits) below eps0 = 0.3:
#: alpha - e^eps beta is at most 0 there, and at n = 100 the window of the clone count leaves
#: out 7.7e-62 of its mass, which is then the whole bound
BELOW_03 = ("0.29999999999999999999999999999999999999999999999999999999999999999999999999999"
            "999999999999999999999999964281644022428906805756764115")
#: fmt22, eps0 = 1, n = 20: the eps at which share = 1/3 + 1e-80 (share = thr/(1 + thr) solved
#: for eps at 200 digits by mpmath.findroot; printed to 130 digits, read at the curve's 100)
THIRD_PLUS = ("0.31055009012619999257950351911530200900978595115955540473484377327980889330103"
              "27074655281959689257880454581796884129657418692109695")
#: fmt22, eps0 = 1, n = 20 (bits 269, share enclosed at scale 2^333, 100 digits): an eps at which
#: the lower end of the enclosure of share, floor(share (1 - 1e-95) 2^333), is exactly one unit
#: above 2^333/3 rounded down (found by walking 100-digit neighbours): so 3 (lower end) > 2^333
#: only just and every count with c + 1 a multiple of 3 is decided
ONE_UNIT_ABOVE_THIRD = ("0.31055009012619999257950351911530200900978595115955540473484377327980889"
                        "330103272639947985306786711451090431044")
#: the same curve at an eps where the lower end is half a unit (at 2^333) below the first integer
#: above 2^333/5: counts with c + 1 a multiple of 5 are undecided
HALF_UNIT_BELOW_FIFTH = ("0.5694451960428426786130418038475808048189774727957783226794032140621866"
                         "6226628984344743334218806298803150374309")
#: fmt20, eps0 = 0.1, n = 64: the window starts at the count 2, and at this eps the lower end of
#: share's enclosure at 2^335 is (2^335 + 1)/3 exactly, so 3 (lower end) - 1 is 2^335: m_2 = 1
FIRST_AT_THIRD = ("0.033308662535447828788094917065177131471919031183258460101215294629870361"
                  "3019369266546382591603434094996771329636")

#: rr_sum_epsilon(eps0 1, n 20, digits 4) with delta 1e-3 is 0.6872; this target is the
#: hockey-stick sum at 0.6872 plus the mass outside the window, without the rounding allowance
#: (60 digits of its 50-digit value)
RR_GAP = "0.000999696691845584255173912993080597270602614264004717119980964"
#: rappor_histogram_epsilon(eps0 1, n 50, digits 4) with delta 1e-3 is 0.4876; the same target
#: for the histogram's product sum at 0.4876 (plus twice the marginal mass outside the window)
HIST_GAP = "0.000999520053273426638041347745932760827179838453058320258690666"

#: eps0 = 1, delta = 1e-6: the smallest n whose window estimate (of Bin(n - 1, p)) is 40001 atoms
#: is 5852827 (accounting-shuffle-mp-bounds); at n = 5852826 it is exactly 40000
N_AT_LIMIT = 5852826


def _limits_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()

    def bw(m: int, p: str, cutoff: str) -> dict[str, Any]:
        return {"m": m, "p": p, "cutoff": cutoff}

    g = [_group(P + "binom_window", [
        ("Bin(30, 0.3), cut-off equal to the upward tail bound: the walk stops there",
         bw(30, "0.3", TIE_BIN30), ["Boundary"]),
        ("Bin(30, 0.3), half that cut-off: one more atom on the upper side",
         bw(30, "0.3", HALF_TIE_BIN30), ["Boundary"]),
        ("Bin(30, 0.3), cut-off 1e-6", bw(30, "0.3", "1e-6"), []),
    ], tc, [
        ("m -1", bw(-1, "0.3", "1e-6")),
    ])]

    def cl(eps0: str, n: Any, variant: str = "fmt20", **kw: Any) -> dict[str, Any]:
        return {"eps0": eps0, "n": n, "variant": variant, **kw}

    g.append(_group(P + "clone_limits", [
        ("fmt20, n 4500000001: exactly 2e6 CDF terms, accepted", cl(LIMIT_EPS0, 4500000001),
         ["Boundary"]),
        ("fmt20, n 4500000001, eps0 0.005: fewer terms", cl("0.005", 4500000001), []),
    ], tc, [
        ("fmt20, n 4500000001, eps0 one 50-digit unit below: more than 2e6 terms",
         cl(LIMIT_BELOW, 4500000001)),
        ("n 1", cl("1", 1)),
    ]))

    def cc(eps: str, eps0: str, n: Any, variant: str = "fmt22") -> dict[str, Any]:
        return {"eps": eps, "eps0": eps0, "n": n, "variant": variant}

    g.append(_group(P + "clone_curve", [
        ("fmt22 eps0 1/4, n 2, eps one unit below eps0: the threshold is exactly 0, the lost"
         " mass (0) is the bound", cc(BELOW_QUARTER, "0.25", 2), ["Boundary"]),
        ("fmt22 eps0 1, n 2, eps one unit below eps0: share enclosed in [0, one unit], m_c = 0",
         cc(BELOW_ONE, "1", 2), ["Boundary"]),
        ("fmt20 eps0 1, n 2, eps one unit below eps0", cc(BELOW_ONE, "1", 2, "fmt20"),
         ["Boundary"]),
        ("fmt20 eps0 0.1, n 65, eps 1e-150: the window starts at the odd count 3, whose m_c the"
         " enclosure of share = 1/2 - O(1e-150) leaves undecided", cc("1e-150", "0.1", 65, "fmt20"),
         ["Boundary"]),
        ("fmt20 eps0 0.1, n 65, eps 1e-80: decided", cc("1e-80", "0.1", 65, "fmt20"), []),
        ("fmt22 eps0 1, n 20, share = 1/3 + 1e-80: m_c = (c + 1)/3 decided for c + 1 a multiple"
         " of 3", cc(THIRD_PLUS, "1", 20), ["Boundary"]),
        ("fmt22 eps0 1, n 20: share's lower end one unit above 2^-333 floor(2^333/3)",
         cc(ONE_UNIT_ABOVE_THIRD, "1", 20), ["Boundary"]),
        ("fmt22 eps0 1, n 20: share's lower end half a unit below 1/5", cc(HALF_UNIT_BELOW_FIFTH,
                                                                           "1", 20), ["Boundary"]),
        ("fmt20 eps0 0.1, n 64: at the first count 2, 3 (share's lower end) = 1 + 2^-335",
         cc(FIRST_AT_THIRD, "0.1", 64, "fmt20"), ["Boundary"]),
    ], tc, [
        ("n 1", cc("0.5", "1", 1)),
    ]))

    def se(fn: str, eps0: str, n: Any, delta: str, **kw: Any) -> dict[str, Any]:
        return {"function": fn, "eps0": eps0, "n": n, "delta": delta, **kw}

    g.append(_group(P + "search", [
        ("rr eps0 1, n 20, digits 4, delta 1e-3", se("rr_sum_epsilon", "1", 20, "1e-3", digits=4),
         []),
        ("rr eps0 1, n 20, digits 4, delta between the sum at 0.6872 and the sum plus its"
         " allowance: 0.6872 is refused", se("rr_sum_epsilon", "1", 20, RR_GAP, digits=4),
         ["Boundary"]),
        ("histogram eps0 1, n 50, digits 4, delta 1e-3",
         se("rappor_histogram_epsilon", "1", 50, "1e-3", digits=4), []),
        ("histogram eps0 1, n 50, digits 4, delta between the sum at 0.4876 and the sum plus"
         " its allowance: 0.4876 is refused",
         se("rappor_histogram_epsilon", "1", 50, HIST_GAP, digits=4), ["Boundary"]),
    ], tc, [
        ("delta 0", se("rr_sum_epsilon", "1", 20, "0")),
        ("unknown function", se("clone_epsilon", "1", 20, "1e-3")),
    ]))

    def pb(n: Any, **kw: Any) -> dict[str, Any]:
        return {"eps0": "1", "n": n, "delta": "1e-6", "bound": "exact-rr", **kw}

    g.append(_group(P + "publish", [
        ("exact-rr eps0 1, n 5852826: window estimate exactly 40000, certified",
         pb(N_AT_LIMIT, estimate="0.0005", digits=1), ["Boundary"]),
        ("exact-rr eps0 1, n 5852827: window estimate 40001, null", pb(N_AT_LIMIT + 1),
         ["Boundary"]),
    ], tc, [
        ("closed has no certified evaluation", {"eps0": "1", "n": 100, "delta": "1e-6",
                                                "bound": "closed"}),
    ]))
    g.append(_group(P + "clone_curve", [
        ("fmt22 eps0 0.3, n 100, eps one unit below eps0: the threshold is at most 0, and the"
         " bound is the mass the window leaves out (7.7e-62, not 0)", cc(BELOW_03, "0.3", 100),
         ["Boundary"]),
    ], tc))
    return g


_FILES = {
    "limits": ("certified shuffle bounds on their exact limits", _limits_doc),
}


class AccountingShuffleMpLimitsFamily(AccountingFilesFamily):
    """Its own ops, files and schema; cases and compare as the accounting family's (per-op
    tolerances, here this module's :data:`TOLERANCE`)."""

    name = NAME
    summary = "exact ties and limits of the certified mpmath shuffle bounds (shuffle_mp)"
    tolerance = TOLERANCE
    schema = SCHEMA
    header = HEADER
    notes = NOTES
    handler_table = HANDLERS
    arg_names = _ARG_NAMES
    file_table = _FILES


FAMILY = AccountingShuffleMpLimitsFamily()
