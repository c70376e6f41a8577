"""The distributed discrete Gaussian bound (dpspec.spec.accounting.distributed), checked against
direct high-precision computation of the distributions it is about."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpspec.spec.accounting import distributed, subsampling

DPS = 60


def _dg(s2: F, k: int) -> list[mpmath.mpf]:
    """N_Z(0, s2) on -k..k (the mass beyond is below 1e-40 for the parameters used here)."""
    w = [mpmath.exp(-mpmath.mpf(y * y) / (2 * mpmath.mpf(s2.numerator) / s2.denominator))
         for y in range(-k, k + 1)]
    total = mpmath.fsum(w)
    return [x / total for x in w]


def _convolve(a: list[mpmath.mpf], b: list[mpmath.mpf]) -> list[mpmath.mpf]:
    out = [mpmath.mpf(0)] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return out


@pytest.mark.parametrize(("s2", "n"), [(F(1, 2), 2), (F(1, 2), 3), (F(3, 4), 4), (F(1), 2)])
def test_sum_of_discrete_gaussians_is_within_the_bound(s2: F, n: int) -> None:
    """The largest |log ratio| between the exact law of the sum and N_Z(0, n s2), on the range
    where both are far above the truncation error, is at most the bound and not far below it."""
    with mpmath.workdps(DPS):
        k = 14
        one = _dg(s2, k)
        total = one
        for _ in range(n - 1):
            total = _convolve(total, one)
        half = (len(total) - 1) // 2
        ideal = _dg(s2 * n, half)
        worst = max(abs(mpmath.log(total[i] / ideal[i]))
                    for i in range(len(total)) if abs(i - half) <= 6)
        bound = distributed.sum_log_ratio(s2, n)
        assert worst <= bound
        assert bound < 30 * worst  # of the right size (the cosine series is bounded in absolute value)


def test_sum_log_ratio_edges() -> None:
    assert distributed.sum_log_ratio(4, 1) == 0
    assert distributed.sum_log_ratio(4, 2) < mpmath.mpf("3e-17")
    # beyond EXACT_TERMS the remaining terms are bounded by the last one: still increasing in n
    assert distributed.sum_log_ratio(F(1, 2), 10**6) > distributed.sum_log_ratio(F(1, 2), 5000)
    with pytest.raises(ValueError, match="too small"):
        distributed.sum_log_ratio(F(1, 10), 2)
    with pytest.raises(ValueError):
        distributed.sum_log_ratio(0, 2)


def _moments(s2: F, u: tuple[int, ...], q: F, alpha: int) -> tuple[mpmath.mpf, mpmath.mpf]:
    """A = E_{N_0}[(mu / N_0)^alpha] and B = E_{mu}[(N_0 / mu)^alpha] for mu = (1-q) N_0 + q N_u,
    summed over a box of Z^d (d = len(u))."""
    k = 12
    reach = k + alpha * max(u) + 12  # the integrands peak near alpha u: sum well beyond it
    one = _dg(s2, reach)

    def p(y: tuple[int, ...], shift: tuple[int, ...]) -> mpmath.mpf:
        out = mpmath.mpf(1)
        for yi, si in zip(y, shift, strict=True):
            j = yi - si + reach
            out *= one[j] if 0 <= j < len(one) else 0
        return out

    zero = tuple(0 for _ in u)
    qq = mpmath.mpf(q.numerator) / q.denominator
    a = b = mpmath.mpf(0)
    for y in itertools.product(range(-k, reach + 1), repeat=len(u)):
        p0 = p(y, zero)
        if p0 == 0:
            continue
        mix = (1 - qq) * p0 + qq * p(y, u)
        a += p0 * (mix / p0) ** alpha
        b += mix * (p0 / mix) ** alpha
    return a, b


@pytest.mark.parametrize(("u", "q", "alpha"), [((1,), F(1, 10), 2), ((2,), F(1, 2), 3),
                                               ((1, 1), F(1, 5), 4), ((1,), F(1), 5)])
def test_integer_orders_match_the_continuous_sum_and_dominate_the_other_direction(
        u: tuple[int, ...], q: F, alpha: int) -> None:
    """Part 2 of the module docstring: A equals the continuous Gaussian's binomial sum at
    multiplier sqrt(s2 / ||u||^2) (the accountant's own function), and B <= A."""
    s2 = F(3, 2)
    with mpmath.workdps(DPS):
        a, b = _moments(s2, u, q, alpha)
        norm2 = sum(x * x for x in u)
        sigma = mpmath.sqrt(mpmath.mpf(s2.numerator) / s2.denominator / norm2)
        rdp = subsampling.sampled_gaussian_rdp(mpmath.mpf(q.numerator) / q.denominator, sigma,
                                               alpha)
        assert abs(mpmath.log(a) / (alpha - 1) / rdp - 1) < mpmath.mpf(10) ** -15
        assert b <= a


@settings(max_examples=300, deadline=None)
@given(r=st.floats(min_value=1e-6, max_value=1e6), q=st.floats(min_value=0, max_value=1),
       alpha=st.integers(min_value=2, max_value=40))
def test_reflection_inequality_holds_pointwise(r: float, q: float, alpha: int) -> None:
    """f(r) + r f(1/r) >= g(r) + r g(1/r) for f = (1-q+qr)^alpha, g = (1-q+qr)^(1-alpha)."""
    with mpmath.workdps(50):
        rr, qq = mpmath.mpf(r), mpmath.mpf(q)

        def f(x: mpmath.mpf, e: int) -> mpmath.mpf:
            return (1 - qq + qq * x) ** e

        lhs = f(rr, alpha) + rr * f(1 / rr, alpha)
        rhs = f(rr, 1 - alpha) + rr * f(1 / rr, 1 - alpha)
        assert lhs >= rhs * (1 - mpmath.mpf(10) ** -40)


def test_statement_adds_the_slack_and_the_dropped_reports() -> None:
    kw = {"sigma2": F(1, 2), "others": 10, "dimension": 3}
    plain = subsampling.subsampled_gaussian_epsilon("1/10", "2", 5, "1e-6",
                                                    orders=distributed.INTEGER_ORDERS)[0]
    b = distributed.subsampled_epsilon("1/10", "2", 5, "1e-6", **kw)
    with mpmath.workdps(distributed.DPS):
        want = 5 * 3 * distributed.sum_log_ratio(F(1, 2), 10)
    assert abs(b.slack / want - 1) < mpmath.mpf(10) ** -20
    assert b.epsilon >= plain + 2 * b.slack and b.drop == 0
    assert b.ideal_delta <= mpmath.mpf("1e-6") * mpmath.exp(-b.slack) * (1 + mpmath.mpf(10) ** -12)
    dropped = distributed.subsampled_epsilon("1/10", "2", 5, "1e-6", drop_probability=F(1, 10**12),
                                             **kw)
    assert dropped.drop >= (1 + mpmath.exp(dropped.epsilon)) * 5 * 10 * mpmath.mpf("1e-12")
    assert dropped.epsilon > b.epsilon
    assert dropped.ideal_delta + dropped.drop <= mpmath.mpf("1e-6") * (1 + mpmath.mpf("1e-20"))


def test_too_many_dropped_reports_are_refused_with_the_exponent_needed() -> None:
    kw = {"sigma2": 100, "others": 1000, "dimension": 1}
    with pytest.raises(ValueError, match=r"at least (\d+) is needed") as info:
        distributed.subsampled_epsilon("1/100", "1", 50, "1e-6", drop_probability=F(1, 10**10),
                                       **kw)
    need = int(str(info.value).rsplit("at least ", 1)[1].split()[0])

    def at(t: int) -> F:  # a rational just above e^-t
        return F(mpmath.nstr(mpmath.exp(-t) * (1 + mpmath.mpf(10) ** -15), 20))

    assert distributed.subsampled_epsilon("1/100", "1", 50, "1e-6", drop_probability=at(need),
                                          **kw).drop <= mpmath.mpf("5e-7")
    with pytest.raises(ValueError, match="is needed"):
        distributed.subsampled_epsilon("1/100", "1", 50, "1e-6", drop_probability=at(need - 2),
                                       **kw)
    with pytest.raises(ValueError):
        distributed.subsampled_epsilon("1/100", "1", 50, "0", **kw)
