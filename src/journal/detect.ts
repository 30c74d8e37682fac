// Tells what a journal record is by its shape, never by the file it came from.
//
// | kind              | shape                                                          |
// |-------------------|----------------------------------------------------------------|
// | chat_chunk        | `object: "chat.completion.chunk"`, Azure's filter chunk, or     |
// |                   | Perplexity's last chunk (`object: "chat.completion.done"`)      |
// | chat_completion   | `object: "chat.completion"`                                     |
// | response          | `object: "response"` with `output`, or the compacted response   |
// |                   | of `/responses/compact` (`object: "response.compaction"`)       |
// | envelope_response | a response of a registered envelope (Anthropic `type: "message"`, |
// |                   | asked before the item rule, which would take it for a message)  |
// | responses_event   | `type` starting with `response.` (a streaming event); `type`    |
// |                   | `error` with its error; an extension event: a prefixed `type`,  |
// |                   | a `sequence_number` and no `id` (an item has one; inside a      |
// |                   | stream, `continuesResponsesStream` takes it with one too)       |
// | envelope_event    | a stream event of a registered envelope                         |
// | exchange          | `{ request, response }`, both objects                           |
// | envelope_request  | a request body of a registered envelope: asked before the Chat  |
// |                   | body rule; a body both could have written stays Chat (the       |
// |                   | recognisers leave it: both give the same items)                 |
// | chat_request      | a `messages` array                                              |
// | responses_request | an `input` (string or array) or a `previous_response_id`, or a  |
// |                   | stored `prompt` (`{ id, version?, variables? }`) in their place |
// | responses_item    | a string `type` naming an item, or a prefixed (extension) type; |
// |                   | `{ id }` alone is an item_reference                             |
// | envelope_message  | a message of a registered envelope, asked before the Chat rule  |
// | chat_message      | a chat `role` and no `type`                                     |
// | unknown           | anything else                                                   |
//
// The registered envelopes (adapters/index.ts) are asked in its RECOGNITION_ORDER;
// `detectEnvelopeRecord` also says which one claimed the record.
//
// A record detected as any kind but an item, a Chat message or a Responses event
// that also has an item's `type` or a Chat `role` is of two kinds at once (a
// registered envelope's message and response keep the role and type that are
// their own): `ambiguity` says so, and readers take it as an error on its line.

import { isDeepStrictEqual } from "node:util";
import { ENVELOPES, RECOGNITION_ORDER, type AdapterName } from "../../adapters/index.js";
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
  | "envelope_message"
  | "envelope_request"
  | "envelope_response"
  | "envelope_event"
  | "unknown";

/** A record's kind, and for the kinds of a registered envelope, which envelope. */
export interface DetectedRecord {
  kind: RecordKind;
  envelope?: AdapterName;
}

const ADAPTERS = RECOGNITION_ORDER.map((name) => ENVELOPES[name]);

type Recogniser = "message" | "requestBody" | "response" | "streamEvent";

interface Claimant {
  name: AdapterName;
  claims: (record: unknown) => boolean;
}

/**
 * Each recogniser's claimants in recognition order, taken out of the descriptors
 * once: every record of a journal asks up to twelve of them, and looking each up
 * by name on every record cost more than most of the answers.
 */
function claimants(which: Recogniser): readonly Claimant[] {
  // A recogniser is a plain function of the record; taken as it is, the call can be inlined, where a bound one cannot.
  return ADAPTERS.map((adapter) => ({ name: adapter.name as AdapterName, claims: adapter.recognise[which] }));
}

const RESPONSE_CLAIMANTS = claimants("response");
const STREAM_EVENT_CLAIMANTS = claimants("streamEvent");
const REQUEST_BODY_CLAIMANTS = claimants("requestBody");
const MESSAGE_CLAIMANTS = claimants("message");

/** The first registered envelope whose recogniser claims the record. */
function claimedBy(record: unknown, claimantsOf: readonly Claimant[]): AdapterName | undefined {
  for (let i = 0; i < claimantsOf.length; i++) if (claimantsOf[i]!.claims(record)) return claimantsOf[i]!.name;
  return undefined;
}

/** The answers that name no envelope, made once: detection runs on every record and its callers only read them. */
const DETECTED: { readonly [Kind in RecordKind]: Readonly<DetectedRecord> } = {
  chat_chunk: { kind: "chat_chunk" },
  chat_completion: { kind: "chat_completion" },
  response: { kind: "response" },
  responses_event: { kind: "responses_event" },
  exchange: { kind: "exchange" },
  chat_request: { kind: "chat_request" },
  responses_request: { kind: "responses_request" },
  responses_item: { kind: "responses_item" },
  chat_message: { kind: "chat_message" },
  envelope_message: { kind: "envelope_message" },
  envelope_request: { kind: "envelope_request" },
  envelope_response: { kind: "envelope_response" },
  envelope_event: { kind: "envelope_event" },
  unknown: { kind: "unknown" },
};

/** Whether the record is a stream event of `envelope`: a stream of it is open, and it takes the record. */
export function continuesEnvelopeStream(record: unknown, envelope: string): boolean {
  return Object.hasOwn(ENVELOPES, envelope) && ENVELOPES[envelope as AdapterName].recognise.streamEvent(record);
}

const CHAT_ROLES = new Set(["system", "developer", "user", "assistant", "tool", "function"]);

/** Item types of the spec. */
export const PORTABLE_ITEM_TYPES = new Set(["message", "function_call", "function_call_output", "reasoning", "item_reference", "compaction"]);
/** Provider item types that arrive without their slug, in OpenAI's journals. */
export const UNPREFIXED_PROVIDER_ITEM_TYPES = OPENAI_ITEM_TYPES;

export { isPlainObject };

export function detectRecord(record: unknown): RecordKind {
  return detectEnvelopeRecord(record).kind;
}

export function detectEnvelopeRecord(record: unknown): DetectedRecord {
  if (!isPlainObject(record)) return DETECTED.unknown;
  const { object, type } = record;
  if (object === "chat.completion.chunk") return DETECTED.chat_chunk;
  // Perplexity ends a chat stream with a chunk of its own name, the one that
  // carries the finish_reason: refused, the stream would read as cut.
  if (object === "chat.completion.done" && Array.isArray(record.choices)) return DETECTED.chat_chunk;
  // Azure opens a chat stream with a filter chunk: `object: ""`, `id: ""`, `choices: []`.
  if (object === "" && Array.isArray(record.choices) && "prompt_filter_results" in record) return DETECTED.chat_chunk;
  if (object === "chat.completion") return DETECTED.chat_completion;
  // A compacted response is the spec's too (CompactResource): its output is the
  // history that replaces the conversation, items as a response's are.
  if ((object === "response" || object === "response.compaction") && Array.isArray(record.output)) return DETECTED.response;
  let envelope = claimedBy(record, RESPONSE_CLAIMANTS);
  if (envelope) return { kind: "envelope_response", envelope };
  if (typeof type === "string" && (type.startsWith("response.") || isErrorEvent(record) || isExtensionEvent(record))) return DETECTED.responses_event;
  if ((envelope = claimedBy(record, STREAM_EVENT_CLAIMANTS))) return { kind: "envelope_event", envelope };
  if (isPlainObject(record.request) && isPlainObject(record.response)) return DETECTED.exchange;
  if ((envelope = claimedBy(record, REQUEST_BODY_CLAIMANTS))) return { kind: "envelope_request", envelope };
  if (Array.isArray(record.messages)) return DETECTED.chat_request;
  if (type === undefined && (typeof record.input === "string" || Array.isArray(record.input))) return DETECTED.responses_request;
  // A body may name a stored prompt in place of its input (OpenAI's reusable
  // prompts): its messages are the server's, the body is a request all the same.
  if (type === undefined && isStoredPrompt(record.prompt)) return DETECTED.responses_request;
  if (namesItem(type)) return DETECTED.responses_item;
  if ((envelope = claimedBy(record, MESSAGE_CLAIMANTS))) return { kind: "envelope_message", envelope };
  if (isChatRole(record.role) && type === undefined) {
    return isResponsesShapedMessage(record) ? DETECTED.responses_item : DETECTED.chat_message;
  }
  if (typeof record.id === "string" && (type === undefined || type === null) && Object.keys(record).length <= 2) return DETECTED.responses_item;
  return DETECTED.unknown;
}

/**
 * Why a record cannot be read as the kind it was detected as, when it also has
 * the shape of an item or a Chat message: `{"type":"function_call", …,
 * "messages":[]}` is a request body with no message and a call at once. Read one
 * way, the other would go unseen, and a reader that dispatches on `type` or
 * `role` would see what the gate did not judge; so it is read neither way.
 */
export function ambiguity(record: unknown, kind: RecordKind, envelope?: AdapterName): string | undefined {
  switch (kind) {
    case "chat_chunk":
      return twoKinds(record as Record<string, unknown>, KIND_NAMES[kind]) ?? wholeMessageInChunk(record as Record<string, unknown>);
    case "chat_request":
      return twoKinds(record as Record<string, unknown>, KIND_NAMES[kind]) ?? readOtherwiseAsEnvelope(record);
    case "chat_completion":
    case "response":
    case "exchange":
    case "responses_request":
      return twoKinds(record as Record<string, unknown>, KIND_NAMES[kind]);
    // A registered envelope's record is told by signs of its own, which need not
    // exclude an item's `type` or a Chat `role` (a Gemini body is any record with
    // `contents`). A `type` or `role` is the envelope's own only when its recogniser
    // needs it (Anthropic's response is typed "message", with an assistant role);
    // a message's role is always its own.
    case "envelope_message":
      return twoKinds(record as Record<string, unknown>, `${envelopeTitle(envelope)} message`, { envelope: envelope!, recogniser: "message", ownRole: true });
    case "envelope_response":
      return twoKinds(record as Record<string, unknown>, `${envelopeTitle(envelope)} response`, { envelope: envelope!, recogniser: "response" });
    case "envelope_request":
      return twoKinds(record as Record<string, unknown>, `${envelopeTitle(envelope)} request body`, { envelope: envelope!, recogniser: "requestBody" });
    case "envelope_event":
      return twoKinds(record as Record<string, unknown>, `${envelopeTitle(envelope)} stream event`, { envelope: envelope!, recogniser: "streamEvent" });
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

const CHAT_BODY_READERS = ADAPTERS.flatMap((adapter) => (adapter.recognise.chatBodyReadOtherwise ? [adapter.recognise.chatBodyReadOtherwise] : []));

/**
 * Why a body detected as Chat's, which no sign tells from a registered
 * envelope's, would be converted otherwise as that envelope's (an Anthropic
 * body of plain messages with `thinking`): taken for either, the other reading
 * is lost unsaid, so it is read as neither.
 */
function readOtherwiseAsEnvelope(record: unknown): string | undefined {
  for (const readOtherwise of CHAT_BODY_READERS) {
    const why = readOtherwise(record);
    if (why !== undefined) return why;
  }
  return undefined;
}

/**
 * A chunk whose choice holds a `message` beside its `delta` with calls the delta
 * does not give as they are: a reader of deltas and a reader that takes the
 * message see other calls, so the chunk is read neither way. A message that
 * repeats the delta's text (Perplexity writes one in every chunk) is no such
 * chunk: its calls, if any, are the delta's.
 */
function wholeMessageInChunk(record: Record<string, unknown>): string | undefined {
  if (!Array.isArray(record.choices)) return undefined;
  const at = record.choices.findIndex((choice) => isPlainObject(choice) && isPlainObject(choice.message) && CALL_FIELDS.some((field) => callsDiffer(choice.message as Record<string, unknown>, choice.delta, field)));
  if (at === -1) return undefined;
  return `choice ${at} of the chat.completion.chunk holds a message beside its delta, with calls the delta does not give as they are: a reader of deltas and a reader of messages see other calls; it is read as neither`;
}

const CALL_FIELDS = ["tool_calls", "function_call"] as const;

function callsDiffer(message: Record<string, unknown>, delta: unknown, field: (typeof CALL_FIELDS)[number]): boolean {
  const calls = message[field];
  if (calls === undefined || calls === null || (Array.isArray(calls) && calls.length === 0)) return false;
  return !isPlainObject(delta) || !isDeepStrictEqual(calls, delta[field]);
}

function envelopeTitle(envelope: AdapterName | undefined): string {
  return envelope === undefined ? "registered envelope" : envelope[0]!.toUpperCase() + envelope.slice(1);
}

/** The envelope that claimed a record, and by which recogniser. */
interface Claim {
  envelope: AdapterName;
  recogniser: Recogniser;
  /** Whether the record's role is the envelope's own whatever it is. */
  ownRole?: boolean;
}

function twoKinds(record: Record<string, unknown>, shape: string, claim?: Claim): string | undefined {
  const { type, role } = record;
  const second = namesItem(type) ? "item" : typeof type === "string" && type.startsWith("response.") ? "streaming event" : undefined;
  if (second !== undefined && !(claim && needs(claim, record, "type"))) return `the record has the shape of a ${shape} and of a "${type}" ${second}; it is read as neither`;
  if (isChatRole(role) && !(claim && (claim.ownRole || needs(claim, record, "role")))) return `the record has the shape of a ${shape} and of a Chat ${role} message; it is read as neither`;
  return undefined;
}

/** Whether the claiming recogniser needs `field`: without it, the record is no longer its envelope's. */
function needs(claim: Claim, record: Record<string, unknown>, field: "type" | "role"): boolean {
  const { [field]: _left, ...rest } = record;
  return !ENVELOPES[claim.envelope].recognise[claim.recogniser](rest);
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

/** Whether a response object is the compacted history `/responses/compact` answers with, not a turn of the model. */
export function isCompactedResponse(record: unknown): boolean {
  return isPlainObject(record) && record.object === "response.compaction";
}

/** A reference to a prompt stored with the provider: an object with its id, never the legacy Completions' prompt text. */
function isStoredPrompt(prompt: unknown): boolean {
  return isPlainObject(prompt) && typeof prompt.id === "string";
}
