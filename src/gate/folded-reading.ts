// The arguments as a reader that matches member names regardless of case reads
// them. Go's encoding/json (and the case-insensitive binders of .NET and Java)
// fill a struct's field from a member whose name only folds to it, preferring an
// exact match: `{"REGION":"global"}` is `region: "global"` to such a tool, while
// JSON Schema reads a member its schema leaves free and no region at all.
//
// The gate judges that reading too, object by object: a member is renamed only
// to a name the schema declares (`properties`, and the names `required` and the
// dependent keywords write: declared-argument-names.ts) for the very object it
// sits in, found by following the arguments down the schema (`properties`, the
// `patternProperties` whose pattern the member's name matches, `items`,
// `prefixItems`, `additionalProperties`, `contains`, `unevaluatedItems`,
// `unevaluatedProperties`, every branch of `allOf`, `anyOf`, `oneOf`,
// `if`/`then`/`else`, the subschema of `not`, the `dependentSchemas` (and
// `dependencies`) its object triggers, and each `$ref` as the evaluator
// resolves it: a JSON Pointer, an `$anchor`, an `$id` relative to its base, a
// 2020-12 meta-schema; a
// `$dynamicRef` leads to every schema whose `$dynamicAnchor` it may reach,
// since which one applies depends on the path taken, and a rename under any of
// them only adds a reading the call must pass). A map's keys, whose object
// declares no name, are left as written. The copy so renamed must pass the
// schema as well. A member whose fold the object's schemas write in two
// spellings (`id` and `ID`) could fill either: that reading is not one, and
// the call is blocked.
import { comparedName } from "../models/names-folded-twice.js";
import { pointerToken } from "../models/json-pointer.js";
import { isPlainObject, setOwn } from "../models/json-value.js";
import type { ToolSchema } from "./schema.js";
import { eachSchemaObject, namesDeclaredIn } from "./declared-argument-names.js";
import { DOCUMENT_URI, SchemaResources } from "./schema-resources.js";
import { linearRegExp } from "./linear-regexp.js";
import { schemaWork } from "./schema-work.js";
import { mayReferToMetaSchema, metaSchemaDocument, metaSchemaDocuments } from "./meta-schemas.js";

/** A member renamed as a folding reader reads it: where it is (JSON Pointer into the arguments), its name, and the declared names it folds to. */
export interface FoldedMember {
  path: string;
  name: string;
  declared: readonly string[];
}

/**
 * The arguments as a folding reader reads them, and the first member it renamed;
 * `ambiguous` when a member folds to two declared spellings; `unfollowed` when a
 * member that may be renamed sits where more schemas apply than the reading
 * follows, so whether its object declares the name it folds to is not known.
 */
export type FoldedReading = { value: unknown; renamed: FoldedMember } | { ambiguous: FoldedMember } | { unfollowed: FoldedMember };

type SchemaObject = Record<string, unknown>;

/** A schema where the walk reached it, with the base URI its references resolve against. */
interface Placed {
  schema: unknown;
  base: string;
}

/** A schema object that applies at a place of the arguments, with its base URI. */
interface PlacedSchema {
  schema: SchemaObject;
  base: string;
}

/** The schema being read: its root, and its resources when they could be indexed (a schema that compiled always can). */
interface Reach {
  root: SchemaObject;
  resources: SchemaResources | undefined;
  /** What `applying` found for each list of schemas given, where the object's names could not change it. */
  applied: Map<string, PlacedSchema[] | undefined>;
}

/**
 * The most schemas followed at one place of the arguments. Past it, the place's
 * declared names are not known: a member there or below that folds to a name
 * some `properties` writes otherwise blocks the call, and the others are read
 * as written.
 */
export const MAX_SCHEMAS_AT_A_PLACE = 64;

const BRANCHES = ["allOf", "anyOf", "oneOf"] as const;
// `not` among them: a name only its subschema declares (`not: {properties: {force:
// {const: true}}, required: ["force"]}`) is still a parameter of the object, and
// `FORCE` fills it for a folding reader while JSON Schema reads a free member.
const IN_PLACE = ["if", "then", "else", "not"] as const;
// The gate applies the schemas of `dependencies` as the drafts that had it did,
// as it applies `dependentSchemas`: a name one of them declares is a parameter too.
const DEPENDENTS = ["dependentSchemas", "dependencies"] as const;

/** The folding reader's reading of `value` under `schema` when it differs from the value judged; undefined when every member is read as written. */
export function foldedReading(value: unknown, schema: ToolSchema): FoldedReading | undefined {
  if (!isPlainObject(schema) || value === null || typeof value !== "object") return undefined;
  // Most arguments name every member as some object of the schema writes it, or as none does: then no member is renamed, and no copy is made.
  if (!mayRename(value, namesOf(schema))) return undefined;
  // Within the budget a validation of these arguments has: names are matched
  // against patterns validation may not have run on them (a `then` whose `if`
  // failed), and a pattern whose states never recur walks thousands a character.
  // Past it, SchemaWorkExceeded blocks the call.
  return schemaWork.run(() => readFolded(value, schema), value);
}

/** Walks the arguments down the schema, building the renamed copy as it goes. */
function readFolded(value: object, root: SchemaObject): FoldedReading | undefined {
  let first: FoldedMember | undefined;
  const top = shell(value);
  const reach: Reach = { root, resources: resourcesOf(root), applied: new Map() };
  // The items of an array, and many objects besides, sit where the same schemas apply: their names are gathered once.
  const declaredBySchemas = new Map<string, Declared | undefined>();
  // An explicit stack: arguments may nest deeper than the call stack allows.
  const pending: Array<{ source: unknown; target: unknown; schemas: PlacedSchema[] | undefined; path: string }> = [{ source: value, target: top, schemas: applying([{ schema: root, base: DOCUMENT_URI }], value, reach), path: "" }];
  while (pending.length > 0) {
    const next = pending.pop()!;
    const { source, target, path } = next;
    let schemas = next.schemas;
    if (schemas === undefined) {
      const unfollowed = firstRenamable(source, namesOf(root), path);
      if (unfollowed !== undefined) return { unfollowed };
      // Nothing here or below may be renamed: it is copied as written.
      schemas = [];
    }
    if (Array.isArray(source)) {
      source.forEach((child, index) => {
        const childCopy = shell(child);
        setOwn(target as object, index, childCopy);
        if (child !== null && typeof child === "object") pending.push({ source: child, target: childCopy, schemas: applying(itemSchemas(schemas, index), child, reach), path: `${path}/${index}` });
      });
      continue;
    }
    const members = source as Record<string, unknown>;
    const declared = declaredAt(schemas, declaredBySchemas);
    for (const name of Object.keys(members)) {
      const spellings = declared === undefined || declared.written.has(name) ? undefined : declared.byFold.get(comparedName(name));
      const memberPath = `${path}/${pointerToken(name)}`;
      if (spellings !== undefined && (spellings.length > 1 || Object.hasOwn(members, spellings[0]!))) return { ambiguous: { path: memberPath, name, declared: spellings } };
      const readAs = spellings?.[0] ?? name;
      if (spellings !== undefined) first ??= { path: memberPath, name, declared: spellings };
      const child = members[name];
      const childCopy = shell(child);
      setOwn(target as object, readAs, childCopy);
      if (child !== null && typeof child === "object") pending.push({ source: child, target: childCopy, schemas: applying(memberSchemas(schemas, readAs), child, reach), path: memberPath });
    }
  }
  return first === undefined ? undefined : { value: top, renamed: first };
}

/** The names every schema object of the schema declares, by fold; read once a schema. */
type SchemaNames = ReadonlyMap<string, readonly string[]>;

const schemaNames = new WeakMap<object, SchemaNames>();

function namesOf(schema: SchemaObject): SchemaNames {
  let names = schemaNames.get(schema);
  if (names === undefined) {
    const written = new Set<string>();
    // A reference out of the document may reach a meta-schema, whose names are parameters too.
    const documents = mayReferToMetaSchema(schema) ? [schema, ...metaSchemaDocuments()] : [schema];
    for (const document of documents) {
      eachSchemaObject(document, (fields) => {
        for (const name of namesDeclaredIn(fields)) written.add(name);
      });
    }
    names = spellingsByFold(written);
    schemaNames.set(schema, names);
  }
  return names;
}

/** Names by their fold, each fold with the spellings that give it. */
function spellingsByFold(names: Iterable<string>): Map<string, string[]> {
  const byFold = new Map<string, string[]>();
  for (const name of names) {
    const fold = comparedName(name);
    const spellings = byFold.get(fold);
    if (spellings === undefined) byFold.set(fold, [name]);
    else spellings.push(name);
  }
  return byFold;
}

/** The first member of the value, `path` its place, that folds to a name some `properties` writes otherwise, with those spellings. */
function firstRenamable(value: unknown, names: SchemaNames, path: string): FoldedMember | undefined {
  const pending: Array<{ value: unknown; path: string }> = [{ value, path }];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (next.value === null || typeof next.value !== "object") continue;
    for (const [key, child] of Object.entries(next.value)) {
      const memberPath = `${next.path}/${pointerToken(key)}`;
      const others = names.get(comparedName(key))?.filter((spelling) => spelling !== key) ?? [];
      if (others.length > 0) return { path: memberPath, name: key, declared: others };
      pending.push({ value: child, path: memberPath });
    }
  }
  return undefined;
}

/** Whether some member of the value folds to a name some `properties` writes otherwise: only then can it be renamed. */
function mayRename(value: object, names: SchemaNames): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (next === null || typeof next !== "object") continue;
    if (Array.isArray(next)) {
      for (const child of next) if (child !== null && typeof child === "object") pending.push(child);
      continue;
    }
    for (const name in next) {
      const spellings = names.get(comparedName(name));
      if (spellings !== undefined && spellings.some((spelling) => spelling !== name)) return true;
      const child = (next as Record<string, unknown>)[name];
      if (child !== null && typeof child === "object") pending.push(child);
    }
  }
  return false;
}

/** The names the schemas at one place declare (namesDeclaredIn), as written and by fold. */
interface Declared {
  written: Set<string>;
  byFold: Map<string, string[]>;
}

const schemaNumbers = new WeakMap<object, number>();
let schemasNumbered = 0;

/** The names the schemas at one place declare; undefined when they declare none. Gathered once for each set of schemas, kept in `known`. */
function declaredAt(schemas: readonly PlacedSchema[], known: Map<string, Declared | undefined>): Declared | undefined {
  const key = schemas.map(({ schema }) => numberOf(schema)).join(",");
  if (known.has(key)) return known.get(key);
  const written = new Set<string>();
  for (const { schema } of schemas) {
    const names = namesDeclaredIn(schema);
    // As validation charges a schema object it evaluates, by its names
    // (schema-instrument.ts): this reading reads the names of schemas validation
    // skipped too (a `then` whose `if` failed).
    schemaWork.charge(1 + (names.length >> 4));
    for (const name of names) written.add(name);
  }
  const declared = written.size === 0 ? undefined : { written, byFold: spellingsByFold(written) };
  known.set(key, declared);
  return declared;
}

/** A number that stands for one schema object, the same for as long as it lives. */
function numberOf(schema: SchemaObject): number {
  let number = schemaNumbers.get(schema);
  if (number === undefined) {
    number = ++schemasNumbered;
    schemaNumbers.set(schema, number);
  }
  return number;
}

/**
 * The schemas a member named `name` is judged by: its `properties` entry, else
 * `additionalProperties`; each `patternProperties` entry whose pattern its name
 * matches, read by the engine the schema compiled with, so that a name is
 * matched as validation matched it; and `unevaluatedProperties` unless the
 * schema's own keywords evaluated the member. Another schema at the place may
 * have evaluated it too: following `unevaluatedProperties` there as well only
 * adds a reading the call must pass.
 */
function memberSchemas(schemas: readonly PlacedSchema[], name: string): Placed[] {
  const found: Placed[] = [];
  for (const { schema, base } of schemas) {
    let evaluated = schema.additionalProperties !== undefined;
    if (isPlainObject(schema.properties) && Object.hasOwn(schema.properties, name)) {
      found.push({ schema: schema.properties[name], base });
      evaluated = true;
    } else if (isPlainObject(schema.additionalProperties)) found.push({ schema: schema.additionalProperties, base });
    if (isPlainObject(schema.patternProperties)) {
      for (const [pattern, sub] of Object.entries(schema.patternProperties)) {
        // As validation charges a name matched against a pattern (schema-instrument.ts).
        schemaWork.charge(1 + (name.length >> 6));
        if (!linearRegExp(pattern, "u").test(name)) continue;
        found.push({ schema: sub, base });
        evaluated = true;
      }
    }
    if (!evaluated && isPlainObject(schema.unevaluatedProperties)) found.push({ schema: schema.unevaluatedProperties, base });
  }
  return found;
}

/**
 * The schemas the item at `index` is judged by: its `prefixItems` entry, else
 * `items`, else `unevaluatedItems`; and `contains`, which every item is tried
 * against.
 */
function itemSchemas(schemas: readonly PlacedSchema[], index: number): Placed[] {
  const found: Placed[] = [];
  for (const { schema, base } of schemas) {
    if (Array.isArray(schema.prefixItems) && index < schema.prefixItems.length) found.push({ schema: schema.prefixItems[index], base });
    else if (isPlainObject(schema.items)) found.push({ schema: schema.items, base });
    else if (schema.items === undefined && isPlainObject(schema.unevaluatedItems)) found.push({ schema: schema.unevaluatedItems, base });
    if (isPlainObject(schema.contains)) found.push({ schema: schema.contains, base });
  }
  return found;
}

/**
 * The schemas that apply at a place holding `value`: those given, and what their
 * references, branches and `dependentSchemas` lead to, each once, at most
 * MAX_SCHEMAS_AT_A_PLACE. A dependent schema applies when the object holds a
 * member that names its trigger as the folding reader reads names: `MODE` is
 * `mode` to it, and the copy judged holds `mode`.
 */
function applying(given: readonly Placed[], value: unknown, reach: Reach): PlacedSchema[] | undefined {
  // The items of a list sit under the same schemas, and only dependentSchemas
  // make the object's names matter: without them, one walk answers for every
  // item, where a $dynamicRef to hundreds of anchors was walked at each.
  const key = given.map(({ schema, base }) => (isPlainObject(schema) ? `${numberOf(schema)} ${base}` : "")).join("\n");
  if (reach.applied.has(key)) return reach.applied.get(key);
  let namesMatter = false;
  const settle = (answer: PlacedSchema[] | undefined): PlacedSchema[] | undefined => {
    if (!namesMatter) reach.applied.set(key, answer);
    return answer;
  };
  const present = isPlainObject(value) ? new Set(Object.keys(value).map(comparedName)) : undefined;
  const found: PlacedSchema[] = [];
  const seen = new Set<SchemaObject>();
  const pending = [...given];
  while (pending.length > 0) {
    const { schema: next, base: outer } = pending.pop()!;
    if (!isPlainObject(next) || seen.has(next)) continue;
    // Too many to follow: what the place declares is not known.
    if (found.length >= MAX_SCHEMAS_AT_A_PLACE) return settle(undefined);
    seen.add(next);
    const base = reach.resources?.resourceOf(next) ?? outer;
    found.push({ schema: next, base });
    if (typeof next.$ref === "string") pending.push(...referenced(next.$ref, base, reach));
    if (typeof next.$dynamicRef === "string") {
      pending.push(...referenced(next.$dynamicRef, base, reach));
      const name = next.$dynamicRef.slice(next.$dynamicRef.indexOf("#") + 1);
      if (next.$dynamicRef.includes("#") && !name.startsWith("/")) for (const anchored of reach.resources?.dynamicAnchorsNamed(name) ?? []) pending.push({ schema: anchored, base });
    }
    for (const keyword of BRANCHES) if (Array.isArray(next[keyword])) for (const branch of next[keyword] as unknown[]) pending.push({ schema: branch, base });
    for (const keyword of IN_PLACE) pending.push({ schema: next[keyword], base });
    for (const keyword of DEPENDENTS) {
      const dependents = next[keyword];
      if (!isPlainObject(dependents)) continue;
      namesMatter = true;
      if (present === undefined) continue;
      // By the object's names, not the triggers: a schema of a thousand triggers
      // applies to every item of a list, and most items name none of them. A
      // `dependencies` entry that lists names is no schema, and is passed over.
      const byTrigger = dependentsByTrigger(dependents);
      for (const name of present) for (const dependent of byTrigger.get(name) ?? []) pending.push({ schema: dependent, base });
    }
  }
  return settle(found);
}

const dependentsByFold = new WeakMap<SchemaObject, Map<string, unknown[]>>();

/** The schemas of a `dependentSchemas`, by the name of their trigger as a folding reader reads it; gathered once for each. */
function dependentsByTrigger(dependentSchemas: SchemaObject): Map<string, unknown[]> {
  let byTrigger = dependentsByFold.get(dependentSchemas);
  if (byTrigger === undefined) {
    byTrigger = new Map();
    for (const [trigger, dependent] of Object.entries(dependentSchemas)) {
      const fold = comparedName(trigger);
      const dependents = byTrigger.get(fold);
      if (dependents === undefined) byTrigger.set(fold, [dependent]);
      else dependents.push(dependent);
    }
    dependentsByFold.set(dependentSchemas, byTrigger);
  }
  return byTrigger;
}

/** The schema a reference names, as the evaluator resolves it (schema-resources.ts); by JSON Pointer alone when the resources could not be indexed. */
function referenced(reference: string, base: string, reach: Reach): Placed[] {
  if (reach.resources === undefined) return [{ schema: localTarget(reference, reach.root), base }];
  const target = reach.resources.resolve(reference, base);
  return target === undefined ? [] : [{ schema: target.schema, base: target.resource }];
}

const resourcesByRoot = new WeakMap<SchemaObject, SchemaResources | null>();

/** The resources of a schema, with the meta-schemas it may refer to, indexed once a schema; undefined when two schemas claim one identifier (such a schema does not compile). */
function resourcesOf(root: SchemaObject): SchemaResources | undefined {
  let resources = resourcesByRoot.get(root);
  if (resources === undefined) {
    try {
      resources = new SchemaResources(root, metaSchemaDocument);
    } catch {
      resources = null;
    }
    resourcesByRoot.set(root, resources);
  }
  return resources ?? undefined;
}

/** The schema a `$ref` of this document names by a JSON Pointer (`#`, `#/$defs/a`); undefined for any other reference. */
function localTarget(reference: string, root: SchemaObject): unknown {
  if (reference === "#") return root;
  if (!reference.startsWith("#/")) return undefined;
  let at: unknown = root;
  for (const token of reference.slice(2).split("/")) {
    let name: string;
    try {
      name = decodeURIComponent(token).replace(/~1/g, "/").replace(/~0/g, "~");
    } catch {
      return undefined;
    }
    if (at === null || typeof at !== "object" || !Object.hasOwn(at, name)) return undefined;
    at = (at as Record<string, unknown>)[name];
  }
  return at;
}

/** An empty container of the value's kind, or the value itself when it holds none. */
function shell(value: unknown): unknown {
  if (Array.isArray(value)) return [];
  return value !== null && typeof value === "object" ? {} : value;
}
