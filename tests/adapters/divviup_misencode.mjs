// A deliberately broken Prio3 for the harness's tests: the divviup-ts adapter, except that one
// field element is encoded big-endian instead of little-endian.
//   node divviup_misencode.mjs agg     -> the first element of every aggregate share
//   node divviup_misencode.mjs input   -> the first element of the Leader's input share
import { handlers } from "../../dpspec/conformance/adapters/divviup_ts/adapter.mjs";
import { serve } from "../../dpspec/conformance/adapters/node_example/protocol.mjs";

const which = process.argv[2] ?? "agg";

function flipFirst(hexString, size) {
  const head = hexString.slice(0, 2 * size).match(/../g).reverse().join("");
  return head + hexString.slice(2 * size);
}

const size = (vdaf) => (vdaf.type === "Prio3Count" || vdaf.field === "Field64" ? 8 : 16);
const broken = { ...handlers };
if (which === "agg") {
  broken["vdaf.aggregate"] = async (args) => {
    const out = await handlers["vdaf.aggregate"](args);
    return { agg_share: flipFirst(out.agg_share, size(args.vdaf)) };
  };
} else {
  broken["vdaf.shard"] = async (args) => {
    const out = await handlers["vdaf.shard"](args);
    out.input_shares[0] = flipFirst(out.input_shares[0], size(args.vdaf));
    return out;
  };
}
await serve(broken, { implementation: `divviup-ts misencoding (${which})`, version: "0",
                      modes: ["exact"] });
