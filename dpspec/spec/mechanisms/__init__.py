"""DP mechanisms (sec. 4 of the DP draft): the DpMechanism interface and concrete mechanisms.

Every mechanism takes its randomness as an argument (a :class:`dpspec.spec.tape.RandomTape`) and documents
its ``DataType``, ``DebiasedDataType``, privacy guarantee and tape consumption order.
"""

from dpspec.spec.mechanisms.additive import DiscreteGaussianMechanism, DiscreteLaplaceMechanism
from dpspec.spec.mechanisms.base import DpMechanism
from dpspec.spec.mechanisms.rappor import AsymmetricRappor, SymmetricRappor, SymmetricRapporTextbook
from dpspec.spec.mechanisms.rr import BinaryRandomizedResponse, KaryRandomizedResponse

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
