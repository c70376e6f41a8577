"""``dpspec spec render``: the committed document is fresh, figures fold per RFC 8792, prose escapes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from dpspec.conformance import render
from dpspec.conformance.store import default_vectors_dir

DOC = default_vectors_dir().parent / "docs" / "spec" / render.DOCUMENT_FILE


def test_committed_document_is_fresh() -> None:
    fresh = render.render(default_vectors_dir()).text
    assert DOC.read_text(encoding="utf-8") == fresh, "run `dpspec spec render`"


def test_check_command_reports_fresh_and_stale(tmp_path: Path) -> None:
    ok = subprocess.run([sys.executable, "-m", "dpspec", "spec", "render", "--check"],
                        capture_output=True, text=True, timeout=300)
    assert ok.returncode == 0 and "fresh" in ok.stdout, ok.stderr
    (tmp_path / render.DOCUMENT_FILE).write_text("stale\n", encoding="utf-8")
    stale = subprocess.run([sys.executable, "-m", "dpspec", "spec", "render", "--check", "--out",
                            str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert stale.returncode == 1 and "stale" in stale.stderr and "Traceback" not in stale.stderr
    assert len(stale.stderr.strip().splitlines()) == 1


def test_every_section_and_every_vector_file_is_in_the_document() -> None:
    doc = render.render(default_vectors_dir())
    digest_figure = doc.text.split("## Set Digest")[1].split("~~~")[1].strip("\n").splitlines()
    listed = [line.split("  ") for line in render.unfold(digest_figure)]
    manifest = json.loads((default_vectors_dir() / "MANIFEST.json").read_text(encoding="utf-8"))
    assert listed == [[f["sha256"], f["path"]] for f in manifest["files"]]
    assert set(doc.vector_files) == {f["path"] for f in manifest["files"]}
    for title in ("The Random Tape", "Exact Samplers", "Differential Privacy Policies",
                  "The SA2 Ideal Functionality", "The Test Vector Format"):
        assert f"# {title}" in doc.text


def test_figures_fit_69_columns() -> None:
    text = render.render(default_vectors_dir()).text
    inside = False
    for line in text.splitlines():
        if line.startswith("~~~"):
            inside = not inside
            continue
        if inside:
            assert len(line) <= render.FIGURE_WIDTH, line


@given(st.lists(st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=300),
                max_size=8))
def test_fold_then_unfold_is_identity(lines: list[str]) -> None:
    folded = render.fold(lines)
    assert all(len(line) <= render.FIGURE_WIDTH for line in folded)
    assert render.unfold(folded) == [line.rstrip() for line in lines]


def test_prose_escapes_markdown_but_keeps_code_spans() -> None:
    out = render.inline("U in [0, 1), x^k <tag> a*b ``[x]`` :mod:`dpspec.spec.tape` $5")
    assert out == r"U in \[0, 1), x\^k \<tag\> a\*b `[x]` `dpspec.spec.tape` \$5"


def test_reference_code_is_the_real_source() -> None:
    from dpspec.spec.tape import tape_dst

    fig = render.reference_code("dpspec.spec.tape:tape_dst")
    body = render.unfold(fig.splitlines()[1:-1])
    assert "\n".join(body).strip() == __import__("inspect").getsource(tape_dst).strip()
