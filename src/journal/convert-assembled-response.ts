// A response reassembled from a stream, written as the whole record of the other
// envelope: the record the stream amounts to goes through the same converter as
// a record of that kind on its own line.
//
// | stream              | written as                                                          |
// |---------------------|---------------------------------------------------------------------|
// | chat.completion     | a response object: the chat.completion the chunks rebuild (every    |
// |   chunks            |   choice, its logprobs and provider fields, the completion's fields |
// |                     |   and usage), converted as a stored one is                          |
// | Open Responses      | a chat.completion: the last response object the events showed, with |
// |   events            |   the reassembled output and status                                 |
// | a registered        | the target's record, from the response object the envelope's   |
// |   envelope's stream |   assembler wrote (`record`), else the one the items give (with |
// |                     |   the stream's id and status)                                   |
// | any stream, to a    | the response object it amounts to (as above), then the          |
// |   registered        |   envelope's response converter; the losses of that step are    |
// |   envelope          |   pointed back into the source's own record (joinStepLosses),   |
// |                     |   then to the line of the record that said the value and the    |
// |                     |   field there (`/usage` of a message: message_delta's `/usage`) |
// | a damaged stream    | a loss; when the response holds calls, status incomplete where it   |
// |                     |   would be completed, so that no call comes out completed           |
//
// Every loss names the line of the record it points into: a field of the rebuilt
// completion points at the chunk that first carried it, an output item at the
// event that last set it, a field of the response object at the event that
// carried it.
// The Chat descriptor brings its assembler, which adds the rebuilt completion to what a stream gives.
import { chat, ENVELOPES, type AdapterName, type JournalEnvelopes, type ReasoningField } from "../../adapters/index.js";
import type { AssembledResponse, StreamLoss, WholeRecord } from "../models/assembled-response.js";
import type { ChatCompletion } from "../models/chat-completions.js";
import type { Envelope } from "../models/journal-item.js";
import { isPlainObject } from "../models/json-value.js";
import type { Loss } from "../models/loss.js";
import { pointer } from "../models/json-pointer.js";
import { ENVELOPE_TITLES } from "./envelope-titles.js";
import { joinStepLosses, type StepEnvelope } from "./two-step-losses.js";
import { callsRepeatingAnId, intoSetAside, unfinishedResponse, unwritableCall, type RepeatedKeys } from "./unfinished-calls.js";
import { leaveOutRefusedCalls, type RequestLimits } from "./own-limit-calls.js";
import type { ResponseResource } from "../models/open-responses.js";

type Fields = Record<string, unknown>;


export interface ConvertedStream {
  /** A response object (from a Chat stream) or a chat.completion (from an event stream). */
  value: unknown;
  /** The losses of the reassembly and of the conversion, in line order. */
  losses: StreamLoss[];
  /** The items written, where some of the response's were left out. */
  written?: readonly unknown[];
}

/**
 * Converts one reassembled response, given the envelope of the stream it came
 * from and, when a line inside that stream could not be read, the damage loss.
 * Throws when the record the stream amounts to cannot be converted.
 */
/** `writers`: the journal's envelopes, whose writers share the call ids their rewrites took; the registry's own when none is given. */
export function convertAssembledResponse(args: { envelope: Envelope; response: AssembledResponse; damage?: Loss; target?: Envelope; reasoningField?: ReasoningField; requestLimits?: RequestLimits; repeats?: RepeatedKeys; writers?: JournalEnvelopes }): ConvertedStream {
  const { envelope, response, damage } = args;
  const target = args.target ?? (envelope === "chat" ? "responses" : "chat");
  // A chat.completion has no status per call: only the response's can keep one from passing as completed.
  // So does a stream whose own record says completed while the assembler left a call otherwise (a delta
  // after the call was closed, a terminal output that disagrees with the deltas): the record the target
  // writes must not hold that call as completed, which only an incomplete response says in every envelope.
  const calls = response.items.filter((item) => isPlainObject(item) && item.type === "function_call");
  // And so does a call the gate blocks for what the target has no place for (a namespace, arguments that are no text).
  // And a call that repeats an id an earlier record gave, where the target does not show that record's (journal-ids.ts).
  const repeating = callsRepeatingAnId(response.items, args.repeats);
  const damaged = (damage !== undefined && calls.length > 0) || calls.some((call) => call.status !== "completed" || (target !== "responses" && unwritableCall(call, target === "chat", repeating) !== undefined));
  const converted =
    envelope === "chat" && target === "responses" ? chatStreamToResponse(response, damaged)
    : envelope === "responses" && target === "chat" ? responsesStreamToCompletion(response, damaged, args.reasoningField)
    : throughResource(envelope, target, response, damaged, args.writers ?? ENVELOPES, args.reasoningField, args.requestLimits, args.repeats);
  // A stream written whole by its envelope's converter says its losses with it.
  const losses = [...(envelope !== "chat" && envelope !== "responses" && response.record ? [] : response.losses), ...converted.losses];
  if (damage) losses.push({ ...damage, line: response.line });
  return { value: converted.value, losses: losses.sort((a, b) => a.line - b.line), ...(converted.written ? { written: converted.written } : {}) };
}

/** Any other pair: the response object the stream amounts to, then the target's record of it. */
function throughResource(envelope: Envelope, target: Envelope, response: AssembledResponse, damaged: boolean, writers: JournalEnvelopes, reasoningField?: ReasoningField, requestLimits?: RequestLimits, repeats?: RepeatedKeys): ConvertedStream {
  const whole = wholeOf(envelope, response);
  const resource = envelope === "chat" ? chatStreamToResponse(response, damaged) : whole ? wholeRecord(whole, damaged) : { value: { ...(response.id !== undefined ? { id: response.id } : {}), object: "response", status: statusOf(response, damaged), output: response.items }, losses: [] };
  if (envelope === "responses") {
    const snapshot = response.resource?.snapshot;
    resource.value = { ...(snapshot?.value ?? {}), ...(resource.value as Fields) };
  }
  if (envelope !== "chat" && envelope !== "responses" && !whole) {
    // The assembler gives the items, id and status; what else the events said is not carried.
    resource.losses.push({ line: response.line, path: "", code: "left_behind", detail: `the ${envelope} stream's fields beyond its items, id and status (model, usage…) are not written` });
  }
  if (target === "responses") return resource;
  const place = placer(envelope, response, whole);
  // The calls the response's own record of its request refuses: the target has no place for that record (own-limit-calls.ts).
  const refused = leaveOutRefusedCalls(resource.value, ENVELOPE_TITLES[target as AdapterName] ?? "Chat", requestLimits);
  resource.value = refused.value;
  for (const loss of refused.losses) resource.losses.push({ ...loss, ...place(loss.path) });
  // Anthropic, Gemini and Bedrock read only the last block of an unfinished response as cut: where a call
  // the gate blocks is not the last, what follows it is left out, and it is written last (unfinished-calls.ts).
  if (target !== "chat") {
    const marked = unfinishedResponse(resource.value, ENVELOPE_TITLES[target as AdapterName], true, false, repeats);
    if (marked.losses.length > 0) resource.value = marked.value;
    // An envelope's own assembler places the fields of its response, not items left out of it: those go to the stream as a whole.
    const at = (path: string) => (envelope === "chat" || envelope === "responses" ? place(path) : { line: response.lastLine, path: "" });
    for (const loss of marked.losses) resource.losses.push({ ...loss, ...at(loss.path) });
  }
  // What the first step synthesized no one said: the second does not report it lost.
  const synthesized = resource.losses.filter((loss) => loss.code === "synthesized").map((loss) => loss.path);
  const written = target === "chat" ? chat.responses.fromResponses({ response: resource.value as ResponseResource, synthesized, reasoningField }) : writers[target as AdapterName].resourceToResponse(resource.value as ResponseResource);
  const second = written.losses.filter((loss) => !intoSetAside(loss.path, refused.left));
  const joined = joinStepLosses({ source: stepEnvelope(envelope), target: stepEnvelope(target), first: resource.losses, second, written: written.value });
  // The first step's losses name their line already; the second's point into the source's own record, or into the record written.
  const losses = joined.map((loss): StreamLoss => {
    if ("line" in loss && typeof loss.line === "number") return loss as StreamLoss;
    if (loss.code === "synthesized") return { ...loss, line: response.line };
    return { ...loss, ...place(loss.path) };
  });
  const output = isPlainObject(resource.value) ? resource.value.output : undefined;
  return { value: written.value, losses, ...(refused.left.size > 0 && Array.isArray(output) ? { written: output } : {}) };
}

/** What the losses of a response's two steps need to know of an envelope: its slug, where its response holds each field, whether its calls hold arguments as objects. */
export function stepEnvelope(envelope: Envelope): StepEnvelope {
  if (envelope === "responses") return "responses";
  if (envelope === "chat") return { responseFields: chat.responses.fieldPaths };
  const adapter = ENVELOPES[envelope as AdapterName];
  return { slug: adapter.slug, responseFields: adapter.responseFields, argumentsAsObjects: adapter.argumentsAsObjects };
}

/**
 * Where a path into the record the stream amounts to (the chat.completion, the
 * response object, the envelope's own response) was said: the line of the
 * record that carried the value and the field there; a value no one record
 * holds, the stream's last record as a whole.
 */
function placer(envelope: Envelope, response: AssembledResponse, whole: WholeRecord | undefined): (path: string) => Pick<StreamLoss, "line" | "path"> {
  const stream = { line: response.lastLine, path: "" };
  if (envelope === "chat") {
    const rebuilt = response.completion?.rebuilt;
    return (path) => (rebuilt && path !== "" ? rebuilt.place(path) : stream);
  }
  if (envelope === "responses") {
    const snapshot = response.resource?.snapshot;
    const itemLines = response.resource?.itemLines;
    return (path) => {
      const item = /^\/output\/(\d+)(.*)$/.exec(path);
      const itemLine = item ? itemLines?.[Number(item[1])] : undefined;
      if (item && itemLine !== undefined) return { line: itemLine, path: "/item" + item[2] };
      return snapshot !== undefined ? { line: snapshot.line, path: "/response" + path } : stream;
    };
  }
  return (path) => (path !== "" && whole?.place ? whole.place(path) : stream);
}

/** The response object a registered envelope's assembler wrote of the stream, when it wrote one. */
function wholeOf(envelope: Envelope, response: AssembledResponse): WholeRecord | undefined {
  return envelope === "chat" || envelope === "responses" ? undefined : response.record?.();
}

/** The response object a registered envelope's assembler wrote; a damaged one has no completed call. */
function wholeRecord(record: WholeRecord, damaged: boolean): ConvertedStream {
  if (!damaged) return { value: record.value, losses: [...record.losses] };
  const output = (record.value.output as Fields[]).map((item) => (item.type === "function_call" && item.status === "completed" ? { ...item, status: "incomplete" } : item));
  return { value: { ...record.value, status: record.value.status === "completed" ? "incomplete" : record.value.status, output }, losses: [...record.losses] };
}

/** The status a damaged response with calls is written with: never completed. */
function statusOf(response: AssembledResponse, damaged: boolean): string | undefined {
  return damaged && response.status === "completed" ? "incomplete" : response.status;
}

/**
 * The chat.completion the chunks rebuild goes through the same converter as a
 * non-streamed one, and each loss is moved to the chunk that carried its field.
 * A damaged stream's status, which no finish_reason gives, is the stream's.
 */
function chatStreamToResponse(response: AssembledResponse, damaged: boolean): ConvertedStream {
  const streamed = response.completion;
  const rebuilt = streamed?.rebuilt;
  if (!rebuilt) throw new TypeError("the Chat stream was not reassembled with its completion");
  const converted = chat.responses.toResponses({ completion: rebuilt.value as ChatCompletion });
  const value = converted.value as ResponseResource & Fields;
  const streamStatus = statusOf(response, damaged);
  const restatus = streamStatus !== undefined && streamStatus !== value.status;
  const finish = streamed.finish;
  const losses: StreamLoss[] = [];
  for (const loss of converted.losses) {
    // The finish_reason the damage overrides is reported below, once.
    if (restatus && loss.path === "/choices/0/finish_reason") continue;
    losses.push({ ...rebuilt.place(loss.path), code: loss.code, detail: loss.detail });
  }
  if (restatus) {
    value.status = streamStatus;
    for (const item of value.output as Fields[]) if ("status" in item) item.status = streamStatus;
    if (finish !== undefined) {
      losses.push({ line: finish.line, path: pointer("choices", finish.position, "finish_reason"), code: "form_changed", detail: `finish_reason ${JSON.stringify(finish.value)} written as status ${streamStatus}` });
    }
  }
  return { value, losses };
}

/**
 * The last response object the events showed, with the reassembled output and
 * status, goes through the same converter as a response object on its own line.
 */
function responsesStreamToCompletion(response: AssembledResponse, damaged: boolean, reasoningField?: ReasoningField): ConvertedStream {
  const snapshot = response.resource?.snapshot;
  const itemLines = response.resource?.itemLines;
  const status = statusOf(response, damaged);
  const restatus = status !== response.status;
  const whole = { ...(snapshot?.value ?? (response.id !== undefined ? { id: response.id } : {})), object: "response", status, output: response.items };
  // The calls the response's own record of its request refuses: a chat.completion has no place for that record (own-limit-calls.ts).
  const refused = leaveOutRefusedCalls(whole, "Chat");
  const resource = refused.value;
  const converted = chat.responses.fromResponses({ response: resource as unknown as ResponseResource, reasoningField });
  const losses: StreamLoss[] = [];
  for (const loss of [...refused.losses, ...converted.losses.filter((loss) => !intoSetAside(loss.path, refused.left))]) {
    // The incomplete status is the damage's, which its own loss reports.
    if (restatus && (loss.path === "/status" || loss.path === "/incomplete_details")) continue;
    const item = /^\/output\/(\d+)(.*)$/.exec(loss.path);
    const itemLine = item ? itemLines?.[Number(item[1])] : undefined;
    if (item && itemLine !== undefined) losses.push({ ...loss, line: itemLine, path: "/item" + item[2] });
    else if (snapshot !== undefined) losses.push({ ...loss, line: snapshot.line, path: "/response" + loss.path });
    else losses.push({ ...loss, line: response.line });
  }
  return { value: converted.value, losses };
}
