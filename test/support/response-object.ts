// A response object as a converted chat.completion gives it: every field a
// completion cannot tell holds the specification's neutral value, written out
// here on purpose rather than read from the converter.
import type { ResponseResource } from "../../src/models/open-responses.js";

export function responseWith(fields: { id: string; created_at: number; model: string; output: unknown[]; usage: unknown } & Record<string, unknown>): ResponseResource {
  return {
    id: fields.id,
    object: "response",
    created_at: fields.created_at,
    completed_at: null,
    status: "completed",
    incomplete_details: null,
    model: fields.model,
    previous_response_id: null,
    instructions: null,
    output: fields.output,
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
    usage: fields.usage,
    max_output_tokens: null,
    max_tool_calls: null,
    store: false,
    background: false,
    service_tier: "default",
    metadata: {},
    safety_identifier: null,
    prompt_cache_key: null,
    ...fields,
  } as ResponseResource;
}
