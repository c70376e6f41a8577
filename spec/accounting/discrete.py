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

Calibration bisects sigma to 1e-14 relative and rounds up to ``digits`` significant digits, then
re-checks the rounded sigma. delta(eps) of the discrete Gaussian is not proven monotone in sigma
in [CKS20]; the bisection therefore re-evaluates the published sigma exactly (it must meet the
target) and the tests check monotonicity on grids. zCDP: ``||v||^2 / (2 sigma^2)`` ([CKS20]
Theorem 14, multivariate).

Discrete Laplace with scale t: ``P[y] ∝ exp(-|y| / t)``; adding it to a function of L1 sensitivity
``S1`` is ``(S1 / t)``-DP (pure; [CKS20] sec. 2.2 / [GRS12]).
"""

from __future__ import annotations

from collections.abc import Sequence

import mpmath

from spec.accounting.gaussian import Calibration, calibrate_gaussian_sigma
from spec.accounting.numeric import (
    Real,
    mpf,
    non_negative,
    positive,
    probability,
    round_up,
)

#: working precision of the discrete Gaussian computations (decimal digits)
DPS_DISCRETE = 30


def _table(sigma: mpmath.mpf) -> tuple[int, list[mpmath.mpf]]:
    """``(K, pmf)`` with ``pmf[y + K] = P[Y = y]`` for ``|y| <= K``; neglected mass < 1e-35."""
    s2 = sigma * sigma
    # exp(-y^2/(2 s2)) < 10^-(DPS+8) for y > K; the neglected tail is below that times a geometric
    # factor (< 1 + s2) and the normaliser is >= 1, so the lost mass is < 10^-(DPS+5).
    k = int(mpmath.ceil(mpmath.sqrt(2 * s2 * (DPS_DISCRETE + 8) * mpmath.log(10)
                                    + 2 * s2 * mpmath.log(1 + s2)))) + 1
    w = [mpmath.exp(-mpmath.mpf(y * y) / (2 * s2)) for y in range(0, k + 1)]
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
    offset = 0
    probs = [mpmath.mpf(1)]
    for c in v:
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
    total = mpmath.mpf(0)
    n = len(pmf)
    for i, p in enumerate(probs):
        if p == 0:
            continue
        s = i - offset
        # need c * y > threshold - s, i.e. y >= floor((threshold - s) / c) + 1
        y_min = int(mpmath.floor((threshold - s) / c)) + 1
        idx = y_min + k
        if idx <= 0:
            total += p * tail[0]
        elif idx < n:
            total += p * tail[idx]
    return total


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
        lo, hi = cont / 2, cont * 2
        while discrete_gaussian_delta(e, hi, v) > dl:
            hi *= 2
        while lo > mpmath.mpf("1e-3") and discrete_gaussian_delta(e, lo, v) <= dl:
            lo /= 2
        tol = mpmath.mpf(10) ** -(digits + 2)
        while hi - lo > tol * hi:
            mid = (lo + hi) / 2
            if discrete_gaussian_delta(e, mid, v) <= dl:
                hi = mid
            else:
                lo = mid
        published = round_up(hi, digits)
        at = discrete_gaussian_delta(e, mpf(published), v)
        if at > dl:  # pragma: no cover - guards against non-monotone behaviour
            raise ArithmeticError("rounded discrete Gaussian sigma fails the target")
        return Calibration(published, hi, at, digits,
                           "discrete Gaussian, exact privacy loss distribution [CKS20] Thm 7, "
                           "bisection")


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
