"""The fast (discrete compound Poisson) histogram randomizer of sec. 1.2 of [GKMP20]
(dpspec.spec.shuffled.fast).

Statistical checks are chi-square goodness-of-fit tests against the exact PMFs at ALPHA = 1e-9
each (4 checks: below 4e-9 in all); seeds are fixed, so a run is reproducible.
"""

from __future__ import annotations

import math
from collections import Counter

import pytest
from scipy.stats import chi2

from dpspec.spec.shuffled.counting import CorrelatedMechanism, DistributedMechanism, Messages
from dpspec.spec.shuffled.divisible import Divisible, NegativeBinomial, ParameterError, Poisson
from dpspec.spec.shuffled.fast import (
    expected_messages,
    expected_points,
    randomize_fast,
    randomize_fast_seeded,
    sparse_shares,
)
from dpspec.spec.shuffled.histogram import HistogramMechanism
from dpspec.spec.tape import RandomTape

ALPHA = 1e-9


def _gof(samples: list[int], dist: Divisible) -> None:
    """Chi-square of the samples against dist's PMF; cells with expectation < 5 are pooled."""
    reps = len(samples)
    c = Counter(samples)
    cells, k, tail = [], 0, 1.0
    while tail * reps >= 5:
        p = float(dist.pmf(k))
        cells.append((c.get(k, 0), p * reps))
        tail -= p
        k += 1
    rest = sum(v for key, v in c.items() if key >= k)
    cells.append((rest, max(tail, 0.0) * reps))
    cells = [(o, e) for o, e in cells if e > 0]
    stat = sum((o - e) ** 2 / e for o, e in cells)
    assert stat < chi2.isf(ALPHA, len(cells) - 1), (stat, cells)


@pytest.mark.parametrize("dist", [Poisson("3/4"), NegativeBinomial("2/3", "3/5")])
def test_each_bucket_and_the_total_have_the_exact_law(dist: Divisible) -> None:
    buckets, reps = 4, 4000
    per_bucket: list[int] = []
    totals: list[int] = []
    for i in range(reps):
        z = sparse_shares(dist, buckets, RandomTape(i.to_bytes(16, "big"), "fast-test"))
        assert all(v > 0 and 0 <= j < buckets for j, v in z.items())
        per_bucket.append(z.get(i % buckets, 0))
        totals.append(sum(z.values()))
    _gof(per_bucket, dist)
    total_law = (Poisson(dist.lam * buckets) if isinstance(dist, Poisson)
                 else NegativeBinomial(dist.r * buckets, dist.p))  # type: ignore[attr-defined]
    _gof(totals, total_law)


def _mechanisms() -> list[HistogramMechanism]:
    corr = CorrelatedMechanism(NegativeBinomial(1, "1/2"), NegativeBinomial(1, "1/2"),
                               Poisson(30), 100)
    dist = DistributedMechanism(NegativeBinomial(5, "1/3"), 100)
    return [HistogramMechanism(corr, 50), HistogramMechanism(dist, 50)]


@pytest.mark.parametrize("mech", _mechanisms())
def test_messages_are_input_plus_replayable_noise(mech: HistogramMechanism) -> None:
    for i in range(20):
        seed = i.to_bytes(16, "big")
        x = i % mech.buckets
        out = randomize_fast_seeded(mech, x, seed)
        tape = RandomTape(seed, "ghazi/histogram-fast")
        bucket = mech.bucket
        if isinstance(bucket, CorrelatedMechanism):
            s1, s2, s3 = bucket.shares()
            z1, z2, z3 = (sparse_shares(s, mech.buckets, tape) for s in (s1, s2, s3))
        else:
            z1, z2, z3 = sparse_shares(bucket.share, mech.buckets, tape), {}, {}
        dense = out.dense()
        for j in range(mech.buckets):
            want = Messages((j == x) + z1.get(j, 0) + z3.get(j, 0), z2.get(j, 0) + z3.get(j, 0))
            assert dense[j] == want
        assert all(m.total > 0 for m in out.messages.values())
        assert mech.analyze(mech.shuffle([dense])) is not None


def test_work_does_not_grow_with_buckets() -> None:
    """Tape bytes read (deterministic, not time): the fast form reads O(messages log B), the
    textbook form at least one draw per bucket."""
    corr = CorrelatedMechanism(NegativeBinomial(1, "1/2"), NegativeBinomial(1, "1/2"),
                               Poisson(20), 1000)
    small, large = HistogramMechanism(corr, 100), HistogramMechanism(corr, 10_000)
    assert expected_points(large) <= expected_messages(large)
    fast_bytes, slow_bytes = [], []
    for mech in (small, large):
        t = RandomTape(b"\x07" * 16, "w")
        randomize_fast(mech, 0, t)
        fast_bytes.append(t.bytes_consumed)
        t = RandomTape(b"\x07" * 16, "w")
        mech.randomize(0, t)
        slow_bytes.append(t.bytes_consumed)
    assert slow_bytes[1] > 50 * slow_bytes[0]  # textbook: linear in B (B grows 100-fold)
    assert fast_bytes[1] < slow_bytes[1] // 2
    # expected points for B = 10^4: 10^4 (1/1000 + 1/1000 + 20/1000) = 220
    assert expected_points(large) == 220
    assert math.isclose(float(expected_messages(large)), 1 + 10_000 * (0.001 + 0.001 + 0.04))


def test_bad_inputs() -> None:
    mech = _mechanisms()[0]
    for x in (-1, 50, True):
        with pytest.raises(ParameterError):
            randomize_fast(mech, x, RandomTape(b"\x00" * 16, "t"))
    with pytest.raises(ParameterError):
        sparse_shares(Poisson(1), 0, RandomTape(b"\x00" * 16, "t"))
