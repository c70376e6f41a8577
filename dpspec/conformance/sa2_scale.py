"""``dpspec sa2 simulate --engine population``: the population-scale engine behind the CLI.

The options are added to ``dpspec sa2 simulate`` by :func:`add_options`; :func:`run` replaces the
cryptographic run when ``--engine population`` is given (see :mod:`dpspec.spec.sa2.population`):
the release of the ideal functionality on the protocol's coins, plus (``--audit N``) the full
protocol for N random participants, whose aggregate must equal the engine's sum over them.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpspec.conformance.cli import CliError
from dpspec.spec.sa2 import population, privacy, protocol
from dpspec.spec.sa2.ideal import Sa2Error, exact
from dpspec.spec.tape import RandomTape


def add_options(sim: Any) -> None:
    sim.add_argument("--engine", choices=["protocol", "population"], default="protocol",
                     help="protocol: every device runs the cryptographic protocol (about 25 ms a "
                          "report); population: the ideal release on the same coins, vectorised "
                          "(10^6 devices in seconds)")
    sim.add_argument("--audit", type=int, default=32, metavar="N",
                     help="population engine: also run the full protocol for N random "
                          "participants and check their aggregate (default 32; 0: off)")
    sim.add_argument("--workers", type=int, default=1,
                     help="population engine: processes for the per-device randomizers "
                          "(default 1)")


def privacy_json(recipe: protocol.Recipe, stmt: Any) -> dict[str, Any]:
    """The ``privacy`` object of ``dpspec sa2 simulate --json`` (both engines print the same):
    the validity-gated statements of :mod:`dpspec.spec.sa2.protocol` (SA2 model, aggregator
    model, and the released count with dummies)."""
    agg_stmt = protocol.aggregator_guarantee(recipe)
    count_stmt = protocol.count_guarantee(recipe)
    up = privacy.publish  # rounded up: the printed guarantee is never below the computed one
    return {"sa2": {"epsilon": up(stmt.epsilon), "delta": up(stmt.delta)},
            "aggregator": {"epsilon": up(agg_stmt.epsilon), "delta": up(agg_stmt.delta)},
            "claimed": {"epsilon": str(recipe.epsilon), "delta": str(recipe.delta)},
            "derivation": stmt.derivation, "bound": stmt.bound,
            **({"fallback": stmt.fallback} if stmt.fallback else {}),
            **({"count": {"epsilon": up(count_stmt.epsilon), "delta": up(count_stmt.delta)}}
               if count_stmt is not None else {})}


def _no_output_reason(recipe: protocol.Recipe, out: dict[str, Any]) -> str:
    """Why the aggregators released nothing, in the order they check (sec. 4.7 rate validation,
    then B, then the fixed-size pool)."""
    limit = recipe.max_reports()
    delivered = out["reportsSent"] - out["dropped"]
    if limit is not None and delivered > limit:
        return (f"{delivered} reports delivered, above the rate limit of {limit}: twice the "
                "expected number, sec. 4.7")
    if recipe.sampling == "fixed_size":
        return (f"fixed size: not exactly B = {recipe.B} aggregated out of at least the "
                f"population {recipe.population} accepted")
    return f"fewer than B = {recipe.B} accepted reports"


def summary_rows(recipe: protocol.Recipe, out: dict[str, Any]) -> list[tuple[str, str]]:
    """The ``reports``, ``accepted``, ``rejected`` and ``release`` rows of the text summary of
    ``dpspec sa2 simulate`` (both engines), from its ``--json`` object ``out``; the reports row
    counts tokens only if ``out`` has ``tokensIssued`` (the protocol engine)."""
    real = out["participants"] - out["overweight"]
    malicious = out["reportsSent"] - real - out["dummies"]
    tokens = (f", {out['tokensIssued']} tokens issued" if "tokensIssued" in out else "")
    fixed = recipe.sampling == "fixed_size"
    rejected = ", ".join(f"{k} {v}" for k, v in sorted(out["rejected"].items())) or "none"
    release = out["release"]
    return [
        ("reports", f"{real} real + {out['dummies']} dummy + {malicious} malicious = "
                    f"{out['reportsSent']} sent ({out['overweight']} honest reports over "
                    f"max_weight not sent), {out['dropped']} dropped{tokens}"),
        ("accepted", str(out["accepted"]) + (f" ({out['aggregated']} aggregated: fixed-size "
                                             "sample)" if fixed else "")),
        ("rejected", rejected),
        ("release", "[" + ", ".join(str(x) for x in release) + "]" if release is not None
         else f"no output ({_no_output_reason(recipe, out)})"),
    ]


def _buckets(recipe: protocol.Recipe, seed: bytes, clients: int) -> NDArray[Any]:
    """The devices' buckets: the synthetic data of ``dpspec sa2 simulate`` (tape ``sa2/sim/data``),
    for a recipe with a query its synthetic records mapped through the query (a Python loop)."""
    k = recipe.randomizer.k
    if recipe.query is None:
        return population.synthetic_data(seed, k, clients)
    from dpspec.conformance.commands.sa2 import synthetic_record  # the CLI's own generator

    tape = RandomTape(seed, protocol.TAGS["data"])
    return np.asarray([recipe.query.apply(synthetic_record(recipe.query, tape))
                       for _ in range(clients)], dtype=np.int64)


def run(args: argparse.Namespace, recipe: protocol.Recipe, stmt: Any, dep: protocol.Deployment,
        vdaf: Any, seed: bytes, drop: Fraction, progress: Callable[[str, int, int], None],
        done: Callable[[], None], start: float) -> int:
    if not 0 <= args.audit <= 10**5 or not 1 <= args.workers <= 256:
        raise CliError("--audit must be in [0, 10^5] and --workers in [1, 256]")
    try:
        population.check_supported(recipe)
        arrival = (None if recipe.window is None else
                   protocol.evenly_spaced(recipe.window[0], exact(args.arrival_spacing,
                                                                  "--arrival-spacing")))
        data = _buckets(recipe, seed, args.clients)
        res = population.release(recipe, dep, data, seed, malicious=args.malicious,
                                 drop_rate=drop, arrival=arrival, workers=args.workers,
                                 progress=progress)
    except Sa2Error as exc:
        raise CliError(str(exc)) from exc
    aud = None
    if args.audit:
        aud = population.audit(recipe, dep, vdaf, data, res.participant_index, seed, args.audit,
                               progress=progress)
    done()
    elapsed = time.monotonic() - start
    out: dict[str, Any] = {
        "engine": "population",
        "recipeId": recipe.recipe_id,
        "release": None if res.release is None else list(res.release),
        "privacy": privacy_json(recipe, stmt),
        "clients": args.clients, "malicious": args.malicious,
        "participants": res.participants, "dummies": res.dummies,
        "overweight": res.overweight, "reportsSent": res.sent,
        "dropped": res.dropped, "accepted": res.accepted, "aggregated": res.aggregated,
        "rejected": dict(sorted(res.rejected.items())),
        "seconds": round(elapsed, 2),
        "devicesPerSecond": round(args.clients / elapsed) if elapsed > 0 else None,
    }
    if aud is not None:
        out["audit"] = {"devices": len(aud.devices), "agrees": aud.agrees,
                        "protocolSum": list(aud.protocol_sum), "engineSum": list(aud.engine_sum)}
    status = 0 if aud is None or aud.agrees else 1
    if args.json:
        print(json.dumps(out, sort_keys=True))
        return status
    r = population.check_supported(recipe)
    lines = [
        ("engine", "population (ideal release on the protocol's coins; no cryptography)"),
        ("recipe", f"{recipe.recipe_id}: {r.name} (k = {r.k}, flip = {r.flip}), "
                   f"B = {recipe.B}, q = {recipe.q}, q' = {recipe.dummy_rate}"),
        ("privacy", f"({out['privacy']['sa2']['epsilon']}, {out['privacy']['sa2']['delta']})-DP "
                    f"in the SA2 model; ({out['privacy']['aggregator']['epsilon']}, "
                    f"{out['privacy']['aggregator']['delta']})-DP in the aggregator model"),
        ("clients", f"{args.clients} honest, {args.malicious} malicious"),
        *summary_rows(recipe, out),
    ]
    if aud is not None:
        lines.append(("audit", f"full protocol for {len(aud.devices)} random participants: "
                               f"aggregate {list(aud.protocol_sum)}, engine "
                               f"{list(aud.engine_sum)}: "
                               + ("agree" if aud.agrees else "DISAGREE")))
    lines.append(("time", f"{elapsed:.1f} s ({out['devicesPerSecond']} devices/s)"))
    for key, value in lines:
        print(f"{key:9s}{value}")
    return status
