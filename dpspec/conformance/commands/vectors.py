"""``dpspec vectors generate|check|list``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from dpspec.conformance.cli import CliError, check_output_folder
from dpspec.conformance.families import all_families, get_family
from dpspec.conformance.progress import Progress
from dpspec.conformance.store import MANIFEST, check, default_vectors_dir, generate_all, write_all


def register(sub: Any) -> None:
    parser = sub.add_parser("vectors", help="generate and check the test vectors")
    vsub = parser.add_subparsers(dest="vectors_command", metavar="ACTION")
    vsub.required = True

    gen = vsub.add_parser("generate", help="write every vector file, the schemas and the manifest")
    gen.add_argument("--out", type=Path, default=None,
                     help="folder to write (default: the repository's vectors/)")
    gen.add_argument("--quiet", "-q", action="store_true", help="print nothing on success")
    gen.set_defaults(func=run_generate)

    chk = vsub.add_parser(
        "check",
        help="regenerate and require byte-identical files, validate schemas, replay every test",
    )
    chk.add_argument("--dir", type=Path, default=None,
                     help="vector folder to check (default: the repository's vectors/)")
    chk.add_argument("--family", action="append", default=None, metavar="NAME",
                     help="check only this family (repeatable; `dpspec vectors list` names them): its"
                          " files, schemas and tests, not the manifest")
    chk.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr")
    chk.set_defaults(func=run_check)

    lst = vsub.add_parser("list", help="list the generator families")
    lst.set_defaults(func=run_list)


def _vectors_dir(given: Path | None) -> Path:
    if given is not None:
        if not given.is_dir():
            raise CliError(f"--dir {given}: no such folder")
        return given
    root = default_vectors_dir()
    if not root.is_dir():
        raise CliError(f"no vectors folder at {root}; pass --dir/--out explicitly")
    return root


def run_generate(args: argparse.Namespace) -> int:
    out: Path = args.out if args.out is not None else default_vectors_dir()
    check_output_folder(out)
    progress = Progress(quiet=args.quiet)
    try:
        gen = generate_all(progress=progress.step)
    finally:
        progress.done()
    paths = write_all(gen, out)
    if not args.quiet:
        import json

        digest = json.loads(gen.texts[MANIFEST])["setDigest"]
        # counted as `vectors check` counts them: the harness cases of every vector file
        tests = sum(len(f.cases(p, json.loads(gen.texts[p]))) for p, f in gen.owners.items())
        print(f"wrote {len(paths)} files ({len(gen.owners)} vector files, {tests} tests) to {out}")
        print(f"set digest {digest}")
    return 0


def run_check(args: argparse.Namespace) -> int:
    root = _vectors_dir(args.dir)
    families = None
    if args.family:
        try:
            families = tuple(get_family(name) for name in dict.fromkeys(args.family))
        except KeyError as exc:
            raise CliError(str(exc.args[0])) from None
    progress = Progress(quiet=args.quiet)
    try:
        report = check(root, progress=progress.step, families=families)
    finally:
        progress.done()
    for problem in report.problems:
        print(problem, file=sys.stderr)
    if report.ok:
        print(f"{report.files} files, {report.tests} tests: all match")
        return 0
    print(f"{report.files} files, {report.tests} tests: {len(report.problems)} problems")
    return 1


def run_list(args: argparse.Namespace) -> int:
    for family in all_families():
        print(f"{family.name:16} {family.summary}")
    return 0
