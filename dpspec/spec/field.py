"""Finite fields Field64 and Field128 of sec. 6.1 of the VDAF draft (draft-irtf-cfrg-vdaf-20).

Both are NTT-friendly prime fields (sec. 6.1.2): ``MODULUS = 2**k * c + 1``, with a generator of the
multiplicative subgroup of order ``GEN_ORDER = 2**k`` given as ``7**c``.

============  ==========================  ================================
parameter     Field64                     Field128
============  ==========================  ================================
MODULUS       2**32 * 4294967295 + 1      2**66 * 4611686018427387897 + 1
ENCODED_SIZE  8                           16
generator     7**4294967295               7**4611686018427387897
GEN_ORDER     2**32                       2**66
============  ==========================  ================================

Elements are immutable objects with the usual operators. Encoding is little-endian, fixed width
(sec. 6.1.1); decoding rejects a value >= MODULUS ("modulus overflow").
"""

from __future__ import annotations

import builtins
from collections.abc import Iterable, Sequence
from functools import cache
from typing import ClassVar, TypeVar

from dpspec.spec import ntt
from dpspec.spec.encoding import from_le_bytes

F = TypeVar("F", bound="Field")


_new_object = object.__new__


@cache
def _cached_pow(base: builtins.int, exp: builtins.int, modulus: builtins.int) -> builtins.int:
    """``pow(base, exp, modulus)``, memoised: roots of unity are asked for over and over."""
    return pow(base, exp, modulus)


class Field:
    """An element of a prime field; subclasses fix ``MODULUS`` and ``ENCODED_SIZE``."""

    MODULUS: ClassVar[builtins.int]
    ENCODED_SIZE: ClassVar[builtins.int]
    GEN_ORDER: ClassVar[builtins.int]
    GEN_BASE_EXP: ClassVar[builtins.int]  # the generator is 7**GEN_BASE_EXP

    __slots__ = ("val",)
    val: builtins.int

    def __init__(self, val: builtins.int) -> None:
        p = self.MODULUS
        if not -p < val < p:
            raise ValueError(f"{val} is outside (-MODULUS, MODULUS) of {type(self).__name__}")
        self.val = val % p

    # -- conversions -------------------------------------------------------------------------
    def int(self) -> builtins.int:
        """The canonical representative in [0, MODULUS)."""
        return self.val

    def signed(self) -> builtins.int:
        """The representative in (-MODULUS/2, MODULUS/2]: how a small negative value reads back."""
        return self.val if self.val <= self.MODULUS // 2 else self.val - self.MODULUS

    # -- arithmetic --------------------------------------------------------------------------
    # The operators build their result with ``object.__new__`` and set ``val`` directly (the
    # value is already reduced): no range check, no extra call. They are the FLP's inner loops.
    def _new(self: F, val: builtins.int) -> F:
        out = _new_object(self.__class__)
        out.val = val
        return out

    def __add__(self: F, other: F) -> F:
        out = _new_object(self.__class__)
        out.val = (self.val + other.val) % self.MODULUS
        return out

    def __sub__(self: F, other: F) -> F:
        out = _new_object(self.__class__)
        out.val = (self.val - other.val) % self.MODULUS
        return out

    def __mul__(self: F, other: F) -> F:
        out = _new_object(self.__class__)
        out.val = self.val * other.val % self.MODULUS
        return out

    def __neg__(self: F) -> F:
        out = _new_object(self.__class__)
        out.val = -self.val % self.MODULUS
        return out

    def __pow__(self: F, exp: builtins.int) -> F:
        return self._new(pow(self.val, exp, self.MODULUS))

    def inv(self: F) -> F:
        """Multiplicative inverse; ZeroDivisionError for zero."""
        if self.val == 0:
            raise ZeroDivisionError("0 has no inverse in a field")
        return self._new(pow(self.val, -1, self.MODULUS))

    def __truediv__(self: F, other: F) -> F:
        return self * other.inv()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Field) and type(self) is type(other) and self.val == other.val

    def __hash__(self) -> builtins.int:
        return hash((type(self).__name__, self.val))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.val})"

    # -- class methods of sec. 6.1 -----------------------------------------------------------
    @classmethod
    def zeros(cls: type[F], length: builtins.int) -> list[F]:
        if length < 0:
            raise ValueError("length must be >= 0")
        return [cls(0) for _ in range(length)]

    @classmethod
    def gen(cls: type[F]) -> F:
        """Generator of the multiplicative subgroup of order GEN_ORDER (sec. 6.1.2)."""
        return cls(_cached_pow(7, cls.GEN_BASE_EXP, cls.MODULUS))

    @classmethod
    def nth_root(cls: type[F], n: builtins.int) -> F:
        """The principal n-th root of unity ``gen() ** (GEN_ORDER // n)``, n a power of two."""
        if n < 1 or n & (n - 1) or n > cls.GEN_ORDER:
            raise ValueError(f"n = {n} is not a power of two in [1, GEN_ORDER]")
        return cls(_cached_pow(cls.gen().val, cls.GEN_ORDER // n, cls.MODULUS))

    @classmethod
    def nth_root_powers(cls: type[F], n: builtins.int) -> list[F]:
        """``[w**0, w**1, ..., w**(n-1)]`` for ``w = nth_root(n)``."""
        w = cls.nth_root(n)
        out = [cls(1)]
        for _ in range(1, n):
            out.append(out[-1] * w)
        return out

    @classmethod
    def ntt(cls: type[F], p: Sequence[F], n: builtins.int, set_s: bool = False) -> list[F]:
        """``[P(s * w**i) for i < n]`` for the polynomial with coefficients ``p`` (sec. 6.1.2):
        ``w = nth_root(n)``, ``s = nth_root(2n)`` if ``set_s`` else 1. O(n log n)."""
        ntt.check_power_of_2(n)
        s = cls.nth_root(2 * n).val if set_s else 1
        return cls.from_reduced(ntt.ntt(cls.MODULUS, cls.nth_root(n).val, [x.val for x in p], n, s))

    @classmethod
    def inv_ntt(cls: type[F], v: Sequence[F], n: builtins.int) -> list[F]:
        """Coefficients of the polynomial with ``P(w**i) = v[i]``, ``w = nth_root(n)`` (sec. 6.1.2)."""
        ntt.check_power_of_2(n)
        return cls.from_reduced(ntt.inv_ntt(cls.MODULUS, cls.nth_root(n).val, [x.val for x in v], n))

    @classmethod
    def from_reduced(cls: type[F], values: Sequence[builtins.int]) -> list[F]:
        """Elements from ints already in ``[0, MODULUS)`` (checked), without the generic
        constructor's per-element cost; the fast path of the FLP, which computes on plain ints."""
        if values and (min(values) < 0 or max(values) >= cls.MODULUS):
            raise ValueError(f"values are not reduced elements of {cls.__name__}")
        return _wrap(cls, values)

    @classmethod
    def encode_vec(cls: type[F], vec: Sequence[F]) -> bytes:
        """Concatenate the fixed-width little-endian encodings (sec. 6.1.1)."""
        size = cls.ENCODED_SIZE
        return b"".join([x.val.to_bytes(size, "little") for x in vec])

    @classmethod
    def decode_vec(cls: type[F], encoded: bytes) -> list[F]:
        """Inverse of encode_vec; ValueError on a ragged length or a value >= MODULUS."""
        size = cls.ENCODED_SIZE
        if len(encoded) % size != 0:
            raise ValueError(
                f"{cls.__name__}: encoded length {len(encoded)} is not a multiple of {size}"
            )
        vec = []
        for i in range(0, len(encoded), size):
            x = from_le_bytes(encoded[i : i + size])
            if x >= cls.MODULUS:
                raise ValueError(f"{cls.__name__}: modulus overflow at element {i // size}")
            vec.append(cls(x))
        return vec


class Field64(Field):
    """The 64-bit field of sec. 6.1.4 ("Parameters") of the VDAF draft."""

    MODULUS = 2**32 * 4294967295 + 1
    ENCODED_SIZE = 8
    GEN_ORDER = 2**32
    GEN_BASE_EXP = 4294967295
    __slots__ = ()


class Field128(Field):
    """The 128-bit field of sec. 6.1.4 ("Parameters") of the VDAF draft."""

    MODULUS = 2**66 * 4611686018427387897 + 1
    ENCODED_SIZE = 16
    GEN_ORDER = 2**66
    GEN_BASE_EXP = 4611686018427387897
    __slots__ = ()


def _wrap(cls: type[F], values: Iterable[builtins.int]) -> list[F]:
    """Field elements holding ``values``, which the caller guarantees are reduced."""
    out = []
    for v in values:
        x = _new_object(cls)
        x.val = v
        out.append(x)
    return out


def vec_add(left: Sequence[F], right: Sequence[F]) -> list[F]:
    """Element-wise sum; ValueError on mismatched lengths."""
    if len(left) != len(right):
        raise ValueError("mismatched vector sizes")
    if not left:
        return []
    cls = type(left[0])
    p = cls.MODULUS
    return _wrap(cls, [(x.val + y.val) % p for x, y in zip(left, right, strict=True)])


def vec_sub(left: Sequence[F], right: Sequence[F]) -> list[F]:
    """Element-wise difference; ValueError on mismatched lengths."""
    if len(left) != len(right):
        raise ValueError("mismatched vector sizes")
    if not left:
        return []
    cls = type(left[0])
    p = cls.MODULUS
    return _wrap(cls, [(x.val - y.val) % p for x, y in zip(left, right, strict=True)])


def vec_neg(vec: Iterable[F]) -> list[F]:
    """Element-wise negation."""
    return [-x for x in vec]


FIELDS: dict[str, type[Field]] = {"Field64": Field64, "Field128": Field128}
