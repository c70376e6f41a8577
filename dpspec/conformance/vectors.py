"""The common test-vector envelope, canonical JSON, schemas and the family interface.

Every dpspec vector file (except those that follow an external format, such as the official VDAF
JSON) is one JSON object of this shape (JSON Schema: ``vectors/schema/envelope-v1.json``)::

    {
      "algorithm": "...",            what the file tests
      "family": "...",               the generator family that wrote it
      "schema": "NAME-v1.json",      the schema file (under vectors/schema/) that validates it
      "schemaVersion": 1,
      "generatorVersion": "0.1.0",
      "numberOfTests": N,
      "header": ["...", ...],        prose that specifies the algorithm well enough to reimplement
      "notes": {"FLAG": "what the flag means", ...},
      "testGroups": [
        {"op": "family.operation",   the operation an implementation runs for each test
         "params": {...},            arguments shared by the group
         "tests": [
           {"tcId": 1, "comment": "...", "flags": ["FLAG", ...],
            "inputs": {...},         per-test arguments
            "outputs": {...} | null, expected outputs; null when result is "invalid"
            "result": "valid" | "invalid" | "acceptable"}]}]
    }

An implementation runs ``op`` on the arguments ``params ∪ inputs`` (a test's inputs never repeat a
group parameter). ``valid``: it must return exactly ``outputs`` (or, where the family says so,
within a stated tolerance). ``invalid``: it must reject the arguments. ``acceptable``: either.

Encoding rules: byte strings are lower-case hex; integers that are parameters or samples (and so
may be large) are decimal strings; sizes, counts and tcIds are JSON numbers; exact rationals are
decimal strings ``"3/7"`` or ``"0.25"``. :mod:`dpspec.conformance.jsonargs` holds the schema fragments and the
argument parsers for these encodings that every family uses.

Files are written canonically: UTF-8, keys sorted, two-space indent, ASCII only, one trailing
newline. Regenerating a file therefore gives identical bytes.
"""

from __future__ import annotations

import abc
import json
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from Crypto.Hash import TurboSHAKE128

from dpspec.conformance import GENERATOR_VERSION
from dpspec.conformance.jsonargs import DEC, HEX, RAT

ENVELOPE_SCHEMA = "envelope-v1.json"
SCHEMA_ID_PREFIX = "urn:dpspec:schema:"
RESULTS = ("valid", "invalid", "acceptable")

Json = Any
Handler = Callable[[dict[str, Any]], dict[str, Any]]


def canonical_json(doc: Json) -> str:
    """The canonical text of a vector or schema file (sorted keys, indent 2, ASCII, final newline)."""
    return json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=True) + "\n"


#: significant digits of a published binary64 result (see :func:`binary64_text`)
BINARY64_DIGITS = 8
#: how far (relative) a published binary64 result stays from a rounding boundary
BINARY64_MARGIN = 1e-11


def binary64_text(x: float) -> str:
    """A binary64 result of numpy/scipy (or of float arithmetic) as published in a vector:
    rounded to BINARY64_DIGITS significant digits ("inf"/"-inf" for infinities).

    Its last binary digits move between library versions (by up to about 2e-13 relative between
    numpy 1.26 / scipy 1.11 and current releases), while a published file must regenerate byte
    for byte on any of them. A value within BINARY64_MARGIN relative of a rounding boundary is
    refused (ValueError: choose other parameters), so the digits of every published value are the
    same for any version that computes the double to better than the margin; one that moves a
    value across the margin makes generation fail loudly rather than write different digits.
    Families compare such values with a relative tolerance of at least 1e-7 (above the rounding)."""
    xf = float(x)
    if math.isinf(xf):
        return "inf" if xf > 0 else "-inf"
    if math.isnan(xf):
        raise ValueError("NaN is not publishable")
    text = f"{xf:.{BINARY64_DIGITS}g}"
    if any(f"{xf * (1 + d):.{BINARY64_DIGITS}g}" != text for d in (-BINARY64_MARGIN, BINARY64_MARGIN)):
        raise ValueError(f"{xf!r} is within {BINARY64_MARGIN:g} relative of a rounding boundary at"
                         f" {BINARY64_DIGITS} digits: not publishable")
    return text


def vector_seed(label: str, size: int = 32) -> bytes:
    """The deterministic seed used in published vectors for ``label``.

    ``TurboSHAKE128(M = b"dpspec vector seed " || ASCII(label), D = 1, size)``. Only for vectors:
    production callers draw seeds from a CSPRNG.
    """
    h = TurboSHAKE128.new(domain=1)
    h.update(b"dpspec vector seed " + label.encode("ascii"))
    out: bytes = h.read(size)
    return out


VECTOR_SEED_HEADER = "Vector seeds are TurboSHAKE128(b'dpspec vector seed ' || label, D = 1, 32 bytes)"
"""The header line (without its ending) that states how :func:`vector_seed` derives a file's seeds."""


class RejectedInput(ValueError):
    """An implementation's answer to arguments it must refuse (the ``invalid`` result)."""


@dataclass(frozen=True)
class VectorFile:
    """A generated file: ``path`` relative to the vectors folder, its document and schema name."""

    path: str
    doc: Json
    schema: str
    #: the exact text to write, for files in an external format (the official VDAF vectors);
    #: None: the canonical form of ``doc``
    text: str | None = None


@dataclass(frozen=True)
class Case:
    """One test as the harness sees it: what to send, and what to expect back."""

    path: str
    tc_id: int
    op: str
    args: dict[str, Any]
    expected: dict[str, Any] | None
    result: str
    comment: str = ""
    flags: tuple[str, ...] = ()
    tolerance: dict[str, Any] = field(default_factory=dict)


def test_entry(
    tc_id: int,
    comment: str,
    inputs: dict[str, Any],
    outputs: dict[str, Any] | None,
    result: str = "valid",
    flags: Iterable[str] = (),
) -> dict[str, Any]:
    """One test object of the envelope."""
    if result not in RESULTS:
        raise ValueError(f"result must be one of {RESULTS}")
    return {
        "tcId": tc_id,
        "comment": comment,
        "flags": sorted(set(flags)),
        "inputs": inputs,
        "outputs": outputs,
        "result": result,
    }


def envelope(
    *,
    algorithm: str,
    family: str,
    schema: str,
    header: list[str],
    notes: Mapping[str, str],
    groups: list[dict[str, Any]],
) -> dict[str, Any]:
    """Assemble a vector document; checks tcIds are 1..N in order and flags are explained."""
    tc = 0
    for group in groups:
        for test in group["tests"]:
            tc += 1
            if test["tcId"] != tc:
                raise ValueError(f"{algorithm}: tcId {test['tcId']} out of sequence (want {tc})")
            for flag in test["flags"]:
                if flag not in notes:
                    raise ValueError(f"{algorithm}: flag {flag} has no note")
            overlap = set(test["inputs"]) & set(group["params"])
            if overlap:
                raise ValueError(f"{algorithm}: tcId {tc} repeats group params {sorted(overlap)}")
    return {
        "algorithm": algorithm,
        "family": family,
        "schema": schema,
        "schemaVersion": int(schema.rsplit("-v", 1)[1].split(".")[0]),
        "generatorVersion": GENERATOR_VERSION,
        "numberOfTests": tc,
        "header": header,
        "notes": dict(notes),
        "testGroups": groups,
    }


class TestNumberer:
    """Hands out consecutive tcIds while a generator builds its groups."""

    def __init__(self) -> None:
        self.next_id = 1

    def __call__(self) -> int:
        tc = self.next_id
        self.next_id += 1
        return tc


InvalidCase = tuple[str, dict[str, Any], str]
"""An invalid test as a generator lists it: ``(comment, inputs, flag)``."""


def invalid_tests(
    tc: TestNumberer,
    handler: Handler,
    params: Mapping[str, Any],
    cases: Iterable[InvalidCase],
    rejects: tuple[type[Exception], ...] = (ValueError,),
) -> list[dict[str, Any]]:
    """The ``invalid`` tests of a group, each one first checked against the reference handler.

    For each ``(comment, inputs, flag)`` of ``cases``, in order: ``handler`` must reject
    ``params ∪ inputs`` by raising one of ``rejects`` (a generator that publishes as invalid what
    its own reference accepts is wrong: :class:`RuntimeError`; any other exception propagates);
    the test gets the next tcId of ``tc``, outputs null, result ``invalid`` and the one flag
    ``flag``. ``rejects`` defaults to :class:`ValueError` alone, stricter than the replay of
    :mod:`dpspec.conformance.store`, which also counts KeyError, TypeError and ArithmeticError
    as a rejection.
    """
    tests = []
    for comment, inputs, flag in cases:
        try:
            handler({**params, **inputs})
        except rejects:
            pass
        else:  # pragma: no cover - a generator bug
            raise RuntimeError(f"invalid case {comment!r} was accepted")
        tests.append(test_entry(tc(), comment, inputs, None, "invalid", [flag]))
    return tests


def envelope_schema() -> dict[str, Any]:
    """JSON Schema of the common envelope (draft 2020-12)."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID_PREFIX + ENVELOPE_SCHEMA,
        "title": "dpspec test-vector envelope, version 1",
        "type": "object",
        "additionalProperties": False,
        "required": [
            "algorithm", "family", "schema", "schemaVersion", "generatorVersion",
            "numberOfTests", "header", "notes", "testGroups",
        ],
        "properties": {
            "algorithm": {"type": "string", "minLength": 1},
            "family": {"type": "string", "minLength": 1},
            "schema": {"type": "string", "pattern": "^[a-z0-9_]+-v[0-9]+\\.json$"},
            "schemaVersion": {"type": "integer", "minimum": 1},
            "generatorVersion": {"type": "string"},
            "numberOfTests": {"type": "integer", "minimum": 0},
            "header": {"type": "array", "items": {"type": "string"}},
            "notes": {"type": "object", "additionalProperties": {"type": "string"}},
            "testGroups": {
                "type": "array",
                "items": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["op", "params", "tests"],
                    "properties": {
                        "op": {"type": "string", "pattern": "^[a-z0-9_]+(\\.[a-z0-9_]+)+$"},
                        "params": {"type": "object"},
                        "tests": {"type": "array", "items": {"$ref": "#/$defs/test"}},
                    },
                },
            },
        },
        "$defs": {
            "hex": HEX,
            "decimal": DEC,
            "rational": RAT,
            "test": {
                "type": "object",
                "additionalProperties": False,
                "required": ["tcId", "comment", "flags", "inputs", "outputs", "result"],
                "properties": {
                    "tcId": {"type": "integer", "minimum": 1},
                    "comment": {"type": "string"},
                    "flags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
                    "inputs": {"type": "object"},
                    "outputs": {"type": ["object", "null"]},
                    "result": {"enum": list(RESULTS)},
                },
                "if": {"properties": {"result": {"const": "invalid"}}},
                "then": {"properties": {"outputs": {"type": "null"}}},
                "else": {"properties": {"outputs": {"type": "object"}}},
            },
        },
    }


def family_schema(
    name: str, title: str, ops: Mapping[str, tuple[dict[str, Any], dict[str, Any]]]
) -> dict[str, Any]:
    """A family's schema: the envelope plus, per op, the schema of ``params ∪ inputs`` and of outputs.

    ``ops`` maps an op name to ``(args_schema, outputs_schema)``; both are object schemas whose
    ``properties`` list every argument (or output) the op takes. A group's ``params`` and each test's
    ``inputs`` are checked against the argument properties (each side may hold any subset, together
    all required ones: that part is checked by replay).
    """
    env = SCHEMA_ID_PREFIX + ENVELOPE_SCHEMA
    branches = []
    for op, (args, outs) in sorted(ops.items()):
        arg_props = {"type": "object", "additionalProperties": False,
                     "properties": args.get("properties", {})}
        branches.append({
            "properties": {
                "op": {"const": op},
                "params": arg_props,
                "tests": {"type": "array", "items": {"properties": {
                    "inputs": arg_props,
                    "outputs": {"anyOf": [{"type": "null"}, outs]},
                }}},
            },
        })
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID_PREFIX + name,
        "title": title,
        "allOf": [
            {"$ref": env},
            {"properties": {"schema": {"const": name},
                            "testGroups": {"items": {"oneOf": branches}}}},
        ],
    }


class Family(abc.ABC):
    """A generator family: one module under ``dpspec/conformance/families/`` defining ``FAMILY``.

    A family writes its files, declares the schemas that validate them, turns a file into
    harness cases and provides the reference implementation of each op it uses.
    """

    #: short name, also the folder under vectors/ that holds the family's files
    name: str = ""
    #: one line for listings
    summary: str = ""
    #: whether `dpspec conformance run` runs the family's files as a suite of its own
    harness_suite: bool = True

    @abc.abstractmethod
    def files(self) -> list[VectorFile]:
        """Generate every file of the family (deterministic)."""

    @abc.abstractmethod
    def schemas(self) -> dict[str, dict[str, Any]]:
        """Schema file name -> JSON Schema, for the schemas this family's files use."""

    @abc.abstractmethod
    def handlers(self) -> dict[str, Handler]:
        """op -> reference handler (arguments -> outputs; raises ValueError to reject)."""

    def vector_file(
        self,
        path: str,
        *,
        algorithm: str,
        schema: str,
        header: list[str],
        notes: Mapping[str, str],
        groups: list[dict[str, Any]],
    ) -> VectorFile:
        """The envelope file ``path`` of this family (see :func:`envelope`), validated by ``schema``."""
        doc = envelope(algorithm=algorithm, family=self.name, schema=schema, header=header,
                       notes=notes, groups=groups)
        return VectorFile(path, doc, schema)

    def cases(self, path: str, doc: Json) -> list[Case]:
        """The harness cases of one envelope-format file."""
        out = []
        for group in doc["testGroups"]:
            for test in group["tests"]:
                out.append(Case(
                    path=path,
                    tc_id=test["tcId"],
                    op=group["op"],
                    args={**group["params"], **test["inputs"]},
                    expected=test["outputs"],
                    result=test["result"],
                    comment=test["comment"],
                    flags=tuple(test["flags"]),
                ))
        return out

    def compare(self, case: Case, provided: dict[str, Any]) -> str | None:
        """None if ``provided`` (an implementation's outputs) matches the case; else why not."""
        assert case.expected is not None
        return diff_outputs(case.expected, provided)


def diff_outputs(expected: Mapping[str, Any], provided: Mapping[str, Any]) -> str | None:
    """Exact comparison of output objects; names the first differing key."""
    for key in sorted(expected):
        if key not in provided:
            return f"missing output {key!r}"
        if provided[key] != expected[key]:
            return f"{key}: expected {_short(expected[key])}, got {_short(provided[key])}"
    extra = sorted(set(provided) - set(expected))
    if extra:
        return f"unexpected outputs {extra}"
    return None


def _short(value: Any, limit: int = 120) -> str:
    text = json.dumps(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
