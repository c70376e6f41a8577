"""Vector family ``accounting-tails``: the far ends of the certified PLD accountant
(dpspec.spec.accounting.pld), published exactly.

Three places where the accountant's fixed-point arithmetic and its eps(delta) search reach a
limit that the ordinary cases (accounting-pld-bounds) stay clear of:

* the upper bound at eps 150 to 160, where ``e^eps 2^64`` has about 90 decimal digits (the spec
  evaluates it with 64 bits beyond its integer part, so its integer bracket is exact to the unit
  at any size) and the grid weights ``e^-l 2^256`` of the losses above eps are still non-zero and
  multiply it (the evaluation of the split/merge dominating pair of [DGKKM22] / [ZDW22] Def. 7,
  Thm 10); from eps about 177 on those weights are 0 and the bracket no longer reaches the bound;
* the 400-step cap of the bisection for eps(delta): a target delta equal to the upper bound at a
  grid loss ``l`` exactly makes the bound jump at ``l`` (the term of the atom at ``l`` leaves the
  sum there, [ZDW22] sec. 3 evaluation), so the search for the upper end converges to ``l`` from
  above with no tie left to round, and with 130 significant digits asked it stops at the cap, not
  at the digits;
* the bracket end of the search for the lower end: a lower bound that is still above the target
  at ``top + 1`` (top = the highest atom of the upper bounds) makes the lower end that bracket
  end, while the upper end is infinite;
* the default grid width (2^floor(log2 s)) away from the powers of two, where its 30-digit
  logarithm decides nothing;
* the MJTB+22 (seed 002) sec. 3.1.2 Figure 1 table at local epsilons of 10 and more, where the
  8 certified significant digits of an aggregate eps are exactly its 6 printed decimals.

Everything published is the exact rational the spec computes (``"n/d"``, an integer, or
``"inf"``) or, for the Figure 1 rows, the spec's own decimal strings, compared exactly, as in
accounting-pld-bounds.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from dpspec.conformance.families._groups import build_group, memoised
from dpspec.conformance.families.accounting import AccountingFilesFamily, optional
from dpspec.conformance.families.accounting_curves import binary64_rows
from dpspec.conformance.families.accounting_pld_bounds import NOTES, A, exact, exact_compare
from dpspec.conformance.vectors import Case, Handler, TestNumberer
from dpspec.spec.accounting import numeric, pld, seed_tables
from dpspec.spec.accounting.numeric import mpf, to_fraction

SCHEMA = "accounting_tails-v1.json"
NAME = "accounting-tails"
P = "accounting_tails."

#: every output is an exact rational: no tolerance
EXACT = (0.0, 0.0)

TOLERANCE: dict[str, tuple[float, float]] = {
    P + "upper_far": EXACT,
    P + "epsilon_upper": EXACT,
    P + "epsilon": EXACT,
    P + "grid_width": EXACT,
    P + "figure1": EXACT,
}

_COMPOSED_KW = {"h": "h", "massBits": "mass_bits", "tail": "tail"}


def _curves(a: dict[str, Any]) -> pld.Curves:
    return pld.composed(a["q"], a["sigma"], a["steps"], **optional(a, **_COMPOSED_KW))


# -- reference handlers -----------------------------------------------------------------------
def h_upper_far(a: dict[str, Any]) -> dict[str, Any]:
    """pld.composed, then per direction (remove, add) the highest grid loss of the upper bound
    and, at each eps, the upper bound of each direction."""
    c = _curves(a)
    return {"top": [exact(u.top()) for u in c.upper],
            "upper": [[exact(u.delta(to_fraction(e, "eps"))) for u in c.upper]
                      for e in a["eps"]]}


def h_epsilon_upper(a: dict[str, Any]) -> dict[str, Any]:
    """Curves.epsilon; only its upper end is published (see the header)."""
    _, up = _curves(a).epsilon(a["delta"], **optional(a, "digits"))
    return {"upper": exact(up)}


def h_epsilon(a: dict[str, Any]) -> dict[str, Any]:
    lo, up = _curves(a).epsilon(a["delta"], **optional(a, "digits"))
    return {"lower": exact(lo), "upper": exact(up)}


def h_grid_width(a: dict[str, Any]) -> dict[str, Any]:
    return {"h": exact(pld.default_grid_width(a["q"], a["sigma"], a["steps"],
                                              **optional(a, "resolution")))}


def h_figure1(a: dict[str, Any]) -> dict[str, Any]:
    """seed_tables.mjtb_figure1 at the given cohort sizes and eps0 values."""
    e0s = tuple(float(numeric.positive(e, "eps0")) for e in a["eps0s"])
    ns = tuple(numeric.positive_int(n, "n", 2) for n in a["ns"])
    return {"rows": binary64_rows(seed_tables.mjtb_figure1(ns, float(mpf(a["delta"])), e0s))}


HANDLERS: dict[str, Handler] = {
    P + "upper_far": h_upper_far,
    P + "epsilon_upper": h_epsilon_upper,
    P + "epsilon": h_epsilon,
    P + "grid_width": h_grid_width,
    P + "figure1": h_figure1,
}

HANDLERS = {op: memoised(h) for op, h in HANDLERS.items()}

_GRID = ("q", "sigma", "steps", "h", "massBits", "tail")
_ARG_NAMES: dict[str, tuple[str, ...]] = {
    P + "upper_far": (*_GRID, "eps"),
    P + "epsilon_upper": (*_GRID, "delta", "digits"),
    P + "epsilon": (*_GRID, "delta", "digits"),
    P + "grid_width": ("q", "sigma", "steps", "resolution"),
    P + "figure1": ("ns", "delta", "eps0s"),
}

HEADER = [
    "Far ends of the certified PLD bounds of T compositions of the Poisson-subsampled Gaussian"
    " (rate q, noise multiplier sigma, sensitivity 1, add/remove neighbours), module"
    " dpspec.spec.accounting.pld: the upper bound is the split/merge dominating pair on a grid of"
    " width h ([DGKKM22]; [ZDW22] Def. 7, Thm 10), the lower bound the bucket coarsening ([MM18],"
    " [KJH20]); both directions, remove and add, as in [ZDW22] sec. 3. The inputs of composed()"
    " are those of accounting-pld-bounds (q in (0, 1], sigma > 0, steps in [1, 10^7], h > 0,"
    " massBits >= 32, tail in (0, 1e-3)); see that family's header for every rounding direction.",
    "Encodings: numbers are decimal or rational strings (\"n/d\"), sizes and digits JSON integers;"
    " every output is the exact rational the spec computes (\"n/d\" in lowest terms, an integer as"
    " \"n\", an infinite eps as \"inf\"), compared exactly as a string. Tolerance (rel, abs) per"
    " op: " + "; ".join(f"{op.split('.', 1)[1]} ({r:g}, {ab:g})"
                        for op, (r, ab) in sorted(TOLERANCE.items())) + ".",
    "upper_far: composed() once; `top` per direction [remove, add] the loss of the upper bound's"
    " highest grid atom; `upper` per eps the upper bound of each direction. The eps go up to 160,"
    " where e^eps 2^64 has about 90 digits (the spec evaluates e^eps with 64 bits beyond the"
    " integer part of e^eps 2^64, so its integer bracket is exact to the unit), and the weights"
    " floor(e^-l 2^256) of the losses l above eps are not zero, so that bracket reaches the"
    " bound.",
    "epsilon_upper: Curves.epsilon(delta, digits) (digits default 12), the upper end only. The"
    " search: ok(e) = (max upper bound at e <= delta); 0 if ok(0); else hi = max(top, 0) + 1,"
    " infinite if not ok(hi); else lo = 0 and bisect, mid = (lo + hi) / 2, hi = mid if ok(mid)"
    " else lo = mid, counting the steps, until hi - lo <= hi 10^-digits or the count exceeds 400"
    " (after step 401); the upper end is hi. The target deltas here are the upper bound at a grid"
    " loss l exactly (the cases give them in full): the bound is larger just below l, where the"
    " atom at l still counts, so the search converges to l from above and stops at the cap. The"
    " lower end is not published here: its search converges to a point where the bracket of"
    " e^eps changes, which at 400 steps is decided by the last digits of e^eps.",
    "epsilon: the same call, both ends [lower, upper], for targets where the lower search ends at"
    " its bracket: when the lower bound at hi = max(top, 0) + 1 is still above delta, the lower"
    " end is hi itself (and the upper end, the upper bound there being larger still, \"inf\")."
    " A target delta outside (0, 1) is invalid.",
    "grid_width: default_grid_width(q, sigma, steps, resolution) (resolution default 500), the"
    " grid width composed() takes when h is left out: 2^k with k = floor(log2(s)), s ="
    " sqrt(steps v) / resolution, v = log(1 + q^2 (e^(1/sigma^2) - 1)), for s well away from a"
    " power of two (at an exact power of two the 30-digit logarithm's last digit decides k).",
    "figure1: the MJTB+22 (seed 002) sec. 3.1.2 Figure 1 table of dpspec.spec.accounting."
    "seed_tables.mjtb_figure1 at the given cohort sizes `ns` (integers >= 2) and local epsilons"
    " `eps0s` (> 0), delta as given: per (eps0, n) the closed-form bound when its condition holds,"
    " the [FMT20] and [FMT22] clone bounds and the exact binary randomized-response curve, each"
    " certified in mpmath to 8 significant digits (rounded up) and printed with 6 decimals"
    " (rounded up). With eps0 of 10 or more the aggregate eps has two integer digits, so the 8"
    " digits are exactly the 6 printed decimals: a certification to fewer digits changes the last"
    " printed decimal. Rows as accounting-tables' seed_table rows.",
]


#: q 1, sigma 0.05: losses from about -300 to 300, about 200 on average
FAR: dict[str, Any] = {"q": "1", "sigma": "0.05", "steps": 1, "h": "1", "massBits": 32,
                       "tail": "0.0009995"}
#: two steps at h 3/2 where the lower bound keeps a bucket above every upper atom
LOW: dict[str, Any] = {"q": "0.2", "sigma": "0.3", "steps": 2, "h": "3/2", "massBits": 32,
                       "tail": "0.0005"}


def _group(op: str, tests: list[tuple[str, dict[str, Any], list[str]]], tc: TestNumberer,
           invalid: list[tuple[str, dict[str, Any]]] | None = None) -> dict[str, Any]:
    return build_group(tc, HANDLERS, op, tests, [(c, i, "BadParameter") for c, i in invalid or []],
                       {}, rejects=(ValueError, TypeError, ArithmeticError))


def grid_target(base: dict[str, Any], loss: Fraction) -> str:
    """The larger upper bound of the two directions of ``base`` at the grid loss ``loss`` exactly
    (computed by the spec), as published."""
    c = _curves(base)
    return exact(max(u.delta(loss) for u in c.upper))


def _far_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    g = [_group(P + "upper_far", [
        ("q 1, sigma 0.05, one step, h 1, massBits 32, tail 0.0009995: eps 150, 155 and 160"
         " (the bracket of e^eps exact to the unit; losses with non-zero weights above each)",
         dict(FAR, eps=["150", "155", "160"]), ["Boundary"]),
        ("the same, two steps (losses to about 600): eps 155 and 160", dict(FAR, steps=2,
                                                                           eps=["155", "160"]),
         ["Boundary"]),
    ], tc, [
        ("steps 0", dict(FAR, steps=0, eps=["160"])),
        ("q 0", dict(FAR, q="0", eps=["160"])),
    ])]
    half = grid_target(A, Fraction(1, 2))
    quarter = grid_target(A, Fraction(1, 4))
    g.append(_group(P + "epsilon_upper", [
        ("q 0.5, sigma 1, one step, h 1/4, massBits 32, tail 0.0009995; target = the upper bound"
         " at the grid loss 1/2 exactly, digits 130: the search converges to 1/2 from above and"
         " stops after 401 steps (the cap), hi = 1/2 + a multiple of 2^-403", dict(
             A, delta=half, digits=130), ["Boundary"]),
        ("the same target, digits 12: the search stops at the digits (hi - lo <= hi 10^-12)",
         dict(A, delta=half, digits=12), ["Boundary"]),
        ("the same target, digits absent (default 12)", dict(A, delta=half), ["Default"]),
        ("target = the upper bound at the grid loss 1/4 exactly, digits 130 (the cap)",
         dict(A, delta=quarter, digits=130), ["Boundary"]),
    ], tc, [
        ("target delta 0", dict(A, delta="0", digits=130)),
        ("target delta 1", dict(A, delta="1", digits=130)),
    ]))
    g.append(_group(P + "epsilon", [
        ("q 0.2, sigma 0.3, two steps, h 3/2, massBits 32, tail 0.0005 (top 18, the lower bound"
         " at 19 about 1.9e-4, the upper bound's mass at +inf about 1e-3): target 1e-4, the lower"
         " end is the bracket end 19, the upper end infinite", dict(LOW, delta="0.0001",
                                                                      digits=6), ["Boundary"]),
        ("the same, target 5e-4: the lower bound at 19 is below it (the lower end is bisected),"
         " the upper end infinite", dict(LOW, delta="0.0005", digits=6), ["Boundary"]),
    ], tc, [
        ("target delta 1.5", dict(LOW, delta="1.5", digits=6)),
        ("target delta -1e-4", dict(LOW, delta="-0.0001", digits=6)),
    ]))
    return g


def _width_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    return [_group(P + "grid_width", [
        ("q 1, sigma 2, one step, resolution 3: s = 1/6, the width 1/8",
         {"q": "1", "sigma": "2", "steps": 1, "resolution": 3}, []),
        ("q 1, sigma 13/6, 169 steps, resolution absent (500): s = 3/250, the width 1/128",
         {"q": "1", "sigma": "13/6", "steps": 169}, ["Default"]),
        ("q 0.5, sigma 1, 4 steps, resolution 500 (s not a power of two)",
         {"q": "0.5", "sigma": "1", "steps": 4, "resolution": 500}, []),
    ], tc)]


def _figure_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    return [_group(P + "figure1", [
        ("eps0 12 and 15, cohorts of 3 and 10, delta 1e-6: every aggregate eps is above 10, so"
         " its 8 certified digits are the 6 printed decimals",
         {"ns": [3, 10], "delta": "1e-6", "eps0s": ["12", "15"]}, ["Boundary"]),
    ], tc, [
        ("eps0 0", {"ns": [3], "delta": "1e-6", "eps0s": ["0"]}),
        ("a cohort of 1", {"ns": [1], "delta": "1e-6", "eps0s": ["12"]}),
    ])]


_FILES = {
    "tails": ("far ends of the certified PLD bounds and of the eps(delta) search", _far_doc),
    "width": ("the default grid width at exact powers of two", _width_doc),
    "figure1": ("MJTB+22 Figure 1 with two-digit aggregate epsilons", _figure_doc),
}


class AccountingTailsFamily(AccountingFilesFamily):
    """Its own ops, files and schema; cases as the accounting family's, every op exact."""

    name = NAME
    summary = "exact certified PLD bounds at the far ends: large eps, the search's cap and bracket"
    tolerance = TOLERANCE
    schema = SCHEMA
    header = HEADER
    notes = NOTES
    handler_table = HANDLERS
    arg_names = _ARG_NAMES
    file_table = _FILES

    def compare(self, case: Case, provided: dict[str, Any]) -> str | None:
        """Exact (every op's tolerance is (0, 0)): accounting-pld-bounds' exact_compare."""
        assert case.expected is not None
        return exact_compare(case.expected, provided)


FAMILY = AccountingTailsFamily()
