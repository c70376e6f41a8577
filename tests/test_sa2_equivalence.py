"""The protocol realises the ideal functionality: with the same coins, the release of the sec. 4
architecture (Prio3, HPKE, tokens, anonymizer, leader/helper) equals SA_B^Dec exactly, for honest
clients, malicious clients, dummy reports and dropped messages (spec.sa2.protocol vs
dpspec.spec.sa2.ideal)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpspec.spec.sa2 import ideal, protocol, tokens
from dpspec.spec.sa2.protocol import TAGS, PrivacyBudget
from dpspec.spec.sa2.randomizers import Randomizer
from dpspec.spec.samplers import bernoulli
from dpspec.spec.tape import RandomTape

SEED = bytes(range(100, 132))
DEP = protocol.provision(SEED)

RANDOMIZERS = {
    "rr": Randomizer("randomized_response", 5, Fraction(1, 3)),
    "rappor": Randomizer("rappor", 4, Fraction(1, 8)),
    "binary": Randomizer("binary_randomized_response", 2, Fraction(1, 4)),
}


def make(r: Randomizer, B: int, q: Fraction, dummy: Fraction = Fraction(0)) -> protocol.Recipe:
    doc = protocol.make_recipe(
        recipe_id="eq", task_id=bytes(range(32)), randomizer=r, B=B, q=q, chunk_length=2,
        leader_pk=DEP.leader_hpke.public_key, helper_pk=DEP.helper_hpke.public_key,
        issuer_key=DEP.issuer_sk.public_key(), epsilon=Fraction(1000), delta=Fraction(1, 2),
        dummy_rate=dummy, population=100 if dummy else None)
    if dummy:  # tiny test cohorts: the dummies may outnumber B, so no claim holds; mechanics only
        return protocol.parse_recipe(doc)
    recipe, _ = protocol.check_recipe(doc, PrivacyBudget(Fraction(10**6), 10))
    return recipe


def data(n: int, k: int, seed: bytes) -> list[int]:
    t = RandomTape(seed, "test/data")
    return [min(t.uniform(k), t.uniform(k)) for _ in range(n)]


def honest_messages(recipe: protocol.Recipe, xs: list[int], seed: bytes) -> list[Any]:
    """R(x_i) for every device, on device i's randomizer tape."""
    return [recipe.randomizer.apply(x, RandomTape(seed, TAGS["randomizer"].format(i=i)))
            for i, x in enumerate(xs)]


def run(recipe: protocol.Recipe, xs: list[int], seed: bytes, **kw: Any) -> protocol.CollectionResult:
    vdaf = protocol.build_vdaf(recipe)
    return protocol.run_collection(recipe, DEP, vdaf, xs, seed, **kw)


@pytest.mark.parametrize("name", sorted(RANDOMIZERS))
@pytest.mark.parametrize(("n", "B", "q", "label"), [
    (30, 5, Fraction(1, 2), "released"),
    (12, 9, Fraction(1, 3), "below B"),
    (10, 10, Fraction(1), "q = 1, exactly B"),
])
def test_honest_clients_equal_SA(name: str, n: int, B: int, q: Fraction, label: str) -> None:
    recipe = make(RANDOMIZERS[name], B, q)
    seed = bytes([n, B]) + SEED[2:]
    xs = data(n, recipe.randomizer.k, seed)
    res = run(recipe, xs, seed)
    vdaf = protocol.build_vdaf(recipe)
    want = ideal.samplable_aggregate(honest_messages(recipe, xs, seed), B, q,
                                     protocol.ideal_aggregation(recipe, vdaf),
                                     RandomTape(seed, TAGS["participation"]))
    assert res.release == want
    assert (want is None) == (label == "below B")
    assert res.outcome.rejected == {}


@pytest.mark.parametrize("name", ["rr", "rappor"])
def test_malicious_clients_are_rejected_and_release_equals_robust_SA(name: str) -> None:
    recipe = make(RANDOMIZERS[name], 4, Fraction(1, 2))
    seed = SEED
    xs = data(20, recipe.randomizer.k, seed)
    K = 2 * len(protocol.MALICIOUS_KINDS)  # two of each kind
    res = run(recipe, xs, seed, malicious=K)
    vdaf = protocol.build_vdaf(recipe)
    keep = ideal.poisson_sample(len(xs), recipe.q, RandomTape(seed, TAGS["participation"]))
    msgs = [m for m, k in zip(honest_messages(recipe, xs, seed), keep, strict=True) if k]
    # The only adversarial contribution that is accepted: each replaying device's report, once.
    adversary = []
    for j in range(K):
        if protocol.MALICIOUS_KINDS[j % len(protocol.MALICIOUS_KINDS)] == "replayed_token":
            t = RandomTape(seed, TAGS["malicious"].format(j=j))
            tokens.request_token(recipe.issuer_key, recipe.task_id, t)  # same coins as issuance
            adversary.append(protocol.adversary_measurement(recipe, t))
    want = ideal.aggregate(msgs + adversary, recipe.B, protocol.ideal_aggregation(recipe, vdaf))
    assert res.release == want is not None
    assert res.outcome.rejected == {"vdaf_verify_failed": 4, "token_invalid": 2,
                                    "token_replayed": 2, "decrypt_failed": 2}
    assert res.outcome.accepted == len(msgs) + 2


def test_dropped_messages() -> None:
    recipe = make(RANDOMIZERS["rr"], 3, Fraction(1, 2))
    seed = SEED[::-1]
    xs = data(30, recipe.randomizer.k, seed)
    res = run(recipe, xs, seed, drop_rate=Fraction(1, 3))
    vdaf = protocol.build_vdaf(recipe)
    keep = ideal.poisson_sample(len(xs), recipe.q, RandomTape(seed, TAGS["participation"]))
    net = RandomTape(seed, TAGS["network"])
    sent = [m for m, k in zip(honest_messages(recipe, xs, seed), keep, strict=True) if k]
    dropped = [bernoulli(net, Fraction(1, 3)) == 1 for _ in sent]
    assert 0 < sum(dropped) < len(sent) and res.dropped == sum(dropped)
    delivered = [m for m, d in zip(sent, dropped, strict=True) if not d]
    want = ideal.aggregate(delivered, recipe.B, protocol.ideal_aggregation(recipe, vdaf))
    assert res.release == want is not None
    assert res.outcome.accepted == len(delivered)


def test_dummy_reports_count_towards_B_and_add_zero() -> None:
    recipe = make(RANDOMIZERS["binary"], 6, Fraction(1, 4), dummy=Fraction(1, 3))
    seed = SEED[1:] + b"\x00"
    xs = data(24, 2, seed)
    res = run(recipe, xs, seed)
    vdaf = protocol.build_vdaf(recipe)
    keep = ideal.poisson_sample(len(xs), recipe.q, RandomTape(seed, TAGS["participation"]))
    dt = RandomTape(seed, TAGS["dummy"])
    n_dummy = sum(bernoulli(dt, recipe.dummy_rate) for k in keep if not k)
    assert n_dummy > 0 and res.dummies == n_dummy
    msgs = [m for m, k in zip(honest_messages(recipe, xs, seed), keep, strict=True) if k]
    want = ideal.aggregate(msgs + [0] * n_dummy, recipe.B, protocol.ideal_aggregation(recipe, vdaf))
    assert res.release == want is not None
    assert res.outcome.accepted == len(msgs) + n_dummy


def test_each_aggregator_enforces_its_own_B() -> None:
    # A leader that lowers its B cannot obtain a release: the helper refuses (sec. 4.4).
    recipe = make(RANDOMIZERS["rr"], 5, Fraction(1))
    vdaf = protocol.build_vdaf(recipe)
    pk = DEP.issuer_sk.public_key()
    att = tokens.Attester(tokens.Issuer(DEP.issuer_sk))
    reps = []
    for i in range(3):
        tok = tokens.obtain_token(f"d{i}", att, pk, recipe.task_id, RandomTape(SEED, f"t{i}"))
        reps.append(protocol.client_report(recipe, vdaf, i, tok, RandomTape(SEED, f"r{i}")))
    leader = protocol.Aggregator(protocol.ROLE_LEADER,
                                 protocol.TaskConfig(recipe.task_id, 1, DEP.verify_key, pk),
                                 DEP.leader_hpke.private_key, vdaf)
    helper = protocol.Aggregator(protocol.ROLE_HELPER,
                                 protocol.TaskConfig(recipe.task_id, 5, DEP.verify_key, pk),
                                 DEP.helper_hpke.private_key, vdaf)
    # The leader's B differs from the clients' B, so it cannot even open the shares (sec. 4.8).
    out = protocol.aggregate_batch(leader, helper, reps)
    assert out.rejected == {"decrypt_failed": 3} and protocol.collect(vdaf, out) is None


def test_helper_refuses_below_B() -> None:
    recipe = make(RANDOMIZERS["rr"], 3, Fraction(1))
    vdaf = protocol.build_vdaf(recipe)
    pk = DEP.issuer_sk.public_key()
    att = tokens.Attester(tokens.Issuer(DEP.issuer_sk))
    reps = []
    for i in range(2):
        tok = tokens.obtain_token(f"d{i}", att, pk, recipe.task_id, RandomTape(SEED, f"t{i}"))
        reps.append(protocol.client_report(recipe, vdaf, i, tok, RandomTape(SEED, f"r{i}")))
    task = protocol.TaskConfig(recipe.task_id, 3, DEP.verify_key, pk)
    leader = protocol.Aggregator(protocol.ROLE_LEADER, task, DEP.leader_hpke.private_key, vdaf)
    helper = protocol.Aggregator(protocol.ROLE_HELPER, protocol.TaskConfig(
        recipe.task_id, 3, DEP.verify_key, pk), DEP.helper_hpke.private_key, vdaf)
    out = protocol.aggregate_batch(leader, helper, reps)
    assert out.accepted == 2 and out.leader_share is None and out.helper_share is None
    assert protocol.collect(vdaf, out) is None


def test_tampered_ciphertext_and_token_from_another_task() -> None:
    recipe = make(RANDOMIZERS["rr"], 1, Fraction(1))
    vdaf = protocol.build_vdaf(recipe)
    pk = DEP.issuer_sk.public_key()
    att = tokens.Attester(tokens.Issuer(DEP.issuer_sk))
    tok = tokens.obtain_token("d", att, pk, recipe.task_id, RandomTape(SEED, "t"))
    good = protocol.client_report(recipe, vdaf, 1, tok, RandomTape(SEED, "r"))
    bad_ct = protocol.Report(good.nonce, good.public_share, good.token, good.leader_enc,
                             good.leader_ct[:-1] + bytes([good.leader_ct[-1] ^ 1]),
                             good.helper_enc, good.helper_ct)
    tok2 = tokens.obtain_token("e", att, pk, bytes(32), RandomTape(SEED, "t2"))
    other_task = protocol.client_report(recipe, vdaf, 1, tok2, RandomTape(SEED, "r2"))
    task = protocol.TaskConfig(recipe.task_id, 1, DEP.verify_key, pk)
    leader = protocol.Aggregator(protocol.ROLE_LEADER, task, DEP.leader_hpke.private_key, vdaf)
    helper = protocol.Aggregator(protocol.ROLE_HELPER, protocol.TaskConfig(
        recipe.task_id, 1, DEP.verify_key, pk), DEP.helper_hpke.private_key, vdaf)
    out = protocol.aggregate_batch(leader, helper, [bad_ct, other_task, good])
    # The tampered report burned the token at the leader, so the good copy is a replay.
    assert out.verdicts == ["decrypt_failed", "token_wrong_task", "token_replayed"]


def _split_setup(k: int) -> tuple[protocol.Recipe, Any, Any, Any]:
    r = Randomizer("rappor", k, Fraction(1, 4))  # max_weight = k: the all-ones vector is valid
    recipe = make(r, 1, Fraction(1))
    vdaf = protocol.build_vdaf(recipe)
    pk = DEP.issuer_sk.public_key()
    task = protocol.TaskConfig(recipe.task_id, 1, DEP.verify_key, pk)
    leader = protocol.Aggregator(protocol.ROLE_LEADER, task, DEP.leader_hpke.private_key, vdaf)
    helper = protocol.Aggregator(protocol.ROLE_HELPER, task, DEP.helper_hpke.private_key, vdaf)
    return recipe, vdaf, leader, helper


def _split_report(recipe: protocol.Recipe, vdaf: Any, meas: Any, deceived: int,
                  label: str) -> protocol.Report:
    att = tokens.Attester(tokens.Issuer(DEP.issuer_sk))
    tok = tokens.obtain_token(label, att, DEP.issuer_sk.public_key(), recipe.task_id,
                              RandomTape(SEED, f"t/{label}"))
    return protocol.client_report(recipe, vdaf, meas, tok, RandomTape(SEED, f"r/{label}"),
                                  deceive=deceived)


@pytest.mark.parametrize("deceived", [0, 1])
@pytest.mark.parametrize("k", [2, 3])
def test_split_joint_rand_report_passes_the_proof_and_fails_one_check(deceived: int,
                                                                      k: int) -> None:
    """The crafted report's verifier shares decide "valid" (the proof check passes), then only
    the deceived aggregator's verify_next fails (sec. 7.2.2 of the VDAF draft)."""
    recipe, vdaf, leader, helper = _split_setup(k)
    assert recipe.vdaf_params["maxWeight"] == k
    rep = _split_report(recipe, vdaf, [1] * k, deceived, f"split/{k}/{deceived}")
    why_l, lead = leader.open_report(rep.nonce, rep.public_share, rep.token, rep.leader_enc,
                                     rep.leader_ct)
    why_h, help_ = helper.open_report(rep.nonce, rep.public_share, rep.token, rep.helper_enc,
                                      rep.helper_ct)
    assert why_l is None and why_h is None
    ctx = protocol.vdaf_ctx(recipe.task_id)
    message = vdaf.verifier_shares_to_message(ctx, None, [lead[1], help_[1]])
    results = [leader.finish(lead[0], message)[0], helper.finish(help_[0], message)[0]]
    assert results[deceived] == "vdaf_verify_failed" and results[1 - deceived] is None
    assert leader.accepted == helper.accepted == 0  # finish counts nothing


@pytest.mark.parametrize("deceived", [0, 1])
def test_a_report_one_aggregator_refuses_is_refused_by_both(deceived: int) -> None:
    """aggregate_batch goes on after such a report, and neither aggregator counts or sums it
    (before, the batch stopped with "aggregators disagree" and the helper had summed it)."""
    recipe, vdaf, leader, helper = _split_setup(2)
    att = tokens.Attester(tokens.Issuer(DEP.issuer_sk))
    pk = DEP.issuer_sk.public_key()
    honest = []
    for i, m in enumerate(([0, 1], [1, 0])):
        tok = tokens.obtain_token(f"h{i}", att, pk, recipe.task_id, RandomTape(SEED, f"th{i}"))
        honest.append(protocol.client_report(recipe, vdaf, m, tok, RandomTape(SEED, f"rh{i}")))
    bad = _split_report(recipe, vdaf, [1, 1], deceived, f"bad{deceived}")
    out = protocol.aggregate_batch(leader, helper, [honest[0], bad, honest[1]])
    reason = "vdaf_verify_failed" if deceived == 0 else "helper_vdaf_verify_failed"
    assert out.verdicts == ["accepted", reason, "accepted"]
    assert leader.accepted == helper.accepted == 2 and leader.count == helper.count == 2
    assert protocol.collect(vdaf, out) == (1, 1)


def test_split_joint_rand_needs_all_ones_and_joint_randomness() -> None:
    recipe, vdaf, leader, helper = _split_setup(2)
    bad = _split_report(recipe, vdaf, [0, 1], 1, "zero-element")
    out = protocol.aggregate_batch(leader, helper, [bad])
    assert out.verdicts == ["vdaf_verify_failed"]  # the proof check, before any verify_next
    with pytest.raises(ideal.Sa2Error, match="0 .the leader. or 1"):
        _split_report(recipe, vdaf, [1, 1], 2, "two")
    with pytest.raises(ideal.Sa2Error, match="0 .the leader. or 1"):
        _split_report(recipe, vdaf, [1, 1], -1, "minus-one")
    count = make(RANDOMIZERS["binary"], 1, Fraction(1))
    with pytest.raises(ideal.Sa2Error, match="joint randomness"):
        _split_report(count, protocol.build_vdaf(count), 1, 0, "count")


def test_cli_simulate_runs_the_protocol(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from dpspec.conformance.cli import main
    seed = "0f" * 16
    assert main(["sa2", "recipe", "--seed", seed, "--k", "4", "--B", "10", "--q", "1/2",
                 "--epsilon", "1000", "--delta", "1/2"]) == 0
    path = tmp_path / "recipe.json"
    path.write_text(capsys.readouterr().out)
    assert main(["sa2", "simulate", "--recipe", str(path), "--clients", "40", "--seed", seed,
                 "--malicious", "5", "--device-budget", "1000", "--json", "-q"]) == 0
    out = json.loads(capsys.readouterr().out)
    recipe = protocol.parse_recipe(json.loads(path.read_text()))
    s = bytes.fromhex(seed)
    t = RandomTape(s, TAGS["data"])
    xs = [min(t.uniform(4), t.uniform(4)) for _ in range(40)]
    res = protocol.run_collection(recipe, protocol.provision(s), protocol.build_vdaf(recipe), xs,
                                  s, malicious=5)
    assert res.release is not None and out["release"] == list(res.release)
    assert out["rejected"] == {"decrypt_failed": 1, "token_invalid": 1, "token_replayed": 1,
                               "vdaf_verify_failed": 2}
    assert out["accepted"] == res.outcome.accepted and out["clients"] == 40


def ideal_release(recipe: protocol.Recipe, xs: list[int], seed: bytes, drop_rate: Fraction,
                  malicious: int) -> tuple[int, ...] | None:
    """The robust ideal functionality on the run's coins: A_B^Dec over the sampled honest messages
    (and dummy zeros) that the network delivered, plus the adversary's one valid message per
    replaying device."""
    vdaf = protocol.build_vdaf(recipe)
    keep = ideal.poisson_sample(len(xs), recipe.q, RandomTape(seed, TAGS["participation"]))
    honest = honest_messages(recipe, xs, seed)
    dt = RandomTape(seed, TAGS["dummy"])
    sent: list[Any] = []
    for i in range(len(xs)):
        if keep[i]:
            if honest[i] is not None:  # a RAPPOR report over max_weight is not sent
                sent.append(honest[i])
        elif recipe.dummy_rate > 0 and bernoulli(dt, recipe.dummy_rate):
            sent.append(recipe.randomizer.zero_measurement())
    net = RandomTape(seed, TAGS["network"])
    kinds = protocol.MALICIOUS_KINDS
    n_mal_reports = sum(2 if kinds[j % len(kinds)] == "replayed_token" else 1
                        for j in range(malicious))
    drops = [bernoulli(net, drop_rate) == 1 for _ in range(len(sent) + n_mal_reports)]
    delivered = [m for m, d in zip(sent, drops, strict=False) if not d]
    adversary = []
    mal_drops = drops[len(sent):]
    pos = 0
    for j in range(malicious):
        kind = protocol.MALICIOUS_KINDS[j % len(protocol.MALICIOUS_KINDS)]
        if kind == "replayed_token":
            t = RandomTape(seed, TAGS["malicious"].format(j=j))
            tokens.request_token(recipe.issuer_key, recipe.task_id, t)
            if not (mal_drops[pos] and mal_drops[pos + 1]):
                adversary.append(protocol.adversary_measurement(recipe, t))
            pos += 2
        else:
            pos += 1
    return ideal.aggregate(delivered + adversary, recipe.B, protocol.ideal_aggregation(recipe, vdaf))


@settings(max_examples=15)
@given(name=st.sampled_from(sorted(RANDOMIZERS)), n=st.integers(0, 14), B=st.integers(1, 5),
       q=st.sampled_from([Fraction(0), Fraction(1, 3), Fraction(1, 2), Fraction(3, 4), Fraction(1)]),
       dummy=st.sampled_from([Fraction(0), Fraction(1, 2)]),
       drop=st.sampled_from([Fraction(0), Fraction(1, 4)]), malicious=st.integers(0, 5),
       seed=st.binary(min_size=16, max_size=16))
def test_equivalence_property(name: str, n: int, B: int, q: Fraction, dummy: Fraction,
                              drop: Fraction, malicious: int, seed: bytes) -> None:
    r = RANDOMIZERS[name]
    if r.zero_measurement() is None:
        dummy = Fraction(0)
    recipe = make(r, B, q, dummy)
    xs = data(n, r.k, seed)
    res = run(recipe, xs, seed, malicious=malicious, drop_rate=drop)
    assert res.release == ideal_release(recipe, xs, seed, drop, malicious)
    assert all(v in ("accepted", "decrypt_failed", "token_invalid", "token_replayed",
                     "vdaf_verify_failed") for v in res.outcome.verdicts)
