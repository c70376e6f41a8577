"""Harness throughput: protocol round trips per second and statistical samples per second.

Run: ``.venv/bin/python tests/benchmarks/bench_harness.py``. Prints one line per measurement;
adapters that are not installed here are listed as skipped.
"""

from __future__ import annotations

import time

from dpspec.conformance.harness.adapters import bundled
from dpspec.conformance.harness.process import AdapterProcess

ROUND_TRIPS = 2000
SAMPLES = 50_000


def round_trips(name: str) -> None:
    spec = bundled()[name]
    if spec.missing() is not None:
        print(f"{name:14} round trips: skipped ({spec.missing()})")
        return
    args = {"seed": "00" * 32, "tag": "bench", "n": "1000", "count": 1}
    with AdapterProcess(spec.command) as proc:
        proc.request("capabilities", {})
        start = time.perf_counter()
        for _ in range(ROUND_TRIPS):
            proc.request("tape.uniform", args)
        elapsed = time.perf_counter() - start
    print(f"{name:14} {ROUND_TRIPS / elapsed:8.0f} tape.uniform round trips/s "
          f"({elapsed / ROUND_TRIPS * 1e6:.0f} us each)")


def sampling(name: str, op: str, args: dict[str, object]) -> None:
    spec = bundled()[name]
    if spec.missing() is not None:
        print(f"{name:14} {op}: skipped ({spec.missing()})")
        return
    with AdapterProcess(spec.command, timeout=120.0) as proc:
        caps = proc.request("capabilities", {}).result
        if op not in caps["ops"]:
            print(f"{name:14} {op}: not offered")
            return
        start = time.perf_counter()
        done = 0
        while done < SAMPLES:
            proc.request(op, {**args, "count": 10_000})
            done += 10_000
        elapsed = time.perf_counter() - start
    print(f"{name:14} {SAMPLES / elapsed:8.0f} samples/s of {op} {args} (statistical mode)")


def main() -> None:
    for name in ("reference", "node-example"):
        round_trips(name)
    for name in ("reference", "opendp", "node-example"):
        sampling(name, "sampler.discrete_laplace", {"t": "5/2"})
        sampling(name, "sampler.discrete_gaussian", {"sigma2": "25/4"})


if __name__ == "__main__":
    main()
