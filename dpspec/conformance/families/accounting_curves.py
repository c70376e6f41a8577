"""Vector family ``accounting-curves``: the seeds' printed privacy tables recomputed, the binary64
shuffle curves (with a stated tolerance), their certified mpmath counterparts, the conversions of
dpspec.spec.accounting.definitions, the number parsing and rounding of .numeric and the budget
accountant's decision points (dpspec.spec.accounting.budget).

Outputs are compared like the ``accounting`` family's (``|got - want| <= max(rel |want|, abs)`` for
numeric strings, anything else exactly), with the tolerance of each op in :data:`TOLERANCE`.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import mpmath

from dpspec.conformance.families._groups import build_group, memoised
from dpspec.conformance.families.accounting import AccountingFilesFamily, decimal_list, published
from dpspec.conformance.vectors import (
    Handler,
    TestNumberer,
    binary64_text,
)
from dpspec.spec.accounting import (
    composition,
    definitions,
    discrete,
    distributed,
    gaussian,
    ghazi,
    laplace,
    numeric,
    pld,
    seed_tables,
    shuffle,
    shuffle_mp,
    subsampling,
)
from dpspec.spec.accounting.budget import (
    Accountant,
    Query,
    cohort_epsilon_deletion,
    cohort_epsilon_replacement,
)
from dpspec.spec.accounting.numeric import mpf

SCHEMA = "accounting_curves-v1.json"
NAME = "accounting-curves"
P = "accounting_curves."

#: binary64 results of numpy/scipy: published by binary64_text (8 significant digits, never near a
#: rounding boundary), compared at 1e-7 relative, deltas also 1e-15 absolute; a changed operator
#: or constant moves them by far more
B64 = (1e-7, 1e-15)
#: values computed in mpmath at 40 or 50 digits and rounded up to 20 significant digits
MP = (1e-15, 0.0)


TOLERANCE: dict[str, tuple[float, float]] = {
    P + "seed_table": B64,
    P + "shuffle_binary64": B64,
    P + "shuffle_certified": MP,
    P + "definitions": MP,
    P + "gaussian": MP,
    P + "parse_number": (0.0, 0.0),
    P + "rounding": (0.0, 0.0),
    P + "search": (0.0, 0.0),
    P + "budget_transcript": B64,
    P + "cohort_epsilon": B64,
    P + "composition": MP,
    P + "mechanisms": MP,
}


def _f(x: Any) -> Any:
    """A binary64 value as :func:`dpspec.conformance.vectors.binary64_text` publishes it; other
    values unchanged. Published only under the op's tolerance."""
    if isinstance(x, float | int) and not isinstance(x, bool):
        return binary64_text(float(x))
    return x


def _result(r: shuffle.ShuffleResult) -> dict[str, Any]:
    return {"eps": _f(r.eps), "delta": _f(r.delta), "bound": r.bound, "requested": r.requested,
            "valid": r.valid, "note": r.note,
            "extra": {k: _f(v) for k, v in sorted(r.extra.items())}}


def binary64_rows(rows: Any) -> Any:
    """Table rows (nested dicts and lists) with every binary64 value as :func:`_f` publishes it."""
    if isinstance(rows, dict):
        return {k: binary64_rows(v) for k, v in rows.items()}
    if isinstance(rows, list):
        return [binary64_rows(v) for v in rows]
    if isinstance(rows, float):
        return _f(rows)
    return rows


# -- reference handlers -----------------------------------------------------------------------
def h_seed_table(a: dict[str, Any]) -> dict[str, Any]:
    t = a["table"]
    if t == "dp-draft-table1":
        return {"rows": binary64_rows(seed_tables.dp_draft_table1(n=numeric.positive_int(a["n"], "n", 2),
                                                           delta=a["delta"]))}
    if t == "dp-draft-table2":
        return {"rows": binary64_rows(seed_tables.dp_draft_table2(delta=a["delta"]))}
    if t == "sa2-examples":
        return {"rows": binary64_rows(seed_tables.sa2_examples())}
    if t == "mjtb-figure1":
        ns = tuple(numeric.positive_int(n, "n", 2) for n in a["ns"])
        e0s = tuple(float(numeric.positive(e, "eps0")) for e in a["eps0s"])
        return {"rows": binary64_rows(seed_tables.mjtb_figure1(ns, float(mpf(a["delta"])), e0s))}
    if t == "mjtb-claim":
        return {"rows": binary64_rows([seed_tables.mjtb_claim()])}
    raise ValueError(f"unknown table {t!r}")


def _shuffle_call(a: dict[str, Any]) -> Any:
    fn = a["function"]
    nb = a.get("neighbours", "replacement")
    if fn == "closed_form":
        return _result(shuffle.closed_form(a["eps0"], a["n"], a["delta"]))
    if fn == "closed_form_condition":
        ok, limit = shuffle.closed_form_condition(a["eps0"], a["n"], a["delta"])
        return {"valid": ok, "limit": _f(limit)}
    if fn == "closed_form_value":
        return {"value": _f(shuffle.closed_form_value(a["eps0"], a["n"], a["delta"]))}
    if fn == "clone_probability":
        return {"pc": _f(shuffle.clone_probability(float(mpf(a["eps0"])), a["variant"]))}
    if fn == "clone_delta":
        return {"delta": _f(shuffle.clone_delta(float(mpf(a["eps"])), float(mpf(a["eps0"])),
                                                numeric.positive_int(a["n"], "n", 2),
                                                a["variant"]))}
    if fn == "clone_epsilon":
        return _result(shuffle.clone_epsilon(a["eps0"], a["n"], a["delta"], a["variant"]))
    if fn == "rr_clone_rdp":
        return {"rdp": _f(shuffle.rr_clone_rdp(a["alpha"], a["eps0"], a["n"]))}
    if fn == "rr_sum_pairs":
        pairs = shuffle.rr_sum_pairs(a["eps0"], a["n"], nb, a.get("ones", 0))
        return {"pairs": [[[_f(float(x)) for x in p], [_f(float(x)) for x in q]]
                          for p, q in pairs]}
    if fn == "rr_sum_delta":
        return {"delta": _f(shuffle.rr_sum_delta(a["eps"], a["eps0"], a["n"], nb,
                                                 a.get("ones", 0)))}
    if fn == "rr_sum_epsilon":
        return _result(shuffle.rr_sum_epsilon(a["eps0"], a["n"], a["delta"], nb, a.get("ones", 0)))
    if fn == "rr_sum_worst_delta":
        d, ones = shuffle.rr_sum_worst_delta(a["eps"], a["eps0"], a["n"], nb)
        # replacement: ones and n - 1 - ones give the same delta (flip every bit), so which of
        # the two binary64 reports first is noise; deletion has no such tie
        return {"delta": _f(d), **({"ones": ones} if nb == "deletion" else {})}
    if fn == "rr_sum_worst_epsilon":
        return _result(shuffle.rr_sum_worst_epsilon(a["eps0"], a["n"], a["delta"], nb))
    if fn == "rr_sum_rdp":
        return {"rdp": _f(shuffle.rr_sum_rdp(a["alpha"], a["eps0"], a["n"], a.get("ones", 0)))}
    if fn == "rappor_histogram_rdp_epsilon":
        # the minimising alpha is left out: the curve is flat at its minimum, so binary64 noise
        # moves the golden-section point by more than the tolerance (the epsilon does not move)
        out = _result(shuffle.rappor_histogram_rdp_epsilon(a["eps0"], a["n"], a["delta"],
                                                           worst_case=a["worstCase"]))
        del out["extra"]
        return out
    if fn == "rappor_histogram_delta":
        return {"delta": _f(shuffle.rappor_histogram_delta(a["eps"], a["eps0"], a["n"]))}
    if fn == "rappor_histogram_epsilon":
        return _result(shuffle.rappor_histogram_epsilon(a["eps0"], a["n"], a["delta"]))
    if fn == "rappor_histogram_clone_delta":
        return {"delta": _f(shuffle.rappor_histogram_clone_delta(a["eps"], a["eps0"], a["n"]))}
    if fn == "rappor_histogram_clone_epsilon":
        return _result(shuffle.rappor_histogram_clone_epsilon(a["eps0"], a["n"], a["delta"]))
    if fn == "shuffle_epsilon":
        return _result(shuffle.shuffle_epsilon(a["eps0"], a["n"], a["delta"], a["bound"]))
    raise ValueError(f"unknown function {fn!r}")


def h_shuffle_binary64(a: dict[str, Any]) -> dict[str, Any]:
    out = _shuffle_call(a)
    return out if isinstance(out, dict) else {"value": out}


def h_shuffle_certified(a: dict[str, Any]) -> dict[str, Any]:
    fn = a["function"]
    nb = a.get("neighbours", "replacement")
    if fn == "rr_sum_epsilon":
        return {"eps": shuffle_mp.rr_sum_epsilon(a["eps0"], a["n"], a["delta"], nb,
                                                 a.get("ones", 0), digits=10)}
    if fn == "rr_sum_delta":
        return {"delta": published(shuffle_mp.rr_sum_delta(a["eps"], a["eps0"], a["n"], nb,
                                                           a.get("ones", 0)), 10)}
    if fn == "rappor_histogram_epsilon":
        return {"eps": shuffle_mp.rappor_histogram_epsilon(a["eps0"], a["n"], a["delta"],
                                                           digits=10)}
    if fn == "clone_epsilon":
        return {"eps": shuffle_mp.clone_epsilon(a["eps0"], a["n"], a["delta"], a["variant"],
                                                digits=10)}
    if fn == "clone_limits":
        pc, cutoff, bits, atoms = shuffle_mp.clone_limits(a["eps0"], a["n"], a["variant"],
                                                          mpf(a["delta"]))
        return {"pc": published(pc), "cutoff": published(cutoff), "bits": bits, "atoms": atoms}
    if fn == "binary64_slack":
        s = shuffle_mp.binary64_slack(a["eps0"], a["n"], a["delta"], a["bound"])
        return {"slack": None if s is None else published(s)}
    if fn == "publish":
        r = shuffle_mp.publish(a["eps0"], a["n"], a["delta"], a["bound"], None, nb,
                               a.get("ones", 0), digits=10)
        return {"published": None if r is None else list(r)}
    if fn == "binom_window":
        w = shuffle_mp.binom_window(a["m"], mpf(a["p"]), mpf(a["cutoff"]))
        return {"lo": w.lo, "pmf": [published(x, 15) for x in w.pmf], "lost": published(w.lost, 15)}
    if fn == "fixed_binom_window":
        fw = shuffle_mp.fixed_binom_window(a["m"], mpf(a["p"]), mpf(a["cutoff"]), a["bits"],
                                           a.get("maxAtoms", shuffle_mp.MAX_ATOMS))
        return {"lo": fw.lo, "loPmf": [str(x) for x in fw.lo_pmf],
                "hiPmf": [str(x) for x in fw.hi_pmf], "lostFixed": str(fw.lost_fixed)}
    raise ValueError(f"unknown function {fn!r}")


def h_definitions(a: dict[str, Any]) -> dict[str, Any]:
    fn = a["function"]
    if fn == "hockey_stick":
        p, q = decimal_list(a, "p"), decimal_list(a, "q")
        return {"value": published(definitions.hockey_stick(p, q, a["eps"]))}
    if fn == "dp_delta":
        p, q = decimal_list(a, "p"), decimal_list(a, "q")
        return {"value": published(definitions.dp_delta(p, q, a["eps"]))}
    if fn == "renyi_divergence":
        p, q = decimal_list(a, "p"), decimal_list(a, "q")
        return {"value": published(definitions.renyi_divergence(p, q, a["alpha"]))}
    if fn == "rdp_to_dp_epsilon":
        return {"value": published(definitions.rdp_to_dp_epsilon(a["rdp"], a["alpha"], a["delta"],
                                                                 improved=a["improved"]))}
    if fn == "rdp_to_dp_delta":
        return {"value": published(definitions.rdp_to_dp_delta(a["rdp"], a["alpha"], a["eps"]))}
    if fn == "rdp_curve_to_dp":
        e, al = definitions.rdp_curve_to_dp([(x, y) for x, y in a["curve"]], a["delta"],
                                            improved=a["improved"])
        return {"eps": published(e), "alpha": published(al)}
    if fn == "gaussian_curve_to_dp":
        # the curve as a function: alpha -> alpha / (2 sigma^2) over the listed orders
        s = a["sigma"]
        e, al = definitions.rdp_curve_to_dp(lambda x: gaussian.gaussian_rdp(x, s), a["delta"],
                                            a["orders"])
        return {"eps": published(e), "alpha": published(al)}
    if fn == "zcdp_to_rdp":
        return {"value": published(definitions.zcdp_to_rdp(a["rho"], a["alpha"]))}
    if fn == "zcdp_to_dp_epsilon":
        return {"value": published(definitions.zcdp_to_dp_epsilon(a["rho"], a["delta"],
                                                                  tight=a["tight"]))}
    if fn == "pure_to_rdp":
        return {"value": published(definitions.pure_to_rdp(a["eps"], a["alpha"]))}
    raise ValueError(f"unknown function {fn!r}")


def h_gaussian(a: dict[str, Any]) -> dict[str, Any]:
    fn = a["function"]
    if fn == "gaussian_delta":
        # the Mills-ratio branch gives values like 1e-868588963813: the natural logarithm is
        # published (rounded up), and the value itself when it is above 1e-4000
        d = gaussian.gaussian_delta(a["eps"], a["sigma"], a["sensitivity"])
        with mpmath.workdps(numeric.DPS):
            return {"value": published(d) if d == 0 or d > mpmath.mpf(10) ** -4000 else None,
                    "log": published(mpmath.log(d)) if d > 0 else "-inf"}
    if fn == "gaussian_epsilon":
        return {"value": published(gaussian.gaussian_epsilon(a["delta"], a["sigma"], a["sensitivity"]),
                                   15)}
    if fn == "calibrate_gaussian_sigma":
        c = gaussian.calibrate_gaussian_sigma(a["eps"], a["delta"], a["sensitivity"],
                                              digits=a["digits"])
        return {"sigma": c.sigma, "deltaAtSigma": published(c.delta_at_sigma, 15)}
    if fn == "classical_gaussian_sigma":
        return {"value": published(gaussian.classical_gaussian_sigma(a["eps"], a["delta"],
                                                                     a["sensitivity"]))}
    if fn == "classical_gaussian_epsilon":
        return {"value": published(gaussian.classical_gaussian_epsilon(a["delta"], a["sigma"],
                                                                       a["sensitivity"]))}
    if fn == "gaussian_rdp":
        return {"value": published(gaussian.gaussian_rdp(a["alpha"], a["sigma"], a["sensitivity"]))}
    if fn == "gaussian_zcdp":
        return {"value": published(gaussian.gaussian_zcdp(a["sigma"], a["sensitivity"]))}
    if fn == "laplace_epsilon":
        return {"value": published(laplace.laplace_epsilon(a["scale"], a["sensitivity"]))}
    if fn == "laplace_scale":
        return {"value": published(laplace.laplace_scale(a["eps"], a["sensitivity"]))}
    raise ValueError(f"unknown function {fn!r}")


def h_composition(a: dict[str, Any]) -> dict[str, Any]:
    fn = a["function"]
    if fn == "optimal_composition_epsilon":
        return {"value": published(composition.optimal_composition_epsilon(
            a["eps"], a["delta"], a["k"], a["deltaTotal"]), 15)}
    if fn == "rdp_composition":
        return {"value": published(composition.rdp_composition(a["values"]))}
    if fn == "zcdp_composition":
        return {"value": published(composition.zcdp_composition(a["values"]))}
    raise ValueError(f"unknown function {fn!r}")


def h_mechanisms(a: dict[str, Any]) -> dict[str, Any]:
    """ghazi, subsampling, discrete, distributed and pld functions at their decision points."""
    fn = a["function"]
    sens = a.get("sensitivity", 1)
    if fn == "theorem18_guarantee":
        e, d = ghazi.theorem18_guarantee(a["eps1"], a["eps2"], a["delta2"], a["delta3"])
        return {"eps": published(e), "delta": published(d)}
    if fn == "poisson_mechanism_delta":
        return {"delta": published(ghazi.poisson_mechanism_delta(a["eps"], a["lambda"], sens))}
    if fn == "negative_binomial_mechanism_delta":
        return {"delta": published(ghazi.negative_binomial_mechanism_delta(a["eps"], a["r"], a["p"],
                                                                           sens))}
    if fn == "minimal_poisson_lambda":
        m = ghazi.minimal_poisson_lambda(a["eps"], a["delta"], sens, digits=10)
        return {"value": m.value, "theoremValue": published(m.theorem_value)}
    if fn == "minimal_negative_binomial_r":
        m = ghazi.minimal_negative_binomial_r(a["eps"], a["delta"], a.get("p"), sens, digits=10)
        return {"value": m.value, "deltaAtValue": published(m.delta_at_value, 15),
                "theoremValue": published(m.theorem_value)}
    if fn == "geometric_tail":
        return {"value": published(ghazi.geometric_tail(a["eps1"], sens))}
    if fn == "correlated_mechanism_guarantee":
        e, d = ghazi.correlated_mechanism_guarantee(a["eps1"], a["eps2"], a["r"], a["p"], sens)
        return {"eps": published(e), "delta": published(d)}
    if fn == "sampled_gaussian_rdp":
        return {"rdp": published(subsampling.sampled_gaussian_rdp(a["q"], a["sigma"], a["alpha"],
                                                                  method=a["method"]), 12)}
    if fn == "subsampled_gaussian_epsilon":
        e, o = subsampling.subsampled_gaussian_epsilon(a["q"], a["sigma"], a["steps"],
                                                       a["delta"], a["orders"])
        return {"eps": published(e, 12), "order": published(o)}
    if fn == "subsampled_gaussian_rdp_curve":
        curve = subsampling.subsampled_gaussian_rdp_curve(a["q"], a["sigma"], a["steps"], a["orders"])
        return {"curve": [[published(x), published(y, 12)] for x, y in curve]}
    if fn == "discrete_gaussian_delta":
        return {"delta": published(discrete.discrete_gaussian_delta(a["eps"], a["sigma"], a["vector"]),
                                   15)}
    if fn == "calibrate_discrete_gaussian_sigma":
        c = discrete.calibrate_discrete_gaussian_sigma(a["eps"], a["delta"], a["vector"],
                                                       digits=a["digits"])
        return {"sigma": c.sigma}
    if fn == "discrete_laplace_epsilon":
        return {"eps": published(discrete.discrete_laplace_epsilon(a["scale"], a["l1Sensitivity"]))}
    if fn == "sum_log_ratio":
        return {"bound": published(distributed.sum_log_ratio(a["sigma2"], a["n"]))}
    if fn == "distributed_subsampled_epsilon":
        b = distributed.subsampled_epsilon(a["q"], a["noiseMultiplier"], a["steps"], a["delta"],
                                           sigma2=a["sigma2"], others=a["others"],
                                           dimension=a["dimension"],
                                           drop_probability=a["dropProbability"])
        return {"eps": published(b.epsilon, 12), "delta": published(b.delta, 12)}
    if fn == "pld_delta_bounds":
        lo, hi = pld.delta_bounds(a["q"], a["sigma"], a["steps"], a["eps"],
                                  **({"h": a["h"]} if "h" in a else {}),
                                  **({"tail": a["tail"]} if "tail" in a else {}))
        return {"lower": pld.decimal_bound(lo, 12, up=False),
                "upper": pld.decimal_bound(hi, 12, up=True)}
    if fn == "pld_decimal_bound":
        x = a["value"]
        return {"bound": pld.decimal_bound(None if x is None else numeric.to_fraction(x, "value"),
                                           a["digits"], up=a["up"])}
    if fn == "pld_epsilon_bounds":
        elo, ehi = pld.epsilon_bounds(a["q"], a["sigma"], a["steps"], a["delta"])
        return {"lower": pld.decimal_bound(elo, 12, up=False),
                "upper": pld.decimal_bound(ehi, 12, up=True)}
    raise ValueError(f"unknown function {fn!r}")


def _frac(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


def h_parse_number(a: dict[str, Any]) -> dict[str, Any]:
    """to_fraction / mpf / positive / probability / strict_int / positive_int on one text."""
    fn = a["function"]
    x = a["value"]
    if fn == "to_fraction":
        return {"value": _frac(numeric.to_fraction(x, "x"))}
    if fn == "mpf":
        return {"value": numeric.round_sig(numeric.mpf(x, "x"), 30, up=True)}
    if fn == "positive":
        return {"value": numeric.round_sig(numeric.positive(x, "x"), 30, up=True)}
    if fn == "non_negative":
        return {"value": numeric.round_sig(numeric.non_negative(x, "x"), 30, up=True)}
    if fn == "probability":
        return {"value": numeric.round_sig(numeric.probability(
            x, "x", open_left=a["openLeft"], open_right=a["openRight"]), 30, up=True)}
    if fn == "strict_int":
        return {"value": str(numeric.strict_int(x))}
    if fn == "positive_int":
        return {"value": numeric.positive_int(x, "x", a["minimum"])}
    raise ValueError(f"unknown function {fn!r}")


def h_rounding(a: dict[str, Any]) -> dict[str, Any]:
    fn = a["function"]
    x = a["value"]
    if fn == "round_sig":
        return {"up": numeric.round_up(x, a["digits"]), "down": numeric.round_down(x, a["digits"])}
    if fn == "round_fixed":
        return {"up": numeric.round_fixed(x, a["places"], up=True),
                "down": numeric.round_fixed(x, a["places"], up=False)}
    if fn == "compact":
        return {"value": numeric.compact(x)}
    raise ValueError(f"unknown function {fn!r}")


def h_search(a: dict[str, Any]) -> dict[str, Any]:
    """The searches of .numeric on a stated monotone predicate, with the probes they make."""
    fn = a["function"]
    probes: list[str] = []
    if fn == "smallest_on_grid":
        # ok(x): x^2 >= target (the smallest `digits`-digit decimal at least sqrt(target))
        target = mpf(a["target"])

        def ok(x: mpmath.mpf) -> bool:
            probes.append(numeric.round_sig(x, 30, up=True))
            return bool(x * x >= target)

        g = numeric.smallest_on_grid(ok, a["estimate"], a["digits"], lowest=a["lowest"])
        return {"value": g, "probes": probes}
    if fn == "smallest_int":
        # pred(n): n^2 >= threshold
        thr = int(a["threshold"])

        def pred(n: int) -> bool:
            probes.append(str(n))
            return n * n >= thr

        r = numeric.smallest_int(pred, a["lo"], first=a.get("first"), cap=a.get("cap"),
                                 lo_fails=a.get("loFails", False))
        return {"value": r, "probes": probes}
    if fn == "golden_section":
        # f(x) = (x - c)^2 on [lo, hi] in exact rationals, phi given as a rational
        c = Fraction(a["centre"])
        s = numeric.golden_section(lambda x: (x - c) ** 2, Fraction(a["lo"]), Fraction(a["hi"]),
                                   phi=Fraction(a["phi"]), iterations=a.get("iterations"),
                                   tol=Fraction(a.get("tol", "0")))
        return {"lo": _frac(s.lo), "hi": _frac(s.hi), "x1": _frac(s.x1), "x2": _frac(s.x2)}
    raise ValueError(f"unknown function {fn!r}")


def h_budget(a: dict[str, Any]) -> dict[str, Any]:
    acc = (Accountant.from_json(a["policyText"]) if "policyText" in a
           else Accountant.from_dict(a["policy"]))
    decisions = []
    for q in a["queries"]:
        d = acc.commit(Query.make(q["analysis"], q["fields"], q["eps0"], q["eps"], q["minCohort"],
                                  q.get("queryId")))
        decisions.append({"allowed": d.allowed, "failedCheck": d.check, "reason": d.reason,
                          "cohortEps": _f(d.cohort_eps)})
    return {"decisions": decisions, "state": json.loads(acc.to_json()),
            "impliedLocalBound": acc.implied_local_bound()}


def h_cohort(a: dict[str, Any]) -> dict[str, Any]:
    f = cohort_epsilon_deletion if a["model"] == "deletion" else cohort_epsilon_replacement
    if a["model"] not in ("deletion", "replacement"):
        raise ValueError("model must be replacement or deletion")
    return _result(f(a["eps0"], a["n"], a["delta"], a["bound"]))


HANDLERS: dict[str, Handler] = {
    P + "seed_table": h_seed_table,
    P + "shuffle_binary64": h_shuffle_binary64,
    P + "shuffle_certified": h_shuffle_certified,
    P + "definitions": h_definitions,
    P + "gaussian": h_gaussian,
    P + "composition": h_composition,
    P + "mechanisms": h_mechanisms,
    P + "parse_number": h_parse_number,
    P + "rounding": h_rounding,
    P + "search": h_search,
    P + "budget_transcript": h_budget,
    P + "cohort_epsilon": h_cohort,
}


HANDLERS = {op: memoised(h) for op, h in HANDLERS.items()}


_ARG_NAMES: dict[str, tuple[str, ...]] = {
    P + "seed_table": ("table", "n", "delta", "ns", "eps0s"),
    P + "shuffle_binary64": ("function", "eps", "eps0", "n", "delta", "variant", "alpha",
                             "neighbours", "ones", "worstCase", "bound"),
    P + "shuffle_certified": ("function", "eps", "eps0", "n", "delta", "variant", "neighbours",
                              "ones", "bound", "m", "p", "cutoff", "bits", "maxAtoms"),
    P + "definitions": ("function", "p", "q", "eps", "alpha", "rdp", "delta", "improved",
                        "curve", "sigma", "orders", "rho", "tight"),
    P + "gaussian": ("function", "eps", "delta", "sigma", "sensitivity", "digits", "alpha",
                     "scale"),
    P + "composition": ("function", "eps", "delta", "k", "deltaTotal", "values"),
    P + "mechanisms": ("function", "eps1", "eps2", "delta2", "delta3", "eps", "lambda",
                       "sensitivity", "r", "p", "delta", "q", "sigma", "alpha", "method",
                       "steps", "orders", "vector", "digits", "scale", "l1Sensitivity",
                       "sigma2", "n", "noiseMultiplier", "others", "dimension",
                       "dropProbability", "h", "tail", "value", "up"),
    P + "parse_number": ("function", "value", "openLeft", "openRight", "minimum"),
    P + "rounding": ("function", "value", "digits", "places"),
    P + "search": ("function", "target", "estimate", "digits", "lowest", "threshold", "lo",
                   "first", "cap", "loFails", "centre", "hi", "phi", "iterations", "tol"),
    P + "budget_transcript": ("policy", "policyText", "queries"),
    P + "cohort_epsilon": ("model", "eps0", "n", "delta", "bound"),
}


HEADER = [
    "Privacy accounting, second file set (module dpspec.spec.accounting): the seeds' printed"
    " privacy tables recomputed row by row with their verdicts (seed_tables), the binary64 shuffle"
    " curves (shuffle), their certified mpmath versions (shuffle_mp), the privacy-definition"
    " conversions (definitions), the Gaussian and Laplace calibrations, number parsing, conservative"
    " rounding and the monotone searches (numeric), and the on-device budget accountant of MJTB+22"
    " sec. 4.3 (budget). Each group names the spec function in its `function` argument; the notes"
    " below state each function's formula.",
    "Encodings: numbers are decimal or rational strings (\"0.317\", \"1/3\", \"1e-9\", \"sqrt(2)\" for a"
    " square root at 40 digits); sizes are JSON integers. mpmath values (40 digits; 50 in shuffle_mp)"
    " are published rounded up (toward +infinity) to 20 significant digits unless stated (10 for the"
    " certified shuffle epsilons and deltas, 15 for gaussian_epsilon, optimal_composition_epsilon and"
    " windows of binom_window), as compact decimals. Binary64 results (shuffle_binary64, the"
    " cohortEps of budget_transcript and cohort_epsilon, and the seed tables' binary64 inputs) are"
    " rounded to 8 significant digits, none within 1e-11 relative of a rounding boundary (so that"
    " the published digits do not depend on the numpy/scipy version that computed the double),"
    " \"inf\" for infinity.",
    "Tolerance (rel, abs) per op, |got - want| <= max(rel |want|, abs) on numeric strings, anything"
    " else exact: " + "; ".join(f"{op.split('.', 1)[1]} ({r:g}, {ab:g})"
                               for op, (r, ab) in sorted(TOLERANCE.items())) + ". The 1e-7 relative"
    " tolerance of the binary64 ops covers the rounding to 8 digits and numpy/scipy's last"
    " digits (hockey-stick sums add only positive terms: absolute error below 1e-14; bisections stop"
    " at 1e-10 relative width) and still catches a changed operator or constant.",
    "seed_table: dp-draft-table1 = DP draft sec. 6.1.1 Table 1 (symmetric RAPPOR, rows EPSILON_0 5,"
    " 6.5, 7 and printed eps 0.317, 0.906, 1.528) recomputed at cohort size n (the draft's n = 10^5 is"
    " beyond this file's time budget; the rows' methods are the same): standard deviation sqrt(n e^e0"
    " /(e^e0 - 1)^2), the draft's Renyi route (MJTB+22 Thm C.3), the exact curve of the dataset it"
    " analyses, the proven bound for every dataset (two fmt22 clone pairs, binary64 plus a 1e-9"
    " relative margin) and a Gaussian approximation, each rounded up to 6 decimals, and the verdict."
    " dp-draft-table2 = sec. 6.1.2 Table 2 (discrete Gaussian, L2 sensitivity sqrt(2), delta 1e-9):"
    " the smallest continuous and exact discrete sigma (10 digits, up), delta at the printed sigma"
    " both ways, whether the c = 2 column is sigma sqrt(2). sa2-examples = SA2 paper sec. 3 Examples"
    " 3-6. mjtb-figure1 = MJTB+22 sec. 3.1.2 Figure 1 at the listed cohort sizes and eps0 (closed"
    " form only where valid; fmt20, fmt22, exact summed RR certified). mjtb-claim = MJTB+22's"
    " 'eps0 = 3 gives (1, 1e-6) once n > 1000', with the smallest n for fmt20 and fmt22.",
    "shuffle_binary64 (dpspec.spec.accounting.shuffle): closed_form_condition: eps0 <= log(n/(8"
    " log(2/delta)) - 1) (limit -inf when the inside is <= 0); closed_form_value: log(1 + (e^eps0 -"
    " 1)(4 sqrt(2 log(4/delta))/sqrt((e^eps0 + 1) n) + 4/n)) rounded up to binary64; closed_form:"
    " that value (capped at eps0) when valid, else the fmt20 bound with a note; clone_probability:"
    " e^-eps0 (fmt20) or 2/(e^eps0 + 1) (fmt22); clone_delta/clone_epsilon: the clone pair of the"
    " accounting family's header, C values with mass below 1e-30 counted as delta, windows above"
    " 20000 atoms summed by the fair-coin recurrence; rr_sum_pairs/rr_sum_delta/rr_sum_epsilon: the"
    " sum of n binary randomized responses (flip 1/(e^eps0 + 1)), ones of the other n - 1 holding 1,"
    " replacement (target 1 vs 0) or deletion (present with 0 or 1 vs absent; eps searched up to"
    " 4 eps0 + 50, inf if still missed); rr_sum_worst_*: max over ones = 0..n-1; rr_sum_rdp:"
    " max of both Renyi directions (rr_sum_worst_delta reports the maximising ones only for"
    " deletion: under replacement ones and n - 1 - ones tie); rr_clone_rdp: Renyi divergence of"
    " the fmt22 pair (C revealed);"
    " rappor_histogram_*: the one-hot pair (P x Q, Q x P) of two coordinates (exact, ones = 0),"
    " the Renyi route (2 rho minimised over alpha by SA2 Thm 1, golden-section refined; worstCase:"
    " rho from rr_clone_rdp; the flat minimiser alpha is not published) and the proven product"
    " of two fmt22 pairs (clone_*); shuffle_epsilon"
    " dispatches on the bound name. Epsilons are the upper end of a bracket of relative width"
    " 1e-10; ShuffleResult is published whole (eps, delta, bound, requested, valid, note, extra).",
    "shuffle_certified (dpspec.spec.accounting.shuffle_mp): the same curves at 50 digits with the"
    " mass outside the tabulated windows added to delta (rr_sum_delta), epsilons the smallest"
    " 10-digit decimals meeting delta; clone_limits: (pc, cut-off 1e-25 delta, fixed-point bits,"
    " atoms) or a refusal when too large; binary64_slack: 1e-15 per atom, null when certified;"
    " publish: the certified (eps, note) or null when the window exceeds 40000 atoms;"
    " binom_window / fixed_binom_window: Bin(m, p) tabulated from its mode outward until the"
    " geometric tail bound is below the cut-off (fixed point: integer enclosures at scale 2^bits).",
    "definitions: hockey_stick D_{e^eps}(P||Q) = sum max(0, P - e^eps Q); dp_delta: the max of both"
    " directions; renyi_divergence: log(sum P^a Q^(1-a))/(a - 1), inf if P has mass where Q has"
    " none; rdp_to_dp_epsilon: improved (SA2 Thm 1) or [Mir17] rdp + log(1/delta)/(alpha - 1),"
    " clamped at 0; rdp_to_dp_delta: exp((a-1)(rdp-eps)) (1-1/a)^(a-1)/a capped at 1;"
    " rdp_curve_to_dp: the smallest over the (alpha, rdp) pairs (infinite rdp skipped; (inf, 0) if"
    " none); zcdp_to_rdp: alpha rho; zcdp_to_dp_epsilon: tight (golden section over alpha, never"
    " above [BS16]) or [BS16] rho + 2 sqrt(rho log(1/delta)); pure_to_rdp: min(alpha eps^2/2, eps).",
    "gaussian: gaussian_delta [BW18] Thm 8 (beyond 10^6 standard deviations the Mills-ratio bound or"
    " 1), published as `value` (null below 1e-4000) and its natural logarithm `log`;"
    " gaussian_epsilon: smallest eps with delta(eps) <= delta (0 if already at eps 0);"
    " calibrate_gaussian_sigma: smallest sigma rounded up to `digits` (10..30); classical: S"
    " sqrt(2 ln(1.25/delta))/eps (or /sigma); gaussian_rdp: alpha S^2/(2 sigma^2); gaussian_zcdp:"
    " S^2/(2 sigma^2); laplace_epsilon: S/b; laplace_scale: S/eps. composition:"
    " optimal_composition_epsilon ([KOV15] Thm 3.3 inverted by bisection), rdp/zcdp_composition:"
    " sums. mechanisms: ghazi (Theorems 11, 13, 18, exact Poisson and negative-binomial deltas,"
    " minimal parameters, geometric_tail = e^(-eps1 (Delta + 1))), subsampling (sampled Gaussian"
    " RDP by sum or integral, the moments accountant), discrete (exact discrete Gaussian delta,"
    " discrete Laplace), distributed.sum_log_ratio and pld (certified PLD bounds; decimal_bound"
    " rounds an exact rational outward, null is inf) at their decision points and input checks.",
    "parse_number: to_fraction (exact rational p/q; '_' separators, more than 1000 characters,"
    " non-finite values and exponents beyond +-4000 refused), mpf/positive/non_negative/probability"
    " (30 significant digits rounded up; sqrt(R) of R >= 0), strict_int ([+-] and 1-30 digits),"
    " positive_int (an integer or decimal-integer string >= minimum). rounding: round_sig up and"
    " down to `digits` significant digits, round_fixed to `places` decimals (exact), compact"
    " (shortest exact form, scientific below 1e-5 and from 1e21). search: smallest_on_grid with"
    " ok(x) = x^2 >= target from `estimate` (every probe listed, 30 digits), smallest_int with"
    " pred(n) = n^2 >= threshold (probes listed; null when `cap` is passed first), golden_section on"
    " (x - centre)^2 in exact rationals.",
    "budget_transcript: the accountant of MJTB+22 sec. 4.3 with the optional modes (advanced"
    " composition with deltaSlack, deletion local model, query classes, the closed/fmt22 bounds);"
    " each decision's allowed, failed check (0 allowed; 1 analysis, 2 field, 3 cohort bound, 4"
    " query class), reason and the cohort eps (binary64) of check 3; then the state and the implied"
    " local bounds (eps_local_allowed x k_allowed); the policy is a JSON object (`policy`) or JSON text"
    " (`policyText`). cohort_epsilon: cohort_epsilon_replacement /"
    " _deletion (2 eps0 replacement) with the bound named.",
    "Invalid: every input check of these functions (out-of-domain parameters, malformed numbers,"
    " unknown names, sizes beyond the evaluators' limits).",
]


NOTES = {
    "Seed": "a table or number printed in a seed (DP draft, SA2 paper, MJTB+22), recomputed",
    "SeedDoesNotHold": "the recomputation does not support the seed's printed value",
    "SmallerN": "a seed table's method at a smaller cohort than printed (time budget)",
    "Boundary": "parameters on or next to a decision point (a validity condition, a budget"
                " limit, a rounding boundary, a size limit)",
    "Binary64": "binary64 numpy/scipy result: compared within the op's stated tolerance",
    "BadParameter": "an argument outside its domain; the implementation must reject it",
}


def _group(op: str, params: dict[str, Any], tests: list[tuple[str, dict[str, Any], list[str]]],
           tc: TestNumberer, invalid: list[tuple[str, dict[str, Any]]] | None = None
           ) -> dict[str, Any]:
    """The group of ``op`` as the accounting family's ``_group`` builds it (invalid cases flagged
    BadParameter), with this module's handlers."""
    return build_group(tc, HANDLERS, op, tests, [(c, i, "BadParameter") for c, i in invalid or []],
                       params, rejects=(ValueError, TypeError, ArithmeticError))


def _seed_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    op = P + "seed_table"
    g = [_group(op, {}, [
        ("DP draft Table 2 (sec. 6.1.2), every row", {"table": "dp-draft-table2", "delta": "1e-9"},
         ["Seed", "SeedDoesNotHold"]),
        ("SA2 Examples 3-6", {"table": "sa2-examples"}, ["Seed", "SeedDoesNotHold"]),
        ("MJTB+22 sec. 3.1.2 claim (eps0 3, n > 1000, (1, 1e-6))", {"table": "mjtb-claim"},
         ["Seed", "SeedDoesNotHold"]),
        ("MJTB+22 Figure 1: n 2000 and 5000 straddle the closed form's validity at eps0 3; n 50000"
         " is just inside it at eps0 6", {"table": "mjtb-figure1", "ns": [2000, 5000, 50000],
                                          "eps0s": ["3", "6"], "delta": "1e-6"},
         ["Seed", "Boundary"]),
        ("DP draft Table 1 (sec. 6.1.1) rows at n = 150 (each epsilon at or near the 2 eps0 cap:"
         " the rows pin the method and the verdict logic, not the draft's numbers)",
         {"table": "dp-draft-table1", "n": 150, "delta": "1e-9"}, ["Seed", "SmallerN"]),
    ], tc, [("unknown table", {"table": "dp-draft-table3"}),
            ("Figure 1 with n 1", {"table": "mjtb-figure1", "ns": [1], "eps0s": ["3"],
                                   "delta": "1e-6"}),
            ("Figure 1 with eps0 0", {"table": "mjtb-figure1", "ns": [100], "eps0s": ["0"],
                                      "delta": "1e-6"}),
            ("Table 1 with n 1", {"table": "dp-draft-table1", "n": 1, "delta": "1e-9"})])]
    return g


def _shuffle_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    b = P + "shuffle_binary64"
    f64 = ["Binary64"]
    g: list[dict[str, Any]] = []

    def fn(name: str, tests: list[tuple[str, dict[str, Any], list[str]]],
           invalid: list[tuple[str, dict[str, Any]]] | None = None) -> None:
        g.append(_group(b, {"function": name}, [(c, i, [*fl, *f64]) for c, i, fl in tests], tc,
                        invalid))

    fn("closed_form_condition", [
        ("MJTB+22 Fig. 1, eps0 3, n 10^4: valid", {"eps0": "3", "n": 10000, "delta": "1e-6"}, []),
        ("eps0 4.444 just below the limit 4.4445 (n 10^4, delta 1e-6)",
         {"eps0": "4.444", "n": 10000, "delta": "1e-6"}, ["Boundary"]),
        ("eps0 4.445 just above the limit", {"eps0": "4.445", "n": 10000, "delta": "1e-6"},
         ["Boundary"]),
        ("n 116 < 8 log(2/delta) (inside of the log <= 0): limit -inf",
         {"eps0": "1", "n": 116, "delta": "1e-6"}, ["Boundary"]),
        ("n 117: inside 0.008, limit about -4.8", {"eps0": "1", "n": 117, "delta": "1e-6"},
         ["Boundary"]),
    ], [("eps0 0", {"eps0": "0", "n": 1000, "delta": "1e-6"}),
        ("n 1", {"eps0": "1", "n": 1, "delta": "1e-6"}),
        ("delta 1", {"eps0": "1", "n": 1000, "delta": "1"}),
        ("delta not a number", {"eps0": "1", "n": 1000, "delta": "x"})])
    fn("closed_form_value", [
        ("eps0 3, n 10^4, delta 1e-6", {"eps0": "3", "n": 10000, "delta": "1e-6"}, []),
        ("outside validity (eps0 6): the formula's value regardless",
         {"eps0": "6", "n": 10000, "delta": "1e-6"}, []),
    ], [("n 0", {"eps0": "1", "n": 0, "delta": "1e-6"}),
        ("eps0 -1", {"eps0": "-1", "n": 100, "delta": "1e-6"}),
        ("delta 0", {"eps0": "1", "n": 100, "delta": "0"})])
    fn("closed_form", [
        ("valid: Theorem 3.1", {"eps0": "3", "n": 10000, "delta": "1e-6"}, []),
        ("valid, value capped at eps0 (eps0 0.01, n 10^4)", {"eps0": "0.01", "n": 10000,
                                                               "delta": "1e-6"}, ["Boundary"]),
        ("outside validity: fmt20 fallback with a note", {"eps0": "3", "n": 2000,
                                                          "delta": "1e-6"}, ["Boundary"]),
    ], [("delta 1.5", {"eps0": "1", "n": 1000, "delta": "1.5"})])
    fn("clone_probability", [
        ("fmt20 e^-2", {"eps0": "2", "variant": "fmt20"}, []),
        ("fmt22 2/(e^2 + 1)", {"eps0": "2", "variant": "fmt22"}, []),
    ], [("unknown variant", {"eps0": "2", "variant": "fmt21"})])
    fn("clone_delta", [
        ("fmt22 eps 0.5, eps0 2, n 1000", {"eps": "0.5", "eps0": "2", "n": 1000,
                                           "variant": "fmt22"}, []),
        ("fmt20 eps 0.5, eps0 2, n 1000", {"eps": "0.5", "eps0": "2", "n": 1000,
                                           "variant": "fmt20"}, []),
        ("eps 0: total variation", {"eps": "0", "eps0": "1", "n": 50, "variant": "fmt22"}, []),
        ("eps = eps0: the local guarantee, delta exactly 0 (the uncounted tail included)",
         {"eps": "2", "eps0": "2", "n": 1000, "variant": "fmt22"}, ["Boundary"]),
        ("window above 20000 atoms: the fair-coin recurrence (eps0 1, n 3 x 10^6; eps 0.0005"
         " keeps delta near 1e-4, far above the recurrence's rounding)",
         {"eps": "0.0005", "eps0": "1", "n": 3000000, "variant": "fmt22"}, ["Boundary"]),
    ], [("n 1", {"eps": "0.5", "eps0": "2", "n": 1, "variant": "fmt22"})])
    fn("clone_epsilon", [
        ("fmt22 eps0 2, n 1000, delta 1e-6", {"eps0": "2", "n": 1000, "delta": "1e-6",
                                               "variant": "fmt22"}, []),
        ("fmt20 eps0 2, n 1000, delta 1e-6", {"eps0": "2", "n": 1000, "delta": "1e-6",
                                               "variant": "fmt20"}, []),
        ("delta 0.9 already met at eps 0", {"eps0": "1", "n": 100, "delta": "0.9",
                                            "variant": "fmt22"}, ["Boundary"]),
        ("eps0 30, the binary64 limit", {"eps0": "30", "n": 100, "delta": "1e-6",
                                         "variant": "fmt20"}, ["Boundary"]),
        ("delta 1e-25, the binary64 limit", {"eps0": "1", "n": 1000, "delta": "1e-25",
                                             "variant": "fmt22"}, ["Boundary"]),
    ], [("eps0 30.5 above the binary64 limit", {"eps0": "30.5", "n": 100, "delta": "1e-6",
                                                "variant": "fmt20"}),
        ("delta 1e-26 below the binary64 limit", {"eps0": "1", "n": 100, "delta": "1e-26",
                                                  "variant": "fmt22"}),
        ("unknown variant", {"eps0": "1", "n": 100, "delta": "1e-6", "variant": "fmt99"})])
    fn("rr_clone_rdp", [
        ("alpha 2, eps0 2, n 200", {"alpha": "2", "eps0": "2", "n": 200}, []),
        ("alpha 1.5, eps0 1, n 60", {"alpha": "1.5", "eps0": "1", "n": 60}, []),
    ], [("alpha 1", {"alpha": "1", "eps0": "2", "n": 200}),
        ("eps0 0", {"alpha": "2", "eps0": "0", "n": 200}),
        ("n 1", {"alpha": "2", "eps0": "1", "n": 1})])
    fn("rr_sum_pairs", [
        ("n 4, eps0 1, replacement, ones 0", {"eps0": "1", "n": 4}, []),
        ("ones 1 (two binomials convolved)", {"eps0": "1", "n": 4, "ones": 1}, []),
        ("ones 3 = n - 1", {"eps0": "1", "n": 4, "ones": 3}, ["Boundary"]),
        ("deletion", {"eps0": "1", "n": 3, "neighbours": "deletion"}, []),
        ("n 1: the target alone", {"eps0": "2", "n": 1}, ["Boundary"]),
    ], [("ones 4 > n - 1", {"eps0": "1", "n": 4, "ones": 4}),
        ("ones -1", {"eps0": "1", "n": 4, "ones": -1}),
        ("unknown neighbours", {"eps0": "1", "n": 4, "neighbours": "swap"}),
        ("eps0 701 overflows binary64", {"eps0": "701", "n": 4}),
        ("n above 10^7", {"eps0": "1", "n": 10000001}),
        ("n 0", {"eps0": "1", "n": 0})])
    fn("rr_sum_delta", [
        ("replacement, ones 0", {"eps": "0.3", "eps0": "2", "n": 60}, []),
        ("replacement, ones 2", {"eps": "0.3", "eps0": "2", "n": 60, "ones": 2}, []),
        ("deletion", {"eps": "0.4", "eps0": "1", "n": 20, "neighbours": "deletion"}, []),
    ], [("eps not a number", {"eps": "a", "eps0": "2", "n": 60})])
    fn("rr_sum_epsilon", [
        ("replacement eps0 2, n 200, delta 1e-6", {"eps0": "2", "n": 200, "delta": "1e-6"}, []),
        ("replacement, ones 5", {"eps0": "2", "n": 200, "delta": "1e-6", "ones": 5}, []),
        ("deletion eps0 1, n 200", {"eps0": "1", "n": 200, "delta": "1e-6",
                                    "neighbours": "deletion"}, []),
        ("deletion, n 3: P[all report 1] > delta, eps infinite",
         {"eps0": "1", "n": 3, "delta": "1e-6", "neighbours": "deletion"}, ["Boundary"]),
        ("delta 0.5 already met at eps 0", {"eps0": "0.5", "n": 100, "delta": "0.5"},
         ["Boundary"]),
    ], [("delta 0", {"eps0": "1", "n": 100, "delta": "0"})])
    fn("rr_sum_worst_delta", [
        ("n 60, eps0 2, eps 0.3: worst at ones 2", {"eps": "0.3", "eps0": "2", "n": 60}, []),
        ("deletion n 20", {"eps": "0.4", "eps0": "1", "n": 20, "neighbours": "deletion"}, []),
    ], [("n 3001 above the exhaustive limit", {"eps": "0.3", "eps0": "2", "n": 3001})])
    fn("rr_sum_worst_epsilon", [
        ("n 40, eps0 2, delta 1e-4", {"eps0": "2", "n": 40, "delta": "1e-4"}, []),
        ("deletion n 40", {"eps0": "2", "n": 40, "delta": "1e-2", "neighbours": "deletion"}, []),
    ], [("n 3001 above the exhaustive limit", {"eps0": "2", "n": 3001, "delta": "1e-6"})])
    fn("rr_sum_rdp", [
        ("alpha 2, eps0 2, n 100, ones 0", {"alpha": "2", "eps0": "2", "n": 100}, []),
        ("alpha 8, ones 99 = n - 1 (log-PMF path)", {"alpha": "8", "eps0": "2", "n": 100,
                                                     "ones": 99}, ["Boundary"]),
        ("alpha 3, ones 30 (linear PMFs)", {"alpha": "3", "eps0": "2", "n": 100, "ones": 30}, []),
    ], [("alpha 1", {"alpha": "1", "eps0": "2", "n": 100}),
        ("ones 100 > n - 1", {"alpha": "2", "eps0": "2", "n": 100, "ones": 100}),
        ("n 1", {"alpha": "2", "eps0": "2", "n": 1})])
    fn("rappor_histogram_rdp_epsilon", [
        ("eps0 2, n 500, ones 0 (the draft's route)", {"eps0": "2", "n": 500, "delta": "1e-6",
                                                       "worstCase": False}, []),
        ("eps0 2, n 500, proven for all datasets", {"eps0": "2", "n": 500, "delta": "1e-6",
                                                    "worstCase": True}, []),
        ("eps0 6, n 50: capped at 2 eps0", {"eps0": "6", "n": 50, "delta": "1e-9",
                                            "worstCase": False}, ["Boundary"]),
    ], [("n 1", {"eps0": "2", "n": 1, "delta": "1e-6", "worstCase": False})])
    fn("rappor_histogram_delta", [
        ("eps 1, eps0 2, n 200", {"eps": "1", "eps0": "2", "n": 200}, []),
        ("eps 0", {"eps": "0", "eps0": "2", "n": 50}, []),
    ], [("eps0 0", {"eps": "1", "eps0": "0", "n": 200})])
    fn("rappor_histogram_epsilon", [
        ("eps0 2, n 200, delta 1e-6", {"eps0": "2", "n": 200, "delta": "1e-6"}, []),
    ], [("delta 1", {"eps0": "2", "n": 200, "delta": "1"})])
    fn("rappor_histogram_clone_delta", [
        ("eps 1, eps0 2, n 200", {"eps": "1", "eps0": "2", "n": 200}, []),
        ("eps 3, eps0 3, n 100", {"eps": "3", "eps0": "3", "n": 100}, []),
    ], [("n 1", {"eps": "1", "eps0": "2", "n": 1}),
        ("eps0 0", {"eps": "1", "eps0": "0", "n": 100})])
    fn("rappor_histogram_clone_epsilon", [
        ("eps0 2, n 200, delta 1e-6", {"eps0": "2", "n": 200, "delta": "1e-6"}, []),
    ], [("delta 0", {"eps0": "2", "n": 200, "delta": "0"})])
    fn("shuffle_epsilon", [
        (f"bound {bd}", {"eps0": "2", "n": 1000, "delta": "1e-6", "bound": bd}, [])
        for bd in ("closed", "fmt20", "fmt22", "exact-rr")
    ], [("unknown bound", {"eps0": "2", "n": 1000, "delta": "1e-6", "bound": "rdp"})])

    c = P + "shuffle_certified"

    def fc(name: str, tests: list[tuple[str, dict[str, Any], list[str]]],
           invalid: list[tuple[str, dict[str, Any]]] | None = None) -> None:
        g.append(_group(c, {"function": name}, tests, tc, invalid))

    fc("rr_sum_epsilon", [
        ("replacement eps0 2, n 200, delta 1e-6", {"eps0": "2", "n": 200, "delta": "1e-6"}, []),
        ("deletion eps0 1, n 200", {"eps0": "1", "n": 200, "delta": "1e-6",
                                    "neighbours": "deletion"}, []),
        ("deletion, n 3: infinite", {"eps0": "1", "n": 3, "delta": "1e-6",
                                     "neighbours": "deletion"}, ["Boundary"]),
        ("delta 0.5 already met at eps 0", {"eps0": "0.5", "n": 100, "delta": "0.5"},
         ["Boundary"]),
    ], [("delta 0", {"eps0": "1", "n": 100, "delta": "0"}),
        ("eps0 0", {"eps0": "0", "n": 100, "delta": "1e-6"}),
        ("unknown neighbours", {"eps0": "1", "n": 100, "delta": "1e-6", "neighbours": "add"})])
    fc("rr_sum_delta", [
        ("deletion eps 0.4, eps0 1, n 20", {"eps": "0.4", "eps0": "1", "n": 20,
                                            "neighbours": "deletion"}, []),
    ], [("ones 20 > n - 1", {"eps": "0.4", "eps0": "1", "n": 20, "ones": 20})])
    fc("rappor_histogram_epsilon", [
        ("eps0 2, n 200, delta 1e-6", {"eps0": "2", "n": 200, "delta": "1e-6"}, []),
    ], [("delta 1", {"eps0": "2", "n": 200, "delta": "1"}),
        ("eps0 0", {"eps0": "0", "n": 200, "delta": "1e-6"})])
    fc("clone_epsilon", [
        ("delta 0.9 already met at eps 0", {"eps0": "1", "n": 100, "delta": "0.9",
                                            "variant": "fmt22"}, ["Boundary"]),
    ])
    fc("clone_limits", [
        ("fmt22 eps0 2, n 1000", {"eps0": "2", "n": 1000, "variant": "fmt22", "delta": "1e-6"},
         []),
        ("fmt20 eps0 1, n 10^6", {"eps0": "1", "n": 1000000, "variant": "fmt20",
                                  "delta": "1e-9"}, []),
    ], [("unknown variant", {"eps0": "2", "n": 1000, "variant": "fmt23", "delta": "1e-6"}),
        ("n 10^13: too many atoms", {"eps0": "1", "n": 10**13, "variant": "fmt22",
                                     "delta": "1e-6"}),
        ("n 1", {"eps0": "1", "n": 1, "variant": "fmt22", "delta": "1e-6"}),
        ("eps0 10^-6, n 10^10: the clone count's CDF needs too many terms",
         {"eps0": "0.000001", "n": 10**10, "variant": "fmt22", "delta": "1e-6"})])
    fc("binary64_slack", [
        ("closed: nothing to certify", {"eps0": "2", "n": 1000, "delta": "1e-6",
                                        "bound": "closed"}, []),
        ("fmt22: certified", {"eps0": "2", "n": 1000, "delta": "1e-6", "bound": "fmt22"}, []),
        ("exact-rr n 1000: certified", {"eps0": "2", "n": 1000, "delta": "1e-6",
                                        "bound": "exact-rr"}, []),
        ("exact-rr n 10^6: 1e-15 per atom", {"eps0": "2", "n": 1000000, "delta": "1e-6",
                                              "bound": "exact-rr"}, ["Boundary"]),
        ("rdp route: 1e-15 per atom", {"eps0": "2", "n": 1000, "delta": "1e-6",
                                       "bound": "rdp"}, []),
        ("bad parameter (n 1): null, left to the caller", {"eps0": "2", "n": 1, "delta": "1e-6",
                                                           "bound": "fmt22"}, []),
    ])
    fc("publish", [
        ("fmt20 eps0 2, n 500", {"eps0": "2", "n": 500, "delta": "1e-6", "bound": "fmt20"}, []),
        ("exact-rr eps0 2, n 500", {"eps0": "2", "n": 500, "delta": "1e-6",
                                    "bound": "exact-rr"}, []),
        ("exact-rr n 10^7: window above 40000 atoms, null", {"eps0": "1", "n": 10**7,
                                                              "delta": "1e-6",
                                                              "bound": "exact-rr"},
         ["Boundary"]),
        ("exact-rr with ones 100000: the ones' window is too large, null",
         {"eps0": "1", "n": 200000, "delta": "1e-6", "bound": "exact-rr", "ones": 100000},
         ["Boundary"]),
    ], [("closed has no certified evaluation", {"eps0": "2", "n": 500, "delta": "1e-6",
                                                "bound": "closed"}),
        ("n 1", {"eps0": "2", "n": 1, "delta": "1e-6", "bound": "fmt20"})])
    fc("binom_window", [
        ("Bin(10, 0.3), cut-off 1e-6", {"m": 10, "p": "0.3", "cutoff": "1e-6"}, []),
        ("m 0", {"m": 0, "p": "0.3", "cutoff": "1e-6"}, ["Boundary"]),
        ("p 0", {"m": 5, "p": "0", "cutoff": "1e-6"}, ["Boundary"]),
        ("p 1", {"m": 5, "p": "1", "cutoff": "1e-6"}, ["Boundary"]),
    ])
    fc("fixed_binom_window", [
        ("Bin(10, 0.3), cut-off 1e-6, 64 bits", {"m": 10, "p": "0.3", "cutoff": "1e-6",
                                                 "bits": 64}, []),
        ("m 0", {"m": 0, "p": "0.3", "cutoff": "1e-6", "bits": 64}, ["Boundary"]),
        ("p 1", {"m": 5, "p": "1", "cutoff": "1e-6", "bits": 64}, ["Boundary"]),
    ], [("more atoms than allowed", {"m": 1000, "p": "0.5", "cutoff": "1e-30", "bits": 128,
                                     "maxAtoms": 20})])
    fn("clone_delta", [
        ("eps > eps0 where binary64 rounds alpha = e^eps0/(e^eps0 + 1) to 1 (eps0 38): delta"
         " exactly 0, by the local guarantee", {"eps": "41", "eps0": "38", "n": 10,
                                                 "variant": "fmt20"}, ["Boundary"]),
        ("eps0 38, eps 37, n 10: 1 - alpha taken as 1/(e^eps0 + 1), not by subtraction (about"
         " 1 - e^-1: the clone count is almost surely 0)",
         {"eps": "37", "eps0": "38", "n": 10, "variant": "fmt20"}, ["Boundary"]),
        ("eps0 30, eps 29.999999, n 100: 1 - alpha is 9.4e-14, where a subtraction loses three"
         " digits", {"eps": "29.999999", "eps0": "30", "n": 100, "variant": "fmt20"},
         ["Boundary"]),
    ])
    fn("rr_clone_rdp", [
        ("alpha 2, eps0 30, n 12: log(1 - alpha) taken as -eps0 - log1p(e^-eps0) (log1p(-alpha)"
         " gave 29.99983)", {"alpha": "2", "eps0": "30", "n": 12}, ["Boundary"]),
        ("alpha 2, eps0 38, n 12: alpha rounds to 1 in binary64", {"alpha": "2", "eps0": "38",
                                                                     "n": 12}, ["Boundary"]),
    ])
    return g


def _definitions_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    g: list[dict[str, Any]] = []

    def fn(op: str, name: str, tests: list[tuple[str, dict[str, Any], list[str]]],
           invalid: list[tuple[str, dict[str, Any]]] | None = None) -> None:
        g.append(_group(P + op, {"function": name}, tests, tc, invalid))

    rr_p, rr_q = ["3/4", "1/4"], ["1/4", "3/4"]
    fn("definitions", "hockey_stick", [
        ("randomized response e^eps0 = 3 at eps 0", {"p": rr_p, "q": rr_q, "eps": "0"}, []),
        ("at eps 0.5", {"p": rr_p, "q": rr_q, "eps": "0.5"}, []),
        ("at eps log 3 exactly: 0 (ties add nothing)", {"p": rr_p, "q": rr_q,
                                                        "eps": "1.0986122886681098"},
         ["Boundary"]),
        ("disjoint supports", {"p": ["1", "0"], "q": ["0", "1"], "eps": "2"}, []),
    ], [("supports of different lengths", {"p": ["1"], "q": ["1/2", "1/2"], "eps": "0"}),
        ("a probability not a number", {"p": ["x", "1"], "q": ["1/2", "1/2"], "eps": "0"})])
    fn("definitions", "dp_delta", [
        ("asymmetric pair: the larger direction", {"p": ["1/2", "1/2", "0"],
                                                   "q": ["1/4", "1/4", "1/2"], "eps": "0.1"}, []),
        ("the other order", {"p": ["1/4", "1/4", "1/2"], "q": ["1/2", "1/2", "0"],
                             "eps": "0.1"}, []),
    ])
    fn("definitions", "renyi_divergence", [
        ("randomized response, alpha 2", {"p": rr_p, "q": rr_q, "alpha": "2"}, []),
        ("alpha 1.5, a zero of P skipped", {"p": ["1/2", "1/2", "0"], "q": ["1/4", "1/4", "1/2"],
                                            "alpha": "1.5"}, []),
        ("P has mass where Q has none: inf", {"p": ["1/2", "1/2"], "q": ["1", "0"],
                                              "alpha": "2"}, ["Boundary"]),
    ], [("alpha 1", {"p": rr_p, "q": rr_q, "alpha": "1"})])
    fn("definitions", "rdp_to_dp_epsilon", [
        ("improved, alpha 4", {"rdp": "0.2", "alpha": "4", "delta": "1e-6", "improved": True},
         []),
        ("[Mir17], alpha 4", {"rdp": "0.2", "alpha": "4", "delta": "1e-6", "improved": False},
         []),
        ("delta 1 allowed (clamped at 0)", {"rdp": "0", "alpha": "2", "delta": "1",
                                            "improved": False}, ["Boundary"]),
    ], [("rdp negative", {"rdp": "-0.1", "alpha": "4", "delta": "1e-6", "improved": True}),
        ("delta 0", {"rdp": "0.1", "alpha": "4", "delta": "0", "improved": True}),
        ("delta above 1", {"rdp": "0.1", "alpha": "4", "delta": "1.1", "improved": True}),
        ("alpha 1", {"rdp": "0.1", "alpha": "1", "delta": "1e-6", "improved": False})])
    fn("definitions", "rdp_to_dp_delta", [
        ("alpha 4, rdp 0.2, eps 1", {"rdp": "0.2", "alpha": "4", "eps": "1"}, []),
        ("capped at 1 (eps 0, rdp 5)", {"rdp": "5", "alpha": "2", "eps": "0"}, ["Boundary"]),
    ], [("alpha 1", {"rdp": "0.2", "alpha": "1", "eps": "1"}),
        ("eps negative", {"rdp": "0.2", "alpha": "2", "eps": "-1"}),
        ("rdp negative", {"rdp": "-0.2", "alpha": "2", "eps": "1"})])
    fn("definitions", "rdp_curve_to_dp", [
        ("three orders, the middle one wins", {"curve": [["2", "0.1"], ["8", "0.4"],
                                                         ["32", "1.6"]],
                                               "delta": "1e-6", "improved": True}, []),
        ("[Mir17] conversion", {"curve": [["2", "0.1"], ["8", "0.4"], ["32", "1.6"]],
                                "delta": "1e-6", "improved": False}, []),
        ("equal epsilons: the first order stays", {"curve": [["2", "0"], ["3", "0"]],
                                                   "delta": "1", "improved": True},
         ["Boundary"]),
    ], [("no orders", {"curve": [], "delta": "1e-6", "improved": True})])
    fn("definitions", "gaussian_curve_to_dp", [
        ("sigma 5.1 at orders 2, 16, 64 (delta 1e-8)", {"sigma": "5.1", "delta": "1e-8",
                                                         "orders": ["2", "16", "64"]}, []),
    ])
    fn("definitions", "zcdp_to_rdp", [("rho 0.5, alpha 3", {"rho": "0.5", "alpha": "3"}, [])],
       [("rho negative", {"rho": "-0.5", "alpha": "3"})])
    fn("definitions", "zcdp_to_dp_epsilon", [
        ("[BS16] form, rho 0.5", {"rho": "0.5", "delta": "1e-6", "tight": False}, []),
        ("tight, rho 0.5", {"rho": "0.5", "delta": "1e-6", "tight": True}, []),
        ("tight, rho 0: the simple value 0", {"rho": "0", "delta": "1e-6", "tight": True},
         ["Boundary"]),
    ], [("delta 0", {"rho": "0.5", "delta": "0", "tight": False})])
    fn("definitions", "pure_to_rdp", [("eps 0.5, alpha 1.5", {"eps": "0.5", "alpha": "1.5"}, [])],
       [("eps negative", {"eps": "-0.5", "alpha": "2"})])

    fn("gaussian", "gaussian_delta", [
        ("sigma 10^-7: more than 10^6 deviations below, Mills bound",
         {"eps": "2", "sigma": "1e-7", "sensitivity": "1e-13"}, ["Boundary"]),
        ("S/(2 sigma) beyond 10^6: delta 1", {"eps": "0", "sigma": "1e-7", "sensitivity": "1"},
         ["Boundary"]),
        ("eps 1, sigma 2", {"eps": "1", "sigma": "2", "sensitivity": "1"}, []),
    ], [("eps above the supported range", {"eps": "1000001", "sigma": "1", "sensitivity": "1"}),
        ("sensitivity 0", {"eps": "1", "sigma": "1", "sensitivity": "0"})])
    fn("gaussian", "gaussian_epsilon", [
        ("delta 1e-8, sigma 5.1 (SA2 Example 3)", {"delta": "1e-8", "sigma": "5.1",
                                                   "sensitivity": "1"}, ["Seed"]),
        ("met at eps 0 (sigma 100, delta 0.01)", {"delta": "0.01", "sigma": "100",
                                                  "sensitivity": "1"}, ["Boundary"]),
        ("doubling the bracket (sigma 0.2)", {"delta": "1e-6", "sigma": "0.2",
                                              "sensitivity": "1"}, []),
    ], [("delta 0", {"delta": "0", "sigma": "1", "sensitivity": "1"})])
    fn("gaussian", "calibrate_gaussian_sigma", [
        ("10 digits", {"eps": "1", "delta": "1e-8", "sensitivity": "1", "digits": 10},
         ["Boundary"]),
        ("30 digits", {"eps": "1", "delta": "1e-8", "sensitivity": "1", "digits": 30},
         ["Boundary"]),
    ], [("digits 9", {"eps": "1", "delta": "1e-8", "sensitivity": "1", "digits": 9}),
        ("digits 31", {"eps": "1", "delta": "1e-8", "sensitivity": "1", "digits": 31}),
        ("sensitivity 0", {"eps": "1", "delta": "1e-8", "sensitivity": "0", "digits": 12})])
    fn("gaussian", "classical_gaussian_sigma", [
        ("eps 0.5, delta 1e-5, S 2", {"eps": "0.5", "delta": "1e-5", "sensitivity": "2"}, [])],
       [("eps 0", {"eps": "0", "delta": "1e-5", "sensitivity": "1"}),
        ("delta 1", {"eps": "1", "delta": "1", "sensitivity": "1"}),
        ("sensitivity 0", {"eps": "1", "delta": "1e-5", "sensitivity": "0"})])
    fn("gaussian", "classical_gaussian_epsilon", [
        ("SA2 Example 3: sigma 7, delta 1e-8", {"delta": "1e-8", "sigma": "7",
                                                "sensitivity": "1"}, ["Seed"])],
       [("sigma 0", {"delta": "1e-8", "sigma": "0", "sensitivity": "1"}),
        ("sensitivity -1", {"delta": "1e-8", "sigma": "1", "sensitivity": "-1"})])
    fn("gaussian", "gaussian_rdp", [
        ("alpha 3, sigma 2, S 3", {"alpha": "3", "sigma": "2", "sensitivity": "3"}, [])],
       [("sigma 0", {"alpha": "3", "sigma": "0", "sensitivity": "1"}),
        ("sensitivity 0", {"alpha": "3", "sigma": "1", "sensitivity": "0"})])
    fn("gaussian", "gaussian_zcdp", [("sigma 2, S 3", {"sigma": "2", "sensitivity": "3"}, [])],
       [("sigma -2", {"sigma": "-2", "sensitivity": "1"}),
        ("sensitivity 0", {"sigma": "2", "sensitivity": "0"})])
    fn("gaussian", "laplace_epsilon", [("scale 4, S 3", {"scale": "4", "sensitivity": "3"}, [])],
       [("scale 0", {"scale": "0", "sensitivity": "1"}),
        ("sensitivity 0", {"scale": "1", "sensitivity": "0"})])
    fn("gaussian", "laplace_scale", [("eps 0.5, S 3", {"eps": "0.5", "sensitivity": "3"}, [])],
       [("eps 0", {"eps": "0", "sensitivity": "1"}),
        ("sensitivity -1", {"eps": "1", "sensitivity": "-1"})])
    fn("composition", "optimal_composition_epsilon", [
        ("k 10 of (0.1, 0), delta total 1e-6", {"eps": "0.1", "delta": "0", "k": 10,
                                                 "deltaTotal": "1e-6"}, []),
        ("delta total 1: eps 0", {"eps": "0.1", "delta": "0", "k": 10, "deltaTotal": "1"},
         ["Boundary"]),
    ], [("delta total below k-fold delta", {"eps": "0.1", "delta": "1e-3", "k": 10,
                                            "deltaTotal": "1e-6"}),
        ("delta total 0", {"eps": "0.1", "delta": "0", "k": 10, "deltaTotal": "0"})])
    fn("composition", "rdp_composition", [("three values", {"values": ["0.1", "1/3", "2"]}, [])],
       [("a negative value", {"values": ["0.1", "-1"]})])
    fn("composition", "zcdp_composition", [("two values", {"values": ["0.25", "1/8"]}, [])],
       [("a negative value", {"values": ["-0.1"]})])

    fn("parse_number", "to_fraction", [
        (f"{t!r}", {"value": t}, []) for t in ("0.317", "1/3", "1e-9", " 2.50 ", "-7", "0",
                                                "1e4000", "1e-4000")
    ], [(f"{t!r}", {"value": t}) for t in ("1_0", "abc", "inf", "nan", "1e4001", "1e-4001",
                                            "1" * 1001, "1/0")]
       + [("true (a boolean)", {"value": True}), ("a list", {"value": [1]})])
    fn("parse_number", "mpf", [
        ("sqrt(2)", {"value": "sqrt(2)"}, []), ("sqrt( 1/4 )", {"value": "sqrt( 1/4 )"}, []),
        ("1/3", {"value": "1/3"}, []),
    ], [("sqrt(-1)", {"value": "sqrt(-1)"}), ("sqrt(x)", {"value": "sqrt(x)"})])
    fn("parse_number", "positive", [("1e-300", {"value": "1e-300"}, ["Boundary"])],
       [("0", {"value": "0"})])
    fn("parse_number", "non_negative", [("0", {"value": "0"}, ["Boundary"])],
       [("-1e-300", {"value": "-1e-300"})])
    fn("parse_number", "probability", [
        ("0 with the left end closed", {"value": "0", "openLeft": False, "openRight": True},
         ["Boundary"]),
        ("1 with the right end closed", {"value": "1", "openLeft": True, "openRight": False},
         ["Boundary"]),
        ("1/2 open", {"value": "1/2", "openLeft": True, "openRight": True}, []),
    ], [("0 open", {"value": "0", "openLeft": True, "openRight": True}),
        ("1 open", {"value": "1", "openLeft": False, "openRight": True}),
        ("-0.1 closed", {"value": "-0.1", "openLeft": False, "openRight": False}),
        ("1.1 closed", {"value": "1.1", "openLeft": False, "openRight": False})])
    fn("parse_number", "strict_int", [
        (f"{t!r}", {"value": t}, []) for t in ("42", "-7", "+0012", " 9 ", "9" * 30)
    ], [(f"{t!r}", {"value": t}) for t in ("1_0", "1.0", "", "9" * 31, "0x10")])
    fn("parse_number", "positive_int", [
        ("12 as text", {"value": "12", "minimum": 1}, []),
        ("2 at minimum 2", {"value": 2, "minimum": 2}, ["Boundary"]),
        ("0 at minimum 0", {"value": 0, "minimum": 0}, ["Boundary"]),
    ], [("1 at minimum 2", {"value": 1, "minimum": 2}),
        ("'1.5'", {"value": "1.5", "minimum": 1}),
        ("true", {"value": True, "minimum": 0}),
        ("2.0 (a float)", {"value": 2.0, "minimum": 0})])
    fn("rounding", "round_sig", [
        ("23.390273615 to 10 digits", {"value": "23.390273615", "digits": 10}, []),
        ("already on the grid", {"value": "1.5", "digits": 3}, ["Boundary"]),
        ("negative -1/3 to 5 digits", {"value": "-1/3", "digits": 5}, []),
        ("0", {"value": "0", "digits": 5}, ["Boundary"]),
        ("999.95 to 4 digits (carries to 1000)", {"value": "999.95", "digits": 4}, ["Boundary"]),
    ])
    fn("rounding", "round_fixed", [
        ("0.56111579131857 to 6 places", {"value": "0.56111579131857", "places": 6}, []),
        ("-0.5000001 to 3 places", {"value": "-0.5000001", "places": 3}, []),
        ("exact 2.5 to 0 places", {"value": "2.5", "places": 0}, ["Boundary"]),
    ])
    fn("rounding", "compact", [
        (f"{t!r}", {"value": t}, []) for t in ("0.000000001000000000", "0.00001", "0.000001",
                                                "123.4500", "1e21", "999999999999999999999",
                                                "-0.0000025", "0.000")
    ])
    fn("search", "smallest_on_grid", [
        ("sqrt(2) to 6 digits from the estimate 1", {"target": "2", "estimate": "1",
                                                     "digits": 6, "lowest": "0"}, []),
        ("from an estimate above: 3", {"target": "2", "estimate": "3", "digits": 4,
                                       "lowest": "0"}, []),
        ("crossing a power of ten: sqrt(99.9999) from 20", {"target": "99.9999",
                                                            "estimate": "20", "digits": 3,
                                                            "lowest": "0"}, ["Boundary"]),
        ("lowest 5 holds: 5", {"target": "2", "estimate": "7", "digits": 4, "lowest": "5"},
         ["Boundary"]),
        ("estimate 0", {"target": "1/4", "estimate": "0", "digits": 3, "lowest": "0"},
         ["Boundary"]),
    ])
    fn("search", "smallest_int", [
        ("n^2 >= 1000 from 1", {"threshold": "1000", "lo": 1}, []),
        ("holds at lo", {"threshold": "4", "lo": 5}, ["Boundary"]),
        ("lo known to fail, first probe 10", {"threshold": "50", "lo": 1, "first": 10,
                                              "loFails": True}, []),
        ("cap 16 reached first: null", {"threshold": "10000", "lo": 1, "cap": 16},
         ["Boundary"]),
        ("cap 100 suffices", {"threshold": "10000", "lo": 1, "cap": 100}, ["Boundary"]),
    ], [("first probe not above lo", {"threshold": "10", "lo": 5, "first": 5})])
    fn("search", "golden_section", [
        ("centre 1/3 on [0, 1], phi 0.618, 6 steps", {"centre": "1/3", "lo": "0", "hi": "1",
                                                      "phi": "0.618", "iterations": 6}, []),
        ("tol 1/10", {"centre": "3/4", "lo": "0", "hi": "1", "phi": "0.618", "tol": "1/10"},
         []),
    ])
    m = "mechanisms"
    fn(m, "theorem18_guarantee", [
        ("delta capped at 1", {"eps1": "1", "eps2": "0", "delta2": "1", "delta3": "1"},
         ["Boundary"])],
       [("eps1 negative", {"eps1": "-1", "eps2": "1", "delta2": "0", "delta3": "0"}),
        ("delta3 above 1", {"eps1": "1", "eps2": "1", "delta2": "0", "delta3": "2"})])
    fn(m, "poisson_mechanism_delta", [
        ("lambda 0.5, Delta 2: the CDF below 0 and the survival function at 0",
         {"eps": "0.1", "lambda": "0.5", "sensitivity": 2}, ["Boundary"]),
        ("eps 0", {"eps": "0", "lambda": "3", "sensitivity": 1}, ["Boundary"])],
       [("eps negative", {"eps": "-0.1", "lambda": "3", "sensitivity": 1}),
        ("lambda 0", {"eps": "0.1", "lambda": "0", "sensitivity": 1}),
        ("Delta 0", {"eps": "0.1", "lambda": "3", "sensitivity": 0})])
    fn(m, "negative_binomial_mechanism_delta", [
        ("r 20, p 0.5, Delta 3: tails on both sides of the mode",
         {"eps": "0.5", "r": "20", "p": "0.5", "sensitivity": 3}, []),
        ("r 1 (geometric), p 0.3", {"eps": "0.2", "r": "1", "p": "0.3", "sensitivity": 2},
         ["Boundary"])],
       [("eps negative", {"eps": "-0.5", "r": "2", "p": "0.5", "sensitivity": 1}),
        ("p 1", {"eps": "0.5", "r": "2", "p": "1", "sensitivity": 1})])
    fn(m, "minimal_poisson_lambda", [
        ("eps 3, delta 0.01: far below Theorem 11's value", {"eps": "3", "delta": "0.01",
                                                             "sensitivity": 1}, [])],
       [("eps 0", {"eps": "0", "delta": "0.01", "sensitivity": 1})])
    fn(m, "minimal_negative_binomial_r", [
        ("p 0.05: far from r = 1", {"eps": "3", "delta": "0.1", "p": "0.05",
                                     "sensitivity": 1}, []),
        ("p 0.99: r = 1 already suffices (delta 0.01 <= 0.05)", {"eps": "0.5", "delta": "0.05",
                                                                 "p": "0.99", "sensitivity": 1},
         ["Boundary"])],
       [("delta 0", {"eps": "1", "delta": "0", "p": "0.5", "sensitivity": 1}),
        ("p 0", {"eps": "1", "delta": "0.1", "p": "0", "sensitivity": 1})])
    fn(m, "geometric_tail", [("eps1 0.5, Delta 2", {"eps1": "0.5", "sensitivity": 2}, [])],
       [("eps1 0", {"eps1": "0", "sensitivity": 1}),
        ("Delta 0", {"eps1": "1", "sensitivity": 0})])
    fn(m, "correlated_mechanism_guarantee", [
        ("eps1 1, eps2 0.5, NB(3, 0.5)", {"eps1": "1", "eps2": "0.5", "r": "3", "p": "0.5",
                                          "sensitivity": 1}, [])])
    fn(m, "sampled_gaussian_rdp", [
        ("q 0: nothing released", {"q": "0", "sigma": "1", "alpha": "2", "method": "auto"},
         ["Boundary"]),
        ("q 1: the Gaussian's alpha/(2 sigma^2)", {"q": "1", "sigma": "2", "alpha": "3",
                                                   "method": "auto"}, ["Boundary"]),
        ("integer alpha by the integral", {"q": "0.1", "sigma": "1", "alpha": "2",
                                           "method": "integral"}, []),
        ("integer alpha by the sum", {"q": "0.1", "sigma": "1", "alpha": "2",
                                      "method": "sum"}, [])],
       [("sum needs an integer alpha", {"q": "0.1", "sigma": "1", "alpha": "2.5",
                                        "method": "sum"}),
        ("unknown method", {"q": "0.1", "sigma": "1", "alpha": "2.5", "method": "series"}),
        ("q above 1", {"q": "1.1", "sigma": "1", "alpha": "2", "method": "auto"}),
        ("sigma 0", {"q": "0.1", "sigma": "0", "alpha": "2", "method": "auto"})])
    fn(m, "subsampled_gaussian_epsilon", [
        ("q 0: (0, order 0)", {"q": "0", "sigma": "1", "steps": 10, "delta": "1e-6",
                               "orders": ["2"]}, ["Boundary"]),
        ("sigma 10^4: the zCDP curve wins (order 0)", {"q": "0.5", "sigma": "10000",
                                                       "steps": 1, "delta": "1e-6",
                                                       "orders": ["2", "4"]}, ["Boundary"]),
        ("orders pruned: 2, 4, 1.5, 64", {"q": "0.01", "sigma": "1", "steps": 100,
                                          "delta": "1e-5", "orders": ["2", "4", "1.5", "64"]},
         [])],
       [("steps above 10^15", {"q": "0.1", "sigma": "1", "steps": 10**15 + 1, "delta": "1e-6",
                               "orders": ["2"]}),
        ("no orders", {"q": "0.1", "sigma": "1", "steps": 1, "delta": "1e-6", "orders": []}),
        ("delta 1", {"q": "0.1", "sigma": "1", "steps": 1, "delta": "1", "orders": ["2"]})])
    fn(m, "subsampled_gaussian_rdp_curve", [
        ("q 0.1, sigma 1, 10 steps, orders 2 and 3", {"q": "0.1", "sigma": "1", "steps": 10,
                                                      "orders": ["2", "3"]}, [])],
       [("steps 0", {"q": "0.1", "sigma": "1", "steps": 0, "orders": ["2"]})])
    fn(m, "discrete_gaussian_delta", [
        ("a zero coordinate is dropped", {"eps": "1", "sigma": "2", "vector": [0, 1, -1]}, []),
        ("vector (2, 1): the sum's support has gaps", {"eps": "1", "sigma": "1",
                                                       "vector": [2, 1]}, [])],
       [("a non-integer entry", {"eps": "1", "sigma": "2", "vector": [True]}),
        ("65 non-zero entries", {"eps": "1", "sigma": "2", "vector": [1] * 65}),
        ("an entry above 10^6", {"eps": "1", "sigma": "2", "vector": [10**6 + 1]}),
        ("sigma sqrt(0)", {"eps": "1", "sigma": "sqrt(0)", "vector": [1]}),
        ("sigma 0", {"eps": "1", "sigma": "0", "vector": [1]}),
        ("too much work: sigma 10^5, 8 coordinates of 10^6", {"eps": "1", "sigma": "100000",
                                                              "vector": [10**6] * 8})])
    fn(m, "calibrate_discrete_gaussian_sigma", [],
       [("digits 9", {"eps": "1", "delta": "1e-6", "vector": [1], "digits": 9})])
    fn(m, "discrete_laplace_epsilon", [("L1 0", {"scale": "2", "l1Sensitivity": 0},
                                         ["Boundary"])],
       [("L1 true", {"scale": "2", "l1Sensitivity": True}),
        ("L1 -1", {"scale": "2", "l1Sensitivity": -1}),
        ("L1 1.5", {"scale": "2", "l1Sensitivity": 1.5})])
    fn(m, "sum_log_ratio", [
        ("n 1: 0", {"sigma2": "1", "n": 1}, ["Boundary"]),
        ("n 5", {"sigma2": "1", "n": 5}, []),
        ("n 10^6: beyond the exact terms", {"sigma2": "2", "n": 1000000}, ["Boundary"])],
       [("sigma2 0", {"sigma2": "0", "n": 3}),
        ("sigma2 0.1: too small", {"sigma2": "0.1", "n": 3}),
        ("n 0", {"sigma2": "1", "n": 0})])
    fn(m, "distributed_subsampled_epsilon", [],
       [("delta 1", {"q": "0.1", "noiseMultiplier": "1", "steps": 1, "delta": "1",
                     "sigma2": "4", "others": 10, "dimension": 1, "dropProbability": "0"}),
        ("drop probability 2", {"q": "0.1", "noiseMultiplier": "1", "steps": 1,
                                "delta": "1e-6", "sigma2": "4", "others": 10, "dimension": 1,
                                "dropProbability": "2"})])
    fn(m, "pld_delta_bounds", [],
       [("steps above 10^7", {"q": "0.1", "sigma": "1", "steps": 10**7 + 1, "eps": "1"}),
        ("tail 1e-3", {"q": "0.1", "sigma": "1", "steps": 1, "eps": "1", "tail": "1e-3"}),
        ("h 0", {"q": "0.1", "sigma": "1", "steps": 1, "eps": "1", "h": "0"}),
        ("eps negative", {"q": "0.1", "sigma": "1", "steps": 1, "eps": "-1"}),
        ("q 0", {"q": "0", "sigma": "1", "steps": 1, "eps": "1"})])
    fn(m, "pld_decimal_bound", [
        ("null (an infinite upper end)", {"value": None, "digits": 12, "up": True}, ["Boundary"]),
        ("0", {"value": "0", "digits": 12, "up": False}, ["Boundary"]),
        ("2/3 up to 12 digits", {"value": "2/3", "digits": 12, "up": True}, []),
        ("2/3 down to 12 digits", {"value": "2/3", "digits": 12, "up": False}, []),
        ("-2/3 up to 5 digits", {"value": "-2/3", "digits": 5, "up": True}, []),
        ("1/40000000 down to 3 digits", {"value": "1/40000000", "digits": 3, "up": False}, []),
    ])
    fn(m, "pld_epsilon_bounds", [],
       [("delta 1", {"q": "0.1", "sigma": "1", "steps": 1, "delta": "1"}),
        ("delta 0", {"q": "0.1", "sigma": "1", "steps": 1, "delta": "0"})])
    return g


def _budget_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    g: list[dict[str, Any]] = []
    base = {"format": "dpspec-budget-v1", "delta": "1e-6", "bound": "fmt20",
            "analyses": {"kb": {"epsAllowed": "1", "kAllowed": 3}},
            "fields": {"ngram": {"epsLocalAllowed": "4", "epsAllowed": "1", "kAllowed": 2},
                       "age": {"epsLocalAllowed": "2", "epsAllowed": "0.5", "kAllowed": 3}}}

    def q(eps0: str, eps: str, m: int, fields: list[str] | None = None, analysis: str = "kb",
          qid: str | None = None) -> dict[str, Any]:
        d: dict[str, Any] = {"analysis": analysis,
                             "fields": ["ngram"] if fields is None else fields,
                             "eps0": eps0, "eps": eps, "minCohort": m}
        if qid is not None:
            d["queryId"] = qid
        return d

    op = P + "budget_transcript"
    adv = {**base, "composition": {"mode": "advanced", "deltaSlack": "1e-6"},
           "analyses": {"kb": {"epsAllowed": "0.5", "kAllowed": 100}},
           "fields": {"ngram": {"epsLocalAllowed": "4", "epsAllowed": "0.5", "kAllowed": 100}}}
    qc = {**base, "queryClasses": {"kb": {"queries": ["q1"], "fields": ["age"]}}}
    qc_ids = {**base, "queryClasses": {"kb": {"queries": ["q1"]}}}
    g.append(_group(op, {}, [
        ("basic: budget met exactly (0.5 + 0.5 = 1), then the analysis eps limit refuses 0.01 twice",
         {"policy": base, "queries": [q("2", "0.5", 5000), q("2", "0.5", 5000),
                                      q("2", "0.01", 5000, ["age"]),
                                      q("2", "0.01", 5000)]}, ["Boundary"]),
        ("check 2: eps0 above the field's local budget, then unknown field and analysis",
         {"policy": base, "queries": [q("4.5", "0.5", 5000), q("1", "0.1", 5000, ["gps"]),
                                      q("1", "0.1", 5000, analysis="mail")]}, []),
        ("check 3 refuses a small cohort, then eps0 0 carries nothing",
         {"policy": base, "queries": [q("3", "0.5", 100), q("0", "0.1", 2, ["age"])]}, []),
        ("field eps limit (age 0.5): 0.3 then 0.3 refused", {
            "policy": base, "queries": [q("1", "0.3", 20000, ["age"]),
                                        q("1", "0.3", 20000, ["age"])]}, ["Boundary"]),
        ("advanced composition: 0.01 at a time (eps0 0) within 0.5, basic for the first 20"
         " queries, then [DR14] Thm 3.20 admits 87, the 88th is refused",
         {"policy": adv, "queries": [q("0", "0.01", 2)] * 90}, ["Boundary"]),
        ("advanced composition, few queries: basic is the smaller bound",
         {"policy": adv, "queries": [q("0.5", "0.2", 100000), q("0.5", "0.2", 100000),
                                     q("0.5", "0.2", 100000)]}, []),
        ("deletion local model, closed bound", {
            "policy": {**base, "localModel": "deletion", "bound": "closed"},
            "queries": [q("1", "0.5", 100000), q("1", "0.1", 100, ["age"])]}, []),
        ("fmt22 bound", {"policy": {**base, "bound": "fmt22"},
                         "queries": [q("2", "0.5", 5000)]}, []),
        ("query class by id and by fields", {
            "policy": qc, "queries": [q("1", "0.1", 20000, qid="q2"),
                                      q("1", "0.1", 20000, ["age"], qid="q2"),
                                      q("1", "0.1", 20000, qid="q1")]}, []),
        ("query class of ids only: a query without id, then a foreign id", {
            "policy": qc_ids, "queries": [q("1", "0.1", 20000), q("1", "0.1", 20000, qid="q9")]},
         []),
        ("the policy as JSON text (from_json)", {
            "policyText": json.dumps(base, sort_keys=True), "queries": [q("2", "0.5", 5000)]},
         []),
        ("a state with used budget reloaded", {
            "policy": {**base, "analyses": {"kb": {"epsAllowed": "1", "kAllowed": 3,
                                                   "epsUsed": "0.9", "kUsed": 1}}},
            "queries": [q("1", "0.2", 20000), q("1", "0.1", 20000)]}, ["Boundary"]),
        ("analysis reports exhausted (k 3) with budget left", {
            "policy": base, "queries": [q("0.5", "0.1", 100000, ["age"])] * 4}, ["Boundary"]),
        ("field reports exhausted (ngram k 1) with budget left; 1/3 kept as a rational", {
            "policy": {**base, "fields": {"ngram": {"epsLocalAllowed": "4", "epsAllowed": "1",
                                                    "kAllowed": 1}}},
            "queries": [q("0.5", "1/3", 100000), q("0.5", "0.1", 100000)]}, ["Boundary"]),
    ], tc, [
        ("not an object", {"policy": [], "queries": []}),
        ("policyText not JSON", {"policyText": "{delta: 1e-6}", "queries": []}),
        ("unknown format", {"policy": {**base, "format": "v0"}, "queries": []}),
        ("composition not an object", {"policy": {**base, "composition": "advanced"},
                                       "queries": []}),
        ("advanced without slack", {"policy": {**base, "composition": {"mode": "advanced"}},
                                    "queries": []}),
        ("unknown composition", {"policy": {**base, "composition": {"mode": "rdp"}},
                                 "queries": []}),
        ("unknown bound", {"policy": {**base, "bound": "exact-rr"}, "queries": []}),
        ("delta 0", {"policy": {**base, "delta": "0"}, "queries": []}),
        ("delta 1", {"policy": {**base, "delta": "1"}, "queries": []}),
        ("unknown local model", {"policy": {**base, "localModel": "swap"}, "queries": []}),
        ("no delta", {"policy": {"analyses": {}}, "queries": []}),
        ("negative epsAllowed", {"policy": {**base, "analyses": {"kb": {"epsAllowed": "-1",
                                                                        "kAllowed": 1}}},
                                 "queries": []}),
        ("query class not lists of strings", {"policy": {**base, "queryClasses": {
            "kb": {"queries": [1]}}}, "queries": []}),
        ("field without kAllowed", {"policy": {**base, "fields": {"x": {"epsLocalAllowed": "1",
                                                                        "epsAllowed": "1"}}},
                                    "queries": []}),
        ("query with no fields", {"policy": base, "queries": [q("1", "0.1", 100, [])]}),
        ("query with negative eps", {"policy": base, "queries": [q("1", "-0.1", 100)]}),
        ("query with cohort 1", {"policy": base, "queries": [q("1", "0.1", 1)]}),
    ]))
    op = P + "cohort_epsilon"
    g.append(_group(op, {}, [
        (f"{model}, {bd}", {"model": model, "eps0": "1", "n": 20000, "delta": "1e-6",
                            "bound": bd}, [])
        for model in ("replacement", "deletion") for bd in ("closed", "fmt20", "fmt22")
    ], tc, [("unknown bound", {"model": "replacement", "eps0": "1", "n": 20000,
                               "delta": "1e-6", "bound": "exact-rr"}),
            ("unknown model", {"model": "add", "eps0": "1", "n": 20000, "delta": "1e-6",
                               "bound": "fmt20"})]))
    return g


_FILES = {
    "seed_tables": ("the seeds' privacy tables recomputed", _seed_doc),
    "shuffle": ("shuffle curves: binary64 and certified", _shuffle_doc),
    "definitions": ("privacy definitions, Gaussian and Laplace, numbers", _definitions_doc),
    "budget": ("the on-device budget accountant (MJTB+22 sec. 4.3)", _budget_doc),
}


class AccountingCurvesFamily(AccountingFilesFamily):
    """Its own ops, files and schema; cases and compare as the accounting family's (per-op
    tolerances, here this module's :data:`TOLERANCE`)."""

    name = NAME
    summary = ("the seeds' privacy tables, shuffle curves (binary64 and certified), definitions,"
               " numbers and budget decision points")
    tolerance = TOLERANCE
    schema = SCHEMA
    header = HEADER
    notes = NOTES
    handler_table = HANDLERS
    arg_names = _ARG_NAMES
    file_table = _FILES


FAMILY = AccountingCurvesFamily()
