// A Gemini functionResponse names the function whose call it answers, where an
// Anthropic tool_result, a Bedrock toolResult, a Chat tool message and an Open
// Responses output carry only the call's id. Within one record or run of lines
// the writer finds the call itself; a result whose call came on an earlier line
// takes the name from the journal's calls (conversation-calls.ts), and the
// report says where it came from. Without the name a functionResponse would be
// written with an empty one.
import type { CanonicalItem } from "../models/open-responses.js";
import type { ConversationCalls } from "./conversation-calls.js";

export interface NamedResult {
  /** The index of the output item that was given a name. */
  index: number;
  name: string;
  /** The line of the call that gave the name. */
  callLine: number;
}

/**
 * Records the calls of `items` (on `lineOf(index)`), and gives each output whose
 * call is not among them the name its call gave on an earlier line, in `field`
 * (the target's item field for it, `gemini:name`), unless it has one already.
 */
export function nameResults(args: { items: readonly CanonicalItem[]; calls: ConversationCalls; field: string; lineOf: (index: number) => number }): { items: CanonicalItem[]; named: NamedResult[] } {
  const { items, calls, field, lineOf } = args;
  const here = new Set<string>();
  items.forEach((item, index) => {
    const fields = item as Record<string, unknown>;
    if (fields.type !== "function_call" || typeof fields.call_id !== "string") return;
    here.add(fields.call_id);
    if (typeof fields.name === "string") calls.call(fields.call_id, fields.name, lineOf(index));
  });
  const named: NamedResult[] = [];
  const out = items.map((item, index) => {
    const fields = item as Record<string, unknown>;
    if (fields.type !== "function_call_output" || typeof fields.call_id !== "string" || here.has(fields.call_id) || Object.hasOwn(fields, field)) return item;
    const call = calls.nameOf(fields.call_id);
    if (call === undefined) return item;
    named.push({ index, name: call.name, callLine: call.line });
    return { ...item, [field]: call.name } as CanonicalItem;
  });
  return { items: out, named };
}
