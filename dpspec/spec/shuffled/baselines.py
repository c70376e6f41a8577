"""The single-message baselines [GKMP20] compares against (sec. 5): randomized response, B-ary
randomized response, and RAPPOR, each as a randomizer (one tape per user) and an unbiased analyzer.

Binary randomized response with flip probability ``p`` in ``[0, 1/2)`` (Warner 1965): a user with
bit ``x`` sends ``1 - x`` with probability ``p`` and ``x`` otherwise. (Sec. 5.1 of [GKMP20] words it
with the roles of ``p`` and ``1 - p`` exchanged; with ``p <= 1/2`` the intended mechanism is this
one.) Analyzer: ``(C - n p) / (1 - 2p)`` for ``C`` ones among ``n`` reports.
Tape use: one ``bernoulli(tape, p)`` call.

B-ary randomized response with blanket probability ``gamma`` in ``[0, 1)``: with probability
``gamma`` the user reports a uniform value of ``{0, ..., B-1}`` (possibly its own), otherwise its
own value. This is k-ary randomized response with ``e^eps0 = 1 + B (1 - gamma) / gamma``: the
own value is reported with probability ``1 - gamma + gamma/B``, each other value with ``gamma/B``.
Analyzer for bucket j: ``(C_j - n gamma / B) / (1 - gamma)``.
Tape use: ``bernoulli(tape, gamma)``; if it is 1, ``tape.uniform(B)``.

RAPPOR (the basic one-time, symmetric form of Erlingsson et al. 2014) with flip probability
``f`` in ``[0, 1/2)``: the user one-hot encodes its value into B bits and flips each bit
independently with probability ``f``; local eps0 = ``2 ln((1-f)/f)``. Analyzer for bucket j:
``(C_j - n f) / (1 - 2f)``. Tape use: ``bernoulli(tape, f)`` for bits 0, ..., B-1 in order.

All analyzers are unbiased; their exact mean squared errors are in :mod:`dpspec.spec.shuffled.accuracy`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from dpspec.spec.shuffled.divisible import ParameterError, RationalLike, rational
from dpspec.spec.tape import RandomTape


def _bernoulli(tape: RandomTape, p: Fraction) -> int:
    from dpspec.spec.samplers import bernoulli

    return int(bernoulli(tape, p))


def _check_n(n: int) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ParameterError(f"the number of users n must be a positive integer, got {n!r}")


def _half_open(value: RationalLike, name: str) -> Fraction:
    v = rational(value, name)
    if not 0 <= v < Fraction(1, 2):
        raise ParameterError(f"{name} must satisfy 0 <= {name} < 1/2, got {v}")
    return v


@dataclass(frozen=True)
class RandomizedResponse:
    """Binary randomized response with flip probability ``p`` among ``n`` users."""

    p: Fraction
    n: int

    def __init__(self, p: RationalLike, n: int) -> None:
        object.__setattr__(self, "p", _half_open(p, "p"))
        _check_n(n)
        object.__setattr__(self, "n", n)

    def randomize(self, x: int, tape: RandomTape) -> int:
        if x not in (0, 1) or isinstance(x, bool):
            raise ParameterError(f"user input must be 0 or 1, got {x!r}")
        return x ^ _bernoulli(tape, self.p)

    def analyze(self, ones: int) -> Fraction:
        return (ones - self.n * self.p) / (1 - 2 * self.p)


@dataclass(frozen=True)
class BaryRandomizedResponse:
    """B-ary randomized response with blanket probability ``gamma`` among ``n`` users."""

    gamma: Fraction
    buckets: int
    n: int

    def __init__(self, gamma: RationalLike, buckets: int, n: int) -> None:
        g = rational(gamma, "gamma")
        if not 0 <= g < 1:
            raise ParameterError(f"gamma must satisfy 0 <= gamma < 1, got {g}")
        if isinstance(buckets, bool) or not isinstance(buckets, int) or buckets < 2:
            raise ParameterError(f"B must be an integer >= 2, got {buckets!r}")
        _check_n(n)
        object.__setattr__(self, "gamma", g)
        object.__setattr__(self, "buckets", buckets)
        object.__setattr__(self, "n", n)

    def randomize(self, x: int, tape: RandomTape) -> int:
        if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x < self.buckets:
            raise ParameterError(f"user input must be in [0, {self.buckets}), got {x!r}")
        if _bernoulli(tape, self.gamma):
            return tape.uniform(self.buckets)
        return x

    def analyze(self, counts: Sequence[int]) -> list[Fraction]:
        if len(counts) != self.buckets:
            raise ParameterError(f"want {self.buckets} bucket counts, got {len(counts)}")
        base = self.n * self.gamma / self.buckets
        return [(c - base) / (1 - self.gamma) for c in counts]


@dataclass(frozen=True)
class Rappor:
    """Basic one-time symmetric RAPPOR over B buckets with flip probability ``f``."""

    f: Fraction
    buckets: int
    n: int

    def __init__(self, f: RationalLike, buckets: int, n: int) -> None:
        if isinstance(buckets, bool) or not isinstance(buckets, int) or buckets < 1:
            raise ParameterError(f"B must be a positive integer, got {buckets!r}")
        _check_n(n)
        object.__setattr__(self, "f", _half_open(f, "f"))
        object.__setattr__(self, "buckets", buckets)
        object.__setattr__(self, "n", n)

    def randomize(self, x: int, tape: RandomTape) -> list[int]:
        if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x < self.buckets:
            raise ParameterError(f"user input must be in [0, {self.buckets}), got {x!r}")
        return [(1 if j == x else 0) ^ _bernoulli(tape, self.f) for j in range(self.buckets)]

    def analyze(self, counts: Sequence[int]) -> list[Fraction]:
        if len(counts) != self.buckets:
            raise ParameterError(f"want {self.buckets} bucket counts, got {len(counts)}")
        return [(c - self.n * self.f) / (1 - 2 * self.f) for c in counts]
