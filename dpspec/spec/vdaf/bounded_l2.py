"""Prio3BoundedL2VecSum: Prio3 over :class:`dpspec.spec.flp.bounded_l2.BoundedL2VecSum`.

AN EXTENSION, NOT PART OF VDAF draft-20: the codepoint ``0xFFFF0100`` is in the draft's range
reserved for private use, and no other implementation is expected to know it. Everything else is
the draft's Prio3 (sec. 7) over Field128 with one proof: sharding, the FLP of [BBCGGI19],
verification and aggregation, so it plugs into dpspec's Prio3 code paths and test-vector format.
It serves the federated-learning path of SA2 ([SA2] Examples 3 and 5, sec. 4.5): a client's
fixed-point model update is accepted only if its squared L2 norm is at most ``norm_bound``.
"""

from __future__ import annotations

from dpspec.spec.field import Field128
from dpspec.spec.flp.bbcggi19 import FlpBBCGGI19
from dpspec.spec.flp.bounded_l2 import BoundedL2VecSum
from dpspec.spec.vdaf.prio3 import Prio3


class Prio3BoundedL2VecSum(Prio3[list[int], list[int], Field128]):
    """Sums of ``length`` signed ``bits``-bit integer vectors of squared L2 norm at most
    ``norm_bound`` (private-use codepoint; not in VDAF draft-20)."""

    ID = 0xFFFF0100

    def __init__(self, shares: int, length: int, bits: int, norm_bound: int,
                 chunk_length: int) -> None:
        super().__init__(
            shares, FlpBBCGGI19(BoundedL2VecSum(Field128, length, bits, norm_bound, chunk_length)),
            1)
