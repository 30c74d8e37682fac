// Compiles tool schemas (JSON Schema 2020-12) once and keeps them in a bounded cache.
// A schema object seen before is found by identity; a new object with the same
// content is found by its serialized form, computed once per object.
import { Ajv2020 } from "ajv/dist/2020.js";
import * as addFormatsModule from "ajv-formats";
import type { ValidateFunction } from "ajv";
import { linearRegExp } from "./linear-regexp.js";
import { createRequire } from "node:module";

// Ajv compares const, enum and uniqueItems values with fast-deep-equal, which
// reads `constructor`, `valueOf` and `toString` through the value; JSON values
// are compared by their own keys only.
const ajvEqual = createRequire(import.meta.url)("ajv/dist/runtime/equal.js") as { default: ((a: unknown, b: unknown) => boolean) & { code?: string } };
function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((value, i) => jsonEqual(value, other[i]));
  }
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && jsonEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}
ajvEqual.default = Object.assign(jsonEqual, { code: ajvEqual.default.code });

/** A `properties`-like keyword naming "__proto__", which Ajv skips without a word. */
function namesProtoProperty(schema: unknown): boolean {
  if (schema === null || typeof schema !== "object") return false;
  if (Array.isArray(schema)) return schema.some(namesProtoProperty);
  for (const [key, value] of Object.entries(schema)) {
    if (key === "properties" && value !== null && typeof value === "object" && Object.hasOwn(value, "__proto__")) return true;
    if (namesProtoProperty(value)) return true;
  }
  return false;
}

// ajv-formats ships CommonJS; under NodeNext its default export is the module object.
const addFormats = (addFormatsModule as unknown as { default: (ajv: Ajv2020) => Ajv2020 }).default;

/** A tool's JSON Schema: an object or a boolean schema. */
export type ToolSchema = Record<string, unknown> | boolean;

/** A compiled schema, or the reason it could not be compiled (the call is then blocked). */
export type CompiledSchema = { ok: true; validate: ValidateFunction } | { ok: false; error: string };

export const DEFAULT_CACHE_LIMIT = 1024;

function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({
    strict: false,
    ownProperties: true,
    logger: false,
    allErrors: false,
    validateFormats: true,
    code: { regExp: linearRegExp },
    // A remote $ref is never fetched: compilation fails and the call is blocked.
    loadSchema: undefined,
  });
  addFormats(ajv);
  return ajv;
}

export class SchemaCache {
  readonly limit: number;
  private ajv = createAjv();
  private compiledByAjv = 0;
  private byObject = new WeakMap<object, CompiledSchema>();
  private byContent = new Map<string, CompiledSchema>();

  constructor(limit = DEFAULT_CACHE_LIMIT) {
    this.limit = limit;
  }

  get size(): number {
    return this.byContent.size;
  }

  compile(schema: ToolSchema): CompiledSchema {
    if (typeof schema === "object" && schema !== null) {
      const known = this.byObject.get(schema);
      if (known) return known;
    }
    const key = typeof schema === "boolean" ? String(schema) : JSON.stringify(schema);
    let compiled = this.byContent.get(key);
    if (compiled) {
      // Refresh recency: Map iteration order is insertion order.
      this.byContent.delete(key);
      this.byContent.set(key, compiled);
    } else {
      compiled = this.compileFresh(schema);
      if (this.byContent.size >= this.limit) this.evictOldest();
      this.byContent.set(key, compiled);
    }
    if (typeof schema === "object" && schema !== null) this.byObject.set(schema, compiled);
    return compiled;
  }

  private compileFresh(schema: ToolSchema): CompiledSchema {
    if (typeof schema !== "boolean" && (typeof schema !== "object" || schema === null || Array.isArray(schema))) {
      return { ok: false, error: "tool schema is not a JSON Schema (an object or a boolean)" };
    }
    if (namesProtoProperty(schema)) return { ok: false, error: "tool schema does not compile: a property named \"__proto__\" cannot be checked" };
    // Ajv keeps every schema it compiled in its code scope; a fresh instance after
    // `limit` compiles lets the old one go once its validators leave the cache.
    if (++this.compiledByAjv > this.limit) {
      this.ajv = createAjv();
      this.compiledByAjv = 1;
    }
    try {
      const validate = this.ajv.compile(schema);
      // The validator lives on in this cache; Ajv's own registry (keyed by object
      // and by $id) lets go of it, so memory stays bounded by `limit` and two
      // tools may reuse one $id.
      if (typeof schema === "object") this.ajv.removeSchema(schema);
      return { ok: true, validate };
    } catch (error) {
      return { ok: false, error: `tool schema does not compile: ${messageOf(error)}` };
    }
  }

  private evictOldest(): void {
    const oldest = this.byContent.keys().next();
    if (!oldest.done) this.byContent.delete(oldest.value);
  }
}

export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
