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


def test_histogram_growth_table_prints_bary_rr_interval(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The growth table's B-ary RR E[l-inf] column is the certified interval, rounded outwards
    (the command's B grid is replaced by a small one to keep the test short)."""
    import mpmath

    from dpspec.spec.shuffled import histogram_experiment as he

    real = he.error_growth
    seen: list[he.GrowthRow] = []

    def small(eps: mpmath.mpf, delta: mpmath.mpf, n: int, grid: list[int],
              **kw: object) -> list[he.GrowthRow]:
        seen.extend(real(eps, delta, n, [2, 4], ["uniform", "point"]))
        return seen

    monkeypatch.setattr(he, "error_growth", small)
    assert main(["experiment", "ghazi", "--histogram-growth", "--n", "200"]) == 0
    lines = [x for x in capsys.readouterr().out.splitlines() if x.startswith("| 4 | point")]
    cell = lines[0].split(" | ")[10]
    lo, hi = (mpmath.mpf(x) for x in cell.strip("[]").split(", "))
    exact = {(r.buckets, r.distribution): r for r in seen}[(4, "point")].linf
    assert lo <= exact["bary_rr_lower"] <= exact["bary_rr"] <= hi
    assert hi - lo < mpmath.mpf("1e-4") * hi
