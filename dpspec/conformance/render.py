"""``dpspec spec render``: the specification as a kramdown-rfc document, generated, never written twice.

The normative text of dpspec lives in two places that the code and the vectors already carry:

* the **module docstrings** of the normative modules (for example the "Specification (version 1)" of
  :mod:`dpspec.spec.tape`, the coin-consumption rules of :mod:`dpspec.spec.sa2.ideal`);
* the **vector headers** (``header`` and ``notes`` of every file under ``vectors/``), the text from
  which outside implementers reproduce the vectors.

This module assembles them into one Internet-Draft-shaped document in kramdown-rfc markdown, with
the reference code of the entry points as pseudocode (as the VDAF draft does: its pseudocode is
Python), and an appendix of test vectors (the smallest valid and invalid test of each file) with the
set digest to cite. Nothing is paraphrased here: change a docstring or a header and the document
changes with it; ``dpspec spec render --check`` (run by the test suite) fails until it is rendered
again.

Output rules, so that kramdown-rfc and xml2rfc accept the result without warnings:

* figures (code and JSON) are folded to at most 69 columns with the single-backslash strategy of
  RFC 8792 (sec. 7.2.1): a folded line ends in ``\\`` and continues on the next line; the figure
  then starts with RFC 8792's header line;
* reStructuredText markup of docstrings (double back-quotes, ``:mod:`` roles, underlined headings,
  ``::`` literal blocks) is translated to markdown.

The document is deterministic: its only inputs are the repository's files (no date, no versions of
installed libraries).
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import re
import textwrap
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dpspec import __version__

#: Width of a figure line (RFC 7994 allows 72 columns of artwork; xml2rfc indents figures by 3).
FIGURE_WIDTH = 69
DOCNAME = "draft-dpspec-dp-algorithms-latest"
DOCUMENT_FILE = "draft-dpspec-dp-algorithms.md"
RFC8792_HEADER = "NOTE: '\\' line wrapping per RFC 8792"


@dataclass(frozen=True)
class Section:
    """One normative section: prose from module docstrings, reference code, and vector headers."""

    title: str
    anchor: str
    modules: tuple[str, ...] = ()
    code: tuple[str, ...] = ()  # "module:qualname" of the entry points shown as pseudocode
    vectors: tuple[str, ...] = ()  # folders (or files) under vectors/ whose headers belong here
    intro: str = ""


SECTIONS: tuple[Section, ...] = (
    Section("The Random Tape", "tape", modules=("dpspec.spec.tape",),
            code=("dpspec.spec.tape:tape_dst", "dpspec.spec.tape:RandomTape.uniform"),
            vectors=("tape",)),
    Section("Exact Samplers", "samplers", modules=("dpspec.spec.samplers",),
            vectors=("samplers",),
            intro="Each sampler expands a random tape ({{tape}}) into samples with integer and "
                  "rational arithmetic only, following the exact constructions of {{CKS20}}. The text of "
                  "each subsection is the header of the "
                  "sampler's vector file."),
    Section("Differential Privacy Mechanisms", "mechanisms",
            modules=("dpspec.spec.mechanisms", "dpspec.spec.mechanisms.base"),
            vectors=("mechanisms",)),
    Section("Differential Privacy Policies", "policies",
            modules=("dpspec.spec.policies", "dpspec.spec.policies.base"),
            code=("dpspec.spec.policies.base:run_vdaf_with_dp_policy",),
            vectors=("policies",)),
    Section("Prio3 Test Vectors", "vdaf", modules=("dpspec.spec.vdaf",), vectors=("vdaf",),
            intro="Prio3 itself is specified by {{VDAF}}; the files below are dpspec's own vectors "
                  "in the draft's format (for example the MultihotCountVec instances the policies "
                  "of {{policies}} use)."),
    Section("The SA2 Ideal Functionality", "sa2", modules=("dpspec.spec.sa2.ideal",),
            vectors=("sa2",)),
    Section("Shuffled-Model Counting", "shuffled", modules=("dpspec.spec.shuffled",),
            vectors=("shuffled",)),
    Section("Privacy Accounting", "accounting", modules=("dpspec.spec.accounting",),
            vectors=("accounting",)),
)

FORMAT_SECTION = Section("The Test Vector Format", "format", modules=("dpspec.conformance.vectors",),
                         vectors=("schema",))


# -- text helpers -----------------------------------------------------------------------------------

_ROLE = re.compile(r":(?:mod|func|class|meth|attr|data|obj|doc):`~?([^`]+)`")
_DOUBLE = re.compile(r"``(.+?)``")


_SPECIAL = re.compile(r"([\\*_\[\]<>{}$|#^~])")
_CODE = re.compile(r"(`[^`]*`)")


def escape(text: str) -> str:
    """Plain prose for kramdown: every markdown-significant character outside code spans is escaped
    (brackets, angle brackets, emphasis, math ``$``, attribute braces, table bars)."""
    pieces = _CODE.split(text)
    return "".join(p if p.startswith("`") and p.endswith("`") and len(p) > 1 else _SPECIAL.sub(r"\\\1", p)
                   for p in pieces)


def inline(text: str) -> str:
    """reStructuredText inline markup -> markdown: roles and double back-quotes become code spans,
    everything else is escaped prose."""
    text = _ROLE.sub(lambda m: f"``{m.group(1)}``", text)
    spans: list[str] = []

    def keep(m: re.Match[str]) -> str:
        spans.append("`" + m.group(1).replace("`", "'") + "`")
        return f"\0{len(spans) - 1}\0"

    text = _DOUBLE.sub(keep, text)
    text = escape(text)
    return re.sub("\0(\\d+)\0", lambda m: spans[int(m.group(1))], text)


def fold(lines: Iterable[str], width: int = FIGURE_WIDTH) -> list[str]:
    """Fold figure lines to ``width`` columns (RFC 8792 sec. 7.2.1, single backslash).

    A line longer than ``width`` is cut after ``width - 1`` characters, a ``\\`` is appended, and
    the rest continues on the next line; a continuation never starts with a space (the cut moves
    left until it does not), as the strategy requires. When any line was folded, RFC 8792's header
    line and an empty line come first."""
    out: list[str] = []
    folded = False
    for raw in lines:
        line = raw.rstrip().replace("\t", "    ")
        if line.endswith("\\") and len(line) <= width:
            # a literal backslash at the end would read as a fold: fold it explicitly
            line = line + " "
        while len(line) > width:
            cut = width - 1
            while cut > 1 and (line[cut] == " " or line[cut - 1] == "\\"):
                cut -= 1
            out.append(line[:cut] + "\\")
            line = line[cut:]
            folded = True
        out.append(line.rstrip() if not line.endswith("\\ ") else line)
    if folded:
        return [RFC8792_HEADER, "", *out]
    return out


def unfold(lines: Sequence[str]) -> list[str]:
    """Undo :func:`fold` (RFC 8792 sec. 7.2.2): drop the header, join each ``\\``-ended line with
    the next."""
    if not lines or lines[0] != RFC8792_HEADER:
        return [line.rstrip() for line in lines]
    out: list[str] = []
    pending = ""
    for line in lines[2:]:
        if line.endswith("\\"):
            pending += line[:-1]
            continue
        out.append((pending + line).rstrip())
        pending = ""
    return out


def figure(lines: Iterable[str], kind: str = "") -> str:
    """A kramdown-rfc code figure, folded. A folded figure loses its language tag: kramdown-rfc
    checks the syntax of ``json`` figures, and RFC 8792 folding is not JSON."""
    folded = fold(lines)
    if folded and folded[0] == RFC8792_HEADER:
        kind = ""
    body = "\n".join(folded)
    return f"~~~ {kind}\n{body}\n~~~".replace("~~~ \n", "~~~\n")


#: Bibliographic data of the RFCs the document cites, as RFCXML ``<reference>`` elements: the
#: toolchain reads them from its cache instead of fetching them (the build must work offline).
RFC_REFERENCES = {
    2119: ("Key words for use in RFCs to Indicate Requirement Levels", (("S.", "Bradner"),),
           "1997", "March", "BCP", "14"),
    8174: ("Ambiguity of Uppercase vs Lowercase in RFC 2119 Key Words", (("B.", "Leiba"),),
           "2017", "May", "BCP", "14"),
    8792: ("Handling Long Lines in Content of Internet-Drafts and RFCs",
           (("K.", "Watsen"), ("E.", "Auerswald"), ("A.", "Farrel"), ("Q.", "Wu")),
           "2020", "June", None, None),
}


def rfc_reference_xml(number: int) -> str:
    """The ``reference.RFC.NNNN.xml`` bibxml entry for one of :data:`RFC_REFERENCES`."""
    title, authors, year, month, series, series_value = RFC_REFERENCES[number]
    people = "".join(f'<author initials="{i}" surname="{s}" fullname="{i} {s}"/>' for i, s in authors)
    extra = f'<seriesInfo name="{series}" value="{series_value}"/>' if series else ""
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<reference anchor="RFC{number}" '
            f'target="https://www.rfc-editor.org/info/rfc{number}"><front><title>{title}</title>'
            f'{people}<date year="{year}" month="{month}"/></front>{extra}'
            f'<seriesInfo name="RFC" value="{number}"/><seriesInfo name="DOI" '
            f'value="10.17487/RFC{number}"/></reference>\n')


def docstring_markdown(doc: str, level: int) -> str:
    """A module docstring (reStructuredText-lite) as markdown; headings start at ``level``."""
    lines = inspect.cleandoc(doc).splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if line.strip() and nxt and set(nxt.strip()) <= set("-=~") and len(nxt.strip()) >= 3:
            out.append("#" * level + " " + inline(line.strip()))
            out.append("")
            i += 2
            continue
        if line.rstrip().endswith("::"):
            text = line.rstrip()[:-1]
            out.append(inline(text if text.strip() != ":" else ""))
            i += 1
            block: list[str] = []
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith((" ", "\t"))):
                block.append(lines[i])
                i += 1
            while block and not block[-1].strip():
                block.pop()
            while block and not block[0].strip():
                block.pop(0)
            out.append("")
            out.append(figure(textwrap.dedent("\n".join(block)).splitlines()))
            out.append("")
            continue
        bullet = re.match(r"(\s*(?:[*-]|\d+\.)\s+)(.*)$", line)
        out.append(bullet.group(1) + inline(bullet.group(2)) if bullet else inline(line))
        i += 1
    return "\n".join(out).strip() + "\n"


def _resolve(ref: str) -> Any:
    module_name, _, qualname = ref.partition(":")
    obj: Any = importlib.import_module(module_name)
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


def reference_code(ref: str) -> str:
    """The source of an entry point (``module:qualname``), as the pseudocode figure of its section."""
    source = textwrap.dedent(inspect.getsource(_resolve(ref)))
    ast.parse(source)  # the figure is the real code: it must parse
    return figure(source.splitlines(), "python")


# -- vectors ----------------------------------------------------------------------------------------


def _vector_files(root: Path, manifest: dict[str, Any], prefixes: Sequence[str]) -> list[str]:
    paths = [f["path"] for f in manifest["files"]]
    return [p for p in paths if any(p == x or p.startswith(x.rstrip("/") + "/") for x in prefixes)]


def _size(test: dict[str, Any], params: dict[str, Any]) -> int:
    return len(json.dumps({**params, **test}, sort_keys=True))


def example_tests(doc: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The smallest valid and the smallest invalid test of a file (ties: the lowest tcId)."""
    chosen: list[tuple[str, dict[str, Any]]] = []
    for result in ("valid", "invalid"):
        best: tuple[int, int, dict[str, Any]] | None = None
        for group in doc.get("testGroups", []):
            params = group.get("params", {})
            for test in group.get("tests", []):
                if test.get("result") != result:
                    continue
                key = (_size(test, params), int(test.get("tcId", 0)))
                if best is None or key < best[:2]:
                    example = {"op": group.get("op"), "params": params, **test}
                    best = (key[0], key[1], example)
        if best is not None and best[0] <= 3000:
            chosen.append((result, best[2]))
    return chosen


@dataclass
class Document:
    """The rendered document and the facts it was rendered from."""

    text: str
    sections: list[str] = field(default_factory=list)
    vector_files: list[str] = field(default_factory=list)


def _front_matter(set_digest: str) -> str:
    return "\n".join([
        "---",
        "title: Exact Samplers, Mechanisms and Test Vectors for Differential Privacy in DAP",
        "abbrev: dpspec DP Algorithms",
        f"docname: {DOCNAME}",
        "category: info",
        "submissiontype: independent",
        "ipr: trust200902",
        "area: Security",
        "workgroup: PPM",
        "keyword:",
        "  - differential privacy",
        "  - test vectors",
        "stand_alone: yes",
        "pi: [toc, sortrefs, symrefs]",
        "",
        "author:",
        "  -",
        "    ins: dpspec",
        "    name: dpspec",
        "    org: The dpspec project",
        "",
        "informative:",
        "  RFC8792:",
        "  VDAF:",
        "    title: Verifiable Distributed Aggregation Functions",
        "    target: https://datatracker.ietf.org/doc/draft-irtf-cfrg-vdaf/",
        "    author:",
        "      - name: R. L. Barnes",
        "      - name: D. Cook",
        "      - name: C. Patton",
        "      - name: P. Schoppmann",
        "    date: false",
        "  DPDAP:",
        "    title: Differential Privacy Mechanisms for DAP",
        "    target: https://datatracker.ietf.org/doc/draft-wang-ppm-differential-privacy/",
        "    author:",
        "      - name: J. Wang",
        "    date: false",
        "  CKS20:",
        "    title: The Discrete Gaussian for Differential Privacy",
        "    target: https://arxiv.org/abs/2004.00010",
        "    author:",
        "      - name: C. Canonne",
        "      - name: G. Kamath",
        "      - name: T. Steinke",
        "    date: 2020",
        "",
        "--- abstract",
        "",
        "This document specifies, precisely enough to reproduce byte for byte, how a seed is "
        "expanded into exact samples of the distributions that differential privacy in DAP needs, "
        "the differential privacy mechanisms and policies of {{DPDAP}} over the Prio3 VDAF of "
        "{{VDAF}}, the ideal functionality of Samplable Anonymous Aggregation, and the format of "
        "the test vectors that check all of it. The text is generated from the dpspec reference "
        f"implementation (version {__version__}); the test vectors it cites have the set digest "
        f"`{set_digest}`.",
        "",
        "--- middle",
        "",
    ])


def _intro(set_digest: str, n_files: int, n_tests: int) -> str:
    return "\n".join([
        "# Introduction",
        "",
        "The DP draft {{DPDAP}} leaves open how a mechanism expands a short uniform seed into a "
        "sample (its sec. 4). This document closes that gap with the dpspec random tape "
        "({{tape}}) and exact samplers ({{samplers}}) that use integer and rational arithmetic "
        "only, and specifies the mechanisms, policies and accounting that the dpspec reference "
        "implements. Each section is generated from the reference implementation: the prose is the "
        "normative docstring of the module named, the algorithm text is the header of the test "
        "vector files named, and the pseudocode is the reference code itself (Python, as in "
        "{{VDAF}}).",
        "",
        f"The test vectors ({n_files} files, {n_tests} tests) are cited by their set digest "
        f"`{set_digest}`: the SHA-256 of the lines `<sha256>  <path>` of the files in the order "
        "of `vectors/MANIFEST.json`. {{vectors}} shows the smallest valid and invalid test of "
        "each file.",
        "",
        "# Conventions and Definitions",
        "",
        "{::boilerplate bcp14-tagged}",
        "",
        "Figures whose lines are longer than 69 characters are folded as in {{RFC8792}}.",
        "",
    ])


def _section(sec: Section, root: Path, manifest: dict[str, Any], seen: set[str],
             printed: set[str]) -> tuple[str, list[str]]:
    """One section's markdown and the vector files it covers; header items already in ``printed``
    (the same item in several files of one section) are written once."""
    parts = [f"# {sec.title} {{#{sec.anchor}}}", ""]
    if sec.intro:
        parts += [sec.intro, ""]
    for name in sec.modules:
        doc = importlib.import_module(name).__doc__ or ""
        if doc.strip():
            parts += [f"The following text is the docstring of module `{name}`.", "",
                      docstring_markdown(doc, 2), ""]
    for ref in sec.code:
        parts += [f"Reference code of `{ref.replace(':', '.')}`:", "", reference_code(ref), ""]
    files = _vector_files(root, manifest, sec.vectors)
    external: list[str] = []
    for path in files:
        seen.add(path)
        doc = json.loads((root / path).read_text(encoding="utf-8"))
        if "$schema" in doc:
            parts += [f"* `vectors/{path}`: {inline(str(doc.get('title', '')))}", ""]
            continue
        if "header" not in doc:
            # a file in an external format (a Prio3 transcript of the VDAF draft, an index):
            # its format is specified by the file that indexes it or by the VDAF draft
            external.append(path)
            continue
        parts += [f"## {escape(str(doc.get('algorithm', path)))}", "",
                  f"Vector file `vectors/{path}` ({doc.get('numberOfTests', 0)} tests).", ""]
        for item in doc.get("header", []):
            key = sec.anchor + "\0" + item
            if key in printed:
                continue
            printed.add(key)
            parts += [inline(item), ""]
        parts += _notes(doc.get("notes"))
    if external:
        parts += ["Files in the transcript format of {{VDAF}} (sec. 'Test Vectors'), extended as "
                  "their index says:", ""]
        for path in external:
            doc = json.loads((root / path).read_text(encoding="utf-8"))
            parts += [f"* `vectors/{path}`"]
            if "notes" in doc or "format" in doc:
                parts += [""] + _notes(doc.get("notes")) + ([inline(str(doc["format"])), ""] if
                                                            isinstance(doc.get("format"), str) else [])
        parts += [""]
    return "\n".join(parts), files


def _notes(notes: Any) -> list[str]:
    """A file's ``notes``: flags (a mapping) as a definition list, or paragraphs (a list)."""
    if isinstance(notes, dict) and notes:
        return ["Flags:", ""] + [f"{flag}:\n: {inline(str(text))}\n" for flag, text in sorted(notes.items())]
    if isinstance(notes, list):
        return [p for text in notes for p in (inline(str(text)), "")]
    return []


def _appendix(root: Path, manifest: dict[str, Any], files: Sequence[str]) -> str:
    parts = ["# Test Vectors {#vectors}", "",
             "For each vector file, the smallest valid test and the smallest invalid test (when "
             "the file has one and it is short), with the group's operation and parameters. "
             "The complete files are in the dpspec repository under `vectors/`.", ""]
    for path in files:
        doc = json.loads((root / path).read_text(encoding="utf-8"))
        examples = example_tests(doc)
        if not examples:
            continue
        parts += [f"## vectors/{path}", ""]
        for result, test in examples:
            parts += [f"A {result} test:", "",
                      figure(json.dumps(test, indent=2, sort_keys=True).splitlines(), "json"), ""]
    parts += ["## Set Digest", "",
              "The SHA-256 digest of every vector file, in the order that defines the set digest:",
              "", figure([f"{f['sha256']}  {f['path']}" for f in manifest["files"]]), "",
              f"Set digest: `{manifest['setDigest']}`.", ""]
    return "\n".join(parts)


def render(root: Path) -> Document:
    """The whole document for the vectors under ``root`` (a ``vectors/`` folder with MANIFEST.json)."""
    printed: set[str] = set()
    manifest = json.loads((root / "MANIFEST.json").read_text(encoding="utf-8"))
    digest = manifest["setDigest"]
    n_tests = sum(int(f.get("numberOfTests", 0)) for f in manifest["files"])
    parts = [_front_matter(digest), _intro(digest, len(manifest["files"]), n_tests)]
    seen: set[str] = set()
    used: list[str] = []
    names: list[str] = []
    for sec in SECTIONS:
        text, files = _section(sec, root, manifest, seen, printed)
        parts.append(text)
        used += files
        names.append(sec.title)
    # every vector folder that no section claims gets a section of its own, so new families appear
    claimed = {FORMAT_SECTION.vectors[0]}
    others = sorted({f["path"].split("/")[0] for f in manifest["files"]
                     if f["path"] not in seen and f["path"].split("/")[0] not in claimed})
    for folder in others:
        extra = Section(f"Vectors: {folder}", "vectors-" + re.sub(r"[^a-z0-9]+", "-", folder.lower()),
                        vectors=(folder,))
        text, files = _section(extra, root, manifest, seen, printed)
        parts.append(text)
        used += files
        names.append(extra.title)
    fmt, schemas = _section(FORMAT_SECTION, root, manifest, seen, printed)
    parts.append(fmt)
    used += schemas
    names.append(FORMAT_SECTION.title)
    parts += ["# Security Considerations", "",
              "The samplers are exact but not constant-time: the number of tape bits they read "
              "depends on the sample. A deployment that needs timing independence has to add it.",
              "", "# IANA Considerations", "", "This document has no IANA actions.", "",
              "--- back", "", _appendix(root, manifest, used)]
    text = "\n".join(parts)
    text = re.sub(r"\n{3,}", "\n\n", text).rstrip() + "\n"
    return Document(text=text, sections=names, vector_files=used)
