"""Reading a family's generated cases in its tests: every case of every file the family writes,
and the first case of an op whose comment mentions a phrase (so that a test names the case it
is about by what the case is for, not by its position)."""

from __future__ import annotations

from typing import Any

from dpspec.conformance.vectors import Case


def generated_cases(family: Any) -> list[Case]:
    """Every case of every file ``family`` generates, in file order."""
    return [c for f in family.files() for c in family.cases(f.path, f.doc)]


def find_case(cases: list[Case], op: str, comment_part: str, result: str = "valid") -> Case:
    """The first case of ``op`` with this ``result`` whose comment contains ``comment_part``;
    a test that names a case no longer generated fails here, saying which."""
    for c in cases:
        if c.op == op and c.result == result and comment_part in c.comment:
            return c
    raise AssertionError(f"no {result} {op} case mentioning {comment_part!r}")
