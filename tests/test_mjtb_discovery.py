"""[MJTB+22] sec. 1 and 4: interactive n-gram discovery with the on-device accountant deciding
participation (dpspec.spec.mjtb.discovery). Seeded runs; no statistical assertion can fail by
chance beyond the stated margins (eps0 = 8 makes the randomizer flip with probability 3.4e-4)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from dpspec.spec.mjtb.discovery import (
    DiscoveryParams,
    device_ngrams,
    round_eps,
    run_discovery,
    sample_phrase,
    true_frequent,
)
from dpspec.spec.mjtb.recipe import END
from dpspec.spec.tape import RandomTape

SEED = b"mjtb discovery tests"


def test_population_is_seeded_and_zipf_like() -> None:
    t1, t2 = RandomTape(SEED, "p"), RandomTape(SEED, "p")
    a = [sample_phrase(t1, 10, 3) for _ in range(3000)]
    assert a == [sample_phrase(t2, 10, 3) for _ in range(3000)]
    assert all(1 <= len(p) <= 3 and all(w in {f"w{i}" for i in range(10)} for w in p) for p in a)
    first = Counter(p[0] for p in a)
    # weight of w0 is twice that of w1: 6 standard errors
    n0, n1 = first["w0"], first["w1"]
    assert abs(n0 - 2 * n1) < 6 * (n0 + 4 * n1) ** 0.5


def test_device_ngrams_and_truth() -> None:
    assert device_ngrams(("a", "b", "c"), 2) == [("a", "b")]
    assert device_ngrams(("a",), 2) == [("a", END)]
    assert device_ngrams(("a",), 3) == []
    t = true_frequent([("a", "b"), ("a", "c"), ("a",), ("d",)], Fraction(1, 2))
    assert t == {("a",)}


def test_budget_stops_the_rounds() -> None:
    eps = round_eps(Fraction(1), 1000, Fraction(1, 10**6))
    p = DiscoveryParams(devices=1200, eps0=Fraction(1), eps=eps, eps_allowed=eps, rounds=3)
    res = run_discovery(p, SEED)
    r1, r2 = res.rounds[0], res.rounds[1]
    assert r1.released and r1.answered == 1200 and r1.refused == 0
    assert r2.refused == r2.invited == 1200 and not r2.released
    assert "exceeds allowed" in r2.refusal
    assert res.spent == {1: 1200}
    assert len(res.rounds) == 2  # nothing to extend after a round with no release


def test_check_3_refuses_an_overclaimed_round() -> None:
    p = DiscoveryParams(devices=1100, eps0=Fraction(3), eps=Fraction(1, 2))
    res = run_discovery(p, SEED)
    assert res.rounds[0].refused == 1100 and "deletion-model" in res.rounds[0].refusal


def test_min_cohort_withholds_the_aggregate() -> None:
    p = DiscoveryParams(devices=1200, min_cohort=1000, invite=Fraction(1, 2),
                        eps=round_eps(Fraction(1), 1000, Fraction(1, 10**6)))
    res = run_discovery(p, SEED)
    r = res.rounds[0]
    assert 0 < r.invited < 1000 and r.answered == r.invited and not r.released
    assert res.discovered == set()


def test_nearly_noiseless_rounds_find_the_frequent_prefixes() -> None:
    p = DiscoveryParams(devices=1000, eps0=Fraction(8), eps=Fraction(16), eps_local_allowed=Fraction(16),
                        eps_allowed=Fraction(100), top_k=4, rounds=2, max_order=2)
    res = run_discovery(p, SEED)
    pop = RandomTape(SEED, "dpspec/mjtb/population")
    phrases = [sample_phrase(pop, p.vocab, p.max_order) for _ in range(p.devices)]
    firsts = Counter(ph[0] for ph in phrases).most_common()
    top4 = {(w,) for w, _ in firsts[:4]}
    assert firsts[3][1] - firsts[4][1] > 10  # the top 4 are well separated
    assert set(res.rounds[0].found) == top4
    assert res.rounds[1].leaves == 4
    assert all(lbl[:1] in top4 for lbl in res.rounds[1].found)
    assert res.rounds[1].recall >= res.rounds[0].recall > 0


def test_params_from_json_checks_every_limit() -> None:
    from dpspec.spec.mjtb.discovery import PARAM_LIMITS, DiscoveryParams

    p = DiscoveryParams.from_json({"devices": 10, "eps0": "1/2", "delta": "1e-6", "z": "0"})
    assert (p.devices, p.eps0, p.delta, p.z) == (10, Fraction(1, 2), Fraction(1, 10**6), 0)
    assert DiscoveryParams.from_json({}) == DiscoveryParams()
    for key, (_, kind, low, high, low_open) in PARAM_LIMITS.items():
        edge = low + (Fraction(1, 10**9) if low_open else 0)
        ok = DiscoveryParams.from_json({key: edge if kind == "int" else str(edge)})
        assert ok is not None
        DiscoveryParams.from_json({key: high if kind == "int" else str(high)})
        with pytest.raises(ValueError, match=key):
            DiscoveryParams.from_json({key: (low if low_open else low - 1) if kind == "int"
                                       else str(low if low_open else low - 1)})
        with pytest.raises(ValueError, match=key):
            DiscoveryParams.from_json({key: high + 1})
    for bad in ({"devices": "4/2"}, {"eps0": 0.5}, {"cohorts": 1}, [], {"devices": True}):
        with pytest.raises(ValueError):
            DiscoveryParams.from_json(bad)
