"""Vector family ``vdaf-official``: the official VDAF test vectors, part of the project.

The files of draft-irtf-cfrg-vdaf are kept under ``vectors/vdaf-official/`` in the layout of the
upstream repository (cfrg/draft-irtf-cfrg-vdaf), so that no data outside a clone is needed:

* ``draft-20/vdaf/Prio3*.json`` (25 files) and ``draft-20/Xof*.json`` (2 files): **regenerated**
  from their inputs by this project's code (:func:`dpspec.conformance.families.vdaf.official_docs`
  for Prio3, :class:`dpspec.spec.xof.XofTurboShake128` and :class:`XofFixedKeyAes128` for the XOFs,
  written as the draft's generator writes them: ``json.dumps(indent=4, sort_keys=True)`` plus a
  newline). Each regenerated file must hash to the SHA-256 of the official file, recorded below.
* ``draft-08/*.json`` (13 files): draft-08 is not implemented here; its Prio3 files drive the
  third-party divviup-ts (npm ``@divviup/prio3@0.8.0``) through the conformance harness. They are
  **kept as data**, copied unchanged, and pinned by the same recorded SHA-256.
* ``PROVENANCE.json``: the source repository, tag, commit and upstream path of both folders, and
  the digest of every file.

``tests/test_vdaf_official_files.py`` checks every digest; ``dpspec vectors check`` regenerates
the draft-20 files byte for byte. The harness suites ``vdaf-official-20`` and
``vdaf-official-08`` (:mod:`dpspec.conformance.harness.vdaf_official`) replay them step by step.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from dpspec.conformance.families.vdaf import (
    format_schema,
    official_docs,
    official_json_text,
    test_vec_gen_rand,
)
from dpspec.conformance.vectors import SCHEMA_ID_PREFIX, Family, Handler, VectorFile
from dpspec.spec.field import Field128
from dpspec.spec.xof import XofFixedKeyAes128, XofTurboShake128

FOLDER = "vdaf-official"
PROVENANCE_PATH = f"{FOLDER}/PROVENANCE.json"
REPOSITORY = "https://github.com/cfrg/draft-irtf-cfrg-vdaf"
PROVENANCE_SCHEMA = "vdaf_official_provenance-v1.json"
XOF_SCHEMA = "vdaf_official_xof-v1.json"
DRAFT08_SCHEMA = "vdaf_official_draft08-v1.json"
PRIO3_SCHEMA = "vdaf_test_vector-v1.json"   # defined by the vdaf family

#: Where each folder comes from, and the SHA-256 of every official file (computed on the files
#: as published at that commit).
SOURCES: dict[str, dict[str, Any]] = {
    "draft-20": {
        "draft": "draft-irtf-cfrg-vdaf-20 (vectors identical for -18, -19 and -20; wire VERSION 18)",
        "tag": "draft-irtf-cfrg-vdaf-20",
        "commit": "5203892540a95e564dfa978345d16b40baf3c65d",
        "upstreamPaths": {"vdaf/": "test_vec/vdaf/", "": "test_vec/"},
        "how": "regenerated from the files' inputs by this project; each must hash to the official digest",
        "sha256": {
            "XofFixedKeyAes128.json": "de9b8852668db3ad224721d8e9f1b78f3e57f801f7eee64fe3c821916d4937e7",
            "XofTurboShake128.json": "8f34d9dd964e5320b8db214706dcbf4bf5da4cba95d11a99bd25e73658c6e0ce",
            "vdaf/Prio3Count_0.json": "0701925266d136d90df37dc7e447d91c885ecf2e26ba62ec98811283fd56a4d3",
            "vdaf/Prio3Count_1.json": "801b983009c1d262a5bf47154b25007392d865810f38a9da5733addd58c57eb7",
            "vdaf/Prio3Count_2.json": "67d5535501d5be79ae06766cd9e94cce8e83fb54a7925ff3a0404338064c8a59",
            "vdaf/Prio3Count_bad_gadget_poly.json":
                "e060c4e267342a84f09b3a27331ac713fff38547f1228c239199cb173059981d",
            "vdaf/Prio3Count_bad_helper_seed.json":
                "b6181bc26554796048fe91c7e2405dd084fadfab1fbc5b531948b46a02ea4e4f",
            "vdaf/Prio3Count_bad_meas_share.json":
                "29fe7518bb85c270783198e924eedcb981267b84577d7dd8b0c4de5fe478efdc",
            "vdaf/Prio3Count_bad_wire_seed.json":
                "4d593e7e5128b8b439b51743ffe74fcc9cfa41d487cefe35da29dde89eb85875",
            "vdaf/Prio3HigherDegree_0.json":
                "9628c2e922cbd2fc47609cbea9fc1d378b1b521c902f547b93dd8b53d8c281ed",
            "vdaf/Prio3Histogram_0.json": "991bafe94fe1725fb4954395cc94d975526626e812ed19db88f120eed5efdd2c",
            "vdaf/Prio3Histogram_1.json": "65225dc0b8dff810e8a61630db401ccb82b04b58dc75ae7410ab28327353fc4a",
            "vdaf/Prio3Histogram_2.json": "f022b9d68ad4612c8b9270afedcb8e3d86b4e039902c4e90a2ce85278d9a05af",
            "vdaf/Prio3Histogram_bad_helper_jr_blind.json":
                "8c8f4362444ce0a634136c05c0e4466df81679a8d6a5a34f7fd6d775c170b8a8",
            "vdaf/Prio3Histogram_bad_leader_jr_blind.json":
                "cb1c86be8ca9a08692eaae67a8dc1b590f5a85c66eb7bcc09da43a0c3a6ba0b2",
            "vdaf/Prio3Histogram_bad_public_share.json":
                "b27f48e8157a3da7c5fce1f523899931c861f94562096ca5c57299a0d48a2b4e",
            "vdaf/Prio3Histogram_bad_verifier_message.json":
                "b91124fe933c12deb1c62d251cf795f93a6dccf765bc9d6af5390f3cb5e7820b",
            "vdaf/Prio3MultihotCountVec_0.json":
                "87d5cb3d687f7e2f385ff2fafc944b29fe555e7d0220dc7d6061bb9ef87bbfdd",
            "vdaf/Prio3MultihotCountVec_1.json":
                "8c287a681923ff4eca5bf53ac86e45d9e17e59f9f24a4bbe92c83c1f51564a8c",
            "vdaf/Prio3MultihotCountVec_2.json":
                "0491474320c6a0da425f690cf1737f20ce0b5170795c6a57d7c78859755e0aee",
            "vdaf/Prio3SumVecWithMultiproof_0.json":
                "85a3bf5cbedee6958d3cf9a9ac2080e511f55c136e8a048908285e3208926e9e",
            "vdaf/Prio3SumVecWithMultiproof_1.json":
                "cb4ac08c82f847bcbbbfaab7718fe67e33d0b290b68613775bd31f471a3c731f",
            "vdaf/Prio3SumVec_0.json": "93a4ae011b547a0915a6099e731660058f1140c537af71e2f0100e61ffa82f9c",
            "vdaf/Prio3SumVec_1.json": "cfaf8bf26280c399026009be710d0f196fb48d9c44d2bc7094df7ff593fbd588",
            "vdaf/Prio3Sum_0.json": "07c448e3690c8392a8d89c2cc0c298b876f4e59f1220cc49c5b0b28d43bc7965",
            "vdaf/Prio3Sum_1.json": "2b4239d0c5e2ba8f9c64f3e51dbcc3fcd1fb7d4f21cdd352d42d4916828e2808",
            "vdaf/Prio3Sum_2.json": "4d1b5cd33a5aaee952dc1e8aecc857a1926f92db8d4fdc7031cb032a69ee8ebd",
        },
    },
    "draft-08": {
        "draft": "draft-irtf-cfrg-vdaf-08 (wire VERSION 8), implemented by npm @divviup/prio3@0.8.0",
        "tag": "draft-irtf-cfrg-vdaf-08",
        "commit": "b74e9c37d838b9a1182f0e4b7b4f6e737bd565ed",
        "upstreamPaths": {"": "poc/test_vec/08/"},
        "how": "kept as data, copied unchanged (Poplar1 and IDPF files not copied)",
        "sha256": {
            "Prio3Count_0.json": "58c3aaedecb52147850804cb6033fb5e9636a386f4e1757891d65f4f1efee345",
            "Prio3Count_1.json": "2f0f2688925d6789290a3ed9f46fa0815024f4be5ba3bbc46c1e73fb3b824f41",
            "Prio3Histogram_0.json": "a14fd6dd9a9e7bfccda2066414db9e89d3fdc9a0531e28e674f70d7786369a7d",
            "Prio3Histogram_1.json": "bef205f52aae80a5fef98a8e19b97bb43541c5140ed1dc1509a8a7c7f2cacfe5",
            "Prio3MultiHotHistogram_0.json":
                "5bfc014b524c9c1d89b1a7b30b0760e7f929205a3b9f5bbc43280f6e1f970d55",
            "Prio3MultiHotHistogram_1.json":
                "5980d164c78c3b146e261f3d9078163d01be097e26f8da3689e1c632e499e46e",
            "Prio3SumVecWithMultiproof_0.json":
                "3e7da0001d34f20816ce3729bbd14f3160ea40813bf6b7705a5cb994077a61d8",
            "Prio3SumVec_0.json": "ba07aa0d0435e9c1b4f4bd27ae2eb20d20e2f3c9c35bdeb3b7d0b91d1cdb7245",
            "Prio3SumVec_1.json": "32864dc26cb90551bae952c51c65afc52ba9679a1d77c6f0a2b42d46cda7ae50",
            "Prio3Sum_0.json": "2710a9e07af08bbc073f70afd18f9ca176f7a0b161dc4902b1db877431b89eb0",
            "Prio3Sum_1.json": "1487295734b0381ddee13a8dc98b0b66d04ed0e96b496de7181614c06bdfc369",
            "XofFixedKeyAes128.json": "a96370275c08778d7b95b2b3af2156a180a1319b4ff13aa62340fcc39609cd83",
            "XofTurboShake128.json": "3444a04c7f0c6f8656847b7580be11dfeffb3f5ed650dc18581a683b662a7695",
        },
    },
}

#: The draft's XOF vector inputs (its generator's ``gen_test_vec``): seed = ``i % 256`` bytes.
XOF_DST = b"domain separation tag"
XOF_BINDER = b"binder string"
XOF_LENGTH = 40


def official_path(draft: str, name: str) -> str:
    """The path under vectors/ of an official file (``name`` as in :data:`SOURCES`)."""
    return f"{FOLDER}/{draft}/{name}"


def xof_doc(xof: type[XofTurboShake128]) -> dict[str, Any]:
    """The draft's XOF vector for one XOF class (sec. 6.2 of the VDAF draft): derive_seed and
    expand_into_vec(Field128, 40) from fixed inputs."""
    seed = test_vec_gen_rand(xof.SEED_SIZE)
    vec = xof.expand_into_vec(Field128, seed, XOF_DST, XOF_BINDER, XOF_LENGTH)
    return {
        "binder": XOF_BINDER.hex(),
        "derived_seed": xof.derive_seed(seed, XOF_DST, XOF_BINDER).hex(),
        "dst": XOF_DST.hex(),
        "expanded_vec_field128": Field128.encode_vec(vec).hex(),
        "length": XOF_LENGTH,
        "seed": seed.hex(),
    }


def draft20_texts() -> dict[str, str]:
    """name (as in :data:`SOURCES`) -> text of every draft-20 file, regenerated."""
    texts = {f"vdaf/{name}": official_json_text(doc) for name, doc in official_docs().items()}
    texts["XofTurboShake128.json"] = official_json_text(xof_doc(XofTurboShake128))
    texts["XofFixedKeyAes128.json"] = official_json_text(xof_doc(XofFixedKeyAes128))
    return texts


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def draft08_texts(vectors_dir: Path | None = None) -> dict[str, str]:
    """name -> text of every draft-08 data file, read from ``vectors_dir`` (the checkout's or the
    installed package's vectors/ by default) and checked against its recorded digest."""
    if vectors_dir is None:
        from dpspec.conformance.store import default_vectors_dir

        vectors_dir = default_vectors_dir()
    out: dict[str, str] = {}
    for name, digest in SOURCES["draft-08"]["sha256"].items():
        path = vectors_dir / official_path("draft-08", name)
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise RuntimeError(f"{path}: the draft-08 data file cannot be read ({exc.strerror})") from exc
        if hashlib.sha256(data).hexdigest() != digest:
            raise RuntimeError(f"{path}: does not match its recorded SHA-256 {digest} "
                               f"(restore it from {REPOSITORY} at {SOURCES['draft-08']['commit']})")
        out[name] = data.decode("utf-8")
    return out


def provenance_doc() -> dict[str, Any]:
    return {
        "about": ("Official test vectors of draft-irtf-cfrg-vdaf, kept in the layout of the upstream "
                  "repository. draft-20 files are regenerated by dpspec and must hash to the official "
                  "digest; draft-08 files are data. Every digest is the SHA-256 of the official file."),
        "repository": REPOSITORY,
        "folders": {draft: dict(src) for draft, src in SOURCES.items()},
    }


class VdafOfficialFamily(Family):
    name = "vdaf-official"
    summary = "the official VDAF vectors: draft-20 Prio3 + XOF regenerated, draft-08 kept as data"
    #: replayed by the dedicated suites vdaf-official-20 / -08, not as a family suite
    harness_suite = False

    def handlers(self) -> dict[str, Handler]:
        return {}

    def cases(self, path: str, doc: Any) -> list[Any]:
        return []

    def files(self) -> list[VectorFile]:
        files = [VectorFile(PROVENANCE_PATH, provenance_doc(), PROVENANCE_SCHEMA)]
        for name, text in sorted(draft20_texts().items()):
            schema = PRIO3_SCHEMA if name.startswith("vdaf/") else XOF_SCHEMA
            files.append(VectorFile(official_path("draft-20", name), json.loads(text), schema, text=text))
        for name, text in sorted(draft08_texts().items()):
            schema = XOF_SCHEMA if name.startswith("Xof") else DRAFT08_SCHEMA
            files.append(VectorFile(official_path("draft-08", name), json.loads(text), schema, text=text))
        return files

    def schemas(self) -> dict[str, dict[str, Any]]:
        hexstr = {"type": "string", "pattern": "^([0-9a-f]{2})*$"}
        sha = {"type": "string", "pattern": "^[0-9a-f]{64}$"}
        return {
            PRIO3_SCHEMA: format_schema(),
            XOF_SCHEMA: {
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "$id": SCHEMA_ID_PREFIX + XOF_SCHEMA,
                "title": "official VDAF XOF test vector (draft-irtf-cfrg-vdaf)",
                "type": "object", "additionalProperties": False,
                "required": ["binder", "derived_seed", "dst", "expanded_vec_field128", "length", "seed"],
                "properties": {"binder": hexstr, "derived_seed": hexstr, "dst": hexstr,
                               "expanded_vec_field128": hexstr, "seed": hexstr,
                               "length": {"type": "integer", "minimum": 0}},
            },
            DRAFT08_SCHEMA: {
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "$id": SCHEMA_ID_PREFIX + DRAFT08_SCHEMA,
                "title": "official VDAF draft-08 Prio3 test vector (prep schema)",
                "type": "object",
                "required": ["shares", "verify_key", "agg_param", "prep", "agg_shares", "agg_result"],
                "properties": {"shares": {"type": "integer", "minimum": 2}, "verify_key": hexstr,
                               "agg_shares": {"type": "array", "items": hexstr},
                               "prep": {"type": "array", "items": {
                                   "type": "object",
                                   "required": ["measurement", "nonce", "rand", "public_share",
                                                "input_shares", "prep_shares", "prep_messages",
                                                "out_shares"]}}},
            },
            PROVENANCE_SCHEMA: {
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "$id": SCHEMA_ID_PREFIX + PROVENANCE_SCHEMA,
                "title": "provenance of the official VDAF vectors",
                "type": "object", "additionalProperties": False,
                "required": ["about", "repository", "folders"],
                "properties": {
                    "about": {"type": "string"}, "repository": {"type": "string"},
                    "folders": {"type": "object", "additionalProperties": {
                        "type": "object",
                        "required": ["draft", "tag", "commit", "upstreamPaths", "how", "sha256"],
                        "properties": {"commit": {"type": "string", "pattern": "^[0-9a-f]{40}$"},
                                       "sha256": {"type": "object", "additionalProperties": sha}}}},
                },
            },
        }


FAMILY = VdafOfficialFamily()

