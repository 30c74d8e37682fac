// A line of a pretty-printed document that is, alone, a JSON value. The gate
// reads such a document as its records (the body, or the array's elements); a
// replayer that reads every file as JSONL and skips the lines it cannot parse
// (Python's `json.loads` on each line of `open(f)`, Node's readline, Go's
// bufio.Scanner) reads only the lines that parse alone, and takes each for a
// record. An element of a top-level array written on one line is a record the
// gate judged as such. Any other line that parses alone sits inside a record.
// A tool call there is counted by the gate wherever the record writes it
// (count-written-calls.ts), and blocks the record when no converter read it;
// an extension item (`local_shell_call`, a type with a slug) is not: written
// as a member of a tool's input or of metadata, it passes unseen, and the
// replayer would run it. The record around such a line is not read. Where the
// gate did read the item, it blocked it already (`namespaced`).
//
// | line, trimmed (and a comma that ends it dropped), parsing | the record around it |
// | alone as an object or an array                            |                      |
// |-----------------------------------------------------------|----------------------|
// | an element of the top-level array                         | is the line: judged  |
// | holding an object whose `type` names an extension item    | not read             |
// | anything else (a message, a part, a call the gate counts) | read                 |
//
// What the usual writers print is left alone: Python's `json.dumps(indent=2)`
// and `JSON.stringify(value, null, 2)` put no object on one line but `{}`;
// prettier's short objects sit on one line, followed by a comma but for the
// last of their array, and an extension item among them is one the gate reads
// and blocks, or one it never read.
import { OPENAI_ITEM_TYPES } from "../models/provider-item-types.js";
import { stringEnd } from "./document-texts.js";

/** A line of a document that a JSONL reader reads as a record holding an extension item, and the record of the document it lies in. */
export interface LineReadAlone {
  /** 1-based line of the document. */
  line: number;
  /** 0-based index of the record (the top-level array's element; 0 for a document that is one record). */
  record: number;
  /** What the line holds, for the error. */
  holds: string;
  /** Whether the line parses only without the comma that ends it. */
  commaDropped: boolean;
}

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

/**
 * The lines of a document's text (valid JSON) that parse alone as an object or
 * an array holding an extension item, and are not records of the
 * document themselves. Lines end at "\n", "\r\n" and a lone "\r", as Python's
 * text files end them; JSON allows no other line ending outside strings.
 */
export function linesReadAlone(text: string): LineReadAlone[] {
  const found: LineReadAlone[] = [];
  const isArray = firstToken(text) === 0x5b;
  let depth = 0;
  let record = 0;
  let line = 1;
  let lineStart = 0;
  let startDepth = 0;
  let startRecord = 0;
  const endLine = (end: number) => {
    // A line that starts inside a string starts in the middle of a token: it cannot parse alone as a value the document holds.
    const candidate = startDepth >= (isArray ? 2 : 1) ? readAlone(text.slice(lineStart, end)) : undefined;
    if (candidate !== undefined) found.push({ line, record: isArray ? startRecord : 0, ...candidate });
  };
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    // Valid JSON holds no line ending inside a string: lines are counted outside them alone.
    if (code === QUOTE) at = stringEnd(text, at);
    else if (code === 0x5b || code === 0x7b) depth++;
    else if (code === 0x5d || code === 0x7d) depth--;
    else if (code === 0x2c && depth === 1) record++;
    else if (code === LF || code === CR) {
      endLine(at);
      if (code === CR && text.charCodeAt(at + 1) === LF) at++;
      line++;
      lineStart = at + 1;
      startDepth = depth;
      startRecord = record;
    }
  }
  endLine(text.length);
  return found;
}

/** The extension item a line holds, when it parses alone as an object or an array; else undefined. */
function readAlone(lineText: string): { holds: string; commaDropped: boolean } | undefined {
  let trimmed = lineText.trim();
  const first = trimmed.charCodeAt(0);
  if (first !== 0x7b && first !== 0x5b) return undefined;
  // A reader of an array written one element a line drops the comma that ends each line, and reads the rest as a record.
  const commaDropped = trimmed.endsWith(",");
  if (commaDropped) trimmed = trimmed.slice(0, -1);
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return undefined;
  }
  const extension = extensionType(value);
  return extension === undefined ? undefined : { holds: `an extension item ("${extension}")`, commaDropped };
}

/** The first `type` of an object in `value` that names an extension item: a provider's type kept without its slug, or one with a slug. */
function extensionType(value: unknown): string | undefined {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (next === null || typeof next !== "object") continue;
    if (Array.isArray(next)) {
      // One at a time: spread into a call, a list of a few hundred thousand values overflows the stack.
      for (const value of next) pending.push(value);
      continue;
    }
    const type = (next as { type?: unknown }).type;
    if (typeof type === "string" && (OPENAI_ITEM_TYPES.has(type) || type.includes(":"))) return type;
    for (const value of Object.values(next)) pending.push(value);
  }
  return undefined;
}

/** The first character of the text that is not white space (a BOM counts as white space here). */
function firstToken(text: string): number {
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code !== 0x20 && code !== 0x09 && code !== LF && code !== CR && code !== 0xfeff) return code;
  }
  return -1;
}
