"""The distributed discrete Gaussian: sums of per-device discrete Gaussian noise, Poisson-sampled
and composed over rounds (the federated-learning path of [SA2] Examples 3 and 5; the approach of
Kairouz, Liu and Steinke 2021, "The distributed discrete Gaussian mechanism" [KLS21]).

Setting. In each round a device is included with probability ``q`` (Poisson sampling). An
included device contributes an integer vector ``u`` in ``Z^d`` with ``||u||^2 <= L`` (the
aggregators enforce it). The release is the sum of the included contributions plus the noise of
``n`` other devices, each ``N_Z(0, s2)`` independently per coordinate ([CKS20] Definition 1;
``s2`` is the discrete Gaussian's *parameter*). Each bound below is proven here; the statement
is :func:`subsampled_epsilon`.

**1. A sum of discrete Gaussians is pointwise close to one discrete Gaussian.** For ``A, b > 0``
and an integer ``x``, completing the square gives::

    sum_{y in Z} exp(-(x - y)^2 / (2A) - y^2 / (2b)) = exp(-x^2 / (2(A + b))) theta(b x / (A + b); v)

with ``v = A b / (A + b)`` and ``theta(t; v) = sum_{y in Z} exp(-(y - t)^2 / (2v))``. By Poisson
summation ``theta(t; v) = sqrt(2 pi v) sum_{k in Z} exp(-2 pi^2 v k^2) cos(2 pi k t)``, so
``theta(t; v) / sqrt(2 pi v)`` lies in ``[1 - eta(v), 1 + eta(v)]`` for every ``t``, where
``eta(v) = 2 sum_{k >= 1} exp(-2 pi^2 v k^2) <= 2 r / (1 - r)`` with ``r = exp(-2 pi^2 v)``.
Hence the convolution of ``N_Z(0, A)`` and ``N_Z(0, b)`` is, at every integer, within the factor
``(1 + eta) / (1 - eta)`` (either way) of ``N_Z(0, A + b)``: both are probability distributions
proportional to ``exp(-x^2 / (2(A + b)))`` times a factor in ``[1 - eta, 1 + eta]``. If the sum
``S_i`` of ``i`` devices' noise is within ``e^(+-c_i)`` of ``N_Z(0, i s2)`` pointwise, then
``S_{i+1} = S_i + X`` is within ``e^(+-c_i)`` of ``N_Z(0, i s2) * N_Z(0, s2)``, which is within
the factor above (``A = i s2``, ``b = s2``, ``v_i = i s2 / (i + 1)``) of ``N_Z(0, (i + 1) s2)``.
So ``S_n`` is within ``e^(+-c)`` of ``N_Z(0, n s2)`` in every coordinate, with::

    c = sum_{i=1}^{n-1} log((1 + eta(v_i)) / (1 - eta(v_i))) <= sum_{i=1}^{n-1} 2 eta_i / (1 - eta_i)

(:func:`sum_log_ratio`; ``[KLS21]`` prove a bound of the same kind, ``10 sum_k exp(-2 pi^2 s2
k / (k + 1))``). In ``d`` coordinates the factor is ``e^(+-d c)``, and it survives mixtures
(over the sampling and the device's own report) and composition: over ``T`` rounds the real
release's distributions ``P', Q'`` on two neighbouring inputs satisfy ``P' <= e^(T d c) P`` and
``Q' >= e^(-T d c) Q`` for the *ideal* ones (noise exactly ``N_Z(0, n s2)^d``), so::

    delta'(eps) = sum (P' - e^eps Q')_+ <= e^(T d c) delta_ideal(eps - 2 T d c).

**2. The ideal mechanism at integer Renyi orders is the continuous Gaussian's.** For an integer
shift ``u`` and integer ``k``, ``sum_y N_Z(u, S)(y)^k N_Z(0, S)(y)^(1 - k) = exp(k (k - 1)
||u||^2 / (2 S))`` exactly (completing the square leaves a sum of ``exp(-||y - (1 - k) u||^2 /
(2S))`` over ``y`` in ``Z^d``, and ``(1 - k) u`` is an integer vector, so that sum is the
normaliser). The binomial expansion of ``E_{N_0}[((1 - q) + q N_u / N_0)^alpha]`` for integer
``alpha`` (the [MTZ19] sum, :func:`dpspec.spec.accounting.subsampling.sampled_gaussian_rdp`)
therefore holds verbatim with noise multiplier ``sqrt(S / ||u||^2)``, and it grows with
``||u||``. The other direction, ``D_alpha(N_0 || (1 - q) N_0 + q N_u)``, is not larger: the
reflection ``y -> u - y`` maps ``N_0`` to ``N_u`` and the likelihood ratio ``r`` to ``1 / r``, so
both divergences are averages under ``N_0`` of ``(f(r) + r f(1 / r)) / 2`` for ``f(r) = (1 - q +
q r)^alpha`` and for ``f(r) = (1 - q + q r)^(1 - alpha)`` respectively, and the first dominates
pointwise: with ``x = q (r - 1)``, ``r >= 1`` (``r <= 1`` is symmetric), the difference is
``g(1 + x) - g(r) >= 0`` for ``g(r) = x k(x / r)``, ``k(y) = ((1 - y)^(1 - alpha) - (1 -
y)^alpha) / y``, whose power series in ``y`` has non-negative coefficients beyond the constant
(``C(alpha + m - 2, m) >= C(alpha, m)`` for ``m >= 2``), so ``k`` increases and ``g`` decreases.
The device's own report is a mixture over ``u``: Renyi moments are convex in either argument, so
the worst ``||u||^2 = L`` bounds it. The zCDP bound ``T L / (2 S)`` ([CKS20] Theorem 14) also
holds. So the moments accountant run on integer orders only
(:func:`dpspec.spec.accounting.subsampling.subsampled_gaussian_epsilon` with
:data:`INTEGER_ORDERS`) is valid for the ideal mechanism.

**3. Reports dropped by their own device.** An honest device whose noised report is over the
norm bound uploads nothing (probability at most ``p`` each). Conditioning the other devices'
noise on passing changes each round's release by at most ``n p`` in total variation, so over
``T`` rounds by ``tv = T n p``; an ``(eps, delta)`` guarantee of the unconditioned mechanism
becomes ``(eps, delta + (1 + e^eps) tv)``.

The statement: ``delta_ideal = (delta - drop) e^(-T d c)`` where ``drop = (1 + e^eps1) T n p``
is computed with ``eps1``, the epsilon at half that budget (an upper bound on the final one), and
refused if ``drop > delta / 2``; ``eps = eps_ideal + 2 T d c``, rounded up.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import mpmath

from dpspec.spec.accounting.definitions import DEFAULT_ORDERS
from dpspec.spec.accounting.numeric import Real, positive_int, to_fraction
from dpspec.spec.accounting.subsampling import subsampled_gaussian_epsilon

#: the integer orders >= 2 of DEFAULT_ORDERS: where part 2 of the module docstring holds exactly
INTEGER_ORDERS: tuple[int, ...] = tuple(int(a) for a in DEFAULT_ORDERS
                                        if not isinstance(a, str) and int(a) >= 2)
#: the first terms of the sum in :func:`sum_log_ratio` computed one by one; the rest are bounded by
#: the last of them (the terms decrease)
EXACT_TERMS = 4096
#: working precision (decimal digits) of the bounds
DPS = 40
#: relative allowance added to computed upper bounds (far above the working precision's error)
MARGIN = mpmath.mpf(10) ** -25


def _eta_bound(v: Fraction) -> mpmath.mpf:
    """An upper bound on ``eta(v) = 2 sum_{k >= 1} exp(-2 pi^2 v k^2)``: ``2 r / (1 - r)``."""
    r = mpmath.exp(-2 * mpmath.pi ** 2 * mpmath.mpf(v.numerator) / v.denominator)
    return 2 * r / (1 - r) * (1 + MARGIN)


def sum_log_ratio(sigma2: Real, n: int) -> mpmath.mpf:
    """An upper bound ``c`` on ``|log(P[S_n = x] / N_Z(0, n sigma2)(x))|`` over all integers
    ``x``, where ``S_n`` is the sum of ``n`` independent ``N_Z(0, sigma2)`` (part 1 of the module
    docstring; 0 for ``n = 1``). Raises ValueError when the bound does not apply
    (``eta(sigma2 / 2) >= 1/2``, i.e. ``sigma2`` below about 0.12)."""
    s2 = to_fraction(sigma2, "sigma2")
    if s2 <= 0:
        raise ValueError("sigma2 must be > 0")
    count = positive_int(n, "n")
    with mpmath.workdps(DPS):
        total = mpmath.mpf(0)
        first = _eta_bound(s2 / 2)
        if first >= mpmath.mpf(1) / 2:
            raise ValueError("sigma2 is too small for the sum-of-discrete-Gaussians bound "
                             "(needs eta(sigma2 / 2) < 1/2)")
        last = mpmath.mpf(0)
        for i in range(1, min(count - 1, EXACT_TERMS) + 1):
            eta = _eta_bound(s2 * i / (i + 1))
            last = 2 * eta / (1 - eta)
            total += last
        if count - 1 > EXACT_TERMS:
            total += (count - 1 - EXACT_TERMS) * last
        return total * (1 + MARGIN)


@dataclass(frozen=True)
class DistributedBound:
    """``(epsilon, delta)`` of :func:`subsampled_epsilon` and its parts."""

    epsilon: mpmath.mpf
    delta: mpmath.mpf
    ideal_epsilon: mpmath.mpf  # the moments accountant's, integer orders
    ideal_delta: mpmath.mpf
    slack: mpmath.mpf  # T d c
    drop: mpmath.mpf  # (1 + e^eps1) T n p
    order: mpmath.mpf


def subsampled_epsilon(q: Real, noise_multiplier: Real, steps: int, delta: Real, *,
                       sigma2: Real, others: int, dimension: int,
                       drop_probability: Real = 0) -> DistributedBound:
    """The guarantee of the module docstring: ``steps`` rounds at sampling rate ``q`` of a sum
    with the noise of ``others`` devices of parameter ``sigma2`` in ``dimension`` coordinates;
    ``noise_multiplier`` is ``sqrt(others * sigma2 / L)`` or smaller (the caller rounds it down);
    ``drop_probability`` bounds the chance that an honest device drops its own report.

    Raises ValueError if the dropped reports alone would take more than half of ``delta``.
    """
    t = positive_int(steps, "steps")
    n = positive_int(others, "others")
    d = positive_int(dimension, "dimension")
    target = to_fraction(delta, "delta")
    p = to_fraction(drop_probability, "drop_probability")
    if not 0 < target < 1 or not 0 <= p <= 1:
        raise ValueError("delta must be in (0, 1) and drop_probability in [0, 1]")
    with mpmath.workdps(DPS):
        slack = t * d * sum_log_ratio(sigma2, n) * (1 + MARGIN)
        shrink = mpmath.exp(-slack)
        tv = mpmath.mpf(t * n * p.numerator) / p.denominator
        half = mpmath.mpf(target.numerator) / (2 * target.denominator) * shrink

        def ideal(budget: mpmath.mpf) -> tuple[mpmath.mpf, mpmath.mpf]:
            # the accountant takes delta as a decimal: round it down (a smaller delta only
            # increases its epsilon)
            text = mpmath.nstr(budget * (1 - MARGIN), 30, min_fixed=-mpmath.inf,
                               max_fixed=mpmath.inf)
            eps, order = subsampled_gaussian_epsilon(q, noise_multiplier, t, text,
                                                     orders=INTEGER_ORDERS)
            return mpmath.mpf(eps), mpmath.mpf(order)

        drop = mpmath.mpf(0)
        if tv > 0:
            eps1, _ = ideal(half)
            drop = (1 + mpmath.exp(eps1 + 2 * slack)) * tv * (1 + MARGIN)
            if drop > mpmath.mpf(target.numerator) / (2 * target.denominator):
                # p = e^-t: the smallest t with (1 + e^eps1) T n e^-t <= delta / 2
                need = mpmath.ceil(mpmath.log(drop * p.denominator / p.numerator)
                                   - mpmath.log(mpmath.mpf(target.numerator)
                                                / (2 * target.denominator)))
                raise ValueError(
                    f"reports dropped over the norm bound (probability {mpmath.nstr(tv, 3)} "
                    f"over all rounds, times 1 + e^eps) take more than half of delta: a tail "
                    f"exponent of at least {int(need)} is needed")
        budget = (mpmath.mpf(target.numerator) / target.denominator - drop) * shrink
        eps, order = ideal(budget)
        return DistributedBound(epsilon=(eps + 2 * slack) * (1 + MARGIN),
                                delta=mpmath.mpf(target.numerator) / target.denominator,
                                ideal_epsilon=eps, ideal_delta=budget, slack=slack, drop=drop,
                                order=order)


__all__ = ["DistributedBound", "INTEGER_ORDERS", "subsampled_epsilon", "sum_log_ratio"]
