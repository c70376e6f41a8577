"""Benchmark: Prio3Histogram and Prio3SumVec per-report costs, against the draft's reference code.

Run:  .venv/bin/python tests/benchmarks/bench_prio3.py [--lengths 10,100,1000,10000] [--reports 3]
      [--reference /path/to/poc] [--json]

Per report and per length ``n`` it times
  shard     ``shard`` (Client),
  verify    both Aggregators: ``verify_init`` x2, ``verifier_shares_to_message``, ``verify_next`` x2,
  aggregate ``agg_update`` of each Aggregator's output share into its aggregate share,
in CPU seconds of this process (``time.process_time``: other processes sharing the machine distort
wall-clock times much more), and prints the median over ``--reports`` reports (distinct nonces
and randomness), the growth exponent ``log(t(n2) / t(n1)) / log(n2 / n1)`` between successive
lengths (1 for linear time; n log n gives about 1.1 to 1.3 at these sizes) and, when the draft's
reference code is available, its times and the ratio reference / dpspec.

Parameters: Histogram(length n, chunk_length isqrt(n)); SumVec(length n, max_measurement 1,
chunk_length isqrt(n)), i.e. ``MEAS_LEN = n`` for both. Two Aggregators.

The reference is draft-irtf-cfrg-vdaf-20's ``poc/`` (Python 3.12 code): on Python 3.11 it needs
small edits (PEP 695 ``class Lagrange[F: NttField]`` -> ``Generic[F]``, ``typing.override`` ->
``typing_extensions.override``, ``Cryptodome`` -> ``Crypto``). Keep that copy outside this
repository and pass its ``poc`` folder with ``--reference`` (default: ``$VDAF_POC`` or
``/tmp/vdafpoc/poc`` if present). It is only ever imported here, for timing.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from dpspec.spec.vdaf.prio3 import Prio3Histogram, Prio3SumVec  # noqa: E402

CTX = b"dpspec benchmark"


def _vdaf(mod: Any, kind: str, n: int) -> Any:
    chunk = max(1, math.isqrt(n))
    if kind == "Histogram":
        return mod.Prio3Histogram(2, n, chunk)
    return mod.Prio3SumVec(2, n, 1, chunk)


def _measurement(kind: str, n: int, i: int) -> Any:
    if kind == "Histogram":
        return (7 * i + n // 3) % n
    return [(j + i) % 2 for j in range(n)]


def _rand(size: int, i: int) -> bytes:
    return bytes((7 * j + 13 * i) % 256 for j in range(size))


def time_one(vdaf: Any, kind: str, n: int, reports: int) -> dict[str, float]:
    """Median seconds per report of shard, verify (both Aggregators) and aggregate."""
    shard_t, verify_t, agg_t = [], [], []
    key = _rand(32, 99)
    agg_shares = [vdaf.agg_init(None) for _ in range(2)]
    clock = time.process_time
    for i in range(-1, reports):  # report -1 warms caches (roots of unity) and is not counted
        nonce, rand, meas = _rand(16, i), _rand(vdaf.RAND_SIZE, i + 1), _measurement(kind, n, i)
        t0 = clock()
        public, inputs = vdaf.shard(CTX, meas, nonce, rand)
        t1 = clock()
        states, shares = [], []
        for j in range(2):
            st, sh = vdaf.verify_init(key, CTX, j, None, nonce, public, inputs[j])
            states.append(st)
            shares.append(sh)
        msg = vdaf.verifier_shares_to_message(CTX, None, shares)
        outs = [vdaf.verify_next(CTX, st, msg) for st in states]
        t2 = clock()
        agg_shares = [vdaf.agg_update(None, a, o) for a, o in zip(agg_shares, outs, strict=True)]
        t3 = clock()
        if i < 0:
            continue
        shard_t.append(t1 - t0)
        verify_t.append(t2 - t1)
        agg_t.append(t3 - t2)
    return {"shard": statistics.median(shard_t), "verify": statistics.median(verify_t),
            "aggregate": statistics.median(agg_t)}


def load_reference(path: str | None) -> Any:
    candidates = [path, os.environ.get("VDAF_POC"), "/tmp/vdafpoc/poc"]
    for cand in candidates:
        if cand and (Path(cand) / "vdaf_poc" / "vdaf_prio3.py").is_file():
            sys.path.insert(0, cand)
            return importlib.import_module("vdaf_poc.vdaf_prio3")
    return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lengths", default="10,100,1000,10000")
    ap.add_argument("--kinds", default="Histogram,SumVec")
    ap.add_argument("--reports", type=int, default=3)
    ap.add_argument("--reference", default=None, help="path of the draft's poc/ folder")
    ap.add_argument("--no-reference", action="store_true")
    ap.add_argument("--reference-max-length", type=int, default=10000)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    lengths = [int(x) for x in args.lengths.split(",")]
    ref = None if args.no_reference else load_reference(args.reference)
    ours_mod = type("ours", (), {"Prio3Histogram": Prio3Histogram, "Prio3SumVec": Prio3SumVec})
    rows: list[dict[str, Any]] = []
    for kind in args.kinds.split(","):
        for n in lengths:
            row: dict[str, Any] = {"kind": kind, "length": n, "chunk_length": max(1, math.isqrt(n))}
            row["dpspec"] = time_one(_vdaf(ours_mod, kind, n), kind, n, args.reports)
            if ref is not None and n <= args.reference_max_length:
                row["reference"] = time_one(_vdaf(ref, kind, n), kind, n, max(1, min(args.reports, 2)))
            rows.append(row)
            if not args.json:
                _print_row(row)
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        _print_growth(rows)
    return 0


def _ms(x: float) -> str:
    return f"{x * 1e3:9.2f}"


def _print_row(row: dict[str, Any]) -> None:
    ours = row["dpspec"]
    line = f"{row['kind']:9} n={row['length']:6} chunk={row['chunk_length']:4} | dpspec ms: shard " \
           f"{_ms(ours['shard'])} verify {_ms(ours['verify'])} aggregate {_ms(ours['aggregate'])}"
    if "reference" in row:
        ref = row["reference"]
        line += f" | reference ms: shard {_ms(ref['shard'])} verify {_ms(ref['verify'])}" \
                f" aggregate {_ms(ref['aggregate'])} | ratio ref/dpspec: shard " \
                f"{ref['shard'] / ours['shard']:5.1f} verify {ref['verify'] / ours['verify']:5.1f}" \
                f" aggregate {ref['aggregate'] / ours['aggregate']:5.1f}"
    print(line, flush=True)


def _print_growth(rows: list[dict[str, Any]]) -> None:
    print("growth exponents log(t2/t1)/log(n2/n1) of dpspec (1.0 = linear):")
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        by_kind.setdefault(row["kind"], []).append(row)
    get: Callable[[dict[str, Any], str], float] = lambda r, k: r["dpspec"][k]  # noqa: E731
    for kind, rs in by_kind.items():
        for a, b in zip(rs, rs[1:], strict=False):
            exps = {k: math.log(get(b, k) / get(a, k)) / math.log(b["length"] / a["length"])
                    for k in ("shard", "verify", "aggregate")}
            print(f"  {kind:9} {a['length']:6} -> {b['length']:6}: " +
                  " ".join(f"{k} {v:4.2f}" for k, v in exps.items()))


if __name__ == "__main__":
    sys.exit(main())
