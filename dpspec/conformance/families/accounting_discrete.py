"""Vector family ``accounting-discrete``: the decision points of the exact discrete Gaussian
accountant (dpspec.spec.accounting.discrete; [CKS20] Theorem 7 in its multivariate form, the
distributed noise of sec. 6.1.2 of the DP draft, seed 003) that the ``accounting`` family leaves
open.

Per evaluation of delta(eps), a transcript of every refinement pass: the truncation target, the
table half-width K it gives, the bound tau on the mass outside the table, the table's normaliser,
both privacy-loss thresholds as exact rationals with the table weight above each, the computed
difference and the allowance added to it. The size of one evaluation (table entries times
partial-sum entries) and the limit on it, met exactly and exceeded by one. The calibration with
its bracket end, the delta at the published sigma and the number of delta evaluations (the safety
scan above sigma included). zCDP and the discrete Laplace conversions with the limits of the
difference vector. Defaults (vector (1,), no first tail, 12 digits, L1 sensitivity 1) are
exercised by leaving the argument out.

Outputs are compared like the ``accounting`` family's (``|got - want| <= max(rel |want|, abs)`` for
numeric strings, anything else exactly), with the tolerance of each op in :data:`TOLERANCE`.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import mpmath

from dpspec.conformance.families._groups import build_group, counted_calls, memoised, replaced
from dpspec.conformance.families.accounting import AccountingFilesFamily, optional, published
from dpspec.conformance.vectors import (
    Handler,
    TestNumberer,
)
from dpspec.spec.accounting import discrete
from dpspec.spec.accounting.numeric import compact, mpf, round_fixed

SCHEMA = "accounting_discrete-v1.json"
NAME = "accounting-discrete"
P = "accounting_discrete."

#: mpmath values at 40 digits rounded up to 20 significant digits, compared relatively with no
#: absolute floor (deltas and tail masses far below 1e-300 are compared too)
MP = (1e-15, 0.0)
#: integers (table sizes, work counts) and names: exact
EXACT = (0.0, 0.0)


TOLERANCE: dict[str, tuple[float, float]] = {
    P + "delta": MP,
    P + "work": EXACT,
    P + "calibration": MP,
    P + "search": MP,
    P + "bracket": MP,
    P + "zcdp": MP,
    P + "laplace": MP,
}


def _vec(a: dict[str, Any]) -> dict[str, Any]:
    return {"sensitivity": a["vector"]} if "vector" in a else {}


def _rational(q: Fraction) -> str:
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


# -- reference handlers -----------------------------------------------------------------------
def h_delta(a: dict[str, Any]) -> dict[str, Any]:
    """delta(eps) and, per refinement pass in order, what the spec's pass function computed:
    observed by wrapping discrete._delta_once, discrete._table and discrete._prob_greater for the
    duration of the call (nothing is recomputed here)."""
    passes: list[dict[str, Any]] = []
    once, table, greater = discrete._delta_once, discrete._table, discrete._prob_greater

    def w_once(*args: Any) -> Any:
        passes.append({"above": []})
        computed, allowance = once(*args)
        passes[-1]["computed"] = published(computed)
        passes[-1]["allowance"] = published(allowance)
        return computed, allowance

    def w_table(sigma: Any, tail: Any) -> Any:
        k, w, tau, z = table(sigma, tail)
        # the target to 15 digits, rounded to nearest: the spec's first target 1e-45 is a module
        # constant whose binary value depends on the precision at import
        target = compact(mpmath.nstr(tail, 15, min_fixed=1, max_fixed=0))
        passes[-1].update(target=target, K=k, tau=published(tau), z=published(z))
        return k, w, tau, z

    def w_greater(threshold: Fraction, *rest: Any) -> Any:
        p = greater(threshold, *rest)
        passes[-1]["above"].append([_rational(threshold), published(p)])
        return p

    kw = _vec(a)
    if "tail" in a:  # read by the spec at its working precision
        kw["tail"] = a["tail"]
    with replaced(discrete, _delta_once=w_once, _table=w_table, _prob_greater=w_greater):
        d = discrete.discrete_gaussian_delta(a["eps"], a["sigma"], **kw)
    return {"delta": published(d), "passes": passes}


def h_work(a: dict[str, Any]) -> dict[str, Any]:
    """work_estimate; with ``limit`` true, the spec's refusal beyond MAX_WORK is applied first."""
    kw = optional(a, tail="tail")
    w = discrete.work_estimate(a["sigma"], a["vector"], **kw)
    if a.get("limit", False):
        v = discrete._vector(a["vector"])
        with mpmath.workdps(discrete.DPS_DISCRETE + 10):
            discrete._check_work(mpf(a["sigma"]), v, mpf(a.get("tail", discrete.FIRST_TAIL)))
    return {"work": w}


def h_calibration(a: dict[str, Any]) -> dict[str, Any]:
    """The calibrated sigma, the bracket's upper end, delta at the published sigma and the number
    of delta evaluations made (counted by wrapping the module's function for the call)."""
    kw = {**_vec(a), **optional(a, digits="digits", maxWork="max_work")}
    with counted_calls(discrete, "discrete_gaussian_delta") as calls:
        cal = discrete.calibrate_discrete_gaussian_sigma(a["eps"], a["delta"], **kw)
    return {"sigma": cal.sigma, "bracketHi": published(cal.exact),
            "deltaAtSigma": published(cal.delta_at_sigma), "evaluations": calls[0]}


def _root_power(a: dict[str, Any]) -> tuple[mpmath.mpf, int]:
    """The made-up functions' ``root`` (> 0) and ``power`` (>= 1) of a bracket or search case."""
    r, power = mpf(a["root"]), int(a["power"])
    if not r > 0 or power < 1:
        raise ValueError("root must be > 0 and power >= 1")
    return r, power


def h_bracket(a: dict[str, Any]) -> dict[str, Any]:
    """The calibration's bracket search (discrete._bracket) on f(x) = (r/x)^p - 1 (convex; the
    default) or 1 - (x/r)^p (concave), both decreasing through 0 at r like log delta(sigma) - log
    delta: every probe in order and the final bracket."""
    probes: list[str] = []
    with mpmath.workdps(discrete.DPS_DISCRETE + 10):
        r, power = _root_power(a)

        shape = a.get("shape", "convex")
        if shape not in ("convex", "concave"):
            raise ValueError("shape must be convex or concave")

        def f(x: mpmath.mpf) -> mpmath.mpf:
            probes.append(published(x))
            return (r / x) ** power - 1 if shape == "convex" else 1 - (x / r) ** power

        lo, hi = discrete._bracket(f, mpf(a["lo"]), mpf(a["hi"]), mpf(a["tol"]))
    return {"probes": probes, "lo": published(lo), "hi": published(hi)}


def h_search(a: dict[str, Any]) -> dict[str, Any]:
    """The calibration's whole search (discrete._calibration_search) on a made-up delta with teeth:
    (root/x)^power, except on each closed interval ``[a, b]`` of ``teeth``, where it is 2 (or the
    tooth's third entry; the first tooth containing x decides); target 1. The published x, the
    bracket's upper end, delta there, the number of delta evaluations and of bracket rounds."""
    with mpmath.workdps(discrete.DPS_DISCRETE + 10):
        r, power = _root_power(a)
        teeth = []
        for t in a.get("teeth", []):
            if not isinstance(t, list) or len(t) not in (2, 3):
                raise ValueError("a tooth is [a, b] or [a, b, value]")
            teeth.append((mpf(t[0]), mpf(t[1]), mpf(t[2]) if len(t) == 3 else mpmath.mpf(2)))
        evaluations = 0

        def delta_at(x: mpmath.mpf | str) -> mpmath.mpf:
            nonlocal evaluations
            evaluations += 1
            x = mpf(x)  # the published x comes as its decimal string
            for lo, hi, value in teeth:
                if lo <= x <= hi:
                    return value
            return (r / x) ** power

        with counted_calls(discrete, "_bracket") as rounds:
            x, hi, at = discrete._calibration_search(delta_at, mpmath.mpf(1), mpf(a["start"]),
                                                     int(a["digits"]))
    return {"sigma": x, "bracketHi": published(hi),
            "deltaAtSigma": published(at), "evaluations": evaluations, "rounds": rounds[0]}


def h_zcdp(a: dict[str, Any]) -> dict[str, Any]:
    return {"rho": published(discrete.discrete_gaussian_zcdp(a["sigma"], **_vec(a)))}


def h_laplace(a: dict[str, Any]) -> dict[str, Any]:
    kw = optional(a, l1Sensitivity="l1_sensitivity")
    if a["direction"] == "epsilon":
        return {"eps": published(discrete.discrete_laplace_epsilon(a["scale"], **kw))}
    if a["direction"] == "scale":
        return {"scale": published(discrete.discrete_laplace_scale(a["eps"], **kw))}
    raise ValueError("direction must be epsilon or scale")


HANDLERS: dict[str, Handler] = {
    P + "delta": h_delta,
    P + "work": h_work,
    P + "calibration": h_calibration,
    P + "search": h_search,
    P + "bracket": h_bracket,
    P + "zcdp": h_zcdp,
    P + "laplace": h_laplace,
}


HANDLERS = {op: memoised(h) for op, h in HANDLERS.items()}


_ARG_NAMES: dict[str, tuple[str, ...]] = {
    P + "delta": ("eps", "sigma", "vector", "tail"),
    P + "work": ("sigma", "vector", "tail", "limit"),
    P + "calibration": ("eps", "delta", "vector", "digits", "maxWork"),
    P + "search": ("root", "power", "teeth", "start", "digits"),
    P + "bracket": ("lo", "hi", "tol", "root", "power", "shape"),
    P + "zcdp": ("sigma", "vector"),
    P + "laplace": ("direction", "scale", "eps", "l1Sensitivity"),
}


HEADER = [
    "Discrete Gaussian N_Z(0, sigma^2) (P[y] proportional to exp(-y^2/(2 sigma^2)) on the"
    " integers, [CKS20] Definition 1) added to each coordinate; neighbouring inputs differ by the"
    " integer vector `vector` (zero entries dropped, signs ignored, sorted; default (1) when"
    " absent; at most 64 non-zero entries, each at most 10^6 in absolute value). Module"
    " dpspec.spec.accounting.discrete. Cases sit on both sides of each decision; every input"
    " check has an invalid case.",
    "Encodings: numbers are decimal strings, or sqrt(R) for sigma (then sigma^2 = R exactly);"
    " sizes are JSON integers; thresholds are exact rationals \"p/q\" (or integers). mpmath values"
    " (40 significant digits) are published rounded up to 20 significant digits. Tolerance (rel,"
    " abs) per op, |got - want| <= max(rel |want|, abs) on numeric strings, anything else exact: "
    + "; ".join(f"{op.split('.', 1)[1]} ({r:g}, {ab:g})" for op, (r, ab) in sorted(TOLERANCE.items()))
    + ".",
    "delta: delta(eps) = P[S > a] - e^eps P[S > b], S = sum v_i Y_i, a = sigma^2 eps - |v|^2/2,"
    " b = sigma^2 eps + |v|^2/2 (exact rationals; the multivariate [CKS20] Theorem 7). Each pass"
    " tabulates w(y) = exp(-y^2/(2 sigma^2)) on |y| <= K, K the smallest integer >= 0 with tau ="
    " 2 B(K) <= target, B(K) = exp(-(K+1)^2/(2 sigma^2)) / (1 - exp(-(2K+3)/(2 sigma^2))); z ="
    " sum of the table. `above` = [threshold, W] for a then b, W = the table weight of the"
    " products of the coordinates' weights with sum v_i y_i > threshold (the partial sum of all"
    " coordinates but the largest convolved exactly, the largest through tail sums; unnormalised,"
    " so P' = W / z^d with d the number of non-zero entries); computed = (W_a - e^eps W_b) / z^d;"
    " allowance = d tau (1 + e^eps W_b / z^d) + (W_a + e^eps W_b) / z^d 10^-35. The first target"
    " (published to 15 significant digits, rounded to nearest) is min(1e-45, tail) (1e-45 when"
    " `tail` is absent); the result is max(computed, 0) +"
    " allowance as soon as allowance <= 1e-20 max(computed, 0); else the next target is min(target^2,"
    " 1e-25 computed) (target^2 when computed <= 0).",
    "work: table entries times partial-sum entries of one evaluation at the given target (`tail`,"
    " default 1e-45; any value > 0): with T = 2K + 1, work = T + sum over the sorted entries c_1..c_{d-1} of"
    " width_j T, width_1 = 1, width_{j+1} = width_j + 2 c_j K, plus the final width. With `limit`"
    " true an evaluation above 4000000 is refused.",
    "calibration: the smallest sigma with delta(eps) <= delta, rounded up to `digits` significant"
    " digits (default 12, allowed 10..30). Refused up front when one evaluation at twice the"
    " continuous Gaussian's sigma (its 12-digit calibration, L2 norm |v|) at target min(1e-45,"
    " 1e-25 delta) would exceed the limit (`maxWork`, a positive integer at most 4000000, the"
    " default when absent; the evaluations themselves keep the limit 4000000). Search: bracket"
    " [0.999 c, 1.001 c] around that sigma c,"
    " widened (hi doubled while it fails, lo halved while it passes and lo > 1e-3), then regula"
    " falsi (Illinois) on log delta(sigma) - log delta to relative width 10^-(digits+2) probing"
    " 1/4 of the tolerance either side of each estimate, a bisection step whenever two steps fail"
    " to halve the bracket; then delta is evaluated at hi (1 + j/32), j = 1..32, and if any fails"
    " the search restarts from the last failing point. bracketHi is the final hi, deltaAtSigma"
    " delta at the published sigma, evaluations the number of delta evaluations in all.",
    "search: that whole search (widening, up to 8 rounds of bracket and scan, rounding up and the"
    " final check; refused when 8 rounds do not settle or the published x fails) on a made-up"
    " delta that is not monotone: delta(x) = (root/x)^power, except on each closed interval"
    " [a, b] of `teeth` (none when absent), where it is 2, or v for a tooth [a, b, v] (the"
    " first tooth containing x decides; v = 1 meets the target exactly), the target 1, `start`"
    " in place of the continuous sigma. sigma = the published x, bracketHi, deltaAtSigma as for"
    " calibration, evaluations = the number of delta evaluations, rounds = the number of"
    " bracket searches.",
    "bracket: that search by itself on f(x) = (root/x)^power - 1 (shape convex, the default when"
    " absent) or 1 - (x/root)^power (shape concave) from [lo, hi] to relative width"
    " tol (stop when hi - lo <= tol hi, at most 400 steps): the estimate x = hi - f(hi)(hi - lo)/"
    "(f(hi) - f(lo)) clamped to [lo + w, hi - w], w = tol hi / 4, probes x - w then (if that one"
    " has f > 0) x + w, each strictly inside (lo, hi); f(y) > 0 moves lo (halving the kept f(hi) if"
    " lo also moved last time), else hi (halving f(lo) likewise); a step probes the midpoint alone"
    " when the width after the last step is more than half the width two steps before."
    " `probes` = every x at which f was evaluated, in order (lo and hi first).",
    "zcdp: rho = |v|^2 / (2 sigma^2) ([CKS20] Theorem 14). laplace: discrete Laplace with scale t,"
    " P[y] proportional to exp(-|y|/t): eps = S1 / t (direction epsilon) and t = S1 / eps"
    " (direction scale), S1 = l1Sensitivity (default 1; epsilon refuses S1 < 0).",
]


NOTES = {
    "Boundary": "parameters on or next to a decision point (a threshold met exactly, a limit met"
                " or exceeded by one, an empty table or sum)",
    "Default": "an optional argument left out: the spec's default applies",
    "BadParameter": "an argument outside its domain; the implementation must reject it",
}


def _group(op: str, tests: list[tuple[str, dict[str, Any], list[str]]], tc: TestNumberer,
           invalid: list[tuple[str, dict[str, Any]]] | None = None) -> dict[str, Any]:
    return build_group(tc, HANDLERS, op, tests, [(c, i, "BadParameter") for c, i in invalid or []],
                       {}, rejects=(ValueError, TypeError, ArithmeticError))


def _dg(eps: str, sigma: str, vector: list[int] | None = None, tail: str | None = None
        ) -> dict[str, Any]:
    d: dict[str, Any] = {"eps": eps, "sigma": sigma}
    if vector is not None:
        d["vector"] = vector
    if tail is not None:
        d["tail"] = tail
    return d


def _delta_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    op = P + "delta"
    return [_group(op, [
        ("eps 1, sigma 0.5, vector and tail absent (defaults (1), 1e-45)", _dg("1", "0.5"),
         ["Default"]),
        ("eps 0.1, sigma 1, v (1): e^eps P[S > b] near 0.4, so its share of the allowance shows",
         _dg("0.1", "1", [1]), []),
        ("eps 0.5, sigma 1, v (2, 3, 5): the partial sum 2 Y_1 + 3 Y_2 has holes (smallest entry 2)",
         _dg("0.5", "1", [2, 3, 5]), []),
        ("eps 0.3, sigma 0.8, v (-2, 2, 3): signs dropped, partial 2 Y_1 + 2 Y_2",
         _dg("0.3", "0.8", [-2, 2, 3]), []),
        ("eps 0.7, sigma 1.5, v (1, 0, 2, 4): the zero dropped, three coordinates",
         _dg("0.7", "1.5", [1, 0, 2, 4]), []),
        ("sigma 0.05: K = 0 (one table entry); v (2), a < -2, P[S > a] read from the whole table",
         _dg("1", "0.05", [2]), ["Boundary"]),
        ("sigma 0.05, v (3): the last coordinate's tail index is below 0 (clamped)",
         _dg("1", "0.05", [3]), ["Boundary"]),
        ("sigma 0.05, v (1): b above the table, P'[S > b] = 0 (no term)", _dg("1", "0.05", [1]),
         ["Boundary"]),
        ("eps 20, sigma 1: b above the first table, delta near 1e-90, several refinements",
         _dg("20", "1", [1]), ["Boundary"]),
        ("eps 1, sigma 2, tail 1e-60: the first target is the given tail",
         _dg("1", "2", [1], "1e-60"), []),
        ("eps 1, sigma 2, tail 1e-10: the first target stays 1e-45", _dg("1", "2", [1], "1e-10"),
         ["Boundary"]),
        ("sigma sqrt(2): sigma^2 = 2 exactly, a = 2 eps - 1/2", _dg("0.25", "sqrt(2)", [1]), []),
        ("sigma sqrt(9/4) with spaces: sigma^2 = 9/4", _dg("1", " sqrt( 9/4 ) ", [1, 1]), []),
        ("eps 0 (allowed), sigma 3, v (1, 1)", _dg("0", "3", [1, 1]), ["Boundary"]),
        ("eps 2, sigma 7, v (1, -1) (the one-hot histogram of sec. 6.1.2 of the DP draft):"
         " delta near 1e-6", _dg("2", "7", [1, -1]), []),
    ], tc, [
        ("sigma 0", _dg("1", "0", [1])),
        ("sigma -0.5 (its square is positive)", _dg("1", "-0.5", [1])),
        ("sigma sqrt(0)", _dg("1", "sqrt(0)", [1])),
        ("sigma sqrt(-1/2)", _dg("1", "sqrt(-1/2)", [1])),
        ("sigma 'sqrt 2)': no opening parenthesis", _dg("1", "sqrt 2)", [1])),
        ("sigma 'sqrt(2': no closing parenthesis", _dg("1", "sqrt(2", [1])),
        ("sigma 'root(2)': only the closing parenthesis of the sqrt(R) form",
         _dg("1", "root(2)", [1])),
        ("eps -0.1", _dg("-0.1", "1", [1])),
        ("zero vector", _dg("1", "1", [0, 0])),
        ("empty vector", _dg("1", "1", [])),
        ("vector entry 1.5", {"eps": "1", "sigma": "1", "vector": [1, 1.5]}),
        ("vector entry true", {"eps": "1", "sigma": "1", "vector": [True]}),
    ])]


def _work(sigma: str, vector: list[int], tail: str | None = None, limit: bool | None = None
          ) -> dict[str, Any]:
    d: dict[str, Any] = {"sigma": sigma, "vector": vector}
    if tail is not None:
        d["tail"] = tail
    if limit is not None:
        d["limit"] = limit
    return d


def _work_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    op = P + "work"
    return [_group(op, [
        ("sigma 2, v (1), tail absent (1e-45)", _work("2", [1]), ["Default"]),
        ("sigma 2, v (1, 1)", _work("2", [1, 1]), []),
        ("sigma 2, v (1, 2, 3): three widths", _work("2", [3, 1, 2]), []),
        ("sigma 1.5, v (2, 5, 7, 11), tail 1e-30", _work("1.5", [2, 5, 7, 11], "1e-30"), []),
        ("sigma 0.05: K = 0", _work("0.05", [1, 1]), ["Boundary"]),
        ("sigma 1, tail 1.5: K = 1", _work("1", [1], "1.5"), ["Boundary"]),
        ("sigma 1, tail 2: K = 0 (the whole neglected mass bound is below the target)",
         _work("1", [1], "2"), ["Boundary"]),
        ("sigma 2, v (1, 1, 1), limit false (absent)", _work("2", [1, 1, 1]), ["Default"]),
        ("limit: K 1999999, v (1): exactly 4000000, allowed",
         _work("132806.55", [1], limit=True), ["Boundary"]),
        ("limit: sigma 30, v (1, -1): far below the limit", _work("30", [1, -1], limit=True), []),
    ], tc, [
        ("limit: K 2000000, v (1): 4000002", _work("132806.6", [1], limit=True)),
        ("limit: K 117647, v (15, 16): 4000001, one above", _work("7910.7", [15, 16], limit=True)),
        ("sigma 0", _work("0", [1])),
        ("zero vector", _work("1", [0])),
    ]), _group(op, [
        ("sigma 1, tail 3: K = 0 (a target above 2: the first probe is K = 1)",
         _work("1", [1], "3"), ["Boundary"]),
        ("sigma 100, tail 3: K = 255", _work("100", [1], "3"), ["Boundary"]),
    ], tc, [
        ("tail 0", _work("1", [1], "0")),
        ("tail -1e-45", _work("1", [1], "-1e-45")),
    ])]


def _cal(eps: str, delta: str, vector: list[int] | None = None, digits: int | None = None,
         max_work: Any = None) -> dict[str, Any]:
    d: dict[str, Any] = {"eps": eps, "delta": delta}
    if vector is not None:
        d["vector"] = vector
    if digits is not None:
        d["digits"] = digits
    if max_work is not None:
        d["maxWork"] = max_work
    return d


def _br(lo: str, hi: str, tol: str, root: str, power: int) -> dict[str, Any]:
    return {"lo": lo, "hi": hi, "tol": tol, "root": root, "power": power}


def _search_group(tc: TestNumberer) -> dict[str, Any]:
    """The calibration's search on made-up deltas with teeth: each round's scan finds the next
    tooth (tooth k is [1.5, 1.6] 1.6^(k-1), which the scan above the previous tooth's end 1.6^(k-1)
    reaches at its points j = 16..19)."""
    def tooth(k: int) -> list[str]:  # 1.6^(k-1) (1.5, 1.6), exact with k decimals (5^k | 10^k)
        c = Fraction(8, 5) ** (k - 1)
        return [compact(round_fixed(c * x, k, up=True)) for x in (Fraction(3, 2), Fraction(8, 5))]

    def se(root: str, start: str, teeth: list[list[str]] | None = None, digits: int = 10,
           power: int = 1) -> dict[str, Any]:
        d: dict[str, Any] = {"root": root, "power": power, "start": start, "digits": digits}
        if teeth is not None:
            d["teeth"] = teeth
        return d

    return _group(P + "search", [
        ("no teeth: one round, the root 1", se("1", "1"), ["Default"]),
        ("one tooth [1.5, 1.6]: the scan above 1 finds it, the second round settles at its end",
         se("1", "1", [tooth(1)]), ["Boundary"]),
        ("seven teeth: eight rounds, the most allowed", se("1", "1", [tooth(k) for k in range(1, 8)]),
         ["Boundary"]),
        ("teeth [1.5, 1.6] and [3.1, 3.3]: twice the last failing point 1.59375 fails too, so the"
         " upper end is doubled again (6.375)", se("1", "1", [tooth(1), ["3.1", "3.3"]]),
         ["Boundary"]),
        ("start 0.1 below the root 1: the upper end is doubled until it passes",
         se("1", "0.1"), []),
        ("start 50 above the root 1: the lower end is halved until it fails", se("1", "50"), []),
        ("root 2.5, power 3, digits 30, start 2, tooth [3.8, 4.1]: the upper end doubled from"
         " 2.002 lands in the tooth (4.004), so the search settles at the tooth's end 4.1, not at"
         " 2.5", se("2.5", "2", [["3.8", "4.1"]], 30, 3), ["Boundary"]),
        ("a level tooth [1.5, 1.6] at exactly the target: its scan points pass, one round",
         se("1", "1", [["1.5", "1.6", "1"]]), ["Boundary"]),
        ("start 0.5, level tooth [0.5, 0.51]: the first upper end 0.5005 meets the target exactly"
         " and is not widened", se("1", "0.5", [["0.5", "0.51", "1"]]), ["Boundary"]),
        ("start 2, level tooth [1.99, 2]: the first lower end 1.998 meets the target exactly and is"
         " halved", se("1", "2", [["1.99", "2", "1"]]), ["Boundary"]),
        ("teeth [1.5, 1.6] and the level [3.1, 3.3]: twice the last failing point meets the target"
         " exactly and is not doubled", se("1", "1", [tooth(1), ["3.1", "3.3", "1"]]),
         ["Boundary"]),
        ("root 1.23456789012345, level tooth [1.2345678905, 1.234567891]: the published x"
         " 1.234567891 meets the target exactly",
         se("1.23456789012345", "1.2", [["1.2345678905", "1.234567891", "1"]]), ["Boundary"]),
    ], tc, [
        ("eight teeth: a ninth round would be needed", se("1", "1", [tooth(k) for k in range(1, 9)])),
        ("root 1.23456789012345, tooth [1.2345678905, 1.234567891]: the bracket's x meets the"
         " target, its rounding up to 10 digits (1.234567891) falls in the tooth",
         se("1.23456789012345", "1.2", [["1.2345678905", "1.234567891"]])),
    ])


def _calibration_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    op = P + "calibration"
    return [_group(op, [
        ("eps 3, delta 1e-3, vector and digits absent (defaults (1), 12)", _cal("3", "1e-3"),
         ["Default"]),
        ("eps 1, delta 0.191, v (1): delta is not monotone in sigma near 0.72; the scan finds"
         " a failing larger sigma", _cal("1", "0.191", [1], 10), ["Boundary"]),
        ("eps 2, delta 1e-4, v (1, -1), digits 10 (the smallest allowed)",
         _cal("2", "1e-4", [1, -1], 10), ["Boundary"]),
        ("eps 4, delta 1e-2, v (1), digits 30 (the largest allowed)",
         _cal("4", "1e-2", [1], 30), ["Boundary"]),
    ], tc, [
        ("digits 9", _cal("1", "1e-3", [1], 9)),
        ("digits 31", _cal("1", "1e-3", [1], 31)),
        ("eps 0", _cal("0", "1e-3", [1])),
        ("delta 0", _cal("1", "0", [1])),
        ("delta 1", _cal("1", "1", [1])),
        ("zero vector", _cal("1", "1e-3", [0])),
        ("eps 0.15, delta 1e-6, v (1, 1, 1): refused up front (the work at twice the continuous"
         " sigma is above the limit)", _cal("0.15", "1e-6", [1, 1, 1])),
    ]), _group(P + "bracket", [
        ("p 1, root 2 in [1, 3], tol 1e-6", _br("1", "3", "1e-6", "2", 1), []),
        ("p 8, root 1.1 in [1, 4], tol 1e-8: steep, the estimates crowd one end",
         _br("1", "4", "1e-8", "1.1", 8), []),
        ("p 3, root 3.9 in [1, 4], tol 1e-5: root near hi", _br("1", "4", "1e-5", "3.9", 3),
         ["Boundary"]),
        ("p 2, root 1.5 in [1, 2], tol 0.5: already narrow enough, no probe",
         _br("1", "2", "0.5", "1.5", 2), ["Boundary"]),
        ("p 20, root 10 in [1, 100], tol 1e-10", _br("1", "100", "1e-10", "10", 20), []),
        ("concave p 8, root 3.9 in [1, 4], tol 1e-8: estimates fall short, lo moves twice",
         {**_br("1", "4", "1e-8", "3.9", 8), "shape": "concave"}, []),
        ("concave p 3, root 1.2 in [1, 4], tol 1e-6: root near lo",
         {**_br("1", "4", "1e-6", "1.2", 3), "shape": "concave"}, ["Boundary"]),
        ("concave p 12, root 50 in [1, 64], tol 1e-9",
         {**_br("1", "64", "1e-9", "50", 12), "shape": "concave"}, []),
        ("convex p 2, root 1.0001 in [1, 2], tol 1e-9: root next to lo",
         _br("1", "2", "1e-9", "1.0001", 2), ["Boundary"]),
        ("convex p 1, root 1.9999 in [1, 2], tol 1e-9: root next to hi",
         _br("1", "2", "1e-9", "1.9999", 1), ["Boundary"]),
    ], tc, [
        ("root 0", _br("1", "2", "1e-6", "0", 1)),
        ("unknown shape", {**_br("1", "2", "1e-6", "1.5", 1), "shape": "linear"}),
    ]), _group(op, [
        ("eps 1, delta 1e-30, v (1), maxWork 710: the up-front estimate (twice the continuous"
         " sigma, target 1e-55) is exactly 710, allowed", _cal("1", "1e-30", [1], None, 710),
         ["Boundary"]),
        ("eps 1, delta 1e-4, v (1), maxWork 4000000 (the largest allowed)",
         _cal("1", "1e-4", [1], None, 4000000), ["Boundary"]),
    ], tc, [
        ("eps 1, delta 1e-30, v (1), maxWork 709: the up-front estimate 710 is one above",
         _cal("1", "1e-30", [1], None, 709)),
        ("maxWork 4000001", _cal("1", "1e-4", [1], None, 4000001)),
        ("maxWork 0", _cal("1", "1e-4", [1], None, 0)),
        ("maxWork 1.5", _cal("1", "1e-4", [1], None, 1.5)),
    ]), _search_group(tc)]


def _other_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    g = [_group(P + "zcdp", [
        ("sigma 2, vector absent (default (1))", {"sigma": "2"}, ["Default"]),
        ("sigma sqrt(2), v (1, -1): rho 1/2", {"sigma": "sqrt(2)", "vector": [1, -1]}, []),
        ("64 non-zero entries (the most allowed) and zeros",
         {"sigma": "3", "vector": [1] * 63 + [0, 0, 2]}, ["Boundary"]),
        ("entry 10^6 (the largest allowed)", {"sigma": "1000", "vector": [-1000000, 1]},
         ["Boundary"]),
        ("entry 531442 (above 9^6)", {"sigma": "1000", "vector": [531442]}, []),
        ("entry 100001 (above 10^5)", {"sigma": "100", "vector": [100001]}, []),
    ], tc, [
        ("65 non-zero entries", {"sigma": "3", "vector": [1] * 65}),
        ("entry 10^6 + 1", {"sigma": "1000", "vector": [1000001]}),
        ("entry -10^6 - 1", {"sigma": "1000", "vector": [1, -1000001]}),
        ("zero vector", {"sigma": "1", "vector": [0]}),
        ("sigma 0", {"sigma": "0", "vector": [1]}),
        ("entry false", {"sigma": "1", "vector": [False, 1]}),
    ])]
    g.append(_group(P + "laplace", [
        ("epsilon: scale 0.5, L1 absent (default 1)", {"direction": "epsilon", "scale": "0.5"},
         ["Default"]),
        ("epsilon: scale 3, L1 2", {"direction": "epsilon", "scale": "3", "l1Sensitivity": 2}, []),
        ("epsilon: L1 0 (allowed), eps 0", {"direction": "epsilon", "scale": "3",
                                            "l1Sensitivity": 0}, ["Boundary"]),
        ("scale: eps 0.25, L1 absent (default 1)", {"direction": "scale", "eps": "0.25"},
         ["Default"]),
        ("scale: eps 3, L1 7", {"direction": "scale", "eps": "3", "l1Sensitivity": 7}, []),
    ], tc, [
        ("epsilon: scale 0", {"direction": "epsilon", "scale": "0"}),
        ("epsilon: L1 -1", {"direction": "epsilon", "scale": "1", "l1Sensitivity": -1}),
        ("epsilon: L1 true", {"direction": "epsilon", "scale": "1", "l1Sensitivity": True}),
        ("epsilon: L1 1.5", {"direction": "epsilon", "scale": "1", "l1Sensitivity": 1.5}),
        ("scale: eps 0", {"direction": "scale", "eps": "0"}),
        ("unknown direction", {"direction": "delta", "eps": "1"}),
    ]))
    return g


_FILES = {
    "delta": ("exact delta of the discrete Gaussian, per-pass transcript", _delta_doc),
    "work": ("the size of one exact evaluation and its limit", _work_doc),
    "calibration": ("the discrete Gaussian calibration (bracket and evaluation count)",
                    _calibration_doc),
    "conversions": ("zCDP of the discrete Gaussian, discrete Laplace", _other_doc),
}


class AccountingDiscreteFamily(AccountingFilesFamily):
    """Its own ops, files and schema; cases and compare as the accounting family's (per-op
    tolerances, here this module's :data:`TOLERANCE`)."""

    name = NAME
    summary = "decision points of the exact discrete Gaussian accountant ([CKS20] Theorem 7)"
    tolerance = TOLERANCE
    schema = SCHEMA
    header = HEADER
    notes = NOTES
    handler_table = HANDLERS
    arg_names = _ARG_NAMES
    file_table = _FILES


FAMILY = AccountingDiscreteFamily()
