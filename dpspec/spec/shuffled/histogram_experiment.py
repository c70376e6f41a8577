"""Histogram error against the number of buckets B on synthetic data ([GKMP20] sec. 5.2).

The paper's experiments use 1940 US Census (IPUMS) data, which is not available here; the data are
three stated synthetic distributions of ``n`` users over ``B`` buckets, with exact integer counts:

* ``uniform``: ``n`` spread as evenly as possible (the first ``n mod B`` buckets get one more);
* ``zipf``: weights ``1/(j+1)``, counts by largest remainder (ties to the lower bucket);
* ``point``: every user in bucket 0 (the worst case for B-ary randomized response's bucket MSE).

For each B, every mechanism is (eps, delta)-DP for the histogram (two buckets change when one user
changes), with parameters from :mod:`dpspec.spec.shuffled.compare` / ``privacy``:

* central discrete Laplace ``DLap(eps/2)`` per bucket (the yardstick);
* the correlated mechanism per bucket at ``(eps/2, delta/2)``, D3 by the exact curve;
* B-ary randomized response (blanket ``gamma`` by the fmt20 clone bound, which depends on B);
* RAPPOR (flip ``f`` per bit, one message per user: the fmt20 clone reduction of
  ``eps0 = 2 ln((1-f)/f)``);
* Fragmented RAPPOR ([EFMRSTT20], :mod:`dpspec.spec.shuffled.fragmented`; flip ``f`` per bit, one
  message per set bit: fmt22 at ``(eps/2, delta/2)`` per coordinate of the count vector).

Errors, all exact: the RMSE over buckets ``sqrt(mean_j MSE_j)``, and for B-ary RR also the worst
bucket's RMSE (its bucket MSE depends on the bucket's count,
:func:`dpspec.spec.shuffled.accuracy.mse_bary_rr_bucket`, though the mean over buckets depends on n
only; the other mechanisms' bucket errors do not depend on the data),
and the expected l-infinity error ``E[max_j |X_j|]`` over the B independent buckets: for the two
discrete-Laplace errors ``sum_{t >= 0} (1 - (1 - 2 a^(t+1)/(1+a))^B)`` for decay ``a`` (series
summed in mpmath until the term is below 10^-25); for RAPPOR and Fragmented RAPPOR (independent
buckets, binomial laws that depend on the bucket's count) from the exact PMFs,
:func:`dpspec.spec.shuffled.fragmented.expected_linf` (an upper bound within ``10^-30``); for
B-ary RR, whose bucket counts are dependent (they sum to n, and are a sum of one-hot vectors with
user-dependent laws, multinomial only for the point mass), a certified interval
:func:`dpspec.spec.shuffled.bary_linf.bary_rr_expected_linf`: ``expectedLinf`` gives its upper end
as ``bary_rr`` (like the other entries an upper bound) and its lower end as ``bary_rr_lower``,
both rounded outwards to 8 digits. The ends come from the exact binomial marginals (union bound
above, negative association of the counts below); they coincide (the exact value) for B = 2
(the two errors are opposite) and for the point mass (multinomial counts, computed exactly where
the bounds differ); for uniform and Zipf data with B >= 8 the interval stays open (4.6% to 38%
wide at n = 10^4).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import mpmath

from dpspec.spec.shuffled import accuracy as acc
from dpspec.spec.shuffled import privacy
from dpspec.spec.shuffled.bary_linf import bary_rr_expected_linf
from dpspec.spec.shuffled.compare import correlated_design
from dpspec.spec.shuffled.divisible import discrete_laplace_decay
from dpspec.spec.shuffled.fragmented import FragmentedRappor, expected_linf

DISTRIBUTIONS = ("uniform", "zipf", "point")
DPS = 30


def synthetic_counts(distribution: str, n: int, buckets: int) -> list[int]:
    """Exact integer counts summing to ``n`` (module docstring)."""
    if distribution == "uniform":
        q, r = divmod(n, buckets)
        return [q + (1 if j < r else 0) for j in range(buckets)]
    if distribution == "point":
        return [n] + [0] * (buckets - 1)
    if distribution == "zipf":
        w = [Fraction(1, j + 1) for j in range(buckets)]
        total = sum(w)
        exact = [n * x / total for x in w]
        counts = [int(x) for x in exact]
        order = sorted(range(buckets), key=lambda j: (-(exact[j] - counts[j]), j))
        for j in order[:n - sum(counts)]:
            counts[j] += 1
        return counts
    raise ValueError(f"distribution must be one of {', '.join(DISTRIBUTIONS)}")


def dlap_expected_linf(a: mpmath.mpf, buckets: int) -> mpmath.mpf:
    """``E[max_j |X_j|]`` for ``B`` independent discrete Laplace errors of decay ``a``."""
    with mpmath.workdps(DPS):
        total = mpmath.mpf(0)
        t = 0
        while True:
            term = 1 - (1 - 2 * a ** (t + 1) / (1 + a)) ** buckets
            total += term
            if term < mpmath.mpf(10) ** -25:
                return total
            t += 1


@dataclass(frozen=True)
class GrowthRow:
    buckets: int
    distribution: str
    rmse: dict[str, mpmath.mpf]
    linf: dict[str, mpmath.mpf]

    def as_json(self) -> dict[str, object]:
        return {"B": self.buckets, "distribution": self.distribution,
                "rmse": {k: mpmath.nstr(v, 8) for k, v in self.rmse.items()},
                "expectedLinf": {k: mpmath.nstr(v, 8) for k, v in self.linf.items()}}


def error_growth(eps: mpmath.mpf, delta: mpmath.mpf, n: int, bucket_grid: Sequence[int],
                 distributions: Sequence[str] = DISTRIBUTIONS,
                 progress: Callable[[str], None] | None = None) -> list[GrowthRow]:
    """The rows of the error-growth experiment (module docstring); ``progress`` is told each
    (B, distribution) before its row is computed."""
    rows = []
    with mpmath.workdps(DPS):
        a_central = discrete_laplace_decay(eps / 2, DPS)
        corr = correlated_design(eps / 2, delta / 2, n, "exact")
        a_corr = mpmath.mpf(corr.a.numerator) / corr.a.denominator
        f, _ = privacy.rappor_flip_probability(float(eps), float(delta), n)
        rappor = acc.rmse(acc.mse_rappor(f, n), DPS)
        f_frag, _ = privacy.fragmented_rappor_flip_probability(float(eps), float(delta), n)
        frappor = acc.rmse(FragmentedRappor(f_frag, 1, n).variance(), DPS)
        for b in bucket_grid:
            g, _ = privacy.bary_rr_blanket(float(eps), float(delta), n, b)
            for dist in distributions:
                if progress is not None:
                    progress(f"B = {b}, {dist}")
                counts = synthetic_counts(dist, n, b)
                mse_rr = sum((acc.mse_bary_rr_bucket(g, b, n, c) for c in counts),
                             Fraction(0)) / b
                rr_linf = bary_rr_expected_linf(g, b, n, counts).rounded(8)
                rows.append(GrowthRow(
                    b, dist,
                    {"central_dlap": acc.central_dlap_rmse(eps / 2, DPS),
                     "correlated": acc.rmse(corr.mse(), DPS),
                     "bary_rr": acc.rmse(mse_rr, DPS),
                     "bary_rr_worst_bucket": acc.rmse(max(acc.mse_bary_rr_bucket(g, b, n, c)
                                                          for c in counts), DPS),
                     "rappor": rappor, "fragmented_rappor": frappor},
                    {"central_dlap": dlap_expected_linf(a_central, b),
                     "correlated": dlap_expected_linf(a_corr, b),
                     "bary_rr": rr_linf.upper, "bary_rr_lower": rr_linf.lower,
                     "rappor": expected_linf(f, n, counts),
                     "fragmented_rappor": expected_linf(f_frag, n, counts)}))
    return rows
