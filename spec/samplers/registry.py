"""The sampler registry: name -> parameters, callable and tape tag (for the CLI and the vectors)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from spec.samplers.core import (
    bernoulli,
    bernoulli_exp,
    bernoulli_rr,
    discrete_gaussian,
    discrete_gaussian_vector,
    discrete_laplace,
    geometric,
    geometric_exp,
)
from spec.samplers.counts import (
    binomial,
    binomial_rr,
    binomial_textbook,
    negative_binomial,
    negative_binomial_exp,
    poisson,
)
from spec.tape import RandomTape


@dataclass(frozen=True)
class Param:
    """One parameter: its name, kind ("rational" or "integer") and meaning."""

    name: str
    kind: str
    description: str


@dataclass(frozen=True)
class Sampler:
    """A registered sampler. ``func(tape, **params)`` returns an int (a list for vector samplers)."""

    name: str
    params: tuple[Param, ...]
    func: Callable[..., Any]
    tag: str
    description: str
    vector: bool = False

    def draw(self, tape: RandomTape, params: dict[str, Any]) -> Any:
        """One sample with ``params`` (a mapping name -> value, every parameter present)."""
        missing = [p.name for p in self.params if p.name not in params]
        extra = sorted(set(params) - {p.name for p in self.params})
        if missing or extra:
            raise ValueError(f"{self.name}: missing parameters {missing}, unknown {extra}")
        return self.func(tape, **{p.name: params[p.name] for p in self.params})

    def signature(self) -> str:
        return f"{self.name}(" + ", ".join(f"{p.name}: {p.kind}" for p in self.params) + ")"


def _tag(name: str) -> str:
    return f"dpspec/sampler/{name}"


_P = Param("p", "rational", "probability in [0, 1]")
_N = Param("n", "integer", "number of trials, >= 0")
_EPS = Param("eps", "rational", "epsilon >= 0; flip probability 1/(1+exp(eps))")

_ALL = [
    Sampler("bernoulli", (_P,), bernoulli, _tag("bernoulli"), "Bernoulli(p): 1 with probability p"),
    Sampler("bernoulli_exp", (Param("gamma", "rational", ">= 0"),), bernoulli_exp,
            _tag("bernoulli_exp"), "Bernoulli(exp(-gamma)) (CKS20 Algorithm 1)"),
    Sampler("bernoulli_rr", (_EPS,), bernoulli_rr, _tag("bernoulli_rr"),
            "Bernoulli(1/(1+exp(eps))), the randomized-response flip (two-coin factory)"),
    Sampler("geometric", (Param("p", "rational", "success probability in (0, 1]"),), geometric,
            _tag("geometric"), "P[k] = (1-p)^k p, k >= 0 (failures before the first success)"),
    Sampler("geometric_exp", (Param("gamma", "rational", "> 0"),), geometric_exp,
            _tag("geometric_exp"), "P[k] = (1-exp(-gamma)) exp(-gamma k), k >= 0"),
    Sampler("discrete_laplace", (Param("t", "rational", "scale > 0"),), discrete_laplace,
            _tag("discrete_laplace"), "P[x] proportional to exp(-|x|/t) on the integers"),
    Sampler("discrete_gaussian", (Param("sigma2", "rational", "variance parameter > 0"),),
            discrete_gaussian, _tag("discrete_gaussian"),
            "P[x] proportional to exp(-x^2/(2 sigma2)) on the integers (CKS20 Algorithm 3)"),
    Sampler("discrete_gaussian_vector",
            (Param("sigma2", "rational", "variance parameter > 0"),
             Param("dim", "integer", "dimension >= 1")),
            discrete_gaussian_vector, _tag("discrete_gaussian_vector"),
            "dim independent discrete Gaussian samples", vector=True),
    Sampler("binomial", (_N, _P), binomial, _tag("binomial"),
            "Binomial(n, p), exact, cost O(1 + n min(p, 1-p))"),
    Sampler("binomial_textbook", (_N, _P), binomial_textbook, _tag("binomial_textbook"),
            "Binomial(n, p) as a sum of n Bernoulli(p)"),
    Sampler("binomial_rr", (_N, _EPS), binomial_rr, _tag("binomial_rr"),
            "Binomial(n, 1/(1+exp(eps))), exact"),
    Sampler("poisson", (Param("lam", "rational", "mean in [0, 10^6]"),), poisson,
            _tag("poisson"), "Poisson(lam), exact"),
    Sampler("negative_binomial",
            (Param("r", "rational", "> 0 (fractional shares allowed)"),
             Param("p", "rational", "in [0, 1)")),
            negative_binomial, _tag("negative_binomial"),
            "NB(r, p): P[k] = C(k+r-1, k) (1-p)^r p^k, exact"),
    Sampler("negative_binomial_exp",
            (Param("r", "rational", "> 0 (fractional shares allowed)"),
             Param("gamma", "rational", "> 0; p = exp(-gamma)")),
            negative_binomial_exp, _tag("negative_binomial_exp"),
            "NB(r, exp(-gamma)), exact (Ghazi et al.'s p = e^(-eps))"),
]

#: name -> Sampler
SAMPLERS: dict[str, Sampler] = {s.name: s for s in _ALL}
