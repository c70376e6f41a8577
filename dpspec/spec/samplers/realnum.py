"""The real-number layer of the lazy profile, on its own: named numbers, explicit bits.

The lazy profile's samplers (:mod:`dpspec.spec.samplers.core`, :mod:`~dpspec.spec.samplers.counts`)
compare a uniform U = 0.u_1 u_2 ... with numbers such as exp(-z) or (1 - p)^(2^j); an
implementation evaluates those numbers to as many binary digits as the comparison reads. Sampler
vectors rarely exercise that evaluation, because random bits leave the binary expansion of x
after two digits on average. This module lets vectors drive it directly (normative):

* :func:`compare_bits` runs the lazy comparison lc(x) of :mod:`dpspec.spec.samplers.lazy` with the
  digits u_1 u_2 ... taken from an explicit bit string (first character = u_1, the most
  significant digit of U) instead of the tape, and reports the decision and how many digits it
  read, or "undecided" when the string ends first;
* :func:`bracket` returns floor(2^k x).

Named numbers (:data:`NUMBERS`): ``exp_neg`` exp(-z); ``exp_neg_digit`` y / (1 + y) with
y = exp(-2^j z) (digit j of geometric_exp); ``rr_flip`` 1 / (1 + exp(eps)) (bernoulli_rr);
``rr_ratio_power`` q^(2^j) with q = 1 / (1 + exp(-eps)) (binomial_rr's geometric);
``rational_power`` q^(2^j) and ``rational_power_digit`` q^(2^j) / (1 + q^(2^j)) for a rational
q in [0, 1] (geometric). z, eps >= 0 and q are rationals (:mod:`dpspec.spec.rational`), j >= 0 an
integer at most :data:`MAX_J`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from dpspec.spec.rational import parse_int, parse_rational
from dpspec.spec.samplers.lazy import exp_neg_bounds, ratio_bounds, square_bounds
from dpspec.spec.samplers.params import SamplerParameterError, rational_in

#: Largest j accepted (x^(2^j)); the geometric sampler's j stays below 64 for p >= 2^-64.
MAX_J = 64
#: Largest k of bracket (floor(2^k x)) and longest bit string of compare_bits.
MAX_BITS = 4096
#: An exact rational power is used when its denominator has at most this many bits.
EXACT_LIMIT = 1 << 16

Bounds = Callable[[int], tuple[int, int]]


@dataclass(frozen=True)
class Number:
    """A number x in [0, 1]: either ``exact`` (a Fraction) or rigorous ``bounds``.

    ``bounds(P)`` returns integers lo <= 2^P x <= hi. ``irrational`` is True when x is known to
    be irrational (then x is never a dyadic endpoint).
    """

    name: str
    exact: Fraction | None
    bounds: Bounds
    irrational: bool


def _digit(bounds: Bounds) -> Bounds:
    """Bounds of y / (1 + y) (increasing in y) from bounds of y."""
    def out(p: int) -> tuple[int, int]:
        w = p + 2
        lo, hi = bounds(w)
        one = 1 << w
        return (lo << p) // (one + lo), -((-(hi << p)) // (one + hi))
    return out


def _rr_ratio(eps: Fraction) -> Bounds:
    """Bounds of 1 / (1 + exp(-eps)) (decreasing in exp(-eps))."""
    def out(p: int) -> tuple[int, int]:
        v = p + 4
        lo, hi = exp_neg_bounds(eps, v)
        num = 1 << (p + v)
        return num // ((1 << v) + hi), -((-num) // ((1 << v) + lo))
    return out


def _power(base: Bounds, j: int) -> Bounds:
    def out(p: int) -> tuple[int, int]:
        w = p + j + 8
        lo, hi = square_bounds(*base(w), w, j)
        return lo >> (w - p), -((-hi) >> (w - p))
    return out


def _exact_bounds(q: Fraction) -> Bounds:
    return lambda p: ratio_bounds(q, p)


def _j(params: dict[str, object]) -> int:
    j = parse_int(params.get("j"), "j")
    if not 0 <= j <= MAX_J:
        raise SamplerParameterError(f"j must be in [0, {MAX_J}], got {j}")
    return j


def _only(params: dict[str, object], names: set[str], number: str) -> None:
    extra = sorted(set(params) - names)
    missing = sorted(names - set(params))
    if extra or missing:
        raise ValueError(f"{number}: unknown parameters {extra}, missing {missing}")


def named_number(number: str, params: dict[str, object]) -> Number:
    """The named number ``number`` with ``params`` (strings as in the grammar, or exact values)."""
    if number == "exp_neg":
        _only(params, {"z"}, number)
        z = rational_in(params["z"], "z", low=0)
        return Number(number, Fraction(1) if z == 0 else None,
                      lambda p: exp_neg_bounds(z, p), z != 0)
    if number == "exp_neg_digit":
        _only(params, {"z", "j"}, number)
        z = rational_in(params["z"], "z", low=0)
        g = z * (1 << _j(params))
        return Number(number, Fraction(1, 2) if g == 0 else None,
                      _digit(lambda p: exp_neg_bounds(g, p)), g != 0)
    if number == "rr_flip":
        _only(params, {"eps"}, number)
        e = rational_in(params["eps"], "eps", low=0)
        return Number(number, Fraction(1, 2) if e == 0 else None,
                      _digit(lambda p: exp_neg_bounds(e, p)), e != 0)
    if number == "rr_ratio_power":
        _only(params, {"eps", "j"}, number)
        e = rational_in(params["eps"], "eps", low=0)
        j = _j(params)
        if e == 0:
            q = Fraction(1, 2) ** (1 << j)
            return Number(number, q, _exact_bounds(q), False)
        return Number(number, None, _power(_rr_ratio(e), j), True)
    if number in ("rational_power", "rational_power_digit"):
        _only(params, {"q", "j"}, number)
        q = rational_in(params["q"], "q", low=0, high=1)
        j = _j(params)
        exact: Fraction | None = None
        if q.denominator.bit_length() << j <= EXACT_LIMIT:
            exact = q ** (1 << j)
            if number == "rational_power_digit":
                exact = exact / (1 + exact)
            return Number(number, exact, _exact_bounds(exact), False)
        power = _power(_exact_bounds(q), j)
        return Number(number, None, _digit(power) if number == "rational_power_digit" else power,
                      False)
    raise ValueError(f"unknown number {number!r}; known: {', '.join(NUMBERS)}")


#: name -> (parameters, meaning)
NUMBERS: dict[str, tuple[tuple[str, ...], str]] = {
    "exp_neg": (("z",), "exp(-z)"),
    "exp_neg_digit": (("z", "j"), "y / (1 + y), y = exp(-2^j z)"),
    "rr_flip": (("eps",), "1 / (1 + exp(eps))"),
    "rr_ratio_power": (("eps", "j"), "q^(2^j), q = 1 / (1 + exp(-eps))"),
    "rational_power": (("q", "j"), "q^(2^j)"),
    "rational_power_digit": (("q", "j"), "q^(2^j) / (1 + q^(2^j))"),
}


def _check_bits(bits: object) -> str:
    if not isinstance(bits, str) or any(c not in "01" for c in bits):
        raise ValueError("bits must be a string of the characters 0 and 1")
    if len(bits) > MAX_BITS:
        raise ValueError(f"bits has {len(bits)} characters; at most {MAX_BITS}")
    return bits


def compare_bits(x: Number, bits: object) -> tuple[int | None, int]:
    """lc(x) with U's digits from ``bits``: (decision or None if undecided, digits read).

    The steps of the lazy comparison: with V = the digits read so far as an integer and i their
    number, return 1 if (V + 1) / 2^i <= x, 0 if V / 2^i >= x, else read the next digit.
    """
    digits = _check_bits(bits)
    v, i = 0, 0
    if x.exact is not None:
        a, b = x.exact.numerator, x.exact.denominator
        while True:
            if (v + 1) * b <= a << i:
                return 1, i
            if v * b >= a << i:
                return 0, i
            if i == len(digits):
                return None, i
            v, i = 2 * v + int(digits[i]), i + 1
    p = 64
    lo, hi = x.bounds(p)
    strict = 0 if x.irrational else 1
    while True:
        shift = p - i
        if shift >= 1:
            left, right = v << shift, (v + 1) << shift
            if right <= lo:
                return 1, i
            if left >= hi:
                return 0, i
            if left + strict <= lo and hi + strict <= right:
                if i == len(digits):
                    return None, i
                v, i = 2 * v + int(digits[i]), i + 1
                continue
        p = 2 * p + i
        lo, hi = x.bounds(p)


def bracket(x: Number, k: int) -> int:
    """floor(2^k x), exactly (0 <= k <= MAX_BITS)."""
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= MAX_BITS:
        raise ValueError(f"k must be an integer in [0, {MAX_BITS}]")
    if x.exact is not None:
        return (x.exact.numerator << k) // x.exact.denominator
    p = k + 64
    while True:
        lo, hi = x.bounds(p)
        s = p - k
        if lo >> s == hi >> s:
            return lo >> s
        if x.irrational and hi >> s == (lo >> s) + 1 and hi & ((1 << s) - 1) == 0:
            return lo >> s  # hi is an endpoint; an irrational x lies strictly below it
        p *= 2


def binary_digits(x: Number, n: int) -> str:
    """The first n binary digits of x (x < 1): floor(2^n x) written with n digits."""
    return format(bracket(x, n), "b").zfill(n) if n else ""


def parse_number(args: dict[str, object]) -> Number:
    """The named number of a vector's arguments: ``number`` and its parameters."""
    number = args.get("number")
    if not isinstance(number, str) or number not in NUMBERS:
        raise ValueError(f"number must be one of {', '.join(NUMBERS)}")
    names = NUMBERS[number][0]
    params = {n: args[n] for n in names if n in args}
    for n in names:
        if n in params and not isinstance(params[n], str):
            parse_rational(params[n], n)  # a non-string is refused by the grammar's step 1
            raise ValueError(f"{n} must be a string")
    return named_number(number, params)
