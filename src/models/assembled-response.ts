// One response rebuilt from a recorded stream (Chat chunks or Open Responses
// events). A stream spreads a response over many records, so every loss also
// names the journal line of the record its pointer goes into.
import type { Loss } from "./loss.js";
import type { CanonicalItem } from "./open-responses.js";
import { isPlainObject } from "./json-value.js";

/** A loss inside one record of a stream: `path` points into the record on `line`. */
export interface StreamLoss extends Loss {
  line: number;
}

export interface AssembledResponse {
  /** The completion id (Chat) or response id (Open Responses), when the stream gave one. */
  id?: string;
  /**
   * The response status as the stream left it: `completed`, `incomplete`, `failed`,
   * or `in_progress` when the recording stops before the stream said it was done.
   */
  status?: string;
  /** Canonical items in output order, in the input-item shape. */
  items: CanonicalItem[];
  /** What the reassembly could not carry. */
  losses: StreamLoss[];
  /**
   * Set on a later choice of a Chat stream (n > 1): another answer to the
   * request the response before it answers, of which a request that replays
   * the conversation continues one.
   */
  laterChoice?: boolean;
  /** Journal line of the first record of the response. */
  line: number;
  /** Journal line of the last record that belonged to the response. */
  lastLine: number;
  /**
   * Journal line of the record that completed each item, in the order of
   * `items`: where a call's arguments became final, which is where a reader
   * looks for it. Given when the assembler is asked to; absent, every item
   * counts as completed by the response's last record.
   */
  itemLines?: number[];
  /** What a Chat stream said of its chat.completion beyond the items; kept when the assembler is asked to. */
  completion?: StreamedCompletion;
  /** What an event stream showed of its response object beyond the items; kept when the assembler is asked to. */
  resource?: StreamedResource;
  /**
   * The last response object an event stream showed (what the SDKs take for
   * the response), or the chat.completion a Chat stream's chunks rebuild, whose
   * `tool_choice`, `tools` and `parallel_tool_calls` hold for its calls as a
   * stored response's do. Kept when the assembler is asked to.
   */
  responseObject?: Record<string, unknown>;
  /**
   * A registered envelope's stream as the one response object it amounts to,
   * written by that envelope's own response converter, and what writing it
   * loses (the stream's losses included). `items` and `losses` are what
   * normalize writes; convert writes this instead, as it holds the fields
   * normalize leaves behind. Written when asked for, so that normalize and the
   * gate do not pay for it.
   */
  record?: () => WholeRecord;
  /**
   * The envelope's response object the stream's chunks join into, where they
   * give each call whole or as pieces of one part (Gemini's): the gate counts
   * the calls it writes, as it counts a record's, and refuses the response when
   * a call is written where the converter reads none.
   */
  merged?: () => unknown;
}

/** A response object written whole, and what writing it loses, each loss on its line. */
export interface WholeRecord {
  value: Record<string, unknown>;
  losses: StreamLoss[];
  /**
   * Where the stream said a value of the envelope's own response that the
   * stream amounts to (`/usage` of an Anthropic message: the event that said
   * its last count, at `/usage`): the line of that record and the path in it.
   */
  place?: (path: string) => Pick<StreamLoss, "line" | "path">;
}

/** A value a stream gave, with the journal line of the record that gave it. */
export interface LineValue<T> {
  value: T;
  line: number;
}

/**
 * The fields of a streamed completion that its items do not hold, each with the
 * line that gave it, so that the chat.completion it amounts to can be written
 * and a loss found in it can point back into the chunk it came from.
 */
export interface StreamedCompletion {
  /** The completion fields (id, created, model…) of the chunk that opened it, without `choices`, `usage` and `obfuscation`. */
  fields: LineValue<Record<string, unknown>>;
  /** Where the choice that continues the conversation (the lowest index) first appeared in its chunk; absent when no choice was an object. */
  position?: number;
  /** The last finish_reason of that choice, with its chunk's line and the choice's position there. */
  finish?: LineValue<string> & { position: number };
  /** The last usage object the completion's chunks carried. */
  usage?: LineValue<Record<string, unknown>>;
}

/** The response object an event stream showed, and where its items were set. */
export interface StreamedResource {
  /** The last response object a `response.*` event carried (created, in_progress, completed…). */
  snapshot?: LineValue<Record<string, unknown>>;
  /**
   * Line of the `output_item` event that last set each item, in the order of
   * `items`; absent when the items are the `output` of the terminal event.
   */
  itemLines?: number[];
}

/**
 * What a record's `obfuscation` became: nothing. OpenAI and Azure pad every
 * streamed chunk and event with it against length side channels; it belongs to
 * the transport, no item or record of either envelope holds it, and each record
 * that carried one says so on its own line.
 */
export const TRANSPORT_PADDING_DETAIL = "obfuscation is padding of the transport: no item or record holds it";

export function transportPadding(line: number): StreamLoss {
  return { line, path: "/obfuscation", code: "left_behind", detail: TRANSPORT_PADDING_DETAIL };
}

/**
 * A completed call written incomplete, for a response whose calls never ran or
 * cannot be told to have (it failed, or says two things of a call); undefined
 * for any other item, which stays as it is.
 */
export function stoppedCall(item: CanonicalItem): CanonicalItem | undefined {
  if (!isPlainObject(item) || item.type !== "function_call" || item.status !== "completed") return undefined;
  return { ...item, status: "incomplete" } as CanonicalItem;
}
