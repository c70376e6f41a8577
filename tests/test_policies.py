"""dpspec.spec.policies: max_weight, honest overweight reports, run_vdaf_with_dp_policy over Prio3, the
histogram and SumVec policies, the App. B.1 hybrid.

Statistical checks use fixed seeds and Z = 6 standard errors (two-sided false alarm 2e-9 each)
or chi-square at ALPHA = 1e-9; about 15 such checks here, so below 1e-7 in all.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

import mpmath
import pytest
from scipy.stats import binom, chi2

from dpspec.spec.mechanisms import SymmetricRappor
from dpspec.spec.policies import (
    HistogramWithAggregatorRandomization,
    MultiHotHistogramWithClientRandomization,
    MultiHotHistogramWithClientRandomizationAndFill,
    PolicyRandomness,
    SumVecWithAggregatorRandomization,
    honest_overweight,
    max_weight,
    run_vdaf_with_dp_policy,
    to_signed,
)
from dpspec.spec.policies.base import add_integer_noise, wrap_bound
from dpspec.spec.samplers import discrete_gaussian_vector, discrete_laplace
from dpspec.spec.tape import RandomTape

Z = 6.0
ALPHA = 1e-9
SEED = bytes.fromhex("5a" * 32)
CTX = b"dpspec tests"


def run(policy: object, measurements: list[object], seed: bytes = SEED):  # type: ignore[no-untyped-def]
    r = PolicyRandomness.derive(seed, policy.vdaf, len(measurements))  # type: ignore[attr-defined]
    return run_vdaf_with_dp_policy(policy, policy.vdaf, CTX, None, measurements, r)  # type: ignore[arg-type,attr-defined]


# -- max_weight ------------------------------------------------------------------------------------
def brute_max_weight(d: int, eps0: Fraction, p: Fraction) -> int:
    """Reference at 60 digits with mpmath (the margins on these grids are far above 1e-40)."""
    with mpmath.workdps(60):
        p0 = 1 / (mpmath.exp(mpmath.mpf(eps0.numerator) / eps0.denominator) + 1)
        target = 1 - mpmath.mpf(p.numerator) / p.denominator
        cdf = mpmath.mpf(0)
        for j in range(d):
            cdf += mpmath.binomial(d - 1, j) * p0**j * (1 - p0) ** (d - 1 - j)
            if cdf >= target:
                return j + 1
    return d


@pytest.mark.parametrize("d", [1, 2, 3, 10, 100, 1000])
@pytest.mark.parametrize("eps0", [Fraction(1, 2), Fraction(1), Fraction(3), Fraction(8)])
@pytest.mark.parametrize("p", [Fraction(1, 2), Fraction(1, 100), Fraction(1, 10**9)])
def test_max_weight_is_the_smallest_m(d: int, eps0: Fraction, p: Fraction) -> None:
    assert max_weight(d, eps0, p) == brute_max_weight(d, eps0, p)


def test_max_weight_large_and_monotone() -> None:
    # d = 10^6 is decided in well under a second (the CDF is summed from the tail side only).
    m = max_weight(10**6, 5, "1e-9")
    p0 = 1 / (math.exp(5) + 1)
    assert binom.cdf(m - 1, 10**6 - 1, p0) >= 1 - 1e-9 > binom.cdf(m - 2, 10**6 - 1, p0)
    ms = [max_weight(1000, 2, f"1e-{k}") for k in range(1, 12)]
    assert ms == sorted(ms)
    assert max_weight(1000, 2, "1/2") <= max_weight(1000, "19/10", "1/2")


@pytest.mark.parametrize(("args", "err"), [((0, 1, "0.1"), ValueError), ((5, 0, "0.1"), ValueError),
                                          ((5, 1, "0"), ValueError), ((5, 1, 0.1), ValueError),
                                          ((5, 1.5, "0.1"), ValueError)])
def test_max_weight_rejects_bad_arguments(args: tuple[object, object, object], err: type) -> None:
    with pytest.raises(err):
        max_weight(*args)  # type: ignore[arg-type]


# -- honest reports over max_weight ------------------------------------------------------------------
def test_honest_overweight_rate_and_bias_by_monte_carlo() -> None:
    """d = 8, EPSILON_0 = 1, m = 3: about 23% of honest reports are too heavy (far above any sane
    p, to make the effect measurable). The dropped reports bias the debiased histogram exactly as
    :func:`honest_overweight` predicts."""
    d, eps0, m = 8, 1, 3
    an = honest_overweight(d, eps0, m)
    mech = SymmetricRappor(eps0)
    t = RandomTape(SEED, "tests/policies/overweight")
    n_clients, reps = 60, 800
    truth = [30, 20, 10, 0, 0, 0, 0, 0]
    inputs = [b for b, c in enumerate(truth) for _ in range(c)]
    rejected = 0
    est: list[list[float]] = []
    for _ in range(reps):
        total, kept = [0] * d, 0
        for x in inputs:
            v = [0] * d
            v[x] = 1
            noisy = mech.add_noise(v, t)
            if sum(noisy) > m:
                rejected += 1
                continue
            kept += 1
            for i, b in enumerate(noisy):
                total[i] += b
        est.append([float(f) for f in mech.debias(total, kept)])
    n = n_clients * reps
    rate = float(an.reject)
    assert abs(rejected - n * rate) <= Z * math.sqrt(n * rate * (1 - rate))
    assert float(an.reject) <= float(an.reject_model)
    var_bound = float(mech.debiased_variance(n_clients)) * 1.5  # kept <= n: variance no larger
    for j in [0, 2, 5]:
        predicted = truth[j] * (1 + float(an.bias_own)) + (n_clients - truth[j]) * float(an.bias_other)
        mean = math.fsum(e[j] for e in est) / reps
        sd = math.sqrt(math.fsum((e[j] - mean) ** 2 for e in est) / (reps - 1))
        assert abs(mean - predicted) <= Z * sd / math.sqrt(reps)
        assert abs(predicted - truth[j]) > 2 * Z * math.sqrt(var_bound / reps)  # the bias is real


def test_honest_overweight_at_the_policy_bound_is_tiny() -> None:
    m = max_weight(100, 5, "1e-9")
    an = honest_overweight(100, 5, m)
    assert an.reject <= an.reject_model <= mpmath.mpf("1e-9")
    assert abs(an.bias_own) < 1e-9 and abs(an.bias_other) < 1e-9


# -- run_vdaf_with_dp_policy -------------------------------------------------------------------------
def test_client_randomization_end_to_end() -> None:
    pol = MultiHotHistogramWithClientRandomization(length=6, eps0=2, p="1/1000")
    meas = [0, 1, 1, 5, 2, 2, 2, 0]
    tr = run(pol, meas)
    # Each Client's noised vector is RAPPOR from its own tape; the aggregate sums the kept ones.
    for i, rep in enumerate(tr.reports):
        tape = RandomTape(tr.randomness.client_noise_seeds[i], pol.CLIENT_TAG)
        v = [0] * 6
        v[meas[i]] = 1
        assert rep.noisy_measurement == [bool(b) for b in SymmetricRappor(2).add_noise(v, tape)]
    kept = [r for r in tr.reports if r.rejected is None]
    assert tr.meas_count == len(kept)
    assert tr.agg_result == [sum(int(r.noisy_measurement[i]) for r in kept) for i in range(6)]
    assert tr.noised_agg_shares == tr.agg_shares  # no Aggregator noise in this policy
    assert tr.debiased_result == SymmetricRappor(2).debias(tr.agg_result, tr.meas_count)
    # every random input is explicit: the same randomness gives the same transcript
    again = run(pol, meas)
    assert again.agg_result == tr.agg_result and again.agg_shares == tr.agg_shares


def test_overweight_honest_report_is_not_uploaded() -> None:
    pol = MultiHotHistogramWithClientRandomization(length=8, eps0="1/2", p="1/2")
    assert pol.max_weight < 8
    tr = run(pol, [3] * 12)
    heavy = [r for r in tr.reports if sum(r.noisy_measurement) > pol.max_weight]
    assert heavy, "this seed should produce at least one overweight report"
    for r in heavy:
        assert r.rejected is not None and "cannot shard" in r.rejected and r.vdaf is None
    assert tr.meas_count == 12 - len(heavy)


def test_aggregator_gaussian_end_to_end_and_signed_debias() -> None:
    pol = HistogramWithAggregatorRandomization(length=5, sigma2=36)
    meas = [0, 0, 1, 4, 4, 4]
    tr = run(pol, meas)
    q = pol.vdaf.field.MODULUS
    noise = [discrete_gaussian_vector(RandomTape(s, pol.AGGREGATOR_TAG), 36, 5)
             for s in tr.randomness.aggregator_noise_seeds]
    truth = [2, 1, 0, 0, 3]
    expected = [truth[i] + noise[0][i] + noise[1][i] for i in range(5)]
    assert tr.debiased_result == expected
    assert tr.agg_result == [x % q for x in expected]
    assert any(x < 0 for x in expected) or any(n < 0 for v in noise for n in v)


def test_to_signed_and_wrap_around() -> None:
    q = 2**61 - 1
    assert to_signed(5, q) == 5 and to_signed(q - 3, q) == -3
    assert to_signed((q - 1) // 2, q) == (q - 1) // 2
    assert to_signed((q + 1) // 2, q) == -((q - 1) // 2)
    # A noisy count beyond (q-1)/2 comes back off by q: the documented wrap-around.
    c, z = 10, (q - 1) // 2
    assert to_signed((c + z) % q, q) == c + z - q
    assert wrap_bound(q, 10) == (q - 1) // 2 - 10
    for zz in [-wrap_bound(q, 10), wrap_bound(q, 10)]:
        for cc in [0, 10]:
            assert to_signed((cc + zz) % q, q) == cc + zz


def test_add_integer_noise_is_modular() -> None:
    pol = HistogramWithAggregatorRandomization(length=3, sigma2=1)
    field = pol.vdaf.field
    share = [field(1), field(0), field(field.MODULUS - 1)]
    out = add_integer_noise(share, [-2, 5, 1])
    assert [x.int() for x in out] == [field.MODULUS - 1, 5, 0]
    with pytest.raises(ValueError):
        add_integer_noise(share, [1])


def test_sumvec_laplace_end_to_end() -> None:
    pol = SumVecWithAggregatorRandomization(length=3, max_measurement=7, noise="laplace",
                                            epsilon="1/2")
    assert pol.l1_sensitivity == 21 and pol.mechanism.scale == 42
    meas = [[1, 2, 3], [7, 0, 7], [0, 0, 1]]
    tr = run(pol, meas)
    noise = []
    for s in tr.randomness.aggregator_noise_seeds:
        t = RandomTape(s, pol.AGGREGATOR_TAG)
        noise.append([discrete_laplace(t, 42) for _ in range(3)])
    assert tr.debiased_result == [8 + noise[0][0] + noise[1][0], 2 + noise[0][1] + noise[1][1],
                                  11 + noise[0][2] + noise[1][2]]
    g = pol.guarantee(3)
    assert g["epsilon"] == "1/2"


def test_sumvec_gaussian_rho() -> None:
    pol = SumVecWithAggregatorRandomization(length=4, max_measurement=3, noise="gaussian", rho="1/2")
    assert pol.l2_sensitivity_squared == 36 and pol.mechanism.sigma2 == 36
    tr = run(pol, [[3, 3, 3, 3], [0, 1, 2, 3]])
    assert len(tr.debiased_result) == 4


@pytest.mark.parametrize("kwargs", [
    {"noise": "laplace", "rho": 1}, {"noise": "gaussian", "epsilon": 1},
    {"noise": "gaussian", "sigma2": 2, "rho": 1}, {"noise": "uniform", "scale": 1},
    {"noise": "laplace", "epsilon": 0.5},
])
def test_sumvec_rejects_inconsistent_parameters(kwargs: dict[str, object]) -> None:
    with pytest.raises((ValueError, TypeError)):
        SumVecWithAggregatorRandomization(length=2, max_measurement=1, **kwargs)  # type: ignore[arg-type]


# -- App. B.1 hybrid ---------------------------------------------------------------------------------
def test_fill_noise_law_is_the_missing_clients_responses() -> None:
    """One Aggregator's fill for ``missing`` Clients: per coordinate Bin(missing, p0), independent."""
    pol = MultiHotHistogramWithClientRandomizationAndFill(length=4, eps0=1, target_count=25)
    p0 = 1 / (math.e + 1)
    missing = pol.missing(5)
    assert missing == 20
    counts: list[Counter[int]] = [Counter() for _ in range(4)]
    t = RandomTape(SEED, "tests/policies/fill")
    reps = 4000
    for _ in range(reps):
        for i, c in enumerate(pol.fill_noise(5, t)):
            counts[i][c] += 1
    for i in range(4):
        obs = [counts[i].get(k, 0) for k in range(missing + 1)]
        probs = [binom.pmf(k, missing, p0) for k in range(missing + 1)]
        exp = [reps * p for p in probs]
        # pool sparse tails
        o2, e2, ao, ae = [], [], 0, 0.0
        for o, e in zip(obs, exp, strict=True):
            ao += o
            ae += e
            if ae >= 5:
                o2.append(ao)
                e2.append(ae)
                ao, ae = 0, 0.0
        o2[-1] += ao
        e2[-1] += ae
        stat = sum((o - e) ** 2 / e for o, e in zip(o2, e2, strict=True))
        assert chi2.sf(stat, len(o2) - 1) > ALPHA
    assert pol.fill_noise(25, t) == [0, 0, 0, 0] and pol.missing(30) == 0


def test_hybrid_is_unbiased_with_target_count_noise() -> None:
    """n = 10 real Clients, target 40: the debiased estimate is unbiased and at least as noisy as
    40 Clients' RAPPOR (its variance is that of n + 2 * missing = 70 responses)."""
    pol = MultiHotHistogramWithClientRandomizationAndFill(length=3, eps0=1, target_count=40)
    mech = pol.rappor
    t = RandomTape(SEED, "tests/policies/hybrid")
    n, reps = 10, 1500
    truth = [6, 4, 0]
    est = []
    for _ in range(reps):
        total = [0, 0, 0]
        for b, c in enumerate(truth):
            for _ in range(c):
                v = [0, 0, 0]
                v[b] = 1
                for i, x in enumerate(mech.add_noise(v, t)):
                    total[i] += x
        for _agg in range(pol.vdaf.SHARES):
            for i, x in enumerate(pol.fill_noise(n, t)):
                total[i] += x
        est.append([float(f) for f in pol.debias_agg_result(total, n)])
    var = float(mech.debiased_variance(n + 2 * 30))
    assert var >= float(mech.debiased_variance(40))
    for j in range(3):
        xs = [e[j] for e in est]
        mean = math.fsum(xs) / reps
        assert abs(mean - truth[j]) <= Z * math.sqrt(var / reps)
        s2 = math.fsum((x - mean) ** 2 for x in xs) / (reps - 1)
        m4 = math.fsum((x - mean) ** 4 for x in xs) / reps
        assert abs(s2 - var) <= Z * math.sqrt((m4 - s2 * s2) / reps)


def test_hybrid_end_to_end() -> None:
    pol = MultiHotHistogramWithClientRandomizationAndFill(length=5, eps0=2, target_count=12)
    tr = run(pol, [0, 1, 2, 3])
    fills = [pol.fill_noise(tr.meas_count, RandomTape(s, pol.AGGREGATOR_TAG))
             for s in tr.randomness.aggregator_noise_seeds]
    kept = [r for r in tr.reports if r.rejected is None]
    client_sum = [sum(int(r.noisy_measurement[i]) for r in kept) for i in range(5)]
    assert tr.agg_result == [client_sum[i] + fills[0][i] + fills[1][i] for i in range(5)]
    total = tr.meas_count + 2 * (12 - tr.meas_count)
    assert tr.debiased_result == pol.rappor.debias(tr.agg_result, total)
    assert pol.guarantee(tr.meas_count)["filled_by_each_aggregator"] == 12 - tr.meas_count


def test_randomness_derivation_is_explicit_and_checked() -> None:
    pol = MultiHotHistogramWithClientRandomization(length=3, eps0=1)
    r = PolicyRandomness.derive(SEED, pol.vdaf, 2)
    assert len(r.verify_key) == pol.vdaf.VERIFY_KEY_SIZE and len(set(r.nonces)) == 2
    assert r.client_noise_seeds[0] != r.client_noise_seeds[1]
    with pytest.raises(ValueError):
        PolicyRandomness.derive(b"short", pol.vdaf, 1)
    with pytest.raises(ValueError):
        run_vdaf_with_dp_policy(pol, pol.vdaf, CTX, None, [0, 1, 2], r)


@pytest.mark.parametrize("field", ["verify_key", "nonce", "rand"])
def test_randomness_of_the_wrong_size_is_refused_not_a_rejected_report(field: str) -> None:
    """A short verify key, nonce or rand is the caller's error: refused before any report is
    run (it used to be recorded as a report the Client "cannot shard", and the run went on)."""
    import dataclasses

    pol = SumVecWithAggregatorRandomization(length=3, max_measurement=2, noise="laplace",
                                            epsilon=1)
    r = PolicyRandomness.derive(SEED, pol.vdaf, 2)
    bad = {"verify_key": {"verify_key": r.verify_key[:-1]},
           "nonce": {"nonces": [r.nonces[0], r.nonces[1][:-1]]},
           "rand": {"rands": [r.rands[0] + b"\0", r.rands[1]]}}[field]
    with pytest.raises(ValueError, match=field.replace("_", " ")):
        run_vdaf_with_dp_policy(pol, pol.vdaf, CTX, None, [[1, 1, 1], [2, 0, 0]],
                                dataclasses.replace(r, **bad))


@pytest.mark.parametrize("meas", [[1, 1.5, 0], [1, True, 0], ["1", 0, 0]])
def test_sumvec_measurement_coordinates_must_be_integers(meas: list[object]) -> None:
    """A float coordinate used to be truncated (1.5 -> 1), a string parsed: now refused."""
    pol = SumVecWithAggregatorRandomization(length=3, max_measurement=2, noise="laplace",
                                            epsilon=1)
    with pytest.raises(ValueError):
        pol.encode_measurement(meas)


@pytest.mark.parametrize("meas", [[0, 1.0, 0], [False, True, False]])
def test_one_hot_list_entries_must_be_integers(meas: list[object]) -> None:
    pol = MultiHotHistogramWithClientRandomization(length=3, eps0=1)
    assert pol.encode_measurement([0, 1, 0]) == [0, 1, 0]
    with pytest.raises(ValueError):
        pol.encode_measurement(meas)
