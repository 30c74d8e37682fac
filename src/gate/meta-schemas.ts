// The 2020-12 meta-schemas a tool schema may refer to (a tool that takes a JSON
// Schema as an argument: `{"$ref": "https://json-schema.org/draft/2020-12/schema"}`),
// the documents the gate's Ajv holds from its start, for the walks that follow a
// schema's references without Ajv: the names a schema declares, and the folded
// reading. A reader that decodes such an argument into a schema type (Go's
// encoding/json into a struct with a field `Type`) reads `TYPE` as `type`, so the
// names the meta-schemas declare are parameters like any other.
import { createRequire } from "node:module";
import { isPlainObject } from "../models/json-value.js";
import type { KnownDocuments } from "./schema-resources.js";

const FILES = ["schema", "meta/core", "meta/applicator", "meta/unevaluated", "meta/validation", "meta/meta-data", "meta/format-annotation", "meta/content"];

const load = createRequire(import.meta.url);
const byUri: ReadonlyMap<string, Record<string, unknown>> = new Map(
  FILES.map((file) => {
    const document = load(`ajv/dist/refs/json-schema-2020-12/${file}.json`) as Record<string, unknown>;
    return [document.$id as string, document];
  }),
);

/** A 2020-12 meta-schema by its URI; undefined for any other URI. */
export const metaSchemaDocument: KnownDocuments = (uri) => byUri.get(uri);

/** The meta-schemas themselves: every schema that `metaSchemaDocument` gives. */
export function metaSchemaDocuments(): Iterable<Record<string, unknown>> {
  return byUri.values();
}

const refersOutOf = new WeakMap<object, boolean>();

/**
 * Whether the schema holds a `$ref` or `$dynamicRef` that is not a fragment of
 * its own document: only such a reference may reach a meta-schema. Read once a
 * schema; every object is read as if it were a subschema, so more schemas count
 * than reach one, never fewer.
 */
export function mayReferToMetaSchema(schema: object): boolean {
  let answer = refersOutOf.get(schema);
  if (answer === undefined) {
    answer = false;
    const pending: unknown[] = [schema];
    while (pending.length > 0 && !answer) {
      const next = pending.pop();
      if (next === null || typeof next !== "object") continue;
      if (isPlainObject(next)) for (const keyword of ["$ref", "$dynamicRef"]) if (typeof next[keyword] === "string" && !(next[keyword] as string).startsWith("#")) answer = true;
      for (const child of Array.isArray(next) ? next : Object.values(next)) pending.push(child);
    }
    refersOutOf.set(schema, answer);
  }
  return answer;
}
