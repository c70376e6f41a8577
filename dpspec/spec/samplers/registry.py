"""The sampler registry: name -> parameters, callable and tape tag (for the CLI and the vectors)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from typing import Any

import mpmath

from dpspec.spec import distributions as dist
from dpspec.spec.rational import parse_int, parse_rational
from dpspec.spec.samplers import core, counts, rational_only
from dpspec.spec.tape import RandomTape


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
    pmf_func: Callable[[Mapping[str, Any], int], Any] | None = None

    def pmf(self, params: Mapping[str, Any], x: int | list[int]) -> Any:
        """The exact probability (an mpmath number, 50 digits) that one sample equals ``x``.

        For the statistical mode of the conformance harness. A vector sampler's sample is a list:
        its probability is the product over the coordinates.
        """
        assert self.pmf_func is not None
        if self.vector:
            assert isinstance(x, list)
            if len(x) != parse_int(params["dim"], "dim"):
                return mpmath.mpf(0)
            total = mpmath.mpf(1)
            for v in x:
                total *= self.pmf_func(params, v)
            return total
        assert isinstance(x, int)
        return self.pmf_func(params, x)

    def draw(self, tape: RandomTape, params: dict[str, Any]) -> Any:
        """One sample with ``params`` (a mapping name -> value, every parameter present)."""
        missing = [p.name for p in self.params if p.name not in params]
        extra = sorted(set(params) - {p.name for p in self.params})
        if missing or extra:
            raise ValueError(f"{self.name}: missing parameters {missing}, unknown {extra}")
        return self.func(tape, **{p.name: params[p.name] for p in self.params})

    def signature(self) -> str:
        return f"{self.name}(" + ", ".join(f"{p.name}: {p.kind}" for p in self.params) + ")"


def _q(params: Mapping[str, Any], name: str) -> Fraction:
    return parse_rational(params[name], name)


def _exp_neg(q: Fraction) -> Any:
    return mpmath.exp(-dist.to_mpf(q))


def _two_point(prob: Any, k: int) -> Any:
    return prob if k == 1 else (1 - prob if k == 0 else mpmath.mpf(0))


@lru_cache(maxsize=64)
def _dg_normaliser(sigma2: Fraction) -> Any:
    return dist.discrete_gaussian_normaliser(sigma2)


def _dg_pmf(params: Mapping[str, Any], x: int) -> Any:
    s2 = _q(params, "sigma2")
    return dist.discrete_gaussian_pmf(s2, x, normaliser=_dg_normaliser(s2))


def _nb_pmf(r: Any, p: Any, k: int) -> Any:
    if k < 0:
        return mpmath.mpf(0)
    log_c = mpmath.loggamma(k + r) - mpmath.loggamma(k + 1) - mpmath.loggamma(r)
    return mpmath.exp(log_c + r * mpmath.log(1 - p) + k * mpmath.log(p))


def _with_dps(f: Callable[[Mapping[str, Any], int], Any]) -> Callable[[Mapping[str, Any], int], Any]:
    def wrapped(params: Mapping[str, Any], x: int) -> Any:
        with mpmath.workdps(50):
            return f(params, x)
    return wrapped


_PMF: dict[str, Callable[[Mapping[str, Any], int], Any]] = {
    "bernoulli": lambda a, k: _two_point(dist.to_mpf(_q(a, "p")), k),
    "bernoulli_exp": lambda a, k: _two_point(_exp_neg(_q(a, "gamma")), k),
    "bernoulli_rr": lambda a, k: _two_point(1 / (1 + 1 / _exp_neg(_q(a, "eps"))), k),
    "geometric": lambda a, k: dist.geometric_pmf(_q(a, "p"), k),
    "geometric_exp": lambda a, k: ((1 - _exp_neg(_q(a, "gamma"))) * _exp_neg(_q(a, "gamma") * k)
                                   if k >= 0 else mpmath.mpf(0)),
    "discrete_laplace": lambda a, x: dist.discrete_laplace_pmf(_q(a, "t"), x),
    "discrete_gaussian": _dg_pmf,
    "discrete_gaussian_vector": _dg_pmf,
    "binomial": lambda a, k: dist.binomial_pmf(parse_int(a["n"], "n"), _q(a, "p"), k),
    "binomial_textbook": lambda a, k: dist.binomial_pmf(parse_int(a["n"], "n"), _q(a, "p"), k),
    "binomial_rr": lambda a, k: (
        mpmath.binomial(parse_int(a["n"], "n"), k)
        * (1 / (1 + 1 / _exp_neg(_q(a, "eps")))) ** k
        * (1 / (1 + _exp_neg(_q(a, "eps")))) ** (parse_int(a["n"], "n") - k)
        if 0 <= k <= parse_int(a["n"], "n") else mpmath.mpf(0)),
    "poisson": lambda a, k: dist.poisson_pmf(_q(a, "lam"), k),
    "negative_binomial": lambda a, k: dist.negative_binomial_pmf(_q(a, "r"), _q(a, "p"), k),
    "negative_binomial_exp": lambda a, k: _nb_pmf(dist.to_mpf(_q(a, "r")),
                                                  _exp_neg(_q(a, "gamma")), k),
}


def _tag(name: str) -> str:
    return f"dpspec/sampler/{name}"


def _sampler(name: str, params: tuple[Param, ...], description: str,
             vector: bool = False) -> Sampler:
    """Register the function ``name`` of dpspec.spec.samplers.core or .counts under tag ``_tag(name)``."""
    func = getattr(core, name, None) or getattr(counts, name)
    return Sampler(name, params, func, _tag(name), description, vector)


_P = Param("p", "rational", "probability in [0, 1]")
_N = Param("n", "integer", "number of trials, >= 0")
_EPS = Param("eps", "rational", "epsilon >= 0; flip probability 1/(1+exp(eps))")
_SIGMA2 = Param("sigma2", "rational", "variance parameter > 0")
_R = Param("r", "rational", "> 0 (fractional shares allowed)")

_ALL = [
    _sampler("bernoulli", (_P,), "Bernoulli(p): 1 with probability p"),
    _sampler("bernoulli_exp", (Param("gamma", "rational", ">= 0"),),
             "Bernoulli(exp(-gamma)) (CKS20 Algorithm 1)"),
    _sampler("bernoulli_rr", (_EPS,),
             "Bernoulli(1/(1+exp(eps))), the randomized-response flip (two-coin factory)"),
    _sampler("geometric", (Param("p", "rational", "success probability in (0, 1]"),),
             "P[k] = (1-p)^k p, k >= 0 (failures before the first success)"),
    _sampler("geometric_exp", (Param("gamma", "rational", "> 0"),),
             "P[k] = (1-exp(-gamma)) exp(-gamma k), k >= 0"),
    _sampler("discrete_laplace", (Param("t", "rational", "scale > 0"),),
             "P[x] proportional to exp(-|x|/t) on the integers"),
    _sampler("discrete_gaussian", (_SIGMA2,),
             "P[x] proportional to exp(-x^2/(2 sigma2)) on the integers (CKS20 Algorithm 3)"),
    _sampler("discrete_gaussian_vector", (_SIGMA2, Param("dim", "integer", "dimension >= 1")),
             "dim independent discrete Gaussian samples", vector=True),
    _sampler("binomial", (_N, _P), "Binomial(n, p), exact, cost O(1 + n min(p, 1-p))"),
    _sampler("binomial_textbook", (_N, _P), "Binomial(n, p) as a sum of n Bernoulli(p)"),
    _sampler("binomial_rr", (_N, _EPS), "Binomial(n, 1/(1+exp(eps))), exact"),
    _sampler("poisson", (Param("lam", "rational", "mean in [0, 10^6]"),), "Poisson(lam), exact"),
    _sampler("negative_binomial", (_R, Param("p", "rational", "in [0, 1)")),
             "NB(r, p): P[k] = C(k+r-1, k) (1-p)^r p^k, exact"),
    _sampler("negative_binomial_exp", (_R, Param("gamma", "rational", "> 0; p = exp(-gamma)")),
             "NB(r, exp(-gamma)), exact (Ghazi et al.'s p = e^(-eps))"),
]

#: The rational-only profile (dpspec.spec.samplers.rational_only): "rational.NAME" samples the
#: distribution of the lazy profile's NAME with rational comparisons only.
RATIONAL_PROFILE = ("bernoulli_exp", "bernoulli_rr", "geometric_exp", "discrete_laplace",
                    "discrete_gaussian", "discrete_gaussian_vector")
_ALL += [replace(s, name=f"rational.{s.name}", func=getattr(rational_only, s.name),
                 tag=_tag(f"rational.{s.name}"),
                 description=s.description + " [rational-only profile]")
         for s in list(_ALL) if s.name in RATIONAL_PROFILE]


def _pmf_of(name: str) -> Callable[[Mapping[str, Any], int], Any]:
    return _PMF[name.removeprefix("rational.")]


#: name -> Sampler
SAMPLERS: dict[str, Sampler] = {s.name: replace(s, pmf_func=_with_dps(_pmf_of(s.name))) for s in _ALL}
