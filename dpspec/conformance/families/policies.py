"""Vector family ``policies``: DP policies run end to end over Prio3 (dpspec.spec.policies).

Two kinds of files.

``policies/<Vdaf>_<policy>_<label>.json`` -- a policy transcript, in the official VDAF draft-20
test-vector format extended by one top-level key ``dp_policy`` (schema
``dp_policy_transcript-v1.json``). Without ``dp_policy`` the file is an ordinary Prio3 transcript
that any VDAF implementation replays: its ``reports`` are the *accepted* reports, each
``measurement`` being the noised measurement the Client sharded, and ``agg_shares`` /
``agg_result`` are the aggregate shares before Aggregator noise and their unsharding. The
extension holds what the DP policy adds::

    "dp_policy": {
      "name", "params", "vdaf"        the policy (``dpspec policy list``) and its parameters
      "seed"                          the seed PolicyRandomness.derive expanded (informational)
      "client_noise_tag", "aggregator_noise_tag"   tape tags of the two noise steps
      "reports": [                    every report in order, accepted or not:
        {"dp_measurement", "client_noise_seed", "nonce", "rand", "noisy_measurement",
         "vdaf_report_index" (index into the base "reports", or null), "rejected" (reason or null)}]
      "aggregator_noise_seeds"        one per Aggregator
      "noised_agg_shares"             encoded aggregate shares after add_noise_to_agg_share
      "meas_count"                    number of accepted reports
      "agg_result"                    unshard(noised_agg_shares, meas_count)
      "debiased_result"               debias_agg_result(agg_result, meas_count): decimal strings
      "guarantee"                     the privacy guarantee, per trust model (informational)
    }

Harness case (one per file): op ``policies.run`` with inputs ``policy``, ``params``, ``ctx``,
``verify_key``, ``measurements`` (the dp_measurements), ``nonces``, ``rands``,
``client_noise_seeds``, ``aggregator_noise_seeds``; outputs ``noisy_measurements``, ``accepted``,
``agg_shares``, ``noised_agg_shares``, ``meas_count``, ``agg_result``, ``debiased_result``. Debiased
reals (client randomization) compare to 1e-12 relative; all else exactly.

``policies/max_weight.json`` -- envelope format: op ``policies.max_weight`` (length, eps0, p) ->
max_weight, the exact value of sec. 6.1.1 (spec.policies.max_weight).
"""

from __future__ import annotations

import copy
import json
from decimal import Decimal
from fractions import Fraction
from typing import Any

import mpmath

from dpspec.conformance.families.vdaf import format_schema
from dpspec.conformance.jsonargs import HEX, hex_arg, hex_list_arg, int_arg, no_float
from dpspec.conformance.vectors import (
    SCHEMA_ID_PREFIX,
    Case,
    Family,
    Handler,
    TestNumberer,
    VectorFile,
    diff_outputs,
    envelope,
    family_schema,
    invalid_tests,
    test_entry,
    vector_seed,
)
from dpspec.spec.field import FIELDS
from dpspec.spec.policies import (
    POLICIES,
    DpPolicy,
    PolicyRandomness,
    PolicyTranscript,
    run_vdaf_with_dp_policy,
)
from dpspec.spec.policies.adjacency import adjacency_guarantee, adjacency_table
from dpspec.spec.policies.base import add_integer_noise, to_signed, wrap_bound
from dpspec.spec.policies.corruption import skipped_noise_guarantee
from dpspec.spec.policies.dap import run_policy_in_dap
from dpspec.spec.policies.max_weight import honest_overweight, max_weight
from dpspec.spec.sa2 import protocol, tokens

TRANSCRIPT_SCHEMA = "dp_policy_transcript-v1.json"
ENVELOPE_SCHEMA_NAME = "policies-v1.json"
MAX_WEIGHT_PATH = "policies/max_weight.json"
INVALID_PATH = "policies/invalid_runs.json"
RUNS_PATH = "policies/runs.json"
DAP_PATH = "policies/dap_runs.json"
ANALYSIS_PATH = "policies/analysis.json"
CTX = b"dpspec policy vectors"
TOLERANCE = Decimal("1e-12")


def make_policy(name: str, params: dict[str, Any]) -> DpPolicy:
    cls = POLICIES.get(name)
    if cls is None:
        raise ValueError(f"unknown policy {name!r}; known: {', '.join(sorted(POLICIES))}")
    return cls(**params)


def json_measurement(m: Any) -> Any:
    if isinstance(m, list):
        return [bool(x) if isinstance(x, bool) else int(x) for x in m]
    return m


def transcript_outputs(policy: DpPolicy, tr: PolicyTranscript) -> dict[str, Any]:
    vdaf = policy.vdaf
    return {
        "noisy_measurements": [json_measurement(r.noisy_measurement) for r in tr.reports],
        "accepted": [r.rejected is None for r in tr.reports],
        "agg_shares": [vdaf.encode_agg_share(s).hex() for s in tr.agg_shares],
        "noised_agg_shares": [vdaf.encode_agg_share(s).hex() for s in tr.noised_agg_shares],
        "meas_count": tr.meas_count,
        "agg_result": tr.agg_result,
        "debiased_result": policy.debiased_json(tr.debiased_result),
    }


def op_run(args: dict[str, Any]) -> dict[str, Any]:
    """``policies.run``: run a policy over Prio3 with every random input given."""
    params = args["params"]
    if not isinstance(params, dict):
        raise ValueError("params must be an object")
    policy = make_policy(args["policy"], params)
    r = PolicyRandomness(
        verify_key=hex_arg(args, "verify_key"),
        nonces=hex_list_arg(args, "nonces"),
        rands=hex_list_arg(args, "rands"),
        client_noise_seeds=hex_list_arg(args, "client_noise_seeds"),
        aggregator_noise_seeds=hex_list_arg(args, "aggregator_noise_seeds"),
    )
    skip = args.get("skip_noise", [])
    if not isinstance(skip, list):
        raise ValueError("skip_noise must be a list of Aggregator ids")
    tr = run_vdaf_with_dp_policy(policy, policy.vdaf, hex_arg(args, "ctx"), None,
                                 args["measurements"], r, skip_noise=skip)
    return transcript_outputs(policy, tr)


def op_max_weight(args: dict[str, Any]) -> dict[str, Any]:
    return {"max_weight": max_weight(args["length"], no_float(args, "eps0"), no_float(args, "p"))}


def _count(args: dict[str, Any], key: str, minimum: int = 0) -> int:
    value = args[key]
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"{key} must be an integer >= {minimum}")
    return value


def _real(x: Any) -> str:
    return str(mpmath.nstr(x, 20, min_fixed=-30, max_fixed=30))


def _near_cdf_rate(d: int, eps0: int, j: int, sign: int) -> str:
    """p = 1 - Pr[Bin(d - 1, p0) <= j] + sign 1e-60 (75 significant digits; p0 = 1/(e^eps0 + 1))."""
    with mpmath.workdps(150):
        p0 = 1 / (mpmath.exp(eps0) + 1)
        c = mpmath.fsum(mpmath.binomial(d - 1, i) * p0**i * (1 - p0) ** (d - 1 - i)
                        for i in range(j + 1))
        return str(mpmath.nstr(1 - c + sign * mpmath.mpf(10) ** -60, 75, min_fixed=-100,
                               max_fixed=100))


def op_describe(args: dict[str, Any]) -> dict[str, Any]:
    """``policies.describe``: a policy's parameters in force and its guarantee over meas_count
    reports with the figures computed in floating point (numeric=True)."""
    policy = make_policy(args["policy"], args["params"])
    return {"params": policy.params(),
            "guarantee": policy.guarantee(_count(args, "meas_count"), numeric=True)}


def op_honest_overweight(args: dict[str, Any]) -> dict[str, Any]:
    """``policies.honest_overweight``: what the bound m does to honest Clients (reals, 20 digits)."""
    a = honest_overweight(args["length"], no_float(args, "eps0"), args["m"])
    return {"reject_model": _real(a.reject_model), "reject": _real(a.reject),
            "bias_own": _real(a.bias_own), "bias_other": _real(a.bias_other)}


#: keys of adjacency_guarantee that are prose for people (left out of the vectors)
_PROSE = ("definition", "batch_size")


def op_adjacency(args: dict[str, Any]) -> dict[str, Any]:
    """``policies.adjacency``: the exact part of a policy's guarantee under one adjacency."""
    policy = make_policy(args["policy"], args["params"])
    out = adjacency_guarantee(policy, _count(args, "meas_count"), args["adjacency"], numeric=False)
    return {k: v for k, v in out.items() if k not in _PROSE}


def op_skipped_noise(args: dict[str, Any]) -> dict[str, Any]:
    """``policies.skipped_noise``: who is honest, and the effect on the result, when the listed
    Aggregators skip their noise (sec. 3.3.2 of the DP draft)."""
    policy = make_policy(args["policy"], args["params"])
    out = skipped_noise_guarantee(policy, _count(args, "meas_count"), args["skip_noise"], numeric=False)
    utility = out["utility"]
    return {"skipping": out["skipping"], "honest": out["honest"],
            "expected_bias_per_bucket": utility["expected_bias_per_bucket"],
            "noise_sd_per_coordinate": utility.get("noise_sd_per_coordinate")}


def op_adjacency_table(args: dict[str, Any]) -> dict[str, Any]:
    """``policies.adjacency_table``: adjacency_table with the figures computed in floating point
    (aggregate epsilons of the RAPPOR policies, discrete Gaussian delta; 6 digits, rounded up)."""
    policy = make_policy(args["policy"], args["params"])
    table = adjacency_table(policy, _count(args, "meas_count"), numeric=True)
    return {a: {k: v for k, v in g.items() if k not in _PROSE} for a, g in table.items()}


def op_derive_randomness(args: dict[str, Any]) -> dict[str, Any]:
    """``policies.derive_randomness``: PolicyRandomness.derive(seed, policy's VDAF, num_reports)."""
    policy = make_policy(args["policy"], args["params"])
    r = PolicyRandomness.derive(hex_arg(args, "seed"), policy.vdaf, _count(args, "num_reports"))
    return {"verify_key": r.verify_key.hex(), "nonces": [x.hex() for x in r.nonces],
            "rands": [x.hex() for x in r.rands],
            "client_noise_seeds": [x.hex() for x in r.client_noise_seeds],
            "aggregator_noise_seeds": [x.hex() for x in r.aggregator_noise_seeds]}


def op_signed(args: dict[str, Any]) -> dict[str, Any]:
    """``policies.signed``: to_signed(value, modulus) and wrap_bound(modulus, max_true)."""
    q = int_arg(args, "modulus")
    if q < 3 or q % 2 == 0:
        raise ValueError("modulus must be an odd integer >= 3")
    return {"signed": str(to_signed(int_arg(args, "value"), q)),
            "wrap_bound": str(wrap_bound(q, _count(args, "max_true")))}


def op_add_integer_noise(args: dict[str, Any]) -> dict[str, Any]:
    """``policies.add_integer_noise``: an aggregate share (field elements, decimal strings) plus
    integer noise, coordinate-wise modulo the field."""
    field = FIELDS.get(args["field"])
    if field is None:
        raise ValueError(f"field must be one of {', '.join(FIELDS)}")
    share = []
    for x in args["agg_share"]:
        v = int_arg({"agg_share": x}, "agg_share")
        if not 0 <= v < field.MODULUS:
            raise ValueError("agg_share holds field elements in [0, MODULUS)")
        share.append(field(v))
    noise = [int_arg({"noise": z}, "noise") for z in args["noise"]]
    return {"noised": [str(x.int()) for x in add_integer_noise(share, noise)]}


def op_skipped_noise_statement(args: dict[str, Any]) -> dict[str, Any]:
    """``policies.skipped_noise_statement``: the whole statement of skipped_noise_guarantee
    (numeric=False), as the reference words it: who receives what, the attacker's guarantee, the
    honest Aggregator that kept its noise, the utility."""
    policy = make_policy(args["policy"], args["params"])
    return skipped_noise_guarantee(policy, _count(args, "meas_count"), args["skip_noise"],
                                   numeric=False)


ANALYSIS_HANDLERS: dict[str, Handler] = {"policies.honest_overweight": op_honest_overweight,
                                         "policies.adjacency": op_adjacency,
                                         "policies.skipped_noise": op_skipped_noise,
                                         "policies.adjacency_table": op_adjacency_table,
                                         "policies.derive_randomness": op_derive_randomness,
                                         "policies.signed": op_signed,
                                         "policies.add_integer_noise": op_add_integer_noise,
                                         "policies.skipped_noise_statement":
                                             op_skipped_noise_statement,
                                         "policies.describe": op_describe}


def dap_deployment(args: dict[str, Any]) -> protocol.Deployment:
    """The deployment keys of a ``policies.dap_run`` case (the layout of sa2.collection)."""
    return protocol.Deployment(
        tokens.PrivateKey(int(args["issuerP"], 16), int(args["issuerQ"], 16)),
        hex_arg(args, "leaderHpkeIkm"), hex_arg(args, "helperHpkeIkm"), hex_arg(args, "verifyKey"))


def op_dap_run(args: dict[str, Any]) -> dict[str, Any]:
    """``policies.dap_run``: a policy executed in a DAP-shaped task (sec. 5.2 of the DP draft;
    dpspec.spec.policies.dap.run_policy_in_dap) over the SA2 protocol simulation."""
    policy = make_policy(args["policy"], args["params"])
    recipe = protocol.check_recipe_structure(args["recipe"])
    skip = args.get("skip_noise", [])
    if not isinstance(skip, list):
        raise ValueError("skip_noise must be a list of Aggregator ids")
    run = run_policy_in_dap(policy, recipe, dap_deployment(args), args["measurements"],
                            hex_arg(args, "seed"), skip_noise=skip)
    vdaf = policy.vdaf
    assert run.outcome is not None
    released = run.agg_result is not None
    return {
        "noisy_measurements": [json_measurement(m) for m in run.noisy_measurements],
        "not_uploaded": run.not_uploaded,
        "verdicts": run.outcome.verdicts,
        "meas_count": run.meas_count,
        "agg_shares": [vdaf.encode_agg_share(s).hex() for s in run.agg_shares],
        "noised_agg_shares": [vdaf.encode_agg_share(s).hex() for s in run.noised_agg_shares],
        "agg_result": run.agg_result,
        "debiased_result": policy.debiased_json(run.debiased_result) if released else None,
    }
REAL_OUTPUTS = ("reject_model", "reject", "bias_own", "bias_other")
REAL_TOLERANCE = Decimal("1e-15")


def transcript_doc(name: str, params: dict[str, Any], seed: bytes, measurements: list[Any],
                   purpose: str) -> dict[str, Any]:
    """A policy transcript file (see the module docstring)."""
    policy = make_policy(name, params)
    vdaf = policy.vdaf
    r = PolicyRandomness.derive(seed, vdaf, len(measurements))
    tr = run_vdaf_with_dp_policy(policy, vdaf, CTX, None, measurements, r)
    ops: list[dict[str, Any]] = []
    base_reports: list[dict[str, Any]] = []
    dp_reports: list[dict[str, Any]] = []
    for i, rep in enumerate(tr.reports):
        entry = {"dp_measurement": json_measurement(rep.measurement),
                 "client_noise_seed": r.client_noise_seeds[i].hex(),
                 "nonce": r.nonces[i].hex(), "rand": r.rands[i].hex(),
                 "noisy_measurement": json_measurement(rep.noisy_measurement),
                 "vdaf_report_index": None, "rejected": rep.rejected}
        if rep.vdaf is not None:
            k = len(base_reports)
            entry["vdaf_report_index"] = k
            v = rep.vdaf
            ops.append({"operation": "shard", "report_index": k, "success": True})
            ops += [{"operation": "verify_init", "aggregator_id": j, "report_index": k,
                     "success": True} for j in range(vdaf.SHARES)]
            ops.append({"operation": "verifier_shares_to_message", "round": 0, "report_index": k,
                        "success": True})
            ops += [{"operation": "verify_next", "round": 1, "aggregator_id": j, "report_index": k,
                     "success": True} for j in range(vdaf.SHARES)]
            base_reports.append({
                "measurement": json_measurement(v.measurement), "nonce": v.nonce.hex(),
                "rand": v.rand.hex(), "public_share": v.public_share.hex(),
                "input_shares": [s.hex() for s in v.input_shares],
                "verifier_shares": [[s.hex() for s in rnd] for rnd in v.verifier_shares],
                "verifier_messages": [m.hex() for m in v.verifier_messages],
                "out_shares": [vdaf.encode_out_share(s).hex() for s in v.out_shares]})
        dp_reports.append(entry)
    ops += [{"operation": "aggregate", "aggregator_id": j, "success": True}
            for j in range(vdaf.SHARES)]
    ops.append({"operation": "unshard", "success": True})
    plain_result = vdaf.unshard(None, tr.agg_shares, tr.meas_count)
    vdaf_params = {k: getattr(vdaf.flp.valid, k) for k in ("length", "max_weight", "max_measurement",
                                                           "chunk_length")
                   if hasattr(vdaf.flp.valid, k)}
    out = transcript_outputs(policy, tr)
    return {
        **vdaf_params,
        "shares": vdaf.SHARES,
        "verify_key": r.verify_key.hex(),
        "agg_param": "",
        "ctx": CTX.hex(),
        "operations": ops,
        "reports": base_reports,
        "agg_shares": out["agg_shares"],
        "agg_result": plain_result,
        "dp_policy": {
            "name": name, "params": policy.params(), "vdaf": type(vdaf).__name__,
            "purpose": purpose, "seed": seed.hex(),
            "client_noise_tag": policy.CLIENT_TAG, "aggregator_noise_tag": policy.AGGREGATOR_TAG,
            "reports": dp_reports,
            "aggregator_noise_seeds": [s.hex() for s in r.aggregator_noise_seeds],
            "noised_agg_shares": out["noised_agg_shares"],
            "meas_count": tr.meas_count,
            "agg_result": tr.agg_result,
            "debiased_result": out["debiased_result"],
            "guarantee": policy.guarantee(tr.meas_count, numeric=False),
        },
    }


#: (file stem, policy name, params, measurements, purpose)
SETS: list[tuple[str, str, dict[str, Any], list[Any], str]] = [
    ("Prio3MultihotCountVec_multihot-client-rr_d10_eps5", "multihot-client-rr",
     {"length": 10, "eps0": "5"}, [0, 1, 2, 3, 3, 3, 9, 9], "sec. 6.1.1, small"),
    ("Prio3MultihotCountVec_multihot-client-rr_d100_eps6.5", "multihot-client-rr",
     {"length": 100, "eps0": "13/2"}, [7, 7, 42, 99, 0], "sec. 6.1.1, EPSILON_0 of Table 1"),
    ("Prio3MultihotCountVec_multihot-client-rr_d8_rejected", "multihot-client-rr",
     {"length": 8, "eps0": "1/2", "p": "1/2"}, [1, 2, 3, 4, 5, 6, 7, 0, 1, 2],
     "p = 1/2 makes max_weight small: some honest reports are too heavy and are not uploaded"),
    ("Prio3Histogram_histogram-aggregator-gaussian_d10_sigma2", "histogram-aggregator-gaussian",
     {"length": 10, "sigma2": "1369/25"}, [0, 0, 1, 5, 9, 9, 9], "sec. 6.1.2, sigma = 7.4 given"),
    ("Prio3Histogram_histogram-aggregator-gaussian_d10_eps1.528", "histogram-aggregator-gaussian",
     {"length": 10, "epsilon": "1.528", "delta": "1e-9"}, [2, 2, 2, 3, 4, 8],
     "sec. 6.1.2, sigma calibrated for (1.528, 1e-9) as in Table 2 (sigma = 5.18535205610)"),
    ("Prio3SumVec_sumvec-aggregator-noise_gaussian_eps1", "sumvec-aggregator-noise",
     {"length": 3, "max_measurement": 2, "noise": "gaussian", "epsilon": "1", "delta": "1e-9"},
     [[2, 2, 2], [0, 1, 2]], "SumVec, discrete Gaussian for (1, 1e-9) through zCDP"),
    ("Prio3MultihotCountVec_multihot-client-rr-fill_d10_target20", "multihot-client-rr-fill",
     {"length": 10, "eps0": "2", "target_count": 20}, [0, 1, 2, 3, 4, 5],
     "App. B.1: 6 of 20 Clients; each Aggregator adds 14 Clients' RAPPOR noise"),
    ("Prio3SumVec_sumvec-aggregator-noise_laplace_eps1", "sumvec-aggregator-noise",
     {"length": 4, "max_measurement": 10, "noise": "laplace", "epsilon": "1"},
     [[1, 2, 3, 4], [10, 10, 0, 0], [0, 0, 0, 7]], "SumVec, discrete Laplace, L1 sensitivity 40"),
    ("Prio3SumVec_sumvec-aggregator-noise_gaussian_rho", "sumvec-aggregator-noise",
     {"length": 4, "max_measurement": 3, "noise": "gaussian", "rho": "1/2"},
     [[1, 2, 3, 0], [3, 3, 3, 3]], "SumVec, discrete Gaussian, rho = 1/2 (sigma^2 = 36)"),
]


def _compare_reals(want: dict[str, Any], got: dict[str, Any]) -> str | None:
    for key in REAL_OUTPUTS:
        try:
            a, b = Decimal(str(want[key])), Decimal(str(got.get(key)))
        except ArithmeticError:
            return f"{key}: not a number"
        if abs(a - b) > REAL_TOLERANCE * abs(a) or (a == 0) != (b == 0):
            return f"{key}: expected {want[key]}, got {got.get(key)}"
    extra = sorted(set(got) - set(want))
    return f"unexpected outputs {extra}" if extra else None


class PoliciesFamily(Family):
    name = "policies"
    summary = "DP policies over Prio3 (sec. 5, 6.1 and App. B.1 of the DP draft)"

    def handlers(self) -> dict[str, Handler]:
        return {"policies.run": op_run, "policies.max_weight": op_max_weight,
                "policies.dap_run": op_dap_run, **ANALYSIS_HANDLERS}

    def cases(self, path: str, doc: Any) -> list[Case]:
        if path in (MAX_WEIGHT_PATH, INVALID_PATH, ANALYSIS_PATH, RUNS_PATH, DAP_PATH):
            return super().cases(path, doc)
        dp = doc["dp_policy"]
        args = {"policy": dp["name"], "params": dp["params"], "ctx": doc["ctx"],
                "verify_key": doc["verify_key"],
                "measurements": [r["dp_measurement"] for r in dp["reports"]],
                "nonces": [r["nonce"] for r in dp["reports"]],
                "rands": [r["rand"] for r in dp["reports"]],
                "client_noise_seeds": [r["client_noise_seed"] for r in dp["reports"]],
                "aggregator_noise_seeds": dp["aggregator_noise_seeds"]}
        expected = {"noisy_measurements": [r["noisy_measurement"] for r in dp["reports"]],
                    "accepted": [r["rejected"] is None for r in dp["reports"]],
                    "agg_shares": doc["agg_shares"], "noised_agg_shares": dp["noised_agg_shares"],
                    "meas_count": dp["meas_count"], "agg_result": dp["agg_result"],
                    "debiased_result": dp["debiased_result"]}
        return [Case(path=path, tc_id=1, op="policies.run", args=args, expected=expected,
                     result="valid", comment=dp["purpose"])]

    def compare(self, case: Case, provided: dict[str, Any]) -> str | None:
        assert case.expected is not None
        if case.op == "policies.honest_overweight":
            return _compare_reals(case.expected, provided)
        if case.op not in ("policies.run", "policies.dap_run"):
            return super().compare(case, provided)
        key = "debiased_result"
        why = diff_outputs({k: v for k, v in case.expected.items() if k != key},
                           {k: v for k, v in provided.items() if k != key})
        if why is not None:
            return why
        want, got = case.expected[key], provided.get(key)
        if want is None:  # a DAP batch below the minimum batch size: nothing released
            return None if got is None else f"{key}: expected null"
        if not isinstance(got, list) or len(got) != len(want):
            return f"{key}: wrong shape"
        for i, (a, b) in enumerate(zip(want, got, strict=True)):
            try:
                da, db = Decimal(str(a)), Decimal(str(b))
            except ArithmeticError:
                return f"{key}[{i}]: not a number"
            if abs(da - db) > TOLERANCE * max(Decimal(1), abs(da)):
                return f"{key}[{i}]: expected {a}, got {b}"
        return None

    def files(self) -> list[VectorFile]:
        files = [VectorFile(f"policies/{stem}.json",
                            transcript_doc(name, params, vector_seed("policies/" + stem), meas,
                                           purpose), TRANSCRIPT_SCHEMA)
                 for stem, name, params, meas, purpose in SETS]
        files.append(self._max_weight_file())
        files.append(self._invalid_file())
        files.append(self._analysis_file())
        files.append(self._runs_file())
        files.append(self._dap_file())
        return files

    def _analysis_file(self) -> VectorFile:
        """honest_overweight, adjacency_guarantee and skipped_noise_guarantee: their exact or
        high-precision outputs, at the branch points of each."""
        rr = ("multihot-client-rr", {"length": 4, "eps0": "2"})
        fill = ("multihot-client-rr-fill", {"length": 4, "eps0": "2", "target_count": 20})
        hist_s = ("histogram-aggregator-gaussian", {"length": 4, "sigma2": "4"})
        hist_e = ("histogram-aggregator-gaussian", {"length": 4, "epsilon": "1", "delta": "1e-9"})
        sv_l = ("sumvec-aggregator-noise", {"length": 3, "max_measurement": 2, "noise": "laplace",
                                            "epsilon": "1"})
        sv_g = ("sumvec-aggregator-noise", {"length": 3, "max_measurement": 2, "noise": "gaussian",
                                            "rho": "1/2"})
        sv_3 = ("sumvec-aggregator-noise", {"length": 3, "max_measurement": 2, "noise": "laplace",
                                            "scale": "5", "shares": 3})
        # non-integer parameters (a rational read as numerator * denominator would show)
        hist_e32 = ("histogram-aggregator-gaussian", {"length": 4, "epsilon": "3/2", "delta": "1e-6"})
        hist_q = ("histogram-aggregator-gaussian", {"length": 4, "sigma2": "1369/25"})
        sv_t = ("sumvec-aggregator-noise", {"length": 3, "max_measurement": 2, "noise": "laplace",
                                            "scale": "7/2"})
        fill_q = ("multihot-client-rr-fill", {"length": 4, "eps0": "3/2", "target_count": 20})
        Test = tuple[str, dict[str, Any], str, list[str]]
        groups: list[tuple[str, list[Test]]] = []
        mw: list[Test] = [(f"d = {d}, EPSILON_0 = {e}, m = {m}", {"length": d, "eps0": e, "m": m},
                           "valid", [])
                          for d, e, m in [(10, "1/2", 3), (100, "5", 2), (1000, "13/2", 4), (1, "1", 1),
                                          (2, "1", 1), (2, "1", 2), (20, "1", 20)]]
        mw += [("m = 0 is refused", {"length": 10, "eps0": "1", "m": 0}, "invalid", ["BadBound"]),
               ("m = length + 1 is refused", {"length": 10, "eps0": "1", "m": 11}, "invalid",
                ["BadBound"]),
               ("EPSILON_0 = 0 is refused", {"length": 10, "eps0": "0", "m": 2}, "invalid",
                ["ZeroEpsilon"])]
        groups.append(("policies.honest_overweight", mw))
        adj: list[Test] = []
        for name, params in (rr, fill, hist_s, hist_e, sv_l, sv_g):
            for n in ((5, 30) if name.endswith("fill") else (5,)):
                for a in ("substitution", "deletion", "coordinate"):
                    adj.append((f"{name} {json.dumps(params)}, {n} reports, {a}",
                                {"policy": name, "params": params, "meas_count": n, "adjacency": a},
                                "valid", []))
        adj.append(("an unknown adjacency is refused", {"policy": rr[0], "params": rr[1],
                                                        "meas_count": 5, "adjacency": "add-remove"},
                    "invalid", ["BadAdjacency"]))
        groups.append(("policies.adjacency", adj))
        skip: list[Test] = []
        for name, params, n, skipped in [(*rr, 5, [0]), (*fill, 5, [0]), (*fill, 5, [0, 1]),
                                         (*fill, 30, [0, 1]), (*fill, 5, []), (*hist_s, 5, [0]),
                                         (*hist_s, 5, [0, 1]), (*sv_l, 5, [1]), (*sv_g, 5, []),
                                         (*sv_3, 5, [2]), (*sv_3, 5, [0, 2])]:
            skip.append((f"{name} {json.dumps(params)}, {n} reports, skipping {skipped}",
                         {"policy": name, "params": params, "meas_count": n, "skip_noise": skipped},
                         "valid", []))
        skip += [("Aggregator 2 of 2 is refused", {"policy": hist_s[0], "params": hist_s[1],
                                                   "meas_count": 5, "skip_noise": [2]}, "invalid",
                  ["BadAggregator"]),
                 ("Aggregator -1 is refused", {"policy": hist_s[0], "params": hist_s[1],
                                               "meas_count": 5, "skip_noise": [-1]}, "invalid",
                  ["BadAggregator"]),
                 ("a boolean Aggregator id is refused", {"policy": hist_s[0], "params": hist_s[1],
                                                         "meas_count": 5, "skip_noise": [True]},
                  "invalid", ["BadAggregator"])]
        groups.append(("policies.skipped_noise", skip))
        # appended groups (the tcIds above are published): the floating-point figures of every
        # adjacency, the derivation of the random inputs, the signed decoding and the noise sum
        table: list[Test] = [
            (f"{name} {json.dumps(params)}, {n} reports", {"policy": name, "params": params,
                                                         "meas_count": n}, "valid", [])
            for name, params, n in [(*rr, 1), (*rr, 2), (*rr, 1000), (*fill, 1), (*fill, 30),
                                    (*hist_s, 5), (*hist_e, 5), (*sv_l, 5), (*sv_g, 5),
                                    (*hist_e32, 5)]]
        table.append(("a negative meas_count is refused", {"policy": rr[0], "params": rr[1],
                                                           "meas_count": -1}, "invalid",
                      ["BadCount"]))
        groups.append(("policies.adjacency_table", table))
        derive: list[Test] = [
            ("a 16-byte seed (the shortest), 2 reports", {"policy": rr[0], "params": rr[1],
                                                          "seed": "00" * 16, "num_reports": 2},
             "valid", []),
            ("a 255-byte seed (the longest), 1 report", {"policy": sv_l[0], "params": sv_l[1],
                                                         "seed": "ab" * 255, "num_reports": 1},
             "valid", []),
            ("three Aggregators, no report", {"policy": sv_3[0], "params": sv_3[1],
                                              "seed": vector_seed("policies/derive").hex(),
                                              "num_reports": 0}, "valid", []),
            ("a 15-byte seed is refused", {"policy": rr[0], "params": rr[1], "seed": "00" * 15,
                                           "num_reports": 2}, "invalid", ["BadSeed"]),
            ("a 256-byte seed is refused", {"policy": rr[0], "params": rr[1], "seed": "00" * 256,
                                            "num_reports": 2}, "invalid", ["BadSeed"])]
        groups.append(("policies.derive_randomness", derive))
        q64, q128 = FIELDS["Field64"].MODULUS, FIELDS["Field128"].MODULUS
        signed: list[Test] = []
        for q in (7, q64, q128):
            h = (q - 1) // 2
            for value, max_true in [(0, 0), (h, 10), (h + 1, h), (q - 1, h + 1), (q, 1), (2 * q + 3, 3),
                                    (-1, 0), (-h - 1, 2)]:
                signed.append((f"q = {q}, value = {value}, max_true = {max_true}",
                               {"modulus": str(q), "value": str(value), "max_true": max_true},
                               "valid", []))
        signed += [("an even modulus is refused", {"modulus": "8", "value": "1", "max_true": 0},
                    "invalid", ["BadModulus"]),
                   ("modulus 1 is refused", {"modulus": "1", "value": "0", "max_true": 0},
                    "invalid", ["BadModulus"])]
        groups.append(("policies.signed", signed))
        noise: list[Test] = [
            ("Field128: small noise of both signs", {"field": "Field128", "agg_share": ["1", "2", "3"],
                                                     "noise": ["-1", "0", "5"]}, "valid", []),
            ("Field64: noise beyond the modulus, both signs",
             {"field": "Field64", "agg_share": [str(q64 - 1), "0"],
              "noise": [str(q64 + 5), str(-q64 - 5)]}, "valid", []),
            ("an empty share and no noise", {"field": "Field128", "agg_share": [], "noise": []},
             "valid", []),
            ("a one-coordinate share", {"field": "Field64", "agg_share": ["7"], "noise": ["-9"]},
             "valid", []),
            ("more noise than coordinates is refused", {"field": "Field128", "agg_share": ["1"],
                                                        "noise": ["1", "2"]}, "invalid",
             ["BadLength"]),
            ("noise for an empty share is refused", {"field": "Field64", "agg_share": [],
                                                     "noise": ["1"]}, "invalid", ["BadLength"]),
            ("an unknown field is refused", {"field": "Field32", "agg_share": ["1"], "noise": ["1"]},
             "invalid", ["BadField"])]
        groups.append(("policies.add_integer_noise", noise))
        statement: list[Test] = [
            (f"{name} {json.dumps(params)}, {n} reports, skipping {skipped}",
             {"policy": name, "params": params, "meas_count": n, "skip_noise": skipped}, "valid", [])
            for name, params, n, skipped in [
                (*rr, 5, [0]), (*fill, 5, [0]), (*fill, 5, [0, 1]), (*fill, 30, [0, 1]),
                (*fill, 20, [1, 0]), (*fill, 5, []), (*hist_s, 5, [0]), (*hist_e, 5, [0, 1]),
                (*sv_l, 5, [1]), (*sv_g, 5, []), (*sv_3, 5, []), (*sv_3, 5, [2]), (*sv_3, 5, [0, 2]),
                (*sv_3, 5, [2, 1, 0]), (*hist_e, 5, [0]), (*hist_q, 5, [1]), (*sv_t, 5, [0]),
                (*fill_q, 5, [0])]]
        statement.append(("Aggregator 3 of 3 is refused", {"policy": sv_3[0], "params": sv_3[1],
                                                          "meas_count": 5, "skip_noise": [3]},
                          "invalid", ["BadAggregator"]))
        groups.append(("policies.skipped_noise_statement", statement))
        mh_all = ("multihot-client-rr", {"length": 6, "eps0": "3/2", "p": "1/100", "delta": "1e-6",
                                         "chunk_length": 3, "shares": 3})
        sv_ed = ("sumvec-aggregator-noise", {"length": 2, "max_measurement": 3, "noise": "gaussian",
                                             "epsilon": "2", "delta": "1e-9"})
        sv_s2 = ("sumvec-aggregator-noise", {"length": 2, "max_measurement": 3, "noise": "gaussian",
                                             "sigma2": "10"})
        def described(name: str, params: dict[str, Any], n: int, why: str = "") -> Test:
            return (f"{name} {json.dumps(params)}, {n} reports" + (f": {why}" if why else ""),
                    {"policy": name, "params": params, "meas_count": n}, "valid", [])

        describe: list[Test] = [
            described(name, params, n)
            for name, params, n in [(*rr, 1), (*rr, 2), (*rr, 1000), (*fill, 5), (*fill, 30),
                                    (*mh_all, 50), (*hist_s, 5), (*hist_e, 5), (*sv_l, 5),
                                    (*sv_g, 5), (*sv_3, 5), (*sv_ed, 5), (*sv_s2, 5)]]
        # appended: the smallest sizes (a measurement of 1 or 2 bits, where the nearest integer
        # to sqrt(MEAS_LEN) is 1: chunk_length 1; length and max_measurement 1 are allowed) and
        # a sigma2 whose root has more than 12 significant digits (sigma is printed to 12)
        describe += [
            described(name, params, n, why)
            for name, params, n, why in [
                ("histogram-aggregator-gaussian", {"length": 2, "sigma2": "2"}, 5,
                 "2 buckets, default chunk_length 1; sigma = sqrt(2) to 12 digits"),
                ("sumvec-aggregator-noise", {"length": 1, "max_measurement": 1, "noise": "laplace",
                                             "scale": "1"}, 5,
                 "length 1 and max_measurement 1 (the least allowed), default chunk_length 1")]]
        groups.append(("policies.describe", describe))
        tc = TestNumberer()
        out_groups = []
        for op, tests in groups:
            handler = ANALYSIS_HANDLERS[op]
            entries: list[dict[str, Any]] = []
            for comment, inputs, result, flags in tests:
                if result == "valid":
                    entries.append(test_entry(tc(), comment, inputs, handler(inputs), result, flags))
                else:
                    [flag] = flags
                    entries += invalid_tests(tc, handler, {}, [(comment, inputs, flag)])
            out_groups.append({"op": op, "params": {}, "tests": entries})
        doc = envelope(
            algorithm="Analyses of the DP policies: honest Clients over max_weight (sec. 6.1.1), "
                      "neighbouring batches (App. B.2), Aggregators that skip their noise (sec. 3.3.2)",
            family=self.name, schema=ENVELOPE_SCHEMA_NAME,
            header=["policies.honest_overweight(length, eps0, m): with p0 = 1/(e^EPSILON_0 + 1),"
                    " C ~ Bin(d-1, p0), C' ~ Bin(d-2, p0) and e = e^EPSILON_0: reject_model ="
                    " Pr[1 + C > m]; reject = 1 - Pr[A] with Pr[A] = (1-p0) Pr[C <= m-1] + p0"
                    " Pr[C <= m]; bias_own = ((e+1)(1-p0) Pr[C <= m-1] - Pr[A])/(e-1) - 1;"
                    " bias_other = ((e+1) p0 ((1-p0) Pr[C' <= m-2] + p0 Pr[C' <= m-1]) - Pr[A])/(e-1)"
                    " (0 when d = 1). Reals with 20 significant digits; compare to 1e-15 relative.",
                    "policies.adjacency(policy, params, meas_count, adjacency): the exact part of"
                    " the guarantee (dpspec.spec.policies.adjacency, numeric=False) without its"
                    " prose keys.",
                    "policies.skipped_noise(policy, params, meas_count, skip_noise): the skipping"
                    " and honest Aggregators, the expected bias of each debiased bucket and the"
                    " standard deviation of the remaining noise"
                    " (dpspec.spec.policies.corruption).",
                    "policies.adjacency_table(policy, params, meas_count): policies.adjacency for"
                    " each of substitution, deletion and coordinate, with the figures computed in"
                    " floating point (numeric=True): the aggregate epsilons of the RAPPOR policies"
                    " (present when at least 2 randomized responses per coordinate) and the exact"
                    " delta of the discrete Gaussian at the calibrated EPSILON, 6 significant"
                    " digits rounded up.",
                    "policies.derive_randomness(policy, params, seed, num_reports):"
                    " PolicyRandomness.derive: each input is XofTurboShake128(seed, dst ="
                    " b'dpspec/policy/v1/' || label, binder = be32(index)).next(size), labels"
                    " verify_key (index 0), nonce, rand, client_noise (index = report number, 32"
                    " bytes), aggregator_noise (index = Aggregator id, 32 bytes).",
                    "policies.signed(modulus, value, max_true): signed = the integer in"
                    " [-(q-1)/2, (q-1)/2] congruent to value; wrap_bound = (q-1)/2 - max_true"
                    " (decimal strings).",
                    "policies.add_integer_noise(field, agg_share, noise): x_i + (z_i mod q) for"
                    " each coordinate (decimal strings).",
                    "policies.skipped_noise_statement(policy, params, meas_count, skip_noise): the"
                    " whole statement of dpspec.spec.policies.corruption.skipped_noise_guarantee"
                    " (numeric=False) as the reference words it, prose included: skipping,"
                    " honest, collector_receives, attacker (the policy's guarantee and a note, or"
                    " the violated trust model), honest_aggregator_keeping_noise, utility. The"
                    " figures are what an implementation must agree on; the wording is the"
                    " reference's.",
                    "policies.describe(policy, params, meas_count): the policy's parameters in"
                    " force (defaults included) and its guarantee over meas_count reports with"
                    " the floating-point figures (numeric=True: the aggregate epsilons of the"
                    " RAPPOR policies, 6 digits rounded up, when meas_count >= 2)."],
            notes={"BadBound": "m must be in [1, length].", "ZeroEpsilon": "EPSILON_0 must be > 0.",
                   "BadAdjacency": "adjacency is substitution, deletion or coordinate.",
                   "BadAggregator": "skip_noise lists Aggregator ids in [0, SHARES).",
                   "BadCount": "meas_count is an integer >= 0.",
                   "BadSeed": "The policy seed has 16 to 255 bytes.",
                   "BadModulus": "The modulus is an odd integer >= 3.",
                   "BadLength": "The noise has one integer per coordinate of the share.",
                   "BadField": "The field is Field64 or Field128."},
            groups=out_groups)
        return VectorFile(ANALYSIS_PATH, doc, ENVELOPE_SCHEMA_NAME)

    def _runs_file(self) -> VectorFile:
        """policies.run in envelope form: Aggregators that skip their noise (sec. 3.3.2) and
        reports the Client cannot shard, with every random input derived from a vector seed."""
        tc = TestNumberer()
        hist = ("histogram-aggregator-gaussian", {"length": 4, "sigma2": "4"})
        fill = ("multihot-client-rr-fill", {"length": 4, "eps0": "2", "target_count": 8})
        rr = ("multihot-client-rr", {"length": 4, "eps0": "2"})
        sv3 = ("sumvec-aggregator-noise", {"length": 3, "max_measurement": 2, "noise": "laplace",
                                           "scale": "5", "shares": 3})
        sv = ("sumvec-aggregator-noise", {"length": 3, "max_measurement": 2, "noise": "gaussian",
                                          "sigma2": "9"})

        def inputs(label: str, name: str, params: dict[str, Any], meas: list[Any],
                   skip: Any) -> dict[str, Any]:
            policy = make_policy(name, params)
            r = PolicyRandomness.derive(vector_seed(f"policies/runs/{label}"), policy.vdaf, len(meas))
            out: dict[str, Any] = {
                "policy": name, "params": params, "ctx": CTX.hex(), "verify_key": r.verify_key.hex(),
                "measurements": meas, "nonces": [x.hex() for x in r.nonces],
                "rands": [x.hex() for x in r.rands],
                "client_noise_seeds": [x.hex() for x in r.client_noise_seeds],
                "aggregator_noise_seeds": [x.hex() for x in r.aggregator_noise_seeds]}
            if skip is not None:
                out["skip_noise"] = skip
            return out

        h_meas = [0, 1, 1, 3]
        f_meas = [0, 1, 2]
        valid: list[tuple[str, dict[str, Any]]] = [
            ("histogram, Aggregator 1 skips its noise", inputs("hist", *hist, h_meas, [1])),
            ("histogram, Aggregator 0 skips its noise", inputs("hist", *hist, h_meas, [0])),
            ("histogram, both skip: the exact histogram", inputs("hist", *hist, h_meas, [0, 1])),
            ("histogram, skip_noise listed twice and out of order", inputs("hist", *hist, h_meas,
                                                                           [1, 0, 1])),
            ("histogram, nobody skips", inputs("hist", *hist, h_meas, [])),
            ("App. B.1 fill, Aggregator 0 skips its fill", inputs("fill", *fill, f_meas, [0])),
            ("App. B.1 fill, both skip", inputs("fill", *fill, f_meas, [0, 1])),
            ("client randomization: skipping is a no-op", inputs("rr", *rr, [0, 3], [1])),
            ("SumVec, three Aggregators, Aggregator 2 skips",
             inputs("sv3", *sv3, [[1, 2, 0], [2, 2, 2]], [2])),
            ("SumVec, three Aggregators, 0 and 2 skip",
             inputs("sv3", *sv3, [[1, 2, 0], [2, 2, 2]], [0, 2])),
            ("SumVec: coordinates above max_measurement or negative cannot be sharded; those "
             "reports are rejected and not counted",
             inputs("sv", *sv, [[1, 1, 1], [3, 0, 0], [0, 0, -1], [2, 2, 2]], None)),
            ("histogram: the length given as a decimal string",
             inputs("hist", "histogram-aggregator-gaussian", {"length": "4", "sigma2": "4"},
                    h_meas, None)),
            ("no report at all: meas_count 0, only noise", inputs("empty", *hist, [], None)),
        ]
        tests = [test_entry(tc(), comment, args, op_run(args)) for comment, args in valid]
        base = inputs("hist", *hist, h_meas, None)
        tests += invalid_tests(tc, op_run, {}, [
            ("Aggregator 2 of 2 is refused", {**base, "skip_noise": [2]}, "BadAggregator"),
            ("Aggregator -1 is refused", {**base, "skip_noise": [0, -1]}, "BadAggregator"),
            ("a boolean Aggregator id is refused", {**base, "skip_noise": [True]}, "BadAggregator"),
            ("an Aggregator id given as a string is refused", {**base, "skip_noise": ["1"]},
             "BadAggregator"),
            ("skip_noise that is not a list is refused", {**base, "skip_noise": 1},
             "BadAggregator"),
            ("three Aggregators: id 3 is refused",
             {**inputs("sv3", *sv3, [[1, 2, 0]], None), "skip_noise": [3]}, "BadAggregator")])
        doc = envelope(
            algorithm="run_vdaf_with_dp_policy (sec. 5.1 of the DP draft) with Aggregators that "
                      "skip their noise (sec. 3.3.2) and reports the Client cannot shard",
            family=self.name, schema=ENVELOPE_SCHEMA_NAME,
            header=["policies.run as in the transcript files, plus an optional input skip_noise"
                    " (default []): the Aggregators listed there send their aggregate share"
                    " without calling add_noise_to_agg_share (their noise tape is not read);"
                    " noised_agg_shares then holds their share unchanged. Each id must be an"
                    " integer in [0, SHARES); repeats are allowed.",
                    "A report whose noised measurement Prio3 cannot shard is not aggregated:"
                    " accepted is false for it and meas_count does not count it."],
            notes={"BadAggregator": "skip_noise lists Aggregator ids in [0, SHARES)."},
            groups=[{"op": "policies.run", "params": {}, "tests": tests}])
        return VectorFile(RUNS_PATH, doc, ENVELOPE_SCHEMA_NAME)

    def _dap_file(self) -> VectorFile:
        """policies.dap_run: a policy in a DAP-shaped task over the SA2 protocol simulation."""
        from dpspec.conformance.families.sa2 import vector_deployment
        from dpspec.spec.sa2.randomizers import Randomizer

        tc = TestNumberer()
        dep = vector_deployment()
        keys = {"issuerP": format(dep.issuer_sk.p, "x"), "issuerQ": format(dep.issuer_sk.q, "x"),
                "leaderHpkeIkm": dep.leader_ikm.hex(), "helperHpkeIkm": dep.helper_ikm.hex(),
                "verifyKey": dep.verify_key.hex()}

        def recipe(r: Randomizer, B: int, chunk_length: int = 2, **over: Any) -> dict[str, Any]:
            args: dict[str, Any] = dict(
                recipe_id="dpspec-policy-dap-vector", task_id=vector_seed("policies/dap/task"),
                randomizer=r, B=B, q=Fraction(1), chunk_length=chunk_length,
                leader_pk=dep.leader_hpke.public_key, helper_pk=dep.helper_hpke.public_key,
                issuer_key=dep.issuer_sk.public_key(), epsilon=Fraction(1000),
                delta=Fraction(1, 2))
            args.update(over)
            return protocol.make_recipe(**args)

        rr4 = Randomizer("randomized_response", 4, Fraction(1, 2))
        rap4 = Randomizer("rappor", 4, Fraction(1, 4))
        rap8 = Randomizer("rappor", 8, Fraction(3775, 10000), Fraction(1, 2))
        hist = ("histogram-aggregator-gaussian", {"length": 4, "sigma2": "16", "chunk_length": 2})
        mh = ("multihot-client-rr", {"length": 4, "eps0": "2", "chunk_length": 2})
        fill = ("multihot-client-rr-fill", {"length": 4, "eps0": "2", "chunk_length": 2,
                                            "target_count": 9})
        heavy = ("multihot-client-rr", {"length": 8, "eps0": "1/2", "p": "1/2", "chunk_length": 2})

        def case(label: str, pol: tuple[str, dict[str, Any]], rec: dict[str, Any], meas: list[Any],
                 skip: list[Any] | None = None) -> dict[str, Any]:
            out = {**keys, "policy": pol[0], "params": pol[1], "recipe": rec,
                   "measurements": meas, "seed": vector_seed(f"policies/dap/{label}").hex()}
            if skip is not None:
                out["skip_noise"] = skip
            return out

        h_meas = [0, 1, 1, 3, 3, 3]
        valid: list[tuple[str, dict[str, Any], list[str]]] = [
            ("Aggregator randomization: both Aggregators noise their shares at collection",
             case("hist", hist, recipe(rr4, 5), h_meas), []),
            ("the batch holds exactly B = 6 reports: released",
             case("hist", hist, recipe(rr4, 6), h_meas), []),
            ("the Helper skips its noise", case("hist", hist, recipe(rr4, 5), h_meas, [1]),
             ["SkipNoise"]),
            ("the Leader skips its noise", case("hist", hist, recipe(rr4, 5), h_meas, [0]),
             ["SkipNoise"]),
            ("both skip: the exact histogram", case("hist", hist, recipe(rr4, 5), h_meas, [1, 0]),
             ["SkipNoise"]),
            ("below the minimum batch size B = 7: nothing released, no noise drawn",
             case("hist", hist, recipe(rr4, 7), h_meas), ["BelowB"]),
            ("Client randomization: the Clients noise before sharding (upload)",
             case("mh", mh, recipe(rap4, 3), [0, 1, 2, 3, 3]), []),
            ("App. B.1: 5 of target_count 9 reports, each Aggregator fills 4",
             case("fill", fill, recipe(rap4, 3), [0, 1, 2, 3, 3]), []),
            ("App. B.1 with the Helper skipping its fill",
             case("fill", fill, recipe(rap4, 3), [0, 1, 2, 3, 3], [1]), ["SkipNoise"]),
            ("noised vectors heavier than max_weight = 4 are not uploaded",
             case("heavy", heavy, recipe(rap8, 3), [3] * 12), ["NotUploaded"]),
            ("a bucket index outside the histogram: Prio3Histogram cannot shard it, that Client"
             " uploads nothing", case("hist", hist, recipe(rr4, 5), [*h_meas, 4]), ["NotUploaded"]),
        ]
        tests = [test_entry(tc(), comment, args, op_dap_run(args), flags=flags)
                 for comment, args, flags in valid]
        base = case("hist", hist, recipe(rr4, 5), h_meas)
        wrong_keys = recipe(rr4, 5, leader_pk=dep.helper_hpke.public_key,
                            helper_pk=dep.leader_hpke.public_key)
        tests += invalid_tests(tc, op_dap_run, {}, [
            ("the policy's histogram has 5 buckets, the recipe's 4",
             {**base, "params": {**hist[1], "length": 5}}, "VdafMismatch"),
            ("chunk_length 1 in the policy, 2 in the recipe",
             {**base, "params": {**hist[1], "chunk_length": 1}}, "VdafMismatch"),
            ("a histogram policy with a RAPPOR recipe (Prio3MultihotCountVec)",
             {**base, "recipe": recipe(rap4, 3)}, "VdafMismatch"),
            ("a multi-hot policy with max_weight 3 and a recipe with max_weight 4",
             {**base, "policy": mh[0], "params": {**mh[1], "p": "1/10"}, "recipe": recipe(rap4, 3)},
             "VdafMismatch"),
            ("a SumVec policy: no SA2 recipe names Prio3SumVec",
             {**base, "policy": "sumvec-aggregator-noise",
              "params": {"length": 4, "max_measurement": 1, "noise": "laplace", "epsilon": "1",
                         "chunk_length": 2}}, "VdafMismatch"),
            ("a policy for three Aggregators", {**base, "params": {**hist[1], "shares": 3}},
             "VdafMismatch"),
            ("the recipe's Aggregator keys are swapped", {**base, "recipe": wrong_keys},
             "KeyMismatch"),
            ("Aggregator 2 of 2 is refused", {**base, "skip_noise": [2]}, "BadAggregator"),
            ("Aggregator -1 is refused", {**base, "skip_noise": [-1]}, "BadAggregator"),
            ("a boolean Aggregator id is refused", {**base, "skip_noise": [True]}, "BadAggregator"),
            ("a multi-hot policy's measurement outside [0, length) (encode_measurement)",
             {**base, "policy": mh[0], "params": mh[1], "recipe": recipe(rap4, 3),
              "measurements": [0, 4]}, "BadMeasurement")])
        doc = envelope(
            algorithm="A DP policy executed in a DAP task (sec. 5.2 of the DP draft, a TODO there):"
                      " dpspec.spec.policies.dap.run_policy_in_dap",
            family=self.name, schema=ENVELOPE_SCHEMA_NAME,
            header=["policies.dap_run(issuerP, issuerQ, leaderHpkeIkm, helperHpkeIkm, verifyKey,"
                    " recipe, policy, params, measurements, seed, skip_noise = []): the keys, the"
                    " recipe and the protocol are those of sa2.collection (vectors/sa2/"
                    "protocol_transcripts.json); the recipe's VDAF must be the policy's (same"
                    " Prio3 variant, two Aggregators, same length, max_weight and chunk_length)"
                    " and its keys the deployment's.",
                    "Upload: Client i encodes its measurement, then add_noise_to_measurement with"
                    " RandomTape(seed, 'dpspec/dap/client_noise/{i}'), obtains its token with"
                    " 'dpspec/dap/token/{i}' and shards and seals the noised measurement with"
                    " 'dpspec/dap/report/{i}' (sa2.collection's report coins); a Client that"
                    " cannot shard is listed in not_uploaded. The anonymizer drops nothing"
                    " and shuffles with 'dpspec/dap/shuffle' (its network tape is"
                    " 'dpspec/dap/network'). verdicts follow arrival order.",
                    "Collection: at or above B accepted reports, Aggregator j (0 Leader, 1 Helper)"
                    " calls add_noise_to_agg_share on its share with meas_count = the number"
                    " accepted and RandomTape(seed, 'dpspec/dap/aggregator_noise/{j}') unless j is"
                    " in skip_noise; the Collector unshards and debiases. Below B nothing is"
                    " released: agg_shares and noised_agg_shares are empty, agg_result and"
                    " debiased_result null. Debiased reals compare to 1e-12 relative."],
            notes={"SkipNoise": "The listed Aggregators send their share without noise.",
                   "BelowB": "Fewer than B accepted reports.",
                   "NotUploaded": "Some Clients' noised vectors cannot be sharded.",
                   "VdafMismatch": "The recipe's VDAF is not the policy's.",
                   "KeyMismatch": "The recipe's keys are not the deployment's.",
                   "BadAggregator": "skip_noise lists Aggregator ids in [0, 2).",
                   "BadMeasurement": "A measurement is outside the policy's domain."},
            groups=[{"op": "policies.dap_run", "params": {}, "tests": tests}])
        return VectorFile(DAP_PATH, doc, ENVELOPE_SCHEMA_NAME)

    def _invalid_file(self) -> VectorFile:
        """Runs an implementation must refuse: each alters one input of a valid run."""
        tc = TestNumberer()
        name, params = "multihot-client-rr", {"length": 4, "eps0": "2"}
        policy = make_policy(name, params)
        seed = vector_seed("policies/invalid")
        r = PolicyRandomness.derive(seed, policy.vdaf, 3)
        valid: dict[str, Any] = {
            "policy": name, "params": params, "ctx": CTX.hex(), "verify_key": r.verify_key.hex(),
            "measurements": [0, 1, 3], "nonces": [x.hex() for x in r.nonces],
            "rands": [x.hex() for x in r.rands],
            "client_noise_seeds": [x.hex() for x in r.client_noise_seeds],
            "aggregator_noise_seeds": [x.hex() for x in r.aggregator_noise_seeds]}
        changes: list[tuple[str, dict[str, Any], str]] = [
            ("bad_params: EPSILON_0 = 0", {"params": {"length": 4, "eps0": "0"}}, "BadParameter"),
            ("bad_params: a float EPSILON_0", {"params": {"length": 4, "eps0": 2.5}}, "BadParameter"),
            ("bad_params: unknown policy", {"policy": "no-such-policy"}, "BadParameter"),
            ("bad_measurements: bucket index 4 of 4", {"measurements": [0, 1, 4]}, "BadMeasurement"),
            ("bad_nonces: one nonce missing", {"nonces": valid["nonces"][:2]}, "BadRandomness"),
            ("bad_aggregator_noise_seeds: one seed for two Aggregators",
             {"aggregator_noise_seeds": valid["aggregator_noise_seeds"][:1]}, "BadRandomness"),
            ("bad_client_noise_seeds: a 15-byte seed",
             {"client_noise_seeds": [valid["client_noise_seeds"][0][:30],
                                     *valid["client_noise_seeds"][1:]]}, "BadRandomness"),
        ]
        # every parameter and measurement check of each policy, one at a time
        hist, sv = "histogram-aggregator-gaussian", "sumvec-aggregator-noise"
        sv_ok: dict[str, Any] = {"length": 3, "max_measurement": 2, "noise": "laplace", "epsilon": "1"}
        changes += [
            ("bad_params: length 5/2 is not an integer", {"params": {"length": "5/2", "eps0": "2"}},
             "BadParameter"),
            ("bad_params: length 0", {"params": {"length": 0, "eps0": "2"}}, "BadParameter"),
            ("bad_params: length true (a boolean)", {"params": {"length": True, "eps0": "2"}},
             "BadParameter"),
            ("bad_params: p = 1", {"params": {"length": 4, "eps0": "2", "p": "1"}}, "BadParameter"),
            ("bad_params: delta = 0", {"params": {"length": 4, "eps0": "2", "delta": "0"}},
             "BadParameter"),
            ("bad_params: delta = 1", {"params": {"length": 4, "eps0": "2", "delta": "1"}},
             "BadParameter"),
            ("bad_params: chunk_length 0", {"params": {"length": 4, "eps0": "2", "chunk_length": 0}},
             "BadParameter"),
            ("bad_params: one Aggregator", {"params": {"length": 4, "eps0": "2", "shares": 1}},
             "BadParameter"),
            ("bad_params: fill with target_count 0",
             {"policy": "multihot-client-rr-fill",
              "params": {"length": 4, "eps0": "2", "target_count": 0}}, "BadParameter"),
            ("bad_measurements: a one-hot list of length 3 for length 4",
             {"measurements": [0, 1, [0, 0, 1]]}, "BadMeasurement"),
            ("bad_measurements: a list with two ones", {"measurements": [0, 1, [0, 1, 1, 0]]},
             "BadMeasurement"),
            ("bad_measurements: bucket index -1", {"measurements": [0, 1, -1]}, "BadMeasurement"),
            ("bad_measurements: a boolean bucket index", {"measurements": [0, True, 3]},
             "BadMeasurement"),
            ("bad_rands: one rand missing", {"rands": valid["rands"][:2]}, "BadRandomness"),
            ("bad_client_noise_seeds: one seed missing",
             {"client_noise_seeds": valid["client_noise_seeds"][:2]}, "BadRandomness"),
            (f"bad_params: {hist} with sigma2 and (epsilon, delta)",
             {"policy": hist, "params": {"length": 4, "sigma2": "4", "epsilon": "1", "delta": "1e-9"}},
             "BadParameter"),
            (f"bad_params: {hist} with epsilon but no delta",
             {"policy": hist, "params": {"length": 4, "epsilon": "1"}}, "BadParameter"),
            (f"bad_params: {hist} with length 0", {"policy": hist, "params": {"length": 0, "sigma2": "4"}},
             "BadParameter"),
            (f"bad_params: {sv} with noise 'uniform'",
             {"policy": sv, "params": {**sv_ok, "noise": "uniform"}}, "BadParameter"),
            (f"bad_params: {sv}, laplace with epsilon and scale",
             {"policy": sv, "params": {**sv_ok, "scale": "2"}}, "BadParameter"),
            (f"bad_params: {sv}, gaussian with epsilon but no delta",
             {"policy": sv, "params": {**sv_ok, "noise": "gaussian"}}, "BadParameter"),
            (f"bad_params: {sv}, gaussian with rho and sigma2",
             {"policy": sv, "params": {"length": 3, "max_measurement": 2, "noise": "gaussian",
                                       "rho": "1/2", "sigma2": "4"}}, "BadParameter"),
            (f"bad_params: {sv} with max_measurement 0",
             {"policy": sv, "params": {**sv_ok, "max_measurement": 0}}, "BadParameter"),
            (f"bad_measurements: {sv}, a vector of length 2 for length 3",
             {"policy": sv, "params": sv_ok, "measurements": [[1, 1, 1], [1, 1], [0, 0, 0]]},
             "BadMeasurement"),
            (f"bad_measurements: {sv}, a number instead of a vector",
             {"policy": sv, "params": sv_ok, "measurements": [[1, 1, 1], 2, [0, 0, 0]]},
             "BadMeasurement"),
            # the sizes of the random inputs: the caller's error, not a report the Client cannot
            # shard
            ("bad_verify_key: 31 bytes", {"verify_key": valid["verify_key"][:-2]},
             "BadRandomness"),
            ("bad_nonces: the last nonce has 15 bytes",
             {"nonces": [*valid["nonces"][:2], valid["nonces"][2][:-2]]}, "BadRandomness"),
            ("bad_rands: the first rand has one byte too many",
             {"rands": [valid["rands"][0] + "00", *valid["rands"][1:]]}, "BadRandomness"),
            ("bad_measurements: a one-hot list with a float 1.0", {"measurements": [0, 1, [0, 1.0, 0, 0]]},
             "BadMeasurement"),
            ("bad_measurements: a one-hot list of booleans",
             {"measurements": [0, 1, [False, True, False, False]]}, "BadMeasurement"),
            ("bad_measurements: a one-hot list of length 5 for length 4",
             {"measurements": [0, 1, [0, 0, 0, 1, 0]]}, "BadMeasurement"),
            ("bad_measurements: a one-hot list with no one", {"measurements": [0, 1, [0, 0, 0, 0]]},
             "BadMeasurement"),
            ("bad_measurements: a bucket index given as a string", {"measurements": [0, 1, "2"]},
             "BadMeasurement"),
            (f"bad_measurements: {sv}, a float coordinate 1.5",
             {"policy": sv, "params": sv_ok, "measurements": [[1, 1, 1], [1, 1.5, 0], [0, 0, 0]]},
             "BadMeasurement"),
            (f"bad_measurements: {sv}, a boolean coordinate",
             {"policy": sv, "params": sv_ok, "measurements": [[1, 1, 1], [1, True, 0], [0, 0, 0]]},
             "BadMeasurement"),
            (f"bad_measurements: {sv}, a vector of length 4 for length 3",
             {"policy": sv, "params": sv_ok, "measurements": [[1, 1, 1], [1, 1, 1, 1], [0, 0, 0]]},
             "BadMeasurement"),
            ("bad_params: shares 0", {"params": {"length": 4, "eps0": "2", "shares": 0}},
             "BadParameter"),
            (f"bad_params: {hist} with sigma2 and epsilon only",
             {"policy": hist, "params": {"length": 4, "sigma2": "4", "epsilon": "1"}}, "BadParameter"),
            (f"bad_params: {hist} with sigma2 and delta only",
             {"policy": hist, "params": {"length": 4, "sigma2": "4", "delta": "1e-9"}}, "BadParameter"),
            (f"bad_params: {hist} with delta but no epsilon",
             {"policy": hist, "params": {"length": 4, "delta": "1e-9"}}, "BadParameter"),
            (f"bad_params: {hist} with no noise parameter", {"policy": hist, "params": {"length": 4}},
             "BadParameter"),
            (f"bad_params: {hist} with chunk_length 0",
             {"policy": hist, "params": {"length": 4, "sigma2": "4", "chunk_length": 0}}, "BadParameter"),
            (f"bad_params: {hist} with one Aggregator",
             {"policy": hist, "params": {"length": 4, "sigma2": "4", "shares": 1}}, "BadParameter"),
            (f"bad_params: {sv}, laplace with no parameter",
             {"policy": sv, "params": {"length": 3, "max_measurement": 2, "noise": "laplace"}},
             "BadParameter"),
            (f"bad_params: {sv}, laplace with delta",
             {"policy": sv, "params": {**sv_ok, "delta": "1e-9"}}, "BadParameter"),
            (f"bad_params: {sv}, gaussian with (epsilon, delta) and rho",
             {"policy": sv, "params": {"length": 3, "max_measurement": 2, "noise": "gaussian",
                                       "epsilon": "1", "delta": "1e-9", "rho": "1/2"}}, "BadParameter"),
            (f"bad_params: {sv}, gaussian with scale",
             {"policy": sv, "params": {"length": 3, "max_measurement": 2, "noise": "gaussian",
                                       "scale": "2"}}, "BadParameter"),
            (f"bad_params: {sv}, gaussian with nothing",
             {"policy": sv, "params": {"length": 3, "max_measurement": 2, "noise": "gaussian"}},
             "BadParameter"),
            (f"bad_params: {sv} with length 0", {"policy": sv, "params": {**sv_ok, "length": 0}},
             "BadParameter"),
            (f"bad_params: {sv} with chunk_length 0",
             {"policy": sv, "params": {**sv_ok, "chunk_length": 0}}, "BadParameter"),
            (f"bad_params: {sv} with one Aggregator", {"policy": sv, "params": {**sv_ok, "shares": 1}},
             "BadParameter"),
            ("bad_params: chunk_length 3/2", {"params": {"length": 4, "eps0": "2", "chunk_length": "3/2"}},
             "BadParameter"),
        ]
        tests = invalid_tests(tc, op_run, {}, [(comment, {**valid, **change}, flag)
                                               for comment, change, flag in changes])
        doc = envelope(
            algorithm="run_vdaf_with_dp_policy (sec. 5.1 of the DP draft): refused inputs",
            family=self.name, schema=ENVELOPE_SCHEMA_NAME,
            header=["Each test alters one input of a valid policies.run call (same inputs as the"
                    " transcript files' harness cases); the implementation must refuse it."],
            notes={"BadParameter": "A policy parameter is invalid, inexact or the policy unknown.",
                   "BadMeasurement": "A measurement is outside the policy's domain.",
                   "BadRandomness": "The random inputs do not match the reports and Aggregators."},
            groups=[{"op": "policies.run", "params": {}, "tests": tests}])
        return VectorFile(INVALID_PATH, doc, ENVELOPE_SCHEMA_NAME)

    def _max_weight_file(self) -> VectorFile:
        tc = TestNumberer()
        tests = []
        for d in (2, 10, 100, 1000, 10000, 100000):
            for eps0 in ("1", "5", "13/2", "7"):
                inputs: dict[str, Any] = {"length": d, "eps0": eps0, "p": "1/1000000000"}
                tests.append(test_entry(tc(), f"d = {d}, EPSILON_0 = {eps0}, p = 1e-9", inputs,
                                        op_max_weight(inputs)))
        extra: list[tuple[dict[str, Any], str]] = [({"length": 1, "eps0": "3", "p": "1/10"}, "d = 1: m = 1"),
                                ({"length": 8, "eps0": "1/2", "p": "1/2"}, "p = 1/2"),
                                ({"length": 50, "eps0": "2", "p": "0.01"}, "p = 0.01"),
                                # m below the mean of 1 + Bin(d - 1, p0): the search goes downwards
                                ({"length": 1000, "eps0": "1", "p": "9/10"}, "p = 9/10: m below the mean"),
                                ({"length": 1000, "eps0": "1", "p": "99/100"}, "p = 99/100"),
                                ({"length": 100000, "eps0": "1/2", "p": "1/2"}, "p = 1/2, d = 10^5"),
                                ({"length": 2, "eps0": "1", "p": "9/10"}, "d = 2, p = 9/10: m = 1")]
        for inputs, comment in extra:
            tests.append(test_entry(tc(), comment, inputs, op_max_weight(inputs)))
        bad: list[tuple[dict[str, Any], str, str]] = [
            ({"length": 10, "eps0": "0", "p": "1/10"}, "EPSILON_0 = 0 is refused", "ZeroEpsilon"),
            ({"length": 10, "eps0": "1", "p": "0"}, "p = 0 is refused", "BadRate"),
            ({"length": 10, "eps0": "1", "p": 0.5}, "a float p is refused", "FloatParameter"),
            ({"length": 0, "eps0": "1", "p": "1/10"}, "length 0 is refused", "BadLength"),
        ]
        tests += invalid_tests(tc, op_max_weight, {}, [(comment, inputs, flag)
                                                       for inputs, comment, flag in bad])
        # appended (the tcIds above are published): p within 1e-60 of 1 - Pr[C <= j], so that
        # the 128-bit enclosure of the CDF cannot decide Pr[C <= j] >= 1 - p and the precision
        # doubles; j is met at each step of the search (the start, downwards, upwards, bisection)
        for j in range(6):
            for sign, side in ((1, "just below"), (-1, "just above")):
                inputs = {"length": 10, "eps0": "1", "p": _near_cdf_rate(10, 1, j, sign)}
                tests.append(test_entry(
                    tc(), f"1 - p {side} Pr[Bin(9, p0) <= {j}] by 1e-60: undecided at 128 bits",
                    inputs, op_max_weight(inputs), flags=["Precision"]))
        # appended: m = 1 found by the downward search, which starts at j = floor((d-1) p0) = 1
        # and must evaluate Pr[C <= 0] (the search's last step lands on j = 0 exactly)
        inputs = {"length": 11, "eps0": "7/4", "p": "4/5"}
        tests.append(test_entry(tc(), "d = 11, EPSILON_0 = 7/4, p = 4/5: the search down to j = 0, m = 1",
                                inputs, op_max_weight(inputs)))
        doc = envelope(
            algorithm="max_weight of sec. 6.1.1 (draft-wang-ppm-differential-privacy-00)",
            family=self.name, schema=ENVELOPE_SCHEMA_NAME,
            header=["max_weight(d, EPSILON_0, p) = the smallest m >= 1 with"
                    " Pr[1 + Bin(d - 1, p0) <= m] >= 1 - p, p0 = 1/(e^EPSILON_0 + 1), decided"
                    " exactly (rigorous bounds; see dpspec/spec/policies/max_weight.py).",
                    "Rationals are strings ('1/2', '0.01'); p in (0, 1), EPSILON_0 > 0, d >= 1."],
            notes={"ZeroEpsilon": "EPSILON_0 must be > 0.", "BadRate": "p must be in (0, 1).",
                   "FloatParameter": "JSON floats are inexact; rationals are strings.",
                   "BadLength": "The histogram length must be >= 1.",
                   "Precision": "1 - p is within 1e-60 of a value of the CDF: a 128-bit (or any"
                                " double-precision) evaluation cannot decide the comparison;"
                                " the reference doubles its precision until it can."},
            groups=[{"op": "policies.max_weight", "params": {}, "tests": tests}])
        return VectorFile(MAX_WEIGHT_PATH, doc, ENVELOPE_SCHEMA_NAME)

    def schemas(self) -> dict[str, dict[str, Any]]:
        base = copy.deepcopy(format_schema())
        base["$id"] = SCHEMA_ID_PREFIX + TRANSCRIPT_SCHEMA
        base["title"] = ("dpspec DP policy transcript: the draft-20 Prio3 test-vector format plus"
                         " the dp_policy extension")
        base["required"] = [*base["required"], "dp_policy"]
        dp_report = {"type": "object", "additionalProperties": False,
                     "required": ["dp_measurement", "client_noise_seed", "nonce", "rand",
                                  "noisy_measurement", "vdaf_report_index", "rejected"],
                     "properties": {"dp_measurement": {}, "client_noise_seed": HEX, "nonce": HEX,
                                    "rand": HEX, "noisy_measurement": {},
                                    "vdaf_report_index": {"type": ["integer", "null"]},
                                    "rejected": {"type": ["string", "null"]}}}
        base["properties"]["dp_policy"] = {
            "type": "object", "additionalProperties": False,
            "required": ["name", "params", "vdaf", "purpose", "seed", "client_noise_tag",
                         "aggregator_noise_tag", "reports", "aggregator_noise_seeds",
                         "noised_agg_shares", "meas_count", "agg_result", "debiased_result",
                         "guarantee"],
            "properties": {
                "name": {"enum": sorted(POLICIES)}, "params": {"type": "object"},
                "vdaf": {"type": "string"}, "purpose": {"type": "string"}, "seed": HEX,
                "client_noise_tag": {"type": "string"}, "aggregator_noise_tag": {"type": "string"},
                "reports": {"type": "array", "items": dp_report},
                "aggregator_noise_seeds": {"type": "array", "items": HEX},
                "noised_agg_shares": {"type": "array", "items": HEX},
                "meas_count": {"type": "integer", "minimum": 0},
                "agg_result": {"type": "array", "items": {"type": "integer", "minimum": 0}},
                "debiased_result": {"type": "array", "items": {"type": "string"}},
                "guarantee": {"type": "object"}}}
        rat: dict[str, Any] = {"type": ["string", "number"]}
        ops: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
            "policies.max_weight": (
                {"properties": {"length": {"type": "integer"}, "eps0": rat, "p": rat}},
                {"type": "object", "required": ["max_weight"],
                 "properties": {"max_weight": {"type": "integer", "minimum": 1}}}),
            "policies.honest_overweight": (
                {"properties": {"length": {"type": "integer"}, "eps0": rat, "m": {"type": "integer"}}},
                {"type": "object", "required": list(REAL_OUTPUTS),
                 "properties": {k: {"type": "string"} for k in REAL_OUTPUTS}}),
            "policies.adjacency": (
                {"properties": {"policy": {"type": "string"}, "params": {"type": "object"},
                                "meas_count": {"type": "integer"}, "adjacency": {"type": "string"}}},
                {"type": "object", "required": ["adjacency"]}),
            "policies.skipped_noise": (
                {"properties": {"policy": {"type": "string"}, "params": {"type": "object"},
                                "meas_count": {"type": "integer"}, "skip_noise": {"type": "array"}}},
                {"type": "object", "required": ["skipping", "honest", "expected_bias_per_bucket",
                                                "noise_sd_per_coordinate"],
                 "properties": {"skipping": {"type": "array", "items": {"type": "integer"}},
                                "honest": {"type": "array", "items": {"type": "integer"}},
                                "expected_bias_per_bucket": {"type": "string"},
                                "noise_sd_per_coordinate": {"type": ["string", "null"]}}}),
            "policies.run": (
                {"properties": {"policy": {"type": "string"}, "params": {"type": "object"},
                                "ctx": HEX, "verify_key": HEX, "measurements": {"type": "array"},
                                "nonces": {"type": "array", "items": HEX},
                                "rands": {"type": "array", "items": HEX},
                                "client_noise_seeds": {"type": "array", "items": HEX},
                                "aggregator_noise_seeds": {"type": "array", "items": HEX},
                                "skip_noise": {}}},
                {"type": "object"}),
            "policies.adjacency_table": (
                {"properties": {"policy": {"type": "string"}, "params": {"type": "object"},
                                "meas_count": {"type": "integer"}}},
                {"type": "object", "required": ["substitution", "deletion", "coordinate"]}),
            "policies.derive_randomness": (
                {"properties": {"policy": {"type": "string"}, "params": {"type": "object"},
                                "seed": HEX, "num_reports": {"type": "integer"}}},
                {"type": "object", "required": ["verify_key", "nonces", "rands",
                                                "client_noise_seeds", "aggregator_noise_seeds"]}),
            "policies.signed": (
                {"properties": {"modulus": {"type": "string"}, "value": {"type": "string"},
                                "max_true": {"type": "integer"}}},
                {"type": "object", "required": ["signed", "wrap_bound"],
                 "properties": {"signed": {"type": "string"}, "wrap_bound": {"type": "string"}}}),
            "policies.add_integer_noise": (
                {"properties": {"field": {"type": "string"},
                                "agg_share": {"type": "array", "items": {"type": "string"}},
                                "noise": {"type": "array", "items": {"type": "string"}}}},
                {"type": "object", "required": ["noised"]}),
            "policies.skipped_noise_statement": (
                {"properties": {"policy": {"type": "string"}, "params": {"type": "object"},
                                "meas_count": {"type": "integer"}, "skip_noise": {"type": "array"}}},
                {"type": "object", "required": ["skipping", "honest", "collector_receives",
                                                "attacker", "honest_aggregator_keeping_noise",
                                                "utility"]}),
            "policies.describe": (
                {"properties": {"policy": {"type": "string"}, "params": {"type": "object"},
                                "meas_count": {"type": "integer"}}},
                {"type": "object", "required": ["params", "guarantee"]}),
            "policies.dap_run": (
                {"properties": {"issuerP": {"type": "string"}, "issuerQ": {"type": "string"},
                                "leaderHpkeIkm": HEX, "helperHpkeIkm": HEX, "verifyKey": HEX,
                                "recipe": {"type": "object"}, "policy": {"type": "string"},
                                "params": {"type": "object"}, "measurements": {"type": "array"},
                                "seed": HEX, "skip_noise": {}}},
                {"type": "object", "required": ["noisy_measurements", "not_uploaded", "verdicts",
                                                "meas_count", "agg_shares", "noised_agg_shares",
                                                "agg_result", "debiased_result"]}),
        }
        return {TRANSCRIPT_SCHEMA: base,
                ENVELOPE_SCHEMA_NAME: family_schema(ENVELOPE_SCHEMA_NAME, "DP policy parameter vectors",
                                                    ops)}


FAMILY = PoliciesFamily()
