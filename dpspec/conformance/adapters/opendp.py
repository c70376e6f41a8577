"""Conformance adapter for OpenDP (PyPI ``opendp``): its integer Laplace and Gaussian samplers.

Run as ``python -m dpspec.conformance.adapters.opendp``. OpenDP draws its own randomness (no seed can be
given), so it offers **statistical mode** only: ``sampler.discrete_laplace`` ``{t, count}`` and
``sampler.discrete_gaussian`` ``{sigma2, count}`` return ``count`` samples (decimal strings).

Mapping (OpenDP 0.16, ``opendp.measurements``), each measurement applied to a vector of ``count``
zeros of type i64:

* ``make_laplace(vector_domain(atom_domain(T="i64")), l1_distance(T="i64"), scale=t)``: over the
  integers OpenDP samples the discrete Laplace ``P[x] ∝ exp(-|x| / scale)`` (CKS20 Definition 28),
  the distribution of ``dpspec.spec.distributions.discrete_laplace_pmf(t)``;
* ``make_gaussian(vector_domain(atom_domain(T="i64")), l2_distance(T="i64"), scale=sigma)``:
  the discrete Gaussian ``P[x] ∝ exp(-x^2 / (2 scale^2))`` (CKS20 Definition 1), so
  ``scale = sqrt(sigma2)``.

OpenDP takes the scale as a float, which it then treats as an exact rational. ``t`` must be
exactly representable as a float, and so must ``sqrt(sigma2)``; other parameters are answered
``unsupported`` rather than silently tested at a nearby value.
"""

from __future__ import annotations

import math
import sys
from fractions import Fraction
from typing import Any

from dpspec.conformance.adapters.protocol import Handler, Unsupported, serve

MAX_COUNT = 1_000_000


def _rational(args: dict[str, Any], key: str) -> Fraction:
    value = args.get(key)
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ValueError(f"{key} must be a rational as a decimal string")
    return Fraction(value)


def _count(args: dict[str, Any]) -> int:
    count = args.get("count")
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_COUNT:
        raise ValueError(f"count must be an integer in [0, {MAX_COUNT}]")
    return count


def _exact_float(x: Fraction, what: str) -> float:
    f = float(x)
    if Fraction(f) != x:
        raise Unsupported(f"{what} = {x} is not exactly a float; OpenDP takes its scale as a float")
    return f


def _exact_sqrt(x: Fraction) -> float:
    root = math.sqrt(x.numerator / x.denominator)
    if Fraction(root) ** 2 != x:
        raise Unsupported(f"sqrt(sigma2) for sigma2 = {x} is not exactly a float; OpenDP takes "
                          "sigma as a float")
    return root


def _samples(make: str, metric: str, scale: float, count: int) -> dict[str, Any]:
    import opendp.prelude as dp

    dp.enable_features("contrib")
    space = (dp.vector_domain(dp.atom_domain(T="i64")), getattr(dp, metric)(T="i64"))
    meas = getattr(dp.m, make)(*space, scale=scale)
    out = meas([0] * count)
    return {"samples": [str(int(v)) for v in out]}


def discrete_laplace(args: dict[str, Any]) -> dict[str, Any]:
    if "seed" in args:
        raise Unsupported("OpenDP draws its own randomness; it cannot run from a seed")
    t = _rational(args, "t")
    if t <= 0:
        raise ValueError("t must be > 0")
    return _samples("make_laplace", "l1_distance", _exact_float(t, "t"), _count(args))


def discrete_gaussian(args: dict[str, Any]) -> dict[str, Any]:
    if "seed" in args:
        raise Unsupported("OpenDP draws its own randomness; it cannot run from a seed")
    sigma2 = _rational(args, "sigma2")
    if sigma2 <= 0:
        raise ValueError("sigma2 must be > 0")
    return _samples("make_gaussian", "l2_distance", _exact_sqrt(sigma2), _count(args))


def handlers() -> dict[str, Handler]:
    return {"sampler.discrete_laplace": discrete_laplace,
            "sampler.discrete_gaussian": discrete_gaussian}


def main() -> int:
    from importlib.metadata import version

    return serve(handlers(), implementation="opendp", version=version("opendp"),
                 modes=["statistical"])


if __name__ == "__main__":
    sys.exit(main())
