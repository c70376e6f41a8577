"""Vector replay and regeneration, discovered from the vector files (never listed by hand)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from dpspec.conformance.families import all_families
from dpspec.conformance.store import (
    MANIFEST,
    SCHEMA_DIR,
    default_vectors_dir,
    generate_all,
    iter_cases,
    replay,
    schema_registry,
)
from dpspec.conformance.vectors import Case, Family

ROOT = default_vectors_dir()
GEN = generate_all()


def _cases() -> list[tuple[Family, Case]]:
    problems: list[str] = []
    found = list(iter_cases(GEN, ROOT, problems))
    assert not problems, problems
    return found


CASES = _cases()


@pytest.mark.parametrize(
    ("family", "case"), CASES, ids=[f"{c.path}#{c.tc_id}" for _, c in CASES]
)
def test_replay(family: Family, case: Case) -> None:
    assert replay(family, case) is None


@pytest.mark.parametrize("path", sorted(GEN.texts))
def test_committed_file_is_regenerated_byte_for_byte(path: str) -> None:
    assert (ROOT / path).read_text(encoding="utf-8") == GEN.texts[path]


def test_regeneration_is_deterministic() -> None:
    assert generate_all().texts == GEN.texts


def test_no_stray_files() -> None:
    on_disk = {p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*") if p.is_file()}
    assert on_disk == set(GEN.texts)


@pytest.mark.parametrize("path", sorted(GEN.owners))
def test_schema_valid(path: str) -> None:
    schemas = {p.split("/", 1)[1]: json.loads(t) for p, t in GEN.texts.items()
               if p.startswith(SCHEMA_DIR + "/")}
    validator = jsonschema.Draft202012Validator(
        schemas[GEN.schema_of[path]], registry=schema_registry(schemas))
    validator.validate(json.loads(GEN.texts[path]))


def test_schemas_are_valid_schemas() -> None:
    for path, text in GEN.texts.items():
        if path.startswith(SCHEMA_DIR + "/"):
            jsonschema.Draft202012Validator.check_schema(json.loads(text))


def test_schema_rejects_a_broken_test() -> None:
    schemas = {p.split("/", 1)[1]: json.loads(t) for p, t in GEN.texts.items()
               if p.startswith(SCHEMA_DIR + "/")}
    path = "tape/random_tape.json"
    doc = json.loads(GEN.texts[path])
    doc["testGroups"][0]["tests"][0]["result"] = "maybe"
    validator = jsonschema.Draft202012Validator(
        schemas[GEN.schema_of[path]], registry=schema_registry(schemas))
    assert list(validator.iter_errors(doc))


def test_manifest_digest_matches_sha256sum_format() -> None:
    import hashlib

    manifest = json.loads(GEN.texts[MANIFEST])
    listing = "".join(f"{e['sha256']}  {e['path']}\n" for e in manifest["files"])
    assert hashlib.sha256(listing.encode()).hexdigest() == manifest["setDigest"]
    for entry in manifest["files"]:
        assert hashlib.sha256((ROOT / entry["path"]).read_bytes()).hexdigest() == entry["sha256"]


def test_every_family_has_files_and_handlers() -> None:
    for family in all_families():
        docs = [json.loads(GEN.texts[p]) for p, owner in GEN.owners.items() if owner.name == family.name]
        assert docs, family.name
        ops = {g["op"] for doc in docs if "testGroups" in doc for g in doc["testGroups"]}
        assert ops <= set(family.handlers()), (family.name, ops - set(family.handlers()))


def test_tcids_are_sequential_and_flags_explained() -> None:
    for path in GEN.owners:
        doc = json.loads(GEN.texts[path])
        if "testGroups" not in doc:
            continue
        ids = [t["tcId"] for g in doc["testGroups"] for t in g["tests"]]
        assert ids == list(range(1, len(ids) + 1)), path
        assert doc["numberOfTests"] == len(ids)
        for g in doc["testGroups"]:
            for t in g["tests"]:
                assert set(t["flags"]) <= set(doc["notes"]), (path, t["tcId"])


def test_vectors_dir_exists() -> None:
    assert isinstance(ROOT, Path) and ROOT.is_dir()
