"""Vector family ``sa2-privacy``: the privacy statements of an SA2 protocol (dpspec.spec.sa2.privacy).

File ``sa2-privacy/statements.json``, one group per function of sec. 2.1, 3, 4.6 and App. A of
[SA2]: which aggregator-model accountant applies to which local randomizer, the shuffle and
Gaussian statements, their amplification to the SA2 model (Poisson sampling, Theorem 3) and to
the fixed-size variant (sampling without replacement), the Poisson shortfall ``Pr[Bin(k, q) < B]``,
the randomized donation-time bound (App. A), Example 5's subsampled Gaussian over rounds, and the
dummy-report analysis of sec. 4.6 (the paper's rate, the exact delta of the released count, the
rate reaching a target delta, the binomial tail and the dummy margin).

Every bound is this project's one implementation in :mod:`dpspec.spec.accounting`; the handlers
only call :mod:`dpspec.spec.sa2.privacy`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import mpmath

from dpspec.conformance.families._groups import Groups, compare_keys
from dpspec.conformance.jsonargs import COUNT, DEC, RAT
from dpspec.conformance.vectors import (
    Case,
    Family,
    Handler,
    VectorFile,
    family_schema,
)
from dpspec.spec.sa2 import privacy
from dpspec.spec.sa2.ideal import exact

SCHEMA = "sa2_privacy-v1.json"
#: significant digits of every published real (rounded up, :func:`privacy.publish`)
DIGITS = 12
#: relative tolerance of compare on the published reals (mpmath at 50 digits)
REL_TOL = mpmath.mpf("1e-9")
#: shuffle statements are binary64 values of dpspec.spec.accounting.shuffle
SHUFFLE_REL_TOL = mpmath.mpf("1e-6")
#: outputs compared as reals within the tolerance (everything else exactly)
REALS = frozenset({"epsilon", "delta", "probability", "eps", "tail", "sf"})

HEADER = [
    "Privacy statements of an SA2 protocol (sec. 2.1, 3, 4.6 and App. A of [SA2]).",
    "Reals are published as decimal strings rounded UP to 12 significant digits (mpmath at 50",
    "digits); 'inf' means no guarantee. compare accepts a real within relative 1e-9 of the",
    "published one (1e-6 for sa2p.shuffle_statement, whose bounds are binary64 numerics of",
    "[FMT20]/[FMT22]/MJTB+22). Rationals are exact 'p/q' strings, compared exactly.",
    "eps0_up: eps0 rounded up to 12 significant digits, as an exact rational.",
    "check_applicable: accountants shuffle-closed-form and shuffle-fmt20 apply to",
    "binary_randomized_response, randomized_response and rappor; shuffle-fmt22 to",
    "binary_randomized_response; rappor-clone to rappor; subsampled-gaussian to gaussian_vector.",
    "shuffle_statement: B = 1 gives the local guarantee (eps0 rounded up, delta 0, bound 'local');",
    "otherwise the accountant's bound at delta; 'fallback' is true when the closed form's",
    "condition failed and the numerical bound replaced it.",
    "gaussian_statement: analytic Gaussian mechanism [BW18] at sigma, L2 sensitivity, delta.",
    "sa2_model: (eps, delta) amplified by Poisson sampling at q: (ln(1 + q(e^eps - 1)), q delta);",
    "q = 1 and eps = inf leave the statement unchanged.",
    "fixed_size_model: sampling B of N without replacement: (ln(1 + (B/N)(e^eps - 1)), (B/N) delta).",
    "poisson_shortfall: Pr[Bin(k, q) < B].",
    "donation_time: App. A bound as printed in the paper for m donation slots.",
    "gaussian_steps: RDP (moments accountant) epsilon of steps Poisson-subsampled Gaussian rounds.",
    "dummy_rate_paper: q' = min(1, 1/(epsilon k)) (sec. 4.6).",
    "dummy_count_delta: exact delta(eps) of the released count X + 1 vs X + Bern(q'),",
    "X ~ Bin(others, q'), max of both hockey-stick divergences (see the module docstring).",
    "dummy_rate_for: smallest q' = j/denominator, j in 1..denominator (bisection; j = denominator",
    "when no smaller j fits), with dummy_count_delta <= delta; denominator 10^9 when absent.",
    "binomial_sf: Pr[Bin(n, rate) >= t]. dummy_margin: smallest d with Pr[Bin(N, q') > d] <= tail.",
]

_STATEMENT_OUT: dict[str, Any] = {
    "type": "object", "required": ["model", "epsilon", "delta", "bound"],
    "properties": {"model": {"type": "string"}, "epsilon": {"type": "string"},
                   "delta": {"type": "string"}, "bound": {"type": "string"},
                   "fallback": {"type": "boolean"}}}
_REAL: dict[str, Any] = {"type": "string"}


def _pub(x: mpmath.mpf) -> str:
    return publish_real(x)


def _real(args: dict[str, Any], key: str) -> mpmath.mpf:
    v = args[key]
    if not isinstance(v, str):
        raise ValueError(f"{key} must be a decimal string")
    with mpmath.workdps(privacy.DPS):
        return mpmath.mpf(v)


def _int(args: dict[str, Any], key: str) -> int:
    v = args[key]
    if isinstance(v, bool) or not isinstance(v, int):
        raise ValueError(f"{key} must be an integer")
    return v


def _statement(st: privacy.PrivacyStatement) -> dict[str, Any]:
    out: dict[str, Any] = {"model": st.model, "epsilon": _pub(st.epsilon),
                           "delta": _pub(st.delta), "bound": st.bound}
    out["fallback"] = bool(st.fallback)
    return out


def _base(args: dict[str, Any]) -> privacy.PrivacyStatement:
    return privacy.PrivacyStatement("aggregator", _real(args, "epsilon"), _real(args, "delta"),
                                    "given", "given")


# -- reference handlers ----------------------------------------------------------------------------
def h_eps0_up(args: dict[str, Any]) -> dict[str, Any]:
    r = privacy.eps0_up(_real(args, "eps0"))
    return {"eps0Up": f"{r.numerator}/{r.denominator}"}


def h_check(args: dict[str, Any]) -> dict[str, Any]:
    privacy.check_applicable(args["accountant"], args["randomizer"])
    return {"applicable": True}


def h_shuffle(args: dict[str, Any]) -> dict[str, Any]:
    bit = _real(args, "rapporBitEps") if "rapporBitEps" in args else None
    return _statement(privacy.shuffle_statement(
        args["accountant"], args["randomizer"], _real(args, "eps0"), _int(args, "B"),
        exact(args["delta"], "delta"), rappor_bit_eps=bit))


def h_gaussian(args: dict[str, Any]) -> dict[str, Any]:
    return _statement(privacy.gaussian_statement(
        exact(args["sigma"], "sigma"), exact(args["sensitivity"], "sensitivity"),
        exact(args["delta"], "delta")))


def h_sa2_model(args: dict[str, Any]) -> dict[str, Any]:
    return _statement(privacy.sa2_model(_base(args), exact(args["q"], "q")))


def h_fixed_size(args: dict[str, Any]) -> dict[str, Any]:
    return _statement(privacy.fixed_size_model(_base(args), _int(args, "B"),
                                               _int(args, "population")))


def h_shortfall(args: dict[str, Any]) -> dict[str, Any]:
    return {"probability": _pub(privacy.poisson_shortfall(exact(args["q"], "q"), _int(args, "k"),
                                                          _int(args, "B")))}


def h_donation(args: dict[str, Any]) -> dict[str, Any]:
    eps, delta = privacy.donation_time(args["eps"], args["delta"], _int(args, "m"))
    return {"epsilon": _pub(eps), "delta": _pub(delta)}


def h_gaussian_steps(args: dict[str, Any]) -> dict[str, Any]:
    return {"epsilon": _pub(privacy.gaussian_steps(
        exact(args["q"], "q"), exact(args["noiseMultiplier"], "noiseMultiplier"),
        _int(args, "steps"), exact(args["delta"], "delta")))}


def h_dummy_rate_paper(args: dict[str, Any]) -> dict[str, Any]:
    r = privacy.dummy_rate_paper(exact(args["epsilon"], "epsilon"), _int(args, "k"))
    return {"rate": f"{r.numerator}/{r.denominator}"}


def h_dummy_delta(args: dict[str, Any]) -> dict[str, Any]:
    st = privacy.dummy_count_statement(exact(args["eps"], "eps"), exact(args["rate"], "rate"),
                                       _int(args, "others"))
    return {"model": st.model, "bound": st.bound, "delta": _pub(st.delta)}


def h_dummy_rate_for(args: dict[str, Any]) -> dict[str, Any]:
    eps, delta, others = exact(args["eps"], "eps"), exact(args["delta"], "delta"), _int(args, "others")
    if "denominator" in args:
        r = privacy.dummy_rate_for(eps, delta, others, _int(args, "denominator"))
    else:  # the spec's default denominator, 10^9
        r = privacy.dummy_rate_for(eps, delta, others)
    return {"rate": f"{r.numerator}/{r.denominator}"}


def h_binomial_sf(args: dict[str, Any]) -> dict[str, Any]:
    return {"sf": _pub(privacy.binomial_sf(_int(args, "n"), exact(args["rate"], "rate"),
                                           _int(args, "t")))}


def h_dummy_margin(args: dict[str, Any]) -> dict[str, Any]:
    d, tail = privacy.dummy_margin(exact(args["rate"], "rate"), _int(args, "population"),
                                   exact(args["tail"], "tail"))
    return {"d": d, "tail": _pub(tail)}


def h_publish(args: dict[str, Any]) -> dict[str, Any]:
    return {"published": privacy.publish(_real(args, "x"), _int(args, "digits"))}


HANDLERS: dict[str, Handler] = {
    "sa2p.eps0_up": h_eps0_up,
    "sa2p.check_applicable": h_check,
    "sa2p.shuffle_statement": h_shuffle,
    "sa2p.gaussian_statement": h_gaussian,
    "sa2p.sa2_model": h_sa2_model,
    "sa2p.fixed_size_model": h_fixed_size,
    "sa2p.poisson_shortfall": h_shortfall,
    "sa2p.donation_time": h_donation,
    "sa2p.gaussian_steps": h_gaussian_steps,
    "sa2p.dummy_rate_paper": h_dummy_rate_paper,
    "sa2p.dummy_count_delta": h_dummy_delta,
    "sa2p.dummy_rate_for": h_dummy_rate_for,
    "sa2p.binomial_sf": h_binomial_sf,
    "sa2p.dummy_margin": h_dummy_margin,
    "sa2p.publish": h_publish,
}


def _close(want: str, got: Any, rel: mpmath.mpf) -> bool:
    if not isinstance(got, str):
        return False
    if want == "inf" or got == "inf":
        return want == got
    with mpmath.workdps(privacy.DPS):
        try:
            w, g = mpmath.mpf(want), mpmath.mpf(got)
        except (ValueError, TypeError):
            return False
        if not mpmath.isfinite(g):
            return False
        return bool(abs(w - g) <= rel * abs(w) + mpmath.mpf(10) ** -40)


def publish_real(x: mpmath.mpf) -> str:
    """A real output: rounded up to :data:`DIGITS` significant digits (:func:`privacy.publish`)."""
    return privacy.publish(x, DIGITS)


def compare_outputs(want: dict[str, Any], got: Any, is_real: Callable[[str], bool],
                    rel: mpmath.mpf) -> str | None:
    """None if ``got`` matches ``want``: keys with ``is_real`` (strings or lists of strings)
    within relative ``rel``, every other key exactly."""
    def check(k: str, w: Any, g: Any) -> str | None:
        if is_real(k) and isinstance(w, (str, list)):
            ws, gs = (w, g) if isinstance(w, list) else ([w], [g])
            if not isinstance(gs, list) or len(gs) != len(ws) or not all(
                    _close(a, b, rel) for a, b in zip(ws, gs, strict=True)):
                return f"{k}: {g!r} is not within {rel} of {w!r}"
        elif g != w:
            return f"{k}: expected {w!r}, got {g!r}"
        return None

    return compare_keys(want, got, check)


# -- the vectors ------------------------------------------------------------------------------------
LDP = ("binary_randomized_response", "randomized_response", "rappor")


def _groups() -> list[dict[str, Any]]:
    groups = Groups(HANDLERS)
    group = groups.add

    group("sa2p.publish", [
        ("rounded up to 6 digits", {"x": "0.1234561", "digits": 6}),
        ("already 6 digits: unchanged", {"x": "0.123456", "digits": 6}),
        ("rounded up to 3 digits", {"x": "2.0001", "digits": 3}),
        ("infinity", {"x": "inf", "digits": 6})])

    group("sa2p.eps0_up", [
        ("ln 3 rounded up to 12 digits", {"eps0": "1.0986122886681098"}),
        ("exactly 12 digits: unchanged", {"eps0": "0.5"}),
        ("13th digit 1 rounds up", {"eps0": "1.0000000000001"})])

    valid = []
    for acc, rands in privacy.ACCOUNTANTS.items():
        for r in rands.applies_to:
            valid.append((f"{acc} is proven for {r}", {"accountant": acc, "randomizer": r}))
    group("sa2p.check_applicable", valid, [
        ("unknown accountant", {"accountant": "shuffle-fmt99", "randomizer": LDP[0]},
         "UnknownAccountant"),
        ("fmt22 is not proven for k-ary randomized response",
         {"accountant": "shuffle-fmt22", "randomizer": "randomized_response"}, "NotApplicable"),
        ("rappor-clone is not proven for binary randomized response",
         {"accountant": "rappor-clone", "randomizer": LDP[0]}, "NotApplicable"),
        ("shuffle bounds do not apply to the Gaussian vector randomizer",
         {"accountant": "shuffle-closed-form", "randomizer": "gaussian_vector"},
         "NotApplicable"),
        ("the Gaussian accountant does not apply to RAPPOR",
         {"accountant": "subsampled-gaussian", "randomizer": "rappor"}, "NotApplicable")])

    sh = {"accountant": "shuffle-closed-form", "randomizer": LDP[0], "eps0": "1",
          "B": 1000, "delta": "1/1000000"}
    group("sa2p.shuffle_statement", [
        ("closed form, condition holds (eps0 = 1, B = 1000)", sh),
        ("closed form, condition fails (eps0 = 4, B = 100): numerical fallback",
         {**sh, "eps0": "4", "B": 100}),
        ("fmt20 numerical bound", {**sh, "accountant": "shuffle-fmt20", "B": 200}),
        ("fmt22 numerical bound", {**sh, "accountant": "shuffle-fmt22", "B": 200}),
        ("rappor clone bound with per-bit epsilon 1/2",
         {**sh, "accountant": "rappor-clone", "randomizer": "rappor", "eps0": "1",
          "rapporBitEps": "0.5", "B": 500}),
        ("B = 1: the local guarantee", {**sh, "B": 1}),
        ("B = 2: the smallest shuffled cohort", {**sh, "accountant": "shuffle-fmt20", "B": 2})],
        [("delta = 0", {**sh, "delta": "0"}, "BadDelta"),
         ("delta = 1", {**sh, "delta": "1"}, "BadDelta"),
         ("delta > 1", {**sh, "delta": "3/2"}, "BadDelta"),
         ("B = 0", {**sh, "B": 0}, "BadCohortSize"),
         ("rappor-clone without the per-bit epsilon",
          {**sh, "accountant": "rappor-clone", "randomizer": "rappor"}, "MissingBitEps"),
         ("accountant not proven for the randomizer",
          {**sh, "accountant": "shuffle-fmt22", "randomizer": "rappor"}, "NotApplicable")])

    g = {"sigma": "2", "sensitivity": "1", "delta": "1/100000"}
    group("sa2p.gaussian_statement", [
        ("sigma = 2, sensitivity 1, delta 1e-5", g),
        ("sigma = 10, sensitivity 3", {**g, "sigma": "10", "sensitivity": "3"}),
        ("sigma = 1/2, delta = 1/10", {**g, "sigma": "1/2", "delta": "1/10"})],
        [("delta > 1", {**g, "delta": "2"}, "BadDelta")])

    group("sa2p.sa2_model", [
        ("eps = 1, delta = 1e-6, q = 1/100", {"epsilon": "1", "delta": "1e-6", "q": "1/100"}),
        ("q = 1/2", {"epsilon": "0.5", "delta": "1e-8", "q": "1/2"}),
        ("q = 1: unchanged", {"epsilon": "1.5", "delta": "1e-6", "q": "1"}),
        ("q = 0: epsilon 0, delta 0", {"epsilon": "1.5", "delta": "1e-6", "q": "0"}),
        ("eps = inf: unchanged", {"epsilon": "inf", "delta": "0", "q": "1/2"})],
        [("q > 1", {"epsilon": "1", "delta": "0", "q": "2"}, "BadRate"),
         ("q < 0", {"epsilon": "1", "delta": "0", "q": "-1/2"}, "BadRate")])

    group("sa2p.fixed_size_model", [
        ("B = 10 of N = 1000", {"epsilon": "1", "delta": "1e-6", "B": 10, "population": 1000}),
        ("B = N: unchanged", {"epsilon": "0.7", "delta": "1e-6", "B": 50, "population": 50}),
        ("B = 1 of N = 3", {"epsilon": "3", "delta": "1e-3", "B": 1, "population": 3}),
        ("eps = inf: unchanged", {"epsilon": "inf", "delta": "0", "B": 1, "population": 2})],
        [("B > N", {"epsilon": "1", "delta": "0", "B": 5, "population": 4}, "BadSample")])

    group("sa2p.poisson_shortfall", [
        ("q = 1/10, k = 1000, B = 80: lower tail", {"q": "1/10", "k": 1000, "B": 80}),
        ("q = 1/10, k = 1000, B = 120: above the mean", {"q": "1/10", "k": 1000, "B": 120}),
        ("B = 0: never short", {"q": "1/2", "k": 10, "B": 0}),
        ("B > k: always short", {"q": "1/2", "k": 10, "B": 11}),
        ("q = 1, B = k: never short", {"q": "1", "k": 10, "B": 10}),
        ("q = 0: always short", {"q": "0", "k": 10, "B": 1})])

    dt = {"eps": "1", "delta": "1/1000000", "m": 4}
    group("sa2p.donation_time", [
        ("eps = 1, delta = 1e-6, m = 4", dt),
        ("m = 1", {**dt, "m": 1}),
        ("m = 32, eps = 1/2", {**dt, "m": 32, "eps": "1/2"})],
        [("m = 0", {**dt, "m": 0}, "BadM")])

    gs = {"q": "1/100", "noiseMultiplier": "1", "steps": 100, "delta": "1/100000"}
    group("sa2p.gaussian_steps", [
        ("q = 0.01, sigma/C = 1, 100 steps", gs),
        ("q = 1: no amplification, 10 steps", {**gs, "q": "1", "steps": 10,
                                                "noiseMultiplier": "4"}),
        ("one step", {**gs, "steps": 1})])

    group("sa2p.dummy_rate_paper", [
        ("eps = 1, k = 1000", {"epsilon": "1", "k": 1000}),
        ("eps = 1/2, k = 3", {"epsilon": "1/2", "k": 3}),
        ("eps k < 1: capped at 1", {"epsilon": "1/10", "k": 5}),
        ("eps k = 1: exactly 1", {"epsilon": "1/4", "k": 4})],
        [("eps = 0", {"epsilon": "0", "k": 10}, "BadParameter"),
         ("k = 0", {"epsilon": "1", "k": 0}, "BadParameter"),
         ("eps < 0", {"epsilon": "-1", "k": 10}, "BadParameter")])

    dd = {"eps": "1", "rate": "1/100", "others": 1000}
    group("sa2p.dummy_count_delta", [
        ("eps = 1, q' = 1/100, 1000 others", dd),
        ("eps = 1/2, q' = 1/10, 50 others", {"eps": "1/2", "rate": "1/10", "others": 50}),
        ("eps = 2, q' = 1/2, 7 others", {"eps": "2", "rate": "1/2", "others": 7}),
        ("no other devices", {**dd, "others": 0}),
        ("q' = 0: delta 1", {**dd, "rate": "0"}),
        ("q' = 1: delta 0", {**dd, "rate": "1"}),
        ("eps = 0: total variation", {**dd, "eps": "0", "others": 20}),
        ("large q' = 9/10, 5 others", {"eps": "1", "rate": "9/10", "others": 5})],
        [("others < 0", {**dd, "others": -1}, "BadParameter"),
         ("q' > 1", {**dd, "rate": "2"}, "BadRate")])

    group("sa2p.dummy_rate_for", [
        ("eps = 1, delta = 1e-3, 200 others, denominator 1000",
         {"eps": "1", "delta": "1/1000", "others": 200, "denominator": 1000}),
        ("eps = 1/2, delta = 1e-2, 50 others, denominator 100",
         {"eps": "1/2", "delta": "1/100", "others": 50, "denominator": 100})],
        [("delta > 1", {"eps": "1", "delta": "2", "others": 10, "denominator": 10},
          "BadRate")])

    group("sa2p.binomial_sf", [
        ("upper tail: n = 100, rate 1/10, t = 20", {"n": 100, "rate": "1/10", "t": 20}),
        ("lower side: n = 100, rate 1/10, t = 5", {"n": 100, "rate": "1/10", "t": 5}),
        ("t = mean exactly (n p = t, lower-tail branch)", {"n": 100, "rate": "1/10", "t": 10}),
        ("t = n", {"n": 30, "rate": "1/3", "t": 30}),
        ("t = 0: 1", {"n": 30, "rate": "1/3", "t": 0}),
        ("t = 1", {"n": 30, "rate": "1/3", "t": 1}),
        ("t > n: 0", {"n": 30, "rate": "1/3", "t": 31}),
        ("rate 0: 0", {"n": 30, "rate": "0", "t": 2}),
        ("rate 1: 1", {"n": 30, "rate": "1", "t": 2}),
        ("far upper tail: n = 1000, rate 1/1000, t = 12", {"n": 1000, "rate": "1/1000",
                                                            "t": 12}),
        ("deep lower tail: n = 2000, rate 9/10, t = 1780", {"n": 2000, "rate": "9/10",
                                                             "t": 1780})])

    group("sa2p.dummy_margin", [
        ("rate 1/100, N = 1000, tail 1e-6", {"rate": "1/100", "population": 1000,
                                            "tail": "1/1000000"}),
        ("rate 1/2, N = 20, tail 1/10", {"rate": "1/2", "population": 20, "tail": "1/10"}),
        ("rate 0: d = 0", {"rate": "0", "population": 20, "tail": "1/10"}),
        ("tail 0: d = N", {"rate": "1/3", "population": 10, "tail": "0"})])

    # -- appended groups (boundaries of every check, ties) ----------------------------------------
    group("sa2p.shuffle_statement", [], [
        ("delta = 0 with B = 1 (checked before the B = 1 shortcut)",
         {**sh, "B": 1, "delta": "0"}, "BadDelta"),
        ("delta = 1 with B = 1", {**sh, "B": 1, "delta": "1"}, "BadDelta")])

    group("sa2p.dummy_rate_paper", [
        ("k = 1, eps = 2", {"epsilon": "2", "k": 1}),
        ("k = 1, eps = 1/2: capped at 1", {"epsilon": "1/2", "k": 1})],
        [("eps = -1/2", {"epsilon": "-1/2", "k": 10}, "BadParameter"),
         ("k = -1", {"epsilon": "1", "k": -1}, "BadParameter")])

    group("sa2p.dummy_count_delta", [
        ("eps = 1/10, q' = 1/10, 10 others: D(P||Q) is the larger",
         {"eps": "1/10", "rate": "1/10", "others": 10}),
        ("eps = 1/10, q' = 3/4, 2 others", {"eps": "1/10", "rate": "3/4", "others": 2})])

    group("sa2p.dummy_rate_for", [
        ("the default denominator 10^9: eps = 1, delta = 1e-3, 20 others",
         {"eps": "1", "delta": "1/1000", "others": 20}),
        ("exact tie: no other device, eps = 0, delta(q' = 1/2) = 1/2 = delta",
         {"eps": "0", "delta": "1/2", "others": 0, "denominator": 4}),
        ("the smallest j = 1: no other device, eps = 0, delta = 3/4",
         {"eps": "0", "delta": "3/4", "others": 0, "denominator": 4}),
        ("delta = 1: j = 1 (q' = 0 is not tried)",
         {"eps": "0", "delta": "1", "others": 0, "denominator": 4})])

    group("sa2p.dummy_margin", [
        ("exact tie: rate 1/2, N = 4, tail 1/16 = Pr[Bin > 3]",
         {"rate": "1/2", "population": 4, "tail": "1/16"}),
        ("rate 1/2, N = 1, tail 1/2", {"rate": "1/2", "population": 1, "tail": "1/2"})])
    return groups.groups


class Sa2PrivacyFamily(Family):
    name = "sa2-privacy"
    summary = "SA2 privacy statements (accountants, SA2 model, fixed size, donation time, dummies)"

    def handlers(self) -> dict[str, Handler]:
        return dict(HANDLERS)

    def schemas(self) -> dict[str, dict[str, Any]]:
        anyarg: dict[str, Any] = {"anyOf": [DEC, RAT, COUNT, {"type": "string"},
                                            {"type": "integer"}]}
        names = ["x", "digits", "eps0", "accountant", "randomizer", "B", "delta", "rapporBitEps",
                 "sigma", "sensitivity", "epsilon", "q", "population", "k", "eps", "m",
                 "noiseMultiplier", "steps", "rate", "others", "denominator", "n", "t", "tail"]
        args = {"properties": {n: anyarg for n in names}}
        outs: dict[str, dict[str, Any]] = {
            "sa2p.publish": {"type": "object", "properties": {"published": _REAL}},
            "sa2p.eps0_up": {"type": "object", "properties": {"eps0Up": RAT}},
            "sa2p.check_applicable": {"type": "object",
                                      "properties": {"applicable": {"const": True}}},
            "sa2p.shuffle_statement": _STATEMENT_OUT,
            "sa2p.gaussian_statement": _STATEMENT_OUT,
            "sa2p.sa2_model": _STATEMENT_OUT,
            "sa2p.fixed_size_model": _STATEMENT_OUT,
            "sa2p.poisson_shortfall": {"type": "object", "properties": {"probability": _REAL}},
            "sa2p.donation_time": {"type": "object",
                                   "properties": {"epsilon": _REAL, "delta": _REAL}},
            "sa2p.gaussian_steps": {"type": "object", "properties": {"epsilon": _REAL}},
            "sa2p.dummy_rate_paper": {"type": "object", "properties": {"rate": RAT}},
            "sa2p.dummy_count_delta": {"type": "object", "properties": {
                "model": {"type": "string"}, "bound": {"type": "string"}, "delta": _REAL}},
            "sa2p.dummy_rate_for": {"type": "object", "properties": {"rate": RAT}},
            "sa2p.binomial_sf": {"type": "object", "properties": {"sf": _REAL}},
            "sa2p.dummy_margin": {"type": "object", "properties": {"d": COUNT, "tail": _REAL}},
        }
        return {SCHEMA: family_schema(SCHEMA, "SA2 privacy statements",
                                      {op: (args, out) for op, out in outs.items()})}

    def compare(self, case: Case, provided: dict[str, Any]) -> str | None:
        assert case.expected is not None
        rel = SHUFFLE_REL_TOL if case.op == "sa2p.shuffle_statement" else REL_TOL
        return compare_outputs(case.expected, provided, lambda k: k in REALS, rel)

    def files(self) -> list[VectorFile]:
        return [self.vector_file(
            "sa2-privacy/statements.json", algorithm="SA2-privacy-statements", schema=SCHEMA,
            header=HEADER,
            notes={
                "UnknownAccountant": "The accountant is not one of the five named ones.",
                "NotApplicable": "The accountant is not proven for the randomizer.",
                "BadDelta": "delta must lie in (0, 1) (a rational in [0, 1] for gaussian).",
                "BadCohortSize": "B must be an integer >= 1.",
                "MissingBitEps": "rappor-clone needs rapporBitEps = ln((1 - f)/f).",
                "BadRate": "A rate or probability must be an exact rational in [0, 1].",
                "BadSample": "B must not exceed the population N.",
                "BadM": "m must be an integer >= 1.",
                "BadParameter": "epsilon > 0, k >= 1 and others >= 0 are required.",
            },
            groups=_groups())]


FAMILY = Sa2PrivacyFamily()
