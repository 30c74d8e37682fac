// A tool schema that names an older draft's meta-schema in `$schema` (as
// zod-to-json-schema writes draft 7) is read by 2020-12's rules, which never
// accept what its own draft refuses: what those drafts wrote otherwise is refused
// or stricter.
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
  test.each([DRAFT_07, "http://json-schema.org/draft-07/schema", "https://json-schema.org/draft-07/schema#", "http://json-schema.org/draft-06/schema#", "http://json-schema.org/draft-04/schema#", "https://json-schema.org/draft/2019-09/schema"])(
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
    ["draft 4's boolean exclusiveMaximum", { $schema: "http://json-schema.org/draft-04/schema#", type: "object", properties: { n: { type: "number", maximum: 5, exclusiveMaximum: true } } }],
    ["a $ref to draft 7's plain-name anchor", { $schema: DRAFT_07, type: "object", properties: { a: { $ref: "#day" } }, definitions: { day: { $id: "#day", type: "string" } } }],
  ])("what its draft writes otherwise is refused: %s", (_label, schema) => {
    expect(gate(schema, { pair: ["a", 1], n: 5, a: "x" })).toMatchObject({ reason: "arguments_schema", detail: expect.stringMatching(/^tool schema (is refused|does not compile)/) });
  });

  test("a meta-schema the gate does not know is not taken for one it knows", () => {
    expect(gate({ ...(zodTool(DRAFT_07) as object), $schema: "http://json-schema.org/draft-07/schema#x" }, { region: "apac" })).toMatchObject({ reason: "arguments_schema", detail: expect.stringContaining("tool schema does not compile") });
  });
});
