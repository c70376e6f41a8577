#!/usr/bin/env node
// The worked example of a dpspec conformance adapter in a second language (Node.js >= 18, no
// npm packages). Read this with dpspec/conformance/PROTOCOL.md: it is meant to be copied.
//
//   node dpspec/conformance/adapters/node_example/adapter.mjs        (the harness starts it)
//   dpspec conformance run --impl node-example
//
// It implements, from the specifications and the vector headers alone:
//   exact mode   xof.next, xof.derive_seed, xof.expand_into_vec   (VDAF draft-20 sec. 6.2.1)
//                tape.uniform, tape.uniform_mixed, tape.bits         (the random tape, dpspec/spec/tape.py)
//                xof.format_dst                                      (VDAF draft-20 sec. 6.2.3)
//                sampler.bernoulli, sampler.bernoulli_exp, sampler.bernoulli_rr {seed, tag, ..., count}
//                the whole rational-only profile: sampler.rational.{bernoulli_exp, bernoulli_rr,
//                geometric_exp, discrete_laplace, discrete_gaussian, discrete_gaussian_vector}
//                (vectors/samplers/rational/*.json), with the parameter GRAMMAR and VALIDATION
//                ORDER of the samplers headers (vectors/samplers/grammar.json)
//   statistical  the same samplers without {seed, tag}, and sampler.discrete_laplace {t, count}
//                (a fresh random seed; the discrete Laplace is Algorithm 2 of [CKS20])
// Only BigInt arithmetic is used on the sampling paths: no floating point, no interval bounds.
// sampler.discrete_laplace with a seed (exact mode) is answered "unsupported": the lazy profile's
// exact algorithm compares with irrational numbers and is not ported here.
import { randomBytes } from "node:crypto";
import { RejectedInput, Unsupported, serve } from "./protocol.mjs";
import { XofTurboShake128 } from "./turboshake.mjs";

// -- argument decoding ------------------------------------------------------------------------
function hexArg(args, key) {
  const v = args[key];
  if (typeof v !== "string" || !/^([0-9a-f]{2})*$/.test(v)) throw new RejectedInput(`${key} must be hex`);
  return Uint8Array.from(Buffer.from(v, "hex"));
}
function intArg(args, key) {
  const v = args[key];
  if (typeof v === "number" && Number.isInteger(v)) return BigInt(v);
  if (typeof v === "string" && /^-?(0|[1-9][0-9]*)$/.test(v)) return BigInt(v);
  throw new RejectedInput(`${key} must be an integer or a decimal string`);
}
function countArg(args) {
  const v = args.count;
  if (!Number.isInteger(v) || v < 0 || v > 1_000_000) throw new RejectedInput("count must be in [0, 10^6]");
  return v;
}
// -- the parameter grammar of the samplers headers (ABNF) and its validation order ----------------
//   rational = [sign] ( fraction / decimal ); fraction = digits "/" digits;
//   decimal = mantissa [exponent]; mantissa = digits [ "." *DIGIT ] / "." digits;
//   exponent = "e" [sign] digits (e or E); integer = [sign] digits; digits = 1*DIGIT
const RATIONAL_RE = /^([+-]?)(?:([0-9]+)\/([0-9]+)|(?:([0-9]+)(?:\.([0-9]*))?|\.([0-9]+))(?:[eE]([+-]?[0-9]+))?)$/;
const INTEGER_RE = /^[+-]?[0-9]+$/;
const MAX_TEXT_LENGTH = 1000;
const MAX_EXPONENT = 10000n;

function gcd(a, b) {
  a = a < 0n ? -a : a;
  while (b) [a, b] = [b, a % b];
  return a;
}

/** Steps 1-5 of the validation order for a rational parameter: [numerator, denominator > 0]. */
function rationalArg(args, key) {
  const v = args[key];
  if (typeof v !== "string") throw new RejectedInput(`${key}: not a string (NotRational)`);
  if (v.length > MAX_TEXT_LENGTH) throw new RejectedInput(`${key}: too long (TooLong)`);
  const m = RATIONAL_RE.exec(v);
  if (m === null) throw new RejectedInput(`${key}: not a rational (NotRational)`);
  const sign = m[1] === "-" ? -1n : 1n;
  let num, den;
  if (m[2] !== undefined) {
    num = BigInt(m[2]);
    den = BigInt(m[3]);
    if (den === 0n) throw new RejectedInput(`${key}: zero denominator (ZeroDenominator)`);
  } else {
    const exp = m[7] === undefined ? 0n : BigInt(m[7]);
    if (exp > MAX_EXPONENT || exp < -MAX_EXPONENT) {
      throw new RejectedInput(`${key}: exponent too large (ExponentTooLarge)`);
    }
    const frac = m[6] ?? m[5] ?? "";
    num = BigInt((m[4] ?? "0") + frac);
    den = 10n ** BigInt(frac.length);
    if (exp >= 0n) num *= 10n ** exp;
    else den *= 10n ** -exp;
  }
  const g = gcd(num, den) || 1n;
  return [(sign * num) / g, den / g];
}

/** Steps 1-3 for an integer parameter (n, dim): "[sign] digits" only. */
function integerArg(args, key) {
  const v = args[key];
  if (typeof v !== "string") throw new RejectedInput(`${key}: not a string (NotRational)`);
  if (v.length > MAX_TEXT_LENGTH) throw new RejectedInput(`${key}: too long (TooLong)`);
  if (!INTEGER_RE.test(v)) throw new RejectedInput(`${key}: not an integer (NotInteger)`);
  return BigInt(v);
}

/** Step 6: a range check on a parsed rational [a, b] (b > 0). */
function atLeast([a], key, strict) {
  if (strict ? a <= 0n : a < 0n) throw new RejectedInput(`${key} must be ${strict ? ">" : ">="} 0 (OutOfRange)`);
}
const hex = (bytes) => Buffer.from(bytes).toString("hex");

// -- fields of VDAF draft-20 sec. 6.1.2 -----------------------------------------------------------
const FIELDS = {
  Field64: { modulus: 2n ** 32n * 4294967295n + 1n, size: 8 },
  Field128: { modulus: 2n ** 66n * 4611686018427387897n + 1n, size: 16 },
};
const leInt = (bytes) => bytes.reduceRight((acc, b) => (acc << 8n) | BigInt(b), 0n);
function leBytes(x, size) {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++, x >>= 8n) out[i] = Number(x & 0xffn);
  return out;
}

// -- the random tape (dpspec/spec/tape.py, version 1) --------------------------------------------------
class RandomTape {
  constructor(seed, tag) {
    if (seed.length < 16 || seed.length > 255) throw new RejectedInput("tape seed must have 16 to 255 bytes");
    if (typeof tag !== "string" || tag.length < 1 || tag.length > 255 || !/^[\x20-\x7e]+$/.test(tag)) {
      throw new RejectedInput("tape tag must be 1 to 255 printable ASCII characters");
    }
    const dst = new TextEncoder().encode("dpspec/tape/v1/" + tag);
    this.xof = new XofTurboShake128(seed, dst, new Uint8Array(0));
    this.buf = 0n; // unread bits, the next one least significant
    this.nbits = 0n;
    this.bitsConsumed = 0n;
  }
  bits(k) {
    while (this.nbits < k) {
      this.buf |= leInt(this.xof.next(64)) << this.nbits;
      this.nbits += 512n;
    }
    const x = this.buf & ((1n << k) - 1n);
    this.buf >>= k;
    this.nbits -= k;
    this.bitsConsumed += k;
    return x;
  }
  uniform(n) {
    if (n <= 0n) throw new RejectedInput("uniform(n) needs n >= 1");
    const k = BigInt((n - 1n).toString(2).length) - (n === 1n ? 1n : 0n);
    for (;;) {
      const x = this.bits(k);
      if (x < n) return x;
    }
  }
  get bytesConsumed() {
    return (this.bitsConsumed + 7n) / 8n;
  }
}

function tapeResult(tape, values) {
  return { values: values.map(String), bitsConsumed: Number(tape.bitsConsumed),
           bytesConsumed: Number(tape.bytesConsumed) };
}

// -- samplers over the tape ([CKS20] = Canonne, Kamath, Steinke 2020) -----------------------------
/** The lazy comparison lc(num/den) of the samplers family: compares a uniform U = 0.b1 b2 ...
 * read bit by bit with x = num/den, 0 <= x <= 1; returns true with probability x exactly.
 * Loop invariant: r = den * 2^i * (x - V / 2^i) for the bits V read so far. */
function bernoulliRatio(tape, num, den) {
  if (num <= 0n) return false;
  if (num >= den) return true;
  let r = num;
  for (;;) {
    r = 2n * r - den * tape.bits(1n);
    if (r <= 0n) return false;
    if (r >= den) return true;
  }
}

/** Bernoulli(exp(-a/b)), Algorithm 1 of [CKS20]. */
function bernoulliExp(tape, a, b) {
  if (a <= b) {
    let k = 1n;
    while (bernoulliRatio(tape, a, b * k)) k += 1n;
    return k % 2n === 1n;
  }
  for (let i = 0n; i < a / b; i++) if (!bernoulliExp(tape, 1n, 1n)) return false;
  return bernoulliExp(tape, a % b, b);
}

/** Discrete Laplace with scale num/den (P[x] ∝ exp(-|x| den/num)), Algorithm 2 of [CKS20]
 * with t = num, s = den. */
function discreteLaplace(tape, num, den) {
  for (;;) {
    const u = tape.uniform(num);
    if (!bernoulliExp(tape, u, num)) continue;
    let v = 0n;
    while (bernoulliExp(tape, 1n, 1n)) v += 1n;
    const y = (u + num * v) / den;
    const negative = bernoulliRatio(tape, 1n, 2n);
    if (negative && y === 0n) continue;
    return negative ? -y : y;
  }
}

// -- the rational-only profile (vectors/samplers/rational/*.json headers) ----------------------------
/** rr(g) = Bernoulli(exp(-g) / (1 + exp(-g))), g = a/b >= 0: the two-coin Bernoulli factory. */
function rrCoin(tape, a, b) {
  for (;;) {
    if (tape.bits(1n) === 1n) return false;
    if (bernoulliExp(tape, a, b)) return true;
  }
}

/** rg(gamma), gamma = a/b > 0: geometric with ratio exp(-gamma) by halving, rationals only. */
function rationalGeometricExp(tape, a, b) {
  let m = 0n;
  while ((a << (m + 1n)) <= b) m += 1n;
  let v = 0n;
  while (bernoulliExp(tape, a << m, b)) v += 1n;
  let r = 0n;
  for (let j = 0n; j < m; j++) if (rrCoin(tape, a << j, b)) r |= 1n << j;
  return r + (v << m);
}

/** rational.discrete_laplace(t), t = a/b > 0: magnitude rg(1/t) = rg(b/a), a fair sign. */
function rationalDiscreteLaplace(tape, a, b) {
  for (;;) {
    const y = rationalGeometricExp(tape, b, a);
    const sign = tape.bits(1n);
    if (sign === 1n && y === 0n) continue;
    return sign === 1n ? -y : y;
  }
}

function isqrt(n) {
  if (n < 2n) return n;
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2));
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

/** rational.discrete_gaussian(sigma2), sigma2 = n/d > 0 in lowest terms: Algorithm 3 of [CKS20]. */
function rationalDiscreteGaussian(tape, n, d) {
  const t = isqrt(n * d) / d + 1n;
  for (;;) {
    const y = rationalDiscreteLaplace(tape, t, 1n);
    const z = (y < 0n ? -y : y) * t * d - n;
    if (bernoulliExp(tape, z * z, 2n * t * t * d * n)) return y;
  }
}

/** A sampler op: parse and check the parameters (in signature order), then the cost limit
 *  (step 7, once every parameter has passed), then draw `count`. */
function samplerOp(params, draw, cost = () => {}) {
  return (args) => {
    const values = params.map(([key, parse]) => parse(args, key));
    cost(...values);
    const count = countArg(args);
    const tape = samplerTape(args);
    const samples = [];
    for (let i = 0; i < count; i++) {
      const x = draw(tape, ...values);
      samples.push(Array.isArray(x) ? x.map(String) : typeof x === "boolean" ? (x ? "1" : "0") : String(x));
    }
    return { samples, bitsConsumed: Number(tape.bitsConsumed), bytesConsumed: Number(tape.bytesConsumed) };
  };
}
const nonNegative = (args, key) => { const q = rationalArg(args, key); atLeast(q, key, false); return q; };
const positive = (args, key) => { const q = rationalArg(args, key); atLeast(q, key, true); return q; };
const dimension = (args, key) => {
  const n = integerArg(args, key);
  if (n < 1n || n > 1n << 20n) throw new RejectedInput(`${key} must be in [1, 2^20] (OutOfRange)`);
  return n;
};
const gaussianVector = (tape, [n, d], dim) => {
  const out = [];
  for (let i = 0n; i < dim; i++) out.push(rationalDiscreteGaussian(tape, n, d));
  return out;
};
// The scale caps (step 7): the halving geometric's cost grows like log2(scale)^2.
const SCALE = 1n << 256n;
const minRate = (key) => ([a, b]) => {
  if (a > 0n && a * SCALE < b) throw new RejectedInput(`${key} is below 2^-256 (CostTooLarge)`);
};
const maxScale = (key, limit) => ([a, b]) => {
  if (a > limit * b) throw new RejectedInput(`${key} is above the cap (CostTooLarge)`);
};
const RATIONAL_PROFILE = {
  "sampler.rational.bernoulli_exp": samplerOp([["gamma", nonNegative]], (t, [a, b]) => bernoulliExp(t, a, b)),
  "sampler.rational.bernoulli_rr": samplerOp([["eps", nonNegative]], (t, [a, b]) => rrCoin(t, a, b)),
  "sampler.rational.geometric_exp": samplerOp([["gamma", positive]], (t, [a, b]) => rationalGeometricExp(t, a, b),
    minRate("gamma")),
  "sampler.rational.discrete_laplace": samplerOp([["t", positive]], (t, [a, b]) => rationalDiscreteLaplace(t, a, b),
    maxScale("t", SCALE)),
  "sampler.rational.discrete_gaussian": samplerOp([["sigma2", positive]], (t, [n, d]) => rationalDiscreteGaussian(t, n, d),
    maxScale("sigma2", SCALE * SCALE)),
  "sampler.rational.discrete_gaussian_vector": samplerOp([["sigma2", positive], ["dim", dimension]], gaussianVector,
    maxScale("sigma2", SCALE * SCALE)),
  // the lazy profile's two samplers whose coins are already rational (same steps, own tags)
  "sampler.bernoulli_exp": samplerOp([["gamma", nonNegative]], (t, [a, b]) => bernoulliExp(t, a, b)),
  "sampler.bernoulli_rr": samplerOp([["eps", nonNegative]], (t, [a, b]) => rrCoin(t, a, b)),
};

/** The tape of a sampler request: from (seed, tag) in exact mode, else from a fresh seed. */
function samplerTape(args) {
  const seeded = "seed" in args;
  if (seeded !== "tag" in args) throw new RejectedInput("seed and tag go together");
  if (seeded) return new RandomTape(hexArg(args, "seed"), args.tag);
  return new RandomTape(Uint8Array.from(randomBytes(32)), "node-example/statistical");
}

function statisticalTape(args, op) {
  if ("seed" in args) throw new Unsupported(`${op} from a seed (exact mode) is not ported here`);
  return samplerTape(args);
}

// -- the ops ------------------------------------------------------------------------------------
export const handlers = {
  "xof.next"(args) {
    const xof = new XofTurboShake128(hexArg(args, "seed"), hexArg(args, "dst"), hexArg(args, "binder"));
    if (!Array.isArray(args.lengths)) throw new RejectedInput("lengths must be a list");
    return { chunks: args.lengths.map((n) => hex(xof.next(n))) };
  },
  "xof.derive_seed"(args) {
    const seed = hexArg(args, "seed");
    if (seed.length !== 32) throw new RejectedInput("derive_seed needs a 32-byte seed");
    return { derivedSeed: hex(new XofTurboShake128(seed, hexArg(args, "dst"), hexArg(args, "binder")).next(32)) };
  },
  "xof.expand_into_vec"(args) {
    const field = FIELDS[args.field];
    if (!Object.hasOwn(FIELDS, args.field)) throw new RejectedInput(`unknown field ${args.field}`);
    const length = Number(intArg(args, "length"));
    if (length <= 0) throw new RejectedInput("length must be > 0");
    const seed = hexArg(args, "seed");
    if (seed.length !== 32) throw new RejectedInput("expand_into_vec needs a 32-byte seed");
    const xof = new XofTurboShake128(seed, hexArg(args, "dst"), hexArg(args, "binder"));
    const mask = (1n << BigInt(field.modulus.toString(2).length)) - 1n;
    const parts = [];
    while (parts.length < length) {
      const x = leInt(xof.next(field.size)) & mask;
      if (x < field.modulus) parts.push(hex(leBytes(x, field.size)));
    }
    return { encoded: parts.join("") };
  },
  "tape.uniform"(args) {
    const tape = new RandomTape(hexArg(args, "seed"), args.tag);
    const n = intArg(args, "n");
    const count = countArg(args);
    if (n <= 0n) throw new RejectedInput("n must be >= 1");
    const values = [];
    for (let i = 0; i < count; i++) values.push(tape.uniform(n));
    return tapeResult(tape, values);
  },
  "tape.bits"(args) {
    // bits(k) for each k in order from one tape: the next k bits, the first least significant
    const tape = new RandomTape(hexArg(args, "seed"), args.tag);
    if (!Array.isArray(args.counts)) throw new RejectedInput("counts must be a list");
    const values = args.counts.map((k) => {
      if (!Number.isInteger(k) || k < 0) throw new RejectedInput("bit count must be an integer >= 0");
      return tape.bits(BigInt(k));
    });
    return tapeResult(tape, values);
  },
  "xof.format_dst"(args) {
    // VDAF draft-20 sec. 6.2.3: VERSION (18) || algoClass (1 byte) || be32(algo) || be16(usage)
    const fields = [["algoClass", 1], ["algo", 4], ["usage", 2]].map(([key, size]) => {
      const v = intArg(args, key);
      if (v < 0n || v >= 1n << BigInt(8 * size)) throw new RejectedInput(`${key} out of range`);
      return leBytes(v, size).reverse();
    });
    return { dst: hex(Uint8Array.from([18, ...fields.flatMap((b) => [...b])])) };
  },
  "tape.uniform_mixed"(args) {
    const tape = new RandomTape(hexArg(args, "seed"), args.tag);
    if (!Array.isArray(args.moduli)) throw new RejectedInput("moduli must be a list");
    return tapeResult(tape, args.moduli.map((n) => tape.uniform(BigInt(n))));
  },
  ...RATIONAL_PROFILE,
  "sampler.bernoulli"(args) {
    const [num, den] = rationalArg(args, "p");
    if (num < 0n || num > den) throw new RejectedInput("p must be in [0, 1] (OutOfRange)");
    const count = countArg(args);
    const tape = samplerTape(args);
    const samples = [];
    for (let i = 0; i < count; i++) samples.push(bernoulliRatio(tape, num, den) ? "1" : "0");
    return { samples, bitsConsumed: Number(tape.bitsConsumed), bytesConsumed: Number(tape.bytesConsumed) };
  },
  "sampler.discrete_laplace"(args) {
    const tape = statisticalTape(args, "sampler.discrete_laplace");
    const [num, den] = rationalArg(args, "t");
    if (num <= 0n) throw new RejectedInput("t must be > 0");
    const count = countArg(args);
    const samples = [];
    for (let i = 0; i < count; i++) samples.push(String(discreteLaplace(tape, num, den)));
    return { samples };
  },
};

await serve(handlers, { implementation: "dpspec-node-example", version: "1",
                        modes: ["exact", "statistical"] });
