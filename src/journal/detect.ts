// Tells what a journal record is by its shape, never by the file it came from.
//
// | kind              | shape                                                          |
// |-------------------|----------------------------------------------------------------|
// | chat_chunk        | `object: "chat.completion.chunk"`, or Azure's filter chunk      |
// | chat_completion   | `object: "chat.completion"`                                     |
// | response          | `object: "response"` with `output`                              |
// | responses_event   | `type` starting with `response.` (a streaming event); `type`    |
// |                   | `error` with its error; an extension event: a prefixed `type`,  |
// |                   | a `sequence_number` and no `id` (an item has one; inside a      |
// |                   | stream, `continuesResponsesStream` takes it with one too)       |
// | exchange          | `{ request, response }`, both objects                           |
// | chat_request      | a `messages` array                                              |
// | responses_request | an `input` (string or array) or a `previous_response_id`        |
// | responses_item    | a string `type` naming an item, or a prefixed (extension) type; |
// |                   | `{ id }` alone is an item_reference                             |
// | chat_message      | a chat `role` and no `type`                                     |
// | unknown           | anything else                                                   |
//
// A record detected as one of the first six kinds that also has an item's `type`
// or a Chat `role` is of two kinds at once: `ambiguity` says so, and readers take
// it as an error on its line.

import { isPlainObject } from "../models/json-value.js";
import { OPENAI_ITEM_TYPES } from "../models/provider-item-types.js";

export type RecordKind =
  | "chat_chunk"
  | "chat_completion"
  | "response"
  | "responses_event"
  | "exchange"
  | "chat_request"
  | "responses_request"
  | "responses_item"
  | "chat_message"
  | "unknown";

const CHAT_ROLES = new Set(["system", "developer", "user", "assistant", "tool", "function"]);

/** Item types of the spec. */
export const PORTABLE_ITEM_TYPES = new Set(["message", "function_call", "function_call_output", "reasoning", "item_reference", "compaction"]);
/** Provider item types that arrive without their slug, in OpenAI's journals. */
export const UNPREFIXED_PROVIDER_ITEM_TYPES = OPENAI_ITEM_TYPES;

export { isPlainObject };

export function detectRecord(record: unknown): RecordKind {
  if (!isPlainObject(record)) return "unknown";
  const { object, type } = record;
  if (object === "chat.completion.chunk") return "chat_chunk";
  // Azure opens a chat stream with a filter chunk: `object: ""`, `id: ""`, `choices: []`.
  if (object === "" && Array.isArray(record.choices) && "prompt_filter_results" in record) return "chat_chunk";
  if (object === "chat.completion") return "chat_completion";
  if (object === "response" && Array.isArray(record.output)) return "response";
  if (typeof type === "string" && (type.startsWith("response.") || isErrorEvent(record) || isExtensionEvent(record))) return "responses_event";
  if (isPlainObject(record.request) && isPlainObject(record.response)) return "exchange";
  if (Array.isArray(record.messages)) return "chat_request";
  if (type === undefined && (typeof record.input === "string" || Array.isArray(record.input))) return "responses_request";
  if (namesItem(type)) return "responses_item";
  if (isChatRole(record.role) && type === undefined) {
    return isResponsesShapedMessage(record) ? "responses_item" : "chat_message";
  }
  if (typeof record.id === "string" && (type === undefined || type === null) && Object.keys(record).length <= 2) return "responses_item";
  return "unknown";
}

/**
 * Why a record cannot be read as the kind it was detected as, when it also has
 * the shape of an item or a Chat message: `{"type":"function_call", …,
 * "messages":[]}` is a request body with no message and a call at once. Read one
 * way, the other would go unseen, and a reader that dispatches on `type` or
 * `role` would see what the gate did not judge; so it is read neither way.
 */
export function ambiguity(record: unknown, kind: RecordKind): string | undefined {
  switch (kind) {
    case "chat_chunk":
    case "chat_completion":
    case "response":
    case "exchange":
    case "chat_request":
    case "responses_request": {
      const { type, role } = record as Record<string, unknown>;
      if (namesItem(type)) return `the record has the shape of a ${KIND_NAMES[kind]} and of a "${type}" item; it is read as neither`;
      if (isChatRole(role)) return `the record has the shape of a ${KIND_NAMES[kind]} and of a Chat ${role} message; it is read as neither`;
      return undefined;
    }
    case "responses_event":
    case "responses_item":
    case "chat_message":
    case "unknown":
      return undefined;
    default: {
      const unknownKind: never = kind;
      return unknownKind;
    }
  }
}

const KIND_NAMES = {
  chat_chunk: "chat.completion.chunk",
  chat_completion: "chat.completion",
  response: "response object",
  exchange: "logged {request, response} exchange",
  chat_request: "Chat request body",
  responses_request: "Open Responses request body",
} as const;

/** A `type` that makes a record an item: one of the spec's, a provider's without its slug, or a prefixed one. */
function namesItem(type: unknown): type is string {
  return typeof type === "string" && (PORTABLE_ITEM_TYPES.has(type) || UNPREFIXED_PROVIDER_ITEM_TYPES.has(type) || type.includes(":"));
}

/**
 * The stream's `error` event: the specification nests the error under `error`;
 * OpenAI writes its `code` and `message` at the top.
 */
function isErrorEvent(record: Record<string, unknown>): boolean {
  return record.type === "error" && (isPlainObject(record.error) || typeof record.message === "string" || typeof record.code === "string");
}

/**
 * An extension streaming event (`acme:trace_event`): the specification requires
 * its prefixed type and a `sequence_number`. An extension item must have an
 * `id`, an event need not: on its own, a record with an `id` is read as the item
 * it may be; inside an Open Responses stream it is one of the stream's events
 * (`StreamRecords` asks `continuesResponsesStream`).
 */
function isExtensionEvent(record: Record<string, unknown>): boolean {
  return continuesResponsesStream(record) && !("id" in record);
}

/** Whether a record read as an extension item is, inside an open Open Responses stream, one of its events. */
export function continuesResponsesStream(record: unknown): boolean {
  return isPlainObject(record) && typeof record.type === "string" && record.type.includes(":") && typeof record.sequence_number === "number";
}

function isChatRole(role: unknown): role is string {
  return typeof role === "string" && CHAT_ROLES.has(role);
}

/** A message without `type` whose parts are Open Responses parts (`input_text`…) is an item, not a chat message. */
function isResponsesShapedMessage(record: Record<string, unknown>): boolean {
  const { content } = record;
  if (!Array.isArray(content) || content.length === 0) return false;
  const first = content[0];
  return isPlainObject(first) && typeof first.type === "string" && /^(input_|output_)/.test(first.type);
}
