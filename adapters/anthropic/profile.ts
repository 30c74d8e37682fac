// Anthropic Messages as a replay target: what `gate --for anthropic` checks and
// `normalize --for anthropic` rewrites toward. Data only; the gate is handed it.
import type { TargetProfile } from "../../src/models/target-profile.js";

const MESSAGES_API = "Anthropic Messages API reference (tool_use.id, content blocks, extended thinking)";

export const anthropicProfile: TargetProfile = {
  name: "anthropic",
  envelope: "anthropic",
  slug: "anthropic",
  callIds: {
    pattern: "^[a-zA-Z0-9_-]+$",
    rule: "a tool_use id (and the tool_use_id of its tool_result) is letters, digits, _ and - only",
    error: "messages.1.content.0.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'",
    source: MESSAGES_API,
  },
  toolNames: {
    pattern: "^[a-zA-Z0-9_-]{1,128}$",
    rule: "a tool's name is 1 to 128 letters, digits, _ and -",
    error: "tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'",
    source: "Anthropic Messages API: the error it answers to a tool's name",
  },
  turns: {
    laterSystem: { rule: "the system prompt is the request's `system`; its messages are user and assistant turns only", source: MESSAGES_API },
  },
  reasoning: {
    family: "anthropic",
    text: "refused",
    foreign: { rule: "a thinking block's signature is Anthropic's own, bound to the model family that wrote it", error: "Invalid signature in thinking block", source: MESSAGES_API },
    refused: { rule: "a thinking block is sent back only with the signature Anthropic gave it", error: "Invalid signature in thinking block", source: MESSAGES_API },
  },
  content: {
    emptyText: {
      accepted: false,
      blank: true,
      rule: "a text block holds at least one character other than white space",
      error: "messages: text content blocks must be non-empty",
      source: MESSAGES_API,
    },
    toolResultParts: { accepted: true, rule: "a tool_result's content may hold image and document blocks", source: MESSAGES_API },
  },
};
