// The adapter side of the dpspec conformance protocol, version 1, for Node.js (no dependencies).
// See dpspec/conformance/PROTOCOL.md. One JSON request per line on stdin, one JSON response per line on
// stdout, in order; diagnostics go to stderr only; end of input means exit.
//
//   handlers: { "op.name": async (args) => resultObject }   // throw RejectedInput to reject
//   serve(handlers, { implementation, version, modes })
import { createInterface } from "node:readline";

export const PROTOCOL_VERSION = 1;

/** Thrown by a handler for arguments the implementation must refuse (answer ok: false, error). */
export class RejectedInput extends Error {}

/** Thrown by a handler for something this implementation does not do (ok: false, unsupported). */
export class Unsupported extends Error {}

export async function respond(request, handlers, capabilities) {
  if (request === null || typeof request !== "object" || Array.isArray(request)) {
    return { id: null, ok: false, error: "request is not a JSON object" };
  }
  const { id, op } = request;
  const args = request.args ?? {};
  if (op === "capabilities") return { id, ok: true, result: capabilities };
  if (typeof op !== "string" || typeof args !== "object" || args === null) {
    return { id, ok: false, error: "request needs a string op and an object args" };
  }
  const handler = Object.hasOwn(handlers, op) ? handlers[op] : undefined;
  if (handler === undefined) return { id, ok: false, unsupported: `op ${op} is not implemented` };
  try {
    return { id, ok: true, result: await handler(args) };
  } catch (err) {
    if (err instanceof Unsupported) return { id, ok: false, unsupported: err.message };
    // Any other exception is a rejection of the arguments (RejectedInput or a library error).
    return { id, ok: false, error: `${err?.name ?? "Error"}: ${err?.message ?? String(err)}` };
  }
}

export async function serve(handlers, { implementation, version, modes }) {
  const capabilities = {
    implementation, version, protocol: PROTOCOL_VERSION,
    ops: Object.keys(handlers).sort(), modes,
  };
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.trim()) continue;
    let response;
    try {
      response = await respond(JSON.parse(line), handlers, capabilities);
    } catch (err) {
      response = { id: null, ok: false, error: `bad JSON: ${err.message}` };
    }
    process.stdout.write(JSON.stringify(response) + "\n");
  }
}
