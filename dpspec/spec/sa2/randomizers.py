"""Local randomizers R named in SA2 recipes, and the decoding Dec that the aggregate applies.

Sec. 3 of [SA2]: a single-round protocol is ``(R, Dec, B, q)``; sec. 4.1: the recipe names R and
its parameters. Each randomizer here is exact: its parameters are rationals, its coins come from a
:class:`dpspec.spec.tape.RandomTape` in the order stated, and its output is a Prio3 measurement for the
VDAF the recipe names. ``Dec`` maps that measurement to the integer vector (or integer) that the
aggregate sums; Prio3's aggregate is that sum modulo the field modulus.

* ``binary_randomized_response`` (Prio3Count): ``x in {0, 1}``; with probability ``flip`` the
  output is replaced by a fresh uniform bit. ``eps0 = ln((1 - flip/2) / (flip/2))``.
* ``randomized_response`` (Prio3Histogram, ``k`` buckets): ``x in [0, k)``; with probability
  ``flip`` the output is replaced by a uniform value in ``[0, k)`` (possibly ``x`` again), so
  ``P[y = x] = 1 - flip + flip/k`` and ``P[y = z] = flip/k`` for ``z != x``:
  ``eps0 = ln((1 - flip + flip/k) / (flip/k))`` (replacement local DP, Definition 2.4).
* ``rappor`` (Prio3MultihotCountVec): the one-hot vector ``e_x`` of length ``k`` with each bit
  flipped independently with probability ``flip`` (Example 2 of [SA2], with ``flip = 1/(e^eps0' +
  1)``). Changing ``x`` changes two bits, so under replacement ``eps0 = 2 ln((1 - flip) / flip)``;
  this module states the replacement value (the paper's Example 2 states the one-bit value
  against a reference distribution).

  Reports that cannot be inflated (sec. 4.5 of [SA2]): the circuit bounds the weight of the bit
  vector by ``max_weight`` (:meth:`Randomizer.max_weight`), the rule of sec. 6.1.1 of the DP draft
  that :func:`dpspec.spec.policies.max_weight.max_weight` applies, here with the recipe's exact
  rational ``flip`` in place of ``p0 = 1/(e^EPSILON_0 + 1)``: the smallest ``m`` with
  ``Pr[1 + Bin(k - 1, flip) <= m] >= 1 - overweight``, computed exactly over the rationals. As in
  the policy, an honest report heavier than ``m`` is not uploaded (:meth:`Randomizer.apply`
  returns None); that happens with the exact probability :meth:`Randomizer.overweight_probability`
  ``= Pr[W > m]``, ``W = Bern(1 - flip) + Bin(k - 1, flip)``, whose law does not depend on ``x``.
  Privacy is unchanged: the released sum over the kept reports is a function of the multiset of
  all reports (drop the heavy ones, then add), so every bound on the shuffled reports applies.

Coins, in order (``bernoulli`` is ``dpspec.spec.samplers.bernoulli``, the project's exact Bernoulli of a
rational; ``uniform`` is ``RandomTape.uniform``): binary RR and RR draw ``bernoulli(flip)`` then, if
it is 1, one ``uniform(2)`` / ``uniform(k)``; RAPPOR draws ``bernoulli(flip)`` for bits
``0..k-1`` in order.

Why not :mod:`dpspec.spec.mechanisms`: its randomized-response mechanisms are parameterized by a rational
``eps`` and flip with the irrational probability ``1/(e^eps + 1)`` (or race against
``e^-eps``), whereas an SA2 recipe fixes an exact rational ``flip``. For rational ``eps > 0``,
``e^eps`` is transcendental, so no rational flip probability is one the mechanisms draw: the same
families of laws, but no recipe maps onto a mechanism. This module therefore keeps the recipe's
parameterization (with ``Dec``, ``eps0`` and the VDAF measurement of each randomizer) and draws
every coin from :mod:`dpspec.spec.samplers` and the tape.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath

from dpspec.spec.sa2.ideal import Sa2Error, parse_rate
from dpspec.spec.samplers import bernoulli
from dpspec.spec.tape import RandomTape

RANDOMIZERS = ("binary_randomized_response", "randomized_response", "rappor")

#: Default largest probability that an honest RAPPOR report exceeds max_weight (as the policy's p).
DEFAULT_OVERWEIGHT = Fraction(1, 10**9)


@functools.cache
def _max_weight(k: int, flip: Fraction, overweight: Fraction) -> int:
    target = 1 - overweight
    acc, n = Fraction(0), k - 1
    for m in range(1, k + 1):
        acc += Fraction(math.comb(n, m - 1)) * flip ** (m - 1) * (1 - flip) ** (n - m + 1)
        if acc >= target:
            return m
    return k  # pragma: no cover - the CDF reaches 1 at m = k


@dataclass(frozen=True)
class Randomizer:
    """A named local randomizer with its exact parameters (from a recipe's ``randomizer``)."""

    name: str
    k: int
    flip: Fraction
    overweight: Fraction = DEFAULT_OVERWEIGHT

    @staticmethod
    def from_json(doc: Any) -> Randomizer:
        if not isinstance(doc, dict):
            raise Sa2Error("randomizer must be an object")
        name = doc.get("name")
        if name not in RANDOMIZERS:
            raise Sa2Error(f"unknown randomizer {name!r}; known: {', '.join(RANDOMIZERS)}")
        flip = parse_rate(doc.get("flip", "missing"), "randomizer.flip")
        if flip == 0:
            raise Sa2Error("randomizer.flip must be > 0 (flip = 0 is not locally private)")
        if name == "rappor" and flip >= Fraction(1, 2):
            raise Sa2Error("rappor needs flip < 1/2")
        k: Any = 2 if name == "binary_randomized_response" else doc.get("k")
        if isinstance(k, bool) or not isinstance(k, int) or k < 2:
            raise Sa2Error("randomizer.k must be an integer >= 2")
        if name != "rappor":
            if "overweight" in doc:
                raise Sa2Error("randomizer.overweight applies to rappor only")
            return Randomizer(name, k, flip)
        over = parse_rate(doc.get("overweight", str(DEFAULT_OVERWEIGHT)), "randomizer.overweight")
        if not 0 < over < 1:
            raise Sa2Error("randomizer.overweight must lie in (0, 1)")
        return Randomizer(name, k, flip, over)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "flip": str(self.flip)}
        if self.name != "binary_randomized_response":
            out["k"] = self.k
        if self.name == "rappor":
            out["overweight"] = str(self.overweight)
        return out

    # -- the weight bound of RAPPOR reports (sec. 4.5; sec. 6.1.1 of the DP draft) ------------------
    def _weight_cdf(self, m: int) -> Fraction:
        """``Pr[Bin(k - 1, flip) <= m - 1]`` exactly (the draft's model of the weight is 1 + C)."""
        n, f = self.k - 1, self.flip
        return sum((Fraction(math.comb(n, i)) * f**i * (1 - f) ** (n - i) for i in range(m)),
                   Fraction(0))

    def max_weight(self) -> int:
        """The smallest ``m >= 1`` with ``Pr[1 + Bin(k - 1, flip) <= m] >= 1 - overweight``."""
        if self.name != "rappor":
            raise Sa2Error("max_weight applies to rappor only")
        return _max_weight(self.k, self.flip, self.overweight)

    def overweight_probability(self) -> Fraction:
        """The exact probability that an honest report is heavier than :meth:`max_weight`:
        ``Pr[W > m]`` with ``W = Bern(1 - flip) + Bin(k - 1, flip)`` (at most ``overweight``)."""
        m = self.max_weight()
        f = self.flip
        kept = (1 - f) * self._weight_cdf(m) + f * self._weight_cdf(m + 1)
        return 1 - kept

    # -- the randomizer ---------------------------------------------------------------------
    def check_input(self, x: int) -> None:
        if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x < self.k:
            raise Sa2Error(f"{self.name} input must be an integer in [0, {self.k}), got {x!r}")

    def apply(self, x: int, tape: RandomTape) -> Any:
        """``R(x)``: the Prio3 measurement to shard (coins as in the module docstring), or None
        for a RAPPOR report heavier than :meth:`max_weight` (not uploaded)."""
        if self.name in ("binary_randomized_response", "randomized_response"):
            self.check_input(x)
            return tape.uniform(self.k) if bernoulli(tape, self.flip) else x
        bits = self.rappor_bits(x, tape)
        return None if sum(bits) > self.max_weight() else bits

    def rappor_bits(self, x: int, tape: RandomTape) -> list[bool]:
        """RAPPOR's k randomized bits, bit j flipped by its own coin ``Bern(flip)`` in order
        j = 0, ..., k - 1, before :meth:`apply` drops a report heavier than :meth:`max_weight`."""
        if self.name != "rappor":
            raise Sa2Error("rappor_bits applies to rappor only")
        self.check_input(x)
        return [(j == x) != (bernoulli(tape, self.flip) == 1) for j in range(self.k)]

    def zero_measurement(self) -> Any | None:
        """The measurement whose decoding is zero (for dummy reports, sec. 4.6), if any."""
        if self.name == "binary_randomized_response":
            return 0
        if self.name == "rappor":
            return [False] * self.k
        return None  # a histogram report always counts one bucket

    def dec(self, measurement: Any) -> tuple[int, ...]:
        """``Dec``: the vector that the aggregate sums (a 1-vector for the binary case)."""
        if self.name == "binary_randomized_response":
            return (int(measurement),)
        if self.name == "randomized_response":
            return tuple(int(j == measurement) for j in range(self.k))
        return tuple(int(b) for b in measurement)

    # -- privacy ----------------------------------------------------------------------------------
    def epsilon0(self) -> mpmath.mpf:
        """The local DP parameter (replacement), at mpmath precision 50 digits."""
        with mpmath.workdps(50):
            f = mpmath.mpf(self.flip.numerator) / self.flip.denominator
            if self.name == "rappor":
                return 2 * mpmath.log((1 - f) / f)
            k = self.k
            return mpmath.log((1 - f + f / k) / (f / k))

    def bit_epsilon(self) -> mpmath.mpf:
        """RAPPOR's per-coordinate parameter ``ln((1 - flip) / flip)`` (for ``rappor-clone``)."""
        if self.name != "rappor":
            raise Sa2Error("bit_epsilon applies to rappor only")
        with mpmath.workdps(50):
            f = mpmath.mpf(self.flip.numerator) / self.flip.denominator
            return mpmath.log((1 - f) / f)

    # -- the VDAF --------------------------------------------------------------------------------
    def vdaf_name(self) -> str:
        return {"binary_randomized_response": "Prio3Count",
                "randomized_response": "Prio3Histogram",
                "rappor": "Prio3MultihotCountVec"}[self.name]
