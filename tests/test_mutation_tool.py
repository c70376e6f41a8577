"""The mutation tool of tests/mutation/mutate.py: its operators and its killed/survived verdicts."""

from __future__ import annotations

import functools
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.mutation import mutate

CLAMP = '''"""A fixture module."""


def clamp(x: int, lo: int, hi: int) -> int:
    """Docstrings are not mutated."""
    assert lo <= hi
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x
'''

# the fixture's "vectors": inputs and expected outputs
VECTORS = [((5, 0, 10), 5), ((-1, 0, 10), 0), ((11, 0, 10), 10)]


def _load(code: Any) -> Any:
    namespace: dict[str, Any] = {}
    exec(code, namespace)
    return namespace["clamp"]


def _fixture(tmp_path: Path) -> Path:
    path = tmp_path / "clamp.py"
    path.write_text(CLAMP, encoding="utf-8")
    return path


def test_the_operators_found_in_the_fixture(tmp_path: Path) -> None:
    ops = sorted((m.line, m.op) for m in mutate.mutants_of(_fixture(tmp_path)))
    assert (7, "Compare#0 Lt->LtE") in ops and (7, "Compare#0 Lt->GtE") in ops
    assert (9, "Compare#0 Gt->GtE") in ops
    assert (8, "Return None") in ops and (11, "Return None") in ops
    assert not any(line in (1, 5, 6) for line, _ in ops)  # docstrings and asserts are left alone
    assert all(m.in_function for m in mutate.mutants_of(_fixture(tmp_path)))


def test_a_known_mutation_changes_the_behaviour(tmp_path: Path) -> None:
    path = _fixture(tmp_path)
    [mutant] = [m for m in mutate.mutants_of(path) if m.line == 9 and m.op == "Compare#0 Gt->LtE"]
    clamp = _load(mutate.mutated_code(mutant))
    assert clamp(11, 0, 10) == 11 and clamp(5, 0, 10) == 10  # x > hi became x <= hi
    assert _load(compile(CLAMP, str(path), "exec"))(5, 0, 10) == 5


def test_constants_and_deletions() -> None:
    source = "def f(a):\n    b = a + 2\n    b -= 1\n    return b * 3\n"
    tree = __import__("ast").parse(source)
    found = [(node, op) for node, parent, _ in mutate._nodes(tree) for op in mutate._ops_for(node, parent)]
    ops = [op for _, op in found]
    assert {"Constant +1", "Constant -1", "BinOp Add->Sub", "AugAssign Sub->Add", "Delete AugAssign",
            "Delete Assign", "Return None", "Return negate"} <= set(ops)


def _check(code: Any) -> str | None:
    clamp = _load(code)
    for args, want in VECTORS:
        if clamp(*args) != want:
            return f"clamp{args} = {clamp(*args)}, want {want}"
    return None


def test_killed_and_survived_on_the_fixture(tmp_path: Path) -> None:
    """Run every mutant of the fixture against its three vectors in forked children. The
    survivors are exactly the mutants the vectors cannot see: the strict comparisons made
    non-strict (clamping at the bound returns the bound either way: equivalent)."""
    mutants = mutate.mutants_of(_fixture(tmp_path))
    codes = [mutate.mutated_code(m) for m in mutants]
    jobs: list[mutate.Job] = [(m.key, functools.partial(_check, code), 60.0)
                              for m, code in zip(mutants, codes, strict=True)]
    outcomes = mutate.run_forked(jobs, workers=2)
    verdicts = {(m.line, m.op): mutate.classify(o, 60.0)[0] for m, o in zip(mutants, outcomes, strict=True)}
    survivors = sorted(k for k, v in verdicts.items() if v == "survived")
    assert survivors == [(7, "Compare#0 Lt->LtE"), (9, "Compare#0 Gt->GtE")]
    assert verdicts[(11, "Return None")] == "killed"


def test_exceptions_and_timeouts_kill() -> None:
    def boom() -> None:
        raise ZeroDivisionError("mutant")

    jobs: list[mutate.Job] = [("ok", lambda: None, 60.0), ("diff", lambda: "differs", 60.0),
                              ("boom", boom, 60.0), ("hang", lambda: time.sleep(60), 1.0)]
    verdicts = [mutate.classify(o, 1.0)[0] for o in mutate.run_forked(jobs, workers=2)]
    assert verdicts == ["survived", "killed", "killed", "timeout"]


def test_every_area_lists_its_mutants() -> None:
    for area in mutate.AREAS:
        assert mutate.area_files(area), area
        for f in mutate.area_files(area):
            assert f.is_file(), f
    keys = [m.key for m in mutate.area_mutants("tape")]
    assert len(keys) == len(set(keys)) > 100


def test_patch_in_place_changes_the_live_function() -> None:
    """A mutant inside a function runs without any re-import: the live function (and so every
    name that imported it) gets the mutated code object; a module-level mutant cannot be."""
    import dpspec.spec.encoding as encoding
    from dpspec.spec.encoding import next_power_of_2

    def in_child(m: mutate.Mutant) -> list[int]:
        assert mutate.patch_in_place(m, mutate.mutated_code(m))
        return [next_power_of_2(n) for n in (1, 3, 8)]

    path = "dpspec/spec/encoding.py"
    muts = [m for m in mutate.mutants_of(mutate.REPO / path) if m.in_function
            and mutate._outer_function((mutate.REPO / path).read_text(), m) == (
                "next_power_of_2", next_power_of_2.__code__.co_firstlineno)]
    assert muts
    before = [next_power_of_2(n) for n in (1, 3, 8)]
    outcomes = mutate.run_forked([(m.key, functools.partial(in_child, m), 60.0) for m in muts], workers=2)
    assert all(o[0] == "ok" or o[0] == "error" for o in outcomes)
    assert any(o[0] == "error" or o[1] != before for o in outcomes)  # some mutant shows
    assert [next_power_of_2(n) for n in (1, 3, 8)] == before  # the parent is untouched
    assert encoding.next_power_of_2 is next_power_of_2


def test_a_loop_runs_out_of_cpu_time() -> None:
    """The CPU-time allowance stops a looping child whatever the load of the machine."""
    def loop() -> None:
        mutate.limit_cpu(1.0)
        while True:
            pass

    [outcome] = mutate.run_forked([("loop", loop, 120.0)], workers=1)
    assert mutate.classify(outcome, 120.0)[0] == "timeout"


def test_the_committed_journal_keeps_the_latest_current_result(tmp_path: Path, monkeypatch: Any) -> None:
    """Runs append to ``journal/AREA.MODE.jsonl``; ``report`` compacts each file to one line per
    current mutant (its latest result), dropping results for an older source and for mutants that
    no longer exist, so that branches and sessions can build up one whole-population measurement."""
    spec = tmp_path / "spec"
    spec.mkdir()
    (spec / "clamp.py").write_text(CLAMP, encoding="utf-8")
    monkeypatch.setattr(mutate, "REPO", tmp_path)
    monkeypatch.setattr(mutate, "SPEC", spec)
    monkeypatch.setattr(mutate, "JOURNAL_DIR", tmp_path / "journal")
    monkeypatch.setattr(mutate, "AREAS", {"fx": (("clamp.py",), ())})
    first, second = mutate.area_mutants("fx")[:2]
    sha = mutate.file_digest("spec/clamp.py")

    def result(m: mutate.Mutant, status: str, file_sha: str = sha) -> mutate.Result:
        return mutate.Result(m.key, "fx", "vectors", status, "", m.path, m.line, m.op, file_sha, "e")

    mutate._append(result(first, "survived"))
    mutate._append(result(first, "killed"))  # a later run of the same mutant wins
    mutate._append(result(second, "killed", file_sha="0" * 64))  # recorded for an older source
    gone = mutate.Result("spec/clamp.py:99:0-1:Constant +1", "fx", "vectors", "killed", "",
                         "spec/clamp.py", 99, "Constant +1", sha, "e")
    mutate._append(gone)  # a mutant that no longer exists
    assert len(mutate.journal_path("fx", "vectors").read_text().splitlines()) == 4
    mutate.compact_journal()
    lines = mutate.journal_path("fx", "vectors").read_text().splitlines()
    assert [json.loads(line)["key"] for line in lines] == [first.key]
    assert mutate.load_journal()[("vectors", first.key)].status == "killed"
    mutate.compact_journal()  # idempotent
    assert mutate.journal_path("fx", "vectors").read_text().splitlines() == lines


def test_a_mutant_that_does_not_compile_is_recorded_as_non_viable(tmp_path: Path, monkeypatch: Any) -> None:
    """Deleting the assignment a ``nonlocal`` needs leaves a file that does not compile: the
    run records it (killed, non-viable) instead of stopping."""
    path = tmp_path / "closure.py"
    path.write_text("def outer():\n    cut = 0\n\n    def inner():\n        nonlocal cut\n"
                    "        cut += 1\n    inner()\n    return cut\n", encoding="utf-8")
    monkeypatch.setattr(mutate, "JOURNAL_DIR", tmp_path / "journal")
    deletion = next(m for m in mutate.mutants_of(path) if m.op == "Delete Assign" and m.line == 2)
    with pytest.raises(SyntaxError) as exc:
        mutate.mutated_code(deletion)
    r = mutate._non_viable(deletion, "fx", "vectors", exc.value, "sha", "evidence")
    assert r.status == "killed" and r.detail.startswith("non-viable")
    assert (tmp_path / "journal" / "fx.vectors.jsonl").read_text().count("non-viable") == 1
    # a vectors job compiles its mutant in the child: it answers the same verdict
    answer = mutate._vector_job(deletion, [], {}, {})()
    status, detail = mutate.classify(("ok", answer, 0.0), 1.0)
    assert status == "killed" and detail.startswith("non-viable: the mutated file does not compile")


def test_a_function_that_only_the_imports_run_acts_at_import(tmp_path: Path, monkeypatch: Any) -> None:
    # lazy_module() runs while the spec modules are imported, before any family trace starts: its
    # mutants are checked like module-level ones (every family that uses the file, in full), not
    # recorded as unreached
    monkeypatch.setattr(mutate, "CACHE_DIR", tmp_path)
    monkeypatch.setattr(mutate, "_IMPORT_LINES", None)
    lines = mutate.import_lines()
    assert list(tmp_path.glob("imports-*.json"))  # cached
    lazy = [m for m in mutate.mutants_of(mutate.REPO / "dpspec/spec/lazy.py") if m.in_function]
    factory = next(m for m in lazy if m.op == "Return None" and m.line in lines["dpspec/spec/lazy.py"])
    getattr_raise = next(m for m in lazy if m.op == "Delete Raise")
    assert getattr_raise.line not in lines["dpspec/spec/lazy.py"]  # runs on attribute access only
    # a fake coverage: one family executes __getattr__ at run time, none executes the factory
    cov: Any = {"fam": {"secs": 1.0, "lines": {"dpspec/spec/lazy.py": [getattr_raise.line]},
                        "case_lines": {"dpspec/spec/lazy.py": {str(getattr_raise.line): [0]}}}}
    assert mutate._acts_at_import(factory, cov)
    assert mutate.reaching_families(factory, cov) == ["fam"]
    assert mutate.targeted_cases(factory, cov) == {}  # no quick shortcut: the full check
    assert not mutate._acts_at_import(getattr_raise, cov)
    assert mutate.targeted_cases(getattr_raise, cov) == {"fam": {0}}
    cov["fam"]["lines"] = {}
    assert mutate.reaching_families(getattr_raise, cov) == []  # unreached, as before


def test_run_selection_by_file_and_keys(tmp_path: Path) -> None:
    """``run --file`` keeps a file's mutants, ``--keys`` the listed keys (text after a tab ignored);
    both together must both hold; an empty key list is refused."""
    ms = mutate.area_mutants("tape")
    assert mutate._selection(None, None) is None
    by_file = mutate._selection(["spec/xof.py"], None)
    assert by_file is not None
    assert {m.path for m in ms if by_file(m)} == {"dpspec/spec/xof.py"}
    listed = tmp_path / "keys.txt"
    listed.write_text(f"{ms[0].key}\t(families: tape)\n\n{ms[-1].key}\n", encoding="utf-8")
    by_keys = mutate._selection(None, listed)
    assert by_keys is not None
    assert [m for m in ms if by_keys(m)] == [ms[0], ms[-1]]
    both = mutate._selection(["spec/tape.py"], listed)
    assert both is not None
    assert [m for m in ms if both(m)] == [m for m in (ms[0], ms[-1]) if m.path.endswith("spec/tape.py")]
    listed.write_text("\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="no mutant key"):
        mutate._selection(None, listed)


def test_fresh_import_reaches_from_package_import_module() -> None:
    """After :func:`mutate.fresh_dpspec`, ``from package import module`` loads the mutated module
    (a package keeps its submodules as attributes; the stale attribute must go too). Run in a
    child interpreter: the function rewrites ``sys.modules``."""
    script = (
        "from tests.mutation import mutate\n"
        "import dpspec.spec.shuffled.accuracy as old\n"
        "m = next(m for m in mutate.mutants_of(mutate.REPO / 'dpspec/spec/shuffled/accuracy.py')"
        " if not m.in_function)\n"
        "mutate.fresh_dpspec(m)\n"
        "from dpspec.spec.shuffled import accuracy as new\n"
        "assert new is not old, 'the package attribute kept the unmutated module'\n"
        "assert isinstance(new.__spec__.loader, mutate._MutantFinder), new.__spec__\n"
        "print('ok')\n")
    out = subprocess.run([sys.executable, "-c", script], cwd=mutate.REPO, capture_output=True,
                         text=True, check=False)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


def test_the_cases_that_killed_most_are_replayed_first(monkeypatch: Any) -> None:
    """The targeted replay tries first the cases that killed most mutants so far (learnt from the
    journal and during the run); every chosen case is still replayed when none differs, so the
    order changes how soon a kill is seen, never the verdict."""
    from dpspec.conformance import store

    committed = mutate.committed_texts()
    family = mutate._family("tape")
    path = mutate.family_paths("tape", committed)[0]
    cases = list(family.cases(path, json.loads(committed[path])))[:3]
    labels = [mutate.case_label(path, c.tc_id) for c in cases]
    seen: list[Any] = []

    def recording(fam: Any, case: Any) -> str | None:
        seen.append(case.tc_id)
        return None

    monkeypatch.setattr(store, "replay", recording)
    kills = {labels[2]: 3, labels[1]: 1}
    assert mutate.replay_targeted(["tape"], {"tape": {0, 1, 2}}, committed, kills) is None
    assert seen == [cases[2].tc_id, cases[1].tc_id, cases[0].tc_id]
    seen.clear()
    assert mutate.replay_targeted(["tape"], {"tape": {0, 1, 2}}, committed) is None  # file order
    assert seen == [c.tc_id for c in cases]
    seen.clear()
    # across families: a case of the second family that killed before comes first
    other = mutate.family_paths("distributions", committed)[0]
    first_other = next(iter(mutate._family("distributions").cases(other, json.loads(committed[other]))))
    both = {"tape": {0, 1}, "distributions": {0}}
    assert mutate.replay_targeted(["tape", "distributions"], both, committed,
                                  {mutate.case_label(other, first_other.tc_id): 1}) is None
    assert seen == [first_other.tc_id, cases[0].tc_id, cases[1].tc_id]

    monkeypatch.setattr(store, "replay",
                        lambda fam, case: "differs" if case.tc_id == cases[1].tc_id else None)
    assert mutate.replay_targeted(["tape"], {"tape": {0, 1, 2}}, committed, kills) == f"{labels[1]}: differs"

    def result(status: str, detail: str) -> mutate.Result:
        return mutate.Result("k", "tape", "vectors", status, detail, "p", 1, "op", "s", "e")

    history = [result("killed", f"{labels[0]}: differs"), result("killed", f"{labels[0]}: other"),
               result("killed", "raised ValueError: x"), result("survived", f"{labels[1]}: no")]
    assert mutate.killing_cases(history) == {labels[0]: 2}


def test_the_lazily_imported_modules_are_warmed_in_the_parent() -> None:
    """scipy is imported on first use by dpspec (dpspec.spec.lazy); the tool imports such modules
    once in the parent so that forked children do not each import them again."""
    code = ("import sys; import dpspec.conformance.families as f; f.all_families(); "
            "from tests.mutation import mutate; assert 'scipy.stats' not in sys.modules; "
            "names = mutate.warm_lazy_modules(); assert 'scipy.stats' in names, names; "
            "assert 'scipy.stats' in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=mutate.REPO)


def test_the_cpu_allowance_follows_the_targeted_cases() -> None:
    """The CPU allowance of a targeted replay is the traced time of its own cases when the trace
    has per-case times (a slow case is not averaged away: a mutant must not be recorded as a
    timeout because the cases it needs are slower than the family's average)."""
    cov = {"f": {"cases": 4, "replay_secs": 4.0, "case_cpu": [0.1, 0.1, 0.1, 3.7]},
           "old": {"cases": 4, "replay_secs": 4.0}}
    assert mutate.targeted_cost("f", {3}, cov) == pytest.approx(3.7)
    assert mutate.targeted_cost("f", {0, 1}, cov) == pytest.approx(0.2)
    assert mutate.targeted_cost("old", {3}, cov) == pytest.approx(1.0)  # a trace without them


def test_the_full_check_can_regenerate_first(monkeypatch: Any) -> None:
    """The full check runs every replay and every regeneration whatever the order; with
    ``regenerate_first`` the generators come first (a mutant that only a generator executes is
    seen without replaying the families' cases)."""
    calls: list[str] = []
    monkeypatch.setattr(mutate, "replay_cases", lambda n, c: calls.append(f"replay {n}"))
    monkeypatch.setattr(mutate, "regenerate", lambda n, c: calls.append(f"regen {n}"))
    assert mutate.check_families(["a", "b"], {}) is None
    assert calls == ["replay a", "replay b", "regen a", "regen b"]
    calls.clear()
    assert mutate.check_families(["a", "b"], {}, regenerate_first=True) is None
    assert calls == ["regen a", "regen b", "replay a", "replay b"]
    monkeypatch.setattr(mutate, "regenerate", lambda n, c: f"{n}/x.json differs")
    assert mutate.check_families(["a", "b"], {}, regenerate_first=True) == "a/x.json differs"


def test_a_module_level_mutant_targets_the_cases_that_read_what_it_changes() -> None:
    """A constant's mutant is replayed on the cases that ran a function reading it (by name, by
    attribute, through a default argument computed from it at import), not on every case of every
    family that imports its module; a case that reads none of it is left out."""
    orders = next(m for m in mutate.mutants_of(mutate.REPO / "dpspec/spec/accounting/definitions.py")
                  if not m.in_function and m.line == 29)
    reach = mutate._import_reach(orders)
    defs = (mutate.REPO / "dpspec/spec/accounting/definitions.py").read_text().splitlines()
    to_dp = next(i for i, t in enumerate(defs, 1) if t.startswith("def rdp_curve_to_dp"))
    assert to_dp in reach["dpspec/spec/accounting/definitions.py"]  # its default argument
    shuffle = (mutate.REPO / "dpspec/spec/accounting/shuffle.py").read_text().splitlines()
    reader = next(i for i, t in enumerate(shuffle, 1) if "for o in DEFAULT_ORDERS" in t)
    assert reader in reach["dpspec/spec/accounting/shuffle.py"]  # read by name after an import
    sub = (mutate.REPO / "dpspec/spec/accounting/subsampling.py").read_text().splitlines()
    default = next(i for i, t in enumerate(sub, 1) if "= DEFAULT_ORDERS" in t)
    assert default in reach["dpspec/spec/accounting/subsampling.py"]  # the def whose default it is
    unrelated = next(i for i, t in enumerate(defs, 1) if t.startswith("def hockey_stick"))
    assert unrelated + 3 not in reach["dpspec/spec/accounting/definitions.py"]
    cov: Any = {"fam": {"secs": 1.0, "lines": {"dpspec/spec/accounting/definitions.py": [to_dp + 1]},
                        "case_lines": {"dpspec/spec/accounting/shuffle.py": {str(reader): [3]},
                                       "dpspec/spec/accounting/definitions.py":
                                           {str(unrelated + 3): [0, 1]}}}}
    assert mutate._acts_at_import(orders, cov)
    assert mutate.targeted_cases(orders, cov) == {"fam": {3}}


def test_the_cap_keeps_the_most_killing_then_the_cheapest_cases(monkeypatch: Any) -> None:
    """``--quick --cap S``: at most S traced seconds of targeted cases (always one), those that
    killed most first, then the cheapest; the count left out is reported."""
    monkeypatch.setattr(mutate, "_case_labels", lambda name, digest: ("a", "b", "c", "d"))
    cov: Any = {"f": {"cases": 4, "replay_secs": 4.0, "case_cpu": [1.0, 0.5, 3.0, 2.0]}}
    kept, left = mutate.cap_targeted({"f": {0, 1, 2, 3}}, cov, {"d": 5}, 2.6, "x")
    assert kept == {"f": {3, 1}} and left == 2  # d killed most; then b, the cheapest; a no longer fits
    kept, left = mutate.cap_targeted({"f": {2}}, cov, {}, 0.1, "x")
    assert kept == {"f": {2}} and left == 0  # one case at least, whatever it costs
    kept, left = mutate.cap_targeted({"f": {0, 1, 2, 3}}, cov, {}, 100.0, "x")
    assert kept == {"f": {0, 1, 2, 3}} and left == 0


def test_the_cap_needs_quick() -> None:
    out = subprocess.run([sys.executable, "-m", "tests.mutation.mutate", "run", "--area", "tape",
                          "--cap", "5"], cwd=mutate.REPO, capture_output=True, text=True, check=False)
    assert out.returncode == 2 and "--cap needs --quick" in out.stderr


def test_open_reasons_name_exactly_the_survivors_that_are_not_argued() -> None:
    """Every survivor of the committed report that is not argued equivalent has a reason in
    open/AREA.json, shown in the report; a reason names such a survivor and is never an
    equivalence argument (so it cannot raise a score); a stale key (after a spec edit moved the
    line) fails here. (With every survivor argued, the folder holds empty files.)"""
    report = json.loads(mutate.DOC_JSON.read_text(encoding="utf-8"))
    survivors = {r["key"] for a in report["areas"] for r in a["survivors"]}
    assert all(a["survivors"] == [] or a["score"] < 1 for a in report["areas"])
    reasons = mutate.load_open()
    assert set(reasons) == survivors
    assert not set(reasons) & set(mutate.load_equivalent())
    md = mutate.DOC_MD.read_text(encoding="utf-8")
    assert all(text in md for text in reasons.values())


def test_open_reasons_are_loaded_from_every_area_file(tmp_path: Path) -> None:
    """The loader merges every AREA.json of a folder (as for the equivalence arguments)."""
    (tmp_path / "a.json").write_text('{"k1": "why 1"}', encoding="utf-8")
    (tmp_path / "b.json").write_text('{"k2": "why 2"}', encoding="utf-8")
    (tmp_path / "c.json").write_text("{}", encoding="utf-8")
    assert mutate._load_keyed(tmp_path) == {"k1": "why 1", "k2": "why 2"}
