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
from dpspec.conformance.vectors import vector_seed
from dpspec.spec.rational import RationalError
from dpspec.spec.samplers import SAMPLERS, counts
from dpspec.spec.samplers.core import _exp_machine
from dpspec.spec.samplers.counts import (
    ENVELOPE_THRESHOLD,
    MAX_COMPOUND_WORK,
    _exceeds,
    _floor_irrational,
    _halving_digits,
    _nb_exp_mean,
    _scaled,
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
                                   ("27/10", "100/101", 4), ("5", "54/55", 94),
                                   ("263/100", "254/255", 1)])
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


def _boundary_tape(op: str, **params: str) -> RandomTape:
    """The tape of the boundary vector of ``op`` with ``params`` (its seed and the op's tag)."""
    i = BOUNDARIES.index(_entry(op, **params))
    return RandomTape(vector_seed(f"samplers/boundaries/{i}"), SAMPLERS[op].tag)


@pytest.mark.parametrize("r,gamma,big_l", [("47/2", "11631/500000", 1023),
                                           ("24", "1483/62500", 1024)])
def test_the_dyadic_split_vectors_sit_at_a_power_of_two(r: str, gamma: str, big_l: int) -> None:
    # case 2 of negative_binomial_exp: L = ceil(r) + floor(lambda) + 1, k = 2 bitlen(L) + 2
    _entry("negative_binomial_exp", r=r, gamma=gamma)
    rr, g = Fraction(r), Fraction(gamma)
    lam = _nb_exp_mean(rr, g)
    assert _exceeds(lam, Fraction(ENVELOPE_THRESHOLD)) and not _exceeds(lam, rr ** 3)
    assert -((-rr.numerator) // rr.denominator) + _floor_irrational(lam) + 1 == big_l
    assert big_l in (1 << 10, (1 << 10) - 1)  # one more or one less changes bitlen(L), so k
    if rr.denominator > 1:
        # the numerator times the denominator in place of ceil(r) would change k as well
        assert (rr.numerator * rr.denominator + _floor_irrational(lam) + 1).bit_length() \
            != big_l.bit_length()


def test_the_huge_r_split_vector_has_a_large_k() -> None:
    r, gamma = "1" + "0" * 30, "63373/1000"
    _entry("negative_binomial_exp", r=r, gamma=gamma)
    lam = _nb_exp_mean(Fraction(r), Fraction(gamma))
    assert _exceeds(lam, Fraction(300)) and not _exceeds(lam, Fraction(301))
    big_l = 10**30 + 300 + 1
    assert 2 * big_l.bit_length() + 2 == 202
    p0, _thin = counts._nb_exp_split_plan(Fraction(r), Fraction(gamma))
    # p0 = c / 2^202: a denominator far beyond the 64 + 64 bits of the thinning's first bounds
    assert (p0 * (1 << 202)).denominator == 1 and p0.denominator > 1 << 192


def test_the_negative_binomial_exp_work_switch_sits_on_its_boundary() -> None:
    gamma = f"1/{1 << 256}"
    m = _exp_machine(1, 1 << 256).m
    assert m == 256
    for tenths, blocks in ((383, False), (386, True)):
        _entry("negative_binomial_exp", r=f"{tenths}/{10 << 256}", gamma=gamma)
        lam = _nb_exp_mean(Fraction(tenths, 10 << 256), Fraction(gamma))
        assert not _exceeds(lam, Fraction(ENVELOPE_THRESHOLD))
        work = {j: _exceeds(_scaled((m + j) ** 2, lam), Fraction(MAX_COMPOUND_WORK))
                for j in (1, 2, 3)}
        assert work[2] == blocks
        # (m + 3)^2 would send lambda = 38.3 to the blocks, (m + 1)^2 lambda = 38.6 to case 1
        assert work[3] and not work[1]


@pytest.mark.parametrize("gamma,split", [("2529/125000", True), ("10087/500000", False)])
def test_the_r_cubed_switch_sits_on_its_boundary(gamma: str, split: bool) -> None:
    _entry("negative_binomial_exp", r="7", gamma=gamma)
    lam = _nb_exp_mean(Fraction(7), Fraction(gamma))
    assert _exceeds(lam, Fraction(ENVELOPE_THRESHOLD))
    assert _exceeds(lam, Fraction(343)) != split
    assert _exceeds(lam, Fraction(342)) and not _exceeds(lam, Fraction(344))


def test_the_split_vector_removes_a_success(monkeypatch: pytest.MonkeyPatch) -> None:
    removed: list[int] = []
    gaps = counts._binomial_by_gaps

    def spy(tape: RandomTape, n: int, machine: object) -> int:
        out = gaps(tape, n, machine)  # type: ignore[arg-type]
        removed.append(out)
        return out

    monkeypatch.setattr(counts, "_binomial_by_gaps", spy)
    tape = _boundary_tape("negative_binomial_exp", r="8", gamma="16129/1000000")
    samples = [counts.negative_binomial_exp(tape, "8", "16129/1000000") for _ in range(6)]
    assert removed == [0, 0, 0, 0, 0, 1] and samples[5] == 761


def test_the_left_tail_vector_draws_the_candidate_zero(monkeypatch: pytest.MonkeyPatch) -> None:
    # the third sample's left geometric gives k = a - 1 - 0 = 0: step 3 must compare it (an
    # implementation that starts step 2 again for k <= 0 reads other bits)
    ratios: list[object] = []
    oracle = counts._ratio_oracle

    def spy(x: counts.Ratio) -> object:
        ratios.append(x)
        return oracle(x)

    monkeypatch.setattr(counts, "_ratio_oracle", spy)
    tape = _boundary_tape("negative_binomial", r="263/100", p="254/255")
    def zero_candidates() -> int:
        # k = 0 < M = 414: R = 1 / (rho(0) ... rho(413)), whose numerator factors are 1 ... 414
        return sum(x.ups == list(range(1, 415)) for x in ratios)  # type: ignore[attr-defined]

    for _ in range(2):
        counts.negative_binomial(tape, "263/100", "254/255")
    assert zero_candidates() == 0
    counts.negative_binomial(tape, "263/100", "254/255")
    assert zero_candidates() == 1


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
