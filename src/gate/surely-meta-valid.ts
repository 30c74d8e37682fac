// Whether a schema surely passes the JSON Schema 2020-12 meta-schema, decided
// without compiling it. Ajv compiles the meta-schema the first time it checks a
// schema against it, which took a fifth of a second, paid by every run of the
// gate before its first verdict. A tool schema is nearly always made of a few
// keywords whose values are easy to judge; when each is, the meta-schema's
// answer is known to be "valid". Anything else (a keyword with a value of
// another form, a keyword of the core vocabulary but `$ref`) gives "not sure",
// and Ajv checks the schema against the meta-schema as before, with its own
// message.
//
// | keyword                                          | sure when its value is             |
// |--------------------------------------------------|------------------------------------|
// | items, contains, additionalProperties, not, if,  | a schema this check is sure of     |
// |   then, else, propertyNames, unevaluatedItems,   |                                    |
// |   unevaluatedProperties, contentSchema           |                                    |
// | allOf, anyOf, oneOf, prefixItems                 | a non-empty array of such schemas  |
// | properties, $defs, definitions, dependentSchemas | an object of such schemas          |
// | patternProperties                                |                                    |
// | type                                             | a type name, or a non-empty array  |
// |                                                  |   of distinct type names           |
// | required                                         | an array of distinct strings       |
// | dependentRequired                                | an object of such arrays           |
// | enum, examples                                   | an array                           |
// | const, default                                   | anything                           |
// | title, description, $comment, format, pattern,   | a string                           |
// |   $ref, contentEncoding, contentMediaType        |                                    |
// | deprecated, readOnly, writeOnly, uniqueItems     | a boolean                          |
// | minimum, maximum, exclusiveMinimum,              | a finite number                    |
// |   exclusiveMaximum                               |                                    |
// | multipleOf                                       | a finite number above 0            |
// | minLength, maxLength, minItems, maxItems,        | an integer from 0                  |
// |   minContains, maxContains, minProperties,       |                                    |
// |   maxProperties                                  |                                    |
// | $schema, $id, $anchor, $dynamicRef,              | never: Ajv checks                  |
// |   $dynamicAnchor, $vocabulary, $recursiveRef,    |                                    |
// |   $recursiveAnchor, dependencies                 |                                    |
// | any other name                                   | anything: the meta-schema does not |
// |                                                  |   constrain it                     |
//
// The meta-schema gives `pattern` and `patternProperties` names the format
// `regex`, and `$ref` the format `uri-reference`, but Ajv checks no format of a
// meta-schema, whichever formats its instance asserts: the gate reads each
// pattern itself when it compiles (linear-regexp.ts), and each reference when
// it resolves it.

import { isPlainObject } from "../models/json-value.js";

const SUBSCHEMA = new Set(["items", "contains", "additionalProperties", "not", "if", "then", "else", "propertyNames", "unevaluatedItems", "unevaluatedProperties", "contentSchema"]);
const SUBSCHEMA_LIST = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);
const SUBSCHEMA_MAP = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
const TEXT = new Set(["title", "description", "$comment", "format", "pattern", "$ref", "contentEncoding", "contentMediaType"]);
const FLAG = new Set(["deprecated", "readOnly", "writeOnly", "uniqueItems"]);
const BOUND = new Set(["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]);
const COUNT = new Set(["minLength", "maxLength", "minItems", "maxItems", "minContains", "maxContains", "minProperties", "maxProperties"]);
const ANY = new Set(["const", "default"]);
const LIST = new Set(["enum", "examples"]);
const ALWAYS_CHECKED = new Set(["$schema", "$id", "$anchor", "$dynamicRef", "$dynamicAnchor", "$vocabulary", "$recursiveRef", "$recursiveAnchor", "dependencies"]);
const TYPE_NAMES = new Set(["array", "boolean", "integer", "null", "number", "object", "string"]);

/** True only when the 2020-12 meta-schema surely accepts `schema`; false when Ajv must check it. */
export function surelyMetaValid(schema: unknown): boolean {
  if (typeof schema === "boolean") return true;
  if (!isPlainObject(schema)) return false;
  for (const keyword of Object.keys(schema)) {
    if (!keywordSure(keyword, schema[keyword])) return false;
  }
  return true;
}

function keywordSure(keyword: string, value: unknown): boolean {
  if (SUBSCHEMA.has(keyword)) return surelyMetaValid(value);
  if (SUBSCHEMA_LIST.has(keyword)) return Array.isArray(value) && value.length > 0 && value.every((entry) => surelyMetaValid(entry));
  if (SUBSCHEMA_MAP.has(keyword)) return isPlainObject(value) && Object.keys(value).every((name) => surelyMetaValid(value[name]));
  if (keyword === "type") return typeof value === "string" ? TYPE_NAMES.has(value) : Array.isArray(value) && value.length > 0 && distinctStrings(value) && value.every((name) => TYPE_NAMES.has(name as string));
  if (keyword === "required") return Array.isArray(value) && distinctStrings(value);
  if (keyword === "dependentRequired") return isPlainObject(value) && Object.keys(value).every((name) => Array.isArray(value[name]) && distinctStrings(value[name] as unknown[]));
  if (LIST.has(keyword)) return Array.isArray(value);
  if (ANY.has(keyword)) return true;
  if (TEXT.has(keyword)) return typeof value === "string";
  if (FLAG.has(keyword)) return typeof value === "boolean";
  if (BOUND.has(keyword)) return typeof value === "number" && Number.isFinite(value);
  if (keyword === "multipleOf") return typeof value === "number" && Number.isFinite(value) && value > 0;
  if (COUNT.has(keyword)) return typeof value === "number" && Number.isInteger(value) && value >= 0;
  if (ALWAYS_CHECKED.has(keyword)) return false;
  return true;
}

function distinctStrings(values: readonly unknown[]): boolean {
  const seen = new Set<string>();
  for (const value of values) {
    if (typeof value !== "string" || seen.has(value)) return false;
    seen.add(value);
  }
  return true;
}
