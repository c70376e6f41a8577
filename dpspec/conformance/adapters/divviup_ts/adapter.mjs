// dpspec conformance adapter for the npm package @divviup/prio3 0.8.0 (VDAF draft-irtf-cfrg-vdaf-08).
//
// Drives the library step by step through the harness's vdaf.* ops (dpspec/conformance/PROTOCOL.md):
// shard -> prepareInit -> unshardPreparationShares -> prepareNext -> aggregate -> unshard, with the
// nonce, rand and verify_key of each official draft-08 vector.
//
// The package has encoders but no decoders. Shares it produced itself are therefore remembered by
// their encoding: vdaf.verify_init accepts the public and input shares that this adapter's own
// vdaf.shard returned (the harness sends the vector's bytes; if the library reproduced them, they
// are found), vdaf.verifier_shares_to_message the verifier shares of its own verify_init. Output
// and aggregate shares are plain vectors of field elements and are decoded directly. Anything it
// cannot decode is answered "unsupported", never guessed.
//
// Supported: Prio3Count, Prio3Sum, Prio3SumVec, Prio3Histogram, Prio3SumVecWithMultiproof
// (Field64 and num_proofs from the harness). Prio3MultiHotHistogram is not in the package.
import { Buffer } from "buffer";
import { Prio3, Prio3Count, Prio3Histogram, Prio3Sum, Prio3SumVec } from "@divviup/prio3";
import { FlpGeneric } from "@divviup/prio3/dist/genericFlp.js";
import { SumVec } from "@divviup/prio3/dist/circuits/sumVec.js";
import { Field128, Field64 } from "@divviup/field";
import { XofTurboShake128 } from "@divviup/xof";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { serve, RejectedInput, Unsupported } from "../node_example/protocol.mjs";

const require = createRequire(import.meta.url);
const PACKAGE_VERSION = require("@divviup/prio3/package.json").version;

const hex = (buf) => Buffer.from(buf).toString("hex");

function bytes(value, name) {
  if (typeof value !== "string" || !/^([0-9a-f]{2})*$/.test(value)) {
    throw new RejectedInput(`${name} must be lower-case hex`);
  }
  return Buffer.from(value, "hex");
}

/** One instance per distinct vdaf description, with its caches. */
class Instance {
  constructor(desc) {
    if (desc.draft !== 8) {
      throw new Unsupported(`@divviup/prio3 ${PACKAGE_VERSION} implements VDAF draft-08 only`);
    }
    const shares = desc.shares;
    switch (desc.type) {
      case "Prio3Count":
        this.vdaf = new Prio3Count({ shares });
        this.elementSize = 8;
        break;
      case "Prio3Sum":
        this.vdaf = new Prio3Sum({ shares, bits: desc.bits });
        this.elementSize = 16;
        break;
      case "Prio3SumVec":
        this.vdaf = new Prio3SumVec({ shares, length: desc.length, chunkLength: desc.chunk_length,
                                      bits: desc.bits });
        this.elementSize = 16;
        break;
      case "Prio3Histogram":
        this.vdaf = new Prio3Histogram({ shares, length: desc.length, chunkLength: desc.chunk_length });
        this.elementSize = 16;
        break;
      case "Prio3SumVecWithMultiproof": {
        if (desc.field !== "Field64") throw new Unsupported("multiproof SumVec only over Field64");
        const circuit = new SumVec(new Field64(), desc.length, desc.bits, desc.chunk_length);
        this.vdaf = new Prio3(XofTurboShake128, new FlpGeneric(circuit), shares, desc.num_proofs,
                              0xffffffff);
        this.elementSize = 8;
        break;
      }
      default:
        throw new Unsupported(`${desc.type} is not in @divviup/prio3 ${PACKAGE_VERSION}`);
    }
    this.type = desc.type;
    this.publicShares = new Map();
    this.inputShares = new Map();
    this.prepShares = new Map();
    this.prepMessages = new Map();
    this.states = new Map();
    this.nextState = 1;
  }

  measurement(m) {
    if (this.type === "Prio3Count") return Boolean(m);
    if (this.type === "Prio3Sum") return BigInt(m);
    return m;
  }

  decodeVector(value, name) {
    const buf = bytes(value, name);
    if (buf.length % this.elementSize !== 0) throw new RejectedInput(`${name} has a bad length`);
    const out = [];
    for (let i = 0; i < buf.length; i += this.elementSize) {
      let x = 0n;
      for (let j = this.elementSize - 1; j >= 0; j--) x = (x << 8n) | BigInt(buf[i + j]);
      out.push(x);
    }
    return out;
  }

  lookup(map, value, what) {
    const found = map.get(value);
    if (found === undefined) {
      throw new Unsupported(`cannot decode this ${what}: @divviup/prio3 ${PACKAGE_VERSION} has no ` +
                            "decoders; only encodings this adapter produced are known");
    }
    return found;
  }
}

const instances = new Map();

function instance(desc) {
  if (desc === null || typeof desc !== "object") throw new RejectedInput("vdaf must be an object");
  const key = JSON.stringify(desc, Object.keys(desc).sort());
  let inst = instances.get(key);
  if (inst === undefined) {
    inst = new Instance(desc);
    instances.set(key, inst);
  }
  return inst;
}

function jsonResult(value) {
  if (typeof value === "bigint") return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (Array.isArray(value)) return value.map(jsonResult);
  return value;
}

export const handlers = {
  async "vdaf.shard"(args) {
    const inst = instance(args.vdaf);
    const { publicShare, inputShares } = await inst.vdaf.shard(
      inst.measurement(args.measurement), bytes(args.nonce, "nonce"), bytes(args.rand, "rand"));
    const pub = hex(inst.vdaf.encodePublicShare(publicShare));
    inst.publicShares.set(pub, publicShare);
    const encoded = inputShares.map((s) => {
      const h = hex(inst.vdaf.encodeInputShare(s));
      inst.inputShares.set(h, s);
      return h;
    });
    return { public_share: pub, input_shares: encoded };
  },

  async "vdaf.verify_init"(args) {
    const inst = instance(args.vdaf);
    const pub = inst.lookup(inst.publicShares, args.public_share, "public share");
    const share = inst.lookup(inst.inputShares, args.input_share, "input share");
    const { preparationState, preparationShare } = await inst.vdaf.prepareInit(
      bytes(args.verify_key, "verify_key"), args.aggregator_id, null, bytes(args.nonce, "nonce"),
      pub, share);
    const encoded = hex(inst.vdaf.encodePreparationShare(preparationShare));
    inst.prepShares.set(encoded, preparationShare);
    const handle = `s${inst.nextState++}`;
    inst.states.set(handle, preparationState);
    return { state: handle, verifier_share: encoded };
  },

  async "vdaf.verifier_shares_to_message"(args) {
    const inst = instance(args.vdaf);
    const shares = args.verifier_shares.map((s) => inst.lookup(inst.prepShares, s, "verifier share"));
    const message = await inst.vdaf.unshardPreparationShares(null, shares);
    const encoded = hex(inst.vdaf.encodePreparationMessage(message));
    inst.prepMessages.set(encoded, message);
    return { verifier_message: encoded };
  },

  async "vdaf.verify_next"(args) {
    const inst = instance(args.vdaf);
    const state = inst.states.get(args.state);
    if (state === undefined) throw new RejectedInput("unknown state handle");
    const message = inst.lookup(inst.prepMessages, args.verifier_message, "verifier message");
    const next = inst.vdaf.prepareNext(state, message);
    if (!("outputShare" in next)) throw new RejectedInput("Prio3 finishes in one round");
    return { out_share: inst.vdaf.encodeTestVectorOutputShare(next.outputShare).join("") };
  },

  async "vdaf.aggregate"(args) {
    const inst = instance(args.vdaf);
    const outs = args.out_shares.map((s) => inst.decodeVector(s, "out_share"));
    return { agg_share: hex(inst.vdaf.encodeAggregatorShare(inst.vdaf.aggregate(null, outs))) };
  },

  async "vdaf.unshard"(args) {
    const inst = instance(args.vdaf);
    const shares = args.agg_shares.map((s) => inst.decodeVector(s, "agg_share"));
    return { agg_result: jsonResult(inst.vdaf.unshard(null, shares, args.num_measurements)) };
  },
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await serve(handlers, { implementation: "@divviup/prio3", version: PACKAGE_VERSION,
                          modes: ["exact"] });
}
