// An Open Responses response object as a Gemini response (`GenerateContentResponse`).
//
// | response object                      | Gemini response                                           |
// |--------------------------------------|-----------------------------------------------------------|
// | output                               | candidates: the items of each `gemini:candidate` (0 when unmarked) |
// |                                      |   through itemsToContents, one model content each         |
// | output item id, status               | dropped; a loss unless it is what the way in writes       |
// | `gemini:candidates` [k]              | the other fields of candidate k, as written               |
// | status (no kept candidate)           | finishReason: completed STOP; incomplete MAX_TOKENS for   |
// |                                      |   max_output_tokens, SAFETY for content_filter, a Gemini  |
// |                                      |   finishReason as it is, another reason OTHER (a loss);   |
// |                                      |   in_progress none                                        |
// | id, model                            | responseId (not when synthesized), modelVersion           |
// | created_at (not 0)                   | createTime, as an RFC 3339 time; `gemini:createTime` wins |
// | `gemini:usageMetadata`, else usage   | usageMetadata                                             |
// | `gemini:<key>` (createTime,          | <key>                                                     |
// |   promptFeedback…)                   |                                                           |
// | `gemini:<snake_key>` of a field the  | <snake_key>, and the field is not written again in camelCase |
// |   way in read in snake_case          |   (`gemini:response_id`: response_id, no responseId)      |
// | user or system messages, outputs     | loss unsupported_item: a candidate holds the model's turn only |
// | fields a response cannot hold (tools,| loss unsupported_field, unless they hold the neutral value the way in writes |
// |   temperature…); other keys          |                                                           |
import { isDeepStrictEqual } from "node:util";
import type { Converted, Loss } from "../../src/models/loss.js";
import { prefixLosses } from "../../src/models/json-pointer.js";
import type { CanonicalItem, ResponseResource } from "../../src/models/open-responses.js";
import { isRecord, lossAt, PREFIX, snakeOf, typeOf, type Fields } from "./fields.js";
import { FINISH_REASONS, isSynthesizedResponseId, outputItemId, RESPONSE_NEUTRALS } from "./generate-content-to-response.js";
import { itemsToContents } from "./items-to-contents.js";

const SPEC_KEYS = new Set(["id", "object", "created_at", "status", "incomplete_details", "model", "output", "usage", ...Object.keys(RESPONSE_NEUTRALS)]);

export function responseToGenerateContent(args: { response: ResponseResource }): Converted<Fields> {
  const { response } = args;
  if (!isRecord(response) || response.object !== "response" || !Array.isArray(response.output)) throw new TypeError("not an Open Responses response object");
  const fields = response as Fields;
  const losses: Loss[] = [];
  const output: unknown[] = response.output;
  const keptCandidates = Array.isArray(fields[`${PREFIX}candidates`]) ? (fields[`${PREFIX}candidates`] as unknown[]) : undefined;
  const groups = new Map<number, Array<{ item: CanonicalItem; index: number }>>();
  output.forEach((raw, index) => {
    if (!isRecord(raw)) {
      losses.push(lossAt(["output", index], "unsupported_item", `a ${typeOf(raw)} is not an output item`));
      return;
    }
    const mark = raw[`${PREFIX}candidate`];
    const k = typeof mark === "number" ? mark : 0;
    const { [`${PREFIX}candidate`]: _mark, ...item } = raw;
    const type = String(item.type);
    if (item.id !== undefined && item.id === outputItemId(response.id, index, type)) delete item.id;
    if (item.status !== undefined && (type === "function_call" || type === "message")) {
      // A way in writes the status the finishReason gives; the way back gives the same finishReason.
      if (typeof response.status === "string" && !FINISHED_STATUSES.has(response.status) && response.status !== "in_progress") {
        losses.push(lossAt(["output", index, "status"], "form_changed", `status ${JSON.stringify(item.status)} is not written: the response is ${JSON.stringify(response.status)}, which Gemini has no finishReason for, so the item reads unfinished`));
      }
      delete item.status;
    }
    if (type === "message" && item.role !== "assistant") {
      losses.push(lossAt(["output", index], "unsupported_item", `a ${String(item.role)} message is no part of a candidate`));
      return;
    }
    if (type === "function_call_output") {
      losses.push(lossAt(["output", index], "unsupported_item", "an output is no part of a candidate"));
      return;
    }
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k)!.push({ item: item as CanonicalItem, index });
  });

  const count = Math.max(keptCandidates?.length ?? 0, ...[...groups.keys()].map((k) => k + 1), 0);
  const candidates: Fields[] = [];
  for (let k = 0; k < count; k++) {
    const meta = isRecord(keptCandidates?.[k]) ? (keptCandidates![k] as Fields) : undefined;
    const group = groups.get(k) ?? [];
    const candidate: Fields = {};
    if (group.length > 0) {
      const converted = itemsToContents({ items: group.map((entry) => entry.item) });
      for (const loss of converted.losses) {
        const position = Number(/^\/(\d+)/.exec(loss.path)?.[1] ?? 0);
        losses.push({ ...loss, path: loss.path.replace(/^\/\d+/, `/output/${group[position]?.index ?? 0}`) });
      }
      const parts = converted.value.contents.flatMap((content) => content.parts);
      if (converted.value.contents.length > 1) losses.push(lossAt(["output"], "form_changed", `candidate ${k} held ${converted.value.contents.length} turns: joined into one content`));
      candidate.content = { parts, role: "model" };
    } else if (meta?.content !== undefined) candidate.content = meta.content;
    if (meta) {
      for (const [key, value] of Object.entries(meta)) if (key !== "content") candidate[key] = value;
    } else {
      const finishReason = finishReasonOf(response.status, response.incomplete_details?.reason, losses);
      if (finishReason !== undefined) candidate.finishReason = finishReason;
      candidate.index = k;
    }
    candidates.push(candidate);
  }

  const value: Fields = {};
  // A field the way in read in snake_case is kept as written, and the loop below restores it.
  const heldSnake = (key: string) => fields[`${PREFIX}${snakeOf(key)}`] !== undefined;
  if (keptCandidates !== undefined || candidates.length > 0) value.candidates = candidates;
  if (isRecord(fields[`${PREFIX}usageMetadata`])) value.usageMetadata = fields[`${PREFIX}usageMetadata`];
  else if (isRecord(response.usage) && !heldSnake("usageMetadata")) {
    const usage = response.usage as Fields;
    const reasoning = isRecord(usage.output_tokens_details) && typeof usage.output_tokens_details.reasoning_tokens === "number" ? usage.output_tokens_details.reasoning_tokens : 0;
    const usageMetadata: Fields = { promptTokenCount: usage.input_tokens, candidatesTokenCount: Number(usage.output_tokens) - reasoning, totalTokenCount: usage.total_tokens };
    if (reasoning > 0) usageMetadata.thoughtsTokenCount = reasoning;
    const cached = isRecord(usage.input_tokens_details) && typeof usage.input_tokens_details.cached_tokens === "number" ? usage.input_tokens_details.cached_tokens : 0;
    if (cached > 0) usageMetadata.cachedContentTokenCount = cached;
    value.usageMetadata = usageMetadata;
  }
  if (typeof response.model === "string" && response.model !== "" && !heldSnake("modelVersion")) value.modelVersion = response.model;
  if (!isSynthesizedResponseId(response.id) && !heldSnake("responseId")) value.responseId = response.id;
  // The time Gemini wrote, as it wrote it, wins over the seconds the way in kept; 0 is what the way in writes for none.
  if (fields[`${PREFIX}createTime`] === undefined && !heldSnake("createTime") && typeof response.created_at === "number" && response.created_at > 0) {
    const createTime = rfc3339Seconds(response.created_at);
    if (createTime !== undefined) value.createTime = createTime;
    else losses.push(lossAt(["created_at"], "unsupported_field", `created_at ${response.created_at} is no time an RFC 3339 timestamp can write (years 0000 to 9999): createTime is not written`));
  }
  for (const [key, held] of Object.entries(fields)) {
    if (key.startsWith(PREFIX)) {
      const field = key.slice(PREFIX.length);
      if (field !== "candidates" && field !== "usageMetadata" && !(field in value)) value[field] = held;
      continue;
    }
    if (!SPEC_KEYS.has(key)) {
      losses.push(lossAt([key], "provider_extension", `"${key}" is not a field of the portable shape; Gemini has no place for it`));
      continue;
    }
    if (key in RESPONSE_NEUTRALS && !isDeepStrictEqual(held, RESPONSE_NEUTRALS[key as keyof typeof RESPONSE_NEUTRALS])) {
      losses.push(lossAt([key], "unsupported_field", `a Gemini response has no ${key}`));
    }
  }
  return { value, losses: prefixLosses("", losses) };
}

/** The response statuses a finishReason says. */
const FINISHED_STATUSES: ReadonlySet<string> = new Set(["completed", "incomplete"]);

function finishReasonOf(status: unknown, reason: unknown, losses: Loss[]): string | undefined {
  if (status === "completed") return "STOP";
  if (status !== "incomplete") {
    // Still streaming is what a candidate without finishReason says; a failed or cancelled response is more than that.
    if (status !== "in_progress" && status !== undefined) losses.push(lossAt(["status"], "form_changed", `status ${JSON.stringify(status)} has no finishReason: none written, so the candidate reads unfinished`));
    return undefined;
  }
  if (reason === "max_output_tokens" || reason === undefined || reason === null) return "MAX_TOKENS";
  if (reason === "content_filter") return "SAFETY";
  if (typeof reason === "string" && FINISH_REASONS.has(reason)) return reason;
  // Another envelope's reason (pause_turn, malformed_tool_use…) is no finishReason: OTHER still leaves the candidate unfinished.
  losses.push(lossAt(["incomplete_details", "reason"], "form_changed", `incomplete for reason ${JSON.stringify(reason)}, which Gemini has no finishReason for: OTHER written`));
  return "OTHER";
}

/** Seconds since 1970 as RFC 3339 text, or `undefined` past the years it writes (Date would throw, or write a six-digit year). */
function rfc3339Seconds(seconds: number): string | undefined {
  const date = new Date(seconds * 1000);
  const year = date.getUTCFullYear();
  return Number.isNaN(date.getTime()) || year > 9999 ? undefined : date.toISOString();
}
