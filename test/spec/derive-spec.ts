// Derives the project's copy of the Open Responses component schemas from the
// official OpenAPI document. The copy keeps only the keywords that decide
// validity, so the conformance tests run in a clone that has no ../shared.
// Usage: npm run derive-spec [-- PATH_TO_OPENAPI_JSON]
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const STRUCTURAL = new Set([
  "type", "required", "enum", "const", "oneOf", "anyOf", "allOf", "not", "$ref", "items",
  "additionalProperties", "minLength", "maxLength", "minimum", "maximum", "exclusiveMinimum",
  "exclusiveMaximum", "minItems", "maxItems", "minProperties", "maxProperties", "pattern", "format",
]);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function structureOf(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(structureOf);
  if (schema === null || typeof schema !== "object") return schema;
  const kept: { [key: string]: Json } = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === "properties" && value !== null && typeof value === "object" && !Array.isArray(value)) {
      // Property names are data, not keywords: a property called "description" or "title" stays.
      const properties: { [key: string]: Json } = {};
      for (const [name, sub] of Object.entries(value)) properties[name] = structureOf(sub);
      kept.properties = properties;
    } else if (STRUCTURAL.has(keyword)) {
      kept[keyword] = structureOf(value);
    }
  }
  return kept;
}

const source = process.argv[2] ?? fileURLToPath(new URL("../../../shared/spec/openresponses.openapi.json", import.meta.url));
const text = readFileSync(source, "utf8");
const document = JSON.parse(text) as { info: { version: string }; components: { schemas: Record<string, Json> } };
const components: Record<string, Json> = {};
for (const [name, schema] of Object.entries(document.components.schemas)) components[name] = structureOf(schema);

const copy = {
  $comment:
    "Structure of the Open Responses component schemas, derived by test/spec/derive-spec.ts; prose descriptions and examples removed.",
  source: {
    repository: "openresponses/openresponses",
    path: "public/openapi/openapi.json",
    commit: "1e33c10fb3c19480751658eae966dad8e9c91514",
    version: document.info.version,
    sha256: createHash("sha256").update(text).digest("hex"),
    license: "Specification text CC-BY-4.0, code Apache-2.0 (governance.mdx section 9)",
  },
  components: { schemas: components },
};
const target = fileURLToPath(new URL("../../src/models/spec/open-responses.components.json", import.meta.url));
writeFileSync(target, JSON.stringify(copy, null, 1) + "\n");
console.log(`wrote ${Object.keys(components).length} component schemas to ${target}`);
