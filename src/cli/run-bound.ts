// `convert` holds a run of loose records (Chat messages, or Open Responses items)
// until the record that ends it, because the records of a turn fold together: the
// calls in a row become one assistant message, an output goes after its call. A
// journal with no user turn for long (calls that never get an output, an agent's
// endless loop) would then be held whole: a million calls with no output took
// 2.4 KB of memory each and came out as one line.
//
// | records in the run | the run is written before the next record when                     |
// |--------------------|--------------------------------------------------------------------|
// | < RUN_SOFT_LIMIT   | the next record starts a turn (as for any run)                      |
// | ≥ RUN_SOFT_LIMIT   | also: every call of the run has its output, the last record is an   |
// |                    |   output and the next is not: the records on either side fold apart |
// |                    |   as they would in one run, so nothing is said. Chat messages made  |
// |                    |   into items, each apart, need no output last                       |
// | ≥ RUN_HARD_LIMIT   | always, and that is said: what either side would have been folded  |
// |                    |   with (the calls of one message) is written apart                  |
//
// A call with no id (or `""`, which the converters take for none), an id given
// to a second call still open, or an output that answers no open call of the
// run, makes the run one that is never written early without saying so: which
// call an output answers cannot be known from the run's calls alone.
import { isPlainObject } from "../models/json-value.js";

export const RUN_SOFT_LIMIT = 1_024;
export const RUN_HARD_LIMIT = 4_096;

/** The calls of a run of loose records, as far as they tell where the run may end early. */
export class RunCalls {
  /** Call ids of the run with no output yet. */
  private readonly open = new Set<string>();
  /** A call without an id or with the id of one still open, or an output of no open call. */
  private unpaired = false;
  /** Whether the last record was an output. */
  private lastAnswered = false;

  /** A record joins the run. */
  add(record: unknown): void {
    this.lastAnswered = false;
    if (!isPlainObject(record)) return;
    const answered = answeredCall(record);
    if (answered !== undefined) {
      this.lastAnswered = true;
      if (answered === null || !this.open.delete(answered)) this.unpaired = true;
      return;
    }
    for (const id of callIds(record)) {
      // A second open call of one id: its output could answer either.
      if (id === null || this.open.has(id)) this.unpaired = true;
      else this.open.add(id);
    }
  }

  /**
   * Whether the run may be written before `next` with every record folding as in
   * one run. `apart`: the conversion folds no record into another but for
   * pairing outputs with calls (Chat messages to items), so no output need come
   * last.
   */
  settledBefore(next: unknown, apart = false): boolean {
    return (this.lastAnswered || apart) && this.open.size === 0 && !this.unpaired && !(isPlainObject(next) && answeredCall(next) !== undefined);
  }

  /** The run was written: the next one starts empty. */
  clear(): void {
    this.open.clear();
    this.unpaired = false;
    this.lastAnswered = false;
  }
}

/**
 * The call id an output answers (a Chat `tool` message, an item whose type ends
 * in `_output`), `null` for an output that names none (a legacy `function`
 * message), undefined for a record that is no output.
 */
function answeredCall(record: Record<string, unknown>): string | null | undefined {
  if (record.role === "tool") return idOf(record.tool_call_id);
  if (record.role === "function") return null;
  if (typeof record.type === "string" && record.type.endsWith("_output")) return idOf(record.call_id);
  return undefined;
}

/** A call id, or null where the converters take it for none (absent, not a string, `""`). */
function idOf(id: unknown): string | null {
  return typeof id === "string" && id !== "" ? id : null;
}

/** The ids of the calls a record makes, `null` for a call without one: an item with a call_id, or an assistant message's tool_calls and legacy function_call. */
function callIds(record: Record<string, unknown>): Array<string | null> {
  if (record.role === "assistant") {
    const ids: Array<string | null> = [];
    if (Array.isArray(record.tool_calls)) for (const call of record.tool_calls) ids.push(isPlainObject(call) ? idOf(call.id) : null);
    if (record.function_call !== undefined && record.function_call !== null) ids.push(null);
    return ids;
  }
  if (record.role !== undefined) return [];
  if (record.type === "function_call" || "call_id" in record) return [idOf(record.call_id)];
  return [];
}
