// Message parts of every dialect a span or stored log writes, to canonical
// content parts or to items of their own:
//
// | part                                                    | becomes                               |
// |---------------------------------------------------------|---------------------------------------|
// | OTel `text` {content}, Vercel/Chat `text` {text}, ADK {text} | `input_text` / `output_text`      |
// | `input_text`, `output_text`, `refusal` (already canonical) | kept                              |
// | OTel `reasoning`, Vercel `reasoning`, ADK {text, thought}  | a `reasoning` item                |
// | OTel `tool_call`, Vercel `tool-call`, ADK `function_call`  | a `function_call` item            |
// | OTel `tool_call_response`, Vercel `tool-result`, ADK `function_response` | a `function_call_output` item |
// | OTel `blob` (base64), ADK `inline_data`                 | `input_image` / `input_file` with a data URL |
// | OTel `uri`, ADK `file_data`, Chat `image_url`           | `input_image` / `input_file` by URL   |
// | OTel `file` {file_id}                                   | `input_image` / `input_file` by `file_id` |
// | OTel `server_tool_call`, `server_tool_call_response`    | an `otel:` extension item            |
// | any other part                                          | an `otel:<type>` extension item, reported |
//
// A member a dialect spells two ways (`function_call` and `functionCall`, a
// call's `arguments`, `args` and `input`) is read once when every spelling
// present says the same; when two disagree, a reader of the one and a reader of
// the other run two calls, so the part is `unreadable`, not read. A call with no
// arguments at all is read as one without parameters, "{}", and said: Gemini
// leaves `args` out of such a call, and OpenInference's ADK instrumentation its
// arguments attribute; a span that dropped attributes says so in a loss of its own.
import { isDeepStrictEqual } from "node:util";
import { isPlainObject } from "../../src/models/json-value.js";
import type { ReaderLoss } from "../stored-log/reading.js";
import { sameArguments } from "./rebuild-conversation.js";

/** What one part turned into: a content part of its message, or an item of its own. */
export type PartRead = { part: Record<string, unknown> } | { item: Record<string, unknown>; pendingName?: string } | { skip: true };

export interface PartContext {
  role: string;
  path: string;
  span?: string;
  losses: ReaderLoss[];
}

/**
 * A value its source writes two ways that disagree (a message or a call both
 * inside its wrapper and beside it): whoever reads it is told why it is not read.
 */
export class WrittenTwoWays {
  constructor(readonly detail: string) {}
}

/** Reports a value written two ways as not read. */
export function notReadTwoWays(written: WrittenTwoWays, path: string, context: { losses: ReaderLoss[]; span?: string }): void {
  context.losses.push({ path, code: "unreadable", detail: `${written.detail}: two readers read two values, so it is not read`, ...(context.span ? { span: context.span } : {}) });
}

/** The one value the spellings present agree on, the first of them, or where two disagree. */
export type Spelled = { field?: string; value?: unknown } | { twice: WrittenTwoWays };

/**
 * Of a member written under several names (in the order a reader prefers them),
 * the first present when every other present agrees with it. Null counts as
 * absent, as every reader here takes it.
 */
export function oneSpelling(written: ReadonlyArray<readonly [field: string, value: unknown]>, agree: (left: unknown, right: unknown) => boolean = isDeepStrictEqual): Spelled {
  const present = written.filter(([, value]) => value !== undefined && value !== null);
  const [first] = present;
  if (first === undefined) return {};
  const other = present.find(([, value]) => !agree(first[1], value));
  if (other !== undefined) return { twice: new WrittenTwoWays(`written twice, as ${first[0]} and as ${other[0]}, which disagree`) };
  return { field: first[0], value: first[1] };
}

/** Arguments that mean the same, however written (text or parsed, spacing, member order). */
export function sameArgumentsWritten(left: unknown, right: unknown): boolean {
  const text = (args: unknown) => (typeof args === "string" ? args : JSON.stringify(args));
  return sameArguments(text(left), text(right));
}

export function readPart(part: unknown, context: PartContext): PartRead {
  if (part instanceof WrittenTwoWays) {
    notReadTwoWays(part, context.path, context);
    return { skip: true };
  }
  if (typeof part === "string") return { part: textPart(context.role, part) };
  if (!isPlainObject(part)) return unknownPart(part, context, "a part that is not an object");
  const type = part.type;
  if (typeof type !== "string") return readUntypedPart(part, context);
  switch (type) {
    case "text":
      return { part: textPart(context.role, typeof part.content === "string" ? part.content : String(part.text ?? "")) };
    case "input_text":
    case "output_text":
    case "refusal":
    case "input_image":
    case "input_file":
      return { part };
    case "reasoning":
      return { item: reasoningItem(typeof part.content === "string" ? part.content : String(part.text ?? "")) };
    case "tool_call":
      return spelledCall(part.id, part.name, argumentsOf(part, ["arguments", "args", "input"]), context);
    case "tool-call":
      return spelledCall(part.toolCallId, part.toolName, argumentsOf(part, ["input", "args"]), context);
    case "tool_call_response":
      return { item: outputItem(part.id, part.response ?? part.result) };
    case "tool-result":
      return { item: outputItem(part.toolCallId, vercelResult(part.output ?? part.result)) };
    case "blob":
      return { part: mediaPart(part, { data: part.content }) };
    case "uri":
      return { part: mediaPart(part, { url: part.uri }) };
    case "file":
      return { part: mediaPart(part, { fileId: part.file_id }) };
    case "image_url": {
      const image = isPlainObject(part.image_url) ? part.image_url : { url: part.image_url };
      return { part: { type: "input_image", image_url: image.url ?? null, ...(image.detail === undefined ? {} : { detail: image.detail }) } };
    }
    case "image":
      return { part: mediaPart({ mime_type: part.mediaType ?? part.mimeType, modality: "image" }, typeof part.image === "string" && /^[a-z]+:/i.test(part.image) ? { url: part.image } : { data: part.image }) };
    case "server_tool_call":
    case "server_tool_call_response":
      return { item: { ...part, type: `otel:${type}` } };
  }
  return unknownPart(part, context, `a part of type "${type}"`);
}

function argumentsOf(part: Record<string, unknown>, fields: readonly string[]): Spelled {
  return oneSpelling(fields.map((field) => [field, part[field]] as const), sameArgumentsWritten);
}

/** A call whose arguments were read from one of their spellings, or not read where two disagree. */
function spelledCall(callId: unknown, name: unknown, args: Spelled, context: PartContext): PartRead {
  if ("twice" in args) return skipTwoWays(args.twice, context, `the arguments of the call of "${String(name)}" are`);
  return { item: callItem(callId, name, args.value, context, args.field ?? "arguments") };
}

function skipTwoWays(written: WrittenTwoWays, context: PartContext, what = "the part is"): PartRead {
  notReadTwoWays(new WrittenTwoWays(`${what} ${written.detail}`), context.path, context);
  return { skip: true };
}

/** Whether two spellings of one Gemini call are the same call: its id, its name and what its args mean. */
function sameGeminiCall(left: unknown, right: unknown): boolean {
  if (!isPlainObject(left) || !isPlainObject(right)) return isDeepStrictEqual(left, right);
  return left.id === right.id && left.name === right.name && (left.args === right.args || (left.args !== undefined && right.args !== undefined && sameArgumentsWritten(left.args, right.args)));
}

/** Parts that carry no `type`: Gemini's and ADK's, in either spelling (both, when they agree). */
function readUntypedPart(part: Record<string, unknown>, context: PartContext): PartRead {
  const spelled = (snake: string, camel: string, agree?: (left: unknown, right: unknown) => boolean) => oneSpelling([[snake, part[snake]], [camel, part[camel]]], agree);
  const call = spelled("function_call", "functionCall", sameGeminiCall);
  if ("twice" in call) return skipTwoWays(call.twice, context, "the call is");
  if (isPlainObject(call.value)) return { item: geminiCall(call.value, { ...context, path: `${context.path}/${call.field}` }) };
  const answer = spelled("function_response", "functionResponse");
  if ("twice" in answer) return skipTwoWays(answer.twice, context, "the result is");
  const response = answer.value;
  if (isPlainObject(response)) {
    const output = outputItem(response.id, response.response);
    return typeof response.id === "string" ? { item: output } : { item: output, pendingName: String(response.name ?? "") };
  }
  if (typeof part.text === "string") return part.thought === true ? { item: reasoningItem(part.text) } : { part: textPart(context.role, part.text) };
  const inlineData = spelled("inline_data", "inlineData");
  const fileData = spelled("file_data", "fileData");
  for (const media of [inlineData, fileData]) if ("twice" in media) return skipTwoWays(media.twice, context);
  const inline = "value" in inlineData ? inlineData.value : undefined;
  if (isPlainObject(inline)) return { part: mediaPart({ mime_type: inline.mime_type ?? inline.mimeType }, { data: inline.data }) };
  const file = "value" in fileData ? fileData.value : undefined;
  if (isPlainObject(file)) return { part: mediaPart({ mime_type: file.mime_type ?? file.mimeType }, { url: file.file_uri ?? file.fileUri }) };
  return unknownPart(part, context, "a part with no type");
}

/**
 * The AI SDK (v5) wraps a result in `{type, value}`: text and error text are the
 * text they hold, JSON and error JSON the value; older versions store the value bare.
 */
function vercelResult(output: unknown): unknown {
  if (!isPlainObject(output) || typeof output.type !== "string" || !("value" in output) || Object.keys(output).length !== 2) return output;
  switch (output.type) {
    case "text":
    case "error-text":
    case "json":
    case "error-json":
    case "content":
      return output.value;
  }
  return output;
}

function unknownPart(part: unknown, context: PartContext, what: string): PartRead {
  const type = isPlainObject(part) && typeof part.type === "string" && /^[a-z0-9_.-]+$/i.test(part.type) ? part.type : "part";
  context.losses.push({ path: context.path, code: "unknown_part", detail: `${what} is of no dialect orbridge reads: kept as the extension item "otel:${type}"`, ...(context.span ? { span: context.span } : {}) });
  return { item: { type: `otel:${type}`, role: context.role, part } };
}

export function textPart(role: string, text: string): Record<string, unknown> {
  return role === "assistant" ? { type: "output_text", text } : { type: "input_text", text };
}

export function reasoningItem(text: string): Record<string, unknown> {
  return { type: "reasoning", summary: [], content: [{ type: "reasoning_text", text }] };
}

/**
 * A call as the source wrote it: arguments held as text are copied byte for
 * byte; arguments stored parsed become JSON text in the order they were stored,
 * and that change of form is reported. A call without an id keeps none here: the
 * conversation gives it one.
 */
export function callItem(callId: unknown, name: unknown, args: unknown, context: PartContext, field: string): Record<string, unknown> {
  if (args === undefined || args === null) return callWithoutArguments(callId, name, context, `the call of "${String(name)}" holds no arguments: arguments "{}" written, a call without parameters, as the instrumentations that leave them out mean it`);
  let text: string;
  if (typeof args === "string") {
    text = args;
    if (text !== "" && !parses(text)) {
      context.losses.push({ path: `${context.path}/${field}`, code: "truncated", detail: `the arguments of "${String(name)}" are not JSON (cut short, or never JSON): copied as they are, and the gate will block the call`, ...(context.span ? { span: context.span } : {}) });
    }
  } else {
    text = JSON.stringify(args);
    context.losses.push({ path: `${context.path}/${field}`, code: "form_changed", detail: `the arguments of "${String(name)}" were stored as parsed JSON: written as JSON text, members in their stored order`, ...(context.span ? { span: context.span } : {}) });
  }
  return { type: "function_call", ...callIdOf(callId, name, context), name: String(name ?? ""), arguments: text, status: "completed" };
}

/** A call the source holds no arguments of: one without parameters, as the instrumentations that leave them out mean it; `detail` says whose way that is. */
function callWithoutArguments(callId: unknown, name: unknown, context: PartContext, detail: string): Record<string, unknown> {
  context.losses.push({ path: context.path, code: "synthesized", detail, ...(context.span ? { span: context.span } : {}) });
  return { type: "function_call", ...callIdOf(callId, name, context), name: String(name ?? ""), arguments: "{}", status: "completed" };
}

/** A Gemini call: one without args is one without parameters, as Gemini's own envelope reads it. */
function geminiCall(call: Record<string, unknown>, context: PartContext): Record<string, unknown> {
  if (call.args !== undefined) return callItem(call.id, call.name, call.args, context, "args");
  return callWithoutArguments(call.id, call.name, context, `the call of "${String(call.name)}" has no args, as Gemini writes a call without parameters: arguments "{}" written`);
}

/**
 * A call's id as the source wrote it. An id written as a JSON number is taken as
 * its digits when a double holds it exactly; a wider one was rounded before any
 * reader saw it, so it is no id, and the call is given one.
 */
function callIdOf(callId: unknown, name: unknown, context: PartContext): { call_id?: string } {
  if (typeof callId === "string") return callId === "" ? {} : { call_id: callId };
  if (typeof callId !== "number") return {};
  const span = context.span ? { span: context.span } : {};
  if (Number.isSafeInteger(callId)) {
    context.losses.push({ path: context.path, code: "form_changed", detail: `the id of the call of "${String(name)}" is written as the number ${callId}: read as the text "${callId}"`, ...span });
    return { call_id: String(callId) };
  }
  context.losses.push({ path: context.path, code: "inexact_number", detail: `the id of the call of "${String(name)}" is written as a number a double does not hold exactly (read as ${callId}): not read as its id`, ...span });
  return {};
}

export function outputItem(callId: unknown, output: unknown): Record<string, unknown> {
  return { type: "function_call_output", ...(typeof callId === "string" && callId !== "" ? { call_id: callId } : {}), output: typeof output === "string" ? output : JSON.stringify(output ?? null) };
}

function mediaPart(part: Record<string, unknown>, source: { data?: unknown; url?: unknown; fileId?: unknown }): Record<string, unknown> {
  const mime = typeof part.mime_type === "string" ? part.mime_type : typeof part.mimeType === "string" ? part.mimeType : undefined;
  const image = part.modality === "image" || (mime !== undefined && mime.startsWith("image/"));
  if (source.fileId !== undefined) return image ? { type: "input_image", file_id: source.fileId, image_url: null } : { type: "input_file", file_id: source.fileId };
  const url = source.url !== undefined ? String(source.url) : `data:${mime ?? "application/octet-stream"};base64,${String(source.data ?? "")}`;
  if (image) return { type: "input_image", image_url: url };
  return source.url !== undefined ? { type: "input_file", file_url: url } : { type: "input_file", file_data: url };
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
