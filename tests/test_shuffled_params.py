"""Parameter selection for the shuffled-model mechanisms and the `dpspec experiment ghazi` command.

Privacy parameters are checked against the theorems of [GKMP20] as the accounting module states
them (Theorems 11, 13, 18) and against exact computations.
"""

from __future__ import annotations

import json
from fractions import Fraction

import mpmath
import pytest

from dpspec.conformance.cli import main
from dpspec.spec.accounting import ghazi
from dpspec.spec.accounting.shuffle import clone_delta
from dpspec.spec.shuffled import accuracy as acc
from dpspec.spec.shuffled import compare, exact, params, privacy
from dpspec.spec.shuffled.divisible import geometric

EPS, DELTA, N = mpmath.mpf(1), mpmath.mpf("1e-6"), 10_000


@pytest.fixture(scope="module")
def rows() -> dict[str, compare.Row]:
    return {r.key: r for r in compare.binary_comparison(EPS, DELTA, N)}


def test_correlated_decay_gives_the_rmse_factor() -> None:
    a = params.correlated_decay(EPS)
    central = acc.central_dlap_rmse(EPS)
    got = acc.rmse(acc.dlap_variance(a))
    assert got >= Fraction(6, 5) * central - mpmath.mpf(10) ** -20
    assert got / central < mpmath.mpf("1.2") + mpmath.mpf(10) ** -9
    assert float(params.epsilon_of_decay(a)) < float(EPS)


def test_theorem18_design_matches_the_theorems() -> None:
    """The Theorem 18 design: D1 - D2 is eps1-DP (eps1 = ln 1/a), D2's tail above Delta is delta3
    exactly, D3 carries Theorem 13's parameters (rounded safely), and Theorem 18's total is within
    the target."""
    d = compare.correlated_design(EPS, DELTA, N, "theorem")
    sp = d.split
    assert sp is not None
    assert sp.delta3 == pytest.approx(float(ghazi.geometric_tail(d.epsilon1, sp.sensitivity)),
                                      rel=1e-12)
    assert geometric(d.a).sf(sp.sensitivity) == pytest.approx(float(sp.delta3), rel=1e-12)
    p13, r13 = ghazi.theorem13_parameters(sp.epsilon2, sp.delta2, sp.sensitivity)
    assert d.d3.r >= Fraction(str(r13)) - Fraction(1, 10**20)
    assert 0 <= float(d.d3.p) - float(p13) < 1e-12
    total_eps, total_delta = ghazi.theorem18_guarantee(d.epsilon1, sp.epsilon2, sp.delta2,
                                                       sp.delta3)
    assert total_eps <= EPS + mpmath.mpf(10) ** -30
    assert total_delta <= DELTA * (1 + mpmath.mpf(10) ** -20)
    # Theorem 18 is sufficient, so the exact curve of the same mechanism is far below the target
    assert d.exact_delta() < float(DELTA)
    # the smallest Delta was taken: one less leaves no delta for D3
    assert 2 * mpmath.exp(2 * d.epsilon1) * mpmath.power(float(d.a), sp.sensitivity) >= DELTA


def test_exact_design_is_private_and_beats_the_theorem(rows: dict[str, compare.Row]) -> None:
    d = compare.correlated_design(EPS, DELTA, N, "exact")
    assert d.exact_delta() <= float(DELTA)
    assert exact.correlated_delta(float(EPS), d.a, d.d3) <= float(DELTA)
    assert rows["correlated"].messages is not None and rows["correlated_thm"].messages is not None
    assert rows["correlated"].messages < rows["correlated_thm"].messages / 100
    assert rows["correlated"].rmse == rows["correlated_thm"].rmse


def test_poisson_parameters_match_theorem11_and_the_exact_curve() -> None:
    lam_thm, _ = privacy.poisson_lambda(EPS, DELTA, 1, "theorem")
    thm = ghazi.theorem11_lambda(EPS, DELTA)
    assert thm <= mpmath.mpf(lam_thm.numerator) / lam_thm.denominator < thm + mpmath.mpf("1e-6")
    lam, _ = privacy.poisson_lambda(EPS, DELTA, 1, "exact")
    assert ghazi.poisson_mechanism_delta(EPS, lam) <= DELTA
    assert ghazi.poisson_mechanism_delta(EPS, lam * Fraction(9999, 10000)) > DELTA
    assert lam < lam_thm / 10


def test_randomized_response_parameters_are_private() -> None:
    p, _ = privacy.rr_flip_probability(1.0, 1e-6, N)
    e0 = float(mpmath.log((1 - p) / p))
    assert clone_delta(1.0, e0, N, "fmt22") <= 1e-6
    worse = p - Fraction(1, 10**6)
    assert clone_delta(1.0, float(mpmath.log((1 - worse) / worse)), N, "fmt22") > 1e-6


def test_the_papers_figures(rows: dict[str, compare.Row]) -> None:
    """Sec. 5.1 of [GKMP20] at eps = 1, delta = 1e-6, n = 10^4: the correlated RMSE is "3.5 times
    less" than Poisson's; about 0.04 additional messages per user for the correlated mechanism."""
    ratio = rows["poisson"].rmse / rows["correlated"].rmse
    assert 3.4 < ratio < 3.7
    assert rows["correlated"].messages is not None
    assert 0.035 < float(rows["correlated"].messages - 1) < 0.045
    assert rows["central_dlap"].rmse < rows["correlated"].rmse < rows["poisson"].rmse
    assert rows["poisson"].rmse < rows["rr"].rmse < rows["poisson_thm"].rmse


def test_histogram_rows() -> None:
    """Per-bucket mechanisms at (eps/2, delta/2): one user's change touches two buckets, so basic
    composition gives (eps, delta) for the histogram (Corollary 2)."""
    bucket = compare.correlated_design(EPS / 2, DELTA / 2, N, "exact")
    assert bucket.exact_delta() <= float(DELTA) / 2
    rows = {r.key: r for r in compare.histogram_comparison(EPS, DELTA, N, 10)}
    assert rows["correlated"].parameters["a"] == compare.exact_decimal(bucket.a)
    assert rows["central_dlap"].rmse < rows["correlated"].rmse < rows["poisson"].rmse
    assert rows["poisson"].rmse < rows["brr"].rmse
    assert rows["correlated"].messages is not None and rows["correlated"].messages < 2


def test_cli_experiment(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["experiment", "ghazi", "--epsilon", "1", "--delta", "1e-6", "--n", "10000",
                 "--no-theorems", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert 3.4 < float(doc["ratioPoissonToCorrelated"]) < 3.7
    assert {r["key"] for r in doc["binary"]} == {"central_dlap", "correlated", "poisson", "rr"}
    assert main(["experiment", "ghazi", "--n", "200", "--buckets", "3", "--no-theorems",
                 "--simulate", "2"]) == 0
    out = capsys.readouterr().out
    assert "Monte Carlo over 2 seeded protocol runs" in out and "B-ary randomized response" in out


@pytest.mark.parametrize("argv", [
    ["--epsilon", "0.1.2"], ["--epsilon", "0"], ["--delta", "0.5"], ["--n", "1"],
    ["--n", "2.5"], ["--buckets", "1"], ["--rmse-factor", "1"], ["--epsilon", "abc"],
])
def test_cli_rejects_bad_input(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["experiment", "ghazi", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("dpspec: error:") and err.count("\n") == 1


def test_figures(tmp_path, monkeypatch: pytest.MonkeyPatch,  # type: ignore[no-untyped-def]
                 capsys: pytest.CaptureFixture[str]) -> None:
    from dpspec.conformance.commands import experiment

    monkeypatch.setattr(experiment, "EPS_GRID", ["0.1", "1"])
    monkeypatch.setattr(experiment, "DELTA_GRID", ["1e-4", "1e-6"])
    assert main(["experiment", "ghazi", "--figures", str(tmp_path), "--n", "1000",
                 "--buckets", "3"]) == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["README.md", "binary_messages_vs_delta.png", "binary_messages_vs_epsilon.png",
                     "binary_rmse_vs_delta.png", "binary_rmse_vs_epsilon.png",
                     "histogram_rmse_vs_delta.png", "histogram_rmse_vs_epsilon.png"]
    text = (tmp_path / "README.md").read_text()
    assert "3.5 times" in text and "| 0.1 |" in text and "| 1e-4 |" in text
    assert all((tmp_path / n).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for n in names[1:])


def test_exact_design_without_d3_when_delta_is_large() -> None:
    """With delta >= 1 - a, D1 - D2 alone is (eps, delta)-DP (dpspec.spec.shuffled.exact): no D3."""
    d = params.design_correlated_exact(mpmath.mpf("0.05"), mpmath.mpf("0.09"), 100)
    assert d.d3.mean() == 0 and 1 - d.a <= Fraction(9, 100)
    assert d.exact_delta() == pytest.approx(float(1 - d.a))
    assert d.expected_messages() == 1 + 2 * d.a / (1 - d.a) / 100
