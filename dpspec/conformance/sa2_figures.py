"""``dpspec experiment sa2 NAME``: the utility experiments of [SA2] (seed 001), recomputed.

    dpspec experiment sa2 fig1|fig2|fig3|fig5|fig6|fig7|fig8 [--out DIR] [--eps E] [--delta D]
                              [--n N] [--m-grid M,M,...] [--no-write]
    dpspec experiment sa2 gain [--eps0 E0] [--delta0 D0] [--q Q] [--steps T] [--slack D']
                               [--budget E --budget-delta D] [--sigma S] [--out DIR] [--no-write]
    dpspec experiment sa2 all [--out DIR]

Each figure command computes its panels with :mod:`dpspec.spec.sa2.experiments` (every noise scale
through :mod:`dpspec.spec.accounting`: analytic Gaussian for Agg, moments accountant for SampAgg),
prints a markdown table and the paper's statements beside the recomputed numbers, and (unless
``--no-write``) writes ``NAME.png`` and ``NAME.md`` (with every parameter and the command line)
into ``--out`` (default ``docs/sa2``). ``gain`` is the calculator of sec. 3.1's sampling gain for one
parameter set; with ``--out`` it also writes ``gain.md``, the table over a grid of sampling rates.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import mpmath

from dpspec.conformance.cli import CliError
from dpspec.spec.rational import RationalError, parse_rational
from dpspec.spec.sa2 import experiments as ex

FIGURES = ("fig1", "fig2", "fig3", "fig5", "fig6", "fig7", "fig8")
DEFAULT_M = "1000,3000,10000,30000,100000,300000,1000000"
GAIN_Q_GRID = ("1/2", "1/10", "1/50", "1/100", "1/300", "1/1000", "1/10000")


def register(esub: Any) -> None:
    """Add ``sa2`` under ``dpspec experiment``."""
    p = esub.add_parser("sa2", help="samplable anonymous aggregation (Talwar et al.): sec. 3.1 "
                                    "and App. B figures, the sampling-gain calculator")
    p.add_argument("name", choices=[*FIGURES, "gain", "all"], metavar="NAME",
                   help="fig1, fig2, fig3, fig5, fig6, fig7, fig8, gain or all")
    p.add_argument("--out", type=Path, default=Path("docs/sa2"),
                   help="folder for NAME.png and NAME.md (default docs/sa2)")
    p.add_argument("--no-write", action="store_true", help="print only; write no file")
    p.add_argument("--eps", default="1", help="total epsilon of the K tasks (default 1)")
    p.add_argument("--delta", default="1e-8", help="total delta (default 1e-8)")
    p.add_argument("--n", default="10000000", help="population size (default 10^7)")
    p.add_argument("--m-grid", default=DEFAULT_M,
                   help=f"reports per task, comma-separated (default {DEFAULT_M})")
    p.add_argument("--d-grid", default="1000,10000,100000",
                   help="alphabet sizes of the App. B columns (default 1000,10000,100000)")
    p.add_argument("--k-grid", default="1,10,100",
                   help="task counts of the App. B rows (default 1,10,100)")
    g = p.add_argument_group("gain (sec. 3.1)")
    g.add_argument("--eps0", default="0.1", help="epsilon of one step (default 0.1)")
    g.add_argument("--delta0", default="0", help="delta of one step (default 0: pure eps0-DP steps)")
    g.add_argument("--q", default="1/50", help="sampling rate (default 1/50)")
    g.add_argument("--steps", type=int, default=2500, help="steps T (default 2500)")
    g.add_argument("--slack", default="1e-8", help="advanced-composition slack (default 1e-8)")
    g.add_argument("--budget", default="10", help="total epsilon budget for the count of "
                                                  "algorithms (default 10)")
    g.add_argument("--budget-delta", default="1e-6", help="total delta budget (default 1e-6)")
    g.add_argument("--sigma", default="5.1",
                   help="noise multiplier of the Gaussian comparison (default 5.1, Example 5)")
    p.set_defaults(func=run)


# -- parameters -------------------------------------------------------------------------------
def _q(text: str, name: str) -> Fraction:
    try:
        return parse_rational(text, name)
    except RationalError as exc:
        raise CliError(str(exc)) from exc


def _int(text: str, name: str, lo: int, hi: int) -> int:
    v = _q(text, name)
    if v.denominator != 1 or not lo <= v <= hi:
        raise CliError(f"{name} must be an integer in [{lo}, {hi}], got {text}")
    return int(v)


def _ints(text: str, name: str, lo: int, hi: int) -> list[int]:
    items = [t for t in text.split(",") if t.strip()]
    if not items:
        raise CliError(f"{name} is empty")
    return [_int(t.strip(), name, lo, hi) for t in items]


def _nstr(x: mpmath.mpf | None, digits: int = 4) -> str:
    return "-" if x is None else str(mpmath.nstr(x, digits))


# -- panels of each figure ---------------------------------------------------------------------
Panel = tuple[str, ex.Setting]


def _panels(name: str, args: argparse.Namespace) -> list[Panel]:
    eps, delta = _q(args.eps, "--eps"), _q(args.delta, "--delta")
    n = _int(args.n, "--n", 10, 10**12)

    def st(d: int, k: int, dist: str = "uniform", s: str | None = None) -> ex.Setting:
        try:
            return ex.Setting(d, n, k, eps, delta, dist, None if s is None else Fraction(s))
        except ex.ExperimentError as exc:
            raise CliError(str(exc)) from exc

    if name == "fig1":
        return [("histogram, uniform, d = 1000, K = 1", st(1000, 1)),
                ("needles, s = 0.1, d = 1000, K = 1", st(1000, 1, s="1/10")),
                ("needles, s = 0.01, d = 1000, K = 1", st(1000, 1, s="1/100"))]
    if name == "fig2":
        return [("d = 1000, K = 1", st(1000, 1)), ("d = 1000, K = 10", st(1000, 10)),
                ("d = 10000, K = 100", st(10000, 100)),
                ("d = 10000, K = 100, Zipf", st(10000, 100, "zipf"))]
    if name == "fig3":
        return [("s = 0.1, d = 1000, K = 1", st(1000, 1, s="1/10")),
                ("s = 0.1, d = 1000, K = 10", st(1000, 10, s="1/10")),
                ("s = 0.01, d = 1000, K = 10", st(1000, 10, s="1/100")),
                ("s = 0.01, d = 10000, K = 100", st(10000, 100, s="1/100"))]
    sparsity = {"fig5": None, "fig6": "1/10", "fig7": "1/100", "fig8": "1/1000"}[name]
    ds = _ints(args.d_grid, "--d-grid", 2, 10**7)
    ks = _ints(args.k_grid, "--k-grid", 1, 10**5)
    return [(f"d = {d}, K = {k}", st(d, k, s=sparsity)) for k in ks for d in ds]


TITLES = {
    "fig1": "Fig. 1: error vs number of samples, uniform histogram and skewed (needles) "
            "distributions",
    "fig2": "Fig. 2: histograms, K tasks under one (eps, delta) budget",
    "fig3": "Fig. 3: counting needles (sparse histogram, importance sampling for SampAgg)",
    "fig5": "Fig. 5 (App. B): histograms, d from 10^3 to 10^5 (columns), K tasks (rows)",
    "fig6": "Fig. 6 (App. B): counting needles, s = 0.1",
    "fig7": "Fig. 7 (App. B): counting needles, s = 0.01",
    "fig8": "Fig. 8 (App. B): counting needles, s = 0.001",
}


def compute(name: str, args: argparse.Namespace,
            progress: Callable[[str], None] | None = None) -> list[tuple[str, ex.Setting,
                                                                         list[ex.Point]]]:
    ms = _ints(args.m_grid, "--m-grid", 1, 10**12)
    out = []
    for label, st in _panels(name, args):
        if progress is not None:
            progress(label)
        try:
            pts = ex.sweep(st, ms)
        except ex.ExperimentError as exc:
            raise CliError(str(exc)) from exc
        out.append((label, st, pts))
    return out


# -- output -------------------------------------------------------------------------------------
def table(results: list[tuple[str, ex.Setting, list[ex.Point]]]) -> str:
    needles = results[0][1].sparsity is not None
    head = ["panel", "m", "q (SampAgg)", "sigma Agg", "sigma SampAgg", "NonPriv", "Agg",
            "SampAgg", "Agg / NonPriv", "SampAgg / NonPriv"]
    if needles:
        head.insert(5, "NonPriv (uniform)")
    lines = ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
    for label, _, pts in results:
        for p in pts:
            cells = [label, str(p.m), _qstr(p.q_sampagg), _nstr(p.sigma_agg, 5),
                     _nstr(p.sigma_sampagg, 5), _nstr(p.nonpriv), _nstr(p.agg),
                     _nstr(p.sampagg), _nstr(p.agg / p.nonpriv, 3),
                     _nstr(p.sampagg / p.nonpriv, 3)]
            if needles:
                cells.insert(5, _nstr(p.nonpriv_uniform))
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _qstr(q: Fraction) -> str:
    return str(mpmath.nstr(mpmath.mpf(q.numerator) / q.denominator, 4))


def claims(name: str, results: list[tuple[str, ex.Setting, list[ex.Point]]]
           ) -> list[tuple[str, str, str]]:
    """``(paper statement, recomputed, verdict)`` for the statements the paper's text makes."""
    pts = [p for _, _, ps in results for p in ps]
    agg_extra = max((p.agg - p.nonpriv) / p.nonpriv for p in pts)
    samp_extra = max((p.sampagg - p.nonpriv) / p.nonpriv for p in pts)
    better = all(p.sampagg <= p.agg for p in pts)
    rows: list[tuple[str, str, str]] = [(
        "SampAgg improves on Agg (lower error at every m)",
        f"SampAgg <= Agg at {sum(p.sampagg <= p.agg for p in pts)} of {len(pts)} points",
        "agrees" if better else "disagrees at some points")]
    if name in ("fig2", "fig5"):
        med_s = sorted((p.sampagg - p.nonpriv) / p.nonpriv for p in pts)[len(pts) // 2]
        med_a = sorted((p.agg - p.nonpriv) / p.nonpriv for p in pts)[len(pts) // 2]
        small_extra = sum((p.sampagg - p.nonpriv) / p.nonpriv < mpmath.mpf("0.1") for p in pts)
        rows.append((
            "with SampAgg the additional error due to privacy is negligible; with Agg alone the "
            "variance can be an order of magnitude larger (sec. 3.1)",
            f"privacy error / sampling error: SampAgg median {_nstr(med_s, 3)}, max "
            f"{_nstr(samp_extra, 3)}; Agg median {_nstr(med_a, 3)}, max {_nstr(agg_extra, 3)}",
            ("agrees for Agg (max >= 10)" if agg_extra >= 10 else "Agg's extra error stays "
             "below 10x here") + f"; SampAgg's extra error is below 10% at {small_extra} of "
            f"{len(pts)} points"))
    if name in ("fig5", "fig6", "fig7", "fig8"):
        def gap(r: tuple[str, ex.Setting, list[ex.Point]]) -> mpmath.mpf:
            return max(p.agg / p.sampagg for p in r[2])
        small = min(results, key=lambda r: (r[1].d, r[1].tasks))
        large = max(results, key=lambda r: (r[1].d, r[1].tasks))
        rows.append((
            "the improvement over Agg holds over the whole range and is most pronounced for "
            "large d and K (App. B)",
            f"max Agg / SampAgg error: {_nstr(gap(small), 3)} at d = {small[1].d}, K = "
            f"{small[1].tasks}; {_nstr(gap(large), 3)} at d = {large[1].d}, K = {large[1].tasks}",
            "agrees" if gap(large) >= gap(small) and better else "disagrees"))
        sig = {r[1].tasks: r[2][0].sigma_agg for r in results}
        ks = sorted(sig)
        if len(ks) > 1:
            ratio = (sig[ks[-1]] / sig[ks[0]]) ** 2
            rows.append((
                "the budget per task falls like 1/sqrt(K), so the noise variance grows like K "
                "(App. B)",
                f"Agg: sigma^2 ratio K = {ks[-1]} vs K = {ks[0]}: {_nstr(ratio, 4)}",
                "agrees (exact for Agg: K Gaussians compose into one of sensitivity sqrt(K))"))
    if name in ("fig1", "fig3", "fig6", "fig7", "fig8"):
        ns = [(lab, st, ps) for lab, st, ps in results if st.sparsity is not None]
        if ns:
            ratio = max(p.agg / p.sampagg for _, _, ps in ns for p in ps)
            rows.append((
                "importance sampling, private only with SampAgg, gives larger gains for skewed "
                "distributions (sec. 1, Fig. 1; sec. 3.1, Fig. 3)",
                f"max Agg / SampAgg error over the needles panels: {_nstr(ratio, 3)}",
                "agrees" if ratio > 1 else "disagrees"))
    return rows


def claims_table(rows: list[tuple[str, str, str]]) -> str:
    out = ["| paper | recomputed | verdict |", "|---|---|---|"]
    out += [f"| {a} | {b} | {c} |" for a, b, c in rows]
    return "\n".join(out)


def plot(path: Path, name: str, results: list[tuple[str, ex.Setting, list[ex.Point]]]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    if name in ("fig5", "fig6", "fig7", "fig8"):
        ncols = len({st.d for _, st, _ in results})
    else:
        ncols = min(len(results), 4)
    nrows = math.ceil(len(results) / ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(3.6 * ncols, 2.9 * nrows), dpi=90,
                             squeeze=False)
    needles = results[0][1].sparsity is not None or name == "fig1"
    for ax, (label, st, pts) in zip(axes.flat, results, strict=False):
        xs = [p.m for p in pts]
        ax.plot(xs, [float(p.nonpriv) for p in pts], "k--",
                label="NonPriv" + (" (importance)" if st.sparsity is not None else ""))
        if st.sparsity is not None:
            ax.plot(xs, [float(p.nonpriv_uniform) for p in pts if p.nonpriv_uniform is not None],
                    "k:", label="NonPriv (uniform)")
        ax.plot(xs, [float(p.agg) for p in pts], "C1s-", markersize=3, label="Agg")
        ax.plot(xs, [float(p.sampagg) for p in pts], "C0o-", markersize=3,
                label="SampAgg" + (" (importance)" if st.sparsity is not None else ""))
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("reports per task m", fontsize=8)
        ax.set_ylabel("expected squared L2 error", fontsize=8)
        ax.set_title(label, fontsize=8)
        ax.tick_params(labelsize=7)
        ax.grid(True, which="major", linewidth=0.3)
        ax.legend(fontsize=6)
    for ax in list(axes.flat)[len(results):]:
        ax.axis("off")
    st0 = results[0][1]
    fig.suptitle(f"{TITLES[name]}\n(eps, delta) = ({ex._dec(st0.eps)}, {ex._dec(st0.delta)}) "
                 f"over all K tasks, n = {st0.n}" + (", needles" if needles and name != "fig1"
                                                      else ""), fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def _command_line(name: str, args: argparse.Namespace) -> str:
    parts = ["dpspec experiment sa2", name, f"--out {args.out.as_posix()}", f"--eps {args.eps}",
             f"--delta {args.delta}", f"--n {args.n}", f"--m-grid {args.m_grid}"]
    if name in ("fig5", "fig6", "fig7", "fig8"):
        parts += [f"--d-grid {args.d_grid}", f"--k-grid {args.k_grid}"]
    return " ".join(parts)


def run_figure(name: str, args: argparse.Namespace) -> int:
    import sys

    results = compute(name, args, lambda lab: print(f"{name}: {lab}", file=sys.stderr,
                                                    flush=True))
    tab = table(results)
    cl = claims(name, results)
    st0 = results[0][1]
    doc = [
        f"# {TITLES[name]}", "",
        f"Generated by `{_command_line(name, args)}`.", "",
        f"Parameters of every panel: population n = {st0.n}; total budget (eps, delta) = "
        f"({ex._dec(st0.eps)}, {ex._dec(st0.delta)}) over the K tasks; reports per task m in "
        f"{{{args.m_grid}}} (values above n skipped). Panels:", "",
        *[f"- {lab}: {st.describe()}" for lab, st, _ in results], "",
        "Neighbours: add or "
        "remove one device (L2 sensitivity 1). Agg: analytic Gaussian [BW18] at sensitivity "
        f"sqrt(K) for ({ex._dec(st0.eps)}, {ex._dec(st0.delta)}); SampAgg: moments accountant of "
        f"K Poisson-subsampled Gaussian steps at rate q, integer Renyi orders {ex.ORDERS[0]}.."
        f"{ex.ORDERS[-1]}; both sigmas rounded up to {ex.SIGMA_DIGITS} digits. Errors: "
        "(1 - ||p||^2) / m_u + d sigma^2 / m_u^2 with m_u the (useful) sample size "
        "(dpspec.spec.sa2.experiments). SampAgg uses Agg's sigma where that is smaller (q near 1)."
        + (" Needles: Agg samples uniformly (m_u = s m); SampAgg and NonPriv (importance) sample "
           "the needles at rate beta = min(1, m / (2 s n)) and the default value at the rate "
           "that makes the expected sample m (m_u = beta s n); SampAgg's q is the largest rate."
           if any(st.sparsity is not None for _, st, _ in results) else ""), "",
        f"![{name}]({name}.png)", "", tab, "",
        "## The paper's statements, recomputed", "", claims_table(cl), "",
    ]
    print("\n".join(doc[2:]))
    if not args.no_write:
        args.out.mkdir(parents=True, exist_ok=True)
        plot(args.out / f"{name}.png", name, results)
        (args.out / f"{name}.md").write_text("\n".join(doc), encoding="utf-8")
        print(f"wrote {args.out / (name + '.png')} and {args.out / (name + '.md')}",
              file=sys.stderr)
    return 0


# -- sec. 3.1: the gain calculator ---------------------------------------------------------------
def _gain_inputs(args: argparse.Namespace) -> dict[str, Any]:
    out = {
        "eps0": _q(args.eps0, "--eps0"), "delta0": _q(args.delta0, "--delta0"),
        "q": _q(args.q, "--q"), "slack": _q(args.slack, "--slack"),
        "budget": _q(args.budget, "--budget"), "budget_delta": _q(args.budget_delta,
                                                                  "--budget-delta"),
        "sigma": _q(args.sigma, "--sigma"),
    }
    if not 0 < out["q"] <= 1:
        raise CliError("--q must be in (0, 1]")
    if not 0 < out["eps0"] <= 10 or not 0 <= out["delta0"] < 1:
        raise CliError("--eps0 must be in (0, 10] and --delta0 in [0, 1)")
    for key in ("slack", "budget_delta"):
        if not 0 < out[key] < 1:
            raise CliError(f"--{key.replace('_', '-')} must be in (0, 1)")
    if out["budget"] <= 0 or out["sigma"] <= 0:
        raise CliError("--budget and --sigma must be > 0")
    if not 1 <= args.steps <= 10**7:
        raise CliError("--steps must be in [1, 10^7]")
    return out


def gain_rows(inp: dict[str, Any], q: Fraction, steps: int) -> list[str]:
    g = ex.sampling_gain(inp["eps0"], inp["delta0"], q, steps, inp["slack"], inp["budget"],
                         inp["budget_delta"])
    gg = ex.gaussian_gain(inp["sigma"], q, steps, inp["slack"])
    inv_sqrt = 1 / mpmath.sqrt(mpmath.mpf(q.numerator) / q.denominator)
    runs = "-" if not g.runs_known else _nstr(mpmath.mpf(g.runs_secret or 0) / g.runs_known, 4)
    return [ex._dec(q) if q.numerator == 1 and q.denominator % 10 == 0 else str(q),
            str(g.participations), f"({_nstr(g.eps_known)}, {_nstr(g.delta_known, 2)})",
            f"({_nstr(g.eps_secret)}, {_nstr(g.delta_secret, 2)})", _nstr(g.ratio, 4),
            _nstr(inv_sqrt, 4), f"{g.runs_known} / {g.runs_secret}", runs,
            _nstr(mpmath.mpf(q.denominator) / q.numerator, 4), _nstr(gg["eps_known"]),
            _nstr(gg["eps_secret"]), _nstr(gg["ratio"], 4)]


GAIN_HEAD = ["q", "qT", "known sample (eps, delta)", "secret sample (eps, delta)",
             "eps ratio", "1/sqrt(q)", "algorithms in budget (known / secret)", "ratio", "1/q",
             "Gaussian known eps", "Gaussian secret eps", "Gaussian ratio"]


def run_gain(args: argparse.Namespace) -> int:
    import sys

    inp = _gain_inputs(args)
    params = (f"eps0 = {args.eps0}, delta0 = {args.delta0}, T = {args.steps}, advanced-"
              f"composition slack {args.slack}, budget ({args.budget}, {args.budget_delta}); "
              f"Gaussian comparison: sigma = {args.sigma}, delta = {args.slack}")
    one = ex.sampling_gain(inp["eps0"], inp["delta0"], inp["q"], args.steps, inp["slack"],
                           inp["budget"], inp["budget_delta"])
    gg = ex.gaussian_gain(inp["sigma"], inp["q"], args.steps, inp["slack"])
    print(f"Sec. 3.1 sampling gain: q = {args.q}, {params}")
    print(f"  known sample: a device takes part in ceil(qT) = {one.participations} steps; "
          f"advanced composition: ({_nstr(one.eps_known, 6)}, {_nstr(one.delta_known, 3)})-DP")
    print(f"  secret sample: each step amplified to ({_nstr(one.eps_step_amplified, 6)}, "
          f"{_nstr(one.delta_step_amplified, 3)}); over T = {args.steps} steps: "
          f"({_nstr(one.eps_secret, 6)}, {_nstr(one.delta_secret, 3)})-DP")
    inv = 1 / mpmath.sqrt(mpmath.mpf(inp["q"].numerator) / inp["q"].denominator)
    print(f"  ratio {_nstr(one.ratio, 5)} (the paper: about 1/sqrt(q) = {_nstr(inv, 5)})")
    print(f"  algorithms of T steps within the budget: {one.runs_known} (known) vs "
          f"{one.runs_secret} (secret) (the paper: about 1/q = "
          f"{_nstr(mpmath.mpf(inp['q'].denominator) / inp['q'].numerator, 5)} times as many)")
    print(f"  Gaussian steps, sigma = {args.sigma}: one step eps {_nstr(gg['eps_step'], 6)}, "
          f"amplified {_nstr(gg['eps_step_amplified'], 6)} (Example 5: 0.034 at q = 0.02); "
          f"T steps by the moments accountant {_nstr(gg['eps_secret'], 6)} (Example 5: 0.8); "
          f"known sample, {one.participations} participations {_nstr(gg['eps_known'], 6)}; "
          f"all T steps without amplification {_nstr(gg['eps_all_steps'], 6)} (Example 5: "
          "> 100)")
    if not args.no_write:
        lines = ["# Sec. 3.1: the gain of a secret sample", "",
                 f"Generated by `dpspec experiment sa2 gain --out {args.out.as_posix()} --eps0 "
                 f"{args.eps0} --delta0 {args.delta0} --steps {args.steps} --slack {args.slack} "
                 f"--budget {args.budget} --budget-delta {args.budget_delta} --sigma "
                 f"{args.sigma}` ({params}).", "",
                 "Known sample: advanced composition ([DRV10], dpspec.spec.accounting.composition) "
                 "over the ceil(qT) steps a device takes part in on average (optimistic for the "
                 "known sample). Secret sample: Poisson amplification (SA2 Theorem 3) of each step, "
                 "then advanced composition over all T steps. 'Algorithms in budget': the largest "
                 "number of such T-step algorithms whose steps, all composed, stay within the "
                 "budget. Gaussian columns: the same comparison for Gaussian steps of noise "
                 "multiplier sigma, by numerical accounting (analytic Gaussian over the ceil(qT) "
                 "participations; moments accountant over T subsampled steps).", "",
                 "| " + " | ".join(GAIN_HEAD) + " |", "|---|" + "---:|" * (len(GAIN_HEAD) - 1)]
        for qt in GAIN_Q_GRID:
            print(f"gain: q = {qt}", file=sys.stderr, flush=True)
            lines.append("| " + " | ".join(gain_rows(inp, Fraction(qt), args.steps)) + " |")
        lines += ["", "Example 5 of [SA2] (sigma = 5.1, q = 0.02, T = 2500, delta = 1e-8): one "
                  f"step {_nstr(gg['eps_step_amplified'], 4) if args.q in ('1/50', '0.02') else '-'}"
                  " (paper 0.034); T steps "
                  f"{_nstr(gg['eps_secret'], 4) if args.q in ('1/50', '0.02') else '-'} (paper "
                  "0.8); without amplification "
                  f"{_nstr(gg['eps_all_steps'], 4) if args.q in ('1/50', '0.02') else '-'} "
                  "(paper > 100).", ""]
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "gain.md").write_text("\n".join(lines), encoding="utf-8")
        print(f"wrote {args.out / 'gain.md'}", file=sys.stderr)
    return 0


def run(args: argparse.Namespace) -> int:
    if args.name == "gain":
        return run_gain(args)
    if args.name == "all":
        for name in FIGURES:
            run_figure(name, args)
        return run_gain(args)
    return run_figure(args.name, args)
