// A call that says it did not complete (`incomplete`, `in_progress`) is blocked
// by the gate: its arguments may be cut short. Chat, Anthropic, Gemini and
// Bedrock messages have no status for one call, so written there as it is, it
// reads as a call that may run, and gating the converted journal passes it.
// Where the record written marks a whole response unfinished (a response
// object), the response is written unfinished; where nothing can mark it (loose
// items, a request body's input), the call is left out, with the outputs that
// answer it, and each is reported.
//
// | where the call is         | written as                                                     |
// |---------------------------|----------------------------------------------------------------|
// | a completed response      | the response, as incomplete: every call of it reads back incomplete |
// | loose items, a body input | nothing: the call and its outputs are left out, reported       |
// | a loose item or a body input, no status | the call, reported: the gate blocks it, the target reads it as one that may run |
// | a completed response, no status | the response, as incomplete, as for an unfinished call  |
// | either, where only the last block of an unfinished response reads as cut (Anthropic, Gemini, Bedrock) | the items after the call left out, reported: the call is last |
//
// A call item with no status is not taken for an unfinished one: recordings
// replay their history as input items without status (pydantic-ai), and those
// calls ran. A call without one is reported, not left out. The output of
// a response is not history: the spec gives each of its calls a status, and one
// without it is not known to have finished.
import type { CanonicalItem } from "../models/open-responses.js";
import { isPlainObject } from "../models/json-value.js";
import type { Loss } from "../models/loss.js";

/** Why a call item did not complete, or `undefined` for a completed call, a call without status and any other item. */
export function unfinished(item: unknown): string | undefined {
  if (!isPlainObject(item) || item.type !== "function_call" || item.status === "completed" || item.status === undefined) return undefined;
  return `is ${JSON.stringify(item.status)}`;
}

/**
 * The items with each unfinished call and each output that answers one of
 * them set aside as `orbridge:unfinished_call` items, which no writer of these
 * envelopes writes: indexes stay as they were, so every loss still points at
 * its item. `at(index)`: the pointer of an item in the record. `left`: the
 * pointers set aside, whose losses from the writer say nothing more. `reportNoStatus`:
 * whether calls without status are reported (all but a Chat run's, whose
 * calls get a status from their message).
 */
export function setAsideUnfinishedCalls(items: readonly CanonicalItem[], target: string, at: (index: number) => string, reportNoStatus = false): { items: CanonicalItem[]; losses: Loss[]; left: Set<string> } {
  const unfinishedIds = new Set<unknown>();
  const losses: Loss[] = [];
  const left = new Set<string>();
  const kept = items.map((item, index) => {
    const why = unfinished(item);
    const fields = item as Record<string, unknown>;
    if (reportNoStatus && isPlainObject(item) && item.type === "function_call" && item.status === undefined) {
      losses.push({ path: at(index), code: "form_changed", detail: `the call ${describeCallId(fields.call_id)} has no status, which the gate blocks; ${target} has none to write, so the call reads there as one that may run` });
    }
    if (why !== undefined) {
      if (typeof fields.call_id === "string") unfinishedIds.add(fields.call_id);
      losses.push({ path: at(index), code: "unsupported_item", detail: `the call ${describeCallId(fields.call_id)} ${why}: ${target} cannot mark one call unfinished, and written there it would read as a call that may run, so it is left out` });
    } else if (isPlainObject(item) && item.type === "function_call_output" && typeof item.call_id === "string" && unfinishedIds.has(item.call_id)) {
      losses.push({ path: at(index), code: "unsupported_item", detail: `the output answers the call ${describeCallId(item.call_id)}, left out as unfinished: it is left out with it` });
    } else return item;
    left.add(at(index));
    return { type: SET_ASIDE, call_id: fields.call_id } as unknown as CanonicalItem;
  });
  return { items: kept, losses, left };
}

/**
 * A response object whose status says it completed while a call of it did not:
 * written as incomplete, so that the record written marks it (a Chat
 * `finish_reason` of `length`, an Anthropic `stop_reason` of `max_tokens`).
 */
export function unfinishedResponse(response: unknown, target: string, marksLastOnly = false): { value: unknown; losses: Loss[] } {
  // An incomplete response is written as one already; where only its last block reads as cut, its unfinished call must still be last.
  const completed = isPlainObject(response) && response.status === "completed";
  if (!isPlainObject(response) || !(completed || (marksLastOnly && response.status === "incomplete")) || !Array.isArray(response.output)) return { value: response, losses: [] };
  const why = (item: unknown) => unfinished(item) ?? (isPlainObject(item) && item.type === "function_call" && item.status === undefined ? "has no status" : undefined);
  const index = response.output.findIndex((item) => why(item) !== undefined);
  if (index < 0 || (!completed && index === response.output.length - 1)) return { value: response, losses: [] };
  const call = response.output[index] as Record<string, unknown>;
  const losses: Loss[] = completed ? [{ path: `/output/${index}/status`, code: "form_changed", detail: `the call ${describeCallId(call.call_id)} ${why(call)}: ${target} marks only a whole response unfinished, so the response is written as incomplete, and its calls read back incomplete` }] : [];
  // Where an unfinished response leaves only its last block unfinished (a stop_reason of max_tokens cuts the end), the call must be last.
  const kept = marksLastOnly ? response.output.slice(0, index + 1) : response.output;
  for (let after = index + 1; marksLastOnly && after < response.output.length; after += 1) {
    losses.push({ path: `/output/${after}`, code: "unsupported_item", detail: `left out: it comes after the call ${describeCallId(call.call_id)}, which ${why(call)}, and ${target} reads only the last block of an unfinished response as cut, so that call would read back finished` });
  }
  return { value: completed ? { ...response, status: "incomplete", incomplete_details: { reason: "max_output_tokens" }, output: kept } : { ...response, output: kept }, losses };
}

const SET_ASIDE = "orbridge:unfinished_call";

function describeCallId(callId: unknown): string {
  return typeof callId === "string" ? JSON.stringify(callId) : "without call_id";
}
