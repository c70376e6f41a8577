"""Vector family ``tape``: XofTurboShake128 and the random tape (dpspec.spec.xof, dpspec.spec.tape)."""

from __future__ import annotations

from typing import Any

from dpspec.conformance.jsonargs import COUNT, DEC, HEX, count_arg, hex_arg, int_arg, parse_int
from dpspec.conformance.vectors import (
    VECTOR_SEED_HEADER,
    Family,
    Handler,
    TestNumberer,
    VectorFile,
    family_schema,
    invalid_tests,
    test_entry,
    vector_seed,
)
from dpspec.spec.field import FIELDS
from dpspec.spec.tape import RandomTape
from dpspec.spec.xof import XofTurboShake128

XOF_SCHEMA = "xof-v1.json"
TAPE_SCHEMA = "tape-v1.json"
BOUNDARY_SCHEMA = "tape_boundaries-v1.json"
BOUNDARY_PATH = "tape/tape_boundaries.json"


# -- reference handlers ----------------------------------------------------------------------
def xof_next(args: dict[str, Any]) -> dict[str, Any]:
    """Read ``lengths`` consecutive chunks of the XOF stream."""
    xof = XofTurboShake128(hex_arg(args, "seed"), hex_arg(args, "dst"), hex_arg(args, "binder"))
    return {"chunks": [xof.next(n).hex() for n in args["lengths"]]}


def xof_derive_seed(args: dict[str, Any]) -> dict[str, Any]:
    seed = hex_arg(args, "seed")
    if len(seed) != XofTurboShake128.SEED_SIZE:
        raise ValueError(f"derive_seed needs a {XofTurboShake128.SEED_SIZE}-byte seed")
    out = XofTurboShake128.derive_seed(seed, hex_arg(args, "dst"), hex_arg(args, "binder"))
    return {"derivedSeed": out.hex()}


def xof_expand_into_vec(args: dict[str, Any]) -> dict[str, Any]:
    field = FIELDS.get(args["field"])
    if field is None:
        raise ValueError(f"unknown field {args['field']!r}")
    length = int_arg(args, "length")
    if length <= 0:
        raise ValueError("length must be > 0")
    seed = hex_arg(args, "seed")
    if len(seed) != XofTurboShake128.SEED_SIZE:
        raise ValueError(f"expand_into_vec needs a {XofTurboShake128.SEED_SIZE}-byte seed")
    vec = XofTurboShake128.expand_into_vec(
        field, seed, hex_arg(args, "dst"), hex_arg(args, "binder"), length
    )
    return {"encoded": field.encode_vec(vec).hex()}


def tape_uniform(args: dict[str, Any]) -> dict[str, Any]:
    """``count`` draws of ``uniform(n)`` from a fresh tape."""
    tape = RandomTape(hex_arg(args, "seed"), args["tag"])
    n = int_arg(args, "n")
    count = count_arg(args, "count")
    values = [str(tape.uniform(n)) for _ in range(count)]
    return {"values": values, "bitsConsumed": tape.bits_consumed,
            "bytesConsumed": tape.bytes_consumed}


def tape_mixed(args: dict[str, Any]) -> dict[str, Any]:
    """Draws with a different ``n`` each, from one tape, in order."""
    tape = RandomTape(hex_arg(args, "seed"), args["tag"])
    values = [str(tape.uniform(parse_int(n, "moduli"))) for n in args["moduli"]]
    return {"values": values, "bitsConsumed": tape.bits_consumed,
            "bytesConsumed": tape.bytes_consumed}


def tape_bits(args: dict[str, Any]) -> dict[str, Any]:
    """``tape.bits(k)`` for each ``k`` of ``counts`` in order, from one fresh tape (the counts are
    passed as given: the tape checks them)."""
    tape = RandomTape(hex_arg(args, "seed"), args["tag"])
    counts = args["counts"]
    if not isinstance(counts, list):
        raise ValueError("counts must be a list")
    values = [str(tape.bits(k)) for k in counts]
    return {"values": values, "bitsConsumed": tape.bits_consumed,
            "bytesConsumed": tape.bytes_consumed}


def xof_aes_next(args: dict[str, Any]) -> dict[str, Any]:
    """``xof.fixed_key_aes128.next``: as ``xof.next``, with XofFixedKeyAes128 (16-byte seed)."""
    from dpspec.spec.xof import XofFixedKeyAes128

    xof = XofFixedKeyAes128(hex_arg(args, "seed"), hex_arg(args, "dst"), hex_arg(args, "binder"))
    return {"chunks": [xof.next(n).hex() for n in args["lengths"]]}


def xof_format_dst(args: dict[str, Any]) -> dict[str, Any]:
    """``format_dst(algo_class, algo, usage)`` of sec. 6.2.3 of the VDAF draft."""
    from dpspec.spec.xof import format_dst

    out = format_dst(int_arg(args, "algoClass"), int_arg(args, "algo"), int_arg(args, "usage"))
    return {"dst": out.hex()}


BOUNDARY_HEADER = [
    "Boundaries and invalid inputs of the random tape and XofTurboShake128; companion of"
    " tape/random_tape.json and tape/xof_turboshake128.json, whose headers define the algorithms.",
    "tape.bits(counts): from one tape RandomTape(seed, tag), tape.bits(k) for each k in order; bits"
    " are taken least-significant first from the bit stream (step 2 of the tape), so bits(k) is"
    " the integer sum_{j<k} c_j 2^j of the next k bits. k = 0 gives 0 and takes nothing; k < 0 is an"
    " error. Counts across 512-bit boundaries check that no bit is skipped or repeated.",
    "tape.uniform: tags of exactly 255 characters and of the extreme printable characters 0x20 and"
    " 0x7E are valid; 0x1F and 0x7F are not.",
    "xof.next: a negative chunk length is an error; a dst of 65535 bytes (the largest le16) is"
    " valid, one of 65536 bytes is not.",
    "xof.fixed_key_aes128.next: XofFixedKeyAes128 of VDAF draft-20 sec. 6.2.2 (seed of exactly 16"
    " bytes, dst of at most 65535 bytes), read in chunks of `lengths` across its 16-byte blocks.",
    "xof.format_dst(algoClass, algo, usage) = VERSION (1 byte, 18) || algoClass (1 byte) ||"
    " be32(algo) || be16(usage) (VDAF draft-20 sec. 6.2.3); each field must fit its width.",
]

BOUNDARY_NOTES = {
    "BadCount": "A bit count must be >= 0.",
    "BadTag": "The tag must be 1 to 255 printable ASCII characters (0x20-0x7E).",
    "BadLength": "A chunk length must be >= 0 and a dst at most 65535 bytes long.",
    "BadSeed": "XofFixedKeyAes128 takes a seed of exactly 16 bytes.",
    "OutOfRange": "algoClass < 2^8, algo < 2^32, usage < 2^16, all >= 0.",
    "MaxValue": "The largest value the field holds.",
}


TAPE_HEADER = [
    "The dpspec random tape, version 1 (module dpspec.spec.tape). Every randomized dpspec algorithm",
    "draws its coins from it, so one seed gives one output in every language.",
    "Inputs: seed, 16 to 255 bytes; tag, 1 to 255 printable ASCII characters (0x20-0x7E).",
    "1. Byte stream S = XofTurboShake128(seed, dst = b'dpspec/tape/v1/' || ASCII(tag),"
    " binder = b'') of VDAF draft-irtf-cfrg-vdaf-20 sec. 6.2.1 (TurboSHAKE128 of RFC 9861, D = 1,"
    " absorbing le16(len(dst)) || dst || le8(len(seed)) || seed || binder).",
    "2. Bit stream: bit 8i+j is (S[i] >> j) & 1 (least-significant bit of each byte first).",
    "3. uniform(n), n >= 1: k = bit_length(n - 1); take the next k bits c_0..c_{k-1},"
    " x = sum(c_j * 2^j); return x if x < n, else discard them and repeat."
    " uniform(1) = 0 takes no bits. n <= 0 is an error.",
    "bitsConsumed counts the bits handed out (rejected candidates included);"
    " bytesConsumed = ceil(bitsConsumed / 8), the prefix of S that was needed.",
    "Integers n and values are decimal strings; seeds are hex.",
    VECTOR_SEED_HEADER + "; never use fixed seeds in production.",
]

XOF_HEADER = [
    "XofTurboShake128 of VDAF draft-irtf-cfrg-vdaf-20 sec. 6.2.1 (wire VERSION 18).",
    "xof.next: absorb le16(len(dst)) || dst || le8(len(seed)) || seed || binder into TurboSHAKE128"
    " with domain byte 1, then read the chunks of lengths `lengths` in order from one stream.",
    "xof.derive_seed: the first 32 bytes of the stream (seed must be 32 bytes).",
    "xof.expand_into_vec: rejection-sample `length` elements of `field`: read ENCODED_SIZE bytes,"
    " little-endian, mask to bit_length(MODULUS) bits, keep if < MODULUS; output is the"
    " concatenated little-endian encodings.",
    "Invalid: seed longer than 255 bytes; a seed that is not 32 bytes for derive_seed and"
    " expand_into_vec; length <= 0; an unknown field.",
]


class TapeFamily(Family):
    name = "tape"
    summary = "XofTurboShake128 (VDAF draft-20) and the dpspec random tape"

    def handlers(self) -> dict[str, Handler]:
        return {
            "xof.next": xof_next,
            "xof.fixed_key_aes128.next": xof_aes_next,
            "xof.derive_seed": xof_derive_seed,
            "xof.expand_into_vec": xof_expand_into_vec,
            "tape.uniform": tape_uniform,
            "tape.uniform_mixed": tape_mixed,
            "tape.bits": tape_bits,
            "xof.format_dst": xof_format_dst,
        }

    def schemas(self) -> dict[str, dict[str, Any]]:
        seed_args: dict[str, Any] = {"seed": HEX, "dst": HEX, "binder": HEX}
        xof_ops: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
            "xof.next": ({"properties": {**seed_args, "lengths": {"type": "array",
                          "items": COUNT}}},
                         {"type": "object", "required": ["chunks"],
                          "properties": {"chunks": {"type": "array", "items": HEX}}}),
            "xof.derive_seed": ({"properties": seed_args},
                                {"type": "object", "required": ["derivedSeed"],
                                 "properties": {"derivedSeed": HEX}}),
            "xof.expand_into_vec": ({"properties": {**seed_args, "field": {"type": "string"},
                                                    "length": {"type": "integer"}}},
                                    {"type": "object", "required": ["encoded"],
                                     "properties": {"encoded": HEX}}),
        }
        tape_out: dict[str, Any] = {"type": "object", "required": ["values", "bitsConsumed", "bytesConsumed"],
                    "properties": {"values": {"type": "array", "items": DEC},
                                   "bitsConsumed": COUNT, "bytesConsumed": COUNT}}
        tape_args: dict[str, Any] = {"seed": HEX, "tag": {"type": "string"}}
        tape_ops: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
            "tape.uniform": ({"properties": {**tape_args, "n": DEC, "count": COUNT}}, tape_out),
            "tape.uniform_mixed": ({"properties": {**tape_args, "moduli": {"type": "array",
                                    "items": DEC}}}, tape_out),
        }
        boundary_ops: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
            "tape.bits": ({"properties": {**tape_args, "counts": {"type": "array",
                                                                  "items": {"type": "integer"}}}},
                          tape_out),
            "tape.uniform": tape_ops["tape.uniform"],
            "xof.next": ({"properties": {**seed_args, "lengths": {"type": "array",
                                                                  "items": {"type": "integer"}}}},
                         xof_ops["xof.next"][1]),
            "xof.fixed_key_aes128.next": ({"properties": {**seed_args, "lengths": {
                "type": "array", "items": {"type": "integer"}}}}, xof_ops["xof.next"][1]),
            "xof.format_dst": ({"properties": {"algoClass": DEC, "algo": DEC, "usage": DEC}},
                               {"type": "object", "required": ["dst"], "properties": {"dst": HEX}}),
        }
        return {
            XOF_SCHEMA: family_schema(XOF_SCHEMA, "XofTurboShake128 vectors", xof_ops),
            TAPE_SCHEMA: family_schema(TAPE_SCHEMA, "random tape vectors", tape_ops),
            BOUNDARY_SCHEMA: family_schema(BOUNDARY_SCHEMA, "random tape and XOF boundary vectors",
                                           boundary_ops),
        }

    def files(self) -> list[VectorFile]:
        return [self._xof_file(), self._tape_file(), self._boundary_file()]

    def _boundary_file(self) -> VectorFile:
        tc = TestNumberer()
        groups: list[dict[str, Any]] = []

        def group(op: str, params: dict[str, Any], cases: list[tuple[str, dict[str, Any], str]]) -> None:
            """Cases flagged "" or MaxValue are valid, the others invalid (with that flag)."""
            tests = []
            for label, inputs, flag in cases:
                if flag in ("", "MaxValue"):
                    tests.append(test_entry(tc(), label, inputs, self._run(op, {**params, **inputs}),
                                            flags=[flag] if flag else []))
                else:
                    tests += invalid_tests(tc, self.handlers()[op], params, [(label, inputs, flag)])
            groups.append({"op": op, "params": params, "tests": tests})

        group("tape.bits", {"tag": "vectors/bits"}, [
            ("k = 0 takes nothing", {"seed": vector_seed("tape/bits/0").hex(), "counts": [0, 0]}, ""),
            ("single bits, least-significant first", {"seed": vector_seed("tape/bits/1").hex(),
                                                      "counts": [1] * 16}, ""),
            ("8 then 1 then 7: byte boundaries", {"seed": vector_seed("tape/bits/2").hex(),
                                                  "counts": [8, 1, 7, 3, 5]}, ""),
            ("64-bit chunks across the 512-bit refill", {"seed": vector_seed("tape/bits/3").hex(),
                                                         "counts": [64] * 9}, ""),
            ("511, 1, 1, 512, 513 bits", {"seed": vector_seed("tape/bits/4").hex(),
                                          "counts": [511, 1, 1, 512, 513]}, ""),
            ("k = -1 is rejected", {"seed": vector_seed("tape/bits/5").hex(), "counts": [3, -1]},
             "BadCount"),
        ])
        base = {"seed": vector_seed("tape/tags/boundary").hex(), "n": "1000", "count": 4}
        group("tape.uniform", {}, [
            ("a 255-character tag (the maximum)", {**base, "tag": "t" * 255}, ""),
            ("a 254-character tag", {**base, "tag": "t" * 254}, ""),
            ("tag ' ' (0x20, the lowest printable)", {**base, "tag": " "}, ""),
            ("tag '~' (0x7E, the highest printable)", {**base, "tag": "~"}, ""),
            ("0x1F in the tag is rejected", {**base, "tag": "a\x1fb"}, "BadTag"),
            ("0x7F in the tag is rejected", {**base, "tag": "a\x7fb"}, "BadTag"),
            ("n = 2^k exactly: k bits, never rejects", {**base, "tag": "vectors/uniform", "n": str(2**20)},
             ""),
            ("n = 2^k + 1: k + 1 bits", {**base, "tag": "vectors/uniform", "n": str(2**20 + 1)}, ""),
        ])
        group("xof.next", {"dst": "", "binder": ""}, [
            ("a negative length is rejected", {"seed": vector_seed("tape/xof/neg").hex(),
                                               "lengths": [4, -1]}, "BadLength"),
        ])
        group("xof.next", {"binder": ""}, [
            ("a dst of 65535 bytes (the largest le16)", {"seed": vector_seed("tape/xof/dst").hex(),
                                                         "dst": "ab" * 65535, "lengths": [8]}, ""),
            ("a dst of 65536 bytes is rejected", {"seed": vector_seed("tape/xof/dst").hex(),
                                                  "dst": "ab" * 65536, "lengths": [8]}, "BadLength"),
        ])
        aes_seed = vector_seed("tape/xof/aes").hex()[:32]
        group("xof.fixed_key_aes128.next", {"binder": "cafe"}, [
            ("chunks across the 16-byte blocks", {"seed": aes_seed, "dst": "0102",
                                                  "lengths": [0, 1, 15, 16, 17, 33, 2]}, ""),
            ("one 48-byte chunk (three whole blocks)", {"seed": aes_seed, "dst": "0102", "lengths": [48]},
             ""),
            ("a 15-byte seed is rejected", {"seed": aes_seed[:30], "dst": "0102", "lengths": [1]},
             "BadSeed"),
            ("a 17-byte seed is rejected", {"seed": aes_seed + "00", "dst": "0102", "lengths": [1]},
             "BadSeed"),
            ("a negative length is rejected", {"seed": aes_seed, "dst": "0102", "lengths": [3, -1]},
             "BadLength"),
            ("a dst of 65536 bytes is rejected", {"seed": aes_seed, "dst": "ab" * 65536, "lengths": [1]},
             "BadLength"),
            ("chunks starting inside the second and fourth blocks", {
                "seed": aes_seed, "dst": "0102", "lengths": [30, 20, 1]}, ""),
            ("an all-ones seed (every block index bit meets a set seed bit)", {
                "seed": "ff" * 16, "dst": "0102", "lengths": [40]}, ""),
            ("a dst of 65535 bytes (the largest le16)", {"seed": aes_seed, "dst": "ab" * 65535,
                                                         "lengths": [1]}, ""),
        ])
        group("xof.format_dst", {}, [
            ("Prio3Count's measurement share usage", {"algoClass": "0", "algo": "1", "usage": "1"}, ""),
            ("largest algoClass, algo and usage",
             {"algoClass": "255", "algo": str(2**32 - 1), "usage": str(2**16 - 1)}, "MaxValue"),
            ("algoClass 256 is rejected", {"algoClass": "256", "algo": "0", "usage": "0"}, "OutOfRange"),
            ("algo 2^32 is rejected", {"algoClass": "0", "algo": str(2**32), "usage": "0"}, "OutOfRange"),
            ("usage 2^16 is rejected", {"algoClass": "0", "algo": "0", "usage": str(2**16)}, "OutOfRange"),
            ("a negative algoClass is rejected", {"algoClass": "-1", "algo": "0", "usage": "0"},
             "OutOfRange"),
            ("a negative algo is rejected", {"algoClass": "0", "algo": "-1", "usage": "0"}, "OutOfRange"),
            ("a negative usage is rejected", {"algoClass": "0", "algo": "0", "usage": "-1"}, "OutOfRange"),
        ])
        return self.vector_file(BOUNDARY_PATH, algorithm="RandomTape-v1 and XofTurboShake128: boundaries",
                                schema=BOUNDARY_SCHEMA, header=BOUNDARY_HEADER, notes=BOUNDARY_NOTES,
                                groups=groups)

    # -- generators ------------------------------------------------------------------------
    def _run(self, op: str, args: dict[str, Any]) -> dict[str, Any]:
        return self.handlers()[op](args)

    def _xof_file(self) -> VectorFile:
        tc = TestNumberer()
        official: dict[str, Any] = {"seed": bytes(range(32)).hex(), "dst": b"domain separation tag".hex(),
                    "binder": b"binder string".hex()}
        groups: list[dict[str, Any]] = []

        tests = []
        xof_cases: list[tuple[str, dict[str, Any]]] = [
            ("official draft-20 XofTurboShake128 inputs", dict(official, lengths=[32, 640])),
            ("empty dst, binder and seed", {"seed": "", "dst": "", "binder": "",
                                             "lengths": [0, 1, 167, 168, 169]}),
            ("chunks across the 168-byte TurboSHAKE128 block boundary",
             {"seed": vector_seed("xof/1").hex(), "dst": bytes([18, 0, 0, 0, 0, 1, 0, 1]).hex(),
              "binder": bytes(range(100)).hex(), "lengths": [100, 68, 1, 335]}),
            ("255-byte seed (the maximum)", {"seed": vector_seed("xof/2", 255).hex(),
                                             "dst": "00", "binder": "", "lengths": [16]}),
        ]
        for label, inputs in xof_cases:
            tests.append(test_entry(tc(), label, inputs, self._run("xof.next", inputs)))
        bad = {"seed": vector_seed("xof/3", 256).hex(), "dst": "", "binder": "", "lengths": [16]}
        tests += invalid_tests(tc, xof_next, {}, [("256-byte seed is rejected", bad, "SeedTooLong")])
        groups.append({"op": "xof.next", "params": {}, "tests": tests})

        tests = []
        for label, inputs in [
            ("official draft-20 XofTurboShake128 inputs", official),
            ("empty dst and binder", {"seed": vector_seed("xof/4").hex(), "dst": "",
                                      "binder": ""}),
        ]:
            tests.append(test_entry(tc(), label, inputs, self._run("xof.derive_seed", inputs)))
        bad2: dict[str, Any] = {"seed": vector_seed("xof/5", 31).hex(), "dst": "", "binder": ""}
        tests += invalid_tests(tc, xof_derive_seed, {},
                               [("31-byte seed is rejected", bad2, "WrongSeedSize")])
        groups.append({"op": "xof.derive_seed", "params": {}, "tests": tests})

        tests = []
        for fname, length in [("Field128", 40), ("Field64", 40), ("Field64", 1), ("Field128", 257)]:
            inputs = {**official, "field": fname, "length": length}
            tests.append(test_entry(tc(), f"{length} elements of {fname}", inputs,
                                    self._run("xof.expand_into_vec", inputs)))
        tests += invalid_tests(tc, xof_expand_into_vec, {}, [
            ("length 0 is rejected", {**official, "field": "Field64", "length": 0}, "BadLength"),
            ("unknown field is rejected", {**official, "field": "Field32", "length": 4},
             "UnknownField"),
        ])
        groups.append({"op": "xof.expand_into_vec", "params": {}, "tests": tests})

        return self.vector_file(
            "tape/xof_turboshake128.json", algorithm="XofTurboShake128", schema=XOF_SCHEMA,
            header=XOF_HEADER,
            notes={
                "SeedTooLong": "The seed exceeds 255 bytes, so its length does not fit le8.",
                "WrongSeedSize": "derive_seed and expand_into_vec take a SEED_SIZE (32) byte seed.",
                "BadLength": "The number of field elements must be positive.",
                "UnknownField": "Only Field64 and Field128 are defined.",
            },
            groups=groups,
        )

    def _tape_file(self) -> VectorFile:
        tc = TestNumberer()
        groups: list[dict[str, Any]] = []
        tests = []
        cases = [
            ("n = 1 takes no bits", "1", 5),
            ("n = 2: one bit per draw", "2", 64),
            ("n = 3: two-bit candidates, 3 rejected", "3", 64),
            ("n = 6", "6", 64),
            ("n = 10", "10", 64),
            ("n = 255", "255", 32),
            ("n = 256: one byte, never rejects", "256", 16),
            ("n = 257: nine bits, rejection about half the time", "257", 32),
            ("n = 1000000", "1000000", 16),
            ("n = 2^64 - 59 (a prime just below 2^64)", str(2**64 - 59), 8),
            ("n = 2^64 + 1 (65-bit candidates)", str(2**64 + 1), 8),
            ("n = 2^255 - 19", str(2**255 - 19), 4),
            ("count 0 consumes nothing", "1000", 0),
        ]
        inputs: dict[str, Any]
        for i, (label, n, count) in enumerate(cases):
            inputs = {"seed": vector_seed(f"tape/{i}").hex(), "tag": "vectors/uniform",
                      "n": n, "count": count}
            tests.append(test_entry(tc(), label, inputs, self._run("tape.uniform", inputs)))
        same_seed = vector_seed("tape/tags").hex()
        for tag in ["a", "b", "discrete_gaussian", "~ !#printable ascii 0123456789~"]:
            inputs = {"seed": same_seed, "tag": tag, "n": "1000", "count": 8}
            tests.append(test_entry(tc(), f"same seed, tag {tag!r}: tags separate streams",
                                    inputs, self._run("tape.uniform", inputs)))
        for label, seed_len in [("16-byte seed (the minimum)", 16),
                                ("255-byte seed (the maximum)", 255)]:
            inputs = {"seed": vector_seed(f"tape/len{seed_len}", seed_len).hex(),
                      "tag": "vectors/uniform", "n": "100", "count": 8}
            tests.append(test_entry(tc(), label, inputs, self._run("tape.uniform", inputs)))
        invalid = [
            ("n = 0 is rejected", {"n": "0"}, "BadModulus"),
            ("negative n is rejected", {"n": "-5"}, "BadModulus"),
            ("empty seed is rejected", {"seed": ""}, "BadSeed"),
            ("15-byte seed is rejected", {"seed": vector_seed("tape/15", 15).hex()}, "BadSeed"),
            ("256-byte seed is rejected", {"seed": vector_seed("tape/256", 256).hex()},
             "BadSeed"),
            ("empty tag is rejected", {"tag": ""}, "BadTag"),
            ("non-ASCII tag is rejected", {"tag": "caf\u00e9"}, "BadTag"),
            ("control character in tag is rejected", {"tag": "a\nb"}, "BadTag"),
            ("256-character tag is rejected", {"tag": "t" * 256}, "BadTag"),
        ]
        base = {"seed": vector_seed("tape/invalid").hex(), "tag": "vectors/uniform", "n": "10",
                "count": 4}
        tests += invalid_tests(tc, tape_uniform, {}, [(label, {**base, **change}, flag)
                                                      for label, change, flag in invalid])
        groups.append({"op": "tape.uniform", "params": {}, "tests": tests})

        tests = []
        moduli = ["2", "3", "1", "1000", "2", "257", str(2**70), "7", "1", "65536"]
        for i in range(3):
            inputs = {"seed": vector_seed(f"tape/mixed/{i}").hex(), "tag": "vectors/mixed",
                      "moduli": moduli}
            tests.append(test_entry(tc(), "draws of several sizes share one bit stream", inputs,
                                    self._run("tape.uniform_mixed", inputs)))
        groups.append({"op": "tape.uniform_mixed", "params": {}, "tests": tests})

        return self.vector_file(
            "tape/random_tape.json", algorithm="RandomTape-v1", schema=TAPE_SCHEMA, header=TAPE_HEADER,
            notes={
                "BadModulus": "uniform(n) is defined for n >= 1 only.",
                "BadSeed": "The seed must have 16 to 255 bytes.",
                "BadTag": "The tag must be 1 to 255 printable ASCII characters.",
            },
            groups=groups,
        )


FAMILY = TapeFamily()
