// The dialect a tool schema names in `$schema`. Tool schemas written by
// zod-to-json-schema (the Vercel AI SDK before v5, the MCP TypeScript SDK, LangChain
// JS) name draft 7, and some hand-written ones draft 6 or 2019-09. Ajv's 2020-12
// build knows none of those meta-schemas, and a schema naming one did not
// compile: every call to such a tool was blocked.
//
// Such a schema is read by 2020-12's rules where they accept nothing its own
// draft refuses, and refused where they might:
//
// | what the older draft writes                     | read by 2020-12                                      |
// |-------------------------------------------------|------------------------------------------------------|
// | `items` as an array, `additionalItems`          | refused (the meta-schema, schema-unrunnable.ts)      |
// | a keyword a later draft brought (`prefixItems`, | refused: the older draft reads it as an annotation,  |
// |   `minContains`, `$anchor`, `$dynamicRef`…;     |   and 2020-12 could accept more with it (`prefixItems` takes items from under `items`) |
// |   draft 7's `if` to draft 6)                    |                                                      |
// | an `$id` beside a `$ref` (drafts 6 and 7)       | refused: 2020-12 resolves the `$ref` against it      |
// | other keywords beside a `$ref` (ignored by      | applied: more constraints, never fewer               |
// |   drafts 6 and 7)                               |                                                      |
// | `dependencies`                                  | applied, with its one meaning                        |
// | `contains` and `unevaluatedItems` (2019-09,     | refused: 2020-12 passes the items `contains`         |
// |   which counts no item `contains` matched)      |   matched, where 2019-09 refuses them                |
// | `definitions`                                   | a place a `#/definitions/…` pointer reaches alike    |
// | an `$id` of a plain name (`#a`)                  | refused (the meta-schema)                            |
//
// Draft 4 is not read: it counts 1.0 as no integer, where 2020-12 counts it one.
// The schema is compiled with `$schema` naming 2020-12, and every later check
// reads that copy.
//
// A meta-schema other than those is not read either, wherever `$schema` names
// it: its `$vocabulary` may ask for what the gate does not do (the
// format-assertion vocabulary asserts `format`), and Ajv reads the schema as
// 2020-12 all the same, at the root when the document holds a schema of that
// URI, and always below it, where it looks at no `$schema`. Below the root, an
// older draft is read as at the root, and refused where 2020-12 could accept
// more than it. A schema whose parts name drafts that read a `$ref`'s neighbours,
// `dependencies` and what keywords evaluate apart (6 or 7 beside 2019-09 or
// 2020-12) is refused where one more constraint may pass more values, or an
// unevaluated keyword stands, wherever the two stand.
import type { ToolSchema } from "./schema.js";
import { CONSTRAINING_KEYWORDS, firstRefusal, keywordOfLaterDraft } from "./schema-unrunnable.js";
import { DOCUMENT_URI, SchemaResources } from "./schema-resources.js";
import { pointerToken } from "../models/json-pointer.js";

export const DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema";

const SINCE_2019_09 = "draft 2019-09";
const SINCE_2020_12 = "draft 2020-12";

/** Keywords of 2020-12 that 2019-09 does not have. */
const AFTER_2019_09: ReadonlyMap<string, string> = new Map([
  ["prefixItems", SINCE_2020_12],
  ["$dynamicRef", SINCE_2020_12],
  ["$dynamicAnchor", SINCE_2020_12],
]);

/** Keywords of 2019-09 and 2020-12 that drafts 6 and 7 do not have. */
const AFTER_DRAFT_7: ReadonlyMap<string, string> = new Map([
  ...AFTER_2019_09,
  ...["$anchor", "minContains", "maxContains", "unevaluatedItems", "unevaluatedProperties", "dependentSchemas", "dependentRequired", "$vocabulary"].map((keyword): [string, string] => [keyword, SINCE_2019_09]),
]);

interface OlderDraft {
  name: string;
  later: ReadonlyMap<string, string>;
  /** Whether the draft ignores the keywords beside a `$ref`. */
  refAlone: boolean;
  /** Whether `dependencies` is a keyword of the draft (2019-09 split it into dependentSchemas and dependentRequired). */
  hasDependencies: boolean;
}

/**
 * Keywords that draft 6 does not have. Draft 7 brought `if`, `then` and `else`;
 * only `if` matters: without it 2020-12 reads `then` and `else` as nothing too,
 * and with it draft 6 reads all three as annotations where 2020-12 applies them:
 * `not: {if: …, then: …}` is `not: {}` to draft 6, which passes no value, and
 * passes every value that 2020-12's if/then refuses.
 */
const AFTER_DRAFT_6: ReadonlyMap<string, string> = new Map([...AFTER_DRAFT_7, ["if", "draft 7"]]);

const DRAFT_6: OlderDraft = { name: "draft 6", later: AFTER_DRAFT_6, refAlone: true, hasDependencies: true };
const DRAFT_7: OlderDraft = { name: "draft 7", later: AFTER_DRAFT_7, refAlone: true, hasDependencies: true };
const DRAFT_2019_09: OlderDraft = { name: "draft 2019-09", later: AFTER_2019_09, refAlone: false, hasDependencies: false };

/** The meta-schemas of drafts 6, 7 and 2019-09, as writers name them (http or https, with or without the empty fragment). */
const OLDER_DRAFTS: ReadonlyMap<string, OlderDraft> = new Map(
  (
    [
      ["json-schema.org/draft-06/schema", DRAFT_6],
      ["json-schema.org/draft-07/schema", DRAFT_7],
      ["json-schema.org/draft/2019-09/schema", DRAFT_2019_09],
    ] as const
  ).flatMap(([uri, draft]) => ["http://", "https://"].flatMap((scheme) => [[`${scheme}${uri}`, draft] as const, [`${scheme}${uri}#`, draft] as const])),
);

/** The meta-schema URI without a date, which meant the latest draft when it was written. */
const UNDATED = /^https?:\/\/json-schema\.org\/schema#?$/;

/**
 * The schema as 2020-12 reads it: a root that names draft 6, 7 or 2019-09 in
 * `$schema` is given 2020-12's, in a copy of the root (its subschemas are
 * shared, not copied), or refused where 2020-12 could accept what its draft
 * refuses; any other schema is returned as it is.
 */
export function readAs2020(schema: ToolSchema): { schema: ToolSchema } | { refused: string } {
  const draft = typeof schema === "object" && schema !== null && typeof schema.$schema === "string" ? OLDER_DRAFTS.get(schema.$schema) : undefined;
  if (draft === undefined || typeof schema !== "object") return { schema };
  const refused = keywordOfLaterDraft(schema, draft.name, draft.later, draft.refAlone) ?? (draft.refAlone ? besideRefWhereTurning(schema, draft.name) : undefined);
  return refused === undefined ? { schema: { ...schema, $schema: DRAFT_2020_12 } } : { refused };
}

/**
 * Why a `$schema` the schema writes names a dialect the gate does not read, with
 * its JSON Pointer, or undefined. `known`: whether a URI (without its empty
 * fragment) is one of 2020-12's meta-schemas the gate holds. At the root, an
 * older draft is for readAs2020, and a URI the document does not hold is refused
 * by the compiler as never fetched.
 */
export function dialectNotRead(schema: ToolSchema, known: (uri: string) => boolean): string | undefined {
  if (typeof schema !== "object") return undefined;
  return firstRefusal(schema, (place, pointer) => {
    const named = place.$schema;
    if (typeof named !== "string") return undefined;
    const at = `${pointer}/${pointerToken("$schema")}`;
    if (UNDATED.test(named)) {
      return `tool schema is refused: $schema at ${at} names ${JSON.stringify(named)}, the latest draft of whenever the schema was written: readers take it for the draft they know best (Ajv for 2020-12, older ones for draft 4 or 7), which read a $ref beside other keywords, dependencies and items apart; name the draft`;
    }
    if (known(named.replace(/#$/, ""))) return undefined;
    const draft = OLDER_DRAFTS.get(named);
    if (place === schema) {
      if (draft !== undefined || !holds(schema, named)) return undefined;
      return `tool schema is refused: $schema at ${at} names ${JSON.stringify(named)}, a meta-schema the schema holds itself, whose vocabularies the gate does not read (one may ask that formats be asserted); only the meta-schema of 2020-12, draft 6, draft 7 or 2019-09 is read`;
    }
    if (draft !== undefined) return keywordOfLaterDraft(place, draft.name, draft.later, draft.refAlone, pointer) ?? (draft.refAlone ? besideRefWhereTurning(place, draft.name, pointer) : undefined);
    return `tool schema is refused: $schema at ${at} names ${JSON.stringify(named)}, a dialect the gate does not read for the schema there (its vocabularies may ask that formats be asserted), where Ajv reads it as 2020-12 without a word`;
  });
}

/** Whether the document holds a schema by the URI `$schema` names. */
function holds(schema: Record<string, unknown>, uri: string): boolean {
  try {
    return new SchemaResources(schema).resolve(uri, DOCUMENT_URI) !== undefined;
  } catch {
    // Two schemas claim one identifier: compiling refuses the schema anyway.
    return false;
  }
}

/**
 * Keywords under which one more constraint can let more values through: `not`
 * turns a failure into a pass, a `oneOf` branch that fails leaves one fewer
 * passing, an `if` that fails runs `else` in place of `then`, and an item that
 * no longer matches `contains` leaves room under `maxContains`.
 */
const TURNING = ["not", "oneOf", "if", "maxContains"] as const;

/**
 * Keywords that pass what the keywords applied beside them evaluated, as
 * 2019-09 and 2020-12 tell it. Drafts 6 and 7 tell nothing of what their
 * keywords evaluate, so an `unevaluatedProperties: false` over a draft 7 part's
 * `properties` refuses its property to a reader that takes the part by its own
 * draft, and passes it to one that reads every part as 2020-12; and a
 * `properties` beside a draft 7 `$ref`, which the gate applies, evaluates a
 * property that draft 7 ignores.
 */
const UNEVALUATED = ["unevaluatedProperties", "unevaluatedItems"] as const;

/** What a draft that ignores the keywords beside a `$ref` loses there: every constraint but the reference and the identifiers, which are read apart. */
const BESIDE_REF: ReadonlySet<string> = new Set([...CONSTRAINING_KEYWORDS.filter((keyword) => !["$ref", "$schema", "$id", "$anchor", "$dynamicAnchor"].includes(keyword)), "format"]);

/**
 * Why a schema of a draft that ignores the keywords beside a `$ref` (6, 7) is
 * refused for one that 2020-12 applies, where a TURNING keyword stands: applied,
 * it is one more constraint, which passes fewer values everywhere but there
 * (`not: {$ref: "#/definitions/word", maxLength: 1}` passes "abc", which
 * draft 7's `not: {$ref: …}` refuses).
 */
function besideRefWhereTurning(schema: Record<string, unknown>, draft: string, at = ""): string | undefined {
  let beside: string | undefined;
  let turning: string | undefined;
  firstRefusal(schema, (place, pointer) => {
    if (beside === undefined && typeof place.$ref === "string") {
      const keyword = Object.keys(place).find((key) => BESIDE_REF.has(key));
      if (keyword !== undefined) beside = `${pointer}/${pointerToken(keyword)}`;
    }
    turning ??= TURNING.filter((keyword) => Object.hasOwn(place, keyword)).map((keyword) => `${pointer}/${keyword}`)[0];
    return beside !== undefined && turning !== undefined ? "both found" : undefined;
  }, at);
  if (beside === undefined || turning === undefined) return undefined;
  return `tool schema is refused: ${beside} stands beside a $ref, which ${draft}, named in $schema, ignores and 2020-12 applies, and the schema holds ${turning}, under which one more constraint may pass more values: read by 2020-12's rules it would accept what its writer's draft refuses`;
}

/**
 * Why a schema is refused for a `dependencies` that its two readings judge
 * apart, with the JSON Pointers, or undefined. The gate applies `dependencies`
 * as drafts 4 to 7 did, where 2020-12 reads it as an annotation: everywhere
 * else one more constraint passes fewer values, but where a TURNING keyword
 * stands it may pass more (`not: {dependencies: …}` passes what 2020-12's
 * `not: {}` refuses), so neither reading is taken there. A schema whose
 * `$schema` names draft 6 or 7 has the one reading of its draft.
 */
export function dependenciesReadTwoWays(schema: ToolSchema): string | undefined {
  if (typeof schema !== "object") return undefined;
  const draft = typeof schema.$schema === "string" ? OLDER_DRAFTS.get(schema.$schema) : undefined;
  if (draft?.hasDependencies === true) return undefined;
  let dependencies: string | undefined;
  let turning: string | undefined;
  firstRefusal(schema, (place, pointer) => {
    const map = Object.hasOwn(place, "dependencies") ? place.dependencies : undefined;
    if (dependencies === undefined && map !== null && typeof map === "object" && !Array.isArray(map)) dependencies = `${pointer}/dependencies`;
    turning ??= TURNING.filter((keyword) => Object.hasOwn(place, keyword)).map((keyword) => `${pointer}/${keyword}`)[0];
    return dependencies !== undefined && turning !== undefined ? "both found" : undefined;
  });
  if (dependencies === undefined || turning === undefined) return undefined;
  return `tool schema is refused: "dependencies" at ${dependencies} is a constraint to the drafts that had it and an annotation to 2020-12, and the schema holds ${turning}, under which one more constraint may pass more values: the two readings pass different values, and the gate takes neither`;
}

/**
 * Why a schema whose `$schema`s name both a draft that ignores the keywords
 * beside a `$ref` and has `dependencies` (6, 7) and one that applies them and
 * has no `dependencies` (2019-09, 2020-12; a root that names none is 2020-12)
 * is refused where the two read a part apart and a TURNING keyword stands, or
 * where an UNEVALUATED keyword stands; or undefined. Readers disagree on which
 * draft a part below the root is read by: Ajv reads every part by the root's,
 * the specification by the nearest `$schema` of its resource, Python's
 * jsonschema by the one of the schema whose `$ref` reached it. The gate applies a keyword beside a `$ref` and
 * `dependencies` wherever they stand, one more constraint to the draft that
 * ignores them, which under `not` passes what that draft refuses:
 * `not: {$ref: "#/$defs/word"}` where the `$defs` entry is a draft 7 resource
 * whose `$ref` stands beside `maxLength: 1` passed "abc", which draft 7 reads
 * as a string. The checks above look at each draft's own parts alone.
 */
export function mixedDialectsWhereTurning(schema: ToolSchema): string | undefined {
  if (typeof schema !== "object") return undefined;
  // The first $schema of each kind, named by its JSON Pointer; a root without one is 2020-12.
  let refAlone: { at: string; draft: string } | undefined;
  let refApplied = typeof schema.$schema === "string" ? undefined : { at: "", draft: "draft 2020-12" };
  firstRefusal(schema, (place, pointer) => {
    if (typeof place.$schema !== "string") return undefined;
    const draft = OLDER_DRAFTS.get(place.$schema);
    const named = { at: `${pointer}/${pointerToken("$schema")}`, draft: draft?.name ?? "draft 2020-12" };
    if (draft?.refAlone === true) refAlone ??= named;
    else refApplied ??= named;
    return refAlone !== undefined && refApplied !== undefined ? "both found" : undefined;
  });
  if (refAlone === undefined || refApplied === undefined) return undefined;
  let beside: string | undefined;
  let dependencies: string | undefined;
  let turning: string | undefined;
  let unevaluated: string | undefined;
  firstRefusal(schema, (place, pointer) => {
    if (beside === undefined && typeof place.$ref === "string") {
      const keyword = Object.keys(place).find((key) => BESIDE_REF.has(key));
      if (keyword !== undefined) beside = `${pointer}/${pointerToken(keyword)}, beside a $ref,`;
    }
    const map = Object.hasOwn(place, "dependencies") ? place.dependencies : undefined;
    if (dependencies === undefined && map !== null && typeof map === "object" && !Array.isArray(map)) dependencies = `"dependencies" at ${pointer}/dependencies`;
    turning ??= TURNING.filter((keyword) => Object.hasOwn(place, keyword)).map((keyword) => `${pointer}/${keyword}`)[0];
    unevaluated ??= UNEVALUATED.filter((keyword) => Object.hasOwn(place, keyword)).map((keyword) => `${pointer}/${keyword}`)[0];
    return undefined;
  });
  const drafts = `$schema at ${refAlone.at} names ${refAlone.draft} and ${refApplied.at === "" ? "the root names no $schema, so draft 2020-12" : `$schema at ${refApplied.at} names ${refApplied.draft}`}`;
  const readApart = beside ?? dependencies;
  if (readApart !== undefined && turning !== undefined) {
    return `tool schema is refused: ${drafts}, which read ${readApart} apart (one applies it, the other does not), and the schema holds ${turning}, under which one more constraint may pass more values: readers differ on which draft reads each part, so the gate takes no reading`;
  }
  if (unevaluated !== undefined) {
    return `tool schema is refused: ${drafts}, and the schema holds ${unevaluated}, which passes what the keywords applied beside it evaluated: ${refAlone.draft} tells nothing of what its keywords evaluate, and ignores a keyword beside a $ref that the gate applies, so readers differ on what its parts let past, and the gate takes no reading`;
  }
  return undefined;
}

/**
 * Why a schema that names 2019-09 in a `$schema` (at the root or below it) is
 * refused for a `contains` and an `unevaluatedItems` it holds, or undefined.
 * 2020-12 counts the items `contains` matched as evaluated, so that
 * `unevaluatedItems` passes them; 2019-09's `unevaluatedItems` reads what
 * `items`, `additionalItems` and itself evaluated, and `contains` gives it
 * nothing: `{contains: {type: "string"}, unevaluatedItems: false}` refuses
 * `["a"]` under 2019-09 and passes it under 2020-12. Which part a reader takes
 * by which draft is not settled (mixedDialectsWhereTurning), so the two are
 * refused wherever they stand.
 */
export function containsEvaluatingItems(schema: ToolSchema): string | undefined {
  if (typeof schema !== "object") return undefined;
  let named: string | undefined;
  let contains: string | undefined;
  let unevaluated: string | undefined;
  firstRefusal(schema, (place, pointer) => {
    if (typeof place.$schema === "string" && OLDER_DRAFTS.get(place.$schema) === DRAFT_2019_09) named ??= `${pointer}/${pointerToken("$schema")}`;
    if (Object.hasOwn(place, "contains")) contains ??= `${pointer}/contains`;
    if (Object.hasOwn(place, "unevaluatedItems")) unevaluated ??= `${pointer}/unevaluatedItems`;
    return named !== undefined && contains !== undefined && unevaluated !== undefined ? "all found" : undefined;
  });
  if (named === undefined || contains === undefined || unevaluated === undefined) return undefined;
  return `tool schema is refused: $schema at ${named} names draft 2019-09, and the schema holds ${contains} and ${unevaluated}: 2020-12 counts the items contains matched as evaluated, which unevaluatedItems then passes, where 2019-09 counts none, so read by 2020-12's rules it would accept what its writer's draft refuses`;
}
