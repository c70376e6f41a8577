"""Exact privacy of the correlated distributed mechanism with geometric D1 = D2 (dpspec analysis).

Theorem 18 of [GKMP20] is a sufficient condition; its tail event ``P[D2 > Delta] <= delta3`` forces
a large Delta (about ``ln(1/delta) / eps1``) and hence much more D3 noise than the mechanism needs.
The paper's experiments (sec. 5.1) choose parameters "in an accurate manner"; this module gives the
exact privacy curve of the mechanism itself, which is what such a choice must rest on.

Setting. ``D1 = D2 = NB(1, a)`` (geometric, ``g(j) = (1-a) a^j``), ``D3`` any distribution on the
non-negative integers with PMF ``h``. The analyzer's view is ``(U+, U-)``, in bijection with
``(W, M) = (s + Z1 - Z2, Z2 + Z3)`` where s is the true count; neighbouring datasets have counts s
and s + 1 (one user's bit changes).

Derivation. With s = 0, ``P(w, m) = sum_{z >= max(0, -w)} g(w + z) g(z) h(m - z)``, and the view for
s + 1 is ``P(w - 1, m)``. Put ``G(m) = sum_{j >= 0} a^(2j) h(m - j)`` (so ``G(m) = h(m) + a^2
G(m - 1)``). Then for ``w >= 0``: ``P(w, m) = (1-a)^2 a^w G(m)``, and for ``w = -t <= 0``:
``P(-t, m) = (1-a)^2 a^t G(m - t)``. Hence
  * for w >= 1 the ratio ``P(w, m) / P(w - 1, m)`` is exactly ``a``;
  * for w = -t <= 0, ``P(w - 1, m) / P(w, m) = a G(m-t-1) / G(m-t) <= 1/a`` (as
    ``G(m) >= a^2 G(m-1)``),
so wherever a likelihood ratio of the two views exceeds ``e^eps`` with ``eps >= ln(1/a)`` it is
``P(-t, m) / P(-t-1, m) = G(m-t) / (a G(m-t-1))``. Summing the hockey-stick terms over t >= 0 and m:

    delta(eps) = (1 - a) * sum_m max(0, G(m) - a e^eps G(m - 1))          for eps >= ln(1/a),

the same in both directions of the neighbouring relation (the other direction contributes 0).
Beyond D3's support ``G(m) = a^2 G(m - 1)``, so those terms are ``(a^2 - a e^eps) G(m - 1) < 0``
and the sum stops with D3's support.

For ``h`` the point mass at 0 (no D3) this gives ``delta = 1 - a`` at every eps: without D3 the
mechanism is not (eps, delta)-DP for delta < 1 - a. The test suite checks the formula against a
brute-force two-dimensional hockey-stick sum.

Both functions accept ``eps`` down to ``ln(1/a) - 10^-12`` so that a logarithm rounded down is not
refused. In that slack the other direction no longer contributes 0: its likelihood ratios (``1/a``
for w >= 1, ``a G(m-t-1) / G(m-t) <= 1/a`` for w <= 0) may exceed ``e^eps``. Each of its terms
``max(0, P1 - e^eps P0)`` is then at most ``P1 (1 - a e^eps)``, so its sum is at most
``1 - a e^eps`` (below ``1 - e^(-10^-12)``, about 10^-12). delta is the larger of the two
directions, so the result is the larger of the formula and that bound (the formula wins unless
delta is below about 10^-12). ``eps < 0`` is refused: there ``a e^eps < a^2`` can hold (``a``
within 10^-12 of 1), the terms beyond the support are then positive and their sum does not stop;
so is an infinite or NaN eps.

Arithmetic: :func:`correlated_delta` works in binary64 (numpy/scipy log-PMFs; the recursion for G
is stable since a^2 < 1), with D3's support truncated where its upper tail is below 1e-30 (the tail
is added to delta); :func:`correlated_delta_mp` is the same computation in mpmath at 40 digits, and
the tests require the two to agree to a relative 1e-9 for delta down to 1e-12. The minimal
parameters are found by bisection on values of this function (never on an approximation of the
privacy curve) and the rounded result is re-checked.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np

from dpspec.spec.accounting.numeric import golden_section
from dpspec.spec.lazy import lazy_module
from dpspec.spec.shuffled.divisible import Divisible, NegativeBinomial, ParameterError, Poisson

signal = lazy_module("scipy.signal")  # scipy is imported on first use only
stats = lazy_module("scipy.stats")

TAIL = 1e-30


def _pmf_array(d3: Divisible) -> tuple[np.ndarray, float]:
    """D3's PMF on ``0..hi`` and its mass beyond ``hi`` (at most TAIL)."""
    if isinstance(d3, NegativeBinomial):
        if d3.p == 0:
            return np.ones(1), 0.0
        dist = stats.nbinom(float(d3.r), 1 - float(d3.p))
    elif isinstance(d3, Poisson):
        if d3.lam == 0:
            return np.ones(1), 0.0
        dist = stats.poisson(float(d3.lam))
    else:  # pragma: no cover - only two families exist
        raise ParameterError(f"unsupported D3 {d3!r}")
    mean, sd = float(d3.mean()), math.sqrt(float(d3.variance()))
    step = int(10 * sd) + 50
    hi = int(mean) + step
    while dist.logsf(hi) > math.log(TAIL):
        hi += step
    return np.exp(dist.logpmf(np.arange(hi + 1))), float(math.exp(dist.logsf(hi)))


def correlated_delta(eps: float, a: Fraction, d3: Divisible) -> float:
    """Exact delta(eps) of the (NB(1, a), NB(1, a), D3)-correlated mechanism (module docstring).

    Requires ``eps >= ln(1/a)`` (below that the mechanism is not even eps-DP on its own W), up to
    the slack of the module docstring, and a finite ``eps >= 0``.
    """
    af = float(a)
    if not 0 < af < 1:
        raise ParameterError("a must be in (0, 1)")
    if not 0 <= eps < math.inf or eps < -math.log(af) - 1e-12:
        raise ParameterError("the formula needs a finite eps >= 0 and eps >= ln(1/a)")
    h, lost = _pmf_array(d3)
    g = signal.lfilter([1.0], [1.0, -af * af], h)
    g_prev = np.concatenate([[0.0], g[:-1]])
    s = float(np.sum(np.maximum(g - af * math.exp(eps) * g_prev, 0.0)))
    return min(1.0, max((1 - af) * s + lost, 1 - af * math.exp(eps)))


def correlated_delta_mp(eps: Fraction | int, a: Fraction, d3: Divisible, dps: int = 40
                        ) -> mpmath.mpf:
    """:func:`correlated_delta` in mpmath at ``dps`` digits (the reference the binary64 form is
    tested against): the PMF of D3 from :mod:`dpspec.spec.distributions`, its support cut where the
    upper tail is below 10^-(dps+5) (the tail is added), the recursion for G and the sum; the same
    domain (``eps >= 0``, ``eps >= ln(1/a) - 10^-12``) and the same bound in the slack."""
    if not 0 < a < 1:
        raise ParameterError("a must be in (0, 1)")
    with mpmath.workdps(dps + 10):
        af = mpmath.mpf(a.numerator) / a.denominator
        e = mpmath.exp(mpmath.mpf(eps.numerator) / eps.denominator
                       if isinstance(eps, Fraction) else mpmath.mpf(eps))
        if not eps >= 0 or af * e < mpmath.exp(-mpmath.mpf("1e-12")):
            raise ParameterError("the formula needs eps >= ln(1/a) and eps >= 0")
        c = af * e
        cut = mpmath.mpf(10) ** -(dps + 5)
        hi = int(d3.mean()) + 16
        while d3.sf(hi, dps + 10) > cut:
            hi *= 2
        g_prev, total = mpmath.mpf(0), mpmath.mpf(0)
        for m in range(hi + 1):
            g = d3.pmf(m, dps + 10) + af * af * g_prev
            if g > c * g_prev:
                total += g - c * g_prev
            g_prev = g
        return max((1 - af) * total + d3.sf(hi, dps + 10), 1 - c)


def brute_force_correlated_delta(eps: float, a: Fraction, d3_pmf: list[float]) -> float:
    """The same quantity by the definition: the 2-D hockey-stick divergence of (W, M) for s = 0
    against s = 1, both directions, on a small D3 given by its PMF (for tests)."""
    return max(hockey_stick_directions(eps, a, d3_pmf))


def hockey_stick_directions(eps: float, a: Fraction, d3_pmf: list[float]) -> tuple[float, float]:
    """The hockey-stick sums of the view (W, M) for s = 0 against s = 1 and for s = 1 against
    s = 0, by enumeration (for tests)."""
    af = float(a)
    zmax = int(math.log(1e-18) / math.log(af)) + 2
    geo = [(1 - af) * af**j for j in range(zmax + 1)]
    view: dict[tuple[int, int], list[float]] = {}
    for s in (0, 1):
        for z1, p1 in enumerate(geo):
            for z2, p2 in enumerate(geo):
                for z3, p3 in enumerate(d3_pmf):
                    key = (s + z1 - z2, z2 + z3)
                    view.setdefault(key, [0.0, 0.0])[s] += p1 * p2 * p3
    e = math.exp(eps)
    one = sum(max(0.0, p - e * q) for p, q in view.values())
    two = sum(max(0.0, q - e * p) for p, q in view.values())
    return one, two


def _min_r(eps: float, delta: float, a: Fraction, p: Fraction, rel: float = 1e-7) -> float:
    """Smallest r (to relative ``rel``, from above) with ``correlated_delta <= delta`` for
    ``D3 = NB(r, p)``; delta decreases in r (``NB(r') = NB(r) + NB(r' - r)``: post-processing)."""
    def ok(r: float) -> bool:
        return correlated_delta(eps, a, NegativeBinomial(Fraction(r), p)) <= delta

    lo, hi = 0.0, 1.0
    while not ok(hi):
        lo, hi = hi, hi * 2
        if hi > 1e12:
            raise ParameterError("no negative binomial D3 with this p is private enough")
    while hi - lo > rel * hi:
        mid = (lo + hi) / 2
        if ok(mid):
            hi = mid
        else:
            lo = mid
    return hi


def _sig(x: float, digits: int, up: bool) -> Fraction:
    e = math.floor(math.log10(abs(x))) - digits + 1
    scale = Fraction(10) ** e
    q = Fraction(x) / scale
    return (math.ceil(q) if up else math.floor(q)) * scale


def minimal_correlated_d3(eps: float, delta: float, a: Fraction, digits: int = 6,
                          min_one_minus_p: float = 1e-4, max_one_minus_p: float = 0.9
                          ) -> NegativeBinomial:
    """The negative binomial D3 = NB(r, p) with the fewest expected messages ``r p / (1-p)`` for
    which the (NB(1, a), NB(1, a), D3)-correlated mechanism is exactly (eps, delta)-DP.

    Golden-section search over ``t = ln(1/(1-p))`` in the given range of ``1 - p`` of the mean at
    the minimal r (unimodal in every case we have tabulated); then ``1 - p`` is rounded to
    ``digits`` significant digits, r is re-minimised at that rational p and rounded up to
    ``digits`` significant digits, and the rounded parameters are re-checked.
    """
    if delta <= 0 or delta >= 1:
        raise ParameterError("delta must be in (0, 1)")

    def mean_at(t: float) -> float:
        p = Fraction(-math.expm1(-t))
        return _min_r(eps, delta, a, p, 1e-4) * float(p / (1 - p))

    lo, hi = -math.log(max_one_minus_p), -math.log(min_one_minus_p)
    s = golden_section(mean_at, lo, hi, phi=(math.sqrt(5) - 1) / 2, tol=1e-3)
    t = s.x1 if s.f1 < s.f2 else s.x2
    p = 1 - _sig(math.exp(-t), digits, up=False)
    r = _sig(_min_r(eps, delta, a, p), digits, up=True)
    while correlated_delta(eps, a, NegativeBinomial(r, p)) > delta:  # pragma: no cover
        r = _sig(float(r) * (1 + 10.0 ** (1 - digits)), digits, up=True)
    return NegativeBinomial(r, p)
