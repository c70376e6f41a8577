"""Discrete Gaussian and discrete Laplace mechanisms: exact privacy (Canonne, Kamath, Steinke 2020).

Discrete Gaussian ``N_Z(0, sigma^2)``: ``P[y] ∝ exp(-y^2 / (2 sigma^2))`` on the integers ([CKS20]
Definition 1; ``sigma`` is the *parameter*, whose square is the variance up to a relative
difference below 1e-10 once sigma >= 2). The mechanism adds independent ``N_Z(0, sigma^2)`` noise to
each coordinate of an integer vector; neighbouring inputs differ by an integer vector ``v`` (for the
one-hot histogram of sec. 6.1.2 of the DP draft, ``v = (1, -1)``, L2 sensitivity sqrt(2)).

Exact privacy curve (the multivariate form of [CKS20] Theorem 7). With ``S = sum_i v_i Y_i`` for
independent ``Y_i ~ N_Z(0, sigma^2)``, the privacy loss of output x is
``(2 <v, x> - ||v||^2) / (2 sigma^2)``, so::

    delta(eps) = P[S > sigma^2 eps - ||v||^2/2] - e^eps P[S > sigma^2 eps + ||v||^2/2]

in both directions (the noise is symmetric). The distribution of S is computed exactly: the PMF of
``N_Z(0, sigma^2)`` is tabulated at 30 digits on ``|y| <= K`` with ``K`` chosen so that the
neglected mass is below 10^-35; the partial sum over all coordinates but the last is convolved
exactly, and the last coordinate enters through its tail sums. Not the continuous formula: for
small sigma the two differ (the point of [CKS20] Theorem 7 and of the KT note in sec. 6.1.2).

Calibration bisects sigma to 1e-(digits+2) relative and rounds up to ``digits`` significant digits,
then re-checks the rounded sigma. delta(eps) of the discrete Gaussian is *not* monotone in sigma
(e.g. eps = 1, v = (1,): delta rises from 0.1905 at sigma = 0.715 to 0.1923 at 0.755; it happens
for larger eps at larger sigma too), so a bisection alone could return a sigma some larger values of
which fail the target again. After bisecting, the calibration therefore evaluates delta at
``SCAN_POINTS`` points between sigma and 2 sigma; if any fails, it restarts above the last failing
point. The published sigma meets the target exactly, and so does every scanned larger sigma; a
failure between scan points is not excluded by a proof. zCDP: ``||v||^2 / (2 sigma^2)`` ([CKS20]
Theorem 14, multivariate).

Discrete Laplace with scale t: ``P[y] ∝ exp(-|y| / t)``; adding it to a function of L1 sensitivity
``S1`` is ``(S1 / t)``-DP (pure; [CKS20] sec. 2.2 / [GRS12]).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

import mpmath

from dpspec.spec.accounting.gaussian import Calibration, calibrate_gaussian_sigma
from dpspec.spec.accounting.numeric import (
    MAX_DIGITS,
    Real,
    non_negative,
    positive,
    positive_int,
    probability,
    round_up,
    smallest_int,
    to_fraction,
)

#: working precision of the discrete Gaussian computations (decimal digits)
DPS_DISCRETE = 30
#: points of the safety scan above a calibrated sigma (sigma (1 + j/SCAN_POINTS), j = 1..)
SCAN_POINTS = 32
#: rounds of bracket and safety scan the calibration makes before it gives up
SCAN_ROUNDS = 8


#: first truncation target (mass of one coordinate's noise outside the table); refined from the
#: computed delta until the truncation and rounding allowance is below 1e-20 of delta
FIRST_TAIL = mpmath.mpf(10) ** -45
#: largest amount of work (table entries times partial-sum entries) one delta evaluation may take;
#: beyond it the computation is refused with a reason instead of running for minutes
MAX_WORK = 4_000_000


def _exact_square(sigma: Real | mpmath.mpf) -> Fraction:
    """sigma^2 as an exact rational (``"sqrt(R)"`` gives R, an mpf its exact binary value squared).

    The thresholds of the privacy loss are compared with integers, so they must be exact: at
    sigma = sqrt(1/2), eps = 1, v = (1) the threshold sigma^2 eps - |v|^2/2 is exactly 0.
    """
    if isinstance(sigma, str):
        text = sigma.strip().replace(" ", "")
        if text.startswith("sqrt(") and text.endswith(")"):
            r = to_fraction(text[5:-1], "sigma")
            if r <= 0:
                raise ValueError("sigma must be > 0")
            return r
    f = to_fraction(sigma, "sigma")
    if f <= 0:
        raise ValueError("sigma must be > 0")
    return f * f


def _tail_sum_bound(k: int, s2: mpmath.mpf) -> mpmath.mpf:
    """An upper bound on ``sum_{y > K} exp(-y^2 / (2 s2))``: the terms' ratio
    ``exp(-(2y + 1)/(2 s2))`` decreases in y, so the sum is at most a geometric series."""
    first = mpmath.exp(-mpmath.mpf(k + 1) ** 2 / (2 * s2))
    return first / -mpmath.expm1(-mpmath.mpf(2 * k + 3) / (2 * s2))


def _table_size(s2: mpmath.mpf, tail: mpmath.mpf) -> int:
    """The smallest K whose neglected two-sided mass bound is below ``tail`` (the bound decreases
    in K; the Gaussian tail estimate is the first probe)."""
    def ok(k: int) -> bool:
        return bool(2 * _tail_sum_bound(k, s2) <= tail)

    guess = max(int(mpmath.ceil(mpmath.sqrt(2 * s2 * mpmath.log(max(2 / tail, 1))))), 1)
    return smallest_int(ok, 0, first=guess)


def _table(sigma: mpmath.mpf, tail: mpmath.mpf
           ) -> tuple[int, list[mpmath.mpf], mpmath.mpf, mpmath.mpf]:
    """``(K, w, tau, z)``: ``w[y + K] = exp(-y^2/(2 sigma^2))`` on ``|y| <= K`` (so ``w / z`` is
    the PMF of N_Z(0, sigma^2) renormalised there) and ``tau >=`` the true mass outside (at most
    ``tail``; the normaliser is >= 1)."""
    s2 = sigma * sigma
    k = _table_size(s2, tail)
    tau = 2 * _tail_sum_bound(k, s2)
    # w(y) = exp(-y^2 / (2 s2)) by w(y + 1) = w(y) exp(-(2y + 1) / (2 s2)): two products per term
    ratio_step = mpmath.exp(-1 / s2)
    g = mpmath.exp(-1 / (2 * s2))
    w = [mpmath.mpf(1)]
    for _ in range(k):
        w.append(w[-1] * g)
        g *= ratio_step
    z = w[0] + 2 * mpmath.fsum(w[1:])
    # unnormalised weights: the callers divide their few results by z^d instead of every entry
    return k, w[:0:-1] + w, tau, z


def _vector(v: Sequence[int]) -> list[int]:
    out = []
    for x in v:
        if isinstance(x, bool) or not isinstance(x, int):
            raise TypeError("the sensitivity vector must hold integers")
        if x != 0:
            out.append(abs(x))
    if not out:
        raise ValueError("the sensitivity vector must have a non-zero entry")
    if len(out) > 64 or max(out) > 10**6:
        raise ValueError("the sensitivity vector may have at most 64 non-zero entries of "
                         "absolute value at most 10^6")
    return sorted(out)


def work_estimate(sigma: Real | mpmath.mpf, sensitivity: Sequence[int],
                  tail: Real | mpmath.mpf = FIRST_TAIL) -> int:
    """Table entries times partial-sum entries of one delta evaluation (see :data:`MAX_WORK`)
    whose tables leave out at most ``tail`` (> 0) of each coordinate's noise."""
    v = _vector(sensitivity)
    with mpmath.workdps(DPS_DISCRETE + 10):
        s = positive(sigma, "sigma")
        k = _table_size(s * s, positive(tail, "tail"))
    table = 2 * k + 1
    work, width = table, 1
    for c in v[:-1]:
        work += width * table
        width += 2 * c * k
    return work + width


def _check_work(sigma: mpmath.mpf, v: list[int], tail: mpmath.mpf, limit: int = MAX_WORK) -> None:
    work = work_estimate(sigma, v, tail)
    if work > limit:
        raise ValueError(
            f"the exact discrete Gaussian computation for difference vector {v} at sigma "
            f"{mpmath.nstr(sigma, 6)} needs about {work:.2g} table operations (limit "
            f"{limit}): use fewer or smaller coordinates, or a larger delta")


def _sum_distribution(v: list[int], k: int, pmf: list[mpmath.mpf]) -> tuple[int, list[mpmath.mpf]]:
    """Exact PMF of ``sum_i v_i Y_i`` as ``(offset, probs)`` with ``probs[s + offset]``."""
    if not v:
        return 0, [mpmath.mpf(1)]
    c0 = v[0]
    offset = c0 * k
    probs = [mpmath.mpf(0)] * (2 * c0 * k + 1)
    for j, q in enumerate(pmf):
        probs[c0 * j] = q
    for c in v[1:]:
        new_offset = offset + c * k
        out = [mpmath.mpf(0)] * (len(probs) + 2 * c * k)
        for i, p in enumerate(probs):
            if p == 0:
                continue
            base = i  # value i - offset; shifted by c*y for y in [-k, k]
            for j, q in enumerate(pmf):
                out[base + c * j] += p * q
        offset, probs = new_offset, out
    return offset, probs


def _tail_table(pmf: list[mpmath.mpf]) -> list[mpmath.mpf]:
    """``tail[i] = sum_{j >= i} pmf[j]`` (summed from the small end for accuracy)."""
    tail = [mpmath.mpf(0)] * (len(pmf) + 1)
    acc = mpmath.mpf(0)
    for i in range(len(pmf) - 1, -1, -1):
        acc += pmf[i]
        tail[i] = acc
    return tail


def _prob_greater(threshold: Fraction, v: list[int], k: int, pmf: list[mpmath.mpf],
                  tail: list[mpmath.mpf], partial: tuple[int, list[mpmath.mpf]]) -> mpmath.mpf:
    """``P[sum_i v_i Y_i > threshold]``, the last coordinate through its tail sums."""
    c = v[-1]
    offset, probs = partial
    n = len(pmf)
    # floor((t - s) / c) = floor((floor(t) - s) / c) for integers s and c > 0: integer arithmetic
    ft = threshold.numerator // threshold.denominator
    ps: list[mpmath.mpf] = []
    ts: list[mpmath.mpf] = []
    for i, p in enumerate(probs):
        if p == 0:
            continue
        idx = (ft - (i - offset)) // c + 1 + k  # y >= (ft - s) // c + 1, shifted by k
        if idx < n:
            ps.append(p)
            ts.append(tail[max(idx, 0)])
    return mpmath.fdot(ps, ts) if ps else mpmath.mpf(0)


def _delta_once(e: mpmath.mpf, ef: Fraction, s: mpmath.mpf, s2f: Fraction, v: list[int],
                tail_target: mpmath.mpf) -> tuple[mpmath.mpf, mpmath.mpf]:
    """``(computed, allowance)``: delta from the truncated tables and a bound on what the
    truncation and the rounding can have changed (delta <= computed + allowance)."""
    _check_work(s, v, tail_target)
    k, pmf, tau, z = _table(s, tail_target)
    tail = _tail_table(pmf)
    partial = _sum_distribution(v[:-1], k, pmf)
    norm2 = sum(c * c for c in v)
    a = s2f * ef - Fraction(norm2, 2)
    b = s2f * ef + Fraction(norm2, 2)
    d = len(v)
    scale = z**d
    pa = _prob_greater(a, v, k, pmf, tail, partial) / scale
    pb = mpmath.exp(e) * _prob_greater(b, v, k, pmf, tail, partial) / scale
    # P[S > a] <= P'_a + d tau and P[S > b] >= P'_b (1 - d tau), P' from the renormalised tables;
    # the rounding of the working precision is charged at 10^-(working digits - 5) of both terms
    allowance = d * tau * (1 + pb) + (pa + pb) * mpmath.mpf(10) ** -(DPS_DISCRETE + 5)
    return pa - pb, allowance


def discrete_gaussian_delta(eps: Real | mpmath.mpf, sigma: Real | mpmath.mpf,
                            sensitivity: Sequence[int] = (1,), *,
                            tail: mpmath.mpf | None = None) -> mpmath.mpf:
    """delta(eps) of the discrete Gaussian mechanism for integer difference vector ``v``: an upper
    bound within 1e-20 relative of the exact value, at every delta (no cut-off).

    The noise tables are truncated where the neglected mass is below ``FIRST_TAIL``, and refined
    (the neglected mass squared, or 1e-25 of the computed delta) until the bound on what the
    truncation can hide is below 1e-20 of delta; that bound is added. The thresholds
    ``sigma^2 eps -+ |v|^2/2`` are exact rationals. ``tail``: the first truncation target (a
    calibration passes 1e-25 of its target delta, which saves the refinement passes).
    """
    v = _vector(sensitivity)
    s2f = _exact_square(sigma)
    with mpmath.workdps(DPS_DISCRETE + 10):
        e = non_negative(eps, "eps")
        ef = to_fraction(eps, "eps")
        s = mpmath.sqrt(mpmath.mpf(s2f.numerator) / s2f.denominator)
        target = min(FIRST_TAIL, positive(tail, "tail")) if tail is not None else FIRST_TAIL
        for _ in range(64):
            d, allowance = _delta_once(e, ef, s, s2f, v, target)
            d = max(d, mpmath.mpf(0))
            if allowance <= d * mpmath.mpf(10) ** -20:
                return d + allowance
            target = min(target * target, d * mpmath.mpf(10) ** -25) if d > 0 else target * target
        raise ArithmeticError("the discrete Gaussian delta did not converge")  # pragma: no cover


def _bracket(f: object, lo: mpmath.mpf, hi: mpmath.mpf, tol: mpmath.mpf
             ) -> tuple[mpmath.mpf, mpmath.mpf]:
    """Shrink ``[lo, hi]`` with ``f(lo) > 0 >= f(hi)`` to relative width ``tol``.

    Regula falsi (Illinois variant) that probes ``tol/4`` either side of each estimate, so the
    bracket closes as soon as an estimate is that close; a bisection step is taken whenever two
    steps fail to halve the bracket. Only the sign of f decides, so the result is a true bracket.
    """
    assert callable(f)
    flo, fhi = f(lo), f(hi)
    last_side = 0
    widths = [hi - lo]
    for _ in range(400):
        if hi - lo <= tol * hi:
            break
        if len(widths) >= 3 and widths[-1] > widths[-3] / 2:
            x = (lo + hi) / 2
            w = mpmath.mpf(0)
        else:
            x = hi - fhi * (hi - lo) / (fhi - flo)
            w = tol * hi / 4
            x = min(max(x, lo + w), hi - w)
        for y in ((x - w, x + w) if w > 0 else (x,)):
            if not lo < y < hi:
                continue
            fy = f(y)
            if fy > 0:
                lo, flo = y, fy
                if last_side == -1:
                    fhi /= 2  # Illinois: the other end has been kept twice
                last_side = -1
            else:
                hi, fhi = y, fy
                if last_side == 1:
                    flo /= 2
                last_side = 1
                break
        widths.append(hi - lo)
    return lo, hi


def _calibration_search(delta_at: Callable[[mpmath.mpf | str], mpmath.mpf], target: mpmath.mpf,
                        start: mpmath.mpf, digits: int) -> tuple[str, mpmath.mpf, mpmath.mpf]:
    """``(published, hi, delta_at(published))``: the calibration's search for the smallest x with
    ``delta_at(x) <= target``, which need not be monotone in x.

    Start from ``[0.999 start, 1.001 start]``, widened (hi doubled while it fails, lo halved while
    it passes and lo > 1e-3); then, for at most :data:`SCAN_ROUNDS` rounds, :func:`_bracket` on
    ``log delta_at - log target`` to relative width ``10^-(digits + 2)`` and a scan of
    ``hi (1 + j/SCAN_POINTS)``, j = 1..SCAN_POINTS: if a scan point fails, the next round starts
    from ``[the last failing point, twice it]`` (the upper end doubled while it fails). The
    published x is hi rounded up to ``digits`` significant digits (a decimal string, which
    ``delta_at`` takes exactly) and must meet the target too.
    ArithmeticError when the rounds do not settle or the published x fails.
    """
    lo, hi = start * (1 - mpmath.mpf("1e-3")), start * (1 + mpmath.mpf("1e-3"))
    while delta_at(hi) > target:
        lo, hi = hi, hi * 2
    while lo > mpmath.mpf("1e-3") and delta_at(lo) <= target:
        hi, lo = lo, lo / 2
    tol = mpmath.mpf(10) ** -(digits + 2)

    def f(x: mpmath.mpf) -> mpmath.mpf:
        return mpmath.log(max(delta_at(x), mpmath.mpf(10) ** -100000)) - mpmath.log(target)

    for _ in range(SCAN_ROUNDS):
        lo, hi = _bracket(f, lo, hi, tol)
        # delta is not monotone in sigma: make sure no larger sigma on the scan grid fails
        grid = [hi * (1 + mpmath.mpf(j) / SCAN_POINTS) for j in range(1, SCAN_POINTS + 1)]
        bad = [g for g in grid if delta_at(g) > target]
        if not bad:
            break
        lo = bad[-1]
        hi = lo * 2
        while delta_at(hi) > target:
            hi *= 2
    else:
        raise ArithmeticError(f"no x found that is safe on the scan grid in {SCAN_ROUNDS} rounds")
    published = round_up(hi, digits)
    at = delta_at(published)
    if at > target:
        raise ArithmeticError("the rounded-up x fails the target although the bracket's x meets it")
    return published, hi, at


def discrete_gaussian_zcdp(sigma: Real | mpmath.mpf, sensitivity: Sequence[int] = (1,)) -> mpmath.mpf:
    """``||v||^2 / (2 sigma^2)``-zCDP ([CKS20] Theorems 4 and 14)."""
    v = _vector(sensitivity)
    with mpmath.workdps(DPS_DISCRETE + 10):
        s = positive(sigma, "sigma")
        return mpmath.mpf(sum(c * c for c in v)) / (2 * s * s)


def calibrate_discrete_gaussian_sigma(eps: Real, delta: Real, sensitivity: Sequence[int] = (1,),
                                      digits: int = 12, *, max_work: int = MAX_WORK
                                      ) -> Calibration:
    """The smallest sigma (to ``digits`` significant digits, rounded up) such that the discrete
    Gaussian mechanism with difference vector ``v`` is (eps, delta)-DP, by exact computation.

    Refused up front (ValueError with the reason) when one evaluation of delta would exceed
    ``max_work`` table operations (at most :data:`MAX_WORK`, the default) at twice the continuous
    calibration's sigma; the evaluations themselves are held to :data:`MAX_WORK`.
    """
    if not 10 <= digits <= MAX_DIGITS:
        raise ValueError(f"digits must be between 10 and {MAX_DIGITS}")
    if positive_int(max_work, "max_work") > MAX_WORK:
        raise ValueError(f"max_work must be at most {MAX_WORK}")
    v = _vector(sensitivity)
    with mpmath.workdps(DPS_DISCRETE + 10):
        e = positive(eps, "eps")
        dl = probability(delta, "delta")
        ef = to_fraction(eps, "eps")
        norm = mpmath.sqrt(sum(c * c for c in v))
        cont = calibrate_gaussian_sigma(e, dl, norm, digits=12).exact
        # the tables reach about sqrt(2 log(1/delta)) sigma: refuse what would take minutes
        _check_work(cont * 2, v, min(FIRST_TAIL, dl * mpmath.mpf(10) ** -25), max_work)

        hint = dl * mpmath.mpf(10) ** -25

        def delta_at(x: mpmath.mpf | str) -> mpmath.mpf:
            return discrete_gaussian_delta(ef, x, v, tail=hint)

        published, hi, at = _calibration_search(delta_at, dl, cont, digits)
        return Calibration(published, hi, at, digits,
                           "discrete Gaussian, exact privacy loss distribution [CKS20] Thm 7 "
                           "with rigorous tail bounds, bisection, re-checked on "
                           f"{SCAN_POINTS} points up to twice sigma")


def discrete_laplace_epsilon(scale: Real, l1_sensitivity: int = 1) -> mpmath.mpf:
    """Pure epsilon ``S1 / t`` of the discrete Laplace mechanism with scale ``t``."""
    with mpmath.workdps(DPS_DISCRETE + 10):
        t = positive(scale, "scale")
        if isinstance(l1_sensitivity, bool) or not isinstance(l1_sensitivity, int):
            raise TypeError("l1_sensitivity must be an integer")
        if l1_sensitivity < 0:
            raise ValueError("l1_sensitivity must be >= 0")
        return mpmath.mpf(l1_sensitivity) / t


def discrete_laplace_scale(eps: Real, l1_sensitivity: int = 1) -> mpmath.mpf:
    """The scale ``t = S1 / eps`` that makes the discrete Laplace mechanism eps-DP."""
    with mpmath.workdps(DPS_DISCRETE + 10):
        return mpmath.mpf(l1_sensitivity) / positive(eps, "eps")


__all__ = [
    "DPS_DISCRETE",
    "calibrate_discrete_gaussian_sigma",
    "discrete_gaussian_delta",
    "discrete_gaussian_zcdp",
    "discrete_laplace_epsilon",
    "discrete_laplace_scale",
]
