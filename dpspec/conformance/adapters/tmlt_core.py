"""An adapter for Tumult Core (pip package ``tmlt.core``): its exact discrete samplers.

Tumult Core pins ``numpy<2`` (and pandas, pyspark) on this Python, which conflicts with this
project's environment, so it runs in a virtual environment of its own, created on first use by
``dpspec conformance install`` (it holds tmlt.core and the dependencies its samplers import, not
pyspark). The harness starts this file with that environment's interpreter; it imports only the
protocol module of this package (by path) and Tumult Core.

Statistical mode only (the samplers draw from the operating system's randomness):

* ``sampler.discrete_gaussian`` ``{sigma2, count}``: ``tmlt.core.random.discrete_gaussian
  .sample_dgauss(Fraction(sigma2))``, the exact sampler of [CKS20];
* ``sampler.discrete_laplace`` ``{t, count}``: ``tmlt.core.random.discrete_gaussian
  ._sample_dlaplace(Fraction(t))``, the discrete Laplace sampler its ``AddGeometricNoise``
  measurement uses (a private name: the library has no public one).
"""

from __future__ import annotations

import importlib.util
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any


def _protocol() -> Any:
    path = Path(__file__).resolve().parent / "protocol.py"
    spec = importlib.util.spec_from_file_location("dpspec_protocol", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["dpspec_protocol"] = module
    spec.loader.exec_module(module)
    return module


def main() -> int:
    protocol = _protocol()
    from importlib.metadata import version

    from tmlt.core.random import discrete_gaussian as dg

    def _count(a: dict[str, Any]) -> int:
        count = a["count"]
        if isinstance(count, bool) or not isinstance(count, int):
            raise protocol.AdapterRefusal("count must be an integer")
        return count

    def _seedless(a: dict[str, Any]) -> None:
        if "seed" in a:
            raise protocol.Unsupported("Tumult Core draws its own randomness; no seed")

    def dgauss(a: dict[str, Any]) -> dict[str, Any]:
        _seedless(a)
        s2 = Fraction(str(a["sigma2"]))
        return {"samples": [str(dg.sample_dgauss(s2)) for _ in range(_count(a))]}

    def dlap(a: dict[str, Any]) -> dict[str, Any]:
        _seedless(a)
        t = Fraction(str(a["t"]))
        return {"samples": [str(dg._sample_dlaplace(t)) for _ in range(_count(a))]}

    handlers = {"sampler.discrete_gaussian": dgauss, "sampler.discrete_laplace": dlap}
    return int(protocol.serve(handlers, implementation="tmlt.core", version=version("tmlt.core"),
                              modes=["statistical"]))


if __name__ == "__main__":
    sys.exit(main())
