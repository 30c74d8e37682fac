// Characters other than "\n" and "\r" that Python's str.splitlines ends a line
// at: vertical tab, form feed, the file, group and record separators, NEL,
// U+2028 and U+2029. This reader, Go's bufio.Scanner, Node's readline and SSE
// (sse.ts) take them for content; str.splitlines, and the readers built on it
// (requests' and httpx's iter_lines, which SSE clients read events from), end
// a line there. JSON allows none of them between tokens, and only the last
// three inside a string, where no piece the line is cut into can spell a call;
// so a line read as JSON is read alike. A line the gate passes over is not: an
// SSE comment or an `id:` field (`: ping\u2028{"type":"local_shell_call",…}`)
// is, to those readers, a line they skip and a record, or an event's data,
// they read, holding what the gate never judged.
//
// | piece of the line, cut at those characters | to such a reader              |
// |--------------------------------------------|-------------------------------|
// | a JSON object or array alone               | a record of its own (JSONL)   |
// | `data:` after the first piece              | data of an SSE event          |
// | anything else                              | what the gate read, or nothing |

import { isRecordAlone, splitByCarriageReturns } from "./carriage-return-lines.js";

const SPLITLINES_ONLY = /[\v\f\x1c-\x1e\x85\u2028\u2029]/;

/**
 * Why a reader that ends lines where str.splitlines does reads records or SSE
 * data in `text` that the gate does not, or undefined when it reads none.
 */
export function splitAtUnicodeLineEnds(text: string): string | undefined {
  // A line that opens as JSON text is read as JSON, or not read at all (an
  // error line): either way the gate reads it as those readers do, and the
  // scan, on every line of a journal, is spared.
  if (opensAsJson(text) || !SPLITLINES_ONLY.test(text)) return undefined;
  const pieces = text.split(new RegExp(SPLITLINES_ONLY.source, "g"));
  const records = pieces.filter(isRecordAlone).length;
  const data = pieces.slice(1).filter((piece) => piece.startsWith("data:")).length;
  if (records === 0 && data === 0) return undefined;
  const read = [records > 0 ? `${records} of them JSON that the gate never judged as a record` : "", data > 0 ? `${data} of them SSE data the gate never read` : ""].filter((part) => part !== "").join(", ");
  return `line holds a vertical tab, form feed, separator control, NEL, U+2028 or U+2029, where Python's str.splitlines (and the iter_lines of requests and httpx) end a line: they read it as ${pieces.length} lines, ${read}`;
}

/** Whether the first character of `text` past JSON white space opens an object or an array. */
function opensAsJson(text: string): boolean {
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === 0x20 || code === 0x09 || code === 0x0d || code === 0x0a) continue;
    return code === 0x7b || code === 0x5b;
  }
  return false;
}

/**
 * Why readers that end lines where this one does not (at a lone "\r", or where
 * str.splitlines does) read records in `text` that the gate does not, or
 * undefined when every reader reads the line as one.
 */
export function readAsSeveralLines(text: string): string | undefined {
  return splitByCarriageReturns(text) ?? splitAtUnicodeLineEnds(text);
}
