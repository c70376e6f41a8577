"""Exact (non-sampling) properties of the shuffled-model mechanisms of [GKMP20]."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dpspec.spec.shuffled import accuracy as acc
from dpspec.spec.shuffled.counting import CorrelatedMechanism, DistributedMechanism, Messages
from dpspec.spec.shuffled.divisible import (
    NegativeBinomial,
    ParameterError,
    Poisson,
    difference_pmf,
    geometric,
    rational,
)
from dpspec.spec.shuffled.histogram import HistogramMechanism


@pytest.fixture(autouse=True)
def _working_precision() -> Iterator[None]:
    """60 digits inside this module's tests only: a global ``mpmath.mp.dps`` set at import would
    leak into every other test of the session (and change what the library computes there)."""
    with mpmath.workdps(60):
        yield


TOL = mpmath.mpf(10) ** -35


def _pmf_array(d, terms: int) -> list[mpmath.mpf]:  # type: ignore[no-untyped-def]
    return [d.pmf(k, 60) for k in range(terms)]


def _convolve(a: list[mpmath.mpf], b: list[mpmath.mpf], terms: int) -> list[mpmath.mpf]:
    out = [mpmath.mpf(0)] * terms
    for i, x in enumerate(a[:terms]):
        if x == 0:
            continue
        for j in range(min(len(b), terms - i)):
            out[i + j] += x * b[j]
    return out


# -- parameters ----------------------------------------------------------------------------------
def test_rational_parameters() -> None:
    assert rational("0.25", "p") == Fraction(1, 4)
    assert rational("1/3", "p") == Fraction(1, 3)
    assert rational(7, "p") == 7
    assert rational("1e-3", "p") == Fraction(1, 1000)
    with pytest.raises(ParameterError, match="float"):
        rational(0.25, "p")
    with pytest.raises(ParameterError):
        rational(True, "p")
    with pytest.raises(ParameterError):
        rational("0x10", "p")
    with pytest.raises(ParameterError):
        rational("1/0", "p")
    with pytest.raises(ParameterError):
        NegativeBinomial(0, Fraction(1, 2))
    with pytest.raises(ParameterError):
        NegativeBinomial(1, 1)
    with pytest.raises(ParameterError):
        Poisson(-1)
    with pytest.raises(ParameterError):
        Poisson(3).share(0)


def test_moments_match_pmf() -> None:
    for d in [Poisson(Fraction(7, 2)), NegativeBinomial(Fraction(3, 10), Fraction(2, 3)),
              geometric(Fraction(2, 5)), NegativeBinomial(5, Fraction(1, 10))]:
        pmf = _pmf_array(d, 600)
        assert abs(mpmath.fsum(pmf) - 1) < TOL
        mean = mpmath.fsum(k * p for k, p in enumerate(pmf))
        var = mpmath.fsum(k * k * p for k, p in enumerate(pmf)) - mean**2
        assert abs(mean - mpmath.mpf(d.mean().numerator) / d.mean().denominator) < TOL
        assert abs(var - mpmath.mpf(d.variance().numerator) / d.variance().denominator) < 1e-30
        for k in (0, 3, 17):
            assert abs(d.sf(k, 60) - (1 - mpmath.fsum(pmf[: k + 1]))) < TOL


@pytest.mark.parametrize("d", [Poisson(Fraction(5, 2)), NegativeBinomial(2, Fraction(1, 3)),
                               geometric(Fraction(2, 5))])
def test_infinite_divisibility(d) -> None:  # type: ignore[no-untyped-def]
    """Definition 7: the n-fold convolution of D/n is D (checked exactly on a truncated support)."""
    n, terms = 5, 160
    share = _pmf_array(d.share(n), terms)
    total = share
    for _ in range(n - 1):
        total = _convolve(total, share, terms)
    target = _pmf_array(d, terms)
    assert max(abs(x - y) for x, y in zip(total, target, strict=True)) < TOL


def test_geometric_difference_is_discrete_laplace() -> None:
    """Sec. 4 of [GKMP20]: NB(1, a) - NB(1, a) is DLap with P[k] = (1-a)/(1+a) a^|k|."""
    a = Fraction(3, 7)
    g = geometric(a)
    for k in range(-6, 7):
        exact = (1 - a) / (1 + a) * a ** abs(k)
        got = difference_pmf(g, g, k, dps=40)
        assert abs(got - mpmath.mpf(exact.numerator) / exact.denominator) < mpmath.mpf(10) ** -38
    assert acc.dlap_variance(a) == g.variance() * 2


# -- Observations 9, 10, 16, 17 ----------------------------------------------------------------
def test_analyzer_error_distribution_by_convolution() -> None:
    """Observation 16, exactly: convolving the n users' message-count distributions gives an
    analyzer error distributed as (D1 - D2) - E[D1 - D2], whatever D3 and the inputs are."""
    n, terms = 4, 140
    a = Fraction(2, 5)
    mech = CorrelatedMechanism(geometric(a), geometric(a), NegativeBinomial(3, Fraction(1, 2)), n)
    s1, s2, _ = mech.shares()
    # Per user, U+ - U- = x + Z1 - Z2 (Z3 cancels); the inputs only shift the total by sum x, which
    # the error removes. Build the distribution of sum(Z1) and sum(Z2) from the shares.
    z1, z2 = _pmf_array(s1, terms), _pmf_array(s2, terms)
    sum1, sum2 = z1, z2
    for _ in range(n - 1):
        sum1, sum2 = _convolve(sum1, z1, terms), _convolve(sum2, z2, terms)
    bias = mech.bias()
    assert bias == 0
    for k in range(-8, 9):
        got = mpmath.fsum(sum1[j] * sum2[j - k] for j in range(max(0, k), terms)
                          if 0 <= j - k < terms)
        exact = (1 - a) / (1 + a) * a ** abs(k)
        assert abs(got - mpmath.mpf(exact.numerator) / exact.denominator) < TOL


def test_mse_and_messages_formulas() -> None:
    a = Fraction(43, 100)
    d3 = NegativeBinomial(Fraction(27, 10), Fraction(987, 1000))
    mech = CorrelatedMechanism(geometric(a), geometric(a), d3, 10_000)
    assert acc.mse_of(mech) == 2 * a / (1 - a) ** 2
    expect = (2 * a / (1 - a) + 2 * d3.mean()) / 10_000
    assert acc.expected_messages_of(mech) == 1 + expect
    assert acc.expected_messages_of(mech, 0) == expect
    pois = DistributedMechanism(Poisson(35), 10_000)
    assert acc.mse_of(pois) == 35
    assert acc.expected_messages_of(pois) == 1 + Fraction(35, 10_000)
    hist = HistogramMechanism(mech, 8)
    assert acc.expected_messages_histogram(hist.bucket, 8) == 1 + 8 * expect
    assert hist.message_bits == 4


@given(st.integers(min_value=1, max_value=10**6))
def test_dlap_decay_inverts_variance(numerator: int) -> None:
    a = mpmath.mpf(numerator) / 10**6 * mpmath.mpf("0.999")
    with mpmath.workdps(40):
        back = acc.dlap_decay_for_variance(acc.dlap_variance(a), dps=40)
    assert abs(back - a) < 1e-20


def test_central_dlap_rmse() -> None:
    a = mpmath.exp(-1)
    assert abs(acc.central_dlap_rmse(1) - mpmath.sqrt(2 * a / (1 - a) ** 2)) < 1e-25


def test_baseline_mse_formulas() -> None:
    p = Fraction(1, 20)
    assert acc.mse_randomized_response(p, 100) == 100 * p * (1 - p) / (1 - 2 * p) ** 2
    # B-ary RR with B = 2 is binary RR with flip probability gamma / 2
    g = Fraction(1, 10)
    assert acc.mse_bary_rr(g, 2, 100) == acc.mse_randomized_response(g / 2, 100)
    # the bucket-average formula is the mean of the per-bucket ones for any counts summing to n
    counts = [50, 30, 20, 0]
    mean = sum(acc.mse_bary_rr_bucket(g, 4, 100, c) for c in counts) / 4
    assert mean == acc.mse_bary_rr(g, 4, 100)
    assert acc.mse_rappor(Fraction(1, 4), 8) == 8 * Fraction(3, 16) * 4


# -- analyzers and validation ------------------------------------------------------------------
def test_analyzers() -> None:
    pois = DistributedMechanism(Poisson(Fraction(7, 2)), 3)
    assert pois.analyze(10) == Fraction(13, 2)
    assert pois.analyze(Messages(10)) == Fraction(13, 2)
    with pytest.raises(ParameterError):
        pois.analyze(Messages(10, 1))
    with pytest.raises(ParameterError):
        pois.analyze(-1)
    a, b = Fraction(1, 3), Fraction(1, 5)
    mech = CorrelatedMechanism(geometric(a), geometric(b), Poisson(1), 3)
    assert mech.bias() == Fraction(1, 2) - Fraction(1, 4)
    assert mech.analyze(Messages(10, 4)) == 6 - Fraction(1, 4)
    with pytest.raises(ParameterError):
        DistributedMechanism(Poisson(1), 0)
    with pytest.raises(ParameterError):
        DistributedMechanism(Poisson(1), 2, delta_sum=0)
    with pytest.raises(ParameterError):
        HistogramMechanism(mech, 0)
    with pytest.raises(ParameterError):
        HistogramMechanism(DistributedMechanism(Poisson(1), 2, delta_sum=2), 3)


# -- exact privacy of the correlated mechanism (spec.shuffled.exact) ----------------------------
@pytest.mark.parametrize("d3", [NegativeBinomial(3, Fraction(1, 2)), Poisson(Fraction(5, 2)),
                                NegativeBinomial(Fraction(1, 2), Fraction(7, 10))])
@pytest.mark.parametrize("eps", [1.1, 1.5, 2.5])
def test_correlated_delta_matches_brute_force(d3, eps: float) -> None:  # type: ignore[no-untyped-def]
    from dpspec.spec.shuffled.exact import _pmf_array, brute_force_correlated_delta, correlated_delta

    a = Fraction(1, 3)
    h, _ = _pmf_array(d3)
    assert correlated_delta(eps, a, d3) == pytest.approx(
        brute_force_correlated_delta(eps, a, list(h)), rel=1e-9, abs=1e-15)


@pytest.mark.parametrize("d3_pmf", [[1.0], [0.25, 0.5, 0.25]])
def test_correlated_delta_in_the_slack_covers_the_other_direction(d3_pmf: list[float]) -> None:
    """Below ln(1/a) (inside the 10^-12 slack) the other direction is no longer 0: its sum is
    positive and at most 1 - a e^eps, the bound the result never falls below; the formula's
    direction is unchanged."""
    import math

    from dpspec.spec.shuffled.exact import correlated_delta, hockey_stick_directions

    eps = math.log(2) - 9e-13
    one, two = hockey_stick_directions(eps, Fraction(1, 2), d3_pmf)
    # two is within rounding of the bound here (the ratio 1/a holds on almost all of P1's mass)
    assert 1e-13 < two <= (1 - 0.5 * math.exp(eps)) * (1 + 1e-6) < one
    if d3_pmf == [1.0]:
        assert correlated_delta(eps, Fraction(1, 2), Poisson(0)) >= max(one, two) * (1 - 1e-15)


def test_correlated_delta_returns_the_slack_bound_where_it_exceeds_the_formula() -> None:
    """a within 10^-12 of 1, eps = 0, D3 = Poisson(1): the formula is below 1 - a (each term
    h(m) - a(1 - a) G(m - 1) with m >= 1 is below h(m)), so the bound 1 - a e^0 = 1 - a is the
    result, in mpmath and in binary64 (a = 1 - 2^-41 is exact there)."""
    from dpspec.spec.shuffled.exact import correlated_delta, correlated_delta_mp

    near = Fraction(1999999999999, 2000000000000)
    with mpmath.workdps(60):
        got = correlated_delta_mp(0, near, Poisson(1))
        # 1 - a e^0 at dps + 10 = 50 digits keeps about 38 of them
        assert abs(got - mpmath.mpf("5e-13")) < mpmath.mpf(10) ** -48
    b64 = Fraction(2**41 - 1, 2**41)
    assert correlated_delta(0.0, b64, Poisson(1)) == 2.0**-41


@pytest.mark.parametrize("fn", ["correlated_delta", "correlated_delta_mp"])
def test_correlated_delta_refuses_negative_eps_inside_the_slack(fn: str) -> None:
    """eps = -5 10^-13 is within 10^-12 of ln(1/a) for a = 1 - 10^-13, but a e^eps < a^2 there: the
    terms past D3's support would be positive without end (the old code summed two of them)."""
    from dpspec.spec.shuffled import exact

    a = Fraction(9999999999999, 10000000000000)
    eps: float | Fraction = -5e-13 if fn == "correlated_delta" else Fraction(-1, 2 * 10**12)
    with pytest.raises(ParameterError, match="eps >= 0"):
        getattr(exact, fn)(eps, a, Poisson(1))
    if fn == "correlated_delta":  # binary64 eps: infinity and NaN too (inf x 0 used to give 1.0)
        for bad in (float("inf"), float("nan")):
            with pytest.raises(ParameterError, match="finite eps"):
                exact.correlated_delta(bad, Fraction(1, 2), Poisson(1))
    below = 0.6931471805579 if fn == "correlated_delta" else Fraction(6931471805579, 10**13)
    with pytest.raises(ParameterError, match="ln\\(1/a\\)"):
        getattr(exact, fn)(below, Fraction(1, 2), Poisson(1))


def test_correlated_delta_without_d3_is_one_minus_a() -> None:
    """With D3 = 0 the analyzer sees Z2 and can rule out s when s + Z1 = W + Z2 would be < 0."""
    from dpspec.spec.shuffled.exact import brute_force_correlated_delta, correlated_delta

    a = Fraction(2, 5)
    for eps in (1.0, 3.0, 10.0):
        assert correlated_delta(eps, a, Poisson(0)) == pytest.approx(float(1 - a))
        assert brute_force_correlated_delta(eps, a, [1.0]) == pytest.approx(float(1 - a))


def test_minimal_correlated_d3_is_private_and_minimal() -> None:
    from dpspec.spec.shuffled.exact import correlated_delta, minimal_correlated_d3

    a = Fraction(43, 100)
    d3 = minimal_correlated_d3(1.0, 1e-6, a)
    assert correlated_delta(1.0, a, d3) <= 1e-6
    smaller = NegativeBinomial(d3.r * Fraction(999, 1000), d3.p)
    assert correlated_delta(1.0, a, smaller) > 1e-6
    # sec. 5.1 of [GKMP20]: about 0.04 additional messages per user at eps = 1, delta = 1e-6, n = 1e4
    extra = acc.expected_messages_correlated(geometric(a), geometric(a), d3, 10_000) - 1
    assert 0.035 < extra < 0.045


@pytest.mark.parametrize(("eps", "a", "d3"), [
    (1, Fraction(43, 100), NegativeBinomial(Fraction(193827, 10000), Fraction(9112111, 10000000))),
    (Fraction(1, 2), Fraction(658, 1000), NegativeBinomial(Fraction(176, 10), Fraction(956, 1000))),
    (2, Fraction(1, 5), Poisson(300)),
    (1, Fraction(43, 100), NegativeBinomial(60, Fraction(95, 100))),  # delta about 2e-21
])
def test_correlated_delta_binary64_matches_mpmath(eps, a, d3) -> None:  # type: ignore[no-untyped-def]
    from dpspec.spec.shuffled.exact import correlated_delta, correlated_delta_mp

    fast = correlated_delta(float(eps), a, d3)
    ref = correlated_delta_mp(eps, a, d3)
    assert fast == pytest.approx(float(ref), rel=1e-9)
    assert 1e-22 < fast < 1e-2


@pytest.mark.parametrize(("r", "p", "p2"), [(Fraction(5, 2), Fraction(1, 3), Fraction(1, 2)),
                                            (Fraction(1, 7), Fraction(9, 10), Fraction(91, 100))])
def test_negative_binomial_grows_with_p_by_independent_noise(r: Fraction, p: Fraction,
                                                              p2: Fraction) -> None:
    """The rounding rule of dpspec.spec.shuffled.params: for p2 >= p, NB(r, p2) = NB(r, p) + X with X
    independent, X's generating function exp(r sum_k (p2^k - p^k)(z^k - 1)/k) (non-negative
    series). Checked on the first 60 coefficients."""
    terms = 60
    rr, q, q2 = (mpmath.mpf(x.numerator) / x.denominator for x in (r, p, p2))
    a = [mpmath.mpf(0)] + [rr * (q2**k - q**k) / k for k in range(1, terms)]
    b = [mpmath.exp(-sum(a[1:]) - rr * mpmath.fsum((q2**k - q**k) / k
                                                    for k in range(terms, 4000)))]
    for m in range(1, terms):  # exp of a power series: m b_m = sum_k k a_k b_(m-k)
        b.append(mpmath.fsum(k * a[k] * b[m - k] for k in range(1, m + 1)) / m)
    assert all(x >= 0 for x in b)
    base = _pmf_array(NegativeBinomial(r, p), terms)
    target = _pmf_array(NegativeBinomial(r, p2), terms)
    conv = _convolve(base, b, terms)
    assert max(abs(x - y) for x, y in zip(conv, target, strict=True)) < mpmath.mpf(10) ** -30
