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
// |   `minContains`, `$anchor`, `$dynamicRef`…)     |   and 2020-12 could accept more with it (`prefixItems` takes items from under `items`) |
// | an `$id` beside a `$ref` (drafts 6 and 7)       | refused: 2020-12 resolves the `$ref` against it      |
// | other keywords beside a `$ref` (ignored by      | applied: more constraints, never fewer               |
// |   drafts 6 and 7)                               |                                                      |
// | `dependencies`                                  | applied, with its one meaning                        |
// | `definitions`                                   | a place a `#/definitions/…` pointer reaches alike    |
// | an `$id` of a plain name (`#a`)                  | refused (the meta-schema)                            |
//
// Draft 4 is not read: it counts 1.0 as no integer, where 2020-12 counts it one.
// The schema is compiled with `$schema` naming 2020-12, and every later check
// reads that copy.
import type { ToolSchema } from "./schema.js";
import { keywordOfLaterDraft } from "./schema-unrunnable.js";

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
}

const DRAFT_6: OlderDraft = { name: "draft 6", later: AFTER_DRAFT_7, refAlone: true };
const DRAFT_7: OlderDraft = { name: "draft 7", later: AFTER_DRAFT_7, refAlone: true };
const DRAFT_2019_09: OlderDraft = { name: "draft 2019-09", later: AFTER_2019_09, refAlone: false };

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

/**
 * The schema as 2020-12 reads it: a root that names draft 6, 7 or 2019-09 in
 * `$schema` is given 2020-12's, in a copy of the root (its subschemas are
 * shared, not copied), or refused where 2020-12 could accept what its draft
 * refuses; any other schema is returned as it is.
 */
export function readAs2020(schema: ToolSchema): { schema: ToolSchema } | { refused: string } {
  const draft = typeof schema === "object" && schema !== null && typeof schema.$schema === "string" ? OLDER_DRAFTS.get(schema.$schema) : undefined;
  if (draft === undefined || typeof schema !== "object") return { schema };
  const refused = keywordOfLaterDraft(schema, draft.name, draft.later, draft.refAlone);
  return refused === undefined ? { schema: { ...schema, $schema: DRAFT_2020_12 } } : { refused };
}
