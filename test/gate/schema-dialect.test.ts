// A tool schema that names draft 6, 7 or 2019-09 in `$schema` (as
// zod-to-json-schema writes draft 7) is read by 2020-12's rules where they accept
// nothing its own draft refuses, and refused where they might.
import { describe, expect, test } from "vitest";
import { replayGate, type Verdict } from "../../src/gate/replay-gate.js";
import { SchemaCache, type ToolSchema } from "../../src/gate/schema.js";
import { call, OK_DETAIL } from "../hostile/support.js";

const gate = (schema: ToolSchema, args: unknown): Verdict => replayGate(call("call_1", JSON.stringify(args)), schema, { cache: new SchemaCache() });
const ok: Verdict = { reason: "ok", detail: OK_DETAIL };

const DRAFT_07 = "http://json-schema.org/draft-07/schema#";

/** A tool schema as zod-to-json-schema writes it, member order included. */
const zodTool = (metaSchema: string): ToolSchema => ({
  type: "object",
  properties: { region: { type: "string", enum: ["apac", "emea"] }, limit: { type: "integer", maximum: 100 } },
  required: ["region"],
  additionalProperties: false,
  $schema: metaSchema,
});

describe("a schema that names an older draft in $schema", () => {
  test.each([DRAFT_07, "http://json-schema.org/draft-07/schema", "https://json-schema.org/draft-07/schema#", "http://json-schema.org/draft-06/schema#", "https://json-schema.org/draft/2019-09/schema"])(
    "%s: valid arguments pass and invalid ones are blocked",
    (metaSchema) => {
      expect(gate(zodTool(metaSchema), { region: "apac", limit: 7 })).toEqual(ok);
      expect(gate(zodTool(metaSchema), { region: "global" })).toMatchObject({ reason: "arguments_schema", detail: expect.stringContaining("arguments/region must be equal to one of the allowed values") });
      expect(gate(zodTool(metaSchema), { region: "apac", limit: 101 })).toMatchObject({ reason: "arguments_schema", detail: expect.stringContaining("arguments/limit must be <= 100") });
    },
  );

  test("draft 7's definitions, reached by a JSON Pointer, constrain as before", () => {
    const schema = { $schema: DRAFT_07, type: "object", properties: { when: { $ref: "#/definitions/day" } }, definitions: { day: { type: "string", pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$" } } };
    expect(gate(schema, { when: "2026-12-07" })).toEqual(ok);
    expect(gate(schema, { when: "tomorrow" })).toMatchObject({ reason: "arguments_schema" });
  });

  test("keywords beside a $ref, which draft 7 ignores, are applied: stricter, never looser", () => {
    const schema = { $schema: DRAFT_07, type: "object", properties: { code: { $ref: "#/definitions/text", maxLength: 3 } }, definitions: { text: { type: "string" } } };
    expect(gate(schema, { code: "abcd" })).toMatchObject({ reason: "arguments_schema", detail: expect.stringContaining("must NOT have more than 3 characters") });
  });

  test.each<[string, ToolSchema]>([
    ["items as an array (draft 7's tuple)", { $schema: DRAFT_07, type: "object", properties: { pair: { type: "array", items: [{ type: "string" }, { type: "integer" }] } } }],
    ["additionalItems", { $schema: DRAFT_07, type: "object", properties: { pair: { type: "array", additionalItems: false } } }],
    ["draft 4, which counts 1.0 as no integer where 2020-12 counts it one", { $schema: "http://json-schema.org/draft-04/schema#", type: "object", properties: { n: { type: "integer" } } }],
    ["a $ref to draft 7's plain-name anchor", { $schema: DRAFT_07, type: "object", properties: { a: { $ref: "#day" } }, definitions: { day: { $id: "#day", type: "string" } } }],
  ])("what its draft writes otherwise is refused: %s", (_label, schema) => {
    expect(gate(schema, { pair: ["a", 1], n: 5, a: "x" })).toMatchObject({ reason: "arguments_schema", detail: expect.stringMatching(/^tool schema (is refused|does not compile)/) });
  });

  test.each<[string, ToolSchema, string]>([
    [
      "prefixItems, which draft 7 reads as an annotation, so that its items hold for every element",
      { $schema: DRAFT_07, type: "object", properties: { ids: { type: "array", prefixItems: [{ type: "integer" }], items: { type: "integer", minimum: 0 } } } },
      'tool schema is refused: "prefixItems" at /properties/ids/prefixItems is a keyword of draft 2020-12, and the schema names draft 7 in $schema, which reads it as an annotation: read by 2020-12\'s rules it would accept what its writer\'s draft refuses',
    ],
    [
      "minContains 0, which would let contains pass with no item",
      { $schema: DRAFT_07, type: "object", properties: { tags: { type: "array", contains: { const: "ok" }, minContains: 0 } } },
      'tool schema is refused: "minContains" at /properties/tags/minContains is a keyword of draft 2019-09, and the schema names draft 7 in $schema, which reads it as an annotation: read by 2020-12\'s rules it would accept what its writer\'s draft refuses',
    ],
    [
      "if under draft 6, which has no if: not {if, then} is not {} to draft 6, which refuses every value",
      { $schema: "http://json-schema.org/draft-06/schema#", type: "object", properties: { v: { not: { if: { const: "a" }, then: { const: "b" } } } } },
      'tool schema is refused: "if" at /properties/v/not/if is a keyword of draft 7, and the schema names draft 6 in $schema, which reads it as an annotation: read by 2020-12\'s rules it would accept what its writer\'s draft refuses',
    ],
    [
      "prefixItems under 2019-09",
      { $schema: "https://json-schema.org/draft/2019-09/schema", type: "object", properties: { ids: { type: "array", prefixItems: [{ type: "integer" }], items: { minimum: 0 } } } },
      'tool schema is refused: "prefixItems" at /properties/ids/prefixItems is a keyword of draft 2020-12, and the schema names draft 2019-09 in $schema, which reads it as an annotation: read by 2020-12\'s rules it would accept what its writer\'s draft refuses',
    ],
    [
      "an $id beside a $ref, which draft 7 ignores and 2020-12 resolves the $ref against",
      { $schema: DRAFT_07, $id: "http://example.com/root.json", type: "object", properties: { v: { $id: "http://example.com/b/", $ref: "#/definitions/num" } }, definitions: { num: { type: "number" } } },
      "tool schema is refused: the $id beside the $ref at /properties/v/$ref would move the base that $ref is resolved against in 2020-12, where draft 7, which $schema names, ignores it",
    ],
    [
      "a constraint beside a $ref, which draft 7 ignores, under not: applied, it passes what draft 7 refuses",
      { $schema: DRAFT_07, type: "object", properties: { v: { not: { $ref: "#/definitions/word", maxLength: 0 } } }, definitions: { word: { type: "string" } } },
      "tool schema is refused: /properties/v/not/maxLength stands beside a $ref, which draft 7, named in $schema, ignores and 2020-12 applies, and the schema holds /properties/v/not, under which one more constraint may pass more values: read by 2020-12's rules it would accept what its writer's draft refuses",
    ],
  ])("a keyword 2020-12 could accept more with is refused: %s", (_label, schema, detail) => {
    expect(gate(schema, { ids: [-5], tags: [], v: "a" })).toEqual({ reason: "arguments_schema", detail, path: "/arguments" });
  });

  test("contains beside unevaluatedItems under 2019-09, whose unevaluatedItems passes no item that contains matched, is refused", () => {
    const schema: ToolSchema = { $schema: "https://json-schema.org/draft/2019-09/schema", type: "object", properties: { tags: { type: "array", contains: { type: "string" }, unevaluatedItems: false } } };
    expect(gate(schema, { tags: ["a"] })).toEqual({
      reason: "arguments_schema",
      detail:
        "tool schema is refused: $schema at /$schema names draft 2019-09, and the schema holds /properties/tags/contains and /properties/tags/unevaluatedItems: 2020-12 counts the items contains matched as evaluated, which unevaluatedItems then passes, where 2019-09 counts none, so read by 2020-12's rules it would accept what its writer's draft refuses",
      path: "/arguments",
    });
  });

  test("a meta-schema the gate does not know is not taken for one it knows", () => {
    expect(gate({ ...(zodTool(DRAFT_07) as object), $schema: "http://json-schema.org/draft-07/schema#x" }, { region: "apac" })).toMatchObject({ reason: "arguments_schema", detail: expect.stringContaining("tool schema does not compile") });
  });
});

describe("a $schema that names another meta-schema, which Ajv reads as 2020-12 all the same", () => {
  const FORMAT_ASSERTION = "https://json-schema.org/draft/2020-12/meta/format-assertion";
  const ownMeta = { $id: "https://tools.test/meta", $vocabulary: { "https://json-schema.org/draft/2020-12/vocab/core": true, "https://json-schema.org/draft/2020-12/vocab/format-assertion": true } };
  const refused = (detail: string): Verdict => ({ reason: "arguments_schema", detail: `tool schema is refused: ${detail}`, path: "/arguments" });

  test("at the root, naming a meta-schema the document holds itself, whose vocabularies ask that formats be asserted, is refused", () => {
    const schema: ToolSchema = { $schema: "https://tools.test/meta", type: "object", properties: { to: { type: "string", format: "email" } }, $defs: { meta: ownMeta } };
    expect(gate(schema, { to: "not an address" })).toEqual(
      refused('$schema at /$schema names "https://tools.test/meta", a meta-schema the schema holds itself, whose vocabularies the gate does not read (one may ask that formats be asserted); only the meta-schema of 2020-12, draft 6, draft 7 or 2019-09 is read'),
    );
  });

  test("below the root, in an embedded resource, naming the format-assertion meta-schema is refused", () => {
    const schema: ToolSchema = { type: "object", properties: { to: { $id: "https://tools.test/to", $schema: FORMAT_ASSERTION, type: "string", format: "email" } } };
    expect(gate(schema, { to: "not an address" })).toEqual(
      refused(`$schema at /properties/to/$schema names "${FORMAT_ASSERTION}", a dialect the gate does not read for the schema there (its vocabularies may ask that formats be asserted), where Ajv reads it as 2020-12 without a word`),
    );
  });

  test("below the root, 2020-12's own meta-schema is read, and an older draft is read as at the root", () => {
    const nested = (meta: string, extra: object = {}): ToolSchema => ({ type: "object", properties: { to: { $schema: meta, type: "string", format: "email", ...extra } } });
    expect(gate(nested("https://json-schema.org/draft/2020-12/schema#"), { to: "not an address" })).toEqual(ok);
    expect(gate(nested(DRAFT_07), { to: "not an address" })).toEqual(ok);
    expect(gate({ type: "object", properties: { to: { $id: "https://tools.test/to", $schema: DRAFT_07, not: { $ref: "#/definitions/word", maxLength: 0 }, definitions: { word: { type: "string" } } } } }, { to: "x" })).toEqual(
      refused("/properties/to/not/maxLength stands beside a $ref, which draft 7, named in $schema, ignores and 2020-12 applies, and the schema holds /properties/to/not, under which one more constraint may pass more values: read by 2020-12's rules it would accept what its writer's draft refuses"),
    );
    expect(gate(nested(DRAFT_07, { minContains: 0 }), { to: "x" })).toEqual(
      refused(`"minContains" at /properties/to/minContains is a keyword of draft 2019-09, and the schema names draft 7 in $schema, which reads it as an annotation: read by 2020-12's rules it would accept what its writer's draft refuses`),
    );
  });
});

describe("dependencies, a constraint to drafts 4 to 7 and an annotation to 2020-12", () => {
  const forceOnlyForDryRun = (extra: object = {}): ToolSchema => ({
    type: "object",
    properties: { mode: { type: "string" }, force: { type: "boolean" } },
    not: { dependencies: { force: { properties: { mode: { const: "dry-run" } } } } },
    ...extra,
  });

  test("beside a keyword under which one more constraint passes more values (not), is refused: 2020-12 refuses every value there, the draft's reading passes some", () => {
    expect(gate(forceOnlyForDryRun(), { mode: "write", force: true })).toEqual({
      reason: "arguments_schema",
      detail: 'tool schema is refused: "dependencies" at /not/dependencies is a constraint to the drafts that had it and an annotation to 2020-12, and the schema holds /not, under which one more constraint may pass more values: the two readings pass different values, and the gate takes neither',
      path: "/arguments",
    });
  });

  test("where it can only pass fewer values, and under a $schema of draft 7, which has the keyword, it is applied", () => {
    const plain: ToolSchema = { type: "object", anyOf: [{ dependencies: { force: ["confirm"] } }] };
    expect(gate(plain, { force: true })).toMatchObject({ reason: "arguments_schema", detail: "arguments must have property confirm when property force is present" });
    expect(gate(plain, { force: true, confirm: true })).toEqual(ok);
    expect(gate(forceOnlyForDryRun({ $schema: DRAFT_07 }), { mode: "write", force: true })).toEqual(ok);
  });
});

describe("a schema that names the meta-schema without a date", () => {
  // Ajv takes http://json-schema.org/schema for 2020-12; the schema's writer meant
  // the latest draft of the day, draft 4 or 7 as often as not, under which a
  // constraint beside a $ref is ignored: {"code":"abc"} passed a not that draft 7 refuses.
  test.each(["http://json-schema.org/schema#", "http://json-schema.org/schema", "https://json-schema.org/schema#"])("%s is refused, at the root or below it", (metaSchema) => {
    const root = { $schema: metaSchema, type: "object", properties: { code: { not: { $ref: "#/definitions/word", maxLength: 1 } } }, definitions: { word: { type: "string" } } };
    expect(gate(root, { code: "abc" })).toMatchObject({ reason: "arguments_schema", detail: expect.stringContaining(`tool schema is refused: $schema at /$schema names ${JSON.stringify(metaSchema)}, the latest draft of whenever the schema was written`) });
    const below = { type: "object", properties: { code: { $id: "https://tools.test/code", $schema: metaSchema, type: "string" } } };
    expect(gate(below, { code: "abc" })).toMatchObject({ reason: "arguments_schema", detail: expect.stringContaining(`$schema at /properties/code/$schema names ${JSON.stringify(metaSchema)}`) });
  });
});

describe("a schema whose parts name drafts that read a $ref's neighbours and dependencies apart", () => {
  const refused = (detail: string): Verdict => ({ reason: "arguments_schema", detail: `tool schema is refused: ${detail}`, path: "/arguments" });
  /** A draft 7 resource whose $ref stands beside maxLength: to draft 7, any string. */
  const draft7Word = { $id: "https://tools.test/word", $schema: DRAFT_07, allOf: [{ $ref: "#/definitions/text", maxLength: 1 }], definitions: { text: { type: "string" } } };

  test("under not, a 2020-12 root's reference to a draft 7 resource whose $ref has a neighbour is refused: draft 7 refuses every string there", () => {
    const schema: ToolSchema = { type: "object", properties: { code: { not: { $ref: "#/$defs/word" } } }, $defs: { word: draft7Word } };
    expect(gate(schema, { code: "abc" })).toEqual(
      refused(
        "$schema at /$defs/word/$schema names draft 7 and the root names no $schema, so draft 2020-12, which read /$defs/word/allOf/0/maxLength, beside a $ref, apart (one applies it, the other does not), and the schema holds /properties/code/not, under which one more constraint may pass more values: readers differ on which draft reads each part, so the gate takes no reading",
      ),
    );
  });

  test("under not, dependencies in a 2020-12 resource of a draft 7 root is refused: 2020-12 reads not {dependencies} as not {}, which refuses every object", () => {
    const options = { $id: "https://tools.test/options", $schema: "https://json-schema.org/draft/2020-12/schema", type: "object", not: { dependencies: { force: { properties: { mode: { const: "dry-run" } } } } } };
    const schema: ToolSchema = { $schema: DRAFT_07, type: "object", properties: { options: { $ref: "#/definitions/options" } }, definitions: { options } };
    expect(gate(schema, { options: { mode: "write", force: true } })).toEqual(
      refused(
        '$schema at /$schema names draft 7 and $schema at /definitions/options/$schema names draft 2020-12, which read "dependencies" at /definitions/options/not/dependencies apart (one applies it, the other does not), and the schema holds /definitions/options/not, under which one more constraint may pass more values: readers differ on which draft reads each part, so the gate takes no reading',
      ),
    );
  });

  test.each<[string, object]>([
    ["properties beside its $ref, which draft 7 ignores", { allOf: [{ $ref: "#/definitions/object", properties: { extra: {} } }], definitions: { object: { type: "object" } } }],
    ["properties, which draft 7 applies and tells nothing of", { properties: { extra: {} } }],
  ])("a 2020-12 root's unevaluatedProperties over a draft 7 resource that holds %s is refused: read by its own draft, the resource evaluates no property", (_label, resource) => {
    const schema: ToolSchema = { type: "object", allOf: [{ $ref: "#/$defs/extra" }], unevaluatedProperties: false, $defs: { extra: { $id: "https://tools.test/extra", $schema: DRAFT_07, ...resource } } };
    expect(gate(schema, { extra: 1 })).toEqual(
      refused(
        "$schema at /$defs/extra/$schema names draft 7 and the root names no $schema, so draft 2020-12, and the schema holds /unevaluatedProperties, which passes what the keywords applied beside it evaluated: draft 7 tells nothing of what its keywords evaluate, and ignores a keyword beside a $ref that the gate applies, so readers differ on what its parts let past, and the gate takes no reading",
      ),
    );
  });

  test("where one more constraint can only pass fewer values, the neighbour of a $ref is applied", () => {
    const schema: ToolSchema = { type: "object", properties: { code: { $ref: "#/$defs/word" } }, $defs: { word: draft7Word } };
    expect(gate(schema, { code: "a" })).toEqual(ok);
    expect(gate(schema, { code: "abc" })).toMatchObject({ reason: "arguments_schema", detail: expect.stringContaining("must NOT have more than 1 characters") });
  });
});
