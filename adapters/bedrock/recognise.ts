// Tells a Bedrock Converse record by its shape, never by a model name or a file
// name. Bedrock's content blocks are objects of one member naming their kind
// (`{text}`, `{toolUse}`), where Chat, Anthropic and Open Responses parts all
// carry a `type`; that is what sets a Bedrock record apart.
//
// | recogniser             | shape                                                                   |
// |------------------------|-------------------------------------------------------------------------|
// | isBedrockMessage       | `role` (user, assistant) and `content`, a non-empty array of blocks of  |
// |                        |   one member each, a kind Bedrock has (text, image, document, toolUse,  |
// |                        |   toolResult, reasoningContent, cachePoint, guardContent…); no `type`   |
// |                        |   (other keys a logger added are reported)                              |
// | isBedrockRequestBody   | a `messages` array of such messages and no `input`, `model` or `object`; |
// |                        |   `system`, when present, an array of such blocks. With no message, a   |
// |                        |   sign only Converse has: a system block, or a key of its own           |
// |                        |   (`inferenceConfig`, `toolConfig`…)                                     |
// | isBedrockResponse      | `output.message` such a message of role assistant (its content may be   |
// |                        |   empty: stopped before any block), and a `stopReason`                  |
// | isBedrockStreamEvent   | an object of one member, a ConverseStream event name, holding an object |
// |                        |   (`contentBlockIndex` a number where the event has one)               |
import { blockKind, isRecord } from "./fields.js";

const BLOCK_KINDS = new Set(["text", "image", "document", "video", "audio", "toolUse", "toolResult", "reasoningContent", "cachePoint", "guardContent", "citationsContent", "searchResult"]);
const INDEXED = new Set(["contentBlockStart", "contentBlockDelta", "contentBlockStop"]);
const EVENTS = new Set(["messageStart", "messageStop", "metadata", ...INDEXED]);

export function isBedrockMessage(record: unknown): boolean {
  if (!isRecord(record) || (record.role !== "user" && record.role !== "assistant") || !Array.isArray(record.content)) return false;
  // Keys a logger adds beside role and content do not make it another envelope's (they are reported), an item type does.
  if ("type" in record) return false;
  return record.content.length > 0 && record.content.every(isBedrockBlock);
}

export function isBedrockRequestBody(record: unknown): boolean {
  if (!isRecord(record) || !Array.isArray(record.messages) || "input" in record || "model" in record || "object" in record) return false;
  if (record.system !== undefined && !(Array.isArray(record.system) && record.system.every(isBedrockBlock))) return false;
  if (record.messages.length > 0) return record.messages.every(isBedrockMessage);
  // A body with no message yet (a system prompt and settings, logged before the
  // first turn) is told by what only Converse writes; read as Chat, its system
  // blocks and toolConfig would be fields Chat does not have.
  return (Array.isArray(record.system) && record.system.length > 0) || BODY_KEYS.some((key) => key in record);
}

/** Top-level keys of a Converse request body that no other envelope's body has. */
const BODY_KEYS = ["inferenceConfig", "toolConfig", "guardrailConfig", "additionalModelRequestFields", "additionalModelResponseFieldPaths", "promptVariables", "performanceConfig", "requestMetadata"];

export function isBedrockResponse(record: unknown): boolean {
  if (!isRecord(record) || !isRecord(record.output) || !("stopReason" in record)) return false;
  const message = record.output.message;
  // A response stopped before any block (a filter, a guardrail) has an empty content; no other envelope has `output.message`.
  const stoppedEmpty = isRecord(message) && Object.keys(message).every((key) => key === "role" || key === "content") && Array.isArray(message.content) && message.content.length === 0;
  return (isBedrockMessage(message) || stoppedEmpty) && isRecord(message) && message.role === "assistant";
}

export function isBedrockStreamEvent(record: unknown): boolean {
  const name = isRecord(record) ? blockKind(record) : undefined;
  if (!isRecord(record) || name === undefined || !EVENTS.has(name) || !isRecord(record[name])) return false;
  return !INDEXED.has(name) || typeof (record[name] as Record<string, unknown>).contentBlockIndex === "number";
}

/** Members that make an event's body a call or a message: such a record is no skipped event, and is gated as it is. */
const CALL_MEMBERS = ["toolUse", "toolUseId", "name", "input", "arguments", "content", "role", "text", "call_id"];

/** An event of a name ConverseStream does not have (yet): an object of one camelCase member that holds an object, as every event is, and no call or message. */
export function isUnknownBedrockEvent(record: unknown): boolean {
  if (!isRecord(record)) return false;
  const names = Object.keys(record);
  const body = record[names[0]!];
  return names.length === 1 && /^[a-z][A-Za-z]*$/.test(names[0]!) && isRecord(body) && !CALL_MEMBERS.some((member) => member in body) && !isBedrockStreamEvent(record);
}

function isBedrockBlock(block: unknown): boolean {
  const kind = isRecord(block) ? blockKind(block) : undefined;
  return kind !== undefined && BLOCK_KINDS.has(kind);
}
