"""DpPolicy and run_vdaf_with_dp_policy (sec. 5 and 5.1 of the DP draft), every random input explicit.

A DP policy composes three optional steps with a VDAF (sec. 5):

1. Client randomization: ``add_noise_to_measurement`` before sharding;
2. Aggregator randomization: ``add_noise_to_agg_share`` on each Aggregator's aggregate share,
   before it is sent to the Collector;
3. debiasing: ``debias_agg_result`` after unsharding.

dpspec's interface differs from the draft's only by making randomness an argument: the two noise
steps take a :class:`dpspec.spec.tape.RandomTape`, and ``add_noise_to_agg_share`` also receives the
number of reports the Aggregator aggregated (needed by the App. B.1 hybrid, and known to every
Aggregator in DAP). :func:`run_vdaf_with_dp_policy` is sec. 5.1 over the project's Prio3
(``dpspec.spec.vdaf``, VDAF draft-20 names), taking every random input from a
:class:`PolicyRandomness`: the verification key, each report's nonce and sharding randomness,
each Client's noise seed and each Aggregator's noise seed. :meth:`PolicyRandomness.derive`
expands them all from one seed (how the vectors and the CLI fix them).

Rejected reports. A report whose noised measurement the circuit does not accept is dropped and
does not count in ``meas_count``. Prio3's ``shard`` already refuses to encode such a measurement
(e.g. a multi-hot vector heavier than ``max_weight``), so an honest Client detects it and does not
upload; a malicious Client's report fails verification at the Aggregators (``VerifyError``). Both
are recorded in the transcript with the reason.
"""

from __future__ import annotations

import abc
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from dpspec.spec.field import Field
from dpspec.spec.tape import MAX_SEED_SIZE, MIN_SEED_SIZE, RandomTape
from dpspec.spec.vdaf import VerifyError
from dpspec.spec.vdaf.prio3 import Prio3
from dpspec.spec.vdaf.run import ReportTranscript, run_report
from dpspec.spec.xof import XofTurboShake128

#: Domain-separation prefix of :meth:`PolicyRandomness.derive`.
DERIVE_DST = b"dpspec/policy/v1/"
#: Size of each derived noise seed (a RandomTape seed).
NOISE_SEED_SIZE = 32


class DpPolicy(abc.ABC):
    """A DP policy for a VDAF (sec. 5 of the DP draft).

    Attributes: ``vdaf`` (the Prio3 instance the policy runs on), ``NAME``, ``CLIENT_TAG`` and
    ``AGGREGATOR_TAG`` (the tape tags of the two noise steps). Types, as the draft names them:
    ``Measurement`` (what a Client holds), ``AggShare`` (``list[Field]``), ``AggResult`` (the VDAF's
    aggregate result) and ``DebiasedAggResult``; each concrete policy documents them.
    """

    NAME: ClassVar[str] = ""
    CLIENT_TAG: ClassVar[str] = "dpspec/policy/client_noise"
    AGGREGATOR_TAG: ClassVar[str] = "dpspec/policy/aggregator_noise"

    vdaf: Prio3[Any, Any, Any]

    def encode_measurement(self, measurement: Any) -> Any:
        """The policy's measurement from user input (e.g. a bucket index); default: unchanged."""
        return measurement

    def add_noise_to_measurement(self, measurement: Any, tape: RandomTape) -> Any:
        """Client randomization; the default adds nothing and reads nothing from ``tape``."""
        return measurement

    def add_noise_to_agg_share(self, agg_share: list[Field], meas_count: int,
                               tape: RandomTape) -> list[Field]:
        """Aggregator randomization of an aggregate share over ``meas_count`` reports; default none."""
        return agg_share

    def debias_agg_result(self, agg_result: Any, meas_count: int) -> Any:
        """Debiasing after unsharding; the default returns ``agg_result`` unchanged."""
        return agg_result

    @abc.abstractmethod
    def params(self) -> dict[str, Any]:
        """The policy's parameters as they appear in vectors and on the command line."""

    @abc.abstractmethod
    def guarantee(self, meas_count: int, numeric: bool = True) -> dict[str, Any]:
        """The privacy guarantee of a run over ``meas_count`` reports, per trust model (sec. 3.3).

        ``numeric=False`` leaves out figures computed in floating point by ``dpspec.spec.accounting``
        (vector files keep only exact values, so that they regenerate byte for byte anywhere)."""

    def debiased_json(self, debiased: Any) -> Any:
        """The debiased result in vector form (default: integers as decimal strings)."""
        return [str(x) for x in debiased]



class AggregatorNoisePolicy(DpPolicy):
    """A policy whose Aggregators each add integer noise to their aggregate share (sec. 6.1.2).

    ``mechanism`` is an additive integer mechanism (``sample_noise(dimension, tape)``); the
    Collector maps each unsharded count back to a signed integer (:func:`to_signed`).
    """

    mechanism: Any

    def add_noise_to_agg_share(self, agg_share: list[Field], meas_count: int,
                               tape: RandomTape) -> list[Field]:
        return add_integer_noise(agg_share, self.mechanism.sample_noise(len(agg_share), tape))

    def debias_agg_result(self, agg_result: Any, meas_count: int) -> list[int]:
        q = self.vdaf.field.MODULUS
        return [to_signed(x, q) for x in agg_result]

# -- randomness --------------------------------------------------------------------------------
def _derive(seed: bytes, label: str, index: int, length: int) -> bytes:
    return XofTurboShake128(seed, DERIVE_DST + label.encode("ascii"),
                            index.to_bytes(4, "big")).next(length)


@dataclass(frozen=True)
class PolicyRandomness:
    """Every random input of one run of :func:`run_vdaf_with_dp_policy`.

    ``verify_key`` (``VERIFY_KEY_SIZE`` bytes); per report ``i``: ``nonces[i]`` (``NONCE_SIZE``),
    ``rands[i]`` (``RAND_SIZE``), ``client_noise_seeds[i]`` (the seed of the Client's noise tape,
    tag ``policy.CLIENT_TAG``); per Aggregator ``j``: ``aggregator_noise_seeds[j]`` (tag
    ``policy.AGGREGATOR_TAG``). Production deployments draw each from a CSPRNG, independently.
    """

    verify_key: bytes
    nonces: list[bytes]
    rands: list[bytes]
    client_noise_seeds: list[bytes]
    aggregator_noise_seeds: list[bytes]

    @classmethod
    def derive(cls, seed: bytes, vdaf: Prio3[Any, Any, Any], num_reports: int) -> PolicyRandomness:
        """Expand ``seed`` (16 to 255 bytes): each input is ``XofTurboShake128(seed,
        dst = b"dpspec/policy/v1/" || label, binder = be32(index)).next(size)`` with labels
        ``verify_key`` (index 0), ``nonce``, ``rand``, ``client_noise`` (index = report number) and
        ``aggregator_noise`` (index = Aggregator id); noise seeds are 32 bytes.
        """
        if not MIN_SEED_SIZE <= len(seed) <= MAX_SEED_SIZE:
            raise ValueError(f"the policy seed must have {MIN_SEED_SIZE} to {MAX_SEED_SIZE} bytes")
        return cls(
            verify_key=_derive(seed, "verify_key", 0, vdaf.VERIFY_KEY_SIZE),
            nonces=[_derive(seed, "nonce", i, vdaf.NONCE_SIZE) for i in range(num_reports)],
            rands=[_derive(seed, "rand", i, vdaf.RAND_SIZE) for i in range(num_reports)],
            client_noise_seeds=[_derive(seed, "client_noise", i, NOISE_SEED_SIZE)
                                for i in range(num_reports)],
            aggregator_noise_seeds=[_derive(seed, "aggregator_noise", j, NOISE_SEED_SIZE)
                                    for j in range(vdaf.SHARES)],
        )


# -- transcript --------------------------------------------------------------------------------
@dataclass
class PolicyReport:
    """One Client's part: its measurement, the noised measurement, and the VDAF transcript
    (``None`` when the report was rejected; ``rejected`` then says why)."""

    measurement: Any
    noisy_measurement: Any
    vdaf: ReportTranscript | None
    rejected: str | None = None


@dataclass
class PolicyTranscript:
    """A whole run: reports, aggregate shares before and after noise, the results."""

    randomness: PolicyRandomness
    ctx: bytes
    reports: list[PolicyReport] = field(default_factory=list)
    agg_shares: list[list[Field]] = field(default_factory=list)
    noised_agg_shares: list[list[Field]] = field(default_factory=list)
    meas_count: int = 0
    agg_result: Any = None
    debiased_result: Any = None
    #: the Aggregators that skipped ``add_noise_to_agg_share`` (``skip_noise``; empty when honest)
    skipped_noise: list[int] = field(default_factory=list)


def run_vdaf_with_dp_policy(dp_policy: DpPolicy, vdaf: Prio3[Any, Any, Any], ctx: bytes,
                            agg_param: None, measurements: Sequence[Any],
                            randomness: PolicyRandomness,
                            skip_noise: Collection[int] = ()) -> PolicyTranscript:
    """Sec. 5.1 of the DP draft: run ``dp_policy`` with ``vdaf`` on ``measurements``.

    For each report ``i`` in order: the Client noises its measurement with the tape
    ``RandomTape(client_noise_seeds[i], CLIENT_TAG)``, shards it with ``nonces[i]`` and
    ``rands[i]``, and the Aggregators verify it (``dpspec.spec.vdaf.run.run_report``: verify_init,
    verifier_shares_to_message, verify_next, messages encoded and decoded as on the wire). Accepted
    reports are aggregated (agg_init, agg_update); each Aggregator ``j`` then noises its aggregate
    share with ``RandomTape(aggregator_noise_seeds[j], AGGREGATOR_TAG)``; the Collector unshards
    the noised shares with ``meas_count`` = the number of accepted reports and debiases.

    ``skip_noise`` models the dishonest Aggregator of sec. 3.3.2 (TODO issue#15 of the draft):
    each Aggregator listed there sends its aggregate share *without* calling
    ``add_noise_to_agg_share`` (its noise tape is not read). Nothing else changes: VDAF
    verification covers reports, not aggregate shares, so the run completes and the Collector
    unshards and debiases as usual. :mod:`dpspec.spec.policies.corruption` says what guarantee
    remains for each policy.
    """
    skipped = sorted(set(skip_noise))
    if any(isinstance(j, bool) or not isinstance(j, int) or not 0 <= j < vdaf.SHARES
           for j in skipped):
        raise ValueError(f"skip_noise lists Aggregator ids in [0, {vdaf.SHARES})")
    if len(randomness.nonces) != len(measurements) or len(randomness.rands) != len(measurements) \
            or len(randomness.client_noise_seeds) != len(measurements):
        raise ValueError("randomness must hold one nonce, rand and client noise seed per report")
    if len(randomness.aggregator_noise_seeds) != vdaf.SHARES:
        raise ValueError("randomness must hold one noise seed per Aggregator")
    # the sizes are the caller's inputs, not the Client's: a wrong size is refused here rather
    # than recorded as a report the Client "cannot shard" (the draft asserts the nonce size)
    if len(randomness.verify_key) != vdaf.VERIFY_KEY_SIZE:
        raise ValueError(f"the verify key must have {vdaf.VERIFY_KEY_SIZE} bytes")
    if any(len(n) != vdaf.NONCE_SIZE for n in randomness.nonces):
        raise ValueError(f"each nonce must have {vdaf.NONCE_SIZE} bytes")
    if any(len(r) != vdaf.RAND_SIZE for r in randomness.rands):
        raise ValueError(f"each rand must have {vdaf.RAND_SIZE} bytes")
    out = PolicyTranscript(randomness=randomness, ctx=ctx, skipped_noise=skipped)
    agg_shares = [vdaf.agg_init(agg_param) for _ in range(vdaf.SHARES)]
    for i, measurement in enumerate(measurements):
        meas = dp_policy.encode_measurement(measurement)
        tape = RandomTape(randomness.client_noise_seeds[i], dp_policy.CLIENT_TAG)
        noisy = dp_policy.add_noise_to_measurement(meas, tape)
        try:
            report = run_report(vdaf, randomness.verify_key, ctx, agg_param,
                                randomness.nonces[i], noisy, randomness.rands[i])
        except VerifyError as exc:
            out.reports.append(PolicyReport(meas, noisy, None, f"verification: {exc}"))
            continue
        except ValueError as exc:
            out.reports.append(PolicyReport(meas, noisy, None, f"client cannot shard: {exc}"))
            continue
        out.reports.append(PolicyReport(meas, noisy, report))
        for j in range(vdaf.SHARES):
            agg_shares[j] = vdaf.agg_update(agg_param, agg_shares[j], report.out_shares[j])
    meas_count = sum(1 for r in out.reports if r.rejected is None)
    out.meas_count = meas_count
    out.agg_shares = [list(s) for s in agg_shares]
    for j in range(vdaf.SHARES):
        if j in skipped:
            out.noised_agg_shares.append(list(agg_shares[j]))
            continue
        tape = RandomTape(randomness.aggregator_noise_seeds[j], dp_policy.AGGREGATOR_TAG)
        out.noised_agg_shares.append(dp_policy.add_noise_to_agg_share(list(agg_shares[j]),
                                                                      meas_count, tape))
    received = [vdaf.decode_agg_share(agg_param, vdaf.encode_agg_share(s))
                for s in out.noised_agg_shares]
    out.agg_result = vdaf.unshard(agg_param, received, meas_count)
    out.debiased_result = dp_policy.debias_agg_result(out.agg_result, meas_count)
    return out


# -- integers in the field ---------------------------------------------------------------------
def add_integer_noise(agg_share: list[Field], noise: Sequence[int]) -> list[Field]:
    """Add integer noise to a vector of field elements: ``x + (z mod MODULUS)`` coordinate-wise.

    Reducing the noise modulo the field and adding it to one share is the same, after unsharding,
    as adding the integer noise to the true aggregate and reducing the sum (addition commutes with
    reduction); that post-processing keeps the DP guarantee.
    """
    if len(noise) != len(agg_share):
        raise ValueError("noise and aggregate share must have the same length")
    if not agg_share:
        return []
    field_cls = type(agg_share[0])
    q = field_cls.MODULUS
    return [x + field_cls(z % q) for x, z in zip(agg_share, noise, strict=True)]


def to_signed(value: int, modulus: int) -> int:
    """The integer in ``[-(q-1)/2, (q-1)/2]`` congruent to ``value`` (``q`` odd): the draft's TODO
    "interpret large unsigned integers as negative values".

    A noisy count ``T = c + Z`` (true count ``c`` plus the sum ``Z`` of the Aggregators' integer
    noise) reaches the Collector as ``T mod q``. The decoding returns ``T`` exactly iff
    ``|T| <= (q-1)/2``; otherwise the count "wraps" and comes back off by a multiple of ``q``. For
    Field128 (``q ~ 2^128``) and Field64 (``q ~ 2^64``) with the counts and noise scales of any
    real batch this needs noise beyond ``2^62`` standard deviations: it does not happen in practice,
    but the bound is stated so a deployment can check its own parameters (see
    :func:`wrap_bound`).
    """
    value %= modulus
    return value if value <= (modulus - 1) // 2 else value - modulus


def wrap_bound(modulus: int, max_true: int) -> int:
    """The largest ``|Z|`` of total noise for which decoding cannot wrap, given true values in
    ``[0, max_true]``: ``(q-1)/2 - max_true`` (so ``-(q-1)/2 <= c + Z <= (q-1)/2``)."""
    return (modulus - 1) // 2 - max_true
