// The library's `replayGate`: one item built in code, judged as the JSON text a
// journal line would hold of it (record-text.ts), so that a getter, a
// non-enumerable or inherited member, a `toJSON` or a Proxy cannot show the gate
// one item and the replayer, who sends the item's JSON text, another. The gate
// reads its own copy; the journal readers already hand it plain data.
import { recordText } from "../journal/record-text.js";
import { replayGate, type GateOptions, type Verdict } from "./replay-gate.js";
import { checkAssertFormats, type ToolSchema } from "./schema.js";

/**
 * Decides whether `item` may be replayed as a tool call (replay-gate.ts), judging
 * the text `JSON.stringify(item)` writes. An item that cannot be written as JSON
 * is blocked. A wrongly typed option is a TypeError.
 */
export function gateItem(item: unknown, schema: ToolSchema | undefined, options: GateOptions = {}): Verdict {
  checkGateOptions(options);
  const written = recordText(item);
  if (!written.ok) return { reason: "namespaced", detail: written.message, path: "" };
  return replayGate(JSON.parse(written.text), schema, options);
}

/** Options a caller got wrong would turn a check off in silence: they throw instead. */
function checkGateOptions(options: GateOptions): void {
  if (options === null || typeof options !== "object") throw new TypeError(`the gate's options are an object, not ${options === null ? "null" : typeof options}`);
  checkAssertFormats(options.assertFormats);
}
