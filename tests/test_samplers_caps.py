"""Cost limits of the count samplers and the mode envelope (dpspec.spec.samplers.counts).

The mode envelope (poisson for lam > 256, binomial for n p > 256, negative binomial for r >= 1
and 256 <= mean <= 256 r) is checked against the exact PMFs with a chi-square test on a fixed
seed (reproducible). A test fails when its p-value is below ALPHA = 1e-9; with the 5 tests here
the false-alarm rate on a fresh seed is below 5e-9 (union bound).
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import pytest

from dpspec.spec.rational import RationalError
from dpspec.spec.samplers import SAMPLERS
from dpspec.spec.samplers.counts import ENVELOPE_THRESHOLD
from dpspec.spec.tape import RandomTape
from tests.test_samplers_stats import chi_square_p

ALPHA = 1e-9
N = 8_000
SEED = bytes.fromhex("cafe" * 16)


@cache
def _samples(name: str, params: tuple[tuple[str, str], ...]) -> tuple[int, ...]:
    """N draws of ``name`` from the fixed seed (shared by the distribution and power tests)."""
    tape = RandomTape(SEED, "envelope/" + name)
    return tuple(SAMPLERS[name].draw(tape, dict(params)) for _ in range(N))


@pytest.mark.parametrize("name,params", [
    ("poisson", {"lam": "300"}), ("poisson", {"lam": "2001/2"}),
    ("binomial", {"n": "1000", "p": "2/5"}), ("binomial", {"n": "700", "p": "3/5"}),
    ("negative_binomial", {"r": "300", "p": "1/2"}),
])
def test_mode_envelope_distribution(name: str, params: dict[str, str]) -> None:
    sampler = SAMPLERS[name]
    samples = list(_samples(name, tuple(sorted(params.items()))))
    lo, hi = min(samples) - 10, max(samples) + 10
    probs = [float(sampler.pmf(params, x)) for x in range(lo, hi + 1)]
    while sum(probs) <= 1 - 1e-10:
        probs.append(float(sampler.pmf(params, lo + len(probs))))
        lo -= 1
        probs.insert(0, float(sampler.pmf(params, lo)) if lo >= 0 else 0.0)
    assert chi_square_p(samples, probs, lo) > ALPHA


def test_envelope_chi_square_has_power() -> None:
    """The same test rejects Poisson(300) samples against the Poisson(306) PMF."""
    samples = list(_samples("poisson", (("lam", "300"),)))
    lo, hi = 150, 500
    probs = [float(SAMPLERS["poisson"].pmf({"lam": "306"}, x)) for x in range(lo, hi + 1)]
    assert chi_square_p(samples, probs, lo) < ALPHA


@pytest.mark.parametrize("name,params,flag", [
    ("poisson", {"lam": "1000001"}, "OutOfRange"),
    ("binomial", {"n": "2000001", "p": "1/2"}, "CostTooLarge"),
    ("binomial", {"n": "10000000", "p": "4/5"}, "CostTooLarge"),
    ("binomial_textbook", {"n": "1000001", "p": "1/2"}, "CostTooLarge"),
    ("binomial_rr", {"n": "10000000", "eps": "1"}, "CostTooLarge"),
    ("binomial_rr", {"n": "2000001", "eps": "0"}, "CostTooLarge"),
    ("negative_binomial", {"r": "2000000", "p": "1/2"}, "OutOfRange"),
    # the compound steps' caps are gone (steps version 2, size blocks): the mean cap holds
    ("negative_binomial", {"r": "1/2", "p": "2000002/2000003"}, "OutOfRange"),
    ("negative_binomial", {"r": "3000", "p": "1000001/1003001"}, "OutOfRange"),
    ("binomial_rr", {"n": "3718282", "eps": "1"}, "CostTooLarge"),
    ("binomial_rr", {"n": "22027465795", "eps": "10"}, "CostTooLarge"),
    ("negative_binomial_exp", {"r": "1718282", "gamma": "1"}, "OutOfRange"),
    ("negative_binomial_exp", {"r": "1", "gamma": "1/1000001"}, "OutOfRange"),
])
def test_cost_limits(name: str, params: dict[str, str], flag: str) -> None:
    with pytest.raises(RationalError) as info:
        SAMPLERS[name].draw(RandomTape(SEED, "caps"), params)
    assert info.value.flag == flag


def test_at_the_caps_is_allowed() -> None:
    tape = RandomTape(SEED, "caps")
    assert SAMPLERS["binomial"].draw(tape, {"n": "2000000", "p": "1/2"}) > 0
    assert SAMPLERS["binomial_rr"].draw(tape, {"n": "2000000", "eps": "0"}) > 0
    assert SAMPLERS["poisson"].draw(tape, {"lam": "1000000"}) > 0
    assert SAMPLERS["negative_binomial"].draw(tape, {"r": "1000000", "p": "1/2"}) > 0
    assert SAMPLERS["binomial_rr"].draw(tape, {"n": "3718281", "eps": "1"}) > 0
    assert SAMPLERS["binomial_rr"].draw(tape, {"n": "22027465794", "eps": "10"}) > 0
    assert SAMPLERS["negative_binomial"].draw(tape, {"r": "1/2", "p": "20000/20001"}) >= 0
    assert SAMPLERS["negative_binomial"].draw(tape, {"r": "1/2", "p": "20002/20003"}) >= 0
    assert SAMPLERS["negative_binomial"].draw(tape, {"r": "3000", "p": "1000000/1003000"}) > 0
    assert SAMPLERS["negative_binomial_exp"].draw(tape, {"r": "1718281", "gamma": "1"}) > 0


def test_threshold_keeps_the_piecewise_steps() -> None:
    """At the threshold the original steps run (the published vectors depend on it)."""
    from dpspec.spec.samplers import counts

    calls = []
    real = counts._mode_envelope

    def spy(*args: object, **kwargs: object) -> int:
        calls.append(args)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    counts._mode_envelope = spy  # type: ignore[assignment]
    try:
        tape = RandomTape(SEED, "threshold")
        counts.poisson(tape, ENVELOPE_THRESHOLD)
        counts.binomial(tape, 2 * ENVELOPE_THRESHOLD, Fraction(1, 2))
        assert calls == []
        counts.poisson(tape, ENVELOPE_THRESHOLD + Fraction(1, 2))
        counts.binomial(tape, 2 * ENVELOPE_THRESHOLD + 2, Fraction(1, 2))
        assert len(calls) == 2
    finally:
        counts._mode_envelope = real  # type: ignore[assignment]
