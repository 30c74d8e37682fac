// A journal record from its text: JSON.parse, then the check that no object of
// it names a member twice. A record with `"type"` or `"status"` given twice is
// one thing to JSON.parse and another to a reader that keeps the first value
// (`"type":"openai:shell_call","type":"function_call"`), so it is no record at
// all: the line becomes an error, which the gate blocks and normalize reports.
import { describeDuplicateName, duplicateName } from "../models/duplicate-names.js";
import { parseJsonText } from "../models/json-value.js";

export type ParsedRecord = { ok: true; value: unknown } | { ok: false; detail: string };

/** `what` names the text in the detail: "line", "SSE data". */
export function parseRecord(text: string, what: string): ParsedRecord {
  const parsed = parseJsonText(text);
  if (!parsed.ok) return { ok: false, detail: `${what} is not JSON: ${parsed.message}` };
  const value = parsed.value;
  try {
    const duplicate = duplicateName(text, value);
    return duplicate === undefined ? parsed : { ok: false, detail: describeDuplicateName(what, duplicate) };
  } catch (error) {
    return { ok: false, detail: `${what} could not be checked for names given twice: ${(error as Error).message}` };
  }
}
