// The dialect a tool schema names in `$schema`. Tool schemas written by
// zod-to-json-schema (the Vercel AI SDK before v5, the MCP TypeScript SDK, LangChain
// JS) name draft 7, and some hand-written ones draft 4, 6 or 2019-09. Ajv's
// 2020-12 build knows none of those meta-schemas, and a schema naming one did not
// compile: every call to such a tool was blocked.
//
// Read by 2020-12's rules, such a schema never accepts a value its own draft
// refuses, since what the older drafts wrote otherwise is refused or stricter:
//
// | older drafts                                   | read by 2020-12                                      |
// |------------------------------------------------|------------------------------------------------------|
// | `items` as an array, `additionalItems`         | refused (the meta-schema, schema-unrunnable.ts)      |
// | draft 4's boolean `exclusiveMinimum`/`Maximum` | refused (the meta-schema)                            |
// | `$recursiveRef` (2019-09)                       | refused (schema-unrunnable.ts)                       |
// | keywords beside a `$ref` (ignored before 2019-09) | applied: more constraints, never fewer            |
// | `dependencies`                                 | applied, with its one meaning                        |
// | `definitions`                                  | a place a `#/definitions/…` pointer reaches alike    |
// | an `id`, or an `$id` of a plain name (`#a`)     | no anchor: a `$ref` to it does not compile, refused  |
//
// So the schema is compiled with `$schema` naming 2020-12, and every later check
// reads that copy.
import type { ToolSchema } from "./schema.js";

export const DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema";

/** The meta-schemas of drafts 4, 6, 7 and 2019-09, as writers name them (http or https, with or without the empty fragment). */
const OLDER_DRAFTS: ReadonlySet<string> = new Set(
  ["json-schema.org/draft-04/schema", "json-schema.org/draft-06/schema", "json-schema.org/draft-07/schema", "json-schema.org/draft/2019-09/schema"].flatMap((uri) =>
    ["http://", "https://"].flatMap((scheme) => [`${scheme}${uri}`, `${scheme}${uri}#`]),
  ),
);

/** Whether `uri` names the meta-schema of draft 4, 6, 7 or 2019-09. */
export function namesOlderDraft(uri: unknown): boolean {
  return typeof uri === "string" && OLDER_DRAFTS.has(uri);
}

/**
 * The schema as 2020-12 reads it: a root that names an older draft's
 * meta-schema in `$schema` is given 2020-12's, in a copy of the root (its
 * subschemas are shared, not copied); any other schema is returned as it is.
 */
export function readAs2020(schema: ToolSchema): ToolSchema {
  if (typeof schema !== "object" || schema === null || !namesOlderDraft(schema.$schema)) return schema;
  return { ...schema, $schema: DRAFT_2020_12 };
}
