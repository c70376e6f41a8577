"""Conformance adapter for OpenDP (PyPI ``opendp``): its integer samplers and privacy maps.

Run as ``python -m dpspec.conformance.adapters.opendp``. OpenDP draws its own randomness (no seed can be
given), so its samplers run in **statistical mode**: ``sampler.discrete_laplace`` ``{t, count}`` and
``sampler.discrete_gaussian`` ``{sigma2, count}`` return ``count`` samples (decimal strings).

In **exact mode** it answers with its privacy maps (``measurement.map(d_in)``) and, for
calibrations, with its own ``binary_search_param`` over those maps:

* ``privacy.discrete_laplace_epsilon``: ``make_laplace`` on ``atom_domain(T="i64")``,
  ``absolute_distance``, ``.map(sensitivity)`` (pure eps); ``privacy.discrete_laplace_scale`` and
  ``privacy.laplace_mechanism_scale`` (float domain): ``binary_search_param`` of that map at eps;
* ``privacy.discrete_gaussian_rho`` (one coordinate): ``make_gaussian`` on i64, ``.map(shift)``
  (zCDP rho);
* ``privacy.gaussian_mechanism_sigma`` / ``accounting.gaussian_sigma`` (float domain) and
  ``accounting.discrete_gaussian_sigma`` (i64, one coordinate): ``binary_search_param`` of
  ``make_fix_delta(make_zCDP_to_approxDP(make_gaussian(...)), delta)`` at ``(eps, delta)`` --
  OpenDP accounts the Gaussian through zCDP, so its sigma is expected to be CONSERVATIVE.

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

from dpspec.conformance.adapters._numbers import integer, num, out, single_shift
from dpspec.conformance.adapters.protocol import AdapterRefusal, Handler, Unsupported, serve

MAX_COUNT = 1_000_000


def _rational(args: dict[str, Any], key: str) -> Fraction:
    value = args.get(key)
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise AdapterRefusal(f"{key} must be a rational as a decimal string")
    return Fraction(value)


def _count(args: dict[str, Any]) -> int:
    count = args.get("count")
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_COUNT:
        raise AdapterRefusal(f"count must be an integer in [0, {MAX_COUNT}]")
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
    return _samples("make_laplace", "l1_distance", _exact_float(t, "t"), _count(args))


def discrete_gaussian(args: dict[str, Any]) -> dict[str, Any]:
    if "seed" in args:
        raise Unsupported("OpenDP draws its own randomness; it cannot run from a seed")
    sigma2 = _rational(args, "sigma2")
    if sigma2 <= 0:
        raise AdapterRefusal("sigma2 must be > 0 for its square root to be taken")
    return _samples("make_gaussian", "l2_distance", _exact_sqrt(sigma2), _count(args))


def _dp() -> Any:
    import opendp.prelude as dp

    dp.enable_features("contrib")
    return dp


def _laplace(dp: Any, integer_domain: bool, scale: float) -> Any:
    if integer_domain:
        return dp.m.make_laplace(dp.atom_domain(T="i64"), dp.absolute_distance(T="i64"),
                                 scale=scale)
    return dp.m.make_laplace(dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float),
                             scale=scale)


def _gaussian_dp(dp: Any, integer_domain: bool, delta: float) -> Any:
    def make(scale: float) -> Any:
        if integer_domain:
            space = (dp.atom_domain(T="i64"), dp.absolute_distance(T="i64"))
        else:
            space = (dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float))
        return dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP(dp.m.make_gaussian(*space,
                                                                                scale=scale)), delta)
    return make


def dlap_epsilon(a: dict[str, Any]) -> dict[str, Any]:
    return {"eps": out(_laplace(_dp(), True, num(a["scale"])).map(integer(a["sensitivity"])))}


def dlap_scale(a: dict[str, Any]) -> dict[str, Any]:
    dp = _dp()
    return {"scale": out(dp.binary_search_param(lambda s: _laplace(dp, True, s),
                                                d_in=integer(a["sensitivity"]), d_out=num(a["eps"])))}


def laplace_scale(a: dict[str, Any]) -> dict[str, Any]:
    dp = _dp()
    return {"scale": out(dp.binary_search_param(lambda s: _laplace(dp, False, s),
                                                d_in=num(a["sensitivity"]), d_out=num(a["eps"])))}


def dg_rho(a: dict[str, Any]) -> dict[str, Any]:
    dp = _dp()
    meas = dp.m.make_gaussian(dp.atom_domain(T="i64"), dp.absolute_distance(T="i64"),
                              scale=num(a["sigma"]))
    return {"rho": out(meas.map(abs(single_shift(a["vector"]))))}


def gaussian_sigma(a: dict[str, Any]) -> dict[str, Any]:
    dp = _dp()
    delta = num(a["delta"])
    return {"sigma": out(dp.binary_search_param(_gaussian_dp(dp, False, delta),
                                                d_in=num(a["sensitivity"]),
                                                d_out=(num(a["eps"]), delta)))}


def dg_sigma(a: dict[str, Any]) -> dict[str, Any]:
    dp = _dp()
    delta = num(a["delta"])
    return {"sigma": out(dp.binary_search_param(_gaussian_dp(dp, True, delta),
                                                d_in=abs(single_shift(a["vector"])),
                                                d_out=(num(a["eps"]), delta)))}


EXACT: dict[str, Handler] = {
    "privacy.discrete_laplace_epsilon": dlap_epsilon,
    "privacy.discrete_laplace_scale": dlap_scale,
    "privacy.laplace_mechanism_scale": laplace_scale,
    "privacy.discrete_gaussian_rho": dg_rho,
    "privacy.gaussian_mechanism_sigma": gaussian_sigma,
    "accounting.gaussian_sigma": gaussian_sigma,
    "accounting.discrete_gaussian_sigma": dg_sigma,
}
STATISTICAL: dict[str, Handler] = {"sampler.discrete_laplace": discrete_laplace,
                                   "sampler.discrete_gaussian": discrete_gaussian}


def handlers() -> dict[str, Handler]:
    return {**STATISTICAL, **EXACT}


def main() -> int:
    from importlib.metadata import version

    return serve(handlers(), implementation="opendp", version=version("opendp"),
                 modes=["exact", "statistical"],
                 ops_by_mode={"exact": list(EXACT), "statistical": list(STATISTICAL)})


if __name__ == "__main__":
    sys.exit(main())
