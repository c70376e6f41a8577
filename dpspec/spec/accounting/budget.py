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

Beyond the paper's basic form (each optional; the default policy is exactly the paper's):

* ``composition = "advanced"`` -- the paper's remark that the checks "can naturally be adapted to
  the advanced composition theorem": checks 1 and 2 compare ``min(basic sum, advanced(k))`` with the
  allowed budget, where ``advanced(k)`` is :func:`dpspec.spec.accounting.composition.advanced_composition`
  applied to ``k = k_used + 1`` queries of the largest epsilon spent so far (``eps_max``; a valid
  bound for heterogeneous queries, since each is ``eps_max``-DP) with slack ``delta_slack``.
  The composed delta is ``k delta + delta_slack`` (reported by :meth:`Accountant.composed`).
* ``local_model = "deletion"`` -- queries state ``eps0`` for a randomizer that is ``eps0``-DP in the
  deletion model (symmetric RAPPOR, MJTB+22 App. C); check 3 then bounds the aggregate with
  ``2 eps0`` in the replacement model (:func:`cohort_epsilon_deletion`, the deletion-model form of
  Theorem 3.1 stated after it in the paper).
* query classes (sec. 4.2) -- per analysis, an allow-list of query identifiers and/or of data
  fields (:class:`QueryClass`). When an analysis has a class, a query must name a listed
  identifier (or read only listed fields) before any budget check; failure is check 4
  ("query class", numbered after the paper's three budget checks but run first).
* :meth:`Accountant.implied_local_bound` -- the paper's remark that, without tracking local
  budgets, ``eps_local_allowed x k_allowed`` bounds the local privacy loss per field (and the
  largest field's local budget times the analysis's ``k_allowed`` bounds it for the analysis).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import mpmath

from dpspec.spec.accounting.composition import advanced_composition
from dpspec.spec.accounting.numeric import DPS, Real, positive_int, to_fraction
from dpspec.spec.accounting.shuffle import ShuffleResult, clone_epsilon, closed_form

FORMAT = "dpspec-budget-v1"
CHECK_BOUNDS = ("fmt20", "fmt22", "closed")
COMPOSITIONS = ("basic", "advanced")
LOCAL_MODELS = ("replacement", "deletion")
#: Decision.check of the query-class verification (sec. 4.2)
QUERY_CLASS_CHECK = 4


def cohort_epsilon_replacement(eps0: Real, n: int, delta: Real, bound: str = "closed"
                               ) -> ShuffleResult:
    """Aggregate (eps, delta) of ``n`` reports of an ``eps0``-DP local randomizer in the
    replacement model: MJTB+22 Theorem 3.1 (``closed``, with its validity condition and fallback)
    or a numerical clone bound (``fmt20``/``fmt22``), all from ``dpspec.spec.accounting.shuffle``."""
    if bound == "closed":
        return closed_form(eps0, n, delta)
    if bound in ("fmt20", "fmt22"):
        return clone_epsilon(eps0, n, delta, bound)
    raise ValueError(f"bound must be one of {', '.join(CHECK_BOUNDS)}")


def cohort_epsilon_deletion(eps0: Real, n: int, delta: Real, bound: str = "closed"
                            ) -> ShuffleResult:
    """The deletion-model form of MJTB+22 Theorem 3.1: ``n`` reports of a randomizer that is
    ``eps0``-DP in the *deletion* model are bounded as ``2 eps0``-DP replacement reports (a
    deletion-``eps0`` randomizer is replacement-``2 eps0``, MJTB+22 App. C), i.e. eq. (1) with
    ``eps0`` replaced by ``2 eps0`` and the condition ``2 eps0 <= log(n / (8 log(2/delta)) - 1)``.
    """
    e0 = to_fraction(eps0, "eps0")
    return cohort_epsilon_replacement(2 * e0, n, delta, bound)


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
    eps_max: Fraction = Fraction(0)  # largest eps spent (advanced composition)


@dataclass
class FieldBudget:
    """MJTB+22 Table 1b (one row)."""

    eps_local_allowed: Fraction
    eps_allowed: Fraction
    k_allowed: int
    eps_used: Fraction = Fraction(0)
    k_used: int = 0
    eps_max: Fraction = Fraction(0)  # largest eps spent (advanced composition)


@dataclass(frozen=True)
class QueryClass:
    """MJTB+22 sec. 4.2: the approved query class of an analysis, as allow-lists.

    A query is a member if its identifier is in ``queries``, or if ``fields`` is set and every data
    field it reads is in ``fields`` (the paper's "allowed set of data fields" class). An empty
    class admits nothing (the singleton class of the non-adaptive setting is ``queries = {id}``).
    """

    queries: frozenset[str] = frozenset()
    fields: frozenset[str] | None = None

    def admits(self, query_id: str | None, fields: tuple[str, ...]) -> tuple[bool, str]:
        if query_id is not None and query_id in self.queries:
            return True, f"query {query_id!r} is on the allow-list"
        if self.fields is not None:
            extra = sorted(set(fields) - self.fields)
            if not extra:
                return True, "every data field read is in the class's allowed fields"
            return False, f"data field(s) {', '.join(map(repr, extra))} outside the query class"
        if query_id is None:
            return False, "the query has no identifier and the class is an allow-list of queries"
        return False, f"query {query_id!r} is not in the approved query class"


@dataclass(frozen=True)
class Query:
    """A query as the device sees it in the recipe."""

    analysis: str
    fields: tuple[str, ...]
    eps0: Fraction  # local budget of the randomizer
    eps: Fraction  # cohort-aggregate budget requested
    min_cohort: int  # m, enforced by the aggregation
    query_id: str | None = None  # the recipe's query, for the query-class check (sec. 4.2)

    @staticmethod
    def make(analysis: str, fields: list[str] | tuple[str, ...], eps0: Real, eps: Real,
             min_cohort: int, query_id: str | None = None) -> Query:
        if not fields:
            raise ValueError("a query must name the data fields it reads")
        return Query(analysis, tuple(fields), _nonneg(eps0, "eps0"), _nonneg(eps, "eps"),
                     positive_int(min_cohort, "min_cohort", 2), query_id)


@dataclass(frozen=True)
class Decision:
    """The outcome of the three checks: ``allowed`` or the first failed check and why."""

    allowed: bool
    check: int  # 0 when allowed, else 1, 2, 3 or 4 (QUERY_CLASS_CHECK)
    reason: str
    cohort_eps: float | None = None  # the aggregate eps the bound gives for (eps0, m, delta)


@dataclass
class Accountant:
    """Per-analysis and per-data-field budgets of one device (MJTB+22 sec. 4.3)."""

    delta: Fraction
    analyses: dict[str, AnalysisBudget] = field(default_factory=dict)
    fields: dict[str, FieldBudget] = field(default_factory=dict)
    bound: str = "fmt20"
    composition: str = "basic"
    delta_slack: Fraction = Fraction(0)  # advanced composition's delta'
    local_model: str = "replacement"
    query_classes: dict[str, QueryClass] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.bound not in CHECK_BOUNDS:
            raise ValueError(f"bound must be one of {', '.join(CHECK_BOUNDS)}")
        if not 0 < self.delta < 1:
            raise ValueError("delta must be in (0, 1)")
        if self.composition not in COMPOSITIONS:
            raise ValueError(f"composition must be one of {', '.join(COMPOSITIONS)}")
        if self.composition == "advanced" and not 0 < self.delta_slack < 1:
            raise ValueError("advanced composition needs delta_slack in (0, 1)")
        if self.local_model not in LOCAL_MODELS:
            raise ValueError(f"local_model must be one of {', '.join(LOCAL_MODELS)}")

    # -- composition --------------------------------------------------------------------------
    def composed(self, eps_used: Fraction, eps_max: Fraction, k: int) -> tuple[Any, Any]:
        """(eps, delta) of ``k`` queries that spent ``eps_used`` in total, none more than
        ``eps_max``, each at the policy's ``delta``: basic composition, or in advanced mode the
        smaller of basic and [DR14] Theorem 3.20 (both valid; the delta is the larger of the two)."""
        with mpmath.workdps(DPS):
            basic = mpmath.mpf(eps_used.numerator) / eps_used.denominator
            d_basic = k * (mpmath.mpf(self.delta.numerator) / self.delta.denominator)
            if self.composition == "basic" or k == 0:
                return basic, d_basic
            adv, d_adv = advanced_composition(eps_max, self.delta, k, self.delta_slack)
            return min(basic, adv), max(d_basic, d_adv)

    def _over(self, eps_used: Fraction, eps_max: Fraction, k_used: int, q: Query,
              allowed: Fraction) -> tuple[bool, str]:
        """Whether spending ``q.eps`` exceeds ``allowed``; the spent amount as text."""
        if self.composition == "basic":
            return q.eps + eps_used > allowed, f"eps {_dec(q.eps)} + used {_dec(eps_used)}"
        eps, _ = self.composed(eps_used + q.eps, max(eps_max, q.eps), k_used + 1)
        with mpmath.workdps(DPS):
            over = eps > mpmath.mpf(allowed.numerator) / allowed.denominator
        return bool(over), f"composed eps {mpmath.nstr(eps, 8)} over {k_used + 1} queries"

    def implied_local_bound(self) -> dict[str, Any]:
        """MJTB+22 sec. 4.3, last paragraph: the local privacy loss the limits on reports imply
        (basic composition of at most ``k_allowed`` reports of at most ``eps_local_allowed``)."""
        fields = {n: f.eps_local_allowed * f.k_allowed for n, f in sorted(self.fields.items())}
        top = max((f.eps_local_allowed for f in self.fields.values()), default=Fraction(0))
        return {"fields": {n: _dec(v) for n, v in fields.items()},
                "analyses": {n: _dec(top * a.k_allowed) for n, a in sorted(self.analyses.items())}}

    # -- the checks ---------------------------------------------------------------------------
    def cohort_epsilon(self, eps0: Fraction, m: int) -> tuple[float, str]:
        """The aggregate eps of m eps0-DP reports at ``delta`` with the policy's bound (and, for
        ``local_model = "deletion"``, the deletion-model form of Theorem 3.1)."""
        if eps0 == 0:
            return 0.0, "eps0 = 0: the reports carry no information"
        if self.local_model == "deletion":
            r = cohort_epsilon_deletion(eps0, m, self.delta, self.bound)
            return r.eps, f"deletion-model eps0, bounded as 2 eps0 replacement: {r.note}"
        r = cohort_epsilon_replacement(float(eps0), m, self.delta, self.bound)
        return r.eps, r.note

    def check(self, q: Query) -> Decision:
        a = self.analyses.get(q.analysis)
        if a is None:
            return Decision(False, 1, f"unknown analysis {q.analysis!r}")
        qc = self.query_classes.get(q.analysis)
        if qc is not None:
            ok, why = qc.admits(q.query_id, q.fields)
            if not ok:
                return Decision(False, QUERY_CLASS_CHECK, f"analysis {q.analysis!r}: {why}")
        over, spent = self._over(a.eps_used, a.eps_max, a.k_used, q, a.eps_allowed)
        if over:
            return Decision(False, 1, f"analysis {q.analysis!r}: {spent} exceeds allowed "
                            f"{_dec(a.eps_allowed)}")
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
            over, spent = self._over(f.eps_used, f.eps_max, f.k_used, q, f.eps_allowed)
            if over:
                return Decision(False, 2, f"field {name!r}: {spent} exceeds allowed "
                                f"{_dec(f.eps_allowed)}")
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
        a.eps_max = max(a.eps_max, q.eps)
        for name in q.fields:
            f = self.fields[name]
            f.eps_used += q.eps
            f.k_used += 1
            f.eps_max = max(f.eps_max, q.eps)
        return d

    # -- persistence ------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The state; the optional keys (composition, localModel, queryClasses, epsMax) appear
        only when they differ from the paper's basic form, so basic states are unchanged."""
        adv = self.composition == "advanced"
        out: dict[str, Any] = {
            "format": FORMAT,
            "delta": _dec(self.delta),
            "bound": self.bound,
            "analyses": {n: {"epsAllowed": _dec(a.eps_allowed), "epsUsed": _dec(a.eps_used),
                             "kAllowed": a.k_allowed, "kUsed": a.k_used,
                             **({"epsMax": _dec(a.eps_max)} if adv else {})}
                         for n, a in sorted(self.analyses.items())},
            "fields": {n: {"epsLocalAllowed": _dec(f.eps_local_allowed),
                           "epsAllowed": _dec(f.eps_allowed), "epsUsed": _dec(f.eps_used),
                           "kAllowed": f.k_allowed, "kUsed": f.k_used,
                           **({"epsMax": _dec(f.eps_max)} if adv else {})}
                       for n, f in sorted(self.fields.items())},
        }
        if adv:
            out["composition"] = {"mode": "advanced", "deltaSlack": _dec(self.delta_slack)}
        if self.local_model != "replacement":
            out["localModel"] = self.local_model
        if self.query_classes:
            out["queryClasses"] = {
                n: {"queries": sorted(c.queries),
                    **({"fields": sorted(c.fields)} if c.fields is not None else {})}
                for n, c in sorted(self.query_classes.items())}
        return out

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
            comp = doc.get("composition", {"mode": "basic"})
            if not isinstance(comp, dict):
                raise ValueError("composition must be an object with 'mode' (and 'deltaSlack')")
            acc = Accountant(_nonneg(doc["delta"], "delta"), bound=doc.get("bound", "fmt20"),
                             composition=comp.get("mode", "basic"),
                             delta_slack=_nonneg(comp.get("deltaSlack", 0), "deltaSlack"),
                             local_model=doc.get("localModel", "replacement"))
            for name, a in doc.get("analyses", {}).items():
                acc.analyses[name] = AnalysisBudget(
                    _nonneg(a["epsAllowed"], "epsAllowed"), positive_int(a["kAllowed"], "kAllowed", 0),
                    _nonneg(a.get("epsUsed", 0), "epsUsed"), positive_int(a.get("kUsed", 0), "kUsed", 0),
                    _nonneg(a.get("epsMax", 0), "epsMax"))
            for name, f in doc.get("fields", {}).items():
                acc.fields[name] = FieldBudget(
                    _nonneg(f["epsLocalAllowed"], "epsLocalAllowed"),
                    _nonneg(f["epsAllowed"], "epsAllowed"), positive_int(f["kAllowed"], "kAllowed", 0),
                    _nonneg(f.get("epsUsed", 0), "epsUsed"), positive_int(f.get("kUsed", 0), "kUsed", 0),
                    _nonneg(f.get("epsMax", 0), "epsMax"))
            for name, c in doc.get("queryClasses", {}).items():
                if not isinstance(c, dict) or not all(
                        isinstance(x, str) for x in [*c.get("queries", []), *c.get("fields", [])]):
                    raise ValueError(f"query class {name!r}: lists of strings 'queries', 'fields'")
                acc.query_classes[name] = QueryClass(
                    frozenset(c.get("queries", [])),
                    frozenset(c["fields"]) if "fields" in c else None)
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
