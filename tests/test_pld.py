"""Certified PLD bounds of the Poisson-subsampled Gaussian (dpspec.spec.accounting.pld).

References computed here independently of the module: the one-step hockey-stick divergences in
closed form (mpmath, 50 digits), two steps by numerical integration of the one-step curve, and,
for q = 1, the exact Gaussian mechanism at sensitivity sqrt(T) ([BW18] via spec.accounting.gaussian).
"""

from __future__ import annotations

import random
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpspec.spec.accounting import gaussian, pld


@pytest.fixture(autouse=True)
def _precision() -> object:
    with mpmath.workdps(50):
        yield


def _sf(z: mpmath.mpf) -> mpmath.mpf:
    return mpmath.erfc(z / mpmath.sqrt(2)) / 2


def _one_step(q: str, sigma: str, eps: mpmath.mpf) -> tuple[mpmath.mpf, mpmath.mpf]:
    """(remove, add) hockey-stick divergences of one step at eps (any real eps), closed form:
    H_e(P||Q) = P(L > e) - e^e Q(L > e) with the loss L monotone in the sample x."""
    qq, s = mpmath.mpf(q), mpmath.mpf(sigma)

    def x_of(loss: mpmath.mpf) -> mpmath.mpf:
        d = mpmath.exp(loss) - (1 - qq)
        return mpmath.ninf if d <= 0 else s * s * mpmath.log(d / qq) + mpmath.mpf(1) / 2

    def sa(x: mpmath.mpf) -> mpmath.mpf:  # A(X > x), A the mixture
        return (1 - qq) * _sf(x / s) + qq * _sf((x - 1) / s)

    def sb(x: mpmath.mpf) -> mpmath.mpf:
        return _sf(x / s)

    x = x_of(eps)
    remove = (sa(x) - mpmath.exp(eps) * sb(x)) if x != mpmath.ninf else 1 - mpmath.exp(eps)
    # add: pair (B, A), loss -L: B(L < -e) - e^e A(L < -e)
    y = x_of(-eps)
    add = ((1 - sb(y)) - mpmath.exp(eps) * (1 - sa(y))) if y != mpmath.ninf else mpmath.mpf(0)
    return max(remove, 0), max(add, 0)


def _two_steps(q: str, sigma: str, eps: mpmath.mpf) -> mpmath.mpf:
    """delta of two steps: E_{x ~ P}[H_{eps - L(x)}] in each direction, by quadrature."""
    qq, s = mpmath.mpf(q), mpmath.mpf(sigma)

    def loss(x: mpmath.mpf) -> mpmath.mpf:
        return mpmath.log((1 - qq) + qq * mpmath.exp((2 * x - 1) / (2 * s * s)))

    def dens(x: mpmath.mpf, mean: int) -> mpmath.mpf:
        return mpmath.npdf(x, mean, s)

    def remove(x: mpmath.mpf) -> mpmath.mpf:
        return ((1 - qq) * dens(x, 0) + qq * dens(x, 1)) * _one_step(q, sigma, eps - loss(x))[0]

    def add(x: mpmath.mpf) -> mpmath.mpf:
        return dens(x, 0) * _one_step(q, sigma, eps + loss(x))[1]

    pts = [-mpmath.inf, -12 * s, -3 * s, 0, mpmath.mpf(1) / 2, 1, 3 * s + 1, 12 * s + 1,
           mpmath.inf]
    with mpmath.workdps(20):
        return max(mpmath.quad(remove, pts), mpmath.quad(add, pts))


def _bracket(lo: Fraction, hi: Fraction, truth: mpmath.mpf) -> None:
    assert lo <= hi
    assert mpmath.mpf(lo.numerator) / lo.denominator <= truth * (1 + mpmath.mpf("1e-20")), \
        (float(lo), truth)
    assert truth <= mpmath.mpf(hi.numerator) / hi.denominator * (1 + mpmath.mpf("1e-20")), \
        (float(hi), truth)


@pytest.mark.parametrize("q,sigma,eps", [
    ("0.02", "5.1", "0.05"), ("0.1", "1", "0.5"), ("0.5", "0.8", "1"), ("1", "2", "0.3"),
    ("0.01", "0.7", "2"), ("0.3", "3", "0"),
])
def test_one_step_brackets_closed_form(q: str, sigma: str, eps: str) -> None:
    lo, hi = pld.delta_bounds(q, sigma, 1, eps, h=Fraction(1, 2 ** 8))
    _bracket(lo, hi, max(_one_step(q, sigma, mpmath.mpf(eps))))
    assert hi - lo < Fraction(1, 10 ** 3)


@pytest.mark.parametrize("q,sigma,eps", [("0.1", "1", "0.6"), ("0.05", "0.8", "1.5")])
def test_two_steps_brackets_quadrature(q: str, sigma: str, eps: str) -> None:
    lo, hi = pld.delta_bounds(q, sigma, 2, eps, h=Fraction(1, 2 ** 9))
    truth = _two_steps(q, sigma, mpmath.mpf(eps))
    _bracket(lo, hi, truth)
    assert (hi - lo) / hi < Fraction(1, 50)


@pytest.mark.parametrize("sigma,steps,eps", [("2", 50, "3"), ("10", 1000, "1"), ("1.2", 3, "4")])
def test_q_one_is_the_gaussian_mechanism(sigma: str, steps: int, eps: str) -> None:
    """T Gaussian steps are one Gaussian at sensitivity sqrt(T) ([DRS22] Cor. 3.3)."""
    lo, hi = pld.delta_bounds("1", sigma, steps, eps, resolution=200)
    truth = gaussian.gaussian_delta(eps, sigma, mpmath.sqrt(steps))
    _bracket(lo, hi, truth)
    assert (hi - lo) / hi < Fraction(1, 100)


def test_epsilon_brackets_gaussian() -> None:
    lo, hi = pld.epsilon_bounds("1", "4", 100, "1e-6")
    assert hi is not None
    d_lo = gaussian.gaussian_delta(mpmath.mpf(lo.numerator) / lo.denominator, "4", 10)
    d_hi = gaussian.gaussian_delta(mpmath.mpf(hi.numerator) / hi.denominator, "4", 10)
    assert d_lo > mpmath.mpf("1e-6") >= d_hi
    assert (hi - lo) / hi < Fraction(1, 1000)


@settings(max_examples=12)
@given(q=st.sampled_from(["0.01", "0.05", "0.2", "0.7", "1"]),
       sigma=st.sampled_from(["0.6", "1", "1.7", "4"]),
       eps=st.sampled_from(["0", "0.1", "0.7", "2", "5"]),
       k=st.integers(min_value=4, max_value=7))
def test_property_bounds_ordered_and_bracket_one_step(q: str, sigma: str, eps: str, k: int
                                                      ) -> None:
    lo, hi = pld.delta_bounds(q, sigma, 1, eps, h=Fraction(1, 2 ** k))
    assert 0 <= lo <= hi <= 1
    _bracket(lo, hi, max(_one_step(q, sigma, mpmath.mpf(eps))))


@settings(max_examples=5)
@given(sigma=st.sampled_from(["1", "1.5", "3"]), steps=st.integers(min_value=1, max_value=40),
       eps=st.sampled_from(["0.2", "1", "3"]))
def test_property_gaussian_composition(sigma: str, steps: int, eps: str) -> None:
    lo, hi = pld.delta_bounds("1", sigma, steps, eps, resolution=100)
    _bracket(lo, hi, gaussian.gaussian_delta(eps, sigma, mpmath.sqrt(steps)))


def test_bounds_monotone_in_eps_and_tighten_with_h() -> None:
    c = pld.composed("0.05", "1.2", 30, h=Fraction(1, 2 ** 7))
    fine = pld.composed("0.05", "1.2", 30, h=Fraction(1, 2 ** 9))
    prev = (Fraction(2), Fraction(2))
    for e in ("0", "0.25", "0.5", "1", "2"):
        lo, hi = c.delta(e)
        assert lo <= hi and lo <= prev[0] and hi <= prev[1]
        flo, fhi = fine.delta(e)
        assert flo <= hi and lo <= fhi  # both are brackets of the same number
        assert fhi - flo <= hi - lo
        prev = (lo, hi)


def test_convolutions_agree_exactly() -> None:
    rng = random.Random(7)
    for n, m in ((1, 1), (5, 3), (300, 1000)):
        a = [rng.getrandbits(130) for _ in range(n)]
        b = [rng.getrandbits(100) for _ in range(m)]
        assert pld._convolve_python(a, b) == pld._convolve_flint(a, b)
        assert pld._convolve_python(a, a) == pld._convolve_flint(a, a)
        direct = [sum(a[i] * b[k - i] for i in range(max(0, k - m + 1), min(k, n - 1) + 1))
                  for k in range(n + m - 1)]
        assert pld._convolve_python(a, b) == direct


def test_bounds_do_not_depend_on_the_convolution(monkeypatch: pytest.MonkeyPatch) -> None:
    fast = pld.delta_bounds("0.1", "1", 5, "0.5", h=Fraction(1, 64))
    monkeypatch.setattr(pld, "convolve", pld._convolve_python)
    assert pld.delta_bounds("0.1", "1", 5, "0.5", h=Fraction(1, 64)) == fast


def test_sa2_example_5_against_dp_accounting() -> None:
    """dp-accounting's PLD (not certified): its pessimistic epsilon is at or above our certified
    lower bound and near our upper one, its optimistic one at or below our upper bound."""
    dp_accounting = pytest.importorskip("dp_accounting")
    from dp_accounting.pld import privacy_loss_distribution as pl

    q, sigma, steps, delta = 0.02, 5.1, 400, 1e-8
    lo, hi = pld.epsilon_bounds(str(q), str(sigma), steps, str(delta))
    assert hi is not None
    pess = pl.from_gaussian_mechanism(sigma, sampling_prob=q, pessimistic_estimate=True,
                                      value_discretization_interval=1e-4)
    opt = pl.from_gaussian_mechanism(sigma, sampling_prob=q, pessimistic_estimate=False,
                                     value_discretization_interval=1e-4, use_connect_dots=False)
    e_pess = pess.self_compose(steps).get_epsilon_for_delta(delta)
    e_opt = opt.self_compose(steps).get_epsilon_for_delta(delta)
    assert float(lo) <= e_pess <= float(hi) * 1.01
    assert e_opt <= float(hi)
    del dp_accounting


def test_invalid_arguments() -> None:
    for args in (("0", "1", 1, "0.5"), ("1.5", "1", 1, "0.5"), ("0.1", "0", 1, "0.5"),
                 ("0.1", "1", 0, "0.5")):
        with pytest.raises((ValueError, TypeError)):
            pld.delta_bounds(*args)
    with pytest.raises(ValueError):
        pld.epsilon_bounds("0.1", "1", 3, "0")
    with pytest.raises(ValueError):
        pld.delta_bounds("0.1", "1", 3, "1", h="0")
    with pytest.raises(ValueError):
        pld.delta_bounds("0.1", "1", 3, "-1")


@pytest.mark.parametrize("x, bits", [
    (Fraction(0), 64), (Fraction(1, 3), 64), (Fraction(-7, 2), 256), (Fraction(391), 64),
    (Fraction(2492819, 2000), 256), (Fraction(-10**6), 256), (Fraction(5000), 8),
])
def test_exp_fixed_brackets_hold_at_any_magnitude(x: Fraction, bits: int) -> None:
    """floor and ceil of e^x 2^bits within one extra unit, also where the value has hundreds of
    digits (a fixed 90-digit evaluation was off by 10^528 at x = 1246, bits = 256)."""
    digits = 60 + int(max(x, 0) * Fraction(2, 3)) + bits // 3
    with mpmath.workdps(digits):
        y = mpmath.ldexp(mpmath.exp(mpmath.mpf(x.numerator) / x.denominator), bits)
        lo_true, hi_true = int(mpmath.floor(y)), int(mpmath.ceil(y))
    lo, hi = pld._exp_fixed(x, bits, up=False), pld._exp_fixed(x, bits, up=True)
    assert lo == max(lo_true - 1, 0) and hi == hi_true + 1
