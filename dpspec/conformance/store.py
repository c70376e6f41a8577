"""Writing the vector set, its schemas and manifest, and checking a vector folder.

The folder layout::

    vectors/
      MANIFEST.json          every file with its SHA-256, and one digest for the whole set
      schema/*.json          JSON Schemas (the envelope and one per format)
      <family>/*.json        the vector files of each family

``MANIFEST.json`` lists ``sha256`` and ``path`` per file (sorted by path). ``setDigest`` is the
SHA-256 of the text ``"<sha256>  <path>\\n"`` over those entries in order, which is exactly what
``sha256sum`` prints, so the set can be verified with standard tools and cited with one hash.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema
from referencing import Registry, Resource

from dpspec.conformance import GENERATOR_VERSION
from dpspec.conformance.families import all_families
from dpspec.conformance.vectors import (
    ENVELOPE_SCHEMA,
    SCHEMA_ID_PREFIX,
    Case,
    Family,
    VectorFile,
    canonical_json,
    envelope_schema,
)

MANIFEST = "MANIFEST.json"
SCHEMA_DIR = "schema"


def default_vectors_dir() -> Path:
    """The committed vector set: ``dpspec/vectors`` inside an installed wheel or sdist (the build
    copies it there, see setup.py), else the checkout's ``vectors/`` (development install)."""
    package = Path(__file__).resolve().parents[1]
    shipped = package / "vectors"
    if (shipped / MANIFEST).is_file():
        return shipped
    return package.parent / "vectors"


@dataclass
class Generated:
    """Everything `dpspec vectors generate` writes, as path -> canonical text."""

    texts: dict[str, str]
    owners: dict[str, Family]  # vector file path -> family
    schema_of: dict[str, str]  # vector file path -> schema name


def generate_all(
    families: tuple[Family, ...] | None = None,
    progress: Callable[[str], None] | None = None,
) -> Generated:
    """Run every generator; returns the texts of vector, schema and manifest files."""
    families = all_families() if families is None else families
    texts: dict[str, str] = {}
    owners: dict[str, Family] = {}
    schema_of: dict[str, str] = {}
    schemas: dict[str, dict[str, Any]] = {ENVELOPE_SCHEMA: envelope_schema()}
    for family in families:
        if progress:
            progress(f"generating {family.name}")
        for name, schema in family.schemas().items():
            if name in schemas and schemas[name] != schema:
                raise RuntimeError(f"schema {name} is defined twice, differently")
            schemas[name] = schema
        vf: VectorFile
        for vf in family.files():
            if vf.path in texts:
                raise RuntimeError(f"two generators write {vf.path}")
            if vf.schema not in schemas:
                raise RuntimeError(f"{vf.path} names schema {vf.schema}, which no family defines")
            texts[vf.path] = vf.text if vf.text is not None else canonical_json(vf.doc)
            owners[vf.path] = family
            schema_of[vf.path] = vf.schema
    for name, schema in schemas.items():
        texts[f"{SCHEMA_DIR}/{name}"] = canonical_json(schema)
    texts[MANIFEST] = canonical_json(manifest(texts, owners, schema_of))
    return Generated(texts, owners, schema_of)


def manifest(texts: dict[str, str], owners: dict[str, Family],
             schema_of: dict[str, str] | None = None) -> dict[str, Any]:
    """The manifest document for the given files (the manifest itself excluded); each vector
    file's entry names its family and the schema (under schema/) that validates it."""
    entries = []
    for path in sorted(texts):
        digest = hashlib.sha256(texts[path].encode()).hexdigest()
        entry: dict[str, Any] = {"path": path, "sha256": digest}
        if path in owners:
            entry["family"] = owners[path].name
            if schema_of is not None:
                entry["schema"] = schema_of[path]
            doc = json.loads(texts[path])
            if "numberOfTests" in doc:
                entry["numberOfTests"] = doc["numberOfTests"]
        entries.append(entry)
    listing = "".join(f"{e['sha256']}  {e['path']}\n" for e in entries)
    return {
        "generatorVersion": GENERATOR_VERSION,
        "files": entries,
        "setDigest": hashlib.sha256(listing.encode()).hexdigest(),
        "setDigestRule": "sha256 of the lines '<sha256>  <path>\\n' for the files in this order",
    }


def write_all(gen: Generated, out_dir: Path) -> list[str]:
    """Write the generated texts below ``out_dir``; returns the paths written."""
    for path, text in gen.texts.items():
        target = out_dir / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8", newline="\n")
    return sorted(gen.texts)


def schema_registry(schemas: dict[str, dict[str, Any]]) -> Registry:
    """A referencing registry holding every schema under its URN id."""
    resources = [(SCHEMA_ID_PREFIX + name, Resource.from_contents(s)) for name, s in schemas.items()]
    return Registry().with_resources(resources)


def project_schemas() -> dict[str, dict[str, Any]]:
    """Every schema the generators define (name -> JSON Schema), without generating any vector."""
    schemas: dict[str, dict[str, Any]] = {ENVELOPE_SCHEMA: envelope_schema()}
    for family in all_families():
        schemas.update(family.schemas())
    return schemas


def validate_folder(root: Path, limit: int = 5, families: set[str] | None = None) -> list[str]:
    """Validate each vector file that ``root/MANIFEST.json`` lists against **the project's** schema
    for it (never the folder's own schema/ copies, which could be loosened): the check
    ``dpspec conformance run --vectors DIR`` makes before it loads anything. At most ``limit``
    problems per file are reported; ``families``: only those families' files."""
    try:
        doc = json.loads((root / MANIFEST).read_text(encoding="utf-8"))
        entries = [e for e in doc["files"] if isinstance(e, dict) and "family" in e]
    except FileNotFoundError:
        return [f"{root}: no {MANIFEST} (not a dpspec vectors folder)"]
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError) as exc:
        return [f"{root / MANIFEST}: cannot be read ({exc})"]
    schemas = project_schemas()
    owned = {f.name: set(f.schemas()) for f in all_families()}
    registry = schema_registry(schemas)
    problems: list[str] = []
    for entry in entries:
        path, family = str(entry.get("path")), str(entry.get("family"))
        if families is not None and family not in families:
            continue
        try:
            vdoc = json.loads((root / path).read_text(encoding="utf-8"))
        except OSError as exc:
            problems.append(f"{path}: cannot be read ({exc.strerror})")
            continue
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            problems.append(f"{path}: not valid UTF-8 JSON ({exc})")
            continue
        name = entry.get("schema")
        if name is None and isinstance(vdoc, dict):
            name = vdoc.get("schema")
        if family not in owned:
            problems.append(f"{path}: unknown family {family!r}")
            continue
        if name not in owned[family]:
            problems.append(f"{path}: schema {name!r} is not one of family {family}'s schemas")
            continue
        validator = jsonschema.Draft202012Validator(schemas[str(name)], registry=registry)
        errors = sorted(validator.iter_errors(vdoc), key=lambda e: list(e.absolute_path))
        for err in errors[:limit]:
            where = "/".join(str(p) for p in err.absolute_path) or "(top)"
            problems.append(f"{path}: schema violation at {where}: {err.message[:200]}")
    return problems


# -- checking ------------------------------------------------------------------------------------
@dataclass
class CheckReport:
    """What `dpspec vectors check` found."""

    files: int = 0
    tests: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def _differing_tests(path: str, want: str, have: str) -> list[str]:
    """Name the tcIds at which two texts of the same vector file differ."""
    try:
        have_doc = json.loads(have)
    except json.JSONDecodeError as exc:
        return [f"{path}: not valid JSON ({exc.msg} at line {exc.lineno})"]
    want_doc = json.loads(want)
    if not isinstance(have_doc, dict) or "testGroups" not in have_doc:
        return [f"{path}: differs from the regenerated file"]

    def by_id(doc: dict[str, Any]) -> dict[Any, Any]:
        out: dict[Any, Any] = {}
        for gi, group in enumerate(doc.get("testGroups", [])):
            head = {k: v for k, v in group.items() if k != "tests"}
            for test in group.get("tests", []):
                out[test.get("tcId")] = (gi, head, test)
        return out

    w, h = by_id(want_doc), by_id(have_doc)
    out = []
    for tc in sorted(set(w) | set(h), key=str):
        if tc not in h:
            out.append(f"{path}: tcId {tc} is missing")
        elif tc not in w:
            out.append(f"{path}: tcId {tc} is not produced by the generator")
        elif w[tc] != h[tc]:
            keys = sorted(k for k in set(w[tc][2]) | set(h[tc][2])
                          if w[tc][2].get(k) != h[tc][2].get(k))
            what = f"fields {keys}" if keys else "group parameters"
            shown = ""
            if keys:
                first = keys[0]
                have_v, want_v = _first_difference(h[tc][2].get(first), w[tc][2].get(first))
                shown = f": {first}{have_v[0]} committed {have_v[1]}, regenerated {want_v}"
            out.append(f"{path}: tcId {tc} differs from the regenerated vector ({what}){shown}")
    rest_w = {k: v for k, v in want_doc.items() if k != "testGroups"}
    rest_h = {k: v for k, v in have_doc.items() if k != "testGroups"}
    for key in sorted(set(rest_w) | set(rest_h)):
        if rest_w.get(key) != rest_h.get(key):
            out.append(f"{path}: header field {key!r} differs from the regenerated file")
    if not out:
        out.append(f"{path}: formatting differs from the canonical form (regenerate it)")
    return out


def _short_json(value: Any, limit: int = 60) -> str:
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _first_difference(have: Any, want: Any, where: str = "") -> tuple[tuple[str, str], str]:
    """((location, committed value), regenerated value) of the first leaf at which two JSON values
    differ, each shortened for one line."""
    if isinstance(have, dict) and isinstance(want, dict):
        for key in sorted(set(have) | set(want)):
            if have.get(key) != want.get(key):
                return _first_difference(have.get(key), want.get(key), f"{where}.{key}")
    if isinstance(have, list) and isinstance(want, list) and len(have) == len(want):
        for i, (a, b) in enumerate(zip(have, want, strict=True)):
            if a != b:
                return _first_difference(a, b, f"{where}[{i}]")
    return (where, _short_json(have)), _short_json(want)


def iter_cases(gen: Generated, root: Path, problems: list[str]) -> Iterator[tuple[Family, Case]]:
    """The cases of the files on disk (only those that parse), with their families."""
    for path, family in sorted(gen.owners.items()):
        target = root / path
        if not target.is_file():
            continue
        try:
            doc = json.loads(target.read_text(encoding="utf-8"))
            cases = family.cases(path, doc)
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
            problems.append(f"{path}: cannot be read as a {family.name} vector file ({exc})")
            continue
        for case in cases:
            yield family, case


def replay(family: Family, case: Case) -> str | None:
    """Run a case against the reference; None if it behaves as the vector says."""
    handler = family.handlers().get(case.op)
    if handler is None:
        return f"op {case.op!r} has no reference handler"
    try:
        provided = handler(dict(case.args))
    except (ValueError, KeyError, TypeError, ArithmeticError) as exc:
        if case.result in ("invalid", "acceptable"):
            return None
        return f"reference rejected a valid input: {exc}"
    if case.result == "invalid":
        return "reference accepted an invalid input"
    if case.expected is None:
        return None
    return family.compare(case, provided)


def check(root: Path, progress: Callable[[str], None] | None = None,
          families: tuple[Family, ...] | None = None) -> CheckReport:
    """Regenerate, compare byte for byte, validate against schemas, replay every test.

    ``families``: only these families: their folders (missing and stray files there), their
    schema files and their tests; the manifest, which covers the whole set, is then not compared."""
    report = CheckReport()
    if not root.is_dir():
        report.problems.append(f"{root}: no such folder")
        return report
    gen = generate_all(families, progress=progress)

    on_disk = {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}
    expected = gen.texts
    if families is not None:
        folders = tuple(f"{f.name}/" for f in families)
        own_schemas = {f"{SCHEMA_DIR}/{name}" for name in gen.schema_of.values()}
        expected = {p: t for p, t in gen.texts.items() if p.startswith(folders) or p in own_schemas}
        on_disk = {p for p in on_disk if p.startswith(folders) or p in own_schemas}
    for path in sorted(set(expected) - on_disk):
        report.problems.append(f"{path}: missing (run `dpspec vectors generate`)")
    for path in sorted(on_disk - set(expected)):
        report.problems.append(f"{path}: not produced by any generator")
    for path in sorted(set(expected) & on_disk):
        have = (root / path).read_bytes()
        if have != expected[path].encode():
            try:
                text = have.decode("utf-8")
            except UnicodeDecodeError:
                report.problems.append(f"{path}: not UTF-8")
                continue
            if path in gen.owners:
                report.problems.extend(_differing_tests(path, expected[path], text))
            else:
                report.problems.append(f"{path}: differs from the regenerated file")
    report.files = len(on_disk & set(gen.owners))

    schemas = {p.split("/", 1)[1]: json.loads(t) for p, t in gen.texts.items()
               if p.startswith(SCHEMA_DIR + "/")}
    registry = schema_registry(schemas)
    for path in sorted(gen.owners):
        target = root / path
        if not target.is_file():
            continue
        try:
            doc = json.loads(target.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError):
            continue  # already reported above
        validator = jsonschema.Draft202012Validator(schemas[gen.schema_of[path]],
                                                    registry=registry)
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
        for err in errors[:5]:
            where = "/".join(str(p) for p in err.absolute_path) or "(top)"
            report.problems.append(f"{path}: schema violation at {where}: {err.message[:200]}")

    unreadable: list[str] = []
    for family, case in iter_cases(gen, root, unreadable):
        if progress and report.tests % 50 == 0:
            progress(f"replaying {case.path}")
        report.tests += 1
        why = replay(family, case)
        if why is not None:
            report.problems.append(f"{case.path}: tcId {case.tc_id}: {why}")
    reported = {p.split(":", 1)[0] for p in report.problems if "not valid JSON" in p}
    report.problems.extend(p for p in unreadable if p.split(":", 1)[0] not in reported)
    return report
