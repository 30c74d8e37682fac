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
// |                         |   one sign only Anthropic gives (`system`, `stop_sequences`, an object  |
// |                         |   tool_choice of type auto/any/tool/none, a tool with input_schema or a |
// |                         |   dated server type, structured output's output_config or               |
// |                         |   output_format, the anthropic_version that Bedrock's InvokeModel and   |
// |                         |   Vertex AI take in the body, container, context_management,            |
// |                         |   mcp_servers, service_tier "standard_only", a message as above) and    |
// |                         |   none only Chat gives (a tool, function or developer message,          |
// |                         |   tool_calls, a `function` tool, Chat-only keys). Of `thinking`, only   |
// |                         |   the values the Messages API alone defines are a sign (adaptive,       |
// |                         |   enabled with budget_tokens): OpenAI-compatible providers take         |
// |                         |   {"type":"enabled"} without a budget, or "disabled", in a Chat body    |
// |                         |   too; `top_k` is no sign (vLLM takes it)                               |
// | bodyReadAsChatOtherwise | why a body that no sign tells from a Chat body would be converted      |
// |                         |   otherwise as Anthropic's (thinking "disabled", top_k): detection      |
// |                         |   reads it as neither                                                   |
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
/** Keys of an Anthropic body that OpenAI-compatible providers take in a Chat body too, and that Chat's converter keeps no place for: with a value both take, they tell nothing. */
const SHARED_BODY_KEYS = ["thinking", "top_k"];
/** Keys of an Anthropic body that no Chat body has (code execution's container, context editing, MCP connectors). */
const ANTHROPIC_BODY_KEYS = ["container", "context_management", "mcp_servers"];

export function isAnthropicMessage(record: unknown): boolean {
  if (!isRecord(record) || (record.role !== "user" && record.role !== "assistant" && record.role !== "system") || !Array.isArray(record.content)) return false;
  // Keys a logger adds beside role and content do not make it another envelope's,
  // but an item type or a Chat message's own keys do.
  if ("type" in record || CHAT_MESSAGE_KEYS.some((key) => key in record)) return false;
  return record.content.some(isAnthropicBlock);
}

export function isAnthropicRequestBody(record: unknown): boolean {
  return mayBeAnthropicBody(record) && hasAnthropicSign(record as Fields);
}

/**
 * Why a request body that no sign tells from a Chat body would be converted
 * otherwise read as Anthropic's, or undefined: it holds a key both take that
 * Chat's converter has no place for (`thinking`, `top_k`). Taken for either, the
 * other's reading would be lost unsaid.
 */
export function bodyReadAsChatOtherwise(record: unknown): string | undefined {
  if (!isRecord(record) || !SHARED_BODY_KEYS.some((key) => key in record) || !mayBeAnthropicBody(record) || hasAnthropicSign(record)) return undefined;
  // A thinking Anthropic refuses (GLM's {"type":"enabled"} without a budget) is a Chat provider's alone.
  if ("thinking" in record && !(isRecord(record.thinking) && record.thinking.type === "disabled")) return undefined;
  const keys = SHARED_BODY_KEYS.filter((key) => key in record).join(" and ");
  return `the request body has ${keys}, which Anthropic and OpenAI-compatible Chat providers both take, and no field only one of them has: read as an Anthropic body it keeps ${keys}, read as a Chat body it does not; it is read as neither`;
}

/** A thinking setting only the Messages API defines: enabled with a budget, or adaptive. */
function isOwnThinking(thinking: unknown): boolean {
  return isRecord(thinking) && (thinking.type === "adaptive" || (thinking.type === "enabled" && typeof thinking.budget_tokens === "number"));
}

/** No sign only Chat, an item or a Bedrock body gives: the body may be Anthropic's. */
function mayBeAnthropicBody(record: unknown): boolean {
  if (!isRecord(record) || !Array.isArray(record.messages)) return false;
  if ("input" in record || "object" in record || "type" in record || "role" in record) return false;
  if (CHAT_BODY_KEYS.some((key) => key in record)) return false;
  const tools = Array.isArray(record.tools) ? record.tools : [];
  if (tools.some((tool) => isRecord(tool) && ("function" in tool || tool.type === "function"))) return false;
  if (record.messages.some((message) => isRecord(message) && (CHAT_ROLES.has(String(message.role)) || CHAT_MESSAGE_KEYS.some((key) => key in message)))) return false;
  // Every Anthropic block names its type; Bedrock Converse writes blocks keyed by
  // their one member ({"text": …}, {"toolUse": …}) in the same places.
  const untyped = (blocks: unknown) => Array.isArray(blocks) && blocks.some((block) => !isRecord(block) || typeof block.type !== "string");
  return !untyped(record.system) && !record.messages.some((message) => isRecord(message) && untyped(message.content));
}

/** A field or value only an Anthropic body has. */
function hasAnthropicSign(record: Fields): boolean {
  const tools = Array.isArray(record.tools) ? record.tools : [];
  const choice = record.tool_choice;
  return (
    "system" in record ||
    Array.isArray(record.stop_sequences) ||
    ANTHROPIC_BODY_KEYS.some((key) => key in record) ||
    // A thinking value only the Messages API defines: OpenAI-compatible providers
    // (DeepSeek, GLM, Kimi) write {"type":"enabled"} without a budget, or "disabled".
    isOwnThinking(record.thinking) ||
    // Chat's tiers are auto, default, flex, scale and priority.
    record.service_tier === "standard_only" ||
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
    (record.messages as unknown[]).some(isAnthropicMessage)
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
