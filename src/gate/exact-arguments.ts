// Number literals in a call's arguments that the gate cannot compare. JSON.parse
// reads every number as a double, and the tool schema is checked on the double;
// a tool that reads the text exactly (Python's json.loads for integers, a
// decimal type) may see another value: `9007199254740993` reads as
// 9007199254740992 and passes `maximum: 9007199254740992`, `1.0000000000000000001`
// reads as 1 and passes `type: integer`.
//
// A literal is compared as a double only when the double stands for it:
// - its value is the shortest decimal that reads back as the same double (what
//   Number#toString writes), so `0.1`, `2.50` and `1e300` stand, while
//   `0.30000000000000001` (read as 0.3) and `1e-400` (read as 0) do not;
// - and the double is a finite number within ±(2^53 − 1). Past it every double
//   also reads for the whole numbers around it, and so does a schema bound
//   written there: `maximum: 9223372036854775807` reads as 2^63, which
//   `9223372036854775808` then meets.
// A double compares with a double in the same order as the shortest decimals
// they read back as, and a whole double within ±(2^53 − 1) is one whole number,
// so for the literals that stand, the comparison on doubles is the exact one.
//
// A literal written with at most 15 digits and no exponent always stands (15
// significant digits survive a double, and it is below 10^15), so the text is
// walked only when it holds a run of 16 digits, a decimal point between them or
// not, or a digit followed by an exponent mark.
import type { ToolSchema } from "./schema.js";
import { pointerToken } from "../models/json-pointer.js";
import { scanJson } from "../models/json-scan.js";
import { mayHoldInexact, readsBackAsWritten, standsAsDouble } from "../models/decimal-value.js";

export { standsAsDouble };

export interface InexactNumber {
  /** The literal as written. */
  literal: string;
  /** JSON Pointer into the arguments. */
  path: string;
}

/** The first number literal of `text` (JSON the gate has parsed) that a double does not stand for. */
export function inexactNumber(text: string): InexactNumber | undefined {
  if (!mayHoldInexact(text)) return undefined;
  let found: InexactNumber | undefined;
  scanJson(text, {
    number: (literal, path) => {
      if (standsAsDouble(literal)) return false;
      found = { literal, path: path.map((token) => "/" + pointerToken(token)).join("") };
      return true;
    },
  });
  return found;
}

/** Why a double does not stand for `literal` (one `standsAsDouble` refuses), as a clause of a verdict's detail. */
export function whyNotStanding(literal: string): string {
  const double = Number(literal);
  if (!Number.isFinite(double)) return "which is past the largest double";
  if (!readsBackAsWritten(literal)) return "which a double reads as another number";
  return "which is past ±(2^53 − 1), where one double stands for several whole numbers";
}

/** Keywords whose answer on a double can differ from their answer on the number written. */
const NUMBER_KEYWORDS = ["maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum", "multipleOf"] as const;
/** Format names that ask for a whole number: read as judging numbers, whether or not formats are asserted (asserted, they refuse the schema). */
const WHOLE_NUMBER_FORMATS = new Set(["int32", "int64"]);

const constrainsNumbersOf = new WeakMap<object, boolean>();

/**
 * Whether the schema could judge a number by its value anywhere: a bound,
 * `multipleOf`, `integer` among the types, a `const` or `enum` holding a number,
 * `uniqueItems`, a whole-number format, a `$ref` to another document. Every
 * object in the schema is read as if it were a subschema, so a property named
 * `maximum` counts too: more calls are blocked, none passed.
 */
export function constrainsNumbers(schema: ToolSchema): boolean {
  if (typeof schema !== "object" || schema === null) return false;
  let answer = constrainsNumbersOf.get(schema);
  if (answer === undefined) {
    answer = findsNumberConstraint(schema);
    constrainsNumbersOf.set(schema, answer);
  }
  return answer;
}

function findsNumberConstraint(schema: object): boolean {
  const pending: unknown[] = [schema];
  while (pending.length > 0) {
    const next = pending.pop();
    if (next === null || typeof next !== "object") continue;
    if (Array.isArray(next)) {
      for (const element of next) pending.push(element);
      continue;
    }
    const fields = next as Record<string, unknown>;
    for (const keyword of NUMBER_KEYWORDS) if (Object.hasOwn(fields, keyword)) return true;
    if (Object.hasOwn(fields, "uniqueItems") && fields.uniqueItems !== false) return true;
    if (Object.hasOwn(fields, "type") && (fields.type === "integer" || (Array.isArray(fields.type) && fields.type.includes("integer")))) return true;
    if (Object.hasOwn(fields, "format") && typeof fields.format === "string" && WHOLE_NUMBER_FORMATS.has(fields.format)) return true;
    if (Object.hasOwn(fields, "const") && holdsNumber(fields.const)) return true;
    if (Object.hasOwn(fields, "enum") && holdsNumber(fields.enum)) return true;
    // A reference out of the schema reaches one Ajv holds (the meta-schemas, whose
    // counts are `{"type":"integer","minimum":0}`): what it judges is not read here.
    if ((Object.hasOwn(fields, "$ref") && referencesOut(fields.$ref)) || (Object.hasOwn(fields, "$dynamicRef") && referencesOut(fields.$dynamicRef))) return true;
    for (const key in fields) if (Object.hasOwn(fields, key)) pending.push(fields[key]);
  }
  return false;
}

function referencesOut(reference: unknown): boolean {
  return typeof reference === "string" && !reference.startsWith("#");
}

function holdsNumber(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === "number") return true;
    if (next === null || typeof next !== "object") continue;
    for (const child of Array.isArray(next) ? next : Object.values(next)) pending.push(child);
  }
  return false;
}
