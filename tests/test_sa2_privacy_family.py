"""The sa2-privacy and sa2-experiments vector families: compare's tolerance, invalid cases."""

from __future__ import annotations

import pytest

from dpspec.conformance.families import sa2_experiments, sa2_population, sa2_privacy
from dpspec.conformance.vectors import Case, Family

FAMILIES = [sa2_privacy.FAMILY, sa2_experiments.FAMILY, sa2_population.FAMILY]
REALS = ("epsilon", "delta", "sf", "tail", "probability", "sigma", "sigmaSampled", "error",
         "collision", "agg", "sampagg", "epsKnown", "epsSecret", "ratio")


def _cases(family: Family) -> list[Case]:
    out: list[Case] = []
    for vf in family.files():
        out += family.cases(vf.path, vf.doc)
    return out


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
def test_valid_cases_match_and_perturbed_reals_are_rejected(family: Family) -> None:
    bumped_any = 0
    for case in _cases(family):
        if case.expected is None:
            continue
        assert family.compare(case, dict(case.expected)) is None
        for key, value in case.expected.items():
            if key in REALS and isinstance(value, str) and value not in ("0", "inf"):
                bumped = {**case.expected, key: str(float(value) * 1.00001)}
                assert family.compare(case, bumped) is not None, (case.tc_id, key)
                bumped_any += 1
        assert family.compare(case, {**case.expected, "extra": 1}) is not None
        first = sorted(case.expected)[0]
        missing = {k: v for k, v in case.expected.items() if k != first}
        assert family.compare(case, missing) is not None
    assert bumped_any > 20 or family is sa2_population.FAMILY


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
def test_invalid_cases_are_rejected_by_the_handlers(family: Family) -> None:
    handlers = family.handlers()
    n = 0
    for case in _cases(family):
        if case.expected is None:
            n += 1
            with pytest.raises(ValueError):
                handlers[case.op](case.args)
    assert n >= 3


def test_list_outputs_compare_elementwise() -> None:
    want = {"agg": ["1.5", "2"], "ms": [1, 2]}
    real = lambda k: k != "ms"  # noqa: E731
    rel = sa2_privacy.REL_TOL
    assert sa2_privacy.compare_outputs(want, {"agg": ["1.5", "2.0"], "ms": [1, 2]}, real,
                                       rel) is None
    assert sa2_privacy.compare_outputs(want, {"agg": ["1.5"], "ms": [1, 2]}, real, rel)
    assert sa2_privacy.compare_outputs(want, {"agg": ["1.5", "2.1"], "ms": [1, 2]}, real, rel)
    assert sa2_privacy.compare_outputs(want, {"agg": ["1.5", "inf"], "ms": [1, 2]}, real, rel)
    assert sa2_privacy.compare_outputs(want, {"agg": ["1.5", "2"], "ms": [1, 3]}, real, rel)
    assert sa2_privacy.compare_outputs(want, [], real, rel)
