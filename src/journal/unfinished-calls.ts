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
// replay their history as input items without status, or with `status: null`,
// which the spec allows an input item and which says the same (pydantic-ai),
// and those calls ran. A call without one is reported, not left out. The output of
// a response is not history: the spec gives each of its calls a status, and one
// without it is not known to have finished.
//
// The same holds for a call the gate blocks for what it says itself, where the
// target has no place for that: a namespace (a namespace's function is another
// tool than the function of its name, and none of these envelopes names one),
// and arguments that are not a JSON text (Anthropic, Gemini and Bedrock write
// arguments as an object, so an object there reads as valid input, and so do
// empty arguments, written as the empty object; Chat writes the value as it is,
// and it stays blocked), and an item id no provider gives (a placeholder, a
// call id) or that an item before it in its record gave, which these envelopes
// have no place for, and a call without a call_id, to which each writes an id
// of its own. And a completed response the gate
// stops as a whole (an error beside its status, the content filter in its
// incomplete_details) is written incomplete, as its calls did not run.
import type { CanonicalItem } from "../models/open-responses.js";
import { foreignItemIdReason } from "../models/foreign-item-id.js";
import { isPlainObject } from "../models/json-value.js";
import type { Loss } from "../models/loss.js";
import { stoppedByFilter } from "./response-ends.js";
import { unfinishedResponse as stoppedBy } from "./responses-stream.js";

/** Why a call item did not complete, or `undefined` for a completed call, a call without status and any other item. */
export function unfinished(item: unknown): string | undefined {
  if (!isPlainObject(item) || item.type !== "function_call" || item.status === "completed" || lacksStatus(item)) return undefined;
  return `is ${JSON.stringify(item.status)}`;
}

/** A call that gives no status: none written, or null, as the spec lets an input item write it. */
function lacksStatus(item: Record<string, unknown>): boolean {
  return item.status === undefined || item.status === null;
}

/** Why a call is blocked and the target cannot say so, how the target falls short, and how an output of it is left out. */
interface Unwritable {
  /** The call's field that says it. */
  field: string;
  why: string;
  cannot: (target: string) => string;
  leftAs: string;
}

/**
 * Why the gate blocks a call for what the call says itself, where the target
 * cannot write that reason: an unfinished status, a namespace, and (unless
 * `keepsArguments`, as Chat does) arguments that are not a JSON text.
 * Undefined for a call the target writes as blocked as it was, and any other item.
 */
export function unwritableCall(item: unknown, keepsArguments = false, repeating?: RepeatedIds): Unwritable | undefined {
  const status = unfinished(item);
  if (status !== undefined) return { field: "status", why: status, cannot: (target) => `${target} cannot mark one call unfinished`, leftAs: "as unfinished" };
  if (!isPlainObject(item) || item.type !== "function_call") return undefined;
  if (item.namespace !== undefined && item.namespace !== null) {
    return { field: "namespace", why: `is of namespace ${JSON.stringify(item.namespace)}, a tool other than the function of its name`, cannot: (target) => `${target} has no namespace for a call`, leftAs: "for its namespace" };
  }
  // None of these envelopes has item ids: the id the gate refuses the call for cannot go with it.
  const foreignId = foreignItemIdReason(item, "function_call");
  if (foreignId !== undefined) {
    return { field: "id", why: `has an id the gate refuses (${foreignId})`, cannot: (target) => `${target} has no item ids, so that id cannot go with it`, leftAs: "for its id" };
  }
  const missing = missingCallId(item.call_id);
  if (missing !== undefined) {
    return { field: "call_id", why: `${missing}, which the gate blocks`, cannot: (target) => `${target} writes an id of its own in its place`, leftAs: "for its call_id" };
  }
  const repeated = repeating?.get(item);
  if (repeated !== undefined) return { ...repeated, leftAs: `for its ${repeated.field}` };
  if (!keepsArguments && typeof item.arguments !== "string") {
    return { field: "arguments", why: `has arguments that are ${kindOf(item.arguments)}, not a JSON text`, cannot: (target) => `${target} writes arguments as an object, where that reads as valid input`, leftAs: "for its arguments" };
  }
  // The gate blocks empty arguments, which its writers give the empty object (providers write "" for a call without parameters).
  if (!keepsArguments && item.arguments === "") {
    return { field: "arguments", why: "has empty arguments, not a JSON text", cannot: (target) => `${target} writes them as the empty object, where that reads as valid input`, leftAs: "for its arguments" };
  }
  return undefined;
}

/** A call the gate blocks for an id an item before it gave, and why the target cannot say it. */
export interface RepeatedId {
  field: "id" | "call_id";
  why: string;
  cannot: (target: string) => string;
}

/** The calls of a record that repeat an id an item before them gave, each with why. */
export type RepeatedIds = ReadonlyMap<unknown, RepeatedId>;

/**
 * The calls of a record that repeat an id of an earlier record (journal-ids.ts),
 * by `callKey`: a record's items are made again by each step of its
 * conversion, and each step finds its calls by what they say.
 */
export type RepeatedKeys = ReadonlyMap<string, RepeatedId>;

/**
 * What tells one call of a record's items from the others through the steps of
 * its conversion: its item id, its call_id and how many calls before it in the
 * record gave both alike.
 */
export function callKey(item: Record<string, unknown>, occurrence: number): string {
  return `${String(item.id)}\u0000${String(item.call_id)}\u0000${occurrence}`;
}

/** Each call of `items` by its callKey. */
export function callsByKey(items: readonly unknown[]): Map<string, Record<string, unknown>> {
  const seen = new Map<string, number>();
  const calls = new Map<string, Record<string, unknown>>();
  for (const item of items) {
    if (!isPlainObject(item) || item.type !== "function_call") continue;
    const pair = callKey(item, 0);
    const occurrence = seen.get(pair) ?? 0;
    seen.set(pair, occurrence + 1);
    calls.set(callKey(item, occurrence), item);
  }
  return calls;
}

/**
 * The calls among one record's items whose item id an item before them gave:
 * the gate blocks the later one (duplicate_id), and no envelope but Open
 * Responses has item ids to say which of the two it was. A reference names an
 * item's id without giving it. `journal`: the calls that repeat an id of an
 * earlier record, added.
 */
export function callsRepeatingAnId(items: readonly unknown[], journal?: RepeatedKeys): RepeatedIds {
  const given = new Set<string>();
  const repeating = new Map<unknown, RepeatedId>();
  for (const item of items) {
    if (!isPlainObject(item) || typeof item.id !== "string" || item.id === "" || isReference(item)) continue;
    if (given.has(item.id) && item.type === "function_call") {
      repeating.set(item, { field: "id", why: `has the id ${JSON.stringify(item.id)} of an item before it, which the gate refuses`, cannot: (target) => `${target} has no item ids, so that id cannot go with it` });
    }
    given.add(item.id);
  }
  if (journal === undefined || journal.size === 0) return repeating;
  for (const [key, call] of callsByKey(items)) {
    const repeated = journal.get(key);
    if (repeated !== undefined && !repeating.has(call)) repeating.set(call, repeated);
  }
  return repeating;
}

/** An item_reference, written with its type or, as the gate reads one, as an id alone. */
function isReference(item: Record<string, unknown>): boolean {
  if (item.type === "item_reference") return true;
  return (item.type === undefined || item.type === null) && typeof item.role !== "string" && Object.keys(item).length <= 2;
}

/** How a call's call_id is missing, as the gate finds it (missing_field), or undefined for one it pairs by. */
function missingCallId(callId: unknown): string | undefined {
  if (callId === undefined || callId === null) return "gives none";
  if (callId === "") return "gives an empty call_id";
  return typeof callId === "string" ? undefined : `gives ${kindOf(callId)} in its place`;
}

/** A value's kind as the losses name it: shorter than describeValue's, which quotes the value. */
function kindOf(value: unknown): string {
  if (value === undefined) return "missing";
  if (value === null) return "null";
  return Array.isArray(value) ? "an array" : typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/**
 * The items with each unfinished call and each output that answers one of
 * them set aside as `orbridge:unfinished_call` items, which no writer of these
 * envelopes writes: indexes stay as they were, so every loss still points at
 * its item. `at(index)`: the pointer of an item in the record. `left`: the
 * pointers set aside, whose losses from the writer say nothing more. `reportNoStatus`:
 * whether calls without status are reported (all but a Chat run's, whose
 * calls get a status from their message). `journal`: the calls that repeat an
 * id of an earlier record (journal-ids.ts).
 */
export function setAsideUnfinishedCalls(items: readonly CanonicalItem[], target: string, at: (index: number) => string, reportNoStatus = false, keepsArguments = false, journal?: RepeatedKeys): { items: CanonicalItem[]; losses: Loss[]; left: Set<string> } {
  const unfinishedIds = new Map<unknown, string>();
  const losses: Loss[] = [];
  const left = new Set<string>();
  const repeating = callsRepeatingAnId(items, journal);
  const kept = items.map((item, index) => {
    const blocked = unwritableCall(item, keepsArguments, repeating);
    const fields = item as Record<string, unknown>;
    if (reportNoStatus && isPlainObject(item) && item.type === "function_call" && lacksStatus(item)) {
      losses.push({ path: at(index), code: "form_changed", detail: `the call ${describeCallId(fields.call_id)} has no status, which the gate blocks; ${target} has none to write, so the call reads there as one that may run` });
    }
    if (blocked !== undefined) {
      if (typeof fields.call_id === "string") unfinishedIds.set(fields.call_id, blocked.leftAs);
      losses.push({ path: at(index), code: "unsupported_item", detail: `the call ${describeCallId(fields.call_id)} ${blocked.why}: ${blocked.cannot(target)}, and written there it would read as a call that may run, so it is left out` });
    } else if (isPlainObject(item) && item.type === "function_call_output" && typeof item.call_id === "string" && unfinishedIds.has(item.call_id)) {
      losses.push({ path: at(index), code: "unsupported_item", detail: `the output answers the call ${describeCallId(item.call_id)}, left out ${unfinishedIds.get(item.call_id)}: it is left out with it` });
    } else return item;
    left.add(at(index));
    return setAsideItem(fields.call_id);
  });
  return { items: kept, losses, left };
}

/**
 * A response object whose status says it completed while a call of it did not,
 * or is blocked for what the target cannot write, or while the response itself
 * says it was stopped (an error, the content filter): written as incomplete, so
 * that the record written marks it (a Chat `finish_reason` of `length`, an
 * Anthropic `stop_reason` of `max_tokens`; of `content_filter`, `refusal` when
 * the filter stopped it). `keepsArguments`: the target writes arguments that
 * are no text as they are (Chat).
 */
export function unfinishedResponse(response: unknown, target: string, marksLastOnly = false, keepsArguments = false, journal?: RepeatedKeys): { value: unknown; losses: Loss[] } {
  // An incomplete response is written as one already; where only its last block reads as cut, its unfinished call must still be last.
  const completed = isPlainObject(response) && response.status === "completed";
  if (!isPlainObject(response) || !(completed || (marksLastOnly && response.status === "incomplete")) || !Array.isArray(response.output)) return { value: response, losses: [] };
  const repeating = callsRepeatingAnId(response.output, journal);
  const blocked = (item: unknown) => unwritableCall(item, keepsArguments, repeating) ?? (isPlainObject(item) && item.type === "function_call" && lacksStatus(item) ? { field: "status", why: "has no status" } : undefined);
  const stopped = completed ? stoppedResponse(response, target) : undefined;
  // A stopped response ran none of its calls: its first call is the one that must be last.
  const index = response.output.findIndex((item) => (stopped !== undefined && isPlainObject(item) && item.type === "function_call") || blocked(item) !== undefined);
  if (stopped === undefined && (index < 0 || (!completed && index === response.output.length - 1))) return { value: response, losses: [] };
  const call = (response.output[index] ?? {}) as Record<string, unknown>;
  const why = stopped === undefined ? blocked(call)!.why : "did not run, as the response was stopped";
  const losses: Loss[] = [];
  if (stopped !== undefined) losses.push(stopped.loss);
  else if (completed) losses.push({ path: `/output/${index}/${blocked(call)!.field}`, code: "form_changed", detail: `the call ${describeCallId(call.call_id)} ${why}: ${target} marks only a whole response unfinished, so the response is written as incomplete, and its calls read back incomplete` });
  // Where an unfinished response leaves only its last block unfinished (a stop_reason of max_tokens cuts the end), the call must be last.
  const kept = marksLastOnly && index >= 0 ? response.output.slice(0, index + 1) : response.output;
  for (let after = index + 1; marksLastOnly && index >= 0 && after < response.output.length; after += 1) {
    losses.push({ path: `/output/${after}`, code: "unsupported_item", detail: `left out: it comes after the call ${describeCallId(call.call_id)}, which ${why}, and ${target} reads only the last block of an unfinished response as cut, so that call would read back finished` });
  }
  if (!completed) return { value: { ...response, output: kept }, losses };
  return { value: { ...response, status: "incomplete", incomplete_details: stopped?.details ?? { reason: "max_output_tokens" }, output: kept }, losses };
}

/**
 * A completed response the gate stops as a whole (unfinishedResponse of
 * responses-stream.ts: an error beside its status, the content filter, details
 * of an end beside another status): the loss at the field that says so, and
 * the incomplete_details to write, which keep the content filter's where it is
 * the reason and else say the response was cut.
 */
function stoppedResponse(response: Record<string, unknown>, target: string): { loss: Loss; details: unknown } | undefined {
  const why = stoppedBy(response);
  if (why === undefined) return undefined;
  const byError = response.error !== undefined && response.error !== null;
  const detail = `${why}: ${target} has no place for it beside a finished response, so the response is written as incomplete, and its calls read back incomplete`;
  return { loss: { path: byError ? "/error" : "/incomplete_details", code: "form_changed", detail }, details: { reason: !byError && stoppedByFilter(response) ? "content_filter" : "max_output_tokens" } };
}

const SET_ASIDE = "orbridge:unfinished_call";

/** What takes a left-out item's place: no writer of these envelopes writes it, so every other item keeps its index. */
export function setAsideItem(callId: unknown): CanonicalItem {
  return { type: SET_ASIDE, call_id: callId } as unknown as CanonicalItem;
}

/** Whether an item is one setAsideItem put in a left-out item's place. */
export function isSetAside(item: unknown): boolean {
  return isPlainObject(item) && item.type === SET_ASIDE;
}

/** A call's call_id as a loss names it. */
export function describeCallId(callId: unknown): string {
  return typeof callId === "string" ? JSON.stringify(callId) : "without call_id";
}

/** Whether `path` points at or into an item set aside: one of `left`, the pointers `/output/<k>` of the items set aside. */
export function intoSetAside(path: string, left: ReadonlySet<string> | undefined): boolean {
  if (left === undefined || left.size === 0) return false;
  const item = /^\/output\/\d+/.exec(path);
  return item !== null && left.has(item[0]);
}
