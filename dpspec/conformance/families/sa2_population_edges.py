"""Vector family ``sa2-population-edges``: the edges of the SA2 population engine
(dpspec.spec.sa2.population).

File ``sa2-population-edges/engine_edges.json``. The engine replays the coins of
:func:`dpspec.spec.sa2.protocol.run_collection` (the ideal functionality ``A_B^Dec`` of sec. 3 of
the SA2 paper on the protocol's own tapes, sec. 4 of the same paper for the aggregators' rules)
without cryptography, in blocks and with numpy. The family ``sa2-population`` covers its ordinary
paths; this one reaches the places where the blocked reads meet their bounds:

* tape reads (``BitStream``): the consumed bits are dropped once more than 2^24 are behind the
  position (a read behind the position at exactly 2^24, and just after a drop); ``uniform`` draws
  whose block of candidates is cut at its maximum size and holds exactly the draws asked for (the
  position is after the last accepted candidate, not after the block) or one fewer; a chain of
  Bernoulli trials that ends exactly at the end of its block; a Bernoulli trial longer than the
  vectorised depth that does not start the stream; the scalar comparison reaching ``r = 1``;
* the synthetic data of ``dpspec sa2 simulate`` over more than one block of devices;
* local randomizers whose coins do not fit in the bits read up front per device (a
  ``uniform(k)`` with 62-bit candidates): the device is replayed by the exact randomizer;
* the exact route of ``randomize`` (no devices, or a flip whose denominator is 2^61 or more),
  RAPPOR included (its raw bits, one row per device), and a recipe whose randomizer the engine
  does not replay (refused);
* the decoded sum in chunks of its default size, and with ``workers = 0`` (one process);
* the release with its defaults (no malicious device, no network loss), RAPPOR without an
  overweight bound, the release that subtracts the unsummed reports from the first pass or sums
  the summed ones (both sides of ``2 |summed| > |sent|``), an audit larger than the participants,
  and a recipe whose keys are not the deployment's;
* the audit's verdict (the two sums equal and every chosen report accepted).

Tolerances: none. Everything is an integer or a boolean and is compared exactly.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from dpspec.conformance.families._groups import Groups
from dpspec.conformance.families.sa2 import vector_deployment
from dpspec.conformance.families.sa2_population import progress_recorder
from dpspec.conformance.jsonargs import HEX, RAT, count_arg, hex_arg
from dpspec.conformance.vectors import (
    Family,
    Handler,
    VectorFile,
    family_schema,
    vector_seed,
)
from dpspec.spec.sa2 import population, protocol
from dpspec.spec.sa2.ideal import exact
from dpspec.spec.sa2.randomizers import Randomizer

SCHEMA = "sa2_population_edges-v1.json"

HEADER = [
    "Edges of the SA2 population engine (dpspec.spec.sa2.population): the protocol's coins read",
    "in blocks, without cryptography. Tapes are RandomTape(seed, tag) of dpspec.spec.tape",
    "(TurboSHAKE128 stream, bits least significant first); bitsConsumed is the number of bits",
    "read, as RandomTape.bits_consumed after the same draws.",
    "bitstream: draws in order. uniform(n): rejection sampling of ceil(log2 n)-bit candidates;",
    "bernoulli(p): the exact lazy comparison of dpspec.spec.samplers; bit(i): bit i of the stream",
    "(a bit behind the position stays readable until more than 2^24 consumed bits are dropped).",
    "A draw with summary true publishes the count, the sum (uniform) or the number of ones",
    "(bernoulli) and the last three values instead of every value.",
    "syntheticSummary: per device min(uniform(k), uniform(k)) from tape tag 'sa2/sim/data'; the",
    "count, the histogram of the values and the last three.",
    "randomize: device i's report R(x_i) on its own tape 'sa2/client/{i}/randomizer' (a flip coin",
    "Bernoulli(flip), then uniform(k) if it is 1); with k = 2^61 + 1 some devices' coins run past",
    "the first 64 bytes of their tape (the engine replays those one by one; same reports).",
    "With no devices or a flip denominator of 2^61 or more every device takes the exact route;",
    "RAPPOR reports are then the k raw bits per device (heavy rows included).",
    "decodedSum: the sum of Dec(R(x_i)) over devices 0 .. clients-1 with x_i = 7 i mod k, in",
    "chunks (chunk, default 20000) and `workers` processes (one when workers <= 1); progress lists",
    "the [stage, done, total] events.",
    "release: as in family sa2-population (recipe with epsilon 1000 and delta 1e-10, the vector",
    "deployment of family sa2, data = synthetic_data(seed, k, clients)); malicious and dropRate",
    "default to 0 when left out; swapKeys puts the helper's key in the leader's place.",
    "auditVerdict: the audit agrees iff the protocol's and the engine's sums are equal and every",
    "chosen device's report is accepted.",
    "Everything is exact integers or booleans; compared exactly.",
]


def _ints(values: Any, key: str) -> list[int]:
    if not isinstance(values, list) or any(isinstance(v, bool) or not isinstance(v, int)
                                           for v in values):
        raise ValueError(f"{key} must be a list of integers")
    return [int(v) for v in values]


def _summary(drawn: Any, total_key: str) -> dict[str, Any]:
    return {total_key: int(np.asarray(drawn).sum(dtype=np.int64)), "count": int(drawn.size),
            "last": [int(v) for v in drawn[-3:]]}


def h_bitstream(args: dict[str, Any]) -> dict[str, Any]:
    stream = population.BitStream(hex_arg(args, "seed"), args["tag"])
    values: list[Any] = []
    for d in args["draws"]:
        kind = d["kind"]
        if kind == "uniform":
            drawn = stream.uniforms(count_arg(d, "n"), count_arg(d, "count"))
            values.append(_summary(drawn, "sum") if d.get("summary")
                          else [int(v) for v in drawn])
        elif kind == "bernoulli":
            flags = stream.bernoullis(exact(d["p"], "p"), count_arg(d, "count"))
            values.append(_summary(flags, "ones") if d.get("summary")
                          else [int(v) for v in flags])
        elif kind == "bit":
            values.append([stream.bit(count_arg(d, "index"))])
        else:
            raise ValueError(f"unknown draw {kind!r}")
    return {"values": values, "bitsConsumed": stream.pos}


def h_synthetic(args: dict[str, Any]) -> dict[str, Any]:
    k = count_arg(args, "k")
    data = population.synthetic_data(hex_arg(args, "seed"), k, count_arg(args, "clients"))
    hist = np.bincount(np.asarray(data, dtype=np.int64), minlength=k)
    return {"count": int(data.size), "histogram": [int(c) for c in hist],
            "last": [int(v) for v in data[-3:]]}


def h_randomize(args: dict[str, Any]) -> dict[str, Any]:
    r = Randomizer.from_json(args["randomizer"])
    devices = _ints(args["devices"], "devices")
    # no length check here: the invalid cases are refused by the spec's randomizer itself
    values = _ints(args["values"], "values")
    out = population.randomize(r, hex_arg(args, "seed"), devices, values)
    if r.name == "rappor":  # one row of k raw bits per device (heavy rows included)
        return {"reports": [[int(b) for b in row] for row in out]}
    return {"reports": [int(v) for v in out]}


def h_decoded(args: dict[str, Any]) -> dict[str, Any]:
    r = Randomizer.from_json(args["randomizer"])
    n = count_arg(args, "clients")
    devices = list(range(n))
    values = [(7 * i) % r.k for i in devices]
    over: list[int] = []
    events: list[list[Any]] = []
    extra: dict[str, Any] = {}
    if "chunk" in args:
        extra["chunk"] = count_arg(args, "chunk")
    if "workers" in args:
        extra["workers"] = count_arg(args, "workers")
    total = population.decoded_sum(r, hex_arg(args, "seed"), devices, values, overweight=over,
                                   progress=progress_recorder(events), **extra)
    return {"decodedSum": [int(x) for x in total], "overweight": over, "progress": events}


def _recipe(args: dict[str, Any]) -> protocol.Recipe:
    dep = vector_deployment()
    r = protocol.parse_randomizer(args["randomizer"])  # a recipe may name any randomizer
    over: dict[str, Any] = {}
    if args.get("fixedSize"):
        over["sampling"] = "fixed_size"
    leader, helper = dep.leader_hpke.public_key, dep.helper_hpke.public_key
    if args.get("swapKeys"):
        leader, helper = helper, leader
    return protocol.check_recipe_structure(protocol.make_recipe(
        recipe_id="sa2-population-edges-vector", task_id=bytes(32), randomizer=r,
        B=count_arg(args, "B"), q=exact(args["q"], "q"), chunk_length=2, leader_pk=leader,
        helper_pk=helper, issuer_key=dep.issuer_sk.public_key(), epsilon=Fraction(1000),
        delta=Fraction(1, 10**10), dummy_rate=Fraction(0),
        population=args["population"] if "population" in args else None, **over))


def h_release(args: dict[str, Any]) -> dict[str, Any]:
    recipe = _recipe(args)
    seed = hex_arg(args, "seed")
    # the engine refuses any randomizer it does not replay (the federated-learning path's
    # gaussian_vector) before it reads the data: two buckets stand in for it
    r = recipe.randomizer
    k = r.k if isinstance(r, Randomizer) else 2
    data = population.synthetic_data(seed, k, count_arg(args, "clients"))
    events: list[list[Any]] = []
    progress = progress_recorder(events) if args.get("progress") else None
    kwargs: dict[str, Any] = {}
    if "malicious" in args:  # left out: the engine's default
        kwargs["malicious"] = count_arg(args, "malicious")
    if "dropRate" in args:
        kwargs["drop_rate"] = exact(args["dropRate"], "dropRate")
    res = population.release(recipe, vector_deployment(), data, seed, progress=progress, **kwargs)
    out: dict[str, Any] = {
        "participantIndex": [int(i) for i in res.participant_index],
        "release": None if res.release is None else list(res.release),
        "participants": res.participants, "dummies": res.dummies, "sent": res.sent,
        "dropped": res.dropped, "accepted": res.accepted, "aggregated": res.aggregated,
        "overweight": res.overweight, "rejected": dict(sorted(res.rejected.items()))}
    if "auditSize" in args:
        vdaf = protocol.build_vdaf(recipe)
        aud = population.audit(recipe, vector_deployment(), vdaf, data, res.participant_index, seed,
                               count_arg(args, "auditSize"))
        out["audit"] = {"devices": aud.devices, "protocolSum": list(aud.protocol_sum),
                        "engineSum": list(aud.engine_sum), "accepted": aud.accepted,
                        "agrees": aud.agrees}
    if progress is not None:
        out["progress"] = events
    return out


def h_verdict(args: dict[str, Any]) -> dict[str, Any]:
    res = population.AuditResult(_ints(args["devices"], "devices"),
                                 tuple(_ints(args["protocolSum"], "protocolSum")),
                                 tuple(_ints(args["engineSum"], "engineSum")),
                                 count_arg(args, "accepted"))
    return {"agrees": res.agrees}


HANDLERS: dict[str, Handler] = {
    "sa2pope.bitstream": h_bitstream,
    "sa2pope.synthetic_summary": h_synthetic,
    "sa2pope.randomize": h_randomize,
    "sa2pope.decoded_sum": h_decoded,
    "sa2pope.release": h_release,
    "sa2pope.audit_verdict": h_verdict,
}


def _rj(name: str, k: int, flip: str, **extra: str) -> dict[str, Any]:
    return {"name": name, "k": k, "flip": flip, **extra}


#: a uniform(k) with 62-bit candidates that are accepted about half the time
BIG_K = 2**61 + 1

# Inputs found by a search over tags and devices, fixed here so that what is generated does not
# depend on the engine's routes; tests/test_sa2_population_edges_family.py checks each property.
#: a tag whose first 2^22 two-bit candidates end on a rejected one (value 3), and the number of
#: accepted candidates among them: a uniform(3) count whose first block is cut at 2^22
TIE = ("sa2-population-edges/tie/1", 3143905)
#: a tag, a probability and a count whose chain of trials from the stream's start ends exactly
#: at position 2^22 (the first block of start positions) while more trials are asked for
WALK = ("sa2-population-edges/walk/0", "1/3", 2_200_000)
#: a tag whose bits 0 and 1 differ and a probability (denominator below 2^61) whose binary
#: expansion agrees with the stream's bits 1 .. 72: the first trial reads one bit, the second
#: more than 64 and answers 1
LONG = ("sa2-population-edges/long/0", "124918582369522537/355428374466540894")
#: devices whose RR(k = 2^61 + 1, flip 1/2) coins run past the first 64 bytes of their tape on
#: seed 'sa2-population-edges/randomize' (a flip of 1, then nine or more rejected candidates),
#: and devices whose coins fit
OVERFLOWING, FITTING = [34, 208, 451], [0, 1, 2]


def _groups() -> list[dict[str, Any]]:
    groups = Groups(HANDLERS)
    group = groups.add

    seed = vector_seed("sa2-population-edges/stream").hex()
    bs = {"seed": seed, "tag": "sa2-population-edges/stream"}
    trim = population.TRIM
    tie_tag, tie_count = TIE
    walk_tag, walk_p, walk_count = WALK
    long_tag, long_p = LONG
    group("sa2pope.bitstream", [
        ("2^21 uniform(256) draws consume exactly 2^24 bits: nothing is dropped yet, bit 3 and "
         "the last consumed bit are still readable",
         {**bs, "draws": [{"kind": "uniform", "n": 256, "count": trim // 8, "summary": True},
                          {"kind": "bit", "index": 3}, {"kind": "bit", "index": trim - 1},
                          {"kind": "uniform", "n": 5, "count": 4}]}),
        ("2^21 + 1 uniform(256) draws (2^24 + 8 bits): the next read drops them; the bits "
         "consumed after the drop stay readable",
         {**bs, "draws": [{"kind": "uniform", "n": 256, "count": trim // 8 + 1, "summary": True},
                          {"kind": "uniform", "n": 5, "count": 4}]
          + [{"kind": "bit", "index": trim + 8 + j} for j in range(10)]}),
        ("uniform(3): the first block of 2^22 candidates (cut at its maximum) holds exactly the "
         "draws asked for and ends on a rejected candidate: the position is after the last "
         "accepted one",
         {**bs, "tag": tie_tag, "draws": [
             {"kind": "uniform", "n": 3, "count": tie_count, "summary": True},
             {"kind": "uniform", "n": 5, "count": 5}]}),
        ("uniform(3): one draw more than the first block of 2^22 candidates holds (a second "
         "block, 2-bit candidates)",
         {**bs, "tag": tie_tag, "draws": [
             {"kind": "uniform", "n": 3, "count": tie_count + 1, "summary": True},
             {"kind": "uniform", "n": 5, "count": 5}]}),
        (f"Bernoulli {walk_p}: {walk_count} trials, the chain of the first block (2^22 start "
         "positions) ends exactly on its last position",
         {**bs, "tag": walk_tag, "draws": [
             {"kind": "bernoulli", "p": walk_p, "count": walk_count, "summary": True},
             {"kind": "bernoulli", "p": "1/3", "count": 8}]}),
        ("Bernoulli p close to the stream's bits 1..72: the first trial stops after one bit, "
         "the second is longer than 64 bits and returns 1",
         {**bs, "tag": long_tag, "draws": [{"kind": "bernoulli", "p": long_p, "count": 3}]}),
        ("Bernoulli (2^60 + 1)/(2^61 + 1) (scalar comparison): a trial that starts on a 1 bit "
         "reaches r = 1 and goes on",
         {**bs, "draws": [{"kind": "bernoulli", "p": f"{2**60 + 1}/{2**61 + 1}", "count": 12},
                          {"kind": "uniform", "n": 5, "count": 3}]})],
        [("the last bit of the dropped part (the drop position minus one)",
          {**bs, "draws": [{"kind": "uniform", "n": 256, "count": trim // 8 + 1,
                            "summary": True},
                           {"kind": "uniform", "n": 5, "count": 1},
                           {"kind": "bit", "index": trim + 7}]}, "Gone")])

    dseed = vector_seed("sa2-population-edges/data").hex()
    group("sa2pope.synthetic_summary", [
        ("k = 3, 2^21 + 1 devices: a second block of one device",
         {"seed": dseed, "k": 3, "clients": population.BLOCK // 2 + 1}),
        ("k = 3, 2^21 devices: exactly one block", {"seed": dseed, "k": 3,
                                                   "clients": population.BLOCK // 2})])

    rseed = vector_seed("sa2-population-edges/randomize").hex()
    big = _rj("randomized_response", BIG_K, "1/2")
    over, fits = OVERFLOWING, FITTING
    devs = sorted(over + fits)
    group("sa2pope.randomize", [
        (f"k = 2^61 + 1: devices {over} need more than the 64 bytes read up front "
         "(nine or more rejected 62-bit candidates)",
         {"seed": rseed, "randomizer": big, "devices": devs,
          "values": [(i * 2**55 + 7) % BIG_K for i in devs]}),
        ("binary randomized response, flip 1/4, devices 0 .. 9 (every coin fits)",
         {"seed": rseed, "randomizer": _rj("binary_randomized_response", 2, "1/4"),
          "devices": list(range(10)), "values": [i % 2 for i in range(10)]})],
        [("no devices but one value (the exact route)",
          {"seed": rseed, "randomizer": _rj("randomized_response", 4, "1/2"),
           "devices": [], "values": [1]}, "BadLength"),
         ("a flip with denominator 2^62 + 1 (the exact route), two devices and one value",
          {"seed": rseed, "randomizer": _rj("randomized_response", 4, f"1/{2**62 + 1}"),
           "devices": [3, 7], "values": [1]}, "BadLength"),
         ("a value equal to k (the vectorised route checks every value first)",
          {"seed": rseed, "randomizer": _rj("randomized_response", 5, "1/2"),
           "devices": list(range(8)), "values": [5] * 8}, "BadValue"),
         ("a negative value (the vectorised route)",
          {"seed": rseed, "randomizer": _rj("randomized_response", 5, "1/2"),
           "devices": list(range(8)), "values": [0] * 7 + [-1]}, "BadValue")])

    sseed = vector_seed("sa2-population-edges/decoded").hex()
    group("sa2pope.decoded_sum", [
        ("binary RR, 20001 devices in the default chunks (20000, then 1)",
         {"seed": sseed, "randomizer": _rj("binary_randomized_response", 2, "1/4"),
          "clients": 20001}),
        ("randomized response k = 4, 15 devices in chunks of 7, workers = 0 (one process)",
         {"seed": sseed, "randomizer": _rj("randomized_response", 4, "1/2"), "clients": 15,
          "chunk": 7, "workers": 0}),
        ("randomized response k = 4, 15 devices in chunks of 7, workers = 1",
         {"seed": sseed, "randomizer": _rj("randomized_response", 4, "1/2"), "clients": 15,
          "chunk": 7, "workers": 1})])

    pseed = vector_seed("sa2-population-edges/release").hex()
    rel = {"seed": pseed, "B": 3, "q": "1/4", "clients": 48}
    rr = _rj("randomized_response", 4, "1/2")
    heavy = _rj("rappor", 6, "1/4", overweight="1/3")
    group("sa2pope.release", [
        ("malicious and dropRate left out: no malicious device, no network loss",
         {**rel, "randomizer": rr}),
        ("RAPPOR k = 3, flip 1/4: max_weight = k, no first pass over the participants",
         {**rel, "randomizer": _rj("rappor", 3, "1/4"), "malicious": 0, "dropRate": "1/10",
          "progress": True}),
        ("RAPPOR with overweight reports, drop 1/10: more than half of the sent reports are "
         "summed, the unsummed ones are subtracted from the first pass",
         {**rel, "randomizer": heavy, "q": "3/4", "malicious": 0, "dropRate": "1/10",
          "progress": True}),
        ("RAPPOR with overweight reports, drop 9/20: between a third and a half of the sent "
         "reports are summed, they are decoded again",
         {**rel, "randomizer": heavy, "q": "3/4", "malicious": 0, "dropRate": "9/20",
          "progress": True}),
        ("an audit of 6 devices among fewer participants: every participant is audited",
         {**rel, "clients": 12, "randomizer": rr, "malicious": 0, "dropRate": "0",
          "auditSize": 6})],
        [("the recipe's leader key is the helper's (not the deployment's)",
          {**rel, "randomizer": rr, "swapKeys": True}, "WrongKeys")])

    group("sa2pope.audit_verdict", [
        ("equal sums, every report accepted",
         {"devices": [2, 5], "protocolSum": [1, 1], "engineSum": [1, 1], "accepted": 2}),
        ("the sums differ, every report accepted",
         {"devices": [2, 5], "protocolSum": [1, 1], "engineSum": [2, 0], "accepted": 2}),
        ("equal sums, one report rejected",
         {"devices": [2, 5], "protocolSum": [1, 1], "engineSum": [1, 1], "accepted": 1})])

    # appended after the groups above (their tcIds stay as they were): the exact route of
    # randomize, one device at a time, for valid inputs (sec. 3 of the SA2 paper: R(x_i) on
    # device i's own tape, whatever route computes it)
    group("sa2pope.randomize", [
        ("no devices and no values (the exact route): no reports",
         {"seed": rseed, "randomizer": _rj("randomized_response", 4, "1/2"),
          "devices": [], "values": []}),
        ("RAPPOR k = 3, no devices and no values (the exact route): no rows",
         {"seed": rseed, "randomizer": _rj("rappor", 3, "1/4"), "devices": [], "values": []}),
        ("RAPPOR k = 4 with a flip of denominator 2^62 + 1 (the exact route): the raw bits of "
         "devices 2 and 9",
         {"seed": rseed, "randomizer": _rj("rappor", 4, f"{2**61 - 1}/{2**62 + 1}"),
          "devices": [2, 9], "values": [0, 3]}),
        ("a flip with denominator 2^62 + 1 (at least 2^61: the exact route), devices 3 and 7",
         {"seed": rseed, "randomizer": _rj("randomized_response", 4, f"{2**61}/{2**62 + 1}"),
          "devices": [3, 7], "values": [1, 2]}),
        ("binary randomized response with a flip of denominator 2^61 (the exact route's bound "
         "itself), devices 0 .. 5",
         {"seed": rseed,
          "randomizer": _rj("binary_randomized_response", 2, f"{2**60 + 3}/{2**61}"),
          "devices": list(range(6)), "values": [i % 2 for i in range(6)]})])

    # a recipe whose randomizer the engine does not replay (sec. 4.1 of the SA2 paper: the recipe
    # names R; the federated-learning path's Gaussian vector randomizer has its own protocol run)
    gauss = {"name": "gaussian_vector", "dimension": 2, "clipNorm": "1/4", "fractionalBits": 8,
             "noiseVariance": "1"}
    group("sa2pope.release", [], [
        ("a recipe naming the gaussian_vector randomizer: the engine does not replay it",
         {**rel, "clients": 10, "randomizer": gauss}, "Unsupported")])
    return groups.groups


class Sa2PopulationEdgesFamily(Family):
    name = "sa2-population-edges"
    summary = "SA2 population engine edges: blocks, drops, row overflow, defaults, routes"

    def handlers(self) -> dict[str, Handler]:
        return dict(HANDLERS)

    def schemas(self) -> dict[str, dict[str, Any]]:
        anyv: dict[str, Any] = {}
        args = {"properties": {n: anyv for n in [
            "seed", "tag", "draws", "k", "clients", "randomizer", "devices", "values", "B", "q",
            "malicious", "dropRate", "auditSize", "fixedSize", "population", "swapKeys",
            "workers", "chunk", "progress", "protocolSum", "engineSum", "accepted"]}}
        args["properties"]["seed"] = HEX
        args["properties"]["q"] = RAT
        out: dict[str, Any] = {"type": "object"}
        return {SCHEMA: family_schema(SCHEMA, "SA2 population engine edges",
                                      {op: (args, out) for op in HANDLERS})}

    def files(self) -> list[VectorFile]:
        return [self.vector_file(
            "sa2-population-edges/engine_edges.json", algorithm="SA2-population-engine-edges",
            schema=SCHEMA, header=HEADER,
            notes={"Gone": "Bits before the dropped (consumed) part of the stream are refused.",
                   "BadLength": "devices and values must have the same length.",
                   "BadValue": "Each device's value must lie in [0, k).",
                   "WrongKeys": "The recipe's keys must be those of the deployment.",
                   "Unsupported": "The engine replays only the randomizers of "
                                  "dpspec.spec.sa2.randomizers; any other recipe is refused."},
            groups=_groups())]


FAMILY = Sa2PopulationEdgesFamily()
