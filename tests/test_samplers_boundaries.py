"""The branch-boundary vectors (samplers/boundaries.json, realnum's later instances) and the
equivalence arguments of the samplers area (tests/mutation/equivalent/samplers.json).

Each boundary vector claims to sit on one side of a decision of the stated steps; these tests
recompute the decision values from the parameters, so that a vector that drifts off its boundary
(a changed parameter, a changed constant) is noticed.
"""

from __future__ import annotations

import json
from fractions import Fraction
from math import isqrt

import pytest

from dpspec.conformance.families import realnum as realnum_family
from dpspec.conformance.families import samplers as samplers_family
from dpspec.spec.rational import RationalError
from dpspec.spec.samplers import SAMPLERS
from dpspec.spec.samplers.counts import (
    ENVELOPE_THRESHOLD,
    MAX_COMPOUND_WORK,
    _halving_digits,
)
from dpspec.spec.samplers.realnum import parse_number
from dpspec.spec.tape import RandomTape
from tests.mutation.mutate import REPO, area_mutants

BOUNDARIES = samplers_family.BOUNDARIES


def _entry(op: str, **params: str) -> tuple[str, str, dict[str, str], int | str]:
    found = [e for e in BOUNDARIES if e[0] == op and e[2] == params]
    assert len(found) == 1, (op, params)
    return found[0]


def _nb_envelope_ends(r: Fraction, p: Fraction) -> tuple[int, int]:
    """(M, a) of negative_binomial's mode envelope, as its docstring states them."""
    lam = r * p / (1 - p)
    assert r >= 1 and lam > ENVELOPE_THRESHOLD and r * ENVELOPE_THRESHOLD >= lam
    mode = ((r - 1) * p / (1 - p)).__floor__()
    d = isqrt((r * p / (1 - p) ** 2).__floor__()) + 1
    return mode, max(0, mode - d)


@pytest.mark.parametrize("r,p,a", [("2", "200/201", 0), ("263/100", "227/228", 1),
                                   ("27/10", "100/101", 4), ("5", "54/55", 94)])
def test_the_envelope_vectors_have_the_stated_left_end(r: str, p: str, a: int) -> None:
    _entry("negative_binomial", r=r, p=p)
    assert _nb_envelope_ends(Fraction(r), Fraction(p))[1] == a


def test_the_negative_binomial_switches_sit_on_their_boundaries() -> None:
    _entry("negative_binomial", r="2", p="128/129")
    assert 2 * Fraction(128, 129) / Fraction(1, 129) == ENVELOPE_THRESHOLD  # not above 256
    _entry("negative_binomial", r="2", p="256/257")
    assert 2 * Fraction(256, 257) / Fraction(1, 257) == 2 * ENVELOPE_THRESHOLD  # = 256 r
    _entry("negative_binomial", r="3/2", p="200/201")
    _nb_envelope_ends(Fraction(3, 2), Fraction(200, 201))  # the envelope with 1 < r < 2


def test_the_binomial_work_switch_sits_on_its_boundary() -> None:
    p = Fraction(1, 1 << 158)
    m = _halving_digits(p)
    assert m == 158
    _entry("binomial", n=str(100 << 158), p=f"1/{1 << 158}")
    assert (100 << 158) * p * (m + 2) ** 2 == MAX_COMPOUND_WORK  # the gaps (not above)
    _entry("binomial", n=str(101 << 158), p=f"1/{1 << 158}")
    assert (101 << 158) * p * (m + 2) ** 2 > MAX_COMPOUND_WORK
    assert (101 << 158) * p * (m + 1) ** 2 <= MAX_COMPOUND_WORK  # one digit fewer: the gaps
    q = Fraction(3, 1 << 160)
    n = (100 << 160) // 3
    _entry("binomial", n=str(n), p=f"3/{1 << 160}")
    assert _halving_digits(q) == 158 and n * q * 160 ** 2 <= MAX_COMPOUND_WORK
    assert n * q * 163 ** 2 > MAX_COMPOUND_WORK  # m from den * num (161) would switch


def test_binomial_rr_eps_1_sits_between_the_digit_tests() -> None:
    # m = the largest m with 2^m <= 1 + e = 3.718...: m = 1 (the test (2^2 - 1) e^-1 <= 1 fails),
    # while (2^2 - 2) e^-1 <= 1 holds: an off-by-one in c = 2^(m+1) - 1 gives m = 2
    _entry("binomial_rr", n="100", eps="1")
    e_low, e_high = Fraction(27182818, 10**7), Fraction(27182819, 10**7)
    assert 2 ** 1 <= 1 + e_low and 1 + e_high < 2 ** 2
    assert 2 <= e_low and e_high < 3


@pytest.mark.parametrize("i", [i for i, e in enumerate(BOUNDARIES) if isinstance(e[3], str)])
def test_invalid_boundary_cases_are_refused_with_their_flag(i: int) -> None:
    op, _comment, params, flag = BOUNDARIES[i]
    with pytest.raises(RationalError) as info:
        SAMPLERS[op].draw(RandomTape(bytes(16), "test"), params)
    assert info.value.flag == flag


def test_the_committed_boundaries_file_matches_the_table() -> None:
    doc = json.loads((REPO / "vectors/samplers/boundaries.json").read_text(encoding="utf-8"))
    tests = [t for g in doc["testGroups"] for t in g["tests"]]
    assert [t["tcId"] for t in tests] == list(range(1, len(BOUNDARIES) + 1))
    for t, (_op, comment, params, outcome) in zip(tests, BOUNDARIES, strict=True):
        assert t["comment"] == comment
        assert {k: t["inputs"][k] for k in params} == params
        assert t["result"] == ("invalid" if isinstance(outcome, str) else "valid")


def test_realnum_later_instances_take_the_exact_shortcut_or_the_large_z_bounds() -> None:
    for number, params, _comment in realnum_family.LATER:
        x = parse_number({"number": number, **params})
        if number == "exp_neg":
            assert x.exact is None and Fraction(params["z"]) >= 64  # bounds at p = 64 <= z
        else:
            assert x.exact is not None and x.exact.denominator & (x.exact.denominator - 1) == 0


def test_the_equivalence_arguments_are_sorted_tagged_and_name_current_mutants() -> None:
    path = REPO / "tests/mutation/equivalent/samplers.json"
    text = path.read_text(encoding="utf-8")
    data = json.loads(text)
    assert text == json.dumps(data, indent=1, sort_keys=True) + "\n"
    keys = {m.key for m in area_mutants("samplers")}
    tags = ("[equivalent]", "[redundant check]", "[unreachable]", "[precision]", "[tie]",
            "[refused anyway]", "[not specified]")
    for key, why in data.items():
        assert key in keys, key
        assert why.startswith(tags), key
    # an argued mutant is never one the new vectors kill (spot checks of killed neighbours)
    for killed in ("dpspec/spec/samplers/counts.py:113:12-13:Constant +1",
                   "dpspec/spec/samplers/counts.py:139:16-24:Delete Continue",
                   "dpspec/spec/samplers/lazy.py:116:18-19:Constant -1"):
        assert killed not in data
