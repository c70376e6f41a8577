"""Prio3SumVec with Aggregator randomization: discrete Gaussian (L2) or discrete Laplace (L1) noise.

The sec. 6.1.2 pattern applied to vector sums (the noise strategies libprio-rs offers for SumVec,
done exactly). Each Client holds ``length`` integers in ``[0, max_measurement]``; replacing one
Client's vector changes the sum by a vector ``v`` with ``|v_i| <= max_measurement``, so, from the
circuit's parameters alone:

* L1 sensitivity ``Delta_1 = length * max_measurement``;
* L2 sensitivity ``Delta_2 = sqrt(length) * max_measurement`` (``Delta_2^2`` is an integer).

Noise, added by every Aggregator to every coordinate of its aggregate share (OAOC: one honest
Aggregator suffices):

* ``noise=laplace``: discrete Laplace with scale ``t`` given directly or ``t = Delta_1 / epsilon``,
  which is exactly ``epsilon``-DP (pure);
* ``noise=gaussian``: discrete Gaussian with ``sigma^2`` given directly, or ``sigma^2 =
  Delta_2^2 / (2 rho)`` for a zCDP target ``rho`` (exact, Theorem 14 of [CKS20]), or for an
  ``(epsilon, delta)`` target through zCDP: ``rho`` is the largest value (rounded down to 12
  significant digits) whose conversion ``dpspec.spec.accounting.zcdp_to_dp_epsilon(rho, delta)``
  ([CKS20] Corollary 13) is at most ``epsilon``. The zCDP route holds for every difference vector
  of L2 norm ``<= Delta_2`` at once, which the exact single-vector curve used for histograms does
  not give for a whole box of vectors; it is slightly conservative.

The Collector maps the noisy sums to signed integers (:func:`dpspec.spec.policies.base.to_signed`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, ClassVar

from dpspec.spec.mechanisms.additive import DiscreteGaussianMechanism, DiscreteLaplaceMechanism
from dpspec.spec.mechanisms.exact import exact_rational, rational_text
from dpspec.spec.policies.base import AggregatorNoisePolicy
from dpspec.spec.policies.histogram import _positive_int, default_chunk_length
from dpspec.spec.vdaf.prio3 import Prio3SumVec


class SumVecWithAggregatorRandomization(AggregatorNoisePolicy):
    """Prio3SumVec + discrete Gaussian or discrete Laplace noise from each Aggregator.

    * ``Measurement``: ``list[int]`` of ``length`` integers in ``[0, max_measurement]``.
    * ``AggShare``: ``list[Field128]``; ``AggResult``: ``list[int]`` mod ``q``;
      ``DebiasedAggResult``: ``list[int]`` (signed).
    * Tape of Aggregator ``j``: ``discrete_laplace(tape, t)`` per coordinate in order, or
      ``discrete_gaussian_vector(tape, sigma^2, length)``.
    """

    NAME: ClassVar[str] = "sumvec-aggregator-noise"
    PARAMS: ClassVar[dict[str, str]] = {
        "length": "vector length",
        "max_measurement": "largest value of a coordinate",
        "noise": "gaussian (L2) or laplace (L1)",
        "epsilon": "target EPSILON (laplace: pure DP; gaussian: with delta)",
        "delta": "target DELTA (gaussian)",
        "rho": "target zCDP rho (gaussian)",
        "sigma2": "discrete Gaussian sigma^2 given directly",
        "scale": "discrete Laplace scale given directly",
        "chunk_length": "ParallelSum chunk length (default: nearest integer to sqrt(MEAS_LEN))",
        "shares": "number of Aggregators (default 2)",
    }

    def __init__(self, length: object, max_measurement: object, noise: str = "gaussian",
                 epsilon: object | None = None, delta: object | None = None,
                 rho: object | None = None, sigma2: object | None = None,
                 scale: object | None = None, chunk_length: object | None = None,
                 shares: object = 2) -> None:
        self.length = _positive_int(length, "length")
        self.max_measurement = _positive_int(max_measurement, "max_measurement")
        self.l1_sensitivity = self.length * self.max_measurement
        self.l2_sensitivity_squared = self.length * self.max_measurement ** 2
        self.noise = noise
        self.mechanism: DiscreteGaussianMechanism | DiscreteLaplaceMechanism
        given = {k for k, v in [("epsilon", epsilon), ("delta", delta), ("rho", rho),
                                ("sigma2", sigma2), ("scale", scale)] if v is not None}
        self.target: dict[str, Fraction] = {}
        if noise == "laplace":
            if given == {"scale"}:
                self.mechanism = DiscreteLaplaceMechanism(scale, self.l1_sensitivity)
            elif given == {"epsilon"}:
                self.mechanism = DiscreteLaplaceMechanism.from_epsilon(epsilon, self.l1_sensitivity)
                self.target["epsilon"] = exact_rational(epsilon, "epsilon")
            else:
                raise ValueError("laplace noise takes exactly one of: epsilon, scale")
        elif noise == "gaussian":
            if given == {"sigma2"}:
                self.mechanism = DiscreteGaussianMechanism(sigma2, self.l2_sensitivity_squared)
            elif given == {"rho"}:
                self.mechanism = DiscreteGaussianMechanism.from_zcdp(rho, self.l2_sensitivity_squared)
                self.target["rho"] = exact_rational(rho, "rho")
            elif given == {"epsilon", "delta"}:
                from dpspec.spec.mechanisms.calibration import zcdp_rho_for_approx_dp

                e, d = exact_rational(epsilon, "epsilon"), exact_rational(delta, "delta")
                r = zcdp_rho_for_approx_dp(e, d)
                self.mechanism = DiscreteGaussianMechanism.from_zcdp(r, self.l2_sensitivity_squared)
                self.target.update({"epsilon": e, "delta": d, "rho": r})
            else:
                raise ValueError("gaussian noise takes exactly one of: (epsilon, delta), rho, sigma2")
        else:
            raise ValueError("noise must be 'gaussian' or 'laplace'")
        meas_len = self.length * self.max_measurement.bit_length()
        self.chunk_length = (default_chunk_length(meas_len) if chunk_length is None
                             else _positive_int(chunk_length, "chunk_length"))
        self.vdaf = Prio3SumVec(_positive_int(shares, "shares", 2), self.length,
                                self.max_measurement, self.chunk_length)

    def encode_measurement(self, measurement: Any) -> list[int]:
        if not isinstance(measurement, list) or len(measurement) != self.length \
                or any(isinstance(x, bool) or not isinstance(x, int) for x in measurement):
            raise ValueError(f"a measurement is a list of {self.length} integers")
        return list(measurement)

    def params(self) -> dict[str, Any]:
        """The construction parameters (the noise scale only when it was given directly)."""
        out: dict[str, Any] = {"length": self.length, "max_measurement": self.max_measurement,
                               "noise": self.noise, "chunk_length": self.chunk_length,
                               "shares": self.vdaf.SHARES}
        if not self.target:
            out.update(self.mechanism.params())
        elif "epsilon" in self.target and self.noise == "gaussian":
            out.update(epsilon=rational_text(self.target["epsilon"]),
                       delta=rational_text(self.target["delta"]))
        else:
            out.update({k: rational_text(v) for k, v in self.target.items()})
        return out

    def guarantee(self, meas_count: int, numeric: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {
            "trust_model": "OAOC (at least one Aggregator honest)",
            "l1_sensitivity": self.l1_sensitivity,
            "l2_sensitivity_squared": self.l2_sensitivity_squared,
            "mechanism": self.mechanism.guarantee(),
            "noise": self.mechanism.params(),
        }
        if isinstance(self.mechanism, DiscreteLaplaceMechanism):
            eps = self.mechanism.epsilon()
            out["epsilon"] = rational_text(eps) if eps is not None else None
        else:
            rho = self.mechanism.rho()
            out["rho"] = rational_text(rho) if rho is not None else None
            if "epsilon" in self.target:
                out["epsilon"] = rational_text(self.target["epsilon"])
                out["delta"] = rational_text(self.target["delta"])
        return out
