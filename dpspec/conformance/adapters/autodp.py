"""An adapter for autodp (pip package ``autodp``).

Run as ``python -m dpspec.conformance.adapters.autodp``. Using the library's own objects only:

* ``privacy.gaussian_mechanism_sigma`` and ``accounting.gaussian_sigma``:
  ``calibrator_zoo.ana_gaussian_calibrator()(mechanism_zoo.ExactGaussianMechanism, eps, delta)
  .params["sigma"]`` -- the library's analytic-Gaussian calibration, which is for sensitivity 1
  (other sensitivities are unsupported);
* ``privacy.sampled_gaussian_rdp_curve`` and ``accounting.sampled_gaussian_rdp``:
  ``transformer_zoo.AmplificationBySampling(PoissonSampling=True)`` applied to
  ``mechanism_zoo.GaussianMechanism(sigma)`` at rate q (``improved_bound_flag=True``), its
  ``RenyiDP(alpha)`` at each order.
"""

from __future__ import annotations

import sys
from typing import Any

from dpspec.conformance.adapters._numbers import num, out, version_of
from dpspec.conformance.adapters.protocol import Handler, Unsupported, serve


def handlers() -> dict[str, Handler]:
    from autodp.calibrator_zoo import ana_gaussian_calibrator
    from autodp.mechanism_zoo import ExactGaussianMechanism, GaussianMechanism
    from autodp.transformer_zoo import AmplificationBySampling

    def gaussian_sigma(a: dict[str, Any]) -> dict[str, Any]:
        if num(a["sensitivity"]) != 1.0:
            raise Unsupported("autodp's calibrators are for sensitivity 1")
        mech = ana_gaussian_calibrator()(ExactGaussianMechanism, num(a["eps"]), num(a["delta"]),
                                         name="GM")
        return {"sigma": out(mech.params["sigma"])}

    def _subsampled(a: dict[str, Any]) -> Any:
        return AmplificationBySampling(PoissonSampling=True)(
            GaussianMechanism(sigma=num(a["sigma"]), name="GM"), num(a["q"]),
            improved_bound_flag=True)

    def curve(a: dict[str, Any]) -> dict[str, Any]:
        mech = _subsampled(a)
        return {"rdp": [out(mech.RenyiDP(num(o))) for o in a["orders"]]}

    def one(a: dict[str, Any]) -> dict[str, Any]:
        return {"rdp": out(_subsampled(a).RenyiDP(num(a["alpha"])))}

    return {
        "privacy.gaussian_mechanism_sigma": gaussian_sigma,
        "accounting.gaussian_sigma": gaussian_sigma,
        "privacy.sampled_gaussian_rdp_curve": curve,
        "accounting.sampled_gaussian_rdp": one,
    }


def main() -> int:
    return serve(handlers(), implementation="autodp", version=version_of("autodp"),
                 modes=["exact"])


if __name__ == "__main__":
    sys.exit(main())
