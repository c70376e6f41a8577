"""Vector family ``accounting-subsampling``: privacy amplification by subsampling and the moments
accountant of the Poisson-subsampled Gaussian (dpspec.spec.accounting.subsampling) at its
decision points.

The ``accounting`` family publishes a few typical values of these functions; this family pins
down what those leave open: both sides of each check (a probability at 0 and at 1, ``m = 0`` and
``m = n``, ``steps`` at its limit), the integer-order sum against the fractional-order integrals
(near ``q = 1``, where the two Renyi directions of a fractional order almost coincide, and at a
small sigma, where the second bump of the integrand lies far from the first), the pruned search
over the orders (a fractional order that wins below every integer one, one that is evaluated and
loses, an all-zero tie between the orders and against the zCDP bound) and an invalid case for
each input check.

Outputs are compared like the ``accounting`` family's (``|got - want| <= max(rel |want|, abs)``
per op, :data:`TOLERANCE`); in addition an ``rdp`` or ``eps`` output must not be negative.
"""

from __future__ import annotations

from typing import Any

import mpmath

from dpspec.conformance.families._groups import build_group, memoised
from dpspec.conformance.families.accounting import AccountingFamily, published
from dpspec.conformance.jsonargs import any_value_ops
from dpspec.conformance.vectors import (
    Case,
    Handler,
    TestNumberer,
    VectorFile,
    envelope,
    family_schema,
)
from dpspec.spec.accounting import subsampling
from dpspec.spec.accounting.numeric import DPS, compact, mpf

NAME = "accounting-subsampling"
SCHEMA = "accounting_subsampling-v1.json"
P = "accounting_subsampling."

#: values computed exactly or in mpmath at 40 (the integer-order sums at 50) significant digits,
#: published rounded up to 20
EXACT = (1e-15, 0.0)
#: values that go through a 20-digit quadrature (fractional orders; about 14 correct digits),
#: published rounded up to 13 significant digits; a zero is compared within 1e-30
QUAD = (1e-10, 1e-30)


TOLERANCE: dict[str, tuple[float, float]] = {
    P + "poisson_amplification": EXACT,
    P + "without_replacement_amplification": EXACT,
    P + "sampled_gaussian_rdp": QUAD,
    P + "subsampled_gaussian_epsilon": QUAD,
}

#: outputs that are divergences or epsilons: never negative, whatever the tolerance
NON_NEGATIVE = ("rdp", "eps")

# -- reference handlers -----------------------------------------------------------------------
def h_poisson(a: dict[str, Any]) -> dict[str, Any]:
    e, d = subsampling.poisson_amplification(a["eps"], a["delta"], a["q"])
    return {"eps": published(e), "delta": published(d)}


def h_wor(a: dict[str, Any]) -> dict[str, Any]:
    e, d = subsampling.without_replacement_amplification(a["eps"], a["delta"], a["m"], a["n"])
    return {"eps": published(e), "delta": published(d)}


def h_rdp(a: dict[str, Any]) -> dict[str, Any]:
    r = subsampling.sampled_gaussian_rdp(a["q"], a["sigma"], a["alpha"], method=a["method"])
    return {"rdp": published(r, 13)}


def h_eps(a: dict[str, Any]) -> dict[str, Any]:
    e, order = subsampling.subsampled_gaussian_epsilon(a["q"], a["sigma"], a["steps"], a["delta"],
                                                       a["orders"])
    # the minimising order is one of the given decimals (or 0): published as given, exactly
    return {"eps": published(e, 13), "order": compact(mpmath.nstr(order, 20))}


HANDLERS: dict[str, Handler] = {
    P + "poisson_amplification": h_poisson,
    P + "without_replacement_amplification": h_wor,
    P + "sampled_gaussian_rdp": h_rdp,
    P + "subsampled_gaussian_epsilon": h_eps,
}
HANDLERS = {op: memoised(handler) for op, handler in HANDLERS.items()}


_ARG_NAMES: dict[str, tuple[str, ...]] = {
    P + "poisson_amplification": ("eps", "delta", "q"),
    P + "without_replacement_amplification": ("eps", "delta", "m", "n"),
    P + "sampled_gaussian_rdp": ("q", "sigma", "alpha", "method"),
    P + "subsampled_gaussian_epsilon": ("q", "sigma", "steps", "delta", "orders"),
}


HEADER = [
    "Privacy amplification by subsampling and the moments accountant of the Poisson-subsampled"
    " Gaussian (module dpspec.spec.accounting.subsampling), inputs -> outputs, at the decision"
    " points of each function.",
    "Numbers are decimal strings (1e-9 allowed); sizes (m, n, steps) are JSON integers; `orders`"
    " is a list of decimal strings. Outputs are decimal strings rounded up (toward +infinity) to"
    " 20 significant digits (poisson_amplification, without_replacement_amplification) or 13"
    " (`rdp`, `eps` of the two Gaussian ops, whose fractional orders come from a 20-digit"
    " quadrature). Compared within the op's tolerance |got - want| <= max(rel |want|, abs): "
    + "; ".join(f"{op.split('.', 1)[1]} ({r:g}, {a:g})" for op, (r, a) in sorted(TOLERANCE.items()))
    + "; `rdp` and `eps` must moreover not be negative.",
    "poisson_amplification: Poisson sampling with rate q in [0, 1] of an (eps, delta)-DP mechanism"
    " is (log(1 + q (e^eps - 1)), q delta)-DP (SA2 sec. 2, Theorem 3, from [LQS12]); eps >= 0,"
    " delta in [0, 1] (both ends accepted).",
    "without_replacement_amplification: m of n records sampled without replacement, substitution"
    " neighbours ([BBG18] Theorem 9): the same formula with q = m/n; integers 0 <= m <= n, n >= 1"
    " (a JSON number that is not an integer, or a boolean, is refused).",
    "sampled_gaussian_rdp: Renyi DP at order alpha > 1 of one step of the Poisson-subsampled"
    " Gaussian (sensitivity 1, noise multiplier sigma > 0, rate q in [0, 1]): with mu_0 = N(0,"
    " sigma^2), mu = (1 - q) N(0, sigma^2) + q N(1, sigma^2), rdp = max(D_alpha(mu || mu_0),"
    " D_alpha(mu_0 || mu), 0) ([MTZ19]); q = 0 gives exactly 0 and q = 1 alpha / (2 sigma^2). For"
    " an integer alpha >= 2 only the first direction counts ([MTZ19] Theorem 5) and A_alpha ="
    " sum_k C(alpha, k) (1-q)^(alpha-k) q^k exp((k^2 - k)/(2 sigma^2)) exactly ([MTZ19] sec. 3.3),"
    " rdp = log(A_alpha)/(alpha - 1); otherwise both directions are integrals over the real line"
    " (E_{z~mu_0}[(mu/mu_0)^alpha] and E_{z~mu_0}[(mu_0/mu)^(alpha-1)]) and the larger is taken."
    " `method`: auto (the sum for an integer alpha, else the integrals), sum (an integer alpha"
    " only) or integral (also for an integer alpha: then the forward integral alone).",
    "subsampled_gaussian_epsilon: steps x rdp ([Mir17] Proposition 1, SA2 Theorem 2) converted by"
    " SA2 Theorem 1 (eps = r + (log(1/delta) + (alpha - 1) log(1 - 1/alpha) - log(alpha))/(alpha -"
    " 1), clamped at 0) and minimised over `orders` (duplicates merged); `order` is the minimiser"
    " (as given, at most 20 significant digits),"
    " the first in the visiting order (integer orders increasingly, then the fractional ones"
    " increasingly) among equal epsilons; an order whose lower bound (the conversion of the"
    " largest computed integer-order value below it, 0 if none) is not below the best epsilon so"
    " far is skipped, so on an all-zero tie the reported order is the smallest integer order."
    " Also bounded by the zCDP conversion of steps/(2 sigma^2) ([CKS20] Corollary 13), which wins"
    " only when strictly smaller (`order` 0); q = 0 gives (0, 0). 1 <= steps <= 10^15, delta in"
    " (0, 1), at least one order, every order > 1.",
    "Invalid: every input check of these functions (out-of-domain parameters, a non-integer size,"
    " an unknown method, steps beyond 10^15, no orders).",
]


NOTES = {
    "Seed": "the parameters of an example printed in the SA2 paper (sec. 2, Examples 5 and 6)",
    "SeedDoesNotHold": "the seed prints a smaller value (SA2 Example 5: 0.8) than the exact"
                       " moments accountant over these orders gives",
    "Boundary": "a parameter on or next to a decision point (a domain end, a limit, a tie, a"
                " branch of the computation)",
    "NearTie": "q close to 1: the two Renyi directions of a fractional order agree to about"
               " 8 (or 10) digits, so the larger one must be computed and taken",
    "Pruning": "a choice among the orders that the pruned search must reproduce exactly",
    "BadParameter": "an argument outside its domain; the implementation must reject it",
}


def _group(op: str, tests: list[tuple[str, dict[str, Any], list[str]]], tc: TestNumberer,
           invalid: list[tuple[str, dict[str, Any]]] | None = None,
           params: dict[str, Any] | None = None) -> dict[str, Any]:
    return build_group(tc, HANDLERS, P + op, tests,
                       [(c, i, "BadParameter") for c, i in invalid or []], params or {},
                       rejects=(ValueError, TypeError, ArithmeticError))


def _document() -> dict[str, Any]:
    tc = TestNumberer()
    g: list[dict[str, Any]] = []
    g.append(_group("poisson_amplification", [
        ("SA2 Example 6: (0.61, 1e-10) at q 0.02", {"eps": "0.61", "delta": "1e-10", "q": "0.02"},
         ["Seed"]),
        ("delta 0 is accepted (pure DP stays pure)", {"eps": "1", "delta": "0", "q": "0.5"},
         ["Boundary"]),
        ("delta 1 is accepted", {"eps": "1", "delta": "1", "q": "0.5"}, ["Boundary"]),
        ("eps 0", {"eps": "0", "delta": "1e-6", "q": "0.3"}, ["Boundary"]),
        ("q 0: (0, 0)", {"eps": "3", "delta": "1e-6", "q": "0"}, ["Boundary"]),
        ("q 1: unchanged", {"eps": "3", "delta": "1e-6", "q": "1"}, ["Boundary"]),
        ("large eps 40, q 1e-6", {"eps": "40", "delta": "1e-9", "q": "1e-6"}, []),
    ], tc, [
        ("eps -0.1", {"eps": "-0.1", "delta": "1e-6", "q": "0.5"}),
        ("delta -1e-9", {"eps": "1", "delta": "-1e-9", "q": "0.5"}),
        ("delta 1.5", {"eps": "1", "delta": "1.5", "q": "0.5"}),
        ("q -0.01", {"eps": "1", "delta": "1e-6", "q": "-0.01"}),
        ("q 1.01", {"eps": "1", "delta": "1e-6", "q": "1.01"}),
        ("eps not a number", {"eps": "one", "delta": "1e-6", "q": "0.5"}),
    ]))
    g.append(_group("without_replacement_amplification", [
        ("m 0: (0, 0)", {"eps": "1", "delta": "1e-6", "m": 0, "n": 10}, ["Boundary"]),
        ("m = n: unchanged", {"eps": "1", "delta": "1e-6", "m": 10, "n": 10}, ["Boundary"]),
        ("m 1 of n 1", {"eps": "2", "delta": "1e-3", "m": 1, "n": 1}, ["Boundary"]),
        ("delta 0 is accepted", {"eps": "1", "delta": "0", "m": 3, "n": 10}, ["Boundary"]),
        ("delta 1 is accepted", {"eps": "1", "delta": "1", "m": 3, "n": 10}, ["Boundary"]),
        ("eps 0", {"eps": "0", "delta": "1e-6", "m": 3, "n": 10}, ["Boundary"]),
        ("m and n as decimal-integer strings", {"eps": "0.5", "delta": "1e-8", "m": "7",
                                                "n": "1000"}, []),
        ("2 of 3: q is not a decimal fraction", {"eps": "1", "delta": "1e-6", "m": 2, "n": 3}, []),
    ], tc, [
        ("m > n", {"eps": "1", "delta": "1e-6", "m": 11, "n": 10}),
        ("m -1", {"eps": "1", "delta": "1e-6", "m": -1, "n": 10}),
        ("m 2.5 (not an integer)", {"eps": "1", "delta": "1e-6", "m": 2.5, "n": 10}),
        ("m true (a boolean)", {"eps": "1", "delta": "1e-6", "m": True, "n": 10}),
        ("n 0", {"eps": "1", "delta": "1e-6", "m": 0, "n": 0}),
        ("n 2.5 (not an integer)", {"eps": "1", "delta": "1e-6", "m": 1, "n": 2.5}),
        ("n true (a boolean)", {"eps": "1", "delta": "1e-6", "m": 1, "n": True}),
        ("eps -1", {"eps": "-1", "delta": "1e-6", "m": 1, "n": 10}),
        ("delta 1.5", {"eps": "1", "delta": "1.5", "m": 1, "n": 10}),
        ("delta -0.5", {"eps": "1", "delta": "-0.5", "m": 1, "n": 10}),
    ]))
    auto = {"method": "auto"}
    g.append(_group("sampled_gaussian_rdp", [
        ("near tie, q 1 - 1e-7, sigma 2, alpha 1.5",
         {"q": "0.9999999", "sigma": "2", "alpha": "1.5"}, ["NearTie"]),
        ("near tie, q 1 - 1e-9, sigma 2, alpha 1.5",
         {"q": "0.999999999", "sigma": "2", "alpha": "1.5"}, ["NearTie"]),
        ("near tie, q 0.999, sigma 10, alpha 2.5", {"q": "0.999", "sigma": "10", "alpha": "2.5"},
         ["NearTie"]),
        ("near tie, q 0.99, sigma 1, alpha 1.01", {"q": "0.99", "sigma": "1", "alpha": "1.01"},
         ["NearTie"]),
        ("near tie, q 1 - 1e-7, sigma 0.5, alpha 3.5",
         {"q": "0.9999999", "sigma": "0.5", "alpha": "3.5"}, ["NearTie"]),
        ("sigma 0.1, alpha 10.5: the bump at z ~ alpha is far beyond 40 sigma",
         {"q": "0.01", "sigma": "0.1", "alpha": "10.5"}, ["Boundary"]),
        ("sigma 0.3, alpha 3.5", {"q": "0.5", "sigma": "0.3", "alpha": "3.5"}, []),
        ("q 1e-11, sigma 0.1, alpha 1.5: both bumps of the integrand count",
         {"q": "1e-11", "sigma": "0.1", "alpha": "1.5"}, ["Boundary"]),
        ("alpha 1.5 < sigma 5: one interval around 0", {"q": "0.1", "sigma": "5", "alpha": "1.5"},
         ["Boundary"]),
        ("alpha = sigma = 2.5", {"q": "0.1", "sigma": "2.5", "alpha": "2.5"}, ["Boundary"]),
        ("alpha 1.0001, just above 1", {"q": "0.2", "sigma": "1", "alpha": "1.0001"},
         ["Boundary"]),
        ("integer alpha 2, the sum", {"q": "0.2", "sigma": "0.7", "alpha": "2"}, ["Boundary"]),
        ("integer alpha 3, the sum", {"q": "0.2", "sigma": "0.7", "alpha": "3"}, []),
        ("integer alpha 40, small q", {"q": "1e-4", "sigma": "1.5", "alpha": "40"}, []),
        ("integer alpha written 3.0", {"q": "0.2", "sigma": "0.7", "alpha": "3.0"}, []),
        ("q 0, fractional alpha: exactly 0", {"q": "0", "sigma": "1", "alpha": "2.5"},
         ["Boundary"]),
        ("q 0, integer alpha: exactly 0", {"q": "0", "sigma": "0.5", "alpha": "7"}, ["Boundary"]),
        ("q 1, fractional alpha: alpha / (2 sigma^2)", {"q": "1", "sigma": "2", "alpha": "2.5"},
         ["Boundary"]),
        ("sigma 10^30: rdp = log1p(q^2 expm1(sigma^-2)) = 2.5e-61, kept by summing A - 1 (A"
         " itself is 1 to the working precision)",
         {"q": "0.5", "sigma": "1e30", "alpha": "2"}, ["Boundary"]),
        ("sigma 10^30, fractional alpha: alpha q^2 expm1(sigma^-2)/2 = 3.1e-61, kept by"
         " integrating the moments' excess over 1 (integrating the moments gave 0)",
         {"q": "0.5", "sigma": "1e30", "alpha": "2.5"},
         ["Boundary"]),
        ("q 0, sigma 0.11, alpha 1.25: exactly 0 (the integrals would leave rounding noise)",
         {"q": "0", "sigma": "0.11", "alpha": "1.25"}, ["Boundary"]),
        ("q 0.3, sigma 10^30, alpha 2: 9e-62 (the 50-digit sum of A itself rounds below 1, and"
         " clamped gave 0)",
         {"q": "0.3", "sigma": "1e30", "alpha": "2"}, ["Boundary"]),
        ("q 1e-30, sigma 1000, alpha 1.25: 6.3e-67 from the moments' excess over 1 (the moments"
         " themselves rounded below 1, which gave 0)",
         {"q": "1e-30", "sigma": "1000", "alpha": "1.25"}, ["Boundary"]),
    ], tc, [
        ("alpha 1", {"q": "0.5", "sigma": "1", "alpha": "1"}),
        ("alpha 1 with q 0 (checked before the q = 0 shortcut)",
         {"q": "0", "sigma": "1", "alpha": "1"}),
        ("alpha 1 with q 1 (checked before the q = 1 shortcut)",
         {"q": "1", "sigma": "1", "alpha": "1"}),
        ("alpha 0.5 with q 0", {"q": "0", "sigma": "1", "alpha": "0.5"}),
        ("alpha 0.999 with q 1", {"q": "1", "sigma": "1", "alpha": "0.999"}),
        ("q -0.1", {"q": "-0.1", "sigma": "1", "alpha": "2"}),
        ("q 1.1", {"q": "1.1", "sigma": "1", "alpha": "2"}),
        ("sigma 0", {"q": "0.1", "sigma": "0", "alpha": "2"}),
        ("sigma -1", {"q": "0.1", "sigma": "-1", "alpha": "2"}),
    ], params=auto))
    g.append(_group("sampled_gaussian_rdp", [
        ("integer alpha 7 by the integral, sigma 0.2",
         {"q": "0.1", "sigma": "0.2", "alpha": "7"}, ["Boundary"]),
        ("integer alpha 12 by the integral, sigma 0.5",
         {"q": "0.3", "sigma": "0.5", "alpha": "12"}, []),
        ("fractional alpha 4.5 by the integral", {"q": "0.05", "sigma": "0.8", "alpha": "4.5"}, []),
        ("q 0 by the integral", {"q": "0", "sigma": "1", "alpha": "3"}, ["Boundary"]),
        ("q 0 by the integral, sigma 0.11: exactly 0", {"q": "0", "sigma": "0.11", "alpha": "3"},
         ["Boundary"]),
    ], tc, [
        ("alpha 1 by the integral", {"q": "0.5", "sigma": "1", "alpha": "1"}),
    ], params={"method": "integral"}))
    g.append(_group("sampled_gaussian_rdp", [
        ("alpha 2 by the sum", {"q": "0.1", "sigma": "1", "alpha": "2"}, []),
        ("alpha 30 by the sum", {"q": "0.02", "sigma": "0.9", "alpha": "30"}, []),
        ("q 1 by the sum (shortcut)", {"q": "1", "sigma": "3", "alpha": "5"}, ["Boundary"]),
    ], tc, [
        ("alpha 2.000001 by the sum", {"q": "0.1", "sigma": "1", "alpha": "2.000001"}),
        ("alpha 2.5 by the sum", {"q": "0.1", "sigma": "1", "alpha": "2.5"}),
    ], params={"method": "sum"}))
    g.append(_group("sampled_gaussian_rdp", [], tc, [
        ("unknown method, integer alpha", {"q": "0.1", "sigma": "1", "alpha": "2"}),
        ("unknown method, fractional alpha", {"q": "0.1", "sigma": "1", "alpha": "2.5"}),
    ], params={"method": "series"}))
    g.append(_group("subsampled_gaussian_epsilon", [
        ("SA2 Example 5: sigma 5.1, q 0.02, 2500 steps, delta 1e-8",
         {"q": "0.02", "sigma": "5.1", "steps": 2500, "delta": "1e-8",
          "orders": ["1.5", "2", "4", "8", "16", "24", "32", "48", "64"]}, ["Seed", "SeedDoesNotHold"]),
        ("fractional 1.5 wins below every integer order (lower bound 0 there)",
         {"q": "0.01", "sigma": "0.3", "steps": 1, "delta": "0.1", "orders": ["1.5", "2", "3"]},
         ["Pruning"]),
        ("fractional 1.5 wins; order 64 (listed first) must not bound it",
         {"q": "0.01", "sigma": "0.3", "steps": 1, "delta": "0.1",
          "orders": ["64", "3", "2", "1.5"]}, ["Pruning"]),
        ("fractional 1.5 is evaluated (its lower bound 21.1 is below 30.05) and loses to 2",
         {"q": "0.5", "sigma": "0.8", "steps": 30, "delta": "1e-5",
          "orders": ["1.5", "2", "3", "64"]}, ["Pruning"]),
        ("fractional 1.2 wins", {"q": "0.9", "sigma": "0.7", "steps": 50, "delta": "0.01",
                                 "orders": ["1.2", "1.5", "2", "3", "64"]}, ["Pruning"]),
        ("all orders convert to 0 (delta 0.5): the first integer order is reported, not 1.5",
         {"q": "0.01", "sigma": "2", "steps": 1, "delta": "0.5", "orders": ["1.5", "2", "3"]},
         ["Pruning", "Boundary"]),
        ("duplicated orders 2 and 2.0", {"q": "0.1", "sigma": "1", "steps": 10, "delta": "1e-5",
                                         "orders": ["2", "2.0", "4", "8"]}, []),
        ("steps 10^15 (the limit), q 1e-9", {"q": "1e-9", "sigma": "1", "steps": 10**15,
                                             "delta": "1e-5", "orders": ["2", "4"]},
         ["Boundary"]),
        ("q 0: (0, 0)", {"q": "0", "sigma": "1", "steps": 5, "delta": "1e-6", "orders": ["2"]},
         ["Boundary"]),
        ("q 1: the Gaussian's RDP at the listed orders",
         {"q": "1", "sigma": "3", "steps": 4, "delta": "1e-6", "orders": ["2", "4", "8", "16"]},
         ["Boundary"]),
        ("sigma 10^4: the zCDP bound wins (order 0)",
         {"q": "0.5", "sigma": "10000", "steps": 1, "delta": "1e-6", "orders": ["2", "4"]},
         ["Boundary"]),
    ], tc, [
        ("steps 0", {"q": "0.1", "sigma": "1", "steps": 0, "delta": "1e-6", "orders": ["2"]}),
        ("steps 10^15 + 1", {"q": "0.1", "sigma": "1", "steps": 10**15 + 1, "delta": "1e-6",
                             "orders": ["2"]}),
        ("q 1.5", {"q": "1.5", "sigma": "1", "steps": 1, "delta": "1e-6", "orders": ["2"]}),
        ("sigma 0", {"q": "0.1", "sigma": "0", "steps": 1, "delta": "1e-6", "orders": ["2"]}),
        ("delta 0", {"q": "0.1", "sigma": "1", "steps": 1, "delta": "0", "orders": ["2"]}),
        ("delta 1", {"q": "0.1", "sigma": "1", "steps": 1, "delta": "1", "orders": ["2"]}),
        ("no orders", {"q": "0.1", "sigma": "1", "steps": 1, "delta": "1e-6", "orders": []}),
        ("an order 1", {"q": "0.1", "sigma": "1", "steps": 1, "delta": "1e-6",
                        "orders": ["1", "2"]}),
    ]))
    return envelope(algorithm="privacy amplification by subsampling", family=NAME, schema=SCHEMA,
                    header=HEADER, notes=NOTES, groups=g)


class AccountingSubsamplingFamily(AccountingFamily):
    """Its own ops, file and schema; cases and compare as the accounting family's (per-op
    tolerances, here this module's :data:`TOLERANCE`), and ``rdp``/``eps`` never negative."""

    name = NAME
    summary = "privacy amplification by subsampling and the subsampled Gaussian's moments accountant"
    tolerance = TOLERANCE

    def handlers(self) -> dict[str, Handler]:
        return dict(HANDLERS)

    def schemas(self) -> dict[str, dict[str, Any]]:
        ops = any_value_ops(_ARG_NAMES)
        return {SCHEMA: family_schema(SCHEMA, "dpspec accounting-subsampling vectors, version 1",
                                      ops)}

    def compare(self, case: Case, provided: dict[str, Any]) -> str | None:
        why = super().compare(case, provided)
        if why or not isinstance(provided, dict):
            return why
        for key in NON_NEGATIVE:
            value = provided.get(key)
            if isinstance(value, str):
                try:
                    with mpmath.workdps(DPS):
                        negative = mpf(value) < 0
                except (ValueError, TypeError):
                    continue
                if negative:
                    return f"{key}: {value} is negative"
        return None

    def files(self) -> list[VectorFile]:
        return [VectorFile(f"{NAME}/subsampling.json", _document(), SCHEMA)]


FAMILY = AccountingSubsamplingFamily()
