// Numbers as the journal wrote them. JSON.parse reads every number into a
// double, and JSON.stringify writes the double's shortest text: `0.0` comes out
// `0`, `1E3` as `1000`, and an integer beyond 2^53 (a 19-digit id) as another
// integer. A line whose numbers all read back as they were written (nearly all
// lines) costs one regular-expression test; for the others, the text of each
// number is remembered by the text its double writes, and put back when the
// record's conversion is written. Where one line writes the same double two
// ways (`0` and `0.0`), the writer cannot tell which is which: that number is
// written as the double writes it, and said.
import { standsAsDouble } from "../models/decimal-value.js";
import { isSseFraming } from "./sse.js";
import type { Loss } from "../models/loss.js";
import { pointerToken } from "../models/json-pointer.js";

/** For each double's text, the texts the line wrote it as (its own text included, when the line wrote it so). */
export type NumberTexts = ReadonlyMap<string, ReadonlySet<string>>;

// A number whose text JSON.stringify would not give back has an exponent, a
// fraction ending in 0, a -0, 16 or more significant digits, or six leading
// zeros in its fraction. Any line that could hold one matches (strings too:
// a false match only costs the scan).
const MAYBE_NOT_SHORTEST = /[eE][-+]?\d|\d\.\d*0(?!\d)|-0(?![.\d])|[\d.]{16}|\.0{6}/;

/** The numbers of a line of JSON text that do not read back as written, or undefined when there are none. */
export function numberTextsOf(text: string): NumberTexts | undefined {
  if (!MAYBE_NOT_SHORTEST.test(text)) return undefined;
  return notAsDoublesWrite(writtenNumbers(text));
}

/**
 * Every number of JSON text, by its double's text: a table of lines to be
 * merged (a stream's) needs the numbers each line writes as the double does,
 * since another line's `7.0` cannot be put back where one of them wrote `7`.
 */
export function writtenNumbers(text: string): NumberTexts {
  const texts = new Map<string, Set<string>>();
  forEachNumber(text, (written) => {
    const shortest = JSON.stringify(Number(written));
    let seen = texts.get(shortest);
    if (seen === undefined) texts.set(shortest, (seen = new Set()));
    seen.add(written);
  });
  return texts;
}

/** The numbers of a table written otherwise than their doubles write them, or undefined when there are none. */
export function notAsDoublesWrite(texts: NumberTexts): NumberTexts | undefined {
  const odd = new Map<string, ReadonlySet<string>>();
  for (const [shortest, seen] of texts) if (seen.size > 1 || !seen.has(shortest)) odd.set(shortest, seen);
  return odd.size === 0 ? undefined : odd;
}

/**
 * The numbers of a table whose every text a double stands for (`2.50`, `1E3`,
 * `-0`), without those the line also writes in a form no double holds
 * (`0.1000000000000000055`): those stay as their doubles write them, and are
 * reported as such (inexact-numbers.ts). Undefined when none is left.
 */
export function exactForms(texts: NumberTexts | undefined): NumberTexts | undefined {
  if (texts === undefined) return undefined;
  const exact = new Map<string, ReadonlySet<string>>();
  for (const [shortest, seen] of texts) if ([...seen].every(standsAsDouble)) exact.set(shortest, seen);
  return exact.size === 0 ? undefined : exact;
}

/** Texts from several lines (a stream's), as one table. */
export function mergeNumberTexts(tables: readonly NumberTexts[]): NumberTexts | undefined {
  if (tables.length === 0) return undefined;
  if (tables.length === 1) return tables[0];
  const merged = new Map<string, Set<string>>();
  for (const table of tables) {
    for (const [shortest, seen] of table) {
      const into = merged.get(shortest) ?? new Set<string>();
      for (const written of seen) into.add(written);
      merged.set(shortest, into);
    }
  }
  return merged;
}

/**
 * JSON text written by JSON.stringify with the numbers of `texts` put back as
 * the journal wrote them, and a loss for each number the journal wrote two ways.
 */
export function restoreNumberTexts(json: string, texts: NumberTexts): { text: string; losses: Loss[] } {
  let out = "";
  let from = 0;
  const ambiguous = new Set<string>();
  forEachNumber(json, (shortest, start, end) => {
    const seen = texts.get(shortest);
    if (seen === undefined) return;
    if (seen.size > 1) {
      ambiguous.add(shortest);
      return;
    }
    const [written] = seen;
    out += json.slice(from, start) + written;
    from = end;
  });
  const losses: Loss[] = [...ambiguous].map((shortest) => ({
    path: "",
    code: "form_changed",
    detail: `the line writes the number ${shortest} as ${[...texts.get(shortest)!].join(" and as ")}: each is written ${shortest}`,
  }));
  return { text: from === 0 ? json : out + json.slice(from), losses };
}

/** JSON text as JSON.stringify writes it, with the journal's own number texts put back; a number it cannot put back is a loss in `losses`. */
export function writtenWith(json: string, texts: NumberTexts | undefined, losses: Loss[]): string {
  if (texts === undefined) return json;
  const restored = restoreNumberTexts(json, texts);
  losses.push(...restored.losses);
  return restored.text;
}

/**
 * A loss for each number of `records` (values about to be written) past the
 * largest double, where the lines they come from wrote one (`1e400`, which
 * JSON.parse reads as Infinity): JSON.stringify writes it `null`, and a null
 * of the output cannot be told from one the record wrote, so it is not put
 * back but said. Strings are not walked: a text holding it is said where it
 * was made (inexact-texts.ts).
 */
export function infiniteNumberLosses(records: readonly unknown[], texts: NumberTexts | undefined): Loss[] {
  const literals = texts?.get("null");
  if (literals === undefined) return [];
  const losses: Loss[] = [];
  const written = [...literals].join(" or ");
  records.forEach((record, index) => {
    for (const at of infinitePointers(record)) {
      const where = `${at || "/"}${records.length > 1 ? ` of output record ${index + 1}` : ""}`;
      losses.push({ path: "", code: "form_changed", detail: `the number ${written} of the line is past the largest double: the value written at ${where} is null, as JSON.stringify writes it` });
    }
  });
  return losses;
}

/** The JSON Pointer of each number of `value` that is not finite, in document order. */
function infinitePointers(value: unknown): string[] {
  const found: string[] = [];
  // An explicit stack of values and their pointers: a record may nest deeper than the call stack goes.
  const pending: Array<{ value: unknown; at: string }> = [{ value, at: "" }];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (typeof next.value === "number" && !Number.isFinite(next.value)) found.push(next.at);
    if (next.value === null || typeof next.value !== "object") continue;
    const children = Object.entries(next.value);
    for (let at = children.length - 1; at >= 0; at -= 1) pending.push({ value: children[at]![1], at: `${next.at}/${pointerToken(children[at]![0])}` });
  }
  return found;
}

/** Calls `visit` with each number token of JSON text (outside strings), and where it starts and ends. */
function forEachNumber(text: string, visit: (token: string, start: number, end: number) => void): void {
  const length = text.length;
  let i = 0;
  while (i < length) {
    const code = text.charCodeAt(i);
    if (code === 0x22) {
      // A string: skip to its closing quote, past escapes.
      i += 1;
      while (i < length) {
        const inner = text.charCodeAt(i);
        if (inner === 0x5c) i += 2;
        else if (inner === 0x22) break;
        else i += 1;
      }
      i += 1;
      continue;
    }
    if (code === 0x2d || (code >= 0x30 && code <= 0x39)) {
      const start = i;
      i += 1;
      while (i < length) {
        const next = text.charCodeAt(i);
        if ((next >= 0x30 && next <= 0x39) || next === 0x2e || next === 0x65 || next === 0x45 || next === 0x2b || next === 0x2d) i += 1;
        else break;
      }
      visit(text.slice(start, i), start, i);
      continue;
    }
    i += 1;
  }
}

/**
 * The number texts of a journal's recent lines, by line number, for a record
 * written after the lines it comes from (a stream's, above all). Only lines
 * that hold such a number take room, and only the last WINDOW of them: a
 * stream longer than that is rare enough to be written as its doubles write.
 */
export class LineNumberTexts {
  static readonly WINDOW = 50_000;
  private readonly lines = new Map<number, NumberTexts>();
  /** The last line whose texts were let go, past the window. */
  private forgotten = 0;
  /** The first line of the SSE event being read: its record is placed there, and so are the numbers of its data lines. */
  private eventLine = 0;

  constructor(private readonly window = LineNumberTexts.WINDOW) {}

  read(line: { line: number; text: string; error?: string }): void {
    if (line.error !== undefined) return;
    const text = line.text;
    let at = line.line;
    if (text === "") this.eventLine = 0;
    else if (isSseFraming(text)) {
      if (text.charCodeAt(0) === 0x3a /* ":" a comment */) return;
      if (this.eventLine === 0) this.eventLine = line.line;
      at = this.eventLine;
    } else this.eventLine = 0;
    // Every number of such a line, those written as their doubles write them too: another line's `7.0` is not put back where this one wrote `7`.
    if (MAYBE_NOT_SHORTEST.test(text)) {
      const texts = writtenNumbers(text);
      const held = this.lines.get(at);
      if (held !== undefined) this.lines.set(at, mergeNumberTexts([held, texts])!);
      else if (notAsDoublesWrite(texts) !== undefined) this.lines.set(at, texts);
    }
    for (const first of this.lines.keys()) {
      if (first >= line.line - this.window) break;
      this.lines.delete(first);
      this.forgotten = first;
    }
  }

  /**
   * The last line from `first` on whose texts were let go: a record that waited
   * longer than the window (a long run of loose items) is written with its
   * numbers as their doubles write them, and the writer says so.
   */
  forgottenFrom(first: number): number | undefined {
    return this.forgotten >= first ? this.forgotten : undefined;
  }

  /**
   * The texts of lines first to last, as one table. A line that writes every
   * number as its double does is not kept, so which numbers it writes is not
   * known: where the lines hold one, each number another line writes otherwise
   * may be written by it as its double writes it, and is taken as written both ways.
   */
  between(first: number, last: number): NumberTexts | undefined {
    if (this.lines.size === 0) return undefined;
    const tables: NumberTexts[] = [];
    if (last - first < this.lines.size) {
      for (let line = first; line <= last; line++) {
        const texts = this.lines.get(line);
        if (texts !== undefined) tables.push(texts);
      }
    } else {
      for (const [line, texts] of this.lines) if (line >= first && line <= last) tables.push(texts);
    }
    if (tables.length === 0) return undefined;
    if (tables.length === last - first + 1) return notAsDoublesWrite(mergeNumberTexts(tables)!);
    // Each number's forms in the order first met, its shortest form after those of the first table that holds it.
    const merged = new Map<string, Set<string>>();
    for (const table of tables) {
      for (const [shortest, seen] of table) {
        let forms = merged.get(shortest);
        if (forms === undefined) merged.set(shortest, (forms = new Set(seen)));
        else for (const written of seen) forms.add(written);
        forms.add(shortest);
      }
    }
    return notAsDoublesWrite(merged);
  }

  clear(): void {
    this.lines.clear();
    this.forgotten = 0;
    this.eventLine = 0;
  }
}
