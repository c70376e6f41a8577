"""The samplers-limits vector family: the published enclosures are the spec's and bracket
exp(-gamma) (checked with mpmath at a precision far above p); each case sits where its comment
says (a halving boundary, a Taylor term equal to the stopping limit, gamma on the w-bit grid);
the compare rejects a bound moved by one; the refusals carry the flag of the first failing check;
invalid inputs are refused."""

from __future__ import annotations

import copy
from fractions import Fraction
from math import factorial, isqrt

import mpmath
import pytest

from dpspec.conformance.families.samplers_limits import (
    EXP_CASES,
    EXP_OPS,
    FAMILY,
    REFUSALS,
    REFUSE,
    STEERED_513,
    STREAM,
    h_binomial_stream,
    h_exp_neg_bounds,
    h_exp_neg_fixed,
    h_refuse,
)
from dpspec.spec.rational import RationalError
from dpspec.spec.samplers.core import MAX_DIMENSION
from dpspec.spec.samplers.params import MAX_GAUSSIAN_VARIANCE
from tests.family_cases import find_case, generated_cases

CASES = generated_cases(FAMILY)
HANDLERS = {EXP_OPS[0]: h_exp_neg_bounds, EXP_OPS[1]: h_exp_neg_fixed, REFUSE: h_refuse,
            STREAM: h_binomial_stream}


def test_published_cases_match_and_invalid_ones_are_refused() -> None:
    assert {c.op for c in CASES} == set(HANDLERS)
    for c in CASES:
        if c.result == "valid":
            assert FAMILY.compare(c, HANDLERS[c.op](dict(c.args))) is None, c.comment
        else:
            with pytest.raises(ValueError) as info:
                HANDLERS[c.op](dict(c.args))
            if isinstance(info.value, RationalError):
                assert info.value.flag in c.flags, c.comment


def test_every_op_has_valid_and_invalid_cases_except_refuse() -> None:
    for op in (*EXP_OPS, STREAM):
        results = {c.result for c in CASES if c.op == op}
        assert results == {"valid", "invalid"}, op
    assert {c.result for c in CASES if c.op == REFUSE} == {"invalid"}


def test_the_enclosures_bracket_exp_and_are_tight() -> None:
    for c in CASES:
        if c.op not in EXP_OPS or c.result != "valid":
            continue
        assert c.expected is not None
        gamma, p = Fraction(c.args["gamma"]), c.args["p"]
        lo, hi = int(c.expected["lo"]), int(c.expected["hi"])
        with mpmath.workdps(2 * p + 50):
            true = mpmath.exp(-mpmath.mpf(gamma.numerator) / gamma.denominator) * mpmath.mpf(2) ** p
            assert lo <= true <= hi, c.comment
        if gamma == 0:
            assert lo == hi == 1 << p
        elif gamma >= p:
            assert (lo, hi) == (0, 1)
        else:
            assert 1 <= hi - lo <= 2, c.comment


@pytest.mark.parametrize("op", EXP_OPS)
def test_the_compare_rejects_a_bound_moved_by_one(op: str) -> None:
    case = find_case(CASES, op, "gamma = 1/2 exactly")
    assert case.expected is not None
    for key in ("lo", "hi"):
        for delta in (-1, 1):
            moved = copy.deepcopy(case.expected)
            moved[key] = str(int(moved[key]) + delta)
            assert FAMILY.compare(case, moved) is not None


def _halvings(gamma: Fraction) -> tuple[Fraction, int]:
    z, s = gamma, 0
    while z > Fraction(1, 2):
        z, s = z / 2, s + 1
    return z, s


def test_the_halving_cases_reach_one_half_exactly() -> None:
    for gamma, _p, flag, comment in EXP_CASES:
        if flag == "HalvingBoundary":
            assert _halvings(Fraction(gamma))[0] == Fraction(1, 2), comment


def test_the_tie_cases_have_a_term_equal_to_the_stopping_limit() -> None:
    ties = 0
    for gamma, p, flag, comment in EXP_CASES:
        if flag != "StoppingLimit" or "equals" not in comment:
            continue
        z, s = _halvings(Fraction(gamma))
        limit = Fraction(1, 1 << (p + s + 8 + 2))
        assert any(z ** k / factorial(k) == limit for k in (1, 2)), comment
        ties += 1
    assert ties == 2


def test_the_grid_cases_have_no_remainder_and_the_rounded_ones_have_one() -> None:
    """exp_neg_fixed's s and w as its docstring states them; 2^(w-s) gamma is an integer exactly
    for the GridGamma cases."""
    for gamma, p, flag, comment in EXP_CASES:
        g = Fraction(gamma)
        if flag not in ("GridGamma", "Rounded"):
            continue
        a, b = g.numerator, g.denominator
        s = (-((-2 * a) // b) - 1).bit_length() + isqrt(p)
        w = p + s + 8 + (p + s).bit_length()
        assert ((a << (w - s)) % b == 0) == (flag == "GridGamma"), comment


def test_the_refusals_sit_on_the_largest_dimension_and_above_the_cap() -> None:
    dims = {int(params["dim"]) for _n, params, _f, _c in REFUSALS}
    assert MAX_DIMENSION in dims and MAX_DIMENSION + 1 in dims
    for name, params, flag, comment in REFUSALS:
        if int(params["dim"]) == MAX_DIMENSION:
            assert Fraction(params["sigma2"]) == MAX_GAUSSIAN_VARIANCE + 1, comment
            assert flag == "CostTooLarge"
        with pytest.raises(RationalError) as info:
            h_refuse({"sampler": name, **params})
        assert info.value.flag == flag, comment


def test_a_valid_sampler_call_is_accepted() -> None:
    """The refuse op runs the sampler itself: inside every range it returns a sample."""
    out = h_refuse({"sampler": "rational.discrete_gaussian_vector", "sigma2": "1", "dim": "2"})
    assert len(out["sample"]) == 2


@pytest.mark.parametrize("args", [
    {"gamma": "1/2"},
    {"gamma": "1/2", "p": 64, "q": 1},
    {"gamma": "1/2", "p": True},
    {"gamma": "1/2", "p": "64"},
    {"gamma": "x", "p": 64},
])
def test_malformed_enclosure_arguments_are_refused(args: dict[str, object]) -> None:
    for op in EXP_OPS:
        with pytest.raises(ValueError):
            HANDLERS[op](dict(args))


@pytest.mark.parametrize("args", [
    {"sampler": "nope", "sigma2": "1", "dim": "2"},
    {"sampler": "discrete_gaussian_vector", "sigma2": "1"},
    {"sampler": "discrete_gaussian_vector", "sigma2": 1, "dim": "2"},
])
def test_malformed_refuse_arguments_are_refused(args: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        h_refuse(dict(args))


def test_the_steered_stream_gives_the_top_value_and_needs_its_last_byte() -> None:
    """binomial(513, 1/2) = 513 can only come from the envelope's candidate k = n; one byte less
    and the steps run past the stream."""
    out = h_binomial_stream({"n": "513", "p": "1/2", "stream": STEERED_513})
    assert out["sample"] == "513"
    assert 8 * (len(STEERED_513) // 2 - 1) < out["bitsConsumed"] <= 4 * len(STEERED_513)
    short = h_binomial_stream({"n": "513", "p": "1/2", "stream": STEERED_513[:-2]})
    assert short == {"sample": "exhausted", "bitsConsumed": None}


def test_a_stream_tape_reads_like_the_seeded_tape() -> None:
    """The explicit stream gives the bits of its bytes least significant first, as RandomTape
    does with its XOF output."""
    from dpspec.conformance.families.samplers_limits import _stream_tape
    tape = _stream_tape(bytes([0b10110001, 0xFF]))
    assert [tape.bits(1) for _ in range(8)] == [1, 0, 0, 0, 1, 1, 0, 1]
    assert tape.bits(4) == 15 and tape.bits_consumed == 12


def test_the_compare_rejects_another_sample() -> None:
    case = find_case(CASES, STREAM, "proposes k = n")
    assert case.expected is not None
    for key, value in (("sample", "512"), ("bitsConsumed", 542), ("sample", "exhausted")):
        moved = copy.deepcopy(case.expected)
        moved[key] = value
        assert FAMILY.compare(case, moved) is not None
