"""The near-central instance of sec. 4.1 of [GKMP20] as a named parameter choice
(dpspec.spec.shuffled.params.design_near_central)."""

from __future__ import annotations

from fractions import Fraction

import mpmath

from dpspec.spec.accounting.ghazi import theorem18_guarantee
from dpspec.spec.shuffled import accuracy as acc
from dpspec.spec.shuffled.compare import binary_comparison, near_central_design
from dpspec.spec.shuffled.params import DECAY_DIGITS, near_central_decay


def test_decay_spends_at_most_99_percent() -> None:
    for eps in (Fraction(1, 2), Fraction(1), Fraction(3)):
        a = near_central_decay(eps)
        with mpmath.workdps(40):
            eps1 = -mpmath.log(mpmath.mpf(a.numerator) / a.denominator)
            target = mpmath.mpf(99 * eps.numerator) / (100 * eps.denominator)
            assert eps1 <= target
            assert target - eps1 < mpmath.mpf(10) ** -(DECAY_DIGITS - 2)
        assert a.denominator <= 10**DECAY_DIGITS


def test_theorem_design_meets_the_target_through_theorem_18() -> None:
    eps, delta = mpmath.mpf(1), mpmath.mpf("1e-6")
    d = near_central_design(eps, delta, 10_000, "theorem")
    sp = d.split
    assert sp is not None and sp.epsilon2 >= mpmath.mpf("0.01") * eps * (1 - 1e-9)
    e, dl = theorem18_guarantee(d.epsilon1, sp.epsilon2, sp.delta2, sp.delta3)
    assert e <= eps * (1 + 1e-12) and dl <= delta * (1 + 1e-9)
    # error within 1.1% of central DLap(eps): sqrt(2a)/(1-a) vs DLap(1)
    ratio = acc.rmse(d.mse()) / acc.central_dlap_rmse(eps, 30)
    assert 1 < ratio < mpmath.mpf("1.011")


def test_exact_design_is_private_and_cheaper() -> None:
    eps, delta = mpmath.mpf(1), mpmath.mpf("1e-6")
    thm = near_central_design(eps, delta, 10_000, "theorem")
    ex = near_central_design(eps, delta, 10_000, "exact")
    assert ex.a == thm.a
    assert ex.exact_delta() <= 1e-6
    assert ex.expected_messages() < thm.expected_messages() / 100


def test_rows_in_the_comparison() -> None:
    rows = binary_comparison(mpmath.mpf(1), mpmath.mpf("1e-6"), 10_000, theorems=False,
                             near_central=True)
    keys = [r.key for r in rows]
    assert "near_central" in keys and "near_central_thm" not in keys
