// The project's own JSON Schema 2020-12 evaluator, for the schemas Ajv gets wrong:
// those that use unevaluatedProperties, unevaluatedItems, $dynamicRef or
// $dynamicAnchor. Ajv lets invalid values through there (items matched by
// `contains` count as evaluated even when they did not match, `if` without `then`
// leaks the properties of a failed `if`, a $dynamicRef reached by two paths
// resolves the same way on both), and blocks some valid ones. Its generated code
// also errs, wherever they stand, on:
// - `contains`: the outcome is kept in a variable the loop over the items sets,
//   so an empty array takes the outcome the array before it left (`[["owner"],
//   []]` passes `items: {contains: {const: "owner"}}`);
// - `prefixItems`: on an array shorter than the first entry that is not `true`
//   (or `{}`), the keywords that come after it (`contains`, `uniqueItems`) are
//   skipped;
// - a required name `""` (`required`, `dependentRequired`, `dependencies`): the
//   test that names the missing property takes `""` for none missing.
//
// It follows the specification's model: each subschema evaluation returns the
// properties and items it evaluated (its annotations) when it passes, and the
// `unevaluated*` keywords read what the passing in-place subschemas of the same
// object evaluated. It stops at the first failure, like Ajv without allErrors.
//
// | keyword family            | how                                                  |
// |---------------------------|------------------------------------------------------|
// | $ref, $dynamicRef         | resolved in the document (schema-resources.ts); a     |
// |                           | dynamic reference to a $dynamicAnchor goes to the     |
// |                           | outermost resource in the dynamic scope that has one  |
// | applicators               | all branches of anyOf/oneOf and all items of contains |
// |                           | are evaluated, for their annotations                  |
// | pattern, patternProperties| the linear-time engine Ajv uses (linear-regexp.ts)    |
// | format                    | the format functions of the gate's Ajv instance       |
// | const, enum, uniqueItems  | JSON equality (schema-equal.ts)                       |
//
// Every evaluation is charged to the same work budget as Ajv's (schema-work.ts),
// and a schema that comes back to itself without moving into the value stops the
// validation (it would never end).
import { isPlainObject } from "../models/json-value.js";
import { linearRegExp, type LinearRegExp } from "./linear-regexp.js";
import { checkLength, checkNumber, checkType, checkValue, schemaError } from "./schema-assertions.js";
import { canonicalJson } from "./schema-equal.js";
import { ownCost } from "./schema-instrument.js";
import { isSchemaObject, keywordRole, subschemasOf, type SchemaObject } from "./schema-keywords.js";
import { misTypedKeyword } from "./schema-keyword-types.js";
import { DOCUMENT_URI, SchemaResources, type KnownDocuments, type Resolved } from "./schema-resources.js";
import { schemaWork, type SchemaError, type SchemaValidator } from "./schema-work.js";

/** Whether a schema needs this evaluator: it uses a keyword Ajv does not evaluate right. */
export function needsEvaluator(schema: unknown): boolean {
  if (!isSchemaObject(schema)) return false;
  for (const keyword of EVALUATOR_KEYWORDS) if (Object.hasOwn(schema, keyword)) return true;
  if (requiresEmptyName(schema)) return true;
  for (const { schema: sub } of subschemasOf(schema)) if (needsEvaluator(sub)) return true;
  for (const [keyword, value] of Object.entries(schema)) {
    // Schemas kept under keywords Ajv ignores are reached by JSON Pointer references.
    if (keywordRole(keyword) === "other" && value !== null && typeof value === "object" && needsEvaluator(Array.isArray(value) ? { allOf: value } : value)) return true;
  }
  return false;
}

const EVALUATOR_KEYWORDS = ["unevaluatedProperties", "unevaluatedItems", "$dynamicRef", "$dynamicAnchor", "contains", "prefixItems"];

/** Whether the schema's own `required`, `dependentRequired` or (array) `dependencies` names the property `""`. */
function requiresEmptyName(schema: SchemaObject): boolean {
  const names = (value: unknown) => Array.isArray(value) && value.includes("");
  if (names(schema.required)) return true;
  for (const keyword of ["dependentRequired", "dependencies"]) {
    const entries = schema[keyword];
    if (isPlainObject(entries) && Object.values(entries).some(names)) return true;
  }
  return false;
}

/** A format as Ajv holds it: a regular expression, a function, `true`, or a definition with its type. */
export type FormatEntry = RegExp | ((value: unknown) => boolean) | true | { type?: string; validate: RegExp | ((value: unknown) => boolean) | true };

/** Compiles the evaluator for a schema; throws, with the reason, when the schema cannot be used. */
export function compileEvaluator(schema: SchemaObject, formats: Readonly<Record<string, FormatEntry | undefined>>, known?: KnownDocuments): SchemaValidator {
  const evaluator = new Evaluator(schema, formats, known);
  const validate: SchemaValidator = (value: unknown) => {
    try {
      const outcome = evaluator.run(value);
      validate.errors = outcome.ok ? null : [outcome.error];
      return outcome.ok;
    } catch (error) {
      if (!(error instanceof EndlessSchema)) throw error;
      validate.errors = [{ instancePath: error.at, schemaPath: "#", keyword: "$ref", params: {}, message: "could not be checked: the schema refers back to itself here without moving into the value" }];
      return false;
    }
  };
  validate.errors = null;
  return validate;
}

class EndlessSchema extends Error {
  constructor(readonly at: string) {
    super(`the schema refers back to itself at "${at}" without moving into the value`);
  }
}

/** What a passing evaluation evaluated of an object or an array. */
interface Evaluated {
  props?: Set<string>;
  items?: Set<number>;
}
type Outcome = { ok: true; evaluated: Evaluated } | { ok: false; error: SchemaError };

/** Where an evaluation stands: the value's location, the base URI, the dynamic scope, the schemas already applied here. */
interface Here {
  path: string;
  base: string;
  scope: readonly string[];
  /**
   * The schemas applied here so far, each with the depths of the dynamic scope it
   * was applied at: looked up, not scanned, so that a step costs the same however
   * long the chain of in-place subschemas that led to it.
   */
  inPlace: Map<SchemaObject, number[]>;
}

const PASS: Outcome = { ok: true, evaluated: {} };

class Evaluator {
  private readonly resources: SchemaResources;
  private readonly references = new Map<SchemaObject, Resolved>();
  private readonly dynamicReferences = new Map<SchemaObject, { target: Resolved; anchor?: string }>();
  private readonly patterns = new Map<string, LinearRegExp>();
  private readonly costs = new Map<SchemaObject, number>();
  private readonly root: SchemaObject;
  private readonly rootResource: string;

  constructor(
    root: SchemaObject,
    private readonly formats: Readonly<Record<string, FormatEntry | undefined>>,
    known: KnownDocuments | undefined,
  ) {
    this.root = root;
    this.resources = new SchemaResources(root, known);
    this.rootResource = this.resources.resourceOf(root)!;
    this.prepare(root, this.rootResource, new Set());
  }

  run(value: unknown): Outcome {
    return this.evaluate(this.root, value, { path: "", base: this.rootResource, scope: [], inPlace: new Map() });
  }

  /** Resolves every reference and compiles every pattern the schema can reach, so that a broken one refuses the schema up front. */
  private prepare(given: unknown, base: string, seen: Set<SchemaObject>): void {
    if (typeof given === "boolean" || (isSchemaObject(given) && seen.has(given))) return;
    const schema = this.admitted(given);
    seen.add(schema);
    const here = this.resources.resourceOf(schema) ?? base;
    if (typeof schema.$ref === "string") {
      const target = this.resolve(schema.$ref, here);
      this.references.set(schema, target);
      this.prepare(target.schema, target.resource, seen);
    }
    if (typeof schema.$dynamicRef === "string") {
      const target = this.resolve(schema.$dynamicRef, here);
      // Dynamic only when the reference is a plain name and its first target declares
      // that name as a $dynamicAnchor; otherwise it is a $ref.
      const name = schema.$dynamicRef.slice(schema.$dynamicRef.indexOf("#") + 1);
      const anchor = schema.$dynamicRef.includes("#") && !name.startsWith("/") && isSchemaObject(target.schema) && target.schema.$dynamicAnchor === name ? name : undefined;
      this.dynamicReferences.set(schema, { target, anchor });
      this.prepare(target.schema, target.resource, seen);
    }
    if (typeof schema.pattern === "string") this.pattern(schema.pattern);
    if (isSchemaObject(schema.patternProperties)) for (const pattern of Object.keys(schema.patternProperties)) this.pattern(pattern);
    for (const { schema: sub } of subschemasOf(schema)) this.prepare(sub, here, seen);
  }

  /** A subschema the evaluator may apply, its keywords of the types 2020-12 gives them, with its cost kept; throws, saying why, otherwise. */
  private admitted(schema: unknown): SchemaObject {
    if (!isSchemaObject(schema)) throw new Error(`schema is invalid: a subschema is ${Array.isArray(schema) ? "an array" : typeof schema}, not an object or a boolean`);
    const misTyped = misTypedKeyword(schema);
    if (misTyped !== undefined) throw new Error(`schema is invalid: a subschema's ${misTyped}`);
    this.costs.set(schema, ownCost(schema));
    return schema;
  }

  private resolve(reference: string, base: string): Resolved {
    const target = this.resources.resolve(reference, base);
    if (target === undefined) throw new Error(`can't resolve reference ${reference} from id ${base === DOCUMENT_URI ? "#" : base}`);
    return target;
  }

  private pattern(source: string): LinearRegExp {
    let compiled = this.patterns.get(source);
    if (compiled === undefined) {
      compiled = linearRegExp(source, "u");
      this.patterns.set(source, compiled);
    }
    return compiled;
  }

  private evaluate(schema: unknown, value: unknown, at: Here): Outcome {
    if (schema === true) return PASS;
    if (schema === false) return { ok: false, error: schemaError(at.path, "false schema", {}, "boolean schema is false") };
    const object = schema as SchemaObject;
    // A subschema the preparation did not reach (a dynamic anchor found in the scope) is read as it would have been.
    schemaWork.charge(this.costs.get(object) ?? this.costs.get(this.admitted(object))!);
    const base = this.resources.resourceOf(object) ?? at.base;
    // Entering a resource (at the root, through its $id, or by a reference into it) extends the dynamic scope.
    const scope = at.scope[at.scope.length - 1] === base ? at.scope : [...at.scope, base];
    const depths = at.inPlace.get(object);
    if (depths === undefined) at.inPlace.set(object, [scope.length]);
    else if (depths.includes(scope.length)) throw new EndlessSchema(at.path);
    else depths.push(scope.length);
    try {
      return this.evaluateObject(object, value, { path: at.path, base, scope, inPlace: at.inPlace });
    } finally {
      const applied = at.inPlace.get(object)!;
      if (applied.length === 1) at.inPlace.delete(object);
      else applied.pop();
    }
  }

  /** The same value, another subschema: annotations are shared with the caller. */
  private inPlace(schema: unknown, value: unknown, at: Here): Outcome {
    return this.evaluate(schema, value, at);
  }

  /** A property or item: a new location, where no subschema has been applied yet. */
  private child(schema: unknown, value: unknown, at: Here, key: string | number): Outcome {
    return this.evaluate(schema, value, { path: `${at.path}/${String(key).replaceAll("~", "~0").replaceAll("/", "~1")}`, base: at.base, scope: at.scope, inPlace: new Map() });
  }

  private evaluateObject(schema: SchemaObject, value: unknown, at: Here): Outcome {
    const evaluated: Evaluated = {};
    const reference = this.references.get(schema);
    // The keywords in a fixed order, the unevaluated* ones last: they read what all the others evaluated.
    const error =
      (reference ? this.absorb(evaluated, this.inPlace(reference.schema, value, { ...at, base: reference.resource })) : undefined) ??
      (this.dynamicReferences.has(schema) ? this.absorb(evaluated, this.followDynamic(schema, value, at)) : undefined) ??
      checkType(schema, value, at.path) ??
      checkValue(schema, value, at.path) ??
      (typeof value === "number" ? checkNumber(schema, value, at.path) : undefined) ??
      (typeof value === "string" ? this.checkString(schema, value, at) : undefined) ??
      (Array.isArray(value) ? this.checkArray(schema, value, at, evaluated) : undefined) ??
      (isPlainObject(value) ? this.checkObject(schema, value, at, evaluated) : undefined) ??
      this.checkCombinations(schema, value, at, evaluated) ??
      this.checkFormat(schema, value, at) ??
      (Array.isArray(value) && schema.unevaluatedItems !== undefined ? this.checkUnevaluatedItems(schema.unevaluatedItems, value, at, evaluated) : undefined) ??
      (isPlainObject(value) && schema.unevaluatedProperties !== undefined ? this.checkUnevaluatedProperties(schema.unevaluatedProperties, value, at, evaluated) : undefined);
    if (error !== undefined) return { ok: false, error };
    return { ok: true, evaluated };
  }

  private followDynamic(schema: SchemaObject, value: unknown, at: Here): Outcome {
    const { target, anchor } = this.dynamicReferences.get(schema)!;
    if (anchor !== undefined) {
      for (const resource of at.scope) {
        const outermost = this.resources.dynamicAnchor(resource, anchor);
        if (outermost !== undefined) return this.inPlace(outermost, value, { ...at, base: resource });
      }
    }
    return this.inPlace(target.schema, value, { ...at, base: target.resource });
  }

  /** Keeps a passing outcome's annotations; a failing one is the error. */
  private absorb(evaluated: Evaluated, outcome: Outcome): SchemaError | undefined {
    if (!outcome.ok) return outcome.error;
    merge(evaluated, outcome.evaluated);
    return undefined;
  }

  private checkString(schema: SchemaObject, value: string, at: Here): SchemaError | undefined {
    const lengthBound = typeof schema.maxLength === "number" || typeof schema.minLength === "number";
    if (lengthBound || typeof schema.pattern === "string") schemaWork.charge(value.length >> 6);
    const error = lengthBound ? checkLength(schema, value, at.path) : undefined;
    if (error) return error;
    if (typeof schema.pattern === "string" && !this.pattern(schema.pattern).test(value)) return schemaError(at.path, "pattern", { pattern: schema.pattern }, `must match pattern "${schema.pattern}"`);
    return undefined;
  }

  private checkFormat(schema: SchemaObject, value: unknown, at: Here): SchemaError | undefined {
    if (typeof schema.format !== "string") return undefined;
    const entry = this.formats[schema.format];
    // An unknown format is an annotation in 2020-12, as it is for the gate's Ajv.
    if (entry === undefined || entry === true) return undefined;
    const definition = typeof entry === "object" && !(entry instanceof RegExp) ? entry : { type: "string", validate: entry };
    if (typeof value !== (definition.type ?? "string")) return undefined;
    if (typeof value === "string") schemaWork.charge(value.length >> 6);
    const check = definition.validate;
    const valid = check === true || (check instanceof RegExp ? check.test(String(value)) : check(value));
    return valid ? undefined : schemaError(at.path, "format", { format: schema.format }, `must match format "${schema.format}"`);
  }

  private checkArray(schema: SchemaObject, items: unknown[], at: Here, evaluated: Evaluated): SchemaError | undefined {
    schemaWork.charge(items.length);
    if (typeof schema.maxItems === "number" && items.length > schema.maxItems) return schemaError(at.path, "maxItems", { limit: schema.maxItems }, `must NOT have more than ${schema.maxItems} items`);
    if (typeof schema.minItems === "number" && items.length < schema.minItems) return schemaError(at.path, "minItems", { limit: schema.minItems }, `must NOT have fewer than ${schema.minItems} items`);
    const seen = (evaluated.items ??= new Set());
    const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
    for (let i = 0; i < Math.min(prefix.length, items.length); i++) {
      const outcome = this.child(prefix[i], items[i], at, i);
      if (!outcome.ok) return outcome.error;
      seen.add(i);
    }
    if (schema.items !== undefined) {
      for (let i = prefix.length; i < items.length; i++) {
        const outcome = this.child(schema.items, items[i], at, i);
        if (!outcome.ok) return outcome.error;
        seen.add(i);
      }
    }
    if (schema.contains !== undefined) {
      let matched = 0;
      for (let i = 0; i < items.length; i++) {
        if (this.child(schema.contains, items[i], at, i).ok) {
          matched += 1;
          seen.add(i);
        }
      }
      const min = typeof schema.minContains === "number" ? schema.minContains : 1;
      const max = typeof schema.maxContains === "number" ? schema.maxContains : undefined;
      if (matched < min || (max !== undefined && matched > max)) {
        return schemaError(at.path, "contains", { minContains: min, maxContains: max }, max === undefined ? `must contain at least ${min} valid item(s)` : `must contain at least ${min} and no more than ${max} valid item(s)`);
      }
    }
    if (schema.uniqueItems === true) {
      const first = new Map<string, number>();
      let pair: { earlier: number; later: number } | undefined;
      for (let i = 0; i < items.length; i++) {
        const key = canonicalJson(items[i]);
        schemaWork.charge(1 + (key.length >> 6));
        const earlier = first.get(key);
        if (earlier !== undefined) pair = { earlier, later: i };
        first.set(key, i);
      }
      if (pair) return schemaError(at.path, "uniqueItems", { i: pair.later, j: pair.earlier }, `must NOT have duplicate items (items ## ${pair.earlier} and ${pair.later} are identical)`);
    }
    return undefined;
  }

  private checkObject(schema: SchemaObject, fields: Record<string, unknown>, at: Here, evaluated: Evaluated): SchemaError | undefined {
    const keys = Object.keys(fields);
    schemaWork.charge(keys.length);
    if (typeof schema.maxProperties === "number" && keys.length > schema.maxProperties) return schemaError(at.path, "maxProperties", { limit: schema.maxProperties }, `must NOT have more than ${schema.maxProperties} properties`);
    if (typeof schema.minProperties === "number" && keys.length < schema.minProperties) return schemaError(at.path, "minProperties", { limit: schema.minProperties }, `must NOT have fewer than ${schema.minProperties} properties`);
    if (Array.isArray(schema.required)) {
      for (const name of schema.required) if (typeof name === "string" && !Object.hasOwn(fields, name)) return schemaError(at.path, "required", { missingProperty: name }, `must have required property '${name}'`);
    }
    const dependencies: Array<[string, unknown]> = [...entries(schema.dependentRequired), ...entries(schema.dependencies).filter(([, need]) => Array.isArray(need))];
    for (const [name, needed] of dependencies) {
      if (!Object.hasOwn(fields, name) || !Array.isArray(needed)) continue;
      for (const other of needed) if (typeof other === "string" && !Object.hasOwn(fields, other)) return schemaError(at.path, "dependentRequired", { property: name, missingProperty: other }, `must have property ${other} when property ${name} is present`);
    }
    const seen = (evaluated.props ??= new Set());
    const properties = isSchemaObject(schema.properties) ? schema.properties : {};
    const patterns = Object.entries(isSchemaObject(schema.patternProperties) ? schema.patternProperties : {}).map(([source, sub]) => ({ matcher: this.pattern(source), sub }));
    for (const key of keys) {
      let covered = false;
      if (Object.hasOwn(properties, key)) {
        covered = true;
        const outcome = this.child(properties[key], fields[key], at, key);
        if (!outcome.ok) return outcome.error;
      }
      if (patterns.length > 0) schemaWork.charge(patterns.length * (1 + (key.length >> 6)));
      for (const { matcher, sub } of patterns) {
        if (!matcher.test(key)) continue;
        covered = true;
        const outcome = this.child(sub, fields[key], at, key);
        if (!outcome.ok) return outcome.error;
      }
      if (!covered && schema.additionalProperties !== undefined) {
        covered = true;
        const outcome = this.child(schema.additionalProperties, fields[key], at, key);
        if (!outcome.ok) return schema.additionalProperties === false ? schemaError(at.path, "additionalProperties", { additionalProperty: key }, "must NOT have additional properties") : outcome.error;
      }
      if (covered) seen.add(key);
      if (schema.propertyNames !== undefined && !this.evaluate(schema.propertyNames, key, { ...at, path: at.path, inPlace: new Map() }).ok) {
        return schemaError(at.path, "propertyNames", { propertyName: key }, "property name must be valid");
      }
    }
    for (const [name, sub] of entries(schema.dependentSchemas)) {
      if (!Object.hasOwn(fields, name)) continue;
      const error = this.absorb(evaluated, this.inPlace(sub, fields, at));
      if (error) return error;
    }
    // `dependencies` is applied as the drafts that had it meant it, but it is no
    // applicator of 2020-12: what its schemas evaluate is not kept, so it never
    // lets a property past unevaluatedProperties.
    for (const [name, sub] of entries(schema.dependencies)) {
      if (Array.isArray(sub) || !Object.hasOwn(fields, name)) continue;
      const outcome = this.inPlace(sub, fields, at);
      if (!outcome.ok) return outcome.error;
    }
    return undefined;
  }

  private checkCombinations(schema: SchemaObject, value: unknown, at: Here, evaluated: Evaluated): SchemaError | undefined {
    if (Array.isArray(schema.allOf)) {
      for (const sub of schema.allOf) {
        const error = this.absorb(evaluated, this.inPlace(sub, value, at));
        if (error) return error;
      }
    }
    if (Array.isArray(schema.anyOf)) {
      // On an object or an array every branch runs, not only up to the first that
      // passes: each passing one adds what it evaluated. Other values have nothing to add.
      const annotated = value !== null && typeof value === "object";
      let passed = false;
      for (const sub of schema.anyOf) {
        const outcome = this.inPlace(sub, value, at);
        if (outcome.ok) {
          passed = true;
          merge(evaluated, outcome.evaluated);
          if (!annotated) break;
        }
      }
      if (!passed) return schemaError(at.path, "anyOf", {}, "must match a schema in anyOf");
    }
    if (Array.isArray(schema.oneOf)) {
      const passing: Evaluated[] = [];
      for (const sub of schema.oneOf) {
        const outcome = this.inPlace(sub, value, at);
        if (outcome.ok) passing.push(outcome.evaluated);
      }
      if (passing.length !== 1) return schemaError(at.path, "oneOf", { passingSchemas: passing.length }, "must match exactly one schema in oneOf");
      merge(evaluated, passing[0]);
    }
    // What `not` evaluated is never kept: its subschema passing is the failure.
    if (schema.not !== undefined && this.inPlace(schema.not, value, at).ok) return schemaError(at.path, "not", {}, "must NOT be valid");
    if (schema.if !== undefined) {
      const condition = this.inPlace(schema.if, value, at);
      // A passing `if` keeps what it evaluated, with or without `then`.
      if (condition.ok) merge(evaluated, condition.evaluated);
      const clause = condition.ok ? "then" : "else";
      if (schema[clause] !== undefined) {
        // The clause's own error says more than "must match then", and is the one Ajv lists first.
        const error = this.absorb(evaluated, this.inPlace(schema[clause], value, at));
        if (error) return error;
      }
    }
    return undefined;
  }

  private checkUnevaluatedItems(sub: unknown, items: unknown[], at: Here, evaluated: Evaluated): SchemaError | undefined {
    const seen = (evaluated.items ??= new Set());
    for (let i = 0; i < items.length; i++) {
      if (seen.has(i)) continue;
      const outcome = this.child(sub, items[i], at, i);
      if (!outcome.ok) return sub === false ? schemaError(at.path, "unevaluatedItems", { index: i }, "must NOT have unevaluated items") : outcome.error;
      seen.add(i);
    }
    return undefined;
  }

  private checkUnevaluatedProperties(sub: unknown, fields: Record<string, unknown>, at: Here, evaluated: Evaluated): SchemaError | undefined {
    const seen = (evaluated.props ??= new Set());
    for (const key of Object.keys(fields)) {
      if (seen.has(key)) continue;
      const outcome = this.child(sub, fields[key], at, key);
      if (!outcome.ok) return sub === false ? schemaError(at.path, "unevaluatedProperties", { unevaluatedProperty: key }, "must NOT have unevaluated properties") : outcome.error;
      seen.add(key);
    }
    return undefined;
  }
}

function merge(into: Evaluated, from: Evaluated): void {
  if (from.props) for (const key of from.props) (into.props ??= new Set()).add(key);
  if (from.items) for (const index of from.items) (into.items ??= new Set()).add(index);
}

function entries(value: unknown): Array<[string, unknown]> {
  return isSchemaObject(value) ? Object.entries(value) : [];
}
