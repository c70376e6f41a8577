"""A DP policy executed in a DAP-shaped task (sec. 5.2 of the DP draft, "TODO: Specify integration of
a DpPolicy into DAP"), over the SA2 simulation's client / leader / helper / collector path.

Where each hook of a :class:`~dpspec.spec.policies.base.DpPolicy` sits in a task's lifecycle
(docs/policies.md states it in the draft's words):

* **upload** (Client): ``encode_measurement`` then ``add_noise_to_measurement`` with the Client's
  own noise tape, *before* sharding; the noised measurement is what the Client shards and seals
  (:func:`dpspec.spec.sa2.protocol.client_report`), so the Aggregators verify the noised value;
* **aggregation job** (Leader and Helper): verification and ``agg_update`` of the accepted reports,
  exactly as without DP (:func:`dpspec.spec.sa2.protocol.aggregate_batch`); no DP hook runs here;
* **collection** (each Aggregator, then the Collector): once the batch is closed and at least the
  minimum batch size ``B`` was aggregated, each Aggregator calls ``add_noise_to_agg_share`` on its
  aggregate share with its own noise tape and ``meas_count`` = the number of reports in the batch,
  and only then sends the share; the Collector unshards with that ``meas_count`` and calls
  ``debias_agg_result``. Below ``B`` the Aggregators release nothing (no noise is drawn either).

:func:`run_policy_in_dap` runs this with the existing :mod:`dpspec.spec.sa2.protocol` API as is:
the SA2 recipe fixes the task (task id, ``B``, HPKE keys, token issuer) and its VDAF must be the
policy's; the policy's Client step takes the place of the recipe's randomizer. Coins: Client ``i``
draws its noise from ``RandomTape(seed, "dpspec/dap/client_noise/{i}")`` and its report from
``RandomTape(seed, "dpspec/dap/report/{i}")``, its token from ``"dpspec/dap/token/{i}"``; the
anonymizer uses ``"dpspec/dap/network"`` and ``"dpspec/dap/shuffle"``; Aggregator ``j`` draws its
noise from ``RandomTape(seed, "dpspec/dap/aggregator_noise/{j}")``. ``skip_noise`` models the
dishonest Aggregator of sec. 3.3.2 (:mod:`dpspec.spec.policies.corruption`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from dpspec.spec.policies.base import DpPolicy
from dpspec.spec.sa2 import protocol, tokens
from dpspec.spec.tape import RandomTape

TAGS = {
    "client_noise": "dpspec/dap/client_noise/{i}",
    "report": "dpspec/dap/report/{i}",
    "token": "dpspec/dap/token/{i}",
    "network": "dpspec/dap/network",
    "shuffle": "dpspec/dap/shuffle",
    "aggregator_noise": "dpspec/dap/aggregator_noise/{j}",
}


@dataclass
class DapRun:
    """What each party saw and sent."""

    noisy_measurements: list[Any] = field(default_factory=list)
    not_uploaded: list[int] = field(default_factory=list)        # Clients that could not shard
    outcome: protocol.BatchOutcome | None = None
    agg_shares: list[Any] = field(default_factory=list)          # before the DP hook
    noised_agg_shares: list[Any] = field(default_factory=list)   # what the Collector receives
    meas_count: int = 0
    agg_result: Any = None
    debiased_result: Any = None


def _same_vdaf(a: Any, b: Any) -> bool:
    """Same Prio3 variant, number of shares and circuit parameters."""
    va, vb = a.flp.valid, b.flp.valid
    return bool(type(a) is type(b) and type(va) is type(vb) and a.SHARES == b.SHARES
                and {k: v for k, v in vars(va).items() if isinstance(v, int)}
                == {k: v for k, v in vars(vb).items() if isinstance(v, int)})


def run_policy_in_dap(policy: DpPolicy, recipe: protocol.Recipe, dep: protocol.Deployment,
                      measurements: Sequence[Any], seed: bytes,
                      skip_noise: Collection[int] = ()) -> DapRun:
    """Upload, aggregation job and collection of one batch with ``policy`` (module docstring)."""
    vdaf = policy.vdaf
    if vdaf.SHARES != 2 or not _same_vdaf(vdaf, protocol.build_vdaf(recipe)):
        raise ValueError("the recipe's VDAF must be the policy's (two Aggregators)")
    protocol.check_deployment(recipe, dep)
    skipped = set(skip_noise)
    if any(isinstance(j, bool) or not isinstance(j, int) or not 0 <= j < 2 for j in skipped):
        raise ValueError("skip_noise lists Aggregator ids in [0, 2)")
    run = DapRun()
    # -- upload ------------------------------------------------------------------------------
    issuer = tokens.Issuer(dep.issuer_sk)
    attester = tokens.Attester(issuer)
    pk = dep.issuer_sk.public_key()
    reports = []
    for i, m in enumerate(measurements):
        meas = policy.encode_measurement(m)
        noisy = policy.add_noise_to_measurement(
            meas, RandomTape(seed, TAGS["client_noise"].format(i=i)))
        run.noisy_measurements.append(noisy)
        tok = tokens.obtain_token(f"client-{i}", attester, pk, recipe.task_id,
                                  RandomTape(seed, TAGS["token"].format(i=i)))
        try:
            reports.append(protocol.client_report(recipe, vdaf, noisy, tok,
                                                  RandomTape(seed, TAGS["report"].format(i=i))))
        except ValueError:  # e.g. a noised multi-hot vector above max_weight: not uploaded
            run.not_uploaded.append(i)
    delivered, _ = protocol.anonymize(reports, Fraction(0), RandomTape(seed, TAGS["network"]),
                                      RandomTape(seed, TAGS["shuffle"]))
    # -- aggregation job -----------------------------------------------------------------------
    task = protocol.TaskConfig(recipe.task_id, recipe.B, dep.verify_key, pk)
    leader = protocol.Aggregator(protocol.ROLE_LEADER, task, dep.leader_hpke.private_key, vdaf)
    helper = protocol.Aggregator(protocol.ROLE_HELPER,
                                 protocol.TaskConfig(recipe.task_id, recipe.B, dep.verify_key, pk),
                                 dep.helper_hpke.private_key, vdaf)
    outcome = protocol.aggregate_batch(leader, helper, delivered)
    run.outcome = outcome
    run.meas_count = outcome.accepted
    if outcome.leader_share is None or outcome.helper_share is None:
        return run  # below B: nothing is released, no noise is drawn
    shares: list[Any] = [outcome.leader_share, outcome.helper_share]
    # -- collection ----------------------------------------------------------------------------
    run.agg_shares = [list(s) for s in shares]
    for j, share in enumerate(shares):
        if j in skipped:
            run.noised_agg_shares.append(list(share))
            continue
        tape = RandomTape(seed, TAGS["aggregator_noise"].format(j=j))
        run.noised_agg_shares.append(policy.add_noise_to_agg_share(list(share), run.meas_count,
                                                                   tape))
    run.agg_result = vdaf.unshard(None, run.noised_agg_shares, run.meas_count)
    run.debiased_result = policy.debias_agg_result(run.agg_result, run.meas_count)
    return run
