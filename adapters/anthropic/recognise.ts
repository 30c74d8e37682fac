// Tells an Anthropic record by its shape, never by a model name or a file name.
// A record another envelope could have written is never claimed: a Chat message
// `{role, content}` of text alone, or a Chat body `{model, max_tokens, messages}`
// whose messages are such, is left to Chat, which converts it the same way.
//
// | recogniser              | shape                                                                  |
// |-------------------------|------------------------------------------------------------------------|
// | isAnthropicMessage      | `role` (user, assistant, system) and `content`, an array holding a      |
// |                         |   block of a type only Anthropic has (tool_use, tool_result, thinking,  |
// |                         |   image, document, server tool blocks…); no `type` and no key only a    |
// |                         |   Chat message has (other keys a logger added are reported)             |
// | isAnthropicRequestBody  | a `messages` array and no `input`, `object`, `type` or `role`; at least |
// |                         |   one sign only Anthropic gives (`system`, `stop_sequences`, thinking   |
// |                         |   with budget_tokens, an object tool_choice of type auto/any/tool/none, |
// |                         |   a tool with input_schema or a dated server type, structured output's  |
// |                         |   output_config or output_format, the anthropic_version that Bedrock's  |
// |                         |   InvokeModel and Vertex AI take in the body, a message as above)       |
// |                         |   and none only Chat gives (a tool, function or developer message,      |
// |                         |   tool_calls, a `function` tool, Chat-only keys)                        |
// | isAnthropicResponse     | `type: "message"`, `role: "assistant"`, a `content` array, a string     |
// |                         |   `model` and a `stop_reason` key: an Open Responses message item has   |
// |                         |   neither of the last two                                               |
// | isAnthropicStreamEvent  | message_start (with a message), content_block_start/delta/stop (with an |
// |                         |   index), message_delta (with a delta), message_stop, ping, error (with |
// |                         |   an error object and no sequence_number, unlike the Responses error)  |
import { isRecord, type Fields } from "./fields.js";

const ANTHROPIC_BLOCKS = new Set(["tool_use", "tool_result", "thinking", "redacted_thinking", "image", "document", "server_tool_use", "search_result", "container_upload"]);
const CHAT_ROLES = new Set(["tool", "function", "developer"]);
const CHAT_MESSAGE_KEYS = ["tool_calls", "tool_call_id", "function_call", "name", "refusal", "audio", "annotations"];
const CHAT_BODY_KEYS = [
  "response_format",
  "n",
  "logit_bias",
  "functions",
  "function_call",
  "logprobs",
  "top_logprobs",
  "max_completion_tokens",
  "reasoning_effort",
  "modalities",
  "audio",
  "prediction",
  "stop",
  "presence_penalty",
  "frequency_penalty",
  "user",
  "stream_options",
  "parallel_tool_calls",
  "store",
  "verbosity",
  "web_search_options",
  "seed",
];
const TOOL_CHOICE_TYPES = new Set(["auto", "any", "tool", "none"]);

export function isAnthropicMessage(record: unknown): boolean {
  if (!isRecord(record) || (record.role !== "user" && record.role !== "assistant" && record.role !== "system") || !Array.isArray(record.content)) return false;
  // Keys a logger adds beside role and content do not make it another envelope's,
  // but an item type or a Chat message's own keys do.
  if ("type" in record || CHAT_MESSAGE_KEYS.some((key) => key in record)) return false;
  return record.content.some(isAnthropicBlock);
}

export function isAnthropicRequestBody(record: unknown): boolean {
  if (!isRecord(record) || !Array.isArray(record.messages)) return false;
  if ("input" in record || "object" in record || "type" in record || "role" in record) return false;
  if (CHAT_BODY_KEYS.some((key) => key in record)) return false;
  const tools = Array.isArray(record.tools) ? record.tools : [];
  if (tools.some((tool) => isRecord(tool) && ("function" in tool || tool.type === "function"))) return false;
  if (record.messages.some((message) => isRecord(message) && (CHAT_ROLES.has(String(message.role)) || CHAT_MESSAGE_KEYS.some((key) => key in message)))) return false;
  // Every Anthropic block names its type; Bedrock Converse writes blocks keyed by
  // their one member ({"text": …}, {"toolUse": …}) in the same places.
  const untyped = (blocks: unknown) => Array.isArray(blocks) && blocks.some((block) => !isRecord(block) || typeof block.type !== "string");
  if (untyped(record.system) || record.messages.some((message) => isRecord(message) && untyped(message.content))) return false;
  const choice = record.tool_choice;
  return (
    "system" in record ||
    Array.isArray(record.stop_sequences) ||
    (isRecord(record.thinking) && typeof record.thinking.budget_tokens === "number") ||
    // Anthropic's structured output (output_format in beta, output_config since):
    // Chat asks for the same with response_format, so a body of plain messages
    // that writes one of them is Anthropic's, and taken for Chat it lost it.
    isRecord(record.output_config) ||
    isRecord(record.output_format) ||
    // Bedrock's InvokeModel and Vertex AI name the model in the URL and the API
    // version in the body ("bedrock-2023-05-31", "vertex-2023-10-16").
    typeof record.anthropic_version === "string" ||
    (isRecord(choice) && TOOL_CHOICE_TYPES.has(String(choice.type))) ||
    tools.some((tool) => isRecord(tool) && ("input_schema" in tool || (typeof tool.type === "string" && /_\d{8}$/.test(tool.type)))) ||
    record.messages.some(isAnthropicMessage)
  );
}

export function isAnthropicResponse(record: unknown): boolean {
  if (!isRecord(record) || record.type !== "message" || record.role !== "assistant" || "object" in record) return false;
  if (!Array.isArray(record.content) || typeof record.model !== "string" || !("stop_reason" in record)) return false;
  return record.content.every((block) => isRecord(block) && typeof block.type === "string" && !/^(input_|output_)/.test(block.type));
}

export function isAnthropicStreamEvent(record: unknown): boolean {
  if (!isRecord(record)) return false;
  switch (record.type) {
    case "message_start":
      return isRecord(record.message) && record.message.type === "message";
    case "content_block_start":
      return isIndex(record.index) && isRecord(record.content_block);
    case "content_block_delta":
      return isIndex(record.index) && isRecord(record.delta);
    case "content_block_stop":
      return isIndex(record.index);
    case "message_delta":
      return isRecord(record.delta);
    case "message_stop":
    case "ping":
      return true;
    case "error":
      return isRecord(record.error) && !("sequence_number" in record);
    default:
      return false;
  }
}

/**
 * An event of a type the Messages stream does not have (yet): Anthropic says new
 * event types may come and are to be skipped. Only a bare snake_case type that
 * no other record here has: inside an open stream, nothing else it can be.
 */
/** Members that make a record a message, an item or a call of some envelope: such a record is no skipped event, and is gated as it is. */
const CONTENT_MEMBERS = ["role", "object", "id", "call_id", "name", "arguments", "input", "content", "tool_calls", "function", "status", "output"];

export function isUnknownAnthropicEvent(record: unknown): boolean {
  return isRecord(record) && typeof record.type === "string" && /^[a-z]+(?:_[a-z]+)*$/.test(record.type) && !CONTENT_MEMBERS.some((member) => member in record) && !isAnthropicStreamEvent(record);
}

function isAnthropicBlock(block: unknown): boolean {
  if (!isRecord(block) || typeof block.type !== "string") return false;
  return ANTHROPIC_BLOCKS.has(block.type) || /^[a-z_]+_tool_result$/.test(block.type) || (block.type === "text" && hasCitations(block));
}

/** Anthropic's citations on a text block are a list of located quotes; Chat's are message annotations. */
function hasCitations(block: Fields): boolean {
  return Array.isArray(block.citations) && block.citations.some((citation) => isRecord(citation) && typeof citation.cited_text === "string");
}

function isIndex(value: unknown): boolean {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}
