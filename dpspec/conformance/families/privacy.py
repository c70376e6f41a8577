"""Vector family ``privacy``: the ops privacy accountants answer natively, judged by privacy verdicts.

The ``accounting`` family reproduces this project's tables; this one asks what the accountants
and calibrators of DP libraries are built to answer, one question per op, so that a library that
implements one bound is not judged on four:

* one op per composition bound: ``basic_composition`` ([DR14] Thm 3.16), ``advanced_composition``
  ([DRV10]), ``kov_composition`` ([KOV15] Thm 3.5), and the exact optimum
  ``optimal_composition_delta`` / ``optimal_composition_epsilon`` ([KOV15] Thm 3.3);
* ``gaussian_kfold_delta``: the exact delta of k Gaussian mechanisms (k-fold composition of
  N(0, sigma^2) noise at L2 sensitivity S is one Gaussian mechanism at sensitivity S sqrt(k),
  [DRS22] Cor. 3.3);
* ``subsampled_gaussian_epsilon``: epsilon of ``steps`` Poisson-subsampled Gaussian steps by the
  method named: RDP at the given ``orders`` ([MTZ19]) with the named ``conversion`` (``sa2``: SA2
  Thm 1 = [CKS20] Prop. 12; ``mironov``: [Mir17] Prop. 3); ``sampled_gaussian_rdp_curve``: the
  RDP curve at given orders (fractional orders included);
* ``subsampled_gaussian_optimal_epsilon`` / ``_delta``: the *optimal* eps(delta) (delta(eps)) of
  ``steps`` Poisson-subsampled Gaussian steps (add/remove neighbours), the value a PLD or PRV
  accountant estimates. The truth is a certified interval (:mod:`dpspec.spec.accounting.pld`);
  an answer below its lower end is UNSAFE, one inside EXACT, one above CONSERVATIVE (the
  looseness stated over the upper end, so at least that much);
* the discrete mechanisms' privacy maps: ``discrete_laplace_epsilon`` / ``discrete_laplace_scale``
  (pure DP, exact) and ``discrete_gaussian_rho`` (zCDP, [CKS20] Thm 4, exact at integer shifts);
* calibrations for libraries that only calibrate inside their samplers:
  ``gaussian_mechanism_sigma`` (eps, delta, sensitivity -> the sigma the sampler uses) and
  ``laplace_mechanism_scale`` (eps, sensitivity -> the scale).

Every answer is judged by :mod:`dpspec.conformance.verdicts` (UNSAFE / EXACT / CONSERVATIVE); the
vectors' outputs are this project's values, rounded up (conservatively) to 20 significant digits.
The grid includes extremes (delta down to 1e-16, eps up to 20).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import mpmath

from dpspec.conformance import verdicts
from dpspec.conformance.jsonargs import any_value_ops
from dpspec.conformance.vectors import (
    Case,
    Family,
    Handler,
    TestNumberer,
    VectorFile,
    envelope,
    family_schema,
    test_entry,
)
from dpspec.spec.accounting import (
    composition,
    definitions,
    discrete,
    gaussian,
    laplace,
    pld,
    subsampling,
)
from dpspec.spec.accounting.numeric import DPS, compact, mpf, positive_int, round_up

SCHEMA = "privacy-v1.json"
CONVERSIONS = ("sa2", "mironov")


def _up(x: mpmath.mpf, digits: int = 20) -> str:
    """``x`` rounded up to ``digits`` significant digits, in the shortest exact notation (a delta
    of 1e-2000 is written with an exponent, not as 2000 decimals)."""
    return compact(round_up(x, digits))


def _vec(a: Mapping[str, Any]) -> tuple[int, ...]:
    v = a["vector"]
    if not isinstance(v, list) or not all(isinstance(x, int) and not isinstance(x, bool) for x in v):
        raise ValueError("vector must be a list of integers")
    return tuple(v)


def _orders(a: Mapping[str, Any]) -> list[Any]:
    orders = a["orders"]
    if not isinstance(orders, list) or not orders:
        raise ValueError("orders must be a non-empty list")
    for o in orders:
        if not mpf(o, "order") > 1:
            raise ValueError("every order must be > 1")
    return orders


# -- truths (also the reference handlers' values) ---------------------------------------------
def t_basic(a: Mapping[str, Any]) -> tuple[mpmath.mpf, mpmath.mpf]:
    k = positive_int(a["k"], "k")
    return composition.basic_composition([(a["eps"], a["delta"])] * k)


def t_advanced(a: Mapping[str, Any]) -> tuple[mpmath.mpf, mpmath.mpf]:
    return composition.advanced_composition(a["eps"], a["delta"], a["k"], a["deltaSlack"])


def t_kov(a: Mapping[str, Any]) -> tuple[mpmath.mpf, mpmath.mpf]:
    return composition.kov_composition(a["eps"], a["delta"], a["k"], a["deltaSlack"])


def t_opt_delta(a: Mapping[str, Any]) -> mpmath.mpf:
    return composition.optimal_composition_delta(a["eps"], a["delta"], a["k"], a["epsTotal"])


def t_opt_eps(a: Mapping[str, Any]) -> mpmath.mpf:
    return composition.optimal_composition_epsilon(a["eps"], a["delta"], a["k"], a["deltaTotal"])


def t_kfold(a: Mapping[str, Any]) -> mpmath.mpf:
    k = positive_int(a["k"], "k")
    with mpmath.workdps(DPS):
        return gaussian.gaussian_delta(a["eps"], a["sigma"],
                                       mpf(a["sensitivity"], "sensitivity") * mpmath.sqrt(k))


def t_subsampled(a: Mapping[str, Any]) -> mpmath.mpf:
    conversion = a["conversion"]
    if conversion not in CONVERSIONS:
        raise ValueError(f"conversion must be one of {CONVERSIONS}")
    steps = positive_int(a["steps"], "steps")
    q, sigma = a["q"], a["sigma"]

    def curve(alpha: mpmath.mpf) -> mpmath.mpf:
        return composition.rdp_composition([subsampling.sampled_gaussian_rdp(q, sigma, alpha)]
                                           * steps)

    eps, _ = definitions.rdp_curve_to_dp(curve, a["delta"], _orders(a),
                                         improved=conversion == "sa2")
    return eps


def t_curve(a: Mapping[str, Any]) -> list[mpmath.mpf]:
    return [subsampling.sampled_gaussian_rdp(a["q"], a["sigma"], o) for o in _orders(a)]


def t_dlap_eps(a: Mapping[str, Any]) -> mpmath.mpf:
    return discrete.discrete_laplace_epsilon(a["scale"], a["sensitivity"])


def t_dg_rho(a: Mapping[str, Any]) -> mpmath.mpf:
    return discrete.discrete_gaussian_zcdp(a["sigma"], _vec(a))


#: significant digits of the published ends of a certified interval (lower rounded down, upper up)
INTERVAL_DIGITS = 12


def _directed(x: Fraction | None, up: bool) -> str:
    return pld.decimal_bound(x, INTERVAL_DIGITS, up=up)


def _pld_args(a: Mapping[str, Any]) -> tuple[Any, Any, int]:
    return a["q"], a["sigma"], positive_int(a["steps"], "steps")


def t_pld_eps(a: Mapping[str, Any]) -> tuple[Fraction, Fraction | None]:
    q, sigma, steps = _pld_args(a)
    return pld.epsilon_bounds(q, sigma, steps, a["delta"])


#: grid resolution of the delta op (a delta interval is wider, relatively, than an eps one: delta
#: falls steeply in eps), twice the default
DELTA_RESOLUTION = 2 * pld.RESOLUTION


def t_pld_delta(a: Mapping[str, Any]) -> tuple[Fraction, Fraction]:
    q, sigma, steps = _pld_args(a)
    return pld.delta_bounds(q, sigma, steps, a["eps"], resolution=DELTA_RESOLUTION)


def _interval(bounds: tuple[Fraction, Fraction | None]) -> dict[str, str]:
    return {"lower": _directed(bounds[0], False), "upper": _directed(bounds[1], True)}


def _fractional(a: Mapping[str, Any]) -> bool:
    return any(mpf(o) != int(mpf(o)) for o in a["orders"])


# -- reference handlers -----------------------------------------------------------------------
def _pair(x: tuple[mpmath.mpf, mpmath.mpf]) -> dict[str, Any]:
    return {"eps": _up(x[0]), "delta": _up(x[1])}


def h_gauss_sigma(a: dict[str, Any]) -> dict[str, Any]:
    cal = gaussian.calibrate_gaussian_sigma(a["eps"], a["delta"], a["sensitivity"], digits=20)
    return {"sigma": cal.sigma}


def h_laplace_scale(a: dict[str, Any]) -> dict[str, Any]:
    return {"scale": _up(laplace.laplace_scale(a["eps"], a["sensitivity"]))}


def h_dlap_scale(a: dict[str, Any]) -> dict[str, Any]:
    if isinstance(a["sensitivity"], bool) or not isinstance(a["sensitivity"], int):
        raise TypeError("sensitivity must be an integer")
    return {"scale": _up(discrete.discrete_laplace_scale(a["eps"], a["sensitivity"]))}


HANDLERS: dict[str, Handler] = {
    "privacy.basic_composition": lambda a: _pair(t_basic(a)),
    "privacy.advanced_composition": lambda a: _pair(t_advanced(a)),
    "privacy.kov_composition": lambda a: _pair(t_kov(a)),
    "privacy.optimal_composition_delta": lambda a: {"delta": _up(t_opt_delta(a))},
    "privacy.optimal_composition_epsilon": lambda a: {"eps": _up(t_opt_eps(a))},
    "privacy.gaussian_kfold_delta": lambda a: {"delta": _up(t_kfold(a))},
    "privacy.subsampled_gaussian_epsilon": lambda a: {"eps": _up(t_subsampled(a), 13)},
    "privacy.sampled_gaussian_rdp_curve": lambda a: {"rdp": [_up(r, 13) for r in t_curve(a)]},
    "privacy.subsampled_gaussian_optimal_epsilon": lambda a: {"eps": _interval(t_pld_eps(a))},
    "privacy.subsampled_gaussian_optimal_delta": lambda a: {"delta": _interval(t_pld_delta(a))},
    "privacy.discrete_laplace_epsilon": lambda a: {"eps": _up(t_dlap_eps(a))},
    "privacy.discrete_laplace_scale": h_dlap_scale,
    "privacy.discrete_gaussian_rho": lambda a: {"rho": _up(t_dg_rho(a))},
    "privacy.gaussian_mechanism_sigma": h_gauss_sigma,
    "privacy.laplace_mechanism_scale": h_laplace_scale,
}


# -- privacy verdict rules --------------------------------------------------------------------
Got = Mapping[str, Any]
Exp = Mapping[str, Any] | None


def _pair_rule(truth: Any, basis: str) -> verdicts.Rule:
    """A composition bound's (eps', delta') is judged by the optimal composition (true privacy);
    ``truth`` (the named bound) only checks the arguments."""
    def rule(a: Got, got: Got, exp: Exp) -> list[verdicts.Verdict]:
        verdicts.memo(f"{truth.__name__}:", a, lambda: truth(a))
        return [verdicts.judge_composition(got, a["eps"], a["delta"], positive_int(a["k"], "k"),
                                           basis)]
    return rule


def _one(key: str, truth: Any, basis: str = "exact") -> verdicts.Rule:
    def rule(a: Got, got: Got, exp: Exp) -> list[verdicts.Verdict]:
        value = verdicts.memo(f"{truth.__name__}:", a, lambda: truth(a))
        return [verdicts.judge_privacy(key, key, got[key], value, basis)]
    return rule


def _fmt(x: mpmath.mpf) -> str:
    return "inf" if mpmath.isinf(x) else str(mpmath.nstr(x, 12, min_fixed=-4, max_fixed=12))


def judge_bracket(output: str, measure: str, answer: Any, lower: mpmath.mpf, upper: mpmath.mpf,
                  basis: str) -> verdicts.Verdict:
    """A claimed privacy parameter (a number or ``{"lower", "upper"}``) against a truth known to
    lie in the certified interval ``[lower, upper]``: UNSAFE when the answer (its upper end) is
    below ``lower``, WRONG when an interval answer lies above ``upper``, CONSERVATIVE when a
    number is above ``upper`` (looseness over ``upper``: the true looseness is at least that),
    EXACT otherwise (the reported width is the certified interval's, or the answer's)."""
    tol = verdicts.PRIVACY_REL
    truth = f"in [{_fmt(lower)}, {_fmt(upper)}]"
    cert_width = (upper - lower) / upper if upper > 0 else upper - lower

    def ratio(claim: mpmath.mpf) -> str:
        if claim > 0:
            return _fmt(lower / claim)
        return "1" if lower == 0 and claim == 0 else "inf"

    with mpmath.workdps(DPS):
        if isinstance(answer, dict):
            lo, hi = verdicts.number(answer["lower"]), verdicts.number(answer["upper"])
            if lo > hi:
                raise ValueError(f"{output}: lower {answer['lower']} is above upper "
                                 f"{answer['upper']}")
            width = (hi - lo) / upper if upper > 0 else hi - lo
            if hi < lower * (1 - tol):
                return verdicts.Verdict(verdicts.UNSAFE, output, measure, truth, _fmt(hi),
                                        ratio(hi), "0", _fmt(width), basis)
            if lo > upper * (1 + tol):
                return verdicts.Verdict(verdicts.WRONG, output, measure, truth, _fmt(lo),
                                        ratio(lo), "0", _fmt(width), basis)
            return verdicts.Verdict(verdicts.EXACT, output, measure, truth, _fmt(hi), ratio(hi),
                                    "0", _fmt(width), basis)
        x = verdicts.number(answer)
        if x < lower * (1 - tol):
            return verdicts.Verdict(verdicts.UNSAFE, output, measure, truth, _fmt(x), ratio(x),
                                    "0", basis=basis)
        if x <= upper * (1 + tol):
            return verdicts.Verdict(verdicts.EXACT, output, measure, truth, _fmt(x), ratio(x),
                                    "0", _fmt(cert_width), basis)
        slack = x / upper - 1 if upper > 0 else mpmath.inf
        return verdicts.Verdict(verdicts.CONSERVATIVE, output, measure, truth, _fmt(x),
                                ratio(x), _fmt(slack), basis=basis)


def _pld_rule(key: str, truth: Any) -> verdicts.Rule:
    """The certified interval from the vector (its published, outward-rounded ends) or, in sweep
    mode, computed (once per argument set)."""
    def rule(a: Got, got: Got, exp: Exp) -> list[verdicts.Verdict]:
        given = exp.get(key) if exp is not None else None
        if isinstance(given, dict):
            lower, upper = verdicts.number(given["lower"]), verdicts.number(given["upper"])
        else:
            bounds = verdicts.memo(f"{truth.__name__}:", a, lambda: truth(a))
            lower = mpf(_directed(bounds[0], False))
            upper = verdicts.number(_directed(bounds[1], True))
        return [judge_bracket(key, key, got[key], lower, upper,
                              "optimal (PLD), certified interval of dpspec.spec.accounting.pld")]
    return rule


def r_curve(a: Got, got: Got, exp: Exp) -> list[verdicts.Verdict]:
    answer = got["rdp"]
    truth = t_curve(a)
    if not isinstance(answer, list) or len(answer) != len(truth):
        raise ValueError(f"rdp must be a list of {len(truth)} values")
    return [verdicts.judge_privacy(f"rdp[{i}]", "rdp", x, t) for i, (x, t)
            in enumerate(zip(answer, truth, strict=True))]


def r_gauss_sigma(a: Got, got: Got, exp: Exp) -> list[verdicts.Verdict]:
    return verdicts.r_gaussian_sigma(a, got, exp)


def r_laplace_scale(a: Got, got: Got, exp: Exp) -> list[verdicts.Verdict]:
    return [verdicts.judge_noise("scale", "eps", verdicts.number(got["scale"]), mpf(a["eps"]),
                                 lambda b: laplace.laplace_epsilon(b, a["sensitivity"]),
                                 lambda: laplace.laplace_scale(a["eps"], a["sensitivity"]))]


def r_dlap_scale(a: Got, got: Got, exp: Exp) -> list[verdicts.Verdict]:
    return [verdicts.judge_noise("scale", "eps", verdicts.number(got["scale"]), mpf(a["eps"]),
                                 lambda t: discrete.discrete_laplace_epsilon(t, a["sensitivity"]),
                                 lambda: discrete.discrete_laplace_scale(a["eps"], a["sensitivity"]))]


for _op, _rule, _keys in (
    ("privacy.basic_composition", _pair_rule(t_basic, "basic composition [DR14] Thm 3.16"),
     ("eps", "delta")),
    ("privacy.advanced_composition", _pair_rule(t_advanced, "advanced composition [DRV10]"),
     ("eps", "delta")),
    ("privacy.kov_composition", _pair_rule(t_kov, "[KOV15] Thm 3.5"), ("eps", "delta")),
    ("privacy.optimal_composition_delta", _one("delta", t_opt_delta), ("delta",)),
    ("privacy.optimal_composition_epsilon", _one("eps", t_opt_eps), ("eps",)),
    ("privacy.gaussian_kfold_delta", _one("delta", t_kfold), ("delta",)),
    ("privacy.subsampled_gaussian_epsilon",
     _one("eps", t_subsampled, "RDP at the given orders, the named conversion"), ("eps",)),
    ("privacy.sampled_gaussian_rdp_curve", r_curve, ("rdp",)),
    ("privacy.subsampled_gaussian_optimal_epsilon", _pld_rule("eps", t_pld_eps), ("eps",)),
    ("privacy.subsampled_gaussian_optimal_delta", _pld_rule("delta", t_pld_delta), ("delta",)),
    ("privacy.discrete_laplace_epsilon", _one("eps", t_dlap_eps), ("eps",)),
    ("privacy.discrete_laplace_scale", r_dlap_scale, ("scale",)),
    ("privacy.discrete_gaussian_rho", _one("rho", t_dg_rho), ("rho",)),
    ("privacy.gaussian_mechanism_sigma", r_gauss_sigma, ("sigma",)),
    ("privacy.laplace_mechanism_scale", r_laplace_scale, ("scale",)),
):
    verdicts.register(_op, _rule, _keys)

#: op -> (argument names, output names, one-line description): for ``describe`` and the schema
OPS: dict[str, tuple[tuple[str, ...], tuple[str, ...], str]] = {
    "privacy.basic_composition": (("eps", "delta", "k"), ("eps", "delta"),
                                  "k-fold composition of (eps, delta)-DP, basic bound"),
    "privacy.advanced_composition": (("eps", "delta", "k", "deltaSlack"), ("eps", "delta"),
                                     "k-fold composition, advanced bound [DRV10]"),
    "privacy.kov_composition": (("eps", "delta", "k", "deltaSlack"), ("eps", "delta"),
                                "k-fold composition, [KOV15] Thm 3.5 bound"),
    "privacy.optimal_composition_delta": (("eps", "delta", "k", "epsTotal"), ("delta",),
                                          "exact delta of k-fold composition at epsTotal"),
    "privacy.optimal_composition_epsilon": (("eps", "delta", "k", "deltaTotal"), ("eps",),
                                            "exact eps of k-fold composition at deltaTotal"),
    "privacy.gaussian_kfold_delta": (("eps", "sigma", "sensitivity", "k"), ("delta",),
                                     "exact delta(eps) of k Gaussian mechanisms"),
    "privacy.subsampled_gaussian_epsilon": (
        ("q", "sigma", "steps", "delta", "orders", "conversion"), ("eps",),
        "eps of `steps` Poisson-subsampled Gaussian steps (noise multiplier sigma), RDP at "
        "`orders`, conversion sa2 or mironov"),
    "privacy.sampled_gaussian_rdp_curve": (("q", "sigma", "orders"), ("rdp",),
                                           "RDP of one subsampled Gaussian step at each order"),
    "privacy.subsampled_gaussian_optimal_epsilon": (
        ("q", "sigma", "steps", "delta"), ("eps",),
        "optimal eps(delta) of `steps` Poisson-subsampled Gaussian steps (noise multiplier sigma, "
        "add/remove), the PLD value; the truth is a certified interval"),
    "privacy.subsampled_gaussian_optimal_delta": (
        ("q", "sigma", "steps", "eps"), ("delta",),
        "optimal delta(eps) of `steps` Poisson-subsampled Gaussian steps, the PLD value; the "
        "truth is a certified interval"),
    "privacy.discrete_laplace_epsilon": (("scale", "sensitivity"), ("eps",),
                                         "pure eps of discrete Laplace noise (L1 sensitivity)"),
    "privacy.discrete_laplace_scale": (("eps", "sensitivity"), ("scale",),
                                       "discrete Laplace scale for pure eps"),
    "privacy.discrete_gaussian_rho": (("sigma", "vector"), ("rho",),
                                      "zCDP rho of discrete Gaussian noise, integer shift vector"),
    "privacy.gaussian_mechanism_sigma": (("eps", "delta", "sensitivity"), ("sigma",),
                                         "sigma a Gaussian mechanism uses for (eps, delta)"),
    "privacy.laplace_mechanism_scale": (("eps", "sensitivity"), ("scale",),
                                        "scale a Laplace mechanism uses for pure eps"),
}

HEADER = [
    "Ops that privacy accountants answer natively (module dpspec.conformance.families.privacy),"
    " judged by privacy verdicts: the harness recomputes the true privacy at the implementation's"
    " answer (dpspec.spec.accounting, 40 digits) and reports UNSAFE (true privacy worse than"
    " claimed: fails), EXACT (within 1e-9 relative) or CONSERVATIVE (+x %).",
    "Numbers are decimal strings (sqrt(R) allowed for an L2 sensitivity); k, steps are JSON"
    " integers; outputs here are rounded up to 20 significant digits (13 for RDP values).",
    "Privacy answers (eps, delta, rho, rdp) may be certified intervals {\"lower\", \"upper\"}.",
    "The subsampled_gaussian_optimal ops' outputs are certified intervals (dpspec.spec.accounting"
    ".pld; ends rounded outward to 12 digits) that contain the optimal value: an answer below the"
    " lower end is UNSAFE, inside EXACT, above the upper end CONSERVATIVE.",
]
NOTES = {
    "Extreme": "delta below 1e-12 or eps at least 10",
    "Seed": "the parameters of a number printed in a seed (SA2 paper)",
    "BadParameter": "an argument outside its domain; the implementation must reject it",
    "Fractional": "fractional Renyi orders",
    "Certified": "the output is a certified interval containing the optimal value",
}


class PrivacyFamily(Family):
    name = "privacy"
    summary = "ops accountants answer natively (one per bound), judged UNSAFE/EXACT/CONSERVATIVE"

    def handlers(self) -> dict[str, Handler]:
        return dict(HANDLERS)

    def schemas(self) -> dict[str, dict[str, Any]]:
        ops = any_value_ops({op: spec[0] for op, spec in OPS.items()})
        return {SCHEMA: family_schema(SCHEMA, "dpspec privacy (native accountant ops) vectors, "
                                      "version 1", ops)}

    def files(self) -> list[VectorFile]:
        return [VectorFile("privacy/privacy.json", _document(), SCHEMA)]


def _group(op: str, params: dict[str, Any], tests: list[tuple[str, dict[str, Any], list[str]]],
           tc: TestNumberer, invalid: list[tuple[str, dict[str, Any]]] | None = None
           ) -> dict[str, Any]:
    handler = HANDLERS[op]
    entries = [test_entry(tc(), comment, inputs, handler({**params, **inputs}), "valid", flags)
               for comment, inputs, flags in tests]
    for comment, inputs in invalid or []:
        try:
            handler({**params, **inputs})
        except (ValueError, TypeError, ArithmeticError, KeyError):
            pass
        else:  # pragma: no cover - generator bug
            raise RuntimeError(f"{op}: {comment} was accepted")
        entries.append(test_entry(tc(), comment, inputs, None, "invalid", ["BadParameter"]))
    return {"op": op, "params": params, "tests": entries}


def _document() -> dict[str, Any]:
    tc = TestNumberer()
    x = ["Extreme"]
    g = [
        _group("privacy.gaussian_mechanism_sigma", {}, [
            ("eps 1, delta 1e-5", {"eps": "1", "delta": "1e-5", "sensitivity": "1"}, []),
            ("eps 0.1, delta 1e-9, L2 sqrt(2)", {"eps": "0.1", "delta": "1e-9",
                                                 "sensitivity": "sqrt(2)"}, []),
            ("eps 0.001, delta 1e-3", {"eps": "0.001", "delta": "1e-3", "sensitivity": "1"}, []),
            ("eps 10, delta 1e-15", {"eps": "10", "delta": "1e-15", "sensitivity": "1"}, x),
            ("eps 20, delta 1e-16, sensitivity 3", {"eps": "20", "delta": "1e-16",
                                                    "sensitivity": "3"}, x),
            ("eps 0.5, delta 1e-14", {"eps": "0.5", "delta": "1e-14", "sensitivity": "1"}, x),
        ], tc, [("delta 0", {"eps": "1", "delta": "0", "sensitivity": "1"}),
                ("delta 1", {"eps": "1", "delta": "1", "sensitivity": "1"}),
                ("eps 0", {"eps": "0", "delta": "1e-6", "sensitivity": "1"})]),
        _group("privacy.laplace_mechanism_scale", {}, [
            ("eps 1", {"eps": "1", "sensitivity": "1"}, []),
            ("eps 0.01, sensitivity 2", {"eps": "0.01", "sensitivity": "2"}, []),
            ("eps 20", {"eps": "20", "sensitivity": "1"}, x),
        ], tc, [("eps 0", {"eps": "0", "sensitivity": "1"})]),
        _group("privacy.discrete_laplace_scale", {}, [
            ("eps 1", {"eps": "1", "sensitivity": 1}, []),
            ("eps 0.1, sensitivity 3", {"eps": "0.1", "sensitivity": 3}, []),
            ("eps 15", {"eps": "15", "sensitivity": 1}, x),
        ], tc, [("eps -1", {"eps": "-1", "sensitivity": 1})]),
        _group("privacy.discrete_laplace_epsilon", {}, [
            ("scale 2", {"scale": "2", "sensitivity": 1}, []),
            ("scale 0.05 (eps 20)", {"scale": "0.05", "sensitivity": 1}, x),
        ], tc, [("scale 0", {"scale": "0", "sensitivity": 1})]),
        _group("privacy.discrete_gaussian_rho", {}, [
            ("sigma 1", {"sigma": "1", "vector": [1]}, []),
            ("sigma 23.3903, vector (1, -1)", {"sigma": "23.3903", "vector": [1, -1]}, []),
            ("sigma 0.1, shift 3", {"sigma": "0.1", "vector": [3]}, x),
        ], tc, [("zero vector", {"sigma": "1", "vector": [0]})]),
        _group("privacy.basic_composition", {}, [
            ("k 50", {"eps": "0.1", "delta": "1e-7", "k": 50}, []),
            ("k 10 pure", {"eps": "1", "delta": "0", "k": 10}, []),
            ("eps 10, delta 1e-14, k 3", {"eps": "10", "delta": "1e-14", "k": 3}, x),
        ], tc, [("k 0", {"eps": "1", "delta": "0", "k": 0})]),
        _group("privacy.advanced_composition", {}, [
            ("k 50, slack 1e-6", {"eps": "0.1", "delta": "1e-7", "k": 50, "deltaSlack": "1e-6"}, []),
            ("k 200, slack 1e-14", {"eps": "0.05", "delta": "1e-15", "k": 200,
                                     "deltaSlack": "1e-14"}, x),
        ], tc, [("slack 0", {"eps": "0.1", "delta": "0", "k": 5, "deltaSlack": "0"})]),
        _group("privacy.kov_composition", {}, [
            ("k 50, slack 1e-6", {"eps": "0.1", "delta": "1e-7", "k": 50, "deltaSlack": "1e-6"}, []),
            ("k 200, slack 1e-14", {"eps": "0.05", "delta": "1e-15", "k": 200,
                                     "deltaSlack": "1e-14"}, x),
        ], tc, [("k 0", {"eps": "0.1", "delta": "0", "k": 0, "deltaSlack": "1e-6"})]),
        _group("privacy.optimal_composition_delta", {}, [
            ("k 50 at 2", {"eps": "0.1", "delta": "1e-7", "k": 50, "epsTotal": "2"}, []),
            ("k 10 pure at 5", {"eps": "1", "delta": "0", "k": 10, "epsTotal": "5"}, []),
            ("k 20 at 10, tiny delta", {"eps": "1", "delta": "1e-15", "k": 20, "epsTotal": "10"},
             x),
        ], tc, [("k 0", {"eps": "1", "delta": "0", "k": 0, "epsTotal": "1"})]),
        _group("privacy.optimal_composition_epsilon", {}, [
            ("k 50 at 1e-5", {"eps": "0.1", "delta": "1e-7", "k": 50, "deltaTotal": "1e-5"}, []),
            ("k 30 pure at 1e-13", {"eps": "0.5", "delta": "0", "k": 30, "deltaTotal": "1e-13"}, x),
        ], tc, [("deltaTotal 0", {"eps": "0.5", "delta": "0", "k": 3, "deltaTotal": "0"})]),
        _group("privacy.gaussian_kfold_delta", {}, [
            ("k 10, sigma 5", {"eps": "1", "sigma": "5", "sensitivity": "1", "k": 10}, []),
            ("k 100, sigma 3, eps 10", {"eps": "10", "sigma": "3", "sensitivity": "1", "k": 100},
             x),
            ("k 1000, sigma 100, eps 2", {"eps": "2", "sigma": "100", "sensitivity": "1",
                                          "k": 1000}, x),
        ], tc, [("k 0", {"eps": "1", "sigma": "1", "sensitivity": "1", "k": 0})]),
    ]
    orders = ["1.5", "2", "4", "8", "16", "32", "64"]
    g.append(_group("privacy.subsampled_gaussian_epsilon", {"orders": orders}, [
        ("SA2 Example 5, sa2 conversion", {"q": "0.02", "sigma": "5.1", "steps": 2500,
                                           "delta": "1e-8", "conversion": "sa2"}, ["Seed"]),
        ("SA2 Example 5, mironov conversion", {"q": "0.02", "sigma": "5.1", "steps": 2500,
                                               "delta": "1e-8", "conversion": "mironov"}, ["Seed"]),
        ("sigma 1.1, q 0.01, 1000 steps, delta 1e-15",
         {"q": "0.01", "sigma": "1.1", "steps": 1000, "delta": "1e-15", "conversion": "sa2"}, x),
    ], tc, [("unknown conversion", {"q": "0.01", "sigma": "1", "steps": 10, "delta": "1e-5",
                                    "conversion": "pld"})]))
    g.append(_group("privacy.sampled_gaussian_rdp_curve", {}, [
        ("q 0.01, sigma 1.1, integer orders", {"q": "0.01", "sigma": "1.1",
                                               "orders": ["2", "4", "8", "32"]}, []),
        ("q 0.3, sigma 0.8, fractional orders", {"q": "0.3", "sigma": "0.8",
                                                 "orders": ["1.5", "2.5", "10.5"]}, ["Fractional"]),
    ], tc, [("order 1", {"q": "0.1", "sigma": "1", "orders": ["1"]})]))
    sg = {"q": "0.02", "sigma": "5.1", "steps": 2500}  # SA2 Example 5
    g.append(_group("privacy.subsampled_gaussian_optimal_epsilon", {}, [
        ("SA2 Example 5 (q 1/50, sigma 5.1, 2500 steps), delta 1e-8", {**sg, "delta": "1e-8"},
         ["Seed", "Certified"]),
        ("q 0.01, sigma 1.1, 1000 steps, delta 1e-5", {"q": "0.01", "sigma": "1.1",
                                                       "steps": 1000, "delta": "1e-5"},
         ["Certified"]),
        ("SA2 Example 5 at delta 1e-15", {**sg, "delta": "1e-15"}, ["Certified", *x]),
        ("many steps: q 0.005, sigma 1.5, 10000 steps, delta 1e-6",
         {"q": "0.005", "sigma": "1.5", "steps": 10000, "delta": "1e-6"}, ["Certified"]),
        ("q 1 (no sampling): sigma 2, 10 steps, delta 1e-6",
         {"q": "1", "sigma": "2", "steps": 10, "delta": "1e-6"}, ["Certified"]),
        ("small sigma: q 0.1, sigma 0.6, 10 steps, delta 1e-5",
         {"q": "0.1", "sigma": "0.6", "steps": 10, "delta": "1e-5"}, ["Certified", *x]),
    ], tc, [("steps 0", {"q": "0.1", "sigma": "1", "steps": 0, "delta": "1e-5"}),
            ("q 0", {"q": "0", "sigma": "1", "steps": 10, "delta": "1e-5"}),
            ("delta 1", {"q": "0.1", "sigma": "1", "steps": 10, "delta": "1"}),
            ("sigma 0", {"q": "0.1", "sigma": "0", "steps": 10, "delta": "1e-5"})]))
    g.append(_group("privacy.subsampled_gaussian_optimal_delta", {}, [
        ("SA2 Example 5 at eps 1", {**sg, "eps": "1"}, ["Seed", "Certified"]),
        ("eps 0 (total variation): q 0.1, sigma 1, 50 steps",
         {"q": "0.1", "sigma": "1", "steps": 50, "eps": "0"}, ["Certified"]),
        ("heavy tail: q 0.5, sigma 0.8, 100 steps, eps 70",
         {"q": "0.5", "sigma": "0.8", "steps": 100, "eps": "70"}, ["Certified", *x]),
    ], tc, [("eps -1", {"q": "0.1", "sigma": "1", "steps": 10, "eps": "-1"}),
            ("q above 1", {"q": "1.5", "sigma": "1", "steps": 10, "eps": "1"})]))
    return envelope(algorithm="native accountant ops", family="privacy", schema=SCHEMA,
                    header=HEADER, notes=NOTES, groups=g)


def case_for(op: str, args: dict[str, Any], comment: str = "", path: str = "sweep") -> Case:
    """A harness case whose truth is computed on the fly (sweep mode)."""
    return Case(path, 0, op, args, {k: None for k in verdicts.JUDGED[op]}, "valid", comment)


FAMILY = PrivacyFamily()
