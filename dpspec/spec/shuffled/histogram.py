"""Histograms over B buckets in the shuffled model (Corollary 2 and sec. 1.2 of [GKMP20]).

Each user holds ``x`` in ``{0, ..., B-1}``. The binary-summation protocol runs once per bucket,
in parallel: for bucket ``j`` the user's input bit is ``[x == j]``, and every message carries the
bucket index ``j`` next to its sign (``ceil(log2 B) + 1`` bits per message in [GKMP20]). The
analyzer runs the binary analyzer on each bucket's counts.

Randomness: one tape per user; buckets are processed in increasing order ``j = 0, ..., B-1`` and
for each bucket the per-bucket randomizer draws exactly as in :mod:`dpspec.spec.shuffled.counting`
(Algorithm 3: Z1, Z2, Z3; Algorithm 1: Z). This is the textbook form, whose cost is linear in B;
[GKMP20] sketches a faster sampler through the discrete compound Poisson representation, which
draws the same distribution but consumes the tape differently (not specified here).

Privacy: changing one user's value changes the input bits of two buckets, so a per-bucket
mechanism that is (eps/2, delta/2)-DP for binary summation gives an (eps, delta)-DP histogram by
basic composition (the parameters of Corollary 2 are those of Theorem 1 at eps/2).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from dpspec.spec.shuffled.counting import CorrelatedMechanism, DistributedMechanism, Messages
from dpspec.spec.shuffled.divisible import ParameterError
from dpspec.spec.tape import RandomTape

BucketMechanism = CorrelatedMechanism | DistributedMechanism

#: Tape tag of a user's histogram randomizer driven from a seed (``randomize_seeded``).
TAG_HISTOGRAM = "ghazi/histogram"


@dataclass(frozen=True)
class HistogramMechanism:
    """``buckets`` parallel copies of a binary-summation mechanism, one per bucket."""

    bucket: BucketMechanism
    buckets: int

    def __post_init__(self) -> None:
        if isinstance(self.buckets, bool) or not isinstance(self.buckets, int) or self.buckets < 1:
            raise ParameterError(f"the number of buckets B must be a positive integer, got "
                                 f"{self.buckets!r}")
        if isinstance(self.bucket, DistributedMechanism) and self.bucket.delta_sum != 1:
            raise ParameterError("histogram buckets run binary summation (Delta = 1)")

    @property
    def n(self) -> int:
        return self.bucket.n

    @property
    def message_bits(self) -> int:
        """Bits per message: the bucket index and, for the correlated mechanism, the sign."""
        index_bits = (self.buckets - 1).bit_length()
        return index_bits + (1 if isinstance(self.bucket, CorrelatedMechanism) else 0)

    def randomize(self, x: int, tape: RandomTape) -> list[Messages]:
        """The user's messages, as per-bucket counts of +1 and -1, buckets in increasing order."""
        if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x < self.buckets:
            raise ParameterError(f"user input must be a bucket in [0, {self.buckets}), got {x!r}")
        return [self.bucket.randomize(1 if j == x else 0, tape) for j in range(self.buckets)]

    def randomize_seeded(self, x: int, seed: bytes) -> list[Messages]:
        """The randomizer on ``RandomTape(seed, "ghazi/histogram")``."""
        return self.randomize(x, RandomTape(seed, TAG_HISTOGRAM))

    def shuffle(self, outputs: Sequence[Sequence[Messages]]) -> list[Messages]:
        """The analyzer's view: per bucket, the totals of +1 and -1 messages."""
        totals = [Messages(0, 0) for _ in range(self.buckets)]
        for out in outputs:
            if len(out) != self.buckets:
                raise ParameterError(f"a user output has {len(out)} buckets, want {self.buckets}")
            totals = [t + m for t, m in zip(totals, out, strict=True)]
        return totals

    def analyze(self, received: Sequence[Messages]) -> list[Fraction]:
        """The per-bucket estimates (Algorithm 2 or 4 on each bucket's counts)."""
        if len(received) != self.buckets:
            raise ParameterError(f"the view has {len(received)} buckets, want {self.buckets}")
        return [self.bucket.analyze(m) for m in received]
