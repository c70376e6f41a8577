"""Privacy definitions and the conversions between them.

Sources: sec. 3.1 and App. B.5 of the DP draft (draft-wang-ppm-differential-privacy-00); sec. 2 of
the SA2 paper (Definitions 2.1-2.3, Theorem 1); [BS16] (zCDP); [Mir17] (Renyi DP); [CKS20]
Proposition 12 / [BBGHS20] Theorem 21 (the improved RDP -> (eps, delta) conversion that the SA2
paper states as the second half of its Theorem 1).

Conventions. ``(eps, delta)``-DP: ``max(D_{e^eps}(P||Q), D_{e^eps}(Q||P)) <= delta`` for the output
distributions P, Q on any neighbouring pair (hockey-stick divergence, SA2 Definition 2.1).
``(alpha, tau)``-RDP: ``D_alpha(P||Q) <= tau`` (natural logarithms). ``rho``-zCDP: ``(alpha,
alpha*rho)``-RDP for every ``alpha > 1``.

All functions here use mpmath at :data:`dpspec.spec.accounting.numeric.DPS` digits. Every conversion
returns a guarantee that is implied by its input (never tighter than the source guarantee); the
tests check this property against the exact curves of the Gaussian mechanism.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import mpmath

from dpspec.spec.accounting.numeric import DPS, Real, golden_section, mpf, non_negative, probability

#: Orders used when a Renyi curve is minimised over ``alpha`` (those of common accountants, plus
#: larger ones for long compositions of very private steps).
DEFAULT_ORDERS: tuple[Real, ...] = (
    "1.25", "1.5", "1.75", 2, "2.25", "2.5", 3, "3.5", 4, "4.5",
    *range(5, 64), 64, 80, 96, 128, 160, 192, 256, 320, 384, 512, 768, 1024,
)


# -- divergences of finite distributions -------------------------------------------------------
def _masses(p: Sequence[Real | mpmath.mpf], q: Sequence[Real | mpmath.mpf]
            ) -> list[tuple[mpmath.mpf, mpmath.mpf]]:
    """P and Q as aligned pairs of masses: the same length, every mass finite and >= 0.

    The divergences below are defined for (sub-)probability vectors; a negative or infinite mass
    would give a number that bounds nothing, so it is refused rather than summed.
    """
    if len(p) != len(q):
        raise ValueError("P and Q must be given on the same support (same length)")
    pairs = [(mpf(a, "P(x)"), mpf(b, "Q(x)")) for a, b in zip(p, q, strict=True)]
    for a, b in pairs:
        if not (mpmath.isfinite(a) and mpmath.isfinite(b) and a >= 0 and b >= 0):
            raise ValueError("every mass of P and Q must be finite and >= 0")
    return pairs


def hockey_stick(p: Sequence[Real | mpmath.mpf], q: Sequence[Real | mpmath.mpf],
                 eps: Real | mpmath.mpf) -> mpmath.mpf:
    """``D_{e^eps}(P||Q) = sum_x max(0, P(x) - e^eps Q(x))`` (SA2 Definition 2.1), P, Q aligned
    non-negative masses (:func:`_masses`)."""
    with mpmath.workdps(DPS):
        pairs = _masses(p, q)
        e = mpmath.exp(mpf(eps, "eps"))
        total = mpmath.mpf(0)
        for a, b in pairs:
            d = a - e * b
            if d > 0:
                total += d
        return +total


def dp_delta(p: Sequence[Real | mpmath.mpf], q: Sequence[Real | mpmath.mpf],
             eps: Real | mpmath.mpf) -> mpmath.mpf:
    """The smallest delta for which P and Q are (eps, delta)-indistinguishable (both directions)."""
    return max(hockey_stick(p, q, eps), hockey_stick(q, p, eps))


def renyi_divergence(p: Sequence[Real | mpmath.mpf], q: Sequence[Real | mpmath.mpf],
                     alpha: Real | mpmath.mpf) -> mpmath.mpf:
    """``D_alpha(P||Q) = log(sum_x P(x)^alpha Q(x)^(1-alpha)) / (alpha - 1)`` (SA2 Def. 2.2), P, Q
    aligned non-negative masses (:func:`_masses`).

    Infinite when P puts mass where Q has none.
    """
    with mpmath.workdps(DPS):
        pairs = _masses(p, q)
        a = mpf(alpha, "alpha")
        if not a > 1:
            raise ValueError("alpha must be > 1")
        total = mpmath.mpf(0)
        for px, qy in pairs:
            if px == 0:
                continue
            if qy == 0:
                return mpmath.inf
            total += px**a * qy ** (1 - a)
        return mpmath.log(total) / (a - 1)


# -- pure DP -> RDP / zCDP ---------------------------------------------------------------------
def pure_to_zcdp(eps: Real) -> mpmath.mpf:
    """eps-DP implies (eps^2 / 2)-zCDP ([BS16] Proposition 1.4)."""
    with mpmath.workdps(DPS):
        e = non_negative(eps, "eps")
        return e * e / 2


def pure_to_rdp(eps: Real, alpha: Real) -> mpmath.mpf:
    """eps-DP implies (alpha, min(alpha eps^2 / 2, eps))-RDP.

    ``alpha eps^2 / 2`` is the first half of SA2 Theorem 1 (via [BS16]); ``eps`` is the trivial
    bound (the privacy loss never exceeds eps). Both hold, so the minimum does.
    """
    with mpmath.workdps(DPS):
        e = non_negative(eps, "eps")
        a = mpf(alpha, "alpha")
        if not a > 1:
            raise ValueError("alpha must be > 1")
        return min(a * e * e / 2, e)


# -- RDP -> (eps, delta) -------------------------------------------------------------------------
def rdp_to_dp_epsilon(rdp: Real | mpmath.mpf, alpha: Real | mpmath.mpf, delta: Real,
                      *, improved: bool = True) -> mpmath.mpf:
    """eps such that (alpha, rdp)-RDP implies (eps, delta)-DP.

    ``improved=True``: the conversion of SA2 Theorem 1 (= [CKS20] Prop. 12, [BBGHS20] Thm. 21)::

        eps = rdp + (log(1/delta) + (alpha - 1) log(1 - 1/alpha) - log(alpha)) / (alpha - 1)

    ``improved=False``: the original conversion of [Mir17] Proposition 3,
    ``eps = rdp + log(1/delta) / (alpha - 1)``. The improved one is never larger. Negative results
    are clamped to 0 (any mechanism is (0, delta)-DP when the bound says so).
    """
    with mpmath.workdps(DPS):
        r = non_negative(rdp, "rdp")
        a = mpf(alpha, "alpha")
        if not a > 1:
            raise ValueError("alpha must be > 1")
        d = probability(delta, "delta", open_right=False)
        if improved:
            eps = r + (mpmath.log(1 / d) + (a - 1) * mpmath.log1p(-1 / a) - mpmath.log(a)) / (a - 1)
        else:
            eps = r + mpmath.log(1 / d) / (a - 1)
        return max(eps, mpmath.mpf(0))


def rdp_to_dp_delta(rdp: Real | mpmath.mpf, alpha: Real | mpmath.mpf,
                    eps: Real | mpmath.mpf) -> mpmath.mpf:
    """delta such that (alpha, rdp)-RDP implies (eps, delta)-DP (SA2 Theorem 1 solved for delta)::

        delta = exp((alpha - 1)(rdp - eps)) * (1 - 1/alpha)^(alpha - 1) / alpha, capped at 1.
    """
    with mpmath.workdps(DPS):
        r = non_negative(rdp, "rdp")
        a = mpf(alpha, "alpha")
        e = non_negative(eps, "eps")
        if not a > 1:
            raise ValueError("alpha must be > 1")
        d = mpmath.exp((a - 1) * (r - e) + (a - 1) * mpmath.log1p(-1 / a) - mpmath.log(a))
        return min(d, mpmath.mpf(1))


def rdp_curve_to_dp(curve: Callable[[mpmath.mpf], mpmath.mpf] | Iterable[tuple[Real, Real]],
                    delta: Real, orders: Iterable[Real] = DEFAULT_ORDERS,
                    *, improved: bool = True) -> tuple[mpmath.mpf, mpmath.mpf]:
    """``(eps, alpha)``: the smallest eps over the given orders of :func:`rdp_to_dp_epsilon`.

    ``curve`` is either a function alpha -> RDP at alpha, or pairs ``(alpha, rdp)``.
    """
    with mpmath.workdps(DPS):
        pairs: list[tuple[mpmath.mpf, mpmath.mpf]]
        if callable(curve):
            pairs = [(mpf(a), curve(mpf(a))) for a in orders]
        else:
            pairs = [(mpf(a), mpf(r)) for a, r in curve]
        if not pairs:
            raise ValueError("no Renyi orders given")
        best: tuple[mpmath.mpf, mpmath.mpf] | None = None
        for a, r in pairs:
            if not mpmath.isfinite(r):
                continue
            e = rdp_to_dp_epsilon(r, a, delta, improved=improved)
            if best is None or e < best[0]:
                best = (e, a)
        if best is None:
            return mpmath.inf, mpmath.mpf(0)
        return best


# -- zCDP -------------------------------------------------------------------------------------
def zcdp_to_rdp(rho: Real | mpmath.mpf, alpha: Real | mpmath.mpf) -> mpmath.mpf:
    """rho-zCDP is (alpha, alpha rho)-RDP for all alpha > 1 ([BS16] Definition 1.1)."""
    with mpmath.workdps(DPS):
        return non_negative(rho, "rho") * mpf(alpha, "alpha")


def zcdp_to_dp_epsilon(rho: Real | mpmath.mpf, delta: Real, *, tight: bool = True) -> mpmath.mpf:
    """eps such that rho-zCDP implies (eps, delta)-DP.

    ``tight=False``: ``rho + 2 sqrt(rho log(1/delta))`` ([BS16] Proposition 1.3).
    ``tight=True``: the minimum over alpha > 1 of the improved RDP conversion applied to
    ``(alpha, alpha rho)`` ([CKS20] Corollary 13), found by golden-section search on the convex
    function of alpha, and never larger than the [BS16] value (the minimum of both is returned).
    """
    with mpmath.workdps(DPS):
        r = non_negative(rho, "rho")
        d = probability(delta, "delta", open_right=False)
        simple = r + 2 * mpmath.sqrt(r * mpmath.log(1 / d))
        if not tight or r == 0:
            return simple

        def g(a: mpmath.mpf) -> mpmath.mpf:
            return (a * r + (mpmath.log(1 / d) + (a - 1) * mpmath.log1p(-1 / a) - mpmath.log(a))
                    / (a - 1))

        # the unconstrained optimum is near 1 + sqrt(log(1/delta) / rho); search a wide bracket
        lo = mpmath.mpf("1.000001")
        hi = 2 + 4 * mpmath.sqrt(mpmath.log(1 / d) / r) + 4 * mpmath.log(1 / d)
        search = golden_section(g, lo, hi, phi=(mpmath.sqrt(5) - 1) / 2, iterations=200,
                                tol=mpmath.mpf(10) ** (-DPS // 2))
        # any alpha gives a valid bound; evaluate at the final point
        best = g((search.lo + search.hi) / 2)
        return max(min(best, simple), mpmath.mpf(0))
