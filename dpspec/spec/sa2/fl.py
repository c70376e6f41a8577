"""The federated-learning path of SA2: the Gaussian vector randomizer (Examples 3 and 5, sec. 4.5
of [SA2]) and its multi-round privacy statement.

**The randomizer** ``gaussian_vector`` turns a device's model update ``x`` (``d`` exact
rationals) into a Prio3BoundedL2VecSum measurement (:mod:`dpspec.spec.vdaf.bounded_l2`, a circuit
that is NOT part of VDAF draft-20). Parameters: ``dimension`` d, ``clipNorm`` C > 0 (rational),
``fractionalBits`` f (0..32), ``noiseVariance`` v > 0 (rational: each device's noise variance in
the units of ``x``; Example 5 takes ``v = sigma^2 / B``), ``tailExponent`` t (1..200, default 50).
Every step is exact; no floating point:

1. **Clip** (exact rationals): ``S = sum x_i^2``. If ``S <= C^2``, ``x' = x``. Otherwise
   ``x' = x * C / r`` with ``r = ceil(sqrt(S) * 2^64) / 2^64``, the smallest multiple of
   ``2^-64`` that is at least ``sqrt(S)`` (computed with ``math.isqrt``); so ``||x'|| <= C``.
2. **Fixed-point encode**: ``y_i = trunc(x'_i * 2^f)``, rounded toward zero, so ``|y_i| <=
   |x'_i| 2^f`` and ``||y||^2 <= C^2 4^f``.
3. **Noise**: ``z = discrete_gaussian_vector(tape, v * 4^f, d)`` (Algorithm 3 of [CKS20], the
   exact sampler of :mod:`dpspec.spec.samplers`; ``d`` draws in coordinate order from the
   device's randomizer tape). The report is ``y + z``.
4. **Norm bound** (sec. 4.5: the output "has bounded Euclidean norm with high probability"):
   the circuit accepts ``||y + z||^2 <= normBound`` with ``normBound = ceil((C 2^f + R)^2)``,
   ``R = ceil(sqrt(s2 (d + 2 ceil(sqrt(d t)) + 2 t)))`` and ``s2 = v 4^f``. A discrete Gaussian
   of parameter ``s2`` is ``s2``-subgaussian ([CKS20]), so ``E exp(l z_i^2) <= (1 - 2 l s2)^(-1/2)``
   and the Laurent-Massart chi-square tail applies: ``Pr[||z||^2 > s2 (d + 2 sqrt(d t) + 2 t)]
   <= e^-t``. An honest report above the bound is not uploaded (:meth:`GaussianVector.apply`
   returns None), with probability at most ``e^-t`` (utility only, see below). Entries use
   ``bits = isqrt(normBound).bit_length() + 1`` signed bits.

**Privacy** (:func:`statement`). Every uploaded report ``u`` (honest or not: the circuit enforces
it) is an integer vector with ``||u||^2 <= normBound``. From one device's point of view the
release is its report (if it is sampled) plus the reports of at least ``B - 1`` others, each
carrying its own ``d`` discrete Gaussians of parameter ``s2``; the other devices' data, further
reports and any extra noise are post-processing. Counting ``B - 1`` rather than ``B`` reports is
the paper's remark after Example 4. The guarantee over ``T`` rounds at Poisson rate ``q`` is
:func:`dpspec.spec.accounting.distributed.subsampled_epsilon` (never re-derived here), which
proves it for exactly this noise: the sum of ``B - 1`` devices' discrete Gaussians is pointwise
within a computed factor of one discrete Gaussian of parameter ``(B - 1) s2``; for that one, the
moments accountant of Example 5 holds exactly at integer Renyi orders with noise multiplier ``z =
sqrt((B - 1) s2 / normBound)`` (handed to it as a decimal rounded *down*, 12 significant digits;
epsilon decreases with it), in both directions; and an honest device drops its over-bound report
with probability at most ``e^-t``, which costs ``(1 + e^eps) T (B - 1) e^-t`` of delta (refused
when that is more than half of delta: raise ``tailExponent``). As in the paper's aggregator
model, the ``B - 1`` other reports are honest (Theorem 4 of [SA2] gives ``B - k'`` with ``k'``
malicious). Whether a round releases at all depends on the number of reports, the leakage ``B'``
of Theorem 4 that the paper hides with dummy reports (sec. 4.6); like the paper's Example 5, the
statement does not cover it, and this path has no dummy reports.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, localcontext
from fractions import Fraction
from typing import Any, ClassVar

import mpmath

from dpspec.spec.accounting import distributed
from dpspec.spec.accounting.numeric import grid_step_down, round_down, round_up
from dpspec.spec.sa2.ideal import Sa2Error, exact
from dpspec.spec.sa2.privacy import PrivacyStatement, at_working_precision
from dpspec.spec.samplers import discrete_gaussian_vector
from dpspec.spec.tape import RandomTape

NAME = "gaussian_vector"
#: precision of the clipping norm: ``r`` is a multiple of ``2^-CLIP_NORM_BITS``
CLIP_NORM_BITS = 64
MAX_FRACTIONAL_BITS = 32
MAX_DIMENSION = 4096
DEFAULT_TAIL_EXPONENT = 50
MAX_TAIL_EXPONENT = 200
#: smallest per-device noise variance in fixed-point units the client accepts (below it the
#: sum-of-discrete-Gaussians factor of spec.accounting.distributed grows quickly)
MIN_FIXED_POINT_VARIANCE = Fraction(4)
#: significant digits of the noise multiplier handed to the accountant (rounded down)
MULTIPLIER_DIGITS = 12


def _ceil_sqrt(x: Fraction) -> int:
    """The smallest integer ``n >= sqrt(x)`` for a rational ``x >= 0``."""
    if x <= 0:
        return 0
    n = math.isqrt(x.numerator // x.denominator)
    while Fraction(n * n) < x:
        n += 1
    return n


def _ceil(x: Fraction) -> int:
    return -((-x.numerator) // x.denominator)


def _trunc(x: Fraction) -> int:
    """``x`` rounded toward zero."""
    return x.numerator // x.denominator if x >= 0 else -((-x.numerator) // x.denominator)


def _int(doc: dict[str, Any], key: str, low: int, high: int, default: int | None = None) -> int:
    value = doc.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise Sa2Error(f"randomizer.{key} must be an integer in [{low}, {high}]")
    return value


@dataclass(frozen=True)
class GaussianVector:
    """The ``gaussian_vector`` randomizer (module docstring) with its exact parameters."""

    dimension: int
    clip_norm: Fraction
    fractional_bits: int
    noise_variance: Fraction
    tail_exponent: int = DEFAULT_TAIL_EXPONENT
    name: ClassVar[str] = NAME

    def __post_init__(self) -> None:
        if isinstance(self.dimension, bool) or not 1 <= self.dimension <= MAX_DIMENSION:
            raise Sa2Error(f"dimension must be an integer in [1, {MAX_DIMENSION}]")
        if not 0 <= self.fractional_bits <= MAX_FRACTIONAL_BITS:
            raise Sa2Error(f"fractionalBits must be in [0, {MAX_FRACTIONAL_BITS}]")
        if self.clip_norm <= 0:
            raise Sa2Error("clipNorm must be > 0")
        if self.noise_variance <= 0:
            raise Sa2Error("noiseVariance must be > 0")
        if not 1 <= self.tail_exponent <= MAX_TAIL_EXPONENT:
            raise Sa2Error(f"tailExponent must be in [1, {MAX_TAIL_EXPONENT}]")

    # -- the recipe's JSON --------------------------------------------------------------------
    @staticmethod
    def from_json(doc: dict[str, Any]) -> GaussianVector:
        if doc.get("name") != NAME:
            raise Sa2Error(f"not a {NAME} randomizer")
        known = {"name", "dimension", "clipNorm", "fractionalBits", "noiseVariance",
                 "tailExponent"}
        extra = sorted(set(doc) - known)
        if extra:
            raise Sa2Error(f"unknown randomizer fields {extra}")
        return GaussianVector(
            _int(doc, "dimension", 1, MAX_DIMENSION),
            exact(doc.get("clipNorm", "missing"), "randomizer.clipNorm"),
            _int(doc, "fractionalBits", 0, MAX_FRACTIONAL_BITS),
            exact(doc.get("noiseVariance", "missing"), "randomizer.noiseVariance"),
            _int(doc, "tailExponent", 1, MAX_TAIL_EXPONENT, DEFAULT_TAIL_EXPONENT))

    def to_json(self) -> dict[str, Any]:
        return {"name": NAME, "dimension": self.dimension, "clipNorm": str(self.clip_norm),
                "fractionalBits": self.fractional_bits,
                "noiseVariance": str(self.noise_variance), "tailExponent": self.tail_exponent}

    @property
    def k(self) -> int:
        """The length of the aggregate (the protocol's name for it)."""
        return self.dimension

    # -- the steps ----------------------------------------------------------------------------------
    def check_input(self, x: Any) -> list[Fraction]:
        """The update as exact rationals (ints, Fractions or rational strings; no floats)."""
        if not isinstance(x, list | tuple) or len(x) != self.dimension:
            raise Sa2Error(f"{NAME} input must be a list of {self.dimension} rationals")
        return [exact(v, "update entry") for v in x]

    def clip(self, x: Sequence[Fraction]) -> list[Fraction]:
        """Step 1: scale onto the ball of radius C (exactly; ``r`` rounds sqrt(S) up)."""
        s = sum((v * v for v in x), Fraction(0))
        if s <= self.clip_norm**2:
            return list(x)
        scale = 1 << CLIP_NORM_BITS
        r = Fraction(_ceil_sqrt(s * scale * scale), scale)
        return [v * self.clip_norm / r for v in x]

    def encode(self, x: Sequence[Fraction]) -> list[int]:
        """Step 2: ``trunc(x_i 2^f)``."""
        return [_trunc(v * (1 << self.fractional_bits)) for v in x]

    def fixed_point_variance(self) -> Fraction:
        """``s2 = v 4^f``, the sampler's ``sigma2``."""
        return self.noise_variance * (1 << (2 * self.fractional_bits))

    def noise(self, tape: RandomTape) -> list[int]:
        """Step 3: ``d`` discrete Gaussians of parameter ``s2``, in coordinate order."""
        return discrete_gaussian_vector(tape, self.fixed_point_variance(), self.dimension)

    def norm_bound(self) -> int:
        """Step 4: ``ceil((C 2^f + R)^2)``."""
        d, t = self.dimension, self.tail_exponent
        R = _ceil_sqrt(self.fixed_point_variance() * (d + 2 * _ceil_sqrt(Fraction(d * t))
                                                      + 2 * t))
        return _ceil((self.clip_norm * (1 << self.fractional_bits) + R) ** 2)

    def bits(self) -> int:
        """Signed bits per entry: every entry of an accepted report has ``|u_i| <= isqrt(bound)``."""
        return math.isqrt(self.norm_bound()).bit_length() + 1

    def steps(self, x: Any, tape: RandomTape) -> dict[str, Any]:
        """All intermediate values of :meth:`apply` (for vectors): clipped, encoded, noise,
        report (None if over the norm bound) and its squared norm."""
        clipped = self.clip(self.check_input(x))
        encoded = self.encode(clipped)
        noise = self.noise(tape)
        report = [a + b for a, b in zip(encoded, noise, strict=True)]
        norm = sum(v * v for v in report)
        return {"clipped": clipped, "encoded": encoded, "noise": noise, "normSquared": norm,
                "report": report if norm <= self.norm_bound() else None}

    def apply(self, x: Any, tape: RandomTape) -> list[int] | None:
        """``R(x)``: the Prio3BoundedL2VecSum measurement, or None when the noised report is
        over the norm bound (not uploaded; probability at most ``e^-t``)."""
        out: list[int] | None = self.steps(x, tape)["report"]
        return out

    def zero_measurement(self) -> list[int]:
        """The measurement whose decoding is zero (dummy reports, sec. 4.6)."""
        return [0] * self.dimension

    def dec(self, measurement: Any) -> tuple[int, ...]:
        """``Dec`` is the identity on the fixed-point integer vector."""
        return tuple(int(v) for v in measurement)

    def decode_sum(self, total: Sequence[int]) -> list[Fraction]:
        """The collector's view of a released sum: each coordinate divided by ``2^f``."""
        return [Fraction(v, 1 << self.fractional_bits) for v in total]

    def vdaf_name(self) -> str:
        return "Prio3BoundedL2VecSum"

    def vdaf_params(self, chunk_length: int) -> dict[str, Any]:
        return {"type": self.vdaf_name(), "shares": 2, "length": self.dimension,
                "bits": self.bits(), "normBound": self.norm_bound(), "chunkLength": chunk_length}

    # -- privacy ------------------------------------------------------------------------------------
    def multiplier_squared(self, B: int) -> Fraction:
        """``z^2 = (B - 1) s2 / normBound`` (module docstring)."""
        return (B - 1) * self.fixed_point_variance() / self.norm_bound()


def noise_multiplier(randomizer: GaussianVector, B: int) -> str:
    """``z``, rounded down to :data:`MULTIPLIER_DIGITS` significant digits, as a decimal string:
    the largest such decimal whose square is at most ``z^2`` (compared exactly).

    The 40-digit square root only gives the start: when ``z`` lies within about 1e-40 of a
    12-digit decimal the root can round onto either side of it, so the decimal is stepped down
    while its square exceeds ``z^2`` (a larger ``z`` would understate the epsilon computed from
    it) and up while the next decimal's square does not (so that an exact 12-digit ``z`` is
    published as itself, whatever the working precision)."""
    z2 = randomizer.multiplier_squared(B)
    with mpmath.workdps(40):
        text = round_down(mpmath.sqrt(mpmath.mpf(z2.numerator) / z2.denominator),
                          MULTIPLIER_DIGITS)
    while Fraction(text) ** 2 > z2:
        text = format(grid_step_down(Decimal(text), MULTIPLIER_DIGITS), "f")
    while True:
        g = Decimal(text)
        with localcontext() as ctx:  # exact whatever the caller's decimal context
            ctx.prec = 400
            up = format(g + Decimal(1).scaleb(g.adjusted() - MULTIPLIER_DIGITS + 1), "f")
        if Fraction(up) ** 2 > z2:
            return text
        text = up


def drop_probability(randomizer: GaussianVector) -> Fraction:
    """A rational upper bound on ``e^-t``, the chance that an honest report is over the norm
    bound (step 4)."""
    with mpmath.workdps(40):
        return Fraction(round_up(mpmath.exp(-randomizer.tail_exponent), 12))


@at_working_precision
def statement(randomizer: GaussianVector, B: int, q: Fraction, rounds: int, delta: Fraction,
              model: str = "sa2") -> PrivacyStatement:
    """The guarantee of ``rounds`` rounds (module docstring): in the SA2 model, the subsampled
    distributed discrete Gaussian at rate ``q``; in the aggregator model (no secret sample), the
    same with ``q = 1``. Sa2Error when the recipe cannot be given a guarantee at ``delta``."""
    if B < 2:
        return PrivacyStatement(model, mpmath.inf, mpmath.mpf(1),
                                "B = 1: no other report's noise", "gaussian-rounds")
    if randomizer.fixed_point_variance() < MIN_FIXED_POINT_VARIANCE:
        raise Sa2Error(f"noiseVariance * 4^fractionalBits must be >= {MIN_FIXED_POINT_VARIANCE}")
    z = noise_multiplier(randomizer, B)
    rate = q if model == "sa2" else Fraction(1)
    try:
        bound = distributed.subsampled_epsilon(
            str(rate), z, rounds, str(delta), sigma2=randomizer.fixed_point_variance(),
            others=B - 1, dimension=randomizer.dimension,
            drop_probability=drop_probability(randomizer))
    except ValueError as exc:
        raise Sa2Error(str(exc)) from None
    how = (f"discrete Gaussian noise of {B - 1} other reports, sensitivity sqrt(normBound) = "
           f"sqrt({randomizer.norm_bound()}), noise multiplier {z} (rounded down); "
           f"{rounds} round(s) of the subsampled distributed discrete Gaussian at q = {rate} "
           f"(moments accountant, integer orders; sum-of-discrete-Gaussians slack "
           f"{mpmath.nstr(2 * bound.slack, 3)} in epsilon, dropped reports "
           f"{mpmath.nstr(bound.drop, 3)} of delta)")
    # the guarantee holds at the user's exact delta (the accountant took it as a rational); its
    # binary value is rounded down so that publish(), which rounds up, prints that delta and not
    # the next 6-digit decimal above it (1e-8 came out as 1.00001e-8)
    delta_down = mpmath.mpf(mpmath.libmp.from_rational(delta.numerator, delta.denominator,
                                                       mpmath.mp.prec, "d"))
    return PrivacyStatement(model, bound.epsilon, delta_down, how, "gaussian-rounds")
