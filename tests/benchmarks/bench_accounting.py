"""Benchmark of dpspec.spec.accounting, side by side with dp-accounting where it computes the
same quantity.

Run: ``.venv/bin/python tests/benchmarks/bench_accounting.py``. Each line is the best of
``REPEATS`` wall-clock runs (time.perf_counter). The first table puts dpspec beside Google's
dp-accounting (when installed) on the same quantity; the second lists dpspec's own figures with
their targets (every figure under 1 s, the exact RR curve at n = 10^6 under 10 s).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

from dpspec.spec.accounting import discrete, gaussian, shuffle, shuffle_mp, subsampling
from dpspec.spec.accounting.definitions import DEFAULT_ORDERS

REPEATS = 3 if "--quick" not in sys.argv else 1


def best(fn: Callable[[], Any]) -> float:
    times = []
    for _ in range(REPEATS):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def peers() -> None:
    """dpspec beside dp-accounting on the same quantities."""
    try:
        import dp_accounting
    except ImportError:
        print("dp-accounting is not installed: no side-by-side figures")
        return

    def rdp_peer(q: float, sigma: float, steps: int, delta: float) -> float:
        acc = dp_accounting.rdp.RdpAccountant()
        acc.compose(dp_accounting.PoissonSampledDpEvent(q, dp_accounting.GaussianDpEvent(sigma)),
                    steps)
        return float(acc.get_epsilon(delta))

    def pld_peer(q: float, sigma: float, steps: int, delta: float) -> float:
        acc = dp_accounting.pld.PLDAccountant(value_discretization_interval=1e-4)
        acc.compose(dp_accounting.PoissonSampledDpEvent(q, dp_accounting.GaussianDpEvent(sigma)),
                    steps)
        return float(acc.get_epsilon(delta))

    print(f"{'quantity':64} {'dpspec':>10} {'dp-acc RDP':>11} {'dp-acc PLD':>11}")
    for q, sigma, steps, delta in (("0.02", "5.1", 2500, "1e-8"), ("0.01", "1.1", 1000, "1e-5"),
                                   ("0.001", "0.8", 100000, "1e-6")):
        ours = best(lambda q=q, sigma=sigma, steps=steps, delta=delta:
                    subsampling.subsampled_gaussian_epsilon(q, sigma, steps, delta))
        rdp = best(lambda q=q, sigma=sigma, steps=steps, delta=delta:
                   rdp_peer(float(q), float(sigma), steps, float(delta)))
        pld = best(lambda q=q, sigma=sigma, steps=steps, delta=delta:
                   pld_peer(float(q), float(sigma), steps, float(delta)))
        name = f"subsampled Gaussian q {q}, sigma {sigma}, {steps} steps, eps at {delta}"
        print(f"{name:64} {ours * 1000:8.1f}ms {rdp * 1000:9.1f}ms {pld * 1000:9.1f}ms")
    print()


def main() -> int:
    peers()
    rows: list[tuple[str, float, float]] = []
    rows.append(("calibrate Gaussian sigma to 10 digits (eps 0.317, delta 1e-9, sqrt 2)",
                 best(lambda: gaussian.calibrate_gaussian_sigma("0.317", "1e-9", "sqrt(2)", 10)),
                 1.0))
    rows.append(("calibrate discrete Gaussian sigma to 10 digits (same, vector (1, -1))",
                 best(lambda: discrete.calibrate_discrete_gaussian_sigma("0.317", "1e-9", (1, -1),
                                                                         10)), 1.0))
    rows.append((f"compose 2500 subsampled-Gaussian steps (RDP, {len(DEFAULT_ORDERS)} orders, eps at 1e-8)",
                 best(lambda: subsampling.subsampled_gaussian_epsilon("0.02", "5.1", 2500,
                                                                      "1e-8")), 1.0))
    for n in (10**4, 10**5, 10**6):
        for bound in ("closed", "fmt20", "fmt22", "exact-rr"):
            target = 10.0 if (bound == "exact-rr" and n == 10**6) else 1.0
            rows.append((f"shuffle bound {bound:8} eps0 3, n {n:>7}, delta 1e-6",
                         best(lambda n=n, bound=bound: shuffle.shuffle_epsilon(3.0, n, 1e-6, bound)),
                         target))
    rows.append(("exact RR curve n 10^6, deletion neighbours, eps0 3",
                 best(lambda: shuffle.rr_sum_epsilon(3.0, 10**6, 1e-6, "deletion")), 10.0))
    for bound in ("fmt20", "fmt22"):
        rows.append((f"shuffle bound {bound}, eps0 1, n 10^9, delta 1e-6 (binary64 path)",
                     best(lambda bound=bound: shuffle.shuffle_epsilon(1.0, 10**9, 1e-6, bound)),
                     10.0))
        rows.append((f"shuffle bound {bound}, eps0 3, n 10^6, certified (mpmath)",
                     best(lambda bound=bound: shuffle_mp.clone_epsilon(
                         3.0, 10**6, "1e-6", bound,
                         estimate=shuffle.clone_epsilon(3.0, 10**6, 1e-6, bound).eps)), 10.0))
    rows.append(("exact symmetric-RAPPOR histogram curve n 10^5, eps0 5, delta 1e-9",
                 best(lambda: shuffle.rappor_histogram_epsilon(5.0, 10**5, 1e-9)), 1.0))
    failed = 0
    for name, t, target in rows:
        ok = t < target
        failed += not ok
        print(f"{name:72} {t * 1000:9.1f} ms  (target < {target:g} s) {'ok' if ok else 'MISSED'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
