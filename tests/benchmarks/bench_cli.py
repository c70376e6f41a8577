"""CLI start-up cost: CPU seconds (user + system) of ``dpspec --version``, ``dpspec --help`` and
``dpspec SUB --help`` for every subcommand; the goal is under 0.3 s each.

Run: ``python tests/benchmarks/bench_cli.py [--repeat N]``. Each command runs N times in a fresh
process; the minimum CPU time (of the child, from resource.getrusage) is reported, so a busy
machine inflates the figures little. Exit 1 if any minimum exceeds the goal.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys

from dpspec.conformance.commands import COMMANDS

GOAL = 0.3


def cpu_of(argv: list[str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    base = [sys.executable, "-m", "dpspec"]
    cases = [["--version"], ["--help"]] + [[name, "--help"] for name in COMMANDS]
    worst = 0.0
    print(f"{'command':32} min CPU s over {args.repeat} runs")
    floor = min(cpu_of([sys.executable, "-c", "pass"]) for _ in range(args.repeat))
    print(f"{'(python -c pass)':32} {floor:.3f}")
    for case in cases:
        best = min(cpu_of(base + case) for _ in range(args.repeat))
        worst = max(worst, best)
        print(f"{'dpspec ' + ' '.join(case):32} {best:.3f}{'  OVER GOAL' if best > GOAL else ''}")
    print(f"worst {worst:.3f} s (goal {GOAL} s)")
    return 0 if worst <= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
