"""The on-device privacy budget accountant of MJTB+22 sec. 4.3 (Table 1).

A device holds, per analysis, an allowed and a used cohort-aggregate budget (``eps_allowed``,
``eps_used``) and an allowed and used number of reports (``k_allowed``, ``k_used``); and per data
field, additionally an allowed *local* budget ``eps_local_allowed``. A query names its analysis,
the data fields it reads, its local budget ``eps0``, its cohort-aggregate budget ``eps`` and the
minimum cohort size ``m`` the aggregation enforces. Before answering, the device runs:

1. the analysis has budget and reports left: ``eps + eps_used <= eps_allowed`` and
   ``k_used + 1 <= k_allowed``;
2. for every data field read: ``eps0 <= eps_local_allowed``, ``eps + eps_used <= eps_allowed`` and
   ``k_used + 1 <= k_allowed`` (the query must meet the most stringent field);
3. aggregating at least ``m`` eps0-DP local reports gives the cohort-aggregate guarantee ``eps``
   at the policy's ``delta`` -- checked here with a *proven* bound: the [FMT20] numerical clone
   bound by default (any eps0-DP randomizer), or ``fmt22`` / ``closed`` (MJTB+22 Theorem 3.1,
   only inside its validity region, see :mod:`dpspec.spec.accounting.shuffle`) as the policy says.

If all pass, the update is ``eps_used += eps``, ``k_used += 1`` for the analysis and every field
read (basic composition, as in the paper); otherwise the query is refused with the failed check and
its reason, and nothing changes. Budgets are exact rationals (decimal strings in JSON), so repeated
additions never drift; the state is persisted as JSON (:meth:`Accountant.to_json`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from dpspec.spec.accounting.numeric import Real, positive_int, to_fraction
from dpspec.spec.accounting.shuffle import clone_epsilon, closed_form

FORMAT = "dpspec-budget-v1"
CHECK_BOUNDS = ("fmt20", "fmt22", "closed")


def _dec(x: Fraction) -> str:
    """A rational as a decimal string when it is one, else "p/q"."""
    if x.denominator == 1:
        return str(x.numerator)
    d = x.denominator
    twos = fives = 0
    while d % 2 == 0:
        d //= 2
        twos += 1
    while d % 5 == 0:
        d //= 5
        fives += 1
    if d != 1:
        return f"{x.numerator}/{x.denominator}"
    places = max(twos, fives)
    scaled = x * 10**places
    sign = "-" if scaled < 0 else ""
    digits = str(abs(scaled.numerator)).rjust(places + 1, "0")
    return f"{sign}{digits[:-places]}.{digits[-places:]}".rstrip("0").rstrip(".")


def _nonneg(x: Real, name: str) -> Fraction:
    v = to_fraction(x, name)
    if v < 0:
        raise ValueError(f"{name} must be >= 0")
    return v


@dataclass
class AnalysisBudget:
    """MJTB+22 Table 1a (one row)."""

    eps_allowed: Fraction
    k_allowed: int
    eps_used: Fraction = Fraction(0)
    k_used: int = 0


@dataclass
class FieldBudget:
    """MJTB+22 Table 1b (one row)."""

    eps_local_allowed: Fraction
    eps_allowed: Fraction
    k_allowed: int
    eps_used: Fraction = Fraction(0)
    k_used: int = 0


@dataclass(frozen=True)
class Query:
    """A query as the device sees it in the recipe."""

    analysis: str
    fields: tuple[str, ...]
    eps0: Fraction  # local budget of the randomizer
    eps: Fraction  # cohort-aggregate budget requested
    min_cohort: int  # m, enforced by the aggregation

    @staticmethod
    def make(analysis: str, fields: list[str] | tuple[str, ...], eps0: Real, eps: Real,
             min_cohort: int) -> Query:
        if not fields:
            raise ValueError("a query must name the data fields it reads")
        return Query(analysis, tuple(fields), _nonneg(eps0, "eps0"), _nonneg(eps, "eps"),
                     positive_int(min_cohort, "min_cohort", 2))


@dataclass(frozen=True)
class Decision:
    """The outcome of the three checks: ``allowed`` or the first failed check and why."""

    allowed: bool
    check: int  # 0 when allowed, else 1, 2 or 3
    reason: str
    cohort_eps: float | None = None  # the aggregate eps the bound gives for (eps0, m, delta)


@dataclass
class Accountant:
    """Per-analysis and per-data-field budgets of one device (MJTB+22 sec. 4.3)."""

    delta: Fraction
    analyses: dict[str, AnalysisBudget] = field(default_factory=dict)
    fields: dict[str, FieldBudget] = field(default_factory=dict)
    bound: str = "fmt20"

    def __post_init__(self) -> None:
        if self.bound not in CHECK_BOUNDS:
            raise ValueError(f"bound must be one of {', '.join(CHECK_BOUNDS)}")
        if not 0 < self.delta < 1:
            raise ValueError("delta must be in (0, 1)")

    # -- the three checks ---------------------------------------------------------------------
    def cohort_epsilon(self, eps0: Fraction, m: int) -> tuple[float, str]:
        """The aggregate eps of m eps0-DP reports at ``delta`` with the policy's bound."""
        e0 = float(eps0)
        if e0 == 0:
            return 0.0, "eps0 = 0: the reports carry no information"
        if self.bound == "closed":
            r = closed_form(e0, m, self.delta)
        else:
            r = clone_epsilon(e0, m, self.delta, self.bound)
        return r.eps, r.note

    def check(self, q: Query) -> Decision:
        a = self.analyses.get(q.analysis)
        if a is None:
            return Decision(False, 1, f"unknown analysis {q.analysis!r}")
        if q.eps + a.eps_used > a.eps_allowed:
            return Decision(False, 1, f"analysis {q.analysis!r}: eps {_dec(q.eps)} + used "
                            f"{_dec(a.eps_used)} exceeds allowed {_dec(a.eps_allowed)}")
        if a.k_used + 1 > a.k_allowed:
            return Decision(False, 1, f"analysis {q.analysis!r}: {a.k_used} of {a.k_allowed} "
                            "reports already used")
        for name in q.fields:
            f = self.fields.get(name)
            if f is None:
                return Decision(False, 2, f"unknown data field {name!r}")
            if q.eps0 > f.eps_local_allowed:
                return Decision(False, 2, f"field {name!r}: local eps0 {_dec(q.eps0)} exceeds "
                                f"allowed {_dec(f.eps_local_allowed)}")
            if q.eps + f.eps_used > f.eps_allowed:
                return Decision(False, 2, f"field {name!r}: eps {_dec(q.eps)} + used "
                                f"{_dec(f.eps_used)} exceeds allowed {_dec(f.eps_allowed)}")
            if f.k_used + 1 > f.k_allowed:
                return Decision(False, 2, f"field {name!r}: {f.k_used} of {f.k_allowed} reports "
                                "already used")
        got, how = self.cohort_epsilon(q.eps0, q.min_cohort)
        if got > q.eps:
            return Decision(False, 3, f"aggregating {q.min_cohort} reports of a {_dec(q.eps0)}-DP "
                            f"randomizer gives eps {got:.6g} > {_dec(q.eps)} at delta "
                            f"{_dec(self.delta)} ({how})", got)
        return Decision(True, 0, f"all checks pass; aggregate eps {got:.6g} <= {_dec(q.eps)} "
                        f"({how})", got)

    def commit(self, q: Query) -> Decision:
        """Check, and if allowed record the query's cost; a refused query changes nothing."""
        d = self.check(q)
        if not d.allowed:
            return d
        a = self.analyses[q.analysis]
        a.eps_used += q.eps
        a.k_used += 1
        for name in q.fields:
            f = self.fields[name]
            f.eps_used += q.eps
            f.k_used += 1
        return d

    # -- persistence ------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "delta": _dec(self.delta),
            "bound": self.bound,
            "analyses": {n: {"epsAllowed": _dec(a.eps_allowed), "epsUsed": _dec(a.eps_used),
                             "kAllowed": a.k_allowed, "kUsed": a.k_used}
                         for n, a in sorted(self.analyses.items())},
            "fields": {n: {"epsLocalAllowed": _dec(f.eps_local_allowed),
                           "epsAllowed": _dec(f.eps_allowed), "epsUsed": _dec(f.eps_used),
                           "kAllowed": f.k_allowed, "kUsed": f.k_used}
                       for n, f in sorted(self.fields.items())},
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, sort_keys=True) + "\n"

    @staticmethod
    def from_dict(doc: Any) -> Accountant:
        """Load a state or a policy (a policy is a state whose used fields may be omitted)."""
        if not isinstance(doc, dict):
            raise ValueError("budget document must be a JSON object")
        if doc.get("format", FORMAT) != FORMAT:
            raise ValueError(f"unknown budget format {doc.get('format')!r}")
        try:
            acc = Accountant(_nonneg(doc["delta"], "delta"), bound=doc.get("bound", "fmt20"))
            for name, a in doc.get("analyses", {}).items():
                acc.analyses[name] = AnalysisBudget(
                    _nonneg(a["epsAllowed"], "epsAllowed"), positive_int(a["kAllowed"], "kAllowed", 0),
                    _nonneg(a.get("epsUsed", 0), "epsUsed"), positive_int(a.get("kUsed", 0), "kUsed", 0))
            for name, f in doc.get("fields", {}).items():
                acc.fields[name] = FieldBudget(
                    _nonneg(f["epsLocalAllowed"], "epsLocalAllowed"),
                    _nonneg(f["epsAllowed"], "epsAllowed"), positive_int(f["kAllowed"], "kAllowed", 0),
                    _nonneg(f.get("epsUsed", 0), "epsUsed"), positive_int(f.get("kUsed", 0), "kUsed", 0))
        except KeyError as exc:
            raise ValueError(f"budget document lacks {exc.args[0]!r}") from exc
        return acc

    @staticmethod
    def from_json(text: str) -> Accountant:
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"budget document is not JSON: {exc.msg}") from exc
        return Accountant.from_dict(doc)


def mjtb_table1(delta: Real = "1e-6", bound: str = "fmt20") -> Accountant:
    """The hypothetical keyboard-analysis budgets of MJTB+22 Table 1, as an accountant."""
    acc = Accountant(to_fraction(delta, "delta"), bound=bound)
    acc.analyses["keyboard"] = AnalysisBudget(Fraction(1, 2), 1)
    acc.fields["n-gram"] = FieldBudget(Fraction(5), Fraction(1), 1)
    acc.fields["bucketed age"] = FieldBudget(Fraction(2), Fraction(3, 10), 1)
    acc.fields["model perplexity"] = FieldBudget(Fraction(8), Fraction(1), 1)
    return acc
