"""Binomial, Poisson and negative binomial samplers (normative, exact).

These are the count distributions of the shuffled-model mechanisms of Ghazi, Kumar, Manurangsi
and Pagh ("Private Counting from Anonymous Messages", sec. 3: the Poisson and negative binomial
D-distributed mechanisms, whose shares Poi(lambda/n) and NB(r/n, p) rely on infinite
divisibility) and of randomized response. Every sampler here is exact: its output distribution
is exactly the stated one, with no truncation and no floating point. They are built from
:func:`dpspec.spec.samplers.core.geometric` and the lazy comparison of :mod:`dpspec.spec.samplers.lazy`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from math import isqrt, prod

from dpspec.spec.rational import format_rational
from dpspec.spec.samplers.core import _exp_machine, _geometric_machine, _HalvingGeometric
from dpspec.spec.samplers.lazy import (
    START_PRECISION,
    Oracle,
    bernoulli_bounded,
    bernoulli_ratio,
    exp_neg_fixed,
)
from dpspec.spec.samplers.params import (
    CostTooLargeError,
    SamplerParameterError,
    count,
    min_rate,
    probability,
    rational_in,
)
from dpspec.spec.tape import RandomTape

#: Poisson and negative binomial cost grows linearly with the mean; refuse means beyond this.
MAX_MEAN = 10**6
#: negative_binomial's compound steps (used when the mode envelope is not: r < 1 or a mean above
#: 256 r) cost O(mean) Poisson points: above this mean, steps version 2 (size blocks, cost
#: sublinear in the mean) run instead (version 1 refused these means; its vectors are unchanged).
MAX_COMPOUND_MEAN = 10**4
#: The compound steps draw, for each of about lambda points, a geometric of m + 1 coins and a keep
#: coin, and a digit near 1/2 is evaluated to about m bits (m = floor(log2(1 / (1 - p))) for
#: negative_binomial, floor(log2(1 / p)) for binomial's gaps, floor(log2(1 / gamma)) for
#: negative_binomial_exp's case 1): above a work lambda (m + 2)^2 of this (the value at the
#: version-1 cap vector, mean 10^4 with p = 20000/20001, m = 14) the sublinear steps run.
MAX_COMPOUND_WORK = 256 * 10**4
#: binomial_rr's dyadic split draws Binomial(n, p0) with p0 >= 2^-k, k = bitlen(n) + 1: the
#: geometric of its gaps has up to k digits; refuse n >= 2^255 (so that k <= 256, the scale cap).
MAX_RR_TRIALS_BITS = 255
#: binomial and binomial_rr draw about n min(p, 1 - p) geometrics; refuse more than this.
MAX_BINOMIAL_WORK = 10**6
#: binomial_rr uses the dyadic split when eps exceeds this (whatever n p): the gaps' geometric
#: has m = floor(log2(1 + e^eps)) digits, compared with numbers within e^-eps of 1 (28 s at
#: eps = 1000), while the split compares with numbers near 2^k p, cheap to bound.
RR_SPLIT_EPS = 64
#: binomial_textbook draws n Bernoulli trials; refuse n beyond this.
MAX_TEXTBOOK_TRIALS = 10**6


def _halving_digits(p: Fraction) -> int:
    """m of the halving geometric(p): the largest m >= 0 with 2^m p <= 1 (p in (0, 1])."""
    return (p.denominator // p.numerator).bit_length() - 1


def _binomial_by_gaps(tape: RandomTape, n: int, machine: _HalvingGeometric) -> int:
    """Count successes among n trials by jumping over geometric runs of failures."""
    if n == 0:
        return 0
    successes, position = 0, 0
    while True:
        position += machine.sample(tape) + 1
        if position > n:
            return successes
        successes += 1


#: Above this mean, poisson and binomial use the mode envelope (cost O(sqrt(mean)) arithmetic,
#: O(log(mean)) coins); at or below it, their original linear-cost steps (vectors unchanged).
ENVELOPE_THRESHOLD = 256


#: (lo, hi) -> (ups, downs): the factors of rho(lo) rho(lo + 1) ... rho(hi - 1), as a Ratio.
RatioTerms = Callable[[int, int], "Ratio"]


@dataclass
class Ratio:
    """prod(ups) prod(b^e for (b, e) in up_powers) / (the same for downs): positive integers."""

    ups: list[int] = field(default_factory=list)
    downs: list[int] = field(default_factory=list)
    up_powers: list[tuple[int, int]] = field(default_factory=list)
    down_powers: list[tuple[int, int]] = field(default_factory=list)

    def inverse(self) -> Ratio:
        return Ratio(self.downs, self.ups, self.down_powers, self.up_powers)


def _mode_envelope(tape: RandomTape, rho: Callable[[int], Fraction], mode: int, d: int,
                   top: int | None, terms: RatioTerms | None = None) -> int:
    """Rejection from a flat-top two-sided geometric envelope; exact for log-concave PMFs.

    f is a PMF on 0..top (top None: unbounded) with f(k+1)/f(k) = rho(k) rational and strictly
    decreasing in k, and mode M: rho(M) <= 1 <= rho(M - 1). See :func:`poisson` for the steps.
    ``terms``, if given, lists the factors of the products of step 3 directly (faster than
    ``rho`` for long ranges; the value, hence every bit read, is the same). The rational R/h of
    step 3 has up to millions of bits when |k - M| is large; it is compared lazily
    (:func:`_ratio_oracle`), exactly, without being written out.
    """
    a = max(0, mode - d)
    b = mode + d if top is None else min(top, mode + d)
    w_mid = Fraction(b - a + 1)
    right = rho(b) if top is None or b < top else Fraction(0)
    left = 1 / rho(a - 1) if a > 0 else Fraction(0)
    w_right = right / (1 - right)
    w_left = left / (1 - left)
    choose_mid = w_mid / (w_mid + w_right + w_left)
    choose_right = w_right / (w_right + w_left) if w_right + w_left else Fraction(0)
    right_machine = _geometric_machine(1 - right) if right else None
    left_machine = _geometric_machine(1 - left) if left else None
    while True:
        if bernoulli_ratio(tape, choose_mid.numerator, choose_mid.denominator):
            k = a + tape.uniform(b - a + 1)
            h, g = Fraction(1), -1
        elif bernoulli_ratio(tape, choose_right.numerator, choose_right.denominator):
            assert right_machine is not None
            g = right_machine.sample(tape)
            k = b + 1 + g
            h = right
        else:
            assert left_machine is not None
            g = left_machine.sample(tape)
            k = a - 1 - g
            h = left
            if k < 0:
                continue
        if top is not None and k > top:
            continue
        # R / h^(g + 1) with R = f(k) / f(M): the factors of its numerator and denominator
        lo, hi = (mode, k) if k > mode else (k, mode)
        if terms is not None and hi > lo:
            ratio = terms(lo, hi)
        else:
            factors = [rho(i) for i in range(lo, hi)]
            ratio = Ratio([t.numerator for t in factors], [t.denominator for t in factors])
        if k < mode:
            ratio = ratio.inverse()
        ratio.up_powers.append((h.denominator, g + 1))
        ratio.down_powers.append((h.numerator, g + 1))
        if bernoulli_bounded(tape, _ratio_oracle(ratio)):
            return k


def _product(xs: list[int]) -> int:
    """The product of xs by halves (fast for many large factors)."""
    if not xs:
        return 1
    while len(xs) > 1:
        xs = [xs[i] * xs[i + 1] if i + 1 < len(xs) else xs[i] for i in range(0, len(xs), 2)]
    return xs[0]


_CHUNK = 64


Bounds = tuple[int, int, int]  # (lo, hi, e): lo 2^e <= x <= hi 2^e


def _mul_bounds(x: Bounds, y: Bounds, w: int) -> Bounds:
    """Bounds of the product, truncated to w bits (exact if it fits)."""
    lo, hi, e = x[0] * y[0], x[1] * y[1], x[2] + y[2]
    extra = hi.bit_length() - w
    if extra > 0:
        return lo >> extra, -((-hi) >> extra), e + extra
    return lo, hi, e


def _product_bounds(xs: list[int], powers: list[tuple[int, int]], w: int) -> Bounds:
    """Bounds of prod(xs) prod(b^e for (b, e) in powers), at most w bits (exact if it fits)."""
    acc: Bounds = (1, 1, 0)
    for start in range(0, len(xs), _CHUNK):
        part = xs[start:start + _CHUNK]
        if part[0].bit_length() + part[-1].bit_length() > w:
            # large factors (a parameter with a long numerator): truncate after each one
            for x in part:
                acc = _mul_bounds(acc, (x, x, 0), w)
        else:
            chunk = prod(part)
            acc = _mul_bounds(acc, (chunk, chunk, 0), w)
    for base, exponent in powers:
        square: Bounds = (base, base, 0)
        while exponent:
            if exponent & 1:
                acc = _mul_bounds(acc, square, w)
            exponent >>= 1
            if exponent:
                square = _mul_bounds(square, square, w)
    return acc


def _quotient_bounds(num: Bounds, den: Bounds, p: int) -> tuple[int, int]:
    """Bounds lo <= 2^p n/d <= hi from bounds of n >= 0 and d > 0; floor and ceil of 2^p n/d when
    both bounds are exact."""
    nlo, nhi, ne = num
    dlo, dhi, de = den
    shift = p + ne - de
    if shift >= 0:
        return (nlo << shift) // dhi, -((-(nhi << shift)) // dlo)
    return nlo // (dhi << -shift), -((-nhi) // (dlo << -shift))


def _ratio_oracle(x: Ratio) -> Oracle:
    """Rigorous bounds of the rational x, computed with products truncated to a working
    precision that grows with the requested one; once that precision holds the exact products,
    the bounds are floor and ceil of 2^P x, so that a lazy comparison with a rational x that is
    dyadic still ends (the exact fallback)."""
    size = len(x.ups) + len(x.downs) + sum(e for _, e in x.up_powers + x.down_powers)
    guard = 64 + 2 * size.bit_length()

    def bounds(p: int) -> tuple[int, int]:
        w = p + guard
        return _quotient_bounds(_product_bounds(x.ups, x.up_powers, w),
                                _product_bounds(x.downs, x.down_powers, w), p)

    return bounds


def _binomial(tape: RandomTape, n: int, p: Fraction) -> int:
    if p == 0:
        return 0
    if p == 1:
        return n
    if p > Fraction(1, 2):
        return n - _binomial(tape, n, 1 - p)
    if n * p > ENVELOPE_THRESHOLD or n * p * (_halving_digits(p) + 2) ** 2 > MAX_COMPOUND_WORK:
        ratio = p / (1 - p)
        u, v = ratio.numerator, ratio.denominator

        def terms(lo: int, hi: int) -> Ratio:
            return Ratio([n - i for i in range(lo, hi)], list(range(lo + 1, hi + 1)),
                         [(u, hi - lo)], [(v, hi - lo)])

        return _mode_envelope(tape, lambda k: (n - k) * ratio / (k + 1),
                              ((n + 1) * p).__floor__(), isqrt((n * p * (1 - p)).__floor__()) + 1,
                              n, terms)
    return _binomial_by_gaps(tape, n, _geometric_machine(p))


def binomial(tape: RandomTape, n: object, p: object) -> int:
    """Binomial(n, p), p rational in [0, 1]; exact, cost O(1 + n min(p, 1 - p)) geometrics.

    Cost limits, in this order: 0 < min(p, 1 - p) < 2^-256 (the gaps' geometric would have
    more than 256 digits), then n min(p, 1 - p) > 10^6, are refused (CostTooLarge). When, after
    the reflection, 0 < p <= 1/2 and n p > 256, or (steps version 2; version 1's vectors all have
    a smaller product) n p (m + 2)^2 > 2.56 10^6 with m the largest integer >= 0 with 2^m p <= 1
    (the gaps draw about n p geometrics of m digits each), the mode envelope of :func:`poisson`
    is used instead of the gaps: rho(k) = (n - k) p / ((k + 1)(1 - p)), M = floor((n + 1) p),
    d = isqrt(floor(n p (1 - p))) + 1, top = n.

    Steps: p = 0 returns 0 and p = 1 returns n (no bits); if p > 1/2 return
    n - binomial(n, 1 - p). Otherwise (0 < p <= 1/2) the positions of the successes are found by
    skipping runs of failures: if n = 0 return 0; S = 0, P = 0; repeat { P = P +
    ``geometric(p)`` + 1; if P > n return S; S = S + 1 }.
    """
    k = count(n, "n")
    q = probability(p, "p")
    min_rate("binomial", "p", min(q, 1 - q), "min(p, 1 - p)")
    if k * min(q, 1 - q) > MAX_BINOMIAL_WORK:
        raise CostTooLargeError(f"binomial: n min(p, 1 - p) = {format_rational(k * min(q, 1 - q))}"
                                f" exceeds {MAX_BINOMIAL_WORK} (cost)")
    return _binomial(tape, k, q)


def binomial_textbook(tape: RandomTape, n: object, p: object) -> int:
    """Binomial(n, p) as the sum of n ``bernoulli(p)`` trials drawn in order (cost linear in n).

    Cost limit: n > 10^6 is refused (CostTooLarge), checked after both parameters' ranges.
    """
    k = count(n, "n")
    q = probability(p, "p")
    if k > MAX_TEXTBOOK_TRIALS:
        raise CostTooLargeError(f"binomial_textbook: n exceeds {MAX_TEXTBOOK_TRIALS} (cost)")
    a, b = q.numerator, q.denominator
    return sum(bernoulli_ratio(tape, a, b) for _ in range(k))


@lru_cache(maxsize=256)
def _rr_machine(eps: Fraction) -> _HalvingGeometric:
    """Geometric with success probability p = 1/(1 + exp(eps)), eps > 0 (ratio 1 - p)."""

    def y_bounds(w: int) -> tuple[int, int]:
        return exp_neg_fixed(eps, w)

    def q_bounds(w: int) -> tuple[int, int]:
        # q = 1 - p = 1 / (1 + y), y = exp(-eps); decreasing in y.
        v = w + 4
        lo, hi = y_bounds(v)
        num = 1 << (w + v)
        return num // ((1 << v) + hi), -((-num) // ((1 << v) + lo))

    # m = the largest m >= 0 with 2^m <= 1 + exp(eps), i.e. (2^m - 1) y <= 1.
    m = 0
    w = 64
    while True:
        lo, hi = y_bounds(w)
        c = (1 << (m + 1)) - 1
        if c * hi <= 1 << w:
            m += 1
        elif c * lo > 1 << w:
            break
        else:
            w *= 2
    return _HalvingGeometric(q_bounds, m, irrational=True)


def binomial_rr(tape: RandomTape, n: object, eps: object) -> int:
    """Binomial(n, 1/(1 + exp(eps))) for rational eps >= 0: the number of randomized-response flips.

    Exact, cost sublinear in the mean n p. eps = 0 is ``binomial(n, 1/2)``. For eps > 0,
    p = 1/(1 + exp(eps)) < 1/2 is irrational, and:

    * if n p <= 256 (decided with rigorous bounds; n p is irrational) and eps <= 64: the steps of
      :func:`binomial` for p <= 1/2 (the gaps), with the geometric(p) variates drawn by the steps
      of :func:`dpspec.spec.samplers.core.geometric` for this p: ratio q = 1 - p =
      1/(1 + exp(-eps)) and m = the largest integer >= 0 with 2^m <= 1 + exp(eps);
    * if n p > 256 or eps > 64, a *dyadic split* (steps version 2; version 1 used the gaps for
      all parameters, and its vectors, all with n p <= 256 and eps <= 20, are unchanged):
      k = bitlen(n) + 1,
      c = floor(2^k p) + 1 and p0 = c / 2^k (so p < p0 <= 1/2 and p0 - p < 2^-k);
      X = ``binomial(n, p0)`` (rational: the mode envelope); then each of the X successes is
      kept with probability p / p0, by removing Binomial(X, s) of them with
      s = 1 - p/p0 = (p0 - p)/p0, drawn by the gaps over ``hg(1 - s, m_s)``, m_s the largest
      integer >= 0 with 2^m_s s <= 1; return X minus the removed ones. (Thinning: a
      Binomial(n, p0) count whose successes are kept independently with probability p/p0 is
      Binomial(n, p); about n (p0 - p) < 1/2 successes are removed on average.)

    The numbers compared by the irrational steps (q^(2^j) and their digit forms, (1 - s)^(2^j))
    are irrational; the lazy comparison evaluates them with rigorous interval bounds on exp(-eps).
    Cost limits, in this order: 0 < eps < 2^-256, then n >= 2^255 (the split's p0 >= 2^-k
    must stay >= 2^-256), then n p > 10^6 (eps = 0: n / 2 > 10^6) are refused (CostTooLarge).
    """
    k = count(n, "n")
    e = rational_in(eps, "eps", low=0)
    min_rate("binomial_rr", "eps", e)
    if k.bit_length() > MAX_RR_TRIALS_BITS:
        raise CostTooLargeError(f"binomial_rr: n must be < 2^{MAX_RR_TRIALS_BITS} (cost)")
    if e == 0:
        if k > 2 * MAX_BINOMIAL_WORK:
            raise CostTooLargeError(f"binomial_rr: n / 2 exceeds {MAX_BINOMIAL_WORK} (cost)")
        return _binomial(tape, k, Fraction(1, 2))
    if _exceeds(_scaled(k, _rr_p(e)), Fraction(MAX_BINOMIAL_WORK)):
        raise CostTooLargeError(f"binomial_rr: n / (1 + exp(eps)) exceeds {MAX_BINOMIAL_WORK}"
                                " (cost)")
    if e > RR_SPLIT_EPS or (k > ENVELOPE_THRESHOLD
                            and _exceeds(_scaled(k, _rr_p(e)), Fraction(ENVELOPE_THRESHOLD))):
        p0, thin = _rr_split(e, k.bit_length() + 1)
        x = _binomial(tape, k, p0)
        return x - _binomial_by_gaps(tape, x, thin)
    return _binomial_by_gaps(tape, k, _rr_machine(e))


# -- irrational parameters: rigorous bounds, floors, a dyadic split ---------------------------------


def _floor_irrational(x: Oracle) -> int:
    """floor(x) for an irrational x >= 0 known through rigorous bounds (or a rational x whose
    bounds are floor and ceil of 2^P x at a high enough precision P)."""
    p = START_PRECISION
    while True:
        lo, hi = x(p)
        if lo >> p == hi >> p:
            return lo >> p
        p *= 2


def _exceeds(x: Oracle, c: Fraction) -> bool:
    """x > c, for an irrational x >= 0 (never equal to the rational c) known through bounds; or
    for a rational x whose bounds become floor and ceil of 2^P x, if c is dyadic."""
    p = START_PRECISION
    while True:
        lo, hi = x(p)
        if lo * c.denominator > c.numerator << p:
            return True
        if hi * c.denominator <= c.numerator << p:
            return False
        p *= 2


def _memo(x: Oracle) -> Oracle:
    """The oracle x, remembering its answers (the lazy comparisons ask for the same precisions)."""
    cache: dict[int, tuple[int, int]] = {}

    def bounds(p: int) -> tuple[int, int]:
        got = cache.get(p)
        if got is None:
            got = cache[p] = x(p)
        return got

    return bounds


def _scaled(n: int, x: Oracle) -> Oracle:
    """Bounds of n x from bounds of x."""
    return lambda p: tuple(n * v for v in x(p))  # type: ignore[return-value]


@lru_cache(maxsize=256)
def _rr_p(eps: Fraction) -> Oracle:
    """Bounds of p = 1/(1 + exp(eps)) = y/(1 + y), y = exp(-eps) (increasing in y)."""
    def bounds(p: int) -> tuple[int, int]:
        w = p + 4
        lo, hi = exp_neg_fixed(eps, w)
        one = 1 << w
        return (lo << p) // (one + lo), -((-(hi << p)) // (one + hi))
    return _memo(bounds)


def _success_machine(s: Oracle) -> _HalvingGeometric:
    """The halving geometric with an irrational success probability s in (0, 1) known through
    bounds: ratio 1 - s, and m the largest integer >= 0 with 2^m s <= 1."""
    m = 0
    while not _exceeds(s, Fraction(1, 1 << (m + 1))):
        m += 1

    def ratio(w: int) -> tuple[int, int]:
        lo, hi = s(w)
        one = 1 << w
        return max(one - hi, 0), min(one - lo, one)

    return _HalvingGeometric(ratio, m, irrational=True)


@lru_cache(maxsize=256)
def _rr_split(eps: Fraction, k: int) -> tuple[Fraction, _HalvingGeometric]:
    """p0 = (floor(2^k p) + 1) / 2^k for p = 1/(1 + exp(eps)), and the geometric of the
    thinning, success probability s = 1 - p/p0."""
    p_bounds = _rr_p(eps)
    c = _floor_irrational(lambda w: p_bounds(w + k)) + 1

    def s(w: int) -> tuple[int, int]:
        # 2^w s = 2^w - 2^(w + k) p / c
        lo, hi = p_bounds(w + k)
        return max((1 << w) - -((-hi) // c), 0), (1 << w) - lo // c

    return Fraction(c, 1 << k), _success_machine(_memo(s))


def _poisson(tape: RandomTape, lam: Fraction) -> int:
    if lam == 0:
        return 0
    if lam > ENVELOPE_THRESHOLD:
        mode = lam.__floor__()
        u, v = lam.numerator, lam.denominator

        def terms(lo: int, hi: int) -> Ratio:
            return Ratio([], list(range(lo + 1, hi + 1)), [(u, hi - lo)], [(v, hi - lo)])

        return _mode_envelope(tape, lambda k: lam / (k + 1), mode, isqrt(mode) + 1, None, terms)
    pieces = -((-2 * lam.numerator) // lam.denominator)  # ceil(2 lambda)
    mu = lam / pieces
    machine = _geometric_machine(1 - mu)
    total = 0
    for _ in range(pieces):
        while True:
            k = machine.sample(tape)
            factorial = 1
            for i in range(2, k + 1):
                factorial *= i
            if bernoulli_ratio(tape, 1, factorial):
                total += k
                break
    return total


def poisson(tape: RandomTape, lam: object) -> int:
    """Poisson(lambda) for rational lambda >= 0, exact; cost O(1 + lambda).

    Poisson is infinitely divisible: with k = ceil(2 lambda) pieces of mean mu = lambda/k <= 1/2,
    the sum of k independent Poisson(mu) variates is Poisson(lambda). Each piece is drawn by
    rejection (the Poisson "Buffon machine" of Flajolet, Pelletier and Soria): repeat { K =
    ``geometric(1 - mu)`` (so P[K = k] = (1 - mu) mu^k); accept K if lazy_compare(1/K!) = 1 };
    the accepted K has P[K = k] proportional to mu^k / k!. Acceptance is (1 - mu) e^mu >= 0.82.
    lambda = 0 returns 0 without bits; lambda > 10^6 is refused (cost).

    For lambda > 256 (ENVELOPE_THRESHOLD) the *mode envelope* is used instead, with cost
    O(sqrt(lambda)) big-integer operations and O(log lambda) coins: f(k) = P[K = k] has the
    rational ratio rho(k) = f(k+1)/f(k) = lambda / (k + 1), decreasing in k, and the mode
    M = floor(lambda); let d = isqrt(M) + 1. Steps of the mode envelope for (rho, M, d, top)
    (top = the largest value with f > 0, none here; binomial has top = n):

    1. a = max(0, M - d); b = M + d (min(top, M + d) with a top); W = b - a + 1;
       r+ = rho(b) (0 if b = top); r- = 1 / rho(a - 1) (0 if a = 0);
       A = r+ / (1 - r+); B = r- / (1 - r-); c = W / (W + A + B); c' = A / (A + B) (0 if A = B = 0).
    2. If lc(c) = 1: k = a + uniform(W), h = 1. Else if lc(c') = 1: G = geometric(1 - r+),
       k = b + 1 + G, h = r+^(G + 1). Else: G = geometric(1 - r-), k = a - 1 - G,
       h = r-^(G + 1); if k < 0 go to 2. If k > top go to 2.
    3. R = f(k)/f(M) = the product of rho(i) for M <= i < k, or of 1/rho(i) for k <= i < M.
       If lc(R / h) = 1 return k, else go to 2.

    (h(k) >= f(k)/f(M) everywhere by log-concavity, so R/h <= 1 and the accepted k has PMF f;
    the acceptance rate is about 0.6.) uniform is the tape's uniform(n) and lc the lazy
    comparison, with rationals only.
    """
    q = rational_in(lam, "lam", low=0, high=MAX_MEAN)
    return _poisson(tape, q)


def negative_binomial(tape: RandomTape, r: object, p: object) -> int:
    """NB(r, p): P[K = k] = C(k + r - 1, k) (1 - p)^r p^k, rational r > 0, rational p in [0, 1).

    Exact for every rational r, integral or fractional (the shares NB(r/n, p) of Ghazi et al.,
    sec. 3), by the compound-Poisson form of the negative binomial: its generating function is
    ((1 - p)/(1 - p z))^r = prod_{j >= 1} exp((r p^j / j)(z^j - 1)), so K = sum_j j N_j with
    independent N_j ~ Poisson(r p^j / j). The N_j are produced together by thinning one Poisson
    process: draw N ~ Poisson(r p / (1 - p)) points, give each a size J = 1 + geometric(1 - p)
    (P[J = j] = (1 - p) p^(j - 1)), keep it with probability 1/J; the kept points of size j are
    Poisson(r p^j / j). Steps (the *compound steps*, version 1): p = 0 returns 0 without bits;
    N = ``poisson(r p / (1 - p))``; total = 0; N times { J = 1 + ``geometric(1 - p)``; if
    lazy_compare(1/J) = 1: total += J }; return total. Cost O(1 + r p / (1 - p)).

    For r >= 1, a mean lambda = r p / (1 - p) > 256 and r >= lambda / 256 (so that the standard
    deviation is O(sqrt(lambda))) the PMF is log-concave with the rational ratio
    f(k+1)/f(k) = (k + r) p / (k + 1) and mode M = floor((r - 1) p / (1 - p)): the steps of the
    mode envelope of :func:`poisson` with d = isqrt(floor(r p / (1 - p)^2)) + 1 and no upper end.

    Otherwise (r < 1 or lambda > 256 r: NB with a small r and p near 1 has a standard deviation
    close to its mean, and no envelope is cheap), when lambda > 10^4 (MAX_COMPOUND_MEAN) or
    lambda (m + 2)^2 > 2.56 10^6 (MAX_COMPOUND_WORK), m the largest integer >= 0 with
    2^m (1 - p) <= 1, the compound steps would draw about lambda geometrics of m digits each;
    there *size blocks* run instead (steps version 2, :func:`_nb_blocks`; version 1 refused
    these parameters, so its vectors are unchanged). They are the size blocks of
    :func:`negative_binomial_exp` (case 3) with the rational p, cost
    O(r log(lambda)^2 + log(lambda)^2) coins. With y_i = p^(2^i) (rational):

    1. B = the smallest integer >= 0 with tau = r y_B / (1 - p) <= 1; total = 0.
    2. For i = 0, 1, ..., B - 1 in order: mu_i = r y_i (1 - y_i) / (2^i (1 - p));
       N_i = ``poisson(floor(mu_i))`` + PB(mu_i - floor(mu_i)); N_i times { R = sum_{j < i} 2^j
       lazy_compare(y_j / (1 + y_j)) (j ascending: the digits of ``geometric(1 - p)``);
       J = 2^i + R; if lazy_compare(2^i / J) = 1: total = total + J }.
    3. N = PB(tau); N times { J = 2^B + ``geometric(1 - p)``; if lazy_compare(1/J) = 1:
       total = total + J }; return total.

    PB(x), Poisson of a rational x in [0, 1]: k = floor(2 x) + 1 pieces of mean mu = x / k
    (< 1/2; x = 0 gives one piece with mu = 0, which reads no bits), each piece: repeat { K = 0;
    while lazy_compare(mu) = 1: K = K + 1; accept K if lazy_compare(1/K!) = 1 }; the sum of the
    pieces (the steps of :func:`_poisson_pieces`). Why this is NB(r, p): of the Poisson(lambda)
    points of the compound steps, those with a size J in [2^i, 2^(i+1)) are Poisson with mean
    lambda P[J in block i] = r y_i (1 - y_i) / (1 - p); given the block, J - 2^i is the geometric
    with ratio p truncated to [0, 2^i), whose i binary digits are independent with the stated
    probabilities (the halving geometric); keeping a point with probability 1/J = 2^-i (2^i / J)
    is first a Poisson thinning by 2^-i, which gives mu_i; the sizes >= 2^B are 2^B plus a
    geometric(1 - p) by memorylessness, Poisson with mean lambda p^(2^B - 1) = tau. Sources: the
    compound-Poisson form of NB is Quenouille's (M. H. Quenouille, "A relation between the
    logarithmic, Poisson, and negative binomial series", Biometrics 5, 1949); splitting and
    thinning a Poisson process by independent marks gives independent Poisson processes (the
    colouring theorem, J. F. C. Kingman, "Poisson Processes", 1993, sec. 5.1); the blocks apply
    the independent binary digits of the "halving" geometric of
    :func:`dpspec.spec.samplers.core.geometric` to the sizes, as :func:`negative_binomial_exp`
    does for the irrational p.

    Every number compared (y_i, mu_i, tau and the digits) is an exact rational, and every
    comparison is exact, equality included: B, floor(mu_i) and floor(2 x) are the exact values,
    and lazy_compare is the exact lazy comparison (the numbers can be dyadic: p = 1 - 2^-k makes
    every y_i dyadic). y_i has 2^i times the digits of p, so an implementation evaluates them
    through bounds: here products truncated to a working precision that grows with the one
    asked for, which give floor and ceil of 2^P x once the precision holds the exact products
    (:func:`_quotient_bounds`), so that every comparison and every floor ends; the bits read are
    those of exact arithmetic.

    Cost limits, in this order: 1 - p < 2^-256 is refused (CostTooLarge); then means
    r p / (1 - p) > 10^6 (MeanTooLarge).
    """
    rr = rational_in(r, "r", low=0, low_open=True)
    q = rational_in(p, "p", low=0, high=1, high_open=True)
    min_rate("negative_binomial", "p", 1 - q, "1 - p")
    if q == 0:
        return 0
    lam = rr * q / (1 - q)
    if lam > MAX_MEAN:
        raise SamplerParameterError(
            f"negative_binomial: the mean r p / (1 - p) exceeds {MAX_MEAN} (cost)")
    envelope = rr >= 1 and lam > ENVELOPE_THRESHOLD and rr * ENVELOPE_THRESHOLD >= lam
    if envelope:
        var = lam / (1 - q)
        a, b, c, e = rr.numerator, rr.denominator, q.numerator, q.denominator

        def terms(lo: int, hi: int) -> Ratio:
            return Ratio([i * b + a for i in range(lo, hi)], list(range(lo + 1, hi + 1)),
                         [(c, hi - lo)], [(b * e, hi - lo)])

        return _mode_envelope(tape, lambda k: (k + rr) * q / (k + 1),
                              ((rr - 1) * q / (1 - q)).__floor__(), isqrt(var.__floor__()) + 1,
                              None, terms)
    if lam > MAX_COMPOUND_MEAN or lam * (_halving_digits(1 - q) + 2) ** 2 > MAX_COMPOUND_WORK:
        return _nb_blocks(tape, rr, q)  # steps version 2
    n = _poisson(tape, lam)
    machine = _geometric_machine(1 - q)
    total = 0
    for _ in range(n):
        j = 1 + machine.sample(tape)
        if bernoulli_ratio(tape, 1, j):
            total += j
    return total


@lru_cache(maxsize=1024)
def _square_chain(base: int, w: int) -> list[Bounds]:
    """Bounds of base^(2^j), j = 0, 1, ..., by squarings truncated to w bits (exact while the
    powers fit); extended on demand by :func:`_power_of_two_bounds`."""
    return [(base, base, 0)]


def _power_of_two_bounds(base: int, j: int, w: int) -> Bounds:
    """Bounds of base^(2^j) at w bits (the value of ``_product_bounds([], [(base, 2^j)], w)``),
    one chain of squarings per (base, w) shared by every j."""
    chain = _square_chain(base, w)
    while len(chain) <= j:
        chain.append(_mul_bounds(chain[-1], chain[-1], w))
    return _mul_bounds((1, 1, 0), chain[j], w)


def _nb_block_bounds(r: Fraction, p: Fraction, i: int, tail: bool) -> Oracle:
    """Bounds of mu_i = r y (1 - y) / (2^i (1 - p)), or of tau = r y / (1 - p) if ``tail``,
    y = p^(2^i), for rational r and p = c/e: mu_i = (r e / (e - c)) c^N (e^N - c^N) / (2^i e^(2N))
    and tau = (r e / (e - c)) c^N / e^N, N = 2^i, from the powers c^N and e^N truncated to a
    working precision that grows with the requested one (exact, hence floor and ceil of 2^P mu_i
    or 2^P tau, once it holds them)."""
    c, e = p.numerator, p.denominator
    a, b = r.numerator * e, r.denominator * (e - c)
    # guard bits: the squarings (i <= B <= m + 6), the cancellation in 1 - y (at most m + 1 bits)
    # and the size of mu_i and tau (at most 2^21)
    guard = 96 + 2 * _halving_digits(1 - p)

    def bounds(prec: int) -> tuple[int, int]:
        w = prec + guard
        xlo, xhi, xe = _power_of_two_bounds(c, i, w)
        zlo, zhi, ze = _power_of_two_bounds(e, i, w)
        if tail:
            return _quotient_bounds((a * xlo, a * xhi, xe), (b * zlo, b * zhi, ze), prec)
        low = min(xe, ze)
        xlo, xhi = xlo << (xe - low), xhi << (xe - low)
        ylo, yhi = zlo << (ze - low), zhi << (ze - low)
        num = (a * xlo * max(ylo - xhi, 0), a * xhi * (yhi - xlo), 2 * low)
        den = (b * zlo * zlo, b * zhi * zhi, 2 * ze + i)
        return _quotient_bounds(num, den, prec)

    return _memo(bounds)


BlockPlan = tuple[list[tuple[int, Oracle, int]], Oracle, int]


def _block_plan(mass: Callable[[int, bool], Oracle]) -> BlockPlan:
    """The size blocks' plan for a block-mass function ``mass(i, tail)`` (bounds of mu_i, or of
    tau = the tail's mass from block i on when ``tail``): B is the first block with tau <= 1;
    per block i < B (floor(mu_i), bounds of mu_i - floor(mu_i), its number of pieces), then the
    bounds of tau at B and its number of pieces. Shared by :func:`negative_binomial` (rational p)
    and :func:`negative_binomial_exp` (p = e^-gamma)."""
    big_b = 0
    while _exceeds(mass(big_b, True), Fraction(1)):
        big_b += 1
    blocks = []
    for i in range(big_b):
        mu = mass(i, False)
        whole = _floor_irrational(mu)
        frac = _minus(mu, whole)
        blocks.append((whole, frac, _floor_irrational(_scaled(2, frac)) + 1))
    tau = mass(big_b, True)
    return blocks, tau, _floor_irrational(_scaled(2, tau)) + 1


@lru_cache(maxsize=64)
def _nb_block_plan(r: Fraction, p: Fraction) -> BlockPlan:
    """Steps 1 and 2 of the size blocks of :func:`negative_binomial`."""
    return _block_plan(lambda i, tail: _nb_block_bounds(r, p, i, tail))


def _nb_blocks(tape: RandomTape, r: Fraction, p: Fraction) -> int:
    """Steps version 2 of :func:`negative_binomial` (size blocks, rational p)."""
    blocks, tau, tau_pieces = _nb_block_plan(r, p)
    machine = _geometric_machine(1 - p)
    # the digit coins lc(y_j / (1 + y_j)) of machine.trial(tape, True, j), prepared once (the
    # inner loop runs about r log2(lambda)^2 / 2 times)
    digits = [machine._coin(True, j) for j in range(len(blocks))]

    def digit(tape: RandomTape, j: int) -> int:
        a, b, oracle, first = digits[j]
        if oracle is None:
            return bernoulli_ratio(tape, a, b)
        return bernoulli_bounded(tape, oracle, first=first)

    return _draw_blocks(tape, (blocks, tau, tau_pieces), digit, machine.sample, irrational=False)


def _draw_blocks(tape: RandomTape, plan: BlockPlan, digit: Callable[[RandomTape, int], int],
                 geometric: Callable[[RandomTape], int], irrational: bool) -> int:
    """The draw of the size blocks (both negative binomials): per block i, Poisson(mu_i) points,
    each of size 2^i plus i digits (``digit(tape, j)`` for j < i, least significant first) kept
    with probability 2^i / size; then Poisson(tau) tail points of size 2^B + ``geometric(tape)``
    kept with probability 1 / size. ``irrational``: how the Poisson pieces compare their bounds."""
    blocks, tau, tau_pieces = plan
    total = 0
    for i, (whole, frac, pieces) in enumerate(blocks):
        n = _poisson(tape, Fraction(whole)) + _poisson_pieces(tape, frac, pieces, irrational)
        low = 1 << i
        for _ in range(n):
            rest = 0
            for j in range(i):
                rest |= digit(tape, j) << j
            if bernoulli_ratio(tape, low, low + rest):
                total += low + rest
    n = _poisson_pieces(tape, tau, tau_pieces, irrational)
    low = 1 << len(blocks)
    for _ in range(n):
        size = low + geometric(tape)
        if bernoulli_ratio(tape, 1, size):
            total += size
    return total


def _poisson_bounded(tape: RandomTape, lam: Oracle) -> int:
    pieces = _pieces(lam)
    return _poisson_pieces(tape, lam, pieces)


@lru_cache(maxsize=256)
def _pieces(lam: Oracle) -> int:
    """ceil(2 lambda) = floor(2 lambda) + 1 for irrational lambda."""
    p = 64
    while True:
        lo, hi = lam(p)
        if (2 * lo) >> p == (2 * hi) >> p:
            return ((2 * lo) >> p) + 1
        p *= 2


def _poisson_pieces(tape: RandomTape, lam: Oracle, pieces: int, irrational: bool = True) -> int:
    """Poisson(lambda) for a lambda >= 0 known through rigorous bounds (irrational, or rational
    with bounds that become floor and ceil at a high enough precision if ``irrational`` is False).

    The steps of :func:`poisson`: k = floor(2 lambda) + 1 pieces (ceil(2 lambda) for an
    irrational lambda) of mean mu = lambda / k < 1/2, each: repeat { K = 0; while
    lazy_compare(mu) = 1: K = K + 1; accept K if lazy_compare(1/K!) = 1 }. (For mu < 1/2 the
    geometric(1 - mu) of :func:`poisson` is this plain count, m = 0.)
    """
    def mu(w: int) -> tuple[int, int]:
        a, b = lam(w)
        return a // pieces, -((-b) // pieces)

    total = 0
    for _ in range(pieces):
        while True:
            k = 0
            while bernoulli_bounded(tape, mu, irrational=irrational):
                k += 1
            factorial = 1
            for i in range(2, k + 1):
                factorial *= i
            if bernoulli_ratio(tape, 1, factorial):
                total += k
                break
    return total


@lru_cache(maxsize=256)
def _nb_exp_mean(r: Fraction, gamma: Fraction) -> Oracle:
    """Bounds of lambda = r exp(-gamma) / (1 - exp(-gamma)) = r / (exp(gamma) - 1)."""
    extra = 32 + (gamma.denominator // gamma.numerator + 1).bit_length()
    cache: dict[int, tuple[int, int]] = {}

    def bounds(p: int) -> tuple[int, int]:
        got = cache.get(p)
        if got is not None:
            return got
        w = p + extra
        while True:
            ylo, yhi = exp_neg_fixed(gamma, w)
            one = 1 << w
            if yhi < one:
                break
            w *= 2
        a, b = r.numerator, r.denominator
        lo = (a * ylo << p) // (b * (one - ylo))
        hi = -((-(a * yhi << p)) // (b * (one - yhi)))
        cache[p] = (lo, hi)
        return lo, hi

    return bounds


def negative_binomial_exp(tape: RandomTape, r: object, gamma: object) -> int:
    """NB(r, exp(-gamma)) for rational r > 0 and rational gamma > 0, exact; cost sublinear in the mean.

    The parameterisation of Ghazi et al. (sec. 3: NB(r, p) with p = e^(-0.1 eps / Delta) in
    Theorem 13, and NB(1/n, e^(-eps)) shares whose difference is a discrete Laplace), where
    p = exp(-gamma) is irrational, and so is the mean lambda = r p / (1 - p) = r / (exp(gamma) - 1).
    gamma < 2^-256 is refused (CostTooLarge), then means lambda > 10^6. Three cases, decided
    with rigorous bounds (lambda and r^3
    never coincide):

    1. lambda <= 256 and lambda (m + 2)^2 <= 2.56 10^6, m the largest integer >= 0 with
       2^m gamma <= 1 (the steps of version 1, unchanged; steps version 3 sends the other
       parameters with lambda <= 256, whose version-1 cost is about lambda geometrics of m
       digits each, to case 3, as no published vector had them): the compound-Poisson steps of
       :func:`negative_binomial` with p = exp(-gamma): N = Poisson(lambda) by the steps of
       :func:`_poisson_bounded`; total = 0; N times { J = 1 + ``geometric_exp(gamma)``; if
       lazy_compare(1/J) = 1: total = total + J }; return total.
    2. lambda > 256, r >= 1 and r^3 > lambda: a *dyadic split* (:func:`_nb_exp_split`): L =
       ceil(r) + floor(lambda) + 1, k = 2 bitlen(L) + 2, c = floor(2^k p) + 1, p0 = c / 2^k
       (so p < p0 < 1 and p0 - p < 2^-k); X = the mode envelope of NB(r, p0) (the steps of
       :func:`negative_binomial`'s envelope: rho(i) = (i + r) p0 / (i + 1),
       M = floor((r - 1) p0 / (1 - p0)), d = isqrt(floor(r p0 / (1 - p0)^2)) + 1, no top);
       then remove Binomial(X, s) with s = (p0 - p) / (p0 (1 - p)) by the gaps over
       ``hg(1 - s, m_s)`` (m_s the largest integer >= 0 with 2^m_s s <= 1) and return the rest.
       (Thinning NB(r, p0) with keep probability t = 1 - s gives NB(r, t p0 / (1 - p0 + t p0))
       = NB(r, p); on average r (p0 - p) / ((1 - p0)(1 - p)) < 1/2 are removed.)
    3. otherwise (lambda > 256 and r < 1 or r^3 < lambda: a spread of order lambda / sqrt(r);
       or, steps version 3, lambda <= 256 and lambda (m + 2)^2 > 2.56 10^6):
       *size blocks* (:func:`_nb_exp_blocks`), the compound-Poisson steps of case 1 reorganised
       so that the candidate sizes are drawn block by block, cost O(r log(lambda)^2 + log(lambda)^2).
       With y_j = exp(-2^j gamma): B = the smallest integer >= 0 with
       tau = r y_B / (1 - p) < 1. For i = 0, 1, ..., B - 1 in order: N_i = Poisson(mu_i),
       mu_i = r y_i (1 - y_i) / (2^i (1 - p)); N_i times { R = sum_{j < i} 2^j
       lazy_compare(y_j / (1 + y_j)) (the digits of ``hg(p, i)``); J = 2^i + R; if
       lazy_compare(2^i / J) = 1: total = total + J }. Then N = Poisson(tau) by the steps of
       :func:`_poisson_bounded`; N times { J = 2^B + ``geometric_exp(gamma)``; if
       lazy_compare(1/J) = 1: total = total + J }; return total. Poisson(mu) for the irrational
       mu_i is ``poisson(floor(mu_i))`` followed by the steps of :func:`_poisson_bounded` for
       mu_i - floor(mu_i). (Of the Poisson(lambda) points of case 1, those with a size J in
       [2^i, 2^(i+1)) are Poisson(lambda P[J in block i]), J - 2^i given the block is the
       truncated geometric that the i digits of the halving geometric draw, and keeping with
       probability 1/J = 2^-i (2^i/J) is first a Poisson thinning by 2^-i; sizes >= 2^B are
       geometric by memorylessness.)
    """
    rr = rational_in(r, "r", low=0, low_open=True)
    g = rational_in(gamma, "gamma", low=0, low_open=True)
    min_rate("negative_binomial_exp", "gamma", g)
    lam = _nb_exp_mean(rr, g)
    if _exceeds(lam, Fraction(MAX_MEAN)):
        raise SamplerParameterError(
            f"negative_binomial_exp: the mean r / (exp(gamma) - 1) exceeds {MAX_MEAN} (cost)")
    if _exceeds(lam, Fraction(ENVELOPE_THRESHOLD)):
        if rr >= 1 and not _exceeds(lam, rr ** 3):
            return _nb_exp_split(tape, rr, g)
        return _nb_exp_blocks(tape, rr, g)
    machine = _exp_machine(g.numerator, g.denominator)
    if _exceeds(_scaled((machine.m + 2) ** 2, lam), Fraction(MAX_COMPOUND_WORK)):
        return _nb_exp_blocks(tape, rr, g)  # steps version 3
    n = _poisson_bounded(tape, lam)
    total = 0
    for _ in range(n):
        j = 1 + machine.sample(tape)
        if bernoulli_ratio(tape, 1, j):
            total += j
    return total


@lru_cache(maxsize=64)
def _nb_exp_split_plan(r: Fraction, gamma: Fraction) -> tuple[Fraction, _HalvingGeometric]:
    """p0 of case 2 of :func:`negative_binomial_exp` and the geometric of its thinning."""
    lam = _floor_irrational(_nb_exp_mean(r, gamma))
    big = -((-r.numerator) // r.denominator) + lam + 1
    k = 2 * big.bit_length() + 2
    c = _floor_irrational(lambda w: exp_neg_fixed(gamma, w + k)) + 1

    def s(p: int) -> tuple[int, int]:
        # s = (p0 - p) / (p0 (1 - p)) = 2^k (2^w p0 - 2^w p) / (c (2^w - 2^w p))
        w = p + 2 * k + 64
        ylo, yhi = exp_neg_fixed(gamma, w)
        one, big_c = 1 << w, c << (w - k)
        lo = (max(big_c - yhi, 0) << (p + k)) // (c * (one - ylo))
        hi = -((-((big_c - ylo) << (p + k))) // (c * (one - yhi)))
        return lo, hi

    return Fraction(c, 1 << k), _success_machine(_memo(s))


def _nb_exp_split(tape: RandomTape, r: Fraction, gamma: Fraction) -> int:
    """Case 2 of :func:`negative_binomial_exp`: NB(r, p0) by the mode envelope, thinned to NB(r, p)."""
    p0, thin = _nb_exp_split_plan(r, gamma)
    a, b = r.numerator, r.denominator
    c, two_k = p0.numerator, p0.denominator

    def terms(lo: int, hi: int) -> Ratio:
        length = hi - lo
        return Ratio([i * b + a for i in range(lo, hi)], list(range(lo + 1, hi + 1)),
                     [(c, length)], [(b * two_k, length)])

    mode = ((r - 1) * p0 / (1 - p0)).__floor__()
    d = isqrt((r * p0 / (1 - p0) ** 2).__floor__()) + 1
    x = _mode_envelope(tape, lambda i: (i + r) * p0 / (i + 1), mode, d, None, terms)
    return x - _binomial_by_gaps(tape, x, thin)


def _minus(x: Oracle, whole: int) -> Oracle:
    """Bounds of x - whole, for x > whole."""
    def bounds(p: int) -> tuple[int, int]:
        lo, hi = x(p)
        return max(lo - (whole << p), 0), hi - (whole << p)
    return bounds


def _nb_block_mass(r: Fraction, gamma: Fraction, i: int, tail: bool) -> Oracle:
    """Bounds of r y_i (1 - y_i) / (2^i (1 - y)) (or of r y_i / (1 - y) if ``tail``), with
    y = exp(-gamma) and y_i = exp(-2^i gamma)."""
    extra = 32 + (-((-r.numerator) // r.denominator)).bit_length() \
        + (gamma.denominator // gamma.numerator + 1).bit_length()
    a, b = r.numerator, r.denominator
    shift = 0 if tail else i

    def bounds(p: int) -> tuple[int, int]:
        w = p + extra
        ylo, yhi = exp_neg_fixed(gamma, w)
        zlo, zhi = exp_neg_fixed(gamma * (1 << i), w)
        one = 1 << w
        if tail:
            num_lo, num_hi = zlo << w, zhi << w
        else:
            num_lo, num_hi = zlo * max(one - zhi, 0), zhi * (one - zlo)
        den_lo, den_hi = one - yhi, one - ylo
        assert den_lo > 0
        lo = (a * num_lo << p) // (b * den_hi << (w + shift))
        hi = -((-(a * num_hi << p)) // (b * den_lo << (w + shift)))
        return lo, hi

    return _memo(bounds)


@lru_cache(maxsize=64)
def _nb_exp_block_plan(r: Fraction, gamma: Fraction) -> BlockPlan:
    """Case 3 of :func:`negative_binomial_exp`: the blocks' plan."""
    return _block_plan(lambda i, tail: _nb_block_mass(r, gamma, i, tail))


def _nb_exp_blocks(tape: RandomTape, r: Fraction, gamma: Fraction) -> int:
    """Case 3 of :func:`negative_binomial_exp` (size blocks)."""
    blocks, tau, tau_pieces = _nb_exp_block_plan(r, gamma)
    machine = _exp_machine(gamma.numerator, gamma.denominator)
    return _draw_blocks(tape, (blocks, tau, tau_pieces),
                        lambda tape, j: machine.trial(tape, True, j), machine.sample, irrational=True)
