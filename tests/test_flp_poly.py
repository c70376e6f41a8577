"""dpspec.spec.flp.poly: the efficient polynomial forms agree with the textbook definitions."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpspec.spec.field import Field, Field64, Field128
from dpspec.spec.flp import poly

FIELDS = [Field64, Field128]


def vectors(field: type[Field], min_size: int, max_size: int) -> st.SearchStrategy[list[int]]:
    p = field.MODULUS
    elem = st.one_of(st.integers(0, p - 1), st.sampled_from([0, 1, p - 1]))
    return st.lists(elem, min_size=min_size, max_size=max_size)


@pytest.mark.parametrize("field", FIELDS)
@pytest.mark.parametrize("log_n", range(0, 6))
@given(data=st.data())
@settings(max_examples=15)
def test_ntt_matches_the_dft_definition(field: type[Field], log_n: int, data: st.DataObject) -> None:
    n = 1 << log_n
    coeffs = data.draw(vectors(field, 0, n))
    for set_s in (False, True):
        assert poly.ntt(field, coeffs, n, set_s) == poly.ntt_textbook(field, coeffs, n, set_s)
    values = poly.ntt(field, coeffs, n)
    assert poly.inv_ntt(field, values, n) == coeffs + [0] * (n - len(coeffs))
    assert poly.inv_ntt_textbook(field, values, n) == poly.inv_ntt(field, values, n)


@pytest.mark.parametrize("field", FIELDS)
def test_field_ntt_interface(field: type[Field]) -> None:
    coeffs = [field(3), field(0), field(field.MODULUS - 1)]
    values = field.ntt(coeffs, 4)
    w = field.nth_root(4)
    assert values == [coeffs[0] + coeffs[1] * w**i + coeffs[2] * w ** (2 * i) for i in range(4)]
    assert field.inv_ntt(values, 4) == coeffs + [field(0)]
    s = field.nth_root(8)
    assert field.ntt(coeffs, 4, set_s=True)[1] == coeffs[0] + coeffs[1] * s * w + coeffs[2] * (s * w) ** 2


def test_ntt_rejects_bad_sizes() -> None:
    with pytest.raises(ValueError, match="power of two"):
        poly.ntt(Field64, [1, 2, 3], 3)
    with pytest.raises(ValueError, match="do not fit"):
        poly.ntt(Field64, [1, 2, 3], 2)
    with pytest.raises(ValueError):
        poly.inv_ntt(Field64, [1, 2, 3], 4)


@pytest.mark.parametrize("field", FIELDS)
@given(data=st.data())
@settings(max_examples=25)
def test_lagrange_evaluation_matches_interpolation(field: type[Field], data: st.DataObject) -> None:
    n = 1 << data.draw(st.integers(0, 5))
    polys = data.draw(st.lists(vectors(field, 0, n), min_size=1, max_size=3))
    x = data.draw(st.integers(0, field.MODULUS - 1))
    roots = list(poly.root_powers(field, n))
    got = poly.lagrange_eval_batched(field, polys, n, x)
    for values, value in zip(polys, got, strict=True):
        full = values + [0] * (n - len(values))
        assert value == poly.interpolate_eval_textbook(field, roots, full, x)


@pytest.mark.parametrize("field", FIELDS)
def test_lagrange_evaluation_at_a_node(field: type[Field]) -> None:
    values = [5, 6, 7, 8]
    roots = poly.root_powers(field, 4)
    for j in range(4):
        assert poly.lagrange_eval(field, values, roots[j]) == values[j]
    # a 4th root of unity that is not a node of a 2-point polynomial
    assert poly.lagrange_eval_batched(field, [[5, 6]], 2, roots[1]) == [
        poly.interpolate_eval_textbook(field, list(poly.root_powers(field, 2)), [5, 6], roots[1])]


@pytest.mark.parametrize("field", FIELDS)
@given(data=st.data())
@settings(max_examples=25)
def test_extend_values_matches_interpolation(field: type[Field], data: st.DataObject) -> None:
    n = 1 << data.draw(st.integers(0, 5))
    k = data.draw(st.integers(1, n))
    values = data.draw(vectors(field, k, k))
    out = poly.extend_values_to_power_of_2(field, values, n)
    roots = list(poly.root_powers(field, n))
    assert out[:k] == values
    for i in range(k, n):
        assert out[i] == poly.interpolate_eval_textbook(field, roots[:k], values, roots[i])


@pytest.mark.parametrize("field", FIELDS)
@given(data=st.data())
@settings(max_examples=20)
def test_double_evaluations_and_poly_mul(field: type[Field], data: st.DataObject) -> None:
    n = 1 << data.draw(st.integers(0, 4))
    a = data.draw(vectors(field, n, n))
    b = data.draw(vectors(field, n, n))
    roots_n = list(poly.root_powers(field, n))
    roots_2n = poly.root_powers(field, 2 * n)
    doubled = poly.double_evaluations(field, a)
    for i in range(2 * n):
        assert doubled[i] == poly.interpolate_eval_textbook(field, roots_n, a, roots_2n[i])
    prod = poly.poly_mul(field, a, b)
    p = field.MODULUS
    for i in range(2 * n):
        x = roots_2n[i]
        assert prod[i] == (poly.interpolate_eval_textbook(field, roots_n, a, x)
                           * poly.interpolate_eval_textbook(field, roots_n, b, x)) % p


@given(st.lists(st.integers(1, Field64.MODULUS - 1), max_size=20))
def test_batch_inverse(xs: list[int]) -> None:
    p = Field64.MODULUS
    assert poly.batch_inverse(xs, p) == [pow(x, -1, p) for x in xs]


def test_batch_inverse_rejects_zero() -> None:
    with pytest.raises(ZeroDivisionError):
        poly.batch_inverse([3, 0, 5], Field64.MODULUS)


def test_poly_eval_horner() -> None:
    p = Field64.MODULUS
    assert poly.poly_eval(Field64, [1, 2, 3], 10) == 321
    assert poly.poly_eval(Field64, [], 10) == 0
    assert poly.poly_eval(Field64, [p - 1, 1], 1) == 0


def test_lagrange_class_follows_the_draft_interface() -> None:
    f = Field64
    lag = poly.Lagrange(f)
    p = [f(1), f(2), f(3), f(4)]
    q = [f(5), f(0), f(7), f(1)]
    x = f(123456789)
    roots = list(poly.root_powers(f, 4))
    assert lag.poly_eval(p, x).val == poly.interpolate_eval_textbook(f, roots, [1, 2, 3, 4], x.val)
    assert lag.poly_eval_batched([p, q], x) == [lag.poly_eval(p, x), lag.poly_eval(q, x)]
    prod = lag.poly_mul(p, q)
    assert lag.poly_eval(prod, x) == lag.poly_eval(p, x) * lag.poly_eval(q, x)
    assert lag.double_evaluations(p)[0::2] == p
    short = p[:3]
    lag.extend_values_to_power_of_2(short, 4)
    assert len(short) == 4 and short[:3] == p[:3]
    with pytest.raises(ValueError):
        lag.poly_eval_batched([p, p[:2]], x)
