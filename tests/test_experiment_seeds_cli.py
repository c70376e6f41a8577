"""``dpspec experiment mjtb`` and the ``experiment ghazi`` additions (--near-central,
--lower-bounds, --histogram-growth): bad input gives one line on stderr and exit 2; a small run
prints its table."""

from __future__ import annotations

import json

import pytest

from dpspec.conformance.cli import main


@pytest.mark.parametrize("args", [
    ["experiment", "mjtb", "--devices", "0"],
    ["experiment", "mjtb", "--rounds", "9"],
    ["experiment", "mjtb", "--seed", "zz"],
    ["experiment", "mjtb", "--seed", "00"],
    ["experiment", "mjtb", "--min-cohort", "1"],
])
def test_mjtb_bad_input(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "Traceback" not in err[0]


def test_mjtb_small_run_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["experiment", "mjtb", "--devices", "40", "--rounds", "1", "--min-cohort", "50",
                 "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert len(doc["rows"]) == 6
    # 40 devices never reach the minimum cohort of 50: nothing is released, recall stays 0
    assert all(r["recall_by_round"] == [0.0] for r in doc["rows"])
