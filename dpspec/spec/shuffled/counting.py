"""Binary (and Delta-) summation in the shuffled model: Algorithms 1-4 of [GKMP20].

The D-distributed mechanism (sec. 3 of [GKMP20])
    RANDOMIZER (Algorithm 1): a user with input ``x`` in ``{0, ..., Delta}`` samples ``Z ~ D/n`` and
    sends ``x + Z`` identical messages ``1``.
    ANALYZER (Algorithm 2): ``U`` = number of messages received; return ``U - E[D]``.
    The analyzer's view is ``sum x_i + D`` (infinite divisibility), so its privacy is that of the
    central D mechanism (Observation 8) and its error is distributed as ``D - E[D]`` (Observation 9).

The (D1, D2, D3)-correlated distributed mechanism (sec. 4 of [GKMP20])
    RANDOMIZER (Algorithm 3): a user with input ``x`` in ``{0, 1}`` samples ``Z1 ~ D1/n``,
    ``Z2 ~ D2/n``, ``Z3 ~ D3/n`` (in this order, from one tape) and sends ``x + Z1 + Z3`` messages
    ``+1`` and ``Z2 + Z3`` messages ``-1``.
    ANALYZER (Algorithm 4): ``U+``, ``U-`` = numbers of ``+1`` and ``-1`` messages; return
    ``U+ - U- - E[D1 - D2]``. The error is distributed as ``(D1 - D2) - E[D1 - D2]``
    (Observation 16); with ``D1 = D2 = NB(1, a)`` it is exactly the discrete Laplace
    ``P[k] = (1-a)/(1+a) a^|k|``, whatever D3 is. Privacy: Theorem 18 (see dpspec.spec.shuffled.params).

Messages are identical within a type, so a user's output is fully described by counts: the
shuffler's only effect is to hide which user sent them, and the analyzer needs only the totals.
Randomness: one :class:`~dpspec.spec.tape.RandomTape` per user; the draws are exactly the sampler calls
listed above, in that order, nothing else is read from the tape. A user driven by a seed uses
``RandomTape(seed, "ghazi/distributed")`` (Algorithm 1) or ``RandomTape(seed, "ghazi/correlated")``
(Algorithm 3); in production every user draws its own fresh seed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from dpspec.spec.shuffled.divisible import Divisible, ParameterError
from dpspec.spec.tape import RandomTape

#: Tape tags of a user's randomizer when it is driven from a seed (``randomize_seeded``).
TAG_DISTRIBUTED = "ghazi/distributed"
TAG_CORRELATED = "ghazi/correlated"


def _check_input(x: int, upper: int) -> None:
    if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x <= upper:
        raise ParameterError(f"user input must be an integer in [0, {upper}], got {x!r}")


def _check_users(n: int) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ParameterError(f"the number of users n must be a positive integer, got {n!r}")


@dataclass(frozen=True)
class Messages:
    """What one user (or, summed, the shuffler) hands on: counts of +1 and of -1 messages."""

    plus: int
    minus: int = 0

    def __add__(self, other: Messages) -> Messages:
        return Messages(self.plus + other.plus, self.minus + other.minus)

    @property
    def total(self) -> int:
        return self.plus + self.minus


def shuffle_counts(outputs: Iterable[Messages]) -> Messages:
    """The analyzer's view of the shuffled multiset: the totals of each message type."""
    total = Messages(0, 0)
    for m in outputs:
        total = total + m
    return total


@dataclass(frozen=True)
class DistributedMechanism:
    """The D-distributed mechanism for Delta-summation among ``n`` users (Algorithms 1 and 2)."""

    noise: Divisible
    n: int
    delta_sum: int = 1  # Delta: inputs lie in {0, ..., Delta}

    def __post_init__(self) -> None:
        _check_users(self.n)
        if isinstance(self.delta_sum, bool) or not isinstance(self.delta_sum, int) \
                or self.delta_sum < 1:
            raise ParameterError(f"Delta must be a positive integer, got {self.delta_sum!r}")

    @property
    def share(self) -> Divisible:
        """``D/n``, the distribution of each user's noise."""
        return self.noise.share(self.n)

    def randomize(self, x: int, tape: RandomTape) -> Messages:
        """Algorithm 1: ``x + Z`` messages ``1`` with ``Z ~ D/n`` (one draw from ``tape``)."""
        _check_input(x, self.delta_sum)
        z = self.share.sample(tape)
        return Messages(x + z, 0)

    def randomize_seeded(self, x: int, seed: bytes) -> Messages:
        """Algorithm 1 on ``RandomTape(seed, "ghazi/distributed")``."""
        return self.randomize(x, RandomTape(seed, TAG_DISTRIBUTED))

    def analyze(self, received: Messages | int) -> Fraction:
        """Algorithm 2: ``U - E[D]`` where ``U`` is the number of messages received."""
        u = received.plus if isinstance(received, Messages) else received
        if isinstance(received, Messages) and received.minus:
            raise ParameterError("the D-distributed mechanism has no -1 messages")
        if isinstance(u, bool) or not isinstance(u, int) or u < 0:
            raise ParameterError(f"the message count must be a non-negative integer, got {u!r}")
        return u - self.noise.mean()


@dataclass(frozen=True)
class CorrelatedMechanism:
    """The (D1, D2, D3)-correlated distributed mechanism among ``n`` users (Algorithms 3 and 4)."""

    d1: Divisible
    d2: Divisible
    d3: Divisible
    n: int

    def __post_init__(self) -> None:
        _check_users(self.n)

    def shares(self) -> tuple[Divisible, Divisible, Divisible]:
        """``(D1/n, D2/n, D3/n)``."""
        return self.d1.share(self.n), self.d2.share(self.n), self.d3.share(self.n)

    def sample_noise(self, tape: RandomTape) -> tuple[int, int, int]:
        """``(Z1, Z2, Z3)``, drawn from ``tape`` in this order (lines 2-4 of Algorithm 3)."""
        s1, s2, s3 = self.shares()
        z1 = s1.sample(tape)
        z2 = s2.sample(tape)
        z3 = s3.sample(tape)
        return z1, z2, z3

    def randomize(self, x: int, tape: RandomTape) -> Messages:
        """Algorithm 3: ``x + Z1 + Z3`` messages ``+1`` and ``Z2 + Z3`` messages ``-1``."""
        _check_input(x, 1)
        z1, z2, z3 = self.sample_noise(tape)
        return Messages(x + z1 + z3, z2 + z3)

    def randomize_seeded(self, x: int, seed: bytes) -> Messages:
        """Algorithm 3 on ``RandomTape(seed, "ghazi/correlated")``."""
        return self.randomize(x, RandomTape(seed, TAG_CORRELATED))

    def bias(self) -> Fraction:
        """``E[D1 - D2]``, subtracted by the analyzer."""
        return self.d1.mean() - self.d2.mean()

    def analyze(self, received: Messages) -> Fraction:
        """Algorithm 4: ``U+ - U- - E[D1 - D2]``."""
        for v in (received.plus, received.minus):
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise ParameterError(f"message counts must be non-negative integers, got {v!r}")
        return received.plus - received.minus - self.bias()


def run_protocol(mechanism: DistributedMechanism | CorrelatedMechanism, inputs: Sequence[int],
                 tapes: Sequence[RandomTape]) -> tuple[Messages, Fraction]:
    """Every user randomizes with its own tape, the shuffler totals, the analyzer estimates.

    Returns the analyzer's view (the totals) and its estimate. ``len(inputs)`` must equal the
    ``n`` the mechanism was built for (the shares ``D/n`` assume exactly n users).
    """
    if len(inputs) != mechanism.n or len(tapes) != mechanism.n:
        raise ParameterError(f"the mechanism is for n = {mechanism.n} users; got "
                             f"{len(inputs)} inputs and {len(tapes)} tapes")
    view = shuffle_counts(mechanism.randomize(x, t) for x, t in zip(inputs, tapes, strict=True))
    return view, mechanism.analyze(view)
