"""DP mechanisms (sec. 4 of the DP draft): the DpMechanism interface and concrete mechanisms.

Every mechanism takes its randomness as an argument (a :class:`spec.tape.RandomTape`) and documents
its ``DataType``, ``DebiasedDataType``, privacy guarantee and tape consumption order.
"""

from spec.mechanisms.additive import DiscreteGaussianMechanism, DiscreteLaplaceMechanism
from spec.mechanisms.base import DpMechanism
from spec.mechanisms.rappor import AsymmetricRappor, SymmetricRappor, SymmetricRapporTextbook
from spec.mechanisms.rr import BinaryRandomizedResponse, KaryRandomizedResponse

__all__ = [
    "AsymmetricRappor",
    "BinaryRandomizedResponse",
    "DiscreteGaussianMechanism",
    "DiscreteLaplaceMechanism",
    "DpMechanism",
    "KaryRandomizedResponse",
    "SymmetricRappor",
    "SymmetricRapporTextbook",
]
