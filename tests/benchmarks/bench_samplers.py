"""Benchmark of the discrete Gaussian and discrete Laplace samplers (issues 3 and 16).

Prints, for the discrete Gaussian with sigma in {1, 10, 100, 10^4} and the discrete Laplace with
t in {1, 10, 100}: the Shannon entropy of the distribution (the information-theoretic floor on
bits per sample), then samples per second and tape bits consumed per sample for three samplers
of the same distribution on the same tape: the lazy profile (dpspec.spec.samplers.core), the
rational-only profile (dpspec.spec.samplers.rational_only) and CKS20's Algorithms 2 and 3 as
published (uniform(t) draws from the tape, written here from the paper's pseudocode). Then the
seconds per sample of the count samplers at their cost limits (poisson, binomial, binomial_rr,
negative binomial and negative_binomial_exp at mean 10^6 or just below, binomial_textbook at
n = 10^6, negative binomial's compound steps at mean 10^4), cold and warm.

With ``--reference PATH`` (the file ``discretegauss.py`` of the public CKS20 reference
implementation, github.com/IBM/discrete-gaussian-differential-privacy; fetch it yourself, it is
not part of dpspec) the reference sampler runs beside it on the same machine, twice: with its
default generator (``random.SystemRandom``, which reads the OS for every draw) and with an
adapter whose ``randrange(m)`` is dpspec's ``tape.uniform(m)``, which makes the randomness
source identical and lets the bits it consumes be counted in the same unit. The speed ratio
reported is dpspec / reference (higher is better for dpspec).

Usage: ``.venv/bin/python tests/benchmarks/bench_samplers.py [--reference PATH] [--seconds S]
[--caps-only]``
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from dpspec.spec.samplers import (
    binomial,
    binomial_rr,
    binomial_textbook,
    discrete_gaussian,
    discrete_laplace,
    negative_binomial,
    negative_binomial_exp,
    poisson,
    rational_only,
)
from dpspec.spec.samplers.core import _bern_exp
from dpspec.spec.tape import RandomTape

SEED = bytes(range(32))


def dg_entropy(sigma: int) -> float:
    """Shannon entropy (bits) of N_Z(0, sigma^2), summed over |x| <= 12 sigma + 10 (float64)."""
    k = 12 * sigma + 10
    x = np.arange(-k, k + 1, dtype=np.float64)
    logw = -(x * x) / (2.0 * sigma * sigma)
    w = np.exp(logw - logw.max())
    p = w / w.sum()
    nz = p > 0
    return float(-(p[nz] * np.log2(p[nz])).sum())


def dlap_entropy(t: int) -> float:
    """Shannon entropy (bits) of the discrete Laplace with scale t (closed form)."""
    a = math.exp(-1.0 / t)
    # P[x] = c a^|x|, c = (1-a)/(1+a); H = -log2 c - log2(a) E|X|, E|X| = 2a / ((1-a)(1+a))
    c = (1 - a) / (1 + a)
    mean_abs = 2 * a / ((1 - a) * (1 + a))
    return -math.log2(c) - math.log2(a) * mean_abs


class TapeRng:
    """A ``random.Random``-like adapter: ``randrange(m)`` is dpspec's ``tape.uniform(m)``."""

    def __init__(self, tape: RandomTape) -> None:
        self.tape = tape

    def randrange(self, m: int) -> int:
        return self.tape.uniform(m)


def cks20_dlaplace(tape: RandomTape, t: int) -> int:
    """Algorithm 2 of [CKS20] for scale t = t/1 (integer), coins from the tape."""
    while True:
        u = tape.uniform(t)
        if not _bern_exp(tape, u, t):
            continue
        v = 0
        while _bern_exp(tape, 1, 1):
            v += 1
        y = u + t * v  # (u + t v) div s with s = 1
        b = tape.bits(1)
        if b and y == 0:
            continue
        return -y if b else y


def cks20_dgauss(tape: RandomTape, sigma2: int) -> int:
    """Algorithm 3 of [CKS20] for an integer sigma^2, over cks20_dlaplace."""
    t = math.isqrt(sigma2) + 1
    while True:
        y = cks20_dlaplace(tape, t)
        z = abs(y) * t - sigma2
        if _bern_exp(tape, z * z, 2 * t * t * sigma2):
            return y


def timed(fn: Callable[[], Any], seconds: float) -> tuple[int, float]:
    """Call ``fn`` repeatedly for about ``seconds``; (calls, elapsed)."""
    n, start = 0, time.perf_counter()
    batch = 16
    while True:
        for _ in range(batch):
            fn()
        n += batch
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return n, elapsed
        batch = min(batch * 2, 4096)


def load_reference(path: Path) -> ModuleType:
    import matplotlib

    matplotlib.use("Agg")  # the reference imports pyplot at module level
    spec = importlib.util.spec_from_file_location("cks20_reference", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reference", type=Path, default=None,
                        help="path to discretegauss.py of the CKS20 reference implementation")
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--caps-only", action="store_true",
                        help="only the count samplers at their cost limits")
    args = parser.parse_args()
    ref = load_reference(args.reference) if args.reference else None

    cases: list[tuple[str, int, int, float]] = []  # (kind, param for dpspec, sigma/t, entropy)
    for sigma in (1, 10, 100, 10**4):
        cases.append(("dgauss", sigma * sigma, sigma, dg_entropy(sigma)))
    for t in (1, 10, 100):
        cases.append(("dlaplace", t, t, dlap_entropy(t)))

    head = (f"{'distribution':<30}{'entropy':>8}{'lazy/s':>9}{'bits':>7}{'rational/s':>11}"
            f"{'bits':>7}{'cks20/s':>9}{'bits':>7}")
    if ref is not None:
        head += f"{'ref(Sys)/s':>12}{'ref(tape)/s':>13}{'ref bits':>10}{'speed x':>9}"
    print(head)
    print("-" * len(head))
    for kind, param, shown, entropy in [] if args.caps_only else cases:
        label = f"{'discrete Gaussian' if kind == 'dgauss' else 'discrete Laplace'} " + (
            f"sigma={shown}" if kind == "dgauss" else f"t={shown}")
        dg = kind == "dgauss"
        samplers: list[Callable[[RandomTape, int], Any]] = [
            discrete_gaussian if dg else discrete_laplace,
            rational_only.discrete_gaussian if dg else rational_only.discrete_laplace,
            cks20_dgauss if dg else cks20_dlaplace]
        line = f"{label:<30}{entropy:>8.2f}"
        rate = 0.0
        for i, ours in enumerate(samplers):
            tape = RandomTape(SEED, f"bench/{i}")
            n, dt = timed(lambda tape=tape, ours=ours, param=param: ours(tape, param),
                          args.seconds)
            line += f"{n / dt:>{9 if i != 1 else 11}.0f}{tape.bits_consumed / n:>7.2f}"
            rate = rate or n / dt
        if ref is not None:
            fn = ref.sample_dgauss if kind == "dgauss" else ref.sample_dlaplace
            import random

            sysrng = random.SystemRandom()
            n1, dt1 = timed(lambda fn=fn, param=param, r=sysrng: fn(param, rng=r), args.seconds)
            rtape = RandomTape(SEED, "bench-ref")
            trng = TapeRng(rtape)
            n2, dt2 = timed(lambda fn=fn, param=param, trng=trng: fn(param, rng=trng),
                            args.seconds)
            ref_rate = max(n1 / dt1, n2 / dt2)
            line += (f"{n1 / dt1:>12.0f}{n2 / dt2:>13.0f}{rtape.bits_consumed / n2:>10.2f}"
                     f"{rate / ref_rate:>9.2f}")
        print(line, flush=True)
    print()
    print("count samplers at their cost limits: seconds per sample, the first call (cold: it")
    print("includes the per-parameter set-up, bounds and plans) and the mean of the next ones")
    caps: list[tuple[str, Callable[[RandomTape], int]]] = [
        ("poisson lam=10^6", lambda t: poisson(t, 10**6)),
        ("binomial n=2*10^6 p=1/2", lambda t: binomial(t, 2 * 10**6, "1/2")),
        ("binomial n=10^12 p=10^-6", lambda t: binomial(t, 10**12, "1/1000000")),
        ("binomial_textbook n=10^6 p=1/2", lambda t: binomial_textbook(t, 10**6, "1/2")),
        ("binomial_rr n=2*10^6 eps=0", lambda t: binomial_rr(t, 2 * 10**6, 0)),
        ("binomial_rr n=3718281 eps=1", lambda t: binomial_rr(t, 3718281, 1)),
        ("binomial_rr n=22027465794 eps=10", lambda t: binomial_rr(t, 22027465794, 10)),
        ("negative_binomial r=10^6 p=1/2", lambda t: negative_binomial(t, 10**6, "1/2")),
        ("negative_binomial r=1/2 mean=10^4",
         lambda t: negative_binomial(t, "1/2", "20000/20001")),
        ("nb_exp r=1718281 gamma=1 (split)", lambda t: negative_binomial_exp(t, 1718281, 1)),
        ("nb_exp r=100 gamma=1e-4 (split)",
         lambda t: negative_binomial_exp(t, 100, "1/10000")),
        ("nb_exp r=99 gamma=1e-4 (blocks)", lambda t: negative_binomial_exp(t, 99, "1/10000")),
        ("nb_exp r=1 gamma=1e-6 (blocks)",
         lambda t: negative_binomial_exp(t, 1, "1/1000000")),
        ("nb_exp r=1/100 gamma=1e-8 (blocks)",
         lambda t: negative_binomial_exp(t, "1/100", "1/100000000")),
    ]
    print(f"{'':<38}{'first':>10}{'next':>12}{'bits':>12}")
    for label, fn in caps:
        tape = RandomTape(SEED, "bench/caps")
        start = time.perf_counter()
        fn(tape)
        first = time.perf_counter() - start
        n, start = 0, time.perf_counter()
        while n == 0 or time.perf_counter() - start < args.seconds:
            fn(tape)
            n += 1
        per = (time.perf_counter() - start) / n
        print(f"{label:<38}{first:>10.4f} s{per:>10.4f} s{tape.bits_consumed / (n + 1):>10.1f}",
              flush=True)
    if ref is not None:
        print("speed x = dpspec samples/s divided by the faster of the two reference runs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
