"""Progress on stderr for runs longer than a few seconds (vectors generate/check, experiments).

One redrawn line, only when stderr is a terminal and the command was not given ``--quiet``:
pipes, logs and CI stay clean, and results on stdout are never mixed with it.
"""

from __future__ import annotations

import sys
import time
from typing import IO


class Progress:
    """``step("text")`` redraws the line (at most ten times a second); ``done()`` clears it."""

    def __init__(self, quiet: bool = False, stream: IO[str] | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.on = not quiet and hasattr(self.stream, "isatty") and self.stream.isatty()
        self._last = 0.0
        self._width = 0

    def step(self, text: str) -> None:
        if not self.on:
            return
        now = time.monotonic()
        if now - self._last < 0.1:
            return
        self._last = now
        line = text[:100]
        self.stream.write("\r" + line + " " * max(0, self._width - len(line)))
        self.stream.flush()
        self._width = len(line)

    def done(self) -> None:
        if self.on and self._width:
            self.stream.write("\r" + " " * self._width + "\r")
            self.stream.flush()
            self._width = 0
