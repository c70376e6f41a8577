"""The number-theoretic transform over a prime modulus: sec. 6.1.2 ("NTT-Friendly Fields") of the
VDAF draft (draft-irtf-cfrg-vdaf-20).

This module sits below both ``dpspec.spec.field`` (whose ``Field.ntt`` and ``Field.inv_ntt`` are the
draft's class methods) and ``dpspec.spec.flp.poly`` (the FLP's polynomial arithmetic): it knows
nothing of field classes, only a prime ``p`` and a root of unity ``w`` given as plain ``int``s, so
neither of them has to import the other.

Conventions of the draft: ``ntt(p, w, c, n, s)`` returns ``[P(s * w**i) for i < n]`` for
``P = sum_j c[j] x**j``, where ``w`` is a principal n-th root of unity mod ``p`` and ``s`` a coset
shift (1 for none; the draft's ``set_s`` uses ``s = nth_root(2n)``); ``inv_ntt(p, w, v, n)``
returns the ``n`` coefficients (lowest degree first) of the polynomial with ``P(w**i) = v[i]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache


@cache
def powers(modulus: int, w: int, n: int) -> tuple[int, ...]:
    """``(w**0, ..., w**(n-1)) mod modulus`` (cached: the same roots are asked for over and over)."""
    out = [1] * n
    for i in range(1, n):
        out[i] = out[i - 1] * w % modulus
    return tuple(out)


@cache
def bit_reversal(n: int) -> tuple[int, ...]:
    """The bit-reversal permutation of ``range(n)``, ``n`` a power of two."""
    bits = n.bit_length() - 1
    return tuple(int(format(i, f"0{bits}b")[::-1], 2) if bits else 0 for i in range(n))


def check_power_of_2(n: int) -> None:
    """ValueError unless ``n`` is a power of two (``n >= 1``)."""
    if n < 1 or n & (n - 1):
        raise ValueError(f"{n} is not a power of two")


def fft(values: list[int], twiddles: Sequence[int], p: int) -> list[int]:
    """Iterative radix-2 Cooley-Tukey transform of ``values`` (length n, a power of two).

    ``twiddles`` are the powers of the n-th root of unity used (``w`` for the forward transform,
    ``w**-1`` for the inverse). The input is put in bit-reversed order; each stage then combines
    the pairs ``(a[i], a[i + h])`` with ``i mod 2h = j < h`` into ``(a + t*b, a - t*b)``,
    ``t = w_{2h}**j``. A stage is written as list comprehensions over slices (CPython runs them
    several times faster than index loops): over the ``n / 2h`` contiguous blocks when they are
    few, else over the ``h`` strided classes ``i = j mod 2h``.

    Reduction is lazy: only products are reduced mod p; sums and differences (``a - t*b + p``
    keeps them non-negative) grow by less than ``p`` per stage, so the returned entries are the
    right residues but only below ``(log2(n) + 1) * p``: callers reduce them.
    """
    n = len(values)
    a = [values[i] for i in bit_reversal(n)]
    if n >= 2:  # first stage: t = 1, no products
        even, odd = a[0::2], a[1::2]
        a[0::2] = [x + y for x, y in zip(even, odd, strict=True)]
        a[1::2] = [x - y + p for x, y in zip(even, odd, strict=True)]
    h = 2
    while h < n:
        step = n // (2 * h)
        if h <= step:  # few residue classes: one strided slice per twiddle
            for j in range(h):
                t = twiddles[j * step]
                even = a[j::2 * h]
                odd = [x * t % p for x in a[j + h :: 2 * h]]
                a[j::2 * h] = [x + y for x, y in zip(even, odd, strict=True)]
                a[j + h :: 2 * h] = [x - y + p for x, y in zip(even, odd, strict=True)]
        else:  # few blocks: one contiguous slice per block
            tw = twiddles[: n // 2 : step]  # w_{2h}**j for j < h
            for start in range(0, n, 2 * h):
                even = a[start : start + h]
                odd = [x * t % p for x, t in zip(a[start + h : start + 2 * h], tw, strict=True)]
                a[start : start + h] = [x + y for x, y in zip(even, odd, strict=True)]
                a[start + h : start + 2 * h] = [x - y + p for x, y in zip(even, odd, strict=True)]
        h *= 2
    return a


def ntt(p: int, w: int, coeffs: Sequence[int], n: int, s: int = 1) -> list[int]:
    """Evaluations ``[P(s * w**i) for i < n]`` of ``P = sum_j coeffs[j] x**j`` mod ``p``.

    ``w`` is a principal n-th root of unity mod ``p``, ``s`` a coset shift; ``len(coeffs) <= n``.
    """
    check_power_of_2(n)
    if len(coeffs) > n:
        raise ValueError(f"ntt: {len(coeffs)} coefficients do not fit {n} points")
    padded = list(coeffs) + [0] * (n - len(coeffs))
    if s != 1:
        padded = [c * t % p for c, t in zip(padded, powers(p, s, n), strict=True)]
    return [x % p for x in fft(padded, powers(p, w, n), p)]


def inv_ntt(p: int, w: int, values: Sequence[int], n: int) -> list[int]:
    """Coefficients of the polynomial with ``P(w**i) = values[i]`` mod ``p``, for ``w`` a principal
    n-th root of unity: the transform with ``w**-1``, scaled by ``n**-1``."""
    check_power_of_2(n)
    if len(values) != n:
        raise ValueError(f"inv_ntt: expected {n} values, got {len(values)}")
    n_inv = pow(n, -1, p)
    return [c * n_inv % p for c in fft(list(values), powers(p, pow(w, -1, p), n), p)]
