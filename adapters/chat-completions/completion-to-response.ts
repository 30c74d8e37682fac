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
// | choices [] (no choice)              | output [], in_progress: loss form_changed             |
// | choices[0].logprobs.content         | logprobs of the first output_text part                |
// | choices[1..]                        | loss unsupported_item (a response has one output)     |
// | usage prompt/completion/total_tokens| usage input/output/total_tokens                       |
// | usage *_details cached/reasoning    | input/output_tokens_details (absent: 0, synthesized)  |
// | service_tier                        | service_tier (absent: synthesized; null: a loss)      |
// | system_fingerprint                  | loss unsupported_field                                |
// | tools, tool_choice,                 | the same (tools.ts): a stored completion's record of  |
// |   parallel_tool_calls               |   its request, which the gate holds its calls to      |
// | other keys                          | loss provider_extension                               |
// Fields the spec requires and a completion does not carry (usage when it has
// none, tools, temperature, store…) are set to the spec's neutral values and
// each is reported `synthesized` at its path (completeResponse); the way back
// reports a field as lost only when it differs from these.
//
// `completionToItems` gives a completion as a journal's items, choice by choice,
// the same for a stored completion and for the one its chunks rebuild (see
// stream.ts). What no item holds is `left_behind`, at its path, as normalize
// reports every record field it does not write (null, [] and {} hold nothing):
//
// | completion                          | items and losses                                      |
// |-------------------------------------|-------------------------------------------------------|
// | every field but object and choices  | left_behind (id, model, usage, x_groq…)               |
// | choice message                      | messagesToItems, calls given the finish_reason's status |
// | finish_reason stop / tool_calls /   | status completed; left_behind when no call carries it |
// |   function_call                     |                                                       |
// | finish_reason length, content_filter, | every item of the choice gets the status (incomplete, |
// |   another reason, null or none      |   in_progress); a reason given is a form_changed loss |
// | other choice fields (logprobs,      | left_behind                                           |
// |   content_filter_results,           |                                                       |
// |   native_finish_reason…)            |                                                       |
// | a `tool_calls` or `function_call`   | unsupported_tool_call: a call no message holds gives  |
// |   beside the choices or the message |   no item, and the gate blocks its line               |
// | a choice after the first            | its items are a response of their own; a form_changed |
// |                                     |   loss says so: one answer continues the conversation |
import { sha256Hex } from "../sha256-hex.js";
import type { ChatCompletion, ChatFinishReason, ChatMessage, ChatTool, ChatToolChoice } from "../../src/models/chat-completions.js";
import type { Converted, Loss } from "../../src/models/loss.js";
import { pointer, pointerToken, prefixLosses } from "../../src/models/json-pointer.js";
import type { CanonicalItem, ItemField, ItemParam, ResponseResource } from "../../src/models/open-responses.js";
import type { ItemStatus } from "../../src/models/open-responses.js";
import { callStatusOf, forkCallCounts, messagesToItems, type CallCounts } from "./messages-to-items.js";
import { completeResponse } from "../../src/models/response-neutrals.js";
import { extraKeyLosses, inRecordOrder, isRecord } from "./params.js";
import { chatToolChoiceToResponses, chatToolsToResponses } from "./tools.js";

/** Where a chat.completion holds what each field of the response object it gives says: a loss at that field points there. */
export const RESPONSE_FIELD_PATHS: Readonly<Record<string, string>> = {
  id: "/id",
  created_at: "/created",
  model: "/model",
  output: "/choices",
  status: "/choices",
  incomplete_details: "/choices",
  usage: "/usage",
  service_tier: "/service_tier",
  tools: "/tools",
  tool_choice: "/tool_choice",
  parallel_tool_calls: "/parallel_tool_calls",
};

const ID_PREFIXES = { message: "msg", function_call: "fc", reasoning: "rs", compaction: "cmp" } as const;

/** The id an output item converted from a completion gets: a pure function of where it came from. */
export function outputItemId(args: { responseId: string; choiceIndex: number; outputIndex: number; type: keyof typeof ID_PREFIXES }): string {
  const digest = sha256Hex(`${args.responseId}\u0000${args.choiceIndex}\u0000${args.outputIndex}`);
  return `${ID_PREFIXES[args.type]}_${digest.slice(0, 48)}`;
}

const COMPLETION_KEYS = new Set(["id", "object", "created", "model", "choices", "usage", "service_tier", "system_fingerprint", "tools", "tool_choice", "parallel_tool_calls"]);
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
  // No choice, no finish_reason: the completion never said it finished, as a choice without one.
  let status: "completed" | "incomplete" | "in_progress" = choice === undefined ? "in_progress" : "completed";
  if (choice === undefined) losses.push({ path: "/choices", code: "form_changed", detail: "a chat.completion with no choice says no finish_reason: output [] and status in_progress written" });
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
      losses.push({ path: pointer("output", outputIndex, "id"), code: "synthesized", detail: `a chat.completion has no item ids: ${item.id} derived from the completion's id and the item's place` });
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

  const completed = completeResponse(
    {
      id: completion.id,
      object: "response",
      created_at: completion.created,
      status,
      incomplete_details: incompleteDetails,
      model: completion.model,
      output,
      usage: responseUsage(completion, losses),
      service_tier: serviceTier(completion, losses),
      ...requestRecord(completion, losses),
    },
    "chat.completion",
  );
  const response = completed.value;
  losses.push(...completed.losses);
  return { value: response, losses: inRecordOrder(losses, completion) };
}

/**
 * A stored completion's own record of its request (`tool_choice`, `tools`,
 * `parallel_tool_calls`, as the response object's): the gate holds its calls to
 * it, so it goes where a response object keeps it rather than a neutral value.
 * A value that does not convert stays out, as any field the response has no
 * place for, and is reported.
 */
function requestRecord(completion: Record<string, unknown>, losses: Loss[]): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  const { tools, tool_choice: toolChoice, parallel_tool_calls: parallel } = completion;
  // What cannot be read allows no call, as the gate reads it: the response says so with tool_choice "none".
  let unread: string | undefined;
  if (Array.isArray(tools) && tools.every(isRecord)) {
    const converted = chatToolsToResponses({ tools: tools as ChatTool[] });
    losses.push(...prefixLosses("/tools", converted.losses));
    record.tools = converted.value;
  } else if (tools !== undefined && tools !== null) unread = "/tools";
  if (typeof toolChoice === "string" || isRecord(toolChoice)) {
    const converted = chatToolChoiceToResponses({ toolChoice: toolChoice as ChatToolChoice });
    losses.push(...prefixLosses("/tool_choice", converted.losses));
    if (converted.value !== undefined) record.tool_choice = converted.value;
    else unread ??= "/tool_choice";
  } else if (toolChoice !== undefined && toolChoice !== null) unread ??= "/tool_choice";
  if (unread !== undefined) {
    record.tool_choice = "none";
    losses.push({ path: unread, code: "form_changed", detail: `${unread.slice(1)} that cannot be read (${JSON.stringify(completion[unread.slice(1)])?.slice(0, 60)}) allows no call, as the gate reads it: written as tool_choice "none"` });
  }
  if (parallel !== undefined && parallel !== null) {
    record.parallel_tool_calls = parallel;
    // The gate reads a flag of another type as one call only; the response keeps what the completion said.
    if (typeof parallel !== "boolean") losses.push({ path: "/parallel_tool_calls", code: "target_rejects", detail: `parallel_tool_calls is ${JSON.stringify(parallel)}, not a boolean: written as it is` });
  }
  return record;
}

export interface ChoiceItems {
  /** The choice's `index` (its position when it has none). */
  index: number;
  items: CanonicalItem[];
  /** The status its finish_reason gives (callStatusOf): the choice's response's status. */
  status: ItemStatus;
  /** What the choice's items do not carry, paths into the completion. */
  losses: Loss[];
}

/**
 * A chat.completion as a journal's items, each choice's (choiceToItems), with
 * the completion's own fields as `left_behind` losses: a stream and its
 * non-streamed twin go through it alike. `callCounts`: the calls given a
 * synthesized call_id so far (see messagesToItems).
 */
export function completionToItems(args: { completion: Record<string, unknown>; callCounts?: CallCounts }): Converted<ChoiceItems[]> {
  const { completion, callCounts } = args;
  const choices = Array.isArray(completion.choices) ? completion.choices : [];
  // Each choice answers the same request, and a request that replays one numbers its calls on from there: a later choice counts from where the first began.
  const before = callCounts !== undefined && choices.length > 1 ? forkCallCounts(callCounts) : undefined;
  const value = choices.map((choice, position) => {
    const converted = choiceToItems({ choice, position, callCounts: position === 0 || before === undefined ? callCounts : forkCallCounts(before) });
    return { ...converted.value, losses: converted.losses };
  });
  return { value, losses: leftBehind(completion, COMPLETION_ITEM_FIELDS, "", "the chat.completion") };
}

// The fields of a completion and of a choice that its items hold; a choice's
// finish_reason too, when the items' status carries it. Made once: each
// completion and choice asked for its own set.
const COMPLETION_ITEM_FIELDS: ReadonlySet<string> = new Set(["object", "choices"]);
const CHOICE_ITEM_FIELDS: ReadonlySet<string> = new Set(["index", "message"]);
const CHOICE_ITEM_FIELDS_CARRIED: ReadonlySet<string> = new Set(["index", "message", "finish_reason"]);

/** Fields that hold a call wherever they stand: outside a message, no item is made of them. */
const CALL_FIELDS = new Set(["tool_calls", "function_call"]);

/**
 * A `left_behind` loss for each field of `record` outside `kept` that holds
 * something (null, [] and {} hold nothing); for a call out of place, an
 * `unsupported_tool_call`.
 */
function leftBehind(record: Record<string, unknown>, kept: ReadonlySet<string>, at: string, what: string): Loss[] {
  const losses: Loss[] = [];
  for (const key of Object.keys(record)) {
    const value = record[key];
    if (kept.has(key) || value === null || value === undefined || (typeof value === "object" && Object.keys(value).length === 0)) continue;
    const path = `${at}/${pointerToken(key)}`;
    if (CALL_FIELDS.has(key)) losses.push({ path, code: "unsupported_tool_call", detail: `${key} of ${what} stands outside any message: no item is made of it, and its call is not checked` });
    else losses.push({ path, code: "left_behind", detail: `${key} of ${what} is in no item: normalize writes items only` });
  }
  return losses;
}

/** One choice of a chat.completion as a journal's items: the choice at `position` of its `choices`, loss paths into the completion. */
export function choiceToItems(args: { choice: unknown; position: number; callCounts?: CallCounts }): Converted<Omit<ChoiceItems, "losses">> {
  const { choice, position, callCounts } = args;
  const base = pointer("choices", position);
  const index = isRecord(choice) && typeof choice.index === "number" && Number.isInteger(choice.index) ? choice.index : position;
  const alternative: Loss[] =
    position > 0 ? [{ path: base, code: "form_changed", detail: `choice ${index} is another answer to the same request: its items are a response of their own, after the first choice's; only one answer continues the conversation` }] : [];
  if (!isRecord(choice) || !isRecord(choice.message)) {
    const status = callStatusOf(isRecord(choice) ? choice.finish_reason : null);
    return { value: { index, items: [], status }, losses: [...alternative, { path: base, code: "unsupported_item", detail: "the choice has no message object: it gives no item" }] };
  }
  // Paths into the choice first, for inRecordOrder; then into the completion.
  const losses: Loss[] = [];
  const finishReason: unknown = choice.finish_reason ?? null;
  const status = callStatusOf(finishReason);
  const converted = messagesToItems({ messages: [choice.message as ChatMessage], finishReason: finishReason as ChatFinishReason | null, callCounts });
  losses.push(...converted.losses.map((loss: Loss) => ({ ...loss, path: loss.path.replace(/^\/0(?=\/|$)/, "/message") })));
  // A choice that did not finish may have cut any of its items, not only its calls.
  const items = status === "completed" ? converted.value : converted.value.map((item) => ({ ...item, status }) as CanonicalItem);
  if (status !== "completed" && finishReason !== null) {
    losses.push({ path: "/finish_reason", code: "form_changed", detail: `finish_reason ${JSON.stringify(finishReason)} written as status ${status} on the choice's items` });
  }
  // The finish_reason is kept where an item's status carries it.
  const carried = status !== "completed" || items.some((item) => item.type === "function_call");
  losses.push(...leftBehind(choice, carried ? CHOICE_ITEM_FIELDS_CARRIED : CHOICE_ITEM_FIELDS, "", "the choice"));
  return { value: { index, items, status }, losses: [...alternative, ...prefixLosses(base, inRecordOrder(losses, choice))] };
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

function responseUsage(completion: ChatCompletion, losses: Loss[]): ResponseResource["usage"] | undefined {
  const usage: unknown = completion.usage;
  if (usage === undefined) return undefined;
  if (!isRecord(usage)) {
    losses.push({ path: "/usage", code: "form_changed", detail: "usage that is not an object written as null" });
    return null;
  }
  const detail = (key: "prompt_tokens_details" | "completion_tokens_details", field: string): number => {
    const details = usage[key];
    const path = pointer("usage", key);
    if (details === undefined || details === null) {
      losses.push({ path: pointer("usage", key === "prompt_tokens_details" ? "input_tokens_details" : "output_tokens_details", field), code: "synthesized", detail: `a response's usage requires ${field} and the chat.completion's usage has no ${key}: 0 written` });
      return 0;
    }
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

function serviceTier(completion: ChatCompletion, losses: Loss[]): string | undefined {
  const tier: unknown = completion.service_tier;
  if (typeof tier === "string" || tier === undefined) return tier;
  losses.push({ path: "/service_tier", code: "form_changed", detail: `service_tier ${JSON.stringify(tier)} written as "default"` });
  return "default";
}
