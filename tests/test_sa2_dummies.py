"""With dummy reports present, the guarantee the client prints is one that holds (sec. 4.6 of
[SA2]; issue 14 item 3).

The test recomputes the guarantee from the real-report count model on its own: with ``D``
dummies among the aggregated reports, ``D`` dominated by ``Bin(population, q')``, at least
``B - D`` real reports are summed. For any ``d``, the aggregator-model statement is the shuffle
bound at ``B - d`` real reports plus ``Pr[D > d]`` on delta; the test takes the tail with its own
binomial (checked against exact rationals; not :mod:`dpspec.spec.sa2.privacy`'s), scans ``d`` itself and
calls :mod:`dpspec.spec.accounting` directly. The printed statement (``dpspec sa2 simulate
--json``) must be at least the best bound so found, and a recipe whose claim holds only when the
dummies are wrongly counted as real reports must be refused.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import mpmath
import pytest

from dpspec.conformance.cli import main
from dpspec.spec.accounting import shuffle, subsampling
from dpspec.spec.sa2 import protocol
from dpspec.spec.sa2.protocol import PrivacyBudget, RecipeRefused
from dpspec.spec.sa2.randomizers import Randomizer

F = Fraction
SEED = "5d" * 16


def upper_tail(n: int, p: Fraction, d: int) -> Fraction:
    """``Pr[Bin(n, p) > d]``, rounded up to 40 decimals: the PMF from ``(1 - p)^n`` by the term
    ratio, summed from ``d + 1`` up at 80 digits (mpmath; the terms fall geometrically past the
    mean, and the sum stops once they are below 10^-60 of it)."""
    with mpmath.workdps(80):
        pp = mpmath.mpf(p.numerator) / p.denominator
        term = (1 - pp) ** n
        for j in range(d + 1):
            term = term * (n - j) / (j + 1) * pp / (1 - pp)
        total, j = mpmath.mpf(0), d + 1
        while j <= n and term > total * mpmath.mpf(10) ** -60:
            total += term
            term = term * (n - j) / (j + 1) * pp / (1 - pp)
            j += 1
        return Fraction(int(mpmath.ceil(total * mpmath.mpf(10) ** 40)), 10**40)


def valid_epsilon(eps0: mpmath.mpf, n: int, delta: Fraction, *, gated: bool) -> mpmath.mpf:
    """A valid shuffle bound for any eps0-LDP randomizer at ``n`` real reports. ``gated``: what
    the recipes' default accountant computes (MJTB+22 Theorem 3.1 where its condition holds,
    else the numerical [FMT20] bound); otherwise the smaller of the two valid bounds."""
    e0 = F(mpmath.nstr(eps0, 15)) + F(1, 10**12)  # above eps0 (the bounds increase with it)
    fmt20 = shuffle.clone_epsilon(e0, n, str(delta), "fmt20").eps
    ok, _ = shuffle.closed_form_condition(e0, n, str(delta))
    if not ok:
        return mpmath.mpf(fmt20)
    closed = shuffle.closed_form_value(e0, n, str(delta))
    return mpmath.mpf(closed if gated else min(closed, fmt20))


def independent_aggregator_epsilon(r: Randomizer, B: int, delta: Fraction, rate: Fraction,
                                   population: int, *, gated: bool) -> mpmath.mpf:
    """The best bound of the real-report count model over a few ``d`` (chosen here)."""
    best = mpmath.inf
    mean = population * rate
    for d in sorted({int(mean + k * math.sqrt(mean)) for k in (3, 4, 5, 6, 8)}):
        tail = upper_tail(population, rate, d)
        if tail >= delta or B - d < 2:
            continue
        best = min(best, valid_epsilon(r.epsilon0(), B - d, delta - tail, gated=gated))
    return best


def printed(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str]
            ) -> tuple[dict[str, Any], Path]:
    assert main(["sa2", "recipe", "--seed", SEED, *args]) == 0
    path = tmp_path / "r.json"
    path.write_text(capsys.readouterr().out)
    assert main(["sa2", "simulate", "--recipe", str(path), "--clients", "0", "--seed", SEED,
                 "--device-budget", "100", "--json", "-q"]) == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)["privacy"]
    return out, path


SETTINGS = [
    # (randomizer, B, q, dummy rate, population)
    (Randomizer("binary_randomized_response", 2, F(1, 2)), 2000, F(1, 10), F(1, 40), 20000),
    (Randomizer("binary_randomized_response", 2, F(1, 8)), 1500, F(1, 4), F(1, 100), 20000),
    (Randomizer("rappor", 4, F(1, 4)), 2500, F(1, 8), F(1, 200), 30000),
]


@pytest.mark.parametrize("setting", SETTINGS, ids=["binaryRR", "binaryRR-fallback", "rappor"])
def test_the_printed_guarantee_holds_and_ignoring_dummies_is_refused(
        setting: tuple[Randomizer, int, Fraction, Fraction, int], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    r, B, q, rate, population = setting
    delta = F(1, 10**6)
    args = ["--randomizer", r.name, "--k", str(r.k), "--flip", str(r.flip), "--B", str(B),
            "--q", str(q), "--delta", str(delta), "--dummy-rate", str(rate),
            "--population", str(population)]
    shown, path = printed(tmp_path, capsys, args)

    # the printed aggregator-model statement is at least the independent bound at its own delta
    agg_eps, agg_delta = F(shown["aggregator"]["epsilon"]), F(shown["aggregator"]["delta"])
    assert agg_delta <= delta
    shown_eps = mpmath.mpf(agg_eps.numerator) / agg_eps.denominator
    best = independent_aggregator_epsilon(r, B, agg_delta, rate, population, gated=False)
    assert best < mpmath.inf
    assert shown_eps >= best
    # ... and not far above the same accountant's bound (a useful statement, not a trivial one)
    same = independent_aggregator_epsilon(r, B, agg_delta, rate, population, gated=True)
    assert shown_eps <= same * mpmath.mpf("1.1")

    # the printed SA2 statement is that statement amplified by Poisson sampling at q
    with mpmath.workdps(40):
        eps_sa2, delta_sa2 = subsampling.poisson_amplification(str(agg_eps), str(agg_delta),
                                                               str(q))
    assert F(shown["sa2"]["epsilon"]) >= F(mpmath.nstr(eps_sa2, 30)) - F(1, 10**25)
    assert F(shown["sa2"]["delta"]) >= F(mpmath.nstr(delta_sa2, 30)) - F(1, 10**40)

    # a claim that only holds if every one of the B reports were real is refused
    wrong_agg = valid_epsilon(r.epsilon0(), B, delta, gated=True)
    with mpmath.workdps(40):
        wrong, _ = subsampling.poisson_amplification(wrong_agg, str(delta), str(q))
    claim = F(mpmath.nstr(wrong * mpmath.mpf("1.02"), 8))
    assert F(shown["sa2"]["epsilon"]) > claim  # the claim is below what really holds
    doc = json.loads(path.read_text())
    doc["privacy"]["epsilon"] = str(claim)
    with pytest.raises(RecipeRefused) as info:
        protocol.check_recipe(doc, PrivacyBudget(F(100), 1))
    assert info.value.reason == "privacy_claim_not_met"
    # without the dummies the same claim is accepted: the dummies are what make it false
    doc["dummyRate"] = "0"
    _, stmt = protocol.check_recipe(doc, PrivacyBudget(F(100), 1))
    assert stmt.epsilon <= mpmath.mpf(claim.numerator) / claim.denominator


def test_the_tail_agrees_with_exact_rationals_and_the_privacy_module() -> None:
    from dpspec.spec.sa2 import privacy

    for n, p, d in [(200, F(1, 40), 12), (1000, F(1, 100), 25), (50, F(1, 3), 20)]:
        exact = 1 - sum(Fraction(math.comb(n, j)) * p**j * (1 - p) ** (n - j)
                        for j in range(d + 1))
        ours = upper_tail(n, p, d)
        assert exact <= ours <= exact + Fraction(2, 10**40)
        got = privacy.binomial_sf(n, p, d + 1)
        with mpmath.workdps(60):
            want = mpmath.mpf(exact.numerator) / exact.denominator
            assert abs(got - want) <= want * mpmath.mpf(10) ** -40
