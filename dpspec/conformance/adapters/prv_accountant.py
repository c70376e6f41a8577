"""An adapter for Microsoft's prv-accountant (pip package ``prv-accountant``).

Run as ``python -m dpspec.conformance.adapters.prv_accountant``. The PRV accountant composes
privacy random variables numerically and returns ``(lower, estimate, upper)``; the adapter answers
with the certified interval ``{"lower", "upper"}`` (error bounds ``eps_error`` = 0.05 and
``delta_error`` = 1e-12 as the library's arguments; a smaller ``eps_error`` makes 1000
compositions take minutes):

* ``privacy.gaussian_kfold_delta``: ``GaussianMechanism(noise_multiplier=sigma / sensitivity)``,
  ``compute_delta(eps, [k])`` (the ratio is the library's noise multiplier, in binary64);
* ``privacy.optimal_composition_delta`` / ``_epsilon``: ``ApproximateDPMechanism(eps, delta)``
  (``PureDPMechanism(eps)`` when delta is 0), ``compute_delta(epsTotal, [k])`` /
  ``compute_epsilon(deltaTotal, [k])``;
* ``privacy.subsampled_gaussian_optimal_epsilon`` / ``_delta``:
  ``PoissonSubsampledGaussianMechanism(sampling_probability=q, noise_multiplier=sigma)``,
  ``compute_epsilon(delta, [steps])`` / ``compute_delta(eps, [steps])``.
"""

from __future__ import annotations

import sys
import warnings
from typing import Any

from dpspec.conformance.adapters._numbers import integer, num, out, version_of
from dpspec.conformance.adapters.protocol import Handler, serve

EPS_ERROR = 0.05
DELTA_ERROR = 1e-12


def handlers() -> dict[str, Handler]:
    from prv_accountant import PRVAccountant
    from prv_accountant.privacy_random_variables import (
        ApproximateDPMechanism,
        GaussianMechanism,
        PoissonSubsampledGaussianMechanism,
        PureDPMechanism,
    )

    def _accountant(prv: Any, k: int) -> Any:
        return PRVAccountant(prvs=[prv], eps_error=EPS_ERROR, delta_error=DELTA_ERROR,
                             max_self_compositions=[k])

    def _interval(bounds: Any) -> dict[str, str]:
        lower, _, upper = bounds
        return {"lower": out(lower), "upper": out(upper)}

    def kfold(a: dict[str, Any]) -> dict[str, Any]:
        k = integer(a["k"])
        prv = GaussianMechanism(noise_multiplier=num(a["sigma"]) / num(a["sensitivity"]))
        return {"delta": _interval(_accountant(prv, k).compute_delta(num(a["eps"]), [k]))}

    def _dp(a: dict[str, Any]) -> Any:
        eps, delta = num(a["eps"]), num(a["delta"])
        return PureDPMechanism(eps) if delta == 0 else ApproximateDPMechanism(eps, delta)

    def opt_delta(a: dict[str, Any]) -> dict[str, Any]:
        k = integer(a["k"])
        return {"delta": _interval(_accountant(_dp(a), k).compute_delta(num(a["epsTotal"]), [k]))}

    def opt_eps(a: dict[str, Any]) -> dict[str, Any]:
        k = integer(a["k"])
        return {"eps": _interval(_accountant(_dp(a), k).compute_epsilon(num(a["deltaTotal"]),
                                                                        [k]))}

    def _sg(a: dict[str, Any]) -> tuple[Any, int]:
        prv = PoissonSubsampledGaussianMechanism(sampling_probability=num(a["q"]),
                                                 noise_multiplier=num(a["sigma"]))
        return prv, integer(a["steps"])

    def sg_eps(a: dict[str, Any]) -> dict[str, Any]:
        prv, t = _sg(a)
        return {"eps": _interval(_accountant(prv, t).compute_epsilon(num(a["delta"]), [t]))}

    def sg_delta(a: dict[str, Any]) -> dict[str, Any]:
        prv, t = _sg(a)
        return {"delta": _interval(_accountant(prv, t).compute_delta(num(a["eps"]), [t]))}

    return {
        "privacy.subsampled_gaussian_optimal_epsilon": sg_eps,
        "privacy.subsampled_gaussian_optimal_delta": sg_delta,
        "privacy.gaussian_kfold_delta": kfold,
        "privacy.optimal_composition_delta": opt_delta,
        "privacy.optimal_composition_epsilon": opt_eps,
    }


def main() -> int:
    # the library's RuntimeWarnings (e.g. NaN arithmetic at sigma 0, before it hangs) would reach
    # the report as machine-specific stderr; the answers are unchanged
    warnings.simplefilter("ignore")
    return serve(handlers(), implementation="prv-accountant", version=version_of("prv-accountant"),
                 modes=["exact"])


if __name__ == "__main__":
    sys.exit(main())
