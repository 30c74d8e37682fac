// A schema that applies itself to the same value through $ref and allOf alone
// never finishes: no keyword on the way is conditional and none moves into the
// value. Ajv would recurse until the stack runs out; the gate refuses the schema
// instead, naming the reference that closes the loop.
import { isSchemaObject, subschemasOf, type SchemaObject } from "./schema-keywords.js";
import type { SchemaResources } from "./schema-resources.js";

/** The reference that closes an endless loop, or undefined when there is none. */
export function endlessReference(root: unknown, resources: SchemaResources): string | undefined {
  // Every schema object of the document and each one's unconditional in-place
  // successors: its $ref target and its allOf members.
  const successors = new Map<SchemaObject, Array<{ schema: SchemaObject; via: string }>>();
  const pending: Array<{ schema: unknown; base: string | undefined }> = [{ schema: root, base: undefined }];
  while (pending.length > 0) {
    const { schema, base } = pending.pop()!;
    if (!isSchemaObject(schema) || successors.has(schema)) continue;
    const here = resources.resourceOf(schema) ?? base;
    const next: Array<{ schema: SchemaObject; via: string }> = [];
    if (typeof schema.$ref === "string" && here !== undefined) {
      const target = resources.resolve(schema.$ref, here);
      if (target !== undefined && isSchemaObject(target.schema)) {
        next.push({ schema: target.schema, via: `$ref "${schema.$ref}"` });
        pending.push({ schema: target.schema, base: target.resource });
      }
    }
    if (Array.isArray(schema.allOf)) for (const member of schema.allOf) if (isSchemaObject(member)) next.push({ schema: member, via: "allOf" });
    successors.set(schema, next);
    for (const { schema: sub } of subschemasOf(schema)) pending.push({ schema: sub, base: here });
  }
  // Depth-first search with an explicit stack: a schema still on the path, met
  // again, closes a loop.
  const state = new Map<SchemaObject, "open" | "done">();
  for (const start of successors.keys()) {
    if (state.has(start)) continue;
    const path: Array<{ schema: SchemaObject; next: number }> = [{ schema: start, next: 0 }];
    state.set(start, "open");
    while (path.length > 0) {
      const top = path[path.length - 1];
      const following = successors.get(top.schema) ?? [];
      if (top.next >= following.length) {
        state.set(top.schema, "done");
        path.pop();
        continue;
      }
      const { schema: successor, via } = following[top.next++];
      const seen = state.get(successor);
      if (seen === "open") return via;
      if (seen === undefined) {
        state.set(successor, "open");
        path.push({ schema: successor, next: 0 });
      }
    }
  }
  return undefined;
}
