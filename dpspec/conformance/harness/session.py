"""An adapter together with what it said it supports (the ``capabilities`` op)."""

from __future__ import annotations

from typing import Any

from dpspec.conformance.harness.process import AdapterProcess, ProtocolFailure, Response


class Session:
    """Requests to one adapter, filtered by its capabilities.

    An op the adapter did not list is answered locally as unsupported, without a request.
    """

    def __init__(self, process: AdapterProcess) -> None:
        self.process = process
        self.capabilities: dict[str, Any] | None = None
        self.ops: frozenset[str] = frozenset()
        self.modes: frozenset[str] = frozenset()
        self.ops_by_mode: dict[str, frozenset[str]] | None = None
        self.problem: str | None = None

    def handshake(self) -> bool:
        """Ask for the capabilities; False (with ``problem`` set) if the answer is unusable."""
        try:
            # the per-request timeout (--timeout) plus the process's start-up allowance
            response = self.process.request("capabilities", {})
        except ProtocolFailure as exc:
            self.problem = f"capabilities: {exc}"
            return False
        caps = response.result
        if not response.ok or not isinstance(caps, dict):
            self.problem = "capabilities: the adapter did not return an object"
            return False
        ops, modes = caps.get("ops"), caps.get("modes")
        if not isinstance(ops, list) or not all(isinstance(o, str) for o in ops):
            self.problem = "capabilities: ops must be a list of strings"
            return False
        if not isinstance(modes, list) or not all(isinstance(m, str) for m in modes):
            self.problem = "capabilities: modes must be a list of strings"
            return False
        if caps.get("protocol") != 1:
            self.problem = f"capabilities: protocol {caps.get('protocol')!r} is not 1"
            return False
        by_mode = caps.get("opsByMode")
        if by_mode is not None and not (
                isinstance(by_mode, dict) and all(
                    isinstance(v, list) and all(isinstance(o, str) for o in v)
                    for v in by_mode.values())):
            self.problem = "capabilities: opsByMode must map modes to lists of ops"
            return False
        self.capabilities = caps
        self.ops = frozenset(ops)
        self.modes = frozenset(modes)
        self.ops_by_mode = ({m: frozenset(v) & self.ops for m, v in by_mode.items()}
                            if by_mode is not None else None)
        return True

    def supports(self, op: str) -> bool:
        return op in self.ops

    def ops_for(self, mode: str) -> frozenset[str]:
        """The ops the adapter answers in ``mode`` (``opsByMode`` if it gave one, else all)."""
        if self.ops_by_mode is None:
            return self.ops
        return self.ops_by_mode.get(mode, frozenset())

    def call(self, op: str, args: dict[str, Any], timeout: float | None = None) -> Response:
        """The adapter's response; unsupported without asking if ``op`` is not in its list.

        Raises ProtocolFailure when the adapter breaks the protocol.
        """
        if op not in self.ops:
            return Response(False, unsupported=f"op {op} is not in the adapter's capabilities")
        return self.process.request(op, args, timeout=timeout)
