"""Validity circuits: sec. 7.3.2 (the ``Valid`` interface) and sec. 7.4 (the circuits of Prio3Count,
Prio3Sum, Prio3SumVec, Prio3Histogram and Prio3MultihotCountVec) of the VDAF draft
(draft-irtf-cfrg-vdaf-20), plus ``HigherDegree``, the draft's test-only circuit with a degree-3
gadget (used by its Prio3HigherDegree test vectors).

A circuit maps an encoded measurement (and joint randomness) to ``EVAL_OUTPUT_LEN`` field elements,
all zero iff the measurement is valid. Its only non-affine operations are calls to its gadgets,
made in a fixed order; additions of constants are scaled by ``1 / num_shares`` so that evaluating
the circuit on each additive share gives additive shares of the output.

``encode`` raises ValueError for a measurement outside the circuit's domain: this is the only
place a malformed measurement is caught, before any share is made.
"""

from __future__ import annotations

import abc
from collections.abc import Sequence
from typing import Any, Generic, TypeVar

from dpspec.spec.field import F, Field64
from dpspec.spec.flp.gadgets import Gadget, Mul, ParallelSum, PolyEval, gadget_poly_len, wire_poly_len

Measurement = TypeVar("Measurement")
AggResult = TypeVar("AggResult")


def _check_int(name: str, value: object, low: int, high: int) -> int:
    """``value`` as an int in ``[low, high]``; ValueError (never a silent coercion) otherwise."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be an integer, got {type(value).__name__}")
    if not low <= value <= high:
        raise ValueError(f"{name} = {value} is outside [{low}, {high}]")
    return value


class Valid(abc.ABC, Generic[Measurement, AggResult, F]):
    """The validity-circuit interface of sec. 7.3.2."""

    field: type[F]
    GADGETS: list[Gadget]
    GADGET_CALLS: list[int]
    MEAS_LEN: int
    JOINT_RAND_LEN: int
    EVAL_OUTPUT_LEN: int
    OUTPUT_LEN: int

    @abc.abstractmethod
    def eval(self, meas: Sequence[F], joint_rand: Sequence[F], num_shares: int) -> list[F]:
        """The circuit on a measurement (or a share of one) and the joint randomness."""

    @abc.abstractmethod
    def encode(self, measurement: Measurement) -> list[F]:
        """The encoded measurement (``MEAS_LEN`` elements); ValueError if out of range."""

    @abc.abstractmethod
    def truncate(self, meas: Sequence[F]) -> list[F]:
        """The aggregatable output (``OUTPUT_LEN`` elements) of an encoded measurement or share."""

    @abc.abstractmethod
    def decode(self, output: Sequence[F], num_measurements: int) -> AggResult:
        """The aggregate result from the sum of the aggregate shares."""

    # -- parameters of the FLP (sec. 7.3.2) ------------------------------------------------
    def prove_rand_len(self) -> int:
        """One wire seed per input wire of each gadget."""
        return sum(g.ARITY for g in self.GADGETS)

    def query_rand_len(self) -> int:
        """One test point per gadget, plus the coefficients reducing a multi-element output."""
        n = len(self.GADGETS)
        if self.EVAL_OUTPUT_LEN > 1:
            n += self.EVAL_OUTPUT_LEN
        return n

    def proof_len(self) -> int:
        """Per gadget: its wire seeds and the values of its gadget polynomial."""
        return sum(g.ARITY + gadget_poly_len(g.DEGREE, wire_poly_len(calls))
                   for g, calls in zip(self.GADGETS, self.GADGET_CALLS, strict=True))

    def verifier_len(self) -> int:
        """The reduced output, then per gadget its wire evaluations and gadget evaluation."""
        return 1 + sum(g.ARITY + 1 for g in self.GADGETS)

    def check_eval_args(self, meas: Sequence[F], joint_rand: Sequence[F]) -> None:
        if len(meas) != self.MEAS_LEN:
            raise ValueError(f"measurement has {len(meas)} elements, expected {self.MEAS_LEN}")
        if len(joint_rand) != self.JOINT_RAND_LEN:
            raise ValueError(
                f"joint randomness has {len(joint_rand)} elements, expected {self.JOINT_RAND_LEN}")

    def __repr__(self) -> str:
        params: dict[str, Any] = {k: v for k, v in vars(self).items()
                                  if k not in ("GADGETS", "GADGET_CALLS") and not k.isupper()}
        return f"{type(self).__name__}({params})"


# -- the range-checked integer encoding of sec. 7.4.2 ------------------------------------------
def encode_range_checked_int(field: type[F], value: int, max_measurement: int) -> list[F]:
    """Encode ``value`` in ``[0, max_measurement]`` as ``bits = max_measurement.bit_length()``
    elements in {0, 1} with weights ``1, 2, ..., 2**(bits-2)`` and ``last_weight =
    max_measurement - (2**(bits-1) - 1)`` (sec. 7.4.2): every weighted sum of such bits is in
    range, and every value in range has a representation.
    """
    _check_int("measurement", value, 0, max_measurement)
    bits = max_measurement.bit_length()
    rest_all_ones = 2 ** (bits - 1) - 1
    last_weight = max_measurement - rest_all_ones
    if value <= rest_all_ones:
        rest, last = value, 0
    else:
        rest, last = value - last_weight, 1
    bit = (field(0), field(1))  # elements are immutable, so they can be shared
    return [bit[(rest >> i) & 1] for i in range(bits - 1)] + [bit[last]]


def decode_range_checked_int(field: type[F], encoded: Sequence[F], max_measurement: int) -> F:
    """The weighted sum of ``encode_range_checked_int``: ``sum_{i < bits-1} 2**i * encoded[i] +
    last_weight * encoded[bits-1]`` (computed on the ints behind the elements, reduced once).
    Linear, so it also maps shares to shares."""
    bits = max_measurement.bit_length()
    last_weight = max_measurement - (2 ** (bits - 1) - 1)
    total = sum(b.val << i for i, b in enumerate(encoded[: bits - 1]))
    total += last_weight * encoded[bits - 1].val
    return field(total % field.MODULUS)


def parallel_range_check(valid: Valid[Any, Any, F], gadget: Gadget, calls: int, chunk_length: int,
                         meas: Sequence[F], joint_rand: Sequence[F], num_shares: int) -> F:
    """The bit check shared by SumVec, Histogram and MultihotCountVec (sec. 7.4.3-7.4.5).

    Call ``i`` of ``ParallelSum(Mul(), chunk_length)`` gets, for ``j < chunk_length``, the pair
    ``(r**(j+1) * x, x - 1/num_shares)`` with ``r = joint_rand[i]`` and
    ``x = meas[i*chunk_length + j]`` (0 past the end), so it returns
    ``sum_j r**(j+1) * x * (x - 1)``; the outputs of all calls are added up.
    """
    field = valid.field
    p = field.MODULUS
    shares_inv = field(num_shares).inv().val
    out = field(0)
    for i in range(calls):
        # The same arithmetic on the ints behind the elements (each result reduced mod p).
        r = joint_rand[i].val
        chunk = [x.val for x in meas[i * chunk_length : (i + 1) * chunk_length]]
        chunk += [0] * (chunk_length - len(chunk))
        inputs: list[int] = []
        r_power = r
        for x in chunk:
            inputs.append(r_power * x % p)
            inputs.append((x - shares_inv) % p)
            r_power = r_power * r % p
        out += gadget.eval(field, field.from_reduced(inputs))
    return out


# -- the circuits ------------------------------------------------------------------------------
class Count(Valid[int, int, F]):
    """Sec. 7.4.1: the measurement is 0 or 1; circuit ``x * x - x`` with one ``Mul`` call."""

    MEAS_LEN = 1
    JOINT_RAND_LEN = 0
    EVAL_OUTPUT_LEN = 1
    OUTPUT_LEN = 1

    def __init__(self, field: type[F]) -> None:
        self.field = field
        self.GADGETS = [Mul()]
        self.GADGET_CALLS = [1]

    def encode(self, measurement: int) -> list[F]:
        if isinstance(measurement, bool):
            measurement = int(measurement)
        return [self.field(_check_int("Count measurement", measurement, 0, 1))]

    def eval(self, meas: Sequence[F], joint_rand: Sequence[F], num_shares: int) -> list[F]:
        self.check_eval_args(meas, joint_rand)
        squared = self.GADGETS[0].eval(self.field, [meas[0], meas[0]])
        return [squared - meas[0]]

    def truncate(self, meas: Sequence[F]) -> list[F]:
        return list(meas)

    def decode(self, output: Sequence[F], num_measurements: int) -> int:
        return output[0].int()


class Sum(Valid[int, int, F]):
    """Sec. 7.4.2: an integer in ``[0, max_measurement]``, range-checked bit by bit with
    ``PolyEval(x**2 - x)``; one output per bit."""

    JOINT_RAND_LEN = 0
    OUTPUT_LEN = 1

    def __init__(self, field: type[F], max_measurement: int) -> None:
        _check_int("max_measurement", max_measurement, 1, field.MODULUS - 1)
        self.field = field
        self.max_measurement = max_measurement
        self.bits = max_measurement.bit_length()
        self.GADGETS = [PolyEval([0, -1, 1], self.bits)]
        self.GADGET_CALLS = [self.bits]
        self.MEAS_LEN = self.bits
        self.EVAL_OUTPUT_LEN = self.bits

    def encode(self, measurement: int) -> list[F]:
        return encode_range_checked_int(self.field, measurement, self.max_measurement)

    def eval(self, meas: Sequence[F], joint_rand: Sequence[F], num_shares: int) -> list[F]:
        self.check_eval_args(meas, joint_rand)
        return [self.GADGETS[0].eval(self.field, [b]) for b in meas]

    def truncate(self, meas: Sequence[F]) -> list[F]:
        return [decode_range_checked_int(self.field, meas, self.max_measurement)]

    def decode(self, output: Sequence[F], num_measurements: int) -> int:
        return output[0].int()


class SumVec(Valid[list[int], list[int], F]):
    """Sec. 7.4.3: ``length`` integers, each in ``[0, max_measurement]``, each encoded as in Sum;
    all bits checked by ``ParallelSum(Mul(), chunk_length)`` with joint randomness."""

    EVAL_OUTPUT_LEN = 1

    def __init__(self, field: type[F], length: int, max_measurement: int, chunk_length: int) -> None:
        _check_int("length", length, 1, field.MODULUS - 1)
        _check_int("max_measurement", max_measurement, 1, field.MODULUS - 1)
        _check_int("chunk_length", chunk_length, 1, field.MODULUS - 1)
        self.field = field
        self.length = length
        self.max_measurement = max_measurement
        self.chunk_length = chunk_length
        self.bits = max_measurement.bit_length()
        self.GADGETS = [ParallelSum(Mul(), chunk_length)]
        self.GADGET_CALLS = [(length * self.bits + chunk_length - 1) // chunk_length]
        self.MEAS_LEN = length * self.bits
        self.OUTPUT_LEN = length
        self.JOINT_RAND_LEN = self.GADGET_CALLS[0]

    def encode(self, measurement: list[int]) -> list[F]:
        if not isinstance(measurement, list | tuple) or len(measurement) != self.length:
            raise ValueError(f"SumVec measurement must be a list of {self.length} integers")
        out: list[F] = []
        for value in measurement:
            out += encode_range_checked_int(self.field, value, self.max_measurement)
        return out

    def eval(self, meas: Sequence[F], joint_rand: Sequence[F], num_shares: int) -> list[F]:
        self.check_eval_args(meas, joint_rand)
        return [parallel_range_check(self, self.GADGETS[0], self.GADGET_CALLS[0], self.chunk_length,
                                     meas, joint_rand, num_shares)]

    def truncate(self, meas: Sequence[F]) -> list[F]:
        b = self.bits
        return [decode_range_checked_int(self.field, meas[i * b : (i + 1) * b], self.max_measurement)
                for i in range(self.length)]

    def decode(self, output: Sequence[F], num_measurements: int) -> list[int]:
        return [x.int() for x in output]


class Histogram(Valid[int, list[int], F]):
    """Sec. 7.4.4: a bucket index in ``[0, length)``, encoded one-hot; checks that every entry is
    a bit (``ParallelSum(Mul(), chunk_length)``) and that the entries sum to 1."""

    EVAL_OUTPUT_LEN = 2

    def __init__(self, field: type[F], length: int, chunk_length: int) -> None:
        _check_int("length", length, 1, field.MODULUS - 1)
        _check_int("chunk_length", chunk_length, 1, field.MODULUS - 1)
        self.field = field
        self.length = length
        self.chunk_length = chunk_length
        self.GADGETS = [ParallelSum(Mul(), chunk_length)]
        self.GADGET_CALLS = [(length + chunk_length - 1) // chunk_length]
        self.MEAS_LEN = length
        self.OUTPUT_LEN = length
        self.JOINT_RAND_LEN = self.GADGET_CALLS[0]

    def encode(self, measurement: int) -> list[F]:
        index = _check_int("Histogram measurement", measurement, 0, self.length - 1)
        out = [self.field(0)] * self.length
        out[index] = self.field(1)
        return out

    def eval(self, meas: Sequence[F], joint_rand: Sequence[F], num_shares: int) -> list[F]:
        self.check_eval_args(meas, joint_rand)
        range_check = parallel_range_check(self, self.GADGETS[0], self.GADGET_CALLS[0],
                                           self.chunk_length, meas, joint_rand, num_shares)
        sum_check = -self.field(num_shares).inv()
        for b in meas:
            sum_check += b
        return [range_check, sum_check]

    def truncate(self, meas: Sequence[F]) -> list[F]:
        return list(meas)

    def decode(self, output: Sequence[F], num_measurements: int) -> list[int]:
        return [x.int() for x in output]


class MultihotCountVec(Valid[list[bool], list[int], F]):
    """Sec. 7.4.5: ``length`` booleans with at most ``max_weight`` of them true. The encoding is
    the 0/1 vector followed by the range-checked encoding of its weight; the circuit checks that
    every element is a bit and that the reported weight equals the vector's weight."""

    EVAL_OUTPUT_LEN = 2

    def __init__(self, field: type[F], length: int, max_weight: int, chunk_length: int) -> None:
        _check_int("length", length, 1, field.MODULUS - 1)
        _check_int("max_weight", max_weight, 1, length)
        _check_int("chunk_length", chunk_length, 1, field.MODULUS - 1)
        self.field = field
        self.length = length
        self.max_weight = max_weight
        self.chunk_length = chunk_length
        self.bits_for_weight = max_weight.bit_length()
        self.GADGETS = [ParallelSum(Mul(), chunk_length)]
        self.GADGET_CALLS = [(length + self.bits_for_weight + chunk_length - 1) // chunk_length]
        self.MEAS_LEN = length + self.bits_for_weight
        self.OUTPUT_LEN = length
        self.JOINT_RAND_LEN = self.GADGET_CALLS[0]

    def encode(self, measurement: list[bool]) -> list[F]:
        if not isinstance(measurement, list | tuple) or len(measurement) != self.length:
            raise ValueError(f"MultihotCountVec measurement must be a list of {self.length} booleans")
        if not all(isinstance(x, bool) or (isinstance(x, int) and x in (0, 1)) for x in measurement):
            raise ValueError("MultihotCountVec measurement entries must be booleans (or 0 / 1)")
        weight = sum(measurement)
        if weight > self.max_weight:
            raise ValueError(f"MultihotCountVec measurement has weight {weight} > max_weight "
                             f"{self.max_weight}")
        return ([self.field(int(x)) for x in measurement]
                + encode_range_checked_int(self.field, weight, self.max_weight))

    def eval(self, meas: Sequence[F], joint_rand: Sequence[F], num_shares: int) -> list[F]:
        self.check_eval_args(meas, joint_rand)
        range_check = parallel_range_check(self, self.GADGETS[0], self.GADGET_CALLS[0],
                                           self.chunk_length, meas, joint_rand, num_shares)
        weight = self.field(0)
        for x in meas[: self.length]:
            weight += x
        reported = decode_range_checked_int(self.field, meas[self.length :], self.max_weight)
        return [range_check, weight - reported]

    def truncate(self, meas: Sequence[F]) -> list[F]:
        return list(meas[: self.length])

    def decode(self, output: Sequence[F], num_measurements: int) -> list[int]:
        return [x.int() for x in output]


class HigherDegree(Valid[int, int, Field64]):
    """The draft's test-only circuit with a gadget of degree 3 (behind its Prio3HigherDegree
    vectors): the measurement is in {0, 1, 2}, checked by ``PolyEval(x * (x-1) * (x-2))``
    called once, over Field64."""

    MEAS_LEN = 1
    JOINT_RAND_LEN = 0
    EVAL_OUTPUT_LEN = 1
    OUTPUT_LEN = 1

    def __init__(self) -> None:
        self.field = Field64
        self.GADGETS = [PolyEval([0, 2, -3, 1], 1)]
        self.GADGET_CALLS = [1]

    def encode(self, measurement: int) -> list[Field64]:
        return [self.field(_check_int("HigherDegree measurement", measurement, 0, 2))]

    def eval(self, meas: Sequence[Field64], joint_rand: Sequence[Field64],
             num_shares: int) -> list[Field64]:
        self.check_eval_args(meas, joint_rand)
        return [self.GADGETS[0].eval(self.field, [meas[0]])]

    def truncate(self, meas: Sequence[Field64]) -> list[Field64]:
        return list(meas)

    def decode(self, output: Sequence[Field64], num_measurements: int) -> int:
        return output[0].int()
