"""Vector family ``sa2-experiments``: the utility experiments of [SA2] (dpspec.spec.sa2.experiments).

File ``sa2-experiments/utility.json``: sec. 3.1 and App. B of [SA2] in small settings. The noise
calibrations (Agg: analytic Gaussian at sensitivity sqrt(K); SampAgg: the moments accountant over
K Poisson-subsampled steps, the smaller of the two), the collision probability of the uniform and
Zipf distributions, the error model ``(1 - ||p||^2)/m_u + d sigma^2 / m_u^2``, one point of the
histogram experiment (Fig. 2 / 5) and of counting needles (Fig. 3, 6-8) with the importance
sampling rates, a sweep, and sec. 3.1's sampling gain (advanced composition; Gaussian steps).

Every bound comes from :mod:`dpspec.spec.accounting` through the spec module; the handlers call
:mod:`dpspec.spec.sa2.experiments` only.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import mpmath

from dpspec.conformance.families._groups import Groups
from dpspec.conformance.families.sa2_privacy import compare_outputs, publish_real
from dpspec.conformance.jsonargs import COUNT, DEC, RAT
from dpspec.conformance.vectors import (
    Case,
    Family,
    Handler,
    VectorFile,
    family_schema,
)
from dpspec.spec.accounting import subsampling
from dpspec.spec.sa2 import experiments as ex
from dpspec.spec.sa2 import privacy
from dpspec.spec.sa2.ideal import exact

SCHEMA = "sa2_experiments-v1.json"
REL_TOL = mpmath.mpf("1e-9")
#: outputs that are rationals or integers (compared exactly); every other string is a real
EXACT = frozenset({"setting", "q", "alpha", "beta", "participations", "runsKnown", "runsSecret", "ms",
                   "m", "orders", "order"})

HEADER = [
    "Utility experiments of sec. 3.1 and App. B of [SA2], small settings.",
    "Reals are decimal strings rounded UP to 12 significant digits (mpmath at 50 digits), compared",
    "within relative 1e-9; rationals ('p/q') and integers exactly. Noise scales (sigma*) are",
    "rounded up to 5 significant digits by the spec before use.",
    "agg_sigma: analytic Gaussian [BW18] sigma for (eps, delta) at L2 sensitivity sqrt(tasks).",
    "sampagg_epsilon: moments-accountant epsilon of `tasks` Poisson-subsampled Gaussian steps",
    "(rate q, noise multiplier sigma) at delta, RDP orders of dpspec.spec.sa2.experiments.ORDERS.",
    "sampagg_noise: sigmaSampled = smallest sigma (bisection on log sigma to relative 1e-4 from",
    "[hi/2, hi], hi the first power of two that fits, then rounded up to 5 digits) with",
    "sampagg_epsilon <= eps; sigma = min(sigmaSampled, agg_sigma).",
    "collision_probability: ||p||^2: 1/d (uniform), H2(d)/H1(d)^2 (zipf, p_j ~ 1/j).",
    "estimate_error: (1 - collision)/useful + d sigma^2/useful^2.",
    "histogram_point: 'setting' is Setting.describe() (a label, compared exactly);",
    "m of n devices, q = m/n; errors of NonPriv (sigma 0), Agg and SampAgg.",
    "With sparsity s (needles): beta = min(1, m/(2 s n)), alpha = (m - beta s n)/(n - s n);",
    "useful reports s m (uniform sampling) and beta s n (importance); SampAgg at q = max(alpha, beta).",
    "sweep: the points of the m values <= n. sampling_gain: advanced composition [DRV10] over",
    "ceil(q T) participations (known sample) vs Poisson amplification then T steps (secret sample),",
    "and with a budget (budgetDelta default 1e-6) the largest run counts M that fit (e <= budget",
    "and d <= budgetDelta, composition over M * participations resp. M * T steps): probes",
    "1, 2, 4, ... up to 10^12, then bisection; when every power of two up to 10^12 fits, M is",
    "reported as 2^39 (a lower bound). gaussian_gain: [BW18] over sqrt(ceil(qT))",
    "and sqrt(T) sensitivity vs the moments accountant over T subsampled steps.",
    "setting: Setting.describe() of a valid setting (eps, delta, s as integers, decimals with",
    "k = 1..4 places, '1e-k' for 1/10^k with k > 4, else 'p/q'); the checks of BadSetting.",
    "rdp_curve: the transcript of sampagg_epsilon: orders = ORDERS (2, 3, 4, 5, 6, 7, 8, 10, 12,",
    "14, 16, 20, 24, 28, 32, 40, 48, 56, 64, 80, 96, 128, 160, 192, 256, 384, 512, 768, 1024),",
    "rdp[i] = tasks * RDP of the Poisson-subsampled Gaussian at orders[i] ([MTZ19], exact finite",
    "sum), epsilon and the order that attains it (0 when the zCDP bound of the unsampled",
    "Gaussian wins).",
]


def _pub(x: mpmath.mpf) -> str:
    return publish_real(x)


def _rat(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


def _int(args: dict[str, Any], key: str) -> int:
    v = args[key]
    if isinstance(v, bool) or not isinstance(v, int):
        raise ValueError(f"{key} must be an integer")
    return v


def _f(args: dict[str, Any], key: str) -> Fraction:
    return exact(args[key], key)


def _setting(args: dict[str, Any]) -> ex.Setting:
    sp = args.get("sparsity")
    return ex.Setting(_int(args, "d"), _int(args, "n"), _int(args, "tasks"), _f(args, "eps"),
                      _f(args, "delta"), args.get("distribution", "uniform"),
                      None if sp is None else exact(sp, "sparsity"))


def _point(p: ex.Point) -> dict[str, Any]:
    out: dict[str, Any] = {"m": p.m, "nonpriv": _pub(p.nonpriv), "agg": _pub(p.agg),
                           "sampagg": _pub(p.sampagg), "sigmaAgg": _pub(p.sigma_agg),
                           "sigmaSampagg": _pub(p.sigma_sampagg), "q": _rat(p.q_sampagg)}
    if p.nonpriv_uniform is not None:
        out["nonprivUniform"] = _pub(p.nonpriv_uniform)
    for k in ("alpha", "beta"):
        if k in p.extra:
            out[k] = _rat(p.extra[k])
    return out


def h_agg_sigma(args: dict[str, Any]) -> dict[str, Any]:
    return {"sigma": _pub(ex.agg_sigma(_f(args, "eps"), _f(args, "delta"), _int(args, "tasks")))}


def h_sampagg_epsilon(args: dict[str, Any]) -> dict[str, Any]:
    with mpmath.workdps(privacy.DPS):
        sigma = mpmath.mpf(args["sigma"])
    return {"epsilon": _pub(ex.sampagg_epsilon(_f(args, "q"), sigma, _int(args, "tasks"),
                                               _f(args, "delta")))}


def h_sampagg_noise(args: dict[str, Any]) -> dict[str, Any]:
    q, eps, delta, k = _f(args, "q"), _f(args, "eps"), _f(args, "delta"), _int(args, "tasks")
    return {"sigmaSampled": _pub(ex.sampagg_sigma(q, eps, delta, k)),
            "sigmaAgg": _pub(ex.agg_sigma(eps, delta, k)),
            "sigma": _pub(ex.sampagg_noise(q, eps, delta, k))}


def h_collision(args: dict[str, Any]) -> dict[str, Any]:
    return {"collision": _pub(ex.collision_probability(args["distribution"], _int(args, "d")))}


def h_estimate_error(args: dict[str, Any]) -> dict[str, Any]:
    with mpmath.workdps(privacy.DPS):
        u, c, s = (mpmath.mpf(args[k]) for k in ("useful", "collision", "sigma"))
    return {"error": _pub(ex.estimate_error(u, c, _int(args, "d"), s))}


def h_point(args: dict[str, Any]) -> dict[str, Any]:
    st = _setting(args)
    return {"setting": st.describe(), **_point(ex.histogram_point(st, _int(args, "m")))}


def h_importance(args: dict[str, Any]) -> dict[str, Any]:
    a, b = ex.importance_rates(_int(args, "n"), _f(args, "s"), _int(args, "m"))
    return {"alpha": _rat(a), "beta": _rat(b)}


def h_sweep(args: dict[str, Any]) -> dict[str, Any]:
    ms = args["ms"]
    if not isinstance(ms, list) or not all(isinstance(m, int) for m in ms):
        raise ValueError("ms must be a list of integers")
    pts = ex.sweep(_setting(args), ms)
    return {"ms": [p.m for p in pts], "sampagg": [_pub(p.sampagg) for p in pts],
            "agg": [_pub(p.agg) for p in pts]}


def h_sampling_gain(args: dict[str, Any]) -> dict[str, Any]:
    bud = _f(args, "budget") if "budget" in args else None
    bd = _f(args, "budgetDelta") if "budgetDelta" in args else None
    g = ex.sampling_gain(_f(args, "eps0"), _f(args, "delta0"), _f(args, "q"),
                         _int(args, "steps"), _f(args, "slack"), bud, bd)
    out: dict[str, Any] = {
        "participations": g.participations, "epsKnown": _pub(g.eps_known),
        "deltaKnown": _pub(g.delta_known), "epsStepAmplified": _pub(g.eps_step_amplified),
        "deltaStepAmplified": _pub(g.delta_step_amplified), "epsSecret": _pub(g.eps_secret),
        "deltaSecret": _pub(g.delta_secret), "ratio": _pub(g.ratio)}
    if g.runs_known is not None:
        out["runsKnown"] = g.runs_known
        out["runsSecret"] = g.runs_secret
    return out


def h_gaussian_gain(args: dict[str, Any]) -> dict[str, Any]:
    g = ex.gaussian_gain(_f(args, "sigma"), _f(args, "q"), _int(args, "steps"),
                         _f(args, "delta"))
    out: dict[str, Any] = {"participations": int(g["participations"])}
    names = {"eps_known": "epsKnown", "eps_all_steps": "epsAllSteps", "eps_secret": "epsSecret",
             "eps_step": "epsStep", "eps_step_amplified": "epsStepAmplified", "ratio": "ratio"}
    for k, v in names.items():
        out[v] = _pub(g[k])
    return out


def h_setting(args: dict[str, Any]) -> dict[str, Any]:
    return {"setting": _setting(args).describe()}


def h_rdp_curve(args: dict[str, Any]) -> dict[str, Any]:
    q, dl, k = _f(args, "q"), _f(args, "delta"), _int(args, "tasks")
    with mpmath.workdps(privacy.DPS):
        sigma = mpmath.mpf(args["sigma"])
    curve = subsampling.subsampled_gaussian_rdp_curve(_rat(q), str(sigma), k, orders=ex.ORDERS)
    _, order = subsampling.subsampled_gaussian_epsilon(_rat(q), str(sigma), k, _rat(dl),
                                                         orders=ex.ORDERS)
    return {"orders": [int(a) for a, _ in curve], "rdp": [_pub(r) for _, r in curve],
            "epsilon": _pub(ex.sampagg_epsilon(q, sigma, k, dl)), "order": int(order)}


HANDLERS: dict[str, Handler] = {
    "sa2x.agg_sigma": h_agg_sigma,
    "sa2x.sampagg_epsilon": h_sampagg_epsilon,
    "sa2x.sampagg_noise": h_sampagg_noise,
    "sa2x.collision_probability": h_collision,
    "sa2x.estimate_error": h_estimate_error,
    "sa2x.histogram_point": h_point,
    "sa2x.importance_rates": h_importance,
    "sa2x.sweep": h_sweep,
    "sa2x.sampling_gain": h_sampling_gain,
    "sa2x.gaussian_gain": h_gaussian_gain,
    "sa2x.setting": h_setting,
    "sa2x.rdp_curve": h_rdp_curve,
}

MILLION = "1/1000000"


def _groups() -> list[dict[str, Any]]:
    groups = Groups(HANDLERS)
    group = groups.add

    group("sa2x.agg_sigma", [
        ("eps = 1, delta = 1e-6, K = 4", {"eps": "1", "delta": MILLION, "tasks": 4}),
        ("eps = 1, delta = 1e-6, K = 1", {"eps": "1", "delta": MILLION, "tasks": 1}),
        ("eps = 1/2, delta = 1e-5, K = 9", {"eps": "1/2", "delta": "1/100000", "tasks": 9})])

    group("sa2x.sampagg_epsilon", [
        ("q = 1/10, sigma = 2, K = 4", {"q": "1/10", "sigma": "2", "tasks": 4,
                                        "delta": MILLION}),
        ("q = 1, sigma = 8.4494, K = 4", {"q": "1", "sigma": "8.4494", "tasks": 4,
                                          "delta": MILLION})])

    sn = {"eps": "1", "delta": MILLION, "tasks": 4}
    group("sa2x.sampagg_noise", [
        ("q = 1/10: the sampled calibration wins", {**sn, "q": "1/10"}),
        ("q = 1/4: the sampled calibration still wins", {**sn, "q": "1/4"}),
        ("q = 1: Agg's analytic Gaussian wins", {**sn, "q": "1"}),
        ("q = 1e-6, eps = 4: sigma below 1/2 (the search halves from 1)",
         {**sn, "q": "1/1000000", "eps": "4"})],
        [("q = 0", {**sn, "q": "0"}, "BadRate")])

    group("sa2x.collision_probability", [
        ("uniform, d = 16", {"distribution": "uniform", "d": 16}),
        ("zipf, d = 16", {"distribution": "zipf", "d": 16}),
        ("zipf, d = 2", {"distribution": "zipf", "d": 2})],
        [("unknown distribution", {"distribution": "geometric", "d": 4}, "BadDistribution")])

    group("sa2x.estimate_error", [
        ("no noise", {"useful": "100", "collision": "0.0625", "d": 16, "sigma": "0"}),
        ("noise sigma 2", {"useful": "100", "collision": "0.0625", "d": 16, "sigma": "2"}),
        ("fractional useful count", {"useful": "12.5", "collision": "0.5", "d": 2,
                                     "sigma": "1.5"})])

    hp = {"d": 16, "n": 1000, "tasks": 4, "eps": "1", "delta": MILLION}
    nd = {**hp, "distribution": "zipf", "sparsity": "1/10"}
    group("sa2x.histogram_point", [
        ("Fig. 2 setting, m = 100 (q = 1/10)", {**hp, "m": 100}),
        ("m = n: q = 1", {**hp, "m": 1000}),
        ("m = 1 of n = 10", {**hp, "n": 10, "m": 1}),
        ("zipf, m = 100", {**hp, "distribution": "zipf", "m": 100}),
        ("needles s = 1/10, m = 50 (beta < 1)", {**nd, "m": 50}),
        ("needles s = 1/10, m = 200 (beta = 1 exactly)", {**nd, "m": 200}),
        ("needles s = 1/10, m = 400 (beta capped at 1)", {**nd, "m": 400}),
        ("needles s = 1/4, m = 500: beta = 1, alpha = 1/3",
         {**nd, "sparsity": "1/4", "m": 500})],
        [("m = 0", {**hp, "m": 0}, "BadM"),
         ("m > n", {**hp, "m": 1001}, "BadM"),
         ("needles m > n", {**nd, "m": 1001}, "BadM"),
         ("d = 1", {**hp, "d": 1, "m": 10}, "BadSetting"),
         ("n = 1", {**hp, "n": 1, "m": 1}, "BadSetting"),
         ("K = 0", {**hp, "tasks": 0, "m": 10}, "BadSetting"),
         ("eps = 0", {**hp, "eps": "0", "m": 10}, "BadSetting"),
         ("eps > 50", {**hp, "eps": "51", "m": 10}, "BadSetting"),
         ("delta = 0", {**hp, "delta": "0", "m": 10}, "BadSetting"),
         ("delta = 1", {**hp, "delta": "1", "m": 10}, "BadSetting"),
         ("sparsity 0", {**hp, "sparsity": "0", "m": 10}, "BadSetting"),
         ("sparsity 1", {**hp, "sparsity": "1", "m": 10}, "BadSetting"),
         ("unknown distribution", {**hp, "distribution": "pareto", "m": 10},
          "BadSetting")])

    group("sa2x.importance_rates", [
        ("n = 1000, s = 1/10, m = 50", {"n": 1000, "s": "1/10", "m": 50}),
        ("m = 2 s n: beta = 1", {"n": 1000, "s": "1/10", "m": 200}),
        ("m = n: alpha = 1", {"n": 1000, "s": "1/10", "m": 1000}),
        ("s n not an integer", {"n": 10, "s": "1/3", "m": 4})],
        [("m > n: alpha > 1", {"n": 1000, "s": "1/10", "m": 1001}, "BadM"),
         ("m > n, few needles", {"n": 10, "s": "1/3", "m": 11}, "BadM")])

    group("sa2x.sweep", [
        ("m in {100, 1000, 2000}: 2000 > n skipped", {**hp, "ms": [100, 1000, 2000]}),
        ("needles m in {50, 200}", {**nd, "ms": [50, 200]})])

    sg = {"eps0": "1/10", "delta0": "1/100000000", "q": "1/10", "steps": 100,
          "slack": MILLION}
    group("sa2x.sampling_gain", [
        ("eps0 = 0.1, q = 0.1, T = 100", sg),
        ("with a budget (1, 1e-5)", {**sg, "budget": "1", "budgetDelta": "1/100000"}),
        ("with a budget (10, 1e-4): several runs either way",
         {**sg, "budget": "10", "budgetDelta": "1/10000"}),
        ("budget with the default budget delta 1e-6: delta alone exceeds it", {**sg, "budget": "3"}),
        ("q = 1: no gain", {**sg, "q": "1", "steps": 10}),
        ("q T < 1: one participation", {**sg, "q": "1/1000", "steps": 100})],
        [("q = 0", {**sg, "q": "0"}, "BadRate"),
         ("T = 0", {**sg, "steps": 0}, "BadSteps")])

    group("sa2x.gaussian_gain", [
        ("sigma = 2, q = 1/10, T = 100", {"sigma": "2", "q": "1/10", "steps": 100,
                                          "delta": MILLION}),
        ("sigma = 4, q = 1/2, T = 10", {"sigma": "4", "q": "1/2", "steps": 10,
                                        "delta": "1/100000"})])

    # -- appended groups (boundaries of every check, transcripts) --------------------------------
    st = {"d": 16, "n": 1000, "tasks": 4, "eps": "1", "delta": MILLION}
    group("sa2x.setting", [
        ("the Fig. 2 setting", st),
        ("d = 2, n = 2, K = 1: the smallest accepted", {**st, "d": 2, "n": 2, "tasks": 1}),
        ("eps = 50: the largest accepted", {**st, "eps": "50"}),
        ("eps = 1/2, delta = 1/10000 (4 decimals), zipf",
         {**st, "eps": "1/2", "delta": "1/10000", "distribution": "zipf"}),
        ("delta = 1/100000: written 1e-5", {**st, "delta": "1/100000"}),
        ("delta = 3/100000: 5 decimals", {**st, "delta": "3/100000"}),
        ("eps = 3/4, delta = 1/3, sparsity 1/20",
         {**st, "eps": "3/4", "delta": "1/3", "sparsity": "1/20"}),
        ("sparsity 1/7 (not decimal), delta close to 1", {**st, "sparsity": "1/7",
                                                          "delta": "999/1000"})],
        [("d = 1", {**st, "d": 1}, "BadSetting"),
         ("n = 1", {**st, "n": 1}, "BadSetting"),
         ("K = 0", {**st, "tasks": 0}, "BadSetting"),
         ("K = -1", {**st, "tasks": -1}, "BadSetting"),
         ("eps = 0", {**st, "eps": "0"}, "BadSetting"),
         ("eps = -1/2", {**st, "eps": "-1/2"}, "BadSetting"),
         ("eps = 501/10 (> 50)", {**st, "eps": "501/10"}, "BadSetting"),
         ("delta = 0", {**st, "delta": "0"}, "BadSetting"),
         ("delta = -1/2", {**st, "delta": "-1/2"}, "BadSetting"),
         ("delta = 1", {**st, "delta": "1"}, "BadSetting"),
         ("delta = 3/2", {**st, "delta": "3/2"}, "BadSetting"),
         ("sparsity 0", {**st, "sparsity": "0"}, "BadSetting"),
         ("sparsity -1/2", {**st, "sparsity": "-1/2"}, "BadSetting"),
         ("sparsity 1", {**st, "sparsity": "1"}, "BadSetting"),
         ("sparsity 3/2", {**st, "sparsity": "3/2"}, "BadSetting"),
         ("unknown distribution", {**st, "distribution": "pareto"}, "BadSetting")])

    group("sa2x.rdp_curve", [
        ("q = 1/10, sigma = 2, K = 4: the per-order transcript of sampagg_epsilon",
         {"q": "1/10", "sigma": "2", "tasks": 4, "delta": MILLION}),
        ("q = 1/2, sigma = 40, K = 1: a high order attains the minimum",
         {"q": "1/2", "sigma": "40", "tasks": 1, "delta": MILLION}),
        ("q = 1/100, sigma = 200, K = 1: the largest order attains the minimum",
         {"q": "1/100", "sigma": "200", "tasks": 1, "delta": MILLION})])

    group("sa2x.sampagg_noise", [
        ("eps = 1e-9, K = 100, q = 1: sigma about 6.06e6, found at the probe 2^23 < 1e7",
         {**sn, "q": "1", "eps": "1/1000000000", "tasks": 100})], [
        ("q = -1/10", {**sn, "q": "-1/10"}, "BadRate"),
         ("q = 11/10", {**sn, "q": "11/10"}, "BadRate"),
         ("q = 2", {**sn, "q": "2"}, "BadRate"),
         ("eps = 1e-9, K = 300, q = 1: sigma about 1.05e7; the probe 2^24 > 1e7 stops the search",
          {**sn, "q": "1", "eps": "1/1000000000", "tasks": 300}, "NoSigma")])

    small = {"d": 2, "n": 2, "tasks": 1, "eps": "1", "delta": MILLION}
    group("sa2x.histogram_point", [
        ("d = 2, n = 2, K = 1, m = 1", {**small, "m": 1}),
        ("d = 2, n = 2, K = 1, m = n = 2", {**small, "m": 2}),
        ("needles s = 1/10, m = 1: the smallest m", {**nd, "m": 1}),
        ("needles s = 1/10, m = n = 1000: alpha = beta = 1", {**nd, "m": 1000})],
        [("m = -1", {**hp, "m": -1}, "BadM"),
         ("needles m = 0", {**nd, "m": 0}, "BadM"),
         ("needles m = -1", {**nd, "m": -1}, "BadM"),
         ("m = n + 1 = 3", {**small, "m": 3}, "BadM")])

    group("sa2x.importance_rates", [
        ("m = 0: alpha = beta = 0 (alpha = 0 accepted)", {"n": 1000, "s": "1/10", "m": 0}),
        ("m = 1", {"n": 1000, "s": "1/10", "m": 1})],
        [("m = -1: alpha < 0", {"n": 1000, "s": "1/10", "m": -1}, "BadM")])

    group("sa2x.sampling_gain", [
        ("T = 1, q = 1/10", {**sg, "steps": 1}),
        ("budget 100 with the default budget delta 1e-6: 90 runs either way",
         {**sg, "steps": 10, "slack": "1/10000000", "budget": "100"}),
        ("delta tie: 3 runs give exactly 3/8 + 1/8 = 1/2 = budgetDelta",
         {"eps0": "1/10", "delta0": "1/8", "q": "1", "steps": 1, "slack": "1/8",
          "budget": "100", "budgetDelta": "1/2"}),
        ("eps0 = 1e-7: more than 2^39 runs fit; the search stops at the cap (2^39 reported)",
         {"eps0": "1/10000000", "delta0": "1/100000000000000000000", "q": "1/2", "steps": 2,
          "slack": "1/10000000", "budget": "1", "budgetDelta": MILLION})],
        [("q = -1/2", {**sg, "q": "-1/2"}, "BadRate"),
         ("q = 11/10", {**sg, "q": "11/10"}, "BadRate"),
         ("q = 2", {**sg, "q": "2"}, "BadRate"),
         ("T = -1", {**sg, "steps": -1}, "BadSteps")])

    group("sa2x.gaussian_gain", [
        ("q T < 1: one participation", {"sigma": "2", "q": "1/1000", "steps": 100,
                                        "delta": MILLION}),
        ("q = 1, T = 1", {"sigma": "3", "q": "1", "steps": 1, "delta": MILLION})])
    return groups.groups


class Sa2ExperimentsFamily(Family):
    name = "sa2-experiments"
    summary = "SA2 utility experiments (sec. 3.1, App. B): calibrations, errors, sampling gain"

    def handlers(self) -> dict[str, Handler]:
        return dict(HANDLERS)

    def schemas(self) -> dict[str, dict[str, Any]]:
        anyarg: dict[str, Any] = {"anyOf": [DEC, RAT, COUNT, {"type": "string"},
                                            {"type": "integer"},
                                            {"type": "array", "items": COUNT}]}
        names = ["eps", "delta", "tasks", "q", "sigma", "distribution", "d", "useful",
                 "collision", "n", "m", "sparsity", "s", "ms", "eps0", "delta0", "steps",
                 "slack", "budget", "budgetDelta"]
        args = {"properties": {n: anyarg for n in names}}
        out: dict[str, Any] = {"type": "object"}
        return {SCHEMA: family_schema(SCHEMA, "SA2 utility experiments",
                                      {op: (args, out) for op in HANDLERS})}

    def compare(self, case: Case, provided: dict[str, Any]) -> str | None:
        assert case.expected is not None
        return compare_outputs(case.expected, provided, lambda k: k not in EXACT, REL_TOL)

    def files(self) -> list[VectorFile]:
        return [self.vector_file(
            "sa2-experiments/utility.json", algorithm="SA2-utility-experiments", schema=SCHEMA,
            header=HEADER,
            notes={
                "BadRate": "The sampling rate must lie in (0, 1].",
                "NoSigma": "No sigma up to 1e7 (powers of two from 1) reaches the target epsilon.",
                "BadSteps": "T must be >= 1.",
                "BadDistribution": "The distribution must be uniform or zipf.",
                "BadM": "m must lie in [1, n] and be samplable (0 <= alpha <= 1).",
                "BadSetting": "Need d >= 2, n >= 2, K >= 1, 0 < eps <= 50, 0 < delta < 1, "
                              "sparsity in (0, 1) and a known distribution.",
            },
            groups=_groups())]


FAMILY = Sa2ExperimentsFamily()
