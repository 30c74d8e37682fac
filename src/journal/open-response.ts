// What the assembler of Open Responses streams (responses-stream.ts) knows of one
// response while its events come: the items by output_index, the calls events
// finished, and what the stream said that a reader could take otherwise.
import type { StreamedResource, StreamLoss } from "../models/assembled-response.js";

export type Fields = Record<string, unknown>;

export const EVENT_TYPES = [
  "response.created",
  "response.queued",
  "response.in_progress",
  "response.output_item.added",
  "response.function_call_arguments.delta",
  "response.function_call_arguments.done",
  "response.content_part.added",
  "response.content_part.done",
  "response.output_text.delta",
  "response.output_text.done",
  "response.output_text.annotation.added",
  "response.refusal.delta",
  "response.refusal.done",
  "response.reasoning_summary_part.added",
  "response.reasoning_summary_part.done",
  "response.reasoning_summary_text.delta",
  "response.reasoning_summary_text.done",
  "response.reasoning_text.delta",
  "response.reasoning_text.done",
  "response.output_item.done",
  "response.completed",
  "response.incomplete",
  "response.failed",
  "error",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export const TERMINAL_STATUS = { "response.completed": "completed", "response.incomplete": "incomplete", "response.failed": "failed" } as const;

export interface OpenResponse {
  id?: string;
  status?: string;
  line: number;
  lastLine: number;
  /** Items by `output_index`: a map, as a hostile index must not size an array. */
  items: Map<number, Fields>;
  /** The same items by their `id`, for events whose `output_index` is wrong. */
  byId: Map<string, Fields>;
  /** The `output` of the terminal event, which wins over the streamed items, and the line of that event. */
  output?: unknown[];
  outputLine?: number;
  losses: StreamLoss[];
  /** The last response object an event carried. */
  snapshot?: StreamedResource["snapshot"];
  /** Line of the event that last set the item at each `output_index`. */
  itemLines: Map<number, number>;
  /** Line of the `output_item.done` or `function_call_arguments.done` that last finished each item. */
  doneLines: WeakMap<Fields, number>;
  /** Indexes of items opened by `output_item.added` and not yet done. */
  unfinished: Set<number>;
  /** Whether an `error` event failed the response. */
  failed: boolean;
  /** Events of no known type, by type: the loss that reports them and how many there were. */
  ignored: Map<string, IgnoredEvents>;
  /**
   * Each call an event finished, by `output_index`: its call_id, name and
   * arguments. A reader that runs a call as soon as it is done runs this one.
   */
  finishedCalls: Map<number, FinishedCall>;
  /** Items whose arguments came as deltas, which a reader may build the call from. */
  streamedArguments: WeakSet<Fields>;
  /** Set when the stream finished a call one way and later said otherwise: the event that did, for the loss. */
  contradiction?: { line: number; detail: string };
  /** What the response of the terminal event says stopped its calls (the content filter, an error beside another status, a status not terminal). */
  stoppedBy?: string;
  /**
   * The first terminal event: the response is held after it until the next
   * response.created or the end of the stream, as readers that go on reading
   * (openai-node's ResponseStream, openai-python's ResponseStreamState, the
   * Agents SDKs) apply the events after it.
   */
  ended?: { line: number; type: keyof typeof TERMINAL_STATUS; response: Fields | undefined };
  /** The first event after the terminal event that says anything more: the event, for the loss. */
  afterEnd?: { line: number; detail: string };
  /**
   * Why the SDKs fail on this response's events, so that they give no final
   * response and run none of its calls: the first event that made them fail.
   * - an event applied to the item its item_id names where its output_index
   *   holds no item: the SDKs place events by output_index and fail there;
   * - a first event other than `response.created`: both build the response
   *   from that event and throw at any other.
   * - an event about an item that gives no `item_id`, or about an item that
   *   has no `id`: openai-node matches the two and throws;
   * - an `output_item.done` that gives its item another `id` than the
   *   `output_item.added` before it: openai-node throws at it.
   * - an `output_item.added` where an item was added already, or an
   *   `output_item.done` where none was: openai-node throws at it.
   */
  sdksFail?: string;
  /**
   * Calls the stream gave and then put something else in the place of (another
   * item at their output_index, or a terminal output without them), each with
   * the line that last set it: kept after the response's items, so that a call a
   * reader may have run is judged rather than lost.
   */
  dropped: Array<{ item: Fields; line: number }>;
}

export interface IgnoredEvents {
  loss: StreamLoss;
  count: number;
  lastLine: number;
}

/**
 * A call as an event finished it: its call_id, name and arguments when all three
 * are strings and it has no namespace or parsed_arguments, else its `callKey`, written at once. The strings are written only
 * when the terminal output is checked: most calls are finished twice
 * (function_call_arguments.done, then output_item.done), and arguments are long.
 */
export type FinishedCall = { callId: string; name: string; args: string } | string;
