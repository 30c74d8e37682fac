// What a tool schema holds that the gate cannot run, looked for in every part of
// the schema whether or not a value reaches it: Ajv turns into code only the
// parts a value can reach (a `$defs` entry no one refers to, an `anyOf` after a
// branch that always passes), so a broken part there would compile and pass.
//
// | found anywhere a schema sits                     | why the schema is refused           |
// |--------------------------------------------------|-------------------------------------|
// | a `pattern` or `patternProperties` key the       | a careful reader refuses it, in     |
// |   linear engine cannot read or run               |   whichever branch it sits          |
// | `$recursiveRef`, `$recursiveAnchor`,             | keywords of older drafts that       |
// |   `additionalItems`; drafts 2 and 3's            |   2020-12 dropped: an annotation    |
// |   `divisibleBy`, `disallow`, `extends`,          |   there, a constraint where written |
// |   `minimumCanEqual`, `maximumCanEqual`,          |                                     |
// |   `requires`, `maxDecimal`                       |                                     |
// | with formats asserted, a `format` the gate has   | its values could not be judged      |
// |   no checker for                                 |                                     |
// | a member spelled otherwise than a keyword that    | 2020-12 reads it as an annotation;  |
// |   constrains, but folding to it (`Required`,     |   a reader that matches names       |
// |   `additionalproperties`, `maxLength\u200b`;     |   regardless of case (Go's          |
// |   with formats asserted, `Format`)               |   encoding/json) as the keyword     |
// | a `$ref`, `$dynamicRef` or `$id` that is no RFC  | Ajv and a URL parser resolve it     |
// |   3986 URI-reference (a tab, a space, a second   |   apart: the parser drops a tab and |
// |   `#`), or whose fragment encodes a `/` (`%2F`)  |   trims spaces, Ajv keeps them, and |
// |                                                  |   takes `%2F` for part of a name    |
//
// `items` as an array is refused by the 2020-12 meta-schema already; `dependencies`
// kept its one meaning in every draft that had it and is applied, as the 2020-12
// meta-schema still describes it.
import { foldName } from "../models/folded-name.js";
import { pointerToken } from "../models/json-pointer.js";
import { comparedName } from "../models/names-folded-twice.js";
import { quoteVisible } from "../models/quote-visible.js";
import { linearRegExp } from "./linear-regexp.js";
import { isAssertedFormat, uriReference } from "./schema-formats.js";
import { isSchemaObject, subschemasOf, type SchemaObject } from "./schema-keywords.js";
import { DOCUMENT_URI, SchemaResources } from "./schema-resources.js";

const OLDER_DRAFT_KEYWORDS: ReadonlyMap<string, string> = new Map([
  ["$recursiveRef", "draft 2019-09's dynamic reference, which 2020-12 replaced with $dynamicRef"],
  ["$recursiveAnchor", "draft 2019-09's dynamic anchor, which 2020-12 replaced with $dynamicAnchor"],
  ["additionalItems", "the keyword of drafts before 2020-12 for the items after an array of items, which 2020-12 replaced with prefixItems and items"],
  ["divisibleBy", "draft 3's divisor, which draft 4 renamed multipleOf"],
  ["disallow", "draft 3's types or schemas a value must not match, which draft 4 replaced with not"],
  ["extends", "draft 3's schemas a value must match as well, which draft 4 replaced with allOf"],
  ["minimumCanEqual", "draft 2's switch that makes minimum exclusive, which draft 3 replaced with exclusiveMinimum"],
  ["maximumCanEqual", "draft 2's switch that makes maximum exclusive, which draft 3 replaced with exclusiveMaximum"],
  ["requires", "draft 2's property that another property needs, which draft 3 replaced with dependencies"],
  ["maxDecimal", "draft 2's most digits after the point, which draft 3 replaced with divisibleBy"],
]);

/** Why the schema is refused for a keyword of an older draft, with its JSON Pointer, or undefined. Runs before compiling, whose own complaint about it would say less. */
export function olderDraftKeyword(schema: unknown): string | undefined {
  return firstRefusal(schema, droppedKeywordIn);
}

/**
 * Why a schema that names an older draft in `$schema` is refused for a keyword
 * that draft does not have, or reads otherwise than 2020-12 (`laterKeywords`,
 * keyword to the draft that brought it), with its JSON Pointer; or undefined.
 * `refBase`: that draft ignores the keywords beside a `$ref`, and an `$id` there
 * would move the base the reference is resolved against in 2020-12.
 */
export function keywordOfLaterDraft(schema: unknown, draft: string, laterKeywords: ReadonlyMap<string, string>, refBase: boolean, at = ""): string | undefined {
  return firstRefusal(schema, (place, pointer) => {
    for (const [keyword, since] of laterKeywords) {
      if (Object.hasOwn(place, keyword)) {
        return `tool schema is refused: "${keyword}" at ${shown(`${pointer}/${pointerToken(keyword)}`)} is a keyword of ${since}, and the schema names ${draft} in $schema, which reads it as an annotation: read by 2020-12's rules it would accept what its writer's draft refuses`;
      }
    }
    if (refBase && Object.hasOwn(place, "$ref") && Object.hasOwn(place, "$id")) {
      return `tool schema is refused: the $id beside the $ref at ${shown(`${pointer}/$ref`)} would move the base that $ref is resolved against in 2020-12, where ${draft}, which $schema names, ignores it`;
    }
    return undefined;
  }, at);
}

/**
 * The 2020-12 keywords (and Ajv's `dependencies`) that constrain a value, say
 * where the schema that does is, or which dialect reads it (`$schema`, `$id`
 * and the anchors move what a reference reaches): a member that only folds to one is no keyword
 * to Ajv, but its writer's constraint to a reader that folds names. Annotations
 * (title, description, default, format unless asserted…) constrain nothing.
 */
export const CONSTRAINING_KEYWORDS: readonly string[] = [
  "$schema", "$id", "$anchor", "$dynamicAnchor", "$ref", "$dynamicRef", "type", "const", "enum", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
  "maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "maxContains", "minContains", "maxProperties", "minProperties",
  "required", "dependentRequired", "dependencies", "prefixItems", "items", "contains", "additionalProperties", "properties", "patternProperties",
  "dependentSchemas", "propertyNames", "if", "then", "else", "allOf", "anyOf", "oneOf", "not", "unevaluatedItems", "unevaluatedProperties",
];
const KEYWORD_BY_FOLD: ReadonlyMap<string, string> = new Map(CONSTRAINING_KEYWORDS.map((keyword) => [foldName(keyword), keyword]));
const KEYWORDS: ReadonlySet<string> = new Set(CONSTRAINING_KEYWORDS);
/** `format` constrains where formats are asserted: then a reader that folds names checks the format its writer meant. */
const FORMAT_FOLD = foldName("format");

/** Why the schema is refused for a member that folds to a keyword that constrains but is spelled otherwise, with its JSON Pointer, or undefined. Runs before compiling. */
export function keywordSpelledOtherwise(schema: unknown, assertFormats: boolean): string | undefined {
  return firstRefusal(schema, (place, pointer) => {
    for (const member of Object.keys(place)) {
      if (KEYWORDS.has(member) || member === "format") continue;
      const folded = comparedName(member);
      const keyword = KEYWORD_BY_FOLD.get(folded) ?? (assertFormats && folded === FORMAT_FOLD ? "format" : undefined);
      if (keyword === undefined) continue;
      return `tool schema is refused: ${quoteVisible(member, 200)} at ${shown(`${pointer}/${pointerToken(member)}`)} is no keyword to 2020-12, which reads it as an annotation, yet a reader that matches names regardless of case or width (Go's encoding/json does) reads it as "${keyword}": its writer's constraint would go unchecked`;
    }
    return undefined;
  });
}

/** Why the schema is refused for a reference or identifier two readers resolve apart, with its JSON Pointer, or undefined. Runs before compiling. */
export function ambiguousReference(schema: unknown): string | undefined {
  return firstRefusal(schema, ambiguousReferenceIn);
}

function ambiguousReferenceIn(schema: SchemaObject, pointer: string): string | undefined {
  for (const keyword of ["$ref", "$dynamicRef", "$id"]) {
    const value = schema[keyword];
    if (typeof value !== "string") continue;
    const at = shown(`${pointer}/${pointerToken(keyword)}`);
    if (!uriReference(value)) return `tool schema is refused: ${keyword} ${JSON.stringify(value)} at ${at} is not a URI reference (RFC 3986), which Ajv and a URL parser resolve apart`;
    const hash = value.indexOf("#");
    if (hash !== -1 && /%2f/i.test(value.slice(hash))) return `tool schema is refused: ${keyword} ${JSON.stringify(value)} at ${at} encodes a "/" in its fragment, which Ajv reads as part of a name and a JSON Pointer as a separator`;
  }
  return undefined;
}

/**
 * Why the gate cannot run this schema (a pattern, or an asserted format), with
 * the JSON Pointer of the part that says so, or undefined. Runs once per schema,
 * after it compiled: a pattern a value reaches has been refused by then, in the
 * compiler's words.
 */
export function unrunnablePart(schema: unknown, assertFormats: boolean): string | undefined {
  return firstRefusal(schema, (place, pointer) => unrunnableIn(place, pointer, assertFormats));
}

/** The first refusal among the schemas of the document, each read once; then among what references reach elsewhere. `at`: where the document sits, when it is a part of a larger one. */
export function firstRefusal(schema: unknown, refusalOf: (place: SchemaObject, pointer: string) => string | undefined, at = ""): string | undefined {
  let resources: SchemaResources | undefined;
  try {
    resources = new SchemaResources(schema);
  } catch {
    // Two schemas claim one identifier, which compiling refuses: the tree is still
    // read, without following references.
    resources = undefined;
  }
  const rootResource = isSchemaObject(schema) ? resources?.resourceOf(schema) : undefined;
  const seen = new Set<SchemaObject>();
  const pending: Array<{ schema: unknown; pointer: string; base: string }> = [{ schema, pointer: at, base: DOCUMENT_URI }];
  // The document's own tree first, so that each part is named by where it is
  // written; then what references reach outside it (a schema kept under a keyword
  // no table knows, such as "x-shared"), named by the reference.
  const referred: Array<{ schema: unknown; pointer: string; base: string }> = [];
  while (pending.length > 0 || referred.length > 0) {
    const { schema: place, pointer, base } = pending.pop() ?? referred.shift()!;
    if (!isSchemaObject(place) || seen.has(place)) continue;
    seen.add(place);
    const why = refusalOf(place, pointer);
    if (why !== undefined) return why;
    const here = resources?.resourceOf(place) ?? base;
    for (const { keyword, key, schema: sub } of subschemasOf(place)) {
      pending.push({ schema: sub, pointer: `${pointer}/${keyword}${key === undefined ? "" : `/${pointerToken(String(key))}`}`, base: here });
    }
    for (const keyword of ["$ref", "$dynamicRef"]) {
      const reference = place[keyword];
      if (typeof reference !== "string" || resources === undefined) continue;
      const target = resources.resolve(reference, here);
      if (target !== undefined) referred.push({ schema: target.schema, pointer: (target.resource === rootResource ? pointerOfReference(reference) : undefined) ?? `${pointer}/${keyword}`, base: target.resource });
    }
  }
  return undefined;
}

function droppedKeywordIn(schema: SchemaObject, pointer: string): string | undefined {
  for (const [keyword, what] of OLDER_DRAFT_KEYWORDS) {
    if (Object.hasOwn(schema, keyword)) return `tool schema is refused: "${keyword}" at ${shown(`${pointer}/${pointerToken(keyword)}`)} is ${what}; 2020-12 reads it as an annotation where its writer meant a constraint, so the gate runs neither reading`;
  }
  return undefined;
}

function unrunnableIn(schema: SchemaObject, pointer: string, assertFormats: boolean): string | undefined {
  if (typeof schema.pattern === "string") {
    const broken = unrunnablePattern(schema.pattern);
    if (broken !== undefined) return `tool schema does not compile: at ${shown(`${pointer}/pattern`)}: ${broken}`;
  }
  if (isSchemaObject(schema.patternProperties)) {
    for (const source of Object.keys(schema.patternProperties)) {
      const broken = unrunnablePattern(source);
      if (broken !== undefined) return `tool schema does not compile: at ${shown(`${pointer}/patternProperties/${pointerToken(source)}`)}: ${broken}`;
    }
  }
  if (assertFormats && typeof schema.format === "string" && !isAssertedFormat(schema.format)) {
    return `tool schema is refused: format "${schema.format}" at ${shown(`${pointer}/format`)} is asserted (formats are checked) but the gate has no checker for it, so its values could not be judged`;
  }
  return undefined;
}

/** Why the linear engine refuses the pattern, or undefined; its matcher is kept for the validator that uses it. */
function unrunnablePattern(source: string): string | undefined {
  try {
    linearRegExp(source, "u");
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

function shown(pointer: string): string {
  return pointer === "" ? "the root" : pointer;
}

/** The document's own pointer a reference names ("#/x-shared/a"), or undefined for one that names a resource or an anchor. */
function pointerOfReference(reference: string): string | undefined {
  if (!reference.startsWith("#/")) return undefined;
  try {
    return decodeURIComponent(reference.slice(1));
  } catch {
    return undefined;
  }
}
