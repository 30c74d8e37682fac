// Number literals of a line that the line's doubles do not stand for. Anthropic,
// Gemini and Bedrock write a call's arguments, and some tool results, as JSON
// objects inside the record: JSON.parse reads their numbers into doubles, and the
// arguments text made of them (JSON.stringify) writes the doubles' digits, not
// the record's. `0.1000000000000000055` becomes `0.1`, and then passes
// `maximum: 0.1`; `12345678901234567890` becomes `12345678901234567000`, an
// account number no one wrote. The gate judges arguments by their text, so a
// call whose text holds such a number cannot be judged as the record wrote it.
//
// A literal stands when its value is the shortest decimal that reads back as the
// same double, finite and within ±(2^53 − 1) (`standsAsDouble`, which the gate
// judges arguments by); the literals that do not are kept by the text their
// double writes.
import { readsBackAsWritten, standsAsDouble } from "../models/decimal-value.js";
import { pointer } from "../models/json-pointer.js";
import { scanJson } from "../models/json-scan.js";

// mayHoldInexact's test, asked only where a number literal may start: after the
// `:`, `,` or `[` that comes before every value inside an object or an array,
// and JSON's white space. A run of digits in an id or a text (`rs_2f57…e8`)
// then needs no walk, and most lines of a journal hold one.
const MAY_HOLD_INEXACT_VALUE = /[:,[][ \t\r\n]*-?[0-9.]*(?:[0-9][eE]|[0-9](?:\.?[0-9]){15})/;

/**
 * Whether a JSON object or array's text may hold a number literal its double
 * does not stand for; false means it surely holds none, and then both
 * `inexactLiterals` and `inexactSchemaNumbers` find nothing in it.
 */
export function mayHoldInexactValue(text: string): boolean {
  return MAY_HOLD_INEXACT_VALUE.test(text);
}

/** For each double's text, a literal of the line that it does not stand for. */
export type InexactLiterals = ReadonlyMap<string, string>;

/** The literals of a line of JSON text that their doubles do not stand for; undefined when there are none. */
export function inexactLiterals(text: string): InexactLiterals | undefined {
  if (!mayHoldInexactValue(text)) return undefined;
  let found: Map<string, string> | undefined;
  scanJson(text, {
    number: (literal) => {
      if (standsAsDouble(literal)) return false;
      (found ??= new Map()).set(JSON.stringify(Number(literal)) ?? literal, literal);
      return false;
    },
  });
  return found;
}

/**
 * Every literal of `literals` whose double's text is a number of `json` (text
 * JSON.stringify wrote), each once, in the order the text writes them. A
 * literal past the largest double reads as Infinity, which JSON.stringify
 * writes `null`: any null of the text may be it, so it comes last when the text
 * holds one.
 */
export function writtenFromInexact(json: string, literals: InexactLiterals): string[] {
  const found: string[] = [];
  scanJson(json, {
    number: (literal) => {
      const inexact = literals.get(literal);
      if (inexact !== undefined && !found.includes(inexact)) found.push(inexact);
      return false;
    },
  });
  const infinite = literals.get("null");
  if (infinite !== undefined && /\bnull\b/.test(json)) found.push(infinite);
  return found;
}

/**
 * Keywords whose number a schema judges arguments by: bounds, multipleOf, the
 * values of const and enum, and the counts, which must be whole numbers
 * (`maxLength: 1.9999999999999999999` reads as 2; a reader that keeps the number
 * written finds no schema there).
 */
const JUDGING_KEYWORDS = new Set([
  "maximum",
  "minimum",
  "exclusiveMaximum",
  "exclusiveMinimum",
  "multipleOf",
  "const",
  "enum",
  "maxLength",
  "minLength",
  "maxItems",
  "minItems",
  "maxProperties",
  "minProperties",
  "maxContains",
  "minContains",
]);

/** A number of a schema that its double reads as another: the literal, its JSON Pointer, and that pointer's tokens. */
export interface InexactSchemaNumber {
  literal: string;
  path: string;
  tokens: ReadonlyArray<string | number>;
}

/**
 * The first number a tool schema's text writes under a keyword that judges
 * numbers, within ±(2^53 − 1), that its double reads as another number
 * (`maximum: 0.29999999999999999` reads as 0.3, which 0.3 then meets;
 * `minimum: 1e-400` as 0), with its JSON Pointer; undefined when none.
 */
export function inexactSchemaNumber(text: string): { literal: string; path: string } | undefined {
  const found = inexactSchemaNumbers(text, true);
  return found === undefined ? undefined : { literal: found[0]!.literal, path: found[0]!.path };
}

// A schema's judging keywords, as a line's text writes them: a line without one
// (nearly every request body, whose tools hold no bound) needs no walk. A name
// may also be written with escapes (`"maxim\u0075m"`): a text with one is walked.
const JUDGING_KEYWORD_TEXT = new RegExp(`"(?:${[...JUDGING_KEYWORDS].join("|")})"|\\\\u`);

/**
 * Every such number of a JSON text (a tools file, or a journal line whose
 * request body defines tools), as `inexactSchemaNumber` finds them; `first`
 * stops at the first. Undefined when there is none.
 */
export function inexactSchemaNumbers(text: string, first = false): InexactSchemaNumber[] | undefined {
  if (!mayHoldInexactValue(text) || !JUDGING_KEYWORD_TEXT.test(text)) return undefined;
  let found: InexactSchemaNumber[] | undefined;
  scanJson(text, {
    number: (literal, path) => {
      // Past ±(2^53 − 1) a bound is far from every argument the gate compares
      // (those beyond it block), so only a nearer number read as another matters.
      const double = Number(literal);
      if (!Number.isFinite(double) || Math.abs(double) > Number.MAX_SAFE_INTEGER || readsBackAsWritten(literal)) return false;
      if (!path.some((token) => typeof token === "string" && JUDGING_KEYWORDS.has(token))) return false;
      (found ??= []).push({ literal, path: pointer(...path), tokens: [...path] });
      return first;
    },
  });
  return found;
}
