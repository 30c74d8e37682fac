// A Bedrock Converse response as an Open Responses response object.
//
// | Converse response                   | response object                                           |
// |-------------------------------------|-----------------------------------------------------------|
// | (no id)                             | id `resp_` + 48 hex of sha256 of the response's JSON, keys sorted (a writer's key order |
// |                                     |   is not content): loss synthesized                       |
// | (no model: it is in the URL)        | model, as the caller gives it, else "": loss synthesized  |
// | output.message                      | output: messagesToItems of the message, each item an output item (a string |
// |                                     |   text -> one output_text part); server blocks stay `bedrock:` extension items |
// | (no item ids)                       | id: msg_/fc_/rs_ + 48 hex of sha256(response id, output index) |
// | stopReason                          | status, incomplete_details, item status:                  |
// |   end_turn, tool_use, stop_sequence |   completed, null, completed                              |
// |   max_tokens                        |   incomplete, {reason: "max_output_tokens"}; the last item incomplete, so |
// |                                     |   a call it cut is blocked by the gate                    |
// |   guardrail_intervened,             |   incomplete, {reason: "content_filter"}; every call incomplete |
// |     content_filtered                |                                                           |
// |   any other (malformed_tool_use,    |   incomplete, {reason: the stopReason}; every call incomplete |
// |     malformed_model_output…)        |                                                           |
// |   a stopReason the status does not  | also `bedrock:stopReason`                                 |
// |   give back                         |                                                           |
// | usage                               | usage: inputTokens + both cache counts -> input_tokens, cacheReadInputTokens -> |
// |                                     |   cached_tokens; and `bedrock:usage` as written           |
// | metrics, trace, any other key       | `bedrock:<key>`                                           |
// | (no creation time)                  | created_at 0: loss synthesized                            |
import { rankSuffix, type IdlessResponses } from "../../src/models/idless-responses.js";
import { completeResponse, RESPONSE_NEUTRALS } from "../../src/models/response-neutrals.js";
import { sha256Hex } from "../sha256-hex.js";
import type { Converted, Loss } from "../../src/models/loss.js";
import type { CanonicalItem, ResponseResource } from "../../src/models/open-responses.js";
import { isRecord, lossAt, PREFIX, typeOf, type Fields, type PointerTokens } from "./fields.js";
import { pointer } from "../../src/models/json-pointer.js";
import type { ResponsePathsOption } from "../../src/models/response-paths.js";
import { ownStopReason } from "../../src/models/own-stop-reason.js";
import { callStatusOf, messagesToItems, STOP_REASON_NAMES } from "./messages-to-items.js";
import type { BedrockResponse } from "./models.js";

export { RESPONSE_NEUTRALS };

/** Where a Converse response holds what each field of the response object it gives says: a loss at that field points there. */
export const RESPONSE_FIELD_PATHS: Readonly<Record<string, string>> = { output: "/output/message/content", status: "/stopReason", incomplete_details: "/stopReason", usage: "/usage" };

const ID_PREFIXES: Record<string, string> = { message: "msg", function_call: "fc", reasoning: "rs" };

/** The id an output item converted from a message gets: a pure function of where it came from. */
export function outputItemId(responseId: unknown, outputIndex: number, type: string): string | undefined {
  const prefix = ID_PREFIXES[type];
  if (prefix === undefined) return undefined;
  return `${prefix}_${sha256Hex(`${String(responseId)}\u0000${outputIndex}`).slice(0, 48)}`;
}

/** The status and incomplete reason a stopReason gives a response. */
export function responseStatusOf(stopReason: unknown): { status: "completed" | "incomplete" | "in_progress"; reason: string | null } {
  switch (stopReason) {
    case null:
    case undefined:
      return { status: "in_progress", reason: null };
    case "end_turn":
    case "tool_use":
    case "stop_sequence":
      return { status: "completed", reason: null };
    case "max_tokens":
      return { status: "incomplete", reason: "max_output_tokens" };
    case "guardrail_intervened":
    case "content_filtered":
      return { status: "incomplete", reason: "content_filter" };
    default:
      return { status: "incomplete", reason: String(stopReason) };
  }
}

/** The stopReasons Converse writes: another envelope's reason is never written as one. */
export const STOP_REASONS = new Set(["end_turn", "tool_use", "max_tokens", "stop_sequence", "guardrail_intervened", "content_filtered", "malformed_model_output", "malformed_tool_use", "model_context_window_exceeded"]);

/** The stopReason a response object gives back, when it does not keep Bedrock's own. */
export function derivedStopReason(status: unknown, reason: unknown, output: readonly unknown[]): string | null {
  if (status === "completed") return output.some((item) => isRecord(item) && item.type === "function_call") ? "tool_use" : "end_turn";
  if (status === "incomplete") {
    if (reason === "max_output_tokens" || !reason) return "max_tokens";
    if (reason === "content_filter") return "content_filtered";
    // Another envelope's reason (pause_turn, a Gemini finishReason) is no stopReason: max_tokens still leaves the turn unfinished.
    return typeof reason === "string" && STOP_REASONS.has(reason) ? reason : "max_tokens";
  }
  return null;
}

const MAPPED = ["output", "stopReason", "usage"];

export function converseToResponse(args: { response: BedrockResponse; model?: string; responses?: IdlessResponses } & ResponsePathsOption): Converted<ResponseResource> {
  const { response, model } = args;
  const message = isRecord(response) && isRecord(response.output) ? response.output.message : undefined;
  if (!isRecord(response) || !isRecord(message) || !Array.isArray(message.content)) {
    throw new TypeError("not a Bedrock Converse response: it has no output.message");
  }
  const rank = args.responses?.next();
  const id = responseIdOf(response, rank);
  const losses: Loss[] = [
    lossAt([], "synthesized", `a Converse response has no id: "${id}" written, from its content${rankSuffix(rank) === "" ? "" : ` and its rank (${rank}) among the journal's responses without one`}`),
    lossAt([], "synthesized", "a Converse response has no creation time: created_at 0 written"),
  ];
  if (model === undefined) losses.push(lossAt([], "synthesized", "a Converse response does not name its model (the request URL does): \"\" written"));
  const stopReason = typeof response.stopReason === "string" ? response.stopReason : null;
  const { status, reason } = responseStatusOf(stopReason);
  const callsStopReason = stopReasonOfCalls(response as Fields, message, losses);
  const origins: PointerTokens[] = [];
  const converted = messagesToItems({ messages: [{ role: "assistant", content: message.content } as never], model, stopReason: callsStopReason, origins });
  const inResponse = (path: string) => path.replace(/^\/messages\/0(?=\/|$)/, "/output/message");
  losses.push(...converted.losses.map((loss) => ({ ...loss, path: inResponse(loss.path) })));
  const items = converted.value;
  const output = items.map((item, index) => outputItem(item, index, items.length, id, callsStopReason));
  output.forEach((item, index) => {
    if (item.id === (items[index] as Fields).id) return;
    const detail = `a Converse block has no item id: ${String(item.id)} derived from the response id and the item's place`;
    const from = origins[index];
    if (!args.sourcePaths) losses.push(lossAt(["output", index, "id"], "synthesized", detail));
    else losses.push({ path: from ? inResponse(pointer(...from)) : "/output/message/content", code: "synthesized", detail: `${detail} (item ${index} of the response)` });
  });
  const completed = completeResponse(
    {
      id,
      object: "response",
      created_at: 0,
      status,
      incomplete_details: reason === null ? null : { reason },
      model: model ?? "",
      output,
      usage: responseUsage(response.usage, losses),
    },
    "Converse response",
  );
  losses.push(...completed.losses);
  const result: Fields = completed.value;
  if (stopReason !== derivedStopReason(status, reason, output)) result[PREFIX + "stopReason"] = stopReason;
  for (const key of Object.keys(response)) {
    if (!MAPPED.includes(key) && (response as Fields)[key] !== undefined) result[PREFIX + key] = (response as Fields)[key];
  }
  for (const key of Object.keys(message)) {
    if (key !== "role" && key !== "content") losses.push(lossAt(["output", "message", key], "provider_extension", `"${key}" is not a field of a Bedrock message; Open Responses has no place for it`));
  }
  if (response.usage !== undefined) result[PREFIX + "usage"] = response.usage;
  return { value: result as ResponseResource, losses };
}

/**
 * The stop reason a response's calls take: its stopReason, unless the record
 * says it again otherwise (as stop_reason beside it, or on its message). A
 * reader of either ends the turn its own way, so the calls are what a reason no
 * adapter knows leaves them, incomplete; the response keeps its stopReason.
 */
function stopReasonOfCalls(response: Fields, message: Fields, losses: Loss[]): string | null {
  const own = ownStopReason(message, STOP_REASON_NAMES, ownStopReason(response, STOP_REASON_NAMES, undefined)) ?? null;
  if (typeof response.stopReason === "string" && own !== response.stopReason) {
    losses.push(lossAt(["stopReason"], "form_changed", `stopReason ${JSON.stringify(response.stopReason)} is given again otherwise (as stop_reason, or on the message): a reader of either sees its own, so the calls are incomplete`));
  }
  return own;
}

function outputItem(item: CanonicalItem, index: number, count: number, responseId: string, stopReason: string | null): Fields {
  const fields = item as Fields;
  const id = outputItemId(responseId, index, String(fields.type));
  if (id === undefined) return fields;
  const status = callStatusOf(stopReason, index === count - 1);
  const { type, ...rest } = fields;
  switch (type) {
    case "message": {
      const content = typeof rest.content === "string" ? [{ type: "output_text", text: rest.content, annotations: [] }] : rest.content;
      return { id, type, status, role: rest.role, content };
    }
    case "function_call":
      return { id, type, ...rest, status };
    default:
      return { id, type, ...rest };
  }
}

function responseUsage(usage: unknown, losses: Loss[]): Fields | null | undefined {
  if (usage === undefined) return undefined;
  if (usage === null) return null;
  if (!isRecord(usage)) {
    losses.push(lossAt(["usage"], "form_changed", `usage is ${typeOf(usage)}: written as null`));
    return null;
  }
  const count = (key: string) => (typeof usage[key] === "number" ? (usage[key] as number) : 0);
  const input = count("inputTokens") + count("cacheReadInputTokens") + count("cacheWriteInputTokens");
  return {
    input_tokens: input,
    output_tokens: count("outputTokens"),
    total_tokens: input + count("outputTokens"),
    input_tokens_details: { cached_tokens: count("cacheReadInputTokens") },
    output_tokens_details: { reasoning_tokens: 0 },
  };
}

/**
 * The id the way in gives a Converse response, which has none: a pure function
 * of its content, whatever its key order, and of its rank among the journal's
 * id-less responses (`IdlessResponses`), when it has one.
 */
export function responseIdOf(response: unknown, rank?: number): string {
  return `resp_${sha256Hex(sortedJson(response) + rankSuffix(rank)).slice(0, 48)}`;
}

/**
 * JSON text with every object's keys sorted, so that two writers' key orders give
 * one text. Written into one string as it goes: every id-less response is written
 * whole, and the arrays of parts a map and a join make were most of its cost.
 */
function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return arrayJson(value);
  if (isRecord(value)) return objectJson(value);
  return JSON.stringify(value) ?? "null";
}

function arrayJson(array: readonly unknown[]): string {
  let text = "[";
  for (let i = 0; i < array.length; i++) {
    if (i > 0) text += ",";
    // A hole is written as nothing, as a map and a join of the array write it.
    if (i in array) text += sortedJson(array[i]);
  }
  return text + "]";
}

function objectJson(object: Fields): string {
  const keys = Object.keys(object).sort();
  let text = "{";
  for (const key of keys) {
    const member = object[key];
    if (member === undefined) continue;
    if (text.length > 1) text += ",";
    text += JSON.stringify(key) + ":" + sortedJson(member);
  }
  return text + "}";
}
