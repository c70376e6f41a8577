"""The SA2 paper's utility experiments (dpspec.spec.sa2.experiments) and ``dpspec experiment sa2``.

Small parameters only: every calibration is a bisection over the moments accountant.
"""

from __future__ import annotations

import contextlib
import io
import itertools
from fractions import Fraction
from pathlib import Path

import mpmath
import pytest

from dpspec.conformance.cli import main
from dpspec.spec.accounting import gaussian
from dpspec.spec.sa2 import experiments as ex

EPS, DELTA = Fraction(1), Fraction(1, 10**8)


def test_agg_sigma_is_the_analytic_gaussian_at_sensitivity_sqrt_k() -> None:
    s1 = ex.agg_sigma(EPS, DELTA, 1)
    s4 = ex.agg_sigma(EPS, DELTA, 4)
    assert gaussian.gaussian_delta(1, s1) <= mpmath.mpf("1e-8")
    assert gaussian.gaussian_delta(1, s4, 2) <= mpmath.mpf("1e-8")
    # rounded up to 5 digits, never below the exact value; K = 4 doubles the sensitivity
    exact = gaussian.calibrate_gaussian_sigma(1, "1e-8").exact
    assert exact <= s1 < exact * (1 + mpmath.mpf("1e-4"))
    assert abs(s4 / s1 - 2) < mpmath.mpf("1e-4")


@pytest.mark.parametrize(("q", "tasks"), [(Fraction(1, 100), 1), (Fraction(1, 10), 10)])
def test_sampagg_sigma_is_minimal_and_valid(q: Fraction, tasks: int) -> None:
    s = ex.sampagg_sigma(q, EPS, DELTA, tasks)
    assert ex.sampagg_epsilon(q, s, tasks, DELTA) <= 1
    assert ex.sampagg_epsilon(q, s * (1 - mpmath.mpf("1e-3")), tasks, DELTA) > 1


def test_sampagg_noise_shrinks_with_the_rate_and_never_exceeds_agg() -> None:
    small = ex.sampagg_noise(Fraction(1, 1000), EPS, DELTA, 10)
    large = ex.sampagg_noise(Fraction(1, 10), EPS, DELTA, 10)
    full = ex.sampagg_noise(Fraction(1), EPS, DELTA, 10)
    assert small < large <= full == ex.agg_sigma(EPS, DELTA, 10)


def _multinomial_error(p: list[Fraction], m: int) -> Fraction:
    """E ||counts / m - p||^2 by enumerating every sequence of m draws (exact)."""
    total = Fraction(0)
    for seq in itertools.product(range(len(p)), repeat=m):
        prob = Fraction(1)
        counts = [0] * len(p)
        for x in seq:
            prob *= p[x]
            counts[x] += 1
        total += prob * sum((Fraction(c, m) - pj) ** 2 for c, pj in zip(counts, p, strict=True))
    return total


@pytest.mark.parametrize("distribution", ["uniform", "zipf"])
def test_sampling_error_is_the_multinomial_variance(distribution: str) -> None:
    d, m = 3, 4
    if distribution == "uniform":
        p = [Fraction(1, 3)] * 3
    else:
        h = sum(Fraction(1, j) for j in range(1, d + 1))
        p = [Fraction(1, j) / h for j in range(1, d + 1)]
    want = _multinomial_error(p, m)
    with mpmath.workdps(40):
        _check_error(distribution, d, m, want)


def _check_error(distribution: str, d: int, m: int, want: Fraction) -> None:
    col = ex.collision_probability(distribution, d)
    got = ex.estimate_error(mpmath.mpf(m), col, d, mpmath.mpf(0))
    assert abs(got - mpmath.mpf(want.numerator) / want.denominator) < mpmath.mpf("1e-30")
    # the noise term: d sigma^2 / m^2
    assert abs(ex.estimate_error(mpmath.mpf(m), col, d, mpmath.mpf(2)) - got
               - mpmath.mpf(d * 4) / (m * m)) < mpmath.mpf("1e-30")


@pytest.mark.parametrize(("n", "s", "m"), [(10**6, Fraction(1, 10), 1000),
                                           (10**6, Fraction(1, 1000), 5000),
                                           (10**4, Fraction(1, 100), 150)])
def test_importance_rates_give_m_samples(n: int, s: Fraction, m: int) -> None:
    alpha, beta = ex.importance_rates(n, s, m)
    assert alpha * (n - s * n) + beta * s * n == m
    assert 0 <= alpha <= 1 and 0 < beta <= 1
    if m <= 2 * s * n:
        assert beta * s * n == Fraction(m, 2)  # half the samples are needles
    else:
        assert beta == 1


def test_points_order_nonpriv_sampagg_agg() -> None:
    st = ex.Setting(100, 10**6, 1, EPS, DELTA)
    p = ex.histogram_point(st, 1000)
    assert p.nonpriv < p.sampagg < p.agg and p.q_sampagg == Fraction(1, 1000)
    needles = ex.Setting(100, 10**6, 1, EPS, DELTA, sparsity=Fraction(1, 100))
    q = ex.histogram_point(needles, 1000)
    assert q.nonpriv_uniform is not None
    assert q.nonpriv < q.nonpriv_uniform < q.agg and q.sampagg < q.agg
    assert q.q_sampagg == Fraction(1, 20)  # the needles' rate m / (2 s n)


def test_setting_rejects_bad_parameters() -> None:
    with pytest.raises(ex.ExperimentError):
        ex.Setting(1, 10, 1, EPS, DELTA)
    with pytest.raises(ex.ExperimentError):
        ex.Setting(10, 10, 1, EPS, DELTA, sparsity=Fraction(1))
    with pytest.raises(ex.ExperimentError):
        ex.histogram_point(ex.Setting(10, 100, 1, EPS, DELTA), 1000)


def test_sampling_gain_is_about_one_over_sqrt_q() -> None:
    q = Fraction(1, 100)
    g = ex.sampling_gain(Fraction(1, 10), Fraction(1, 10**10), q, 10000, Fraction(1, 10**8),
                         Fraction(10), Fraction(1, 10**6))
    assert g.participations == 100
    assert 5 < g.ratio < 20  # 1/sqrt(q) = 10
    assert g.runs_known is not None and g.runs_secret is not None
    assert g.runs_secret > 10 * max(g.runs_known, 1)


def test_example_5_by_the_gain_calculator() -> None:
    g = ex.gaussian_gain(Fraction(51, 10), Fraction(1, 50), 2500, DELTA)
    assert g["eps_step_amplified"] <= mpmath.mpf("0.034")  # Example 5: (0.034, 1e-8) per step
    assert g["eps_all_steps"] > 100  # "without amplification ... larger than 100"
    assert g["participations"] == 50
    assert g["eps_secret"] < g["eps_known"] < g["eps_all_steps"]


# -- the CLI --------------------------------------------------------------------------------------
def _run(argv: list[str]) -> tuple[int, str]:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        status = main(argv)
    return status, buf.getvalue()


def test_cli_figure_writes_png_and_markdown(tmp_path: Path) -> None:
    status, out = _run(["experiment", "sa2", "fig6", "--out", str(tmp_path), "--n", "100000",
                        "--m-grid", "1000,4000", "--d-grid", "100", "--k-grid", "1"])
    assert status == 0
    md = (tmp_path / "fig6.md").read_text()
    assert "Generated by `dpspec experiment sa2 fig6" in md and "s = 0.1" in md
    assert "| paper | recomputed | verdict |" in md and "| d = 100, K = 1 | 4000 |" in md
    assert (tmp_path / "fig6.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "SampAgg improves on Agg" in out


def test_cli_gain_calculator(tmp_path: Path) -> None:
    status, out = _run(["experiment", "sa2", "gain", "--no-write", "--q", "1/50",
                        "--steps", "2500"])
    assert status == 0
    assert "ceil(qT) = 50" in out and "Example 5: 0.034" in out


@pytest.mark.parametrize(("argv", "message"), [
    (["--eps", "0"], "eps"), (["--m-grid", "10,x"], "--m-grid"), (["--n", "1.5"], "--n"),
    (["--d-grid", ""], "--d-grid")])
def test_cli_bad_input(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["experiment", "sa2", "fig5", "--no-write", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_cli_gain_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["experiment", "sa2", "gain", "--no-write", "--q", "2"]) == 2
    assert "--q" in capsys.readouterr().err
