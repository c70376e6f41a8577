"""``dpspec experiment ghazi``: the comparisons of sec. 5 of [GKMP20], recomputed.

    dpspec experiment ghazi --epsilon 1 --delta 1e-6 --n 10000 [--buckets 10] [--json]
    dpspec experiment ghazi --figures docs/ghazi [--n 10000] [--buckets 10]

The first form prints, at one (eps, delta, n), the RMSE and expected messages per user of the
central discrete Laplace mechanism, the correlated distributed mechanism (D3 by the exact privacy
curve, and by Theorems 18 + 13), the Poisson mechanism (exact lambda, and Theorem 11's) and binary
randomized response, all (eps, delta)-DP; with ``--buckets`` also the histogram comparison (with
B-ary randomized response and RAPPOR). It ends with the ratio of the Poisson to the correlated
RMSE, next to the paper's "3.5 times". ``--simulate K`` adds a Monte Carlo RMSE of the correlated
and Poisson protocols from K seeded runs of the real randomizers (n users each).

The second form writes the two comparisons of Figure 2 (RMSE vs eps at delta = 1e-6, RMSE vs delta
at eps = 1) and their histogram analogues as PNG plots and markdown tables into the folder.
"""

from __future__ import annotations

import argparse
import json
import math
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

import mpmath

from dpspec.conformance.cli import CliError
from dpspec.conformance.progress import Progress
from dpspec.spec.accounting.numeric import strict_int
from dpspec.spec.lazy import lazy_module
from dpspec.spec.rational import RationalError, parse_rational

if TYPE_CHECKING:
    from dpspec.spec.shuffled import compare
    from dpspec.spec.shuffled.compare import Row
else:
    compare = lazy_module("dpspec.spec.shuffled.compare")  # numpy/scipy only when a command runs

#: progress on stderr while the figures' sweeps run (a terminal only)
_PROGRESS = Progress()
PAPER_RATIO = "3.5"  # sec. 5.1 of [GKMP20]: correlated RMSE "3.5 times less" than Poisson and RR
EPS_GRID = ["0.1", "0.2", "0.3", "0.5", "0.75", "1", "1.5", "2", "3"]
DELTA_GRID = ["1e-2", "1e-3", "1e-4", "1e-5", "1e-6", "1e-7", "1e-8", "1e-9", "1e-10", "1e-12"]


#: input limits of ``experiment ghazi`` (beyond them a run would take minutes: refused up front)
MIN_EPSILON = Fraction(1, 10)
MIN_DELTA = Fraction(1, 10**40)
MAX_SIMULATED_USERS = 20_000


def _count(text: str) -> int:
    """argparse type: a decimal integer as typed (no '_' separators)."""
    return strict_int(text)


def register(sub: Any) -> None:
    parser = sub.add_parser("experiment", help="reproduce the experiments of a source paper")
    esub = parser.add_subparsers(dest="experiment", metavar="NAME")
    esub.required = True
    g = esub.add_parser(
        "ghazi", help="shuffled-model counting of Ghazi, Kumar, Manurangsi, Pagh (ICML 2020)")
    g.add_argument("--epsilon", default="1", help="target epsilon (default 1)")
    g.add_argument("--delta", default="1e-6", help="target delta (default 1e-6)")
    g.add_argument("--n", default="10000", help="number of users (default 10000)")
    g.add_argument("--buckets", default=None,
                   help="also compare histograms over this many buckets")
    g.add_argument("--rmse-factor", default="1.2",
                   help="correlated RMSE / central DLap RMSE (default 1.2, as in sec. 5.1)")
    g.add_argument("--no-theorems", action="store_true",
                   help="skip the rows whose parameters come from Theorems 11, 13, 18")
    g.add_argument("--near-central", action="store_true",
                   help="add the near-central instance of sec. 4.1 (DLap(0.99 eps) + 0.01 eps to D3)")
    g.add_argument("--lower-bounds", action="store_true",
                   help="print Theorem 3 and Lemma 15 illustrated beside exact errors, and stop")
    g.add_argument("--histogram-growth", action="store_true",
                   help="print the sec. 5.2 error growth with B on synthetic data, and stop")
    g.add_argument("--simulate", type=_count, default=0, metavar="K",
                   help="add Monte Carlo RMSEs from K seeded protocol runs")
    g.add_argument("--json", action="store_true", help="print JSON")
    g.add_argument("--figures", type=Path, default=None, metavar="DIR",
                   help="write the sweep plots (PNG) and tables (markdown) into DIR")
    g.set_defaults(func=run_ghazi)
    m = esub.add_parser(
        "mjtb", help="interactive n-gram discovery of McMillan et al. (2022): recall vs rounds, budget")
    m.add_argument("--devices", type=int, default=5000, help="number of devices (default 5000)")
    m.add_argument("--rounds", type=int, default=3, help="rounds = largest n-gram (default 3)")
    m.add_argument("--min-cohort", type=int, default=1000, help="m of every round (default 1000)")
    m.add_argument("--seed", default="6d6a746232322d646973636f76657279",
                   help="hex seed of the population, invitations and devices")
    m.add_argument("--json", action="store_true", help="print JSON")
    m.set_defaults(func=run_mjtb)
    from dpspec.conformance import sa2_figures

    sa2_figures.register(esub)


def _rational(text: str, name: str) -> Fraction:
    try:
        return parse_rational(text, name)
    except RationalError as exc:
        raise CliError(str(exc)) from exc


def _inputs(args: argparse.Namespace) -> tuple[mpmath.mpf, mpmath.mpf, int, int | None, Fraction]:
    eps, delta = _rational(args.epsilon, "--epsilon"), _rational(args.delta, "--delta")
    n = _rational(args.n, "--n")
    factor = _rational(args.rmse_factor, "--rmse-factor")
    if not MIN_EPSILON <= eps <= 10:
        raise CliError("--epsilon must be in [0.1, 10] (below 0.1 the exact "
                       "minimal noise parameters of the correlated protocol take minutes: their "
                       "distributions widen as epsilon falls; the paper's sweep starts at 0.1)")
    if not MIN_DELTA <= delta < Fraction(1, 10):
        raise CliError("--delta must be in [1e-40, 0.1) (below 1e-40 the exact designs "
                       "tabulate distributions too far into their tails to finish in a minute)")
    if n.denominator != 1 or not 2 <= n <= 10**7:
        raise CliError("--n must be an integer in [2, 10^7]")
    if not 1 < factor <= 10:
        raise CliError("--rmse-factor must be in (1, 10]")
    buckets = None
    if args.buckets is not None:
        b = _rational(args.buckets, "--buckets")
        if b.denominator != 1 or not 2 <= b <= 10**4:
            raise CliError("--buckets must be an integer in [2, 10000]")
        buckets = int(b)
    if args.simulate < 0 or args.simulate * int(n) > MAX_SIMULATED_USERS:
        raise CliError(f"--simulate K runs K protocol executions of n users each (about a "
                       f"millisecond per user): K x n must be at most {MAX_SIMULATED_USERS}, "
                       f"so K <= {MAX_SIMULATED_USERS // int(n)} at n = {int(n)}")
    return _to_mpf(eps), _to_mpf(delta), int(n), buckets, factor


def _to_mpf(q: Fraction) -> mpmath.mpf:
    return mpmath.mpf(q.numerator) / q.denominator


def _fmt(x: mpmath.mpf | Fraction | None, digits: int = 6) -> str:
    if x is None:
        return "-"
    if isinstance(x, Fraction):
        x = mpmath.mpf(x.numerator) / x.denominator
    return str(mpmath.nstr(x, digits))


def markdown_table(rows: list[Row], messages_label: str = "expected messages / user") -> str:
    out = ["| mechanism | RMSE | " + messages_label + " | parameters | privacy |",
           "|---|---:|---:|---|---|"]
    for r in rows:
        params = ", ".join(f"{k} = {v}" for k, v in r.parameters.items())
        out.append(f"| {r.label} | {_fmt(r.rmse)} | {_fmt(r.messages)} | {params} | {r.privacy} |")
    return "\n".join(out)


def ratio_line(rows: list[Row]) -> str | None:
    by = {r.key: r for r in rows}
    if "correlated" not in by or "poisson" not in by:
        return None
    ratio = by["poisson"].rmse / by["correlated"].rmse
    text = f"Poisson RMSE / correlated RMSE = {_fmt(ratio, 4)}"
    if "rr" in by:
        rr = by["rr"].rmse / by["correlated"].rmse
        text += f"; randomized response RMSE / correlated RMSE = {_fmt(rr, 4)}"
    return text + f" (the paper, at eps = 1, delta = 1e-6: {PAPER_RATIO} times)"


def run_ghazi(args: argparse.Namespace) -> int:
    eps, delta, n, buckets, factor = _inputs(args)
    if args.lower_bounds:
        return print_lower_bounds(eps, n, args.json)
    if args.histogram_growth:
        return print_histogram_growth(eps, delta, n, args.json)
    if args.figures is not None:
        try:
            return write_figures(args.figures, n, buckets or 10, factor)
        finally:
            _PROGRESS.done()
    rows = compare.binary_comparison(eps, delta, n, rmse_factor=factor, theorems=not args.no_theorems,
                                     near_central=args.near_central)
    hist = compare.histogram_comparison(eps, delta, n, buckets, rmse_factor=factor) if buckets else []
    sims: dict[str, mpmath.mpf] = {}
    if args.simulate:
        sims = simulate(rows, eps, delta, n, factor, args.simulate)
    if args.json:
        doc: dict[str, Any] = {
            "epsilon": args.epsilon, "delta": args.delta, "n": n,
            "binary": [r.as_json() for r in rows],
            "ratioPoissonToCorrelated": str(mpmath.nstr(
                {r.key: r for r in rows}["poisson"].rmse / {r.key: r for r in rows}["correlated"].rmse,
                8)),
            "paperRatio": PAPER_RATIO,
        }
        if hist:
            doc["buckets"] = buckets
            doc["histogram"] = [r.as_json() for r in hist]
        if sims:
            doc["simulatedRmse"] = {k: str(mpmath.nstr(v, 6)) for k, v in sims.items()}
            doc["simulatedRuns"] = args.simulate
        print(json.dumps(doc, indent=2, sort_keys=True))
        return 0
    print(f"Binary summation, eps = {args.epsilon}, delta = {args.delta}, n = {n} "
          f"(all shuffled protocols (eps, delta)-DP; RMSEs exact)")
    print(markdown_table(rows))
    line = ratio_line(rows)
    if line:
        print(line)
    if sims:
        print(f"Monte Carlo over {args.simulate} seeded protocol runs: "
              + ", ".join(f"{k} RMSE {_fmt(v, 4)}" for k, v in sims.items()))
    if hist:
        print()
        print(f"Histogram over B = {buckets} buckets (per-bucket RMSE; per-bucket mechanisms at "
              f"(eps/2, delta/2), basic composition)")
        print(markdown_table(hist))
    return 0


def simulate(rows: list[Row], eps: mpmath.mpf, delta: mpmath.mpf, n: int, factor: Fraction,
             runs: int) -> dict[str, mpmath.mpf]:
    """Monte Carlo RMSE of the correlated and Poisson protocols: ``runs`` executions with n users,
    user i of run t on ``RandomTape(SHA-256('dpspec experiment ghazi' t i), tag)``, inputs
    alternating 0, 1 (the error does not depend on them)."""
    import hashlib

    from dpspec.spec.shuffled.compare import correlated_design, poisson_design
    from dpspec.spec.shuffled.counting import (
        TAG_CORRELATED,
        TAG_DISTRIBUTED,
        CorrelatedMechanism,
        DistributedMechanism,
        run_protocol,
    )
    from dpspec.spec.tape import RandomTape

    out: dict[str, mpmath.mpf] = {}
    inputs = [i % 2 for i in range(n)]
    mechs: dict[str, tuple[CorrelatedMechanism | DistributedMechanism, str]] = {
        "correlated": (correlated_design(eps, delta, n, "exact", factor).mechanism(),
                       TAG_CORRELATED),
        "poisson": (poisson_design(eps, delta, n, "exact").mechanism(), TAG_DISTRIBUTED)}
    for key, (mech, tag) in mechs.items():
        total = Fraction(0)
        for t in range(runs):
            tapes = [RandomTape(hashlib.sha256(f"dpspec experiment ghazi {key} {t} {i}".encode())
                                .digest(), tag) for i in range(n)]
            _, est = run_protocol(mech, inputs, tapes)
            total += (est - sum(inputs)) ** 2
        out[key] = mpmath.sqrt(mpmath.mpf(total.numerator) / total.denominator / runs)
    return out


# -- sweeps: plots and tables ------------------------------------------------------------------
def _sweep(n: int, buckets: int | None, factor: Fraction, over: str
           ) -> list[tuple[str, list[Row]]]:
    out = []
    grid = EPS_GRID if over == "epsilon" else DELTA_GRID
    for value in grid:
        _PROGRESS.step(f"experiment ghazi: {'histogram' if buckets else 'counting'}, {over} = {value}")
        q = parse_rational(value, over)
        v = mpmath.mpf(q.numerator) / q.denominator
        eps, delta = (v, mpmath.mpf("1e-6")) if over == "epsilon" else (mpmath.mpf(1), v)
        if buckets is None:
            rows = compare.binary_comparison(eps, delta, n, rmse_factor=factor)
        else:
            rows = compare.histogram_comparison(eps, delta, n, buckets, rmse_factor=factor)
        out.append((value, rows))
    return out


def _plot(path: Path, sweep: list[tuple[str, list[Row]]], over: str, title: str,
          metric: str = "rmse") -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    xs = [float(parse_rational(v, over)) for v, _ in sweep]
    keys = [r.key for r in sweep[0][1]]
    labels = {r.key: r.label for r in sweep[0][1]}
    styles = {"central_dlap": "k--", "correlated": "C0o-", "correlated_thm": "C0x:",
              "poisson": "C1s-", "poisson_thm": "C1+:", "rr": "C2^-", "brr": "C2^-",
              "rappor": "C3v-", "frappor": "C4d-"}
    fig, ax = plt.subplots(figsize=(5.2, 3.6), dpi=90)
    for key in keys:
        if metric == "messages":
            ys = [float(r.messages - 1) if r.messages is not None else math.nan
                  for _, rows in sweep for r in rows if r.key == key]
            if key in ("central_dlap", "rr", "brr", "rappor", "frappor"):
                continue
        else:
            ys = [float(r.rmse) for _, rows in sweep for r in rows if r.key == key]
        ax.plot(xs, ys, styles.get(key, "-"), label=labels[key], markersize=4, linewidth=1.2)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("epsilon" if over == "epsilon" else "delta")
    ax.set_ylabel("RMSE" if metric == "rmse" else "expected additional messages per user")
    ax.set_title(title, fontsize=9)
    ax.grid(True, which="both", linewidth=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def _sweep_table(sweep: list[tuple[str, list[Row]]], over: str, metric: str) -> str:
    keys = [r.key for r in sweep[0][1]]
    labels = {r.key: r.label for r in sweep[0][1]}
    head = f"| {over} | " + " | ".join(labels[k] for k in keys) + " |"
    lines = [head, "|---|" + "---:|" * len(keys)]
    for value, rows in sweep:
        by = {r.key: r for r in rows}
        cells = []
        for k in keys:
            r = by[k]
            cells.append(_fmt(r.rmse, 5) if metric == "rmse" else _fmt(r.messages, 6))
        lines.append(f"| {value} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _notes(one: list[Row], eps_sweep: list[tuple[str, list[Row]]], n: int) -> list[str]:
    """The comparison with the numbers printed in sec. 5.1 of [GKMP20], from the computed rows."""
    at1 = {r.key: r for r in one}
    at01 = {r.key: r for r in dict(eps_sweep)["0.1"]}

    def extra(r: Row) -> str:
        assert r.messages is not None
        return _fmt(r.messages - 1, 3)

    ratio = at1["poisson"].rmse / at1["correlated"].rmse
    rr = at1["rr"].rmse / at1["poisson"].rmse - 1
    return [
        "## Comparison with the numbers printed in the paper", "",
        f"- RMSE of Poisson / correlated at eps = 1, delta = 1e-6: {_fmt(ratio, 3)} (paper: "
        f"\"{PAPER_RATIO} times\").",
        f"- Additional messages per user, n = {n}: correlated {extra(at1['correlated'])} at "
        f"eps = 1 (paper, n = 10^4: 0.04) and {extra(at01['correlated'])} at eps = 0.1 (paper: "
        f"0.278); Poisson {extra(at1['poisson'])} at eps = 1 (paper: 0.0003, which would need "
        f"lambda = 3, not (1, 1e-6)-DP) and {extra(at01['poisson'])} at eps = 0.1 (paper: 0.141).",
        f"- Randomized response is analysed with the proven worst-case [FMT22] clone bound; its "
        f"RMSE is {_fmt(100 * rr, 2)}% above Poisson's (paper: \"essentially the same\"). B-ary "
        "randomized response uses the generic [FMT20] clone bound (valid for every eps0-DP local "
        "randomizer), and so does RAPPOR (one message per user, eps0 = 2 ln((1-f)/f)); Fragmented "
        "RAPPOR (one message per set bit, unlinkable) releases only the bucket counts, and each of "
        "the two changed counts is made (eps/2, delta/2)-DP by the fmt22 pair. Their order may "
        "differ from the paper's figures (whose analysis is in its supplementary material, not in "
        "seed 004).",
        "- Seed 004 states Theorem 18's third condition for D3; its proof needs it for D2, which "
        "is what the Theorem 18 rows use.", "",
    ]


def write_figures(folder: Path, n: int, buckets: int, factor: Fraction) -> int:
    folder.mkdir(parents=True, exist_ok=True)
    parts = [
        "# Shuffled-model counting: the comparisons of Ghazi, Kumar, Manurangsi, Pagh (ICML 2020)",
        "",
        f"Generated by `dpspec experiment ghazi --figures {folder.as_posix()} --n {n} "
        f"--buckets {buckets}`. n = {n} users; every shuffled protocol is (eps, delta)-DP with the "
        f"parameters listed by `dpspec experiment ghazi --epsilon E --delta D --n {n}`. RMSEs are "
        "exact (closed forms); messages are expected messages per user (Observations 10 and 17; "
        "randomized response, B-ary randomized response and RAPPOR send exactly one; Fragmented "
        "RAPPOR sends (1 - f) + (B - 1) f fragments).",
        "",
        f"The correlated mechanism uses D1 = D2 = NB(1, a) with a chosen so that its RMSE is "
        f"{compare.exact_decimal(factor)} times the central discrete Laplace RMSE (sec. 5.1); D3 is the "
        "negative binomial with the fewest messages that makes the mechanism exactly (eps, delta)-DP "
        "(dpspec.spec.shuffled.exact), or the one given by Theorems 18 and 13.",
        "",
    ]
    one = compare.binary_comparison(mpmath.mpf(1), mpmath.mpf("1e-6"), n, rmse_factor=factor)
    parts += ["## At eps = 1, delta = 1e-6", "", markdown_table(one), "", ratio_line(one) or "", ""]
    eps_sweep: list[tuple[str, list[Row]]] = []
    for over, title in (("epsilon", "binary summation, delta = 1e-6"),
                        ("delta", "binary summation, eps = 1")):
        sweep = _sweep(n, None, factor, over)
        if over == "epsilon":
            eps_sweep = sweep
        name = f"binary_rmse_vs_{over}"
        _plot(folder / f"{name}.png", sweep, over, f"RMSE, {title}, n = {n}")
        _plot(folder / f"binary_messages_vs_{over}.png", sweep, over,
              f"additional messages, {title}, n = {n}", metric="messages")
        parts += [f"## RMSE vs {over} ({title})", "", f"![RMSE vs {over}]({name}.png)", "",
                  _sweep_table(sweep, over, "rmse"), "",
                  f"Expected messages per user ([additional messages plot]"
                  f"(binary_messages_vs_{over}.png)):", "",
                  _sweep_table(sweep, over, "messages"), ""]
    for over, title in (("epsilon", f"histogram, B = {buckets}, delta = 1e-6"),
                        ("delta", f"histogram, B = {buckets}, eps = 1")):
        sweep = _sweep(n, buckets, factor, over)
        name = f"histogram_rmse_vs_{over}"
        _plot(folder / f"{name}.png", sweep, over, f"per-bucket RMSE, {title}, n = {n}")
        parts += [f"## Histogram: per-bucket RMSE vs {over} ({title})", "",
                  f"![histogram RMSE vs {over}]({name}.png)", "",
                  _sweep_table(sweep, over, "rmse"), "", "Expected messages per user:", "",
                  _sweep_table(sweep, over, "messages"), ""]
    parts += _notes(one, eps_sweep, n)
    (folder / "README.md").write_text("\n".join(parts), encoding="utf-8")
    print(f"wrote {folder / 'README.md'} and 6 PNG plots")
    return 0


# -- dpspec experiment mjtb ------------------------------------------------------------------------
def run_mjtb(args: argparse.Namespace) -> int:
    """Recall of the interactive n-gram discovery against rounds and budget (MJTB+22 sec. 1, 4)."""
    import sys

    from dpspec.spec.mjtb.discovery import recall_experiment

    if not 1 <= args.devices <= 10**6:
        raise CliError("--devices must be in [1, 10^6]")
    if not 1 <= args.rounds <= 6:
        raise CliError("--rounds must be in [1, 6]")
    if not 2 <= args.min_cohort <= 10**6:
        raise CliError("--min-cohort must be in [2, 10^6]")
    try:
        seed = bytes.fromhex(args.seed)
    except ValueError as exc:
        raise CliError("--seed must be hexadecimal") from exc
    if not 16 <= len(seed) <= 255:
        raise CliError("--seed must have 16 to 255 bytes")
    print(f"running 6 configurations of {args.devices} devices ...", file=sys.stderr)
    rows = recall_experiment(seed, args.devices, args.rounds, min_cohort=args.min_cohort)
    if args.json:
        print(json.dumps({"seed": args.seed, "rows": rows}, indent=2))
        return 0
    head = " | ".join(f"recall after round {r + 1}" for r in range(args.rounds))
    print(f"| eps0 | eps per round | eps_allowed | {head} | answered per round |")
    print("|---|---|---|" + "---:|" * args.rounds + "---|")
    for row in rows:
        rec = " | ".join(f"{x:.3f}" for x in row["recall_by_round"])
        print(f"| {row['eps0']} | {row['eps_per_round']} | {row['eps_allowed']} | {rec} | "
              f"{', '.join(map(str, row['answered_by_round']))} |")
    print(f"\ntrue frequent prefixes (tau = 1/50): {rows[0]['true_frequent']}; seed {args.seed}")
    return 0


def print_lower_bounds(eps: mpmath.mpf, n: int, as_json: bool) -> int:
    """Theorem 3 (n = 10^3 ... 10^6, delta = n^-2) and Lemma 15 (delta grid, the given n)."""
    from dpspec.spec.shuffled.lower_bounds import lemma15_rows, theorem3_rows

    t3 = theorem3_rows(eps, [10**3, 10**4, 10**5, 10**6])
    l15 = lemma15_rows(eps, ["1e-3", "1e-6", "1e-9", "1e-12"], n)
    if as_json:
        print(json.dumps({"epsilon": _fmt(eps), "theorem3": [r.as_json() for r in t3],
                          "lemma15": {"n": n, "rows": [r.as_json() for r in l15]}}, indent=2))
        return 0
    print(f"Theorem 3 (single-message, MSE = Omega(log n)), eps = {_fmt(eps)}, delta = n^-2")
    print("| n | ln n | RR MSE (exact) | RR MSE / ln n | correlated MSE | central DLap MSE |")
    print("|---:|---:|---:|---:|---:|---:|")
    for r in t3:
        print(f"| {r.x} | {_fmt(r.log_term, 5)} | {_fmt(r.bounded_mse)} | {_fmt(r.ratio, 4)} | "
              f"{_fmt(r.correlated_mse)} | {_fmt(r.central_mse)} |")
    print(f"\nLemma 15 (non-negative infinitely divisible noise, MSE = Omega(log 1/delta)), "
          f"eps = {_fmt(eps)}, n = {n}")
    print("| delta | ln(1/delta) | Poisson MSE (exact lambda) | ratio | correlated MSE | "
          "central DLap MSE |")
    print("|---:|---:|---:|---:|---:|---:|")
    for r in l15:
        print(f"| {r.delta} | {_fmt(r.log_term, 5)} | {_fmt(r.bounded_mse)} | {_fmt(r.ratio, 4)} | "
              f"{_fmt(r.correlated_mse)} | {_fmt(r.central_mse)} |")
    return 0


def print_histogram_growth(eps: mpmath.mpf, delta: mpmath.mpf, n: int, as_json: bool) -> int:
    """Sec. 5.2: error against B on the synthetic distributions (exact RMSE and l-infinity)."""
    from dpspec.spec.shuffled.bary_linf import round_outward
    from dpspec.spec.shuffled.histogram_experiment import error_growth

    try:
        rows = error_growth(eps, delta, n, [2, 8, 32, 128, 512, 2048],
                            progress=lambda what: _PROGRESS.step(f"experiment ghazi: {what}"))
    finally:
        _PROGRESS.done()
    if as_json:
        print(json.dumps({"epsilon": _fmt(eps), "delta": _fmt(delta), "n": n,
                          "rows": [r.as_json() for r in rows]}, indent=2))
        return 0
    print(f"Histogram error vs B, eps = {_fmt(eps)}, delta = {_fmt(delta)}, n = {n} "
          "(exact; RMSE over buckets, E[l-inf] = expected largest bucket error; B-ary RR's "
          "E[l-inf] as a certified interval)")
    print("| B | data | central RMSE | correlated RMSE | B-ary RR RMSE | B-ary RR worst bucket | "
          "RAPPOR RMSE | Fragmented RAPPOR RMSE | central E[l-inf] | correlated E[l-inf] | "
          "B-ary RR E[l-inf] | RAPPOR E[l-inf] | Fragmented RAPPOR E[l-inf] |")
    print("|---:|---|" + "---:|" * 11)
    for r in rows:
        m, li = r.rmse, r.linf
        print(f"| {r.buckets} | {r.distribution} | {_fmt(m['central_dlap'])} | "
              f"{_fmt(m['correlated'])} | {_fmt(m['bary_rr'])} | "
              f"{_fmt(m['bary_rr_worst_bucket'])} | {_fmt(m['rappor'])} | "
              f"{_fmt(m['fragmented_rappor'])} | "
              f"{_fmt(li['central_dlap'])} | {_fmt(li['correlated'])} | "
              f"[{_fmt(round_outward(li['bary_rr_lower'], 6, up=False))}, "
              f"{_fmt(round_outward(li['bary_rr'], 6, up=True))}] | "
              f"{_fmt(li['rappor'])} | {_fmt(li['fragmented_rappor'])} |")
    return 0
