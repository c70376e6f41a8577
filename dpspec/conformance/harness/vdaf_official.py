"""The official VDAF JSON test vectors (cfrg/draft-irtf-cfrg-vdaf), run step by step.

Two schemas are read: draft-20 (``reports[]`` with ``verifier_shares`` / ``verifier_messages``
and an ``operations`` list, negative ``bad_*`` files) and draft-08 (``prep[]`` with
``prep_shares`` / ``prep_messages``, no ``ctx``). Each file becomes a chain of tests, one per
operation, each fed with **the vector's** inputs so every step is checked on its own:

* ``vdaf.shard`` (ctx, measurement, nonce, rand) -> public_share, input_shares
* ``vdaf.verify_init`` (ctx, verify_key, aggregator_id, agg_param, nonce, public_share,
  input_share) -> state, verifier_share
* ``vdaf.verifier_shares_to_message`` (ctx, agg_param, verifier_shares) -> verifier_message
* ``vdaf.verify_next`` (ctx, state, verifier_message) -> out_share
* ``vdaf.aggregate`` (agg_param, out_shares) -> agg_share
* ``vdaf.unshard`` (agg_param, agg_shares, num_measurements) -> agg_result

Every op also gets ``vdaf``. ``state`` is opaque to the harness: whatever JSON value the adapter
returned from ``vdaf.verify_init`` for that report and aggregator is sent back in
``vdaf.verify_next``.
``vdaf`` is ``{"draft": 20 | 8, "type": "Prio3Sum", "shares": 2, <type parameters>}`` with the
parameters as the vector file names them (``max_measurement``, ``length``, ``chunk_length``,
``max_weight``; draft-08 ``bits``, ``max_count``), plus ``field`` and ``num_proofs`` for
Prio3SumVecWithMultiproof (the files do not record them; they follow from the share lengths:
Field64 with 3 proofs in draft-20, Field64 with 4 proofs in draft-08). Bytes are hex; the output
share of draft-08 (a list of field elements in the file) is compared as their concatenation.
A step whose vector says ``success: false`` must be rejected (``ok: false`` with ``error``).
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dpspec.conformance.harness.model import ERROR, FAILED, PASSED, SKIPPED, Outcome, SuiteResult
from dpspec.conformance.harness.process import ProtocolFailure
from dpspec.conformance.harness.session import Session
from dpspec.conformance.harness.suites import Progress, Suite

VDAF_OPS = frozenset({
    "vdaf.shard", "vdaf.verify_init", "vdaf.verifier_shares_to_message", "vdaf.verify_next",
    "vdaf.aggregate", "vdaf.unshard",
})

_TYPE_PARAMS = ("max_measurement", "length", "chunk_length", "max_weight", "bits", "max_count")
_MULTIPROOF = {20: {"field": "Field64", "num_proofs": 3}, 8: {"field": "Field64", "num_proofs": 4}}


def default_vdaf_dir() -> Path:
    """Where the official vectors are: $DPSPEC_VDAF_VECTORS, else ``vectors/vdaf-official`` (part
    of the project: draft-20 regenerated, draft-08 kept as data; see
    :mod:`dpspec.conformance.families.vdaf_official`)."""
    env = os.environ.get("DPSPEC_VDAF_VECTORS")
    if env:
        return Path(env)
    from dpspec.conformance.store import default_vectors_dir

    return default_vectors_dir() / "vdaf-official"


@dataclass
class Step:
    """One operation of an official vector."""

    test: str
    op: str
    args: dict[str, Any]
    expected: dict[str, Any] | None   # None: the step must be rejected
    state_key: tuple[int, int] | None = None      # verify_init stores, verify_next uses
    needs_state: tuple[int, int] | None = None
    compare_keys: tuple[str, ...] = ()


@dataclass
class VectorChain:
    source: str
    vdaf: dict[str, Any]
    steps: list[Step] = field(default_factory=list)


def _hexcat(value: Any) -> str:
    if isinstance(value, list):
        return "".join(str(v) for v in value)
    return str(value)


def load_chain(path: Path, source: str, draft: int) -> VectorChain:
    """The steps of one official file."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    vtype = path.stem.split("_", 1)[0]
    vdaf: dict[str, Any] = {"draft": draft, "type": vtype, "shares": doc["shares"]}
    for key in _TYPE_PARAMS:
        if key in doc:
            vdaf[key] = doc[key]
    if vtype == "Prio3SumVecWithMultiproof":
        vdaf.update(_MULTIPROOF[draft])
    chain = VectorChain(source, vdaf)
    ctx = {"ctx": doc["ctx"]} if draft >= 9 and "ctx" in doc else {}
    agg_param = doc.get("agg_param") or ""
    shares = int(doc["shares"])
    if draft >= 9:
        reports = doc["reports"]
        ops = doc["operations"]
        vs_key, vm_key = "verifier_shares", "verifier_messages"
    else:
        reports = doc["prep"]
        vs_key, vm_key = "prep_shares", "prep_messages"
        ops = []
        for r in range(len(reports)):
            ops.append({"operation": "shard", "report_index": r, "success": True})
            ops += [{"operation": "verify_init", "report_index": r, "aggregator_id": j,
                     "success": True} for j in range(shares)]
            ops.append({"operation": "verifier_shares_to_message", "report_index": r, "round": 0,
                        "success": True})
            ops += [{"operation": "verify_next", "report_index": r, "aggregator_id": j,
                     "round": 1, "success": True} for j in range(shares)]
        ops += [{"operation": "aggregate", "aggregator_id": j, "success": True}
                for j in range(shares)]
        ops.append({"operation": "unshard", "success": True})
    for op in ops:
        name = op["operation"]
        ok = bool(op.get("success", True))
        r = op.get("report_index")
        j = op.get("aggregator_id")
        rep = reports[r] if r is not None else None
        step: Step
        if name == "shard" and rep is not None:
            step = Step(f"r{r}.shard", "vdaf.shard",
                        {**ctx, "measurement": rep["measurement"], "nonce": rep["nonce"],
                         "rand": rep["rand"]},
                        {"public_share": rep["public_share"], "input_shares": rep["input_shares"]})
        elif name == "verify_init" and rep is not None and j is not None:
            vs = rep.get(vs_key) or []
            want = {"verifier_share": vs[0][j]} if vs and j < len(vs[0]) else {}
            step = Step(f"r{r}.verify_init[{j}]", "vdaf.verify_init",
                        {**ctx, "verify_key": doc["verify_key"], "aggregator_id": j,
                         "agg_param": agg_param, "nonce": rep["nonce"],
                         "public_share": rep["public_share"], "input_share": rep["input_shares"][j]},
                        want, state_key=(r, j), compare_keys=("verifier_share",))
        elif name == "verifier_shares_to_message" and rep is not None:
            rnd = int(op.get("round", 0))
            vms = rep.get(vm_key) or []
            step = Step(f"r{r}.verifier_shares_to_message", "vdaf.verifier_shares_to_message",
                        {**ctx, "agg_param": agg_param, "verifier_shares": rep[vs_key][rnd]},
                        {"verifier_message": vms[rnd]} if rnd < len(vms) else {})
        elif name == "verify_next" and rep is not None and j is not None:
            rnd = int(op.get("round", 1))
            outs = rep.get("out_shares") or []
            step = Step(f"r{r}.verify_next[{j}]", "vdaf.verify_next",
                        {**ctx, "verifier_message": rep[vm_key][rnd - 1]},
                        {"out_share": _hexcat(outs[j])} if j < len(outs) else {},
                        needs_state=(r, j))
        elif name == "aggregate" and j is not None:
            step = Step(f"aggregate[{j}]", "vdaf.aggregate",
                        {"agg_param": agg_param,
                         "out_shares": [_hexcat(rp["out_shares"][j]) for rp in reports]},
                        {"agg_share": doc["agg_shares"][j]})
        elif name == "unshard":
            step = Step("unshard", "vdaf.unshard",
                        {"agg_param": agg_param, "agg_shares": doc["agg_shares"],
                         "num_measurements": len(reports)},
                        {"agg_result": doc["agg_result"]})
        else:
            raise ValueError(f"{source}: unknown operation {op}")
        if not ok:
            step.expected = None
        chain.steps.append(step)
    return chain


class OfficialVdafSuite(Suite):
    """Every Prio3 file of one draft's official vectors."""

    mode = "exact"

    def __init__(self, draft: int, folder: Path | None) -> None:
        self.draft = draft
        self.folder = folder
        self.name = f"vdaf-official-{draft:02d}"
        self.summary = f"official Prio3 vectors of draft-irtf-cfrg-vdaf-{draft:02d}, step by step"
        self._chains: list[VectorChain] | None = None
        self._problems: list[str] = []

    def _dir(self) -> Path | None:
        if self.folder is None:
            return None
        sub = self.folder / f"draft-{self.draft:02d}"
        return sub / "vdaf" if (sub / "vdaf").is_dir() else sub

    def available(self) -> str | None:
        d = self._dir()
        if d is None or not d.is_dir():
            return (f"official VDAF vectors not found at {self.folder} (it must hold draft-20/ and "
                    "draft-08/, as vectors/vdaf-official does)")
        return None

    def chains(self) -> list[VectorChain]:
        if self._chains is None:
            self._chains = []
            d = self._dir()
            if d is not None and d.is_dir():
                for path in sorted(d.glob("Prio3*.json")):
                    source = f"draft-{self.draft:02d}/{path.name}"
                    try:
                        self._chains.append(load_chain(path, source, self.draft))
                    except (OSError, json.JSONDecodeError, KeyError, IndexError, TypeError,
                            ValueError) as exc:
                        self._problems.append(f"{source}: cannot be read ({exc!r})")
        return self._chains

    def ops(self) -> frozenset[str]:
        return VDAF_OPS

    def problems(self) -> list[str]:
        self.chains()
        return list(self._problems)

    def size(self) -> int:
        return sum(len(c.steps) for c in self.chains())

    def run(self, session: Session, progress: Progress) -> SuiteResult:
        result = SuiteResult(self.name, self.mode, self.summary)
        start = time.monotonic()
        total, done = self.size(), 0
        for problem in self._problems:
            result.outcomes.append(Outcome(self.name, problem.split(":", 1)[0], "-", "-", ERROR,
                                           problem))
        for chain in self.chains():
            states: dict[tuple[int, int], tuple[str, Any]] = {}
            for step in chain.steps:
                result.outcomes.append(self._run_step(chain, step, states, session))
                done += 1
                progress(done, total)
        result.seconds = time.monotonic() - start
        return result

    def _run_step(self, chain: VectorChain, step: Step,
                  states: dict[tuple[int, int], tuple[str, Any]], session: Session) -> Outcome:
        out = Outcome(self.name, chain.source, step.test, step.op, SKIPPED,
                      expected=step.expected if step.expected is not None else {"result": "invalid"})
        args = {"vdaf": chain.vdaf, **step.args}
        if step.needs_state is not None:
            status, state = states.get(step.needs_state, (SKIPPED, None))
            if status != PASSED:
                out.status = SKIPPED if status == SKIPPED else FAILED
                out.reason = ("not run: the verify_init step it continues was skipped"
                              if status == SKIPPED else
                              "not run: the verify_init step it continues did not succeed")
                return out
            args["state"] = state
        try:
            response = session.call(step.op, args)
        except ProtocolFailure as exc:
            out.status, out.reason = ERROR, str(exc)
            if step.state_key is not None:
                states[step.state_key] = (ERROR, None)
            return out
        out.seconds = response.seconds
        if response.unsupported is not None:
            out.status, out.reason = SKIPPED, f"unsupported: {response.unsupported}"
            out.provided = {"unsupported": response.unsupported}
        elif not response.ok:
            out.provided = {"error": response.error}
            if step.expected is None:
                out.status, out.reason = PASSED, f"rejected as expected: {response.error}"
            else:
                out.status, out.reason = FAILED, f"rejected a valid input: {response.error}"
        elif step.expected is None:
            out.provided = response.result
            out.status, out.reason = FAILED, "accepted an input the vector says must be rejected"
        else:
            out.provided = response.result
            why = _compare(step.expected, response.result)
            out.status, out.reason = (PASSED, "") if why is None else (FAILED, why)
        if step.state_key is not None:
            state = response.result.get("state") if isinstance(response.result, dict) else None
            if out.status == PASSED and state is None and response.ok:
                out.status, out.reason = FAILED, "verify_init returned no state"
            states[step.state_key] = (out.status, state)
        return out


def _compare(expected: dict[str, Any], provided: Any) -> str | None:
    if not isinstance(provided, dict):
        return "result is not a JSON object"
    for key, want in expected.items():
        if key not in provided:
            return f"missing output {key!r}"
        why = describe_difference(key, want, provided[key])
        if why is not None:
            return why
    return None


def describe_difference(where: str, want: Any, have: Any) -> str | None:
    """None if equal (hex compared case-insensitively); else where the first difference is."""
    if isinstance(want, str) and isinstance(have, str):
        have = have.lower()
        if have == want:
            return None
        i = next((k for k in range(min(len(want), len(have))) if want[k] != have[k]),
                 min(len(want), len(have)))
        start = max(0, i - i % 2 - 8)
        return (f"{where}: differs at hex digit {i} (byte {i // 2}) of {len(want)}"
                f"{'' if len(have) == len(want) else f' (got {len(have)} digits)'}: expected "
                f"...{want[start:start + 40]}..., got ...{have[start:start + 40]}...")
    if isinstance(want, list) and isinstance(have, list) and len(want) == len(have):
        for k, (w, h) in enumerate(zip(want, have, strict=True)):
            why = describe_difference(f"{where}[{k}]", w, h)
            if why is not None:
                return why
        return None
    if have != want:
        return f"{where}: expected {_short(want)}, got {_short(have)}"
    return None


def official_suites(folder: Path | None = None) -> list[Suite]:
    """The draft-20 and draft-08 suites."""
    root = folder if folder is not None else default_vdaf_dir()
    return [OfficialVdafSuite(20, root), OfficialVdafSuite(8, root)]


def _short(value: Any, limit: int = 100) -> str:
    text = json.dumps(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
