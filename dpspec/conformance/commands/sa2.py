"""``dpspec sa2 recipe|simulate``: write an SA2 recipe, run a whole SA2 collection at scale.

``dpspec sa2 recipe --seed HEX`` prints a recipe (sec. 4.1 of [SA2]) whose aggregator HPKE keys,
token issuer key and verify key are provisioned deterministically from the seed (simulation only).
``dpspec sa2 simulate --recipe FILE --clients N --seed HEX [--malicious K]`` runs the protocol of
:mod:`dpspec.spec.sa2.protocol` with N honest devices (synthetic data from the seed) and K malicious
ones, and prints the release, the privacy guarantee and the rejected reports by reason.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import mpmath

from dpspec.conformance import sa2_scale
from dpspec.conformance.cli import CliError
from dpspec.spec.sa2 import privacy, protocol
from dpspec.spec.sa2.ideal import Sa2Error, parse_rate, parse_rational
from dpspec.spec.sa2.randomizers import Randomizer
from dpspec.spec.tape import MAX_SEED_SIZE, MIN_SEED_SIZE, RandomTape


def register(sub: Any) -> None:
    parser = sub.add_parser("sa2", help="SA2: write a recipe, simulate a collection")
    ssub = parser.add_subparsers(dest="sa2_command", metavar="ACTION")
    ssub.required = True

    rec = ssub.add_parser("recipe", help="print a recipe with keys provisioned from --seed")
    rec.add_argument("--seed", required=True, help="hex seed (16 to 255 bytes)")
    rec.add_argument("--randomizer", default="randomized_response",
                     choices=["randomized_response", "rappor", "binary_randomized_response"])
    rec.add_argument("--k", type=int, default=8, help="domain size (default 8)")
    rec.add_argument("--flip", default="1/2", help="flip probability, exact (default 1/2)")
    rec.add_argument("--B", type=int, default=1000, help="cohort size (default 1000)")
    rec.add_argument("--q", default="1/50", help="sampling rate, exact (default 1/50)")
    rec.add_argument("--delta", default="1/10000000000", help="delta (default 1e-10)")
    rec.add_argument("--epsilon", default=None,
                     help="claimed epsilon (default: the computed guarantee, rounded up)")
    rec.add_argument("--dummy-rate", default="0", help="dummy report rate q' (default 0)")
    rec.add_argument("--chunk-length", type=int, default=4, help="Prio3 chunk length (default 4)")
    rec.add_argument("--recipe-id", default="dpspec-sa2-example")
    rec.add_argument("--accountant", default=protocol.DEFAULT_ACCOUNTANT,
                     choices=sorted(protocol.ACCOUNTANTS),
                     help="aggregator-model bound the client computes (default "
                          f"{protocol.DEFAULT_ACCOUNTANT})")
    rec.set_defaults(func=run_recipe)

    sim = ssub.add_parser("simulate", help="run the SA2 protocol for N simulated clients")
    sim.add_argument("--recipe", type=Path, required=True, help="recipe JSON file")
    sim.add_argument("--clients", type=int, required=True, help="number of honest devices")
    sim.add_argument("--seed", required=True, help="hex seed (16 to 255 bytes); keys and coins")
    sim.add_argument("--malicious", type=int, default=0,
                     help="malicious devices (kinds cycle: " + ", ".join(protocol.MALICIOUS_KINDS)
                     + ")")
    sim.add_argument("--drop-rate", default="0", help="network loss rate, exact (default 0)")
    sim.add_argument("--device-budget", default="1",
                     help="each device's epsilon budget for the check of the recipe (default 1)")
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    sim.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr")
    sa2_scale.add_options(sim)
    sim.set_defaults(func=run_simulate)


def _seed(text: str) -> bytes:
    try:
        seed = bytes.fromhex(text)
    except ValueError as exc:
        raise CliError("--seed must be hex") from exc
    if not MIN_SEED_SIZE <= len(seed) <= MAX_SEED_SIZE:
        raise CliError(f"--seed must have {MIN_SEED_SIZE} to {MAX_SEED_SIZE} bytes, "
                       f"got {len(seed)}")
    return seed


def _round_up(x: mpmath.mpf, digits: int = 4) -> Fraction:
    """The smallest decimal with ``digits`` significant digits that is >= x."""
    with mpmath.workdps(60):
        e = int(mpmath.floor(mpmath.log10(x))) - digits + 1
        scaled = int(mpmath.ceil(x / mpmath.mpf(10) ** e))
        return Fraction(scaled) * Fraction(10) ** e


def _dec(x: Fraction) -> str:
    """A Fraction whose denominator divides a power of ten, as a decimal string."""
    if x.denominator == 1:
        return str(x.numerator)
    digits = 0
    d = x.denominator
    while d % 10 == 0 or d % 2 == 0 or d % 5 == 0:
        d = d // 10 if d % 10 == 0 else (d // 2 if d % 2 == 0 else d // 5)
        digits += 1
    if d != 1:
        return f"{x.numerator}/{x.denominator}"
    return f"{float(x):.{digits}f}" if digits <= 15 else f"{x.numerator}/{x.denominator}"


def run_recipe(args: argparse.Namespace) -> int:
    seed = _seed(args.seed)
    try:
        randomizer = Randomizer.from_json({"name": args.randomizer, "k": args.k,
                                           "flip": args.flip})
        q = parse_rate(args.q, "--q")
        delta = parse_rate(args.delta, "--delta")
        dummy = parse_rate(args.dummy_rate, "--dummy-rate")
        if args.chunk_length < 1:
            raise Sa2Error("--chunk-length must be >= 1")
        dep = protocol.provision(seed)
        common: dict[str, Any] = dict(
            recipe_id=args.recipe_id, task_id=RandomTape(seed, "sa2/task_id").bits(256)
            .to_bytes(32, "little"), randomizer=randomizer, B=args.B, q=q,
            chunk_length=args.chunk_length, leader_pk=dep.leader_hpke.public_key,
            helper_pk=dep.helper_hpke.public_key, issuer_key=dep.issuer_sk.public_key(),
            delta=delta, dummy_rate=dummy, accountant=args.accountant)
        if args.epsilon is None:
            probe = protocol.parse_recipe(protocol.make_recipe(epsilon=Fraction(1), **common))
            eps = _round_up(protocol.guarantee(probe).epsilon)
        else:
            eps = parse_rational(args.epsilon, "--epsilon")
        doc = protocol.make_recipe(epsilon=eps, **common)
        doc["privacy"]["epsilon"] = _dec(eps)
    except Sa2Error as exc:
        raise CliError(str(exc)) from exc
    print(json.dumps(doc, indent=2, sort_keys=True))
    return 0


class _Progress:
    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.tty = sys.stderr.isatty()
        self.last: tuple[str, int] = ("", -1)

    def __call__(self, stage: str, done: int, total: int) -> None:
        if not self.enabled or total == 0:
            return
        pct = 100 * done // total
        if self.tty:
            bar = "#" * (pct // 4)
            print(f"\r{stage:8s} [{bar:25s}] {done}/{total}", end="", file=sys.stderr, flush=True)
        elif (stage, pct // 10) != self.last:
            self.last = (stage, pct // 10)
            print(f"{stage}: {done}/{total}", file=sys.stderr, flush=True)

    def done(self) -> None:
        if self.enabled and self.tty:
            print(file=sys.stderr)


def run_simulate(args: argparse.Namespace) -> int:
    seed = _seed(args.seed)
    if args.clients < 0 or args.malicious < 0:
        raise CliError("--clients and --malicious must be >= 0")
    try:
        doc = json.loads(args.recipe.read_text(encoding="utf-8"))
    except OSError as exc:
        raise CliError(f"cannot read {args.recipe}: {exc.strerror}") from exc
    except json.JSONDecodeError as exc:
        raise CliError(f"{args.recipe} is not JSON: {exc}") from exc
    try:
        drop = parse_rate(args.drop_rate, "--drop-rate")
        budget = protocol.PrivacyBudget(parse_rational(args.device_budget, "--device-budget"),
                                        1)
        recipe, stmt = protocol.check_recipe(doc, budget)
    except protocol.RecipeRefused as exc:
        print(f"the client refuses the recipe: {exc}", file=sys.stderr)
        return 1
    except Sa2Error as exc:
        raise CliError(str(exc)) from exc
    vdaf = protocol.build_vdaf(recipe)
    progress = _Progress(not args.quiet)
    start = time.monotonic()
    if not args.quiet:
        print("provisioning keys from the seed ...", file=sys.stderr, flush=True)
    dep = protocol.provision(seed)
    try:
        protocol.check_deployment(recipe, dep)
    except Sa2Error as exc:
        raise CliError(f"{exc}: run `dpspec sa2 recipe --seed {args.seed}`") from exc
    if args.engine == "population":
        return sa2_scale.run(args, recipe, stmt, dep, vdaf, seed, drop, progress, progress.done,
                             start)
    data_tape = RandomTape(seed, protocol.TAGS["data"])
    k = recipe.randomizer.k
    data = [min(data_tape.uniform(k), data_tape.uniform(k)) for _ in range(args.clients)]
    res = protocol.run_collection(recipe, dep, vdaf, data, seed, malicious=args.malicious,
                                  drop_rate=drop, progress=progress)
    progress.done()
    elapsed = time.monotonic() - start
    agg_stmt = privacy.aggregator_model(
        protocol.ACCOUNTANTS[recipe.accountant](recipe.randomizer, recipe.delta), recipe.B, "")
    out = {
        "recipeId": recipe.recipe_id,
        "release": None if res.release is None else list(res.release),
        "privacy": {"sa2": {"epsilon": mpmath.nstr(stmt.epsilon, 6),
                            "delta": mpmath.nstr(stmt.delta, 6)},
                    "aggregator": {"epsilon": mpmath.nstr(agg_stmt.epsilon, 6),
                                   "delta": mpmath.nstr(agg_stmt.delta, 6)},
                    "claimed": {"epsilon": str(recipe.epsilon), "delta": str(recipe.delta)},
                    "derivation": stmt.derivation},
        "clients": args.clients, "malicious": args.malicious,
        "participants": res.participants, "dummies": res.dummies, "reportsSent": res.sent,
        "dropped": res.dropped, "tokensIssued": res.tokens_issued,
        "accepted": res.outcome.accepted, "rejected": dict(sorted(res.outcome.rejected.items())),
        "seconds": round(elapsed, 2),
    }
    if args.json:
        print(json.dumps(out, sort_keys=True))
        return 0
    r = recipe.randomizer
    rejected = ", ".join(f"{k} {v}" for k, v in sorted(res.outcome.rejected.items())) or "none"
    lines = [
        ("recipe", f"{recipe.recipe_id}: {r.name} (k = {r.k}, flip = {r.flip}), "
                   f"B = {recipe.B}, q = {recipe.q}, q' = {recipe.dummy_rate}"),
        ("privacy", f"({out['privacy']['sa2']['epsilon']}, {out['privacy']['sa2']['delta']})-DP "
                    f"in the SA2 model; ({out['privacy']['aggregator']['epsilon']}, "
                    f"{out['privacy']['aggregator']['delta']})-DP in the aggregator model; "
                    f"claimed ({_dec(recipe.epsilon)}, {_dec(recipe.delta)})"),
        ("clients", f"{args.clients} honest, {args.malicious} malicious"),
        ("reports", f"{res.participants} real + {res.dummies} dummy + "
                    f"{res.sent - res.participants - res.dummies} malicious = {res.sent} "
                    f"sent, {res.dropped} dropped, {res.tokens_issued} tokens issued"),
        ("accepted", str(res.outcome.accepted)),
        ("rejected", rejected),
        ("release", "no output (fewer than B accepted reports)" if res.release is None
         else "[" + ", ".join(str(x) for x in res.release) + "]"),
        ("time", f"{elapsed:.1f} s"),
    ]
    for key, value in lines:
        print(f"{key:9s}{value}")
    return 0
