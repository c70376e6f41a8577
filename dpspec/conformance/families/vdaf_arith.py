"""Vector family ``vdaf-arith``: the arithmetic layer under Prio3 (VDAF draft-irtf-cfrg-vdaf-20).

The ``vdaf`` and ``vdaf-checks`` families exercise the fields, the NTT, the polynomials and the
gadgets only through whole proofs, where most of their decision points never come up (no
element is ever out of range, no NTT size is refused, a gadget always gets the right number of
inputs). This family publishes them one function at a time, at the boundaries:

* ``field.json``: Field64 and Field128 (sec. 6.1, 6.1.1, 6.1.2, 6.1.4): the range check of an
  element, its signed representative, add/sub/mul/neg on the boundary elements
  ``0, 1, (p-1)/2, (p+1)/2, p-1``, inverse and division (refused for 0), powers, ``zeros``,
  ``nth_root`` at n = 1, 2, 4, 8, 16, GEN_ORDER/2 and GEN_ORDER (refused at 0, -1, -2, 3, 6,
  GEN_ORDER +- 1 and 2 GEN_ORDER), the vector helpers (sizes must agree), vectors given by
  canonical representatives (each in [0, MODULUS)), and ``encode_vec``/``decode_vec`` (refused:
  a ragged length, an encoded value >= MODULUS);
* ``ntt.json``: ``ntt`` (with and without the coset shift ``s = nth_root(2n)``) and ``inv_ntt``
  at n = 1, 2, 4, 8, 16 (sec. 6.1.2), refused for n not a power of two, too many coefficients or
  the wrong number of values. Sizes above GEN_ORDER are refused by ``nth_root`` (field.json); no
  transform of such a size is published, since an implementation that missed the check would
  try to compute one of 2^33 points or more;
* ``poly.json``: the ``Lagrange`` methods of sec. 6.1.3 (``poly_mul``, ``poly_eval``,
  ``poly_eval_batched``, ``extend_values_to_power_of_2``, ``double_evaluations``) and the
  zero-padded batched evaluation the FLP's verifier uses for its wire polynomials (sec. 7.3.3);
* ``gadgets.json``: the gadgets of appendix A (``Mul``, ``PolyEval``, ``ParallelSum``, nested):
  ARITY, DEGREE, ``eval`` on field elements and ``eval_poly`` on wire polynomials in the
  Lagrange basis.

Field elements and other unbounded integers are decimal strings (Field128 values exceed what a
binary64 JSON number holds); sizes and counts are JSON integers; bytes are lower-case hex.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dpspec.conformance.jsonargs import any_value_ops, hex_arg, json_int_arg, parse_int
from dpspec.conformance.vectors import (
    Family,
    Handler,
    InvalidCase,
    TestNumberer,
    VectorFile,
    family_schema,
    invalid_tests,
    test_entry,
    vector_seed,
)
from dpspec.spec.field import FIELDS, Field, Field64, Field128, vec_add, vec_neg, vec_sub
from dpspec.spec.flp import poly
from dpspec.spec.flp.gadgets import Gadget, Mul, ParallelSum, PolyEval

SCHEMA = "vdaf_arith-v1.json"
#: refusals: a handler raises ValueError, or ZeroDivisionError for the inverse of 0
REJECTS = (ValueError, ZeroDivisionError)

HEADER = [
    "The arithmetic under Prio3 (VDAF draft-irtf-cfrg-vdaf-20): the fields Field64 and Field128",
    "(sec. 6.1: MODULUS = 2^32 * 4294967295 + 1, resp. 2^66 * 4611686018427387897 + 1; ENCODED_SIZE",
    "8, resp. 16; GEN_ORDER 2^32, resp. 2^66; generator 7^4294967295, resp. 7^4611686018427387897),",
    "the NTT (sec. 6.1.2), polynomials in the Lagrange basis (sec. 6.1.3) and the FLP gadgets",
    "(appendix A). Field elements and other integers are decimal strings; a field element in the",
    "inputs is an integer in (-MODULUS, MODULUS) read modulo MODULUS, in the outputs the canonical",
    "representative in [0, MODULUS). Encodings are little-endian, ENCODED_SIZE bytes per element",
    "(sec. 6.1.1). A polynomial in the Lagrange basis is the list of its values at the n-th roots",
    "of unity w^0, ..., w^(n-1), w = nth_root(n) = generator^(GEN_ORDER / n), n a power of two.",
    "An invalid test must be refused (an error, no output).",
]
NOTES = {
    "Boundary": "An element at an end of a range: 0, 1, (p-1)/2, (p+1)/2, p-1, or a size at an"
                " end of what is allowed (n = 1, n = GEN_ORDER, k = n, an empty vector).",
    "OutOfRange": "An integer outside (-MODULUS, MODULUS) given as a field element, or outside"
                  " [0, MODULUS) where a canonical representative is required.",
    "ZeroInverse": "0 has no multiplicative inverse: inv(0) and x / 0 must fail.",
    "BadLength": "Vectors or polynomials whose sizes do not fit together, or an encoding whose"
                 " length is not a multiple of ENCODED_SIZE.",
    "Overflow": "An encoded element >= MODULUS (sec. 6.1.1: decoding must fail).",
    "BadSize": "A size that is not a power of two in [1, GEN_ORDER] where one is required.",
    "BadGadget": "Gadget parameters outside their range: the zero polynomial, num_calls < 1,"
                 " count < 1.",
    "BadArity": "A gadget given a number of inputs (or wire polynomials) other than its ARITY.",
    "CosetShift": "ntt with set_s: the values at s * w^i, s = nth_root(2n) (sec. 6.1.2).",
    "ZeroPadded": "Wire polynomials listed by fewer than n values: the missing trailing values"
                  " are 0 (how the FLP's wire polynomials are mostly zero, sec. 7.3.3).",
    "LongWires": "Wire polynomials longer than the PolyEval gadget's num_calls provides for: the"
                 " subcircuit's output has the wrong length, which ParallelSum must refuse.",
}


# -- argument parsing ------------------------------------------------------------------------------
def _field(args: dict[str, Any]) -> type[Field]:
    name = args.get("field")
    if not isinstance(name, str) or name not in FIELDS:
        raise ValueError(f"field must be one of {sorted(FIELDS)}")
    return FIELDS[name]


def _int(args: dict[str, Any], key: str) -> int:
    if key not in args:
        raise ValueError(f"missing argument {key}")
    return parse_int(args[key], key)


def _ints(value: Any, key: str) -> list[int]:
    if not isinstance(value, list):
        raise ValueError(f"{key} must be a list of decimal integers")
    return [parse_int(v, key) for v in value]


def _int_list(args: dict[str, Any], key: str) -> list[int]:
    if key not in args:
        raise ValueError(f"missing argument {key}")
    return _ints(args[key], key)


def _int_lists(args: dict[str, Any], key: str) -> list[list[int]]:
    value = args.get(key)
    if not isinstance(value, list):
        raise ValueError(f"{key} must be a list of lists of decimal integers")
    return [_ints(v, key) for v in value]


def _elements(field: type[Field], args: dict[str, Any], key: str) -> list[Field]:
    return [field(v) for v in _int_list(args, key)]


def _bool(args: dict[str, Any], key: str) -> bool:
    value = args.get(key)
    if not isinstance(value, bool):
        raise ValueError(f"{key} must be true or false")
    return value


def _dec(x: Field | int) -> str:
    return str(x.val if isinstance(x, Field) else x)


def _decs(xs: Any) -> list[str]:
    return [_dec(x) for x in xs]


# -- fields (sec. 6.1) -----------------------------------------------------------------------------
def op_element(args: dict[str, Any]) -> dict[str, Any]:
    """``vdaf.field.element`` {field, val}: the element ``Field(val)``: its canonical value, its
    signed representative in (-p/2, p/2] and its encoding."""
    field = _field(args)
    x = field(_int(args, "val"))
    return {"val": _dec(x), "signed": str(x.signed()), "encoded": field.encode_vec([x]).hex()}


def op_arith(args: dict[str, Any]) -> dict[str, Any]:
    """``vdaf.field.arith`` {field, a, b}: a + b, a - b, a * b, -a."""
    field = _field(args)
    a, b = field(_int(args, "a")), field(_int(args, "b"))
    return {"sum": _dec(a + b), "difference": _dec(a - b), "product": _dec(a * b), "negation": _dec(-a)}


def op_div(args: dict[str, Any]) -> dict[str, Any]:
    """``vdaf.field.div`` {field, a, b}: b^-1 and a / b; refused for b = 0."""
    field = _field(args)
    a, b = field(_int(args, "a")), field(_int(args, "b"))
    return {"inverse": _dec(b.inv()), "quotient": _dec(a / b)}


def op_pow(args: dict[str, Any]) -> dict[str, Any]:
    """``vdaf.field.pow`` {field, a, exp}: a^exp, exp >= 0 (0^0 = 1)."""
    field = _field(args)
    a, exp = field(_int(args, "a")), _int(args, "exp")
    if exp < 0:
        raise ValueError("exp must be >= 0")
    return {"power": _dec(a**exp)}


def op_zeros(args: dict[str, Any]) -> dict[str, Any]:
    """``vdaf.field.zeros`` {field, length}: the zero vector; refused for length < 0."""
    return {"vec": _decs(_field(args).zeros(json_int_arg(args, "length")))}


def op_nth_root(args: dict[str, Any]) -> dict[str, Any]:
    """``vdaf.field.nth_root`` {field, n}: generator^(GEN_ORDER / n), n a power of two in
    [1, GEN_ORDER]; ``gen`` is the generator itself (nth_root(GEN_ORDER))."""
    field = _field(args)
    return {"root": _dec(field.nth_root(_int(args, "n"))), "gen": _dec(field.gen())}


def op_vec_add(args: dict[str, Any]) -> dict[str, Any]:
    """``vdaf.field.vec_add`` {field, left, right}: the element-wise sum; refused when the
    lengths differ (also when one vector is empty)."""
    field = _field(args)
    return {"sum": _decs(vec_add(_elements(field, args, "left"), _elements(field, args, "right")))}


def op_vec_sub(args: dict[str, Any]) -> dict[str, Any]:
    """``vdaf.field.vec_sub`` {field, left, right}: the element-wise difference (lengths as for
    ``vec_add``)."""
    field = _field(args)
    return {"difference": _decs(vec_sub(_elements(field, args, "left"), _elements(field, args, "right")))}


def op_vec_neg(args: dict[str, Any]) -> dict[str, Any]:
    """``vdaf.field.vec_neg`` {field, vec}: the element-wise negation."""
    field = _field(args)
    return {"negation": _decs(vec_neg(_elements(field, args, "vec")))}


def op_canonical(args: dict[str, Any]) -> dict[str, Any]:
    """``vdaf.field.canonical`` {field, values}: a vector given by canonical representatives
    (each in [0, MODULUS), checked), read back as elements."""
    field = _field(args)
    return {"vec": _decs(field.from_reduced(_int_list(args, "values")))}


def op_encode_vec(args: dict[str, Any]) -> dict[str, Any]:
    """``vdaf.field.encode_vec`` {field, vec} (sec. 6.1.1)."""
    field = _field(args)
    return {"encoded": field.encode_vec(_elements(field, args, "vec")).hex()}


def op_decode_vec(args: dict[str, Any]) -> dict[str, Any]:
    """``vdaf.field.decode_vec`` {field, encoded} (sec. 6.1.1): refused for a ragged length or an
    element >= MODULUS."""
    field = _field(args)
    return {"vec": _decs(field.decode_vec(hex_arg(args, "encoded")))}


# -- NTT (sec. 6.1.2) ------------------------------------------------------------------------------
def op_ntt(args: dict[str, Any]) -> dict[str, Any]:
    """``vdaf.field.ntt`` {field, coeffs, n, setS}: ``Field.ntt(coeffs, n, set_s)``. The spec has
    the transform twice (on elements, and on ints for the FLP): both are run, and must agree."""
    field = _field(args)
    coeffs, n, set_s = _elements(field, args, "coeffs"), json_int_arg(args, "n"), _bool(args, "setS")
    out = _decs(field.ntt(coeffs, n, set_s))
    if _decs(poly.ntt(field, [c.val for c in coeffs], n, set_s)) != out:
        raise RuntimeError("Field.ntt and poly.ntt disagree")
    return {"values": out}


def op_inv_ntt(args: dict[str, Any]) -> dict[str, Any]:
    """``vdaf.field.inv_ntt`` {field, values, n}: ``Field.inv_ntt(values, n)`` (both forms, as
    for ``ntt``)."""
    field = _field(args)
    values, n = _elements(field, args, "values"), json_int_arg(args, "n")
    out = _decs(field.inv_ntt(values, n))
    if _decs(poly.inv_ntt(field, [v.val for v in values], n)) != out:
        raise RuntimeError("Field.inv_ntt and poly.inv_ntt disagree")
    return {"coeffs": out}


# -- polynomials in the Lagrange basis (sec. 6.1.3) -----------------------------------------------
def op_poly_mul(args: dict[str, Any]) -> dict[str, Any]:
    """``vdaf.poly.mul`` {field, p, q}: ``Lagrange.poly_mul`` (2n values for operands of n)."""
    field = _field(args)
    return {"product": _decs(poly.Lagrange(field).poly_mul(_elements(field, args, "p"),
                                                           _elements(field, args, "q")))}


def op_poly_eval(args: dict[str, Any]) -> dict[str, Any]:
    """``vdaf.poly.eval`` {field, p, x}: ``Lagrange.poly_eval``."""
    field = _field(args)
    x = field(_int(args, "x"))
    return {"value": _dec(poly.Lagrange(field).poly_eval(_elements(field, args, "p"), x))}


def op_poly_eval_batched(args: dict[str, Any]) -> dict[str, Any]:
    """``vdaf.poly.eval_batched`` {field, polys, x}: ``Lagrange.poly_eval_batched`` (the polys
    must have one length)."""
    field = _field(args)
    polys = [[field(v) for v in p] for p in _int_lists(args, "polys")]
    return {"values": _decs(poly.Lagrange(field).poly_eval_batched(polys, field(_int(args, "x"))))}


def op_poly_eval_padded(args: dict[str, Any]) -> dict[str, Any]:
    """``vdaf.poly.eval_padded`` {field, polys, n, x}: evaluation at x of polynomials given by
    their values at the n-th roots, trailing zero values left out (each list has <= n)."""
    field = _field(args)
    polys = [[field(v).val for v in p] for p in _int_lists(args, "polys")]
    x = field(_int(args, "x")).val
    return {"values": _decs(poly.lagrange_eval_batched(field, polys, json_int_arg(args, "n"), x))}


def op_poly_extend(args: dict[str, Any]) -> dict[str, Any]:
    """``vdaf.poly.extend`` {field, p, n}: ``Lagrange.extend_values_to_power_of_2``: the values at
    all n roots of the polynomial of degree < k = len(p) with the k given values at w^0..w^(k-1)."""
    field = _field(args)
    p = _elements(field, args, "p")
    poly.Lagrange(field).extend_values_to_power_of_2(p, json_int_arg(args, "n"))
    return {"values": _decs(p)}


def op_poly_double(args: dict[str, Any]) -> dict[str, Any]:
    """``vdaf.poly.double`` {field, p}: ``Lagrange.double_evaluations`` (values at the 2n-th roots)."""
    field = _field(args)
    return {"values": _decs(poly.Lagrange(field).double_evaluations(_elements(field, args, "p")))}


# -- gadgets (appendix A) --------------------------------------------------------------------------
def make_gadget(desc: Any) -> Gadget:
    """A gadget from its JSON description: ``{"Mul": {}}``, ``{"PolyEval": {"p": [c0, c1, ...],
    "numCalls": k}}`` (coefficients lowest degree first, decimal strings) or ``{"ParallelSum":
    {"subcircuit": <gadget>, "count": c}}``."""
    if not isinstance(desc, dict) or len(desc) != 1:
        raise ValueError("a gadget is an object with one key: Mul, PolyEval or ParallelSum")
    ((kind, params),) = desc.items()
    if not isinstance(params, dict):
        raise ValueError("gadget parameters must be an object")
    if kind == "Mul":
        return Mul()
    if kind == "PolyEval":
        return PolyEval(_int_list(params, "p"), json_int_arg(params, "numCalls"))
    if kind == "ParallelSum":
        return ParallelSum(make_gadget(params.get("subcircuit")), json_int_arg(params, "count"))
    raise ValueError(f"unknown gadget {kind!r}")


def op_gadget_eval(args: dict[str, Any]) -> dict[str, Any]:
    """``vdaf.flp.gadget_eval`` {field, gadget, inputs}: ARITY, DEGREE and ``eval`` (ARITY inputs)."""
    field = _field(args)
    gadget = make_gadget(args.get("gadget"))
    inp = _elements(field, args, "inputs")
    if len(inp) != gadget.ARITY:
        raise ValueError(f"the gadget takes {gadget.ARITY} inputs, not {len(inp)}")
    return {"ARITY": gadget.ARITY, "DEGREE": gadget.DEGREE, "out": _dec(gadget.eval(field, inp))}


def op_gadget_eval_poly(args: dict[str, Any]) -> dict[str, Any]:
    """``vdaf.flp.gadget_eval_poly`` {field, gadget, wires}: ``eval_poly`` on ARITY wire
    polynomials of one length m (a power of two), values at the m-th roots."""
    field = _field(args)
    gadget = make_gadget(args.get("gadget"))
    wires = [[field(v).val for v in w] for w in _int_lists(args, "wires")]
    if len(wires) != gadget.ARITY:
        raise ValueError(f"the gadget takes {gadget.ARITY} wire polynomials, not {len(wires)}")
    if len({len(w) for w in wires}) != 1:
        raise ValueError("the wire polynomials must have one length")
    return {"ARITY": gadget.ARITY, "DEGREE": gadget.DEGREE, "out": _decs(gadget.eval_poly(field, wires))}


# -- generation ----------------------------------------------------------------------------------------
FIELD_CLASSES: tuple[type[Field], ...] = (Field64, Field128)


def _boundary(field: type[Field]) -> list[int]:
    p = field.MODULUS
    return [0, 1, (p - 1) // 2, (p + 1) // 2, p - 1]


def _seeded(field: type[Field], label: str, n: int) -> list[int]:
    """n elements drawn from the vector seed of ``label`` (16 bytes each, reduced)."""
    raw = vector_seed(f"vdaf-arith/{field.__name__}/{label}", 16 * n + 16)
    return [int.from_bytes(raw[16 * i : 16 * i + 16], "little") % field.MODULUS for i in range(n)]


def _s(xs: list[int]) -> list[str]:
    return [str(x) for x in xs]


Valid = tuple[str, dict[str, Any], list[str]]


def _group(op: str, handler: Handler, tc: TestNumberer, params: dict[str, Any], valid: list[Valid],
           invalid: list[InvalidCase]) -> dict[str, Any]:
    tests = [test_entry(tc(), text, inputs, handler({**params, **inputs}), flags=flags)
             for text, inputs, flags in valid]
    tests += invalid_tests(tc, handler, params, invalid, rejects=REJECTS)
    return {"op": op, "params": params, "tests": tests}


def _field_groups(tc: TestNumberer) -> list[dict[str, Any]]:
    groups: list[dict[str, Any]] = []
    for f in FIELD_CLASSES:
        p, name, size = f.MODULUS, f.__name__, f.ENCODED_SIZE
        params = {"field": name}
        bnd = _boundary(f)
        half = (p - 1) // 2
        # elements: the constructor's range (-p, p) and the signed representative's threshold
        vals: list[tuple[str, int]] = [("-(p-1)", -(p - 1)), ("-1", -1), ("0", 0), ("1", 1),
                                       ("(p-1)/2", half), ("(p+1)/2", half + 1), ("p-1", p - 1)]
        groups.append(_group("vdaf.field.element", op_element, tc, params,
                             [(f"{name}: val = {t}", {"val": str(v)}, ["Boundary"]) for t, v in vals],
                             [(f"{name}: val = {t}", {"val": str(v)}, "OutOfRange")
                              for t, v in (("p", p), ("-p", -p), ("2p - 1", 2 * p - 1))]))
        names = {0: "0", 1: "1", half: "(p-1)/2", half + 1: "(p+1)/2", p - 1: "p-1"}
        groups.append(_group("vdaf.field.arith", op_arith, tc, params,
                             [(f"{name}: a = {names[a]}, b = {names[b]}", {"a": str(a), "b": str(b)},
                               ["Boundary"]) for a in bnd for b in bnd],
                             [(f"{name}: a = p", {"a": str(p), "b": "1"}, "OutOfRange"),
                              (f"{name}: b = -p", {"a": "1", "b": str(-p)}, "OutOfRange")]))
        seeded = _seeded(f, "div", 2)
        div_valid: list[Valid] = [(f"{name}: a = {names[a]}, b = {names[b]}", {"a": str(a), "b": str(b)},
                                   ["Boundary"]) for a in (0, 1, p - 1) for b in bnd if b]
        div_valid.append((f"{name}: seeded a, b", {"a": str(seeded[0]), "b": str(seeded[1])}, []))
        groups.append(_group("vdaf.field.div", op_div, tc, params, div_valid,
                             [(f"{name}: {names[a]} / 0", {"a": str(a), "b": "0"}, "ZeroInverse")
                              for a in (0, 1, p - 1)]))
        gen = f.gen().val
        pow_valid: list[Valid] = []
        for a, at in ((0, "0"), (1, "1"), (2, "2"), (p - 1, "p-1"), (gen, "the generator")):
            for e, et in ((0, "0"), (1, "1"), (2, "2"), (half, "(p-1)/2"), (p - 2, "p-2"),
                          (p - 1, "p-1"), (f.GEN_ORDER, "GEN_ORDER"), (f.GEN_ORDER // 2, "GEN_ORDER/2")):
                pow_valid.append((f"{name}: {at} ^ {et}", {"a": str(a), "exp": str(e)}, []))
        groups.append(_group("vdaf.field.pow", op_pow, tc, params, pow_valid, []))
        groups.append(_group("vdaf.field.zeros", op_zeros, tc, params,
                             [(f"{name}: length {n}", {"length": n}, ["Boundary"] if n < 2 else [])
                              for n in (0, 1, 3)],
                             [(f"{name}: length -1", {"length": -1}, "BadLength")]))
        g = f.GEN_ORDER
        roots = [1, 2, 4, 8, 16, g // 2, g]
        groups.append(_group("vdaf.field.nth_root", op_nth_root, tc, params,
                             [(f"{name}: n = {n}", {"n": str(n)}, ["Boundary"] if n in (1, g) else [])
                              for n in roots],
                             [(f"{name}: n = {t}", {"n": str(n)}, "BadSize")
                              for t, n in (("0", 0), ("-1", -1), ("-2", -2), ("3", 3), ("6", 6),
                                           ("GEN_ORDER - 1", g - 1), ("GEN_ORDER + 1", g + 1),
                                           ("2 GEN_ORDER", 2 * g))]))
        sv = _seeded(f, "vec", 6)
        vec_valid: list[Valid] = [
            (f"{name}: empty vectors", {"left": [], "right": []}, ["Boundary"]),
            (f"{name}: one element each, p-1 and 1", {"left": [str(p - 1)], "right": ["1"]}, ["Boundary"]),
            (f"{name}: boundary elements", {"left": _s(bnd), "right": _s(bnd[::-1])}, ["Boundary"]),
            (f"{name}: three seeded elements each", {"left": _s(sv[:3]), "right": _s(sv[3:])}, []),
        ]
        vec_invalid: list[InvalidCase] = [
            (f"{name}: lengths 0 and 1", {"left": [], "right": ["1"]}, "BadLength"),
            (f"{name}: lengths 1 and 0", {"left": ["1"], "right": []}, "BadLength"),
            (f"{name}: lengths 3 and 2", {"left": _s(sv[:3]), "right": _s(sv[3:5])}, "BadLength")]
        groups.append(_group("vdaf.field.vec_add", op_vec_add, tc, params, vec_valid, vec_invalid))
        groups.append(_group("vdaf.field.vec_sub", op_vec_sub, tc, params, vec_valid, vec_invalid))
        groups.append(_group("vdaf.field.vec_neg", op_vec_neg, tc, params,
                             [(f"{name}: empty", {"vec": []}, ["Boundary"]),
                              (f"{name}: boundary elements", {"vec": _s(bnd)}, ["Boundary"])], []))
        groups.append(_group("vdaf.field.canonical", op_canonical, tc, params,
                             [(f"{name}: empty", {"values": []}, ["Boundary"]),
                              (f"{name}: 0 and p-1", {"values": ["0", str(p - 1)]}, ["Boundary"])],
                             [(f"{name}: -1", {"values": ["-1"]}, "OutOfRange"),
                              (f"{name}: 0 then p", {"values": ["0", str(p)]}, "OutOfRange"),
                              (f"{name}: -1 and p", {"values": ["-1", str(p)]}, "OutOfRange")]))
        groups.append(_group("vdaf.field.encode_vec", op_encode_vec, tc, params,
                             [(f"{name}: empty", {"vec": []}, ["Boundary"]),
                              (f"{name}: boundary elements", {"vec": _s(bnd)}, ["Boundary"]),
                              (f"{name}: -1 (read as p-1)", {"vec": ["-1"]}, [])],
                             [(f"{name}: an element = p", {"vec": ["0", str(p)]}, "OutOfRange")]))
        enc = b"".join(v.to_bytes(size, "little") for v in bnd)
        over = p.to_bytes(size, "little")
        groups.append(_group("vdaf.field.decode_vec", op_decode_vec, tc, params,
                             [(f"{name}: empty", {"encoded": ""}, ["Boundary"]),
                              (f"{name}: boundary elements", {"encoded": enc.hex()}, ["Boundary"])],
                             [(f"{name}: one byte", {"encoded": "00"}, "BadLength"),
                              (f"{name}: ENCODED_SIZE - 1 bytes", {"encoded": "00" * (size - 1)},
                               "BadLength"),
                              (f"{name}: ENCODED_SIZE + 1 bytes", {"encoded": "00" * (size + 1)},
                               "BadLength"),
                              (f"{name}: first element = p", {"encoded": (over + enc).hex()}, "Overflow"),
                              (f"{name}: last element = p", {"encoded": (enc + over).hex()}, "Overflow"),
                              (f"{name}: element 2^(8 ENCODED_SIZE) - 1", {"encoded": "ff" * size},
                               "Overflow")]))
    return groups


NTT_SIZES = (1, 2, 4, 8, 16)


def _ntt_groups(tc: TestNumberer) -> list[dict[str, Any]]:
    groups: list[dict[str, Any]] = []
    for f in FIELD_CLASSES:
        p, name = f.MODULUS, f.__name__
        params = {"field": name}
        valid: list[Valid] = [(f"{name}: n = 1, no coefficients", {"coeffs": [], "n": 1, "setS": False},
                               ["Boundary"])]
        for n in NTT_SIZES:
            c = _s(_seeded(f, f"ntt/{n}", n))
            for set_s in (False, True):
                flags = ["CosetShift"] if set_s else []
                valid.append((f"{name}: n = {n}, {n} coefficients", {"coeffs": c, "n": n, "setS": set_s},
                              flags + (["Boundary"] if n == 1 else [])))
                if n > 1:
                    short = [str(p - 1)] + c[1 : n // 2]
                    valid.append((f"{name}: n = {n}, {len(short)} coefficients (zero-padded)",
                                  {"coeffs": short, "n": n, "setS": set_s}, flags))
        c4 = _s(_seeded(f, "ntt/4", 4))
        invalid: list[InvalidCase] = [
            (f"{name}: n = 0", {"coeffs": [], "n": 0, "setS": False}, "BadSize"),
            (f"{name}: n = 0 with set_s", {"coeffs": [], "n": 0, "setS": True}, "BadSize"),
            (f"{name}: n = 3", {"coeffs": c4[:3], "n": 3, "setS": False}, "BadSize"),
            (f"{name}: n = 6 with set_s", {"coeffs": c4[:3], "n": 6, "setS": True}, "BadSize"),
            (f"{name}: n = -2", {"coeffs": [], "n": -2, "setS": False}, "BadSize"),
            (f"{name}: n = 2, 3 coefficients", {"coeffs": c4[:3], "n": 2, "setS": False}, "BadLength"),
            (f"{name}: n = 2, 4 coefficients", {"coeffs": c4, "n": 2, "setS": False}, "BadLength"),
            (f"{name}: n = 4, 8 coefficients", {"coeffs": c4 + c4, "n": 4, "setS": False}, "BadLength"),
            (f"{name}: n = 1, 2 coefficients", {"coeffs": c4[:2], "n": 1, "setS": True}, "BadLength"),
        ]
        groups.append(_group("vdaf.field.ntt", op_ntt, tc, params, valid, invalid))
        inv_valid: list[Valid] = []
        for n in NTT_SIZES:
            v = _s(_seeded(f, f"inv_ntt/{n}", n))
            inv_valid.append((f"{name}: n = {n}", {"values": v, "n": n}, ["Boundary"] if n == 1 else []))
        inv_valid.append((f"{name}: n = 4, all values p-1 (a constant)", {"values": [str(p - 1)] * 4, "n": 4},
                          ["Boundary"]))
        v4 = _s(_seeded(f, "inv_ntt/4", 4))
        groups.append(_group("vdaf.field.inv_ntt", op_inv_ntt, tc, params, inv_valid, [
            (f"{name}: n = 4, 3 values", {"values": v4[:3], "n": 4}, "BadLength"),
            (f"{name}: n = 4, 5 values", {"values": v4 + ["1"], "n": 4}, "BadLength"),
            (f"{name}: n = 2, 1 value", {"values": v4[:1], "n": 2}, "BadLength"),
            (f"{name}: n = 0, no values", {"values": [], "n": 0}, "BadSize"),
            (f"{name}: n = 3, 3 values", {"values": v4[:3], "n": 3}, "BadSize"),
        ]))
    return groups


def _poly_groups(tc: TestNumberer) -> list[dict[str, Any]]:
    groups: list[dict[str, Any]] = []
    for f in FIELD_CLASSES:
        p, name = f.MODULUS, f.__name__
        params = {"field": name}
        polys = {n: _s(_seeded(f, f"poly/{n}", n)) for n in (1, 2, 4, 8)}
        other = {n: _s(_seeded(f, f"poly/q/{n}", n)) for n in (1, 2, 4, 8)}
        groups.append(_group("vdaf.poly.mul", op_poly_mul, tc, params,
                             [(f"{name}: n = {n}", {"p": polys[n], "q": other[n]},
                               ["Boundary"] if n == 1 else []) for n in (1, 2, 4, 8)]
                             + [(f"{name}: n = 2, p-1 times p-1",
                                 {"p": [str(p - 1)] * 2, "q": [str(p - 1)] * 2}, ["Boundary"])],
                             [(f"{name}: lengths 2 and 4", {"p": polys[2], "q": other[4]}, "BadLength"),
                              (f"{name}: length 3", {"p": polys[4][:3], "q": other[4][:3]}, "BadSize"),
                              (f"{name}: length 0", {"p": [], "q": []}, "BadSize")]))

        def points(n: int, f: type[Field] = f, p: int = p) -> list[tuple[str, int, list[str]]]:
            w = f.nth_root(n).val
            out = [("x = 0", 0, ["Boundary"]), ("x = 2", 2, []),
                   ("x = p-1", p - 1, ["Boundary"]),
                   ("x = nth_root(2n) (off the roots)", f.nth_root(2 * n).val, [])]
            out += [(f"x = w^{j}", pow(w, j, p), ["Boundary"]) for j in sorted({0, 1, n - 1}) if j < n]
            return out

        eval_valid: list[Valid] = []
        for n in (1, 2, 4, 8):
            for text, x, flags in points(n):
                eval_valid.append((f"{name}: n = {n}, {text}", {"p": polys[n], "x": str(x)}, flags))
        groups.append(_group("vdaf.poly.eval", op_poly_eval, tc, params, eval_valid,
                             [(f"{name}: 3 values", {"p": polys[4][:3], "x": "2"}, "BadSize"),
                              (f"{name}: no values", {"p": [], "x": "2"}, "BadSize")]))
        batched_valid: list[Valid] = []
        for n in (1, 4):
            for text, x, flags in points(n):
                batched_valid.append((f"{name}: two polys of {n}, {text}",
                                      {"polys": [polys[n], other[n]], "x": str(x)}, flags))
        batched_valid.append((f"{name}: one poly of 8, x = 3", {"polys": [polys[8]], "x": "3"}, []))
        groups.append(_group("vdaf.poly.eval_batched", op_poly_eval_batched, tc, params, batched_valid,
                             [(f"{name}: lengths 4 and 2", {"polys": [polys[4], other[2]], "x": "2"},
                               "BadLength"),
                              (f"{name}: lengths 2 and 4", {"polys": [polys[2], other[4]], "x": "2"},
                               "BadLength")]))
        padded_valid: list[Valid] = []
        w4 = f.nth_root(4).val
        for text, x, flags in [("x = 2", 2, []), ("x = 0", 0, []), ("x = w^1", w4, []),
                               ("x = w^2 (beyond the short poly's values)", w4 * w4 % p, []),
                               ("x = w^3", pow(w4, 3, p), [])]:
            padded_valid.append((f"{name}: n = 4, polys of 4, 2, 1 and 0 values, {text}",
                                 {"polys": [polys[4], other[2], polys[1], []], "n": 4, "x": str(x)},
                                 flags + ["ZeroPadded"]))
        padded_valid.append((f"{name}: n = 4, only empty polys, x = 2", {"polys": [[], []], "n": 4, "x": "2"},
                             ["ZeroPadded", "Boundary"]))
        padded_valid.append((f"{name}: n = 4, no polys", {"polys": [], "n": 4, "x": "2"}, ["Boundary"]))
        padded_valid.append((f"{name}: n = 1, one value, x = 2", {"polys": [polys[1]], "n": 1, "x": "2"},
                             ["Boundary"]))
        groups.append(_group("vdaf.poly.eval_padded", op_poly_eval_padded, tc, params, padded_valid,
                             [(f"{name}: n = 2, a poly of 4 values", {"polys": [polys[4]], "n": 2, "x": "2"},
                               "BadLength"),
                              (f"{name}: n = 3", {"polys": [polys[2]], "n": 3, "x": "2"}, "BadSize"),
                              (f"{name}: n = 0", {"polys": [], "n": 0, "x": "2"}, "BadSize")]))
        ext_valid: list[Valid] = []
        for n in (1, 2, 4, 8):
            for k in sorted({1, 2, n // 2 + 1, n - 1, n}):
                if 1 <= k <= n:
                    ext_valid.append((f"{name}: n = {n}, k = {k} known values",
                                      {"p": polys[n][:k], "n": n}, ["Boundary"] if k in (1, n) else []))
        groups.append(_group("vdaf.poly.extend", op_poly_extend, tc, params, ext_valid, [
            (f"{name}: n = 4, 5 values", {"p": polys[4] + ["1"], "n": 4}, "BadLength"),
            (f"{name}: n = 4, no values", {"p": [], "n": 4}, "BadLength"),
            (f"{name}: n = 3, 3 values", {"p": polys[4][:3], "n": 3}, "BadSize"),
            (f"{name}: n = 3, 2 values", {"p": polys[4][:2], "n": 3}, "BadSize"),
            (f"{name}: n = 0, no values", {"p": [], "n": 0}, "BadSize"),
        ]))
        groups.append(_group("vdaf.poly.double", op_poly_double, tc, params,
                             [(f"{name}: n = {n}", {"p": polys[n]}, ["Boundary"] if n == 1 else [])
                              for n in (1, 2, 4, 8)],
                             [(f"{name}: 3 values", {"p": polys[4][:3]}, "BadSize"),
                              (f"{name}: no values", {"p": []}, "BadSize")]))
    return groups


MUL: dict[str, Any] = {"Mul": {}}


def _pe(p: list[int], calls: int) -> dict[str, Any]:
    return {"PolyEval": {"p": _s(p), "numCalls": calls}}


def _ps(sub: dict[str, Any], count: int) -> dict[str, Any]:
    return {"ParallelSum": {"subcircuit": sub, "count": count}}


def _gadget_groups(tc: TestNumberer) -> list[dict[str, Any]]:
    groups: list[dict[str, Any]] = []
    f = Field64
    p, name = f.MODULUS, f.__name__
    params = {"field": name}
    # (comment, gadget, wire length m for eval_poly)
    gadgets: list[tuple[str, dict[str, Any], int]] = [
        ("Mul", MUL, 2),
        ("PolyEval x^2 - x (the bit check of Sum), 1 call", _pe([0, -1, 1], 1), 2),
        ("PolyEval 3 + 2x + 0x^2 + 0x^3 (trailing zeros dropped: degree 1), 3 calls",
         _pe([3, 2, 0, 0], 3), 4),
        ("PolyEval 5x^3, 2 calls", _pe([0, 0, 0, 5], 2), 4),
        ("PolyEval the constant 5 (degree 0), 1 call", _pe([5], 1), 1),
        ("PolyEval (p-1) + x^2, 1 call", _pe([p - 1, 0, 1], 1), 2),
        ("ParallelSum(Mul, 1)", _ps(MUL, 1), 2),
        ("ParallelSum(Mul, 3)", _ps(MUL, 3), 4),
        ("ParallelSum(PolyEval x^2 - x, 3)", _ps(_pe([0, -1, 1], 3), 3), 4),
        ("ParallelSum(PolyEval 2x^2 + 1, 1) (one wire)", _ps(_pe([1, 0, 2], 1), 1), 2),
        ("ParallelSum(ParallelSum(Mul, 2), 2)", _ps(_ps(MUL, 2), 2), 2),
    ]
    eval_valid: list[Valid] = []
    poly_valid: list[Valid] = []
    for text, g, m in gadgets:
        gadget = make_gadget(g)
        a = gadget.ARITY
        for vt, inputs in (("seeded inputs", _seeded(f, f"gadget/{text}", a)),
                           ("inputs p-1", [p - 1] * a), ("inputs 0, 1, 2, ...", list(range(a)))):
            eval_valid.append((f"{text}: {vt}", {"gadget": g, "inputs": _s(inputs)}, []))
        wires = [_s(_seeded(f, f"gadget/{text}/wire{i}", m)) for i in range(a)]
        poly_valid.append((f"{text}: {a} wire polynomials of {m} values", {"gadget": g, "wires": wires}, []))
    bad_gadgets: list[InvalidCase] = [
        ("PolyEval of the zero polynomial []", {"gadget": _pe([], 1), "inputs": ["1"]}, "BadGadget"),
        ("PolyEval of the zero polynomial [0, 0]", {"gadget": _pe([0, 0], 1), "inputs": ["1"]}, "BadGadget"),
        ("PolyEval with num_calls 0", {"gadget": _pe([0, 1], 0), "inputs": ["1"]}, "BadGadget"),
        ("ParallelSum(Mul, 0)", {"gadget": _ps(MUL, 0), "inputs": []}, "BadGadget"),
        ("Mul with 1 input", {"gadget": MUL, "inputs": ["1"]}, "BadArity"),
        ("Mul with 3 inputs", {"gadget": MUL, "inputs": ["1", "2", "3"]}, "BadArity"),
        ("ParallelSum(Mul, 2) with 3 inputs", {"gadget": _ps(MUL, 2), "inputs": ["1", "2", "3"]}, "BadArity"),
        ("ParallelSum(Mul, 2) with 5 inputs", {"gadget": _ps(MUL, 2), "inputs": ["1"] * 5}, "BadArity"),
    ]
    groups.append(_group("vdaf.flp.gadget_eval", op_gadget_eval, tc, params, eval_valid, bad_gadgets))
    w2 = [_s(_seeded(f, f"gadget/bad/wire{i}", 2)) for i in range(3)]
    w4 = [_s(_seeded(f, f"gadget/bad/wire4{i}", 4)) for i in range(2)]
    groups.append(_group("vdaf.flp.gadget_eval_poly", op_gadget_eval_poly, tc, params, poly_valid, [
        ("Mul with 1 wire polynomial", {"gadget": MUL, "wires": w2[:1]}, "BadArity"),
        ("Mul with 3 wire polynomials", {"gadget": MUL, "wires": w2}, "BadArity"),
        ("Mul with wire polynomials of 2 and 4 values", {"gadget": MUL, "wires": [w2[0], w4[0]]},
         "BadLength"),
        ("Mul with wire polynomials of 3 values", {"gadget": MUL, "wires": [w2[0] + ["1"], w2[1] + ["1"]]},
         "BadSize"),
        ("ParallelSum(PolyEval x^2, 1 call, 2) with wires of 4 values (num_calls 1 gives 2)",
         {"gadget": _ps(_pe([0, 0, 1], 1), 2), "wires": w4}, "LongWires"),
    ]))
    return groups


class VdafArithFamily(Family):
    name = "vdaf-arith"
    summary = "Prio3's arithmetic (VDAF draft-20): fields, NTT, Lagrange polynomials, FLP gadgets"

    def handlers(self) -> dict[str, Handler]:
        return dict(HANDLERS)

    def schemas(self) -> dict[str, dict[str, Any]]:
        return {SCHEMA: family_schema(SCHEMA, "Prio3 arithmetic vectors", any_value_ops(ARGS))}

    def _file(self, path: str, algorithm: str, groups: list[dict[str, Any]]) -> VectorFile:
        return self.vector_file(path, algorithm=algorithm, schema=SCHEMA, header=HEADER, notes=NOTES,
                                groups=groups)

    def files(self) -> list[VectorFile]:
        return [
            self._file("vdaf-arith/field.json", "Field64 and Field128 (sec. 6.1, 6.1.1, 6.1.2)",
                       _field_groups(TestNumberer())),
            self._file("vdaf-arith/ntt.json", "NTT and inverse NTT (sec. 6.1.2)",
                       _ntt_groups(TestNumberer())),
            self._file("vdaf-arith/poly.json", "Polynomials in the Lagrange basis (sec. 6.1.3, 7.3.3)",
                       _poly_groups(TestNumberer())),
            self._file("vdaf-arith/gadgets.json", "FLP gadgets (appendix A, sec. 7.3.2)",
                       _gadget_groups(TestNumberer())),
        ]


HANDLERS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "vdaf.field.element": op_element,
    "vdaf.field.arith": op_arith,
    "vdaf.field.div": op_div,
    "vdaf.field.pow": op_pow,
    "vdaf.field.zeros": op_zeros,
    "vdaf.field.nth_root": op_nth_root,
    "vdaf.field.vec_add": op_vec_add,
    "vdaf.field.vec_sub": op_vec_sub,
    "vdaf.field.vec_neg": op_vec_neg,
    "vdaf.field.canonical": op_canonical,
    "vdaf.field.encode_vec": op_encode_vec,
    "vdaf.field.decode_vec": op_decode_vec,
    "vdaf.field.ntt": op_ntt,
    "vdaf.field.inv_ntt": op_inv_ntt,
    "vdaf.poly.mul": op_poly_mul,
    "vdaf.poly.eval": op_poly_eval,
    "vdaf.poly.eval_batched": op_poly_eval_batched,
    "vdaf.poly.eval_padded": op_poly_eval_padded,
    "vdaf.poly.extend": op_poly_extend,
    "vdaf.poly.double": op_poly_double,
    "vdaf.flp.gadget_eval": op_gadget_eval,
    "vdaf.flp.gadget_eval_poly": op_gadget_eval_poly,
}
ARGS: dict[str, tuple[str, ...]] = {
    "vdaf.field.element": ("field", "val"),
    "vdaf.field.arith": ("field", "a", "b"),
    "vdaf.field.div": ("field", "a", "b"),
    "vdaf.field.pow": ("field", "a", "exp"),
    "vdaf.field.zeros": ("field", "length"),
    "vdaf.field.nth_root": ("field", "n"),
    "vdaf.field.vec_add": ("field", "left", "right"),
    "vdaf.field.vec_sub": ("field", "left", "right"),
    "vdaf.field.vec_neg": ("field", "vec"),
    "vdaf.field.canonical": ("field", "values"),
    "vdaf.field.encode_vec": ("field", "vec"),
    "vdaf.field.decode_vec": ("field", "encoded"),
    "vdaf.field.ntt": ("field", "coeffs", "n", "setS"),
    "vdaf.field.inv_ntt": ("field", "values", "n"),
    "vdaf.poly.mul": ("field", "p", "q"),
    "vdaf.poly.eval": ("field", "p", "x"),
    "vdaf.poly.eval_batched": ("field", "polys", "x"),
    "vdaf.poly.eval_padded": ("field", "polys", "n", "x"),
    "vdaf.poly.extend": ("field", "p", "n"),
    "vdaf.poly.double": ("field", "p"),
    "vdaf.flp.gadget_eval": ("field", "gadget", "inputs"),
    "vdaf.flp.gadget_eval_poly": ("field", "gadget", "wires"),
}

FAMILY = VdafArithFamily()
