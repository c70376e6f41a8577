"""Symmetric RAPPOR (sec. 4.3 of the DP draft; App. C.1 of [MJTB+22]) and asymmetric RAPPOR
(private one-hot encoding, App. A of [MJTB+22], Algorithms 1 and 2).

Both take a bit vector and flip coordinates independently. With ``p0 = 1/(e^EPSILON_0 + 1)``:

* symmetric: every coordinate is flipped with probability ``p0`` (binary randomized response at
  each coordinate, Algorithm 3 of [MJTB+22]);
* asymmetric: a 1 is replaced by a fair coin, a 0 becomes 1 with probability ``p0``
  (Algorithm 1 of [MJTB+22]).

``p0`` is irrational for rational ``EPSILON_0 > 0``; dpspec samples it exactly (see
:mod:`dpspec.spec.mechanisms.exact`), never by comparing floats.

Two forms of symmetric RAPPOR are specified, with separate vectors; they agree in distribution
(tested), not in the coins they read:

* :class:`SymmetricRapporTextbook` -- one ``bernoulli_rr(tape, EPSILON_0)`` per coordinate, in
  index order (``dpspec.spec.samplers``). Cost grows with the dimension ``d``.
* :class:`SymmetricRappor` (the efficient form, the default) -- the flipped positions are found by
  geometric skipping: the gaps between consecutive flips of i.i.d. Bernoulli(p0) trials are
  i.i.d. Geometric(p0), sampled exactly by :class:`dpspec.spec.mechanisms.exact.GeometricSkip`. Cost grows
  with the expected number of flips ``d p0 + 1``, not with ``d`` (apart from copying the vector).

Debiasing (Algorithm 4 of [MJTB+22]; Algorithm 2 for the asymmetric form) maps the sum ``S`` of
``n`` noised vectors to real estimates, computed with mpmath at ``DEBIAS_DPS`` significant digits
(the draft returns floats; the estimates are irrational, so "exact" is not available).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, ClassVar

import mpmath

from dpspec.spec.mechanisms.base import (
    DpMechanism,
    check_bits,
    check_count,
    check_dimension,
    check_ints,
)
from dpspec.spec.mechanisms.exact import (
    GeometricSkip,
    exact_rational,
    exp_mpf,
    geometric_skip_positions,
    rational_text,
    rr_flip_enclosure,
)
from dpspec.spec.tape import RandomTape

DEBIAS_DPS = 50
Real = Any  # an mpmath.mpf


def _epsilon(value: object, name: str = "EPSILON_0") -> Fraction:
    eps = exact_rational(value, name)
    if eps <= 0:
        raise ValueError(f"{name} must be > 0 (debiasing divides by e^{name} - 1)")
    return eps


class SymmetricRappor(DpMechanism[list[int], list[Real]]):
    """Symmetric RAPPOR, efficient form (sec. 4.3 of the DP draft; App. C.1 of [MJTB+22]).

    * ``DataType``: ``list[int]`` of bits for ``add_noise`` / ``sample_noise``; for ``debias``, the
      coordinate-wise sum (``list[int]``, entries in ``[0, meas_count]``) of ``meas_count`` noised
      vectors, e.g. a Prio3MultihotCountVec aggregate result.
    * ``DebiasedDataType``: ``list`` of mpmath reals (``DEBIAS_DPS`` digits), unbiased estimates
      of the true per-coordinate counts.
    * Privacy: ``EPSILON_0``-DP in the deletion model per report (Theorem C.1 of [MJTB+22]; OC trust
      model); ``2 EPSILON_0`` in the replacement model. Aggregated over a batch of honest
      Clients it gives (EPSILON, DELTA)-DP in the OAMC model (App. C.1.3 of [MJTB+22]).
    * Tape: ``add_noise(data)`` computes ``positions = geometric_skip_positions(d, tape)`` (gaps of
      :class:`GeometricSkip` read from the tape, one more gap than flips) and flips those
      coordinates. ``sample_noise(d) = add_noise([0] * d)``.
    """

    TAG: ClassVar[str] = "dpspec/mechanism/symmetric_rappor"
    DataType: ClassVar[str] = "list[int] (bits); debias takes their coordinate-wise sum"
    DebiasedDataType: ClassVar[str] = "list[mpmath.mpf] (unbiased count estimates)"
    FORM: ClassVar[str] = "efficient"

    def __init__(self, eps0: object) -> None:
        self.eps0 = _epsilon(eps0)
        self._skip: GeometricSkip | None = None

    # -- noise ------------------------------------------------------------------------------
    @property
    def skip(self) -> GeometricSkip:
        if self._skip is None:
            self._skip = GeometricSkip(self.eps0)
        return self._skip

    def flip_positions(self, dimension: int, tape: RandomTape) -> list[int]:
        """The sorted coordinates that ``add_noise`` flips (the sparse form of ``sample_noise``)."""
        return geometric_skip_positions(self.skip, check_dimension(dimension), tape)

    def add_noise(self, data: list[int], tape: RandomTape) -> list[int]:
        out = check_bits(data)
        for i in self.flip_positions(len(out), tape):
            out[i] ^= 1
        return out

    def sample_noise(self, dimension: int, tape: RandomTape) -> list[int]:
        return self.add_noise([0] * check_dimension(dimension), tape)

    # -- debiasing and utility --------------------------------------------------------------
    def debias(self, data: list[int], meas_count: int) -> list[Real]:
        """Algorithm 4 of [MJTB+22]: ``f(j) = ((e^eps0 + 1) S_j - n) / (e^eps0 - 1)``."""
        counts = check_ints(data)
        n = check_count(meas_count)
        with mpmath.workdps(DEBIAS_DPS):
            e = exp_mpf(self.eps0, DEBIAS_DPS + 10)
            return [((e + 1) * s - n) / (e - 1) for s in counts]

    def debiased_variance(self, meas_count: int) -> Real:
        """``Var f(j) = n e^eps0 / (e^eps0 - 1)^2`` for every coordinate (Theorem C.2 of [MJTB+22])."""
        with mpmath.workdps(DEBIAS_DPS):
            e = exp_mpf(self.eps0, DEBIAS_DPS + 10)
            return meas_count * e / (e - 1) ** 2

    def flip_probability(self) -> Real:
        """``p0 = 1/(e^eps0 + 1)`` as an mpmath real (for analysis; sampling uses exact bounds)."""
        with mpmath.workdps(DEBIAS_DPS):
            return 1 / (exp_mpf(self.eps0, DEBIAS_DPS + 10) + 1)

    def flip_probability_bounds(self, prec: int = 128) -> tuple[Fraction, Fraction]:
        """Rigorous rational bounds on ``p0``."""
        return rr_flip_enclosure(self.eps0, prec)

    def params(self) -> dict[str, Any]:
        return {"eps0": rational_text(self.eps0), "form": self.FORM}

    def guarantee(self) -> str:
        return (f"{rational_text(self.eps0)}-DP per report in the deletion model "
                f"({rational_text(2 * self.eps0)}-DP replacement), local (OC trust model)")


class SymmetricRapporTextbook(SymmetricRappor):
    """Symmetric RAPPOR, per-coordinate (textbook) form: the draft's reference code made exact.

    Same types, guarantee and debiasing as :class:`SymmetricRappor`. Tape: for ``i = 0 .. d-1`` in
    order, ``flip_i = bernoulli_rr(tape, EPSILON_0)`` (``dpspec.spec.samplers``: exactly
    ``Pr[1] = 1/(1 + e^EPSILON_0)``); coordinate ``i`` is flipped iff ``flip_i = 1``.
    """

    TAG: ClassVar[str] = "dpspec/mechanism/symmetric_rappor_textbook"
    FORM: ClassVar[str] = "textbook"

    def flip_positions(self, dimension: int, tape: RandomTape) -> list[int]:
        from dpspec.spec.samplers import bernoulli_rr

        eps0 = self.eps0
        return [i for i in range(check_dimension(dimension)) if bernoulli_rr(tape, eps0)]


class AsymmetricRappor(DpMechanism[list[int], list[Real]]):
    """Asymmetric RAPPOR: private one-hot encoding, Algorithms 1 and 2 of [MJTB+22] (App. A).

    * ``DataType``: ``list[int]`` of bits (a one-hot encoding for the guarantee below; any bit
      vector is accepted and noised coordinate-wise); ``debias`` takes the coordinate-wise sum.
    * ``DebiasedDataType``: list of mpmath reals, unbiased estimates of the true counts.
    * Privacy: ``EPSILON``-DP per report in the replacement model for one-hot inputs (Theorem A.1
      of [MJTB+22]); local (OC trust model).
    * Tape: first the zero-coordinate coins, as in :class:`SymmetricRappor`: the positions
      ``P = geometric_skip_positions(d, tape)`` of i.i.d. Bernoulli(p0) successes over all ``d``
      coordinates; then for each coordinate ``i`` with ``data[i] = 1``, in increasing ``i``, one bit
      ``tape.bits(1)``. Output: ``1`` where ``data[i] = 0`` and ``i`` in ``P``; the fair bit where
      ``data[i] = 1``; ``0`` elsewhere. (Entries of ``P`` at coordinates holding a 1 are unused;
      each coordinate still gets an independent coin of the right law.)
    * Debiasing (Algorithm 2, corrected): ``f(j) = 2 (e^eps + 1)/(e^eps - 1) S_j - 2 n/(e^eps - 1)``.
      The printed Algorithm 2 subtracts ``n/(e^eps - 1)``; with ``E[v] = 1/(e^eps + 1) +
      (e^eps - 1) v / (2 (e^eps + 1))`` (the proof of Theorem A.2) the unbiased constant is
      ``2 n/(e^eps - 1)``, which is what the theorem's claim ``E[f(d)] = f(d)`` needs. The
      unbiasedness test in tests/test_mechanisms.py fails with the printed constant.
    """

    TAG: ClassVar[str] = "dpspec/mechanism/asymmetric_rappor"
    DataType: ClassVar[str] = "list[int] (bits, one-hot for the guarantee); debias takes the sum"
    DebiasedDataType: ClassVar[str] = "list[mpmath.mpf] (unbiased count estimates)"

    def __init__(self, eps: object) -> None:
        self.eps = _epsilon(eps, "EPSILON")
        self._skip: GeometricSkip | None = None

    def add_noise(self, data: list[int], tape: RandomTape) -> list[int]:
        bits = check_bits(data)
        if self._skip is None:
            self._skip = GeometricSkip(self.eps)
        out = [0] * len(bits)
        for i in geometric_skip_positions(self._skip, len(bits), tape):
            if bits[i] == 0:
                out[i] = 1
        for i, b in enumerate(bits):
            if b:
                out[i] = tape.bits(1)
        return out

    def sample_noise(self, dimension: int, tape: RandomTape) -> list[int]:
        return self.add_noise([0] * check_dimension(dimension), tape)

    def debias(self, data: list[int], meas_count: int) -> list[Real]:
        counts = check_ints(data)
        n = check_count(meas_count)
        with mpmath.workdps(DEBIAS_DPS):
            e = exp_mpf(self.eps, DEBIAS_DPS + 10)
            return [(2 * (e + 1) * s - 2 * n) / (e - 1) for s in counts]

    def debiased_variance(self, meas_count: int, true_count: int) -> Real:
        """``Var f(j) = n 4 e^eps/(e^eps - 1)^2 + f(j)`` (Theorem A.2 of [MJTB+22])."""
        with mpmath.workdps(DEBIAS_DPS):
            e = exp_mpf(self.eps, DEBIAS_DPS + 10)
            return meas_count * 4 * e / (e - 1) ** 2 + true_count

    def params(self) -> dict[str, Any]:
        return {"eps": rational_text(self.eps)}

    def guarantee(self) -> str:
        return (f"{rational_text(self.eps)}-DP per report in the replacement model (one-hot "
                f"inputs), local (OC trust model)")
