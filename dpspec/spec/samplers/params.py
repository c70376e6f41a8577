"""Parameter checking shared by the samplers: exact rationals in stated ranges."""

from __future__ import annotations

from fractions import Fraction

from dpspec.spec.rational import RationalError, format_rational, parse_int, parse_rational


class SamplerParameterError(RationalError):
    """A sampler parameter outside its allowed range (a ValueError)."""

    flag = "OutOfRange"


class CostTooLargeError(SamplerParameterError):
    """Parameters whose sampling cost is beyond the sampler's stated limit."""

    flag = "CostTooLarge"


#: The halving geometric (``geometric``, ``geometric_exp`` and every sampler built on them) draws
#: about log2(scale) binary digits, and a digit near 1/2 is evaluated to about as many bits, so
#: its cost grows like log2(scale)^2 big-integer work (geometric(10^-1000): a second; 10^-10000:
#: minutes; the grammar allows exponents up to 10^4 and 1000-digit numbers). Scales are capped at
#: 2^MAX_SCALE_BITS: a success probability or rate (p, 1 - p, gamma, eps) below 2^-256, a
#: Laplace scale t above 2^256, a Gaussian variance above 2^512 is refused (CostTooLarge).
MAX_SCALE_BITS = 256
#: 2^-MAX_SCALE_BITS, the smallest allowed nonzero probability or rate.
MIN_RATE = Fraction(1, 1 << MAX_SCALE_BITS)
#: 2^MAX_SCALE_BITS, the largest allowed discrete Laplace scale.
MAX_LAPLACE_SCALE = 1 << MAX_SCALE_BITS
#: 2^(2 MAX_SCALE_BITS), the largest allowed discrete Gaussian variance (sigma <= 2^256).
MAX_GAUSSIAN_VARIANCE = 1 << (2 * MAX_SCALE_BITS)


def min_rate(sampler: str, name: str, value: Fraction, what: str = "") -> None:
    """The cost check of a rate: refuse 0 < value < 2^-256 (CostTooLarge)."""
    if 0 < value < MIN_RATE:
        label = what or name
        raise CostTooLargeError(f"{sampler}: {label} = {_shown(value)} is below"
                                f" 2^-{MAX_SCALE_BITS} (cost)")


def max_scale(sampler: str, name: str, value: Fraction, limit: int, shown: str) -> None:
    """The cost check of a scale: refuse value > limit (CostTooLarge)."""
    if value > limit:
        raise CostTooLargeError(f"{sampler}: {name} must be <= {shown}, got {_shown(value)} (cost)")


def _shown(value: Fraction) -> str:
    """The value for an error message, or its size when its text is long."""
    if value.numerator.bit_length() + value.denominator.bit_length() <= 160:
        return format_rational(value)
    return f"about 2^{value.numerator.bit_length() - value.denominator.bit_length()}"


def rational_in(value: object, name: str, *, low: Fraction | int | None = None,
                low_open: bool = False, high: Fraction | int | None = None,
                high_open: bool = False) -> Fraction:
    """Parse ``value`` and check ``low (<|<=) value (<|<=) high``."""
    q = parse_rational(value, name)
    if low is not None and (q < low or (low_open and q == low)):
        op = ">" if low_open else ">="
        raise SamplerParameterError(f"{name} must be {op} {format_rational(low)}, "
                                    f"got {format_rational(q)}")
    if high is not None and (q > high or (high_open and q == high)):
        op = "<" if high_open else "<="
        raise SamplerParameterError(f"{name} must be {op} {format_rational(high)}, "
                                    f"got {format_rational(q)}")
    return q


def probability(value: object, name: str = "p") -> Fraction:
    """A probability in [0, 1]."""
    return rational_in(value, name, low=0, high=1)


def count(value: object, name: str = "n", maximum: int | None = None) -> int:
    """A non-negative integer (int, or an integral rational string)."""
    n = parse_int(value, name)
    if n < 0:
        raise SamplerParameterError(f"{name} must be >= 0, got {n}")
    if maximum is not None and n > maximum:
        raise SamplerParameterError(f"{name} must be <= {maximum}, got {n}")
    return n
