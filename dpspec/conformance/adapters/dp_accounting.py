"""An adapter for Google's dp-accounting library (pip package ``dp-accounting``).

Run as ``python -m dpspec.conformance.adapters.dp_accounting``. It answers, in binary64 as the
library does and with the library's own functions only (no argument is checked here):

* ``accounting.gaussian_delta``: ``GaussianPrivacyLoss(sigma, sensitivity).get_delta_for_epsilon``;
  ``accounting.discrete_gaussian_delta`` (one coordinate): ``DiscreteGaussianPrivacyLoss``;
* ``accounting.gaussian_sigma`` and ``privacy.gaussian_mechanism_sigma``:
  ``pld.accountant.get_smallest_gaussian_noise``; ``privacy.laplace_mechanism_scale``:
  ``get_smallest_laplace_noise``;
* ``accounting.rdp_to_dp``: ``rdp_privacy_accountant.compute_epsilon``;
* ``accounting.sampled_gaussian_rdp`` and ``privacy.sampled_gaussian_rdp_curve``: ``RdpAccountant``
  on one ``PoissonSampledDpEvent`` (for fractional orders the library bounds the [MTZ19] series,
  which the privacy verdict reports as CONSERVATIVE);
* ``accounting.subsampled_gaussian_epsilon`` and ``privacy.subsampled_gaussian_epsilon``
  (conversion ``sa2``): ``RdpAccountant(orders)`` composed ``steps`` times,
  ``get_epsilon_and_optimal_order``;
* ``privacy.optimal_composition_delta`` / ``_epsilon``: the PLD of
  ``from_privacy_parameters(eps, delta)`` self-composed k times;
* ``privacy.gaussian_kfold_delta``: the PLD of the Gaussian mechanism self-composed k times,
  answered as the certified interval (optimistic estimate, pessimistic estimate), at
  ``value_discretization_interval=1e-3`` (the default 1e-4 makes 1000 compositions slow);
* ``privacy.subsampled_gaussian_optimal_epsilon`` / ``_delta``: ``from_gaussian_mechanism(sigma,
  sampling_prob=q)`` self-composed ``steps`` times, answered as the interval (optimistic estimate,
  pessimistic estimate) at ``value_discretization_interval=1e-4`` (the pessimistic one is what
  ``PLDAccountant`` returns; the optimistic one is the library's privacy-buckets estimate, as
  connect-the-dots has no optimistic mode);
* ``privacy.advanced_composition``: ``pld.accountant.advanced_composition`` at total delta
  ``k delta + deltaSlack`` (the delta output is that total).

Every other op is unsupported. ``sqrt(R)`` sensitivities are evaluated in binary64.
"""

from __future__ import annotations

import sys
from typing import IO, Any

from dpspec.conformance.adapters._numbers import integer, num, out, single_shift, version_of
from dpspec.conformance.adapters.protocol import Handler, Unsupported, serve


def handlers() -> dict[str, Handler]:
    import dp_accounting
    from dp_accounting.pld import accountant, privacy_loss_distribution, privacy_loss_mechanism
    from dp_accounting.pld.common import DifferentialPrivacyParameters
    from dp_accounting.rdp import rdp_privacy_accountant

    def gaussian_delta(a: dict[str, Any]) -> dict[str, Any]:
        loss = privacy_loss_mechanism.GaussianPrivacyLoss(num(a["sigma"]),
                                                          sensitivity=num(a["sensitivity"]))
        return {"delta": out(loss.get_delta_for_epsilon(num(a["eps"])))}

    def dg_delta(a: dict[str, Any]) -> dict[str, Any]:
        shift = single_shift(a["vector"])
        loss = privacy_loss_mechanism.DiscreteGaussianPrivacyLoss(num(a["sigma"]),
                                                                  sensitivity=abs(shift))
        return {"delta": out(loss.get_delta_for_epsilon(num(a["eps"])))}

    def gaussian_sigma(a: dict[str, Any]) -> dict[str, Any]:
        params = DifferentialPrivacyParameters(num(a["eps"]), num(a["delta"]))
        return {"sigma": out(accountant.get_smallest_gaussian_noise(
            params, 1, sensitivity=num(a["sensitivity"])))}

    def laplace_scale(a: dict[str, Any]) -> dict[str, Any]:
        params = DifferentialPrivacyParameters(num(a["eps"]), 0.0)
        return {"scale": out(accountant.get_smallest_laplace_noise(
            params, 1, sensitivity=num(a["sensitivity"])))}

    def rdp_to_dp(a: dict[str, Any]) -> dict[str, Any]:
        eps, _ = rdp_privacy_accountant.compute_epsilon([num(a["alpha"])], [num(a["rdp"])],
                                                        num(a["delta"]))
        return {"eps": out(eps)}

    def _rdp(q: float, sigma: float, orders: list[float], steps: int = 1) -> Any:
        acc = dp_accounting.rdp.RdpAccountant(orders=orders)
        acc.compose(dp_accounting.PoissonSampledDpEvent(q, dp_accounting.GaussianDpEvent(sigma)),
                    steps)
        return acc

    def sampled_rdp(a: dict[str, Any]) -> dict[str, Any]:
        acc = _rdp(num(a["q"]), num(a["sigma"]), [num(a["alpha"])])
        return {"rdp": out(acc._rdp[0])}

    def rdp_curve(a: dict[str, Any]) -> dict[str, Any]:
        acc = _rdp(num(a["q"]), num(a["sigma"]), [num(o) for o in a["orders"]])
        return {"rdp": [out(r) for r in acc._rdp]}

    def subsampled_eps(a: dict[str, Any]) -> dict[str, Any]:
        acc = _rdp(num(a["q"]), num(a["sigma"]), [num(o) for o in a["orders"]], integer(a["steps"]))
        eps, order = acc.get_epsilon_and_optimal_order(num(a["delta"]))
        return {"eps": out(eps), "order": out(order)}

    def subsampled_eps_named(a: dict[str, Any]) -> dict[str, Any]:
        if a.get("conversion") != "sa2":
            raise Unsupported("dp-accounting converts RDP by SA2 Thm 1 / [CKS20] only")
        return {"eps": subsampled_eps(a)["eps"]}

    def _composed(a: dict[str, Any]) -> Any:
        pld = privacy_loss_distribution.from_privacy_parameters(
            DifferentialPrivacyParameters(num(a["eps"]), num(a["delta"])))
        return pld.self_compose(integer(a["k"]))

    def opt_delta(a: dict[str, Any]) -> dict[str, Any]:
        return {"delta": out(_composed(a).get_delta_for_epsilon(num(a["epsTotal"])))}

    def opt_eps(a: dict[str, Any]) -> dict[str, Any]:
        return {"eps": out(_composed(a).get_epsilon_for_delta(num(a["deltaTotal"])))}

    def kfold(a: dict[str, Any]) -> dict[str, Any]:
        bounds = []
        for pessimistic in (False, True):
            pld = privacy_loss_distribution.from_gaussian_mechanism(
                num(a["sigma"]), sensitivity=num(a["sensitivity"]),
                pessimistic_estimate=pessimistic, value_discretization_interval=1e-3)
            bounds.append(pld.self_compose(integer(a["k"])).get_delta_for_epsilon(num(a["eps"])))
        return {"delta": {"lower": out(bounds[0]), "upper": out(bounds[1])}}

    def _subsampled(a: dict[str, Any], pessimistic: bool) -> Any:
        pld = privacy_loss_distribution.from_gaussian_mechanism(
            num(a["sigma"]), sampling_prob=num(a["q"]), pessimistic_estimate=pessimistic,
            value_discretization_interval=1e-4, use_connect_dots=pessimistic)
        return pld.self_compose(integer(a["steps"]))

    def sg_eps(a: dict[str, Any]) -> dict[str, Any]:
        lo, hi = (_subsampled(a, p).get_epsilon_for_delta(num(a["delta"])) for p in (False, True))
        return {"eps": {"lower": out(lo), "upper": out(hi)}}

    def sg_delta(a: dict[str, Any]) -> dict[str, Any]:
        lo, hi = (_subsampled(a, p).get_delta_for_epsilon(num(a["eps"])) for p in (False, True))
        return {"delta": {"lower": out(lo), "upper": out(hi)}}

    def advanced(a: dict[str, Any]) -> dict[str, Any]:
        k = integer(a["k"])
        total = k * num(a["delta"]) + num(a["deltaSlack"])
        eps = accountant.advanced_composition(
            DifferentialPrivacyParameters(num(a["eps"]), num(a["delta"])), k, total)
        if eps is None:
            raise ValueError("dp-accounting: advanced_composition returned None")
        return {"eps": out(eps), "delta": out(total)}

    return {
        "accounting.gaussian_delta": gaussian_delta,
        "accounting.discrete_gaussian_delta": dg_delta,
        "accounting.gaussian_sigma": gaussian_sigma,
        "accounting.rdp_to_dp": rdp_to_dp,
        "accounting.sampled_gaussian_rdp": sampled_rdp,
        "accounting.subsampled_gaussian_epsilon": subsampled_eps,
        "privacy.gaussian_mechanism_sigma": gaussian_sigma,
        "privacy.laplace_mechanism_scale": laplace_scale,
        "privacy.sampled_gaussian_rdp_curve": rdp_curve,
        "privacy.subsampled_gaussian_epsilon": subsampled_eps_named,
        "privacy.optimal_composition_delta": opt_delta,
        "privacy.optimal_composition_epsilon": opt_eps,
        "privacy.gaussian_kfold_delta": kfold,
        "privacy.subsampled_gaussian_optimal_epsilon": sg_eps,
        "privacy.subsampled_gaussian_optimal_delta": sg_delta,
        "privacy.advanced_composition": advanced,
    }


def serve_dp_accounting(stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> int:
    """The protocol loop (:func:`dpspec.conformance.adapters.protocol.serve`) over dp-accounting."""
    return serve(handlers(), implementation="dp-accounting", version=version_of("dp-accounting"),
                 modes=["exact"], stdin=stdin, stdout=stdout)


def main() -> int:
    try:
        import dp_accounting  # noqa: F401
    except ImportError:
        print("dp-accounting is not installed (pip install dp-accounting)", file=sys.stderr)
        return 2
    return serve_dp_accounting()


if __name__ == "__main__":
    sys.exit(main())
