"""The harness runs any family generically: its own cases() and compare() (here with a tolerance,
as the accounting family will have), from a vector folder found through its manifest."""

from __future__ import annotations

import json
import sys
import textwrap
from fractions import Fraction
from pathlib import Path
from typing import Any

from dpspec.conformance.adapters.reference import reference_handlers
from dpspec.conformance.harness.adapters import AdapterSpec
from dpspec.conformance.harness.model import ERROR, FAILED, PASSED, SKIPPED
from dpspec.conformance.harness.runner import run_impl
from dpspec.conformance.harness.suites import FamilySuite
from dpspec.conformance.vectors import Case, Family, Handler, VectorFile, envelope
from dpspec.conformance.vectors import test_entry as entry


class ToyFamily(Family):
    """sqrt to within a relative tolerance given per test (outputs are decimal strings)."""

    name = "toy"
    summary = "square roots within a tolerance"

    def handlers(self) -> dict[str, Handler]:
        return {}

    def schemas(self) -> dict[str, dict[str, Any]]:
        return {}

    def files(self) -> list[VectorFile]:
        tests = [entry(1, "sqrt 2", {"x": "2", "rtol": "1e-9"}, {"root": "1.41421356237"}),
                 entry(2, "sqrt 10", {"x": "10", "rtol": "1e-9"}, {"root": "3.16227766017"}),
                 entry(3, "negative", {"x": "-1", "rtol": "0"}, None, "invalid", ["Neg"])]
        doc = envelope(algorithm="toy", family="toy", schema="toy-v1.json", header=["toy"],
                       notes={"Neg": "no real root"},
                       groups=[{"op": "toy.sqrt", "params": {}, "tests": tests}])
        return [VectorFile("toy/sqrt.json", doc, "toy-v1.json")]

    def cases(self, path: str, doc: Any) -> list[Case]:
        out = []
        for case in super().cases(path, doc):
            rtol = case.args.pop("rtol")
            out.append(Case(case.path, case.tc_id, case.op, case.args, case.expected, case.result,
                            case.comment, case.flags, {"rtol": rtol}))
        return out

    def compare(self, case: Case, provided: dict[str, Any]) -> str | None:
        assert case.expected is not None
        want, got = Fraction(case.expected["root"]), Fraction(str(provided["root"]))
        if abs(got - want) > Fraction(case.tolerance["rtol"]) * want + Fraction(1, 10**11):
            return f"root {got} not within rtol {case.tolerance['rtol']} of {want}"
        return None


ADAPTER = textwrap.dedent("""
    import math, sys
    sys.path.insert(0, {root!r})
    from dpspec.conformance.adapters.protocol import serve
    bias = float(sys.argv[1])
    def sqrt(args):
        assert "rtol" not in args, "the tolerance must stay with the harness"
        x = float(args["x"])
        if x < 0:
            raise ValueError("negative")
        return {{"root": repr(math.sqrt(x) * (1 + bias))}}
    sys.exit(serve({{"toy.sqrt": sqrt}}, implementation="toy", version="1", modes=["exact"]))
""")


def write_vectors(root: Path) -> None:
    family = ToyFamily()
    entries = []
    for vf in family.files():
        target = root / vf.path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(vf.doc))
        entries.append({"path": vf.path, "family": family.name, "sha256": "-"})
    (root / "MANIFEST.json").write_text(json.dumps({"files": entries}))


def test_a_new_family_with_a_tolerance_runs_unchanged(tmp_path: Path) -> None:
    write_vectors(tmp_path / "vectors")
    script = tmp_path / "toy_adapter.py"
    script.write_text(ADAPTER.format(root=str(Path(__file__).resolve().parents[1])))
    suite = FamilySuite(ToyFamily(), tmp_path / "vectors")
    assert suite.size() == 3 and suite.ops() == {"toy.sqrt"}

    close = AdapterSpec("toy", (sys.executable, str(script), "1e-12"), "t", bundled=False)
    impl = run_impl(close, [suite], timeout=10.0)
    assert impl.counts == {PASSED: 3, FAILED: 0, SKIPPED: 0, ERROR: 0}

    off = AdapterSpec("toy", (sys.executable, str(script), "1e-6"), "t", bundled=False)
    impl = run_impl(off, [suite], timeout=10.0)
    outcomes = impl.suites[0].outcomes
    assert [o.status for o in outcomes] == [FAILED, FAILED, PASSED]
    assert "not within rtol 1e-9" in outcomes[0].reason


def test_missing_or_broken_vector_files_are_reported(tmp_path: Path) -> None:
    suite = FamilySuite(ToyFamily(), tmp_path / "nothing")
    assert suite.available() is not None and suite.size() == 0
    write_vectors(tmp_path / "v")
    (tmp_path / "v" / "toy" / "sqrt.json").write_text("{not json")
    broken = FamilySuite(ToyFamily(), tmp_path / "v")
    assert broken.size() == 0
    script = tmp_path / "a.py"
    script.write_text(ADAPTER.format(root=str(Path(__file__).resolve().parents[1])))
    impl = run_impl(AdapterSpec("toy", (sys.executable, str(script), "0"), "t", bundled=False),
                    [broken], timeout=10.0)
    assert impl.counts[ERROR] == 1 and "cannot be read" in impl.suites[0].outcomes[0].reason


def test_reference_serves_the_vdaf_steps_and_every_family_op() -> None:
    from dpspec.conformance.families import all_families

    handlers = reference_handlers()
    assert {"vdaf.shard", "vdaf.verify_init", "vdaf.verifier_shares_to_message",
            "vdaf.verify_next", "vdaf.aggregate", "vdaf.unshard"} <= set(handlers)
    for family in all_families():
        assert set(family.handlers()) <= set(handlers)
