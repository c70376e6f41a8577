"""``dpspec account subsampled-gaussian|shuffle``: privacy of compositions and of shuffling."""

from __future__ import annotations

import argparse
import json
from typing import Any

import mpmath

from dpspec.conformance.cli import CliError
from dpspec.spec.accounting import shuffle, subsampling
from dpspec.spec.accounting.numeric import round_up


def register(sub: Any) -> None:
    parser = sub.add_parser("account", help="privacy accounting of a mechanism run")
    asub = parser.add_subparsers(dest="account_command", metavar="WHAT")
    asub.required = True

    g = asub.add_parser("subsampled-gaussian",
                        help="T steps of the Poisson-subsampled Gaussian (moments accountant)")
    g.add_argument("--sigma", required=True, help="noise multiplier (sensitivity 1)")
    g.add_argument("--q", required=True, help="Poisson sampling rate")
    g.add_argument("--steps", required=True, type=int)
    g.add_argument("--delta", required=True)
    g.add_argument("--json", action="store_true")
    g.set_defaults(func=run_subsampled)

    s = asub.add_parser("shuffle", help="aggregate (eps, delta) of n shuffled eps0-LDP reports")
    s.add_argument("--eps0", required=True)
    s.add_argument("--n", required=True, type=int)
    s.add_argument("--delta", required=True)
    s.add_argument("--bound", choices=shuffle.BOUNDS, default="fmt20",
                   help="closed: MJTB+22 Thm 3.1 (validity enforced); fmt20/fmt22: numerical "
                        "clone bounds; exact-rr: exact curve of summed binary randomized "
                        "response (default fmt20, valid for every eps0-DP randomizer)")
    s.add_argument("--neighbours", choices=("replacement", "deletion"), default="replacement",
                   help="exact-rr only")
    s.add_argument("--ones", type=int, default=0,
                   help="exact-rr only: how many of the other n - 1 users hold a 1 (default 0)")
    s.add_argument("--worst-case", action="store_true",
                   help="exact-rr only: maximise over every composition of the others' bits "
                        f"(n <= {shuffle.WORST_CASE_MAX_N})")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=run_shuffle)


def run_subsampled(args: argparse.Namespace) -> int:
    try:
        eps, order = subsampling.subsampled_gaussian_epsilon(args.q, args.sigma, args.steps,
                                                             args.delta)
    except (ValueError, TypeError, ArithmeticError) as exc:
        raise CliError(str(exc)) from exc
    eps_s = round_up(eps, 10)
    doc: dict[str, Any] = {
        "mechanism": "poisson-subsampled-gaussian", "sigma": args.sigma, "q": args.q,
        "steps": args.steps, "delta": args.delta,
        "rdp": {"epsilon": eps_s, "order": mpmath.nstr(order, 10), "rounding": "up, 10 digits",
                "method": "RDP (integer orders: exact sum; fractional: exact integral), "
                          "SA2 Theorem 1 conversion"},
        "pld": None,
    }
    line = f"eps = {eps_s} at delta = {args.delta} (RDP moments accountant, order {mpmath.nstr(order, 6)})"
    try:  # PLD is not part of this specification; report dp-accounting's as a cross-check
        import dp_accounting

        acc = dp_accounting.pld.PLDAccountant(value_discretization_interval=1e-4)
        acc.compose(dp_accounting.PoissonSampledDpEvent(
            float(args.q), dp_accounting.GaussianDpEvent(float(args.sigma))), args.steps)
        pld = acc.get_epsilon(float(args.delta))
        doc["pld"] = {"epsilon": repr(pld), "source": "dp-accounting PLDAccountant "
                      "(pessimistic, discretization 1e-4); not part of this specification"}
        line += f"; PLD (dp-accounting) eps = {pld:.6f}"
    except ImportError:
        line += "; PLD: not implemented in this specification"
    if args.json:
        print(json.dumps(doc, indent=2, sort_keys=True))
    else:
        print(line)
    return 0


def run_shuffle(args: argparse.Namespace) -> int:
    try:
        if args.bound == "exact-rr":
            if args.worst_case:
                r = shuffle.rr_sum_worst_epsilon(args.eps0, args.n, args.delta, args.neighbours)
            else:
                r = shuffle.rr_sum_epsilon(args.eps0, args.n, args.delta, args.neighbours,
                                           args.ones)
        else:
            if args.neighbours != "replacement" or args.ones or args.worst_case:
                raise CliError("--neighbours, --ones and --worst-case apply to --bound exact-rr only")
            r = shuffle.shuffle_epsilon(args.eps0, args.n, args.delta, args.bound)
    except (ValueError, TypeError, ArithmeticError) as exc:
        raise CliError(str(exc)) from exc
    doc = {"eps0": args.eps0, "n": args.n, "delta": args.delta, "requested": r.requested,
           "bound": r.bound, "valid": r.valid, "epsilon": f"{r.eps:.10g}", "note": r.note,
           "precision": "binary64; upper end of a bisection bracket of relative width "
                        f"{shuffle.EPS_TOL:g}", **{k: v for k, v in r.extra.items()}}
    if args.json:
        print(json.dumps(doc, indent=2, sort_keys=True))
    else:
        head = "" if r.valid else f"requested bound {r.requested!r} not applicable; "
        print(f"eps = {r.eps:.10g} at delta = {args.delta} ({head}{r.note})")
    return 0
