// Call ids a source lacks, and what both envelopes demand of a call's fields.
//
// | source                                   | target                                                  |
// |------------------------------------------|---------------------------------------------------------|
// | a call with no id (absent, null or "")   | a synthesized id: `synth_<k>_<16 hex>`, k the call's    |
// |                                          |   rank among the id-less calls, hex from its name and   |
// |                                          |   arguments; reported `synthesized`                     |
// | an answer with no id                     | the id of the earliest id-less call still unanswered;   |
// |                                          |   none waiting: it answers nothing (a loss). For the    |
// |                                          |   gate, two or more waiting: none either                |
// | arguments that are not a string, a name  | written as they are, reported `target_rejects`: the     |
// |   or id of a shape the target refuses    |   gate judges them, the converter never "fixes" them    |
//
// The id depends only on where the call stands among the id-less calls counted
// so far and on what it calls, so a request that replays a conversation gives
// its calls the ids the first conversion gave them, and two conversations that
// make different calls never share one. Two that make a call alike at one rank
// share its id: a journal read as one conversation cannot tell such a call from
// one made again, and the gate blocks the second (duplicate_call_id); gate such
// journals with --conversation, which keeps each conversation's ids apart.
import { createHash } from "node:crypto";
import type { Loss } from "../../src/models/loss.js";
import { describeValue } from "../../src/models/json-value.js";
import { lossAt, type PointerTokens } from "./message-fields.js";

/** Id-less calls counted so far, and the ids of those still waiting for an answer without an id. */
export interface IdlessCalls {
  count: number;
  waiting: string[];
  /** The name of each waiting call, by its synthesized id. */
  names: Map<string, string>;
  /**
   * An answer without id is paired only when one call without id waits (the
   * gate's reading): with two calls of `"id": ""` waiting, a replayer that pairs
   * by id may give either answer to either call, one that pairs by order the
   * first to the first, one that pairs by name by the names the answers give.
   * By default the earliest is taken (of its name, when it names one), as a
   * converter writes the answers in their calls' order.
   */
  certainOnly?: boolean;
}

export function idlessCalls(certainOnly = false): IdlessCalls {
  return certainOnly ? { count: 0, waiting: [], names: new Map(), certainOnly } : { count: 0, waiting: [], names: new Map() };
}

/** A copy that counts on from where `calls` stands and changes nothing of it: for another answer to the same request (a later choice). */
export function forkIdlessCalls(calls: IdlessCalls): IdlessCalls {
  return { ...calls, waiting: [...calls.waiting], names: new Map(calls.names) };
}

/** True when a call or answer carries no id at all: the field is absent, null or empty. */
export function lacksId(id: unknown): boolean {
  return id === undefined || id === null || id === "";
}

/** The id given to the next id-less call; the call then waits for its answer. */
export function synthesizeCallId(calls: IdlessCalls, name: unknown, args: unknown): string {
  calls.count += 1;
  const digest = createHash("sha256").update(`${String(name)}\u0000${typeof args === "string" ? args : describeValue(args)}`).digest("hex");
  const id = `synth_${calls.count}_${digest.slice(0, 16)}`;
  calls.waiting.push(id);
  if (typeof name === "string") calls.names.set(id, name);
  return id;
}

/** The id of the earliest id-less call not yet answered, taken by an answer without an id. */
export function takeWaitingId(calls: IdlessCalls, name?: unknown): string | undefined {
  if (calls.certainOnly === true && calls.waiting.length > 1) return undefined;
  // An answer that names its tool answers the earliest waiting call of that name, or none: a reader that pairs by name would not take another.
  if (typeof name === "string" && name !== "") {
    const index = calls.waiting.findIndex((id) => calls.names.get(id) === name);
    if (index === -1) return undefined;
    const [id] = calls.waiting.splice(index, 1);
    calls.names.delete(id!);
    return id;
  }
  const id = calls.waiting.shift();
  if (id !== undefined) calls.names.delete(id);
  return id;
}

/** Forgets that a call waits, when its answer came with the synthesized id. */
export function answered(calls: IdlessCalls, id: string): void {
  const index = calls.waiting.indexOf(id);
  if (index !== -1) calls.waiting.splice(index, 1);
  calls.names.delete(id);
}

const SPEC_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const SPEC_MAX_CALL_ID = 64;

/**
 * What the target refuses in a call written as the source has it: `arguments`
 * that are not a string, a name that is not one (or, for Open Responses, not of
 * the spec's form), a call_id the spec would not take. Paths point into the source.
 */
export function callShapeLosses(
  fields: { callId: unknown; name: unknown; args: unknown },
  at: { callId: PointerTokens; name: PointerTokens; args: PointerTokens },
  target: "Open Responses" | "Chat Completions",
): Loss[] {
  const losses: Loss[] = [];
  if (typeof fields.args !== "string") {
    losses.push(lossAt(at.args, "target_rejects", `arguments is ${describeValue(fields.args)}, not a JSON string: written as it is, which ${target} rejects and the gate blocks (arguments_type)`));
  }
  if (typeof fields.name !== "string") {
    losses.push(lossAt(at.name, "target_rejects", `the function name is ${describeValue(fields.name)}, not text: written as it is, which ${target} rejects`));
  } else if (target === "Open Responses" && !SPEC_NAME.test(fields.name)) {
    losses.push(lossAt(at.name, "target_rejects", `the function name ${describeValue(fields.name)} is not 1 to 64 letters, digits, _ or -: written as it is, which Open Responses rejects`));
  }
  if (typeof fields.callId !== "string") {
    if (!lacksId(fields.callId)) losses.push(lossAt(at.callId, "target_rejects", `the call id is ${describeValue(fields.callId)}, not text: written as it is, which ${target} rejects`));
  } else if (target === "Open Responses" && fields.callId.length > SPEC_MAX_CALL_ID) {
    losses.push(lossAt(at.callId, "target_rejects", `the call id has ${fields.callId.length} characters, more than the spec's ${SPEC_MAX_CALL_ID}: written as it is, which Open Responses rejects`));
  }
  return losses;
}
