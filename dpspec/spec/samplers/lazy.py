"""Lazy Bernoulli trials: compare a uniform real, drawn bit by bit, with an exact number x.

Every biased coin in :mod:`dpspec.spec.samplers` is one *lazy comparison* (normative):

    Let U = 0.u_1 u_2 u_3 ... be a uniform real in [0, 1) whose binary digits are the tape's
    bits (``tape.bits(1)``, one call per digit, in order). After i digits U is known to lie in
    the dyadic interval I_i = [V_i / 2^i, (V_i + 1) / 2^i), V_i = u_1 ... u_i read as an integer
    (V_0 = 0, I_0 = [0, 1)). Starting with i = 0:

      * if (V_i + 1) / 2^i <= x, return 1   (U < x for sure);
      * if V_i / 2^i >= x, return 0         (U >= x for sure, up to a null set);
      * otherwise x lies strictly inside I_i: draw the next digit and repeat.

The result is 1 with probability exactly x, and the number of digits drawn is a function of x and
the digits only (never of how an implementation evaluates x). It is 0 for x = 0 or 1 and 2 on
average otherwise (each digit ends the comparison with probability 1/2 once x is inside I_i).

For rational x = a/b this is integer arithmetic (:func:`bernoulli_ratio`). For the irrational
numbers some samplers need (powers (1 - p)^(2^j) of a rational, and powers of
1/(1 + exp(-eps))), :func:`bernoulli_bounded` evaluates x through an *oracle* that returns
rigorous integer bounds lo <= 2^P x <= hi at a requested precision P and raises the precision
whenever the bounds cannot yet decide a step. An irrational x never sits on a dyadic boundary,
so the digit sequence is exactly the one the definition prescribes.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from math import isqrt

from dpspec.spec.tape import RandomTape

#: Oracle: precision P -> (lo, hi) with lo <= 2^P x <= hi.
Oracle = Callable[[int], tuple[int, int]]

START_PRECISION = 64


def bernoulli_ratio(tape: RandomTape, a: int, b: int) -> int:
    """Lazy comparison with x = a/b, 0 <= a <= b, b > 0 (integers; see the module docstring)."""
    if a <= 0:
        return 0
    if a >= b:
        return 1
    # r = b * 2^i * (x - V_i / 2^i); x is strictly inside I_i  <=>  0 < r < b.
    r = a
    bits = tape.bits
    while True:
        r = 2 * r - b * bits(1)
        if r <= 0:
            return 0
        if r >= b:
            return 1


def bernoulli_bounded(tape: RandomTape, oracle: Oracle, precision: int = START_PRECISION,
                      irrational: bool = False, first: tuple[int, int] | None = None) -> int:
    """Lazy comparison with a number x in [0, 1] known through rigorous bounds.

    With ``irrational=True`` the caller guarantees that x is irrational, so x never equals a
    dyadic endpoint and bounds that merely touch an endpoint already place x strictly inside
    (this lets a tiny x such as exp(-10^6) be compared without evaluating it to 10^6 bits).
    ``first``, if given, is ``oracle(precision)`` computed in advance.
    """
    p = precision
    lo, hi = oracle(p) if first is None else first
    v, i = 0, 0
    strict = 0 if irrational else 1
    while True:
        shift = p - i
        if shift >= 1:
            left = v << shift
            right = (v + 1) << shift
            if right <= lo:
                return 1
            if left >= hi:
                return 0
            if left + strict <= lo and hi + strict <= right:
                v = 2 * v + tape.bits(1)
                i += 1
                continue
        # The bounds cannot decide this step: evaluate x more precisely.
        p = 2 * p + i
        lo, hi = oracle(p)


# -- rigorous bounds ------------------------------------------------------------------------------
def ratio_bounds(q: Fraction, p: int) -> tuple[int, int]:
    """floor and ceil of 2^p q."""
    n = q.numerator << p
    lo = n // q.denominator
    return lo, lo + (0 if n % q.denominator == 0 else 1)


def square_bounds(lo: int, hi: int, p: int, times: int) -> tuple[int, int]:
    """Bounds of x^(2^times) from bounds lo <= 2^p x <= hi (x >= 0), at the same precision p."""
    for _ in range(times):
        lo = (lo * lo) >> p
        hi = -((-(hi * hi)) >> p)
    return lo, hi


def exp_neg_bounds(gamma: Fraction, p: int) -> tuple[int, int]:
    """Bounds lo <= 2^p exp(-gamma) <= hi for rational gamma >= 0 (rigorous).

    Halve gamma s times until z = gamma / 2^s <= 1/2, bracket exp(-z) between two consecutive
    partial sums of its alternating Taylor series (terms decrease because z < 1), then square s
    times with outward rounding. ``s + 8`` guard bits absorb the rounding of the squarings.
    """
    if gamma == 0:
        return 1 << p, 1 << p
    if gamma >= p:
        # exp(-gamma) <= exp(-p) < 2^-p (ln 2 < 1): the bounds 0 and 1 hold without evaluating
        # exp (a gamma of 10^10000 would otherwise need 33000 halvings and squarings).
        return 0, 1
    s = 0
    z = gamma
    while z > Fraction(1, 2):
        z /= 2
        s += 1
    w = p + s + 8
    total = Fraction(1)
    term = Fraction(1)
    k = 0
    limit = Fraction(1, 1 << (w + 2))
    while True:
        k += 1
        term = -term * z / k
        prev = total
        total += term
        if abs(term) < limit:
            break
    lo_q, hi_q = (total, prev) if total < prev else (prev, total)
    lo = lo_q.numerator * (1 << w) // lo_q.denominator
    hi = -((-hi_q.numerator * (1 << w)) // hi_q.denominator)
    lo, hi = square_bounds(max(lo, 0), hi, w, s)
    g = w - p
    return lo >> g, -((-hi) >> g)


def _exp_neg_dyadic(z: int, w: int, lower: bool) -> int:
    """A bound of 2^w exp(-z / 2^w) for an integer 0 <= z <= 2^(w-1): lower if ``lower``.

    The Taylor series of exp(-x), x = z / 2^w <= 1/2, alternates with decreasing terms, so its
    partial sums ending on an odd term are below exp(-x) and those ending on an even term above.
    Each term x^k/k! is carried in fixed point, rounded down (floor) or up (ceil) so that the sum
    stays on its side: the lower bound takes floored even terms and ceiled odd terms, the upper
    bound the reverse.
    """
    one = 1 << w
    down, up = one, one  # floor and ceil of 2^w x^k / k!
    total = one
    k = 0
    while True:
        k += 1
        den = k << w
        down = (down * z) // den
        up = -((-(up * z)) // den)
        if k & 1:
            total -= up if lower else down
            if lower and up <= 1:
                return total
        else:
            total += down if lower else up
            if not lower and up <= 1:
                return total


def exp_neg_fixed(gamma: Fraction, p: int) -> tuple[int, int]:
    """Bounds lo <= 2^p exp(-gamma) <= hi for rational gamma >= 0, in fixed-point integers.

    The samplers' evaluation of exp(-gamma) (any rigorous bounds give the same bits, see the
    module docstring): like :func:`exp_neg_bounds` it halves gamma s times until
    z = gamma / 2^s <= 1/2 and squares s times with outward rounding, but it first rounds z to
    the two neighbouring multiples of 2^-w (exp is monotone) and sums the Taylor series on
    w-bit integers. Its cost does not grow with the size of gamma's numerator and denominator
    (:func:`exp_neg_bounds` sums exact fractions, whose size grows with the precision and with
    gamma's; its bounds are kept unchanged because the mechanisms' enclosure vectors publish them).
    """
    if gamma == 0:
        return 1 << p, 1 << p
    if gamma >= p:
        return 0, 1  # exp(-gamma) <= exp(-p) < 2^-p
    a, b = gamma.numerator, gamma.denominator
    # The least s >= 0 with 2 gamma <= 2^s, plus about sqrt(p) more halvings: the series then
    # needs about sqrt(p) terms, the squarings as many (O(sqrt(p)) products, not O(p)).
    s = (-((-2 * a) // b) - 1).bit_length() + isqrt(p)
    w = p + s + 8 + (p + s).bit_length()
    zlo, rem = divmod(a << (w - s), b)
    zhi = zlo + (1 if rem else 0)
    lo = max(_exp_neg_dyadic(zhi, w, True), 0)
    hi = _exp_neg_dyadic(zlo, w, False)
    lo, hi = square_bounds(lo, hi, w, s)
    g = w - p
    return lo >> g, -((-hi) >> g)
