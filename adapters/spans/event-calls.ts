// GenAI events of older conventions (`gen_ai.choice`, `gen_ai.assistant.message`)
// carry an answer's messages on a span beside its attributes: as OTLP span
// events, or as Jaeger span logs. orbridge reads the attributes, not the events,
// so a tool call in an event is a second copy of the answer that nothing
// compares, and a reader of the events may run another call than the one the
// attributes hold. Such a span is read as a span written two ways.
import { isPlainObject } from "../../src/models/json-value.js";
import type { Attributes } from "./attributes.js";

// A tool call, as any envelope writes one in an event's JSON.
const ESCAPED_ASCII = /\\\\u00[2-7][0-9a-fA-F]/;
export const CALL_MARK = /tool_?calls?\b|tool_?call_?id|tool_?call_?chunks?\b|tool_?name|function_?call|tool_?use\b/i;

/** What may name a call besides: an item or block whose type is a call's (`mcp_call`, `local_shell_call`, Vercel's `tool-call`). */
const CALL_TYPE_MARK = /_call\b|tool-call/i;

/**
 * Whether text may hold a tool call, its `\u` escapes read as the characters
 * they stand for (JSON text may spell a name so): a cheap test before a value
 * is parsed and looked into, so it errs towards yes.
 */
export function textNamesCall(text: string): boolean {
  const marked = (written: string) => CALL_MARK.test(written) || CALL_TYPE_MARK.test(written);
  return marked(text) || (text.includes("\\u") && marked(text.replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))));
}

/** Marks `attributes` read two ways for each event of `events` that is a GenAI event and holds a tool call. */
export function markCallsInEvents(events: unknown, path: string, attributes: Attributes): void {
  if (!Array.isArray(events)) return;
  events.forEach((event, index) => {
    if (!isPlainObject(event)) return;
    // Named by `name` (OTLP), by an `event` or `event.name` field or attribute (Jaeger logs, newer SDKs), or by its attributes' names.
    const text = JSON.stringify(event) ?? "";
    // JSON text inside the event may spell a name with escapes of printable ASCII (`\u0074ool_calls`), which no
    // encoder writes of itself: such an event is taken to hold one.
    if (!text.includes("gen_ai.") || !(CALL_MARK.test(text) || ESCAPED_ASCII.test(text))) return;
    const name = typeof event.name === "string" ? event.name : "gen_ai";
    const said = `the span's event ${name} holds a tool call`;
    attributes.twice.push({ key: "", path: `${path}/${index}`, detail: `${said}, which is not read beside the span's attributes`, event: said });
  });
}
