// The member names a tool's schema gives its arguments: every key of a
// `properties` object anywhere in it, every name a `required` list or a
// `dependentRequired` (or `dependencies`) entry names, every key of
// `dependentSchemas`, `dependentRequired` and `dependencies`, and those of
// the meta-schemas when a reference may reach one (meta-schemas.ts). A tool that
// decodes its arguments into fields matched regardless of case (Go's
// encoding/json) reads `region` and `Region` as its one field `region`, so two
// argument names that fold to one of these are two values for one field, only
// one of which the gate judged. Names the schema never gives (a map's keys, a
// word count) are a map's to the tool too, and are left alone.
import { foldName } from "../models/folded-name.js";
import type { FoldedNames } from "../models/names-folded-twice.js";
import type { ToolSchema } from "./schema.js";
import { mayReferToMetaSchema, metaSchemaDocuments } from "./meta-schemas.js";

const declared = new WeakMap<object, FoldedNames | null>();

/**
 * Whether a folded name is one the schema gives an argument member; read once
 * a schema. Undefined when it gives none: then no pair of names counts, and
 * the arguments need no walk.
 */
export function declaredArgumentNames(schema: ToolSchema | undefined): FoldedNames | undefined {
  if (schema === undefined || typeof schema !== "object" || schema === null) return undefined;
  let names = declared.get(schema);
  if (names === undefined) {
    const folds = foldsOf(schema);
    names = folds.size === 0 ? null : (folded) => folds.has(folded);
    declared.set(schema, names);
  }
  return names ?? undefined;
}

function foldsOf(schema: object): Set<string> {
  const folds = new Set<string>();
  // What a reference out of the document reaches declares names too: a meta-schema's `type`, `properties`…
  const documents = mayReferToMetaSchema(schema) ? [schema, ...metaSchemaDocuments()] : [schema];
  for (const document of documents) {
    eachSchemaObject(document, (fields) => {
      for (const name of namesDeclaredIn(fields)) folds.add(foldName(name));
    });
  }
  return folds;
}

/** Keywords whose keys are names of the object's members. */
const NAME_KEYS = ["properties", "dependentSchemas", "dependentRequired", "dependencies"] as const;

/**
 * The member names one schema object gives its object: the keys of its
 * `properties`, `dependentSchemas`, `dependentRequired` and `dependencies`, and
 * the names its `required` and the lists of `dependentRequired` and
 * `dependencies` write. A name only `required` or a trigger writes is a
 * parameter all the same: `{"if": {"required": ["delete"]}, …}` speaks of a
 * member `delete` the tool reads.
 */
export function namesDeclaredIn(fields: Record<string, unknown>): string[] {
  const names: string[] = [];
  const lists: unknown[] = [Object.hasOwn(fields, "required") ? fields.required : undefined];
  for (const keyword of NAME_KEYS) {
    const entries = Object.hasOwn(fields, keyword) ? fields[keyword] : undefined;
    if (!isObject(entries)) continue;
    names.push(...Object.keys(entries));
    if (keyword === "dependentRequired" || keyword === "dependencies") lists.push(...Object.values(entries));
  }
  for (const list of lists) if (Array.isArray(list)) for (const name of list) if (typeof name === "string") names.push(name);
  return names;
}

/** Calls `visit` with every object (not array) of a schema, each once, however deep. */
export function eachSchemaObject(schema: object, visit: (fields: Record<string, unknown>) => void): void {
  // An explicit stack: a schema may nest deeper than the call stack allows; each object once.
  const pending: unknown[] = [schema];
  const seen = new Set<object>();
  while (pending.length > 0) {
    const next = pending.pop();
    if (next === null || typeof next !== "object" || seen.has(next)) continue;
    seen.add(next);
    if (Array.isArray(next)) {
      for (const child of next) pending.push(child);
      continue;
    }
    visit(next as Record<string, unknown>);
    for (const child of Object.values(next)) pending.push(child);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
