"""Fragmented RAPPOR ([EFMRSTT20], the fourth protocol of [GKMP20] sec. 5.2): randomizer, analyzer,
exact moments, expected l-infinity error, privacy calibration, experiment rows.

The statistical test uses fixed seeds (deterministic, never flaky) and a stated false-alarm rate:
were the randomizer correct and the seeds fresh, Pearson's chi-square test on the joint law of
(number of fragments, whether the own bucket is among them) would reject with probability
ALPHA = 1e-7.
"""

from __future__ import annotations

import hashlib
import itertools
import math
from collections import Counter
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from dpspec.spec.accounting.shuffle import rappor_histogram_clone_delta
from dpspec.spec.shuffled import compare, privacy
from dpspec.spec.shuffled.divisible import ParameterError
from dpspec.spec.shuffled.fragmented import FragmentedRappor, expected_linf
from dpspec.spec.shuffled.histogram_experiment import error_growth, synthetic_counts
from dpspec.spec.tape import RandomTape

ALPHA = 1e-7
TAG = "test/fragmented"


def seed(*parts: object) -> bytes:
    return hashlib.sha256("/".join(map(str, ("test_shuffled_fragmented",) + parts)).encode()).digest()


# -- randomizer and analyzer ---------------------------------------------------------------------
def test_fragments_are_the_set_bits_in_order() -> None:
    mech = FragmentedRappor(Fraction(1, 4), 6, 10)
    for t in range(50):
        frags = mech.randomize(t % 6, RandomTape(seed("order", t), TAG))
        assert frags == sorted(set(frags))
        assert all(0 <= j < 6 for j in frags)


def test_f_zero_sends_only_the_own_bucket_and_reads_no_tape() -> None:
    mech = FragmentedRappor(0, 5, 3)
    tape = RandomTape(seed("zero"), TAG)
    assert mech.randomize(3, tape) == [3]
    assert tape.bits_consumed == 0


def test_same_bits_as_rappor() -> None:
    """The fragments are exactly the set bits of RAPPOR's vector on the same tape."""
    from dpspec.spec.shuffled.baselines import Rappor

    frag, rap = FragmentedRappor("0.3", 7, 5), Rappor("0.3", 7, 5)
    for t in range(30):
        bits = rap.randomize(t % 7, RandomTape(seed("same", t), TAG))
        assert frag.randomize(t % 7, RandomTape(seed("same", t), TAG)) == \
            [j for j, b in enumerate(bits) if b]


@pytest.mark.parametrize("x", [-1, 5, True, 1.0, "0"])
def test_invalid_inputs(x: object) -> None:
    with pytest.raises(ParameterError):
        FragmentedRappor(Fraction(1, 4), 5, 3).randomize(x, RandomTape(seed("bad"), TAG))  # type: ignore[arg-type]


@pytest.mark.parametrize("f,b,n", [("1/2", 3, 3), ("-1/10", 3, 3), ("0.7", 3, 3), ("1/4", 0, 3),
                                    ("1/4", 3, 0), ("1/4", True, 3), (0.25, 3, 3)])
def test_invalid_parameters(f: object, b: object, n: object) -> None:
    with pytest.raises(ParameterError):
        FragmentedRappor(f, b, n)  # type: ignore[arg-type]


def test_analyzer_checks_and_counts() -> None:
    mech = FragmentedRappor(Fraction(1, 5), 3, 4)
    assert mech.counts([0, 2, 2, 1, 2]) == [1, 1, 3]
    assert mech.analyze([1, 1, 3]) == [(c - Fraction(4, 5)) / Fraction(3, 5) for c in (1, 1, 3)]
    with pytest.raises(ParameterError):
        mech.counts([3])
    with pytest.raises(ParameterError):
        mech.analyze([1, 2])
    with pytest.raises(ParameterError):
        mech.analyze([1, -1, 0])


# -- exact moments: enumerate every bit pattern of small instances -------------------------------
def _exact_law(mech: FragmentedRappor, data: list[int]) -> dict[tuple[int, ...], Fraction]:
    law: dict[tuple[int, ...], Fraction] = {}
    b, f = mech.buckets, mech.f
    for bits in itertools.product((0, 1), repeat=b * len(data)):
        pr = Fraction(1)
        counts = [0] * b
        for u, x in enumerate(data):
            for j in range(b):
                bit = bits[u * b + j]
                pr *= f if bit != (j == x) else 1 - f
                counts[j] += bit
        law[tuple(counts)] = law.get(tuple(counts), Fraction(0)) + pr
    return law


@pytest.mark.parametrize("f,data,b", [(Fraction(1, 5), [0, 0, 2], 3), (Fraction(1, 3), [1, 0], 2),
                                      (Fraction(0), [1, 1], 2), (Fraction(2, 5), [3, 0, 1], 4)])
def test_unbiased_and_exact_variance(f: Fraction, data: list[int], b: int) -> None:
    mech = FragmentedRappor(f, b, len(data))
    truth = [data.count(j) for j in range(b)]
    law = _exact_law(mech, data)
    assert sum(law.values()) == 1
    for j in range(b):
        mean = sum(p * mech.analyze(list(c))[j] for c, p in law.items())
        var = sum(p * (mech.analyze(list(c))[j] - truth[j]) ** 2 for c, p in law.items())
        assert mean == truth[j]
        assert var == mech.variance()
        assert sum(p * c[j] for c, p in law.items()) == mech.mean_count(truth[j])
    msgs = sum(p * sum(c) for c, p in law.items()) / len(data)
    assert msgs == mech.expected_messages()


def test_expected_linf_matches_enumeration() -> None:
    for f, data, b in [(Fraction(1, 5), [0, 0, 1], 3), (Fraction(1, 10), [1, 1], 2),
                       (Fraction(3, 10), [0, 1, 2, 2], 3)]:
        mech = FragmentedRappor(f, b, len(data))
        truth = [data.count(j) for j in range(b)]
        exact = sum(p * max(abs(e - h) for e, h in zip(mech.analyze(list(c)), truth, strict=True))
                    for c, p in _exact_law(mech, data).items())
        got = expected_linf(f, len(data), truth)
        with mpmath.workdps(30):
            assert abs(got - mpmath.mpf(exact.numerator) / exact.denominator) < \
                mpmath.mpf(10) ** -25


def test_expected_linf_bounds() -> None:
    """One bucket: E|err| <= RMSE; with n fixed, E[max] grows with B (uniform data)."""
    f, n = Fraction(1, 20), 400
    one = expected_linf(f, n, [n])
    rmse = mpmath.sqrt(mpmath.mpf(FragmentedRappor(f, 1, n).variance().numerator)
                       / FragmentedRappor(f, 1, n).variance().denominator)
    assert one <= rmse  # E|X| <= sqrt(E X^2)
    prev = one
    for b in (2, 8, 32):
        cur = expected_linf(f, n, synthetic_counts("uniform", n, b))
        assert cur > prev
        prev = cur
    with pytest.raises(ParameterError):
        expected_linf(f, n, [n - 1])


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 12), st.fractions(0, Fraction(49, 100), max_denominator=1000),
       st.integers(0, 12))
def test_expected_linf_one_and_two_buckets_exact(n: int, f: Fraction, h: int) -> None:
    """E[max] against exact rational sums: one bucket, E[max] = E|err| exactly; two buckets
    (counts h, n - h, independent errors), E[max] >= E|err of bucket 0|."""
    h = min(h, n)
    exact = Fraction(0)
    for c in range(n + 1):  # C = Bin(n, 1 - f) for a bucket holding everyone
        p = math.comb(n, c) * (1 - f) ** c * f ** (n - c)
        exact += p * abs(c - n * (1 - f)) / (1 - 2 * f)
    with mpmath.workdps(30):
        want = mpmath.mpf(exact.numerator) / exact.denominator
        assert abs(expected_linf(f, n, [n]) - want) < mpmath.mpf(10) ** -24
    two = Fraction(0)
    for a in range(h + 1):
        for d in range(n - h + 1):
            p = (math.comb(h, a) * f ** a * (1 - f) ** (h - a)
                 * math.comb(n - h, d) * f ** d * (1 - f) ** (n - h - d))
            c0 = h - a + d                    # count of bucket 0
            two += p * abs(c0 - (h * (1 - f) + (n - h) * f)) / (1 - 2 * f)
    with mpmath.workdps(30):
        got = expected_linf(f, n, [h, n - h])
        assert got + mpmath.mpf(10) ** -24 >= mpmath.mpf(two.numerator) / two.denominator


# -- the randomizer's law, seeded ---------------------------------------------------------------
def test_randomizer_law_chi_square() -> None:
    """(number of fragments, own bucket sent) has the law Bern(1-f) x Bin(B-1, f) (independent)."""
    f, b, runs = Fraction(3, 10), 6, 4000
    mech = FragmentedRappor(f, b, 1)
    obs: Counter[tuple[int, int]] = Counter()
    for t in range(runs):
        x = t % b
        frags = mech.randomize(x, RandomTape(seed("law", t), TAG))
        own = int(x in frags)
        obs[(own, len(frags) - own)] += 1
    pf = float(f)
    cells = [(own, k) for own in (0, 1) for k in range(b)]
    expected = [runs * (pf if own == 0 else 1 - pf) * math.comb(b - 1, k) * pf ** k
                * (1 - pf) ** (b - 1 - k) for own, k in cells]
    # pool cells with expectation < 5 into one
    big = [(e, obs[c]) for e, c in zip(expected, cells, strict=True) if e >= 5]
    small_e = sum(e for e in expected if e < 5)
    small_o = runs - sum(o for _, o in big)
    bins = big + ([(small_e, small_o)] if small_e > 0 else [])
    chi2 = sum((o - e) ** 2 / e for e, o in bins)
    assert stats.chi2.sf(chi2, len(bins) - 1) > ALPHA


# -- privacy calibration ------------------------------------------------------------------------
def test_calibration_is_certified_by_the_product_curve() -> None:
    """The flip probability from (eps/2, delta/2) per coordinate also passes the tighter exact
    product curve of the two changed counts (spec.accounting), and one step (10^-12) less noise
    than the rounded answer is not private by the per-coordinate rule."""
    eps, delta, n = 1.0, 1e-6, 2000
    f, how = privacy.fragmented_rappor_flip_probability(eps, delta, n)
    assert "fmt22" in how
    e0 = math.log((1 - f) / f)
    assert rappor_histogram_clone_delta(eps, e0, n) <= delta
    from dpspec.spec.accounting.shuffle import clone_delta

    assert clone_delta(eps / 2, e0, n, "fmt22") <= delta / 2
    worse = f - Fraction(1, 10**6)
    assert clone_delta(eps / 2, math.log((1 - worse) / worse), n, "fmt22") > delta / 2


def test_rappor_one_message_needs_more_noise_than_fragments() -> None:
    eps, delta, n = 1.0, 1e-6, 10_000
    f_rap, how = privacy.rappor_flip_probability(eps, delta, n)
    f_frag, _ = privacy.fragmented_rappor_flip_probability(eps, delta, n)
    assert "fmt20" in how and f_rap > f_frag
    from dpspec.spec.accounting.shuffle import clone_delta

    assert clone_delta(eps, 2 * math.log((1 - f_rap) / f_rap), n, "fmt20") <= delta


def test_histogram_comparison_has_fragmented_row() -> None:
    rows = {r.key: r for r in compare.histogram_comparison(mpmath.mpf(1), mpmath.mpf("1e-6"),
                                                           10_000, 10)}
    fr = rows["frappor"]
    f = Fraction(fr.parameters["f"])
    assert fr.messages == 1 + 8 * f
    with mpmath.workdps(30):
        var = Fraction(10_000) * f * (1 - f) / (1 - 2 * f) ** 2
        want = mpmath.sqrt(mpmath.mpf(var.numerator) / var.denominator)
    assert abs(fr.rmse - want) < 1e-20
    # the paper's qualitative findings (sec. 5.2) on this instance
    assert rows["correlated"].rmse < fr.rmse < rows["rappor"].rmse
    assert rows["brr"].rmse < rows["rappor"].rmse


def test_growth_rows_include_fragmented_rappor() -> None:
    rows = error_growth(mpmath.mpf(1), mpmath.mpf("1e-6"), 300, [2, 16], ["uniform", "point"])
    for r in rows:
        assert set(r.rmse) >= {"rappor", "fragmented_rappor"}
        assert set(r.linf) >= {"rappor", "fragmented_rappor"}
        assert r.linf["fragmented_rappor"] > 0
        assert r.rmse["fragmented_rappor"] < r.rmse["rappor"]
    by = {(r.buckets, r.distribution): r for r in rows}
    assert by[(16, "uniform")].linf["fragmented_rappor"] > by[(2, "uniform")].linf["fragmented_rappor"]
