// Compiles tool schemas (JSON Schema 2020-12) once and keeps them in a bounded cache.
// A schema object seen before is found by identity; a new object with the same
// content is found by its serialized form, computed once per object.
import { Ajv2020 } from "ajv/dist/2020.js";
import { linearRegExp, withPatternBounds } from "./linear-regexp.js";
import { createRequire } from "node:module";
import { addWorkKeywords, instrumented, referenceIntoData, refusedKeywordUsed } from "./schema-instrument.js";
import { jsonEqual } from "../models/json-equal.js";
import { compileEvaluator, needsEvaluator, type FormatEntry } from "./schema-evaluator.js";
import { surelyMetaValid } from "./surely-meta-valid.js";
import { endlessReference } from "./schema-cycles.js";
import { MAX_SCHEMA_NODES, mayExceedBounds, schemaLimitBroken } from "./schema-limits.js";
import { notJsonData } from "./schema-data.js";
import { SchemaResources } from "./schema-resources.js";
import { assertedFormats } from "./schema-formats.js";
import { ambiguousReference, keywordSpelledOtherwise, olderDraftKeyword, unrunnablePart } from "./schema-unrunnable.js";
import { referenceReadApart } from "./schema-identifiers.js";
import { runWithinBudget, type SchemaValidator } from "./schema-work.js";
import { containsEvaluatingItems, dependenciesReadTwoWays, dialectNotRead, mixedDialectsWhereTurning, readAs2020 } from "./schema-dialect.js";
import { metaSchemaDocument } from "./meta-schemas.js";

// Ajv compares const, enum and uniqueItems values with fast-deep-equal, which
// reads `constructor`, `valueOf` and `toString` through the value; JSON values
// are compared by their own keys only.
const ajvEqual = createRequire(import.meta.url)("ajv/dist/runtime/equal.js") as { default: ((a: unknown, b: unknown) => boolean) & { code?: string } };
ajvEqual.default = Object.assign((a: unknown, b: unknown) => jsonEqual(a, b), { code: ajvEqual.default.code });

/**
 * Keywords whose value is an object keyed by property names (or patterns) where
 * Ajv's code reads an entry named "__proto__" as the prototype and skips it
 * without a word, so a schema that names one there is refused. It reads
 * `dependentSchemas` and `dependentRequired` entries so named as it should.
 */
const KEYED_BY_NAME = ["properties", "patternProperties", "dependencies"] as const;

/** The first keyword of KEYED_BY_NAME, anywhere in the schema, with an entry named "__proto__". */
function namesProtoProperty(schema: unknown): string | undefined {
  if (schema === null || typeof schema !== "object") return undefined;
  if (Array.isArray(schema)) {
    for (const item of schema) {
      const found = namesProtoProperty(item);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const [key, value] of Object.entries(schema)) {
    if ((KEYED_BY_NAME as readonly string[]).includes(key) && value !== null && typeof value === "object" && Object.hasOwn(value, "__proto__")) return key;
    const found = namesProtoProperty(value);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** A tool's JSON Schema: an object or a boolean schema. */
export type ToolSchema = Record<string, unknown> | boolean;

export type { SchemaError, SchemaValidator } from "./schema-work.js";

/**
 * A compiled schema, or the reason it could not be compiled (the call is then
 * blocked). `validate` runs within a work budget: past it, it returns false with
 * an error that states the bound. `schema` is what compiled: the schema's JSON
 * text read back, the one reading every other check of the call must judge by,
 * since an object built in code (a Proxy) can answer each later read otherwise.
 */
export type CompiledSchema = { ok: true; validate: SchemaValidator; schema: ToolSchema } | { ok: false; error: string };

export const DEFAULT_CACHE_LIMIT = 1024;

export interface SchemaCacheOptions {
  /**
   * Check `format` as an assertion, each by its RFC's grammar (schema-formats.ts;
   * `format: regex` means ECMA-262 with the u flag), and refuse a schema that asks
   * for a format without a checker. Off by default: in 2020-12 a format is an
   * annotation unless the format-assertion vocabulary is asked for.
   */
  assertFormats?: boolean;
}

function createAjv(assertFormats: boolean): Ajv2020 {
  const ajv = new Ajv2020({
    strict: false,
    ownProperties: true,
    logger: false,
    allErrors: false,
    // The meta-schema is checked where surelyMetaValid cannot tell (checkByMetaSchema).
    validateSchema: false,
    validateFormats: assertFormats,
    // A $ref becomes a call to the target's own validator rather than a copy of its
    // code, so compile time and code size stay linear in the schema.
    inlineRefs: false,
    code: { regExp: linearRegExp, optimize: false },
    // A remote $ref is never fetched: compilation fails and the call is blocked.
    loadSchema: undefined,
  });
  // Ajv2020 always tracks which properties and items each subschema evaluated, for
  // unevaluatedProperties/Items; that also makes anyOf try every branch after one
  // passed. Schemas that use those keywords (or $dynamicRef) are validated by the
  // project's evaluator instead (schema-evaluator.ts), so Ajv runs without the
  // tracking, as it does for drafts before 2019-09.
  (ajv.opts as { unevaluated?: boolean }).unevaluated = false;
  // The gate's own checkers, each by its RFC's grammar (schema-formats.ts); a
  // format without one refuses the schema before a value is judged.
  if (assertFormats) for (const [name, definition] of assertedFormats()) ajv.addFormat(name, definition);
  addWorkKeywords(ajv);
  return ajv;
}

/** An `assertFormats` that is not a boolean would turn the checks off in silence: a TypeError instead. */
export function checkAssertFormats(value: unknown): void {
  if (value !== undefined && typeof value !== "boolean") throw new TypeError(`assertFormats is true or false, not ${typeof value} ${JSON.stringify(value) ?? String(value)}`);
}

export class SchemaCache {
  readonly limit: number;
  readonly assertFormats: boolean;
  private ajv: Ajv2020;
  private compiledByAjv = 0;
  private byObject = new WeakMap<object, CompiledSchema>();
  private byContent = new Map<string, CompiledSchema>();

  constructor(limit = DEFAULT_CACHE_LIMIT, options: SchemaCacheOptions = {}) {
    this.limit = limit;
    checkAssertFormats(options.assertFormats);
    this.assertFormats = options.assertFormats === true;
    this.ajv = createAjv(this.assertFormats);
  }

  get size(): number {
    return this.byContent.size;
  }

  compile(schema: ToolSchema): CompiledSchema {
    if (typeof schema === "object" && schema !== null) {
      const known = this.byObject.get(schema);
      if (known) return known;
    }
    // A schema built in code may hold itself, or one subschema in so many places
    // that writing it out as text (the cache key) would never end: a walk that
    // gives up at the bound on values looks first, and the bounds say why.
    const tooLarge = typeof schema === "object" && schema !== null && mayExceedBounds(schema) ? schemaLimitBroken(schema) : undefined;
    if (tooLarge !== undefined) {
      const refused: CompiledSchema = { ok: false, error: `tool schema is refused: ${tooLarge}` };
      this.byObject.set(schema as object, refused);
      return refused;
    }
    const notData = typeof schema === "object" && schema !== null ? notJsonData(schema, MAX_SCHEMA_NODES) : undefined;
    if (notData !== undefined) {
      const refused: CompiledSchema = { ok: false, error: `tool schema is refused: ${notData}` };
      this.byObject.set(schema as object, refused);
      return refused;
    }
    let key: string;
    try {
      key = typeof schema === "boolean" ? String(schema) : JSON.stringify(schema);
    } catch (error) {
      // Too deep to serialize: the bounds say why, where the stack ran out.
      return { ok: false, error: `tool schema is refused: ${schemaLimitBroken(schema) ?? messageOf(error)}` };
    }
    let compiled = this.byContent.get(key);
    if (compiled) {
      // Refresh recency: Map iteration order is insertion order.
      this.byContent.delete(key);
      this.byContent.set(key, compiled);
    } else {
      // What compiles is the text the key is, read back: the schema as its JSON says it.
      compiled = this.compileFresh(typeof schema === "object" && schema !== null ? (JSON.parse(key) as ToolSchema) : schema);
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
    // The bounds come first: every later walk over the schema relies on them.
    const tooLarge = schemaLimitBroken(schema);
    if (tooLarge !== undefined) return { ok: false, error: `tool schema is refused: ${tooLarge}` };
    const proto = namesProtoProperty(schema);
    if (proto !== undefined) return { ok: false, error: `tool schema does not compile: ${proto === "properties" ? "a property" : `a "${proto}" entry`} named "__proto__" cannot be checked` };
    const refused = refusedKeywordUsed(schema) ?? referenceIntoData(schema);
    if (refused !== undefined) return { ok: false, error: `tool schema is refused: ${refused}` };
    const dropped = olderDraftKeyword(schema) ?? keywordSpelledOtherwise(schema, this.assertFormats) ?? ambiguousReference(schema);
    if (dropped !== undefined) return { ok: false, error: dropped };
    // A schema of an older draft is compiled as 2020-12 reads it, or refused; so is one that names another dialect anywhere (schema-dialect.ts).
    const notRead = dialectNotRead(schema, (uri) => metaSchemaDocument(uri) !== undefined) ?? dependenciesReadTwoWays(schema) ?? mixedDialectsWhereTurning(schema) ?? containsEvaluatingItems(schema);
    if (notRead !== undefined) return { ok: false, error: notRead };
    const dialect = readAs2020(schema);
    if ("refused" in dialect) return { ok: false, error: dialect.refused };
    schema = dialect.schema;
    const endless = endlessReferenceIn(schema);
    if (endless !== undefined) return { ok: false, error: `tool schema does not compile: ${endless} leads back to a schema it started from through $ref and allOf alone, so validation would never end` };
    // Ajv keeps every schema it compiled in its code scope; a fresh instance after
    // `limit` compiles lets the old one go once its validators leave the cache.
    if (++this.compiledByAjv > this.limit) {
      this.ajv = createAjv(this.assertFormats);
      this.compiledByAjv = 1;
    }
    try {
      // Every pattern of the schema, reached by a value or not, counts toward the
      // bounds of one compile (linear-regexp.ts).
      return withPatternBounds(() => this.compileValidator(schema));
    } catch (error) {
      // Ajv writes each property name and pattern into a JSON Pointer with encodeURIComponent, which refuses a lone surrogate.
      if (error instanceof URIError) return { ok: false, error: "tool schema does not compile: a property name or pattern in it holds a lone surrogate (half of a UTF-16 pair), which Ajv cannot write into a JSON Pointer" };
      return { ok: false, error: `tool schema does not compile: ${messageOf(error)}` };
    }
  }

  private compileValidator(schema: ToolSchema): CompiledSchema {
    let validate: SchemaValidator;
    if (typeof schema === "object" && needsEvaluator(schema)) validate = this.alone(() => this.evaluatorFor(schema));
    else {
      // Ajv compiles a copy that counts its own work (schema-instrument.ts).
      const counted = instrumented(schema) as ToolSchema;
      this.checkByMetaSchema(counted);
      validate = this.alone(() => this.ajv.compile(counted) as SchemaValidator);
      // The validator lives on in this cache; Ajv's own registry (keyed by object)
      // lets go of it, so memory stays bounded by `limit`.
      if (typeof counted === "object") this.ajv.removeSchema(counted);
    }
    // What compiling left unread (parts no value reaches) is read now, once.
    const unrunnable = unrunnablePart(schema, this.assertFormats);
    if (unrunnable !== undefined) return { ok: false, error: unrunnable };
    // Ajv may have resolved a reference where 2020-12 finds another schema, or none.
    const resolver = this.ajv.opts.uriResolver;
    const apart = referenceReadApart(schema, metaSchemaDocument, (base, reference) => resolver.resolve(base, reference));
    if (apart !== undefined) return { ok: false, error: apart };
    return { ok: true, validate: runWithinBudget(validate), schema };
  }

  /**
   * Compiles with Ajv as if no other tool's schema had compiled before, nor will
   * after: Ajv keeps by URI every resource a schema declares (an embedded `$id`,
   * the root of a schema without one), and a later schema's remote `$ref` to that
   * URI would resolve into this one, instead of being refused as never fetched.
   * Its registries by URI are put back as they were, whatever the compile did.
   */
  private alone<T>(compile: () => T): T {
    const registries = this.ajv as unknown as { refs: Record<string, unknown>; schemas: Record<string, unknown> };
    const refs = { ...registries.refs };
    const schemas = { ...registries.schemas };
    try {
      return compile();
    } finally {
      for (const [registry, before] of [[registries.refs, refs], [registries.schemas, schemas]] as const) {
        for (const uri of Object.keys(registry)) if (!Object.hasOwn(before, uri) || registry[uri] !== before[uri]) delete registry[uri];
        for (const uri of Object.keys(before)) if (!Object.hasOwn(registry, uri)) registry[uri] = before[uri];
      }
    }
  }

  /**
   * The project's evaluator, for a schema whose keywords Ajv evaluates wrong. Ajv
   * still checks the schema against the 2020-12 meta-schema and, when formats are
   * asserted, lends its format checks.
   */
  private evaluatorFor(schema: Record<string, unknown>): SchemaValidator {
    this.checkByMetaSchema(schema);
    // Without assertion every format is one the evaluator does not know: an annotation.
    const formats = this.assertFormats ? (this.ajv.formats as Record<string, FormatEntry | undefined>) : {};
    return compileEvaluator(schema, formats, metaSchemaDocument);
  }


  /**
   * Throws where the 2020-12 meta-schema refuses the schema, with Ajv's message.
   * Ajv compiles the meta-schema only for a schema surelyMetaValid cannot vouch for.
   */
  private checkByMetaSchema(schema: ToolSchema): void {
    if (surelyMetaValid(schema)) return;
    if (!this.ajv.validateSchema(schema)) throw new Error(`schema is invalid: ${this.ajv.errorsText(this.ajv.errors)}`);
  }

  private evictOldest(): void {
    const oldest = this.byContent.keys().next();
    if (!oldest.done) this.byContent.delete(oldest.value);
  }
}

function endlessReferenceIn(schema: ToolSchema): string | undefined {
  let resources: SchemaResources;
  try {
    resources = new SchemaResources(schema);
  } catch {
    // Two schemas claim one identifier: compiling the schema says so.
    return undefined;
  }
  return endlessReference(schema, resources);
}

export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
