"""Vector family ``shuffled-limits``: the truncation points, window limits and input checks of the
shuffled-model modules (dpspec.spec.shuffled) that the results alone do not pin down.

The values these modules publish are certified or rounded, so a wrong truncation point or a wrong
tail charge moves them by far less than their tolerance. This family publishes the limits
themselves, from the spec's own functions (``_groups.recorded_calls`` where the function is
internal). One file, ``shuffled-limits/limits.json``:

* ``shl.bary.binomial_window``: the window of ``Bin(m, p)`` that the l-infinity bounds of B-ary
  randomized response keep (sec. 5.2 of [GKMP20], dpspec's certified sweep): first index, number
  of atoms, first and last atom and the bound on the mass left out.
* ``shl.bary.expected_linf``: the windows of every count law (``_count_window``) that
  ``bary_rr_expected_linf`` builds, and its certified interval, on datasets whose count laws are
  cut on one or both sides.
* ``shl.nb``: the parameter check of ``NB(r, p)`` (footnote 3 of [GKMP20]: ``0 <= p < 1``).
* ``shl.difference_pmf``: where ``P[D1 - D2 = k]`` truncates its convolution: the list of tail
  points probed by the doubling search, and the value.
* ``shl.exact.pmf_array``: the support ``0..hi`` of D3 used by the exact delta of the correlated
  mechanism with geometric D1 = D2 (Theorem 18 of [GKMP20] and dpspec's exact curve).
* ``shl.exact.correlated_delta``: its domain check ``eps >= ln(1/a)`` at the exact binary64 tie,
  the refusal of eps < 0, and inside the 10^-12 slack the larger of the formula and the bound
  ``1 - a e^eps`` on the other direction.
* ``shl.exact.slack_delta``: the same slack in the 40-digit ``correlated_delta_mp``.
* ``shl.exact.minimal_d3``: the refusal of delta outside (0, 1).
* ``shl.params.design_exact``: the exact design's checks and its ``delta >= 1 - a`` shortcut at
  the tie.
* ``shl.privacy.largest_eps0``: the largest local eps0 of the clone reduction ([FMT22]) when the
  upper end of the search, eps0 = 40, is itself private.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import mpmath

from dpspec.conformance.families._groups import Groups, compare_keys, recorded_calls
from dpspec.conformance.families.shuffled_design import _poi
from dpspec.conformance.jsonargs import DEC, RAT, int_arg
from dpspec.conformance.vectors import (
    VECTOR_SEED_HEADER,
    Case,
    Family,
    Handler,
    VectorFile,
    family_schema,
)
from dpspec.spec.shuffled import bary_linf, divisible, exact, fragmented, params, privacy
from dpspec.spec.shuffled.divisible import (
    Divisible,
    NegativeBinomial,
    ParameterError,
    Poisson,
    format_rational,
    rational,
)

SCHEMA = "shuffled_limits-v1.json"
#: significant digits of the published ball midpoints and tail bounds (192-bit balls: their
#: radii are below 10^-50 relative, so 15 digits are exact up to the last one)
BALL_DIGITS = 15
#: relative tolerances per output key; every other output is compared exactly
REL_TOL = {
    "first": mpmath.mpf("1e-12"), "last": mpmath.mpf("1e-12"), "lost": mpmath.mpf("1e-12"),
    "lower": mpmath.mpf("1e-10"), "upper": mpmath.mpf("1e-10"),
    # binary64 results of numpy/scipy: compared to 1e-9 relative (exact.py's own agreement bound)
    "delta": mpmath.mpf("1e-9"),
    # difference_pmf to dps = 5 digits
    "value": mpmath.mpf("1e-4"),
    # correlated_delta_mp at 40 digits (worked at 50; 1 - a loses 13 of them)
    "deltaMp": mpmath.mpf("1e-28"),
}


def _rat(args: dict[str, Any], key: str) -> Fraction:
    return rational(args[key], key)


def _d3(spec: dict[str, Any]) -> Divisible:
    family = spec.get("family")
    if family == "poisson":
        return Poisson(spec["lambda"])
    if family == "negative_binomial":
        return NegativeBinomial(spec["r"], spec["p"])
    raise ParameterError(f"unknown distribution family {family!r}")


def _dist_json(d: Divisible) -> dict[str, str]:
    return {"family": d.family, **d.params()}


def _ball_str(x: Any) -> str:
    """The midpoint of an ``arb`` ball to BALL_DIGITS significant digits."""
    with mpmath.workdps(60):
        return str(mpmath.nstr(bary_linf._exact_mpf(x.mid()), BALL_DIGITS))


def _with_prec(fn: Any) -> Any:
    """Run ``fn`` at the working precision bary_linf sets for its own computation."""
    from flint import ctx

    old = ctx.prec
    ctx.prec = bary_linf.PREC
    try:
        return fn()
    finally:
        ctx.prec = old


def _window_json(k0: int, atoms: list[Any], lost: Any) -> dict[str, str]:
    return {"k0": str(k0), "atoms": str(len(atoms)), "first": _ball_str(atoms[0]),
            "last": _ball_str(atoms[-1]), "lost": _ball_str(lost)}


# -- reference handlers ----------------------------------------------------------------------
def h_binomial_window(args: dict[str, Any]) -> dict[str, Any]:
    """bary_linf._binomial_window(m, p) at bary_linf.PREC bits."""
    m, p = int_arg(args, "m"), _rat(args, "p")
    if m < 0 or not 0 <= p <= 1:
        raise ParameterError("need m >= 0 and 0 <= p <= 1")
    out: dict[str, Any] = _with_prec(lambda: _window_json(*bary_linf._binomial_window(m, p)))
    return out


def h_expected_linf(args: dict[str, Any]) -> dict[str, Any]:
    """bary_linf.bary_rr_expected_linf(gamma, B, n, counts): the windows of the count laws it
    builds (``_count_window``, one per distinct true count, in call order) and its interval
    rounded outward to 12 digits."""
    counts = [int_arg({"c": c}, "c") for c in args["counts"]]
    with recorded_calls(bary_linf, "_count_window") as calls:
        b = bary_linf.bary_rr_expected_linf(_rat(args, "gamma"), int_arg(args, "B"),
                                            int_arg(args, "n"), counts)
    with mpmath.workdps(40):
        r = b.rounded(12)
        windows = [{"c": str(call.args[0]), **_window_json(*call.result)} for call in calls]
        return {"windows": windows, "lower": mpmath.nstr(r.lower, 12),
                "upper": mpmath.nstr(r.upper, 12)}


def h_nb(args: dict[str, Any]) -> dict[str, Any]:
    """NegativeBinomial(r, p): its mean and variance (exact rationals)."""
    d = NegativeBinomial(args["r"], args["p"])
    return {"mean": format_rational(d.mean()), "variance": format_rational(d.variance())}


def h_difference_pmf(args: dict[str, Any]) -> dict[str, Any]:
    """divisible.difference_pmf(D1, D2, k, dps) with D1, D2 Poisson: ``probes`` lists the
    arguments of D1's survival function calls (the doubling search for the truncation point),
    ``value`` the result to ``dps`` digits."""
    d1, d2 = Poisson(args["lambda1"]), Poisson(args["lambda2"])
    dps = int_arg(args, "dps")
    with recorded_calls(divisible.Poisson, "sf") as calls:
        v = divisible.difference_pmf(d1, d2, int_arg(args, "k"), dps)
    probes = [str(c.args[1]) for c in calls if c.args[0] is d1]
    with mpmath.workdps(dps):
        return {"probes": probes, "value": mpmath.nstr(v, dps)}


def h_pmf_array(args: dict[str, Any]) -> dict[str, Any]:
    """exact._pmf_array(D3): the number of PMF values kept (``hi + 1``)."""
    h, _ = exact._pmf_array(_d3(args["d3"]))
    return {"support": str(len(h))}


def h_correlated_delta(args: dict[str, Any]) -> dict[str, Any]:
    """exact.correlated_delta(eps, a, D3) at the binary64 eps given as a decimal string."""
    v = exact.correlated_delta(float(_rat(args, "epsilon")), _rat(args, "a"), _d3(args["d3"]))
    # 12 significant digits: the last bits of the binary64 sum depend on the numpy/scipy version
    return {"delta": format(float(v), ".12g")}


def h_slack_delta(args: dict[str, Any]) -> dict[str, Any]:
    """exact.correlated_delta_mp (40 digits) at a rational eps and a, D3 = Poisson(0) unless
    ``d3`` is given, for eps in the 10^-12 slack that correlated_delta allows below ln(1/a): the
    result is the larger of the formula and the bound ``1 - a e^eps`` on the other direction's
    hockey-stick sum (module docstring of dpspec.spec.shuffled.exact). With eps < 0 (possible in
    the slack when a is within 10^-12 of 1) ``a e^eps < a^2`` and every term past D3's support is
    positive: refused."""
    eps, a = _rat(args, "epsilon"), _rat(args, "a")
    d3 = _d3(args["d3"]) if "d3" in args else Poisson(0)
    vmp = exact.correlated_delta_mp(eps, a, d3)
    with mpmath.workdps(40):
        return {"deltaMp": mpmath.nstr(vmp, 32)}


def h_fragmented_atoms(args: dict[str, Any]) -> dict[str, Any]:
    """fragmented._binomial_atoms(m, f) at fragmented.DPS digits: first index and count."""
    m, f = int_arg(args, "m"), _rat(args, "f")
    with mpmath.workdps(fragmented.DPS):
        k0, probs, _ = fragmented._binomial_atoms(m, mpmath.mpf(f.numerator) / f.denominator)
    return {"k0": str(k0), "atoms": str(len(probs))}


def h_minimal_d3(args: dict[str, Any]) -> dict[str, Any]:
    """exact.minimal_correlated_d3(eps, delta, a) (binary64 eps and delta): its D3."""
    d = exact.minimal_correlated_d3(float(_rat(args, "epsilon")), float(_rat(args, "delta")),
                                    _rat(args, "a"))
    return {"d3": _dist_json(d)}


def h_design_exact(args: dict[str, Any]) -> dict[str, Any]:
    """params.design_correlated_exact(eps, delta, n, decay=a): its decay and D3."""
    d = params.design_correlated_exact(_rat(args, "epsilon"), _rat(args, "delta"),
                                       int_arg(args, "n"), decay=_rat(args, "decay"))
    return {"a": format_rational(d.a), "d3": _dist_json(d.d3)}


def h_largest_eps0(args: dict[str, Any]) -> dict[str, Any]:
    """privacy.rr_flip_probability(eps, delta, n): the eps0 its search returned (binary64, as
    repr) and the flip probability."""
    with recorded_calls(privacy, "_largest_eps0") as calls:
        p, _ = privacy.rr_flip_probability(float(_rat(args, "epsilon")),
                                           float(_rat(args, "delta")), int_arg(args, "n"))
    return {"eps0": [repr(float(c.result)) for c in calls], "p": format_rational(p)}


HANDLERS: dict[str, Handler] = {
    "shl.bary.binomial_window": h_binomial_window,
    "shl.bary.expected_linf": h_expected_linf,
    "shl.nb": h_nb,
    "shl.difference_pmf": h_difference_pmf,
    "shl.exact.pmf_array": h_pmf_array,
    "shl.exact.correlated_delta": h_correlated_delta,
    "shl.exact.slack_delta": h_slack_delta,
    "shl.exact.minimal_d3": h_minimal_d3,
    "shl.fragmented.binomial_atoms": h_fragmented_atoms,
    "shl.params.design_exact": h_design_exact,
    "shl.privacy.largest_eps0": h_largest_eps0,
}

HEADER = [
    "Truncation points, window limits and input checks of the shuffled-model modules of [GKMP20]",
    "(dpspec.spec.shuffled): sec. 5.2 (B-ary randomized response's l-infinity error), footnote 3",
    "and Theorem 18 (negative binomial noise, the correlated mechanism), the clone reduction of",
    "[FMT22] for the flip probabilities. Each refusal is an invalid test.",
    VECTOR_SEED_HEADER,
]

NOTES = {
    "BadParameter": "the reference refuses the input (ValueError).",
    "BinomialWindow": "the PMF of Bin(m, p) as 192-bit balls from the mode min(m, floor((m+1) p)) "
                      "outwards, each side stopping at the first atom below 10^-60 whose ratio to "
                      "its neighbour towards the mode is below 1; lost = the sum over the cut "
                      "sides of a / (1 - r) for that atom a and ratio r. Ball midpoints to 15 "
                      "digits, compared at 1e-12 relative; k0 and atoms exactly.",
    "CountWindows": "one entry per distinct true count c, in increasing c: the window of "
                    "Bin(c, p1) + Bin(n - c, p0) (k0 = the sum of the two first indices, lost = "
                    "the sum of the two bounds); lower and upper are the certified interval "
                    "rounded outward to 12 digits, compared at 1e-10 relative.",
    "Probes": "difference_pmf doubles m from 16 while P[D1 > m] + P[D2 > m] >= 10^-(dps+5); "
              "probes lists every m at which D1's tail was evaluated, compared exactly.",
    "Support": "exact._pmf_array: hi starts at floor(mean) + step, step = floor(10 sd) + 50, and "
               "grows by step until log P[D3 > hi] <= ln 10^-30; the point masses (Poisson(0), "
               "NB(r, 0)) keep one value. support = hi + 1, compared exactly.",
    "Binary64": "correlated_delta is binary64 (numpy/scipy): compared at 1e-9 relative.",
}


def compare_outputs(want: dict[str, Any], got: Any) -> str | None:
    """Relative REL_TOL on the keys listed there (also inside ``windows``); every other value
    (integers, rationals, lists of probes, distributions) exactly."""
    def check(k: str, w: Any, g: Any) -> str | None:
        if k == "windows" and isinstance(w, list):
            if not isinstance(g, list) or len(g) != len(w):
                return f"windows: expected {len(w)} windows, got {g!r}"
            for i, (ww, gw) in enumerate(zip(w, g, strict=True)):
                why = compare_keys(ww, gw, check)
                if why is not None:
                    return f"windows[{i}]: {why}"
            return None
        if k in REL_TOL and isinstance(g, str):
            try:
                with mpmath.workdps(50):
                    wv, gv = mpmath.mpf(w), mpmath.mpf(g)
                    if abs(gv - wv) <= REL_TOL[k] * abs(wv):
                        return None
            except ValueError:
                pass
            return f"{k}: {g!r} is not within {REL_TOL[k]} relative of {w!r}"
        return None if g == w else f"{k}: expected {w!r}, got {g!r}"

    return compare_keys(want, got, check)


_STR: dict[str, Any] = {"type": "string"}
_DIST: dict[str, Any] = {"type": "object"}


class ShuffledLimitsFamily(Family):
    name = "shuffled-limits"
    summary = ("shuffled-model limits: binomial windows and tail charges of the l-infinity bounds, "
               "truncation points, exact-delta domain checks")

    def handlers(self) -> dict[str, Handler]:
        return dict(HANDLERS)

    def compare(self, case: Case, provided: dict[str, Any]) -> str | None:
        assert case.expected is not None
        return compare_outputs(case.expected, provided)

    def schemas(self) -> dict[str, dict[str, Any]]:
        def obj(props: dict[str, Any]) -> dict[str, Any]:
            return {"type": "object", "required": sorted(props), "properties": props}

        window = {"k0": DEC, "atoms": DEC, "first": _STR, "last": _STR, "lost": _STR}
        ops: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
            "shl.bary.binomial_window": (
                {"properties": {"m": DEC, "p": RAT}}, obj(window)),
            "shl.bary.expected_linf": (
                {"properties": {"gamma": RAT, "B": DEC, "n": DEC,
                                "counts": {"type": "array", "items": DEC}}},
                obj({"windows": {"type": "array", "items": obj({"c": DEC, **window})},
                     "lower": _STR, "upper": _STR})),
            "shl.nb": ({"properties": {"r": RAT, "p": RAT}}, obj({"mean": RAT, "variance": RAT})),
            "shl.difference_pmf": (
                {"properties": {"lambda1": RAT, "lambda2": RAT, "k": DEC, "dps": DEC}},
                obj({"probes": {"type": "array", "items": DEC}, "value": _STR})),
            "shl.exact.pmf_array": ({"properties": {"d3": _DIST}}, obj({"support": DEC})),
            "shl.exact.correlated_delta": (
                {"properties": {"epsilon": _STR, "a": RAT, "d3": _DIST}}, obj({"delta": _STR})),
            "shl.exact.slack_delta": (
                {"properties": {"epsilon": RAT, "a": RAT, "d3": _DIST}},
                obj({"deltaMp": _STR})),
            "shl.fragmented.binomial_atoms": (
                {"properties": {"m": DEC, "f": RAT}}, obj({"k0": DEC, "atoms": DEC})),
            "shl.exact.minimal_d3": (
                {"properties": {"epsilon": _STR, "delta": _STR, "a": RAT}}, obj({"d3": _DIST})),
            "shl.params.design_exact": (
                {"properties": {"epsilon": RAT, "delta": RAT, "n": DEC, "decay": RAT}},
                obj({"a": RAT, "d3": _DIST})),
            "shl.privacy.largest_eps0": (
                {"properties": {"epsilon": _STR, "delta": _STR, "n": DEC}},
                obj({"eps0": {"type": "array", "items": _STR}, "p": RAT})),
        }
        return {SCHEMA: family_schema(SCHEMA, "shuffled-model limit vectors", ops)}

    def files(self) -> list[VectorFile]:
        return [self.vector_file(
            "shuffled-limits/limits.json", algorithm="shuffled-limits", schema=SCHEMA,
            header=HEADER, notes=NOTES, groups=_groups())]


#: 1.5e-13 below ln 2: inside correlated_delta's 10^-12 slack below ln(1/a) for a = 1/2
SLACK_EPS = "6931471805598/10000000000000"
#: the binary64 value that correlated_delta's check compares eps with for a = 1/2:
#: -ln(1/2) - 10^-12, i.e. 0.6931471805599453 - 1e-12 rounded to binary64
LN2_TIE = "0.6931471805589453"
LN2_BELOW = "0.6931471805589452"
#: 1 - 10^-15: a decay so close to 1 that ln(1/a) - 10^-12 < 0, so eps = 0 passes the
#: correlated_delta check and only the design's own check refuses it
NEAR_ONE_B64 = "2199023255551/2199023255552"  # 1 - 2^-41, exact in binary64
NEAR_ONE = "999999999999999/1000000000000000"
#: 1 - 10^-70 (a binomial whose atoms other than the top one are below the floor)
ALMOST_ONE = "9" * 70 + "/1" + "0" * 70


def _groups() -> list[dict[str, Any]]:
    g = Groups(HANDLERS)
    g.add("shl.bary.binomial_window",
          [("m = 200, p = 1/10: the upper tail is cut, the lower kept (P(0) = 0.9^200)",
            {"m": "200", "p": "1/10"}),
           ("m = 200, p = 9/10: the lower tail is cut, the upper kept", {"m": "200", "p": "9/10"}),
           ("m = 2000, p = 1/2: both tails cut", {"m": "2000", "p": "1/2"}),
           ("m = 1, p = 1 - 10^-70: mode 1, the atom at 0 is below the floor",
            {"m": "1", "p": ALMOST_ONE}),
           ("m = 3, p = 1 - 10^-70: mode 3, every other atom is below the floor",
            {"m": "3", "p": ALMOST_ONE}),
           ("m = 5, p = 0: one atom at 0", {"m": "5", "p": "0"}),
           ("m = 5, p = 1: one atom at 5", {"m": "5", "p": "1"})])
    g.add("shl.bary.expected_linf",
          [("B = 2, n = 400, counts 200/200, gamma = 1/2: both laws cut on one side",
            {"gamma": "1/2", "B": "2", "n": "400", "counts": ["200", "200"]}),
           ("B = 3, n = 300, counts 200/100/0, gamma = 1/3",
            {"gamma": "1/3", "B": "3", "n": "300", "counts": ["200", "100", "0"]})])
    g.add("shl.nb",
          [("p = 0 (a point mass at 0)", {"r": "2", "p": "0"}),
           ("p = 999/1000 (just below 1)", {"r": "1/2", "p": "999/1000"})],
          [("p = 1", {"r": "1", "p": "1"}, "BadParameter"),
           ("p = 3/2", {"r": "1", "p": "3/2"}, "BadParameter"),
           ("p = -1/2", {"r": "1", "p": "-1/2"}, "BadParameter"),
           ("r = 0", {"r": "0", "p": "1/2"}, "BadParameter")])
    g.add("shl.difference_pmf",
          [("dps 5, lambda 8: 2 P[Poi(8) > 32] = 6.4e-11, just below 10^-10: stop at 32",
            {"lambda1": "8", "lambda2": "8", "k": "1", "dps": "5"}),
           ("dps 5, lambda 21/10: 2 P[Poi(2.1) > 16] = 2.3e-10, just above 10^-10: on to 32",
            {"lambda1": "21/10", "lambda2": "21/10", "k": "0", "dps": "5"})])
    g.add("shl.exact.pmf_array",
          [("Poisson(0): one value", {"d3": _poi("0")}),
           ("NB(3, 0): one value", {"d3": {"family": "negative_binomial", "r": "3", "p": "0"}}),
           ("Poisson(1): step 60, one step", {"d3": _poi("1")}),
           ("Poisson(10^-40): mean 0, P[D3 > 0] = 10^-40 already below 10^-30",
            {"d3": _poi("1/1" + "0" * 40)}),
           ("NB(5, 1/2)", {"d3": {"family": "negative_binomial", "r": "5", "p": "1/2"}}),
           ("Poisson(400): sd 20, step 250", {"d3": _poi("400")})])
    g.add("shl.exact.correlated_delta",
          [("a = 1/2, eps = ln 2 - 10^-12 exactly (the tie of the check), D3 = Poisson(1)",
            {"epsilon": LN2_TIE, "a": "1/2", "d3": _poi("1")}),
           ("a = 1/2, eps = 1, D3 = Poisson(1)",
            {"epsilon": "1", "a": "1/2", "d3": _poi("1")})],
          [("a = 1/2, eps one binary64 step below the tie",
            {"epsilon": LN2_BELOW, "a": "1/2", "d3": _poi("1")},
            "BadParameter"),
           ("a = 0", {"epsilon": "1", "a": "0", "d3": _poi("1")},
            "BadParameter"),
           ("a = 1", {"epsilon": "1", "a": "1", "d3": _poi("1")},
            "BadParameter")])
    g.add("shl.exact.slack_delta", [],
          [("a = 1 - 10^-13, eps = -5 10^-13: inside the slack, but eps < 0 (a e^eps < a^2: the "
            "terms past the support would never stop)",
            {"epsilon": "-1/2000000000000", "a": "9999999999999/10000000000000"}, "BadParameter")])
    g.add("shl.fragmented.binomial_atoms",
          [("m = 43, f = 1/10: the first atom above the kept ones is 3.87e-41, just below the "
            "10^-40 floor", {"m": "43", "f": "1/10"})])
    g.add("shl.exact.minimal_d3", [],
          [("delta = 1", {"epsilon": "1", "delta": "1", "a": "1/2"}, "BadParameter"),
           ("delta = 3/2", {"epsilon": "1", "delta": "1.5", "a": "1/2"}, "BadParameter"),
           ("delta = 0", {"epsilon": "1", "delta": "0", "a": "1/2"}, "BadParameter")])
    g.add("shl.params.design_exact",
          [("delta = 1 - a = 1/2 exactly: no D3 (the tie of delta >= 1 - a)",
            {"epsilon": "1", "delta": "1/2", "n": "100", "decay": "1/2"}),
           ("delta = 3/4 > 1 - a: no D3", {"epsilon": "1", "delta": "3/4", "n": "100",
                                          "decay": "1/2"})],
          [("eps = 0, a = 1 - 10^-15 (the exact-delta check alone would let it through)",
            {"epsilon": "0", "delta": "1/2", "n": "100", "decay": NEAR_ONE}, "BadParameter"),
           ("eps = -10^-13, a = 1 - 10^-15",
            {"epsilon": "-1/10000000000000", "delta": "1/2", "n": "100", "decay": NEAR_ONE},
            "BadParameter"),
           ("delta = 0", {"epsilon": "1", "delta": "0", "n": "100", "decay": "1/2"},
            "BadParameter"),
           ("delta = 1", {"epsilon": "1", "delta": "1", "n": "100", "decay": "1/2"},
            "BadParameter")])
    g.add("shl.privacy.largest_eps0",
          [("eps 50, delta 0: the clone delta at eps0 = 40 is exactly 0 (eps >= eps0), the tie",
            {"epsilon": "50", "delta": "0", "n": "100"}),
           ("eps 40, delta 0: eps = eps0 = 40, still exactly 0",
            {"epsilon": "40", "delta": "0", "n": "100"})])
    # appended (earlier tcIds unchanged)
    g.add("shl.exact.correlated_delta",
          [("a = 1/2, eps = 6931471805598/10^13 (inside the slack, 1.5e-13 below ln 2), D3 = "
            "Poisson(1): the formula is above the slack bound 1 - e^eps / 2",
            {"epsilon": SLACK_EPS, "a": "1/2", "d3": _poi("1")})],
          [("a = 1 - 10^-13, eps = -5 10^-13: inside the slack but eps < 0",
            {"epsilon": "-1/2000000000000", "a": "9999999999999/10000000000000",
             "d3": _poi("1")}, "BadParameter")])
    g.add("shl.exact.slack_delta",
          [("a = 1/2, eps = 6931471805598/10^13, 1.5e-13 below ln 2: inside the slack, the "
            "formula (1/2) is above the bound 1 - e^eps / 2 (about 1.5e-13)",
            {"epsilon": SLACK_EPS, "a": "1/2"}),
           ("a = 1 - 5 10^-13, eps = 0 (inside the slack), D3 = Poisson(1): the bound 1 - a e^eps "
            "= 1 - a is above the formula", {"epsilon": "0", "a": "1999999999999/2000000000000",
                                             "d3": _poi("1")})],
          [("a = 1/2, eps = ln 2 - 2 10^-12 (as 6931471805579/10^13): below the slack",
            {"epsilon": "6931471805579/10000000000000", "a": "1/2"}, "BadParameter")])
    g.add("shl.bary.expected_linf",
          [("B = 5, n = 3, counts 3/0/0/0/0, gamma = 999/1000: the point mass's Poisson window "
            "is empty after the trim (every atom below the floor)",
            {"gamma": "999/1000", "B": "5", "n": "3", "counts": ["3", "0", "0", "0", "0"]}),
           ("B = 3, n = 1, counts 1/0/0, gamma = 10^-60: a CDF that starts at 0 (the product is "
            "recomputed, not divided by 0)",
            {"gamma": "1/1" + "0" * 60, "B": "3", "n": "1", "counts": ["1", "0", "0"]})])
    g.add("shl.exact.correlated_delta",
          [("a = 1 - 2^-41 (exact in binary64), eps = 0 (inside the slack: eps = 0 is allowed), "
            "D3 = Poisson(0): delta = 1 - a = 2^-41",
            {"epsilon": "0", "a": NEAR_ONE_B64, "d3": _poi("0")})])
    g.add("shl.exact.slack_delta", [],
          [("a = 1 (the domain check of correlated_delta_mp)", {"epsilon": "1", "a": "1"},
            "BadParameter"),
           ("a = 0", {"epsilon": "1", "a": "0"}, "BadParameter")])
    g.add("shl.bary.expected_linf",
          [("B = 3, n = 2, counts 2/0/0, gamma = 10^-60: a CDF that starts at 0 and is then "
            "raised (the product over the buckets is recomputed, not carried over)",
            {"gamma": "1/1" + "0" * 60, "B": "3", "n": "2", "counts": ["2", "0", "0"]})])
    g.add("shl.exact.correlated_delta",
          [("a = 1 - 2^-41, eps = 0, D3 = Poisson(10^6): the formula falls about 3.5e-9 (relative) "
            "below the bound 1 - a e^eps = 2^-41, which is the result (in binary64 too)",
            {"epsilon": "0", "a": NEAR_ONE_B64, "d3": _poi("1000000")})])
    return g.groups


FAMILY = ShuffledLimitsFamily()
