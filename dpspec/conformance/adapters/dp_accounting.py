"""An adapter for Google's dp-accounting library (pip package ``dp-accounting``).

Run as ``python -m dpspec.conformance.adapters.dp_accounting``; it speaks the protocol of
:mod:`dpspec.conformance.adapters.protocol` and answers the ``accounting.*`` ops that dp-accounting
implements, in binary64 as the library does:

* ``accounting.gaussian_delta``: ``GaussianPrivacyLoss(sigma, sensitivity).get_delta_for_epsilon``;
* ``accounting.gaussian_sigma``: ``get_sigma_gaussian(eps, delta) * sensitivity`` (its noise
  multiplier is per unit sensitivity);
* ``accounting.rdp_to_dp``: ``rdp_privacy_accountant.compute_epsilon([alpha], [rdp], delta)``;
* ``accounting.sampled_gaussian_rdp``: ``RdpAccountant`` on one ``PoissonSampledDpEvent`` at the
  given order -- integer orders only: for fractional orders the library sums the [MTZ19] series in
  absolute value (an upper bound, not the exact value the vectors hold), so they are reported as
  unsupported rather than failed;
* ``accounting.subsampled_gaussian_epsilon``: ``RdpAccountant(orders)`` composed ``steps`` times,
  ``get_epsilon_and_optimal_order(delta)`` (fractional orders in the list use the library's upper
  bound, which may legitimately give a slightly larger epsilon).

Every other op is unsupported. ``sqrt(R)`` sensitivities are evaluated in binary64.
"""

from __future__ import annotations

import math
import sys
from typing import IO, Any

from dpspec.conformance.adapters.protocol import Handler, Unsupported, serve


def _num(x: Any) -> float:
    if isinstance(x, bool):
        raise TypeError("expected a number")
    if isinstance(x, int | float):
        return float(x)
    if not isinstance(x, str):
        raise TypeError("expected a number or a numeric string")
    text = x.strip().replace(" ", "")
    if text.startswith("sqrt(") and text.endswith(")"):
        return math.sqrt(_num(text[5:-1]))
    if "/" in text:
        a, b = text.split("/", 1)
        return float(a) / float(b)
    return float(text)


def _check_delta(d: float) -> float:
    if not 0 < d < 1:
        raise ValueError("delta must be in (0, 1)")
    return d


def handlers() -> dict[str, Handler]:
    import dp_accounting
    from dp_accounting.pld import privacy_loss_mechanism
    from dp_accounting.rdp import rdp_privacy_accountant

    def gaussian_delta(a: dict[str, Any]) -> dict[str, Any]:
        eps, sigma, sens = _num(a["eps"]), _num(a["sigma"]), _num(a["sensitivity"])
        if sigma <= 0 or sens <= 0 or eps < 0:
            raise ValueError("sigma and sensitivity must be > 0, eps >= 0")
        loss = privacy_loss_mechanism.GaussianPrivacyLoss(sigma, sensitivity=sens)
        return {"delta": repr(float(loss.get_delta_for_epsilon(eps)))}

    def gaussian_sigma(a: dict[str, Any]) -> dict[str, Any]:
        eps, delta, sens = _num(a["eps"]), _check_delta(_num(a["delta"])), _num(a["sensitivity"])
        if eps <= 0 or sens <= 0:
            raise ValueError("eps and sensitivity must be > 0")
        return {"sigma": repr(dp_accounting.get_sigma_gaussian(eps, delta, tol=1e-15) * sens)}

    def rdp_to_dp(a: dict[str, Any]) -> dict[str, Any]:
        alpha, rdp, delta = _num(a["alpha"]), _num(a["rdp"]), _check_delta(_num(a["delta"]))
        if alpha <= 1 or rdp < 0:
            raise ValueError("alpha must be > 1 and rdp >= 0")
        eps, _ = rdp_privacy_accountant.compute_epsilon([alpha], [rdp], delta)
        return {"eps": repr(float(eps))}

    def sampled_gaussian_rdp(a: dict[str, Any]) -> dict[str, Any]:
        q, sigma, alpha = _num(a["q"]), _num(a["sigma"]), _num(a["alpha"])
        if alpha <= 1 or not 0 <= q <= 1 or sigma <= 0:
            raise ValueError("alpha > 1, q in [0, 1], sigma > 0 required")
        if alpha != int(alpha):
            raise Unsupported("fractional orders: dp-accounting computes an upper bound")
        acc = dp_accounting.rdp.RdpAccountant(orders=[alpha])
        acc.compose(dp_accounting.PoissonSampledDpEvent(q, dp_accounting.GaussianDpEvent(sigma)))
        return {"rdp": repr(float(acc._rdp[0]))}

    def subsampled_eps(a: dict[str, Any]) -> dict[str, Any]:
        q, sigma, delta = _num(a["q"]), _num(a["sigma"]), _check_delta(_num(a["delta"]))
        steps = int(a["steps"])
        if steps < 1:
            raise ValueError("steps must be >= 1")
        orders = [_num(o) for o in a["orders"]]
        acc = dp_accounting.rdp.RdpAccountant(orders=orders)
        acc.compose(dp_accounting.PoissonSampledDpEvent(q, dp_accounting.GaussianDpEvent(sigma)),
                    steps)
        eps, order = acc.get_epsilon_and_optimal_order(delta)
        return {"eps": repr(float(eps)), "order": repr(float(order))}

    return {
        "accounting.gaussian_delta": gaussian_delta,
        "accounting.gaussian_sigma": gaussian_sigma,
        "accounting.rdp_to_dp": rdp_to_dp,
        "accounting.sampled_gaussian_rdp": sampled_gaussian_rdp,
        "accounting.subsampled_gaussian_epsilon": subsampled_eps,
    }


def serve_dp_accounting(stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> int:
    """The protocol loop (:func:`dpspec.conformance.adapters.protocol.serve`) over dp-accounting."""
    from importlib.metadata import version as installed_version

    return serve(handlers(), implementation="dp-accounting",
                 version=installed_version("dp-accounting"), modes=["exact"],
                 stdin=stdin, stdout=stdout)


def main() -> int:
    try:
        import dp_accounting  # noqa: F401
    except ImportError:
        print("dp-accounting is not installed (pip install dp-accounting)", file=sys.stderr)
        return 2
    return serve_dp_accounting()


if __name__ == "__main__":
    sys.exit(main())
