"""Vector family ``shuffled-design``: how the shuffled-model mechanisms of [GKMP20] choose their
parameters (dpspec.spec.shuffled.params, exact, privacy, compare, lower_bounds).

The ``shuffled`` family runs the mechanisms on given parameters; this family pins down where the
parameters come from: the directed decimal rounding, the decay ``a`` of ``D1 = D2 = NB(1, a)``
(RMSE factor of sec. 5.1 and the near-central share of sec. 4.1), the Theorem 18 budget split with
D3 by Theorem 13, the exact privacy curve of the correlated mechanism and the minimal D3 it gives,
the shuffled randomized-response baselines, the rows of the comparisons of sec. 5 and the
lower-bound illustrations (Theorem 3, Lemma 15). All sections refer to seed 004 ([GKMP20]).

Encodings: exact rationals are strings ``a/b`` (or integers / finite decimals on input); values
computed in mpmath are published rounded *up* to the stated number of significant digits as
``<integer>e<exponent>``; values computed in binary64 (numpy/scipy) are published by
:func:`dpspec.conformance.vectors.binary64_text` (8 significant digits, never within 1e-11 relative
of a rounding boundary) and compared at 1e-7 relative (note ``Binary64``).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import mpmath

from dpspec.conformance.families._groups import Groups, compare_keys
from dpspec.conformance.jsonargs import any_value_ops
from dpspec.conformance.vectors import (
    Case,
    Family,
    Handler,
    InvalidCase,
    VectorFile,
    binary64_text,
    family_schema,
)
from dpspec.spec.shuffled import compare, exact, lower_bounds, params, privacy
from dpspec.spec.shuffled.divisible import (
    Divisible,
    NegativeBinomial,
    Poisson,
    difference_pmf,
    discrete_laplace_decay,
    format_rational,
)

NAME = "shuffled-design"
SCHEMA = "shuffled_design-v1.json"
MP_DIGITS = 20
B64_REL = 1e-7
MP_REL = 1e-18

#: outputs compared with a tolerance (all others exactly): key -> relative tolerance
TOLERANT = {"epsilon1": MP_REL, "epsilon2": MP_REL, "delta2": MP_REL, "delta3": MP_REL,
            "epsilon": MP_REL, "deltaMp": MP_REL, "deltaBinary64": B64_REL, "exactDelta": B64_REL,
            "pmf": MP_REL, "sf": MP_REL, "differencePmf": MP_REL, "decay": MP_REL,
            "decayFromMpf": MP_REL}

HEADER = [
    "Parameter design of the shuffled-model counting mechanisms of Ghazi, Kumar, Manurangsi, Pagh",
    "(ICML 2020; seed 004): directed decimal rounding, the decay a of D1 = D2 = NB(1, a), the",
    "Theorem 18 split with D3 by Theorem 13, the exact privacy curve of the correlated mechanism",
    "and its minimal negative binomial D3, the shuffled randomized-response baselines, the rows of",
    "the comparisons of sec. 5 and the lower-bound illustrations (Theorem 3, Lemma 15).",
    "Exact rationals are strings a/b; mpmath values are rounded up to 20 significant digits and",
    "written <integer>e<exponent>. An invalid test must be refused (an error, no output).",
]
DIVISIBLE_HEADER = [
    "shuffled.divisible.noise (dpspec.spec.shuffled.divisible; sec. 3 of [GKMP20]): for D ="
    " poisson(lambda) (P[k] = lambda^k e^-lambda/k!) or negative_binomial(r, p) (P[k] = C(k+r-1, k)"
    " (1-p)^r p^k): mean and variance exactly (lambda, lambda; r p/(1-p), r p/(1-p)^2), the share"
    " D/n (poisson(lambda/n), negative_binomial(r/n, p); n >= 1 else refused), pmf = P[D = k] (0"
    " for k < 0) and sf = P[D > k] (1 for k < 0; 0 for the point mass lambda = 0 or p = 0; else"
    " the regularised incomplete gamma P(k+1, lambda) or beta I_p(k+1, r)), computed at 50 digits.",
    "shuffled.divisible.difference_pmf: P[D1 - D2 = k] = sum_{j >= max(0, k)} P[D1 = j] P[D2 = j - k]"
    " for j up to terms + max(0, k); terms given, or else the first m in 16, 32, 64, ... with"
    " P[D1 > m] + P[D2 > m] < 10^-55; the sum is computed at 60 digits and returned at the"
    " caller's precision, here 53 bits (rounded to nearest): differencePmf is that binary number.",
    "shuffled.divisible.dlap_decay: a = e^-eps, the decay of DLap(eps) (footnote 4 of [GKMP20]);"
    " decay from the exact eps, decayFromMpf from eps given as a 60-digit mpmath number.",
    "pmf, sf, differencePmf, decay and decayFromMpf are rounded up to 20 significant digits and"
    " compared at 1e-18 relative.",
]
NOTES = {
    "Boundary": "An input at the edge of a branch or of its allowed range.",
    "BadParameter": "An input outside its allowed range: the computation must refuse it.",
    "BadMethod": "An unknown method name.",
    "MinDelta": "shuffled.params.theorem18 with minDelta uses a D3 chooser that has no D3 for"
                " Delta < minDelta and Theorem 13's NB otherwise (the skip of a Delta in the search"
                " of design_correlated).",
    "Binary64": "The value is computed in binary64 (D3's PMF from log-PMFs, the recursion"
                " G(m) = h(m) + a^2 G(m-1)); it is published rounded to nearest at 8 significant digits"
                " (Python's '.8g' form), never within 1e-11 relative of a rounding boundary, and compared at"
                " 1e-7 relative. mpmath values (20 digits, rounded up) are compared at 1e-18 relative;"
                " every other output exactly.",
    "TailCut": "Where D3's support is cut (dpspec.spec.shuffled.exact). correlated_delta_mp at 40"
               " digits (working precision 50): hi = floor(E[D3]) + 16, doubled while"
               " P[D3 > hi] > 10^-45; delta = (1 - a) * sum over m = 0..hi of"
               " max(0, G(m) - a e^eps G(m-1)), G(m) = P[D3 = m] + a^2 G(m-1), G(-1) = 0, plus"
               " P[D3 > hi], or 1 - a e^eps if that is larger. correlated_delta in binary64:"
               " step = floor(10 sd) + 50, hi ="
               " floor(E[D3]) + step, raised by step while ln P[D3 > hi] > ln 10^-30; the PMF on"
               " 0..hi, plus P[D3 > hi], or 1 - a e^eps if larger. brute_force: both geometrics on"
               " j = 0..zmax, zmax = floor(ln(10^-18) / ln a) + 2.",
    "Search": "The result of a search on binary64 values of the exact privacy curve (golden-section"
              " search of 1 - p, bisection of r), rounded to 6 significant digits as the spec states"
              " (1 - p down, r up) and re-checked.",
}


# -- arguments and encodings -------------------------------------------------------------------
def _rat(args: dict[str, Any], key: str) -> Fraction:
    if key not in args:
        raise ValueError(f"missing argument {key}")
    v = args[key]
    if isinstance(v, bool) or not isinstance(v, str | int):
        raise ValueError(f"{key} must be an exact rational string")
    try:
        return Fraction(v)
    except (ValueError, ZeroDivisionError) as exc:
        raise ValueError(f"{key}: {exc}") from None


def _int(args: dict[str, Any], key: str, lo: int) -> int:
    v = args.get(key)
    if isinstance(v, bool) or not isinstance(v, int) or v < lo:
        raise ValueError(f"{key} must be an integer >= {lo}")
    return v


def _mp(x: Fraction) -> mpmath.mpf:
    return mpmath.mpf(x.numerator) / x.denominator


def _up(x: Any, digits: int = MP_DIGITS) -> str:
    """An mpmath value rounded up to ``digits`` significant digits as ``<integer>e<exponent>``."""
    with mpmath.workdps(digits + 30):
        x = mpmath.mpf(x)
        if x == 0:
            return "0"
        e = int(mpmath.floor(mpmath.log10(abs(x)))) - digits + 1
        q = int(mpmath.ceil(x / mpmath.mpf(10) ** e))
        if abs(q) >= 10**digits:  # log10 rounded down across a power of ten
            e += 1
            q = int(mpmath.ceil(x / mpmath.mpf(10) ** e))
        return f"{q}e{e}"


def _noise(args: dict[str, Any], key: str) -> Divisible:
    obj = args.get(key)
    if not isinstance(obj, dict):
        raise ValueError(f"{key} must be an object")
    fam = obj.get("family")
    if fam == "poisson" and set(obj) == {"family", "lambda"}:
        return Poisson(_rat(obj, "lambda"))
    if fam == "negative_binomial" and set(obj) == {"family", "r", "p"}:
        return NegativeBinomial(_rat(obj, "r"), _rat(obj, "p"))
    raise ValueError(f"{key}: unknown noise description")


def _noise_json(d: Divisible) -> dict[str, str]:
    return {"family": d.family, **{k: format_rational(Fraction(v)) for k, v in d.params().items()}}


# -- handlers ----------------------------------------------------------------------------------
def op_decimal(args: dict[str, Any]) -> dict[str, Any]:
    """``shuffled.params.decimal``: decimal_up / decimal_down of an exact rational."""
    x, digits = _rat(args, "x"), _int(args, "digits", 0)
    return {"up": format_rational(params.decimal_up(x, digits)),
            "down": format_rational(params.decimal_down(x, digits))}


def op_decay(args: dict[str, Any]) -> dict[str, Any]:
    """``shuffled.params.decay``: the decay a by the RMSE factor (sec. 5.1) and the near-central
    decay (sec. 4.1), each with ``eps1 = ln(1/a)``."""
    eps = _rat(args, "epsilon")
    if eps <= 0:
        raise ValueError("epsilon must be > 0")
    factor = _rat(args, "rmseFactor")
    a = params.correlated_decay(eps, factor)
    b = params.near_central_decay(eps)
    return {"a": format_rational(a), "epsilon1": _up(params.epsilon_of_decay(a)),
            "nearCentralA": format_rational(b),
            "nearCentralEpsilon1": _up(params.epsilon_of_decay(b))}


def _design_json(d: params.CorrelatedDesign) -> dict[str, Any]:
    out: dict[str, Any] = {"a": format_rational(d.a), "epsilon1": _up(d.epsilon1),
                           "d3": _noise_json(d.d3), "method": d.method,
                           "mse": format_rational(d.mse()),
                           "expectedMessages": format_rational(d.expected_messages())}
    if d.split is not None:
        sp = d.split
        out.update({"epsilon2": _up(sp.epsilon2), "Delta": sp.sensitivity,
                    "delta2": _up(sp.delta2), "delta3": _up(sp.delta3)})
    return out


def _decay_arg(args: dict[str, Any]) -> Fraction | None:
    if "decay" not in args:
        return None
    a = _rat(args, "decay")
    if not 0 < a < 1:
        raise ValueError("decay must be in (0, 1)")
    return a


def _target(args: dict[str, Any]) -> tuple[Fraction, Fraction, int]:
    return _rat(args, "epsilon"), _rat(args, "delta"), _int(args, "n", 1)


def op_theorem18(args: dict[str, Any]) -> dict[str, Any]:
    """``shuffled.params.theorem18``: design_correlated with D3 by Theorem 13 (or by
    ``nearCentral``, design_near_central with the same chooser)."""
    eps, delta, n = _target(args)
    if args.get("nearCentral") is True:
        d = params.design_near_central(eps, delta, n, privacy.theorem13_noise,
                                       privacy.NB_METHODS["theorem"])
    else:
        chooser: params.D3Chooser = privacy.theorem13_noise
        if "minDelta" in args:  # a chooser that has no D3 below minDelta (the skip of a Delta)
            least = _int(args, "minDelta", 1)

            def chooser(e2: mpmath.mpf, d2: mpmath.mpf, sens: int) -> NegativeBinomial | None:
                return privacy.theorem13_noise(e2, d2, sens) if sens >= least else None

        d = params.design_correlated(eps, delta, n, chooser, privacy.NB_METHODS["theorem"],
                                     _rat(args, "rmseFactor"),
                                     _int(args, "maxExtraSensitivity", 0), _decay_arg(args))
    return _design_json(d)


def op_exact_design(args: dict[str, Any]) -> dict[str, Any]:
    """``shuffled.params.exact``: design_correlated_exact (D3 by the exact curve)."""
    eps, delta, n = _target(args)
    if args.get("nearCentral") is True:
        d = params.design_near_central(eps, delta, n)
    else:
        d = params.design_correlated_exact(eps, delta, n, _rat(args, "rmseFactor"),
                                           _decay_arg(args))
    return {**_design_json(d), "exactDelta": binary64_text(d.exact_delta())}


def op_distributed(args: dict[str, Any]) -> dict[str, Any]:
    """``shuffled.params.distributed``: a Poisson DistributedDesign (lambda by privacy.poisson_lambda)."""
    eps, delta, n = _target(args)
    method = args.get("method")
    if not isinstance(method, str):
        raise ValueError("method must be a string")
    lam, how = privacy.poisson_lambda(_mp(eps), _mp(delta), _int(args, "Delta", 1), method)
    d = params.DistributedDesign(_mp(eps), _mp(delta), n, Poisson(lam), how)
    return {"lambda": format_rational(lam), "method": d.method, "mse": format_rational(d.mse()),
            "expectedMessages": format_rational(d.expected_messages()),
            "mechanismNoise": _noise_json(d.mechanism().noise)}


def op_correlated_delta(args: dict[str, Any]) -> dict[str, Any]:
    """``shuffled.exact.correlated_delta``: delta(eps) of the (NB(1,a), NB(1,a), D3) mechanism, in
    binary64 (correlated_delta) and in mpmath (correlated_delta_mp)."""
    eps, a, d3 = _rat(args, "epsilon"), _rat(args, "a"), _noise(args, "d3")
    fast = exact.correlated_delta(float(eps), a, d3)
    return {"deltaBinary64": binary64_text(fast), "deltaMp": _up(exact.correlated_delta_mp(eps, a, d3))}


def op_correlated_delta_mp(args: dict[str, Any]) -> dict[str, Any]:
    """``shuffled.exact.correlated_delta_mp``: correlated_delta_mp alone (40 digits, the default),
    for decays ``a`` too close to 1 for binary64."""
    eps, a, d3 = _rat(args, "epsilon"), _rat(args, "a"), _noise(args, "d3")
    if not 0 < a < 1:
        raise ValueError("a must be in (0, 1)")
    return {"deltaMp": _up(exact.correlated_delta_mp(eps, a, d3))}


def op_brute_force(args: dict[str, Any]) -> dict[str, Any]:
    """``shuffled.exact.brute_force``: the 2-D hockey-stick divergence by definition."""
    eps, a = _rat(args, "epsilon"), _rat(args, "a")
    pmf = args.get("d3Pmf")
    if not isinstance(pmf, list) or not pmf:
        raise ValueError("d3Pmf must be a non-empty list")
    h = [Fraction(v) if isinstance(v, str) else _rat({"v": v}, "v") for v in pmf]
    if not 0 < a < 1 or any(v < 0 for v in h) or sum(h) != 1:
        raise ValueError("need 0 < a < 1 and a PMF")
    return {"deltaBinary64": binary64_text(exact.brute_force_correlated_delta(float(eps), a,
                                                                    [float(v) for v in h]))}


def op_minimal_d3(args: dict[str, Any]) -> dict[str, Any]:
    """``shuffled.exact.minimal_d3``: minimal_correlated_d3 (6 significant digits)."""
    eps, delta, a = _rat(args, "epsilon"), _rat(args, "delta"), _rat(args, "a")
    ranges: dict[str, Any] = {k: float(_rat(args, key)) for k, key in (("min_one_minus_p", "minOneMinusP"),
                                                       ("max_one_minus_p", "maxOneMinusP"))
              if key in args}
    d3 = exact.minimal_correlated_d3(float(eps), float(delta), a, **ranges)
    return {"d3": _noise_json(d3), "mean": format_rational(d3.mean())}


def op_baseline(args: dict[str, Any]) -> dict[str, Any]:
    """``shuffled.privacy.baseline``: the flip / blanket probability of a randomized-response
    baseline (rr, bary, rappor, fragmented)."""
    eps, delta, n = _target(args)
    kind = args.get("kind")
    if kind == "rr":
        v, how = privacy.rr_flip_probability(float(eps), float(delta), n)
    elif kind == "bary":
        v, how = privacy.bary_rr_blanket(float(eps), float(delta), n, _int(args, "B", 2))
    elif kind == "rappor":
        v, how = privacy.rappor_flip_probability(float(eps), float(delta), n)
    elif kind == "fragmented":
        v, how = privacy.fragmented_rappor_flip_probability(float(eps), float(delta), n)
    else:
        raise ValueError("kind must be rr, bary, rappor or fragmented")
    return {"probability": format_rational(v), "method": how}


def _rows(rows: list[compare.Row]) -> list[dict[str, Any]]:
    return [r.as_json() for r in rows]


def op_compare_row(args: dict[str, Any]) -> dict[str, Any]:
    """``shuffled.compare.design``: one row of sec. 5.1 by compare's design helpers."""
    eps, delta, n = _target(args)
    e, d = _mp(eps), _mp(delta)
    design, method = args.get("design"), args.get("method")
    if not isinstance(method, str):
        raise ValueError("method must be a string")
    if design == "correlated":
        row = compare.correlated_row(compare.correlated_design(e, d, n, method), design, design)
    elif design == "near_central":
        row = compare.correlated_row(compare.near_central_design(e, d, n, method), design, design)
    elif design == "poisson":
        row = compare.poisson_row(compare.poisson_design(e, d, n, method), design, design)
    else:
        raise ValueError("design must be correlated, near_central or poisson")
    return {"row": row.as_json()}


def op_binary(args: dict[str, Any]) -> dict[str, Any]:
    """``shuffled.compare.binary``: the rows of sec. 5.1; ``theorems`` and ``nearCentral`` are
    passed only when given (else binary_comparison's defaults: theorems, no near-central rows)."""
    eps, delta, n = _target(args)
    flags: dict[str, Any] = {name: args[key] is True
                             for key, name in (("theorems", "theorems"), ("nearCentral", "near_central"))
                             if key in args}
    return {"rows": _rows(compare.binary_comparison(_mp(eps), _mp(delta), n, **flags))}


def op_histogram(args: dict[str, Any]) -> dict[str, Any]:
    """``shuffled.compare.histogram``: the rows of sec. 5.2."""
    eps, delta, n = _target(args)
    return {"rows": _rows(compare.histogram_comparison(_mp(eps), _mp(delta), n,
                                                       _int(args, "B", 2)))}


def op_exact_decimal(args: dict[str, Any]) -> dict[str, Any]:
    """``shuffled.compare.exact_decimal``: a rational as a terminating decimal, or a/b."""
    return {"text": compare.exact_decimal(_rat(args, "x"))}


def op_lower_bounds(args: dict[str, Any]) -> dict[str, Any]:
    """``shuffled.lower_bounds.rows``: Theorem 3 (binary RR at delta = n^-c) or Lemma 15 rows."""
    eps = _rat(args, "epsilon")
    kind = args.get("kind")
    if kind == "theorem3":
        ns = args.get("ns")
        if not isinstance(ns, list) or not all(isinstance(v, int) and v >= 2 for v in ns):
            raise ValueError("ns must be a list of integers >= 2")
        rows = lower_bounds.theorem3_rows(_mp(eps), ns, _int(args, "c", 1))
    elif kind == "lemma15":
        ds = args.get("deltas")
        if not isinstance(ds, list) or not all(isinstance(v, str) for v in ds):
            raise ValueError("deltas must be a list of decimal strings")
        rows = lower_bounds.lemma15_rows(_mp(eps), ds, _int(args, "n", 1))
    else:
        raise ValueError("kind must be theorem3 or lemma15")
    return {"rows": [r.as_json() for r in rows]}


def op_noise(args: dict[str, Any]) -> dict[str, Any]:
    """``shuffled.divisible.noise``: exact moments of D, its share D/n, P[D = k] and P[D > k]."""
    d = _noise(args, "noise")
    k = args.get("k")
    if isinstance(k, bool) or not isinstance(k, int):
        raise ValueError("k must be an integer")
    share = d.share(args.get("n"))  # type: ignore[arg-type]  # the spec checks n
    return {"mean": format_rational(d.mean()), "variance": format_rational(d.variance()),
            "share": _noise_json(share), "pmf": _up(d.pmf(k)), "sf": _up(d.sf(k))}


def op_difference(args: dict[str, Any]) -> dict[str, Any]:
    """``shuffled.divisible.difference_pmf``: P[D1 - D2 = k] by truncated convolution."""
    d1, d2 = _noise(args, "d1"), _noise(args, "d2")
    k = args.get("k")
    if isinstance(k, bool) or not isinstance(k, int):
        raise ValueError("k must be an integer")
    terms = _int(args, "terms", 0) if "terms" in args else None
    with mpmath.workprec(53):  # the caller's precision, to which the spec rounds its result
        value = difference_pmf(d1, d2, k, terms=terms)
    return {"differencePmf": _up(value)}


def op_dlap_decay(args: dict[str, Any]) -> dict[str, Any]:
    """``shuffled.divisible.dlap_decay``: a = e^-eps, from the exact eps and from eps as an mpmath
    number."""
    eps = _rat(args, "epsilon")
    with mpmath.workdps(60):
        eps_mp = _mp(eps)
    return {"decay": _up(discrete_laplace_decay(eps)),
            "decayFromMpf": _up(discrete_laplace_decay(eps_mp))}


OPS: dict[str, tuple[Handler, tuple[str, ...]]] = {
    "shuffled.params.decimal": (op_decimal, ("x", "digits")),
    "shuffled.params.decay": (op_decay, ("epsilon", "rmseFactor")),
    "shuffled.params.theorem18": (op_theorem18, ("epsilon", "delta", "n", "rmseFactor",
                                                 "maxExtraSensitivity", "decay", "nearCentral",
                                                 "minDelta")),
    "shuffled.params.exact": (op_exact_design, ("epsilon", "delta", "n", "rmseFactor", "decay",
                                                "nearCentral")),
    "shuffled.params.distributed": (op_distributed, ("epsilon", "delta", "n", "Delta", "method")),
    "shuffled.exact.correlated_delta": (op_correlated_delta, ("epsilon", "a", "d3")),
    "shuffled.exact.correlated_delta_mp": (op_correlated_delta_mp, ("epsilon", "a", "d3")),
    "shuffled.exact.brute_force": (op_brute_force, ("epsilon", "a", "d3Pmf")),
    "shuffled.exact.minimal_d3": (op_minimal_d3, ("epsilon", "delta", "a", "minOneMinusP",
                                                  "maxOneMinusP")),
    "shuffled.privacy.baseline": (op_baseline, ("epsilon", "delta", "n", "kind", "B")),
    "shuffled.compare.exact_decimal": (op_exact_decimal, ("x",)),
    "shuffled.compare.design": (op_compare_row, ("epsilon", "delta", "n", "design", "method")),
    "shuffled.compare.binary": (op_binary, ("epsilon", "delta", "n", "theorems", "nearCentral")),
    "shuffled.compare.histogram": (op_histogram, ("epsilon", "delta", "n", "B")),
    "shuffled.lower_bounds.rows": (op_lower_bounds, ("epsilon", "kind", "ns", "c", "deltas", "n")),
    "shuffled.divisible.noise": (op_noise, ("noise", "n", "k")),
    "shuffled.divisible.difference_pmf": (op_difference, ("d1", "d2", "k", "terms")),
    "shuffled.divisible.dlap_decay": (op_dlap_decay, ("epsilon",)),
}


def _close(want: Any, got: Any, key: str) -> str | None:
    if isinstance(want, dict):
        if not isinstance(got, dict):
            return f"{key}: expected an object"
        return compare_keys(want, got, lambda k, w, g: _close(w, g, k))
    if isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            return f"{key}: expected a list of {len(want)}"
        for w, g in zip(want, got, strict=True):
            why = _close(w, g, key)
            if why:
                return why
        return None
    if key in TOLERANT and isinstance(want, str):
        if not isinstance(got, str):
            return f"{key}: expected a number string, got {got!r}"
        try:
            with mpmath.workdps(40):
                w, g = mpmath.mpf(want), mpmath.mpf(got)
                if abs(g - w) <= mpmath.mpf(TOLERANT[key]) * abs(w):
                    return None
        except ValueError:
            pass
        return f"{key}: expected {want} (rel {TOLERANT[key]:g}), got {got}"
    if got != want or type(got) is not type(want):
        return f"{key}: expected {want!r}, got {got!r}"
    return None


# -- generation --------------------------------------------------------------------------------
def _nb(r: str, p: str) -> dict[str, str]:
    return {"family": "negative_binomial", "r": r, "p": p}


def _poi(lam: str) -> dict[str, str]:
    return {"family": "poisson", "lambda": lam}


Valid = list[tuple[str, dict[str, Any], list[str]]]


def _cases() -> dict[str, tuple[Valid, list[InvalidCase]]]:
    t1 = {"epsilon": "1", "delta": "1/1000000", "n": 1000}
    return {
        "shuffled.params.decimal": ([
            ("1/3 to 12 digits", {"x": "1/3", "digits": 12}, []),
            ("2/3 to 12 digits", {"x": "2/3", "digits": 12}, []),
            ("an exact multiple of 10^-3: up = down", {"x": "0.125", "digits": 3}, ["Boundary"]),
            ("one unit above a multiple", {"x": "1250001/10000000", "digits": 3}, []),
            ("one unit below a multiple", {"x": "1249999/10000000", "digits": 3}, []),
            ("digits 0", {"x": "7/2", "digits": 0}, ["Boundary"]),
            ("a negative value", {"x": "-7/3", "digits": 2}, []),
            ("zero", {"x": "0", "digits": 5}, ["Boundary"]),
            ("1/7 to 30 digits", {"x": "1/7", "digits": 30}, []),
        ], [
            ("digits -1", {"x": "1/3", "digits": -1}, "BadParameter"),
            ("x a float", {"x": 0.5, "digits": 2}, "BadParameter"),
        ]),
        "shuffled.params.decay": ([
            (f"eps {e}, RMSE factor {f}", {"epsilon": e, "rmseFactor": f},
             ["Boundary"] if f == "1" else [])
            for e, f in (("1", "6/5"), ("1/10", "6/5"), ("3", "6/5"), ("1", "1"), ("1/2", "2"))
        ], [
            ("RMSE factor below 1", {"epsilon": "1", "rmseFactor": "99/100"}, "BadParameter"),
            ("epsilon 0", {"epsilon": "0", "rmseFactor": "6/5"}, "BadParameter"),
        ]),
        "shuffled.params.theorem18": ([
            ("eps 1, delta 1e-6, RMSE factor 1.2, up to 6 extra Delta",
             {**t1, "rmseFactor": "6/5", "maxExtraSensitivity": 6}, []),
            ("no extra Delta: only the smallest", {**t1, "rmseFactor": "6/5",
                                                   "maxExtraSensitivity": 0}, ["Boundary"]),
            ("one extra Delta", {**t1, "rmseFactor": "6/5", "maxExtraSensitivity": 1}, []),
            ("eps 1/2, delta 1e-3, RMSE factor 2",
             {"epsilon": "1/2", "delta": "1/1000", "n": 50, "rmseFactor": "2",
              "maxExtraSensitivity": 6}, []),
            ("a given decay 1/2", {**t1, "rmseFactor": "6/5", "maxExtraSensitivity": 3,
                                   "decay": "1/2"}, []),
            ("decay 1/2, delta = 2^-17 (1 + 10^-6): delta2 tiny at Delta_min = 19, more Delta is"
             " cheaper", {**t1, "delta": "1000001/131072000000", "rmseFactor": "6/5",
                          "maxExtraSensitivity": 6, "decay": "1/2"}, []),
            ("decay 1/2, delta = 2^-17 (1 + 10^-6), no extra Delta",
             {**t1, "delta": "1000001/131072000000", "rmseFactor": "6/5",
              "maxExtraSensitivity": 0, "decay": "1/2"}, ["Boundary"]),
            ("decay 1/2, delta = 2^-17 = 2 e^(2 eps1) a^20: no delta2 left at Delta 19",
             {**t1, "delta": "1/131072", "rmseFactor": "6/5", "maxExtraSensitivity": 2,
              "decay": "1/2"}, ["Boundary"]),
            ("a large delta: Delta_min = 1", {"epsilon": "2", "delta": "9/10", "n": 10,
                                              "rmseFactor": "6/5", "maxExtraSensitivity": 2},
             ["Boundary"]),
            ("near-central instance (sec. 4.1)", {**t1, "nearCentral": True}, []),
            ("the chooser has no D3 below Delta 21: Delta_min 19 and 20 are skipped",
             {**t1, "rmseFactor": "6/5", "maxExtraSensitivity": 6, "minDelta": 21},
             ["Boundary", "MinDelta"]),
            ("the chooser has no D3 below Delta 25 = Delta_min + 6: only the last Delta",
             {**t1, "rmseFactor": "6/5", "maxExtraSensitivity": 6, "minDelta": 25},
             ["Boundary", "MinDelta"]),
        ], [
            ("the chooser has no D3 below Delta 26 > Delta_min + 6: no design",
             {**t1, "rmseFactor": "6/5", "maxExtraSensitivity": 6, "minDelta": 26},
             "BadParameter"),
            ("epsilon 0", {**t1, "epsilon": "0", "rmseFactor": "6/5", "maxExtraSensitivity": 2},
             "BadParameter"),
            ("delta 0", {**t1, "delta": "0", "rmseFactor": "6/5", "maxExtraSensitivity": 2},
             "BadParameter"),
            ("delta 1", {**t1, "delta": "1", "rmseFactor": "6/5", "maxExtraSensitivity": 2},
             "BadParameter"),
            ("a decay with ln(1/a) > eps leaves nothing for D3",
             {**t1, "rmseFactor": "6/5", "maxExtraSensitivity": 2, "decay": "1/3"},
             "BadParameter"),
            ("RMSE factor 1 leaves nothing for D3",
             {**t1, "rmseFactor": "1", "maxExtraSensitivity": 2}, "BadParameter"),
        ]),
        "shuffled.params.exact": ([
            ("delta just above 1 - a: no D3 (Poi(0))",
             {"epsilon": "1", "delta": "0.56", "n": 10, "rmseFactor": "6/5", "decay": "0.45"},
             ["Boundary"]),
            ("delta just below 1 - a: a small D3",
             {"epsilon": "1", "delta": "0.54", "n": 10, "rmseFactor": "6/5", "decay": "0.45"},
             ["Boundary", "Search"]),
        ], [
            ("epsilon 0", {**t1, "epsilon": "0", "rmseFactor": "6/5"}, "BadParameter"),
            ("delta 0", {**t1, "delta": "0", "rmseFactor": "6/5"}, "BadParameter"),
            ("delta 1", {**t1, "delta": "1", "rmseFactor": "6/5"}, "BadParameter"),
        ]),
        "shuffled.params.distributed": ([
            ("Theorem 11, Delta 1", {**t1, "Delta": 1, "method": "theorem"}, []),
            ("Theorem 11, Delta 2", {**t1, "Delta": 2, "method": "theorem"}, []),
            ("exact minimal lambda", {**t1, "Delta": 1, "method": "exact"}, []),
        ], [
            ("an unknown method", {**t1, "Delta": 1, "method": "guess"}, "BadMethod"),
        ]),
        "shuffled.exact.correlated_delta": ([
            ("no D3: delta = 1 - a", {"epsilon": "1", "a": "1/2", "d3": _poi("0")}, []),
            ("NB(0 probability) D3 = point mass", {"epsilon": "1", "a": "1/2",
                                                   "d3": _nb("2", "0")}, []),
            ("D3 = NB(3, 1/2)", {"epsilon": "1", "a": "1/2", "d3": _nb("3", "1/2")}, []),
            ("D3 = NB(20, 9/10)", {"epsilon": "1", "a": "2/5", "d3": _nb("20", "9/10")}, []),
            ("D3 = Poi(5)", {"epsilon": "1", "a": "1/2", "d3": _poi("5")}, []),
            ("eps = ln(1/a) up to rounding: eps 0.6931471805599453 for a = 1/2",
             {"epsilon": "0.6931471805599453", "a": "1/2", "d3": _poi("5")}, ["Boundary"]),
            ("a large eps", {"epsilon": "5", "a": "1/2", "d3": _nb("3", "1/2")}, []),
        ], [
            ("a = 0", {"epsilon": "1", "a": "0", "d3": _poi("5")}, "BadParameter"),
            ("a = 1", {"epsilon": "1", "a": "1", "d3": _poi("5")}, "BadParameter"),
            ("eps below ln(1/a)", {"epsilon": "0.69", "a": "1/2", "d3": _poi("5")},
             "BadParameter"),
        ]),
        "shuffled.exact.brute_force": ([
            ("point mass D3", {"epsilon": "1", "a": "1/2", "d3Pmf": ["1"]}, []),
            ("D3 on {0, 1, 2}", {"epsilon": "1", "a": "1/2", "d3Pmf": ["1/2", "1/4", "1/4"]}, []),
            ("D3 on {0, 1, 2}, eps 3/2", {"epsilon": "3/2", "a": "1/3",
                                         "d3Pmf": ["1/5", "3/5", "1/5"]}, []),
        ], [
            ("not a PMF", {"epsilon": "1", "a": "1/2", "d3Pmf": ["1/2"]}, "BadParameter"),
        ]),
        "shuffled.exact.minimal_d3": ([
        ], [
            ("delta 0", {"epsilon": "1", "delta": "0", "a": "1/2"}, "BadParameter"),
            ("delta 1", {"epsilon": "1", "delta": "1", "a": "1/2"}, "BadParameter"),
        ]),
        "shuffled.privacy.baseline": ([
            (f"{k}, eps 1, delta 1e-6, n 1000", {**t1, "kind": k, **({"B": 4} if k == "bary" else {})},
             []) for k in ("rr", "bary", "rappor", "fragmented")
        ] + [
            ("rr: a large eps (the flip probability at its floor 10^-12)",
             {"epsilon": "100", "delta": "1/2", "n": 10, "kind": "rr"}, ["Boundary"]),
        ], [
            ("an unknown kind", {**t1, "kind": "laplace"}, "BadMethod"),
        ]),
        "shuffled.compare.exact_decimal": ([
            (f"x = {x}", {"x": x}, []) for x in ("3/8", "-3/8", "5", "1/3", "7/20", "100", "1/1024",
                                                   "-1/3", "0")
        ], []),
        "shuffled.compare.design": ([
            ("correlated by Theorems 18 + 13", {**t1, "design": "correlated", "method": "theorem"},
             []),
            ("near-central by Theorems 18 + 13", {**t1, "design": "near_central",
                                                  "method": "theorem"}, []),
            ("Poisson by Theorem 11", {**t1, "design": "poisson", "method": "theorem"}, []),
        ], [
            ("correlated, unknown method", {**t1, "design": "correlated", "method": "x"},
             "BadMethod"),
            ("near-central, unknown method", {**t1, "design": "near_central", "method": "x"},
             "BadMethod"),
        ]),
        "shuffled.compare.binary": ([
            ("sec. 5.1 at eps 1, delta 1e-6, n 1000, all rows", {**t1, "theorems": True,
                                                                 "nearCentral": True}, ["Search"]),
        ], []),
        "shuffled.compare.histogram": ([
            ("sec. 5.2 at eps 1, delta 1e-6, n 1000, B 4", {**t1, "B": 4}, ["Search"]),
        ], []),
        "shuffled.lower_bounds.rows": ([
            ("Theorem 3 at eps 1, n 100, delta n^-2",
             {"epsilon": "1", "kind": "theorem3", "ns": [100], "c": 2}, ["Search"]),
            ("Lemma 15 at eps 1, n 1000", {"epsilon": "1", "kind": "lemma15",
                                           "deltas": ["1e-3"], "n": 1000}, ["Search"]),
        ], [
            ("an unknown kind", {"epsilon": "1", "kind": "theorem4"}, "BadMethod"),
        ]),
    }


#: a decay within 10^-30 of 1 (a decimal string: 30 nines); closer to 1, the 50-digit working
#: precision of correlated_delta_mp would leave fewer than 20 correct digits in 1 - a
A_NEAR_ONE = "0.999999999999999999999999999999"


def _appended() -> dict[str, list[tuple[str, Valid, list[InvalidCase]]]]:
    """Groups appended after a file's first groups (later additions; earlier tcIds unchanged)."""
    nb = _nb("1", "1/2")
    return {
        "params": [
            ("shuffled.params.theorem18", [
                ("decay 3/4, delta = 2 a^10 = 2 e^(2 eps1) a^12 exactly: Delta_min = 12 (at 11 no"
                 " delta2 is left)", {"epsilon": "1", "delta": "59049/524288", "n": 1000,
                                      "rmseFactor": "6/5", "maxExtraSensitivity": 0,
                                      "decay": "3/4"}, ["Boundary"]),
                ("decay 1/5, delta = 2 a^9 = 2 e^(2 eps1) a^11 exactly: Delta_min = 11",
                 {"epsilon": "2", "delta": "2/1953125", "n": 1000, "rmseFactor": "6/5",
                  "maxExtraSensitivity": 1, "decay": "1/5"}, ["Boundary"]),
            ], []),
            ("shuffled.compare.exact_decimal", [
                (f"x = {x}: {why}", {"x": x}, []) for x, why in (
                    ("1/9", "a denominator divisible by 9, not by 10"),
                    ("1/11", "a denominator divisible by 11, not by 10"),
                    ("7/110", "a factor 10 and a factor 11"),
                    ("-33/40", "a negative decimal"))
            ], []),
            ("shuffled.compare.binary", [
                ("sec. 5.1 at eps 3, delta 1e-3, n 10, theorems and nearCentral not given: the"
                 " defaults (rows by Theorems 18 + 13 and 11, no near-central rows)",
                 {"epsilon": "3", "delta": "1/1000", "n": 10}, ["Search"]),
            ], []),
        ],
        "exact": [
            ("shuffled.exact.minimal_d3", [], [
                ("1 - p searched in [1 - 2e-11, 1 - 1e-11]: no r up to 10^12 is private enough",
                 {"epsilon": "1", "delta": "1/1000000", "a": "1/2",
                  "minOneMinusP": "0.99999999998", "maxOneMinusP": "0.99999999999"},
                 "BadParameter"),
            ]),
            ("shuffled.exact.correlated_delta", [
                ("D3 = NB(2, 0) (the point 0) at eps = ln(1/a) up to rounding: delta = 1 - a",
                 {"epsilon": "0.6931471805599453", "a": "1/2", "d3": _nb("2", "0")}, ["Boundary"]),
                ("a tiny delta, D3 = poisson(100), eps 200: the binary64 sum is its tail beyond"
                 " D3's cut", {"epsilon": "200", "a": "1/2", "d3": _poi("100")},
                 ["Boundary", "TailCut"]),
            ], []),
            ("shuffled.exact.correlated_delta_mp", [
                ("a = 1 - 10^-30, D3 = poisson(57/100), eps 1: delta = (1-a) P[D3 = 0] ~ 5.7e-31 plus"
                 " the tail P[D3 > 32] = 5.8e-46 (the first of 16, 32, ... with a tail <= 10^-45)",
                 {"epsilon": "1", "a": A_NEAR_ONE, "d3": _poi("57/100")}, ["Boundary", "TailCut"]),
                ("a = 1 - 10^-30, D3 = poisson(3/5), eps 1: P[D3 > 32] = 3.1e-45 > 10^-45, so the"
                 " cut moves on to 64 (tail ~ 10^-74)",
                 {"epsilon": "1", "a": A_NEAR_ONE, "d3": _poi("3/5")}, ["Boundary", "TailCut"]),
                ("a = 1/2, D3 = NB(3, 1/2), eps 1 (as correlated_delta)",
                 {"epsilon": "1", "a": "1/2", "d3": _nb("3", "1/2")}, []),
            ], []),
            ("shuffled.exact.brute_force", [
                ("a = 9/10: the geometric is cut at j = 395",
                 {"epsilon": "1", "a": "9/10", "d3Pmf": ["1"]}, ["TailCut"]),
                ("a = 10^-12: the geometric is cut at j = 3",
                 {"epsilon": "30", "a": "1/1000000000000", "d3Pmf": ["1/2", "1/2"]},
                 ["Boundary", "TailCut"]),
                ("a tiny true delta ((1-a) 10^-30 at eps 100): the value is that of the cut, the"
                 " mass of views one dataset reaches only through j = zmax = 61 (about 2^-62)",
                 {"epsilon": "100", "a": "1/2", "d3Pmf": ["1/" + "1" + "0" * 30,
                                                         "9" * 30 + "/1" + "0" * 30]},
                 ["Boundary", "TailCut"]),
            ], []),
        ],
        "compare": [
            ("shuffled.privacy.baseline", [
                (f"{k}, delta = 1: already private at the search's cap eps0 = 40",
                 {"epsilon": "1", "delta": "1", "n": 10, "kind": k, **({"B": 4} if k == "bary" else {})},
                 ["Boundary"]) for k in ("rr", "bary", "rappor")
            ], [
                (f"{k}, a negative delta: no eps0 > 0 qualifies",
                 {"epsilon": "1", "delta": "-1/1000000", "n": 10, "kind": k,
                  **({"B": 4} if k == "bary" else {})}, "BadParameter")
                for k in ("rr", "bary", "rappor", "fragmented")
            ]),
            ("shuffled.privacy.baseline", [
                (f"{k}, eps 41 above the search's cap eps0 = 40, delta 0: private by the local"
                 " guarantee alone (the clone delta is exactly 0 for eps >= eps0)",
                 {"epsilon": "41", "delta": "0", "n": 10, "kind": k, **({"B": 4} if k == "bary" else {})},
                 ["Boundary"]) for k in ("rr", "bary", "rappor")
            ], []),
        ],
        "divisible": [
            ("shuffled.divisible.noise", [
                ("poisson(3/2), n 3, k 2", {"noise": _poi("3/2"), "n": 3, "k": 2}, []),
                ("poisson(3/2), n 1, k -1: P[D > -1] = 1, P[D = -1] = 0",
                 {"noise": _poi("3/2"), "n": 1, "k": -1}, ["Boundary"]),
                ("poisson(0), n 2, k 0: the point 0", {"noise": _poi("0"), "n": 2, "k": 0},
                 ["Boundary"]),
                ("negative binomial(5/2, 2/3), n 5, k 4", {"noise": _nb("5/2", "2/3"), "n": 5, "k": 4},
                 []),
                ("negative binomial(1, 1/2), n 2, k -1", {"noise": nb, "n": 2, "k": -1}, ["Boundary"]),
                ("negative binomial(3, 0), n 4, k 1: the point 0", {"noise": _nb("3", "0"), "n": 4,
                                                                     "k": 1}, ["Boundary"]),
            ], [
                ("n = 0", {"noise": _poi("3/2"), "n": 0, "k": 1}, "BadParameter"),
                ("negative binomial, n = 0", {"noise": nb, "n": 0, "k": 1}, "BadParameter"),
                ("n = -1", {"noise": _poi("3/2"), "n": -1, "k": 1}, "BadParameter"),
            ]),
            ("shuffled.divisible.difference_pmf", [
                ("NB(1, 1/2) - NB(1, 1/2) at 0 (discrete Laplace 1/3)", {"d1": nb, "d2": nb, "k": 0},
                 []),
                ("NB(1, 1/2) - NB(1, 1/2) at 3", {"d1": nb, "d2": nb, "k": 3}, []),
                ("NB(1, 1/2) - NB(1, 1/2) at -2", {"d1": nb, "d2": nb, "k": -2}, []),
                ("poisson(3/2) - NB(1, 1/2) at 2", {"d1": _poi("3/2"), "d2": nb, "k": 2}, []),
                ("NB(1, 1/2) - poisson(3/2) at -1, truncated at 8 terms",
                 {"d1": nb, "d2": _poi("3/2"), "k": -1, "terms": 8}, []),
                ("poisson(0) - poisson(0) at 0 (no doubling: both tails 0 at 16)",
                 {"d1": _poi("0"), "d2": _poi("0"), "k": 0}, ["Boundary"]),
            ], []),
            ("shuffled.divisible.dlap_decay", [
                (f"eps = {e}", {"epsilon": e}, []) for e in ("1", "1/2", "0", "13/5")
            ], []),
            ("shuffled.divisible.noise", [
                ("poisson(1), n 1, k 2: lambda 1 is not the point mass",
                 {"noise": _poi("1"), "n": 1, "k": 2}, ["Boundary"]),
                ("negative binomial(1, 1/2), n 1, k 0: P[D > 0] = 1 - (1-p)^r = 1/2",
                 {"noise": nb, "n": 1, "k": 0}, ["Boundary"]),
            ], [
                ("n = true (a JSON boolean is not a count)", {"noise": _poi("3/2"), "n": True, "k": 1},
                 "BadParameter"),
                ("negative binomial, n = true", {"noise": nb, "n": True, "k": 1}, "BadParameter"),
                ("poisson(0), n = -1 (the share poisson(0) would exist)",
                 {"noise": _poi("0"), "n": -1, "k": 1}, "BadParameter"),
                ("lambda = -1 (k -1: every output would exist)",
                 {"noise": _poi("-1"), "n": 1, "k": -1}, "BadParameter"),
                ("negative binomial r = 0 (k -1: every output would exist)",
                 {"noise": _nb("0", "1/2"), "n": 1, "k": -1}, "BadParameter"),
                ("negative binomial r = -1 (k -1)", {"noise": _nb("-1", "1/2"), "n": 1, "k": -1},
                 "BadParameter"),
                ("negative binomial p = -1/2 (k -1: every output would exist)",
                 {"noise": _nb("2", "-1/2"), "n": 1, "k": -1}, "BadParameter"),
                ("negative binomial p = 1", {"noise": _nb("2", "1"), "n": 1, "k": -1},
                 "BadParameter"),
            ]),
            ("shuffled.divisible.difference_pmf", [
                ("NB(1, 1/2) - NB(1, 1/2) at 2, truncated at 3 terms: j = 2..5",
                 {"d1": nb, "d2": nb, "k": 2, "terms": 3}, ["Boundary"]),
                ("poisson(3/2) - NB(1, 1/2) at 4, truncated at 0 terms: the single j = 4",
                 {"d1": _poi("3/2"), "d2": nb, "k": 4, "terms": 0}, ["Boundary"]),
            ], []),
        ],
    }


class ShuffledDesignFamily(Family):
    name = NAME
    summary = "Shuffled-model parameter design of [GKMP20]: rounding, Theorem 18, exact curve, sec. 5"

    def handlers(self) -> dict[str, Handler]:
        return {op: h for op, (h, _names) in OPS.items()}

    def schemas(self) -> dict[str, dict[str, Any]]:
        ops = any_value_ops({op: names for op, (_h, names) in OPS.items()})
        return {SCHEMA: family_schema(SCHEMA, "shuffled-model parameter design vectors", ops)}

    def compare(self, case: Case, provided: dict[str, Any]) -> str | None:
        assert case.expected is not None
        return _close(case.expected, provided, "")

    def files(self) -> list[VectorFile]:
        cases = _cases()
        appended = _appended()
        groups: dict[str, list[str]] = {
            "params": ["shuffled.params.decimal", "shuffled.params.decay",
                       "shuffled.params.theorem18", "shuffled.params.exact",
                       "shuffled.params.distributed"],
            "exact": ["shuffled.exact.correlated_delta", "shuffled.exact.brute_force",
                      "shuffled.exact.minimal_d3"],
            "compare": ["shuffled.privacy.baseline", "shuffled.compare.exact_decimal",
                        "shuffled.compare.design", "shuffled.compare.binary",
                        "shuffled.compare.histogram", "shuffled.lower_bounds.rows"],
        }
        groups["divisible"] = []
        titles = {"params": "parameter design (dpspec.spec.shuffled.params; sec. 4.1, 5.1)",
                  "divisible": "infinitely divisible noise: moments, shares, PMF, tails, the"
                               " difference D1 - D2 and the discrete Laplace decay (sec. 3, 4)",
                  "exact": "exact privacy curve of the correlated mechanism (Theorem 18 setting)",
                  "compare": "baselines and the comparisons of sec. 5 (Theorem 3, Lemma 15)"}
        out = []
        for stem, ops in groups.items():
            file_groups = Groups(self.handlers())  # one numbering per file
            for op in ops:
                file_groups.add(op, *cases[op])
            for op, valid, invalid in appended.get(stem, []):
                file_groups.add(op, valid, invalid)
            header = HEADER + DIVISIBLE_HEADER if stem == "divisible" else HEADER
            out.append(self.vector_file(f"{NAME}/{stem}.json", algorithm=titles[stem],
                                        schema=SCHEMA, header=header, notes=NOTES,
                                        groups=file_groups.groups))
        return out


FAMILY = ShuffledDesignFamily()
