"""VDAFs of the VDAF draft (draft-irtf-cfrg-vdaf-20): Prio3 (sec. 7) and its variants.

- :mod:`dpspec.spec.vdaf.prio3`: Prio3 and Prio3Count, Prio3Sum, Prio3SumVec, Prio3Histogram,
  Prio3MultihotCountVec, Prio3SumVecWithMultiproof, Prio3HigherDegree.
- :mod:`dpspec.spec.vdaf.run`: ``run_vdaf``, the execution of sec. 5.6 with every intermediate message.

A report that fails verification raises :class:`VerifyError` (a ValueError) naming the check.
"""

from __future__ import annotations


class VerifyError(ValueError):
    """A report failed VDAF verification; ``check`` names the failed check.

    Checks of Prio3 (sec. 7.2.2): ``"proof"`` (the FLP decision rejected: the circuit output is
    not zero or a gadget test failed; ``detail`` says which proof and which part),
    ``"joint_rand"`` (the joint randomness seed the Aggregators derived differs from the one the
    Client used), ``"test_point"`` (the query point is an interpolation point, sec. 7.3.4).
    The Aggregators must drop the report.
    """

    def __init__(self, check: str, detail: str) -> None:
        super().__init__(f"verification failed: {check} check: {detail}")
        self.check = check
        self.detail = detail


__all__ = ["VerifyError"]
