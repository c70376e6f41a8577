"""Benchmark of the shuffled-model mechanisms of [GKMP20] (dpspec.spec.shuffled).

Run: .venv/bin/python tests/benchmarks/bench_shuffled.py

Prints, for the parameters of the paper's headline setting (eps = 1, delta = 1e-6, n = 10^4):
the time of one user's randomizer (correlated, Poisson, histogram over B = 10 buckets), of a whole
protocol run with n users, of the analyzer, and of the parameter selection (exact design of the
correlated mechanism, exact Poisson lambda, the full comparison table); and the certified
expected l-infinity error of B-ary randomized response for the slowest rows of the sec. 5.2
error-growth experiment (Zipf data, and the point mass's exact refinement).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable

import mpmath

from dpspec.spec.shuffled import privacy
from dpspec.spec.shuffled.bary_linf import bary_rr_expected_linf
from dpspec.spec.shuffled.compare import binary_comparison, correlated_design, poisson_design
from dpspec.spec.shuffled.counting import TAG_CORRELATED, TAG_DISTRIBUTED, Messages, run_protocol
from dpspec.spec.shuffled.histogram import TAG_HISTOGRAM, HistogramMechanism
from dpspec.spec.tape import RandomTape

EPS, DELTA, N = mpmath.mpf(1), mpmath.mpf("1e-6"), 10_000


def timed(label: str, fn: Callable[[], object], repeat: int = 1) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    per = (time.perf_counter() - start) / repeat
    unit = f"{per * 1e6:10.1f} us" if per < 1e-2 else f"{per:10.3f} s "
    print(f"{label:62} {unit}")
    return per


def seeds(label: str, count: int) -> list[bytes]:
    return [hashlib.sha256(f"bench {label} {i}".encode()).digest() for i in range(count)]


def main() -> None:
    print(f"parameters: eps = 1, delta = 1e-6, n = {N}")
    timed("exact correlated design (D3 by the exact privacy curve)",
          lambda: correlated_design(EPS, DELTA, N, "exact"))
    timed("Theorem 18 + 13 correlated design",
          lambda: correlated_design(EPS, DELTA, N, "theorem"))
    timed("exact minimal Poisson lambda", lambda: poisson_design(EPS, DELTA, N, "exact"))
    timed("full binary comparison table (6 rows)", lambda: binary_comparison(EPS, DELTA, N))
    from dpspec.spec.shuffled.histogram_experiment import synthetic_counts

    for b, dist in [(128, "zipf"), (2048, "uniform"), (128, "point"), (2048, "point")]:
        gamma, _ = privacy.bary_rr_blanket(1.0, 1e-6, N, b)
        counts = synthetic_counts(dist, N, b)
        timed(f"B-ary RR E[l-inf] interval, B = {b}, {dist}",
              lambda g=gamma, b=b, c=counts: bary_rr_expected_linf(g, b, N, c))

    corr = correlated_design(EPS, DELTA, N, "exact").mechanism()
    pois = poisson_design(EPS, DELTA, N, "exact").mechanism()
    users = seeds("user", 2000)
    it = iter(users)
    per_corr = timed("correlated randomizer, one user (Algorithm 3)",
                     lambda: corr.randomize(1, RandomTape(next(it), TAG_CORRELATED)), 2000)
    it = iter(users)
    timed("Poisson randomizer, one user (Algorithm 1)",
          lambda: pois.randomize(1, RandomTape(next(it), TAG_DISTRIBUTED)), 2000)
    hist = HistogramMechanism(correlated_design(EPS / 2, DELTA / 2, N, "exact").mechanism(), 10)
    it = iter(users)
    timed("histogram randomizer, B = 10, one user",
          lambda: hist.randomize(3, RandomTape(next(it), TAG_HISTOGRAM)), 1000)
    timed("correlated analyzer (Algorithm 4)", lambda: corr.analyze(Messages(5040, 400)), 10000)
    inputs = [i % 2 for i in range(N)]
    tapes_seeds = seeds("run", N)
    timed(f"whole correlated protocol, n = {N} users (seeding included)",
          lambda: run_protocol(corr, inputs, [RandomTape(s, TAG_CORRELATED) for s in tapes_seeds]))
    print(f"=> {1 / per_corr:,.0f} correlated user reports per second")


if __name__ == "__main__":
    main()
