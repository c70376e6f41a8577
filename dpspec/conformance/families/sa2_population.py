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

import numpy as np

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
        if kind == "uniform" and d.get("summary"):
            drawn = stream.uniforms(_int(d, "n"), _int(d, "count"))
            values.append({"sum": int(drawn.sum(dtype=np.int64)), "count": int(drawn.size),
                           "last": [int(v) for v in drawn[-3:]]})
        elif kind == "uniform":
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
    events: list[list[Any]] = []
    total = population.decoded_sum(r, seed, devices, values, chunk=7, overweight=over,
                                   workers=_int(args, "workers") if "workers" in args else 1,
                                   progress=progress_recorder(events) if args.get("progress") else None)
    res: dict[str, Any] = {"reports": _rows(out, r.name == "rappor"),
                           "decodedSum": [int(x) for x in total], "overweight": over}
    if args.get("progress"):
        res["progress"] = events
    return res


def progress_recorder(events: list[list[Any]]) -> population.Progress:
    def progress(stage: str, done: int, total: int) -> None:
        events.append([stage, done, total])
    return progress


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
    if "arrivalTimes" in args:
        times = [exact(t, "time") for t in args["arrivalTimes"]]
        arrival = lambda n: times  # noqa: E731 (the times as given, whatever n)
    elif "arrivalSpacing" in args:
        start, step = args["arrivalSpacing"]
        arrival = protocol.evenly_spaced(exact(start, "start"), exact(step, "spacing"))
    events: list[list[Any]] = []
    progress = progress_recorder(events) if args.get("progress") else None
    res = population.release(recipe, _dep(), data, seed, malicious=_int(args, "malicious"),
                             drop_rate=exact(args.get("dropRate", "0"), "dropRate"),
                             arrival=arrival, progress=progress)
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
                               _int(args, "auditSize"), progress=progress)
        out["audit"] = {"devices": aud.devices, "protocolSum": list(aud.protocol_sum),
                        "engineSum": list(aud.engine_sum), "accepted": aud.accepted,
                        "agrees": aud.agrees}
    if progress is not None:
        out["progress"] = events
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

    # -- boundaries of the tape reads (appended: the tcIds above keep their meaning) --
    xseed = vector_seed("sa2-population/exact").hex()
    group("sa2pop.bitstream", [
        (f"Bernoulli {c}: p equals the stream's first bits, the comparison ends {why}",
         {"seed": xseed, "tag": tag, "draws": [{"kind": "bernoulli", "p": p, "count": 3}]})
        for c, why, tag, p in _exact_trials(xseed)] + [
        ("uniform(2^62) (62-bit candidates, the largest n)",
         {**bs, "draws": [{"kind": "uniform", "n": 2**62, "count": 4}]}),
        ("a bit far ahead: one XOF read longer than the 65536-byte minimum",
         {**bs, "draws": [{"kind": "bit", "index": 0}, {"kind": "bit", "index": 1124288}]}),
        ("2^24 + 5 uniform(2) draws (published as sum, count and last three), then more: "
         "consumed bits are dropped twice",
         {**bs, "draws": [{"kind": "uniform", "n": 2, "count": 2**24 + 5, "summary": True},
                          {"kind": "uniform", "n": 5, "count": 10},
                          {"kind": "bit", "index": 2**24 + 900},
                          {"kind": "uniform", "n": 2, "count": 2**24, "summary": True},
                          {"kind": "uniform", "n": 5, "count": 10},
                          {"kind": "fisher_yates", "n": 5}]}),
        ("bits behind the position are kept until 2^24 are consumed",
         {**bs, "draws": [{"kind": "uniform", "n": 2, "count": 2**23 + 5, "summary": True},
                          {"kind": "uniform", "n": 5, "count": 1},
                          {"kind": "bit", "index": 3}]}),
        ("Fisher-Yates of 300 (bit lengths 9 down to 1)",
         {**bs, "draws": [{"kind": "fisher_yates", "n": 300}]})],
        [("uniform(2^62 + 1): n must be at most 2^62",
          {**bs, "draws": [{"kind": "uniform", "n": 2**62 + 1, "count": 1}]}, "BadN"),
         ("a bit before the dropped part of the stream",
          {**bs, "draws": [{"kind": "uniform", "n": 2, "count": 2**24 + 5, "summary": True},
                           {"kind": "uniform", "n": 5, "count": 1},
                           {"kind": "bit", "index": 3}]}, "Gone"),
         ("an invalid tag (empty)", {**bs, "tag": "", "draws": []}, "BadTag"),
         ("a seed of 15 bytes (tapes need 16 or more)",
          {**bs, "seed": "00" * 15, "draws": []}, "BadSeed")])

    group("sa2pop.randomize", [
        ("randomized response, flip 1 (every report replaced)",
         rz(_rj("randomized_response", 4, "1"), 4)),
        ("RAPPOR k = 6 in 2 worker processes, chunks of 7, with progress",
         {**rz(_rj("rappor", 6, "1/4", overweight="1/3"), 6), "workers": 2, "progress": True}),
        ("randomized response, one process, with progress",
         {**rz(_rj("randomized_response", 4, "1/2"), 4), "progress": True}),
        ("randomized response, k = 5 (uniform(5) rejects 5, 6, 7)",
         rz(_rj("randomized_response", 5, "1/2"), 5)),
        ("randomized response, k = 3, flip 2/3", rz(_rj("randomized_response", 3, "2/3"), 3)),
        ("binary randomized response, flip 3/4", rz(_rj("binary_randomized_response", 2, "3/4"), 2)),
        ("RAPPOR k = 140, flip 1/4 (a longer row of coins)", rz(_rj("rappor", 140, "1/4"), 140))],
        [("a value outside [0, k)",
          {**rz(_rj("randomized_response", 5, "1/2"), 5), "values": [5] * len(devs)}, "BadValue"),
         ("a device index whose tape tag is over 255 characters",
          {"seed": rseed, "randomizer": _rj("randomized_response", 4, "1/2"),
           "devices": [10**240], "values": [1]}, "BadTag")])

    fixed = {**rel, "randomizer": rr, "B": 6, "q": "1", "clients": 24, "fixedSize": True,
             "malicious": 4, "dropRate": "1/10"}
    group("sa2pop.release", [
        ("one malicious device (an invalid proof)",
         {**rel, "randomizer": rr, "malicious": 1}),
        ("RAPPOR overweight reports with drop 1/10: the release subtracts the unsummed reports",
         {**rel, "randomizer": _rj("rappor", 6, "1/4", overweight="1/3"), "q": "3/4",
          "dropRate": "1/10", "malicious": 5}),
        ("audit of 0 participants, with progress",
         {**rel, "randomizer": rr, "auditSize": 0, "progress": True}),
        ("audit of 2 participants, with progress",
         {**rel, "randomizer": rr, "auditSize": 2, "progress": True}),
        ("window [10, 20] with given arrival times (equal neighbours allowed)",
         {**rel, "randomizer": rr, "malicious": 10, "window": ["10", "10"],
          "arrivalTimes": _times(pseed, 1)}),
        ("fixed size B = 8 of population 20, q = 1, 10 malicious (replays cut by B)",
         {**rel, "randomizer": rr, "B": 8, "q": "1", "clients": 24, "fixedSize": True,
          "population": 20, "malicious": 10, "dropRate": "1/10"}),
        ("fixed size B = 3 of population 20, q = 1, 10 malicious",
         {**rel, "randomizer": rr, "B": 3, "q": "1", "clients": 24, "fixedSize": True,
          "population": 20, "malicious": 10, "dropRate": "1/10"}),
        ("rate validation at its boundary: received = max_reports = population / 2 (released)",
         {**rel, "randomizer": rr, "malicious": 10, "dropRate": "1/3",
          "population": 2 * _delivered(pseed)}),
        ("rate validation just over: received = max_reports + 1 (no release)",
         {**rel, "randomizer": rr, "malicious": 10, "dropRate": "1/3",
          "population": 2 * _delivered(pseed) - 2}),
        ("fixed size: accepted = the stated population exactly (released)",
         {**fixed, "population": _accepted(pseed, fixed)}),
        ("fixed size: accepted = the stated population - 1 (no release)",
         {**fixed, "population": _accepted(pseed, fixed) + 1})],
        [("arrival times decreasing at the start",
          {**rel, "randomizer": rr, "malicious": 10, "window": ["10", "10"],
           "arrivalTimes": _times(pseed, 2)}, "BadTimes"),
         ("one arrival time too few",
          {**rel, "randomizer": rr, "malicious": 10, "window": ["10", "10"],
           "arrivalTimes": _times(pseed, 1)[1:]}, "BadTimes")])
    return groups.groups


def _delivered(seed: str) -> int:
    """The reports received by the aggregators in the release with 10 malicious devices and
    drop rate 1/3 (for the rate-validation boundary)."""
    res = h_release({"seed": seed, "B": 3, "q": "1/4", "clients": 48, "malicious": 10,
                     "dropRate": "1/3", "randomizer": _rj("randomized_response", 4, "1/2")})
    return int(res["sent"] - res["dropped"])


def _accepted(seed: str, args: dict[str, Any]) -> int:
    """The reports accepted in a fixed-size release (which does not depend on the population
    as long as rate validation passes)."""
    return int(h_release({**args, "seed": seed, "population": 24})["accepted"])


def _times(seed: str, kind: int) -> list[str]:
    """Arrival times for the window cases: 8, 8, 9, 9, ... (kind 1) or 9, 8, 10, 11, ... (kind 2),
    one per delivered report of the release with 10 malicious devices."""
    recipe = _recipe({"seed": seed, "B": 3, "q": "1/4", "clients": 48,
                      "randomizer": _rj("randomized_response", 4, "1/2")})
    sb = bytes.fromhex(seed)
    data = population.synthetic_data(sb, 4, 48)
    res = population.release(recipe, _dep(), data, sb, malicious=10)
    n = res.sent - res.dropped
    if kind == 1:
        return [str(8 + i // 2) for i in range(n)]
    return ["9", "8"] + [str(10 + i) for i in range(n - 2)]


def _exact_trials(seed: str) -> list[tuple[str, str, str, str]]:
    """Bernoulli probabilities that agree with a stream's first bits: p = the first 61 bits
    (denominator 2^61: the scalar comparison reaches r = 0), p = those bits + 2^-61 (r = b), and
    the best approximation with denominator below 2^61 of the first 72 bits (a comparison longer
    than 64 bits in the vectorised one)."""
    out: list[tuple[str, str, str, str]] = []
    sb = bytes.fromhex(seed)
    for i in range(40):
        tag = f"sa2-population/exact/{i}"
        bits = [int(v) for v in population.BitStream(sb, tag).window(0, 72)]
        u61 = sum(b << (60 - j) for j, b in enumerate(bits[:61]))
        if u61 % 2 and len(out) == 0:
            out.append(("on the stream", "at r = 0 (61 bits)", tag,
                        str(Fraction(u61, 2**61))))
        elif u61 % 2 == 0 and len(out) == 1:
            out.append(("just above the stream", "at r = b (61 bits)", tag,
                        str(Fraction(u61 + 1, 2**61))))
        elif len(out) == 2:
            u72 = sum(b << (72 - j) for j, b in enumerate(bits))
            p = Fraction(2 * u72 + 1, 2**74).limit_denominator(2**61 - 1)
            out.append(("near the stream", "after more than 64 bits", tag, str(p)))
            return out
    raise AssertionError("no tags found")


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
            "window", "arrivalSpacing", "arrivalTimes", "workers", "progress"]}}
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
                   "BadN": "uniform(n) needs n <= 2^62 (candidates of at most 62 bits).",
                   "Gone": "Bits before the dropped (consumed) part of the stream are refused.",
                   "BadTag": "The tape's tag checks (dpspec.spec.tape) apply.",
                   "BadSeed": "The tape's seed checks (dpspec.spec.tape) apply.",
                   "BadValue": "Each device's value must lie in [0, k).",
                   "BadTimes": "Arrival times: one per delivered report, non-decreasing.",
                   "Unsupported": "The engine replays binary_randomized_response, "
                                  "randomized_response and rappor only."},
            groups=_groups())]


FAMILY = Sa2PopulationFamily()
