// The type each keyword's value must have, as the JSON Schema 2020-12 meta-schema
// says, for the keywords the gate's own evaluator applies. The meta-schema check
// of a tool schema sees every subschema in a schema's place; a $ref may also land
// under a keyword of no meaning (`#/x-lib/role`), which the meta-schema never
// reads. The evaluator asks this of every subschema it may apply: a keyword whose
// value it could not read would otherwise be skipped, and a value let through
// that Ajv, which refuses such a schema, would have blocked.
//
// | keywords                                                    | value                          |
// |-------------------------------------------------------------|--------------------------------|
// | type                                                        | a type name, or a non-empty    |
// |                                                             | list of distinct type names    |
// | enum                                                        | an array                       |
// | required                                                    | a list of distinct strings     |
// | dependentRequired                                           | an object of such lists        |
// | dependencies                                                | an object of such lists or     |
// |                                                             | of schemas                     |
// | maximum, minimum, exclusiveMaximum, exclusiveMinimum        | a number                       |
// | multipleOf                                                  | a number above 0               |
// | maxLength, minLength, maxItems, minItems, maxProperties,    | an integer, 0 or more          |
// |   minProperties, maxContains, minContains                   |                                |
// | pattern, format, $ref, $dynamicRef, $anchor, $dynamicAnchor | a string                       |
// | uniqueItems                                                 | a boolean                      |
// | one subschema (items, not, if…)                             | an object or a boolean         |
// | allOf, anyOf, oneOf, prefixItems                            | a non-empty list of schemas    |
// | properties, patternProperties, dependentSchemas, $defs      | an object of schemas           |
import { isSchemaObject, keywordRole, type SchemaObject } from "./schema-keywords.js";

const TYPE_NAMES: ReadonlySet<unknown> = new Set(["null", "boolean", "object", "array", "number", "string", "integer"]);
const NUMBERS = ["maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum"] as const;
const COUNTS = ["maxLength", "minLength", "maxItems", "minItems", "maxProperties", "minProperties", "maxContains", "minContains"] as const;
const STRINGS = ["pattern", "format", "$ref", "$dynamicRef", "$anchor", "$dynamicAnchor"] as const;

/** The first keyword of a subschema whose value has another type than 2020-12 gives it, said as a sentence; undefined when all are right. */
export function misTypedKeyword(schema: SchemaObject): string | undefined {
  if (has(schema, "type") && !isTypeKeyword(schema.type)) return wrong("type", "a type name or a non-empty list of distinct type names", schema.type);
  if (has(schema, "enum") && !Array.isArray(schema.enum)) return wrong("enum", "an array", schema.enum);
  if (has(schema, "required") && !isNameList(schema.required)) return wrong("required", "a list of distinct strings", schema.required);
  if (has(schema, "dependentRequired") && !(isSchemaObject(schema.dependentRequired) && Object.values(schema.dependentRequired).every(isNameList))) {
    return wrong("dependentRequired", "an object of lists of distinct strings", schema.dependentRequired);
  }
  if (has(schema, "dependencies") && !(isSchemaObject(schema.dependencies) && Object.values(schema.dependencies).every((need) => isNameList(need) || isSchema(need)))) {
    return wrong("dependencies", "an object of lists of distinct strings or of schemas", schema.dependencies);
  }
  for (const keyword of NUMBERS) if (has(schema, keyword) && typeof schema[keyword] !== "number") return wrong(keyword, "a number", schema[keyword]);
  if (has(schema, "multipleOf") && !(typeof schema.multipleOf === "number" && schema.multipleOf > 0)) return wrong("multipleOf", "a number above 0", schema.multipleOf);
  for (const keyword of COUNTS) if (has(schema, keyword) && !isCount(schema[keyword])) return wrong(keyword, "an integer, 0 or more", schema[keyword]);
  for (const keyword of STRINGS) if (has(schema, keyword) && typeof schema[keyword] !== "string") return wrong(keyword, "a string", schema[keyword]);
  if (has(schema, "uniqueItems") && typeof schema.uniqueItems !== "boolean") return wrong("uniqueItems", "a boolean", schema.uniqueItems);
  for (const [keyword, value] of Object.entries(schema)) {
    switch (keywordRole(keyword)) {
      case "subschema":
        if (!isSchema(value)) return wrong(keyword, "a schema (an object or a boolean)", value);
        break;
      case "subschemas":
        if (!(Array.isArray(value) && value.length > 0 && value.every(isSchema))) return wrong(keyword, "a non-empty list of schemas", value);
        break;
      case "schemaMap":
        // `dependencies` is read above; `definitions`, an older name, as `$defs` is.
        if (keyword !== "dependencies" && !(isSchemaObject(value) && Object.values(value).every(isSchema))) return wrong(keyword, "an object of schemas", value);
        break;
      case "data":
      case "other":
        break;
    }
  }
  return undefined;
}

function has(schema: SchemaObject, keyword: string): boolean {
  return Object.hasOwn(schema, keyword);
}

function isSchema(value: unknown): boolean {
  return typeof value === "boolean" || isSchemaObject(value);
}

function isTypeKeyword(value: unknown): boolean {
  if (TYPE_NAMES.has(value)) return true;
  return Array.isArray(value) && value.length > 0 && value.every((name) => TYPE_NAMES.has(name)) && new Set(value).size === value.length;
}

function isNameList(value: unknown): boolean {
  return Array.isArray(value) && value.every((name) => typeof name === "string") && new Set(value).size === value.length;
}

function isCount(value: unknown): boolean {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}

function wrong(keyword: string, expected: string, value: unknown): string {
  const shown = Array.isArray(value) ? "a list" : value === null ? "null" : typeof value === "object" ? "an object" : `${typeof value} ${JSON.stringify(value)}`;
  return `"${keyword}" is ${shown.length > 60 ? shown.slice(0, 60) + "…" : shown}, where JSON Schema 2020-12 asks for ${expected}`;
}
