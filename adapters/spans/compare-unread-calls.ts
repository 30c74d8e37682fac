// The calls in the input and output of spans read as no LLM call and no tool
// run (fate `other`): an OpenInference CHAIN or AGENT span (LangChain,
// LangGraph, LlamaIndex), a Langfuse EVENT, CHAIN, AGENT or SPAN observation.
// Such a span records the conversation as the framework passed it along, and a
// replayer that takes it for the call runs what it holds. Each call in it must
// be a call the trace's LLM calls hold, as the trace reads it; one none holds is
// not read and said `unreadable`, one that gives a call's id to another name or
// other arguments withdraws that call (`conflict`), and a call in a form no
// dialect reads is `unreadable` at its place. The gate blocks each as a line of
// its own. A span whose values hold no call says nothing.
//
// | where                                          | written by                                   |
// |------------------------------------------------|----------------------------------------------|
// | `input.value`, `output.value` (JSON text)       | OpenInference: a chain's inputs and outputs as `json.dumps` wrote them |
// | any other attribute outside the LLM namespaces  | pydantic-ai's `all_messages_events` on an agent run, a framework's own |
// | an observation's `input`, `output`              | Langfuse                                     |
// | an observation's `toolCalls` beside `toolCallNames`, on any observation | Langfuse, extracted from its output at ingestion |
//
// | a call inside it, at any depth                  | read as                                      |
// |-------------------------------------------------|----------------------------------------------|
// | a message of any dialect (`tool_calls`, `additional_kwargs`, parts, a LangChain `{type: "ai", data}` dump's data, Responses items) | its calls, as the messages of an LLM call are read |
// | LlamaIndex's `ToolSelection` (`{tool_id, tool_name, tool_kwargs}`) and tool call block (`block_type: "tool_call"`) | a call of that name, id and arguments |
// | a member or block that names a call that neither reads | `unreadable` at its place                  |
import { isPlainObject } from "../../src/models/json-value.js";
import { pointerToken } from "../../src/models/json-pointer.js";
import type { Reading, ReaderLoss } from "../stored-log/reading.js";
import { parsedValue, type Located } from "./attributes.js";
import { textNamesCall } from "./event-calls.js";
import { CALL_MEMBER, CALL_TYPE, namesCall, readMessages, type Side } from "./read-messages.js";
import { sameArguments } from "./rebuild-conversation.js";
import { LLM_ATTRIBUTE } from "./unread-span-calls.js";
import type { Span } from "./read-spans.js";

/** Deeper than this, a value is not walked: a call in it is unreadable. */
const MAX_DEPTH = 64;

interface Found {
  calls: Array<Record<string, unknown>>;
  unread: Array<{ path: string; what: string }>;
}

/**
 * Where a span read as no LLM call keeps what it passed along: each value, with
 * what it is called in a loss. Besides its input and output, any attribute of
 * its own (pydantic-ai's `all_messages_events` on an agent run); the LLM
 * namespaces' are said by unread-span-calls.ts.
 */
function values(span: Span): Array<{ located: Located; side: Side; where: string }> {
  const found: Array<{ located: Located; side: Side; where: string }> = [];
  for (const side of ["input", "output"] as const) {
    const observed = side === "input" ? span.input : span.output;
    if (observed !== undefined) found.push({ located: observed, side, where: `the ${String(span.type)} observation's ${side}` });
  }
  for (const [key, located] of span.attributes) {
    if (LLM_ATTRIBUTE.test(key)) continue;
    found.push({ located, side: key === "input.value" ? "input" : "output", where: `the attribute ${key} of ${spanSaid(span)}` });
  }
  return found;
}

function spanSaid(span: Span): string {
  const kind = span.attributes.get("openinference.span.kind")?.value;
  return typeof kind === "string" ? `a span of kind ${kind}` : `the span ${JSON.stringify(span.name)}`;
}

function readAs(span: Span): string {
  const kind = span.attributes.get("openinference.span.kind")?.value;
  if (span.type === "GENERATION") return "Langfuse's list is read as a copy of its answer";
  if (span.type !== undefined) return `an observation of type ${span.type} is read as no LLM call`;
  return typeof kind === "string" ? `a span of kind ${kind} is read as no LLM call` : "the span is read as no LLM call";
}

/**
 * Compares each call in the values of the spans the reading took as `other`
 * with the calls of their trace, and says each that is not one of them. The
 * reading's records, losses and counts are changed in place.
 */
export function compareUnreadCalls(spans: readonly Span[], reading: Reading): void {
  const unread = new Set(reading.units.filter((unit) => unit.fate === "other").map((unit) => unit.path));
  const repeats = new Set(reading.units.filter((unit) => unit.fate === "repeat").map((unit) => unit.path));
  const calls = new TraceCalls(reading);
  for (const span of spans) {
    if (!repeats.has(span.path)) compareListedCalls(span, reading, calls);
    if (!unread.has(span.path)) continue;
    for (const { located, side, where } of values(span)) {
      const found = callsIn(located, side);
      for (const { path, what } of found.unread) {
        reading.losses.push({ path, code: "unreadable", detail: `${where} holds ${what}, of no form orbridge reads, and ${readAs(span)}: not read`, span: span.id });
        reading.messages.reported += 1;
      }
      for (const call of found.calls) compareCall(call, where, located.path, span, reading, calls);
    }
  }
}

type Entry = Reading["records"][number];

/**
 * The calls the reading emitted, by trace, by call id and by name: a chain
 * span repeats the whole conversation so far, so the same calls are looked up
 * again for each span, and a call found to be one of them is not compared twice.
 */
class TraceCalls {
  private readonly byId = new Map<string, Entry[]>();
  private readonly byName = new Map<string, Entry[]>();
  /** The calls already found to be one the trace holds, by trace, id, name and arguments as written. */
  readonly agreed = new Set<string>();

  constructor(reading: Reading) {
    for (const entry of reading.records) {
      const record = entry.record;
      if (!isPlainObject(record) || record.type !== "function_call") continue;
      if (typeof record.call_id === "string") push(this.byId, `${entry.conversation}\u0000${record.call_id}`, entry);
      push(this.byName, `${entry.conversation}\u0000${String(record.name)}`, entry);
    }
  }

  /** The trace's calls that give this id, or, for a call without one, this name. */
  candidates(trace: string, call: Record<string, unknown>): Entry[] {
    return (typeof call.call_id === "string" ? this.byId.get(`${trace}\u0000${call.call_id}`) : this.byName.get(`${trace}\u0000${String(call.name)}`)) ?? [];
  }

  withdraw(entry: Entry): void {
    for (const list of [...this.byId.values(), ...this.byName.values()]) {
      const at = list.indexOf(entry);
      if (at >= 0) list.splice(at, 1);
    }
  }
}

function push(map: Map<string, Entry[]>, key: string, entry: Entry): void {
  const list = map.get(key);
  if (list) list.push(entry);
  else map.set(key, [entry]);
}

/**
 * Langfuse's own list of an observation's calls, which it extracts from the
 * output at ingestion: `toolCalls` (each the JSON text of `{id, arguments,
 * type, index}`) beside `toolCallNames`, or `tool_calls` and `tool_call_names`
 * in a blob storage export. A reader of the list runs each: it must be a call of
 * the trace, or it is said as a call in a chain's output is. An entry of no such
 * form, or without a name beside it, is unreadable.
 */
function compareListedCalls(span: Span, reading: Reading, calls: TraceCalls): void {
  const listed = span.fields?.get("toolCalls") ?? span.fields?.get("tool_calls");
  if (listed === undefined || !Array.isArray(listed.value) || listed.value.length === 0) return;
  const names = (span.fields?.get("toolCallNames") ?? span.fields?.get("tool_call_names"))?.value;
  const where = `the ${String(span.type)} observation's list of calls`;
  listed.value.forEach((written, index) => {
    const entry = typeof written === "string" ? parsedValue(written) : { value: written, broken: false };
    const name = Array.isArray(names) ? names[index] : undefined;
    const at = `${listed.path}/${index}`;
    if (entry.broken || !isPlainObject(entry.value) || typeof name !== "string" || name === "") {
      reading.losses.push({ path: at, code: "unreadable", detail: `${where} holds a call that gives no name beside it, or is no JSON object: not read`, span: span.id });
      reading.messages.reported += 1;
      return;
    }
    const { id, arguments: args } = entry.value;
    // An entry of another form (OpenAI's `function`, an `input`, a name of its own that is not the one beside it) holds
    // arguments a reader of the list finds where this reading does not: taken as `{}`, it would agree with a call of none.
    if (!isListedForm(entry.value, name)) {
      reading.losses.push({ path: at, code: "unreadable", detail: `${where} holds a call of "${name}" that is not of the form {id, arguments, type, index}: not read`, span: span.id });
      reading.messages.reported += 1;
      return;
    }
    compareCall({ type: "function_call", ...(typeof id === "string" ? { call_id: id } : {}), name, arguments: typeof args === "string" ? args : JSON.stringify(args) }, where, at, span, reading, calls);
  });
}

const LISTED_MEMBERS = new Set(["id", "arguments", "type", "index", "name"]);

/** Whether a list entry is Langfuse's form: its arguments as JSON text or an object, no other member, and any name it gives the one beside it. */
function isListedForm(entry: Record<string, unknown>, name: string): boolean {
  const args = entry.arguments;
  if (typeof args !== "string" && !isPlainObject(args)) return false;
  if (entry.name !== undefined && entry.name !== name) return false;
  return Object.keys(entry).every((key) => LISTED_MEMBERS.has(key));
}

/** The calls a value holds at any depth, read; and each place that holds one no reading takes. */
function callsIn(located: Located, side: Side): Found {
  const found: Found = { calls: [], unread: [] };
  if (located.value === null || located.value === undefined) return found;
  // Most values of a chain hold no call: text that names none, nor escapes a character that could spell one, is not parsed.
  if (typeof located.value === "string" && !textNamesCall(located.value)) return found;
  walk(located.value, "", 0, side, found);
  // A JSON Pointer reaches the text, not into it: each place is said at the value, and inside it after.
  found.unread = found.unread.map(({ path, what }) => ({ path: located.path, what: path === "" ? what : `${what} (at ${path} in it)` }));
  return found;
}

function walk(node: unknown, path: string, depth: number, side: Side, found: Found): void {
  if (typeof node === "string") {
    if (!/^\s*[[{"]/.test(node)) return;
    const inner = parsedValue(node);
    if (inner.broken || inner.twice !== undefined) {
      if (textNamesCall(node)) found.unread.push({ path, what: `JSON text that ${inner.twice ?? "does not parse"} and names a tool call` });
      return;
    }
    if (inner.parsed) walk(inner.value, path, depth + 1, side, found);
    return;
  }
  if (depth > MAX_DEPTH) {
    if (namesCall(node)) found.unread.push({ path, what: "a tool call nested deeper than it is looked for" });
    return;
  }
  if (Array.isArray(node)) return node.forEach((element, index) => walk(element, `${path}/${index}`, depth + 1, side, found));
  if (!isPlainObject(node)) return;
  const selected = llamaIndexCall(node);
  if (selected !== undefined) {
    found.calls.push(selected);
    return;
  }
  const members = callMembers(node);
  const typed = (typeof node.type === "string" && CALL_TYPE.test(node.type)) || (typeof node.block_type === "string" && CALL_TYPE.test(node.block_type));
  if (typed || members.length > 0 || ((typeof node.role === "string" || Array.isArray(node.parts)) && namesCall(node))) {
    const calls = readCalls(node, side);
    if (calls !== undefined) {
      found.calls.push(...calls);
      return;
    }
    if (typed) {
      found.unread.push({ path, what: "a tool call" });
      return;
    }
  }
  for (const [key, member] of Object.entries(node)) {
    const at = `${path}/${pointerToken(key)}`;
    if (!members.includes(key)) {
      walk(member, at, depth + 1, side, found);
      continue;
    }
    // Each call a member holds is read from where it stands, or said unreadable there: none is passed over.
    const entries: Array<[unknown, string]> = Array.isArray(member) ? member.map((entry, index) => [entry, `${at}/${index}`]) : [[member, at]];
    for (const [entry, entryAt] of entries) {
      const before = found.calls.length + found.unread.length;
      walk(entry, entryAt, depth + 1, side, found);
      if (found.calls.length + found.unread.length === before) found.unread.push({ path: entryAt, what: "a tool call" });
    }
  }
}

/** The members of the object that hold a call by their name (`tool_calls`, `function_call`, `toolUse`…), each holding something. */
function callMembers(node: Record<string, unknown>): string[] {
  return Object.keys(node).filter((key) => CALL_MEMBER.test(key) && node[key] !== null && node[key] !== undefined && !(Array.isArray(node[key]) && (node[key] as unknown[]).length === 0));
}

/**
 * The calls of the object read as a message of any dialect, or undefined when
 * that reading cannot be taken for them: it finds none, says a part of it
 * unreadable or written two ways, or gives a call without a name.
 */
function readCalls(node: Record<string, unknown>, side: Side): Array<Record<string, unknown>> | undefined {
  const losses: ReaderLoss[] = [];
  const calls = readMessages(node, "", side, losses).items.map(({ item }) => item).filter((item) => item.type === "function_call");
  if (calls.length === 0 || losses.some((loss) => loss.code === "unreadable" || loss.code === "conflict")) return undefined;
  return calls.every((call) => typeof call.name === "string" && call.name !== "") ? calls : undefined;
}

/**
 * LlamaIndex's forms of a call: the `ToolSelection` an agent's step returns
 * (`{tool_id, tool_name, tool_kwargs}`) and a message's tool call block
 * (`{block_type: "tool_call", tool_call_id, tool_name, tool_kwargs}`).
 */
function llamaIndexCall(node: Record<string, unknown>): Record<string, unknown> | undefined {
  if (typeof node.tool_name !== "string" || !("tool_kwargs" in node)) return undefined;
  const id = node.tool_id ?? node.tool_call_id;
  const kwargs = node.tool_kwargs;
  const args = typeof kwargs === "string" ? kwargs : JSON.stringify(kwargs ?? {});
  return { type: "function_call", ...(typeof id === "string" ? { call_id: id } : {}), name: node.tool_name, arguments: args };
}

function compareCall(call: Record<string, unknown>, where: string, path: string, span: Span, reading: Reading, calls: TraceCalls): void {
  const key = JSON.stringify([span.trace, call.call_id ?? null, call.name, call.arguments]);
  if (calls.agreed.has(key)) return;
  const candidates = calls.candidates(span.trace, call);
  const agrees = (record: Record<string, unknown>) => record.name === call.name && sameArguments(record.arguments, call.arguments);
  const described = `"${String(call.name)}" with ${String(call.arguments)}`;
  if (candidates.some(({ record }) => agrees(record as Record<string, unknown>))) {
    calls.agreed.add(key);
    return;
  }
  // A call without an id that agrees with none of its name's is one no LLM call holds; one with an id says another call under it.
  const disagreeing = typeof call.call_id === "string" ? [...candidates] : [];
  if (disagreeing.length === 0) {
    reading.losses.push({ path, code: "unreadable", detail: `${where} holds a call of ${described} that no LLM call of the trace holds, and ${readAs(span)}: not read`, span: span.id });
    reading.messages.reported += 1;
    return;
  }
  for (const entry of disagreeing) {
    calls.withdraw(entry);
    reading.records.splice(reading.records.indexOf(entry), 1);
    reading.messages.emitted -= 1;
    reading.messages.reported += 1;
    reading.losses.push({ path: entry.path, code: "conflict", detail: `the call "${String(call.call_id)}" is recorded in ways that disagree: two readers would run two calls, so none is read`, ...(entry.span === undefined ? {} : { span: entry.span }) });
  }
  reading.losses.push({ path, code: "conflict", detail: `${where} records the call "${String(call.call_id)}" as ${described}: two readers would run two calls, so none is read`, span: span.id });
}
