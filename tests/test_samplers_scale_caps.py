"""Scale caps and the bounds that keep every allowed parameter cheap (issue 16, item 5).

The halving geometric's cost grows like log2(scale)^2, so rates below 2^-256, Laplace scales
above 2^256 and Gaussian variances above 2^512 are refused (CostTooLarge, validation step 7),
as is binomial_rr with n >= 2^255 (negative_binomial's compound steps beyond their work limit
were refused too, until its steps version 2, the size blocks, replaced them there). Within the
caps the reference evaluates exp(-gamma) in fixed point
(``exp_neg_fixed``), squares the halving geometric's powers along one chain, and gives the mode
envelope the parameter's numerator and denominator as powers: these change how numbers are
bounded, never which bits are read, which the tests below check against the plain
computations.

Two steps are new: binomial (version 2) uses the mode envelope, and negative_binomial_exp
(version 3) the size blocks, also below mean 256 when mean (m + 2)^2 > 2.56 10^6. Their exactness
at small means is tested with the work limit lowered to 0 (so that the new steps run at ordinary
parameters whose PMF a chi-square test can see): N samples from a fixed seed (reproducible),
the chi-square test of ``tests.test_samplers_stats.chi_square_p`` against the exact PMF, failing
below ALPHA = 1e-9; with the 4 distribution tests the false-alarm rate on a fresh seed is below
4e-9 (union bound). (N = 3000 samples for binomial, 1500 for negative_binomial_exp.)
"""

from __future__ import annotations

import random
from fractions import Fraction

import mpmath
import pytest

from dpspec.spec.rational import RationalError
from dpspec.spec.samplers import SAMPLERS, counts
from dpspec.spec.samplers.core import _geometric_machine
from dpspec.spec.samplers.lazy import exp_neg_bounds, exp_neg_fixed
from dpspec.spec.samplers.params import MAX_SCALE_BITS, MIN_RATE
from dpspec.spec.tape import RandomTape
from tests.test_samplers_stats import chi_square_p

SEED = bytes.fromhex("5ca1e" * 6 + "00")
TWO_256 = 1 << 256
BELOW = f"1/{TWO_256 + 1}"


@pytest.mark.parametrize("name,params,flag", [
    ("geometric", {"p": BELOW}, "CostTooLarge"),
    ("geometric", {"p": "1e-10000"}, "CostTooLarge"),
    ("geometric_exp", {"gamma": BELOW}, "CostTooLarge"),
    ("rational.geometric_exp", {"gamma": "1e-1000"}, "CostTooLarge"),
    ("discrete_laplace", {"t": str(TWO_256 + 1)}, "CostTooLarge"),
    ("rational.discrete_laplace", {"t": "1e10000"}, "CostTooLarge"),
    ("discrete_gaussian", {"sigma2": str((1 << 512) + 1)}, "CostTooLarge"),
    ("rational.discrete_gaussian", {"sigma2": "1e200"}, "CostTooLarge"),
    ("discrete_gaussian_vector", {"sigma2": "1e200", "dim": "3"}, "CostTooLarge"),
    # the range of every parameter comes first (steps 1-6 per parameter, then step 7)
    ("discrete_gaussian_vector", {"sigma2": "1e200", "dim": "0"}, "OutOfRange"),
    ("rational.discrete_gaussian_vector", {"sigma2": "1e200", "dim": "2000000"}, "OutOfRange"),
    ("binomial", {"n": "1", "p": BELOW}, "CostTooLarge"),
    ("binomial", {"n": "1", "p": f"{TWO_256}/{TWO_256 + 1}"}, "CostTooLarge"),
    ("binomial_rr", {"n": "2", "eps": BELOW}, "CostTooLarge"),
    ("binomial_rr", {"n": str(1 << 255), "eps": "1e10000"}, "CostTooLarge"),
    ("negative_binomial", {"r": "1", "p": f"{TWO_256}/{TWO_256 + 1}"}, "CostTooLarge"),
    # the scale cap comes before the mean's (a mean far above 10^6 here)
    ("negative_binomial", {"r": "1e10", "p": f"{TWO_256}/{TWO_256 + 1}"}, "CostTooLarge"),
    # (the compound work limit, 39 at 2^-256 and 7902 at 2^-16, is no longer a cap: steps
    # version 2 samples those parameters; tests/test_samplers_nb_blocks.py)
    ("negative_binomial_exp", {"r": "1", "gamma": BELOW}, "CostTooLarge"),
    ("negative_binomial_exp", {"r": "1e-10000", "gamma": "1e-10000"}, "CostTooLarge"),
])
def test_scale_caps_refuse(name: str, params: dict[str, str], flag: str) -> None:
    with pytest.raises(RationalError) as info:
        SAMPLERS[name].draw(RandomTape(SEED, "caps"), params)
    assert info.value.flag == flag
    assert len(str(info.value)) < 200  # one short line, whatever the size of the parameter


@pytest.mark.parametrize("name,params", [
    ("geometric", {"p": f"1/{TWO_256}"}),
    ("geometric_exp", {"gamma": f"1/{TWO_256}"}),
    ("rational.geometric_exp", {"gamma": f"1/{TWO_256}"}),
    ("discrete_laplace", {"t": str(TWO_256)}),
    ("rational.discrete_gaussian", {"sigma2": str(1 << 512)}),
    ("binomial", {"n": str(TWO_256), "p": f"{TWO_256 - 1}/{TWO_256}"}),
    ("binomial_rr", {"n": str((1 << 255) - 1), "eps": "1e10000"}),
    ("negative_binomial", {"r": f"38/{TWO_256 - 1}", "p": f"{TWO_256 - 1}/{TWO_256}"}),
    ("negative_binomial", {"r": f"39/{TWO_256 - 1}", "p": f"{TWO_256 - 1}/{TWO_256}"}),
    ("negative_binomial", {"r": f"999999/{TWO_256 - 1}", "p": f"{TWO_256 - 1}/{TWO_256}"}),
    ("negative_binomial_exp", {"r": f"3/{TWO_256}", "gamma": f"1/{TWO_256}"}),
    ("geometric_exp", {"gamma": "1e10000"}),
    ("discrete_gaussian", {"sigma2": "1e-10000"}),
])
def test_at_the_scale_caps_is_allowed(name: str, params: dict[str, str]) -> None:
    value = SAMPLERS[name].draw(RandomTape(SEED, "at-caps"), params)
    assert isinstance(value, int)


def test_min_rate_is_the_stated_constant() -> None:
    assert MIN_RATE == Fraction(1, 2**MAX_SCALE_BITS) and MAX_SCALE_BITS == 256


def _random_gamma(rng: random.Random) -> Fraction:
    digits = rng.choice([1, 3, 20, 300])
    return Fraction(rng.randrange(1, 10**digits), rng.randrange(1, 10**rng.choice([1, 3, 20, 300])))


def test_exp_neg_fixed_is_rigorous_and_tight() -> None:
    """Bounds that contain exp(-gamma) (checked at 1500 digits) and are a few units wide."""
    rng = random.Random(7)
    with mpmath.workdps(1500):
        for _ in range(300):
            gamma = _random_gamma(rng)
            if gamma > 1000:
                continue
            p = rng.choice([1, 8, 64, 200, 1000])
            lo, hi = exp_neg_fixed(gamma, p)
            x = mpmath.exp(-mpmath.mpf(gamma.numerator) / gamma.denominator) * mpmath.mpf(2) ** p
            assert lo <= x <= hi
            assert hi - lo <= 4
            if gamma.denominator < 10**30 and p <= 200:
                a, b = exp_neg_bounds(gamma, p)
                assert max(a, lo) <= min(b, hi)  # both enclose the same number


def test_exp_neg_fixed_huge_and_tiny() -> None:
    assert exp_neg_fixed(Fraction(10) ** 10000, 64) == (0, 1)
    assert exp_neg_fixed(Fraction(64), 64) == (0, 1)  # e^-64 < 2^-64
    lo, hi = exp_neg_fixed(Fraction(1, 10**10000), 64)  # 1 - 10^-10000, just below 1
    assert lo <= (1 << 64) - 1 and hi >= (1 << 64) - 1 and hi - lo <= 2


def test_power_chain_encloses_the_exact_powers() -> None:
    """The halving geometric's bounds of q^(2^j), from one chain of squarings, are floor/ceil-
    rigorous: they contain the exact rational power."""
    for p in (Fraction(1, 3), Fraction(2, 5), Fraction(1, 1000), Fraction(7, 10**9)):
        machine = _geometric_machine(p)
        q = 1 - p
        for j in range(min(machine.m, 10) + 1):  # exact powers of up to ~2^16 bits
            exact = q ** (2**j)
            for prec in (64, 129, 300):
                lo, hi = machine.power_bounds(j, prec)
                assert Fraction(lo, 1 << prec) <= exact <= Fraction(hi, 1 << prec)
                assert hi - lo <= 2


@pytest.mark.parametrize("name,params", [
    ("poisson", {"lam": "9999." + "9" * 60}),
    ("poisson", {"lam": "1001/3"}),
    ("binomial", {"n": "2000", "p": "0.4" + "9" * 60}),
    ("negative_binomial", {"r": "400." + "3" * 60, "p": "1/2"}),
])
def test_envelope_terms_read_the_same_bits(name: str, params: dict[str, str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The envelope's products given as powers of the parameter's numerator and denominator
    read exactly the bits of the plain product of the ratios rho(i)."""
    def run() -> tuple[list[int], int]:
        tape = RandomTape(SEED, "terms/" + name)
        out = [SAMPLERS[name].draw(tape, params) for _ in range(20)]
        return out, tape.bits_consumed

    fast = run()
    real = counts._mode_envelope

    def plain(*args: object) -> int:
        return real(*args[:5])  # type: ignore[arg-type]  # no terms: the rho products

    monkeypatch.setattr(counts, "_mode_envelope", plain)
    assert run() == fast


ALPHA = 1e-9
N = 3_000


@pytest.mark.parametrize("name,params", [
    ("binomial", {"n": "60", "p": "1/12"}),
    ("binomial", {"n": "400", "p": "1/100"}),
    ("negative_binomial_exp", {"r": "2", "gamma": "1/20"}),
    ("negative_binomial_exp", {"r": "1/3", "gamma": "1/50"}),
])
def test_new_steps_at_small_means_are_exact(name: str, params: dict[str, str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(counts, "MAX_COMPOUND_WORK", 0)
    used = []
    for step in ("_mode_envelope", "_nb_exp_blocks"):
        real = getattr(counts, step)

        def spy(*args: object, _real: object = real, _step: str = step) -> int:
            used.append(_step)
            return _real(*args)  # type: ignore[operator, no-any-return]

        monkeypatch.setattr(counts, step, spy)
    tape = RandomTape(SEED, "new-steps/" + name)
    sampler = SAMPLERS[name]
    samples = [sampler.draw(tape, params) for _ in range(N if name == "binomial" else N // 2)]
    assert used and used[0] == ("_mode_envelope" if name == "binomial" else "_nb_exp_blocks")
    probs = [float(sampler.pmf(params, x)) for x in range(max(samples) + 20)]
    while sum(probs) <= 1 - 1e-10:  # heavy right tails: extend until the mass is there
        probs.append(float(sampler.pmf(params, len(probs))))
    assert chi_square_p(samples, probs, 0) > ALPHA


@pytest.mark.parametrize("name,params,step", [
    ("binomial", {"n": str(38 << 256), "p": f"1/{TWO_256}"}, None),
    ("binomial", {"n": str(39 << 256), "p": f"1/{TWO_256}"}, "_mode_envelope"),
    ("binomial", {"n": "100000", "p": "1/1000"}, None),  # version 1 steps (gaps)
    ("negative_binomial_exp", {"r": f"38/{TWO_256}", "gamma": f"1/{TWO_256}"}, None),
    ("negative_binomial_exp", {"r": f"39/{TWO_256}", "gamma": f"1/{TWO_256}"}, "_nb_exp_blocks"),
    ("negative_binomial_exp", {"r": "1/100", "gamma": "1/10000"}, None),  # version 1, case 1
])
def test_which_steps_run_at_the_work_limit(name: str, params: dict[str, str], step: str | None,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    used = []
    for spied in ("_mode_envelope", "_nb_exp_blocks", "_nb_exp_split"):
        real = getattr(counts, spied)

        def spy(*args: object, _real: object = real, _step: str = spied) -> int:
            used.append(_step)
            return _real(*args)  # type: ignore[operator, no-any-return]

        monkeypatch.setattr(counts, spied, spy)
    SAMPLERS[name].draw(RandomTape(SEED, "which"), params)
    assert used[:1] == ([step] if step else [])
