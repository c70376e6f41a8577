"""Vector family ``accounting-tables``: the distributed discrete Gaussian accountant
(dpspec.spec.accounting.distributed) with every part of its bound published at 30 digits, and the
seeds' printed privacy tables (dpspec.spec.accounting.seed_tables) at parameters other than the
printed ones, compared as exact strings.

It complements ``accounting-curves`` (which publishes the seed tables under a binary64 tolerance
and only the input checks of the distributed accountant): here every rounding step of a table row
(the number of decimals, the rounding direction) and every part of the distributed bound (the
slack ``T d c``, the drop term, the ideal delta and epsilon, the chosen Renyi order) is pinned.
"""

from __future__ import annotations

import re
from typing import Any

import mpmath

from dpspec.conformance.families._groups import build_group, memoised
from dpspec.conformance.families.accounting import AccountingFilesFamily
from dpspec.conformance.families.accounting_curves import binary64_rows
from dpspec.conformance.vectors import (
    Handler,
    TestNumberer,
)
from dpspec.spec.accounting import distributed, numeric, seed_tables
from dpspec.spec.accounting.numeric import compact, mpf, round_up

SCHEMA = "accounting_tables-v1.json"
NAME = "accounting-tables"
P = "accounting_tables."

#: significant digits of the distributed accountant's published values (rounded up)
DIGITS = 30
#: values computed in mpmath at 40 digits, rounded up to 30 significant digits: any evaluation at
#: 35 digits or more reproduces them within this relative tolerance
MP30 = (1e-27, 0.0)
#: seed-table rows are strings with a stated number of decimals: compared exactly (as strings)
EXACT = (0.0, 0.0)

TOLERANCE: dict[str, tuple[float, float]] = {
    P + "distributed": MP30,
    P + "seed_table": EXACT,
}

_NEED = re.compile(r"tail exponent of at least (-?\d+)")


def _d(x: mpmath.mpf) -> str:
    """An mpmath value rounded up to :data:`DIGITS` significant digits, compact decimal."""
    return compact(round_up(x, DIGITS))


# -- reference handlers -----------------------------------------------------------------------
def _bound_args(a: dict[str, Any]) -> dict[str, Any]:
    kw: dict[str, Any] = {"sigma2": a["sigma2"], "others": a["others"],
                          "dimension": a["dimension"]}
    if "dropProbability" in a:  # absent: the function's default (no dropped reports)
        kw["drop_probability"] = a["dropProbability"]
    return kw


def h_distributed(a: dict[str, Any]) -> dict[str, Any]:
    """sum_log_ratio, subsampled_epsilon (every field) and the tail exponent of its refusal."""
    fn = a["function"]
    if fn == "sum_log_ratio":
        return {"bound": _d(distributed.sum_log_ratio(a["sigma2"], a["n"]))}
    if fn == "subsampled_epsilon":
        b = distributed.subsampled_epsilon(a["q"], a["noiseMultiplier"], a["steps"], a["delta"],
                                           **_bound_args(a))
        return {"eps": _d(b.epsilon), "delta": _d(b.delta), "idealEps": _d(b.ideal_epsilon),
                "idealDelta": _d(b.ideal_delta), "slack": _d(b.slack), "drop": _d(b.drop),
                "order": _d(b.order)}
    if fn == "tail_exponent":
        # the refusal of subsampled_epsilon when the dropped reports take more than half of delta
        # names the smallest tail exponent t (p = e^-t) that would pass; null when not refused
        try:
            distributed.subsampled_epsilon(a["q"], a["noiseMultiplier"], a["steps"], a["delta"],
                                           **_bound_args(a))
        except ValueError as e:
            m = _NEED.search(str(e))
            if m is None:
                raise
            return {"tailExponent": int(m.group(1))}
        return {"tailExponent": None}
    raise ValueError(f"unknown function {fn!r}")


def h_seed_table(a: dict[str, Any]) -> dict[str, Any]:
    return {"rows": binary64_rows(_seed_rows(a))} if a["table"] != "mjtb-smallest-n" else {
        "n": _seed_rows(a)}


def _seed_rows(a: dict[str, Any]) -> Any:
    t = a["table"]
    if t == "dp-draft-table1":
        return seed_tables.dp_draft_table1(n=numeric.positive_int(a["n"], "n", 2),
                                           delta=a["delta"])
    if t == "dp-draft-table2":
        return seed_tables.dp_draft_table2(delta=a["delta"])
    if t == "sa2-examples":
        return seed_tables.sa2_examples()
    if t == "mjtb-figure1":
        e0s = tuple(float(numeric.positive(e, "eps0")) for e in a["eps0s"])
        if "ns" not in a:  # the figure's own cohort sizes (the function's default)
            return seed_tables.mjtb_figure1(delta=float(mpf(a["delta"])), eps0s=e0s)
        ns = tuple(numeric.positive_int(n, "n", 2) for n in a["ns"])
        return seed_tables.mjtb_figure1(ns, float(mpf(a["delta"])), e0s)
    if t == "mjtb-smallest-n":
        # the search behind the MJTB+22 claim's smallest cohort sizes
        return seed_tables._smallest_n(float(numeric.positive(a["eps0"], "eps0")),
                                       float(mpf(a["delta"])),
                                       float(numeric.positive(a["target"], "target")), a["bound"])
    raise ValueError(f"unknown table {t!r}")


HANDLERS: dict[str, Handler] = {
    P + "distributed": memoised(h_distributed),
    P + "seed_table": memoised(h_seed_table),
}

_ARG_NAMES: dict[str, tuple[str, ...]] = {
    P + "distributed": ("function", "sigma2", "n", "q", "noiseMultiplier", "steps", "delta",
                        "others", "dimension", "dropProbability"),
    P + "seed_table": ("table", "n", "delta", "ns", "eps0s", "eps0", "target", "bound"),
}

HEADER = [
    "Privacy accounting, third file set (module dpspec.spec.accounting): the distributed discrete"
    " Gaussian accountant (distributed) and the seeds' printed privacy tables recomputed at other"
    " parameters (seed_tables). Each group names the spec function in `function` or `table`.",
    "distributed: the federated-learning path of the SA2 paper (seed 000, sec. 3 Examples 3 and 5:"
    " Poisson sampling at rate q, per-device discrete Gaussian noise summed over `others` devices),"
    " accounted as in Kairouz, Liu and Steinke 2021. sum_log_ratio(sigma2, n) = c = (1 + 1e-25)"
    " sum_{i=1}^{n-1} 2 eta_i / (1 - eta_i), eta_i = 2 r_i / (1 - r_i) (1 + 1e-25), r_i ="
    " exp(-2 pi^2 sigma2 i / (i + 1)), the first 4096 terms one by one and each further term"
    " counted as the 4096th; 0 for n = 1; refused unless sigma2 > 0 and eta(sigma2 / 2) < 1/2"
    " (sigma2 above about 0.16307). subsampled_epsilon(q, noiseMultiplier, steps T, delta;"
    " sigma2, others n, dimension d, dropProbability p, default 0): slack = T d c (1 + 1e-25);"
    " tv = T n p; ideal(b) = the moments accountant (SA2 Theorems 1 and 2, Poisson-subsampled"
    " Gaussian) on the integer orders 2..1024 of the default order list, at delta b (1 - 1e-25)"
    " written with 30 significant digits; when tv > 0: eps1 = ideal(delta e^-slack / 2), drop ="
    " (1 + e^(eps1 + 2 slack)) tv (1 + 1e-25), refused when drop > delta / 2, the refusal naming"
    " the tail exponent ceil(log(drop / p) - log(delta / 2)) (`tail_exponent`; null when not"
    " refused); otherwise drop = 0; idealDelta = (delta - drop) e^-slack, (idealEps, order) ="
    " ideal(idealDelta), eps = (idealEps + 2 slack) (1 + 1e-25). Refused: delta outside (0, 1), p"
    " outside [0, 1]. mpmath at 40 digits; every value published rounded up to 30 significant"
    " digits, compared within 1e-27 relative.",
    "seed_table: the rows of dpspec.spec.accounting.seed_tables (the accounting-curves family's"
    " header states each table's method) at parameters other than the printed ones, compared as"
    " exact strings (each epsilon rounded up to 6 decimals, sigmas and standard deviations to 10"
    " significant digits, deltas to 8, as the row's fields state). dp-draft-table1 = DP draft"
    " (seed 003) sec. 6.1.1 Table 1 at cohort size n; dp-draft-table2 = sec. 6.1.2 Table 2 at"
    " another delta (the verdict compares delta at the printed sigma with it, both ways);"
    " sa2-examples = SA2 paper (seed 000) sec. 3 Examples 3-6; mjtb-figure1 = MJTB+22 (seed 002)"
    " sec. 3.1.2 Figure 1 (without `ns`: the figure's own cohort sizes 500 ... 10^6);"
    " mjtb-smallest-n = the smallest n >= 2 whose binary64 shuffle bound `bound` at (eps0, n,"
    " delta) is at most `target` (the search behind MJTB+22's 'once n > 1000').",
    "Invalid: every input check of these functions.",
]

NOTES = {
    "Seed": "a table or number printed in a seed (DP draft, SA2 paper, MJTB+22), recomputed",
    "OtherParameters": "a seed table's method at parameters other than the printed ones",
    "Boundary": "parameters on or next to a decision point (a validity limit, a refusal"
                " threshold, the end of the exact terms, a verdict's comparison)",
    "BadParameter": "an argument outside its domain; the implementation must reject it",
}


def _group(op: str, params: dict[str, Any], tests: list[tuple[str, dict[str, Any], list[str]]],
           tc: TestNumberer, invalid: list[tuple[str, dict[str, Any]]] | None = None
           ) -> dict[str, Any]:
    """A group whose invalid cases must be refused with ValueError (nothing else counts)."""
    return build_group(tc, HANDLERS, op, tests, [(c, i, "BadParameter") for c, i in invalid or []],
                       params, rejects=(ValueError,))


def _distributed_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    op = P + "distributed"
    g = [_group(op, {"function": "sum_log_ratio"}, [
        ("sigma2 0.1631 just above the validity limit (eta(sigma2 / 2) just below 1/2), n 2",
         {"sigma2": "0.1631", "n": 2}, ["Boundary"]),
        ("n 4096: 4095 terms, all exact", {"sigma2": "1", "n": 4096}, ["Boundary"]),
        ("n 4098: 4096 exact terms and one counted as the last", {"sigma2": "1", "n": 4098},
         ["Boundary"]),
    ], tc, [
        ("sigma2 0.1630 just below the validity limit", {"sigma2": "0.1630", "n": 2}),
        ("sigma2 -1/2, n 1", {"sigma2": "-1/2", "n": 1}),
        ("sigma2 0, n 2", {"sigma2": "0", "n": 2}),
    ])]
    base = {"q": "1/2", "noiseMultiplier": "1", "steps": 1, "delta": "3/10", "sigma2": "1",
            "others": 3, "dimension": 2}
    dropped = {"q": "1/10", "noiseMultiplier": "1", "steps": 4, "delta": "3e-5", "sigma2": "2",
               "others": 4, "dimension": 3}
    g.append(_group(op, {"function": "subsampled_epsilon"}, [
        ("q 1/2, delta 3/10, 2 coordinates: the best order is 2", {**base, "dropProbability": "0"},
         []),
        ("the same without dropProbability (default: no dropped reports)", dict(base), []),
        ("4 rounds, 3 coordinates, drop probability 1e-12 (drop term far below delta / 2)",
         {**dropped, "dropProbability": "1e-12"}, []),
    ], tc, [
        ("drop probability -1/2", {**base, "dropProbability": "-1/2"}),
        ("drop probability 9e-8: drop about 0.74 delta, between delta / 2 and delta",
         {**dropped, "dropProbability": "9/100000000"}),
        ("drop probability 1e-3: drop far above delta", {**dropped, "dropProbability": "1e-3"}),
    ]))
    g.append(_group(op, {"function": "tail_exponent"}, [
        ("drop probability 9e-8: refused; log(drop / p) - log(delta / 2) = 16.62 (fraction"
         " 0.62), tail exponent 17", {**dropped, "dropProbability": "9/100000000"}, ["Boundary"]),
        ("drop probability 1e-12: not refused (null)", {**dropped, "dropProbability": "1e-12"},
         []),
    ], tc))
    return g


def _seed_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    op = P + "seed_table"
    other = ["Seed", "OtherParameters"]
    return [_group(op, {}, [
        ("DP draft Table 1 at n 6, delta 1e-9 (the Renyi route and the proven bound at the 2 eps0"
         " cap)", {"table": "dp-draft-table1", "n": 6, "delta": "1e-9"}, other),
        ("DP draft Table 1 at n 6, delta 0.99: the proven bound of row eps0 5 is 0 (holds for"
         " every dataset) while its Renyi route (7.26) is above the printed 0.317; the exact"
         " curve is 0 in two rows", {"table": "dp-draft-table1", "n": 6, "delta": "0.99"},
         [*other, "Boundary"]),
        ("DP draft Table 2 at delta 1.001e-9: row 0.317 holds continuously, not discretely",
         {"table": "dp-draft-table2", "delta": "1.001e-9"}, [*other, "Boundary"]),
        ("SA2 Examples 3-6", {"table": "sa2-examples"}, ["Seed"]),
        ("MJTB+22 Figure 1 at its own cohort sizes, eps0 6", {"table": "mjtb-figure1",
                                                             "eps0s": ["6"], "delta": "1e-6"},
         ["Seed"]),
        ("smallest n with the fmt20 bound at most 100 (eps0 3): the search's first probe",
         {"table": "mjtb-smallest-n", "eps0": "3", "delta": "1e-6", "target": "100",
          "bound": "fmt20"}, ["Boundary"]),
    ], tc, [("Table 1 with n 1", {"table": "dp-draft-table1", "n": 1, "delta": "1e-9"}),
            ("unknown table", {"table": "dp-draft-table3"})])]


_FILES = {
    "distributed": ("the distributed discrete Gaussian accountant", _distributed_doc),
    "seed_tables": ("the seeds' privacy tables at other parameters", _seed_doc),
}


class AccountingTablesFamily(AccountingFilesFamily):
    """Its own ops, files and schema; numeric outputs of ``distributed`` within their stated
    tolerance, seed-table rows exactly."""

    name = NAME
    summary = ("the distributed discrete Gaussian accountant at 30 digits and the seeds' privacy"
               " tables at other parameters")
    tolerance = TOLERANCE
    schema = SCHEMA
    header = HEADER
    notes = NOTES
    handler_table = HANDLERS
    arg_names = _ARG_NAMES
    file_table = _FILES
    exact_ops_as_json = True


FAMILY = AccountingTablesFamily()
