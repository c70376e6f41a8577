"""The SA2 ideal functionality (dpspec.spec.sa2.ideal) and privacy statements (dpspec.spec.sa2.privacy)."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from dpspec.spec.sa2 import ideal
from dpspec.spec.sa2.ideal import Sa2Error
from dpspec.spec.samplers import bernoulli
from dpspec.spec.tape import RandomTape

SEED = bytes(range(32))


def tape(tag: str = "sa2/test", seed: bytes = SEED) -> RandomTape:
    return RandomTape(seed, tag)


# -- A_B^Dec ---------------------------------------------------------------------------------
def test_aggregate_releases_only_at_or_above_B() -> None:
    agg = ideal.integer_sum()
    assert ideal.aggregate([1, 2, 3], 4, agg) is None
    assert ideal.aggregate([1, 2, 3], 3, agg) == 6
    assert ideal.aggregate([1, 2, 3], 1, agg) == 6


def test_aggregate_with_decoding_and_vectors() -> None:
    one_hot = ideal.vector_sum(3, dec=lambda i: tuple(int(j == i) for j in range(3)))
    assert ideal.aggregate([0, 2, 2, 1, 2], 5, one_hot) == (1, 1, 3)
    mod = ideal.vector_sum(2, modulus=7)
    assert ideal.aggregate([(5, 6), (4, 3)], 2, mod) == (2, 2)
    with pytest.raises(Sa2Error):
        ideal.aggregate([(1, 2, 3)], 1, mod)


@pytest.mark.parametrize("B", [0, -1, True, 2.0])
def test_bad_cohort_size(B: object) -> None:
    with pytest.raises(Sa2Error):
        ideal.aggregate([1], B, ideal.integer_sum())  # type: ignore[arg-type]


# -- rates -------------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "value"), [
    ("0.02", Fraction(1, 50)), ("1/50", Fraction(1, 50)), ("2/100", Fraction(1, 50)),
    ("0", Fraction(0)), ("1", Fraction(1)), (Fraction(3, 7), Fraction(3, 7)), (1, Fraction(1)),
])
def test_parse_rate(text: ideal.Rational, value: Fraction) -> None:
    assert ideal.parse_rate(text) == value


@pytest.mark.parametrize("bad", [0.02, "1.5", "-1/3", "abc", "1/0", True, "nan", None])
def test_parse_rate_rejects(bad: object) -> None:
    with pytest.raises(Sa2Error):
        ideal.parse_rate(bad)  # type: ignore[arg-type]


def test_float_rejection_says_why() -> None:
    with pytest.raises(Sa2Error, match="floats are refused"):
        ideal.parse_rate(0.5)


# -- Poisson sampling --------------------------------------------------------------------------
def test_poisson_sample_draws_one_bernoulli_per_message_in_order() -> None:
    got = ideal.poisson_sample(200, "3/10", tape())
    ref = tape()
    assert got == [bernoulli(ref, Fraction(3, 10)) == 1 for _ in range(200)]


def test_poisson_rates_zero_and_one_take_no_bits() -> None:
    t0, t1 = tape(), tape()
    assert ideal.poisson_sample(50, 0, t0) == [False] * 50
    assert ideal.poisson_sample(50, 1, t1) == [True] * 50
    assert t0.bits_consumed == t1.bits_consumed == 0


def test_samplable_aggregate_is_A_B_over_the_poisson_sample() -> None:
    msgs = list(range(1, 101))
    keep = ideal.poisson_sample(100, "1/2", tape())
    chosen = [m for m, k in zip(msgs, keep, strict=True) if k]
    agg = ideal.integer_sum()
    assert ideal.samplable_aggregate(msgs, len(chosen), "1/2", agg, tape()) == sum(chosen)
    assert ideal.samplable_aggregate(msgs, len(chosen) + 1, "1/2", agg, tape()) is None


@given(st.lists(st.integers(-5, 5), max_size=40), st.integers(1, 10),
       st.fractions(0, 1, max_denominator=20), st.binary(min_size=16, max_size=16))
def test_samplable_aggregate_property(msgs: list[int], B: int, q: Fraction, seed: bytes) -> None:
    keep = ideal.poisson_sample(len(msgs), q, RandomTape(seed, "p"))
    chosen = [m for m, k in zip(msgs, keep, strict=True) if k]
    out = ideal.samplable_aggregate(msgs, B, q, ideal.integer_sum(), RandomTape(seed, "p"))
    assert out == (sum(chosen) if len(chosen) >= B else None)


def test_poisson_selected_count_is_binomial() -> None:
    # Bin(60000, 1/3): reject beyond 5.5 standard deviations (two-sided false alarm 3.8e-8).
    n, q = 60000, Fraction(1, 3)
    count = sum(ideal.poisson_sample(n, q, tape("sa2/stat/poisson")))
    mean, sd = n * q, math.sqrt(n * q * (1 - q))
    assert abs(count - mean) < 5.5 * sd


# -- fixed size ---------------------------------------------------------------------------------
def test_fixed_size_subset_is_partial_fisher_yates() -> None:
    t, ref = tape(), tape()
    got = ideal.fixed_size_subset(10, 4, t)
    perm = list(range(10))
    for j in range(4):
        r = j + ref.uniform(10 - j)
        perm[j], perm[r] = perm[r], perm[j]
    assert got == perm[:4]
    assert t.bits_consumed == ref.bits_consumed


def test_fixed_size_below_B_draws_nothing() -> None:
    t = tape()
    assert ideal.fixed_size_subset(3, 4, t) is None
    assert ideal.fixed_size_aggregate([1, 2, 3], 4, ideal.integer_sum(), t) is None
    assert t.bits_consumed == 0


@given(st.lists(st.integers(0, 100), max_size=30), st.integers(1, 30),
       st.binary(min_size=16, max_size=16))
def test_fixed_size_aggregate_property(msgs: list[int], B: int, seed: bytes) -> None:
    chosen = ideal.fixed_size_subset(len(msgs), B, RandomTape(seed, "f"))
    out = ideal.fixed_size_aggregate(msgs, B, ideal.integer_sum(), RandomTape(seed, "f"))
    if len(msgs) < B:
        assert chosen is None and out is None
    else:
        assert chosen is not None and len(set(chosen)) == B
        assert out == sum(msgs[i] for i in chosen)


def test_fixed_size_subsets_are_uniform() -> None:
    # All C(5,2) = 10 subsets equally likely: chi-square, 9 dof, false alarm 1e-6.
    t = tape("sa2/stat/fixed")
    counts: dict[frozenset[int], int] = {}
    n = 30000
    for _ in range(n):
        s = ideal.fixed_size_subset(5, 2, t)
        assert s is not None
        counts[frozenset(s)] = counts.get(frozenset(s), 0) + 1
    assert len(counts) == 10
    chi2 = sum((c - n / 10) ** 2 / (n / 10) for c in counts.values())
    assert chi2 < stats.chi2.isf(1e-6, 9)


# -- App. A ---------------------------------------------------------------------------------------
def test_time_bounded_aggregate() -> None:
    agg = ideal.integer_sum()
    msgs = [(1, 0), (2, "1/2"), (3, 10)]
    assert ideal.time_bounded_aggregate(0, msgs, 3, 10, agg) == 6
    assert ideal.time_bounded_aggregate(0, msgs, 3, "9.99", agg) is None  # collection too long
    assert ideal.time_bounded_aggregate(0, msgs, 4, 100, agg) is None     # too few
    with pytest.raises(Sa2Error):
        ideal.time_bounded_aggregate(1, msgs, 1, 10, agg)                  # before t0
    with pytest.raises(Sa2Error):
        ideal.time_bounded_aggregate(0, [(1, 2), (1, 1)], 1, 10, agg)      # out of order
    with pytest.raises(Sa2Error):
        ideal.time_bounded_aggregate(0, msgs, 1, 0, agg)


def test_donation_round_draws_all_m_coins() -> None:
    t, ref = tape(), tape()
    out = ideal.donation_round(7, t)
    chi = [bernoulli(ref, Fraction(1, 7)) == 1 for _ in range(7)]
    assert out == (chi.index(True) if any(chi) else None)
    assert t.bits_consumed == ref.bits_consumed


def test_donation_wait_and_schedule() -> None:
    t, ref = tape(), tape()
    w = ideal.donation_schedule("1/2", 4, 15, t)
    if bernoulli(ref, Fraction(1, 2)):
        i = ideal.donation_round(4, ref)
        assert w == (None if i is None else 15 * i)
    else:
        assert w is None
    assert ideal.donation_schedule(0, 4, 15, tape()) is None


def test_donation_round_distribution() -> None:
    # P[i] = (1 - 1/m)^i / m, P[None] = (1 - 1/m)^m; chi-square with m dof, false alarm 1e-6.
    m, n = 4, 20000
    t = tape("sa2/stat/donation")
    counts = [0] * (m + 1)
    for _ in range(n):
        i = ideal.donation_round(m, t)
        counts[m if i is None else i] += 1
    probs = [(1 - 1 / m) ** i / m for i in range(m)] + [(1 - 1 / m) ** m]
    chi2 = sum((c - n * p) ** 2 / (n * p) for c, p in zip(counts, probs, strict=True))
    assert chi2 < stats.chi2.isf(1e-6, m)
