"""The real-number layer (dpspec.spec.samplers.realnum) and its vectors (vectors/realnum/).

Replays the vectors; checks that adapters whose bounds round the wrong way fail them (the
JavaScript mistake of truncating BigInt division: the upper bound rounded down); and checks
compare_bits against floor(2^n x) on random bit strings.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpspec.conformance.families import realnum as family
from dpspec.conformance.store import default_vectors_dir
from dpspec.spec.samplers import realnum

HANDLERS = family.FAMILY.handlers()


def _tests(name: str) -> Iterator[tuple[str, dict[str, Any]]]:
    doc = json.loads((default_vectors_dir() / "realnum" / name).read_text())
    for group in doc["testGroups"]:
        for test in group["tests"]:
            yield group["op"], test


def _failures(name: str) -> list[int]:
    """tcIds of ``name`` that the current handlers get wrong."""
    bad = []
    for op, test in _tests(name):
        try:
            got = HANDLERS[op](dict(test["inputs"]))
        except ValueError:
            if test["result"] != "invalid":
                bad.append(test["tcId"])
            continue
        if test["result"] == "invalid" or got != test["outputs"]:
            bad.append(test["tcId"])
    return bad


@pytest.mark.parametrize("name", ["compare.json", "bracket.json"])
def test_vectors_replay(name: str) -> None:
    assert _failures(name) == []


Bounds = Callable[[Fraction, int], tuple[int, int]]


@contextmanager
def _broken(monkeypatch: pytest.MonkeyPatch,
            wrong: Callable[[int, int], tuple[int, int]]) -> Iterator[None]:
    real_exp, real_ratio = realnum.exp_neg_bounds, realnum.ratio_bounds

    def exp_bounds(g: Fraction, p: int) -> tuple[int, int]:
        return wrong(*real_exp(g, p))

    def ratio(q: Fraction, p: int) -> tuple[int, int]:
        return wrong(*real_ratio(q, p))

    with monkeypatch.context() as m:
        m.setattr(realnum, "exp_neg_bounds", exp_bounds)
        m.setattr(realnum, "ratio_bounds", ratio)
        yield


def _hi_rounded_down(lo: int, hi: int) -> tuple[int, int]:
    """Truncating division: the upper bound loses its rounding up."""
    return lo, hi - 1 if hi > lo else hi


def _inward(lo: int, hi: int) -> tuple[int, int]:
    """Both bounds rounded the wrong way."""
    return (lo + 1, hi - 1) if hi > lo else (lo, hi)


@pytest.mark.parametrize("wrong", [_hi_rounded_down, _inward])
def test_wrong_rounding_fails_the_vectors(monkeypatch: pytest.MonkeyPatch,
                                          wrong: Callable[[int, int], tuple[int, int]]) -> None:
    with _broken(monkeypatch, wrong):
        compare = _failures("compare.json")
        brackets = _failures("bracket.json")
    assert len(compare) >= 10, compare
    assert brackets, "the bracket vectors do not see wrong rounding"
    # the failures are in the vectors built to catch it
    flags = {t["tcId"]: t["flags"] for _, t in _tests("compare.json")}
    assert any("FollowsExpansion" in flags[tc] or "LeavesExpansion" in flags[tc]
               for tc in compare)


def test_broken_adapter_passes_random_bits(monkeypatch: pytest.MonkeyPatch) -> None:
    """Why the layer needs its own vectors: random bits leave x's expansion at once, so the
    broken adapter agrees with the reference on them."""
    x = realnum.named_number("exp_neg", {"z": "1/3"})
    import random

    rng = random.Random(7)
    strings = ["".join(rng.choice("01") for _ in range(40)) for _ in range(300)]
    good = [realnum.compare_bits(x, s) for s in strings]
    with _broken(monkeypatch, _hi_rounded_down):
        y = realnum.named_number("exp_neg", {"z": "1/3"})
        assert [realnum.compare_bits(y, s) for s in strings] == good


NUMBERS = [("exp_neg", {"z": "2/7"}), ("rr_flip", {"eps": "3/2"}),
           ("rational_power_digit", {"q": "5/9", "j": "3"}),
           ("rr_ratio_power", {"eps": "1/2", "j": "2"}), ("exp_neg_digit", {"z": "1/9", "j": "2"}),
           ("rational_power", {"q": "3/4", "j": "2"})]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(NUMBERS), st.text(alphabet="01", max_size=80))
def test_compare_agrees_with_bracket(number: tuple[str, dict[str, str]], bits: str) -> None:
    x = realnum.named_number(*number)
    decision, read = realnum.compare_bits(x, bits)
    assert 0 <= read <= len(bits)
    prefix = bits[:read]
    v = int(prefix, 2) if prefix else 0
    f = realnum.bracket(x, read)  # floor(2^read x)
    exact = x.exact is not None and (x.exact * (1 << read)).denominator == 1
    if decision == 1:
        assert v + 1 <= f
    elif decision == 0:
        assert v > f or (v == f and exact)
    else:
        assert read == len(bits) and v == f


def test_named_numbers_refuse_bad_parameters() -> None:
    for args in [{"number": "exp_neg", "z": "-1"}, {"number": "exp_neg"},
                 {"number": "nope"},
                 {"number": "rational_power", "q": "2", "j": "0"},
                 {"number": "rational_power", "q": "1/2", "j": "65"},
                 {"number": "exp_neg", "z": 1}]:
        with pytest.raises(ValueError):
            realnum.parse_number(args)
    with pytest.raises(ValueError, match="unknown arguments"):
        HANDLERS["real.compare"]({"number": "exp_neg", "z": "1", "j": "0", "bits": ""})
    with pytest.raises(ValueError):
        realnum.compare_bits(realnum.named_number("exp_neg", {"z": "1"}), "0120")
    with pytest.raises(ValueError):
        realnum.bracket(realnum.named_number("exp_neg", {"z": "1"}), 5000)
