"""Statistical mode: testing samplers that cannot take a seed against their exact distributions.

An implementation whose sampler draws its own randomness (OpenDP, a production library) cannot
reproduce a seeded vector, but it can still be tested: the harness asks for many samples, sending
the sampler's op **without** ``seed`` and ``tag`` (``{"sigma2": "4", "count": 10000}``), and tests
them against the exact PMF of :mod:`dpspec.spec.distributions`.

For each parameter point of a suite, with ``N`` samples and the exact PMF ``P``:

1. **chi-square goodness of fit.** Integer bins from the centre outwards, merged until each has an
   expected count of at least ``MIN_EXPECTED`` (= 50), the two outermost bins open-ended;
   ``X^2 = sum (O - E)^2 / E`` against chi-square with ``bins - 1`` degrees of freedom.
2. **mean** z-test: ``z = (mean - mu) / (sd / sqrt(N))`` with the exact ``mu`` and ``sd``.
3. **second moment** z-test: the sample mean of ``(X - mu)^2`` against the exact variance ``v``,
   with standard error ``sqrt(E[(X - mu)^4] - v^2) / sqrt(N)`` (for Bernoulli the mean test says all
   and is the only one).

All p-values are two-sided (the chi-square upper tail). **False-alarm rate**: the suite as a
whole wrongly rejects a correct sampler with probability at most ``alpha`` (default ``1e-6``) by
Bonferroni: each of its ``m`` tests rejects at ``p < alpha / m``. The p-values are asymptotic
(central limit theorem for the z-tests, the chi-square law with at least 50 expected per bin): in
the far tail they are accurate to a modest relative factor, not exactly, so the stated rate is
nominal in that sense; it is not off by orders of magnitude at the sample sizes used.

Suites (op, the parameter that varies, and the points): ``discrete_gaussian`` (``sigma2``: 1,
25/4, 100), ``discrete_laplace`` (``t``: 1, 5/2, 20), ``bernoulli`` (``p``), ``bernoulli_rr``
(``eps``; randomized response's flip, probability ``1/(1+exp(eps))``), ``geometric`` (``p``),
``poisson`` (``lam``) and ``binomial`` (``p``, with ``n = 40``): see ``DISTRIBUTIONS`` and
``POINTS``. Where the samplers registry is present, every other scalar sampler it lists
(``bernoulli_exp``, ``geometric_exp``, ``binomial_textbook``, ``binomial_rr``,
``negative_binomial``, ``negative_binomial_exp``) is a suite too, tested against the registry's
exact PMF (``REGISTRY_SUITES``).

**Power** (reported per point): the smallest relative error ``delta`` in the scale (sigma for the
discrete Gaussian, t for the discrete Laplace, p or the flip probability for the coins, lam, the
geometric's mean) such that a sampler whose scale is ``(1 + delta)`` or ``(1 - delta)`` times the
right one is rejected with probability at least 99% at this ``N`` by the mean test or the
second-moment test alone (normal approximation to each statistic under the alternative, exact
moments of the alternative distribution). The chi-square test only adds power. For the registry
suites, whose PMFs are slow to tabulate, the same quantity is computed to first order (see
:func:`local_detection_power`); on the built-in suites the two agree to within a few percent.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import re
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath

from dpspec.conformance.harness.model import ERROR, FAILED, PASSED, SKIPPED, Outcome, SuiteResult
from dpspec.conformance.harness.process import ProtocolFailure
from dpspec.conformance.harness.session import Session
from dpspec.conformance.harness.suites import Progress, Suite
from dpspec.spec.distributions import (
    binomial_pmf,
    discrete_gaussian_normaliser,
    discrete_laplace_pmf,
    poisson_pmf,
    to_mpf,
)

DEFAULT_ALPHA = 1e-6
DEFAULT_SAMPLES = 50_000
MIN_EXPECTED = 50.0
CHUNK = 10_000
POWER = 0.99
TAIL = 1e-30
REGISTRY_TAIL = 1e-20  # the registry's PMFs are slower; the moments stay exact to about 1e-15
_INT = re.compile(r"^-?(0|[1-9][0-9]*)$")


@dataclass(frozen=True)
class Table:
    """An exact PMF on ``lo..hi`` (mass outside below ``TAIL``) as floats, and its moments."""

    lo: int
    probs: tuple[float, ...]

    @property
    def hi(self) -> int:
        return self.lo + len(self.probs) - 1

    def moment(self, k: int, about: float = 0.0) -> float:
        return math.fsum(p * (self.lo + i - about) ** k for i, p in enumerate(self.probs))

    @property
    def mean(self) -> float:
        return self.moment(1)

    def central(self) -> tuple[float, float, float]:
        """(mean, variance, sd of (X - mean)^2)."""
        mu = self.mean
        v = self.moment(2, mu)
        m4 = self.moment(4, mu)
        return mu, v, math.sqrt(max(m4 - v * v, 0.0))


def _symmetric_table(pmf: Callable[[int], Any]) -> Table:
    """Tabulate a PMF on the integers symmetric about 0 until the tail is negligible."""
    values = [float(pmf(0))]
    x = 1
    while True:
        p = float(pmf(x))
        if p < TAIL and x > 2:
            break
        values.append(p)
        x += 1
    half = values[1:]
    return Table(-len(half), tuple(list(reversed(half)) + values))


@functools.lru_cache(maxsize=256)
def gaussian_table(sigma2: Fraction) -> Table:
    """CKS20 Definition 1: ``exp(-x^2 / (2 sigma2)) / Z`` with the normaliser ``Z`` of
    :func:`dpspec.spec.distributions.discrete_gaussian_normaliser` (terms in double precision)."""
    z = float(discrete_gaussian_normaliser(sigma2, dps=30))
    s2 = float(sigma2)
    return _symmetric_table(lambda x: math.exp(-x * x / (2 * s2)) / z)


@functools.lru_cache(maxsize=256)
def laplace_table(t: Fraction) -> Table:
    """CKS20 Definition 28: ``P[x] = P[0] a^|x|``, ``a = exp(-1/t)``, with ``P[0]`` of
    :func:`dpspec.spec.distributions.discrete_laplace_pmf` (terms in double precision)."""
    p0 = float(discrete_laplace_pmf(t, 0, dps=30))
    with mpmath.workdps(30):
        a = float(mpmath.exp(-1 / to_mpf(t)))
    return _symmetric_table(lambda x: p0 * a ** abs(x))


@functools.lru_cache(maxsize=256)
def bernoulli_table(p: Fraction) -> Table:
    return Table(0, (float(1 - p), float(p)))


def _one_sided_table(pmf: Callable[[int], Any], mean: float) -> Table:
    """Tabulate a PMF on 0, 1, 2, ... until past the mean and the tail is negligible."""
    values = []
    x = 0
    while True:
        p = float(pmf(x))
        if p < TAIL and x > mean:
            break
        values.append(p)
        x += 1
    return Table(0, tuple(values))


@functools.lru_cache(maxsize=256)
def geometric_table(p: Fraction) -> Table:
    """``P[k] = (1-p)^k p``, k >= 0, as :func:`dpspec.spec.distributions.geometric_pmf` (in double
    precision)."""
    q, pf = float(1 - p), float(p)
    return _one_sided_table(lambda k: pf * q**k, float((1 - p) / p))


@functools.lru_cache(maxsize=256)
def poisson_table(lam: Fraction) -> Table:
    """Poisson(lam), via :func:`dpspec.spec.distributions.poisson_pmf`."""
    return _one_sided_table(lambda k: poisson_pmf(lam, k, dps=20), float(lam))


BINOMIAL_N = 40


@functools.lru_cache(maxsize=256)
def binomial_table(p: Fraction) -> Table:
    """Binomial(BINOMIAL_N, p), via :func:`dpspec.spec.distributions.binomial_pmf`."""
    return Table(0, tuple(float(binomial_pmf(BINOMIAL_N, p, k, dps=20))
                          for k in range(BINOMIAL_N + 1)))


def rr_flip(eps: Fraction) -> float:
    """Randomized response's flip probability ``1 / (1 + exp(eps))``."""
    with mpmath.workdps(30):
        return float(1 / (1 + mpmath.exp(to_mpf(eps))))


@functools.lru_cache(maxsize=256)
def bernoulli_rr_table(eps: Fraction) -> Table:
    q = rr_flip(eps)
    return Table(0, (1 - q, q))


@dataclass(frozen=True)
class Distribution:
    """One sampler op and how its exact law depends on its (one varying) parameter.

    ``fixed`` holds further arguments sent unchanged. For the power computation the parameter is
    mapped to the **scale** the power is stated in (``to_scale``) and back (``from_scale``);
    ``from_scale`` raises ValueError outside the parameter's domain (an error that large is
    counted as detected).
    """

    op: str
    scale_name: str       # what the power is stated in
    param: str            # the argument that varies
    table: Callable[[Fraction], Table]
    to_scale: Callable[[Fraction], float]            # parameter -> scale
    from_scale: Callable[[float], Fraction]          # scale -> parameter
    tests: tuple[str, ...] = ("chi-square", "mean", "second moment")
    fixed: tuple[tuple[str, Any], ...] = ()
    #: power by the first-order (local) approximation instead of the bisection (see
    #: :func:`local_detection_power`); for PMFs that are slow to tabulate
    local_power: bool = False


def _frac(x: float) -> Fraction:
    return Fraction(x).limit_denominator(10**12)


def _positive(x: float) -> Fraction:
    if not x > 0:
        raise ValueError("outside the domain")
    return _frac(x)


def _probability(x: float) -> Fraction:
    if not 0 < x < 1:
        raise ValueError("outside the domain")
    return _frac(x)


def _rr_eps(q: float) -> Fraction:
    if not 0 < q < 1:
        raise ValueError("outside the domain")
    return _frac(math.log(1 / q - 1))


DISTRIBUTIONS: dict[str, Distribution] = {
    "discrete_gaussian": Distribution(
        "sampler.discrete_gaussian", "sigma", "sigma2", gaussian_table,
        lambda s2: math.sqrt(s2), lambda s: _positive(s * s)),
    "discrete_laplace": Distribution(
        "sampler.discrete_laplace", "t", "t", laplace_table, float, _positive),
    "bernoulli": Distribution(
        "sampler.bernoulli", "p", "p", bernoulli_table, float, _probability, tests=("mean",)),
    "bernoulli_rr": Distribution(
        "sampler.bernoulli_rr", "the flip probability", "eps", bernoulli_rr_table,
        rr_flip, _rr_eps, tests=("mean",)),
    "geometric": Distribution(
        "sampler.geometric", "the mean (1-p)/p", "p", geometric_table,
        lambda p: float((1 - p) / p), lambda m: _probability(1 / (1 + m))),
    "poisson": Distribution(
        "sampler.poisson", "lam", "lam", poisson_table, float, _positive),
    "binomial": Distribution(
        "sampler.binomial", "p", "p", binomial_table, float, _probability,
        fixed=(("n", str(BINOMIAL_N)),)),
}

#: The rational-only profile (dpspec.spec.samplers.rational_only) samples the same distributions
#: under the ops sampler.rational.NAME: the same suites, at the same points.
RATIONAL_PROFILE_SUITES = ("discrete_gaussian", "discrete_laplace", "bernoulli_rr")
DISTRIBUTIONS.update({f"rational.{key}": dataclasses.replace(DISTRIBUTIONS[key],
                                                             op=f"sampler.rational.{key}")
                      for key in RATIONAL_PROFILE_SUITES})

#: The parameter points of each suite (exact rationals as the protocol sends them).
POINTS: dict[str, tuple[str, ...]] = {
    "discrete_gaussian": ("1", "25/4", "100"),
    "discrete_laplace": ("1", "5/2", "20"),
    "bernoulli": ("1/2", "1/3", "3/100"),
    "bernoulli_rr": ("1/2", "1", "3"),
    "geometric": ("1/2", "1/5", "1/20"),
    "poisson": ("1", "15/2", "40"),
    "binomial": ("1/2", "1/10"),
}
POINTS.update({f"rational.{key}": POINTS[key] for key in RATIONAL_PROFILE_SUITES})


#: Further suites, one per remaining scalar sampler of the samplers registry
#: (``dpspec.spec.samplers.registry.SAMPLERS``), tested against that registry's exact PMFs:
#: name -> (the parameter that varies, its domain, its points, fixed arguments, tests).
REGISTRY_SUITES: dict[str, tuple[str, str, tuple[str, ...], tuple[tuple[str, str], ...],
                                 tuple[str, ...]]] = {
    "bernoulli_exp": ("gamma", "nonnegative", ("1/2", "2"), (), ("mean",)),
    "geometric_exp": ("gamma", "positive", ("1/2", "1/10"), (),
                      ("chi-square", "mean", "second moment")),
    "binomial_textbook": ("p", "probability", ("1/3",), (("n", "40"),),
                          ("chi-square", "mean", "second moment")),
    "binomial_rr": ("eps", "nonnegative", ("1",), (("n", "40"),),
                    ("chi-square", "mean", "second moment")),
    "negative_binomial": ("p", "probability", ("1/2",), (("r", "3"),),
                          ("chi-square", "mean", "second moment")),
    "negative_binomial_exp": ("gamma", "positive", ("1/2",), (("r", "5/2"),),
                              ("chi-square", "mean", "second moment")),
    "rational.bernoulli_exp": ("gamma", "nonnegative", ("1/2", "2"), (), ("mean",)),
    "rational.geometric_exp": ("gamma", "positive", ("1/2", "1/10"), (),
                               ("chi-square", "mean", "second moment")),
}

_DOMAINS: dict[str, Callable[[float], bool]] = {
    "positive": lambda x: x > 0,
    "nonnegative": lambda x: x >= 0,
    "probability": lambda x: 0 < x < 1,
}


def _registry_table(pmf: Callable[[int], Any]) -> Table:
    """Tabulate a PMF on 0, 1, 2, ... until the remaining mass is negligible."""
    values: list[float] = []
    total = 0.0
    x = 0
    while True:
        p = float(pmf(x))
        if p < REGISTRY_TAIL and total >= 1 - 1e-12:
            break
        values.append(p)
        total += p
        x += 1
    return Table(0, tuple(values))


def registry_distributions() -> dict[str, Distribution]:
    """The REGISTRY_SUITES as distributions (empty where dpspec.spec.samplers is absent); the power is
    stated as a relative error in the varying parameter itself."""
    try:
        from dpspec.spec.samplers.registry import SAMPLERS
    except ImportError:
        return {}
    out: dict[str, Distribution] = {}
    for name, (param, domain, _, fixed, tests) in REGISTRY_SUITES.items():
        sampler = SAMPLERS.get(name)
        if sampler is None or getattr(sampler, "pmf_func", None) is None:
            continue
        inside = _DOMAINS[domain]

        def table(value: Fraction, sampler: Any = sampler, param: str = param,
                  fixed: tuple[tuple[str, str], ...] = fixed) -> Table:
            args = {**dict(fixed), param: value}
            return _registry_table(lambda x: sampler.pmf(args, x))

        def from_scale(x: float, inside: Callable[[float], bool] = inside) -> Fraction:
            if not inside(x):
                raise ValueError("outside the domain")
            return _frac(x)

        out[name] = Distribution(f"sampler.{name}", param, param, functools.lru_cache(256)(table),
                                 float, from_scale, tests, fixed, local_power=True)
    return out


def _phi(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2))


def _z_quantile(tail: float) -> float:
    """z with P[Z > z] = tail (upper quantile of N(0, 1))."""
    with mpmath.workdps(30):
        return float(mpmath.sqrt(2) * mpmath.erfinv(1 - 2 * mpmath.mpf(tail)))


def two_sided_p(z: float) -> float:
    return float(mpmath.erfc(abs(z) / mpmath.sqrt(2)))


def chi2_sf(x: float, dof: int) -> float:
    """Upper tail of chi-square with ``dof`` degrees of freedom (regularized incomplete gamma)."""
    if dof <= 0:
        return 1.0
    return float(mpmath.gammainc(mpmath.mpf(dof) / 2, mpmath.mpf(x) / 2, mpmath.inf,
                                 regularized=True))


def bins_for(table: Table, n: int) -> list[tuple[int, int, float]]:
    """Bins ``(lo, hi, prob)`` with expected count >= MIN_EXPECTED; outer bins are open-ended.

    Built by merging single integers from each side towards the mode until the running mass
    reaches the threshold; the first and last bins then extend to -inf and +inf.
    """
    need = MIN_EXPECTED / n
    bins: list[tuple[int, int, float]] = []
    start, acc = table.lo, 0.0
    for i, p in enumerate(table.probs):
        acc += p
        x = table.lo + i
        if acc >= need:
            bins.append((start, x, acc))
            start, acc = x + 1, 0.0
    if acc > 0 and bins:
        lo, _, p = bins.pop()
        bins.append((lo, table.hi, p + acc))
    if len(bins) < 2:
        return []
    lo0, hi0, p0 = bins[0]
    bins[0] = (-(10**100), hi0, p0)
    lo1, _, p1 = bins[-1]
    bins[-1] = (lo1, 10**100, p1)
    total = math.fsum(b[2] for b in bins)
    return [(lo, hi, p / total) for lo, hi, p in bins]


def chi_square(table: Table, counts: Counter[int], n: int) -> tuple[float, int]:
    """(statistic, degrees of freedom)."""
    stat, dof, _ = chi_square_bins(table, counts, n)
    return stat, dof


def chi_square_bins(table: Table, counts: Counter[int],
                    n: int) -> tuple[float, int, list[dict[str, Any]]]:
    """(statistic, degrees of freedom, the bins with the largest standardized residuals).

    Each listed bin is ``{"range": "lo..hi", "expected": E, "observed": O, "residual": r}`` with
    ``r = (O - E) / sqrt(E)`` (at most three, largest ``|r|`` first): where a wrong sampler
    departs from the law."""
    bins = bins_for(table, n)
    if not bins:
        return 0.0, 0, []
    stat = 0.0
    edges = [b[1] for b in bins]
    observed = [0] * len(bins)
    for x, c in counts.items():
        lo_i, hi_i = 0, len(edges) - 1
        while lo_i < hi_i:  # first bin whose upper edge is >= x
            mid = (lo_i + hi_i) // 2
            if edges[mid] >= x:
                hi_i = mid
            else:
                lo_i = mid + 1
        observed[lo_i] += c
    residuals: list[tuple[float, dict[str, Any]]] = []
    for (lo, hi, p), o in zip(bins, observed, strict=True):
        e = n * p
        stat += (o - e) ** 2 / e
        where = (f"<= {hi}" if lo < table.lo else f">= {lo}" if hi > table.hi
                 else str(lo) if lo == hi else f"{lo}..{hi}")
        r = (o - e) / math.sqrt(e)
        residuals.append((abs(r), {"range": where, "expected": round(e, 1), "observed": o,
                                   "residual": round(r, 2)}))
    residuals.sort(key=lambda item: -item[0])
    return stat, len(bins) - 1, [item[1] for item in residuals[:3]]


@functools.lru_cache(maxsize=1024)
def detection_power(dist: Distribution, param: Fraction, n: int, crit: float) -> float:
    """Smallest relative error in the scale that the suite detects with probability POWER.

    A sampler off by ``rel`` is rejected at least as often as by the mean test or the second
    moment test alone; each is a z-test whose statistic is, under the alternative, normal with
    mean ``sqrt(n) (value_1 - value_0) / sd_0`` and standard deviation ``sd_1 / sd_0``.
    """
    if dist.local_power:
        return local_detection_power(dist, param, n, crit)
    table = dist.table(param)
    mu, v, s = table.central()
    need = _z_quantile(1 - POWER)
    second = "second moment" in dist.tests

    def power_ok(value: float, sd: float, base_value: float, base_sd: float) -> bool:
        shift = math.sqrt(n) * abs(value - base_value) / base_sd
        return (shift - crit) * base_sd / max(sd, 1e-300) >= need

    def detected(rel: float) -> bool:
        try:
            alt_param = dist.from_scale(dist.to_scale(param) * (1 + rel))
        except ValueError:
            return True  # the parameter leaves its domain
        alt = dist.table(alt_param)
        if power_ok(alt.mean, math.sqrt(alt.moment(2, alt.mean)), mu, math.sqrt(v)):
            return True
        if not second:
            return False
        m2 = alt.moment(2, mu)
        return power_ok(m2, math.sqrt(max(alt.moment(4, mu) - m2 * m2, 0.0)), v, s)

    return smallest_detected_error(detected, steps=16)  # to 1.5e-5 in the relative error


def smallest_detected_error(detected: Callable[[float], bool], steps: int) -> float:
    """The smallest relative error ``rel`` in (0, 0.999] with ``detected(+rel)`` and
    ``detected(-rel)``, by ``steps`` bisections on each side (the larger side counts; detection
    is assumed monotone in ``|rel|``); ``inf`` if even 0.999 goes undetected."""
    worst = 0.0
    for sign in (1.0, -1.0):
        lo, hi = 0.0, 0.999
        if not detected(sign * hi):
            return float("inf")
        for _ in range(steps):
            mid = (lo + hi) / 2
            if detected(sign * mid):
                hi = mid
            else:
                lo = mid
        worst = max(worst, hi)
    return worst


def local_detection_power(dist: Distribution, param: Fraction, n: int, crit: float,
                          h: float = 0.01) -> float:
    """The first-order version of :func:`detection_power`: each moment test's statistic shifts by
    ``sqrt(n) * delta * |d value / d rel| / sd_0`` for a relative error ``delta`` in the scale,
    so it detects with probability POWER once that reaches ``crit + z_POWER``; the derivative is
    a central difference with step ``h``. Accurate for small ``delta`` (a few percent), which is
    the range reported; the suite detects at the smaller of the tests' values."""
    table = dist.table(param)
    mu, v, s = table.central()
    need = _z_quantile(1 - POWER)
    scale = dist.to_scale(param)
    try:
        up = dist.table(dist.from_scale(scale * (1 + h)))
        down = dist.table(dist.from_scale(scale * (1 - h)))
    except ValueError:
        return float("inf")
    best = float("inf")
    slope = (up.mean - down.mean) / (2 * h)
    if slope != 0 and v > 0:
        best = min(best, (crit + need) * math.sqrt(v) / (math.sqrt(n) * abs(slope)))
    if "second moment" in dist.tests and s > 0:
        slope2 = (up.moment(2, mu) - down.moment(2, mu)) / (2 * h)
        if slope2 != 0:
            best = min(best, (crit + need) * s / (math.sqrt(n) * abs(slope2)))
    return best


def parse_samples(values: Any) -> list[int]:
    """Samples as integers; ValueError naming the first bad one."""
    if not isinstance(values, list):
        raise ValueError("samples is not a list")
    out = []
    for i, v in enumerate(values):
        if isinstance(v, str) and _INT.match(v):
            out.append(int(v))
        elif isinstance(v, int) and not isinstance(v, bool):
            out.append(v)
        else:
            raise ValueError(f"sample {i} is not an integer: {str(v)[:40]!r}")
    return out


class StatisticalSuite(Suite):
    """Goodness-of-fit and moment tests of one sampler at several parameter points."""

    mode = "statistical"

    def __init__(self, key: str, *, samples: int = DEFAULT_SAMPLES, alpha: float = DEFAULT_ALPHA,
                 points: Sequence[str] | None = None) -> None:
        self.key = key
        if key in DISTRIBUTIONS:
            self.dist = DISTRIBUTIONS[key]
            default_points = POINTS[key]
        else:
            self.dist = registry_distributions()[key]
            default_points = REGISTRY_SUITES[key][2]
        self.name = f"statistical.{key}"
        self.samples = samples
        self.alpha = alpha
        self.points = tuple(points) if points is not None else default_points
        fixed = "".join(f", {k} = {v}" for k, v in self.dist.fixed)
        self.summary = (f"{self.dist.op} without a seed at {self.dist.param} = "
                        f"{', '.join(self.points)}{fixed}: {samples} samples each, "
                        f"false-alarm rate {alpha:g}")

    def ops(self) -> frozenset[str]:
        return frozenset({self.dist.op})

    def size(self) -> int:
        return len(self.points) * len(self.dist.tests)

    @property
    def per_test_alpha(self) -> float:
        return self.alpha / self.size()

    def run(self, session: Session, progress: Progress) -> SuiteResult:
        result = SuiteResult(self.name, self.mode, self.summary)
        start = time.monotonic()
        crit = _z_quantile(self.per_test_alpha / 2)
        result.details = {"alpha": self.alpha, "correction": "Bonferroni",
                          "perTestAlpha": self.per_test_alpha, "samplesPerPoint": self.samples,
                          "power": POWER, "points": []}
        total = self.size()
        done = 0
        powers: list[str] = []
        for point in self.points:
            param = Fraction(point)
            label = ", ".join(f"{k}={v}" for k, v in ((self.dist.param, point), *self.dist.fixed))
            power = detection_power(self.dist, param, self.samples, crit)
            result.details["points"].append({self.dist.param: point, "detectableRelativeError":
                                             power, "scale": self.dist.scale_name})
            powers.append(f"{power:.2%} at {label}")
            samples, why, status = self._collect(session, param, point, progress, done, total)
            if samples is None:
                for test in self.dist.tests:
                    result.outcomes.append(Outcome(self.name, label, test, self.dist.op, status, why))
                done += len(self.dist.tests)
                continue
            for outcome in self._tests(label, param, samples):
                result.outcomes.append(outcome)
                done += 1
                progress(done, total)
        result.notes.append(
            f"N = {self.samples} per point, false-alarm rate {self.alpha:g}: a relative error in "
            f"{self.dist.scale_name} is detected with probability {POWER:.0%} from "
            + ", ".join(powers))
        result.seconds = time.monotonic() - start
        return result

    def _collect(self, session: Session, param: Fraction, point: str, progress: Progress,
                 done: int, total: int) -> tuple[list[int] | None, str, str]:
        samples: list[int] = []
        while len(samples) < self.samples:
            want = min(CHUNK, self.samples - len(samples))
            args: dict[str, Any] = {self.dist.param: point, **dict(self.dist.fixed),
                                    "count": want}
            try:
                response = session.call(self.dist.op, args)
            except ProtocolFailure as exc:
                return None, str(exc), ERROR
            if response.unsupported is not None:
                return None, f"unsupported: {response.unsupported}", SKIPPED
            if not response.ok:
                return None, f"rejected a valid request {args}: {response.error}", FAILED
            res = response.result
            try:
                if not isinstance(res, dict) or "samples" not in res:
                    raise ValueError("result has no samples")
                got = parse_samples(res["samples"])
            except ValueError as exc:
                return None, str(exc), FAILED
            if len(got) != want:
                return None, f"asked for {want} samples, got {len(got)}", FAILED
            samples.extend(got)
        return samples, "", PASSED

    def _tests(self, label: str, param: Fraction, samples: list[int]) -> list[Outcome]:
        table = self.dist.table(param)
        n = len(samples)
        mu, v, s4 = table.central()
        level = self.per_test_alpha
        out = []
        for test in self.dist.tests:
            if test == "chi-square":
                counts = Counter(samples)
                stat, dof, worst = chi_square_bins(table, counts, n)
                p = chi2_sf(stat, dof)
                provided: dict[str, Any] = {"statistic": stat, "dof": dof, "pValue": p,
                                            "largestDeviations": worst}
                observed = f"X^2 = {stat:.1f} on {dof} d.f."
            elif test == "mean":
                mean = math.fsum(samples) / n
                z = (mean - mu) / (math.sqrt(v) / math.sqrt(n))
                p = two_sided_p(z)
                provided = {"mean": mean, "z": z, "pValue": p}
                observed = f"mean {mean:.5g} (exact {mu:.5g}), z = {z:.2f}"
            else:
                m2 = math.fsum((x - mu) ** 2 for x in samples) / n
                z = (m2 - v) / (s4 / math.sqrt(n))
                p = two_sided_p(z)
                provided = {"secondMoment": m2, "z": z, "pValue": p}
                observed = f"second moment {m2:.5g} (exact {v:.5g}), z = {z:.2f}"
            ok = p >= level
            reason = (f"{observed}, p = {p:.3g} {'>=' if ok else '<'} {level:.3g}")
            if not ok:
                reason = "rejected: " + reason
            out.append(Outcome(self.name, label, test, self.dist.op, PASSED if ok else FAILED,
                               reason, expected={"test": test, "rejectBelow": level, "N": n},
                               provided=provided))
        return out


def statistical_suites(samples: int | None = None, alpha: float = DEFAULT_ALPHA) -> list[Suite]:
    """One suite per sampler distribution (those of the registry included where it exists)."""
    n = samples if samples is not None else DEFAULT_SAMPLES
    keys = [*DISTRIBUTIONS, *registry_distributions()]
    return [StatisticalSuite(key, samples=n, alpha=alpha) for key in keys]
