"""Statistical mode for the DP mechanisms: implementations that cannot take a seed.

A production mechanism draws its own randomness, so it cannot reproduce the seeded vectors of the
``mechanisms`` family; it can still be tested. The harness sends the family's op **without**
``seed`` (``{"eps0": "1", "measurements": [...]}``), in batches of at most ``BATCH`` inputs, reads
only the ``noisy`` outputs, and tests their distribution against the exact one of sec. 4 of the DP
draft (spec.mechanisms). Suites, parameter points and tests:

* ``statistical.mechanisms.symmetric_rappor`` (``eps0`` = 1, 3; dimension ``d`` = 16; report
  ``i`` is one-hot at coordinate ``i mod d``). Every coordinate flips independently with
  ``p0 = 1/(e^eps0 + 1)`` (Algorithm 3 of [MJTB+22]). Tests: **flip rate** (z-test of the total
  number of flips against ``N d p0``), **per coordinate** (chi-square with one degree of freedom
  per cell ``(coordinate, input bit)``: ``sum (F_c - n_c p0)^2 / (n_c p0 (1 - p0))``, so a flip
  probability that depends on the position or on the bit is caught), **flips per report** (the
  number of flipped coordinates of each report against Binomial(d, p0), chi-square with the
  samplers' binning: catches dependent flips).
* ``statistical.mechanisms.symmetric_rappor_textbook``: the same for the per-coordinate form
  (``mechanisms.symmetric_rappor_textbook``, equal in distribution).
* ``statistical.mechanisms.asymmetric_rappor`` (``eps`` = 1, 3; as above): the 0-coordinates flip
  with ``p0 = 1/(e^eps + 1)``, the 1-coordinate is a fair bit (Algorithm 1 of [MJTB+22]); the
  flip rate pools the 0-coordinates, the cells have their own rates, and the flips per report
  follow Binomial(d - 1, p0) plus a fair coin.
* ``statistical.mechanisms.binary_rr`` (``eps`` = 1/2, 2; inputs alternate 0, 1): flip rate and
  per input bit (two cells), as above.
* ``statistical.mechanisms.kary_rr`` (``(k, eps)`` = (6, 3/2), (10, 1); input ``i mod k``): the
  output is the input with probability ``keep = e^eps/(e^eps + k - 1)`` and each other category
  with ``1/(e^eps + k - 1)`` (sec. 4.3 of the DP draft). Tests: **keep rate** (z-test) and
  **output distribution** (chi-square of the ``k x k`` table of (input, output) counts against
  ``n_x P[y | x]``, ``k (k - 1)`` degrees of freedom).
* ``statistical.mechanisms.discrete_laplace`` (``scale`` = 1, 20) and
  ``statistical.mechanisms.discrete_gaussian`` (``sigma2`` = 25/4, 100): integer vectors of
  dimension 4 are noised; the noise (output minus input, every coordinate pooled) is tested
  against the exact discrete Laplace / Gaussian PMF exactly as the samplers' suites do
  (chi-square, mean, second moment; :mod:`dpspec.conformance.statistical`).

Sizes: 40000 reports (RAPPOR), 100000 inputs (binary RR), 50000 (k-ary RR), 50000 noise values
(additive); ``--samples`` replaces them, but a flip or k-ary suite never uses fewer reports than
make every chi-square cell expect ``MIN_EXPECTED`` (= 50) (the summary says when it raised them).

False-alarm rate: the suite as a whole rejects a correct mechanism with probability at most
``alpha`` (default ``1e-6``), Bonferroni over its tests (points x tests). **Power** (per point):
the smallest relative error ``delta`` in the flip probability (RAPPOR, binary RR), the keep
probability (k-ary RR), or the scale (t, sigma) that the rate z-test (for the additive
mechanisms: the mean or second-moment test) alone detects with probability 99% for
``(1 + delta)`` and ``(1 - delta)`` times the right value, under the normal approximation with the
alternative's exact variance. The chi-square tests only add power.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import mpmath

from dpspec.conformance.harness.model import ERROR, FAILED, PASSED, SKIPPED, Outcome, SuiteResult
from dpspec.conformance.harness.process import ProtocolFailure
from dpspec.conformance.harness.session import Session
from dpspec.conformance.harness.suites import Progress, Suite
from dpspec.conformance.statistical import (
    DEFAULT_ALPHA,
    DEFAULT_SAMPLES,
    DISTRIBUTIONS,
    MIN_EXPECTED,
    POWER,
    StatisticalSuite,
    Table,
    _z_quantile,
    chi2_sf,
    chi_square_bins,
    parse_samples,
    smallest_detected_error,
    two_sided_p,
)
from dpspec.spec.distributions import to_mpf

BATCH = 2_000
RAPPOR_DIMENSION = 16
ADDITIVE_DIMENSION = 4
#: inputs of the additive mechanisms, cycled (any integers: the noise is output minus input)
ADDITIVE_INPUTS = (("0", "10", "-3", "7"), ("-100", "1", "2", "1000000"), ("5", "5", "5", "5"))

DEFAULT_REPORTS = {"symmetric_rappor": 40_000, "symmetric_rappor_textbook": 40_000,
                   "asymmetric_rappor": 40_000, "binary_rr": 100_000, "kary_rr": 50_000}


def flip_probability(eps: Fraction) -> float:
    """``p0 = 1/(e^eps + 1)``."""
    with mpmath.workdps(30):
        return float(1 / (mpmath.exp(to_mpf(eps)) + 1))


def keep_probability(k: int, eps: Fraction) -> float:
    """k-ary RR's ``e^eps/(e^eps + k - 1)``."""
    with mpmath.workdps(30):
        e = mpmath.exp(to_mpf(eps))
        return float(e / (e + k - 1))


def rate_power(p: float, trials: int, crit: float) -> float:
    """Smallest relative error ``delta`` in a Bernoulli rate ``p`` that the two-sided z-test of the
    count over ``trials`` (critical value ``crit``) detects with probability POWER, for both
    ``p (1 + delta)`` and ``p (1 - delta)`` (normal approximation, the alternative's variance)."""
    need = _z_quantile(1 - POWER)
    sd0 = math.sqrt(p * (1 - p))

    def detected(rel: float) -> bool:
        p1 = p * (1 + rel)
        if not 0 < p1 < 1:
            return True
        shift = math.sqrt(trials) * abs(p1 - p)
        return (shift - crit * sd0) / math.sqrt(p1 * (1 - p1)) >= need

    return smallest_detected_error(detected, steps=24)


@dataclass(frozen=True)
class _Judged:
    test: str
    p: float
    observed: str
    provided: dict[str, Any]


def _verdict(suite: str, label: str, op: str, judged: _Judged, level: float,
             n: int) -> Outcome:
    ok = judged.p >= level
    reason = f"{judged.observed}, p = {judged.p:.3g} {'>=' if ok else '<'} {level:.3g}"
    if not ok:
        reason = "rejected: " + reason
    return Outcome(suite, label, judged.test, op, PASSED if ok else FAILED, reason,
                   expected={"test": judged.test, "rejectBelow": level, "N": n},
                   provided={**judged.provided, "pValue": judged.p})


def _z(test: str, count: int, trials: int, p: float, what: str) -> _Judged:
    z = (count - trials * p) / math.sqrt(trials * p * (1 - p))
    return _Judged(test, two_sided_p(z), f"{what} {count / trials:.5g} (exact {p:.5g}) over "
                   f"{trials} trials, z = {z:.2f}",
                   {"count": count, "trials": trials, "rate": count / trials, "z": z})


def _cells_chi2(test: str, cells: list[tuple[str, int, int, float]]) -> _Judged:
    """Chi-square over independent binomial cells ``(name, count, trials, p)``: one degree of
    freedom per cell; the three largest standardized residuals are reported."""
    stat = 0.0
    worst: list[tuple[float, dict[str, Any]]] = []
    for name, count, trials, p in cells:
        r = (count - trials * p) / math.sqrt(trials * p * (1 - p))
        stat += r * r
        worst.append((abs(r), {"cell": name, "expected": round(trials * p, 1), "observed": count,
                               "residual": round(r, 2)}))
    worst.sort(key=lambda item: -item[0])
    dof = len(cells)
    return _Judged(test, chi2_sf(stat, dof), f"X^2 = {stat:.1f} on {dof} d.f.",
                   {"statistic": stat, "dof": dof,
                    "largestDeviations": [w[1] for w in worst[:3]]})


def _table_chi2(test: str, table: Table, values: list[int]) -> _Judged:
    stat, dof, worst = chi_square_bins(table, Counter(values), len(values))
    return _Judged(test, chi2_sf(stat, dof), f"X^2 = {stat:.1f} on {dof} d.f.",
                   {"statistic": stat, "dof": dof, "largestDeviations": worst})


class _Failure(Exception):
    def __init__(self, status: str, why: str) -> None:
        super().__init__(why)
        self.status = status
        self.why = why


def _ask(session: Session, op: str, args: dict[str, Any], count: int) -> list[Any]:
    """The ``noisy`` outputs of one request; _Failure on anything else."""
    try:
        response = session.call(op, args)
    except ProtocolFailure as exc:
        raise _Failure(ERROR, str(exc)) from exc
    if response.unsupported is not None:
        raise _Failure(SKIPPED, f"unsupported: {response.unsupported}")
    if not response.ok:
        raise _Failure(FAILED, f"rejected a valid request ({op} with {count} measurements): "
                       f"{response.error}")
    res = response.result
    if not isinstance(res, dict) or not isinstance(res.get("noisy"), list):
        raise _Failure(FAILED, "result has no list 'noisy'")
    if len(res["noisy"]) != count:
        raise _Failure(FAILED, f"sent {count} measurements, got {len(res['noisy'])} outputs")
    return list(res["noisy"])


def _bits(value: Any, d: int, i: int) -> list[int]:
    if not isinstance(value, str) or len(value) != d or any(c not in "01" for c in value):
        raise _Failure(FAILED, f"output {i} is not a string of {d} bits: {str(value)[:40]!r}")
    return [1 if c == "1" else 0 for c in value]


def _category(value: Any, k: int, i: int) -> int:
    try:
        (x,) = parse_samples([value])
    except ValueError:
        x = -1
    if not 0 <= x < k:
        raise _Failure(FAILED, f"output {i} is not a category in [0, {k}): {str(value)[:40]!r}")
    return x


class _MechanismSuite(Suite):
    """Shared driver: points, Bonferroni level, batching, outcomes and power notes."""

    mode = "statistical"
    key = ""
    op = ""
    tests: tuple[str, ...] = ()
    scale_name = ""

    def __init__(self, points: tuple[dict[str, Any], ...], reports: int, alpha: float) -> None:
        self.name = f"statistical.mechanisms.{self.key}"
        self.points = points
        self.alpha = alpha
        #: raised where needed so that every chi-square cell expects at least MIN_EXPECTED
        #: (the chi-square law is then a fair approximation of the tail)
        self.reports = max(reports, max(self.minimum_reports(p) for p in points))
        where = "; ".join(", ".join(f"{k} = {v}" for k, v in p.items()) for p in points)
        raised = (f" (raised from {reports} so every cell expects >= {MIN_EXPECTED:g})"
                  if self.reports > reports else "")
        self.summary = (f"{self.op} without a seed at {where}: {self.reports} reports each"
                        f"{raised}, false-alarm rate {alpha:g}")

    def minimum_reports(self, point: dict[str, Any]) -> int:
        """The fewest reports for which every cell of the suite's chi-square tests at ``point``
        has an expected count of at least MIN_EXPECTED."""
        raise NotImplementedError

    def ops(self) -> frozenset[str]:
        return frozenset({self.op})

    def size(self) -> int:
        return len(self.points) * len(self.tests)

    @property
    def per_test_alpha(self) -> float:
        return self.alpha / self.size()

    def inputs(self, point: dict[str, Any], start: int, count: int) -> list[Any]:
        raise NotImplementedError

    def judge(self, point: dict[str, Any], inputs: list[Any], outputs: list[Any]) -> list[_Judged]:
        raise NotImplementedError

    def power(self, point: dict[str, Any], crit: float) -> float:
        raise NotImplementedError

    def run(self, session: Session, progress: Progress) -> SuiteResult:
        result = SuiteResult(self.name, self.mode, self.summary)
        start = time.monotonic()
        level = self.per_test_alpha
        crit = _z_quantile(level / 2)
        result.details = {"alpha": self.alpha, "correction": "Bonferroni", "perTestAlpha": level,
                          "reportsPerPoint": self.reports, "power": POWER, "points": []}
        powers = []
        done = 0
        for point in self.points:
            label = ", ".join(f"{k}={v}" for k, v in point.items())
            power = self.power(point, crit)
            result.details["points"].append({**point, "detectableRelativeError": power,
                                             "scale": self.scale_name})
            powers.append(f"{power:.2%} at {label}")
            inputs: list[Any] = []
            outputs: list[Any] = []
            try:
                while len(inputs) < self.reports:
                    batch = self.inputs(point, len(inputs), min(BATCH, self.reports - len(inputs)))
                    outputs.extend(_ask(session, self.op, {**point, "measurements": batch},
                                        len(batch)))
                    inputs.extend(batch)
                judged = self.judge(point, inputs, outputs)
            except _Failure as exc:
                for test in self.tests:
                    result.outcomes.append(Outcome(self.name, label, test, self.op, exc.status,
                                                   exc.why))
                done += len(self.tests)
                progress(done, self.size())
                continue
            for j in judged:
                result.outcomes.append(_verdict(self.name, label, self.op, j, level, self.reports))
                done += 1
                progress(done, self.size())
        result.notes.append(
            f"N = {self.reports} reports per point, false-alarm rate {self.alpha:g}: a relative "
            f"error in {self.scale_name} is detected with probability {POWER:.0%} from "
            + ", ".join(powers))
        result.seconds = time.monotonic() - start
        return result


#: key -> (op, its epsilon argument, dimension, points): the flip mechanisms
FLIP_SUITES: dict[str, tuple[str, str, int, tuple[str, ...]]] = {
    "symmetric_rappor": ("mechanisms.symmetric_rappor", "eps0", RAPPOR_DIMENSION, ("1", "3")),
    "symmetric_rappor_textbook": ("mechanisms.symmetric_rappor_textbook", "eps0",
                                  RAPPOR_DIMENSION, ("1", "3")),
    "asymmetric_rappor": ("mechanisms.asymmetric_rappor", "eps", RAPPOR_DIMENSION, ("1", "3")),
    "binary_rr": ("mechanisms.binary_rr", "eps", 1, ("1/2", "2")),
}


class FlipSuite(_MechanismSuite):
    """Symmetric RAPPOR (both forms), asymmetric RAPPOR (``d`` > 1, one-hot inputs) or binary
    randomized response (``d`` = 1, inputs 0, 1 alternating).

    A coordinate is *flipped* when the output differs from the input. Symmetric RAPPOR and binary
    RR flip every coordinate independently with ``p0 = 1/(e^eps + 1)``; asymmetric RAPPOR flips
    its 0-coordinates with ``p0`` and outputs a fair bit at its 1-coordinate (flip probability
    1/2). The flip-rate test pools the coordinates whose flip probability is ``p0``."""

    scale_name = "the flip probability"

    def __init__(self, key: str, *, reports: int | None = None,
                 alpha: float = DEFAULT_ALPHA) -> None:
        self.key = key
        self.op, self.param, self.d, points = FLIP_SUITES[key]
        self.fair_ones = key == "asymmetric_rappor"
        self.tests = (("flip rate", "per coordinate", "flips per report") if self.d > 1
                      else ("flip rate", "per input bit"))
        super().__init__(tuple({self.param: p} for p in points),
                         reports if reports is not None else DEFAULT_REPORTS[key], alpha)

    def inputs(self, point: dict[str, Any], start: int, count: int) -> list[Any]:
        if self.d == 1:
            return [(start + i) % 2 for i in range(count)]
        return ["".join("1" if j == (start + i) % self.d else "0" for j in range(self.d))
                for i in range(count)]

    def minimum_reports(self, point: dict[str, Any]) -> int:
        # the smallest cells: (coordinate, input 1), each with reports / max(d, 2) trials
        p0 = flip_probability(Fraction(point[self.param]))
        least = min(min(r, 1 - r) for r in (self.rate(p0, 0), self.rate(p0, 1)))
        per = max(self.d, 2)
        return per * math.ceil(MIN_EXPECTED / least) + per

    def rate(self, p0: float, bit: int) -> float:
        """The exact flip probability of a coordinate holding ``bit``."""
        return 0.5 if self.fair_ones and bit == 1 else p0

    def power(self, point: dict[str, Any], crit: float) -> float:
        p0 = flip_probability(Fraction(point[self.param]))
        # coordinates flipped with p0: all of them, or the d - 1 zeros of each one-hot report
        trials = self.reports * (self.d - 1 if self.fair_ones else self.d)
        return rate_power(p0, trials, crit)

    def judge(self, point: dict[str, Any], inputs: list[Any], outputs: list[Any]) -> list[_Judged]:
        p0 = flip_probability(Fraction(point[self.param]))
        d = self.d
        flips = [[0, 0] for _ in range(d)]     # per (coordinate, input bit)
        trials = [[0, 0] for _ in range(d)]
        per_report: list[int] = []
        for i, (x, y) in enumerate(zip(inputs, outputs, strict=True)):
            xs = [x] if d == 1 else [1 if c == "1" else 0 for c in x]
            ys = [_category(y, 2, i)] if d == 1 else _bits(y, d, i)
            n = 0
            for j in range(d):
                f = xs[j] ^ ys[j]
                flips[j][xs[j]] += f
                trials[j][xs[j]] += 1
                n += f
            per_report.append(n)
        bits = (0,) if self.fair_ones else (0, 1)
        pooled = sum(flips[j][b] for j in range(d) for b in bits)
        pooled_trials = sum(trials[j][b] for j in range(d) for b in bits)
        out = [_z("flip rate", pooled, pooled_trials, p0, "flip rate")]
        cells = [(f"coordinate {j}, input {b}" if d > 1 else f"input {b}", flips[j][b],
                  trials[j][b], self.rate(p0, b)) for j in range(d) for b in (0, 1)
                 if trials[j][b]]
        out.append(_cells_chi2(self.tests[1], cells))
        if d > 1:
            if self.fair_ones:  # Binomial(d - 1, p0) plus a fair coin
                probs = [0.5 * (_binomial(d - 1, p0, k) + _binomial(d - 1, p0, k - 1))
                         for k in range(d + 1)]
            else:
                probs = [_binomial(d, p0, k) for k in range(d + 1)]
            out.append(_table_chi2("flips per report", Table(0, tuple(probs)), per_report))
        return out


def _binomial(n: int, p: float, k: int) -> float:
    """Binomial(n, p) at k in double precision (n is small: the RAPPOR dimension)."""
    if not 0 <= k <= n:
        return 0.0
    return math.comb(n, k) * p**k * (1 - p) ** (n - k)


class KaryRRSuite(_MechanismSuite):
    """k-ary randomized response."""

    key = "kary_rr"
    op = "mechanisms.kary_rr"
    tests = ("keep rate", "output distribution")
    scale_name = "the keep probability"

    def __init__(self, *, reports: int | None = None, alpha: float = DEFAULT_ALPHA) -> None:
        super().__init__(({"k": 6, "eps": "3/2"}, {"k": 10, "eps": "1"}),
                         reports if reports is not None else DEFAULT_REPORTS["kary_rr"], alpha)

    def inputs(self, point: dict[str, Any], start: int, count: int) -> list[Any]:
        k = int(point["k"])
        return [(start + i) % k for i in range(count)]

    def power(self, point: dict[str, Any], crit: float) -> float:
        return rate_power(keep_probability(int(point["k"]), Fraction(point["eps"])), self.reports,
                          crit)

    def judge(self, point: dict[str, Any], inputs: list[Any], outputs: list[Any]) -> list[_Judged]:
        k = int(point["k"])
        keep = keep_probability(k, Fraction(point["eps"]))
        other = (1 - keep) / (k - 1)
        table = [[0] * k for _ in range(k)]
        for i, (x, y) in enumerate(zip(inputs, outputs, strict=True)):
            table[x][_category(y, k, i)] += 1
        kept = sum(table[x][x] for x in range(k))
        out = [_z("keep rate", kept, len(inputs), keep, "keep rate")]
        stat = 0.0
        worst: list[tuple[float, dict[str, Any]]] = []
        for x in range(k):
            n_x = sum(table[x])
            for y in range(k):
                e = n_x * (keep if x == y else other)
                if e <= 0:
                    continue
                r = (table[x][y] - e) / math.sqrt(e)
                stat += r * r
                worst.append((abs(r), {"cell": f"input {x} -> output {y}", "expected": round(e, 1),
                                       "observed": table[x][y], "residual": round(r, 2)}))
        worst.sort(key=lambda item: -item[0])
        dof = k * (k - 1)
        out.append(_Judged("output distribution", chi2_sf(stat, dof),
                           f"X^2 = {stat:.1f} on {dof} d.f.",
                           {"statistic": stat, "dof": dof,
                            "largestDeviations": [w[1] for w in worst[:3]]}))
        return out

    def min_expected(self, point: dict[str, Any]) -> float:
        """The smallest expected cell count of the output-distribution test."""
        k = int(point["k"])
        keep = keep_probability(k, Fraction(point["eps"]))
        return (self.reports // k) * min(keep, (1 - keep) / (k - 1))

    def minimum_reports(self, point: dict[str, Any]) -> int:
        k = int(point["k"])
        keep = keep_probability(k, Fraction(point["eps"]))
        return k * math.ceil(MIN_EXPECTED / min(keep, (1 - keep) / (k - 1))) + k


class AdditiveSuite(StatisticalSuite):
    """The discrete Laplace / Gaussian mechanism: its noise against the samplers' exact tables."""

    def __init__(self, key: str, *, samples: int = DEFAULT_SAMPLES,
                 alpha: float = DEFAULT_ALPHA) -> None:
        if key == "discrete_laplace":
            dist = replace(DISTRIBUTIONS["discrete_laplace"], op="mechanisms.discrete_laplace",
                           param="scale")
            points: tuple[str, ...] = ("1", "20")
        elif key == "discrete_gaussian":
            dist = replace(DISTRIBUTIONS["discrete_gaussian"], op="mechanisms.discrete_gaussian")
            points = ("25/4", "100")
        else:
            raise KeyError(key)
        self.key = key
        self.dist = dist
        self.name = f"statistical.mechanisms.{key}"
        self.samples = samples - samples % ADDITIVE_DIMENSION
        self.alpha = alpha
        self.points = points
        self.summary = (f"{dist.op} without a seed at {dist.param} = {', '.join(points)}: "
                        f"{self.samples} noise values each (vectors of dimension "
                        f"{ADDITIVE_DIMENSION}), false-alarm rate {alpha:g}")

    def _collect(self, session: Session, param: Fraction, point: str, progress: Progress,
                 done: int, total: int) -> tuple[list[int] | None, str, str]:
        noise: list[int] = []
        vectors = self.samples // ADDITIVE_DIMENSION
        sent = 0
        try:
            while sent < vectors:
                count = min(BATCH, vectors - sent)
                batch = [list(ADDITIVE_INPUTS[(sent + i) % len(ADDITIVE_INPUTS)])
                         for i in range(count)]
                outputs = _ask(session, self.dist.op, {self.dist.param: point,
                                                       "measurements": batch}, count)
                for i, (x, y) in enumerate(zip(batch, outputs, strict=True)):
                    try:
                        ys = parse_samples(y)
                    except ValueError as exc:
                        raise _Failure(FAILED, f"output {sent + i}: {exc}") from exc
                    if len(ys) != ADDITIVE_DIMENSION:
                        raise _Failure(FAILED, f"output {sent + i} has dimension {len(ys)}, "
                                       f"not {ADDITIVE_DIMENSION}")
                    noise.extend(b - int(a) for a, b in zip(x, ys, strict=True))
                sent += count
        except _Failure as exc:
            return None, exc.why, exc.status
        return noise, "", PASSED


def mechanism_suites(samples: int | None = None, alpha: float = DEFAULT_ALPHA) -> list[Suite]:
    """The statistical suites of the mechanisms. ``samples`` (the CLI's ``--samples``) replaces
    every default size: reports per point, or noise values per point for the additive ones."""
    out: list[Suite] = [FlipSuite(key, reports=samples, alpha=alpha) for key in FLIP_SUITES]
    out.append(KaryRRSuite(reports=samples, alpha=alpha))
    for key in ("discrete_laplace", "discrete_gaussian"):
        out.append(AdditiveSuite(key, samples=samples if samples is not None else DEFAULT_SAMPLES,
                                 alpha=alpha))
    return out

