"""dpspec.spec.accounting: exact values against brute force, Google's dp-accounting, and properties."""

from __future__ import annotations

import math
from fractions import Fraction

import dp_accounting
import mpmath
import numpy as np
import pytest
from dp_accounting.pld import privacy_loss_mechanism
from dp_accounting.rdp import rdp_privacy_accountant
from hypothesis import given, settings
from hypothesis import strategies as st

from dpspec.spec.accounting import (
    budget,
    composition,
    definitions,
    discrete,
    gaussian,
    ghazi,
    numeric,
    shuffle,
    subsampling,
)
from dpspec.spec.distributions import discrete_gaussian_pmf, negative_binomial_pmf, poisson_pmf

mp = mpmath.mpf


@pytest.fixture(autouse=True)
def _precision() -> object:
    """Test constants at the library's working precision (40 digits)."""
    with mpmath.workdps(numeric.DPS):
        yield


# -- numeric --------------------------------------------------------------------------------
def test_round_sig_directions() -> None:
    assert numeric.round_up(mp("23.390729406821773"), 10) == "23.39072941"
    assert numeric.round_down(mp("23.390729406821773"), 10) == "23.39072940"
    assert numeric.round_up(mp("0.000123451"), 4) == "0.0001235"
    assert numeric.round_up(mp(5), 3) == "5.00"
    assert numeric.round_up(mp("-1.5"), 1) == "-1"


def test_parse() -> None:
    assert numeric.to_fraction("0.317") == Fraction(317, 1000)
    assert numeric.to_fraction("1e-9") == Fraction(1, 10**9)
    assert numeric.to_fraction("1/3") == Fraction(1, 3)
    assert numeric.mpf("sqrt(2)") == mpmath.sqrt(2)
    with pytest.raises(ValueError):
        numeric.to_fraction("abc")
    with pytest.raises(ValueError):
        numeric.to_fraction(float("nan"))
    with pytest.raises(TypeError):
        numeric.to_fraction(True)


# -- definitions ----------------------------------------------------------------------------
def test_hockey_stick_randomized_response() -> None:
    e0 = mpmath.log(3)
    p = [mp(3) / 4, mp(1) / 4]
    q = [mp(1) / 4, mp(3) / 4]
    assert definitions.dp_delta(p, q, e0) < mp(10) ** -35
    assert abs(definitions.dp_delta(p, q, 0) - mp(1) / 2) < mp(10) ** -35
    # Renyi of order 2: log(sum p^2/q) = log(9/4 + 1/12)
    assert abs(definitions.renyi_divergence(p, q, 2) - mpmath.log(mp(9) / 4 + mp(1) / 12)) < 1e-30


@pytest.mark.parametrize("p, q", [
    (["1"], ["0.5", "0.5"]),              # Renyi used to return inf before seeing the extra point
    (["0.5", "0.5", "0"], ["0.5", "0.5"]),
    (["1.5", "-0.5"], ["0.5", "0.5"]),    # sums to 1 but is no distribution
    (["0.5", "0.5"], ["1.5", "-0.5"]),
    (["0.5", "0.5"], ["-0.25", "1.25"]),
])
def test_divergences_refuse_what_is_not_a_pair_of_mass_vectors(p: list[str], q: list[str]) -> None:
    with pytest.raises(ValueError, match="same support|>= 0"):
        definitions.hockey_stick(p, q, 0)
    with pytest.raises(ValueError, match="same support|>= 0"):
        definitions.dp_delta(p, q, "0.5")
    with pytest.raises(ValueError, match="same support|>= 0"):
        definitions.renyi_divergence(p, q, 2)


def test_improved_conversion_never_worse_than_mironov() -> None:
    for a in (1.5, 2, 10, 100):
        for r in (0.01, 0.5, 3):
            assert (definitions.rdp_to_dp_epsilon(r, a, "1e-6")
                    <= definitions.rdp_to_dp_epsilon(r, a, "1e-6", improved=False))


def test_rdp_delta_inverts_epsilon() -> None:
    e = definitions.rdp_to_dp_epsilon("0.3", 12, "1e-7")
    assert abs(definitions.rdp_to_dp_delta("0.3", 12, e) - mp("1e-7")) < mp("1e-30")


@settings(max_examples=60)
@given(st.floats(0.3, 30), st.floats(1.1, 200), st.sampled_from([1e-3, 1e-6, 1e-10]))
def test_conversions_never_tighter_than_the_exact_gaussian(sigma: float, alpha: float,
                                                           delta: float) -> None:
    """RDP and zCDP of the Gaussian, converted, never beat its exact (eps, delta) curve."""
    exact = gaussian.gaussian_epsilon(delta, sigma)
    via_rdp = definitions.rdp_to_dp_epsilon(gaussian.gaussian_rdp(alpha, sigma), alpha, delta)
    via_zcdp = definitions.zcdp_to_dp_epsilon(gaussian.gaussian_zcdp(sigma), delta)
    assert via_rdp >= exact * (1 - mp("1e-20"))
    assert via_zcdp >= exact * (1 - mp("1e-20"))
    assert via_zcdp <= definitions.zcdp_to_dp_epsilon(gaussian.gaussian_zcdp(sigma), delta,
                                                      tight=False)


def test_pure_to_rdp() -> None:
    assert definitions.pure_to_rdp(1, 4) == 1
    assert definitions.pure_to_rdp("0.1", 4) == mp(4) * mp("0.01") / 2
    assert definitions.pure_to_zcdp("0.5") == mp("0.125")


# -- Gaussian -------------------------------------------------------------------------------
GRID = [(eps, delta, sens) for eps in ("0.1", "0.5", "1", "3") for delta in ("1e-5", "1e-9")
        for sens in ("1", "sqrt(2)")]


@pytest.mark.parametrize(("eps", "delta", "sens"), GRID)
def test_gaussian_calibration_against_dp_accounting(eps: str, delta: str, sens: str) -> None:
    cal = gaussian.calibrate_gaussian_sigma(eps, delta, sens, digits=12)
    s = float(numeric.mpf(sens))
    theirs = dp_accounting.get_sigma_gaussian(float(eps), float(delta), tol=1e-14) * s
    assert abs(float(cal.exact) - theirs) <= 1e-9 * theirs
    assert cal.delta_at_sigma <= numeric.mpf(delta)
    # conservative: the published value is >= the exact one and within one unit of the last digit
    assert numeric.mpf(cal.sigma) >= cal.exact
    assert numeric.mpf(cal.sigma) - cal.exact <= cal.exact * mp(10) ** -11
    loss = privacy_loss_mechanism.GaussianPrivacyLoss(float(cal.exact), sensitivity=s)
    assert loss.get_delta_for_epsilon(float(eps)) == pytest.approx(float(delta), rel=1e-7)


def test_gaussian_delta_values() -> None:
    # SA2 Example 3: sigma = 5.1 is *not quite* (1, 1e-8)-DP (delta = 1.0017e-8)
    d = gaussian.gaussian_delta(1, "5.1")
    loss = privacy_loss_mechanism.GaussianPrivacyLoss(5.1, sensitivity=1)
    assert float(d) == pytest.approx(loss.get_delta_for_epsilon(1.0), rel=1e-9)
    assert d > mp("1e-8")
    assert gaussian.classical_gaussian_epsilon("1e-8", 7) < 1


@settings(max_examples=40)
@given(st.floats(0.01, 5), st.floats(0.2, 50), st.floats(1.001, 1.5))
def test_gaussian_delta_monotone(eps: float, sigma: float, factor: float) -> None:
    d = gaussian.gaussian_delta(eps, sigma)
    assert gaussian.gaussian_delta(eps * factor, sigma) <= d
    assert gaussian.gaussian_delta(eps, sigma * factor) <= d
    assert gaussian.gaussian_delta(eps, sigma, factor) >= d


# -- discrete Gaussian / Laplace ------------------------------------------------------------
def _dg_pmf(sigma: str, lo: int, hi: int) -> list[mpmath.mpf]:
    s2 = Fraction(sigma) ** 2
    return [discrete_gaussian_pmf(s2, x) for x in range(lo, hi + 1)]


@pytest.mark.parametrize(("sigma", "shift", "eps"), [("0.8", 1, "0.5"), ("1.5", 1, "1"),
                                                     ("2", 3, "0.7"), ("0.5", 1, "1")])
def test_discrete_gaussian_1d_brute_force(sigma: str, shift: int, eps: str) -> None:
    k = 60
    base = _dg_pmf(sigma, -k, k)
    p = base + [mp(0)] * shift
    q = [mp(0)] * shift + base
    brute = definitions.dp_delta(p, q, eps)
    assert abs(discrete.discrete_gaussian_delta(eps, sigma, (shift,)) - brute) < mp("1e-25")


def test_discrete_gaussian_2d_brute_force() -> None:
    sigma, eps = "1.3", mp("0.6")
    k = 40
    pmf = _dg_pmf(sigma, -k, k)
    ee = mpmath.exp(eps)
    # P = (1, -1) + noise, Q = noise: sum over the grid of max(0, P - e^eps Q)
    total = mp(0)
    for i in range(-k + 1, k):
        for j in range(-k + 1, k):
            pv = pmf[i - 1 + k] * pmf[j + 1 + k]
            qv = pmf[i + k] * pmf[j + k]
            if pv > ee * qv:
                total += pv - ee * qv
    assert abs(discrete.discrete_gaussian_delta(eps, sigma, (1, -1)) - total) < mp("1e-20")
    # sign and order of the vector do not matter
    assert (discrete.discrete_gaussian_delta(eps, sigma, (-1, 1))
            == discrete.discrete_gaussian_delta(eps, sigma, (1, 1)))


def test_discrete_gaussian_three_coordinates() -> None:
    d3 = discrete.discrete_gaussian_delta("0.8", "2", (1, 1, 2))
    d2 = discrete.discrete_gaussian_delta("0.8", "2", (1, 1))
    assert d3 > d2  # a larger difference vector leaks more


def test_discrete_gaussian_close_to_continuous_for_large_sigma() -> None:
    dc = discrete.discrete_gaussian_delta("0.05", "40", (1, 1))
    gc = gaussian.gaussian_delta("0.05", "40", "sqrt(2)")
    assert abs(dc - gc) < mp("1e-3") * gc


def test_discrete_gaussian_calibration() -> None:
    cal = discrete.calibrate_discrete_gaussian_sigma("0.906", "1e-9", (1, -1), digits=10)
    sig = numeric.mpf(cal.sigma)
    assert cal.delta_at_sigma <= mp("1e-9")
    assert discrete.discrete_gaussian_delta("0.906", sig * (1 - mp("1e-8")), (1, -1)) > mp("1e-9")


def test_discrete_gaussian_delta_is_not_monotone_in_sigma() -> None:
    """The reason the calibration scans above its answer ([CKS20] proves no monotonicity)."""
    assert (discrete.discrete_gaussian_delta(1, "0.755", (1,))
            > discrete.discrete_gaussian_delta(1, "0.715", (1,)))


def test_discrete_calibration_steps_over_the_bump() -> None:
    target = mp("0.1915")  # met at sigma 0.715, missed again on (0.72, 0.77)
    cal = discrete.calibrate_discrete_gaussian_sigma(1, target, (1,), digits=10)
    sig = numeric.mpf(cal.sigma)
    assert sig > mp("0.76")
    for j in range(0, 41):
        assert discrete.discrete_gaussian_delta(1, sig * (1 + mp(j) / 40), (1,)) <= target


def test_discrete_gaussian_delta_monotone_on_a_grid() -> None:
    """Not a theorem in [CKS20]; checked on the grid the calibration searches."""
    prev = mp(1)
    for i in range(40):
        s = mp("8.5") + mp(i) / 400
        d = discrete.discrete_gaussian_delta("0.906", s, (1, -1))
        assert d <= prev
        prev = d


def test_discrete_zcdp_and_laplace() -> None:
    assert discrete.discrete_gaussian_zcdp(2, (1, -1)) == mp(2) / 8
    assert discrete.discrete_laplace_epsilon("0.5", 2) == 4
    assert discrete.discrete_laplace_scale("0.25", 1) == 4


# -- subsampling / moments accountant -------------------------------------------------------
@pytest.mark.parametrize("alpha", [2, 3, 8, 32, 100])
def test_sampled_gaussian_sum_equals_integral(alpha: int) -> None:
    s = subsampling.sampled_gaussian_rdp("0.05", "1.3", alpha, method="sum")
    i = subsampling.sampled_gaussian_rdp("0.05", "1.3", alpha, method="integral")
    assert abs(s - i) <= mp("1e-15") * s


@pytest.mark.parametrize("q", [0.001, 0.02, 0.3])
@pytest.mark.parametrize("sigma", [0.8, 2.0, 5.1])
def test_sampled_gaussian_rdp_against_dp_accounting(q: float, sigma: float) -> None:
    """Integer orders: the same exact sum. Fractional orders: dp-accounting sums the [MTZ19]
    series in absolute value (an upper bound, infinite when it fails to converge); ours is the
    exact integral, so it must not exceed theirs."""
    orders = [2.0, 3.0, 7.0, 20.0, 64.0]
    ours = [float(subsampling.sampled_gaussian_rdp(q, sigma, a)) for a in orders]
    theirs = rdp_privacy_accountant._compute_rdp_poisson_subsampled_gaussian(q, sigma, orders)
    for a, b in zip(ours, theirs, strict=True):
        assert a == pytest.approx(float(b), rel=1e-8, abs=1e-15)
    frac = [1.25, 1.5, 2.5, 4.5]
    ours_f = [float(subsampling.sampled_gaussian_rdp(q, sigma, a)) for a in frac]
    theirs_f = rdp_privacy_accountant._compute_rdp_poisson_subsampled_gaussian(q, sigma, frac)
    for a, b in zip(ours_f, theirs_f, strict=True):
        assert a <= float(b) * (1 + 1e-9)


def test_fractional_order_small_q_asymptotics() -> None:
    """For small q the RDP is alpha q^2 (e^{1/sigma^2} - 1) / 2 to first order ([MTZ19])."""
    q, sigma = mp("1e-4"), mp(3)
    for a in ("1.25", "1.5", "3.5"):
        approx = mp(a) * q * q * mpmath.expm1(1 / sigma**2) / 2
        assert abs(subsampling.sampled_gaussian_rdp(q, sigma, a) / approx - 1) < mp("1e-3")


@pytest.mark.parametrize(("q", "sigma", "steps"), [(0.02, 5.1, 2500), (0.01, 1.1, 1000),
                                                   (0.1, 2.0, 50)])
def test_composition_against_dp_accounting(q: float, sigma: float, steps: int) -> None:
    eps, _ = subsampling.subsampled_gaussian_epsilon(q, sigma, steps, 1e-8)
    acc = dp_accounting.rdp.RdpAccountant(orders=[float(numeric.mpf(o))
                                                  for o in definitions.DEFAULT_ORDERS])
    acc.compose(dp_accounting.PoissonSampledDpEvent(q, dp_accounting.GaussianDpEvent(sigma)), steps)
    assert float(eps) == pytest.approx(acc.get_epsilon(1e-8), rel=1e-7)


def test_amplification_formulas() -> None:
    e, d = subsampling.poisson_amplification(1, "1e-8", "0.02")
    assert abs(e - mpmath.log1p(mp("0.02") * mpmath.expm1(1))) < mp("1e-38")
    assert abs(d - mp("2e-10")) < mp("1e-48")
    e1, d1 = subsampling.poisson_amplification("0.7", "1e-6", 1)
    assert e1 == mp("0.7") and d1 == mp("1e-6")
    e2, _ = subsampling.without_replacement_amplification(1, 0, 50, 1000)
    assert e2 == mpmath.log1p(mp(50) / 1000 * mpmath.expm1(1))


@settings(max_examples=15)
@given(st.floats(0.001, 0.5), st.floats(0.5, 10), st.floats(1.5, 60))
def test_sampled_gaussian_monotone(q: float, sigma: float, alpha: float) -> None:
    r = subsampling.sampled_gaussian_rdp(q, sigma, alpha)
    assert subsampling.sampled_gaussian_rdp(q * 1.1, sigma, alpha) >= r
    assert subsampling.sampled_gaussian_rdp(q, sigma * 1.1, alpha) <= r
    assert r <= gaussian.gaussian_rdp(alpha, sigma) * (1 + mp("1e-12"))


# -- composition ----------------------------------------------------------------------------
def test_composition_orderings() -> None:
    k, eps, delta, slack = 50, mp("0.1"), mp("1e-7"), mp("1e-6")
    drv = composition.advanced_composition(eps, delta, k, slack)
    kov = composition.kov_composition(eps, delta, k, slack)
    assert kov[0] <= drv[0]
    opt = composition.optimal_composition_epsilon(eps, delta, k, kov[1])
    assert opt <= kov[0]
    basic = composition.basic_composition([(eps, delta)] * k)
    assert abs(basic[0] - k * eps) < mp("1e-35") and abs(basic[1] - k * delta) < mp("1e-40")
    assert opt <= basic[0]


def test_optimal_composition_single_step_is_identity() -> None:
    assert composition.optimal_composition_delta("0.5", 0, 1, "0.5") == 0
    assert composition.optimal_composition_delta("0.5", 0, 1, "0.4") > 0


def test_optimal_composition_brute_force() -> None:
    """k = 3 randomized-response pairs, product distributions summed explicitly."""
    e = mp("0.4")
    a = mpmath.exp(e) / (1 + mpmath.exp(e))
    import itertools
    p, q = [], []
    for bits in itertools.product((0, 1), repeat=3):
        agree = sum(bits)
        p.append(a**agree * (1 - a) ** (3 - agree))
        q.append((1 - a) ** agree * a ** (3 - agree))
    for et in ("0", "0.3", "0.5", "1.1"):
        brute = definitions.hockey_stick(p, q, et)
        assert abs(composition.optimal_composition_delta(e, 0, 3, et) - brute) < mp("1e-30")


def test_randomized_donation_time() -> None:
    b = composition.randomized_donation_time(1, "1e-8", 10)
    assert abs(b.round_eps - mpmath.log1p(mpmath.expm1(1) / 10)) < mp("1e-38")
    assert abs(b.round_delta - mp("1e-9")) < mp("1e-45")
    assert b.eps_kov <= b.eps_paper
    assert abs(b.delta_paper - 11 * mp("1e-8")) < mp("1e-45")
    assert b.delta_kov <= b.delta_paper


def test_additive_compositions() -> None:
    assert composition.rdp_composition(["0.1", "0.2"]) == mp("0.3")
    assert composition.zcdp_composition([1, 2, 3]) == 6


# -- shuffling ------------------------------------------------------------------------------
def test_closed_form_validity_enforced() -> None:
    ok, limit = shuffle.closed_form_condition(4, 10000, "1e-10")
    assert not ok and 3.94 < limit < 3.95
    r = shuffle.closed_form(4, 10000, 1e-10)
    assert not r.valid and r.bound == "fmt20" and "does not apply" in r.note
    # the fallback is a genuine bound, and never the formula's value outside its region
    assert r.eps == shuffle.clone_epsilon(4, 10000, 1e-10, "fmt20").eps
    ok2, _ = shuffle.closed_form_condition(3, 10000, "1e-6")
    assert ok2
    r2 = shuffle.closed_form(3, 10000, 1e-6)
    assert r2.valid and r2.bound == "closed"
    assert r2.eps == pytest.approx(float(shuffle.closed_form_value(3, 10000, 1e-6)))


def test_closed_form_undefined_region() -> None:
    ok, limit = shuffle.closed_form_condition(1, 50, "1e-6")
    assert not ok and limit == float("-inf")


def _clone_pair_mp(eps0: float, n: int, pc: float) -> tuple[list[mpmath.mpf], list[mpmath.mpf]]:
    """The clone pair as explicit joint distributions over (c, a), in mpmath."""
    al = mpmath.exp(eps0) / (mpmath.exp(eps0) + 1)
    p, q = [], []
    for c in range(n):
        wc = mpmath.binomial(n - 1, c) * mp(pc) ** c * (1 - mp(pc)) ** (n - 1 - c)
        for a in range(c + 2):
            b = mpmath.binomial(c, a) / mp(2) ** c if a <= c else mp(0)
            bm1 = mpmath.binomial(c, a - 1) / mp(2) ** c if a >= 1 else mp(0)
            p.append(wc * (al * b + (1 - al) * bm1))
            q.append(wc * ((1 - al) * b + al * bm1))
    return p, q


@pytest.mark.parametrize("variant", ["fmt20", "fmt22"])
def test_clone_delta_brute_force(variant: str) -> None:
    eps0, n = 1.5, 25
    pc = shuffle.clone_probability(eps0, variant)
    p, q = _clone_pair_mp(eps0, n, pc)
    for eps in (0.2, 0.5, 1.0):
        brute = float(definitions.dp_delta(p, q, eps))
        assert shuffle.clone_delta(eps, eps0, n, variant) == pytest.approx(brute, rel=1e-9,
                                                                           abs=1e-15)
    assert float(definitions.hockey_stick(p, q, 0.3)) == pytest.approx(
        float(definitions.hockey_stick(q, p, 0.3)), rel=1e-20)


def _rr_sum_mp(eps0: float, n: int, ones: int) -> tuple[list[mpmath.mpf], list[mpmath.mpf]]:
    p = 1 / (mpmath.exp(eps0) + 1)
    others = [mp(1)]
    for i in range(n - 1):
        r = (1 - p) if i < ones else p
        nxt = [mp(0)] * (len(others) + 1)
        for k, v in enumerate(others):
            nxt[k] += v * (1 - r)
            nxt[k + 1] += v * r
        others = nxt
    one = [others[0] * p] + [others[k] * (1 - p) + others[k + 1] * p
                             for k in range(len(others) - 1)] + [others[-1] * (1 - p)]
    zero = [others[0] * (1 - p)] + [others[k] * p + others[k + 1] * (1 - p)
                                    for k in range(len(others) - 1)] + [others[-1] * p]
    return one, zero


@pytest.mark.parametrize("ones", [0, 3, 29])
def test_rr_sum_delta_brute_force(ones: int) -> None:
    eps0, n = 2.0, 30
    one, zero = _rr_sum_mp(eps0, n, ones)
    for eps in (0.1, 0.6, 1.5):
        brute = float(definitions.dp_delta(one, zero, eps))
        assert shuffle.rr_sum_delta(eps, eps0, n, ones=ones) == pytest.approx(brute, rel=1e-9,
                                                                              abs=1e-15)


def test_rr_sum_deletion_brute_force() -> None:
    eps0, n = 1.0, 20
    one, zero = _rr_sum_mp(eps0, n, 0)
    p = 1 / (mpmath.exp(eps0) + 1)
    absent = [sum(v for v in [0])]  # placeholder replaced below
    # others' sum alone: n - 1 users with bit 0
    absent = [mpmath.binomial(n - 1, k) * p**k * (1 - p) ** (n - 1 - k) for k in range(n)] + [mp(0)]
    brute = max(float(definitions.dp_delta(one, absent, 0.4)),
                float(definitions.dp_delta(zero, absent, 0.4)))
    assert shuffle.rr_sum_delta(0.4, eps0, n, "deletion") == pytest.approx(brute, rel=1e-9)


def test_worst_case_composition_is_not_always_zero_ones() -> None:
    """The observation recorded in the module docstring (n = 60, eps0 = 2, eps = 0.3)."""
    worst, arg = shuffle.rr_sum_worst_delta(0.3, 2.0, 60)
    assert arg not in (0, 59)
    assert worst > shuffle.rr_sum_delta(0.3, 2.0, 60, ones=0)


def test_exact_rr_below_fmt22_below_fmt20() -> None:
    """fmt22 is a proven worst-case bound for binary RR; fmt20 is weaker."""
    eps0, n, delta = 2.0, 80, 1e-3
    worst = shuffle.rr_sum_worst_epsilon(eps0, n, delta)
    f22 = shuffle.clone_epsilon(eps0, n, delta, "fmt22")
    f20 = shuffle.clone_epsilon(eps0, n, delta, "fmt20")
    assert shuffle.rr_sum_epsilon(eps0, n, delta).eps <= worst.eps <= f22.eps <= f20.eps


def test_rdp_of_rr_sum_is_largest_at_the_extreme_compositions() -> None:
    """The composition MJTB+22 App. C.1.3 analyses (all other bits equal) maximises rho_2RR;
    checked exhaustively for n = 120 (an observation, not a theorem)."""
    n = 120
    for eps0 in (1.0, 4.0):
        for alpha in (2.0, 10.0, 40.0):
            vals = [shuffle.rr_sum_rdp(alpha, eps0, n, ones) for ones in range(n)]
            assert max(vals) == pytest.approx(max(vals[0], vals[-1]), rel=1e-12)


def test_rr_sum_rdp_brute_force() -> None:
    one, zero = _rr_sum_mp(3.0, 25, 0)
    brute = max(definitions.renyi_divergence(one, zero, 7), definitions.renyi_divergence(zero, one, 7))
    assert shuffle.rr_sum_rdp(7, 3.0, 25) == pytest.approx(float(brute), rel=1e-10)


def test_rr_sum_rdp_near_underflow_is_exact_and_past_it_refused() -> None:
    """A middle composition goes through the linear PMFs: at eps0 = 5, n = 200 their smallest
    atom is about 1e-220 and the value still matches the 50-digit one; at n = 400 some atoms
    underflow to 0 and the call is refused (before, the zeros read as a support mismatch and the
    divergence came out infinite; the true value is finite, both PMFs being positive on 0..n)."""
    with mpmath.workdps(50):
        one, zero = _rr_sum_mp(5.0, 200, 100)
        brute = max(definitions.renyi_divergence(one, zero, 2),
                    definitions.renyi_divergence(zero, one, 2))
    assert shuffle.rr_sum_rdp(2, 5.0, 200, 100) == pytest.approx(float(brute), rel=1e-9)
    for n, ones in ((400, 200), (300, 150)):
        with pytest.raises(ArithmeticError, match="underflow"):
            shuffle.rr_sum_rdp(2, 5.0, n, ones)
    assert math.isfinite(shuffle.rr_sum_rdp(2, 5.0, 400, 0))  # the log-PMF path


def test_clone_rdp_dominates_every_composition() -> None:
    n, eps0 = 60, 2.0
    for alpha in (2.0, 8.0):
        bound = shuffle.rr_clone_rdp(alpha, eps0, n)
        assert all(shuffle.rr_sum_rdp(alpha, eps0, n, k) <= bound * (1 + 1e-12) for k in range(n))


def test_rappor_histogram_product_brute_force() -> None:
    eps0, n = 1.5, 12
    one, zero = _rr_sum_mp(eps0, n, 0)
    a = [x * y for x in one for y in zero]
    b = [x * y for x in zero for y in one]
    for eps in (0.3, 1.0, 2.0):
        brute = float(definitions.dp_delta(a, b, eps))
        assert shuffle.rappor_histogram_delta(eps, eps0, n) == pytest.approx(brute, rel=1e-9,
                                                                             abs=1e-15)


def test_shuffle_monotone_in_n() -> None:
    prev = {b: 10.0 for b in ("fmt20", "fmt22", "exact-rr")}
    for n in (500, 2000, 8000):
        for b in prev:
            e = shuffle.shuffle_epsilon(3.0, n, 1e-6, b).eps
            assert e <= prev[b]
            prev[b] = e


# -- Ghazi et al. ---------------------------------------------------------------------------
def test_theorem_formulas() -> None:
    lam = ghazi.theorem11_lambda(1, "1e-6")
    g = 1 - mpmath.exp(-1)
    assert abs(lam - (16 * mpmath.log(mp(10) ** 7) / g**2 + 2 / g)) < mp("1e-30")
    p, r = ghazi.theorem13_parameters(2, "1e-6", 2)
    assert p == mpmath.exp(mp("-0.1")) and abs(r - 50 * mpmath.e * mpmath.log(mp(10) ** 6)) < 1e-25
    e, d = ghazi.theorem18_guarantee("0.99", "0.01", "1e-7", "1e-9")
    assert e == 1 and abs(d - (mpmath.exp(mp("0.99")) * mp("1e-7")
                               + 2 * mpmath.exp(mp("1.98")) * mp("1e-9"))) < mp("1e-35")


@pytest.mark.parametrize(("lam", "shift"), [("3.5", 1), ("20", 1), ("20", 2)])
def test_poisson_delta_brute_force(lam: str, shift: int) -> None:
    pm = [poisson_pmf(Fraction(lam), k) for k in range(200)]
    for eps in ("0.3", "1"):
        brute = max(definitions.dp_delta([mp(0)] * s + pm[: 200 - s], pm, eps)
                    for s in range(1, shift + 1))
        assert abs(ghazi.poisson_mechanism_delta(eps, lam, shift) - brute) < mp("1e-30")


def test_negative_binomial_delta_brute_force() -> None:
    r, p = Fraction(7, 2), Fraction(9, 10)
    pm = [negative_binomial_pmf(r, p, k) for k in range(700)]
    for eps in ("0.05", "0.5"):
        brute = definitions.dp_delta([mp(0)] + pm[:699], pm, eps)
        assert abs(ghazi.negative_binomial_mechanism_delta(eps, r, p) - brute) < mp("1e-30")


def test_minimal_parameters() -> None:
    m = ghazi.minimal_poisson_lambda(1, "1e-6")
    lam = numeric.mpf(m.value)
    assert m.delta_at_value <= mp("1e-6") < ghazi.poisson_mechanism_delta(1, lam * (1 - mp("1e-8")))
    assert lam < m.theorem_value
    assert ghazi.poisson_mechanism_delta(1, m.theorem_value) <= mp("1e-6")  # Theorem 11 holds
    nb = ghazi.minimal_negative_binomial_r(1, "1e-6")
    r = numeric.mpf(nb.value)
    p13, r13 = ghazi.theorem13_parameters(1, "1e-6")
    assert nb.delta_at_value <= mp("1e-6")
    assert ghazi.negative_binomial_mechanism_delta(1, r * (1 - mp("1e-8")), p13) > mp("1e-6")
    assert ghazi.negative_binomial_mechanism_delta(1, r13, p13) <= mp("1e-6")  # Theorem 13 holds


def test_geometric_tail() -> None:
    assert ghazi.geometric_tail(1, 2) == mpmath.exp(-3)


# -- budget accountant (MJTB+22 Table 1 as a worked test) -------------------------------------
def test_mjtb_table1_worked() -> None:
    acc = budget.mjtb_table1()
    q = budget.Query.make("keyboard", ["n-gram"], 3, "0.5", 5000)
    d = acc.commit(q)
    assert d.allowed and d.cohort_eps is not None and d.cohort_eps <= 0.5
    assert acc.analyses["keyboard"].eps_used == Fraction(1, 2)
    assert acc.fields["n-gram"].k_used == 1
    # the analysis allows one report only: check 1 refuses the next query
    d2 = acc.check(budget.Query.make("keyboard", ["model perplexity"], 3, "0.1", 5000))
    assert not d2.allowed and d2.check == 1 and "exceeds allowed 0.5" in d2.reason
    acc.analyses["keyboard"].eps_allowed = Fraction(2)
    d3 = acc.check(budget.Query.make("keyboard", ["model perplexity"], 3, "0.1", 5000))
    assert not d3.allowed and d3.check == 1 and "reports already used" in d3.reason


def test_mjtb_table1_refusals() -> None:
    acc = budget.mjtb_table1()
    before = acc.to_json()
    # bucketed age allows 0.3 cohort-aggregate: check 2
    d = acc.commit(budget.Query.make("keyboard", ["n-gram", "bucketed age"], 2, "0.5", 5000))
    assert not d.allowed and d.check == 2 and "bucketed age" in d.reason
    # n-gram allows local eps0 <= 5: check 2
    d = acc.commit(budget.Query.make("keyboard", ["n-gram"], 6, "0.5", 10**6))
    assert not d.allowed and d.check == 2 and "local eps0" in d.reason
    # analysis budget 0.5: check 1
    d = acc.commit(budget.Query.make("keyboard", ["n-gram"], 3, "0.6", 10**6))
    assert not d.allowed and d.check == 1
    # a cohort too small for the aggregate guarantee: check 3
    d = acc.commit(budget.Query.make("keyboard", ["n-gram"], 5, "0.5", 1000))
    assert not d.allowed and d.check == 3
    assert acc.to_json() == before  # refusals change nothing


def test_budget_json_round_trip() -> None:
    acc = budget.mjtb_table1()
    acc.commit(budget.Query.make("keyboard", ["n-gram"], 3, "0.5", 5000))
    again = budget.Accountant.from_json(acc.to_json())
    assert again.to_json() == acc.to_json()
    assert again.analyses["keyboard"].eps_used == Fraction(1, 2)
    with pytest.raises(ValueError):
        budget.Accountant.from_json("{}")
    with pytest.raises(ValueError):
        budget.Accountant.from_json("[1]")


def test_exact_rr_large_n_is_finite_and_fast_enough() -> None:
    r = shuffle.rr_sum_epsilon(3.0, 200_000, 1e-6)
    assert 0 < r.eps < shuffle.clone_epsilon(3.0, 200_000, 1e-6, "fmt22").eps
    assert math.isfinite(r.eps)
    assert np.isfinite(shuffle.rappor_histogram_delta(0.5, 3.0, 200_000))


# -- more properties: monotonicity in every parameter, conversions never beat exact curves ------
@settings(max_examples=25)
@given(st.floats(0.5, 5), st.integers(200, 5000), st.floats(0.05, 1.0))
def test_clone_and_rr_monotone(eps0: float, n: int, eps: float) -> None:
    for variant in ("fmt20", "fmt22"):
        d = shuffle.clone_delta(eps, eps0, n, variant)
        assert shuffle.clone_delta(eps * 1.2, eps0, n, variant) <= d + 1e-15
        assert shuffle.clone_delta(eps, eps0, n * 2, variant) <= d + 1e-15
        assert shuffle.clone_delta(eps, eps0 * 1.2, n, variant) >= d - 1e-15
    r = shuffle.rr_sum_delta(eps, eps0, n)
    assert shuffle.rr_sum_delta(eps * 1.2, eps0, n) <= r + 1e-15
    assert shuffle.rr_sum_delta(eps, eps0 * 1.2, n) >= r - 1e-15
    # the exact curve of one dataset never exceeds the proven fmt22 bound
    assert r <= shuffle.clone_delta(eps, eps0, n, "fmt22") + 1e-15


@settings(max_examples=25)
@given(st.floats(0.01, 3), st.floats(0.001, 0.99), st.floats(1e-9, 1e-3))
def test_amplification_monotone(eps: float, q: float, delta: float) -> None:
    e, d = subsampling.poisson_amplification(eps, delta, q)
    e2, d2 = subsampling.poisson_amplification(eps, delta, min(q * 1.1, 1))
    e3, _ = subsampling.poisson_amplification(eps * 1.1, delta, q)
    assert e <= e2 and d <= d2 and e <= e3 and e <= eps


@settings(max_examples=20)
@given(st.floats(0.5, 200), st.floats(0.1, 3), st.floats(1.05, 2))
def test_poisson_mechanism_monotone(lam: float, eps: float, f: float) -> None:
    d = ghazi.poisson_mechanism_delta(eps, lam)
    assert ghazi.poisson_mechanism_delta(eps, lam * f) <= d
    assert ghazi.poisson_mechanism_delta(eps * f, lam) <= d
    assert ghazi.poisson_mechanism_delta(eps, lam, 2) >= d


@settings(max_examples=25)
@given(st.floats(0.001, 2), st.floats(1e-9, 1e-2), st.integers(1, 60))
def test_conversions_monotone(r: float, delta: float, k: int) -> None:
    assert definitions.zcdp_to_dp_epsilon(r * 1.1, delta) >= definitions.zcdp_to_dp_epsilon(r, delta)
    assert (definitions.rdp_to_dp_epsilon(r * 1.1, 8, delta)
            >= definitions.rdp_to_dp_epsilon(r, 8, delta))
    assert (definitions.zcdp_to_dp_epsilon(r, delta * 0.5)
            >= definitions.zcdp_to_dp_epsilon(r, delta))
    a = composition.kov_composition("0.1", 0, k, delta)[0]
    assert composition.kov_composition("0.1", 0, k + 1, delta)[0] >= a


def test_renyi_routes_never_beat_exact_curves() -> None:
    # symmetric-RAPPOR histogram: the Renyi route is never below the exact curve (same dataset)
    for eps0, n in ((3.0, 2000), (5.0, 20000)):
        rdp = shuffle.rappor_histogram_rdp_epsilon(eps0, n, 1e-6).eps
        exact = shuffle.rappor_histogram_epsilon(eps0, n, 1e-6).eps
        assert rdp >= exact
    # discrete Gaussian: zCDP -> (eps, delta) is never below the exact curve
    for sigma in ("1.5", "4", "23"):
        rho = discrete.discrete_gaussian_zcdp(sigma, (1, -1))
        eps = definitions.zcdp_to_dp_epsilon(rho, "1e-9")
        assert discrete.discrete_gaussian_delta(eps, sigma, (1, -1)) <= mp("1e-9") * (1 + mp("1e-9"))


def test_closed_form_never_below_the_numerical_bound_where_valid() -> None:
    """Inside its validity region, MJTB+22 Theorem 3.1 must dominate the [FMT20] numerical bound
    of the same reduction (a smaller closed-form value would be a wrong small number)."""
    checked = 0
    for eps0 in (0.5, 1.0, 2.0, 3.0, 5.0):
        for n in (2000, 10_000, 100_000):
            for delta in (1e-6, 1e-10):
                ok, _ = shuffle.closed_form_condition(eps0, n, delta)
                if not ok:
                    continue
                checked += 1
                assert (shuffle.closed_form_value(eps0, n, delta)
                        >= shuffle.clone_epsilon(eps0, n, delta, "fmt20").eps)
    assert checked >= 12


def test_rappor_histogram_clone_delta_brute_force() -> None:
    eps0, n = 1.5, 8
    pc = shuffle.clone_probability(eps0, "fmt22")
    p, q = _clone_pair_mp(eps0, n, pc)
    a = [x * y for x in p for y in q]
    b = [x * y for x in q for y in p]
    for eps in (0.3, 1.0):
        brute = float(definitions.dp_delta(a, b, eps))
        assert shuffle.rappor_histogram_clone_delta(eps, eps0, n) == pytest.approx(
            brute, rel=1e-9, abs=1e-14)


def test_rappor_histogram_clone_bound_dominates_every_dataset() -> None:
    """The proven curve is above the exact curve of the analysed dataset."""
    for eps in (0.3, 0.8):
        assert (shuffle.rappor_histogram_clone_delta(eps, 2.0, 300)
                >= shuffle.rappor_histogram_delta(eps, 2.0, 300))


def test_unreachable_delta_gives_infinity_not_a_small_number() -> None:
    # deletion: with the target absent the sum never reaches n, so delta >= P[sum = n] > 1e-9
    # for every eps (n = 5, eps0 = 1)
    assert shuffle.rr_sum_delta(40, 1.0, 5, "deletion") > 1e-9
    assert shuffle.rr_sum_epsilon(1.0, 5, 1e-9, "deletion").eps == math.inf
    assert shuffle.rr_sum_epsilon(1.0, 5, 0.5, "deletion").eps < math.inf


def test_correlated_mechanism_guarantee() -> None:
    p, r = ghazi.theorem13_parameters(1, "1e-6", 4)  # D3 sufficient for (1, 1e-6), Delta = 4
    e, d = ghazi.correlated_mechanism_guarantee(3, 1, r, p, 4)
    d2 = ghazi.negative_binomial_mechanism_delta(1, r, p, 4)
    assert d2 <= mp("1e-6")  # Theorem 13 holds
    assert abs(e - 4) < mp("1e-35")
    expect = mpmath.exp(mp(3)) * d2 + 2 * mpmath.exp(mp(6)) * mpmath.exp(mp(-15))
    assert abs(d - expect) < mp("1e-30") * expect and d < mp("1e-3")


def test_golden_section_finds_the_minimum_in_both_arithmetics() -> None:
    from dpspec.spec.accounting.numeric import golden_section

    s = golden_section(lambda x: (x - 2.5) ** 2, 0.0, 10.0, phi=(math.sqrt(5) - 1) / 2, tol=1e-9)
    assert s.hi - s.lo <= 1e-9 and abs(s.x1 - 2.5) < 1e-8 and s.f1 >= 0
    m = golden_section(lambda x: (x - mpmath.mpf(1) / 3) ** 2, mpmath.mpf(0), mpmath.mpf(1),
                       phi=(mpmath.sqrt(5) - 1) / 2, iterations=60)
    assert abs(m.x2 - mpmath.mpf(1) / 3) < mpmath.mpf(10) ** -10


@pytest.mark.parametrize("q, sigma, alpha", [
    ("1e-30", "1", 2), ("1e-20", "1", 2), ("0.3", "1e30", 2), ("1e-12", "0.8", 9),
    ("0.01", "0.7", 50), ("0.999", "0.5", 30),
])
def test_integer_order_rdp_keeps_its_digits_for_tiny_q(q: str, sigma: str, alpha: int) -> None:
    """The finite sum for integer alpha against the sum of A at 150 digits: A - 1 is summed from
    non-negative terms, so the divergence keeps 40 digits even where it is 1e-60 (summing A
    itself at 50 digits gave 0 at q = 1e-30 and 11 correct digits at q = 1e-20)."""
    got = subsampling.sampled_gaussian_rdp(q, sigma, alpha)
    with mpmath.workdps(150):
        qq, s = mpmath.mpf(q), mpmath.mpf(sigma)
        a = mpmath.fsum(mpmath.binomial(alpha, k) * (1 - qq) ** (alpha - k) * qq ** k
                        * mpmath.exp(mpmath.mpf(k * k - k) / (2 * s * s)) for k in range(alpha + 1))
        want = mpmath.log(a) / (alpha - 1)
        assert want > 0 and abs(got - want) <= want * mpmath.mpf(10) ** -40


@pytest.mark.parametrize("q, sigma, alpha", [
    ("1e-30", "1", "2.5"), ("1e-12", "1", "2.5"), ("1e-10", "1", "2.5"), ("0.3", "1e15", "1.5"),
    ("0.05", "0.8", "1.01"), ("0.9", "0.5", "3.5"),
])
def test_fractional_order_rdp_keeps_its_digits_for_tiny_q(q: str, sigma: str, alpha: str) -> None:
    """Both directions for a fractional alpha against a 100-digit quadrature of the same moments:
    the spec integrates their excess over 1, so each keeps about 19 of its 20 digits even where
    it is 1e-60 (integrating the moments themselves gave 1e-3 relative error at q = 1e-10 and
    0 from q = 1e-12)."""
    fwd, bwd = subsampling.sampled_gaussian_rdp_directions(q, sigma, alpha)
    assert bwd is not None
    with mpmath.workdps(100):
        qq, s, a = mpmath.mpf(q), mpmath.mpf(sigma), mpmath.mpf(alpha)

        def moment(beta: mpmath.mpf, points: list[mpmath.mpf]) -> mpmath.mpf:
            def excess(z: mpmath.mpf) -> mpmath.mpf:
                u = qq * mpmath.expm1((2 * z - 1) / (2 * s * s))
                return ((1 + u) ** beta - 1 - beta * u) * mpmath.npdf(z, 0, s)
            return mpmath.log1p(mpmath.quad(excess, [-mpmath.inf, *points, mpmath.inf])) / (a - 1)

        w = 40 * s
        want_f = moment(a, [-w, mpmath.mpf(0), a / 2, a, a + w])
        want_b = moment(1 - a, [-w, -s, mpmath.mpf(0), s, w])
        for got, want in ((fwd, want_f), (bwd, want_b)):
            assert want > 0 and abs(got - want) <= want * mpmath.mpf(10) ** -18
