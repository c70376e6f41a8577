"""MJTB+22 sec. 4.2-4.3 beyond the basic accountant: advanced composition, the implied local
bound, the deletion-model form of Theorem 3.1 and the query-class allow-list
(dpspec.spec.accounting.budget)."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest

from dpspec.spec.accounting import budget
from dpspec.spec.accounting.composition import advanced_composition
from dpspec.spec.accounting.shuffle import closed_form, closed_form_condition


def _acc(composition: str = "basic") -> budget.Accountant:
    acc = budget.Accountant(Fraction(1, 10**6), bound="closed", composition=composition,
                            delta_slack=Fraction(1, 10**6) if composition == "advanced"
                            else Fraction(0))
    acc.analyses["a"] = budget.AnalysisBudget(Fraction(3), 1000)
    acc.fields["f"] = budget.FieldBudget(Fraction(8), Fraction(3), 1000)
    return acc


def test_advanced_composition_admits_more_small_queries_than_basic() -> None:
    eps = Fraction(1, 20)
    counts = {}
    for mode in ("basic", "advanced"):
        acc = _acc(mode)
        n = 0
        while acc.commit(budget.Query.make("a", ["f"], "0.5", eps, 10**6)).allowed:
            n += 1
        counts[mode] = n
        last = acc.check(budget.Query.make("a", ["f"], "0.5", eps, 10**6))
        assert last.check in (1, 2) and not last.allowed
    assert counts["basic"] == 60
    assert counts["advanced"] == 107 > counts["basic"]
    # the advanced count is exactly the largest k whose composed epsilon stays within budget
    k = counts["advanced"]
    assert advanced_composition(eps, Fraction(1, 10**6), k, Fraction(1, 10**6))[0] <= 3
    assert advanced_composition(eps, Fraction(1, 10**6), k + 1, Fraction(1, 10**6))[0] > 3


def test_advanced_is_never_worse_than_basic_and_reports_delta() -> None:
    acc = _acc("advanced")
    eps, d = acc.composed(Fraction(2), Fraction(1), 2)  # two 1-DP queries: basic is better
    assert eps == 2
    assert abs(d - mpmath.mpf("3e-6")) < mpmath.mpf(10) ** -15  # k delta + delta_slack


def test_state_round_trip_keeps_modes() -> None:
    acc = _acc("advanced")
    acc.local_model = "deletion"
    acc.query_classes["a"] = budget.QueryClass(frozenset({"q1"}), frozenset({"f"}))
    acc.commit(budget.Query.make("a", ["f"], 1, "0.25", 10**6, "q1"))
    again = budget.Accountant.from_json(acc.to_json())
    assert again.to_json() == acc.to_json()
    assert again.analyses["a"].eps_max == Fraction(1, 4)
    # a basic state is written exactly as before (no optional keys)
    doc = budget.mjtb_table1().to_dict()
    assert set(doc) == {"format", "delta", "bound", "analyses", "fields"}
    with pytest.raises(ValueError):
        budget.Accountant(Fraction(1, 10**6), composition="advanced")  # no delta_slack
    with pytest.raises(ValueError):
        budget.Accountant.from_dict({"delta": "1e-6", "composition": "advanced"})


def test_implied_local_bound_table1() -> None:
    b = budget.mjtb_table1().implied_local_bound()
    assert b["fields"] == {"bucketed age": "2", "model perplexity": "8", "n-gram": "5"}
    assert b["analyses"] == {"keyboard": "8"}


def test_deletion_form_of_theorem_31_is_the_replacement_bound_at_twice_eps0() -> None:
    for eps0, n in ((Fraction(1, 2), 10**6), (Fraction(2), 10**7), (Fraction(3), 10**4)):
        r = budget.cohort_epsilon_deletion(eps0, n, "1e-6")
        direct = closed_form(2 * eps0, n, "1e-6")
        assert (r.eps, r.bound, r.valid) == (direct.eps, direct.bound, direct.valid)
        assert r.valid == closed_form_condition(2 * eps0, n, "1e-6")[0]
    # deletion eps0 costs more than the same replacement eps0
    assert (budget.cohort_epsilon_deletion(1, 10**6, "1e-6").eps
            > budget.cohort_epsilon_replacement(1, 10**6, "1e-6").eps)


def test_deletion_local_model_in_check_3() -> None:
    acc = budget.mjtb_table1()
    q = budget.Query.make("keyboard", ["n-gram"], 3, "0.5", 5000)
    assert acc.check(q).allowed
    acc.local_model = "deletion"
    d = acc.check(q)
    assert not d.allowed and d.check == 3 and "deletion-model" in d.reason


def test_query_class_allow_list() -> None:
    acc = budget.mjtb_table1()
    acc.query_classes["keyboard"] = budget.QueryClass(frozenset({"ngram-age-v1"}))
    ok = budget.Query.make("keyboard", ["n-gram"], 3, "0.5", 5000, "ngram-age-v1")
    assert acc.check(ok).allowed
    bad = budget.Query.make("keyboard", ["n-gram"], 3, "0.5", 5000, "location-v1")
    d = acc.commit(bad)
    assert (d.allowed, d.check) == (False, budget.QUERY_CLASS_CHECK)
    assert acc.analyses["keyboard"].k_used == 0  # a refused query changes nothing
    anon = budget.Query.make("keyboard", ["n-gram"], 3, "0.5", 5000)
    assert acc.check(anon).check == budget.QUERY_CLASS_CHECK
    # field-based class: any query reading only allowed fields
    acc.query_classes["keyboard"] = budget.QueryClass(fields=frozenset({"n-gram"}))
    assert acc.check(anon).allowed
    age = budget.Query.make("keyboard", ["n-gram", "bucketed age"], 2, "0.3", 10**6)
    d = acc.check(age)
    assert d.check == budget.QUERY_CLASS_CHECK and "bucketed age" in d.reason
