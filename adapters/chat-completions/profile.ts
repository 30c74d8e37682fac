// Chat Completions and its OpenAI-compatible dialects as replay targets: what
// `gate --for` checks and `normalize --for` rewrites toward. Data only; the gate
// is handed it.
import type { TargetProfile } from "../../src/models/target-profile.js";

const CHAT_API = "OpenAI Chat Completions API reference: messages, tool messages";
const TOOL_PARTS = { accepted: false, rule: "a tool message holds text parts only; an image or a file goes in a user message" };
const EMPTY_TEXT = { accepted: true, rule: "an assistant message with tool calls may have empty content", source: CHAT_API };
const FUNCTION_NAMES = { pattern: "^[a-zA-Z0-9_-]{1,64}$", rule: "a function's name is 1 to 64 letters, digits, _ and -" };
const DEEPSEEK_API = "DeepSeek API reference: chat completion messages";
const NO_OPAQUE = { rule: "a Chat message has no field for another provider's signature or encrypted reasoning", source: CHAT_API };

export const chatCompletionsProfile: TargetProfile = {
  name: "chat-completions",
  envelope: "chat",
  toolNames: { ...FUNCTION_NAMES, source: CHAT_API },
  reasoning: { text: "dropped", foreign: NO_OPAQUE },
  content: {
    emptyText: EMPTY_TEXT,
    toolResultParts: {
      ...TOOL_PARTS,
      errors: { input_image: "Invalid 'messages[3]'. Image URLs are only allowed for messages with role 'user', but this message with role 'tool' contains an image URL." },
      source: CHAT_API,
    },
  },
};

export const deepseekProfile: TargetProfile = {
  name: "deepseek",
  envelope: "chat",
  toolNames: { ...FUNCTION_NAMES, source: "DeepSeek API reference: tools, function.name" },
  reasoning: {
    text: "read",
    chatField: "reasoning_content",
    foreign: NO_OPAQUE,
    requiredWithCalls: {
      rule: "in thinking mode, an assistant message with tool calls carries back the reasoning_content the model wrote with them",
      error: "The `reasoning_content` in the thinking mode must be passed back to the API.",
      source: "DeepSeek API docs: thinking mode, tool calls",
    },
  },
  content: {
    emptyText: EMPTY_TEXT,
    media: {
      accepted: false,
      rule: "a message's content is text: no image, file or audio part, in any role",
      error: "Failed to deserialize the JSON body into the target type: messages[1]: unknown variant `image_url`, expected `text`",
      source: DEEPSEEK_API,
    },
    toolResultParts: { accepted: false, rule: "a tool message holds text parts only", source: DEEPSEEK_API },
  },
};

export const mistralProfile: TargetProfile = {
  name: "mistral",
  envelope: "chat",
  callIds: {
    pattern: "^[a-zA-Z0-9]{9}$",
    rule: "a tool call id is exactly 9 letters or digits",
    error: "Tool call id was call_abc123 but must be a-z, A-Z, 0-9, with a length of 9.",
    source: "Mistral chat completion API: tool_calls[].id",
  },
  toolNames: {
    ...FUNCTION_NAMES,
    error: "Function name was weather.get but must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64.",
    source: "Mistral chat completion API: function.name",
  },
  turns: {
    laterSystem: {
      afterAnswer: true,
      rule: "a system message does not follow an assistant message or a tool message (Mistral answers \"Unexpected role 'system' after role '…'\", naming the role before it)",
      source: "Mistral chat completion API: the order of messages",
    },
  },
  reasoning: {
    text: "refused",
    foreign: NO_OPAQUE,
    refused: { rule: "an assistant message carries no reasoning input", source: "Mistral chat completion API: assistant messages" },
  },
  content: { emptyText: EMPTY_TEXT, toolResultParts: { ...TOOL_PARTS, source: "Mistral chat completion API: tool messages" } },
};
