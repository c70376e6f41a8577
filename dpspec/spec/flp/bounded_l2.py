"""A validity circuit for vectors of bounded L2 norm: an EXTENSION, NOT PART OF VDAF draft-20.

Federated learning over SA2 (Examples 3 and 5, sec. 4.5 of [SA2]) sums clipped model updates; a
malicious client must not be able to send an update of larger norm than the recipe allows, or it
could move the sum arbitrarily. This circuit, in the spirit of the fixed-point bounded-L2 vector
sum of libprio-rs (its own design and encoding here; not compatible with it), proves in zero
knowledge that a vector of ``length`` signed integers (a fixed-point encoding, done by the client)
has squared L2 norm at most ``norm_bound``.

Measurement: ``v`` in ``[-2**(bits-1), 2**(bits-1))**length`` with ``sum v_i**2 <= norm_bound``.

Encoding (``MEAS_LEN = length * bits + norm_bound.bit_length()``): for each entry, the ``bits``
bits (least significant first) of ``u_i = v_i + 2**(bits-1)``; then the squared norm in the
range-checked encoding of sec. 7.4.2 of the draft (:func:`~dpspec.spec.flp.valid.encode_range_checked_int`),
which can only represent values in ``[0, norm_bound]``.

Circuit (two outputs, two gadgets, both ``ParallelSum(Mul(), chunk_length)``):

1. every element of the encoding is a bit: the draft's :func:`parallel_range_check` over the whole
   encoding, one joint-randomness element per call (gadget 0);
2. the reported norm is the norm: with ``v_i = sum_j 2**j b_ij - 2**(bits-1) / num_shares``
   (affine in the shares), call ``c`` of gadget 1 gets the pairs ``(v_i, v_i)`` for the entries
   ``i`` of chunk ``c`` (0 past the end) and returns ``sum v_i**2``; the output is the sum over
   the calls minus the decoded reported norm.

Soundness needs ``sum v_i**2`` not to wrap around the field: ``length * 4**(bits-1) < p`` (checked).
Output (``OUTPUT_LEN = length``): the offset entries ``u_i``; the aggregate result subtracts
``num_measurements * 2**(bits-1)`` from each coordinate and returns signed integers.
"""

from __future__ import annotations

from collections.abc import Sequence

from dpspec.spec.field import F
from dpspec.spec.flp.gadgets import Mul, ParallelSum
from dpspec.spec.flp.valid import (
    Valid,
    _check_int,
    decode_range_checked_int,
    encode_range_checked_int,
    parallel_range_check,
)


class BoundedL2VecSum(Valid[list[int], list[int], F]):
    """``length`` signed ``bits``-bit integers with squared L2 norm at most ``norm_bound``."""

    EVAL_OUTPUT_LEN = 2

    def __init__(self, field: type[F], length: int, bits: int, norm_bound: int,
                 chunk_length: int) -> None:
        _check_int("length", length, 1, 1 << 20)
        _check_int("bits", bits, 2, 62)
        _check_int("norm_bound", norm_bound, 1, length * 4 ** (bits - 1))
        _check_int("chunk_length", chunk_length, 1, 1 << 20)
        if length * 4 ** (bits - 1) >= field.MODULUS:
            raise ValueError("length * 4**(bits - 1) must be below the field modulus")
        self.field = field
        self.length = length
        self.bits = bits
        self.norm_bound = norm_bound
        self.chunk_length = chunk_length
        self.norm_bits = norm_bound.bit_length()
        self.MEAS_LEN = length * bits + self.norm_bits
        self.GADGETS = [ParallelSum(Mul(), chunk_length), ParallelSum(Mul(), chunk_length)]
        self.GADGET_CALLS = [(self.MEAS_LEN + chunk_length - 1) // chunk_length,
                             (length + chunk_length - 1) // chunk_length]
        self.JOINT_RAND_LEN = self.GADGET_CALLS[0]
        self.OUTPUT_LEN = length

    def encode(self, measurement: list[int]) -> list[F]:
        if not isinstance(measurement, list | tuple) or len(measurement) != self.length:
            raise ValueError(f"BoundedL2VecSum measurement must be a list of {self.length} "
                             "integers")
        half = 1 << (self.bits - 1)
        for x in measurement:
            _check_int("entry", x, -half, half - 1)
        norm = sum(x * x for x in measurement)
        if norm > self.norm_bound:
            raise ValueError(f"squared L2 norm {norm} exceeds norm_bound {self.norm_bound}")
        bit = (self.field(0), self.field(1))
        out: list[F] = []
        for x in measurement:
            u = x + half
            out += [bit[(u >> j) & 1] for j in range(self.bits)]
        return out + encode_range_checked_int(self.field, norm, self.norm_bound)

    def _entries(self, meas: Sequence[F], num_shares: int) -> list[int]:
        """Shares of ``v_i`` (ints mod p): ``sum_j 2**j b_ij - 2**(bits-1) / num_shares``."""
        p = self.field.MODULUS
        offset = (1 << (self.bits - 1)) * self.field(num_shares).inv().val % p
        out = []
        for i in range(self.length):
            chunk = meas[i * self.bits : (i + 1) * self.bits]
            u = sum(b.val << j for j, b in enumerate(chunk))
            out.append((u - offset) % p)
        return out

    def eval(self, meas: Sequence[F], joint_rand: Sequence[F], num_shares: int) -> list[F]:
        self.check_eval_args(meas, joint_rand)
        range_check = parallel_range_check(self, self.GADGETS[0], self.GADGET_CALLS[0],
                                           self.chunk_length, meas, joint_rand, num_shares)
        entries = self._entries(meas, num_shares)
        norm = self.field(0)
        for c in range(self.GADGET_CALLS[1]):
            chunk = entries[c * self.chunk_length : (c + 1) * self.chunk_length]
            chunk += [0] * (self.chunk_length - len(chunk))
            inputs = [x for v in chunk for x in (v, v)]
            norm += self.GADGETS[1].eval(self.field, self.field.from_reduced(inputs))
        reported = decode_range_checked_int(self.field, meas[self.length * self.bits :],
                                            self.norm_bound)
        return [range_check, norm - reported]

    def truncate(self, meas: Sequence[F]) -> list[F]:
        p = self.field.MODULUS
        return [self.field(sum(b.val << j for j, b in
                               enumerate(meas[i * self.bits : (i + 1) * self.bits])) % p)
                for i in range(self.length)]

    def decode(self, output: Sequence[F], num_measurements: int) -> list[int]:
        p = self.field.MODULUS
        shift = num_measurements * (1 << (self.bits - 1))
        out = []
        for x in output:
            v = (x.int() - shift) % p
            out.append(v - p if v > p // 2 else v)
        return out
