"""Exact samplers that expand a seed into samples (DP draft sec. 4, 4.1, 4.2; [CKS20]).

Every sampler takes a :class:`dpspec.spec.tape.RandomTape` first, then exact rational parameters
(int, Fraction or a rational string, see :mod:`dpspec.spec.rational`; floats are refused), and returns
Python ints. Outputs follow the stated distribution exactly; the only source of randomness is
the tape, read in the order each sampler documents, so a seed fixes the samples in every
language. The samplers are exact but not constant-time: how long a call takes, and how many bits
it reads, depends on the sample.

Modules: :mod:`~dpspec.spec.samplers.lazy` (the lazy comparison every coin is built on),
:mod:`~dpspec.spec.samplers.core` (Bernoulli family, geometric, discrete Laplace and Gaussian),
:mod:`~dpspec.spec.samplers.counts` (binomial, Poisson, negative binomial),
:mod:`~dpspec.spec.samplers.registry` (``SAMPLERS``).
"""

from dpspec.spec.samplers.core import (
    bernoulli,
    bernoulli_exp,
    bernoulli_rr,
    discrete_gaussian,
    discrete_gaussian_vector,
    discrete_laplace,
    geometric,
    geometric_exp,
)
from dpspec.spec.samplers.counts import (
    binomial,
    binomial_rr,
    binomial_textbook,
    negative_binomial,
    negative_binomial_exp,
    poisson,
)
from dpspec.spec.samplers.params import SamplerParameterError
from dpspec.spec.samplers.registry import SAMPLERS, Param, Sampler

__all__ = [
    "SAMPLERS",
    "Param",
    "Sampler",
    "SamplerParameterError",
    "bernoulli",
    "bernoulli_exp",
    "bernoulli_rr",
    "binomial",
    "binomial_rr",
    "binomial_textbook",
    "discrete_gaussian",
    "discrete_gaussian_vector",
    "discrete_laplace",
    "geometric",
    "geometric_exp",
    "negative_binomial",
    "negative_binomial_exp",
    "poisson",
]
