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

from collections.abc import Sequence

import mpmath

from dpspec.spec.accounting.gaussian import Calibration, calibrate_gaussian_sigma
from dpspec.spec.accounting.numeric import (
    Real,
    mpf,
    non_negative,
    positive,
    probability,
    round_up,
)

#: working precision of the discrete Gaussian computations (decimal digits)
DPS_DISCRETE = 30
#: points of the safety scan above a calibrated sigma (sigma (1 + j/SCAN_POINTS), j = 1..)
SCAN_POINTS = 32


def _table(sigma: mpmath.mpf) -> tuple[int, list[mpmath.mpf]]:
    """``(K, pmf)`` with ``pmf[y + K] = P[Y = y]`` for ``|y| <= K``; neglected mass < 1e-35."""
    s2 = sigma * sigma
    # exp(-y^2/(2 s2)) < 10^-(DPS+8) for y > K; the neglected tail is below that times a geometric
    # factor (< 1 + s2) and the normaliser is >= 1, so the lost mass is < 10^-(DPS+5).
    k = int(mpmath.ceil(mpmath.sqrt(2 * s2 * (DPS_DISCRETE + 8) * mpmath.log(10)
                                    + 2 * s2 * mpmath.log(1 + s2)))) + 1
    # w(y) = exp(-y^2 / (2 s2)) by w(y + 1) = w(y) exp(-(2y + 1) / (2 s2)): two products per term
    ratio_step = mpmath.exp(-1 / s2)
    g = mpmath.exp(-1 / (2 * s2))
    w = [mpmath.mpf(1)]
    for _ in range(k):
        w.append(w[-1] * g)
        g *= ratio_step
    z = w[0] + 2 * mpmath.fsum(w[1:])
    half = [x / z for x in w]
    return k, half[:0:-1] + half


def _vector(v: Sequence[int]) -> list[int]:
    out = []
    for x in v:
        if isinstance(x, bool) or not isinstance(x, int):
            raise TypeError("the sensitivity vector must hold integers")
        if x != 0:
            out.append(abs(x))
    if not out:
        raise ValueError("the sensitivity vector must have a non-zero entry")
    return sorted(out)


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


def _prob_greater(threshold: mpmath.mpf, v: list[int], k: int, pmf: list[mpmath.mpf],
                  tail: list[mpmath.mpf], partial: tuple[int, list[mpmath.mpf]]) -> mpmath.mpf:
    """``P[sum_i v_i Y_i > threshold]``, the last coordinate through its tail sums."""
    c = v[-1]
    offset, probs = partial
    n = len(pmf)
    # floor((t - s) / c) = floor((floor(t) - s) / c) for integers s and c > 0: integer arithmetic
    ft = int(mpmath.floor(threshold))
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


def discrete_gaussian_delta(eps: Real | mpmath.mpf, sigma: Real | mpmath.mpf,
                            sensitivity: Sequence[int] = (1,)) -> mpmath.mpf:
    """Exact delta(eps) of the discrete Gaussian mechanism for integer difference vector ``v``."""
    v = _vector(sensitivity)
    with mpmath.workdps(DPS_DISCRETE + 10):
        e = non_negative(eps, "eps")
        s = positive(sigma, "sigma")
        k, pmf = _table(s)
        tail = _tail_table(pmf)
        partial = _sum_distribution(v[:-1], k, pmf)
        norm2 = sum(c * c for c in v)
        a = s * s * e - mpmath.mpf(norm2) / 2
        b = s * s * e + mpmath.mpf(norm2) / 2
        d = (_prob_greater(a, v, k, pmf, tail, partial)
             - mpmath.exp(e) * _prob_greater(b, v, k, pmf, tail, partial))
        return max(d, mpmath.mpf(0))


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


def discrete_gaussian_zcdp(sigma: Real | mpmath.mpf, sensitivity: Sequence[int] = (1,)) -> mpmath.mpf:
    """``||v||^2 / (2 sigma^2)``-zCDP ([CKS20] Theorems 4 and 14)."""
    v = _vector(sensitivity)
    with mpmath.workdps(DPS_DISCRETE + 10):
        s = positive(sigma, "sigma")
        return mpmath.mpf(sum(c * c for c in v)) / (2 * s * s)


def calibrate_discrete_gaussian_sigma(eps: Real, delta: Real, sensitivity: Sequence[int] = (1,),
                                      digits: int = 12) -> Calibration:
    """The smallest sigma (to ``digits`` significant digits, rounded up) such that the discrete
    Gaussian mechanism with difference vector ``v`` is (eps, delta)-DP, by exact computation.
    """
    if digits < 10:
        raise ValueError("digits must be >= 10")
    v = _vector(sensitivity)
    with mpmath.workdps(DPS_DISCRETE + 10):
        e = positive(eps, "eps")
        dl = probability(delta, "delta")
        norm = mpmath.sqrt(sum(c * c for c in v))
        cont = calibrate_gaussian_sigma(e, dl, norm, digits=12).exact
        # start from a narrow bracket around the continuous sigma and widen it as needed
        lo, hi = cont * (1 - mpmath.mpf("1e-3")), cont * (1 + mpmath.mpf("1e-3"))
        while discrete_gaussian_delta(e, hi, v) > dl:
            lo, hi = hi, hi * 2
        while lo > mpmath.mpf("1e-3") and discrete_gaussian_delta(e, lo, v) <= dl:
            hi, lo = lo, lo / 2
        tol = mpmath.mpf(10) ** -(digits + 2)

        def f(x: mpmath.mpf) -> mpmath.mpf:
            d = discrete_gaussian_delta(e, x, v)
            return mpmath.log(max(d, mpmath.mpf(10) ** -1000)) - mpmath.log(dl)

        for _ in range(8):
            lo, hi = _bracket(f, lo, hi, tol)
            # delta is not monotone in sigma: make sure no larger sigma on the scan grid fails
            grid = [hi * (1 + mpmath.mpf(j) / SCAN_POINTS) for j in range(1, SCAN_POINTS + 1)]
            bad = [g for g in grid if discrete_gaussian_delta(e, g, v) > dl]
            if not bad:
                break
            lo = bad[-1]
            hi = lo * 2
            while discrete_gaussian_delta(e, hi, v) > dl:
                hi *= 2
        else:  # pragma: no cover
            raise ArithmeticError("no sigma found that is safe on the scan grid")
        published = round_up(hi, digits)
        at = discrete_gaussian_delta(e, mpf(published), v)
        if at > dl:  # pragma: no cover - guards against non-monotone behaviour
            raise ArithmeticError("rounded discrete Gaussian sigma fails the target")
        return Calibration(published, hi, at, digits,
                           "discrete Gaussian, exact privacy loss distribution [CKS20] Thm 7, "
                           f"bisection, re-checked on {SCAN_POINTS} points up to twice sigma")


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
