"""An adapter for IBM's diffprivlib (pip package ``diffprivlib``).

Run as ``python -m dpspec.conformance.adapters.diffprivlib``. diffprivlib calibrates inside its
mechanisms; this adapter builds the mechanism from the op's arguments and reports the noise
parameter the library computed (nothing is checked or computed here):

* ``privacy.gaussian_mechanism_sigma`` and ``accounting.gaussian_sigma``:
  ``mechanisms.GaussianAnalytic(epsilon, delta, sensitivity)._scale`` ([BW18] calibration);
* ``accounting.discrete_gaussian_sigma`` (one coordinate): ``mechanisms.GaussianDiscrete``'s
  ``_scale``;
* ``privacy.laplace_mechanism_scale``: ``mechanisms.Laplace(epsilon, delta=0, sensitivity)``,
  whose scale is read back from the library's ``variance`` (``2 b^2``) as ``sqrt(variance / 2)``;
* ``privacy.discrete_laplace_scale``: ``mechanisms.Geometric(epsilon, sensitivity)``, whose
  ``_scale`` is ``log p = -1/t``, reported as ``t = -1/_scale``;
* ``privacy.kov_composition``: ``accountant.BudgetAccountant.total(spent_budget=[(eps, delta)] *
  k, slack=deltaSlack)`` (its documented [KOV15] composition);
* statistical ``sampler.discrete_laplace`` ``{t, count}``: ``Geometric(epsilon=1/t,
  sensitivity=1).randomise(0)``, ``count`` times (``1/t`` must be exactly a float).
"""

from __future__ import annotations

import math
import sys
from fractions import Fraction
from typing import Any

from dpspec.conformance.adapters._numbers import integer, num, out, single_shift, version_of
from dpspec.conformance.adapters.protocol import Handler, Unsupported, serve


def handlers() -> dict[str, Handler]:
    from diffprivlib import accountant, mechanisms

    def gaussian_sigma(a: dict[str, Any]) -> dict[str, Any]:
        mech = mechanisms.GaussianAnalytic(epsilon=num(a["eps"]), delta=num(a["delta"]),
                                           sensitivity=num(a["sensitivity"]))
        return {"sigma": out(mech._scale)}

    def dg_sigma(a: dict[str, Any]) -> dict[str, Any]:
        mech = mechanisms.GaussianDiscrete(epsilon=num(a["eps"]), delta=num(a["delta"]),
                                           sensitivity=abs(single_shift(a["vector"])))
        return {"sigma": out(mech._scale)}

    def laplace_scale(a: dict[str, Any]) -> dict[str, Any]:
        mech = mechanisms.Laplace(epsilon=num(a["eps"]), delta=0.0,
                                  sensitivity=num(a["sensitivity"]))
        return {"scale": out(math.sqrt(mech.variance(0.0) / 2))}

    def dlap_scale(a: dict[str, Any]) -> dict[str, Any]:
        mech = mechanisms.Geometric(epsilon=num(a["eps"]), sensitivity=integer(a["sensitivity"]))
        return {"scale": out(-1 / mech._scale)}

    def kov(a: dict[str, Any]) -> dict[str, Any]:
        acc = accountant.BudgetAccountant(epsilon=float("inf"), delta=1.0)
        spent = [(num(a["eps"]), num(a["delta"]))] * integer(a["k"])
        eps, delta = acc.total(spent_budget=spent, slack=num(a["deltaSlack"]))
        return {"eps": out(eps), "delta": out(delta)}

    def dlap_samples(a: dict[str, Any]) -> dict[str, Any]:
        if "seed" in a:
            raise Unsupported("diffprivlib draws its own randomness; it cannot run from a seed")
        t = Fraction(str(a["t"]))
        eps = 1 / t if t != 0 else Fraction(0)
        if t > 0 and Fraction(float(eps)) != eps:
            raise Unsupported(f"1/t = {eps} is not exactly a float (diffprivlib takes epsilon)")
        mech = mechanisms.Geometric(epsilon=float(eps), sensitivity=1)
        return {"samples": [str(int(mech.randomise(0))) for _ in range(integer(a["count"]))]}

    return {
        "privacy.gaussian_mechanism_sigma": gaussian_sigma,
        "accounting.gaussian_sigma": gaussian_sigma,
        "accounting.discrete_gaussian_sigma": dg_sigma,
        "privacy.laplace_mechanism_scale": laplace_scale,
        "privacy.discrete_laplace_scale": dlap_scale,
        "privacy.kov_composition": kov,
        "sampler.discrete_laplace": dlap_samples,
    }


def main() -> int:
    h = handlers()
    exact = [op for op in h if not op.startswith("sampler.")]
    return serve(h, implementation="diffprivlib", version=version_of("diffprivlib"),
                 modes=["exact", "statistical"],
                 ops_by_mode={"exact": exact, "statistical": ["sampler.discrete_laplace"]})


if __name__ == "__main__":
    sys.exit(main())
