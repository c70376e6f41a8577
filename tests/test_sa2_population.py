"""The population-scale SA2 engine: the same coins as the protocol, the same release.

Replay tests: every vectorised tape read equals the scalar sampler draw for draw (values and bits
consumed); the engine's release, counts and rejection reasons equal ``run_collection``'s for every
randomizer, with dummies, malicious devices and network loss; the audit runs the real protocol
and can fail; sharding over processes changes nothing.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dpspec.conformance.cli import main
from dpspec.spec.sa2 import population, protocol
from dpspec.spec.sa2.ideal import Sa2Error
from dpspec.spec.sa2.randomizers import Randomizer
from dpspec.spec.samplers import bernoulli
from dpspec.spec.tape import RandomTape

SEED = bytes(range(32))


# -- the tape reads ----------------------------------------------------------------------------
@pytest.mark.parametrize("p", [Fraction(0), Fraction(1), Fraction(1, 2), Fraction(3, 8),
                               Fraction(1, 50), Fraction(2, 3), Fraction(999, 1000),
                               Fraction(1, 3 * 2**62), Fraction(2**70 - 1, 2**70)])
def test_bernoullis_replay_the_scalar_sampler(p: Fraction) -> None:
    tape = RandomTape(SEED, "t/bern")
    want = [bernoulli(tape, p) == 1 for _ in range(3000)]
    stream = population.BitStream(SEED, "t/bern")
    assert stream.bernoullis(p, 3000).tolist() == want
    assert stream.pos == tape.bits_consumed


@given(a=st.integers(1, 10**6), extra=st.integers(1, 10**6), count=st.integers(0, 400),
       seed=st.binary(min_size=16, max_size=40))
def test_bernoullis_property(a: int, extra: int, count: int, seed: bytes) -> None:
    p = Fraction(a, a + extra)
    tape = RandomTape(seed, "t/prop")
    want = [bernoulli(tape, p) == 1 for _ in range(count)]
    stream = population.BitStream(seed, "t/prop")
    first = stream.bernoullis(p, count // 2)
    second = stream.bernoullis(p, count - count // 2)  # a second call continues the stream
    assert first.tolist() + second.tolist() == want
    assert stream.pos == tape.bits_consumed


@pytest.mark.parametrize("p", [Fraction(-1, 3), Fraction(4, 3), Fraction(-1), Fraction(2)])
def test_bernoullis_refuse_a_non_probability(p: Fraction) -> None:
    # the scalar sampler refuses these; the vectorised one must not clamp them to 0 or 1
    with pytest.raises(ValueError):
        bernoulli(RandomTape(SEED, "t/bern"), p)
    stream = population.BitStream(SEED, "t/bern")
    with pytest.raises(ValueError):
        stream.bernoullis(p, 10)
    assert stream.pos == 0


def test_long_trials_fall_back_to_the_exact_comparison(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(population, "MAX_DEPTH", 2)  # most trials now exceed the vector depth
    p = Fraction(1, 7)
    tape = RandomTape(SEED, "t/deep")
    want = [bernoulli(tape, p) == 1 for _ in range(2000)]
    stream = population.BitStream(SEED, "t/deep")
    assert stream.bernoullis(p, 2000).tolist() == want
    assert stream.pos == tape.bits_consumed


def test_small_blocks_and_dropped_bits_change_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(population, "BLOCK", 50)  # many numpy passes per call
    monkeypatch.setattr(population, "TRIM", 100)  # consumed bits dropped often
    tape = RandomTape(SEED, "t/blocks")
    want = [(bernoulli(tape, Fraction(3, 7)) == 1, tape.uniform(6)) for _ in range(700)]
    stream = population.BitStream(SEED, "t/blocks")
    got = [(bool(stream.bernoullis(Fraction(3, 7), 1)[0]), int(stream.uniforms(6, 1)[0]))
           for _ in range(700)]
    assert got == want
    bulk = population.BitStream(SEED, "t/bulk")
    tape = RandomTape(SEED, "t/bulk")
    assert bulk.bernoullis(Fraction(1, 3), 5000).tolist() == [
        bernoulli(tape, Fraction(1, 3)) == 1 for _ in range(5000)]
    data = population.synthetic_data(SEED, 5, 333)
    tape = RandomTape(SEED, "sa2/sim/data")
    assert data.tolist() == [min(tape.uniform(5), tape.uniform(5)) for _ in range(333)]


@pytest.mark.parametrize("n", [1, 2, 3, 7, 8, 9, 10, 1000, 2**20 + 1])
def test_uniforms_replay_the_tape(n: int) -> None:
    tape = RandomTape(SEED, "t/unif")
    want = [tape.uniform(n) for _ in range(2500)]
    stream = population.BitStream(SEED, "t/unif")
    got = stream.uniforms(n, 1000).tolist() + stream.uniforms(n, 1500).tolist()
    assert got == want
    assert stream.pos == tape.bits_consumed


@pytest.mark.parametrize("block", [population.BLOCK, 7])
def test_fisher_yates_replays_the_anonymizer(block: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(population, "BLOCK", block)  # 7: many numpy passes per bit length
    for n in (0, 1, 2, 3, 4, 5, 17, 64, 65, 1000):
        tape = RandomTape(SEED, "sa2/shuffle")
        want, _ = protocol.anonymize(list(range(n)), Fraction(0), RandomTape(SEED, "t/net"), tape)
        stream = population.BitStream(SEED, "sa2/shuffle")
        assert stream.fisher_yates(n) == want
        assert stream.pos == tape.bits_consumed


@pytest.mark.parametrize(("name", "k", "flip"), [
    ("randomized_response", 5, Fraction(1, 2)), ("randomized_response", 8, Fraction(2, 3)),
    ("binary_randomized_response", 2, Fraction(1, 4)), ("rappor", 4, Fraction(1, 5)),
    ("rappor", 3, Fraction(1, 3 * 2**62))])
@pytest.mark.parametrize("row_bytes", [64, 1])
def test_vectorised_randomizers_replay_apply(name: str, k: int, flip: Fraction, row_bytes: int,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(population, "ROW_BYTES", row_bytes)  # 1: many devices fall back
    r = Randomizer(name, k, flip)
    devices = list(range(5, 400, 3))
    values = [(i * 7) % k for i in devices]
    want = [r.apply(x, RandomTape(SEED, protocol.TAGS["randomizer"].format(i=i)))
            for i, x in zip(devices, values, strict=True)]
    got = population.randomize(r, SEED, devices, values)
    assert [list(map(bool, row)) if name == "rappor" else int(row) for row in got] == [
        list(w) if name == "rappor" else w for w in want]


@pytest.mark.parametrize("flip", [Fraction(1, 3), Fraction(1, 4) + Fraction(1, 2**62)])
@pytest.mark.parametrize("row_bytes", [64, 0])
def test_vectorised_rappor_keeps_heavy_rows(flip: Fraction, row_bytes: int,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """randomize() returns RAPPOR's raw bits, heavy rows included, on the vectorised route and on
    the exact one (a flip denominator >= 2^61, or coins beyond ROW_BYTES): decoded_sum then drops
    the rows heavier than max_weight. The exact route used Randomizer.apply, whose None for a
    heavy report made numpy refuse the rows ("inhomogeneous shape")."""
    monkeypatch.setattr(population, "ROW_BYTES", row_bytes)
    r = Randomizer("rappor", 6, flip, Fraction(1, 3))
    devices = list(range(3, 60, 4))
    values = [i % 6 for i in devices]
    tapes = [RandomTape(SEED, protocol.TAGS["randomizer"].format(i=i)) for i in devices]
    want = [r.rappor_bits(x, t) for x, t in zip(values, tapes, strict=True)]
    heavy = [sum(w) > r.max_weight() for w in want]
    assert any(heavy) and not all(heavy)
    got = population.randomize(r, SEED, devices, values)
    assert [list(map(bool, row)) for row in got] == want
    total, dropped = population._decode_pass(r, SEED, devices, values)
    assert dropped == [i for i, h in zip(devices, heavy, strict=True) if h]
    assert total.tolist() == [sum(int(w[j]) for w, h in zip(want, heavy, strict=True) if not h)
                              for j in range(6)]
    with pytest.raises(Sa2Error):
        Randomizer("randomized_response", 6, flip).rappor_bits(0, tapes[0])


# -- the engine against the protocol -------------------------------------------------------------
@pytest.fixture(scope="module")
def dep() -> protocol.Deployment:
    return protocol.provision(SEED)


def _recipe(dep: protocol.Deployment, randomizer: Randomizer, dummy: Fraction, B: int = 3,
            **over: Any) -> protocol.Recipe:
    """A recipe for the mechanics (the claim is not checked: dummies at toy sizes leave no
    guarantee)."""
    args: dict[str, Any] = dict(
        recipe_id="population-test", task_id=bytes(32), randomizer=randomizer, B=B,
        q=Fraction(1, 4), chunk_length=2, leader_pk=dep.leader_hpke.public_key,
        helper_pk=dep.helper_hpke.public_key, issuer_key=dep.issuer_sk.public_key(),
        epsilon=Fraction(1000), delta=Fraction(1, 10**10), dummy_rate=dummy,
        population=48 if dummy else None)
    args.update(over)
    return protocol.check_recipe_structure(protocol.make_recipe(**args))


#: RAPPOR with a loose max_weight: many honest reports are heavier and are not sent
HEAVY = Randomizer("rappor", 6, Fraction(1, 4), Fraction(1, 3))

CASES = [("randomized_response", 4, Fraction(1, 2), Fraction(0)),
         ("binary_randomized_response", 2, Fraction(1, 4), Fraction(1, 10)),
         ("rappor", 3, Fraction(1, 4), Fraction(1, 5))]


def _compare(recipe: protocol.Recipe, dep: protocol.Deployment, n: int, malicious: int,
             drop: Fraction, arrival: Any = None, released: bool = True) -> population.PopulationResult:
    vdaf = protocol.build_vdaf(recipe)
    k = recipe.randomizer.k
    data = population.synthetic_data(SEED, k, n)
    tape = RandomTape(SEED, protocol.TAGS["data"])
    assert data.tolist() == [min(tape.uniform(k), tape.uniform(k)) for _ in range(n)]
    ref = protocol.run_collection(recipe, dep, vdaf, data.tolist(), SEED, malicious=malicious,
                                  drop_rate=drop, arrival=arrival)
    got = population.release(recipe, dep, data, SEED, malicious=malicious, drop_rate=drop,
                             arrival=arrival)
    assert (ref.release is not None) == released
    assert got.release == ref.release
    assert (got.participants, got.dummies, got.overweight, got.sent, got.dropped) == (
        ref.participants, ref.dummies, ref.overweight, ref.sent, sum(ref.drop_flags))
    assert (got.accepted, got.aggregated) == (ref.outcome.accepted, ref.outcome.aggregated)
    assert got.rejected == dict(ref.outcome.rejected)
    return got


@pytest.mark.parametrize(("name", "k", "flip", "dummy"), CASES)
@pytest.mark.parametrize(("malicious", "drop"), [(0, Fraction(0)), (10, Fraction(1, 3))])
def test_release_equals_the_protocol(dep: protocol.Deployment, name: str, k: int, flip: Fraction,
                                     dummy: Fraction, malicious: int, drop: Fraction) -> None:
    """Every malicious kind (10 devices: each kind twice), dummies, network loss."""
    _compare(_recipe(dep, Randomizer(name, k, flip), dummy), dep, 48, malicious, drop)


@pytest.mark.parametrize(("dummy", "drop"), [(Fraction(0), Fraction(0)),
                                             (Fraction(1, 5), Fraction(1, 4))])
def test_overweight_rappor_reports_are_not_sent(dep: protocol.Deployment, dummy: Fraction,
                                                drop: Fraction) -> None:
    assert HEAVY.max_weight() < HEAVY.k
    got = _compare(_recipe(dep, HEAVY, dummy), dep, 48, 5, drop)
    assert got.overweight > 0


@pytest.mark.parametrize(("pool", "malicious", "drop", "released"), [
    (20, 5, Fraction(0), True), (14, 5, Fraction(1, 5), True), (30, 0, Fraction(0), False)])
def test_fixed_size_replays_the_arrival_order(dep: protocol.Deployment, pool: int, malicious: int,
                                              drop: Fraction, released: bool) -> None:
    """Fixed size: the first B accepted in the anonymizer's order are summed (the shuffle is
    replayed); with fewer accepted than the stated population, no release."""
    recipe = _recipe(dep, Randomizer("randomized_response", 4, Fraction(1, 2)), Fraction(0),
                     B=6, q=Fraction(1), sampling="fixed_size", population=pool)
    got = _compare(recipe, dep, 24, malicious, drop, released=released)
    assert got.aggregated == min(6, got.accepted)


@pytest.mark.parametrize("name", ["randomized_response", "rappor"])
def test_time_window_replays_the_arrival_order(dep: protocol.Deployment, name: str) -> None:
    """App. A: reports arriving after t0 + K are rejected; which ones depends on the shuffle."""
    r = Randomizer(name, 3, Fraction(1, 3))
    recipe = _recipe(dep, r, Fraction(0), q=Fraction(1, 2),
                     window=(Fraction(10), Fraction(15)))
    got = _compare(recipe, dep, 40, 10, Fraction(1, 10),
                   arrival=protocol.evenly_spaced(Fraction(9), Fraction(1)))
    assert got.rejected["outside_time_window"] > 0


def test_rate_validation_refuses_a_flood(dep: protocol.Deployment) -> None:
    """A stated population far below the devices that report: more than max_reports received."""
    recipe = _recipe(dep, Randomizer("binary_randomized_response", 2, Fraction(1, 4)),
                     Fraction(1, 10), population=10)
    assert recipe.max_reports() is not None
    got = _compare(recipe, dep, 48, 3, Fraction(0), released=False)
    assert got.accepted >= recipe.B


def test_unsupported_randomizer_is_refused(dep: protocol.Deployment) -> None:
    recipe = _recipe(dep, Randomizer("randomized_response", 4, Fraction(1, 2)), Fraction(0))
    other = dataclasses.replace(recipe, randomizer=Randomizer("gaussian_vector", 4,
                                                              Fraction(1, 2)))
    with pytest.raises(Sa2Error, match="does not replay randomizer gaussian_vector"):
        population.release(other, dep, population.synthetic_data(SEED, 4, 10), SEED)


def test_no_output_below_B(dep: protocol.Deployment) -> None:
    recipe = _recipe(dep, Randomizer("randomized_response", 4, Fraction(1, 2)), Fraction(0),
                     B=1000)
    got = population.release(recipe, dep, population.synthetic_data(SEED, 4, 100), SEED)
    assert got.release is None and got.accepted == got.participants < 1000


def test_audit_runs_the_protocol_and_can_fail(dep: protocol.Deployment,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    recipe = _recipe(dep, Randomizer("rappor", 3, Fraction(1, 4)), Fraction(0))
    vdaf = protocol.build_vdaf(recipe)
    data = population.synthetic_data(SEED, 3, 80)
    res = population.release(recipe, dep, data, SEED)
    aud = population.audit(recipe, dep, vdaf, data, res.participant_index, SEED, 4)
    assert aud.agrees and len(aud.devices) == 4 and set(aud.devices) <= set(
        res.participant_index.tolist())

    real = population._decode_sum

    def off_by_one(*args: Any) -> Any:
        out = real(*args)
        out[0] += 1
        return out

    monkeypatch.setattr(population, "_decode_sum", off_by_one)
    bad = population.audit(recipe, dep, vdaf, data, res.participant_index, SEED, 4)
    assert not bad.agrees


def test_sharding_over_processes_changes_nothing() -> None:
    r = Randomizer("randomized_response", 5, Fraction(1, 3))
    devices = list(range(0, 300, 3))
    values = [i % 5 for i in devices]
    one = population.decoded_sum(r, SEED, devices, values)
    two = population.decoded_sum(r, SEED, devices, values, workers=2, chunk=17)
    assert one.tolist() == two.tolist() and int(one.sum()) == len(devices)
    heavy1: list[int] = []
    heavy2: list[int] = []
    values = [i % HEAVY.k for i in devices]
    one = population.decoded_sum(HEAVY, SEED, devices, values, overweight=heavy1)
    two = population.decoded_sum(HEAVY, SEED, devices, values, workers=2, chunk=17,
                                 overweight=heavy2)
    assert one.tolist() == two.tolist() and heavy1 == heavy2 and heavy1
    assert heavy1 == [i for i, x in zip(devices, values, strict=True) if HEAVY.apply(
        x, RandomTape(SEED, protocol.TAGS["randomizer"].format(i=i))) is None]


# -- the CLI ---------------------------------------------------------------------------------
def _run(argv: list[str]) -> tuple[int, str]:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        status = main(argv)
    return status, buf.getvalue()


@pytest.mark.parametrize(("recipe_args", "sim_args"), [
    ([], []),
    (["--time-window", "3,12"], ["--arrival-spacing", "1", "--drop-rate", "1/10"]),
    (["--query", "QUERY"], []),
])
def test_cli_population_engine_matches_the_protocol_engine(tmp_path: Path, recipe_args: list[str],
                                                           sim_args: list[str]) -> None:
    seed = "00112233445566778899aabbccddeeff"
    query = tmp_path / "q.json"
    query.write_text(json.dumps({"features": [{"name": "word", "categories": ["a", "b"]}]}))
    status, text = _run(["sa2", "recipe", "--seed", seed, "--B", "5", "--q", "1/5",
                         "--randomizer", "rappor", "--k", "3", "--flip", "1/4"]
                        + [str(query) if a == "QUERY" else a for a in recipe_args])
    assert status == 0
    path = tmp_path / "r.json"
    path.write_text(text)
    common = ["sa2", "simulate", "--recipe", str(path), "--clients", "60", "--seed", seed,
              "--json", "-q", "--device-budget", "100", "--malicious", "4", *sim_args]
    s1, out1 = _run(common)
    s2, out2 = _run(common + ["--engine", "population", "--audit", "3"])
    assert s1 == 0 and s2 == 0
    a, b = json.loads(out1), json.loads(out2)
    assert b["engine"] == "population" and b["audit"]["agrees"] and b["audit"]["devices"] == 3
    for key in ("release", "participants", "overweight", "reportsSent", "dropped", "accepted",
                "aggregated", "rejected", "privacy"):
        assert a[key] == b[key], key
    if recipe_args[:1] == ["--time-window"]:
        assert a["rejected"]["outside_time_window"] > 0


def test_cli_bad_workers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    seed = "00112233445566778899aabbccddeeff"
    status, text = _run(["sa2", "recipe", "--seed", seed, "--B", "5", "--q", "1/5"])
    path = tmp_path / "r.json"
    path.write_text(text)
    assert main(["sa2", "simulate", "--recipe", str(path), "--clients", "10", "--seed", seed,
                 "--engine", "population", "--workers", "0", "-q",
                 "--device-budget", "100"]) == 2
    err = capsys.readouterr().err
    assert "--workers" in err and "Traceback" not in err


# -- the sa2-population family's boundary vectors ------------------------------------------------
def test_family_exact_trials_hit_their_boundaries() -> None:
    """The family's Bernoulli probabilities built from a stream's first bits end the first lazy
    comparison where the vectors say: at r = 0 and r = b after 61 bits (denominator 2^61, the
    scalar route), and after more than MAX_DEPTH bits (the vectorised route defers it); each
    agrees with the tape's own bernoulli."""
    from dpspec.conformance.families import sa2_population as fam
    from dpspec.conformance.vectors import vector_seed

    seed = vector_seed("sa2-population/exact")
    trials = fam._exact_trials(seed.hex())
    assert len(trials) == 3
    for (_, _, tag, p), (want_first, used_min, used_max) in zip(
            trials, [(False, 61, 61), (True, 61, 61), (None, population.MAX_DEPTH + 1, 200)],
            strict=True):
        q = Fraction(p)
        stream = population.BitStream(seed, tag)
        first = stream.bernoullis(q, 1)
        assert used_min <= stream.pos <= used_max
        if want_first is not None:
            assert bool(first[0]) is want_first
        tape = RandomTape(seed, tag)
        assert bernoulli(tape, q) == bool(first[0])
        assert tape.bits_consumed == stream.pos
    assert Fraction(trials[0][3]).denominator == 2**61
    assert Fraction(trials[2][3]).denominator < population.MAX_DENOMINATOR


def test_family_rejects_its_invalid_boundaries() -> None:
    from dpspec.conformance.families import sa2_population as fam
    from dpspec.conformance.vectors import vector_seed

    seed = vector_seed("sa2-population/stream").hex()
    with pytest.raises(ValueError):
        fam.h_bitstream({"seed": seed, "tag": "t", "draws": [
            {"kind": "uniform", "n": 2**62 + 1, "count": 1}]})
    with pytest.raises(ValueError):
        fam.h_bitstream({"seed": "00" * 15, "tag": "t", "draws": []})
    rj = {"name": "randomized_response", "k": 4, "flip": "1/2"}
    with pytest.raises(ValueError):
        fam.h_randomize({"seed": seed, "randomizer": rj, "devices": [10**240], "values": [1]})
    with pytest.raises(ValueError):
        fam.h_randomize({"seed": seed, "randomizer": rj, "devices": [1], "values": [4]})
