// Span attributes as one map, whatever the export wrote them as:
//
// | written as                                               | by                        |
// |----------------------------------------------------------|---------------------------|
// | `[{key, value: {stringValue\|intValue\|…}}]`              | OTLP JSON, Tempo          |
// | `[{key, type, value}]`                                   | Jaeger query JSON (`tags`) |
// | `{key: value}`                                           | SDK span dicts, Langfuse  |
//
// Each value keeps the JSON Pointer of where it stands in the document, so that a
// loss found inside it names its place.
import { isDeepStrictEqual } from "node:util";
import { isPlainObject, setOwn } from "../../src/models/json-value.js";
import { pointerToken } from "../../src/models/json-pointer.js";
import { literalsNotStanding, shownLiteral, standsAsDouble } from "../../src/models/decimal-value.js";
import { describeDuplicateName, duplicateName } from "../../src/models/duplicate-names.js";
import { describeNamesFoldedTwice, firstNamesFoldedTwice, RECORD_NAMES } from "../../src/models/names-folded-twice.js";

export interface Located {
  value: unknown;
  path: string;
}

/**
 * A span's attributes (or its other fields) by name, each remembered once it is
 * read, so that what no reading looked at can be reported as left behind.
 * Iterating does not count as reading: a reader that scans the names for a
 * pattern has not taken their values.
 */
export class Attributes extends Map<string, Located> {
  private readonly taken = new Set<string>();
  /** Every entry a reading looked at, as its value or as a copy compared apart: what no reading looked at may hold what no dialect reads. */
  private readonly seen = new Set<string>();
  /**
   * Entries that read two ways: a name written again with another value, or a
   * value that holds two (`detail` says which), and where. `event`: what an
   * event that holds a tool call says (event-calls.ts), for a span whose
   * attributes are not read either. `earlier`: for a name written again, the
   * value it was written with first, which the map no longer holds and a reader
   * that keeps the first reads.
   */
  readonly twice: Array<{ key: string; path: string; detail: string; event?: string; earlier?: Located }> = [];

  /** Sets an entry as the document wrote it: a name written again with another value, or a value written two ways, is remembered in `twice`. */
  written(key: string, located: Located): void {
    const before = super.get(key);
    if (before !== undefined && !isDeepStrictEqual(before.value, located.value)) this.twice.push({ key, path: located.path, detail: `the attribute ${key} is written again with another value (first at ${before.path})`, earlier: before });
    this.set(key, located);
  }

  override get(key: string): Located | undefined {
    const located = super.get(key);
    if (located !== undefined) {
      this.taken.add(key);
      this.seen.add(key);
    }
    return located;
  }

  /** The entry, not counted as looked at: a reading that tells whether it is of its form before it reads it. */
  peek(key: string): Located | undefined {
    return super.get(key);
  }

  /** Whether a reading looked at the entry, even apart (a copy), or took it by its name. */
  looked(key: string): boolean {
    return this.seen.has(key);
  }

  /** Marks each named entry read (a dialect that reads attributes by a prefix it scans for). */
  take(keys: Iterable<string>): void {
    for (const key of keys) {
      if (!this.has(key)) continue;
      this.taken.add(key);
      this.seen.add(key);
    }
  }

  /** What `read` returns, with what it looked at not counted as taken: a second copy compared with the first, which leaves the copy to be reported. */
  readApart<T>(read: () => T): T {
    const before = new Set(this.taken);
    try {
      return read();
    } finally {
      this.taken.clear();
      for (const key of before) this.taken.add(key);
    }
  }

  /** The entries no reading looked at, in their order, leaving out those that hold nothing. */
  untaken(): Array<[string, Located]> {
    return [...this.entries()].filter(([key, located]) => !this.taken.has(key) && located.value !== undefined && located.value !== null);
  }
}

export function readAttributes(written: unknown, path: string): Attributes {
  const attributes = new Attributes();
  if (Array.isArray(written)) {
    written.forEach((entry, index) => {
      if (!isPlainObject(entry) || typeof entry.key !== "string") return;
      const key = entry.key;
      const at = `${path}/${index}/value`;
      const problem = (where: string, detail: string) => void attributes.twice.push({ key, path: where, detail: `the attribute ${key} ${detail}` });
      // A Jaeger tag holds its value bare beside its type; an OTLP attribute wraps it.
      // A wrapped value beside a type is both: a reader of either kind sees another value.
      if (typeof entry.type === "string") {
        if (isPlainObject(entry.value)) problem(at, `is written as a Jaeger tag (type ${JSON.stringify(entry.type)}) holding an OTLP value`);
        attributes.written(key, { value: entry.value, path: at });
      } else attributes.written(key, anyValue(entry.value, at, problem, true));
    });
  } else if (isPlainObject(written)) {
    for (const [key, value] of Object.entries(written)) attributes.set(key, { value, path: `${path}/${pointerToken(key)}` });
  }
  return attributes;
}

const VALUE_KINDS = ["stringValue", "boolValue", "intValue", "doubleValue", "bytesValue", "arrayValue", "kvlistValue"];

/** The kinds an OTLP AnyValue writes; one, unless it was written to be read two ways. */
function valueKinds(value: unknown): string[] {
  return isPlainObject(value) ? VALUE_KINDS.filter((kind) => Object.hasOwn(value, kind) && value[kind] !== null && value[kind] !== undefined) : [];
}

/** Where a value reads two ways, and how; the value is then read neither way. */
type ValueProblem = (path: string, detail: string) => void;

// proto3 JSON writes a 64-bit integer as a decimal string (or a number) and a
// double as a number or a string: `Number` would also take "", "0x10" or " 1".
const DECIMAL_INTEGER = /^-?(?:0|[1-9][0-9]*)$/;
const NON_FINITE: ReadonlySet<unknown> = new Set(["NaN", "Infinity", "-Infinity"]);
const DECIMAL_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?$/;

/**
 * An OTLP `AnyValue`, unwrapped. At the top of an attribute an `intValue` no
 * double holds exactly stays the decimal text it is (an id, a count); inside an
 * array or a kvlist, where it becomes part of a JSON value (a call's arguments),
 * it cannot be written as the number it is, and is a problem, as are a kvlist
 * that names a key twice, a value of two kinds, and a number written otherwise
 * than proto3 JSON writes one.
 */
function anyValue(value: unknown, path: string, problem: ValueProblem, top: boolean): Located {
  if (!isPlainObject(value)) return { value, path };
  const kinds = valueKinds(value);
  if (kinds.length > 1) problem(path, `holds ${kinds.join(" and ")} at once`);
  for (const [field, inner] of Object.entries(value)) {
    const at = `${path}/${field}`;
    switch (field) {
      case "stringValue":
      case "boolValue":
      case "bytesValue":
        return { value: inner, path: at };
      case "doubleValue": {
        if (typeof inner !== "string") return { value: inner, path: at };
        // proto3 JSON writes the doubles no JSON number writes as these: at the top of an attribute they stay the text.
        if (top && NON_FINITE.has(inner)) return { value: inner, path: at };
        const number = DECIMAL_NUMBER.test(inner) ? Number(inner) : Number.NaN;
        if (!Number.isFinite(number)) {
          problem(at, `holds the doubleValue ${JSON.stringify(inner)}, which is no JSON number`);
          return { value: inner, path: at };
        }
        if (!top && !standsAsDouble(inner)) problem(at, `holds the doubleValue ${inner} inside a value, which a double reads as another number`);
        return { value: number, path: at };
      }
      case "intValue": {
        if (typeof inner === "string" && !DECIMAL_INTEGER.test(inner)) {
          problem(at, `holds the intValue ${JSON.stringify(inner)}, which is no decimal integer`);
          return { value: inner, path: at };
        }
        const number = typeof inner === "string" ? Number(inner) : inner;
        if (typeof number === "number" && Number.isSafeInteger(number)) return { value: number, path: at };
        // Written as a JSON number past 2^53, its digits were lost when the document was read.
        if (typeof inner === "number") problem(at, `holds the intValue ${JSON.stringify(inner)} written as a JSON number, which a double does not hold exactly`);
        else if (!top) problem(at, `holds the intValue ${JSON.stringify(inner)} inside a value, which a double does not hold exactly`);
        return { value: inner, path: at };
      }
      case "arrayValue": {
        const values = isPlainObject(inner) && Array.isArray(inner.values) ? inner.values : [];
        return { value: values.map((element, index) => anyValue(element, `${at}/values/${index}`, problem, false).value), path: at };
      }
      case "kvlistValue": {
        const values = isPlainObject(inner) && Array.isArray(inner.values) ? inner.values : [];
        const object: Record<string, unknown> = {};
        const firstAt = new Map<string, number>();
        values.forEach((entry, index) => {
          if (!isPlainObject(entry) || typeof entry.key !== "string") return;
          const seen = firstAt.get(entry.key);
          if (seen !== undefined) problem(`${at}/values/${index}`, `names the key ${JSON.stringify(entry.key)} twice in one kvlistValue (first at ${at}/values/${seen})`);
          else firstAt.set(entry.key, index);
          // Set as an own member whatever its name: "__proto__" is a key like any other.
          setOwn(object, entry.key, anyValue(entry.value, `${at}/values/${index}/value`, problem, false).value);
        });
        return { value: object, path: at };
      }
    }
  }
  return { value, path };
}

/**
 * A value some instrumentations store as JSON text, some parsed, and Langfuse
 * sometimes as JSON text of JSON text: parsed until it is no longer text that
 * holds JSON. Text that is not JSON stays the text it is.
 */
export function parsedValue(value: unknown): { value: unknown; parsed: boolean; broken: boolean; twice?: string; text?: string } {
  let current = value;
  let parsed = false;
  /** The JSON text the value was parsed from, as written: its last layer, for a value written as JSON text of JSON text. */
  let written: string | undefined;
  for (let depth = 0; depth < 3 && typeof current === "string"; depth++) {
    const text = current.trim();
    const first = text[0];
    if (first !== "{" && first !== "[" && first !== '"') break;
    try {
      const inner: unknown = JSON.parse(text);
      // A name given twice in one object is one value to JSON.parse and another to a reader that keeps the first: read neither way.
      // So is a number a double reads as another: arguments made of it would not be the ones the text holds.
      const twice = namedTwice(text, inner) ?? inexactIn(text);
      if (twice !== undefined) return { value: current, parsed, broken: true, twice };
      written = current;
      current = inner;
      parsed = true;
    } catch {
      // Text that opens as JSON and does not parse was cut short, or was never JSON;
      // a quoted string of prose is the second, an object or array the first.
      return { value: current, parsed, broken: first !== '"' };
    }
  }
  return { value: current, parsed, broken: false, ...(written === undefined ? {} : { text: written }) };
}

function namedTwice(text: string, value: unknown): string | undefined {
  try {
    const duplicate = duplicateName(text, value);
    if (duplicate !== undefined) return describeDuplicateName("the JSON text", duplicate);
    // Two names a reader folding case or width takes for one (`arguments` and
    // `Arguments`), of those that decide a call, are one member to it, which
    // keeps the last: read neither way.
    const folded = firstNamesFoldedTwice(value, RECORD_NAMES, true);
    return folded === undefined ? undefined : describeNamesFoldedTwice("the JSON text", folded);
  } catch (error) {
    return `the JSON text could not be checked for names given twice: ${(error as Error).message}`;
  }
}

function inexactIn(text: string): string | undefined {
  const [found] = literalsNotStanding(text, true);
  return found === undefined ? undefined : `the JSON text holds the number ${shownLiteral(found.literal)}, which a double reads as another number`;
}
