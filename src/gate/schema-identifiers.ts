// Where Ajv and JSON Schema 2020-12 find a reference's target apart, though Ajv
// compiled the schema without a word. Read once, after compiling:
//
// | found                                            | why the schema is refused            |
// |--------------------------------------------------|--------------------------------------|
// | a `$ref` or `$dynamicRef` that names no schema   | Ajv registers every `$id` and        |
// |   of the document as 2020-12 reads it            |   `$anchor` its walk meets, under    |
// |                                                  |   keywords that hold no schema too   |
// |                                                  |   (`"x-lib": {"$id": …}`), and       |
// |                                                  |   resolves the reference there; and  |
// |                                                  |   one whose pointer names a member   |
// |                                                  |   objects inherit (`#/$defs/         |
// |                                                  |   constructor`), read as a schema    |
// |                                                  |   that passes everything             |
// | a reference that lands on no schema (an array's  | Ajv reads the number as a schema     |
// |   `length`)                                      |   that passes everything             |
// | two schemas whose identifiers (`$id`, or one     | JSON Schema asks for an error; Ajv   |
// |   anchor name in each) read as one URI once      |   keeps a first-level `$id` of a     |
// |   normalized (RFC 3986: `HTTP://A.test/x`,       |   root without `$id`, and the root's |
// |   `http://a.test/%78`, `http://a.test:80/x` and  |   own, as written, but looks every   |
// |   `http://a.test/x`)                             |   reference up as its resolver       |
// |                                                  |   writes it: a reference written as  |
// |                                                  |   one identifier reached the other   |
// |                                                  |   schema                             |
import { pointerToken } from "../models/json-pointer.js";
import { isSchemaObject, keywordRole, subschemasOf, type SchemaObject } from "./schema-keywords.js";
import { DOCUMENT_URI, SchemaResources, type KnownDocuments } from "./schema-resources.js";

/** Resolves a reference against a base as Ajv's URI resolver does, normalizing the result. */
export type ResolveUri = (base: string, reference: string) => string;

/** Why the schema is refused for a reference the two readings resolve apart, with its JSON Pointer, or undefined. */
export function referenceReadApart(schema: unknown, known: KnownDocuments, resolveUri: ResolveUri): string | undefined {
  if (!isSchemaObject(schema)) return undefined;
  const twice = identifierClaimedTwice(schema, resolveUri);
  if (twice !== undefined) return twice;
  let resources: SchemaResources;
  try {
    resources = new SchemaResources(schema, known);
  } catch (error) {
    // The URL parser's normalization (a default port dropped) found what Ajv's resolver keeps apart.
    return `tool schema is refused: ${error instanceof Error ? error.message : String(error)} once normalized (RFC 3986), which JSON Schema refuses and Ajv resolves to either`;
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
      // A pointer may end on an array's own `length`: Ajv takes the number for a schema that holds no keyword, and passes everything.
      if (typeof target.schema !== "boolean" && !isSchemaObject(target.schema)) {
        return `tool schema is refused: ${keyword} ${JSON.stringify(reference)} at ${shown(`${pointer}/${keyword}`)} lands on ${Array.isArray(target.schema) ? "an array" : typeof target.schema}, not on a schema`;
      }
      pending.push({ schema: target.schema, pointer: `${pointer}/${keyword}`, base: target.resource });
    }
    for (const { keyword, key, schema: sub } of subschemasOf(schema)) {
      pending.push({ schema: sub, pointer: `${pointer}/${keyword}${key === undefined ? "" : `/${pointerToken(String(key))}`}`, base: here });
    }
  }
  return undefined;
}

/**
 * Two objects of the schema that claim one identifier as Ajv's resolver writes
 * it. Every object Ajv's walk may register is read (all but data), each `$id`
 * resolved against the one above it, as Ajv resolves references.
 */
function identifierClaimedTwice(root: SchemaObject, resolveUri: ResolveUri): string | undefined {
  const claims = new Map<string, { schema: SchemaObject; pointer: string; what: string }>();
  const claim = (name: string, schema: SchemaObject, pointer: string, what: string): string | undefined => {
    const holder = claims.get(name);
    if (holder !== undefined && holder.schema !== schema) {
      return `tool schema is refused: ${holder.what} at ${shown(holder.pointer)} and ${what} at ${shown(pointer)} name one URI once normalized (RFC 3986), which JSON Schema refuses and Ajv resolves to either`;
    }
    claims.set(name, { schema, pointer, what });
    return undefined;
  };
  const pending: Array<{ value: unknown; pointer: string; base: string }> = [{ value: root, pointer: "", base: "" }];
  while (pending.length > 0) {
    const { value, pointer, base } = pending.pop()!;
    if (value === null || typeof value !== "object") continue;
    if (Array.isArray(value)) {
      value.forEach((item, index) => pending.push({ value: item, pointer: `${pointer}/${index}`, base }));
      continue;
    }
    const schema = value as SchemaObject;
    let here = base;
    if (typeof schema.$id === "string") {
      let resolved: string | undefined;
      try {
        resolved = withoutEmptyFragment(resolveUri(base, schema.$id));
      } catch {
        // An identifier the resolver cannot read: compiling has said so already, or the URL parser's reading refuses it.
      }
      if (resolved !== undefined) {
        here = resolved;
        const twice = claim(here, schema, `${pointer}/$id`, `$id ${JSON.stringify(schema.$id)}`);
        if (twice !== undefined) return twice;
      }
    }
    for (const keyword of ["$anchor", "$dynamicAnchor"]) {
      const name = schema[keyword];
      if (typeof name !== "string") continue;
      const twice = claim(`${here}#${name}`, schema, `${pointer}/${keyword}`, `${keyword} ${JSON.stringify(name)}`);
      if (twice !== undefined) return twice;
    }
    for (const [keyword, child] of Object.entries(schema)) {
      if (keywordRole(keyword) === "data") continue;
      pending.push({ value: child, pointer: `${pointer}/${pointerToken(keyword)}`, base: here });
    }
  }
  return undefined;
}

/** Ajv's form of an identifier: without the empty fragment (or "#/") it may end with. */
function withoutEmptyFragment(uri: string): string {
  return uri.replace(/#\/?$/, "");
}

function shown(pointer: string): string {
  return pointer === "" ? "the root" : pointer;
}
