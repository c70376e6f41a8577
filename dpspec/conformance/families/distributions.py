"""Vector family ``distributions``: the exact probability mass functions the samplers must realise.

One op per function of :mod:`dpspec.spec.distributions` (discrete Laplace, discrete Gaussian and
its normalising constant, geometric, Bernoulli, binomial, Poisson, negative binomial). These are
the yardsticks of the statistical conformance mode: an implementation's sampler is judged against
these values, so an implementer first checks its own pmfs here.

The reference computes with mpmath at 50 significant decimal digits; a file publishes each value
as an *enclosure*: ``lower`` rounded toward -infinity and ``upper`` toward +infinity to
:data:`DIGITS` significant digits (both ``"0"`` for an exact zero). The Bernoulli pmf is exact and
published as a rational. ``compare`` accepts an answer (``value`` and/or ``lower``/``upper``) when
every number it gives lies in the published enclosure widened by the relative tolerance
:data:`TOLERANCE` (an exact zero must be answered by exactly zero).

The spec functions assume valid parameters; the handlers check the domains first (scale and
variance > 0, probabilities in their intervals, integer points and counts) and reject the rest.
"""

from __future__ import annotations

import re
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal, localcontext
from fractions import Fraction
from typing import Any

import mpmath

from dpspec.conformance.families._groups import Groups
from dpspec.conformance.vectors import (
    Case,
    Family,
    Handler,
    InvalidCase,
    VectorFile,
    diff_outputs,
    family_schema,
)
from dpspec.spec import distributions as dist
from dpspec.spec.accounting.numeric import round_down, round_up
from dpspec.spec.rational import format_rational, parse_int, parse_rational
from dpspec.spec.samplers.registry import SAMPLERS

SCHEMA = "distributions-v1.json"
#: significant digits of the published ends of an enclosure
DIGITS = 30
#: the computed value is within 10^-ERROR_DIGITS (relative) of the exact one; the published ends are
#: those of [v (1 - 10^-ERROR_DIGITS), v (1 + 10^-ERROR_DIGITS)], rounded outward
ERROR_DIGITS = 40
#: relative widening of the enclosure that ``compare`` allows
TOLERANCE = Decimal("1e-25")
#: the reference's working precision (decimal digits), the spec functions' default
DPS = 50

#: op -> the argument names it takes
ARGS: dict[str, tuple[str, ...]] = {
    "distributions.discrete_laplace_pmf": ("t", "x"),
    "distributions.discrete_gaussian_normaliser": ("sigma2",),
    "distributions.discrete_gaussian_pmf": ("sigma2", "x"),
    "distributions.geometric_pmf": ("p", "k"),
    "distributions.bernoulli_pmf": ("p", "k"),
    "distributions.binomial_pmf": ("n", "p", "k"),
    "distributions.poisson_pmf": ("lambda", "k"),
    "distributions.negative_binomial_pmf": ("r", "p", "k"),
    "distributions.sampler_pmf": ("sampler", "params", "x"),
}


def _known(op: str, a: dict[str, Any]) -> None:
    missing = [k for k in ARGS[op] if k not in a]
    if missing:
        raise ValueError(f"missing arguments {missing}")
    extra = sorted(set(a) - set(ARGS[op]))
    if extra:
        raise ValueError(f"unknown arguments {extra}")


def _rat(a: dict[str, Any], key: str, low: Fraction, high: Fraction | None = None, *,
         low_open: bool = False, high_open: bool = False) -> int | Fraction:
    """``a[key]`` as an exact rational in the interval given (None: unbounded above); an int
    when it is an integer (the spec functions take both)."""
    v = parse_rational(a[key], key)
    if v < low or (low_open and v == low):
        raise ValueError(f"{key} must be {'>' if low_open else '>='} {format_rational(low)}")
    if high is not None and (v > high or (high_open and v == high)):
        raise ValueError(f"{key} must be {'<' if high_open else '<='} {format_rational(high)}")
    return v.numerator if v.denominator == 1 else v


def _short(text: str) -> str:
    """A plain decimal string in its shortest exact form: trailing zeros dropped, exponent form
    ``d.ddde-N`` below 1e-5. (Exact at any length, unlike a Decimal in a 28-digit context.)"""
    with localcontext() as ctx:
        ctx.prec = 1000
        d = Decimal(text).normalize()
        if d == 0:
            return "0"
        if d.adjusted() >= -5:
            return format(d, "f")
        digits = "".join(map(str, d.as_tuple().digits))
        return digits[0] + ("." + digits[1:] if len(digits) > 1 else "") + f"e{d.adjusted()}"


def _enclosure(v: mpmath.mpf) -> dict[str, str]:
    with mpmath.workdps(DPS):
        if v < 0:  # pragma: no cover - a pmf is never negative
            raise RuntimeError("negative probability")
        err = abs(v) * mpmath.mpf(10) ** -ERROR_DIGITS
        return {"lower": _short(round_down(v - err, DIGITS)),
                "upper": _short(round_up(v + err, DIGITS))}


def h_dlap(a: dict[str, Any]) -> dict[str, Any]:
    _known("distributions.discrete_laplace_pmf", a)
    t = _rat(a, "t", Fraction(0), low_open=True)
    return _enclosure(dist.discrete_laplace_pmf(t, parse_int(a["x"], "x")))


def h_dg_norm(a: dict[str, Any]) -> dict[str, Any]:
    _known("distributions.discrete_gaussian_normaliser", a)
    s2 = _rat(a, "sigma2", Fraction(0), low_open=True)
    return _enclosure(dist.discrete_gaussian_normaliser(s2))


def h_dg(a: dict[str, Any]) -> dict[str, Any]:
    _known("distributions.discrete_gaussian_pmf", a)
    s2 = _rat(a, "sigma2", Fraction(0), low_open=True)
    return _enclosure(dist.discrete_gaussian_pmf(s2, parse_int(a["x"], "x")))


def h_geometric(a: dict[str, Any]) -> dict[str, Any]:
    _known("distributions.geometric_pmf", a)
    p = _rat(a, "p", Fraction(0), Fraction(1), low_open=True)
    return _enclosure(dist.geometric_pmf(p, parse_int(a["k"], "k")))


def h_bernoulli(a: dict[str, Any]) -> dict[str, Any]:
    _known("distributions.bernoulli_pmf", a)
    p = _rat(a, "p", Fraction(0), Fraction(1))
    return {"value": format_rational(dist.bernoulli_pmf(p, parse_int(a["k"], "k")))}


def h_binomial(a: dict[str, Any]) -> dict[str, Any]:
    _known("distributions.binomial_pmf", a)
    n = parse_int(a["n"], "n")
    if n < 0:
        raise ValueError("n must be >= 0")
    p = _rat(a, "p", Fraction(0), Fraction(1))
    return _enclosure(dist.binomial_pmf(n, p, parse_int(a["k"], "k")))


def h_poisson(a: dict[str, Any]) -> dict[str, Any]:
    _known("distributions.poisson_pmf", a)
    lam = _rat(a, "lambda", Fraction(0))
    return _enclosure(dist.poisson_pmf(lam, parse_int(a["k"], "k")))


def h_negbin(a: dict[str, Any]) -> dict[str, Any]:
    _known("distributions.negative_binomial_pmf", a)
    r = _rat(a, "r", Fraction(0), low_open=True)
    p = _rat(a, "p", Fraction(0), Fraction(1), high_open=True)
    return _enclosure(dist.negative_binomial_pmf(r, p, parse_int(a["k"], "k")))


def h_sampler(a: dict[str, Any]) -> dict[str, Any]:
    """The statistical mode's pmf of one sample of a registered sampler (its registry entry)."""
    _known("distributions.sampler_pmf", a)
    name, params, x = a["sampler"], a["params"], a["x"]
    if not isinstance(name, str) or name not in SAMPLERS:
        raise ValueError(f"unknown sampler {name!r}")
    sampler = SAMPLERS[name]
    if not isinstance(params, dict):
        raise ValueError("params must be an object")
    names = {p.name for p in sampler.params}
    if set(params) != names:
        raise ValueError(f"{name} takes the parameters {sorted(names)}")
    if sampler.vector:
        if not isinstance(x, list):
            raise ValueError(f"{name} samples a list: x must be a list of integers")
        point: int | list[int] = [parse_int(v, "x") for v in x]
    else:
        point = parse_int(x, "x")
    return {**_enclosure(sampler.pmf(params, point)), "signature": sampler.signature()}


HANDLERS: dict[str, Handler] = {
    "distributions.discrete_laplace_pmf": h_dlap,
    "distributions.discrete_gaussian_normaliser": h_dg_norm,
    "distributions.discrete_gaussian_pmf": h_dg,
    "distributions.geometric_pmf": h_geometric,
    "distributions.bernoulli_pmf": h_bernoulli,
    "distributions.binomial_pmf": h_binomial,
    "distributions.poisson_pmf": h_poisson,
    "distributions.negative_binomial_pmf": h_negbin,
    "distributions.sampler_pmf": h_sampler,
}


_DECIMAL_TEXT = re.compile(r"-?[0-9]+(\.[0-9]+)?(e-?[0-9]{1,9})?", re.ASCII)


def _number(text: Any, key: str) -> Decimal:
    """A published or provided decimal (``d.ddd`` or ``d.ddde-N``) as an exact Decimal."""
    if not isinstance(text, str) or not _DECIMAL_TEXT.fullmatch(text):
        raise ValueError(f"{key} must be a decimal string such as 0.25 or 1.5e-300")
    return Decimal(text)


def compare_enclosure(expected: dict[str, Any], provided: dict[str, Any]) -> str | None:
    """None if every number of ``provided`` (``value``, ``lower``, ``upper``; at least one) lies in
    ``[lower - TOLERANCE upper, upper (1 + TOLERANCE)]`` of ``expected``; else why not."""
    if not isinstance(provided, dict):
        return "outputs must be an object"
    extra = sorted(set(provided) - {"value", "lower", "upper"})
    if extra:
        return f"unexpected outputs {extra}"
    keys = [k for k in ("value", "lower", "upper") if k in provided]
    if not keys:
        return "missing output 'value' (or 'lower' and 'upper')"
    with localcontext() as ctx:
        ctx.prec, ctx.Emin, ctx.Emax = 100, -(10**10), 10**10
        low, high = _number(expected["lower"], "lower"), _number(expected["upper"], "upper")
        slack = high * TOLERANCE
        ctx.rounding = ROUND_FLOOR
        floor = low - slack
        ctx.rounding = ROUND_CEILING
        ceiling = high + slack
        got: dict[str, Decimal] = {}
        for key in keys:
            try:
                got[key] = _number(provided[key], key)
            except ValueError as exc:
                return str(exc)
            if not floor <= got[key] <= ceiling:
                return (f"{key}: {provided[key]} is outside [{expected['lower']},"
                        f" {expected['upper']}] (relative tolerance {TOLERANCE})")
    if "lower" in got and "upper" in got and got["lower"] > got["upper"]:
        return "lower is above upper"
    return None


#: per op: (params, comment, flags) of its valid tests, in order
Point = tuple[dict[str, Any], str, list[str]]


def _pts(**kw: Any) -> dict[str, Any]:
    return {k: (str(v) if isinstance(v, int | Fraction) else v) for k, v in kw.items()}


#: (sampler, its parameters, points) of the sampler_pmf op: each point outside a support included
SAMPLER_POINTS: list[tuple[str, dict[str, str], list[str]]] = [
    ("bernoulli", {"p": "1/3"}, ["1", "0", "2"]),
    ("bernoulli_exp", {"gamma": "1/2"}, ["1", "0", "-1"]),
    ("bernoulli_rr", {"eps": "1"}, ["1", "0", "3"]),
    ("geometric", {"p": "1/4"}, ["0", "3", "-1"]),
    ("geometric_exp", {"gamma": "1/3"}, ["0", "4", "-2"]),
    ("discrete_laplace", {"t": "3/2"}, ["0", "-2", "5"]),
    ("discrete_gaussian", {"sigma2": "2"}, ["0", "-3"]),
    ("binomial", {"n": "6", "p": "2/5"}, ["0", "3", "6", "7", "-1"]),
    ("binomial_textbook", {"n": "3", "p": "1/2"}, ["1", "4"]),
    ("binomial_rr", {"n": "5", "eps": "1/2"}, ["0", "2", "5", "6", "-1"]),
    ("poisson", {"lam": "7/2"}, ["0", "5", "-1"]),
    ("negative_binomial", {"r": "3/2", "p": "1/3"}, ["0", "4", "-1"]),
    ("negative_binomial_exp", {"r": "1/2", "gamma": "1"}, ["0", "3", "-1"]),
    ("rational.discrete_laplace", {"t": "1/2"}, ["1"]),
    ("rational.bernoulli_rr", {"eps": "2"}, ["1"]),
]

VALID: dict[str, list[Point]] = {
    "distributions.discrete_laplace_pmf": [
        (_pts(t="1", x="0"), "t = 1, the mode x = 0", []),
        (_pts(t="1", x="1"), "t = 1, x = 1", []),
        (_pts(t="1", x="-1"), "t = 1, x = -1: symmetric to x = 1", ["Symmetric"]),
        (_pts(t="1/3", x="0"), "t = 1/3, mode", []),
        (_pts(t="1/3", x="-4"), "t = 1/3, x = -4", ["Symmetric"]),
        (_pts(t="5/2", x="7"), "t = 5/2, x = 7", []),
        (_pts(t="5/2", x="-7"), "t = 5/2, x = -7", ["Symmetric"]),
        (_pts(t="1/1000", x="1"), "t = 1/1000: P[1] = (1-a)/(1+a) e^-1000, far below binary64",
         ["Tiny"]),
        (_pts(t="1/1000", x="0"), "t = 1/1000: almost all mass at 0", []),
        (_pts(t="1000000", x="0"), "t = 10^6: flat, P[0] ~ 1/(2t)", ["LargeParameter"]),
        (_pts(t="1000000", x="-1000000"), "t = 10^6 at x = -t: e^-1 of the mode", ["LargeParameter"]),
        (_pts(t="0.1", x="3"), "t = 0.1 written as a decimal", []),
        ({"t": 2, "x": -3}, "t and x as JSON integers", []),
    ],
    "distributions.discrete_gaussian_normaliser": [
        (_pts(sigma2="1/100"), "sigma^2 = 1/100: Z = 1 + 2e^-50 + ...", []),
        (_pts(sigma2="1/4"), "sigma^2 = 1/4", []),
        (_pts(sigma2="1"), "sigma^2 = 1", []),
        (_pts(sigma2="2"), "sigma^2 = 2", []),
        (_pts(sigma2="7/3"), "sigma^2 = 7/3", []),
        (_pts(sigma2="100"), "sigma^2 = 100", []),
        (_pts(sigma2="10000"), "sigma^2 = 10^4: about 1700 terms of the direct sum", []),
        (_pts(sigma2="10000000000"),
         "sigma^2 = 10^10: Z = sqrt(2 pi sigma^2) (Poisson summation; other terms < 10^-(10^11))",
         ["LargeParameter"]),
        (_pts(sigma2="1000000000000000000000000000000"), "sigma^2 = 10^30", ["LargeParameter"]),
    ],
    "distributions.discrete_gaussian_pmf": [
        (_pts(sigma2="1", x="0"), "sigma^2 = 1, the mode", []),
        (_pts(sigma2="1", x="1"), "sigma^2 = 1, x = 1", []),
        (_pts(sigma2="1", x="-1"), "sigma^2 = 1, x = -1", ["Symmetric"]),
        (_pts(sigma2="1/4", x="2"), "sigma^2 = 1/4, x = 2: e^-8 / Z", []),
        (_pts(sigma2="1/4", x="-3"), "sigma^2 = 1/4, x = -3", ["Symmetric"]),
        (_pts(sigma2="10", x="20"), "sigma^2 = 10, x = 20: e^-20 / Z", []),
        (_pts(sigma2="7/3", x="-5"), "sigma^2 = 7/3, x = -5", ["Symmetric"]),
        (_pts(sigma2="1/100", x="1"), "sigma^2 = 1/100, x = 1: e^-50, nearly a point mass", []),
        (_pts(sigma2="1/100", x="30"), "sigma^2 = 1/100, x = 30: e^-45000", ["Tiny"]),
        (_pts(sigma2="10000000000", x="0"), "sigma^2 = 10^10 (Poisson-summation normaliser)",
         ["LargeParameter"]),
        (_pts(sigma2="10000000000", x="-100000"), "sigma^2 = 10^10, x = -sigma: e^-1/2 of the mode",
         ["LargeParameter", "Symmetric"]),
    ],
    "distributions.geometric_pmf": [
        (_pts(p="1/2", k="0"), "p = 1/2, k = 0: P = p", ["SupportEdge"]),
        (_pts(p="1/2", k="1"), "p = 1/2, k = 1", []),
        (_pts(p="1/3", k="5"), "p = 1/3, k = 5", []),
        (_pts(p="1/3", k="-1"), "k = -1 is outside the support", ["ZeroProbability"]),
        (_pts(p="1", k="0"), "p = 1: point mass at 0", ["ParameterBoundary", "SupportEdge"]),
        (_pts(p="1", k="1"), "p = 1, k = 1: probability 0", ["ParameterBoundary",
                                                            "ZeroProbability"]),
        (_pts(p="1/1000", k="100"), "p = 1/1000, k = 100", []),
        (_pts(p="1/1000000", k="0"), "p = 10^-6, k = 0", ["SupportEdge"]),
        (_pts(p="999/1000", k="50"), "p = 999/1000, k = 50: 10^-150 p", ["Tiny"]),
        (_pts(p="0.25", k="3"), "p = 0.25 written as a decimal", []),
        ({"p": 1, "k": 0}, "p and k as JSON integers", ["ParameterBoundary", "SupportEdge"]),
    ],
    "distributions.bernoulli_pmf": [
        (_pts(p="1/3", k="1"), "P[1] = p", []),
        (_pts(p="1/3", k="0"), "P[0] = 1 - p", []),
        (_pts(p="1/3", k="2"), "k = 2 is outside {0, 1}", ["ZeroProbability"]),
        (_pts(p="1/3", k="-1"), "k = -1 is outside {0, 1}", ["ZeroProbability"]),
        (_pts(p="0", k="0"), "p = 0: P[0] = 1", ["ParameterBoundary"]),
        (_pts(p="0", k="1"), "p = 0: P[1] = 0", ["ParameterBoundary", "ZeroProbability"]),
        (_pts(p="1", k="1"), "p = 1: P[1] = 1", ["ParameterBoundary"]),
        (_pts(p="1", k="0"), "p = 1: P[0] = 0", ["ParameterBoundary", "ZeroProbability"]),
        (_pts(p="0.7", k="0"), "p = 0.7: P[0] = 3/10", []),
    ],
    "distributions.binomial_pmf": [
        (_pts(n="5", p="1/3", k="0"), "n = 5, k = 0: (2/3)^5", ["SupportEdge"]),
        (_pts(n="5", p="1/3", k="2"), "n = 5, k = 2: C(5,2) (1/3)^2 (2/3)^3", []),
        (_pts(n="5", p="1/3", k="5"), "n = 5, k = n: (1/3)^5", ["SupportEdge"]),
        (_pts(n="5", p="1/3", k="6"), "k = n + 1: probability 0", ["ZeroProbability"]),
        (_pts(n="5", p="1/3", k="-1"), "k = -1: probability 0", ["ZeroProbability"]),
        (_pts(n="0", p="1/2", k="0"), "n = 0: point mass at 0", ["ParameterBoundary",
                                                              "SupportEdge"]),
        (_pts(n="0", p="1/2", k="1"), "n = 0, k = 1: probability 0", ["ParameterBoundary",
                                                                     "ZeroProbability"]),
        (_pts(n="4", p="0", k="0"), "p = 0: point mass at 0", ["ParameterBoundary"]),
        (_pts(n="4", p="0", k="1"), "p = 0, k = 1: probability 0", ["ParameterBoundary",
                                                                   "ZeroProbability"]),
        (_pts(n="4", p="1", k="4"), "p = 1: point mass at n", ["ParameterBoundary"]),
        (_pts(n="4", p="1", k="3"), "p = 1, k = n - 1: probability 0", ["ParameterBoundary",
                                                                       "ZeroProbability"]),
        (_pts(n="20", p="1/2", k="10"), "n = 20, p = 1/2, the mode", []),
        (_pts(n="20", p="3/4", k="7"), "n = 20, p = 3/4, k = 7 (asymmetric)", []),
        (_pts(n="1000", p="1/1000", k="3"), "n = 1000, p = 1/1000, k = 3", ["LargeParameter"]),
    ],
    "distributions.poisson_pmf": [
        (_pts(**{"lambda": "1", "k": "0"}), "lambda = 1, k = 0: e^-1", ["SupportEdge"]),
        (_pts(**{"lambda": "1", "k": "1"}), "lambda = 1, k = 1: e^-1", []),
        (_pts(**{"lambda": "1/2", "k": "3"}), "lambda = 1/2, k = 3", []),
        (_pts(**{"lambda": "1/2", "k": "-1"}), "k = -1: probability 0", ["ZeroProbability"]),
        (_pts(**{"lambda": "10", "k": "10"}), "lambda = 10 at the mode", []),
        (_pts(**{"lambda": "10", "k": "40"}), "lambda = 10, k = 40", []),
        (_pts(**{"lambda": "1000", "k": "2000"}), "lambda = 1000, k = 2000: far tail",
         ["LargeParameter"]),
        (_pts(**{"lambda": "0", "k": "0"}), "lambda = 0: point mass at 0",
         ["ParameterBoundary", "SupportEdge"]),
        (_pts(**{"lambda": "0", "k": "3"}), "lambda = 0, k = 3: probability 0",
         ["ParameterBoundary", "ZeroProbability"]),
        (_pts(**{"lambda": "0", "k": "-1"}), "lambda = 0, k = -1: probability 0",
         ["ParameterBoundary", "ZeroProbability"]),
        (_pts(**{"lambda": "1/1000", "k": "0"}), "lambda = 10^-3, k = 0", ["SupportEdge"]),
    ],
    "distributions.negative_binomial_pmf": [
        (_pts(r="1", p="1/2", k="0"), "r = 1 (geometric): k = 0, (1-p)", ["SupportEdge"]),
        (_pts(r="1", p="1/2", k="3"), "r = 1: k = 3, (1-p) p^3", []),
        (_pts(r="5/2", p="1/3", k="0"), "real r = 5/2, k = 0: (2/3)^(5/2)", ["SupportEdge"]),
        (_pts(r="5/2", p="1/3", k="4"), "real r = 5/2, k = 4", []),
        (_pts(r="1/2", p="99/100", k="100"), "r = 1/2, p = 99/100, k = 100", []),
        (_pts(r="10", p="1/2", k="10"), "r = 10, p = 1/2, k = 10", []),
        (_pts(r="10", p="1/2", k="-1"), "k = -1: probability 0", ["ZeroProbability"]),
        (_pts(r="3", p="0", k="0"), "p = 0: point mass at 0", ["ParameterBoundary",
                                                             "SupportEdge"]),
        (_pts(r="3", p="0", k="2"), "p = 0, k = 2: probability 0", ["ParameterBoundary",
                                                                   "ZeroProbability"]),
        (_pts(r="1/1000", p="1/2", k="1"), "r = 1/1000 (Ghazi et al.'s small shares), k = 1", []),
        (_pts(r="1/1000", p="1/2", k="0"), "r = 1/1000, k = 0: (1/2)^(1/1000)", ["SupportEdge"]),
    ],
    "distributions.sampler_pmf": [
        *[({"sampler": name, "params": prm, "x": x},
           f"{name}({', '.join(f'{k}={v}' for k, v in prm.items())}) at x = {x}", [])
          for name, prm, xs in SAMPLER_POINTS for x in xs],
        ({"sampler": "discrete_gaussian_vector", "params": {"sigma2": "1", "dim": "3"},
          "x": ["0", "1", "-2"]}, "vector: the product over three coordinates", []),
        ({"sampler": "discrete_gaussian_vector", "params": {"sigma2": "1", "dim": "3"},
          "x": ["0", "1"]}, "vector of the wrong length: probability 0", ["ZeroProbability"]),
        ({"sampler": "rational.discrete_gaussian_vector", "params": {"sigma2": "1/2", "dim": "1"},
          "x": ["1"]}, "rational-only profile, vector of dimension 1", []),
    ],
}

#: per op: (comment, inputs, flag) of its invalid tests (whole argument sets)
INVALID: dict[str, list[InvalidCase]] = {
    "distributions.discrete_laplace_pmf": [
        ("t = 0", _pts(t="0", x="0"), "OutOfRange"),
        ("t < 0", _pts(t="-1", x="0"), "OutOfRange"),
        ("x not an integer", _pts(t="1", x="1/2"), "NotInteger"),
        ("x a decimal", _pts(t="1", x="1.0"), "NotInteger"),
        ("t a JSON float", {"t": 0.5, "x": "0"}, "BadType"),
        ("t a bool", {"t": True, "x": "0"}, "BadType"),
        ("t null", {"t": None, "x": "0"}, "BadType"),
        ("x a JSON float", {"t": "1", "x": 1.0}, "BadType"),
        ("x missing", {"t": "1"}, "BadArguments"),
        ("t not a number", _pts(t="one", x="0"), "BadType"),
        ("t with a zero denominator", _pts(t="1/0", x="0"), "BadType"),
        ("t written with 1001 characters", _pts(t="1/" + "1" * 999, x="0"), "BadType"),
        ("x written with 1001 characters", _pts(t="1", x="1" * 1001), "BadType"),
    ],
    "distributions.discrete_gaussian_normaliser": [
        ("sigma^2 = 0", _pts(sigma2="0"), "OutOfRange"),
        ("sigma^2 < 0", _pts(sigma2="-1/4"), "OutOfRange"),
        ("sigma^2 a list", {"sigma2": ["1"]}, "BadType"),
    ],
    "distributions.discrete_gaussian_pmf": [
        ("sigma^2 = 0", _pts(sigma2="0", x="0"), "OutOfRange"),
        ("sigma^2 < 0", _pts(sigma2="-1", x="1"), "OutOfRange"),
        ("x not an integer", _pts(sigma2="1", x="3/2"), "NotInteger"),
        ("sigma^2 missing", {"x": "0"}, "BadArguments"),
    ],
    "distributions.geometric_pmf": [
        ("p = 0 (no distribution)", _pts(p="0", k="0"), "OutOfRange"),
        ("p > 1", _pts(p="3/2", k="0"), "OutOfRange"),
        ("p < 0", _pts(p="-1/2", k="0"), "OutOfRange"),
        ("k not an integer", _pts(p="1/2", k="0.5"), "NotInteger"),
    ],
    "distributions.bernoulli_pmf": [
        ("p < 0", _pts(p="-1/3", k="1"), "OutOfRange"),
        ("p > 1", _pts(p="4/3", k="1"), "OutOfRange"),
        ("k a bool", {"p": "1/2", "k": True}, "BadType"),
    ],
    "distributions.binomial_pmf": [
        ("n < 0", _pts(n="-1", p="1/2", k="0"), "OutOfRange"),
        ("n not an integer", _pts(n="5/2", p="1/2", k="0"), "NotInteger"),
        ("p < 0", _pts(n="5", p="-1/10", k="0"), "OutOfRange"),
        ("p > 1", _pts(n="5", p="11/10", k="0"), "OutOfRange"),
        ("k not an integer", _pts(n="5", p="1/2", k="1e0"), "NotInteger"),
    ],
    "distributions.poisson_pmf": [
        ("lambda < 0", _pts(**{"lambda": "-1", "k": "0"}), "OutOfRange"),
        ("k not an integer", _pts(**{"lambda": "1", "k": "2/1"}), "NotInteger"),
        ("lambda with a huge exponent", _pts(**{"lambda": "1e100000", "k": "0"}), "BadType"),
    ],
    "distributions.negative_binomial_pmf": [
        ("r = 0", _pts(r="0", p="1/2", k="0"), "OutOfRange"),
        ("r < 0", _pts(r="-2", p="1/2", k="0"), "OutOfRange"),
        ("p = 1 (no distribution)", _pts(r="2", p="1", k="0"), "OutOfRange"),
        ("p > 1", _pts(r="2", p="2", k="0"), "OutOfRange"),
        ("p < 0", _pts(r="2", p="-1/2", k="0"), "OutOfRange"),
        ("k not an integer", _pts(r="2", p="1/2", k="x"), "NotInteger"),
    ],
    "distributions.sampler_pmf": [
        ("unknown sampler", {"sampler": "gaussian", "params": {}, "x": "0"}, "BadArguments"),
        ("params not an object", {"sampler": "bernoulli", "params": ["1/2"], "x": "0"},
         "BadArguments"),
        ("a parameter missing", {"sampler": "binomial", "params": {"n": "3"}, "x": "0"},
         "BadArguments"),
        ("an unknown parameter", {"sampler": "bernoulli", "params": {"p": "1/2", "q": "1"},
                                  "x": "0"}, "BadArguments"),
        ("vector sampler with a scalar x", {"sampler": "discrete_gaussian_vector",
                                            "params": {"sigma2": "1", "dim": "1"}, "x": "0"},
         "BadArguments"),
        ("x not an integer", {"sampler": "poisson", "params": {"lam": "1"}, "x": "1/2"},
         "NotInteger"),
        ("a parameter not a rational", {"sampler": "geometric", "params": {"p": "half"},
                                        "x": "0"}, "BadType"),
        ("dim not an integer", {"sampler": "discrete_gaussian_vector",
                                "params": {"sigma2": "1", "dim": "3/2"}, "x": ["0"]},
         "NotInteger"),
    ],
}

NOTES = {
    "Symmetric": "A negative point of a symmetric distribution: P[-x] = P[x] (an implementation"
                 " that drops the absolute value or the square fails it).",
    "Tiny": "The probability is far below the smallest binary64 number (or close to it): a"
            " binary64 implementation answers 0 and fails; compute in logs or multiprecision.",
    "LargeParameter": "A large parameter (scale, variance, mean, n).",
    "SupportEdge": "A point at the edge of the support (k = 0, k = n).",
    "ZeroProbability": "A point outside the support: the answer must be exactly 0.",
    "ParameterBoundary": "A parameter at the edge of its domain (p = 0 or 1, lambda = 0, n = 0).",
    "OutOfRange": "A parameter outside its domain: t, sigma^2, r > 0; p in (0, 1] (geometric),"
                  " [0, 1] (Bernoulli, binomial), [0, 1) (negative binomial); lambda >= 0; n >= 0.",
    "NotInteger": "A point, count or n that is not written as an integer ([sign] digits).",
    "BadType": "A value that is not an exact rational in the grammar (a JSON float, bool, null,"
               " list; a word; a zero denominator; an exponent beyond +-10000; text longer than"
               " 1000 characters).",
    "LongestText": "A parameter written with exactly 1000 characters, the longest text the"
                   " grammar accepts (1001 characters are refused).",
    "BadArguments": "An argument missing, or (sampler_pmf) an unknown sampler or a parameter set"
                    " that is not exactly the sampler's.",
}

HEADER = [
    "dpspec exact probability mass functions (module dpspec.spec.distributions): the distributions"
    " the samplers must realise exactly; the yardsticks of the statistical conformance mode.",
    "Arguments: rationals (t, sigma2, p, lambda, r) as exact text ('3/7', '0.25', '1e-3');"
    " integers (x, k, n) as decimal strings or JSON integers. Every value is a pmf at one point.",
    "distributions.discrete_laplace_pmf(t, x) = (1 - a)/(1 + a) a^|x| with a = exp(-1/t), t > 0"
    " ([CKS20] Definition 28; draft-wang-ppm-differential-privacy-00 sec. 4.1).",
    "distributions.discrete_gaussian_normaliser(sigma2) = Z = sum over all integers x of"
    " exp(-x^2/(2 sigma2)); distributions.discrete_gaussian_pmf(sigma2, x) = exp(-x^2/(2 sigma2))"
    " / Z ([CKS20] Definition 1; the draft's sec. 4.2). The reference sums |x| <= B with"
    " B = ceil(sqrt(2 sigma2 (dps + 10) ln 10)) + 1 at dps + 10 digits (tail below 10^-(dps+5));"
    " when B > 10^6 it uses Poisson summation, Z = sqrt(2 pi sigma2) (1 + 2 exp(-2 pi^2 sigma2)).",
    "distributions.geometric_pmf(p, k) = (1 - p)^k p for k >= 0 (failures before the first"
    " success), 0 for k < 0; 0 < p <= 1.",
    "distributions.bernoulli_pmf(p, k) = p for k = 1, 1 - p for k = 0, 0 otherwise; exact,"
    " output {value: rational in lowest terms}.",
    "distributions.binomial_pmf(n, p, k) = C(n, k) p^k (1 - p)^(n - k) for 0 <= k <= n (0^0 = 1),"
    " 0 otherwise.",
    "distributions.poisson_pmf(lambda, k) = exp(k ln lambda - lambda - ln k!) for k >= 0, 0 for"
    " k < 0; lambda = 0 is the point mass at 0 (Ghazi et al. Thm 11's Poisson noise).",
    "distributions.negative_binomial_pmf(r, p, k) = Gamma(k + r)/(k! Gamma(r)) (1 - p)^r p^k for"
    " k >= 0 and real r > 0, 0 for k < 0; p = 0 is the point mass at 0 (the convention of Ghazi"
    " et al. sec. 3 and Thm 13: k successes of probability p before r failures, mean r p/(1 - p)).",
    "distributions.sampler_pmf(sampler, params, x): the probability that one sample of the"
    " registered sampler `sampler` (dpspec.spec.samplers.registry; `dpspec samplers list`) with"
    " the parameters `params` (an object naming exactly the sampler's parameters) equals x, the pmf"
    " the statistical mode tests the sampler against. bernoulli_exp: exp(-gamma) at 1;"
    " bernoulli_rr: 1/(1 + exp(eps)) at 1; geometric_exp: (1 - e^-gamma) e^(-gamma k);"
    " binomial_rr: Binomial(n, 1/(1 + exp(eps))); negative_binomial_exp: NB(r, exp(-gamma));"
    " a vector sampler's x is a list, its probability the product over the coordinates (0 when"
    " the length is not dim); rational.NAME has the pmf of NAME. Outputs also `signature`,"
    " 'NAME(param: kind, ...)', compared exactly.",
    f"Outputs (all but Bernoulli): the enclosure {{lower, upper}} of the exact value: the value v"
    f" computed with mpmath at {DPS} significant digits (relative error below 10^-{ERROR_DIGITS}),"
    f" the interval [v (1 - 10^-{ERROR_DIGITS}), v (1 + 10^-{ERROR_DIGITS})] rounded outward to"
    f" {DIGITS} significant digits (lower toward -infinity, upper toward +infinity); written"
    f" in the shortest exact decimal, exponent form d.ddde-N below 1e-5;"
    f" an exact zero is lower = upper = '0'.",
    f"Tolerance: an answer may give 'value' and/or 'lower'/'upper' (decimal strings, exponent"
    f" allowed); each must lie in [lower - {TOLERANCE} upper, upper (1 +"
    f" {TOLERANCE})], so an exact zero must be answered by 0. Bernoulli answers"
    f" are compared exactly.",
]


class DistributionsFamily(Family):
    name = "distributions"
    summary = "exact pmfs (discrete Laplace/Gaussian, geometric, Bernoulli, binomial, Poisson, NB)"

    def handlers(self) -> dict[str, Handler]:
        return dict(HANDLERS)

    def schemas(self) -> dict[str, dict[str, Any]]:
        enclosure = {"type": "object", "required": ["lower", "upper"],
                     "additionalProperties": False,
                     "properties": {"lower": {"type": "string"}, "upper": {"type": "string"}}}
        exact = {"type": "object", "required": ["value"], "additionalProperties": False,
                 "properties": {"value": {"type": "string"}}}
        ops: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {op: ({"properties": {k: {} for k in names}},
                    exact if op == "distributions.bernoulli_pmf" else enclosure)
               for op, names in ARGS.items()}
        ops["distributions.sampler_pmf"] = (ops["distributions.sampler_pmf"][0], {
            "type": "object", "required": ["lower", "upper", "signature"],
            "additionalProperties": False,
            "properties": {"lower": {"type": "string"}, "upper": {"type": "string"},
                           "signature": {"type": "string"}}})
        return {SCHEMA: family_schema(SCHEMA, "exact pmf vectors", ops)}

    def compare(self, case: Case, provided: dict[str, Any]) -> str | None:
        assert case.expected is not None
        if "signature" in case.expected:
            if not isinstance(provided, dict) or provided.get("signature") != case.expected[
                    "signature"]:
                return f"signature: expected {case.expected['signature']!r}"
            provided = {k: v for k, v in provided.items() if k != "signature"}
        if "lower" in case.expected:
            return compare_enclosure(case.expected, provided)
        return diff_outputs(case.expected, provided)

    def files(self) -> list[VectorFile]:
        groups = Groups(HANDLERS)
        for op, points in VALID.items():
            groups.add(op, [(comment, inputs, flags) for inputs, comment, flags in points],
                       INVALID[op])
        # appended: the text grammar's limits on one op (the longest accepted parameter text, a
        # denominator of 1, and the first refused length)
        longest = "0." + "0" * 997 + "1"  # exactly MAX_TEXT_LENGTH = 1000 characters: 10^-998
        groups.add("distributions.bernoulli_pmf",
                   [("p written with 1000 characters (the longest text allowed)",
                     _pts(p=longest, k="1"), ["LongestText"]),
                    ("p written as 1/1 (a denominator of 1)", _pts(p="1/1", k="0"),
                     ["ParameterBoundary", "ZeroProbability"])],
                   [("p written with 1001 characters", _pts(p=longest + "0", k="1"), "BadType"),
                    ("p with a zero denominator", _pts(p="1/0", k="1"), "BadType")])
        # appended: geometric_exp one step outside its support (a k >= -1 slip would give
        # (1 - e^-gamma) e^gamma there)
        groups.add("distributions.sampler_pmf",
                   [("geometric_exp(gamma=1/3) at x = -1, next to the support's edge",
                     {"sampler": "geometric_exp", "params": {"gamma": "1/3"}, "x": "-1"},
                     ["ZeroProbability"])])
        # appended: k = -1 at p = 0, where p^k is 1/0 (a support check that lets k = -1 through
        # must not reach the formula there)
        groups.add("distributions.binomial_pmf",
                   [("n = 5, p = 0, k = -1: probability 0 (p^k would be 1/0)",
                     _pts(n="5", p="0", k="-1"), ["ParameterBoundary", "ZeroProbability"])])
        return [self.vector_file("distributions/pmf.json",
                                 algorithm="dpspec exact probability mass functions",
                                 schema=SCHEMA, header=HEADER, notes=NOTES, groups=groups.groups)]


FAMILY = DistributionsFamily()
