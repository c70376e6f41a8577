"""``dpspec sample NAME --param KEY=VALUE ... --seed HEX [--count N]`` and ``dpspec sample --list``.

Draws ``count`` samples from one tape built from (seed, tag) (the tag defaults to the sampler's
registry tag, so the output equals the vectors' ``samples`` for the same seed) and prints one
sample per line; a vector sampler prints one JSON array per line. ``--json`` prints one JSON
object with the samples and the tape position instead.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from dpspec.conformance.cli import CliError
from dpspec.spec.samplers import SAMPLERS
from dpspec.spec.tape import RandomTape, TapeError

MAX_COUNT = 10_000_000


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "sample", help="draw samples from an exact sampler with a given seed",
        description="Draw samples from an exact dpspec sampler (dpspec.spec.samplers) driven by the "
        "random tape built from --seed and --tag.")
    parser.add_argument("name", nargs="?", help="sampler name (see --list)")
    parser.add_argument("--param", "-p", action="append", default=[], metavar="KEY=VALUE",
                        help="a parameter, as an exact rational: 3, 3/7, 0.25 or 1e-3 (repeat)")
    parser.add_argument("--seed", help="tape seed, 16 to 255 bytes in hex")
    parser.add_argument("--tag", default=None, help="tape tag (default: the sampler's tag)")
    parser.add_argument("--count", "-n", type=int, default=1, help="number of samples (default 1)")
    parser.add_argument("--list", action="store_true", help="list the samplers and their parameters")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def _list(as_json: bool) -> int:
    if as_json:
        print(json.dumps([{"name": s.name, "tag": s.tag, "description": s.description,
                           "vector": s.vector,
                           "params": [{"name": p.name, "kind": p.kind, "description": p.description}
                                      for p in s.params]}
                          for s in SAMPLERS.values()], indent=2))
        return 0
    for s in SAMPLERS.values():
        params = " ".join(f"{p.name}=<{p.kind}: {p.description}>" for p in s.params)
        print(f"{s.name}  {params}")
        print(f"    {s.description}")
    return 0


def run(args: argparse.Namespace) -> int:
    if args.list:
        if args.name is not None:
            raise CliError("--list takes no sampler name")
        return _list(args.json)
    if args.name is None:
        raise CliError("give a sampler name (dpspec sample --list shows them)")
    sampler = SAMPLERS.get(args.name)
    if sampler is None:
        raise CliError(f"unknown sampler {args.name!r}; known: {', '.join(SAMPLERS)}")
    params: dict[str, str] = {}
    for item in args.param:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise CliError(f"--param needs KEY=VALUE, got {item!r}")
        if key in params:
            raise CliError(f"parameter {key} given twice")
        params[key] = value
    wanted = [p.name for p in sampler.params]
    missing = [k for k in wanted if k not in params]
    unknown = sorted(set(params) - set(wanted))
    if unknown:
        raise CliError(f"{sampler.name} has no parameter {', '.join(unknown)}; "
                       f"it takes {', '.join(wanted)}")
    if missing:
        raise CliError(f"{sampler.name} needs --param for {', '.join(missing)}")
    if args.seed is None:
        raise CliError("--seed HEX is required (16 to 255 bytes; use a fresh random seed in "
                       "production)")
    try:
        seed = bytes.fromhex(args.seed)
    except ValueError:
        raise CliError("--seed is not valid hex") from None
    if not 0 <= args.count <= MAX_COUNT:
        raise CliError(f"--count must be in [0, {MAX_COUNT}]")
    tag = args.tag if args.tag is not None else sampler.tag
    try:
        tape = RandomTape(seed, tag)
        samples = [sampler.draw(tape, params) for _ in range(args.count)]
        if args.count == 0:
            sampler.draw(RandomTape(bytes(16), "validate"), params)
    except (TapeError, ValueError) as exc:
        raise CliError(str(exc)) from None
    if args.json:
        print(json.dumps({
            "sampler": sampler.name, "params": params, "seed": seed.hex(), "tag": tag,
            "samples": [[str(v) for v in x] if sampler.vector else str(x) for x in samples],
            "bitsConsumed": tape.bits_consumed, "bytesConsumed": tape.bytes_consumed}))
        return 0
    for x in samples:
        print(json.dumps(x) if sampler.vector else x)
    return 0
