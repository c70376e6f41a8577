"""The SA2 ideal functionality: sec. 3 and App. A of [SA2] (Talwar et al., seed 000).

Everything here is exact: rates are rationals, times are rationals, sums are over integers (or
integer vectors, optionally reduced modulo a field modulus), and all coins come from a
:class:`dpspec.spec.tape.RandomTape` consumed in the order documented on each function.

Notation (sec. 3). A message ``m`` is decoded by ``Dec`` into a value; values are added by a
commutative, associative ``add``. ``NO_OUTPUT`` (``None``) stands for the paper's ⊥.

* ``A_B^Dec({m_1..m_k}) = sum_i Dec(m_i)`` if ``k >= B``, else ⊥  (:func:`aggregate`).
* ``SA_B^Dec({m_1..m_k}) = A_B^Dec({m_1..m_k}_{↓q})`` where ``S_{↓q}`` keeps each index
  independently with probability ``q`` (:func:`samplable_aggregate`). Only the value is released,
  never the chosen indices ("secrecy of the sample", sec. 3).
* The fixed-size variant (end of sec. 3): aggregate over a uniformly random subset of exactly ``B``
  indices, ⊥ if ``k < B`` (:func:`fixed_size_aggregate`).
* App. A: ``A_{B,K}^Dec(t_0, {(m_1,t_1)..(m_k,t_k)}) = sum_i Dec(m_i)`` if ``k >= B`` and
  ``t_k ∈ [t_0, t_0 + K]``, else ⊥ (:func:`time_bounded_aggregate`), and the randomized donation
  time rule (:func:`donation_wait`).

Coin-consumption rules (normative, so that other implementations reproduce vectors):

* Every Bernoulli(q) coin, ``q`` rational, is ``dpspec.spec.samplers.bernoulli(tape, q)``: the lazy
  comparison of a uniform ``U = 0.b1 b2 ...`` (tape bits ``b1, b2, ...``) with ``q``; it returns
  ``1`` iff ``U < q``, reads no bits when ``q = 0`` or ``q = 1`` and two bits on average otherwise
  (header of ``vectors/samplers/bernoulli.json``).
* Poisson sampling draws ``bernoulli(tape, q)`` once per message, for message index
  ``0, 1, ..., k-1`` in that order; message ``i`` is kept iff its draw is 1.
* The fixed-size subset is a partial Fisher-Yates shuffle of ``[0, 1, ..., k-1]``: for
  ``j = 0, ..., B-1``: ``r = j + tape.uniform(k - j)``, swap positions ``j`` and ``r``. The chosen
  indices are the first ``B`` positions. Nothing is drawn when ``k < B``.
* The donation-time rule draws ``chi_i = bernoulli(tape, 1/m)`` for every ``i = 0, ..., m-1`` in
  order, all ``m`` of them even after the first success, so the tape position after the rule does
  not depend on the outcome.

Recommended tape tags: ``"sa2/poisson"``, ``"sa2/fixed_size"``, ``"sa2/donation_time"``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Generic, TypeVar

from dpspec.spec.rational import RationalError, parse_rational
from dpspec.spec.samplers import bernoulli
from dpspec.spec.tape import RandomTape

M = TypeVar("M")
V = TypeVar("V")

#: The paper's ⊥: the aggregator releases nothing.
NO_OUTPUT = None

Rational = int | Fraction | str


class Sa2Error(ValueError):
    """Invalid parameters for the SA2 functionality or protocol."""


# -- exact parameters --------------------------------------------------------------------------
def exact(value: Rational, name: str = "value") -> Fraction:
    """An exact rational by :func:`dpspec.spec.rational.parse_rational` (int, Fraction, or a
    string such as ``"3/7"``, ``"0.02"``, ``"1e-6"``; floats refused), its errors as Sa2Error."""
    try:
        return parse_rational(value, name)
    except RationalError as exc:
        raise Sa2Error(str(exc)) from exc


def parse_rate(value: Rational, name: str = "q") -> Fraction:
    """A probability in ``[0, 1]`` as an exact rational (see :func:`exact`)."""
    q = exact(value, name)
    if not 0 <= q <= 1:
        raise Sa2Error(f"{name} must lie in [0, 1], got {q}")
    return q


def check_cohort_size(B: int) -> int:
    """``B`` is a positive integer (sec. 3: the minimum number of contributions released)."""
    if isinstance(B, bool) or not isinstance(B, int) or B < 1:
        raise Sa2Error(f"cohort size B must be an integer >= 1, got {B!r}")
    return B


# -- decoding and summation ------------------------------------------------------------------
@dataclass(frozen=True)
class Aggregation(Generic[M, V]):
    """``Dec`` and the commutative, associative ``+`` of sec. 3 ("Notation")."""

    dec: Callable[[M], V]
    add: Callable[[V, V], V]
    zero: V

    def total(self, messages: Sequence[M]) -> V:
        acc = self.zero
        for m in messages:
            acc = self.add(acc, self.dec(m))
        return acc


def integer_sum(dec: Callable[[M], int] | None = None) -> Aggregation[M, int]:
    """Sum over the integers; ``dec`` defaults to the identity on integer messages."""
    def identity(m: M) -> int:
        if isinstance(m, bool) or not isinstance(m, int):
            raise Sa2Error(f"integer_sum expects integer messages, got {m!r}")
        return m
    return Aggregation(dec if dec is not None else identity, lambda a, b: a + b, 0)


def vector_sum(
    length: int, dec: Callable[[M], tuple[int, ...]] | None = None, modulus: int | None = None
) -> Aggregation[M, tuple[int, ...]]:
    """Coordinate-wise sum of integer vectors of ``length``, optionally modulo ``modulus``."""
    def identity(m: M) -> tuple[int, ...]:
        if not isinstance(m, tuple | list) or any(
                isinstance(x, bool) or not isinstance(x, int) for x in m):
            raise Sa2Error(f"vector_sum expects integer vectors, got {m!r}")
        return tuple(m)

    decode = dec if dec is not None else identity

    def checked(m: M) -> tuple[int, ...]:
        v = decode(m)
        if len(v) != length:
            raise Sa2Error(f"decoded vector has length {len(v)}, expected {length}")
        return v

    if modulus is None:
        def add(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
            return tuple(x + y for x, y in zip(a, b, strict=True))
    else:
        p = modulus

        def add(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
            return tuple((x + y) % p for x, y in zip(a, b, strict=True))
    return Aggregation(checked, add, (0,) * length)


# -- sec. 3: the aggregator and the samplable anonymous aggregator -----------------------------
def aggregate(messages: Sequence[M], B: int, agg: Aggregation[M, V]) -> V | None:
    """``A_B^Dec`` (sec. 3): the sum of ``Dec(m_i)`` if at least ``B`` messages arrive, else ⊥."""
    check_cohort_size(B)
    if len(messages) < B:
        return NO_OUTPUT
    return agg.total(messages)


def poisson_sample(k: int, q: Rational, tape: RandomTape) -> list[bool]:
    """The selection of ``S_{↓q}`` (sec. 3): one Bernoulli(q) coin per index ``0..k-1``, in order.

    This is the secret part of the functionality; it is exposed so that implementations can be
    compared step by step, and must never be released by an implementation of SA2.
    """
    rate = parse_rate(q)
    if k < 0:
        raise Sa2Error("the number of messages must be >= 0")
    return [bernoulli(tape, rate) == 1 for _ in range(k)]


def samplable_aggregate(
    messages: Sequence[M], B: int, q: Rational, agg: Aggregation[M, V], tape: RandomTape
) -> V | None:
    """``SA_B^Dec`` with Poisson rate ``q`` (sec. 3): ``A_B^Dec`` over ``{m_i}_{↓q}``.

    Releases the value only (or ⊥); the chosen indices stay inside.
    """
    check_cohort_size(B)
    keep = poisson_sample(len(messages), q, tape)
    return aggregate([m for m, kept in zip(messages, keep, strict=True) if kept], B, agg)


def fixed_size_subset(k: int, B: int, tape: RandomTape) -> list[int] | None:
    """A uniform ``B``-subset of ``range(k)`` by partial Fisher-Yates (module docstring), or None.

    Returns the chosen indices in the order the shuffle placed them; None (drawing nothing) when
    ``k < B``.
    """
    check_cohort_size(B)
    if k < 0:
        raise Sa2Error("the number of messages must be >= 0")
    if k < B:
        return None
    perm = list(range(k))
    for j in range(B):
        r = j + tape.uniform(k - j)
        perm[j], perm[r] = perm[r], perm[j]
    return perm[:B]


def fixed_size_aggregate(
    messages: Sequence[M], B: int, agg: Aggregation[M, V], tape: RandomTape
) -> V | None:
    """The fixed-size variant of SA2 (end of sec. 3): the sum over a uniform subset of size ``B``.

    ⊥ when fewer than ``B`` messages arrive. Releases the value only.
    """
    chosen = fixed_size_subset(len(messages), B, tape)
    if chosen is None:
        return NO_OUTPUT
    return agg.total([messages[i] for i in chosen])


# -- App. A: time-bounded aggregation and randomized donation time -----------------------------
def time_bounded_aggregate(
    t0: Rational,
    timed_messages: Sequence[tuple[M, Rational]],
    B: int,
    K: Rational,
    agg: Aggregation[M, V],
) -> V | None:
    """``A_{B,K}^Dec`` (App. A): release only if ``k >= B`` and the last arrival ``t_k <= t_0 + K``.

    ``timed_messages`` lists ``(m_i, t_i)`` in arrival order: times must be non-decreasing and not
    before ``t_0`` (the collection starts at ``t_0``); otherwise Sa2Error. Then ``t_k ∈ [t_0,
    t_0 + K]`` is the paper's condition: the collection lasted at most ``K``.
    """
    check_cohort_size(B)
    start = exact(t0, "t0")
    window = exact(K, "K")
    if window <= 0:
        raise Sa2Error(f"K must be > 0, got {window}")
    times = [exact(t, "t_i") for _, t in timed_messages]
    if any(t < start for t in times):
        raise Sa2Error("a message arrived before the collection started (t_i < t0)")
    if any(b < a for a, b in zip(times, times[1:], strict=False)):
        raise Sa2Error("timed messages must be listed in arrival order (non-decreasing t_i)")
    k = len(timed_messages)
    if k < B or times[-1] > start + window:
        return NO_OUTPUT
    return agg.total([m for m, _ in timed_messages])


def donation_round(m: int, tape: RandomTape) -> int | None:
    """The round offset of the randomized donation time rule (App. A), or None (no participation).

    Draws ``chi_i ~ Bernoulli(1/m)`` for ``i = 0..m-1`` (all ``m`` draws, in order); returns
    ``argmin{i : chi_i = 1}``, or None when every ``chi_i`` is 0.
    """
    if isinstance(m, bool) or not isinstance(m, int) or m < 1:
        raise Sa2Error(f"m must be an integer >= 1, got {m!r}")
    rate = Fraction(1, m)
    chi = [bernoulli(tape, rate) == 1 for _ in range(m)]
    return chi.index(True) if any(chi) else None


def donation_wait(m: int, K: Rational, tape: RandomTape) -> Fraction | None:
    """The wait time of App. A: ``K * argmin{i : chi_i = 1}``, or None (the device sits out)."""
    window = exact(K, "K")
    if window <= 0:
        raise Sa2Error(f"K must be > 0, got {window}")
    i = donation_round(m, tape)
    return None if i is None else window * i


def donation_schedule(q: Rational, m: int, K: Rational, tape: RandomTape) -> Fraction | None:
    """App. A in full: a Bernoulli(q) participation coin, then (if it is 1) :func:`donation_wait`.

    Returns the wait before the device fetches the current recipe and contributes, or None.
    Draws the participation coin first; draws the ``m`` donation coins only if it is 1.
    """
    rate = parse_rate(q)
    if not bernoulli(tape, rate):
        return None
    return donation_wait(m, K, tape)
