"""Benchmark of symmetric RAPPOR (efficient vs textbook) and of full policy runs (issue 5).

Part 1: time per report of ``SymmetricRappor.add_noise`` (efficient form: geometric skipping, cost
~ expected flips) and ``SymmetricRapporTextbook.add_noise`` (one exact ``bernoulli_rr`` per
coordinate) on a one-hot vector, for dimension 10^3, 10^5, 10^6 and EPSILON_0 in {1, 5, 8}; also
the sparse form ``flip_positions`` (no dense vector). The efficient form's first call for an
EPSILON_0 builds its enclosure table; it is excluded (one warm-up call), as a Client would reuse
the mechanism. Requirement: efficient >= 50x faster than textbook at d = 10^5, EPSILON_0 = 5.

Part 2: a full policy run per report (client noise, shard, verify, aggregate, Aggregator noise,
unshard, debias) for histograms of length 100 and 10000, for the client-randomization policy
(EPSILON_0 = 5) and the Aggregator-randomization policy (sigma^2 given), with the share of the
time spent in the DP steps.

Usage: ``.venv/bin/python tests/benchmarks/bench_mechanisms.py [--quick]``
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from dpspec.spec.mechanisms import SymmetricRappor, SymmetricRapporTextbook
from dpspec.spec.policies import (
    HistogramWithAggregatorRandomization,
    MultiHotHistogramWithClientRandomization,
    PolicyRandomness,
    run_vdaf_with_dp_policy,
)
from dpspec.spec.tape import RandomTape

SEED = bytes(range(32))


def per_call(fn: Callable[[], Any], min_seconds: float, max_calls: int) -> float:
    """Mean seconds per call over at least ``min_seconds`` (or ``max_calls`` calls)."""
    calls, start = 0, time.perf_counter()
    while True:
        fn()
        calls += 1
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds or calls >= max_calls:
            return elapsed / calls


def fmt(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:8.2f} s "
    if seconds >= 1e-3:
        return f"{seconds * 1e3:8.2f} ms"
    return f"{seconds * 1e6:8.1f} us"


def bench_rappor(quick: bool) -> None:
    dims = [10**3, 10**5] if quick else [10**3, 10**5, 10**6]
    print("Symmetric RAPPOR, time per report (one-hot input)")
    print(f"{'d':>8} {'eps0':>5} {'flips':>8} {'efficient':>11} {'sparse':>11} {'textbook':>11}"
          f" {'speed-up':>9}")
    for d in dims:
        data = [0] * d
        data[d // 2] = 1
        for eps0 in (1, 5, 8):
            eff, book = SymmetricRappor(eps0), SymmetricRapporTextbook(eps0)
            tape = RandomTape(SEED, "bench/eff")
            eff.add_noise(data, tape)  # warm-up: builds the enclosure table
            t_eff = per_call(lambda e=eff, t=tape, x=data: e.add_noise(x, t), 0.5, 10_000)
            t_sparse = per_call(lambda e=eff, t=tape, n=d: e.flip_positions(n, t), 0.5, 10_000)
            btape = RandomTape(SEED, "bench/book")
            t_book = per_call(lambda b=book, t=btape, x=data: b.add_noise(x, t),
                              0.2 if d >= 10**6 else 1.0, 1 if d >= 10**6 else 1000)
            flips = d * float(eff.flip_probability())
            print(f"{d:>8} {eps0:>5} {flips:>8.0f} {fmt(t_eff)} {fmt(t_sparse)} {fmt(t_book)}"
                  f" {t_book / t_eff:>8.0f}x")


def bench_policies(quick: bool) -> None:
    print()
    print("Full policy run, time per report (shard, verify, aggregate, noise, unshard, debias)")
    print(f"{'policy':<32} {'length':>6} {'reports':>7} {'per report':>11} {'DP steps':>9}")
    lengths = [100] if quick else [100, 10000]
    for length in lengths:
        n = 20 if length <= 100 else 3
        meas = [i % length for i in range(n)]
        policies: list[Any] = [
            MultiHotHistogramWithClientRandomization(length=length, eps0=5),
            HistogramWithAggregatorRandomization(length=length, sigma2=1000),
        ]
        for pol in policies:
            r = PolicyRandomness.derive(SEED, pol.vdaf, n)
            start = time.perf_counter()
            tr = run_vdaf_with_dp_policy(pol, pol.vdaf, b"bench", None, meas, r)
            total = time.perf_counter() - start
            # the DP steps alone, re-run on the same inputs
            start = time.perf_counter()
            for i, m in enumerate(meas):
                pol.add_noise_to_measurement(pol.encode_measurement(m),
                                             RandomTape(r.client_noise_seeds[i], pol.CLIENT_TAG))
            for j, s in enumerate(tr.agg_shares):
                pol.add_noise_to_agg_share(list(s), tr.meas_count,
                                           RandomTape(r.aggregator_noise_seeds[j], pol.AGGREGATOR_TAG))
            pol.debias_agg_result(tr.agg_result, tr.meas_count)
            dp = time.perf_counter() - start
            print(f"{pol.NAME:<32} {length:>6} {n:>7} {fmt(total / n)} {100 * dp / total:>8.1f}%")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip dimension 10^6 and length 10000")
    args = parser.parse_args()
    bench_rappor(args.quick)
    bench_policies(args.quick)


if __name__ == "__main__":
    main()
