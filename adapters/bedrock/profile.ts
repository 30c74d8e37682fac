// Bedrock Converse as a replay target: what `gate --for bedrock` checks and
// `normalize --for bedrock` rewrites toward. Data only; the gate is handed it.
import type { TargetProfile } from "../../src/models/target-profile.js";

const CONVERSE_API = "Amazon Bedrock API reference: ToolSpecification, ToolUseBlock, ToolResultBlock, ContentBlock, ReasoningContentBlock";

export const bedrockProfile: TargetProfile = {
  name: "bedrock",
  envelope: "bedrock",
  slug: "bedrock",
  callIds: {
    pattern: "^[a-zA-Z0-9_-]{1,64}$",
    rule: "a toolUseId is 1 to 64 letters, digits, _ and -",
    source: CONVERSE_API,
  },
  toolNames: {
    pattern: "^[a-zA-Z0-9_-]{1,64}$",
    rule: "a tool's name (ToolSpecification, ToolUseBlock) is 1 to 64 letters, digits, _ and -",
    source: CONVERSE_API,
  },
  turns: {
    laterSystem: { rule: "the system prompt is the request's `system`; its messages are user and assistant turns", source: CONVERSE_API },
    userFirst: {
      rule: "a conversation starts with a user message",
      error: "A conversation must start with a user message. Try again with a conversation that starts with a user message.",
      source: CONVERSE_API,
    },
  },
  reasoning: {
    family: "bedrock",
    text: "read",
    foreign: { rule: "a reasoningText signature and redactedContent go back only to the model that wrote them", source: CONVERSE_API },
  },
  content: {
    emptyText: {
      accepted: false,
      blank: true,
      rule: "a text block is not blank",
      error: "The text field in the ContentBlock object at messages.0.content.0 is blank. Add text to the text field, and try again.",
      source: CONVERSE_API,
    },
    toolResultParts: { accepted: true, rule: "a toolResult's content may hold image, document and video blocks", source: CONVERSE_API },
  },
};
