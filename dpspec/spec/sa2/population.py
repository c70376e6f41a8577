"""SA2 at population scale: the ideal functionality's release on the protocol's own coins.

:func:`dpspec.spec.sa2.protocol.run_collection` runs every cryptographic step (a blind-RSA token,
a Prio3 sharding and proof, two HPKE seals and the two aggregators' verification per report), about
25 ms per report. What it releases is, by the protocol's correctness, the ideal functionality
``A_B^Dec`` of sec. 3 of [SA2] applied to the reports that survive: the sum of ``Dec(R(x_i))`` over
the participating (and dummy) devices whose reports were delivered, or ⊥ below ``B``. This module
computes that release directly, **on the same coins** (the same tapes, tags and consumption order
as ``run_collection``), so that for every seed its release equals the protocol's:

* the synthetic data (``min`` of two ``uniform(k)`` per device, tape ``sa2/sim/data``), the
  participation coins (``bernoulli(q)`` per device, ``sa2/poisson``), the dummy coins
  (``bernoulli(q')`` per non-participant, ``sa2/dummy``) and the network's drop coins
  (``bernoulli(drop)`` per sent report, ``sa2/network``) are read from their tapes with numpy
  (:class:`BitStream`): a tape is one bit stream, and the lazy comparison of
  :func:`dpspec.spec.samplers.lazy.bernoulli_ratio` and the rejection sampler of
  ``RandomTape.uniform`` are evaluated for every start position at once in int64 arithmetic
  (exact: the comparison's state ``r`` stays in ``(0, b)``, ``b < 2**61`` is checked), then the
  trials are chained in order (each one starts where the previous one stopped);
* each participant's randomizer runs on its own tape ``sa2/client/{i}/randomizer`` with the coins
  of :meth:`Randomizer.apply`, vectorised over devices (:func:`randomize`), and the decoded outputs
  are summed in integers;
* a RAPPOR report heavier than ``max_weight`` is not sent (:meth:`Randomizer.apply` returns
  None): since that decides which reports draw network coins, every participant's randomizer runs
  before the drop coins when ``max_weight < k``;
* the anonymizer's shuffle changes the order of arrival only; it is replayed
  (:meth:`BitStream.fisher_yates`, tape ``sa2/shuffle``) when the order matters to the aggregators
  -- the time window of App. A (a report arriving outside ``[t0, t0 + K]`` is rejected) and the
  fixed-size variant (the first ``B`` accepted in arrival order are summed) -- and not drawn
  otherwise;
* the aggregators' other rules are applied as :class:`protocol.Aggregator` applies them: rate
  validation (no release over :meth:`protocol.Recipe.max_reports` received reports, sec. 4.7),
  ``B`` counted over every accepted report (dummies included), and in fixed-size mode a release
  only if at least ``population`` reports are accepted;
* malicious devices (:data:`protocol.MALICIOUS_KINDS`) are modelled by what the aggregators do with
  their reports: an invalid proof, an inflated report, a forged token and a wrong ``B`` are
  rejected; of a replayed token's two reports the first delivered in the window is accepted (its
  measurement, ``R(0)`` drawn after the token on the device's tape, is recomputed with the real
  token issuance) and the other rejected.

Only the randomizers whose coins are replayed here (:data:`SUPPORTED_RANDOMIZERS`) are accepted;
any other recipe is refused with a one-line Sa2Error (:func:`check_supported`) rather than
released differently.

The release is a sum of integers below ``2**63``; Prio3 reduces it modulo its field's prime, which
is larger than any count reached here, so the two agree.

**Which of the three routes of issue 15**: the ideal functionality's release, vectorised with
numpy where exactness allows, *and* the full cryptographic protocol for a random subset of the
participants (:func:`audit`): their tokens, Prio3 reports, HPKE seals and the leader/helper
verification are run for real, and the aggregators' unsharded sum over that subset must equal the
engine's sum of the same devices' decoded outputs. (Token issuance is not batched.)

**Sharding** (:func:`release` with ``workers > 1``): the tapes read sequentially (data,
participation, dummies, network) are single streams and are read by one process (a few seconds for
10^8 devices); the per-participant randomizers, whose tapes are indexed by the device, are split
into contiguous ranges over a ``multiprocessing`` pool, and the integer partial sums are added
(order-independent). The result is bit-for-bit the single-process one.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpspec.spec.sa2 import protocol, tokens
from dpspec.spec.sa2.ideal import Sa2Error
from dpspec.spec.sa2.randomizers import Randomizer
from dpspec.spec.samplers.params import probability
from dpspec.spec.tape import DST_PREFIX, RandomTape, tape_dst
from dpspec.spec.xof import XofTurboShake128

Progress = Callable[[str, int, int], None]

#: the comparison state is kept in int64; 2 r < 2 b must not overflow
MAX_DENOMINATOR = 1 << 61
#: depth of the vectorised lazy comparison; a trial longer than this (probability 2^-64 per start)
#: is finished by the scalar comparison
MAX_DEPTH = 64
_READ_BYTES = 1 << 16
#: trials or candidates evaluated per numpy pass (bounds the memory: about 40 bytes each)
BLOCK = 1 << 22
#: consumed bits kept before they are dropped
TRIM = 1 << 24


class BitStream:
    """The bit stream of ``RandomTape(seed, tag)`` (``dpspec.spec.tape``, steps 1-2), as numpy bits.

    ``pos`` is the number of bits consumed so far, exactly ``RandomTape.bits_consumed`` after the
    same draws.
    """

    def __init__(self, seed: bytes, tag: str) -> None:
        RandomTape(seed, tag)  # the same seed and tag checks
        self._xof = XofTurboShake128(bytes(seed), tape_dst(tag), b"")
        self._bits: NDArray[np.uint8] = np.zeros(0, dtype=np.uint8)
        self._base = 0  # stream index of self._bits[0]; bits before pos are dropped
        self.pos = 0

    def window(self, start: int, stop: int) -> NDArray[np.uint8]:
        """The stream's bits ``start .. stop - 1`` (``start >= pos``), reading the XOF as needed."""
        if start < self._base:
            raise Sa2Error("BitStream: bits before the current position are gone")
        if self.pos - self._base > TRIM:  # drop what has been consumed
            cut = self.pos - self._base
            self._bits = self._bits[cut:].copy()
            self._base += cut
        have = self._base + self._bits.size
        if have < stop:
            nbytes = max((stop - have + 7) // 8, _READ_BYTES)
            more = np.frombuffer(self._xof.next(nbytes), dtype=np.uint8)
            self._bits = np.concatenate([self._bits, np.unpackbits(more, bitorder="little")])
        return self._bits[start - self._base:stop - self._base]

    def bit(self, i: int) -> int:
        return int(self.window(i, i + 1)[0])

    # -- RandomTape.uniform, many times ---------------------------------------------------------
    def uniforms(self, n: int, count: int) -> NDArray[np.int64]:
        """``count`` successive ``uniform(n)`` draws (tape step 3): every candidate is ``k`` bits,
        first bit least significant, so candidates are consecutive ``k``-bit groups."""
        if count == 0:
            return np.zeros(0, dtype=np.int64)
        k = (n - 1).bit_length()
        if k == 0:
            return np.zeros(count, dtype=np.int64)
        if k > 62:
            raise Sa2Error("uniforms: n must be below 2^62")
        weights = (np.int64(1) << np.arange(k, dtype=np.int64))
        out: list[NDArray[np.int64]] = []
        need = count
        while need > 0:
            groups = min(int(need * (1 << k) / n * 1.05) + 64, BLOCK)
            bits = self.window(self.pos, self.pos + groups * k)
            values = bits.reshape(groups, k).astype(np.int64) @ weights
            accepted = np.flatnonzero(values < n)
            if accepted.size >= need:
                last = int(accepted[need - 1])
                out.append(values[accepted[:need]])
                self.pos += (last + 1) * k
                need = 0
            else:
                out.append(values[accepted])
                need -= accepted.size
                self.pos += groups * k
        return np.concatenate(out)

    # -- the anonymizer's shuffle ----------------------------------------------------------------
    def fisher_yates(self, n: int) -> list[int]:
        """The permutation of :func:`protocol.anonymize` on ``n`` items: for ``j = n-1 .. 1``,
        swap ``j`` with ``uniform(j + 1)``; returns ``perm`` with item ``perm[p]`` delivered at
        position ``p``. The draws of one bit length ``k`` (``j`` in ``[2^(k-1), 2^k)``) read
        consecutive ``k``-bit candidates; numpy decodes them, the acceptance (``c <= j``, with
        ``j`` moving down as draws are accepted) is a Python loop over integers."""
        perm = list(range(n))
        j = n - 1
        while j >= 1:
            k = j.bit_length()
            lo = 1 << (k - 1)
            groups = min(2 * (j - lo + 1) + 64, BLOCK)
            weights = np.int64(1) << np.arange(k, dtype=np.int64)
            bits = self.window(self.pos, self.pos + groups * k)
            values = (bits.reshape(groups, k).astype(np.int64) @ weights).tolist()
            used = 0
            for c in values:
                used += 1
                if c <= j:
                    perm[j], perm[c] = perm[c], perm[j]
                    j -= 1
                    if j < lo:
                        break
            self.pos += used * k
        return perm

    # -- bernoulli_ratio, many times -------------------------------------------------------------
    def bernoullis(self, p: Fraction, count: int) -> NDArray[np.bool_]:
        """``count`` successive ``bernoulli(tape, p)`` draws (the lazy comparison of
        :mod:`dpspec.spec.samplers.lazy`), as booleans. ``p`` must be a probability (as for
        :func:`dpspec.spec.samplers.core.bernoulli`): anything outside [0, 1] is refused."""
        q = probability(p, "p")
        a, b = q.numerator, q.denominator
        if a <= 0:
            return np.zeros(count, dtype=np.bool_)
        if a >= b:
            return np.ones(count, dtype=np.bool_)
        if b >= MAX_DENOMINATOR:
            return self._bernoullis_scalar(a, b, count)
        out = np.zeros(count, dtype=np.bool_)
        done = 0
        while done < count:
            need = count - done
            window = min(2 * need + 8 * int(need ** 0.5) + 256, BLOCK)
            length, result = self._trials(a, b, window)
            lengths = length.tolist()
            results = result.tolist()
            t, rel = done, 0
            while t < count and rel < window:
                if lengths[rel] == 0:  # longer than MAX_DEPTH: finish it exactly
                    start = self.pos + rel
                    val, used = self._scalar_trial(a, b, start)
                    out[t] = val
                    rel += used
                else:
                    out[t] = results[rel]
                    rel += lengths[rel]
                t += 1
            self.pos += rel
            done = t
        return out

    def _trials(self, a: int, b: int, window: int) -> tuple[NDArray[np.int64], NDArray[np.bool_]]:
        """For each start ``pos + j``, ``j < window``: the number of bits a lazy comparison with
        ``a/b`` starting there reads (0 if more than :data:`MAX_DEPTH`) and its result."""
        bits64 = self.window(self.pos, self.pos + window + MAX_DEPTH).astype(np.int64)
        length = np.zeros(window, dtype=np.int64)
        result = np.zeros(window, dtype=np.bool_)
        active = np.arange(window, dtype=np.int64)
        r = np.full(window, a, dtype=np.int64)
        for depth in range(MAX_DEPTH):
            r = 2 * r - b * bits64[active + depth]
            zero = r <= 0
            one = r >= b
            stop = zero | one
            idx = active[stop]
            length[idx] = depth + 1
            result[idx] = one[stop]
            keep = ~stop
            active = active[keep]
            r = r[keep]
            if active.size == 0:
                break
        return length, result

    def _scalar_trial(self, a: int, b: int, start: int) -> tuple[bool, int]:
        r, used = a, 0
        while True:
            r = 2 * r - b * self.bit(start + used)
            used += 1
            if r <= 0:
                return False, used
            if r >= b:
                return True, used

    def _bernoullis_scalar(self, a: int, b: int, count: int) -> NDArray[np.bool_]:
        out = np.zeros(count, dtype=np.bool_)
        for t in range(count):
            val, used = self._scalar_trial(a, b, self.pos)
            out[t] = val
            self.pos += used
        return out


# -- the engine ---------------------------------------------------------------------------------
@dataclass
class PopulationResult:
    """The release and the counts that ``run_collection`` reports, computed without cryptography.

    ``participants`` counts every device that selected itself (as ``run_collection`` does,
    including RAPPOR reports over ``max_weight``, which are not sent: ``overweight``);
    ``participant_index`` lists the participants that sent a report. ``aggregated`` is the
    number of reports summed (fewer than ``accepted`` in fixed-size mode)."""

    release: tuple[int, ...] | None
    participants: int
    dummies: int
    sent: int
    dropped: int
    accepted: int
    rejected: dict[str, int]
    participant_index: NDArray[np.int64]
    overweight: int = 0
    aggregated: int = 0
    contributions: dict[int, tuple[int, ...]] = field(default_factory=dict)


def synthetic_data(seed: bytes, k: int, clients: int) -> NDArray[Any]:
    """``min(uniform(k), uniform(k))`` per device from tape ``sa2/sim/data`` (as ``dpspec sa2
    simulate`` draws it), in the smallest unsigned integer type that holds ``k - 1``."""
    stream = BitStream(seed, protocol.TAGS["data"])
    out = np.zeros(clients, dtype=np.min_scalar_type(max(k - 1, 1)))
    step = BLOCK // 2
    for s in range(0, clients, step):
        c = min(step, clients - s)
        out[s:s + c] = stream.uniforms(k, 2 * c).reshape(c, 2).min(axis=1)
    return out


#: bytes of each participant's randomizer tape read up front (one XOF call per device); a device
#: whose coins need more falls back to the scalar randomizer
ROW_BYTES = 64


def _row_bits(seed: bytes, devices: Sequence[int], nbytes: int) -> NDArray[np.uint8]:
    """The first ``8 nbytes`` bits of each device's randomizer tape, one row per device."""
    tag = protocol.TAGS["randomizer"]
    if devices:
        tape_dst(tag.format(i=max(devices)))  # the longest tag passes the tape's checks
    # tape_dst(t) is DST_PREFIX || ASCII(t) for a valid tag; its per-character check is skipped
    key = bytes(seed)
    buf = b"".join(XofTurboShake128(key, DST_PREFIX + tag.format(i=i).encode("ascii"), b"")
                   .next(nbytes) for i in devices)
    raw = np.frombuffer(buf, dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little").reshape(len(devices), 8 * nbytes)


Rows = tuple[NDArray[Any], NDArray[np.int64], NDArray[np.bool_]]


def _row_bernoulli(bits: NDArray[np.uint8], pos: NDArray[np.int64], a: int, b: int) -> Rows:
    """One lazy comparison with ``a/b`` per row, starting at bit ``pos[row]``:
    ``(result, next position, within the row)``."""
    rows, width = bits.shape
    ok = np.ones(rows, dtype=np.bool_)
    if a <= 0 or a >= b:
        return np.full(rows, a >= b, dtype=np.bool_), pos.copy(), ok
    result = np.zeros(rows, dtype=np.bool_)
    nxt = pos.copy()
    active = np.arange(rows, dtype=np.int64)
    r = np.full(rows, a, dtype=np.int64)
    p = pos.copy()
    while active.size:
        inside = p < width
        ok[active[~inside]] = False
        active, r, p = active[inside], r[inside], p[inside]
        r = 2 * r - b * bits[active, p].astype(np.int64)
        p = p + 1
        one = r >= b
        stop = one | (r <= 0)
        result[active[stop]] = one[stop]
        nxt[active[stop]] = p[stop]
        keep = ~stop
        active, r, p = active[keep], r[keep], p[keep]
    return result, nxt, ok


def _row_uniform(bits: NDArray[np.uint8], pos: NDArray[np.int64], n: int) -> Rows:
    """One ``uniform(n)`` per row (tape step 3), starting at bit ``pos[row]``."""
    rows, width = bits.shape
    ok = np.ones(rows, dtype=np.bool_)
    value = np.zeros(rows, dtype=np.int64)
    k = (n - 1).bit_length()
    if k == 0:
        return value, pos.copy(), ok
    weights = np.int64(1) << np.arange(k, dtype=np.int64)
    nxt = pos.copy()
    active = np.arange(rows, dtype=np.int64)
    p = pos.copy()
    while active.size:
        inside = p + k <= width
        ok[active[~inside]] = False
        active, p = active[inside], p[inside]
        cand = bits[active[:, None], p[:, None] + np.arange(k)].astype(np.int64) @ weights
        p = p + k
        acc = cand < n
        value[active[acc]] = cand[acc]
        nxt[active[acc]] = p[acc]
        keep = ~acc
        active, p = active[keep], p[keep]
    return value, nxt, ok


def randomize(randomizer: Randomizer, seed: bytes, devices: Sequence[int],
              values: Sequence[int]) -> NDArray[Any]:
    """``R(x_i)`` for each device on its own tape ``sa2/client/{i}/randomizer``, vectorised over
    devices: the same coins in the same order as :meth:`Randomizer.apply` (a flip coin, then a
    ``uniform(k)`` if it is 1; RAPPOR: one flip coin per bit). Returns the outputs (an int per device)
    or, for RAPPOR, a boolean matrix with one row per device."""
    x = np.asarray(values, dtype=np.int64)
    f = randomizer.flip
    tag = protocol.TAGS["randomizer"]
    rappor = randomizer.name == "rappor"
    # the exact route, one device at a time: RAPPOR's raw bits, heavy rows included (the caller
    # drops those; Randomizer.apply would answer None for them)
    one = randomizer.rappor_bits if rappor else randomizer.apply
    if not devices or f.denominator >= MAX_DENOMINATOR:
        outs = [one(int(v), RandomTape(seed, tag.format(i=i)))
                for i, v in zip(devices, values, strict=True)]
        if rappor:
            return np.asarray(outs, dtype=np.bool_).reshape(len(devices), randomizer.k)
        return np.asarray(outs, dtype=np.int64)
    for v in values:
        randomizer.check_input(int(v))
    # RAPPOR reads k flip coins, 2 bits each on average: room for twice that
    bits = _row_bits(seed, devices, ROW_BYTES + (randomizer.k // 2 if rappor else 0))
    pos = np.zeros(len(devices), dtype=np.int64)
    if rappor:
        out: NDArray[Any] = np.zeros((len(devices), randomizer.k), dtype=np.bool_)
        ok = np.ones(len(devices), dtype=np.bool_)
        for j in range(randomizer.k):
            flip, pos, okj = _row_bernoulli(bits, pos, f.numerator, f.denominator)
            ok &= okj
            out[:, j] = (x == j) != flip
    else:
        flip, pos, ok = _row_bernoulli(bits, pos, f.numerator, f.denominator)
        out = x.copy()
        rows = np.flatnonzero(flip & ok)
        u, _, oku = _row_uniform(bits[rows], pos[rows], randomizer.k)
        out[rows] = u
        ok[rows] &= oku
    for row in np.flatnonzero(~ok).tolist():  # coins beyond the first ROW_BYTES bytes
        i = devices[row]
        out[row] = one(int(x[row]), RandomTape(seed, tag.format(i=i)))
    return out


def _decode_pass(randomizer: Randomizer, seed: bytes, devices: Sequence[int],
                 values: Sequence[int]) -> tuple[NDArray[np.int64], list[int]]:
    """``sum Dec(R(x_i))`` over the given devices whose report is sent, each on its own
    randomizer tape, and the devices whose RAPPOR report is heavier than ``max_weight`` (not
    sent, :meth:`Randomizer.apply` returns None; they add nothing)."""
    out = randomize(randomizer, seed, devices, values)
    if randomizer.name == "rappor":
        rows = out.reshape(len(devices), randomizer.k)
        heavy = rows.sum(axis=1, dtype=np.int64) > randomizer.max_weight()
        total = np.asarray(rows[~heavy].sum(axis=0, dtype=np.int64), dtype=np.int64)
        return total, [devices[j] for j in np.flatnonzero(heavy).tolist()]
    counts = np.bincount(np.asarray(out, dtype=np.int64), minlength=randomizer.k)
    if randomizer.name == "binary_randomized_response":
        return np.asarray([counts[1]], dtype=np.int64), []
    return np.asarray(counts, dtype=np.int64), []


def _decode_sum(randomizer: Randomizer, seed: bytes, devices: Sequence[int],
                values: Sequence[int]) -> NDArray[np.int64]:
    """``sum Dec(R(x_i))`` over the given devices' sent reports (:func:`_decode_pass`)."""
    return _decode_pass(randomizer, seed, devices, values)[0]


def _decode_pass_job(job: tuple[Randomizer, bytes, list[int], list[int]]
                     ) -> tuple[NDArray[np.int64], list[int]]:
    return _decode_pass(*job)


def decoded_sum(randomizer: Randomizer, seed: bytes, devices: Sequence[int],
                values: Sequence[int], *, workers: int = 1, chunk: int = 20000,
                progress: Progress | None = None, stage: str = "clients",
                overweight: list[int] | None = None) -> NDArray[np.int64]:
    """The decoded sum of the devices' sent reports, in chunks (``workers`` processes when
    > 1); the devices whose report is over ``max_weight`` are appended to ``overweight``."""
    total = len(devices)
    length = 1 if randomizer.name == "binary_randomized_response" else randomizer.k
    acc = np.zeros(length, dtype=np.int64)
    jobs = [(randomizer, seed, list(devices[s:s + chunk]), list(values[s:s + chunk]))
            for s in range(0, total, chunk)]
    done = 0
    if workers > 1 and len(jobs) > 1:
        # fork where available: spawn would re-run the parent's __main__ (python -m dpspec)
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        with multiprocessing.get_context(method).Pool(workers) as pool:
            results = []
            for res, job in zip(pool.imap(_decode_pass_job, jobs), jobs, strict=True):
                results.append(res)
                done += len(job[2])
                if progress is not None:
                    progress(stage, done, total)
    else:
        results = []
        for job in jobs:
            results.append(_decode_pass_job(job))
            done += len(job[2])
            if progress is not None:
                progress(stage, done, total)
    for part, heavy in results:
        acc += part
        if overweight is not None:
            overweight += heavy
    if progress is not None:
        progress(stage, total, total)
    return acc


def _malicious(recipe: protocol.Recipe, dep: protocol.Deployment, seed: bytes, count: int
               ) -> list[tuple[str, tuple[int, ...] | None]]:
    """Per malicious report, in sending order: ``(kind, contribution if it may be accepted)``."""
    out: list[tuple[str, tuple[int, ...] | None]] = []
    if count == 0:
        return out
    attester = tokens.Attester(tokens.Issuer(dep.issuer_sk))
    kinds = protocol.MALICIOUS_KINDS
    for j in range(count):
        kind = kinds[j % len(kinds)]
        if kind == "replayed_token":
            tape = RandomTape(seed, protocol.TAGS["malicious"].format(j=j))
            tokens.obtain_token(f"malicious-{j}", attester, recipe.issuer_key, recipe.task_id,
                                tape)
            meas = protocol.adversary_measurement(recipe, tape)
            dec = recipe.randomizer.dec(meas)
            out += [(kind, dec), (kind, dec)]
        else:
            out.append((kind, None))
    return out


#: the aggregators' rejection reason for each malicious kind (as ``aggregate_batch`` counts them)
REJECTION = {"invalid_proof": "vdaf_verify_failed", "forged_token": "token_invalid",
             "wrong_B": "decrypt_failed", "replayed_token": "token_replayed",
             "inflated": "vdaf_verify_failed"}

#: the randomizers whose coins this engine replays; any other is refused (:func:`check_supported`)
SUPPORTED_RANDOMIZERS = ("binary_randomized_response", "randomized_response", "rappor")


def check_supported(recipe: protocol.Recipe) -> Randomizer:
    """The recipe's randomizer; Sa2Error (one line) unless this engine replays it exactly."""
    r = recipe.randomizer
    if not isinstance(r, Randomizer) or r.name not in SUPPORTED_RANDOMIZERS:
        raise Sa2Error(f"the population engine does not replay randomizer {r.name} (it replays "
                       f"{', '.join(SUPPORTED_RANDOMIZERS)}); use --engine protocol")
    return r


def _count(counter: dict[str, int], key: str, n: int = 1) -> None:
    if n:
        counter[key] = counter.get(key, 0) + n


def release(recipe: protocol.Recipe, dep: protocol.Deployment, data: NDArray[Any],
            seed: bytes, *, malicious: int = 0, drop_rate: Fraction = Fraction(0),
            arrival: Callable[[int], list[Fraction]] | None = None,
            workers: int = 1, progress: Progress | None = None) -> PopulationResult:
    """What :func:`protocol.run_collection` releases for the same arguments (module docstring);
    ``data`` holds each device's bucket (a recipe's query already applied,
    :meth:`protocol.Recipe.bucket`).

    The aggregators' rules are those of :class:`protocol.Aggregator`: rate validation (more
    than :meth:`protocol.Recipe.max_reports` received: no release), the time window of App. A
    (``arrival`` gives the arrival times; a report outside the window is rejected before it is
    opened), Poisson mode (release at ``B`` or more aggregated reports, dummies included) and
    fixed-size mode (the first ``B`` accepted in arrival order are summed, released if at least
    ``population`` are accepted). When the order of arrival matters (a window or fixed size),
    the anonymizer's shuffle is replayed (:meth:`BitStream.fisher_yates`, tape ``sa2/shuffle``).
    """
    protocol.check_deployment(recipe, dep)
    r = check_supported(recipe)
    n = int(data.size)
    if progress is not None:
        progress("coins", 0, n)
    keep = BitStream(seed, protocol.TAGS["participation"]).bernoullis(recipe.q, n)
    part_idx = np.flatnonzero(keep).astype(np.int64)
    others = np.flatnonzero(~keep).astype(np.int64)
    dummy_idx = np.zeros(0, dtype=np.int64)
    if recipe.dummy_rate > 0:
        if r.zero_measurement() is None:
            raise Sa2Error(f"dummy reports need a zero measurement; {r.name} has none")
        flags = BitStream(seed, protocol.TAGS["dummy"]).bernoullis(recipe.dummy_rate,
                                                                   others.size)
        dummy_idx = others[flags]
    if progress is not None:
        progress("coins", n, n)
    # RAPPOR reports over max_weight are not sent: which they are decides what is sent (and so
    # the network's coins), so every participant's randomizer runs first
    first_sum: NDArray[np.int64] | None = None
    heavy: list[int] = []
    if r.name == "rappor" and r.max_weight() < r.k:
        first_sum = decoded_sum(r, seed, part_idx.tolist(), data[part_idx].tolist(),
                                workers=workers, progress=progress, overweight=heavy)
    sending = part_idx if not heavy else np.setdiff1d(part_idx, np.asarray(heavy, np.int64))
    mal = _malicious(recipe, dep, seed, malicious)
    honest_sent = np.sort(np.concatenate([sending, dummy_idx]))
    sent = int(honest_sent.size) + len(mal)
    dropped = BitStream(seed, protocol.TAGS["network"]).bernoullis(drop_rate, sent)
    delivered_devices = honest_sent[~dropped[:honest_sent.size]]
    # the delivered malicious reports, in sending order: (j, kind, contribution)
    mal_delivered = []
    j = pos = 0
    while pos < len(mal):
        copies = 2 if mal[pos][0] == "replayed_token" else 1
        for c in range(copies):
            if not dropped[honest_sent.size + pos + c]:
                mal_delivered.append((j, mal[pos][0], mal[pos][1]))
        pos += copies
        j += 1
    h = int(delivered_devices.size)
    total_delivered = h + len(mal_delivered)
    # position of arrival of each delivered report (honest first, then malicious, as sent)
    ordered = arrival is not None or recipe.sampling == "fixed_size"
    if ordered:
        perm = BitStream(seed, protocol.TAGS["shuffle"]).fisher_yates(total_delivered)
        arrival_pos = np.empty(total_delivered, dtype=np.int64)
        arrival_pos[np.asarray(perm, dtype=np.int64)] = np.arange(total_delivered,
                                                                  dtype=np.int64)
    else:
        arrival_pos = np.arange(total_delivered, dtype=np.int64)
    in_window = np.ones(total_delivered, dtype=np.bool_)
    if recipe.window is not None:
        if arrival is None:
            raise Sa2Error("a time-bounded task needs the arrival time of every report")
        times = arrival(total_delivered)
        if len(times) != total_delivered or any(
                b < a for a, b in zip(times, times[1:], strict=False)):
            raise Sa2Error("times must give one non-decreasing arrival time per report")
        t0, K = recipe.window
        by_position = np.asarray([t0 <= t <= t0 + K for t in times], dtype=np.bool_)
        in_window = by_position[arrival_pos]
    rejected: dict[str, int] = {}
    _count(rejected, "outside_time_window", int((~in_window).sum()))
    accepted_mask = in_window.copy()
    contrib: dict[int, tuple[int, ...]] = {}  # delivered index -> a malicious contribution
    first_replay: dict[int, int] = {}
    mal_order = sorted(range(len(mal_delivered)), key=lambda m: int(arrival_pos[h + m]))
    for m in mal_order:  # in arrival order: the first in-window copy of a replay is accepted
        j, kind, dec = mal_delivered[m]
        if not in_window[h + m]:
            continue
        if kind == "replayed_token" and j not in first_replay:
            first_replay[j] = m
            assert dec is not None
            contrib[h + m] = dec
            continue
        accepted_mask[h + m] = False
        _count(rejected, REJECTION[kind])
    accepted = int(accepted_mask.sum())
    summed = accepted_mask
    if recipe.sampling == "fixed_size":  # the first B accepted in arrival order
        by_arrival = np.zeros(total_delivered, dtype=np.bool_)
        by_arrival[arrival_pos] = accepted_mask
        first_b = by_arrival & (np.cumsum(by_arrival) <= recipe.B)
        summed = first_b[arrival_pos]
    aggregated = int(summed.sum())
    limit = recipe.max_reports()
    out: tuple[int, ...] | None
    if limit is not None and total_delivered > limit:
        out = None  # rate validation (sec. 4.7)
    elif recipe.sampling == "fixed_size":
        assert recipe.population is not None  # parse_recipe enforces it
        out = () if aggregated == recipe.B and accepted >= recipe.population else None
    else:
        out = () if aggregated >= recipe.B else None
    if out is not None:
        summed_devices = delivered_devices[summed[:h]]
        real = summed_devices[keep[summed_devices]]  # dummies decode to zero
        if first_sum is not None and 2 * real.size > sending.size:
            rest = np.setdiff1d(sending, real)  # sent, but dropped, late or not sampled
            total = first_sum - decoded_sum(r, seed, rest.tolist(), data[rest].tolist(),
                                            workers=workers, progress=progress)
        else:
            total = decoded_sum(r, seed, real.tolist(), data[real].tolist(), workers=workers,
                                progress=progress)
        for idx, dec in contrib.items():
            if summed[idx]:
                total = total + np.asarray(dec, dtype=np.int64)
        out = tuple(int(v) for v in total)
    return PopulationResult(out, int(part_idx.size), int(dummy_idx.size), sent,
                            int(dropped.sum()), accepted, rejected, sending, len(heavy),
                            aggregated)


# -- the audit: the full protocol on a random subset ----------------------------------------------------
@dataclass
class AuditResult:
    devices: list[int]
    protocol_sum: tuple[int, ...]
    engine_sum: tuple[int, ...]
    accepted: int

    @property
    def agrees(self) -> bool:
        return self.protocol_sum == self.engine_sum and self.accepted == len(self.devices)


def audit(recipe: protocol.Recipe, dep: protocol.Deployment, vdaf: Any, data: NDArray[Any],
          participants: NDArray[np.int64], seed: bytes, size: int,
          progress: Progress | None = None) -> AuditResult:
    """Run the real client and aggregators for ``size`` participants chosen uniformly (a partial
    Fisher-Yates shuffle of the participant list on tape ``sa2/population/audit``) and compare
    the unsharded aggregate of their reports with the engine's decoded sum over them.

    Each chosen device ``i`` uses the protocol's tapes: its randomizer, token and report tapes.
    The aggregate is unsharded even below ``B`` (this is a check of the simulation, not a release).
    """
    tape = RandomTape(seed, "sa2/population/audit")
    pool = participants.tolist()
    size = min(size, len(pool))
    for j in range(size):
        k = j + tape.uniform(len(pool) - j)
        pool[j], pool[k] = pool[k], pool[j]
    chosen = sorted(pool[:size])
    if not chosen:
        return AuditResult([], (), (), 0)
    attester = tokens.Attester(tokens.Issuer(dep.issuer_sk))
    pk = dep.issuer_sk.public_key()
    reports = []
    for c, i in enumerate(chosen):
        if progress is not None:
            progress("audit", c, size)
        meas = recipe.randomizer.apply(int(data[i]), RandomTape(
            seed, protocol.TAGS["randomizer"].format(i=i)))
        tok = tokens.obtain_token(f"device-{i}", attester, pk, recipe.task_id,
                                  RandomTape(seed, protocol.TAGS["token"].format(i=i)))
        reports.append(protocol.client_report(recipe, vdaf, meas, tok, RandomTape(
            seed, protocol.TAGS["report"].format(i=i))))
    if progress is not None:
        progress("audit", size, size)
    task = protocol.TaskConfig(recipe.task_id, recipe.B, dep.verify_key, pk)
    leader = protocol.Aggregator(protocol.ROLE_LEADER, task, dep.leader_hpke.private_key, vdaf)
    helper = protocol.Aggregator(protocol.ROLE_HELPER, protocol.TaskConfig(
        recipe.task_id, recipe.B, dep.verify_key, pk), dep.helper_hpke.private_key, vdaf)
    protocol.aggregate_batch(leader, helper, reports)
    got = vdaf.unshard(None, [leader.agg_share, helper.agg_share], leader.count)
    got_t = (got,) if isinstance(got, int) else tuple(int(v) for v in got)
    want = _decode_sum(check_supported(recipe), seed, chosen, [int(data[i]) for i in chosen])
    return AuditResult(chosen, got_t, tuple(int(v) for v in want), leader.count)
