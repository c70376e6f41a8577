"""The sa2-privacy vector family: compare's tolerance and the invalid cases."""

from __future__ import annotations

from dpspec.conformance.families.sa2_privacy import FAMILY
from dpspec.conformance.vectors import Case


def _cases() -> list[Case]:
    out: list[Case] = []
    for vf in FAMILY.files():
        out += FAMILY.cases(vf.path, vf.doc)
    return out


def test_every_valid_case_matches_itself_and_perturbations_are_rejected() -> None:
    for case in _cases():
        if case.expected is None:
            continue
        assert FAMILY.compare(case, dict(case.expected)) is None
        for key, value in case.expected.items():
            if key in ("epsilon", "delta", "sf", "tail", "probability") and value not in (
                    "0", "inf"):
                bumped = {**case.expected, key: str(float(value) * 1.001)}
                assert FAMILY.compare(case, bumped) is not None, (case.tc_id, key)


def test_invalid_cases_are_rejected_by_the_handlers() -> None:
    handlers = FAMILY.handlers()
    n = 0
    for case in _cases():
        if case.expected is None:
            n += 1
            try:
                handlers[case.op](case.args)
            except ValueError:
                continue
            raise AssertionError(f"tcId {case.tc_id} accepted")
    assert n >= 20
