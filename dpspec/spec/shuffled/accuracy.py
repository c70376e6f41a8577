"""Exact errors and expected communication of the shuffled-model mechanisms and their baselines.

All analyzers here are unbiased, so the mean squared error (MSE) is the variance of the estimate and
RMSE is its square root. MSEs are exact rationals when the parameters are rational; the functions
taking a real epsilon use mpmath at the stated ``dps``.

[GKMP20] Observation 9: the D-distributed error is ``D - E[D]``, so MSE = ``Var[D]``.
[GKMP20] Observation 16: the correlated error is ``(D1 - D2) - E[D1 - D2]``, so
MSE = ``Var[D1] + Var[D2]`` (independent of D3 and of n).
[GKMP20] Observation 10: a user of the D-distributed mechanism sends ``x + E[D]/n`` messages in
expectation, at most ``Delta + E[D]/n``.
[GKMP20] Observation 17: a user of the correlated mechanism sends
``x + (E[D1] + E[D2] + 2 E[D3]) / n`` messages in expectation, at most ``1 + (...)/n``.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath

from dpspec.spec.distributions import to_mpf
from dpspec.spec.shuffled.counting import CorrelatedMechanism, DistributedMechanism
from dpspec.spec.shuffled.divisible import Divisible, ParameterError


# -- the GKMP20 mechanisms ---------------------------------------------------------------------
def mse_distributed(noise: Divisible) -> Fraction:
    """MSE of the D-distributed mechanism: ``Var[D]`` (Observation 9)."""
    return noise.variance()


def mse_correlated(d1: Divisible, d2: Divisible) -> Fraction:
    """MSE of the correlated mechanism: ``Var[D1] + Var[D2]`` (Observation 16)."""
    return d1.variance() + d2.variance()


def mse_of(mechanism: DistributedMechanism | CorrelatedMechanism) -> Fraction:
    if isinstance(mechanism, CorrelatedMechanism):
        return mse_correlated(mechanism.d1, mechanism.d2)
    return mse_distributed(mechanism.noise)


def expected_messages_distributed(noise: Divisible, n: int, x: int | None = None,
                                  delta_sum: int = 1) -> Fraction:
    """Expected messages of one user (Observation 10): ``x + E[D]/n``; ``x = None`` gives the bound
    ``Delta + E[D]/n``."""
    return (delta_sum if x is None else x) + noise.mean() / n


def expected_messages_correlated(d1: Divisible, d2: Divisible, d3: Divisible, n: int,
                                 x: int | None = None) -> Fraction:
    """Expected messages of one user (Observation 17): ``x + (E[D1] + E[D2] + 2 E[D3]) / n``;
    ``x = None`` gives the bound with ``x = 1``."""
    return (1 if x is None else x) + (d1.mean() + d2.mean() + 2 * d3.mean()) / n


def expected_messages_of(mechanism: DistributedMechanism | CorrelatedMechanism,
                         x: int | None = None) -> Fraction:
    if isinstance(mechanism, CorrelatedMechanism):
        return expected_messages_correlated(mechanism.d1, mechanism.d2, mechanism.d3,
                                            mechanism.n, x)
    return expected_messages_distributed(mechanism.noise, mechanism.n, x, mechanism.delta_sum)


def expected_messages_histogram(bucket: DistributedMechanism | CorrelatedMechanism,
                                buckets: int) -> Fraction:
    """Expected messages of one user of the B-bucket histogram: one real message plus the noise
    messages of every bucket (exact; the same for every input)."""
    return 1 + buckets * (expected_messages_of(bucket, 0))


# -- the discrete Laplace ----------------------------------------------------------------------
def dlap_variance(a: Fraction | mpmath.mpf) -> Fraction | mpmath.mpf:
    """``Var`` of the discrete Laplace ``P[k] ∝ a^|k|``: ``2a / (1-a)^2`` (exact for rational a)."""
    return 2 * a / (1 - a) ** 2


def central_dlap_rmse(epsilon: mpmath.mpf | Fraction | int, dps: int = 30) -> mpmath.mpf:
    """RMSE of the central ``DLap(eps)`` mechanism for counting: ``sqrt(2 e^-eps) / (1 - e^-eps)``."""
    with mpmath.workdps(dps):
        eps = epsilon if isinstance(epsilon, mpmath.mpf) else to_mpf(epsilon)
        if eps <= 0:
            raise ParameterError("epsilon must be > 0")
        a = mpmath.exp(-eps)
        return mpmath.sqrt(2 * a) / (1 - a)


def dlap_decay_for_variance(variance: mpmath.mpf, dps: int = 30) -> mpmath.mpf:
    """The decay ``a`` in (0, 1) with ``2a / (1-a)^2 = variance`` (the positive root)."""
    with mpmath.workdps(dps):
        v = mpmath.mpf(variance)
        if v <= 0:
            raise ParameterError("variance must be > 0")
        # v (1-a)^2 = 2a  <=>  v a^2 - (2v + 2) a + v = 0; the root below 1:
        return ((v + 1) - mpmath.sqrt(2 * v + 1)) / v


# -- the baselines -----------------------------------------------------------------------------
def mse_randomized_response(p: Fraction, n: int) -> Fraction:
    """MSE of binary randomized response with flip probability p: ``n p (1-p) / (1-2p)^2``
    (independent of the data)."""
    return n * p * (1 - p) / (1 - 2 * p) ** 2


def mse_bary_rr(gamma: Fraction, buckets: int, n: int) -> Fraction:
    """Mean over the B buckets of the MSE of B-ary randomized response with blanket ``gamma``.

    Bucket j with true count h_j has variance ``[h_j P1 (1-P1) + (n - h_j) P0 (1-P0)] / (1-gamma)^2``
    with ``P1 = 1 - gamma + gamma/B`` and ``P0 = gamma/B``. Since ``sum h_j = n``, the mean over
    buckets depends only on n: ``[P1 (1-P1) / B + (1 - 1/B) P0 (1-P0)] n / (1-gamma)^2``.
    """
    b = Fraction(buckets)
    p1 = 1 - gamma + gamma / b
    p0 = gamma / b
    return (p1 * (1 - p1) / b + (1 - 1 / b) * p0 * (1 - p0)) * n / (1 - gamma) ** 2


def mse_bary_rr_bucket(gamma: Fraction, buckets: int, n: int, count: int) -> Fraction:
    """MSE of B-ary randomized response for one bucket whose true count is ``count``."""
    p1 = 1 - gamma + gamma / buckets
    p0 = gamma / buckets
    return (count * p1 * (1 - p1) + (n - count) * p0 * (1 - p0)) / (1 - gamma) ** 2


def mse_rappor(f: Fraction, n: int) -> Fraction:
    """MSE of each bucket of symmetric RAPPOR with flip probability f: ``n f (1-f) / (1-2f)^2``."""
    return n * f * (1 - f) / (1 - 2 * f) ** 2


def rmse(mse: Fraction | mpmath.mpf, dps: int = 30) -> mpmath.mpf:
    """``sqrt(mse)`` at ``dps`` digits."""
    with mpmath.workdps(dps):
        return mpmath.sqrt(to_mpf(mse) if isinstance(mse, Fraction | int) else mse)
