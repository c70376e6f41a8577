"""Privacy verdicts: is an implementation's answer UNSAFE, EXACT or CONSERVATIVE?

A two-sided tolerance ("expected X, got Y") answers the wrong question for accounting. What an
implementer needs to know is whether the answer *loses privacy*. For every op whose answer is a
noise parameter or a privacy parameter, the harness recomputes the true privacy at the
implementation's answer with :mod:`dpspec.spec.accounting` (mpmath, 40 digits; nothing is
re-derived here) and says:

* **UNSAFE**: the answer claims more privacy than it gives. For a noise parameter (``sigma``,
  ``lambda``, ``r``, ``scale``) the true delta (or epsilon) at that noise exceeds the target; for
  a privacy parameter (``eps``, ``delta``, an RDP curve) the answer is below the true value. The
  verdict carries the true value and its ratio to the target (or to the claim). UNSAFE fails.
* **EXACT**: within :data:`PRIVACY_REL` (relative) of the truth.
* **CONSERVATIVE**: safe, with the stated looseness: for a noise parameter, how much more noise
  than the smallest safe one (``+x %``); for a privacy parameter, how much above the truth.
  It passes, unless ``--max-slack`` is given and the looseness exceeds it.

"The truth" is, per op, either the exact privacy of the mechanism (the Gaussian, discrete
Gaussian, Poisson and negative-binomial deltas, the discrete Laplace epsilon, the k-fold Gaussian,
the optimal composition) or, for ops that name a bound (basic, advanced, KOV composition, an RDP
conversion), the value of that named bound: an answer below the bound it names claims what that
method cannot certify, and is reported UNSAFE just the same. :data:`RULES` says which, per op.

Answers may be certified intervals ``{"lower": L, "upper": U}`` (a PLD or PRV accountant's
bounds): such an answer is EXACT when ``L <= truth <= U`` (within :data:`PRIVACY_REL`), with the
interval's relative width reported; UNSAFE when ``U`` is below the truth; WRONG (fails) when ``L``
is above it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import mpmath

from dpspec.spec.accounting import (
    composition,
    definitions,
    discrete,
    gaussian,
    ghazi,
    subsampling,
)
from dpspec.spec.accounting.numeric import DPS, mpf

UNSAFE = "UNSAFE"
EXACT = "EXACT"
CONSERVATIVE = "CONSERVATIVE"
WRONG = "WRONG"
#: severity order, worst first
ORDER = (UNSAFE, WRONG, CONSERVATIVE, EXACT)

#: the stated precision: a true privacy parameter within this relative distance of the target
#: (or of the claim) is EXACT. It covers binary64 answers to a 40-digit truth (1e-15) and
#: series truncation in the libraries (1e-12), and is far below any looseness that matters.
PRIVACY_REL = mpmath.mpf("1e-9")


def _n(x: Any) -> mpmath.mpf:
    """A number from a JSON answer (decimal string, sqrt(R), int or float)."""
    if isinstance(x, bool) or not isinstance(x, str | int | float):
        raise ValueError(f"expected a number, got {x!r}")
    if isinstance(x, str | float) and str(x).strip().lower() in ("inf", "+inf", "infinity"):
        return mpmath.inf  # a trivial, but valid, upper bound
    return mpf(x if isinstance(x, str) else repr(x) if isinstance(x, float) else x)


number = _n


def _s(x: mpmath.mpf) -> str:
    if mpmath.isinf(x):
        return "inf"
    return str(mpmath.nstr(x, 12, min_fixed=-4, max_fixed=12))


@dataclass(frozen=True)
class Verdict:
    """The verdict on one judged answer (or the worst over several)."""

    status: str
    output: str          # the judged output key (``sigma``, ``eps``, ``rdp[3]`` ...)
    measure: str         # the privacy quantity compared (``delta``, ``eps``, ``rho``, ``rdp``)
    truth: str           # the true value of ``measure`` at the implementation's answer
    reference: str       # the target (noise ops) or the claimed value (privacy ops)
    ratio: str           # truth / reference (> 1 means UNSAFE)
    slack: str           # relative looseness (0.05 = 5 % more noise, or 5 % above the truth)
    width: str = ""      # relative width of a certified interval answer
    basis: str = ""      # "exact" or the named bound
    noise: bool = False  # the answer is a noise parameter (reference = the target privacy)

    @property
    def fails_privacy(self) -> bool:
        return self.status in (UNSAFE, WRONG)

    def fails(self, max_slack: float | None) -> bool:
        if self.fails_privacy:
            return True
        return (max_slack is not None and self.status == CONSERVATIVE
                and float(self.slack) > max_slack)

    def line(self) -> str:
        """One human line."""
        if self.status == UNSAFE:
            return (f"UNSAFE: {self.output} gives true {self.measure} {self.truth}, "
                    f"{_ratio_text(self.ratio)} the {'target' if self.noise else 'claim'}"
                    f" {self.reference} ({self.basis})")
        if self.status == WRONG:
            return (f"WRONG: the interval for {self.output} lies above the true {self.measure} "
                    f"{self.truth} ({self.basis})")
        extra = f", interval width {float(self.width):.3g}" if self.width else ""
        if self.status == EXACT:
            return f"EXACT: {self.output} (true {self.measure} {self.truth}){extra}"
        return (f"CONSERVATIVE (+{100 * float(self.slack):.4g} %): {self.output} (true "
                f"{self.measure} {self.truth} vs {self.reference}){extra}")

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"status": self.status, "output": self.output, "measure": self.measure,
               "truth": self.truth, "reference": self.reference, "ratio": self.ratio,
               "slack": self.slack, "basis": self.basis}
        if self.width:
            doc["width"] = self.width
        if self.noise:
            doc["noise"] = True
        return doc


def _ratio_text(ratio: str) -> str:
    return f"{ratio}x" if ratio != "inf" else "infinitely above"


# -- the two shapes of judgement ---------------------------------------------------------------
def judge_noise(output: str, measure: str, value: mpmath.mpf, target: mpmath.mpf,
                privacy_at: Callable[[mpmath.mpf], mpmath.mpf],
                minimal: Callable[[], mpmath.mpf], basis: str = "exact") -> Verdict:
    """A noise parameter ``value`` calibrated for ``measure`` <= ``target``.

    ``privacy_at(v)``: the true ``measure`` with noise ``v``; ``minimal()``: the smallest safe
    noise parameter (only evaluated for safe answers, to state the looseness).
    """
    with mpmath.workdps(DPS):
        true = privacy_at(value)
        ratio = true / target if target > 0 else (mpmath.inf if true > 0 else mpmath.mpf(1))
        if true > target * (1 + PRIVACY_REL):
            return Verdict(UNSAFE, output, measure, _s(true), _s(target), _s(ratio), "0",
                           basis=basis, noise=True)
        try:
            slack = value / minimal() - 1
        except (ValueError, ArithmeticError):  # no smaller safe value exists: the answer is it
            slack = mpmath.mpf(0)
        status = EXACT if slack <= PRIVACY_REL else CONSERVATIVE
        return Verdict(status, output, measure, _s(true), _s(target), _s(ratio),
                       _s(max(slack, mpmath.mpf(0))), basis=basis, noise=True)


def judge_privacy(output: str, measure: str, answer: Any, truth: mpmath.mpf,
                  basis: str = "exact") -> Verdict:
    """A claimed privacy parameter (a number, or ``{"lower", "upper"}``) against the truth."""
    with mpmath.workdps(DPS):
        tol = PRIVACY_REL
        if isinstance(answer, dict):
            lo, hi = _n(answer["lower"]), _n(answer["upper"])
            if lo > hi:
                raise ValueError(f"{output}: lower {answer['lower']} is above upper {answer['upper']}")
            width = (hi - lo) / truth if truth > 0 else hi - lo
            if hi < truth * (1 - tol):
                return Verdict(UNSAFE, output, measure, _s(truth), _s(hi), _ratio(truth, hi),
                               "0", _s(width), basis)
            if lo > truth * (1 + tol):
                return Verdict(WRONG, output, measure, _s(truth), _s(lo), _ratio(truth, lo),
                               "0", _s(width), basis)
            return Verdict(EXACT, output, measure, _s(truth), _s(hi), _ratio(truth, hi), "0",
                           _s(width), basis)
        a = _n(answer)
        if a < truth * (1 - tol):
            return Verdict(UNSAFE, output, measure, _s(truth), _s(a), _ratio(truth, a), "0",
                           basis=basis)
        slack = (a / truth - 1) if truth > 0 else (mpmath.mpf(0) if a == 0 else mpmath.inf)
        status = EXACT if slack <= tol else CONSERVATIVE
        return Verdict(status, output, measure, _s(truth), _s(a), _ratio(truth, a), _s(slack),
                       basis=basis)


def _ratio(truth: mpmath.mpf, claim: mpmath.mpf) -> str:
    if claim > 0:
        return _s(truth / claim)
    return "1" if truth == 0 and claim == 0 else "inf"  # a negative claim is infinitely wrong


def judge_composition(got: Mapping[str, Any], eps: Any, delta: Any, k: int, basis: str
                      ) -> Verdict:
    """A claimed (eps', delta') for the k-fold composition of (eps, delta)-DP mechanisms.

    Whatever bound the implementation used, the claim is UNSAFE exactly when the optimal
    composition ([KOV15] Thm 3.3, exact) needs more than delta' at eps'; its looseness is eps'
    over the optimal epsilon at delta'. The named bound (``basis``) is stated alongside.
    """
    claimed_eps, claimed_delta = _n(got["eps"]), _n(got["delta"])
    return judge_noise(
        "eps", "delta", claimed_eps, claimed_delta,
        lambda e: composition.optimal_composition_delta(eps, delta, k, e),
        lambda: composition.optimal_composition_epsilon(eps, delta, k, claimed_delta),
        basis=f"optimal composition; the op names {basis}")


def worst(verdicts: Sequence[Verdict]) -> Verdict:
    """The most severe verdict (the loosest among equally severe ones)."""
    def key(v: Verdict) -> tuple[int, float]:
        return ORDER.index(v.status), -float(v.slack if v.slack != "inf" else "inf")
    return min(verdicts, key=key)


# -- the rules, per op --------------------------------------------------------------------------
Args = Mapping[str, Any]
Expected = Mapping[str, Any] | None
#: (args, provided outputs, expected outputs or None) -> one verdict per judged output
Rule = Callable[[Args, Mapping[str, Any], Expected], list[Verdict]]


_MEMO: dict[str, Any] = {}
_MEMO_LIMIT = 20000


def memo(tag: str, args: Args, compute: Callable[[], Any]) -> Any:
    """``compute()``, remembered by ``tag`` and the arguments: a truth that depends on the
    arguments only is computed once per run, not once per implementation."""
    import json

    key = tag + json.dumps(args, sort_keys=True, default=str)
    if key not in _MEMO:
        if len(_MEMO) >= _MEMO_LIMIT:
            _MEMO.clear()
        _MEMO[key] = compute()
    return _MEMO[key]


def _minimal(expected: Expected, key: str, compute: Callable[[], Any],
             args: Args | None = None) -> Callable[[], mpmath.mpf]:
    """The smallest safe noise parameter: the vector's (rounded up) value, else computed."""
    def get() -> mpmath.mpf:
        if expected is not None and isinstance(expected.get(key), str):
            return mpf(expected[key])
        if args is not None:
            return mpf(memo("minimal:" + key, args, compute))
        return mpf(compute())
    return get


def _vector(args: Args) -> tuple[int, ...]:
    v = args["vector"]
    if not isinstance(v, list) or not all(isinstance(x, int) and not isinstance(x, bool) for x in v):
        raise ValueError("vector must be a list of integers")
    return tuple(v)


def r_gaussian_sigma(a: Args, got: Mapping[str, Any], exp: Expected) -> list[Verdict]:
    eps, delta, sens = a["eps"], mpf(a["delta"]), a["sensitivity"]
    return [judge_noise(
        "sigma", "delta", _n(got["sigma"]), delta,
        lambda s: gaussian.gaussian_delta(eps, s, sens),
        _minimal(exp, "sigma", lambda: gaussian.calibrate_gaussian_sigma(eps, delta, sens,
                                                                         digits=15).exact, a))]


def r_dg_sigma(a: Args, got: Mapping[str, Any], exp: Expected) -> list[Verdict]:
    eps, delta, vec = a["eps"], mpf(a["delta"]), _vector(a)
    return [judge_noise(
        "sigma", "delta", _n(got["sigma"]), delta,
        lambda s: discrete.discrete_gaussian_delta(eps, s, vec),
        _minimal(exp, "sigma", lambda: discrete.calibrate_discrete_gaussian_sigma(
            eps, delta, vec, digits=12).sigma))]


def r_ghazi_min(a: Args, got: Mapping[str, Any], exp: Expected) -> list[Verdict]:
    eps, delta, sens = a["eps"], mpf(a["delta"]), a["sensitivity"]
    if a["mechanism"] == "poisson":
        return [judge_noise(
            "lambda", "delta", _n(got["lambda"]), delta,
            lambda v: ghazi.poisson_mechanism_delta(eps, v, sens),
            _minimal(exp, "lambda", lambda: ghazi.minimal_poisson_lambda(eps, delta, sens,
                                                                         digits=12).value))]
    p = a["p"]
    return [judge_noise(
        "r", "delta", _n(got["r"]), delta,
        lambda v: ghazi.negative_binomial_mechanism_delta(eps, v, p, sens),
        _minimal(exp, "r", lambda: ghazi.minimal_negative_binomial_r(eps, delta, p, sens,
                                                                     digits=12).value))]


def r_gaussian_delta(a: Args, got: Mapping[str, Any], exp: Expected) -> list[Verdict]:
    return [judge_privacy("delta", "delta", got["delta"],
                          gaussian.gaussian_delta(a["eps"], a["sigma"], a["sensitivity"]))]


def r_dg_delta(a: Args, got: Mapping[str, Any], exp: Expected) -> list[Verdict]:
    return [judge_privacy("delta", "delta", got["delta"],
                          discrete.discrete_gaussian_delta(a["eps"], a["sigma"], _vector(a)))]


def r_ghazi_delta(a: Args, got: Mapping[str, Any], exp: Expected) -> list[Verdict]:
    if a["mechanism"] == "poisson":
        truth = ghazi.poisson_mechanism_delta(a["eps"], a["lambda"], a["sensitivity"])
    else:
        truth = ghazi.negative_binomial_mechanism_delta(a["eps"], a["r"], a["p"], a["sensitivity"])
    return [judge_privacy("delta", "delta", got["delta"], truth)]


def r_rdp_to_dp(a: Args, got: Mapping[str, Any], exp: Expected) -> list[Verdict]:
    return [judge_privacy("eps", "eps", got["eps"],
                          definitions.rdp_to_dp_epsilon(a["rdp"], a["alpha"], a["delta"]),
                          "RDP conversion of SA2 Thm 1")]


def r_zcdp_to_dp(a: Args, got: Mapping[str, Any], exp: Expected) -> list[Verdict]:
    return [judge_privacy("eps", "eps", got["eps"],
                          definitions.zcdp_to_dp_epsilon(a["rho"], a["delta"]),
                          "zCDP conversion (SA2 Thm 1 over alpha)")]


def r_sampled_rdp(a: Args, got: Mapping[str, Any], exp: Expected) -> list[Verdict]:
    return [judge_privacy("rdp", "rdp", got["rdp"],
                          subsampling.sampled_gaussian_rdp(a["q"], a["sigma"], a["alpha"]))]


def r_subsampled_eps(a: Args, got: Mapping[str, Any], exp: Expected) -> list[Verdict]:
    eps, _ = subsampling.subsampled_gaussian_epsilon(a["q"], a["sigma"], a["steps"], a["delta"],
                                                     a["orders"])
    return [judge_privacy("eps", "eps", got["eps"], eps,
                          "RDP at the given orders, SA2 Thm 1 conversion")]


def r_dlap_eps(a: Args, got: Mapping[str, Any], exp: Expected) -> list[Verdict]:
    return [judge_privacy("eps", "eps", got["eps"],
                          discrete.discrete_laplace_epsilon(a["scale"], a["l1Sensitivity"]))]


#: op -> rule. Ops of the ``accounting`` family (vectors) and of ``privacy`` (native accountant
#: ops, :mod:`dpspec.conformance.families.privacy`, which adds its own rules to this table).
RULES: dict[str, Rule] = {
    "accounting.gaussian_sigma": r_gaussian_sigma,
    "accounting.discrete_gaussian_sigma": r_dg_sigma,
    "accounting.ghazi_minimal_parameter": r_ghazi_min,
    "accounting.gaussian_delta": r_gaussian_delta,
    "accounting.discrete_gaussian_delta": r_dg_delta,
    "accounting.ghazi_mechanism_delta": r_ghazi_delta,
    "accounting.rdp_to_dp": r_rdp_to_dp,
    "accounting.zcdp_to_dp": r_zcdp_to_dp,
    "accounting.sampled_gaussian_rdp": r_sampled_rdp,
    "accounting.subsampled_gaussian_epsilon": r_subsampled_eps,
    "accounting.discrete_laplace": r_dlap_eps,
}
#: outputs a rule judges, per op (the rest of the outputs are compared by the family)
JUDGED: dict[str, tuple[str, ...]] = {
    "accounting.gaussian_sigma": ("sigma",),
    "accounting.discrete_gaussian_sigma": ("sigma",),
    "accounting.ghazi_minimal_parameter": ("lambda", "r"),
    "accounting.gaussian_delta": ("delta",),
    "accounting.discrete_gaussian_delta": ("delta",),
    "accounting.ghazi_mechanism_delta": ("delta",),
    "accounting.rdp_to_dp": ("eps",),
    "accounting.zcdp_to_dp": ("eps",),
    "accounting.sampled_gaussian_rdp": ("rdp",),
    "accounting.subsampled_gaussian_epsilon": ("eps", "order"),
    "accounting.discrete_laplace": ("eps",),
}


def register(op: str, rule: Rule, judged: tuple[str, ...]) -> None:
    """Add a rule (families call this for their own ops)."""
    RULES[op] = rule
    JUDGED[op] = judged


def judge(op: str, args: Args, provided: Mapping[str, Any], expected: Expected = None
          ) -> Verdict | None:
    """The verdict on ``provided`` for ``op`` (None if the op has no rule).

    Raises ValueError (or KeyError, TypeError) if an output is missing or not a number.
    """
    rule = RULES.get(op)
    if rule is None:
        from dpspec.conformance.families import all_families

        all_families()  # families register their own ops' rules when imported
        rule = RULES.get(op)
    if rule is None:
        return None
    with mpmath.workdps(DPS):
        return worst(rule(args, provided, expected))


def ratio_of(v: Verdict) -> mpmath.mpf:
    """truth / reference as a number (inf allowed)."""
    return mpmath.inf if v.ratio == "inf" else mpf(v.ratio)


__all__ = ["CONSERVATIVE", "EXACT", "PRIVACY_REL", "RULES", "UNSAFE", "WRONG", "Verdict", "judge",
           "judge_noise", "judge_privacy", "register", "worst"]
