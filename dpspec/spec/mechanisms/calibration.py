"""Noise parameters from privacy targets, through ``dpspec.spec.accounting``; results are exact rationals.

Calibration is analysis, not sampling: it may use mpmath (``dpspec.spec.accounting`` states its
precision). What leaves this module is an exact rational that is on the safe side of the
computed optimum (more noise, never less), so that the sampler it feeds stays exact:

* :func:`discrete_gaussian_sigma2` -- ``sigma`` of the discrete Gaussian for ``(eps, delta)`` and
  a difference vector, from the exact privacy curve ([CKS20] Theorem 7), as published by
  ``dpspec.spec.accounting`` (rounded up to 12 significant digits and re-checked there); returned as the
  exact square of that decimal.
* :func:`zcdp_rho_for_approx_dp` -- the largest ``rho`` (rounded down to 12 significant digits)
  with ``zcdp_to_dp_epsilon(rho, delta) <= eps`` ([CKS20] Corollary 13), by bisection.
* :func:`rappor_aggregate_epsilon` -- the aggregate ``(EPSILON, DELTA)`` of ``n`` honest Clients'
  symmetric RAPPOR histograms (OAMC), two ways: MJTB+22 Theorem C.3 (the route of Table 1 of the
  DP draft, exact Renyi divergence of the dataset with no other 1s) and the proven worst case
  over all datasets (the fmt22 clone pair), both from ``dpspec.spec.accounting.shuffle`` (binary64).
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import ROUND_CEILING, Decimal
from fractions import Fraction

import mpmath

from dpspec.spec.accounting.definitions import zcdp_to_dp_epsilon
from dpspec.spec.accounting.discrete import calibrate_discrete_gaussian_sigma
from dpspec.spec.accounting.shuffle import rappor_histogram_rdp_epsilon
from dpspec.spec.rational import format_rational, parse_rational

CALIBRATION_DIGITS = 12


def discrete_gaussian_sigma2(eps: Fraction, delta: Fraction, difference: Sequence[int]) -> Fraction:
    """``sigma^2`` (exact) of the discrete Gaussian mechanism for ``(eps, delta)``-DP."""
    cal = calibrate_discrete_gaussian_sigma(format_rational(eps), format_rational(delta),
                                            list(difference), digits=CALIBRATION_DIGITS)
    sigma = parse_rational(cal.sigma, "sigma")
    return sigma * sigma


def _round_down_sig(x: mpmath.mpf, digits: int) -> Fraction:
    """``x > 0`` rounded down to ``digits`` significant decimal digits, as an exact rational."""
    e = int(mpmath.floor(mpmath.log10(x))) - digits + 1
    scale = Fraction(10) ** e
    m = int(mpmath.floor(x / (mpmath.mpf(10) ** e)))
    return m * scale


def zcdp_rho_for_approx_dp(eps: Fraction, delta: Fraction) -> Fraction:
    """The largest ``rho`` (12 significant digits, rounded down) with ``rho``-zCDP => ``(eps, delta)``."""
    if eps <= 0 or not 0 < delta < 1:
        raise ValueError("need eps > 0 and 0 < delta < 1")
    d = format_rational(delta)
    with mpmath.workdps(40):
        target = mpmath.mpf(eps.numerator) / eps.denominator
        lo, hi = mpmath.mpf(0), mpmath.mpf(1)
        while zcdp_to_dp_epsilon(hi, d) <= target:
            hi *= 2
        while True:  # halving from [0, hi]: ends once lo > 0 and the bracket is relatively narrow
            mid = (lo + hi) / 2
            if zcdp_to_dp_epsilon(mid, d) <= target:
                lo = mid
            else:
                hi = mid
            if hi - lo < hi * mpmath.mpf(10) ** -(CALIBRATION_DIGITS + 4):
                break
        rho = _round_down_sig(lo, CALIBRATION_DIGITS)
        if zcdp_to_dp_epsilon(format_rational(rho), d) > target:  # pragma: no cover
            raise ArithmeticError("zcdp calibration: rounded rho misses the target")
        return rho


def rappor_aggregate_epsilon(eps0: Fraction, n: int, delta: Fraction) -> dict[str, str]:
    """EPSILON at ``delta`` for the symmetric-RAPPOR histogram over ``n`` honest Clients (6 digits,
    rounded up): ``mjtb_theorem_c3`` (how Table 1 of the DP draft was computed) and
    ``proven_worst_case`` (valid for every dataset)."""
    e, d = format_rational(eps0), format_rational(delta)
    out = {}
    for key, worst in (("mjtb_theorem_c3", False), ("proven_worst_case", True)):
        res = rappor_histogram_rdp_epsilon(e, n, d, worst_case=worst)
        out[key] = _round_up_sig(float(res.eps), 6)
    return out


def _round_up_sig(x: float, digits: int) -> str:
    """``x > 0`` rounded up to ``digits`` significant digits, as a decimal string."""
    d = Decimal(repr(x))
    return str(d.quantize(Decimal(1).scaleb(d.adjusted() - digits + 1), rounding=ROUND_CEILING))
