"""Amplification by shuffling / aggregation of eps0-LDP reports, and the exact curves of summed
binary randomized response.

Setting (MJTB+22 sec. 3.1.2, SA2 Example 4, sec. 6.1.1 of the DP draft): n users each apply an
eps0-DP local randomizer (replacement neighbours at the local level) and only the multiset (or the
sum) of the reports is released. Four ways to bound the aggregate (eps, delta), named as the CLI
names them:

``closed``
    The closed form of MJTB+22 Theorem 3.1 (due to [FMT20])::

        eps <= log(1 + (e^eps0 - 1) (4 sqrt(2 log(4/delta)) / sqrt((e^eps0 + 1) n) + 4/n))

    valid only when ``eps0 <= log(n / (8 log(2/delta)) - 1)``. Outside that region the formula is
    not a theorem; :func:`closed_form` then says so and falls back to ``fmt20`` (never returns the
    formula's small number).
``fmt20``
    The numerical "hiding among the clones" bound of [FMT20] (Theorem 3.1 there and its App. E):
    the shuffled output is a post-processing of the pair ``P = (C, A + 1 - D), Q = (C, A + D)``
    with ``C ~ Bin(n - 1, e^-eps0)``, ``A ~ Bin(C, 1/2)``, ``D ~ Bern(1/(e^eps0 + 1))``; its exact
    hockey-stick divergence is computed (every value of C with probability above 1e-30, the rest
    counted as delta). Applies to every eps0-DP local randomizer.
``fmt22``
    The same pair with the stronger clone probability ``C ~ Bin(n - 1, 2/(e^eps0 + 1))`` of [FMT22]
    (valid, after that paper's errata, for a restricted class of randomizers). For binary randomized
    response -- each coordinate of symmetric RAPPOR -- it is proven directly: a user with bit b
    reports b with probability 1 - 2p and a fair coin with probability 2p (p = 1/(e^eps0 + 1)), so
    revealing which users sent coins leaves exactly this pair, whatever the other users' data.
``exact-rr``
    The exact privacy curve of the sum of n binary randomized responses (the quantity one
    coordinate of the symmetric-RAPPOR histogram releases), for a given composition of the other
    users' bits (``ones`` of the n - 1 others hold a 1; default 0, as in MJTB+22 App. C.1.3):

    - replacement neighbours: the target's bit is 0 in one dataset and 1 in the other;
    - deletion neighbours: the target is present (with bit 0 or 1, the worse is taken) or absent.

    :func:`rr_sum_worst_delta` maximises over all compositions (O(n^2); n <= 3000). Over the
    compositions the maximum of the hockey-stick divergence is *not* always at ``ones = 0``
    (e.g. n = 60, eps0 = 2, eps = 0.3 peaks at ``ones = 2``), so a number from ``ones = 0`` alone
    is the exact curve of that dataset, not a worst-case guarantee; the ``fmt22`` pair above is the
    proven worst-case bound for the same mechanism.

The symmetric-RAPPOR histogram (one-hot input, two coordinates change under replacement) composes
two such coordinates: :func:`rappor_histogram_delta` (exact product curve, ``ones = 0``) and
:func:`rappor_histogram_rdp_epsilon` (the route of MJTB+22 Theorem C.3: ``2 rho_2RR(n, alpha,
eps0)`` in Renyi DP, converted by SA2 Theorem 1 and minimised over alpha), which is how the DP
draft's Table 1 was computed. :func:`rr_clone_rdp` gives the proven worst-case Renyi bound from the
fmt22 pair.

Arithmetic: binary64 (numpy/scipy), probabilities from log-PMFs; hockey-stick sums add only
positive terms, so their absolute error is below 1e-14 (tests compare with mpmath at small n).
Epsilons are the upper end of a bisection bracket of relative width ``EPS_TOL``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import mpmath
import numpy as np
from numpy.typing import NDArray

from dpspec.spec.accounting.definitions import DEFAULT_ORDERS
from dpspec.spec.accounting.numeric import (
    DPS,
    Real,
    golden_section,
    mpf,
    positive,
    positive_int,
    probability,
)
from dpspec.spec.lazy import lazy_module

special = lazy_module("scipy.special")  # scipy is imported on first use only
stats = lazy_module("scipy.stats")

#: relative width of the final bisection bracket on epsilon
EPS_TOL = 1e-10
#: probability mass of C below which values of C are not enumerated (it is added to delta)
CLONE_TAIL = 1e-30
#: binary64 limits of the fast path (shuffle_mp has none)
MAX_BINARY64_EPS0 = 30.0
MIN_BINARY64_DELTA = 1e-25
#: windows of C with more atoms than this are summed by recurrence (:func:`_clone_delta_recurrence`)
RECURRENCE_ATOMS = 20_000
#: largest n of the binary64 exact summed-RR curve (it tabulates n + 1 atoms several times)
MAX_EXACT_RR_N = 10_000_000
#: largest n for the exhaustive worst case over compositions
WORST_CASE_MAX_N = 3000
#: largest |eps| and eps0 of the binary64 curves: e^700 ~ 1e304 still fits in a double, e^710
#: does not (beyond, e^eps times a zero mass would be nan)
EXP_MAX = 700.0

Array = NDArray[np.float64]
BOUNDS = ("closed", "fmt20", "fmt22", "exact-rr")


@dataclass(frozen=True)
class ShuffleResult:
    """An aggregate (eps, delta) bound and how it was obtained."""

    eps: float
    delta: float
    bound: str  # the bound that produced eps (after any fallback)
    requested: str
    valid: bool  # False when the requested bound did not apply (see note)
    note: str = ""
    extra: dict[str, float] = field(default_factory=dict)


def _check(eps0: Real, n: int, delta: Real) -> tuple[float, int, float]:
    e0 = float(positive(eps0, "eps0"))
    n = positive_int(n, "n", 2)
    d = float(probability(delta, "delta"))
    return e0, n, d


def _curve_eps(eps: Real) -> float:
    """The eps at which a binary64 curve is evaluated: at most EXP_MAX in absolute value, so that
    e^eps is a finite double (a larger eps would turn the hockey-stick sum into nan)."""
    e = float(mpf(eps, "eps"))
    if not -EXP_MAX <= e <= EXP_MAX:
        raise ValueError(f"eps must be within [-{EXP_MAX:g}, {EXP_MAX:g}] for the binary64 curves")
    return e


def _bisect_eps(delta_of: object, target: float, hi: float) -> float:
    """Smallest eps in [0, hi] with delta_of(eps) <= target (delta_of non-increasing), to relative
    width ``EPS_TOL``; infinity when even ``hi`` misses the target (never a number that does not
    hold). The returned eps always satisfies the target as evaluated.

    Regula falsi (Illinois variant) on ``log delta``, which is nearly linear in eps, probing
    ``EPS_TOL/4`` either side of each estimate so that the bracket closes as soon as an estimate
    is that close; a bisection step whenever two steps fail to halve the bracket. About 6-10
    evaluations instead of the 35 of a bisection, which matters when one evaluation sums 10^6
    binomial CDFs (n = 10^9).
    """
    assert callable(delta_of)
    if delta_of(0.0) <= target:
        return 0.0
    d_hi = delta_of(hi)
    if d_hi > target:
        return math.inf
    log_t = math.log(target)

    def f(x_delta: float) -> float:
        return (math.log(x_delta) if x_delta > 0 else -1000.0) - log_t

    lo = 0.0
    f_lo, f_hi = f(delta_of(lo)), f(d_hi)
    side = 0
    widths = [hi - lo]
    for _ in range(200):
        tol = EPS_TOL * max(hi, 1e-3)
        if hi - lo <= tol:
            break
        if len(widths) >= 3 and widths[-1] > widths[-3] / 2:
            probes = [(lo + hi) / 2]
        else:
            x = hi - f_hi * (hi - lo) / (f_hi - f_lo) if f_hi != f_lo else (lo + hi) / 2
            x = min(max(x, lo + tol / 4), hi - tol / 4)
            probes = [x - tol / 4, x + tol / 4]
        for y in probes:
            if not lo < y < hi:
                continue
            fy = f(delta_of(y))
            if fy > 0:
                lo, f_lo = y, fy
                if side == -1:
                    f_hi /= 2
                side = -1
            else:
                hi, f_hi = y, fy
                if side == 1:
                    f_lo /= 2
                side = 1
                break
        widths.append(hi - lo)
    return hi


# -- MJTB+22 Theorem 3.1 --------------------------------------------------------------------
def closed_form_condition(eps0: Real, n: int, delta: Real) -> tuple[bool, float]:
    """``(eps0 <= log(n / (8 log(2/delta)) - 1), right-hand side)``; the side is -inf if undefined."""
    with mpmath.workdps(DPS):
        e0 = positive(eps0, "eps0")
        n = positive_int(n, "n", 2)
        d = probability(delta, "delta")
        inner = mpmath.mpf(n) / (8 * mpmath.log(2 / d)) - 1
        if inner <= 0:
            return False, float("-inf")
        limit = mpmath.log(inner)
        return bool(e0 <= limit), float(limit)


def closed_form_value(eps0: Real, n: int, delta: Real) -> float:
    """The right-hand side of MJTB+22 eq. (1), regardless of validity (for display only)."""
    with mpmath.workdps(DPS):
        e0 = positive(eps0, "eps0")
        n = positive_int(n, "n", 2)
        d = probability(delta, "delta")
        term = (4 * mpmath.sqrt(2 * mpmath.log(4 / d)) / mpmath.sqrt((mpmath.exp(e0) + 1) * n)
                + mpmath.mpf(4) / n)
        val = mpmath.log1p(mpmath.expm1(e0) * term)
        # round up to binary64 so the float is never below the exact value
        f = float(val)
        return f if f >= val else math.nextafter(f, math.inf)


def closed_form(eps0: Real, n: int, delta: Real) -> ShuffleResult:
    """MJTB+22 Theorem 3.1 with its condition enforced; falls back to ``fmt20`` outside it."""
    ok, limit = closed_form_condition(eps0, n, delta)
    e0, n, d = _check(eps0, n, delta)
    if ok:
        return ShuffleResult(min(closed_form_value(e0, n, d), e0), d, "closed", "closed", True,
                             "MJTB+22 Theorem 3.1", {"eps0_limit": limit})
    fb = clone_epsilon(e0, n, d, "fmt20")
    note = (f"MJTB+22 Theorem 3.1 does not apply: it needs eps0 <= log(n/(8 log(2/delta)) - 1) = "
            f"{limit:.6g}, but eps0 = {e0:.6g}; fell back to the fmt20 numerical bound")
    return ShuffleResult(fb.eps, d, "fmt20", "closed", False, note,
                         {"eps0_limit": limit, "formula_outside_validity":
                          closed_form_value(e0, n, d)})


# -- clone reductions [FMT20], [FMT22] ---------------------------------------------------------
def clone_probability(eps0: float, variant: str) -> float:
    if variant == "fmt20":
        return math.exp(-eps0)
    if variant == "fmt22":
        return 2.0 / (math.exp(eps0) + 1.0)
    raise ValueError(f"unknown clone variant {variant!r} (fmt20 or fmt22)")


def _clone_support(n: int, pc: float) -> tuple[NDArray[np.int64], Array, float]:
    # (scipy's binom.isf is unreliable this far out, so bracket by hand and check the tails)
    mean, sd = (n - 1) * pc, math.sqrt((n - 1) * pc * (1 - pc))
    width = 13.0 * sd + 10.0
    while True:
        lo, hi = max(int(mean - width), 0), min(int(mean + width) + 1, n - 1)
        below = float(stats.binom.cdf(lo - 1, n - 1, pc)) if lo > 0 else 0.0
        above = float(stats.binom.sf(hi, n - 1, pc)) if hi < n - 1 else 0.0
        if below <= CLONE_TAIL and above <= CLONE_TAIL:
            break
        width *= 1.5
    c = np.arange(lo, hi + 1, dtype=np.int64)
    if len(c) > RECURRENCE_ATOMS:
        # scipy's logpmf subtracts log-gammas of size n log n: about 1e-6 relative at n = 10^9;
        # its pmf (the saddle-point form) stays at 1e-14 there
        w = stats.binom.pmf(c, n - 1, pc)
    else:
        w = np.exp(stats.binom.logpmf(c, n - 1, pc))
    lost = below + above
    return c, w, lost


def clone_delta(eps: float, eps0: float, n: int, variant: str = "fmt22") -> float:
    """delta(eps) of the clone pair (both directions are equal by the symmetry a -> c + 1 - a)."""
    pc = clone_probability(eps0, variant)
    c, w, lost = _clone_support(n, pc)
    return _clone_delta_on(eps, eps0, c, w, lost)


def _clone_delta_on(eps: float, eps0: float, c: NDArray[np.int64], w: Array, lost: float) -> float:
    if eps >= eps0:
        # each conditional pair (P_c, Q_c) mixes two shifted fair-coin counts with weights alpha
        # and 1 - alpha, so its likelihood ratio is at most alpha / (1 - alpha) = e^eps0 <= e^eps:
        # no divergence, in the enumerated window and in the uncounted tail alike
        return 0.0
    alpha = math.exp(eps0) / (math.exp(eps0) + 1.0)
    beta = 1.0 / (math.exp(eps0) + 1.0)  # 1 - alpha, without the cancellation (alpha is 1.0 from eps0 ~ 37)
    ee = math.exp(eps)
    num = alpha - ee * beta
    if num <= 0:  # eps just below eps0, lost to rounding: only the uncounted tail is charged
        return min(lost, 1.0)
    thr = num / (ee * alpha - beta)
    if len(c) > RECURRENCE_ATOMS:
        return _clone_delta_recurrence(ee, alpha, beta, thr / (1 + thr), c, w, lost)
    # P_c(a)/Q_c(a) > e^eps  <=>  a/(c + 1 - a) < thr  <=>  a < thr (c + 1) / (1 + thr)
    amax = np.ceil(thr * (c + 1) / (1 + thr)) - 1
    f0 = stats.binom.cdf(amax - 1, c, 0.5)
    with np.errstate(divide="ignore"):
        f1 = f0 + np.exp(stats.binom.logpmf(amax, c, 0.5))  # one CDF per atom, not two
    pc_ = alpha * f1 + beta * f0
    qc_ = beta * f1 + alpha * f0
    terms = np.maximum(pc_ - ee * qc_, 0.0)
    return float(min(np.dot(w, terms) + lost, 1.0))


def _clone_delta_recurrence(ee: float, alpha: float, beta: float, share: float,
                            c: NDArray[np.int64], w: Array, lost: float) -> float:
    """:func:`_clone_delta_on` for a large window (n around 10^8 and more), where one binomial
    CDF per atom costs seconds: with ``m_c`` the largest integer below ``share (c + 1)``, the
    divergence given ``C = c`` is ``(e^eps alpha - (1 - alpha)) B_c(m_c) - (e^eps - 1) F_c(m_c)``
    (B, F: PMF and CDF of Bin(c, 1/2)), and B, F move from c to c + 1 by exact ratios (adding a
    fair coin), so one PMF and one CDF from scipy start two cumulative sums (the recurrence of
    :class:`dpspec.spec.accounting.shuffle_mp.CloneCurve`, in binary64: a search aid)."""
    cf = c.astype(np.float64)
    m = np.maximum(np.ceil(share * (cf + 1)) - 1, 0.0)
    a, c1 = m[:-1], cf[1:]
    step = m[1:] - a  # 0 or 1 (share < 1/2)
    dlog = np.log(c1) - np.log(2 * (c1 - a)) + step * (np.log(c1 - a) - np.log(a + 1))
    pmf0 = float(stats.binom.pmf(m[0], c[0], 0.5))  # (logpmf is the less accurate)
    logb0 = math.log(pmf0) if pmf0 > 1e-300 else float(stats.binom.logpmf(m[0], c[0], 0.5))
    logb = logb0 + np.concatenate([[0.0], np.cumsum(dlog)])
    b = np.exp(logb)
    f = float(stats.binom.cdf(m[0], c[0], 0.5)) + np.concatenate(
        [[0.0], np.cumsum(step * b[1:] - b[:-1] / 2)])
    terms = np.maximum((ee * alpha - beta) * b - (ee - 1) * f, 0.0)
    return float(min(np.dot(w, terms) + lost, 1.0))


def clone_epsilon(eps0: Real, n: int, delta: Real, variant: str = "fmt22") -> ShuffleResult:
    """Smallest eps with clone_delta(eps) <= delta; capped at eps0 (the local guarantee: every
    eps0-DP local randomizer makes the shuffled output (eps0, 0)-DP, so the answer is never
    larger, even where binary64 cannot resolve the pair)."""
    e0, n, d = _check(eps0, n, delta)
    if e0 > MAX_BINARY64_EPS0:
        raise ValueError(f"eps0 above {MAX_BINARY64_EPS0} overflows binary64; use "
                         "dpspec.spec.accounting.shuffle_mp")
    if d < MIN_BINARY64_DELTA:
        raise ValueError(f"delta below {MIN_BINARY64_DELTA:g} is out of binary64's reach; use "
                         "dpspec.spec.accounting.shuffle_mp")
    pc = clone_probability(e0, variant)
    c, w, lost = _clone_support(n, pc)
    eps = min(_bisect_eps(lambda x: _clone_delta_on(x, e0, c, w, lost), d, e0), e0)
    note = {"fmt20": "[FMT20] clone reduction, numerical (all eps0-DP local randomizers)",
            "fmt22": "[FMT22] stronger clone reduction, numerical (binary RR / errata class)"}[variant]
    return ShuffleResult(eps, d, variant, variant, True, note)


def _clone_rdp_tables(eps0: float, n: int) -> tuple[Array, Array, NDArray[np.int64], Array, float]:
    """Log-PMFs of every conditional pair (P_c, Q_c) of the fmt22 pair, flattened."""
    pc = clone_probability(eps0, "fmt22")
    c, _, lost = _clone_support(n, pc)
    logw = stats.binom.logpmf(c, n - 1, pc)
    # log alpha and log(1 - alpha) from eps0 directly: log1p(-alpha) loses digits as alpha nears 1
    # (three at eps0 = 30, all of them from eps0 ~ 37)
    log_al = -math.log1p(math.exp(-eps0))
    log_be = log_al - eps0
    sizes = c + 2
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    cc = np.repeat(c, sizes)
    k = np.arange(int(sizes.sum()), dtype=np.int64) - np.repeat(starts, sizes)
    with np.errstate(divide="ignore"):
        lb = stats.binom.logpmf(k, cc, 0.5)
        lbm1 = stats.binom.logpmf(k - 1, cc, 0.5)
    lp = np.logaddexp(log_al + lb, log_be + lbm1)
    lq = np.logaddexp(log_be + lb, log_al + lbm1)
    return lp, lq, starts, logw, lost


def _clone_rdp_from_tables(a: float, eps0: float,
                           tables: tuple[Array, Array, NDArray[np.int64], Array, float]) -> float:
    lp, lq, starts, logw, lost = tables
    x = a * lp + (1 - a) * lq
    m = np.maximum.reduceat(x, starts)
    inner = m + np.log(np.add.reduceat(np.exp(x - np.repeat(m, np.diff(np.append(starts, len(x))))),
                                       starts))  # (a - 1) D_a(P_c || Q_c) for each c
    logs = logw + inner
    if lost > 0:
        # values of C not enumerated: each conditional pair is eps0-DP, so D_alpha <= eps0 there
        logs = np.append(logs, math.log(lost) + (a - 1) * eps0)
    total = float(special.logsumexp(logs))
    return max(total / (a - 1), 0.0)


def rr_clone_rdp(alpha: Real, eps0: Real, n: int) -> float:
    """Renyi divergence of order alpha of the fmt22 pair: a proven worst-case (over the other
    users' data) Renyi bound for the sum of n binary randomized responses, replacement neighbours.

    ``D_alpha(P||Q) = log(sum_c w_c exp((alpha - 1) D_alpha(P_c||Q_c))) / (alpha - 1)`` (C is
    revealed and equally distributed under P and Q); symmetric in P and Q. The cost grows like
    ``n * 2/(e^eps0 + 1)`` times the spread of C; meant for the tables (n up to about 10^5).
    """
    a = float(mpf(alpha, "alpha"))
    if not a > 1:
        raise ValueError("alpha must be > 1")
    e0 = float(positive(eps0, "eps0"))
    n = positive_int(n, "n", 2)
    return _clone_rdp_from_tables(a, e0, _clone_rdp_tables(e0, n))


# -- summed binary randomized response --------------------------------------------------------
def _flip_probability(eps0: float) -> float:
    return 1.0 / (math.exp(eps0) + 1.0)


def _binom_pmf(m: int, p: float) -> Array:
    out: Array = np.exp(stats.binom.logpmf(np.arange(m + 1), m, p))
    return out


def _others(n: int, p: float, ones: int) -> Array:
    """PMF of the sum of the n - 1 other users' reports: ``ones`` report Bern(1-p), the rest Bern(p)."""
    zeros = n - 1 - ones
    base = _binom_pmf(zeros, p)
    if ones == 0:
        return base
    if ones == n - 1:
        return _binom_pmf(ones, 1 - p)
    return np.convolve(base, _binom_pmf(ones, 1 - p))


def rr_sum_pairs(eps0: Real, n: int, neighbours: str = "replacement", ones: int = 0
                 ) -> list[tuple[Array, Array]]:
    """The neighbouring output distributions (aligned on 0..n) of the sum of n binary RRs.

    replacement: ``[(target bit 1, target bit 0)]``; deletion: ``[(present with bit b, absent)
    for b in (0, 1)]``. Each user reports its bit flipped with probability 1/(e^eps0 + 1).
    """
    e0 = float(positive(eps0, "eps0"))
    n = positive_int(n, "n", 1)
    if n > MAX_EXACT_RR_N:
        raise ValueError(f"the binary64 exact curve is limited to n <= {MAX_EXACT_RR_N}")
    if e0 > EXP_MAX:
        raise ValueError(f"eps0 above {EXP_MAX:g} overflows binary64")
    ones = positive_int(ones, "ones", 0)
    if ones > n - 1:
        raise ValueError("ones must be <= n - 1")
    p = _flip_probability(e0)
    others = _others(n, p, ones) if n > 1 else np.ones(1)
    with_one = np.convolve(others, [p, 1 - p])
    with_zero = np.convolve(others, [1 - p, p])
    if neighbours == "replacement":
        return [(with_one, with_zero)]
    if neighbours == "deletion":
        absent = np.append(others, 0.0)
        return [(with_zero, absent), (with_one, absent)]
    raise ValueError("neighbours must be 'replacement' or 'deletion'")


def _hs(p: Array, q: Array, ee: float) -> float:
    return float(np.sum(np.maximum(p - ee * q, 0.0)))


def _pairs_delta(pairs: list[tuple[Array, Array]], eps: float) -> float:
    ee = math.exp(eps)
    return max(max(_hs(a, b, ee), _hs(b, a, ee)) for a, b in pairs)


def rr_sum_delta(eps: Real, eps0: Real, n: int, neighbours: str = "replacement", ones: int = 0
                 ) -> float:
    """Exact delta(eps) (both directions) of the sum of n binary RRs for one dataset composition."""
    return _pairs_delta(rr_sum_pairs(eps0, n, neighbours, ones), _curve_eps(eps))


def rr_sum_epsilon(eps0: Real, n: int, delta: Real, neighbours: str = "replacement",
                   ones: int = 0) -> ShuffleResult:
    """Smallest eps with :func:`rr_sum_delta` <= delta (upper end of the bisection bracket)."""
    e0, n, d = _check(eps0, n, delta)
    pairs = rr_sum_pairs(e0, n, neighbours, ones)
    # replacement: the local guarantee eps0 bounds eps (delta(eps0) = 0). deletion: the output n
    # has no mass when the target is absent, so delta >= P[all n report 1] for every eps; search
    # up to a generous bound (at most EXP_MAX) and report infinity if delta is still missed there.
    hi = e0 if neighbours == "replacement" else min(4 * e0 + 50.0, EXP_MAX)
    eps = _bisect_eps(lambda x: _pairs_delta(pairs, x), d, hi)
    return ShuffleResult(eps, d, "exact-rr", "exact-rr", True,
                         f"exact curve of the sum of {n} binary RRs, {neighbours} neighbours, "
                         f"for the dataset where {ones} of the other users hold a 1 (not a "
                         "worst case over datasets: see fmt22 or --worst-case)")


def rr_sum_worst_delta(eps: Real, eps0: Real, n: int, neighbours: str = "replacement"
                       ) -> tuple[float, int]:
    """``(max over compositions of delta(eps), maximising number of ones)``; n <= 3000.

    Under replacement, ``ones`` and ``n - 1 - ones`` give the same delta (flip every bit and
    mirror the sum), so only ``ones <= (n - 1) / 2`` are evaluated and the maximiser reported is
    the smaller of its mirror pair: which of two equal binary64 sums comes out larger would
    otherwise decide it. Under deletion every composition is evaluated.
    """
    n = positive_int(n, "n", 1)
    if n > WORST_CASE_MAX_N:
        raise ValueError(f"the exhaustive worst case is limited to n <= {WORST_CASE_MAX_N}")
    e = _curve_eps(eps)
    best, arg = -1.0, 0
    for ones in range((n - 1) // 2 + 1 if neighbours == "replacement" else n):
        d = _pairs_delta(rr_sum_pairs(eps0, n, neighbours, ones), e)
        if d > best:
            best, arg = d, ones
    return best, arg


def rr_sum_worst_epsilon(eps0: Real, n: int, delta: Real, neighbours: str = "replacement"
                         ) -> ShuffleResult:
    """Smallest eps such that every composition gives delta(eps) <= delta (n <= 3000)."""
    e0, n, d = _check(eps0, n, delta)
    if n > WORST_CASE_MAX_N:
        raise ValueError(f"the exhaustive worst case is limited to n <= {WORST_CASE_MAX_N}")
    all_pairs = [rr_sum_pairs(e0, n, neighbours, k) for k in range(n)]
    hi = e0 if neighbours == "replacement" else min(4 * e0 + 50.0, EXP_MAX)
    eps = _bisect_eps(lambda x: max(_pairs_delta(pp, x) for pp in all_pairs), d, hi)
    return ShuffleResult(eps, d, "exact-rr", "exact-rr", True,
                         f"exact worst case over all compositions of the other users' bits, "
                         f"{neighbours} neighbours")


# -- Renyi curves of summed RR and the symmetric-RAPPOR histogram ----------------------------
def _log_replacement_pair(eps0: float, n: int, ones: int) -> tuple[Array, Array]:
    """``(log P, log Q)`` of the replacement pair (target bit 1 vs 0), on 0..n, no underflow for
    ``ones`` in {0, n - 1} (log-PMFs throughout); other compositions go through the linear PMFs.

    Both PMFs are positive on all of 0..n (0 < p < 1), so a 0 in the linear PMFs is an underflow
    (from about n = 300 at eps0 = 5, n = 100 at eps0 = 20, with ``ones`` near n / 2): that is
    refused (ArithmeticError) rather than read as a support mismatch, which would make the
    divergence infinite."""
    p = _flip_probability(eps0)
    if ones in (0, n - 1):
        q_one = p if ones == 0 else 1 - p  # the others' common report probability of a 1
        k = np.arange(n + 1)
        with np.errstate(divide="ignore"):
            ln = stats.binom.logpmf(k, n - 1, q_one)
            ln_m1 = stats.binom.logpmf(k - 1, n - 1, q_one)
        lp = np.logaddexp(ln_m1 + math.log1p(-p), ln + math.log(p))
        lq = np.logaddexp(ln_m1 + math.log(p), ln + math.log1p(-p))
        return lp, lq
    (a, b), = rr_sum_pairs(eps0, n, "replacement", ones)
    if not np.all(np.minimum(a, b) > 0):
        raise ArithmeticError(f"the PMFs of the composition ones = {ones} underflow in binary64 "
                              f"(n = {n}, eps0 = {eps0:g}): no exact Renyi divergence")
    return np.log(a), np.log(b)


def _renyi_log(lp: Array, lq: Array, alpha: float) -> float:
    """``D_alpha(P||Q)`` from log-PMFs; infinite if P has mass where Q has none."""
    mask = np.isfinite(lp)
    if not np.all(np.isfinite(lq[mask])):
        return math.inf
    return float(special.logsumexp(alpha * lp[mask] + (1 - alpha) * lq[mask])) / (alpha - 1)


def rr_sum_rdp(alpha: Real, eps0: Real, n: int, ones: int = 0) -> float:
    """``max(D_alpha(P||Q), D_alpha(Q||P))`` for the sum of n binary RRs (replacement, one
    composition of the others' bits): ``rho_2RR(n, alpha, eps0)`` of MJTB+22 App. C.1.3.
    """
    a = float(mpf(alpha, "alpha"))
    if not a > 1:
        raise ValueError("alpha must be > 1")
    e0 = float(positive(eps0, "eps0"))
    n = positive_int(n, "n", 2)
    ones = positive_int(ones, "ones", 0)
    if ones > n - 1:
        raise ValueError("ones must be <= n - 1")
    lp, lq = _log_replacement_pair(e0, n, ones)
    return max(_renyi_log(lp, lq, a), _renyi_log(lq, lp, a))


def _min_over_alpha(rdp_of: object, delta: float) -> tuple[float, float]:
    """Minimise the SA2 Theorem 1 conversion over the default orders, then refine locally."""
    assert callable(rdp_of)
    ld = math.log(1 / delta)

    def conv(a: float) -> float:
        r = rdp_of(a)
        return float(r + (ld + (a - 1) * math.log1p(-1 / a) - math.log(a)) / (a - 1))

    orders = [float(mpf(o)) for o in DEFAULT_ORDERS]
    vals = [conv(a) for a in orders]
    i = int(np.argmin(vals))
    lo = orders[max(i - 1, 0)]
    hi = orders[min(i + 1, len(orders) - 1)]
    best_a, best = orders[i], vals[i]
    # golden-section refinement inside the bracket (any alpha gives a valid bound)
    s = golden_section(conv, lo, hi, phi=(math.sqrt(5) - 1) / 2, iterations=40)
    for a, v in ((s.x1, s.f1), (s.x2, s.f2)):
        if v < best:
            best, best_a = v, a
    return max(best, 0.0), best_a


def rappor_histogram_rdp_epsilon(eps0: Real, n: int, delta: Real, *, worst_case: bool = False
                                 ) -> ShuffleResult:
    """eps of the symmetric-RAPPOR histogram by the route of MJTB+22 Theorem C.3.

    Renyi DP ``2 rho(alpha)`` (two coordinates change), converted with SA2 Theorem 1 and minimised
    over alpha. ``worst_case=False``: ``rho = rho_2RR`` for the composition ``ones = 0`` (the
    exact Renyi divergence of that dataset, both directions; MJTB+22's computation).
    ``worst_case=True``: ``rho`` from :func:`rr_clone_rdp`, proven for every dataset.
    """
    e0, n, d = _check(eps0, n, delta)
    if worst_case:
        tables = _clone_rdp_tables(e0, n)
        eps, a = _min_over_alpha(lambda x: 2 * _clone_rdp_from_tables(x, e0, tables), d)
        note = "2 x Renyi of the fmt22 clone pair (proven for all datasets), SA2 Thm 1 conversion"
    else:
        lp, lq = _log_replacement_pair(e0, n, 0)
        eps, a = _min_over_alpha(lambda x: 2 * max(_renyi_log(lp, lq, x), _renyi_log(lq, lp, x)), d)
        note = ("2 x rho_2RR(n, alpha, eps0) for the composition ones = 0 (MJTB+22 Thm C.3), "
                "SA2 Thm 1 conversion")
    return ShuffleResult(min(eps, 2 * e0), d, "rdp", "rdp", True, note, {"alpha": a})


def _product_delta(p1: Array, q1: Array, p2: Array, q2: Array, eps: float) -> float:
    """``D_{e^eps}(P1 x P2 || Q1 x Q2)`` by sorting the second privacy loss (O(m log m))."""
    m1 = (p1 > 0) | (q1 > 0)
    m2 = (p2 > 0) | (q2 > 0)
    p1, q1, p2, q2 = p1[m1], q1[m1], p2[m2], q2[m2]
    with np.errstate(divide="ignore"):
        l1 = np.log(p1) - np.log(q1)
        l2 = np.log(p2) - np.log(q2)
    order = np.argsort(l2, kind="stable")
    l2s, p2s, q2s = l2[order], p2[order], q2[order]
    # suffix sums: S[t] = sum_{j >= t} (sorted)
    sp = np.concatenate([np.cumsum(p2s[::-1])[::-1], [0.0]])
    sq = np.concatenate([np.cumsum(q2s[::-1])[::-1], [0.0]])
    ee = math.exp(eps)
    # need l1 + l2 > eps  <=>  l2 > eps - l1
    t = np.searchsorted(l2s, eps - l1, side="right")
    terms = p1 * sp[t] - ee * q1 * sq[t]
    return float(np.sum(np.maximum(terms, 0.0)))


def rappor_histogram_delta(eps: Real, eps0: Real, n: int) -> float:
    """Exact delta(eps) of the symmetric-RAPPOR histogram for one-hot replacement, ``ones = 0``.

    The user moves from bucket i to bucket j: coordinate i sees (bit 1 vs 0), coordinate j (0 vs
    1), independently; the pair is ``(P x Q, Q x P)`` with ``(P, Q)`` the replacement pair of one
    coordinate, and both directions coincide.
    """
    (p, q), = rr_sum_pairs(eps0, n, "replacement", 0)
    return _product_delta(p, q, q, p, _curve_eps(eps))


def rappor_histogram_epsilon(eps0: Real, n: int, delta: Real) -> ShuffleResult:
    """Smallest eps with :func:`rappor_histogram_delta` <= delta."""
    e0, n, d = _check(eps0, n, delta)
    (p, q), = rr_sum_pairs(e0, n, "replacement", 0)
    eps = _bisect_eps(lambda x: _product_delta(p, q, q, p, x), d, 2 * e0)
    return ShuffleResult(eps, d, "exact-rr", "exact-rr", True,
                         "exact curve of the symmetric-RAPPOR histogram (two coordinates), "
                         "ones = 0 in both")


def shuffle_epsilon(eps0: Real, n: int, delta: Real, bound: str = "fmt22") -> ShuffleResult:
    """Dispatch on the bound name of the CLI (``closed``, ``fmt20``, ``fmt22``, ``exact-rr``)."""
    if bound == "closed":
        return closed_form(eps0, n, delta)
    if bound in ("fmt20", "fmt22"):
        return clone_epsilon(eps0, n, delta, bound)
    if bound == "exact-rr":
        return rr_sum_epsilon(eps0, n, delta)
    raise ValueError(f"unknown bound {bound!r}; one of {', '.join(BOUNDS)}")


# -- a proven worst-case curve for the symmetric-RAPPOR histogram -----------------------------
def _clone_loss_atoms(eps0: float, n: int) -> tuple[Array, Array, float]:
    """Privacy-loss atoms ``(L, P-probability)`` of the fmt22 pair of one coordinate, with C
    revealed: every (c, a) with its loss ``log P(c, a) / Q(c, a)``. Atoms of probability below
    1e-40 are dropped; their total P-mass, and the mass of C not enumerated, is returned and
    counted in full as delta by the callers (an upper bound on what they could contribute)."""
    lp, lq, starts, logw, lost = _clone_rdp_tables(eps0, n)
    sizes = np.diff(np.append(starts, len(lp)))
    lw = np.repeat(logw, sizes)
    with np.errstate(invalid="ignore"):
        logprob = lw + lp
    keep = np.isfinite(lp) & np.isfinite(lq) & (logprob > math.log(1e-40))
    dropped = float(np.sum(np.exp(logprob[~keep & np.isfinite(logprob)])))
    return (lp - lq)[keep], np.exp(logprob[keep]), lost + dropped


class _LossTable:
    """One privacy-loss distribution prepared for fast ``E[(1 - e^{eps - L1 - L2})_+]`` sums."""

    def __init__(self, loss: Array, prob: Array) -> None:
        order = np.argsort(loss, kind="stable")
        self.loss = loss[order]
        p = prob[order]
        q = p * np.exp(-self.loss)
        self.sp = np.concatenate([np.cumsum(p[::-1])[::-1], [0.0]])
        self.sq = np.concatenate([np.cumsum(q[::-1])[::-1], [0.0]])

    def product_delta(self, l1: Array, p1: Array, eps: float) -> float:
        t = np.searchsorted(self.loss, eps - l1, side="right")
        terms = p1 * (self.sp[t] - math.exp(eps) * np.exp(-l1) * self.sq[t])
        return float(np.sum(np.maximum(terms, 0.0)))


def rappor_histogram_clone_delta(eps: Real, eps0: Real, n: int) -> float:
    """Proven delta(eps) of the symmetric-RAPPOR histogram for *every* dataset (replacement).

    Each coordinate's noise decomposes as in the fmt22 pair (every other user's bit is a fair
    coin with probability 2/(e^eps0 + 1), independently per coordinate); revealing the coins of
    both changed coordinates leaves the product of two such pairs, the second reversed, which by
    the symmetry ``a -> c + 1 - a`` has the same privacy-loss distribution. delta is computed
    from the two loss distributions exactly (sorted suffix sums), plus the unenumerated mass.
    """
    e = _curve_eps(eps)
    e0 = float(positive(eps0, "eps0"))
    n = positive_int(n, "n", 2)
    loss, prob, lost = _clone_loss_atoms(e0, n)
    return min(_LossTable(loss, prob).product_delta(loss, prob, e) + 2 * lost, 1.0)


def rappor_histogram_clone_epsilon(eps0: Real, n: int, delta: Real) -> ShuffleResult:
    """Smallest eps with :func:`rappor_histogram_clone_delta` <= delta (proven for all datasets)."""
    e0, n, d = _check(eps0, n, delta)
    loss, prob, lost = _clone_loss_atoms(e0, n)
    table = _LossTable(loss, prob)
    eps = _bisect_eps(lambda x: table.product_delta(loss, prob, x) + 2 * lost, d, 2 * e0)
    return ShuffleResult(eps, d, "fmt22", "fmt22", True,
                         "symmetric-RAPPOR histogram, product of two fmt22 clone pairs "
                         "(proven for every dataset)")
