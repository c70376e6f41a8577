"""The vdaf-arith vectors hold what they claim: the committed files are the generated ones, every
invalid case is refused and every perturbed output is caught by the family's compare, and the
published values agree with the textbook definitions (the DFT sum and Lagrange's formula)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dpspec.conformance.families.vdaf_arith import FAMILY, HANDLERS, REJECTS
from dpspec.conformance.vectors import Case
from dpspec.spec.field import FIELDS
from dpspec.spec.flp import poly

VECTORS = Path(__file__).resolve().parent.parent / "vectors"
FILES = ("field", "ntt", "poly", "gadgets")


def _cases() -> list[Case]:
    out: list[Case] = []
    for name in FILES:
        path = f"vdaf-arith/{name}.json"
        out += FAMILY.cases(path, json.loads((VECTORS / path).read_text()))
    return out


CASES = _cases()


def test_the_committed_files_are_the_generated_ones() -> None:
    for vf in FAMILY.files():
        assert json.loads((VECTORS / vf.path).read_text()) == vf.doc, vf.path


def test_every_op_has_valid_and_invalid_cases_where_it_checks_inputs() -> None:
    valid = {c.op for c in CASES if c.result == "valid"}
    invalid = {c.op for c in CASES if c.result == "invalid"}
    assert valid == set(HANDLERS)
    # only pow (no input check of its own) and vec_neg (none) have no invalid case
    assert set(HANDLERS) - invalid == {"vdaf.field.pow", "vdaf.field.vec_neg"}


def test_invalid_cases_are_refused() -> None:
    refused = 0
    for case in CASES:
        if case.result != "invalid":
            continue
        with pytest.raises(REJECTS):
            HANDLERS[case.op](dict(case.args))
        refused += 1
    assert refused >= 100


def _perturb(value: Any) -> Any:
    """A wrong answer of the same form: a decimal string or integer moved by one, a hex string
    with its first byte changed (or one byte added), a list with its first entry perturbed (or
    one entry added when empty)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        if value.lstrip("-").isdigit():
            return str(int(value) + 1)
        return ("%02x" % (int(value[:2], 16) ^ 1)) + value[2:] if value else "00"
    if isinstance(value, list):
        return [_perturb(value[0]), *value[1:]] if value else ["0"]
    raise AssertionError(f"unexpected output {value!r}")


def test_compare_accepts_the_outputs_and_rejects_every_perturbed_output() -> None:
    checked = 0
    for case in CASES:
        if case.result != "valid":
            continue
        assert case.expected is not None
        assert FAMILY.compare(case, dict(case.expected)) is None
        for key in case.expected:
            wrong = {**case.expected, key: _perturb(case.expected[key])}
            assert FAMILY.compare(case, wrong) is not None, (case.path, case.tc_id, key)
            checked += 1
        assert FAMILY.compare(case, {**case.expected, "extra": 1}) is not None
    assert checked >= 600


def _valid(op: str) -> list[Case]:
    return [c for c in CASES if c.op == op and c.result == "valid"]


def _ints(xs: list[str]) -> list[int]:
    return [int(x) for x in xs]


def test_ntt_values_are_the_dft_sums() -> None:
    for case in _valid("vdaf.field.ntt"):
        field = FIELDS[case.args["field"]]
        coeffs = [c % field.MODULUS for c in _ints(case.args["coeffs"])]
        assert case.expected is not None
        want = poly.ntt_textbook(field, coeffs, case.args["n"], case.args["setS"])
        assert _ints(case.expected["values"]) == want, case.comment


def test_inv_ntt_coefficients_are_the_inverse_dft() -> None:
    for case in _valid("vdaf.field.inv_ntt"):
        field = FIELDS[case.args["field"]]
        assert case.expected is not None
        want = poly.inv_ntt_textbook(field, _ints(case.args["values"]), case.args["n"])
        assert _ints(case.expected["coeffs"]) == want, case.comment


def test_lagrange_evaluations_follow_lagranges_formula() -> None:
    for case in _valid("vdaf.poly.eval"):
        field = FIELDS[case.args["field"]]
        values = _ints(case.args["p"])
        n = len(values)
        roots = list(poly.root_powers(field, n))
        x = int(case.args["x"]) % field.MODULUS
        if x in roots:
            want = values[roots.index(x)]
        else:
            want = poly.interpolate_eval_textbook(field, roots, values, x)
        assert case.expected is not None
        assert int(case.expected["value"]) == want, case.comment


def test_elements_signed_and_decoded_values_are_consistent() -> None:
    for case in _valid("vdaf.field.element"):
        field = FIELDS[case.args["field"]]
        p = field.MODULUS
        assert case.expected is not None
        val, signed = int(case.expected["val"]), int(case.expected["signed"])
        assert 0 <= val < p and -p // 2 < signed <= p // 2 and (signed - val) % p == 0
        assert val == int(case.args["val"]) % p
        decoded = HANDLERS["vdaf.field.decode_vec"]({"field": case.args["field"],
                                                     "encoded": case.expected["encoded"]})
        assert decoded == {"vec": [str(val)]}


def test_gadget_polynomials_agree_with_the_gadget_at_the_roots() -> None:
    """eval_poly's output at w_M^(i * M / m) (the m-th roots) is eval of the wires' values there."""
    for case in _valid("vdaf.flp.gadget_eval_poly"):
        field = FIELDS[case.args["field"]]
        wires = [_ints(w) for w in case.args["wires"]]
        assert case.expected is not None
        out = _ints(case.expected["out"])
        m, big = len(wires[0]), len(out)
        for i in range(m):
            inputs = [str(w[i]) for w in wires]
            args = {"field": case.args["field"], "gadget": case.args["gadget"], "inputs": inputs}
            got = HANDLERS["vdaf.flp.gadget_eval"](args)
            assert int(got["out"]) == out[i * big // m] % field.MODULUS, case.comment
