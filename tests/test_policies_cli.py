"""``dpspec policy list|run``: results on stdout, one-line errors on stderr."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SEED = "00112233445566778899aabbccddeeff"


def dpspec(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "dpspec", *args], capture_output=True,
                          text=True, timeout=300, input=stdin)


def test_list() -> None:
    out = dpspec("policy", "list", "--json")
    assert out.returncode == 0
    doc = json.loads(out.stdout)
    assert set(doc) == {"multihot-client-rr", "histogram-aggregator-gaussian",
                        "multihot-client-rr-fill", "sumvec-aggregator-noise"}
    assert "eps0" in doc["multihot-client-rr"]["params"]
    assert "--param eps0" in dpspec("policy", "list").stdout


def test_run_client_randomization_json(tmp_path: Path) -> None:
    f = tmp_path / "m.json"
    f.write_text(json.dumps([0, 1, 1, 2, 3, 3, 3, 9]))
    out = dpspec("policy", "run", "multihot-client-rr", "--param", "length=10", "--param", "eps0=5",
                 "--measurements", str(f), "--seed", SEED, "--json")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["meas_count"] == 8 and len(doc["agg_result"]) == 10
    assert len(doc["debiased_result"]) == 10 and doc["guarantee"]["max_weight"] == 6
    again = dpspec("policy", "run", "multihot-client-rr", "--param", "length=10", "--param",
                   "eps0=5", "--measurements", str(f), "--seed", SEED, "--json")
    assert again.stdout == out.stdout  # the seed fixes every random input


def test_run_aggregator_noise_from_stdin() -> None:
    out = dpspec("policy", "run", "sumvec-aggregator-noise", "--param", "length=2",
                 "--param", "max_measurement=5", "--param", "noise=laplace", "--param", "epsilon=1",
                 "--measurements", "-", "--seed", SEED, stdin="[[1, 2], [5, 5]]")
    assert out.returncode == 0, out.stderr
    assert "debiased" in out.stdout and "trust_model" in out.stdout


@pytest.mark.parametrize(("args", "needle"), [
    (["nope"], "unknown policy"),
    (["multihot-client-rr", "--param", "length=10"], "missing --param eps0"),
    (["multihot-client-rr", "--param", "length=10", "--param", "eps0=0.1x"], "not a rational"),
    (["multihot-client-rr", "--param", "length=10", "--param", "eps0=1", "--param", "zzz=1"],
     "unknown parameter"),
    (["multihot-client-rr", "--param", "length=3", "--param", "eps0=1"], "bucket index"),
    (["multihot-client-rr", "--param", "length10"], "KEY=VALUE"),
])
def test_bad_input_is_one_line(tmp_path: Path, args: list[str], needle: str) -> None:
    f = tmp_path / "m.json"
    f.write_text("[0, 1, 5]")
    out = dpspec("policy", "run", *args, "--measurements", str(f), "--seed", SEED)
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and needle in out.stderr and "Traceback" not in out.stderr


def test_bad_files_and_seed(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    base = ["policy", "run", "multihot-client-rr", "--param", "length=4", "--param", "eps0=1"]
    for extra, needle in [(["--measurements", str(bad), "--seed", SEED], "not JSON"),
                          (["--measurements", str(tmp_path / "missing"), "--seed", SEED], "cannot read"),
                          (["--measurements", str(bad), "--seed", "zz"], "hex")]:
        out = dpspec(*base, *extra)
        assert out.returncode == 2 and needle in out.stderr and "Traceback" not in out.stderr
