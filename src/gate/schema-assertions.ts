// The keywords of JSON Schema 2020-12 that judge one value on its own, without
// subschemas, for the project's evaluator (schema-evaluator.ts). Messages follow
// Ajv's, so a verdict reads the same whichever validated the schema.
import { isPlainObject } from "../models/json-value.js";
import { jsonEqual } from "../models/json-equal.js";
import type { SchemaObject } from "./schema-keywords.js";
import type { SchemaError } from "./schema-work.js";
import { isWholeMultiple } from "../models/decimal-value.js";

export function schemaError(path: string, keyword: string, params: Record<string, unknown>, message: string): SchemaError {
  return { instancePath: path, schemaPath: `#/${keyword}`, keyword, params, message };
}

export function checkType(schema: SchemaObject, value: unknown, path: string): SchemaError | undefined {
  if (schema.type === undefined) return undefined;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.some((type) => hasType(value, type))) return undefined;
  return schemaError(path, "type", { type: types.join(",") }, `must be ${types.join(",")}`);
}

function hasType(value: unknown, type: unknown): boolean {
  switch (type) {
    case "null":
      return value === null;
    case "boolean":
      return typeof value === "boolean";
    case "string":
      return typeof value === "string";
    // Arguments are JSON text, so every number here was written as a literal:
    // one past the doubles (1e400, read as Infinity) is still a number to every
    // reader. Whether it is an integer, or meets a bound, depends on the reader,
    // and a schema that asks is refused such a literal before it gets here.
    case "number":
      return typeof value === "number";
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "array":
      return Array.isArray(value);
    case "object":
      return isPlainObject(value);
    default:
      return false;
  }
}

export function checkValue(schema: SchemaObject, value: unknown, path: string): SchemaError | undefined {
  if (Object.hasOwn(schema, "const") && !jsonEqual(schema.const, value)) return schemaError(path, "const", { allowedValue: schema.const }, "must be equal to constant");
  if (Array.isArray(schema.enum) && !schema.enum.some((allowed) => jsonEqual(allowed, value))) return schemaError(path, "enum", { allowedValues: schema.enum }, "must be equal to one of the allowed values");
  return undefined;
}

export function checkNumber(schema: SchemaObject, value: number, path: string): SchemaError | undefined {
  const bounds: Array<[string, string, (limit: number) => boolean]> = [
    ["maximum", "<=", (limit) => value <= limit],
    ["exclusiveMaximum", "<", (limit) => value < limit],
    ["minimum", ">=", (limit) => value >= limit],
    ["exclusiveMinimum", ">", (limit) => value > limit],
  ];
  for (const [keyword, comparison, holds] of bounds) {
    const limit = schema[keyword];
    if (typeof limit === "number" && !holds(limit)) return schemaError(path, keyword, { comparison, limit }, `must be ${comparison} ${limit}`);
  }
  // Exactly, on the decimals the doubles write: 1e22 is a multiple of 1, 53.199999999999996 is none of 0.7.
  if (typeof schema.multipleOf === "number" && !isWholeMultiple(value, schema.multipleOf)) return schemaError(path, "multipleOf", { multipleOf: schema.multipleOf }, `must be multiple of ${schema.multipleOf}`);
  return undefined;
}

export function checkLength(schema: SchemaObject, value: string, path: string): SchemaError | undefined {
  const length = codePoints(value);
  if (typeof schema.maxLength === "number" && length > schema.maxLength) return schemaError(path, "maxLength", { limit: schema.maxLength }, `must NOT have more than ${schema.maxLength} characters`);
  if (typeof schema.minLength === "number" && length < schema.minLength) return schemaError(path, "minLength", { limit: schema.minLength }, `must NOT have fewer than ${schema.minLength} characters`);
  return undefined;
}

/** Length in code points, as JSON Schema counts it: a surrogate pair is one character. */
export function codePoints(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    length += 1;
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i += 1;
    }
  }
  return length;
}
