"""``dpspec calibrate gaussian|poisson|negative-binomial``: noise parameters for a target (eps, delta).

Values are decimal strings rounded up (never below the exact minimum) to the stated number of
significant digits; see :mod:`dpspec.spec.accounting.gaussian`, :mod:`dpspec.spec.accounting.discrete` and
:mod:`dpspec.spec.accounting.ghazi` for the methods.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

import mpmath

from dpspec.conformance.cli import CliError
from dpspec.spec.accounting import discrete, gaussian, ghazi
from dpspec.spec.accounting.numeric import (
    DPS,
    MAX_DIGITS,
    compact,
    mpf,
    positive,
    probability,
    round_up,
    strict_int,
)


def integer(text: str) -> int:
    """argparse type: a decimal integer as typed (no '_' separators, at most 30 digits)."""
    return strict_int(text)


def register(sub: Any) -> None:
    parser = sub.add_parser("calibrate", help="calibrate noise for a target (epsilon, delta)")
    csub = parser.add_subparsers(dest="calibrate_command", metavar="MECHANISM")
    csub.required = True

    g = csub.add_parser("gaussian", help="sigma of the (discrete) Gaussian mechanism")
    g.add_argument("--epsilon", required=True)
    g.add_argument("--delta", required=True)
    g.add_argument("--sensitivity", required=True,
                   help="L2 sensitivity: a decimal, a rational or sqrt(R), e.g. sqrt(2)")
    g.add_argument("--discrete", action="store_true",
                   help="discrete Gaussian, exact privacy loss; the sensitivity's square must be "
                        "an integer and the worst integer difference vector of that norm is used")
    g.add_argument("--vector", default=None,
                   help="with --discrete: the integer difference vector, e.g. 1,-1")
    g.add_argument("--digits", type=integer, default=12, help=f"significant digits (10 to {MAX_DIGITS})")
    g.add_argument("--json", action="store_true")
    g.set_defaults(func=run_gaussian)

    p = csub.add_parser("poisson", help="smallest lambda of the Poisson mechanism ([GKMP20])")
    p.add_argument("--epsilon", required=True)
    p.add_argument("--delta", required=True)
    p.add_argument("--sensitivity", type=integer, default=1, help="Delta of Delta-summation")
    p.add_argument("--digits", type=integer, default=10)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run_poisson)

    nb = csub.add_parser("negative-binomial",
                         help="smallest r of the NB(r, p) mechanism ([GKMP20] Theorem 13's p)")
    nb.add_argument("--epsilon", required=True)
    nb.add_argument("--delta", required=True)
    nb.add_argument("--p", default=None, help="default: Theorem 13's p = exp(-0.1 eps/Delta)")
    nb.add_argument("--sensitivity", type=integer, default=1)
    nb.add_argument("--digits", type=integer, default=10)
    nb.add_argument("--json", action="store_true")
    nb.set_defaults(func=run_nb)


def _s(x: Any, digits: int = 15) -> str:
    """A delta or a noise parameter for printing: rounded up (never below the computed value)."""
    return compact(round_up(x, digits)) if isinstance(x, mpmath.mpf) else str(x)


def _show(published: str) -> str:
    """A published decimal for the terminal: scientific notation when it is very long."""
    return compact(published) if len(published) > 30 else published


#: at most this many integer difference vectors are calibrated for one --discrete sensitivity
MAX_VECTORS = 6


def _digits(args: argparse.Namespace) -> None:
    if not 10 <= args.digits <= MAX_DIGITS:
        raise CliError(f"--digits must be between 10 and {MAX_DIGITS} (the {DPS}-digit arithmetic "
                       f"certifies {MAX_DIGITS} digits)")


def _run(fn: Any, *a: Any) -> Any:
    """Call a spec function and turn its domain errors (and mpmath's) into one CLI line."""
    try:
        return fn(*a)
    except CliError:
        raise
    except (ValueError, TypeError, ArithmeticError, mpmath.libmp.NoConvergence) as exc:
        raise CliError(str(exc).splitlines()[0] if str(exc) else type(exc).__name__) from exc


def _ghazi_domain(args: argparse.Namespace) -> None:
    """Refuse up front what the exact Poisson / NB computation cannot do in reasonable time."""
    if args.sensitivity < 1 or args.sensitivity > 100:
        raise CliError("--sensitivity must be an integer between 1 and 100")
    with mpmath.workdps(DPS):
        e = _run(positive, args.epsilon, "epsilon")
        d = _run(probability, args.delta, "delta")
        if e > 100:
            raise CliError("--epsilon above 100 is not supported (the noise parameter would be "
                           "below the exact search's floor of 1e-6)")
        lam = ghazi.theorem11_lambda(e, d, args.sensitivity)
        if lam > MAX_GHAZI_PARAMETER:
            raise CliError(f"the exact computation would need a noise parameter near "
                           f"{mpmath.nstr(lam, 3)} (Theorem 11), above the supported "
                           f"{MAX_GHAZI_PARAMETER:.0e}: use a larger epsilon or delta")


#: largest Theorem-11 lambda for which the exact Poisson / NB computations are attempted
MAX_GHAZI_PARAMETER = 1e7


def _emit(args: argparse.Namespace, line: str, doc: dict[str, Any]) -> int:
    if args.json:
        print(json.dumps(doc, indent=2, sort_keys=True))
    else:
        print(line)
    return 0


def _square_vectors(norm2: int) -> list[tuple[int, ...]]:
    """Every multiset of positive integers whose squares sum to ``norm2``."""
    out: list[tuple[int, ...]] = []

    def rec(rest: int, largest: int, acc: tuple[int, ...]) -> None:
        if rest == 0:
            out.append(acc)
            return
        for c in range(min(largest, int(rest**0.5) + 1), 0, -1):
            if c * c <= rest:
                rec(rest - c * c, c, acc + (c,))

    rec(norm2, norm2, ())
    return out


def run_gaussian(args: argparse.Namespace) -> int:
    _digits(args)
    try:
        if not args.discrete:
            if args.vector:
                raise CliError("--vector needs --discrete")
            cal = gaussian.calibrate_gaussian_sigma(args.epsilon, args.delta, args.sensitivity,
                                                    args.digits)
            doc = {"mechanism": "gaussian", "epsilon": args.epsilon, "delta": args.delta,
                   "sensitivity": args.sensitivity, "sigma": cal.sigma, "digits": cal.digits,
                   "rounding": "up", "deltaAtSigma": _s(cal.delta_at_sigma),
                   "method": cal.method, "precision": f"mpmath {DPS} digits"}
            line = (f"sigma = {_show(cal.sigma)} (analytic Gaussian [BW18], rounded up to {cal.digits} "
                    f"significant digits; delta at sigma = {_s(cal.delta_at_sigma, 10)})")
            return _emit(args, line, doc)
        with mpmath.workdps(DPS):
            sens = positive(args.sensitivity, "sensitivity")
            s2 = sens**2
            k = int(mpmath.nint(s2)) if s2 < 10**9 else 0
            integral = k >= 1 and abs(s2 - k) <= mpmath.mpf(10) ** -(DPS - 5)
        if args.vector:
            try:
                vectors = [tuple(int(x, 10) for x in args.vector.split(","))]
            except ValueError as exc:
                raise CliError("--vector must be comma-separated integers") from exc
            norm2 = sum(c * c for c in vectors[0])
            if not integral or norm2 != k:
                raise CliError(f"--vector {args.vector} has L2 norm sqrt({norm2}), not the "
                               f"--sensitivity {args.sensitivity}")
        else:
            if not integral:
                raise CliError("--discrete needs a sensitivity whose square is an integer "
                               "(or pass --vector)")
            if k > 1000:
                raise CliError("--discrete supports squared sensitivities up to 1000; pass "
                               "--vector for one difference vector")
            vectors = _square_vectors(k)
            if len(vectors) > MAX_VECTORS:
                raise CliError(
                    f"--sensitivity {args.sensitivity} has {len(vectors)} integer difference "
                    f"vectors of that norm (limit {MAX_VECTORS}), each needing its own exact "
                    "calibration: pass --vector with the difference vector of your mechanism")
        best = None
        for v in vectors:
            cal = discrete.calibrate_discrete_gaussian_sigma(args.epsilon, args.delta, v,
                                                             args.digits)
            if best is None or mpf(cal.sigma) > mpf(best[1].sigma):
                best = (v, cal)
        assert best is not None
        v, cal = best
        doc = {"mechanism": "discrete-gaussian", "epsilon": args.epsilon, "delta": args.delta,
               "sensitivity": args.sensitivity, "vector": list(v),
               "vectorsConsidered": [list(x) for x in vectors], "sigma": cal.sigma,
               "digits": cal.digits, "rounding": "up", "deltaAtSigma": _s(cal.delta_at_sigma),
               "method": cal.method, "precision": f"mpmath {discrete.DPS_DISCRETE} digits"}
        line = (f"sigma = {_show(cal.sigma)} (discrete Gaussian, exact privacy loss for difference vector "
                f"{list(v)}, rounded up to {cal.digits} significant digits; delta at sigma = "
                f"{_s(cal.delta_at_sigma, 10)})")
        return _emit(args, line, doc)
    except (ValueError, TypeError, ArithmeticError, mpmath.libmp.NoConvergence) as exc:
        raise CliError(str(exc)) from exc


def run_poisson(args: argparse.Namespace) -> int:
    _digits(args)
    _ghazi_domain(args)
    m = _run(ghazi.minimal_poisson_lambda, args.epsilon, args.delta, args.sensitivity,
             args.digits)
    doc = {"mechanism": "poisson", "epsilon": args.epsilon, "delta": args.delta,
           "sensitivity": args.sensitivity, "lambda": m.value, "rounding": "up",
           "digits": args.digits, "deltaAtLambda": _s(m.delta_at_value),
           "theorem11Lambda": _s(m.theorem_value), "precision": f"mpmath {DPS} digits"}
    line = (f"lambda = {m.value} (exact minimum, rounded up to {args.digits} significant digits); "
            f"Theorem 11 of [GKMP20] gives {_s(m.theorem_value, 12)}")
    return _emit(args, line, doc)


def run_nb(args: argparse.Namespace) -> int:
    _digits(args)
    _ghazi_domain(args)
    if args.p is not None:
        with mpmath.workdps(DPS):
            p = _run(probability, args.p, "p")
            if p > mpmath.mpf("0.9999"):
                raise CliError("--p above 0.9999 is not supported (the NB tails are summed term "
                               "by term, about 1/(1 - p) terms)")
    m = _run(ghazi.minimal_negative_binomial_r, args.epsilon, args.delta, args.p,
             args.sensitivity, args.digits)
    p13, _ = _run(ghazi.theorem13_parameters, args.epsilon, args.delta, args.sensitivity)
    p_text = args.p if args.p is not None else _s(p13, 20)
    doc = {"mechanism": "negative-binomial", "epsilon": args.epsilon, "delta": args.delta,
           "sensitivity": args.sensitivity, "p": p_text, "r": m.value, "rounding": "up",
           "digits": args.digits, "deltaAtR": _s(m.delta_at_value),
           "theorem13R": _s(m.theorem_value), "precision": f"mpmath {DPS} digits"}
    line = (f"r = {m.value} for p = {p_text} (exact minimum, rounded up to {args.digits} significant "
            f"digits); Theorem 13 of [GKMP20] gives r = {_s(m.theorem_value, 12)}")
    return _emit(args, line, doc)
