// Where Ajv and JSON Schema 2020-12 find a reference's target apart, though Ajv
// compiled the schema without a word. Read once, after compiling:
//
// | found                                            | why the schema is refused            |
// |--------------------------------------------------|--------------------------------------|
// | a `$ref` or `$dynamicRef` that names no schema   | Ajv registers every `$id` and        |
// |   of the document as 2020-12 reads it            |   `$anchor` its walk meets, under    |
// |                                                  |   keywords that hold no schema too   |
// |                                                  |   (`"x-lib": {"$id": …}`), and       |
// |                                                  |   resolves the reference there       |
import { pointerToken } from "../models/json-pointer.js";
import { isSchemaObject, subschemasOf, type SchemaObject } from "./schema-keywords.js";
import { DOCUMENT_URI, SchemaResources, type KnownDocuments } from "./schema-resources.js";

/** Why the schema is refused for a reference the two readings resolve apart, with its JSON Pointer, or undefined. */
export function referenceReadApart(schema: unknown, known: KnownDocuments): string | undefined {
  if (!isSchemaObject(schema)) return undefined;
  let resources: SchemaResources;
  try {
    resources = new SchemaResources(schema, known);
  } catch {
    // Two schemas claim one identifier: compiling says so.
    return undefined;
  }
  return unresolvedReference(schema, resources);
}

/** The first reference, in the document or reached through references, that names no schema of it as 2020-12 reads it. */
function unresolvedReference(root: SchemaObject, resources: SchemaResources): string | undefined {
  const seen = new Set<SchemaObject>();
  const pending: Array<{ schema: unknown; pointer: string; base: string }> = [{ schema: root, pointer: "", base: DOCUMENT_URI }];
  while (pending.length > 0) {
    const { schema, pointer, base } = pending.pop()!;
    if (!isSchemaObject(schema) || seen.has(schema)) continue;
    seen.add(schema);
    const here = resources.resourceOf(schema) ?? base;
    for (const keyword of ["$ref", "$dynamicRef"]) {
      const reference = schema[keyword];
      if (typeof reference !== "string") continue;
      const target = resources.resolve(reference, here);
      if (target === undefined) {
        return `tool schema is refused: ${keyword} ${JSON.stringify(reference)} at ${shown(`${pointer}/${keyword}`)} names no schema of the document as JSON Schema 2020-12 reads it (which reads $id and $anchor in subschemas only, never under a keyword that holds none), where Ajv resolves it`;
      }
      pending.push({ schema: target.schema, pointer: `${pointer}/${keyword}`, base: target.resource });
    }
    for (const { keyword, key, schema: sub } of subschemasOf(schema)) {
      pending.push({ schema: sub, pointer: `${pointer}/${keyword}${key === undefined ? "" : `/${pointerToken(String(key))}`}`, base: here });
    }
  }
  return undefined;
}

function shown(pointer: string): string {
  return pointer === "" ? "the root" : pointer;
}
