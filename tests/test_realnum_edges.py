"""The realnum family's edges and lazy files: near-dyadic numbers, tiny numbers and real.lazy."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dpspec.conformance.families import realnum as fam
from dpspec.spec.samplers.realnum import MAX_BITS, binary_digits, parse_number

VECTORS = Path(__file__).resolve().parents[1] / "vectors" / "realnum"


def _tests(name: str) -> list[dict[str, Any]]:
    doc = json.loads((VECTORS / name).read_text())
    return [t for g in doc["testGroups"] for t in g["tests"]]


def test_lazy_agrees_with_compare_on_every_valid_vector() -> None:
    """real.lazy (the samplers' bernoulli_ratio / bernoulli_bounded / exp_neg_fixed) and
    real.compare (realnum.compare_bits) are two evaluations of the same lc(x)."""
    for name in ("lazy.json", "edges.json"):
        for t in _tests(name):
            if t["result"] != "valid" or "bits" not in t["inputs"]:
                continue
            assert fam.real_lazy(dict(t["inputs"])) == fam.real_compare(dict(t["inputs"])), t


@pytest.mark.parametrize(("number", "params", "comment", "n_digits"), fam.NEAR)
def test_near_dyadic_instances_have_a_long_run(number: str, params: dict[str, str],
                                               comment: str, n_digits: int) -> None:
    """Each NEAR number's expansion has a run of at least 20 equal digits within the digits
    examined (x is within 2^-20 of a dyadic of a few digits), so the vectors reach it."""
    digits = binary_digits(parse_number({"number": number, **params}), n_digits)
    assert any(run * 20 in digits for run in "01"), comment


def test_bit_tape_reports_exhaustion() -> None:
    tape = fam._BitTape("10")
    assert tape.bits(1) == 1 and tape.bits(1) == 0 and tape.read == 2
    with pytest.raises(fam._Exhausted):
        tape.bits(1)


@pytest.mark.parametrize("bits", [None, 1, "012", "0" * (MAX_BITS + 1)])
def test_lazy_refuses_bad_bits(bits: object) -> None:
    with pytest.raises(ValueError):
        fam.real_lazy({"number": "exp_neg", "z": "1", "bits": bits})


def test_lazy_refuses_unknown_arguments() -> None:
    with pytest.raises(ValueError):
        fam.real_lazy({"number": "exp_neg", "z": "1", "bits": "0", "j": "1"})


def test_tiny_numbers_decide_without_evaluating_them() -> None:
    """exp(-10^9) and (1/(1 + e^-1))^(2^64) are compared from the bounds 0 and 1."""
    for number, params, _ in fam.TINY:
        args = {"number": number, **params}
        assert fam.real_compare({**args, "bits": "0" * 100 + "1"}) == \
            {"decision": "0", "bitsRead": 101}
        assert fam.real_lazy({**args, "bits": "0" * 100}) == \
            {"decision": "undecided", "bitsRead": 100}
