"""Vector family ``accounting``: privacy accounting and calibration (dpspec.spec.accounting).

Inputs -> outputs with a stated tolerance. Numbers are decimal strings; an implementation's
numeric outputs are compared with the expected ones within the op's tolerance (relative ``rel``,
absolute ``abs``: ``|got - want| <= max(rel * |want|, abs)``), booleans, integers and strings
exactly. Calibrated parameters (``sigma``, ``lambda``, ``r``) must in addition be *at least* the
expected value times ``1 - rel`` -- rounding them down is a failure even within tolerance.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import mpmath

from dpspec.conformance.families._groups import build_group, memoised, with_tolerances
from dpspec.conformance.jsonargs import any_value_ops
from dpspec.conformance.vectors import (
    Case,
    Family,
    Handler,
    TestNumberer,
    VectorFile,
    envelope,
    family_schema,
)
from dpspec.spec.accounting import (
    composition,
    definitions,
    discrete,
    gaussian,
    ghazi,
    shuffle,
    shuffle_mp,
    subsampling,
)
from dpspec.spec.accounting.budget import Accountant, Query
from dpspec.spec.accounting.numeric import (
    DPS,
    compact,
    mpf,
    positive_int,
    round_up,
    to_fraction,
)

SCHEMA = "accounting-v1.json"

#: op -> (rel, abs) tolerance
TOLERANCE: dict[str, tuple[float, float]] = {
    "accounting.gaussian_delta": (1e-9, 1e-300),
    "accounting.gaussian_sigma": (1e-9, 0.0),
    "accounting.discrete_gaussian_delta": (1e-9, 1e-300),
    "accounting.discrete_gaussian_sigma": (1e-9, 0.0),
    "accounting.rdp_to_dp": (1e-12, 1e-15),
    "accounting.zcdp_to_dp": (1e-9, 1e-15),
    "accounting.poisson_amplification": (1e-12, 1e-300),
    "accounting.sampled_gaussian_rdp": (1e-8, 1e-15),
    "accounting.subsampled_gaussian_epsilon": (1e-7, 1e-12),
    "accounting.shuffle_closed_form": (1e-9, 0.0),
    "accounting.shuffle_clone": (1e-6, 1e-9),
    "accounting.rr_sum_delta": (1e-8, 1e-15),
    "accounting.composition": (1e-12, 1e-300),
    "accounting.donation_time": (1e-12, 1e-300),
    "accounting.ghazi_theorems": (1e-12, 1e-300),
    "accounting.ghazi_mechanism_delta": (1e-9, 1e-300),
    "accounting.ghazi_minimal_parameter": (1e-9, 0.0),
    "accounting.budget_transcript": (0.0, 0.0),
    "accounting.without_replacement_amplification": (1e-12, 1e-300),
    "accounting.pure_conversions": (1e-12, 1e-300),
    "accounting.discrete_laplace": (1e-12, 0.0),
    "accounting.ghazi_theorem18": (1e-12, 1e-300),
    "accounting.rappor_histogram": (1e-6, 1e-14),
    "accounting.rr_sum_worst_delta": (1e-8, 1e-15),
}
#: outputs that are calibrated noise parameters (must never be below the expected value)
LOWER_BOUNDED = ("sigma", "lambda", "r")


def published(x: Any, digits: int = 20) -> Any:
    """A spec result as the accounting families publish it: an mpmath value as a compact decimal
    string rounded *up* (toward +infinity) to ``digits`` significant digits, a value that is not
    finite by its name ("inf", "-inf", "nan"); strings, integers, booleans and None unchanged.

    Binary64 values are refused: nothing published may depend on numpy/scipy's last bits (those
    go through ``binary64_text`` with a tolerance that covers them).
    """
    if isinstance(x, mpmath.mpf):
        if mpmath.isnan(x):
            return "nan"
        if mpmath.isinf(x):
            return "inf" if x > 0 else "-inf"
        return compact(round_up(x, digits))
    if isinstance(x, float):
        raise TypeError("a binary64 value cannot be published in a vector")
    return x


def optional(a: dict[str, Any], *names: str, **renamed: str) -> dict[str, Any]:
    """The optional keyword arguments present in the case's inputs ``a``, for a spec call: each
    of ``names`` under its own name, each ``renamed`` input (input name=keyword) under its
    keyword. An input left out of the case takes the spec's default, which is what a vector
    without it tests."""
    kw = {n: a[n] for n in names if n in a}
    kw.update({k: a[n] for n, k in renamed.items() if n in a})
    return kw


def decimal_list(a: dict[str, Any], key: str) -> list[str]:
    """The case's input ``key`` as a list of decimal or rational strings (a distribution, a list
    of orders), handed to the spec as written; anything else is a malformed case."""
    v = a[key]
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise ValueError(f"{key} must be a list of decimal or rational strings")
    return v


def _s(x: Any, digits: int = 20) -> str:
    """An mpmath value as a decimal string rounded *up* (toward +infinity) to ``digits``
    significant digits; a string (already rounded up by the spec) or an integer unchanged.

    Binary64 values are refused: nothing published may depend on numpy/scipy's last bits.
    """
    if isinstance(x, mpmath.mpf):
        return _plain(round_up(x, digits))
    if isinstance(x, str):
        return _plain(x) if x not in ("inf", "0") else x
    if isinstance(x, float):
        raise TypeError("a binary64 value cannot be published in a vector")
    return str(x)


def _plain(text: str) -> str:
    return compact(text)


def _vec(args: dict[str, Any]) -> tuple[int, ...]:
    v = args["vector"]
    if not isinstance(v, list) or not all(isinstance(x, int) and not isinstance(x, bool)
                                          for x in v):
        raise ValueError("vector must be a list of integers")
    return tuple(v)


# -- reference handlers -----------------------------------------------------------------------
def h_gaussian_delta(a: dict[str, Any]) -> dict[str, Any]:
    return {"delta": _s(gaussian.gaussian_delta(a["eps"], a["sigma"], a["sensitivity"]))}


def h_gaussian_sigma(a: dict[str, Any]) -> dict[str, Any]:
    cal = gaussian.calibrate_gaussian_sigma(a["eps"], a["delta"], a["sensitivity"], digits=15)
    return {"sigma": cal.sigma}


def h_dg_delta(a: dict[str, Any]) -> dict[str, Any]:
    # an upper bound within 1e-20 relative of the exact value: 15 digits rounded up are sure
    return {"delta": _s(discrete.discrete_gaussian_delta(a["eps"], a["sigma"], _vec(a)), 15)}


def h_dg_sigma(a: dict[str, Any]) -> dict[str, Any]:
    cal = discrete.calibrate_discrete_gaussian_sigma(a["eps"], a["delta"], _vec(a), digits=12)
    return {"sigma": cal.sigma}


def h_rdp_to_dp(a: dict[str, Any]) -> dict[str, Any]:
    return {"eps": _s(definitions.rdp_to_dp_epsilon(a["rdp"], a["alpha"], a["delta"]))}


def h_zcdp_to_dp(a: dict[str, Any]) -> dict[str, Any]:
    return {"eps": _s(definitions.zcdp_to_dp_epsilon(a["rho"], a["delta"]))}


def h_poisson_amp(a: dict[str, Any]) -> dict[str, Any]:
    e, d = subsampling.poisson_amplification(a["eps"], a["delta"], a["q"])
    return {"eps": _s(e), "delta": _s(d)}


def h_sampled_rdp(a: dict[str, Any]) -> dict[str, Any]:
    # fractional orders come from a 20-digit quadrature: publish 12 digits, rounded up
    return {"rdp": _s(subsampling.sampled_gaussian_rdp(a["q"], a["sigma"], a["alpha"]), 12)}


def h_subsampled_eps(a: dict[str, Any]) -> dict[str, Any]:
    eps, order = subsampling.subsampled_gaussian_epsilon(a["q"], a["sigma"], a["steps"],
                                                         a["delta"], a["orders"])
    return {"eps": _s(eps, 12), "order": str(mpmath.nstr(order, 20))}


def h_closed(a: dict[str, Any]) -> dict[str, Any]:
    ok, _ = shuffle.closed_form_condition(a["eps0"], a["n"], a["delta"])
    return {"valid": ok,
            "eps": _s(shuffle_mp.closed_form_value(a["eps0"], a["n"], a["delta"])) if ok else None}


def h_clone(a: dict[str, Any]) -> dict[str, Any]:
    # binary64 finds the bracket; the published value is certified in mpmath (shuffle_mp)
    try:
        estimate: float | None = shuffle.clone_epsilon(a["eps0"], a["n"], a["delta"],
                                                       a["variant"]).eps
    except ValueError:
        if a["variant"] not in ("fmt20", "fmt22"):
            raise
        estimate = None  # outside binary64's reach: mpmath alone
    return {"eps": _s(shuffle_mp.clone_epsilon(a["eps0"], a["n"], a["delta"], a["variant"],
                                              estimate=estimate))}


def h_rr(a: dict[str, Any]) -> dict[str, Any]:
    return {"delta": _s(shuffle_mp.rr_sum_delta(a["eps"], a["eps0"], a["n"], a["neighbours"],
                                                a["ones"]), shuffle_mp.DIGITS)}


def h_composition(a: dict[str, Any]) -> dict[str, Any]:
    k = positive_int(a["k"], "k")
    eps, delta, slack, total = a["eps"], a["delta"], a["deltaSlack"], a["epsTotal"]
    b = composition.basic_composition([(eps, delta)] * k)
    adv = composition.advanced_composition(eps, delta, k, slack)
    kov = composition.kov_composition(eps, delta, k, slack)
    opt = composition.optimal_composition_delta(eps, delta, k, total)
    return {"basic": [_s(b[0]), _s(b[1])], "advanced": [_s(adv[0]), _s(adv[1])],
            "kov": [_s(kov[0]), _s(kov[1])], "optimalDelta": _s(opt)}


def h_donation(a: dict[str, Any]) -> dict[str, Any]:
    r = composition.randomized_donation_time(a["eps"], a["delta"], a["m"])
    return {"roundEps": _s(r.round_eps), "roundDelta": _s(r.round_delta),
            "epsPaper": _s(r.eps_paper), "deltaPaper": _s(r.delta_paper),
            "epsKov": _s(r.eps_kov), "deltaKov": _s(r.delta_kov)}


def h_ghazi_theorems(a: dict[str, Any]) -> dict[str, Any]:
    lam = ghazi.theorem11_lambda(a["eps"], a["delta"], a["sensitivity"])
    p, r = ghazi.theorem13_parameters(a["eps"], a["delta"], a["sensitivity"])
    return {"lambda": _s(lam), "p": _s(p), "r": _s(r)}


def h_ghazi_delta(a: dict[str, Any]) -> dict[str, Any]:
    if a["mechanism"] == "poisson":
        d = ghazi.poisson_mechanism_delta(a["eps"], a["lambda"], a["sensitivity"])
    elif a["mechanism"] == "negative-binomial":
        d = ghazi.negative_binomial_mechanism_delta(a["eps"], a["r"], a["p"], a["sensitivity"])
    else:
        raise ValueError("mechanism must be poisson or negative-binomial")
    return {"delta": _s(d)}


def h_ghazi_min(a: dict[str, Any]) -> dict[str, Any]:
    if a["mechanism"] == "poisson":
        m = ghazi.minimal_poisson_lambda(a["eps"], a["delta"], a["sensitivity"], digits=12)
        return {"lambda": m.value}
    if a["mechanism"] == "negative-binomial":
        m = ghazi.minimal_negative_binomial_r(a["eps"], a["delta"], a["p"], a["sensitivity"],
                                              digits=12)
        return {"r": m.value}
    raise ValueError("mechanism must be poisson or negative-binomial")


def h_budget(a: dict[str, Any]) -> dict[str, Any]:
    acc = Accountant.from_dict(a["policy"])
    decisions = []
    for q in a["queries"]:
        d = acc.commit(Query.make(q["analysis"], q["fields"], q["eps0"], q["eps"], q["minCohort"]))
        decisions.append({"allowed": d.allowed, "failedCheck": d.check})
    return {"decisions": decisions, "state": json.loads(acc.to_json())}


def h_wor(a: dict[str, Any]) -> dict[str, Any]:
    e, d = subsampling.without_replacement_amplification(a["eps"], a["delta"], a["m"], a["n"])
    return {"eps": _s(e), "delta": _s(d)}


def h_pure(a: dict[str, Any]) -> dict[str, Any]:
    return {"zcdp": _s(definitions.pure_to_zcdp(a["eps"])),
            "rdp": _s(definitions.pure_to_rdp(a["eps"], a["alpha"]))}


def h_dlap(a: dict[str, Any]) -> dict[str, Any]:
    return {"eps": _s(discrete.discrete_laplace_epsilon(a["scale"], a["l1Sensitivity"]))}


def h_thm18(a: dict[str, Any]) -> dict[str, Any]:
    e, d = ghazi.theorem18_guarantee(a["eps1"], a["eps2"], a["delta2"], a["delta3"])
    return {"eps": _s(e), "delta": _s(d)}


def h_rappor(a: dict[str, Any]) -> dict[str, Any]:
    d = shuffle_mp.rappor_histogram_delta(a["eps"], a["eps0"], a["n"])
    eps, _ = shuffle_mp.rappor_histogram_rdp_epsilon(a["eps0"], a["n"], a["delta"])
    return {"deltaExact": _s(d, shuffle_mp.DIGITS), "epsRenyiRoute": _s(eps)}


def h_rr_worst(a: dict[str, Any]) -> dict[str, Any]:
    d, ones = shuffle_mp.rr_sum_worst_delta(a["eps"], a["eps0"], a["n"], a["neighbours"])
    return {"delta": _s(d), "ones": ones}


HANDLERS: dict[str, Handler] = {
    "accounting.without_replacement_amplification": h_wor,
    "accounting.pure_conversions": h_pure,
    "accounting.discrete_laplace": h_dlap,
    "accounting.ghazi_theorem18": h_thm18,
    "accounting.rappor_histogram": h_rappor,
    "accounting.rr_sum_worst_delta": h_rr_worst,
    "accounting.gaussian_delta": h_gaussian_delta,
    "accounting.gaussian_sigma": h_gaussian_sigma,
    "accounting.discrete_gaussian_delta": h_dg_delta,
    "accounting.discrete_gaussian_sigma": h_dg_sigma,
    "accounting.rdp_to_dp": h_rdp_to_dp,
    "accounting.zcdp_to_dp": h_zcdp_to_dp,
    "accounting.poisson_amplification": h_poisson_amp,
    "accounting.sampled_gaussian_rdp": h_sampled_rdp,
    "accounting.subsampled_gaussian_epsilon": h_subsampled_eps,
    "accounting.shuffle_closed_form": h_closed,
    "accounting.shuffle_clone": h_clone,
    "accounting.rr_sum_delta": h_rr,
    "accounting.composition": h_composition,
    "accounting.donation_time": h_donation,
    "accounting.ghazi_theorems": h_ghazi_theorems,
    "accounting.ghazi_mechanism_delta": h_ghazi_delta,
    "accounting.ghazi_minimal_parameter": h_ghazi_min,
    "accounting.budget_transcript": h_budget,
}


HANDLERS = {op: memoised(handler) for op, handler in HANDLERS.items()}

HEADER = [
    "Privacy accounting and calibration (module dpspec.spec.accounting), inputs -> outputs.",
    "Precision: every value is computed with exact rationals or mpmath at a stated working"
    " precision (40 significant digits; 50 for the shuffle curves of dpspec.spec.accounting."
    "shuffle_mp; 20 for the quadratures of fractional-order sampled_gaussian_rdp) and published"
    " rounded up (toward +infinity: epsilons, deltas, RDP values and noise parameters are never"
    " below the computed bound) to 20 significant digits, except: 15 for discrete_gaussian_delta"
    " (an upper bound within 1e-20 relative, tails bounded rigorously beyond the tables), 12 for"
    " sampled_gaussian_rdp and subsampled_gaussian_epsilon, 10 for the shuffle curves"
    " (shuffle_closed_form, shuffle_clone, rr_sum_delta, rr_sum_worst_delta, rappor_histogram),"
    " whose deltas add a geometric bound on the mass left out of the tables and whose epsilons are"
    " the smallest 10-digit decimals meeting the target. No binary64 result is published, so the"
    " file does not depend on the numpy/scipy version.",
    "Numbers are decimal strings, possibly with an exponent (1e-9), or sqrt(R) for an L2"
    " sensitivity; integers that are sizes (n, steps, k, m) are JSON numbers. Outputs are compared within"
    " the op's tolerance |got - want| <= max(rel |want|, abs); calibrated parameters (sigma,"
    " lambda, r) must also be >= want (1 - rel): never round a noise parameter down.",
    "Tolerances (rel, abs) per op: " + "; ".join(f"{op.split('.', 1)[1]} ({r:g}, {a:g})"
                                                 for op, (r, a) in sorted(TOLERANCE.items())) + ".",
    "gaussian_delta: [BW18] Thm 8, delta = Phi(S/(2 sigma) - eps sigma/S) - e^eps"
    " Phi(-S/(2 sigma) - eps sigma/S). gaussian_sigma: the smallest sigma with delta <= target,"
    " rounded up to 15 significant digits.",
    "discrete_gaussian_delta: N_Z(0, sigma^2) noise per coordinate, neighbours differ by the integer"
    " vector `vector`; delta = P[S > sigma^2 eps - |v|^2/2] - e^eps P[S > sigma^2 eps + |v|^2/2],"
    " S = sum v_i Y_i, computed exactly. discrete_gaussian_sigma: smallest sigma (12 digits, up).",
    "rdp_to_dp: eps = rdp + (log(1/delta) + (alpha-1) log(1-1/alpha) - log(alpha))/(alpha-1)"
    " (SA2 Theorem 1), clamped at 0. zcdp_to_dp: min over alpha of that conversion of"
    " (alpha, alpha rho) and rho + 2 sqrt(rho log(1/delta)).",
    "poisson_amplification: (log(1 + q(e^eps - 1)), q delta). sampled_gaussian_rdp: RDP of the"
    " Poisson-subsampled Gaussian (sensitivity 1, noise multiplier sigma), the exact [MTZ19] value,"
    " max of both directions for fractional alpha. subsampled_gaussian_epsilon: steps x RDP over"
    " `orders`, converted by SA2 Theorem 1, minimised; `order` is the minimiser.",
    "shuffle_closed_form: MJTB+22 Thm 3.1; valid iff eps0 <= log(n/(8 log(2/delta)) - 1);"
    " eps is null when not valid. shuffle_clone: the smallest eps with delta(eps) <= delta for the"
    " clone pair, C ~ Bin(n-1, e^-eps0) (fmt20) or Bin(n-1, 2/(e^eps0+1)) (fmt22), A ~ Bin(C, 1/2),"
    " P = alpha A + (1-alpha)(A+1), Q = (1-alpha) A + alpha (A+1), alpha = e^eps0/(e^eps0+1).",
    "rr_sum_delta: exact delta(eps) (max of both directions) of the sum of n binary randomized"
    " responses (flip probability 1/(e^eps0+1)), `ones` of the other n-1 users holding a 1;"
    " replacement: target bit 1 vs 0; deletion: target present (bit 0 or 1, the worse) vs absent.",
    "composition: k-fold (eps, delta): basic; advanced [DRV10] (eps sqrt(2k ln(1/slack)) +"
    " k eps (e^eps-1), k delta + slack); kov [KOV15] Thm 3.5 (min of three bounds,"
    " 1-(1-delta)^k(1-slack)); optimalDelta: [KOV15] Thm 3.3 exact delta at epsTotal.",
    "donation_time: SA2 App. A with rate 1/m; epsPaper = e_r sqrt(2 m log(1/delta)) + m e_r^2/2,"
    " deltaPaper = (m+1) delta; epsKov/deltaKov: [KOV15] Thm 3.5 over m rounds, slack delta.",
    "ghazi_theorems: [GKMP20] Thm 11 lambda and Thm 13 (p, r). ghazi_mechanism_delta: exact"
    " delta(eps) of Poi(lambda) or NB(r, p) noise for Delta-summation (shifts 1..sensitivity, both"
    " directions), NB(k; r, p) = C(k+r-1, k)(1-p)^r p^k. ghazi_minimal_parameter: smallest lambda"
    " (or r at the given p) reaching delta, 12 significant digits rounded up.",
    "without_replacement_amplification: m of n records, substitution neighbours ([BBG18] Thm 9),"
    " (log(1 + (m/n)(e^eps - 1)), (m/n) delta). pure_conversions: eps-DP -> (eps^2/2)-zCDP and"
    " (alpha, min(alpha eps^2/2, eps))-RDP. discrete_laplace: pure eps = l1Sensitivity / scale.",
    "ghazi_theorem18: (eps1 + eps2, e^eps1 delta2 + 2 e^(2 eps1) delta3) ([GKMP20] Thm 18).",
    "rappor_histogram: symmetric RAPPOR on one-hot data, replacement (two coordinates change), the"
    " other users' bits 0 in both: deltaExact = exact delta(eps) of the product pair; epsRenyiRoute"
    " = min over alpha of SA2 Thm 1 applied to 2 max(D_alpha(P||Q), D_alpha(Q||P)) (MJTB+22 Thm"
    " C.3, the DP draft's Table 1 method), alpha refined by golden section from the default orders.",
    "rr_sum_worst_delta: max over ones = 0..n-1 of rr_sum_delta, and the maximising ones.",
    "budget_transcript: the accountant of MJTB+22 sec. 4.3 (checks 1-3; check 3 uses the policy's"
    " bound at its delta), queries committed in order; failedCheck 0 means allowed.",
    "Invalid: parameters outside their domains (eps <= 0 where positive, delta outside (0, 1),"
    " q outside [0, 1], alpha <= 1, a zero difference vector).",
]

NOTES = {
    "Seed": "the parameters of a number printed in a seed (DP draft, SA2 paper, MJTB+22)",
    "SeedDoesNotHold": "a seed's printed value that the exact computation does not support",
    "OutsideValidity": "a closed form outside its stated validity region",
    "BadParameter": "an argument outside its domain; the implementation must reject it",
    "CrossCheck": "also checked against Google's dp-accounting in the test suite",
    "Boundary": "a case at the edge of the computation (exact thresholds, tiny deltas, extreme"
                " parameters) where an earlier version was wrong",
}

_NUM: dict[str, Any] = {"type": "string"}
_INT: dict[str, Any] = {"type": "integer"}


class AccountingFamily(Family):
    name = "accounting"
    summary = "privacy accounting and calibration (Gaussian, discrete Gaussian, RDP, shuffling, ...)"
    #: op -> (relative, absolute) tolerance of its numeric outputs (see :func:`_compare`)
    tolerance: dict[str, tuple[float, float]] = TOLERANCE

    def handlers(self) -> dict[str, Handler]:
        return dict(HANDLERS)

    def schemas(self) -> dict[str, dict[str, Any]]:
        ops = any_value_ops({op: _ARG_NAMES[op] for op in HANDLERS})
        return {SCHEMA: family_schema(SCHEMA, "dpspec accounting vectors, version 1", ops)}

    def cases(self, path: str, doc: Any) -> list[Case]:
        return with_tolerances(super().cases(path, doc), self.tolerance)

    #: whether an op with tolerance (0, 0) must give the expected outputs as the same JSON values
    #: (the same texts: "1.50" is not "1.5") rather than the same numbers
    exact_ops_as_json = False

    def compare(self, case: Case, provided: dict[str, Any]) -> str | None:
        assert case.expected is not None
        rel, ab = self.tolerance.get(case.op, (0.0, 0.0))
        if self.exact_ops_as_json and rel == 0 and ab == 0:
            return None if provided == case.expected else (
                f"expected {case.expected!r}, got {provided!r}")
        return _compare(case.expected, provided, rel, ab, "")

    def files(self) -> list[VectorFile]:
        return [VectorFile("accounting/accounting.json", _document(), SCHEMA)]


class AccountingFilesFamily(AccountingFamily):
    """An accounting family with its own ops (``handler_table``, ``arg_names``), schema and files
    (``file_table``: stem -> (title, builder of the groups), each with the same ``header`` and
    ``notes``); cases and compare as the accounting family's, at its own per-op ``tolerance``."""

    schema: str
    header: list[str]
    notes: dict[str, str]
    handler_table: dict[str, Handler]
    arg_names: dict[str, tuple[str, ...]]
    file_table: dict[str, tuple[str, Callable[[], list[dict[str, Any]]]]]

    def handlers(self) -> dict[str, Handler]:
        return dict(self.handler_table)

    def schemas(self) -> dict[str, dict[str, Any]]:
        title = f"dpspec {self.name} vectors, version 1"
        return {self.schema: family_schema(self.schema, title, any_value_ops(self.arg_names))}

    def files(self) -> list[VectorFile]:
        return [VectorFile(f"{self.name}/{stem}.json",
                           envelope(algorithm=f"privacy accounting: {title}", family=self.name,
                                    schema=self.schema, header=self.header, notes=self.notes,
                                    groups=build()), self.schema)
                for stem, (title, build) in self.file_table.items()]


def _compare(want: Any, got: Any, rel: float, ab: float, where: str) -> str | None:
    if isinstance(want, dict):
        if not isinstance(got, dict):
            return f"{where or 'outputs'}: expected an object"
        for k in sorted(want):
            if k not in got:
                return f"missing output {where + k!r}"
            why = _compare(want[k], got[k], rel, ab, f"{where}{k}.")
            if why:
                return why
            if k in LOWER_BOUNDED and isinstance(want[k], str):
                with mpmath.workdps(DPS):
                    if mpf(got[k]) < mpf(want[k]) * (1 - mpmath.mpf(rel)):
                        return f"{where}{k}: {got[k]} is below the minimal {want[k]}"
        extra = sorted(set(got) - set(want))
        return f"unexpected outputs {extra}" if extra else None
    if isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            return f"{where.rstrip('.')}: expected a list of {len(want)}"
        for i, (w, g) in enumerate(zip(want, got, strict=True)):
            why = _compare(w, g, rel, ab, f"{where}{i}.")
            if why:
                return why
        return None
    if isinstance(want, str) and not isinstance(want, bool):
        try:
            if rel == 0 and ab == 0:
                # exact: as rationals, every digit (at DPS, two texts differing past the 40th
                # digit would be equal)
                w_exact = to_fraction(want)
                if not isinstance(got, str | int | float) or isinstance(got, bool):
                    return f"{where.rstrip('.')}: expected a number, got {got!r}"
                if to_fraction(got if isinstance(got, str) else str(got)) == w_exact:
                    return None
                return f"{where.rstrip('.')}: expected exactly {want}, got {got}"
            with mpmath.workdps(DPS):
                w = mpf(want)
                if not isinstance(got, str | int | float) or isinstance(got, bool):
                    return f"{where.rstrip('.')}: expected a number, got {got!r}"
                g = mpf(got if isinstance(got, str) else str(got))
                if abs(g - w) <= max(mpmath.mpf(rel) * abs(w), mpmath.mpf(ab)):
                    return None
                return f"{where.rstrip('.')}: expected {want} (rel {rel:g}), got {got}"
        except (ValueError, TypeError):
            return None if got == want else f"{where.rstrip('.')}: expected {want!r}, got {got!r}"
    if got != want or type(got) is not type(want):
        return f"{where.rstrip('.')}: expected {want!r}, got {got!r}"
    return None


_ARG_NAMES: dict[str, tuple[str, ...]] = {
    "accounting.gaussian_delta": ("eps", "sigma", "sensitivity"),
    "accounting.gaussian_sigma": ("eps", "delta", "sensitivity"),
    "accounting.discrete_gaussian_delta": ("eps", "sigma", "vector"),
    "accounting.discrete_gaussian_sigma": ("eps", "delta", "vector"),
    "accounting.rdp_to_dp": ("rdp", "alpha", "delta"),
    "accounting.zcdp_to_dp": ("rho", "delta"),
    "accounting.poisson_amplification": ("eps", "delta", "q"),
    "accounting.sampled_gaussian_rdp": ("q", "sigma", "alpha"),
    "accounting.subsampled_gaussian_epsilon": ("q", "sigma", "steps", "delta", "orders"),
    "accounting.shuffle_closed_form": ("eps0", "n", "delta"),
    "accounting.shuffle_clone": ("eps0", "n", "delta", "variant"),
    "accounting.rr_sum_delta": ("eps", "eps0", "n", "neighbours", "ones"),
    "accounting.composition": ("eps", "delta", "k", "deltaSlack", "epsTotal"),
    "accounting.donation_time": ("eps", "delta", "m"),
    "accounting.ghazi_theorems": ("eps", "delta", "sensitivity"),
    "accounting.ghazi_mechanism_delta": ("mechanism", "eps", "lambda", "r", "p", "sensitivity"),
    "accounting.ghazi_minimal_parameter": ("mechanism", "eps", "delta", "p", "sensitivity"),
    "accounting.budget_transcript": ("policy", "queries"),
    "accounting.without_replacement_amplification": ("eps", "delta", "m", "n"),
    "accounting.pure_conversions": ("eps", "alpha"),
    "accounting.discrete_laplace": ("scale", "l1Sensitivity"),
    "accounting.ghazi_theorem18": ("eps1", "eps2", "delta2", "delta3"),
    "accounting.rappor_histogram": ("eps", "eps0", "n", "delta"),
    "accounting.rr_sum_worst_delta": ("eps", "eps0", "n", "neighbours"),
}


def _group(op: str, params: dict[str, Any], tests: list[tuple[str, dict[str, Any], list[str]]],
           tc: TestNumberer, invalid: list[tuple[str, dict[str, Any]]] | None = None
           ) -> dict[str, Any]:
    """The group of ``op``: valid ``(comment, inputs, flags)`` tests, then the ``invalid``
    ``(comment, inputs)`` ones, all flagged BadParameter (TypeError and ArithmeticError count as a
    refusal too)."""
    return build_group(tc, HANDLERS, op, tests, [(c, i, "BadParameter") for c, i in invalid or []],
                       params, rejects=(ValueError, TypeError, ArithmeticError))


def _document() -> dict[str, Any]:
    tc = TestNumberer()
    g: list[dict[str, Any]] = []
    g.append(_group("accounting.gaussian_delta", {}, [
        ("SA2 Example 3: sigma 5.1 at eps 1 (delta exceeds 1e-8)",
         {"eps": "1", "sigma": "5.1", "sensitivity": "1"}, ["Seed", "SeedDoesNotHold", "CrossCheck"]),
        ("DP draft Table 2 row 1 at its printed sigma",
         {"eps": "0.317", "sigma": "23.3903", "sensitivity": "sqrt(2)"}, ["Seed", "SeedDoesNotHold"]),
        ("eps 0", {"eps": "0", "sigma": "2", "sensitivity": "1"}, []),
        ("small sigma", {"eps": "0.5", "sigma": "0.3", "sensitivity": "1"}, []),
        ("large eps", {"eps": "20", "sigma": "0.5", "sensitivity": "3"}, []),
    ], tc, [("sigma 0", {"eps": "1", "sigma": "0", "sensitivity": "1"}),
            ("negative eps", {"eps": "-1", "sigma": "1", "sensitivity": "1"})]))
    g.append(_group("accounting.gaussian_sigma", {}, [
        (f"DP draft Table 2, eps {e}", {"eps": e, "delta": "1e-9", "sensitivity": "sqrt(2)"},
         ["Seed", "CrossCheck"]) for e in ("0.317", "0.906", "1.528")] + [
        ("SA2 Example 3 target (1, 1e-8)", {"eps": "1", "delta": "1e-8", "sensitivity": "1"},
         ["Seed", "CrossCheck"]),
        ("eps 0.01", {"eps": "0.01", "delta": "1e-5", "sensitivity": "1"}, ["CrossCheck"]),
        ("eps 5, sensitivity 4", {"eps": "5", "delta": "1e-12", "sensitivity": "4"}, []),
    ], tc, [("delta 1", {"eps": "1", "delta": "1", "sensitivity": "1"}),
            ("delta 0", {"eps": "1", "delta": "0", "sensitivity": "1"}),
            ("eps 0", {"eps": "0", "delta": "1e-6", "sensitivity": "1"})]))
    g.append(_group("accounting.discrete_gaussian_delta", {}, [
        ("DP draft Table 2 row 1 at printed sigma, vector (1, -1)",
         {"eps": "0.317", "sigma": "23.3903", "vector": [1, -1]}, ["Seed", "SeedDoesNotHold"]),
        ("one coordinate, sigma 0.5", {"eps": "1", "sigma": "0.5", "vector": [1]}, []),
        ("three coordinates", {"eps": "0.8", "sigma": "2", "vector": [1, 1, 2]}, []),
        ("shift 3", {"eps": "0.7", "sigma": "2", "vector": [3]}, []),
    ], tc, [("zero vector", {"eps": "1", "sigma": "1", "vector": [0, 0]}),
            ("sigma negative", {"eps": "1", "sigma": "-1", "vector": [1]})]))
    g.append(_group("accounting.discrete_gaussian_sigma", {}, [
        (f"DP draft Table 2, eps {e}, exact discrete", {"eps": e, "delta": "1e-9", "vector": [1, -1]},
         ["Seed"]) for e in ("0.317", "1.528")] + [
        ("small sigma regime", {"eps": "3", "delta": "1e-3", "vector": [1]}, []),
    ], tc, [("delta 2", {"eps": "1", "delta": "2", "vector": [1]})]))
    g.append(_group("accounting.rdp_to_dp", {}, [
        ("alpha 2", {"rdp": "0.1", "alpha": "2", "delta": "1e-6"}, []),
        ("alpha 32", {"rdp": "0.5", "alpha": "32", "delta": "1e-8"}, []),
        ("fractional alpha", {"rdp": "0.05", "alpha": "1.5", "delta": "1e-3"}, []),
        ("clamped at 0", {"rdp": "0", "alpha": "1000", "delta": "0.9"}, []),
    ], tc, [("alpha 1", {"rdp": "0.1", "alpha": "1", "delta": "1e-6"})]))
    g.append(_group("accounting.zcdp_to_dp", {}, [
        ("rho 0.5", {"rho": "0.5", "delta": "1e-6"}, []),
        ("rho 1/(2 sigma^2), sigma 5.1", {"rho": "0.019223375624759707", "delta": "1e-8"}, []),
        ("rho 0", {"rho": "0", "delta": "1e-6"}, []),
    ], tc, [("negative rho", {"rho": "-1", "delta": "1e-6"})]))
    g.append(_group("accounting.poisson_amplification", {}, [
        ("SA2 Example 6: (0.61, 1e-10), q 0.02", {"eps": "0.61", "delta": "1e-10", "q": "0.02"},
         ["Seed"]),
        ("q 1", {"eps": "2", "delta": "1e-6", "q": "1"}, []),
        ("q 0", {"eps": "2", "delta": "1e-6", "q": "0"}, []),
    ], tc, [("q 1.5", {"eps": "1", "delta": "1e-6", "q": "1.5"})]))
    g.append(_group("accounting.sampled_gaussian_rdp", {}, [
        (f"q {q}, sigma {s}, alpha {a}", {"q": q, "sigma": s, "alpha": a},
         ["CrossCheck"] if "." not in a else [])
        for q, s in (("0.02", "5.1"), ("0.01", "1.1"), ("0.3", "0.8"))
        for a in ("2", "8", "1.5", "32")
    ], tc, [("alpha 1", {"q": "0.1", "sigma": "1", "alpha": "1"})]))
    orders = ["1.5", "2", "4", "8", "16", "24", "32", "48", "64"]
    g.append(_group("accounting.subsampled_gaussian_epsilon", {"orders": orders}, [
        ("SA2 Example 5: sigma 5.1, q 0.02, 2500 steps (paper: 0.8)",
         {"q": "0.02", "sigma": "5.1", "steps": 2500, "delta": "1e-8"},
         ["Seed", "SeedDoesNotHold", "CrossCheck"]),
        ("sigma 1.1, q 0.01, 1000 steps", {"q": "0.01", "sigma": "1.1", "steps": 1000,
                                           "delta": "1e-5"}, ["CrossCheck"]),
    ], tc, [("zero steps", {"q": "0.1", "sigma": "1", "steps": 0, "delta": "1e-5"})]))
    g.append(_group("accounting.shuffle_closed_form", {}, [
        ("SA2 Example 4 parameters: outside validity", {"eps0": "4", "n": 10000, "delta": "1e-10"},
         ["Seed", "OutsideValidity"]),
        ("MJTB+22 Fig. 1, eps0 3, n 10^4", {"eps0": "3", "n": 10000, "delta": "1e-6"}, ["Seed"]),
        ("MJTB+22 Fig. 1, eps0 6, n 10^4: outside validity",
         {"eps0": "6", "n": 10000, "delta": "1e-6"}, ["Seed", "OutsideValidity"]),
        ("n too small for the condition to be defined", {"eps0": "1", "n": 50, "delta": "1e-6"},
         ["OutsideValidity"]),
    ], tc, [("delta 0", {"eps0": "1", "n": 1000, "delta": "0"})]))
    g.append(_group("accounting.shuffle_clone", {}, [
        ("SA2 Example 4, fmt22", {"eps0": "4", "n": 10000, "delta": "1e-10", "variant": "fmt22"},
         ["Seed"]),
        ("SA2 Example 4, fmt20", {"eps0": "4", "n": 10000, "delta": "1e-10", "variant": "fmt20"},
         ["Seed"]),
        ("MJTB+22 claim eps0 3, n 1001, fmt20", {"eps0": "3", "n": 1001, "delta": "1e-6",
                                                 "variant": "fmt20"}, ["Seed", "SeedDoesNotHold"]),
        ("eps0 1, n 10^5, fmt22", {"eps0": "1", "n": 100000, "delta": "1e-8", "variant": "fmt22"}, []),
    ], tc, [("unknown variant", {"eps0": "1", "n": 1000, "delta": "1e-6", "variant": "fmt99"})]))
    g.append(_group("accounting.rr_sum_delta", {}, [
        ("replacement, ones 0", {"eps": "0.3", "eps0": "2", "n": 60, "neighbours": "replacement",
                                 "ones": 0}, []),
        ("replacement, ones 2 (the worst composition here)",
         {"eps": "0.3", "eps0": "2", "n": 60, "neighbours": "replacement", "ones": 2}, []),
        ("deletion", {"eps": "0.4", "eps0": "1", "n": 20, "neighbours": "deletion", "ones": 0}, []),
        ("n 10^5, eps0 5", {"eps": "0.2", "eps0": "5", "n": 100000, "neighbours": "replacement",
                            "ones": 0}, []),
    ], tc, [("ones too large", {"eps": "0.3", "eps0": "2", "n": 10, "neighbours": "replacement",
                                "ones": 10})]))
    g.append(_group("accounting.composition", {}, [
        ("k 50", {"eps": "0.1", "delta": "1e-7", "k": 50, "deltaSlack": "1e-6", "epsTotal": "2"}, []),
        ("k 10 pure", {"eps": "0.5", "delta": "0", "k": 10, "deltaSlack": "1e-5",
                       "epsTotal": "3"}, []),
    ], tc, [("k 0", {"eps": "0.5", "delta": "0", "k": 0, "deltaSlack": "1e-5", "epsTotal": "1"})]))
    g.append(_group("accounting.donation_time", {}, [
        ("eps 1, delta 1e-8, m 10", {"eps": "1", "delta": "1e-8", "m": 10}, []),
        ("eps 0.5, delta 1e-6, m 100", {"eps": "0.5", "delta": "1e-6", "m": 100}, []),
    ], tc, [("m 0", {"eps": "1", "delta": "1e-8", "m": 0})]))
    g.append(_group("accounting.ghazi_theorems", {}, [
        ("eps 1, delta 1e-6", {"eps": "1", "delta": "1e-6", "sensitivity": 1}, []),
        ("eps 0.1, delta 1e-9, Delta 3", {"eps": "0.1", "delta": "1e-9", "sensitivity": 3}, []),
    ], tc, [("delta 0", {"eps": "1", "delta": "0", "sensitivity": 1})]))
    g.append(_group("accounting.ghazi_mechanism_delta", {}, [
        ("Poisson lambda 20, Delta 2", {"mechanism": "poisson", "eps": "1", "lambda": "20",
                                        "sensitivity": 2}, []),
        ("NB r 3.5, p 0.9", {"mechanism": "negative-binomial", "eps": "0.5", "r": "3.5", "p": "0.9",
                             "sensitivity": 1}, []),
        ("NB loss bounded below eps", {"mechanism": "negative-binomial", "eps": "0.5", "r": "2",
                                       "p": "0.99", "sensitivity": 1}, []),
    ], tc, [("NB r below 1", {"mechanism": "negative-binomial", "eps": "0.5", "r": "0.5",
                              "p": "0.9", "sensitivity": 1})]))
    g.append(_group("accounting.ghazi_minimal_parameter", {}, [
        ("Poisson eps 1, delta 1e-6", {"mechanism": "poisson", "eps": "1", "delta": "1e-6",
                                       "sensitivity": 1}, []),
        ("NB at Theorem 13's p", {"mechanism": "negative-binomial", "eps": "1", "delta": "1e-6",
                                  "p": "0.90483741803595957316", "sensitivity": 1}, []),
    ], tc, [("unknown mechanism", {"mechanism": "binomial", "eps": "1", "delta": "1e-6",
                                   "sensitivity": 1})]))
    g.append(_group("accounting.without_replacement_amplification", {}, [
        ("50 of 1000", {"eps": "1", "delta": "1e-6", "m": 50, "n": 1000}, []),
    ], tc, [("m > n", {"eps": "1", "delta": "1e-6", "m": 5, "n": 4})]))
    g.append(_group("accounting.pure_conversions", {}, [
        ("eps 0.1, alpha 4", {"eps": "0.1", "alpha": "4"}, []),
        ("eps 1, alpha 4 (trivial bound wins)", {"eps": "1", "alpha": "4"}, []),
    ], tc, [("alpha 1", {"eps": "1", "alpha": "1"})]))
    g.append(_group("accounting.discrete_laplace", {}, [
        ("scale 0.5, L1 2", {"scale": "0.5", "l1Sensitivity": 2}, []),
    ], tc, [("scale 0", {"scale": "0", "l1Sensitivity": 1})]))
    g.append(_group("accounting.ghazi_theorem18", {}, [
        ("0.99 + 0.01", {"eps1": "0.99", "eps2": "0.01", "delta2": "1e-7", "delta3": "1e-9"}, []),
    ], tc, [("delta2 2", {"eps1": "1", "eps2": "1", "delta2": "2", "delta3": "0"})]))
    g.append(_group("accounting.rappor_histogram", {}, [
        ("DP draft Table 1, EPSILON_0 5", {"eps": "0.317", "eps0": "5", "n": 100000,
                                           "delta": "1e-9"}, ["Seed"]),
        ("n 2000, EPSILON_0 3", {"eps": "0.5", "eps0": "3", "n": 2000, "delta": "1e-6"}, []),
    ], tc))
    g.append(_group("accounting.rr_sum_worst_delta", {}, [
        ("n 60, eps0 2, eps 0.3: worst at ones 2", {"eps": "0.3", "eps0": "2", "n": 60,
                                                    "neighbours": "replacement"}, []),
    ], tc))
    policy = json.loads(_table1_policy())
    queries = [
        {"analysis": "keyboard", "fields": ["n-gram", "bucketed age"], "eps0": "2", "eps": "0.5",
         "minCohort": 5000},
        {"analysis": "keyboard", "fields": ["n-gram"], "eps0": "6", "eps": "0.5", "minCohort": 10**6},
        {"analysis": "keyboard", "fields": ["n-gram"], "eps0": "5", "eps": "0.5", "minCohort": 1000},
        {"analysis": "keyboard", "fields": ["n-gram"], "eps0": "3", "eps": "0.5", "minCohort": 5000},
        {"analysis": "keyboard", "fields": ["model perplexity"], "eps0": "3", "eps": "0.1",
         "minCohort": 5000},
    ]
    g.append(_group("accounting.budget_transcript", {"policy": policy}, [
        ("MJTB+22 Table 1: checks 2, 2, 3 refuse, then a query passes, then check 1 refuses",
         {"queries": queries}, ["Seed"]),
    ], tc))
    # -- boundary cases of the accounting audit (appended so that earlier tcIds stay stable) --
    g.append(_group("accounting.discrete_gaussian_delta", {}, [
        ("threshold sigma^2 eps - |v|^2/2 exactly 0 (sigma sqrt(1/2)): S > 0, not S >= 0",
         {"eps": "1", "sigma": "sqrt(1/2)", "vector": [1]}, ["Boundary"]),
        ("thresholds exactly 6 and 10 (sigma sqrt(8), v (2))",
         {"eps": "1", "sigma": "sqrt(8)", "vector": [2]}, ["Boundary"]),
        ("delta about 1.6e-45, below the former 1e-38 table cut-off",
         {"eps": "1", "sigma": "13.7659", "vector": [1]}, ["Boundary"]),
        ("delta about 1e-100, two coordinates", {"eps": "1", "sigma": "30", "vector": [1, -1]},
         ["Boundary"]),
    ], tc))
    g.append(_group("accounting.discrete_gaussian_sigma", {}, [
        ("delta 1e-60, below the former table cut-off", {"eps": "1", "delta": "1e-60",
                                                          "vector": [1]}, ["Boundary"]),
        ("delta 1e-300", {"eps": "1", "delta": "1e-300", "vector": [1]}, ["Boundary"]),
    ], tc))
    g.append(_group("accounting.shuffle_clone", {}, [
        ("eps0 50: the answer is at most eps0", {"eps0": "50", "n": 1000, "delta": "1e-6",
                                                 "variant": "fmt20"}, ["Boundary"]),
        ("delta 1e-300: no tail constant counted as delta",
         {"eps0": "1", "n": 10000, "delta": "1e-300", "variant": "fmt22"}, ["Boundary"]),
    ], tc))
    return envelope(algorithm="privacy accounting and calibration", family="accounting",
                    schema=SCHEMA, header=HEADER, notes=NOTES, groups=g)


def _table1_policy() -> str:
    from dpspec.spec.accounting.budget import mjtb_table1

    return mjtb_table1().to_json()


FAMILY = AccountingFamily()
