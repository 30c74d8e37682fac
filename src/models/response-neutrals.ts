// What a provider's response cannot tell of the fields the spec requires of a
// response object (settings of the request, mostly): the value each gets when a
// provider response becomes one, and the value the way back takes as "nothing
// said", reporting a field only when it differs. One table for every envelope,
// so that a response converted from any of them means the same.
//
// A value written here poses as nothing the source said: `completeResponse`
// reports each one `synthesized`, at its path in the response object.
import type { Loss } from "./loss.js";
import { pointer } from "./json-pointer.js";
import type { ResponseResource } from "./open-responses.js";

type ResponseField = keyof ResponseResource & string;

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
  service_tier: "default",
  metadata: {},
  safety_identifier: null,
  prompt_cache_key: null,
} as const satisfies Partial<Record<ResponseField, unknown>>;

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

/** What a required field the source does not give gets: its neutral value, or null for usage. */
export const SYNTHESIZED_RESPONSE_VALUES = { ...RESPONSE_NEUTRALS, usage: null } as const;

/**
 * Each field `SYNTHESIZED_RESPONSE_VALUES` fills, with its pointer and its value's
 * JSON text worked out once: every response of a provider envelope leaves out
 * twenty of them, and converting a journal writes each one per response.
 */
const SYNTHESIZED_FIELDS: ReadonlyMap<string, { path: string; text: string; value: unknown; object: boolean }> = new Map(
  Object.entries(SYNTHESIZED_RESPONSE_VALUES).map(([field, value]) => [field, { path: pointer(field), text: JSON.stringify(value), value, object: value !== null && typeof value === "object" }]),
);

/**
 * A response object with the fields `given` holds (undefined counts as not
 * given), in the spec's order, and every other required field synthesized and
 * reported. `source` names the record the given fields come from, for the
 * detail. Fields beyond the spec's required ones follow, in the order given.
 */
export function completeResponse(given: Partial<Record<ResponseField, unknown>> & Record<string, unknown>, source: string): { value: ResponseResource; losses: Loss[] } {
  const response: Record<string, unknown> = {};
  const losses: Loss[] = [];
  for (const field of RESPONSE_FIELDS) {
    if (given[field] !== undefined) {
      response[field] = given[field];
      continue;
    }
    const synthesized = SYNTHESIZED_FIELDS.get(field);
    if (synthesized === undefined) throw new TypeError(`a response object needs its ${field}, which only the source can give`);
    // An object value is written afresh each time: a caller may change the response it gets.
    response[field] = synthesized.object ? JSON.parse(synthesized.text) : synthesized.value;
    losses.push({ path: synthesized.path, code: "synthesized", detail: `the response object requires ${field} and the ${source} has none: ${synthesized.text} written` });
  }
  for (const [field, value] of Object.entries(given)) if (!(field in response) && value !== undefined) response[field] = value;
  return { value: response as ResponseResource, losses };
}

const RESPONSE_FIELD_PATHS = new Set(RESPONSE_FIELDS.map((field) => pointer(field)));

/**
 * Whether a loss reports a value written into the response object itself (a
 * required field, its usage counts, or the whole response's: path ""), not
 * into an item: what a reader of the items alone never sees.
 */
export function synthesizesResponseField(loss: Pick<Loss, "code" | "path">): boolean {
  return loss.code === "synthesized" && (loss.path === "" || RESPONSE_FIELD_PATHS.has(loss.path) || loss.path.startsWith("/usage/"));
}
