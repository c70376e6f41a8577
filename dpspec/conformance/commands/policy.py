"""``dpspec policy list`` and ``dpspec policy run NAME --param KEY=VALUE ... --measurements FILE
--seed HEX [--ctx HEX] [--json]``: run a DP policy end to end over Prio3.

``run`` derives every random input from ``--seed`` (``PolicyRandomness.derive``: verification key,
nonces, sharding randomness, each Client's and each Aggregator's noise seed), runs
``run_vdaf_with_dp_policy`` and prints the aggregate result, the debiased result and the privacy
guarantee. The measurements file is a JSON array (``-`` reads stdin): bucket indices for the
histogram policies, lists of integers for SumVec.
"""

from __future__ import annotations

import argparse
import inspect
import json
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

from dpspec.conformance.cli import CliError
from dpspec.spec.policies import POLICIES, DpPolicy, PolicyRandomness, run_vdaf_with_dp_policy


def register(sub: Any) -> None:
    parser = sub.add_parser("policy", help="run a DP policy over Prio3, list the policies")
    psub = parser.add_subparsers(dest="policy_command", metavar="ACTION")
    psub.required = True

    lst = psub.add_parser("list", help="list the policies and their parameters")
    lst.add_argument("--json", action="store_true", help="machine-readable output")
    lst.set_defaults(func=run_list)

    run = psub.add_parser("run", help="run a policy end to end on a file of measurements")
    run.add_argument("name", help="policy name (see `dpspec policy list`)")
    run.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                     help="a policy parameter (repeatable)")
    run.add_argument("--measurements", required=True, metavar="FILE",
                     help="JSON array of measurements ('-' for stdin)")
    run.add_argument("--seed", required=True, metavar="HEX",
                     help="16 to 255 bytes, hex: every random input is derived from it")
    run.add_argument("--ctx", default="", metavar="HEX", help="VDAF application context (hex)")
    run.add_argument("--json", action="store_true", help="machine-readable output")
    run.set_defaults(func=run_run)


def run_list(args: argparse.Namespace) -> int:
    if args.json:
        print(json.dumps({name: {"class": cls.__name__, "params": dict(getattr(cls, "PARAMS", {}))}
                          for name, cls in sorted(POLICIES.items())}, indent=2, sort_keys=True))
        return 0
    for name, cls in sorted(POLICIES.items()):
        doc = (cls.__doc__ or "").strip().splitlines()[0]
        print(f"{name}  ({cls.__name__})")
        print(f"    {doc}")
        for key, text in getattr(cls, "PARAMS", {}).items():
            print(f"    --param {key}=...   {text}")
    return 0


def _params(pairs: list[str], allowed: dict[str, str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise CliError(f"--param takes KEY=VALUE, got {pair!r}")
        if key not in allowed:
            raise CliError(f"unknown parameter {key!r}; this policy takes: {', '.join(allowed)}")
        if key in out:
            raise CliError(f"parameter {key!r} given twice")
        out[key] = value.strip()
    return out


def _read_measurements(path: str) -> list[Any]:
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise CliError(f"cannot read {path}: {exc.strerror}") from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CliError(f"{path}: not JSON ({exc.msg} at line {exc.lineno})") from exc
    if not isinstance(data, list) or not data:
        raise CliError(f"{path}: expected a non-empty JSON array of measurements")
    return data


def _vdaf_text(policy: DpPolicy) -> str:
    vdaf = policy.vdaf
    valid = vdaf.flp.valid
    params = [f"{k}={getattr(valid, k)}" for k in ("length", "max_weight", "max_measurement",
                                                   "chunk_length") if hasattr(valid, k)]
    return f"{type(vdaf).__name__}({', '.join(params + [f'shares={vdaf.SHARES}'])})"


def run_run(args: argparse.Namespace) -> int:
    cls = POLICIES.get(args.name)
    if cls is None:
        raise CliError(f"unknown policy {args.name!r}; known: {', '.join(sorted(POLICIES))}")
    params = _params(args.param, dict(getattr(cls, "PARAMS", {})))
    try:
        seed = bytes.fromhex(args.seed)
        ctx = bytes.fromhex(args.ctx)
    except ValueError as exc:
        raise CliError("--seed and --ctx must be hex") from exc
    required = [name for name, prm in inspect.signature(cls.__init__).parameters.items()
                if name != "self" and prm.default is inspect.Parameter.empty]
    missing = [name for name in required if name not in params]
    if missing:
        raise CliError(f"{args.name}: missing --param {', '.join(f'{m}=...' for m in missing)}")
    measurements = _read_measurements(args.measurements)
    try:
        policy: DpPolicy = cls(**params)
        randomness = PolicyRandomness.derive(seed, policy.vdaf, len(measurements))
        tr = run_vdaf_with_dp_policy(policy, policy.vdaf, ctx, None, measurements, randomness)
    except TypeError as exc:
        raise CliError(f"{args.name}: missing or bad parameters ({exc})") from exc
    except (ValueError, ArithmeticError) as exc:
        raise CliError(f"{args.name}: {exc}") from exc
    rejected = [{"report": i, "reason": r.rejected} for i, r in enumerate(tr.reports) if r.rejected]
    result: dict[str, Any] = {
        "policy": args.name,
        "params": policy.params(),
        "vdaf": _vdaf_text(policy),
        "reports": len(measurements),
        "meas_count": tr.meas_count,
        "rejected": rejected,
        "agg_result": tr.agg_result,
        "debiased_result": policy.debiased_json(tr.debiased_result),
        "noised_agg_shares": [policy.vdaf.encode_agg_share(s).hex() for s in tr.noised_agg_shares],
        "guarantee": policy.guarantee(tr.meas_count),
    }
    if args.json:
        print(json.dumps(result, indent=2, sort_keys=True))
        return 0
    print(f"policy      {args.name}: {', '.join(f'{k}={v}' for k, v in result['params'].items())}")
    print(f"vdaf        {result['vdaf']}")
    print(f"reports     {len(measurements)} submitted, {tr.meas_count} aggregated"
          + (f", {len(rejected)} rejected" if rejected else ""))
    for r in rejected:
        print(f"  rejected  report {r['report']}: {r['reason']}")
    print(f"aggregate   {json.dumps(tr.agg_result)}")
    short = [x if "." not in x else f"{Decimal(x):.4f}" for x in result["debiased_result"]]
    print(f"debiased    [{', '.join(short)}]" + ("  (4 decimals shown; --json has 20 digits)"
                                                 if short != result["debiased_result"] else ""))
    print("guarantee")
    for key, value in result["guarantee"].items():
        print(f"  {key}: {value}")
    return 0
