// A lone carriage return in a line of JSONL. JSON takes it for white space
// between tokens, and this reader, as Go's bufio.Scanner, ends lines at "\n"
// alone. Python's text files (universal newlines, what open() gives by default),
// Node's readline and Java's BufferedReader.readLine end a line at a lone "\r"
// too: to them such a line is several. Where none of those pieces is JSON on its
// own, they read no record in it and replay nothing of it; where one is an
// object or an array, they read it as a record of its own, which may be a call
// the gate never took for a record (a `local_shell_call` written as a member of
// a tool's input, which no count of calls finds). SSE ends a line at a lone "\r"
// for every reader alike (sse.ts), so a line whose pieces are all SSE framing is
// read as the gate reads it.
import { isSseFraming } from "./sse.js";

/**
 * Why a reader that ends lines at a lone "\r" reads records in `text` that the
 * gate does not, or undefined when it reads none but the line's own (no "\r",
 * one beside white space alone, or pieces none of which is JSON alone).
 */
export function splitByCarriageReturns(text: string): string | undefined {
  if (text.indexOf("\r") === -1) return undefined;
  const pieces = text.split("\r").filter((piece) => !/^[ \t]*$/.test(piece));
  if (pieces.length < 2 || pieces.every(isSseFraming)) return undefined;
  const records = pieces.filter(isRecordAlone).length;
  if (records === 0) return undefined;
  return `line holds a carriage return with no line feed after it, where Python's text files, Node's readline and Java's readLine end a line: they read it as ${pieces.length} lines, ${records} of them JSON that the gate never judged as a record`;
}

/** Whether a piece of a line is, alone, a JSON object or array: a record to a reader of lines. */
export function isRecordAlone(piece: string): boolean {
  const first = piece.trimStart().charCodeAt(0);
  if (first !== 0x7b && first !== 0x5b) return false;
  try {
    JSON.parse(piece);
    return true;
  } catch {
    return false;
  }
}
