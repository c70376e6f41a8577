"""Unit and property tests of dpspec.spec.samplers and dpspec.spec.rational (the statistics are in
test_samplers_stats.py)."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dpspec.spec.rational import RationalError, format_rational, parse_int, parse_rational
from dpspec.spec.samplers import (
    SAMPLERS,
    SamplerParameterError,
    bernoulli,
    bernoulli_exp,
    bernoulli_rr,
    binomial,
    binomial_rr,
    binomial_textbook,
    discrete_gaussian,
    discrete_gaussian_vector,
    discrete_laplace,
    geometric,
    geometric_exp,
    negative_binomial,
    negative_binomial_exp,
    poisson,
)
from dpspec.spec.samplers.lazy import bernoulli_bounded, bernoulli_ratio, exp_neg_bounds, ratio_bounds
from dpspec.spec.tape import RandomTape

SEED = bytes(range(32))


def tape(tag: str = "test", seed: bytes = SEED) -> RandomTape:
    return RandomTape(seed, tag)


# -- spec.rational ---------------------------------------------------------------------------------


@pytest.mark.parametrize("text,value", [
    ("0", Fraction(0)), ("-12", Fraction(-12)), ("+3", Fraction(3)), ("3/7", Fraction(3, 7)),
    ("-10/4", Fraction(-5, 2)), ("0.25", Fraction(1, 4)), (".5", Fraction(1, 2)),
    ("12.", Fraction(12)), ("1e-3", Fraction(1, 1000)), ("2.5E6", Fraction(2500000)),
    ("-0.125e1", Fraction(-5, 4)), ("007", Fraction(7)), ("+.5e+1", Fraction(5)),
])
def test_parse_rational_forms(text: str, value: Fraction) -> None:
    assert parse_rational(text) == value


def test_parse_rational_types() -> None:
    assert parse_rational(5) == 5
    assert parse_rational(Fraction(2, 3)) == Fraction(2, 3)
    with pytest.raises(RationalError, match="inexact"):
        parse_rational(0.1, "p")
    for bad in [True, None, b"1", [1]]:
        with pytest.raises(RationalError):
            parse_rational(bad)
    for text in ["", "1/0", "abc", "1/-2", "0x10", "1e", "1.2.3", "nan", "inf", "1e100000", ".",
                 " 1/2", "1/2 ", "1 /2", "1/2e3", "+-1", "1_000", "\u0661", "e3", ".e3", "1" * 1001]:
        with pytest.raises(RationalError):
            parse_rational(text)


def test_parse_int_and_format() -> None:
    assert parse_int("12") == 12
    assert parse_int("-007") == -7
    assert parse_int(Fraction(4, 2)) == 2
    for text in ["1/2", "4/2", "1e3", "3.0", " 3", "abc", "1/0"]:
        with pytest.raises(RationalError, match="integer"):
            parse_int(text)
    assert format_rational(Fraction(6, 4)) == "3/2"
    assert format_rational(Fraction(-4, 2)) == "-2"


@given(st.fractions())
def test_format_parse_roundtrip(q: Fraction) -> None:
    assert parse_rational(format_rational(q)) == q


# -- the lazy comparison ---------------------------------------------------------------------------


def test_lazy_comparison_bit_counts() -> None:
    t = tape()
    assert bernoulli(t, 0) == 0 and bernoulli(t, 1) == 1 and t.bits_consumed == 0
    before = t.bits_consumed
    bernoulli(t, "1/2")
    assert t.bits_consumed - before == 1  # one digit decides 1/2
    t2 = tape()
    for _ in range(1000):
        bernoulli(t2, "1/3")
    assert 1800 < t2.bits_consumed < 2200  # 2 bits on average


def test_lazy_comparison_definition() -> None:
    """Replays the definition by hand: digits 0,1,1,... against x = 0.3 = 0.0100110011..."""
    # Find a tape whose first digits are known, then follow the rule.
    t = tape("definition")
    digits = [t.bits(1) for _ in range(40)]
    x = Fraction(3, 10)
    v, i, expected = 0, 0, None
    while expected is None:
        if Fraction(v + 1, 2**i) <= x:
            expected = 1
        elif Fraction(v, 2**i) >= x:
            expected = 0
        else:
            v = 2 * v + digits[i]
            i += 1
    t2 = tape("definition")
    assert bernoulli(t2, x) == expected
    assert t2.bits_consumed == i


@given(st.integers(0, 10**6), st.integers(1, 10**6), st.binary(min_size=16, max_size=16))
def test_bounded_comparison_matches_exact(a: int, b: int, seed: bytes) -> None:
    """The bounds-driven comparison reads the same digits as the exact one."""
    a = min(a, b)
    q = Fraction(a, b)
    t1, t2 = RandomTape(seed, "x"), RandomTape(seed, "x")
    for _ in range(5):
        assert bernoulli_ratio(t1, a, b) == bernoulli_bounded(t2, lambda p: ratio_bounds(q, p), 3)
    assert t1.bits_consumed == t2.bits_consumed


@pytest.mark.parametrize("gamma", [Fraction(0), Fraction(1, 10**9), Fraction(1, 3), Fraction(1),
                                   Fraction(7, 2), Fraction(1000), Fraction(123456789, 1000)])
def test_exp_bounds_are_rigorous(gamma: Fraction) -> None:
    with mpmath.workdps(400):
        exact = mpmath.exp(-mpmath.mpf(gamma.numerator) / gamma.denominator)
        for p in [8, 64, 200]:
            lo, hi = exp_neg_bounds(gamma, p)
            assert lo <= exact * 2**p <= hi
            assert hi - lo <= 4


# -- parameters ------------------------------------------------------------------------------------


@pytest.mark.parametrize("call", [
    lambda t: bernoulli(t, "-1/2"), lambda t: bernoulli(t, "3/2"), lambda t: bernoulli(t, 0.5),
    lambda t: bernoulli_exp(t, -1), lambda t: bernoulli_rr(t, "-0.1"),
    lambda t: geometric(t, 0), lambda t: geometric(t, "1.5"), lambda t: geometric_exp(t, 0),
    lambda t: discrete_laplace(t, 0), lambda t: discrete_laplace(t, "-3"),
    lambda t: discrete_gaussian(t, 0), lambda t: discrete_gaussian(t, "-1/2"),
    lambda t: discrete_gaussian(t, 1.0), lambda t: discrete_gaussian_vector(t, 1, 0),
    lambda t: discrete_gaussian_vector(t, 1, "1/2"), lambda t: binomial(t, -1, "1/2"),
    lambda t: binomial(t, "5/2", "1/2"), lambda t: binomial(t, 5, "2"),
    lambda t: binomial_textbook(t, 5, "-1"), lambda t: binomial_rr(t, 5, "-1"),
    lambda t: poisson(t, "-1"), lambda t: poisson(t, 10**6 + 1),
    lambda t: negative_binomial(t, 0, "1/2"), lambda t: negative_binomial(t, 1, 1),
    lambda t: negative_binomial(t, 1, "-1/2"), lambda t: negative_binomial(t, 10**7, "1/2"),
    lambda t: bernoulli(t, "x"), lambda t: negative_binomial_exp(t, 0, 1),
    lambda t: negative_binomial_exp(t, 1, 0), lambda t: negative_binomial_exp(t, 1, "1e-7"),
])
def test_invalid_parameters(call: object) -> None:
    t = tape()
    with pytest.raises(ValueError):
        call(t)  # type: ignore[operator]
    assert t.bits_consumed == 0  # validation happens before any coin


def test_errors_are_sampler_parameter_errors() -> None:
    with pytest.raises(SamplerParameterError, match="sigma2 must be > 0"):
        discrete_gaussian(tape(), 0)
    with pytest.raises(RationalError, match="inexact"):
        discrete_laplace(tape(), 2.0)


def test_edge_parameters_take_no_bits() -> None:
    t = tape()
    assert bernoulli_exp(t, 0) == 1
    assert geometric(t, 1) == 0
    assert binomial(t, 10, 0) == 0 and binomial(t, 10, 1) == 10 and binomial(t, 0, "1/3") == 0
    assert binomial_textbook(t, 10, 1) == 10 and binomial_textbook(t, 10, 0) == 0
    assert binomial_rr(t, 0, 1) == 0
    assert poisson(t, 0) == 0
    assert negative_binomial(t, "1/3", 0) == 0
    assert t.bits_consumed == 0


# -- properties ------------------------------------------------------------------------------------

_CASES = [
    ("bernoulli", {"p": "2/7"}), ("bernoulli_exp", {"gamma": "3/2"}), ("bernoulli_rr", {"eps": 1}),
    ("geometric", {"p": "1/10"}), ("geometric_exp", {"gamma": "1/7"}),
    ("discrete_laplace", {"t": "5/2"}), ("discrete_gaussian", {"sigma2": "20"}),
    ("discrete_gaussian_vector", {"sigma2": "3", "dim": 4}),
    ("binomial", {"n": 30, "p": "1/6"}), ("binomial_textbook", {"n": 30, "p": "1/6"}),
    ("binomial_rr", {"n": 30, "eps": "1/2"}), ("poisson", {"lam": "3/2"}),
    ("negative_binomial", {"r": "1/3", "p": "1/2"}),
    ("negative_binomial_exp", {"r": "1/3", "gamma": "1/2"}),
    ("rational.bernoulli_exp", {"gamma": "3/2"}), ("rational.bernoulli_rr", {"eps": 1}),
    ("rational.geometric_exp", {"gamma": "1/7"}), ("rational.discrete_laplace", {"t": "5/2"}),
    ("rational.discrete_gaussian", {"sigma2": "20"}),
    ("rational.discrete_gaussian_vector", {"sigma2": "3", "dim": 4}),
]


def _draw(name: str, params: dict[str, object], seed: bytes, tag: str, k: int = 5) -> tuple[
        list[object], int]:
    t = RandomTape(seed, tag)
    return [SAMPLERS[name].draw(t, dict(params)) for _ in range(k)], t.bits_consumed


def test_registry_names() -> None:
    assert set(SAMPLERS) >= {
        "bernoulli", "bernoulli_exp", "bernoulli_rr", "geometric", "discrete_laplace",
        "discrete_gaussian", "discrete_gaussian_vector", "binomial", "binomial_textbook",
        "binomial_rr", "poisson", "negative_binomial"}
    assert {name for name, _ in _CASES} == set(SAMPLERS)
    for s in SAMPLERS.values():
        assert s.tag.startswith("dpspec/sampler/") and s.params


@pytest.mark.parametrize("name,params", _CASES)
@given(seed=st.binary(min_size=16, max_size=64))
def test_determinism(name: str, params: dict[str, object], seed: bytes) -> None:
    first = _draw(name, params, seed, "a")
    assert _draw(name, params, seed, "a") == first


@pytest.mark.parametrize("name,params", _CASES)
def test_tags_separate_streams(name: str, params: dict[str, object]) -> None:
    outputs = {repr(_draw(name, params, SEED, f"tag{i}", 8)) for i in range(6)}
    assert len(outputs) > 1


@given(st.fractions(min_value=0, max_value=1), st.binary(min_size=16, max_size=16))
def test_bernoulli_bounds(p: Fraction, seed: bytes) -> None:
    assert bernoulli(RandomTape(seed, "b"), p) in (0, 1)


@given(st.integers(0, 60), st.fractions(min_value=0, max_value=1),
       st.binary(min_size=16, max_size=16))
def test_binomial_bounds(n: int, p: Fraction, seed: bytes) -> None:
    t = RandomTape(seed, "b")
    assert 0 <= binomial(t, n, p) <= n
    assert 0 <= binomial_textbook(t, n, p) <= n
    assert 0 <= binomial_rr(t, n, p) <= n


@given(st.fractions(min_value=Fraction(1, 1000), max_value=1000),
       st.binary(min_size=16, max_size=16))
def test_signed_samplers(scale: Fraction, seed: bytes) -> None:
    t = RandomTape(seed, "s")
    assert isinstance(discrete_laplace(t, scale), int)
    assert isinstance(discrete_gaussian(t, scale), int)
    assert geometric_exp(t, scale) >= 0
    assert poisson(t, scale) >= 0
    assert negative_binomial(t, scale, "1/2") >= 0


def test_tiny_sigma_is_zero() -> None:
    t = tape()
    assert all(discrete_gaussian(t, "1e-9") == 0 for _ in range(200))


def test_vector_is_sequence_of_scalars() -> None:
    t1, t2 = tape(), tape()
    assert discrete_gaussian_vector(t1, "7/3", 6) == [discrete_gaussian(t2, "7/3") for _ in range(6)]
    assert t1.bits_consumed == t2.bits_consumed


def test_rational_spellings_agree() -> None:
    outs = set()
    for sigma2 in ["2.5", "5/2", Fraction(5, 2), "25e-1"]:
        outs.add(tuple(discrete_gaussian(tape(), sigma2) for _ in range(10)))
    assert len(outs) == 1


# -- the vector family's reference handlers -----------------------------------------------------


def test_family_handler_exact_and_statistical_modes() -> None:
    from dpspec.conformance.families.samplers import FAMILY

    handlers = FAMILY.handlers()
    assert set(handlers) == {f"sampler.{name}" for name in SAMPLERS}
    args = {"seed": SEED.hex(), "tag": "x", "sigma2": "5/2", "count": 5}
    out = handlers["sampler.discrete_gaussian"](args)
    t = tape("x")
    assert out["samples"] == [str(discrete_gaussian(t, "5/2")) for _ in range(5)]
    assert out["bitsConsumed"] == t.bits_consumed and out["bytesConsumed"] == t.bytes_consumed
    # statistical mode: no seed and tag, fresh randomness each time
    stat = handlers["sampler.discrete_gaussian"]({"sigma2": "10000", "count": 20})
    assert len(stat["samples"]) == 20
    assert stat != handlers["sampler.discrete_gaussian"]({"sigma2": "10000", "count": 20})
    vec = handlers["sampler.discrete_gaussian_vector"]({"sigma2": "1", "dim": "3", "count": 2})
    assert [len(row) for row in vec["samples"]] == [3, 3]
    for bad in [{"sigma2": "1", "count": 1, "seed": SEED.hex()},
                {"sigma2": "0", "count": 0}, {"sigma2": "1", "count": -1},
                {"sigma2": 1, "count": 1}, {"sigma2": "1", "count": 1, "extra": "1"},
                {"count": 1}]:
        with pytest.raises(ValueError):
            handlers["sampler.discrete_gaussian"](bad)


@given(st.fractions(min_value=Fraction(1, 10**6), max_value=40), st.binary(min_size=16, max_size=16))
def test_irrational_shortcut_reads_the_same_digits(gamma: Fraction, seed: bytes) -> None:
    """For irrational x, bounds that touch an endpoint decide; the digits read are unchanged."""
    t1, t2 = RandomTape(seed, "i"), RandomTape(seed, "i")
    for _ in range(4):
        a = bernoulli_bounded(t1, lambda p: exp_neg_bounds(gamma, p))
        b = bernoulli_bounded(t2, lambda p: exp_neg_bounds(gamma, p), irrational=True)
        assert a == b
    assert t1.bits_consumed == t2.bits_consumed


def test_extreme_parameters_are_fast() -> None:
    """Tiny probabilities such as exp(-10^7) are compared without 10^7-bit arithmetic."""
    t = tape()
    assert [discrete_laplace(t, "1/1000000") for _ in range(20)] == [0] * 20
    assert [geometric_exp(t, 10**7) for _ in range(20)] == [0] * 20
    assert [negative_binomial_exp(t, 1, 60) for _ in range(20)] == [0] * 20
    assert all(0 <= binomial_rr(t, 10**9, 50) <= 10**9 for _ in range(5))
    assert [discrete_gaussian(t, "1e-12") for _ in range(20)] == [0] * 20
