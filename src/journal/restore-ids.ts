// Puts back the call ids `normalize --for` rewrote, from the map it wrote with
// `--id-map`, into a record of any envelope: the results a target sends back
// carry its ids, and the journal they join carries the originals.
//
// | field, at any depth                                 | holding                     | becomes             |
// |-----------------------------------------------------|-----------------------------|---------------------|
// | call_id, tool_call_id, tool_use_id, toolUseId, and  | a rewritten id of the map   | its original        |
// |   the `id` of a call: of a Chat `tool_calls` entry, |                             |                     |
// |   a `tool_use` block, a Gemini `functionCall` or    |                             |                     |
// |   `functionResponse`                                |                             |                     |
// | the same                                            | an id the map does not know | kept, and reported  |
// | any other `id` (an item's, a message's…)            | anything                    | kept: not a call id |
//
// A record with nothing to restore is given back as it came.
import { pointerToken } from "../models/json-pointer.js";

export interface IdMapEntry {
  original: string;
  rewritten: string;
}

/** A call id of the record that the map does not know: where it is, and which. */
export interface UnknownId {
  path: string;
  id: string;
}

const CALL_ID_KEYS = new Set(["call_id", "tool_call_id", "tool_use_id", "toolUseId"]);

/**
 * The map from each rewritten id to its original. The map must be one-to-one:
 * a rewritten id given two originals, or an original given two rewritten ids,
 * is an error, since restoring through it would give some call another's id.
 */
export function idMapOf(entries: readonly IdMapEntry[]): Map<string, string> {
  const map = new Map<string, string>();
  const rewrites = new Map<string, string>();
  for (const { original, rewritten } of entries) {
    const known = map.get(rewritten);
    if (known !== undefined && known !== original) throw new RangeError(`the map gives ${JSON.stringify(rewritten)} two originals: ${JSON.stringify(known)} and ${JSON.stringify(original)}`);
    const other = rewrites.get(original);
    if (other !== undefined && other !== rewritten) throw new RangeError(`the map rewrites ${JSON.stringify(original)} two ways: as ${JSON.stringify(other)} and as ${JSON.stringify(rewritten)}`);
    map.set(rewritten, original);
    rewrites.set(original, rewritten);
  }
  return map;
}

/** Members whose object, or each object of whose array, is a call or its result, and so holds a call id in `id`. */
const CALL_HOLDER_KEYS = new Set(["tool_calls", "functionCall", "function_call", "functionResponse", "function_response"]);

/** Block types whose `id` is a call id. */
const CALL_BLOCK_TYPES = new Set(["tool_use"]);

/** The record with every rewritten id of the map put back, and the call ids the map does not know. */
export function restoreIds(record: unknown, map: ReadonlyMap<string, string>): { value: unknown; restored: number; unknown: UnknownId[] } {
  const originals = new Set(map.values());
  const unknown: UnknownId[] = [];
  let restored = 0;
  // `holdsCall`: the value sits where a call is written, so an `id` of it is the call's id;
  // anywhere else (an item's, a message's, a response's) an `id` is not a call id, whatever it holds.
  const walk = (value: unknown, path: string, holdsCall: boolean): unknown => {
    if (Array.isArray(value)) {
      let changed = false;
      const out = value.map((entry, index) => {
        const next = walk(entry, `${path}/${index}`, holdsCall);
        changed ||= next !== entry;
        return next;
      });
      return changed ? out : value;
    }
    if (value === null || typeof value !== "object") return value;
    const callIdIn = holdsCall || CALL_BLOCK_TYPES.has((value as { type?: unknown }).type as string);
    let out: Record<string, unknown> | undefined;
    for (const [key, entry] of Object.entries(value)) {
      const at = `${path}/${pointerToken(key)}`;
      let next: unknown;
      if (typeof entry === "string" && (CALL_ID_KEYS.has(key) || (key === "id" && callIdIn))) {
        const original = map.get(entry);
        if (original !== undefined) restored += 1;
        else if (!originals.has(entry)) unknown.push({ path: at, id: entry });
        next = original ?? entry;
      } else {
        next = walk(entry, at, CALL_HOLDER_KEYS.has(key));
      }
      // defineProperty, not assignment: a `__proto__` member stays a member.
      if (next !== entry) Object.defineProperty((out ??= { ...(value as Record<string, unknown>) }), key, { value: next, enumerable: true, writable: true, configurable: true });
    }
    return out ?? value;
  };
  return { value: walk(record, "", false), restored, unknown };
}
