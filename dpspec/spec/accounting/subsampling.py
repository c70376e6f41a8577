"""Privacy amplification by subsampling, and the moments accountant of the subsampled Gaussian.

* Poisson sampling with rate q of an (eps, delta)-DP mechanism is
  ``(log(1 + q (e^eps - 1)), q delta)``-DP (SA2 Theorem 3, from [LQS12]; add/remove neighbours).
* Sampling a uniformly random subset of m out of N records without replacement: the same formula
  with ``q = m / N`` under substitution neighbours ([BBG18] Theorem 9).
* Renyi DP of the Poisson-subsampled Gaussian mechanism (sensitivity 1, noise multiplier sigma,
  rate q), the quantity the moments accountant composes ([ACGMMTZ16], [MTZ19]). With
  ``mu_0 = N(0, sigma^2)``, ``mu_1 = N(1, sigma^2)`` and ``mu = (1 - q) mu_0 + q mu_1``, the RDP at
  order alpha is ``max(D_alpha(mu || mu_0), D_alpha(mu_0 || mu))``. [MTZ19] Theorem 5 shows the
  first term is the larger for integer alpha >= 2, where ``rdp(alpha) = log(A_alpha) / (alpha - 1)``
  with ``A_alpha = E_{z ~ mu_0}[(mu(z) / mu_0(z))^alpha]``; for fractional alpha both directions are
  integrated and the larger is taken.

  - integer alpha ([MTZ19] sec. 3.3, eq. for integer orders), exact finite sum::

        A_alpha = sum_{k=0}^{alpha} C(alpha, k) (1 - q)^(alpha - k) q^k exp((k^2 - k) / (2 sigma^2))

  - fractional alpha: the defining integrals, evaluated by mpmath's tanh-sinh quadrature over the
    real line split at the modes (20-digit working precision, about 14 correct digits of the RDP;
    the integrands are smooth and positive). The same integral is computed for integer orders in
    the tests, and must agree with the sum. (dp-accounting evaluates fractional orders with the
    series of [MTZ19] sec. 3.3 summed in absolute value, an upper bound; the exact integral is at
    most that.)

  Composition over T steps multiplies the RDP by T ([Mir17] Proposition 1, SA2 Theorem 2); the
  conversion to (eps, delta) is the improved one of SA2 Theorem 1, minimised over the orders.
"""

from __future__ import annotations

from collections.abc import Iterable

import mpmath

from dpspec.spec.accounting.definitions import (
    DEFAULT_ORDERS,
    rdp_to_dp_epsilon,
    zcdp_to_dp_epsilon,
)
from dpspec.spec.accounting.numeric import (
    DPS,
    Real,
    mpf,
    non_negative,
    positive,
    positive_int,
    probability,
)

#: working precision of the quadratures (log A_alpha keeps about 14 significant digits)
QUAD_DPS = 20


def poisson_amplification(eps: Real, delta: Real, q: Real) -> tuple[mpmath.mpf, mpmath.mpf]:
    """``(log(1 + q (e^eps - 1)), q delta)`` (SA2 Theorem 3)."""
    with mpmath.workdps(DPS):
        e = non_negative(eps, "eps")
        d = probability(delta, "delta", open_left=False, open_right=False)
        rate = probability(q, "q", open_left=False, open_right=False)
        return mpmath.log1p(rate * mpmath.expm1(e)), rate * d


def without_replacement_amplification(eps: Real, delta: Real, m: int, n: int
                                      ) -> tuple[mpmath.mpf, mpmath.mpf]:
    """Sampling m of n without replacement, substitution neighbours ([BBG18] Theorem 9)."""
    m = positive_int(m, "m", 0)
    n = positive_int(n, "n")
    if m > n:
        raise ValueError("m must be <= n")
    with mpmath.workdps(DPS):
        e = non_negative(eps, "eps")
        d = probability(delta, "delta", open_left=False, open_right=False)
        rate = mpmath.mpf(m) / n
        return mpmath.log1p(rate * mpmath.expm1(e)), rate * d


def _log_a_integer(q: mpmath.mpf, sigma: mpmath.mpf, alpha: int) -> mpmath.mpf:
    """``log A``, ``A = sum_k C(alpha, k) (1-q)^(alpha-k) q^k exp((k^2 - k)/(2 sigma^2))``.

    The binomial weights sum to 1 and the exponent is 0 at k = 0 and k = 1, so
    ``A - 1 = sum_{k >= 2} C(alpha, k) (1-q)^(alpha-k) q^k expm1((k^2 - k)/(2 sigma^2))``, a sum of
    non-negative terms, and ``log A = log1p(A - 1)`` keeps its relative precision for every q.
    (Summing A itself cancels the first-order terms: once q^2 falls below the working precision
    the divergence comes out wrong, and 0 at q = 1e-30.) The weights follow from the ratio
    ``(alpha - k)/(k + 1) q/(1 - q)`` of consecutive ones (mpf exponents do not overflow)."""
    ratio = q / (1 - q)
    two_s2 = 2 * sigma * sigma
    weight = (1 - q) ** alpha  # k = 0
    excess = mpmath.mpf(0)  # A - 1
    for k in range(alpha):
        weight = weight * (alpha - k) / (k + 1) * ratio  # the weight of k + 1
        if k >= 1:
            excess += weight * mpmath.expm1((k + 1) * k / two_s2)
    return mpmath.log1p(excess)


def _excess(beta: mpmath.mpf, u: mpmath.mpf) -> mpmath.mpf:
    """``(1 + u)^beta - 1 - beta u`` for ``u > -1``: >= 0 when beta > 1 or beta < 0 (convexity).

    The two first-order terms cancel to about ``beta (beta - 1) u^2 / 2``, so the difference is
    taken with the digits it loses added to the working precision (and 10 more)."""
    if u == 0:
        return mpmath.mpf(0)
    lost = mpmath.log10(2 / (abs(beta * (beta - 1) * u)))
    extra = max(int(mpmath.ceil(lost)), 0) + 10
    with mpmath.workdps(mpmath.mp.dps + extra):
        value = mpmath.expm1(beta * mpmath.log1p(u)) - beta * u
    return +value


def _log_moment(q: mpmath.mpf, sigma: mpmath.mpf, beta: mpmath.mpf,
                candidates: list[mpmath.mpf], points: list[mpmath.mpf]) -> mpmath.mpf:
    """``log E_{z ~ N(0, sigma^2)}[(1 + u(z))^beta]`` with ``u(z) = q (exp((2z - 1)/(2 sigma^2))
    - 1)``, whose mean is 0: the moment is ``1 + E[(1 + u)^beta - 1 - beta u]``, an integral of a
    non-negative function (:func:`_excess`), and its log is ``log1p`` of that integral. Summing
    the moment itself cancels: its first-order part is 0 and the rest about ``q^2``, so once q^2
    falls below the working precision the divergence comes out 0.

    The integrand times ``sqrt(2 pi) sigma`` is ``exp(g(z))``, ``g(z) = log(excess) - z^2 / (2
    sigma^2)``; it is scaled by ``exp(-peak)``, ``peak`` the largest g over ``candidates``, and
    integrated over the line split at ``points``."""
    s2 = sigma * sigma

    def g(z: mpmath.mpf) -> mpmath.mpf:
        e = _excess(beta, q * mpmath.expm1((2 * z - 1) / (2 * s2)))
        return mpmath.log(e) - z * z / (2 * s2) if e > 0 else mpmath.ninf

    peak = max(g(z) for z in candidates)

    def f(t: mpmath.mpf) -> mpmath.mpf:
        return mpmath.exp(g(t) - peak)

    total = mpmath.quad(f, [-mpmath.inf, *points, mpmath.inf])
    excess = mpmath.exp(peak) * total / mpmath.sqrt(2 * mpmath.pi * s2)
    return mpmath.log1p(excess)


def _log_a_integral(q: mpmath.mpf, sigma: mpmath.mpf, alpha: mpmath.mpf) -> mpmath.mpf:
    """``log E_{z ~ N(0, sigma^2)}[((1-q) + q exp((2z - 1) / (2 sigma^2)))^alpha]``, i.e.
    (alpha - 1) D_alpha(mu || mu_0) (:func:`_log_moment` with beta = alpha)."""
    # The integrand has at most two bumps: one at z ~ 0 (the mu_0 mass) and one between z ~ 2
    # (where the excess is about its quadratic term) and z ~ alpha (where q exp(...) dominates);
    # split the line there. The peak (only a scale) is taken at the right bump's candidates: near
    # z = 0 the excess is of the order of q^2 and was never the largest in a scan.
    marks = [mpmath.mpf(0)]
    for z in (alpha / 2, alpha):  # bumps closer than sigma/2 share an interval
        if z - marks[-1] > sigma / 2:
            marks.append(z)
    width = 40 * sigma
    return _log_moment(q, sigma, alpha, [alpha / 2, alpha],
                       [marks[0] - width, *marks, marks[-1] + width])


def _log_b_integral(q: mpmath.mpf, sigma: mpmath.mpf, alpha: mpmath.mpf) -> mpmath.mpf:
    """``log E_{z ~ mu_0}[(mu_0(z) / mu(z))^(alpha - 1)]``, i.e. (alpha - 1) D_alpha(mu_0 || mu)
    (:func:`_log_moment` with beta = 1 - alpha)."""
    width = 40 * sigma
    return _log_moment(q, sigma, 1 - alpha, [mpmath.mpf(0), -sigma, -3 * sigma, -alpha],
                       [-width, -sigma, mpmath.mpf(0), sigma, width])


def sampled_gaussian_rdp_directions(q: Real, sigma: Real, alpha: Real, *, method: str = "auto"
                                    ) -> tuple[mpmath.mpf, mpmath.mpf | None]:
    """``(forward, backward)``: D_alpha(mu || mu_0) and D_alpha(mu_0 || mu) of one step of the
    Poisson-subsampled Gaussian ([MTZ19]; mu_0 = N(0, sigma^2), mu = (1 - q) mu_0 + q N(1,
    sigma^2)). ``backward`` is None for an integer alpha >= 2, where [MTZ19] Theorem 5 puts it at
    most ``forward``; for a fractional alpha no such theorem is known and both are computed.

    ``method``: ``"auto"`` (exact sum for integer alpha, integral otherwise), ``"sum"`` (integer
    alpha only) or ``"integral"``.
    """
    with mpmath.workdps(DPS):
        rate = probability(q, "q", open_left=False, open_right=False)
        s = positive(sigma, "sigma")
        a = mpf(alpha, "alpha")
        if not a > 1:
            raise ValueError("alpha must be > 1")
        if rate == 0:
            return mpmath.mpf(0), mpmath.mpf(0)
        if rate == 1:
            return a / (2 * s * s), a / (2 * s * s)
        is_int = a == mpmath.floor(a)
        if method == "sum" or (method == "auto" and is_int):
            if not is_int:
                raise ValueError("the finite-sum formula needs an integer alpha")
            with mpmath.workdps(DPS + 10):
                log_a = _log_a_integer(rate, s, int(a))
        elif method in ("integral", "auto"):
            with mpmath.workdps(QUAD_DPS):
                log_a = _log_a_integral(rate, s, a)
        else:
            raise ValueError(f"unknown method {method!r}")
        forward = log_a / (a - 1)
        if is_int and a >= 2:
            return forward, None
        with mpmath.workdps(QUAD_DPS):
            backward = _log_b_integral(rate, s, a) / (a - 1)
        return forward, backward


def sampled_gaussian_rdp(q: Real, sigma: Real, alpha: Real, *, method: str = "auto") -> mpmath.mpf:
    """RDP at order ``alpha`` of one step of the Poisson-subsampled Gaussian ([MTZ19]): the larger
    of the two directions of :func:`sampled_gaussian_rdp_directions` (the forward one alone for
    an integer alpha >= 2), at least 0."""
    forward, backward = sampled_gaussian_rdp_directions(q, sigma, alpha, method=method)
    with mpmath.workdps(DPS):
        return max(forward, backward if backward is not None else forward, mpmath.mpf(0))


def subsampled_gaussian_epsilon(q: Real, sigma: Real, steps: int, delta: Real,
                                orders: Iterable[Real] = DEFAULT_ORDERS
                                ) -> tuple[mpmath.mpf, mpmath.mpf]:
    """``(eps, alpha)`` after ``steps`` compositions of the subsampled Gaussian (moments accountant).

    RDP composition (SA2 Theorem 2) then the improved conversion (SA2 Theorem 1), minimised over
    ``orders``. Two further valid bounds are taken into account, because a finite list of orders
    cannot reach them: ``q = 0`` releases nothing (eps = 0, alpha reported as 0), and subsampling
    never increases the Renyi divergence (joint convexity), so the zCDP curve ``T/(2 sigma^2)`` of
    the unsampled Gaussian converted at its optimal order ([CKS20] Corollary 13) also bounds eps;
    it wins when sigma is huge (alpha is then reported as 0: the order is not one of the list).
    """
    t = positive_int(steps, "steps")
    if t > 10**15:
        raise ValueError("steps must be at most 10^15")
    with mpmath.workdps(DPS):
        rate = probability(q, "q", open_left=False, open_right=False)
        s = positive(sigma, "sigma")
        probability(delta, "delta")
        if rate == 0:
            return mpmath.mpf(0), mpmath.mpf(0)
        rho = t / (2 * s * s)
        zcdp_eps = zcdp_to_dp_epsilon(rho, delta)
    eps, order = _pruned_minimum(rate, s, t, delta, orders)
    if zcdp_eps < eps:
        return zcdp_eps, mpmath.mpf(0)
    return eps, order


def _pruned_minimum(rate: mpmath.mpf, s: mpmath.mpf, t: int, delta: Real,
                    orders: Iterable[Real]) -> tuple[mpmath.mpf, mpmath.mpf]:
    """The minimum over ``orders`` of :func:`rdp_curve_to_dp`, skipping orders that provably
    cannot attain it (same result, fewer RDP evaluations).

    The Renyi divergence is non-decreasing in the order, so at order alpha the converted epsilon
    is at least ``T rdp(alpha') + c(alpha)`` for any evaluated alpha' <= alpha, where ``c`` is the
    conversion term of SA2 Theorem 1. An order whose bound is not below the best epsilon so far
    is skipped; orders are visited increasingly, integers first (cheap exact sums), then the
    fractional ones (quadratures) that survive.
    """
    with mpmath.workdps(DPS):
        items = sorted({mpf(a, "alpha") for a in orders})
        if not items:
            raise ValueError("no Renyi orders given")
        known: list[tuple[mpmath.mpf, mpmath.mpf]] = []  # (alpha, T rdp(alpha)), increasing

        def floor_rdp(a: mpmath.mpf) -> mpmath.mpf:
            below = [r for b, r in known if b <= a]
            return below[-1] if below else mpmath.mpf(0)

        best: tuple[mpmath.mpf, mpmath.mpf] | None = None
        integers = [a for a in items if a == mpmath.floor(a)]
        fractional = [a for a in items if a != mpmath.floor(a)]
        for group in (integers, fractional):
            for a in group:
                lower = rdp_to_dp_epsilon(floor_rdp(a), a, delta)
                if best is not None and lower >= best[0]:
                    continue
                r = t * sampled_gaussian_rdp(rate, s, a)
                if a == mpmath.floor(a):
                    known.append((a, r))
                    known.sort(key=lambda x: x[0])
                e = rdp_to_dp_epsilon(r, a, delta)
                if best is None or e < best[0] or (e == best[0] and a < best[1]):
                    best = (e, a)
        assert best is not None
        return best


def subsampled_gaussian_rdp_curve(q: Real, sigma: Real, steps: int,
                                  orders: Iterable[Real] = DEFAULT_ORDERS
                                  ) -> list[tuple[mpmath.mpf, mpmath.mpf]]:
    """``[(alpha, T * rdp(alpha))]`` over ``orders``."""
    t = positive_int(steps, "steps")
    return [(mpf(a), t * sampled_gaussian_rdp(q, sigma, a)) for a in orders]
