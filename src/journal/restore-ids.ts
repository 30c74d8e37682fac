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
// | anything inside a call's arguments or a result's    | anything                    | kept: the tool's    |
// |   content (`arguments`, `args`, `input`, `response`,|                             |   data, not the     |
// |   `content`, `output` of a call or result)          |                             |   envelope's        |
//
// The line is rewritten in its own text: only the id strings change, so member
// order, spacing, escapes and numbers too wide for a double stay byte for byte.
// Both walks hold their own stack, so a record nested at any depth JSON.parse
// reads is restored, not refused. A line with nothing to restore is its text.
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
const CALL_HOLDER_KEYS = new Set(["tool_calls", "functionCall", "function_call", "functionResponse", "function_response", "toolUse", "toolResult"]);

/** Block and item types whose `id` is a call id. */
const CALL_BLOCK_TYPES = new Set(["tool_use"]);

/** Types of a call or its result, whose payload members are the tool's data. */
const CALL_OR_RESULT_TYPES = new Set(["tool_use", "server_tool_use", "tool_result", "function_call", "function_call_output", "custom_tool_call", "custom_tool_call_output"]);

/** Members of a call or result that hold the tool's arguments or what it answered: an id in them is the tool's, not the envelope's. */
const PAYLOAD_KEYS = new Set(["arguments", "args", "input", "response", "content", "output"]);

interface Pending {
  value: unknown;
  path: string;
  holdsCall: boolean;
}

/** Where each call id of the record is, by JSON Pointer, with its original if the map rewrote it; and the call ids the map does not know. */
export function callIdsOf(record: unknown, map: ReadonlyMap<string, string>): { restore: Map<string, { rewritten: string; original: string }>; unknown: UnknownId[] } {
  const originals = new Set(map.values());
  const restore = new Map<string, { rewritten: string; original: string }>();
  const unknown: UnknownId[] = [];
  // `holdsCall`: the value sits where a call is written, so an `id` of it is the call's id;
  // anywhere else (an item's, a message's, a response's) an `id` is not a call id, whatever it holds.
  const pending: Pending[] = [{ value: record, path: "", holdsCall: false }];
  while (pending.length > 0) {
    const { value, path, holdsCall } = pending.pop()!;
    if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index -= 1) pending.push({ value: value[index], path: `${path}/${index}`, holdsCall });
      continue;
    }
    if (value === null || typeof value !== "object") continue;
    const fields = value as Record<string, unknown>;
    const type = typeof fields.type === "string" ? fields.type : undefined;
    const callIdIn = holdsCall || (type !== undefined && CALL_BLOCK_TYPES.has(type));
    const isCallOrResult = callIdIn || (type !== undefined && CALL_OR_RESULT_TYPES.has(type)) || fields.role === "tool";
    const members = Object.entries(fields);
    for (let at = members.length - 1; at >= 0; at -= 1) {
      const [key, entry] = members[at]!;
      const where = `${path}/${pointerToken(key)}`;
      if (typeof entry === "string" && (CALL_ID_KEYS.has(key) || (key === "id" && callIdIn))) {
        const original = map.get(entry);
        if (original !== undefined) restore.set(where, { rewritten: entry, original });
        else if (!originals.has(entry)) unknown.push({ path: where, id: entry });
        continue;
      }
      if (key === "arguments" || (isCallOrResult && PAYLOAD_KEYS.has(key))) continue;
      pending.push({ value: entry, path: where, holdsCall: CALL_HOLDER_KEYS.has(key) });
    }
  }
  return { restore, unknown };
}

interface Frame {
  object: boolean;
  /** The member being read, in an object; undefined while its key is awaited. */
  key: string | undefined;
  index: number;
}

/** The end (exclusive) of the JSON string that opens at `start`. */
function stringEnd(text: string, start: number): number {
  let at = start + 1;
  while (at < text.length) {
    const char = text.charCodeAt(at);
    if (char === 0x5c) at += 2;
    else if (char === 0x22) return at + 1;
    else at += 1;
  }
  return at;
}

const isCallIdKey = (key: string | undefined) => key !== undefined && (key === "id" || CALL_ID_KEYS.has(key));

/**
 * `text` (one JSON value, already known to parse) with the string at each
 * pointer of `restore` replaced by its original, and nothing else touched.
 */
function spliced(text: string, restore: ReadonlyMap<string, { rewritten: string; original: string }>): { text: string; restored: number } {
  const frames: Frame[] = [];
  const parts: string[] = [];
  let copiedTo = 0;
  let restored = 0;
  let at = 0;
  while (at < text.length) {
    const char = text[at]!;
    const top = frames[frames.length - 1];
    if (char === "{" || char === "[") {
      frames.push({ object: char === "{", key: undefined, index: 0 });
      at += 1;
    } else if (char === "}" || char === "]") {
      frames.pop();
      at += 1;
    } else if (char === ",") {
      if (top !== undefined) {
        if (top.object) top.key = undefined;
        else top.index += 1;
      }
      at += 1;
    } else if (char === '"') {
      const end = stringEnd(text, at);
      if (top?.object && top.key === undefined) {
        top.key = JSON.parse(text.slice(at, end)) as string;
      } else if (top?.object && isCallIdKey(top.key)) {
        const pointer = frames.map((frame) => (frame.object ? `/${pointerToken(frame.key!)}` : `/${frame.index}`)).join("");
        const target = restore.get(pointer);
        if (target !== undefined && JSON.parse(text.slice(at, end)) === target.rewritten) {
          parts.push(text.slice(copiedTo, at), JSON.stringify(target.original));
          copiedTo = end;
          restored += 1;
        }
      }
      at = end;
    } else {
      at += 1;
    }
  }
  if (restored === 0) return { text, restored };
  parts.push(text.slice(copiedTo));
  return { text: parts.join(""), restored };
}

/**
 * The JSON text of one record with every rewritten id of the map put back in
 * place, how many were, and the call ids the map does not know. `text` must be
 * JSON that `record` was parsed from.
 */
export function restoreIdsInText(text: string, record: unknown, map: ReadonlyMap<string, string>): { text: string; restored: number; unknown: UnknownId[] } {
  const { restore, unknown } = callIdsOf(record, map);
  if (restore.size === 0) return { text, restored: 0, unknown };
  return { ...spliced(text, restore), unknown };
}
