"""``docs/ecosystem.md``: the conformance of the Python DP ecosystem, written by a command.

``dpspec conformance ecosystem`` runs every bundled third-party adapter (:mod:`dpspec.conformance
.ecosystem` pins and installs them) on the accounting vectors, the native accountant ops, a thinned
sweep and the discrete samplers' statistical suites, then writes the document, one PNG per
accounting op of the sweep (the implementation's true privacy over its target or claim) and the
plots' data (``docs/ecosystem/sweep.json``). ``--check`` regenerates the document and the plot
data in memory and fails if the committed ones differ (the PNGs are rendered from that data and
are not compared byte for byte: their pixels depend on the plotting library).

The document holds nothing that varies between runs: no timings, no statistics of the random
tests (only whether they passed), library answers that are deterministic.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from dpspec.conformance.harness.adapters import AdapterSpec, bundled
from dpspec.conformance.harness.model import ERROR, FAILED, PASSED, SKIPPED, Outcome, RunReport

#: the suites of the ecosystem run
SUITES = ("accounting", "privacy", "sweep", "statistical.discrete_gaussian",
          "statistical.discrete_laplace")
#: the sweep is thinned to every SWEEP_EVERY-th point (CI time)
SWEEP_EVERY = 5
TIMEOUT = 30.0
#: samples per parameter point of the statistical suites (Tumult's exact samplers are slow)
SAMPLES = 20000
FALSE_ALARM = 1e-8
#: marks the lines of random tests' results, which ``--check`` does not compare: a statistical
#: test of a library near the edge of the test's power may pass in one run and fail in the next
RANDOM = "<!-- random -->"
ADAPTER_MODULES = {
    "opendp": "opendp", "dp-accounting": "dp_accounting", "diffprivlib": "diffprivlib",
    "python-dp": "python_dp", "autodp": "autodp", "prv-accountant": "prv_accountant",
    "opacus": "opacus",
}

#: what we found, per library (written by hand from the results below; the generator checks
#: that every library it ran has a note)
NOTES: dict[str, str] = {
    "opendp": (
        "OpenDP's privacy maps are exact (discrete Laplace eps, discrete Gaussian rho) and its "
        "samplers pass the statistical suites. Its Gaussian calibrations go through zCDP and "
        "`make_zCDP_to_approxDP`, so they are CONSERVATIVE (about 8 % more noise than the "
        "analytic Gaussian at eps 1, delta 1e-5), never UNSAFE. It accepts eps 0, scale 0 and a "
        "zero shift instead of rejecting them."),
    "dp-accounting": (
        "dp-accounting is never UNSAFE here: its Gaussian calibration, RDP accountant and PLD "
        "composition are safe, and `advanced_composition` is tighter than [DRV10] yet safe "
        "against the optimal composition. For fractional orders its RDP is an upper bound "
        "(CONSERVATIVE; `inf` at q 0.3, sigma 0.8, order 1.5). Its PLD interval for 1000 "
        "Gaussians at eps 20 has a lower end above the true delta (1.1e-33): the optimistic "
        "estimate is not a lower bound there (WRONG as an interval, no privacy lost). It "
        "accepts delta 1, negative eps, order 1, deltaSlack 0 and deltaTotal 0. Its PLD of the "
        "Poisson-subsampled Gaussian (optimistic and pessimistic estimates, discretization 1e-4) "
        "brackets the certified optimal eps in every vector but one: at SA2 Example 5 with delta "
        "1e-15 the pessimistic eps is inf (about 1.4e-15 of its mass sits at infinite loss) and "
        "the optimistic one, 1.5869, lies above the certified interval [1.52055, 1.52127] (its "
        "optimistic delta at eps 1.5213 is 1.03e-15, the certified upper bound 9.99e-16): not a "
        "lower bound there (WRONG as an interval, no privacy lost)."),
    "diffprivlib": (
        "diffprivlib's `GaussianAnalytic` calibration is UNSAFE: usually by a hair (true delta "
        "1 + 2e-9 times the target at delta 1e-8), but 9.4x the target at eps 20, delta 1e-9, "
        "L2 sensitivity sqrt(2), 6.1x at eps 5, delta 1e-16, and 1.13x at eps 5, delta 1e-14, "
        "sensitivity 4 (float cancellation in its delta formula). Its `GaussianDiscrete`, "
        "Laplace and Geometric calibrations and its `BudgetAccountant` are safe. It accepts "
        "delta 1 and k = 0."),
    "python-dp": (
        "python-dp's calibrations are CONSERVATIVE (its Gaussian sigma comes from a coarse "
        "search: +0.05 % at eps 1, delta 1e-5). On integers it adds rounded continuous noise; "
        "the discrete Laplace and discrete Gaussian statistical suites detect it: the negative "
        "control works."),
    "autodp": (
        "autodp's analytic-Gaussian calibrator (`ana_gaussian_calibrator`, float erf) is UNSAFE "
        "at small delta: 4.1x the target at eps 1, delta 1e-14 and 2.1x at eps 0.5, delta "
        "1e-14; it never returns for eps 0 (a hang, reported as such) and accepts delta 0 and "
        "1. Its subsampled-Gaussian RDP is exact at integer orders and an upper bound at "
        "fractional ones; it accepts order 1."),
    "prv-accountant": (
        "prv-accountant's intervals (lower, upper) contain the exact k-fold Gaussian delta and "
        "the exact optimal composition in every vector, but not everywhere in the sweep: for "
        "100 compositions of pure eps 1 its upper bound on delta at eps 75 is 1.794e-4 while "
        "the true delta is 1.844e-4 (UNSAFE, with eps_error 0.05). It refuses delta 1e-13 "
        "(\"floating point errors will dominate\"), a valid input, and accepts deltaTotal 0. Its "
        "Poisson-subsampled Gaussian intervals contain the certified optimal eps and delta in "
        "every vector it answers (about 5 % above at eps_error 0.05; the delta interval at SA2 "
        "Example 5, eps 1, reaches 3.6x the truth); it refuses delta 1e-15, hangs on sigma 0 and "
        "accepts eps -1."),
    "opacus": (
        "Opacus' RDP analysis is exact at integer orders and for the subsampled-Gaussian eps. "
        "`get_privacy_spent` returns a negative epsilon (-0.0078) where the conversion bottoms "
        "out (UNSAFE as a claim: eps is at least 0), and its fractional-order RDP (alpha 1.5) is "
        "1.5e-9 relative below the exact value (UNSAFE by a hair). It accepts order 1 and zero "
        "steps. Its `PRVAccountant.get_epsilon` is CONSERVATIVE against the certified optimal "
        "eps of the subsampled Gaussian, by 0.12 % (q 1) to 0.95 % (SA2 Example 5: 1.0304 "
        "against [1.02023, 1.02073]); it refuses delta 1e-15 and accepts q 0."),
    "tmlt-core": (
        "Tumult Core's exact samplers (`sample_dgauss`, its discrete Laplace) pass the "
        "statistical suites; it runs in a virtual environment of its own (numpy < 2)."),
}


def ecosystem_specs() -> list[AdapterSpec]:
    return [s for s in bundled().values() if s.ecosystem]


def run_ecosystem(progress: Any = None) -> RunReport:
    """Run every ecosystem adapter installed here on :data:`SUITES`."""
    from dpspec.conformance.harness.runner import all_suites, run_all, select_suites
    from dpspec.conformance.sweep import SweepSuite

    suites = all_suites(alpha=FALSE_ALARM, samples=SAMPLES)
    suites.append(SweepSuite(every=SWEEP_EVERY))
    suites = select_suites(suites, list(SUITES))
    return run_all(ecosystem_specs(), suites, timeout=TIMEOUT, progress=progress)


# -- rendering -------------------------------------------------------------------------------
def _version(impl: Any) -> str:
    return str((impl.capabilities or {}).get("version", "?"))


def _is_hang(o: Outcome) -> bool:
    return o.status == ERROR and "timeout" in o.reason


def _repro(impl_name: str, o: Outcome, args: dict[str, Any] | None) -> str:
    module = ADAPTER_MODULES.get(impl_name)
    if args is None or module is None:
        return f"`dpspec conformance run --impl {impl_name} --suite {o.suite}`"
    request = json.dumps({"id": 1, "op": o.op, "args": args}, separators=(",", ":"))
    return f"`echo '{request}' | python -m dpspec.conformance.adapters.{module}`"


def _case_args(index: dict[str, dict[tuple[str, str], dict[str, Any]]], o: Outcome
               ) -> dict[str, Any] | None:
    cases = index.get(o.suite)
    if cases is None:
        return None
    return cases.get((o.source, o.test))


def _cases_index() -> dict[str, dict[tuple[str, str], dict[str, Any]]]:
    """suite -> (source, test) -> args, for the reproductions."""
    from dpspec.conformance.families import get_family
    from dpspec.conformance.harness.suites import FamilySuite
    from dpspec.conformance.store import default_vectors_dir
    from dpspec.conformance.sweep import SweepSuite

    index: dict[str, dict[tuple[str, str], dict[str, Any]]] = {}
    for name in ("accounting", "privacy"):
        suite = FamilySuite(get_family(name), default_vectors_dir())
        index[name] = {(c.path, str(c.tc_id)): c.args for c in suite.cases()}
    index["sweep"] = {(c.path, f"{c.op.split('.', 1)[1]}: {c.comment}"): c.args
                      for c in SweepSuite(every=SWEEP_EVERY).cases()}
    return index


def render(report: RunReport) -> tuple[str, dict[str, Any]]:
    """(markdown, plot data) for one ecosystem run."""
    index = _cases_index()
    lines = [
        "# The Python DP ecosystem under dpspec conformance",
        "",
        "Generated by `dpspec conformance ecosystem` -- do not edit; CI checks it is fresh "
        "(`dpspec conformance ecosystem --check`). Install the libraries with "
        "`dpspec conformance install` (pins: `dpspec/conformance/ecosystem.py`, also the "
        "`ecosystem` extra of pyproject.toml; Tumult Core gets a virtual environment of its own).",
        "",
        f"Suites: `accounting` and `privacy` (the committed vectors), `sweep` (every "
        f"{SWEEP_EVERY}th point of the grid of `dpspec/conformance/sweep.py`, truth computed on "
        f"the fly) and the discrete samplers' statistical suites ({SAMPLES} samples per point, "
        f"false-alarm rate {FALSE_ALARM:g} each; their results are random and `--check` does not "
        f"compare them). Each request may take {TIMEOUT:g} s; longer is a hang. `--check` compares "
        f"the libraries' figures here and in the plot data to {NUMBER_RTOL:g} relative (their "
        f"last digits move with numpy/scipy releases); words, verdicts and counts exactly.",
        "",
        "Verdicts (`dpspec/conformance/verdicts.py`): for a noise parameter or privacy parameter "
        "the harness computes the true privacy at the library's answer with `dpspec.spec."
        "accounting` (40 digits). **UNSAFE**: the true delta (or eps) is above the target or "
        "the claim by more than 1e-9 relative -- always a failure; **EXACT** within 1e-9; "
        "**CONSERVATIVE** otherwise. *invalid*: out-of-domain inputs the library rejected / "
        "was given (a library that accepts them fails those tests). Libraries answer only with "
        "their own computation; adapter refusals are counted apart.",
        "",
        "## Summary",
        "",
        "| library | version | suite | passed | failed | unsafe | hang / error | skipped | "
        "invalid rejected |",
        "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for impl in report.impls:
        for s in impl.suites:
            c, vc, inv = s.counts, s.verdict_counts, s.invalid_counts
            hangs = sum(_is_hang(o) for o in s.outcomes)
            lines.append(
                f"| {impl.name} | {_version(impl)} | {s.name} | {c[PASSED]} | {c[FAILED]} | "
                f"{vc['UNSAFE']} | {hangs} / {c[ERROR] - hangs} | {c[SKIPPED]} | "
                + (f"{inv['passed']}/{inv['tests']}" if inv["tests"] else "-") + " |"
                + (f" {RANDOM}" if s.mode == "statistical" else ""))
        if impl.problems:
            lines.append(f"| {impl.name} | ? | (start-up) | 0 | 0 | 0 | 0 / 1 | 0 | - |")
    for name, why in sorted(report.not_installed.items()):
        lines.append(f"| {name} | - | not run: {why} | | | | | | |")
    lines += ["", "## Findings per library", ""]
    for impl in report.impls:
        lines.append(f"### {impl.name} {_version(impl)}")
        lines.append("")
        lines.append(NOTES.get(impl.name, "(no note yet)"))
        lines.append("")
        for p in impl.problems:
            lines.append(f"- start-up problem: {p}")
        for s in impl.suites:
            statistical = s.mode == "statistical"
            bad = [o for o in s.outcomes if o.status in (FAILED, ERROR)]
            if statistical and bad:
                lines.append(
                    f"- `{s.name}`: {len(bad)} of {len(s.outcomes)} statistical tests fail; "
                    f"rerun `dpspec conformance run --impl {impl.name} --suite {s.name}` for the "
                    f"statistics {RANDOM}")
            for o in bad:
                args = _case_args(index, o)
                where = f"`{s.name}` {o.test}" if s.name == "sweep" else \
                    f"`{s.name}` test {o.test} ({o.comment})"
                if statistical:
                    continue
                kind = ("HANG" if _is_hang(o) else
                        o.verdict["status"] if o.verdict else o.status.upper())
                lines.append(f"- **{kind}** {where}, `{o.op}`: {_one_line(o.reason)}  ")
                lines.append(f"  {_repro(impl.name, o, args)}")
        lines.append("")
    data = plot_data(report)
    if data:
        lines += ["## The sweep, per accounting op", "",
                  "True privacy of each library's answer over its target (noise parameters) or over "
                  "its claim (privacy parameters), across the sweep points (x: the point's index "
                  "in `docs/ecosystem/sweep.json`); above 1 is UNSAFE.", ""]
        for op in sorted(data):
            lines.append(f"![{op}](ecosystem/{op.split('.', 1)[1]}.png)")
            lines.append("")
    return "\n".join(lines).rstrip() + "\n", data


def _one_line(text: str) -> str:
    return " ".join(text.split()).replace("|", "/")


def plot_data(report: RunReport) -> dict[str, Any]:
    """op -> {"points": [labels], "libraries": {name: [ratio or null]}} from the sweep."""
    data: dict[str, Any] = {}
    for impl in report.impls:
        for s in impl.suites:
            if s.name != "sweep":
                continue
            for o in s.outcomes:
                op_data = data.setdefault(o.op, {"points": [], "libraries": {}})
                label = o.test.split(": ", 1)[1]
                if label not in op_data["points"]:
                    op_data["points"].append(label)
                ratio = None
                if o.verdict is not None:
                    ratio = o.verdict["ratio"]
                op_data["libraries"].setdefault(impl.name, {})[label] = ratio
    for op_data in data.values():
        op_data["libraries"] = {name: [values.get(p) for p in op_data["points"]]
                                for name, values in sorted(op_data["libraries"].items())}
    return data


def write_plots(data: dict[str, Any], folder: Path) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for op, op_data in sorted(data.items()):
        fig, ax = plt.subplots(figsize=(8, 3.6))
        for name, ratios in op_data["libraries"].items():
            xs = [i for i, r in enumerate(ratios) if r not in (None, "inf")]
            ys = [max(float(ratios[i]), 1e-300) for i in xs]
            if xs:
                ax.plot(xs, ys, marker=".", linestyle="", label=name)
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_yscale("log")
        ax.set_xlabel("sweep point")
        ax.set_ylabel("true / target (or claim)")
        ax.set_title(op)
        ax.legend(fontsize=7)
        fig.tight_layout()
        path = folder / f"{op.split('.', 1)[1]}.png"
        fig.savefig(path, dpi=80, metadata={"Software": None})
        plt.close(fig)
        written.append(path)
    return written


def plot_json(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=1, sort_keys=True) + "\n"


#: relative tolerance for the non-integer numbers of the document and the plot data. The
#: libraries compute in binary64 on top of numpy/scipy, whose releases move their last digits
#: (dp-accounting 0.6.0's k-fold Gaussian deltas moved in the 7th to 9th digit between two
#: numpy/scipy releases pip resolved), so a fresh document is one that says the same thing: the
#: same words, verdicts and counts, and the same figures to 6 digits. dpspec's own figures are
#: checked exactly, by the vectors.
NUMBER_RTOL = 1e-6
_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")


def _comparable(text: str) -> list[str]:
    return [line for line in text.splitlines() if not line.endswith(RANDOM)]


def _same_number(a: str, b: str) -> bool:
    if a == b:
        return True
    if not any(c in a + b for c in ".eE"):
        return False  # integers (counts, indices) are compared exactly
    x, y = float(a), float(b)
    return abs(x - y) <= NUMBER_RTOL * max(abs(x), abs(y))


def same_line(a: str, b: str) -> bool:
    """Whether two lines say the same thing: identical text between the numbers, the same
    integers, and the other numbers within :data:`NUMBER_RTOL` relative."""
    if a == b:
        return True
    na, nb = _NUMBER.findall(a), _NUMBER.findall(b)
    return (_NUMBER.split(a) == _NUMBER.split(b) and len(na) == len(nb)
            and all(_same_number(x, y) for x, y in zip(na, nb, strict=True)))


def stale(paths: Sequence[tuple[Path, str]]) -> list[str]:
    """The files whose content differs from the regenerated text (lines of random tests'
    results, marked :data:`RANDOM`, are not compared; numbers are compared as
    :func:`same_line` says)."""
    out = []
    for path, text in paths:
        try:
            current = path.read_text(encoding="utf-8")
        except OSError:
            out.append(f"{path} is missing")
            continue
        old, new = _comparable(current), _comparable(text)
        if len(old) != len(new):
            out.append(f"{path} is stale ({len(old)} lines, regenerated {len(new)})")
            continue
        first = next(((a, b) for a, b in zip(old, new, strict=True) if not same_line(a, b)), None)
        if first is not None:
            out.append(f"{path} is stale (committed {first[0][:100]!r}, "
                       f"regenerated {first[1][:100]!r})")
    return out


def finite(x: str | None) -> bool:
    return x is not None and x != "inf" and math.isfinite(float(x))
