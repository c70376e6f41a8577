"""docs/ecosystem.md's generator, on deliberately mis-calibrated adapters (no third-party code)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from dpspec.conformance import ecosystem_doc
from dpspec.conformance.ecosystem import SHARED, VENVS
from dpspec.conformance.harness.adapters import AdapterSpec, bundled
from dpspec.conformance.harness.model import RunReport
from dpspec.conformance.harness.runner import run_impl
from dpspec.conformance.sweep import SweepSuite

MISCALIBRATED = Path(__file__).resolve().parent / "adapters" / "miscalibrated.py"


def test_render_lists_unsafe_cases_with_reproduction_and_plots(tmp_path: Path) -> None:
    suite = SweepSuite(every=20, ops=("privacy.gaussian_mechanism_sigma",))
    impls = [run_impl(AdapterSpec(name, (sys.executable, str(MISCALIBRATED), factor), "t",
                                  bundled=False), [suite], timeout=120.0, startup_timeout=30.0)
             for name, factor in (("under", "0.97"), ("over", "1.5"))]
    text, data = ecosystem_doc.render(RunReport(impls=impls))
    assert "| under | 0.97 | sweep |" in text and "| over | 1.5 | sweep |" in text
    unsafe_lines = [line for line in text.splitlines() if line.startswith("- **UNSAFE**")]
    assert len(unsafe_lines) == suite.size()
    assert all("true delta" in line for line in unsafe_lines)
    assert text.count("dpspec conformance run --impl under --suite sweep") == suite.size()
    op = data["privacy.gaussian_mechanism_sigma"]
    assert len(op["points"]) == suite.size()
    assert all(float(r) > 1 for r in op["libraries"]["under"])
    assert all(float(r) < 1 for r in op["libraries"]["over"])
    assert json.loads(ecosystem_doc.plot_json(data)) == data
    plots = ecosystem_doc.write_plots(data, tmp_path)
    assert [p.name for p in plots] == ["gaussian_mechanism_sigma.png"] and plots[0].stat().st_size
    assert ecosystem_doc.stale([(tmp_path / "x.md", text)]) == [f"{tmp_path / 'x.md'} is missing"]


def test_every_ecosystem_adapter_is_pinned_and_has_a_note() -> None:
    eco = [s.name for s in bundled().values() if s.ecosystem]
    assert len(eco) >= 8
    assert set(eco) <= set(SHARED) | set(VENVS)
    assert set(eco) <= set(ecosystem_doc.NOTES)
    pyproject = (Path(__file__).resolve().parents[1] / "pyproject.toml").read_text()
    for pins in SHARED.values():
        for pin in pins:
            assert f'"{pin}"' in pyproject, pin


def test_stale_tolerates_last_digit_drift_of_library_figures_only(tmp_path: Path) -> None:
    committed = ('"privacy.gaussian_kfold_delta": ["0.958563042587", "1.0"]\n'
                 "| dp-accounting | 0.6.0 | sweep | 61 | 0 | 0 | 0 / 0 | 0 | - |\n")
    path = tmp_path / "sweep.json"
    path.write_text(committed)
    assert ecosystem_doc.stale([(path, committed)]) == []
    drifted = committed.replace("0.958563042587", "0.958563051")  # 8th digit, as numpy moved it
    assert ecosystem_doc.stale([(path, drifted)]) == []
    for changed in (committed.replace("0.958563042587", "0.9586"),  # a figure moved in digit 4
                    committed.replace("| 61 |", "| 60 |"),  # a count
                    committed.replace("| 0 | 0 | 0 /", "| 0 | 1 | 0 /"),  # an UNSAFE count
                    committed.replace("sweep", "accounting"),  # the text
                    committed + "| x | 1 |\n"):  # a line more
        (problem,) = ecosystem_doc.stale([(path, changed)])
        assert "is stale" in problem
    assert ecosystem_doc.same_line("ratio 1e-5", "ratio 1.0000001e-5")
    assert not ecosystem_doc.same_line("EXACT 1.0", "UNSAFE 1.0")
