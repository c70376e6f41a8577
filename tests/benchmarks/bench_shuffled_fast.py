"""Benchmark: the fast (discrete compound Poisson) histogram randomizer of [GKMP20] sec. 1.2
against the O(B) textbook randomizer (dpspec.spec.shuffled.fast, dpspec.spec.shuffled.histogram).

Run: .venv/bin/python tests/benchmarks/bench_shuffled_fast.py

Mechanism: the correlated mechanism of the shuffled vectors (d1 = d2 = NB(1, 43/100),
d3 = NB(27/10, 987/1000)) among n = 10^4 users, for B = 10 ... 10^5 buckets. Prints per B the mean
time of one user's randomizer in each form, the expected messages per user and the expected
compound-Poisson points (the fast form's loop count).
"""

from __future__ import annotations

import hashlib
import time
from fractions import Fraction

from dpspec.spec.shuffled.counting import CorrelatedMechanism
from dpspec.spec.shuffled.divisible import NegativeBinomial
from dpspec.spec.shuffled.fast import expected_messages, expected_points, randomize_fast
from dpspec.spec.shuffled.histogram import HistogramMechanism
from dpspec.spec.tape import RandomTape


def per_user(fn: object, mech: HistogramMechanism, users: int) -> float:
    assert callable(fn)
    start = time.perf_counter()
    for i in range(users):
        seed = hashlib.sha256(f"bench fast {i}".encode()).digest()
        fn(mech, i % mech.buckets, RandomTape(seed, "bench"))
    return (time.perf_counter() - start) / users


def main() -> None:
    a = Fraction(43, 100)
    corr = CorrelatedMechanism(NegativeBinomial(1, a), NegativeBinomial(1, a),
                               NegativeBinomial(Fraction(27, 10), Fraction(987, 1000)), 10_000)
    print(f"{'B':>8} {'E[messages]':>12} {'E[points]':>10} {'fast (us)':>11} {'O(B) (us)':>11}")
    for b in (10, 100, 1000, 10_000, 100_000):
        mech = HistogramMechanism(corr, b)
        fast = per_user(randomize_fast, mech, 200)
        slow_users = max(2, 2000 // b)
        slow = per_user(lambda m, x, t: m.randomize(x, t), mech, slow_users)
        print(f"{b:>8} {float(expected_messages(mech)):>12.3f} {float(expected_points(mech)):>10.3f}"
              f" {fast * 1e6:>11.1f} {slow * 1e6:>11.1f}")


if __name__ == "__main__":
    main()
