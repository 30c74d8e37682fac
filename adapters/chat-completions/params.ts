// The request parameters both envelopes share, one top-level key at a time.
// Each call returns the target entries for one source key (none, one or more)
// and the losses, with paths from the body's root. Entries that land on the
// same target object (`text`, `reasoning`, `include`) are merged by the caller.
//
// | Chat Completions                    | Open Responses                                      |
// |-------------------------------------|-----------------------------------------------------|
// | model                               | model                                               |
// | temperature, top_p,                 | the same (null kept)                                |
// |   presence_penalty,                 |                                                     |
// |   frequency_penalty, top_logprobs   |                                                     |
// | max_completion_tokens               | max_output_tokens (below the spec's 16: loss)       |
// | max_tokens (deprecated)             | max_output_tokens: loss form_changed; next to        |
// |                                     |   max_completion_tokens: loss unsupported_field     |
// | parallel_tool_calls, metadata,      | the same                                            |
// |   safety_identifier,                |                                                     |
// |   prompt_cache_key                  |                                                     |
// | store, stream                       | the same (null omitted: loss)                       |
// | stream_options.include_obfuscation  | stream_options.include_obfuscation                  |
// | stream_options.include_usage        | loss (a response always reports usage)              |
// | service_tier                        | service_tier ("scale" is not in the spec: loss)     |
// | logprobs: true                      | include: ["message.output_text.logprobs"]           |
// | reasoning_effort                    | reasoning.effort ("minimal" is not in the spec: loss) |
// | verbosity                           | text.verbosity                                      |
// | n, logit_bias, seed, stop, user,    | loss unsupported_field                              |
// |   audio, modalities, prediction,    |                                                     |
// |   web_search_options,               |                                                     |
// |   prompt_cache_retention            |                                                     |
// | (back) previous_response_id,        | loss unsupported_field                              |
// |   background, max_tool_calls,       |                                                     |
// |   truncation, reasoning.summary,    |                                                     |
// |   other include entries             |                                                     |
// | any other key                       | loss provider_extension                             |
// A null that the target does not accept is omitted with a form_changed loss:
// absent means the same, but the round trip does not give the key back.
import type { Loss } from "../../src/models/loss.js";
import { pointer, prefixLosses } from "../../src/models/json-pointer.js";
import { extensionFieldLosses } from "./message-fields.js";
import { isPlainObject as isRecord } from "../../src/models/json-value.js";

export type Entries = Array<[string, unknown]>;

export interface ParamResult {
  entries: Entries;
  losses: Loss[];
}

const LOGPROBS_INCLUDE = "message.output_text.logprobs";
const SPEC_SERVICE_TIERS = new Set(["auto", "default", "flex", "priority"]);
const SPEC_REASONING_EFFORTS = new Set(["none", "low", "medium", "high", "xhigh"]);
const SPEC_MIN_OUTPUT_TOKENS = 16;

const CHAT_ONLY = new Set(["n", "logit_bias", "seed", "stop", "user", "audio", "modalities", "prediction", "web_search_options", "prompt_cache_retention"]);
const RESPONSES_ONLY = new Set(["previous_response_id", "background", "max_tool_calls", "truncation"]);

export { isRecord };

/**
 * A provider_extension loss for each key of `value` the envelopes do not define,
 * worded and judged as the message converters do (a null carries nothing to lose).
 */
export function extraKeyLosses(value: object, known: ReadonlySet<string>, path: string, target: string): Loss[] {
  return prefixLosses(path, extensionFieldLosses(value as Record<string, unknown>, [...known], [], target));
}

/**
 * Sorts losses into the order of the record they point into, so that a report
 * reads top to bottom; losses at the same place keep their order.
 */
export function inRecordOrder(losses: readonly Loss[], record: unknown): Loss[] {
  const rank = (path: string): number[] => {
    const ranks: number[] = [];
    let node: unknown = record;
    for (const token of path.split("/").slice(1).map((raw) => raw.replace(/~1/g, "/").replace(/~0/g, "~"))) {
      if (Array.isArray(node)) {
        ranks.push(Number(token));
        node = node[Number(token)];
      } else if (isRecord(node)) {
        const index = Object.keys(node).indexOf(token);
        ranks.push(index === -1 ? Number.MAX_SAFE_INTEGER : index);
        node = node[token];
      } else {
        break;
      }
    }
    return ranks;
  };
  const ranked = losses.map((loss, position) => ({ loss, position, ranks: rank(loss.path) }));
  ranked.sort((a, b) => {
    for (let i = 0; i < Math.min(a.ranks.length, b.ranks.length); i++) {
      if (a.ranks[i] !== b.ranks[i]) return a.ranks[i] - b.ranks[i];
    }
    // A place comes before the places inside it.
    return a.ranks.length - b.ranks.length || a.position - b.position;
  });
  return ranked.map((entry) => entry.loss);
}

/** Adds an entry to a body under construction, merging objects and arrays that several keys write to. */
export function assignEntry(target: Record<string, unknown>, [key, value]: [string, unknown]): void {
  const previous = target[key];
  if (isRecord(previous) && isRecord(value)) target[key] = { ...previous, ...value };
  else if (Array.isArray(previous) && Array.isArray(value)) target[key] = [...previous, ...value];
  else target[key] = value;
}

function same(key: string, value: unknown): ParamResult {
  return { entries: [[key, value]], losses: [] };
}

/** A parameter written null, left out: the API reads null as absent, the target accepts no null. */
export function omittedNull(key: string): ParamResult {
  return { entries: [], losses: [{ path: pointer(key), code: "form_changed", detail: `${key}: null omitted (the target does not accept null; absent means the same)` }] };
}

function lost(key: string, detail: string): ParamResult {
  return { entries: [], losses: [{ path: pointer(key), code: "unsupported_field", detail }] };
}

/** One top-level parameter of a Chat request body, as Open Responses entries. */
export function chatParamToResponses(args: { key: string; request: Record<string, unknown> }): ParamResult {
  const { key, request } = args;
  const value = request[key];
  switch (key) {
    case "model":
    case "temperature":
    case "top_p":
    case "presence_penalty":
    case "frequency_penalty":
    case "top_logprobs":
    case "parallel_tool_calls":
    case "metadata":
    case "safety_identifier":
    case "prompt_cache_key":
      return same(key, value);
    case "store":
    case "stream":
      return value === null ? omittedNull(key) : same(key, value);
    case "max_completion_tokens":
      return maxOutputTokens(key, value);
    case "max_tokens": {
      if (request.max_completion_tokens !== undefined) return lost(key, "max_tokens next to max_completion_tokens: only max_completion_tokens is written, as max_output_tokens");
      const result = maxOutputTokens(key, value);
      if (result.entries.length > 0) result.losses.push({ path: pointer(key), code: "form_changed", detail: "deprecated max_tokens written as max_output_tokens (it comes back as max_completion_tokens)" });
      return result;
    }
    case "stream_options": {
      if (value === null) return same(key, null);
      if (!isRecord(value)) return lost(key, "stream_options is not an object");
      const losses: Loss[] = [];
      const options: Record<string, unknown> = {};
      for (const [option, optionValue] of Object.entries(value)) {
        if (option === "include_obfuscation") options[option] = optionValue;
        else if (option === "include_usage") losses.push({ path: pointer(key, option), code: "unsupported_field", detail: "include_usage has no counterpart: a response always reports its usage" });
        else losses.push(...extraKeyLosses({ [option]: optionValue }, new Set(), pointer(key), "Open Responses"));
      }
      // Kept even when emptied, so that the way back gives the object again.
      return { entries: [[key, options]], losses };
    }
    case "service_tier":
      if (value === null) return omittedNull(key);
      if (!SPEC_SERVICE_TIERS.has(value as string)) return lost(key, `service_tier ${JSON.stringify(value)} is not one of the spec's (auto, default, flex, priority)`);
      return same(key, value);
    case "logprobs":
      if (value === true) return { entries: [["include", [LOGPROBS_INCLUDE]]], losses: [] };
      return { entries: [], losses: [{ path: pointer(key), code: "form_changed", detail: `logprobs: ${JSON.stringify(value)} omitted (the default: no include entry)` }] };
    case "reasoning_effort":
      if (value === null) return omittedNull(key);
      if (!SPEC_REASONING_EFFORTS.has(value as string)) return lost(key, `reasoning_effort ${JSON.stringify(value)} is not one of the spec's (none, low, medium, high, xhigh)`);
      return { entries: [["reasoning", { effort: value }]], losses: [] };
    case "verbosity":
      if (value === null) return omittedNull(key);
      return { entries: [["text", { verbosity: value }]], losses: [] };
    default:
      if (CHAT_ONLY.has(key)) return lost(key, `${key} has no counterpart in Open Responses`);
      return { entries: [], losses: extraKeyLosses({ [key]: value }, new Set(), "", "Open Responses") };
  }
}

function maxOutputTokens(key: string, value: unknown): ParamResult {
  if (typeof value === "number" && value < SPEC_MIN_OUTPUT_TOKENS) {
    return lost(key, `${key} ${value} is below the spec's minimum max_output_tokens of ${SPEC_MIN_OUTPUT_TOKENS}`);
  }
  return same("max_output_tokens", value);
}

/**
 * One top-level parameter of an Open Responses request body, as Chat entries.
 * `text`, `tools`, `tool_choice`, `input` and `instructions` are the body
 * converter's business, not this one's.
 */
export function responsesParamToChat(args: { key: string; body: Record<string, unknown> }): ParamResult {
  const { key, body } = args;
  const value = body[key];
  switch (key) {
    case "model":
    case "parallel_tool_calls":
    case "safety_identifier":
    case "prompt_cache_key":
      return value === null ? omittedNull(key) : same(key, value);
    case "temperature":
    case "top_p":
    case "presence_penalty":
    case "frequency_penalty":
    case "top_logprobs":
    case "metadata":
    case "store":
    case "stream":
    case "stream_options":
    case "service_tier":
      return same(key, value);
    case "max_output_tokens":
      return same("max_completion_tokens", value);
    case "include": {
      if (!Array.isArray(value)) return lost(key, "include is not an array");
      const result: ParamResult = { entries: [], losses: [] };
      value.forEach((entry, index) => {
        if (entry === LOGPROBS_INCLUDE) result.entries.push(["logprobs", true]);
        else result.losses.push({ path: pointer(key, index), code: "unsupported_field", detail: `include ${JSON.stringify(entry)} has no counterpart in Chat Completions` });
      });
      return result;
    }
    case "reasoning": {
      if (value === null) return omittedNull(key);
      if (!isRecord(value)) return lost(key, "reasoning is not an object");
      const result: ParamResult = { entries: [], losses: [] };
      for (const [field, fieldValue] of Object.entries(value)) {
        if (field === "effort") {
          if (fieldValue === null) result.losses.push(...prefixed(omittedNull("effort").losses, key));
          else result.entries.push(["reasoning_effort", fieldValue]);
        } else if (field === "summary") {
          result.losses.push({ path: pointer(key, field), code: "unsupported_field", detail: "reasoning.summary has no counterpart in Chat Completions" });
        } else {
          result.losses.push(...extraKeyLosses({ [field]: fieldValue }, new Set(), pointer(key), "Chat Completions"));
        }
      }
      return result;
    }
    default:
      if (RESPONSES_ONLY.has(key)) return lost(key, `${key} has no counterpart in Chat Completions`);
      return { entries: [], losses: extraKeyLosses({ [key]: value }, new Set(), "", "Chat Completions") };
  }
}

function prefixed(losses: Loss[], key: string): Loss[] {
  return losses.map((loss) => ({ ...loss, path: pointer(key) + loss.path }));
}
