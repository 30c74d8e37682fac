// What the response objects of an Open Responses stream say of its end and of
// its request's limits: a terminal event whose response says another end, gives
// no output, or loosens a limit an earlier one gave is a stream a reader takes
// otherwise than the gate would (responses-stream.ts).
import { jsonEqual } from "../models/json-equal.js";
import { describeValue } from "../models/json-value.js";
import { comparedName } from "../models/names-folded-twice.js";
import { shownFlag } from "../models/one-call-flag.js";
import { quoteVisible } from "../models/quote-visible.js";
import { RESTATED_LIMITS } from "../models/restated-limits.js";
import { TERMINAL_STATUS, type EventType, type Fields, type OpenResponse } from "./open-response.js";

/**
 * Keeps the response object an event carried as the response's record, after
 * checking that it says of its request's limits what the one before it said:
 * the gate holds the calls to the last, so a limit an earlier one gave and a
 * later one loosens is a stream that said two things of its calls.
 */
export function showResponse(open: OpenResponse, type: EventType, response: Fields, line: number): void {
  const earlier = open.snapshot;
  if (earlier !== undefined) {
    const changed = limitGivenOtherwise(earlier.value, response);
    if (changed !== undefined) {
      open.contradiction ??= { line, detail: `${type} carries a response whose ${quoteVisible(changed)} is not what the response of line ${earlier.line} gave: a reader that takes its request's limits from that event allows other calls than one that takes them from this one` };
    }
  }
  open.snapshot = { value: response, line };
}

/** The first member saying a limit (as a reader folding names reads it) that `earlier` gives and `later` gives otherwise or leaves out. */
export function limitGivenOtherwise(earlier: Fields, later: Fields): string | undefined {
  for (const key in earlier) {
    if (!Object.hasOwn(earlier, key) || !RESTATED_LIMITS.has(comparedName(key))) continue;
    const value = earlier[key];
    if (value === null || value === undefined) continue;
    if (!Object.hasOwn(later, key) || !jsonEqual(value, later[key])) return key;
  }
  return undefined;
}

/**
 * Why a response object (stored, or a stream's terminal event's) says its
 * completed calls cannot be taken to have run, short of failing: it carries an
 * error while it says another status, is still queued or in progress, was cut
 * by the content filter (in any spelling of its details), or gives
 * incomplete_details beside a status other than "incomplete". Undefined when it
 * says none of these.
 */
export function unfinishedResponse(response: Record<string, unknown>): string | undefined {
  if (response.error !== undefined && response.error !== null && response.status !== "failed") return "the response carries an error";
  if (response.status === "queued" || response.status === "in_progress") return `the response is still ${response.status === "queued" ? "queued" : "in progress"}`;
  if (stoppedByFilter(response)) return "the content filter stopped the response";
  // A response that says it completed and why it did not is read two ways: a
  // reader going by its status runs its calls, one going by its details takes
  // them for cut (max_output_tokens ends the output wherever the limit fell).
  const details = response.incomplete_details;
  if (details !== undefined && details !== null && response.status !== "incomplete") {
    const status = response.status === undefined ? "no status" : `the status ${shownFlag(response.status)}`;
    return `the response gives incomplete_details ${shownFlag(details)} beside ${status}, so a reader that goes by its details takes its calls for cut`;
  }
  return undefined;
}

/** Whether a response's incomplete_details say the content filter stopped it, in any spelling. */
export function stoppedByFilter(response: Record<string, unknown>): boolean {
  return /content_?filter/i.test(JSON.stringify(response.incomplete_details ?? null));
}

/**
 * Why a terminal event's response says another end than the event's name: a
 * `response.failed` or `response.completed` carrying a response `cancelled`, or
 * one `completed` in a `response.failed`. Readers that go by the event (the
 * Agents SDK takes a final response only from `response.completed`) and those
 * that go by the response's status (as a stored response is read, where
 * `cancelled` or a status the spec does not define stops its calls) see the
 * stream end two ways. Undefined when the response gives no status, or the one
 * the event names.
 */
export function otherEnd(type: keyof typeof TERMINAL_STATUS, response: Record<string, unknown>): string | undefined {
  const status = response.status;
  if (typeof status !== "string" || status === TERMINAL_STATUS[type]) return undefined;
  return `${type} carries a response whose status is ${quoteVisible(status)}`;
}

/**
 * Whether an event after the terminal event is that event again: the same type
 * carrying the same response, which no reader takes for anything new (a logger
 * that writes the last event twice). Any other event says more.
 */
export function repeatsEnd(ended: NonNullable<OpenResponse["ended"]>, type: EventType, response: Fields | undefined): boolean {
  return type === ended.type && response !== undefined && ended.response !== undefined && jsonEqual(response, ended.response);
}

/**
 * Why a terminal event gives the stream's calls otherwise than the events
 * before it: it carries no response object, or one without an output array,
 * which openai-node throws at (so it gives no final response, and runs no
 * call), or an empty output where the stream gave items: openai-node's final
 * response is that event's (openai-python's is response.completed's), which
 * holds none of them, where a reader of output_item.done runs them. Undefined
 * when it gives an output of its own, or an empty one and the stream none.
 */
export function outputNotGiven(type: keyof typeof TERMINAL_STATUS, response: Fields | undefined, streamedItems: boolean): string | undefined {
  if (response === undefined) return `${type} carries no response object, which openai-node throws at, giving no final response`;
  if (!Array.isArray(response.output)) return `${type} carries a response with output ${describeValue(response.output)}, not an array, which openai-node throws at, giving no final response`;
  if (response.output.length === 0 && streamedItems) return `${type} carries a response with an empty output: the SDKs' final response is that one, with none of the stream's items, where a reader of output_item.done runs its calls`;
  return undefined;
}
