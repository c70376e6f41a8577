"""``dpspec sample``: outputs match the samplers and the vectors; errors are one line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from dpspec.conformance.cli import main
from dpspec.spec.samplers import SAMPLERS, discrete_gaussian_vector, poisson
from dpspec.spec.tape import RandomTape

SEED = "ab" * 32


def test_sample_prints_one_per_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sample", "poisson", "--param", "lam=7/2", "--seed", SEED, "--count", "6"]) == 0
    tape = RandomTape(bytes.fromhex(SEED), SAMPLERS["poisson"].tag)
    assert capsys.readouterr().out.split() == [str(poisson(tape, "7/2")) for _ in range(6)]


def test_vector_sampler_prints_json_arrays(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sample", "discrete_gaussian_vector", "-p", "sigma2=3", "-p", "dim=4",
                 "--seed", SEED, "--tag", "mine", "-n", "3"]) == 0
    tape = RandomTape(bytes.fromhex(SEED), "mine")
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert rows == [discrete_gaussian_vector(tape, 3, 4) for _ in range(3)]


def test_json_output_matches_vector_handler(capsys: pytest.CaptureFixture[str]) -> None:
    from dpspec.conformance.families.samplers import FAMILY

    assert main(["sample", "binomial_rr", "-p", "n=100", "-p", "eps=1", "--seed", SEED,
                 "-n", "4", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    want = FAMILY.handlers()["sampler.binomial_rr"](
        {"seed": SEED, "tag": SAMPLERS["binomial_rr"].tag, "n": "100", "eps": "1", "count": 4})
    assert {k: got[k] for k in want} == want


def test_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sample", "--list"]) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in SAMPLERS)
    assert main(["sample", "--list", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [s["name"] for s in listed] == list(SAMPLERS)


@pytest.mark.parametrize("argv", [
    ["sample"], ["sample", "nope", "--seed", SEED],
    ["sample", "discrete_gaussian", "--seed", SEED],
    ["sample", "discrete_gaussian", "-p", "sigma2=1"],
    ["sample", "discrete_gaussian", "-p", "sigma2=0", "--seed", SEED],
    ["sample", "discrete_gaussian", "-p", "sigma2=1", "-p", "sigma2=2", "--seed", SEED],
    ["sample", "discrete_gaussian", "-p", "sigma2", "--seed", SEED],
    ["sample", "discrete_gaussian", "-p", "s=1", "--seed", SEED],
    ["sample", "discrete_gaussian", "-p", "sigma2=1", "--seed", "xyz"],
    ["sample", "discrete_gaussian", "-p", "sigma2=1", "--seed", "00"],
    ["sample", "discrete_gaussian", "-p", "sigma2=1", "--seed", SEED, "--tag", ""],
    ["sample", "discrete_gaussian", "-p", "sigma2=1", "--seed", SEED, "-n", "-2"],
    ["sample", "bernoulli", "-p", "p=3/2", "--seed", SEED, "-n", "0"],
    ["sample", "--list", "bernoulli"],
])
def test_errors_are_one_line(argv: list[str]) -> None:
    out = subprocess.run([sys.executable, "-m", "dpspec", *argv], capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 2
    assert out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("dpspec: error:"), out.stderr
