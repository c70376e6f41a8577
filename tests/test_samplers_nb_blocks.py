"""Steps version 2 of negative_binomial: size blocks with a rational p (issue 16, item 5).

Where the compound steps would cost about the mean in geometrics (r < 1 or mean > 256 r, and
mean > 10^4 or mean (m + 2)^2 > 2.56 10^6), ``negative_binomial`` draws the compound-Poisson
points block by block (dpspec.spec.samplers.counts._nb_blocks): every number compared is an
exact rational, evaluated through truncated powers that become exact at a high enough precision.

Each distribution test draws N samples from a fixed seed (so the outcome is reproducible, never
flaky) and applies the chi-square test of ``tests.test_samplers_stats.chi_square_p`` (bins of
expected count >= 5, tails folded) against the exact PMF, computed by the recurrence
f(0) = (1 - p)^r, f(k + 1) = f(k) (k + r) p / (k + 1) in 30-digit mpmath (checked against the
registry's PMF) up to where all but 1e-12 of the mass is covered. A test fails when its p-value
is below ALPHA = 1e-9; with the 9 distribution tests here the probability that a correct
sampler fails any of them on a fresh seed is below 1e-8 (union bound). Three run at the real
thresholds (means 7902 to 12000); six at small means with the thresholds lowered to 0, so that
the blocks run where the PMF is narrow enough to test sharply (r < 1, r > 1, dyadic p). The
power test shows the same test rejecting a mean 10 per cent off.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import mpmath
import pytest

from dpspec.spec.samplers import SAMPLERS, counts
from dpspec.spec.samplers.lazy import bernoulli_bounded, bernoulli_ratio
from dpspec.spec.tape import RandomTape
from tests.test_samplers_stats import chi_square_p

ALPHA = 1e-9
N = 4_000
SEED = bytes.fromhex("3b1c" * 16)
TWO_256 = 1 << 256
NB = SAMPLERS["negative_binomial"]


def _pmf(r: Fraction, p: Fraction, samples: list[int]) -> list[float]:
    """f(0), f(1), ... up to max(samples) and until the mass left is below 1e-11 (in floats:
    f(0) = (1 - p)^r from 30-digit mpmath, then the recurrence, summed with compensation)."""
    with mpmath.workdps(30):
        f0 = float((1 - mpmath.mpf(p.numerator) / p.denominator) ** (mpmath.mpf(r.numerator)
                                                                       / r.denominator))
    rf, pf = float(r), float(p)
    out, total, err, f, k = [], 0.0, 0.0, f0, 0
    top = max(samples) + 10
    while k <= top or total < 1 - 1e-11:
        out.append(f)
        y = f - err  # Kahan summation: 10^6 terms for the heaviest tails here
        t = total + y
        err = (t - total) - y
        total = t
        f = f * (k + rf) * pf / (k + 1)
        k += 1
    return out


def _draw(params: dict[str, str], n: int, tag: str) -> list[int]:
    tape = RandomTape(SEED, tag)
    return [NB.draw(tape, params) for _ in range(n)]


def _spy(monkeypatch: pytest.MonkeyPatch, names: tuple[str, ...] = ("_nb_blocks",)) -> list[str]:
    calls: list[str] = []
    for fn in names:
        real: Callable[..., Any] = getattr(counts, fn)

        def spy(*args: Any, _real: Callable[..., Any] = real, _fn: str = fn) -> Any:
            calls.append(_fn)
            return _real(*args)

        monkeypatch.setattr(counts, fn, spy)
    return calls


def test_pmf_recurrence_is_the_registry_pmf() -> None:
    for params in ({"r": "1/3", "p": "9/10"}, {"r": "2", "p": "6000/6001"}):
        r, p = Fraction(params["r"]), Fraction(params["p"])
        table = _pmf(r, p, [40])
        for k in (0, 1, 7, 40):
            assert table[k] == pytest.approx(float(NB.pmf(params, k)), rel=1e-12)


# above the real thresholds: mean > 10^4, or mean (m + 2)^2 > 2.56 10^6
ABOVE = [
    {"r": "1/2", "p": "20002/20003"},       # mean 10001, r < 1
    {"r": "2", "p": "6000/6001"},           # mean 12000 > 256 r
    {"r": "7902/65535", "p": "65535/65536"},  # mean 7902, 1 - p = 2^-16: the work limit
]

# the thresholds lowered to 0: the blocks at small means
SMALL = [
    {"r": "1/3", "p": "9/10"},
    {"r": "1/100", "p": "99/100"},
    {"r": "5/2", "p": "3/4"},
    {"r": "3", "p": "49/50"},
    {"r": "1/2", "p": "63/64"},             # dyadic: every y_i, mu_i and tau is dyadic
    {"r": "7/4", "p": "127/128"},           # dyadic, r > 1
]


@pytest.mark.parametrize("params", ABOVE)
def test_blocks_above_the_thresholds_sample_the_exact_distribution(
        params: dict[str, str]) -> None:
    samples = _draw(params, N, f"nb-blocks/{params}")
    probs = _pmf(Fraction(params["r"]), Fraction(params["p"]), samples)
    assert chi_square_p(samples, probs, 0) > ALPHA


@pytest.mark.parametrize("params", SMALL)
def test_blocks_at_small_means_sample_the_exact_distribution(
        params: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(counts, "MAX_COMPOUND_MEAN", 0)
    calls = _spy(monkeypatch)
    samples = _draw(params, N, f"nb-blocks/small/{params}")
    assert set(calls) == {"_nb_blocks"}
    probs = _pmf(Fraction(params["r"]), Fraction(params["p"]), samples)
    assert chi_square_p(samples, probs, 0) > ALPHA


def test_chi_square_has_power_for_the_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Samples of NB(3, 49/50) (mean 147) fail against NB(3, 0.9756) (mean 120, 18 per cent
    less; a third of a standard deviation)."""
    monkeypatch.setattr(counts, "MAX_COMPOUND_MEAN", 0)
    samples = _draw({"r": "3", "p": "49/50"}, N, "nb-blocks/power")
    probs = _pmf(Fraction(3), Fraction(9756, 10000), samples)
    assert chi_square_p(samples, probs, 0) < ALPHA


@pytest.mark.parametrize("params,steps", [
    ({"r": "1/2", "p": "20000/20001"}, "compound"),         # mean 10^4: version 1
    ({"r": "1/2", "p": "20002/20003"}, "blocks"),           # mean 10001
    ({"r": "7901/65535", "p": "65535/65536"}, "compound"),  # work 7901 18^2 <= 2.56 10^6
    ({"r": "7902/65535", "p": "65535/65536"}, "blocks"),
    ({"r": f"38/{TWO_256 - 1}", "p": f"{TWO_256 - 1}/{TWO_256}"}, "compound"),
    ({"r": f"39/{TWO_256 - 1}", "p": f"{TWO_256 - 1}/{TWO_256}"}, "blocks"),
    ({"r": "3000", "p": "1000000/1003000"}, "blocks"),      # mean 10^6 > 256 r
    ({"r": "300", "p": "1/2"}, "envelope"),                 # the envelope is unchanged
    ({"r": "1000000", "p": "1/2"}, "envelope"),
    ({"r": "1/3", "p": "1/2"}, "compound"),
])
def test_which_steps_run(params: dict[str, str], steps: str,
                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The compound steps call poisson first, the blocks _nb_blocks (whose Poissons follow), the
    envelope neither."""
    calls = _spy(monkeypatch, ("_nb_blocks", "_poisson"))
    NB.draw(RandomTape(SEED, "dispatch"), params)
    kind = "envelope" if not calls else {"_poisson": "compound", "_nb_blocks": "blocks"}[calls[0]]
    assert kind == steps
    assert calls.count("_nb_blocks") == (kind == "blocks")


@pytest.mark.parametrize("params", [
    {"r": "1/2", "p": "2000000/2000001"},
    {"r": "1", "p": "1000000/1000001"},
    {"r": "3", "p": "1000000/1000003"},
    {"r": "100", "p": "10000/10001"},
    {"r": f"999999/{TWO_256 - 1}", "p": f"{TWO_256 - 1}/{TWO_256}"},
])
def test_largest_mean_is_sampled(params: dict[str, str]) -> None:
    assert NB.draw(RandomTape(SEED, "cap"), params) >= 0


def _exact_mu(r: Fraction, p: Fraction, i: int, tail: bool) -> Fraction:
    y = p ** (2**i)
    return r * y / (1 - p) if tail else r * y * (1 - y) / (2**i * (1 - p))


@pytest.mark.parametrize("r,p", [(Fraction(1, 64), Fraction(7, 8)), (Fraction(3), Fraction(1, 3)),
                                 (Fraction(5, 7), Fraction(1023, 1024)),
                                 (Fraction(2, 9), Fraction(10, 11))])
def test_block_bounds_become_floor_and_ceil(r: Fraction, p: Fraction) -> None:
    """At a precision that holds the exact powers the bounds of mu_i and tau are floor and ceil
    of 2^P x (so floors, tau <= 1 and lazy comparisons end, equality included); below it they
    are rigorous."""
    for i in range(6):
        for tail in (False, True):
            x = _exact_mu(r, p, i, tail)
            oracle = counts._nb_block_bounds(r, p, i, tail)
            for prec in (8, 64, 4096):
                lo, hi = oracle(prec)
                assert lo <= x * 2**prec <= hi
            lo, hi = oracle(4096)
            assert (lo, hi) == ((x * 2**4096).__floor__(), (x * 2**4096).__ceil__())


def test_plan_is_exact_at_integer_means() -> None:
    """r = 3, p = 1/3: mu_0 = r y (1 - y) / (1 - p) = 1 exactly, and tau_1 = 1/2 (B = 1): the
    floor of an integer mu ends (exact fallback), mu_0 - 1 = 0 gives one piece, and the dyadic
    tau is exact."""
    blocks, tau, pieces = counts._nb_block_plan(Fraction(3), Fraction(1, 3))
    assert [(whole, n) for whole, _, n in blocks] == [(1, 1)]
    assert tau(64) == (2**63, 2**63)
    assert pieces == 2
    # tau_B = 1 exactly: r = (1 - p) / p^2 with p = 1/2 gives tau_1 = 1, so B = 1 (tau <= 1)
    blocks, tau, pieces = counts._nb_block_plan(Fraction(2), Fraction(1, 2))
    assert len(blocks) == 1 and pieces == 3


@pytest.mark.parametrize("r,p,i", [(Fraction(1, 2), Fraction(63, 64), 3),
                                   (Fraction(1, 64), Fraction(7, 8), 1),
                                   (Fraction(1, 3), Fraction(9, 10), 2)])
def test_piece_comparisons_read_the_bits_of_exact_arithmetic(r: Fraction, p: Fraction,
                                                             i: int) -> None:
    """lc(mu) of a piece through the block bounds reads exactly the bits of the exact integer
    comparison with the rational mu (dyadic ones included)."""
    x = _exact_mu(r, p, i, False)
    whole = x.__floor__()
    pieces = (2 * (x - whole)).__floor__() + 1
    mu = (x - whole) / pieces
    oracle = counts._minus(counts._nb_block_bounds(r, p, i, False), whole)

    def piece(prec: int) -> tuple[int, int]:
        a, b = oracle(prec)
        return a // pieces, -((-b) // pieces)

    for seed in range(48):
        exact, bounded = RandomTape(bytes([seed]) * 16, "m"), RandomTape(bytes([seed]) * 16, "m")
        for _ in range(4):
            assert bernoulli_bounded(bounded, piece) == bernoulli_ratio(exact, mu.numerator,
                                                                        mu.denominator)
            assert bounded.bits_consumed == exact.bits_consumed
