"""Every command the documentation shows is run, and its output is checked.

The rule for README.md and every page under docs/ (``*.md``): a fenced block tagged ``console``
holds a session. A line starting with ``$ `` is a command (a trailing ``\\`` continues it on the
next line); the lines up to the next command are its expected standard output. A line ``...``
matches any number of lines (zero or more); otherwise lines must match exactly (trailing blanks
ignored). The commands of one page run in order, in one fresh temporary folder, with ``bash`` and
this environment's ``dpspec``; each must exit 0 unless its expected output ends with a line
``[exit N]``.

Blocks tagged ``sh``, ``bash`` or ``shell`` are not allowed outside the README's quick start (the
one block that installs the package; CI runs those two commands on a fresh clone): a page shows
commands as ``console`` sessions so that this test can run them.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PAGES = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
#: The README's quick start installs the package; CI runs exactly those two commands.
QUICK_START_MARKER = "<!-- quick start: run by CI on a fresh clone -->"
FENCE = re.compile(r"^```([A-Za-z]*)\s*$")


@dataclass
class Step:
    page: Path
    line: int
    command: str
    expected: list[str]
    status: int


def blocks(page: Path) -> list[tuple[int, str, list[str], str]]:
    """(first line number, language, lines, text just before the fence) of each fenced block."""
    out: list[tuple[int, str, list[str], str]] = []
    lines = page.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if m and m.group(1) is not None and not lines[i].startswith("````"):
            before = lines[i - 1] if i else ""
            lang, start = m.group(1).lower(), i + 1
            j = start
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            out.append((start + 1, lang, lines[start:j], before))
            i = j + 1
            continue
        i += 1
    return out


def steps(page: Path) -> list[Step]:
    found: list[Step] = []
    for first, lang, body, _ in blocks(page):
        if lang != "console":
            continue
        k = 0
        while k < len(body):
            if not body[k].startswith("$ "):
                raise AssertionError(f"{page.name}:{first + k}: console output before any command")
            line_no = first + k
            command = body[k][2:]
            while command.endswith("\\") and k + 1 < len(body):
                k += 1
                command = command[:-1] + " " + body[k].strip()
            k += 1
            expected: list[str] = []
            while k < len(body) and not body[k].startswith("$ "):
                expected.append(body[k].rstrip())
                k += 1
            status = 0
            if expected and re.fullmatch(r"\[exit \d+\]", expected[-1]):
                status = int(expected.pop()[6:-1])
            found.append(Step(page, line_no, command, expected, status))
    return found


def matches(expected: list[str], actual: list[str]) -> bool:
    """Line-by-line match where a line ``...`` stands for any number of lines."""
    if not expected:
        return not actual
    head, rest = expected[0], expected[1:]
    if head == "...":
        return any(matches(rest, actual[i:]) for i in range(len(actual) + 1))
    return bool(actual) and actual[0].rstrip() == head and matches(rest, actual[1:])


PAGE_STEPS = [(page, steps(page)) for page in PAGES if page.is_file()]


def test_pages_show_commands_only_as_console_sessions() -> None:
    offenders = []
    for page in PAGES:
        for first, lang, body, before in blocks(page):
            if lang == "console" or (page.name == "README.md" and before.strip() == QUICK_START_MARKER):
                continue
            shows_command = any(re.match(r"\s*(\$ |dpspec |python3? -m dpspec)", line) for line in body)
            if lang in ("sh", "bash", "shell") or shows_command:
                offenders.append(f"{page.relative_to(REPO)}:{first}")
    assert not offenders, f"use ```console blocks (run by this test): {offenders}"


@pytest.mark.parametrize("page, page_steps", [p for p in PAGE_STEPS if p[1]],
                         ids=[str(p[0].relative_to(REPO)) for p in PAGE_STEPS if p[1]])
def test_commands_of_a_page_run_as_written(page: Path, page_steps: list[Step],
                                           tmp_path: Path) -> None:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
           "DPSPEC_REPO": str(REPO), "COLUMNS": "100"}
    env.pop("DPSPEC_PROGRESS", None)
    for step in page_steps:
        out = subprocess.run(["bash", "-o", "pipefail", "-c", step.command], cwd=tmp_path, env=env,
                             capture_output=True, text=True, timeout=900, stdin=subprocess.DEVNULL)
        where = f"{page.relative_to(REPO)}:{step.line}: {step.command}"
        assert out.returncode == step.status, f"{where}\nexit {out.returncode}\n{out.stderr}"
        actual = out.stdout.rstrip("\n").splitlines() if out.stdout.strip() else []
        assert matches(step.expected, actual), (
            f"{where}\n--- expected\n" + "\n".join(step.expected) + "\n--- got\n" + "\n".join(actual))


def test_the_matcher() -> None:
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert matches(["a", "...", "d"], ["a", "d"])
    assert not matches(["a", "...", "d"], ["a", "b"])
    assert matches([], [])
    assert not matches([], ["x"])
    assert matches(["..."], [])


LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def test_relative_links_resolve() -> None:
    broken = []
    for page in PAGES:
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            if "://" in target or target.startswith("mailto:"):
                continue
            if not (page.parent / target).exists():
                broken.append(f"{page.relative_to(REPO)} -> {target}")
    assert not broken, broken


def refresh(page: Path) -> bool:
    """Rewrite the expected output of every console session of ``page`` that has no ``...`` line
    with what the commands print now (run ``python tests/test_docs.py PAGE...`` after a change
    that alters an output on purpose; review the diff). Returns whether the page changed."""
    import tempfile

    text = page.read_text(encoding="utf-8")
    lines = text.splitlines()
    env = {**os.environ, "DPSPEC_REPO": str(REPO), "COLUMNS": "100"}
    with tempfile.TemporaryDirectory() as tmp:
        out_lines: list[str] = []
        i = 0
        while i < len(lines):
            out_lines.append(lines[i])
            if lines[i].strip() != "```console":
                i += 1
                continue
            j = i + 1
            while not lines[j].startswith("```"):
                j += 1
            body = lines[i + 1:j]
            keep = any(line == "..." for line in body)
            k = 0
            while k < len(body):
                command_lines = [body[k]]
                command = body[k][2:]
                while command.endswith("\\"):
                    k += 1
                    command_lines.append(body[k])
                    command = command[:-1] + " " + body[k].strip()
                k += 1
                expected = []
                while k < len(body) and not body[k].startswith("$ "):
                    expected.append(body[k])
                    k += 1
                run = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=tmp, env=env,
                                     capture_output=True, text=True, timeout=900)
                out_lines += command_lines
                if keep:
                    out_lines += expected
                else:
                    out_lines += run.stdout.rstrip("\n").splitlines() if run.stdout.strip() else []
                    if run.returncode:
                        out_lines.append(f"[exit {run.returncode}]")
            out_lines.append(lines[j])
            i = j + 1
    new = "\n".join(out_lines) + "\n"
    if new != text:
        page.write_text(new, encoding="utf-8")
        return True
    return False


if __name__ == "__main__":
    for name in sys.argv[1:]:
        print(f"{name}: {'rewritten' if refresh(Path(name).resolve()) else 'unchanged'}")
