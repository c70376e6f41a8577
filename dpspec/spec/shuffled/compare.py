"""The comparisons of sec. 5 of [GKMP20]: error and communication of each protocol at (eps, delta, n).

Binary summation (sec. 5.1): the central discrete Laplace mechanism ``DLap(eps)`` (not a shuffled
protocol; the yardstick), the correlated distributed mechanism, the Poisson distributed mechanism
and binary randomized response, each with parameters that make it (eps, delta)-DP.

Histograms over B buckets (sec. 5.2): the same mechanisms per bucket at (eps/2, delta/2) (two
buckets change when one user's value changes; basic composition), the central ``DLap(eps/2)`` per
bucket, B-ary randomized response, RAPPOR and Fragmented RAPPOR
(:mod:`dpspec.spec.shuffled.fragmented`). Errors are per-bucket RMSEs (for B-ary randomized
response the root of the mean over buckets of the MSE, which depends on the data only through n).

Every RMSE is exact (closed form; :mod:`dpspec.spec.shuffled.accuracy`); expected messages per user are
Observation 10 / 17's bounds (the value for a user whose input is 1), and for histograms the exact
``1 + B x (noise messages per bucket)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import mpmath

from dpspec.spec.shuffled import accuracy as acc
from dpspec.spec.shuffled import privacy
from dpspec.spec.shuffled.divisible import Poisson, format_rational
from dpspec.spec.shuffled.fragmented import FragmentedRappor
from dpspec.spec.shuffled.params import (
    DEFAULT_RMSE_FACTOR,
    DPS,
    CorrelatedDesign,
    DistributedDesign,
    design_correlated,
    design_correlated_exact,
    design_near_central,
)


@dataclass(frozen=True)
class Row:
    """One protocol at one privacy level."""

    key: str  # stable identifier: central_dlap, correlated, correlated_thm, poisson, ...
    label: str
    rmse: mpmath.mpf
    messages: Fraction | None  # expected messages per user; None for the central mechanism
    privacy: str  # how the (eps, delta) guarantee is established
    parameters: dict[str, str] = field(default_factory=dict)

    def as_json(self) -> dict[str, object]:
        return {
            "key": self.key, "label": self.label,
            "rmse": str(mpmath.nstr(self.rmse, 12)),
            "expectedMessagesPerUser": None if self.messages is None
            else str(mpmath.nstr(mpmath.mpf(self.messages.numerator) / self.messages.denominator,
                                 12)),
            "privacy": self.privacy, "parameters": self.parameters,
        }


def exact_decimal(q: Fraction) -> str:
    """``q`` as an exact decimal string when its denominator is ``2^i 5^j``, else ``a/b``."""
    d, k = q.denominator, 0
    while d % 10 == 0:
        d //= 10
        k += 1
    while d % 2 == 0 or d % 5 == 0:
        d //= 2 if d % 2 == 0 else 5
        k += 1
    if d != 1:
        return format_rational(q)
    scaled = abs(q.numerator) * 10**k // q.denominator
    sign = "-" if q < 0 else ""
    if k == 0:
        return f"{sign}{scaled}"
    text = str(scaled).rjust(k + 1, "0")
    return f"{sign}{text[:-k]}.{text[-k:]}".rstrip("0").rstrip(".")


def _mstr(x: mpmath.mpf) -> str:
    return str(mpmath.nstr(x, 10))


def central_row(eps: mpmath.mpf, per_bucket: bool = False) -> Row:
    e = eps / 2 if per_bucket else eps
    return Row("central_dlap", "central discrete Laplace", acc.central_dlap_rmse(e, DPS), None,
               "central model, pure DP" + (" (sensitivity 2 per user, DLap(eps/2))" if per_bucket
                                           else ""),
               {"epsilon": _mstr(e)})


def correlated_row(design: CorrelatedDesign, key: str, label: str,
                   buckets: int | None = None) -> Row:
    msgs = design.expected_messages() if buckets is None else \
        acc.expected_messages_histogram(design.mechanism(), buckets)
    params = {"a": exact_decimal(design.a),
              **{f"d3.{k}": exact_decimal(Fraction(v)) for k, v in design.d3.params().items()}}
    how = f"eps1 = ln(1/a) = {_mstr(design.epsilon1)}; D3 by {design.method}"
    if design.split is not None:
        sp = design.split
        how += (f"; Theorem 18 with eps2 = {_mstr(sp.epsilon2)}, Delta = {sp.sensitivity}, "
                f"delta2 = {mpmath.nstr(sp.delta2, 4)}, delta3 = {mpmath.nstr(sp.delta3, 4)}")
        params["Delta"] = str(sp.sensitivity)
    return Row(key, label, acc.rmse(design.mse()), msgs, how, params)


def poisson_row(design: DistributedDesign, key: str, label: str,
                buckets: int | None = None) -> Row:
    msgs = design.expected_messages() if buckets is None else \
        acc.expected_messages_histogram(design.mechanism(), buckets)
    return Row(key, label, acc.rmse(design.mse()), msgs, design.method,
               {"lambda": exact_decimal(design.noise.mean())})


def correlated_design(eps: mpmath.mpf, delta: mpmath.mpf, n: int, method: str,
                      rmse_factor: Fraction = DEFAULT_RMSE_FACTOR) -> CorrelatedDesign:
    """The correlated mechanism with D3 chosen by the exact privacy curve (``method="exact"``) or
    by Theorems 18 and 13 (``method="theorem"``)."""
    if method == "exact":
        return design_correlated_exact(eps, delta, n, rmse_factor)
    if method != "theorem":
        raise ValueError(f"unknown method {method!r}")
    return design_correlated(eps, delta, n, privacy.theorem13_noise, privacy.NB_METHODS[method],
                             rmse_factor)


def near_central_design(eps: mpmath.mpf, delta: mpmath.mpf, n: int, method: str
                        ) -> CorrelatedDesign:
    """The near-central instance of sec. 4.1 (``D1 - D2 = DLap(0.99 eps)``, ``0.01 eps`` to D3),
    D3 by Theorems 18 + 13 (``method="theorem"``, the paper's) or by the exact curve."""
    if method == "exact":
        return design_near_central(eps, delta, n)
    if method != "theorem":
        raise ValueError(f"unknown method {method!r}")
    return design_near_central(eps, delta, n, privacy.theorem13_noise, privacy.NB_METHODS[method])


def poisson_design(eps: mpmath.mpf, delta: mpmath.mpf, n: int, method: str) -> DistributedDesign:
    lam, how = privacy.poisson_lambda(eps, delta, 1, method)
    return DistributedDesign(eps, delta, n, Poisson(lam), how)


def binary_comparison(eps: mpmath.mpf, delta: mpmath.mpf, n: int, *,
                      rmse_factor: Fraction = DEFAULT_RMSE_FACTOR,
                      theorems: bool = True, near_central: bool = False) -> list[Row]:
    """The rows of sec. 5.1 at one (eps, delta, n); ``near_central`` adds the sec. 4.1 instance
    (D3 by Theorems 18 + 13 when ``theorems``, and by the exact curve)."""
    rows = [central_row(eps)]
    if near_central:
        if theorems:
            rows.append(correlated_row(near_central_design(eps, delta, n, "theorem"),
                                       "near_central_thm",
                                       "near-central, sec. 4.1 (Theorems 18 + 13)"))
        rows.append(correlated_row(near_central_design(eps, delta, n, "exact"), "near_central",
                                   "near-central, sec. 4.1 (D3 exact)"))
    rows.append(correlated_row(correlated_design(eps, delta, n, "exact", rmse_factor),
                               "correlated", "correlated (D3 exact)"))
    if theorems:
        rows.append(correlated_row(correlated_design(eps, delta, n, "theorem", rmse_factor),
                                   "correlated_thm", "correlated (Theorems 18 + 13)"))
    rows.append(poisson_row(poisson_design(eps, delta, n, "exact"), "poisson", "Poisson (exact)"))
    if theorems:
        rows.append(poisson_row(poisson_design(eps, delta, n, "theorem"), "poisson_thm",
                                "Poisson (Theorem 11)"))
    p, how = privacy.rr_flip_probability(float(eps), float(delta), n)
    rows.append(Row("rr", "randomized response", acc.rmse(acc.mse_randomized_response(p, n)),
                    Fraction(1), how, {"p": exact_decimal(p)}))
    return rows


def histogram_comparison(eps: mpmath.mpf, delta: mpmath.mpf, n: int, buckets: int, *,
                         rmse_factor: Fraction = DEFAULT_RMSE_FACTOR) -> list[Row]:
    """The rows of sec. 5.2 at one (eps, delta, n, B): per-bucket RMSE, messages per user."""
    half_e, half_d = eps / 2, delta / 2
    rows = [central_row(eps, per_bucket=True)]
    rows.append(correlated_row(correlated_design(half_e, half_d, n, "exact", rmse_factor),
                               "correlated", "correlated (D3 exact), per bucket at eps/2",
                               buckets))
    rows.append(poisson_row(poisson_design(half_e, half_d, n, "exact"), "poisson",
                            "Poisson (exact), per bucket at eps/2", buckets))
    g, how = privacy.bary_rr_blanket(float(eps), float(delta), n, buckets)
    rows.append(Row("brr", "B-ary randomized response",
                    acc.rmse(acc.mse_bary_rr(g, buckets, n)), Fraction(1), how,
                    {"gamma": exact_decimal(g)}))
    f, how = privacy.rappor_flip_probability(float(eps), float(delta), n)
    rows.append(Row("rappor", "RAPPOR", acc.rmse(acc.mse_rappor(f, n)), Fraction(1),
                    how, {"f": exact_decimal(f)}))
    f, how = privacy.fragmented_rappor_flip_probability(float(eps), float(delta), n)
    frag = FragmentedRappor(f, buckets, n)
    rows.append(Row("frappor", "Fragmented RAPPOR", acc.rmse(frag.variance()),
                    frag.expected_messages(), how, {"f": exact_decimal(f)}))
    return rows
