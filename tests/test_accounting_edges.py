"""Accounting at the edges: exact thresholds, tiny deltas, extreme parameters, safe rounding of
what is printed, reproducible published values, and clear refusals (the accounting audit)."""

from __future__ import annotations

import math
import re
from decimal import Decimal
from fractions import Fraction

import mpmath
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from dpspec.conformance.cli import main
from dpspec.conformance.commands import account
from dpspec.spec.accounting import (
    discrete,
    gaussian,
    seed_tables,
    shuffle,
    shuffle_mp,
    subsampling,
)
from dpspec.spec.accounting.numeric import (
    bisect_int,
    compact,
    grid_step_down,
    mpf,
    round_fixed,
    round_up,
    smallest_int,
    smallest_on_grid,
    to_fraction,
)
from dpspec.spec.shuffled.privacy import rappor_flip_probability, rr_flip_probability


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def brute_dg_delta(eps: str, s2: Fraction, v: int, reach: int) -> mpmath.mpf:
    """delta(eps) of the 1-D discrete Gaussian by direct summation at 80 digits."""
    with mpmath.workdps(80):
        s2m = mpmath.mpf(s2.numerator) / s2.denominator
        w = {y: mpmath.exp(-mpmath.mpf(y * y) / (2 * s2m)) for y in range(-reach, reach + v + 1)}
        z = mpmath.fsum(w[y] for y in range(-reach, reach + 1))
        ee = mpmath.exp(mpf(eps))
        total = mpmath.mpf(0)
        for y in range(-reach, reach + 1):
            p = w[y] / z
            q = w.get(y - v, mpmath.mpf(0)) / z if -reach <= y - v <= reach + v else 0
            if p > ee * q:
                total += p - ee * q
        return total


# -- issue item 3: thresholds that are exact integers -------------------------------------------
@pytest.mark.parametrize(("sigma", "s2", "v", "want"), [
    ("sqrt(1/2)", Fraction(1, 2), 1, "0.18966"),
    ("sqrt(8)", Fraction(8), 2, "0.037969"),
])
def test_discrete_delta_at_integer_thresholds(sigma: str, s2: Fraction, v: int, want: str) -> None:
    got = discrete.discrete_gaussian_delta(1, sigma, (v,))
    brute = brute_dg_delta("1", s2, v, 60)
    assert abs(got - brute) <= brute * mpmath.mpf(10) ** -15
    assert got >= brute  # an upper bound
    assert mpmath.nstr(got, 5) == want


# -- issue item 1: deltas below the former table cut-off -----------------------------------------
def test_discrete_delta_below_the_former_cut_off() -> None:
    got = discrete.discrete_gaussian_delta(1, "13.7659", (1,))
    brute = brute_dg_delta("1", Fraction("13.7659") ** 2, 1, 400)
    assert mpmath.mpf("1e-46") < brute < mpmath.mpf("1e-44")
    assert brute <= got <= brute * (1 + mpmath.mpf(10) ** -15)


@pytest.mark.parametrize("delta", ["1e-40", "1e-60", "1e-300"])
def test_discrete_calibration_at_tiny_delta(delta: str) -> None:
    cal = discrete.calibrate_discrete_gaussian_sigma(1, delta, (1,), 12)
    assert 0 < cal.delta_at_sigma <= mpf(delta)
    # the former answer (13.7659... for every delta below about 1e-45) is not enough
    assert mpf(cal.sigma) > mpf("12.9")
    below = mpf(cal.sigma) * (1 - mpmath.mpf("1e-9"))
    assert discrete.discrete_gaussian_delta(1, below, (1,)) > mpf(delta)


def test_discrete_two_coordinates_at_tiny_delta() -> None:
    d = discrete.discrete_gaussian_delta(1, "30", (1, -1))
    assert mpmath.mpf("1e-110") < d < mpmath.mpf("1e-90")


def test_discrete_work_is_refused_up_front() -> None:
    with pytest.raises(ValueError, match="table operations"):
        discrete.calibrate_discrete_gaussian_sigma("1e-6", "1e-9", (1,), 12)


# -- issue item 2: safe rounding of what is printed ------------------------------------------------
def test_round_fixed_is_exact() -> None:
    assert round_fixed(0.56111579131857, 10, up=True) == "0.5611157914"
    assert round_fixed(Fraction(1234560000001, 10**13), 6, up=True) == "0.123457"
    assert round_fixed("0.1234560", 6, up=True) == "0.123456"
    assert round_fixed("-0.5", 0, up=False) == "-1"
    # the former _fixed subtracted 1e-9 before its ceiling and printed 0.123456 here
    assert seed_tables._fixed(0.1234560000001, 6) == "0.123457"


@settings(max_examples=300, deadline=None)
@given(st.integers(-(10**300), 10**300), st.integers(-3000, 3000), st.integers(1, 200),
       st.booleans())
def test_round_sig_is_directed_at_any_precision(m: int, e: int, digits: int, up: bool) -> None:
    """round_sig of the mpf m 2^e (up to 1000 bits, more than the 200 digits the conversion used
    to keep) is on the digits-digit grid and on the right side of it, exactly."""
    from dpspec.spec.accounting.numeric import round_sig, to_fraction

    assume(m != 0)
    with mpmath.workprec(1100):  # m < 2^1000: every bit kept
        x = mpmath.mpf((m, e))
    exact = Fraction(m) * Fraction(2) ** e
    assert to_fraction(x) == exact
    r = Decimal(round_sig(x, digits, up=up))
    got = Fraction(r)
    assert (got >= exact) if up else (got <= exact)
    step = Fraction(10) ** (r.adjusted() - digits + 1)
    assert abs(got - exact) < step
    assert (got / step).denominator == 1  # on the grid


def test_round_sig_refuses_more_than_200_digits() -> None:
    from dpspec.spec.accounting.numeric import MAX_ROUND_DIGITS, round_sig

    assert MAX_ROUND_DIGITS == 200
    with mpmath.workdps(300):
        third = mpmath.mpf(1) / 3
    assert round_sig(third, 200, up=True) == "0." + "3" * 199 + "4"
    with pytest.raises(ValueError, match="at most 200"):
        round_sig(third, 201, up=True)


@settings(max_examples=200, deadline=None)
@given(st.integers(-(10**500), 10**500), st.integers(0, 600), st.booleans())
def test_round_fixed_is_directed_for_long_quotients(n: int, places: int, up: bool) -> None:
    """round_fixed keeps every digit of its quotient (it used to round past 400 digits)."""
    x = Fraction(n, 7**40)
    got = Fraction(Decimal(round_fixed(x, places, up=up)))
    assert (got >= x) if up else (got <= x)
    assert abs(got - x) < Fraction(1, 10**places)


def test_grid_step_down_keeps_long_values_exact() -> None:
    from dpspec.spec.accounting.numeric import grid_step_down

    g = Decimal("2." + "0" * 450 + "1")  # off the 12-digit grid, 452 digits
    assert Fraction(grid_step_down(g, 12)) == Fraction(g) - Fraction(1, 10**11)
    assert grid_step_down(Decimal("1000"), 3) == Decimal("999")


def test_compact_is_exact() -> None:
    assert compact("0.000000001000000000") == "1e-9"
    assert compact("23.3900") == "23.39"
    assert compact("1234567.000") == "1234567"
    assert Decimal(compact("0.0000000012345678901")) == Decimal("0.0000000012345678901")
    # more digits than the default decimal context (28) holds: none may be rounded away, or a
    # directed rounding done before compact() would be undone
    long = "0.12345678901234567890123456789012345678"
    assert compact(long + "000") == long
    assert compact("9" * 35 + "e-40") == "9." + "9" * 34 + "e-6"
    assert compact("1" + "0" * 40 + "1") == "1." + "0" * 40 + "1e41"


@settings(max_examples=60, deadline=None)
@given(st.fractions(min_value=Fraction(1, 10**12), max_value=Fraction(10**6)),
       st.floats(min_value=0.5, max_value=2.0), st.integers(min_value=10, max_value=14))
def test_smallest_on_grid(target: Fraction, factor: float, digits: int) -> None:
    with mpmath.workdps(40):
        t = mpmath.mpf(target.numerator) / target.denominator
        got = smallest_on_grid(lambda x: x >= t, t * factor, digits)
        # the smallest grid value satisfying the predicate, evaluated as the function does
        assert mpf(got) >= t and mpf(str(grid_step_down(Decimal(got), digits))) < t
        assert len(Decimal(got).normalize().as_tuple().digits) <= digits
        assert abs(Decimal(got) - Decimal(round_up(t, digits))) <= Decimal(got).scaleb(-digits + 1)


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=-5, max_value=10**6), st.integers(min_value=0, max_value=10**7),
       st.one_of(st.none(), st.integers(min_value=1, max_value=10**6)))
def test_smallest_int(lo: int, threshold: int, first: int | None) -> None:
    probes: list[int] = []

    def pred(n: int) -> bool:
        probes.append(n)
        return n >= threshold

    if first is not None and first <= max(lo, 0):
        with pytest.raises(ValueError, match="must exceed"):
            smallest_int(pred, lo, first=first)
        assert probes == []
        return
    assert smallest_int(pred, lo, first=first) == max(lo, threshold)
    assert min(probes) == lo  # pred(lo) first, nothing below it
    assert len(probes) <= 2 * max(threshold, 1).bit_length() + 4
    # lo known to fail: it is not evaluated (the answer is the same when it does fail)
    probes.clear()
    if lo < threshold:
        assert smallest_int(pred, lo, first=first, lo_fails=True) == threshold
        assert lo not in probes


def test_smallest_int_cap() -> None:
    probes: list[int] = []

    def pred(n: int) -> bool:
        probes.append(n)
        return n >= 100

    assert smallest_int(pred, 1, cap=99) is None
    assert probes == [1, 2, 4, 8, 16, 32, 64]  # no probe above the cap
    assert smallest_int(pred, 1, cap=128) == 100
    assert smallest_int(pred, 100, cap=1) == 100  # lo itself is always tried


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=-10**6, max_value=10**6), st.integers(min_value=2, max_value=10**6),
       st.integers(min_value=0, max_value=10**6))
def test_bisect_int(lo: int, width: int, offset: int) -> None:
    hi = lo + width
    threshold = lo + 1 + offset % width  # in (lo, hi]
    seen: list[int] = []

    def pred(n: int) -> bool:
        seen.append(n)
        return n >= threshold

    assert bisect_int(pred, lo, hi) == threshold
    assert all(lo < n < hi for n in seen)  # the ends are never evaluated
    assert bisect_int(lambda n: False, lo, hi) == hi  # hi is a sentinel: returned untested


def test_printed_shuffle_epsilon_is_rounded_up(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "account", "shuffle", "--eps0", "4", "--n", "10000",
                         "--delta", "1e-9", "--bound", "fmt22")
    assert status == 0
    printed = re.match(r"eps = ([0-9.]+) ", out)
    assert printed is not None
    # 0.56111579131857... is the exact value: the former output 0.5611157913 was below it
    assert printed.group(1) == "0.5611157914"
    curve = shuffle_mp.CloneCurve(4, 10000, "fmt22")
    assert curve.delta(mpf(printed.group(1))) <= mpf("1e-9")
    assert curve.delta(mpf("0.5611157913")) > mpf("1e-9")


def test_printed_calibration_delta_is_rounded_up(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "calibrate", "gaussian", "--epsilon", "1", "--delta", "1e-8",
                         "--sensitivity", "1")
    m = re.match(r"sigma = ([0-9.]+) .*delta at sigma = ([0-9.e-]+)\)", out)
    assert status == 0 and m is not None
    exact = gaussian.gaussian_delta(1, m.group(1))
    assert mpf(m.group(2)) >= exact and mpf(m.group(2)) - exact <= exact * mpf("1e-9")


def test_closed_form_is_rounded_up() -> None:
    text = shuffle_mp.closed_form_value(3, 10000, "1e-6")
    with mpmath.workdps(60):
        e0 = mpmath.mpf(3)
        exact = mpmath.log1p(mpmath.expm1(e0) * (
            4 * mpmath.sqrt(2 * mpmath.log(4 / mpmath.mpf("1e-6")))
            / mpmath.sqrt((mpmath.exp(e0) + 1) * 10000) + mpmath.mpf(4) / 10000))
        assert mpf(text) >= exact and mpf(text) - exact < mpmath.mpf("1e-10")


# -- issue item 4: right answers at the extremes ----------------------------------------------------
def test_clone_bound_never_exceeds_eps0() -> None:
    got = shuffle_mp.clone_epsilon(50, 1000, "1e-6", "fmt20")
    assert mpf(got) <= 50
    assert shuffle.clone_epsilon(20, 1000, 1e-6, "fmt20").eps <= 20


def test_clone_bound_at_delta_1e_300() -> None:
    got = shuffle_mp.clone_epsilon(1, 10000, "1e-300", "fmt22")
    assert 0 < mpf(got) < 1
    curve = shuffle_mp.CloneCurve(1, 10000, "fmt22", mpf("1e-300"))
    assert curve.window.lost < mpf("1e-320")


def test_subsampled_gaussian_extremes() -> None:
    eps, _ = subsampling.subsampled_gaussian_epsilon("0", "1", 10, "1e-8")
    assert eps == 0
    eps, _ = subsampling.subsampled_gaussian_epsilon("0.5", "1000000", 10, "1e-8")
    assert 0 < eps < mpf("1e-4")


# -- the mpmath shuffle curves against brute force and the binary64 ones ----------------------------
def brute_clone_delta(eps: float, eps0: float, n: int, variant: str) -> mpmath.mpf:
    with mpmath.workdps(50):
        e0 = mpmath.mpf(eps0)
        pc = mpmath.exp(-e0) if variant == "fmt20" else 2 / (mpmath.exp(e0) + 1)
        al = 1 / (1 + mpmath.exp(-e0))
        ee = mpmath.exp(mpmath.mpf(eps))
        total = mpmath.mpf(0)
        for c in range(n):
            wc = mpmath.binomial(n - 1, c) * pc**c * (1 - pc) ** (n - 1 - c)
            for a in range(c + 2):
                ba = mpmath.binomial(c, a) / 2**c if a <= c else 0
                bm = mpmath.binomial(c, a - 1) / 2**c if a >= 1 else 0
                p = al * ba + (1 - al) * bm
                q = (1 - al) * ba + al * bm
                if p > ee * q:
                    total += wc * (p - ee * q)
        return total


@pytest.mark.parametrize("variant", ["fmt20", "fmt22"])
def test_clone_curve_brute_force(variant: str) -> None:
    for eps in (0.05, 0.3, 1.0):
        brute = brute_clone_delta(eps, 1.5, 40, variant)
        got = shuffle_mp.CloneCurve(1.5, 40, variant).delta(mpmath.mpf(eps))
        with mpmath.workdps(50):
            assert brute * (1 - mpmath.mpf("1e-45")) <= got
            assert got <= brute * (1 + mpmath.mpf("1e-30")) + mpmath.mpf("1e-58")


@pytest.mark.parametrize("variant", ["fmt20", "fmt22"])
def test_clone_delta_is_zero_from_eps0_on(variant: str) -> None:
    # each conditional pair has likelihood ratio at most e^eps0: delta is 0 for every eps >= eps0,
    # including eps0 where binary64 rounds alpha = e^eps0/(e^eps0 + 1) to 1 (eps0 above ~37),
    # as the certified curve says; it used to charge the uncounted tail, or 1 above ~37
    for eps0 in (0.5, 2.0, 10.0, 30.0, 38.0, 40.0):
        for eps in (eps0, eps0 + 1e-9, eps0 + 1):
            assert shuffle.clone_delta(eps, eps0, 10, variant) == 0.0
            assert shuffle_mp.CloneCurve(eps0, 10, variant).delta(mpmath.mpf(eps)) == 0


@pytest.mark.parametrize(("eps", "eps0", "n"), [(29.999999, 30.0, 100), (29.9, 30.0, 20),
                                                 (37.0, 38.0, 10), (20.0, 38.0, 10)])
def test_clone_delta_near_and_beyond_the_binary64_limit(eps: float, eps0: float, n: int) -> None:
    # 1 - alpha is computed as 1/(e^eps0 + 1): a subtraction 1 - alpha lost three digits at
    # eps0 = 30 (where clone_epsilon claimed 29.999833 for delta 1e-6, whose true delta is 1.7e-4)
    # and all of them from eps0 ~ 37
    for variant in ("fmt20", "fmt22"):
        brute = brute_clone_delta(eps, eps0, n, variant)
        assert shuffle.clone_delta(eps, eps0, n, variant) == pytest.approx(float(brute), rel=1e-9)
    got = shuffle.clone_epsilon(30, 100, 1e-6, "fmt20").eps
    cert = shuffle_mp.clone_epsilon(30, 100, "1e-6", "fmt20")
    assert float(cert) * (1 - 1e-9) <= got <= 30
    assert float(brute_clone_delta(got, 30.0, 100, "fmt20")) <= 1e-6 * (1 + 1e-6)


def brute_clone_rdp(a: int, eps0: float, n: int) -> mpmath.mpf:
    """Renyi divergence of integer order ``a`` of the fmt22 clone pair, every atom in mpmath."""
    with mpmath.workdps(60):
        e0 = mpmath.mpf(eps0)
        pc = 2 / (mpmath.exp(e0) + 1)
        al, be = 1 / (1 + mpmath.exp(-e0)), 1 / (1 + mpmath.exp(e0))
        total = mpmath.mpf(0)
        for c in range(n):
            wc = mpmath.binomial(n - 1, c) * pc**c * (1 - pc) ** (n - 1 - c)
            inner = mpmath.mpf(0)
            for k in range(c + 2):
                b = mpmath.binomial(c, k) / 2**c if k <= c else 0
                bm = mpmath.binomial(c, k - 1) / 2**c if k >= 1 else 0
                inner += (al * b + be * bm) ** a / (be * b + al * bm) ** (a - 1)
            total += wc * inner
        return mpmath.log(total) / (a - 1)


@pytest.mark.parametrize("eps0", [1.0, 20.0, 30.0, 38.0])
def test_clone_rdp_keeps_one_minus_alpha_apart(eps0: float) -> None:
    # log(1 - alpha) is -eps0 - log1p(e^-eps0): log1p(-alpha) lost three digits at eps0 = 30
    # (29.99983 instead of 29.99999999999), and raised a math domain error from eps0 ~ 37
    got = shuffle.rr_clone_rdp(2, eps0, 12)
    assert got == pytest.approx(float(brute_clone_rdp(2, eps0, 12)), rel=1e-12)


def test_clone_delta_is_monotone_in_eps0_up_to_the_search_cap() -> None:
    # shuffled.privacy bisects eps0 in (0, 40] on this monotonicity
    for variant in ("fmt20", "fmt22"):
        for eps in (1.0, 20.0, 35.0, 39.5, 41.0):
            ds = [shuffle.clone_delta(eps, e0 / 4, 10, variant) for e0 in range(1, 161)]
            assert all(a <= b + 1e-15 for a, b in zip(ds, ds[1:], strict=False)), (variant, eps)


def test_rappor_flip_probability_above_the_search_cap() -> None:
    # eps 41 >= the cap eps0 = 40: private at the cap by the local guarantee (it used to raise
    # AssertionError, the clone delta at eps0 = 40 being 1 instead of 0)
    f, _ = rappor_flip_probability(41.0, 0.0, 10)
    assert 2 * math.log((1 - f) / f) <= 40
    p, _ = rr_flip_probability(41.0, 0.0, 10)
    assert p == Fraction(1, 10**12)


def test_mp_curves_agree_with_binary64() -> None:
    for eps in (0.1, 0.4):
        mp = shuffle_mp.rr_sum_delta(eps, 2, 300, "replacement", 3)
        assert float(mp) == pytest.approx(shuffle.rr_sum_delta(eps, 2, 300, ones=3), rel=1e-9)
        mp = shuffle_mp.rr_sum_delta(eps, 1, 40, "deletion")
        assert float(mp) == pytest.approx(shuffle.rr_sum_delta(eps, 1, 40, "deletion"), rel=1e-9)
        mp = shuffle_mp.rappor_histogram_delta(eps, 2, 300)
        assert float(mp) == pytest.approx(shuffle.rappor_histogram_delta(eps, 2, 300), rel=1e-9)
    eps, _ = shuffle_mp.rappor_histogram_rdp_epsilon(3, 500, "1e-6")
    f = shuffle.rappor_histogram_rdp_epsilon(3, 500, 1e-6).eps
    assert f <= float(eps) <= f * (1 + 1e-8)


def test_worst_composition_ties_are_broken_deterministically() -> None:
    # ones = 2 and ones = n - 3 = 57 are mirror images with the same delta
    d, ones = shuffle_mp.rr_sum_worst_delta("0.3", 2, 60)
    assert ones == 2
    assert d == round_up(shuffle_mp.rr_sum_delta("0.3", 2, 60, ones=57), 10)



def test_binary64_worst_composition_reports_the_smaller_mirror() -> None:
    # replacement: ones and n - 1 - ones give the same delta, so only the lower half is scanned
    # and the reported maximiser is the smaller of its pair, like the exact curve's above
    for n, eps0, eps in ((60, "2", "0.3"), (10, "2", "0.05"), (11, "2", "0.05"), (2, "1", "0.1")):
        d, ones = shuffle.rr_sum_worst_delta(eps, eps0, n)
        every = [shuffle.rr_sum_delta(eps, eps0, n, ones=k) for k in range(n)]
        assert ones <= (n - 1) // 2
        assert d == every[ones]
        assert math.isclose(d, max(every), rel_tol=1e-12)
    assert shuffle.rr_sum_worst_delta("0.3", "2", 60)[1] == shuffle_mp.rr_sum_worst_delta("0.3", 2, 60)[1]
    # deletion has no mirror: every composition is scanned
    assert shuffle.rr_sum_worst_delta("0.3", "2", 60, "deletion")[1] == 59


@pytest.mark.parametrize("eps", ["700.5", "-700.5", "1e400", "-1e400"])
def test_binary64_curves_refuse_an_eps_whose_exponential_overflows(eps: str) -> None:
    # e^eps beyond a double made the hockey-stick sum nan (and the worst case -1) before
    for call in (lambda: shuffle.rr_sum_delta(eps, "1", 10),
                 lambda: shuffle.rr_sum_worst_delta(eps, "1", 10),
                 lambda: shuffle.rappor_histogram_delta(eps, "1", 10),
                 lambda: shuffle.rappor_histogram_clone_delta(eps, "1", 10)):
        with pytest.raises(ValueError, match="700"):
            call()
    assert shuffle.rr_sum_delta("700", "1", 10, "deletion") > 0
    assert shuffle.rr_sum_delta("-700", "1", 10) == pytest.approx(1.0)


def test_deletion_search_bracket_stays_within_binary64() -> None:
    # 4 eps0 + 50 exceeded 709 (e^eps overflowed) from eps0 164.75 on; the end is capped at 700
    for eps0 in ("165", "200", "700"):
        r = shuffle.rr_sum_epsilon(eps0, 10, "1e-6", "deletion")
        assert math.isfinite(r.eps) and r.eps <= float(eps0)


def test_seed_table_decimals_round_up_from_the_written_value() -> None:
    # a decimal string is rounded at the value it writes, not at its binary neighbour
    assert seed_tables._fixed("0.317", 6) == "0.317000"
    assert seed_tables._fixed("0.3170000001", 6) == "0.317001"
    assert seed_tables._fixed(0.317, 6) == "0.317001"  # the double 0.317 is above 0.317



def test_mpmath_rappor_bounds_keep_the_atoms_of_mass_below_the_working_precision() -> None:
    # eps0 200: p = 1/(e^200 + 1) < 10^-50 and 1 - (1 - p) was 0 at 50 digits, so the atoms that
    # carry the privacy loss vanished and delta(0) came out as 2.8e-87 instead of 1
    assert shuffle_mp.rappor_histogram_delta("0", "200", 2) == 1
    upper = shuffle_mp.rappor_histogram_delta("399", "200", 2)
    assert upper >= shuffle.rappor_histogram_delta("399", "200", 2) > 0.26
    assert shuffle_mp.rappor_histogram_rdp_epsilon("200", 2, "1e-6")[0] == "400.0000000"
    [(with_one, with_zero)], _ = shuffle_mp.rr_pairs("200", 2, "replacement", 0,
                                                     shuffle_mp.cutoff_for(None))
    assert all(x > 0 for x in with_one + with_zero)
    with pytest.raises(ArithmeticError, match="no mass"):
        shuffle_mp._positive_atoms([mpmath.mpf(1), mpmath.mpf(0)], [mpmath.mpf(0.5)] * 2)


# -- parsing ----------------------------------------------------------------------------------------
def test_digit_separators_are_refused() -> None:
    with pytest.raises(ValueError, match="separators"):
        to_fraction("1_0", "epsilon")


# -- the optional dp-accounting cross-check ---------------------------------------------------------
def test_cross_check_is_bounded_and_never_withholds_the_answer(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("dp_accounting")
    monkeypatch.setattr(account, "CROSS_CHECK_SECONDS", 0.001)
    status, out, err = run(capsys, "account", "subsampled-gaussian", "--sigma", "1", "--q", "0.01",
                           "--steps", "10", "--delta", "1e-6")
    lines = out.splitlines()
    assert status == 0 and err == ""
    assert lines[0].startswith("eps = ") and "cross-check skipped" in lines[1]


def test_cross_check_can_be_turned_off(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "account", "subsampled-gaussian", "--sigma", "1", "--q", "0.01",
                         "--steps", "10", "--delta", "1e-6", "--no-cross-check")
    assert status == 0 and out.count("\n") == 1


# -- refusals and hostile parameters (cheap inputs; tests/benchmarks/sweep_accounting.py times
#    the expensive ones) -------------------------------------------------------------------------
HOSTILE = [
    ("calibrate", "gaussian", "--epsilon", "1_0", "--delta", "1e-9", "--sensitivity", "1"),
    ("calibrate", "gaussian", "--epsilon", "nan", "--delta", "1e-9", "--sensitivity", "1"),
    ("calibrate", "gaussian", "--epsilon", "inf", "--delta", "1e-9", "--sensitivity", "1"),
    ("calibrate", "gaussian", "--epsilon", "1e400", "--delta", "1e-9", "--sensitivity", "1"),
    ("calibrate", "gaussian", "--epsilon", "1", "--delta", "-1", "--sensitivity", "1"),
    ("calibrate", "gaussian", "--epsilon", "1", "--delta", "1e-9", "--sensitivity", "1",
     "--digits", "60"),
    ("calibrate", "gaussian", "--epsilon", "1", "--delta", "1e-9", "--sensitivity", "10",
     "--discrete"),
    ("calibrate", "gaussian", "--epsilon", "1", "--delta", "1e-9", "--sensitivity", "1",
     "--discrete", "--vector", "3,4"),
    ("calibrate", "gaussian", "--epsilon", "1e-6", "--delta", "1e-9", "--sensitivity", "1",
     "--discrete"),
    ("calibrate", "gaussian", "--epsilon", "1", "--delta", "1e-9", "--sensitivity", "1",
     "--discrete", "--vector", "1000000"),
    ("calibrate", "poisson", "--epsilon", "1e400", "--delta", "1e-6"),
    ("calibrate", "poisson", "--epsilon", "1e-6", "--delta", "1e-6"),
    ("calibrate", "poisson", "--epsilon", "1", "--delta", "1e-6", "--sensitivity", "1000"),
    ("calibrate", "negative-binomial", "--epsilon", "1", "--delta", "1e-6", "--p", "0.9999999"),
    ("calibrate", "negative-binomial", "--epsilon", "1e-6", "--delta", "1e-6"),
    ("account", "shuffle", "--eps0", "1", "--n", "1000000000", "--delta", "1e-6",
     "--bound", "exact-rr"),
    ("account", "shuffle", "--eps0", "nan", "--n", "1000", "--delta", "1e-6"),
    ("account", "shuffle", "--eps0", "1", "--n", "1", "--delta", "1e-6"),
    # n far beyond what the clone bounds' window can hold: refused before any work
    ("account", "shuffle", "--eps0", "1", "--n", "10000000000000", "--delta", "1e-6",
     "--bound", "fmt20"),
    ("account", "shuffle", "--eps0", "0.000001", "--n", "1000000000000000000000000000",
     "--delta", "1e-6", "--bound", "fmt22"),
    ("account", "shuffle", "--eps0", "1", "--n", "100000", "--delta", "1e-6",
     "--bound", "exact-rr", "--worst-case"),
    ("account", "subsampled-gaussian", "--sigma", "1", "--q", "0.1",
     "--steps", "100000000000000000", "--delta", "1e-6", "--no-cross-check"),
    # experiment ghazi: every input answers or is refused up front
    ("experiment", "ghazi", "--epsilon", "1e-6", "--delta", "1e-6"),
    ("experiment", "ghazi", "--epsilon", "0.001"),
    ("experiment", "ghazi", "--delta", "1e-300"),
    ("experiment", "ghazi", "--delta", "1e-100"),
    ("experiment", "ghazi", "--epsilon", "1e400"),
    ("experiment", "ghazi", "--delta", "nan"),
    ("experiment", "ghazi", "--n", "1e400"),
    ("experiment", "ghazi", "--simulate", "1_0"),
    ("experiment", "ghazi", "--simulate", "1000000"),
    ("experiment", "ghazi", "--buckets", "-inf"),
    ("account", "subsampled-gaussian", "--sigma", "1", "--q", "-inf", "--steps", "10",
     "--delta", "1e-6", "--no-cross-check"),
]


@pytest.mark.parametrize("argv", HOSTILE, ids=lambda a: " ".join(a[:2]) + " " + " ".join(a[2:6]))
def test_hostile_parameters_give_one_line_and_exit_2(
        capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2, (out, err)
    assert out == "" and err.count("\n") == 1 and err.startswith("dpspec: error:")
    assert "Traceback" not in err


def test_extreme_but_valid_parameters_answer(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (
        ("account", "shuffle", "--eps0", "800", "--n", "1000", "--delta", "1e-6"),
        ("account", "shuffle", "--eps0", "50", "--n", "1000", "--delta", "1e-6"),
        ("account", "shuffle", "--eps0", "1", "--n", "10000", "--delta", "1e-300",
         "--bound", "fmt22"),
        ("account", "subsampled-gaussian", "--sigma", "1000000", "--q", "0.1", "--steps", "10",
         "--delta", "1e-6", "--no-cross-check"),
        # nearly no privacy loss: (0, 1e-6)-DP (the total variation is about 1e-400)
        ("account", "subsampled-gaussian", "--sigma", "1e400", "--q", "0.1", "--steps", "10",
         "--delta", "1e-6", "--no-cross-check"),
        ("calibrate", "gaussian", "--epsilon", "1", "--delta", "1e-9", "--sensitivity", "1e-300"),
    ):
        status, out, err = run(capsys, *argv)
        assert status == 0 and err == "" and out.startswith(("eps = ", "sigma = ")), argv


# -- the clone bounds at huge n and tiny delta (fixed-point evaluation) ----------------------------
def exact_clone_delta(eps: str, eps0: int, n: int, variant: str, floor: str) -> mpmath.mpf:
    """delta(eps) of the clone pair from its definition, with exact integer binomials for the
    conditional pairs (each ``P_c - e^eps Q_c`` summed over the a where it is positive); the
    values of C whose weight is below ``floor`` are skipped."""
    with mpmath.workdps(420):
        e0 = mpmath.mpf(eps0)
        pc = mpmath.exp(-e0) if variant == "fmt20" else 2 / (mpmath.exp(e0) + 1)
        al = 1 / (1 + mpmath.exp(-e0))
        ee = mpmath.exp(mpmath.mpf(eps))
        k1, k2 = al - ee * (1 - al), (1 - al) - ee * al
        total = mpmath.mpf(0)
        for c in range(n):
            wc = mpmath.exp(mpmath.loggamma(n) - mpmath.loggamma(c + 1) - mpmath.loggamma(n - c)
                            + c * mpmath.log(pc) + (n - 1 - c) * mpmath.log1p(-pc))
            if wc < mpmath.mpf(floor):
                continue
            cur, prev, s = 1, 0, mpmath.mpf(0)  # C(c, a), C(c, a - 1)
            for a in range(c + 2):
                term = k1 * cur + k2 * prev
                if term > 0:
                    s += term
                prev, cur = cur, (cur * (c - a) // (a + 1) if a < c else 0)
            total += wc * s / mpmath.mpf(2) ** c
        return total


def test_clone_curve_at_delta_1e_300_is_tight() -> None:
    # the former mpmath recurrence carried an absolute error of 1e-50 times the first CDF value
    # (about 1e-230) through the window, so its curve was not monotone there (delta(0.5) = 2e-274
    # above delta(0.4893) = 1e-330) and the published eps 0.4893 was not the smallest
    curve = shuffle_mp.CloneCurve(1, 600, "fmt22", mpf("1e-300"))
    for eps in ("0.9", "0.95"):
        exact = exact_clone_delta(eps, 1, 600, "fmt22", "1e-340")
        got = curve.delta(eps)  # (a string: parsed at the curve's precision, like the exact one)
        with mpmath.workdps(60):
            assert exact <= got <= exact * (1 + mpmath.mpf("1e-20")) + 2 * curve.window.lost
    assert curve.delta("0.9") >= curve.delta("0.95")


def test_binary64_recurrence_matches_the_per_atom_sum(monkeypatch: pytest.MonkeyPatch) -> None:
    pc = shuffle.clone_probability(3.0, "fmt20")
    c, w, lost = shuffle._clone_support(10**6, pc)
    per_atom = [shuffle._clone_delta_on(eps, 3.0, c, w, lost) for eps in (0.01, 0.03)]
    monkeypatch.setattr(shuffle, "RECURRENCE_ATOMS", 0)
    recurrence = [shuffle._clone_delta_on(eps, 3.0, c, w, lost) for eps in (0.01, 0.03)]
    assert recurrence == pytest.approx(per_atom, rel=1e-7)


def test_large_n_is_certified(capsys: pytest.CaptureFixture[str]) -> None:
    # n = 10^8: formerly a binary64 value with a margin; now the certified smallest 10-digit eps
    status, out, _ = run(capsys, "account", "shuffle", "--eps0", "1", "--n", "100000000",
                         "--delta", "1e-9", "--bound", "fmt22", "--json")
    assert status == 0
    import json

    doc = json.loads(out)
    assert doc["precision"].startswith("mpmath")
    curve = shuffle_mp.CloneCurve(1, 10**8, "fmt22", mpf("1e-9"))
    printed = Decimal(doc["epsilon"])
    assert curve.delta(mpf(doc["epsilon"])) <= mpf("1e-9")
    assert curve.delta(mpf(str(grid_step_down(printed, 10)))) > mpf("1e-9")


def test_clone_curve_at_eps_0_is_the_total_variation() -> None:
    # at eps = 0 the threshold share (c + 1) = (c + 1)/2 meets an integer at every odd c: an exact
    # tie (a zero term), formerly counted as undecided with the whole weight of c (delta 0.5)
    for eps0, n in (("1.5", 40), ("0.000001", 10**9)):
        curve = shuffle_mp.CloneCurve(eps0, n, "fmt20", mpf("1e-9"))
        d0, d1 = curve.delta("0"), curve.delta("1e-12")
        assert d1 <= d0 < 2 * d1  # continuous at 0 (formerly 0.5 at n = 10^9)
    assert shuffle_mp.CloneCurve("1.5", 40, "fmt20").delta("0") == pytest.approx(
        float(brute_clone_delta(0.0, 1.5, 40, "fmt20")), rel=1e-12)
