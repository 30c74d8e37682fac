// The schema resources of one tool schema document, for its references: each
// `$id` starts a resource, each `$anchor` and `$dynamicAnchor` names a schema in
// its resource, and a JSON Pointer fragment walks from a resource's root. Only
// this document is known: a reference to anything else is never fetched, and the
// schema is refused.
import { isSchemaObject, subschemasOf, type SchemaObject } from "./schema-keywords.js";

/** The base URI of a schema without `$id` at its root: any relative reference from it names another document. */
export const DOCUMENT_URI = "https://tool-schema.invalid/schema.json";

/** The documents a schema may refer to besides itself: the 2020-12 meta-schemas, by URI. */
export type KnownDocuments = (uri: string) => unknown;

/** A schema found by a reference, with the resource it belongs to (its base URI). */
export interface Resolved {
  schema: unknown;
  resource: string;
}

export class SchemaResources {
  private readonly roots = new Map<string, SchemaObject>();
  private readonly anchors = new Map<string, SchemaObject>();
  private readonly dynamicAnchors = new Map<string, SchemaObject>();
  private readonly resourceOfSchema = new Map<SchemaObject, string>();

  /** Indexes the document; throws with the reason when two schemas claim one identifier. */
  constructor(
    root: unknown,
    private readonly known: KnownDocuments = () => undefined,
  ) {
    this.visit(root, DOCUMENT_URI, true);
  }

  /** The resource a schema of this document starts or belongs to; undefined for one found only by a JSON Pointer into an unknown keyword. */
  resourceOf(schema: SchemaObject): string | undefined {
    return this.resourceOfSchema.get(schema);
  }

  /** The schema a reference names, from `base`; undefined when it is not in this document. */
  resolve(reference: string, base: string): Resolved | undefined {
    let url: URL;
    let fragment: string;
    try {
      url = new URL(reference, base);
      fragment = decodeURIComponent(url.hash.slice(1));
    } catch {
      return undefined;
    }
    const resource = withoutFragment(url.href);
    const root = this.roots.get(resource) ?? this.load(resource);
    if (root === undefined) return undefined;
    if (fragment === "") return { schema: root, resource };
    if (!fragment.startsWith("/")) {
      const anchored = this.anchors.get(`${resource}#${fragment}`);
      return anchored === undefined ? undefined : { schema: anchored, resource: this.resourceOfSchema.get(anchored) ?? resource };
    }
    let value: unknown = root;
    let within = resource;
    for (const segment of fragment.slice(1).split("/")) {
      const key = segment.replaceAll("~1", "/").replaceAll("~0", "~");
      if (value === null || typeof value !== "object" || !Object.hasOwn(value, key)) return undefined;
      value = (value as Record<string, unknown>)[key];
      // A pointer that walks into an embedded resource lands in that resource.
      if (isSchemaObject(value)) within = this.resourceOfSchema.get(value) ?? within;
    }
    return { schema: value, resource: within };
  }

  /** The schema of `resource` that declares `$dynamicAnchor: name`, if any. */
  dynamicAnchor(resource: string, name: string): SchemaObject | undefined {
    return this.dynamicAnchors.get(`${resource}#${name}`);
  }

  /**
   * Every schema of the document that declares `$dynamicAnchor: name`, whatever its
   * resource: the schemas a `$dynamicRef` to that name may reach, depending on
   * the path that led to it.
   */
  dynamicAnchorsNamed(name: string): SchemaObject[] {
    const found: SchemaObject[] = [];
    for (const [key, schema] of this.dynamicAnchors) if (key.slice(key.indexOf("#") + 1) === name) found.push(schema);
    return found;
  }

  /** A known document, indexed when first referred to. */
  private load(uri: string): SchemaObject | undefined {
    const document = this.known(uri);
    if (!isSchemaObject(document)) return undefined;
    this.visit(document, uri, true);
    return this.roots.get(uri);
  }

  private visit(schema: unknown, base: string, isRoot = false): void {
    if (!isSchemaObject(schema) || this.resourceOfSchema.has(schema)) return;
    let resource = base;
    if (typeof schema.$id === "string") {
      try {
        resource = withoutFragment(new URL(schema.$id, base).href);
      } catch {
        throw new Error(`$id "${schema.$id}" is not a URI reference`);
      }
      this.claim(this.roots, resource, schema, `$id "${schema.$id}"`);
    } else if (isRoot) this.roots.set(resource, schema);
    this.resourceOfSchema.set(schema, resource);
    if (typeof schema.$anchor === "string") this.claim(this.anchors, `${resource}#${schema.$anchor}`, schema, `$anchor "${schema.$anchor}"`);
    if (typeof schema.$dynamicAnchor === "string") {
      // A dynamic anchor is also a plain anchor: $ref reaches it by name.
      this.claim(this.anchors, `${resource}#${schema.$dynamicAnchor}`, schema, `$dynamicAnchor "${schema.$dynamicAnchor}"`);
      this.dynamicAnchors.set(`${resource}#${schema.$dynamicAnchor}`, schema);
    }
    for (const { schema: sub } of subschemasOf(schema)) this.visit(sub, resource);
  }

  private claim(names: Map<string, SchemaObject>, name: string, schema: SchemaObject, what: string): void {
    const holder = names.get(name);
    if (holder !== undefined && holder !== schema) throw new Error(`${what} names two schemas`);
    names.set(name, schema);
  }
}

function withoutFragment(uri: string): string {
  const hash = uri.indexOf("#");
  return hash < 0 ? uri : uri.slice(0, hash);
}
