"""``dpspec spec render``: write the specification document (kramdown-rfc markdown) to docs/spec/.

``--check`` compares instead of writing (exit 1 when the committed document is stale), ``--build``
also runs the IETF toolchain on it (``kramdown-rfc`` into RFCXML v3, then ``xml2rfc`` into
``.txt`` and ``.html``) and fails on any warning either tool prints. The text itself comes from
:mod:`dpspec.conformance.render`.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from dpspec.conformance.cli import CliError

DEFAULT_OUT = Path("docs") / "spec"


def register(sub: Any) -> None:
    parser = sub.add_parser("spec", help="render the specification document (kramdown-rfc)")
    ssub = parser.add_subparsers(dest="spec_command", metavar="ACTION")
    ssub.required = True
    p = ssub.add_parser("render", help="write docs/spec/draft-dpspec-dp-algorithms.md from the "
                        "normative docstrings and vector headers")
    p.add_argument("--out", type=Path, default=None,
                   help="output folder (default: docs/spec of the checkout)")
    p.add_argument("--vectors", type=Path, default=None, help="vectors folder (default: the repository's)")
    p.add_argument("--check", action="store_true",
                   help="do not write; exit 1 if the document in --out differs from a fresh render")
    p.add_argument("--build", action="store_true",
                   help="also build .xml, .txt and .html with kramdown-rfc and xml2rfc (no warnings allowed)")
    p.set_defaults(func=run_render)


def _repo_out() -> Path:
    from dpspec.conformance.store import default_vectors_dir

    return default_vectors_dir().parent / DEFAULT_OUT


def build(md: Path) -> list[Path]:
    """Run kramdown-rfc and xml2rfc on ``md``; CliError naming the tool and its first warning."""
    tools = {"kramdown-rfc": shutil.which("kramdown-rfc") or shutil.which("kramdown-rfc2629"),
             "xml2rfc": shutil.which("xml2rfc")}
    missing = [name for name, path in tools.items() if path is None]
    if missing:
        raise CliError(f"--build needs {' and '.join(missing)} on PATH (Debian: ruby-kramdown-rfc2629; "
                       "PyPI: xml2rfc)", status=1)
    from dpspec.conformance.render import RFC_REFERENCES, rfc_reference_xml

    xml = md.with_suffix(".xml")
    with tempfile.TemporaryDirectory(prefix="dpspec-refcache-") as cache:
        for number in RFC_REFERENCES:
            (Path(cache) / f"reference.RFC.{number}.xml").write_text(rfc_reference_xml(number),
                                                                    encoding="utf-8")
        env = {**os.environ, "KRAMDOWN_REFCACHEDIR": cache, "KRAMDOWN_OFFLINE": "1"}
        kr = subprocess.run([str(tools["kramdown-rfc"]), md.name], cwd=md.parent, capture_output=True,
                            text=True, timeout=600, env=env)
    if kr.returncode != 0 or kr.stderr.strip():
        raise CliError(f"kramdown-rfc: {(kr.stderr.strip() or 'failed').splitlines()[0]}", status=1)
    xml.write_text(kr.stdout, encoding="utf-8")
    outputs = [xml]
    for flag, suffix in (("--text", ".txt"), ("--html", ".html")):
        target = md.with_suffix(suffix)
        x2 = subprocess.run([str(tools["xml2rfc"]), "--quiet", flag, "--no-network", xml.name,
                             "-o", target.name], cwd=md.parent, capture_output=True, text=True,
                            timeout=600)
        noise = [line for line in (x2.stderr + x2.stdout).splitlines() if line.strip()]
        if x2.returncode != 0 or noise:
            raise CliError(f"xml2rfc {flag}: {noise[0] if noise else 'failed'}", status=1)
        outputs.append(target)
    return outputs


def run_render(args: argparse.Namespace) -> int:
    from dpspec.conformance import render
    from dpspec.conformance.store import default_vectors_dir

    root = args.vectors or default_vectors_dir()
    if not (root / "MANIFEST.json").is_file():
        raise CliError(f"no vectors/MANIFEST.json under {root}")
    out = args.out or _repo_out()
    doc = render.render(root)
    target = out / render.DOCUMENT_FILE
    if args.check:
        if not target.is_file():
            raise CliError(f"{target} does not exist; run `dpspec spec render`", status=1)
        if target.read_text(encoding="utf-8") != doc.text:
            raise CliError(f"{target} is stale; run `dpspec spec render`", status=1)
        print(f"{target}: fresh ({len(doc.sections)} sections, {len(doc.vector_files)} vector files)")
    else:
        try:
            out.mkdir(parents=True, exist_ok=True)
            target.write_text(doc.text, encoding="utf-8")
        except OSError as exc:
            raise CliError(f"cannot write {target}: {exc.strerror or exc}") from None
        print(f"wrote {target} ({len(doc.sections)} sections, {len(doc.vector_files)} vector files)")
    if args.build:
        for path in build(target):
            print(f"built {path}", file=sys.stderr if args.check else sys.stdout)
    return 0
