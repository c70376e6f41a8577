"""Mutation testing of ``dpspec/spec``: do the vectors (and, separately, the tests) catch small bugs?

A benchmark-style script, not part of every CI run::

    python -m tests.mutation.mutate run --area mechanisms            # vectors alone (default)
    python -m tests.mutation.mutate run --area vdaf --quick --sample 200   # cheaper, lower bound
    python -m tests.mutation.mutate run --area mechanisms --mode tests --sample 40
    python -m tests.mutation.mutate run --area shuffled --file shuffled/bary_linf.py   # one file
    python -m tests.mutation.mutate run --area samplers --keys survivors.txt  # listed keys only
    python -m tests.mutation.mutate report                            # docs/mutation.md + .json
    python -m tests.mutation.mutate list --area tape                  # the mutants, no run

**Mutants.** Each source file of an area is parsed (``ast``) and every site of the usual operators
gives one mutant: an arithmetic or bitwise operator swapped (``+``/``-``, ``*``/``//``, ``<<``/``>>``,
...), a comparison made strict or non-strict or negated (``<``/``<=``, ``==``/``!=``, ``in``/``not in``),
an integer constant moved by +-1, a boolean constant flipped, ``and``/``or`` swapped, a ``not`` or a
unary minus dropped, a returned value replaced by ``None`` or negated, a statement deleted
(``pass``). Docstrings, annotations, ``assert`` and the message of a ``raise`` are left alone. A
mutant is compiled from the mutated tree, so line numbers stay those of the file.

**Vectors alone** (``--mode vectors``). One baseline per family: the family is run (the replay
of each committed case against the reference, then its generator) in a fresh import of
``dpspec`` under a line tracer, which records the lines of ``dpspec/spec`` the whole run executes
and, for the replay, which case executed which line (cached per family, keyed by the sources and
that family's vectors). A mutant inside a function body whose lines no family executes cannot
change any vector: it survives without a run ("not reached"), unless the imports execute them (a
function called by module-level code, traced once by itself): such a mutant acts at import and is
checked like a module-level one. Any other mutant runs in a forked
child. First the *targeted replay*: the committed cases that executed the mutant's lines (for a
mutant at module or class level: the lines of every function that reads a name its statement
binds, directly, under an import alias, or through a value or default argument computed from it
at import) are replayed with the mutated code object patched into the live function (no import at all; a fresh
import of the mutated module when the mutant is outside a function or cannot be patched), the
cases that killed most mutants so far first (counted from the journal and as the run goes; the
order changes how soon a kill is seen, not the verdict). A
difference, an exception or running out of CPU time (the traced time of what is run, case by case
when the trace has it, plus a margin, in CPU seconds so that a busy machine does not turn slowness
into kills) kills it. Otherwise the
*full check*: in a fresh import of the mutated module, every committed case of every family
that reaches the mutant is replayed and each family is regenerated and compared with its
committed files (every family for a mutant at module or class level). This is what ``dpspec
vectors check`` does, restricted to the families that can notice. With ``--quick`` the full
check is skipped for a mutant that some targeted case executes: it is recorded as an
*unconfirmed* survivor (the full check could only kill it, so scores are then lower bounds); a later run
without ``--quick`` confirms those; ``--cap S`` also bounds the targeted replay to S traced CPU
seconds, the cases that killed most first (a lower bound still). Mutants argued in
``equivalent/AREA.json`` are not run.

**The test suite** (``--mode tests``). The same forked child runs ``pytest -x`` on the area's test
files, in process, with the mutant loaded; killed if a test fails or the run times out (tests
that start a ``dpspec`` subprocess see the unmutated code, so this mode can only under-count).

Results go to a journal committed with the code (``tests/mutation/journal/AREA.MODE.jsonl``, one
line per mutant run, so that a whole-population measurement can be built up over several sessions
and branches; ``report`` compacts it to the latest result of each current mutant) keyed by the
mutant and the SHA-256 of its file; a re-run skips every mutant already decided for the same
source, and re-runs a survivor only if the vectors of a family that reaches it changed since
(``--mode vectors``) or the tests changed (``--mode tests``). ``report`` writes every result with
the equivalence arguments of ``tests/mutation/equivalent/AREA.json``, and beside each survivor
not argued equivalent the reason it still stands from ``tests/mutation/open/AREA.json`` (a
survivor either way: a reason is not an argument). ``regen --family NAME`` rewrites
one family's files while vectors are being added (``dpspec vectors generate`` for the manifest).

Why not mutmut or cosmic-ray: both are maintained and run on Python 3.11, but mutmut 3 runs pytest
itself over a copied tree (no custom command) and cosmic-ray runs a shell command per mutant over
a session database; neither can reuse one import of the heavy dependencies across mutants, patch
the mutant into the live process, nor replay only the cases that execute it, which is what makes
a killed mutant cost well under a second here instead of the minutes of a whole ``dpspec vectors
check`` (the accounting family alone replays for several minutes).
"""

from __future__ import annotations

import argparse
import ast
import functools
import hashlib
import importlib
import importlib.abc
import importlib.util
import json
import os
import random
import re
import resource
import select
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from types import CodeType, FrameType, ModuleType
from typing import Any

REPO = Path(__file__).resolve().parents[2]
SPEC = REPO / "dpspec" / "spec"
CACHE_DIR = REPO / ".mutation-cache"  # traces only: derived, rebuilt when missing
#: the results, committed so that a whole-population measurement can be built up over several
#: sessions and branches: one file per area and mode (``AREA.MODE.jsonl``), so that branches working
#: on different areas never touch the same file; ``report`` compacts them
JOURNAL_DIR = Path(__file__).resolve().parent / "journal"
#: the equivalence arguments, one file per area (``AREA.json``: mutant key -> argument)
EQUIVALENT_DIR = Path(__file__).resolve().parent / "equivalent"
#: why a survivor that is not argued equivalent still stands (shown in the report; not counted)
OPEN_DIR = Path(__file__).resolve().parent / "open"
DOC_MD = REPO / "docs" / "mutation.md"
DOC_JSON = REPO / "docs" / "mutation.json"

#: area -> (source files or folders under dpspec/spec, test files under tests/)
AREAS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "samplers": (("samplers",), ("test_samplers.py", "test_samplers_spec.py", "test_samplers_stats.py")),
    "mechanisms": (("mechanisms",), ("test_mechanisms.py",)),
    "policies": (("policies",), ("test_policies.py", "test_policies_accounting.py",
                                 "test_policies_adjacency.py", "test_policies_corruption.py",
                                 "test_policies_dap.py")),
    "vdaf": (("vdaf", "flp", "field.py", "ntt.py"),
             ("test_field.py", "test_ntt.py", "test_flp.py", "test_flp_poly.py", "test_prio3.py")),
    "tape": (("tape.py", "xof.py"), ("test_tape.py", "test_xof.py")),
    "sa2": (("sa2",), ("test_sa2_ideal.py", "test_sa2_protocol.py", "test_sa2_tokens.py",
                       "test_sa2_hpke.py", "test_sa2_equivalence.py")),
    "shuffled": (("shuffled",), ("test_shuffled.py", "test_shuffled_params.py", "test_shuffled_sim.py")),
    "accounting": (("accounting",), ("test_accounting.py",)),
    "mjtb": (("mjtb",), ("test_mjtb_discovery.py", "test_mjtb_recipe.py")),
    "core": (("rational.py", "distributions.py", "encoding.py", "lazy.py"), ("test_distributions.py",)),
}


# -- mutants -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Mutant:
    """One mutation: the ``index``-th node (in :func:`_nodes` order) of ``path`` rewritten by ``op``."""

    path: str  # relative to the repository, e.g. dpspec/spec/tape.py
    line: int
    col: int
    index: int
    op: str  # e.g. "Compare Lt->LtE"
    in_function: bool  # inside a function body (else it runs at import)
    end_line: int
    end_col: int

    @property
    def key(self) -> str:
        """Stable name: file, start line and column, end column (nested nodes can start at the
        same place), operator."""
        return f"{self.path}:{self.line}:{self.col}-{self.end_col}:{self.op}"


_BINOP_SWAPS: dict[type[ast.operator], tuple[type[ast.operator], ...]] = {
    ast.Add: (ast.Sub,), ast.Sub: (ast.Add,), ast.Mult: (ast.FloorDiv,), ast.FloorDiv: (ast.Mult,),
    ast.Div: (ast.Mult,), ast.Mod: (ast.FloorDiv,), ast.Pow: (ast.Mult,),
    ast.LShift: (ast.RShift,), ast.RShift: (ast.LShift,), ast.BitAnd: (ast.BitOr,),
    ast.BitOr: (ast.BitAnd,), ast.BitXor: (ast.BitOr,),
}
_CMP_SWAPS: dict[type[ast.cmpop], tuple[type[ast.cmpop], ...]] = {
    ast.Lt: (ast.LtE, ast.GtE), ast.LtE: (ast.Lt, ast.Gt), ast.Gt: (ast.GtE, ast.LtE),
    ast.GtE: (ast.Gt, ast.Lt), ast.Eq: (ast.NotEq,), ast.NotEq: (ast.Eq,), ast.Is: (ast.IsNot,),
    ast.IsNot: (ast.Is,), ast.In: (ast.NotIn,), ast.NotIn: (ast.In,),
}
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_BOOLISH_CALLS = {"isinstance", "all", "any", "bool", "callable", "hasattr"}


def _nodes(tree: ast.AST) -> Iterator[tuple[ast.AST, ast.AST | None, bool]]:
    """Every node worth mutating, in a fixed order, with its parent and whether it lies in a
    function body; skips docstrings, annotations, asserts, decorators and raise messages."""

    Visit = Iterator[tuple[ast.AST, ast.AST | None, bool]]

    def visit(node: ast.AST, parent: ast.AST | None, in_fn: bool) -> Visit:
        if isinstance(node, ast.Assert | ast.JoinedStr):
            return
        yield node, parent, in_fn
        for name, value in ast.iter_fields(node):
            if name in ("annotation", "returns", "decorator_list", "type_comment"):
                continue
            if isinstance(node, ast.Raise) and name in ("exc", "cause"):
                continue
            children = value if isinstance(value, list) else [value]
            body_of_fn = name == "body" and isinstance(node, _FUNCTIONS)
            for i, child in enumerate(children):
                if not isinstance(child, ast.AST):
                    continue
                if (name == "body" and i == 0 and isinstance(child, ast.Expr)
                        and isinstance(child.value, ast.Constant) and isinstance(child.value.value, str)):
                    continue  # docstring
                if isinstance(node, ast.AnnAssign) and name == "target":
                    continue
                yield from visit(child, node, in_fn or body_of_fn)

    yield from visit(tree, None, False)


def _is_boolish(expr: ast.expr) -> bool:
    if isinstance(expr, ast.Compare | ast.BoolOp):
        return True
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Not):
        return True
    if isinstance(expr, ast.Constant) and isinstance(expr.value, bool):
        return True
    return (isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name)
            and expr.func.id in _BOOLISH_CALLS)


def _is_numeric(expr: ast.expr) -> bool:
    if isinstance(expr, ast.BinOp):
        return True
    if isinstance(expr, ast.Constant) and type(expr.value) in (int, float):
        return True
    return isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub)


_STATEMENTS = (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Raise, ast.Break, ast.Continue)


def _ops_for(node: ast.AST, parent: ast.AST | None) -> list[str]:
    """The mutation operators that apply to ``node`` (names as shown in the report)."""
    ops: list[str] = []
    if isinstance(node, ast.BinOp | ast.AugAssign):
        for new in _BINOP_SWAPS.get(type(node.op), ()):
            ops.append(f"{type(node).__name__} {type(node.op).__name__}->{new.__name__}")
    elif isinstance(node, ast.Compare):
        for i, cmp in enumerate(node.ops):
            for new in _CMP_SWAPS.get(type(cmp), ()):
                ops.append(f"Compare#{i} {type(cmp).__name__}->{new.__name__}")
    elif isinstance(node, ast.BoolOp):
        ops.append("BoolOp " + ("And->Or" if isinstance(node.op, ast.And) else "Or->And"))
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not | ast.USub):
        ops.append(f"UnaryOp drop {type(node.op).__name__}")
    elif isinstance(node, ast.Constant):
        if isinstance(node.value, bool):
            ops.append(f"Constant {node.value}->{not node.value}")
        elif type(node.value) is int and not (isinstance(parent, ast.UnaryOp)):
            ops += ["Constant +1", "Constant -1"]
    if isinstance(node, ast.Return) and node.value is not None:
        if not (isinstance(node.value, ast.Constant) and node.value.value is None):
            ops.append("Return None")
        if _is_boolish(node.value):
            ops.append("Return not")
        elif _is_numeric(node.value):
            ops.append("Return negate")
    if isinstance(node, _STATEMENTS) and _deletable(node, parent):
        ops.append(f"Delete {type(node).__name__}")
    return ops


def _deletable(node: ast.AST, parent: ast.AST | None) -> bool:
    """Statements inside a function body (deleting module-level code only breaks imports)."""
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
        return False  # docstrings and bare literals
    return parent is not None and not isinstance(parent, ast.Module | ast.ClassDef)


def mutants_of(path: Path) -> list[Mutant]:
    """Every mutant of one source file (its path relative to the repository when inside it)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    full = path.resolve()
    rel = full.relative_to(REPO).as_posix() if full.is_relative_to(REPO) else full.as_posix()
    out = []
    for index, (node, parent, in_fn) in enumerate(_nodes(tree)):
        for op in _ops_for(node, parent):
            line = getattr(node, "lineno", 0)
            out.append(Mutant(rel, line, getattr(node, "col_offset", 0), index, op, in_fn,
                              getattr(node, "end_lineno", line) or line,
                              getattr(node, "end_col_offset", 0) or 0))
    return out


def _apply_op(node: ast.AST, op: str) -> ast.AST | None:
    """Rewrite ``node`` in place (or return its replacement) for the operator ``op``."""
    kind, _, what = op.partition(" ")
    if kind in ("BinOp", "AugAssign"):
        new = what.split("->")[1]
        node.op = getattr(ast, new)()  # type: ignore[attr-defined]
    elif kind.startswith("Compare#"):
        i = int(kind.split("#")[1])
        node.ops[i] = getattr(ast, what.split("->")[1])()  # type: ignore[attr-defined]
    elif kind == "BoolOp":
        node.op = ast.Or() if what == "And->Or" else ast.And()  # type: ignore[attr-defined]
    elif kind == "UnaryOp":
        return node.operand  # type: ignore[attr-defined, no-any-return]
    elif kind == "Constant":
        value = node.value  # type: ignore[attr-defined]
        node.value = (not value) if isinstance(value, bool) else value + (1 if what == "+1" else -1)  # type: ignore[attr-defined]
    elif kind == "Return":
        ret: ast.Return = node  # type: ignore[assignment]
        assert ret.value is not None
        if what == "None":
            ret.value = ast.Constant(None)
        elif what == "not":
            ret.value = ast.UnaryOp(ast.Not(), ret.value)
        else:
            ret.value = ast.UnaryOp(ast.USub(), ret.value)
    elif kind == "Delete":
        return ast.Pass()
    else:
        raise ValueError(f"unknown mutation {op!r}")
    return None


class _Replace(ast.NodeTransformer):
    def __init__(self, target: ast.AST, replacement: ast.AST) -> None:
        self.target, self.replacement = target, replacement

    def visit(self, node: ast.AST) -> ast.AST:
        if node is self.target:
            return ast.copy_location(self.replacement, node)
        return super().visit(node)  # type: ignore[no-any-return]


def mutated_tree(source: str, filename: str, mutant: Mutant) -> ast.Module:
    """The tree of ``source`` with ``mutant`` applied."""
    tree = ast.parse(source, filename=filename)
    for index, (node, _parent, _in_fn) in enumerate(_nodes(tree)):
        if index == mutant.index:
            if getattr(node, "lineno", 0) != mutant.line:
                raise RuntimeError(f"{mutant.key}: the source changed since the mutants were listed")
            replacement = _apply_op(node, mutant.op)
            if replacement is not None:
                tree = _Replace(node, replacement).visit(tree)
            return ast.fix_missing_locations(tree)
    raise RuntimeError(f"{mutant.key}: node {mutant.index} not found")


def mutated_code(mutant: Mutant) -> CodeType:
    path = REPO / mutant.path  # an absolute mutant.path stays as it is
    tree = mutated_tree(path.read_text(encoding="utf-8"), str(path), mutant)
    return compile(tree, str(path), "exec")


def area_files(area: str) -> list[Path]:
    out: list[Path] = []
    for entry in AREAS[area][0]:
        p = SPEC / entry
        out += sorted(p.rglob("*.py")) if p.is_dir() else [p]
    return out


def area_mutants(area: str) -> list[Mutant]:
    return [m for f in area_files(area) for m in mutants_of(f)]


def module_name(rel_path: str) -> str:
    parts = list(Path(rel_path).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


# -- loading dpspec afresh with one module mutated -----------------------------------------------
class _MutantFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def __init__(self, name: str, code: CodeType, path: str) -> None:
        self.name, self.code, self.path = name, code, path

    def find_spec(self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None) -> Any:
        if fullname != self.name:
            return None
        is_pkg = self.path.endswith("__init__.py")
        spec = importlib.util.spec_from_file_location(
            fullname, self.path, loader=self,
            submodule_search_locations=[str(Path(self.path).parent)] if is_pkg else None)
        return spec

    def create_module(self, spec: Any) -> None:
        return None

    def exec_module(self, module: ModuleType) -> None:
        exec(self.code, module.__dict__)


def fresh_dpspec(mutant: Mutant | None, code: CodeType | None = None) -> None:
    """Forget the ``dpspec`` modules that can see the mutant (its module, the spec modules that
    import it, transitively, and every ``dpspec.conformance`` module; with no mutant, all of
    them): the next import runs them afresh, the mutated module from ``code``. Other modules,
    third-party ones included, stay loaded."""
    if mutant is None:
        stale = {n for n in sys.modules if n == "dpspec" or n.startswith("dpspec.")}
    else:
        files = _importers(mutant.path)[0] | {mutant.path}
        names = {module_name(f) for f in files}
        stale = {n for n in sys.modules if n in names or n.startswith("dpspec.conformance")}
        stale |= {n for n in sys.modules if any(n.startswith(x + ".") for x in names)}
    for name in stale:
        del sys.modules[name]
    # a package keeps its submodules as attributes, and ``from package import module`` takes
    # the attribute when it is there: drop it, so that such an import loads the mutant too
    for name in stale:
        parent, _, child = name.rpartition(".")
        if parent in sys.modules and child in vars(sys.modules[parent]):
            delattr(sys.modules[parent], child)
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, _MutantFinder)]
    if mutant is not None:
        sys.meta_path.insert(0, _MutantFinder(module_name(mutant.path), code or mutated_code(mutant),
                                              str(REPO / mutant.path)))
    importlib.invalidate_caches()


# -- the vector check ----------------------------------------------------------------------------
def vectors_dir() -> Path:
    return REPO / "vectors"


def family_paths(name: str, committed: dict[str, str]) -> list[str]:
    """The committed vector files of family ``name`` (its folder under vectors/, no index)."""
    return sorted(p for p in committed if p.startswith(name + "/") and not p.endswith("INDEX.json"))


def _family(name: str) -> Any:
    """The family called ``name``, importing its module alone (not every family's)."""
    return importlib.import_module(f"dpspec.conformance.families.{name.replace('-', '_')}").FAMILY


def _cases_of(name: str, committed: dict[str, str],
              only: set[int] | None = None) -> list[tuple[Any, str, Any]]:
    """(family, path, case) for the committed cases of family ``name``: all of them, or the ones
    numbered in ``only``, in the order of :func:`family_paths`."""
    family = _family(name)
    index = 0
    chosen = []
    for path in family_paths(name, committed):
        for case in family.cases(path, json.loads(committed[path])):
            if only is None or index in only:
                chosen.append((family, path, case))
            index += 1
    return chosen


def _replay_all(chosen: list[tuple[Any, str, Any]]) -> str | None:
    from dpspec.conformance.store import replay

    for family, path, case in chosen:
        why = replay(family, case)
        if why is not None:
            return f"{case_label(path, case.tc_id)}: {why}"
    return None


def replay_cases(name: str, committed: dict[str, str], only: set[int] | None = None) -> str | None:
    """Replay the committed cases of family ``name`` (all of them, or the ones numbered in
    ``only``, in the order of :func:`family_paths`) against the (possibly mutated) reference;
    None if each behaves as its vector says, else the first difference."""
    return _replay_all(_cases_of(name, committed, only))


def replay_targeted(families: Sequence[str], targeted: dict[str, set[int]], committed: dict[str, str],
                    kills: dict[str, int] | None = None) -> str | None:
    """Replay the targeted cases (family -> case numbers) of the given families, in their order;
    None if nothing differs, else the first difference. ``kills`` (case label -> how many mutants
    it killed so far, :func:`case_label`): the cases that killed most come first, whatever their
    family. Every case is still replayed unless one differs, so the order changes no verdict, only
    how soon a kill is seen."""
    chosen = [item for name in families if targeted.get(name)
              for item in _cases_of(name, committed, targeted[name])]
    if kills:
        chosen.sort(key=lambda fpc: -kills.get(case_label(fpc[1], fpc[2].tc_id), 0))  # stable
    return _replay_all(chosen)


def case_label(path: str, tc_id: Any) -> str:
    """How a kill names the case that differed (the start of the journal's ``detail``)."""
    return f"{path} tcId {tc_id}"


_LABEL = re.compile(r"^(\S+\.json tcId \S+):")


def killing_cases(results: Iterator[Result] | list[Result]) -> dict[str, int]:
    """Case label -> how many of the given results it killed (from their ``detail``)."""
    out: dict[str, int] = {}
    for r in results:
        found = _LABEL.match(r.detail) if r.status == "killed" else None
        if found:
            out[found.group(1)] = out.get(found.group(1), 0) + 1
    return out


@functools.cache
def _case_labels(name: str, digest: str) -> tuple[str, ...]:
    """The :func:`case_label` of each committed case of family ``name``, by case number
    (``digest``: of the committed texts, so that a cache entry never outlives them)."""
    committed = committed_texts()
    return tuple(case_label(path, case.tc_id) for _f, path, case in _cases_of(name, committed))


def cap_targeted(targeted: dict[str, set[int]], cov: Coverage, kills: dict[str, int],
                 cap: float, digest: str) -> tuple[dict[str, set[int]], int]:
    """At most ``cap`` traced CPU seconds of the targeted cases (at least one case): the cases that
    killed most mutants so far first, then the cheapest. Returns the kept cases and how many were
    left out. For ``--quick --cap``: a mutant that survives the kept cases is recorded as an
    unconfirmed survivor, so the cap can only lower the count of kills, never raise it."""
    items = []
    for name, cases in targeted.items():
        labels = _case_labels(name, digest)
        items += [(-kills.get(labels[c], 0) if c < len(labels) else 0,
                   targeted_cost(name, {c}, cov), name, c) for c in cases]
    items.sort()
    kept: dict[str, set[int]] = {}
    total = 0.0
    for _k, cost, name, c in items:
        if kept and total + cost > cap:
            continue
        kept.setdefault(name, set()).add(c)
        total += cost
    return kept, len(items) - sum(len(c) for c in kept.values())


def regenerate(name: str, committed: dict[str, str]) -> str | None:
    """Regenerate family ``name`` and compare each file and schema with the committed text."""
    from dpspec.conformance.vectors import canonical_json

    family = _family(name)
    seen = []
    for vf in family.files():
        seen.append(vf.path)
        if committed.get(vf.path) != (vf.text if vf.text is not None else canonical_json(vf.doc)):
            return f"{vf.path} differs"
    missing = [p for p in family_paths(name, committed) if p not in seen]
    if missing:
        return f"{missing[0]} no longer generated"
    for schema_name, schema in family.schemas().items():
        if committed.get(f"schema/{schema_name}") not in (None, canonical_json(schema)):
            return f"schema/{schema_name} differs"
    return None


def check_families(names: Sequence[str], committed: dict[str, str],
                   regenerate_first: bool = False) -> str | None:
    """What ``dpspec vectors check`` does, restricted to the named families: replay every
    committed case of each (cheapest family first; a replay stops at the first failing case),
    then regenerate each and compare with the committed files. None if nothing differs; else
    the first difference. The order changes no verdict, only how soon a kill is seen:
    ``regenerate_first`` when the replay is unlikely to differ (a mutant that no case executes,
    or whose cases were already replayed)."""
    steps = [(regenerate, name) for name in names] if regenerate_first else []
    steps += [(replay_cases, name) for name in names]
    if not regenerate_first:
        steps += [(regenerate, name) for name in names]
    for step, name in steps:
        why = step(name, committed)
        if why is not None:
            return why
    return None


def committed_texts() -> dict[str, str]:
    root = vectors_dir()
    return {p.relative_to(root).as_posix(): p.read_text(encoding="utf-8")
            for p in sorted(root.rglob("*.json"))}


def vectors_digest() -> str:
    h = hashlib.sha256()
    for path, text in sorted(committed_texts().items()):
        h.update(path.encode() + b"\0" + hashlib.sha256(text.encode()).digest())
    return h.hexdigest()


def families_digest(names: Sequence[str], committed: dict[str, str] | None = None) -> str:
    """Digest of the committed vectors of the named families: a survivor is re-run only if the
    vectors of a family that reaches it changed (an unreached mutant, ``names`` empty, is
    re-examined whenever any vector changed)."""
    if not names:
        return vectors_digest()
    committed = committed_texts() if committed is None else committed
    h = hashlib.sha256()
    for name in sorted(names):
        h.update(name.encode() + b"\0")
        for path in family_paths(name, committed):
            h.update(path.encode() + b"\0" + hashlib.sha256(committed[path].encode()).digest())
    return h.hexdigest()


def tests_digest(area: str) -> str:
    h = hashlib.sha256()
    for name in AREAS[area][1]:
        p = REPO / "tests" / name
        if p.is_file():
            h.update(name.encode() + b"\0" + p.read_bytes())
    return h.hexdigest()


def file_digest(rel: str) -> str:
    return hashlib.sha256((REPO / rel).read_bytes()).hexdigest()


# -- baseline: which family reaches which line ---------------------------------------------------
def _trace_family(name: str, committed: dict[str, str]) -> dict[str, Any]:
    """In the current (child) process: run family ``name`` (replay of each committed case, then
    regeneration) under a tracer. Returns the lines of dpspec/spec executed by the whole run
    (``lines``: file -> lines) and, for the replay, which case executed which line
    (``case_lines``: file -> line -> numbers of the cases, in :func:`replay_cases` order), with
    the traced CPU seconds of each case (``case_cpu``)."""
    spec_prefix = str(SPEC) + os.sep
    hits: dict[str, set[int]] = {}
    case_hits: dict[str, dict[int, set[int]]] = {}
    current = [-1]  # number of the case being replayed; -1 during regeneration

    def local(frame: FrameType, event: str, arg: Any) -> Any:
        if event == "line":
            fn = frame.f_code.co_filename
            hits[fn].add(frame.f_lineno)
            if current[0] >= 0:
                case_hits.setdefault(fn, {}).setdefault(frame.f_lineno, set()).add(current[0])
        return local

    def glob(frame: FrameType, event: str, arg: Any) -> Any:
        fn = frame.f_code.co_filename
        if fn.startswith(spec_prefix):
            hits.setdefault(fn, set()).add(frame.f_lineno)
            if current[0] >= 0:
                case_hits.setdefault(fn, {}).setdefault(frame.f_lineno, set()).add(current[0])
            return local
        return None

    fresh_dpspec(None)
    from dpspec.conformance.families import all_families
    from dpspec.conformance.store import replay

    all_families()  # every import happens here, untraced (module-level code runs at import)
    family = _family(name)
    start = time.perf_counter()
    case_cpu: list[float] = []  # traced CPU seconds of each case, in replay order
    sys.settrace(glob)
    try:
        problem = None
        for path in family_paths(name, committed):
            for case in family.cases(path, json.loads(committed[path])):
                current[0] += 1
                t = time.process_time()
                why = replay(family, case)
                case_cpu.append(round(time.process_time() - t, 4))
                if why is not None and problem is None:
                    problem = f"{path} tcId {case.tc_id}: {why}"
        n_cases = current[0] + 1
        current[0] = -1
        replay_secs = time.perf_counter() - start
        problem = problem or regenerate(name, committed)
    finally:
        sys.settrace(None)
    secs = time.perf_counter() - start
    if problem is not None:
        raise RuntimeError(f"baseline: family {name} does not reproduce its vectors: {problem}")

    def rel(f: str) -> str:
        return Path(f).resolve().relative_to(REPO).as_posix()

    return {"lines": {rel(f): sorted(v) for f, v in hits.items()}, "secs": secs,
            "replay_secs": replay_secs, "cases": n_cases, "case_cpu": case_cpu,
            "case_lines": {rel(f): {str(line): sorted(c) for line, c in d.items()}
                           for f, d in case_hits.items()}}


Coverage = dict[str, dict[str, Any]]  # family -> the dict of :func:`_trace_family`


def _family_digest(name: str, committed: dict[str, str]) -> str:
    """What a family's trace depends on: every source of dpspec outside the family modules, the
    family's own module and the family modules it imports, and its committed vectors (so that new
    vectors in one family re-trace that family only)."""
    fam_dir = REPO / "dpspec" / "conformance" / "families"
    module = fam_dir / (name.replace("-", "_") + ".py")
    own = {module}
    for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
        source = node.module or "" if isinstance(node, ast.ImportFrom) else ""
        if source.startswith("dpspec.conformance.families."):
            own.add(fam_dir / (source.rsplit(".", 1)[1] + ".py"))
    h = hashlib.sha256()
    for p in sorted((REPO / "dpspec").rglob("*.py")):
        if p.parent != fam_dir or p in own or p.name == "__init__.py":
            h.update(p.relative_to(REPO).as_posix().encode() + p.read_bytes())
    h.update(families_digest([name], committed).encode())
    return h.hexdigest()[:16]


def baseline(families: Sequence[str], committed: dict[str, str], timeout: float) -> Coverage:
    """Family -> its traced run (one cache file per family, keyed by the digest of the sources
    and vectors, so that an interrupted baseline keeps the families already traced)."""
    digest = {name: _family_digest(name, committed) for name in families}
    out: Coverage = {}
    todo = []
    for name in families:
        cache = CACHE_DIR / f"trace-{name}-{digest[name]}.json"
        if cache.is_file():
            out[name] = json.loads(cache.read_text())
        else:
            todo.append(name)
    jobs: list[Job] = [(name, (lambda name=name: _trace_family(name, committed)), timeout)
                       for name in todo]
    CACHE_DIR.mkdir(exist_ok=True)

    def done(i: int, outcome: Outcome) -> None:
        status, payload, _secs = outcome
        name = todo[i]
        if status != "ok":
            failed.append(f"baseline of family {name}: {status} {payload}")
            return
        (CACHE_DIR / f"trace-{name}-{digest[name]}.json").write_text(json.dumps(payload))
        out[name] = payload
        print(f"baseline: {name} traced ({payload['secs']:.1f} s, replay {payload['replay_secs']:.1f} s, "
              f"{payload['cases']} cases)", file=sys.stderr)

    failed: list[str] = []
    run_forked(jobs, workers=2, on_done=done)
    if failed:
        raise RuntimeError("; ".join(failed))
    return {name: out[name] for name in families}


# -- forked workers --------------------------------------------------------------------------------
Outcome = tuple[str, Any, float]
Job = tuple[str, Callable[[], Any], float]  # name, work, timeout in seconds


def run_forked(jobs: Sequence[Job], workers: int, on_done: Callable[[int, Outcome], None] | None = None,
               deadline: float | None = None) -> list[Outcome]:
    """Run each job in a forked child, ``workers`` at a time; returns, per job in order,
    ``("ok", value, secs)``, ``("error", message, secs)`` or ``("timeout", None, secs)``.
    A child past its job's timeout is killed; so is every child if this function is left early."""
    results: list[Outcome | None] = [None] * len(jobs)
    running: dict[int, tuple[int, int, float, bytearray]] = {}  # fd -> (job, pid, start, buf)
    todo = list(range(len(jobs)))[::-1]
    sys.stdout.flush()
    sys.stderr.flush()

    def finish(fd: int, res: Outcome) -> None:
        i = running.pop(fd)[0]
        os.close(fd)
        results[i] = res
        if on_done:
            on_done(i, res)

    try:
        while todo or running:
            if deadline is not None and time.monotonic() > deadline:
                todo.clear()
            while todo and len(running) < workers:
                i = todo.pop()
                r, w = os.pipe()
                pid = os.fork()
                if pid == 0:  # child
                    os.close(r)
                    devnull = os.open(os.devnull, os.O_WRONLY)
                    os.dup2(devnull, 1)
                    os.dup2(devnull, 2)
                    try:
                        msg = {"status": "ok", "value": jobs[i][1]()}
                    except BaseException as exc:  # the mutant may raise anything
                        msg = {"status": "error", "value": f"{type(exc).__name__}: {str(exc)[:200]}"}
                    with os.fdopen(w, "wb") as fh:
                        fh.write(json.dumps(msg).encode())
                    os._exit(0)
                os.close(w)
                running[r] = (i, pid, time.monotonic(), bytearray())
            ready, _, _ = select.select(list(running), [], [], 0.2)
            now = time.monotonic()
            for fd in ready:
                chunk = os.read(fd, 1 << 16)
                i, pid, start, buf = running[fd]
                if chunk:
                    buf += chunk
                    continue
                os.waitpid(pid, 0)
                try:
                    msg = json.loads(bytes(buf))
                    res: Outcome = (msg["status"], msg["value"], now - start)
                except json.JSONDecodeError:
                    res = ("error", "the child died without an answer", now - start)
                finish(fd, res)
            for fd, (i, pid, start, _buf) in list(running.items()):
                if now - start > jobs[i][2]:
                    os.kill(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)
                    finish(fd, ("timeout", None, now - start))
    finally:
        for fd, (_i, pid, _start, _buf) in list(running.items()):
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            os.close(fd)
    return [r for r in results if r is not None]


# -- running an area -------------------------------------------------------------------------------
def warm_lazy_modules() -> list[str]:
    """Import, in this (parent) process, every module that a loaded dpspec module holds as a
    :class:`dpspec.spec.lazy.LazyModule` (scipy.stats and the like, which ``dpspec`` loads on first
    use to start fast). Forked children then find them in ``sys.modules`` instead of each importing
    them again: more than a second of CPU per mutant that reaches one. Returns their names."""
    from dpspec.spec.lazy import LazyModule

    names = sorted({value._name for name, module in list(sys.modules.items())
                    if name.startswith("dpspec.") and module is not None
                    for value in list(vars(module).values()) if isinstance(value, LazyModule)})
    for name in names:
        importlib.import_module(name)
    return names


@dataclass
class Result:
    key: str
    area: str
    mode: str
    status: str  # killed | survived | timeout | unreached
    detail: str
    path: str
    line: int
    op: str
    file_sha: str
    evidence_sha: str  # digest of the vectors (vectors mode) or of the area's tests (tests mode)
    secs: float = 0.0
    families: list[str] = field(default_factory=list)


def journal_path(area: str, mode: str) -> Path:
    return JOURNAL_DIR / f"{area}.{mode}.jsonl"


def load_journal() -> dict[tuple[str, str], Result]:
    """Every recorded result, the last line of a mutant winning (runs append)."""
    out: dict[tuple[str, str], Result] = {}
    for path in sorted(JOURNAL_DIR.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                r = Result(**json.loads(line))
                out[(r.mode, r.key)] = r
    return out


def _append(result: Result) -> None:
    JOURNAL_DIR.mkdir(exist_ok=True)
    with journal_path(result.area, result.mode).open("a", encoding="utf-8") as fh:
        fh.write(json.dumps(asdict(result), sort_keys=True) + "\n")


def compact_journal() -> None:
    """Rewrite each journal file with one line per current mutant (its latest result), sorted:
    results for an older source of their file, or for mutants that no longer exist, are dropped."""
    results = load_journal()
    for area in AREAS:
        current = {m.key for m in area_mutants(area)}
        digests = {str(f.relative_to(REPO)): file_digest(str(f.relative_to(REPO))) for f in area_files(area)}
        for mode in ("vectors", "tests"):
            keep = sorted((r for (md, key), r in results.items()
                           if md == mode and r.area == area and key in current
                           and r.file_sha == digests.get(r.path)), key=lambda r: r.key)
            path = journal_path(area, mode)
            if keep:
                JOURNAL_DIR.mkdir(exist_ok=True)
                path.write_text("".join(json.dumps(asdict(r), sort_keys=True) + "\n" for r in keep),
                                encoding="utf-8")
            elif path.exists():
                path.unlink()


@functools.cache
def _imports() -> dict[Path, frozenset[str]]:
    """Every spec and family source file -> the module names it imports (parsed once)."""
    out = {}
    for path in [*sorted(SPEC.rglob("*.py")), *sorted((REPO / "dpspec/conformance/families").glob("*.py"))]:
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                names |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
        out[path] = frozenset(names)
    return out


@functools.cache
def _direct_importers(rel: str) -> tuple[frozenset[str], frozenset[str]]:
    """The spec files that import the module ``rel`` (by any import form) and the family modules
    (``dpspec/conformance/families/NAME.py``) that do: ``(spec files, family names)``."""
    target = module_name(rel)
    spec_files, family_names = set(), set()
    for path, names in _imports().items():
        if any(n == target or n.startswith(target + ".") for n in names):
            if path.is_relative_to(SPEC):
                spec_files.add(path.relative_to(REPO).as_posix())
            else:
                family_names.add(path.stem)
    return frozenset(spec_files), frozenset(family_names)


def _importers(rel: str) -> tuple[set[str], set[str]]:
    """:func:`_direct_importers`, closed transitively (a module-level value computed from an
    imported constant carries the mutation on)."""
    files, families, todo = set(), set(), [rel]
    while todo:
        spec_files, family_names = _direct_importers(todo.pop())
        families |= family_names
        for f in spec_files - files:
            files.add(f)
            todo.append(f)
    return files, families


def import_lines() -> dict[str, set[int]]:
    """Spec file -> the lines executed while every family module is imported (module-level code
    and the functions it calls, e.g. ``lazy_module(...)`` or a table built at import). The family
    traces start after the imports, so they cannot see these lines. Traced once in a forked child
    and cached, keyed by the digest of every dpspec source."""
    h = hashlib.sha256()
    for p in sorted((REPO / "dpspec").rglob("*.py")):
        h.update(p.relative_to(REPO).as_posix().encode() + p.read_bytes())
    cache = CACHE_DIR / f"imports-{h.hexdigest()[:16]}.json"
    if not cache.is_file():
        status, payload, _secs = run_forked([("imports", _trace_imports, 600.0)], workers=1)[0]
        if status != "ok":
            raise RuntimeError(f"tracing the imports of the families: {status} {payload}")
        CACHE_DIR.mkdir(exist_ok=True)
        cache.write_text(json.dumps(payload))
    return {f: set(lines) for f, lines in json.loads(cache.read_text()).items()}


def _trace_imports() -> dict[str, list[int]]:
    """In a forked child: the spec lines executed by importing every family afresh."""
    spec_prefix = str(SPEC) + os.sep
    hits: dict[str, set[int]] = {}

    def glob(frame: FrameType, event: str, arg: Any) -> Any:
        fn = frame.f_code.co_filename
        if not fn.startswith(spec_prefix):
            return None
        lines = hits.setdefault(fn, set())
        lines.add(frame.f_lineno)

        def local(frame: FrameType, event: str, arg: Any) -> Any:
            if event == "line":
                lines.add(frame.f_lineno)
            return local
        return local

    fresh_dpspec(None)
    sys.settrace(glob)
    try:
        from dpspec.conformance.families import all_families
        all_families()
    finally:
        sys.settrace(None)
    return {Path(f).resolve().relative_to(REPO).as_posix(): sorted(v) for f, v in hits.items()}


_IMPORT_LINES: dict[str, set[int]] | None = None


def _acts_at_import(m: Mutant, cov: Coverage) -> bool:
    """True if the mutant acts at import: at module or class level, or inside a function that only
    the imports run (no family's traced run executes its lines, the imports do). Its effect is on
    the module's state, so it is checked like a module-level mutant."""
    global _IMPORT_LINES
    if not m.in_function:
        return True
    span = set(range(m.line, m.end_line + 1))
    if any(span & set(cov[n]["lines"].get(m.path, ())) for n in cov):
        return False
    if _IMPORT_LINES is None:
        _IMPORT_LINES = import_lines()
    return bool(span & _IMPORT_LINES.get(m.path, set()))


def reaching_families(m: Mutant, cov: Coverage) -> list[str]:
    """The families that can notice the mutant, cheapest first ([] = none can).

    Inside a function body: the families whose run executes the mutant's lines. At module or
    class level, or in a function that only the imports run (:func:`_acts_at_import`; e.g. a
    constant): the families that execute any line of the file or of a spec file that imports it,
    or whose module imports it (every name the mutated statement binds is read only there)."""
    names = sorted(cov, key=lambda n: (cov[n]["secs"], n))
    if _acts_at_import(m, cov):
        spec_files, family_names = _importers(m.path)
        files = spec_files | {m.path}
        return [n for n in names if n.replace("-", "_") in family_names or files & set(cov[n]["lines"])]
    span = set(range(m.line, m.end_line + 1))
    return [n for n in names if span & set(cov[n]["lines"].get(m.path, ()))]


def targeted_cost(name: str, cases: set[int], cov: Coverage) -> float:
    """Traced seconds of replaying these cases of family ``name``: the sum of their own CPU times
    when the trace has them, else their share of the family's replay time."""
    data = cov[name]
    per_case = data.get("case_cpu")
    if per_case is not None and len(per_case) == data["cases"]:
        return float(sum(per_case[c] for c in cases))
    return float(data["replay_secs"] * len(cases) / max(data["cases"], 1))


def _import_time_nodes(stmt: ast.stmt) -> Iterator[ast.AST]:
    """The nodes of a module-level statement that run at import: lambdas and function bodies are
    left out, a def's decorators and default values kept."""
    todo: list[ast.AST] = [stmt]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Lambda):
            continue
        yield node
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            todo.extend([*node.decorator_list, *node.args.defaults,
                         *(d for d in node.args.kw_defaults if d is not None)])
        else:
            todo.extend(ast.iter_child_nodes(node))


def _bound_names(stmt: ast.stmt) -> set[str]:
    """The names a module- or class-level statement binds (a def or class: its own name only;
    elsewhere every stored name or attribute, def, class and import alias run at import)."""
    if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return {stmt.name}
    out: set[str] = set()
    for node in _import_time_nodes(stmt):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            out.add(node.name)
        elif isinstance(node, ast.Name | ast.Attribute) and isinstance(node.ctx, ast.Store):
            out.add(node.id if isinstance(node, ast.Name) else node.attr)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            out |= {(a.asname or a.name).split(".")[0] for a in node.names}
    return out


def _loaded_names(stmt: ast.stmt) -> set[str]:
    """The names (and attribute names) a module-level statement reads when it runs at import."""
    return {node.id if isinstance(node, ast.Name) else node.attr for node in _import_time_nodes(stmt)
            if isinstance(node, ast.Name | ast.Attribute) and isinstance(node.ctx, ast.Load)}


@functools.cache
def _spec_trees() -> dict[str, ast.Module]:
    return {p.relative_to(REPO).as_posix(): ast.parse(p.read_text(encoding="utf-8"))
            for p in sorted(SPEC.rglob("*.py"))}


@functools.cache
def _readers() -> dict[str, dict[str, frozenset[int]]]:
    """Name -> spec file -> the lines of every function (any code object but a module or class
    body) whose code reads that name, as a global or as an attribute (``co_names``)."""
    index: dict[str, dict[str, set[int]]] = {}
    for rel, tree in _spec_trees().items():
        todo = [compile(tree, str(REPO / rel), "exec")]
        while todo:
            code = todo.pop()
            todo.extend(c for c in code.co_consts if isinstance(c, CodeType))
            if code.co_flags & 0x3 != 0x3:  # not CO_OPTIMIZED | CO_NEWLOCALS: a module or class body
                continue  # (runs at import, not in a case)
            lines = {ln for _s, _e, ln in code.co_lines() if ln is not None}
            for name in code.co_names:
                index.setdefault(name, {}).setdefault(rel, set()).update(lines)
    return {n: {f: frozenset(v) for f, v in d.items()} for n, d in index.items()}


def _import_statement(m: Mutant) -> tuple[ast.stmt, str] | None:
    """The module-level statement holding an import-time mutant, descending into class bodies
    (then the innermost class-level statement and the class's name), or None."""
    body = _spec_trees()[m.path].body
    owner = ""
    while True:
        stmt = next((s for s in body if s.lineno <= m.line and (s.end_lineno or s.lineno) >= m.end_line),
                    None)
        if stmt is None:
            return None
        if isinstance(stmt, ast.ClassDef) and any(
                s.lineno <= m.line and (s.end_lineno or s.lineno) >= m.end_line for s in stmt.body):
            body, owner = stmt.body, stmt.name
            continue
        return stmt, owner


def _import_reach(m: Mutant) -> dict[str, set[int]]:
    """Spec file -> lines that can see an import-time mutant: those of the functions that read a
    name it changes, and the whole of each def or class it changes (a default argument, a class
    attribute). The names are those its statement binds (with the class's name for a class-level
    one), closed over the module-level statements of any spec file that read one of them (a value
    computed from it at import, a default argument) and over ``from ... import NAME as ALIAS``.
    A mutant whose statement cannot be found: {}."""
    found = _import_statement(m)
    if found is None:
        return {}
    stmt, owner = found
    names = _bound_names(stmt) | ({owner} if owner else set())
    out: dict[str, set[int]] = {}

    def whole(rel: str, s: ast.stmt) -> None:
        if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            out.setdefault(rel, set()).update(range(s.lineno, (s.end_lineno or s.lineno) + 1))

    whole(m.path, stmt)
    seen: set[tuple[str, int]] = set()
    grew = True
    while grew:
        grew = False
        for rel, tree in _spec_trees().items():
            for i, s in enumerate(tree.body):
                if (rel, i) in seen:
                    continue
                if isinstance(s, ast.ImportFrom):
                    new = {a.asname for a in s.names if a.asname and a.name in names}
                    if not new:
                        continue
                elif isinstance(s, ast.Import) or not _loaded_names(s) & names:
                    continue
                else:
                    new = _bound_names(s)
                    whole(rel, s)
                seen.add((rel, i))
                names |= new
                grew = True
    readers = _readers()
    for name in names:
        for rel, lines in readers.get(name, {}).items():
            out.setdefault(rel, set()).update(lines)
    return out


def targeted_cases(m: Mutant, cov: Coverage) -> dict[str, set[int]]:
    """Family -> the numbers of its committed cases whose replay executed a line of the mutant.
    For a mutant at module or class level: the cases that executed a function reading a name it
    changes (:func:`_import_reach`; a fresh import of the mutated module runs them). Empty for a
    function that only the imports run (:func:`_acts_at_import`), whose effect has no name here."""
    out: dict[str, set[int]] = {}
    if _acts_at_import(m, cov):
        if m.in_function:
            return out
        reach = _import_reach(m)
        for name, data in cov.items():
            case_lines = data.get("case_lines", {})
            cases = {c for rel, lines in reach.items()
                     for line in lines & {int(x) for x in case_lines.get(rel, {})}
                     for c in case_lines[rel][str(line)]}
            if cases:
                out[name] = cases
        return out
    for name, data in cov.items():
        by_line = data.get("case_lines", {}).get(m.path, {})
        cases = {c for line in range(m.line, m.end_line + 1) for c in by_line.get(str(line), ())}
        if cases:
            out[name] = cases
    return out


def _outer_function(source: str, mutant: Mutant) -> tuple[str, int] | None:
    """The qualified name and first line of the outermost function (a module-level function or
    a method of a module-level class, nested classes included) whose body holds the mutant;
    None if there is none."""
    tree = ast.parse(source)

    def search(body: list[ast.stmt], prefix: str) -> tuple[str, int] | None:
        for node in body:
            if isinstance(node, ast.ClassDef):
                found = search(node.body, prefix + node.name + ".")
                if found:
                    return found
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                first = node.body[0].lineno
                if first <= mutant.line and mutant.end_line <= (node.end_lineno or 0):
                    # a decorated function's code object starts at its first decorator
                    return prefix + node.name, min([node.lineno, *(d.lineno for d in node.decorator_list)])
        return None

    return search(tree.body, "")


def _find_code(code: CodeType, qualname: str, line: int) -> CodeType | None:
    for const in code.co_consts:
        if isinstance(const, CodeType):
            if const.co_qualname == qualname and const.co_firstlineno == line:
                return const
            found = _find_code(const, qualname, line)
            if found is not None:
                return found
    return None


def patch_in_place(m: Mutant, code: CodeType) -> bool:
    """Give the live function that holds the mutant (in the already imported module) the
    mutated code object, so that every reference to it, imported names included, runs the
    mutant without re-importing anything. False when this cannot be done (a mutant outside a
    function, a decorated object it cannot see through, or a change of closure variables)."""
    if not m.in_function:
        return False
    found = _outer_function((REPO / m.path).read_text(encoding="utf-8"), m)
    if found is None:
        return False
    qualname, line = found
    new = _find_code(code, qualname, line)
    module = sys.modules.get(module_name(m.path))
    if new is None or module is None:
        return False
    owner: Any = module
    *path, name = qualname.split(".")
    for part in path:
        owner = getattr(owner, part, None)
    obj = getattr(owner, "__dict__", {}).get(name) if owner is not None else None
    if isinstance(obj, staticmethod | classmethod):
        obj = obj.__func__
    elif isinstance(obj, property):
        obj = next((f for f in (obj.fget, obj.fset) if f is not None
                    and f.__code__.co_firstlineno == line), None)
    clear = getattr(obj, "cache_clear", None)
    obj = getattr(obj, "__wrapped__", obj)
    fn_code = getattr(obj, "__code__", None)
    if fn_code is None or fn_code.co_firstlineno != line or fn_code.co_freevars != new.co_freevars:
        return False
    obj.__code__ = new
    if clear is not None:
        clear()
    return True


QUICK = "quick: "  # prefix of the answer of a --quick job that stopped after the targeted replay
NON_VIABLE = "non-viable: "  # prefix of the answer of a job whose mutated file does not compile


class CpuLimit(Exception):
    """The child used up its CPU-time allowance (a mutant that loops, e.g. a deleted increment)."""


def limit_cpu(seconds: float) -> None:
    """In a forked child: raise :class:`CpuLimit` once ``seconds`` of CPU time are used. CPU
    time, unlike the wall clock, does not grow when the machine is busy with other work."""
    def on_xcpu(signum: int, frame: Any) -> None:
        raise CpuLimit(f"more than {seconds:.0f} s of CPU time")

    signal.signal(signal.SIGXCPU, on_xcpu)
    used = resource.getrusage(resource.RUSAGE_SELF).ru_utime
    soft = int(used + seconds) + 1
    resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + 30))


def _vector_job(m: Mutant, families: list[str], committed: dict[str, str],
                targeted: dict[str, set[int]], quick: bool = False,
                cpu: float | None = None, kills: dict[str, int] | None = None,
                left_out: int = 0) -> Callable[[], Any]:
    """First replay the cases that executed the mutant's lines in the baseline, with the
    mutated code patched into the live function (:func:`patch_in_place`: no import at all) when
    possible, else in a fresh import: a difference there is a kill, found in a fraction of the
    family's time. If none differs: the full check of :func:`check_families` in a fresh import
    of the mutated module, so that a survivor is always confirmed by every reaching family (a
    case can also depend on the mutant through state, e.g. a table computed at import or a cache
    filled by an earlier case, and a regenerated file through the generator's own calls).
    ``quick``: stop after the targeted replay when some case executed the mutant (the answer then
    starts with :data:`QUICK`; a later run without ``quick`` confirms it; ``left_out``: how many
    executing cases :func:`cap_targeted` left out of ``targeted``, for the answer). ``kills``: the
    targeted cases that killed most mutants so far are replayed first (:func:`replay_cases`); the
    child reads the dict as it is when it is forked, so what the run learns is used at once.
    The mutant is compiled in the child (a run of thousands of mutants starts at once): a file
    that does not compile answers :data:`NON_VIABLE`."""

    def job() -> Any:
        if cpu is not None:
            limit_cpu(cpu)
        try:
            code = mutated_code(m)
        except SyntaxError as exc:
            return f"{NON_VIABLE}{exc.msg}"
        patched = patch_in_place(m, code) if targeted else False
        if not patched:
            fresh_dpspec(m, code)
        why = replay_targeted(families, targeted, committed, kills)
        if why is not None:
            return why
        if quick and targeted:
            n = sum(len(c) for c in targeted.values())
            what = "execute it" if m.in_function else "read a name it changes"
            more = f", {left_out} more beyond the --cap not replayed" if left_out else ""
            return f"{QUICK}nothing differs in the {n} cases that {what}{more} (no full check)"
        if patched:
            fresh_dpspec(m, code)
        # the targeted cases (if any) did not differ: the generators come first
        return check_families(families, committed, regenerate_first=True)
    return job


def _non_viable(m: Mutant, area: str, mode: str, exc: SyntaxError, file_sha: str,
                evidence: str) -> Result:
    """The result of a mutant whose file no longer compiles (e.g. a deleted assignment that a
    ``nonlocal`` needs): no implementation can carry such a bug, so it is recorded as killed, by
    the compiler, with the reason (a *non-viable* mutant)."""
    r = Result(m.key, area, mode, "killed", f"non-viable: the mutated file does not compile ({exc.msg})",
               m.path, m.line, m.op, file_sha, evidence)
    _append(r)
    return r


def _tests_job(m: Mutant, area: str) -> Callable[[], Any]:
    code = mutated_code(m)

    def job() -> Any:
        import pytest

        fresh_dpspec(m, code)
        os.chdir(REPO)
        files = [str(REPO / "tests" / f) for f in AREAS[area][1] if (REPO / "tests" / f).is_file()]
        rc = pytest.main(["-x", "-q", "-p", "no:cacheprovider", "-p", "no:randomly", "--no-header",
                          "-W", "ignore", *files])
        return None if int(rc) == 0 else f"pytest exit {int(rc)}"
    return job


def classify(outcome: Outcome, timeout: float) -> tuple[str, str]:
    """A job's outcome as a mutant's status: a check that returns None (nothing differs) leaves
    the mutant alive; a difference, an exception or the timeout kills it."""
    status, value, _secs = outcome
    if status == "timeout":
        return "timeout", f"no answer within {timeout:.0f} s"
    if status == "error" and str(value).startswith("CpuLimit"):
        return "timeout", str(value)
    if status == "error":
        return "killed", f"raised {value}"
    if value is None:
        return "survived", "nothing differs"
    if str(value).startswith(QUICK):
        return "survived", str(value)
    if str(value).startswith(NON_VIABLE):
        return "killed", f"{NON_VIABLE}the mutated file does not compile ({value[len(NON_VIABLE):]})"
    return "killed", str(value)


def run_area(area: str, mode: str, workers: int, timeout: float | None, sample: int | None,
             seed: int = 19, force: bool = False, budget: float | None = None,
             quick: bool = False, only: Callable[[Mutant], bool] | None = None,
             cap: float | None = None) -> list[Result]:
    """Run (or take from the journal) every mutant of ``area``. ``timeout`` per mutant: by default
    10 s plus twice the traced baseline time of the families it runs (vectors), or 600 s (tests).
    ``budget``: launch no new mutant after this many seconds (the journal keeps what was done).
    ``cap`` (with ``quick``): replay at most this many traced CPU seconds of a mutant's targeted
    cases (:func:`cap_targeted`). ``only``: run just the mutants it accepts (the others are
    neither run nor recorded)."""
    mutants = [m for m in area_mutants(area) if only is None or only(m)]
    committed = committed_texts()
    evidence = vectors_digest() if mode == "vectors" else tests_digest(area)
    journal = load_journal()
    # warm the heavy third-party imports once, so forked children share them
    import dpspec.conformance.families as fams
    import dpspec.conformance.store  # noqa: F401

    family_names = [f.name for f in fams.all_families()]
    warm_lazy_modules()
    cov = baseline(family_names, committed, 1200.0) if mode == "vectors" else {}
    digests = {rel: file_digest(rel) for rel in {m.path for m in mutants}}
    if sample is not None:
        # the reach of every mutant is known from the baseline at no cost: sample only among the
        # mutants that some family reaches (vectors mode), so that "unreached" is always complete
        reached = [m for m in mutants if mode != "vectors" or reaching_families(m, cov)]
        chosen = set(random.Random(seed).sample(reached, min(sample, len(reached))))
        mutants = [m for m in mutants if m in chosen or (mode == "vectors" and not reaching_families(m, cov))]

    results: list[Result] = []
    jobs: list[Job] = []
    pending: list[tuple[Mutant, list[str]]] = []
    reach = {m.key: reaching_families(m, cov) for m in mutants} if mode == "vectors" else {}
    argued = load_equivalent()
    fam_digest: dict[tuple[str, ...], str] = {}
    kills = killing_cases(list(journal.values()))  # grows as the run kills (see done())

    def evidence_of(m: Mutant) -> str:
        """Vectors mode: the digest of the vectors of the families that reach the mutant."""
        if mode != "vectors":
            return evidence
        names = tuple(reach[m.key])
        if names not in fam_digest:
            fam_digest[names] = families_digest(names, committed)
        return fam_digest[names]

    for m in mutants:
        old = journal.get((mode, m.key))
        if (not force and old is not None and old.file_sha == digests[m.path]
                and (old.status not in ("survived", "unreached") or old.evidence_sha == evidence_of(m))
                and (quick or not old.detail.startswith(QUICK))):
            results.append(old)
            continue
        if mode == "vectors" and m.key in argued and not force:
            # argued in equivalent/AREA.json: running it would only confirm that nothing differs, at
            # the price of every family that reaches it (a survivor is checked in full)
            r = Result(m.key, area, mode, "survived", "not run: argued in equivalent/AREA.json",
                       m.path, m.line, m.op, digests[m.path], evidence_of(m), 0.0, reach[m.key])
            _append(r)
            results.append(r)
            continue
        if mode == "vectors":
            fams_for = reach[m.key]
            if not fams_for:
                r = Result(m.key, area, mode, "unreached", "no vector family executes this line",
                           m.path, m.line, m.op, digests[m.path], evidence_of(m))
                _append(r)
                results.append(r)
                continue
            limit = timeout or 10.0 + 2 * sum(cov[n]["secs"] for n in fams_for)
            targeted = targeted_cases(m, cov)
            left_out = 0
            if quick and cap is not None and targeted:
                targeted, left_out = cap_targeted(targeted, cov, kills, cap, evidence)
            # the cheapest targeted replay first (a kill is usually found by the first family;
            # e.g. a tape mutant in the tape family's own cases rather than the accounting's)
            fams_for = sorted(fams_for, key=lambda n: (targeted_cost(n, targeted.get(n, set()), cov), n))
            # CPU allowance: the traced time of what the child will run (tracing makes a run
            # slower, never faster, so this is ample) plus 5 s for a quick run; a mutant that
            # runs out of it loops or is far slower than the reference (e.g. a deleted increment)
            cpu = (5.0 + sum(targeted_cost(n, c, cov) for n, c in targeted.items())
                   if quick and targeted else 10.0 + 2 * sum(cov[n]["secs"] for n in fams_for))
            jobs.append((m.key, _vector_job(m, fams_for, committed, targeted, quick, cpu, kills, left_out),
                         max(limit, 60 * cpu)))
        else:
            fams_for = []
            try:
                jobs.append((m.key, _tests_job(m, area), timeout or 600.0))
            except SyntaxError as exc:
                results.append(_non_viable(m, area, mode, exc, digests[m.path], evidence_of(m)))
                continue
        pending.append((m, fams_for))

    print(f"{area} ({mode}): {len(mutants)} mutants, {len(results)} decided already, "
          f"{len(jobs)} to run on {workers} workers", file=sys.stderr)
    counter = {"done": 0, "killed": 0}
    t0 = time.monotonic()

    def done(i: int, res: Outcome) -> None:
        m, fams_for = pending[i]
        st, detail = classify(res, jobs[i][2])
        secs = res[2]
        r = Result(m.key, area, mode, st, detail, m.path, m.line, m.op, digests[m.path], evidence_of(m),
                   round(secs, 2), fams_for)
        _append(r)
        results.append(r)
        for label in killing_cases([r]):
            kills[label] = kills.get(label, 0) + 1
        counter["done"] += 1
        counter["killed"] += st != "survived"
        if counter["done"] % 20 == 0 or counter["done"] == len(jobs):
            rate = (time.monotonic() - t0) / counter["done"]
            print(f"  {counter['done']}/{len(jobs)} run, {counter['killed']} killed, "
                  f"{rate:.2f} s/mutant", file=sys.stderr)

    run_forked(jobs, workers, done, deadline=None if budget is None else time.monotonic() + budget)
    return results


# -- report ----------------------------------------------------------------------------------------
def _load_keyed(folder: Path) -> dict[str, str]:
    """Mutant key -> text, merged from every ``AREA.json`` of ``folder``."""
    data: dict[str, str] = {}
    for path in sorted(folder.glob("*.json")):
        data.update(json.loads(path.read_text(encoding="utf-8")))
    return data


def load_equivalent() -> dict[str, str]:
    """Mutant key -> the argument that no vector can see it, from every ``equivalent/AREA.json``."""
    return _load_keyed(EQUIVALENT_DIR)


def load_open() -> dict[str, str]:
    """Mutant key -> why that survivor still stands (no vector found, no argument holds), from
    every ``open/AREA.json``; shown in the report, never counted as argued."""
    return _load_keyed(OPEN_DIR)


def newest_traces() -> Coverage:
    """Family -> its most recently written trace in the cache (whatever vectors it was for)."""
    out: Coverage = {}
    for f in sorted(CACHE_DIR.glob("trace-*.json"), key=lambda f: f.stat().st_mtime):
        out[f.stem[len("trace-"):].rsplit("-", 1)[0]] = json.loads(f.read_text())
    return out


def summarize(area: str, mode: str, results: dict[tuple[str, str], Result],
              equivalent: dict[str, str], evidence: str) -> dict[str, Any]:
    """Score of one area in one mode over its current mutant population.

    A result counts if it is for the current source of its file and, unless the mutant was
    killed, for the current evidence (the committed vectors of the families that reached it, or
    the tests); a survivor against older vectors is still counted as a survivor (newer vectors can
    only kill it, so the score stays a lower bound) and listed as stale.
    ``unreached`` mutants are recorded for the whole population on every run; of the reached
    ones, a run may have taken a sample. The score is ``killed / (measured - equivalent)``; when
    only a sample of the reached mutants was run, the estimate for the population is
    ``(1 - unreached share) * (kill rate of the sample)``, both net of equivalent mutants."""
    population = area_mutants(area)
    committed = committed_texts()
    digests = {rel: file_digest(rel) for rel in {m.path for m in population}}
    fam_digest = functools.cache(lambda names: families_digest(names, committed))
    stale: set[str] = set()
    latest: Coverage | None = None
    got = []
    for m in population:
        r = results.get((mode, m.key))
        if r is None or r.file_sha != digests[m.path]:
            continue
        if r.status == "unreached" and r.evidence_sha != evidence:
            # recorded against other vectors: still unreached only if no family's newest trace
            # executes it now (else it is not measured until a run re-examines it)
            if latest is None:
                latest = newest_traces()
            if reaching_families(m, latest):
                continue
        elif r.status == "survived" and r.evidence_sha != (
                evidence if mode == "tests" else fam_digest(tuple(sorted(r.families)))):
            stale.add(r.key)  # new vectors can only kill it: still counted as a survivor
        got.append(r)
    killed = sum(r.status in ("killed", "timeout") for r in got)
    survivors = [r for r in got if r.status in ("survived", "unreached")]
    equiv = [r for r in survivors if r.key in equivalent]
    live = [r for r in survivors if r.key not in equivalent]
    non_equiv = len(got) - len(equiv)
    unreached = [r for r in live if r.status == "unreached"]
    ran = [r for r in got if r.status != "unreached" and r.key not in equivalent]
    ran_killed = sum(r.status in ("killed", "timeout") for r in ran)
    full = len(got) == len(population)
    n_eq_pop = len(population) - len(equiv)
    estimate = None
    if mode == "vectors" and ran and n_eq_pop:
        reached_share = 1 - len(unreached) / n_eq_pop
        estimate = reached_share * ran_killed / len(ran)
    return {
        "area": area, "mode": mode, "population": len(population), "measured": len(got),
        "complete": full, "unreached": len(unreached), "run": len(ran), "run_killed": ran_killed,
        "killed": killed, "equivalent": len(equiv), "survived": len(live),
        "unconfirmed": sum(r.detail.startswith(QUICK) for r in live),
        "stale": sorted(k for k in stale if k not in equivalent),
        "score": (killed / non_equiv) if non_equiv else None,
        "estimate": estimate,
        "survivors": [asdict(r) for r in sorted(live, key=lambda r: (r.path, r.line, r.op))],
        "equivalents": [{"key": r.key, "path": r.path, "line": r.line, "op": r.op,
                         "argument": equivalent[r.key]} for r in sorted(equiv, key=lambda r: r.key)],
    }


def write_report() -> None:
    compact_journal()
    results = load_journal()
    equivalent = load_equivalent()
    reasons = load_open()
    vec = vectors_digest()
    summaries = [summarize(a, mode, results, equivalent, vec if mode == "vectors" else tests_digest(a))
                 for a in AREAS for mode in ("vectors", "tests")]
    summaries = [s for s in summaries if s["measured"]]
    DOC_JSON.write_text(json.dumps({"areas": summaries}, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    lines = [
        "# Mutation testing: do the vectors catch small bugs?",
        "",
        "Generated by `python -m tests.mutation.mutate report` from the results of",
        "`python -m tests.mutation.mutate run --area AREA [--mode tests]` (how it works: the module",
        "docstring of `tests/mutation/mutate.py`). Equivalent mutants are argued in",
        "`tests/mutation/equivalent/AREA.json`; a survivor that is not argued shows the reason it",
        "still stands, from `tests/mutation/open/AREA.json` (still counted as a survivor); the",
        "results are the committed journal `tests/mutation/journal/`; the same data as JSON:",
        "`docs/mutation.json`.",
        "",
        "*Unreached*: mutants on lines that no vector family executes (known for the whole",
        "population from one traced run of each family; they survive by construction). *Run*: the",
        "reached mutants actually run (all of them when *complete*, else a random sample), and how",
        "many of those the vectors killed. *Score* = killed / (measured - equivalent) over what was",
        "measured; *estimate* = (1 - unreached share) x (kill rate of the run), the expected score",
        "of the whole population when only a sample of the reached mutants was run.",
        "*Unconfirmed*: survivors of a `--quick` run, where nothing differed in the replay of the",
        "cases that execute the mutant but the full check (every case and the regeneration of each",
        "reaching family) was not run; a full check can only turn such a survivor into a kill, so",
        "the score is a lower bound. With `--cap S` only S traced CPU seconds of those cases were",
        "replayed (the note of such a survivor says how many were left out): a lower bound still.",
        "A survivor recorded against older vectors (listed as such) is still counted as a survivor,",
        "for the same reason.",
        "",
        "| area | check | population | complete | unreached | run | run killed | unconfirmed "
        "| equivalent | score | estimate |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for s in summaries:
        score = "n/a" if s["score"] is None else f"{100 * s['score']:.1f}%"
        est = "n/a" if s["estimate"] is None else f"{100 * s['estimate']:.1f}%"
        lines.append(f"| {s['area']} | {s['mode']} | {s['population']} | {'yes' if s['complete'] else 'no'} "
                     f"| {s['unreached']} | {s['run']} | {s['run_killed']} | {s.get('unconfirmed', 0)} "
                     f"| {s['equivalent']} | {score} | {est} |")
    for s in summaries:
        if not s["survivors"]:
            continue
        lines += ["", f"## Survivors: {s['area']}, {s['mode']}", "",
                  "| file | line:columns | mutation | note |", "|---|---|---|---|"]
        for r in s["survivors"]:
            parts = ["Not reached by any vector." if r["status"] == "unreached"
                     else "Unconfirmed (no full check)." if r["detail"].startswith(QUICK) else "",
                     "Vectors changed since, not re-run." if r["key"] in s["stale"] else "",
                     reasons.get(r["key"], "")]
            note = " ".join(x for x in parts if x)
            where = r["key"][len(r["path"]) + 1:].rsplit(":", 1)[0]
            lines.append(f"| {r['path']} | {where} | {r['op']} | {note} |")
    eq = [e for s in summaries if s["mode"] == "vectors" for e in s["equivalents"]]
    if eq:
        lines += ["", "## Argued survivors (vectors): equivalent, unreachable, redundant or unspecified",
                  "",
                  "| file | line:columns | mutation | why no vector can see it |", "|---|---|---|---|"]
        for e in eq:
            where = e["key"][len(e["path"]) + 1:].rsplit(":", 1)[0]
            lines.append(f"| {e['path']} | {where} | {e['op']} | {e['argument']} |")
    DOC_MD.write_text("\n".join(lines) + "\n", encoding="utf-8")


# -- CLI --------------------------------------------------------------------------------------------
def _selection(files: Sequence[str] | None, keys: Path | None) -> Callable[[Mutant], bool] | None:
    """The ``--file`` / ``--keys`` filter of ``run`` (both given: a mutant must pass both)."""
    if not files and keys is None:
        return None
    wanted: set[str] | None = None
    if keys is not None:
        wanted = {line.split("\t", 1)[0].strip() for line in keys.read_text(encoding="utf-8").splitlines()}
        wanted.discard("")
        if not wanted:
            raise SystemExit(f"mutate: {keys} lists no mutant key")

    def accept(m: Mutant) -> bool:
        return ((not files or any(m.path.endswith(f) for f in files))
                and (wanted is None or m.key in wanted))
    return accept


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.mutation.mutate",
                                     description=(__doc__ or "").split("\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    run = sub.add_parser("run", help="run the mutants of one or more areas")
    run.add_argument("--area", action="append", choices=sorted(AREAS), required=True)
    run.add_argument("--mode", choices=("vectors", "tests"), default="vectors")
    run.add_argument("--workers", type=int, default=2)
    run.add_argument("--timeout", type=float, help="seconds per mutant (default: from the baseline)")
    run.add_argument("--budget", type=float, help="launch no new mutant after this many seconds")
    run.add_argument("--sample", type=int,
                     help="run a random sample of this many reached mutants per area (the unreached "
                          "ones are always all recorded)")
    run.add_argument("--force", action="store_true", help="ignore the journal")
    run.add_argument("--quick", action="store_true",
                     help="vectors: a mutant that survives the replay of the cases executing it is "
                          "recorded as surviving without the full check (a lower bound on kills)")
    run.add_argument("--cap", type=float, default=None,
                     help="with --quick: replay at most this many traced CPU seconds of a mutant's "
                          "targeted cases, the most-killing then the cheapest first (a lower bound "
                          "still; a survivor names the cases left out)")
    run.add_argument("--file", action="append", metavar="PATH",
                     help="only the mutants of this source file (repeatable; a suffix of the path, "
                          "e.g. shuffled/bary_linf.py)")
    run.add_argument("--keys", type=Path, metavar="LIST",
                     help="only the mutants whose keys this file lists (one per line; anything "
                          "after a tab is ignored, as in a copied survivor list)")
    lst = sub.add_parser("list", help="list the mutants of an area")
    lst.add_argument("--area", choices=sorted(AREAS), required=True)
    lst.add_argument("--reach", action="store_true",
                     help="with the families that reach each mutant and the cases that execute it "
                          "(traces the families first if needed)")
    sub.add_parser("report", help="write docs/mutation.md and docs/mutation.json from the journal")
    regen = sub.add_parser("regen", help="rewrite the vector files of some families only (while adding "
                                         "vectors; run `dpspec vectors generate` for the manifest)")
    regen.add_argument("--family", action="append", required=True)
    args = parser.parse_args(argv)
    if args.cmd == "regen":
        from dpspec.conformance.families import get_family
        from dpspec.conformance.vectors import canonical_json

        for name in args.family:
            for schema_name, schema in get_family(name).schemas().items():
                (vectors_dir() / "schema" / schema_name).write_text(canonical_json(schema), encoding="utf-8")
            for vf in get_family(name).files():
                path = vectors_dir() / vf.path
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(vf.text if vf.text is not None else canonical_json(vf.doc), encoding="utf-8")
                print(f"wrote {vf.path}", file=sys.stderr)
        return 0
    if args.cmd == "list":
        cov: Coverage = {}
        if args.reach:
            import dpspec.conformance.families as fams

            cov = baseline([f.name for f in fams.all_families()], committed_texts(), 3000.0)
        for m in area_mutants(args.area):
            if not args.reach:
                print(m.key)
                continue
            names = reaching_families(m, cov)
            cases = sum(len(c) for c in targeted_cases(m, cov).values())
            cost = sum(cov[n]["secs"] for n in names)
            print(f"{m.key}\t{','.join(names) or '-'}\t{cases}\t{cost:.1f}")
        return 0
    if args.cmd == "run":
        if args.workers < 1 or (args.timeout is not None and args.timeout <= 0):
            print("mutate: --workers must be >= 1 and --timeout > 0", file=sys.stderr)
            return 2
        only = _selection(args.file, args.keys)
        if args.cap is not None and not (args.quick and args.cap > 0):
            print("mutate: --cap needs --quick and a positive number of seconds", file=sys.stderr)
            return 2
        for area in args.area:
            res = run_area(area, args.mode, args.workers, args.timeout, args.sample, force=args.force,
                           budget=args.budget, quick=args.quick, only=only, cap=args.cap)
            survived = sum(r.status in ("survived", "unreached") for r in res)
            print(f"{area} ({args.mode}): {len(res) - survived}/{len(res)} killed", file=sys.stderr)
    write_report()
    return 0


if __name__ == "__main__":
    sys.exit(main())
