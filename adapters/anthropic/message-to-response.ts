// An Anthropic response (`type: "message"`) as an Open Responses response object.
//
// | Anthropic response                  | response object                                           |
// |-------------------------------------|-----------------------------------------------------------|
// | id, model                           | id, model                                                 |
// | content                             | output: messagesToItems of the one assistant message, each item completed |
// |                                     |   as an output item (a string text -> one output_text part); server tool  |
// |                                     |   blocks stay `anthropic:` extension items, as they are   |
// | (no id)                             | id: msg_ + 24 hex of sha256(the message, and its rank among a journal's |
// |                                     |   messages without id after the first): synthesized       |
// | (no item ids)                       | id: msg_/fc_/rs_ + 48 hex of sha256(response id, output index): stable,   |
// |                                     |   never a placeholder, never a call_id; synthesized       |
// | tool_use input (an object)          | arguments, its JSON text: synthesized at the arguments    |
// | stop_reason                         | status, incomplete_details, item status:                  |
// |   end_turn, tool_use, stop_sequence |   completed, null, completed                              |
// |   refusal                           |   completed, null; a refusal part ends the output, its    |
// |                                     |   text stop_details.explanation (or ""); a call in the    |
// |                                     |   refused turn incomplete                                 |
// |   max_tokens                        |   incomplete, {reason: "max_output_tokens"}; the last item incomplete, so |
// |                                     |   a call it cut is blocked by the gate                    |
// |   model_context_window_exceeded     |   incomplete, {reason: the same}; the last item incomplete |
// |   pause_turn                        |   incomplete, {reason: "pause_turn"}: the server paused a long turn, which |
// |                                     |   goes on when the response is sent back as it is         |
// |   null (not finished)               |   in_progress, null, in_progress                          |
// |   a stop_reason the status does not | also `anthropic:stop_reason` (stop_sequence, or tool_use  |
// |   give back                         |   without a call)                                         |
// | usage                               | usage: input_tokens + both cache counts -> input_tokens,  |
// |                                     |   cache_read -> cached_tokens, thinking_tokens ->         |
// |                                     |   reasoning_tokens; and `anthropic:usage` as written      |
// | stop_sequence, stop_details,        | `anthropic:<key>`                                         |
// |   container, any other key          |                                                           |
// | (no creation time)                  | created_at 0: loss synthesized                            |
// Fields a message does not carry are set to the spec's neutral values
// (RESPONSE_NEUTRALS); the way back reports a field only when it differs.
import { sha256Hex } from "../sha256-hex.js";
import { rankSuffix, type IdlessResponses } from "../../src/models/idless-responses.js";
import { completeResponse, RESPONSE_NEUTRALS } from "../../src/models/response-neutrals.js";
import { pointer } from "../../src/models/json-pointer.js";
import type { Converted, Loss } from "../../src/models/loss.js";
import type { CanonicalItem, ResponseResource } from "../../src/models/open-responses.js";
import { isRecord, lossAt, PREFIX, typeOf, type Fields, type PointerTokens } from "./fields.js";
import type { ResponsePathsOption } from "../../src/models/response-paths.js";
import { ownStopReason } from "../../src/models/own-stop-reason.js";
import { callStatusOf, messagesToItems, STOP_REASON_NAMES, toolUseStatusOf } from "./messages-to-items.js";
import type { AnthropicResponse } from "./models.js";

export { RESPONSE_NEUTRALS };

/** Where a message holds what each field of the response object it gives says: a loss at that field points there. */
export const RESPONSE_FIELD_PATHS: Readonly<Record<string, string>> = { id: "/id", model: "/model", output: "/content", status: "/stop_reason", incomplete_details: "/stop_reason", usage: "/usage" };

const ID_PREFIXES: Record<string, string> = { message: "msg", function_call: "fc", reasoning: "rs" };

/** The id an output item converted from a message gets: a pure function of where it came from. */
export function outputItemId(responseId: unknown, outputIndex: number, type: string): string | undefined {
  const prefix = ID_PREFIXES[type];
  if (prefix === undefined) return undefined;
  return `${prefix}_${sha256Hex(`${String(responseId)}\u0000${outputIndex}`).slice(0, 48)}`;
}

/** The status and incomplete reason a stop_reason gives a response. */
export function responseStatusOf(stopReason: unknown): { status: "completed" | "incomplete" | "in_progress"; reason: string | null } {
  if (stopReason === null || stopReason === undefined) return { status: "in_progress", reason: null };
  switch (stopReason) {
    case "end_turn":
    case "tool_use":
    case "stop_sequence":
    case "refusal":
      return { status: "completed", reason: null };
    case "max_tokens":
      return { status: "incomplete", reason: "max_output_tokens" };
    default:
      return { status: "incomplete", reason: String(stopReason) };
  }
}

/** The stop_reasons Anthropic writes: another envelope's reason is never written as one. */
export const STOP_REASONS = new Set(["end_turn", "max_tokens", "stop_sequence", "tool_use", "pause_turn", "refusal", "model_context_window_exceeded"]);

/** The stop_reason a response object gives back, when it does not keep Anthropic's own. */
export function derivedStopReason(status: unknown, reason: unknown, output: readonly unknown[]): string | null {
  if (status === "completed") {
    const last = output[output.length - 1];
    const parts = isRecord(last) && last.type === "message" && Array.isArray(last.content) ? last.content : [];
    const lastPart = parts[parts.length - 1];
    if (isRecord(lastPart) && lastPart.type === "refusal") return "refusal";
    return output.some((item) => isRecord(item) && item.type === "function_call") ? "tool_use" : "end_turn";
  }
  if (status === "incomplete") {
    if (reason === "max_output_tokens" || reason === undefined || reason === null) return "max_tokens";
    // A filter that stopped the turn is what Anthropic's classifiers stopping it is called.
    if (reason === "content_filter") return "refusal";
    return typeof reason === "string" && STOP_REASONS.has(reason) ? reason : "max_tokens";
  }
  return null;
}

const MAPPED = ["id", "type", "role", "model", "content", "stop_reason", "usage"];

/** `responses`: the journal's responses without id counted so far (IdlessResponses), when the message is one of a journal's. */
export function messageToResponse(args: { message: AnthropicResponse; responses?: IdlessResponses } & ResponsePathsOption): Converted<ResponseResource> {
  const { message } = args;
  if (!isRecord(message) || message.type !== "message" || !Array.isArray(message.content)) {
    throw new TypeError("not an Anthropic response: it has no type \"message\" and content array");
  }
  const losses: Loss[] = [lossAt(["created_at"], "synthesized", "an Anthropic message has no creation time: created_at 0 written")];
  // The Messages API names every message it writes, and a response object needs an id: a record without one gets one
  // derived from its text, so that its items keep ids of their own and it is read, request limits and all.
  // Its rank among the journal's messages without id too: two answers alike word for word ("Done.") would share the id, and their items theirs.
  const named = typeof message.id === "string" && message.id !== "";
  const rank = named ? undefined : args.responses?.next();
  const responseId = named ? (message.id as string) : `msg_${sha256Hex(JSON.stringify(message) + rankSuffix(rank)).slice(0, 24)}`;
  if (!named) losses.push(lossAt(["id"], "synthesized", `an Anthropic message without an id: ${responseId} derived from its content${rankSuffix(rank) === "" ? "" : ` and its rank (${rank}) among the journal's messages without one`}`));
  const stopReason = message.stop_reason === undefined ? null : message.stop_reason;
  const { status, reason } = responseStatusOf(stopReason);
  const callsStopReason = stopReasonOfCalls(message as Fields, losses);
  const origins: PointerTokens[] = [];
  const converted = messagesToItems({
    messages: [{ role: "assistant", content: message.content }],
    model: typeof message.model === "string" ? message.model : undefined,
    stopReason: callsStopReason,
    origins,
  });
  losses.push(...converted.losses.map((loss) => ({ ...loss, path: loss.path.replace(/^\/messages\/0(?=\/|$)/, "") })));
  const items = converted.value;
  if (stopReason === "refusal") refuse(items, message);
  const output = items.map((item, index) => outputItem(item, index, items.length, responseId, callsStopReason));
  if (args.sourcePaths) placeInSource(losses, output, origins.map((at) => pointer(...at.slice(2))));
  else placeInOutput(losses, message.content, output);

  const completed = completeResponse(
    {
      id: responseId,
      object: "response",
      created_at: 0,
      status,
      incomplete_details: reason === null ? null : { reason },
      model: message.model,
      output,
      usage: responseUsage(message.usage, losses),
    },
    "Anthropic message",
  );
  losses.push(...completed.losses);
  const response: Fields = completed.value;
  if (stopReason !== derivedStopReason(status, reason, output)) response[PREFIX + "stop_reason"] = stopReason;
  for (const key of Object.keys(message)) {
    if (!MAPPED.includes(key) && (message as Fields)[key] !== undefined) response[PREFIX + key] = (message as Fields)[key];
  }
  if (message.usage !== undefined) response[PREFIX + "usage"] = message.usage;
  return { value: response as ResponseResource, losses };
}

/**
 * The stop reason a response's calls take: its stop_reason, unless the record
 * writes it again as stopReason with another value. A reader of either spelling
 * ends the turn its own way, so the calls are what a reason no adapter knows
 * leaves them, incomplete; the response keeps its stop_reason.
 */
function stopReasonOfCalls(message: Fields, losses: Loss[]): string | null {
  const own = ownStopReason(message, STOP_REASON_NAMES, undefined) ?? null;
  if (message.stop_reason !== undefined && message.stopReason !== undefined && message.stop_reason !== message.stopReason) losses.push(lossAt(["stopReason"], "form_changed", `stop_reason ${JSON.stringify(message.stop_reason)} is given again as stopReason ${JSON.stringify(message.stopReason)}: a reader of either spelling sees its own, so the calls are incomplete`));
  return own;
}

/**
 * What the response object writes that the message never held, at its path in
 * the output: each item's id, and each call's arguments, the text of its
 * tool_use input (the j-th tool_use block is the j-th function_call).
 */
function placeInOutput(losses: Loss[], content: readonly unknown[], output: readonly Fields[]): void {
  const calls = output.flatMap((item, index) => (item.type === "function_call" ? [index] : []));
  const callOfBlock = new Map<number, number>();
  content.forEach((block, index) => {
    if (isRecord(block) && block.type === "tool_use") callOfBlock.set(index, calls[callOfBlock.size] ?? -1);
  });
  losses.forEach((loss, at) => {
    const block = loss.code === "synthesized" ? /^\/content\/(\d+)\/input$/.exec(loss.path) : null;
    const call = block ? callOfBlock.get(Number(block[1])) : undefined;
    if (call !== undefined && call >= 0) losses[at] = { ...loss, path: pointer("output", call, "arguments") };
  });
  output.forEach((item, index) => {
    if (Object.hasOwn(ID_PREFIXES, String(item.type))) losses.push(lossAt(["output", index, "id"], "synthesized", `an Anthropic block has no item id: ${item.id} derived from the message id and the item's place`));
  });
}

/**
 * The same values reported at the message's block each item comes from, for a
 * caller that writes no response object: `sources[i]` is item i's block. An
 * item no block gave (the refusal a stop_reason makes) is reported at the content.
 */
function placeInSource(losses: Loss[], output: readonly Fields[], sources: readonly string[]): void {
  output.forEach((item, index) => {
    if (Object.hasOwn(ID_PREFIXES, String(item.type))) losses.push({ path: sources[index] ?? "/content", code: "synthesized", detail: `an Anthropic block has no item id: ${item.id} derived from the message id and the item's place (item ${index} of the response)` });
  });
}

/** A refusal ends the output as a refusal part, in the last message when the output ends with one. */
function refuse(items: CanonicalItem[], message: Fields): void {
  const details = message.stop_details;
  const refusal = { type: "refusal", refusal: isRecord(details) && typeof details.explanation === "string" ? details.explanation : "" };
  const last = items[items.length - 1] as Fields | undefined;
  if (last?.type === "message" && Array.isArray(last.content)) last.content = [...last.content, refusal];
  else if (last?.type === "message" && typeof last.content === "string") last.content = [{ type: "output_text", text: last.content, annotations: [] }, refusal];
  else items.push({ type: "message", role: "assistant", content: [refusal] } as CanonicalItem);
}

function outputItem(item: CanonicalItem, index: number, count: number, responseId: unknown, stopReason: string | null): Fields {
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
      return { id, type, ...rest, status: toolUseStatusOf(stopReason, index === count - 1) };
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
  const input = count("input_tokens") + count("cache_creation_input_tokens") + count("cache_read_input_tokens");
  const details = isRecord(usage.output_tokens_details) ? usage.output_tokens_details : {};
  return {
    input_tokens: input,
    output_tokens: count("output_tokens"),
    total_tokens: input + count("output_tokens"),
    input_tokens_details: { cached_tokens: count("cache_read_input_tokens") },
    output_tokens_details: { reasoning_tokens: typeof details.thinking_tokens === "number" ? details.thinking_tokens : 0 },
  };
}
