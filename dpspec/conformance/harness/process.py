"""The harness side of the adapter protocol: one implementation under test as a subprocess.

The harness must survive anything an adapter does. Every exchange therefore runs against a
deadline, with non-blocking pipes and one selector, in this one thread:

* a request is written (the adapter may stop reading: the write is bounded by the deadline too);
* one line is read back, at most ``max_response_bytes`` long;
* the line must be a JSON object whose ``id`` is the request's ``id``.

Any breach (timeout, exit, a line that is not JSON, an oversized line, a wrong id, bytes after
the final newline that never finish) raises :class:`ProtocolFailure`. The client then kills the
process (its whole process group) and starts a fresh one on the next request, because after a
breach the stream can no longer be trusted to be in step. The first request sent to each freshly
started process (the first ``capabilities``, and the request after every restart) gets
``startup_timeout`` on top of its timeout, so a slow-starting adapter is not cut while it loads.

The timeout is charged in the adapter's own time, not the machine's: on Linux, the time an
adapter's processes spend runnable but waiting for a CPU (``/proc/PID/task/TID/schedstat``, the
second field) is added back to the deadline, so a busy machine does not turn a slow answer into a
timeout, while an adapter that sleeps, blocks or loops still runs out of time as before. A
wall-clock backstop of ``WALL_BACKSTOP`` times the limit bounds every wait. Where the kernel gives
no scheduler statistics the deadline is plain wall-clock time.

After ``max_consecutive_failures``
breaches in a row, or ``max_total_failures`` in all, the adapter is declared dead and every
further request fails at once, so a hanging adapter costs at most a few timeouts, not one per
test.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Any

DEFAULT_TIMEOUT = 30.0
#: extra time the first request after each (re)start of an adapter gets, for its start-up
DEFAULT_STARTUP_TIMEOUT = 10.0
#: no request waits longer than this multiple of its limit in wall-clock time, however loaded
WALL_BACKSTOP = 10.0
DEFAULT_MAX_RESPONSE = 64 * 1024 * 1024
STDERR_TAIL = 2000


class ProtocolFailure(Exception):
    """The adapter broke the protocol (or died) while answering one request."""


@dataclass(frozen=True)
class Response:
    """A well-formed response: ``ok`` with a result, or a rejection / unsupported with a reason."""

    ok: bool
    result: Any = None
    error: str | None = None
    unsupported: str | None = None
    seconds: float = 0.0


def _read_run_delays(root: int) -> dict[int, int]:
    """Nanoseconds each task of the process tree under ``root`` has spent waiting for a CPU.

    Keyed by thread id; ``{}`` when the kernel has no scheduler statistics or the process is gone.
    """
    delays: dict[int, int] = {}
    stack = [root]
    seen: set[int] = set()
    while stack:
        pid = stack.pop()
        if pid in seen:
            continue
        seen.add(pid)
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tids:
            base = f"/proc/{pid}/task/{tid}"
            try:
                with open(f"{base}/schedstat", "rb") as fh:
                    fields = fh.read().split()
                delays[int(tid)] = int(fields[1])
            except (OSError, IndexError, ValueError):
                continue
            try:
                with open(f"{base}/children", "rb") as fh:
                    stack.extend(int(c) for c in fh.read().split())
            except (OSError, ValueError):
                continue
    return delays


class Deadline:
    """A per-request deadline charged in the adapter's time (see the module docstring).

    ``waits`` returns the adapter's run-queue delays (``_read_run_delays`` of its process); the
    extension granted is the largest increase over any one task since the request began, because
    one task's waiting time can never exceed the wall-clock time that passed.
    """

    def __init__(self, limit: float, waits: Callable[[], dict[int, int]] | None = None, *,
                 clock: Callable[[], float] = time.monotonic,
                 backstop: float = WALL_BACKSTOP) -> None:
        self.limit = limit
        self._clock = clock
        self._waits = waits
        self.start = clock()
        self._base = waits() if waits is not None else {}
        self._hard = self.start + limit * backstop
        self.extension = 0.0

    def remaining(self) -> float:
        """Seconds left; recomputes the extension only when the plain deadline has passed."""
        now = self._clock()
        left = self.start + self.limit + self.extension - now
        if left > 0 or self._waits is None:
            return min(left, self._hard - now)
        current = self._waits()
        if current:
            waited = max(d - self._base.get(tid, 0) for tid, d in current.items()) / 1e9
            self.extension = max(self.extension, waited)
        left = self.start + self.limit + self.extension - now
        return min(left, self._hard - now)


class AdapterProcess:
    """A running adapter, restarted after each protocol breach."""

    def __init__(
        self,
        command: Sequence[str],
        *,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        startup_timeout: float = DEFAULT_STARTUP_TIMEOUT,
        max_response_bytes: int = DEFAULT_MAX_RESPONSE,
        max_consecutive_failures: int = 3,
        max_total_failures: int = 10,
    ) -> None:
        if not command:
            raise ValueError("empty adapter command")
        self.command = list(command)
        self.cwd = cwd
        self.env = dict(env) if env is not None else None
        self.timeout = timeout
        self.startup_timeout = startup_timeout
        self.max_response_bytes = max_response_bytes
        self.max_consecutive_failures = max_consecutive_failures
        self.max_total_failures = max_total_failures
        self.total_failures = 0
        self._proc: subprocess.Popen[bytes] | None = None
        self._stderr: IO[bytes] | None = None
        self._buf = bytearray()
        self._next_id = 1
        self._fresh = True
        self.consecutive_failures = 0
        self.restarts = 0
        self.dead_reason: str | None = None
        self.last_stderr = ""

    # -- life cycle --------------------------------------------------------------------------
    def _start(self) -> None:
        self._stderr = tempfile.TemporaryFile()
        try:
            self._proc = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr,
                cwd=self.cwd, env=self.env, start_new_session=True,
            )
        except OSError as exc:
            self._stderr.close()
            self._stderr = None
            raise ProtocolFailure(f"cannot start adapter {self.command[0]!r}: {exc}") from exc
        assert self._proc.stdin is not None and self._proc.stdout is not None
        os.set_blocking(self._proc.stdin.fileno(), False)
        os.set_blocking(self._proc.stdout.fileno(), False)
        self._buf = bytearray()
        self._fresh = True

    def close(self) -> None:
        """Stop the adapter: close its input (end of input means exit), then kill if needed."""
        proc = self._proc
        if proc is None:
            return
        self._proc = None
        with contextlib.suppress(OSError):
            assert proc.stdin is not None
            proc.stdin.close()
        try:
            proc.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            self._kill(proc)
        self._collect_stderr()
        with contextlib.suppress(OSError):
            assert proc.stdout is not None
            proc.stdout.close()

    def _kill(self, proc: subprocess.Popen[bytes]) -> None:
        with contextlib.suppress(OSError):
            os.killpg(proc.pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=5.0)

    def _abandon(self) -> None:
        """Kill the process after a breach; the next request starts a fresh one."""
        proc = self._proc
        self._proc = None
        if proc is not None:
            self._kill(proc)
            for stream in (proc.stdin, proc.stdout):
                with contextlib.suppress(OSError):
                    if stream is not None:
                        stream.close()
        self._collect_stderr()

    def _collect_stderr(self) -> None:
        if self._stderr is None:
            return
        with contextlib.suppress(OSError):
            self._stderr.seek(0, os.SEEK_END)
            size = self._stderr.tell()
            self._stderr.seek(max(0, size - STDERR_TAIL))
            self.last_stderr = self._stderr.read().decode("utf-8", "replace")
            self._stderr.close()
        self._stderr = None

    def __enter__(self) -> AdapterProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- one exchange ------------------------------------------------------------------------
    @property
    def dead(self) -> bool:
        return self.dead_reason is not None

    def request(self, op: str, args: dict[str, Any], timeout: float | None = None) -> Response:
        """Send one request and return its response; ProtocolFailure on any breach."""
        if self.dead_reason is not None:
            raise ProtocolFailure(f"not sent: {self.dead_reason}")
        try:
            response = self._exchange(op, args, timeout)
        except ProtocolFailure as exc:
            self.consecutive_failures += 1
            self.total_failures += 1
            self._abandon()
            self.restarts += 1
            if self.consecutive_failures >= self.max_consecutive_failures:
                self.dead_reason = (f"adapter declared dead after {self.consecutive_failures} "
                                    f"consecutive protocol failures (last: {exc})")
            elif self.total_failures >= self.max_total_failures:
                self.dead_reason = (f"adapter declared dead after {self.total_failures} "
                                    f"protocol failures (last: {exc})")
            raise ProtocolFailure(self._with_stderr(str(exc))) from None
        self.consecutive_failures = 0
        return response

    def _with_stderr(self, message: str) -> str:
        tail = self.last_stderr.strip().splitlines()[-3:]
        if tail:
            return f"{message} [adapter stderr: {' | '.join(line[:200] for line in tail)}]"
        return message

    def _exchange(self, op: str, args: dict[str, Any], timeout: float | None) -> Response:
        if self._proc is None:
            self._start()
        assert self._proc is not None
        rid = self._next_id
        self._next_id += 1
        limit = self.timeout if timeout is None else timeout
        if self._fresh:
            limit += self.startup_timeout  # start-up allowance: every (re)start, first request
            self._fresh = False
        pid = self._proc.pid
        deadline = Deadline(limit, lambda: _read_run_delays(pid))
        line = json.dumps({"id": rid, "op": op, "args": args}, separators=(",", ":")) + "\n"
        start = time.monotonic()
        self._write(line.encode("utf-8"), deadline, limit)
        raw = self._read_line(deadline, limit)
        elapsed = time.monotonic() - start
        return _parse_response(raw, rid, elapsed)

    def _write(self, data: bytes, deadline: Deadline, limit: float) -> None:
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        fd = proc.stdin.fileno()
        view = memoryview(data)
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_WRITE)
            while view:
                remaining = deadline.remaining()
                if remaining <= 0:
                    raise ProtocolFailure(f"timeout after {limit:g} s writing the request "
                                          "(the adapter does not read its input)")
                if not sel.select(remaining):
                    continue
                try:
                    written = os.write(fd, view)
                except BlockingIOError:
                    continue
                except (BrokenPipeError, OSError) as exc:
                    raise ProtocolFailure(self._exit_text("closed its input", exc)) from None
                view = view[written:]

    def _read_line(self, deadline: Deadline, limit: float) -> bytes:
        proc = self._proc
        assert proc is not None and proc.stdout is not None
        fd = proc.stdout.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            scanned = 0  # bytes of the buffer already known to hold no newline
            while True:
                newline = self._buf.find(b"\n", scanned)
                scanned = len(self._buf)
                if newline >= 0:
                    raw = bytes(self._buf[:newline])
                    del self._buf[:newline + 1]
                    if len(raw) > self.max_response_bytes:
                        raise ProtocolFailure(f"response of {len(raw)} bytes exceeds the limit of "
                                              f"{self.max_response_bytes}")
                    return raw
                if len(self._buf) > self.max_response_bytes:
                    raise ProtocolFailure(f"response exceeds the limit of {self.max_response_bytes} "
                                          "bytes without a newline")
                remaining = deadline.remaining()
                if remaining <= 0:
                    raise ProtocolFailure(f"timeout: no complete response within {limit:g} s")
                if not sel.select(remaining):
                    continue
                try:
                    chunk = os.read(fd, 1 << 20)
                except BlockingIOError:
                    continue
                except OSError as exc:
                    raise ProtocolFailure(self._exit_text("failed", exc)) from None
                if not chunk:
                    raise ProtocolFailure(self._exit_text("closed its output", None))
                self._buf.extend(chunk)

    def _exit_text(self, what: str, exc: BaseException | None) -> str:
        proc = self._proc
        code = None
        if proc is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                code = proc.wait(timeout=1.0)
        detail = f" ({exc})" if exc is not None else ""
        if code is None:
            return f"adapter {what}{detail}"
        return f"adapter {what}: it exited with status {code}{detail}"


def _parse_response(raw: bytes, rid: int, elapsed: float) -> Response:
    """Check one response line against protocol version 1."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ProtocolFailure("response is not UTF-8") from None
    try:
        doc = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise ProtocolFailure(f"response is not JSON: {_snippet(text)}") from None
    if not isinstance(doc, dict):
        raise ProtocolFailure(f"response is not a JSON object: {_snippet(text)}")
    if doc.get("id") != rid or isinstance(doc.get("id"), bool):
        raise ProtocolFailure(f"response id {_snippet(json.dumps(doc.get('id')))} does not match "
                              f"request id {rid}")
    ok = doc.get("ok")
    if ok is True:
        if "result" not in doc:
            raise ProtocolFailure("response has ok: true but no result")
        return Response(True, result=doc["result"], seconds=elapsed)
    if ok is False:
        if isinstance(doc.get("unsupported"), str):
            return Response(False, unsupported=doc["unsupported"], seconds=elapsed)
        if isinstance(doc.get("error"), str):
            return Response(False, error=doc["error"], seconds=elapsed)
        raise ProtocolFailure("response has ok: false but no string error or unsupported")
    raise ProtocolFailure(f"response has no boolean ok: {_snippet(text)}")


def _snippet(text: str, limit: int = 80) -> str:
    text = text.replace("\n", "\\n")
    return repr(text if len(text) <= limit else text[:limit] + "...")
