// The conversation a record belongs to, read at a JSON Pointer the user gives
// (`--conversation /conversation_id`). Two records are of one conversation when
// their keys are the same string, or the same number.
//
// | value at the pointer                         | key                                 |
// |----------------------------------------------|-------------------------------------|
// | a string (the empty string too)              | that string                         |
// | a string with a lone surrogate (`\ud800`)     | none: written as UTF-8 it becomes   |
// |                                              |   U+FFFD, another key's text        |
// | a whole number a double holds exactly        | that number (`7`, `7.0` and `7e0`   |
// |   (|n| <= 2^53 - 1)                          |   are one key; `"7"` is another)     |
// | a larger or fractional number, or one whose  | none: two ids a double cannot tell  |
// |   line writes it as another (`1.00…01`)      |   apart would become one            |
// | null, true, false, an object, an array       | none                                |
// | nothing (the path stops before the end)      | none                                |
// | a member on the way given twice as a reader   | none: Go's encoding/json takes both |
// |   folding case or width reads names           |   for one and keeps the last value, |
// |   (`conversation_id`, `Conversation_ID`)      |   maybe another conversation's key  |
//
// A record with no key belongs to no conversation: the caller reports its line.
import { describeValue, isPlainObject } from "../models/json-value.js";
import { pointerToken } from "../models/json-pointer.js";
import { comparedName, describeNamesFoldedTwice, type NamesFoldedTwice } from "../models/names-folded-twice.js";
import { inexactLiterals } from "./inexact-numbers.js";
import { resolvePointer, type JsonPointer } from "./json-pointer.js";

export type ConversationKey = string | number;

/** In `u` mode a pair of surrogates is one code point: only a surrogate alone matches. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

export type KeyReading =
  /** `id` tells keys apart whatever their type: the same for two records of one conversation only. */
  | { key: ConversationKey; id: string }
  | { error: string };

/**
 * `text`: the line the record was parsed from, when there is one. A number of
 * it written so that its double is another number (`1.0000000000000001` reads
 * as 1) gives no key: the record would join the conversation of another id.
 * Any literal of the line that reads as the key's double counts, so a key is
 * refused rather than trusted when the line is unclear.
 */
export function conversationKeyOf(record: unknown, pointer: JsonPointer, text?: string): KeyReading {
  const found = resolvePointer(record, pointer);
  if (!found.found) return { error: `no conversation key at ${pointer.text}: ${found.reason}` };
  // A replayer that groups records by its own reading of the key would put this one in another conversation than the gate.
  const folded = foldedTwiceOnTheWay(record, pointer);
  if (folded !== undefined) return { error: `no conversation key at ${pointer.text}: the ${describeNamesFoldedTwice("record", folded)}` };
  const value = found.value;
  if (typeof value === "string") {
    // A writer or partitioner that encodes keys in UTF-8 writes a lone surrogate as U+FFFD, and joins this conversation to the one of that key.
    if (LONE_SURROGATE.test(value)) return { error: `no conversation key at ${pointer.text}: the string holds a lone surrogate, which UTF-8 writes as U+FFFD, so that two different keys can read as one` };
    return { key: value, id: "s" + value };
  }
  if (typeof value === "number" && Number.isSafeInteger(value)) {
    const written = text === undefined ? undefined : inexactLiterals(text)?.get(String(value));
    if (written !== undefined) return { error: `no conversation key at ${pointer.text}: the line writes ${written}, which a double reads as ${String(value)}; a key is a string or a whole number written as one` };
    return { key: value, id: "n" + String(value) };
  }
  const what = typeof value !== "number" ? describeValue(value) : Number.isInteger(value) ? "a number past 2^53 - 1, where two different ids can read as one" : `the number ${String(value)}, not a whole number`;
  return { error: `no conversation key at ${pointer.text}: it is ${what}; a key is a string or a whole number up to 2^53 - 1` };
}

/**
 * The first object on the pointer's way that holds, beside the member a token
 * names, another whose name folds to the same (`Conversation_id` beside
 * `conversation_id`). The gate reads the member the token spells; a reader
 * that matches names regardless of case or width reads the last of the two.
 */
function foldedTwiceOnTheWay(record: unknown, pointer: JsonPointer): NamesFoldedTwice | undefined {
  let current = record;
  let at = "";
  for (const token of pointer.tokens) {
    if (Array.isArray(current)) current = current[Number(token)];
    else if (isPlainObject(current)) {
      const wanted = comparedName(token);
      for (const name of Object.keys(current)) if (name !== token && comparedName(name) === wanted) return { names: [token, name], path: at };
      current = current[token];
    } else return undefined;
    at += "/" + pointerToken(token);
  }
  return undefined;
}

/** A key as the text output writes it: a string in quotes, a number as it is. */
export function keyText(key: ConversationKey): string {
  return JSON.stringify(key);
}
