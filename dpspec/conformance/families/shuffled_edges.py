"""Vector family ``shuffled-edges``: the edges and intermediate values of the shuffled-model
modules that the other shuffled families pass over (dpspec.spec.shuffled).

One file, ``shuffled-edges/edges.json``:

* ``she.fragmented.params``: a Fragmented RAPPOR's exact moments, and its parameter checks.
* ``she.fragmented.binomial_atoms``: the truncated binomial law behind ``expected_linf``
  (first index, number of atoms kept, first and last atom, the dropped mass).
* ``she.fragmented.expected_linf``: ``E[max_j |est_j - h_j|]`` of (fragmented) RAPPOR, 20 digits.
* ``she.round_outward``: the directed decimal rounding of bary_linf.
* ``she.flip``: the flip / blanket probabilities of shuffled.privacy (rr, bary_rr, rappor,
  fragmented) where ``eps0`` is small, and their refusal when nothing is private.
* ``she.poisson_lambda``: shuffled.privacy.poisson_lambda and its refusal of an unknown method.
* ``she.design_correlated``: the Delta search of shuffled.params.design_correlated as a
  transcript of the D3 chooser's calls.
* ``she.histogram.randomize`` / ``she.histogram.analyze``: the histogram's input checks (the
  shuffled family's handlers).
* ``she.dlap_linf``, ``she.error_growth``, ``she.growth_row``: histogram_experiment's discrete
  Laplace expectation at 27 digits, an error-growth row (exact strings) and a row's JSON form.
* ``she.theorem3_rows``: lower_bounds.theorem3_rows with its default exponent c.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import mpmath

from dpspec.conformance.families._groups import Groups, compare_keys
from dpspec.conformance.families.shuffled import histogram_analyze, histogram_randomize
from dpspec.conformance.families.shuffled_accuracy import h_error_growth
from dpspec.conformance.jsonargs import DEC, HEX, RAT, int_arg
from dpspec.conformance.vectors import (
    VECTOR_SEED_HEADER,
    Case,
    Family,
    Handler,
    VectorFile,
    family_schema,
    vector_seed,
)
from dpspec.spec.shuffled import (
    fragmented,
    histogram_experiment,
    lower_bounds,
    params,
    privacy,
)
from dpspec.spec.shuffled.bary_linf import round_outward
from dpspec.spec.shuffled.divisible import ParameterError, format_rational, rational

SCHEMA = "shuffled_edges-v1.json"
#: significant digits of the published mpmath values (rounded up, bary_linf.round_outward)
LINF_DIGITS = 20
DLAP_DIGITS = 27
#: absolute tolerance on binomial_atoms' dropped mass: 1 - (sum of the kept atoms) at 30 digits
#: is the mass below 10^-40 plus rounding noise of about 10^-30
DROPPED_TOL = mpmath.mpf("1e-25")


def _rat(args: dict[str, Any], key: str) -> Fraction:
    return rational(args[key], key)


def _up(x: mpmath.mpf, digits: int) -> str:
    return str(mpmath.nstr(round_outward(x, digits, up=True), digits))


def _counts(args: dict[str, Any]) -> list[int]:
    raw = args["counts"]
    if not isinstance(raw, list):
        raise ParameterError("counts must be a list")
    return [int(str(c)) for c in raw]


# -- reference handlers ----------------------------------------------------------------------
def h_fragmented_params(args: dict[str, Any]) -> dict[str, Any]:
    """FragmentedRappor(f, B, n): variance, expected messages, E[C_j] for h = 1."""
    m = fragmented.FragmentedRappor(args["f"], int_arg(args, "B"), int_arg(args, "n"))
    return {"variance": format_rational(m.variance()),
            "expectedMessages": format_rational(m.expected_messages()),
            "meanCount1": format_rational(m.mean_count(1))}


def h_binomial_atoms(args: dict[str, Any]) -> dict[str, Any]:
    """fragmented._binomial_atoms(m, f) at fragmented.DPS digits."""
    m, f = int_arg(args, "m"), _rat(args, "f")
    with mpmath.workdps(fragmented.DPS):
        k0, probs, dropped = fragmented._binomial_atoms(m, mpmath.mpf(f.numerator) / f.denominator)
        return {"k0": str(k0), "atoms": str(len(probs)), "first": mpmath.nstr(probs[0], 15),
                "last": mpmath.nstr(probs[-1], 15), "dropped": mpmath.nstr(dropped, 6)}


def h_expected_linf(args: dict[str, Any]) -> dict[str, Any]:
    """fragmented.expected_linf(f, n, counts), rounded up to LINF_DIGITS digits."""
    v = fragmented.expected_linf(_rat(args, "f"), int_arg(args, "n"), _counts(args))
    return {"expectedLinf": _up(v, LINF_DIGITS)}


def h_round_outward(args: dict[str, Any]) -> dict[str, Any]:
    """bary_linf.round_outward(x, digits, up) on the dyadic rational x (exact in binary), or
    ``inf``; the result is published as its decimal value (``digits`` significant digits)."""
    digits = int_arg(args, "digits")
    with mpmath.workdps(50):
        if args["x"] == "inf":
            x = mpmath.inf
        else:
            q = _rat(args, "x")
            x = mpmath.mpf(q.numerator) / q.denominator  # exact: a dyadic rational
        r = round_outward(x, digits, bool(args["up"]))
        return {"rounded": mpmath.nstr(r, digits)}


FlipFn = Callable[[float, float, int, int], tuple[Fraction, str]]
FLIPS: dict[str, FlipFn] = {"rr": lambda e, d, n, b: privacy.rr_flip_probability(e, d, n),
         "bary_rr": privacy.bary_rr_blanket,
         "rappor": lambda e, d, n, b: privacy.rappor_flip_probability(e, d, n),
         "fragmented": lambda e, d, n, b: privacy.fragmented_rappor_flip_probability(e, d, n)}


def h_flip(args: dict[str, Any]) -> dict[str, Any]:
    """The shuffled.privacy calibration ``kind`` at binary64 (eps, delta)."""
    kind = args["kind"]
    if kind not in FLIPS:
        raise ParameterError(f"unknown kind {kind!r}")
    p, _ = FLIPS[kind](float(args["epsilon"]), float(args["delta"]), int_arg(args, "n"),
                       int_arg(args, "B"))
    return {"p": format_rational(p)}


def h_poisson_lambda(args: dict[str, Any]) -> dict[str, Any]:
    lam, _ = privacy.poisson_lambda(mpmath.mpf(str(args["epsilon"])),
                                    mpmath.mpf(str(args["delta"])),
                                    int_arg(args, "Delta"), str(args["method"]))
    return {"lambda": format_rational(lam)}


def h_design_correlated(args: dict[str, Any]) -> dict[str, Any]:
    """params.design_correlated with D3 by Theorem 13 (privacy.theorem13_noise), no D3 below
    ``minDelta``, and the default ``max_extra_sensitivity`` unless given; the transcript lists
    each Delta the chooser was asked about and the mean of its D3 (null: none)."""
    least = int_arg(args, "minDelta")
    calls: list[list[str | None]] = []

    def chooser(e2: mpmath.mpf, d2: mpmath.mpf, sens: int) -> Any:
        d3 = privacy.theorem13_noise(e2, d2, sens) if sens >= least else None
        calls.append([str(sens), None if d3 is None else format_rational(d3.mean())])
        return d3

    eps, delta, n = _rat(args, "epsilon"), _rat(args, "delta"), int_arg(args, "n")
    method = privacy.NB_METHODS["theorem"]
    decay = _rat(args, "decay") if "decay" in args else None
    if "maxExtraSensitivity" in args:
        d = params.design_correlated(eps, delta, n, chooser, method,
                                     max_extra_sensitivity=int_arg(args, "maxExtraSensitivity"),
                                     decay=decay)
    else:  # the default max_extra_sensitivity
        d = params.design_correlated(eps, delta, n, chooser, method, decay=decay)
    assert d.split is not None
    return {"calls": calls, "Delta": str(d.split.sensitivity), "a": format_rational(d.a)}


def h_dlap_linf(args: dict[str, Any]) -> dict[str, Any]:
    a = _rat(args, "a")
    with mpmath.workdps(histogram_experiment.DPS):
        v = histogram_experiment.dlap_expected_linf(mpmath.mpf(a.numerator) / a.denominator,
                                                    int_arg(args, "B"))
        return {"expectedLinf": _up(v, DLAP_DIGITS)}


def h_theorem3_rows(args: dict[str, Any]) -> dict[str, Any]:
    """lower_bounds.theorem3_rows(eps, ns) with its default exponent c (delta = n^-c)."""
    eps = _rat(args, "epsilon")
    ns = [int_arg({"n": x}, "n") for x in args["ns"]]
    with mpmath.workdps(lower_bounds.DPS):
        rows = lower_bounds.theorem3_rows(mpmath.mpf(eps.numerator) / eps.denominator, ns)
        return {"rows": [r.as_json() for r in rows]}


def h_growth_row(args: dict[str, Any]) -> dict[str, Any]:
    """GrowthRow(B, distribution, rmse, linf).as_json() on the given decimal values."""
    def vals(key: str) -> dict[str, mpmath.mpf]:
        return {k: mpmath.mpf(str(v)) for k, v in args[key].items()}
    with mpmath.workdps(histogram_experiment.DPS):
        row = histogram_experiment.GrowthRow(int_arg(args, "B"), str(args["distribution"]),
                                             vals("rmse"), vals("linf"))
        return {"row": row.as_json()}


HANDLERS: dict[str, Handler] = {
    "she.fragmented.params": h_fragmented_params,
    "she.fragmented.binomial_atoms": h_binomial_atoms,
    "she.fragmented.expected_linf": h_expected_linf,
    "she.round_outward": h_round_outward,
    "she.flip": h_flip,
    "she.poisson_lambda": h_poisson_lambda,
    "she.design_correlated": h_design_correlated,
    "she.histogram.randomize": histogram_randomize,
    "she.histogram.analyze": histogram_analyze,
    "she.dlap_linf": h_dlap_linf,
    "she.error_growth": h_error_growth,
    "she.theorem3_rows": h_theorem3_rows,
    "she.growth_row": h_growth_row,
}

HEADER = [
    "Edges and intermediate values of the shuffled-model modules of [GKMP20] (dpspec.spec.shuffled):",
    "parameter checks (each refusal is an invalid test), both sides of each comparison, and",
    "transcripts of multi-step computations. Seeds: sec. 5.2 and Theorem 18 of [GKMP20] (seed 004),",
    "[EFMRSTT20] for Fragmented RAPPOR, [FMT22]/[FMT20] for the clone bounds.",
    VECTOR_SEED_HEADER,
]

NOTES = {
    "BadParameter": "the reference refuses the input (ValueError): a parameter outside its "
                    "domain, or no parameter meets the privacy target.",
    "BinomialAtoms": "the PMF of Bin(m, f) from its mode int((m+1) f) outwards by the ratio "
                     "recurrence, each side stopping at the first atom below 10^-40 (mpmath at 30 "
                     "digits); k0 is the first kept index, dropped = max(0, 1 - sum of kept).",
    "Dropped": "binomial_atoms' dropped mass is compared with an absolute tolerance of 10^-25 (at "
               "30 digits it is rounding noise of about 10^-30 plus the mass below 10^-40).",
    "ErrorGrowth": "histogram_experiment.error_growth rows as GrowthRow.as_json prints them "
                   "(mpmath at 30 digits, 8 significant digits), compared exactly.",
    "ExpectedLinf": "fragmented.expected_linf at 30 digits, rounded up to 20 significant digits.",
    "FlipProbability": "the smallest multiple of 10^-12 private by the clone bound (eps, delta and "
                       "the bound are binary64); eps0 is bisected 60 times in (0, 40].",
    "DesignTranscript": "the chooser is Theorem 13 (privacy.theorem13_noise) for Delta >= minDelta "
                        "and none below; calls lists [Delta, mean of D3] in call order.",
    "DlapLinf": "histogram_experiment.dlap_expected_linf at 30 digits (terms summed until one is "
                "below 10^-25), rounded up to 27 significant digits.",
}


def compare_outputs(want: dict[str, Any], got: Any) -> str | None:
    """Exact, except ``dropped`` (absolute DROPPED_TOL): every other value is an exact integer,
    a rational or a decimal string."""
    def check(k: str, w: Any, g: Any) -> str | None:
        if k == "dropped" and isinstance(g, str):
            try:
                with mpmath.workdps(50):
                    if abs(mpmath.mpf(g) - mpmath.mpf(w)) <= DROPPED_TOL:
                        return None
            except ValueError:
                pass
            return f"dropped: {g!r} is not within {DROPPED_TOL} of {w!r}"
        return None if g == w else f"{k}: expected {w!r}, got {g!r}"

    return compare_keys(want, got, check)


_STR: dict[str, Any] = {"type": "string"}
_ANY: dict[str, Any] = {}


class ShuffledEdgesFamily(Family):
    name = "shuffled-edges"
    summary = ("shuffled-model edges: Fragmented RAPPOR's error law, privacy calibrations, the "
               "Theorem 18 Delta search, histogram checks")

    def handlers(self) -> dict[str, Handler]:
        return dict(HANDLERS)

    def compare(self, case: Case, provided: dict[str, Any]) -> str | None:
        assert case.expected is not None
        return compare_outputs(case.expected, provided)

    def schemas(self) -> dict[str, dict[str, Any]]:
        def obj(props: dict[str, Any]) -> dict[str, Any]:
            return {"type": "object", "required": sorted(props), "properties": props}

        noise = {"type": "object"}
        hist = {"B": DEC, "n": DEC, "d1": noise, "d2": noise, "d3": noise, "noise": noise}
        ops: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
            "she.fragmented.params": (
                {"properties": {"f": RAT, "B": DEC, "n": DEC}},
                obj({"variance": RAT, "expectedMessages": RAT, "meanCount1": RAT})),
            "she.fragmented.binomial_atoms": (
                {"properties": {"m": DEC, "f": RAT}},
                obj({"k0": DEC, "atoms": DEC, "first": _STR, "last": _STR, "dropped": _STR})),
            "she.fragmented.expected_linf": (
                {"properties": {"f": RAT, "n": DEC, "counts": {"type": "array", "items": DEC}}},
                obj({"expectedLinf": _STR})),
            "she.round_outward": (
                {"properties": {"x": {"anyOf": [RAT, {"const": "inf"}]}, "digits": DEC,
                                "up": {"type": "boolean"}}},
                obj({"rounded": _STR})),
            "she.flip": (
                {"properties": {"kind": {"enum": sorted(FLIPS)}, "epsilon": _STR, "delta": _STR,
                                "n": DEC, "B": DEC}},
                obj({"p": RAT})),
            "she.poisson_lambda": (
                {"properties": {"epsilon": _STR, "delta": _STR, "Delta": DEC,
                                "method": _STR}},
                obj({"lambda": RAT})),
            "she.design_correlated": (
                {"properties": {"epsilon": RAT, "delta": RAT, "n": DEC, "minDelta": DEC,
                                "maxExtraSensitivity": DEC, "decay": RAT}},
                obj({"calls": {"type": "array", "items": {"type": "array"}}, "Delta": DEC,
                     "a": RAT})),
            "she.histogram.randomize": (
                {"properties": {**hist, "seed": HEX, "x": DEC}},
                obj({"plus": {"type": "array"}, "minus": {"type": "array"},
                     "bitsConsumed": _ANY})),
            "she.histogram.analyze": (
                {"properties": {**hist, "plus": {"type": "array"}, "minus": {"type": "array"}}},
                obj({"estimates": {"type": "array", "items": RAT}})),
            "she.dlap_linf": (
                {"properties": {"a": RAT, "B": DEC}}, obj({"expectedLinf": _STR})),
            "she.error_growth": (
                {"properties": {"epsilon": RAT, "delta": RAT, "n": {"type": "integer"},
                                "Bs": {"type": "array", "items": {"type": "integer"}},
                                "distributions": {"type": "array", "items": _STR}}},
                obj({"rows": {"type": "array"}, "progress": {"type": "array"}})),
            "she.theorem3_rows": (
                {"properties": {"epsilon": RAT, "ns": {"type": "array", "items": DEC}}},
                obj({"rows": {"type": "array"}})),
            "she.growth_row": (
                {"properties": {"B": DEC, "distribution": _STR, "rmse": {"type": "object"},
                                "linf": {"type": "object"}}},
                obj({"row": {"type": "object"}})),
        }
        return {SCHEMA: family_schema(SCHEMA, "shuffled-model edge vectors", ops)}

    def files(self) -> list[VectorFile]:
        return [self.vector_file(
            "shuffled-edges/edges.json", algorithm="shuffled-edges", schema=SCHEMA,
            header=HEADER, notes=NOTES, groups=_groups())]


def _groups() -> list[dict[str, Any]]:
    g = Groups(HANDLERS)
    g.add("she.fragmented.params",
          [("f = 0 (no flips)", {"f": "0", "B": "1", "n": "1"}),
           ("f just below 1/2", {"f": "49/100", "B": "3", "n": "7"})],
          [("f < 0", {"f": "-1/10", "B": "2", "n": "2"}, "BadParameter"),
           ("f = 1/2", {"f": "1/2", "B": "2", "n": "2"}, "BadParameter"),
           ("B = 0", {"f": "1/10", "B": "0", "n": "2"}, "BadParameter"),
           ("n = 0", {"f": "1/10", "B": "2", "n": "0"}, "BadParameter")])
    g.add("she.fragmented.binomial_atoms",
          [("m = 0", {"m": "0", "f": "1/4"}),
           ("f = 0", {"m": "5", "f": "0"}),
           ("m = 1", {"m": "1", "f": "1/4"}),
           ("m = 1, f = 10^-45: mode 0, the atom at 1 is below the floor",
            {"m": "1", "f": "1/" + "1" + "0" * 45}),
           ("f = 1: all the mass at m", {"m": "2", "f": "1"}),
           ("m = 3, f = 1/3: mode 1", {"m": "3", "f": "1/3"}),
           ("m = 4, f = 2/5: mode (m+1) f = 2 exactly", {"m": "4", "f": "2/5"}),
           ("m = 60, f = 1/10: the upper tail is dropped", {"m": "60", "f": "1/10"}),
           ("m = 300, f = 2/5: both tails are dropped", {"m": "300", "f": "2/5"})])
    g.add("she.fragmented.expected_linf",
          [("n = 1, f = 0: no error", {"f": "0", "n": "1", "counts": ["1", "0"]}),
           ("n = 1, one bucket empty", {"f": "1/4", "n": "1", "counts": ["1", "0"]}),
           ("n = 3, three buckets", {"f": "1/3", "n": "3", "counts": ["2", "1", "0"]}),
           ("n = 4, equal buckets", {"f": "1/5", "n": "4", "counts": ["2", "2"]}),
           ("n = 80, truncated laws", {"f": "1/10", "n": "80", "counts": ["50", "30"]})],
          [("counts do not sum to n", {"f": "1/4", "n": "2", "counts": ["1", "0"]}, "BadParameter"),
           ("a negative count", {"f": "1/4", "n": "1", "counts": ["2", "-1"]}, "BadParameter")])
    g.add("she.round_outward",
          [("13/128 = 0.1015625 up", {"x": "13/128", "digits": "3", "up": True}),
           ("13/128 = 0.1015625 down", {"x": "13/128", "digits": "3", "up": False})],
          [("negative", {"x": "-13/128", "digits": "3", "up": True}, "BadParameter"),
           ("infinite", {"x": "inf", "digits": "3", "up": True}, "BadParameter")])
    flips = []
    for kind in sorted(FLIPS):
        for eps, delta, n in (("0.1", "1e-6", "100"), ("0.5", "1e-6", "1000"),
                              ("2", "1e-2", "100")):
            flips.append((f"{kind} eps {eps}, delta {delta}, n {n}",
                          {"kind": kind, "epsilon": eps, "delta": delta, "n": n, "B": "3"}))
    g.add("she.flip", flips,
          [(f"{kind}: delta < 0, nothing is private",
            {"kind": kind, "epsilon": "1", "delta": "-1e-300", "n": "100", "B": "3"}, "BadParameter")
           for kind in sorted(FLIPS)])
    g.add("she.poisson_lambda",
          [("theorem 11", {"epsilon": "1", "delta": "1e-6", "Delta": "1", "method": "theorem"})],
          [("unknown method", {"epsilon": "1", "delta": "1e-6", "Delta": "1",
                               "method": "other"}, "BadParameter")])
    base = {"epsilon": "1", "delta": "1/1000000", "n": "1000"}
    g.add("she.design_correlated",
          [("the whole search", {**base, "minDelta": "1"}),
           ("no D3 below Delta_min + 6 = 25 (default max extra sensitivity)",
            {**base, "minDelta": "25"}),
           ("max extra sensitivity 0", {**base, "minDelta": "1", "maxExtraSensitivity": "0"}),
           ("delta just below 1", {**base, "delta": "99/100", "minDelta": "1"})],
          [("epsilon = 0", {**base, "epsilon": "0", "minDelta": "1"}, "BadParameter"),
           ("epsilon = -1/2", {**base, "epsilon": "-1/2", "minDelta": "1"}, "BadParameter"),
           ("delta = -1/2", {**base, "delta": "-1/2", "minDelta": "1"}, "BadParameter"),
           ("delta = 0", {**base, "delta": "0", "minDelta": "1"}, "BadParameter"),
           ("delta = 1", {**base, "delta": "1", "minDelta": "1"}, "BadParameter"),
           ("decay spends all of epsilon", {**base, "decay": "1/3", "minDelta": "1"}, "BadParameter"),
           ("no D3 below Delta_min + 7 = 26", {**base, "minDelta": "26"}, "BadParameter")])
    hp = {"B": "3", "n": "2", "noise": {"family": "poisson", "lambda": "3"}}
    g.add("she.histogram.randomize",
          [("x = 2 (last bucket)", {"seed": vector_seed("shuffled-edges/hist").hex(), "x": "2"})],
          [("x = -1", {"seed": vector_seed("shuffled-edges/hist").hex(), "x": "-1"}, "BadParameter"),
           ("x = B", {"seed": vector_seed("shuffled-edges/hist").hex(), "x": "3"}, "BadParameter")],
          params=hp)
    g.add("she.histogram.analyze",
          [("B = 1", {"B": "1", "plus": ["3"], "minus": ["0"]})],
          [("B = 0 (an empty view)", {"B": "0", "plus": [], "minus": []}, "BadParameter")],
          params={"n": "2", "noise": {"family": "poisson", "lambda": "3"}})
    g.add("she.dlap_linf",
          [("a = 1/2, B = 1", {"a": "1/2", "B": "1"}),
           ("a = 9/10, B = 7", {"a": "9/10", "B": "7"})])
    g.add("she.error_growth",
          [("eps 1, delta 10^-6 (D3 needed), n 100, B 3, zipf data",
            {"epsilon": "1", "delta": "1/1000000", "n": 100, "Bs": [3],
             "distributions": ["zipf"]})])
    g.add("she.theorem3_rows",
          [("eps 2, n 4, the default c = 2 (delta = n^-2)", {"epsilon": "2", "ns": ["4"]})])
    g.add("she.growth_row",
          [("as_json", {"B": "2", "distribution": "zipf",
                        "rmse": {"x": "1.234567891234"}, "linf": {"y": "9.876543219876"}})])
    return g.groups


FAMILY = ShuffledEdgesFamily()
