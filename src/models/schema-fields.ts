// Where a tool definition holds the JSON Schema of its arguments, in each
// envelope: Chat's and Open Responses' `parameters`, Anthropic's
// `input_schema`, Gemini's `parameters` or `parametersJsonSchema` (either
// spelling), Bedrock's `inputSchema` (its `json`). A definition that gives two
// of them is read by each envelope's reader with its own, and so judged by one
// schema here and another there: its calls are refused.
import { isPlainObject } from "./json-value.js";
import type { UnreadEntries } from "./written-tool-names.js";

export const SCHEMA_FIELDS: readonly string[] = ["parameters", "input_schema", "parametersJsonSchema", "parameters_json_schema", "inputSchema"];

/** The schema fields `definition` gives (null is none, as protobuf's JSON and the SDKs read it), in the order above. */
export function schemaFieldsGiven(definition: Record<string, unknown>): string[] {
  return SCHEMA_FIELDS.filter((field) => Object.hasOwn(definition, field) && definition[field] !== undefined && definition[field] !== null);
}

/** Why a definition that gives its schema in several fields cannot be read, as a detail. */
export function describeSchemaGivenTwice(fields: readonly string[]): string {
  return `the definition gives the schema of its arguments in ${fields.join(" and ")}, which readers of different envelopes each take one of`;
}

/** What a definition that names its tool and gives its schema in several fields refuses: that tool; undefined for any other. */
export function schemaGivenTwice(definition: unknown, path: string): UnreadEntries | undefined {
  if (!isPlainObject(definition) || typeof definition.name !== "string" || definition.name === "") return undefined;
  const fields = schemaFieldsGiven(definition);
  return fields.length > 1 ? { path, detail: describeSchemaGivenTwice(fields), governs: { tool: definition.name } } : undefined;
}
