"""The DpMechanism interface of sec. 4 of the DP draft, with randomness as an argument.

The draft's interface (sec. 4)::

    DpMechanism.add_noise(data: DataType) -> DataType
    DpMechanism.sample_noise(dimension: int) -> DataType
    DpMechanism.debias(data: DataType, meas_count: int) -> DebiasedDataType

draws its coins from a process-global generator ("TODO ... take a random seed instead so that we
can derive test vectors"). dpspec resolves that TODO: ``add_noise`` and ``sample_noise`` take a
:class:`dpspec.spec.tape.RandomTape` (a seed expanded under a tag, see ``dpspec/spec/tape.py``) as their last
argument, and each concrete mechanism documents the exact order in which it consumes the tape.
``debias`` is deterministic. :meth:`DpMechanism.tape` builds the tape from a seed with the
mechanism's documented tag, for callers that hold a seed rather than a tape.

Every concrete mechanism states, in its docstring:

* ``DataType`` -- what ``add_noise`` takes and returns (the same type for noised and un-noised
  data, as the draft requires), and what ``debias`` takes (the sum of ``meas_count`` noised values);
* ``DebiasedDataType`` -- what ``debias`` returns;
* the privacy guarantee and the trust model it is meant for (sec. 3.3 of the draft);
* the tape consumption order.
"""

from __future__ import annotations

import abc
from typing import Any, ClassVar, Generic, TypeVar

from dpspec.spec.tape import RandomTape

D = TypeVar("D")
DD = TypeVar("DD")


class DpMechanism(abc.ABC, Generic[D, DD]):
    """A DP mechanism (sec. 4 of the DP draft); see the module docstring for the conventions."""

    #: The tape tag a mechanism uses when it is given a seed (:meth:`tape`).
    TAG: ClassVar[str] = "dpspec/mechanism"
    #: Human-readable descriptions of the two types (the draft's ``DataType``/``DebiasedDataType``).
    DataType: ClassVar[str] = ""
    DebiasedDataType: ClassVar[str] = ""

    @abc.abstractmethod
    def add_noise(self, data: D, tape: RandomTape) -> D:
        """Add noise to ``data`` (a measurement or an aggregate share), coins from ``tape``."""

    @abc.abstractmethod
    def sample_noise(self, dimension: int, tape: RandomTape) -> D:
        """Noise alone, of length ``dimension`` where ``DataType`` is a list."""

    def debias(self, data: D, meas_count: int) -> DD:
        """Remove the bias the noise adds to a sum of ``meas_count`` noised values.

        The default returns ``data`` unchanged (mechanisms with mean-zero noise).
        """
        return data  # type: ignore[return-value]

    @abc.abstractmethod
    def params(self) -> dict[str, Any]:
        """The parameters, as they appear in vectors (exact rationals as strings)."""

    @abc.abstractmethod
    def guarantee(self) -> str:
        """The privacy guarantee of one application of the mechanism, in words."""

    def tape(self, seed: bytes) -> RandomTape:
        """The random tape of ``seed`` under this mechanism's tag :attr:`TAG`."""
        return RandomTape(seed, self.TAG)


def check_dimension(dimension: int) -> int:
    if isinstance(dimension, bool) or not isinstance(dimension, int) or dimension < 0:
        raise ValueError(f"dimension must be a non-negative integer, got {dimension!r}")
    return dimension


def check_bits(data: list[int], name: str = "data") -> list[int]:
    """A bit vector (list of 0/1 ints; bools are accepted and converted), returned as a new list.

    Validation runs at C speed (``bytes``), so that checking a long vector does not dominate the
    efficient form of symmetric RAPPOR, whose own cost is proportional to the number of flips.
    """
    if not isinstance(data, list | tuple):
        raise TypeError(f"{name} must be a list of bits")
    try:
        raw = bytes(data)
    except (TypeError, ValueError):
        raw = b"\x02"
    if raw.translate(None, b"\x00\x01"):
        bad = next(x for x in data
                   if isinstance(x, bool) is False and (not isinstance(x, int) or x not in (0, 1)))
        raise ValueError(f"{name} must contain only bits 0/1, found {bad!r}")
    return list(raw)


def check_ints(data: list[int], name: str = "data") -> list[int]:
    if not isinstance(data, list | tuple):
        raise TypeError(f"{name} must be a list of integers")
    for x in data:
        if isinstance(x, bool) or not isinstance(x, int):
            raise ValueError(f"{name} must contain only integers, found {x!r}")
    return list(data)


def check_count(meas_count: int) -> int:
    if isinstance(meas_count, bool) or not isinstance(meas_count, int) or meas_count < 0:
        raise ValueError(f"meas_count must be a non-negative integer, got {meas_count!r}")
    return meas_count
