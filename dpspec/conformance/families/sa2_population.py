"""Vector family ``sa2-population``: the SA2 release at population scale (dpspec.spec.sa2.population).

File ``sa2-population/engine.json``: the engine that replays the protocol's own coins without
cryptography. The tape reads (``BitStream``: uniform draws, Bernoulli draws, Fisher-Yates), the
synthetic data of ``dpspec sa2 simulate``, the vectorised local randomizers and their decoded
sum, the whole release (participants, dummies, malicious reports, network loss, rejections, the
release) and the audit against the real protocol, on small populations. Intermediate values
(data, randomized reports, decoded sums, participant lists) are published so an implementer can
localise a difference.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Any

from dpspec.conformance.families._groups import Groups
from dpspec.conformance.families.sa2 import vector_deployment
from dpspec.conformance.jsonargs import COUNT, HEX, RAT, hex_arg
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

SCHEMA = "sa2_population-v1.json"

HEADER = [
    "The SA2 population engine (dpspec.spec.sa2.population): the protocol's coins, no cryptography.",
    "Tapes are RandomTape(seed, tag) of dpspec.spec.tape (TurboSHAKE128 stream, bits least",
    "significant first); bitsConsumed counts the bits read, as RandomTape.bits_consumed.",
    "bitstream: draws in order; uniform(n) = rejection sampling of ceil(log2 n)-bit candidates;",
    "bernoulli(p) = the exact Bernoulli sampler of dpspec.spec.samplers; fisher_yates(n) = a",
    "uniformly random permutation of 0..n-1 (Fisher-Yates with uniform draws).",
    "synthetic_data: per device min(uniform(k), uniform(k)) from tape tag 'sa2/sim/data'.",
    "randomize: device i's report R(x_i) on its own tape 'sa2/client/{i}/randomizer' (a flip",
    "coin Bernoulli(flip), then uniform(k) if it is 1; RAPPOR: one flip coin per bit);",
    "decodedSum: the sum of the decoded reports (a count for binary RR, a histogram otherwise).",
    "release: a recipe (randomizer, B, q, dummyRate, population; epsilon 1000, delta 1e-10, the",
    "claim is not the point here) and the vector deployment of family sa2 (seed 'sa2/deployment');",
    "data = synthetic_data(seed, k, clients); the outputs are what protocol.run_collection",
    "releases and counts for the same seed, malicious devices and dropRate.",
    "fixedSize: the first B accepted in the anonymizer's order (tape 'sa2/shuffle', Fisher-Yates)",
    "are summed; window [t0, K] with arrivalSpacing [start, step]: the i-th report in arrival",
    "order arrives at start + i step and is rejected outside [t0, t0 + K]; population is the",
    "recipe's stated population (rate validation: more than max_reports received, no release).",
    "audit: `size` participants chosen on tape 'sa2/population/audit' run the real client and",
    "aggregators; the unsharded protocol sum must equal the engine's decoded sum.",
    "Everything is exact integers; compared exactly.",
]

_DEVICES: dict[str, Any] = {"type": "array", "items": COUNT}


@cache
def _dep() -> protocol.Deployment:
    return vector_deployment()


def _int(args: dict[str, Any], key: str) -> int:
    v = args[key]
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise ValueError(f"{key} must be an integer >= 0")
    return v


def _randomizer(args: dict[str, Any]) -> Randomizer:
    return Randomizer.from_json(args["randomizer"])


def _rows(out: Any, rappor: bool) -> list[Any]:
    return [[int(b) for b in row] if rappor else int(row) for row in out]


def h_bitstream(args: dict[str, Any]) -> dict[str, Any]:
    stream = population.BitStream(hex_arg(args, "seed"), args["tag"])
    values: list[Any] = []
    for d in args["draws"]:
        kind = d["kind"]
        if kind == "uniform":
            values.append([int(v) for v in stream.uniforms(_int(d, "n"), _int(d, "count"))])
        elif kind == "bernoulli":
            p = exact(d["p"], "p")
            values.append([int(v) for v in stream.bernoullis(p, _int(d, "count"))])
        elif kind == "fisher_yates":
            values.append(stream.fisher_yates(_int(d, "n")))
        elif kind == "bit":
            values.append([stream.bit(_int(d, "index"))])
        else:
            raise ValueError(f"unknown draw {kind!r}")
    return {"values": values, "bitsConsumed": stream.pos}


def h_synthetic(args: dict[str, Any]) -> dict[str, Any]:
    data = population.synthetic_data(hex_arg(args, "seed"), _int(args, "k"),
                                      _int(args, "clients"))
    return {"data": [int(x) for x in data]}


def h_randomize(args: dict[str, Any]) -> dict[str, Any]:
    r = _randomizer(args)
    seed = hex_arg(args, "seed")
    devices = [int(i) for i in args["devices"]]
    values = [int(v) for v in args["values"]]
    if len(devices) != len(values):
        raise ValueError("devices and values differ in length")
    out = population.randomize(r, seed, devices, values)
    over: list[int] = []
    total = population.decoded_sum(r, seed, devices, values, chunk=7, overweight=over)
    return {"reports": _rows(out, r.name == "rappor"),
            "decodedSum": [int(x) for x in total], "overweight": over}


def _recipe(args: dict[str, Any]) -> protocol.Recipe:
    dep = _dep()
    r = _randomizer(args)
    dummy = exact(args.get("dummyRate", "0"), "dummyRate")
    over: dict[str, Any] = {}
    if args.get("fixedSize"):
        over["sampling"] = "fixed_size"
    if "window" in args:
        t0, K = args["window"]
        over["window"] = (exact(t0, "t0"), exact(K, "K"))
    pop = args.get("population", _int(args, "clients") if dummy else None)
    return protocol.check_recipe_structure(protocol.make_recipe(
        recipe_id="sa2-population-vector", task_id=bytes(32), randomizer=r, B=_int(args, "B"),
        q=exact(args["q"], "q"), chunk_length=2, leader_pk=dep.leader_hpke.public_key,
        helper_pk=dep.helper_hpke.public_key, issuer_key=dep.issuer_sk.public_key(),
        epsilon=Fraction(1000), delta=Fraction(1, 10**10), dummy_rate=dummy,
        population=pop, **over))


def h_release(args: dict[str, Any]) -> dict[str, Any]:
    recipe = _recipe(args)
    seed = hex_arg(args, "seed")
    k = recipe.randomizer.k
    data = population.synthetic_data(seed, k, _int(args, "clients"))
    arrival = None
    if "arrivalSpacing" in args:
        start, step = args["arrivalSpacing"]
        arrival = protocol.evenly_spaced(exact(start, "start"), exact(step, "spacing"))
    res = population.release(recipe, _dep(), data, seed, malicious=_int(args, "malicious"),
                             drop_rate=exact(args.get("dropRate", "0"), "dropRate"),
                             arrival=arrival)
    out: dict[str, Any] = {
        "data": [int(x) for x in data],
        "participantIndex": [int(i) for i in res.participant_index],
        "release": None if res.release is None else list(res.release),
        "participants": res.participants, "dummies": res.dummies, "sent": res.sent,
        "dropped": res.dropped, "accepted": res.accepted, "aggregated": res.aggregated,
        "overweight": res.overweight, "rejected": dict(sorted(res.rejected.items()))}
    if "auditSize" in args:
        vdaf = protocol.build_vdaf(recipe)
        aud = population.audit(recipe, _dep(), vdaf, data, res.participant_index, seed,
                               _int(args, "auditSize"))
        out["audit"] = {"devices": aud.devices, "protocolSum": list(aud.protocol_sum),
                        "engineSum": list(aud.engine_sum), "accepted": aud.accepted,
                        "agrees": aud.agrees}
    return out


HANDLERS: dict[str, Handler] = {
    "sa2pop.bitstream": h_bitstream,
    "sa2pop.synthetic_data": h_synthetic,
    "sa2pop.randomize": h_randomize,
    "sa2pop.release": h_release,
}


def _rj(name: str, k: int, flip: str, **extra: str) -> dict[str, Any]:
    return {"name": name, "k": k, "flip": flip, **extra}


def _groups() -> list[dict[str, Any]]:
    groups = Groups(HANDLERS)
    group = groups.add

    seed = vector_seed("sa2-population/stream").hex()
    bs = {"seed": seed, "tag": "sa2-population/stream"}
    group("sa2pop.bitstream", [
        ("uniform(5) x 40 then uniform(8) x 10 (power of two: no rejection)",
         {**bs, "draws": [{"kind": "uniform", "n": 5, "count": 40},
                          {"kind": "uniform", "n": 8, "count": 10}]}),
        ("uniform(1) draws nothing; uniform(0) count 0",
         {**bs, "draws": [{"kind": "uniform", "n": 1, "count": 5},
                          {"kind": "uniform", "n": 3, "count": 0}]}),
        ("Bernoulli 1/3, 3/8, 0, 1, 999/1000",
         {**bs, "draws": [{"kind": "bernoulli", "p": p, "count": 30}
                          for p in ["1/3", "3/8", "0", "1", "999/1000"]]}),
        ("Bernoulli with a tiny p (long trials)",
         {**bs, "draws": [{"kind": "bernoulli", "p": "1/" + str(3 * 2**62), "count": 8}]}),
        ("Fisher-Yates of 10, then of 1",
         {**bs, "draws": [{"kind": "fisher_yates", "n": 10}, {"kind": "fisher_yates", "n": 1}]}),
        ("single bits read ahead of the position",
         {**bs, "draws": [{"kind": "bit", "index": 0}, {"kind": "bit", "index": 700}]}),
        ("many uniform(3) draws (over a block)",
         {**bs, "draws": [{"kind": "uniform", "n": 3, "count": 3000}]})],
        [("unknown draw kind", {**bs, "draws": [{"kind": "gauss", "n": 3}]}, "BadDraw")])

    dseed = vector_seed("sa2-population/data").hex()
    group("sa2pop.synthetic_data", [
        ("k = 4, 30 clients", {"seed": dseed, "k": 4, "clients": 30}),
        ("k = 300 (uint16), 12 clients", {"seed": dseed, "k": 300, "clients": 12}),
        ("no clients", {"seed": dseed, "k": 4, "clients": 0})])

    rseed = vector_seed("sa2-population/randomize").hex()
    devs = list(range(3, 60, 4))

    def rz(r: dict[str, Any], k: int) -> dict[str, Any]:
        return {"seed": rseed, "randomizer": r, "devices": devs,
                "values": [(i * 7) % k for i in devs]}
    group("sa2pop.randomize", [
        ("randomized response, k = 4, flip 1/2", rz(_rj("randomized_response", 4, "1/2"), 4)),
        ("binary randomized response, flip 1/4",
         rz(_rj("binary_randomized_response", 2, "1/4"), 2)),
        ("RAPPOR k = 3, flip 1/4", rz(_rj("rappor", 3, "1/4"), 3)),
        ("RAPPOR k = 6, flip 1/4, overweight 1/3 (some reports not sent)",
         rz(_rj("rappor", 6, "1/4", overweight="1/3"), 6)),
        ("tiny flip (exact fallback)", rz(_rj("randomized_response", 3,
                                              "1/" + str(3 * 2**62)), 3)),
        ("no devices", {"seed": rseed, "randomizer": _rj("randomized_response", 4, "1/2"),
                        "devices": [], "values": []})],
        [("devices and values differ in length",
          {**rz(_rj("randomized_response", 4, "1/2"), 4), "values": [0]}, "BadInput")])

    pseed = vector_seed("sa2-population/release").hex()
    rel = {"seed": pseed, "B": 3, "q": "1/4", "clients": 48, "malicious": 0, "dropRate": "0"}
    rr = _rj("randomized_response", 4, "1/2")
    group("sa2pop.release", [
        ("randomized response, no dummies, honest", {**rel, "randomizer": rr}),
        ("randomized response, 10 malicious, drop 1/3",
         {**rel, "randomizer": rr, "malicious": 10, "dropRate": "1/3"}),
        ("binary RR with dummies 1/10, 3 malicious, drop 1/3",
         {**rel, "randomizer": _rj("binary_randomized_response", 2, "1/4"),
          "dummyRate": "1/10", "malicious": 3, "dropRate": "1/3"}),
        ("RAPPOR with dummies 1/5 and overweight reports",
         {**rel, "randomizer": _rj("rappor", 6, "1/4", overweight="1/3"), "dummyRate": "1/5"}),
        ("B = 40 > participants: no release", {**rel, "randomizer": rr, "B": 40}),
        ("fixed size B = 6 of population 20, q = 1, 3 malicious, drop 1/10",
         {**rel, "randomizer": rr, "B": 6, "q": "1", "clients": 24, "fixedSize": True,
          "population": 20, "malicious": 3, "dropRate": "1/10"}),
        ("fixed size: fewer accepted than the stated population, no release",
         {**rel, "randomizer": rr, "B": 6, "q": "1", "clients": 24, "fixedSize": True,
          "population": 24, "malicious": 0, "dropRate": "1/3"}),
        ("time window [10, 25], arrivals 9, 10, 11, ...: late reports rejected",
         {**rel, "randomizer": _rj("rappor", 3, "1/3"), "q": "1/2", "clients": 40,
          "malicious": 10, "dropRate": "1/10", "window": ["10", "15"],
          "arrivalSpacing": ["9", "1"]}),
        ("rate validation: stated population 10 far below the reports",
         {**rel, "randomizer": _rj("binary_randomized_response", 2, "1/4"),
          "dummyRate": "1/10", "population": 10, "malicious": 3}),
        ("audit of 4 participants against the real protocol",
         {**rel, "randomizer": _rj("rappor", 3, "1/4"), "auditSize": 4})],
        [("time-bounded task without arrival times",
          {**rel, "randomizer": rr, "window": ["0", "10"]}, "NoArrival"),
         ("Gaussian vector randomizer is not replayed",
          {**rel, "randomizer": {"name": "gaussian_vector", "k": 4, "flip": "1/2"}},
          "Unsupported")])
    return groups.groups


class Sa2PopulationFamily(Family):
    name = "sa2-population"
    summary = "SA2 population engine: tape reads, synthetic data, randomizers, release, audit"

    def handlers(self) -> dict[str, Handler]:
        return dict(HANDLERS)

    def schemas(self) -> dict[str, dict[str, Any]]:
        anyv: dict[str, Any] = {}
        args = {"properties": {n: anyv for n in [
            "seed", "tag", "draws", "k", "clients", "randomizer", "devices", "values", "B", "q",
            "malicious", "dropRate", "dummyRate", "auditSize", "fixedSize", "population",
            "window", "arrivalSpacing"]}}
        args["properties"]["seed"] = HEX
        args["properties"]["q"] = RAT
        args["properties"]["devices"] = _DEVICES
        out: dict[str, Any] = {"type": "object"}
        return {SCHEMA: family_schema(SCHEMA, "SA2 population engine",
                                      {op: (args, out) for op in HANDLERS})}

    def files(self) -> list[VectorFile]:
        return [self.vector_file(
            "sa2-population/engine.json", algorithm="SA2-population-engine", schema=SCHEMA,
            header=HEADER,
            notes={"BadDraw": "Unknown draw kind.",
                   "NoArrival": "A time-bounded task needs every report's arrival time.",
                   "BadInput": "devices and values must have the same length.",
                   "Unsupported": "The engine replays binary_randomized_response, "
                                  "randomized_response and rappor only."},
            groups=_groups())]


FAMILY = Sa2PopulationFamily()
