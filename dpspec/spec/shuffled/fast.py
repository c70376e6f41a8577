"""The fast histogram randomizer of sec. 1.2 of [GKMP20]: time proportional to the messages sent.

The textbook randomizer (:meth:`dpspec.spec.shuffled.histogram.HistogramMechanism.randomize`)
draws the noise of every bucket, so it costs ``Omega(B)`` even when almost every bucket gets no
message. The paper notes that the discrete compound Poisson (DCP) form of infinitely divisible
distributions brings the expected time down to the order of the expected number of messages; the
paper gives no algorithm, so this module specifies one.

DCP form. Each noise share here is a compound Poisson variable: ``Poi(mu)`` is ``mu``-rate points
of size 1, and ``NB(r, p)`` is ``r p / (1 - p)``-rate points, each of size ``J = 1 + Geom(1 - p)``
kept with probability ``1/J`` (the thinning :func:`dpspec.spec.samplers.negative_binomial`
specifies; the kept points of size ``j`` form a Poisson process of rate ``r p^j / j``). Drawing
``B`` independent copies, one per bucket, is drawing ``B`` independent Poisson processes, which is
one process of ``B`` times the rate whose points carry independent uniform bucket labels
(superposition / colouring of Poisson processes). Hence, for a share distribution ``S`` and ``B``
buckets, :func:`sparse_shares` draws, from the tape, in this order:

1. ``N = poisson(tape, B * rate(S))`` (exact, :func:`dpspec.spec.samplers.poisson`);
2. ``N`` times: ``j = tape.uniform(B)``; for ``Poi``: ``Z[j] += 1``; for ``NB(r, p)``:
   ``J = 1 + geometric(tape, 1 - p)``, and if ``bernoulli_ratio(tape, 1, J)``: ``Z[j] += J``.

The result, a map from bucket to its (non-zero) share, has exactly the law of ``B`` independent
draws of ``S``; all arithmetic is on integers and rationals (no floating point).

The fast randomizer (:func:`randomize_fast`) for a user with bucket ``x``: for the correlated
mechanism (Algorithm 3 per bucket) the three sparse vectors ``Z1, Z2, Z3`` (in this order, one
tape), then ``+1`` messages ``[j == x] + Z1[j] + Z3[j]`` and ``-1`` messages ``Z2[j] + Z3[j]``;
for the D-distributed mechanism (Algorithm 1 per bucket) one sparse vector ``Z`` and ``[j == x] +
Z[j]`` messages. Only buckets with a message appear in the output. Expected work: ``O(1 + E[N])``
tape draws (each uniform bucket costs ``O(log B)`` bits), and ``E[N]`` is at most the expected
number of noise messages (``B rate(S) <= B E[S]``), i.e. the per-user communication of Corollary 2.

The output law equals the textbook randomizer's (same distribution per bucket, independent
across buckets); the tape is consumed differently, so the two forms have separate vectors.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from dpspec.spec.samplers.core import geometric
from dpspec.spec.samplers.counts import poisson
from dpspec.spec.samplers.lazy import bernoulli_ratio
from dpspec.spec.shuffled.counting import CorrelatedMechanism, DistributedMechanism, Messages
from dpspec.spec.shuffled.divisible import Divisible, NegativeBinomial, ParameterError, Poisson
from dpspec.spec.shuffled.histogram import HistogramMechanism
from dpspec.spec.tape import RandomTape

#: Tape tag of the fast randomizer driven from a seed (``randomize_fast_seeded``).
TAG_FAST_HISTOGRAM = "ghazi/histogram-fast"


def point_rate(share: Divisible) -> Fraction:
    """The rate of the compound-Poisson points of one share: ``mu`` for ``Poi(mu)``, ``r p / (1-p)``
    for ``NB(r, p)`` (each point of size ``J``, kept with probability ``1/J``)."""
    if isinstance(share, Poisson):
        return share.lam
    if isinstance(share, NegativeBinomial):
        return share.r * share.p / (1 - share.p)
    raise ParameterError(f"no compound-Poisson form for {share.describe()}")


def sparse_shares(share: Divisible, buckets: int, tape: RandomTape) -> dict[int, int]:
    """``B`` independent draws of ``share``, as ``{bucket: value}`` without the zeros (module
    docstring, steps 1-2)."""
    if isinstance(buckets, bool) or not isinstance(buckets, int) or buckets < 1:
        raise ParameterError(f"the number of buckets B must be a positive integer, got {buckets!r}")
    out: dict[int, int] = {}
    n_points = poisson(tape, buckets * point_rate(share))
    if isinstance(share, Poisson):
        for _ in range(n_points):
            j = tape.uniform(buckets)
            out[j] = out.get(j, 0) + 1
        return out
    assert isinstance(share, NegativeBinomial)
    for _ in range(n_points):
        j = tape.uniform(buckets)
        size = 1 + geometric(tape, 1 - share.p)
        if bernoulli_ratio(tape, 1, size):
            out[j] = out.get(j, 0) + size
    return out


@dataclass(frozen=True)
class SparseMessages:
    """A user's histogram messages, only the buckets that received any."""

    buckets: int
    messages: dict[int, Messages]

    def dense(self) -> list[Messages]:
        """The same messages as :meth:`HistogramMechanism.randomize` lays them out."""
        return [self.messages.get(j, Messages(0, 0)) for j in range(self.buckets)]

    @property
    def total(self) -> int:
        return sum(m.total for m in self.messages.values())


def randomize_fast(mech: HistogramMechanism, x: int, tape: RandomTape) -> SparseMessages:
    """The user's messages by the DCP form (module docstring); same law as ``mech.randomize``."""
    b = mech.buckets
    if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x < b:
        raise ParameterError(f"user input must be a bucket in [0, {b}), got {x!r}")
    plus: dict[int, int] = {x: 1}
    minus: dict[int, int] = {}
    bucket = mech.bucket
    if isinstance(bucket, CorrelatedMechanism):
        s1, s2, s3 = bucket.shares()
        z1 = sparse_shares(s1, b, tape)
        z2 = sparse_shares(s2, b, tape)
        z3 = sparse_shares(s3, b, tape)
        for j, v in z1.items():
            plus[j] = plus.get(j, 0) + v
        for j, v in z3.items():
            plus[j] = plus.get(j, 0) + v
            minus[j] = minus.get(j, 0) + v
        for j, v in z2.items():
            minus[j] = minus.get(j, 0) + v
    else:
        assert isinstance(bucket, DistributedMechanism)
        for j, v in sparse_shares(bucket.share, b, tape).items():
            plus[j] = plus.get(j, 0) + v
    keys = sorted(set(plus) | set(minus))
    return SparseMessages(b, {j: Messages(plus.get(j, 0), minus.get(j, 0)) for j in keys})


def randomize_fast_seeded(mech: HistogramMechanism, x: int, seed: bytes) -> SparseMessages:
    """:func:`randomize_fast` on ``RandomTape(seed, "ghazi/histogram-fast")``."""
    return randomize_fast(mech, x, RandomTape(seed, TAG_FAST_HISTOGRAM))


def expected_points(mech: HistogramMechanism) -> Fraction:
    """``E[N]`` summed over the sparse draws of one user: the expected loop iterations."""
    bucket = mech.bucket
    shares = bucket.shares() if isinstance(bucket, CorrelatedMechanism) else (bucket.share,)
    return sum((mech.buckets * point_rate(s) for s in shares), Fraction(0))


def expected_messages(mech: HistogramMechanism) -> Fraction:
    """Expected messages one user sends: ``1 + B (E[Z1] + E[Z2] + 2 E[Z3])`` (correlated) or
    ``1 + B E[Z]`` (distributed)."""
    bucket = mech.bucket
    if isinstance(bucket, CorrelatedMechanism):
        s1, s2, s3 = bucket.shares()
        return 1 + mech.buckets * (s1.mean() + s2.mean() + 2 * s3.mean())
    return 1 + mech.buckets * bucket.share.mean()
