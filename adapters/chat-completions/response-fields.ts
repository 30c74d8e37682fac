// The fields the spec's response object (`ResponseResource`) requires, in its
// order, and what is written for those a chat.completion does not give: each one
// is reported `synthesized`, at its path in the response object, so that nothing
// in the output poses as something the completion said.
//
// | response field                        | from a chat.completion | when it has none              |
// |---------------------------------------|------------------------|-------------------------------|
// | id, created_at, model, output         | id, created, model, the choice | (always given)        |
// | object                                | "response": the kind   | (always given)                |
// | status, incomplete_details            | the finish_reason      | (always given)                |
// | usage                                 | usage                  | null, synthesized             |
// | service_tier                          | service_tier           | "default", synthesized        |
// | completed_at, previous_response_id, instructions, error, reasoning, max_output_tokens, max_tool_calls, safety_identifier, prompt_cache_key | never | null, synthesized |
// | tools, metadata                       | never                  | [], {}, synthesized           |
// | tool_choice, truncation, parallel_tool_calls, text, top_p, presence_penalty, frequency_penalty, top_logprobs, temperature, store, background | never | the spec's defaults, synthesized |
// Optional fields the completion does not give are left out.
import type { Loss } from "../../src/models/loss.js";
import { pointer } from "../../src/models/json-pointer.js";
import type { ResponseResource } from "../../src/models/open-responses.js";

type ResponseField = keyof ResponseResource & string;

/** The spec's required fields of a response object, in the order it lists them. */
export const RESPONSE_FIELDS = [
  "id",
  "object",
  "created_at",
  "completed_at",
  "status",
  "incomplete_details",
  "model",
  "previous_response_id",
  "instructions",
  "output",
  "error",
  "tools",
  "tool_choice",
  "truncation",
  "parallel_tool_calls",
  "text",
  "top_p",
  "presence_penalty",
  "frequency_penalty",
  "top_logprobs",
  "temperature",
  "reasoning",
  "usage",
  "max_output_tokens",
  "max_tool_calls",
  "store",
  "background",
  "service_tier",
  "metadata",
  "safety_identifier",
  "prompt_cache_key",
] as const satisfies readonly ResponseField[];

/** What is written for a required field the source does not give: null, empty, or the spec's default. */
export const SYNTHESIZED_RESPONSE_VALUES = {
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
  usage: null,
  max_output_tokens: null,
  max_tool_calls: null,
  store: false,
  background: false,
  service_tier: "default",
  metadata: {},
  safety_identifier: null,
  prompt_cache_key: null,
} as const satisfies Partial<Record<ResponseField, unknown>>;

/** A `synthesized` report entry: `path` points into the output, where the value was written. */
export function synthesizedAt(path: string, detail: string): Loss {
  return { path, code: "synthesized", detail };
}

/**
 * A response object with the fields `given` holds (undefined counts as not
 * given), in the spec's order, and every other required field synthesized and
 * reported. `source` names the record the given fields come from, for the detail.
 */
export function completeResponse(given: Partial<Record<ResponseField, unknown>>, source = "chat.completion"): { value: ResponseResource; losses: Loss[] } {
  const response: Record<string, unknown> = {};
  const losses: Loss[] = [];
  for (const field of RESPONSE_FIELDS) {
    if (given[field] !== undefined) {
      response[field] = given[field];
      continue;
    }
    if (!(field in SYNTHESIZED_RESPONSE_VALUES)) throw new TypeError(`a response object needs its ${field}, which only the source can give`);
    const value = SYNTHESIZED_RESPONSE_VALUES[field as keyof typeof SYNTHESIZED_RESPONSE_VALUES];
    response[field] = structuredClone(value);
    losses.push(synthesizedAt(pointer(field), `the response object requires ${field} and the ${source} has none: ${JSON.stringify(value)} written`));
  }
  // Fields beyond the spec's required ones, kept after them.
  for (const [field, value] of Object.entries(given)) if (!(field in response) && value !== undefined) response[field] = value;
  return { value: response as ResponseResource, losses };
}
