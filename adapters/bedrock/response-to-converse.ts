// An Open Responses response object as a Bedrock Converse response.
//
// | response object                      | Converse response                                        |
// |--------------------------------------|----------------------------------------------------------|
// | output                               | output.message {role assistant, content}: itemsToMessages of the output, |
// |                                      |   its assistant messages joined into one content array   |
// | output item id, status               | dropped; a loss unless it is what the way in writes      |
// | `bedrock:stopReason`                 | stopReason                                               |
// | status (no kept stopReason)          | completed: tool_use (a call in the output) or end_turn;  |
// |                                      |   incomplete: max_tokens for max_output_tokens, content_filtered |
// |                                      |   for content_filter, a Converse stopReason as it is, another |
// |                                      |   reason max_tokens (a loss); in_progress or other:       |
// |                                      |   null, reported, so its calls stay unfinished            |
// | `bedrock:usage`                      | usage                                                    |
// | usage (none kept)                    | inputTokens (input_tokens less cached_tokens), outputTokens, totalTokens |
// | `bedrock:<key>` (metrics, trace…)    | <key>                                                    |
// | usage reasoning_tokens               | none in Converse usage: a loss when not 0                |
// | no usage                             | zero counts, reported synthesized                        |
// | id, model, created_at                | none in a Converse response: a loss unless they are what |
// |                                      |   the way in writes (the id of the content, "" or the    |
// |                                      |   model the caller's URL names, 0)                       |
// | user/system messages or outputs in   | loss unsupported_item: a response holds the assistant's  |
// |   the output                         |   turn only                                              |
// | fields a response cannot hold        | loss unsupported_field, unless they hold the neutral value the way in writes |
import { isDeepStrictEqual } from "node:util";
import type { Converted, Loss } from "../../src/models/loss.js";
import type { CanonicalItem, ResponseResource } from "../../src/models/open-responses.js";
import { isRecord, lossAt, PREFIX, TARGET, type Fields } from "./fields.js";
import type { CallIds } from "./call-ids.js";
import { itemsToMessages } from "./items-to-messages.js";
import { callStatusOf } from "./messages-to-items.js";
import type { BedrockResponse } from "./models.js";
import { derivedStopReason, outputItemId, RESPONSE_NEUTRALS, responseIdOf } from "./converse-to-response.js";

const SILENT = new Set(["object", "status", "incomplete_details", "output", "usage"]);

/** `model`: the model the request URL names, where the response is sent back to Bedrock: it goes there, not into the record. */
export function responseToConverse(args: { response: ResponseResource; model?: string; callIds?: CallIds }): Converted<BedrockResponse> {
  const { response } = args;
  if (!isRecord(response) || response.object !== "response" || !Array.isArray(response.output)) throw new TypeError("not an Open Responses response object");
  const fields = response as Fields;
  const losses: Loss[] = [];
  const output: unknown[] = response.output;
  const kept = PREFIX + "stopReason" in fields;
  const stopReason = kept ? fields[PREFIX + "stopReason"] : derivedStopReason(response.status, response.incomplete_details?.reason, output);
  const reason = response.incomplete_details?.reason;
  if (!kept && response.status === "incomplete" && typeof reason === "string" && reason !== "max_output_tokens" && reason !== "content_filter" && reason !== stopReason) {
    losses.push(lossAt(["incomplete_details", "reason"], "form_changed", `incomplete for reason ${JSON.stringify(reason)}, which ${TARGET} has no stopReason for: ${JSON.stringify(stopReason)} written`));
  }
  if (stopReason === null) {
    // end_turn would say that a call cut short was finished, and the gate would let it run.
    losses.push(lossAt(["status"], "unsupported_field", `status ${JSON.stringify(response.status)} has no stopReason: stopReason null written, which the way back reads as a response not finished`));
  }
  const items: CanonicalItem[] = [];
  const origins: number[] = [];
  output.forEach((raw, index) => {
    if (!isRecord(raw)) return;
    const item: Fields = { ...raw };
    const role = item.type === "message" ? item.role : "assistant";
    if (item.type === "function_call_output" || role !== "assistant") {
      losses.push(lossAt(["output", index], "unsupported_item", "a response holds the assistant's turn only"));
      return;
    }
    if (item.id === outputItemId(response.id, index, String(item.type))) delete item.id;
    const status = callStatusOf(stopReason as string, index === output.length - 1);
    if (item.type !== "function_call" && item.status === status) delete item.status;
    if (item.type === "function_call" && item.status === status) delete item.status;
    items.push(item as CanonicalItem);
    origins.push(index);
  });
  const converted = itemsToMessages({ items, ...(args.callIds ? { callIds: args.callIds } : {}) });
  for (const loss of converted.losses) {
    const [, index, rest] = /^\/(\d+)(.*)$/.exec(loss.path) ?? [];
    losses.push(index === undefined ? loss : { ...loss, path: `/output/${origins[Number(index)]}${rest}` });
  }
  const content = converted.value.messages.filter((message) => message.role === "assistant").flatMap((message) => message.content);
  const result: Fields = { output: { message: { role: "assistant", content } }, stopReason };
  result.usage = isRecord(fields[PREFIX + "usage"]) ? fields[PREFIX + "usage"] : bedrockUsage(response.usage, losses);
  const unheld = ["id", "model", "created_at"];
  for (const key of Object.keys(fields)) {
    if (key.startsWith(PREFIX)) {
      if (key !== PREFIX + "stopReason" && key !== PREFIX + "usage") result[key.slice(PREFIX.length)] = fields[key];
      continue;
    }
    if (SILENT.has(key)) continue;
    if (unheld.includes(key)) continue;
    const neutral = (RESPONSE_NEUTRALS as Record<string, unknown>)[key];
    if (isDeepStrictEqual(fields[key], neutral) || fields[key] === undefined) continue;
    losses.push(lossAt([key], "unsupported_field", `a ${TARGET} response has no place for ${key}`));
  }
  // What the way in writes where a Converse response says nothing is no loss; anything else is.
  const written: Fields = { id: responseIdOf(result), model: args.model ?? "", created_at: 0 };
  for (const key of unheld) {
    if (fields[key] !== undefined && fields[key] !== written[key]) losses.push(lossAt([key], "unsupported_field", `a ${TARGET} response has no ${key}: ${JSON.stringify(fields[key])} is not kept`));
  }
  return { value: result as BedrockResponse, losses };
}

function bedrockUsage(usage: unknown, losses: Loss[]): Fields {
  if (!isRecord(usage)) {
    losses.push(lossAt(["usage"], "synthesized", `a ${TARGET} response requires usage and the response has ${usage === null ? "null" : "none"}: zero counts written`));
    return { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  }
  const count = (value: unknown) => (typeof value === "number" ? value : 0);
  const cached = isRecord(usage.input_tokens_details) ? count(usage.input_tokens_details.cached_tokens) : 0;
  const input = count(usage.input_tokens) - cached;
  const result: Fields = { inputTokens: input, outputTokens: count(usage.output_tokens), totalTokens: input + count(usage.output_tokens) };
  if (cached > 0) result.cacheReadInputTokens = cached;
  const reasoning = isRecord(usage.output_tokens_details) ? count(usage.output_tokens_details.reasoning_tokens) : 0;
  if (reasoning > 0) losses.push(lossAt(["usage", "output_tokens_details", "reasoning_tokens"], "unsupported_field", `${TARGET} usage does not count reasoning apart: ${reasoning} reasoning tokens are counted in outputTokens only`));
  return result;
}
