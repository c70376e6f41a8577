"""Fragmented RAPPOR: the fourth histogram protocol of sec. 5.2 of [GKMP20].

Sec. 5.2 of [GKMP20] compares its correlated mechanism with B-ary randomized response, RAPPOR and
"Fragmented RAPPOR (Erlingsson et al., 2020)"; seed 004 cites it and gives no description. The
source is [EFMRSTT20]: U. Erlingsson, V. Feldman, I. Mironov, A. Raghunathan, S. Song, K. Talwar,
A. Thakurta, "Encode, Shuffle, Analyze Privacy Revisited: Formalizations and Empirical
Evaluation", arXiv:2001.03618 (2020). There, *fragmentation* is the ESA practice of reporting the
aspects of a user's data as separate messages that the shuffler cannot link to each other or to
the user. Applied to one-time RAPPOR this gives the protocol specified here (dpspec's wording):

Randomizer (user with value ``x`` in ``{0, ..., B-1}``, flip probability ``f`` in ``[0, 1/2)``):
for ``j = 0, ..., B-1`` in this order draw ``b_j = [j == x] XOR bernoulli(tape, f)``
(:func:`dpspec.spec.samplers.bernoulli`, an exact comparison with the rational ``f``; no floating
point), and send one message ``j`` -- a *fragment* -- for each ``j`` with ``b_j = 1``, in
increasing order. A user sends between 0 and B messages, ``(1 - f) + (B - 1) f`` in expectation.

Analyzer: the shuffler outputs the multiset of fragments, i.e. the count ``C_j`` of messages
``j``; the estimate is ``(C_j - n f) / (1 - 2 f)`` per bucket (unbiased: ``E[C_j] = h_j (1 - f) +
(n - h_j) f`` for true count ``h_j``). Its variance is ``n f (1 - f) / (1 - 2 f)^2`` for every
bucket and every dataset (each of the n bits of coordinate j is a Bernoulli of variance
``f (1 - f)``); the buckets are independent.

What differs from RAPPOR (:class:`dpspec.spec.shuffled.baselines.Rappor`): there each user sends
its whole B-bit vector as one message, so the shuffled output is the multiset of vectors, which
is *not* a function of the counts, and only the generic bound for an eps0-DP randomizer with
``eps0 = 2 ln((1-f)/f)`` applies. Here the output *is* the count vector ``(C_0, ..., C_{B-1})``:
its coordinates are independent sums of binary randomized responses, and replacing one user's
value changes the law of exactly two of them. The privacy calibration
(:func:`dpspec.spec.shuffled.privacy.fragmented_rappor_flip_probability`) therefore makes each
changed coordinate ``(eps/2, delta/2)``-DP by the [FMT22] clone pair, proven for summed binary
randomized response for every dataset (:mod:`dpspec.spec.accounting.shuffle`), and composes the
two. The tighter product curve of the two coordinates
(:func:`dpspec.spec.accounting.shuffle.rappor_histogram_clone_delta`) certifies the same
parameter again in the tests. The fragments must be unlinkable for this to hold (one shuffled
multiset of single-bucket messages, from all users); a shuffler that keeps a user's fragments
together turns this back into RAPPOR.

Exact error measures (mpmath at ``DPS`` digits, no floating point):

* RMSE per bucket: ``sqrt(n f (1 - f)) / (1 - 2 f)``;
* the expected l-infinity error ``E[max_j |est_j - h_j|]`` for a given dataset: the buckets are
  independent, bucket j's count is ``h_j - A + D`` with ``A ~ Bin(h_j, f)``, ``D ~ Bin(n - h_j, f)``,
  and ``E[max] = sum_k (t_{k+1} - t_k) (1 - prod_j P(|err_j| <= t_k))`` over the sorted atoms
  ``t_k`` of all ``|err_j|`` (``t_0 = 0``). Binomial atoms of probability below ``10^-40`` are
  dropped, the convolution of the two binomials is done in fixed point (integers scaled by
  ``2^256``, products truncated), and the mass lost either way is charged as the largest error
  the bucket can have, so the value computed is an upper bound, above the exact one by at most
  ``2 B n 10^-40 / (1 - 2f)``; the sweep itself runs in mpmath at ``DPS`` digits. The
  same law holds for RAPPOR's buckets (same per-bit flips), so the function serves both.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import mpmath

from dpspec.spec.shuffled.divisible import ParameterError, RationalLike, rational
from dpspec.spec.tape import RandomTape

#: Tape tag of a user's Fragmented RAPPOR randomizer driven from a seed (vectors).
TAG_FRAGMENTED_RAPPOR = "ghazi/fragmented-rappor"
DPS = 30
#: binomial atoms below this probability are dropped (their mass charged at the worst error)
ATOM_FLOOR = mpmath.mpf(10) ** -40
FIXED_BITS = 256
FIXED = 2**FIXED_BITS


@dataclass(frozen=True)
class FragmentedRappor:
    """Fragmented one-time symmetric RAPPOR over ``buckets`` buckets, flip probability ``f``,
    among ``n`` users (module docstring)."""

    f: Fraction
    buckets: int
    n: int

    def __init__(self, f: RationalLike, buckets: int, n: int) -> None:
        v = rational(f, "f")
        if not 0 <= v < Fraction(1, 2):
            raise ParameterError(f"f must satisfy 0 <= f < 1/2, got {v}")
        if isinstance(buckets, bool) or not isinstance(buckets, int) or buckets < 1:
            raise ParameterError(f"B must be a positive integer, got {buckets!r}")
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ParameterError(f"the number of users n must be a positive integer, got {n!r}")
        object.__setattr__(self, "f", v)
        object.__setattr__(self, "buckets", buckets)
        object.__setattr__(self, "n", n)

    def randomize(self, x: int, tape: RandomTape) -> list[int]:
        """The user's fragments: the buckets ``j`` whose randomized bit is 1, increasing."""
        from dpspec.spec.samplers import bernoulli

        if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x < self.buckets:
            raise ParameterError(f"user input must be in [0, {self.buckets}), got {x!r}")
        return [j for j in range(self.buckets)
                if (1 if j == x else 0) ^ int(bernoulli(tape, self.f))]

    def counts(self, fragments: Sequence[int]) -> list[int]:
        """The shuffler's output as bucket counts (what the analyzer may depend on)."""
        c = Counter(fragments)
        if any(isinstance(j, bool) or not isinstance(j, int) or not 0 <= j < self.buckets
               for j in c):
            raise ParameterError(f"a fragment must be a bucket index in [0, {self.buckets})")
        return [c.get(j, 0) for j in range(self.buckets)]

    def analyze(self, counts: Sequence[int]) -> list[Fraction]:
        """Unbiased estimates ``(C_j - n f) / (1 - 2 f)``."""
        if len(counts) != self.buckets:
            raise ParameterError(f"want {self.buckets} bucket counts, got {len(counts)}")
        if any(isinstance(c, bool) or not isinstance(c, int) or c < 0 for c in counts):
            raise ParameterError("bucket counts must be non-negative integers")
        return [(c - self.n * self.f) / (1 - 2 * self.f) for c in counts]

    # -- exact moments ------------------------------------------------------------------------
    def mean_count(self, h: int) -> Fraction:
        """``E[C_j]`` for a bucket whose true count is ``h``."""
        return h * (1 - self.f) + (self.n - h) * self.f

    def variance(self) -> Fraction:
        """Variance (= MSE) of every bucket's estimate: ``n f (1-f) / (1-2f)^2``."""
        return self.n * self.f * (1 - self.f) / (1 - 2 * self.f) ** 2

    def expected_messages(self) -> Fraction:
        """Expected fragments per user: ``(1 - f) + (B - 1) f`` (the same for every input)."""
        return (1 - self.f) + (self.buckets - 1) * self.f


def _binomial_atoms(m: int, p: mpmath.mpf) -> tuple[int, list[mpmath.mpf], mpmath.mpf]:
    """``(k0, probs, dropped)``: the PMF of ``Bin(m, p)`` on ``k0, k0 + 1, ...`` with the atoms
    below :data:`ATOM_FLOOR` at both ends removed (their mass is ``dropped``)."""
    if m == 0 or p == 0:
        return 0, [mpmath.mpf(1)], mpmath.mpf(0)
    mode = int((m + 1) * p)
    mode = min(max(mode, 0), m)
    pm = mpmath.binomial(m, mode) * p ** mode * (1 - p) ** (m - mode)
    up, down = [pm], []
    k, v = mode, pm
    while k < m:
        v = v * (m - k) / (k + 1) * p / (1 - p)
        k += 1
        if v < ATOM_FLOOR:
            break
        up.append(v)
    k, v = mode, pm
    while k > 0:
        v = v * k / (m - k + 1) * (1 - p) / p
        k -= 1
        if v < ATOM_FLOOR:
            break
        down.append(v)
    probs = down[::-1] + up
    return mode - len(down), probs, max(mpmath.mpf(0), 1 - mpmath.fsum(probs))


def _error_law(h: int, n: int, f: Fraction) -> tuple[list[tuple[mpmath.mpf, mpmath.mpf]],
                                                    mpmath.mpf]:
    """Atoms ``(|err|, prob)`` of one bucket's absolute error (true count ``h``), sorted, and the
    dropped mass (module docstring); at the working precision."""
    p = mpmath.mpf(f.numerator) / f.denominator
    scale = 1 - 2 * p
    a0, pa, lost_a = _binomial_atoms(h, p)
    d0, pd, lost_d = _binomial_atoms(n - h, p)
    mean = h * (1 - p) + (n - h) * p
    # the convolution in fixed point (integers scaled by 2^FIXED_BITS; each product is truncated,
    # an error below 2^-FIXED_BITS per atom): exact integer arithmetic, fast for large supports
    qa_fixed = [int(q * FIXED) for q in pa]
    qd_fixed = [int(q * FIXED) for q in pd]
    law: dict[int, int] = {}
    for i, qa in enumerate(qa_fixed):
        base = h - (a0 + i) + d0
        for k, qd in enumerate(qd_fixed):
            law[base + k] = law.get(base + k, 0) + ((qa * qd) >> FIXED_BITS)
    atoms = [(abs(c - mean) / scale, mpmath.mpf(q) / FIXED) for c, q in law.items()]
    return sorted(atoms, key=lambda t: t[0]), lost_a + lost_d


def expected_linf(f: Fraction, n: int, true_counts: Sequence[int]) -> mpmath.mpf:
    """``E[max_j |est_j - h_j|]`` of (fragmented) RAPPOR with flip ``f`` for the dataset with
    bucket counts ``true_counts`` (module docstring: an upper bound within ``2 B n 10^-40 /
    (1 - 2f)`` of the exact value)."""
    if sum(true_counts) != n or any(h < 0 for h in true_counts):
        raise ParameterError("true_counts must be non-negative and sum to n")
    with mpmath.workdps(DPS):
        p = mpmath.mpf(f.numerator) / f.denominator
        worst = max(n * (1 - p), n * p) / (1 - 2 * p)  # no error exceeds this
        laws: dict[int, tuple[list[tuple[mpmath.mpf, mpmath.mpf]], mpmath.mpf]] = {}
        mult = Counter(true_counts)
        for h in mult:
            laws[h] = _error_law(h, n, f)
        # one event per atom, in increasing error; the product of the CDFs is kept up to date
        # (prod over buckets with a positive CDF, and the number of buckets still at 0)
        events = sorted(((e, h, q) for h, (atoms, _) in laws.items() for e, q in atoms),
                        key=lambda t: t[0])
        events.append((worst, -1, mpmath.mpf(0)))
        cdf = {h: mpmath.mpf(0) for h in laws}
        zeros = len(laws)
        prod = mpmath.mpf(1)
        total = mpmath.mpf(0)
        prev = mpmath.mpf(0)
        for e, h, q in events:
            fm = prod if zeros == 0 else mpmath.mpf(0)
            total += (e - prev) * (1 - fm)
            prev = e
            if h < 0:
                break
            old = cdf[h]
            new = old + q
            cdf[h] = new
            if old == 0:
                zeros -= 1
            else:
                prod /= old ** mult[h]
            prod *= new ** mult[h]
        return total
