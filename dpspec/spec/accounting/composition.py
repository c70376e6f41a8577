"""Composition theorems, and the randomized-donation-time bound of SA2 App. A.

* Basic composition: ``(sum eps_i, sum delta_i)`` ([DR14] Theorem 3.16).
* Advanced composition ([DRV10], [DR14] Theorem 3.20): k-fold adaptive composition of
  (eps, delta)-DP mechanisms is ``(eps sqrt(2k ln(1/d')) + k eps (e^eps - 1), k delta + d')``-DP.
* The sharper bound of [KOV15] Theorem 3.5 (the one the DP draft's App. B.5 points to):
  ``eps' = min(k eps, k eps (e^eps - 1)/(e^eps + 1) + eps sqrt(2k ln(e + sqrt(k eps^2)/d')),
  k eps (e^eps - 1)/(e^eps + 1) + eps sqrt(2k ln(1/d')))`` with ``delta' = 1 - (1-delta)^k (1-d')``.
* Optimal composition of k (eps, delta)-DP mechanisms ([KOV15] Theorem 3.3): the exact
  ``delta'(eps')`` of the k-fold product of the randomized-response pair, computed with mpmath.
* RDP and zCDP compose additively ([Mir17] Proposition 1, SA2 Theorem 2; [BS16] Lemma 1.7).
* Randomized donation time (SA2 App. A): each of m rounds is amplified by the 1/m participation
  probability (SA2 Lemma 3 = Theorem 3 with q = 1/m), then composed over the m rounds.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import mpmath

from dpspec.spec.accounting.numeric import (
    DPS,
    Real,
    non_negative,
    positive_int,
    probability,
)
from dpspec.spec.accounting.subsampling import poisson_amplification


def basic_composition(guarantees: Iterable[tuple[Real, Real]]) -> tuple[mpmath.mpf, mpmath.mpf]:
    """``(sum eps_i, sum delta_i)`` ([DR14] Theorem 3.16)."""
    with mpmath.workdps(DPS):
        e = mpmath.mpf(0)
        d = mpmath.mpf(0)
        for eps, delta in guarantees:
            e += non_negative(eps, "eps")
            d += probability(delta, "delta", open_left=False, open_right=False)
        return e, min(d, mpmath.mpf(1))


def advanced_composition(eps: Real, delta: Real, k: int, delta_slack: Real
                         ) -> tuple[mpmath.mpf, mpmath.mpf]:
    """[DRV10] / [DR14] Theorem 3.20."""
    k = positive_int(k, "k")
    with mpmath.workdps(DPS):
        e = non_negative(eps, "eps")
        d = probability(delta, "delta", open_left=False, open_right=False)
        ds = probability(delta_slack, "delta_slack")
        e_total = e * mpmath.sqrt(2 * k * mpmath.log(1 / ds)) + k * e * mpmath.expm1(e)
        return e_total, min(k * d + ds, mpmath.mpf(1))


def kov_composition(eps: Real, delta: Real, k: int, delta_slack: Real
                    ) -> tuple[mpmath.mpf, mpmath.mpf]:
    """[KOV15] Theorem 3.5 (the minimum of its three bounds)."""
    k = positive_int(k, "k")
    with mpmath.workdps(DPS):
        e = non_negative(eps, "eps")
        d = probability(delta, "delta", open_left=False, open_right=False)
        ds = probability(delta_slack, "delta_slack")
        drift = k * e * mpmath.tanh(e / 2)  # = k eps (e^eps - 1) / (e^eps + 1)
        b1 = k * e
        b2 = drift + e * mpmath.sqrt(2 * k * mpmath.log(mpmath.e + mpmath.sqrt(k * e * e) / ds))
        b3 = drift + e * mpmath.sqrt(2 * k * mpmath.log(1 / ds))
        return min(b1, b2, b3), 1 - (1 - d) ** k * (1 - ds)


def optimal_composition_delta(eps: Real, delta: Real, k: int, eps_total: Real) -> mpmath.mpf:
    """Exact ``delta'`` such that k-fold composition of (eps, delta)-DP is (eps_total, delta')-DP.

    [KOV15] Theorem 3.3: the worst case is k independent randomized-response pairs; with
    ``L ~ Bin(k, e^eps / (1 + e^eps))`` agreements the privacy loss is ``eps (2L - k)``, and::

        delta_0 = sum_{l : eps (2l - k) > eps_total} C(k, l) (e^{l eps} - e^{eps_total} e^{(k-l) eps})
                  / (1 + e^eps)^k,
        delta'  = 1 - (1 - delta)^k (1 - delta_0).
    """
    k = positive_int(k, "k")
    with mpmath.workdps(DPS):
        e = non_negative(eps, "eps")
        d = probability(delta, "delta", open_left=False, open_right=False)
        et = non_negative(eps_total, "eps_total")
        total = mpmath.mpf(0)
        if e > 0:
            norm = (1 + mpmath.exp(e)) ** k
            for l_agree in range(k, -1, -1):
                if e * (2 * l_agree - k) <= et:
                    break
                total += mpmath.binomial(k, l_agree) * (
                    mpmath.exp(l_agree * e) - mpmath.exp(et + (k - l_agree) * e)) / norm
        return 1 - (1 - d) ** k * (1 - max(total, mpmath.mpf(0)))


def optimal_composition_epsilon(eps: Real, delta: Real, k: int, delta_total: Real) -> mpmath.mpf:
    """The smallest eps' with :func:`optimal_composition_delta` ``<= delta_total`` (bisection)."""
    with mpmath.workdps(DPS):
        e = non_negative(eps, "eps")
        dt = probability(delta_total, "delta_total", open_right=False)
        lo, hi = mpmath.mpf(0), k * e
        if optimal_composition_delta(e, delta, k, hi) > dt:
            raise ValueError("delta_total is below the delta that k-fold composition always has")
        if optimal_composition_delta(e, delta, k, lo) <= dt:
            return lo
        for _ in range(200):
            if hi - lo <= mpmath.mpf(10) ** -25 * max(hi, 1):
                break
            mid = (lo + hi) / 2
            if optimal_composition_delta(e, delta, k, mid) <= dt:
                hi = mid
            else:
                lo = mid
        return hi


def rdp_composition(values: Iterable[Real | mpmath.mpf]) -> mpmath.mpf:
    """RDP at a fixed order adds up ([Mir17] Proposition 1; SA2 Theorem 2)."""
    with mpmath.workdps(DPS):
        return mpmath.fsum(non_negative(v, "rdp") for v in values)


def zcdp_composition(values: Iterable[Real | mpmath.mpf]) -> mpmath.mpf:
    """zCDP adds up ([BS16] Lemma 1.7)."""
    with mpmath.workdps(DPS):
        return mpmath.fsum(non_negative(v, "rho") for v in values)


@dataclass(frozen=True)
class DonationTimeBound:
    """The bound of SA2 App. A and the intermediate per-round guarantee."""

    round_eps: mpmath.mpf  # log(1 + (e^eps - 1)/m)
    round_delta: mpmath.mpf  # delta / m
    eps_paper: mpmath.mpf  # eps_r sqrt(2 m log(1/delta)) + m eps_r^2 / 2 (as printed)
    delta_paper: mpmath.mpf  # (m + 1) delta (as printed)
    eps_kov: mpmath.mpf  # [KOV15] Theorem 3.5 over the m rounds, slack delta
    delta_kov: mpmath.mpf


def randomized_donation_time(eps: Real, delta: Real, m: int) -> DonationTimeBound:
    """SA2 App. A: each round (eps, delta)-DP in SA2, participation spread over m rounds.

    Each round is ``(log(1 + (e^eps - 1)/m), delta/m)``-DP (SA2 Lemma 3 with rate 1/m); composing
    m rounds with slack ``delta`` gives the printed bound ``eps' <= eps_r sqrt(2 log(1/delta) m) +
    m eps_r^2 / 2``, ``delta' <= (m + 1) delta``. That bound is valid: it dominates [KOV15]
    Theorem 3.5 because ``tanh(x/2) <= x/2``; the KOV value is returned too.
    """
    m = positive_int(m, "m")
    with mpmath.workdps(DPS):
        d = probability(delta, "delta")
        er, dr = poisson_amplification(eps, d, mpmath.mpf(1) / m)
        eps_paper = er * mpmath.sqrt(2 * mpmath.log(1 / d) * m) + m * er * er / 2
        delta_paper = (m + 1) * d
        ek, dk = kov_composition(er, dr, m, d)
        return DonationTimeBound(er, dr, eps_paper, delta_paper, ek, dk)


__all__ = [
    "DonationTimeBound",
    "advanced_composition",
    "basic_composition",
    "kov_composition",
    "optimal_composition_delta",
    "optimal_composition_epsilon",
    "randomized_donation_time",
    "rdp_composition",
    "zcdp_composition",
]
