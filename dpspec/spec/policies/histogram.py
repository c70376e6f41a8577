"""The two histogram policies of sec. 6.1 of the DP draft, and the App. B.1 hybrid.

* :class:`MultiHotHistogramWithClientRandomization` (sec. 6.1.1): symmetric RAPPOR on each
  Client, Prio3MultihotCountVec with the exact ``max_weight`` of :mod:`dpspec.spec.policies.max_weight`,
  debiasing by Algorithm 4 of [MJTB+22]. Trust model OAMC (plus local DP in OC).
* :class:`HistogramWithAggregatorRandomization` (sec. 6.1.2): Prio3Histogram; each Aggregator adds
  discrete Gaussian noise to its aggregate share, calibrated for (EPSILON, DELTA) with L2
  sensitivity sqrt(2) (difference vector (1, -1)) by ``dpspec.spec.accounting``; the Collector maps the
  noisy field elements to signed integers. Trust model OAOC.
* :class:`MultiHotHistogramWithClientRandomizationAndFill` (App. B.1): the first policy, plus,
  when a batch closes with ``n`` < ``target_count`` reports, each Aggregator adds the symmetric
  RAPPOR noise of the ``target_count - n`` missing Clients (``sample_noise``: the response to an
  all-zero vector, the reference distribution of deletion DP), so that the aggregate holds at
  least ``target_count`` randomized responses per coordinate whenever one Aggregator is honest.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, ClassVar

import mpmath

from dpspec.spec.field import Field
from dpspec.spec.mechanisms.exact import exact_rational, rational_text
from dpspec.spec.mechanisms.rappor import SymmetricRappor
from dpspec.spec.policies.base import AggregatorNoisePolicy, DpPolicy, add_integer_noise
from dpspec.spec.policies.max_weight import max_weight
from dpspec.spec.tape import RandomTape
from dpspec.spec.vdaf.prio3 import Prio3Histogram, Prio3MultihotCountVec


def default_chunk_length(meas_len: int) -> int:
    """The integer nearest ``sqrt(MEAS_LEN)`` (at least 1): the VDAF draft's recommendation for
    ParallelSum (sec. 7.4.3), the same rule the project's Prio3 vectors use."""
    r = math.isqrt(meas_len)
    return max(1, r + 1 if (r + 1) ** 2 - meas_len < meas_len - r * r else r)


def _positive_int(value: object, name: str, minimum: int = 1) -> int:
    if isinstance(value, str):
        value = exact_rational(value, name)
        if value.denominator != 1:
            raise ValueError(f"{name} must be an integer")
        value = value.numerator
    if isinstance(value, Fraction) and value.denominator == 1:
        value = value.numerator
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}")
    return value


def one_hot(index: int, length: int) -> list[int]:
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < length:
        raise ValueError(f"a histogram measurement is a bucket index in [0, {length})")
    v = [0] * length
    v[index] = 1
    return v


class MultiHotHistogramWithClientRandomization(DpPolicy):
    """Sec. 6.1.1 of the DP draft: symmetric RAPPOR + Prio3MultihotCountVec + debiasing.

    * ``Measurement``: a bucket index in ``[0, length)`` (or its one-hot vector), encoded one-hot.
    * Client: ``SymmetricRappor(EPSILON_0).add_noise`` (efficient form) on the one-hot vector, coins
      from the Client tape; the noised vector goes to Prio3MultihotCountVec as booleans.
    * ``AggShare``: ``list[Field128]``; no Aggregator noise. ``AggResult``: ``list[int]``, the
      per-bucket count of noised 1s over the accepted reports.
    * ``DebiasedAggResult``: list of mpmath reals (Algorithm 4 of [MJTB+22]).
    * ``max_weight`` = :func:`dpspec.spec.policies.max_weight.max_weight` ``(length, EPSILON_0, p)``; an
      honest report heavier than that is not uploaded (rate <= p; see that module for the bias).
    """

    NAME: ClassVar[str] = "multihot-client-rr"
    PARAMS: ClassVar[dict[str, str]] = {
        "length": "number of buckets d",
        "eps0": "EPSILON_0 of symmetric RAPPOR (exact rational > 0)",
        "p": "largest rate at which honest noised reports may exceed max_weight (default 1e-9)",
        "chunk_length": "ParallelSum chunk length (default: nearest integer to sqrt(MEAS_LEN))",
        "shares": "number of Aggregators (default 2)",
        "delta": "DELTA at which the aggregate (OAMC) EPSILON is reported (default 1e-9)",
    }

    def __init__(self, length: object, eps0: object, p: object = "1e-9",
                 chunk_length: object | None = None, shares: object = 2,
                 delta: object = "1e-9") -> None:
        self.length = _positive_int(length, "length")
        self.rappor = SymmetricRappor(eps0)
        self.p = exact_rational(p, "p")
        self.delta = exact_rational(delta, "delta")
        if not 0 < self.delta < 1:
            raise ValueError("delta must be in (0, 1)")
        self.max_weight = max_weight(self.length, self.rappor.eps0, self.p)
        meas_len = self.length + self.max_weight.bit_length()
        self.chunk_length = (default_chunk_length(meas_len) if chunk_length is None
                             else _positive_int(chunk_length, "chunk_length"))
        self.vdaf = Prio3MultihotCountVec(_positive_int(shares, "shares", 2), self.length,
                                          self.max_weight, self.chunk_length)

    def encode_measurement(self, measurement: Any) -> list[int]:
        if isinstance(measurement, list):
            if len(measurement) != self.length \
                    or any(isinstance(x, bool) or not isinstance(x, int) for x in measurement) \
                    or sorted(measurement) != [0] * (self.length - 1) + [1]:
                raise ValueError(f"a measurement is a one-hot vector of length {self.length} "
                                 "(integers 0 and 1)")
            return list(measurement)
        return one_hot(measurement, self.length)

    def add_noise_to_measurement(self, measurement: Any, tape: RandomTape) -> list[bool]:
        return [bool(b) for b in self.rappor.add_noise(measurement, tape)]

    def debias_agg_result(self, agg_result: Any, meas_count: int) -> list[Any]:
        return self.rappor.debias(list(agg_result), meas_count)

    def debiased_json(self, debiased: Any) -> Any:
        return [mpmath.nstr(x, 20, min_fixed=-20, max_fixed=30) for x in debiased]

    def params(self) -> dict[str, Any]:
        return {"length": self.length, "eps0": rational_text(self.rappor.eps0),
                "p": rational_text(self.p), "chunk_length": self.chunk_length,
                "shares": self.vdaf.SHARES, "delta": rational_text(self.delta)}

    def guarantee(self, meas_count: int, numeric: bool = True) -> dict[str, Any]:
        sd = mpmath.sqrt(self.rappor.debiased_variance(meas_count))
        out: dict[str, Any] = {
            "trust_model": "OAMC (most Clients and one Aggregator honest); OC for the local part",
            "local": self.rappor.guarantee(),
            "aggregate": (f"(EPSILON, {rational_text(self.delta)})-DP by amplification over the "
                          f"{meas_count} honest Clients' randomized responses (App. C.1.3 of "
                          f"[MJTB+22])"),
            "max_weight": self.max_weight,
            "noise_sd_per_bucket": mpmath.nstr(sd, 8),
        }
        if numeric and meas_count >= 2:
            from dpspec.spec.mechanisms.calibration import rappor_aggregate_epsilon

            out["aggregate_epsilon"] = rappor_aggregate_epsilon(self.rappor.eps0, meas_count,
                                                                self.delta)
        return out


class HistogramWithAggregatorRandomization(AggregatorNoisePolicy):
    """Sec. 6.1.2 of the DP draft: Prio3Histogram + discrete Gaussian noise from each Aggregator.

    * ``Measurement``: a bucket index in ``[0, length)`` (Prio3Histogram's measurement).
    * ``AggShare``: ``list[Field128]``. Each Aggregator ``j`` adds
      ``discrete_gaussian_vector(tape_j, sigma^2, length)`` (``dpspec.spec.samplers``), reduced mod the
      field, to its aggregate share (:func:`dpspec.spec.policies.base.add_integer_noise`).
    * ``AggResult``: ``list[int]`` in ``[0, MODULUS)``, the noisy counts mod ``q``.
    * ``DebiasedAggResult``: ``list[int]``, each count mapped to ``[-(q-1)/2, (q-1)/2]``
      (:func:`dpspec.spec.policies.base.to_signed`; exact unless the noise exceeds about ``2^126``).
    * ``sigma``: given directly (``sigma2``, exact rational) or calibrated by ``dpspec.spec.accounting``
      for ``(epsilon, delta)`` with difference vector (1, -1) (L2 sensitivity sqrt(2)), rounded up
      to 12 significant digits, then squared exactly. Every Aggregator adds the full ``sigma``, so
      the guarantee holds if at least one is honest (OAOC); with ``c`` honest Aggregators each count
      has standard deviation about ``sigma sqrt(c)`` (Table 2 of the draft).
    """

    NAME: ClassVar[str] = "histogram-aggregator-gaussian"
    PARAMS: ClassVar[dict[str, str]] = {
        "length": "number of buckets",
        "epsilon": "target EPSILON (with delta; or give sigma2)",
        "delta": "target DELTA",
        "sigma2": "discrete Gaussian sigma^2 given directly (exact rational)",
        "chunk_length": "ParallelSum chunk length (default: nearest integer to sqrt(length))",
        "shares": "number of Aggregators (default 2)",
    }

    def __init__(self, length: object, epsilon: object | None = None, delta: object | None = None,
                 sigma2: object | None = None, chunk_length: object | None = None,
                 shares: object = 2) -> None:
        from dpspec.spec.mechanisms.additive import DiscreteGaussianMechanism

        self.length = _positive_int(length, "length")
        if sigma2 is not None:
            if epsilon is not None or delta is not None:
                raise ValueError("give either sigma2 or (epsilon, delta), not both")
            self.mechanism = DiscreteGaussianMechanism(sigma2, 2)
        else:
            if epsilon is None or delta is None:
                raise ValueError("give (epsilon, delta) or sigma2")
            self.mechanism = DiscreteGaussianMechanism.from_approx_dp(epsilon, delta, (1, -1))
        self.chunk_length = (default_chunk_length(self.length) if chunk_length is None
                             else _positive_int(chunk_length, "chunk_length"))
        self.vdaf = Prio3Histogram(_positive_int(shares, "shares", 2), self.length,
                                   self.chunk_length)

    def params(self) -> dict[str, Any]:
        """The construction parameters (``sigma2`` only when it was given directly)."""
        out: dict[str, Any] = {"length": self.length, "chunk_length": self.chunk_length,
                               "shares": self.vdaf.SHARES}
        if self.mechanism.target is not None:
            out["epsilon"] = rational_text(self.mechanism.target[0])
            out["delta"] = rational_text(self.mechanism.target[1])
        else:
            out["sigma2"] = rational_text(self.mechanism.sigma2)
        return out

    def guarantee(self, meas_count: int, numeric: bool = True) -> dict[str, Any]:
        s2 = self.mechanism.sigma2
        with mpmath.workdps(30):
            sigma = mpmath.sqrt(mpmath.mpf(s2.numerator) / s2.denominator)
            out: dict[str, Any] = {
                "trust_model": "OAOC (at least one Aggregator honest)",
                "mechanism": self.mechanism.guarantee(),
                "sigma": mpmath.nstr(sigma, 12),
                "sigma2": rational_text(s2),
                "noise_sd_per_bucket_by_honest_aggregators": {
                    str(c): mpmath.nstr(sigma * mpmath.sqrt(c), 8)
                    for c in range(1, self.vdaf.SHARES + 1)},
            }
        return out


class MultiHotHistogramWithClientRandomizationAndFill(MultiHotHistogramWithClientRandomization):
    """App. B.1 of the DP draft: Client randomization, topped up by the Aggregators when a batch
    closes short of ``target_count`` reports.

    Aggregator ``j``, having aggregated ``n`` reports, computes ``missing = max(0, target_count - n)``
    and adds to its aggregate share the sum of ``missing`` vectors
    ``SymmetricRappor(EPSILON_0).sample_noise(length, tape_j)`` (drawn in order from its tape; as
    field elements). The Collector debiases with ``n + SHARES * missing`` randomized responses.

    Why the guarantee still holds: each filled-in vector has exactly the law of an honest Client's
    report in the deletion model's reference distribution (Theorem C.1 of [MJTB+22]: the response
    to the all-zero vector). An honest Aggregator's ``missing`` vectors together with the ``n``
    Clients' responses are at least ``target_count`` independent binary randomized responses per
    coordinate, which is what the amplification bound for ``target_count`` Clients uses (App. C.1.3
    of [MJTB+22]); the other Aggregators' additions are post-processing. Nothing changes when
    ``n >= target_count``.
    """

    NAME: ClassVar[str] = "multihot-client-rr-fill"
    PARAMS: ClassVar[dict[str, str]] = {
        **MultiHotHistogramWithClientRandomization.PARAMS,
        "target_count": "the number of Clients the guarantee is computed for",
    }

    def __init__(self, length: object, eps0: object, target_count: object, p: object = "1e-9",
                 chunk_length: object | None = None, shares: object = 2,
                 delta: object = "1e-9") -> None:
        super().__init__(length, eps0, p, chunk_length, shares, delta)
        self.target_count = _positive_int(target_count, "target_count")

    def missing(self, meas_count: int) -> int:
        return max(0, self.target_count - meas_count)

    def fill_noise(self, meas_count: int, tape: RandomTape) -> list[int]:
        """The integer counts one Aggregator adds: ``missing`` summed RAPPOR noise vectors."""
        total = [0] * self.length
        for _ in range(self.missing(meas_count)):
            for i in self.rappor.flip_positions(self.length, tape):
                total[i] += 1
        return total

    def add_noise_to_agg_share(self, agg_share: list[Field], meas_count: int,
                               tape: RandomTape) -> list[Field]:
        return add_integer_noise(agg_share, self.fill_noise(meas_count, tape))

    def debias_agg_result(self, agg_result: Any, meas_count: int) -> list[Any]:
        total = meas_count + self.vdaf.SHARES * self.missing(meas_count)
        return self.rappor.debias(list(agg_result), total)

    def params(self) -> dict[str, Any]:
        return {**super().params(), "target_count": self.target_count}

    def guarantee(self, meas_count: int, numeric: bool = True) -> dict[str, Any]:
        out = super().guarantee(max(meas_count, self.target_count), numeric)
        out["trust_model"] = ("OAMC, with the shortfall covered by any one honest Aggregator "
                              "(App. B.1)")
        out["filled_by_each_aggregator"] = self.missing(meas_count)
        total = meas_count + self.vdaf.SHARES * self.missing(meas_count)
        out["noise_sd_per_bucket"] = mpmath.nstr(
            mpmath.sqrt(self.rappor.debiased_variance(total)), 8)
        return out
