"""Prio3: sec. 7 of the VDAF draft (draft-irtf-cfrg-vdaf-20, wire version 18).

Prio3 turns an FLP (sec. 7.1, here always the FLP of [BBCGGI19], :mod:`dpspec.spec.flp.bbcggi19`) into a
VDAF: the Client secret-shares its encoded measurement and ``PROOFS`` proofs among ``SHARES``
Aggregators (the Leader, id 0, gets vectors; each Helper gets a 32-byte XOF seed); the Aggregators
query their shares, combine the verifier shares and accept the report only if every proof is
accepted and, when the circuit uses joint randomness, they derived the same joint randomness
seed as the Client (sec. 7.2.1-7.2.2). Aggregation is vector addition (sec. 7.2.4-7.2.5).

Messages and their encodings (sec. 7.2.7; ``S = 32``, field elements little-endian, fixed width):

==================  ================================================================
public share        the ``SHARES`` joint randomness parts (``S`` bytes each), or empty
Leader input share  meas_share || proofs_share || [blind]
Helper input share  seed || [blind]
verifier share      verifiers_share || [joint_rand_part]
verifier message    joint_rand_seed, or empty
output/agg share    the ``OUTPUT_LEN`` field elements
==================  ================================================================

``[x]`` is present iff ``flp.JOINT_RAND_LEN > 0``. Every ``decode_*`` raises ValueError for an
encoding of the wrong length or with an element ``>= MODULUS``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Generic, TypeAlias

from dpspec.spec.field import F, Field, Field64, Field128, vec_add, vec_sub
from dpspec.spec.flp.bbcggi19 import FlpBBCGGI19, TestPointError
from dpspec.spec.flp.valid import (
    AggResult,
    Count,
    HigherDegree,
    Histogram,
    Measurement,
    MultihotCountVec,
    Sum,
    SumVec,
)
from dpspec.spec.vdaf import VerifyError
from dpspec.spec.xof import ALGO_CLASS_VDAF, XofTurboShake128, format_dst

__all__ = [
    "Prio3", "Prio3Count", "Prio3HigherDegree", "Prio3Histogram", "Prio3MultihotCountVec", "Prio3Sum",
    "Prio3SumVec", "Prio3SumVecWithMultiproof", "VerifyError", "expand_into_vec",
]

USAGE_MEAS_SHARE = 1
USAGE_PROOF_SHARE = 2
USAGE_JOINT_RANDOMNESS = 3
USAGE_PROVE_RANDOMNESS = 4
USAGE_QUERY_RANDOMNESS = 5
USAGE_JOINT_RAND_SEED = 6
USAGE_JOINT_RAND_PART = 7

PublicShare: TypeAlias = list[bytes] | None
LeaderInputShare: TypeAlias = tuple[list[Any], list[Any], bytes | None]
HelperInputShare: TypeAlias = tuple[bytes, bytes | None]
InputShare: TypeAlias = LeaderInputShare | HelperInputShare
VerifyState: TypeAlias = tuple[list[Any], bytes | None]  # (out_share, corrected joint rand seed)
VerifierShare: TypeAlias = tuple[list[Any], bytes | None]  # (verifiers_share, joint_rand_part)
VerifierMessage: TypeAlias = bytes | None  # the joint randomness seed


def _byte(n: int) -> bytes:
    return bytes([n])


def expand_into_vec(field: type[F], seed: bytes, dst: bytes, binder: bytes, length: int) -> list[F]:
    """``XofTurboShake128.expand_into_vec`` (sec. 6.2), reading the XOF stream in bulk.

    Same output as the element-by-element definition in :mod:`dpspec.spec.xof`: candidates are
    consecutive ``ENCODED_SIZE``-byte little-endian chunks of one stream, masked to the bit length
    of ``MODULUS`` and rejected if ``>= MODULUS``; more chunks are read only to replace rejected
    ones. (``tests/test_prio3.py`` checks the two agree.)
    """
    xof = XofTurboShake128(seed, dst, binder)
    size = field.ENCODED_SIZE
    p = field.MODULUS
    mask = (1 << p.bit_length()) - 1
    out: list[int] = []
    while len(out) < length:
        buf = xof.next((length - len(out)) * size)
        for i in range(0, len(buf), size):
            x = int.from_bytes(buf[i : i + size], "little") & mask
            if x < p:
                out.append(x)
    return field.from_reduced(out)


class Prio3(Generic[Measurement, AggResult, F]):
    """Prio3 over an FLP (sec. 7.2), for ``SHARES`` in ``[2, 256)`` and ``PROOFS`` in ``[1, 256)``."""

    ID: int
    xof = XofTurboShake128
    VERIFY_KEY_SIZE = XofTurboShake128.SEED_SIZE
    NONCE_SIZE = 16
    ROUNDS = 1

    def __init__(self, shares: int, flp: FlpBBCGGI19[Measurement, AggResult, F], num_proofs: int) -> None:
        if isinstance(shares, bool) or not isinstance(shares, int) or not 2 <= shares < 256:
            raise ValueError(f"SHARES must be an integer in [2, 256), got {shares!r}")
        if isinstance(num_proofs, bool) or not isinstance(num_proofs, int) or not 1 <= num_proofs < 256:
            raise ValueError(f"PROOFS must be an integer in [1, 256), got {num_proofs!r}")
        self.flp = flp
        self.field: type[F] = flp.field
        self.SHARES = shares
        self.PROOFS = num_proofs
        seed = self.xof.SEED_SIZE
        self.RAND_SIZE = seed * shares * (2 if flp.JOINT_RAND_LEN > 0 else 1)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(SHARES={self.SHARES}, PROOFS={self.PROOFS}, {self.flp.valid!r})"

    @property
    def uses_joint_rand(self) -> bool:
        return self.flp.JOINT_RAND_LEN > 0

    def domain_separation_tag(self, usage: int, ctx: bytes) -> bytes:
        """``format_dst(0, ID, usage) || ctx`` (sec. 5)."""
        return format_dst(ALGO_CLASS_VDAF, self.ID, usage) + ctx

    # -- sharding (sec. 7.2.1) ---------------------------------------------------------------
    def shard(self, ctx: bytes, measurement: Measurement, nonce: bytes,
              rand: bytes) -> tuple[PublicShare, list[InputShare]]:
        """Split a measurement into a public share and ``SHARES`` input shares.

        ValueError if the nonce or randomness has the wrong size or the measurement is outside
        the circuit's domain (checked by ``flp.encode``)."""
        if len(nonce) != self.NONCE_SIZE:
            raise ValueError(f"nonce must have {self.NONCE_SIZE} bytes, got {len(nonce)}")
        if len(rand) != self.RAND_SIZE:
            raise ValueError(f"rand must have {self.RAND_SIZE} bytes, got {len(rand)}")
        return self.shard_encoded(ctx, self.flp.encode(measurement), nonce, rand)

    def shard_encoded(self, ctx: bytes, meas: list[F], nonce: bytes,
                      rand: bytes) -> tuple[PublicShare, list[InputShare]]:
        """``shard`` after the encoding step, on any vector of ``MEAS_LEN`` field elements.

        An honest Client never calls this directly: it skips the measurement's domain check, so
        it can shard an *invalid* encoded measurement with an honestly computed proof. That is how
        negative test vectors model a malicious Client (verification must then reject)."""
        if len(nonce) != self.NONCE_SIZE:
            raise ValueError(f"nonce must have {self.NONCE_SIZE} bytes, got {len(nonce)}")
        if len(rand) != self.RAND_SIZE:
            raise ValueError(f"rand must have {self.RAND_SIZE} bytes, got {len(rand)}")
        if len(meas) != self.flp.MEAS_LEN:
            raise ValueError(f"encoded measurement must have {self.flp.MEAS_LEN} elements")
        size = self.xof.SEED_SIZE
        seeds = [rand[i : i + size] for i in range(0, self.RAND_SIZE, size)]
        if self.uses_joint_rand:
            return self._shard_with_joint_rand(ctx, meas, nonce, seeds)
        return self._shard_without_joint_rand(ctx, meas, seeds)

    def _shard_without_joint_rand(self, ctx: bytes, meas: list[F],
                                  seeds: list[bytes]) -> tuple[PublicShare, list[InputShare]]:
        helper_shares, prove_seed = seeds[: self.SHARES - 1], seeds[self.SHARES - 1]
        leader_meas_share = meas
        for j, share in enumerate(helper_shares, start=1):
            leader_meas_share = vec_sub(leader_meas_share, self.helper_meas_share(ctx, j, share))
        prove_rands = self.prove_rands(ctx, prove_seed)
        proofs: list[F] = []
        n = self.flp.PROVE_RAND_LEN
        for i in range(self.PROOFS):
            proofs += self.flp.prove(meas, prove_rands[i * n : (i + 1) * n], [])
        leader_proofs_share = proofs
        for j, share in enumerate(helper_shares, start=1):
            leader_proofs_share = vec_sub(leader_proofs_share, self.helper_proofs_share(ctx, j, share))
        input_shares: list[InputShare] = [(leader_meas_share, leader_proofs_share, None)]
        input_shares += [(share, None) for share in helper_shares]
        return None, input_shares

    def _shard_with_joint_rand(self, ctx: bytes, meas: list[F], nonce: bytes,
                               seeds: list[bytes]) -> tuple[PublicShare, list[InputShare]]:
        k = self.SHARES - 1
        helper_shares = seeds[0 : 2 * k : 2]
        helper_blinds = seeds[1 : 2 * k : 2]
        leader_blind, prove_seed = seeds[2 * k], seeds[2 * k + 1]

        leader_meas_share = meas
        joint_rand_parts = []
        for j in range(k):
            helper_meas_share = self.helper_meas_share(ctx, j + 1, helper_shares[j])
            leader_meas_share = vec_sub(leader_meas_share, helper_meas_share)
            joint_rand_parts.append(
                self.joint_rand_part(ctx, j + 1, helper_blinds[j], helper_meas_share, nonce))
        joint_rand_parts.insert(0, self.joint_rand_part(ctx, 0, leader_blind, leader_meas_share, nonce))

        prove_rands = self.prove_rands(ctx, prove_seed)
        joint_rands = self.joint_rands(ctx, self.joint_rand_seed(ctx, joint_rand_parts))
        n, m = self.flp.PROVE_RAND_LEN, self.flp.JOINT_RAND_LEN
        proofs: list[F] = []
        for i in range(self.PROOFS):
            proofs += self.flp.prove(meas, prove_rands[i * n : (i + 1) * n],
                                     joint_rands[i * m : (i + 1) * m])
        leader_proofs_share = proofs
        for j in range(k):
            leader_proofs_share = vec_sub(leader_proofs_share,
                                          self.helper_proofs_share(ctx, j + 1, helper_shares[j]))
        input_shares: list[InputShare] = [(leader_meas_share, leader_proofs_share, leader_blind)]
        input_shares += [(helper_shares[j], helper_blinds[j]) for j in range(k)]
        return joint_rand_parts, input_shares

    # -- verification (sec. 7.2.2) -----------------------------------------------------------
    def verify_init(self, verify_key: bytes, ctx: bytes, agg_id: int, agg_param: None, nonce: bytes,
                    public_share: PublicShare,
                    input_share: InputShare) -> tuple[VerifyState, VerifierShare]:
        """Aggregator ``agg_id`` queries its shares: returns its verification state and verifier share."""
        if len(verify_key) != self.VERIFY_KEY_SIZE:
            raise ValueError(f"verify_key must have {self.VERIFY_KEY_SIZE} bytes")
        if len(nonce) != self.NONCE_SIZE:
            raise ValueError(f"nonce must have {self.NONCE_SIZE} bytes")
        if agg_param is not None:
            raise ValueError("Prio3 has no aggregation parameter (it must be None)")
        self._check_agg_id(agg_id)
        meas_share, proofs_share, blind = self.expand_input_share(ctx, agg_id, input_share)
        out_share = self.flp.truncate(meas_share)

        joint_rands: list[F] = []
        corrected_seed, joint_rand_part = None, None
        if self.uses_joint_rand:
            if blind is None or public_share is None:
                raise ValueError("this Prio3 instance needs a blind and a public share")
            if len(public_share) != self.SHARES:
                raise ValueError(f"public share must hold {self.SHARES} joint randomness parts")
            joint_rand_part = self.joint_rand_part(ctx, agg_id, blind, meas_share, nonce)
            parts = list(public_share)
            parts[agg_id] = joint_rand_part
            corrected_seed = self.joint_rand_seed(ctx, parts)
            joint_rands = self.joint_rands(ctx, corrected_seed)
        elif blind is not None or public_share is not None:
            raise ValueError("this Prio3 instance uses no joint randomness: no blind, no public share")

        query_rands = self.query_rands(verify_key, ctx, nonce)
        pl, ql, jl = self.flp.PROOF_LEN, self.flp.QUERY_RAND_LEN, self.flp.JOINT_RAND_LEN
        verifiers_share: list[F] = []
        for i in range(self.PROOFS):
            try:
                verifiers_share += self.flp.query(
                    meas_share, proofs_share[i * pl : (i + 1) * pl], query_rands[i * ql : (i + 1) * ql],
                    joint_rands[i * jl : (i + 1) * jl], self.SHARES)
            except TestPointError as exc:
                raise VerifyError("test_point", f"proof {i}: {exc}") from exc
        return (out_share, corrected_seed), (verifiers_share, joint_rand_part)

    def verifier_shares_to_message(self, ctx: bytes, agg_param: None,
                                   verifier_shares: Sequence[VerifierShare]) -> VerifierMessage:
        """Combine the verifier shares, decide each proof (VerifyError ``"proof"`` if one is
        rejected) and derive the joint randomness seed from the Aggregators' parts."""
        if len(verifier_shares) != self.SHARES:
            raise ValueError(f"expected {self.SHARES} verifier shares, got {len(verifier_shares)}")
        vl = self.flp.VERIFIER_LEN
        verifiers = self.field.zeros(vl * self.PROOFS)
        parts = []
        for verifiers_share, part in verifier_shares:
            verifiers = vec_add(verifiers, verifiers_share)
            if self.uses_joint_rand:
                if part is None:
                    raise ValueError("verifier share lacks its joint randomness part")
                parts.append(part)
        for i in range(self.PROOFS):
            why = self.flp.why_rejected(verifiers[i * vl : (i + 1) * vl])
            if why is not None:
                raise VerifyError("proof", f"proof {i}: {why}")
        return self.joint_rand_seed(ctx, parts) if self.uses_joint_rand else None

    def verify_next(self, ctx: bytes, verify_state: VerifyState,
                    verifier_message: VerifierMessage) -> list[F]:
        """The output share, once the joint randomness seed matches (VerifyError ``"joint_rand"``)."""
        out_share, corrected_seed = verify_state
        if verifier_message != corrected_seed:
            raise VerifyError("joint_rand", "the Aggregators' joint randomness seed differs from "
                              "the one the Client used")
        return out_share

    # -- aggregation and unsharding (sec. 7.2.3-7.2.5) -----------------------------------------
    def is_valid(self, agg_param: None, previous_agg_params: Sequence[None]) -> bool:
        """A report is aggregated at most once (sec. 7.2.3)."""
        return len(previous_agg_params) == 0

    def agg_init(self, agg_param: None) -> list[F]:
        return self.field.zeros(self.flp.OUTPUT_LEN)

    def agg_update(self, agg_param: None, agg_share: list[F], out_share: list[F]) -> list[F]:
        return vec_add(agg_share, out_share)

    def merge(self, agg_param: None, agg_shares: Sequence[list[F]]) -> list[F]:
        agg = self.agg_init(agg_param)
        for share in agg_shares:
            agg = vec_add(agg, share)
        return agg

    def unshard(self, agg_param: None, agg_shares: Sequence[list[F]], num_measurements: int) -> AggResult:
        return self.flp.decode(self.merge(agg_param, agg_shares), num_measurements)

    # -- auxiliary functions (sec. 7.2.6) ------------------------------------------------------
    def helper_meas_share(self, ctx: bytes, agg_id: int, share: bytes) -> list[F]:
        return expand_into_vec(self.field, share, self.domain_separation_tag(USAGE_MEAS_SHARE, ctx),
                               _byte(agg_id), self.flp.MEAS_LEN)

    def helper_proofs_share(self, ctx: bytes, agg_id: int, share: bytes) -> list[F]:
        return expand_into_vec(self.field, share, self.domain_separation_tag(USAGE_PROOF_SHARE, ctx),
                               _byte(self.PROOFS) + _byte(agg_id), self.flp.PROOF_LEN * self.PROOFS)

    def expand_input_share(self, ctx: bytes, agg_id: int,
                           input_share: InputShare) -> tuple[list[F], list[F], bytes | None]:
        if agg_id > 0:
            if len(input_share) != 2:
                raise ValueError("a Helper input share is (seed, blind)")
            share, blind = input_share
            if not isinstance(share, bytes):
                raise ValueError("a Helper input share starts with its seed")
            return (self.helper_meas_share(ctx, agg_id, share),
                    self.helper_proofs_share(ctx, agg_id, share), blind)
        if len(input_share) != 3:
            raise ValueError("the Leader input share is (meas_share, proofs_share, blind)")
        meas_share, proofs_share, blind = input_share
        if len(meas_share) != self.flp.MEAS_LEN or len(proofs_share) != self.flp.PROOF_LEN * self.PROOFS:
            raise ValueError("Leader input share has the wrong length")
        return list(meas_share), list(proofs_share), blind

    def prove_rands(self, ctx: bytes, prove_seed: bytes) -> list[F]:
        return expand_into_vec(self.field, prove_seed,
                               self.domain_separation_tag(USAGE_PROVE_RANDOMNESS, ctx),
                               _byte(self.PROOFS), self.flp.PROVE_RAND_LEN * self.PROOFS)

    def query_rands(self, verify_key: bytes, ctx: bytes, nonce: bytes) -> list[F]:
        return expand_into_vec(self.field, verify_key,
                               self.domain_separation_tag(USAGE_QUERY_RANDOMNESS, ctx),
                               _byte(self.PROOFS) + nonce, self.flp.QUERY_RAND_LEN * self.PROOFS)

    def joint_rand_part(self, ctx: bytes, agg_id: int, blind: bytes, meas_share: Sequence[F],
                        nonce: bytes) -> bytes:
        return self.xof.derive_seed(blind, self.domain_separation_tag(USAGE_JOINT_RAND_PART, ctx),
                                    _byte(agg_id) + nonce + self.field.encode_vec(meas_share))

    def joint_rand_seed(self, ctx: bytes, joint_rand_parts: Sequence[bytes]) -> bytes:
        return self.xof.derive_seed(bytes(self.xof.SEED_SIZE),
                                    self.domain_separation_tag(USAGE_JOINT_RAND_SEED, ctx),
                                    b"".join(joint_rand_parts))

    def joint_rands(self, ctx: bytes, joint_rand_seed: bytes) -> list[F]:
        return expand_into_vec(self.field, joint_rand_seed,
                               self.domain_separation_tag(USAGE_JOINT_RANDOMNESS, ctx),
                               _byte(self.PROOFS), self.flp.JOINT_RAND_LEN * self.PROOFS)

    def _check_agg_id(self, agg_id: int) -> None:
        if isinstance(agg_id, bool) or not isinstance(agg_id, int) or not 0 <= agg_id < self.SHARES:
            raise ValueError(f"agg_id must be in [0, {self.SHARES}), got {agg_id!r}")

    # -- message encoding (sec. 7.2.7) ---------------------------------------------------------
    def _take(self, encoded: bytes, length: int, what: str) -> tuple[bytes, bytes]:
        if len(encoded) < length:
            raise ValueError(f"{what}: truncated encoding ({len(encoded)} bytes, need {length})")
        return encoded[:length], encoded[length:]

    def _decode_field_vec(self, encoded: bytes, length: int, what: str) -> list[F]:
        if len(encoded) != length * self.field.ENCODED_SIZE:
            raise ValueError(f"{what}: expected {length * self.field.ENCODED_SIZE} bytes, "
                             f"got {len(encoded)}")
        return self.field.decode_vec(encoded)

    def encode_public_share(self, public_share: PublicShare) -> bytes:
        return b"".join(public_share) if public_share is not None else b""

    def decode_public_share(self, encoded: bytes) -> PublicShare:
        if not self.uses_joint_rand:
            if encoded:
                raise ValueError("public share: must be empty for this Prio3 instance")
            return None
        size = self.xof.SEED_SIZE
        if len(encoded) != size * self.SHARES:
            raise ValueError(f"public share: expected {size * self.SHARES} bytes, got {len(encoded)}")
        return [encoded[i : i + size] for i in range(0, len(encoded), size)]

    def encode_input_share(self, input_share: InputShare) -> bytes:
        if len(input_share) == 3:
            meas_share, proofs_share, blind = input_share
            out = self.field.encode_vec(meas_share) + self.field.encode_vec(proofs_share)
        else:
            seed, blind = input_share
            out = bytes(seed)
        return out + (bytes(blind) if blind is not None else b"")

    def decode_input_share(self, agg_id: int, encoded: bytes) -> InputShare:
        self._check_agg_id(agg_id)
        size = self.xof.SEED_SIZE
        if agg_id == 0:
            n_meas = self.flp.MEAS_LEN * self.field.ENCODED_SIZE
            n_proofs = self.flp.PROOF_LEN * self.PROOFS * self.field.ENCODED_SIZE
            meas_bytes, rest = self._take(encoded, n_meas, "Leader input share")
            proofs_bytes, rest = self._take(rest, n_proofs, "Leader input share")
            blind = None
            if self.uses_joint_rand:
                blind, rest = self._take(rest, size, "Leader input share")
            if rest:
                raise ValueError(f"Leader input share: {len(rest)} trailing bytes")
            return (self._decode_field_vec(meas_bytes, self.flp.MEAS_LEN, "meas_share"),
                    self._decode_field_vec(proofs_bytes, self.flp.PROOF_LEN * self.PROOFS,
                                           "proofs_share"), blind)
        seed, rest = self._take(encoded, size, "Helper input share")
        blind = None
        if self.uses_joint_rand:
            blind, rest = self._take(rest, size, "Helper input share")
        if rest:
            raise ValueError(f"Helper input share: {len(rest)} trailing bytes")
        return seed, blind

    def encode_verifier_share(self, verifier_share: VerifierShare) -> bytes:
        verifiers_share, part = verifier_share
        return self.field.encode_vec(verifiers_share) + (part if part is not None else b"")

    def decode_verifier_share(self, verify_state: VerifyState | None, encoded: bytes) -> VerifierShare:
        n = self.flp.VERIFIER_LEN * self.PROOFS * self.field.ENCODED_SIZE
        vec_bytes, rest = self._take(encoded, n, "verifier share")
        part = None
        if self.uses_joint_rand:
            part, rest = self._take(rest, self.xof.SEED_SIZE, "verifier share")
        if rest:
            raise ValueError(f"verifier share: {len(rest)} trailing bytes")
        return self._decode_field_vec(vec_bytes, self.flp.VERIFIER_LEN * self.PROOFS,
                                      "verifier share"), part

    def encode_verifier_message(self, verifier_message: VerifierMessage) -> bytes:
        return verifier_message if verifier_message is not None else b""

    def decode_verifier_message(self, verify_state: VerifyState | None, encoded: bytes) -> VerifierMessage:
        if not self.uses_joint_rand:
            if encoded:
                raise ValueError("verifier message: must be empty for this Prio3 instance")
            return None
        if len(encoded) != self.xof.SEED_SIZE:
            raise ValueError(f"verifier message: expected {self.xof.SEED_SIZE} bytes, got {len(encoded)}")
        return encoded

    def encode_agg_param(self, agg_param: None) -> bytes:
        return b""

    def decode_agg_param(self, encoded: bytes) -> None:
        if encoded:
            raise ValueError("Prio3 aggregation parameter: must be empty")
        return None

    def encode_out_share(self, out_share: Sequence[F]) -> bytes:
        return self.field.encode_vec(out_share)

    def decode_out_share(self, encoded: bytes) -> list[F]:
        return self._decode_field_vec(encoded, self.flp.OUTPUT_LEN, "output share")

    def encode_agg_share(self, agg_share: Sequence[F]) -> bytes:
        return self.field.encode_vec(agg_share)

    def decode_agg_share(self, agg_param: None, encoded: bytes) -> list[F]:
        return self._decode_field_vec(encoded, self.flp.OUTPUT_LEN, "aggregate share")


# -- the variants (sec. 7.4) -------------------------------------------------------------------
class Prio3Count(Prio3[int, int, Field64]):
    """Sec. 7.4.1: counts 0/1 measurements; Field64, one proof."""

    ID = 0x00000001

    def __init__(self, shares: int) -> None:
        super().__init__(shares, FlpBBCGGI19(Count(Field64)), 1)


class Prio3Sum(Prio3[int, int, Field64]):
    """Sec. 7.4.2: sums integers in ``[0, max_measurement]``; Field64, one proof."""

    ID = 0x00000002

    def __init__(self, shares: int, max_measurement: int) -> None:
        super().__init__(shares, FlpBBCGGI19(Sum(Field64, max_measurement)), 1)


class Prio3SumVec(Prio3[list[int], list[int], Field128]):
    """Sec. 7.4.3: sums vectors of ``length`` integers in ``[0, max_measurement]``; Field128."""

    ID = 0x00000003

    def __init__(self, shares: int, length: int, max_measurement: int, chunk_length: int) -> None:
        super().__init__(shares, FlpBBCGGI19(SumVec(Field128, length, max_measurement, chunk_length)), 1)


class Prio3Histogram(Prio3[int, list[int], Field128]):
    """Sec. 7.4.4: a histogram over ``length`` buckets; Field128."""

    ID = 0x00000004

    def __init__(self, shares: int, length: int, chunk_length: int) -> None:
        super().__init__(shares, FlpBBCGGI19(Histogram(Field128, length, chunk_length)), 1)


class Prio3MultihotCountVec(Prio3[list[bool], list[int], Field128]):
    """Sec. 7.4.5: counts vectors of ``length`` booleans of weight at most ``max_weight``; Field128."""

    ID = 0x00000005

    def __init__(self, shares: int, length: int, max_weight: int, chunk_length: int) -> None:
        super().__init__(
            shares, FlpBBCGGI19(MultihotCountVec(Field128, length, max_weight, chunk_length)), 1)


class Prio3SumVecWithMultiproof(Prio3[list[int], list[int], Field]):
    """The draft's experimental multiproof SumVec (sec. 7.1.2, test vectors only): any field,
    ``num_proofs`` proofs, codepoint 0xFFFFFFFF (reserved for testing)."""

    ID = 0xFFFFFFFF

    def __init__(self, shares: int, field: type[Field], num_proofs: int, length: int,
                 max_measurement: int, chunk_length: int) -> None:
        if field not in (Field64, Field128):
            raise ValueError("field must be Field64 or Field128")
        super().__init__(
            shares, FlpBBCGGI19(SumVec(field, length, max_measurement, chunk_length)), num_proofs)


class Prio3HigherDegree(Prio3[int, int, Field64]):
    """The draft's test-only Prio3 on a degree-3 gadget (its Prio3HigherDegree vectors):
    measurements in {0, 1, 2}, codepoint 0xFFFFFFFF."""

    ID = 0xFFFFFFFF

    def __init__(self, shares: int) -> None:
        super().__init__(shares, FlpBBCGGI19(HigherDegree()), 1)
