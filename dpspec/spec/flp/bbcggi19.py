"""The FLP of [BBCGGI19] as sec. 7.3 of the VDAF draft (draft-irtf-cfrg-vdaf-20) specifies it:
proof generation (sec. 7.3.3), the linear query (sec. 7.3.4) and the decision (sec. 7.3.5), with
the shim gadgets of appendix A.4 that record wire values.

For each gadget ``g`` called ``calls`` times, let ``m = wire_poly_len(calls)`` and
``alpha = nth_root(m)``. Wire polynomial ``j`` is given by its values (Lagrange basis):
``W_j(alpha**0)`` is the wire seed (prover randomness), ``W_j(alpha**k)`` the value on input ``j``
of call ``k`` (``1 <= k <= calls``), and 0 at the remaining points. The gadget polynomial is
``G = g(W_0, ..., W_{A-1})``; the proof carries, per gadget, the ``A`` wire seeds and the first
``gadget_poly_len(g.DEGREE, m)`` values of ``G`` at the ``M``-th roots of unity,
``M = next_power_of_2(gadget_poly_len)``. ``G(alpha**k)`` is the output of call ``k``.

The verifier rebuilds the wire polynomials from its share of the measurement, takes the gadget
outputs from the (extended) gadget polynomial, and evaluates everything at a random point ``t``.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Generic

from dpspec.spec.encoding import next_power_of_2
from dpspec.spec.field import F, Field
from dpspec.spec.flp import poly
from dpspec.spec.flp.gadgets import Gadget, gadget_poly_len, wire_poly_len
from dpspec.spec.flp.valid import AggResult, Measurement, Valid


class ProveGadget(Gadget):
    """Appendix A.4: wraps a gadget, records the input wires of each call (as ints)."""

    def __init__(self, field: type[Field], wire_seeds: Sequence[Field], inner: Gadget,
                 calls: int) -> None:
        m = wire_poly_len(calls)
        self.inner = inner
        self.ARITY = inner.ARITY
        self.DEGREE = inner.DEGREE
        self.calls = calls
        self.k = 0
        self.wires = [[seed.val] + [0] * (m - 1) for seed in wire_seeds]

    def eval(self, field: type[F], inp: Sequence[F]) -> F:
        self.k += 1
        if self.k > self.calls:
            raise ValueError("gadget called more often than GADGET_CALLS says")
        for wire, x in zip(self.wires, inp, strict=True):
            wire[self.k] = x.val
        return self.inner.eval(field, inp)

    def eval_poly(self, field: type[Field], inp_poly: Sequence[Sequence[int]]) -> list[int]:
        return self.inner.eval_poly(field, inp_poly)


class QueryGadget(Gadget):
    """Appendix A.4: wraps a gadget for the verifier. Records the input wires of each call and
    answers call ``k`` with ``G(alpha**k)``, read from the gadget polynomial of the proof."""

    def __init__(self, field: type[Field], wire_seeds: Sequence[Field], gadget_poly: Sequence[Field],
                 inner: Gadget, calls: int) -> None:
        m = wire_poly_len(calls)
        self.ARITY = inner.ARITY
        self.DEGREE = inner.DEGREE
        self.calls = calls
        self.k = 0
        self.wires = [[seed.val] + [0] * (m - 1) for seed in wire_seeds]
        # The proof lists G at the first gadget_poly_len points of the size-th roots of unity;
        # deg G < gadget_poly_len, so the other values follow by interpolation.
        size = next_power_of_2(gadget_poly_len(inner.DEGREE, m))
        self.poly = poly.extend_values_to_power_of_2(field, [x.val for x in gadget_poly], size)
        self.step = size // m  # alpha**k is the (k * step)-th size-th root of unity

    def eval(self, field: type[F], inp: Sequence[F]) -> F:
        self.k += 1
        if self.k > self.calls:
            raise ValueError("gadget called more often than GADGET_CALLS says")
        for wire, x in zip(self.wires, inp, strict=True):
            wire[self.k] = x.val
        return field(self.poly[self.k * self.step])

    def eval_poly(self, field: type[Field], inp_poly: Sequence[Sequence[int]]) -> list[int]:
        raise NotImplementedError("the query shim evaluates gadgets on field elements only")


class FlpBBCGGI19(Generic[Measurement, AggResult, F]):
    """The FLP of sec. 7.3 for a validity circuit ``valid``; parameters as in its table."""

    def __init__(self, valid: Valid[Measurement, AggResult, F]) -> None:
        self.valid = valid
        self.field: type[F] = valid.field
        self.PROVE_RAND_LEN = valid.prove_rand_len()
        self.QUERY_RAND_LEN = valid.query_rand_len()
        self.JOINT_RAND_LEN = valid.JOINT_RAND_LEN
        self.MEAS_LEN = valid.MEAS_LEN
        self.OUTPUT_LEN = valid.OUTPUT_LEN
        self.PROOF_LEN = valid.proof_len()
        self.VERIFIER_LEN = valid.verifier_len()

    # -- the AFE part (sec. 7.1.1) -------------------------------------------------------------
    def encode(self, measurement: Measurement) -> list[F]:
        return self.valid.encode(measurement)

    def truncate(self, meas: Sequence[F]) -> list[F]:
        if len(meas) != self.MEAS_LEN:
            raise ValueError(f"measurement has {len(meas)} elements, expected {self.MEAS_LEN}")
        return self.valid.truncate(meas)

    def decode(self, output: Sequence[F], num_measurements: int) -> AggResult:
        if len(output) != self.OUTPUT_LEN:
            raise ValueError(f"output has {len(output)} elements, expected {self.OUTPUT_LEN}")
        return self.valid.decode(output, num_measurements)

    # -- sec. 7.3.3 ----------------------------------------------------------------------------
    def prove(self, meas: Sequence[F], prove_rand: Sequence[F], joint_rand: Sequence[F]) -> list[F]:
        """The proof: per gadget, its wire seeds and the leading values of its gadget polynomial."""
        if len(prove_rand) != self.PROVE_RAND_LEN:
            raise ValueError("prove: wrong length of prover randomness")
        wrapped = copy.copy(self.valid)
        shims: list[ProveGadget] = []
        rest = list(prove_rand)
        for g, calls in zip(self.valid.GADGETS, self.valid.GADGET_CALLS, strict=True):
            seeds, rest = rest[: g.ARITY], rest[g.ARITY :]
            shims.append(ProveGadget(self.field, seeds, g, calls))
        wrapped.GADGETS = list(shims)
        wrapped.eval(meas, joint_rand, 1)

        proof: list[F] = []
        for shim, calls in zip(shims, self.valid.GADGET_CALLS, strict=True):
            if shim.k != calls:
                raise ValueError("gadget called less often than GADGET_CALLS says")
            m = wire_poly_len(calls)
            gadget_poly = shim.eval_poly(self.field, shim.wires)
            proof += [self.field(w[0]) for w in shim.wires]
            proof += [self.field(x) for x in gadget_poly[: gadget_poly_len(shim.DEGREE, m)]]
        return proof

    # -- sec. 7.3.4 ----------------------------------------------------------------------------
    def query(self, meas: Sequence[F], proof: Sequence[F], query_rand: Sequence[F],
              joint_rand: Sequence[F], num_shares: int) -> list[F]:
        """The verifier (share): the reduced circuit output, then per gadget the wire polynomials
        and the gadget polynomial evaluated at the test point ``t``.

        Raises ``TestPointError`` (a ValueError; Prio3 reports it as ``VerifyError("test_point")``)
        if ``t`` is a ``m``-th root of unity, i.e. one of the interpolation points of the wire
        polynomials: the verifier would then reveal a wire value.
        """
        if len(proof) != self.PROOF_LEN:
            raise ValueError(f"proof has {len(proof)} elements, expected {self.PROOF_LEN}")
        if len(query_rand) != self.QUERY_RAND_LEN:
            raise ValueError("query: wrong length of query randomness")
        wrapped = copy.copy(self.valid)
        shims: list[QueryGadget] = []
        rest = list(proof)
        for g, calls in zip(self.valid.GADGETS, self.valid.GADGET_CALLS, strict=True):
            m = wire_poly_len(calls)
            seeds, rest = rest[: g.ARITY], rest[g.ARITY :]
            gpoly, rest = rest[: gadget_poly_len(g.DEGREE, m)], rest[gadget_poly_len(g.DEGREE, m) :]
            shims.append(QueryGadget(self.field, seeds, gpoly, g, calls))
        wrapped.GADGETS = list(shims)
        out = wrapped.eval(meas, joint_rand, num_shares)

        rand = list(query_rand)
        if self.valid.EVAL_OUTPUT_LEN > 1:
            coeffs, rand = rand[: self.valid.EVAL_OUTPUT_LEN], rand[self.valid.EVAL_OUTPUT_LEN :]
            v = self.field(0)
            for r, o in zip(coeffs, out, strict=True):
                v += r * o
        else:
            [v] = out

        verifier = [v]
        for shim, t in zip(shims, rand, strict=True):
            m = len(shim.wires[0])
            if t ** m == self.field(1):
                raise TestPointError("test point is a root of unity")
            wire_checks = poly.lagrange_eval_batched(self.field, shim.wires, m, t.val)
            gadget_check = poly.lagrange_eval(self.field, shim.poly, t.val)
            verifier += [self.field(x) for x in wire_checks]
            verifier.append(self.field(gadget_check))
        return verifier

    # -- sec. 7.3.5 ----------------------------------------------------------------------------
    def decide(self, verifier: Sequence[F]) -> bool:
        """True iff the circuit output is 0 and every gadget test passes."""
        return self.why_rejected(verifier) is None

    def why_rejected(self, verifier: Sequence[F]) -> str | None:
        """``decide`` that names the failed check: None if the verifier accepts."""
        if len(verifier) != self.VERIFIER_LEN:
            raise ValueError(f"verifier has {len(verifier)} elements, expected {self.VERIFIER_LEN}")
        if verifier[0] != self.field(0):
            return "circuit output is not zero"
        pos = 1
        for i, g in enumerate(self.valid.GADGETS):
            wire_checks = verifier[pos : pos + g.ARITY]
            gadget_check = verifier[pos + g.ARITY]
            pos += g.ARITY + 1
            if g.eval(self.field, wire_checks) != gadget_check:
                return f"gadget {i} test failed"
        return None


class TestPointError(ValueError):
    """The query's random point ``t`` is a root of unity used for interpolation (sec. 7.3.4)."""
