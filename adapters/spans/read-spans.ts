// The conversations a set of spans records, each rebuilt once (one per trace),
// whatever exported the spans (OTLP, Tempo, Jaeger, Langfuse, SDK span dicts).
//
// | span                                                        | fate      |
// |-------------------------------------------------------------|-----------|
// | an LLM call (messages attributes, `gen_ai.operation.name` chat/call_llm…, OpenInference kind LLM, a Langfuse GENERATION) with no LLM call inside it | `llm_call`: input, then output, read |
// | an LLM call with another inside it (Vercel's `ai.generateText` around `doGenerate`, ADK's `call_llm` around `openai.chat`) | `wrapper`: the inner one is read |
// | a tool execution (`execute_tool`, OpenInference kind TOOL, `ai.toolCall.*`, a Langfuse TOOL, a LangChain ToolMessage output) | `tool`: its result read |
// | anything else                                               | `other`   |
//
// Within a trace, calls and tools are taken in start-time order (document order
// on a tie). Each side of a call is read from the first source that holds it, in
// the order of `INPUT_SOURCES` / `OUTPUT_SOURCES`; a system prompt the call's own
// messages lack is taken from the nearest span above that holds
// `gen_ai.system_instructions` (an agent span).
//
// Every other source of the side that holds calls (a second dialect in the same
// span), and every source of a wrapper, is a copy: after the whole trace, each
// call in a copy must be a call of the conversation as the conversation holds
// it, or the call is not read (`conflict`, see rebuild-conversation.ts). A copy
// is still reported left behind, as it was before it was compared.
//
// An answer written one message per index (`gen_ai.completion.N`, and
// `llm.output_messages.N` beside the LLMResult or completion in `output.value`),
// or as `gen_ai.choice` events of several indices, is one message for each of
// the answers `n` asked for: alternatives, whose calls are not read
// (`alternativeMessages`, `alternativeChoices`).
//
// Of a call or tool span, what no item holds is reported `left_behind`: each
// attribute no reading looked at and each field of content the reader names
// (`Span.fields`), at its place; the span's transport once, in the same words for
// every span; a wrapper's too, since it holds more than the call inside it (its
// messages, which repeat that call's, are reported with the rest). Any other
// span is accounted for whole by its fate.
import { isPlainObject } from "../../src/models/json-value.js";
import { limitSpelledOtherwise } from "../../src/models/limit-spelled-otherwise.js";
import { emptyCounts, type Reading, type ReaderLoss, type UnitAccount } from "../stored-log/reading.js";
import { parsedValue, type Attributes, type Located } from "./attributes.js";
import { legacyFunctionCall, refusal, requestLimits, sameAllowance, toolsAndFunctions, type CallLimit, type ToolChoice, type ToolsOffered } from "./allowed-calls.js";
import { alternativeChoices, genAiEventMessages } from "./genai-event-messages.js";
import { indexedMessages } from "./indexed-messages.js";
import { oneCallRefusal, oneCallRequest, type OneCallLimit } from "./one-call-request.js";
import { isLengthLimit, isUsualFinish, message, namesCall, readMessages, withholdAlternativeCalls, type MessagesRead, type Placed, type Side } from "./read-messages.js";
import { textNamesCall } from "./event-calls.js";
import { callsInUnreadSpan } from "./unread-span-calls.js";
import { compareUnreadCalls } from "./compare-unread-calls.js";
import { cutsCalls, droppedCount, droppedDetail, taggedDropped, type Dropped } from "./dropped-counts.js";
import { withoutRepeats } from "./repeated-spans.js";
import { ConversationBuilder, type ToolResult, type ToolSaid } from "./rebuild-conversation.js";

export interface Span {
  id: string;
  parent?: string;
  /** The conversation key: the trace id. */
  trace: string;
  name: string;
  /** Start time in nanoseconds; ties keep document order. */
  start: bigint;
  /** JSON Pointer to the span in the document. */
  path: string;
  attributes: Attributes;
  /** A Langfuse observation's type (GENERATION, TOOL, SPAN, AGENT, CHAIN…). */
  type?: string;
  input?: Located;
  output?: Located;
  /**
   * The span's own fields that hold content beside its attributes, by name (a
   * Langfuse observation's input, output, model and usage, an OTel span's events
   * or error status): each one no reading takes is left behind, reported. The
   * span's other fields (ids, name, times, the exporter's bookkeeping) are
   * transport, reported once for the span.
   */
  fields?: Attributes;
  /** What the span says its exporter dropped, as its reader found it (dropped-counts.ts); the counts written as attributes are added when it is read. */
  dropped?: Dropped[];
}

/** Said once for each span whose messages were read: the same words for every span, so that a summary counts them as one. */
export const SPAN_TRANSPORT_DETAIL = "the span's ids, name, times and the exporter's bookkeeping are transport of the trace: no item holds them";

const MESSAGE_ATTRIBUTES = /^(?:gen_ai\.(?:input|output)\.messages|gen_ai\.(?:prompt|completion)\.\d|llm\.(?:input|output)_messages\.\d|ai\.prompt\.messages|ai\.response\.(?:text|toolCalls)|gcp\.vertex\.agent\.llm_(?:request|response))/;
const LLM_OPERATIONS = new Set(["chat", "text_completion", "generate_content", "call_llm"]);

function isLlmCall(span: Span): boolean {
  // A Langfuse observation says what it is; one of another type (a SPAN of the
  // Vercel AI SDK around its generation) is what its attributes say, as a span is.
  if (span.type === "GENERATION") return true;
  if (span.type === "TOOL") return false;
  const operation = span.attributes.get("gen_ai.operation.name")?.value;
  if (typeof operation === "string" && LLM_OPERATIONS.has(operation)) return true;
  const kind = span.attributes.get("openinference.span.kind")?.value;
  if (kind === "LLM") return true;
  // A tool run is one, whatever else it writes: ADK writes an empty llm_request and llm_response on its tool spans.
  if (operation === "execute_tool" || kind === "TOOL") return false;
  for (const [key, located] of span.attributes) if (MESSAGE_ATTRIBUTES.test(key) && holdsContent(located.value)) return true;
  return false;
}

/** Whether an attribute holds something: not nothing, an empty text, or JSON text of an empty object or array. */
function holdsContent(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === "string") return !/^\s*(?:\{\s*\}|\[\s*\]|)\s*$/.test(value);
  if (Array.isArray(value)) return value.length > 0;
  return !isPlainObject(value) || Object.keys(value).length > 0;
}

/** The observation's input or output, taken: a side the reading looks at is not left behind. */
function sideOf(span: Span, side: Side): Located | undefined {
  span.fields?.get(side);
  return side === "input" ? span.input : span.output;
}

function isToolRun(span: Span): boolean {
  if (span.type === "TOOL") return true;
  if (span.attributes.get("gen_ai.operation.name")?.value === "execute_tool") return true;
  if (span.attributes.get("openinference.span.kind")?.value === "TOOL") return true;
  if (span.attributes.has("ai.toolCall.id")) return true;
  const located = sideOf(span, "output");
  const output = located === undefined ? undefined : parsedValue(located.value).value;
  return isPlainObject(output) && output.type === "tool" && typeof output.tool_call_id === "string";
}

/**
 * Spans of one trace that give one id: two versions of one span (a store that
 * upserts keeps one of them, an export taken before it merged them holds both),
 * or a span forged beside another. A reader that keeps the first and one that
 * keeps the last see two calls: each is read as a span written two ways.
 */
function markSharedIds(members: readonly Span[]): void {
  for (const [id, same] of grouped(members, (span) => span.id)) {
    if (same.length < 2) continue;
    for (const span of same) {
      const others = same.filter((other) => other !== span).map((other) => other.path);
      span.attributes.twice.push({ key: "", path: span.path, detail: `the span id ${JSON.stringify(id)} is also the id of ${others.length === 1 ? "the span" : "the spans"} at ${others.join(", ")}` });
    }
  }
}

/** The spans by a key of theirs, each group in document order, the groups in the order of their first span. */
function grouped(spans: readonly Span[], key: (span: Span) => string): Map<string, Span[]> {
  const groups = new Map<string, Span[]>();
  for (const span of spans) {
    const group = groups.get(key(span));
    if (group) group.push(span);
    else groups.set(key(span), [span]);
  }
  return groups;
}

export function readSpans(spans: readonly Span[]): Reading {
  const losses: ReaderLoss[] = [];
  const units: UnitAccount[] = [];
  const counts = emptyCounts();
  const records: Reading["records"] = [];
  for (const [trace, exported] of grouped(spans, (span) => span.trace)) {
    const { kept: members, repeats } = withoutRepeats(exported);
    for (const span of repeats) units.push({ path: span.path, span: span.id, fate: "repeat" });
    // A span whose exporter dropped entries is a cut record, whatever it is read as: said so, where an attribute would be left behind.
    for (const span of members) {
      span.dropped = [...(span.dropped ?? []), ...taggedDropped(span.attributes)];
      for (const dropped of span.dropped) losses.push({ path: dropped.path, code: "truncated", detail: droppedDetail(dropped, span.name), span: span.id });
    }
    const byId = new Map(members.map((span) => [span.id, span]));
    markSharedIds(members);
    const calls = new Set(members.filter(isLlmCall));
    // A call with another inside it records that same call again.
    const wrappers = new Set<Span>();
    for (const call of calls) {
      for (let parent = call.parent === undefined ? undefined : byId.get(call.parent), hops = 0; parent !== undefined && hops < members.length; parent = parent.parent === undefined ? undefined : byId.get(parent.parent), hops++) {
        if (calls.has(parent)) wrappers.add(parent);
      }
    }
    const conversation = new ConversationBuilder(trace, losses);
    const read: Span[] = [];
    const copies: Copy[] = [];
    // A wrapper's request holds for the calls inside it whenever either starts: read before the walk, whatever the clocks say.
    const wrapperChoices = new Map<string, ToolChoice>();
    const wrapperTools = new Map<string, ToolsOffered[]>();
    const wrapperOneCall = new Map<string, OneCallLimit>();
    // A wrapper that dropped entries may have lost a copy of the call inside it that says another call, or its failure.
    const wrapperCuts = new Map<string, { dropped: Dropped; name: string }>();
    for (const wrapper of wrappers) {
      const cut = wrapper.dropped?.find(cutsCalls);
      if (cut !== undefined) wrapperCuts.set(wrapper.id, { dropped: cut, name: wrapper.name });
      if (wrapper.attributes.twice.length > 0) continue;
      const choice = wrapperToolChoice(wrapper);
      if (choice !== undefined) wrapperChoices.set(wrapper.id, choice);
      wrapperTools.set(wrapper.id, offeredTools(wrapper));
      const oneCall = oneCallOf(wrapper);
      if (oneCall !== undefined) wrapperOneCall.set(wrapper.id, oneCall);
    }
    const ordered = members.map((span, index) => ({ span, index })).sort((a, b) => (a.span.start < b.span.start ? -1 : a.span.start > b.span.start ? 1 : a.index - b.index));
    for (const { span } of ordered) {
      const unit = { path: span.path, span: span.id };
      if (span.attributes.twice.length > 0 && (calls.has(span) || isToolRun(span))) {
        // A reader that keeps the first value and one that keeps the last see two spans: neither is read, and a call in it is not judged.
        units.push({ ...unit, fate: calls.has(span) ? (wrappers.has(span) ? "wrapper" : "llm_call") : "tool" });
        for (const { path, detail } of span.attributes.twice) {
          losses.push({ path, code: "unreadable", detail: `${detail}: two readers see two spans, so the span is not read`, span: span.id });
        }
        continue;
      }
      if (calls.has(span) && wrappers.has(span)) {
        units.push({ ...unit, fate: "wrapper" });
        // Its messages repeat the inner call's, but what it holds beside them (ADK's tool
        // declarations and config, the provider's response id, usage) is nowhere else.
        read.push(span);
        for (const side of ["input", "output"] as const) {
          for (const { name, read: source } of SOURCES[side]) {
            const copy = readCopy(span, side, source, losses);
            if (copy !== undefined) copies.push({ items: copy.items, span: span.id, what: `the wrapper span's ${name}` });
          }
        }
      }
      else if (calls.has(span)) {
        units.push({ ...unit, fate: "llm_call" });
        read.push(span);
        const input = callSide(span, "input", losses, copies);
        const output = callSide(span, "output", losses, copies);
        const system = systemPrompt(span, byId, input, output, losses);
        const placed = [...(system ? [system] : []), ...input.items];
        const choice = oneToolChoice([...(input.toolChoice ? [input.toolChoice] : []), ...above(span, byId, wrapperChoices)]);
        const offered = [...offeredTools(span), ...above(span, byId, wrapperTools).flat()];
        const oneCall = oneCallOf(span) ?? above(span, byId, wrapperOneCall)[0];
        const wrapperCut = above(span, byId, wrapperCuts)[0];
        if (wrapperCut !== undefined) markCallsCutAbove(span, output, wrapperCut, losses);
        const answer = allowedOutput(span, requestLimits(choice, offered), oneCall, output, conversation);
        counts.read += placed.length + output.items.length;
        counts.reported += answer.refused;
        conversation.addInput(placed, span.id);
        conversation.addOutput(answer.items, span.id);
      } else if (isToolRun(span)) {
        units.push({ ...unit, fate: "tool" });
        read.push(span);
        const result = toolResult(span, losses);
        if (result) {
          if (result.output !== undefined) counts.read += 1;
          conversation.addToolResult(result);
        }
      } else {
        units.push({ ...unit, fate: "other" });
        // Nothing of it is read: a call it holds all the same would go unjudged.
        for (const { path, detail } of callsInUnreadSpan(span)) losses.push({ path, code: "unreadable", detail, span: span.id });
      }
    }
    // After the whole trace: a later span may read an earlier one's attributes (a system prompt from the span above),
    // and a wrapper's copy is compared with the calls inside it.
    for (const copy of copies) conversation.compareCopy(copy.items, copy.span, copy.what, copy.against);
    for (const span of read) losses.push(...leftBehind(span));
    counts.emitted += conversation.emitted;
    counts.repeated += conversation.repeated;
    counts.reported += conversation.reported;
    for (const { item, path, span } of conversation.settled()) records.push({ record: item, conversation: trace, path, span });
  }
  counts.reported += losses.filter((loss) => loss.code === "unreadable" || loss.code === "not_a_result").length;
  const reading = { records, losses, units, messages: counts };
  // A chain or agent span passes the calls along: each must be one the trace's LLM calls hold, once they are all read.
  compareUnreadCalls(spans, reading);
  return reading;
}

/**
 * What of a span whose messages were read no item holds: its transport, once,
 * and each attribute or field of content that no reading looked at, at its place.
 */
function leftBehind(span: Span): ReaderLoss[] {
  const losses: ReaderLoss[] = [{ path: span.path, code: "left_behind", detail: SPAN_TRANSPORT_DETAIL, span: span.id }];
  for (const [what, entries] of [["attribute", span.attributes], ["span's field", span.fields]] as const) {
    for (const [key, located] of entries?.untaken() ?? []) {
      // One no reading looked at that holds a call (pydantic-ai's events attribute, an exporter's own form) would pass unjudged.
      if (!entries!.looked(key) && holdsCallUnread(located)) losses.push({ path: located.path, code: "unreadable", detail: `the ${what} ${key} holds a tool call in no form a dialect reads beside the span's messages: not read`, span: span.id });
      else losses.push({ path: located.path, code: "left_behind", detail: `the ${what} ${key} is in no item`, span: span.id });
    }
  }
  return losses;
}

/** Whether a value, or JSON text in it, holds a call: a member named as one that holds something, or a block whose type is a call's. */
function holdsCallUnread(located: Located): boolean {
  if (typeof located.value === "string" && !textNamesCall(located.value)) return false;
  const { value, broken } = parsedValue(located.value);
  return broken ? typeof value === "string" && textNamesCall(value) : namesCall(value);
}

type Source = (span: Span, side: Side, losses: ReaderLoss[]) => MessagesRead | undefined;

/** Messages that a span holds a second time, to be compared with the conversation. */
interface Copy {
  items: Placed[];
  span: string;
  what: string;
  /** The answer the span read, when the copy is of its answer: each call of the copy must be one of its calls. */
  against?: Placed[];
}

/**
 * A source read as a copy, apart: what it cannot be read as (cut short, of no
 * dialect) stays reported as left behind; one that reads two ways (JSON text
 * that names a member twice), or holds a call beside its answer's message, is
 * unreadable, as the side itself would be.
 */
function readCopy(span: Span, side: Side, source: Source, losses: ReaderLoss[], scratch: ReaderLoss[] = []): MessagesRead | undefined {
  const copy = readApart(span, () => source(span, side, scratch));
  // A call beside the message a copy holds (in an LLMResult's llm_output) is one no reading compares: unreadable, as in the side itself.
  for (const loss of scratch) if (loss.code === "unreadable" && / twice| holds a tool call beside its message/.test(loss.detail)) losses.push(loss);
  return copy;
}

function holdsCall(read: MessagesRead): boolean {
  return read.items.some(({ item }) => item.type === "function_call");
}

/** A finish reason a dialect gives for the answer, where none of its own items is a call to mark. */
interface Ending {
  reason: unknown;
  path: string;
  source: string;
  within: string;
}

/**
 * A message whose finish reason is not that of a model that ended of itself or
 * to call tools, and that holds no call, has its reason in no item: its reading
 * says it only in the loss it reports, which is where it is taken from.
 */
const REASON_IN_NO_ITEM = /^the finish reason (".*?"|[^ ]+) is in no item(.*)$/;

function endingsInNoItem(losses: readonly ReaderLoss[], source: string): Ending[] {
  return losses.flatMap((loss) => {
    const said = loss.code === "left_behind" ? REASON_IN_NO_ITEM.exec(loss.detail) : null;
    if (said === null) return [];
    const { value, broken } = parsedValue(said[1]);
    // An indexed message's place inside it is said after the words, as " (at its message's finish_reason)".
    return broken ? [] : [{ reason: value, path: loss.path, source, within: said[2]! }];
  });
}

/**
 * Another dialect of the same answer that says it was cut (a length limit) or
 * ended otherwise than of itself or to call tools, while holding no call of its
 * own (an instrumentation that writes the finish reason and not the calls): a
 * reader of that dialect takes the answer as cut, so its calls, read from the
 * dialect that holds them, are incomplete, which the gate blocks.
 */
function markCallsEndedElsewhere(span: Span, chosen: { read: MessagesRead; name: string }, endings: readonly Ending[], losses: ReaderLoss[]): void {
  const ending = endings.find(({ reason }) => isLengthLimit(reason)) ?? endings[0];
  if (ending === undefined) return;
  const reason = JSON.stringify(ending.reason);
  for (const { item } of chosen.read.items) {
    if (item.type !== "function_call" || item.status === "incomplete") continue;
    item.status = "incomplete";
    const call = `the call of ${JSON.stringify(String(item.name))}, read from ${chosen.name}, is in an answer that ${ending.source}${ending.within} in the same span says`;
    if (isLengthLimit(ending.reason)) losses.push({ path: ending.path, code: "truncated", detail: `${call} the model stopped at its length limit (finish reason ${reason}): its arguments may be cut, so it is incomplete`, span: span.id });
    else losses.push({ path: ending.path, code: "form_changed", detail: `${call} ended with finish reason ${reason}, not of itself or to call tools: it is incomplete`, span: span.id });
  }
}

/** What `read` returns, with the span's attributes and fields it looks at still counted as not taken. */
function readApart<T>(span: Span, read: () => T): T {
  return span.attributes.readApart(() => (span.fields === undefined ? read() : span.fields.readApart(read)));
}

/** A JSON attribute, or JSON text in one, read as messages; JSON text that no longer parses is reported as cut short. */
function attribute(key: string): Source {
  return (span, side, losses) => {
    const located = span.attributes.get(key);
    if (located === undefined) return undefined;
    return located.value === undefined || located.value === null ? undefined : parsedMessages(located, side, losses, span.id, key);
  };
}

/**
 * An OTLP array of JSON texts, each a message or an array of them (as some
 * exporters write a messages attribute), as the array of those messages in
 * their order; anything else as it is.
 */
function messageTexts(value: unknown): { value: unknown; broken: boolean; twice?: string } {
  if (!Array.isArray(value) || value.length === 0 || !value.every((entry) => typeof entry === "string" && /^\s*[[{]/.test(entry))) return { value, broken: false };
  const messages: unknown[] = [];
  for (const entry of value) {
    const one = parsedValue(entry);
    if (one.twice !== undefined || one.broken) return { value, broken: one.broken, twice: one.twice };
    for (const message of Array.isArray(one.value) ? one.value : [one.value]) messages.push(message);
  }
  return { value: messages, broken: false };
}

function parsedMessages(located: Located, side: Side, losses: ReaderLoss[], span: string, what: string): MessagesRead {
  const outer = parsedValue(located.value);
  const { value, broken, twice } = outer.twice === undefined && !outer.broken ? messageTexts(outer.value) : outer;
  if (twice !== undefined) {
    losses.push({ path: located.path, code: "unreadable", detail: `${what}: ${twice}: not read`, span });
    return { items: [], messages: 0 };
  }
  if (broken) {
    losses.push({ path: located.path, code: "truncated", detail: `${what} is JSON text that does not parse (cut short by the instrumentation?): not read`, span });
    return { items: [], messages: 0 };
  }
  if (typeof located.value !== "string" && value === outer.value) return readMessages(value, located.path, side, losses, span);
  // A JSON Pointer reaches the text, not into it: what was read inside it is placed at the text (or the array of texts).
  const before = losses.length;
  const read = readMessages(value, "", side, losses, span);
  for (const loss of losses.slice(before)) {
    if (loss.path !== "") loss.detail += ` (at ${loss.path} in its JSON text)`;
    loss.path = located.path;
  }
  return { ...read, items: read.items.map((entry) => ({ ...entry, path: located.path })), ...(read.instructions ? { instructions: { ...read.instructions, path: located.path } } : {}), ...(read.toolChoice ? { toolChoice: { ...read.toolChoice, path: located.path } } : {}) };
}

function indexed(prefix: string): Source {
  return (span, side, losses) => {
    const found = indexedMessages(span.attributes, prefix);
    if (found === undefined) return undefined;
    span.attributes.take(found.keys);
    const read: MessagesRead = { items: [], messages: 0 };
    for (const gap of found.gaps) losses.push({ path: gap.path, code: "truncated", detail: `the attributes ${gap.level}.N skip the ${gap.missing.length === 1 ? "index" : "indices"} ${gap.missing.join(", ")}, which the instrumentation numbers without a gap: what they held was dropped${side === "output" ? ", so each call of the answer is incomplete" : ""}`, span: span.id });
    found.messages.forEach((entry, index) => {
      const before = losses.length;
      const one = readMessages(entry, found.paths[index], side, losses, span.id);
      for (const loss of losses.slice(before)) {
        const inner = loss.path.slice(found.paths[index].length);
        if (inner !== "") loss.detail += ` (at its message's ${inner.slice(1)})`;
        loss.path = found.paths[index];
      }
      // Each field is an attribute of its own: the message is placed at its first.
      read.items.push(...one.items.map((placed) => ({ ...placed, path: found.paths[index] })));
      read.messages += one.messages;
    });
    const alternatives = side === "output" && found.messages.length > 1 ? alternativeMessages(span, prefix, found.messages.length) : undefined;
    if (alternatives !== undefined) withholdAlternativeCalls(read.items, 0, alternatives, { losses, span: span.id });
    // An answer with attributes dropped may have lost a call's arguments, or a call: what is left is not the answer to run.
    if (side === "output" && found.gaps.length > 0) for (const { item } of read.items) if (item.type === "function_call") item.status = "incomplete";
    return read;
  };
}

/**
 * Whether the several messages of an answer written one per index are
 * alternatives (the answers `n` asked for), and which: OpenLLMetry writes
 * `gen_ai.completion.N` one for each choice (each generation, for LangChain);
 * OpenInference writes `llm.output_messages.N` one for each generation of the
 * first prompt (LangChain) or each choice (a Chat completion), and keeps the
 * LLMResult or completion they come from in `output.value`. An OpenInference
 * answer that is a Response writes its items as messages in a row, and keeps
 * the Response there instead: those are one answer.
 */
function alternativeMessages(span: Span, prefix: string, count: number): string | undefined {
  if (prefix === "gen_ai.completion") return `the ${count} choices written as gen_ai.completion.N`;
  const beside = span.attributes.peek("output.value");
  const { value } = beside === undefined ? { value: undefined } : parsedValue(beside.value);
  if (!isPlainObject(value)) return undefined;
  if (Array.isArray(value.generations)) return `the ${count} generations written as ${prefix}.N, as the LLMResult in output.value says`;
  if (Array.isArray(value.choices)) return `the ${count} choices written as ${prefix}.N, as the completion in output.value says`;
  return undefined;
}

/** The Langfuse observation's own input or output, which Langfuse keeps in the instrumentation's dialect. */
const observation: Source = (span, side, losses) => {
  const located = sideOf(span, side);
  if (located === undefined || located.value === null || located.value === undefined) return undefined;
  return parsedMessages(located, side, losses, span.id, `the observation's ${side}`);
};

/** Vercel's answer: its text and its calls, each in an attribute of its own. */
const vercelResponse: Source = (span, side, losses) => {
  const text = span.attributes.get("ai.response.text");
  const calls = span.attributes.get("ai.response.toolCalls");
  if (text === undefined && calls === undefined) return undefined;
  const read: MessagesRead = { items: [], messages: 0 };
  if (text !== undefined && typeof text.value === "string" && text.value !== "") {
    read.items.push({ item: message("assistant", text.value), path: text.path });
    read.messages += 1;
  }
  if (calls !== undefined) {
    const more = parsedMessages(calls, side, losses, span.id, "ai.response.toolCalls");
    read.items.push(...more.items);
    read.messages += more.messages;
  }
  return read;
};

/** any-agent's `gen_ai.output`: JSON (calls, or a structured answer) or text, as `gen_ai.output.type` says. */
const agentOutput: Source = (span, side, losses) => {
  const located = span.attributes.get("gen_ai.output");
  if (located === undefined || typeof located.value !== "string") return undefined;
  const kind = span.attributes.get("gen_ai.output.type")?.value;
  if (kind === "json") {
    const { value, broken, twice } = parsedValue(located.value);
    if (twice !== undefined) {
      losses.push({ path: located.path, code: "unreadable", detail: `gen_ai.output: ${twice}: not read`, span: span.id });
      return { items: [], messages: 0 };
    }
    if (!broken && Array.isArray(value) && value.every((entry) => isPlainObject(entry) && entry["tool.name"] !== undefined)) return readMessages(value, located.path, side, losses, span.id);
  }
  return { items: [{ item: message("assistant", located.value), path: located.path }], messages: 1 };
};

/** GenAI events written as one attribute (pydantic-ai's `events`): the request's messages, or the answer's choices, each read where it stands. */
const eventsAttribute: Source = (span, side, losses) => {
  const peeked = span.attributes.peek("events");
  if (peeked === undefined) return undefined;
  const { value, broken, twice } = parsedValue(peeked.value);
  const messages = broken || twice !== undefined ? undefined : genAiEventMessages(value, side);
  // A list of no form read here is left to the account of what no reading looked at.
  if (messages === undefined) return undefined;
  const located = span.attributes.get("events")!;
  const read: MessagesRead = { items: [], messages: 0 };
  for (const { message: entry, at } of messages) {
    const before = losses.length;
    const one = readMessages(entry, "", side, losses, span.id);
    // A JSON Pointer reaches the text, not into it: what was read inside it is placed at the text.
    for (const loss of losses.slice(before)) {
      loss.detail += ` (at ${at}${loss.path} in its JSON text)`;
      loss.path = located.path;
    }
    read.items.push(...one.items.map((placed) => ({ ...placed, path: located.path })));
    read.messages += one.messages;
  }
  const alternatives = alternativeChoices(messages);
  if (alternatives !== undefined) withholdAlternativeCalls(read.items, 0, `the ${alternatives} gen_ai.choice events of several indices`, { losses, span: span.id });
  return read;
};

const SOURCES: Record<Side, Array<{ name: string; read: Source }>> = {
  input: [
    { name: "input", read: observation },
    { name: "gen_ai.input.messages", read: attribute("gen_ai.input.messages") },
    { name: "ai.prompt.messages", read: attribute("ai.prompt.messages") },
    { name: "gen_ai.prompt.N", read: indexed("gen_ai.prompt") },
    { name: "llm.input_messages.N", read: indexed("llm.input_messages") },
    { name: "gcp.vertex.agent.llm_request", read: attribute("gcp.vertex.agent.llm_request") },
    { name: "input.value", read: attribute("input.value") },
    { name: "events", read: eventsAttribute },
  ],
  output: [
    { name: "output", read: observation },
    { name: "gen_ai.output.messages", read: attribute("gen_ai.output.messages") },
    { name: "ai.response.toolCalls", read: vercelResponse },
    { name: "gen_ai.completion.N", read: indexed("gen_ai.completion") },
    { name: "llm.output_messages.N", read: indexed("llm.output_messages") },
    { name: "gcp.vertex.agent.llm_response", read: attribute("gcp.vertex.agent.llm_response") },
    { name: "gen_ai.output", read: agentOutput },
    { name: "output.value", read: attribute("output.value") },
    { name: "events", read: eventsAttribute },
  ],
};

/**
 * A side of a call, read from the first source that holds it; every later
 * source is a copy. The tool choice is every one the sources and the request's
 * own attributes hold (the raw request may stand beside the messages read):
 * one, when they allow the same calls; else one that allows none.
 */
function callSide(span: Span, side: Side, losses: ReaderLoss[], copies: Copy[]): MessagesRead {
  let chosen: { read: MessagesRead; name: string } | undefined;
  const toolChoices: ToolChoice[] = [];
  // What the other dialects of the answer say of how it ended where they hold no call to say it on.
  const endings: Ending[] = [];
  for (const { name, read: source } of SOURCES[side]) {
    if (chosen !== undefined) {
      const said: ReaderLoss[] = [];
      const copy = readCopy(span, side, source, losses, said);
      // A copy of the answer is compared with the answer; one of the history, with the conversation (a history may go back past this trace's first span).
      if (copy !== undefined) copies.push({ items: copy.items, span: span.id, what: `${name}, beside ${chosen.name} in the same span,`, ...(side === "output" ? { against: chosen.read.items } : {}) });
      if (copy?.toolChoice !== undefined) toolChoices.push(copy.toolChoice);
      if (copy !== undefined && !holdsCall(copy)) endings.push(...endingsInNoItem(said, name));
      continue;
    }
    const before = losses.length;
    const read = source(span, side, losses);
    if (read?.toolChoice !== undefined) toolChoices.push(read.toolChoice);
    if (read !== undefined && !holdsCall(read)) endings.push(...endingsInNoItem(losses.slice(before), name));
    if (read !== undefined && read.items.length > 0) {
      if (side === "output") markCutCalls(span, read, losses);
      chosen = { read, name };
    }
  }
  if (side === "output" && chosen !== undefined) markCallsEndedElsewhere(span, chosen, endings, losses);
  const read = chosen?.read ?? { items: [], messages: 0 };
  if (side === "input") toolChoices.push(...readApart(span, () => attributeToolChoices(span)));
  const toolChoice = oneToolChoice(toolChoices);
  return toolChoice === undefined ? read : { ...read, toolChoice };
}

/**
 * The tool choice of the request a wrapper records, which is the inner call's:
 * read apart, since the walk reads the wrapper's messages again as copies and
 * reports what they cannot be read as there.
 */
function wrapperToolChoice(wrapper: Span): ToolChoice | undefined {
  const choices: ToolChoice[] = [];
  for (const { read: source } of SOURCES.input) {
    const copy = readApart(wrapper, () => source(wrapper, "input", []));
    if (copy?.toolChoice !== undefined) choices.push(copy.toolChoice);
  }
  choices.push(...readApart(wrapper, () => attributeToolChoices(wrapper)));
  return oneToolChoice(choices);
}

/** What the wrappers above a call recorded of its request (their tool choices, their tools), nearest first. */
function above<T>(span: Span, byId: Map<string, Span>, byWrapper: ReadonlyMap<string, T>): T[] {
  const found: T[] = [];
  for (let at = span.parent === undefined ? undefined : byId.get(span.parent), hops = 0; at !== undefined && hops <= byId.size; at = at.parent === undefined ? undefined : byId.get(at.parent), hops++) {
    const one = byWrapper.get(at.id);
    if (one !== undefined) found.push(one);
  }
  return found;
}

/** Request bodies an instrumentation records whole, where a `tools` list (or Gemini's `config.tools`) is the request's. */
const REQUEST_BODIES = ["input.value", "gcp.vertex.agent.llm_request", "llm.invocation_parameters"];
/** Attributes that hold the request's tools as a list of definitions (each may be JSON text of its own). */
const TOOL_LISTS = ["gen_ai.tool.definitions", "ai.prompt.tools"];
const OPENINFERENCE_TOOL = /^llm\.tools\.(\d+)\.tool\.(json_schema|name)$/;
/** OpenLLMetry's indexed functions of the request: `llm.request.functions.N.name` (beside `.description`, `.parameters`). */
const OPENLLMETRY_FUNCTION = /^llm\.request\.functions\.(\d+)\.([a-z_]+)$/;

/**
 * Every list of tools the span says its request offered, wherever it says it:
 * OpenInference's `llm.tools.N.tool.json_schema`, OpenLLMetry's
 * `llm.request.functions.N.name`, OTel GenAI's
 * `gen_ai.tool.definitions`, Vercel's `ai.prompt.tools`, and the `tools` of a
 * request body recorded whole (a Langfuse observation's input, `input.value`,
 * ADK's `llm_request`). Looked at without taking them: no item holds them.
 */
function offeredTools(span: Span): ToolsOffered[] {
  return readApart(span, () => {
    const offered = [...openInferenceTools(span), ...openLlmetryFunctions(span)];
    for (const key of TOOL_LISTS) {
      const located = span.attributes.get(key);
      if (located !== undefined && located.value !== null && located.value !== undefined) offered.push(toolList(key, located));
    }
    for (const located of [sideOf(span, "input"), ...REQUEST_BODIES.map((key) => span.attributes.get(key))]) {
      if (located !== undefined) offered.push(...bodyTools(located));
    }
    return offered;
  });
}

/**
 * Where the request a span recorded whole, or its parameters, let the answer
 * make one call only (`parallel_tool_calls` false, Anthropic's
 * `disable_parallel_tool_use`), as the gate holds a logged exchange to it.
 * Looked at without taking them: no item holds them.
 */
function oneCallOf(span: Span): OneCallLimit | undefined {
  return readApart(span, () => oneCallRequest([sideOf(span, "input"), ...REQUEST_BODIES.map((key) => span.attributes.get(key))]));
}

/** OpenInference's tools, one attribute (or two: its JSON schema, its name) for each: as the list of their definitions. */
function openInferenceTools(span: Span): ToolsOffered[] {
  const byIndex = new Map<number, { json_schema?: Located; name?: Located }>();
  for (const [key, located] of span.attributes) {
    const match = OPENINFERENCE_TOOL.exec(key);
    if (match === null) continue;
    const index = Number(match[1]);
    byIndex.set(index, { ...byIndex.get(index), [match[2]!]: located });
  }
  const first = [...byIndex.values()][0];
  if (first === undefined) return [];
  const path = (first.json_schema ?? first.name)!.path;
  const tools: unknown[] = [];
  for (const [index, written] of [...byIndex.entries()].sort(([a], [b]) => a - b)) {
    if (written.json_schema === undefined) {
      tools.push({ name: written.name!.value });
      continue;
    }
    const schema = parsedValue(written.json_schema.value);
    if (schema.broken) return [{ value: written.json_schema.value, path, unreadable: `llm.tools.${index}.tool.json_schema is JSON text that does not parse, or names a member twice` }];
    // A name beside the schema that names another function is the tool written two ways.
    const named = isPlainObject(schema.value) ? (isPlainObject(schema.value.function) ? schema.value.function.name : schema.value.name) : undefined;
    if (written.name !== undefined && named !== written.name.value) return [{ value: tools, path, unreadable: `llm.tools.${index} names the tool ${JSON.stringify(written.name.value)} beside a schema of ${JSON.stringify(named)}` }];
    tools.push(schema.value);
  }
  return [{ value: tools, path }];
}

/**
 * OpenLLMetry's functions of the request (`llm.request.functions.N.name`), as
 * the list of their definitions. An index whose name is not a non-empty string
 * (given only a description or parameters) names a function the span does not
 * say: the list offers none, as a list of no form orbridge reads.
 */
function openLlmetryFunctions(span: Span): ToolsOffered[] {
  const names = new Map<number, Located | undefined>();
  let path: string | undefined;
  for (const [key, located] of span.attributes) {
    const match = OPENLLMETRY_FUNCTION.exec(key);
    if (match === null) continue;
    path ??= located.path;
    const index = Number(match[1]);
    if (!names.has(index)) names.set(index, undefined);
    if (match[2] === "name") names.set(index, located);
  }
  if (path === undefined) return [];
  const tools: unknown[] = [];
  for (const [index, located] of [...names.entries()].sort(([a], [b]) => a - b)) {
    if (typeof located?.value !== "string" || located.value === "") return [{ value: tools, path, unreadable: `llm.request.functions.${index} gives no name` }];
    tools.push({ name: located.value });
  }
  return [{ value: tools, path }];
}

/** A list of definitions, as JSON text or parsed, or an array of JSON texts of one definition each. */
function toolList(key: string, located: Located): ToolsOffered {
  const { value, broken } = parsedValue(located.value);
  const unreadable = `${key} is JSON text that does not parse, or names a member twice`;
  if (broken) return { value: located.value, path: located.path, unreadable };
  if (!Array.isArray(value)) return { value, path: located.path };
  const tools = value.map((entry) => (typeof entry === "string" ? parsedValue(entry) : { value: entry, broken: false }));
  return tools.some((tool) => tool.broken) ? { value, path: located.path, unreadable } : { value: tools.map((tool) => tool.value), path: located.path };
}

/**
 * The tools of a request body recorded whole: its `tools` and legacy
 * `functions`, and Gemini's `config.tools`. A body whose JSON text cannot be
 * read (cut short, or naming a member twice) may hold tools that would narrow
 * the answer: it offers none.
 */
function bodyTools(located: Located): ToolsOffered[] {
  const { value, broken, parsed } = parsedValue(located.value);
  if (broken && typeof located.value === "string" && /^\s*\{/.test(located.value)) return [{ value: located.value, path: located.path, unreadable: "the request body holding them is JSON text that does not parse, or names a member twice" }];
  if (!isPlainObject(value)) return [];
  const inner = (field: string) => (parsed ? `${located.path}, ${field} in its JSON text` : `${located.path}${field}`);
  const lists: ToolsOffered[] = [];
  const offered = toolsAndFunctions(value.tools, value.functions);
  if (offered !== undefined && offered !== null) lists.push({ value: offered, path: inner(value.tools === undefined || value.tools === null ? "/functions" : "/tools") });
  const config = value.config;
  if (isPlainObject(config) && config.tools !== undefined && config.tools !== null) lists.push({ value: config.tools, path: inner("/config/tools") });
  return lists;
}

/**
 * The tool choice an instrumentation records beside the messages: Vercel's
 * `ai.prompt.toolChoice` (`{type, toolName}`), OpenInference's
 * `llm.invocation_parameters` (the request's parameters, `tool_choice` or the
 * legacy `function_call`).
 */
function attributeToolChoices(span: Span): ToolChoice[] {
  const choices: ToolChoice[] = [];
  const vercel = span.attributes.get("ai.prompt.toolChoice");
  if (vercel !== undefined) {
    const { value } = parsedValue(vercel.value);
    choices.push({ value: isPlainObject(value) && value.type === "tool" ? { type: "tool", name: value.toolName } : isPlainObject(value) && typeof value.type === "string" && value.toolName === undefined ? value.type : value, path: vercel.path });
  }
  const parameters = span.attributes.get("llm.invocation_parameters");
  if (parameters !== undefined) {
    const { value } = parsedValue(parameters.value);
    if (isPlainObject(value) && value.tool_choice !== undefined && value.tool_choice !== null) choices.push({ value: value.tool_choice, path: parameters.path });
    const misspelled = isPlainObject(value) ? limitSpelledOtherwise(value) : undefined;
    if (misspelled !== undefined) choices.push({ value: null, path: parameters.path, misspelled: misspelled.path });
    if (isPlainObject(value) && value.function_call !== undefined && value.function_call !== null) choices.push({ value: legacyFunctionCall(value.function_call), path: parameters.path });
  }
  return choices;
}

/** The request's one tool choice; where it states several that allow other calls, one that allows none. */
function oneToolChoice(choices: readonly ToolChoice[]): ToolChoice | undefined {
  const first = choices[0];
  if (first === undefined) return undefined;
  if (sameAllowance(choices)) return first;
  return { value: { type: "disagreeing", choices: choices.map((choice) => choice.value) }, path: first.path, disagreeing: true };
}

/**
 * The calls of an answer that its own request did not allow (its tool choice
 * `none`, names that leave them out, tools that do not offer them), and every
 * call after the first of an answer whose request let it make one: not read,
 * each reported `conflict`. Gated as they are, they would pass on their
 * arguments alone; the gate blocks the same call in a recorded exchange by its
 * request's tool choice, tools and parallel flag. The calls of the answer are
 * counted together, as the gate counts those of one response.
 */
function allowedOutput(span: Span, limits: readonly CallLimit[], oneCall: OneCallLimit | undefined, output: MessagesRead, conversation: ConversationBuilder): { items: Placed[]; refused: number } {
  if (limits.length === 0 && oneCall === undefined) return { items: output.items, refused: 0 };
  let calls = 0;
  const items = output.items.filter(({ item, path }) => {
    if (item.type !== "function_call") return true;
    calls += 1;
    const refusing = limits.find(({ names }) => !names.has(String(item.name)));
    const detail = refusing !== undefined ? refusal(String(item.name), refusing) : calls > 1 && oneCall !== undefined ? oneCallRefusal(String(item.name), calls, oneCall) : undefined;
    if (detail === undefined) return true;
    conversation.refuse(item, path, detail, span.id);
    return false;
  });
  return { items, refused: output.items.length - items.length };
}

/**
 * The span's own finish reasons (Vercel's, GenAI's) and its failure: a call of
 * an answer stopped at the length limit may be cut, and one of an answer that
 * ended otherwise than of itself or to call tools (a content filter, a safety
 * stop, an error, a malformed call) or of a span that says it failed was not
 * sure to be the model's last word on it: each is incomplete, which the gate
 * blocks, as it blocks the same call recorded by its provider's API.
 */
function markCutCalls(span: Span, read: MessagesRead, losses: ReaderLoss[]): void {
  const reasons = [span.attributes.get("ai.response.finishReason"), span.attributes.get("gen_ai.response.finish_reasons")].flatMap((located) => {
    if (located === undefined) return [];
    const { value } = parsedValue(located.value);
    return (Array.isArray(value) ? value : [value]).map((reason) => ({ reason, path: located.path }));
  });
  const hasCalls = read.items.some((placed) => placed.item.type === "function_call");
  const unusual = reasons.filter(({ reason }) => reason !== undefined && reason !== null && !isUsualFinish(reason));
  // A reason that cuts the calls says it on each of them; otherwise it is in no item.
  if (!hasCalls) for (const { reason, path } of unusual) losses.push({ path, code: "left_behind", detail: `the finish reason ${JSON.stringify(reason)} is in no item`, span: span.id });
  const failure = spanFailure(span);
  const cut = unusual[0];
  if (cut === undefined && failure === undefined) return;
  for (const placed of read.items) {
    if (placed.item.type !== "function_call" || placed.item.status === "incomplete") continue;
    placed.item.status = "incomplete";
    const name = JSON.stringify(String(placed.item.name));
    if (cut === undefined) losses.push({ path: failure!.path, code: failure!.dropped ? "truncated" : "form_changed", detail: failure!.dropped ? `the call of ${name} is in the answer of a span whose exporter dropped ${failure!.said}, which may have held it otherwise, its arguments or the span's status: it is incomplete` : `the call of ${name} is in the answer of a span that says it failed (${failure!.said}): it is incomplete`, span: span.id });
    else if (isLengthLimit(cut.reason)) losses.push({ path: cut.path, code: "truncated", detail: `the call of ${name} is in an answer the model stopped at its length limit (finish reason ${JSON.stringify(cut.reason)}): its arguments may be cut, so it is incomplete`, span: span.id });
    else losses.push({ path: cut.path, code: "form_changed", detail: `the call of ${name} is in an answer that ended with finish reason ${JSON.stringify(cut.reason)}, not of itself or to call tools: it is incomplete`, span: span.id });
  }
}

/**
 * Where the span says it failed, and how: an OTel status of error, a Langfuse
 * level ERROR, a Jaeger `error` tag, an `otel.status_code` other than OK or
 * UNSET (a code of no known form is taken for a failure) or an `error.type`
 * attribute; or that its
 * exporter dropped attributes, which may have held a call's arguments. Looked at
 * without taking the field, which is still reported where no item holds it.
 */
function spanFailure(span: Span): { path: string; said: string; dropped?: true } | undefined {
  return readApart(span, () => {
    const status = span.fields?.get("status");
    if (status !== undefined) return { path: status.path, said: `status ${JSON.stringify(status.value)}` };
    const dropped = span.dropped?.find(cutsCalls);
    if (dropped !== undefined) return { path: dropped.path, said: droppedSaid(dropped), dropped: true };
    const level = span.fields?.get("level");
    if (level !== undefined && typeof level.value === "string" && level.value.toUpperCase() === "ERROR") return { path: level.path, said: "level ERROR" };
    const error = span.attributes.get("error");
    if (error !== undefined && (error.value === true || error.value === "true")) return { path: error.path, said: "error true" };
    const code = span.attributes.get("otel.status_code");
    if (code !== undefined && !saysNoFailure(code.value)) return { path: code.path, said: `otel.status_code ${JSON.stringify(code.value)}` };
    // The GenAI conventions set error.type only on an operation that ended in an error ("timeout", "500", "_OTHER"),
    // beside a status an exporter may not carry (span dicts, Jaeger tags of another exporter).
    const errorType = span.attributes.get("error.type");
    if (errorType !== undefined && errorType.value !== null && errorType.value !== "") return { path: errorType.path, said: `error.type ${JSON.stringify(errorType.value)}` };
    return undefined;
  });
}

/** OTel's status codes that say no failure, in the forms exporters write them (name, enum name, number); any other is taken for one. */
const NO_FAILURE_CODES = new Set(["OK", "UNSET", "STATUS_CODE_OK", "STATUS_CODE_UNSET", "", "0", "1"]);

/** What was dropped, and how many, as a call's loss says it. */
function droppedSaid(dropped: Dropped): string {
  return `${dropped.what} (${droppedCount(dropped)})`;
}

/**
 * The calls of an answer read inside a wrapper whose exporter dropped entries:
 * what was dropped may have been the wrapper's copy of the call, saying another
 * one, or its failure, and a replayer that reads the wrapper would not run the
 * call read here. Each is incomplete, which the gate blocks.
 */
function markCallsCutAbove(span: Span, output: MessagesRead, wrapper: { dropped: Dropped; name: string }, losses: ReaderLoss[]): void {
  for (const placed of output.items) {
    if (placed.item.type !== "function_call" || placed.item.status === "incomplete") continue;
    placed.item.status = "incomplete";
    losses.push({ path: wrapper.dropped.path, code: "truncated", detail: `the call of ${JSON.stringify(String(placed.item.name))} is in the answer of a span inside the span ${JSON.stringify(wrapper.name)}, whose exporter dropped ${droppedSaid(wrapper.dropped)}, which may have held its copy of the call or its status: it is incomplete`, span: span.id });
  }
}

function saysNoFailure(code: unknown): boolean {
  return code === null || ((typeof code === "string" || typeof code === "number") && NO_FAILURE_CODES.has(String(code).toUpperCase()));
}

/**
 * The system prompt, when the call's own messages hold none: a Response's
 * `instructions`, else `gen_ai.system_instructions` of the span or of the
 * nearest span above it.
 */
function systemPrompt(span: Span, byId: Map<string, Span>, input: MessagesRead, output: MessagesRead, losses: ReaderLoss[]) {
  if (input.items.some(({ item }) => item.type === "message" && (item.role === "system" || item.role === "developer"))) return undefined;
  if (output.instructions) return output.instructions;
  if (input.instructions) return input.instructions;
  for (let at: Span | undefined = span, hops = 0; at !== undefined && hops <= byId.size; at = at.parent === undefined ? undefined : byId.get(at.parent), hops++) {
    const located = at.attributes.get("gen_ai.system_instructions");
    if (located === undefined) continue;
    const { value } = parsedValue(located.value);
    const parts = Array.isArray(value) ? value : [value];
    const read = readMessages([{ role: "system", parts }], located.path, "input", losses, at.id);
    if (read.items.length > 0) return { ...read.items[0], path: located.path };
  }
  return undefined;
}

const CALL_ID_ATTRIBUTES = ["gen_ai.tool.call.id", "ai.toolCall.id", "tool_call.id"];
const NAME_ATTRIBUTES = ["gen_ai.tool.name", "ai.toolCall.name", "tool.name"];
const ARGUMENT_ATTRIBUTES = ["gen_ai.tool.call.arguments", "gen_ai.tool.args", "ai.toolCall.args", "gcp.vertex.agent.tool_call_args", "input.value"];
const RESULT_ATTRIBUTES = ["gen_ai.tool.call.result", "ai.toolCall.result", "gcp.vertex.agent.tool_response", "gen_ai.output", "output.value"];

function first(span: Span, keys: readonly string[]): Located | undefined {
  for (const key of keys) {
    const located = span.attributes.get(key);
    if (located !== undefined && located.value !== undefined && located.value !== null) return located;
  }
  return undefined;
}

/** A tool execution's result, as text: text kept as written, a JSON value written as JSON text. */
/** The members of a LangChain ToolMessage that the result read. */
const TOOL_MESSAGE_READ = new Set(["type", "tool_call_id", "name", "content"]);

/**
 * A LangChain ToolMessage's other members that hold something (an error
 * status, an artifact, its id and metadata): each reported. A status of
 * "success" is what a result already says.
 */
function toolMessageLeftBehind(toolMessage: Record<string, unknown>, located: Located, span: Span, losses: ReaderLoss[]): void {
  const asText = parsedValue(located.value).parsed;
  for (const [key, member] of Object.entries(toolMessage)) {
    if (TOOL_MESSAGE_READ.has(key) || member === null || member === undefined || (key === "status" && member === "success")) continue;
    if ((Array.isArray(member) && member.length === 0) || (isPlainObject(member) && Object.keys(member).length === 0)) continue;
    const inner = `/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    losses.push({ path: asText ? located.path : `${located.path}${inner}`, code: "left_behind", detail: `${key} of the tool message is in no item${asText ? ` (at ${inner} in its JSON text)` : ""}`, span: span.id });
  }
}

function toolResult(span: Span, losses: ReaderLoss[]): ToolResult | undefined {
  const observedOutput = sideOf(span, "output");
  const observed = observedOutput === undefined ? undefined : parsedValue(observedOutput.value).value;
  const toolMessage = isPlainObject(observed) && observed.type === "tool" && typeof observed.tool_call_id === "string" ? observed : undefined;
  const written = first(span, CALL_ID_ATTRIBUTES)?.value ?? toolMessage?.tool_call_id;
  // An id written as an integer (an OTLP intValue) is its digits, as a call's id is.
  const callId = typeof written === "number" && Number.isSafeInteger(written) ? String(written) : written;
  const name = first(span, NAME_ATTRIBUTES)?.value ?? toolMessage?.name ?? (span.type === "TOOL" ? span.name : undefined);
  const resultAttribute = first(span, RESULT_ATTRIBUTES);
  let output: unknown;
  let path: string;
  if (resultAttribute !== undefined) ({ value: output, path } = resultAttribute);
  else if (toolMessage !== undefined && observedOutput !== undefined) {
    ({ value: output, path } = { value: toolMessage.content, path: observedOutput.path });
    toolMessageLeftBehind(toolMessage, observedOutput, span, losses);
  }
  else if (observedOutput !== undefined && observedOutput.value !== null && observedOutput.value !== undefined) ({ value: output, path } = { value: observed, path: observedOutput.path });
  else path = span.path;
  const said = toolSaid(span, toolMessage, observedOutput, losses);
  if (output === undefined && typeof callId !== "string" && said.names.length === 0) return undefined;
  return {
    ...(typeof callId === "string" && callId !== "" ? { callId } : {}),
    ...(typeof name === "string" ? { name } : {}),
    ...(said.arguments.length > 0 ? { arguments: said.arguments[0]!.value } : {}),
    said,
    ...(resultAttribute === undefined && toolMessage === undefined && (observedOutput?.value === null || observedOutput?.value === undefined) ? {} : { output: typeof output === "string" ? output : JSON.stringify(output ?? null) }),
    path,
    span: span.id,
  };
}

/**
 * Every name and arguments text a tool span says its run had, each where it
 * says it: each name attribute, a LangChain ToolMessage's name; each arguments
 * attribute (JSON text, or a value stored parsed, written as JSON) and the
 * observation's input when it holds the arguments. An input that holds no
 * arguments it can read (a graph's state, a Python repr) is left behind; one
 * whose JSON text names a member twice is unreadable.
 */
function toolSaid(span: Span, toolMessage: Record<string, unknown> | undefined, observedOutput: Located | undefined, losses: ReaderLoss[]): { names: ToolSaid[]; arguments: ToolSaid[] } {
  const names: ToolSaid[] = [];
  for (const key of NAME_ATTRIBUTES) {
    const located = span.attributes.get(key);
    if (typeof located?.value === "string") names.push({ value: located.value, path: located.path });
  }
  if (typeof toolMessage?.name === "string" && observedOutput !== undefined) names.push({ value: toolMessage.name, path: observedOutput.path });
  // A Langfuse TOOL observation is named after the tool it ran, unless something else names it (ADK names it `execute_tool X`).
  if (span.type === "TOOL" && names.length === 0 && span.name !== "") names.push({ value: span.name, path: span.path });
  const args: ToolSaid[] = [];
  for (const key of ARGUMENT_ATTRIBUTES) {
    const located = span.attributes.get(key);
    if (located === undefined || located.value === null || located.value === undefined) continue;
    if (typeof located.value === "string") args.push({ value: located.value, path: located.path });
    else if (isPlainObject(located.value)) args.push({ value: JSON.stringify(located.value), path: located.path });
  }
  const observedInput = sideOf(span, "input");
  if (observedInput !== undefined && observedInput.value !== null && observedInput.value !== undefined) {
    const observedArgs = parsedValue(observedInput.value);
    // JSON text that names a member twice is compared as the text it is: two readers read other arguments from it.
    if (observedArgs.twice !== undefined && typeof observedArgs.value === "string") args.push({ value: observedArgs.value, path: observedInput.path });
    // Arguments as the source wrote them: JSON text kept as its text (numbers as written), a parsed object written as JSON.
    else if (!observedArgs.broken && isPlainObject(observedArgs.value)) args.push({ value: observedArgs.text ?? JSON.stringify(observedArgs.value), path: observedInput.path });
    else losses.push({ path: observedInput.path, code: "left_behind", detail: "the tool span's input holds no arguments orbridge reads (JSON text of an object): it is in no item", span: span.id });
  }
  return { names, arguments: args };
}
