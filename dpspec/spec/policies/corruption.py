"""An Aggregator that skips its noise: what remains of each policy's guarantee (sec. 3.3.2 of the
DP draft, its TODO issue#15).

The attack. In the OAOC trust model (sec. 3.3.2) one Aggregator, the Collector and all Clients but
one may be corrupted. A corrupted Aggregator running an Aggregator-randomization policy can send
its aggregate share without ``add_noise_to_agg_share``. VDAF verification checks reports, not
aggregate shares, so nobody notices: the Collector unshards and debiases as usual. The run is
modelled by ``run_vdaf_with_dp_policy(..., skip_noise=S)`` (:mod:`dpspec.spec.policies.base`);
:func:`skipped_noise_guarantee` states, for a set ``S`` of skipping Aggregators, what the
Collector receives and which guarantee remains, for every policy of :mod:`dpspec.spec.policies`.

The views. Two viewers matter:

``attacker``
    the Collector together with every skipping Aggregator (the coalition the trust model allows).
    It sees the unsharded result, which holds the noise of the ``h = SHARES - |S|`` honest
    Aggregators only. While ``h >= 1`` one full copy of the noise is independent of its view, and
    the sum of several independent copies is a post-processing of one copy plus independent noise,
    so the policy's single-Aggregator guarantee stands (the draft's OAOC claim survives the attack).
    With ``h = 0`` nothing is added: the Collector learns the exact aggregate.
``honest_aggregator_keeping_noise``
    an honest Aggregator ``j`` that kept its own noise vector ``Z_j`` and later learns the result
    (e.g. it is published). It can subtract ``Z_j``; if it was the only honest Aggregator
    (``h = 1``) it recovers the exact aggregate. This is the "attack" the draft's TODO describes.
    It is irrelevant to the DP claim because the honest Aggregator is not part of the attacker;
    the honest party's remedy is to erase ``Z_j`` (its noise seed) once its share is sent, which
    the reference does by taking the noise from a tape that the caller discards.

Policies without Aggregator noise (sec. 6.1.1) are unaffected: the attack is a no-op. The App.
B.1 hybrid is affected in utility only while one Aggregator stays honest (its fill alone covers the
shortfall, but the Collector debiases as if every Aggregator filled, which biases every bucket by
``-k * missing / (e^EPSILON_0 - 1)`` in expectation for ``k`` skipping Aggregators); with every
Aggregator skipping, the guarantee falls back to that of the ``n`` honest Clients.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import mpmath

from dpspec.spec.mechanisms.additive import DiscreteGaussianMechanism
from dpspec.spec.policies.base import AggregatorNoisePolicy, DpPolicy
from dpspec.spec.policies.histogram import (
    MultiHotHistogramWithClientRandomization,
    MultiHotHistogramWithClientRandomizationAndFill,
)

#: Statement for an exact aggregate (no DP beyond the VDAF's "aggregate only" property).
NO_DP = ("none: the Collector receives the exact aggregate; only the VDAF's property (nothing "
         "beyond the aggregate is revealed) remains")


def _skipping(policy: DpPolicy, skip_noise: Collection[int]) -> list[int]:
    shares = policy.vdaf.SHARES
    skipped = sorted(set(skip_noise))
    if any(isinstance(j, bool) or not isinstance(j, int) or not 0 <= j < shares for j in skipped):
        raise ValueError(f"skip_noise lists Aggregator ids in [0, {shares})")
    return skipped


def _noise_sd(mechanism: Any, copies: int) -> str:
    """Standard deviation of the sum of ``copies`` independent noise draws (8 digits)."""
    with mpmath.workdps(30):
        if isinstance(mechanism, DiscreteGaussianMechanism):
            s2 = mechanism.sigma2
            # the discrete Gaussian's variance is below sigma^2 (Corollary 9 of [CKS20])
            var = mpmath.mpf(s2.numerator) / s2.denominator
            return "<= " + str(mpmath.nstr(mpmath.sqrt(copies * var), 8))
        t = mpmath.mpf(mechanism.scale.numerator) / mechanism.scale.denominator
        q = mpmath.exp(-1 / t)  # discrete Laplace variance 2q / (1 - q)^2
        return str(mpmath.nstr(mpmath.sqrt(copies * 2 * q / (1 - q) ** 2), 8))


def fill_bias(policy: MultiHotHistogramWithClientRandomizationAndFill, meas_count: int,
              skipping: int) -> Any:
    """Expected error of every debiased bucket of the App. B.1 hybrid when ``skipping``
    Aggregators leave out their fill: ``-skipping * missing / (e^EPSILON_0 - 1)`` (an mpmath real).

    Derivation: a fill vector is the response to the all-zero vector, each coordinate 1 with
    probability ``p = 1/(e^eps0 + 1)``. The Collector debiases ``((e^eps0 + 1) S - N) / (e^eps0 - 1)``
    with ``N = n + SHARES * missing``; each omitted fill lowers ``E[S]`` by ``p`` but not ``N``,
    so the estimate drops by ``(e^eps0 + 1) p / (e^eps0 - 1) = 1 / (e^eps0 - 1)`` per omitted
    vector.
    """
    missing = policy.missing(meas_count)
    with mpmath.workdps(40):
        e = mpmath.exp(mpmath.mpf(policy.rappor.eps0.numerator) / policy.rappor.eps0.denominator)
        return -skipping * missing / (e - 1)


def skipped_noise_guarantee(policy: DpPolicy, meas_count: int, skip_noise: Collection[int],
                            numeric: bool = True) -> dict[str, Any]:
    """What remains when the Aggregators in ``skip_noise`` skip ``add_noise_to_agg_share``.

    Keys: ``skipping`` and ``honest`` (Aggregator ids), ``collector_receives`` (what the unsharded
    result holds), ``attacker`` (the guarantee against the Collector with the skipping Aggregators),
    ``honest_aggregator_keeping_noise`` (against an honest Aggregator that kept its noise and sees
    the result), ``utility`` (the effect on the debiased result). ``numeric`` is passed to the
    policy's own :meth:`~dpspec.spec.policies.base.DpPolicy.guarantee`.
    """
    skipped = _skipping(policy, skip_noise)
    honest = [j for j in range(policy.vdaf.SHARES) if j not in skipped]
    out: dict[str, Any] = {"skipping": skipped, "honest": honest}
    if isinstance(policy, MultiHotHistogramWithClientRandomizationAndFill):
        missing = policy.missing(meas_count)
        out["collector_receives"] = (
            f"the sum of the {meas_count} Clients' randomized responses and {len(honest)} x "
            f"{missing} fill vectors (one batch of {missing} per honest Aggregator)")
        if missing == 0 or honest:
            out["attacker"] = policy.guarantee(meas_count, numeric)
            out["attacker"]["note"] = (
                "unchanged: any one honest Aggregator's fill brings the batch to target_count "
                "randomized responses per coordinate")
        else:
            base = MultiHotHistogramWithClientRandomization.guarantee(policy, meas_count, numeric)
            base["note"] = (f"degraded: no fill was added, so the amplification is over the "
                            f"{meas_count} honest Clients only, not target_count = "
                            f"{policy.target_count}")
            out["attacker"] = base
        out["honest_aggregator_keeping_noise"] = (
            "as for the attacker, minus that Aggregator's own fill: the Clients' responses (and "
            "other honest fills) still protect every Client; local DP always holds")
        bias = fill_bias(policy, meas_count, len(skipped))
        out["utility"] = {"expected_bias_per_bucket": mpmath.nstr(bias, 12),
                          "detail": "the Collector debiases as if every Aggregator filled"}
        return out
    if isinstance(policy, MultiHotHistogramWithClientRandomization):
        out["collector_receives"] = (f"the sum of the {meas_count} Clients' randomized responses, "
                                     "exactly as in an honest run (no Aggregator noise to skip)")
        out["attacker"] = policy.guarantee(meas_count, numeric)
        out["attacker"]["note"] = "unchanged: the policy has no Aggregator randomization"
        out["honest_aggregator_keeping_noise"] = "unchanged (no Aggregator noise)"
        out["utility"] = {"expected_bias_per_bucket": "0", "detail": "unchanged"}
        return out
    if isinstance(policy, AggregatorNoisePolicy):
        out["collector_receives"] = (
            f"the true aggregate plus {len(honest)} independent noise vector(s) "
            f"({policy.mechanism.guarantee()} each), one per honest Aggregator")
        if honest:
            out["attacker"] = policy.guarantee(meas_count, numeric)
            out["attacker"]["note"] = (
                f"unchanged: the noise of the {len(honest)} honest Aggregator(s) is independent of "
                "the attacker's view; one copy gives the stated guarantee, more is post-processing")
        else:
            out["attacker"] = {"trust_model": "violated (no honest Aggregator)", "note": NO_DP}
        if len(honest) == 1:
            out["honest_aggregator_keeping_noise"] = (
                f"none for Aggregator {honest[0]} if it keeps its noise and sees the result: "
                "subtracting its noise leaves the exact aggregate (issue#15); it must erase its "
                "noise seed after sending its share")
        elif honest:
            out["honest_aggregator_keeping_noise"] = (
                f"the mechanism's guarantee with the noise of the other {len(honest) - 1} honest "
                "Aggregator(s)")
        else:
            out["honest_aggregator_keeping_noise"] = "no honest Aggregator"
        out["utility"] = {"expected_bias_per_bucket": "0",
                          "detail": (f"unbiased; the noise has {len(honest)} copies instead of "
                                     f"{policy.vdaf.SHARES}"),
                          "noise_sd_per_coordinate": _noise_sd(policy.mechanism, len(honest))}
        return out
    raise ValueError(f"no corruption analysis for policy {policy.NAME!r}")
