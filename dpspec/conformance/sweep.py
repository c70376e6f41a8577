"""Sweep mode: a documented grid of accounting questions, the truth computed on the fly.

``dpspec conformance run --sweep`` adds the suite ``sweep`` (exact mode): beyond the committed
vectors, every point of :data:`GRID` is asked of the implementation and judged by its privacy
verdict (:mod:`dpspec.conformance.verdicts`; the truth is :mod:`dpspec.spec.accounting` at 40
digits, nothing is stored). The grid:

* ``privacy.gaussian_mechanism_sigma``: eps in ``EPS`` (1e-3 .. 20) x delta in ``DELTA``
  (1e-3 .. 1e-16) x L2 sensitivity in ``SENSITIVITY`` (1, sqrt(2), 4);
* ``privacy.laplace_mechanism_scale``: eps x sensitivity (1, 4);
* ``privacy.discrete_laplace_scale``: eps x integer sensitivity (1, 4);
* ``privacy.gaussian_kfold_delta``: eps in (0.1, 1, 5, 10, 20) x sigma in (1, 5, 20) x k in
  ``STEPS`` (1, 10, 100, 1000);
* ``privacy.optimal_composition_delta``: per-step pure eps in (0.01, 0.1, 1) x k (10, 100) x
  total eps at 1/4, 1/2 and 3/4 of k eps;
* ``privacy.subsampled_gaussian_epsilon`` (RDP at ``ORDERS``, conversion sa2): q 0.01 x sigma in
  (0.8, 1.1, 2) x steps (10, 100, 1000) x delta (1e-5, 1e-9, 1e-15).

``--sweep-points N`` keeps every n-th point of each op's list, so that CI can run a small,
still-spread subset (the first and last point of each list are always kept).
"""

from __future__ import annotations

import time
from typing import Any

from dpspec.conformance.families.privacy import FAMILY as PRIVACY
from dpspec.conformance.families.privacy import case_for
from dpspec.conformance.harness.model import SuiteResult
from dpspec.conformance.harness.session import Session
from dpspec.conformance.harness.suites import Progress, Suite, run_case
from dpspec.conformance.vectors import Case

EPS = ("0.001", "0.01", "0.1", "0.5", "1", "2", "5", "10", "20")
DELTA = ("1e-3", "1e-6", "1e-9", "1e-12", "1e-14", "1e-16")
SENSITIVITY = ("1", "sqrt(2)", "4")
STEPS = (1, 10, 100, 1000)
ORDERS = ["1.5", "2", "4", "8", "16", "32", "64"]


def grid() -> dict[str, list[tuple[str, dict[str, Any]]]]:
    """op -> [(label, args)] over the whole documented grid."""
    g: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    g["privacy.gaussian_mechanism_sigma"] = [
        (f"eps {e}, delta {d}, sensitivity {s}", {"eps": e, "delta": d, "sensitivity": s})
        for s in SENSITIVITY for d in DELTA for e in EPS]
    g["privacy.laplace_mechanism_scale"] = [
        (f"eps {e}, sensitivity {s}", {"eps": e, "sensitivity": s}) for s in ("1", "4") for e in EPS]
    g["privacy.discrete_laplace_scale"] = [
        (f"eps {e}, sensitivity {s}", {"eps": e, "sensitivity": s}) for s in (1, 4) for e in EPS]
    g["privacy.gaussian_kfold_delta"] = [
        (f"eps {e}, sigma {sg}, k {k}", {"eps": e, "sigma": sg, "sensitivity": "1", "k": k})
        for k in STEPS for sg in ("1", "5", "20") for e in ("0.1", "1", "5", "10", "20")]
    g["privacy.optimal_composition_delta"] = [
        (f"eps {e}, k {k}, total {frac}", {"eps": e, "delta": "0", "k": k,
                                           "epsTotal": _times(e, k, frac)})
        for k in (10, 100) for e in ("0.01", "0.1", "1") for frac in ("1/4", "1/2", "3/4")]
    g["privacy.subsampled_gaussian_epsilon"] = [
        (f"q 0.01, sigma {sg}, steps {t}, delta {d}",
         {"q": "0.01", "sigma": sg, "steps": t, "delta": d, "orders": ORDERS, "conversion": "sa2"})
        for d in ("1e-5", "1e-9", "1e-15") for t in (10, 100, 1000) for sg in ("0.8", "1.1", "2")]
    return g


def _times(eps: str, k: int, frac: str) -> str:
    from fractions import Fraction

    value = Fraction(eps) * k * Fraction(frac)
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def thin(points: list[Any], every: int) -> list[Any]:
    """Every ``every``-th point, and always the first and the last."""
    if every <= 1 or len(points) <= 2:
        return list(points)
    kept = points[::every]
    if kept[-1] is not points[-1]:
        kept.append(points[-1])
    return kept


class SweepSuite(Suite):
    """The grid of :func:`grid`, judged by privacy verdicts."""

    name = "sweep"
    mode = "exact"
    summary = "accounting answers over a grid (eps 1e-3..20, delta 1e-3..1e-16), truth on the fly"

    def __init__(self, *, every: int = 1, max_slack: float | None = None,
                 ops: tuple[str, ...] | None = None) -> None:
        self.every = every
        self.max_slack = max_slack
        self.only = ops

    def cases(self) -> list[Case]:
        out = []
        for op, points in grid().items():
            if self.only is not None and op not in self.only:
                continue
            for label, args in thin(points, self.every):
                out.append(case_for(op, args, label, path=f"sweep/{op.split('.', 1)[1]}"))
        return out

    def ops(self) -> frozenset[str]:
        return frozenset(grid())

    def size(self) -> int:
        return len(self.cases())

    def run(self, session: Session, progress: Progress) -> SuiteResult:
        result = SuiteResult(self.name, self.mode, self.summary)
        start = time.monotonic()
        cases = [c for c in self.cases() if session.supports(c.op)]
        for i, case in enumerate(cases):
            outcome = run_case(self.name, PRIVACY, case, session, max_slack=self.max_slack)
            outcome.test = f"{case.op.split('.', 1)[1]}: {case.comment}"
            result.outcomes.append(outcome)
            progress(i + 1, len(cases))
        result.seconds = time.monotonic() - start
        return result
