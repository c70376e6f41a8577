"""Field64 and Field128 (sec. 6.1 of the VDAF draft): field laws and encodings."""

from __future__ import annotations

import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from dpspec.spec.field import Field, Field64, Field128, vec_add, vec_neg, vec_sub

FIELDS = [Field64, Field128]


def elements(field: type[Field]) -> st.SearchStrategy[Field]:
    p = field.MODULUS
    return st.one_of(
        st.integers(0, p - 1), st.sampled_from([0, 1, 2, p - 1, p - 2, p // 2])
    ).map(field)


@pytest.mark.parametrize("field", FIELDS)
def test_parameters(field: type[Field]) -> None:
    p = field.MODULUS
    assert sympy.isprime(p)
    assert (p - 1) % field.GEN_ORDER == 0
    g = field.gen()
    assert g ** field.GEN_ORDER == field(1)
    assert g ** (field.GEN_ORDER // 2) != field(1)  # order is exactly GEN_ORDER
    assert p.bit_length() <= 8 * field.ENCODED_SIZE


@pytest.mark.parametrize("field", FIELDS)
def test_roots_of_unity(field: type[Field]) -> None:
    for n in [1, 2, 4, 1024]:
        w = field.nth_root(n)
        assert w**n == field(1)
        if n > 1:
            assert w ** (n // 2) == field(-1)
        powers = field.nth_root_powers(n)
        assert len(set(powers)) == n
    with pytest.raises(ValueError):
        field.nth_root(3)


@pytest.mark.parametrize("field", FIELDS)
def test_laws(field: type[Field]) -> None:
    @given(elements(field), elements(field), elements(field))
    def laws(a: Field, b: Field, c: Field) -> None:
        zero, one = field(0), field(1)
        assert a + b == b + a and a * b == b * a
        assert (a + b) + c == a + (b + c) and (a * b) * c == a * (b * c)
        assert a * (b + c) == a * b + a * c
        assert a + zero == a and a * one == a and a + (-a) == zero
        assert a - b == a + (-b)
        if a != zero:
            assert a * a.inv() == one and (b / a) * a == b
        assert 0 <= a.int() < field.MODULUS

    laws()


@pytest.mark.parametrize("field", FIELDS)
def test_encoding_round_trip(field: type[Field]) -> None:
    @given(st.lists(elements(field), max_size=20))
    def round_trip(vec: list[Field]) -> None:
        enc = field.encode_vec(vec)
        assert len(enc) == field.ENCODED_SIZE * len(vec)
        assert field.decode_vec(enc) == vec

    round_trip()


@pytest.mark.parametrize("field", FIELDS)
def test_decode_rejects(field: type[Field]) -> None:
    with pytest.raises(ValueError, match="multiple"):
        field.decode_vec(bytes(field.ENCODED_SIZE + 1))
    with pytest.raises(ValueError, match="overflow"):
        field.decode_vec(field.MODULUS.to_bytes(field.ENCODED_SIZE, "little"))


def test_constructor_range_and_signed() -> None:
    assert Field64(-1) == Field64(Field64.MODULUS - 1)
    assert Field64(-5).signed() == -5 and Field64(7).signed() == 7
    with pytest.raises(ValueError):
        Field64(Field64.MODULUS)
    with pytest.raises(ZeroDivisionError):
        Field128(0).inv()
    assert Field64(1) != Field128(1)


def test_vector_ops() -> None:
    a, b = [Field64(1), Field64(2)], [Field64(5), Field64(-1)]
    assert vec_add(a, b) == [Field64(6), Field64(1)]
    assert vec_sub(a, b) == [Field64(-4), Field64(3)]
    assert vec_neg(a) == [Field64(-1), Field64(-2)]
    with pytest.raises(ValueError):
        vec_add(a, b[:1])
