"""The Gaussian mechanism: exact delta(eps) and calibration (Balle & Wang 2018, [BW18]).

The mechanism releases ``f(X) + N(0, sigma^2 I)``; ``sensitivity`` is the L2 sensitivity of f.
Theorem 8 of [BW18] gives its exact privacy curve (both hockey-stick directions are equal)::

    delta(eps) = Phi(S/(2 sigma) - eps sigma/S) - e^eps Phi(-S/(2 sigma) - eps sigma/S)

Algorithm 1 of [BW18] (the analytic Gaussian mechanism) calibrates sigma from it. Here the
calibration bisects on sigma directly (delta is strictly decreasing in sigma) in mpmath at 40 digits
and returns sigma rounded *up* to the requested number of significant digits (at least 10), after
checking ``delta(rounded sigma) <= delta`` at full precision: the published sigma is never below the
exact one. This is the calculation of sec. 6.1.2 of the DP draft (its Table 2), done exactly.

Also: the classical bound sigma = S sqrt(2 ln(1.25/delta)) / eps ([DR14] Theorem A.1, eps < 1,
quoted in SA2 Examples 1, 3 and 5), and the Renyi/zCDP curves (alpha S^2/(2 sigma^2), S^2/(2 sigma^2)).
"""

from __future__ import annotations

from dataclasses import dataclass

import mpmath

from dpspec.spec.accounting.numeric import (
    DPS,
    MAX_DIGITS,
    Real,
    bisect_increasing,
    mpf,
    non_negative,
    positive,
    probability,
    round_up,
)


def _ncdf(x: mpmath.mpf) -> mpmath.mpf:
    # Phi(x) = erfc(-x / sqrt 2) / 2, accurate in both tails.
    return mpmath.erfc(-x / mpmath.sqrt(2)) / 2


#: largest epsilon the Gaussian functions accept (beyond it e^eps and the normal tails leave the
#: range the special functions evaluate reliably; no application needs it)
MAX_EPS = 10**6
#: beyond this many standard deviations a normal tail is replaced by its Mills-ratio bound
FAR = 10**6


def _eps(x: Real | mpmath.mpf, *, strict: bool) -> mpmath.mpf:
    e = positive(x, "eps") if strict else non_negative(x, "eps")
    if e > MAX_EPS:
        raise ValueError(f"eps above {MAX_EPS} is outside the supported range")
    return e


def gaussian_delta(eps: Real | mpmath.mpf, sigma: Real | mpmath.mpf,
                   sensitivity: Real | mpmath.mpf = 1) -> mpmath.mpf:
    """Exact delta(eps) of the Gaussian mechanism ([BW18] Theorem 8), at 40 digits.

    When ``S/(2 sigma) - eps sigma/S`` is beyond :data:`FAR` in magnitude (extreme sigma), the
    upper bounds ``Phi(x) <= phi(x)/|x|`` (x < 0) and delta <= 1 are returned instead.
    """
    with mpmath.workdps(DPS):
        e = _eps(eps, strict=False)
        s = positive(sigma, "sigma")
        d = positive(sensitivity, "sensitivity")
        a = d / (2 * s)
        b = e * s / d
        if a - b < -FAR:
            x = a - b
            return mpmath.exp(-x * x / 2) / (-x * mpmath.sqrt(2 * mpmath.pi))
        if a - b > FAR:
            return mpmath.mpf(1)
        return max(_ncdf(a - b) - mpmath.exp(e) * _ncdf(-a - b), mpmath.mpf(0))


def gaussian_epsilon(delta: Real | mpmath.mpf, sigma: Real | mpmath.mpf,
                     sensitivity: Real | mpmath.mpf = 1) -> mpmath.mpf:
    """The smallest eps with ``gaussian_delta(eps) <= delta`` (bisection to 30 digits)."""
    with mpmath.workdps(DPS):
        dl = probability(delta, "delta")
        if gaussian_delta(0, sigma, sensitivity) <= dl:
            return mpmath.mpf(0)
        hi = mpmath.mpf(1)
        while gaussian_delta(hi, sigma, sensitivity) > dl:
            hi *= 2
        # delta(eps) is decreasing, so -delta is increasing
        a, b = bisect_increasing(lambda x: -gaussian_delta(x, sigma, sensitivity), mpmath.mpf(0),
                                 hi, -dl, mpmath.mpf(10) ** -30)
        return b


@dataclass(frozen=True)
class Calibration:
    """A calibrated noise scale.

    ``sigma``: the published value, a decimal string rounded up to ``digits`` significant digits;
    ``exact``: the bisection's upper end at 40 digits (within 1e-30 relative of the true minimum);
    ``delta_at_sigma``: delta(eps) at the published sigma (<= the target).
    """

    sigma: str
    exact: mpmath.mpf
    delta_at_sigma: mpmath.mpf
    digits: int
    method: str


def calibrate_gaussian_sigma(eps: Real, delta: Real, sensitivity: Real = 1,
                             digits: int = 12) -> Calibration:
    """The smallest sigma making the Gaussian mechanism (eps, delta)-DP ([BW18] Algorithm 1).

    Bisection on sigma of :func:`gaussian_delta` until the bracket is below 1e-30 relative, then
    rounded up to ``digits`` (>= 10) significant digits.
    """
    if not 10 <= digits <= MAX_DIGITS:
        raise ValueError(f"digits must be between 10 and {MAX_DIGITS}")
    with mpmath.workdps(DPS):
        e = _eps(eps, strict=True)
        dl = probability(delta, "delta")
        sens = positive(sensitivity, "sensitivity")
        lo = mpmath.mpf(10) ** -6 * sens
        hi = sens
        while gaussian_delta(e, hi, sens) > dl:
            hi *= 2
        while gaussian_delta(e, lo, sens) <= dl:  # pragma: no cover - only for huge eps
            lo /= 2
        # delta(sigma) is decreasing in sigma: find the smallest sigma with delta <= target.
        _, b = bisect_increasing(lambda s: -gaussian_delta(e, s, sens), lo, hi, -dl,
                                 mpmath.mpf(10) ** -30)
        published = round_up(b, digits)
        at = gaussian_delta(e, mpf(published), sens)
        if at > dl:  # pragma: no cover - cannot happen: rounding up only adds noise
            raise ArithmeticError("rounded sigma fails the target; increase DPS")
        return Calibration(published, b, at, digits, "analytic Gaussian [BW18] Thm 8, bisection")


def classical_gaussian_sigma(eps: Real, delta: Real, sensitivity: Real = 1) -> mpmath.mpf:
    """``S sqrt(2 ln(1.25/delta)) / eps`` ([DR14] Theorem A.1; proven for eps < 1 only)."""
    with mpmath.workdps(DPS):
        e = positive(eps, "eps")
        dl = probability(delta, "delta")
        return positive(sensitivity, "sensitivity") * mpmath.sqrt(2 * mpmath.log(mpf("1.25") / dl)) / e


def classical_gaussian_epsilon(delta: Real, sigma: Real, sensitivity: Real = 1) -> mpmath.mpf:
    """``S sqrt(2 ln(1.25/delta)) / sigma``, the epsilon of SA2 Example 3 (valid when it is < 1)."""
    with mpmath.workdps(DPS):
        dl = probability(delta, "delta")
        return (positive(sensitivity, "sensitivity") * mpmath.sqrt(2 * mpmath.log(mpf("1.25") / dl))
                / positive(sigma, "sigma"))


def gaussian_rdp(alpha: Real | mpmath.mpf, sigma: Real | mpmath.mpf,
                 sensitivity: Real | mpmath.mpf = 1) -> mpmath.mpf:
    """``alpha S^2 / (2 sigma^2)`` ([Mir17] Proposition 7; SA2 Example 1)."""
    with mpmath.workdps(DPS):
        s = positive(sigma, "sigma")
        return mpf(alpha, "alpha") * positive(sensitivity, "sensitivity") ** 2 / (2 * s * s)


def gaussian_zcdp(sigma: Real | mpmath.mpf, sensitivity: Real | mpmath.mpf = 1) -> mpmath.mpf:
    """``S^2 / (2 sigma^2)`` ([BS16] Proposition 1.6)."""
    with mpmath.workdps(DPS):
        s = positive(sigma, "sigma")
        return positive(sensitivity, "sensitivity") ** 2 / (2 * s * s)
