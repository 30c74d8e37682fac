// Makes Ajv count its work (schema-work.ts). A copy of the tool schema is given one
// more keyword in every schema object, whose generated code adds that subschema's
// cost to the counter each time Ajv evaluates it; Ajv then compiles the copy.
//
// | cost of one evaluation of a schema object | steps                               |
// |-------------------------------------------|-------------------------------------|
// | any                                       | 1 + a sixteenth of the size of its  |
// |                                           | own data (enum, const, required,    |
// |                                           | names in its maps, branches)        |
// | on a string, with pattern, format,        | + (length / 64) x (1 + pattern      |
// |   minLength or maxLength                  |   length / 32)                      |
// | on an object, with patternProperties,     | + keys x (1 + number of patterns)   |
// |   minProperties or maxProperties          |                                     |
// | on an array, with contains or uniqueItems | + items                             |
//
// Everything else a keyword does is bounded by the schema's own size or is itself
// a counted evaluation of a subschema. `uniqueItems` is replaced by a check that
// compares each item once: Ajv checks objects and arrays pair by pair, and
// scalars as the keys of a plain object, where `"__proto__"` reads as the
// prototype and is never seen twice (`["__proto__","__proto__"]` passed).
// `multipleOf`, which Ajv checks by dividing doubles, by an exact decimal check.
import { _, type Ajv2020, type KeywordCxt } from "ajv/dist/2020.js";
import { canonicalJson } from "./schema-equal.js";
import { isWholeMultiple } from "../models/decimal-value.js";
import { isSchemaObject, keywordRole, type SchemaObject } from "./schema-keywords.js";
import { schemaWork } from "./schema-work.js";

export const STEP_KEYWORD = "orbridge:steps";
export const UNIQUE_KEYWORD = "orbridge:uniqueItems";
export const MULTIPLE_KEYWORD = "orbridge:multipleOf";

/** Adds the two keywords the instrumented copy uses to an Ajv instance. */
export function addWorkKeywords(ajv: Ajv2020): void {
  ajv.addKeyword({
    keyword: STEP_KEYWORD,
    schemaType: "number",
    // First among the keywords of a schema object: a $ref or an applicator that
    // recurses is charged before it runs.
    before: "$ref",
    code(cxt: KeywordCxt) {
      const { gen, data, parentSchema } = cxt;
      const work = gen.scopeValue("obj", { ref: schemaWork });
      gen.code(_`${work}.steps += ${cxt.schema as number}`);
      const perString = stringCost(parentSchema as SchemaObject);
      if (perString > 0) gen.if(_`typeof ${data} == "string"`, () => gen.code(_`${work}.steps += (${data}.length >> 6) * ${perString}`));
      const perKey = keyCost(parentSchema as SchemaObject);
      if (perKey > 0) gen.if(_`${data} && typeof ${data} == "object" && !Array.isArray(${data})`, () => gen.code(_`${work}.steps += Object.keys(${data}).length * ${perKey}`));
      if (chargesItems(parentSchema as SchemaObject)) gen.if(_`Array.isArray(${data})`, () => gen.code(_`${work}.steps += ${data}.length`));
      gen.if(_`${work}.steps > ${work}.limit`, () => gen.code(_`${work}.exceeded()`));
    },
  });
  ajv.addKeyword({
    keyword: MULTIPLE_KEYWORD,
    type: "number",
    schemaType: "number",
    errors: true,
    validate: function multipleOf(this: unknown, divisor: number, data: number): boolean {
      if (isWholeMultiple(data, divisor)) return true;
      // Ajv's own message and params, so the verdict reads the same either way.
      (multipleOf as { errors?: unknown[] }).errors = [{ keyword: "multipleOf", params: { multipleOf: divisor }, message: `must be multiple of ${divisor}` }];
      return false;
    },
  });
  ajv.addKeyword({
    keyword: UNIQUE_KEYWORD,
    type: "array",
    schemaType: "boolean",
    errors: true,
    validate: function uniqueItems(this: unknown, schema: boolean, data: unknown[]): boolean {
      const pair = schema ? lastDuplicate(data) : undefined;
      if (pair === undefined) return true;
      // Ajv's own message and params, so the verdict reads the same either way.
      (uniqueItems as { errors?: unknown[] }).errors = [
        { keyword: "uniqueItems", params: { i: pair.later, j: pair.earlier }, message: `must NOT have duplicate items (items ## ${pair.earlier} and ${pair.later} are identical)` },
      ];
      return false;
    },
  });
}

/**
 * Keywords a tool schema may not use anywhere, and why: the two the instrumented
 * copy adds, and Ajv's `$async`, which compiles to a validator that answers with
 * a promise, which a synchronous check would take for "valid" and whose
 * rejection nothing awaits (JSON Schema has no such keyword).
 */
const REFUSED_KEYWORDS: ReadonlyMap<string, string> = new Map([
  [STEP_KEYWORD, `the keyword "${STEP_KEYWORD}" is reserved by the gate`],
  [UNIQUE_KEYWORD, `the keyword "${UNIQUE_KEYWORD}" is reserved by the gate`],
  [MULTIPLE_KEYWORD, `the keyword "${MULTIPLE_KEYWORD}" is reserved by the gate`],
  ["$async", 'the keyword "$async" makes the check answer later, and the gate answers now'],
]);

/** Why the schema is refused for a keyword it uses (REFUSED_KEYWORDS), or undefined. */
export function refusedKeywordUsed(schema: unknown): string | undefined {
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const value = stack.pop();
    if (value === null || typeof value !== "object") continue;
    if (!Array.isArray(value)) {
      for (const [name, why] of REFUSED_KEYWORDS) if (Object.hasOwn(value, name)) return why;
    }
    for (const child of Object.values(value)) stack.push(child);
  }
  return undefined;
}

/**
 * The copy Ajv compiles: every object in a schema's place carries its cost. Objects
 * under keywords Ajv ignores get it too, since a JSON Pointer $ref may use them as
 * schemas. Data (enum, const, default, examples, ...) is shared with the original,
 * unchanged. The schema's depth is bounded before this runs (schema-limits.ts).
 */
export function instrumented(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(instrumented);
  if (!isSchemaObject(schema)) return schema;
  const entries: Array<[string, unknown]> = [];
  for (const [keyword, value] of Object.entries(schema)) {
    const role = keywordRole(keyword);
    // OpenAPI's `nullable` is no keyword of JSON Schema 2020-12, where it annotates
    // and allows nothing; Ajv reads it as OpenAPI does and lets null through any type.
    if (keyword === "nullable") continue;
    if (keyword === "uniqueItems" && value === true) entries.push([UNIQUE_KEYWORD, true]);
    else if (keyword === "multipleOf" && typeof value === "number" && value > 0) entries.push([MULTIPLE_KEYWORD, value]);
    else if (role === "data") entries.push([keyword, value]);
    else if (role === "schemaMap" && isSchemaObject(value)) entries.push([keyword, Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, instrumented(sub)]))]);
    else entries.push([keyword, instrumented(value)]);
  }
  entries.push([STEP_KEYWORD, ownCost(schema)]);
  // Built from entries: a key named "__proto__" stays a key, where assigning it would set the copy's prototype.
  return Object.fromEntries(entries);
}

/**
 * A pointer fragment of a $ref that lands in data (an enum value, a default), or
 * on a keyword's map or list of schemas itself (`#/$defs`, `#/properties`,
 * `#/allOf`): such a target would be evaluated as a schema without its cost, and
 * a map's entries, each a counted schema in the copy, would be read as keyword
 * values (a `$defs` entry named `const` compared with the copy's extra key).
 * Refused, where a reference to any schema's place is fine.
 */
export function referenceIntoData(schema: unknown): string | undefined {
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const value = stack.pop();
    if (value === null || typeof value !== "object") continue;
    if (!Array.isArray(value)) {
      for (const keyword of ["$ref", "$dynamicRef"]) {
        const reference = (value as SchemaObject)[keyword];
        if (typeof reference !== "string") continue;
        const landing = whereItLands(reference);
        if (landing === "data") return `${keyword} "${reference}" points into data, not at a schema`;
        if (landing === "map" || landing === "list") return `${keyword} "${reference}" points at a ${landing === "map" ? "map" : "list"} of schemas, not at a schema`;
      }
    }
    for (const child of Object.values(value)) stack.push(child);
  }
  return undefined;
}

/** Where a reference's JSON Pointer fragment lands, as `instrumented` reads the document; "schema" for any other reference. */
function whereItLands(reference: string): "schema" | "map" | "list" | "data" {
  const hash = reference.indexOf("#");
  if (hash < 0 || reference[hash + 1] !== "/") return "schema";
  let segments: string[];
  try {
    segments = reference.slice(hash + 2).split("/").map((segment) => decodeURIComponent(segment).replaceAll("~1", "/").replaceAll("~0", "~"));
  } catch {
    // A fragment that cannot be decoded names nothing in the document; Ajv refuses it.
    return "schema";
  }
  // Walk the keyword roles the way `instrumented` does: in a schema's place, a data
  // keyword leaves the counted part of the document.
  let place: "schema" | "map" | "list" = "schema";
  for (const segment of segments) {
    if (place !== "schema") {
      place = "schema";
      continue;
    }
    const role = keywordRole(segment);
    if (role === "data") return "data";
    if (role === "schemaMap") place = "map";
    else if (role === "subschemas") place = "list";
  }
  return place;
}

/**
 * Steps of one evaluation, apart from the instance's size: 1, plus a sixteenth of
 * the size of the object's own data. Ajv often stops at the first keyword that
 * fails (a union's branch at its discriminator), so the full size would overcharge
 * every union; a sixteenth still charges a `required` of thousands of names, or an
 * enum of large objects, for what each evaluation of it may cost.
 */
export function ownCost(schema: SchemaObject): number {
  let size = 0;
  for (const [keyword, value] of Object.entries(schema)) {
    const role = keywordRole(keyword);
    if (role === "data" && keyword !== "default" && keyword !== "examples") size += jsonSize(value);
    else if (role === "subschemas" && Array.isArray(value)) size += value.length;
    else if (role === "schemaMap" && isSchemaObject(value)) size += Object.keys(value).length;
  }
  return 1 + (size >> 4);
}

function jsonSize(value: unknown): number {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    size += 1;
    if (typeof next === "string") size += next.length >> 6;
    else if (next !== null && typeof next === "object") for (const child of Object.values(next)) stack.push(child);
  }
  return size;
}

function stringCost(schema: SchemaObject): number {
  const pattern = typeof schema.pattern === "string" ? schema.pattern : undefined;
  if (pattern === undefined && schema.format === undefined && schema.minLength === undefined && schema.maxLength === undefined) return 0;
  return 1 + (pattern === undefined ? 0 : pattern.length >> 5);
}

function keyCost(schema: SchemaObject): number {
  const patterns = isSchemaObject(schema.patternProperties) ? Object.keys(schema.patternProperties).length : 0;
  if (patterns === 0 && schema.minProperties === undefined && schema.maxProperties === undefined) return 0;
  return 1 + patterns;
}

function chargesItems(schema: SchemaObject): boolean {
  return schema.contains !== undefined || schema.uniqueItems === true;
}

/**
 * The last item equal to an earlier one, and the last such earlier item: the pair
 * Ajv's pairwise loop reports. Each item is written once in a form where equal
 * JSON values read the same (keys sorted), so the check is linear in the array.
 */
function lastDuplicate(items: unknown[]): { earlier: number; later: number } | undefined {
  const seen = new Map<string, number>();
  let pair: { earlier: number; later: number } | undefined;
  for (let i = 0; i < items.length; i++) {
    const key = canonicalJson(items[i]);
    schemaWork.charge(1 + (key.length >> 6));
    const earlier = seen.get(key);
    if (earlier !== undefined) pair = { earlier, later: i };
    seen.set(key, i);
  }
  return pair;
}
