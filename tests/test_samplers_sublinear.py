"""The sublinear steps (version 2) of binomial_rr and negative_binomial_exp against their exact PMFs.

Above mean 256, ``binomial_rr`` draws a rational binomial at the dyadic p0 > p and thins it
(the dyadic split); ``negative_binomial_exp`` uses the dyadic split of NB(r, p0) when r >= 1 and
r^3 > mean, and the size blocks of the compound Poisson otherwise
(dpspec.spec.samplers.counts). Each distribution test draws N samples from a fixed seed (so
the outcome is reproducible, never flaky) and applies the chi-square test of
``tests.test_samplers_stats.chi_square_p`` (bins of expected count >= 5, tails folded) against
the exact PMF of the registry (mpmath, 50 digits). A test fails when its p-value is below
ALPHA = 1e-9; with the 10 distribution tests here the probability that a correct sampler fails
any of them on a fresh seed is below 1e-8 (union bound). The power test shows the same test
rejecting a mean 10 per cent off (a fifth of a standard deviation) with p < 1e-40.

The lazy comparison of the mode envelope's ratio R/h through truncated-product bounds is checked
to read exactly the bits of the exact integer comparison, dyadic ratios included.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from math import prod
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpspec.spec.samplers import SAMPLERS, counts
from dpspec.spec.samplers.lazy import bernoulli_bounded, bernoulli_ratio
from dpspec.spec.tape import RandomTape
from tests.test_samplers_stats import chi_square_p

ALPHA = 1e-9
N = 8_000
SEED = bytes.fromhex("5b1e" * 16)

# (sampler, parameters, the steps that must draw it)
CASES: list[tuple[str, dict[str, str], str]] = [
    ("binomial_rr", {"n": "2000", "eps": "1"}, "_rr_split"),
    ("binomial_rr", {"n": "1000", "eps": "1/10"}, "_rr_split"),
    ("binomial_rr", {"n": "100000", "eps": "3"}, "_rr_split"),
    ("binomial_rr", {"n": "200000000000000000000000000000", "eps": "65"}, "_rr_split"),
    ("negative_binomial_exp", {"r": "400", "gamma": "1/2"}, "_nb_exp_split"),
    ("negative_binomial_exp", {"r": "50", "gamma": "1/20"}, "_nb_exp_split"),
    ("negative_binomial_exp", {"r": "1/3", "gamma": "1/1000"}, "_nb_exp_blocks"),
    ("negative_binomial_exp", {"r": "2", "gamma": "1/200"}, "_nb_exp_blocks"),
    ("negative_binomial_exp", {"r": "5", "gamma": "1/100"}, "_nb_exp_blocks"),
    ("negative_binomial_exp", {"r": "7/2", "gamma": "1/128"}, "_nb_exp_blocks"),
]


def _pmf_table(name: str, params: dict[str, str], samples: list[int]) -> tuple[list[float], int]:
    """PMF values on a range around the samples that holds all but 1e-10 of the mass."""
    sampler = SAMPLERS[name]
    lo, hi = max(min(samples) - 10, 0), max(samples) + 10
    probs = [float(sampler.pmf(params, x)) for x in range(lo, hi + 1)]
    while sum(probs) <= 1 - 1e-10:
        probs.append(float(sampler.pmf(params, lo + len(probs))))
        if lo > 0:
            lo -= 1
            probs.insert(0, float(sampler.pmf(params, lo)))
    return probs, lo


def _draw(name: str, params: dict[str, str], n: int, tag: str) -> list[int]:
    tape = RandomTape(SEED, tag)
    sampler = SAMPLERS[name]
    return [sampler.draw(tape, params) for _ in range(n)]


@pytest.mark.parametrize("name,params,steps", CASES)
def test_sublinear_steps_sample_the_exact_distribution(name: str, params: dict[str, str],
                                                       steps: str) -> None:
    n = N // 4 if params.get("eps") == "65" else N  # 2 ms per sample; 40 bins
    samples = _draw(name, params, n, f"sublinear/{name}/{sorted(params.items())}")
    probs, lo = _pmf_table(name, params, samples)
    assert chi_square_p(samples, probs, lo) > ALPHA


def _spy(monkeypatch: pytest.MonkeyPatch, names: list[str]) -> list[str]:
    calls: list[str] = []
    for fn in names:
        real: Callable[..., Any] = getattr(counts, fn)

        def spy(*args: Any, _real: Callable[..., Any] = real, _fn: str = fn) -> Any:
            calls.append(_fn)
            return _real(*args)

        monkeypatch.setattr(counts, fn, spy)
    return calls


@pytest.mark.parametrize("name,params,steps", CASES)
def test_cases_run_the_new_steps(monkeypatch: pytest.MonkeyPatch, name: str,
                                 params: dict[str, str], steps: str) -> None:
    calls = _spy(monkeypatch, ["_rr_split", "_nb_exp_split", "_nb_exp_blocks"])
    SAMPLERS[name].draw(RandomTape(SEED, "dispatch"), params)
    assert calls == [steps]


@pytest.mark.parametrize("name,params", [
    ("binomial_rr", {"n": "950", "eps": "1"}),          # n p = 255.5
    ("binomial_rr", {"n": "1000000", "eps": "10"}),     # n p = 45.4
    ("negative_binomial_exp", {"r": "5", "gamma": "1/50"}),  # mean 247.5
    ("negative_binomial_exp", {"r": "1", "gamma": "1"}),
    ("binomial_rr", {"n": "1000", "eps": "64"}),
])
def test_version_1_steps_below_the_threshold(monkeypatch: pytest.MonkeyPatch, name: str,
                                             params: dict[str, str]) -> None:
    """At mean <= 256 the steps of version 1 run (the published vectors depend on it)."""
    calls = _spy(monkeypatch, ["_rr_split", "_nb_exp_split", "_nb_exp_blocks"])
    SAMPLERS[name].draw(RandomTape(SEED, "threshold"), params)
    assert calls == []


def test_chi_square_has_power_for_the_blocks() -> None:
    """Samples of NB(5, e^(-1/100)) (mean 497.5, standard deviation 223) fail against the PMF
    of NB(5, e^(-1/90)) (mean 447.5, 10 per cent less)."""
    samples = _draw("negative_binomial_exp", {"r": "5", "gamma": "1/100"}, N, "sublinear/power")
    probs, lo = _pmf_table("negative_binomial_exp", {"r": "5", "gamma": "1/90"}, samples)
    assert chi_square_p(samples, probs, lo) < ALPHA


def test_largest_allowed_means_are_sampled() -> None:
    """At the caps (mean just below 10^6) every case of the new steps returns a sample."""
    tape = RandomTape(SEED, "caps")
    for name, params in [("binomial_rr", {"n": "3718281", "eps": "1"}),
                         ("negative_binomial_exp", {"r": "1718281", "gamma": "1"}),
                         ("negative_binomial_exp", {"r": "1", "gamma": "1/1000000"}),
                         ("negative_binomial_exp", {"r": "1/100", "gamma": "1/100000000"}),
                         ("negative_binomial_exp", {"r": "100", "gamma": "1/10000"})]:
        assert SAMPLERS[name].draw(tape, params) >= 0


_factors = st.lists(st.integers(min_value=1, max_value=10**6), min_size=0, max_size=40)


@settings(max_examples=200, deadline=None)
@given(ups=_factors, downs=_factors, seed=st.binary(min_size=16, max_size=16))
def test_ratio_oracle_reads_the_bits_of_the_exact_comparison(ups: list[int], downs: list[int],
                                                             seed: bytes) -> None:
    """lc(x) through truncated-product bounds equals the exact integer lc(x), bit for bit."""
    num, den = prod(ups), prod(downs)
    if num > den:
        ups, downs, num, den = downs, ups, den, num
    exact, bounded = RandomTape(seed, "t"), RandomTape(seed, "t")
    for _ in range(4):
        want = bernoulli_ratio(exact, num, den)
        got = bernoulli_bounded(bounded, counts._ratio_oracle(counts.Ratio(list(ups), list(downs))))
        assert got == want
        assert bounded.bits_consumed == exact.bits_consumed


def test_huge_eps_uses_the_split(monkeypatch: pytest.MonkeyPatch) -> None:
    """eps > 64 takes the dyadic split whatever n p (the gaps would compare numbers within
    e^-eps of 1: 28 s at eps = 1000)."""
    calls = _spy(monkeypatch, ["_rr_split", "_nb_exp_split", "_nb_exp_blocks"])
    tape = RandomTape(SEED, "huge-eps")
    assert [SAMPLERS["binomial_rr"].draw(tape, {"n": "10", "eps": e})
            for e in ("65", "1000", "1000000")] == [0, 0, 0]
    assert calls == ["_rr_split"] * 3


@pytest.mark.parametrize("x", [Fraction(3, 8), Fraction(1, 2), Fraction(1), Fraction(5, 1024)])
def test_ratio_oracle_ends_on_dyadic_ratios(x: Fraction) -> None:
    """A dyadic x written with many factors (truncated at first) is still decided exactly."""
    filler = list(range(3, 3000))
    ratio = counts.Ratio([x.numerator, *filler], [x.denominator, *filler],
                         [(3, 5000)], [(3, 5000)])
    for seed in range(64):
        exact, bounded = RandomTape(bytes([seed]) * 16, "d"), RandomTape(bytes([seed]) * 16, "d")
        want = bernoulli_ratio(exact, x.numerator, x.denominator)
        assert bernoulli_bounded(bounded, counts._ratio_oracle(ratio)) == want
        assert bounded.bits_consumed == exact.bits_consumed
