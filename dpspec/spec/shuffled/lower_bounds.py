"""The lower bounds of [GKMP20] illustrated beside exact errors: Theorem 3 and Lemma 15.

Both bounds are asymptotic with unstated constants, so they cannot be drawn as numbers; what can be
shown exactly is the growth they predict, next to the mechanisms that escape them:

* **Theorem 3** (single-message protocols): for ``delta = n^(-c)`` and constant eps, every
  (eps, delta)-DP single-message protocol for binary summation has expected squared error
  ``Omega(log n)``. :func:`theorem3_rows` gives, for growing ``n``, the exact MSE of binary
  randomized response with the smallest flip probability that is (eps, n^-c)-DP by the proven fmt22
  clone bound (:func:`dpspec.spec.shuffled.privacy.rr_flip_probability`), its ratio to ``ln n``
  (bounded away from 0, as the theorem says), and the constant MSE of the (multi-message)
  correlated mechanism with D3 by the exact curve and of the central discrete Laplace.
* **Lemma 15** (D-distributed mechanisms with non-negative infinitely divisible noise): the MSE is
  ``Omega_eps(log(1/delta))``. :func:`lemma15_rows` gives, for shrinking ``delta``, the exact MSE
  (= lambda) of the Poisson mechanism with the exact minimal lambda, its ratio to ``ln(1/delta)``,
  and beside it the correlated mechanism's MSE, which does not depend on delta (its D1 - D2 is a
  fixed discrete Laplace; only D3, which does not enter the error, grows).

RR's privacy is the fmt22 bound, which is an upper bound on its true delta; the exact optimal
single-message protocol is not computed, so the RR column is an upper bound on the best
single-message error, shown for its growth.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import mpmath

from dpspec.spec.shuffled import accuracy as acc
from dpspec.spec.shuffled import privacy
from dpspec.spec.shuffled.compare import correlated_design, poisson_design

DPS = 30


@dataclass(frozen=True)
class BoundRow:
    """One point of a lower-bound illustration (every error is an exact MSE, 10 digits)."""

    x: str  # n (Theorem 3) or delta (Lemma 15)
    delta: str
    log_term: mpmath.mpf  # ln n or ln(1/delta)
    bounded_mse: mpmath.mpf  # RR (Theorem 3) or Poisson (Lemma 15)
    correlated_mse: mpmath.mpf
    central_mse: mpmath.mpf

    @property
    def ratio(self) -> mpmath.mpf:
        return self.bounded_mse / self.log_term

    def as_json(self) -> dict[str, str]:
        return {"x": self.x, "delta": self.delta, "log": mpmath.nstr(self.log_term, 8),
                "boundedMse": mpmath.nstr(self.bounded_mse, 10),
                "ratio": mpmath.nstr(self.ratio, 6),
                "correlatedMse": mpmath.nstr(self.correlated_mse, 10),
                "centralMse": mpmath.nstr(self.central_mse, 10)}


def theorem3_rows(eps: mpmath.mpf, ns: Sequence[int], c: int = 2) -> list[BoundRow]:
    """Binary randomized response at ``delta = n^-c`` for each ``n`` (module docstring)."""
    with mpmath.workdps(DPS):
        central = acc.central_dlap_rmse(eps, DPS) ** 2
        rows = []
        for n in ns:
            delta = mpmath.mpf(n) ** -c
            p, _ = privacy.rr_flip_probability(float(eps), float(delta), n)
            m = acc.mse_randomized_response(p, n)
            rr = mpmath.mpf(m.numerator) / m.denominator
            corr = correlated_design(eps, delta, n, "exact").mse()
            rows.append(BoundRow(str(n), f"n^-{c}", mpmath.log(n), rr,
                                 mpmath.mpf(corr.numerator) / corr.denominator, central))
        return rows


def lemma15_rows(eps: mpmath.mpf, deltas: Sequence[str], n: int) -> list[BoundRow]:
    """The exact-minimal Poisson mechanism for each ``delta`` (module docstring)."""
    with mpmath.workdps(DPS):
        central = acc.central_dlap_rmse(eps, DPS) ** 2
        rows = []
        for d in deltas:
            delta = mpmath.mpf(d)
            pois = poisson_design(eps, delta, n, "exact").mse()
            corr = correlated_design(eps, delta, n, "exact").mse()
            rows.append(BoundRow(str(n), d, -mpmath.log(delta),
                                 mpmath.mpf(pois.numerator) / pois.denominator,
                                 mpmath.mpf(corr.numerator) / corr.denominator, central))
        return rows
