"""Vector family ``accounting-numeric``: the numeric building blocks every accounting figure goes
through (dpspec.spec.accounting.numeric): how a parameter is read (exactly, with which types and
strings refused), the working precision, conservative decimal rounding, and the searches that turn
a monotone predicate into a published number.

Sources: the module's own contract (its docstring: parameters are exact rationals, mpmath runs at
40 significant digits, a published epsilon, delta or noise scale is rounded toward +infinity so it
is never more optimistic than the exact value), [BW18] Algorithm 1 (the bisection a calibrated
sigma comes from), the DP draft sec. 6.1.2 (the sensitivity ``"sqrt(2)"``) and MJTB+22 sec. 4.3
(the accountant reads epsilons and deltas exactly). Every op pins one rule an implementer must
reproduce digit for digit: the direction and position of each rounding, exact ties, zero and
negative zero, the exponent and length limits of a parameter, and the first, last and tied points
of each search (with the points it evaluated, in order).
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

import mpmath

from dpspec.conformance.families._groups import build_group, memoised
from dpspec.conformance.families.accounting import AccountingFilesFamily, published
from dpspec.conformance.vectors import Handler, TestNumberer
from dpspec.spec.accounting import numeric

SCHEMA = "accounting_numeric-v1.json"
NAME = "accounting-numeric"
P = "accounting_numeric."

#: exact results (rationals, decimal texts, integers, transcripts): compared as exact JSON values
EXACT = (0.0, 0.0)
#: mpmath values at 40 digits rounded up to 20 significant digits, compared relatively
MP = (1e-15, 0.0)

TOLERANCE: dict[str, tuple[float, float]] = {
    P + "to_fraction": EXACT,
    P + "working_precision": EXACT,
    P + "check": EXACT,
    P + "round_sig": EXACT,
    P + "compact": EXACT,
    P + "round_fixed": EXACT,
    P + "grid_step_down": EXACT,
    P + "smallest_on_grid": EXACT,
    P + "bisect_increasing": MP,
    P + "bisect_int": EXACT,
    P + "smallest_int": EXACT,
    P + "golden_section": MP,
}


# -- inputs -----------------------------------------------------------------------------------
def host_value(a: dict[str, Any], key: str = "value") -> Any:
    """The input ``a[key]`` as the host type ``a["as"]`` names: a JSON string, integer or boolean
    as it is (``as`` absent), or a string converted to a binary64 ``float``, a ``Decimal``, a
    ``Fraction`` or an ``mpf`` (read at the working precision) first. The spec's functions accept
    each of these, and refuse some of their values (a non-finite float, Decimal or mpf)."""
    v = a[key]
    kind = a.get("as")
    if kind is None:
        return v
    if not isinstance(v, str):
        raise TypeError(f"{key}: a {kind} input is given as a string")
    if kind == "float":
        return float(v)
    if kind == "decimal":
        return Decimal(v)
    if kind == "fraction":
        return Fraction(v)
    if kind == "mpf":
        return mpmath.mpf(v)
    raise ValueError(f"unknown input type {kind!r}")


def _dps(a: dict[str, Any]) -> int:
    """The working precision of the call: ``precision`` decimal digits, default numeric.DPS."""
    p = a.get("precision", numeric.DPS)
    if isinstance(p, bool) or not isinstance(p, int) or not 10 <= p <= 1000:
        raise ValueError("precision must be an integer number of digits in 10..1000")
    return p


def _rational(f: Fraction) -> dict[str, str]:
    return {"numerator": str(f.numerator), "denominator": str(f.denominator)}


def _up(a: dict[str, Any]) -> bool:
    d = a["direction"]
    if d not in ("up", "down"):
        raise ValueError("direction must be up or down")
    return bool(d == "up")


def _grid_text(v: mpmath.mpf, digits: int) -> str:
    """A point the grid search evaluated (the mpf of a ``digits``-digit decimal), as that decimal:
    nearest rounding to ``digits`` digits gives back the decimal itself."""
    return numeric.compact(mpmath.nstr(v, digits, strip_zeros=False, min_fixed=-mpmath.inf,
                                       max_fixed=mpmath.inf))


# -- reference handlers -----------------------------------------------------------------------
def h_to_fraction(a: dict[str, Any]) -> dict[str, Any]:
    """numeric.to_fraction: the exact rational an input denotes."""
    with mpmath.workdps(_dps(a)):
        return _rational(numeric.to_fraction(host_value(a)))


def h_working_precision(a: dict[str, Any]) -> dict[str, Any]:
    """numeric.mpf at the working precision: the value (rounded up to 20 digits) and the exact
    error of the conversion, mpf(x) - x, where x is the exact rational of the input (for
    ``sqrt(R)`` inputs: the error of the square, mpf^2 - R)."""
    with mpmath.workdps(_dps(a)):
        x = host_value(a)
        v = numeric.mpf(x)
        if not isinstance(v, mpmath.mpf):  # the spec returns a real; anything else is shown as is
            return {"value": repr(v), "error": None}
        exact = numeric.to_fraction(v)
        if isinstance(x, str) and x.strip().replace(" ", "").startswith("sqrt("):
            err = exact * exact - numeric.to_fraction(x.strip().replace(" ", "")[5:-1])
        else:
            err = exact - numeric.to_fraction(x)
    with mpmath.workdps(60):
        e = mpmath.mpf(err.numerator) / err.denominator
        return {"value": published(v), "error": published(e)}


def h_check(a: dict[str, Any]) -> dict[str, Any]:
    """The argument checks: the accepted value (mpf published, or the integer)."""
    c = a["check"]
    with mpmath.workdps(_dps(a)):
        x = host_value(a)
        if c == "positive":
            return {"value": published(numeric.positive(x, "x"))}
        if c == "non_negative":
            return {"value": published(numeric.non_negative(x, "x"))}
        if c == "probability":
            kw = {}
            if "openLeft" in a:
                kw["open_left"] = a["openLeft"]
            if "openRight" in a:
                kw["open_right"] = a["openRight"]
            return {"value": published(numeric.probability(x, "x", **kw))}
        if c == "positive_int":
            if "minimum" in a:
                return {"value": numeric.positive_int(x, "x", a["minimum"])}
            return {"value": numeric.positive_int(x, "x")}
        if c == "strict_int":
            return {"value": numeric.strict_int(x)}
    raise ValueError(f"unknown check {c!r}")


def h_round_sig(a: dict[str, Any]) -> dict[str, Any]:
    """numeric.round_up / round_down (``digits`` absent: their default) of the input read at the
    working precision, as the plain decimal text they return."""
    with mpmath.workdps(_dps(a)):
        x = host_value(a)
        fn = numeric.round_up if _up(a) else numeric.round_down
        text = fn(x, a["digits"]) if "digits" in a else fn(x)
    return {"text": text}


def h_compact(a: dict[str, Any]) -> dict[str, Any]:
    return {"text": numeric.compact(a["text"])}


def h_round_fixed(a: dict[str, Any]) -> dict[str, Any]:
    with mpmath.workdps(_dps(a)):
        return {"text": numeric.round_fixed(host_value(a), a["places"], up=_up(a))}


def h_grid_step_down(a: dict[str, Any]) -> dict[str, Any]:
    g = Decimal(a["g"])
    if not g.is_finite() or g <= 0:
        raise ValueError("g must be a positive decimal")
    return {"text": format(numeric.grid_step_down(g, a["digits"]), "f")}


def _predicate(spec: Any) -> Any:
    """A monotone predicate named by the case: ``{"atLeast": t}`` is x >= t (t read at the working
    precision), ``"never"`` is false everywhere."""
    if spec == "never":
        return lambda x: False
    if isinstance(spec, dict) and set(spec) == {"atLeast"}:
        t = numeric.mpf(spec["atLeast"])
        return lambda x: x >= t
    raise ValueError(f"unknown predicate {spec!r}")


def h_smallest_on_grid(a: dict[str, Any]) -> dict[str, Any]:
    """The answer and the grid values the search evaluated the predicate at, in order."""
    digits = a["digits"]
    with mpmath.workdps(_dps(a)):
        inner = _predicate(a["predicate"])
        probes: list[str] = []

        def ok(x: mpmath.mpf) -> bool:
            probes.append(_grid_text(x, digits))
            return bool(inner(x))

        kw = {"lowest": a["lowest"]} if "lowest" in a else {}
        value = numeric.smallest_on_grid(ok, a["estimate"], digits, **kw)
    return {"value": value, "probes": probes}


def _function(spec: Any) -> Any:
    """A function named by the case: ``{"square": c}`` is (x - c)^2, ``{"linear": c}`` is c x,
    ``{"constant": c}`` is c (c read at the working precision)."""
    if isinstance(spec, dict) and len(spec) == 1:
        (kind, c), = spec.items()
        cv = numeric.mpf(c)
        if kind == "square":
            return lambda x: (x - cv) ** 2
        if kind == "linear":
            return lambda x: cv * x
        if kind == "constant":
            return lambda x: cv
    raise ValueError(f"unknown function {spec!r}")


def h_bisect_increasing(a: dict[str, Any]) -> dict[str, Any]:
    """numeric.bisect_increasing on mpf arguments: the bracket and the number of evaluations."""
    with mpmath.workdps(_dps(a)):
        inner = _function(a["function"])
        calls = [0]

        def f(x: mpmath.mpf) -> mpmath.mpf:
            calls[0] += 1
            return inner(x)

        kw = {"max_iter": a["maxIter"]} if "maxIter" in a else {}
        lo, hi = numeric.mpf(a["lo"]), numeric.mpf(a["hi"])
        lo_b, hi_b = numeric.bisect_increasing(f, lo, hi, numeric.mpf(a["target"]),
                                               numeric.mpf(a["relTol"]), **kw)
        return {"a": published(lo_b), "b": published(hi_b), "evaluations": calls[0]}


def _int_predicate(a: dict[str, Any], probes: list[int]) -> Any:
    t = a["threshold"]
    if isinstance(t, bool) or not (t is None or isinstance(t, int)):
        raise TypeError("threshold must be an integer or null (never)")

    def pred(n: int) -> bool:
        probes.append(n)
        return t is not None and n >= t

    return pred


def h_bisect_int(a: dict[str, Any]) -> dict[str, Any]:
    probes: list[int] = []
    value = numeric.bisect_int(_int_predicate(a, probes), a["lo"], a["hi"])
    return {"value": value, "probes": probes}


def h_smallest_int(a: dict[str, Any]) -> dict[str, Any]:
    probes: list[int] = []
    kw: dict[str, Any] = {}
    if "first" in a:
        kw["first"] = a["first"]
    if "cap" in a:
        kw["cap"] = a["cap"]
    if "loFails" in a:
        kw["lo_fails"] = a["loFails"]
    value = numeric.smallest_int(_int_predicate(a, probes), a["lo"], **kw)
    return {"value": value, "probes": probes}


def h_golden_section(a: dict[str, Any]) -> dict[str, Any]:
    """numeric.golden_section in mpmath with phi = (sqrt(5) - 1)/2: the end state and the number
    of evaluations of f."""
    with mpmath.workdps(_dps(a)):
        inner = _function(a["function"])
        calls = [0]

        def f(x: mpmath.mpf) -> mpmath.mpf:
            calls[0] += 1
            return inner(x)

        kw: dict[str, Any] = {}
        if "iterations" in a:
            kw["iterations"] = a["iterations"]
        if "tol" in a:
            kw["tol"] = numeric.mpf(a["tol"])
        phi = (mpmath.sqrt(5) - 1) / 2
        g = numeric.golden_section(f, numeric.mpf(a["lo"]), numeric.mpf(a["hi"]), phi=phi, **kw)
        return {"lo": published(g.lo), "hi": published(g.hi), "x1": published(g.x1),
                "f1": published(g.f1), "x2": published(g.x2), "f2": published(g.f2),
                "evaluations": calls[0]}


HANDLERS: dict[str, Handler] = {op: memoised(h) for op, h in {
    P + "to_fraction": h_to_fraction,
    P + "working_precision": h_working_precision,
    P + "check": h_check,
    P + "round_sig": h_round_sig,
    P + "compact": h_compact,
    P + "round_fixed": h_round_fixed,
    P + "grid_step_down": h_grid_step_down,
    P + "smallest_on_grid": h_smallest_on_grid,
    P + "bisect_increasing": h_bisect_increasing,
    P + "bisect_int": h_bisect_int,
    P + "smallest_int": h_smallest_int,
    P + "golden_section": h_golden_section,
}.items()}

_ARG_NAMES: dict[str, tuple[str, ...]] = {
    P + "to_fraction": ("value", "as", "precision"),
    P + "working_precision": ("value", "as", "precision"),
    P + "check": ("check", "value", "as", "openLeft", "openRight", "minimum", "precision"),
    P + "round_sig": ("value", "as", "digits", "direction", "precision"),
    P + "compact": ("text",),
    P + "round_fixed": ("value", "as", "places", "direction", "precision"),
    P + "grid_step_down": ("g", "digits"),
    P + "smallest_on_grid": ("predicate", "estimate", "digits", "lowest", "precision"),
    P + "bisect_increasing": ("function", "lo", "hi", "target", "relTol", "maxIter", "precision"),
    P + "bisect_int": ("threshold", "lo", "hi"),
    P + "smallest_int": ("threshold", "lo", "first", "cap", "loFails"),
    P + "golden_section": ("function", "lo", "hi", "iterations", "tol", "precision"),
}

HEADER = [
    "Numeric building blocks of privacy accounting, module dpspec.spec.accounting.numeric: every"
    " epsilon, delta and noise scale of the accounting families is read, computed and published"
    " through them. Cases sit on both sides of each decision, at each limit and at exact ties;"
    " every input check has an invalid case.",
    "Inputs: numbers are JSON strings (decimal `0.317`, `1e-9`, rational `1/3`), JSON integers or"
    " booleans; `as` names the host type a string is converted to before the call (`float`: the"
    " binary64 nearest to it; `decimal`, `fraction`: exact; `mpf`: read at the working precision),"
    " absent: the JSON value itself. `precision`: the working precision of the call in significant"
    " decimal digits (mpmath dps), default 40 (numeric.DPS).",
    "Outputs: texts, rationals (numerator/denominator strings), integers and transcripts are"
    " compared exactly (as JSON values: `1.50` is not `1.5`); bisect_increasing and golden_section"
    " publish mpmath values rounded up to 20 significant digits, compared with the tolerance"
    " (rel, abs) per op: " + "; ".join(f"{op.split('.', 1)[1]} ({r:g}, {ab:g})"
                                       for op, (r, ab) in sorted(TOLERANCE.items())) + ".",
    "to_fraction: the exact rational of an input. Refused: booleans, non-finite floats, Decimals and"
    " mpfs, strings that are not decimal or rational numbers (NaN, Infinity, `_` separators), more"
    " than 1000 characters (after stripping blanks), or a non-zero decimal whose leading digit is"
    " outside 10^-4000 .. 10^4000 (zero with any exponent is accepted).",
    "working_precision: numeric.mpf(x) at the working precision (round to nearest; a rational p/q is"
    " p divided by q there; `sqrt(R)` is the square root of R there, refused for R < 0): `value`"
    " and `error` = mpf(x) - x exactly (for sqrt(R): mpf^2 - R), both rounded up to 20 digits.",
    "check: positive (v > 0), non_negative (v >= 0), probability (in (0, 1); `openLeft`/`openRight`"
    " false admit 0/1), positive_int (an integer or a base-10 integer string >= `minimum`, default"
    " 1; booleans refused), strict_int (a string of 1 to 30 digits with an optional sign, blanks"
    " around allowed). The accepted value is published (mpf rounded up to 20 digits, or the"
    " integer).",
    "round_sig: the value read at the working precision, rounded to `digits` significant digits"
    " (default 10 when absent) toward +infinity (`direction` up) or -infinity (down), exactly,"
    " as a plain decimal text with exactly the digits of the rounding position (trailing zeros"
    " kept, no exponent; 0 is `0`; a carry into a new leading digit keeps the old position: 999.99"
    " up to 3 digits is `1000`); at most 200 digits (more refused).",
    "compact: a decimal text in its shortest exact form: trailing zeros dropped, plain notation for"
    " a leading digit at 10^-5 .. 10^20, else `<digit>[.<digits>]e<exponent>`; zero (any sign or"
    " exponent) is `0`.",
    "round_fixed: the exact value of the input (a string read at the working precision first)"
    " rounded to `places` decimals toward +infinity (up) or -infinity (down), as a plain text with"
    " `places` decimals (places >= 0).",
    "grid_step_down: the largest decimal with `digits` significant digits below g > 0 (one unit in"
    " the last place of g's grid, or of the grid ten times finer once the step crosses a power of"
    " ten), plain text.",
    "smallest_on_grid: the smallest decimal with `digits` significant digits at which the predicate"
    " (`atLeast` t: x >= t, or `never`) holds, never below `lowest` (default 0): start at the"
    " rounded-up estimate (max(estimate, lowest); 10^-30 if that is <= 0); if the predicate holds"
    " there, step down by factors (1 - s), s = 10^(1-digits) doubling to at most 1/2 (clamped to"
    " lowest, stopping at a non-positive candidate), else up by (1 + s), s doubling; then bisect on"
    " the grid (midpoints rounded up), and when the midpoint is an end, step down one grid value"
    " while it still holds. `probes`: the grid values the predicate was evaluated at, in order."
    " Refused when the values outgrow the accepted parameter range without the predicate holding.",
    "bisect_increasing: the bracket (a, b) of the target for a non-decreasing f (`linear` c: c x;"
    " `square` c: (x - c)^2; `constant` c) from [lo, hi]: stop when b - a <= relTol |b| (a tie"
    " stops) or after `maxIter` halvings (default 400); mid goes to a when f(mid) <= target (a tie"
    " moves a). `evaluations`: the number of f calls.",
    "bisect_int: the smallest n in (lo, hi] with n >= threshold (null: never, hi is returned),"
    " bisecting with mid = floor((lo + hi)/2); neither end is evaluated. `probes`: the n evaluated,"
    " in order.",
    "smallest_int: the smallest n >= lo with n >= threshold: lo first (unless `loFails`), then"
    " `first` (default max(2 lo, lo + 1, 1); refused unless it exceeds lo and 0) doubling until"
    " the predicate holds, then bisect_int between the last failing and the first passing probe;"
    " with `cap`, no probe above it (null when none holds).",
    "golden_section: minimum search on [lo, hi] with phi = (sqrt(5) - 1)/2 at the working"
    " precision: x1 = hi - phi (hi - lo), x2 = lo + phi (hi - lo); while fewer than `iterations`"
    " steps (no limit when absent) and hi - lo > tol (default 0; a tie stops): if f(x1) < f(x2)"
    " (a tie goes the other way) drop (x2, hi], else drop [lo, x1); one new evaluation per step."
    " The end state and the number of f evaluations.",
]

NOTES = {
    "Boundary": "an input on or next to a decision point (a limit met exactly, a tie, the first"
                " or last point of a search)",
    "Default": "an optional argument left out: the spec's default applies",
    "Exactness": "a result that must be exact (no intermediate rounding, trailing zeros as stated)",
    "BadParameter": "an input the function must refuse",
}

_REJECTS = (ValueError, TypeError, ArithmeticError)


def _group(op: str, tests: list[tuple[str, dict[str, Any], list[str]]], tc: TestNumberer,
           invalid: list[tuple[str, dict[str, Any]]] | None = None) -> dict[str, Any]:
    return build_group(tc, HANDLERS, op, tests,
                       [(c, i, "BadParameter") for c, i in invalid or []], {}, rejects=_REJECTS)


def _long_decimal() -> str:
    """1e-998 written out: exactly 1000 characters."""
    return "0." + "0" * 997 + "1"


def _one_plus_2_pow(k: int) -> str:
    """1 + 2^-k written out exactly as a decimal."""
    return "1." + str(5**k).rjust(k, "0")  # 2^-k = 5^k / 10^k


def _parse_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    op = P + "to_fraction"
    g = [_group(op, [
        ("decimal string 0.317", {"value": "0.317"}, []),
        ("rational string -2/6, reduced", {"value": "-2/6"}, []),
        ("blanks around the number are ignored", {"value": "  2.5  "}, []),
        ("1e4000: the leading digit at the largest accepted exponent", {"value": "1e4000"},
         ["Boundary"]),
        ("1e-4000: the leading digit at the smallest accepted exponent",
         {"value": "1e-4000"}, ["Boundary"]),
        ("zero with exponent 5000: zero is accepted whatever its exponent", {"value": "0e5000"},
         ["Boundary"]),
        ("-0 is 0", {"value": "-0"}, ["Boundary"]),
        ("a string of exactly 1000 characters (1e-998 written out)", {"value": _long_decimal()},
         ["Boundary"]),
        ("JSON integer -3", {"value": -3}, []),
        ("binary64 0.1: the dyadic rational it holds", {"value": "0.1", "as": "float"},
         ["Exactness"]),
        ("Decimal 1.50", {"value": "1.50", "as": "decimal"}, []),
        ("Fraction 10/4", {"value": "10/4", "as": "fraction"}, []),
        ("mpf 0.1 at 40 digits: its exact binary value", {"value": "0.1", "as": "mpf"},
         ["Exactness"]),
    ], tc, [
        ("1e4001: leading digit above 10^4000", {"value": "1e4001"}),
        ("1e-4001: leading digit below 10^-4000", {"value": "1e-4001"}),
        ("1001 characters", {"value": "0." + "0" * 998 + "1"}),
        ("nan", {"value": "nan"}),
        ("Infinity", {"value": "-Infinity"}),
        ("digit separator 1_0", {"value": "1_0"}),
        ("not a number", {"value": "abc"}),
        ("empty string", {"value": ""}),
        ("rational with zero denominator", {"value": "1/0"}),
        ("boolean true", {"value": True}),
        ("null", {"value": None}),
        ("binary64 infinity", {"value": "inf", "as": "float"}),
        ("binary64 NaN", {"value": "nan", "as": "float"}),
        ("Decimal NaN", {"value": "NaN", "as": "decimal"}),
        ("Decimal -Infinity", {"value": "-Infinity", "as": "decimal"}),
        ("mpf infinity", {"value": "inf", "as": "mpf"}),
    ])]
    op = P + "working_precision"
    g.append(_group(op, [
        ("1/3 at the default 40 digits: the error of the division", {"value": "1/3"},
         ["Default", "Exactness"]),
        ("0.1 at the default 40 digits", {"value": "0.1"}, ["Default"]),
        ("1/3 at 20 digits", {"value": "1/3", "precision": 20}, []),
        ("sqrt(2), the one-hot L2 sensitivity of the DP draft sec. 6.1.2", {"value": "sqrt(2)"},
         []),
        ("sqrt with blanks inside", {"value": " sqrt( 1/4 ) "}, []),
        ("sqrt(0) = 0: zero is not negative", {"value": "sqrt(0)"}, ["Boundary"]),
        ("an mpf passes through unchanged", {"value": "0.1", "as": "mpf"}, []),
    ], tc, [
        ("sqrt(-2)", {"value": "sqrt(-2)"}),
        ("sqrt(-1/2): negative above -1", {"value": "sqrt(-1/2)"}),
        ("sqrt(45 without the closing parenthesis", {"value": "sqrt(45"}),
        ("sqrt(nan)", {"value": "sqrt(nan)"}),
    ]))
    op = P + "check"
    g.append(_group(op, [
        ("positive 1e-4000, the smallest accepted magnitude",
         {"check": "positive", "value": "1e-4000"}, ["Boundary"]),
        ("non_negative 0", {"check": "non_negative", "value": "0"}, ["Boundary"]),
        ("non_negative -0", {"check": "non_negative", "value": "-0"}, ["Boundary"]),
        ("probability 0.5, ends open by default", {"check": "probability", "value": "0.5"},
         ["Default"]),
        ("probability 0 with openLeft false", {"check": "probability", "value": "0",
                                               "openLeft": False}, ["Boundary"]),
        ("probability 0.5 with openLeft false", {"check": "probability", "value": "0.5",
                                                 "openLeft": False}, []),
        ("probability 1 with openRight false", {"check": "probability", "value": "1",
                                                "openRight": False}, ["Boundary"]),
        ("probability 1e-4000, openLeft true", {"check": "probability", "value": "1e-4000",
                                                "openLeft": True}, ["Boundary"]),
        ("positive_int 1, minimum absent (1)", {"check": "positive_int", "value": 1},
         ["Default", "Boundary"]),
        ("positive_int string ' 12 '", {"check": "positive_int", "value": " 12 "}, []),
        ("positive_int -3 with minimum -5", {"check": "positive_int", "value": -3,
                                             "minimum": -5}, []),
        ("positive_int 2 with minimum 2", {"check": "positive_int", "value": 2, "minimum": 2},
         ["Boundary"]),
        ("strict_int +12", {"check": "strict_int", "value": "+12"}, []),
        ("strict_int -0", {"check": "strict_int", "value": "-0"}, []),
        ("strict_int of 30 digits, the most allowed", {"check": "strict_int", "value": "9" * 30},
         ["Boundary"]),
    ], tc, [
        ("positive 0", {"check": "positive", "value": "0"}),
        ("positive -0", {"check": "positive", "value": "-0"}),
        ("positive -1", {"check": "positive", "value": "-1"}),
        ("non_negative -1e-4000", {"check": "non_negative", "value": "-1e-4000"}),
        ("probability 0, ends open by default", {"check": "probability", "value": "0"}),
        ("probability 1, ends open by default", {"check": "probability", "value": "1"}),
        ("probability 1 with openLeft false (right end still open)",
         {"check": "probability", "value": "1", "openLeft": False}),
        ("probability 1.0000000001 with openRight false",
         {"check": "probability", "value": "1.0000000001", "openRight": False}),
        ("probability -1e-30 with openLeft false",
         {"check": "probability", "value": "-1e-30", "openLeft": False}),
        ("positive_int 0", {"check": "positive_int", "value": 0}),
        ("positive_int 1 with minimum 2", {"check": "positive_int", "value": 1, "minimum": 2}),
        ("positive_int true (a boolean is not an integer)",
         {"check": "positive_int", "value": True}),
        ("positive_int string 1.5", {"check": "positive_int", "value": "1.5"}),
        ("positive_int empty string", {"check": "positive_int", "value": ""}),
        ("positive_int binary64 2.0", {"check": "positive_int", "value": "2", "as": "float"}),
        ("strict_int of 31 digits", {"check": "strict_int", "value": "9" * 31}),
        ("strict_int 1_0", {"check": "strict_int", "value": "1_0"}),
        ("strict_int empty", {"check": "strict_int", "value": " "}),
        ("strict_int 1.0", {"check": "strict_int", "value": "1.0"}),
    ]))
    return g


def _r(value: Any, direction: str, **kw: Any) -> dict[str, Any]:
    return {"value": value, "direction": direction, **kw}


def _rounding_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    op = P + "round_sig"
    g = [_group(op, [
        ("1/3 up to 10 digits", _r("1/3", "up", digits=10), []),
        ("1/3 down to 10 digits", _r("1/3", "down", digits=10), []),
        ("2/3 up, digits absent (default 10)", _r("2/3", "up"), ["Default"]),
        ("2/3 down, digits absent (default 10)", _r("2/3", "down"), ["Default"]),
        ("-1/3 up: toward +infinity is toward zero", _r("-1/3", "up", digits=10), []),
        ("-1/3 down: away from zero", _r("-1/3", "down", digits=10), []),
        ("0 is 0 (no trailing zeros)", _r("0", "up"), ["Boundary"]),
        ("-0 down is 0", _r("-0", "down", digits=3), ["Boundary"]),
        ("0.125 up to 2 digits: an exact half goes up", _r("0.125", "up", digits=2),
         ["Boundary"]),
        ("0.125 down to 2 digits", _r("0.125", "down", digits=2), ["Boundary"]),
        ("1.5 up to 3 digits: exact, trailing zero kept", _r("1.5", "up", digits=3),
         ["Exactness"]),
        ("-2.5 up to 1 digit", _r("-2.5", "up", digits=1), ["Boundary"]),
        ("-2.5 down to 1 digit", _r("-2.5", "down", digits=1), ["Boundary"]),
        ("999.99 up to 3 digits: the carry gives 1000", _r("999.99", "up", digits=3),
         ["Boundary"]),
        ("1e3000 read at 40 digits lies above 1e3000: up to 5 digits it is 1.0001e3000, written"
         " out without exponent", _r("1e3000", "up", digits=5), ["Exactness"]),
        ("1.2345e-300 up to 3 digits", _r("1.2345e-300", "up", digits=3), []),
        ("the string 0.1 is read at 40 digits first: up to 30 digits shows the binary excess",
         _r("0.1", "up", digits=30), ["Exactness"]),
        ("binary64 0.1 up to 20 digits", _r("0.1", "up", digits=20, **{"as": "float"}),
         ["Exactness"]),
        ("1/3 at 300 digits of precision up to 200 digits, the most allowed: the last digit is"
         " 4 (converting at 200 digits first, rounded to nearest, gives a 3, below 1/3)",
         _r("1/3", "up", digits=200, precision=300), ["Boundary"]),
        ("1 + 2^-660 (about 1 + 2.1e-199) read at 250 digits, up to 10 digits: the excess counts",
         _r(_one_plus_2_pow(660), "up", precision=250), ["Boundary", "Exactness"]),
    ], tc, [
        ("201 digits", _r("1/3", "up", digits=201, precision=300)),
        ("nan", _r("nan", "up")),
        ("boolean", _r(True, "up")),
        ("unknown direction", _r("1", "sideways")),
    ])]
    op = P + "compact"
    g.append(_group(op, [
        (f"{t!r}", {"text": t}, flags) for t, flags in [
            ("0.000000001000000000", []), ("0.00001", ["Boundary"]), ("0.0000099", ["Boundary"]),
            ("1e20", ["Boundary"]), ("1e21", ["Boundary"]),
            ("999999999999999999999", ["Boundary"]), ("-0", ["Boundary"]), ("0.000", []),
            ("0E-30", []), ("-1", []), ("-1.50", []), ("12.3400", []), ("1E+2", []),
            ("-1.2e-7", []), ("1.23456789012345678901234567890123", ["Exactness"]),
        ]
    ], tc, [("not a number", {"text": "abc"}), ("empty", {"text": ""})]))
    op = P + "round_fixed"
    g.append(_group(op, [
        ("binary64 0.56111579131857 up to 6 places",
         _r("0.56111579131857", "up", places=6, **{"as": "float"}), []),
        ("1/3 up to 5 places", _r("1/3", "up", places=5), []),
        ("1/3 down to 5 places", _r("1/3", "down", places=5), []),
        ("-1/3 up to 2 places", _r("-1/3", "up", places=2), []),
        ("-1/3 down to 2 places", _r("-1/3", "down", places=2), []),
        ("0.125 up to 2 places", _r("0.125", "up", places=2), ["Boundary"]),
        ("0.125 down to 2 places", _r("0.125", "down", places=2), ["Boundary"]),
        ("2.5 up to 0 places", _r("2.5", "up", places=0), ["Boundary"]),
        ("2.5 down to 0 places", _r("2.5", "down", places=0), ["Boundary"]),
        ("0 to 3 places", _r("0", "up", places=3), []),
        ("JSON integer 1234 up to 2 places", _r(1234, "up", places=2), []),
        ("the string 0.1 read at 40 digits, up to 45 places", _r("0.1", "up", places=45),
         ["Exactness"]),
        ("Fraction 1/3 (exact) up to 30 places", _r("1/3", "up", places=30,
                                                    **{"as": "fraction"}), ["Exactness"]),
        ("1/2 to 400 places", _r("1/2", "up", places=400), ["Boundary"]),
    ], tc, [
        ("nan", _r("nan", "up", places=2)),
        ("binary64 infinity", _r("inf", "up", places=2, **{"as": "float"})),
    ]))
    op = P + "grid_step_down"
    g.append(_group(op, [
        ("1.5, 2 digits", {"g": "1.5", "digits": 2}, []),
        ("10, 2 digits: crossing 10 the grid becomes finer", {"g": "10", "digits": 2},
         ["Boundary"]),
        ("1.00, 3 digits: 0.999", {"g": "1.00", "digits": 3}, ["Boundary"]),
        ("2, 1 digit", {"g": "2", "digits": 1}, []),
        ("1E+3, 2 digits", {"g": "1E+3", "digits": 2}, ["Boundary"]),
        ("a 31-digit value, 31 digits", {"g": "1." + "0" * 29 + "1", "digits": 31},
         ["Exactness"]),
        ("a 400-digit value, 400 digits", {"g": "1." + "0" * 398 + "2", "digits": 400},
         ["Exactness"]),
    ], tc, [("g 0", {"g": "0", "digits": 2}), ("g -1", {"g": "-1", "digits": 2})]))
    return g


def _searches_doc() -> list[dict[str, Any]]:
    tc = TestNumberer()
    op = P + "smallest_on_grid"

    def at(t: str, est: Any, digits: int, **kw: Any) -> dict[str, Any]:
        return {"predicate": {"atLeast": t}, "estimate": est, "digits": digits, **kw}

    g = [_group(op, [
        ("x >= 0.92 from estimate 2, 2 digits: the bisection ends across 1 and steps down",
         at("0.92", "2", 2), ["Boundary"]),
        ("x >= 0.97 from estimate 0.5: searched upward", at("0.97", "0.5", 2), []),
        ("x >= 0.5 from 0.7, 3 digits: the answer keeps its trailing zeros", at("0.5", "0.7", 3),
         ["Exactness"]),
        ("x >= 0.1 from 1, lowest 0.5: the answer is lowest", at("0.1", "1", 3, lowest="0.5"),
         ["Boundary"]),
        ("x >= 0.7 from 1, lowest 0.5", at("0.7", "1", 3, lowest="0.5"), []),
        ("x >= 0.1 from 0.2, lowest 2: the start is lowest", at("0.1", "0.2", 2, lowest="2"),
         ["Boundary"]),
        ("x >= 0.5 from 0.5, 1 digit: the first step down reaches 0", at("0.5", "0.5", 1),
         ["Boundary"]),
        ("x >= 3e-30 from estimate 0: the start is 1e-30", at("3e-30", "0", 2), ["Boundary"]),
        ("x >= 1/3 from 0.3, 30 digits", at("1/3", "0.3", 30), ["Exactness"]),
        ("x >= 2/3 from 1, 12 digits at a 10-digit working precision: a midpoint can round onto"
         " an end of the bracket, which ends the bisection", at("2/3", "1", 12, precision=10),
         ["Boundary"]),
        ("x >= 0.5 from 0.5, 13 digits at a 10-digit working precision: the factor 1 - 10^-12"
         " does not move the value at 10 digits, so the next grid value below is stepped to",
         at("0.5", "0.5", 13, precision=10), ["Boundary"]),
    ], tc, [
        ("the predicate never holds", {"predicate": "never", "estimate": "1", "digits": 3}),
    ])]
    op = P + "bisect_increasing"
    g.append(_group(op, [
        ("x on [0, 1], target 0.9, relTol 1/4: the width meets relTol b exactly and stops",
         {"function": {"linear": "1"}, "lo": "0", "hi": "1", "target": "0.9", "relTol": "0.25"},
         ["Boundary"]),
        ("x on [0, 1], target 0.5: f(mid) equals the target, mid goes to a",
         {"function": {"linear": "1"}, "lo": "0", "hi": "1", "target": "0.5", "relTol": "0.1"},
         ["Boundary"]),
        ("x on [0, 1], target 1/3, relTol 0, maxIter absent: all 400 halvings are made",
         {"function": {"linear": "1"}, "lo": "0", "hi": "1", "target": "1/3", "relTol": "0"},
         ["Default"]),
        ("maxIter 3", {"function": {"linear": "1"}, "lo": "0", "hi": "1", "target": "1/3",
                       "relTol": "0", "maxIter": 3}, []),
        ("relTol 1: no evaluation", {"function": {"linear": "1"}, "lo": "0", "hi": "1",
                                     "target": "1/3", "relTol": "1"}, ["Boundary"]),
        ("2x on [0, 4], target 3, relTol 1e-10", {"function": {"linear": "2"}, "lo": "0",
                                                  "hi": "4", "target": "3", "relTol": "1e-10"},
         []),
    ], tc))
    op = P + "bisect_int"
    g.append(_group(op, [
        ("threshold 5 in (0, 10]", {"threshold": 5, "lo": 0, "hi": 10}, []),
        ("never inside: hi is returned", {"threshold": None, "lo": 0, "hi": 8}, ["Boundary"]),
        ("true at the first point inside", {"threshold": 1, "lo": 0, "hi": 8}, ["Boundary"]),
        ("true only at hi", {"threshold": 8, "lo": 0, "hi": 8}, ["Boundary"]),
        ("adjacent ends: nothing evaluated", {"threshold": 0, "lo": 3, "hi": 4}, ["Boundary"]),
        ("negative range", {"threshold": -3, "lo": -10, "hi": 10}, []),
    ], tc))
    op = P + "smallest_int"
    g.append(_group(op, [
        ("holds at lo 0", {"threshold": 0, "lo": 0}, ["Boundary"]),
        ("holds at lo 0 but loFails: lo is not evaluated", {"threshold": 0, "lo": 0,
                                                            "loFails": True}, ["Boundary"]),
        ("lo 5, threshold 7: first probe 2 lo = 10", {"threshold": 7, "lo": 5}, ["Default"]),
        ("lo 0, threshold 3: first probe 1", {"threshold": 3, "lo": 0}, ["Default"]),
        ("lo -3, threshold 2: first probe 1", {"threshold": 2, "lo": -3}, ["Default"]),
        ("lo 1, threshold 5: first probe 2", {"threshold": 5, "lo": 1}, ["Default"]),
        ("never, cap 10: null", {"threshold": None, "lo": 1, "cap": 10}, ["Boundary"]),
        ("threshold 16, cap 16: the probe at the cap is made", {"threshold": 16, "lo": 1,
                                                                "cap": 16}, ["Boundary"]),
        ("threshold 17, cap 16: null", {"threshold": 17, "lo": 1, "cap": 16}, ["Boundary"]),
        ("first 3 given", {"threshold": 5, "lo": 0, "first": 3}, []),
    ], tc, [
        ("first 0 with lo -5 (must exceed 0)", {"threshold": 1, "lo": -5, "first": 0}),
        ("first equal to lo", {"threshold": 9, "lo": 5, "first": 5}),
    ]))
    op = P + "golden_section"
    g.append(_group(op, [
        ("(x - 1/2)^2 on [0, 1], 3 steps: f(x1) = f(x2) exactly at the start",
         {"function": {"square": "0.5"}, "lo": "0", "hi": "1", "iterations": 3}, ["Boundary"]),
        ("tol 1 = hi - lo: no step", {"function": {"square": "0.3"}, "lo": "0", "hi": "1",
                                      "tol": "1"}, ["Boundary"]),
        ("a bracket of width 0, tol absent: no step", {"function": {"square": "0.3"}, "lo": "1",
                                                       "hi": "1", "iterations": 5},
         ["Boundary", "Default"]),
        ("(x - 0.3)^2 on [0, 1], 20 steps", {"function": {"square": "0.3"}, "lo": "0", "hi": "1",
                                             "iterations": 20}, []),
        ("iterations 0", {"function": {"square": "0.3"}, "lo": "0", "hi": "1", "iterations": 0},
         ["Boundary"]),
        ("tol 0.01, iterations absent", {"function": {"square": "0.7"}, "lo": "0", "hi": "2",
                                         "tol": "0.01"}, ["Default"]),
        ("a constant: every comparison is a tie", {"function": {"constant": "1"}, "lo": "0",
                                                   "hi": "1", "iterations": 4}, ["Boundary"]),
    ], tc))
    return g


_FILES = {
    "parsing": ("reading parameters: to_fraction, the working precision, the argument checks",
                _parse_doc),
    "rounding": ("decimal rounding: round_sig, compact, round_fixed, grid_step_down",
                 _rounding_doc),
    "searches": ("the searches: smallest_on_grid, bisections, smallest_int, golden section",
                 _searches_doc),
}


class AccountingNumericFamily(AccountingFilesFamily):
    """Its own ops, files and schema; exact ops are compared as JSON values, the others as the
    accounting family's (per-op tolerances, here this module's :data:`TOLERANCE`)."""

    name = NAME
    summary = "numeric building blocks of the accounting (parsing, rounding, searches)"
    tolerance = TOLERANCE
    schema = SCHEMA
    header = HEADER
    notes = NOTES
    handler_table = HANDLERS
    arg_names = _ARG_NAMES
    file_table = _FILES
    exact_ops_as_json = True


FAMILY = AccountingNumericFamily()
