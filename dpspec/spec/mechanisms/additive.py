"""Additive integer noise: the discrete Laplace and discrete Gaussian mechanisms (sec. 4.1, 4.2 of
the DP draft; [CKS20]) on integer vectors.

Both add i.i.d. integer noise to every coordinate and need no debiasing (the noise has mean 0).
They are parameterised either directly (a scale ``t`` or a variance parameter ``sigma^2``, exact
rationals) or from a privacy target:

* discrete Laplace with scale ``t`` (``P[x] ∝ e^(-|x|/t)``) is ``(Delta_1 / t)``-DP for a query of L1
  sensitivity ``Delta_1`` ([GRS12]; Theorem 29 of [CKS20] for the discrete form): so ``t = Delta_1/eps``
  exactly;
* discrete Gaussian ``N_Z(0, sigma^2)`` is ``(Delta_2^2 / (2 sigma^2))``-zCDP for L2 sensitivity
  ``Delta_2`` (Theorem 14 of [CKS20]): so ``sigma^2 = Delta_2^2 / (2 rho)`` exactly; for an
  ``(eps, delta)`` target the smallest adequate ``sigma`` comes from ``dpspec.spec.accounting``
  (Theorem 7 of [CKS20]), rounded up to a rational ``sigma^2``.

Sensitivities are passed squared for L2 (``Delta_2^2`` is an integer for every circuit here,
e.g. 2 for a one-hot histogram) so that all parameters stay exact.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, ClassVar

from dpspec.spec.mechanisms.base import DpMechanism, check_dimension, check_ints
from dpspec.spec.mechanisms.exact import exact_rational, rational_text
from dpspec.spec.tape import RandomTape


class DiscreteLaplaceMechanism(DpMechanism[list[int], list[int]]):
    """Discrete Laplace noise of scale ``t`` on each coordinate of an integer vector.

    * ``DataType`` = ``DebiasedDataType`` = ``list[int]``; ``debias`` is the identity.
    * Privacy: ``(Delta_1 / t)``-DP (pure) for a query of L1 sensitivity ``Delta_1``.
    * Tape: ``discrete_laplace(tape, t)`` (``dpspec.spec.samplers``, Algorithm 2 of [CKS20]) once per
      coordinate, in index order.
    """

    TAG: ClassVar[str] = "dpspec/mechanism/discrete_laplace"
    DataType: ClassVar[str] = "list[int]"
    DebiasedDataType: ClassVar[str] = "list[int]"

    def __init__(self, scale: object, l1_sensitivity: object | None = None) -> None:
        self.scale = exact_rational(scale, "scale")
        if self.scale <= 0:
            raise ValueError("scale must be > 0")
        self.l1_sensitivity = (None if l1_sensitivity is None
                               else exact_rational(l1_sensitivity, "l1_sensitivity"))

    @classmethod
    def from_epsilon(cls, eps: object, l1_sensitivity: object) -> DiscreteLaplaceMechanism:
        """The mechanism with ``t = Delta_1 / eps``: exactly ``eps``-DP."""
        e = exact_rational(eps, "epsilon")
        d1 = exact_rational(l1_sensitivity, "l1_sensitivity")
        if e <= 0 or d1 <= 0:
            raise ValueError("epsilon and l1_sensitivity must be > 0")
        return cls(d1 / e, d1)

    def epsilon(self) -> Fraction | None:
        """``Delta_1 / t`` if the sensitivity is known."""
        return None if self.l1_sensitivity is None else self.l1_sensitivity / self.scale

    def sample_noise(self, dimension: int, tape: RandomTape) -> list[int]:
        from dpspec.spec.samplers import discrete_laplace

        return [discrete_laplace(tape, self.scale) for _ in range(check_dimension(dimension))]

    def add_noise(self, data: list[int], tape: RandomTape) -> list[int]:
        vec = check_ints(data)
        return [x + z for x, z in zip(vec, self.sample_noise(len(vec), tape), strict=True)]

    def params(self) -> dict[str, Any]:
        return {"scale": rational_text(self.scale)}

    def guarantee(self) -> str:
        eps = self.epsilon()
        if eps is None:
            return f"discrete Laplace, scale {rational_text(self.scale)}: (Delta_1/t)-DP"
        d1 = rational_text(self.l1_sensitivity or Fraction(0))
        return f"{rational_text(eps)}-DP (pure) for L1 sensitivity {d1}"


class DiscreteGaussianMechanism(DpMechanism[list[int], list[int]]):
    """Discrete Gaussian noise ``N_Z(0, sigma^2)`` on each coordinate of an integer vector.

    * ``DataType`` = ``DebiasedDataType`` = ``list[int]``; ``debias`` is the identity.
    * Privacy: ``rho = Delta_2^2 / (2 sigma^2)``-zCDP (Theorem 14 of [CKS20]); ``(eps, delta)``-DP
      as computed by ``dpspec.spec.accounting`` (Theorem 7 of [CKS20]).
    * Tape: ``discrete_gaussian_vector(tape, sigma^2, d)`` (``dpspec.spec.samplers``, Algorithm 3 of
      [CKS20], coordinates in index order).
    """

    TAG: ClassVar[str] = "dpspec/mechanism/discrete_gaussian"
    DataType: ClassVar[str] = "list[int]"
    DebiasedDataType: ClassVar[str] = "list[int]"

    def __init__(self, sigma2: object, l2_sensitivity_squared: object | None = None) -> None:
        self.sigma2 = exact_rational(sigma2, "sigma2")
        if self.sigma2 <= 0:
            raise ValueError("sigma2 must be > 0")
        self.l2_sensitivity_squared = (
            None if l2_sensitivity_squared is None
            else exact_rational(l2_sensitivity_squared, "l2_sensitivity_squared"))
        self.target: tuple[Fraction, Fraction] | None = None  # (eps, delta) when calibrated

    @classmethod
    def from_zcdp(cls, rho: object, l2_sensitivity_squared: object) -> DiscreteGaussianMechanism:
        """``sigma^2 = Delta_2^2 / (2 rho)``: exactly ``rho``-zCDP (Theorem 14 of [CKS20])."""
        r = exact_rational(rho, "rho")
        s2 = exact_rational(l2_sensitivity_squared, "l2_sensitivity_squared")
        if r <= 0 or s2 <= 0:
            raise ValueError("rho and the sensitivity must be > 0")
        return cls(s2 / (2 * r), s2)

    @classmethod
    def from_approx_dp(cls, eps: object, delta: object,
                       difference: Sequence[int]) -> DiscreteGaussianMechanism:
        """The smallest ``sigma`` for ``(eps, delta)``-DP when neighbouring inputs differ by the
        integer vector ``difference`` (e.g. ``(1, -1)`` for a one-hot histogram), by the exact
        privacy curve of the discrete Gaussian in ``dpspec.spec.accounting`` (Theorem 7 of [CKS20]),
        rounded up to 12 significant digits; ``sigma^2`` is the exact square of that decimal."""
        from dpspec.spec.mechanisms.calibration import discrete_gaussian_sigma2

        e = exact_rational(eps, "epsilon")
        d = exact_rational(delta, "delta")
        v = [int(x) for x in difference]
        mech = cls(discrete_gaussian_sigma2(e, d, v), sum(x * x for x in v))
        mech.target = (e, d)
        return mech

    def rho(self) -> Fraction | None:
        if self.l2_sensitivity_squared is None:
            return None
        return self.l2_sensitivity_squared / (2 * self.sigma2)

    def sample_noise(self, dimension: int, tape: RandomTape) -> list[int]:
        from dpspec.spec.samplers import discrete_gaussian_vector

        return list(discrete_gaussian_vector(tape, self.sigma2, check_dimension(dimension)))

    def add_noise(self, data: list[int], tape: RandomTape) -> list[int]:
        vec = check_ints(data)
        return [x + z for x, z in zip(vec, self.sample_noise(len(vec), tape), strict=True)]

    def params(self) -> dict[str, Any]:
        return {"sigma2": rational_text(self.sigma2)}

    def guarantee(self) -> str:
        parts = [f"discrete Gaussian, sigma^2 = {rational_text(self.sigma2)}"]
        rho = self.rho()
        if rho is not None:
            parts.append(f"{rational_text(rho)}-zCDP")
        if self.target is not None:
            parts.append(f"({rational_text(self.target[0])}, {rational_text(self.target[1])})-DP")
        return "; ".join(parts)
