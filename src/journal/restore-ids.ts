// Puts back the call ids `normalize --for` rewrote, from the map it wrote with
// `--id-map`, into a record of any envelope: the results a target sends back
// carry its ids, and the journal they join carries the originals.
//
// | field, at any depth                                  | holding                    | becomes             |
// |------------------------------------------------------|----------------------------|---------------------|
// | call_id, tool_call_id, tool_use_id, toolUseId, and   | a rewritten id of the map  | its original        |
// |   `id` (tool calls, tool_use blocks, functionCall…)  |                            |                     |
// | call_id, tool_call_id, tool_use_id, toolUseId        | an id the map does not know | kept, and reported  |
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

/** The map from each rewritten id to its original; a rewritten id given two originals is an error. */
export function idMapOf(entries: readonly IdMapEntry[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const { original, rewritten } of entries) {
    const known = map.get(rewritten);
    if (known !== undefined && known !== original) throw new RangeError(`the map gives ${JSON.stringify(rewritten)} two originals: ${JSON.stringify(known)} and ${JSON.stringify(original)}`);
    map.set(rewritten, original);
  }
  return map;
}

/** The record with every rewritten id of the map put back, and the call ids the map does not know. */
export function restoreIds(record: unknown, map: ReadonlyMap<string, string>): { value: unknown; restored: number; unknown: UnknownId[] } {
  const originals = new Set(map.values());
  const unknown: UnknownId[] = [];
  let restored = 0;
  const walk = (value: unknown, path: string): unknown => {
    if (Array.isArray(value)) {
      let changed = false;
      const out = value.map((entry, index) => {
        const next = walk(entry, `${path}/${index}`);
        changed ||= next !== entry;
        return next;
      });
      return changed ? out : value;
    }
    if (value === null || typeof value !== "object") return value;
    let out: Record<string, unknown> | undefined;
    for (const [key, entry] of Object.entries(value)) {
      const at = `${path}/${pointerToken(key)}`;
      let next: unknown;
      if (typeof entry === "string" && (CALL_ID_KEYS.has(key) || key === "id")) {
        const original = map.get(entry);
        if (original !== undefined) restored += 1;
        else if (CALL_ID_KEYS.has(key) && !originals.has(entry)) unknown.push({ path: at, id: entry });
        next = original ?? entry;
      } else {
        next = walk(entry, at);
      }
      // defineProperty, not assignment: a `__proto__` member stays a member.
      if (next !== entry) Object.defineProperty((out ??= { ...(value as Record<string, unknown>) }), key, { value: next, enumerable: true, writable: true, configurable: true });
    }
    return out ?? value;
  };
  return { value: walk(record, ""), restored, unknown };
}
