"""The max_weight of sec. 6.1.1 of the DP draft, computed exactly, and what it costs honest Clients.

A Client with a one-hot measurement of length ``d`` applies symmetric RAPPOR; the noised vector
has a weight the circuit must bound by ``m`` (Prio3MultihotCountVec's ``max_weight``) so that a
malicious Client cannot set many coordinates. The draft models the weight as ``1 + C`` with
``C ~ Bin(d - 1, p0)``, ``p0 = 1/(e^EPSILON_0 + 1)``, and asks for ``m`` with
``Pr[1 + C > m] <= p``. dpspec takes the smallest such ``m``:

    max_weight(d, EPSILON_0, p) = min { m >= 1 : Pr[Bin(d - 1, p0) <= m - 1] >= 1 - p }.

Exactness. ``p0`` is transcendental; the CDF is evaluated with rigorous bounds
(:func:`dpspec.spec.mechanisms.exact.binomial_cdf_interval`: rational enclosure of ``p0`` from the
alternating series of ``e^-EPSILON_0``, interval arithmetic with outward rounding for the first
term, exact integer fixed point with directed rounding for the rest). Each comparison with
``1 - p`` is decided only when the whole interval lies on one side; otherwise the precision is
doubled. (It cannot tie: the CDF is a non-constant polynomial in ``p0`` with rational
coefficients, so equality with the rational ``1 - p`` would make ``p0`` algebraic.) The search is
exponential then binary over ``m``, starting at the mean, and relies on the CDF being
increasing in ``m``.

Honest Clients over the bound. The true weight is ``W = B + C`` where ``B ~ Bern(1 - p0)`` is the
noised true bit, not 1: the draft's model ``1 + C`` dominates ``W``, so the real rejection rate is
``Pr[W > m] = (1 - p0) Pr[C > m - 1] + p0 Pr[C > m] <= p``. An honest Client whose noised vector
exceeds ``m`` cannot encode it (Prio3MultihotCountVec refuses), so its report is not uploaded (an
Aggregator would reject it anyway). ``W``'s law does not depend on which bucket the Client holds,
so dropping leaks nothing about the measurement; but it biases the debiased histogram, because the
dropped reports are the heavy ones and the Collector debiases with the number of accepted reports.
:func:`honest_overweight` gives the exact per-Client bias (see its docstring); with ``p = 1e-9`` it
is of order ``1e-9`` per Client, far below the noise standard deviation.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath

from dpspec.spec.mechanisms.exact import binomial_cdf_interval, exact_rational, rr_flip_enclosure

#: Precision (bits) of the first attempt; doubled until every comparison is decided.
START_PREC = 128
MAX_PREC = 1 << 14


def _check(length: int, eps0: object, p: object) -> tuple[int, Fraction, Fraction]:
    if isinstance(length, bool) or not isinstance(length, int) or length < 1:
        raise ValueError("length must be an integer >= 1")
    e = exact_rational(eps0, "EPSILON_0")
    if e <= 0:
        raise ValueError("EPSILON_0 must be > 0")
    q = exact_rational(p, "p")
    if not 0 < q < 1:
        raise ValueError("the false-positive rate p must be in (0, 1)")
    return length, e, q


def max_weight(length: int, eps0: object, p: object) -> int:
    """The smallest ``m`` with ``Pr[1 + Bin(length - 1, p0) <= m] >= 1 - p`` (exact; see module)."""
    d, e, q = _check(length, eps0, p)
    n = d - 1
    if n == 0:
        return 1
    target = 1 - q
    prec = START_PREC
    while prec <= MAX_PREC:
        p_lo, p_hi = rr_flip_enclosure(e, prec)
        cache: dict[int, bool | None] = {}

        def holds(j: int, p_lo: Fraction = p_lo, p_hi: Fraction = p_hi,
                  cache: dict[int, bool | None] = cache, prec: int = prec) -> bool | None:
            """Pr[C <= j] >= 1 - p: True/False when decided, None when the interval straddles."""
            if j not in cache:
                lo, hi = binomial_cdf_interval(n, j, p_lo, p_hi, prec)
                cache[j] = True if lo >= target else (False if hi < target else None)
            return cache[j]

        found = _smallest_true(holds, n, int(n * p_lo))
        if found is not None:
            return found + 1
        prec *= 2
    raise ArithmeticError("max_weight: undecided at the maximum precision")  # pragma: no cover


def _smallest_true(holds: Any, n: int, start: int) -> int | None:
    """Smallest ``j`` in ``[0, n]`` with ``holds(j)``; ``holds(n)`` is True. None if undecided."""
    j = min(max(start, 0), n)
    v = holds(j)
    if v is None:
        return None
    if v:  # search downwards for the first False
        hi, step = j, 1
        lo = j - step
        while lo >= 0:
            w = holds(lo)
            if w is None:
                return None
            if not w:
                break
            hi, step = lo, step * 2
            lo = hi - step
        lo = max(lo, -1)  # holds(lo) is False (or lo = -1)
    else:
        lo, step = j, 1
        hi = j + step
        while hi < n:
            w = holds(hi)
            if w is None:
                return None
            if w:
                break
            lo, step = hi, step * 2
            hi = lo + step
        hi = min(hi, n)  # holds(hi) is True (holds(n) always is)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        w = holds(mid)
        if w is None:
            return None
        if w:
            hi = mid
        else:
            lo = mid
    return hi


@dataclass(frozen=True)
class OverweightAnalysis:
    """What the bound ``m`` does to honest Clients (mpmath reals at ``dps`` digits).

    ``reject_model``: ``Pr[1 + C > m]`` (the draft's model, ``<= p``); ``reject``: the true rate
    ``Pr[W > m]``; ``bias_own``: the expected contribution of one honest Client to the debiased
    count of its own bucket, minus 1; ``bias_other``: its expected contribution to another bucket's
    debiased count (0 without the bound). The expected debiased count of bucket ``j`` is
    ``f(j) + f(j) bias_own + (n - f(j)) bias_other`` for ``n`` honest Clients.
    """

    max_weight: int
    reject_model: Any
    reject: Any
    bias_own: Any
    bias_other: Any


def honest_overweight(length: int, eps0: object, m: int, dps: int = 40) -> OverweightAnalysis:
    """The exact effect of dropping honest reports heavier than ``m`` (see the module docstring).

    With ``A`` = "the report is kept" (``W <= m``), ``C ~ Bin(d-1, p0)``, ``C' ~ Bin(d-2, p0)`` and
    the debiasing ``f = ((e + 1) S - n_kept)/(e - 1)`` (``e = e^EPSILON_0``, ``n_kept`` the number
    of kept reports), one Client with true bucket ``x`` contributes in expectation
    ``((e + 1) E[v_j 1_A] - Pr[A]) / (e - 1)`` to bucket ``j``, where

    * ``E[v_x 1_A] = (1 - p0) Pr[C <= m - 1]``,
    * ``E[v_j 1_A] = p0 ((1 - p0) Pr[C' <= m - 2] + p0 Pr[C' <= m - 1])`` for ``j != x``,
    * ``Pr[A] = (1 - p0) Pr[C <= m - 1] + p0 Pr[C <= m]``.

    Analysis only (mpmath at ``dps`` digits; not on any sampling path).
    """
    d, e0, _ = _check(length, eps0, "1/2")
    if not 1 <= m <= d:
        raise ValueError("m must be in [1, length]")
    with mpmath.workdps(dps + 10):
        e = mpmath.exp(mpmath.mpf(e0.numerator) / e0.denominator)
        p0 = 1 / (e + 1)

        def cdf(n: int, j: int) -> Any:
            if j < 0:
                return mpmath.mpf(0)
            if j >= n:
                return mpmath.mpf(1)
            return mpmath.fsum(mpmath.binomial(n, i) * p0**i * (1 - p0) ** (n - i)
                               for i in range(j + 1))

        c_m1, c_m = cdf(d - 1, m - 1), cdf(d - 1, m)
        kept = (1 - p0) * c_m1 + p0 * c_m
        own = (1 - p0) * c_m1
        other = p0 * ((1 - p0) * cdf(d - 2, m - 2) + p0 * cdf(d - 2, m - 1)) if d >= 2 else 0
        bias_own = ((e + 1) * own - kept) / (e - 1) - 1
        bias_other = ((e + 1) * other - kept) / (e - 1)
        return OverweightAnalysis(m, 1 - c_m1, 1 - kept, +bias_own, +bias_other)
