"""The query behind a recipe: how a device maps its data to a bucket in ``[K]`` ([PFS] sec. 4.1 and
App. B, the "data content type" of Fig. 4; sec. 4.1 of [SA2]).

A recipe's ``query`` lists the features of the histogram and a bucketing rule for each; the
device applies the rules to its own record and sends the bucket index through the randomizer, so
the server never sees a value the rules did not anticipate. Two rules:

* ``intervals`` -- boundaries ``b_0 < b_1 < ... < b_m`` (exact rationals): bucket ``1 + i`` is
  the half-open interval ``[b_i, b_{i+1})``; a value outside ``[b_0, b_m)`` (or a missing one)
  falls into bucket 0, the out-of-vocabulary bucket (OOV) that [PFS] App. B adds on the device.
  ``1 + m`` buckets. (App. B counts ``1 + 7`` age buckets while listing ``{OOV, [20, 30), ...,
  [70, 80)}``, which is ``1 + 6``; seven intervals need eight boundaries.)
* ``categories`` -- a list of distinct strings (e.g. known words): bucket ``1 + i`` is the i-th
  string, bucket 0 (OOV) everything else. ``1 + len(values)`` buckets.

A record is a mapping from feature name to value; the bucket of the record is the mixed-radix
index of the features' buckets, the first feature most significant: for sizes ``s_1, ..., s_d``
and buckets ``c_1, ..., c_d``, ``index = (...((c_1) s_2 + c_2) s_3 + ...) + c_d``, so ``K =
s_1 s_2 ... s_d`` (App. B: every combination of buckets is a bin, ``(1 + 7) x ...``).

The recipe's randomizer must have ``k = K``; the client refuses the recipe otherwise.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from dpspec.spec.sa2.ideal import Sa2Error, exact

OOV = 0


@dataclass(frozen=True)
class Feature:
    """One feature and its bucketing rule (exactly one of ``intervals`` / ``categories``)."""

    name: str
    intervals: tuple[Fraction, ...] = ()
    categories: tuple[str, ...] = ()

    @property
    def size(self) -> int:
        return len(self.intervals) if self.intervals else 1 + len(self.categories)

    def bucket(self, value: Any) -> int:
        """The feature's bucket of ``value`` (0 = OOV)."""
        if self.intervals:
            if isinstance(value, bool) or not isinstance(value, int | Fraction | str):
                return OOV
            try:
                v = exact(value, self.name)
            except Sa2Error:
                return OOV
            if not self.intervals[0] <= v < self.intervals[-1]:
                return OOV
            return bisect_right(self.intervals, v)
        if isinstance(value, str) and value in self.categories:
            return 1 + self.categories.index(value)
        return OOV

    def to_json(self) -> dict[str, Any]:
        if self.intervals:
            return {"name": self.name, "intervals": [str(b) for b in self.intervals]}
        return {"name": self.name, "categories": list(self.categories)}


@dataclass(frozen=True)
class Query:
    """The features of a recipe's histogram ([PFS] App. B "data content type")."""

    features: tuple[Feature, ...]

    @property
    def size(self) -> int:
        """``K``, the number of buckets of the whole record."""
        k = 1
        for f in self.features:
            k *= f.size
        return k

    def apply(self, record: Mapping[str, Any]) -> int:
        """The record's bucket in ``[0, K)`` (a missing feature is OOV)."""
        if not isinstance(record, Mapping):
            raise Sa2Error("a device record is a mapping from feature name to value")
        index = 0
        for f in self.features:
            index = index * f.size + f.bucket(record.get(f.name))
        return index

    def labels(self, index: int) -> tuple[str, ...]:
        """The bucket of each feature for ``index`` (for reading a histogram)."""
        if not 0 <= index < self.size:
            raise Sa2Error(f"bucket index must lie in [0, {self.size})")
        out: list[str] = []
        for f in reversed(self.features):
            index, c = divmod(index, f.size)
            if c == OOV:
                out.append("OOV")
            elif f.intervals:
                out.append(f"[{f.intervals[c - 1]}, {f.intervals[c]})")
            else:
                out.append(f.categories[c - 1])
        return tuple(reversed(out))

    def to_json(self) -> dict[str, Any]:
        return {"features": [f.to_json() for f in self.features]}

    @staticmethod
    def from_json(doc: Any) -> Query:
        if not isinstance(doc, dict) or not isinstance(doc.get("features"), list) \
                or not doc["features"]:
            raise Sa2Error("query must be an object with a non-empty list of features")
        feats: list[Feature] = []
        for fd in doc["features"]:
            if not isinstance(fd, dict) or not isinstance(fd.get("name"), str) or not fd["name"]:
                raise Sa2Error("every query feature has a non-empty name")
            name = fd["name"]
            if ("intervals" in fd) == ("categories" in fd):
                raise Sa2Error(f"feature {name}: give exactly one of intervals, categories")
            if "intervals" in fd:
                raw = fd["intervals"]
                if not isinstance(raw, list) or len(raw) < 2:
                    raise Sa2Error(f"feature {name}: intervals lists at least two boundaries")
                bounds = tuple(exact(b, f"{name}.intervals") for b in raw)
                if any(b <= a for a, b in zip(bounds, bounds[1:], strict=False)):
                    raise Sa2Error(f"feature {name}: boundaries must increase strictly")
                feats.append(Feature(name, intervals=bounds))
            else:
                cats = fd["categories"]
                if not isinstance(cats, list) or not cats or \
                        not all(isinstance(c, str) for c in cats) or len(set(cats)) != len(cats):
                    raise Sa2Error(f"feature {name}: categories are distinct strings")
                feats.append(Feature(name, categories=tuple(cats)))
        if len({f.name for f in feats}) != len(feats):
            raise Sa2Error("feature names must be distinct")
        return Query(tuple(feats))
