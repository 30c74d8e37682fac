// A span read as no LLM call and no tool run (its fate `other`) is accounted
// for whole by that fate, and nothing in it is read. Where it holds a tool call
// all the same, the call would go unjudged, and a replayer that reads the span
// runs it. Such a span is one no dialect takes for a call, and not because it
// holds none:
//
// | where the call is                                            | written by                      |
// |--------------------------------------------------------------|---------------------------------|
// | a GenAI event (`gen_ai.choice`, `gen_ai.assistant.message`)  | older GenAI conventions, on a span without `gen_ai.operation.name` |
// | a GenAI attribute no dialect reads (`gen_ai.completion` as one JSON text, `gen_ai.output`) | exporters of their own forms |
// | the first value of such an attribute written again with another | an exporter that appends, a merge of two exports |
//
// Each such place is `unreadable`, which the gate blocks as a line of its own.
// A Langfuse observation's input and output are compared with the trace's calls
// by its reader; its attributes are held to this as any span's are.
import { parsedValue, type Located } from "./attributes.js";
import { CALL_MARK, textNamesCall } from "./event-calls.js";
import { namesCall } from "./read-messages.js";
import type { Span } from "./read-spans.js";

/**
 * Attributes that name or describe tools without being an answer's call: what a
 * request offered or chose, and a request's history, whose calls are those of
 * earlier answers, which their own spans hold (Vercel's `ai.prompt` on a
 * generation that failed before it answered).
 */
const NOT_CALLS = /^(?:gen_ai\.tool\.definitions|gen_ai\.(?:request|prompt|input|system_instructions)|llm\.(?:tools|request|input|prompt)|ai\.prompt)(?:\.|_|$)/;

/** The LLM namespaces a call may be written in. */
export const LLM_ATTRIBUTE = /^(?:gen_ai|llm|ai)\./;

export interface UnreadCall {
  path: string;
  detail: string;
}

/** Each place of a span read as no LLM call and no tool run that holds a tool call. */
export function callsInUnreadSpan(span: Span): UnreadCall[] {
  const found: UnreadCall[] = [];
  for (const { key, path, event, earlier } of span.attributes.twice) {
    if (event !== undefined) found.push({ path, detail: `${event}, and the span is read as no LLM call: not read` });
    // The map holds the value written last; a reader that keeps the first reads the call it holds.
    else if (earlier !== undefined && LLM_ATTRIBUTE.test(key) && !NOT_CALLS.test(key) && holdsCall(earlier)) {
      found.push({ path: earlier.path, detail: `the attribute ${key} holds a tool call in no form a dialect reads where it is first written, and is written again with another value; the span is read as no LLM call: not read` });
    }
  }
  for (const [key, located] of span.attributes) {
    if (!LLM_ATTRIBUTE.test(key) || NOT_CALLS.test(key) || !holdsCall(located)) continue;
    found.push({ path: located.path, detail: `the attribute ${key} holds a tool call in no form a dialect reads, and the span is read as no LLM call: not read` });
  }
  return found;
}

/**
 * Whether the value, or JSON text in it, names a tool call's member, or holds
 * an item or block whose type is a call's (`local_shell_call`, `mcp_call`,
 * Vercel's `tool-call`), which names no member so.
 */
function holdsCall(located: Located): boolean {
  const { value, broken } = parsedValue(located.value);
  const text = typeof value === "string" ? value : JSON.stringify(value) ?? "";
  if (CALL_MARK.test(text)) return true;
  // Prose that says `_call` is no item: only a value that parsed is looked into, and only where its text may hold one.
  return !broken && typeof value !== "string" && textNamesCall(text) && namesCall(value);
}
