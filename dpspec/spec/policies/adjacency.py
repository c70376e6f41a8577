"""Neighbouring batches (App. B.2 of the DP draft) and the guarantee of each policy under each.

Three notions, by the name :func:`adjacency_guarantee` takes:

``substitution``
    one measurement replaced by any other valid measurement (the draft's default, sec. 3.1).
``deletion``
    deletion as App. B.2 defines it for DAP: the batch size is public (DAP reveals the report
    count), so "deleting" a Client means substituting its measurement by a fixed *reference value*,
    here the all-zero vector (what an absent Client contributes to the aggregate). Neighbouring
    batches have the same size. For Prio3MultihotCountVec the zero vector is a valid measurement;
    for Prio3Histogram it is not (a one-hot circuit), so the reference is notional: the guarantee
    is about the aggregate, which is all the Collector sees. (Taking an in-domain reference bucket
    instead gives back the substitution guarantee, difference ``(1, -1)``.)
``coordinate``
    the weaker adjacency of App. B.2: the batches differ in one coordinate of one measurement.

For each policy the function reports the difference vector (or sensitivities) of the aggregate
between neighbours, and the resulting guarantee, computed only by ``dpspec.spec.accounting``
(never re-derived here):

* symmetric RAPPOR policies (sec. 6.1.1, App. B.1): a one-hot input differs from another in two
  bits and from the zero reference, or in one coordinate, in one bit. Locally ``2 EPSILON_0`` under
  substitution and ``EPSILON_0`` under the other two (each bit is ``EPSILON_0``-DP binary randomized
  response). In aggregate over ``n`` honest Clients: substitution composes two coordinates
  (:func:`dpspec.spec.mechanisms.calibration.rappor_aggregate_epsilon`), deletion and coordinate
  adjacency need one coordinate only, which is the sum of ``n`` binary randomized responses,
  bounded by the [FMT22] clone bound (``dpspec.spec.accounting.shuffle``, ``fmt22``, proven for
  binary randomized response).
* Prio3Histogram + discrete Gaussian (sec. 6.1.2): difference ``(1, -1)`` under substitution,
  ``(1,)`` under deletion and coordinate adjacency: ``rho = |v|^2 / (2 sigma^2)``-zCDP exactly, and
  the exact ``delta`` at the calibrated EPSILON (``dpspec.spec.accounting.discrete``).
* Prio3SumVec + noise: substitution and deletion (reference 0) both allow any difference in the
  box ``[-max, max]^length`` (L1 ``length max``, L2^2 ``length max^2``); coordinate adjacency one
  coordinate (L1 ``max``, L2^2 ``max^2``). Laplace: ``L1 / t``-DP exactly; Gaussian:
  ``L2^2 / (2 sigma^2)``-zCDP exactly.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import mpmath

from dpspec.spec.accounting.discrete import discrete_gaussian_delta
from dpspec.spec.accounting.numeric import round_up
from dpspec.spec.accounting.shuffle import shuffle_epsilon
from dpspec.spec.mechanisms.additive import DiscreteGaussianMechanism, DiscreteLaplaceMechanism
from dpspec.spec.mechanisms.calibration import rappor_aggregate_epsilon
from dpspec.spec.mechanisms.exact import rational_text
from dpspec.spec.policies.base import DpPolicy
from dpspec.spec.policies.histogram import (
    HistogramWithAggregatorRandomization,
    MultiHotHistogramWithClientRandomization,
    MultiHotHistogramWithClientRandomizationAndFill,
)
from dpspec.spec.policies.sumvec import SumVecWithAggregatorRandomization

ADJACENCIES: dict[str, str] = {
    "substitution": "one measurement replaced by any other valid measurement",
    "deletion": ("one measurement replaced by the fixed reference value (the all-zero vector); "
                 "the batch size is public, so neighbouring batches have the same size"),
    "coordinate": "one coordinate of one measurement changed",
}


def _check(adjacency: str) -> None:
    if adjacency not in ADJACENCIES:
        raise ValueError(f"adjacency must be one of {', '.join(ADJACENCIES)}")


def _rappor(policy: MultiHotHistogramWithClientRandomization, meas_count: int, adjacency: str,
            numeric: bool) -> dict[str, Any]:
    eps0 = policy.rappor.eps0
    n = meas_count
    if isinstance(policy, MultiHotHistogramWithClientRandomizationAndFill):
        n = max(meas_count, policy.target_count)  # randomized responses per coordinate (App. B.1)
    bits = 2 if adjacency == "substitution" else 1
    out: dict[str, Any] = {
        "differing_bits": bits,
        "local": f"{rational_text(bits * eps0)}-DP (OC trust model)",
        "aggregate_over": n,
    }
    if numeric and n >= 2:
        if bits == 2:
            out["aggregate_epsilon"] = rappor_aggregate_epsilon(eps0, n, policy.delta)
        else:
            res = shuffle_epsilon(eps0, n, policy.delta, "fmt22")
            out["aggregate_epsilon"] = {"fmt22_one_coordinate": round_up(res.eps, 6)}
        out["aggregate_delta"] = rational_text(policy.delta)
    return out


def _gaussian_histogram(policy: HistogramWithAggregatorRandomization, adjacency: str,
                        numeric: bool) -> dict[str, Any]:
    mech = policy.mechanism
    v = [1, -1] if adjacency == "substitution" else [1]
    norm2 = sum(x * x for x in v)
    out: dict[str, Any] = {"difference": v,
                           "rho": rational_text(Fraction(norm2) / (2 * mech.sigma2))}
    if numeric and mech.target is not None:
        eps = mech.target[0]
        with mpmath.workdps(30):
            sigma = mpmath.sqrt(mpmath.mpf(mech.sigma2.numerator) / mech.sigma2.denominator)
            d = discrete_gaussian_delta(mpmath.mpf(eps.numerator) / eps.denominator, sigma, v)
        out["epsilon"] = rational_text(eps)
        out["delta"] = round_up(d, 6)
    return out


def _sumvec(policy: SumVecWithAggregatorRandomization, adjacency: str) -> dict[str, Any]:
    m = policy.max_measurement
    if adjacency == "coordinate":
        l1, l2sq = m, m * m
    else:  # substitution, or deletion to the zero reference: the same box of differences
        l1, l2sq = policy.l1_sensitivity, policy.l2_sensitivity_squared
    out: dict[str, Any] = {"l1_sensitivity": l1, "l2_sensitivity_squared": l2sq}
    mech = policy.mechanism
    if isinstance(mech, DiscreteLaplaceMechanism):
        out["epsilon"] = rational_text(Fraction(l1) / mech.scale)
    else:
        assert isinstance(mech, DiscreteGaussianMechanism)
        out["rho"] = rational_text(Fraction(l2sq) / (2 * mech.sigma2))
    return out


def adjacency_guarantee(policy: DpPolicy, meas_count: int, adjacency: str,
                        numeric: bool = True) -> dict[str, Any]:
    """The guarantee of ``policy`` over ``meas_count`` reports under ``adjacency`` (App. B.2).

    ``numeric=False`` leaves out figures computed in floating point (the aggregate epsilons of
    the RAPPOR policies and the discrete Gaussian delta); the exact ones (local epsilons, rho,
    Laplace epsilon, sensitivities) are always present.
    """
    _check(adjacency)
    out: dict[str, Any] = {"adjacency": adjacency, "definition": ADJACENCIES[adjacency],
                           "batch_size": f"public ({meas_count} reports)"}
    if isinstance(policy, MultiHotHistogramWithClientRandomization):
        out.update(_rappor(policy, meas_count, adjacency, numeric))
    elif isinstance(policy, HistogramWithAggregatorRandomization):
        out.update(_gaussian_histogram(policy, adjacency, numeric))
    elif isinstance(policy, SumVecWithAggregatorRandomization):
        out.update(_sumvec(policy, adjacency))
    else:
        raise ValueError(f"no adjacency analysis for policy {policy.NAME!r}")
    return out


def adjacency_table(policy: DpPolicy, meas_count: int, numeric: bool = True
                    ) -> dict[str, dict[str, Any]]:
    """:func:`adjacency_guarantee` for every notion in :data:`ADJACENCIES`."""
    return {a: adjacency_guarantee(policy, meas_count, a, numeric) for a in ADJACENCIES}
