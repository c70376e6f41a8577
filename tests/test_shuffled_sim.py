"""Seeded simulations of the shuffled-model protocols of [GKMP20] against their exact laws.

Every statistical test uses fixed seeds (so it is deterministic, never flaky) and a significance
level ALPHA = 1e-7: were the implementation correct and the seeds fresh, a false alarm would occur
with probability below 1e-7 per test (chi-square goodness of fit on bins with expected count >= 5,
tails pooled; mean tests with a 6-sigma bound, two-sided false-alarm rate about 2e-9).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from dpspec.spec.shuffled import accuracy as acc
from dpspec.spec.shuffled.baselines import BaryRandomizedResponse, RandomizedResponse, Rappor
from dpspec.spec.shuffled.counting import CorrelatedMechanism, DistributedMechanism, run_protocol
from dpspec.spec.shuffled.divisible import NegativeBinomial, Poisson, geometric
from dpspec.spec.shuffled.histogram import HistogramMechanism
from dpspec.spec.tape import RandomTape

ALPHA = 1e-7


def seed(*parts: object) -> bytes:
    return hashlib.sha256("/".join(map(str, ("test_shuffled_sim",) + parts)).encode()).digest()


def chi_square_p(observed: Counter[int], pmf: Callable[[int], float], total: int) -> float:
    """p-value of Pearson's chi-square test of ``observed`` against ``pmf`` (support searched
    over a window around the observations; bins with expectation < 5 pooled into their tail)."""
    lo, hi = min(observed) - 50, max(observed) + 50
    expected = {k: float(pmf(k)) * total for k in range(lo, hi + 1)}
    bins: list[tuple[float, int]] = []
    acc_e, acc_o = 0.0, 0
    for k in range(lo, hi + 1):
        acc_e += expected[k]
        acc_o += observed.get(k, 0)
        if acc_e >= 5:
            bins.append((acc_e, acc_o))
            acc_e, acc_o = 0.0, 0
    # the remaining mass (right tail and anything outside the window) joins the last bin
    rest_e = total - sum(e for e, _ in bins)
    rest_o = total - sum(o for _, o in bins)
    e_last, o_last = bins.pop()
    bins.append((e_last + rest_e, o_last + rest_o))
    statistic = sum((o - e) ** 2 / e for e, o in bins)
    return float(stats.chi2.sf(statistic, len(bins) - 1))


def dlap(a: Fraction) -> Callable[[int], float]:
    return lambda k: float((1 - a) / (1 + a) * a ** abs(k))


# -- Observation 16 and Algorithm 4: the analyzer's error is (D1 - D2) - E[D1 - D2] ----------------
def test_correlated_error_is_discrete_laplace_by_simulation() -> None:
    a = Fraction(2, 5)
    mech = CorrelatedMechanism(geometric(a), geometric(a), NegativeBinomial(3, Fraction(1, 2)), 5)
    inputs = [1, 0, 1, 1, 0]
    runs = 4000
    errors: Counter[int] = Counter()
    messages = 0
    for t in range(runs):
        tapes = [RandomTape(seed("corr", t, i), "ghazi/correlated") for i in range(5)]
        view, estimate = run_protocol(mech, inputs, tapes)
        err = estimate - sum(inputs)
        assert err.denominator == 1
        errors[int(err)] += 1
        messages += view.total
    assert chi_square_p(errors, dlap(a), runs) > ALPHA
    # Observation 17 (exact expectation, not only the bound): sum over users of
    # x + (E[D1] + E[D2] + 2 E[D3]) / n; per run the variance is Var[D1] + Var[D2] + 4 Var[D3]
    mean = sum(acc.expected_messages_of(mech, x) for x in inputs)
    var = mech.d1.variance() + mech.d2.variance() + 4 * mech.d3.variance()
    z = (messages - runs * mean) / (runs * var) ** 0.5
    assert abs(float(z)) < 6


def test_asymmetric_correlated_error_has_its_mean_removed() -> None:
    """D1 != D2: the analyzer subtracts E[D1 - D2]; the error is (D1 - D2) - E[D1 - D2]."""
    d1, d2 = NegativeBinomial(2, Fraction(1, 3)), geometric(Fraction(1, 5))
    mech = CorrelatedMechanism(d1, d2, Poisson(40), 3)
    runs = 3000
    errors: Counter[Fraction] = Counter()
    for t in range(runs):
        tapes = [RandomTape(seed("asym", t, i), "ghazi/correlated") for i in range(3)]
        _, estimate = run_protocol(mech, [0, 1, 1], tapes)
        errors[estimate - 2] += 1
    bias = mech.bias()
    shifted: Counter[int] = Counter()
    for e, c in errors.items():
        assert (e + bias).denominator == 1
        shifted[int(e + bias)] += c
    with mpmath.workdps(30):
        table = {k: float(_diff_pmf(d1, d2, k)) for k in range(-40, 60)}
    assert chi_square_p(shifted, lambda k: table.get(k, 0.0), runs) > ALPHA


def _diff_pmf(d1: NegativeBinomial, d2: NegativeBinomial, k: int) -> mpmath.mpf:
    from dpspec.spec.shuffled.divisible import difference_pmf

    return difference_pmf(d1, d2, k, dps=25)


def test_distributed_error_by_simulation() -> None:
    """Observation 9: the Poisson mechanism's count is sum x + Poi(lambda)."""
    lam = Fraction(7, 2)
    mech = DistributedMechanism(Poisson(lam), 4)
    runs = 4000
    noise: Counter[int] = Counter()
    for t in range(runs):
        tapes = [RandomTape(seed("pois", t, i), "ghazi/distributed") for i in range(4)]
        view, estimate = run_protocol(mech, [1, 1, 0, 1], tapes)
        assert estimate == view.plus - lam
        noise[view.plus - 3] += 1
    assert chi_square_p(noise, lambda k: float(Poisson(lam).pmf(k)) if k >= 0 else 0.0,
                        runs) > ALPHA


def test_negative_binomial_mechanism_delta_summation() -> None:
    mech = DistributedMechanism(NegativeBinomial(Fraction(5, 2), Fraction(2, 3)), 6, delta_sum=3)
    runs = 3000
    noise: Counter[int] = Counter()
    for t in range(runs):
        tapes = [RandomTape(seed("nb", t, i), "ghazi/distributed") for i in range(6)]
        view, _ = run_protocol(mech, [3, 0, 2, 1, 3, 3], tapes)
        noise[view.plus - 12] += 1
    assert chi_square_p(noise, lambda k: float(mech.noise.pmf(k)) if k >= 0 else 0.0,
                        runs) > ALPHA


def test_histogram_errors_by_simulation() -> None:
    """Each bucket's error is an independent discrete Laplace; the expected messages per user is
    1 + B (E[D1] + E[D2] + 2 E[D3]) / n."""
    a = Fraction(1, 3)
    bucket = CorrelatedMechanism(geometric(a), geometric(a), NegativeBinomial(2, Fraction(1, 2)), 3)
    hist = HistogramMechanism(bucket, 4)
    inputs = [2, 0, 2]
    truth = [1, 0, 2, 0]
    runs = 1500
    errors: list[Counter[int]] = [Counter() for _ in range(4)]
    pairs: Counter[tuple[int, int]] = Counter()
    messages = 0
    for t in range(runs):
        outs = [hist.randomize(x, RandomTape(seed("hist", t, i), "ghazi/histogram"))
                for i, x in enumerate(inputs)]
        messages += sum(m.total for out in outs for m in out)
        est = hist.analyze(hist.shuffle(outs))
        errs = [int(e - c) for e, c in zip(est, truth, strict=True)]
        for j in range(4):
            errors[j][errs[j]] += 1
        pairs[(errs[0], errs[1])] += 1
    for j in range(4):
        assert chi_square_p(errors[j], dlap(a), runs) > ALPHA
    per_user = acc.expected_messages_histogram(bucket, 4)
    var_user = 4 * (bucket.d1.variance() + bucket.d2.variance() + 4 * bucket.d3.variance()) / 3
    z = (messages - runs * 3 * per_user) / (runs * 3 * var_user) ** 0.5
    assert abs(float(z)) < 6
    # buckets 0 and 1 are independent: chi-square test of independence on the central 3x3 cells
    table = [[pairs[(u, v)] for v in (-1, 0, 1)] for u in (-1, 0, 1)]
    assert stats.chi2_contingency(table).pvalue > ALPHA


# -- baselines -------------------------------------------------------------------------------------
def test_randomized_response_mse() -> None:
    p, n = Fraction(1, 10), 50
    rr = RandomizedResponse(p, n)
    runs = 2000
    inputs = [i % 3 == 0 for i in range(n)]
    ones: Counter[int] = Counter()
    sq = Fraction(0)
    for t in range(runs):
        tape = RandomTape(seed("rr", t), "test/rr")
        c = sum(rr.randomize(int(x), tape) for x in inputs)
        ones[c] += 1
        sq += (rr.analyze(c) - sum(inputs)) ** 2
    # the count is Bin(17, 9/10) + Bin(33, 1/10): check its law exactly
    law = _poisson_binomial([Fraction(9, 10)] * 17 + [Fraction(1, 10)] * 33)
    assert chi_square_p(ones, lambda k: float(law.get(k, 0)), runs) > ALPHA
    mse = acc.mse_randomized_response(p, n)
    assert abs(float(sq / runs / mse) - 1) < 0.2  # 6 sigma for 2000 runs of a near-Gaussian


def _poisson_binomial(ps: list[Fraction]) -> dict[int, Fraction]:
    law = {0: Fraction(1)}
    for p in ps:
        nxt: dict[int, Fraction] = {}
        for k, v in law.items():
            nxt[k] = nxt.get(k, Fraction(0)) + v * (1 - p)
            nxt[k + 1] = nxt.get(k + 1, Fraction(0)) + v * p
        law = nxt
    return law


def test_bary_rr_and_rappor_reports() -> None:
    brr = BaryRandomizedResponse(Fraction(3, 5), 5, 1)
    runs = 5000
    reports: Counter[int] = Counter()
    for t in range(runs):
        reports[brr.randomize(2, RandomTape(seed("brr", t), "test/brr"))] += 1
    own = 1 - Fraction(3, 5) + Fraction(3, 25)
    assert chi_square_p(reports, lambda k: float(own if k == 2 else Fraction(3, 25))
                        if 0 <= k < 5 else 0.0, runs) > ALPHA
    rap = Rappor(Fraction(1, 4), 3, 1)
    vectors: Counter[int] = Counter()
    for t in range(runs):
        bits = rap.randomize(1, RandomTape(seed("rappor", t), "test/rappor"))
        vectors[bits[0] + 2 * bits[1] + 4 * bits[2]] += 1
    def law(k: int) -> float:
        if not 0 <= k < 8:
            return 0.0
        bits = [(k >> j) & 1 for j in range(3)]
        truth = [0, 1, 0]
        pr = Fraction(1)
        for b, x in zip(bits, truth, strict=True):
            pr *= Fraction(1, 4) if b != x else Fraction(3, 4)
        return float(pr)
    assert chi_square_p(vectors, law, runs) > ALPHA


@pytest.mark.parametrize("x", [0, 1])
def test_randomize_is_deterministic_given_the_seed(x: int) -> None:
    a = Fraction(43, 100)
    mech = CorrelatedMechanism(geometric(a), geometric(a), NegativeBinomial(27, Fraction(1, 2)), 2)
    s = seed("det", x)
    assert mech.randomize_seeded(x, s) == mech.randomize_seeded(x, s)
    assert mech.randomize(x, RandomTape(s, "ghazi/correlated")) == mech.randomize_seeded(x, s)


@given(st.binary(min_size=16, max_size=40), st.integers(min_value=0, max_value=1))
@settings(max_examples=60)
def test_randomizer_structure(seed_bytes: bytes, x: int) -> None:
    """Algorithm 3's output is (x + Z1 + Z3, Z2 + Z3) for the draws Z1, Z2, Z3 taken from the same
    tape in that order; the histogram's buckets are the binary randomizer on [x == j] in order."""
    a = Fraction(1, 2)
    mech = CorrelatedMechanism(geometric(a), geometric(a), NegativeBinomial(5, Fraction(1, 3)), 2)
    z1, z2, z3 = mech.sample_noise(RandomTape(seed_bytes, "ghazi/correlated"))
    out = mech.randomize_seeded(x, seed_bytes)
    assert (out.plus, out.minus) == (x + z1 + z3, z2 + z3)
    hist = HistogramMechanism(mech, 3)
    tape = RandomTape(seed_bytes, "ghazi/histogram")
    expect = [mech.randomize(1 if j == 2 else 0, tape) for j in range(3)]
    assert hist.randomize_seeded(2, seed_bytes) == expect
    assert hist.analyze(hist.shuffle([expect]))[2] == expect[2].plus - expect[2].minus
