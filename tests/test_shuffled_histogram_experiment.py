"""[GKMP20] sec. 5.2 on synthetic data: counts, the exact expected l-infinity error of discrete
Laplace errors, and the growth of error with B (dpspec.spec.shuffled.histogram_experiment)."""

from __future__ import annotations

from collections import Counter

import mpmath
import pytest

from dpspec.spec.shuffled.histogram_experiment import (
    dlap_expected_linf,
    error_growth,
    synthetic_counts,
)


@pytest.mark.parametrize("dist", ["uniform", "zipf", "point"])
@pytest.mark.parametrize("b", [1, 3, 10, 64])
def test_counts_sum_to_n(dist: str, b: int) -> None:
    c = synthetic_counts(dist, 1001, b)
    assert len(c) == b and sum(c) == 1001 and min(c) >= 0
    if dist == "zipf" and b >= 2:
        assert c == sorted(c, reverse=True)
    with pytest.raises(ValueError):
        synthetic_counts("gauss", 10, 2)


def test_expected_linf_single_bucket_is_the_mean_absolute_dlap() -> None:
    a = mpmath.mpf("0.6")
    # E|X| for P[k] = (1-a)/(1+a) a^|k| is 2a / ((1+a)(1-a))
    with mpmath.workdps(30):
        assert mpmath.almosteq(dlap_expected_linf(a, 1), 2 * a / ((1 + a) * (1 - a)), 1e-20)


def test_expected_linf_by_brute_force_for_two_buckets() -> None:
    a = mpmath.mpf("0.5")
    with mpmath.workdps(30):
        def p(k: int) -> mpmath.mpf:
            return (1 - a) / (1 + a) * a ** abs(k)
        brute = mpmath.fsum(p(x) * p(y) * max(abs(x), abs(y))
                            for x in range(-90, 91) for y in range(-90, 91))
        assert mpmath.almosteq(dlap_expected_linf(a, 2), brute, 1e-20)


def test_error_growth_with_b() -> None:
    rows = error_growth(mpmath.mpf(1), mpmath.mpf("1e-6"), 3_000, [2, 128])
    by = {(r.buckets, r.distribution): r for r in rows}
    assert Counter(r.buckets for r in rows) == {2: 3, 128: 3}
    lo, hi = by[(2, "uniform")], by[(128, "uniform")]
    assert hi.rmse["bary_rr"] > lo.rmse["bary_rr"]           # B-ary RR degrades with B
    assert hi.rmse["correlated"] == lo.rmse["correlated"]     # per-bucket error is B-free
    assert hi.linf["correlated"] > lo.linf["correlated"]      # but the maximum grows ~ log B
    # B-ary RR's certified interval: exact at B = 2, above the correlated mechanism's maximum
    assert lo.linf["bary_rr"] - lo.linf["bary_rr_lower"] < mpmath.mpf("1e-6")
    assert hi.linf["bary_rr_lower"] > hi.linf["correlated"]
    assert hi.linf["bary_rr_lower"] > lo.linf["bary_rr"]
    assert by[(128, "point")].rmse["bary_rr_worst_bucket"] > hi.rmse["bary_rr_worst_bucket"]
    # sec. 5.2: RAPPOR (one message, generic clone bound) is worse than B-ary RR; Fragmented
    # RAPPOR (per-count analysis) is between the correlated mechanism and B-ary RR
    assert hi.rmse["correlated"] < hi.rmse["fragmented_rappor"] < hi.rmse["bary_rr"] \
        < hi.rmse["rappor"]
