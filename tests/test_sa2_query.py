"""The query behind a recipe (dpspec.spec.sa2.query; MJTB+22 sec. 4.1 and App. B): bucketing with
an out-of-vocabulary bucket, applied by the device."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dpspec.spec.sa2 import ideal, protocol
from dpspec.spec.sa2.ideal import Sa2Error
from dpspec.spec.sa2.protocol import TAGS, RecipeRefused
from dpspec.spec.sa2.query import OOV, Query
from dpspec.spec.sa2.randomizers import Randomizer
from dpspec.spec.tape import RandomTape

AGES = {"name": "age", "intervals": ["10", "20", "30", "40", "50", "60", "70", "80"]}
WORDS = {"name": "word", "categories": ["a", "b", "c", "d", "e", "f", "g", "h", "i"]}
Q = Query.from_json({"features": [AGES, WORDS]})
SEED = bytes(range(7, 39))
DEP = protocol.provision(SEED)


def test_app_b_sizes() -> None:
    # App. B counts 1 + 7 age buckets (it lists {OOV, [20, 30), ..., [70, 80)}, which is 1 + 6:
    # seven intervals need eight boundaries, here 10, ..., 80); a vocabulary of 9 known words is
    # 1 + 9 buckets; every combination is a bin.
    assert [f.size for f in Q.features] == [8, 10] and Q.size == 80


@pytest.mark.parametrize(("age", "bucket"), [
    ("10", 1), ("19.99", 1), ("20", 2), ("79", 7), ("80", OOV), ("9", OOV), (Fraction(55), 5),
    (None, OOV), ("old", OOV), (True, OOV), (3.5, OOV)])
def test_interval_buckets_are_half_open_with_oov(age: Any, bucket: int) -> None:
    assert Q.features[0].bucket(age) == bucket


def test_category_buckets_and_mixed_radix() -> None:
    assert Q.apply({"age": "15", "word": "a"}) == 1 * 10 + 1
    assert Q.apply({"age": "75", "word": "i"}) == 7 * 10 + 9
    assert Q.apply({"age": "95", "word": "zebra"}) == 0
    assert Q.apply({}) == 0
    assert Q.labels(7 * 10 + 9) == ("[70, 80)", "i") and Q.labels(3) == ("OOV", "c")
    with pytest.raises(Sa2Error):
        Q.apply(["25", "a"])  # type: ignore[arg-type]


@given(age=st.integers(0, 120), word=st.sampled_from(["a", "e", "i", "zz", ""]))
def test_apply_and_labels_agree(age: int, word: str) -> None:
    idx = Q.apply({"age": age, "word": word})
    assert 0 <= idx < Q.size
    a, w = Q.labels(idx)
    assert (a == "OOV") == (not 10 <= age < 80)
    assert w == (word if word in WORDS["categories"] else "OOV")
    assert Query.from_json(Q.to_json()) == Q


@pytest.mark.parametrize("doc", [
    {}, {"features": []}, {"features": [{"name": "x"}]},
    {"features": [{"name": "x", "intervals": ["1"]}]},
    {"features": [{"name": "x", "intervals": ["2", "1"]}]},
    {"features": [{"name": "x", "intervals": ["1", "2"], "categories": ["a"]}]},
    {"features": [{"name": "x", "categories": ["a", "a"]}]},
    {"features": [{"name": "x", "categories": ["a"]}, {"name": "x", "categories": ["b"]}]},
    {"features": [{"name": "x", "intervals": ["1", 0.5]}]},
])
def test_bad_queries_are_refused(doc: dict[str, Any]) -> None:
    with pytest.raises(Sa2Error):
        Query.from_json(doc)


def make(k: int, **over: Any) -> dict[str, Any]:
    args: dict[str, Any] = dict(
        recipe_id="query", task_id=bytes(32), randomizer=Randomizer("randomized_response", k,
                                                                     Fraction(1, 4)),
        B=3, q=Fraction(1, 2), chunk_length=4, leader_pk=DEP.leader_hpke.public_key,
        helper_pk=DEP.helper_hpke.public_key, issuer_key=DEP.issuer_sk.public_key(),
        epsilon=Fraction(1000), delta=Fraction(1, 2), query=Q)
    args.update(over)
    return protocol.make_recipe(**args)


def test_the_client_refuses_a_query_of_another_size() -> None:
    with pytest.raises(RecipeRefused, match="query_mismatch"):
        protocol.check_recipe_structure(make(40))
    recipe = protocol.check_recipe_structure(make(80))
    assert recipe.query == Q


def test_the_device_applies_the_query_and_the_release_is_the_ideal_one() -> None:
    recipe = protocol.check_recipe_structure(make(80))
    t = RandomTape(SEED, "test/records")
    records = [{"age": str(10 + t.uniform(90)), "word": "abcdefghijz"[t.uniform(11)]}
               for _ in range(16)]
    vdaf = protocol.build_vdaf(recipe)
    res = protocol.run_collection(recipe, DEP, vdaf, records, SEED)
    msgs = [recipe.randomizer.apply(Q.apply(r), RandomTape(SEED, TAGS["randomizer"].format(i=i)))
            for i, r in enumerate(records)]
    want = ideal.samplable_aggregate(msgs, 3, recipe.q, protocol.ideal_aggregation(recipe, vdaf),
                                     RandomTape(SEED, TAGS["participation"]))
    assert res.release == want is not None and len(res.release) == 80
