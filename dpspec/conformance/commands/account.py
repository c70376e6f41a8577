"""``dpspec account subsampled-gaussian|shuffle``: privacy of compositions and of shuffling."""

from __future__ import annotations

import argparse
import json
import math
from typing import Any

import mpmath

from dpspec.conformance.cli import CliError
from dpspec.conformance.commands.calibrate import integer
from dpspec.spec.accounting import pld, shuffle, shuffle_mp, subsampling
from dpspec.spec.accounting.numeric import positive, probability, round_up

#: largest clone-count window the CLI searches without a binary64 starting point (eps0 above
#: shuffle.MAX_BINARY64_EPS0 or delta below shuffle.MIN_BINARY64_DELTA): such a search runs in
#: mpmath from the first probe, so beyond this it would take minutes
MAX_CLONE_ATOMS_UNAIDED = 100_000


def register(sub: Any) -> None:
    parser = sub.add_parser("account", help="privacy accounting of a mechanism run")
    asub = parser.add_subparsers(dest="account_command", metavar="WHAT")
    asub.required = True

    g = asub.add_parser("subsampled-gaussian",
                        help="T steps of the Poisson-subsampled Gaussian (moments accountant)")
    g.add_argument("--sigma", required=True, help="noise multiplier (sensitivity 1)")
    g.add_argument("--q", required=True, help="Poisson sampling rate")
    g.add_argument("--steps", required=True, type=integer)
    g.add_argument("--delta", required=True)
    g.add_argument("--method", choices=("rdp", "pld"), default="rdp",
                   help="rdp: the moments accountant (default); pld: the optimal epsilon, as a "
                        "certified interval (dpspec.spec.accounting.pld), rounded outward")
    g.add_argument("--json", action="store_true")
    g.add_argument("--no-cross-check", action="store_true",
                   help="do not run the optional dp-accounting PLD cross-check (it runs in a "
                        "child process bounded in time and memory)")
    g.set_defaults(func=run_subsampled)

    s = asub.add_parser("shuffle", help="aggregate (eps, delta) of n shuffled eps0-LDP reports")
    s.add_argument("--eps0", required=True)
    s.add_argument("--n", required=True, type=integer)
    s.add_argument("--delta", required=True)
    s.add_argument("--bound", choices=shuffle.BOUNDS, default="fmt20",
                   help="closed: MJTB+22 Thm 3.1 (validity enforced); fmt20/fmt22: numerical "
                        "clone bounds; exact-rr: exact curve of summed binary randomized "
                        "response (default fmt20, valid for every eps0-DP randomizer)")
    s.add_argument("--neighbours", choices=("replacement", "deletion"), default="replacement",
                   help="exact-rr only")
    s.add_argument("--ones", type=integer, default=0,
                   help="exact-rr only: how many of the other n - 1 users hold a 1 (default 0)")
    s.add_argument("--worst-case", action="store_true",
                   help="exact-rr only: maximise over every composition of the others' bits "
                        f"(n <= {shuffle.WORST_CASE_MAX_N})")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=run_shuffle)


#: the optional dp-accounting cross-check runs in a child process bounded by these
CROSS_CHECK_SECONDS = 20
CROSS_CHECK_BYTES = 1 << 30


def _cross_check(q: str, sigma: str, steps: int, delta: str) -> dict[str, Any]:
    """dp-accounting's PLD epsilon, in a child process limited to CROSS_CHECK_SECONDS of wall
    time and CROSS_CHECK_BYTES of address space; a failure or a timeout is reported, not raised."""
    import importlib.util
    import subprocess
    import sys

    if importlib.util.find_spec("dp_accounting") is None:
        return {"status": "skipped", "reason": "dp-accounting is not installed"}
    code = (
        "import resource, sys\n"
        f"resource.setrlimit(resource.RLIMIT_AS, ({CROSS_CHECK_BYTES}, {CROSS_CHECK_BYTES}))\n"
        "import dp_accounting\n"
        "q, s, t, d = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])\n"
        "acc = dp_accounting.pld.PLDAccountant(value_discretization_interval=1e-4)\n"
        "acc.compose(dp_accounting.PoissonSampledDpEvent(q, dp_accounting.GaussianDpEvent(s)), t)\n"
        "print(repr(acc.get_epsilon(d)))\n")
    try:
        proc = subprocess.run([sys.executable, "-c", code, q, sigma, str(steps), delta],
                              capture_output=True, text=True, timeout=CROSS_CHECK_SECONDS,
                              check=False)
    except subprocess.TimeoutExpired:
        return {"status": "skipped", "reason": f"dp-accounting took over {CROSS_CHECK_SECONDS} s"}
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["unknown error"])[-1]
        return {"status": "failed", "reason": f"dp-accounting failed: {last[:200]}"}
    try:
        value = float(proc.stdout.strip())
    except ValueError:
        return {"status": "failed", "reason": "dp-accounting printed no number"}
    return {"status": "ok", "epsilon": round_up(value, 10) if math.isfinite(value) else "inf",
            "source": "dp-accounting PLDAccountant (pessimistic, discretization 1e-4), in a "
                      f"child process limited to {CROSS_CHECK_SECONDS} s and "
                      f"{CROSS_CHECK_BYTES >> 20} MiB; not part of this specification"}


def _run_pld(args: argparse.Namespace) -> dict[str, Any]:
    """The certified interval of the optimal epsilon (prints its line unless --json)."""
    import sys

    print("dpspec: certified PLD bounds (exact convolution; seconds to a minute) ...",
          file=sys.stderr, flush=True)
    try:
        curves = pld.composed(args.q, args.sigma, args.steps, tail=pld.default_tail(args.delta))
        lo, hi = curves.epsilon(args.delta)
    except (ValueError, TypeError, ArithmeticError) as exc:
        raise CliError(str(exc)) from exc
    lo_s, hi_s = pld.decimal_bound(lo, 10, up=False), pld.decimal_bound(hi, 10, up=True)
    rel = None if hi is None or hi == 0 else (hi - lo) / hi
    width = "inf" if rel is None else mpmath.nstr(mpmath.mpf(rel.numerator) / rel.denominator, 3)
    if not args.json:
        print(f"eps in [{lo_s}, {hi_s}] at delta = {args.delta} (optimal accounting, certified "
              f"PLD bounds; relative width {width}, grid {curves.h})", flush=True)
    return {"lower": lo_s, "upper": hi_s, "relativeWidth": width, "grid": str(curves.h),
            "rounding": "outward, 10 digits",
            "method": "certified PLD bounds of the optimal epsilon (add/remove, both "
                      "directions): dpspec.spec.accounting.pld"}


def run_subsampled(args: argparse.Namespace) -> int:
    if args.method == "pld":
        doc: dict[str, Any] = {"mechanism": "poisson-subsampled-gaussian", "sigma": args.sigma,
                               "q": args.q, "steps": args.steps, "delta": args.delta,
                               "optimal": _run_pld(args), "pld": None}
        if not args.no_cross_check:
            doc["pld"] = _cross_check(args.q, args.sigma, args.steps, args.delta)
            if not args.json:
                check = doc["pld"]
                print(f"PLD cross-check (dp-accounting, not part of this specification): "
                      f"eps = {check['epsilon']}" if check["status"] == "ok" else
                      f"PLD cross-check {check['status']}: {check['reason']}")
        if args.json:
            print(json.dumps(doc, indent=2, sort_keys=True))
        return 0
    try:
        eps, order = subsampling.subsampled_gaussian_epsilon(args.q, args.sigma, args.steps,
                                                             args.delta)
    except (ValueError, TypeError, ArithmeticError) as exc:
        raise CliError(str(exc)) from exc
    eps_s = round_up(eps, 10)
    order_s = mpmath.nstr(order, 10) if order > 0 else "none (q = 0 or the zCDP bound)"
    doc = {
        "mechanism": "poisson-subsampled-gaussian", "sigma": args.sigma, "q": args.q,
        "steps": args.steps, "delta": args.delta,
        "rdp": {"epsilon": eps_s, "order": order_s, "rounding": "up, 10 digits",
                "method": "RDP (integer orders: exact sum; fractional: exact integral), "
                          "SA2 Theorem 1 conversion; zCDP of the unsampled Gaussian"},
        "pld": None,
    }
    line = f"eps = {eps_s} at delta = {args.delta} (RDP moments accountant, order {order_s})"
    if not args.json:  # dpspec's answer first, whatever the cross-check does
        print(line, flush=True)
    if not args.no_cross_check:
        check = _cross_check(args.q, args.sigma, args.steps, args.delta)
        doc["pld"] = check
        if not args.json:
            if check["status"] == "ok":
                print(f"PLD cross-check (dp-accounting, not part of this specification): "
                      f"eps = {check['epsilon']}")
            else:
                print(f"PLD cross-check {check['status']}: {check['reason']}")
    if args.json:
        print(json.dumps(doc, indent=2, sort_keys=True))
    return 0


def _shuffle_limits(args: argparse.Namespace) -> None:
    """Refuse up front what the certified evaluation cannot reach in reasonable time."""
    bound = args.bound
    if bound == "closed":  # may fall back to fmt20: checked only if it does
        return
    if bound in ("fmt20", "fmt22"):
        with mpmath.workdps(shuffle_mp.WPS):
            delta = probability(args.delta, "delta")
            eps0 = positive(args.eps0, "eps0")
            _, _, _, atoms = shuffle_mp.clone_limits(args.eps0, args.n, bound, delta)
            unaided = (eps0 > shuffle.MAX_BINARY64_EPS0
                       or delta < shuffle.MIN_BINARY64_DELTA)
        if unaided and atoms > MAX_CLONE_ATOMS_UNAIDED:
            raise CliError(f"--bound {bound} at n = {args.n} with eps0 above "
                           f"{shuffle.MAX_BINARY64_EPS0:g} or delta below "
                           f"{shuffle.MIN_BINARY64_DELTA:g}: the certified search has no binary64 "
                           f"starting point there and is limited to "
                           f"{MAX_CLONE_ATOMS_UNAIDED} atoms (here about {atoms})")
        return
    if args.worst_case:
        if args.n > shuffle.WORST_CASE_MAX_N:
            raise CliError(f"--worst-case is limited to n <= {shuffle.WORST_CASE_MAX_N} "
                           f"(it tries every composition); --bound fmt22 is the proven worst-case "
                           "bound for the same mechanism")
        return
    with mpmath.workdps(shuffle_mp.WPS):
        p = 1 / (mpmath.exp(mpmath.mpf(args.eps0)) + 1)
        atoms = shuffle_mp.window_estimate(args.n - 1, p, mpmath.mpf(args.delta))
    if args.n > shuffle.MAX_EXACT_RR_N and atoms > shuffle_mp.PUBLISH_MAX_ATOMS:
        raise CliError(f"--bound exact-rr at n = {args.n}: the exact curve is computed up to "
                       f"n = {shuffle.MAX_EXACT_RR_N} in binary64 or on a window of "
                       f"{shuffle_mp.PUBLISH_MAX_ATOMS} atoms in mpmath (here about {atoms}); "
                       "--bound fmt22 is the proven bound for the same mechanism")


def run_shuffle(args: argparse.Namespace) -> int:
    try:
        if args.bound != "exact-rr" and (args.neighbours != "replacement" or args.ones
                                         or args.worst_case):
            raise CliError("--neighbours, --ones and --worst-case apply to --bound exact-rr only")
        _shuffle_limits(args)
        estimate: float | None
        delta_arg: Any = args.delta
        slack = shuffle_mp.binary64_slack(args.eps0, args.n, args.delta, args.bound)
        if slack is not None:  # the binary64 path will publish: search below delta by its error
            delta_arg = float(mpmath.mpf(args.delta) - slack)
            if not delta_arg > 0:
                raise CliError(f"--delta {args.delta} is below the rounding error of the binary64 "
                               f"computation at n = {args.n} ({mpmath.nstr(slack, 3)})")
        try:
            if args.bound == "exact-rr":
                if args.worst_case:
                    r = shuffle.rr_sum_worst_epsilon(args.eps0, args.n, delta_arg,
                                                     args.neighbours)
                else:
                    r = shuffle.rr_sum_epsilon(args.eps0, args.n, delta_arg, args.neighbours,
                                               args.ones)
            else:
                if args.neighbours != "replacement" or args.ones or args.worst_case:
                    raise CliError("--neighbours, --ones and --worst-case apply to --bound "
                                   "exact-rr only")
                r = shuffle.shuffle_epsilon(args.eps0, args.n, delta_arg, args.bound)
            estimate = r.eps
        except (ValueError, OverflowError) as exc:
            # outside binary64's reach (huge eps0, tiny delta): the certified path alone
            if args.bound == "closed" or args.worst_case:
                raise CliError(str(exc)) from exc
            r, estimate, why = None, None, str(exc)
        published = None
        if not args.worst_case and (r is None or r.bound != "closed"):
            bound = r.bound if r is not None else args.bound
            published = shuffle_mp.publish(args.eps0, args.n, args.delta, bound, estimate,
                                           args.neighbours, args.ones)
            if published is None and r is None:
                raise CliError(f"--bound {args.bound} at n = {args.n}: {why}, and the certified "
                               f"evaluation is limited to {shuffle_mp.PUBLISH_MAX_ATOMS} atoms")
    except (ValueError, TypeError, ArithmeticError) as exc:
        raise CliError(str(exc)) from exc
    if published is not None:
        eps_s, precision = published
    else:
        assert r is not None
        if r.bound == "closed":
            eps_s = min(shuffle_mp.closed_form_value(args.eps0, args.n, args.delta),
                        round_up(mpmath.mpf(args.eps0), 10), key=mpmath.mpf)
            precision = "mpmath 50 digits, rounded up to 10 significant digits"
        else:
            eps_s = round_up(r.eps * (1 + 1e-9), 10) if math.isfinite(r.eps) else "inf"
            precision = ("binary64 (the window is too large for the certified evaluation), searched "
                         "at delta minus 1e-15 per tabulated atom (a bound on its rounding); upper "
                         f"end of a bracket of relative width {shuffle.EPS_TOL:g}, plus 1e-9 "
                         "relative, rounded up to 10 significant digits")
    if r is None:
        bound, requested, valid = args.bound, args.bound, True
        note = {"fmt20": "[FMT20] clone reduction (all eps0-DP local randomizers)",
                "fmt22": "[FMT22] stronger clone reduction (binary RR / errata class)",
                "exact-rr": "exact curve of the sum of binary RRs"}[args.bound]
        extra: dict[str, Any] = {}
    else:
        bound, requested, valid, note, extra = r.bound, r.requested, r.valid, r.note, r.extra
    doc = {"eps0": args.eps0, "n": args.n, "delta": args.delta, "requested": requested,
           "bound": bound, "valid": valid, "epsilon": eps_s, "note": note,
           "rounding": "up", "precision": precision, **dict(extra.items())}
    if args.json:
        print(json.dumps(doc, indent=2, sort_keys=True))
    else:
        head = "" if valid else f"requested bound {requested!r} not applicable; "
        print(f"eps = {eps_s} at delta = {args.delta} ({head}{note})")
    return 0
