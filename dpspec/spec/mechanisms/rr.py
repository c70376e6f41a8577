"""Binary and k-ary randomized response (sec. 4.3 of the DP draft; [War65]; App. C.1.3 of [MJTB+22]).

Binary randomized response keeps a bit with probability ``e^eps/(e^eps + 1)`` and flips it with
probability ``p0 = 1/(e^eps + 1)``; symmetric RAPPOR applies it at every coordinate.

k-ary randomized response reports the true category ``x`` of ``k`` with probability
``e^eps/(e^eps + k - 1)`` and each other category with probability ``1/(e^eps + k - 1)``; it is
``eps``-DP in the replacement model. Both are sampled exactly from the random tape.
"""

from __future__ import annotations

from typing import Any, ClassVar

import mpmath

from dpspec.spec.mechanisms.base import (
    DpMechanism,
    check_count,
    check_dimension,
    check_ints,
)
from dpspec.spec.mechanisms.exact import exp_mpf, rational_text
from dpspec.spec.mechanisms.rappor import DEBIAS_DPS, Real, _epsilon
from dpspec.spec.tape import RandomTape


class BinaryRandomizedResponse(DpMechanism[int, Real]):
    """Binary randomized response on one bit.

    * ``DataType``: ``int`` in ``{0, 1}`` for ``add_noise``; ``debias`` takes the sum (an ``int``) of
      ``meas_count`` noised bits. ``sample_noise(1)`` is the response to a 0 (dimension must be 1).
    * ``DebiasedDataType``: an mpmath real, ``((e^eps + 1) S - n)/(e^eps - 1)``, unbiased for the
      number of 1s, with variance ``n e^eps/(e^eps - 1)^2``.
    * Privacy: ``eps``-DP in the replacement model (local).
    * Tape: one ``bernoulli_rr(tape, eps)`` (``dpspec.spec.samplers``); the bit is flipped iff it is 1.
    """

    TAG: ClassVar[str] = "dpspec/mechanism/binary_rr"
    DataType: ClassVar[str] = "int (a bit); debias takes the sum of noised bits"
    DebiasedDataType: ClassVar[str] = "mpmath.mpf"

    def __init__(self, eps: object) -> None:
        self.eps = _epsilon(eps, "EPSILON")

    def add_noise(self, data: int, tape: RandomTape) -> int:
        from dpspec.spec.samplers import bernoulli_rr

        if data not in (0, 1) or isinstance(data, bool):
            raise ValueError(f"binary randomized response takes a bit 0/1, got {data!r}")
        return data ^ int(bernoulli_rr(tape, self.eps))

    def sample_noise(self, dimension: int, tape: RandomTape) -> int:
        if check_dimension(dimension) != 1:
            raise ValueError("binary randomized response noise has dimension 1")
        return self.add_noise(0, tape)

    def debias(self, data: int, meas_count: int) -> Real:
        (s,) = check_ints([data])
        n = check_count(meas_count)
        with mpmath.workdps(DEBIAS_DPS):
            e = exp_mpf(self.eps, DEBIAS_DPS + 10)
            return ((e + 1) * s - n) / (e - 1)

    def debiased_variance(self, meas_count: int) -> Real:
        with mpmath.workdps(DEBIAS_DPS):
            e = exp_mpf(self.eps, DEBIAS_DPS + 10)
            return meas_count * e / (e - 1) ** 2

    def params(self) -> dict[str, Any]:
        return {"eps": rational_text(self.eps)}

    def guarantee(self) -> str:
        return f"{rational_text(self.eps)}-DP per bit in the replacement model, local"


class KaryRandomizedResponse(DpMechanism[list[int], list[Real]]):
    """k-ary randomized response on a one-hot vector of length ``k >= 2``.

    * ``DataType``: a one-hot ``list[int]`` of length ``k`` (the category); ``debias`` takes the
      coordinate-wise sum of ``meas_count`` noised one-hot vectors (a histogram).
    * ``DebiasedDataType``: list of mpmath reals,
      ``f(y) = ((e^eps + k - 1) c_y - n)/(e^eps - 1)``, unbiased for the true counts, with variance
      ``n_y pk (1 - pk) + (n - n_y) qk (1 - qk)`` times ``((e^eps + k - 1)/(e^eps - 1))^2`` where
      ``pk = e^eps/(e^eps + k - 1)``, ``qk = 1/(e^eps + k - 1)``.
    * Privacy: ``eps``-DP in the replacement model (local).
    * Tape (a Bernoulli race, exact): repeat ``i = tape.uniform(k)``; if ``i = x`` output ``x``;
      else if ``bernoulli_exp(tape, eps) = 1`` (``Pr = e^-eps``) output ``i``; else repeat. Output
      ``x`` has weight ``1`` and each other category ``e^-eps``, so the law is exactly the one above.
      ``sample_noise(k)`` is a uniform one-hot vector (``tape.uniform(k)``): the reference
      distribution, within ``e^eps`` of every response law (deletion model).
    """

    TAG: ClassVar[str] = "dpspec/mechanism/kary_rr"
    DataType: ClassVar[str] = "list[int] (one-hot of length k); debias takes the histogram"
    DebiasedDataType: ClassVar[str] = "list[mpmath.mpf]"

    def __init__(self, k: int, eps: object) -> None:
        if isinstance(k, bool) or not isinstance(k, int) or k < 2:
            raise ValueError("k-ary randomized response needs an integer k >= 2")
        self.k = k
        self.eps = _epsilon(eps, "EPSILON")

    def _index(self, data: list[int]) -> int:
        bits = check_ints(data)
        if len(bits) != self.k or sorted(bits) != [0] * (self.k - 1) + [1]:
            raise ValueError(f"k-ary randomized response takes a one-hot vector of length {self.k}")
        return bits.index(1)

    def respond(self, x: int, tape: RandomTape) -> int:
        """The response category for true category ``x`` (the race of the class docstring)."""
        from dpspec.spec.samplers import bernoulli_exp

        if not 0 <= x < self.k:
            raise ValueError(f"category must be in [0, {self.k})")
        while True:
            i = tape.uniform(self.k)
            if i == x:
                return x
            if bernoulli_exp(tape, self.eps):
                return i

    def add_noise(self, data: list[int], tape: RandomTape) -> list[int]:
        out = [0] * self.k
        out[self.respond(self._index(data), tape)] = 1
        return out

    def sample_noise(self, dimension: int, tape: RandomTape) -> list[int]:
        if check_dimension(dimension) != self.k:
            raise ValueError(f"k-ary randomized response noise has dimension k = {self.k}")
        out = [0] * self.k
        out[tape.uniform(self.k)] = 1
        return out

    def debias(self, data: list[int], meas_count: int) -> list[Real]:
        counts = check_ints(data)
        n = check_count(meas_count)
        with mpmath.workdps(DEBIAS_DPS):
            e = exp_mpf(self.eps, DEBIAS_DPS + 10)
            return [((e + self.k - 1) * c - n) / (e - 1) for c in counts]

    def response_probabilities(self) -> tuple[Real, Real]:
        """``(pk, qk)``: probability of the true category and of each other one."""
        with mpmath.workdps(DEBIAS_DPS):
            e = exp_mpf(self.eps, DEBIAS_DPS + 10)
            return e / (e + self.k - 1), 1 / (e + self.k - 1)

    def debiased_variance(self, meas_count: int, true_count: int) -> Real:
        pk, qk = self.response_probabilities()
        with mpmath.workdps(DEBIAS_DPS):
            e = exp_mpf(self.eps, DEBIAS_DPS + 10)
            var_c = true_count * pk * (1 - pk) + (meas_count - true_count) * qk * (1 - qk)
            return var_c * ((e + self.k - 1) / (e - 1)) ** 2

    def params(self) -> dict[str, Any]:
        return {"k": self.k, "eps": rational_text(self.eps)}

    def guarantee(self) -> str:
        return f"{rational_text(self.eps)}-DP per report in the replacement model, local"

