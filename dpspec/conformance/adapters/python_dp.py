"""An adapter for Google's python-dp (pip package ``python-dp``, module ``pydp``).

Run as ``python -m dpspec.conformance.adapters.python_dp``. From
``pydp.algorithms.numerical_mechanisms``:

* ``privacy.gaussian_mechanism_sigma`` and ``accounting.gaussian_sigma``:
  ``GaussianMechanism(epsilon, delta, l2_sensitivity).std``;
* ``privacy.laplace_mechanism_scale``: ``LaplaceMechanism(epsilon, sensitivity).diversity``;
* statistical ``sampler.discrete_laplace`` ``{t, count}``: ``LaplaceMechanism(epsilon=1/t,
  sensitivity=1).add_noise(0)`` on the integer 0, and ``sampler.discrete_gaussian``
  ``{sigma2, count}``: ``GaussianMechanism.create_from_standard_deviation(sqrt(sigma2))
  .add_noise(0)``. On integers the library adds *continuous* noise and rounds it, which is not
  the discrete Laplace or discrete Gaussian distribution: python-dp is the negative control of
  the discrete statistical suites (it is expected to fail them; a pass would mean the suites
  have no power).
"""

from __future__ import annotations

import math
import sys
from fractions import Fraction
from typing import Any

from dpspec.conformance.adapters._numbers import integer, num, out, version_of
from dpspec.conformance.adapters.protocol import Handler, Unsupported, serve


def handlers() -> dict[str, Handler]:
    from pydp.algorithms import numerical_mechanisms as nm

    def gaussian_sigma(a: dict[str, Any]) -> dict[str, Any]:
        mech = nm.GaussianMechanism(num(a["eps"]), num(a["delta"]), num(a["sensitivity"]))
        return {"sigma": out(mech.std)}

    def laplace_scale(a: dict[str, Any]) -> dict[str, Any]:
        return {"scale": out(nm.LaplaceMechanism(num(a["eps"]), num(a["sensitivity"])).diversity)}

    def _seedless(a: dict[str, Any]) -> None:
        if "seed" in a:
            raise Unsupported("python-dp draws its own randomness; it cannot run from a seed")

    def dlap(a: dict[str, Any]) -> dict[str, Any]:
        _seedless(a)
        mech = nm.LaplaceMechanism(float(1 / Fraction(str(a["t"]))), 1.0)
        return {"samples": [str(int(mech.add_noise(0))) for _ in range(integer(a["count"]))]}

    def dgauss(a: dict[str, Any]) -> dict[str, Any]:
        _seedless(a)
        mech = nm.GaussianMechanism.create_from_standard_deviation(
            math.sqrt(float(Fraction(str(a["sigma2"])))))
        return {"samples": [str(int(mech.add_noise(0))) for _ in range(integer(a["count"]))]}

    return {
        "privacy.gaussian_mechanism_sigma": gaussian_sigma,
        "accounting.gaussian_sigma": gaussian_sigma,
        "privacy.laplace_mechanism_scale": laplace_scale,
        "sampler.discrete_laplace": dlap,
        "sampler.discrete_gaussian": dgauss,
    }


def main() -> int:
    h = handlers()
    return serve(h, implementation="python-dp", version=version_of("python-dp"),
                 modes=["exact", "statistical"],
                 ops_by_mode={"exact": [op for op in h if not op.startswith("sampler.")],
                              "statistical": [op for op in h if op.startswith("sampler.")]})


if __name__ == "__main__":
    sys.exit(main())
