"""dpspec.spec.mechanisms: exact enclosures, the geometric skip, RAPPOR, randomized response, additive noise.

Statistical tests use fixed seeds (reproducible) and state their false-alarm rate: chi-square
goodness of fit at ALPHA = 1e-9, and mean/variance checks with Z = 6 standard errors (two-sided
2e-9 each; the standard error of a sample variance uses the sample fourth central moment). With the
~30 statistical checks here a correct implementation fails any on a fresh seed with probability
below 1e-7 (union bound).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import binom, chi2, chi2_contingency

from dpspec.spec.mechanisms import (
    AsymmetricRappor,
    BinaryRandomizedResponse,
    DiscreteGaussianMechanism,
    DiscreteLaplaceMechanism,
    KaryRandomizedResponse,
    SymmetricRappor,
    SymmetricRapporTextbook,
)
from dpspec.spec.mechanisms.exact import (
    GeometricSkip,
    binomial_cdf_interval,
    exp_neg_enclosure,
    geometric_skip_positions,
    rr_flip_enclosure,
)
from dpspec.spec.tape import RandomTape

ALPHA = 1e-9
Z = 6.0
SEED = bytes.fromhex("a5" * 32)


def tape(tag: str, seed: bytes = SEED) -> RandomTape:
    return RandomTape(seed, "tests/mechanisms/" + tag)


def mp(x: Fraction) -> mpmath.mpf:
    return mpmath.mpf(x.numerator) / x.denominator


def chi_square_p(observed: Sequence[int], probs: Sequence[float]) -> float:
    """p-value of a chi-square goodness-of-fit test (bins with expected count < 5 are pooled)."""
    n = sum(observed)
    pooled_o, pooled_e, acc_o, acc_e = [], [], 0, 0.0
    for o, p in zip(observed, probs, strict=True):
        acc_o += o
        acc_e += n * p
        if acc_e >= 5:
            pooled_o.append(acc_o)
            pooled_e.append(acc_e)
            acc_o, acc_e = 0, 0.0
    if acc_e > 0 or acc_o > 0:
        pooled_o[-1] += acc_o
        pooled_e[-1] += acc_e
    stat = sum((o - e) ** 2 / e for o, e in zip(pooled_o, pooled_e, strict=True))
    return float(chi2.sf(stat, len(pooled_o) - 1))


def check_mean_and_variance(samples: Sequence[float], mean: float, var: float) -> None:
    """Sample mean within Z standard errors of ``mean``; sample variance within Z of ``var``."""
    n = len(samples)
    m = math.fsum(samples) / n
    assert abs(m - mean) <= Z * math.sqrt(var / n), (m, mean)
    s2 = math.fsum((x - m) ** 2 for x in samples) / (n - 1)
    m4 = math.fsum((x - m) ** 4 for x in samples) / n
    se = math.sqrt(max(m4 - s2 * s2, 0.0) / n)
    assert abs(s2 - var) <= Z * se, (s2, var, se)


# -- exact enclosures ----------------------------------------------------------------------------
@given(st.fractions(min_value=0, max_value=40, max_denominator=1000))
def test_exp_neg_enclosure_brackets_the_value(x: Fraction) -> None:
    lo, hi = exp_neg_enclosure(x, 96)
    with mpmath.workdps(80):
        v = mpmath.exp(-mp(x))
        assert mp(lo) <= v <= mp(hi)
        if x:
            assert (hi - lo) / hi < Fraction(1, 2**80)


@pytest.mark.parametrize("eps", [Fraction(1, 10), Fraction(1), Fraction(5), Fraction(13, 2)])
def test_rr_flip_enclosure(eps: Fraction) -> None:
    lo, hi = rr_flip_enclosure(eps)
    with mpmath.workdps(80):
        p0 = 1 / (mpmath.exp(mp(eps)) + 1)
        assert mp(lo) < p0 < mp(hi)


def test_binomial_cdf_interval_matches_exact_rational_cdf() -> None:
    # For rational p the CDF is an exact rational: the interval must contain it and be tight.
    for n, p, j in [(30, Fraction(1, 7), 4), (30, Fraction(1, 7), 9), (200, Fraction(2, 5), 70),
                    (200, Fraction(2, 5), 95), (1, Fraction(1, 3), 0)]:
        exact = sum(Fraction(math.comb(n, i)) * p**i * (1 - p) ** (n - i) for i in range(j + 1))
        lo, hi = binomial_cdf_interval(n, j, p, p)
        assert lo <= exact <= hi
        assert hi - lo < Fraction(1, 2**100)
    assert binomial_cdf_interval(5, 5, Fraction(1, 3), Fraction(1, 2)) == (1, 1)
    assert binomial_cdf_interval(5, -1, Fraction(1, 3), Fraction(1, 2)) == (0, 0)


def test_binomial_cdf_interval_large_n() -> None:
    # n = 10^6 near the mean (Stirling branch), against a high-precision mpmath evaluation.
    pl, ph = rr_flip_enclosure(Fraction(1))
    n, j = 10**6, 269000
    lo, hi = binomial_cdf_interval(n, j, pl, ph)
    ref = binom.cdf(j, n, 1 / (math.e + 1))  # double precision: agreement to ~1e-12
    assert abs(float(lo) - ref) < 1e-11
    assert hi - lo < Fraction(1, 10**25)


# -- the geometric skip --------------------------------------------------------------------------
class ScriptedTape(RandomTape):
    """A tape that hands out given 64-bit chunks (to test the normative inversion rule)."""

    def __init__(self, chunks: list[int]) -> None:  # noqa: D107 - test double
        super().__init__(bytes(16), "scripted")
        self.chunks = list(chunks)

    def bits(self, k: int) -> int:
        assert k == 64
        self.bits_consumed += 64
        return self.chunks.pop(0)


def reference_gap(eps: Fraction, chunks: list[int]) -> int:
    """floor(ln U / ln q) with U = 0.c1c2... (in 64-bit digits), at 200 digits."""
    with mpmath.workdps(200):
        u = mpmath.mpf(0)
        for j, c in enumerate(chunks, 1):
            u += mpmath.mpf(c) * mpmath.mpf(2) ** (-64 * j)
        q = 1 / (1 + mpmath.exp(-mp(eps)))
        return int(mpmath.floor(mpmath.log(u) / mpmath.log(q)))


@pytest.mark.parametrize("eps", [Fraction(1, 3), Fraction(1), Fraction(5), Fraction(15, 2)])
@settings(max_examples=60)
@given(st.integers(1, 2**64 - 1), st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1))
def test_geometric_skip_is_the_stated_inversion(eps: Fraction, c: int, r1: int, r2: int) -> None:
    skip = GeometricSkip(eps)
    t = ScriptedTape([c, r1, r2])
    k = skip.sample(t)
    assert k == reference_gap(eps, [c, r1, r2])
    # Stopping rule: after n chunks the whole interval of U lies in one bucket.
    n = t.bits_consumed // 64
    top = 2**64 - 1
    prefix = [c, r1, r2][:n]
    assert reference_gap(eps, prefix + [0] * (3 - n) + [1]) == k
    assert reference_gap(eps, prefix + [top] * (4 - n)) == k
    if n > 1:  # and it was not decided earlier
        short = prefix[:-1]
        assert (reference_gap(eps, short + [0] * (4 - len(short)) + [1])
                != reference_gap(eps, short + [top] * (5 - len(short))))


@pytest.mark.parametrize("eps", [Fraction(1), Fraction(5)])
def test_geometric_skip_reads_more_chunks_when_needed(eps: Fraction) -> None:
    skip = GeometricSkip(eps)
    # U < 2^-64: the first chunk is zero, so the interval [0, 2^-64) holds infinitely many T_k.
    for second in [1, 12345, 2**63, 2**64 - 1]:
        t = ScriptedTape([0, second, 2**62 + 5, 7])
        assert skip.sample(t) == reference_gap(eps, [0, second, 2**62 + 5, 7])
        assert t.bits_consumed >= 128
    # A chunk whose interval straddles a bucket boundary: find one by bisection on T_1 = q.
    with mpmath.workdps(100):
        q = 1 / (1 + mpmath.exp(-mp(eps)))
        c = int(mpmath.floor(q * mpmath.mpf(2) ** 64))  # T_1 lies in [c, c + 1) 2^-64
    for second in [0, 2**63, 2**64 - 1]:
        t = ScriptedTape([c, second])
        assert skip.sample(t) == reference_gap(eps, [c, second])
        assert t.bits_consumed == 128


def test_geometric_skip_precision_and_table_fallbacks() -> None:
    eps = Fraction(3)
    normal = GeometricSkip(eps)
    coarse = GeometricSkip(eps, work=8)  # starts far too coarse: must raise its precision
    small_table = GeometricSkip(eps)
    small_table._TABLE_MAX = 4  # forces enclosures by powers beyond k = 3
    t1, t2, t3 = tape("g1"), tape("g1"), tape("g1")
    a = [normal.sample(t1) for _ in range(300)]
    assert a == [coarse.sample(t2) for _ in range(300)]
    assert a == [small_table.sample(t3) for _ in range(300)]
    assert max(a) > 4 * 20


@pytest.mark.parametrize("eps", [Fraction(1, 2), Fraction(2), Fraction(9, 2)])
def test_geometric_skip_distribution(eps: Fraction) -> None:
    skip = GeometricSkip(eps)
    t = tape(f"gdist/{eps}")
    n = 20000
    counts = Counter(skip.sample(t) for _ in range(n))
    p0 = float(1 / (mpmath.exp(mp(eps)) + 1))
    top = max(counts)
    probs = [(1 - p0) ** k * p0 for k in range(top)] + [(1 - p0) ** top]
    assert chi_square_p([counts.get(k, 0) for k in range(top + 1)], probs) > ALPHA


def test_skip_positions_cover_the_dimension() -> None:
    skip = GeometricSkip(Fraction(1, 4))
    pos = geometric_skip_positions(skip, 1000, tape("pos"))
    assert pos == sorted(set(pos)) and all(0 <= i < 1000 for i in pos)
    assert geometric_skip_positions(skip, 0, tape("pos")) == []


# -- symmetric RAPPOR ----------------------------------------------------------------------------
def pattern_counts(draw: Callable[[RandomTape], list[int]], t: RandomTape, n: int, d: int) -> list[int]:
    counts = [0] * (1 << d)
    for _ in range(n):
        v = draw(t)
        counts[sum(b << i for i, b in enumerate(v))] += 1
    return counts


def test_efficient_and_textbook_rappor_agree_in_distribution() -> None:
    eps0, d, n = Fraction(1, 2), 5, 20000
    eff, book = SymmetricRappor(eps0), SymmetricRapporTextbook(eps0)
    data = [1, 0, 0, 1, 0]
    c_eff = pattern_counts(lambda t: eff.add_noise(data, t), tape("agree/eff"), n, d)
    c_book = pattern_counts(lambda t: book.add_noise(data, t), tape("agree/book"), n, d)
    p0 = float(1 / (mpmath.exp(mp(eps0)) + 1))
    x = sum(b << i for i, b in enumerate(data))
    probs = [p0 ** bin(v ^ x).count("1") * (1 - p0) ** (d - bin(v ^ x).count("1"))
             for v in range(1 << d)]
    assert chi_square_p(c_eff, probs) > ALPHA
    assert chi_square_p(c_book, probs) > ALPHA
    # and directly against each other (two-sample chi-square on the 32 patterns)
    assert chi2_contingency([c_eff, c_book])[1] > ALPHA


def test_flip_counts_of_both_forms_are_binomial() -> None:
    """The number of flips in dimension 200 at EPSILON_0 = 3/2: Bin(200, p0) for both forms."""
    eps0, d, n = Fraction(3, 2), 200, 1500
    p0 = float(1 / (mpmath.exp(mp(eps0)) + 1))
    probs = [float(binom.pmf(k, d, p0)) for k in range(d + 1)]
    for cls in (SymmetricRappor, SymmetricRapporTextbook):
        m = cls(eps0)
        t = tape(f"count/{cls.FORM}")
        counts = Counter(len(m.flip_positions(d, t)) for _ in range(n))
        assert chi_square_p([counts.get(k, 0) for k in range(d + 1)], probs) > ALPHA


@pytest.mark.parametrize("cls", [SymmetricRappor, SymmetricRapporTextbook])
def test_add_noise_is_data_xor_sample_noise(cls: type[SymmetricRappor]) -> None:
    m = cls("3/2")
    data = [1, 0, 1, 1, 0, 0, 0, 1] * 10
    noise = m.sample_noise(len(data), tape("xor"))
    assert m.add_noise(data, tape("xor")) == [a ^ b for a, b in zip(data, noise, strict=True)]
    assert m.add_noise([True, False], tape("xor")) in ([0, 0], [0, 1], [1, 0], [1, 1])


def test_efficient_rappor_flip_rate() -> None:
    m = SymmetricRappor(5)
    d = 200000
    k = len(m.flip_positions(d, tape("rate")))
    p0 = float(m.flip_probability())
    assert abs(k - d * p0) <= Z * math.sqrt(d * p0 * (1 - p0))


def test_symmetric_debias_is_algorithm_4() -> None:
    m = SymmetricRappor(2)
    e = math.exp(2)
    out = m.debias([0, 7, 100], 100)
    for s, f in zip([0, 7, 100], out, strict=True):
        assert abs(float(f) - ((e + 1) * s - 100) / (e - 1)) < 1e-9


@pytest.mark.parametrize(("eps0", "sd"), [("5.0", "26.1337"), ("6.5", "12.2800"), ("7.0", "9.5580")])
def test_table_1_standard_deviations(eps0: str, sd: str) -> None:
    # Table 1 of the DP draft: n = 100000 clients, sqrt(n e^eps0 / (e^eps0 - 1)^2). The table's
    # figures are these values rounded up at the 4th decimal (26.13364 is printed 26.1337).
    got = mpmath.sqrt(SymmetricRappor(eps0).debiased_variance(100000))
    assert mpmath.ceil(got * 10**4) == int(sd.replace(".", ""))


def simulate(mech_add: Callable[[list[int], RandomTape], list[int]], inputs: list[list[int]],
             reps: int, t: RandomTape) -> list[list[int]]:
    """``reps`` aggregate sums of the noised inputs."""
    d = len(inputs[0])
    out = []
    for _ in range(reps):
        total = [0] * d
        for x in inputs:
            for i, b in enumerate(mech_add(x, t)):
                total[i] += b
        out.append(total)
    return out


def one_hot(i: int, d: int) -> list[int]:
    v = [0] * d
    v[i] = 1
    return v


def test_symmetric_rappor_unbiased_with_stated_variance() -> None:
    m = SymmetricRappor(1)
    n, d, reps = 120, 3, 600
    inputs = [one_hot(0, d)] * 80 + [one_hot(1, d)] * 40
    sums = simulate(m.add_noise, inputs, reps, tape("sym-mc"))
    var = float(m.debiased_variance(n))
    for j, truth in enumerate([80, 40, 0]):
        est = [float(m.debias(s, n)[j]) for s in sums]
        check_mean_and_variance(est, truth, var)


def test_asymmetric_rappor_unbiased_with_stated_variance_and_printed_constant_is_biased() -> None:
    m = AsymmetricRappor(1)
    n, d, reps = 120, 3, 600
    inputs = [one_hot(0, d)] * 80 + [one_hot(1, d)] * 40
    sums = simulate(m.add_noise, inputs, reps, tape("asym-mc"))
    e = math.e
    for j, truth in enumerate([80, 40, 0]):
        est = [float(m.debias(s, n)[j]) for s in sums]
        var = float(m.debiased_variance(n, truth))
        check_mean_and_variance(est, truth, var)
        # Algorithm 2 as printed subtracts n/(e^eps - 1) instead of 2n/(e^eps - 1): biased by
        # n/(e^eps - 1) ~ 70 here, far beyond Z standard errors (~0.6).
        printed = [2 * (e + 1) / (e - 1) * s[j] - n / (e - 1) for s in sums]
        mean = math.fsum(printed) / reps
        assert abs(mean - truth) > Z * math.sqrt(var / reps)


def test_asymmetric_rappor_coordinate_laws() -> None:
    m = AsymmetricRappor(2)
    t = tape("asym-law")
    n = 20000
    ones_at_1 = ones_at_0 = 0
    for _ in range(n):
        v = m.add_noise([1, 0], t)
        ones_at_1 += v[0]
        ones_at_0 += v[1]
    p0 = 1 / (math.exp(2) + 1)
    assert abs(ones_at_1 - n / 2) <= Z * math.sqrt(n / 4)
    assert abs(ones_at_0 - n * p0) <= Z * math.sqrt(n * p0 * (1 - p0))


# -- randomized response ---------------------------------------------------------------------------
def test_binary_rr_unbiased() -> None:
    m = BinaryRandomizedResponse("1/2")
    t = tape("brr")
    n, reps = 50, 2000
    bits = [1] * 30 + [0] * 20
    est = [float(m.debias(sum(m.add_noise(b, t) for b in bits), n)) for _ in range(reps)]
    check_mean_and_variance(est, 30, float(m.debiased_variance(n)))
    with pytest.raises(ValueError):
        m.sample_noise(2, t)


def test_kary_rr_law_and_debias() -> None:
    k, eps = 4, Fraction(3, 2)
    m = KaryRandomizedResponse(k, eps)
    t = tape("krr")
    n = 20000
    counts = Counter(m.add_noise(one_hot(2, k), t).index(1) for _ in range(n))
    pk, qk = (float(x) for x in m.response_probabilities())
    assert chi_square_p([counts.get(i, 0) for i in range(k)], [qk, qk, pk, qk]) > ALPHA
    # unbiased debias with the stated variance
    inputs = [one_hot(0, k)] * 30 + [one_hot(3, k)] * 10
    sums = simulate(m.add_noise, inputs, 1500, t)
    for j, truth in [(0, 30), (1, 0), (3, 10)]:
        est = [float(m.debias(s, 40)[j]) for s in sums]
        check_mean_and_variance(est, truth, float(m.debiased_variance(40, truth)))
    noise = Counter(m.sample_noise(k, t).index(1) for _ in range(4000))
    assert chi_square_p([noise.get(i, 0) for i in range(k)], [0.25] * 4) > ALPHA


# -- additive mechanisms ---------------------------------------------------------------------------
def test_discrete_laplace_mechanism() -> None:
    m = DiscreteLaplaceMechanism.from_epsilon("1/2", 2)
    assert m.scale == 4 and m.epsilon() == Fraction(1, 2)
    data = [5, -3, 0, 10**30]
    noise = m.sample_noise(4, tape("dlap"))
    assert m.add_noise(data, tape("dlap")) == [a + b for a, b in zip(data, noise, strict=True)]
    assert m.debias(data, 7) == data


def test_discrete_gaussian_mechanism_from_zcdp() -> None:
    m = DiscreteGaussianMechanism.from_zcdp("1/8", 2)
    assert m.sigma2 == 8 and m.rho() == Fraction(1, 8)
    data = [1, 2, 3]
    noise = m.sample_noise(3, tape("dg"))
    assert m.add_noise(data, tape("dg")) == [a + b for a, b in zip(data, noise, strict=True)]


# -- parameters ------------------------------------------------------------------------------------
@pytest.mark.parametrize("bad", [0.5, "0", "-1", True, "abc"])
def test_bad_epsilon_rejected(bad: object) -> None:
    with pytest.raises((TypeError, ValueError)):
        SymmetricRappor(bad)


def test_bad_data_rejected() -> None:
    m = SymmetricRappor(1)
    for bad in ([0, 2], [0.0], "01"):
        with pytest.raises((TypeError, ValueError)):
            m.add_noise(bad, tape("bad"))  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        m.sample_noise(-1, tape("bad"))
    with pytest.raises(ValueError):
        KaryRandomizedResponse(3, 1).add_noise([1, 1, 0], tape("bad"))


# -- properties ------------------------------------------------------------------------------------
@settings(max_examples=40)
@given(st.integers(1, 60), st.fractions(min_value=Fraction(1, 50), max_value=Fraction(49, 50),
                                         max_denominator=50), st.integers(-1, 61))
def test_binomial_cdf_interval_contains_the_exact_cdf(n: int, p: Fraction, j: int) -> None:
    exact = sum((Fraction(math.comb(n, i)) * p**i * (1 - p) ** (n - i)
                 for i in range(min(max(j, -1), n) + 1)), Fraction(0))
    lo, hi = binomial_cdf_interval(n, j, p, p)
    assert lo <= exact <= hi and hi - lo < Fraction(1, 2**90)


@settings(max_examples=30)
@given(st.fractions(min_value=Fraction(1, 10), max_value=9, max_denominator=20),
       st.integers(0, 3000), st.binary(min_size=16, max_size=32))
def test_flip_positions_are_sorted_distinct_and_in_range(eps0: Fraction, d: int, seed: bytes) -> None:
    m = SymmetricRappor(eps0)
    pos = m.flip_positions(d, RandomTape(seed, "prop"))
    assert pos == sorted(set(pos)) and all(0 <= i < d for i in pos)
    data = [i % 2 for i in range(d)]
    out = m.add_noise(data, RandomTape(seed, "prop"))
    assert [i for i in range(d) if out[i] != data[i]] == pos


def test_zcdp_calibration_at_tiny_targets() -> None:
    """The bisection for rho runs until its bracket is narrow, however small rho is (it stopped
    after 200 halvings of [0, 1] and failed with lo = 0 below 2^-200, e.g. at eps = delta = 1e-60);
    the rho found gives (eps, delta) and the next 12-digit value above it does not."""
    from dpspec.spec.accounting.definitions import zcdp_to_dp_epsilon
    from dpspec.spec.mechanisms.calibration import zcdp_rho_for_approx_dp
    from dpspec.spec.rational import format_rational

    eps = delta = Fraction(1, 10**60)
    rho = zcdp_rho_for_approx_dp(eps, delta)
    assert 0 < rho < Fraction(1, 2**200)
    exponent = math.floor(math.log10(rho.numerator) - math.log10(rho.denominator))
    if Fraction(10) ** exponent > rho:
        exponent -= 1
    above = rho + Fraction(10) ** (exponent - 11)  # the next value with 12 significant digits
    with mpmath.workdps(40):
        target = mpmath.mpf(1) / 10**60
        assert zcdp_to_dp_epsilon(format_rational(rho), "1e-60") <= target
        assert zcdp_to_dp_epsilon(format_rational(above), "1e-60") > target
