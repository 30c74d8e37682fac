// An Open Responses response object as a `chat.completion` with one choice.
//
// | response object                      | chat.completion                                      |
// |--------------------------------------|------------------------------------------------------|
// | id, model                            | id, model (none, as from a stream: a hash of the     |
// |                                      |   output, "": synthesized)                           |
// | created_at                           | created (none: 0, synthesized)                       |
// | output                               | choices[0].message: itemsToMessages of the output,   |
// |                                      |   its assistant messages merged into one (texts      |
// |                                      |   joined by a blank line: loss form_changed), text   |
// |                                      |   parts joined into one string, citations shifted    |
// |                                      |   to the merged text                                 |
// | refusal part of a merged message     | the message's refusal: loss form_changed             |
// | output item id, status               | dropped; a loss unless it is what the way in writes  |
// | reasoning                            | with `reasoningField`, that dialect's field of the   |
// |                                      |   message (reasoning-fields.ts); else a loss         |
// | output_text logprobs                 | choices[0].logprobs.content                          |
// | message phase                        | loss unsupported_field                               |
// | user/system/developer messages,      | loss unsupported_item (a completion holds the        |
// |   function_call_output in output     |   assistant's turn only)                             |
// | status completed                     | finish_reason tool_calls when a function_call is in  |
// |                                      |   the output, else stop                              |
// | status incomplete, reason            | finish_reason length (max_output_tokens) or          |
// |                                      |   content_filter; another reason: length, with a loss |
// | other status (failed, in_progress…)  | finish_reason null: loss                             |
// | status in_progress, output []        | choices []: a completion with no choice, as the way in reads it |
// | no assistant message in the output   | an empty one (content null): loss synthesized        |
// | service_tier                         | service_tier, unless the step before synthesized it  |
// | usage                                | usage; prompt/completion_tokens_details only where   |
// |                                      |   the response gives them                            |
// | fields a completion cannot hold      | loss unsupported_field; a neutral value              |
// |   (tools, temperature, reasoning…)   |   (RESPONSE_NEUTRALS) only when the response said it: |
// |                                      |   not when null or empty, nor when the way in wrote  |
// |                                      |   the response (its items carry the ids it makes),   |
// |                                      |   nor when the caller says the step before wrote it  |
// | other keys                           | loss provider_extension                              |
import { isDeepStrictEqual } from "node:util";
import type { ChatAssistantMessage, ChatCompletion, ChatFinishReason, ChatMessage } from "../../src/models/chat-completions.js";
import type { Converted, Loss } from "../../src/models/loss.js";
import { pointer } from "../../src/models/json-pointer.js";
import type { CanonicalItem, ResponseResource } from "../../src/models/open-responses.js";
import { createHash } from "node:crypto";
import { RESPONSE_NEUTRALS } from "../../src/models/response-neutrals.js";
import { outputItemId } from "./completion-to-response.js";
import { itemsToMessages } from "./items-to-messages.js";
import { REASONING_FIELDS, withReasoning, type ReasoningField } from "./reasoning-fields.js";
import { extraKeyLosses, inRecordOrder, isRecord } from "./params.js";

const MAPPED_KEYS = new Set(["id", "object", "created_at", "status", "incomplete_details", "model", "output", "usage", "service_tier", "text"]);
const SPEC_KEYS = new Set([...MAPPED_KEYS, ...Object.keys(RESPONSE_NEUTRALS)]);

export function responseToChatCompletion(args: {
  response: ResponseResource;
  reasoningField?: ReasoningField;
  /** Paths of the response's fields the step that made it wrote and reported synthesized (another envelope's record, converted): no one said them. */
  synthesized?: readonly string[];
}): Converted<ChatCompletion> {
  const { response, reasoningField } = args;
  const synthesized = new Set(args.synthesized ?? []);
  if (!isRecord(response) || response.object !== "response" || !Array.isArray(response.output)) {
    throw new TypeError("not an Open Responses response object");
  }
  const losses: Loss[] = [];
  const output: unknown[] = response.output;
  // An unfinished response with no output is a completion with no choice yet, as the way in reads one.
  const noChoice = output.length === 0 && response.status === "in_progress";
  const finishReason = noChoice ? null : finishReasonOf(response, output, losses);
  const itemStatus = finishReason === "length" || finishReason === "content_filter" ? "incomplete" : "completed";

  // Output items become input items for itemsToMessages; `origins` maps each
  // back to its place in `output`, so that losses point into the response.
  const items: CanonicalItem[] = [];
  const origins: number[] = [];
  const logprobs: unknown[] = [];
  // Whether every output item carries the id the way in gives it: then the way in wrote this response.
  let idsOfTheWayIn = output.length > 0;
  output.forEach((raw, index) => {
    const path = pointer("output", index);
    if (!isRecord(raw)) {
      losses.push({ path, code: "unsupported_item", detail: "output item is not an object" });
      return;
    }
    const expectedId = raw.type === "message" || raw.type === "function_call" || raw.type === "reasoning" || raw.type === "compaction"
      ? outputItemId({ responseId: response.id, choiceIndex: 0, outputIndex: index, type: raw.type })
      : undefined;
    if (expectedId === undefined || raw.id !== expectedId) idsOfTheWayIn = false;
    const item = inputItem(raw, path, expectedId, itemStatus, logprobs, losses);
    if (item === undefined) return;
    items.push(item);
    origins.push(index);
  });

  const converted = itemsToMessages({ items, reasoningField });
  for (const loss of converted.losses) {
    const match = /^\/(\d+)(.*)$/.exec(loss.path);
    const path = match ? pointer("output", origins[Number(match[1])] ?? Number(match[1])) + match[2] : "/output" + loss.path;
    losses.push({ ...loss, path });
  }
  const message = mergeAssistantMessages(converted.value, items, origins, losses);
  if (!noChoice && !converted.value.some((message) => message.role === "assistant")) {
    losses.push({ path: "/choices/0/message", code: "synthesized", detail: "a chat.completion's choice requires a message and the response's output has no assistant message: an empty one written" });
  }

  const completion: Record<string, unknown> = {
    id: given(response.id, "id", "string", () => `chatcmpl-${createHash("sha256").update(JSON.stringify(output)).digest("hex").slice(0, 32)}`, losses),
    object: "chat.completion",
    created: given(response.created_at, "created_at", "number", () => 0, losses),
    model: given(response.model, "model", "string", () => "", losses),
    choices: noChoice ? [] : [{ index: 0, message, logprobs: logprobs.length > 0 ? { content: logprobs, refusal: null } : null, finish_reason: finishReason }],
  };
  if (isRecord(response.usage)) completion.usage = chatUsage(response.usage, losses);
  else if (response.usage !== undefined && response.usage !== null) losses.push({ path: "/usage", code: "unsupported_field", detail: "usage is not an object" });
  // A service tier the step before wrote for want of one is no tier the completion had.
  if (response.service_tier !== undefined && !synthesized.has("/service_tier")) completion.service_tier = response.service_tier;

  // A neutral setting the way in wrote was reported synthesized then; one the response itself said is lost here.
  for (const key of Object.keys(RESPONSE_NEUTRALS) as Array<keyof typeof RESPONSE_NEUTRALS>) {
    const value = response[key];
    if (key === "text" || key === "service_tier" || value === undefined) continue;
    const neutral = isDeepStrictEqual(value, RESPONSE_NEUTRALS[key]);
    if (neutral && (idsOfTheWayIn || holdsNothing(value) || synthesized.has(pointer(key)))) continue;
    losses.push({ path: pointer(key), code: "unsupported_field", detail: neutral ? neutralDropped(key, value) : notNeutral(key, RESPONSE_NEUTRALS[key]) });
  }
  losses.push(...textLosses(response.text));
  losses.push(...extraKeyLosses(response, SPEC_KEYS, "", "Chat Completions"));
  return { value: completion as ChatCompletion, losses: inRecordOrder(losses, response) };
}

function finishReasonOf(response: ResponseResource, output: unknown[], losses: Loss[]): ChatFinishReason | null {
  switch (response.status) {
    case "completed":
      return output.some((item) => isRecord(item) && item.type === "function_call") ? "tool_calls" : "stop";
    case "incomplete": {
      const reason = response.incomplete_details?.reason;
      if (reason === "content_filter") return "content_filter";
      if (reason !== "max_output_tokens") {
        losses.push({ path: response.incomplete_details ? "/incomplete_details" : "/status", code: "form_changed", detail: `incomplete for reason ${JSON.stringify(reason ?? null)} written as finish_reason length` });
      }
      return "length";
    }
    default:
      losses.push({ path: "/status", code: "unsupported_field", detail: `status ${JSON.stringify(response.status)} has no finish_reason; null written` });
      return null;
  }
}

/** One output item as the input item itemsToMessages expects, or undefined when a completion cannot hold it. */
function inputItem(
  raw: Record<string, unknown>,
  path: string,
  expectedId: string | undefined,
  itemStatus: string,
  logprobs: unknown[],
  losses: Loss[],
): CanonicalItem | undefined {
  if (raw.type === "function_call_output" || (raw.type === "message" && raw.role !== "assistant")) {
    const what = raw.type === "message" ? `a ${String(raw.role)} message` : "a function_call_output";
    losses.push({ path, code: "unsupported_item", detail: `${what} has no place in a chat.completion, which holds the assistant's turn only` });
    return undefined;
  }
  if (raw.type === "reasoning" && raw.id !== undefined && raw.id === expectedId) {
    // The id the way in gave it: nothing a completion lacked.
    const { id: _id, ...reasoning } = raw;
    return reasoning as CanonicalItem;
  }
  if (raw.type !== "message" && raw.type !== "function_call") return raw as CanonicalItem;
  const { id, status, ...item } = raw;
  if (id !== undefined && id !== expectedId) {
    losses.push({ path: path + "/id", code: "unsupported_field", detail: "item ids have no place in a chat.completion" });
  }
  if (status !== undefined && status !== itemStatus) {
    losses.push({ path: path + "/status", code: "unsupported_field", detail: `item status ${JSON.stringify(status)} differs from the finish_reason's; it is not kept` });
  }
  if (raw.type === "function_call") return item as CanonicalItem;
  if (item.phase !== undefined) {
    losses.push({ path: path + "/phase", code: "unsupported_field", detail: "phase has no counterpart in Chat Completions" });
    delete item.phase;
  }
  if (Array.isArray(item.content)) {
    item.content = item.content.map((part: unknown, partIndex) => {
      if (!isRecord(part) || part.type !== "output_text") return part;
      const { logprobs: partLogprobs, annotations, ...rest } = part;
      if (Array.isArray(partLogprobs)) logprobs.push(...partLogprobs);
      else if (partLogprobs !== undefined) losses.push({ path: `${path}/content/${partIndex}/logprobs`, code: "unsupported_field", detail: "logprobs is not an array" });
      return Array.isArray(annotations) && annotations.length === 0 ? rest : { ...rest, annotations };
    });
    // A completion's text is one string: parts of plain text are joined here,
    // parts with annotations or refusals are left to itemsToMessages.
    const parts = item.content as Array<Record<string, unknown>>;
    if (parts.length > 0 && parts.every((part) => isRecord(part) && part.type === "output_text" && part.annotations === undefined && Object.keys(part).length === 2)) {
      if (parts.length > 1) losses.push({ path: path + "/content", code: "form_changed", detail: `${parts.length} output_text parts joined into one string` });
      item.content = parts.map((part) => part.text).join("");
    }
  }
  return item as CanonicalItem;
}

function mergeAssistantMessages(messages: readonly ChatMessage[], items: readonly CanonicalItem[], origins: readonly number[], losses: Loss[]): ChatAssistantMessage {
  const assistants: ChatAssistantMessage[] = [];
  for (const message of messages) {
    if (message.role === "assistant") assistants.push(message);
    else losses.push({ path: "/output", code: "unsupported_item", detail: `a ${message.role} message has no place in a chat.completion` });
  }
  if (assistants.length === 0) return { role: "assistant", content: null };
  const merged: ChatAssistantMessage = { ...assistants[0] };
  if (assistants.length > 1) {
    const messageIndexes = items.flatMap((item, index) => (item.type === "message" ? [origins[index]] : []));
    for (const index of messageIndexes.slice(1)) {
      losses.push({ path: pointer("output", index), code: "form_changed", detail: "merged into the first assistant message (a completion holds one); texts joined by a blank line" });
    }
    // The merged content is one string, which holds no refusal part: a refusal
    // part joins the message's own refusal, where Chat keeps refusals.
    items.forEach((item, index) => {
      if (item.type !== "message" || !Array.isArray(item.content)) return;
      item.content.forEach((part, at) => {
        if (isRecord(part) && part.type === "refusal") {
          losses.push({ path: pointer("output", origins[index], "content", at), code: "form_changed", detail: "a refusal part of a merged message moved to the message's refusal" });
        }
      });
    });
    merged.content = textOf(merged.content);
    merged.refusal = joinText(merged.refusal ?? null, refusalOf(assistants[0].content)) ?? merged.refusal;
  }
  for (const next of assistants.slice(1)) {
    const reasoning = Object.fromEntries(REASONING_FIELDS.filter((field) => field in next).map((field) => [field, (next as Record<string, unknown>)[field]]));
    if (Object.keys(reasoning).length > 0) withReasoning(merged as unknown as Record<string, unknown>, reasoning, ["output"], losses);
    // Citations index into the message's text: the next message's text starts after
    // the text merged so far and the blank line between them.
    const offset = typeof merged.content === "string" && merged.content !== "" ? merged.content.length + 2 : 0;
    merged.content = joinText(textOf(merged.content), textOf(next.content));
    merged.refusal = joinText(joinText(merged.refusal ?? null, next.refusal ?? null), refusalOf(next.content)) ?? merged.refusal;
    if (next.tool_calls) merged.tool_calls = [...(merged.tool_calls ?? []), ...next.tool_calls];
    if (next.annotations) {
      const shifted = next.annotations.map((annotation) => ({
        ...annotation,
        url_citation: { ...annotation.url_citation, start_index: annotation.url_citation.start_index + offset, end_index: annotation.url_citation.end_index + offset },
      }));
      merged.annotations = [...(merged.annotations ?? []), ...shifted];
    }
  }
  // Text parts become the string a completion writes; no parts at all stay no parts, which "" would not say.
  if (Array.isArray(merged.content) && merged.content.length > 0 && merged.content.every((part) => part.type === "text")) {
    // Texts of several parts (of one message, or of messages the turn folded together) run on with nothing between them.
    if (merged.content.length > 1) losses.push({ path: "/output", code: "form_changed", detail: `the assistant message's ${merged.content.length} text parts joined into one string, with nothing between them: a completion's content is a string` });
    merged.content = textOf(merged.content);
  }
  if (merged.refusal === undefined) delete merged.refusal;
  return merged;
}

function textOf(content: ChatAssistantMessage["content"]): string | null {
  if (content === undefined || content === null) return null;
  if (typeof content === "string") return content;
  return content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

/** The refusal parts of a content array, joined as one refusal. */
function refusalOf(content: ChatAssistantMessage["content"]): string | null {
  if (!Array.isArray(content)) return null;
  const refusals = content.flatMap((part) => (part.type === "refusal" ? [part.refusal] : []));
  return refusals.length === 0 ? null : refusals.join("\n\n");
}

function joinText(first: string | null, second: string | null): string | null {
  if (first === null || first === "") return second ?? first;
  if (second === null || second === "") return first;
  return `${first}\n\n${second}`;
}

/**
 * A field a chat.completion requires, from the response; a response that lacks
 * it (one rebuilt from a stream that never said it) gets `made()`, reported
 * `synthesized` at its path in the completion.
 */
function given(value: unknown, field: "id" | "created_at" | "model", type: "string" | "number", made: () => string | number, losses: Loss[]): unknown {
  if (typeof value === type) return value;
  const written = made();
  const path = field === "created_at" ? "/created" : `/${field}`;
  losses.push({ path, code: "synthesized", detail: `a chat.completion requires ${path.slice(1)} and the response has no ${field}${value === undefined ? "" : ` of type ${type}`}: ${JSON.stringify(written)} written` });
  return written;
}

function chatUsage(usage: NonNullable<ResponseResource["usage"]>, losses: Loss[]): Record<string, unknown> {
  const known = new Set(["input_tokens", "output_tokens", "total_tokens", "input_tokens_details", "output_tokens_details"]);
  losses.push(...extraKeyLosses(usage, known, "/usage", "Chat Completions"));
  losses.push(...extraKeyLosses(usage.input_tokens_details ?? {}, new Set(["cached_tokens"]), "/usage/input_tokens_details", "Chat Completions"));
  losses.push(...extraKeyLosses(usage.output_tokens_details ?? {}, new Set(["reasoning_tokens"]), "/usage/output_tokens_details", "Chat Completions"));
  // Details the usage does not give are left out, not written as zeros it never said.
  const chat: Record<string, unknown> = { prompt_tokens: usage.input_tokens, completion_tokens: usage.output_tokens, total_tokens: usage.total_tokens };
  const cached = usage.input_tokens_details?.cached_tokens;
  const reasoning = usage.output_tokens_details?.reasoning_tokens;
  if (cached !== undefined) chat.prompt_tokens_details = { cached_tokens: cached };
  if (reasoning !== undefined) chat.completion_tokens_details = { reasoning_tokens: reasoning };
  return chat;
}

function neutralDropped(field: string, value: unknown): string {
  return `a chat.completion has no ${field}: the response's ${JSON.stringify(value)} (the neutral value) is not written`;
}

/** null, [] and {}: nothing said, and nothing to lose. */
function holdsNothing(value: unknown): boolean {
  return value === null || (typeof value === "object" && Object.keys(value).length === 0);
}

function notNeutral(field: string, neutral: unknown): string {
  return `a chat.completion has no ${field} (a value other than ${JSON.stringify(neutral)} is lost)`;
}

function textLosses(text: unknown): Loss[] {
  if (text === undefined) return [];
  if (!isRecord(text)) return [{ path: "/text", code: "unsupported_field", detail: "text has no place in a chat.completion" }];
  const losses: Loss[] = [];
  if (text.format !== undefined && !isDeepStrictEqual(text.format, RESPONSE_NEUTRALS.text.format)) {
    losses.push({ path: "/text/format", code: "unsupported_field", detail: notNeutral("text.format", RESPONSE_NEUTRALS.text.format) });
  }
  for (const key of Object.keys(text)) {
    if (key !== "format") losses.push({ path: pointer("text", key), code: "unsupported_field", detail: `text.${key} has no place in a chat.completion` });
  }
  return losses;
}
