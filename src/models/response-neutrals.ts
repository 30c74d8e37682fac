// What a provider's response cannot tell of the fields the spec requires of a
// response object (settings of the request, mostly): the value each gets when a
// provider response becomes one, and the value the way back takes as "nothing
// said", reporting a field only when it differs. One table for every envelope,
// so that a response converted from any of them means the same.
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
} as const;
