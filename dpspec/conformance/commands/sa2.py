"""``dpspec sa2 recipe|simulate``: write an SA2 recipe, run a whole SA2 collection at scale.

``dpspec sa2 recipe --seed HEX`` prints a recipe (sec. 4.1 of [SA2]) whose aggregator HPKE keys,
token issuer key and verify key are provisioned deterministically from the seed (simulation only).
``dpspec sa2 simulate --recipe FILE --clients N --seed HEX [--malicious K]`` runs the protocol of
:mod:`dpspec.spec.sa2.protocol` with N honest devices (synthetic data from the seed) and K malicious
ones, and prints the release, the privacy guarantee and the rejected reports by reason. A
federated-learning recipe (``--randomizer gaussian_vector``, :mod:`dpspec.spec.sa2.fl`) runs for
``--rounds`` rounds, each device's accountant admitting or refusing each round.
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
from dpspec.spec.sa2 import fl, privacy, protocol
from dpspec.spec.sa2.ideal import Sa2Error, exact, parse_rate
from dpspec.spec.sa2.query import Query
from dpspec.spec.sa2.randomizers import Randomizer
from dpspec.spec.tape import MAX_SEED_SIZE, MIN_SEED_SIZE, RandomTape


def register(sub: Any) -> None:
    parser = sub.add_parser("sa2", help="SA2: write a recipe, simulate a collection")
    ssub = parser.add_subparsers(dest="sa2_command", metavar="ACTION")
    ssub.required = True

    rec = ssub.add_parser("recipe", help="print a recipe with keys provisioned from --seed")
    rec.add_argument("--seed", required=True, help="hex seed (16 to 255 bytes)")
    rec.add_argument("--randomizer", default="randomized_response",
                     choices=["randomized_response", "rappor", "binary_randomized_response",
                              fl.NAME])
    rec.add_argument("--k", type=int, default=8, help="domain size (default 8)")
    rec.add_argument("--flip", default="1/2", help="flip probability, exact (default 1/2)")
    rec.add_argument("--B", type=int, default=1000, help="cohort size (default 1000)")
    rec.add_argument("--q", default="1/50", help="sampling rate, exact (default 1/50)")
    rec.add_argument("--delta", default="1/10000000000", help="delta (default 1e-10)")
    rec.add_argument("--epsilon", default=None,
                     help="claimed epsilon (default: the computed guarantee, rounded up)")
    rec.add_argument("--dummy-rate", default="0",
                     help="dummy report rate q' (sec. 4.6): a rational, 'paper' for 1/(epsilon "
                          "population), or 'auto' for the smallest rate making the count B' "
                          "(epsilon, delta)-DP (default 0)")
    rec.add_argument("--population", type=int, default=None,
                     help="number of eligible devices (needed with dummy reports)")
    rec.add_argument("--sampling", choices=list(protocol.SAMPLING_MODES), default="poisson",
                     help="poisson (devices sample themselves at --q) or fixed_size (the "
                          "aggregators sum B of at least --population reports; --q 1)")
    rec.add_argument("--time-window", default=None, metavar="T0,K",
                     help="App. A: the aggregators accept reports arriving in [T0, T0 + K] only")
    rec.add_argument("--query", type=Path, default=None,
                     help="JSON file with the query's features and bucketing rules (MJTB+22 App. "
                          "B: intervals or categories, plus an OOV bucket); --k is then the "
                          "query's number of buckets")
    rec.add_argument("--overweight", default=None,
                     help="rappor: largest probability that an honest report exceeds max_weight "
                          "(default 1/1000000000)")
    rec.add_argument("--chunk-length", type=int, default=4, help="Prio3 chunk length (default 4)")
    flg = rec.add_argument_group(f"federated learning (--randomizer {fl.NAME}, Examples 3 and 5)")
    flg.add_argument("--dimension", type=int, default=4, help="length of an update (default 4)")
    flg.add_argument("--clip-norm", default="1", help="L2 clipping norm C, exact (default 1)")
    flg.add_argument("--fractional-bits", type=int, default=8,
                     help="fixed-point fractional bits f (default 8)")
    flg.add_argument("--sigma", default="51/10",
                     help="noise of the sum, exact: each device adds variance sigma^2 / B "
                          "(Example 5; default 51/10)")
    flg.add_argument("--rounds", type=int, default=1,
                     help="rounds the privacy claim covers (default 1)")
    flg.add_argument("--tail-exponent", type=int, default=fl.DEFAULT_TAIL_EXPONENT,
                     help="t: an honest report exceeds the norm bound with probability at most "
                          f"e^-t (default {fl.DEFAULT_TAIL_EXPONENT})")
    rec.add_argument("--recipe-id", default="dpspec-sa2-example")
    rec.add_argument("--accountant", default=privacy.DEFAULT_ACCOUNTANT,
                     choices=sorted(privacy.ACCOUNTANTS),
                     help="aggregator-model bound the client computes, validity-gated (default "
                          f"{privacy.DEFAULT_ACCOUNTANT}; {privacy.GAUSSIAN_ACCOUNTANT} for "
                          f"{fl.NAME})")
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
    sim.add_argument("--arrival-spacing", default="1",
                     help="time between successive report arrivals, from the window's t0, for a "
                          "time-bounded recipe (default 1)")
    sim.add_argument("--rounds", type=int, default=None,
                     help="federated learning: rounds to run (default: the recipe's); rounds past "
                          "the recipe's are refused by the devices")
    sim.add_argument("--anonymizer", choices=["ideal", "ohttp"], default="ideal",
                     help="ideal shuffle, or an Oblivious HTTP relay (RFC 9458) in front of the "
                          "Leader (protocol engine only; default ideal)")
    sim.add_argument("--period", type=int, default=None, metavar="P",
                     help="aggregate in periods of P reports, discarding raw shares after each "
                          "(protocol engine only)")
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


def _window(text: str | None) -> tuple[Fraction, Fraction] | None:
    if text is None:
        return None
    parts = text.split(",")
    if len(parts) != 2:
        raise Sa2Error("--time-window is T0,K")
    return exact(parts[0], "--time-window T0"), exact(parts[1], "--time-window K")


def run_recipe(args: argparse.Namespace) -> int:
    seed = _seed(args.seed)
    try:
        query = None
        if args.query is not None:
            try:
                query = Query.from_json(json.loads(args.query.read_text(encoding="utf-8")))
            except (OSError, json.JSONDecodeError) as exc:
                raise Sa2Error(f"cannot read the query {args.query}: {exc}") from exc
        k = args.k if query is None else query.size
        randomizer: protocol.AnyRandomizer
        rounds = None
        if args.randomizer == fl.NAME:
            sigma = exact(args.sigma, "--sigma")
            if sigma <= 0 or args.B < 1:
                raise Sa2Error("--sigma must be > 0 and --B >= 1")
            randomizer = fl.GaussianVector.from_json({
                "name": fl.NAME, "dimension": args.dimension, "clipNorm": args.clip_norm,
                "fractionalBits": args.fractional_bits, "noiseVariance": str(sigma**2 / args.B),
                "tailExponent": args.tail_exponent})
            rounds = args.rounds
        else:
            rdoc: dict[str, Any] = {"name": args.randomizer, "k": k, "flip": args.flip}
            if args.overweight is not None:
                rdoc["overweight"] = args.overweight
            randomizer = Randomizer.from_json(rdoc)
        q = parse_rate(args.q, "--q")
        delta = parse_rate(args.delta, "--delta")
        if args.dummy_rate in ("paper", "auto") and (args.population is None
                                                     or args.epsilon is None):
            raise Sa2Error(f"--dummy-rate {args.dummy_rate} needs --population and --epsilon")
        if args.dummy_rate == "paper":
            dummy = privacy.dummy_rate_paper(exact(args.epsilon, "--epsilon"), args.population)
        elif args.dummy_rate == "auto":
            others = int((args.population - 1) * (1 - q))
            dummy = privacy.dummy_rate_for(exact(args.epsilon, "--epsilon"), delta, others)
        else:
            dummy = parse_rate(args.dummy_rate, "--dummy-rate")
        if args.chunk_length < 1:
            raise Sa2Error("--chunk-length must be >= 1")
        dep = protocol.provision(seed)
        common: dict[str, Any] = dict(
            recipe_id=args.recipe_id, task_id=RandomTape(seed, "sa2/task_id").bits(256)
            .to_bytes(32, "little"), randomizer=randomizer, B=args.B, q=q,
            chunk_length=args.chunk_length, leader_pk=dep.leader_hpke.public_key,
            helper_pk=dep.helper_hpke.public_key, issuer_key=dep.issuer_sk.public_key(),
            delta=delta, dummy_rate=dummy, population=args.population,
            accountant=(privacy.GAUSSIAN_ACCOUNTANT if args.randomizer == fl.NAME
                        else args.accountant), sampling=args.sampling,
            window=_window(args.time_window), query=query, rounds=rounds)
        if args.epsilon is None:
            probe = protocol.parse_recipe(protocol.make_recipe(epsilon=Fraction(1), **common))
            eps = _round_up(protocol.guarantee(probe).epsilon)
        else:
            eps = exact(args.epsilon, "--epsilon")
        doc = protocol.make_recipe(epsilon=eps, **common)
        doc["privacy"]["epsilon"] = _dec(eps)
        try:
            protocol.check_recipe(doc, protocol.PrivacyBudget(eps, 1))
        except protocol.RecipeRefused as exc:
            print(f"warning: a client will refuse this recipe: {exc}", file=sys.stderr)
    except Sa2Error as exc:
        raise CliError(str(exc)) from exc
    print(json.dumps(doc, indent=2, sort_keys=True))
    return 0


def synthetic_record(query: Query, tape: RandomTape) -> dict[str, Any]:
    """A device record for a simulation: per interval feature a value uniform on a grid of 8
    points per bucket over ``[b_0 - w, b_m + w)`` (``w`` the first bucket's width, so some values
    are out of vocabulary); per category feature one of the categories or ``"<other>"``."""
    rec: dict[str, Any] = {}
    for f in query.features:
        if f.intervals:
            lo, hi = f.intervals[0], f.intervals[-1]
            w = f.intervals[1] - f.intervals[0]
            steps = 8 * (len(f.intervals) + 1)
            rec[f.name] = str(lo - w + (hi - lo + 2 * w) * Fraction(tape.uniform(steps), steps))
        else:
            j = tape.uniform(len(f.categories) + 1)
            rec[f.name] = f.categories[j] if j < len(f.categories) else "<other>"
    return rec


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
    if args.engine == "population" and (args.anonymizer != "ideal" or args.period is not None):
        raise CliError("--anonymizer ohttp and --period need --engine protocol")
    if args.period is not None and args.period < 1:
        raise CliError("--period must be >= 1")
    if args.clients < 0 or args.malicious < 0:
        raise CliError("--clients and --malicious must be >= 0")
    if args.rounds is not None and not 1 <= args.rounds <= protocol.MAX_ROUNDS:
        raise CliError(f"--rounds must be in [1, {protocol.MAX_ROUNDS}]")
    try:
        doc = json.loads(args.recipe.read_text(encoding="utf-8"))
    except OSError as exc:
        raise CliError(f"cannot read {args.recipe}: {exc.strerror}") from exc
    except json.JSONDecodeError as exc:
        raise CliError(f"{args.recipe} is not JSON: {exc}") from exc
    try:
        drop = parse_rate(args.drop_rate, "--drop-rate")
        spacing = exact(args.arrival_spacing, "--arrival-spacing")
        if spacing < 0:
            raise Sa2Error("--arrival-spacing must be >= 0")
        budget = protocol.PrivacyBudget(exact(args.device_budget, "--device-budget"),
                                        1)
        recipe, stmt = protocol.check_recipe(doc, budget)
    except protocol.RecipeRefused as exc:
        print(f"the client refuses the recipe: {exc}", file=sys.stderr)
        return 1
    except Sa2Error as exc:
        raise CliError(str(exc)) from exc
    vdaf = protocol.build_vdaf(recipe)
    if isinstance(recipe.randomizer, fl.GaussianVector):
        if args.engine == "population":
            raise CliError(f"the population engine does not replay {fl.NAME}; use --engine "
                           "protocol")
        if args.anonymizer != "ideal" or args.period is not None:
            raise CliError(f"--anonymizer ohttp and --period are not supported for {fl.NAME} "
                           "recipes (rounds use the ideal anonymizer)")
        return run_rounds(args, recipe, stmt, vdaf, seed, drop)
    if args.rounds is not None:
        raise CliError(f"--rounds applies to {fl.NAME} recipes only")
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
    data: list[Any]
    if recipe.query is None:
        data = [min(data_tape.uniform(k), data_tape.uniform(k)) for _ in range(args.clients)]
    else:
        data = [synthetic_record(recipe.query, data_tape) for _ in range(args.clients)]
    arrival = (None if recipe.window is None
               else protocol.evenly_spaced(recipe.window[0], spacing))
    relay = None
    if args.anonymizer == "ohttp":
        from dpspec.spec.sa2.ohttp import OhttpAnonymizer

        relay = OhttpAnonymizer(seed)
    res = protocol.run_collection(recipe, dep, vdaf, data, seed, malicious=args.malicious,
                                  drop_rate=drop, progress=progress, arrival=arrival,
                                  anonymizer=relay, period=args.period)
    progress.done()
    elapsed = time.monotonic() - start
    out: dict[str, Any] = {
        "recipeId": recipe.recipe_id,
        "release": None if res.release is None else list(res.release),
        "privacy": sa2_scale.privacy_json(recipe, stmt),
        "clients": args.clients, "malicious": args.malicious,
        "participants": res.participants, "dummies": res.dummies,
        "overweight": res.overweight, "reportsSent": res.sent,
        "dropped": res.dropped, "tokensIssued": res.tokens_issued,
        "accepted": res.outcome.accepted, "aggregated": res.outcome.aggregated,
        "rejected": dict(sorted(res.outcome.rejected.items())),
        "seconds": round(elapsed, 2),
    }
    if args.json:
        print(json.dumps(out, sort_keys=True))
        return 0
    r = recipe.randomizer
    assert isinstance(r, Randomizer)  # the federated-learning path is run_rounds
    lines = [
        ("recipe", f"{recipe.recipe_id}: {r.name} (k = {r.k}, flip = {r.flip}), "
                   f"B = {recipe.B}, q = {recipe.q}, q' = {recipe.dummy_rate}"),
        ("privacy", f"({out['privacy']['sa2']['epsilon']}, {out['privacy']['sa2']['delta']})-DP "
                    f"in the SA2 model; ({out['privacy']['aggregator']['epsilon']}, "
                    f"{out['privacy']['aggregator']['delta']})-DP in the aggregator model; "
                    f"claimed ({_dec(recipe.epsilon)}, {_dec(recipe.delta)}); bound "
                    f"{stmt.bound}" + (f" ({stmt.fallback})" if stmt.fallback else "")),
        *([("count", f"the released report count B' is ({out['privacy']['count']['epsilon']}, "
                     f"{out['privacy']['count']['delta']})-DP (dummy reports, sec. 4.6)")]
          if "count" in out["privacy"] else []),
        ("clients", f"{args.clients} honest, {args.malicious} malicious"),
        *sa2_scale.summary_rows(recipe, out),
        ("time", f"{elapsed:.1f} s"),
    ]
    for key, value in lines:
        print(f"{key:9s}{value}")
    return 0


def synthetic_update(tape: RandomTape, d: int) -> list[str]:
    """A device's update in a simulation: ``d`` entries uniform on the grid ``j / 64``,
    ``-96 <= j <= 96`` (so some updates are longer than a unit clipping norm)."""
    return [str(Fraction(tape.uniform(193) - 96, 64)) for _ in range(d)]


def _decimal(x: Fraction, places: int = 3) -> str:
    return f"{x.numerator / x.denominator:.{places}f}"


def run_rounds(args: argparse.Namespace, recipe: protocol.Recipe, stmt: privacy.PrivacyStatement,
               vdaf: Any, seed: bytes, drop: Fraction) -> int:
    """The federated-learning path end to end: ``--rounds`` rounds (:func:`protocol.run_rounds`),
    each device with its own on-device accountant of ``--device-budget``; device ``i``'s update
    in round ``r`` comes from the tape ``sa2/sim/data/{r}``."""
    r = recipe.randomizer
    assert isinstance(r, fl.GaussianVector)
    rounds = recipe.rounds if args.rounds is None else args.rounds
    try:
        allowed = exact(args.device_budget, "--device-budget")
    except Sa2Error as exc:
        raise CliError(str(exc)) from exc
    start = time.monotonic()
    dep = protocol.provision(seed)
    try:
        protocol.check_deployment(recipe, dep)
    except Sa2Error as exc:
        raise CliError(f"{exc}: run `dpspec sa2 recipe --seed {args.seed}`") from exc

    def updates(rnd: int) -> list[list[str]]:
        tape = RandomTape(seed, f"{protocol.TAGS['data']}/{rnd}")
        return [synthetic_update(tape, r.dimension) for _ in range(args.clients)]

    budgets = [protocol.PrivacyBudget(allowed, 10**6) for _ in range(args.clients)]
    if not args.quiet:
        print(f"running {rounds} round(s) of {args.clients} devices ...", file=sys.stderr,
              flush=True)
    results = protocol.run_rounds(recipe, dep, vdaf, updates, seed, rounds, budgets,
                                  malicious=args.malicious, drop_rate=drop)
    per_round: list[dict[str, Any]] = []
    for res in results:
        row: dict[str, Any] = {"round": res.round, "devices": res.admitted,
                               "refused": dict(sorted(res.refused.items()))}
        if res.result is not None:
            c = res.result
            row.update(participants=c.participants, overNorm=c.overweight,
                       accepted=c.outcome.accepted,
                       rejected=dict(sorted(c.outcome.rejected.items())),
                       release=None if c.release is None else list(c.release),
                       sum=None if c.release is None
                       else [str(v) for v in r.decode_sum(c.release)])
        per_round.append(row)
    out: dict[str, Any] = {
        "recipeId": recipe.recipe_id, "privacy": sa2_scale.privacy_json(recipe, stmt),
        "clients": args.clients, "malicious": args.malicious, "rounds": per_round,
        "seconds": round(time.monotonic() - start, 2)}
    if args.json:
        print(json.dumps(out, sort_keys=True))
        return 0
    p = out["privacy"]
    print(f"{'recipe':9s}{recipe.recipe_id}: {fl.NAME} (d = {r.dimension}, C = {r.clip_norm}, "
          f"f = {r.fractional_bits}, noise variance {r.noise_variance}), B = {recipe.B}, "
          f"q = {recipe.q}, {recipe.rounds} round(s)")
    print(f"{'circuit':9s}Prio3BoundedL2VecSum (not in VDAF draft-20): normBound = "
          f"{r.norm_bound()}, {r.bits()} bits per entry")
    print(f"{'privacy':9s}({p['sa2']['epsilon']}, {p['sa2']['delta']})-DP in the SA2 model over "
          f"{recipe.rounds} round(s); ({p['aggregator']['epsilon']}, "
          f"{p['aggregator']['delta']})-DP in the aggregator model; claimed "
          f"({_dec(recipe.epsilon)}, {_dec(recipe.delta)})")
    print(f"{'clients':9s}{args.clients} honest (budget {_dec(allowed)} each), "
          f"{args.malicious} malicious per round")
    for row in per_round:
        head = f"round {row['round']}"
        if "accepted" not in row:
            why = ", ".join(f"{k} {v}" for k, v in row["refused"].items())
            print(f"{head:9s}no device takes part ({why})")
            continue
        rej = ", ".join(f"{k} {v}" for k, v in row["rejected"].items()) or "none"
        rel = ("no output (fewer than B accepted reports)" if row["sum"] is None
               else "sum [" + ", ".join(_decimal(Fraction(v)) for v in row["sum"]) + "]")
        print(f"{head:9s}{row['participants']} took part, {row['accepted']} accepted, "
              f"rejected {rej}; {rel}")
    return 0
