"""Helpers shared by the vector families: building test groups, comparing output objects,
attaching per-op tolerances to cases and memoising handlers.

Most families publish a group the same way: for one op, its valid tests (each with the outputs of
the reference handler), then its invalid tests (each first checked to be rejected by that handler,
:func:`dpspec.conformance.vectors.invalid_tests`), the tcIds running on through the file. This
module writes that loop once. What a family publishes (its cases, headers, notes and tolerances)
stays in the family's own module; these helpers only assemble it.

It is a family-local module (not :mod:`dpspec.conformance.vectors`) so that the mutation tool's
trace cache, keyed by the sources a family imports, is invalidated only for the families that use
it when it changes. That key follows a family's direct imports only: a family that uses these
helpers imports this module itself (not through another family).
"""

from __future__ import annotations

import contextlib
import copy
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from dpspec.conformance.vectors import (
    Case,
    Handler,
    InvalidCase,
    TestNumberer,
    invalid_tests,
    test_entry,
)

ValidCase = tuple[str, dict[str, Any]] | tuple[str, dict[str, Any], Sequence[str]]
"""A valid test as a generator lists it: ``(comment, inputs)`` or ``(comment, inputs, flags)``."""


def valid_tests(
    tc: TestNumberer,
    handler: Handler,
    params: Mapping[str, Any],
    cases: Iterable[ValidCase],
) -> list[dict[str, Any]]:
    """The ``valid`` tests of a group: for each case, in order, the next tcId of ``tc`` and the
    outputs ``handler(params ∪ inputs)`` (the handler gets a fresh dict; the published inputs are
    ``inputs`` alone, the group holding ``params``)."""
    tests = []
    for case in cases:
        comment, inputs, *rest = case
        flags = rest[0] if rest else ()
        tests.append(test_entry(tc(), comment, inputs, handler({**params, **inputs}), "valid",
                                flags))
    return tests


def build_group(
    tc: TestNumberer,
    handlers: Mapping[str, Handler],
    op: str,
    valid: Iterable[ValidCase],
    invalid: Iterable[InvalidCase] = (),
    params: Mapping[str, Any] | None = None,
    rejects: tuple[type[Exception], ...] = (ValueError,),
) -> dict[str, Any]:
    """One group of the envelope: ``{"op", "params", "tests"}`` with the :func:`valid_tests` of
    ``valid`` followed by the :func:`~dpspec.conformance.vectors.invalid_tests` of ``invalid``
    (``rejects``: the exceptions that count as the handler's refusal), numbered by ``tc``; the
    reference handler is ``handlers[op]``."""
    handler = handlers[op]
    params = dict(params or {})
    tests = valid_tests(tc, handler, params, valid)
    tests += invalid_tests(tc, handler, params, invalid, rejects)
    return {"op": op, "params": params, "tests": tests}


class Groups:
    """The groups of one vector file, built in order with one tcId numbering.

    ``handlers`` maps each op to its reference handler; :meth:`add` appends a :func:`build_group`
    for an op; :attr:`groups` is the list to pass as ``groups=`` to ``Family.vector_file``.
    """

    def __init__(self, handlers: Mapping[str, Handler]) -> None:
        self.handlers = handlers
        self.tc = TestNumberer()
        self.groups: list[dict[str, Any]] = []

    def add(
        self,
        op: str,
        valid: Iterable[ValidCase],
        invalid: Iterable[InvalidCase] = (),
        params: Mapping[str, Any] | None = None,
        rejects: tuple[type[Exception], ...] = (ValueError,),
    ) -> None:
        """Append the group of ``op``: its valid tests, then its invalid ones (see :func:`build_group`)."""
        self.groups.append(build_group(self.tc, self.handlers, op, valid, invalid, params,
                                       rejects))


def compare_keys(
    want: Mapping[str, Any],
    got: Any,
    check: Callable[[str, Any, Any], str | None],
) -> str | None:
    """None if ``got`` is an object with exactly the keys of ``want`` and ``check(key, wanted,
    given)`` returns None for each key (in sorted order); else the first reason it does not match:
    ``outputs must be an object``, ``missing output 'k'``, ``check``'s text, or ``unexpected
    outputs [...]``. The families' ``compare`` methods differ only in ``check`` (exact, or a
    relative tolerance on some keys)."""
    if not isinstance(got, dict):
        return "outputs must be an object"
    for key in sorted(want):
        if key not in got:
            return f"missing output {key!r}"
        why = check(key, want[key], got[key])
        if why:
            return why
    extra = sorted(set(got) - set(want))
    return f"unexpected outputs {extra}" if extra else None


def with_tolerances(cases: Iterable[Case], tolerance: Mapping[str, tuple[float, float]]
                    ) -> list[Case]:
    """``cases`` with the tolerance of their op attached for the harness: ``tolerance[op]`` is
    ``(relative, absolute)`` and becomes ``Case.tolerance = {"rel": ..., "abs": ...}`` (every op
    of the cases must be listed)."""
    out = []
    for case in cases:
        rel, ab = tolerance[case.op]
        out.append(Case(case.path, case.tc_id, case.op, case.args, case.expected, case.result,
                        case.comment, case.flags, {"rel": rel, "abs": ab}))
    return out


def memoised(handler: Handler) -> Handler:
    """The handler with a per-process memo of its answers, keyed by the canonical JSON of the
    arguments: ``dpspec vectors check`` generates a family's files and then replays every test in
    one process, and answers that are pure functions of their arguments (the accounting families:
    mpmath at 40 to 50 digits) need not be computed twice. A refusal (an exception) is never
    memoised; a returned answer is copied, so no caller can alter the memo."""
    memo: dict[str, dict[str, Any]] = {}

    def run(args: dict[str, Any]) -> dict[str, Any]:
        key = json.dumps(args, sort_keys=True, default=str)
        if key not in memo:
            memo[key] = handler(args)
        return copy.deepcopy(memo[key])

    run.__doc__ = handler.__doc__
    return run


@contextlib.contextmanager
def replaced(module: Any, **functions: Any) -> Iterator[None]:
    """Give ``module`` these attributes for the duration of the block, the old ones back whatever
    happens: how a handler observes the spec's own calls (a transcript, a count of evaluations)
    without recomputing anything."""
    old = {name: getattr(module, name) for name in functions}
    for name, f in functions.items():
        setattr(module, name, f)
    try:
        yield
    finally:
        for name, f in old.items():
            setattr(module, name, f)


class Call(NamedTuple):
    """One call of a spec function observed by ``recorded_calls``."""
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    result: Any


@contextlib.contextmanager
def recorded_calls(module: Any, name: str) -> Iterator[list[Call]]:
    """Record every call of ``module.name`` made in the block, in order, with its arguments and
    its result (read the list after the block). The spec's own function runs unchanged: this is
    how a handler publishes an intermediate value (the probes of a search, the pairs a bound
    visits) without recomputing it."""
    inner = getattr(module, name)
    calls: list[Call] = []

    def recorded(*args: Any, **kwargs: Any) -> Any:
        result = inner(*args, **kwargs)
        calls.append(Call(args, dict(kwargs), result))
        return result

    with replaced(module, **{name: recorded}):
        yield calls


@contextlib.contextmanager
def counted_calls(module: Any, name: str) -> Iterator[list[int]]:
    """Count the calls of ``module.name`` made in the block (the count is ``[n]``, read after it;
    a call that raised is counted too)."""
    inner = getattr(module, name)
    calls = [0]

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return inner(*args, **kwargs)

    with replaced(module, **{name: counted}):
        yield calls
