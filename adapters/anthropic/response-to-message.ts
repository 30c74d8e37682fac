// An Open Responses response object as an Anthropic response (`type: "message"`).
//
// | response object                      | Anthropic response                                       |
// |--------------------------------------|----------------------------------------------------------|
// | id, model                            | id, model                                                |
// | output                               | content: itemsToMessages of the output, its assistant    |
// |                                      |   messages joined into one content array                 |
// | output item id, status               | dropped; a loss unless it is what the way in writes      |
// | a refusal part ending the output     | stop_reason refusal; its text comes back only as the     |
// |                                      |   kept stop_details.explanation, else a loss             |
// | `anthropic:stop_reason`              | stop_reason                                              |
// | status (no kept stop_reason)         | completed: refusal, tool_use (a call in the output) or   |
// |                                      |   end_turn; incomplete: max_tokens for max_output_tokens, |
// |                                      |   refusal for content_filter (a loss), an Anthropic       |
// |                                      |   stop_reason as it is, another reason max_tokens (a loss); |
// |                                      |   in_progress: null; failed: null, loss                   |
// | `anthropic:usage`                    | usage                                                    |
// | usage (none kept)                    | input_tokens less cached_tokens, cache_read_input_tokens |
// |                                      |   (only where cached_tokens is given), output_tokens     |
// | `anthropic:<key>` (stop_sequence,    | <key>                                                    |
// |   stop_details, container…)          |                                                          |
// | user/system messages or outputs in   | loss unsupported_item: a response holds the assistant's  |
// |   the output                         |   turn only                                              |
// | fields a message cannot hold (tools, | loss unsupported_field, unless they hold the neutral     |
// |   created_at, temperature…)          |   value the way in writes                                |
// | other keys                           | loss provider_extension                                  |
import { createHash } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import type { Converted, Loss } from "../../src/models/loss.js";
import { pointer } from "../../src/models/json-pointer.js";
import type { CanonicalItem, ResponseResource } from "../../src/models/open-responses.js";
import { isRecord, lossAt, PREFIX, typeOf, type Fields } from "./fields.js";
import type { CallIds } from "./call-ids.js";
import { itemsToMessages } from "./items-to-messages.js";
import { derivedStopReason, outputItemId, RESPONSE_NEUTRALS } from "./message-to-response.js";
import { callStatusOf, toolUseStatusOf } from "./messages-to-items.js";
import type { AnthropicResponse } from "./models.js";

const SPEC_KEYS = new Set(["id", "object", "created_at", "status", "incomplete_details", "model", "output", "usage", ...Object.keys(RESPONSE_NEUTRALS)]);

export function responseToMessage(args: { response: ResponseResource; callIds?: CallIds }): Converted<AnthropicResponse> {
  const { response } = args;
  if (!isRecord(response) || response.object !== "response" || !Array.isArray(response.output)) {
    throw new TypeError("not an Open Responses response object");
  }
  const fields = response as Fields;
  const losses: Loss[] = [];
  const output: unknown[] = response.output;
  const kept = PREFIX + "stop_reason" in fields;
  const stopReason = kept ? (fields[PREFIX + "stop_reason"] as string | null) : derivedStopReason(response.status, response.incomplete_details?.reason, output);
  if (!kept && response.status !== "completed" && response.status !== "incomplete" && response.status !== "in_progress") {
    losses.push(lossAt(["status"], "unsupported_field", `status ${JSON.stringify(response.status)} has no stop_reason; null written`));
  }
  const reason = response.incomplete_details?.reason;
  if (!kept && response.status === "incomplete" && typeof reason === "string" && reason !== "max_output_tokens" && reason !== stopReason) {
    losses.push(lossAt(["incomplete_details", "reason"], "form_changed", `incomplete for reason ${JSON.stringify(reason)}, which Anthropic has no stop_reason for: ${JSON.stringify(stopReason)} written`));
  }

  const items: CanonicalItem[] = [];
  const origins: number[] = [];
  output.forEach((raw, index) => {
    const item = inputItem(raw, index, output.length, response.id, stopReason, fields, losses);
    if (item === undefined) return;
    items.push(item);
    origins.push(index);
  });
  const converted = itemsToMessages({ items, ...(args.callIds ? { callIds: args.callIds } : {}) });
  for (const loss of converted.losses) {
    const match = /^\/(\d+)(.*)$/.exec(loss.path);
    const path = match ? pointer("output", origins[Number(match[1])] ?? Number(match[1])) + match[2] : "/output" + loss.path;
    losses.push({ ...loss, path });
  }
  const content: unknown[] = [];
  for (const message of converted.value.messages) {
    if (message.role !== "assistant") {
      losses.push(lossAt(["output"], "unsupported_item", `a ${message.role} message has no place in an Anthropic response`));
      continue;
    }
    content.push(...(typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content));
  }
  if (converted.value.system !== undefined) losses.push(lossAt(["output"], "unsupported_item", "system messages have no place in an Anthropic response"));

  const message: Fields = {
    id: required(response.id, "id", () => `msg_${createHash("sha256").update(JSON.stringify(content)).digest("hex").slice(0, 24)}`, losses),
    type: "message",
    role: "assistant",
    model: required(response.model, "model", () => "", losses),
    content,
    stop_reason: stopReason,
    stop_sequence: null,
  };
  for (const key of Object.keys(fields)) {
    if (key.startsWith(PREFIX) && key !== PREFIX + "stop_reason") message[key.slice(PREFIX.length)] = fields[key];
  }
  message.usage ??= anthropicUsage(response.usage, losses);
  if (response.created_at !== 0 && response.created_at !== undefined) losses.push(lossAt(["created_at"], "unsupported_field", "an Anthropic message has no creation time"));
  if (isRecord(response.error)) losses.push(lossAt(["error"], "unsupported_field", "an Anthropic message has no error"));
  for (const key of Object.keys(RESPONSE_NEUTRALS) as Array<keyof typeof RESPONSE_NEUTRALS>) {
    const value = fields[key];
    if (key === "error" || value === undefined || isDeepStrictEqual(value, RESPONSE_NEUTRALS[key])) continue;
    losses.push(lossAt([key], "unsupported_field", `an Anthropic message has no ${key} (a value other than ${JSON.stringify(RESPONSE_NEUTRALS[key])} is lost)`));
  }
  for (const key of Object.keys(fields)) {
    if (!SPEC_KEYS.has(key) && !key.startsWith(PREFIX) && fields[key] !== undefined) {
      losses.push(lossAt([key], "provider_extension", `"${key}" is not a field of a response object; an Anthropic message has no place for it`));
    }
  }
  return { value: message as AnthropicResponse, losses: inRecordOrder(losses, fields) };
}

/**
 * A field an Anthropic message requires, from the response; a response that
 * lacks it (one rebuilt from a stream that never said it) gets `made()`,
 * reported `synthesized`, so that the message written reads as one.
 */
function required(value: unknown, field: "id" | "model", made: () => string, losses: Loss[]): string {
  if (typeof value === "string") return value;
  const written = made();
  losses.push({ path: `/${field}`, code: "synthesized", detail: `an Anthropic message requires ${field} and the response has ${value === undefined ? "none" : "no string"}: ${JSON.stringify(written)} written` });
  return written;
}

/** One output item as the input item itemsToMessages expects, or undefined when a message cannot hold it. */
function inputItem(raw: unknown, index: number, count: number, responseId: unknown, stopReason: string | null, response: Fields, losses: Loss[]): CanonicalItem | undefined {
  const path = ["output", index];
  if (!isRecord(raw)) {
    losses.push(lossAt(path, "unsupported_item", `output item is ${typeOf(raw)}, not an object`));
    return undefined;
  }
  if (raw.type === "function_call_output" || (raw.type === "message" && raw.role !== "assistant")) {
    const what = raw.type === "message" ? `a ${String(raw.role)} message` : "a function_call_output";
    losses.push(lossAt(path, "unsupported_item", `${what} has no place in an Anthropic response, which holds the assistant's turn only`));
    return undefined;
  }
  const expectedId = outputItemId(responseId, index, String(raw.type));
  if (expectedId === undefined) return raw as CanonicalItem;
  const { id, status, ...item } = raw;
  if (id !== undefined && id !== expectedId) losses.push(lossAt([...path, "id"], "unsupported_field", "item ids have no place in an Anthropic response"));
  const expectedStatus = (raw.type === "function_call" ? toolUseStatusOf : callStatusOf)(stopReason, index === count - 1);
  if (status !== undefined && status !== expectedStatus) {
    losses.push(lossAt([...path, "status"], "unsupported_field", `item status ${JSON.stringify(status)} differs from the stop_reason's; it is not kept`));
  }
  if (stopReason === "refusal" && index === count - 1 && item.type === "message" && Array.isArray(item.content)) {
    const parts = [...item.content];
    const refusal = parts[parts.length - 1];
    if (isRecord(refusal) && refusal.type === "refusal") {
      parts.pop();
      const details = response[PREFIX + "stop_details"];
      const explanation = isRecord(details) && typeof details.explanation === "string" ? details.explanation : "";
      if (refusal.refusal !== explanation) {
        losses.push(lossAt([...path, "content", parts.length], "unsupported_part", "the refusal's text has no Anthropic place: a refusal is the stop_reason, and its explanation the server's"));
      }
      if (parts.length === 0) return undefined;
      item.content = parts;
    }
  }
  return item as CanonicalItem;
}

function anthropicUsage(usage: unknown, losses: Loss[]): Fields {
  if (!isRecord(usage)) {
    losses.push(lossAt(["usage"], "synthesized", "no usage: input_tokens 0 and output_tokens 0 written, which Anthropic always reports"));
    return { input_tokens: 0, output_tokens: 0 };
  }
  // A count the usage does not give is not written as 0: no cached tokens said is not none read from the cache.
  const cached = isRecord(usage.input_tokens_details) && typeof usage.input_tokens_details.cached_tokens === "number" ? usage.input_tokens_details.cached_tokens : undefined;
  const given = usage.input_tokens;
  const input = typeof given === "number" ? given : 0;
  if (typeof given !== "number") losses.push(lossAt(["usage", "input_tokens"], "synthesized", "no input_tokens: 0 written, which Anthropic always reports"));
  const reasoning = isRecord(usage.output_tokens_details) ? usage.output_tokens_details.reasoning_tokens : undefined;
  if (typeof reasoning === "number" && reasoning > 0) losses.push(lossAt(["usage", "output_tokens_details", "reasoning_tokens"], "unsupported_field", "reasoning_tokens: Anthropic counts thinking within output_tokens"));
  if (cached === undefined) return { input_tokens: input, output_tokens: usage.output_tokens };
  return { input_tokens: input - cached, cache_read_input_tokens: cached, output_tokens: usage.output_tokens };
}

/** Losses sorted by the top-level key of the response they point into, then the output item. */
function inRecordOrder(losses: readonly Loss[], record: Fields): Loss[] {
  const keys = Object.keys(record);
  const rank = (loss: Loss): [number, number] => {
    const [, first = "", second = ""] = loss.path.split("/");
    const key = keys.indexOf(first);
    return [key === -1 ? (loss.path === "" ? -1 : keys.length) : key, /^\d+$/.test(second) ? Number(second) : -1];
  };
  return losses
    .map((loss, order) => ({ loss, order, rank: rank(loss) }))
    .sort((a, b) => a.rank[0] - b.rank[0] || a.rank[1] - b.rank[1] || a.order - b.order)
    .map(({ loss }) => loss);
}
