"""Every subcommand over a table of hostile inputs: garbage, empty, binary and non-UTF-8 files,
folders where files are expected, negative, zero, NaN / infinity spellings, huge numbers and
outputs that cannot be written. Each must give exactly one line on stderr (``dpspec: error: ...``)
and exit 2: never a traceback, never a silent success.

The class is closed centrally (the error boundary of ``dpspec.conformance.cli.main``); this table
is the test per class. The commands run in-process (``main(argv)``), so the table stays fast.
"""

from __future__ import annotations

import pytest

from dpspec.conformance.cli import main
from dpspec.conformance.commands import COMMANDS

SEED = "000102030405060708090a0b0c0d0e0f"


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    root = tmp_path_factory.mktemp("hostile")
    (root / "nonutf8.json").write_bytes(b"\xff\xfe\x00[1, 2]")
    (root / "empty.json").write_bytes(b"")
    (root / "binary.bin").write_bytes(bytes(range(256)) * 8)
    (root / "garbage.json").write_text('{"a": 1')
    (root / "afile").write_text("x\n")
    (root / "folder").mkdir()
    return {
        "NONUTF8": str(root / "nonutf8.json"), "EMPTY": str(root / "empty.json"),
        "BINARY": str(root / "binary.bin"), "GARBAGE": str(root / "garbage.json"),
        "FOLDER": str(root / "folder"), "MISSING": str(root / "missing.json"),
        # a path below a regular file can never be written, not even by root
        "UNWRITABLE": str(root / "afile" / "out"), "AFILE": str(root / "afile"),
    }


SG = ["account", "subsampled-gaussian"]
SH = ["account", "shuffle"]
CG = ["calibrate", "gaussian"]
GH = ["experiment", "ghazi"]
PR = ["policy", "run", "histogram-aggregator-gaussian", "--seed", SEED]
SIM = ["sa2", "simulate", "--clients", "10", "--seed", SEED]
LAP = ["sample", "discrete_laplace", "--seed", SEED]
RUN = ["conformance", "run", "--impl", "reference", "--suite", "tape", "--quiet"]
BUDGET_CHECK = ["budget", "check", "--analysis", "a", "--fields", "f", "--eps0", "1", "--eps", "1",
                "--min-cohort", "10", "--state"]

CASES: list[tuple[str, list[str]]] = [
    # account
    ("garbage number", [*SG, "--sigma", "abc", "--q", "0.1", "--steps", "10", "--delta", "1e-8"]),
    ("nan", [*SG, "--sigma", "nan", "--q", "0.1", "--steps", "10", "--delta", "1e-8"]),
    ("inf", [*SG, "--sigma", "inf", "--q", "0.1", "--steps", "10", "--delta", "1e-8"]),
    ("negative", [*SG, "--sigma", "1", "--q", "-1", "--steps", "10", "--delta", "1e-8"]),
    ("zero", [*SG, "--sigma", "1", "--q", "0.1", "--steps", "0", "--delta", "1e-8"]),
    ("empty", [*SG, "--sigma", "1", "--q", "0.1", "--steps", "10", "--delta", ""]),
    ("nan", [*SH, "--eps0", "NaN", "--n", "100", "--delta", "1e-6"]),
    ("negative", [*SH, "--eps0", "1", "--n", "-5", "--delta", "1e-6"]),
    ("infinity", [*SH, "--eps0", "1", "--n", "100", "--delta", "Infinity"]),
    # budget
    ("non-UTF-8 file", ["budget", "init", "--policy", "NONUTF8", "--state", "UNWRITABLE"]),
    ("binary file", ["budget", "init", "--policy", "BINARY", "--state", "UNWRITABLE"]),
    ("empty file", ["budget", "init", "--policy", "EMPTY", "--state", "UNWRITABLE"]),
    ("garbage file", ["budget", "init", "--policy", "GARBAGE", "--state", "UNWRITABLE"]),
    ("missing file", ["budget", "init", "--policy", "MISSING", "--state", "UNWRITABLE"]),
    ("non-UTF-8 state", ["budget", "show", "--state", "NONUTF8"]),
    ("folder as state", ["budget", "show", "--state", "FOLDER"]),
    ("binary state", [*BUDGET_CHECK, "BINARY"]),
    ("missing state", ["budget", "commit", "--analysis", "a", "--fields", "f", "--eps0", "1", "--eps",
                       "1", "--min-cohort", "10", "--state", "MISSING"]),
    # calibrate
    ("nan", [*CG, "--epsilon", "nan", "--delta", "1e-6", "--sensitivity", "1"]),
    ("huge digits", [*CG, "--epsilon", "1", "--delta", "1e-6", "--sensitivity", "1", "--digits", "100000"]),
    ("negative digits", [*CG, "--epsilon", "1", "--delta", "1e-6", "--sensitivity", "1", "--digits", "-3"]),
    ("zero", [*CG, "--epsilon", "0", "--delta", "1e-6", "--sensitivity", "1"]),
    ("zero delta", [*CG, "--epsilon", "1", "--delta", "0", "--sensitivity", "1"]),
    ("negative", [*CG, "--epsilon", "1", "--delta", "1e-6", "--sensitivity", "-1"]),
    ("huge", [*CG, "--epsilon", "1e999", "--delta", "1e-6", "--sensitivity", "1"]),
    ("inf", ["calibrate", "poisson", "--epsilon", "inf", "--delta", "1e-6"]),
    ("p out of range", ["calibrate", "negative-binomial", "--epsilon", "1", "--delta", "1e-6", "--p", "2"]),
    # experiment
    ("nan", [*GH, "--epsilon", "nan", "--delta", "1e-6", "--n", "100"]),
    ("zero", [*GH, "--epsilon", "1", "--delta", "1e-6", "--n", "0"]),
    ("negative", [*GH, "--epsilon", "1", "--delta", "1e-6", "--n", "-3"]),
    ("figures into a file", [*GH, "--figures", "AFILE"]),
    ("unwritable figures", [*GH, "--figures", "UNWRITABLE"]),
    ("negative simulate", [*GH, "--epsilon", "1", "--delta", "1e-6", "--n", "100", "--simulate", "-1"]),
    # policy
    ("non-UTF-8 file", [*PR, "--measurements", "NONUTF8"]),
    ("binary file", [*PR, "--measurements", "BINARY"]),
    ("empty file", [*PR, "--measurements", "EMPTY"]),
    ("folder", [*PR, "--measurements", "FOLDER"]),
    ("garbage seed", ["policy", "run", "histogram-aggregator-gaussian", "--measurements", "GARBAGE",
                      "--seed", "zz"]),
    ("unknown name", ["policy", "run", "nosuch", "--measurements", "GARBAGE", "--seed", SEED]),
    # sa2
    ("zero", ["sa2", "recipe", "--seed", SEED, "--q", "0"]),
    ("nan", ["sa2", "recipe", "--seed", SEED, "--q", "nan"]),
    ("negative", ["sa2", "recipe", "--seed", SEED, "--k", "-1"]),
    ("garbage seed", ["sa2", "recipe", "--seed", "zz"]),
    ("non-UTF-8 file", [*SIM, "--recipe", "NONUTF8"]),
    ("binary file", [*SIM, "--recipe", "BINARY"]),
    ("empty file", [*SIM, "--recipe", "EMPTY"]),
    ("folder", [*SIM, "--recipe", "FOLDER"]),
    ("unreadable path", [*SIM, "--recipe", "UNWRITABLE"]),
    # sample
    ("nan", [*LAP, "--param", "t=nan"]),
    ("inf", [*LAP, "--param", "t=inf"]),
    ("negative count", [*LAP, "--param", "t=1", "--count", "-1"]),
    ("huge count", [*LAP, "--param", "t=1", "--count", "1e99"]),
    ("unknown sampler", ["sample", "nosuch", "--seed", SEED]),
    # tables
    ("unwritable output", ["tables", "mjtb", "--out", "UNWRITABLE"]),
    ("unknown table", ["tables", "nosuch"]),
    ("unwritable output", ["spec", "render", "--out", "UNWRITABLE"]),
    ("vectors folder without MANIFEST", ["spec", "render", "--vectors", "AFILE"]),
    ("unknown action", ["spec", "nosuch"]),
    # vectors
    ("file as folder", ["vectors", "check", "--dir", "AFILE"]),
    ("unwritable output", ["vectors", "generate", "--out", "UNWRITABLE", "-q"]),
    # conformance
    ("nan timeout", [*RUN, "--timeout", "nan"]),
    ("unwritable junit", [*RUN, "--junit", "UNWRITABLE"]),
    ("unwritable report", [*RUN, "--report-json", "UNWRITABLE"]),
    ("negative samples", [*RUN, "--samples", "-5"]),
    ("empty impl", ["conformance", "run", "--impl", "", "--suite", "tape"]),
    ("missing vectors", [*RUN, "--vectors", "MISSING"]),
]


def test_the_table_covers_every_subcommand() -> None:
    assert {argv[0] for _, argv in CASES} == set(COMMANDS)


@pytest.mark.parametrize(("kind", "argv"), CASES, ids=[f"{a[0]}-{k}" for k, a in CASES])
def test_hostile_input_gives_one_line_and_exit_2(kind: str, argv: list[str], files: dict[str, str],
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    status = main([files.get(word, word) for word in argv])
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert status == 2, f"{kind}: exit {status}, stderr {err!r}"
    assert len(lines) == 1 and lines[0].startswith("dpspec: error: "), f"{kind}: {err!r}"
    assert "Traceback" not in err
