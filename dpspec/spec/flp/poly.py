"""Polynomials over the NTT-friendly fields: sec. 6.1.2 ("NTT-Friendly Fields") and sec. 6.1.3
("Polynomial Representation") of the VDAF draft (draft-irtf-cfrg-vdaf-20).

The FLP of sec. 7.3 keeps its polynomials in the *Lagrange basis*: a polynomial ``P`` of degree
``< n`` (``n`` a power of two) is the list ``[P(w**0), ..., P(w**(n-1))]`` with
``w = field.nth_root(n)``. This module works on those lists as plain Python ``int``s in
``[0, MODULUS)`` (not Field objects): the arithmetic is the same, the constant factor is several
times smaller, and it is where the prover and verifier spend their time.

Two forms of every operation are given, and ``tests/test_flp_poly.py`` checks that they agree:

* the **efficient** form used by the FLP: radix-2 NTT (``O(n log n)``), barycentric evaluation in
  the Lagrange basis with one batched inversion (``O(n)``), extension of values by barycentric
  interpolation over a subset of the roots of unity (``O(n * missing)``);
* the **textbook** form, which is the definition: the DFT sum ``v[i] = sum_j c[j] * w**(i*j)``
  (``O(n**2)``) and Lagrange interpolation ``P(x) = sum_i v[i] * prod_{j != i} (x - x_j) / (x_i - x_j)``
  (``O(n**2)``). These are only used to test the efficient ones.

Conventions of the draft (sec. 6.1.2): ``ntt(p, n, set_s)`` returns ``[P(s * w**i)]`` for
``i < n``, where ``s = nth_root(2n)`` if ``set_s`` else ``1``; ``inv_ntt(v, n)`` returns the
``n`` coefficients (lowest degree first) of the polynomial with ``P(w**i) = v[i]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from dpspec.spec import ntt as ntt_mod
from dpspec.spec.field import Field

FieldType = type[Field]


# -- roots of unity and the NTT (dpspec.spec.ntt) ---------------------------------------------
def root_powers(field: FieldType, n: int) -> tuple[int, ...]:
    """``(w**0, ..., w**(n-1))`` for ``w = field.nth_root(n)``, as ints (cached)."""
    return ntt_mod.powers(field.MODULUS, field.nth_root(n).val, n)


def _inv_root_powers(field: FieldType, n: int) -> tuple[int, ...]:
    """``(w**0, w**-1, ..., w**-(n-1))`` for ``w = nth_root(n)``."""
    p = field.MODULUS
    return ntt_mod.powers(p, pow(field.nth_root(n).val, -1, p), n)


def ntt(field: FieldType, coeffs: Sequence[int], n: int, set_s: bool = False) -> list[int]:
    """Evaluations ``[P(s * w**i) for i < n]`` of ``P = sum_j coeffs[j] x**j`` (sec. 6.1.2).

    ``w = nth_root(n)``; ``s = nth_root(2n)`` if ``set_s`` else 1. ``len(coeffs) <= n``.
    """
    ntt_mod.check_power_of_2(n)
    s = field.nth_root(2 * n).val if set_s else 1
    return ntt_mod.ntt(field.MODULUS, field.nth_root(n).val, coeffs, n, s)


def inv_ntt(field: FieldType, values: Sequence[int], n: int) -> list[int]:
    """Coefficients of the polynomial with ``P(w**i) = values[i]``, ``w = nth_root(n)`` (sec. 6.1.2)."""
    ntt_mod.check_power_of_2(n)
    return ntt_mod.inv_ntt(field.MODULUS, field.nth_root(n).val, values, n)


@cache
def _doubling_twist(modulus: int, s: int, n: int) -> tuple[int, ...]:
    """``(n**-1 * s**j for j < n)``: the inverse NTT's scaling and the coset shift in one factor."""
    n_inv = pow(n, -1, modulus)
    return tuple(n_inv * x % modulus for x in ntt_mod.powers(modulus, s, n))


def double_evaluations(field: FieldType, values: Sequence[int]) -> list[int]:
    """From ``n`` Lagrange-basis values (at the n-th roots) to ``2n`` (at the 2n-th roots).

    The 2n-th roots are ``s * w**i`` (odd index) interleaved with ``w**i`` (even index), where
    ``s = nth_root(2n)``; the odd ones are ``ntt(inv_ntt(values, n), n, set_s=True)``, computed
    as two raw transforms with the scaling by ``n**-1`` and the shift by ``s**j`` merged into one
    multiplication per coefficient.
    """
    n = len(values)
    ntt_mod.check_power_of_2(n)
    p = field.MODULUS
    raw = ntt_mod.fft(list(values), _inv_root_powers(field, n), p)  # n * coefficients, unreduced
    twist = _doubling_twist(p, field.nth_root(2 * n).val, n)
    odd = ntt_mod.fft([c * t % p for c, t in zip(raw, twist, strict=True)], root_powers(field, n), p)
    out = [0] * (2 * n)
    out[0::2] = values
    out[1::2] = [x % p for x in odd]
    return out


def poly_mul(field: FieldType, left: Sequence[int], right: Sequence[int]) -> list[int]:
    """Product of two polynomials in the Lagrange basis (both of length n, a power of two); the
    result has ``2n`` values, enough for its degree ``<= 2n - 2``."""
    if len(left) != len(right):
        raise ValueError("poly_mul: operands of different lengths")
    p = field.MODULUS
    a = double_evaluations(field, left)
    b = double_evaluations(field, right)
    return [x * y % p for x, y in zip(a, b, strict=True)]


def batch_inverse(xs: Sequence[int], p: int) -> list[int]:
    """``[x**-1 mod p for x in xs]`` with one modular inversion (Montgomery's trick).

    ZeroDivisionError if some ``x`` is 0 mod p.
    """
    n = len(xs)
    if n == 0:
        return []
    prefix = [0] * n
    acc = 1
    for i, x in enumerate(xs):
        prefix[i] = acc
        acc = acc * x % p
    if acc == 0:
        raise ZeroDivisionError("batch_inverse: zero element")
    inv = pow(acc, -1, p)
    out = [0] * n
    for i in range(n - 1, -1, -1):
        out[i] = inv * prefix[i] % p
        inv = inv * xs[i] % p
    return out


def lagrange_eval_batched(field: FieldType, polys: Sequence[Sequence[int]], n: int, x: int) -> list[int]:
    """Evaluate polynomials given by values at the n-th roots of unity at the point ``x``.

    Each poly may list fewer than ``n`` values: the missing trailing ones are 0 (the wire
    polynomials of sec. 7.3.3 are mostly zero-padded). Barycentric formula for the full set of
    n-th roots ``x_i = w**i`` (whose node polynomial is ``x**n - 1``)::

        P(x) = (x**n - 1) / n * sum_i P(x_i) * x_i / (x - x_i)      if x**n != 1
        P(x) = P(x_j)                                                if x == x_j

    One batched inversion serves every polynomial, so the cost is ``O(n + total length)``.
    """
    ntt_mod.check_power_of_2(n)
    p = field.MODULUS
    x %= p
    roots = root_powers(field, n)
    xn = pow(x, n, p)
    if xn == 1:
        j = roots.index(x)
        return [poly[j] if j < len(poly) else 0 for poly in polys]
    used = max((len(poly) for poly in polys), default=0)
    if used > n:
        raise ValueError(f"lagrange_eval_batched: a polynomial has more than {n} values")
    inv = batch_inverse([(x - r) % p for r in roots[:used]], p)
    coef = [r * i % p for r, i in zip(roots, inv, strict=False)]
    scale = (xn - 1) * pow(n, -1, p) % p
    return [sum(v * c for v, c in zip(poly, coef, strict=False)) % p * scale % p for poly in polys]


def lagrange_eval(field: FieldType, values: Sequence[int], x: int) -> int:
    """Evaluate one polynomial given by its values at all ``len(values)``-th roots of unity."""
    return lagrange_eval_batched(field, [values], len(values), x)[0]


def extend_values_to_power_of_2(field: FieldType, values: Sequence[int], n: int) -> list[int]:
    """Given ``P(x_0), ..., P(x_{k-1})`` at the first ``k`` n-th roots of unity, where ``deg P < k``,
    return all ``n`` values ``P(x_0), ..., P(x_{n-1})`` (sec. 6.1.3, ``extend_values_to_power_of_2``).

    Barycentric interpolation on the node set ``S = {x_0..x_{k-1}}``, missing set ``M``: with
    ``prod_{j != i, all n roots}(x_i - x_j) = n / x_i``, the weights of ``S`` are
    ``w_i = (n / x_i) / prod_{m in M}(x_i - x_m)`` and, for ``x_m`` in ``M``,
    ``L_S(x_m) = prod_{i in S}(x_m - x_i) = (n / x_m) / prod_{m' in M, m' != m}(x_m - x_m')``;
    then ``P(x_m) = L_S(x_m) * sum_{i in S} P(x_i) / (w_i * (x_m - x_i))``. Cost
    ``O(k * |M|)``: linear for the FLP's gadgets, where ``|M|`` is 1 or 0.
    """
    ntt_mod.check_power_of_2(n)
    k = len(values)
    if k > n:
        raise ValueError(f"extend_values_to_power_of_2: {k} values exceed {n}")
    if k == n:
        return list(values)
    if k == 0:
        raise ValueError("extend_values_to_power_of_2: no values")
    p = field.MODULUS
    roots = root_powers(field, n)
    missing = roots[k:]
    n_inv = pow(n, -1, p)
    # a_i = P(x_i) / w_i = P(x_i) * x_i * prod_m (x_i - x_m) / n
    a = []
    for i in range(k):
        xi = roots[i]
        acc = values[i] * xi % p * n_inv % p
        for xm in missing:
            acc = acc * (xi - xm) % p
        a.append(acc)
    out = list(values)
    for mi, xm in enumerate(missing):
        inv = batch_inverse([(xm - roots[i]) % p for i in range(k)], p)
        total = sum(ai * ii for ai, ii in zip(a, inv, strict=True)) % p
        # L_S(x_m) = (n / x_m) / prod_{m' != m} (x_m - x_m')
        den = 1
        for mj, xm2 in enumerate(missing):
            if mj != mi:
                den = den * (xm - xm2) % p
        l_s = n * pow(xm * den % p, -1, p) % p
        out.append(l_s * total % p)
    return out


def poly_eval(field: FieldType, coeffs: Sequence[int], x: int) -> int:
    """Evaluate a polynomial in the monomial basis (Horner's rule)."""
    p = field.MODULUS
    acc = 0
    for c in reversed(coeffs):
        acc = (acc * x + c) % p
    return acc


# -- the textbook forms (definitions; used only to test the efficient forms) -------------------
def ntt_textbook(field: FieldType, coeffs: Sequence[int], n: int, set_s: bool = False) -> list[int]:
    """The definition of ``ntt``: ``v[i] = sum_j coeffs[j] * (s * w**i)**j``, ``O(n**2)``."""
    p = field.MODULUS
    w = field.nth_root(n).val
    s = field.nth_root(2 * n).val if set_s else 1
    return [poly_eval(field, coeffs, s * pow(w, i, p) % p) for i in range(n)]


def inv_ntt_textbook(field: FieldType, values: Sequence[int], n: int) -> list[int]:
    """The definition of ``inv_ntt``: ``c[j] = n**-1 * sum_i values[i] * w**(-i*j)``, ``O(n**2)``."""
    p = field.MODULUS
    w_inv = pow(field.nth_root(n).val, -1, p)
    n_inv = pow(n, -1, p)
    return [sum(values[i] * pow(w_inv, i * j, p) for i in range(n)) * n_inv % p for j in range(n)]


def interpolate_eval_textbook(field: FieldType, xs: Sequence[int], ys: Sequence[int], x: int) -> int:
    """Lagrange's formula ``P(x) = sum_i ys[i] * prod_{j != i} (x - xs[j]) / (xs[i] - xs[j])``."""
    p = field.MODULUS
    total = 0
    for i, (xi, yi) in enumerate(zip(xs, ys, strict=True)):
        num, den = 1, 1
        for j, xj in enumerate(xs):
            if j != i:
                num = num * (x - xj) % p
                den = den * (xi - xj) % p
        total = (total + yi * num * pow(den, -1, p)) % p
    return total


# -- the draft's interface on field elements ---------------------------------------------------------
class Lagrange:
    """The ``Lagrange`` class of sec. 6.1.3 (polynomials in the Lagrange basis), on Field elements.

    A thin wrapper over the int functions above, for callers that follow the draft's names; the FLP
    itself calls the int functions directly.
    """

    def __init__(self, field: FieldType) -> None:
        self.field = field

    def poly_mul(self, p: Sequence[Field], q: Sequence[Field]) -> list[Field]:
        return self.field.from_reduced(poly_mul(self.field, [x.val for x in p], [x.val for x in q]))

    def poly_eval(self, p: Sequence[Field], x: Field) -> Field:
        return self.poly_eval_batched([p], x)[0]

    def poly_eval_batched(self, polys: Sequence[Sequence[Field]], x: Field) -> list[Field]:
        if len({len(p) for p in polys}) != 1:
            raise ValueError("poly_eval_batched: polynomials of different lengths")
        n = len(polys[0])
        ints = [[v.val for v in p] for p in polys]
        return self.field.from_reduced(lagrange_eval_batched(self.field, ints, n, x.val))

    def extend_values_to_power_of_2(self, p: list[Field], n: int) -> None:
        """Append values to ``p`` in place until it has ``n`` (as the draft's method does)."""
        extended = extend_values_to_power_of_2(self.field, [x.val for x in p], n)
        p += self.field.from_reduced(extended[len(p) :])

    def double_evaluations(self, p: Sequence[Field]) -> list[Field]:
        return self.field.from_reduced(double_evaluations(self.field, [x.val for x in p]))
