"""[MJTB+22] App. B / Figure 4: the recipe and its one-hot encoding (dpspec.spec.mjtb.recipe)."""

from __future__ import annotations

from collections import Counter

import pytest
from scipy.stats import chi2

from dpspec.spec.mjtb.recipe import END, AgeBuckets, PrefixTree, figure4_recipe
from dpspec.spec.tape import RandomTape

ALPHA = 1e-9


def test_figure4_bin_count() -> None:
    r = figure4_recipe()
    assert r.ages.count == 1 + 7
    assert r.ngrams.count == 1 + 3 * (1 + 1 + 9)
    assert r.bins == (1 + 7) * (1 + 3 * (1 + 1 + 9)) == 272
    assert r.to_dict()["dataContentType"]["bins"] == 272


def test_age_buckets_with_oov() -> None:
    a = figure4_recipe().ages
    assert [a.bucket(x) for x in (9, 10, 19, 20, 79, 80, None)] == [0, 1, 1, 2, 7, 0, 0]
    with pytest.raises(ValueError):
        AgeBuckets((30, 20))


def test_prefix_tree_buckets_are_a_bijection() -> None:
    t = figure4_recipe().ngrams
    seen = {0}
    for leaf in t.leaves:
        for w in (END, "zebra", *t.words):
            b = t.bucket((*leaf, w))
            assert b is not None
            seen.add(b)
            assert t.label(b) == (None if w == "zebra" else (*leaf, w))
    assert seen == set(range(t.count))
    assert t.bucket(("not", "a", "leaf")) is None
    assert t.bucket(("hello", "world", END)) == 1 and t.bucket(("hello", "world", "x")) == 2
    with pytest.raises(ValueError):
        t.bucket(("hello", "world"))
    with pytest.raises(ValueError):
        PrefixTree((("a",), ("b", "c")), ("x",))
    with pytest.raises(ValueError):
        PrefixTree(((),), (END,))


def test_encode_picks_a_matching_ngram() -> None:
    r = figure4_recipe()
    v = r.encode(35, [("no", "match", "here"), ("i", "got", "up")], RandomTape(b"\x01" * 16, "t"))
    assert sum(v) == 1
    idx = v.index(1)
    assert divmod(idx, r.ngrams.count) == (3, r.ngrams.bucket(("i", "got", "up")))


def test_footnote3_no_match_sends_a_uniform_random_bucket() -> None:
    """Chi-square at ALPHA = 1e-9 against the uniform law on the 34 n-gram buckets."""
    r = figure4_recipe()
    reps = 6800
    counts = Counter(r.select([("x", "y", "z")], RandomTape(i.to_bytes(16, "big"), "fn3"))
                     for i in range(reps))
    assert set(counts) <= set(range(r.ngrams.count))
    exp = reps / r.ngrams.count
    stat = sum((counts.get(k, 0) - exp) ** 2 / exp for k in range(r.ngrams.count))
    assert stat < chi2.isf(ALPHA, r.ngrams.count - 1)
    # with no n-grams at all the device still answers
    assert 0 <= r.select([], RandomTape(b"\x02" * 16, "fn3")) < r.ngrams.count
