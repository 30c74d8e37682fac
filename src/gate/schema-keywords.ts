// Where a JSON Schema 2020-12 document holds subschemas, and where it holds data.
// Every walk over a tool schema (its limits, its work budget, the evaluator) reads
// the document through this one table, so that they agree on what is a schema.
//
// | role of the keyword's value | keywords                                                        |
// |-----------------------------|-----------------------------------------------------------------|
// | one subschema               | not, if, then, else, items, contains, additionalProperties,     |
// |                             | propertyNames, unevaluatedItems, unevaluatedProperties,         |
// |                             | contentSchema (never applied: an annotation, but a schema)      |
// | an array of subschemas      | allOf, anyOf, oneOf, prefixItems                                |
// | a map of subschemas         | properties, patternProperties, dependentSchemas, $defs,         |
// |                             | definitions (older name Ajv still reads), dependencies (Ajv     |
// |                             | applies it: a schema or a list of names per property)           |
// | data, never a schema        | const, enum, default, examples, required, dependentRequired,    |
// |                             | $vocabulary                                                     |
// | anything else               | an annotation or an unknown keyword: never applied, but a       |
// |                             | JSON Pointer $ref may still reach into it                       |

export type KeywordRole = "subschema" | "subschemas" | "schemaMap" | "data" | "other";

const ROLES: Readonly<Record<string, KeywordRole>> = {
  not: "subschema",
  if: "subschema",
  then: "subschema",
  else: "subschema",
  items: "subschema",
  contains: "subschema",
  additionalProperties: "subschema",
  propertyNames: "subschema",
  unevaluatedItems: "subschema",
  unevaluatedProperties: "subschema",
  contentSchema: "subschema",
  allOf: "subschemas",
  anyOf: "subschemas",
  oneOf: "subschemas",
  prefixItems: "subschemas",
  properties: "schemaMap",
  patternProperties: "schemaMap",
  dependentSchemas: "schemaMap",
  $defs: "schemaMap",
  definitions: "schemaMap",
  dependencies: "schemaMap",
  const: "data",
  enum: "data",
  default: "data",
  examples: "data",
  required: "data",
  dependentRequired: "data",
  $vocabulary: "data",
};

export function keywordRole(keyword: string): KeywordRole {
  return Object.hasOwn(ROLES, keyword) ? ROLES[keyword] : "other";
}

/** A schema object: a JSON object in a schema's place (a boolean schema holds nothing). */
export type SchemaObject = Record<string, unknown>;

export function isSchemaObject(value: unknown): value is SchemaObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The subschemas a schema object applies, each with the keyword (and name or index) that holds it. */
export function* subschemasOf(schema: SchemaObject): Generator<{ keyword: string; key?: string | number; schema: unknown }> {
  for (const [keyword, value] of Object.entries(schema)) {
    const role = keywordRole(keyword);
    switch (role) {
      case "subschema":
        yield { keyword, schema: value };
        break;
      case "subschemas":
        if (Array.isArray(value)) for (let i = 0; i < value.length; i++) yield { keyword, key: i, schema: value[i] };
        break;
      case "schemaMap":
        if (isSchemaObject(value)) for (const [key, sub] of Object.entries(value)) if (!Array.isArray(sub)) yield { keyword, key, schema: sub };
        break;
      case "data":
      case "other":
        break;
      default:
        assertNever(role);
    }
  }
}

function assertNever(value: never): never {
  throw new Error(`unknown keyword role ${String(value)}`);
}
