"""An adapter for Opacus' privacy accountants (pip package ``opacus``; needs ``torch``).

Run as ``python -m dpspec.conformance.adapters.opacus``. Opacus imports torch, which takes
seconds, so the library is imported before the adapter answers ``capabilities`` (which the
harness gives a longer time limit than the other requests). From
``opacus.accountants.analysis.rdp`` (the analysis behind its ``RDPAccountant``):

* ``privacy.sampled_gaussian_rdp_curve`` and ``accounting.sampled_gaussian_rdp``:
  ``compute_rdp(q=q, noise_multiplier=sigma, steps=1, orders=orders)``;
* ``privacy.subsampled_gaussian_epsilon`` (conversion ``sa2``) and
  ``accounting.subsampled_gaussian_epsilon``: ``compute_rdp(..., steps=steps)`` then
  ``get_privacy_spent(orders=orders, rdp=..., delta=delta)``;
* ``accounting.rdp_to_dp``: ``get_privacy_spent(orders=[alpha], rdp=[rdp], delta=delta)``.

and from ``opacus.accountants.PRVAccountant`` (the [GLW21] PRV accountant):

* ``privacy.subsampled_gaussian_optimal_epsilon``: ``step(noise_multiplier=sigma,
  sample_rate=q)`` ``steps`` times, then ``get_epsilon(delta)`` at its defaults (``eps_error``
  0.01, ``delta_error`` delta / 1000), which returns the upper end of its estimate.
"""

from __future__ import annotations

import sys
from typing import Any

from dpspec.conformance.adapters._numbers import integer, num, out, version_of
from dpspec.conformance.adapters.protocol import Handler, Unsupported, serve


def _rdp() -> Any:
    from opacus.accountants.analysis import rdp

    return rdp


def curve(a: dict[str, Any]) -> dict[str, Any]:
    values = _rdp().compute_rdp(q=num(a["q"]), noise_multiplier=num(a["sigma"]), steps=1,
                                orders=[num(o) for o in a["orders"]])
    return {"rdp": [out(v) for v in values]}


def one(a: dict[str, Any]) -> dict[str, Any]:
    value = _rdp().compute_rdp(q=num(a["q"]), noise_multiplier=num(a["sigma"]), steps=1,
                               orders=[num(a["alpha"])])
    return {"rdp": out(value[0])}


def subsampled(a: dict[str, Any]) -> dict[str, Any]:
    rdp = _rdp()
    orders = [num(o) for o in a["orders"]]
    values = rdp.compute_rdp(q=num(a["q"]), noise_multiplier=num(a["sigma"]),
                             steps=integer(a["steps"]), orders=orders)
    eps, order = rdp.get_privacy_spent(orders=orders, rdp=values, delta=num(a["delta"]))
    return {"eps": out(eps), "order": out(order)}


def subsampled_named(a: dict[str, Any]) -> dict[str, Any]:
    if a.get("conversion") != "sa2":
        raise Unsupported("Opacus converts RDP by one conversion only (its get_privacy_spent)")
    return {"eps": subsampled(a)["eps"]}


def rdp_to_dp(a: dict[str, Any]) -> dict[str, Any]:
    eps, _ = _rdp().get_privacy_spent(orders=[num(a["alpha"])], rdp=[num(a["rdp"])],
                                      delta=num(a["delta"]))
    return {"eps": out(eps)}


def prv_epsilon(a: dict[str, Any]) -> dict[str, Any]:
    from opacus.accountants import PRVAccountant

    acc = PRVAccountant()
    sigma, q = num(a["sigma"]), num(a["q"])
    for _ in range(integer(a["steps"])):
        acc.step(noise_multiplier=sigma, sample_rate=q)
    return {"eps": out(acc.get_epsilon(num(a["delta"])))}


def handlers() -> dict[str, Handler]:
    return {
        "privacy.subsampled_gaussian_optimal_epsilon": prv_epsilon,
        "privacy.sampled_gaussian_rdp_curve": curve,
        "accounting.sampled_gaussian_rdp": one,
        "privacy.subsampled_gaussian_epsilon": subsampled_named,
        "accounting.subsampled_gaussian_epsilon": subsampled,
        "accounting.rdp_to_dp": rdp_to_dp,
    }


def main() -> int:
    _rdp()  # import torch now, inside the capabilities time limit
    return serve(handlers(), implementation="opacus", version=version_of("opacus"),
                 modes=["exact"])


if __name__ == "__main__":
    sys.exit(main())
