"""The recipe of [MJTB+22] sec. 4.1 and App. B (Figure 4), and its one-hot encoding.

A recipe tells an enrolled device what to compute and how to encode it (App. B lists the fields):

* ``recipe_id`` and ``version``; ``analysis_id`` (the prefix of the collection ids, checked against
  the device's list);
* ``query``: the query's identifier and the data fields it reads, verified on device against the
  analysis's query class (sec. 4.2; :class:`dpspec.spec.accounting.budget.QueryClass`) and its
  local / cohort-aggregate budgets ``eps0``, ``eps`` and minimum cohort ``min_cohort`` (sec. 4.3);
* ``cohorts``: the non-sensitive fields (e.g. the locale) appended to the collection id;
* the *data content type*: a tuple of features, each with a bucketing rule; the histogram's bins
  are the product of the features' buckets, and the device's answer is one-hot over them.

Figure 4's example learns (age, 3-gram): age buckets ``[20, 30), ..., [70, 80)`` plus an
out-of-vocabulary bucket (``1 + 7``); 3-grams bucketed by a prefix tree of 3 frequent 2-grams
(its leaves) and 9 known words: one global OOV bucket (the 3-gram's prefix is not a leaf), and per
leaf an end-token bucket (the leaf was a whole phrase), an OOV bucket (the next word is unknown) and
one bucket per known word: ``1 + 3 (1 + 1 + 9)``. In all ``(1 + 7) (1 + 3 (1 + 1 + 9)) = 272`` bins.
(The figure is an image; the text gives its words only in part and lists the age intervals from
``[20, 30)`` to ``[70, 80)``, which are six, while counting ``1 + 7`` age buckets. :func:`figure4_recipe`
keeps every count: it adds ``[10, 20)`` as the seventh interval and fills in the words.)

Bucket order (dpspec's choice, fixed so that encodings are reproducible): age bucket 0 is OOV,
then the intervals in order; n-gram bucket 0 is the global OOV, then for leaf ``i`` (in recipe
order) ``1 + i (2 + W)`` is the end token, ``+ 1`` the leaf's OOV, ``+ 2 + w`` known word ``w``.
The bin of (age bucket ``a``, n-gram bucket ``g``) is ``a * NGRAM_BUCKETS + g``.

Footnote 3 (a device with nothing to report). A device answers every query it accepts: if none of
its n-grams extends a leaf, it does not stay silent (silence would reveal that) but sends a
uniformly random n-gram bucket, drawn from its tape (:meth:`Recipe.encode`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from dpspec.spec.tape import RandomTape

#: the token that ends a phrase (the "end-token" of App. B)
END = "<end>"


@dataclass(frozen=True)
class AgeBuckets:
    """Intervals ``[b_0, b_1), ..., [b_{k-1}, b_k)`` plus OOV (bucket 0) for ages outside."""

    boundaries: tuple[int, ...]

    def __post_init__(self) -> None:
        b = self.boundaries
        if len(b) < 2 or any(x >= y for x, y in zip(b, b[1:], strict=False)):
            raise ValueError("age boundaries must be at least two increasing integers")

    @property
    def count(self) -> int:
        return len(self.boundaries)  # (len - 1) intervals + OOV

    def bucket(self, age: int | None) -> int:
        if age is None:
            return 0
        for i in range(len(self.boundaries) - 1):
            if self.boundaries[i] <= age < self.boundaries[i + 1]:
                return i + 1
        return 0


@dataclass(frozen=True)
class PrefixTree:
    """The n-gram feature: the tree's leaves (frequent (n-1)-grams) and the known words.

    A 1-gram query is the tree with one empty leaf ``()``; then the buckets are the global OOV
    (never used), the end token, the OOV word and the known words.
    """

    leaves: tuple[tuple[str, ...], ...]
    words: tuple[str, ...]

    def __post_init__(self) -> None:
        if not self.leaves or len({len(x) for x in self.leaves}) != 1:
            raise ValueError("a prefix tree has leaves, all of the same length")
        if len(set(self.leaves)) != len(self.leaves) or len(set(self.words)) != len(self.words):
            raise ValueError("leaves and words must be distinct")
        if END in self.words:
            raise ValueError(f"{END!r} is reserved for the end token")

    @property
    def order(self) -> int:
        """n of the n-grams the tree buckets (leaf length + 1)."""
        return len(self.leaves[0]) + 1

    @property
    def count(self) -> int:
        return 1 + len(self.leaves) * (2 + len(self.words))

    def bucket(self, ngram: Sequence[str]) -> int | None:
        """The bucket of an n-gram whose last token may be :data:`END`; ``None`` if its prefix
        is not a leaf (the device has no match for this n-gram)."""
        ngram = tuple(ngram)
        if len(ngram) != self.order:
            raise ValueError(f"the tree buckets {self.order}-grams")
        prefix, last = ngram[:-1], ngram[-1]
        try:
            i = self.leaves.index(prefix)
        except ValueError:
            return None
        base = 1 + i * (2 + len(self.words))
        if last == END:
            return base
        if last in self.words:
            return base + 2 + self.words.index(last)
        return base + 1

    def label(self, g: int) -> tuple[str, ...] | None:
        """The n-gram a bucket stands for (``None`` for an OOV bucket)."""
        if g == 0:
            return None
        i, r = divmod(g - 1, 2 + len(self.words))
        if r == 1:
            return None
        return (*self.leaves[i], END if r == 0 else self.words[r - 2])


def select_bucket(tree: PrefixTree, ngrams: Sequence[Sequence[str]], tape: RandomTape) -> int:
    """The n-gram bucket a device reports: one of its matching n-grams chosen uniformly
    (``tape.uniform(#matches)``), or, with no match, a uniformly random n-gram bucket
    (``tape.uniform(NGRAM_BUCKETS)``; footnote 3 of [MJTB+22])."""
    matches = [b for b in (tree.bucket(g) for g in ngrams) if b is not None]
    if matches:
        return matches[tape.uniform(len(matches))]
    return tape.uniform(tree.count)


@dataclass(frozen=True)
class Query:
    """The recipe's query: an identifier, the data fields it reads, its budgets (sec. 4.3)."""

    query_id: str
    fields: tuple[str, ...]
    eps0: Fraction
    eps: Fraction
    min_cohort: int


@dataclass(frozen=True)
class Recipe:
    """A recipe (App. B): identification, query, cohorts and data content type (age x n-gram)."""

    recipe_id: str
    version: int
    analysis_id: str
    query: Query
    ages: AgeBuckets
    ngrams: PrefixTree
    cohorts: tuple[str, ...] = field(default_factory=tuple)

    @property
    def bins(self) -> int:
        """``age buckets x n-gram buckets`` (Fig. 4: ``(1 + 7) x (1 + 3 (1 + 1 + 9))``)."""
        return self.ages.count * self.ngrams.count

    def bin(self, age_bucket: int, ngram_bucket: int) -> int:
        return age_bucket * self.ngrams.count + ngram_bucket

    def select(self, ngrams: Sequence[Sequence[str]], tape: RandomTape) -> int:
        """The n-gram bucket the device reports (:func:`select_bucket`)."""
        return select_bucket(self.ngrams, ngrams, tape)

    def encode(self, age: int | None, ngrams: Sequence[Sequence[str]], tape: RandomTape
               ) -> list[int]:
        """The device's one-hot vector of length :attr:`bins` (before the local randomizer)."""
        v = [0] * self.bins
        v[self.bin(self.ages.bucket(age), self.select(ngrams, tape))] = 1
        return v

    def to_dict(self) -> dict[str, Any]:
        """The recipe as JSON (the fields of App. B)."""
        q = self.query
        return {
            "recipeId": self.recipe_id, "version": self.version, "analysisId": self.analysis_id,
            "query": {"id": q.query_id, "fields": list(q.fields), "eps0": str(q.eps0),
                      "eps": str(q.eps), "minCohort": q.min_cohort},
            "cohorts": list(self.cohorts),
            "dataContentType": {
                "features": ["age", f"{self.ngrams.order}-gram"],
                "age": {"boundaries": list(self.ages.boundaries), "oov": True},
                "ngram": {"prefixTree": [list(x) for x in self.ngrams.leaves],
                          "knownWords": list(self.ngrams.words), "endToken": True, "oov": True},
                "bins": self.bins,
            },
        }


def figure4_recipe() -> Recipe:
    """The recipe of Figure 4: (age, 3-gram), 3 leaves, 9 known words, 272 bins."""
    return Recipe(
        recipe_id="ngram-age-3", version=1, analysis_id="com.example.keyboard.ngram-age",
        query=Query("ngram-age-v1", ("n-gram", "bucketed age"), Fraction(2), Fraction(3, 10),
                    10**6),
        ages=AgeBuckets((10, 20, 30, 40, 50, 60, 70, 80)),
        ngrams=PrefixTree((("hello", "world"), ("good", "morning"), ("i", "got")),
                          ("a", "the", "world", "you", "it", "up", "to", "my", "and")),
        cohorts=("locale",),
    )
