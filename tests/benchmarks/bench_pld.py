"""Certified PLD bounds of the subsampled Gaussian: time, width, and the RDP value beside them.

Run: ``python tests/benchmarks/bench_pld.py`` (about a minute). For each setting it prints the
certified eps interval (dpspec.spec.accounting.pld), its relative width, the wall-clock time
(best of one, ``time.perf_counter``), the moments accountant's eps (RDP, dpspec.spec.accounting
.subsampling) and whether the certified upper end is at most the RDP value. That ordering is
reported, not asserted: RDP is a valid upper bound on the optimum, but the certified upper end
is only guaranteed to be above the optimum, not below RDP (it is, by far, on these settings).
"""

from __future__ import annotations

import time

from dpspec.spec.accounting import pld, subsampling

SETTINGS = [
    ("0.02", "5.1", 2500, "1e-8"),
    ("0.02", "5.1", 2500, "1e-15"),
    ("0.01", "1.1", 1000, "1e-5"),
    ("0.005", "1.5", 10000, "1e-6"),
    ("1", "2", 10, "1e-6"),
    ("0.1", "0.6", 10, "1e-5"),
]


def main() -> None:
    print("q, sigma, steps, delta | certified eps [lower, upper] | rel. width | s | RDP eps | "
          "upper <= RDP")
    for q, sigma, steps, delta in SETTINGS:
        t0 = time.perf_counter()
        lo, hi = pld.epsilon_bounds(q, sigma, steps, delta)
        seconds = time.perf_counter() - t0
        rdp, _ = subsampling.subsampled_gaussian_epsilon(q, sigma, steps, delta)
        width = float((hi - lo) / hi) if hi else float("inf")
        below = hi is not None and float(hi) <= float(rdp)
        print(f"{q}, {sigma}, {steps}, {delta} | [{pld.decimal_bound(lo, 8, up=False)}, "
              f"{pld.decimal_bound(hi, 8, up=True)}] | {width:.2g} | {seconds:.1f} | "
              f"{float(rdp):.6f} | {below}")


if __name__ == "__main__":
    main()
