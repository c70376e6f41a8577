"""SA2 protocol pieces that do not need a VDAF: recipes and the client's checks, randomizers,
the anonymizer, and the HPKE binding of task and B (dpspec.spec.sa2.protocol, dpspec.spec.sa2.randomizers)."""

from __future__ import annotations

import copy
from collections import Counter
from fractions import Fraction
from typing import Any

import mpmath
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa
from scipy import stats

from dpspec.spec.accounting import shuffle, subsampling
from dpspec.spec.sa2 import hpke, privacy, protocol, tokens
from dpspec.spec.sa2.protocol import PrivacyBudget, RecipeRefused
from dpspec.spec.sa2.randomizers import Randomizer
from dpspec.spec.samplers import bernoulli
from dpspec.spec.tape import RandomTape

_KEY = rsa.generate_private_key(65537, 2048).public_key().public_numbers()
ISSUER = tokens.PublicKey(_KEY.n, _KEY.e)
LEADER = hpke.derive_key_pair(b"\x01" * 32)
HELPER = hpke.derive_key_pair(b"\x02" * 32)
RR = Randomizer("randomized_response", 8, Fraction(1, 2))


def recipe_doc(**over: Any) -> dict[str, Any]:
    args: dict[str, Any] = dict(recipe_id="test", task_id=bytes(range(32)), randomizer=RR, B=10000,
                                q=Fraction(1, 50), chunk_length=3,
                                leader_pk=LEADER.public_key, helper_pk=HELPER.public_key,
                                issuer_key=ISSUER, epsilon=Fraction(1, 10),
                                delta=Fraction(1, 10**10))
    args.update(over)
    return protocol.make_recipe(**args)


def budget() -> PrivacyBudget:
    return PrivacyBudget(Fraction(1), 5)


def refused(doc: Any, b: PrivacyBudget | None = None) -> str:
    with pytest.raises(RecipeRefused) as info:
        protocol.check_recipe(doc, b if b is not None else budget())
    return info.value.reason


# -- recipes ---------------------------------------------------------------------------------------
def test_good_recipe_is_accepted_and_charged() -> None:
    b = budget()
    recipe, stmt = protocol.check_recipe(recipe_doc(), b)
    assert recipe.B == 10000 and recipe.q == Fraction(1, 50)
    assert stmt.model == "sa2" and stmt.epsilon <= mpmath.mpf("0.1")
    assert b.epsilon_used == Fraction(1, 10) and b.queries_used == 1


def test_guarantee_is_the_amplified_shuffle_bound() -> None:
    recipe = protocol.parse_recipe(recipe_doc())
    stmt = protocol.guarantee(recipe)
    base = protocol.aggregator_guarantee(recipe)
    eps, delta = subsampling.poisson_amplification(base.epsilon, base.delta, recipe.q)
    assert stmt.epsilon == eps and stmt.delta == delta
    # the aggregator-model number is the gated closed form of spec.accounting, nothing else
    want = shuffle.closed_form(privacy.eps0_up(RR.epsilon0()), recipe.B, "1/10000000000")
    assert base.epsilon == mpmath.mpf(want.eps) and want.valid and base.bound == "closed"


def test_recipe_accountant_fmt22_is_tighter_for_binary_rr() -> None:
    bin_ = Randomizer("binary_randomized_response", 2, Fraction(1, 2))
    doc = recipe_doc(randomizer=bin_, B=1000, epsilon=Fraction(1, 100),
                     accountant="shuffle-fmt22")
    recipe, stmt = protocol.check_recipe(doc, budget())
    assert recipe.accountant == "shuffle-fmt22" and stmt.epsilon < mpmath.mpf(1) / 100
    assert refused(recipe_doc(randomizer=bin_, B=1000, epsilon=Fraction(1, 100))) == \
        "privacy_claim_not_met"
    closed = protocol.guarantee(protocol.parse_recipe(recipe_doc(randomizer=bin_, B=1000)))
    assert stmt.epsilon < closed.epsilon
    assert refused(mutate(["privacy", "accountant"], "moments")) == "unsupported_accountant"
    # fmt22 is proven for binary randomized response only: refused for k-ary RR and RAPPOR
    assert refused(recipe_doc(accountant="shuffle-fmt22")) == "accountant_not_applicable"
    assert refused(recipe_doc(accountant="rappor-clone")) == "accountant_not_applicable"


@pytest.mark.parametrize(("change", "reason"), [
    (dict(B=10), "privacy_claim_not_met"),            # a small cohort: the shuffle bound is weak
    (dict(q=Fraction(1)), "privacy_claim_not_met"),   # no sampling: no amplification
    (dict(epsilon=Fraction(2)), "budget_exhausted"),
    (dict(dummy_rate=Fraction(1, 100), population=10**6), "dummy_unsupported"),
    (dict(dummy_rate=Fraction(1, 100)), "malformed"),  # dummies need the population
    (dict(leader_pk=HELPER.public_key), "same_aggregator_keys"),
    (dict(issuer_key=tokens.PublicKey(2**1023 + 1, 65537)), "weak_issuer_key"),
])
def test_recipe_refusals(change: dict[str, Any], reason: str) -> None:
    assert refused(recipe_doc(**change)) == reason


def mutate(path: list[Any], value: Any) -> dict[str, Any]:
    doc = copy.deepcopy(recipe_doc())
    target = doc
    for key in path[:-1]:
        target = target[key]
    if value is _DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return doc


_DELETE = object()


@pytest.mark.parametrize(("path", "value", "reason"), [
    (["cohortSize"], 0, "malformed"),
    (["cohortSize"], _DELETE, "malformed"),
    (["samplingRate"], 0.02, "malformed"),              # floats are refused
    (["samplingRate"], "3/2", "malformed"),
    (["version"], 2, "unsupported_version"),
    (["taskId"], "00", "malformed"),
    (["randomizer", "name"], "laplace", "malformed"),
    (["randomizer", "flip"], "0", "malformed"),
    (["vdaf", "length"], 9, "vdaf_mismatch"),
    (["decoding"], "identity", "decoding_mismatch"),
    (["vdaf", "type"], "Prio3Count", "vdaf_mismatch"),
    (["vdaf", "chunkLength"], 0, "vdaf_mismatch"),
    (["aggregators"], [], "malformed"),
    (["aggregators", 0, "hpkePublicKey"], "00" * 31, "malformed"),
    (["issuer", "exponent"], 4, "malformed"),
    (["privacy", "delta"], "0", "malformed"),
    (["privacy", "epsilon"], "abc", "malformed"),
])
def test_recipe_field_refusals(path: list[Any], value: Any, reason: str) -> None:
    assert refused(mutate(path, value)) == reason


def test_budget_counts_queries() -> None:
    b = PrivacyBudget(Fraction(1), 2)
    protocol.check_recipe(recipe_doc(), b)
    protocol.check_recipe(recipe_doc(), b)
    assert refused(recipe_doc(), b) == "budget_exhausted"
    assert b.queries_used == 2


def test_not_an_object() -> None:
    assert refused([1, 2]) == "malformed"


# -- randomizers -------------------------------------------------------------------------------------
def test_randomizer_coin_order() -> None:
    t, ref = RandomTape(bytes(16), "r"), RandomTape(bytes(16), "r")
    outs = [RR.apply(3, t) for _ in range(50)]
    want = []
    for _ in range(50):
        want.append(ref.uniform(8) if bernoulli(ref, RR.flip) else 3)
    assert outs == want
    rap = Randomizer("rappor", 4, Fraction(1, 10))
    t, ref = RandomTape(bytes(16), "r"), RandomTape(bytes(16), "r")
    assert rap.apply(1, t) == [(j == 1) != (bernoulli(ref, Fraction(1, 10)) == 1) for j in range(4)]


def test_randomized_response_distribution() -> None:
    # k = 4, flip = 1/2: P[y = x] = 5/8, else 1/8 each; chi-square 3 dof, false alarm 1e-6.
    r = Randomizer("randomized_response", 4, Fraction(1, 2))
    t = RandomTape(bytes(16), "stat/rr")
    n = 20000
    c = Counter(r.apply(2, t) for _ in range(n))
    probs = {0: 1 / 8, 1: 1 / 8, 2: 5 / 8, 3: 1 / 8}
    chi2 = sum((c[v] - n * p) ** 2 / (n * p) for v, p in probs.items())
    assert chi2 < stats.chi2.isf(1e-6, 3)


def test_epsilon0() -> None:
    with mpmath.workdps(30):
        assert mpmath.almosteq(RR.epsilon0(), mpmath.log((1 - mpmath.mpf(1) / 2 + mpmath.mpf(1) / 16)
                                                         / (mpmath.mpf(1) / 16)), 1e-25)
        rap = Randomizer("rappor", 4, Fraction(1, 10))
        assert mpmath.almosteq(rap.epsilon0(), 2 * mpmath.log(9), 1e-25)


def test_randomizer_json_and_errors() -> None:
    for r in [RR, Randomizer("rappor", 3, Fraction(1, 5)),
              Randomizer("binary_randomized_response", 2, Fraction(1, 3))]:
        assert Randomizer.from_json(r.to_json()) == r
    with pytest.raises(ValueError):
        Randomizer.from_json({"name": "rappor", "k": 3, "flip": "1/2"})
    with pytest.raises(ValueError):
        RR.apply(8, RandomTape(bytes(16), "r"))
    assert RR.zero_measurement() is None
    assert RR.dec(2) == (0, 0, 1, 0, 0, 0, 0, 0)


# -- anonymizer ----------------------------------------------------------------------------------------
def _reports(n: int) -> list[protocol.Report]:
    return [protocol.Report(bytes([i]), b"", b"", b"", b"", b"", b"") for i in range(n)]


def test_anonymize_drops_then_shuffles() -> None:
    reps = _reports(50)
    out, dropped = protocol.anonymize(reps, Fraction(1, 5), RandomTape(bytes(16), "n"),
                                      RandomTape(bytes(16), "s"))
    net = RandomTape(bytes(16), "n")
    assert dropped == [bernoulli(net, Fraction(1, 5)) == 1 for _ in range(50)]
    assert sorted(r.nonce for r in out) == [r.nonce for r, d in zip(reps, dropped, strict=True)
                                            if not d]


def test_anonymize_shuffle_is_uniform() -> None:
    # All 3! orders equally likely: chi-square, 5 dof, false alarm 1e-6.
    reps = _reports(3)
    s = RandomTape(bytes(16), "stat/shuffle")
    n = 12000
    c = Counter(tuple(r.nonce[0] for r in protocol.anonymize(reps, Fraction(0),
                RandomTape(bytes(16), "n"), s)[0]) for _ in range(n))
    assert len(c) == 6
    chi2 = sum((v - n / 6) ** 2 / (n / 6) for v in c.values())
    assert chi2 < stats.chi2.isf(1e-6, 5)


# -- the AAD binds task and B (sec. 4.8) -------------------------------------------------------------------
def test_aad_binds_task_and_B() -> None:
    aad = protocol.hpke_aad(bytes(32), 100, bytes(16), b"ps", b"tok")
    enc, ct = hpke.seal(LEADER.public_key, protocol.hpke_info(protocol.ROLE_LEADER), aad, b"share")
    info = protocol.hpke_info(protocol.ROLE_LEADER)
    assert hpke.open_(LEADER.private_key, enc, info, aad, ct) == b"share"
    for other in [protocol.hpke_aad(bytes(32), 99, bytes(16), b"ps", b"tok"),
                  protocol.hpke_aad(b"\x01" * 32, 100, bytes(16), b"ps", b"tok"),
                  protocol.hpke_aad(bytes(32), 100, bytes(16), b"ps", b"tok2")]:
        with pytest.raises(hpke.HpkeError):
            hpke.open_(LEADER.private_key, enc, info, other, ct)
    with pytest.raises(hpke.HpkeError):  # the helper's info does not open the leader's share
        hpke.open_(LEADER.private_key, enc, protocol.hpke_info(protocol.ROLE_HELPER), aad, ct)
