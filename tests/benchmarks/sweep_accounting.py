"""Hostile-parameter sweep over the accounting subcommands (calibrate, account, budget, tables)
and ``experiment ghazi``.

Run: ``.venv/bin/python tests/benchmarks/sweep_accounting.py [--limit SECONDS]``. Every numeric
parameter of every accounting subcommand is replaced, one at a time, by each hostile spelling
(NaN/inf spellings, huge, tiny, zero, negative, garbage, separators, very long); the command runs
in-process with its output captured, and a call is a failure when it raises (a traceback), exits
with a status other than 0 or 2, prints more than one line on stderr on exit 2, or takes longer
than ``--limit`` seconds (default 60; measured with time.perf_counter and cut with SIGALRM).
Prints one line per failure and a summary with the slowest calls; exit status 1 on any failure.
The pytest suite runs a cheap subset of these inputs (tests/test_accounting_edges.py).
"""

from __future__ import annotations

import contextlib
import io
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from dpspec.conformance.cli import main as cli_main

HOSTILE = ["nan", "NaN", "-nan", "inf", "-inf", "Infinity", "1e400", "-1e400", "1e-400", "0", "-0",
           "-1", "1e-300", "1e300", "1e-6", "1e6", "", " ", "abc", "1_0", "0x10", "1/0", "1e",
           "9" * 5000]

BASE: dict[str, list[str]] = {
    "calibrate gaussian": ["--epsilon", "1", "--delta", "1e-6", "--sensitivity", "1"],
    "calibrate gaussian --discrete": ["--epsilon", "1", "--delta", "1e-6", "--sensitivity", "1",
                                      "--discrete"],
    "calibrate poisson": ["--epsilon", "1", "--delta", "1e-6", "--sensitivity", "1"],
    "calibrate negative-binomial": ["--epsilon", "1", "--delta", "1e-6", "--sensitivity", "1",
                                    "--p", "0.9"],
    "account subsampled-gaussian": ["--sigma", "1", "--q", "0.01", "--steps", "100",
                                    "--delta", "1e-6", "--no-cross-check"],
    "account shuffle --bound fmt20": ["--eps0", "1", "--n", "1000", "--delta", "1e-6",
                                      "--bound", "fmt20"],
    "account shuffle --bound fmt22": ["--eps0", "1", "--n", "1000", "--delta", "1e-6",
                                      "--bound", "fmt22"],
    "account shuffle --bound closed": ["--eps0", "1", "--n", "100000", "--delta", "1e-6",
                                       "--bound", "closed"],
    "account shuffle --bound exact-rr": ["--eps0", "1", "--n", "1000", "--delta", "1e-6",
                                         "--bound", "exact-rr"],
    # huge n: the certified clone bounds at n = 10^9 (each parameter varied in turn)
    "account shuffle --bound fmt20 (n 1e9)": ["--eps0", "1", "--n", "1000000000", "--delta",
                                              "1e-9", "--bound", "fmt20"],
    "account shuffle --bound fmt22 (n 1e9)": ["--eps0", "1", "--n", "1000000000", "--delta",
                                              "1e-9", "--bound", "fmt22"],
    "account shuffle --bound closed (n 1e9)": ["--eps0", "1", "--n", "1000000000", "--delta",
                                               "1e-9", "--bound", "closed"],
    "account shuffle --bound exact-rr (n 1e9)": ["--eps0", "1", "--n", "1000000000", "--delta",
                                                 "1e-9", "--bound", "exact-rr"],
    "experiment ghazi": ["--epsilon", "1", "--delta", "1e-6", "--n", "1000",
                         "--rmse-factor", "1.2"],
    "experiment ghazi --buckets --simulate": ["--n", "100", "--buckets", "10", "--simulate", "1"],
    "budget commit": ["--analysis", "keyboard", "--fields", "n-gram", "--eps0", "3",
                      "--eps", "0.5", "--min-cohort", "5000"],
}
SKIP = {"--discrete", "--no-cross-check", "--bound", "--analysis", "--fields"}


class Timeout(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise Timeout


def run(argv: list[str], limit: float) -> tuple[str, float, str]:
    """(verdict, seconds, detail)."""
    out, err = io.StringIO(), io.StringIO()
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, limit)
    t0 = time.perf_counter()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = cli_main(argv)
    except Timeout:
        return "TIMEOUT", time.perf_counter() - t0, ""
    except SystemExit as exc:  # argparse
        status = exc.code if isinstance(exc.code, int) else 2
    except BaseException as exc:  # noqa: BLE001 - a traceback is what this sweep looks for
        return "TRACEBACK", time.perf_counter() - t0, f"{type(exc).__name__}: {exc}"[:200]
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    seconds = time.perf_counter() - t0
    lines = err.getvalue().strip().splitlines()
    if status == 2 and len(lines) != 1:
        return "STDERR", seconds, f"{len(lines)} lines on stderr"
    if status == 1 and argv[:2] == ["budget", "commit"]:
        return "refused", seconds, "denied by the accountant (exit 1)"
    if status not in (0, 2):
        return "STATUS", seconds, f"exit {status}"
    return ("ok" if status == 0 else "refused"), seconds, (lines[0][:120] if lines else "")


def main() -> int:
    limit = 60.0
    if "--limit" in sys.argv:
        limit = float(sys.argv[sys.argv.index("--limit") + 1])
    failures: list[str] = []
    timings: list[tuple[float, str]] = []
    count = 0
    with tempfile.TemporaryDirectory() as tmp:
        policy, state = Path(tmp) / "policy.json", Path(tmp) / "state.json"
        with contextlib.redirect_stdout(io.StringIO()):
            cli_main(["budget", "example"])
        policy.write_text(_example_policy())
        cli_main(["budget", "init", "--policy", str(policy), "--state", str(state)])
        for name, base in BASE.items():
            head = name.split()[:2]
            extra = ["--state", str(state)] if head[0] == "budget" else []
            params = [i for i in range(0, len(base) - 1) if base[i].startswith("--")
                      and base[i] not in SKIP and not base[i + 1].startswith("--")]
            for i in params:
                for value in HOSTILE:
                    argv = [*head, *extra, *base[:i + 1], value, *base[i + 2:]]
                    verdict, seconds, detail = run(argv, limit)
                    count += 1
                    label = " ".join(argv)[:150]
                    timings.append((seconds, label))
                    if verdict in ("TIMEOUT", "TRACEBACK", "STDERR", "STATUS"):
                        failures.append(f"{verdict:9} {seconds:6.1f}s  {label}  {detail}")
                        print(failures[-1], flush=True)
        for argv in (["tables", "sa2", "--json"],):
            verdict, seconds, detail = run(argv, limit)
            count += 1
            timings.append((seconds, " ".join(argv)))
            if verdict not in ("ok", "refused"):
                failures.append(f"{verdict:9} {seconds:6.1f}s  {' '.join(argv)}  {detail}")
    timings.sort(reverse=True)
    print(f"\n{count} calls, {len(failures)} failures; slowest:")
    for seconds, label in timings[:8]:
        print(f"  {seconds:6.1f}s  {label}")
    return 1 if failures else 0


def _example_policy() -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        cli_main(["budget", "example"])
    return out.getvalue()


if __name__ == "__main__":
    sys.exit(main())
