"""App. B.2 of the DP draft: neighbouring batches (substitution, deletion as substitution by a
fixed reference with the batch size public, per-coordinate) and each policy's guarantee under each
(dpspec.spec.policies.adjacency)."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest

from dpspec.spec.accounting.discrete import discrete_gaussian_delta
from dpspec.spec.accounting.shuffle import rr_sum_pairs
from dpspec.spec.mechanisms import SymmetricRappor
from dpspec.spec.policies import (
    HistogramWithAggregatorRandomization,
    MultiHotHistogramWithClientRandomization,
    MultiHotHistogramWithClientRandomizationAndFill,
    SumVecWithAggregatorRandomization,
)
from dpspec.spec.policies.adjacency import ADJACENCIES, adjacency_guarantee, adjacency_table


def test_rappor_local_epsilons_match_bit_differences() -> None:
    pol = MultiHotHistogramWithClientRandomization(length=6, eps0="1/2")
    t = adjacency_table(pol, 100, numeric=False)
    assert t["substitution"]["local"].startswith("1-DP")
    assert t["deletion"]["local"].startswith("1/2-DP")
    assert t["coordinate"]["local"].startswith("1/2-DP")
    assert all(t[a]["batch_size"] == "public (100 reports)" for a in ADJACENCIES)


def test_rappor_local_epsilon_is_the_exact_likelihood_ratio() -> None:
    """The local epsilon of each notion is the largest log-likelihood ratio of the randomizer's
    outputs between the neighbouring inputs (exact enumeration over 3 coordinates)."""
    eps0 = Fraction(1)
    rr = SymmetricRappor(eps0)
    p = rr.flip_probability()
    pol = MultiHotHistogramWithClientRandomization(length=3, eps0=eps0)

    def prob(x: list[int], y: tuple[int, ...]) -> mpmath.mpf:
        out = mpmath.mpf(1)
        for a, b in zip(x, y, strict=True):
            out *= p if a != b else 1 - p
        return out

    pairs = {"substitution": ([1, 0, 0], [0, 1, 0]), "deletion": ([1, 0, 0], [0, 0, 0]),
             "coordinate": ([1, 0, 0], [1, 1, 0])}
    outs = [(a, b, c) for a in (0, 1) for b in (0, 1) for c in (0, 1)]
    for adj, (x, y) in pairs.items():
        worst = max(abs(mpmath.log(prob(x, o) / prob(y, o))) for o in outs)
        bits = adjacency_guarantee(pol, 10, adj, numeric=False)["differing_bits"]
        assert mpmath.almosteq(worst, bits * eps0, 1e-12)


def test_rappor_aggregate_deletion_is_one_coordinate_and_smaller() -> None:
    pol = MultiHotHistogramWithClientRandomization(length=6, eps0=1, delta="1e-6")
    sub = adjacency_guarantee(pol, 1000, "substitution")
    dele = adjacency_guarantee(pol, 1000, "deletion")
    e_sub = Fraction(sub["aggregate_epsilon"]["proven_worst_case"])
    e_del = Fraction(dele["aggregate_epsilon"]["fmt22_one_coordinate"])
    assert 0 < e_del < e_sub < 2
    # the one-coordinate bound is an upper bound on the exact curve of that coordinate
    pairs = rr_sum_pairs(1, 1000, "replacement", 0)
    (a, b), = pairs
    ee = float(mpmath.exp(mpmath.mpf(e_del.numerator) / e_del.denominator))
    exact = max(sum(max(x - ee * y, 0.0) for x, y in zip(a, b, strict=True)),
                sum(max(y - ee * x, 0.0) for x, y in zip(a, b, strict=True)))
    assert exact <= 1e-6


def test_fill_policy_counts_target_responses() -> None:
    pol = MultiHotHistogramWithClientRandomizationAndFill(length=4, eps0=1, target_count=500)
    assert adjacency_guarantee(pol, 20, "deletion", numeric=False)["aggregate_over"] == 500
    assert adjacency_guarantee(pol, 700, "deletion", numeric=False)["aggregate_over"] == 700


def test_gaussian_histogram_difference_vectors() -> None:
    pol = HistogramWithAggregatorRandomization(length=4, epsilon=1, delta="1e-9")
    t = adjacency_table(pol, 50)
    s2 = pol.mechanism.sigma2
    assert t["substitution"]["difference"] == [1, -1]
    assert Fraction(t["substitution"]["rho"]) == 1 / s2
    assert Fraction(t["deletion"]["rho"]) == Fraction(1, 2) / s2 == Fraction(t["coordinate"]["rho"])
    # calibrated for (1, -1): the substitution delta is at the target, deletion is below it
    assert float(t["substitution"]["delta"]) <= 1e-9 * (1 + 1e-5)
    assert float(t["deletion"]["delta"]) < float(t["substitution"]["delta"])
    sigma = mpmath.sqrt(mpmath.mpf(s2.numerator) / s2.denominator)
    assert float(t["deletion"]["delta"]) >= float(discrete_gaussian_delta(1, sigma, [1]))


def test_sumvec_sensitivities() -> None:
    lap = SumVecWithAggregatorRandomization(length=3, max_measurement=5, noise="laplace",
                                            epsilon=2)
    t = adjacency_table(lap, 10)
    assert t["substitution"]["epsilon"] == "2" == t["deletion"]["epsilon"]
    assert Fraction(t["coordinate"]["epsilon"]) == Fraction(2, 3)
    gau = SumVecWithAggregatorRandomization(length=3, max_measurement=5, rho="1/4")
    t = adjacency_table(gau, 10)
    assert t["deletion"]["l2_sensitivity_squared"] == 75 and t["deletion"]["rho"] == "1/4"
    assert Fraction(t["coordinate"]["rho"]) == Fraction(1, 12)


def test_unknown_adjacency_rejected() -> None:
    pol = HistogramWithAggregatorRandomization(length=2, sigma2=4)
    with pytest.raises(ValueError):
        adjacency_guarantee(pol, 3, "removal")
