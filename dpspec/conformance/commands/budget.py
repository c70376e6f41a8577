"""``dpspec budget``: the on-device privacy budget accountant of MJTB+22 sec. 4.3.

``budget example`` prints the policy of MJTB+22 Table 1; ``budget init --policy P --state S``
creates a state file from a policy; ``budget check`` runs the three checks for a query (the state
is unchanged); ``budget commit`` checks and, if allowed, records the query in the state file;
``budget show`` prints the state. A refused query exits with status 1 and says which check failed.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from dpspec.conformance.cli import CliError
from dpspec.spec.accounting.budget import Accountant, Query, mjtb_table1


def register(sub: Any) -> None:
    parser = sub.add_parser("budget", help="on-device privacy budget accountant (MJTB+22 4.3)")
    bsub = parser.add_subparsers(dest="budget_command", metavar="ACTION")
    bsub.required = True

    ex = bsub.add_parser("example", help="print the policy of MJTB+22 Table 1 as JSON")
    ex.set_defaults(func=run_example)

    init = bsub.add_parser("init", help="create a state file from a JSON policy")
    init.add_argument("--policy", type=Path, required=True)
    init.add_argument("--state", type=Path, required=True)
    init.set_defaults(func=run_init)

    for name, func, text in (("check", run_check, "run the three checks for a query"),
                             ("commit", run_commit, "check a query and record it if allowed")):
        p = bsub.add_parser(name, help=text)
        p.add_argument("--state", type=Path, required=True)
        p.add_argument("--analysis", required=True)
        p.add_argument("--fields", required=True, help="comma-separated data fields read")
        p.add_argument("--eps0", required=True, help="local budget of the randomizer")
        p.add_argument("--eps", required=True, help="cohort-aggregate budget of the query")
        p.add_argument("--min-cohort", required=True, type=int, help="m, enforced by aggregation")
        p.add_argument("--query-id", help="the recipe's query, for a policy with queryClasses")
        p.add_argument("--json", action="store_true")
        p.set_defaults(func=func)

    show = bsub.add_parser("show", help="print a state file")
    show.add_argument("--state", type=Path, required=True)
    show.set_defaults(func=run_show)


def _load(path: Path) -> Accountant:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CliError(f"cannot read {path}: {exc.strerror}") from exc
    try:
        return Accountant.from_json(text)
    except (ValueError, TypeError) as exc:
        raise CliError(f"{path}: {exc}") from exc


def _save(acc: Accountant, path: Path) -> None:
    try:
        path.write_text(acc.to_json(), encoding="utf-8")
    except OSError as exc:
        raise CliError(f"cannot write {path}: {exc.strerror}") from exc


def run_example(args: argparse.Namespace) -> int:
    print(mjtb_table1().to_json(), end="")
    return 0


def run_init(args: argparse.Namespace) -> int:
    acc = _load(args.policy)
    if args.state.exists():
        raise CliError(f"{args.state} exists; refusing to overwrite a budget state")
    _save(acc, args.state)
    print(f"initialised {args.state} with {len(acc.analyses)} analyses and {len(acc.fields)} fields")
    return 0


def _query(args: argparse.Namespace) -> Query:
    try:
        return Query.make(args.analysis, [f.strip() for f in args.fields.split(",") if f.strip()],
                          args.eps0, args.eps, args.min_cohort, args.query_id)
    except (ValueError, TypeError) as exc:
        raise CliError(str(exc)) from exc


def _report(args: argparse.Namespace, allowed: bool, check: int, reason: str,
            committed: bool) -> int:
    if args.json:
        print(json.dumps({"allowed": allowed, "failedCheck": check or None, "reason": reason,
                          "committed": committed}, indent=2, sort_keys=True))
    else:
        verb = ("allowed and recorded" if committed else "allowed") if allowed else \
            f"refused by check {check}"
        print(f"{verb}: {reason}")
    return 0 if allowed else 1


def run_check(args: argparse.Namespace) -> int:
    acc = _load(args.state)
    d = acc.check(_query(args))
    return _report(args, d.allowed, d.check, d.reason, False)


def run_commit(args: argparse.Namespace) -> int:
    acc = _load(args.state)
    d = acc.commit(_query(args))
    if d.allowed:
        _save(acc, args.state)
    return _report(args, d.allowed, d.check, d.reason, d.allowed)


def run_show(args: argparse.Namespace) -> int:
    print(_load(args.state).to_json(), end="")
    return 0
