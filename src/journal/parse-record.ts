// A journal record from its text: JSON.parse, then the check that no object of
// it names a member twice. A record with `"type"` or `"status"` given twice is
// one thing to JSON.parse and another to a reader that keeps the first value
// (`"type":"openai:shell_call","type":"function_call"`), so it is no record at
// all: the line becomes an error, which the gate blocks and normalize reports.
//
// So is a record with two names a loose reader takes for one, where the name
// is one that decides a call (`type` and `Type`: names-folded-twice.ts).
//
// The same walk counts the tool calls the record writes in any envelope's form
// (count-written-calls.ts): the gate compares that count with the calls the
// record gives, and a second walk of every object of every line was a tenth of
// what reading a journal cost.
import { describeDuplicateName, duplicateName } from "../models/duplicate-names.js";
import { parseJsonText } from "../models/json-value.js";
import { describeNamesFoldedTwice, firstNamesFoldedTwice, RECORD_NAMES } from "../models/names-folded-twice.js";
import { tallyWritten } from "./count-written-calls.js";

/** What the walk of a parsed record found: the tool calls it writes, and whether an object of it names `parsed_arguments`. */
export interface RecordCount {
  writtenCalls: number;
  parsedArguments: boolean;
}

/** `counted`: what the walk found, when it walked the whole record. */
export type ParsedRecord = { ok: true; value: unknown; counted?: RecordCount } | { ok: false; detail: string };

const SCALAR: RecordCount = { writtenCalls: 0, parsedArguments: false };

/** `what` names the text in the detail: "line", "SSE data". `colons`: the text's colonsAfterClosingQuotes, when counted already. */
export function parseRecord(text: string, what: string, colons?: number): ParsedRecord {
  const parsed = parseJsonText(text);
  if (!parsed.ok) return { ok: false, detail: `${what} is not JSON: ${parsed.message}` };
  const value = parsed.value;
  if (value === null || typeof value !== "object") return { ok: true, value, counted: SCALAR };
  let tally: ReturnType<typeof tallyWritten>;
  try {
    tally = tallyWritten(value);
  } catch (error) {
    return { ok: false, detail: uncheckedDetail(what, error) };
  }
  const twice = namedTwice(text, value, what, tally?.members, colons);
  if (twice !== undefined) return { ok: false, detail: twice };
  // Names one only once folded: the walk said so, or did not walk the whole record.
  const folded = tally === undefined || tally.foldedTwice ? firstNamesFoldedTwice(value, RECORD_NAMES, true) : undefined;
  if (folded !== undefined) return { ok: false, detail: describeNamesFoldedTwice(what, folded) };
  return tally === undefined ? { ok: true, value } : { ok: true, value, counted: { writtenCalls: tally.calls, parsedArguments: tally.parsedArguments } };
}

/**
 * Why a JSON text, which JSON.parse read as `value`, is no record: a name it
 * gives twice in one object, or that the check could not finish; undefined when
 * each name is given once. `membersCounted`, `colonsCounted`: see duplicateName.
 */
export function namedTwice(text: string, value: unknown, what: string, membersCounted?: number, colonsCounted?: number): string | undefined {
  try {
    const duplicate = duplicateName(text, value, membersCounted, colonsCounted);
    return duplicate === undefined ? undefined : describeDuplicateName(what, duplicate);
  } catch (error) {
    return uncheckedDetail(what, error);
  }
}

function uncheckedDetail(what: string, error: unknown): string {
  return `${what} could not be checked for names given twice: ${(error as Error).message}`;
}
