"""The adapter side of the dpspec conformance protocol (version 1; full text: dpspec/conformance/PROTOCOL.md).

An implementation under test runs as a subprocess. It reads one JSON object per line on stdin and
writes exactly one JSON object per line on stdout for each, in order:

request::

    {"id": 7, "op": "tape.uniform", "args": {...}}

responses::

    {"id": 7, "ok": true, "result": {...}}           the outputs of the op
    {"id": 7, "ok": false, "error": "why"}           the implementation rejects the arguments
    {"id": 7, "ok": false, "unsupported": "why"}     the implementation does not implement this

The op ``capabilities`` (args ``{}``) returns ``{"implementation": NAME, "version": V,
"protocol": 1, "ops": [...], "modes": ["exact"] or ["statistical"] or both}``. End of input means
exit. Bytes are lower-case hex; unbounded integers are decimal strings. Nothing but responses may be
written to stdout (diagnostics go to stderr).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping
from typing import IO, Any

PROTOCOL_VERSION = 1

Handler = Callable[[dict[str, Any]], dict[str, Any]]


class AdapterRefusal(ValueError):
    """Raised by an adapter's own code (not the library's) to refuse arguments, for example a
    value that cannot be passed to the library exactly; answered ``{"ok": false, "error":
    "adapter: ..."}`` so that the harness counts it apart from the library's own rejections."""


class Unsupported(Exception):
    """Raised by a handler for a request this implementation does not implement (for example a
    parameter set or draft it lacks); answered ``{"ok": false, "unsupported": message}``."""


def respond(request: Any, handlers: Mapping[str, Handler], capabilities: dict[str, Any]) -> dict[str, Any]:
    """The response object for one decoded request."""
    if not isinstance(request, dict):
        return {"id": None, "ok": False, "error": "request is not a JSON object"}
    rid = request.get("id")
    op = request.get("op")
    args = request.get("args", {})
    if op == "capabilities":
        return {"id": rid, "ok": True, "result": capabilities}
    if not isinstance(op, str) or not isinstance(args, dict):
        return {"id": rid, "ok": False, "error": "request needs a string op and an object args"}
    handler = handlers.get(op)
    if handler is None:
        return {"id": rid, "ok": False, "unsupported": f"op {op!r} is not implemented"}
    try:
        return {"id": rid, "ok": True, "result": handler(dict(args))}
    except Unsupported as exc:
        return {"id": rid, "ok": False, "unsupported": str(exc)}
    except AdapterRefusal as exc:
        return {"id": rid, "ok": False, "error": f"adapter: {exc}"}
    except Exception as exc:  # the library's own rejection (any exception type it raises)
        return {"id": rid, "ok": False, "error": f"{type(exc).__name__}: {exc}"}


def serve(
    handlers: Mapping[str, Handler],
    *,
    implementation: str,
    version: str,
    modes: list[str],
    stdin: IO[str] | None = None,
    stdout: IO[str] | None = None,
    ops_by_mode: Mapping[str, list[str]] | None = None,
) -> int:
    """Answer requests until end of input; returns the process exit status.

    ``ops_by_mode`` (optional) says which ops run in which mode (capabilities ``opsByMode``), so
    that the harness does not run, say, the seeded sampler vectors against a seedless sampler.
    """
    inp = stdin if stdin is not None else sys.stdin
    out = stdout if stdout is not None else sys.stdout
    capabilities = {
        "implementation": implementation,
        "version": version,
        "protocol": PROTOCOL_VERSION,
        "ops": sorted(handlers),
        "modes": modes,
    }
    if ops_by_mode is not None:
        capabilities["opsByMode"] = {m: sorted(v) for m, v in ops_by_mode.items()}
    for line in inp:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except json.JSONDecodeError as exc:
            response: dict[str, Any] = {"id": None, "ok": False, "error": f"bad JSON: {exc.msg}"}
        else:
            response = respond(request, handlers, capabilities)
        out.write(json.dumps(response, separators=(",", ":")) + "\n")
        out.flush()
    return 0
