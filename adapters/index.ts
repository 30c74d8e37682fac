// The registry: one line per envelope. Detection, normalize, convert and the
// gate ask it about an envelope's records and never import an envelope's folder.
//
// Open Responses is the canonical form, not an envelope adapter: it is in no
// folder, and every envelope converts to it and back. Chat Completions is named
// as it is (its readers predate the registry and keep their own detection rules);
// every later envelope is reached through `EnvelopeAdapter`, which calls its
// descriptor the same way whatever the envelope names its arguments.
//
// Adding an envelope: a folder `adapters/<name>/` whose `index.ts` exports a
// descriptor of the shape of `anthropic`'s, its name in `Envelope`
// (src/models/journal-item.ts), and one line in `ENVELOPES` below.
import type { AssembledResponse } from "../src/models/assembled-response.js";
import type { Converted } from "../src/models/loss.js";
import type { CanonicalItem, CreateResponseBody, ResponseResource } from "../src/models/open-responses.js";
import type { ResponsePathsOption } from "../src/models/response-paths.js";
import { anthropic } from "./anthropic/index.js";
import { bedrock } from "./bedrock/index.js";
import { chat } from "./chat-completions/index.js";
import { gemini } from "./gemini/index.js";

export { chat };
export type { CallCounts, ChatRequests, ChatStreamAssembler, ItemOrigin, ReasoningField } from "./chat-completions/index.js";

/** What a stream assembler of any envelope does: events in, whole responses out. */
export interface StreamAssembler {
  push(event: unknown, line: number): AssembledResponse[];
  finish(): AssembledResponse[];
  /** What records that went into no response said, when the envelope keeps them apart. */
  unplaced?(): AssembledResponse["losses"];
  /** Whether a record that reads as a whole response on a JSON line continues the open response, when the envelope's chunks can say so. */
  continues?(record: unknown): boolean;
  /**
   * Whether its events write a call's arguments as an object (Gemini's `args`),
   * which the rebuilt response holds as JSON text: the numbers of the stream's
   * lines are put back in that text as they were written (`2.50`, `1E3`).
   */
  readonly argumentsAsObjects?: boolean;
}

/** A conversation of an envelope whose system prompt stands beside its messages. */
export interface Conversation {
  system?: unknown;
  messages: unknown[];
  /** The messages are a whole conversation (a request body's), not a continuation of the records before. */
  whole?: boolean;
}

/** One envelope, called the same way whatever its descriptor names its arguments. */
export interface EnvelopeAdapter {
  name: string;
  /** The slug of the fields its converters keep as they were (`gemini:createTime`). */
  slug: string;
  /** Where its response holds what each top-level field of the response object it gives says (`created_at`: `/createTime`). */
  responseFields: Readonly<Record<string, string>>;
  /** Its calls hold their arguments as a JSON value, not as their text: a value read from such a value and written as one again is that value. */
  argumentsAsObjects: boolean;
  /** Its messages hold text as parts only: the string or parts of the Open Responses form its reader gives are its reader's choice, not a form the record wrote (text-form.ts). */
  textAsPartsOnly: boolean;
  recognise: {
    message(record: unknown): boolean;
    requestBody(record: unknown): boolean;
    response(record: unknown): boolean;
    streamEvent(record: unknown): boolean;
    /** A record that, inside an open stream of the envelope, can only be an event of a kind the envelope added later: skipped and reported by the assembler, not taken for the end of the stream. */
    unknownStreamEvent?(record: unknown): boolean;
    /**
     * Why a request body no sign tells from a Chat body would be converted
     * otherwise as the envelope's (a key both take, which Chat's converter has
     * no place for): detection reads it as neither. Undefined when it would not.
     */
    chatBodyReadOtherwise?(record: unknown): string | undefined;
  };
  /** The field of a request body that holds its messages (`messages`, `contents`), and the one that holds its system prompt. */
  fields: { messages: string; system: string };
  /** Messages (with the system prompt, when the envelope keeps it apart) to items. */
  messagesToItems(conversation: Conversation): Converted<CanonicalItem[]>;
  itemsToMessages(items: readonly CanonicalItem[]): Converted<Conversation>;
  requestToBody(request: unknown): Converted<CreateResponseBody>;
  bodyToRequest(body: CreateResponseBody): Converted<unknown>;
  /** `sourcePaths`: the values made up for the items reported where each item comes from, not in the response object (response-paths.ts). */
  responseToResource(response: unknown, options?: ResponsePathsOption): Converted<ResponseResource>;
  resourceToResponse(resource: ResponseResource): Converted<unknown>;
  assembler(): StreamAssembler;
  /**
   * The same converters for the records of one journal, in order: they share
   * what a record leaves for the next (a call without id waiting for its
   * result, where the envelope writes no ids), and its writers the call ids a
   * rewrite took, so that no two calls of the journal are written with one id.
   * Stateless envelopes give themselves.
   */
  journal(options?: JournalOptions): EnvelopeAdapter;
  /** A call_id its writer leaves out, as the call came without one (Gemini's `gemini_call_…`): no reader of the record sees it. */
  dropsCallId?(callId: string): boolean;
}

/** How one journal's converters read it. */
export interface JournalOptions {
  /**
   * Tool results as the gate reads them: one that gives no call id answers a
   * call only when a single waiting call could be its, where a converter takes
   * the earliest.
   */
  forGate?: boolean;
}

/**
 * What a request body of an envelope says of its tools, for the gate: its
 * tools and tool choice as Open Responses tools and tool_choice, taken only
 * where they convert without a loss, and every other part named with what it
 * restricts, so that a part that cannot be read never loosens what it governs.
 */
export interface ToolsReading {
  tools: unknown[];
  toolChoice?: unknown;
  unread: UnreadToolPart[];
}

/** A part of a request body the reading could not take: `path` from the body's root, `governs` what it restricts. */
export interface UnreadToolPart {
  path: string;
  detail: string;
  /** A named tool (its calls are refused), the list of tools (which tools exist is unknown), or the tool choice (no function may run). */
  governs: { tool: string } | "tools" | "choice";
}

/* eslint-disable @typescript-eslint/no-explicit-any -- each descriptor types its own records; the adapter is where they meet */
interface ConversationalDescriptor {
  name: string;
  slug: string;
  argumentsAsObjects: boolean;
  textAsPartsOnly: boolean;
  recognise: EnvelopeAdapter["recognise"];
  messages: { toItems(args: any): Converted<CanonicalItem[]>; fromItems(args: { items: readonly CanonicalItem[]; [shared: string]: unknown }): Converted<any> };
  requestBodies: { toResponses(args: { request: any }): Converted<CreateResponseBody>; fromResponses(args: { body: CreateResponseBody; [shared: string]: unknown }): Converted<any> };
  responses: { toResponses(args: any): Converted<ResponseResource>; fromResponses(args: { response: ResponseResource; [shared: string]: unknown }): Converted<any>; fieldPaths: Readonly<Record<string, string>> };
  stream: { assembler(args?: any): StreamAssembler };
  /** What the converters of one journal share, handed to each of them with its other arguments. */
  journal?: (options?: JournalOptions) => Record<string, unknown>;
  /** What the writers of one journal's records share from record to record, handed to its converters toward the envelope. */
  writer?: () => Record<string, unknown>;
  dropsCallId?: (callId: string) => boolean;
}

/**
 * `names`: what the descriptor calls its records: the response converter's
 * argument (`message`, `response`), and the fields of a conversation (those of
 * its request body, which its messages converter takes as arguments).
 */
function conversational(descriptor: ConversationalDescriptor, names: { response: string; messages?: string; system?: string }, shared?: Record<string, unknown>, written: Record<string, unknown> = {}): EnvelopeAdapter {
  const fields = { messages: names.messages ?? "messages", system: names.system ?? "system" };
  const state = shared ?? {};
  return {
    name: descriptor.name,
    slug: descriptor.slug,
    responseFields: descriptor.responses.fieldPaths,
    argumentsAsObjects: descriptor.argumentsAsObjects,
    textAsPartsOnly: descriptor.textAsPartsOnly,
    recognise: descriptor.recognise,
    fields,
    messagesToItems: ({ messages, system, whole }) =>
      descriptor.messages.toItems({ [fields.messages]: messages, ...(system === undefined ? {} : { [fields.system]: system }), ...(whole ? { whole } : {}), ...state }),
    itemsToMessages: (items) => conversationOf(descriptor.messages.fromItems({ items, ...written }), fields),
    requestToBody: (request) => descriptor.requestBodies.toResponses({ request, ...state }),
    bodyToRequest: (body) => descriptor.requestBodies.fromResponses({ body, ...written }),
    responseToResource: (response, options) => descriptor.responses.toResponses({ [names.response]: response, ...state, ...options }),
    resourceToResponse: (resource) => descriptor.responses.fromResponses({ response: resource, ...written }),
    assembler: () => (shared ? descriptor.stream.assembler(state) : descriptor.stream.assembler()),
    journal: (options) => conversational(descriptor, names, descriptor.journal?.(options), descriptor.writer?.()),
    ...(descriptor.dropsCallId ? { dropsCallId: descriptor.dropsCallId } : {}),
  };
}
/* eslint-enable @typescript-eslint/no-explicit-any */

function conversationOf(converted: Converted<unknown>, fields: EnvelopeAdapter["fields"]): Converted<Conversation> {
  const conversation = converted.value as Record<string, unknown>;
  return { value: { system: conversation[fields.system], messages: conversation[fields.messages] as unknown[] }, losses: converted.losses };
}

/** The envelopes reached through the registry, in the order detection asks them. */
export const ENVELOPES = {
  anthropic: conversational(anthropic, { response: "message" }),
  gemini: conversational(gemini, { response: "response", messages: "contents", system: "systemInstruction" }),
  bedrock: conversational(bedrock, { response: "response" }),
} as const;

export type AdapterName = keyof typeof ENVELOPES;

/** The registry's envelopes for one journal: converters that share what its records carry from one to the next. */
export type JournalEnvelopes = Record<AdapterName, EnvelopeAdapter>;

export function journalEnvelopes(options?: JournalOptions): JournalEnvelopes {
  return { anthropic: ENVELOPES.anthropic.journal(options), gemini: ENVELOPES.gemini.journal(options), bedrock: ENVELOPES.bedrock.journal(options) };
}

/**
 * The order detection asks them, the strictest recognisers first: Bedrock's
 * blocks carry no `type`, and Anthropic's request-body recogniser, which looks
 * for a `system` field, does not check the blocks of the messages beside it.
 */
export const RECOGNITION_ORDER: readonly AdapterName[] = ["bedrock", "anthropic", "gemini"];

/** Every envelope `convert --to` can write: the canonical form, Chat, then the registry's. */
export const ENVELOPE_NAMES = ["responses", chat.name, ...(Object.keys(ENVELOPES) as AdapterName[])] as const;

export function isAdapterName(name: string): name is AdapterName {
  return Object.hasOwn(ENVELOPES, name);
}

/** Each envelope's reading of a request body's tools for the gate, which imports no adapter and is handed these by its caller. */
export const TOOL_READERS: Record<AdapterName, (body: Record<string, unknown>) => ToolsReading> = {
  anthropic: (body) => anthropic.tools.readRequest({ body }),
  gemini: (body) => gemini.tools.readRequest({ body }),
  bedrock: (body) => bedrock.tools.readRequest({ body }),
};

/** A binary framing a journal's bytes may come in, which the reader opens a source in when the source opens with a frame of it. */
export interface FramedStream {
  /** What the bytes are, for the note that says how the source was read. */
  title: string;
  opens(head: Uint8Array): boolean;
  /** Each frame's record as JSON text, or why it could not be read; and why the bytes after the last whole frame were not read, if they were not. */
  records(bytes: Uint8Array): { records: Array<{ text: string } | { error: string }>; stopped?: string };
}

/** The framings of the registry's envelopes: Bedrock's ConverseStream answers in AWS event-stream bytes, which recordings keep as sent. */
export const FRAMED_STREAMS: readonly FramedStream[] = [bedrock.eventStream];

// Stored-log readers: one line per store. Read-only, they turn a whole document
// (a trace export, a page of stored objects) into the records of the journal it
// holds; detection asks them in READER_ORDER, `--from NAME` forces one.
import type { StoredLogReader } from "./stored-log/index.js";
import { jaeger } from "./jaeger/index.js";
import { langfuse } from "./langfuse/index.js";
import { openaiList } from "./openai-list/index.js";
import { otlp } from "./otlp/index.js";

export type { ReaderLoss, Reading, StoredLogReader, StoredRecord, UnitAccount, UnitFate } from "./stored-log/index.js";

export const READERS = {
  "openai-list": openaiList,
  otlp,
  jaeger,
  langfuse,
} as const satisfies Record<string, StoredLogReader>;

export type ReaderName = keyof typeof READERS;

/** Each recogniser claims only its own store's shape; the order settles nothing today but is fixed. */
export const READER_ORDER: readonly ReaderName[] = ["langfuse", "jaeger", "openai-list", "otlp"];

export function isReaderName(name: string): name is ReaderName {
  return Object.hasOwn(READERS, name);
}
