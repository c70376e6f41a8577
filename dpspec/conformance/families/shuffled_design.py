"""Vector family ``shuffled-design``: parameter design and privacy of the shuffled-model mechanisms of
[GKMP20] (dpspec.spec.shuffled.params, .privacy, .exact, .compare, .lower_bounds).

One file, one op per spec entry point. Exact rationals are published as 'a/b' (or exact decimals);
mpmath values are printed by mpmath.nstr at a stated number of significant digits; values that rest
on binary64 arithmetic (the scipy form of the exact privacy curve, bisections on binary64 clone
bounds) are compared with the relative tolerance stated in the file's notes, and binary64 results
themselves are published by :func:`dpspec.conformance.vectors.binary64_text` (8 significant
digits, never near a rounding boundary: the same digits for every numpy/scipy version).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import mpmath

from dpspec.conformance.families.shuffled import _NOISE, noise_from_json, noise_to_json
from dpspec.conformance.jsonargs import DEC, RAT
from dpspec.conformance.vectors import (
    Case,
    Family,
    Handler,
    InvalidCase,
    TestNumberer,
    VectorFile,
    binary64_text,
    diff_outputs,
    family_schema,
    invalid_tests,
    test_entry,
)
from dpspec.spec.distributions import to_mpf
from dpspec.spec.shuffled import compare as cmp
from dpspec.spec.shuffled import exact, lower_bounds, params, privacy
from dpspec.spec.shuffled.divisible import ParameterError, format_rational

SCHEMA = "ghazi_design-v1.json"
DIGITS = 20  # significant digits of published mpmath values
MP_TOL = 1e-15  # relative tolerance of printed mpmath decimals in the other ops
TOL = 1e-6  # relative tolerance of binary64-derived outputs (keys in _TOLERANT)


def _rat(args: dict[str, Any], key: str) -> Fraction:
    try:
        return Fraction(str(args[key]))
    except (ValueError, ZeroDivisionError) as e:
        raise ParameterError(f"{key} must be a rational") from e


def _mp(x: Any, digits: int = DIGITS) -> str:
    return str(mpmath.nstr(x, digits))


def _design_json(d: params.CorrelatedDesign) -> dict[str, Any]:
    out: dict[str, Any] = {"a": format_rational(d.a), "epsilon1": _mp(d.epsilon1),
                           "d3": noise_to_json(d.d3), "mse": format_rational(d.mse()),
                           "expectedMessages": format_rational(d.expected_messages()),
                           "method": d.method}
    if d.split is not None:
        sp = d.split
        out.update({"epsilon2": _mp(sp.epsilon2), "Delta": str(sp.sensitivity),
                    "delta2": _mp(sp.delta2), "delta3": _mp(sp.delta3)})
    return out


# -- handlers ------------------------------------------------------------------------------------
def decimal_round(args: dict[str, Any]) -> dict[str, Any]:
    x, digits = _rat(args, "x"), int(args["digits"])
    return {"up": format_rational(params.decimal_up(x, digits)),
            "down": format_rational(params.decimal_down(x, digits))}


def decay(args: dict[str, Any]) -> dict[str, Any]:
    eps = _rat(args, "epsilon")
    a = params.correlated_decay(eps, _rat(args, "rmseFactor"))
    nc = params.near_central_decay(eps)
    return {"a": format_rational(a), "epsilon1": _mp(params.epsilon_of_decay(a)),
            "nearCentralA": format_rational(nc),
            "nearCentralEpsilon1": _mp(params.epsilon_of_decay(nc))}


def design_theorem18(args: dict[str, Any]) -> dict[str, Any]:
    eps, delta, n = _rat(args, "epsilon"), _rat(args, "delta"), int(args["n"])
    if args.get("nearCentral") == "true":
        d = params.design_near_central(eps, delta, n, privacy.theorem13_noise, "Theorem 13")
    else:
        dec = _rat(args, "decay") if "decay" in args else None
        d = params.design_correlated(eps, delta, n, _chooser(args), "Theorem 13",
                                     _rat(args, "rmseFactor") if "rmseFactor" in args
                                     else params.DEFAULT_RMSE_FACTOR,
                                     int(args.get("maxExtra", "6")), dec)
    return _design_json(d)


def _chooser(args: dict[str, Any]) -> params.D3Chooser:
    """``chooser``: "theorem13" (default), "none" (never finds a D3), or "skip_first" (Theorem 13,
    but no D3 for the smallest Delta tried)."""
    kind = args.get("chooser", "theorem13")
    if kind == "theorem13":
        return privacy.theorem13_noise
    if kind == "none":
        return lambda e, d, s: None
    if kind == "skip_first":
        seen: list[int] = []

        def choose(e: mpmath.mpf, d: mpmath.mpf, s: int) -> Any:
            seen.append(s)
            return None if s == seen[0] else privacy.theorem13_noise(e, d, s)
        return choose
    raise ParameterError(f"unknown chooser {kind!r}")


def named_design(args: dict[str, Any]) -> dict[str, Any]:
    eps, delta, n = to_mpf(_rat(args, "epsilon")), to_mpf(_rat(args, "delta")), int(args["n"])
    if args.get("nearCentral") == "true":
        return _design_json(cmp.near_central_design(eps, delta, n, args["method"]))
    return _design_json(cmp.correlated_design(eps, delta, n, args["method"]))


def design_exact(args: dict[str, Any]) -> dict[str, Any]:
    eps, delta, n = _rat(args, "epsilon"), _rat(args, "delta"), int(args["n"])
    if args.get("nearCentral") == "true":
        d = params.design_near_central(eps, delta, n)
    else:
        dec = _rat(args, "decay") if "decay" in args else None
        d = params.design_correlated_exact(eps, delta, n, decay=dec)
    return {**_design_json(d), "exactDelta": binary64_text(d.exact_delta())}


def correlated_delta(args: dict[str, Any]) -> dict[str, Any]:
    eps, a = _rat(args, "epsilon"), _rat(args, "a")
    d3 = noise_from_json(args["d3"], "d3")
    out = {"delta": binary64_text(exact.correlated_delta(float(eps), a, d3))}
    if 0 < a < 1:
        out["deltaMp"] = _mp(exact.correlated_delta_mp(eps, a, d3), 25)
    if "d3Pmf" in args:
        pmf = [float(Fraction(s)) for s in args["d3Pmf"]]
        out["bruteForce"] = binary64_text(exact.brute_force_correlated_delta(float(eps), a, pmf))
    return out


def privacy_params(args: dict[str, Any]) -> dict[str, Any]:
    eps, delta, n = float(_rat(args, "epsilon")), float(_rat(args, "delta")), int(args["n"])
    kind = args["kind"]
    if kind == "rr":
        p, how = privacy.rr_flip_probability(eps, delta, n)
    elif kind == "bary_rr":
        p, how = privacy.bary_rr_blanket(eps, delta, n, int(args["B"]))
    elif kind == "rappor":
        p, how = privacy.rappor_flip_probability(eps, delta, n)
    elif kind == "fragmented_rappor":
        p, how = privacy.fragmented_rappor_flip_probability(eps, delta, n)
    else:
        raise ParameterError(f"unknown kind {kind!r}")
    return {"probability": format_rational(p), "privacy": how}


def noise_params(args: dict[str, Any]) -> dict[str, Any]:
    eps, delta = to_mpf(_rat(args, "epsilon")), to_mpf(_rat(args, "delta"))
    sens = int(args["Delta"])
    if args["kind"] == "theorem13":
        return {"noise": noise_to_json(privacy.theorem13_noise(eps, delta, sens)),
                "method": "Theorem 13"}
    lam, how = privacy.poisson_lambda(eps, delta, sens, args["kind"])
    return {"noise": {"family": "poisson", "lambda": format_rational(lam)}, "method": how}


def comparison(args: dict[str, Any]) -> dict[str, Any]:
    eps, delta, n = to_mpf(_rat(args, "epsilon")), to_mpf(_rat(args, "delta")), int(args["n"])
    if "B" in args:
        rows = cmp.histogram_comparison(eps, delta, n, int(args["B"]))
    else:
        rows = cmp.binary_comparison(eps, delta, n, near_central=True)
    return {"rows": [r.as_json() for r in rows]}


def bounds(args: dict[str, Any]) -> dict[str, Any]:
    eps = to_mpf(_rat(args, "epsilon"))
    if args["kind"] == "theorem3":
        rows = lower_bounds.theorem3_rows(eps, [int(x) for x in args["ns"]])
    else:
        rows = lower_bounds.lemma15_rows(eps, list(args["deltas"]), int(args["n"]))
    return {"rows": [r.as_json() for r in rows]}


def exact_decimal(args: dict[str, Any]) -> dict[str, Any]:
    return {"text": cmp.exact_decimal(_rat(args, "q"))}


HEADER = [
    "Source: Ghazi, Kumar, Manurangsi, Pagh, 'Private Counting from Anonymous Messages' (ICML 2020),"
    " [GKMP20]; parameter design of sec. 4.1 and 5.1 (Theorem 18 split, near-central instance),"
    " the exact privacy curve of the correlated mechanism with D1 = D2 = NB(1, a), the comparison"
    " rows of sec. 5 and the lower bounds Theorem 3 / Lemma 15, as specified in dpspec.spec.shuffled.",
    "Rationals are 'a' or 'a/b' in lowest terms; noise is {family, parameters} as in the shuffled"
    " vectors. decimal rounding: up = ceil(x 10^d)/10^d, down = floor(x 10^d)/10^d.",
    "decay: a = sqrt(2a)/(1-a) RMSE equal to rmseFactor x RMSE of central DLap(eps), rounded up to"
    " 12 decimals; nearCentralA = e^(-0.99 eps) rounded up to 12 decimals; epsilon1 = ln(1/a).",
    "design.theorem18: Delta from the smallest with 2 e^(2 eps1) a^(Delta+1) < delta, delta3 ="
    " a^(Delta+1), delta2 = (delta - 2 e^(2 eps1) delta3)/e^eps1, eps2 = eps - eps1; D3 by"
    " Theorem 13 (r, p rounded up to 12 decimals); the Delta with the fewest D3 messages is kept,"
    " stopping after two rises or maxExtra extra Deltas. mpmath at 40 digits.",
    "design.theorem18 chooser: theorem13 (default); skip_first = no D3 for the first Delta tried,"
    " Theorem 13 after; none = never a D3. named: dpspec.spec.shuffled.compare.correlated_design /"
    " near_central_design with method 'theorem' or 'exact'.",
    "design.exact: D3 = Poisson(0) when delta >= exact delta without D3 (= 1 - a), else the"
    " negative binomial of dpspec.spec.shuffled.exact.minimal_correlated_d3 (golden section on"
    " 1-p, bisection on r, 6 significant digits).",
    "correlated_delta: delta(eps) = (1-a) sum_m max(0, G(m) - a e^eps G(m-1)), G(m) = h(m) + a^2"
    " G(m-1); deltaMp in mpmath (25 significant digits), delta in binary64 (8 significant"
    " digits, as exactDelta and bruteForce), bruteForce the 2-D"
    " hockey-stick of (W, M) on the given D3 PMF.",
    "mpmath values are printed with mpmath.nstr (round to nearest) to the stated digits (20 unless"
    " stated) from a 40-digit computation; they are compared within relative 1e-15 (notes:"
    " Tolerance), exact rationals and integers exactly.",
]
NOTES = {
    "BadParameter": "A parameter is outside the function's domain (eps > 0, 0 < delta < 1, "
                    "0 < a < 1, eps >= ln(1/a), rmseFactor >= 1, known method/kind).",
    "NoD3": "The D3 chooser (test-side: 'none' never returns a D3) found no D3 for any Delta.",
    "NoBudget": "The decay leaves no epsilon for D3 (eps1 >= eps).",
    "Tolerance": f"Outputs delta, bruteForce, exactDelta, probability, the D3 parameters of"
                 f" design.exact and the rows of compare/bounds rest on binary64 arithmetic or"
                 f" nstr printing of it: numbers in them match within relative {TOL}. In the"
                 f" other ops printed mpmath decimals match within relative {MP_TOL}, rationals"
                 f" and integers exactly.",
}
_TOLERANT_OPS = {"ghazi.design.exact", "ghazi.design.correlated_delta", "ghazi.design.privacy",
                 "ghazi.design.compare", "ghazi.design.bounds"}


def _is_decimal(text: str) -> bool:
    return any(ch in text for ch in ".eE")


def _close(e: Any, p: Any, tol: float) -> bool:
    """Equality, except that numbers match within relative ``tol``; in the exact ops
    (``tol == MP_TOL``) only decimal numbers (printed mpmath values) get the tolerance, rationals
    and integers must be equal."""
    if isinstance(e, dict) and isinstance(p, dict):
        return e.keys() == p.keys() and all(_close(e[k], p[k], tol) for k in e)
    if isinstance(e, list) and isinstance(p, list):
        return len(e) == len(p) and all(_close(x, y, tol) for x, y in zip(e, p, strict=True))
    if isinstance(e, str) and isinstance(p, str):
        if e == p:
            return True
        if tol == MP_TOL and not _is_decimal(e):
            return False
        try:
            fe, fp = float(Fraction(e)), float(Fraction(p))
        except (ValueError, ZeroDivisionError):
            return False
        return abs(fe - fp) <= tol * max(abs(fe), abs(fp))
    return bool(e == p)


class ShuffledDesignFamily(Family):
    name = "shuffled-design"
    summary = "shuffled-model parameter design, exact privacy and comparisons of [GKMP20]"

    def handlers(self) -> dict[str, Handler]:
        return {"ghazi.design.decimal": decimal_round, "ghazi.design.decay": decay,
                "ghazi.design.theorem18": design_theorem18, "ghazi.design.exact": design_exact,
                "ghazi.design.correlated_delta": correlated_delta,
                "ghazi.design.privacy": privacy_params, "ghazi.design.noise": noise_params,
                "ghazi.design.compare": comparison, "ghazi.design.bounds": bounds,
                "ghazi.design.exact_decimal": exact_decimal, "ghazi.design.named": named_design}

    def schemas(self) -> dict[str, dict[str, Any]]:
        s = {"type": "string"}
        anything: dict[str, Any] = {"type": "object"}
        lst = {"type": "array", "items": s}
        design_args = {"epsilon": RAT, "delta": RAT, "n": DEC, "decay": RAT, "rmseFactor": RAT,
                       "maxExtra": DEC, "nearCentral": s, "chooser": s, "method": s}
        ops = {
            "ghazi.design.decimal": ({"properties": {"x": RAT, "digits": DEC}}, anything),
            "ghazi.design.decay": ({"properties": {"epsilon": RAT, "rmseFactor": RAT}}, anything),
            "ghazi.design.theorem18": ({"properties": design_args}, anything),
            "ghazi.design.exact": ({"properties": design_args}, anything),
            "ghazi.design.correlated_delta": (
                {"properties": {"epsilon": RAT, "a": RAT, "d3": _NOISE, "d3Pmf": lst}}, anything),
            "ghazi.design.privacy": ({"properties": {"epsilon": RAT, "delta": RAT, "n": DEC,
                                                     "B": DEC, "kind": s}}, anything),
            "ghazi.design.noise": ({"properties": {"epsilon": RAT, "delta": RAT, "Delta": DEC,
                                                   "kind": s}}, anything),
            "ghazi.design.compare": ({"properties": {"epsilon": RAT, "delta": RAT, "n": DEC,
                                                     "B": DEC}}, anything),
            "ghazi.design.bounds": ({"properties": {"epsilon": RAT, "kind": s, "ns": lst,
                                                    "deltas": lst, "n": DEC}}, anything),
            "ghazi.design.exact_decimal": ({"properties": {"q": RAT}}, anything),
            "ghazi.design.named": ({"properties": design_args}, anything),
        }
        return {SCHEMA: family_schema(SCHEMA, "GKMP20 parameter design vectors", ops)}

    def compare(self, case: Case, provided: dict[str, Any]) -> str | None:
        assert case.expected is not None
        tol = TOL if case.op in _TOLERANT_OPS else MP_TOL
        return None if _close(case.expected, provided, tol) else \
            diff_outputs(case.expected, provided)

    def _group(self, tc: TestNumberer, op: str, prm: dict[str, Any],
               cases: list[tuple[str, dict[str, Any]]],
               invalid: list[InvalidCase] | None = None) -> dict[str, Any]:
        h = self.handlers()[op]
        tests = [test_entry(tc(), label, inputs, h({**prm, **inputs})) for label, inputs in cases]
        tests += invalid_tests(tc, h, prm, invalid or [])
        return {"op": op, "params": prm, "tests": tests}

    def files(self) -> list[VectorFile]:
        tc = TestNumberer()
        g: list[dict[str, Any]] = []
        g.append(self._group(tc, "ghazi.design.decimal", {}, [
            (f"x = {x}, digits = {d}", {"x": x, "digits": d}) for x, d in [
                ("1/3", "12"), ("-1/3", "12"), ("7/20", "2"), ("7/20", "1"), ("0", "5"),
                ("123456789/1000", "0"), ("1/7", "30")]]))
        g.append(self._group(tc, "ghazi.design.decay", {}, [
            (f"eps = {e}, rmseFactor = {f}", {"epsilon": e, "rmseFactor": f}) for e, f in [
                ("1", "6/5"), ("1/2", "6/5"), ("2", "1"), ("1", "3"), ("1/10", "6/5")]],
            [("rmseFactor below 1", {"epsilon": "1", "rmseFactor": "99/100"}, "BadParameter")]))
        base = {"epsilon": "1", "delta": "1/1000000", "n": "1000"}
        g.append(self._group(tc, "ghazi.design.theorem18", {}, [
            ("eps = 1, delta = 1e-6, n = 1000 (default factor 6/5)", dict(base)),
            ("eps = 1, delta = 1e-6, maxExtra = 0 (only Delta_min)", {**base, "maxExtra": "0"}),
            ("eps = 1/2, delta = 1/100, rmseFactor = 2", {"epsilon": "1/2", "delta": "1/100",
                                                          "n": "50", "rmseFactor": "2"}),
            ("eps = 1, delta = 1e-3, decay 1/2", {"epsilon": "1", "delta": "1/1000", "n": "10",
                                                  "decay": "1/2"}),
            ("eps = 1, delta = 99/100 (Delta_min = 1)", {"epsilon": "1", "delta": "99/100",
                                                          "n": "10", "decay": "1/2"}),
            ("near-central, eps = 1, delta = 1e-6", {**base, "nearCentral": "true"}),
        ], [
            ("eps = 0", {**base, "epsilon": "0"}, "BadParameter"),
            ("delta = 0", {**base, "delta": "0"}, "BadParameter"),
            ("delta = 1", {**base, "delta": "1"}, "BadParameter"),
            ("decay e^-1 or below leaves no eps2", {**base, "decay": "1/3"}, "NoBudget"),
            ("rmseFactor 1 leaves no eps2", {**base, "rmseFactor": "1"}, "NoBudget"),
            ("a chooser that never finds a D3", {**base, "chooser": "none"}, "NoD3"),
        ]))
        g.append(self._group(tc, "ghazi.design.theorem18", {}, [
            ("no D3 for Delta_min: the next Delta is kept", {**base, "chooser": "skip_first"}),
        ]))
        g.append(self._group(tc, "ghazi.design.named", {}, [
            ("compare.correlated_design, method theorem", {**base, "method": "theorem"}),
            ("compare.near_central_design, method theorem",
             {**base, "method": "theorem", "nearCentral": "true"}),
        ], [
            ("unknown method (correlated)", {**base, "method": "other"}, "BadParameter"),
            ("unknown method (near-central)", {**base, "method": "other", "nearCentral": "true"},
             "BadParameter"),
        ]))
        g.append(self._group(tc, "ghazi.design.exact", {}, [
            ("delta = 1 - a exactly (no D3 needed)", {"epsilon": "1", "delta": "1/2", "n": "10",
                                                       "decay": "1/2"}),
            ("delta just below 1 - a (D3 needed)", {"epsilon": "1", "delta": "49/100",
                                                     "n": "10", "decay": "1/2"}),
            ("near-central, eps = 1, delta = 0.7 (no D3)", {"epsilon": "1", "delta": "7/10",
                                                            "n": "10", "nearCentral": "true"}),
        ], [
            ("eps = 0", {**base, "epsilon": "0"}, "BadParameter"),
            ("negative eps", {**base, "epsilon": "-1"}, "BadParameter"),
            ("delta = 0", {**base, "delta": "0"}, "BadParameter"),
            ("delta = 1", {**base, "delta": "1"}, "BadParameter"),
        ]))
        nb = {"family": "negative_binomial", "r": "3", "p": "1/2"}
        g.append(self._group(tc, "ghazi.design.correlated_delta", {}, [
            ("a = 1/2, eps = 1, D3 = NB(3, 1/2)", {"epsilon": "1", "a": "1/2", "d3": nb}),
            ("a = 1/2, eps = ln 2 boundary side (eps = 7/10)", {"epsilon": "7/10", "a": "1/2",
                                                                "d3": nb}),
            ("a = 1/2, no D3 (poisson 0): delta = 1 - a", {
                "epsilon": "1", "a": "1/2", "d3": {"family": "poisson", "lambda": "0"},
                "d3Pmf": ["1"]}),
            ("a = 1/2, D3 = NB(r, 0): point mass", {
                "epsilon": "1", "a": "1/2",
                "d3": {"family": "negative_binomial", "r": "1", "p": "0"}}),
            ("a = 2/5, eps = 2, D3 = poisson(3)", {"epsilon": "2", "a": "2/5",
                                                   "d3": {"family": "poisson", "lambda": "3"}}),
            ("a = 1/2, eps = 1, D3 uniform on {0, 1}, with brute force", {
                "epsilon": "1", "a": "1/2", "d3": {"family": "negative_binomial", "r": "1",
                                                   "p": "1/2"}, "d3Pmf": ["1/2", "1/4", "1/8"]}),
        ], [
            ("a = 0", {"epsilon": "1", "a": "0", "d3": nb}, "BadParameter"),
            ("a = 1", {"epsilon": "1", "a": "1", "d3": nb}, "BadParameter"),
            ("eps below ln(1/a)", {"epsilon": "1/2", "a": "1/2", "d3": nb}, "BadParameter"),
        ]))
        priv = {"epsilon": "1", "delta": "1/1000000", "n": "1000"}
        g.append(self._group(tc, "ghazi.design.privacy", {}, [
            ("binary randomized response", {**priv, "kind": "rr"}),
            ("B-ary randomized response, B = 10", {**priv, "kind": "bary_rr", "B": "10"}),
            ("RAPPOR", {**priv, "kind": "rappor"}),
            ("Fragmented RAPPOR", {**priv, "kind": "fragmented_rappor"}),
            ("rr, n = 1, delta = 1e-300 (no amplification: local eps0 = eps)",
             {"epsilon": "1", "delta": "1/10" + "0" * 299, "n": "1", "kind": "rr"}),
            ("rr, delta = 1 (vacuous: the bisection's cap eps0 = 40 is returned)",
             {"epsilon": "1", "delta": "1", "n": "1000", "kind": "rr"}),
        ], [
            ("unknown kind", {**priv, "kind": "laplace"}, "BadParameter"),
        ]))
        nz = {"epsilon": "1", "delta": "1/1000000", "Delta": "1"}
        g.append(self._group(tc, "ghazi.design.noise", {}, [
            ("Theorem 11 lambda", {**nz, "kind": "theorem"}),
            ("exact minimal lambda", {**nz, "kind": "exact"}),
            ("Theorem 13 NB, Delta = 3", {**nz, "Delta": "3", "kind": "theorem13"}),
        ], [("unknown method", {**nz, "kind": "other"}, "BadParameter")]))
        g.append(self._group(tc, "ghazi.design.compare", {}, [
            ("sec. 5.1 rows at eps = 1, delta = 0.6, n = 100",
             {"epsilon": "1", "delta": "3/5", "n": "100"}),
            ("sec. 5.2 rows at eps = 2, delta = 0.9, n = 100, B = 4",
             {"epsilon": "2", "delta": "9/10", "n": "100", "B": "4"}),
        ]))
        g.append(self._group(tc, "ghazi.design.bounds", {}, [
            ("Theorem 3 rows, eps = 1, n = 2 (delta = n^-2 = 1/4 >= 1 - a)",
             {"epsilon": "1", "kind": "theorem3", "ns": ["2"]}),
            ("Lemma 15 rows, eps = 1, delta in {0.6, 0.7}",
             {"epsilon": "1", "kind": "lemma15", "deltas": ["0.6", "0.7"], "n": "100"}),
        ]))
        g.append(self._group(tc, "ghazi.design.exact_decimal", {}, [
            (f"q = {q}", {"q": q}) for q in ["3/8", "-3/8", "5", "1/3", "1/1000", "-7/4", "0"]]))
        return [self.vector_file("shuffled-design/ghazi_design.json",
                                 algorithm="GKMP20 parameter design and privacy (dpspec)",
                                 schema=SCHEMA, header=HEADER, notes=NOTES, groups=g)]


FAMILY = ShuffledDesignFamily()
