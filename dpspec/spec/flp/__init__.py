"""Fully linear proofs (sec. 7.1 and 7.3 of the VDAF draft, draft-irtf-cfrg-vdaf-20).

- :mod:`dpspec.spec.flp.poly`: polynomials in the Lagrange basis over Field64/Field128 (NTT, evaluation).
- :mod:`dpspec.spec.flp.gadgets`: the gadgets ``Mul``, ``PolyEval``, ``ParallelSum`` (appendix A).
- :mod:`dpspec.spec.flp.valid`: the ``Valid`` interface and the circuits of sec. 7.4.
- :mod:`dpspec.spec.flp.bbcggi19`: the FLP of [BBCGGI19] (prove, query, decide).
"""

from dpspec.spec.flp.bbcggi19 import FlpBBCGGI19
from dpspec.spec.flp.gadgets import Mul, ParallelSum, PolyEval
from dpspec.spec.flp.valid import Count, HigherDegree, Histogram, MultihotCountVec, Sum, SumVec, Valid

__all__ = [
    "Count", "FlpBBCGGI19", "HigherDegree", "Histogram", "Mul", "MultihotCountVec", "ParallelSum",
    "PolyEval", "Sum", "SumVec", "Valid",
]
