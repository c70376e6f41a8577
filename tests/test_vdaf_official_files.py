"""The official VDAF vectors are part of the project: each file under vectors/vdaf-official/ hashes
to the SHA-256 of the official file recorded (with source repository and commit) in
dpspec.conformance.families.vdaf_official and PROVENANCE.json; the draft-20 ones are regenerated
by the project's generator from their inputs."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from dpspec.conformance.families import vdaf_official as fam
from tests.conftest import VDAF_VECTORS

DRAFT20 = fam.draft20_texts()
RECORDED = [(d, n, h) for d, src in fam.SOURCES.items() for n, h in sorted(src["sha256"].items())]


def test_provenance_names_repository_tag_and_commit() -> None:
    doc = json.loads((VDAF_VECTORS / "PROVENANCE.json").read_text(encoding="utf-8"))
    assert doc["repository"] == "https://github.com/cfrg/draft-irtf-cfrg-vdaf"
    assert doc["folders"]["draft-20"]["commit"] == "5203892540a95e564dfa978345d16b40baf3c65d"
    assert doc["folders"]["draft-08"]["commit"] == "b74e9c37d838b9a1182f0e4b7b4f6e737bd565ed"
    assert {d: src["sha256"] for d, src in doc["folders"].items()} == {
        d: src["sha256"] for d, src in fam.SOURCES.items()}
    assert len(fam.SOURCES["draft-20"]["sha256"]) == 27 and len(fam.SOURCES["draft-08"]["sha256"]) == 13


@pytest.mark.parametrize(("draft", "name", "digest"), RECORDED, ids=[f"{d}/{n}" for d, n, _ in RECORDED])
def test_committed_file_has_the_official_digest(draft: str, name: str, digest: str) -> None:
    assert hashlib.sha256((VDAF_VECTORS / draft / name).read_bytes()).hexdigest() == digest


@pytest.mark.parametrize("name", sorted(DRAFT20))
def test_generator_writes_the_official_draft20_file(name: str) -> None:
    """The project's generator, from the file's inputs, gives the official bytes."""
    assert fam.sha256_text(DRAFT20[name]) == fam.SOURCES["draft-20"]["sha256"][name]


def test_every_official_file_is_recorded_and_nothing_else_is_there() -> None:
    on_disk = {p.relative_to(VDAF_VECTORS).as_posix() for p in VDAF_VECTORS.rglob("*.json")}
    recorded = {f"{d}/{n}" for d, n, _ in RECORDED}
    assert on_disk == recorded | {"PROVENANCE.json"}
    assert set(DRAFT20) == set(fam.SOURCES["draft-20"]["sha256"])


def test_a_changed_data_file_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "v" / "vdaf-official" / "draft-08"
    root.mkdir(parents=True)
    for name in fam.SOURCES["draft-08"]["sha256"]:
        (root / name).write_bytes((VDAF_VECTORS / "draft-08" / name).read_bytes())
    assert set(fam.draft08_texts(tmp_path / "v")) == set(fam.SOURCES["draft-08"]["sha256"])
    (root / "Prio3Sum_0.json").write_text("{}\n")
    with pytest.raises(RuntimeError, match="recorded SHA-256"):
        fam.draft08_texts(tmp_path / "v")
