// Numbers as the journal wrote them. JSON.parse reads every number into a
// double, and JSON.stringify writes the double's shortest text: `0.0` comes out
// `0`, `1E3` as `1000`, and an integer beyond 2^53 (a 19-digit id) as another
// integer. A line whose numbers all read back as they were written (nearly all
// lines) costs one regular-expression test; for the others, the text of each
// number is remembered by its place (the member name it sits under, and the
// array indices after that name) and the text its double writes, and put back
// when the record's conversion is written, at that place only. A converter
// writes numbers of its own (a count it adds up, a 0 it synthesizes, an index):
// matched by value alone, such a 0 would get the text of a `-0` the line wrote
// elsewhere. A number of the output at another place than the line's, or
// written there more times than the line wrote it, cannot be told from a copy:
// it is written as its double writes it, and said. So is a number a line
// writes two ways at one place (`0` and `0.0`).
import { standsAsDouble } from "../models/decimal-value.js";
import { isSseFraming } from "./sse.js";
import type { Loss } from "../models/loss.js";
import { pointer, pointerToken } from "../models/json-pointer.js";
import { scanJson, type JsonPath } from "../models/json-scan.js";
import { parseJsonText } from "../models/json-value.js";

/** How a line wrote the numbers of one double at one place: each text, how many numbers, and the first one's JSON Pointer (none for several lines'). */
export interface NumberForms {
  readonly forms: ReadonlySet<string>;
  readonly count: number;
  readonly at?: string;
}

/** For each double's text and place (`placeKey`), how the line wrote it there (its own text included, when the line wrote it so). */
export type NumberTexts = ReadonlyMap<string, NumberForms>;

// A number whose text JSON.stringify would not give back has an exponent, a
// fraction ending in 0, a -0, 16 or more significant digits, or six leading
// zeros in its fraction. Any line that could hold one matches (strings too:
// a false match only costs the scan).
const MAYBE_NOT_SHORTEST = /[eE][-+]?\d|\d\.\d*0(?!\d)|-0(?![.\d])|[\d.]{16}|\.0{6}/;

/**
 * A number's key in a table: its double's text and its place, the path from
 * the nearest member name above it down (`output_tokens`, `enum/1`). A copy a
 * converter makes keeps the name (`temperature` in Chat and under Gemini's
 * generationConfig, a schema's `maximum` wherever its tool is written); a
 * number it makes has one of its own.
 */
function placeKey(shortest: string, path: JsonPath): string {
  let from = path.length;
  while (from > 0 && typeof path[from - 1] === "number") from -= 1;
  return `${shortest} ${pointer(...path.slice(Math.max(from - 1, 0)))}`;
}

/** The double's text of a table key. */
function shortestOf(key: string): string {
  return key.slice(0, key.indexOf(" "));
}

/** The place of a table key, as a JSON Pointer from its member name. */
function placeOf(key: string): string {
  return key.slice(key.indexOf(" ") + 1);
}

/** The numbers of a line of JSON text that do not read back as written, or undefined when there are none. */
export function numberTextsOf(text: string): NumberTexts | undefined {
  if (!MAYBE_NOT_SHORTEST.test(text)) return undefined;
  return notAsDoublesWrite(writtenNumbers(text));
}

/**
 * Every number of JSON text, by its double's text and place: a table of lines
 * to be merged (a stream's) needs the numbers each line writes as the double
 * does, since another line's `7.0` cannot be put back where one of them wrote `7`.
 */
export function writtenNumbers(text: string): NumberTexts {
  const texts = new Map<string, { forms: Set<string>; count: number; at?: string }>();
  scanJson(text, {
    number: (written, path) => {
      const key = placeKey(JSON.stringify(Number(written)), path);
      const seen = texts.get(key);
      if (seen === undefined) texts.set(key, { forms: new Set([written]), count: 1, at: pointer(...path) });
      else {
        seen.forms.add(written);
        seen.count += 1;
      }
    },
  });
  return texts;
}

/** The numbers of a table written otherwise than their doubles write them, or undefined when there are none. */
export function notAsDoublesWrite(texts: NumberTexts): NumberTexts | undefined {
  const odd = new Map<string, NumberForms>();
  for (const [key, seen] of texts) if (seen.forms.size > 1 || !seen.forms.has(shortestOf(key))) odd.set(key, seen);
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
  const exact = new Map<string, NumberForms>();
  for (const [key, seen] of texts) if ([...seen.forms].every(standsAsDouble)) exact.set(key, seen);
  return exact.size === 0 ? undefined : exact;
}

/** Texts from several lines (a stream's), as one table, without pointers: the record a loss is reported with is not each line's. */
export function mergeNumberTexts(tables: readonly NumberTexts[]): NumberTexts | undefined {
  if (tables.length === 0) return undefined;
  if (tables.length === 1) return tables[0];
  const merged = new Map<string, NumberForms>();
  for (const table of tables) {
    for (const [key, seen] of table) {
      const into = merged.get(key);
      merged.set(key, { forms: new Set([...(into?.forms ?? []), ...seen.forms]), count: (into?.count ?? 0) + seen.count });
    }
  }
  return merged;
}

/**
 * JSON text written by JSON.stringify with the numbers of `texts` put back as
 * the journal wrote them, each at its place only, and a loss for each number
 * that cannot be put back: written two ways at its place, written at its place
 * more often than the line wrote it, or of a double the line wrote otherwise at
 * another place only (a copy moved to another field, or a number the converter
 * made: which, the text cannot tell).
 */
export function restoreNumberTexts(json: string, texts: NumberTexts): { text: string; losses: Loss[] } {
  const odd = new Set<string>();
  for (const key of texts.keys()) odd.add(shortestOf(key));
  const found: Array<{ key: string; start: number; end: number; at: () => string }> = [];
  const written = new Map<string, number>();
  scanJson(json, {
    number: (literal, path, start) => {
      if (!odd.has(literal)) return;
      const key = placeKey(literal, path);
      const tokens = [...path];
      found.push({ key, start, end: start + literal.length, at: () => pointer(...tokens) || "/" });
      written.set(key, (written.get(key) ?? 0) + 1);
    },
  });
  let out = "";
  let from = 0;
  let inTexts: CountedPlaces | undefined;
  const said = new Set<string>();
  const losses: Loss[] = [];
  const say = (key: string, path: string, detail: string) => {
    if (said.has(key)) return;
    said.add(key);
    losses.push({ path, code: "form_changed", detail });
  };
  for (const { key, start, end, at } of found) {
    const seen = texts.get(key);
    const shortest = shortestOf(key);
    if (seen === undefined) {
      // A double the line wrote otherwise, but at other places: each of those not all written back at its own place may be this one.
      for (const [other, forms] of texts) {
        if (shortestOf(other) !== shortest || (written.get(other) ?? 0) + (inTexts ??= placesInTexts(json)).get(other)! >= forms.count) continue;
        say(other, forms.at ?? "", `the line writes the number ${shortest} as ${[...forms.forms].join(" and as ")} at ${placeOf(other) || "/"}: the output writes ${shortest} at ${at()}, another place, which may be it or a number of the conversion's own, and is written ${shortest}`);
      }
      continue;
    }
    if (seen.forms.size > 1) {
      say(key, seen.at ?? "", `the line writes the number ${shortest} as ${[...seen.forms].join(" and as ")}: each is written ${shortest}`);
      continue;
    }
    const times = written.get(key)!;
    if (times > seen.count) {
      say(key, seen.at ?? "", `the line writes the number ${shortest} as ${[...seen.forms][0]} ${plural(seen.count)} at ${placeOf(key) || "/"}, and the output ${plural(times)}: which are the line's is not known, so each is written ${shortest}`);
      continue;
    }
    const [form] = seen.forms;
    out += json.slice(from, start) + form;
    from = end;
  }
  return { text: from === 0 ? json : out + json.slice(from), losses };
}

/** How many numbers each place holds, 0 for a place none does. */
class CountedPlaces extends Map<string, number> {
  override get(key: string): number {
    return super.get(key) ?? 0;
  }
}

/**
 * The numbers of the JSON texts that strings of `json` hold, by place: a call's
 * arguments text made of an object, whose numbers were put back as the line
 * wrote them before the record was written. Such a number is carried at its
 * place, though the record's own walk passes over strings.
 */
function placesInTexts(json: string): CountedPlaces {
  const places = new CountedPlaces();
  for (const [token] of json.matchAll(/"(?:[^"\\]|\\.)*"/g)) {
    if (token[1] !== "{" && token[1] !== "[") continue;
    const text = JSON.parse(token) as string;
    if (!parseJsonText(text).ok) continue;
    scanJson(text, {
      number: (literal, path) => {
        const key = placeKey(JSON.stringify(Number(literal)), path);
        places.set(key, places.get(key) + 1);
      },
    });
  }
  return places;
}

function plural(times: number): string {
  return times === 1 ? "once" : `${times} times`;
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
  const literals = new Set<string>();
  for (const [key, seen] of texts ?? []) if (shortestOf(key) === "null") for (const form of seen.forms) literals.add(form);
  if (literals.size === 0) return [];
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
    const merged = new Map<string, NumberForms>();
    for (const table of tables) {
      for (const [key, seen] of table) {
        const into = merged.get(key);
        merged.set(key, { forms: new Set([...(into?.forms ?? []), ...seen.forms, shortestOf(key)]), count: (into?.count ?? 0) + seen.count });
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
