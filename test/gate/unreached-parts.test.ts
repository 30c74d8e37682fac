// A tool schema is read whole before it runs: a part no value reaches (a `$defs`
// entry no one refers to, a branch after one that always passes, an annotation
// keyword that holds a schema) refuses the schema when a careful reader would
// refuse it, whichever branch the arguments take. So do keywords of older drafts
// that 2020-12 dropped, where its reading and their writer's would differ.
import { describe, expect, test } from "vitest";
import { replayGate, type Verdict } from "../../src/gate/replay-gate.js";
import { SchemaCache, type ToolSchema } from "../../src/gate/schema.js";
import { call, OK_DETAIL } from "../hostile/support.js";

const gate = (schema: ToolSchema, args: unknown): Verdict => replayGate(call("call_1", JSON.stringify(args)), schema, { cache: new SchemaCache() });
const blocked = (detail: string): Verdict => ({ reason: "arguments_schema", detail, path: "/arguments" });
const ok: Verdict = { reason: "ok", detail: OK_DETAIL };

const LOOKBEHIND = "(?<=a)b";
const lookbehindAt = (pointer: string): Verdict =>
  blocked(`tool schema does not compile: at ${pointer}: pattern "${LOOKBEHIND}" uses a lookbehind "(?<=a)", which a linear-time engine cannot run; the schema is refused`);

describe("a pattern the linear engine cannot run, where no value reaches it", () => {
  test.each<[string, ToolSchema, string]>([
    ["under $defs no one refers to", { type: "object", $defs: { unused: { pattern: LOOKBEHIND } } }, "/$defs/unused/pattern"],
    ["under definitions no one refers to", { type: "object", definitions: { unused: { pattern: LOOKBEHIND } } }, "/definitions/unused/pattern"],
    ["in an anyOf branch after one that always passes", { type: "object", anyOf: [true, { pattern: LOOKBEHIND }] }, "/anyOf/1/pattern"],
    ["in contentSchema, an annotation that holds a schema", { type: "object", contentMediaType: "application/json", contentSchema: { pattern: LOOKBEHIND } }, "/contentSchema/pattern"],
    ["as a patternProperties key under $defs", { type: "object", $defs: { unused: { patternProperties: { [LOOKBEHIND]: true } } } }, `/$defs/unused/patternProperties/${LOOKBEHIND}`],
    ["under a keyword no table knows, reached by a $ref in a branch no value reaches", { type: "object", anyOf: [true, { $ref: "#/x-shared/code" }], "x-shared": { code: { pattern: LOOKBEHIND } } }, "/x-shared/code/pattern"],
  ])("%s: the schema is refused, with the pattern's pointer", (_label, schema, pointer) => {
    expect(gate(schema, {})).toEqual(lookbehindAt(pointer));
  });
  test("a pattern that is no ECMA-262 regular expression, under $defs, refuses the schema", () => {
    expect(gate({ type: "object", $defs: { unused: { pattern: "(" } } }, {})).toEqual(
      blocked('tool schema does not compile: at /$defs/unused/pattern: pattern "(" is not an ECMA-262 regular expression with the u flag (unterminated group at offset 1); the schema is refused'),
    );
  });
  test("where a value reaches it, the refusal reads as before", () => {
    expect(gate({ type: "object", not: { pattern: LOOKBEHIND } }, {})).toEqual(blocked(`tool schema does not compile: pattern "${LOOKBEHIND}" uses a lookbehind "(?<=a)", which a linear-time engine cannot run; the schema is refused`));
  });
  test("data is not a schema: a default or an example holding a pattern-like string passes", () => {
    expect(gate({ type: "object", default: { pattern: LOOKBEHIND }, examples: [{ pattern: LOOKBEHIND }], properties: { pattern: { type: "string" } } }, { pattern: LOOKBEHIND })).toEqual(ok);
  });
  test("a const beside format regex is data, not a pattern: asserted, the format blocks it; not asserted, it passes", () => {
    const schema = { type: "object", properties: { filter: { format: "regex", const: "(" } } };
    expect(gate(schema, { filter: "(" })).toEqual(ok);
    expect(replayGate(call("call_1", JSON.stringify({ filter: "(" })), schema, { cache: new SchemaCache(undefined, { assertFormats: true }) })).toEqual(blocked('arguments/filter must match format "regex"'));
  });
  test("valid patterns in unreached parts compile and pass", () => {
    expect(gate({ type: "object", $defs: { unused: { pattern: "^[a-z]+$", patternProperties: { "^x-": true } } }, anyOf: [true, { pattern: "^b" }] }, {})).toEqual(ok);
  });
});

describe("keywords of older drafts", () => {
  const dropped = (keyword: string, pointer: string, what: string): Verdict =>
    blocked(`tool schema is refused: "${keyword}" at ${pointer} is ${what}; 2020-12 reads it as an annotation where its writer meant a constraint, so the gate runs neither reading`);
  const RECURSIVE_REF = "draft 2019-09's dynamic reference, which 2020-12 replaced with $dynamicRef";
  const ADDITIONAL_ITEMS = "the keyword of drafts before 2020-12 for the items after an array of items, which 2020-12 replaced with prefixItems and items";

  test.each([
    ["with $schema 2020-12", { $schema: "https://json-schema.org/draft/2020-12/schema" }],
    ["with no $schema", {}],
  ])("$recursiveRef, %s, refuses the schema where it was applied as a $ref", (_label, header) => {
    expect(gate({ ...header, type: "object", properties: { child: { $recursiveRef: "#" } } }, { child: 1 })).toEqual(dropped("$recursiveRef", "/properties/child/$recursiveRef", RECURSIVE_REF));
  });
  test("$recursiveAnchor refuses the schema", () => {
    expect(gate({ $recursiveAnchor: true, type: "object" }, {})).toEqual(
      dropped("$recursiveAnchor", "/$recursiveAnchor", "draft 2019-09's dynamic anchor, which 2020-12 replaced with $dynamicAnchor"),
    );
  });
  test.each([
    ["with $schema 2020-12", { $schema: "https://json-schema.org/draft/2020-12/schema" }],
    ["with no $schema", {}],
  ])("additionalItems, %s, refuses the schema where 2020-12 would let the extra item through", (_label, header) => {
    expect(gate({ ...header, type: "array", prefixItems: [{ type: "string" }], additionalItems: false }, ["a", 1])).toEqual(dropped("additionalItems", "/additionalItems", ADDITIONAL_ITEMS));
  });
  const property = (schema: ToolSchema): ToolSchema => ({ type: "object", properties: { value: schema } });
  test.each<[string, ToolSchema, unknown, string]>([
    ["divisibleBy", property({ type: "integer", divisibleBy: 5 }), { value: 7 }, "draft 3's divisor, which draft 4 renamed multipleOf"],
    ["disallow", property({ type: "string", disallow: [{ pattern: "^INTERNAL-" }] }), { value: "INTERNAL-42" }, "draft 3's types or schemas a value must not match, which draft 4 replaced with not"],
    ["extends", property({ extends: { maxLength: 10 } }), { value: "far longer than ten characters" }, "draft 3's schemas a value must match as well, which draft 4 replaced with allOf"],
    ["minimumCanEqual", property({ type: "number", minimum: 0, minimumCanEqual: false }), { value: 0 }, "draft 2's switch that makes minimum exclusive, which draft 3 replaced with exclusiveMinimum"],
    ["maximumCanEqual", property({ type: "number", maximum: 10, maximumCanEqual: false }), { value: 10 }, "draft 2's switch that makes maximum exclusive, which draft 3 replaced with exclusiveMaximum"],
    ["requires", property({ requires: "billing" }), { value: "x" }, "draft 2's property that another property needs, which draft 3 replaced with dependencies"],
    ["maxDecimal", property({ type: "number", maxDecimal: 2 }), { value: 0.125 }, "draft 2's most digits after the point, which draft 3 replaced with divisibleBy"],
  ])("%s, of drafts 2 and 3, refuses the schema where 2020-12 would let the value through", (keyword, schema, args, what) => {
    expect(gate(schema, args)).toEqual(dropped(keyword, `/properties/value/${keyword}`, what));
  });
  test("items as an array is refused by the 2020-12 meta-schema", () => {
    expect(gate({ type: "array", items: [{ type: "string" }] }, [1])).toEqual(blocked("tool schema does not compile: schema is invalid: data/items must be object,boolean"));
  });
  test("dependencies keeps its one meaning, as the 2020-12 meta-schema still describes it: a missing dependent property blocks", () => {
    expect(gate({ type: "object", dependencies: { card: ["billing"] } }, { card: "x" })).toEqual(blocked("arguments must have property billing when property card is present"));
    expect(gate({ type: "object", dependencies: { card: { required: ["billing"] } } }, { card: "x" })).toEqual(blocked("arguments must have required property 'billing'"));
    expect(gate({ type: "object", dependencies: { card: ["billing"] } }, { card: "x", billing: "y" })).toEqual(ok);
  });
  test("a property named after an older keyword is a property", () => {
    expect(gate({ type: "object", properties: { additionalItems: { type: "string" }, $recursiveRef: { type: "string" } } }, { additionalItems: "x", $recursiveRef: "y" })).toEqual(ok);
  });
  test("a $schema the gate does not know is never fetched: the schema is refused", () => {
    expect(gate({ $schema: "https://example.com/meta/strict-tools", type: "object" }, {})).toEqual(blocked('tool schema does not compile: no schema with key or ref "https://example.com/meta/strict-tools"'));
  });
});

describe("a member that folds to a keyword that constrains, spelled otherwise", () => {
  const spelledOtherwise = (member: string, pointer: string, keyword: string): Verdict =>
    blocked(
      `tool schema is refused: ${member} at ${pointer} is no keyword to 2020-12, which reads it as an annotation, yet a reader that matches names regardless of case or width (Go's encoding/json does) reads it as "${keyword}": its writer's constraint would go unchecked`,
    );
  const region = { type: "string", enum: ["apac", "emea", "amer"] };
  test.each<[string, ToolSchema, unknown, string, string, string]>([
    ["Required", { type: "object", properties: { region }, Required: ["region"] }, {}, '"Required"', "/Required", "required"],
    ["additionalproperties", { type: "object", properties: { region }, additionalproperties: false }, { region: "apac", purge: true }, '"additionalproperties"', "/additionalproperties", "additionalProperties"],
    ["Enum, in a property", { type: "object", properties: { region: { type: "string", Enum: ["apac"] } } }, { region: "global" }, '"Enum"', "/properties/region/Enum", "enum"],
    ["$ID, which moves what a reference beside it reaches", { type: "object", properties: { cfg: { $ref: "#/$defs/cfg" } }, $defs: { cfg: { $ID: "https://example.com/other", type: "object" } } }, { cfg: {} }, '"$ID"', "/$defs/cfg/$ID", "$id"],
    ["$Schema, which names the dialect", { $Schema: "http://json-schema.org/draft-04/schema#", type: "object", properties: { n: { type: "integer" } } }, { n: 1.0 }, '"$Schema"', "/$Schema", "$schema"],
    ["maxLength with a zero-width space, under $defs", { type: "object", $defs: { code: { type: "string", "maxLength\u200b": 4 } } }, {}, '"maxLength\\u200b"', "/$defs/code/maxLength\u200b", "maxLength"],
  ])("%s refuses the schema where 2020-12 would let the value through", (_label, schema, args, member, pointer, keyword) => {
    expect(gate(schema, args)).toEqual(spelledOtherwise(member, pointer, keyword));
  });
  test("with formats asserted, Format refuses the schema: a reader that folds names checks the format", () => {
    const schema: ToolSchema = { type: "object", properties: { contact: { type: "string", Format: "email" } } };
    const asserting = replayGate(call("call_1", JSON.stringify({ contact: "not an address" })), schema, { cache: new SchemaCache(undefined, { assertFormats: true }) });
    expect(asserting).toEqual(spelledOtherwise('"Format"', "/properties/contact/Format", "format"));
  });
  test("without formats asserted, Format is an annotation as format is", () => {
    expect(gate({ type: "object", properties: { contact: { type: "string", Format: "email" } } }, { contact: "not an address" })).toEqual(ok);
  });
  test("a property so named is a property, and an annotation so spelled constrains nothing", () => {
    expect(gate({ type: "object", required: ["Required"], properties: { Required: { type: "string", Description: "a note", Title: "Required" } } }, { Required: "x" })).toEqual(ok);
  });
});
