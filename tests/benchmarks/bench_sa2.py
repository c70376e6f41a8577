"""Benchmarks of dpspec.spec.sa2: the ideal functionality, tokens, one report end to end, a collection,
and the population-scale engine (devices per second at 10^4, 10^5, 10^6).

Run: ``.venv/bin/python tests/benchmarks/bench_sa2.py [--clients N] [--only population|protocol]
[--sizes 10000,100000,1000000] [--workers W]``. Prints wall-clock figures (time.perf_counter);
nothing is asserted (speed targets are measured here, never by timed tests).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from fractions import Fraction

from dpspec.spec.sa2 import ideal, protocol, tokens
from dpspec.spec.sa2.randomizers import Randomizer
from dpspec.spec.tape import RandomTape

SEED = bytes(range(32))


def timed(label: str, fn: Callable[[], object], per: int = 1, unit: str = "op") -> object:
    start = time.perf_counter()
    out = fn()
    dt = time.perf_counter() - start
    print(f"{label:58s} {dt:8.3f} s  ({dt / per * 1e3:8.3f} ms/{unit})")
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=100000)
    parser.add_argument("--q", default="1/50")
    parser.add_argument("--only", choices=["population", "protocol"], default=None)
    parser.add_argument("--sizes", default="10000,100000,1000000",
                        help="population engine: numbers of devices")
    parser.add_argument("--workers", type=int, default=1,
                        help="population engine: processes for the randomizers")
    args = parser.parse_args()
    if args.only != "protocol":
        population_engine(args)
    if args.only == "population":
        return

    n = 1_000_000
    timed(f"poisson_sample: {n} messages at q = 1/50", lambda: ideal.poisson_sample(
        n, "1/50", RandomTape(SEED, "b")), n, "msg")
    msgs = list(range(100_000))
    timed("fixed_size_aggregate: B = 10000 of 100000", lambda: ideal.fixed_size_aggregate(
        msgs, 10000, ideal.integer_sum(), RandomTape(SEED, "f")))

    dep = timed("provision (2048-bit issuer key, HPKE keys)", lambda: protocol.provision(SEED))
    assert isinstance(dep, protocol.Deployment)
    pk = dep.issuer_sk.public_key()
    att = tokens.Attester(tokens.Issuer(dep.issuer_sk))
    m = 200
    timed(f"token issuance (blind, sign, finalize): {m}", lambda: [
        tokens.obtain_token(f"d{i}", att, pk, bytes(32), RandomTape(SEED, f"t{i}"))
        for i in range(m)], m, "token")

    r = Randomizer("randomized_response", 8, Fraction(1, 2))
    doc = protocol.make_recipe(
        recipe_id="bench", task_id=bytes(32), randomizer=r, B=1000, q=Fraction(args.q),
        chunk_length=4, leader_pk=dep.leader_hpke.public_key,
        helper_pk=dep.helper_hpke.public_key, issuer_key=pk, epsilon=Fraction(1),
        delta=Fraction(1, 10**10))
    recipe, _ = protocol.check_recipe(doc, protocol.PrivacyBudget(Fraction(10), 1))
    vdaf = protocol.build_vdaf(recipe)
    data_tape = RandomTape(SEED, "data")
    data = [min(data_tape.uniform(8), data_tape.uniform(8)) for _ in range(args.clients)]
    res = timed(f"collection: {args.clients} clients, q = {args.q}, RR k = 8, Prio3Histogram",
                lambda: protocol.run_collection(recipe, dep, vdaf, data, SEED), args.clients,
                "client")
    assert isinstance(res, protocol.CollectionResult)
    print(f"  {res.participants} reports, {res.outcome.accepted} accepted, release {res.release}")


def population_engine(args: argparse.Namespace) -> None:
    """``dpspec sa2 simulate --engine population`` without the CLI: data, coins, release, audit."""
    from dpspec.spec.sa2 import population

    dep = timed("provision (2048-bit issuer key, HPKE keys)", lambda: protocol.provision(SEED))
    assert isinstance(dep, protocol.Deployment)
    r = Randomizer("randomized_response", 8, Fraction(1, 2))
    doc = protocol.make_recipe(
        recipe_id="bench", task_id=bytes(32), randomizer=r, B=100, q=Fraction(args.q),
        chunk_length=4, leader_pk=dep.leader_hpke.public_key,
        helper_pk=dep.helper_hpke.public_key, issuer_key=dep.issuer_sk.public_key(),
        epsilon=Fraction(10), delta=Fraction(1, 10**9))
    recipe, _ = protocol.check_recipe(doc, protocol.PrivacyBudget(Fraction(10), 1))
    vdaf = protocol.build_vdaf(recipe)
    import os

    print(f"population engine, RR k = 8, q = {args.q}, workers = {args.workers} "
          f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs):")
    print(f"{'devices':>10s} {'data s':>8s} {'release s':>10s} {'total s':>8s} "
          f"{'devices/s':>11s} {'participants':>12s}")
    for size in (int(x) for x in args.sizes.split(",")):
        t0 = time.perf_counter()
        data = population.synthetic_data(SEED, 8, size)
        t1 = time.perf_counter()
        res = population.release(recipe, dep, data, SEED, workers=args.workers)
        t2 = time.perf_counter()
        print(f"{size:10d} {t1 - t0:8.3f} {t2 - t1:10.3f} {t2 - t0:8.3f} "
              f"{size / (t2 - t0):11.0f} {res.participants:12d}")
    t0 = time.perf_counter()
    aud = population.audit(recipe, dep, vdaf, data, res.participant_index, SEED, 32)
    dt = time.perf_counter() - t0
    print(f"audit: full protocol for 32 participants {dt:.2f} s ({dt / 32 * 1e3:.1f} ms/device), "
          f"agrees: {aud.agrees}")


if __name__ == "__main__":
    main()
