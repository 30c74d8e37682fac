// A `chat.completion` as an Open Responses response object (`ResponseResource`).
//
// | chat.completion                     | response object                                       |
// |-------------------------------------|-------------------------------------------------------|
// | id                                  | id (the response's own id; never an item's)           |
// | created                             | created_at                                            |
// | model                               | model                                                 |
// | choices[0].message                  | output: messagesToItems, then each item completed as  |
// |                                     |   an output item: string content → one output_text    |
// |                                     |   part, annotations [] and logprobs [] where missing  |
// | (no item ids in Chat)               | id: msg_/fc_/rs_/cmp_ + 48 hex of sha256(completion   |
// |                                     |   id, choice index, output index): stable and unique, |
// |                                     |   never a placeholder, never the call_id              |
// | choices[0].finish_reason            | status, incomplete_details, item status:              |
// |   stop, tool_calls, function_call   |   completed, null, completed                          |
// |   length                            |   incomplete, {reason:"max_output_tokens"}, incomplete |
// |   content_filter                    |   incomplete, {reason:"content_filter"}, incomplete   |
// |   another reason (the choice was cut) |   incomplete, null, incomplete                      |
// |   null or none (it never finished)  |   in_progress, null, in_progress                      |
// | choices[0].logprobs.content         | logprobs of the first output_text part                |
// | choices[1..]                        | loss unsupported_item (a response has one output)     |
// | usage prompt/completion/total_tokens| usage input/output/total_tokens                       |
// | usage *_details cached/reasoning    | input/output_tokens_details (absent: 0)               |
// | service_tier                        | service_tier (absent: "default"; null: a loss)        |
// | system_fingerprint                  | loss unsupported_field                                |
// | other keys                          | loss provider_extension                               |
// Fields a completion does not carry are set to the spec's neutral values (see
// RESPONSE_NEUTRALS: null, 0, 1, [], {}, "auto", "disabled", false); the way back
// reports a field as lost only when it differs from these.
import { createHash } from "node:crypto";
import type { ChatCompletion } from "../../src/models/chat-completions.js";
import type { Converted, Loss } from "../../src/models/loss.js";
import { pointer } from "../../src/models/json-pointer.js";
import type { CanonicalItem, ItemField, ItemParam, ResponseResource } from "../../src/models/open-responses.js";
import { callStatusOf, messagesToItems } from "./messages-to-items.js";
import { extraKeyLosses, inRecordOrder, isRecord } from "./params.js";

/** What a completion cannot tell: the value each such response field gets. */
export const RESPONSE_NEUTRALS = {
  completed_at: null,
  previous_response_id: null,
  instructions: null,
  error: null,
  tools: [],
  tool_choice: "auto",
  truncation: "disabled",
  parallel_tool_calls: true,
  text: { format: { type: "text" } },
  top_p: 1,
  presence_penalty: 0,
  frequency_penalty: 0,
  top_logprobs: 0,
  temperature: 1,
  reasoning: null,
  max_output_tokens: null,
  max_tool_calls: null,
  store: false,
  background: false,
  metadata: {},
  safety_identifier: null,
  prompt_cache_key: null,
} as const;

const ID_PREFIXES = { message: "msg", function_call: "fc", reasoning: "rs", compaction: "cmp" } as const;

/** The id an output item converted from a completion gets: a pure function of where it came from. */
export function outputItemId(args: { responseId: string; choiceIndex: number; outputIndex: number; type: keyof typeof ID_PREFIXES }): string {
  const digest = createHash("sha256").update(`${args.responseId}\u0000${args.choiceIndex}\u0000${args.outputIndex}`).digest("hex");
  return `${ID_PREFIXES[args.type]}_${digest.slice(0, 48)}`;
}

const COMPLETION_KEYS = new Set(["id", "object", "created", "model", "choices", "usage", "service_tier", "system_fingerprint"]);
const CHOICE_KEYS = new Set(["index", "message", "finish_reason", "logprobs"]);
const OPENAI_TOKEN_DETAILS = new Set(["audio_tokens", "accepted_prediction_tokens", "rejected_prediction_tokens"]);

export function chatCompletionToResponse(args: { completion: ChatCompletion }): Converted<ResponseResource> {
  const { completion } = args;
  if (!isRecord(completion) || completion.object !== "chat.completion" || !Array.isArray(completion.choices)) {
    throw new TypeError("not a chat.completion");
  }
  const losses: Loss[] = [];
  if (completion.system_fingerprint !== undefined) {
    losses.push({ path: "/system_fingerprint", code: "unsupported_field", detail: "system_fingerprint has no counterpart in a response object" });
  }
  losses.push(...extraKeyLosses(completion, COMPLETION_KEYS, "", "Open Responses"));
  completion.choices.slice(1).forEach((_, offset) => {
    losses.push({ path: pointer("choices", offset + 1), code: "unsupported_item", detail: `choice ${offset + 1} dropped: a response holds one output` });
  });

  const choice = completion.choices[0];
  let status: "completed" | "incomplete" | "in_progress" = "completed";
  let incompleteDetails: { reason: string } | null = null;
  let output: OutputItem[] = [];
  if (choice !== undefined) {
    const base = "/choices/0";
    losses.push(...extraKeyLosses(choice, CHOICE_KEYS, base, "Open Responses"));
    // A choice with no finish_reason never said it finished, as a stream without one.
    const finishReason = choice.finish_reason ?? null;
    status = callStatusOf(finishReason);
    if (finishReason === "length" || finishReason === "content_filter") {
      incompleteDetails = { reason: finishReason === "length" ? "max_output_tokens" : "content_filter" };
    }
    const converted = messagesToItems({ messages: [choice.message], finishReason });
    losses.push(...converted.losses.map((loss: Loss) => ({ ...loss, path: loss.path.replace(/^\/0(?=\/|$)/, base + "/message") })));
    const logprobs = choiceLogprobs(choice.logprobs, base, losses);
    output = outputItems(converted.value, status, logprobs, base, losses);
    output.forEach((item, outputIndex) => {
      item.id = outputItemId({ responseId: completion.id, choiceIndex: 0, outputIndex, type: item.type });
    });
    // The way back derives the finish_reason from the status and the calls in
    // the output; a finish_reason it would not give again is reported here.
    const comesBack =
      status === "in_progress" ? null
      : status === "incomplete" ? (finishReason === "content_filter" ? "content_filter" : "length")
      : output.some((item) => item.type === "function_call") ? "tool_calls" : "stop";
    if (finishReason !== comesBack) {
      losses.push({ path: base + "/finish_reason", code: "form_changed", detail: `finish_reason ${JSON.stringify(finishReason)} written as status ${status}; it comes back as ${JSON.stringify(comesBack)}` });
    }
  }

  const response: ResponseResource = {
    id: completion.id,
    object: "response",
    created_at: completion.created,
    completed_at: RESPONSE_NEUTRALS.completed_at,
    status,
    incomplete_details: incompleteDetails,
    model: completion.model,
    previous_response_id: RESPONSE_NEUTRALS.previous_response_id,
    instructions: RESPONSE_NEUTRALS.instructions,
    output,
    error: RESPONSE_NEUTRALS.error,
    tools: [],
    tool_choice: RESPONSE_NEUTRALS.tool_choice,
    truncation: RESPONSE_NEUTRALS.truncation,
    parallel_tool_calls: RESPONSE_NEUTRALS.parallel_tool_calls,
    text: { format: { type: "text" } },
    top_p: RESPONSE_NEUTRALS.top_p,
    presence_penalty: RESPONSE_NEUTRALS.presence_penalty,
    frequency_penalty: RESPONSE_NEUTRALS.frequency_penalty,
    top_logprobs: RESPONSE_NEUTRALS.top_logprobs,
    temperature: RESPONSE_NEUTRALS.temperature,
    reasoning: RESPONSE_NEUTRALS.reasoning,
    usage: responseUsage(completion, losses),
    max_output_tokens: RESPONSE_NEUTRALS.max_output_tokens,
    max_tool_calls: RESPONSE_NEUTRALS.max_tool_calls,
    store: RESPONSE_NEUTRALS.store,
    background: RESPONSE_NEUTRALS.background,
    service_tier: serviceTier(completion, losses),
    metadata: {},
    safety_identifier: RESPONSE_NEUTRALS.safety_identifier,
    prompt_cache_key: RESPONSE_NEUTRALS.prompt_cache_key,
  };
  return { value: response, losses: inRecordOrder(losses, completion) };
}

type OutputItem = Extract<ItemField, { type: keyof typeof ID_PREFIXES }>;
type OutputTextPart = { type: "output_text"; annotations: unknown[]; logprobs: unknown[]; text: string; [key: string]: unknown };

function outputItems(items: readonly CanonicalItem[], itemStatus: "completed" | "incomplete" | "in_progress", logprobs: unknown[], base: string, losses: Loss[]): OutputItem[] {
  const output: OutputItem[] = [];
  let logprobsPlaced = false;
  const textPart = (text: string, extra: Record<string, unknown> = {}): OutputTextPart => {
    const part: OutputTextPart = { type: "output_text", annotations: [], logprobs: logprobsPlaced ? [] : logprobs, text, ...extra };
    logprobsPlaced = true;
    return part;
  };
  for (const canonical of items) {
    if (!isPortable(canonical)) {
      losses.push({ path: base + "/message", code: "unsupported_item", detail: `item of type ${JSON.stringify(canonical.type)} has no place in a response's output` });
      continue;
    }
    const item: ItemParam = canonical;
    switch (item.type) {
      case "message": {
        if (item.role !== "assistant") {
          losses.push({ path: base + "/message", code: "unsupported_item", detail: `a ${item.role} message has no place in a response's output` });
          break;
        }
        const { id: _id, type: _type, status: _status, role, content, ...rest } = item;
        const parts =
          typeof content === "string"
            ? [textPart(content)]
            : content.map((part) => (part.type === "output_text" ? textPart(part.text, { ...part, annotations: part.annotations ?? [] }) : part));
        output.push({ id: "", type: "message", status: itemStatus, content: parts, role, ...rest } as OutputItem);
        break;
      }
      case "function_call": {
        const { id: _id, type: _type, status, arguments: args, call_id: callId, name, ...rest } = item;
        output.push({ id: "", type: "function_call", status: status ?? itemStatus, arguments: args, call_id: callId, name, ...rest } as OutputItem);
        break;
      }
      case "reasoning": {
        const { id: _id, type: _type, content: _content, ...rest } = item;
        output.push({ id: "", type: "reasoning", ...rest } as OutputItem);
        break;
      }
      case "compaction": {
        const { id: _id, type: _type, ...rest } = item;
        output.push({ id: "", type: "compaction", ...rest } as OutputItem);
        break;
      }
      case "function_call_output":
      case "item_reference":
      case null:
      case undefined:
        losses.push({ path: base + "/message", code: "unsupported_item", detail: `item of type ${JSON.stringify(item.type ?? "item_reference")} has no place in a response's output` });
        break;
      default: {
        const unknown: never = item;
        losses.push({ path: base + "/message", code: "unsupported_item", detail: `item ${JSON.stringify(unknown)} has no place in a response's output` });
      }
    }
  }
  if (!logprobsPlaced && logprobs.length > 0) {
    losses.push({ path: base + "/logprobs/content", code: "unsupported_field", detail: "logprobs of a message without text have no place in a response" });
  }
  return output;
}

function isPortable(item: CanonicalItem): item is ItemParam {
  return item.type === undefined || item.type === null || !String(item.type).includes(":");
}

function choiceLogprobs(logprobs: unknown, base: string, losses: Loss[]): unknown[] {
  if (logprobs === undefined || logprobs === null) return [];
  if (!isRecord(logprobs)) {
    losses.push({ path: base + "/logprobs", code: "unsupported_field", detail: "logprobs is not an object" });
    return [];
  }
  if (logprobs.refusal !== undefined && logprobs.refusal !== null) {
    losses.push({ path: base + "/logprobs/refusal", code: "unsupported_field", detail: "refusal logprobs have no counterpart in a response" });
  }
  losses.push(...extraKeyLosses(logprobs, new Set(["content", "refusal"]), base + "/logprobs", "Open Responses"));
  return Array.isArray(logprobs.content) ? logprobs.content : [];
}

function responseUsage(completion: ChatCompletion, losses: Loss[]): ResponseResource["usage"] {
  const usage: unknown = completion.usage;
  if (usage === undefined) return null;
  if (!isRecord(usage)) {
    losses.push({ path: "/usage", code: "form_changed", detail: "usage that is not an object written as null" });
    return null;
  }
  const detail = (key: "prompt_tokens_details" | "completion_tokens_details", field: string): number => {
    const details = usage[key];
    const path = pointer("usage", key);
    if (details === undefined || details === null) return 0;
    if (!isRecord(details)) {
      losses.push({ path, code: "unsupported_field", detail: `${key} is not an object` });
      return 0;
    }
    for (const other of Object.keys(details)) {
      if (other === field) continue;
      if (OPENAI_TOKEN_DETAILS.has(other)) {
        losses.push({ path: pointer("usage", key, other), code: "unsupported_field", detail: `${other} has no counterpart in a response's usage` });
      } else {
        losses.push(...extraKeyLosses({ [other]: details[other] }, new Set(), pointer("usage", key), "Open Responses"));
      }
    }
    return typeof details[field] === "number" ? details[field] : 0;
  };
  const converted = {
    input_tokens: usage.prompt_tokens as number,
    input_tokens_details: { cached_tokens: detail("prompt_tokens_details", "cached_tokens") },
    output_tokens: usage.completion_tokens as number,
    output_tokens_details: { reasoning_tokens: detail("completion_tokens_details", "reasoning_tokens") },
    total_tokens: usage.total_tokens as number,
  };
  losses.push(
    ...extraKeyLosses(usage, new Set(["prompt_tokens", "completion_tokens", "total_tokens", "prompt_tokens_details", "completion_tokens_details"]), "/usage", "Open Responses"),
  );
  return converted;
}

function serviceTier(completion: ChatCompletion, losses: Loss[]): string {
  const tier: unknown = completion.service_tier;
  if (typeof tier === "string") return tier;
  if (tier !== undefined) losses.push({ path: "/service_tier", code: "form_changed", detail: `service_tier ${JSON.stringify(tier)} written as "default"` });
  return "default";
}
