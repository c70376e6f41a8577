"""FLP gadgets: appendix A ("FLP Gadgets") of the VDAF draft (draft-irtf-cfrg-vdaf-20).

A gadget is a small non-affine arithmetic sub-circuit with ``ARITY`` inputs and degree
``DEGREE``. ``eval`` computes it on field elements; ``eval_poly`` computes it on polynomials in
the Lagrange basis (sec. 6.1.3): each input is the list of a wire polynomial's values at the
``m``-th roots of unity (``m`` a power of two, as ints in ``[0, MODULUS)``), and the output is the
list of the gadget polynomial's values at the ``M``-th roots of unity, ``M`` the smallest power
of two above its degree ``DEGREE * (m - 1)`` (for ``Mul``, ``M = 2m``).
"""

from __future__ import annotations

import abc
from collections.abc import Sequence

from dpspec.spec.encoding import next_power_of_2
from dpspec.spec.field import F, Field
from dpspec.spec.flp import poly


def wire_poly_len(gadget_calls: int) -> int:
    """Number of values of each wire polynomial of a gadget called ``gadget_calls`` times: the
    wire seed plus one value per call, rounded up to a power of two (sec. 7.3.2)."""
    return next_power_of_2(1 + gadget_calls)


def gadget_poly_len(gadget_degree: int, wire_polynomial_len: int) -> int:
    """Number of values of a gadget polynomial that the proof carries: its degree plus one (sec. 7.3.2)."""
    return gadget_degree * (wire_polynomial_len - 1) + 1


class Gadget(abc.ABC):
    """The gadget interface of sec. 7.3.2."""

    ARITY: int
    DEGREE: int

    @abc.abstractmethod
    def eval(self, field: type[F], inp: Sequence[F]) -> F:
        """The gadget on field elements."""

    @abc.abstractmethod
    def eval_poly(self, field: type[Field], inp_poly: Sequence[Sequence[int]]) -> list[int]:
        """The gadget on wire polynomials in the Lagrange basis (see the module docstring)."""


class Mul(Gadget):
    """``Mul(x, y) = x * y`` (appendix A.1): arity 2, degree 2."""

    ARITY = 2
    DEGREE = 2

    def eval(self, field: type[F], inp: Sequence[F]) -> F:
        return inp[0] * inp[1]

    def eval_poly(self, field: type[Field], inp_poly: Sequence[Sequence[int]]) -> list[int]:
        return poly.poly_mul(field, inp_poly[0], inp_poly[1])


class PolyEval(Gadget):
    """``PolyEval(x) = p(x)`` for a fixed polynomial ``p`` (appendix A.2): arity 1, degree deg p.

    ``p`` is given by integer coefficients, lowest degree first (reduced into the field when
    used); trailing zero coefficients are dropped. ``num_calls`` fixes the number of output values
    of ``eval_poly``: ``next_power_of_2(gadget_poly_len(DEGREE, wire_poly_len(num_calls)))``.
    """

    ARITY = 1

    def __init__(self, p: Sequence[int], num_calls: int) -> None:
        coeffs = list(p)
        while coeffs and coeffs[-1] == 0:
            coeffs.pop()
        if not coeffs:
            raise ValueError("PolyEval: the zero polynomial is not a gadget")
        if num_calls < 1:
            raise ValueError("PolyEval: num_calls must be >= 1")
        self.p = coeffs
        self.DEGREE = len(coeffs) - 1
        self.n = next_power_of_2(gadget_poly_len(self.DEGREE, wire_poly_len(num_calls)))

    def eval(self, field: type[F], inp: Sequence[F]) -> F:
        out = field(0)
        for c in reversed(self.p):
            out = out * inp[0] + field(c % field.MODULUS)
        return out

    def eval_poly(self, field: type[Field], inp_poly: Sequence[Sequence[int]]) -> list[int]:
        m = len(inp_poly[0])
        # Lagrange basis at m points -> coefficients -> values at self.n points -> p(values).
        values = poly.ntt(field, poly.inv_ntt(field, inp_poly[0], m), self.n)
        coeffs = [c % field.MODULUS for c in self.p]
        return [poly.poly_eval(field, coeffs, x) for x in values]


class ParallelSum(Gadget):
    """``ParallelSum(sub, count)(x) = sum_i sub(x[i*A : (i+1)*A])``, ``A = sub.ARITY``
    (appendix A.3): arity ``count * A``, degree ``sub.DEGREE``."""

    def __init__(self, subcircuit: Gadget, count: int) -> None:
        if count < 1:
            raise ValueError("ParallelSum: count must be >= 1")
        self.subcircuit = subcircuit
        self.count = count
        self.ARITY = subcircuit.ARITY * count
        self.DEGREE = subcircuit.DEGREE

    def eval(self, field: type[F], inp: Sequence[F]) -> F:
        if type(self.subcircuit) is Mul:
            # ParallelSum(Mul) is the inner product of the even and odd inputs: summed on ints,
            # reduced once (tests/test_flp.py checks it against the generic loop below).
            total = sum(x.val * y.val for x, y in zip(inp[0::2], inp[1::2], strict=True))
            return field.from_reduced([total % field.MODULUS])[0]
        return self.eval_generic(field, inp)

    def eval_generic(self, field: type[F], inp: Sequence[F]) -> F:
        """``sum_i subcircuit(inputs of copy i)``, element by element (the definition)."""
        arity = self.subcircuit.ARITY
        out = field(0)
        for i in range(self.count):
            out += self.subcircuit.eval(field, inp[i * arity : (i + 1) * arity])
        return out

    def eval_poly(self, field: type[Field], inp_poly: Sequence[Sequence[int]]) -> list[int]:
        arity = self.subcircuit.ARITY
        length = next_power_of_2(gadget_poly_len(self.DEGREE, len(inp_poly[0])))
        p = field.MODULUS
        total = [0] * length
        for i in range(self.count):
            part = self.subcircuit.eval_poly(field, inp_poly[i * arity : (i + 1) * arity])
            if len(part) != length:
                raise ValueError("ParallelSum: subcircuit output has the wrong length")
            total = [a + b for a, b in zip(total, part, strict=True)]
        return [a % p for a in total]
