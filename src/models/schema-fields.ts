// Where a tool definition holds the JSON Schema of its arguments, in each
// envelope: Chat's and Open Responses' `parameters`, Anthropic's
// `input_schema`, Gemini's `parameters` or `parametersJsonSchema` (either
// spelling), Bedrock's `inputSchema` (its `json`). A definition that gives two
// of them is read by each envelope's reader with its own, and so judged by one
// schema here and another there: its calls are refused.
export const SCHEMA_FIELDS: readonly string[] = ["parameters", "input_schema", "parametersJsonSchema", "parameters_json_schema", "inputSchema"];

/** The schema fields `definition` gives (null is none, as protobuf's JSON and the SDKs read it), in the order above. */
export function schemaFieldsGiven(definition: Record<string, unknown>): string[] {
  return SCHEMA_FIELDS.filter((field) => Object.hasOwn(definition, field) && definition[field] !== undefined && definition[field] !== null);
}

/** Why a definition that gives its schema in several fields cannot be read, as a detail. */
export function describeSchemaGivenTwice(fields: readonly string[]): string {
  return `the definition gives the schema of its arguments in ${fields.join(" and ")}, which readers of different envelopes each take one of`;
}
