"""The official draft-20 Prio3 vectors: step-by-step replay, and byte-exact regeneration.

The vectors are those of cfrg/draft-irtf-cfrg-vdaf at tag draft-irtf-cfrg-vdaf-20, kept under
``vectors/vdaf-official/draft-20/vdaf`` (25 files, 8 of them negative ``bad_*``; provenance and
digests in ``vectors/vdaf-official/PROVENANCE.json``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dpspec.conformance.families import vdaf as fam
from dpspec.conformance.store import replay
from dpspec.spec.vdaf import VerifyError
from tests.conftest import VDAF_VECTORS

OFFICIAL = VDAF_VECTORS / "draft-20" / "vdaf"
FILES = sorted(p.name for p in OFFICIAL.glob("Prio3*.json"))


def _load(name: str) -> dict[str, object]:
    doc: dict[str, object] = json.loads((OFFICIAL / name).read_text(encoding="utf-8"))
    return doc


def test_all_25_official_files_are_present() -> None:
    assert len(FILES) == 25
    assert sum("_bad_" in f for f in FILES) == 8


@pytest.mark.parametrize("name", FILES)
def test_official_file_replays_step_by_step(name: str) -> None:
    """Every operation of the file, in order, from the file's own (decoded) inputs, every output
    byte compared, every ``success: false`` operation failing with VerifyError."""
    assert fam.replay_operations(name, _load(name)) == []


@pytest.mark.parametrize("name", FILES)
def test_official_file_as_harness_case(name: str) -> None:
    doc = _load(name)
    [case] = fam.FAMILY.cases(f"vdaf/{name}", doc)
    assert case.result == ("invalid" if "_bad_" in name else "valid")
    assert replay(fam.FAMILY, case) is None


def test_generator_reproduces_the_official_files_byte_for_byte() -> None:
    docs = fam.official_docs()
    assert sorted(docs) == FILES
    for name, doc in docs.items():
        assert fam.official_json_text(doc) == (OFFICIAL / name).read_text(encoding="utf-8"), name


def test_replay_detects_a_changed_byte() -> None:
    doc = _load("Prio3Histogram_0.json")
    report = doc["reports"][0]  # type: ignore[index]
    share = report["verifier_shares"][0][1]
    report["verifier_shares"][0][1] = ("0" if share[0] != "0" else "1") + share[1:]
    problems = fam.replay_operations("Prio3Histogram_0.json", doc)
    assert problems and "verifier share" in problems[0]


@pytest.mark.parametrize(("name", "check"), [
    ("Prio3Count_bad_meas_share.json", "proof"),
    ("Prio3Count_bad_wire_seed.json", "proof"),
    ("Prio3Count_bad_gadget_poly.json", "proof"),
    ("Prio3Count_bad_helper_seed.json", "proof"),
    ("Prio3Histogram_bad_leader_jr_blind.json", "proof"),
    ("Prio3Histogram_bad_helper_jr_blind.json", "proof"),
    ("Prio3Histogram_bad_public_share.json", "proof"),
    ("Prio3Histogram_bad_verifier_message.json", "joint_rand"),
])
def test_negative_vectors_name_the_failed_check(name: str, check: str) -> None:
    doc = _load(name)
    [case] = fam.FAMILY.cases(f"vdaf/{name}", doc)
    with pytest.raises(VerifyError) as info:
        fam.op_verify(dict(case.args))
    assert info.value.check == check


def test_vectors_folder_is_where_the_tests_expect_it() -> None:
    assert isinstance(OFFICIAL, Path)


@pytest.mark.parametrize("name", FILES)
def test_official_files_satisfy_the_format_schema(name: str) -> None:
    import jsonschema

    jsonschema.Draft202012Validator(fam.format_schema()).validate(_load(name))
