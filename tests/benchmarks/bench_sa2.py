"""Benchmarks of dpspec.spec.sa2: the ideal functionality, tokens, one report end to end, a collection.

Run: ``.venv/bin/python tests/benchmarks/bench_sa2.py [--clients N]``. Prints wall-clock figures;
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
    args = parser.parse_args()

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


if __name__ == "__main__":
    main()
