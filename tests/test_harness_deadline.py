"""The per-request deadline is charged in the adapter's time, not the loaded machine's.

A conformance run on a machine whose cores are busy must not turn a slow but correct answer into
a timeout, while an adapter that sleeps or hangs is still cut (PROTOCOL.md sec. 8).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from dpspec.conformance.harness.process import (
    WALL_BACKSTOP,
    AdapterProcess,
    Deadline,
    ProtocolFailure,
    _read_run_delays,
)


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_without_scheduler_statistics_the_deadline_is_wall_clock() -> None:
    clock = FakeClock()
    d = Deadline(5.0, None, clock=clock)
    clock.now += 4.0
    assert d.remaining() == pytest.approx(1.0)
    clock.now += 2.0
    assert d.remaining() == pytest.approx(-1.0)


def test_time_waiting_for_a_cpu_is_added_back() -> None:
    clock = FakeClock()
    waits = {7: 1_000_000_000}
    d = Deadline(5.0, lambda: dict(waits), clock=clock)
    # 8 s pass, 6 of them spent runnable on the run queue: 2 s of the adapter's own time used
    clock.now += 8.0
    waits[7] += 6_000_000_000
    assert d.remaining() == pytest.approx(3.0)
    assert d.extension == pytest.approx(6.0)


def test_a_sleeping_adapter_gets_no_extension() -> None:
    clock = FakeClock()
    d = Deadline(5.0, lambda: {7: 123}, clock=clock)
    clock.now += 5.5
    assert d.remaining() == pytest.approx(-0.5)
    assert d.extension == 0.0


def test_the_largest_wait_of_one_task_counts_and_new_tasks_count_from_zero() -> None:
    clock = FakeClock()
    waits = {1: 10_000_000_000, 2: 0}
    d = Deadline(2.0, lambda: dict(waits), clock=clock)
    clock.now += 4.0
    waits[1] += 1_000_000_000          # 1 s
    waits[2] += 1_500_000_000          # 1.5 s
    waits[3] = 2_500_000_000           # a task born during the request: 2.5 s
    assert d.extension == 0.0
    assert d.remaining() == pytest.approx(0.5)
    assert d.extension == pytest.approx(2.5)


def test_the_wall_clock_backstop_bounds_every_wait() -> None:
    clock = FakeClock()
    waits = {1: 0}
    d = Deadline(1.0, lambda: dict(waits), clock=clock)
    clock.now += WALL_BACKSTOP * 1.0 + 1.0
    waits[1] = int((WALL_BACKSTOP + 1.0) * 1e9)  # starved the whole time
    assert d.remaining() == pytest.approx(-1.0)


def test_run_delays_cover_the_process_tree() -> None:
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        tids = set(_read_run_delays(os.getpid()))
        assert os.getpid() in tids and child.pid in tids
        assert all(v >= 0 for v in _read_run_delays(os.getpid()).values())
    finally:
        child.kill()
        child.wait()
    assert _read_run_delays(child.pid) == {}


SPINNER = "import os, sys; os.sched_setaffinity(0, {int(sys.argv[1])})\nwhile True: pass\n"

ADAPTER = textwrap.dedent('''
    import json, os, sys, time
    os.sched_setaffinity(0, {int(sys.argv[1])})
    for line in sys.stdin:
        req = json.loads(line)
        if req["op"] == "spin":          # use this much CPU time, then answer
            end = time.process_time() + req["args"]["cpu"]
            while time.process_time() < end:
                pass
        elif req["op"] == "sleep":
            time.sleep(req["args"]["seconds"])
        print(json.dumps({"id": req["id"], "ok": True, "result": req["op"]}), flush=True)
''')


def test_a_starved_adapter_is_not_timed_out_but_a_sleeping_one_is(tmp_path: Path) -> None:
    """Three spinners share the adapter's CPU, so 1.5 s of its CPU time takes about 6 s of wall
    time: well past the 2 s limit, which it must not be charged for. Sleeping 4 s is. Each
    spinner runs in a session of its own, as the adapter does, so that the kernel's
    per-session scheduling groups (autogroup) give the adapter a quarter of the CPU, not half."""
    cpu = min(os.sched_getaffinity(0))
    script = tmp_path / "adapter.py"
    script.write_text(ADAPTER)
    spinners = [subprocess.Popen([sys.executable, "-c", SPINNER, str(cpu)], start_new_session=True)
                for _ in range(3)]
    try:
        with AdapterProcess([sys.executable, str(script), str(cpu)], timeout=2.0,
                            startup_timeout=60.0) as proc:
            assert proc.request("ping", {}).result == "ping"   # start-up, under the allowance
            start = time.monotonic()
            assert proc.request("spin", {"cpu": 1.5}).result == "spin"
            elapsed = time.monotonic() - start
            # the precondition of the test: the answer did take longer than the limit
            assert elapsed > 2.0
            with pytest.raises(ProtocolFailure, match="timeout: no complete response within 2 s"):
                proc.request("sleep", {"seconds": 4.0})
    finally:
        for s in spinners:
            s.kill()
            s.wait()
