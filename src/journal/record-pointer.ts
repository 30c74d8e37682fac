// `--record POINTER`: the record inside each wrapped log line
// (`{"timestamp":…, "conversation_id":…, "message":{…}}` with `--record /message`).
// A line whose pointer leads nowhere is an error on its line, never skipped, and
// nothing is guessed: without the option a line is its own record.
//
// The record is taken as the line wrote it (its numbers byte for byte), and the
// wrapper is kept beside it, so that an output record can be written back in
// its place with every other field of the wrapper as it was: the output's text
// spliced into the wrapper's text where the record stood.
import type { JournalLine } from "./read.js";
import { resolvePointer, type JsonPointer } from "./json-pointer.js";
import { BoundedMap } from "../models/bounded-map.js";
import { namedTwice } from "./parse-record.js";
import { describeNamesFoldedTwice, firstNamesFoldedTwice, mayFoldTwice, RECORD_NAMES } from "../models/names-folded-twice.js";
import { foldName } from "../models/folded-name.js";
import { unreadLine } from "./unreadable-request.js";
import { splitByCarriageReturns } from "./carriage-return-lines.js";

/** A wrapped line's text, and where in it the record stands. */
export interface RecordWrapper {
  text: string;
  start: number;
  end: number;
}

// Keyed by the line object the reader yields, so a wrapper lives as long as its line.
const WRAPPERS = new WeakMap<JournalLine, RecordWrapper>();

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
  // The whole line is one JSON text: a name given twice anywhere in it (the
  // record's own name too, `"message"` then `"\u006dessage"`) is read as one
  // value by JSON.parse and as another by a reader that keeps the first, so the
  // line is refused whole, as a line that is its own record would be.
  const twice = namedTwice(line.text, wrapper, "line");
  if (twice !== undefined) return unreadLine(line, twice);
  // So is a line that a reader ending lines at a lone "\r" reads as several
  // records (carriage-return-lines.ts): a wrapper of one of those may hold, at
  // the pointer, a record that the record found here does not show.
  const split = splitByCarriageReturns(line.text);
  if (split !== undefined) return unreadLine(line, split);
  // So is a line with two names a reader folding case or width takes for one, of
  // the names on the pointer's way or that decide a call: `"message"` and
  // `"Message"` are one member to Go's encoding/json, which keeps the last, so it
  // would replay the record the pointer does not find.
  const decides = (name: string) => RECORD_NAMES(name) || pointer.tokens.some((token) => foldName(token) === name);
  const folded = mayFoldTwice(wrapper, decides) ? firstNamesFoldedTwice(wrapper, decides, true) : undefined;
  if (folded !== undefined) return unreadLine(line, describeNamesFoldedTwice("line", folded));
  const found = resolvePointer(wrapper, pointer);
  // The record may stand elsewhere in the line than the pointer says.
  if (!found.found) return unreadLine(line, `--record ${pointer.text} finds no record in this line: ${found.reason}`);
  const span = valueSpan(line.text, pointer.tokens);
  if (span === undefined) return { ...line, text: JSON.stringify(found.value) };
  const unwrapped = { ...line, text: line.text.slice(span.start, span.end) };
  WRAPPERS.set(unwrapped, { text: line.text, ...span });
  return unwrapped;
}

/** A wrapped line not read, as an error on its line: one that names a request's tool fields may have been a request body. */

/** The wrapper a line was taken out of by `unwrapRecord`, if it was. */
export function wrapperOf(line: JournalLine): RecordWrapper | undefined {
  return WRAPPERS.get(line);
}

/** An output record's JSON text written back in its wrapper, in place of the record it came from. */
export function rewrap(wrapper: RecordWrapper, recordText: string): string {
  return wrapper.text.slice(0, wrapper.start) + recordText + wrapper.text.slice(wrapper.end);
}

/**
 * Where the value a pointer names stands in a JSON text that parses. A name
 * given twice in one object is the last one, as JSON.parse takes it.
 */
export function valueSpan(text: string, tokens: readonly string[]): { start: number; end: number } | undefined {
  let at = skipSpace(text, 0);
  for (const token of tokens) {
    const opening = text[at];
    if (opening !== "{" && opening !== "[") return undefined;
    let found: number | undefined;
    let index = 0;
    at = skipSpace(text, at + 1);
    while (text[at] !== "}" && text[at] !== "]") {
      let matches: boolean;
      if (opening === "{") {
        const keyEnd = stringEnd(text, at);
        matches = (JSON.parse(text.slice(at, keyEnd)) as string) === token;
        at = skipSpace(text, skipSpace(text, keyEnd) + 1);
      } else {
        matches = String(index) === token;
      }
      if (matches) found = at;
      at = skipSpace(text, valueEnd(text, at));
      if (text[at] === ",") at = skipSpace(text, at + 1);
      index += 1;
    }
    if (found === undefined) return undefined;
    at = found;
  }
  return { start: at, end: valueEnd(text, at) };
}

function skipSpace(text: string, at: number): number {
  while (at < text.length && (text[at] === " " || text[at] === "\t" || text[at] === "\n" || text[at] === "\r")) at += 1;
  return at;
}

/** The end of the string that opens at `at` (its closing quote included). */
function stringEnd(text: string, at: number): number {
  let index = at + 1;
  while (index < text.length && text[index] !== '"') index += text[index] === "\\" ? 2 : 1;
  return index + 1;
}

/** The end of the value that starts at `at`, nested values skipped without recursion. */
function valueEnd(text: string, at: number): number {
  const first = text[at];
  if (first === '"') return stringEnd(text, at);
  if (first !== "{" && first !== "[") {
    let index = at;
    while (index < text.length && !",}] \t\n\r".includes(text[index]!)) index += 1;
    return index;
  }
  let depth = 0;
  let index = at;
  while (index < text.length) {
    const char = text[index]!;
    if (char === '"') {
      index = stringEnd(text, index);
      continue;
    }
    if (char === "{" || char === "[") depth += 1;
    else if (char === "}" || char === "]") {
      depth -= 1;
      if (depth === 0) return index + 1;
    }
    index += 1;
  }
  return index;
}

/** Wrappers held for the records still to be written; enough for a stream's lines, few enough to keep memory flat. */
const HELD_WRAPPERS = 4096;

/**
 * The wrappers of the lines read, by source and line number, so that each
 * output record goes back into the wrapper of the line it is written for; the
 * oldest are let go past HELD_WRAPPERS lines.
 */
export class LineWrappers {
  private readonly held = new BoundedMap<string, RecordWrapper>(HELD_WRAPPERS);

  hold(line: JournalLine): void {
    const wrapper = wrapperOf(line);
    if (wrapper === undefined) return;
    this.held.set(key(line.source, line.line), wrapper);
  }

  of(source: string | undefined, line: number): RecordWrapper | undefined {
    return this.held.get(key(source, line));
  }
}

function key(source: string | undefined, line: number): string {
  return `${line}\u0000${source ?? ""}`;
}
