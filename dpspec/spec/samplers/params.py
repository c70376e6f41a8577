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
