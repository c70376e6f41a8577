"""The transcripts and boundary vectors added to sa2-experiments and sa2-privacy: what they pin."""

from __future__ import annotations

from fractions import Fraction

import pytest

from dpspec.conformance.families import sa2_experiments as sx
from dpspec.conformance.families import sa2_privacy as sp
from dpspec.conformance.vectors import Case
from dpspec.spec.sa2 import experiments as ex


def _case(op: str, args: dict[str, object]) -> Case:
    return next(c for c in _all() if c.op == op and c.args == args)


def _all() -> list[Case]:
    fam = sx.FAMILY
    out: list[Case] = []
    for vf in fam.files():
        out += fam.cases(vf.path, vf.doc)
    return out


def test_rdp_curve_lists_every_order_and_its_minimum() -> None:
    args = {"q": "1/2", "sigma": "40", "tasks": 1, "delta": "1/1000000"}
    out = sx.h_rdp_curve(args)
    assert out["orders"] == list(ex.ORDERS)
    assert len(out["rdp"]) == len(ex.ORDERS)
    assert out["order"] in ex.ORDERS
    # the RDP of the subsampled Gaussian is non-decreasing in the order
    rdp = [float(r) for r in out["rdp"]]
    assert rdp == sorted(rdp)
    case = _case("sa2x.rdp_curve", args)
    changed = dict(out, orders=[3 if a == 2 else a for a in out["orders"]])
    assert sx.FAMILY.compare(case, changed) is not None


def test_setting_boundaries() -> None:
    base = {"d": 2, "n": 2, "tasks": 1, "eps": "50", "delta": "1/100000"}
    assert sx.h_setting(base)["setting"] == "d = 2, n = 2, K = 1, eps = 50, delta = 1e-5, uniform"
    for bad in ({"d": 1}, {"n": 1}, {"tasks": 0}, {"eps": "501/10"}, {"delta": "1"},
                {"sparsity": "1"}, {"sparsity": "0"}):
        with pytest.raises(ValueError):
            sx.h_setting({**base, **bad})


def test_run_count_cap_is_reported_as_the_largest_power_of_two() -> None:
    g = ex.sampling_gain(Fraction(1, 10**7), Fraction(1, 10**20), Fraction(1, 2), 2,
                         Fraction(1, 10**7), Fraction(1), Fraction(1, 10**6))
    assert g.runs_known == g.runs_secret == 2**39


def test_no_sigma_below_the_cap_is_refused() -> None:
    with pytest.raises(ValueError):
        sx.h_sampagg_noise({"q": "1", "eps": "1/1000000000", "delta": "1/1000000", "tasks": 300})


def test_dummy_rate_for_default_denominator_and_tie() -> None:
    r = sp.h_dummy_rate_for({"eps": "1", "delta": "1/1000", "others": 20})["rate"]
    num, den = (int(x) for x in r.split("/"))
    assert 10**9 % den == 0 and 0 < num <= den
    tie = {"eps": "0", "delta": "1/2", "others": 0, "denominator": 4}
    assert sp.h_dummy_rate_for(tie) == {"rate": "1/2"}
