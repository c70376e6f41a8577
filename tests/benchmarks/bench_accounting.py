"""Benchmark of dpspec.spec.accounting, side by side with dp-accounting where it computes the
same quantity.

Run: ``.venv/bin/python tests/benchmarks/bench_accounting.py [--fmt20-code DIR] [--shuffle-only]``.
Each line is the best of ``REPEATS`` wall-clock runs (time.perf_counter). The first table puts
dpspec beside Google's dp-accounting (when installed) on the same quantity; the second puts the
shuffle clone bounds beside the [FMT20] reference code (a checkout of
github.com/apple/ml-shuffling-amplification given as DIR; one run each, in a child process with a
time limit); the third lists dpspec's own figures with their targets (every figure under 1 s, the
exact RR curve at n = 10^6 under 10 s).
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


def dpspec_clone(eps0: str, n: int, delta: str, variant: str) -> str:
    """What ``dpspec account shuffle --bound fmt20|fmt22`` computes: the binary64 search for a
    starting point, then the certified smallest 10-digit epsilon (mpmath/fixed point)."""
    est = shuffle.clone_epsilon(float(eps0), n, float(delta), variant).eps
    return shuffle_mp.clone_epsilon(eps0, n, delta, variant, estimate=est)


#: the FMT20 reference code gets this long per call (it runs in a child process)
PEER_SECONDS = 300


def fmt20_peer(folder: str, eps0: str, n: int, delta: str) -> tuple[str, float | None]:
    """(epsilon, seconds) of ``numericalanalysis`` of the [FMT20] reference code
    (github.com/apple/ml-shuffling-amplification, not part of dpspec: pass a checkout with
    ``--fmt20-code DIR``) with its example's settings: 10 bisection steps, blocks of 100 clone
    counts, upper bound. None when it takes over PEER_SECONDS."""
    import subprocess

    code = ("import sys, time\n"
            f"sys.path.insert(0, {folder!r})\n"
            "import computeamplification as ca\n"
            "t = time.perf_counter()\n"
            f"r = ca.numericalanalysis({n}, {float(eps0)!r}, {float(delta)!r}, 10, 100, True)\n"
            "print(r, time.perf_counter() - t)\n")
    try:
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             timeout=PEER_SECONDS, check=True).stdout.split()
    except subprocess.TimeoutExpired:
        return "-", None
    return out[0], float(out[1])


def shuffle_peers(folder: str | None) -> None:
    """The clone bounds beside the [FMT20] reference code. It computes the fmt20 bound only (no
    peer computes fmt22: its figures are dpspec's alone), to about 3 digits (10 bisection steps,
    a block bound over 100 clone counts at a time), in binary64."""
    dpspec_clone("1", 100, "1e-6", "fmt20")  # imports (scipy) outside the timings
    print(f"{'shuffle, eps at delta (eps0, n, delta)':44} {'dpspec fmt20':>26} "
          f"{'dpspec fmt22':>26} {'FMT20 reference code':>30}")
    for eps0, n, delta in (("4", 10**4, "1e-10"), ("3", 10**6, "1e-6"), ("1", 10**8, "1e-9"),
                           ("1", 10**9, "1e-9")):
        cells = []
        for variant in ("fmt20", "fmt22"):
            t0 = time.perf_counter()
            value = dpspec_clone(eps0, n, delta, variant)
            cells.append(f"{value} {time.perf_counter() - t0:7.2f} s")
        peer = "(no --fmt20-code DIR)"
        if folder is not None:
            value, seconds = fmt20_peer(folder, eps0, n, delta)
            peer = (f"{float(value):.6g} {seconds:7.2f} s" if seconds is not None
                    else f"over {PEER_SECONDS} s")
        name = f"eps0 {eps0}, n {n:.0e}, delta {delta}"
        print(f"{name:44} {cells[0]:>26} {cells[1]:>26} {peer:>30}", flush=True)
    print()


def main() -> int:
    folder = sys.argv[sys.argv.index("--fmt20-code") + 1] if "--fmt20-code" in sys.argv else None
    if "--shuffle-only" in sys.argv:
        shuffle_peers(folder)
        return 0
    peers()
    shuffle_peers(folder)
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
        rows.append((f"shuffle bound {bound}, eps0 1, n 10^9, delta 1e-6, certified",
                     best(lambda bound=bound: dpspec_clone("1", 10**9, "1e-6", bound)), 30.0))
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
