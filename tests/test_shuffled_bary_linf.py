"""Certified bounds on the expected l-infinity error of B-ary randomized response
(dpspec.spec.shuffled.bary_linf): against brute-force enumeration of every report vector (exact
Fractions), against a per-bucket reference of the two bounds' definitions (no grouping, every
breakpoint), the negative-association inequalities the lower bound rests on, and the window
truncation at a larger n."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction
from math import comb

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpspec.spec.shuffled.bary_linf import (
    LinfBounds,
    bary_rr_expected_linf,
    round_outward,
)
from dpspec.spec.shuffled.divisible import ParameterError
from dpspec.spec.shuffled.histogram_experiment import error_growth, synthetic_counts


def _frac(x: mpmath.mpf) -> Fraction:
    """The exact value of an mpmath number."""
    man, exp = x.man_exp
    return Fraction(int(man)) * Fraction(2) ** int(exp)


def _joint_law(gamma: Fraction, counts: Sequence[int]) -> dict[tuple[int, ...], Fraction]:
    """The law of the report-count vector, by enumerating every user's report."""
    b = len(counts)
    users = [j for j, c in enumerate(counts) for _ in range(c)]
    p1, p0 = 1 - gamma + gamma / b, gamma / b
    law: dict[tuple[int, ...], Fraction] = {}
    for reports in itertools.product(range(b), repeat=len(users)):
        pr = Fraction(1)
        for u, r in zip(users, reports, strict=True):
            pr *= p1 if u == r else p0
        y = tuple(reports.count(j) for j in range(b))
        law[y] = law.get(y, Fraction(0)) + pr
    return law


def _errors(gamma: Fraction, counts: Sequence[int], y: Sequence[int]) -> list[Fraction]:
    n, b = sum(counts), len(counts)
    return [(y[j] - n * gamma / b) / (1 - gamma) - counts[j] for j in range(b)]


def brute_force(gamma: Fraction, counts: Sequence[int]) -> Fraction:
    """``E[max_j |X_j|]`` exactly, over every report vector."""
    return sum((pr * max(abs(e) for e in _errors(gamma, counts, y))
                for y, pr in _joint_law(gamma, counts).items()), Fraction(0))


def _marginal(gamma: Fraction, counts: Sequence[int], j: int) -> list[Fraction]:
    """Exact PMF of ``Y_j ~ Bin(c_j, p1) + Bin(n - c_j, p0)``."""
    n, b = sum(counts), len(counts)
    p1, p0 = 1 - gamma + gamma / b, gamma / b
    c = counts[j]
    a = [comb(c, k) * p1**k * (1 - p1) ** (c - k) for k in range(c + 1)]
    d = [comb(n - c, k) * p0**k * (1 - p0) ** (n - c - k) for k in range(n - c + 1)]
    out = [Fraction(0)] * (n + 1)
    for i, x in enumerate(a):
        for k, z in enumerate(d):
            out[i + k] += x * z
    return out


def reference_bounds(gamma: Fraction, counts: Sequence[int]) -> tuple[Fraction, Fraction]:
    """The two bounds' definitions evaluated per bucket (no grouping) in exact Fractions, with
    every breakpoint ``|y - mu_j|`` visited."""
    n, b = sum(counts), len(counts)
    mu = [n * gamma / b + (1 - gamma) * c for c in counts]
    pmf = [_marginal(gamma, counts, j) for j in range(b)]
    points = sorted({Fraction(0)} | {abs(y - m) for m in mu for y in range(n + 1)})
    lower = upper = Fraction(0)
    for r, nxt in itertools.pairwise(points):
        out = [sum((q for y, q in enumerate(pmf[j]) if abs(y - mu[j]) > r), Fraction(0))
               for j in range(b)]
        up = [sum((q for y, q in enumerate(pmf[j]) if y - mu[j] <= r), Fraction(0))
              for j in range(b)]
        down = [sum((q for y, q in enumerate(pmf[j]) if y - mu[j] >= -r), Fraction(0))
                for j in range(b)]
        prod_up = prod_down = Fraction(1)
        for j in range(b):
            prod_up *= up[j]
            prod_down *= down[j]
        lo = max(max(out), 1 - min(prod_up, prod_down))
        hi = max(out) if b == 2 else min(Fraction(1), sum(out))
        lower += (nxt - r) * lo
        upper += (nxt - r) * hi
    return lower / (1 - gamma), upper / (1 - gamma)


def _is_point_mass(counts: Sequence[int]) -> bool:
    return len(counts) > 2 and max(counts) == sum(counts)


def _check(gamma: Fraction, counts: list[int]) -> tuple[LinfBounds, Fraction]:
    """The bounds (with and without the point mass's exact refinement) contain the exact value;
    for the point mass and for B = 2 the interval is the exact value."""
    got = bary_rr_expected_linf(gamma, len(counts), sum(counts), counts)
    exact = brute_force(gamma, counts)
    assert _frac(got.lower) <= exact <= _frac(got.upper)
    if _is_point_mass(counts) or len(counts) == 2:
        assert _frac(got.upper) - _frac(got.lower) < Fraction(1, 10**30)
    marginal = bary_rr_expected_linf(gamma, len(counts), sum(counts), counts,
                                     point_mass_exact=False)
    assert _frac(marginal.lower) <= exact <= _frac(marginal.upper)
    lo, hi = reference_bounds(gamma, counts)
    # the sweep (grouped buckets, merged lattices, ball arithmetic) equals the per-bucket
    # definitions of the two marginal bounds up to the radii and the 10^-40 tail charge
    assert abs(_frac(marginal.lower) - lo) < Fraction(1, 10**25)
    assert abs(_frac(marginal.upper) - hi) < Fraction(1, 10**25)
    return got, exact


CASES = [
    (Fraction(1, 3), [2, 1]),
    (Fraction(9, 10), [4, 0]),
    (Fraction(1, 2), [3, 0, 0]),
    (Fraction(1, 2), [1, 1, 1]),
    (Fraction(2, 5), [2, 1, 1]),
    (Fraction(1, 10), [2, 0, 1, 2]),
    (Fraction(7, 8), [0, 0, 5]),
]


@pytest.mark.parametrize(("gamma", "counts"), CASES)
def test_bounds_bracket_brute_force_and_match_their_definitions(gamma: Fraction,
                                                                counts: list[int]) -> None:
    _check(gamma, counts)


@pytest.mark.parametrize(("gamma", "counts"), [c for c in CASES if len(c[1]) == 2])
def test_two_buckets_are_exact(gamma: Fraction, counts: list[int]) -> None:
    # Y_0 + Y_1 = n and mu_0 + mu_1 = n: the errors are opposite and the maximum is |X_0|
    got, exact = _check(gamma, counts)
    assert _frac(got.upper) - _frac(got.lower) < Fraction(1, 10**30)
    assert _frac(got.upper) - exact < Fraction(1, 10**30)


def test_point_mass_and_uniform_differ() -> None:
    # same n, B, gamma; the point mass puts one bucket at mean (1 - gamma) n away from the others'
    # lattice: a sweep that mixed up the groups' laws or lattices would not bracket both
    gamma = Fraction(1, 2)
    point, e_point = _check(gamma, [3, 0, 0])
    flat, e_flat = _check(gamma, [1, 1, 1])
    assert e_point > e_flat
    assert point.lower > flat.lower


def test_negative_association_inequalities_hold_where_used() -> None:
    """The lower bound relies on P(Y_j <= h_j for all j) <= prod_j P(Y_j <= h_j) and the same for
    >= (counts of balls with ball-dependent laws are negatively associated): check both at
    every threshold vector on a small case with unequal users."""
    gamma, counts = Fraction(1, 3), [2, 1, 0]
    law = _joint_law(gamma, counts)
    pmf = [_marginal(gamma, counts, j) for j in range(3)]
    n = sum(counts)
    for h in itertools.product(range(n + 1), repeat=3):
        both = sum((q for y, q in law.items() if all(y[j] <= h[j] for j in range(3))),
                   Fraction(0))
        prod = Fraction(1)
        for j in range(3):
            prod *= sum(pmf[j][: h[j] + 1], Fraction(0))
        assert both <= prod
        both = sum((q for y, q in law.items() if all(y[j] >= h[j] for j in range(3))),
                   Fraction(0))
        prod = Fraction(1)
        for j in range(3):
            prod *= sum(pmf[j][h[j]:], Fraction(0))
        assert both <= prod


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 4), st.integers(1, 5), st.fractions(Fraction(1, 20), Fraction(19, 20)),
       st.data())
def test_bounds_bracket_exact_value_property(b: int, n: int, gamma: Fraction,
                                             data: st.DataObject) -> None:
    cuts = sorted(data.draw(st.lists(st.integers(0, n), min_size=b - 1, max_size=b - 1)))
    counts = [hi - lo for lo, hi in zip([0, *cuts], [*cuts, n], strict=True)]
    _check(gamma, counts)


def test_windows_at_larger_n_against_full_sums() -> None:
    """n = 400, B = 2: the binomial windows drop atoms below 10^-60; E|X_0| by full mpmath sums."""
    gamma, counts = Fraction(3, 100), [250, 150]
    n = 400
    got = bary_rr_expected_linf(gamma, 2, n, counts)
    with mpmath.workdps(60):
        g = mpmath.mpf(3) / 100
        p1, p0 = 1 - g + g / 2, g / 2
        a = [mpmath.binomial(250, k) * p1**k * (1 - p1) ** (250 - k) for k in range(251)]
        d = [mpmath.binomial(150, k) * p0**k * (1 - p0) ** (150 - k) for k in range(151)]
        mu = n * g / 2 + (1 - g) * 250
        want = mpmath.fsum(x * z * abs(i + k - mu) for i, x in enumerate(a)
                           for k, z in enumerate(d)) / (1 - g)
        assert got.lower - mpmath.mpf(10) ** -30 <= want <= got.upper + mpmath.mpf(10) ** -30
        assert got.upper - got.lower < mpmath.mpf(10) ** -30


def _compositions(n: int, parts: int) -> list[tuple[int, ...]]:
    if parts == 1:
        return [(n,)]
    return [(k, *rest) for k in range(n + 1) for rest in _compositions(n - k, parts - 1)]


@pytest.mark.parametrize(("gamma", "n", "b"), [(Fraction(1, 10), 60, 3), (Fraction(3, 4), 16, 5)])
def test_point_mass_exact_at_larger_n(gamma: Fraction, n: int, b: int) -> None:
    """Every user in one bucket: the counts are Multinomial(n; p1, p0, ..., p0); the expectation
    by enumerating count vectors (exact Fractions). At n = 60 the binomial windows cut atoms
    below 10^-60."""
    p1, p0 = 1 - gamma + gamma / b, gamma / b
    counts = [n] + [0] * (b - 1)
    fact = [1]
    for k in range(1, n + 1):
        fact.append(fact[-1] * k)
    exact = Fraction(0)
    for y in _compositions(n, b):
        pr = Fraction(fact[n]) * p1 ** y[0] / fact[y[0]]
        for k in y[1:]:
            pr *= p0**k / fact[k]
        exact += pr * max(abs(e) for e in _errors(gamma, counts, y))
    got = bary_rr_expected_linf(gamma, b, n, counts)
    assert _frac(got.lower) <= exact <= _frac(got.upper)
    assert _frac(got.upper) - _frac(got.lower) < Fraction(1, 10**28)
    marginal = bary_rr_expected_linf(gamma, b, n, counts, point_mass_exact=False)
    assert _frac(marginal.lower) < exact - Fraction(1, 10**6)   # the refinement matters here
    assert _frac(marginal.upper) > exact + Fraction(1, 10**6)


def test_zero_blanket_and_bad_input() -> None:
    assert bary_rr_expected_linf(Fraction(0), 3, 4, [1, 2, 1]) == LinfBounds(mpmath.mpf(0),
                                                                          mpmath.mpf(0))
    for args in [(Fraction(1, 2), 1, 3, [3]), (Fraction(1, 2), 2, 3, [1, 1]),
                 (Fraction(1, 2), 2, 3, [4, -1]), (Fraction(1), 2, 3, [1, 2]),
                 (Fraction(1, 2), 3, 3, [1, 2])]:
        with pytest.raises(ParameterError):
            bary_rr_expected_linf(*args)  # type: ignore[arg-type]


def test_round_outward() -> None:
    x = mpmath.mpf("173.41108140081")
    assert mpmath.nstr(round_outward(x, 8, up=True), 8) == "173.41109"
    assert mpmath.nstr(round_outward(x, 8, up=False), 8) == "173.41108"
    assert round_outward(mpmath.mpf(0), 8, up=True) == 0
    # man_exp carries no sign: a negative x must be refused, not rounded as |x|
    for bad in (mpmath.mpf("-173.41108140081"), mpmath.mpf("-1e-30"), mpmath.inf, mpmath.nan):
        with pytest.raises(ParameterError):
            round_outward(bad, 8, up=True)
    b = LinfBounds(mpmath.mpf("1.23456789"), mpmath.mpf("1.23456781")).rounded(3)
    assert (mpmath.nstr(b.lower, 3), mpmath.nstr(b.upper, 3)) == ("1.23", "1.24")


def test_error_growth_reports_the_interval() -> None:
    rows = error_growth(mpmath.mpf(1), mpmath.mpf("1e-6"), 200, [2, 16], ["uniform", "point"])
    by = {(r.buckets, r.distribution): r for r in rows}
    for r in rows:
        assert 0 < r.linf["bary_rr_lower"] <= r.linf["bary_rr"]
        assert r.as_json()["expectedLinf"]["bary_rr"]  # type: ignore[index]
    two = by[(2, "uniform")].linf
    assert two["bary_rr"] - two["bary_rr_lower"] < mpmath.mpf("1e-6") * two["bary_rr"]
    # with more buckets the blanket grows and so does the largest error
    assert by[(16, "uniform")].linf["bary_rr_lower"] > two["bary_rr"]
    assert by[(16, "point")].linf["bary_rr_lower"] > by[(16, "uniform")].linf["bary_rr_lower"]
    assert synthetic_counts("point", 200, 16)[0] == 200


def test_arb_precision_is_restored() -> None:
    """bary_rr_expected_linf works at PREC bits and gives python-flint's global precision back."""
    from flint import ctx

    before = ctx.prec
    bary_rr_expected_linf(Fraction(1, 3), 3, 2, [2, 0, 0])
    assert ctx.prec == before
