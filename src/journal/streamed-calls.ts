// What a stream of Open Responses events said of each call, compared event by
// event: a call finished twice otherwise, replaced, or left out of the terminal
// output is a stream that said two things of one call (responses-stream.ts), and
// a call put out of place is kept apart, so that it is judged rather than lost.
import { stoppedCall, type StreamLoss } from "../models/assembled-response.js";
import type { CanonicalItem } from "../models/open-responses.js";
import { describeValue } from "../models/json-value.js";
import { isPlainObject } from "./detect.js";
import type { Fields, FinishedCall, OpenResponse } from "./open-response.js";

/**
 * A completed call written incomplete, with the loss that says `why`: the
 * response failed (the recording never ran it), or the stream said what no one
 * reading of it runs.
 */
export function stopCall(item: CanonicalItem, where: () => Pick<StreamLoss, "line" | "path">, losses: StreamLoss[], why: string): CanonicalItem {
  const stopped = stoppedCall(item);
  if (stopped === undefined) return item;
  const detail = why === "the response failed" ? "the response failed: its completed call is written incomplete, as the recording never ran it" : `${why}: its completed call is written incomplete, as no one reading of the stream runs it`;
  losses.push({ ...where(), code: "form_changed", detail });
  return stopped;
}

/**
 * A call's identity and arguments, as one string to compare: its namespace and
 * parsed_arguments too, when it has them, since a reader that runs the call at
 * one event runs the function and the value they say.
 */
export function callKey(item: Fields): string {
  const namespace = item.namespace ?? null;
  const parsedArguments = item.parsed_arguments ?? null;
  if (namespace === null && parsedArguments === null) return JSON.stringify([item.call_id, item.name, item.arguments]);
  return JSON.stringify([item.call_id, item.name, item.arguments, namespace, parsedArguments]);
}

export function finishedCall(item: Fields): FinishedCall {
  const { call_id: callId, name, arguments: args } = item;
  const plain = (item.namespace ?? null) === null && (item.parsed_arguments ?? null) === null;
  return plain && typeof callId === "string" && typeof name === "string" && typeof args === "string" ? { callId, name, args } : callKey(item);
}

/** The finished call's `callKey`. */
export function keyOf(call: FinishedCall): string {
  return typeof call === "string" ? call : JSON.stringify([call.callId, call.name, call.args]);
}

/** Whether two finished calls have the same `callKey`: for two of strings, the same strings, as JSON writes no two strings alike. */
export function sameCall(first: FinishedCall, second: FinishedCall): boolean {
  if (typeof first !== "string" && typeof second !== "string") return first.callId === second.callId && first.name === second.name && first.args === second.args;
  return keyOf(first) === keyOf(second);
}

/**
 * Notes a call an event finished at `index`. A call finished before with other
 * arguments, name or call_id (a second `output_item.done`, or one that says
 * otherwise than the `function_call_arguments.done` before it) is a stream that
 * said two things: one reader ran the first, the gate would judge the last.
 */
export function finishCall(open: OpenResponse, index: number, item: Fields, line: number, replaced?: Fields): void {
  if (item.type !== "function_call") return;
  const call = finishedCall(item);
  const before = open.finishedCalls.get(index);
  if (before === undefined && replaced?.type === "function_call" && open.doneLines.has(replaced) && !sameCall(finishedCall(replaced), call)) {
    open.contradiction ??= { line, detail: `output_item.done at output_index ${index} finishes the call otherwise than the function_call_arguments.done before it` };
  } else if (before !== undefined && !sameCall(before, call)) {
    open.contradiction ??= { line, detail: `the call at output_index ${index} is finished twice, each time otherwise` };
  }
  open.finishedCalls.set(index, call);
}

/**
 * The terminal event's output must hold every call the stream finished, or
 * spelled in deltas, as it was; a call it leaves out is kept (`dropped`).
 */
export function keepsFinishedCalls(open: OpenResponse, output: readonly unknown[], line: number): void {
  const said = new Map(open.finishedCalls);
  for (const [index, item] of open.items) if (!said.has(index) && item.type === "function_call" && open.streamedArguments.has(item)) said.set(index, finishedCall(item));
  if (said.size === 0) return;
  const kept = new Set<string>();
  const callIds = new Set<unknown>();
  for (const item of output) {
    if (!isPlainObject(item) || item.type !== "function_call") continue;
    kept.add(callKey(item));
    callIds.add(item.call_id);
  }
  for (const [index, call] of said) {
    if (kept.has(keyOf(call))) continue;
    open.contradiction ??= { line, detail: `the terminal event's output does not hold the call at output_index ${index} as the stream gave it` };
    // A call the output holds under its call_id, otherwise, stands there; one it leaves out is kept apart.
    const streamed = open.items.get(index);
    if (streamed?.type === "function_call" && !callIds.has(streamed.call_id)) dropCall(open, streamed, index, line);
  }
}

/**
 * A call that events after the terminal event gave, or left as a reader that
 * applies them has it, under a call_id the terminal output does not hold: kept
 * apart (`dropped`), so that a call such a reader runs is judged rather than lost.
 */
export function keepsCallsAfterEnd(open: OpenResponse, output: readonly unknown[]): void {
  const callIds = new Set<unknown>();
  for (const item of output) if (isPlainObject(item) && item.type === "function_call") callIds.add(item.call_id);
  const kept = new Set(open.dropped.map(({ item }) => item));
  for (const [index, item] of open.items) {
    if (item.type === "function_call" && !callIds.has(item.call_id) && !kept.has(item)) dropCall(open, item, index, open.itemLines.get(index) ?? open.lastLine);
  }
}

/**
 * An output_item event puts `item` where the call `replaced` stood. A reader that
 * ran the call when it was finished, or built it from the event that opened it
 * and the arguments that came after, runs another call than the one that now
 * stands: the stream said two things of one call. Between an `added` and its
 * `done`, the call keeps its call_id and name, and its arguments so far (when it
 * had any) are what the `done` says.
 */
export function replaceCall(open: OpenResponse, type: "response.output_item.added" | "response.output_item.done", index: number, replaced: Fields, item: Fields, line: number): void {
  if (replaced.type !== "function_call") return;
  const finished = open.doneLines.has(replaced);
  const deltas = open.streamedArguments.has(replaced);
  const spelled = deltas || (typeof replaced.arguments === "string" && replaced.arguments !== "");
  const event = type === "response.output_item.added" ? "output_item.added" : "output_item.done";
  let detail: string | undefined;
  if (item.type !== "function_call") detail = `${event} at output_index ${index} puts an item of type ${describeValue(item.type)} where the stream had given a call`;
  else if (type === "response.output_item.added") {
    if (finished || spelled || callKey(replaced) !== callKey(item)) detail = `output_item.added at output_index ${index} opens a call again where the stream had already given one`;
  } else if (!finished) {
    if (replaced.call_id !== item.call_id || replaced.name !== item.name) detail = `output_item.done at output_index ${index} names the call otherwise than the output_item.added that opened it`;
    else if (spelled && replaced.arguments !== item.arguments) {
      detail = `output_item.done at output_index ${index} says otherwise than the ${deltas ? "argument deltas" : "arguments of the output_item.added"} before it ${deltas ? "spell" : "give"}`;
    }
  }
  if (detail === undefined) return;
  open.contradiction ??= { line, detail };
  // The call no longer stands at its index under its call_id: it is kept apart.
  if (item.type !== "function_call" || item.call_id !== replaced.call_id) dropCall(open, replaced, index, line);
}

/** Keeps apart a call the stream gave at `index` and put out of place, with the line of the event that last set it. */
export function dropCall(open: OpenResponse, call: Fields, index: number, line: number): void {
  open.dropped.push({ item: call, line: open.doneLines.get(call) ?? open.itemLines.get(index) ?? line });
}
