// `--record POINTER`: the record inside each wrapped log line
// (`{"timestamp":…, "conversation_id":…, "message":{…}}` with `--record /message`).
// A line whose pointer leads nowhere is an error on its line, never skipped, and
// nothing is guessed: without the option a line is its own record.
import type { JournalLine } from "./read.js";
import { resolvePointer, type JsonPointer } from "./json-pointer.js";

/** The record a line wraps, as a line of its own with the same number; an error line when the pointer finds nothing. */
export function unwrapRecord(line: JournalLine, pointer: JsonPointer): JournalLine {
  if (line.error !== undefined || line.text.trim() === "") return line;
  let wrapper: unknown;
  try {
    wrapper = JSON.parse(line.text);
  } catch {
    // Not JSON: the reader downstream reports it as it reports any such line.
    return line;
  }
  const found = resolvePointer(wrapper, pointer);
  if (!found.found) {
    const error = `--record ${pointer.text} finds no record in this line: ${found.reason}`;
    return { ...line, text: error, error };
  }
  return { ...line, text: JSON.stringify(found.value) };
}
